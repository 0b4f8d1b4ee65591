"""The life of a Pirates' Proposal match on the host: its start, the closing and opening of its
phases, its end, and every mail these send.

Theory of operation.  The match is a value of the core (`judge.games.pirates.core.match`), kept as JSON
(`judge.games.pirates.core.notation`) in the game's phase rows: a phase row (named ``D1``...``V5``, ``F``)
holds the match as the phase opened (``position``) and, once closed, as it closed
(``result["match"]``); its ``seed`` is the phase's, from which the core draws the packages (P8)
and the ballots of those who sent none (P3).  While a phase is open, what each player sends
that the core accepts is a `Submission` row of the phase (``plan``, ``ballot``, ``move``,
``gift``; the latest of each stands, P13), and `submissions_of` makes the core's `Submissions`
of them.

Closing a phase (`process_phase`, in the transaction of the deadline, PROCESS or TERMINATE):
the core closes it with what stands (the default plan, drawn ballots: P6, P3), the next phase
opens (the moves asked for take effect and packages are drawn: P8, P9), and every mail is
queued: to each player the view of the core that the rules give them then (`judge.games.pirates.core.views`:
their room, package, gold and garnets; what they would receive under each plan of their room;
which of those passed and their gold; the end), and nothing else (P10); to the game master the
phase's chart (everything: a game master needs it to run the match, and no player receives
it); to observers, what the pages show (the match's name, round and phase).  A final phase in
which nobody may act (no single richest player: P11) closes as soon as it opens.  When the
match ends, the publication of P14 goes to every player, the game master and the observers.

A phase never closes before its deadline because everyone has sent something: that it closed
early would tell each player that every other had submitted, which the rules keep secret
(Amendment II, P10).  The game master's PROCESS closes it when he chooses; every mail of a
phase so closed before its deadline says so, and when (the host's ``preface``).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy.orm import Session

from judge import api
from judge.api import (
    Closing,
    Game,
    GameError,
    PhaseChange,
    PhaseRow,
    Player,
    Publication,
    Settings,
    log_on_commit,
    queue,
    render,
    split_options,
    writing_to,
)
from judge.games.pirates.core.match import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    ROUNDS,
    Match,
    Phase,
    SetupError,
    Stage,
    Submissions,
    actors,
    ballot_words,
    close_phase,
    final_result,
    garnets_held,
    garnets_in_words,
    gold,
    next_phase,
    open_phase,
    settle,
    start_match,
    waiting,
)
from judge.games.pirates.core.notation import match_from_data, match_to_data, submissions_from_data
from judge.games.pirates.core.views import (
    distribution_view,
    end_view,
    published_rounds,
    voting_result_view,
    voting_view,
)
from judge.games.pirates.core.views import (
    publication as publication_of,
)
from judge.language import Stored, later, ngettext
from judge.language import gettext as _

log = logging.getLogger("judge")

KIND_TITLE = "Pirates' Proposal"
DEFAULT_PLAYERS = MAX_PLAYERS
MAX_GARNETS = 100
"""The most garnets a player may start with: enough for any match, and no plan's sum overflows."""


def players_usage() -> str:
    """How many players a match has, and how CREATE says it, in the reader's language."""
    return _("a match has an even number of players from {least} to {most} (P1): PLAYERS=n", least=MIN_PLAYERS,
             most=MAX_PLAYERS)


# -- the game's settings ------------------------------------------------------------------------------


