"""The operator's commands (issue 24 item 4 and the schema's of item 3): the outgoing queue and
re-sending, quarantined mail, ``judge status`` for monitoring, ``judge db``, and the refusals
that keep a maintenance command from breaking the running judge (item 6)."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from sqlalchemy import select, update

from judge.bootstrap import main
from judge.games.payola import handlers as player_module
from judge.service import datadir
from judge.service.operators import operator
from judge.service.running.app import run_deadlines
from judge.service.running.listening import listening, stopped_listening
from judge.store.database import alembic_config, newest_version, to_wal
from judge.store.models import Heartbeat, InboundMail, Outbox, Submission
from tests.support.cli import options, run
from tests.support.harness import Judge, fresh_database_url, raw_mail, two_player_game
from tests.support.people import GM
from tests.support.relay import Relay

ALICE, BOB = "alice@example.org", "bob@example.org"


@pytest.fixture
def relay(relay: Callable[..., Relay]) -> Relay:
    """One relay, whose refusals each test sets (`Relay.refuse`)."""
    return relay()


def rows(judge: Judge) -> list[tuple[int, str, str | None]]:
    """Each outgoing mail's id, status and last error, once the sender has passed over what was queued."""
    judge.deliver()
    with judge.db.transaction() as session:
        return [(r.id, r.status, r.last_error) for r in session.scalars(select(Outbox).order_by(Outbox.id))]


# -- the outgoing queue ----------------------------------------------------------------------------------


def test_judge_queue_lists_what_is_not_sent_with_its_last_error_and_resend_sends_it(
        tmp_path: Path, relay: Relay, capsys: pytest.CaptureFixture[str]) -> None:
    judge = two_player_game(Judge(tmp_path, relay=f"127.0.0.1:{relay.port}"))
    relay.refuse = {ALICE: "550 5.1.1 no such user", BOB: "451 4.3.2 try again later"}
    judge.send(GM, "SIGNON MASTER@g1 gm-secret\nPROCESS")  # results to both players, the GM's answer
    failed = [row_id for row_id, status, _ in rows(judge) if status == "failed"]  # Alice's results
    assert failed and all(_recipient(judge, row_id) == ALICE for row_id in failed)
    status, out = run(capsys, "queue", *options(judge))
    assert status == 0 and "failed" in out and "last error: 550 5.1.1 no such user" in out
    assert "last error: 451 4.3.2 try again later" in out and "next try" in out
    assert "Re: orders" not in out  # sent already: not listed unless asked
    status, out = run(capsys, "queue", "--state", "failed", *options(judge))
    assert "451" not in out and out.count("550 5.1.1") == len(failed)
    relay.refuse = {}  # the address was fixed, the relay is back
    status, out = run(capsys, "resend", str(failed[0]), *options(judge))
    assert status == 0 and f"outbox {failed[0]} to {ALICE}: sent" in out
    assert [status for row_id, status, _ in rows(judge) if row_id == failed[0]] == ["sent"]


def _recipient(judge: Judge, row_id: int) -> str:
    with judge.db.transaction() as session:
        return session.get_one(Outbox, row_id).recipient


def test_resend_all_sends_every_failed_and_deferred_mail_at_once_and_never_a_sent_one_unasked(
        tmp_path: Path, relay: Relay, capsys: pytest.CaptureFixture[str]) -> None:
    judge = two_player_game(Judge(tmp_path, relay=f"127.0.0.1:{relay.port}"))
    relay.refuse = {ALICE: "550 5.7.1 blocked", BOB: "451 4.7.1 greylisted"}
    judge.send(ALICE, "SIGNON F@g1 alice-pw\nSTATUS")
    judge.send(BOB, "SIGNON G@g1 bob-pw\nSTATUS")
    stuck = [row_id for row_id, status, _ in rows(judge) if status != "sent"]
    sent = [row_id for row_id, status, _ in rows(judge) if status == "sent"]
    assert stuck and sent
    status, out = run(capsys, "resend", str(sent[0]), *options(judge))
    assert status == 1 and "--again sends a second copy" in out
    relay.refuse = {}
    status, out = run(capsys, "resend", "--all", *options(judge))  # the deferred ones too, before their next try
    assert status == 0 and all(f"outbox {row_id} " in out for row_id in stuck)
    assert all(status == "sent" for _, status, _ in rows(judge))
    with judge.db.transaction() as session:
        assert all(row.attempts == 1 for row in session.scalars(select(Outbox).where(Outbox.id.in_(stuck))))


