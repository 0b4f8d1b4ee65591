"""Pirates' Proposal commands: a player's mail lines read into values, and a mail's commands
checked against the match and applied to the open phase's submissions.

The commands (case-insensitive; commas count as spaces; a line starting with ``%`` and a blank
line are skipped)::

    PLAN name gold [name gold ...]    a plan for this Distribution Phase; ME names oneself, a member
                                      of one's room not named gets nothing (P5)
    GARNETS n                         with a PLAN line: the plan spends n garnets, 5 gold each (P7)
    VOTE YES name ... / VOTE NO name ...
                                      the ballot for this Voting Phase, a plan named by its proposer
                                      (ME: one's own); YES and NO may also follow each other in one
                                      line.  All VOTE lines of one mail are the whole ballot (P3)
    MOVE / NOMOVE                     ask to change rooms next round, or withdraw it (P9)
    GIVE TOKEN [TO] name              the richest player's extra Token of Life (P11)

Reading (:func:`parse_command`, :func:`read_mail`) only knows the words; whether a command is
allowed (the names, the totals, the balance, the phase) is the match's to say
(``judge.games.pirates.core.match``).  :func:`submit` puts the two together for one mail: a plan is its
PLAN line and GARNETS line, a ballot all its VOTE lines, each refused whole if any of its lines
cannot be read or the match does not allow it (the player's earlier one then stands, P3, P5); a
MOVE, NOMOVE or GIVE TOKEN line counts on its own, a later one replacing an earlier one (P13).
Every refusal quotes the lines it refuses and says which rule they break.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from judge.games.pirates.core.match import (
    MOVES,
    Match,
    MatchError,
    Refused,
    Stage,
    Submissions,
    ballot_words,
    check_ballot,
    check_gift,
    check_move,
    check_plan,
    in_phase,
    moves_made,
    plan_source,
)
from judge.language import gettext as _
from judge.language import ngettext


class PlanLine(NamedTuple):
    """``PLAN name gold ...``: the names as written (``ME`` kept) with their gold."""

    shares: tuple[tuple[str, int], ...]


class GarnetsLine(NamedTuple):
    """``GARNETS n``."""

    garnets: int


class VoteLine(NamedTuple):
    """``VOTE YES name ... NO name ...``: the proposers named, as written."""

    yes: tuple[str, ...]
    no: tuple[str, ...]


class MoveLine(NamedTuple):
    """``MOVE`` (``move`` true) or ``NOMOVE``."""

    move: bool


class GiveTokenLine(NamedTuple):
    """``GIVE TOKEN name``."""

    name: str


Command = PlanLine | GarnetsLine | VoteLine | MoveLine | GiveTokenLine


class CommandError(ValueError):
    """A line that starts with a command word but cannot be read; the message says why."""


KEYWORDS = frozenset({"PLAN", "GARNETS", "GARNET", "VOTE", "MOVE", "NOMOVE", "GIVE"})
"""The words that start a Pirates' Proposal command."""
_MAX_DIGITS = 6
_PLAN_FORM = "PLAN name gold [name gold ...], e.g. PLAN ME 10 Alice 12 Bob 8"
_VOTE_FORM = "VOTE YES name ... or VOTE NO name ..., e.g. VOTE YES ME Alice NO Bob Carol"
"""The forms of PLAN and VOTE, in the grammar every language writes them in (the refusals quote them)."""


def _amount(word: str, what: str) -> int:
    """A whole number, 0 or more, as ``word`` writes it: ``what`` is the garnets' (``"garnets"``) or the gold
    of the player named ``what``."""
    if not word.isdigit() or not word.isascii():
        raise CommandError(_("'{word}' is not a number of garnets: a whole number, 0 or more, is expected",
                             word=_cut(word)) if what == "garnets" else
                           _("'{word}' is not an amount of gold for {name}: a whole number, 0 or more, is expected",
                             word=_cut(word), name=what))
    figures = word.lstrip("0") or "0"  # read without its leading zeros: Python reads no more than 4,300 figures
    if len(figures) > _MAX_DIGITS:
        raise CommandError(_("'{word}' is far more than any plan holds", word=_cut(word)))
    return int(figures)


def _plan(words: list[str]) -> PlanLine:
    if not words:
        raise CommandError(_("a plan names who gets how much gold: {form}", form=_PLAN_FORM))
    shares: list[tuple[str, int]] = []
    for index in range(0, len(words), 2):
        name = words[index]
        if name.upper() in ("GARNET", "GARNETS"):
            raise CommandError(_("GARNETS goes on a line of its own, after the PLAN line"))
        if name.isdigit():
            raise CommandError(_("a player's name is expected where '{word}' is: {form}", word=name, form=_PLAN_FORM))
        if index + 1 == len(words):
            raise CommandError(_("{name} has no amount of gold after it: {form}", name=name, form=_PLAN_FORM))
        shares.append((name, _amount(words[index + 1], name)))
    return PlanLine(tuple(shares))


