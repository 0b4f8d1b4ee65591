"""A full disk during a deadline: the phase is processed and its results mailed, but the database
will not store the maps; the judge keeps them in memory and stores them with their mails once there
is room again, while the mails have not left.  A mail that left without them stays sent, and is
never sent again.

The full disk is made, never by filling the machine's disk, but as it shows itself to the judge:
SQLite held to the size it has says "database or disk is full" for the maps, and writing a mail into
the Maildir, on the same disk, fails with ENOSPC (`Disk`); in `judge serve`'s processes, storing a
blob fails so (`tests.kinds.full_disk`)."""

from __future__ import annotations

import email
import email.policy
import errno
import logging
from collections.abc import Iterator, Sequence
from dataclasses import replace
from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import Connection, event, select

from judge.bootstrap import hosted, registry
from judge.mail.outbound import Attachment, MaildirOutbox
from judge.service.config import Settings
from judge.service.outgoing import outbox, sender
from judge.service.outgoing.outbox import DRAWING_TIME, Drawings, Kept
from judge.service.outgoing.sender import deliver_pending, transport_for
from judge.service.running.app import run_deadlines
from judge.store.models import Blob, Outbox
from tests.kinds.full_disk import FullDisk, refusing
from tests.support.auction import auction_judge
from tests.support.clock import Clock
from tests.support.daemon import Running
from tests.support.harness import Judge, once, two_player_game
from tests.support.people import GM
from tests.support.wait import wait_until

RESULTS = ("g1 S1901M results", "g1 S1901M chart")  # the players', and the game master's
MAPS = ["g1-F1901M.png", "g1-F1901M.svg", "g1-S1901M-orders.png"]  # sorted
DEADLINE = 49  # hours after the start: S1901M's deadline has passed, nobody sent orders


ROOM = 10  # pages of 4 KB a full SQLite database may still take: a phase's change (5 are too few), not its maps


class Disk:
    """The disk the judge's database and Maildir are on, ``full`` or not.  While it is full the
    Maildir refuses every mail (ENOSPC), and the database what does not fit in what is left: on
    SQLite, itself, held to the pages it has and `ROOM` more (``max_page_count``), so that a
    phase's change is written and its maps are not, with SQLite's own "database or disk is full",
    as in the finding; elsewhere (PostgreSQL), every blob, with SQLite's words."""

    def __init__(self, judge: Judge, monkeypatch: pytest.MonkeyPatch, maildir: bool = True) -> None:
        self.marker = judge.settings.data_dir.parent / "full"  # there while the disk is full
        delivered = MaildirOutbox.deliver_all

        def deliver_all(self_: MaildirOutbox, messages: Sequence[bytes]) -> list[str | OSError]:
            if self.full:
                return [OSError(errno.ENOSPC, "No space left on device") for _ in messages]
            return delivered(self_, messages)

        if maildir:
            monkeypatch.setattr(MaildirOutbox, "deliver_all", deliver_all)
        engine = judge.db.engine
        if engine.dialect.name != "sqlite":
            monkeypatch.setattr(outbox, "blob", refusing(self.marker, outbox.blob))
            return

        def begin(connection: Connection) -> None:
            pages = connection.exec_driver_sql("PRAGMA page_count").scalar()
            connection.exec_driver_sql(f"PRAGMA max_page_count = {int(pages or 0) + ROOM if self.full else 2**30}")

        event.listen(engine, "begin", begin)

    @property
    def full(self) -> bool:
        return self.marker.exists()

    @full.setter
    def full(self, full: bool) -> None:
        if full:
            self.marker.touch()
        else:
            self.marker.unlink()


