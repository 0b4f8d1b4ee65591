"""Outgoing edge cases: a non-ASCII recipient, a transport that fails unexpectedly, the server's
own words in error reports, and a crash in the middle of writing to the Maildir."""

from __future__ import annotations

import email
import email.policy
import os
import socket
import subprocess
import sys
import threading
import zlib
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta
from email.message import EmailMessage
from pathlib import Path

import pytest
from sqlalchemy import event, select
from sqlalchemy.exc import OperationalError

from judge.bootstrap import database, open_database
from judge.mail.outbound import Attachment, MaildirOutbox
from judge.service.claimants import claimant, gone
from judge.service.config import Settings
from judge.service.outgoing.outbox import listings, message_of, queue
from judge.service.outgoing.sender import (
    DELIVERY_TIME,
    MAILDIR_TIME,
    MaildirTransport,
    OneByOne,
    RelayTransport,
    _claim,
    deliver_pending,
    recover,
)
from judge.store.database import Database
from judge.store.models import Blob, Game, Outbox
from tests.support.harness import fresh_database_url
from tests.support.people import GM
from tests.support.relay import Relay

NOW = datetime(2026, 3, 1, 9, 0)
ROOT = Path(__file__).resolve().parents[2]
JOERG = "j\u00f6rg@example.org"


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return Settings(data_dir=tmp_path, database=fresh_database_url())


@pytest.fixture
def db(settings: Settings) -> Database:
    return open_database(settings)


def mail_to(db: Database, settings: Settings, to: str, game: str = "edge1") -> int:
    """Queue a results mail of ``game`` (made if needed, with GM as its master) to ``to``; its outbox id."""
    with db.transaction() as session:
        row = session.scalars(select(Game).where(Game.name == game)).first()
        if row is None:
            row = Game(name=game, gm_address=GM, gm_password="-", seed=1, created_at=NOW)
            session.add(row)
            session.flush()
        return queue(session, settings, to=to, subject=f"{game} S1901M results", body="A PAR - BUR\n",
                     kind="results", now=NOW, game_id=row.id)


def outbox(db: Database) -> list[tuple[str, str, str, str | None]]:
    """(recipient, kind, status, last_error) of every outbox row, in order."""
    with db.transaction() as session:
        rows = session.scalars(select(Outbox).order_by(Outbox.id))
        return [(row.recipient, row.kind, row.status, row.last_error) for row in rows]


def via(server: Relay) -> RelayTransport:
    return RelayTransport("127.0.0.1", server.port, timeout=10)


# --- non-ASCII recipients ------------------------------------------------------------------------------


def test_non_ascii_recipient_is_sent_with_smtputf8_when_the_relay_offers_it(
        db: Database, settings: Settings, relay: Callable[..., Relay]) -> None:
    server = relay(smtputf8=True)
    mail_to(db, settings, JOERG)
    assert deliver_pending(db, settings, via(server), NOW) == 1
    assert outbox(db) == [(JOERG, "results", "sent", None)]
    envelope = server.envelopes[0]
    assert envelope.rcpt_tos == [JOERG] and "SMTPUTF8" in envelope.mail_options
    assert f"\r\nTo: {JOERG}\r\n".encode() in envelope.original_content  # RFC 6532 headers, not encoded words


def test_non_ascii_recipient_fails_at_once_and_the_gm_is_told_when_the_relay_lacks_smtputf8(
        db: Database, settings: Settings, relay: Callable[..., Relay]) -> None:
    server = relay(smtputf8=False)
    mail_to(db, settings, JOERG)
    deliver_pending(db, settings, via(server), NOW)  # the notice to the GM is queued...
    deliver_pending(db, settings, via(server), NOW)  # ... and sent
    error = f"the relay does not offer SMTPUTF8, needed for {JOERG}"
    assert outbox(db) == [(JOERG, "results", "failed", error), (GM, "bounce", "sent", None)]
    assert server.recipients == [GM]
    notice = email.message_from_bytes(server.envelopes[0].original_content, policy=email.policy.default)
    assert isinstance(notice, EmailMessage) and error in notice.get_content()  # quoted-printable: 7-bit safe