def read_options(words: Sequence[str]) -> list[str]:
    """CREATE's words after ``pirates``: ``PLAYERS=n`` (even, 4 to 14; 14 by default), ``GARNETS=n``
    (each player's at the start; 0 by default: P1, P7) and the host's flags, as kept in the game's
    options; ValueError with the reason."""
    own, rest = split_options(list(words))
    players, garnets = DEFAULT_PLAYERS, 0
    for word in rest:
        key, _equals, value = word.partition("=")
        if key not in ("PLAYERS", "GARNETS"):
            raise ValueError(_("'{word}' is not an option of Pirates' Proposal: PLAYERS=n (an even number from "
                               "{least} to {most}), GARNETS=n (each player's at the start), and NO_OBSERVERS, "
                               "ANONYMOUS, OPEN_TAKEOVER, ABSENCE_DAYS=N", word=word[:40], least=MIN_PLAYERS,
                               most=MAX_PLAYERS))
        if key == "PLAYERS":
            players = api.read_count(value, MAX_PLAYERS, players_usage())
            if players % 2 or players < MIN_PLAYERS:
                raise ValueError(players_usage())
        else:
            garnets = api.read_count(value, MAX_GARNETS, _("a player may start with 0 to {most} garnets",
                                                           most=MAX_GARNETS))
    return [*own, f"PLAYERS={players}", f"GARNETS={garnets}"]


def setting(game: Game, key: str) -> int:
    """``PLAYERS`` or ``GARNETS`` of the game, as created."""
    default = DEFAULT_PLAYERS if key == "PLAYERS" else 0
    return next((int(word.partition("=")[2]) for word in game.options if word.startswith(f"{key}=")), default)


def describe(game: Game) -> str:
    """The match in words: "Pirates' Proposal, 14 players, 0 garnets each"."""
    garnets = setting(game, "GARNETS")
    return ngettext("Pirates' Proposal, {players} players, {count} garnet each at the start",
                    "Pirates' Proposal, {players} players, {count} garnets each at the start", garnets,
                    players=setting(game, "PLAYERS"))


def phase_of(name: str) -> Phase:
    """The core's phase named ``name`` (``D1``, ``V5``, ``F``)."""
    if name == "F":
        return Phase(Stage.FINAL, 5)
    return Phase(Stage.DISTRIBUTION if name[0] == "D" else Stage.VOTING, int(name[1:]))


def phase_order(name: str) -> tuple[int, ...] | None:
    """Where the phase named ``name`` comes in the match: each round's Distribution Phase, then its
    Voting Phase, then the final phase; None if no match has it (a sixth round)."""
    if name == "F":
        return ROUNDS + 1, 0
    if not re.fullmatch(r"[DV][1-9]\d?", name) or int(name[1:]) > ROUNDS:
        return None
    return int(name[1:]), "DV".index(name[0])


def label(name: str) -> str:
    """A phase in words: "the Voting Phase of round 2"."""
    return phase_of(name).label


# -- reading the state --------------------------------------------------------------------------------


def match_now(session: Session, game: Game) -> Match | None:
    """The match as it stands: as the open phase opened, or as the last phase closed."""
    row = api.current_phase(session, game)
    if row is None:
        return None
    return match_from_data(row.result["match"] if row.status == "processed" and row.result else row.position)


def submissions_of(session: Session, game: Game, phase: str) -> Submissions:
    """What stands in ``phase``: each player's latest plan, ballot, move and the gift (P13)."""
    plans: dict[str, Any] = {}
    ballots: dict[str, Any] = {}
    moves: list[str] = []
    token_to = None
    for (seat, kind), row in api.latest_submissions(session, game, phase).items():
        if kind == "plan":
            plans[seat] = row.parsed
        elif kind == "ballot":
            ballots[seat] = row.parsed
        elif kind == "move" and row.parsed.get("move"):
            moves.append(seat)
        elif kind == "gift":
            token_to = row.parsed.get("to")
    return submissions_from_data({"plans": plans, "ballots": ballots, "moves": moves, "token_to": token_to})


def waiting_seats(session: Session, game: Game) -> list[str]:
    """The played seats with nothing standing in the open phase: whom the clock reminds."""
    match = match_now(session, game)
    if match is None or game.phase is None or match.current_phase is None:
        return []
    seat = api.seats(session, game)
    return [p for p in waiting(match, submissions_of(session, game, game.phase)) if api.is_played(seat.get(p))]


