"""What each reader of a Pirates' Proposal match may see, and when (rules, Round Information; P9,
P10, P14): one pure function per kind of reader and moment, each returning a value whose fields
are all that reader learns then, and whose ``lines()`` are the mail lines made from them.

- :func:`distribution_view`: a player, at the start of a round's Distribution Phase: the round,
  their room's members (themselves included), the package opened and its gold, their gold and
  garnets.
- :func:`voting_view`: a player, at the start of a Voting Phase: what they would receive under
  each plan of their room, their own included (and their own plan, theirs to know), and their
  gold.
- :func:`voting_result_view`: a player, at the end of a Voting Phase: which plans of their room
  passed and which failed, by proposer, and their gold (and their own ballot and move).
- :func:`end_view`: everyone, from the start of the final phase: every player's final gold, the
  Tokens of Life, the Elimination Candidates, the garnets (rules, Results; P7, P11, P12).
- :func:`publication`: everyone, once the match has ended (P14): the rooms of each round, every
  package, plan and ballot (default plans and drawn ballots marked), every outcome, every
  player's gold round by round, and the end; :func:`published_rounds`, the rounds of it that a
  match stopped before its end had played.

Secrecy is decided here and nowhere else.  Until the end a player's views are built only from
their own room, package, plan, ballot and gold and from the outcomes of their room's plans, so
nothing in them depends on another player's gold, shares, plan or ballot beyond what those
outcomes and their own receipts say, nor on whether anyone submitted (a default plan and a
drawn ballot are the same values as the same plan or ballot sent; only the publication marks
them), nor on anything of the other room, nor on who moved (a room is listed by name).
"""

from __future__ import annotations

from typing import NamedTuple

from judge.games.pirates.core.match import (
    ROOM_NAMES,
    ROUNDS,
    Ballot,
    Match,
    MatchError,
    Plan,
    Room,
    Round,
    Stage,
    ballot_words,
    final_result,
    garnets_held,
    garnets_in_words,
    gold,
    settle,
)
from judge.language import gettext as _
from judge.language import pgettext


def _names(names: tuple[str, ...]) -> str:
    return ", ".join(names) if names else pgettext("people", "none")


def _shares(plan: Plan, reader: str | None = None) -> str:
    return ", ".join(_("you {amount}", amount=amount) if m == reader else f"{m} {amount}" for m, amount in plan.shares)


def _round_of(number: int, rounds: int) -> str:
    return _("Round {round} of {rounds}", round=number, rounds=rounds)


class DistributionView(NamedTuple):
    """A player at the start of a Distribution Phase (P9, P10)."""

    round: int
    rounds: int
    room: Room
    package: int
    gold: int
    garnets: int

    def lines(self) -> tuple[str, ...]:
        return (_round_of(self.round, self.rounds), _("Room: {names}", names=", ".join(self.room)),
                _("Package: {amount} gold", amount=self.package), _("Gold: {amount}", amount=self.gold),
                _("Garnets: {count}", count=self.garnets))


class VotingView(NamedTuple):
    """A player at the start of a Voting Phase (P10): what they would receive under each plan of
    their room, by proposer; their own plan, with whether it is the default one; and their gold,
    as the round opened (that the mail alone tells a player all it has)."""

    round: int
    rounds: int
    receipts: tuple[tuple[str, int], ...]
    plan: Plan
    default: bool
    gold: int

    def lines(self) -> tuple[str, ...]:
        shares = _shares(self.plan, self.plan.proposer)
        if self.default:  # a default plan spends no garnet (P5)
            own = _("Your plan: {shares} (the default plan: you sent no valid plan in time)", shares=shares)
        elif self.plan.garnets:
            own = _("Your plan: {shares} ({garnets} spent)", shares=shares,
                    garnets=garnets_in_words(self.plan.garnets))
        else:
            own = _("Your plan: {shares}", shares=shares)
        return (_round_of(self.round, self.rounds),
                *(_("Plan of {proposer}: you receive {amount} gold", proposer=proposer, amount=amount)
                  for proposer, amount in self.receipts), own,
                _("Gold: {amount}", amount=self.gold))


class VotingResultView(NamedTuple):
    """A player at the end of a Voting Phase (P10): which plans of their room passed, by proposer,
    and their gold; and their own ballot (with whether it was drawn) and whether they change rooms
    next round."""

    round: int
    rounds: int
    outcomes: tuple[tuple[str, bool], ...]
    gold: int
    ballot: Ballot
    drawn: bool
    moving: bool

    def lines(self) -> tuple[str, ...]:
        words = ballot_words(self.ballot.yes, self.ballot.no, self.ballot.voter)
        ballot = (_("Your ballot: {ballot} (drawn at random: you sent no valid ballot in time)", ballot=words)
                  if self.drawn else _("Your ballot: {ballot}", ballot=words))
        moving = (_("You change rooms at the start of round {round}", round=self.round + 1),) if self.moving else ()
        return (_round_of(self.round, self.rounds),
                *(_("Plan of {proposer}: passed", proposer=p) if passed else _("Plan of {proposer}: failed", proposer=p)
                  for p, passed in self.outcomes),
                ballot, _("Gold: {amount}", amount=self.gold), *moving)


