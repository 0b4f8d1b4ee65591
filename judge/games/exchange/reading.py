"""Reading an investor's mail into the core's sheet values (section 2 of the Exchange rulings).

Theory of operation.  The lines an investor sends in one mail that belong to their sheet are
read together when their lines end (`judge.games.exchange.sheets.accept_mail`), in order, by
`read_mail`:

- ``FOR X`` (a corporation's name or initial) opens X's block, which ``END``, the next
  ``FOR`` or the end of the mail closes (2.1); the lines before any ``FOR`` are the investor's
  own.
- Each line of the Exchange language (``BID``, ``SELL``, ``BUY``, ``GIVE``, ``APPROVE``,
  ``ELECT``, ``PRIORITY``, ``PASS``, ``DIVIDEND``, ``ISSUE``, ``WORTH``) is read into the core's
  value (`judge.games.exchange.core.sheet`), ``ME`` naming the author and every name of an
  investor in capitals (names are compared without case, E1); what it means in the phase and
  the game (who may write it, where, when, with which numbers) is the core's `check` to say.
- An offer line (``4 : A LON - YOR``, ``10 $``) is kept as written, for Payola's reader of the
  part it is in; an order (``BUILD A PAR``, ``A MUN - BOH``) for the engine's; ``ACCEPT`` for
  Payola's reader of acceptance lists.
- ``TRANSFER`` and ``LEDGER`` act when they come (E5, E24): they are not lines of the sheet,
  and a bad one does not refuse it (``TRANSFER`` in a block does: a corporation never
  transfers, E5).

A line that cannot be read is answered with what was expected.  Nothing here looks at the
game's state: `Read` values are what the mail says.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from judge.engine.map import GameMap, MapError
from judge.engine.notation import NotationError, power_name
from judge.games.exchange.core.sheet import (
    ALL,
    ME,
    Approve,
    Bid,
    BuyFrom,
    Dividend,
    Elect,
    Give,
    Issue,
    Line,
    Pass,
    Priority,
    Quantity,
    Sell,
    SellTo,
    Worth,
    all_but,
    exactly,
)
from judge.language import gettext as _

EXCHANGE_WORDS = frozenset({"PRIORITY", "BID", "SELL", "BUY", "GIVE", "APPROVE", "ELECT", "PASS", "DIVIDEND", "ISSUE",
                            "WORTH"})
"""The first words of the Exchange language's sheet lines (2.2)."""
SHEET_WORDS = EXCHANGE_WORDS | {"FOR", "END", "ACCEPT", "TRANSFER", "LEDGER"}
"""Every first word this reader takes, beside offers and orders."""
_NUMBER = re.compile(r"[-+]?\d{1,9}")
_SIGNED_AMOUNT = re.compile(r"[-\u2013\u2014\u2212]\s*\d|\.\d")
_ORDER_WORDS = frozenset({"A", "F", "ARMY", "FLEET", "B", "BUILD", "BUILDS", "R", "REMOVE", "REMOVES", "D", "DISBAND",
                          "DISBANDS", "WAIVE", "WAIVES", "RETREAT", "RETREATS"})


@dataclass(frozen=True)
class OfferText:
    """An offer or savings line, as written, for Payola's reader (rules 3, 3.4)."""

    text: str


@dataclass(frozen=True)
class OrderText:
    """A retreat or adjustment order, as written, for the engine's reader (rule 1.2 item 5)."""

    text: str


@dataclass(frozen=True)
class AcceptText:
    """``ACCEPT ...``: the block's corporation's acceptance list (rule 4.3), as written."""

    text: str


@dataclass(frozen=True)
class TransferTo:
    """``TRANSFER a TO name`` or ``TO X``: money to an investor, or a donation (E5); acts when it comes."""

    amount: int
    receiver: str


@dataclass(frozen=True)
class LedgerAsk:
    """``LEDGER X`` (``LEDGER`` alone in X's block): the CEO asks for X's records (E24); answered at once."""

    corporation: str


