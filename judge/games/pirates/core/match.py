"""Pirates' Proposal: the match as a value, and what opening and closing each phase does to it.

"The rules" are the game's text (its Gameplay, Results, Round Information and Submissions
sections, the Garnet Usage note, the Clarification and the two Amendments); P1-P14 are the
judge's rulings on what the text leaves open.

Theory of operation.

1. *A match is what happened.*  A :class:`Match` holds the players, the rooms drawn at the
   start, which phase is open, and per :class:`Round` only facts: the rooms, the package each
   player opened, the plan that stood for each player when the Distribution Phase closed, the
   ballot that stood for each player when the Voting Phase closed, and the moves asked for.
   Outcomes, gold, garnets, tokens and Elimination Candidates are worked out from those facts
   (:func:`settle`, :func:`gold`, :func:`final_result`), so a stored match cannot disagree with
   itself.  The service keeps the match as JSON between phases (``judge.games.pirates.core.notation``).

2. *Phases.*  :func:`start_match` sets the match up (P1: an even number of players, 4 to 14,
   named with 2-12 letters or digits, unique whatever the case; the rooms drawn).  Then the
   service calls :func:`open_phase` and :func:`close_phase` in turn: the Distribution Phase and
   the Voting Phase of each of the five rounds (rules, Gameplay), then the final phase.

   - Opening a Distribution Phase: the moves asked for in the previous Voting Phase take effect
     together (P9), then one unopened package of each player is drawn (P8).
   - While a phase is open the service keeps its :class:`Submissions`.  Each mail is checked
     against the match (:func:`check_plan`, :func:`check_ballot`, :func:`check_move`,
     :func:`check_gift`, through ``judge.games.pirates.core.commands.submit``); a valid submission replaces
     the player's earlier one, an invalid one is refused whole with its reasons and leaves the
     earlier one standing (P3, P5, P13).
   - Closing a Distribution Phase fixes every player's plan: the last valid one received, else
     the default plan (Amendment II, P6).  The garnets a plan names are spent here, whatever
     becomes of the plan (P7).
   - Closing a Voting Phase fixes every ballot: the last valid one received, else one drawn at
     random (rules, Submissions; P3); the moves standing are recorded for the next round (P9).
     The outcomes follow from the plans and ballots (P2, P4).
   - The final phase opens after the last round's Voting Phase (rules, Results).  The final
     gold, the Tokens of Life, the Elimination Candidates and the garnets earned are known from
     its start; only the single richest player may act in it, naming who gets the extra Token
     of Life (``GIVE TOKEN``, P11).  Closing it fixes that gift and ends the match.

3. *Chance* (P1, P3, P8).  Every draw has its own generator, ``random.Random`` seeded with
   ``"<seed>/<what>/<player>"``: the rooms from the seed given to :func:`start_match` (the
   game's), each player's package from the Distribution Phase's seed, each drawn ballot from the
   Voting Phase's seed.  A player's draw depends on nothing any other player does, so what one
   player sees is the same whatever another submitted (P10), and the same seeds with the same
   submissions give the same match.

4. *Order* (P9, P10).  Players, rooms, plans and ballots are listed by name, case-insensitively
   sorted: a room's list says nothing of who came into it, nor in which order anyone joined.

5. *Plans and votes* (P2-P6).  A plan gives whole, non-negative gold to members of the
   proposer's room and adds up to the package plus 5 gold per garnet spent; it is kept as every
   member's share, zeros included, so a submitted plan equal to the default one is the same
   value.  Every member votes on every plan of the room, their own included (Clarification,
   P2), with Yes and No votes differing by at most one (P3).  A plan passes on more Yes than No;
   a failed plan's whole total is split equally in whole gold among the other members of the
   proposer's room, the remainder destroyed; a one-member room's own vote decides its plan, and
   its failed gold is destroyed (rules' Example, P4).

   A drawn ballot is uniform over the balanced ballots: in a room of n the balanced ballots have
   n/2 Yes votes (n even) or (n-1)/2 or (n+1)/2 (n odd, as many ballots each way since
   C(n, k) = C(n, n-k)), so the draw picks the number of Yes votes uniformly among those allowed,
   then which plans get them as a uniform sample.

6. *The end* (rules, Results and Amendment; P7, P11, P12).  The three richest qualify for a
   Token of Life, every player tied with the third included; while more than six qualify, the
   group tied for the least gold among them drops out.  The single richest player (nobody else
   as rich) also gets an extra token to give to another player; it is not counted toward the six.
   The poorest player is the Elimination Candidate, all of them if tied.  Each player earns one
   garnet per whole 50 gold; a player's garnets at the end are those not spent plus those earned.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from enum import Enum
from typing import NamedTuple

from judge.language import gettext as _
from judge.language import ngettext

ROUNDS = 5
"""Rounds in a match, each a Distribution Phase and a Voting Phase (rules, Gameplay)."""
PACKAGES = (10, 20, 30, 40, 50)
"""Every player's packages, one opened per round (rules, Gameplay)."""
GARNET_GOLD = 5
"""The gold a garnet adds to a plan (rules, Garnet Usage)."""
MIN_PLAYERS = 4
MAX_PLAYERS = 14
"""An even number of players between these (P1)."""
MOVES = 2
"""The most times a player may change rooms in a match (rules, Submissions; P9)."""
GOLD_PER_GARNET = 50
"""One garnet earned at the end per whole this much gold (rules, Results; P7)."""
TOKEN_PLACES = 3
MAX_TOKENS = 6
"""The three richest qualify for a Token of Life; at most six are given (Amendment; P11)."""
ROOM_NAMES = ("A", "B")
"""The two rooms, as the publication names them (P14)."""
RESERVED = frozenset({"ME", "YES", "NO"})
"""Words of the commands, which no player may be named (``ME`` names oneself, P1)."""
_NAME = re.compile(r"[A-Za-z0-9]{2,12}")

