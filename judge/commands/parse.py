"""The host's mail command language: lines of text in, command values out.

Commands are case-insensitive and one per line.  These are the host's commands, the same in
every game (accounts, sign-on, the game master's tools, press...); a line that is none of
them is a `GameLine`, which the kind of the game the lines are signed on to reads with its own
grammar (`judge.games.GameKind.read`: offers and orders in Payola, plans and votes in Pirates'
Proposal).  A line starting with ``%`` is commentary and is skipped without a word, but for the
two lines that open and end a form to fill (``%% form for S1901M of g1, France``, ``%% end of
form``: `FormOpens`, `FormEnds`, `judge.service.outgoing.forms`), which say what the lines between
them were written for.

``PRESS TO ...`` / ``BROADCAST`` take the following lines up to ``ENDPRESS`` as their text
(whom ``PRESS TO`` names is the game's kind to read: `Press`; a last word ``GREY`` or ``WHITE``
is the press's colour, `press_colour`).  A press block must be ended: one with no ``ENDPRESS``
after it, or with another ``PRESS TO ...`` / ``BROADCAST`` line before it (`press_closed`),
is refused (a `BadCommand`: nothing is sent), and the lines after it, up to that next press
or the end of the mail, are not read as commands either but each given as `Unread`: they may
well be press text, and a press line ``TRANSFER 10 TO G`` must not move money any more than
the writer's offers may reach the addressee of a press that swallowed them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta, timezone
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from judge.language import gettext as _
from judge.language import name_of, ngettext, offered
from judge.mail.inbound import ends_press, opens_press, press_closed, restarts_press


@dataclass(frozen=True)
class Help:
    """``HELP``: the judge's index, or after a sign-on the game's own help and its topics;
    ``HELP topic``, ``HELP KIND``, ``HELP KIND topic``, ``HELP INDEX``, ``HELP ALL``: one part of
    it, or all of it (`judge.service.incoming.help_topics`).  The words as written, lower case."""

    words: tuple[str, ...] = ()


@dataclass(frozen=True)
class ListGames:
    """``LIST``, ``LIST FROM name`` (the games from that name on), ``LIST game``."""

    game: str | None = None
    start: str | None = None


@dataclass(frozen=True)
class Create:
    """``CREATE game password [kind] [words ...]``: the words after the password are the game's
    kind's to read (`judge.games`), as written."""

    game: str
    password: str
    words: tuple[str, ...]


@dataclass(frozen=True)
class Join:
    """``JOIN game password [wish] [KEY key]``: the wish (a power of a Payola game, a player's name
    in Pirates' Proposal) as written, for the game's kind to read; or ``JOIN game password PREFER
    words... [KEY key]``: the seats wanted, best first, as written (njudge's preference list)."""

    game: str
    password: str
    wish: str | None
    key: str | None = None  # a private game's join key: JOIN game password [wish] KEY key
    prefer: tuple[str, ...] = ()


def join_usage() -> str:
    """How JOIN is written, in the language being written in."""
    return _("expected JOIN game password [wish] [KEY key], the wish being the power or country you would like, or "
             "the name you will play under where the game asks for one; or JOIN game password PREFER and the "
             "powers or countries wanted, best first")


JOIN_USAGE = join_usage()  # in English


@dataclass(frozen=True)
class Confirm:
    """``CONFIRM token``: the address a token was mailed to wants the game mail it was asked about;
    ``CONFIRM token password`` where the request asks for a password to be chosen (REPLACE)."""

    token: str
    password: str | None = None


@dataclass(frozen=True)
class SignOn:
    """``SIGNON FRANCE@game pw``, ``SIGNON Fgame pw`` or ``SIGNON MASTER@game pw``."""

    game: str
    who: str  # a power name or initial, or MASTER
    password: str


@dataclass(frozen=True)
class SignOff:
    pass


@dataclass(frozen=True)
class Status:
    pass


@dataclass(frozen=True)
class Wait:
    """``WAIT``: the seat asks that the phase not close before its deadline, even once every seat
    has sent what it must; ``NOWAIT`` (``on`` False) withdraws it."""

    on: bool = True


@dataclass(frozen=True)
class PhaseNamed:
    """``PHASE S1901M``: the lines of the mail that act on a game are meant for its phase of that
    name (any kind's: ``SP1454C``, ``W1900X``, ``V3``); applied only if it is the game's phase
    now, refused, saying so, if the game has processed it already (or not yet begun it)."""

    phase: str


@dataclass(frozen=True)
class Check:
    """``CHECK``: the mail is a check (a dry run): read and answered line by line as ever, then
    undone whole; nothing in it is applied, stored or sent but the reply."""


@dataclass(frozen=True)
class Press:
    """Press to some seats or the game master, or to everyone (``ALL`` or ``BROADCAST``).  Whom
    ``PRESS TO ...`` names is read by the game's kind from the line's ``words``
    (`judge.games.GameKind.press_to`); ``to`` is ``("ALL",)`` for BROADCAST, and what a kind's
    reading of the words gave (its ``parse_lines``)."""

    to: tuple[str, ...]
    body: tuple[str, ...]
    words: tuple[str, ...] = field(default=(), compare=False)  # the PRESS line's words, without its colour
    grey: bool | None = None  # GREY (unsigned) or WHITE (signed) after the recipients; None: the game's default


@dataclass(frozen=True)
class SetPassword:
    password: str


@dataclass(frozen=True)
class SetAddress:
    address: str


@dataclass(frozen=True)
class Resign:
    pass


@dataclass(frozen=True)
class Start:
    pass


@dataclass(frozen=True)
class SetDeadline:
    when: datetime  # aware; naive when no zone was written: the game's zone (`judge.service.zones`)


@dataclass(frozen=True)
class SetZone:
    """``SET ZONE Europe/Paris`` (the game's, the master's) or ``SET MYZONE America/New_York`` (a
    player's own; ``SET MYZONE GAME``: the game's again): the zone deadlines are written in."""

    zone: str | None  # as written; None: the game's (MYZONE GAME) or UTC alone (ZONE UTC)
    mine: bool


