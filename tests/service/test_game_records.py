"""A game's record (`judge.service.hosting.archive`): exported, played again (`judge.service.operators.replay`) and
imported on another judge (`judge.service.operators.importing`: its rows copied, or played again), for a
game of every kind, running and finished; what it may hold."""

from __future__ import annotations

import copy
import json
import os
import re
import stat
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import delete, select

from judge import bootstrap
from judge.bootstrap import main
from judge.games.payola.store import LedgerRow
from judge.service.datadir import data_dir_lock
from judge.service.hosting import archive
from judge.service.hosting.archive import RecordError, moment
from judge.service.hosting.kinds import kind_of
from judge.service.operators import importing, record_bounds, replay
from judge.service.operators.reference import record_fields
from judge.service.outgoing.sender import deliver_pending, transport_for
from judge.store.models import (
    ConfirmedAddress,
    DeadlineRun,
    Game,
    InboundMail,
    Outbox,
    PhaseRow,
    Player,
    PlayerRecord,
    Signon,
    Submission,
)
from judge.web import fame
from judge.web.public import summary
from tests.games.payola.by_mail import FRANCE, GERMANY, MASTER, start
from tests.service.every_kind import KINDS, MACHIAVELLI, PAYOLA, Kind
from tests.support.cli import options, run
from tests.support.harness import Judge, once, open_kinds_database, raw_mail
from tests.support.people import ALICE, BOB, CAROL, GM

SCHEMA = Path(__file__).parents[2] / "docs" / "reference" / "game-record.schema.json"
PASSWORD = re.compile(r"new password for \S+ is:\n\n +(\S+)")
AOP = replace(MACHIAVELLI, game="m2", master="SIGNON MASTER@m2 gm-pw", first="SP1459A", second="SP1459C",
              seats=tuple(replace(seat, signon=seat.signon.replace("@m1", "@m2")) for seat in MACHIAVELLI.seats),
              sent=("raise A are", "raise A mil", "raise F ven"), later="A are - sie",
              build=lambda judge: _aop(judge))
RECORDED = (*KINDS, AOP)
"""Every kind, Machiavelli on its two boards (Absence of Plague's own, of 1459)."""
PATHS = pytest.mark.parametrize("by_replay", [False, True], ids=["copied", "replayed"])


def _aop(judge: Judge) -> None:
    judge.send(GM, "CREATE m2 gm-pw machiavelli aop")
    for seat in AOP.seats:
        judge.send(seat.address, f"JOIN m2 {seat.signon.rsplit(' ', 1)[1]} {seat.name}")
    judge.send(GM, "SIGNON MASTER@m2 gm-pw\nSTART")
    judge.new_mail()


def played(judge: Judge, kind: Kind, finished: bool) -> Judge:
    """``kind``'s game on ``judge``: its first phase played and closed at its deadline, a line sent
    in the second; ``finished``: then ended by its master's TERMINATE (with the code it answered).
    Played once per test process, kind and ending on a pristine judge, and copied after that (`once`)."""
    return once(judge, _play, kind, finished)


def _play(judge: Judge, kind: Kind, finished: bool) -> None:
    kind.first_played(judge)
    kind.send(judge, 0, kind.later)
    if finished:
        judge.later(1)
        judge.terminate(GM, kind.master)


def record_of(judge: Judge, game: str, public: bool = False) -> dict[str, Any]:
    with judge.db.transaction() as session:
        record = archive.export(session, judge.settings, game, public=public)
    return json.loads(json.dumps(record))  # as a file gives it back


def replayed(judge: Judge, record: dict[str, Any]) -> list[replay.Difference]:
    return replay.replay(record, judge.settings, lambda own: open_kinds_database(own, judge.kinds))


def addresses(record: dict[str, Any]) -> list[str]:
    """The addresses a game's record names to write to: its master's, its players', its observers'."""
    return [record["game"]["master"], *(seat["address"] for seat in record["seats"] if seat["address"]),
            *record["observers"]]