Room = tuple[str, ...]
"""The members of a room, sorted by name."""


class SetupError(ValueError):
    """A match that cannot be set up as asked (P1, P7)."""


class Reason(NamedTuple):
    """Why a submission is refused: a name that programs read (NOT_IN_ROOM, ...), a sentence for the player."""

    code: str
    message: str


class Refused(ValueError):
    """A submission the rules do not allow, with every reason; its ``code`` is the first reason's."""

    def __init__(self, *reasons: Reason) -> None:
        super().__init__("; ".join(reason.message for reason in reasons))
        self.reasons = reasons
        self.code = reasons[0].code


class MatchError(ValueError):
    """A call out of turn or with submissions that were not checked: the caller's mistake."""


class Stage(Enum):
    DISTRIBUTION = "distribution"
    VOTING = "voting"
    FINAL = "final"


class Phase(NamedTuple):
    """One phase of the match: a round's Distribution or Voting Phase, or the final phase
    (whose round is the last)."""

    stage: Stage
    round: int

    @property
    def name(self) -> str:
        """A short name, unique in the match: ``D1``, ``V1``, ... ``V5``, ``F``."""
        if self.stage is Stage.FINAL:
            return "F"
        return f"{self.stage.value[0].upper()}{self.round}"

    @property
    def label(self) -> str:
        """The phase in a sentence: "the Voting Phase of round 2"."""
        if self.stage is Stage.FINAL:
            return _("the final phase")
        if self.stage is Stage.DISTRIBUTION:
            return _("the Distribution Phase of round {round}", round=self.round)
        return _("the Voting Phase of round {round}", round=self.round)


class Plan(NamedTuple):
    """A plan: every member of the proposer's room with their share, in room order, and the
    garnets it spends (P5, P7)."""

    proposer: str
    shares: tuple[tuple[str, int], ...]
    garnets: int = 0

    @property
    def total(self) -> int:
        """All the gold the plan gives out: the package plus the garnets' gold."""
        return sum(amount for _, amount in self.shares)

    def share(self, player: str) -> int:
        """What ``player`` receives if the plan passes."""
        return dict(self.shares)[player]


class Ballot(NamedTuple):
    """One player's votes in one round: the proposers of the plans voted Yes and No, in room
    order (P2, P3)."""

    voter: str
    yes: tuple[str, ...]
    no: tuple[str, ...]


def ballot_words(yes: Sequence[str], no: Sequence[str], reader: str | None = None) -> str:
    """A ballot in words: ``Yes on your own plan, Bob; No on Cy`` (to ``reader``, the voter), a
    side with no plan left out (``Yes on your own plan`` in a room of one, never "No on none")."""
    def plans(proposers: Sequence[str]) -> str:
        return ", ".join(_("your own plan") if p == reader else p for p in proposers)

    if yes and no:
        return _("Yes on {yes}; No on {no}", yes=plans(yes), no=plans(no))
    return _("Yes on {yes}", yes=plans(yes)) if yes else _("No on {no}", no=plans(no))


def plans_of(proposers: Sequence[str], reader: str) -> str:
    """Plans by their proposers, to ``reader``: ``your own plan``, ``the plan of Fay``, ``your own
    plan and the plans of Fay and Gus``."""
    others = [p for p in proposers if p != reader]
    if len(others) > 1:
        theirs = _("the plans of {names} and {last}", names=", ".join(others[:-1]), last=others[-1])
    else:
        theirs = _("the plan of {name}", name=others[0]) if others else ""
    if reader not in proposers:
        return theirs
    return _("your own plan and {plans}", plans=theirs) if theirs else _("your own plan")