class EndView(NamedTuple):
    """The end, to everyone (rules, Results and Amendment; P7, P11, P12): final gold, richest first
    (then by name); who gets a Token of Life; who gives the extra one (``None``: nobody is richer
    than all others), to whom (``None`` until given), and whether that is settled (the final phase
    has closed); the Elimination Candidates; each player's garnets earned at the end and held in
    all (by player)."""

    gold: tuple[tuple[str, int], ...]
    tokens: tuple[str, ...]
    extra_token: str | None
    token_to: str | None
    settled: bool
    elimination_candidates: tuple[str, ...]
    garnets_earned: tuple[tuple[str, int], ...]
    garnets: tuple[tuple[str, int], ...]

    def lines(self) -> tuple[str, ...]:
        if self.extra_token is None:
            extra = _("Extra Token of Life: none (no player has more gold than every other)")
        elif self.token_to is not None:
            extra = _("Extra Token of Life: {giver} gives it to {taker}", giver=self.extra_token, taker=self.token_to)
        elif self.settled:
            extra = _("Extra Token of Life: not given ({giver} named nobody in time)", giver=self.extra_token)
        else:
            extra = _("Extra Token of Life: {giver} gives it to another player (GIVE TOKEN name) before the final "
                      "deadline", giver=self.extra_token)
        earned = dict(self.garnets_earned)
        return (*(_("Final gold: {name} {amount}", name=name, amount=amount) for name, amount in self.gold),
                _("Tokens of Life: {names}", names=_names(self.tokens)), extra,
                _("Elimination Candidate: {names}", names=_names(self.elimination_candidates)),
                *(_("Garnets: {name} {count} ({earned} earned at the end)", name=name, count=count, earned=earned[name])
                  for name, count in self.garnets))


class PublishedPlan(NamedTuple):
    """A plan as published (P14): every share, the garnets spent, whether it was the default plan,
    its votes and whether it passed."""

    proposer: str
    shares: tuple[tuple[str, int], ...]
    garnets: int
    total: int
    default: bool
    yes: int
    no: int
    passed: bool


class PublishedBallot(NamedTuple):
    """A ballot as published (P14), drawn ones marked."""

    voter: str
    yes: tuple[str, ...]
    no: tuple[str, ...]
    drawn: bool


class PublishedRound(NamedTuple):
    """A round as published (P14): the rooms, who changed rooms at its start, every package, plan
    and ballot, what each player received, the gold destroyed, and every player's gold after it."""

    number: int
    rooms: tuple[Room, Room]
    moved: tuple[str, ...]
    packages: tuple[tuple[str, int], ...]
    plans: tuple[PublishedPlan, ...]
    ballots: tuple[PublishedBallot, ...]
    received: tuple[tuple[str, int], ...]
    destroyed: int
    gold: tuple[tuple[str, int], ...]

    def lines(self) -> tuple[str, ...]:
        lines = [_round_of(self.number, ROUNDS)]
        lines += [_("Room {room}: {names}", room=name, names=", ".join(room) or _("nobody"))
                  for name, room in zip(ROOM_NAMES, self.rooms, strict=True)]
        if self.number > 1:
            lines.append(_("Changed rooms: {names}", names=", ".join(self.moved) or _("nobody")))
        lines += [_("Package of {name}: {amount} gold", name=name, amount=amount) for name, amount in self.packages]
        lines += [_published_plan(plan) for plan in self.plans]
        for ballot in self.ballots:
            words = ballot_words(ballot.yes, ballot.no)
            lines.append(_("Ballot of {voter}: {ballot} (drawn)", voter=ballot.voter, ballot=words) if ballot.drawn
                         else _("Ballot of {voter}: {ballot}", voter=ballot.voter, ballot=words))
        lines += [_("Received by {name}: {amount} gold", name=name, amount=amount) for name, amount in self.received]
        lines.append(_("Gold destroyed: {amount}", amount=self.destroyed))
        lines += [_("Gold of {name}: {amount}", name=name, amount=amount) for name, amount in self.gold]
        return tuple(lines)


