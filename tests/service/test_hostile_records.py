"""Hostile game records (`judge.service.operators.record_bounds`, `judge.service.operators.importing`): a
record no judge could have written, in every kind, is refused by ``judge import`` and ``judge replay`` in one line
naming the field, and leaves nothing behind; a record is read within bounds of size, encoding, depth
and digits."""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from judge import bootstrap
from judge.service.config import Settings
from judge.service.hosting.archive import RecordError
from judge.service.operators import importing, record_bounds, replay
from judge.service.operators.record_bounds import MAX_DEPTH, Field
from tests.service.every_kind import EXCHANGE, MACHIAVELLI, PAYOLA, PIRATES, Kind
from tests.service.test_game_records import RECORDED, SCHEMA, _nothing_of, played, record_of
from tests.support.cli import options
from tests.support.harness import Judge, open_kinds_database

HUGE, DEEP, NAN = '"__huge__"', '"__deep__"', '"__nan__"'
"""Placeholders a tampered record's JSON text replaces with what no JSON value of Python can hold:
a number of 5,000 digits, 10,000 nested lists, NaN (and ``"__infinite__"``, 1e999)."""
Tamper = Callable[[dict[str, Any]], None]


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Any]]:
    """The whole record of a game of each kind, its first phase played and a line sent in its second."""
    return {kind.game: record_of(played(Judge(tmp_path_factory.mktemp(kind.game)), kind, finished=False), kind.game)
            for kind in RECORDED}


def text_of(record: dict[str, Any]) -> bytes:
    """The record as a file holds it, the placeholders made what they stand for."""
    written = json.dumps(record)
    return (written.replace(HUGE, "9" * 5000).replace(DEEP, "[" * 10_000 + "]" * 10_000).replace(NAN, "NaN")
            .replace('"__infinite__"', "1e999").encode())


def read(data: bytes) -> dict[str, Any]:
    """The record in ``data`` as ``judge import`` and ``judge replay`` read and check it."""
    return record_bounds.check(record_bounds.parse(data), Settings(), bootstrap.kinds())


def first_submission(record: dict[str, Any]) -> tuple[int, int]:
    """Where the record's first submission stands: its phase's index and its own."""
    return next((at, 0) for at, phase in enumerate(record["phases"]) if phase["submissions"])


def _huge_seed(record: dict[str, Any]) -> None:
    record["game"]["seed"] = "__huge__"


def _huge_in_a_position(record: dict[str, Any]) -> None:
    record["phases"][0]["position"]["extra"] = {"ducats": "__huge__"}


def _long_number_in_a_result(record: dict[str, Any]) -> None:
    record["phases"][0]["result"]["extra"] = 10**24


def _infinite_in_the_settings(record: dict[str, Any]) -> None:
    record["game"]["settings"]["grace"] = "__infinite__"


def _nested_deep(record: dict[str, Any]) -> None:
    record["game"]["settings"]["deep"] = "__deep__"


def _nan(record: dict[str, Any]) -> None:
    record["game"]["settings"]["grace"] = "__nan__"


def _name_with_a_slash(record: dict[str, Any]) -> None:
    record["game"]["name"] = "../web"


def _name_in_capitals(record: dict[str, Any]) -> None:
    record["game"]["name"] = record["game"]["name"].upper()


def _seat_named_as_a_path(record: dict[str, Any]) -> None:
    record["seats"][0]["seat"] = "../index"


def _submission_too_long(record: dict[str, Any]) -> None:
    phase, at = first_submission(record)
    record["phases"][phase]["submissions"][at]["text"] = "x" * (256 * 1024 + 1)


def _mail_too_large(record: dict[str, Any]) -> None:
    record["mails"][0]["raw"] += "x" * (256 * 1024)


def _nul_in_a_submission(record: dict[str, Any]) -> None:
    phase, at = first_submission(record)
    record["phases"][phase]["submissions"][at]["text"] += "\x00"


def _year_one(record: dict[str, Any]) -> None:
    record["game"]["created_at"] = "0001-01-01T00:00:00Z"


def _field_no_judge_writes(record: dict[str, Any]) -> None:
    record["game"]["owner"] = "mallory"


def _field_missing(record: dict[str, Any]) -> None:
    del record["host"]["signons"]


def _observers_beyond_the_most(record: dict[str, Any]) -> None:
    record["observers"] = [f"watcher{number}@example.org" for number in range(51)]


def _observer_no_address(record: dict[str, Any]) -> None:
    record["observers"] = ["olga@example.org\nBcc: everyone@example.org"]


