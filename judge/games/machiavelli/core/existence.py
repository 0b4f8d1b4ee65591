"""AoP 4, the existence of a state: what is checked at the end of every campaign, after F.2 —
home countries conquered and lost, players eliminated, and victory (or an end agreed, M64)
with the ranking.

In this order (M8, M9, M34, M62, M6, M7, M64):

1. *Conquest* (4.4, M9): a player who controls every province and every city of one of the
   board's home countries (its original power's) holds it from now on, taking it from whoever
   held it; it gives income and raising rights like one's own.
2. *Loss* (4.4, M9): a held home country every city of which is controlled by other players is
   lost — M9's "the same test as M8, per home country"; a city nobody controls (an independent
   garrison, a rebellion, an army and a garrison of two owners) keeps it.
3. *Elimination* (4.3, M8): a player left with no home country — equivalently, every city of
   whose current home country other players control — is eliminated, and so is a player who
   left the game with no substitute leader taking the country over before the campaign ended
   (18.3: "the player is thought to have been eliminated", M62): each unit becomes
   independent where it stands, unless that area already has an independent unit (then it is
   disbanded; of a garrison and an army or fleet in one area, the garrison is kept); the
   treasury is removed from the game, the control markers and the rebellions against the
   player go, sieges laid by the player end, and if the player was the Pope, the
   excommunications in force expire (15).
4. *Victory* (4.2, M6): a player controlling, each with its province, at least the board's
   number of cities (15; 12 from Spring 1465), one at least in the original home country,
   wins.  When anyone does, every player is ranked (M7): by those cities, then controlled
   provinces, then the tax income the position would yield, then the treasury; players still
   tied share the best rank and leave the next ones empty; eliminated players come after,
   those eliminated later first.  The winners are those who met the condition with the best
   rank among them.
5. *Agreement* (M64): failing a victory, the game ends when every surviving player who votes
   (the edge says who: a played country) stands by the same vote, a draw among all the
   survivors (dummies included) or a concession to one of the voters; those share first place,
   the others are ranked after them as at a victory.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace

from judge.games.machiavelli.core.board import Board
from judge.games.machiavelli.core.income import incomes
from judge.games.machiavelli.core.ledger import Purse
from judge.games.machiavelli.core.position import Independent, Owner, Place, Position, Season, Unit, UnitKind
from judge.games.machiavelli.core.results import ControlChange, Reason, RebellionEnd


@dataclass(frozen=True)
class Conquest:
    """A home country conquered (4.4): by whom, from whom (None: nobody held it)."""

    country: str
    player: str
    previous: str | None


@dataclass(frozen=True)
class HomeLoss:
    """A home country a player lost at the end of a campaign without another conquering it (M9)."""

    player: str
    country: str


@dataclass(frozen=True)
class Elimination:
    """A player eliminated (4.3): each unit, and what it became (None: disbanded, M34), and why
    (its home country lost, M8; or its player left with no substitute leader, 18.3, M62)."""

    player: str
    units: tuple[tuple[Unit, Unit | None], ...]
    treasury: int
    reason: Reason = Reason.ELIMINATED


@dataclass(frozen=True)
class Standing:
    """One player's place in the final ranking (4.2, M7): tied players share the best rank, and
    the ranks after it stay unassigned (1, 1, 3)."""

    player: str
    rank: int
    cities: int
    provinces: int
    tax: int
    treasury: int
    eliminated: Season | None = None


@dataclass(frozen=True)
class Proposal:
    """A surviving player's vote to end the game by agreement (M64): a draw among every surviving
    player (``to`` None), or a concession to the player ``to``."""

    to: str | None = None


@dataclass(frozen=True)
class GameEnd:
    """The game is over: won (4.2), or ended by the survivors' agreement (``agreed``, M64); the
    winners (those sharing first place) and every player's standing."""

    winners: tuple[str, ...]
    ranking: tuple[Standing, ...]
    agreed: Proposal | None = None


@dataclass(frozen=True)
class Ending:
    """What the end of a campaign did, and the position it leaves."""

    conquests: tuple[Conquest, ...]
    losses: tuple[HomeLoss, ...]
    eliminations: tuple[Elimination, ...]
    rebellions_ended: tuple[RebellionEnd, ...]
    control_changes: tuple[ControlChange, ...]
    end: GameEnd | None
    position: Position


def counted_cities(board: Board, position: Position, player: str) -> tuple[str, ...]:
    """The areas whose city and province ``player`` both controls (M6)."""
    return tuple(code for code, area in board.areas.items() if area.city is not None
                 and position.controller(code) == player and position.city_controller(code) == player)