# -- quarantined mail ------------------------------------------------------------------------------------


@pytest.fixture
def poisoned(judge: Judge, monkeypatch: pytest.MonkeyPatch) -> tuple[Judge, int]:
    """Alice's sheet with an acceptance list, quarantined by a fault (since fixed) in reading lists."""
    def broken(*args: Any) -> None:
        raise RuntimeError("a bug in reading acceptance lists")

    with monkeypatch.context() as patch:
        patch.setattr(player_module, "parse_acceptance", broken)
        assert judge.send(ALICE, "SIGNON F@g1 alice-pw\n2 : A PAR - BUR\nACCEPT FG") == "quarantined"
    with judge.db.transaction() as session:
        return judge, session.scalars(select(InboundMail.id).where(InboundMail.status == "quarantined")).one()


def test_quarantined_mail_is_listed_shown_without_its_password_and_applied_again(
        poisoned: tuple[Judge, int], capsys: pytest.CaptureFixture[str]) -> None:
    judge, mail_id = poisoned
    status, out = run(capsys, "quarantine", *options(judge))
    assert status == 0 and f"{mail_id} " in out and ALICE in out and "a bug in reading acceptance lists" in out
    status, out = run(capsys, "quarantine", "show", str(mail_id), *options(judge))
    assert "SIGNON F@g1 ****" in out and "alice-pw" not in out and "2 : A PAR - BUR" in out
    assert "Before retrying" not in out
    status, out = run(capsys, "quarantine", "retry", str(mail_id), *options(judge))
    assert status == 0 and f"mail {mail_id} done" in out
    with judge.db.transaction() as session:
        assert [s.text for s in session.scalars(select(Submission))] == ["2 : A PAR - BUR"]
        row = session.get_one(InboundMail, mail_id)
        assert row.status == "done" and b"alice-pw" not in row.raw  # masked once applied, as any mail
    assert "2 : A PAR - BUR" in judge.last_to(ALICE).body  # her answer, at last


def test_a_quarantined_mail_that_a_later_one_may_replace_is_retried_only_with_force(
        poisoned: tuple[Judge, int], capsys: pytest.CaptureFixture[str]) -> None:
    judge, mail_id = poisoned
    judge.send(ALICE, "SIGNON F@g1 alice-pw\n3 : A PAR - PIC", headers={})  # her newer sheet
    with judge.db.transaction() as session:  # the harness gives no envelope sender: as Postfix would
        session.execute(update(InboundMail).values(envelope_from=ALICE))
    status, out = run(capsys, "quarantine", "retry", str(mail_id), *options(judge))
    assert status == 1 and "later mail(s) from alice@example.org" in out and "--force" in out
    with judge.db.transaction() as session:
        assert session.get_one(InboundMail, mail_id).status == "quarantined"
    status, out = run(capsys, "quarantine", "drop", str(mail_id), *options(judge))
    assert status == 0
    with judge.db.transaction() as session:
        row = session.get_one(InboundMail, mail_id)
        assert row.status == "dropped" and b"alice-pw" not in row.raw
    assert run(capsys, "quarantine", "retry", str(mail_id), *options(judge))[0] == 1  # no longer quarantined


# -- judge status ----------------------------------------------------------------------------------------