def _published_plan(plan: PublishedPlan) -> str:
    """A plan's line of the publication: its shares, its gold (its garnets, whether it was the default), and
    its votes."""
    notes = [_("{amount} gold", amount=plan.total)]
    if plan.garnets:
        notes.append(garnets_in_words(plan.garnets))
    if plan.default:
        notes.append(_("default"))
    values = {"proposer": plan.proposer, "shares": _shares(Plan(plan.proposer, plan.shares)),
              "notes": "; ".join(notes), "yes": plan.yes, "no": plan.no}
    return (_("Plan of {proposer}: {shares} ({notes}): passed, {yes} Yes, {no} No", **values) if plan.passed
            else _("Plan of {proposer}: {shares} ({notes}): failed, {yes} Yes, {no} No", **values))


class Publication(NamedTuple):
    """Everything about the match, published to every player when it ends (P14)."""

    rounds: tuple[PublishedRound, ...]
    end: EndView

    def lines(self) -> tuple[str, ...]:
        return (*(line for round_ in self.rounds for line in (*round_.lines(), "")), *self.end.lines())


def _round(match: Match, player: str, number: int) -> Round:
    """Round ``number``, once opened, for ``player``, one of the match's players."""
    if player not in match.players:
        raise MatchError(f"{player} is not a player of the match")
    if not 1 <= number <= len(match.rounds):
        raise MatchError(f"round {number} has not opened")
    return match.rounds[number - 1]


def distribution_view(match: Match, player: str, number: int) -> DistributionView:
    """What ``player`` learns at the start of round ``number``'s Distribution Phase (P9, P10)."""
    round_ = _round(match, player, number)
    return DistributionView(number, ROUNDS, round_.room_of(player), round_.package(player),
                            gold(match, number - 1)[player], garnets_held(match, player, number))


def voting_view(match: Match, player: str, number: int) -> VotingView:
    """What ``player`` learns at the start of round ``number``'s Voting Phase (P10)."""
    round_ = _round(match, player, number)
    if not round_.plans:
        raise MatchError(f"the Distribution Phase of round {number} has not closed")
    room = round_.room_of(player)
    return VotingView(number, ROUNDS, tuple((p, round_.plan(p).share(player)) for p in room),
                      round_.plan(player), player in round_.defaults, gold(match, number - 1)[player])


def voting_result_view(match: Match, player: str, number: int) -> VotingResultView:
    """What ``player`` learns at the end of round ``number``'s Voting Phase (P10)."""
    round_ = _round(match, player, number)
    if not round_.ballots:
        raise MatchError(f"the Voting Phase of round {number} has not closed")
    settlement = settle(round_)
    outcomes = tuple((p, settlement.outcome(p).passed) for p in round_.room_of(player))
    return VotingResultView(number, ROUNDS, outcomes, gold(match, number)[player], round_.ballot(player),
                            player in round_.drawn, player in round_.moves)


def _ended(match: Match) -> None:
    if match.phase is None or match.phase.stage is not Stage.FINAL:
        raise MatchError("the match has not reached its end")


def end_view(match: Match) -> EndView:
    """The end of the match, to everyone, from the start of the final phase (rules, Results; P7,
    P11, P12)."""
    _ended(match)
    result = final_result(match)
    ranked = tuple(sorted(result.gold, key=lambda item: (-item[1], item[0].casefold())))
    return EndView(ranked, result.tokens, result.extra_token, result.token_to, match.closed,
                   result.elimination_candidates, result.garnets_earned, result.garnets)


def publication(match: Match) -> Publication:
    """Everything, to everyone, once the match has ended (P14)."""
    _ended(match)
    return Publication(published_rounds(match), end_view(match))


def published_rounds(match: Match) -> tuple[PublishedRound, ...]:
    """Every round whose Voting Phase has closed, as the publication gives it (P14): the whole of
    a match that has ended, or what a match stopped before its end (the game master's TERMINATE)
    had played; never a round still under way."""
    rounds: list[PublishedRound] = []
    previous: Round | None = None
    for round_ in match.rounds:
        if not round_.ballots:
            break
        settlement = settle(round_)
        plans: list[PublishedPlan] = []
        for plan in round_.plans:
            outcome = settlement.outcome(plan.proposer)
            plans.append(PublishedPlan(plan.proposer, plan.shares, plan.garnets, plan.total,
                                       plan.proposer in round_.defaults, outcome.yes, outcome.no, outcome.passed))
        ballots = tuple(PublishedBallot(b.voter, b.yes, b.no, b.voter in round_.drawn) for b in round_.ballots)
        after = gold(match, round_.number)
        rounds.append(PublishedRound(round_.number, round_.rooms, previous.moves if previous else (),
                                     round_.packages, tuple(plans), ballots, settlement.receipts, settlement.destroyed,
                                     tuple(after.items())))
        previous = round_
    return tuple(rounds)