@dataclass(frozen=True)
class SetDuration:
    """``SET MOVEMENT 48``, ``SET RETREAT 24h``, ``SET ADJUSTMENT 1d``, ``SET GRACE 12``."""

    setting: str
    hours: float


@dataclass(frozen=True)
class Process:
    """``PROCESS [phase]``: close the game's phase now; naming it (``PROCESS S1902M``, ``PROCESS
    V3``) has it refused unless the game is in that phase."""

    phase: str | None = None


@dataclass(frozen=True)
class Pause:
    pass


@dataclass(frozen=True)
class Resume:
    pass


@dataclass(frozen=True)
class Rollback:
    """``ROLLBACK [phase]``: go back to the phase before the game's, or (as DPjudge's) to the
    processed phase named, ``ROLLBACK F1902M``."""

    phase: str | None = None


@dataclass(frozen=True)
class Rollforward:
    """``ROLLFORWARD``: undo a ROLLBACK, processing its phase again as it was."""


@dataclass(frozen=True)
class Replace:
    """``REPLACE POWER new@address`` (the game master): the seat goes to a new player, who
    confirms and chooses a password."""

    power: str
    address: str


@dataclass(frozen=True)
class Dummy:
    power: str


@dataclass(frozen=True)
class Terminate:
    """``TERMINATE``, then ``TERMINATE code`` to confirm: end the game now and for ever."""

    code: str | None = None


@dataclass(frozen=True)
class BadCommand:
    error: str


@dataclass(frozen=True)
class BadJoin(BadCommand):
    """A JOIN line that cannot be read: its ``error`` is the usage in words that fit every kind of game;
    where ``game`` names a game, its kind's own usage is given instead (a power, a country, a name)."""

    game: str | None = None


@dataclass(frozen=True)
class Takeover:
    """``TAKEOVER POWER@game password``: claim a vacant power."""

    game: str
    who: str
    password: str


@dataclass(frozen=True)
class Observe:
    """``OBSERVE game`` / ``UNOBSERVE game``: the game's public results by mail."""

    game: str
    stop: bool = False


@dataclass(frozen=True)
class SetAbsence:
    """``SET ABSENCE 2027-07-01 TO 2027-07-14``: no deadline for this power in those days."""

    start: date
    end: date


@dataclass(frozen=True)
class DecideAbsence:
    """``APPROVE ABSENCE power`` / ``DENY ABSENCE power`` (the game master)."""

    power: str
    approve: bool


@dataclass(frozen=True)
class History:
    """``HISTORY game [phase | first-last]``: the public results of past phases (the phases as
    written, upper case, for the game's kind to read).  After a sign-on the game may be left out
    (``HISTORY``, ``HISTORY S1902M``): ``game`` is then None, or the phase's word, which the
    handler reads as one when no game has that name."""

    game: str | None
    first: str | None = None
    last: str | None = None


@dataclass(frozen=True)
class WhoGame:
    """``WHOGAME [game]`` (njudge's): the game's seats, played, vacant or dummy, and who plays
    them where the reader may know it; the signed-on game's when none is named."""

    game: str | None


@dataclass(frozen=True)
class GetInfo:
    """``GET INFO [game]`` / ``GET RULES [game]`` (njudge's and DPjudge's): the game's options and
    the rules that apply, in words; the signed-on game's when none is named."""

    game: str | None


@dataclass(frozen=True)
class Summary:
    """``SUMMARY game``: the game's story in one mail (after a sign-on, ``SUMMARY``: the signed-on game's)."""

    game: str | None


@dataclass(frozen=True)
class SetFlag:
    """``SET LISTED`` / ``SET UNLISTED``, ``SET OBSERVERS ON|OFF``: a game setting switched."""

    flag: str  # listed, observers
    on: bool


@dataclass(frozen=True)
class SetPress:
    """``SET PRESS NONE|WHITE|GREY|WHITE/GREY|GREY/WHITE`` (``colours``), or ``SET PRESS
    PARTIAL|BETWEEN|OBSERVERS ON|OFF``: a press option of the game (`judge.service.options.PressRules`)."""

    setting: str  # colours, partial, between, observers
    value: str | bool


@dataclass(frozen=True)
class SetPrivate:
    """``SET PRIVATE key`` (JOIN needs ``KEY key``) / ``SET PUBLIC``."""

    key: str | None


@dataclass(frozen=True)
class SetOpening:
    """``SET OPENING power``: a vacant power may be taken over."""

    power: str


@dataclass(frozen=True)
class SetClock:
    """``SET CLOCK [phase] days HH:MM [zone] [AT LEAST hours] [EVERY n WEEKS]``, ``SET CLOCK [phase]
    OFF`` or ``SET CLOCK preset``: the game's weekly clock, as written (the game's kind names its
    phases and presets: `judge.service.incoming.handlers.unattended`)."""

    words: tuple[str, ...]


@dataclass(frozen=True)
class SetSilence:
    """``SET SILENCE ON|OFF``, ``SET SILENCE DAILY ON|OFF``, ``SET SILENCE EXTENSIONS n``, ``SET
    SILENCE EXTENSION hours``, ``SET SILENCE ABANDON n``: how the judge handles a silent seat
    (`judge.service.hosting.silence`)."""

    setting: str  # on, off, daily, extensions, extension, abandon
    value: bool | float | None = None


@dataclass(frozen=True)
class SetGate:
    """``SET GATE OFF``, ``SET GATE ABANDONED n|OFF``, ``SET GATE ONTIME n%|OFF``, ``SET GATE
    FINISHED n|OFF``, ``SET GATE RATING n|OFF``: what a player's record (or rating) must show to JOIN or
    TAKEOVER (`judge.service.hosting.records`)."""

    gate: str  # off, abandoned, on_time, finished, rating
    value: float | None = None


