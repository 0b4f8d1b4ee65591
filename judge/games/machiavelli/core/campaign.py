"""The campaign sequencer (AoP 2): the letters the judge awaits, and one campaign carried out.

A year has three campaigns, Spring, Summer and Fall; there is no winter.  Each position awaits
one kind of letter (:class:`~.position.Phase`):

* **A** (spring only): the A letters — :func:`~.spring.spring_letter` carries out A.4 to A.7
  (A.1 and A.2 were done when the Fall campaign ended; the first spring has neither) and
  leaves the position awaiting the C letters of the same spring;
* **C**: the C letters — :func:`campaign` carries out C (the letters are split into
  expenditures, operations, permissions and the Pope's excommunication), D.1 to D.4 and E
  (:mod:`~.expense`), F.1 and F.2 (:func:`~.action.adjudicate`), then the end of the campaign
  (:mod:`~.existence`: conquests, eliminations, victory, or an end the survivors agreed on); then
  the next season: a Spring's A.1 and A.2 at once (:func:`~.spring.spring_opening`), so that
  A.2's publication goes out with the Fall's results;
* **over**: somebody won, or the survivors agreed on an end; nothing is awaited.

Phase B (publication, negotiation) is the mail edge's: :meth:`CampaignRecord.public` and
:meth:`~CampaignRecord.for_player` say what the rules publish and what each player learns
privately.  :func:`expected_letters` says whom the judge waits for; a player who sends nothing
gets the defaults (17.2, M50): in A, the salaries of the units by default (7.3, M12); in C, no
expenditure, and every unit holds (an order never given, not a given Hold: M45).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from judge.games.machiavelli.core.action import adjudicate
from judge.games.machiavelli.core.board import Board
from judge.games.machiavelli.core.existence import Conquest, Ending, GameEnd, HomeLoss, Proposal, end_of_campaign
from judge.games.machiavelli.core.expenditures import (
    Allow,
    Assassinate,
    Bodyguard,
    Bribe,
    CounterBribe,
    Excommunicate,
    Expenditure,
    LetterOrder,
    Pacify,
    SpringOrder,
    StartRebellion,
    Transfer,
)
from judge.games.machiavelli.core.expense import BribeEffect, Expending, RebellionStart, expend
from judge.games.machiavelli.core.ledger import Movement, OrderOutcome, Purse
from judge.games.machiavelli.core.orders import Advance, Besiege, Convert, Hold, Order, Permission, Support, Transport
from judge.games.machiavelli.core.position import Campaign, Phase, Position, Season, Unit
from judge.games.machiavelli.core.results import (
    Adjudication,
    ControlChange,
    Conversion,
    Disband,
    OrderResult,
    Reason,
    RebellionEnd,
    Retreat,
    SiegeReport,
)
from judge.games.machiavelli.core.spring import SpringOpening, default_payments, excommunications, spring_opening

OPERATIONS = (Hold, Advance, Support, Transport, Besiege, Convert)
EXPENDITURES = (Transfer, Assassinate, Bodyguard, StartRebellion, Pacify, Bribe, CounterBribe)


def fits(order: LetterOrder, phase: Phase) -> bool:
    """Whether ``order`` is one of the letter ``phase`` awaits: the spring's A orders (A.4 to
    A.7) or a campaign's C orders (operations, expenditures, permissions, the Pope's
    excommunication).  Any other is not carried out, nor charged (2, 8.1: ``NOT_THIS_PHASE``)."""
    if phase is Phase.A:
        return isinstance(order, SpringOrder)
    return phase is Phase.C and isinstance(order, Order | Expenditure | Excommunicate | Allow)


@dataclass(frozen=True)
class Expected:
    """A letter the judge awaits: from whom, for which phase, and what it does without it."""

    player: str
    phase: Phase
    default: str


def expected_letters(board: Board, position: Position) -> tuple[Expected, ...]:
    """The letters ``position`` awaits, one per living player (none when the game is over)."""
    if position.phase is Phase.OVER:
        return ()
    default = ("the units' salaries are paid by default, garrisons, armies, then fleets (7.3, M12, M50)"
               if position.phase is Phase.A else "no expenditure, and every unit holds (17.2, M50)")
    return tuple(Expected(p, position.phase, default) for p in position.living(board.powers))


def default_letter(board: Board, position: Position, player: str) -> tuple[LetterOrder, ...]:
    """What the judge carries out for a player who sent nothing (17.2, M50): the default payments
    in phase A, nothing in phase C (every unit then holds with no order given)."""
    return default_payments(board, position, player) if position.phase is Phase.A else ()


@dataclass(frozen=True)
class PlayerReport:
    """What one player learns privately of a campaign (AoP 2, B): the treasury and its movements,
    each letter order charged or not and why, and what happened to the units."""

    player: str
    treasury: int
    movements: tuple[Movement, ...]
    outcomes: tuple[OrderOutcome, ...]
    bribed: tuple[BribeEffect, ...]  # bribes on the player's units, and the player's own that took
    operations: tuple[OrderResult, ...]
    retreats: tuple[Retreat, ...]
    disbanded: tuple[Disband, ...]


@dataclass(frozen=True)
class Publication:
    """What the rules publish of a campaign (2, B; 8.1 and 8.2 keep the rest secret: who paid
    what, the transfers, the bribes that failed, the orders of units bribed away)."""

    season: Season
    excommunicated: tuple[str, ...]
    assassinated: tuple[str, ...]
    bribes: tuple[tuple[Unit, Unit | None], ...]  # a unit before and after a successful bribe (None: disbanded)
    rebellions_started: tuple[RebellionStart, ...]
    rebellions_ended: tuple[RebellionEnd, ...]
    operations: tuple[OrderResult, ...]
    retreats: tuple[Retreat, ...]
    disbanded: tuple[Disband, ...]
    conversions: tuple[Conversion, ...]
    sieges: tuple[SiegeReport, ...]
    control_changes: tuple[ControlChange, ...]
    conquests: tuple[Conquest, ...]
    losses: tuple[HomeLoss, ...]
    eliminated: tuple[tuple[str, Reason], ...]  # each player eliminated, and why (M8, M62)
    end: GameEnd | None
    opening: SpringOpening | None  # the next spring's A.1 and A.2 (incomes)
    anticipated: Mapping[str, int]  # the anticipated treasuries (A.2)


@dataclass(frozen=True)
class CampaignRecord:
    """Everything one campaign did (C to F and its end), and the position it leaves."""

    season: Season
    outcomes: tuple[OrderOutcome, ...]  # every letter order but the operations, charged or not and why
    expending: Expending  # phases D and E
    action: Adjudication  # phase F
    ending: Ending  # the end of the campaign (4.2 to 4.4)
    opening: SpringOpening | None  # the next spring's A.1 and A.2, after a Fall
    movements: tuple[Movement, ...]
    position: Position

    @property
    def end(self) -> GameEnd | None:
        """Who won, if anyone did (4.2)."""
        return self.ending.end

    def for_player(self, player: str) -> PlayerReport:
        """What ``player`` learns privately of this campaign."""
        mine = {u.place for u in self.expending.position.units.values() if u.owner == player}
        return PlayerReport(
            player=player,
            treasury=self.position.treasuries.get(player, 0),
            movements=tuple(m for m in self.movements if m.player == player),
            outcomes=tuple(o for o in self.outcomes if o.player == player),
            bribed=tuple(b for b in self.expending.bribes if player in (b.before.owner, b.briber)),
            operations=tuple(r for r in self.action.results if r.unit.place in mine),
            retreats=tuple(r for r in self.action.retreats if r.unit.owner == player),
            disbanded=tuple(d for d in self.action.disbanded if d.unit.owner == player),
        )

    def public(self) -> Publication:
        """What the rules publish of this campaign."""
        d, f, end = self.expending, self.action, self.ending
        return Publication(
            season=self.season,
            excommunicated=tuple(o.order.target for o in self.outcomes
                                 if isinstance(o.order, Excommunicate) and o.succeeded),
            assassinated=tuple(sorted(d.assassinated)),
            bribes=tuple((b.before, b.after) for b in d.bribes if b.after != b.before),
            rebellions_started=d.rebellions_started,
            rebellions_ended=d.rebellions_ended + f.rebellions_ended + end.rebellions_ended,
            operations=f.results,
            retreats=f.retreats,
            disbanded=f.disbanded,
            conversions=f.conversions,
            sieges=f.sieges,
            control_changes=d.control_changes + f.control_changes + end.control_changes,
            conquests=end.conquests,
            losses=end.losses,
            eliminated=tuple((e.player, e.reason) for e in end.eliminations),
            end=end.end,
            opening=self.opening,
            anticipated=self.position.anticipated,
        )


def campaign(board: Board, position: Position, letters: Mapping[str, Sequence[LetterOrder] | None],
             leaving: frozenset[str] = frozenset(), votes: Mapping[str, Proposal | None] | None = None,
             ) -> CampaignRecord:
    """Carry out one campaign (C to F, and its end) with every player's C letter (see the module
    docstring); a missing letter is an empty one (M50).  The players ``leaving`` left the game
    with no substitute leader: they are eliminated when the campaign ends (18.3, M62).  ``votes``
    are the standing votes on the game's end of the players who vote (M64): the game ends when
    every surviving voter votes the same."""
    if position.phase is not Phase.C:
        raise ValueError(f"the position awaits the {position.phase.value} letters, not a campaign's C letters")
    season = position.season
    players = position.living(board.powers)
    purse = Purse(position.treasuries)
    outcomes: list[OrderOutcome] = []
    operations: dict[str, list[Order]] = defaultdict(list)
    written: dict[str, list[tuple[int, Expenditure]]] = defaultdict(list)
    papal: dict[str, list[LetterOrder]] = defaultdict(list)
    permissions: set[Permission] = set()
    for player, letter in sorted(letters.items()):
        for at, order in enumerate(letter or ()):
            if player not in players:
                outcomes.append(OrderOutcome(player, "C", order, False, 0, Reason.NOT_A_PLAYER))
            elif isinstance(order, OPERATIONS):
                operations[player].append(order)
            elif isinstance(order, EXPENDITURES):
                written[player].append((at, order))
            elif isinstance(order, Excommunicate):
                papal[player].append(order)
            elif isinstance(order, Allow):
                granted = order.grantee in players and order.grantee != player
                permissions |= {Permission(player, order.grantee, g) for g in order.grants if granted}
                outcomes.append(OrderOutcome(player, "C.2", order, granted, 0,
                                             Reason.GRANTED if granted else Reason.UNKNOWN_PLAYER))
            else:
                outcomes.append(OrderOutcome(player, "C", order, False, 0, Reason.NOT_THIS_PHASE))
    position, _, sheet = excommunications(board, position, players, papal, "C.2")  # in force from D on (M32)
    outcomes += sheet
    expending = expend(board, position, players, written, frozenset(permissions), frozenset(position.bans), purse)
    outcomes += expending.outcomes
    position = replace(expending.position, treasuries=dict(purse.treasuries))
    action = adjudicate(board, position, operations, phase_d=expending.phase_d, permissions=frozenset(permissions))
    position = replace(action.position, bans={t: s for t, s in action.position.bans.items() if s != season})
    ending = end_of_campaign(board, position, purse, leaving, votes)
    following = season.next()
    phase = Phase.OVER if ending.end else Phase.A if following.campaign is Campaign.SPRING else Phase.C
    position = replace(ending.position, treasuries=dict(purse.treasuries), season=following, phase=phase)
    opening = None
    if phase is Phase.A:
        position, opening = spring_opening(board, position, purse)
    return CampaignRecord(season, tuple(outcomes), expending, action, ending, opening, tuple(purse.movements),
                          position)
