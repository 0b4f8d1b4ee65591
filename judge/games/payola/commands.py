"""Payola's words in the mail command language: the lines the host's grammar leaves to the game
(`judge.commands.parse.GameLine`), read as a Payola game reads them.

A line starting with a digit is an offer or savings request (``4 : A LON - YOR``, ``10 $``), as
is one whose amount has a sign or a point (``-3 : A MUN H``: refused, an amount is whole);
ACCEPT, TRANSFER, CLEAR, MAP, VOTE, PREVIEW, ROLLFORWARD, REVEAL, ``SET DRAW`` and
the lengths of the phases (``SET MOVEMENT 48``) are Payola's commands; a line that reads as an
order (`orderlike`) is taken as one (retreats, adjustments, loyal units): what those mean
depends on the game's phase, so the service reads them; anything else is an unknown command
(`judge.commands.parse.Unknown`).  Whom ``PRESS TO ...`` names is read here too
(`press_recipients`): powers by name or initial.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cache

from babel.numbers import format_decimal

from judge import api
from judge.api import BadCommand, Command, GameLine, Line, Press, SetDuration, Unknown, parse_duration
from judge.engine.map import available_maps, load_map
from judge.engine.orders import leads_with_place
from judge.language import current
from judge.language import gettext as _
from judge.payola.offers import LIMITS, NOT_WHOLE


@dataclass(frozen=True)
class Accept:
    text: str


@dataclass(frozen=True)
class Transfer:
    amount: int
    to: str


@dataclass(frozen=True)
class Clear:
    pass


@dataclass(frozen=True)
class MapRequest:
    """``MAP``: the sender asks for the map of the current position."""


@dataclass(frozen=True)
class OfferLine:
    text: str


@dataclass(frozen=True)
class OrderLine:
    text: str


@dataclass(frozen=True)
class Vote:
    """``VOTE DRAW`` / ``VOTE CONCEDE power`` / ``VOTE NONE`` (DPjudge: ``SET DRAW``, ``SET NODRAW``,
    ``SET CONCEDE power``, ``SET NOCONCEDE``)."""

    choice: str  # DRAW, CONCEDE or NONE
    power: str | None = None  # conceded to


@dataclass(frozen=True)
class Preview:
    pass


@dataclass(frozen=True)
class Reveal:
    """``REVEAL``, then ``REVEAL code`` to confirm: publish the game's secrets now."""

    code: str | None = None


SIMPLE = {"CLEAR": Clear, "MAP": MapRequest, "PREVIEW": Preview}
"""The words of Payola's lines that take nothing after them."""
DURATIONS = {"MOVEMENT": "movement", "RETREAT": "retreat", "RETREATS": "retreat", "ADJUSTMENT": "adjustment",
             "ADJUSTMENTS": "adjustment", "BUILD": "adjustment", "BUILDS": "adjustment"}
"""``SET <word> hours``: the words for the lengths of Payola's phases, and their settings."""


MAX_TRANSFER = LIMITS.savings
"""The most AgP one TRANSFER moves: as much as a savings request may ask for, far more than any treasury
holds; a larger number is refused at reading, whatever its length."""
SIGNED_AMOUNT = re.compile(r"[-\u2013\u2014\u2212]\s*\d|\.\d")
"""The start of an offer whose amount is written with a sign (``-3 : A MUN H``) or a point
(``.5 : ...``): read as an offer, to be answered that an amount is whole (`judge.payola.offers`)."""


def read(text: str, variant: str | None = None) -> Command:
    """A line the host's grammar does not know, as a Payola game on the board ``variant`` reads it
    (None: before any sign-on, when the game and its board are not known yet)."""
    if text[0].isdigit() or SIGNED_AMOUNT.match(text):
        return OfferLine(text)
    words = text.split()
    try:
        return _command(words)
    except KeyError:
        if orderlike(text, variant):
            return OrderLine(text)
        return Unknown(_("unknown command '{word}': HELP lists the commands", word=words[0][:20]))
    except ValueError as exc:
        return BadCommand(str(exc))


_ORDER_WORDS = frozenset({"A", "F", "ARMY", "FLEET", "B", "BUILD", "BUILDS", "R", "REMOVE", "REMOVES", "D", "DISBAND",
                          "DISBANDS", "WAIVE", "WAIVES", "RETREAT", "RETREATS"})


def orderlike(text: str, variant: str | None = None) -> bool:
    """Whether a line that is no command reads as an order, well or badly written: it starts
    with a unit's type, an adjustment's or retreat's word, or a place of the game's board (of any
    of the judge's boards where the game is not known yet) followed by an order's word (an order
    may leave the unit's type out: ``PAR - BUR``; `leads_with_place`).  Anything else
    (``Thanks!``, ``Francois``, ``Hi judge,``, ``WHOGAME classic``) is an unknown command, not an
    order: the answer then speaks of neither units nor sign-on."""
    first = text.split()[0].upper().rstrip(".,:;!")
    if first in _ORDER_WORDS:
        return True
    head = text[:_HEAD]  # a place and the word after it: read on the whole line, for every board, it took seconds
    return any(leads_with_place(head, load_map(name)) for name in ([variant] if variant else available_maps()))


