"""After an outage: the judge was down over a deadline while Postfix held its mail.  At the restart
the deadline waits ``settle_seconds`` for that mail; what Postfix accepted before the deadline
(its ``Received:`` line says when) counts for the phase, what it accepted after goes to the next.
Postfix delivers what it held in the order of its queue files, not in the order it took it: a
player's later sheet is kept all the same.  And the judge tells systemd when it listens, so
that the unit's ``postqueue -f`` comes after."""

from __future__ import annotations

import smtplib
import socket
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime
from pathlib import Path

import pytest
from sqlalchemy import select

from judge.bootstrap import open_database
from judge.service.config import Settings
from judge.service.running.app import accepted_at, inject
from judge.service.running.listening import held, listener, timer_tick
from judge.store.database import Database
from judge.store.models import Game, Heartbeat, InboundMail, Submission
from tests.support.clock import Clock
from tests.support.daemon import Running, maildir_subjects
from tests.support.harness import fresh_database_url, inject_confirming, raw_mail
from tests.support.people import GM, PLAYERS
from tests.support.wait import wait_until

MTA = "mx.example.net"
START = datetime(2026, 3, 1, 9, 0)


def received(by: str, when: datetime) -> bytes:
    """A Received: line as Postfix writes it (folded), for a moment in UTC."""
    return (f"Received: from client.example.org (client.example.org [192.0.2.7])\r\n\tby {by} (Postfix) with ESMTP"
            f" id 4F2A1C\r\n\tfor <judge@localhost>; {format_datetime(when.replace(tzinfo=UTC))}\r\n").encode()


def held_mail(sender: str, body: str, accepted: datetime) -> bytes:
    """A mail as Postfix hands it over: its Received: line on top."""
    return received(MTA, accepted) + raw_mail(sender, body, subject="sheet")


def started(tmp_path: Path, game: str) -> tuple[Settings, Database, datetime]:
    """A judge behind an MTA on ``tmp_path`` (300 s to settle after a restart) with ``game`` started at START by
    GM for the two PLAYERS: its settings, database and the first deadline."""
    settings = Settings(data_dir=tmp_path, database=fresh_database_url(), port=0, tick_seconds=3600,
                        mta_hostname=MTA, settle_seconds=300)
    db = open_database(settings)
    inject_confirming(db, settings, raw_mail(GM, f"CREATE {game} gm"), START)
    for power, address in PLAYERS.items():
        inject_confirming(db, settings, raw_mail(address, f"JOIN {game} pw {power}"), START)
    inject(db, settings, raw_mail(GM, f"SIGNON MASTER@{game} gm\nSTART"), START)
    with db.transaction() as session:
        deadline = session.scalars(select(Game.deadline)).one()
    assert deadline is not None
    return settings, db, deadline


def test_a_deadline_passed_during_an_outage_waits_for_the_mail_accepted_before_it(tmp_path: Path) -> None:
    settings, db, deadline = started(tmp_path, "outage1")
    clock = Clock()
    clock.now = deadline + timedelta(hours=1)  # the judge comes back an hour after the deadline
    judge = Running(settings, clock)
    try:
        with smtplib.SMTP("127.0.0.1", judge.port, timeout=10) as client:  # Postfix delivers what it held
            client.sendmail(PLAYERS["GERMANY"], ["judge@localhost"],  # accepted after the deadline: late
                            held_mail(PLAYERS["GERMANY"], "SIGNON G@outage1 pw\n1 : A BER H",
                                      deadline + timedelta(minutes=30)))
            client.sendmail(PLAYERS["FRANCE"], ["judge@localhost"],  # accepted before it: on time
                            held_mail(PLAYERS["FRANCE"], "SIGNON F@outage1 pw\n3 : A PAR - BUR",
                                      deadline - timedelta(minutes=10)))
        wait_until(lambda: maildir_subjects(settings).count("Re: sheet") == 1)  # France's, applied at once
        with db.transaction() as session:
            assert list(session.scalars(select(InboundMail.status).order_by(InboundMail.id)))[-2:] == ["new", "done"]
        assert "outage1 S1901M results" not in maildir_subjects(settings)
        clock.now += timedelta(minutes=6)  # the settle time is over
        judge.tick()
        wait_until(lambda: "outage1 S1901M results" in maildir_subjects(settings)
                   and maildir_subjects(settings).count("Re: sheet") == 2)
        with db.transaction() as session:
            sheets = session.execute(select(Submission.seat, Submission.phase).order_by(Submission.id)).all()
        assert [tuple(sheet) for sheet in sheets] == [("FRANCE", "S1901M"), ("GERMANY", "F1901M")]
    finally:
        judge.stop()


