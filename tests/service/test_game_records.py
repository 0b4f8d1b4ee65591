"""A game's record (`judge.service.archive`): exported, played again (`judge.service.replay`) and
imported on another judge, for a game of every kind, running and finished; what it may hold."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from judge.bootstrap import main
from judge.service import archive, replay
from judge.service.archive import RecordError
from judge.service.datadir import data_dir_lock
from judge.service.kinds import kind_of
from judge.service.reference import record_fields
from judge.service.sender import deliver_pending, transport_for
from judge.store.models import Game, Outbox
from judge.web.public import summary
from tests.service.every_kind import KINDS, PAYOLA, Kind
from tests.support.cli import options, run
from tests.support.harness import Judge, open_kinds_database
from tests.support.people import GM

SCHEMA = Path(__file__).parents[2] / "docs" / "reference" / "game-record.schema.json"
PASSWORD = re.compile(r"new password for \S+ is:\n\n +(\S+)")


def played(judge: Judge, kind: Kind, finished: bool) -> Judge:
    """``kind``'s game on ``judge``: its first phase played and closed at its deadline, a line sent
    in the second; ``finished``: then ended by its master's TERMINATE (with the code it answered)."""
    kind.begin(judge)
    for seat, line in enumerate(kind.sent):
        if line:
            kind.send(judge, seat, line)
    judge.later(kind.hours + 1)
    judge.tick()
    kind.send(judge, 0, kind.later)
    if finished:
        judge.later(1)
        judge.terminate(GM, kind.master)
    return judge


def record_of(judge: Judge, game: str, public: bool = False) -> dict[str, Any]:
    with judge.db.transaction() as session:
        record = archive.export(session, judge.settings, game, public=public)
    return json.loads(json.dumps(record))  # as a file gives it back


def replayed(judge: Judge, record: dict[str, Any]) -> list[replay.Difference]:
    return replay.replay(record, judge.settings, lambda own: open_kinds_database(own, judge.kinds))


def imported(record: dict[str, Any], folder: Path, now: Any) -> Judge:
    """A second judge on ``folder`` with ``record`` imported at ``now``."""
    other = Judge(folder, now=now)
    replay.import_record(other.db, other.settings, record, now)
    deliver_pending(other.db, other.settings, transport_for(other.settings), now)
    return other


def validate(record: dict[str, Any]) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    jsonschema.Draft202012Validator(schema).validate(record)


@pytest.mark.parametrize("finished", [False, True], ids=["mid-phase", "finished"])
@pytest.mark.parametrize("kind", KINDS, ids=lambda kind: kind.name)
def test_a_game_of_every_kind_replays_as_recorded_and_its_record_fits_the_schema(
        tmp_path: Path, kind: Kind, finished: bool) -> None:
    judge = played(Judge(tmp_path / "a"), kind, finished)
    record = record_of(judge, kind.game)
    validate(record)
    assert record["game"]["state"] == ("finished" if finished else "active")
    assert [phase["name"] for phase in record["phases"]][:2] == [kind.first, kind.second]
    assert replayed(judge, record) == []


@pytest.mark.parametrize("finished", [False, True], ids=["mid-phase", "finished"])
@pytest.mark.parametrize("kind", KINDS, ids=lambda kind: kind.name)
def test_export_import_export_gives_the_same_record(tmp_path: Path, kind: Kind, finished: bool) -> None:
    judge = played(Judge(tmp_path / "a"), kind, finished)
    record = record_of(judge, kind.game)
    other = imported(record, tmp_path / "b", judge.now)
    assert record_of(other, kind.game) == record