def _phase_twice(record: dict[str, Any]) -> None:
    record["phases"].append(copy.deepcopy(record["phases"][0]))


def _game_in_no_phase_of_its_own(record: dict[str, Any]) -> None:
    record["game"]["phase"] = "X1999M"


def _base64_that_is_none(record: dict[str, Any]) -> None:
    record["mails"][0]["encoding"] = "base64"
    record["mails"][0]["raw"] = "not base64!"


def _kind_called_chess(record: dict[str, Any]) -> None:
    record["game"]["kind"] = "chess"


def _run_before_the_one_before(record: dict[str, Any]) -> None:
    record["deadline_runs"] = [{"at": record["game"]["created_at"], "after": 2, "what": "run"},
                               {"at": record["game"]["created_at"], "after": 1, "what": "run"}]


FIELDS: list[tuple[Tamper, str]] = [
    (_huge_seed, "the record's game.seed is a number of 5,000 digits; a judge writes none of more than 18"),
    (_huge_in_a_position, "the record's phases[0].position.extra.ducats is a number of 5,000 digits"),
    (_long_number_in_a_result, "the record's phases[0].result.extra is a number of 25 digits"),
    (_infinite_in_the_settings, "the record's game.settings.grace is not a finite number"),
    (_nested_deep, f"deep; a judge's record is nested at most {MAX_DEPTH} deep"),
    (_nan, "the record holds NaN, which is not a number a judge writes"),
    (_name_with_a_slash, "the record's game.name is not a game's name as CREATE allows it"),
    (_name_in_capitals, "the record's game.name is not a game's name as CREATE allows it"),
    (_seat_named_as_a_path, "the record's seats[0].seat is not a seat's name (a letter, then up to 19 letters"),
    (_submission_too_long, "characters long; a judge writes at most 262,144 there"),
    (_mail_too_large, "the record's mails[0].raw is a mail of"),
    (_nul_in_a_submission, "holds the character U+0000, which no judge keeps in text"),
    (_year_one, "the record's game.created_at is not a time as a judge writes it"),
    (_field_no_judge_writes, "the record's game.owner is no field of a game's record"),
    (_field_missing, "the record's host.signons is missing"),
    (_observers_beyond_the_most, "the record's observers has 51 items; a judge writes at most 50 there"),
    (_observer_no_address, "the record's observers[0] is not an address the judge could write to"),
    (_phase_twice, "a phase the record has already"),
    (_game_in_no_phase_of_its_own, "the record's game.phase is X1999M, not the record's last phase"),
    (_base64_that_is_none, "the record's mails[0].raw is not base64, as its encoding says"),
    (_kind_called_chess, "the record's game.kind is chess: this judge hosts no game of that kind"),
    (_run_before_the_one_before, "the record's deadline_runs[1].after is less than the run's before it"),
]
KINDS_OF_RECORD = pytest.mark.parametrize("kind", RECORDED, ids=lambda kind: kind.game)


def named(value: Any) -> str | None:
    return getattr(value, "__name__", "")[1:] or None


@KINDS_OF_RECORD
@pytest.mark.parametrize("tamper, reason", FIELDS, ids=[named(tamper) for tamper, _ in FIELDS])
def test_a_record_no_judge_could_have_written_is_refused_naming_the_field(
        records: dict[str, dict[str, Any]], kind: Kind, tamper: Tamper, reason: str) -> None:
    """Each field held to what a judge writes, read from the record's bytes as ``judge import``
    and ``judge replay`` read them: one line, naming the field, never Python's words."""
    record = copy.deepcopy(records[kind.game])
    tamper(record)
    with pytest.raises(RecordError, match=re.escape(reason)) as refused:
        read(text_of(record))
    assert "\n" not in str(refused.value) and "Traceback" not in str(refused.value)


@KINDS_OF_RECORD
def test_the_record_of_every_kind_as_written_is_read(records: dict[str, dict[str, Any]], kind: Kind) -> None:
    """What a judge wrote passes every bound: the bounds refuse nothing of it."""
    assert read(text_of(records[kind.game])) == records[kind.game]


@pytest.mark.parametrize("encoding", ["utf-16", "utf-32", "latin-1"])
def test_a_record_not_in_utf8_is_refused_as_such(records: dict[str, dict[str, Any]], encoding: str) -> None:
    """A judge writes its records in UTF-8; the same record in UTF-16 (what an editor may save),
    or in Latin-1 with a name in it that UTF-8 writes otherwise, is refused, saying so."""
    record = copy.deepcopy(records[PAYOLA.game])
    record["seats"][0]["zone"] = "Europe/Zürich"
    with pytest.raises(RecordError, match="the record is not UTF-8 text"):
        read(json.dumps(record, ensure_ascii=False).encode(encoding))