class Outcome(NamedTuple):
    """What became of one plan (P4)."""

    proposer: str
    total: int
    yes: int
    no: int

    @property
    def passed(self) -> bool:
        return self.yes > self.no


class Settlement(NamedTuple):
    """A round's outcomes, what each player received, and the gold destroyed (P4)."""

    outcomes: tuple[Outcome, ...]
    receipts: tuple[tuple[str, int], ...]
    destroyed: int

    def outcome(self, proposer: str) -> Outcome:
        return next(o for o in self.outcomes if o.proposer == proposer)


@dataclass(frozen=True)
class Round:
    """What happened in one round.  ``plans`` and ``defaults`` are filled when its Distribution
    Phase closes, ``ballots``, ``drawn`` and ``moves`` when its Voting Phase closes; each list
    by player, sorted by name."""

    number: int
    rooms: tuple[Room, Room]
    packages: tuple[tuple[str, int], ...]
    plans: tuple[Plan, ...] = ()
    defaults: tuple[str, ...] = ()
    """Players whose plan is the default one (Amendment II): published at the end only (P14)."""
    ballots: tuple[Ballot, ...] = ()
    drawn: tuple[str, ...] = ()
    """Players whose ballot was drawn (P3): published at the end only (P14)."""
    moves: tuple[str, ...] = ()
    """Players who asked to move in this Voting Phase: they change rooms next round (P9)."""

    def room_of(self, player: str) -> Room:
        return self.rooms[0] if player in self.rooms[0] else self.rooms[1]

    def package(self, player: str) -> int:
        return dict(self.packages)[player]

    def plan(self, player: str) -> Plan:
        return next(p for p in self.plans if p.proposer == player)

    def ballot(self, player: str) -> Ballot:
        return next(b for b in self.ballots if b.voter == player)


@dataclass(frozen=True)
class Match:
    """A match of Pirates' Proposal: the players (sorted by name), the garnets each had at the
    start, the rooms drawn at the start, the rounds opened so far, the phase last opened
    (``None`` before the first) and whether it has closed, and who got the extra Token of Life."""

    players: tuple[str, ...]
    garnets: int
    rooms: tuple[Room, Room]
    rounds: tuple[Round, ...] = ()
    phase: Phase | None = None
    closed: bool = False
    token_to: str | None = None

    def player(self, written: str) -> str | None:
        """The player a name written in any case stands for, or ``None``."""
        key = written.casefold()
        return next((p for p in self.players if p.casefold() == key), None)

    @property
    def round(self) -> Round:
        """The round last opened."""
        if not self.rounds:
            raise MatchError("no round has opened yet")
        return self.rounds[-1]

    @property
    def current_phase(self) -> Phase | None:
        """The phase open now, if any."""
        return None if self.closed else self.phase

    @property
    def over(self) -> bool:
        """Whether the final phase has closed."""
        return self.closed and self.phase is not None and self.phase.stage is Stage.FINAL


@dataclass(frozen=True)
class Submissions:
    """What stands in the open phase so far, each a valid submission (the last one sent): the
    plans (Distribution), ballots and moves asked for (Voting), the extra token's recipient
    (final phase).  Lists are by player, sorted by name."""

    plans: tuple[Plan, ...] = ()
    ballots: tuple[Ballot, ...] = ()
    moves: tuple[str, ...] = ()
    token_to: str | None = None

    def plan(self, player: str) -> Plan | None:
        return next((p for p in self.plans if p.proposer == player), None)

    def ballot(self, player: str) -> Ballot | None:
        return next((b for b in self.ballots if b.voter == player), None)

    def with_plan(self, plan: Plan) -> Submissions:
        """These submissions with ``plan`` replacing its proposer's earlier one."""
        kept = [p for p in self.plans if p.proposer != plan.proposer]
        return replace(self, plans=tuple(sorted([*kept, plan], key=lambda p: _key(p.proposer))))

    def with_ballot(self, ballot: Ballot) -> Submissions:
        """These submissions with ``ballot`` replacing its voter's earlier one."""
        kept = [b for b in self.ballots if b.voter != ballot.voter]
        return replace(self, ballots=tuple(sorted([*kept, ballot], key=lambda b: _key(b.voter))))

    def with_move(self, player: str, move: bool) -> Submissions:
        """These submissions with ``player`` asking to move (``MOVE``) or not (``NOMOVE``)."""
        others = {p for p in self.moves if p != player}
        return replace(self, moves=_sorted([*others, player] if move else others))

    def with_token(self, to: str) -> Submissions:
        """These submissions with the extra Token of Life going to ``to``."""
        return replace(self, token_to=to)