# -- starting -----------------------------------------------------------------------------------------


def start(session: Session, game: Game, settings: Settings, now: datetime) -> None:
    """Seat every player under the name they joined with, draw the rooms (P1) and open the first
    Distribution Phase; each player is told their seat and what the rules give them then, the
    game master the chart, and those who observe the forming match that it has started."""
    seated = api.players(session, game)
    wanted = setting(game, "PLAYERS")
    if len(seated) != wanted:
        raise GameError(_("this match is for {wanted} players and {joined} have joined: START when {wanted} have",
                          wanted=wanted, joined=len(seated)), "WRONG_NUMBER_OF_PLAYERS")
    for player in seated:
        api.assign_seat(player, player.requested)
    try:
        match = start_match([p.seat or "" for p in seated], game.seed, setting(game, "GARNETS"))
    except SetupError as exc:
        raise GameError(str(exc), "BAD_SETUP") from None
    session.flush()
    opened = open_phase(match, api.phase_seed(game, "D1"))
    _open_row(session, game, opened, now)
    for player in seated:
        if api.is_played(player):
            assert player.address is not None and player.seat is not None
            with writing_to(session, settings, player.address, game):
                queue(session, settings, to=player.address, subject=_("{game} starts", game=game.name), kind="start",
                      now=now, game_id=game.id,
                      body=render("pirates/start", game=game, seat=player.seat, what=describe(game),
                                  names=opened.players, view=distribution_view(opened, player.seat, 1),
                                  todo=todo(opened, player.seat), deadline=game.deadline, chart=None),
                      opens=player.seat)
    with writing_to(session, settings, game.gm_address, game):
        queue(session, settings, to=game.gm_address, subject=_("{game} starts", game=game.name), kind="start",
              now=now, game_id=game.id, body=render("pirates/start", game=game, seat=None, what=describe(game),
                                                    names=opened.players, view=None, todo="", deadline=game.deadline,
                                                    chart=chart_lines(opened, "open")))
    assert opened.phase is not None
    for observer in api.observers(session, game):
        with writing_to(session, settings, observer, game):
            news = _("the match has started; {phase} ({name}) opens", phase=opened.phase.label, name=opened.phase.name)
            queue(session, settings, to=observer, subject=f"{game.name} {opened.phase.name}", kind="start", now=now,
                  game_id=game.id, body=render("pirates/news", game=game, news=news, preface=None))


def _open_row(session: Session, game: Game, match: Match, now: datetime) -> PhaseRow:
    """The row of the phase ``match`` has just opened, and the game's deadline for it."""
    assert match.phase is not None
    name = match.phase.name
    row = api.open_phase(session, game, name, match_to_data(match), now)
    session.flush()
    return row


# -- closing a phase ----------------------------------------------------------------------------------


def process_phase(session: Session, game: Game, settings: Settings, now: datetime, closing: Closing) -> PhaseChange:
    """Close the open phase with what stands, open the next (or end the match) and queue every
    mail, each saying the ``closing``'s notes first (`judge.service.hosting.kinds.Phases.process`); a final
    phase in which nobody may act closes at once."""
    row = api.current_phase(session, game)
    assert row is not None
    match = match_from_data(row.position)
    closed = close_phase(match, submissions_of(session, game, row.name), row.seed)
    api.processed(row, {"match": match_to_data(closed)}, now)
    following = next_phase(closed)
    if following is None:
        log_on_commit(session, log, "game %s %s processed (%s); the match has ended", game.name, row.name,
                      closing.cause)
        _mail_chart(session, game, settings, closed, row.name, now, closing=closing)
        return PhaseChange(row.name, None, result=result_of(closed, later("its five rounds and the final phase are "
                                                                            "over")))
    opened = open_phase(closed, api.phase_seed(game, following.name))
    _open_row(session, game, opened, now)
    log_on_commit(session, log, "game %s %s processed (%s); next %s", game.name, row.name, closing.cause,
                  following.name)
    _mail_change(session, game, settings, closed, opened, row.name, now, closing)
    if following.stage is Stage.FINAL and not actors(opened):
        final = process_phase(session, game, settings, now, Closing("nobody acts in the final phase"))
        return PhaseChange(row.name, None, result=final.result)
    return PhaseChange(row.name, following.name)