# --- unexpected failures --------------------------------------------------------------------------------


class Broken(OneByOne):
    """A transport with a bug."""

    delivery_time = DELIVERY_TIME
    batch = 1

    def send(self, sender: str, recipient: str, raw: bytes) -> None:
        raise RuntimeError("boom")

    def settle(self) -> None:
        pass

    def delivered(self) -> None:
        return None


def test_unexpected_transport_exception_fails_the_row_instead_of_leaving_it_sending(
        db: Database, settings: Settings) -> None:
    mail_to(db, settings, "fred@example.org")
    assert deliver_pending(db, settings, Broken(), NOW) == 0
    assert outbox(db) == [("fred@example.org", "results", "failed", "RuntimeError: boom"),
                          (GM, "bounce", "pending", None)]


def test_gm_address_the_message_cannot_carry_still_ends_the_row_failed(db: Database, settings: Settings) -> None:
    mail_to(db, settings, "fred@example.org")
    with db.transaction() as session:
        session.scalars(select(Game)).one().gm_address = "=?utf-8?q?gm=0D=0A?=@example.org"
    deliver_pending(db, settings, Broken(), NOW)
    assert outbox(db) == [("fred@example.org", "results", "failed", "RuntimeError: boom")]


# --- the server's words ------------------------------------------------------------------------------------


def test_refusal_is_reported_in_the_servers_words_not_a_bytes_repr(
        db: Database, settings: Settings, relay: Callable[..., Relay]) -> None:
    server = relay(smtputf8=True, refuse={"gone@example.org": "550 5.1.1 <gone@example.org>: no such user"})
    mail_to(db, settings, "gone@example.org")
    deliver_pending(db, settings, via(server), NOW)
    deliver_pending(db, settings, via(server), NOW)
    error = "550 5.1.1 <gone@example.org>: no such user"
    assert outbox(db) == [("gone@example.org", "results", "failed", error), (GM, "bounce", "sent", None)]
    body = server.envelopes[0].original_content
    assert error.encode() in body and b"b'" not in body


# --- Maildir recovery after a crash ---------------------------------------------------------------------------


def sending(db: Database, *ids: int) -> None:
    """Leave these rows as a crash in the middle of their delivery would."""
    with db.transaction() as session:
        for row_id in ids:
            row = session.get(Outbox, row_id)
            assert row is not None
            row.status, row.attempts = "sending", 1


def raw_of(db: Database, row_id: int) -> bytes:
    with db.transaction() as session:
        row = session.get(Outbox, row_id)
        assert row is not None
        return message_of(row, listing=listings(session, [row]).get(row.id))  # as the sender builds it


def test_maildir_crash_before_the_write_sends_again_and_after_it_marks_sent(db: Database, settings: Settings) -> None:
    maildir = MaildirOutbox(settings.maildir)
    written, lost = mail_to(db, settings, "fred@example.org"), mail_to(db, settings, "gus@example.org")
    sending(db, written, lost)
    maildir.deliver(raw_of(db, written))  # the crash came after this one was written, before the other
    partial = settings.maildir / "tmp" / "1772355600.M1P99Q1.host"
    partial.write_bytes(raw_of(db, lost)[:40])
    transport = MaildirTransport(maildir)
    recover(db, settings, transport, NOW)
    assert not partial.exists()
    assert [(to, status) for to, _, status, _ in outbox(db)] == [("fred@example.org", "sent"),
                                                                  ("gus@example.org", "pending")]
    assert deliver_pending(db, settings, transport, NOW) == 1
    assert maildir.messages() == [raw_of(db, written), raw_of(db, lost)]  # each once, nothing given up
    assert [status for _, _, status, _ in outbox(db)] == ["sent", "sent"]