def imported(record: dict[str, Any], folder: Path, now: Any, replayed: bool = False) -> Judge:
    """A second judge on ``folder`` with ``record`` imported at ``now``, its players, master and
    observers known to it (each has confirmed it wants its mail: the import mails them passwords)."""
    other = Judge(folder, now=now)
    other.confirmed(*addresses(record))
    importing.import_record(other.db, other.settings, record, now, replay=replayed)
    deliver_pending(other.db, other.settings, transport_for(other.settings), now)
    return other


def validate(record: dict[str, Any]) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    jsonschema.Draft202012Validator(schema).validate(record)


@pytest.mark.parametrize("finished", [False, True], ids=["mid-phase", "finished"])
@pytest.mark.parametrize("kind", RECORDED, ids=lambda kind: kind.game)
def test_a_game_of_every_kind_replays_as_recorded_and_its_record_fits_the_schema(
        tmp_path: Path, kind: Kind, finished: bool) -> None:
    judge = played(Judge(tmp_path / "a"), kind, finished)
    record = record_of(judge, kind.game)
    validate(record)
    assert record["game"]["state"] == ("finished" if finished else "active")
    assert [phase["name"] for phase in record["phases"]][:2] == [kind.first, kind.second]
    assert replayed(judge, record) == []


@pytest.mark.database
@PATHS
@pytest.mark.parametrize("finished", [False, True], ids=["mid-phase", "finished"])
@pytest.mark.parametrize("kind", RECORDED, ids=lambda kind: kind.game)
def test_export_import_export_gives_the_same_record(tmp_path: Path, kind: Kind, finished: bool,
                                                    by_replay: bool) -> None:
    judge = played(Judge(tmp_path / "a"), kind, finished)
    record = record_of(judge, kind.game)
    other = imported(record, tmp_path / "b", judge.now, replayed=by_replay)
    assert record_of(other, kind.game) == record


@PATHS
@pytest.mark.parametrize("kind", RECORDED, ids=lambda kind: kind.game)
def test_an_imported_running_game_is_played_on_by_mail_and_ends_as_on_the_first_judge(
        tmp_path: Path, kind: Kind, by_replay: bool) -> None:
    """The same mail after the move, sent to both judges (to the imported game with the new
    passwords the import mailed), gives the same phases and the same end."""
    judge = played(Judge(tmp_path / "a"), kind, finished=False)
    other = imported(record_of(judge, kind.game), tmp_path / "b", judge.now, replayed=by_replay)
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


@pytest.mark.database
def test_an_imported_payola_game_keeps_its_marks_in_the_ledger(tmp_path: Path) -> None:
    """Payola marks where each phase's money starts and ends in the ledger by row ids, which the
    copy gives anew: after the move the next results tell each power the same changes of its
    balance as on the first judge (rule 2.5: since the phase opened), and a ROLLBACK then takes
    the ledger back to the same rows."""
    judge = played(Judge(tmp_path / "a"), PAYOLA, finished=False)
    other = imported(record_of(judge, "g1"), tmp_path / "b", judge.now)
    master = {judge: PAYOLA.master,
              other: f"SIGNON MASTER@g1 {PASSWORD.findall(other.last_to(GM).body)[-1]}"}
    told = {}
    for each, signon in master.items():
        each.later(1)
        before = len(each.all_mail())
        each.send(GM, signon + "\nPROCESS")
        told[each] = [(mail.to, mail.body) for mail in each.all_mail()[before:] if mail.subject.endswith("results")]
        each.send(GM, signon + "\nROLLBACK")
        assert "rolled back to" in each.last_to(GM).body
    assert told[other] == told[judge] and told[judge]
    first, second = record_of(judge, "g1"), record_of(other, "g1")
    assert second["kind"] == first["kind"] and first["kind"]["ledger"]