def _mail_change(session: Session, game: Game, settings: Settings, closed: Match, opened: Match, phase: str,
                 now: datetime, closing: Closing) -> None:
    """Each played seat's mail of the phase that closed and the one that opened, made of its own
    views alone (P10); the game master's chart; the observers' news of the phase; each saying
    the ``closing``'s notes first, in its reader's language."""
    assert opened.phase is not None
    ending = opened.phase.stage is Stage.FINAL and not actors(opened)
    for seat, player in api.seats(session, game).items():
        if not api.is_played(player):
            continue
        assert player.address is not None
        with writing_to(session, settings, player.address, game):
            headline, sections = _seat_news(closed, opened, phase, seat, ending)
            body = render("pirates/phase", game=game, headline=headline, sections=sections, preface=closing.preface,
                          todo="" if ending else todo(opened, seat), deadline=None if ending else game.deadline)
            subject = _("{game} {phase} results", game=game.name, phase=phase)
            queue(session, settings, to=player.address, subject=subject, body=body, kind="results", now=now,
                  game_id=game.id, opens=None if ending else seat)
    _mail_chart(session, game, settings, closed, phase, now, opened, closing)
    if not ending:
        for observer in api.observers(session, game):
            with writing_to(session, settings, observer, game):
                news = _("{phase} ({name}) opens", phase=opened.phase.label, name=opened.phase.name)
                queue(session, settings, to=observer, subject=f"{game.name} {opened.phase.name}", kind="results",
                      now=now, game_id=game.id,
                      body=render("pirates/news", game=game, news=news, preface=closing.preface))


def _seat_news(closed: Match, opened: Match, phase: str, seat: str,
               ending: bool) -> tuple[str, list[tuple[str, ...]]]:
    """What ``seat``'s mail says of the phase ``phase`` that closed and of the one ``opened``: its headline
    and its sections, each made of the seat's own views alone (P10)."""
    assert opened.phase is not None
    number, stage = opened.phase.round, opened.phase.stage
    if stage is Stage.VOTING:
        return (_("{closed} has closed; {opened} opens", closed=label(phase), opened=opened.phase.label),
                [voting_view(opened, seat, number).lines()])
    sections = [voting_result_view(closed, seat, closed.round.number).lines()]
    if stage is Stage.DISTRIBUTION:
        sections.append(distribution_view(opened, seat, number).lines())
        return _("{closed} has closed; {opened} opens", closed=label(phase), opened=opened.phase.label), sections
    if ending:
        return _("{closed} has closed", closed=label(phase)), sections
    sections.append(end_view(opened).lines())
    return _("{closed} has closed; the match is over but for the extra Token of Life", closed=label(phase)), sections


def todo(match: Match, seat: str) -> str:
    """What ``seat`` may send in the phase ``match`` has open, in words (the same for every seat
    of a round's phases: it says nothing of anyone else).  Garnets are spoken of only in a match
    that gave some at the start: otherwise nobody holds any before the end (P7)."""
    phase = match.current_phase
    if phase is None:
        return ""
    if phase.stage is Stage.DISTRIBUTION:
        return render("pirates/todo_plan", garnets=match.garnets > 0).strip()
    if phase.stage is Stage.VOTING:
        return render("pirates/todo_vote", last=phase.round == 5).strip()
    holder = final_result(match).extra_token
    return render("pirates/todo_token").strip() if holder == seat else ""