@pytest.fixture
def seconds(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """The sender's own clock, which says how long a mail has waited for its maps (`Drawings`)."""
    clock = [1000.0]
    monkeypatch.setattr(sender, "DRAWINGS", Drawings(clock=lambda: clock[0]))
    return clock


@pytest.fixture(autouse=True)
def _log(caplog: pytest.LogCaptureFixture) -> Iterator[None]:
    """The judge's lines, for the assertions; and nothing kept from one test to the next (`outbox.KEPT`)."""
    caplog.set_level(logging.INFO, logger="judge")
    outbox.KEPT.hand_over()
    yield
    outbox.KEPT.hand_over()


def send(judge: Judge) -> int:
    """One pass of the judge's sender, at the judge's time: how many mails it handed over."""
    return deliver_pending(judge.db, judge.settings, transport_for(judge.settings), judge.now)


def statuses(judge: Judge) -> dict[str, int]:
    """How many of the phase's results mails (the master's chart too) are in each status."""
    with judge.db.transaction() as session:
        found = list(session.scalars(select(Outbox.status).where(Outbox.subject.in_(RESULTS))))
    return {status: found.count(status) for status in sorted(set(found))}


def results(judge: Judge) -> list[tuple[str, list[str]]]:
    """The phase's results mails that left (the master's chart too), each with the names of its files."""
    return [(mail.to, sorted(mail.attachments)) for mail in judge.all_mail() if mail.subject in RESULTS]


def logged(caplog: pytest.LogCaptureFixture, words: str) -> list[str]:
    return [record.getMessage() for record in caplog.records if words in record.getMessage()]


def test_maps_the_full_disk_refused_follow_their_mails_once_there_is_room_if_the_mails_have_not_left(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, seconds: list[float],
        caplog: pytest.LogCaptureFixture) -> None:
    """The finding: the results went without their maps, which never followed.  Here the Maildir is
    on the full disk too: the mails cannot leave, and once there is room they go with their maps."""
    judge = two_player_game(Judge(tmp_path, maps=True, maps_default="all"))
    disk = Disk(judge, monkeypatch)
    disk.full = True
    judge.later(DEADLINE)
    assert "g1 S1901M processed; next F1901M" in run_deadlines(judge.db, judge.settings, judge.now)
    assert statuses(judge) == {"drawing": 3}  # the players' and the master's, waiting for their maps
    assert logged(caplog, "could not be stored") == [
        "the maps of 3 mail(s) of g1 could not be stored (database or disk is full); the judge keeps them and "
        "attaches them to those mails once the database takes them, if the mails have not left by then"]
    assert send(judge) == 0  # still full: the mails wait for their maps
    seconds[0] += DRAWING_TIME  # two minutes: they would go without, but the Maildir refuses them
    assert send(judge) == 0 and statuses(judge) == {"pending": 3}
    assert logged(caplog, "waited") == ["3 mail(s) waited 120 s for their maps, which the database refused; they "
                                        "go without them, unless the maps are stored before they leave"]
    disk.full = False  # the operator made room
    judge.later(1)  # the Maildir's next try
    assert send(judge) == 3
    assert results(judge) == [("alice@example.org", MAPS), ("bob@example.org", MAPS), ("gm@example.org", MAPS)]
    assert logged(caplog, "attached") == ["the maps of 3 mail(s), which the database had refused, are stored and "
                                          "attached: those mails go with their maps"]
    assert outbox.KEPT.hand_over() == []


def test_maps_stored_before_their_mails_waited_two_minutes_go_with_them_at_once(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, seconds: list[float],
        caplog: pytest.LogCaptureFixture) -> None:
    """Room made within `DRAWING_TIME`: the mails, still waiting for their maps, get them at the
    sender's next pass and go."""
    judge = two_player_game(Judge(tmp_path, maps=True, maps_default="all"))
    disk = Disk(judge, monkeypatch)
    disk.full = True
    judge.later(DEADLINE)
    run_deadlines(judge.db, judge.settings, judge.now)
    assert send(judge) == 0
    disk.full = False
    seconds[0] += DRAWING_TIME - 1
    assert send(judge) == 3
    assert results(judge) == [("alice@example.org", MAPS), ("bob@example.org", MAPS), ("gm@example.org", MAPS)]
    assert logged(caplog, "waited") == []
    assert len(logged(caplog, "attached")) == 1


def test_a_mail_that_left_without_its_maps_while_the_disk_was_full_stays_sent_and_is_never_sent_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, seconds: list[float],
        caplog: pytest.LogCaptureFixture) -> None:
    """The database's disk is full, the mail can still leave (a relay, or a Maildir on another disk):
    after two minutes the results go as text; once there is room, nothing is sent again and the maps
    kept for them are dropped, not stored."""
    judge = two_player_game(Judge(tmp_path, maps=True))
    disk = Disk(judge, monkeypatch, maildir=False)
    with judge.db.transaction() as session:
        blobs = set(session.scalars(select(Blob.sha256)))
    disk.full = True
    judge.later(DEADLINE)
    run_deadlines(judge.db, judge.settings, judge.now)
    assert send(judge) == 0
    seconds[0] += DRAWING_TIME
    assert send(judge) == 3 and statuses(judge) == {"sent": 3}
    assert results(judge) == [("alice@example.org", []), ("bob@example.org", []), ("gm@example.org", [])]
    disk.full = False
    assert send(judge) == 0 and statuses(judge) == {"sent": 3}
    assert len(results(judge)) == 3
    assert logged(caplog, "left without") == ["3 mail(s) left without their maps before the database took them; "
                                              "the maps kept for them are dropped"]
    assert logged(caplog, "attached") == [] and outbox.KEPT.hand_over() == []
    with judge.db.transaction() as session:
        assert set(session.scalars(select(Blob.sha256))) == blobs