def test_maildir_recovery_reads_the_maildir_once(
        db: Database, settings: Settings, monkeypatch: pytest.MonkeyPatch) -> None:
    maildir = MaildirOutbox(settings.maildir)
    ids = [mail_to(db, settings, f"p{i}@example.org") for i in range(5)]
    for row_id in ids[:3]:
        maildir.deliver(raw_of(db, row_id))
    sending(db, *ids)
    reads = []
    real = MaildirOutbox.message_ids

    def counted(self: MaildirOutbox) -> set[str]:
        reads.append(1)
        return real(self)

    monkeypatch.setattr(MaildirOutbox, "message_ids", counted)
    recover(db, settings, MaildirTransport(maildir), NOW)
    assert len(reads) == 1
    assert [status for _, _, status, _ in outbox(db)] == ["sent", "sent", "sent", "pending", "pending"]


def bytes_read() -> int:
    """What this process has read so far, in bytes (Linux's ``rchar``)."""
    return int(Path("/proc/self/io").read_text().split("rchar:")[1].split()[0])


@pytest.mark.skipif(not Path("/proc/self/io").exists(), reason="needs Linux's /proc/self/io")
def test_a_restart_reads_only_the_header_of_each_mail_in_the_maildir(db: Database, settings: Settings) -> None:
    """Found by `bench/season.py`: a Maildir holding 2,400 results with their maps (1.1 GB) was
    read whole at each start, which took longer than the judge was up between two kills."""
    maildir = MaildirOutbox(settings.maildir)
    for number in range(20):  # mails with their maps: a megabyte each
        maildir.deliver(f"Message-ID: <old{number}@localhost>\r\nSubject: maps\r\n\r\n".encode() + b"x" * 2**20)
    written, lost = mail_to(db, settings, "fred@example.org"), mail_to(db, settings, "gus@example.org")
    maildir.deliver(raw_of(db, written))
    sending(db, written, lost)
    before = bytes_read()
    recover(db, settings, MaildirTransport(maildir), NOW)
    assert bytes_read() - before < 2**20  # not one of the twenty bodies
    assert [status for _, _, status, _ in outbox(db)] == ["sent", "pending"]


def test_a_judge_restarting_while_another_delivers_does_not_send_its_mail_again(
        db: Database, settings: Settings) -> None:
    """Found by `bench/season.py` with two judges on one database: one restarted while the other
    was writing a results mail to the Maildir, and the mail went out twice."""
    mail_to(db, settings, "fred@example.org")
    maildir = MaildirOutbox(settings.maildir)
    inside, go_on = threading.Event(), threading.Event()

    class Busy(MaildirTransport):
        """The first judge, in the middle of this delivery when the other restarts."""

        def send_all(self, mails: Sequence[tuple[str, str, bytes]]) -> list[Exception | None]:
            inside.set()
            assert go_on.wait(30)
            return super().send_all(mails)

    first = threading.Thread(target=deliver_pending, args=(db, settings, Busy(maildir), NOW))
    first.start()
    assert inside.wait(30)
    other = database(settings.database_url)  # the other judge starts, and sends what is due
    recover(other, settings, MaildirTransport(maildir), NOW)
    deliver_pending(other, settings, MaildirTransport(maildir), NOW)
    go_on.set()
    first.join(30)
    assert len(maildir.messages()) == 1
    assert [status for _, _, status, _ in outbox(db)] == ["sent"]