_HEAD = 200
"""Characters of a line `orderlike` looks at: its first place (the longest name of any board, in words
with any spaces between them) and the word after it are well within them."""


def _command(words: list[str]) -> Command:
    keyword, args = words[0].upper(), words[1:]
    if keyword in SIMPLE:
        if args:
            raise ValueError(_("{keyword} takes nothing after it", keyword=keyword))
        return SIMPLE[keyword]()
    if keyword == "VOTE":
        return _vote(" ".join(args).upper())
    if keyword == "REVEAL":
        if len(args) > 1:
            raise ValueError(_("expected REVEAL, then REVEAL code to confirm"))
        return Reveal(args[0] if args else None)
    if keyword == "ACCEPT":
        return Accept(" ".join(args))
    if keyword == "TRANSFER":
        if len(args) < 3 or args[1].upper() != "TO":
            raise ValueError(_("expected TRANSFER amount TO POWER"))
        if not (args[0].isdigit() and args[0].isascii()):
            raise ValueError(_("'{amount}': an amount is a whole number of AgP, 0 or more", amount=args[0][:20])
                             if NOT_WHOLE.fullmatch(args[0]) else _("expected TRANSFER amount TO POWER"))
        amount = api.read_count(args[0], MAX_TRANSFER, _("a transfer is at most {most} AgP",
                                                                most=format_decimal(MAX_TRANSFER, locale=current())))
        return Transfer(amount, " ".join(args[2:]).upper())  # a power of two words: TO NEW YORK
    if keyword == "SET" and args:
        return _set(args)
    raise KeyError(keyword)


def _vote(text: str) -> Vote:
    words = text.split()
    if words == ["DRAW"]:
        return Vote("DRAW")
    if words in (["NONE"], ["NODRAW"], ["NOCONCEDE"]):
        return Vote("NONE")
    if len(words) >= 2 and words[0] == "CONCEDE":
        return Vote("CONCEDE", " ".join(words[1:]))
    raise ValueError(_("expected VOTE DRAW, VOTE CONCEDE power or VOTE NONE"))


def _set(args: list[str]) -> Command:
    what, rest = args[0].upper(), args[1:]
    if what in ("DRAW", "NODRAW", "NOCONCEDE") and not rest:
        return _vote(what)
    if what == "CONCEDE" and rest:
        return Vote("CONCEDE", " ".join(rest).upper())
    if what in DURATIONS and len(rest) == 1:
        return SetDuration(DURATIONS[what], parse_duration(rest[0]))
    raise ValueError(_("bad SET command: 'SET {words}'", words=" ".join(args)))


@cache
def _power_names() -> dict[str, str]:
    """The power names of every map the judge has, by their letters alone (``BRITISHCOLUMBIA``:
    ``BRITISH_COLUMBIA``, whichever way its words are joined): the words that are a name, not
    initials."""
    return {name.replace("_", ""): name for variant in available_maps() for name in load_map(variant).powers}


def press_recipients(words: Sequence[str]) -> tuple[str, ...]:
    """Whom ``PRESS TO ...`` (its words) is for, as tokens for the service to resolve with the
    game's map.

    The recipients are words separated by spaces or commas (also ``;``, ``.``, ``/``, ``&``, ``+``),
    upper-cased.  ``ALL``, alone, is everyone: ``("ALL",)``.  ``M``, ``MASTER`` and ``GM`` are
    the game master: ``"MASTER"``.  A power name of any map (``ENGLAND``) or a single letter
    is kept as it is.  Any other word of letters is a run of initials, one token per letter
    (``EFG`` is ``E``, ``F``, ``G``; an ``M`` in it is the master); a run that repeats a letter
    (``ENGLND``) is refused, being more likely a misspelt name.  Repeated tokens are dropped.
    """
    tokens = [t.upper() for t in api.press_tokens(words, _("expected PRESS TO followed by powers (names or "
                                                             "initials), ALL, or MASTER"), r"[\s,;./&+]+")]
    if tokens == ["ALL"]:
        return ("ALL",)
    found: list[str] = []
    for token in tokens:
        if token in api.MASTER_WORDS:
            found.append("MASTER")
        elif (name := _power_names().get(re.sub(r"[-_]", "", token))) or re.fullmatch(r"[A-Z]", token):
            found.append(name or token)
        elif re.fullmatch(r"[A-Z]+", token) and len(set(token)) == len(token):
            found.extend("MASTER" if letter in api.MASTER_WORDS else letter for letter in token)
        else:
            raise ValueError(_("'{token}' is not a power, a run of power initials, ALL or MASTER", token=token[:40]))
    return tuple(dict.fromkeys(found))


def parse_lines(lines: Sequence[str]) -> list[Line]:
    """A mail's lines read as a Payola game reads them: the host's commands
    (`judge.commands.parse.parse_lines`), the other lines as Payola's, and press to powers."""
    read_lines = []
    for line in api.parse_lines(lines):
        command = line.command
        if isinstance(command, GameLine):
            command = read(command.text)
        elif isinstance(command, Press) and not command.to:
            try:
                command = replace(command, to=press_recipients(command.words))
            except ValueError as exc:
                command = BadCommand(str(exc))
        read_lines.append(Line(line.text, command))
    return read_lines
