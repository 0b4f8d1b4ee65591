"""Bounces: every mail leaves with its own VERP envelope sender (``judge+b<token><tag>@domain``, the
token the outbox id enciphered, the tag an HMAC of the id), the judge takes ``judge+TAG@domain``,
and a delivery status notification that comes back (a real one from Postfix:
``tests/mail/eml/postfix_bounce.eml``) marks its mail failed and is reported, the server's words
quoted as its own. A forged one does nothing (issue 22.4)."""

from __future__ import annotations

import email
import email.policy
import re
from collections.abc import Callable
from datetime import datetime
from email.message import EmailMessage
from pathlib import Path

import pytest
from sqlalchemy import select

from judge.bootstrap import open_database
from judge.mail.dsn import VERP_TAG, delivered_to, delivery_report, verp_address, verp_outbox_id, verp_tag
from judge.mail.smtp_in import judge_addresses
from judge.service.config import Settings
from judge.service.outgoing.outbox import message_of, queue
from judge.service.outgoing.sender import (
    MAX_QUOTED,
    RelayTransport,
    deliver_pending,
    envelope_sender,
    transport_for,
    verp_key,
)
from judge.service.running.app import inject
from judge.store.database import Database
from judge.store.models import Game, InboundMail, Outbox
from tests.support.auction import auction_judge, start_auction
from tests.support.clock import Clock
from tests.support.daemon import Running, maildir_subjects
from tests.support.flowed import meant
from tests.support.harness import fresh_database_url, raw_mail
from tests.support.relay import Relay
from tests.support.wait import wait_until

FIXTURE = Path(__file__).parents[1] / "mail" / "eml" / "postfix_bounce.eml"
NOW = datetime(2026, 11, 22, 11, 11)
DOMAIN = "payola.example"
GM = "gm@players.example"
ADMIN = "admin@players.example"
NOBODY = "nobody@players.example"
FIXTURE_ID = "<179534588899.14893.1853792508430813173@payola.example>"  # the returned message's id


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return Settings(data_dir=tmp_path, database=fresh_database_url(), domain=DOMAIN, admin=ADMIN)


@pytest.fixture
def db(settings: Settings) -> Database:
    return open_database(settings)


@pytest.fixture
def relay(relay: Callable[..., Relay]) -> Relay:
    """One relay that accepts everything (the plugin's `relay` fixture, started once)."""
    return relay()


def queued(db: Database, settings: Settings, to: str, *, game: bool = True, kind: str = "results",
           in_reply_to: str | None = None) -> Outbox:
    """A mail queued to ``to`` (in the game ``bounce1`` of GM, or in none), and sent to the Maildir."""
    with db.transaction() as session:
        game_id = None
        if game:
            row = session.scalars(select(Game).where(Game.name == "bounce1")).first()
            if row is None:
                row = Game(name="bounce1", gm_address=GM, gm_password="-", seed=1, created_at=NOW)
                session.add(row)
                session.flush()
            game_id = row.id
        mail = queue(session, settings, to=to, subject="bounce1 S1901M results", body="A PAR - BUR\n", kind=kind,
                     now=NOW, game_id=game_id, in_reply_to=in_reply_to)
    deliver_pending(db, settings, transport_for(settings), NOW)
    return outbox_row(db, mail)


def outbox_row(db: Database, row_id: int) -> Outbox:
    with db.transaction() as session:
        row = session.get(Outbox, row_id)
        assert row is not None
        return row


def notices(db: Database) -> list[tuple[str, str, str]]:
    """(recipient, subject, text) of every report of a failure, the text decoded."""
    with db.transaction() as session:
        rows = session.scalars(select(Outbox).where(Outbox.kind == "bounce").order_by(Outbox.id))
        found = []
        for row in rows:
            message = email.message_from_bytes(message_of(row), policy=email.policy.default)
            assert isinstance(message, EmailMessage)
            found.append((row.recipient, row.subject, meant(str(message.get_content()))))
        return found


def key_of(db: Database) -> bytes:
    with db.transaction() as session:
        return verp_key(session)


def said_in(text: str) -> str:
    """The server's words a report of a failure quotes, its "> " lines joined."""
    return " ".join(line[2:] for line in text.splitlines() if line.startswith("> "))


def bounce_of(row: Outbox, db: Database, settings: Settings, fixture: bytes | None = None,
              address: str | None = None) -> bytes:
    """The Postfix bounce of the fixture, made to report ``row``: its VERP address (or ``address``)
    and its Message-ID."""
    raw = fixture or FIXTURE.read_bytes()
    message_id = row.message_id
    assert message_id is not None
    address = address or envelope_sender(settings, row.id, key_of(db))
    return (raw.replace(f"judge+b2@{DOMAIN}".encode(), address.encode())
            .replace(FIXTURE_ID.encode(), message_id.encode()))