def test_a_row_a_dead_judge_left_sending_goes_out_once_its_claim_is_old(db: Database, settings: Settings) -> None:
    maildir = MaildirOutbox(settings.maildir)
    row_id = mail_to(db, settings, "fred@example.org")
    sending(db, row_id)
    with db.transaction() as session:
        row = session.get(Outbox, row_id)
        assert row is not None
        row.next_attempt_at = NOW  # claimed now by a judge that died before writing it
    assert deliver_pending(db, settings, MaildirTransport(maildir), NOW + timedelta(seconds=20)) == 0  # maybe alive
    assert deliver_pending(db, settings, MaildirTransport(maildir), NOW + MAILDIR_TIME) == 1  # it is not
    assert deliver_pending(db, settings, MaildirTransport(maildir), NOW + 2 * MAILDIR_TIME) == 0
    assert len(maildir.messages()) == 1


def test_relay_crash_is_still_not_resent(db: Database, settings: Settings, relay: Callable[..., Relay]) -> None:
    server = relay(smtputf8=True)
    sending(db, mail_to(db, settings, "fred@example.org"))
    recover(db, settings, via(server), NOW)
    assert outbox(db)[0][2:] == ("failed", "interrupted while being sent; not resent to avoid a duplicate")
    assert outbox(db)[1][:3] == (GM, "bounce", "pending")


def test_a_body_with_nul_or_lone_surrogates_is_queued_and_sent_on_any_database(
        db: Database, settings: Settings) -> None:
    with db.transaction() as session:  # an echoed line of a malformed mail can carry both
        queue(session, settings, to="fred@example.org", subject="s", body="a\x00b\udc80c\n", kind="reply", now=NOW)
    assert deliver_pending(db, settings, MaildirTransport(MaildirOutbox(settings.maildir)), NOW) == 1
    message = email.message_from_bytes(MaildirOutbox(settings.maildir).messages()[0], policy=email.policy.default)
    assert isinstance(message, EmailMessage)
    assert message.get_content() == "a\ufffdb\ufffdc\n"


# --- the relay answering again ---------------------------------------------------------------------


def test_once_the_relay_takes_a_mail_the_deferred_ones_go_at_once(
        db: Database, settings: Settings, relay: Callable[..., Relay]) -> None:
    server = relay(smtputf8=False, refuse={"fred@example.org": "451 4.3.2 try again later"})
    first = mail_to(db, settings, "fred@example.org")
    assert deliver_pending(db, settings, via(server), NOW) == 0
    assert outbox(db)[0][2:] == ("pending", "451 4.3.2 try again later")  # deferred by its back-off
    server.refuse.clear()  # the relay is back
    mail_to(db, settings, "gus@example.org")
    assert deliver_pending(db, settings, via(server), NOW) == 2  # the new one, and the deferred one with it
    assert [row[2] for row in outbox(db)] == ["sent", "sent"] and server.recipients[-1] == "fred@example.org"
    with db.transaction() as session:
        assert session.get_one(Outbox, first).attempts == 2


def test_a_row_left_sending_through_a_relay_is_settled_only_once_a_relays_delivery_time_has_passed(
        db: Database, settings: Settings, relay: Callable[..., Relay]) -> None:
    server = relay(smtputf8=True)
    row_id = mail_to(db, settings, "fred@example.org")
    sending(db, row_id)
    with db.transaction() as session:
        row = session.get(Outbox, row_id)
        assert row is not None
        row.next_attempt_at = NOW  # claimed now: a relay may take minutes, the judge may be alive
    recover(db, settings, via(server), NOW + MAILDIR_TIME + timedelta(seconds=1))
    assert outbox(db)[0][2] == "sending"
    recover(db, settings, via(server), NOW + DELIVERY_TIME)
    assert outbox(db)[0][2] == "failed"


@pytest.mark.skipif(not os.environ.get("JUDGE_TEST_DATABASE_URL"),
                    reason="row locks that another judge holds: PostgreSQL (JUDGE_TEST_DATABASE_URL)")