Value = Line | OfferText | OrderText | AcceptText | TransferTo | LedgerAsk


@dataclass(frozen=True)
class Read:
    """One line of the mail as read: its echo index and text, the part it is in (None: the
    author's own lines; else the corporation of its block), and its value or why it cannot be
    read.  A ``FOR`` line is a `Read` of its part with no value; a good ``END`` one of the part it
    closes, with ``closes_block`` (it is answered as every line is, and is no line of the sheet)."""

    index: int
    text: str
    part: str | None
    value: Value | None = None
    error: str | None = None
    closes_block: bool = False

    @property
    def opens_block(self) -> bool:
        return self.value is None and self.error is None and self.part is not None and not self.closes_block


@dataclass
class Mail:
    """A mail's sheet lines as read (`read_mail`): every line, and the blocks opened, in order."""

    lines: list[Read] = field(default_factory=list)
    blocks: list[str] = field(default_factory=list)


def routed(text: str) -> bool:
    """Whether a line is this reader's to read: a sheet word, an offer, or something shaped as an
    order (a unit's type or an adjustment's word first: ``BUILD A PAR``, ``A MUN - BOH``)."""
    first = text.split()[0].upper().rstrip(".,:;!")
    return (first in SHEET_WORDS or text[0].isdigit() or bool(_SIGNED_AMOUNT.match(text))
            or first in _ORDER_WORDS)


def read_mail(lines: Sequence[tuple[int, str]], game_map: GameMap, author: str) -> Mail:
    """Read a seat's sheet lines of one mail (echo index, text), ``author`` being its investor."""
    mail = Mail()
    block: str | None = None
    bad_block = False  # a FOR that names no corporation: its lines are read, then refused with it
    for index, text in lines:
        words = text.split()
        key = words[0].upper()
        if key == "FOR":
            try:
                if len(words) != 2:
                    raise ValueError(_("expected FOR and a corporation's name or initial (FOR FRANCE, FOR F)"))
                block, bad_block = _corporation(game_map, words[1]), False
                mail.blocks.append(block)
                mail.lines.append(Read(index, text, block))
            except ValueError as exc:
                block, bad_block = None, True
                mail.lines.append(Read(index, text, None, error=str(exc)))
            continue
        if key == "END":
            if len(words) != 1:
                mail.lines.append(Read(index, text, block, error=_("END takes nothing after it")))
            elif block is None and not bad_block:
                mail.lines.append(Read(index, text, None, error=_("END without a FOR block before it (2.1)")))
            else:
                mail.lines.append(Read(index, text, block, closes_block=True))
            block, bad_block = None, False
            continue
        if bad_block:
            mail.lines.append(Read(index, text, None, error=_("in a FOR block that names no corporation: refused "
                                                                "with it")))
            continue
        try:
            mail.lines.append(Read(index, text, block, _value(words, text, game_map, author, block)))
        except ValueError as exc:
            mail.lines.append(Read(index, text, block, error=str(exc)))
    return mail


def _value(words: list[str], text: str, game_map: GameMap, author: str, block: str | None) -> Value:
    key, args = words[0].upper(), [w.upper() for w in words[1:]]
    if key not in SHEET_WORDS:
        return OfferText(text) if text[0].isdigit() or _SIGNED_AMOUNT.match(text) else OrderText(text)
    if key == "ACCEPT":
        return AcceptText(text)
    if key == "TRANSFER":
        if len(args) != 3 or args[1] != "TO":
            raise ValueError(_("expected TRANSFER amount TO name (an investor, or a corporation: a donation, E5)"))
        receiver = args[2]
        try:
            receiver = _corporation(game_map, receiver)
        except ValueError:
            receiver = _investor(receiver, author)
        return TransferTo(_number(args[0], "amount"), receiver)
    if key == "LEDGER":
        if not args and block is not None:
            return LedgerAsk(block)
        if len(args) != 1:
            raise ValueError(_("expected LEDGER and a corporation's name or initial (LEDGER alone in its FOR block)"))
        return LedgerAsk(_corporation(game_map, args[0]))
    return _exchange(key, args, game_map, author, block)


