"""A Pirates' Proposal player's commands by mail: PLAN (with GARNETS), VOTE, MOVE and NOMOVE,
GIVE TOKEN (`judge.games.pirates.core.commands` reads and checks them), and STATUS.

A seat's command lines of one mail are read together when its lines end (`close_block`): its
PLAN and GARNETS lines are one plan, all its VOTE lines one ballot (P3, P5), each accepted or
refused whole by the core, which says why; what it accepts replaces the seat's earlier plan,
ballot, move or gift in the open phase (P13) and is kept as a `Submission` row.  Every line is
echoed with what became of it: the first line of a plan or ballot with the judge's answer, the
lines read with it as part of it.  Nothing in an answer tells anything of another player
(P10): the core's answers speak of the sender's own plan, ballot and room only.
"""

from __future__ import annotations

from dataclasses import dataclass

from judge import api
from judge.api import (
    PLAYER,
    RUNNING,
    Command,
    Entry,
    Game,
    Turn,
    Unknown,
    absence_lines,
    read_phase_length,
    seat_state_word,
)
from judge.games.pirates import lifecycle
from judge.games.pirates.core.commands import KEYWORDS, read_mail, submit
from judge.games.pirates.core.match import Stage, Submissions, actors
from judge.games.pirates.core.notation import submissions_to_data
from judge.language import gettext as _


@dataclass(frozen=True)
class PiratesLine:
    """A line of a Pirates' Proposal command, read with the seat's others when its lines end."""

    text: str


DURATIONS = {"DISTRIBUTION": "distribution", "VOTING": "voting", "FINAL": "final"}
"""``SET <word> hours``: the words for the lengths of the match's phases, and their settings."""


def read(text: str) -> Command:
    """A line the host's grammar does not know, as a Pirates' Proposal game reads it."""
    words = text.replace(",", " ").split()
    keyword = words[0].upper()
    if keyword in KEYWORDS:
        return PiratesLine(text)
    if keyword == "SET":
        return read_phase_length(text, words, DURATIONS, "SET DISTRIBUTION, SET VOTING, SET FINAL hours")
    return Unknown(_("unknown command '{word}': HELP lists the commands of Pirates' Proposal", word=words[0][:20]))


def pirates_line(talk: Turn, text: str, _line: PiratesLine) -> None:
    """Kept for the end of the seat's lines (`close_block`), when they are read together."""
    game = talk.game
    assert game is not None
    if game.state not in RUNNING or game.phase is None:
        talk.echo(text, "error", _("the match is not running: plans and votes are sent once it has started"),
                  code="NOT_RUNNING")
        return
    talk.hold("pirates", text)


def close_block(talk: Turn) -> None:
    """Read the seat's command lines together, answer each, keep what the core accepts."""
    game, seat, lines = talk.game, talk.seat, talk.block("pirates")
    assert game is not None and seat is not None
    if lines:
        _submit(talk, game, seat, lines)


def _submit(talk: Turn, game: Game, seat: str, lines: list[tuple[int, str]]) -> None:
    match = lifecycle.match_now(talk.session, game)
    assert match is not None and game.phase is not None
    before = lifecycle.submissions_of(talk.session, game, game.phase)
    result = submit(match, before, seat, read_mail([text for _, text in lines]))
    unanswered = list(lines)
    for reply in result.replies:
        outcome = "ok" if reply.accepted else "error"
        for number, text in enumerate(reply.lines):
            index = next(i for i, (_, written) in enumerate(unanswered) if written == text)
            first = reply.lines[0]
            together = (_("read with '{line}' as one ballot", line=first) if text.upper().startswith("VOTE")
                        else _("read with '{line}' as one plan", line=first))
            talk.mark(unanswered.pop(index)[0], outcome, reply.message if number == 0 else together, code=reply.code)
    _keep(talk, game, seat, before, result.submissions, "\n".join(text for _, text in lines))


def _keep(talk: Turn, game: Game, seat: str, before: Submissions, after: Submissions, text: str) -> None:
    """A `Submission` row for each of the seat's submissions that this mail changed."""
    assert game.phase is not None
    data = submissions_to_data(after)
    changed: list[tuple[str, dict[str, object]]] = []
    if after.plan(seat) is not None and after.plan(seat) != before.plan(seat):
        changed.append(("plan", data["plans"][seat]))
    if after.ballot(seat) is not None and after.ballot(seat) != before.ballot(seat):
        changed.append(("ballot", data["ballots"][seat]))
    if (seat in after.moves) != (seat in before.moves):
        changed.append(("move", {"move": seat in after.moves}))
    if after.token_to != before.token_to:
        changed.append(("gift", {"to": after.token_to}))
    for kind, parsed in changed:
        api.submit(talk.session, game, game.phase, seat, kind, text, parsed, talk.now)


def status_lines(talk: Turn, game: Game, seat: str) -> list[str]:
    """STATUS for a player: the match's phase and deadline, what the player knows now and what it
    has sent in the open phase (`lifecycle.seat_lines`), and its absences."""
    lines: list[str] = []
    match = lifecycle.match_now(talk.session, game)
    if match is None:
        return [*lines, _("the match has not started")]
    submissions = lifecycle.submissions_of(talk.session, game, game.phase) if game.phase else Submissions()
    return [*lines, *lifecycle.seat_lines(match, seat, submissions),
            *absence_lines(talk.session, game, talk.now.date(), seat)]


def master_status(talk: Turn) -> list[str]:
    """STATUS for the game master: the phase, each player's seat (played, vacant, a dummy, open
    for TAKEOVER) and what stands for it in the open phase (which no player is ever told of
    another), and every seat's absences."""
    game = talk.game
    assert game is not None
    lines: list[str] = []
    match = lifecycle.match_now(talk.session, game)
    if match is None or game.phase is None or match.current_phase is None:
        return [*lines, *(_("{name}: joined", name=p.requested) for p in api.players(talk.session, game))]
    submissions = lifecycle.submissions_of(talk.session, game, game.phase)
    seat = api.seats(talk.session, game)
    for name in match.players:
        played = seat_state_word(api.seat_state(game, name, seat.get(name)))
        sent = []
        if submissions.plan(name):
            sent.append(_("plan sent"))
        if submissions.ballot(name):
            sent.append(_("ballot sent"))
        if name in submissions.moves:
            sent.append(_("asks to move"))
        if submissions.token_to and name in actors(match):
            sent.append(_("gives the extra Token of Life to {name}", name=submissions.token_to))
        if not sent and match.current_phase.stage is Stage.FINAL and name not in actors(match):
            sent.append(_("nothing to send in the final phase"))
        lines.append(_("{name} ({state}): {sent}", name=name, state=played, sent=", ".join(sent) or _("nothing yet")))
    return [*lines, *absence_lines(talk.session, game, talk.now.date())]


COMMANDS = (
    Entry(PiratesLine, pirates_line, PLAYER, closed_after_the_end=True),
)
"""The commands of this module, for the dispatcher (`judge.service.dispatch`)."""