# --- VERP and plus addresses --------------------------------------------------------------------------


def test_every_mail_leaves_with_its_own_verp_envelope_sender(db: Database, settings: Settings, relay: Relay) -> None:
    with db.transaction() as session:
        ids = [queue(session, settings, to="fred@example.org", subject="a", body="a\n", kind="notice", now=NOW),
               queue(session, settings, to="gus@example.org", subject="b", body="b\n", kind="notice", now=NOW)]
    assert deliver_pending(db, settings, RelayTransport("127.0.0.1", relay.port, timeout=10), NOW) == 2
    senders = [envelope.mail_from for envelope in relay.envelopes]
    for sender in senders:
        assert re.fullmatch(rf"judge\+b[0-9a-f]{{{2 * VERP_TAG}}}@{DOMAIN}", sender), sender
    assert [verp_outbox_id(sender, "judge", DOMAIN, key_of(db)) for sender in senders] == ids


def test_two_answers_envelope_senders_tell_nothing_of_how_many_mails_went_out_between(
        tmp_path: Path, relay: Relay) -> None:
    """Alice sends STATUS, Bob a bid and STATUS, Alice STATUS again: her two answers are outbox
    rows 2 apart, which their envelope senders must not tell her (nor their order: the token is
    the id enciphered); the judge still reads each back to its row."""
    judge = start_auction(auction_judge(tmp_path, domain=DOMAIN, relay=f"127.0.0.1:{relay.port}"))
    judge.new_mail()
    relay.envelopes.clear()
    judge.send("alice@example.org", "SIGNON Alice@g1 alice-pw\nSTATUS")
    judge.send("bob@example.org", "SIGNON Bob@g1 bob-pw\nBID 1")
    judge.send("bob@example.org", "SIGNON Bob@g1 bob-pw\nSTATUS")
    judge.send("alice@example.org", "SIGNON Alice@g1 alice-pw\nSTATUS")
    judge.deliver()
    senders = [envelope.mail_from for envelope in relay.envelopes if envelope.rcpt_tos == ["alice@example.org"]]
    ids = [verp_outbox_id(sender, "judge", DOMAIN, key_of(judge.db)) for sender in senders]
    assert len(senders) == 2 and ids[0] is not None and ids[1] == ids[0] + 3
    tokens = [int(re.fullmatch(rf"judge\+b([0-9a-f]{{{VERP_TAG}}})[0-9a-f]{{{VERP_TAG}}}@{DOMAIN}", sender)[1], 16)
              for sender in senders]  # no id in plain digits
    assert tokens[1] - tokens[0] != 3
    other = verp_address("judge", DOMAIN, ids[0], b"another judge's key")
    assert other != senders[0] and verp_outbox_id(other, "judge", DOMAIN, key_of(judge.db)) is None  # keyed


def test_the_tag_key_is_the_databases_shared_by_its_processes_and_kept_across_restarts(
        db: Database, settings: Settings, tmp_path: Path) -> None:
    again = open_database(settings)  # another process on the same database, or the judge restarted
    assert key_of(again) == key_of(db) and len(key_of(db)) >= 32
    other = open_database(Settings(data_dir=tmp_path / "other", database=fresh_database_url(schema=False),
                                   domain=DOMAIN))  # a database made afresh, not a copy
    assert key_of(other) != key_of(db)  # drawn when the database was made, not built in
    assert envelope_sender(settings, 7, key_of(db)) != envelope_sender(settings, 7, key_of(other))


def test_the_judge_takes_judge_plus_a_tag_and_nothing_else() -> None:
    accepts = judge_addresses(DOMAIN)
    for address in ("judge@payola.example", "<judge+b12@payola.example>", "JUDGE+game1@Payola.Example",
                    "judge+@payola.example"):
        assert accepts(address), address
    for address in ("judgex@payola.example", "judge+a b@payola.example", "judge+x\n@payola.example",
                    "other+judge@payola.example", "judge@payola.example.org", "judge+x@other.example"):
        assert not accepts(address), address


def test_mail_to_judge_plus_a_tag_is_answered_and_its_envelope_recipient_kept(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path, database=fresh_database_url(), port=0, tick_seconds=3600)
    judge = Running(settings, Clock())
    try:
        judge.send("fred@example.org", "HELP", to="judge+game1@localhost")
        wait_until(lambda: "Re: orders" in maildir_subjects(settings))
        with judge.daemon.db.transaction() as session:
            raw = session.scalars(select(InboundMail.raw)).one()
        assert raw.startswith(b"Delivered-To: judge+game1@localhost\r\n")
        assert delivered_to(raw) == "judge+game1@localhost"
    finally:
        judge.stop()


