"""Several processes applying one game's mail (issue 27): the mail keeps its order whatever
process takes it, and a process killed in the middle of a run of mail leaves nothing applied
twice, nor anything unapplied.

Already shown elsewhere (`tests/service/test_daemon.py`): two judges' clocks racing on one
database process each phase once; an idle applier process killed (SIGKILL) is replaced;
``judge serve`` killed after a 250 applies the mail once; a mail settled by another process
says so (`tests/service/test_logs.py`).  These tests add real processes applying the same
game's mail at the same time, and a SIGKILL in the middle of a run.  They run on SQLite, and
on PostgreSQL with ``JUDGE_TEST_DATABASE_URL`` (`tests.support.harness.fresh_database_url`),
where the tests of topics run too: a run leaves the mail of a game another process holds, and
takes at most its share of games (`judge.service.incoming.handlers.mail.Topics`).
"""

from __future__ import annotations

import multiprocessing
import os
import re
import signal
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any, cast

import pytest
from sqlalchemy import event, select, text

from judge.bootstrap import database, kinds
from judge.commands.parse import parse_lines
from judge.mail.inbound import parse_mail
from judge.service.config import Settings
from judge.service.hosting.kinds import Kinds
from judge.service.incoming.handlers import mail as mail_handlers
from judge.service.incoming.handlers.mail import apply_run, receive
from judge.service.running import daemon
from judge.service.running.app import unapplied_mail
from judge.store.database import Holding
from judge.store.models import InboundMail, Outbox
from tests.support.clock import Clock
from tests.support.daemon import Running, maildir_subjects
from tests.support.harness import Judge, raw_mail, tokens, two_player_game
from tests.support.people import CAROL
from tests.support.wait import wait_until

ALICE, BOB, GM = "alice@example.org", "bob@example.org", "gm@example.org"
SPAWN = multiprocessing.get_context("spawn")  # a fresh interpreter, as the daemon's applier is


def sheet_and_press(number: int) -> bytes:
    """France's mail number ``number``: a sheet that replaces the one before, and press to Germany."""
    return raw_mail(ALICE, f"SIGNON FRANCE@g1 alice-pw\n{number} : A PAR - BUR\n"
                           f"PRESS TO GERMANY\nFrance's letter {number}\nENDPRESS", subject=f"letter {number}")


def france_and_germany(judge: Judge, number: int) -> int:
    """France's mail ``number``, accepted two seconds after the one before (its place among
    France's mail), then a letter of Germany's to France (no sheet: the phase stays open);
    the id of France's."""
    accepted = judge.now + timedelta(seconds=2 * number)
    france = receive(judge.db, sheet_and_press(number), accepted)
    receive(judge.db, raw_mail(BOB, f"SIGNON GERMANY@g1 bob-pw\nPRESS TO FRANCE\nGermany's letter {number}\n"
                                    "ENDPRESS", subject="press"), accepted + timedelta(seconds=1))
    return france


def _apply_as_it_comes(url: str, settings: Settings, now: datetime, ready: Any, stop: Any, answers: Any) -> None:
    """One process applying stored mail as a judge's applier does, as it comes, until ``stop``
    is set and nothing is left; it puts what it settled in ``answers``."""
    db = database(url)
    ready.release()
    settled = []
    while True:
        last = stop.is_set()
        waiting = unapplied_mail(db)
        if not waiting and last:
            break
        settled += apply_run(db, settings, waiting, now) if waiting else []
        time.sleep(0 if waiting else 0.01)
    answers.put(settled)
    db.engine.dispose()