def test_a_row_another_judge_is_settling_is_left_to_it(db: Database, settings: Settings) -> None:
    maildir = MaildirOutbox(settings.maildir)
    row_id = mail_to(db, settings, "fred@example.org")
    sending(db, row_id)  # left by a dead judge, long ago
    other = database(settings.database_url)
    try:
        with other.transaction() as session:  # the other live judge, settling it at this moment
            session.execute(select(Outbox).where(Outbox.id == row_id).with_for_update())
            assert deliver_pending(db, settings, MaildirTransport(maildir), NOW) == 0
        assert [status for _, _, status, _ in outbox(db)] == ["sending"]  # not put back twice
    finally:
        other.engine.dispose()
    assert deliver_pending(db, settings, MaildirTransport(maildir), NOW) == 1
    assert len(maildir.messages()) == 1


def test_into_the_maildir_rows_are_claimed_and_marked_sent_a_batch_at_a_time(
        db: Database, settings: Settings) -> None:
    maildir = MaildirOutbox(settings.maildir)
    for number in range(125):
        mail_to(db, settings, f"player{number}@example.org")
    commits: list[int] = []
    event.listen(db.engine, "commit", lambda _connection: commits.append(1))
    assert deliver_pending(db, settings, MaildirTransport(maildir), NOW) == 125
    # settling, the rows due, each batch of 100 claimed and marked (2 x 2), the deferred rows due
    # again: 7 commits, where a commit before and after each mail made 253
    assert len(commits) == 7
    assert len(maildir.messages()) == 125 and {status for _, _, status, _ in outbox(db)} == {"sent"}


def test_a_claimed_batchs_messages_are_built_and_written_twenty_at_a_time(db: Database, settings: Settings) -> None:
    """A hundred rows are claimed at once, but only twenty messages are held at once: a hundred
    results mails with their maps took the judge 170 MB more in a deadline evening."""
    handed: list[int] = []

    class Counting(MaildirTransport):
        def send_all(self, mails: Sequence[tuple[str, str, bytes]]) -> list[Exception | None]:
            handed.append(len(mails))
            return super().send_all(mails)

    maildir = MaildirOutbox(settings.maildir)
    for number in range(45):
        mail_to(db, settings, f"player{number}@example.org")
    assert deliver_pending(db, settings, Counting(maildir), NOW) == 45
    assert handed == [20, 20, 5]
    assert len(maildir.messages()) == 45 and {status for _, _, status, _ in outbox(db)} == {"sent"}


# --- each address's mail in the order it was queued ---------------------------------------------------------


def results_of(maildir: MaildirOutbox, to: str) -> list[str]:
    """The subjects of the mail to ``to`` in the Maildir, in the order they were written."""
    found = []
    for path in sorted((maildir.path / "new").iterdir(), key=lambda path: path.stat().st_mtime_ns):
        message = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
        if message["To"] == to:
            found.append(str(message["Subject"]))
    return found


KILLED_SENDER = """
import sys, time
from pathlib import Path
from datetime import datetime
from judge.bootstrap import database
from judge.mail.outbound import MaildirOutbox
from judge.service.config import Settings
from judge.service.outgoing.sender import MaildirTransport, deliver_pending

class Stuck(MaildirTransport):
    def send_all(self, mails):
        print("claimed", flush=True)
        time.sleep(600)

settings = Settings(data_dir=Path(sys.argv[1]), database=sys.argv[2])
deliver_pending(database(settings.database_url), settings, Stuck(MaildirOutbox(settings.maildir)),
                datetime.fromisoformat(sys.argv[3]))
"""