def _key(name: str) -> str:
    return name.casefold()


def _sorted(names: Iterable[str]) -> tuple[str, ...]:
    return tuple(sorted(names, key=_key))


def _rng(seed: int | str, what: str, player: str = "") -> random.Random:
    """The generator of one draw (see the header, 3)."""
    return random.Random(f"{seed}/{what}/{player}")


def garnets_in_words(count: int) -> str:
    """"1 garnet", "2 garnets"."""
    return ngettext("{count} garnet", "{count} garnets", count)


def plan_source(package: int, garnets: int) -> str:
    """Where a plan's gold comes from, in words: "the 30-gold package and 1 garnet" (P5, P7)."""
    if garnets > 0:
        return _("the {package}-gold package and {garnets}", package=package, garnets=garnets_in_words(garnets))
    return _("the {package}-gold package", package=package)


# -- set-up (P1) ------------------------------------------------------------------------------------


def check_name(name: str) -> str | None:
    """What is wrong with ``name`` as a player's name (P1), or ``None``."""
    if not _NAME.fullmatch(name):
        return _("'{name}' cannot be a player's name: a name is 2 to 12 letters or digits", name=name)
    if name.upper() in RESERVED:
        return _("'{name}' cannot be a player's name: ME, YES and NO are words of the commands", name=name)
    return None


def start_match(players: Iterable[str], seed: int | str, garnets: int = 0) -> Match:
    """Set a match up (P1): check the players and draw the two rooms of equal size from the
    game's ``seed``; each player starts with ``garnets`` garnets (P7).  No phase is open yet."""
    names = list(players)
    errors = [error for error in map(check_name, names) if error]
    if len(names) % 2 or not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        errors.append(_("a match has an even number of players from {least} to {most}, not {count}",
                        least=MIN_PLAYERS, most=MAX_PLAYERS, count=len(names)))
    seen: dict[str, str] = {}
    for name in names:
        if _key(name) in seen:
            errors.append(_("two players are named '{one}' and '{other}': names must differ whatever the case",
                            one=seen[_key(name)], other=name))
        seen[_key(name)] = name
    if garnets < 0:
        errors.append(_("a player cannot start with {count} garnets", count=garnets))
    if errors:
        raise SetupError("; ".join(errors))
    ordered = _sorted(names)
    drawn = list(ordered)
    _rng(seed, "rooms").shuffle(drawn)
    half = len(drawn) // 2
    return Match(ordered, garnets, (_sorted(drawn[:half]), _sorted(drawn[half:])))


# -- phases -------------------------------------------------------------------------------------------


def next_phase(match: Match) -> Phase | None:
    """The phase that opens after the one last opened (which must have closed), or ``None`` when
    the match is over."""
    phase = match.phase
    if phase is None:
        return Phase(Stage.DISTRIBUTION, 1)
    if not match.closed:
        raise MatchError(f"{phase.label} is still open")
    if phase.stage is Stage.DISTRIBUTION:
        return Phase(Stage.VOTING, phase.round)
    if phase.stage is Stage.VOTING:
        return Phase(Stage.DISTRIBUTION, phase.round + 1) if phase.round < ROUNDS else Phase(Stage.FINAL, ROUNDS)
    return None


def open_phase(match: Match, seed: int | str) -> Match:
    """Open the next phase.  A Distribution Phase first moves every player who asked to, all
    together (P9), then draws each player's package from ``seed`` (P8); the other phases draw
    nothing."""
    phase = next_phase(match)
    if phase is None:
        raise MatchError("the match is over")
    if phase.stage is not Stage.DISTRIBUTION:
        return replace(match, phase=phase, closed=False)
    rooms = match.rooms if not match.rounds else moved(match.rounds[-1])
    packages = tuple(
        (player, _rng(seed, "package", player).choice(unopened(match, player))) for player in match.players
    )
    return replace(match, rounds=(*match.rounds, Round(phase.round, rooms, packages)), phase=phase, closed=False)


def moved(round_: Round) -> tuple[Room, Room]:
    """The rooms of the round after ``round_``: everyone who asked to move in its Voting Phase
    changes rooms, all at once (P9)."""
    first, second = round_.rooms
    movers = set(round_.moves)
    return (_sorted([*(p for p in first if p not in movers), *(p for p in second if p in movers)]),
            _sorted([*(p for p in second if p not in movers), *(p for p in first if p in movers)]))


def unopened(match: Match, player: str) -> list[int]:
    """The packages ``player`` has not opened yet, smallest first (P8)."""
    left = list(PACKAGES)
    for round_ in match.rounds:
        left.remove(round_.package(player))
    return left