MAPS_CHOICES = ("png", "svg", "all", "none")
"""What ``SET MAPS`` chooses (and the judge's ``maps-default``): the pictures a game's mail carries."""


@dataclass(frozen=True)
class SetMaps:
    """``SET MAPS PNG|SVG|ALL|NONE`` (``SET MAPS DEFAULT``: the judge's default again): the pictures every
    game's mail carries to the sender's mailbox, in every game (`judge.service.outgoing.preferences`)."""

    choice: str | None  # one of MAPS_CHOICES; None: the judge's default


@dataclass(frozen=True)
class SetForm:
    """``SET FORM ON|OFF``: whether every game's mail that opens a phase for the sender's seat ends with
    the form to fill (`judge.service.outgoing.forms`; on unless the mailbox chose OFF)."""

    on: bool


@dataclass(frozen=True)
class SetLanguage:
    """``SET LANGUAGE it`` (``SET LANGUAGE DEFAULT``: no choice again): the language the judge writes every
    mail to the sender's mailbox in, in every game; ``SET GAME LANGUAGE it`` (``game``), the game master's:
    the game's pages' and the language of its readers who chose none (`judge.service.outgoing.preferences`)."""

    language: str | None  # one of judge.language.offered(); None: no choice
    game: bool = False


@dataclass(frozen=True)
class FormOpens:
    """A form's opening line kept in a reply (``%% form for S1901M of g1, France``): the phase, game and
    seat the lines after it, up to `FormEnds`, were written for."""

    phase: str
    game: str
    seat: str


@dataclass(frozen=True)
class FormEnds:
    """A form's end line kept in a reply (``%% end of form``)."""


FORM_OPENS = re.compile(r"%%\s*form\s+for\s+(?P<phase>\S+)\s+of\s+(?P<game>[^\s,]+)\s*,\s*(?P<seat>.*?)\s*",
                        re.IGNORECASE)
"""A form's opening line, as the host lays it out (`judge.service.outgoing.forms.lay_out`)."""
FORM_ENDS = re.compile(r"%%\s*end\s+of\s+form\s*", re.IGNORECASE)
"""A form's end line."""


@dataclass(frozen=True)
class GetRecord:
    """``GET RECORD``: the sender's own record on this judge, and its public page."""


@dataclass(frozen=True)
class GetRating:
    """``GET RATING [address]``: the sender's own ratings on this judge, or another person's public figure."""

    address: str | None = None


@dataclass(frozen=True)
class GameLine:
    """A line that is none of the host's commands: the signed-on game's kind reads it."""

    text: str


@dataclass(frozen=True)
class Unknown:
    """A line that no grammar knows (a game kind's reading gives it: `judge.games.GameKind.read`),
    answered ``error``, the same whether the mail signed on or not: it needs no sign-on to be
    unknown.  A short run of them after a mail's last command is its sign-off
    (`judge.service.incoming.handlers.conversation`)."""

    error: str


@dataclass(frozen=True)
class Unread:
    """A line that was not read as a command, and why (it follows a press with no ENDPRESS)."""

    reason: str


Command = Any
"""A command value: one of the host's dataclasses here, or one of a game kind's."""


@dataclass(frozen=True)
class Line:
    """One command as written (the first line for press) and what it was read as."""

    text: str
    command: Command


GAME_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_-]{0,19}")
SIMPLE: dict[str, Callable[[], Command]] = {
    "STATUS": Status, "RESIGN": Resign, "START": Start, "PAUSE": Pause, "RESUME": Resume,
    "ROLLFORWARD": Rollforward, "SIGNOFF": SignOff, "WAIT": Wait, "NOWAIT": lambda: Wait(False), "CHECK": Check,
}
"""The host's words that take nothing after them (a kind's grammar reads its own the same way)."""
_DURATIONS = {"GRACE": "grace", "REMINDER": "reminder"}  # a kind's phases' lengths are its to read
_PHASED = {"PROCESS": Process, "ROLLBACK": Rollback}
"""The game master's words that may name a phase after them (``PROCESS S1902M``)."""
PHASE_NAME = re.compile(r"[A-Za-z0-9]{1,12}")
"""A phase's name as any kind writes it (Payola's ``S1902M``, Pirates' Proposal's ``V3``, ``F``):
the kind, not the grammar, knows which there are."""


def _game(text: str) -> str:
    if not GAME_NAME.fullmatch(text):
        raise ValueError(_("'{name}' is not a game name (a letter, then up to 19 letters, digits, - or _)", name=text))
    return text.lower()


MAX_DURATION_HOURS = 90 * 24  # no phase or grace lasts longer: deadline arithmetic never overflows
MIN_PHASE_HOURS = 1.0
"""No phase is shorter: one of no time would close as it opens, before anyone could mail a
word, and an hour leaves time for a mail, its answer and a second thought."""
MIN_REMINDER_HOURS = 10 / 60
"""No reminder comes closer to its deadline: one at the deadline would come with the late notice."""


def read_phase_length(text: str, words: Sequence[str], durations: Mapping[str, str], named: str) -> Command:
    """A kind's ``SET <phase> hours`` line (``text``, read as ``words``): the setting ``durations``
    names for the phase word, or why not (``named``: the kind's phase words, as the refusal lists them)."""
    if len(words) == 3 and words[1].upper() in durations:
        try:
            return SetDuration(durations[words[1].upper()], parse_duration(words[2]))
        except ValueError as exc:
            return BadCommand(str(exc))
    return BadCommand(_("bad SET command: '{line}' (the phases' lengths: {named})", line=text[:80], named=named))


MASTER_WORDS = frozenset({"M", "MASTER", "GM"})
"""The game master's names among the recipients of ``PRESS TO``."""