def test_a_judge_killed_while_sending_results_sends_them_at_its_start_before_the_next_phases(
        db: Database, settings: Settings) -> None:
    """kill -9 in the middle of writing S1901M's results: the claims of the killed process are
    fresh (written a second before the restart, far less than the 30 s after which any judge takes
    a claim for a dead one's).  The judge started again on this machine settles them at once, and
    each player gets S1901M's results before F1901M's, which the restarted judge queued since."""
    for to in ("fred@example.org", "gus@example.org"):
        mail_to(db, settings, to)
    killed = subprocess.Popen([sys.executable, "-c", KILLED_SENDER, str(settings.data_dir), settings.database_url,
                               NOW.isoformat()], stdout=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        assert killed.stdout is not None and killed.stdout.readline() == "claimed\n"
    finally:
        killed.kill()  # SIGKILL: nothing of it runs after this
        killed.wait(30)
    assert [status for _, _, status, _ in outbox(db)] == ["sending", "sending"]  # both claimed, none written
    with db.transaction() as session:
        game = session.scalars(select(Game)).one()
        for to in ("fred@example.org", "gus@example.org"):
            queue(session, settings, to=to, subject="edge1 F1901M results", body="A BUR - MUN\n", kind="results",
                  now=NOW, game_id=game.id)
    maildir = MaildirOutbox(settings.maildir)
    restarted = NOW + timedelta(seconds=1)
    recover(db, settings, MaildirTransport(maildir), restarted)  # the judge's start
    assert deliver_pending(db, settings, MaildirTransport(maildir), restarted) == 4
    for to in ("fred@example.org", "gus@example.org"):
        assert results_of(maildir, to) == ["edge1 S1901M results", "edge1 F1901M results"]


def test_mail_to_an_address_waits_while_another_judge_hands_over_an_older_one_to_it(
        db: Database, settings: Settings) -> None:
    """Two judges on one database: while the first hands over S1901M's results to fred (slowly),
    the second sends F1901M's results to gus but not fred's, whose older mail is still on its way;
    once it is there, fred's new one follows."""
    older = mail_to(db, settings, "fred@example.org")
    maildir = MaildirOutbox(settings.maildir)
    inside, go_on = threading.Event(), threading.Event()

    class Slow(MaildirTransport):
        def send_all(self, mails: Sequence[tuple[str, str, bytes]]) -> list[Exception | None]:
            inside.set()
            assert go_on.wait(30)
            return super().send_all(mails)

    first = threading.Thread(target=deliver_pending, args=(db, settings, Slow(maildir), NOW))
    first.start()
    try:
        assert inside.wait(30)
        newer = mail_to(db, settings, "fred@example.org", game="edge2")
        other = mail_to(db, settings, "gus@example.org", game="edge2")
        second = database(settings.database_url)
        assert deliver_pending(second, settings, MaildirTransport(maildir), NOW) == 1
        with db.transaction() as session:
            assert [session.get_one(Outbox, row_id).status for row_id in (older, newer, other)] == \
                ["sending", "pending", "sent"]
    finally:
        go_on.set()
        first.join(30)
    assert deliver_pending(second, settings, MaildirTransport(maildir), NOW) == 1
    assert results_of(maildir, "fred@example.org") == ["edge1 S1901M results", "edge2 S1901M results"]


def test_mail_handed_over_as_the_database_went_away_is_recorded_sent_at_the_next_pass(
        db: Database, settings: Settings, monkeypatch: pytest.MonkeyPatch) -> None:
    """The database stops between the Maildir taking S1901M's results to fred and the sender
    recording it (PostgreSQL stopped just after a deadline).  Once the database is back, the
    next pass records it sent, without writing it again, and fred's next mail is not held
    behind it (left ``sending``, it held every later mail to fred for the transport's delivery
    time: five minutes behind a relay)."""
    older = mail_to(db, settings, "fred@example.org")
    maildir = MaildirOutbox(settings.maildir)
    working = db.transaction

    def down() -> None:
        raise OperationalError("UPDATE outbox", None, ConnectionRefusedError("the database stopped"))

    class CutOff(MaildirTransport):
        def send_all(self, mails: Sequence[tuple[str, str, bytes]]) -> list[Exception | None]:
            taken = super().send_all(mails)
            monkeypatch.setattr(db, "transaction", down)
            return taken

    with pytest.raises(OperationalError):
        deliver_pending(db, settings, CutOff(maildir), NOW)
    monkeypatch.setattr(db, "transaction", working)
    newer = mail_to(db, settings, "fred@example.org", game="edge2")
    assert deliver_pending(db, settings, MaildirTransport(maildir), NOW) == 1  # the newer one: the older is recorded
    assert results_of(maildir, "fred@example.org") == ["edge1 S1901M results", "edge2 S1901M results"]
    with db.transaction() as session:
        assert [session.get_one(Outbox, row_id).status for row_id in (older, newer)] == ["sent", "sent"]


def test_a_claim_skips_a_mail_behind_an_older_one_to_its_address_that_another_sender_is_about_to_take(
        db: Database, settings: Settings) -> None:
    """The older mail is still pending, due, and in no batch of this sender (another judge has it
    in its batch and will claim it next): this sender leaves the newer one.  In one batch the two
    go together, in order; and a mail deferred after a refusal holds nothing back."""
    older = mail_to(db, settings, "fred@example.org")
    newer = mail_to(db, settings, "fred@example.org", game="edge2")
    assert _claim(db, [newer], NOW, NOW) == ([], {})
    with db.transaction() as session:
        session.get_one(Outbox, older).next_attempt_at = NOW + timedelta(minutes=5)  # refused: its next try later
    assert [row.id for row in _claim(db, [newer], NOW, NOW)[0]] == [newer]
    with db.transaction() as session:
        session.get_one(Outbox, older).next_attempt_at = None
        session.get_one(Outbox, newer).status = "pending"
    assert [row.id for row in _claim(db, [older, newer], NOW, NOW)[0]] == [older, newer]


def test_a_claim_of_a_process_still_alive_or_of_another_machine_is_not_taken_for_a_dead_one() -> None:
    assert not gone(claimant())  # this very process
    assert not gone(f"elsewhere.example pid {os.getpid()} started 1")  # another machine's
    assert not gone(None) and not gone("")
    assert gone(f"{socket.gethostname()} pid {os.getpid()} started 0")  # this id, but a process of another moment


def test_a_map_stored_compressed_is_unpacked_once_for_a_batch_and_every_mail_carries_it_whole(
        db: Database, settings: Settings, monkeypatch: pytest.MonkeyPatch) -> None:
    """Three results mails of one batch carry the same SVG map, kept compressed (text: zlib); the
    sender unpacks it once for the three, and each mail carries the map as drawn."""
    svg = b"<svg>" + b"<path d='M 1 2 L 3 4'/>" * 500 + b"</svg>"
    with db.transaction() as session:
        game = Game(name="edge1", gm_address=GM, gm_password="-", seed=1, created_at=NOW)
        session.add(game)
        session.flush()
        for to in ("a@example.org", "b@example.org", "c@example.org"):
            queue(session, settings, to=to, subject="edge1 S1901M results", body="A PAR - BUR\n", kind="results",
                  now=NOW, game_id=game.id, attachments=[Attachment("edge1-S1901M.svg", "image/svg+xml", svg)])
    with db.transaction() as session:
        assert session.scalars(select(Blob.encoding)).all() == ["zlib"]
    unpacked: list[int] = []
    decompress = zlib.decompress

    def counted(data: bytes) -> bytes:
        unpacked.append(len(data))
        return decompress(data)

    monkeypatch.setattr(zlib, "decompress", counted)
    assert deliver_pending(db, settings, MaildirTransport(MaildirOutbox(settings.maildir)), NOW) == 3
    assert len(unpacked) == 1
    mails = [email.message_from_bytes(raw, policy=email.policy.default)
             for raw in MaildirOutbox(settings.maildir).messages()]
    assert sorted(str(mail["To"]) for mail in mails) == ["a@example.org", "b@example.org", "c@example.org"]
    for mail in mails:
        assert isinstance(mail, EmailMessage)
        assert [part.get_content() for part in mail.iter_attachments()] == [svg]