@pytest.mark.database
def test_a_copied_game_keeps_who_sent_its_grey_press_and_its_absences(tmp_path: Path) -> None:
    """France's grey press to England and her absence approved, Germany's absence asked beyond
    the allowance: copied, the game ends on the new judge with the same end publication (the grey
    press's author named, M63), and Germany's asked absence is still the master's to decide."""
    judge = start(Judge(tmp_path / "a"), "PRESS=WHITE/GREY ABSENCE_DAYS=3")
    judge.send(ALICE, FRANCE + "PRESS TO ENGLAND GREY\nGermany plans to stab you.\nENDPRESS")
    judge.send(ALICE, FRANCE + "SET ABSENCE 2026-01-06 TO 2026-01-07")
    judge.send(BOB, GERMANY + "SET ABSENCE 2026-02-01 TO 2026-02-10")
    record = record_of(judge, "g1")
    assert [row["author"] for row in record["host"]["grey_press"]] == ["FRANCE"]
    assert [row["status"] for row in record["host"]["absences"]] == ["approved", "pending"]
    other = imported(record, tmp_path / "b", judge.now)
    signon = f"SIGNON MASTER@g1 {PASSWORD.findall(other.last_to(GM).body)[-1]}"
    other.send(GM, signon + "\nDENY ABSENCE GERMANY")
    judge.send(GM, MASTER + "DENY ABSENCE GERMANY")
    assert "absence of Germany denied" in other.last_to(GM).body
    other.terminate(GM, signon)
    judge.terminate(GM, MASTER)
    ends = [[mail.body for mail in each.all_mail() if mail.to == CAROL and mail.subject.endswith("has ended")]
            for each in (judge, other)]
    assert ends[0] == ends[1] and "from France to England" in ends[0][0]


def test_a_mail_of_the_record_sent_again_to_the_judge_it_moved_to_is_a_duplicate(tmp_path: Path) -> None:
    """The copy keeps each received mail's Message-ID and digest: France's offer of spring, sent
    again whole (her password in it) under its Message-ID, is not applied a second time."""
    judge = Judge(tmp_path / "a")
    PAYOLA.begin(judge)
    offer = raw_mail(PAYOLA.seats[0].address, f"{PAYOLA.seats[0].signon}\n{PAYOLA.sent[0]}",
                     message_id="<offer-1@example.org>")
    judge.send_raw(offer)
    other = imported(record_of(judge, "g1"), tmp_path / "b", judge.now)
    other.send_raw(offer)
    with other.db.transaction() as session:
        assert session.scalars(select(InboundMail.status).order_by(InboundMail.id.desc())).first() == "duplicate"


def _nothing_of(judge: Judge) -> None:
    """No row of any game, its mail or its players' consent on ``judge``: an import left nothing."""
    with judge.db.transaction() as session:
        for table in (Game, Player, PhaseRow, Submission, InboundMail, DeadlineRun, Outbox, ConfirmedAddress,
                      Signon, PlayerRecord, LedgerRow):
            assert session.scalars(select(table)).first() is None, table.__tablename__


def _seat_nobody_has(record: dict[str, Any]) -> None:
    record["kind"]["seats"][0]["seat"] = "ATLANTIS"


def _seat_twice(record: dict[str, Any]) -> None:
    record["kind"]["seats"].append(dict(record["kind"]["seats"][0]))


def _phases_swapped(record: dict[str, Any]) -> None:
    record["kind"]["phases"].reverse()


def _run_after_every_mail(record: dict[str, Any]) -> None:
    record["deadline_runs"][0]["after"] = len(record["mails"]) + 1


def _no_such_time(record: dict[str, Any]) -> None:
    record["kind"]["ledger"][0]["at"] = "spring"