def chart_lines(match: Match, what: str) -> list[str]:
    """The game master's chart of the phase ``match`` last opened (``open``) or closed: everything
    the rules keep secret from the players, which the game master needs to run the match."""
    lines: list[str] = []
    if not match.rounds:
        return lines
    round_ = match.round
    if what == "open" or not round_.plans:
        lines += [_("Round {round}: room {room}: {names}", round=round_.number, room=room,
                    names=", ".join(members) or _("nobody")) for room, members in zip("AB", round_.rooms, strict=True)]
        lines += [_("Package of {name}: {amount} gold", name=name, amount=amount) for name, amount in round_.packages]
        return lines
    if not round_.ballots:
        for plan in round_.plans:
            shares = ", ".join(f"{m} {amount}" for m, amount in plan.shares)
            notes = [_("{amount} gold", amount=plan.total)] + (
                [garnets_in_words(plan.garnets)] if plan.garnets else []) + (
                [_("default")] if plan.proposer in round_.defaults else [])
            lines.append(_("Plan of {proposer}: {shares} ({notes})", proposer=plan.proposer, shares=shares,
                           notes="; ".join(notes)))
        return lines
    settlement = settle(round_)
    for ballot in round_.ballots:
        words = ballot_words(ballot.yes, ballot.no)
        lines.append(_("Ballot of {voter}: {ballot} (drawn)", voter=ballot.voter, ballot=words)
                     if ballot.voter in round_.drawn else _("Ballot of {voter}: {ballot}", voter=ballot.voter,
                                                             ballot=words))
    for outcome in settlement.outcomes:
        votes = {"proposer": outcome.proposer, "yes": outcome.yes, "no": outcome.no}
        lines.append(_("Plan of {proposer}: passed, {yes} Yes, {no} No", **votes) if outcome.passed
                     else _("Plan of {proposer}: failed, {yes} Yes, {no} No", **votes))
    lines += [_("Received by {name}: {amount} gold", name=name, amount=amount) for name, amount in settlement.receipts]
    lines += [_("Gold of {name}: {amount}", name=name, amount=amount)
              for name, amount in gold(match, round_.number).items()]
    lines.append(_("Changing rooms next round: {names}", names=", ".join(round_.moves) or _("nobody")))
    return lines


def _mail_chart(session: Session, game: Game, settings: Settings, closed: Match, phase: str, now: datetime,
                opened: Match | None = None, closing: Closing | None = None) -> None:
    """The game master's chart of the phase that closed, and of a round that opened (no player
    receives it)."""
    with writing_to(session, settings, game.gm_address, game):
        if closed.phase is not None and closed.phase.stage is Stage.FINAL:
            lines = [_("Extra Token of Life: {name}", name=closed.token_to) if closed.token_to
                     else _("Extra Token of Life: not given")]
        else:
            lines = chart_lines(closed, "closed")
        if opened is not None and opened.phase is not None and opened.phase.stage is Stage.DISTRIBUTION:
            lines += ["", *chart_lines(opened, "open")]
        queue(session, settings, to=game.gm_address, subject=_("{game} {phase} chart", game=game.name, phase=phase),
              kind="chart", now=now, game_id=game.id,
              body=render("pirates/chart", game=game, phase=phase, label=label(phase), lines=lines,
                          deadline=game.deadline, preface=closing.preface if closing else None))


def results_mails(session: Session, game: Game) -> int:
    """How many mails closing the current phase may queue: one per played seat and observer and
    the game master's chart, and at the end of the match the publication to every player, the
    game master and the observers as well."""
    seat = api.seats(session, game)
    played = sum(1 for player in seat.values() if api.is_played(player))
    watching = len(api.observers(session, game))
    ending = game.phase in ("V5", "F")
    return played + watching + 1 + ((len(seat) + watching + 1) if ending else 0)


# -- the end ------------------------------------------------------------------------------------------