def test_the_tick_timer_runs_no_deadline_while_no_judge_listens_and_every_held_sheet_counts_for_its_phase(
        tmp_path: Path) -> None:
    """The outage replayed end to end: the daemon stopped before a deadline, both players' sheets
    held by the MTA, the tick timer firing after the deadline (and again while the daemon that
    came back settles), then the daemon catching up.  Each sheet counts for the phase it was
    sent in: both spring sheets for S1901M, Germany's sheet sent after the deadline for F1901M."""
    settings, db, deadline = started(tmp_path, "outage3")
    clock = Clock()
    clock.now = START + timedelta(hours=1)
    judge = Running(settings, clock)
    clock.now = START + timedelta(hours=2)
    judge.stop()  # an upgrade, say; the MTA holds what comes meanwhile
    queued = [(PLAYERS["FRANCE"], "SIGNON F@outage3 pw\n3 : A PAR - BUR", deadline - timedelta(minutes=40)),
            (PLAYERS["GERMANY"], "SIGNON G@outage3 pw\n2 : A MUN - RUH", deadline - timedelta(minutes=30)),
            (PLAYERS["GERMANY"], "SIGNON G@outage3 pw\n1 : A BER H", deadline + timedelta(minutes=20))]
    fired = timer_tick(db, settings, deadline + timedelta(minutes=5))  # judge-tick.timer, the daemon down
    assert fired == [f"deadlines of outage3 not run: judge serve stopped listening at {clock.now:%Y-%m-%d %H:%M} UTC"
                     " (the MTA holds the players' mail while nobody listens; judge serve runs them once it has it)"]
    with db.transaction() as session:
        assert session.scalars(select(Game.phase)).one() == "S1901M"
    clock.now = deadline + timedelta(hours=1)  # the daemon is back; the MTA delivers what it held
    judge = Running(settings, clock)
    try:
        with smtplib.SMTP("127.0.0.1", judge.port, timeout=10) as client:
            for sender, sheet, accepted in queued:
                client.sendmail(sender, ["judge@localhost"], held_mail(sender, sheet, accepted))
        wait_until(lambda: maildir_subjects(settings).count("outage3 S1901M results") == 2)  # both sheets in
        with db.transaction() as session:  # the timer, were it to fire while the daemon settles, would wait too
            assert "waits until" in str(held(listener(session), clock.now + timedelta(minutes=2), settings))
        clock.now += timedelta(minutes=6)  # the settle time is over: the daemon catches up
        judge.tick()
        wait_until(lambda: maildir_subjects(settings).count("Re: sheet") == 3)
        with db.transaction() as session:
            sheets = session.execute(select(Submission.seat, Submission.phase).order_by(Submission.id)).all()
        assert [tuple(sheet) for sheet in sheets] == [("FRANCE", "S1901M"), ("GERMANY", "S1901M"),
                                                      ("GERMANY", "F1901M")]
        assert maildir_subjects(settings).count("outage3 S1901M results") == 2  # processed once, with both sheets
    finally:
        judge.stop()


def test_sheets_held_during_an_outage_and_delivered_out_of_order_keep_the_last(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path, database=fresh_database_url(), port=0, tick_seconds=3600,
                        mta_hostname=MTA)
    db = open_database(settings)
    inject_confirming(db, settings, raw_mail(GM, "CREATE outage2 gm"), START)
    for power, address in PLAYERS.items():
        inject_confirming(db, settings, raw_mail(address, f"JOIN outage2 pw {power}"), START)
    inject(db, settings, raw_mail(GM, "SIGNON MASTER@outage2 gm\nSTART"), START)
    clock = Clock()
    clock.now = START + timedelta(hours=2)  # the judge comes back; no deadline has passed
    judge = Running(settings, clock)
    try:
        with smtplib.SMTP("127.0.0.1", judge.port, timeout=10) as client:  # Postfix delivers what it held
            for n in (3, 5, 1, 4, 2):  # the five sheets France sent a minute apart, in queue-file order
                client.sendmail(PLAYERS["FRANCE"], ["judge@localhost"],
                                held_mail(PLAYERS["FRANCE"], f"SIGNON F@outage2 pw\n{n} : A PAR - BUR",
                                          START + timedelta(hours=1, minutes=n)))
        wait_until(lambda: maildir_subjects(settings).count("Re: sheet") == 5)
        with db.transaction() as session:
            sheets = list(session.scalars(select(Submission.text).order_by(Submission.id)))
        assert sheets == ["3 : A PAR - BUR", "5 : A PAR - BUR"]  # the fifth stays, whatever came after it
    finally:
        judge.stop()


def test_only_the_topmost_received_line_by_the_judges_mta_is_believed() -> None:
    settings = Settings(mta_hostname=MTA, max_lateness=24)
    stored = datetime(2026, 3, 3, 10, 0)
    on_time = held_mail("fred@example.org", "HELP", stored - timedelta(hours=2))
    assert accepted_at(settings, on_time, stored) == stored - timedelta(hours=2)
    assert accepted_at(Settings(), on_time, stored) == stored  # no MTA named: only the judge's own clock
    elsewhere = on_time.replace(b"by mx.example.net", b"by mail.elsewhere.example")
    assert accepted_at(settings, elsewhere, stored) == stored
    below = received(MTA, stored - timedelta(hours=5))  # a line the sender wrote: below the MTA's own
    written = received(MTA, stored - timedelta(minutes=1)) + below + raw_mail("fred@example.org", "HELP")
    assert accepted_at(settings, written, stored) == stored - timedelta(minutes=1)
    days_ago = held_mail("fred@example.org", "HELP", stored - timedelta(days=3))
    assert accepted_at(settings, days_ago, stored) == stored - timedelta(hours=24)  # a clock gone wrong
    future = held_mail("fred@example.org", "HELP", stored + timedelta(hours=1))
    assert accepted_at(settings, future, stored) == stored