USAGE = {
    "PRIORITY": "PRIORITY n, PRIORITY ALL or PRIORITY ALL BUT k",
    "BID": "BID n X AT p (in X's block: BID n AT p, a buy-back)",
    "SELL": "SELL n X AT p, or SELL n X TO name FOR a (in X's block: SELL n AT p, from its pool)",
    "BUY": "BUY n X FROM name FOR a",
    "GIVE": "GIVE n X TO name",
    "APPROVE": "APPROVE X m",
    "ELECT": "ELECT X name, ELECT X ME or ELECT X NONE",
    "PASS": "PASS, alone",
    "DIVIDEND": "DIVIDEND k (AgP a share)",
    "ISSUE": "ISSUE n AT p",
    "WORTH": "WORTH and each center with its worth: WORTH PAR 24 MAR 14 BRE 10",
}
"""How each line of the Exchange language is written (2.2), for the answer to one that is not."""


def _exchange(key: str, args: list[str], game_map: GameMap, author: str, block: str | None) -> Line:
    try:
        return _exchange_line(key, args, game_map, author, block)
    except (IndexError, KeyError):
        raise ValueError(_expected(key)) from None


def _expected(key: str) -> str:
    """How a line of ``key`` is written (`USAGE`), as the answer to one that is not says it."""
    said = {
        "PRIORITY": _("expected PRIORITY n, PRIORITY ALL or PRIORITY ALL BUT k"),
        "BID": _("expected BID n X AT p (in X's block: BID n AT p, a buy-back)"),
        "SELL": _("expected SELL n X AT p, or SELL n X TO name FOR a (in X's block: SELL n AT p, from its pool)"),
        "ELECT": _("expected ELECT X name, ELECT X ME or ELECT X NONE"),
        "PASS": _("expected PASS, alone"),
        "DIVIDEND": _("expected DIVIDEND k (AgP a share)"),
        "WORTH": _("expected WORTH and each center with its worth: WORTH PAR 24 MAR 14 BRE 10"),
    }
    return said.get(key) or _("expected {usage}", usage=USAGE[key])


def _exchange_line(key: str, args: list[str], game_map: GameMap, author: str, block: str | None) -> Line:
    """One line of the Exchange language (2.2), read as :data:`USAGE` writes it; KeyError or
    IndexError when its words are not so."""
    if key == "PASS":
        if args:
            raise KeyError(key)
        return Pass()
    if key == "PRIORITY":
        spend, rest = _quantity(args)
        _end(rest)
        return Priority(spend)
    if key == "DIVIDEND":
        _end(args[1:])
        return Dividend(_number(args[0], "dividend"))
    if key == "ISSUE":
        if args[1] != "AT":
            raise KeyError(key)
        _end(args[3:])
        return Issue(_number(args[0], "number of shares"), _number(args[2], "price"))
    if key == "APPROVE":
        _end(args[2:])
        return Approve(_corporation(game_map, args[0]), _number(args[1], "number of shares"))
    if key == "ELECT":
        _end(args[2:])
        candidate = None if args[1] == "NONE" else ME if args[1] == ME else _investor(args[1], author)
        return Elect(_corporation(game_map, args[0]), candidate)
    if key == "WORTH":
        if not args or len(args) % 2:
            raise KeyError(key)
        return Worth(tuple((_center(game_map, c), _number(w, "worth")) for c, w in zip(args[::2], args[1::2],
                                                                                      strict=True)))
    return _share_line(key, args, game_map, author, block)