MB = 2**20


def test_the_judge_keeps_at_most_keep_bytes_of_refused_maps_and_the_mails_of_the_rest_go_without(
        caplog: pytest.LogCaptureFixture) -> None:
    """A map carried by several mails counts once.  At most 2 MB: a phase of two mails carrying one
    map of 1 MB (1 MB kept), then a phase of one mail with a map of 1 MB (2 MB), then one with a map
    of a byte (2 MB and a byte: not kept)."""
    kept = Kept(most=2 * MB)
    shared = Attachment("g1-F1901M.png", "image/png", b"m" * MB)
    first = [(1, "<1@judge.test>", (shared,)), (2, "<2@judge.test>", (shared,))]
    second = [(3, "<3@judge.test>", (Attachment("g2-F1901M.png", "image/png", b"m" * MB),))]
    third = [(4, "<4@judge.test>", (Attachment("g3-F1901M.png", "image/png", b"m"),))]
    kept.take([first, second, third])
    assert kept.waiting() == {1, 2, 3}
    assert logged(caplog, "not kept") == ["the maps of 1 mail(s) are not kept: the judge keeps 2 MB of maps at "
                                          "most; those mails go without them"]
    assert kept.hand_over() == [first, second] and kept.waiting() == set()


PATIENCE = 90.0  # seconds: far beyond what a worker's start and a few sender passes take on a loaded machine


def _two_auctions(judge: Judge) -> None:
    for number in range(2):
        judge.send(GM, f"CREATE g{number} gm-secret auction")
        for seat in ("alice", "bob"):
            judge.send(f"{seat}{number}@example.org", f"JOIN g{number} {seat}-pw {seat.capitalize()}")
        judge.send(GM, f"SIGNON MASTER@g{number} gm-secret\nSTART")


def maps_sent(settings: Settings) -> dict[str, list[str]]:
    """The maps' mails in the Maildir: each one's subject, and its files' names."""
    mails = [email.message_from_bytes(raw, policy=email.policy.default)
             for raw in MaildirOutbox(settings.maildir).messages()]
    return {str(mail["Subject"]): [str(part.get_filename()) for part in mail.iter_attachments()]  # type: ignore[attr-defined]
            for mail in mails if str(mail["Subject"]).endswith(" map")}


@pytest.mark.database
def test_in_judge_serve_the_maps_a_worker_or_the_applier_could_not_store_follow_through_the_daemons_sender(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    """The deadline worker that sold g0's lot at its deadline, and the applier that sold g1's once
    every bid was in, are processes of their own: each hands the map the database refused to the
    daemon, whose sender stores it and sends its mail once there is room."""
    judge = once(auction_judge(tmp_path, max_creates_per_day=2, max_creates_per_hour=2), _two_auctions)
    judge.db.engine.dispose()
    full = tmp_path / "full"
    monkeypatch.setattr(outbox, "blob", refusing(full, outbox.blob))  # the daemon's process: this one
    monkeypatch.setattr(sender, "DRAWINGS", Drawings(clock=lambda: 0.0))  # the mails wait, however slow the test
    settings = replace(judge.settings, port=0, tick_seconds=3600, deadline_workers=1, mta_flush=None,
                       log_file=tmp_path / "judge.log")
    clock = Clock(judge.now)
    running = Running(settings, clock, registry([*hosted(), FullDisk(full)]))
    try:
        running.settled()
        full.touch()
        running.send("alice1@example.org", "SIGNON Alice@g1 alice-pw\nBID 1", subject="bid")
        running.send("bob1@example.org", "SIGNON Bob@g1 bob-pw\nBID 2", subject="bid")  # the last bid: sold
        clock.now += timedelta(hours=25)  # g0's lot's deadline
        running.tick()
        wait_until(lambda: len(outbox.KEPT.waiting()) == 2, "both maps kept by the daemon", PATIENCE)
        running.settled()
        assert maps_sent(settings) == {}  # they wait for their maps
        full.unlink()  # room made
        running.settled()  # the sender's next pass stores the maps before it sends anything
        assert maps_sent(settings) == {"g0 L1 map": ["g0-L1.png"], "g1 L1 map": ["g1-L1.png"]}
    finally:
        running.stop()
    lines = (tmp_path / "judge.log").read_text()  # the worker's and the applier's
    assert [lines.count(f"the maps of 1 mail(s) of {game} could not be stored (database or disk is full)")
            for game in ("g0", "g1")] == [1, 1]
    assert logged(caplog, "attached") == ["the maps of 2 mail(s), which the database had refused, are stored and "
                                          "attached: those mails go with their maps"]