# --- reading a delivery status notification ---------------------------------------------------------------


def test_a_postfix_bounce_is_read_in_the_servers_words() -> None:
    report = delivery_report(FIXTURE.read_bytes())
    assert report is not None and report.original_message_id == FIXTURE_ID
    [failure] = report.failures
    assert (failure.recipient, failure.status) == (NOBODY, "5.1.1")
    assert failure.diagnostic == 'unknown user: "nobody@players.example"'
    assert failure.describe() == 'unknown user: "nobody@players.example" (status 5.1.1, reported by mail.example.net)'
    assert delivered_to(FIXTURE.read_bytes()) == "judge+b2@payola.example"


def test_only_failed_recipients_are_failures_and_other_mail_is_no_report() -> None:
    delayed = FIXTURE.read_bytes().replace(b"Action: failed", b"Action: delayed")
    report = delivery_report(delayed)
    assert report is not None and report.failures == ()
    assert delivery_report(raw_mail("fred@example.org", "HELP")) is None
    assert delivery_report(b"\xff\x00 not mail at all") is None


# --- acting on it --------------------------------------------------------------------------------------------


def test_a_bounce_marks_its_mail_failed_and_tells_the_game_master(db: Database, settings: Settings) -> None:
    row = queued(db, settings, NOBODY)
    assert row.status == "sent"
    assert inject(db, settings, bounce_of(row, db, settings), NOW, envelope_from="") == "automatic"  # never answered
    failed = outbox_row(db, row.id)
    assert failed.status == "failed"
    assert failed.last_error == 'unknown user: "nobody@players.example" (status 5.1.1, reported by mail.example.net)'
    [(to, subject, text)] = notices(db)
    assert (to, subject) == (GM, "bounce1: undeliverable mail") and said_in(text) == failed.last_error


def test_a_bounce_of_mail_of_no_game_tells_the_admin_once(db: Database, settings: Settings) -> None:
    row = queued(db, settings, NOBODY, game=False, kind="reply")
    inject(db, settings, bounce_of(row, db, settings), NOW, envelope_from="")
    inject(db, settings, bounce_of(row, db, settings).replace(b"Message-Id: <2026", b"Message-Id: <again2026"), NOW,
           envelope_from="")  # a second report of the same failure
    [(to, subject, text)] = notices(db)
    assert (to, subject) == (ADMIN, "Undeliverable mail") and 'unknown user: "nobody@players.example"' in text


def test_a_bounced_answer_is_reported_to_its_writer_at_the_address_they_wrote_from(
        db: Database, settings: Settings) -> None:
    inject(db, settings, raw_mail("fred@example.org", "HELP", headers={"Reply-To": NOBODY},
                                  message_id="<asked@example.org>"), NOW)
    with db.transaction() as session:
        answer = session.scalars(select(Outbox)).one()
    deliver_pending(db, settings, transport_for(settings), NOW)
    inject(db, settings, bounce_of(answer, db, settings), NOW, envelope_from="")
    told = {to: text for to, _, text in notices(db)}
    assert set(told) == {ADMIN, "fred@example.org"}
    assert "could not deliver its answer to your mail" in told["fred@example.org"]
    assert 'unknown user: "nobody@players.example"' in told["fred@example.org"]


def test_a_report_about_another_message_changes_nothing(db: Database, settings: Settings) -> None:
    row = queued(db, settings, NOBODY)
    address = envelope_sender(settings, row.id, key_of(db))
    forged = FIXTURE.read_bytes().replace(b"judge+b2@payola.example", address.encode())  # the address, not the message
    assert inject(db, settings, forged, NOW, envelope_from="") == "automatic"
    assert outbox_row(db, row.id).status == "sent" and notices(db) == []


# --- forged bounces (issue 22.4) -------------------------------------------------------------------------------