def test_judge_status_is_ok_after_a_tick_and_a_problem_when_mail_waits_too_long(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    now = datetime.now(UTC).replace(tzinfo=None, microsecond=0)  # judge status reads the real clock
    judge = two_player_game(Judge(tmp_path, now=now))
    status, out = run(capsys, "status", *options(judge))
    assert status == 1 and "PROBLEM: the deadline clock has never run" in out
    with judge.db.transaction() as session:  # what a tick leaves (run_deadlines)
        session.add(Heartbeat(name="tick", at=now, by="test"))
    listening(judge.db, now, "test pid 1 on 127.0.0.1:2525", starting=True)  # what judge serve leaves
    status, out = run(capsys, "status", *options(judge))
    assert status == 0 and out.rstrip().endswith("OK") and "deadline clock: last ran" in out
    assert "games: 1 active" in out and "mail out: 0 pending" in out
    with judge.db.transaction() as session:  # a mail stuck in the queue for two hours
        session.execute(update(Outbox).where(Outbox.id == 1).values(status="pending",
                                                                     created_at=now - timedelta(hours=2)))
    status, out = run(capsys, "status", *options(judge))
    assert status == 1 and "PROBLEM: mail has been waiting to go out for 2 h" in out
    assert run(capsys, "status", "--max-age", "180", *options(judge))[0] == 0


def test_judge_status_sees_a_listener_gone_while_the_tick_timer_keeps_the_clock_running(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    now = datetime.now(UTC).replace(tzinfo=None, microsecond=0)
    judge = two_player_game(Judge(tmp_path, now=now))
    with judge.db.transaction() as session:  # the timer's judge tick ran a minute ago
        session.add(Heartbeat(name="tick", at=now - timedelta(minutes=1), by="timer"))
    status, out = run(capsys, "status", *options(judge))
    assert status == 1 and "PROBLEM: no judge serve has ever listened for mail" in out
    daemon = "judge1 pid 7 on 127.0.0.1:2525"
    listening(judge.db, now - timedelta(minutes=30), daemon, starting=True)
    stopped_listening(judge.db, now - timedelta(minutes=20), daemon)  # systemctl stop judge, 20 minutes ago
    status, out = run(capsys, "status", *options(judge))
    assert status == 1 and f"listener: stopped {now - timedelta(minutes=20):%Y-%m-%d %H:%M} UTC (20 min ago)" in out
    assert "PROBLEM: no judge serve has listened for mail for 20 min" in out
    listening(judge.db, now - timedelta(minutes=6), daemon, starting=True)  # started again, then killed (no mark)
    status, out = run(capsys, "status", *options(judge))
    assert status == 1 and "PROBLEM: no judge serve has listened for mail for 6 min" in out
    listening(judge.db, now - timedelta(minutes=1), daemon, starting=True)
    status, out = run(capsys, "status", *options(judge))
    assert status == 0 and f"listener: listening ({daemon})" in out


def test_judge_status_says_when_the_data_directorys_disk_is_nearly_full(tmp_path: Path) -> None:
    now = datetime.now(UTC).replace(tzinfo=None, microsecond=0)
    judge = two_player_game(Judge(tmp_path, now=now))
    listening(judge.db, now, "judge1 pid 7 on 127.0.0.1:2525", starting=True)
    run_deadlines(judge.db, judge.settings, now)
    limits = operator.Limits(free_bytes=200 * 2**20)
    lines, code = operator.status(judge.db, judge.settings, now, limits, free=lambda path: 300 * 2**20)
    assert code == 0 and lines[-1] == "OK"
    lines, code = operator.status(judge.db, judge.settings, now, limits, free=lambda path: 12 * 2**20)
    assert code == 1 and f"PROBLEM: {tmp_path} has 12 MB free (under 200 MB)" in lines[-1]


def test_judge_status_warns_when_mta_authenticates_is_set_but_the_mta_writes_no_authentication_results(
        tmp_path: Path) -> None:
    """With ``mta-authenticates`` the judge believes the Authentication-Results header its MTA writes; an MTA
    that writes none (its milter stopped, or given another authserv-id) most likely removes none either, and
    then a forged one in a player's mail is believed.  ``judge status`` reads the newest mails the MTA handed
    over: one without a header by ``mta-hostname`` is a problem (a header by another server does not count)."""
    now = datetime.now(UTC).replace(tzinfo=None, microsecond=0)
    judge = two_player_game(Judge(tmp_path, now=now, mta_hostname="mx.example.net", mta_authenticates=True))
    listening(judge.db, now, "judge1 pid 7 on 127.0.0.1:2525", starting=True)
    run_deadlines(judge.db, judge.settings, now)
    received = (f"Received: from c.example.org (c.example.org [192.0.2.7])\r\n\tby mx.example.net (Postfix) with "
                f"ESMTP id 4F2A1C\r\n\tfor <judge@localhost>; {now:%a, %d %b %Y %H:%M:%S} +0000\r\n").encode()
    vouched = {"Authentication-Results": "mx.example.net; dmarc=pass header.from=example.org"}
    judge.send_raw(received + raw_mail(ALICE, "HELP", headers=vouched))
    lines, code = operator.status(judge.db, judge.settings, now, operator.Limits())
    assert code == 0 and lines[-1] == "OK"  # the MTA vouched (the earlier mail came by judge inject: not counted)
    elsewhere = {"Authentication-Results": "mx.elsewhere.example; dmarc=pass header.from=example.org"}
    judge.send_raw(received + raw_mail(BOB, "HELP", headers=elsewhere))
    lines, code = operator.status(judge.db, judge.settings, now, operator.Limits())
    assert code == 1 and "PROBLEM: mta-authenticates is set, but 1 of the last 2 mail(s) your MTA (mx.example.net)" \
        in lines[-1]


def well(judge: Judge, now: datetime) -> Judge:
    """``judge`` as a running judge leaves it: its listener's heartbeat and a tick, at ``now``."""
    listening(judge.db, now, "judge1 pid 7 on 127.0.0.1:2525", starting=True)
    run_deadlines(judge.db, judge.settings, now)
    return judge


def test_judge_status_is_a_problem_while_mail_waits_in_quarantine(tmp_path: Path) -> None:
    now = datetime.now(UTC).replace(tzinfo=None, microsecond=0)
    judge = well(two_player_game(Judge(tmp_path, now=now)), now)
    with judge.db.transaction() as session:  # a mail the judge could not apply
        mail = session.scalars(select(InboundMail).order_by(InboundMail.id.desc())).first()
        assert mail is not None
        mail.status, mail.error = "quarantined", "RuntimeError: a bug"
    lines, code = operator.status(judge.db, judge.settings, now, operator.Limits())
    assert code == 1 and lines[-1] == "PROBLEM: 1 mail(s) could not be applied and wait in quarantine: judge " \
        "quarantine shows each; retry it once the cause is fixed, or drop it"
    operator.quarantine_drop(judge.db, mail.id)
    assert operator.status(judge.db, judge.settings, now, operator.Limits())[1] == 0


def test_judge_status_is_a_problem_as_soon_as_the_relay_defers_mail_and_ok_once_it_takes_it(
        tmp_path: Path, relay: Relay, capsys: pytest.CaptureFixture[str]) -> None:
    """Postfix stopped for a few minutes: the judge's mail is deferred (its next try in a minute, then
    five...), long before any of it has waited the hour after which waiting mail is a problem."""
    now = datetime.now(UTC).replace(tzinfo=None, microsecond=0)
    judge = well(two_player_game(Judge(tmp_path, now=now, relay=f"127.0.0.1:{relay.port}")), now)
    relay.refuse = {ALICE: "421 4.3.2 Service not available, closing transmission channel"}
    judge.send(ALICE, "SIGNON F@g1 alice-pw\nSTATUS")
    status, out = run(capsys, "status", *options(judge))
    assert status == 1 and "PROBLEM: 1 outgoing mail(s) deferred: the relay refused them or could not be reached " \
        "(last: 421 4.3.2 Service not available" in out
    relay.refuse = {}  # Postfix is back
    assert run(capsys, "resend", "--all", *options(judge))[0] == 0
    assert run(capsys, "status", *options(judge))[0] == 0


def test_judge_status_is_a_problem_when_the_last_backup_failed_or_the_last_good_one_is_old(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    now = datetime.now(UTC).replace(tzinfo=None, microsecond=0)
    judge = well(two_player_game(Judge(tmp_path / "data", now=now)), now)
    assert run(capsys, "status", *options(judge))[0] == 0  # no backup made yet: nothing to say of them
    (tmp_path / "full").write_text("a file where the backups' folder should be")
    assert run(capsys, "backup", str(tmp_path / "full"), *options(judge))[0] == 1
    status, out = run(capsys, "status", *options(judge))
    assert status == 1 and "PROBLEM: the last backup failed, at " in out and "FileExistsError" in out
    assert run(capsys, "backup", str(tmp_path / "backups"), *options(judge))[0] == 0
    status, out = run(capsys, "status", *options(judge))
    assert status == 0 and "backups: the last good one " in out and "one failed" in out
    with judge.db.transaction() as session:  # the timer stopped making them a day and a half ago
        session.get_one(Heartbeat, "backup failed").at = now - timedelta(hours=48)
        session.get_one(Heartbeat, "backup").at = now - timedelta(hours=36)
    status, out = run(capsys, "status", *options(judge))
    assert status == 1 and "PROBLEM: the last good backup was 36 h ago" in out


def test_judge_status_is_a_problem_when_the_database_holds_moments_in_the_future(tmp_path: Path) -> None:
    """The machine's clock was an hour fast and NTP put it right: the tick's heartbeat, the mail received
    meanwhile and the phase opened then are an hour ahead of now, and every comparison with them is off."""
    now = datetime.now(UTC).replace(tzinfo=None, microsecond=0)
    judge = well(two_player_game(Judge(tmp_path, now=now)), now + timedelta(hours=1))
    lines, code = operator.status(judge.db, judge.settings, now, operator.Limits())
    assert code == 1 and any(line.startswith("PROBLEM: the database holds moments in the future (a heartbeat at ")
                             and "60 min from now" in line for line in lines)
    assert operator.status(judge.db, judge.settings, now + timedelta(hours=1), operator.Limits())[1] == 0


def test_judge_status_says_2_when_the_database_cannot_be_used(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    broken = tmp_path / "judge.db"
    broken.write_bytes(b"not a database, whatever its name says" * 100)
    status, out = run(capsys, "status", "--database", f"sqlite:///{broken}")
    assert status == 2 and "the database cannot be used" in out
    monkeypatch.setitem(sys.modules, "psycopg", None)  # PostgreSQL named, its driver not installed
    status, out = run(capsys, "status", "--database", "postgresql+psycopg://nobody@127.0.0.1:1/none")
    assert status == 2 and "the database cannot be used: its driver psycopg is not installed" in out


def test_service_commands_say_when_the_databases_driver_is_missing(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """PostgreSQL named in the settings, the judge installed without its extra: a sentence, not a traceback."""
    monkeypatch.setitem(sys.modules, "psycopg", None)
    assert main(["tick", "--data-dir", str(tmp_path), "--database", "postgresql+psycopg://x@127.0.0.1:1/y"]) == 1
    assert "the database's driver psycopg is not installed (pip install '.[postgres]'" in capsys.readouterr().err

# -- judge db --------------------------------------------------------------------------------------------


def test_judge_db_version_downgrade_and_upgrade(judge: Judge, capsys: pytest.CaptureFixture[str]) -> None:
    newest = newest_version()
    status, out = run(capsys, "db", "version", *options(judge))
    assert status == 0 and f"schema {newest}; this judge's newest: {newest}" in out
    status, out = run(capsys, "db", "downgrade", *options(judge))
    assert status == 1 and "--yes" in out  # nothing done without it
    assert run(capsys, "db", "version", *options(judge))[0] == 0
    status, out = run(capsys, "db", "downgrade", "--yes", *options(judge))
    assert status == 0 and f"database downgraded from {newest} to " in out
    status, out = run(capsys, "queue", *options(judge))  # an operator command never migrates: it says what to do
    assert status == 1 and "judge db upgrade" in out
    assert run(capsys, "db", "version", *options(judge))[0] == 1
    status, out = run(capsys, "db", "upgrade", *options(judge))
    assert status == 0 and out.startswith("database upgraded from ") and out.rstrip().endswith(f"to {newest}")


def test_judge_db_downgrade_to_a_schema_takes_every_migration_down_in_one_run(
        judge: Judge, capsys: pytest.CaptureFixture[str]) -> None:
    """``--to 0007`` (the first release's schema) goes down every migration above it; without ``--yes`` it says
    so and does nothing; a schema that is not below the database's is refused by name."""
    newest = newest_version()
    status, out = run(capsys, "db", "downgrade", "--to", "0007", *options(judge))
    assert status == 1 and f"takes schema {newest} down to schema 0007" in out and "--yes --to 0007" in out
    for wrong in (newest, "0029x", "9999"):
        status, out = run(capsys, "db", "downgrade", "--yes", "--to", wrong, *options(judge))
        assert status == 1 and f"schema {wrong} is not one below the database's {newest}" in out
    assert run(capsys, "db", "version", *options(judge))[0] == 0  # untouched
    status, out = run(capsys, "db", "downgrade", "--yes", "--to", "0007", *options(judge))
    assert status == 0 and f"database downgraded from {newest} to 0007" in out
    status, out = run(capsys, "db", "version", *options(judge))
    assert status == 1 and "schema 0007;" in out
    status, out = run(capsys, "db", "upgrade", *options(judge))
    assert status == 0 and out.rstrip().endswith(f"from 0007 to {newest}")


def test_each_migration_is_logged(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    from judge.store.database import Database

    caplog.set_level("INFO", logger="judge")
    db = Database(fresh_database_url(schema=False) or f"sqlite:///{tmp_path / 'j.db'}")
    command.upgrade(_config(db), "0005")
    db.upgrade()
    db.upgrade()
    assert [r.getMessage() for r in caplog.records if "database" in r.getMessage()] == [
        f"database upgraded from 0005 to {newest_version()}"]


def _config(db: Any) -> Any:
    return alembic_config(db.url)


def test_judges_started_at_once_on_a_fresh_database_all_start(tmp_path: Path) -> None:
    """Each process upgrades the schema under the database's lock: the others find it made (on
    PostgreSQL, two judges' simultaneous CREATE TABLEs used to end in a unique violation).  On
    SQLite the first step, making the new file a write-ahead-log database, failed at once in one
    of them when another held the file: here the test holds it while all three start, and lets
    go only once each has said it waits."""
    url = fresh_database_url() or f"sqlite:///{tmp_path / 'judge.db'}"
    holder = None
    if url.startswith("sqlite"):
        holder = sqlite3.connect(tmp_path / "judge.db", isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")  # another process about to write the new, empty file
    code = "import sys; from judge.store.database import Database; Database(sys.argv[1]).upgrade()"
    starts = [subprocess.Popen([sys.executable, "-c", code, url], stderr=subprocess.PIPE, text=True)
              for _ in range(3)]
    try:
        if holder is not None:
            for start in starts:
                assert start.stderr is not None
                assert "waiting for another process to let go of" in start.stderr.readline()
            holder.execute("ROLLBACK")
    finally:
        if holder is not None:
            holder.close()
    errors = [start.communicate(timeout=120)[1] for start in starts]
    assert [start.returncode for start in starts] == [0, 0, 0], errors


def test_a_new_sqlite_database_waits_for_another_process_before_becoming_write_ahead_log(tmp_path: Path) -> None:
    path = tmp_path / "judge.db"
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # another process about to write the new file: SQLite fails at once
    opening = sqlite3.connect(path)
    pauses: list[float] = []

    def pause(seconds: float) -> None:  # the other process lets go while this one waits
        pauses.append(seconds)
        holder.execute("ROLLBACK")

    to_wal(opening.cursor(), str(path), pause)
    assert len(pauses) == 1 and opening.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    holder.close()
    opening.close()


# -- safety ----------------------------------------------------------------------------------------------


def test_a_command_run_as_root_on_the_judges_data_directory_is_refused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    data = tmp_path / "data"
    data.mkdir()
    if os.geteuid() == 0:
        os.chown(data, 65534, 65534)  # the judge's user
    monkeypatch.setattr(os, "geteuid", lambda: 0)
    for arguments in (["tick"], ["status"], ["db", "upgrade"], ["backup", str(tmp_path / "b")]):
        status = main([*arguments, "--data-dir", str(data)])
        said = capsys.readouterr()
        assert status == 3 and "runuser -u " in said.out + said.err, arguments  # not 1: a monitoring check's PROBLEM
    assert list(data.iterdir()) == []  # nothing written there as root


def test_judge_version_prints_the_release(capsys: pytest.CaptureFixture[str]) -> None:
    import judge

    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0 and capsys.readouterr().out.startswith(f"payola-judge {judge.__version__} (")
    assert judge.__version__ == "0.4.0"


def test_a_restore_is_refused_while_the_judge_runs_on_the_data_directory(tmp_path: Path) -> None:
    with datadir.data_dir_lock(tmp_path, alone=False), pytest.raises(datadir.OperatorError, match="stop it first"), \
            datadir.data_dir_lock(tmp_path, alone=True):
        pass