def close_phase(match: Match, submissions: Submissions, seed: int | str) -> Match:
    """Close the open phase with what stands in ``submissions`` (each checked again here: one that
    is not valid is the caller's mistake, a :class:`MatchError`).

    Distribution: every player's plan is theirs or the default (P5, P6), and its garnets are
    spent (P7).  Voting: every player's ballot is theirs or drawn from ``seed`` (P3), and the moves
    asked for are recorded (P9).  Final: the extra Token of Life goes where its holder said (P11).
    """
    phase = match.current_phase
    if phase is None:
        raise MatchError("no phase is open")
    try:
        if phase.stage is Stage.DISTRIBUTION:
            return _close_distribution(match, submissions)
        if phase.stage is Stage.VOTING:
            return _close_voting(match, submissions, seed)
        return _close_final(match, submissions)
    except Refused as exc:
        raise MatchError(f"a submission to {phase.label} is not valid: {exc}") from None


def _only(match: Match, submissions: Submissions, stage: Stage) -> None:
    """Refuse submissions of another kind than the phase takes, or by someone not in the match."""
    senders = [*(p.proposer for p in submissions.plans), *(b.voter for b in submissions.ballots),
               *submissions.moves]
    strangers = [s for s in senders if s not in match.players]
    if strangers:
        raise MatchError(f"submissions by {', '.join(strangers)}, who are not players of the match")
    kinds = {Stage.DISTRIBUTION: bool(submissions.plans),
             Stage.VOTING: bool(submissions.ballots or submissions.moves),
             Stage.FINAL: submissions.token_to is not None}
    if any(present for kind, present in kinds.items() if kind is not stage):
        raise MatchError(f"{stage.value} phase submissions hold something of another phase")


def _close_distribution(match: Match, submissions: Submissions) -> Match:
    _only(match, submissions, Stage.DISTRIBUTION)
    round_ = match.round
    plans: list[Plan] = []
    defaults: list[str] = []
    for player in match.players:
        sent = submissions.plan(player)
        if sent is None:
            plans.append(default_plan(player, round_.room_of(player), round_.package(player)))
            defaults.append(player)
        else:
            plan = check_plan(match, player, sent.shares, sent.garnets)
            _as_checked(sent, plan)
            plans.append(plan)
    closed = replace(round_, plans=tuple(plans), defaults=tuple(defaults))
    return replace(match, rounds=(*match.rounds[:-1], closed), closed=True)


def _close_voting(match: Match, submissions: Submissions, seed: int | str) -> Match:
    _only(match, submissions, Stage.VOTING)
    round_ = match.round
    ballots: list[Ballot] = []
    drawn: list[str] = []
    for player in match.players:
        sent = submissions.ballot(player)
        if sent is None:
            ballots.append(draw_ballot(player, round_.room_of(player), _rng(seed, "ballot", player)))
            drawn.append(player)
        else:
            ballot = check_ballot(match, player, sent.yes, sent.no)
            _as_checked(sent, ballot)
            ballots.append(ballot)
    for player in submissions.moves:
        check_move(match, player)
    closed = replace(round_, ballots=tuple(ballots), drawn=tuple(drawn), moves=_sorted(submissions.moves))
    return replace(match, rounds=(*match.rounds[:-1], closed), closed=True)


def _close_final(match: Match, submissions: Submissions) -> Match:
    _only(match, submissions, Stage.FINAL)
    token_to = submissions.token_to
    if token_to is not None:
        holder = final_result(match).extra_token
        if holder is None:
            raise MatchError("nobody holds an extra Token of Life to give")
        token_to = check_gift(match, holder, token_to)
    return replace(match, closed=True, token_to=token_to)


def _as_checked(sent: Plan | Ballot, checked: Plan | Ballot) -> None:
    """Refuse a stored submission that is not as its check gives it (submissions are kept checked)."""
    if sent != checked:
        raise MatchError(f"a stored submission is not in its checked form: {sent!r}")


def actors(match: Match) -> tuple[str, ...]:
    """Who may submit something in the open phase: every player in a round's phases, the single
    richest in the final phase (P11), nobody when no phase is open."""
    phase = match.current_phase
    if phase is None:
        return ()
    if phase.stage is Stage.FINAL:
        holder = final_result(match).extra_token
        return () if holder is None else (holder,)
    return match.players


def waiting(match: Match, submissions: Submissions) -> tuple[str, ...]:
    """The actors with nothing standing yet in the open phase: whom a deadline's reminder is for,
    each told alone (P10).  A player without a plan or ballot at the deadline gets the default
    plan or a drawn ballot; without a gift, the extra token is not given (P6, P3, P11)."""
    phase = match.current_phase
    if phase is None:
        return ()
    if phase.stage is Stage.DISTRIBUTION:
        return tuple(p for p in match.players if submissions.plan(p) is None)
    if phase.stage is Stage.VOTING:
        return tuple(p for p in match.players if submissions.ballot(p) is None)
    return actors(match) if submissions.token_to is None else ()