def test_a_record_larger_than_a_judge_reads_is_refused_before_it_is_parsed(
        records: dict[str, dict[str, Any]], monkeypatch: pytest.MonkeyPatch) -> None:
    """Its size is counted before anything of it is read as JSON: the same record, with the bound
    set one byte below its size, is refused by its size (so is a file of no JSON at all)."""
    data = text_of(records[PAYOLA.game])
    monkeypatch.setattr(record_bounds, "MAX_RECORD_BYTES", len(data) - 1)
    with pytest.raises(RecordError, match=f"the record is {len(data):,} bytes"):
        read(data)
    with pytest.raises(RecordError, match="a judge reads records of at most"):
        record_bounds.parse(b"{" * len(data))


def test_depth_is_counted_on_the_brackets_outside_strings() -> None:
    """``[[]]`` is 2 deep, ``{"a": [1]}`` 2, and a string holding brackets (``"[[["``) none."""
    assert record_bounds.depth("[[]]") == 2
    assert record_bounds.depth('{"a": [1]}') == 2
    assert record_bounds.depth('{"a": "[[[\\"{{"}') == 1
    assert record_bounds.depth('"]]]"') == 0


def _made_up_seats(record: dict[str, Any]) -> None:
    seat = record["seats"][0]
    record["seats"] += [seat | {"seat": f"SEAT{number}", "requested": f"SEAT{number}",
                                "address": f"stranger{number}@example.org"} for number in range(40)]


def _seat_renamed(record: dict[str, Any]) -> None:
    record["seats"][0]["seat"] = "ATLANTIS"


def _army_at_sea(record: dict[str, Any]) -> None:
    """An army in a sea of the board (Pirates' Proposal, which has none: a stranger in a room)."""
    kind, phase = record["game"]["kind"], record["phases"][-1]
    if kind == "payola":
        phase["position"]["units"]["FRANCE"].append("A NTH")
    elif kind == "exchange":
        phase["position"]["position"]["units"]["FRANCE"].append("A NTH")
    elif kind == "machiavelli":
        phase["position"]["units"].append(["Florence", "A", "ion"])
    else:
        phase["position"]["rooms"][0].append("Zed")


def _options_create_refuses(record: dict[str, Any]) -> None:
    record["game"]["options"] = [*record["game"]["options"], "INVESTORS=1" if record["game"]["kind"] == "exchange"
                                 else "PLAYERS=40" if record["game"]["kind"] == "pirates" else "NO_SUCH_OPTION"]


SEATS_AND_BOARDS: list[tuple[Tamper, dict[str, str]]] = [
    (_made_up_seats, {kind.game: "seats; a game of" for kind in RECORDED}),
    (_seat_renamed, {PAYOLA.game: "the record's seats[0].seat is ATLANTIS, no power of this game",
                     MACHIAVELLI.game: "the record's seats[0].seat is ATLANTIS, no country of this game",
                     "m2": "the record's seats[0].seat is ATLANTIS, no country of this game",
                     EXCHANGE.game: "the record's phases[0].position: its investors are ANN, BOB, CAT, not",
                     PIRATES.game: "the record's phases[0].position: its players are Ann, Bob, Cy, Dee, not"}),
    (_army_at_sea, {PAYOLA.game: "the record's phases[2].position: bad unit 'A NTH': an army cannot stand in NTH",
                    EXCHANGE.game: "the record's phases[2].position: bad unit 'A NTH': an army cannot stand in NTH",
                    MACHIAVELLI.game: "the record's phases[1].position: no army can stand in ion",
                    "m2": "the record's phases[1].position: no army can stand in ion",
                    PIRATES.game: "the record's phases[1].position: the rooms drawn at the start hold someone"}),
    (_options_create_refuses, {kind.game: "the record's game.variant and game.options are not what CREATE makes"
                               for kind in RECORDED}),
]


