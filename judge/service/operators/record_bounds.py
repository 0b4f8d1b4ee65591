"""What a game's record may hold: the bounds of what a judge could have written, checked before
anything of a record is used (``judge import``, ``judge replay``).

Theory of operation.  A record is a file an operator was given, from another judge or from
anyone: it may hold anything.  It is read in bounded memory and time, then checked field by
field against what a judge writes, and refused, in one line naming the field, at the first
thing no judge could have written.

- **Reading** (`parse`): at most `MAX_RECORD_BYTES` bytes, refused by their count before any is
  parsed; UTF-8 only (a judge writes its records in UTF-8: a UTF-16 file, or any bytes that are
  not UTF-8, is refused as such); nested at most `MAX_DEPTH` deep, counted before the JSON
  parser sees it (Python's parser recurses once a level); every number of at most `MAX_DIGITS`
  digits (no count, seed or sum of money a judge keeps needs more; Python's ``int`` refuses
  more than 4,300), found where it stands by the check of the fields; no NaN or Infinity.
- **The fields** (`check`): each field of the schema (``docs/reference/game-record.schema.json``,
  which states the same bounds, a test holding the two together), no field a judge does not
  write, each of its type; strings no longer than the judge's columns keep them; the game's
  name as CREATE allows it; times as the judge writes them (ISO 8601 with a Z, between the years
  `FIRST_YEAR` and `LAST_YEAR`); the addresses it writes to, addresses it could write to; a
  received mail no larger than this judge takes one (``max_size``), a mail it sent no larger
  than its replies (``max_reply_bytes``), no more observers than a game of this judge has
  (``max_observers``).  The kind's own JSON (a phase's position and result, what a submission
  was read as, the game's settings, the kind's records) is the kind's to check (`Records.check_phase`
  and its `Records.restore`), within the bounds of the whole.
- **What holds the record together**: a kind this judge hosts; each phase once, the game in
  its last; each deadline run after no more mail than the record has.

The seats are checked once written, by the kind (`judge.service.operators.importing`): a record cannot
say which seats a game of its kind has before the game exists.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import date, datetime
from functools import lru_cache
from itertools import accumulate
from typing import Any

from judge.mail.inbound import usable_address
from judge.service.config import Settings
from judge.service.hosting.archive import FORMAT, SCHEMA_VERSION, SETTLED, RecordError
from judge.service.hosting.kinds import Kinds

MAX_RECORD_BYTES = 128 * 1024 * 1024
"""The largest record a judge reads: twice the record of the longest game the benches play
(`bench/record_bench.py`'s 2,001 phases: 63 MB as ``judge export`` writes it).  A record of many
phases is read in about four times its size of memory and imported in about seven
(`bench/record_size_bench.py`: those 63 MB read in 294 MB and imported in 477 MB, 60 MB of which
are the judge's own code), so that the largest is imported in about a gigabyte."""
MAX_DEPTH = 32
"""How deep a record is nested at most: a judge's records are nested ten deep at most."""
MAX_DIGITS = 18
"""Digits of a whole number at most (a game's seed has 10; a signed 64-bit integer, 19)."""
FIRST_YEAR, LAST_YEAR = 1970, 2999
"""The years a record's times may fall in: a judge writes none before 1970, and none so late
that a deadline's arithmetic would overflow."""
NAME = re.compile(r"[a-z][a-z0-9_-]{0,19}")
"""A game's name as CREATE makes it (`judge.commands.parse.GAME_NAME`, lower-cased)."""
TIME = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z")
DAY = re.compile(r"\d{4}-\d{2}-\d{2}")
PHASE = r"[A-Za-z0-9]{1,10}"
WORD = r"[a-z][a-z0-9_]{0,15}"


class Huge:
    """A number of the record too long to be one a judge wrote: kept as found while the record
    is parsed, so that the check of the fields names where it stands."""

    def __init__(self, text: str) -> None:
        self.digits = len(text.lstrip("-"))


def parse(data: bytes) -> Any:
    """The JSON value of a record's bytes, read within the bounds (see the module's header);
    `RecordError` saying what is wrong."""
    return loads(decoded(data))


def decoded(data: bytes) -> str:
    """A record's bytes as text: no more of them than a judge reads, and UTF-8.  (Its caller drops
    the bytes once it has the text: `judge.service.operators.importing.read` holds both only meanwhile.)"""
    if len(data) > MAX_RECORD_BYTES:
        raise RecordError(f"the record is {len(data):,} bytes; a judge reads records of at most "
                          f"{MAX_RECORD_BYTES:,} bytes")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RecordError(f"the record is not UTF-8 text (byte {exc.start:,} is not UTF-8): a judge writes and reads "
                          "its records in UTF-8") from None


def loads(text: str) -> Any:
    """The JSON value of a record's text, its depth counted before it is parsed and its numbers
    bounded as they are."""
    deepest = depth(text)
    if deepest > MAX_DEPTH:
        raise RecordError(f"the record is nested {deepest:,} deep; a judge's record is nested at most {MAX_DEPTH} deep")
    try:
        return json.loads(text, parse_constant=_constant)
    except json.JSONDecodeError as exc:
        raise RecordError(f"the record is not JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}") from None
    except ValueError:  # a number longer than Python's int reads (4,300 digits): read again, each kept as found
        return json.loads(text, parse_int=_integer, parse_constant=_constant)


_NOT_BRACKET = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[^\[\]{}"]+')
"""A string, or what is neither a bracket nor a string: what the count of depth leaves out."""
_DEPTH = str.maketrans({"[": "(", "{": "(", "]": ")", "}": ")"})


def depth(text: str) -> int:
    """How deep the JSON ``text`` is nested, counted on its brackets outside its strings, in one pass
    without parsing it (a string's quotes are JSON's only way to hold a bracket that is not one)."""
    brackets = _NOT_BRACKET.sub("", text).translate(_DEPTH)
    return max(accumulate(1 if bracket == "(" else -1 for bracket in brackets), default=0)


def _integer(text: str) -> int | Huge:
    return Huge(text) if len(text.lstrip("-")) > MAX_DIGITS else int(text)


def _constant(text: str) -> Any:
    raise RecordError(f"the record holds {text}, which is not a number a judge writes (nor JSON)")


def _wrong(path: str, what: str) -> RecordError:
    return RecordError(f"the record's {path or 'top level'} {what}")


@dataclass(frozen=True)
class Limits:
    """The bounds of this judge's settings that a record is held to."""

    mail_bytes: int
    sent_bytes: int
    observers: int

    @staticmethod
    def of(settings: Settings) -> Limits:
        return Limits(settings.max_size, settings.max_reply_bytes, settings.max_observers)


Check = Callable[[Any, str, Limits], None]


@dataclass(frozen=True)
class Field:
    """One field of the record: how it is checked, and the JSON Schema keywords of its bounds
    (``keywords``: what the published schema states, a test holding the two together)."""

    check: Check
    keywords: dict[str, Any] = field(default_factory=dict)
    fields: Mapping[str, Field] | None = None  # an object's
    items: Field | None = None  # a list's


def _typed(value: Any, path: str, wanted: type | tuple[type, ...], words: str) -> None:
    if isinstance(value, Huge) or _too_long(value):
        raise _wrong(path, f"is a number of {_digits(value):,} digits; a judge writes none of more than {MAX_DIGITS}")
    if not isinstance(value, wanted) or (isinstance(value, bool) and bool not in (
            wanted if isinstance(wanted, tuple) else (wanted,))):
        raise _wrong(path, f"is not {words}")


def text(most: int, pattern: str | None = None, means: str = "", null: bool = False,
         limit: Callable[[Limits], int] | None = None, raw: bool = False) -> Field:
    """A string of at most ``most`` characters (or of the judge's ``limit``), matching
    ``pattern`` (which ``means`` says in words), or null if ``null``; text a database keeps (no
    NUL, no lone surrogate), unless it is a mail's ``raw`` bytes as text."""
    compiled = re.compile(pattern) if pattern else None

    def check(value: Any, path: str, limits: Limits) -> None:
        if value is None and null:
            return
        _typed(value, path, str, "a string" + (" or null" if null else ""))
        longest = limit(limits) if limit else most
        if len(value) > longest:
            raise _wrong(path, f"is {len(value):,} characters long; a judge writes at most {longest:,} there")
        _kept(value, path, raw)
        if compiled is not None and not compiled.fullmatch(value):
            raise _wrong(path, f"is not {means}: {_shown(value)}")

    return Field(check, {"maxLength": most} | ({"pattern": f"^{pattern}$"} if pattern else {}))


def address(null: bool = False) -> Field:
    """An address the judge writes to: one it could send mail to, as it keeps it."""
    def check(value: Any, path: str, limits: Limits) -> None:
        if value is None and null:
            return
        _typed(value, path, str, "an address" + (" or null" if null else ""))
        if len(value) > 320 or not _usable(value):
            raise _wrong(path, f"is not an address the judge could write to: {_shown(value)}")

    return Field(check, {"maxLength": 320})


@lru_cache(maxsize=1024)
def _usable(address: str) -> bool:
    """Whether the judge could write to ``address`` as it stands (a game's few addresses recur in
    every mail it sent: each is parsed once)."""
    return usable_address(address) == address


def integer(low: int, high: int | None = None) -> Field:
    def check(value: Any, path: str, limits: Limits) -> None:
        _typed(value, path, int, "a whole number")
        if value < low or (high is not None and value > high):
            raise _wrong(path, f"is {value}, not a number from {low}" + (f" to {high}" if high is not None else " up"))

    return Field(check, {"minimum": low} | ({"maximum": high} if high is not None else {}))


def boolean() -> Field:
    def check(value: Any, path: str, limits: Limits) -> None:
        _typed(value, path, bool, "true or false")

    return Field(check)


def choice(*values: str) -> Field:
    def check(value: Any, path: str, limits: Limits) -> None:
        if value not in values or not isinstance(value, str):
            raise _wrong(path, f"is not one of {', '.join(values)}: {_shown(value)}")

    return Field(check)


def time(null: bool = False) -> Field:
    """A moment as the record writes it (`archive.iso`)."""
    def check(value: Any, path: str, limits: Limits) -> None:
        if value is None and null:
            return
        _typed(value, path, str, "a time" + (" or null" if null else ""))
        try:
            moment = datetime.fromisoformat(value.removesuffix("Z")) if TIME.fullmatch(value) else None
        except ValueError:
            moment = None
        if moment is None or not FIRST_YEAR <= moment.year <= LAST_YEAR:
            raise _wrong(path, f"is not a time as a judge writes it (UTC, like 2026-01-05T12:00:00Z, from "
                         f"{FIRST_YEAR} to {LAST_YEAR}): {_shown(value)}")

    return Field(check, {"maxLength": 27, "pattern": f"^{TIME.pattern}$"})


def day() -> Field:
    def check(value: Any, path: str, limits: Limits) -> None:
        _typed(value, path, str, "a date")
        try:
            found = date.fromisoformat(value) if DAY.fullmatch(value) else None
        except ValueError:
            found = None
        if found is None or not FIRST_YEAR <= found.year <= LAST_YEAR:
            raise _wrong(path, f"is not a date as a judge writes it (like 2026-01-05): {_shown(value)}")

    return Field(check, {"maxLength": 10, "pattern": f"^{DAY.pattern}$"})


def kinds_json(null: bool = False) -> Field:
    """A JSON object of the kind's own (or the host's settings), checked by the kind: here only
    that it is an object, and that no number in it is one a judge could not have written."""
    def check(value: Any, path: str, limits: Limits) -> None:
        if value is None and null:
            return
        _typed(value, path, dict, "an object" + (" or null" if null else ""))
        if _all_kept(value):
            return
        for where, leaf in _leaves(value, path):
            if not _wrong_leaf(leaf):
                continue
            if isinstance(leaf, str):
                _kept(leaf, where)
            if isinstance(leaf, float):
                raise _wrong(where, "is not a finite number")
            raise _wrong(where, f"is a number of {_digits(leaf):,} digits; a judge writes none of more than "
                         f"{MAX_DIGITS}")

    return Field(check)


_LONE = re.compile("[\ud800-\udfff]")


def _kept(value: str, path: str, raw: bool = False) -> None:
    """A string a database keeps: no NUL (PostgreSQL keeps none in text) and no lone surrogate
    (which is no text at all, and which an ASCII string cannot hold); a mail's raw bytes may hold NUL."""
    if not raw and "\x00" in value:
        raise _wrong(path, "holds the character U+0000, which no judge keeps in text")
    if not value.isascii() and (found := _LONE.search(value)) is not None:
        raise _wrong(path, f"holds the character U+{ord(found.group()):04X}, which no judge keeps in text")


def _too_long(value: Any) -> bool:
    """Whether ``value`` is a whole number of more than `MAX_DIGITS` digits."""
    return isinstance(value, int) and not isinstance(value, bool) and not -10**MAX_DIGITS < value < 10**MAX_DIGITS


def _digits(value: Any) -> int:
    return value.digits if isinstance(value, Huge) else len(str(abs(value)))


def _wrong_leaf(leaf: Any) -> bool:
    """Whether a leaf of the kind's JSON is one no judge writes (see `kinds_json`)."""
    if isinstance(leaf, str):
        return "\x00" in leaf or (not leaf.isascii() and _LONE.search(leaf) is not None)
    if isinstance(leaf, float):
        return leaf != leaf or leaf in (float("inf"), float("-inf"))
    return isinstance(leaf, Huge) or _too_long(leaf)


def _all_kept(value: Any) -> bool:
    """Whether every leaf and key of a JSON value is one a judge writes (`_wrong_leaf`): one pass
    with no path written down and each type tested inline (a record's kinds' JSON is most of its
    objects); `_leaves` finds where, if not."""
    most = 10**MAX_DIGITS
    waiting = [value]
    while waiting:
        item = waiting.pop()
        kind = type(item)
        if kind is str:
            if "\x00" in item or (not item.isascii() and _LONE.search(item) is not None):
                return False
        elif kind is dict:
            keys = "".join(item)
            if "\x00" in keys or (not keys.isascii() and _LONE.search(keys) is not None):
                return False
            waiting.extend(item.values())
        elif kind is list:
            waiting.extend(item)
        elif kind is int:
            if not -most < item < most:
                return False
        elif kind is float:
            if item != item or item in (float("inf"), float("-inf")):
                return False
        elif kind is Huge:
            return False
    return True


def _leaves(value: Any, path: str) -> Iterator[tuple[str, Any]]:
    """Every number and string in a JSON value (a key too), and where it stands, without recursion."""
    waiting: list[tuple[str, Any]] = [(path, value)]
    while waiting:
        where, item = waiting.pop()
        if isinstance(item, dict):
            for key, inner in item.items():
                yield f"{where}.{key}", key
                waiting.append((f"{where}.{key}", inner))
        elif isinstance(item, list):
            waiting.extend((f"{where}[{at}]", inner) for at, inner in enumerate(item))
        else:
            yield where, item


def listed(item: Field, most: int | None = None, null: bool = False,
           limit: Callable[[Limits], int] | None = None) -> Field:
    """A list of ``item``, of at most ``most`` of them (or the judge's ``limit``)."""
    def check(value: Any, path: str, limits: Limits) -> None:
        if value is None and null:
            return
        _typed(value, path, list, "a list" + (" or null" if null else ""))
        longest = limit(limits) if limit else most
        if longest is not None and len(value) > longest:
            raise _wrong(path, f"has {len(value):,} items; a judge writes at most {longest:,} there")
        for at, each in enumerate(value):
            item.check(each, f"{path}[{at}]", limits)

    return Field(check, {"maxItems": most} if most is not None else {}, items=item)


def shaped(**fields: Field) -> Field:
    """An object with exactly ``fields``."""
    def check(value: Any, path: str, limits: Limits) -> None:
        _typed(value, path, dict, "an object")
        for name in value:
            if name not in fields:
                raise _wrong(f"{path}.{name}".lstrip("."), "is no field of a game's record")
        for name, inner in fields.items():
            where = f"{path}.{name}".lstrip(".")
            if name not in value:
                raise _wrong(where, "is missing")
            inner.check(value[name], where, limits)

    return Field(check, fields=fields)


def constant(value: str) -> Field:
    return choice(value)


def _shown(value: Any) -> str:
    """A value a refusal quotes: at most 40 characters of it, on one line."""
    shown = json.dumps(value, ensure_ascii=True) if not isinstance(value, Huge) else f"{value.digits} digits"
    return shown if len(shown) <= 40 else shown[:37] + "..."


SEAT_NAME = r"[A-Za-z][A-Za-z0-9 _]{0,19}"
SEAT_MEANS = "a seat's name (a letter, then up to 19 letters, digits, spaces or _)"
SEAT = text(20, SEAT_NAME, SEAT_MEANS)
PHASE_NAME = text(10, PHASE, "a phase's name (letters and digits)")
ADDRESS_KEPT = text(320)
"""An address the judge keeps but does not write to (an envelope sender, a player's record)."""
MAIL_TEXT = text(256 * 1024, limit=lambda limits: limits.mail_bytes)
"""What a seat sent: no longer than the mail that carried it."""


def _base64(size: int) -> int:
    """The characters of ``size`` bytes in base64."""
    return 4 * ((size + 2) // 3)


WHOLE = shaped(
    format=constant(FORMAT),
    schema_version=integer(1, SCHEMA_VERSION),
    judge_version=text(40),
    scope=constant("whole"),
    judge=shaped(domain=text(255), mta_hostname=text(255, null=True), mta_authenticates=boolean()),
    game=shaped(
        name=text(20, NAME.pattern, "a game's name as CREATE allows it (a letter, then up to 19 letters, digits, - "
                  "or _, in lower case)"),
        kind=text(16, WORD, "a kind's name (a word in lower case)"),
        variant=text(40, r"[A-Za-z0-9_-]{1,40}", "a board's or variant's name (letters, digits, - or _)"),
        options=listed(text(100), 64),
        state=choice("forming", "active", "paused", "finished"),
        phase=text(10, PHASE, "a phase's name (letters and digits)", null=True),
        deadline=time(null=True),
        winner=text(20, null=True),
        result=text(2000, null=True),
        created_at=time(),
        seed=integer(0, 2**31 - 1),
        master=address(),
        settings=kinds_json(),
    ),
    seats=listed(shaped(seat=text(20, SEAT_NAME, SEAT_MEANS, null=True), requested=text(20, null=True),
                        address=address(null=True),
                        dummy=boolean(), resigned=boolean(), joined_at=time(),
                        preferences=listed(SEAT, 100, null=True), zone=text(64, null=True)), 100),
    observers=listed(address(), 50, limit=lambda limits: limits.observers),
    phases=listed(shaped(
        name=PHASE_NAME, status=choice("open", "processed"), seed=integer(0, 2**31 - 1), opened_at=time(),
        processed_at=time(null=True), position=kinds_json(), result=kinds_json(null=True),
        notices=listed(text(200), 100, null=True),
        submissions=listed(shaped(seat=SEAT, kind=text(16), text=MAIL_TEXT, parsed=kinds_json(), created_at=time(),
                                  accepted_at=time(null=True))))),
    kind=kinds_json(),
    mails=listed(shaped(received_at=time(), processed_at=time(null=True), status=choice(*SETTLED),
                        envelope_from=text(320, null=True),
                        raw=text(_base64(256 * 1024), limit=lambda limits: _base64(limits.mail_bytes), raw=True),
                        encoding=choice("utf-8", "base64"), pruned=boolean())),
    deadline_runs=listed(shaped(at=time(), after=integer(0), what=text(200))),
    confirmed=listed(ADDRESS_KEPT),
    host=shaped(
        grey_press=listed(shaped(phase=text(10, PHASE, "a phase's name (letters and digits)", null=True),
                                 sent_at=time(), author=SEAT, readers=listed(SEAT, 100))),
        absences=listed(shaped(seat=SEAT, start=day(), end=day(), status=choice("pending", "approved", "denied"),
                               created_at=time())),
        signons=listed(shaped(who=SEAT, source=text(400), network=text(50, null=True), at=time())),
        player_records=listed(shaped(address=ADDRESS_KEPT, seat=SEAT, phase=text(10, PHASE, "a phase's name "
                                                                                  "(letters and digits)", null=True),
                                     what=choice("on_time", "late", "missed", "abandoned", "finished"), at=time()))),
    sent=listed(shaped(to=address(), subject=text(300), kind=text(20), at=time(),
                       body=text(5 * 1024 * 1024, null=True, limit=lambda limits: limits.sent_bytes))),
)
"""The whole record, field by field, as `judge.service.hosting.archive.whole_record` writes it."""


def check(record: Any, settings: Settings, kinds: Kinds) -> dict[str, Any]:
    """``record`` if a judge of ``settings`` hosting ``kinds`` could have written it (see the
    module's header), else `RecordError` naming the first field that no judge could have."""
    if not isinstance(record, dict) or record.get("format") != FORMAT:
        raise RecordError("this is not a game record of the judge (its \"format\" is not judge-game-record)")
    version = record.get("schema_version")
    if isinstance(version, int) and not isinstance(version, bool) and version > SCHEMA_VERSION:
        raise RecordError(f"the record's format is version {version}; this judge reads version {SCHEMA_VERSION} "
                          "and older: upgrade the judge")
    if record.get("scope") == "public":
        raise RecordError("this is a public record: only a whole record (judge export, without --public) can be "
                          "replayed or imported")
    limits = Limits.of(settings)
    WHOLE.check(record, "", limits)
    game = record["game"]
    try:
        kinds.named(game["kind"])
    except KeyError:
        raise _wrong("game.kind", f"is {game['kind']}: this judge hosts no game of that kind") from None
    names = [phase["name"] for phase in record["phases"]]
    for at, name in enumerate(names):
        if name in names[:at]:
            raise _wrong(f"phases[{at}].name", f"is {name}, a phase the record has already")
    if (game["phase"] is None) != (not names) or (names and game["phase"] != names[-1]):
        raise _wrong("game.phase", f"is {game['phase']}, not the record's last phase "
                     f"({names[-1] if names else 'it has none'})")
    for at, mail in enumerate(record["mails"]):
        _raw_checked(mail, f"mails[{at}]", limits)
    runs = record["deadline_runs"]
    for at, run in enumerate(runs):
        if run["after"] > len(record["mails"]):
            raise _wrong(f"deadline_runs[{at}].after", f"is {run['after']}, more than the record's "
                         f"{len(record['mails'])} mails")
        if at and run["after"] < runs[at - 1]["after"]:
            raise _wrong(f"deadline_runs[{at}].after", "is less than the run's before it: runs are in their order")
    return record


def _raw_checked(mail: dict[str, Any], path: str, limits: Limits) -> None:
    """A received mail's bytes: base64 that reads as such, no more of them than this judge takes."""
    if mail["encoding"] == "base64":
        try:
            size = len(base64.b64decode(mail["raw"], validate=True))
        except (binascii.Error, ValueError):
            raise _wrong(f"{path}.raw", "is not base64, as its encoding says") from None
    else:
        size = len(mail["raw"].encode("utf-8", "surrogatepass"))
    if size > limits.mail_bytes:
        raise _wrong(f"{path}.raw", f"is a mail of {size:,} bytes; this judge takes mails of at most "
                     f"{limits.mail_bytes:,} (max_size)")