# -- plans (P5, P6, P7) ------------------------------------------------------------------------------


def default_plan(proposer: str, room: Room, package: int) -> Plan:
    """The default plan (Amendment II, P6): the package, no garnets, divided evenly in whole gold
    among the other members of the room, the proposer keeping the remainder (all of it alone)."""
    others = len(room) - 1
    each = package // others if others else 0
    return Plan(proposer, tuple((m, package - each * others if m == proposer else each) for m in room))


def garnets_held(match: Match, player: str, before_round: int) -> int:
    """The garnets ``player`` holds at the start of round ``before_round`` (``ROUNDS + 1``: after
    the last round, before those earned at the end are added), the plans of earlier rounds having
    spent theirs (P7)."""
    spent = sum(r.plan(player).garnets for r in match.rounds if r.number < before_round and r.plans)
    return match.garnets - spent


def _resolve(match: Match, player: str, written: str, room: Room, errors: list[Reason]) -> str | None:
    """The member of ``room`` that ``written`` names (``ME``: ``player``), or ``None`` with why
    added to ``errors``."""
    name = player if written.upper() == "ME" else match.player(written)
    if name is None:
        errors.append(Reason("NO_SUCH_PLAYER", _("there is no player named {name} in this game", name=written)))
        return None
    if name not in room:
        errors.append(Reason("NOT_IN_ROOM", _("{name} is not in your room this round (your room: {room})", name=name,
                                              room=", ".join(room))))
        return None
    return name


def in_phase(match: Match, stage: Stage, what: str) -> Phase:
    """The open phase, if it is of ``stage``; else :class:`Refused`, saying when ``what`` (``plan``,
    ``vote``, ``move`` or ``token``) is done: plans are sent during a Distribution Phase..."""
    phase = match.current_phase
    if phase is None or phase.stage is not stage:
        raise Refused(Reason("NOT_THIS_PHASE", _when_done(what, phase.label if phase is not None else None)))
    return phase


def _when_done(what: str, now: str | None) -> str:
    """When ``what`` is done, and the phase open ``now`` (None: none), in one sentence."""
    if what == "plan":
        return (_("plans are sent during a Distribution Phase; this is {phase}", phase=now) if now else
                _("plans are sent during a Distribution Phase, and no phase of the match is open now"))
    if what == "vote":
        return (_("votes are sent during a Voting Phase; this is {phase}", phase=now) if now else
                _("votes are sent during a Voting Phase, and no phase of the match is open now"))
    if what == "move":
        return (_("a move is asked for during a Voting Phase; this is {phase}", phase=now) if now else
                _("a move is asked for during a Voting Phase, and no phase of the match is open now"))
    return (_("the extra Token of Life is given after the last round, in the final phase; this is {phase}", phase=now)
            if now else _("the extra Token of Life is given after the last round, in the final phase, and no phase "
                          "of the match is open now"))


def check_plan(match: Match, player: str, shares: Sequence[tuple[str, int]], garnets: int = 0) -> Plan:
    """``player``'s plan for the open Distribution Phase, from the names (as written, ``ME`` for
    oneself) and gold given, and the garnets spent: a :class:`Plan`, or :class:`Refused` with every
    reason (P5, P7, rules' Garnet Usage)."""
    in_phase(match, Stage.DISTRIBUTION, "plan")
    round_ = match.round
    room = round_.room_of(player)
    errors: list[Reason] = []
    given: dict[str, int] = {}
    for written, amount in shares:
        name = _resolve(match, player, written, room, errors)
        if name is None:
            continue
        if name in given:
            errors.append(Reason("NAMED_TWICE", _("the plan names you twice") if name == player else
                                 _("the plan names {name} twice", name=name)))
        if amount < 0:
            errors.append(Reason("NEGATIVE_SHARE", _("{name} cannot be given {amount} gold: a share is a whole number "
                                                     "of gold, 0 or more", name=name, amount=amount)))
        given[name] = amount
    held = garnets_held(match, player, round_.number)
    if garnets < 0:
        errors.append(Reason("NEGATIVE_GARNETS", _("a plan cannot spend {count} garnets", count=garnets)))
    elif garnets > held:
        errors.append(Reason("TOO_FEW_GARNETS", _("you have {held}; this plan spends {count}",
                                                  held=garnets_in_words(held), count=garnets)))
    package = round_.package(player)
    total = package + GARNET_GOLD * max(garnets, 0)
    given_total = sum(amount for _, amount in shares)
    if given_total != total:
        errors.append(Reason("WRONG_TOTAL", _("a plan must give out exactly {total} gold ({source}); yours gives "
                                              "{given}", total=total, source=plan_source(package, garnets),
                                              given=given_total)))
    if errors:
        raise Refused(*errors)
    return Plan(player, tuple((m, given.get(m, 0)) for m in room), garnets)