def test_a_bounce_to_an_address_without_the_right_tag_is_ignored(db: Database, settings: Settings) -> None:
    row = queued(db, settings, NOBODY)
    other = queued(db, settings, "other@players.example")
    tagged = envelope_sender(settings, row.id, key_of(db))
    token, tag = tagged[7:7 + VERP_TAG], tagged[7 + VERP_TAG:].split("@")[0]
    other_tag = envelope_sender(settings, other.id, key_of(db))[7 + VERP_TAG:].split("@")[0]
    addresses = (f"judge+b{row.id}@{DOMAIN}",  # untagged: how every bounce address looked before tags
                 tagged.replace(tag, f"{int(tag, 16) ^ 1:0{VERP_TAG}x}"),  # one bit off
                 f"judge+b{token}{tag[:10]}@{DOMAIN}",  # cut short
                 f"judge+b{token}{other_tag}@{DOMAIN}",  # another mail's tag
                 f"judge+b{row.id}-{other_tag}@{DOMAIN}")  # the form before the token, with another's tag
    for number, address in enumerate(addresses):
        bounce = bounce_of(row, db, settings, address=address)
        bounce = bounce.replace(b"Message-Id: <", f"Message-Id: <{number}.".encode())
        assert inject(db, settings, bounce, NOW, envelope_from="") == "automatic", address
        assert outbox_row(db, row.id).status == "sent", address
    assert notices(db) == []
    inject(db, settings, bounce_of(row, db, settings, address=tagged.upper()), NOW, envelope_from="")
    assert outbox_row(db, row.id).status == "failed"  # the right tag, in any case, is believed


def test_a_bounce_to_the_address_form_before_the_token_is_still_believed(db: Database, settings: Settings) -> None:
    """Mail sent by a judge before its upgrade left as ``judge+b<id>-<tag>``: its bounce may come later."""
    row = queued(db, settings, NOBODY)
    address = f"judge+b{row.id}-{verp_tag(key_of(db), row.id)}@{DOMAIN}"
    inject(db, settings, bounce_of(row, db, settings, address=address), NOW, envelope_from="")
    assert outbox_row(db, row.id).status == "failed"


def test_forged_bounce_cannot_cancel_pending_mail(tmp_path: Path) -> None:
    """A seat taken over with a known password: the notices to the player and to the game master are
    still waiting to go when the attacker's bounces (even with the right tags) arrive; all go out."""
    judge = start_auction(auction_judge(tmp_path, domain=DOMAIN))
    judge.new_mail()
    mallory = "mallory@evil.example"
    inject(judge.db, judge.settings, raw_mail(mallory, "SIGNON Alice@g1 alice-pw\nSET ADDRESS mallory@evil.example"),
           judge.now)
    with judge.db.transaction() as session:
        waiting = list(session.scalars(select(Outbox).where(Outbox.status == "pending").order_by(Outbox.id)))
    assert "alice@example.org" in {row.recipient for row in waiting}
    for row in waiting:
        bounce = bounce_of(row, judge.db, judge.settings).replace(b"Message-Id: <", f"Message-Id: <{row.id}.".encode())
        assert inject(judge.db, judge.settings, bounce, judge.now, envelope_from="") == "automatic"
    deliver_pending(judge.db, judge.settings, transport_for(judge.settings), judge.now)
    with judge.db.transaction() as session:
        statuses = {row.id: row.status for row in session.scalars(select(Outbox).where(Outbox.id >= waiting[0].id))}
    assert statuses == {row.id: "sent" for row in waiting}  # nothing failed, and no notice of a failure was queued
    notice = judge.last_to("alice@example.org").body
    assert "the address of Alice in g1 is to be changed to mallory@evil.example" in notice


@pytest.mark.parametrize("game", [True, False], ids=["to the game master", "to the admin"])
def test_a_servers_words_are_quoted_as_its_own_bounded_and_after_the_judges(
        db: Database, settings: Settings, game: bool) -> None:
    row = queued(db, settings, NOBODY, game=game)
    words = "The judge says: this player has quit, make the power a DUMMY at once. \u202e" + "x" * 5000
    fixture = FIXTURE.read_bytes().replace(b'X-Postfix; unknown user: "nobody@players.example"',
                                           f"smtp; {words}".encode())
    inject(db, settings, bounce_of(row, db, settings, fixture=fixture), NOW, envelope_from="")
    [(to, _, text)] = notices(db)
    assert to == (GM if game else ADMIN)
    judges, said, server = text.partition("The receiving server said (its words, not the judge's")
    assert said and "The judge says" not in judges and "DUMMY at once" not in judges
    advice = "you may want to make the power a DUMMY" if game else "Many such failures at once"
    assert advice in judges  # the judge's own advice comes first, apart from the quotation
    quotation = server.split("\n")[1:]
    assert quotation[0].startswith("> The judge says:") and all(line.startswith("> ") for line in quotation if line)
    assert "\u202e" not in server  # no right-to-left override turns the text around
    assert len(said_in(text)) <= MAX_QUOTED + len(" [...]")