@pytest.mark.parametrize("kind", KINDS, ids=lambda kind: kind.name)
def test_an_imported_running_game_is_played_on_by_mail_and_ends_as_on_the_first_judge(
        tmp_path: Path, kind: Kind) -> None:
    """The same mail after the move, sent to both judges (to the imported game with the new
    passwords the import mailed), gives the same phases and the same end."""
    judge = played(Judge(tmp_path / "a"), kind, finished=False)
    other = imported(record_of(judge, kind.game), tmp_path / "b", judge.now)
    with other.db.transaction() as session:
        assert session.scalars(select(Game.state).where(Game.name == kind.game)).one() == "active"
    passwords = {mail.to: found.group(1) for mail in other.all_mail() if (found := PASSWORD.search(mail.body))}
    assert set(passwords) == {GM, *(seat.address for seat in kind.seats)}
    master = f"SIGNON MASTER@{kind.game} {passwords[GM]}"
    for each, signon in ((judge, kind.master), (other, master)):
        each.later(1)
        each.send(GM, signon + "\nPROCESS")
        each.later(1)
        each.terminate(GM, signon)
    first, second = record_of(judge, kind.game), record_of(other, kind.game)
    assert second["game"]["state"] == first["game"]["state"] == "finished"
    assert second["game"]["result"] == first["game"]["result"]
    assert [(p["name"], p["position"], p["result"]) for p in second["phases"]] == \
        [(p["name"], p["position"], p["result"]) for p in first["phases"]]
    assert second["kind"] == first["kind"]
    assert not any(password in json.dumps(second) for password in passwords.values())  # nor the new ones


def test_replay_names_the_phase_whose_offer_was_changed_in_the_record(tmp_path: Path) -> None:
    """France's one offer of spring 1901 turned from A PAR - BUR into A PAR - PIC in the record's
    mail: the replay's spring differs (the army moves elsewhere), and it says so of S1901M first."""
    judge = played(Judge(tmp_path / "a"), PAYOLA, finished=False)
    record = record_of(judge, "g1")
    tampered = copy.deepcopy(record)
    changed = [mail for mail in tampered["mails"] if "2 : A PAR - BUR" in mail["raw"]]
    assert len(changed) == 1
    changed[0]["raw"] = changed[0]["raw"].replace("2 : A PAR - BUR", "2 : A PAR - PIC")
    differences = replayed(judge, tampered)
    assert differences and differences[0].phase == "S1901M"
    assert replayed(judge, record) == []


@pytest.mark.parametrize("kind", KINDS, ids=lambda kind: kind.name)
def test_the_whole_record_holds_no_password(tmp_path: Path, kind: Kind) -> None:
    """Every seat's and the master's password, as each signed on with it, appears nowhere in it."""
    judge = played(Judge(tmp_path / "a"), kind, finished=True)
    text = json.dumps(record_of(judge, kind.game))
    passwords = {line.rsplit(" ", 1)[1] for line in (kind.master, *(seat.signon for seat in kind.seats))}
    assert all(re.search(rf"(?<![\w-]){re.escape(pw)}(?![\w-])", text) is None for pw in passwords), passwords


@pytest.mark.parametrize("kind", KINDS, ids=lambda kind: kind.name)
def test_the_public_record_holds_nothing_the_end_publication_and_pages_do_not(tmp_path: Path, kind: Kind) -> None:
    """Each of its strings (but its format's own words and its times) is in the end mail the
    master was sent, the head of the game's public page (`public.summary`) or the phases' public
    results (the game's feed); no address at all."""
    judge = played(Judge(tmp_path / "a"), kind, finished=True)
    public = record_of(judge, kind.game, public=True)
    validate(public)
    with judge.db.transaction() as session:
        end = session.scalars(select(Outbox.body).where(Outbox.kind == "end", Outbox.recipient == GM)).one()
        game = session.scalars(select(Game).where(Game.name == kind.game)).one()
        page = "\n".join(archive.strings(summary(kind_of(session, game).facts(session, game, acting=False))))
    assert public["publication"] in end or public["publication"].split("Who played")[0] in end
    shown = end + page + "\n".join(line for phase in public["phases"] for line in phase["results"])
    own = {"format", "schema_version", "judge_version", "scope", "public", "judge-game-record", "game", "seats",
           "phases", "publication", "name", "kind", "variant", "options", "state", "winner", "result", "drawn",
           "started", "ended", "seat", "title", "played_by", "opened_at", "processed_at", "results", "finished",
           kind.name, public["judge_version"]}
    for text in archive.strings(public):
        if text in own or re.fullmatch(r"[\d\-:T.]+Z", text) or text == public["publication"]:
            continue
        assert text in shown, text
    assert "@" not in json.dumps({key: value for key, value in public.items() if key != "publication"})


def test_a_running_game_has_no_public_record_yet(tmp_path: Path) -> None:
    judge = played(Judge(tmp_path / "a"), PAYOLA, finished=False)
    with judge.db.transaction() as session, pytest.raises(RecordError, match="has not ended"):
        archive.export(session, judge.settings, "g1", public=True)