def test_the_judge_tells_systemd_it_listens_so_the_unit_can_flush_postfix_then(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    address = tmp_path / "notify"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as systemd:
        systemd.bind(str(address))
        systemd.settimeout(30)
        monkeypatch.setenv("NOTIFY_SOCKET", str(address))
        judge = Running(Settings(data_dir=tmp_path / "data", database=fresh_database_url(), port=0), Clock())
        try:
            assert systemd.recv(100) == b"READY=1"
            with smtplib.SMTP("127.0.0.1", judge.port, timeout=10) as client:  # and it does listen
                assert client.noop()[0] == 250
        finally:
            judge.stop()


def ticked(db: Database) -> bool:
    """Whether the deadline clock has run (its heartbeat)."""
    with db.transaction() as session:
        return session.get(Heartbeat, "tick") is not None


def test_a_deadline_that_passes_while_the_listener_answers_451_waits_for_the_mail_the_mta_held(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The database goes down ten minutes before a deadline and comes back ten minutes after it:
    meanwhile the listener answers 451, and the MTA keeps France's sheet, sent five minutes before
    the deadline (and Germany's, sent five minutes after it).  The clock runs no deadline while the
    listener refuses mail (the database's tables can answer, as with a full disk: the deadline
    itself would run), nor does the tick timer; once the listener can store again, the judge asks
    the MTA for what it holds (``mta-flush``), and the deadline waits ``settle-seconds`` for it:
    France's sheet counts for S1901M, Germany's for F1901M.  Without the wait, the deadline ran as
    soon as the database answered, and both sheets counted for F1901M."""
    settings, db, deadline = started(tmp_path, "down1")
    flushed = tmp_path / "flushed"
    settings = replace(settings, mta_flush=f"touch {flushed}", tick_seconds=3600)
    clock = Clock()
    clock.now = deadline - timedelta(minutes=10)
    judge = Running(settings, clock)
    try:
        wait_until(flushed.exists, "the flush the judge asks for when it listens")
        flushed.unlink()
        wait_until(lambda: ticked(db), "the clock's first tick")
        probes: list[datetime] = []

        def down(*args: object) -> None:
            probes.append(clock.now)
            raise OSError("connection refused")

        store = judge.daemon.intake.store
        monkeypatch.setattr(judge.daemon.intake, "store", down)
        monkeypatch.setattr("judge.service.running.daemon.listening", down)
        held_sheets = [(PLAYERS["FRANCE"], "SIGNON F@down1 pw\n3 : A PAR - BUR", deadline - timedelta(minutes=5)),
                       (PLAYERS["GERMANY"], "SIGNON G@down1 pw\n1 : A BER H", deadline + timedelta(minutes=5))]
        with smtplib.SMTP("127.0.0.1", judge.port, timeout=10) as client:
            sender, sheet, accepted = held_sheets[0]
            with pytest.raises(smtplib.SMTPDataError) as refused:
                client.sendmail(sender, ["judge@localhost"], held_mail(sender, sheet, accepted))
        assert refused.value.smtp_code == 451  # the MTA keeps it
        clock.now = deadline + timedelta(minutes=10)  # the deadline has passed; the database is still down
        before = len(probes)
        judge.tick()
        wait_until(lambda: clock.now in probes[before:], "the clock's try")
        with db.transaction() as session:
            assert session.scalars(select(Game.phase)).one() == "S1901M"  # not run without France's sheet
        assert timer_tick(db, settings, clock.now)[0].startswith("deadlines of down1 not run: judge serve stopped")
        monkeypatch.setattr(judge.daemon.intake, "store", store)  # the database is back
        monkeypatch.undo()
        judge.tick()
        wait_until(flushed.exists, "the judge asking the MTA for the mail it holds")
        with smtplib.SMTP("127.0.0.1", judge.port, timeout=10) as client:  # the MTA delivers it
            for sender, sheet, accepted in held_sheets:
                client.sendmail(sender, ["judge@localhost"], held_mail(sender, sheet, accepted))
        wait_until(lambda: maildir_subjects(settings).count("Re: sheet") == 1)  # France's, on time
        assert "down1 S1901M results" not in maildir_subjects(settings)
        clock.now += timedelta(minutes=6)  # the settle time is over
        judge.tick()
        wait_until(lambda: "down1 S1901M results" in maildir_subjects(settings)
                   and maildir_subjects(settings).count("Re: sheet") == 2)
        with db.transaction() as session:
            sheets = session.execute(select(Submission.seat, Submission.phase).order_by(Submission.id)).all()
        assert [tuple(sheet) for sheet in sheets] == [("FRANCE", "S1901M"), ("GERMANY", "F1901M")]
    finally:
        judge.stop()