def _vote(words: list[str]) -> VoteLine:
    if not words or words[0].upper() not in ("YES", "NO"):
        raise CommandError(_("a vote is Yes or No on the plans named: {form}", form=_VOTE_FORM))
    votes: dict[bool, list[str]] = {True: [], False: []}
    current = words[0].upper() == "YES"
    named = 0
    for word in words[1:]:
        if word.upper() in ("YES", "NO"):
            if not named:
                break
            current, named = word.upper() == "YES", 0
        else:
            votes[current].append(word)
            named += 1
    if not named:
        raise CommandError(_("a YES or NO needs the plans it votes on after it: {form}", form=_VOTE_FORM))
    return VoteLine(tuple(votes[True]), tuple(votes[False]))


def parse_command(text: str) -> Command | None:
    """One line read as a command, ``None`` if it starts with no command word of this game (it may
    be one of the host's); :class:`CommandError` if it cannot be read."""
    words = text.replace(",", " ").split()
    if not words or words[0].upper() not in KEYWORDS:
        return None
    keyword, args = words[0].upper(), words[1:]
    if keyword == "PLAN":
        return _plan(args)
    if keyword in ("GARNETS", "GARNET"):
        if len(args) != 1:
            raise CommandError(_("expected GARNETS n, the number of garnets the plan spends, e.g. GARNETS 1"))
        return GarnetsLine(_amount(args[0], "garnets"))
    if keyword == "VOTE":
        return _vote(args)
    if keyword in ("MOVE", "NOMOVE"):
        if args:
            raise CommandError(_("{keyword} takes nothing after it", keyword=keyword))
        return MoveLine(keyword == "MOVE")
    if len(args) >= 2 and args[0].upper() == "TOKEN" and args[1].upper() == "TO":
        args = [args[0], *args[2:]]
    if len(args) != 2 or args[0].upper() != "TOKEN":
        raise CommandError("expected GIVE TOKEN name, the player who gets the extra Token of Life")
    return GiveTokenLine(args[1])


class Line(NamedTuple):
    """One command line of a mail: its number among the lines given, its text, and the command
    read or why it could not be (``command`` ``None``)."""

    number: int
    text: str
    command: Command | None
    error: str = ""


class Mail(NamedTuple):
    """A mail's command lines, and the lines that are not this game's commands (the host's, or
    not understood)."""

    lines: tuple[Line, ...]
    other: tuple[str, ...]


def read_mail(lines: Sequence[str]) -> Mail:
    """Read a mail's lines; blank lines and ``%`` comments are skipped."""
    read: list[Line] = []
    other: list[str] = []
    for number, raw in enumerate(lines, 1):
        text = raw.strip()
        if not text or text.startswith("%"):
            continue
        try:
            command = parse_command(text)
        except CommandError as exc:
            read.append(Line(number, text, None, str(exc)))
            continue
        if command is None:
            other.append(text)
        else:
            read.append(Line(number, text, command))
    return Mail(tuple(read), tuple(other))


class Reply(NamedTuple):
    """The answer to one submission: the lines it is made of, as written, whether it was accepted,
    and what the judge says (what now stands, or every reason for refusing)."""

    lines: tuple[str, ...]
    accepted: bool
    message: str
    code: str  # why, as a name that stays when the message is reworded: PLAN_ACCEPTED, NOT_IN_ROOM, SYNTAX, ...


class Submitted(NamedTuple):
    """The phase's submissions after a mail, and the replies to it in the order of its lines."""

    submissions: Submissions
    replies: tuple[Reply, ...]


_PLAN_WORDS = ("PLAN", "GARNETS", "GARNET")


def _keyword(line: Line) -> str:
    return line.text.replace(",", " ").split()[0].upper()


def submit(match: Match, submissions: Submissions, player: str, mail: Mail) -> Submitted:
    """Apply ``player``'s mail to the open phase's ``submissions``: what it sends validly replaces
    what they sent before; what it sends wrongly is refused, with its reasons."""
    if player not in match.players:
        raise MatchError(f"{player} is not a player of the match")
    replies: list[tuple[int, Reply]] = []
    plan_lines = [line for line in mail.lines if _keyword(line) in _PLAN_WORDS]
    vote_lines = [line for line in mail.lines if _keyword(line) == "VOTE"]
    if plan_lines:
        submissions, reply = _submit_plan(match, submissions, player, plan_lines)
        replies.append((plan_lines[0].number, reply))
    if vote_lines:
        submissions, reply = _submit_ballot(match, submissions, player, vote_lines)
        replies.append((vote_lines[0].number, reply))
    for line in mail.lines:
        if line in plan_lines or line in vote_lines:
            continue
        if line.command is None:
            replies.append((line.number, Reply((line.text,), False, line.error, "SYNTAX")))
            continue
        try:
            if isinstance(line.command, MoveLine):
                submissions, message = _submit_move(match, submissions, player, line.command.move)
                code = "MOVE_ACCEPTED"
            elif isinstance(line.command, GiveTokenLine):
                to = check_gift(match, player, line.command.name)
                submissions = submissions.with_token(to)
                message = _("The extra Token of Life will go to {name} (a later GIVE TOKEN replaces this)", name=to)
                code = "GIFT_ACCEPTED"
            else:  # every other command is a line of the plan or the ballot, answered above
                raise MatchError(f"unexpected command {line.command!r}")
        except Refused as exc:
            replies.append((line.number, Reply((line.text,), False, str(exc), exc.code)))
            continue
        replies.append((line.number, Reply((line.text,), True, message, code)))
    return Submitted(submissions, tuple(reply for _, reply in sorted(replies, key=lambda item: item[0])))