@KINDS_OF_RECORD
@pytest.mark.parametrize("tamper, reasons", SEATS_AND_BOARDS, ids=[named(tamper) for tamper, _ in SEATS_AND_BOARDS])
def test_a_record_whose_seats_or_boards_its_kind_refuses_is_not_imported_and_leaves_nothing(
        records: dict[str, dict[str, Any]], tmp_path: Path, kind: Kind, tamper: Tamper,
        reasons: dict[str, str]) -> None:
    """Checked by the kind through its contract once the rows are written, and all of it undone:
    40 made-up seats (more than the game takes: 40 strangers would have been mailed), a seat
    renamed to one the game lacks, an army in a sea (every mail to the game would have been
    quarantined), options CREATE refuses."""
    record = copy.deepcopy(records[kind.game])
    tamper(record)
    other = Judge(tmp_path, now=datetime_of(record))
    with pytest.raises(RecordError, match=re.escape(reasons[kind.game])):
        importing.import_record(other.db, other.settings, read(text_of(record)), other.now)
    _nothing_of(other)


def datetime_of(record: dict[str, Any]) -> Any:
    from judge.service.hosting.archive import moment

    return moment(record["mails"][-1]["processed_at"])


@KINDS_OF_RECORD
def test_replay_refuses_a_record_of_a_kind_this_judge_does_not_host(
        records: dict[str, dict[str, Any]], tmp_path: Path, kind: Kind) -> None:
    """The game's mail creates a game of its own kind, so a replay compared only its phases would pass
    a record whose kind says chess: the record is refused first, saying so."""
    record = copy.deepcopy(records[kind.game])
    record["game"]["kind"] = "chess"
    judge = Judge(tmp_path)
    refusal = re.escape("the record's game.kind is chess: this judge hosts no game of that kind")
    with pytest.raises(RecordError, match=refusal):
        replay.replay(record, judge.settings, lambda own: open_kinds_database(own, judge.kinds))


@KINDS_OF_RECORD
def test_replay_names_a_seat_changed_in_the_record(records: dict[str, dict[str, Any]], tmp_path: Path,
                                                   kind: Kind) -> None:
    """The first seat given to another address in the record: the replay's seat has the address the
    mail gave it, and the replay says which seat differs and how."""
    record = copy.deepcopy(records[kind.game])
    first = record["seats"][0]
    first["address"] = "zed@example.org"
    judge = Judge(tmp_path)
    differences = replay.replay(record, judge.settings, lambda own: open_kinds_database(own, judge.kinds))
    assert [str(found) for found in differences] == [
        f"seat 1 ({first['seat']}) differs: its address is {kind.seats[0].address} against zed@example.org in the "
        "record"]


@pytest.mark.parametrize("written, said", [
    (lambda record: json.dumps(record).encode("utf-16"), "the record is not UTF-8 text"),
    (lambda record: text_of(record | {"schema_version": "__huge__"}), "the record's schema_version is a number of "
                                                                       "5,000 digits"),
    (lambda record: text_of(record | {"judge": "__deep__"}), "the record is nested 10,001 deep"),
], ids=["utf-16", "digits", "depth"])
def test_the_command_line_says_in_one_line_why_a_record_is_refused(
        records: dict[str, dict[str, Any]], tmp_path: Path, capsys: pytest.CaptureFixture[str],
        written: Callable[[dict[str, Any]], bytes], said: str) -> None:
    """``judge import`` and ``judge replay`` of such a file: exit status 1, one line on standard
    error, no traceback, nothing imported."""
    saved = tmp_path / "g1.json"
    saved.write_bytes(written(records[PAYOLA.game]))
    judge = Judge(tmp_path / "judge")
    for command in (["import"], ["import", "--replay"], ["replay"]):
        assert bootstrap.main([*command, str(saved), *options(judge)]) == 1
        out, err = capsys.readouterr()
        assert out == "" and err.startswith(f"judge: {said}") and err.count("\n") == 1, err
    _nothing_of(judge)


def test_the_bounds_of_the_check_are_the_published_schemas() -> None:
    """Every bound the check holds a field to (its length, pattern, least and most, count of
    items) is stated by the schema at the same place, with the same value."""
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    found: list[str] = []

    def walk(field: Field, node: dict[str, Any], path: str) -> None:
        for keyword, value in field.keywords.items():
            assert node.get(keyword) == value, f"{path}: {keyword} is {node.get(keyword)!r}, the check's {value!r}"
            found.append(f"{path} {keyword}")
        for name, inner in (field.fields or {}).items():
            walk(inner, node["properties"][name], f"{path}.{name}")
        if field.items is not None:
            walk(field.items, node["items"], f"{path}[]")

    walk(record_bounds.WHOLE, schema["$defs"]["whole"], "")
    assert {".game.name pattern", ".game.seed maximum", ".phases[].submissions[].text maxLength",
            ".mails[].raw maxLength", ".observers maxItems", ".seats[].address maxLength"} <= set(found)