def _share_line(key: str, args: list[str], game_map: GameMap, author: str, block: str | None) -> Line:
    """A line that moves shares (``BUY``, ``BID``, ``SELL``, ``GIVE``: E8 to E10, E12), read as
    :data:`USAGE` writes it; KeyError or IndexError when its words are not so."""
    if key == "BUY":
        if args[2] != "FROM" or args[4] != "FOR":
            raise KeyError(key)
        _end(args[6:])
        return BuyFrom(_number(args[0], "number of shares"), _corporation(game_map, args[1]),
                       _investor(args[3], author), _number(args[5], "amount"))
    shares, rest = _quantity(args)
    if key in ("BID", "SELL") and block is not None and rest[0] == "AT":  # a block's own: BID n AT p, SELL n AT p
        _end(rest[2:])
        price = _number(rest[1], "price")
        return Bid(shares, block, price) if key == "BID" else Sell(shares, block, price)
    corporation = _corporation(game_map, rest[0])
    if key == "GIVE":
        if rest[1] != "TO":
            raise KeyError(key)
        _end(rest[3:])
        return Give(shares, corporation, _investor(rest[2], author))
    if key == "SELL" and rest[1] == "TO":
        return _paired_sale(shares, corporation, rest, author)
    if rest[1] != "AT":
        raise KeyError(key)
    _end(rest[3:])
    price = _number(rest[2], "price")
    return Bid(shares, corporation, price) if key == "BID" else Sell(shares, corporation, price)


def _paired_sale(shares: Quantity, corporation: str, rest: list[str], author: str) -> SellTo:
    """``SELL n X TO name FOR a`` from its ``TO`` on (E10): a paired trade names a plain number
    of shares, since its two lines must agree exactly."""
    if rest[3] != "FOR":
        raise KeyError("SELL")
    _end(rest[5:])
    if shares.count is None:
        raise ValueError(_("a paired trade names a number of shares, not ALL: its two lines must agree exactly "
                           "(E10)"))
    return SellTo(shares.count, corporation, _investor(rest[2], author), _number(rest[4], "amount"))


def _quantity(args: list[str]) -> tuple[Quantity, list[str]]:
    """E13: ``n``, ``ALL`` or ``ALL BUT k`` at the start of ``args``, and the words after it."""
    if args[0] == "ALL":
        if len(args) > 1 and args[1] == "BUT":
            return all_but(_number(args[2], "number after ALL BUT")), args[3:]
        return ALL, args[1:]
    return exactly(_number(args[0], "number")), args[1:]


def _number(word: str, what: str) -> int:
    if not _NUMBER.fullmatch(word):
        raise ValueError(_not_a_number(word[:20], what))
    return int(word)


def _not_a_number(word: str, what: str) -> str:
    """Why ``word`` is refused where the number ``what`` is written, in words."""
    if what == "amount":
        return _("'{word}' is not a whole number: an amount is written in figures (X.2.1)", word=word)
    if what == "dividend":
        return _("'{word}' is not a whole number: a dividend is written in figures (X.2.1)", word=word)
    if what == "number after ALL BUT":
        return _("'{word}' is not a whole number: the number after ALL BUT is written in figures (X.2.1)", word=word)
    if what == "number of shares":
        return _("'{word}' is not a whole number: a number of shares is written in figures (X.2.1)", word=word)
    if what == "price":
        return _("'{word}' is not a whole number: a price is written in figures (X.2.1)", word=word)
    if what == "worth":
        return _("'{word}' is not a whole number: a worth is written in figures (X.2.1)", word=word)
    return _("'{word}' is not a whole number: a number is written in figures (X.2.1)", word=word)


def _end(rest: list[str]) -> None:
    if rest:
        raise KeyError(rest[0])


def _corporation(game_map: GameMap, word: str) -> str:
    try:
        return power_name(game_map, word)
    except NotationError:
        raise ValueError(_("'{word}' is not a corporation of this board (a power's name or initial)",
                           word=word[:20])) from None


def _investor(word: str, author: str) -> str:
    """An investor named in a line: ``ME`` is the author; names are compared in capitals (E1)."""
    return author if word.upper() == ME else word.upper()


def _center(game_map: GameMap, word: str) -> str:
    try:
        province = game_map.province_id(word)
    except MapError:
        raise ValueError(_("'{word}' is not a province of this board", word=word[:20])) from None
    if province not in game_map.supply_centers:
        raise ValueError(_("{province} is not a supply center (E22)", province=province))
    return province