def controls_country(board: Board, position: Position, player: str, country: str) -> bool:
    """Whether ``player`` controls every province and city of ``country``'s home country (4.4)."""
    return all(position.controller(area) == player
               and (board.areas[area].city is None or position.city_controller(area) == player)
               for area in board.home_country(country))


def _held_by_others(board: Board, position: Position, player: str, country: str) -> bool:
    """Every city of the home country is controlled by another player (M8, M9)."""
    cities = [area for area in board.home_country(country) if board.areas[area].city is not None]
    return all(isinstance(c := position.city_controller(area), str) and c != player for area in cities)


def end_of_campaign(board: Board, position: Position, purse: Purse, leaving: frozenset[str] = frozenset(),
                    votes: Mapping[str, Proposal | None] | None = None) -> Ending:
    """Conquests, losses, eliminations, victory or agreement at the end of a campaign (module docstring);
    the players ``leaving`` (left with no substitute leader) are eliminated too (18.3, M62).
    ``votes`` are the standing votes of the players who vote (M64: each played country, its vote
    or None): the game ends by agreement when every surviving voter votes the same."""
    players = position.living(board.powers)
    homes = {p: set(position.home_countries(p)) for p in players}
    conquests: list[Conquest] = []
    for country in board.powers:
        for player in players:
            if country not in homes[player] and controls_country(board, position, player, country):
                previous = next((p for p in players if country in homes[p]), None)
                if previous is not None:
                    homes[previous].discard(country)
                homes[player].add(country)
                conquests.append(Conquest(country, player, previous))
    losses = [HomeLoss(p, c) for p in players for c in sorted(homes[p]) if _held_by_others(board, position, p, c)]
    for loss in losses:
        homes[loss.player].discard(loss.country)
    position = replace(position, homes={p: frozenset(homes[p]) for p in players})
    eliminations: list[Elimination] = []
    ended: list[RebellionEnd] = []
    changes: list[ControlChange] = []
    for player in players:
        if not homes[player] or player in leaving:
            why = Reason.ELIMINATED if not homes[player] else Reason.LEFT_THE_GAME
            position, elimination = _eliminate(board, position, player, why, purse, ended, changes)
            eliminations.append(elimination)
    end = _victory(board, position) or _agreement(board, position, votes or {})
    return Ending(tuple(conquests), tuple(losses), tuple(eliminations), tuple(ended), tuple(changes), end, position)


def _eliminate(board: Board, position: Position, player: str, why: Reason, purse: Purse,
               ended: list[RebellionEnd], changes: list[ControlChange]) -> tuple[Position, Elimination]:
    """Eliminate ``player`` (4.3, M34; see the module docstring)."""
    treasury = purse.balance(player)
    purse.confiscate(player, "end")
    units, fates = _units_freed(position, player)
    rebellions = dict(position.rebellions)
    for area, victim in sorted(position.rebellions.items()):
        if victim == player:
            ended.append(RebellionEnd(area, rebellions.pop(area), Reason.VICTIM_ELIMINATED))
    control = _control_after(board, position, player, units, fates, rebellions)
    changes += _control_changes(position.control, control)
    bans = {} if player == board.papacy else {t: s for t, s in position.bans.items() if t != player}
    position = replace(
        position.with_units(units.values()),
        control=control,
        rebellions=rebellions,
        sieges={a: s for a, s in position.sieges.items() if s.besieger != player},
        treasuries=dict(purse.treasuries),
        anticipated={p: v for p, v in position.anticipated.items() if p != player},
        homes={p: h for p, h in position.homes.items() if p != player},
        eliminated={**position.eliminated, player: position.season},
        bans=bans,
    )
    return position, Elimination(player, tuple(fates), treasury, why)


def _units_freed(position: Position, player: str) -> tuple[dict[Place, Unit], list[tuple[Unit, Unit | None]]]:
    """The board's units once ``player`` is eliminated (4.3): each of its units becomes independent where it
    stands, or is disbanded (its fate None) where an independent unit already is; garrisons
    first, so that of a garrison and an army or fleet in one area the garrison is kept."""
    units = {place: unit for place, unit in position.units.items() if unit.owner != player}
    fates: list[tuple[Unit, Unit | None]] = []
    for unit in sorted(position.units_of(player), key=lambda u: (u.kind is not UnitKind.GARRISON, u.area)):
        native = Independent(unit.area)
        if any(u.owner == native for u in units.values()):
            fates.append((unit, None))
        else:
            units[unit.place] = Unit(unit.kind, native, unit.area, unit.coast)
            fates.append((unit, units[unit.place]))
    return units, fates