def press_tokens(words: Sequence[str], usage: str, separators: str = r"[\s,;/&+]+") -> list[str]:
    """The recipients' words of a ``PRESS TO ...`` line (``words``: its words), as written, split
    at ``separators``; ``["ALL"]`` where ALL stands alone.  ValueError(``usage``) without TO or a
    recipient, and where ALL stands beside another: each kind resolves the words to its seats."""
    if len(words) < 3 or words[1].upper() != "TO":
        raise ValueError(usage)
    tokens = [t for t in re.split(separators, " ".join(words[2:])) if t]
    if not tokens:
        raise ValueError(usage)
    if any(t.upper() == "ALL" for t in tokens):
        if len(tokens) > 1:
            raise ValueError(_("PRESS TO ALL takes no other recipient"))
        return ["ALL"]
    return tokens


def press_to_seats(words: Sequence[str], usage: str, seat: Callable[[str], str]) -> tuple[str, ...]:
    """The recipients of a ``PRESS TO ...`` line where each word is one seat's name (``seat`` reads it,
    ValueError if it names none), the game master (`MASTER_WORDS`: ``"MASTER"``) or ALL alone
    (``("ALL",)``), each once, in the order named."""
    tokens = press_tokens(words, usage)
    if tokens == ["ALL"]:
        return ("ALL",)
    return tuple(dict.fromkeys("MASTER" if t.upper() in MASTER_WORDS else seat(t) for t in tokens))