# -- ballots and outcomes (P2, P3, P4) -------------------------------------------------------------


def balanced(yes: int, no: int) -> bool:
    """Whether a ballot with these counts keeps the balance (rules, Voting; P3)."""
    return abs(yes - no) <= 1


def check_ballot(match: Match, player: str, yes: Sequence[str], no: Sequence[str]) -> Ballot:
    """``player``'s ballot for the open Voting Phase, from the proposers of the plans voted Yes
    and No, as written (``ME`` for oneself): a :class:`Ballot`, or :class:`Refused` with every
    reason (Clarification, P2, P3)."""
    in_phase(match, Stage.VOTING, "vote")
    room = match.round.room_of(player)
    errors: list[Reason] = []
    votes: dict[str, bool] = {}
    for written, vote in [*((w, True) for w in yes), *((w, False) for w in no)]:
        name = _resolve(match, player, written, room, errors)
        if name is None:
            continue
        if name in votes:
            errors.append(Reason("VOTED_TWICE", _("the ballot votes twice on your plan: a ballot votes once on each "
                                                  "plan of your room") if name == player else
                                 _("the ballot votes twice on the plan of {name}: a ballot votes once on each plan "
                                   "of your room", name=name)))
        votes[name] = vote
    left_out = [m for m in room if m not in votes]
    if left_out:
        errors.append(Reason("PLAN_LEFT_OUT", _("the ballot leaves out {plans}: a ballot votes on every plan of your "
                                                "room, your own included", plans=plans_of(left_out, player))))
    elif not errors:
        ayes = sum(votes.values())
        noes = len(room) - ayes
        if not balanced(ayes, noes):
            errors.append(Reason("UNBALANCED", _(
                "in a room of {size} a ballot has {half} Yes and {half} No votes; yours has {ayes} Yes and {noes} No",
                size=len(room), half=len(room) // 2, ayes=ayes, noes=noes) if len(room) % 2 == 0 else _(
                "a ballot's Yes and No votes may differ by at most one; yours has {ayes} Yes and {noes} No",
                ayes=ayes, noes=noes)))
    if errors:
        raise Refused(*errors)
    return Ballot(player, tuple(m for m in room if votes[m]), tuple(m for m in room if not votes[m]))


def draw_ballot(voter: str, room: Room, rng: random.Random) -> Ballot:
    """A ballot drawn uniformly over all balanced ballots of ``room`` (rules, Submissions; P3; the
    header, 5)."""
    size = len(room)
    ayes = size // 2 if size % 2 == 0 else rng.choice((size // 2, size // 2 + 1))
    chosen = set(rng.sample(room, ayes))
    return Ballot(voter, tuple(m for m in room if m in chosen), tuple(m for m in room if m not in chosen))


def payout(plan: Plan, room: Room, passed: bool) -> tuple[dict[str, int], int]:
    """What each member of ``room`` receives from ``plan``, and the gold destroyed (P4): the shares
    if it passed; else its whole total split equally in whole gold among the other members, the
    remainder (all of it in a room of one) destroyed."""
    if passed:
        return dict(plan.shares), 0
    others = [m for m in room if m != plan.proposer]
    each = plan.total // len(others) if others else 0
    receipts = {m: each for m in others}
    receipts[plan.proposer] = 0
    return receipts, plan.total - each * len(others)


def settle(round_: Round) -> Settlement:
    """The outcome of every plan of a round whose Voting Phase has closed, what every player
    received, and the gold destroyed (P2, P4)."""
    if not round_.ballots:
        raise MatchError(f"the Voting Phase of round {round_.number} has not closed")
    received: dict[str, int] = {}
    outcomes: list[Outcome] = []
    destroyed = 0
    for room in round_.rooms:
        ballots = [round_.ballot(m) for m in room]
        for proposer in room:
            plan = round_.plan(proposer)
            outcome = Outcome(proposer, plan.total, sum(proposer in b.yes for b in ballots),
                              sum(proposer in b.no for b in ballots))
            receipts, lost = payout(plan, room, outcome.passed)
            for member, amount in receipts.items():
                received[member] = received.get(member, 0) + amount
            destroyed += lost
            outcomes.append(outcome)
    return Settlement(tuple(sorted(outcomes, key=lambda o: _key(o.proposer))),
                      tuple(sorted(received.items(), key=lambda item: _key(item[0]))), destroyed)