def _control_after(board: Board, position: Position, player: str, units: Mapping[Place, Unit],
                   fates: Sequence[tuple[Unit, Unit | None]], rebellions: Mapping[str, Owner]) -> dict[str, Owner]:
    """The control markers once ``player`` is eliminated (4.3): its own go; a land area where its
    units stood is controlled by the one owner of the units now there (unless it rebels), and
    by nobody where two owners' units now stand."""
    control: dict[str, Owner] = {a: o for a, o in position.control.items() if o != player}
    for area in sorted({unit.area for unit, _ in fates}):
        owners = {u.owner for u in (units.get(Place(area)), units.get(Place(area, city=True))) if u is not None}
        if len(owners) == 1 and area not in rebellions and board.areas[area].is_land:
            control[area] = owners.pop()
        elif len(owners) == 2:
            control.pop(area, None)
    return control


def _control_changes(before: Mapping[str, Owner], after: Mapping[str, Owner]) -> list[ControlChange]:
    """Each area whose control an elimination changed: made independent, or lost by the player."""
    changes: list[ControlChange] = []
    for area in sorted(set(before) | set(after)):
        if before.get(area) != after.get(area):
            reason = Reason.MADE_INDEPENDENT if after.get(area) is not None else Reason.ELIMINATED
            changes.append(ControlChange(area, before.get(area), after.get(area), reason))
    return changes


def _victory(board: Board, position: Position) -> GameEnd | None:
    """The winners and the ranking, if anyone has won (4.2, M6, M7)."""
    players = position.living(board.powers)
    needed = board.victory.needed(position.season.year)
    counted = {p: counted_cities(board, position, p) for p in players}
    met = [p for p in players
           if len(counted[p]) >= needed and any(a in board.home_country(p) for a in counted[p])]
    if not met:
        return None
    ranking = standings(board, position)
    best = min(s.rank for s in ranking if s.player in met)
    winners = tuple(s.player for s in ranking if s.player in met and s.rank == best)
    return GameEnd(winners, ranking)


def _agreement(board: Board, position: Position, votes: Mapping[str, Proposal | None]) -> GameEnd | None:
    """The end the survivors agreed on, if every surviving voter votes for the same one (M64): a
    draw shares first place among every surviving player (dummies too: they do not vote, but
    survive); a concession, to a surviving voter, ranks that player first."""
    survivors = position.living(board.powers)
    cast = {votes[p] for p in survivors if p in votes}
    if len(cast) != 1:
        return None
    (agreed,) = cast
    if agreed is None or (agreed.to is not None and (agreed.to not in votes or agreed.to not in survivors)):
        return None
    first = survivors if agreed.to is None else (agreed.to,)
    return GameEnd(first, standings(board, position, first), agreed)


def standings(board: Board, position: Position, first: Sequence[str] = ()) -> tuple[Standing, ...]:
    """Every player's rank as 4.2 ranks them (M7): cities counted, then provinces controlled,
    then the tax income A.2 would collect now, then the treasury; the eliminated after the
    living, the later eliminated first.  Victory's ranking, and a game ended before anyone won;
    ``first`` share first place, the others ranked after them (a draw or a concession, M64)."""
    players = position.living(board.powers)
    tax = incomes(board, position, players, trade=False)
    scores = {p: (len(counted_cities(board, position, p)),
                  sum(position.controller(a) == p for a in board.areas if board.areas[a].is_land),
                  tax[p].tax, position.treasuries.get(p, 0)) for p in players}
    top = sorted((p for p in players if p in first), key=lambda p: scores[p], reverse=True)
    rest = sorted((p for p in players if p not in first), key=lambda p: scores[p], reverse=True)
    result = [Standing(p, 1, *scores[p]) for p in top]
    result += [Standing(p, len(top) + rank, *scores[p]) for p, rank in _ranked(rest, lambda p: scores[p])]
    fallen = sorted(position.eliminated.items(), key=lambda item: item[1].sort_key(), reverse=True)
    offset = len(players)
    for player, rank in _ranked([p for p, _ in fallen], lambda p: position.eliminated[p].sort_key()):
        result.append(Standing(player, offset + rank, 0, 0, 0, 0, position.eliminated[player]))
    return tuple(result)


def _ranked(ordered: Sequence[str], score: Callable[[str], object]) -> list[tuple[str, int]]:
    """Competition ranks (1, 1, 3...) of ``ordered``, best first; ``score`` tells ties apart."""
    ranks: list[tuple[str, int]] = []
    for i, player in enumerate(ordered):
        tied = i > 0 and score(player) == score(ordered[i - 1])
        ranks.append((player, ranks[-1][1] if tied else i + 1))
    return ranks