def test_two_processes_applying_one_games_mail_keep_its_order(tmp_path: Path) -> None:
    judge = two_player_game(Judge(tmp_path, max_replies_per_hour=1000))  # 80 answers in a minute
    ready, stop, answers = SPAWN.Semaphore(0), SPAWN.Event(), SPAWN.Queue()
    appliers = [SPAWN.Process(target=_apply_as_it_comes, args=(judge.settings.database_url, judge.settings,
                                                              judge.now + timedelta(minutes=5), ready, stop, answers))
                for _ in range(2)]
    for process in appliers:
        process.start()
    for _ in appliers:
        assert ready.acquire(timeout=60)
    letters = []
    for number in range(1, 41):  # stored one after the other while both processes apply what has come
        letters.append(france_and_germany(judge, number))
        time.sleep(0.02)
    stop.set()
    settled = [answers.get(timeout=120) for _ in appliers]
    for process in appliers:
        process.join(timeout=30)
    done = Counter(mail_id for each in settled for mail_id, status in each if status == "done")
    assert set(done.values()) == {1} and len(done) == 2 * len(letters)  # every mail applied once, by either
    assert all(settled)  # both raced for the mail (which applies which is theirs to find out)
    with judge.db.transaction() as session:
        replies = {row.in_reply_to: row.body or ""
                   for row in session.scalars(select(Outbox).where(Outbox.kind == "reply"))}
        raws = {row.id: row.message_id for row in session.scalars(select(InboundMail))}
        letters_to_germany = [int(match.group(1)) for body in session.scalars(
            select(Outbox.body).where(Outbox.recipient == BOB, Outbox.kind == "press").order_by(Outbox.id))
            if body and (match := re.search(r"France's letter (\d+)", body))]
    answers_to_france = [replies[raws[mail_id]] for mail_id in letters]
    assert all("offer sheet accepted" in answer and "not applied" not in answer for answer in answers_to_france)
    assert letters_to_germany == list(range(1, len(letters) + 1))  # Germany reads them in the order written
    judge.send(ALICE, "SIGNON FRANCE@g1 alice-pw\nSTATUS")
    assert f"{len(letters)} : A PAR - BUR" in judge.last_to(ALICE).body


def _applier_killed_mid_run(pipe: Connection, settings: Settings, kinds: Kinds, holding: Holding) -> None:
    """The daemon's applier, except that once (while ``stop-mid-run`` is in the data directory)
    it stops for good in the middle of a run, after applying its third mail: the test kills it there."""
    marker, settle = settings.data_dir / "stop-mid-run", mail_handlers._settle
    count = 0

    def settle_then_stop(*args: Any) -> Any:
        nonlocal count
        settled = settle(*args)
        count += 1
        if count == 3 and marker.exists():
            marker.rename(settings.data_dir / "stopped-mid-run")
            time.sleep(600)
        return settled

    mail_handlers._settle = settle_then_stop  # type: ignore[assignment]
    daemon._applier_main(pipe, settings, kinds, holding)


def test_a_mail_is_never_applied_twice_when_its_applier_is_killed_mid_run(tmp_path: Path, monkeypatch: Any) -> None:
    judge = two_player_game(Judge(tmp_path / "data"))
    letters = [france_and_germany(judge, number) for number in range(1, 6)]  # ten mails, one run
    (judge.settings.data_dir / "stop-mid-run").touch()
    monkeypatch.setattr(daemon, "_applier_main", _applier_killed_mid_run)
    running = Running(Settings(data_dir=judge.settings.data_dir, database=judge.settings.database, port=0,
                               tick_seconds=3600, maps=False, web=False), Clock())
    try:
        wait_until(lambda: (judge.settings.data_dir / "stopped-mid-run").exists(), timeout=60)
        applier = running.daemon.applier
        assert applier is not None and applier.process.pid is not None
        killed = applier.process.pid
        os.kill(killed, signal.SIGKILL)  # three mails applied in its transaction, not committed
        wait_until(lambda: maildir_subjects(running.settings).count("Re: press") == 5, timeout=60)
        assert applier.process.pid != killed  # another process took the run over
    finally:
        running.stop()
    subjects = maildir_subjects(running.settings)
    assert sorted(subject for subject in subjects if subject.startswith("Re: letter")) == sorted(
        f"Re: letter {number}" for number in range(1, 6))  # each answered once
    assert subjects.count("g1 press from France") == subjects.count("Re: press") == 5
    with judge.db.transaction() as session:
        statuses = Counter(session.scalars(select(InboundMail.status).where(InboundMail.id >= letters[0])))
    assert statuses == {"done": 10}


postgresql = pytest.mark.skipif(not os.environ.get("JUDGE_TEST_DATABASE_URL"),
                                reason="topics are PostgreSQL's advisory locks (JUDGE_TEST_DATABASE_URL)")