def gold(match: Match, rounds: int) -> dict[str, int]:
    """Every player's gold after the first ``rounds`` rounds (their Voting Phases closed)."""
    held = dict.fromkeys(match.players, 0)
    for round_ in match.rounds[:rounds]:
        for player, amount in settle(round_).receipts:
            held[player] += amount
    return held


# -- moves (P9) ---------------------------------------------------------------------------------------


def moves_made(match: Match, player: str) -> int:
    """How many times ``player`` has changed rooms or will at the next Distribution Phase."""
    return sum(player in r.moves for r in match.rounds)


def check_move(match: Match, player: str) -> None:
    """Refuse ``player``'s ``MOVE`` if the rules do not allow it now (rules, Submissions; P9)."""
    phase = in_phase(match, Stage.VOTING, "move")
    if phase.round == ROUNDS:
        raise Refused(Reason("LAST_ROUND", _("a move changes your room for the next round, and this is the last "
                                             "round")))
    if moves_made(match, player) >= MOVES:
        raise Refused(Reason("TOO_MANY_MOVES", _("a player may change rooms at most {most} times in a match, and you "
                                                 "have already changed {most} times", most=MOVES)))


# -- the end (P7, P11, P12) ---------------------------------------------------------------------------


class FinalResult(NamedTuple):
    """The end of the match (rules, Results and Amendment; P7, P11, P12): every player's final gold
    (by player), who gets a Token of Life, the single richest player who gives the extra one
    (``None`` if two or more are richest) and to whom (``None`` until given), the Elimination
    Candidates, and each player's garnets earned at the end and held in all (by player)."""

    gold: tuple[tuple[str, int], ...]
    tokens: tuple[str, ...]
    extra_token: str | None
    token_to: str | None
    elimination_candidates: tuple[str, ...]
    garnets_earned: tuple[tuple[str, int], ...]
    garnets: tuple[tuple[str, int], ...]


def tokens_of_life(final: Mapping[str, int]) -> tuple[str, ...]:
    """Who qualifies for a Token of Life (Amendment, P11): the three richest and everyone tied
    with the third, less the group with the least gold among them while more than six are left;
    richest first, then by name."""
    if not final:
        return ()
    ranked = sorted(final.values(), reverse=True)
    third = ranked[min(TOKEN_PLACES, len(ranked)) - 1]
    qualified = [p for p, amount in final.items() if amount >= third]
    while len(qualified) > MAX_TOKENS:
        least = min(final[p] for p in qualified)
        qualified = [p for p in qualified if final[p] != least]
    return tuple(sorted(qualified, key=lambda p: (-final[p], _key(p))))


def richest(final: Mapping[str, int]) -> str | None:
    """The player with more gold than anyone else, or ``None`` if the most is shared (P11)."""
    most = max(final.values(), default=None)
    top = [p for p, amount in final.items() if amount == most]
    return top[0] if len(top) == 1 else None


def elimination_candidates(final: Mapping[str, int]) -> tuple[str, ...]:
    """The players with the least gold (rules, Results; P12)."""
    least = min(final.values(), default=None)
    return _sorted(p for p, amount in final.items() if amount == least)


def garnets_earned(amount: int) -> int:
    """Garnets earned at the end for ``amount`` gold: one per whole 50 (rules, Results; P7)."""
    return amount // GOLD_PER_GARNET


def final_result(match: Match) -> FinalResult:
    """The end of the match, once the last round's Voting Phase has closed."""
    if match.phase is None or match.phase.stage is not Stage.FINAL:
        raise MatchError("the match has not reached its end")
    final = gold(match, ROUNDS)
    earned = {p: garnets_earned(final[p]) for p in match.players}
    return FinalResult(
        tuple(final.items()), tokens_of_life(final), richest(final), match.token_to,
        elimination_candidates(final), tuple(earned.items()),
        tuple((p, garnets_held(match, p, ROUNDS + 1) + earned[p]) for p in match.players),
    )


def check_gift(match: Match, player: str, written: str) -> str:
    """The player ``written`` names as the extra Token of Life's recipient, if ``player`` may give
    it to them now (P11); else :class:`Refused`."""
    in_phase(match, Stage.FINAL, "token")
    if final_result(match).extra_token != player:
        raise Refused(Reason("NOT_THE_RICHEST", _("only the player with more gold than anyone else gives the extra "
                                                  "Token of Life")))
    name = match.player(written) if written.upper() != "ME" else player
    if name is None:
        raise Refused(Reason("NO_SUCH_PLAYER", _("there is no player named {name} in this game", name=written)))
    if name == player:
        raise Refused(Reason("GIFT_TO_SELF", _("the extra Token of Life goes to another player, not to you")))
    return name