def _unreadable(lines: list[Line], what: str) -> str | None:
    """Why a plan or ballot made of ``lines`` is refused for a line that cannot be read."""
    errors = [f"'{_cut(line.text)}': {line.error}" for line in lines if line.command is None]
    if not errors:
        return None
    more = len(errors) - 1
    if what == "plan":
        return (ngettext("this mail's plan is refused whole, as a line of it cannot be read: {error} (and {count} more "
                         "such line)",
                         "this mail's plan is refused whole, as a line of it cannot be read: {error} (and {count} more "
                         "such lines)", more, error=errors[0]) if more else
                _("this mail's plan is refused whole, as a line of it cannot be read: {error}", error=errors[0]))
    return (ngettext("this mail's ballot is refused whole, as a line of it cannot be read: {error} (and {count} more "
                     "such line)", "this mail's ballot is refused whole, as a line of it cannot be read: {error} (and "
                     "{count} more such lines)", more, error=errors[0]) if more else
            _("this mail's ballot is refused whole, as a line of it cannot be read: {error}", error=errors[0]))


def _cut(text: str) -> str:
    """A line a refusal quotes, at most 60 characters of it: each line is answered on its own as well."""
    return text if len(text) <= 60 else text[:60] + "..."


def _submit_plan(match: Match, submissions: Submissions, player: str,
                 lines: list[Line]) -> tuple[Submissions, Reply]:
    texts = tuple(line.text for line in lines)
    unreadable = _unreadable(lines, "plan")
    if unreadable:
        return submissions, Reply(texts, False, unreadable, "SYNTAX")
    plans = [line.command for line in lines if isinstance(line.command, PlanLine)]
    garnets = [line.command.garnets for line in lines if isinstance(line.command, GarnetsLine)]
    if not plans:
        return submissions, Reply(texts, False, _("GARNETS goes with a PLAN line in the same mail: garnets are "
                                                  "spent as part of a plan"), "GARNETS_WITHOUT_PLAN")
    if len(plans) > 1 or len(garnets) > 1:
        return submissions, Reply(texts, False, _("a mail holds one plan: one PLAN line, and at most one "
                                                  "GARNETS line with it"), "ONE_PLAN_A_MAIL")
    try:
        plan = check_plan(match, player, plans[0].shares, garnets[0] if garnets else 0)
    except Refused as exc:
        return submissions, Reply(texts, False, str(exc), exc.code)
    source = plan_source(match.round.package(player), plan.garnets)
    shares = ", ".join(_("you {amount}", amount=amount) if m == player else f"{m} {amount}"
                       for m, amount in plan.shares)
    message = _("Plan accepted, {total} gold ({source}): {shares}", total=plan.total, source=source, shares=shares)
    return submissions.with_plan(plan), Reply(texts, True, message, "PLAN_ACCEPTED")


def _submit_ballot(match: Match, submissions: Submissions, player: str,
                   lines: list[Line]) -> tuple[Submissions, Reply]:
    texts = tuple(line.text for line in lines)
    unreadable = _unreadable(lines, "ballot")
    if unreadable:
        return submissions, Reply(texts, False, unreadable, "SYNTAX")
    votes = [line.command for line in lines if isinstance(line.command, VoteLine)]
    try:
        ballot = check_ballot(match, player, [n for v in votes for n in v.yes], [n for v in votes for n in v.no])
    except Refused as exc:
        return submissions, Reply(texts, False, str(exc), exc.code)

    message = _("Ballot accepted: {ballot}", ballot=ballot_words(ballot.yes, ballot.no, player))
    return submissions.with_ballot(ballot), Reply(texts, True, message, "BALLOT_ACCEPTED")


def _submit_move(match: Match, submissions: Submissions, player: str, move: bool) -> tuple[Submissions, str]:
    if not move:
        in_phase(match, Stage.VOTING, "move")
        asked = player in submissions.moves
        return submissions.with_move(player, False), (_("Move withdrawn: you stay in your room") if asked
                                                      else _("You stay in your room"))
    check_move(match, player)
    number = match.round.number + 1
    made = moves_made(match, player) + 1
    return submissions.with_move(player, True), _("You will change rooms at the start of round {round} (move {made} "
                                                  "of the {most} allowed; NOMOVE withdraws it)", round=number,
                                                  made=made, most=MOVES)