@contextmanager
def holding(judge: Judge, topic: str) -> Iterator[None]:
    """Another process's run holding ``topic`` (its advisory lock, in a transaction of its own)."""
    other = database(judge.settings.database_url)
    try:
        with other.engine.begin() as connection:
            connection.execute(text("SELECT pg_advisory_xact_lock(:space, :topic)"),
                               {"space": mail_handlers.TOPIC_LOCKS, "topic": mail_handlers.topic_lock(topic)})
            yield
    finally:
        other.engine.dispose()


@postgresql
def test_a_run_leaves_the_mail_of_a_game_another_process_is_applying_and_applies_the_rest(tmp_path: Path) -> None:
    judge = two_player_game(Judge(tmp_path))
    first, help_, second = (receive(judge.db, sheet_and_press(1), judge.now),
                            receive(judge.db, raw_mail(CAROL, "HELP"), judge.now),
                            receive(judge.db, sheet_and_press(2), judge.now))
    with holding(judge, "game g1"):
        assert apply_run(judge.db, judge.settings, [first, help_, second], judge.now) == [(help_, "done")]
        assert unapplied_mail(judge.db) == [first, second]
    assert apply_run(judge.db, judge.settings, [first, second], judge.now) == [(first, "done"), (second, "done")]
    judge.send(ALICE, "SIGNON FRANCE@g1 alice-pw\nSTATUS")
    assert "2 : A PAR - BUR" in judge.last_to(ALICE).body  # the later sheet stands: applied in order