@pytest.mark.database
@pytest.mark.parametrize("tamper, reason", [
    (_seat_nobody_has, "the record's kind is not what Payola Diplomacy keeps of a game: KeyError 'ATLANTIS'"),
    (_seat_twice, "the record's kind is not what Payola Diplomacy keeps of a game"),
    (_phases_swapped, "differs from its record at kind.phases[0].phase"),
    (_run_after_every_mail, "the record's deadline_runs[0].after is 14, more than the record's 13 mails"),
    (_no_such_time, "the record's kind is not what Payola Diplomacy keeps of a game: ValueError"),
], ids=lambda value: getattr(value, "__name__", "")[1:] or None)
def test_a_record_that_cannot_be_copied_as_it_says_is_refused_and_leaves_nothing(
        tmp_path: Path, tamper: Any, reason: str) -> None:
    """Its kind's records naming a seat the game lacks, or one seat twice, or its phases out of the
    order the game has them (restored, they export in the game's order: not what the record
    says), a deadline run after more mail than the record has (its 13: the CREATE and its CONFIRM,
    three JOINs and theirs, the START, three sheets of spring and France's line of fall), a time
    that is none: the import says where, and the judge is as it was, not one row written."""
    judge = played(Judge(tmp_path / "a"), PAYOLA, finished=False)
    record = record_of(judge, "g1")
    tamper(record)
    other = Judge(tmp_path / "b", now=judge.now)
    with pytest.raises(RecordError, match=re.escape(reason)):
        importing.import_record(other.db, other.settings, record, judge.now)
    _nothing_of(other)


def test_a_copy_trusts_the_money_of_its_record_and_the_replay_proves_it(tmp_path: Path) -> None:
    """A movement of money changed in the record (France's income of spring 1901 made 99 AgP) holds
    together as a record: copied, the game has it as it says; replayed, the judge's own income
    differs and the import is refused, saying the kind's records differ."""
    judge = played(Judge(tmp_path / "a"), PAYOLA, finished=False)
    record = record_of(judge, "g1")
    income = [row for row in record["kind"]["ledger"] if row["power"] == "FRANCE" and row["kind"] == "income"]
    income[0]["amount"] = 99
    assert record_of(imported(record, tmp_path / "b", judge.now), "g1")["kind"] == record["kind"]
    other = Judge(tmp_path / "c", now=judge.now)
    with pytest.raises(RecordError, match="the kind's own records differ"):
        importing.import_record(other.db, other.settings, record, judge.now, replay=True)