def test_an_import_of_a_game_whose_name_is_taken_is_refused(tmp_path: Path) -> None:
    judge = played(Judge(tmp_path / "a"), PAYOLA, finished=False)
    with pytest.raises(RecordError, match="already has a game called g1"):
        replay.import_record(judge.db, judge.settings, record_of(judge, "g1"), judge.now)


@pytest.mark.parametrize("change, reason", [
    ({"format": "something else"}, "not a game record"),
    ({"schema_version": archive.SCHEMA_VERSION + 1}, "upgrade the judge"),
    ({"scope": "public"}, "only a whole record"),
    ({"mails": "none"}, "\"mails\" is missing or not a list"),
])
def test_a_record_the_judge_cannot_read_is_refused_saying_why(
        tmp_path: Path, change: dict[str, Any], reason: str) -> None:
    judge = played(Judge(tmp_path / "a"), PAYOLA, finished=False)
    with pytest.raises(RecordError, match=re.escape(reason)):
        archive.check(record_of(judge, "g1") | change)


def test_the_command_line_exports_replays_and_imports_a_game(tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    """``judge export g1 -o FILE``, ``judge replay FILE`` (status 0; 1 and the phase for a changed
    offer), ``judge import FILE`` on another data directory (refused while a judge runs there);
    each judge with the command line's settings (its mail server named in none), as a judge and
    its commands share a configuration."""
    judge = played(Judge(tmp_path / "a", mta_hostname=None, mta_authenticates=False), PAYOLA, finished=False)
    saved = tmp_path / "g1.json"
    assert run(capsys, "export", "g1", "-o", str(saved), *options(judge)) == (0, "")
    assert run(capsys, "replay", str(saved), *options(judge)) == (0, "every phase was judged as recorded\n")
    changed = tmp_path / "changed.json"
    changed.write_text(saved.read_text().replace("2 : A PAR - BUR", "2 : A PAR - PIC"))
    status, printed = run(capsys, "replay", str(changed), *options(judge))
    assert status == 1 and printed.startswith("differs: S1901M: ")
    other = Judge(tmp_path / "b")
    status, printed = run(capsys, "import", str(saved), *options(other))
    assert status == 0 and printed.startswith("g1 imported; new passwords mailed to gm@example.org, ")
    assert run(capsys, "export", "g1", *options(other))[1] == saved.read_text()
    assert main(["import", str(saved), *options(other)]) == 1
    assert "already has a game called g1" in capsys.readouterr().err
    third = Judge(tmp_path / "c")
    with data_dir_lock(third.settings.data_dir, alone=False):  # as judge serve holds it
        assert main(["import", str(saved), *options(third)]) == 1
    assert "the judge is running on" in capsys.readouterr().err
    with third.db.transaction() as session:
        assert session.scalars(select(Game)).all() == []


def test_the_worked_example_of_the_docs_fits_the_schema_and_replays_as_recorded(tmp_path: Path) -> None:
    """The whole record the reference page offers is played again as recorded; it and the public
    record the page shows both fit the schema."""
    folder = SCHEMA.parent
    whole = json.loads((folder / "game-record.example.json").read_text(encoding="utf-8"))
    public = json.loads((folder / "game-record.public-example.json").read_text(encoding="utf-8"))
    validate(whole)
    validate(public)
    assert public["game"]["name"] == whole["game"]["name"] and public["game"]["state"] == whole["game"]["state"]
    assert replayed(Judge(tmp_path / "a"), whole) == []


def test_the_reference_gives_every_field_of_the_schema_with_its_description() -> None:
    """`record_fields` walks every object of both records: each field has a description, and the
    nested ones are named by their path (``phases[].submissions[].seat``)."""
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    whole = {field.path: field for field in record_fields(schema, "whole")}
    public = {field.path: field for field in record_fields(schema, "public")}
    assert all(field.text for field in [*whole.values(), *public.values()])
    assert whole["phases[].submissions[].accepted_at"].type == "time or null"
    assert whole["mails[].status"].type == "one of `done`, `duplicate`, `automatic`"
    assert {"game.seed", "kind", "deadline_runs[].after", "sent[].body", "judge.mta_hostname"} <= set(whole)
    assert {"seats[].played_by", "phases[].results", "publication"} <= set(public)
    assert not any("address" in path or path.startswith(("mails", "sent")) for path in public)