@postgresql
def test_a_run_takes_at_most_its_share_of_topics_and_never_a_later_mail_of_one_it_left(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    judge = two_player_game(Judge(tmp_path))
    monkeypatch.setattr(mail_handlers, "TOPICS_PER_RUN", 1)
    ids = [receive(judge.db, raw_mail(CAROL, "HELP"), judge.now), receive(judge.db, sheet_and_press(1), judge.now),
           receive(judge.db, raw_mail(CAROL, "LIST"), judge.now), receive(judge.db, sheet_and_press(2), judge.now)]
    assert apply_run(judge.db, judge.settings, ids, judge.now) == [(ids[0], "done"), (ids[2], "done")]
    assert apply_run(judge.db, judge.settings, [ids[1], ids[3]], judge.now) == [(ids[1], "done"), (ids[3], "done")]


def test_a_mails_topic_is_the_first_game_it_names_else_its_senders_address() -> None:
    def topic_of(text: str, sender: str = ALICE) -> str:
        mail = parse_mail(raw_mail(sender, text))
        return mail_handlers.topic(mail, parse_lines(mail.lines))

    assert topic_of("SIGNON FRANCE@G1 pw\n3 : A PAR - BUR") == "game g1"
    assert topic_of("HELP\nJOIN g2 pw\nSIGNON FRANCE@g1 pw") == "game g2"
    assert topic_of("CREATE new pw", sender=GM) == "game new"
    assert topic_of("OBSERVE g3") == topic_of("TAKEOVER FRANCE@g3 pw") == "game g3"
    assert topic_of("HELP\nLIST g1") == topic_of("SET ADDRESS new@example.org") == f"address {ALICE}"


def stored_topics(judge: Judge) -> dict[int, str | None]:
    """Each stored mail's topic as written in the database (NULL: not classified yet)."""
    with judge.db.transaction() as session:
        return {mail_id: topic for mail_id, topic in session.execute(select(InboundMail.id, InboundMail.topic))}


def test_a_confirms_topic_is_the_game_of_the_request_it_confirms(tmp_path: Path) -> None:
    judge = Judge(tmp_path)
    create = receive(judge.db, raw_mail("dora@example.org", "CREATE g9 dora-pw"), judge.now)  # never confirmed
    assert apply_run(judge.db, judge.settings, [create], judge.now) == [(create, "done")]
    token = tokens(judge.db, "dora@example.org")[-1]
    confirm, again, unknown = (
        receive(judge.db, raw_mail("dora@example.org", f"CONFIRM {token}"), judge.now),
        receive(judge.db, raw_mail("dora@example.org", f"CONFIRM {token}", subject="again"), judge.now),
        receive(judge.db, raw_mail("dora@example.org", "CONFIRM 0123456789abcdef"), judge.now))
    mail_handlers.Runs(judge.db, judge.settings).classify(judge.now)  # read for their topics, as a judge does first
    topics = stored_topics(judge)
    assert topics[create] == "game g9"  # written when it was applied
    assert topics[confirm] == topics[again] == "game g9"  # a JOIN g9 after it is kept after it
    assert topics[unknown] == "address dora@example.org"


class Reading:
    """What one process reads of the stored mail: the ids whose raw mail it fetches, and those it parses."""

    def __init__(self, judge: Judge, monkeypatch: pytest.MonkeyPatch) -> None:
        self.fetched: list[int] = []
        self.parsed: list[int] = []
        read = mail_handlers.read_stored

        def parsing(stored: mail_handlers.Stored) -> mail_handlers.Read:
            self.parsed.append(stored.id)
            return read(stored)

        def fetching(_connection: Any, _cursor: Any, statement: str, parameters: Any, *_: Any) -> None:
            if "inbound_mail.raw" in statement.split("FROM")[0]:
                rows = judge.db.engine.connect()
                with rows:  # the ids the statement will return: read with the same statement's condition
                    self.fetched += [row[0] for row in rows.exec_driver_sql(
                        "SELECT id FROM inbound_mail" + statement.split("FROM inbound_mail", 1)[1], parameters)]

        monkeypatch.setattr(mail_handlers, "read_stored", parsing)
        event.listen(judge.db.engine, "before_cursor_execute", fetching)


@postgresql
def test_a_judge_applies_no_mail_of_a_game_another_judge_holds_and_reads_none_of_its_raw_mail(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    judge = two_player_game(Judge(tmp_path))
    first, help_, second = (receive(judge.db, sheet_and_press(1), judge.now),
                            receive(judge.db, raw_mail(CAROL, "HELP"), judge.now),
                            receive(judge.db, sheet_and_press(2), judge.now))
    other = database(judge.settings.database_url)  # another judge: it classified the mail, and holds g1
    try:
        mail_handlers.Runs(other, judge.settings).classify(judge.now)
    finally:
        other.engine.dispose()
    assert stored_topics(judge)[first] == stored_topics(judge)[second] == "game g1"
    reading = Reading(judge, monkeypatch)
    runs = mail_handlers.Runs(judge.db, judge.settings)
    with holding(judge, "game g1"):
        assert runs.run([first, help_, second], judge.now) == [(help_, "done")]
    assert reading.parsed == [help_] and set(reading.fetched) <= {help_}  # g1's mail neither parsed nor fetched
    assert runs.run([first, second], judge.now) == [(first, "done"), (second, "done")]  # g1 free: in order
    judge.send(ALICE, "SIGNON FRANCE@g1 alice-pw\nSTATUS")
    assert "2 : A PAR - BUR" in judge.last_to(ALICE).body


@contextmanager
def classifying(judge: Judge, mail_id: int) -> Iterator[None]:
    """Another judge in the middle of reading ``mail_id`` for its topic (its row locked, its topic not written yet)."""
    other = database(judge.settings.database_url)
    try:
        with other.engine.begin() as connection:
            connection.execute(text("SELECT id FROM inbound_mail WHERE id = :id FOR UPDATE"), {"id": mail_id})
            yield
    finally:
        other.engine.dispose()


@postgresql
def test_each_mail_is_read_for_its_topic_by_one_judge_and_one_it_was_reading_when_it_died_by_another(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    judge = two_player_game(Judge(tmp_path))
    ids = [receive(judge.db, raw_mail(CAROL, "HELP", subject=str(n)), judge.now) for n in range(3)]
    reading = Reading(judge, monkeypatch)
    with classifying(judge, ids[0]):
        mail_handlers.Runs(judge.db, judge.settings).classify(judge.now)
        assert reading.parsed == ids[1:] and reading.fetched == ids[1:]  # not the one the other judge is reading
        assert mail_handlers.Runs(judge.db, judge.settings).classify(judge.now) == []
        assert reading.parsed == ids[1:]  # a second judge finds nothing left to read
    # the other judge died before it wrote the topic: its lock went with its transaction
    mail_handlers.Runs(judge.db, judge.settings).classify(judge.now)
    assert reading.parsed == ids[1:] + ids[:1]
    assert {stored_topics(judge)[i] for i in ids} == {f"address {CAROL}"}


@postgresql
def test_a_run_never_applies_a_mail_past_one_whose_topic_is_not_known_yet(tmp_path: Path) -> None:
    """France's sheet 2 is classified while sheet 1, before it, is still being read by another
    judge: sheet 1 may be about g1 too, so nothing after it is applied until its topic is written."""
    judge = two_player_game(Judge(tmp_path))
    first, second = receive(judge.db, sheet_and_press(1), judge.now), receive(judge.db, sheet_and_press(2), judge.now)
    runs = mail_handlers.Runs(judge.db, judge.settings)
    with classifying(judge, first):
        runs.classify(judge.now)
        assert stored_topics(judge)[second] == "game g1"
        assert runs.run([first, second], judge.now) == []
    assert runs.run([first, second], judge.now) == [(first, "done"), (second, "done")]
    judge.send(ALICE, "SIGNON FRANCE@g1 alice-pw\nSTATUS")
    assert "2 : A PAR - BUR" in judge.last_to(ALICE).body  # the later sheet stands


@postgresql
def test_a_mail_whose_database_session_the_server_ended_is_applied_again_not_quarantined(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A judge that stops talking in the middle of a transaction (cut off) has its session ended by
    PostgreSQL (idle_in_transaction_session_timeout): psycopg raises an InternalError, and nothing is
    wrong with the mail, which is applied once the database can be used again."""
    judge = two_player_game(Judge(tmp_path))
    mail_id = receive(judge.db, sheet_and_press(1), judge.now)
    settle, stalled = mail_handlers._settle, []

    def stalling(session: Any, *args: Any) -> Any:
        if not stalled:
            stalled.append(True)
            session.execute(text("SET LOCAL idle_in_transaction_session_timeout = 100"))
            time.sleep(0.5)  # idle in the transaction: the server ends the session
        return settle(session, *args)

    monkeypatch.setattr(mail_handlers, "_settle", stalling)
    assert apply_run(judge.db, judge.settings, [mail_id], judge.now) == [(mail_id, "done")]
    assert stalled and unapplied_mail(judge.db) == []
    judge.send(ALICE, "SIGNON FRANCE@g1 alice-pw\nSTATUS")
    assert "1 : A PAR - BUR" in judge.last_to(ALICE).body


class _KilledAfterAsking:
    """The applier's end of its pipe to a daemon that is killed (SIGKILL) as soon as it has asked for a run:
    the daemon's end closes once the applier has read the run."""

    def __init__(self, pipe: Connection, daemon_end: Connection) -> None:
        self.pipe, self.daemon_end = pipe, daemon_end

    def recv(self) -> Any:
        asked = self.pipe.recv()
        self.daemon_end.close()
        return asked

    def send(self, answer: Any) -> None:
        self.pipe.send(answer)


def test_an_applier_whose_daemon_was_killed_mid_run_logs_a_line_and_ends(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """The daemon killed while its applier applies a run: the applier commits the run, finds the daemon's
    end of the pipe closed when it answers, logs that on one line (no BrokenPipeError traceback) and
    ends; the mail it applied is settled."""
    judge = Judge(tmp_path)
    mail_id = receive(judge.db, raw_mail(CAROL, "HELP"), judge.now)
    ours, applier = SPAWN.Pipe()
    ours.send(([mail_id], judge.now))
    daemon._applier_main(cast(Connection, _KilledAfterAsking(applier, ours)), judge.settings, kinds())
    gone = [record for record in caplog.records if "daemon is gone" in record.getMessage()]
    assert [(record.levelname, record.exc_info) for record in gone] == [("WARNING", None)]
    assert "BrokenPipeError" in gone[0].getMessage()
    with judge.db.transaction() as session:
        assert session.get_one(InboundMail, mail_id).status == "done"