@pytest.mark.database
@PATHS
def test_a_game_open_again_after_a_rollback_is_imported_with_its_marks_and_rollforward_finds_them(
        tmp_path: Path, by_replay: bool) -> None:
    """A ROLLBACK's marks name the last submission before it; the record names it by how many of
    its phase's submissions came up to it (here 3: the three sheets of spring), the import in its
    own ids.  France's sheet sent again after the ROLLBACK on the new judge makes ROLLFORWARD
    refuse there as on the first judge, naming France."""
    judge = played(Judge(tmp_path / "a"), PAYOLA, finished=False)
    judge.send(GM, PAYOLA.master + "\nROLLBACK S1901M")
    record = record_of(judge, "g1")
    assert record["game"]["settings"]["rollback"]["phase"] == "S1901M"
    assert record["game"]["settings"]["rollback"]["submission"] == 3
    other = imported(record, tmp_path / "b", judge.now, replayed=by_replay)
    assert record_of(other, "g1") == record
    master = f"SIGNON MASTER@g1 {PASSWORD.findall(other.last_to(GM).body)[-1]}"
    password = PASSWORD.findall(other.last_to(ALICE).body)[-1]
    for each, france, signon in ((judge, PAYOLA.seats[0].signon, PAYOLA.master), (other, f"SIGNON F@g1 {password}",
                                                                                  master)):
        each.send(ALICE, f"{france}\n2 : A PAR - PIC")
        each.send(GM, signon + "\nROLLFORWARD")
        assert each.outcome_of("ROLLFORWARD") == ("error", "CHANGED_SINCE_ROLLBACK")
        assert "France sent something in this phase" in each.last_to(GM).body


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
    master was sent, the head of the game's public page (`public.summary`), the phases' public
    results (the game's feed) or the hall of fame's lines of the game (its standings and scores);
    no address at all."""
    judge = played(Judge(tmp_path / "a"), kind, finished=True)
    public = record_of(judge, kind.game, public=True)
    validate(public)
    with judge.db.transaction() as session:
        end = session.scalars(select(Outbox.body).where(Outbox.kind == "end", Outbox.recipient == GM)).one()
        game = session.scalars(select(Game).where(Game.name == kind.game)).one()
        facts = kind_of(session, game).facts(session, game, acting=False)
        listed = [line for _, lines in fame.hall(session, [game], [facts], {})["kinds"] for line in lines]
        page = "\n".join([*archive.strings(summary(facts)), *archive.strings(listed)])
    assert public["publication"] in end or public["publication"].split("Who played")[0] in end
    shown = end + page + "\n".join(line for phase in public["phases"] for line in phase["results"])
    own = {"format", "schema_version", "judge_version", "scope", "public", "judge-game-record", "game", "seats",
           "phases", "publication", "name", "kind", "variant", "options", "state", "winner", "result", "drawn",
           "started", "ended", "seat", "title", "played_by", "opened_at", "processed_at", "results", "finished",
           "scores", "dss_shared_by", "solo", "draw", "survivors", "place", "centres", "money", "dss", "sos",
           "c_diplo", kind.name, public["judge_version"]}
    for text in archive.strings(public):
        if text in own or re.fullmatch(r"[\d\-:T.]+Z", text) or text == public["publication"]:
            continue
        assert text in shown, text
    assert "@" not in json.dumps({key: value for key, value in public.items() if key != "publication"})


def test_a_finished_payola_games_public_record_carries_its_scores_and_fits_the_schema(tmp_path: Path) -> None:
    """g1 ended by its master in Fall 1901, Spring's moves taking no centre: Russia holds 4, the six
    others 3 each.  Neither solo nor draw: DSS 100 / 7 = 14.2857 to each survivor; SoS over Σc² =
    16 + 6 * 9 = 70: 1600 / 70 = 22.8571 for Russia, 900 / 70 = 12.8571 for the others; C-Diplo 1 + 4
    + 38 = 43 for Russia, 1 + 3 + (14 + 7) / 6 = 7.5 for the others; each treasury as the end
    publication gives it."""
    judge = played(Judge(tmp_path / "a"), PAYOLA, finished=True)
    public = record_of(judge, "g1", public=True)
    validate(public)
    assert public["schema_version"] == 2 and public["scores"]["dss_shared_by"] == "survivors"
    seats = public["scores"]["seats"]
    assert seats[0] == {"seat": "RUSSIA", "place": 1, "centres": 4, "money": seats[0]["money"], "dss": 14.2857,
                        "sos": 22.8571, "c_diplo": 43.0}
    assert [(s["place"], s["centres"], s["dss"], s["sos"], s["c_diplo"]) for s in seats[1:]] == [
        (2, 3, 14.2857, 12.8571, 7.5)] * 6
    treasuries = dict(re.findall(r"^  (\w+): (\d+ AgP)$", public["publication"], re.MULTILINE))
    assert {s["seat"].title(): s["money"] for s in seats} == treasuries and len(treasuries) == 7


def test_a_version_1_record_is_read_and_its_game_scored_as_one_of_this_judges(tmp_path: Path) -> None:
    """A whole record written by a judge of format version 1 (whose whole record is as version 2's) is
    imported, and its game, once here, has the public record of version 2 with its scores worked out
    from its own phases, the first judge's own; a public record of version 1, without scores, still
    fits the schema."""
    judge = played(Judge(tmp_path / "a"), PAYOLA, finished=True)
    older = record_of(judge, "g1") | {"schema_version": 1}
    validate(older)
    other = imported(older, tmp_path / "b", judge.now)
    again = record_of(other, "g1", public=True)
    validate(again)
    assert again["schema_version"] == 2 and again["scores"] == record_of(judge, "g1", public=True)["scores"]
    assert again["scores"]["seats"][0]["c_diplo"] == 43.0
    first = {key: value for key, value in record_of(judge, "g1", public=True).items() if key != "scores"}
    validate(first | {"schema_version": 1})
    with pytest.raises(pytest.importorskip("jsonschema").ValidationError, match="not valid under any"):
        validate(first)  # version 2 has them


def test_a_running_game_has_no_public_record_yet(tmp_path: Path) -> None:
    judge = played(Judge(tmp_path / "a"), PAYOLA, finished=False)
    with judge.db.transaction() as session, pytest.raises(RecordError, match="has not ended"):
        archive.export(session, judge.settings, "g1", public=True)


def test_an_import_of_a_game_whose_name_is_taken_is_refused(tmp_path: Path) -> None:
    judge = played(Judge(tmp_path / "a"), PAYOLA, finished=False)
    with pytest.raises(RecordError, match="already has a game called g1"):
        importing.import_record(judge.db, judge.settings, record_of(judge, "g1"), judge.now)


@pytest.mark.parametrize("change, reason", [
    ({"format": "something else"}, "not a game record"),
    ({"schema_version": archive.SCHEMA_VERSION + 1}, "upgrade the judge"),
    ({"scope": "public"}, "only a whole record"),
    ({"mails": "none"}, "the record's mails is not a list"),
])
def test_a_record_the_judge_cannot_read_is_refused_saying_why(
        tmp_path: Path, change: dict[str, Any], reason: str) -> None:
    judge = played(Judge(tmp_path / "a"), PAYOLA, finished=False)
    with pytest.raises(RecordError, match=re.escape(reason)):
        record_bounds.check(record_of(judge, "g1") | change, judge.settings, bootstrap.kinds())


def test_the_command_line_exports_replays_and_imports_a_game(tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    """``judge export g1 -o FILE``, ``judge replay FILE`` (status 0; 1 and the phase for a changed
    offer), ``judge import FILE`` on another data directory (refused while a judge runs there), and
    ``judge import --replay FILE`` on a fourth (the changed offer refused, the record imported);
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
    other.confirmed(*addresses(json.loads(saved.read_text())))
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
    fourth = Judge(tmp_path / "d")
    assert main(["import", "--replay", str(changed), *options(fourth)]) == 1
    assert "the replay differs from the record: S1901M: " in capsys.readouterr().err
    fifth = Judge(tmp_path / "e")
    fifth.confirmed(*addresses(json.loads(saved.read_text())))
    status, printed = run(capsys, "import", "--replay", str(saved), *options(fifth))
    assert status == 0 and printed.startswith("g1 imported; new passwords mailed to gm@example.org, ")
    assert run(capsys, "export", "g1", *options(fifth))[1] == saved.read_text()


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
    assert {"seats[].played_by", "phases[].results", "publication", "scores.seats[].c_diplo"} <= set(public)
    assert public["scores.dss_shared_by"].type == "one of `solo`, `draw`, `survivors`, `null`"
    assert not any("address" in path or path.startswith(("mails", "sent")) for path in public)


def test_a_game_begun_before_the_judge_kept_its_deadline_runs_replays_as_recorded(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A game begun under 0.3.0, which kept no runs of a game's deadline (schema 0026), crossed the
    upgrade: SP1454C closed at its deadline before it (its run, and the reminders' the day before,
    never kept), SU1454C's after it (kept).  Its replay closes SP1454C at its recorded closing, as
    for a game that never crossed, then plays the kept runs: every phase as recorded (it said
    "SP1454C: its processed_at differs", SP1454C closing only at the next run kept), and ``judge
    replay`` says how it replayed the older phases."""
    judge = played(Judge(tmp_path / "a"), MACHIAVELLI, finished=False)
    for _ in range(8):
        judge.later(24)
        judge.tick()
    record = record_of(judge, "m1")
    upgraded = moment(record["phases"][1]["processed_at"])
    with judge.db.transaction() as session:  # what a judge of 0.3.0 never wrote
        dropped = session.execute(delete(DeadlineRun).where(DeadlineRun.at <= upgraded)).rowcount
    record = record_of(judge, "m1")
    assert dropped == 2 and len(record["deadline_runs"]) == 3
    assert [phase["status"] for phase in record["phases"]] == ["processed", "processed", "processed", "open"]
    assert replayed(judge, record) == []
    saved = tmp_path / "m1.json"
    saved.write_text(json.dumps(record))
    assert run(capsys, "replay", str(saved), *options(judge)) == (0, f"{importing.OLDER}\nevery phase was judged as "
                                                                       "recorded\n")


def test_judge_export_writes_the_whole_record_for_its_operator_alone(tmp_path: Path,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    """The whole record holds every address of the game and its mail: written 0600 whatever the
    umask, as the judge's database is, even over a file that was there readable by all; the public
    record, safe to post, with the umask's mode."""
    judge = played(Judge(tmp_path / "a"), PAYOLA, finished=True)
    whole, public = tmp_path / "g1.json", tmp_path / "g1-public.json"
    whole.write_text("")
    whole.chmod(0o644)
    previous = os.umask(0o022)
    try:
        assert run(capsys, "export", "g1", "-o", str(whole), *options(judge)) == (0, "")
        assert run(capsys, "export", "g1", "--public", "-o", str(public), *options(judge)) == (0, "")
    finally:
        os.umask(previous)
    assert stat.S_IMODE(whole.stat().st_mode) == 0o600 and json.loads(whole.read_text())["scope"] == "whole"
    assert stat.S_IMODE(public.stat().st_mode) == 0o644


def test_a_record_whose_mail_was_pruned_is_copied_but_not_played_again(tmp_path: Path) -> None:
    """``judge prune`` dropped the stored copy of the game's first mail: the record says so, a
    replay (and so an import with --replay) is refused, naming the mail, and a copy, which needs
    no mail, imports the game as it stands."""
    judge = played(Judge(tmp_path / "a"), PAYOLA, finished=False)
    with judge.db.transaction() as session:
        first = session.scalars(select(InboundMail).order_by(InboundMail.id)).first()
        assert first is not None
        first.raw = b""
    record = record_of(judge, "g1")
    assert record["mails"][0]["pruned"] and record["mails"][0]["raw"] == ""
    with pytest.raises(RecordError, match=r"the record's mail 1 was pruned \(judge prune dropped its copy\)"):
        replayed(judge, record)
    other = Judge(tmp_path / "b", now=judge.now)
    with pytest.raises(RecordError, match="the record's mail 1 was pruned"):
        importing.import_record(other.db, other.settings, record, judge.now, replay=True)
    _nothing_of(other)
    assert record_of(imported(record, tmp_path / "c", judge.now), "g1") == record


def test_H4_a_record_written_before_mailboxes_is_imported_with_each_line_under_its_mailbox(tmp_path: Path) -> None:
    """A record of a judge older than schema 0028 kept a player's lines under the address as written:
    the import keeps them under the mailbox (``France+Dip@example.org`` is france@example.org), as
    this judge keeps every line, and holds the copy to the record all the same."""
    judge = played(Judge(tmp_path / "a"), PAYOLA, finished=False)
    record = record_of(judge, PAYOLA.game)
    lines = record["host"]["player_records"]
    assert lines, "the first phase closed at its deadline: its seats have lines"
    written = {line["address"]: line["address"].replace("@", "+Dip@", 1).capitalize() for line in lines}
    for line in lines:
        line["address"] = written[line["address"]]
    other = imported(record, tmp_path / "b", judge.now)
    with other.db.transaction() as session:
        kept = set(session.scalars(select(PlayerRecord.address)))
    assert kept == set(written)


@pytest.mark.parametrize("kind", RECORDED, ids=lambda kind: kind.game)
def test_a_record_of_a_judge_that_kept_no_votes_in_its_results_replays_as_recorded(tmp_path: Path, kind: Kind) -> None:
    """A judge before 0.4 kept no votes on the game's end in a phase's result (each kind keeps them
    now, for a ROLLBACK): a record without them replays as recorded, while a result's outcome that
    differs still differs."""
    judge = played(Judge(tmp_path / "a"), kind, finished=False)
    record = record_of(judge, kind.game)
    for phase in record["phases"]:
        if isinstance(phase["result"], dict):
            phase["result"].pop("votes", None)
    assert replayed(judge, record) == []
    processed = next(phase for phase in record["phases"] if isinstance(phase["result"], dict) and phase["result"])
    key = next(iter(processed["result"]))
    processed["result"][key] = "not what happened"
    assert [difference.phase for difference in replayed(judge, record)] == [processed["name"]]