def parse_duration(text: str, least: float = MIN_PHASE_HOURS, what: str | None = None) -> float:
    """Hours from ``48``, ``48h``, ``2d`` or ``90m``, at most MAX_DURATION_HOURS and at least
    ``least`` (the length of ``what``: by default a phase's, MIN_PHASE_HOURS)."""
    match = re.fullmatch(r"(\d{1,6}(?:\.\d{1,4})?)\s*([hdm]?)", text.strip().lower())
    if match is None:
        raise ValueError(_("bad duration '{text}': use hours (48), or 48h, 2d, 90m", text=text[:40]))
    value = float(match.group(1))
    hours = {"": value, "h": value, "d": value * 24, "m": value / 60}[match.group(2)]
    if hours > MAX_DURATION_HOURS:
        raise ValueError(_("a duration may be at most {days} days", days=MAX_DURATION_HOURS // 24))
    if hours < least:
        what = what or _("a phase's length")
        if least < 1:
            raise ValueError(ngettext("{what} must be at least {count} minute", "{what} must be at least {count} "
                                      "minutes", round(least * 60), what=what))
        raise ValueError(_("{what} must be at least 1 hour", what=what) if least == 1 else
                         _("{what} must be at least {hours} hours", what=what, hours=format(least, "g")))
    return hours


FIRST_DATE, LAST_DATE = date(2000, 1, 1), date(2999, 12, 31)
"""The dates a mail may write (SET DEADLINE, SET ABSENCE, SET CLOCK ... FROM): far wider than any
deadline, absence or clock needs, and far enough inside Python's calendar (years 1 to 9999) that no
zone's offset, grace, absence or week added to one leaves it."""
MAX_OFFSET = timedelta(hours=14)
"""The farthest a written offset from UTC may be (``+14:00``, Kiribati's; no zone is farther)."""


def read_count(word: str, most: int, usage: str) -> int:
    """The whole number ``word`` writes in figures, 0 to ``most``; ValueError(``usage``) for anything
    else: a sign, a point, a figure of another script (``²``), or more figures than ``most`` has (its
    leading zeros apart), refused on its length before it is read, so that no mail has Python read a
    number of thousands of figures.  The one reader of a count a host's command takes."""
    figures = word.lstrip("0") or "0"
    if not (word.isascii() and word.isdigit()) or len(figures) > len(str(most)) or int(figures) > most:
        raise ValueError(usage)
    return int(figures)


def read_date(word: str) -> date:
    """The date ``word`` writes, ``YYYY-MM-DD``, from FIRST_DATE to LAST_DATE; ValueError saying what
    a date is otherwise.  The one reader of a date a host's command takes."""
    try:
        found = date.fromisoformat(word) if re.fullmatch(r"\d{4}-\d{2}-\d{2}", word, re.ASCII) else None
    except ValueError:
        found = None
    if found is None:
        raise ValueError(_("'{word}' is not a date: write one as 2027-03-01 (YYYY-MM-DD)", word=word[:20]))
    if not FIRST_DATE <= found <= LAST_DATE:
        raise ValueError(_("'{word}' is not a date the judge reads: a date is from {first} to {last}", word=word,
                           first=FIRST_DATE, last=LAST_DATE))
    return found


def parse_deadline(text: str) -> datetime:
    """``YYYY-MM-DD HH:MM``, naive (the game's zone), or followed by a zone (``UTC``, ``+02:00``,
    ``Europe/Paris``), aware; its date as `read_date` reads one, an offset at most MAX_OFFSET."""
    match = re.fullmatch(r"(\S+?)[ T](\d{1,2}:\d{2})(?:\s+(\S+))?", text.strip(), re.ASCII)
    if match is None:
        raise ValueError(_("expected SET DEADLINE YYYY-MM-DD HH:MM [zone]"))
    day = read_date(match.group(1))
    try:
        naive = datetime.combine(day, datetime.strptime(match.group(2), "%H:%M").time())
    except ValueError:
        raise ValueError(_("'{time}' is not a time of day (12:00)", time=match.group(2))) from None
    zone = match.group(3)
    if zone is None:
        return naive
    if zone.upper() in ("UTC", "GMT", "Z"):
        return naive.replace(tzinfo=UTC)
    offset = re.fullmatch(r"([+-])(\d{2}):?(\d{2})", zone, re.ASCII)
    if offset:
        delta = timedelta(hours=int(offset.group(2)), minutes=int(offset.group(3)))
        if delta > MAX_OFFSET or int(offset.group(3)) > 59:
            raise ValueError(_("'{zone}' is no offset from UTC: one is from -14:00 to +14:00", zone=zone))
        return naive.replace(tzinfo=timezone(delta if offset.group(1) == "+" else -delta))
    try:
        if not re.fullmatch(r"[A-Za-z][A-Za-z0-9_+-]*(/[A-Za-z0-9_+-]+){0,2}", zone) or len(zone) > 40:
            raise ValueError(zone)
        return naive.replace(tzinfo=ZoneInfo(zone))
    except (ZoneInfoNotFoundError, ValueError, OSError):  # OSError: a name the file system refuses
        raise ValueError(_("unknown time zone '{zone}'", zone=zone[:40])) from None


def _signon(args: list[str]) -> SignOn:
    if args and args[0].startswith("?"):  # njudge's way to join a game
        game = args[0][1:] or "game"
        raise ValueError(_("to join a game, send JOIN {game} password [power] (njudge's SIGNON ?game is JOIN here); "
                           "SIGNON POWER@game password signs on to a power you play", game=game[:20]))
    if len(args) != 2:
        raise ValueError(_("expected SIGNON POWER@game password (or SIGNON Xgame password, SIGNON MASTER@game "
                           "password)"))
    who_game, password = args
    if "@" in who_game:
        who, game = who_game.split("@", 1)
    else:
        who, game = who_game[:1], who_game[1:]
    if not who or not game:
        raise ValueError(_("expected SIGNON POWER@game password"))
    return SignOn(_game(game), who.upper(), password)


def _command(words: list[str]) -> Command:
    """The host's command a line's ``words`` make (ValueError with the reason if they make it badly;
    KeyError if the first word is no host's command: a kind's grammar reads the line then)."""
    keyword, args = words[0].upper(), words[1:]
    if keyword in SIMPLE:
        if args:
            raise ValueError(_("{command} takes nothing after it", command=keyword))
        return SIMPLE[keyword]()
    if keyword in _PHASED:
        if len(args) > 1 or (args and not PHASE_NAME.fullmatch(args[0])):
            raise ValueError(_("expected {command} or {command} phase (e.g. {command} S1902M)", command=keyword))
        return _PHASED[keyword](args[0].upper() if args else None)
    reader = _READERS.get(keyword)
    if reader is None:
        raise KeyError(keyword)
    return reader(keyword, args)


def _help(_word: str, args: list[str]) -> Command:
    if len(args) > 2:
        raise ValueError(_("expected HELP, HELP topic or HELP KIND topic"))
    return Help(tuple(word.lower() for word in args))


def _phase(_word: str, args: list[str]) -> Command:
    if len(args) != 1 or not PHASE_NAME.fullmatch(args[0]):
        raise ValueError(_("expected PHASE and the phase the mail is meant for (e.g. PHASE S1902M)"))
    return PhaseNamed(args[0].upper())


def _list(_word: str, args: list[str]) -> Command:
    if len(args) == 2 and args[0].upper() == "FROM":
        return ListGames(start=_game(args[1]))
    if len(args) > 1:
        raise ValueError(_("expected LIST, LIST FROM name or LIST game"))
    return ListGames(_game(args[0]) if args else None)


def _create(_word: str, args: list[str]) -> Command:
    if len(args) < 2:
        raise ValueError(_("expected CREATE game password [variant] [OPTION ...]"))
    return Create(_game(args[0]), args[1], tuple(args[2:]))


def _join(_word: str, args: list[str]) -> Command:
    key = None
    if len(args) >= 4 and args[-2].upper() == "KEY":
        key, args = args[-1], args[:-2]
    if len(args) < 2 or (len(args) == 3 and args[2].upper() == "PREFER"):
        return BadJoin(join_usage(), args[0].lower() if args and GAME_NAME.fullmatch(args[0]) else None)
    if len(args) > 3 and args[2].upper() == "PREFER":
        return Join(_game(args[0]), args[1], None, key, tuple(args[3:]))
    return Join(_game(args[0]), args[1], " ".join(args[2:]) or None, key)  # a wish of two words: NEW YORK


def _takeover(_word: str, args: list[str]) -> Command:
    signon = _signon(args)
    return Takeover(signon.game, signon.who, signon.password)


def _observe(keyword: str, args: list[str]) -> Command:
    if len(args) != 1:
        raise ValueError(_("expected {command} game", command=keyword))
    return Observe(_game(args[0]), keyword == "UNOBSERVE")


def _absence_decided(keyword: str, args: list[str]) -> Command:
    if keyword == "APPROVE" and args and args[0].upper() != "ABSENCE":
        raise KeyError(keyword)  # a game's word, perhaps (Exchange Payola's APPROVE X m)
    if len(args) != 2 or args[0].upper() != "ABSENCE":
        raise ValueError(_("expected {command} ABSENCE power", command=keyword))
    return DecideAbsence(args[1].upper(), keyword == "APPROVE")


def _whogame(_word: str, args: list[str]) -> Command:
    if len(args) > 1:
        raise ValueError(_("expected WHOGAME game"))
    return WhoGame(_game(args[0]) if args else None)


def _get(_word: str, args: list[str]) -> Command:
    if [a.upper() for a in args] == ["RECORD"]:
        return GetRecord()
    if args and args[0].upper() == "RATING":
        return _get_rating(args[1:])
    if not 1 <= len(args) <= 2 or args[0].upper() not in ("INFO", "RULES"):
        raise ValueError(_("expected GET INFO game or GET RULES game"))
    return GetInfo(_game(args[1]) if len(args) == 2 else None)


def _summary(_word: str, args: list[str]) -> Command:
    if len(args) > 1:
        raise ValueError(_("expected SUMMARY game"))
    return Summary(_game(args[0]) if args else None)


def _confirm(_word: str, args: list[str]) -> Command:
    if len(args) not in (1, 2):
        raise ValueError(_("expected CONFIRM token (the token the judge mailed to you)"))
    return Confirm(args[0], args[1] if len(args) == 2 else None)


def _replace(_word: str, args: list[str]) -> Command:
    if len(args) != 2 or "@" not in args[1]:
        raise ValueError(_("expected REPLACE POWER new@address"))
    return Replace(args[0].upper(), args[1])


def _terminate(_word: str, args: list[str]) -> Command:
    if len(args) > 1:
        raise ValueError(_("expected TERMINATE, then TERMINATE code to confirm"))
    return Terminate(args[0] if args else None)


def _dummy(_word: str, args: list[str]) -> Command:
    if not args:
        raise ValueError(_("expected DUMMY POWER"))
    return Dummy(" ".join(args).upper())


_READERS: dict[str, Callable[[str, list[str]], Command]] = {
    "HELP": _help, "PHASE": _phase, "LIST": _list, "CREATE": _create, "JOIN": _join, "TAKEOVER": _takeover,
    "OBSERVE": _observe, "UNOBSERVE": _observe, "APPROVE": _absence_decided, "DENY": _absence_decided,
    "HISTORY": lambda _word, args: _history(args), "WHOGAME": _whogame, "GET": _get, "SUMMARY": _summary,
    "SIGNON": lambda _word, args: _signon(args), "CONFIRM": _confirm, "REPLACE": _replace, "TERMINATE": _terminate,
    "DUMMY": _dummy, "SET": lambda _word, args: _set(args),
}
"""The reader of each of the host's words that take words after them (`_command`)."""


def _history(args: list[str]) -> History:
    if len(args) > 2:
        raise ValueError(_("expected HISTORY game [phase | first-last], e.g. HISTORY g1 S1902M-W1903A"))
    if not args:
        return History(None)
    if len(args) == 1:
        return History(_game(args[0]))
    phases = args[1].upper().split("-")
    if len(phases) > 2 or not all(phases):
        raise ValueError(_("'{phase}' is not a phase (S1901M) or a range of phases (S1901M-W1902A)",
                           phase=args[1][:20]))
    return History(_game(args[0]), phases[0], phases[-1])


def _absence(rest: list[str]) -> SetAbsence:
    if len(rest) != 3 or rest[1].upper() != "TO":
        raise ValueError(_("expected SET ABSENCE YYYY-MM-DD TO YYYY-MM-DD"))
    start, end = read_date(rest[0]), read_date(rest[2])
    if end < start:
        raise ValueError(_("an absence ends after it starts"))
    if (end - start).days > 60:
        raise ValueError(_("an absence is at most 60 days"))
    return SetAbsence(start, end)


MAX_EXTENSIONS = 3  # automatic extensions of one phase at most
MAX_ABANDON = 9  # missed phases in a row before a seat is abandoned, at most


def silence_usage() -> str:
    """How SET SILENCE is written, in the language being written in."""
    return _("expected SET SILENCE ON|OFF, SET SILENCE DAILY ON|OFF, SET SILENCE EXTENSIONS n (0 to {extensions}), "
             "SET SILENCE EXTENSION hours, SET SILENCE ABANDON n (0: never, up to {abandon})",
             extensions=MAX_EXTENSIONS, abandon=MAX_ABANDON)


SILENCE_USAGE = silence_usage()  # in English
MAX_GATE = 999  # abandoned seats or finished games a gate may count, at most
MAX_RATING_GATE = 3000  # the highest rating a gate may ask for (a rating reads like Elo's: 1000 a newcomer's)


def gate_usage() -> str:
    """How SET GATE is written, in the language being written in."""
    return _("expected SET GATE OFF, SET GATE ABANDONED n|OFF, SET GATE ONTIME n%|OFF, SET GATE FINISHED n|OFF or "
             "SET GATE RATING n|OFF (a rating from 0 to {most})", most=MAX_RATING_GATE)


GATE_USAGE = gate_usage()  # in English
ADDRESS_MOST = 320
"""The longest address a command may name (RFC 5321's 64 + 1 + 255), as the judge's columns keep it."""


def _get_rating(rest: list[str]) -> GetRating:
    if not rest:
        return GetRating()
    if len(rest) > 1:
        raise ValueError(_("expected GET RATING, or GET RATING followed by one address"))
    address = rest[0].strip("<>")
    if len(address) > ADDRESS_MOST:
        raise ValueError(_("an address is at most {most} characters long, and this one has {length}",
                           most=ADDRESS_MOST, length=len(address)))
    local, at, domain = address.rpartition("@")
    if not at or not local or "." not in domain:
        raise ValueError(_("'{address}' is no mail address (name@example.org)", address=address[:80]))
    return GetRating(address)


def _silence(rest: list[str]) -> SetSilence:
    if rest in (["ON"], ["OFF"]):
        return SetSilence(rest[0].lower())
    if len(rest) != 2:
        raise ValueError(silence_usage())
    what, value = rest
    if what == "DAILY" and value in ("ON", "OFF"):
        return SetSilence("daily", value == "ON")
    if what == "EXTENSION":
        return SetSilence("extension", parse_duration(value, MIN_PHASE_HOURS, _("an extension")))
    bound = {"EXTENSIONS": MAX_EXTENSIONS, "ABANDON": MAX_ABANDON}.get(what)
    if bound is None:
        raise ValueError(silence_usage())
    return SetSilence(what.lower(), float(read_count(value, bound, silence_usage())))


def _gate(rest: list[str]) -> SetGate:
    if rest == ["OFF"]:
        return SetGate("off")
    gate = {"ABANDONED": "abandoned", "ONTIME": "on_time", "ON-TIME": "on_time", "FINISHED": "finished",
            "RATING": "rating"}.get(
        rest[0] if rest else "")
    if gate is None or len(rest) != 2:
        raise ValueError(gate_usage())
    if rest[1] == "OFF":
        return SetGate(gate)
    if gate == "on_time":
        return SetGate(gate, float(read_count(rest[1].removesuffix("%"), 100, gate_usage())))
    return SetGate(gate, float(read_count(rest[1], MAX_RATING_GATE if gate == "rating" else MAX_GATE, gate_usage())))


PRESS_COLOURS = ("NONE", "WHITE", "GREY", "WHITE/GREY", "GREY/WHITE")
"""The press a game allows, as njudge names it: none (to the game master only), white (signed),
grey (unsigned), both (white by default), both (grey by default)."""
_PRESS_SWITCHES = {"PARTIAL": "partial", "BETWEEN": "between", "OBSERVERS": "observers"}


def _press_option(rest: list[str]) -> SetPress:
    words = [w.upper().replace("GRAY", "GREY") for w in rest]
    if len(words) == 1 and words[0] in PRESS_COLOURS:
        return SetPress("colours", words[0])
    if len(words) == 2 and words[0] in _PRESS_SWITCHES and words[1] in ("ON", "OFF"):
        return SetPress(_PRESS_SWITCHES[words[0]], words[1] == "ON")
    raise ValueError(_("expected SET PRESS NONE|WHITE|GREY|WHITE/GREY|GREY/WHITE, or SET PRESS PARTIAL|BETWEEN|"
                       "OBSERVERS ON|OFF"))


def press_colour(words: list[str]) -> tuple[list[str], bool | None]:
    """A PRESS or BROADCAST line's words without the colour named last (``GREY``, ``GRAY`` or
    ``WHITE``), and whether that colour is grey (None: none named)."""
    if len(words) > 1 and words[-1].upper() in ("GREY", "GRAY", "WHITE"):
        return words[:-1], words[-1].upper() != "WHITE"
    return words, None


def _set(args: list[str]) -> Command:
    """A SET line of the host's (`_SETTINGS`); KeyError for a word that is none of them, or a line
    none of the host's forms of it reads: perhaps the game's (SET MOVEMENT 48, SET DRAW...)."""
    if not args:
        raise ValueError(_("expected SET PASSWORD, SET ADDRESS, SET DEADLINE, SET GRACE, or the length of a kind of "
                           "phase (HELP)"))
    what, rest = args[0].upper(), args[1:]
    reader = _SETTINGS.get(what)
    command = reader(what, rest) if reader is not None else None
    if command is None:
        raise KeyError(what)
    return command


def _set_address(rest: list[str]) -> SetAddress | None:
    """SET ADDRESS, with one word that reads as an address."""
    if len(rest) == 1 and re.fullmatch(r"[^@\s]+@[^@\s]+\.?[^@\s]*", rest[0]):
        return SetAddress(rest[0])
    return None


def _set_observers(rest: list[str]) -> SetFlag | None:
    """SET OBSERVERS ON|OFF."""
    if len(rest) == 1 and rest[0].upper() in ("ON", "OFF"):
        return SetFlag("observers", rest[0].upper() == "ON")
    return None


def _set_zone(what: str, rest: list[str]) -> SetZone | None:
    """SET ZONE (the game's) or SET MYZONE (the reader's own), each with a word that resets it."""
    if len(rest) != 1:
        return None
    reset = rest[0].upper() in (("GAME", "NONE") if what == "MYZONE" else ("UTC", "GMT", "NONE"))
    return SetZone(None if reset else rest[0], what == "MYZONE")


def _set_maps(rest: list[str]) -> SetMaps:
    """SET MAPS and one of its choices, or DEFAULT; anything else is refused with the choices."""
    word = rest[0].lower() if len(rest) == 1 else ""
    if word in MAPS_CHOICES or word == "default":
        return SetMaps(word if word in MAPS_CHOICES else None)
    raise ValueError(_("expected SET MAPS PNG (one picture: the phase's orders on the board), SET MAPS SVG (that "
                       "picture as SVG), SET MAPS ALL (every picture), SET MAPS NONE or SET MAPS DEFAULT"))


def _set_form(rest: list[str]) -> SetForm:
    """SET FORM ON or OFF; anything else is refused with the choices."""
    word = rest[0].upper() if len(rest) == 1 else ""
    if word in ("ON", "OFF"):
        return SetForm(word == "ON")
    raise ValueError(_("expected SET FORM ON (each mail that opens a phase for you ends with the form to fill) or "
                       "SET FORM OFF"))


def _set_language(rest: list[str], game: bool) -> SetLanguage:
    """SET LANGUAGE and the code of a language the judge writes, or DEFAULT; anything else is refused
    with the languages it writes (the word shortened: a line may be thousands of characters long)."""
    word = rest[0].lower() if len(rest) == 1 else " ".join(rest)
    if word in offered() or word == "default":
        return SetLanguage(word if word != "default" else None, game)
    codes = ", ".join(f"{code} ({name_of(code)})" for code in offered())
    if not word:
        raise ValueError(_("expected SET LANGUAGE and the code of a language: {codes}", codes=codes))
    shown = word if len(word) <= 20 else word[:20] + "..."
    raise ValueError(_("this judge writes no language called \"{word}\": it writes {codes} (HELP LANGUAGES)",
                       word=shown, codes=codes))


def _set_game(rest: list[str]) -> SetLanguage | None:
    """SET GAME LANGUAGE code, the game master's."""
    if rest and rest[0].upper() == "LANGUAGE":
        return _set_language(rest[1:], game=True)
    return None


def _set_clock(rest: list[str]) -> SetClock:
    """SET CLOCK and the words of its setting, which its handler reads
    (`judge.service.incoming.handlers.unattended`)."""
    if not rest:
        raise ValueError(_("expected SET CLOCK [phase] days HH:MM [zone], SET CLOCK [phase] OFF or SET CLOCK preset"))
    return SetClock(tuple(rest))


def _set_duration(what: str, rest: list[str]) -> SetDuration | None:
    """SET GRACE or SET REMINDER: no grace period at all is allowed, not a reminder at the deadline."""
    if len(rest) != 1:
        return None
    if what == "GRACE":
        return SetDuration(_DURATIONS[what], parse_duration(rest[0], 0.0))
    return SetDuration(_DURATIONS[what], parse_duration(rest[0], MIN_REMINDER_HOURS,
                                                        _("a reminder's time before the deadline")))


_SETTINGS: dict[str, Callable[[str, list[str]], Command | None]] = {
    "PASSWORD": lambda _word, rest: SetPassword(rest[0]) if len(rest) == 1 else None,
    "ADDRESS": lambda _word, rest: _set_address(rest),
    "DEADLINE": lambda _word, rest: SetDeadline(parse_deadline(" ".join(rest))),
    "ABSENCE": lambda _word, rest: _absence(rest),
    "LISTED": lambda _word, rest: None if rest else SetFlag("listed", True),
    "UNLISTED": lambda _word, rest: None if rest else SetFlag("listed", False),
    "OBSERVERS": lambda _word, rest: _set_observers(rest),
    "PRESS": lambda _word, rest: _press_option(rest),
    "ZONE": _set_zone,
    "MYZONE": _set_zone,
    "PRIVATE": lambda _word, rest: SetPrivate(rest[0]) if len(rest) == 1 else None,
    "PUBLIC": lambda _word, rest: None if rest else SetPrivate(None),
    "CLOCK": lambda _word, rest: _set_clock(rest),
    "MAPS": lambda _word, rest: _set_maps(rest),
    "FORM": lambda _word, rest: _set_form(rest),
    "LANGUAGE": lambda _word, rest: _set_language(rest, game=False),
    "GAME": lambda _word, rest: _set_game(rest),
    "SILENCE": lambda _word, rest: _silence([w.upper() for w in rest]),
    "GATE": lambda _word, rest: _gate([w.upper() for w in rest]),
    "OPENING": lambda _word, rest: SetOpening(rest[0].upper()) if len(rest) == 1 else None,
    **dict.fromkeys(_DURATIONS, _set_duration),
}
"""The reader of each of the host's SET words, given the word and the words after it: a command, or
None when the host has no such form of it (`_set`)."""


def unended_press(before_press: bool = False) -> str:
    """What is said of a press no ENDPRESS ends (``before_press``: before the next PRESS), in the language
    being written in."""
    if before_press:
        return _("PRESS without ENDPRESS before the next PRESS: nothing was sent, and the lines up to the next PRESS "
                 "were not read (end each press with a line ENDPRESS)")
    return _("PRESS without ENDPRESS: nothing was sent, and the lines after it were not read (end press with a line "
             "ENDPRESS)")


def unread_after_press() -> str:
    """What is said of a line after a press no ENDPRESS ends, in the language being written in."""
    return _("not read: it follows a PRESS without ENDPRESS and may be press text")


UNENDED_PRESS = unended_press()  # these three in English
UNENDED_PRESS_BEFORE_PRESS = unended_press(before_press=True)
UNREAD_AFTER_PRESS = unread_after_press()


def parse_lines(lines: Sequence[str]) -> list[Line]:
    """Read a mail's lines into commands; blank lines and ``%`` comment lines are skipped
    (except inside press)."""
    result: list[Line] = []
    closed = press_closed(lines)
    index = 0
    while index < len(lines):
        text = lines[index].strip()
        index += 1
        if text.startswith("%%") and (marker := _form_marker(text)) is not None:
            result.append(Line(text, marker))
            continue
        if not text or text.startswith("%"):
            continue
        words = text.split()
        if opens_press(text):
            if not closed[index - 1]:
                index = _unended_press(lines, index, text, result)
                continue
            body: list[str] = []
            while index < len(lines) and not ends_press(lines[index]):
                body.append(lines[index].rstrip())
                index += 1
            index += 1  # skip ENDPRESS
            to = () if words[0].upper() == "PRESS" else ("ALL",)
            words, grey = press_colour(words)
            result.append(Line(text, Press(to, tuple(body), tuple(words), grey)))
            continue
        if ends_press(text):
            result.append(Line(text, BadCommand(_("ENDPRESS without a PRESS before it"))))
            continue
        try:
            result.append(Line(text, _command(words)))
        except KeyError:
            result.append(Line(text, GameLine(text)))
        except ValueError as exc:
            result.append(Line(text, BadCommand(str(exc))))
    return result


def _form_marker(text: str) -> FormOpens | FormEnds | None:
    """The form's opening or end line ``text`` is, if it is one."""
    if FORM_ENDS.fullmatch(text):
        return FormEnds()
    found = FORM_OPENS.fullmatch(text)
    return FormOpens(found["phase"], found["game"].lower(), found["seat"]) if found else None


def _unended_press(lines: Sequence[str], index: int, text: str, result: list[Line]) -> int:
    """Refuse the press ``text`` that no ENDPRESS ends, and give each line after it, from
    ``index`` up to the next press or the end, as `Unread`; returns where reading resumes."""
    end = index
    while end < len(lines) and not restarts_press(lines[end]):
        end += 1
    result.append(Line(text, BadCommand(unended_press(before_press=end < len(lines)))))
    unread = unread_after_press()
    result.extend(Line(line.strip(), Unread(unread)) for line in lines[index:end] if line.strip())
    return end


def password_words(lines: Sequence[str]) -> set[str]:
    """Every word of ``lines`` that is, or may be, a password (also in malformed commands), so
    that stored copies of a mail can be masked."""
    found: set[str] = set()
    for line in lines:
        words = line.split()
        keyword = " ".join(w.upper() for w in words[:2])
        if keyword.startswith(("CREATE ", "JOIN ")):
            found.update(words[2:3])
            if keyword.startswith("JOIN ") and len(words) > 4 and words[-2].upper() == "KEY":
                found.add(words[-1])
        elif keyword.startswith("SIGNON ") and words[2:] == ["_"]:
            continue  # a form's sign-on line, its password left blank: no password, and the form's _ is no secret
        elif keyword.startswith(("SIGNON ", "TAKEOVER ", "CONFIRM ")) or keyword in ("SET PASSWORD", "SET PRIVATE"):
            found.update(words[2:])  # CONFIRM token password: the token is words[1]
    return found