def result_of(match: Match, reason: Stored) -> Stored:
    """How the match ended, in words kept to be worded in each reader's language (`judge.language.later`):
    its Tokens of Life and Elimination Candidates once it reached its end, else ``reason``."""
    if match.phase is None or match.phase.stage is not Stage.FINAL:
        return reason
    end = end_view(match)
    candidates = ", ".join(end.elimination_candidates)
    if not end.tokens:
        return later("Tokens of Life: none; Elimination Candidate: {candidates}", candidates=candidates)
    return later("Tokens of Life: {tokens}; Elimination Candidate: {candidates}", tokens=", ".join(end.tokens),
                 candidates=candidates)


def publication(session: Session, game: Game) -> Publication:
    """P14: every round played, and the end if the match reached it."""
    match = match_now(session, game)
    assert match is not None
    if match.phase is not None and match.phase.stage is Stage.FINAL:
        return Publication(_("Everything that was secret is now published: the rooms of each round, every package "
                             "drawn, every plan and every ballot (drawn ones marked), the outcomes and everyone's "
                             "gold, round by round."), publication_of(match).lines())
    lines = tuple(line for round_ in published_rounds(match) for line in (*round_.lines(), ""))
    if not lines:
        return Publication(_("No round was played to its end, so there is nothing to publish."))
    return Publication(_("Everything that was secret in the rounds played to their end is now published: the rooms, "
                         "every package drawn, every plan and every ballot (drawn ones marked), the outcomes and "
                         "everyone's gold, round by round. The round under way when the match ended is not: it was "
                         "never settled."), lines)


def seat_lines(match: Match, seat: str, submissions: Submissions) -> list[str]:
    """What ``seat`` knows now and what it has sent in the open phase (STATUS, the briefing of a
    new player): its own views and its own submissions, nothing else (P10).  The round's room,
    package and gold are as the Distribution Phase told them; its garnets, in a Voting Phase, are
    those left once the round's plan has spent its own."""
    phase = match.current_phase
    lines: list[str] = []
    if match.over:
        return [*end_view(match).lines()]
    if phase is None or not match.rounds:
        return lines
    if phase.stage is Stage.FINAL:
        lines += end_view(match).lines()
        if final_result(match).extra_token == seat:
            lines.append(_("Your gift of the extra Token of Life: {name}", name=submissions.token_to)
                         if submissions.token_to else _("Your gift of the extra Token of Life: none yet"))
        return lines
    view = distribution_view(match, seat, phase.round)
    if phase.stage is Stage.VOTING:  # the round's plan has spent its garnets (P7): say what is left
        view = view._replace(garnets=garnets_held(match, seat, phase.round + 1))
    lines += view.lines()
    if phase.stage is Stage.DISTRIBUTION:
        plan = submissions.plan(seat)
        if plan is None:
            lines.append(_("Your plan now: none yet (without one, yours is the default plan at the deadline)"))
        else:
            shares = ", ".join(_("you {amount}", amount=amount) if m == seat else f"{m} {amount}"
                               for m, amount in plan.shares)
            lines.append(_("Your plan now: {shares} ({garnets} spent)", shares=shares,
                           garnets=garnets_in_words(plan.garnets)) if plan.garnets
                         else _("Your plan now: {shares}", shares=shares))
        return lines
    lines += voting_view(match, seat, phase.round).lines()[1:-1]  # its round and gold said above
    ballot = submissions.ballot(seat)
    if ballot is None:
        lines.append(_("Your ballot now: none yet (without one, a ballot is drawn for you at the deadline)"))
    else:
        lines.append(_("Your ballot now: {ballot}", ballot=ballot_words(ballot.yes, ballot.no, seat)))
    lines.append(_("You have asked to change rooms next round") if seat in submissions.moves
                 else _("You stay in your room next round"))
    return lines


def seats_of(players: Sequence[Player]) -> list[Player]:
    """The seats of a started match, by name (the match's order)."""
    return sorted((p for p in players if p.seat), key=lambda p: (p.seat or "").casefold())
