"""No single mail can stop or cheat the judge: one regression test per hole an attacker found.

Each test is named after the hole it closes.  The concurrency tests run two threads against
one database; in the PostgreSQL run of the suite (JUDGE_TEST_DATABASE_URL) they check the
row locks, on SQLite the database's single writer.
"""

from __future__ import annotations

import base64
import threading
import time
from collections.abc import Callable
from dataclasses import replace
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select

from judge.games.payola import handlers as player_module
from judge.games.payola import lifecycle
from judge.games.payola.store import LedgerRow
from judge.service.incoming.handlers import mail as mail_module
from judge.service.incoming.handlers import receive
from judge.service.operators.operator import quarantine_drop
from judge.service.running import app
from judge.service.running.app import apply_stored, run_deadlines, unapplied_mail
from judge.store.models import Game, InboundMail, Observer, Outbox, Player
from tests.kinds.auction import core
from tests.support.auction import auction_judge, start_auction
from tests.support.harness import MX, Judge, last_outbox_id, once, raw_mail, tokens, two_player_game, vouching
from tests.support.people import CAROL, GM

ALICE, BOB = "alice@example.org", "bob@example.org"
MALLORY = "mallory@evil.example"


def header_mail(headers: list[tuple[str, str]], body: str) -> bytes:
    """A raw mail with headers exactly as given (nothing cleaned), UTF-8."""
    lines = [f"{name}: {value}" for name, value in headers]
    return ("\r\n".join([*lines, "To: judge@localhost", "Content-Type: text/plain; charset=utf-8", "", body])
            ).encode("utf-8", "surrogateescape")


# -- 1. a mail that cannot be handled never blocks the ones behind it --------------------------------
# (sections 1 to 3 play the test kind's auction g1, the fixture ``auction``: Alice and Bob)


def broken_bid(auction: core.Auction, seat: str, amount: int) -> str | None:
    """The auction's check of a bid, failing: a bug in the kind's handler."""
    raise RuntimeError("boom")


POISON = ["\x0c", "\x0b", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029"]


@pytest.mark.parametrize("char", POISON, ids=[f"U+{ord(c):04X}" for c in POISON])
@pytest.mark.parametrize("where", ["Message-ID", "From", "Reply-To", "Subject"])
def test_poison_header_is_answered_and_the_next_mail_is_applied(auction: Judge, char: str, where: str) -> None:
    headers = {"From": ALICE, "Subject": "orders", "Message-ID": "<poison@example.org>"}
    headers[where] = {"Message-ID": f"<poi{char}son@example.org>", "From": f"ali{char}ce@example.org",
                      "Reply-To": f"alice@exa{char}mple.org", "Subject": f"my{char}orders"}[where]
    assert auction.send_raw(header_mail(list(headers.items()), "SIGNON Alice@g1 alice-pw\nSTATUS")) == "done"
    if where != "From":  # a From that is no address gets no answer; the rest are answered
        assert "your coins: 100" in auction.last_to(ALICE).body
    assert auction.send(BOB, "SIGNON Bob@g1 bob-pw\nSTATUS") == "done"
    assert "your coins: 100" in auction.last_to(BOB).body
    assert unapplied_mail(auction.db) == []


def test_rfc2047_encoded_line_break_in_from_and_message_id_is_answered(auction: Judge) -> None:
    raw = header_mail([("From", "=?utf-8?q?Alice=0D=0ABcc=3A_x=40y?= <alice@example.org>"), ("Subject", "x"),
                       ("Message-ID", "<=?utf-8?q?a=0D=0Ab?=@example.org>")], "SIGNON Alice@g1 alice-pw\nSTATUS")
    assert auction.send_raw(raw) == "done"
    reply = auction.last_to(ALICE)
    assert "your coins: 100" in reply.body and "Bcc" not in reply.headers
    assert auction.send(BOB, "SIGNON Bob@g1 bob-pw\nSTATUS") == "done"


def test_long_subject_and_from_fit_their_columns(auction: Judge) -> None:
    """On PostgreSQL a Subject over 296 or a From over 320 characters broke a column's length."""
    raw = header_mail([("From", "a" * 400 + "@example.org"), ("Subject", "s" * 1000),
                       ("Message-ID", "<" + "m" * 900 + ">")], "HELP")
    assert auction.send_raw(raw) == "done"
    assert auction.send(ALICE, "SIGNON Alice@g1 alice-pw\nSTATUS", subject="x" * 400) == "done"
    assert len(auction.last_to(ALICE).subject) <= 300


def test_utf7_body_with_lone_surrogates_gets_a_normal_answer(auction: Judge) -> None:
    raw = (b"From: alice@example.org\r\nTo: judge@localhost\r\nSubject: utf7\r\nMessage-ID: <u7@example.org>\r\n"
           b"Content-Type: text/plain; charset=utf-7\r\n\r\n+2D3YPQ- LIST\r\nLIST g1\r\n")
    assert auction.send_raw(raw) == "done"
    reply = auction.last_to(ALICE).body
    assert "internal error" not in reply and "state: active" in reply


def test_any_failure_quarantines_the_mail_tells_the_game_master_and_the_queue_moves_on(
        auction: Judge, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(core, "check_bid", broken_bid)
    now = auction.now
    first = receive(auction.db, raw_mail(ALICE, "SIGNON Alice@g1 alice-pw\nBID 2"), now)
    second = receive(auction.db, raw_mail(BOB, "SIGNON Bob@g1 bob-pw\nSTATUS"), now)
    assert [status for _, status in apply_stored(auction.db, auction.settings, now)] == ["quarantined", "done"]
    auction.process("g1")  # delivers the outbox
    mails = {m.to: m for m in auction.new_mail()}
    assert "internal error" in mails[ALICE].body and "boom" not in mails[ALICE].body
    assert f"Mail {first} quarantined" == mails[GM].subject and "RuntimeError: boom" in mails[GM].body
    assert "your coins: 100" in mails[BOB].body
    with auction.db.transaction() as session:
        row = session.get(InboundMail, first)
        assert row is not None and row.status == "quarantined" and row.error == "RuntimeError: boom"
        assert session.get(InboundMail, second).status == "done"  # type: ignore[union-attr]
    quarantine_drop(auction.db, first)  # kept whole for `judge quarantine retry` until retried or dropped
    with auction.db.transaction() as session:
        assert b"alice-pw" not in session.get_one(InboundMail, first).raw


def test_a_quarantined_mail_keeps_its_passwords_for_quarantine_days_at_most(
        auction: Judge, monkeypatch: pytest.MonkeyPatch) -> None:
    """The one stored copy allowed to keep a password (for `judge quarantine retry`) loses it once
    ``quarantine_days`` have passed without a retry or a drop: the deadline clock masks it."""
    monkeypatch.setattr(core, "check_bid", broken_bid)
    mail_id = receive(auction.db, raw_mail(ALICE, "SIGNON Alice@g1 alice-pw\nBID 2"), auction.now)
    assert apply_stored(auction.db, auction.settings, auction.now) == [(mail_id, "quarantined")]

    def stored() -> bytes:
        with auction.db.transaction() as session:
            return session.get_one(InboundMail, mail_id).raw

    run_deadlines(auction.db, auction.settings, auction.now + timedelta(days=auction.settings.quarantine_days - 1))
    assert b"alice-pw" in stored()  # still there for a retry
    run_deadlines(auction.db, auction.settings, auction.now + timedelta(days=auction.settings.quarantine_days + 1))
    assert b"alice-pw" not in stored() and b"SIGNON Alice@g1 ****" in stored()


def test_quarantine_without_a_game_tells_the_admin(auction: Judge, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(mail_module, "Conversation", None)  # calling it raises TypeError
    assert auction.send(MALLORY, "LIST") == "quarantined"
    assert {m.to for m in auction.new_mail()} == {MALLORY, "postmaster@localhost"}


def test_the_deadline_clock_runs_when_the_mail_queue_cannot_be_applied(auction: Judge,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    def unusable(*args: Any) -> list[int]:
        raise ConnectionError("database gone")

    monkeypatch.setattr(app, "unapplied_mail", unusable)
    auction.later(25)
    lines = app.tick(auction.db, auction.settings, auction.now)
    assert lines[0].startswith("applying stored mail failed") and lines[1].startswith("g1 L1 processed")


# -- 3. settings that cannot overflow -------------------------------------------------------------


@pytest.mark.parametrize("command", ["SET GRACE 99999999999", "SET LOT " + "9" * 300, "SET LOT 91d",
                                     "SET DEADLINE 9999-12-31 00:00", "SET DEADLINE 2025-01-01 00:00"])
def test_overflowing_settings_are_refused(auction: Judge, command: str) -> None:
    auction.send(GM, f"SIGNON MASTER@g1 gm-secret\n{command}")
    assert f"> {command}\n  ERROR:" in auction.last_to(GM).body
    auction.later(25)
    assert auction.process("g1").startswith("g1 L1 processed")


def test_a_failing_game_does_not_stop_the_deadlines_of_the_others(auction: Judge) -> None:
    auction.send("gm2@example.org", "CREATE g2 gm2 auction")
    auction.send(ALICE, "JOIN g2 alice-pw Alice")
    auction.send(BOB, "JOIN g2 bob-pw Bob")
    auction.send("gm2@example.org", "SIGNON MASTER@g2 gm2\nSTART")
    with auction.db.transaction() as session:  # a setting stored before durations were bounded
        game = session.scalar(select(Game).where(Game.name == "g1"))
        assert game is not None
        game.settings = {**game.settings, "grace": 1e300}
    auction.new_mail()
    auction.later(25)
    lines = run_deadlines(auction.db, auction.settings, auction.now)
    assert lines[0].startswith("g1 paused: its deadline failed (OverflowError")
    assert lines[1].startswith("g2 L1 processed")
    auction.process("g2")
    told = [m for m in auction.new_mail() if "deadline failed" in m.subject]
    assert {m.to for m in told} == {GM, "postmaster@localhost"}
    again = run_deadlines(auction.db, auction.settings, auction.now)
    assert not [line for line in again if line.startswith("g1")]  # g1 is paused: no failure every tick


# -- 4. each phase processed exactly once, balances never negative ----------------------------------


def slowed(function: Callable[..., Any], seconds: float = 0.4) -> Callable[..., Any]:
    def slow(*args: Any, **kwargs: Any) -> Any:
        time.sleep(seconds)
        return function(*args, **kwargs)

    return slow


def run_together(*jobs: Callable[[], Any]) -> None:
    barrier = threading.Barrier(len(jobs))
    errors: list[BaseException] = []

    def run(job: Callable[[], Any], delay: float) -> None:
        barrier.wait()
        time.sleep(delay)
        try:
            job()
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(job, 0.1 * number)) for number, job in enumerate(jobs)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not errors, errors


def test_deadline_run_and_last_sheet_at_once_process_the_phase_once(judge: Judge,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    judge.send(ALICE, "SIGNON F@g1 alice-pw\n2 : A PAR - BUR")
    judge.new_mail()
    judge.later(49)
    monkeypatch.setattr(lifecycle, "process_phase", slowed(lifecycle.process_phase))
    last_sheet = raw_mail(BOB, "SIGNON G@g1 bob-pw\n2 : A MUN - RUH")
    run_together(lambda: app.process_game(judge.db, judge.settings, "g1", judge.now),
                 lambda: app.inject(judge.db, judge.settings, last_sheet, judge.now))
    with judge.db.transaction() as session:
        results = session.scalars(select(Outbox.recipient).where(Outbox.subject == "g1 S1901M results")).all()
        charts = session.scalars(select(Outbox.id).where(Outbox.subject == "g1 S1901M chart")).all()
        payments = session.scalars(select(LedgerRow.amount).where(LedgerRow.kind == "payment")).all()
    assert sorted(results) == [ALICE, BOB] and len(charts) == 1
    assert payments == [-2]  # France's bribe, once; Germany's sheet came after the phase


def test_two_concurrent_transfers_never_leave_a_negative_balance(judge: Judge,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(player_module, "transfer", slowed(player_module.transfer))
    mails = [raw_mail(ALICE, "SIGNON F@g1 alice-pw\nTRANSFER 48 TO GERMANY") for _ in range(2)]
    run_together(*(lambda raw=raw: app.inject(judge.db, judge.settings, raw, judge.now) for raw in mails))
    with judge.db.transaction() as session:
        game = session.scalar(select(Game).where(Game.name == "g1"))
        assert game is not None
        balances = lifecycle.balances(session, game)
    assert balances["FRANCE"] == 0 and balances["GERMANY"] == 96
    judge.process("g1")
    replies = [m.body for m in judge.new_mail() if m.to == ALICE]
    assert sum("48 AgP sent to Germany" in body for body in replies) == 1
    assert sum("ERROR:" in body for body in replies) == 1


# -- 5. no silent takeover -------------------------------------------------------------------------


def test_reply_to_takeover_is_copied_and_notified_to_the_registered_address(auction: Judge) -> None:
    auction.send(ALICE, "SIGNON Alice@g1 alice-pw\nSET ADDRESS mallory@evil.example\nSET PASSWORD mine-now",
               headers={"Reply-To": MALLORY})
    mails = auction.new_mail()
    to_alice = [m for m in mails if m.to == ALICE]
    assert {m.subject for m in to_alice} == {"Copy: Re: orders", "Your registration with the judge changed"}
    notice = next(m for m in to_alice if m.subject.startswith("Your registration")).body
    assert "the address of Alice in g1 is to be changed to mallory@evil.example, once that address confirms" \
        in notice
    assert "the password of Alice in g1 was changed" in notice
    assert "mine-now" not in notice and "replies to mallory@evil.example" in notice
    [token] = tokens(auction.db, MALLORY)
    auction.send(MALLORY, f"CONFIRM {token}")
    [notice] = [m.body for m in auction.new_mail() if m.to == ALICE]
    assert "the address of Alice in g1 was changed to mallory@evil.example" in notice


def test_a_new_game_master_address_is_notified_to_the_previous_one(auction: Judge) -> None:
    auction.send(MALLORY, "SIGNON MASTER@g1 gm-secret\nSET ADDRESS mallory@evil.example")  # Mallory confirms
    notices = [m for m in auction.new_mail() if m.to == GM]
    assert len(notices) == 3  # the copy of the reply, the change asked for, the change made
    assert any("the address of the game master in g1 was changed" in m.body for m in notices)


def stored_raw(judge: Judge) -> list[bytes]:
    with judge.db.transaction() as session:
        return list(session.scalars(select(InboundMail.raw).order_by(InboundMail.id)))


def test_stored_mail_keeps_no_plaintext_password(auction: Judge) -> None:
    auction.send("carol@example.org", "CREATE g3 carol-game-pw\nJOIN g1 carol-join-pw Carol")
    auction.send(ALICE, "SIGNON Alice@g1 alice-pw\nSET PASSWORD alice-new-pw\nSIGNON Bob@g1 wrong-guess extra")
    encoded = base64.b64encode(b"SIGNON Bob@g1 bob-pw\nSTATUS\n").decode()
    auction.send_raw(b"From: bob@example.org\r\nTo: judge@localhost\r\nSubject: b64\r\nMessage-ID: <b64@x>\r\n"
                   b"Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\n"
                   + encoded.encode() + b"\r\n")
    assert "your coins: 100" in auction.last_to(BOB).body
    everything = b"".join(stored_raw(auction))
    for password in ("gm-secret", "alice-pw", "bob-pw", "carol-game-pw", "carol-join-pw", "alice-new-pw",
                     "wrong-guess", encoded[:12]):
        assert password.encode() not in everything, password
    assert b"SIGNON Alice@g1 ****" in everything


def test_wrong_passwords_back_off_after_five_failures_and_the_owner_is_told(auction: Judge) -> None:
    for attempt in range(5):
        auction.send(MALLORY, f"SIGNON Alice@g1 guess{attempt}")
    mails = auction.new_mail()
    warning = [m for m in mails if m.to == ALICE]
    assert len(warning) == 1 and "5 failed sign-ons as Alice in g1" in warning[0].body
    assert f"[unknown] {MALLORY} (From: {MALLORY})" in warning[0].body
    auction.send(MALLORY, "SIGNON Alice@g1 alice-pw\nSTATUS")  # even the right password, too soon: refused unread
    assert auction.outcome_of("SIGNON Alice@g1 ****") == ("error", "TOO_MANY_FAILURES")
    auction.later(1.1 / 60)  # one minute after the fifth failure
    auction.send(MALLORY, "SIGNON Alice@g1 alice-pw\nSTATUS")
    assert "your coins: 100" in auction.last_to(MALLORY).body


def test_wrong_passwords_back_off_per_source_across_seats(auction: Judge) -> None:
    for seat in ("Alice@g1", "Bob@g1", "MASTER@g1", "Carol@g1", "X@g1"):
        auction.send(MALLORY, f"SIGNON {seat} guess")
    auction.send(MALLORY, "SIGNON Bob@g1 bob-pw\nSTATUS")  # even the right password, from that source
    assert auction.outcome_of("SIGNON Bob@g1 ****") == ("error", "TOO_MANY_FAILURES")
    auction.send(BOB, "SIGNON Bob@g1 bob-pw\nSTATUS")  # the seat itself is not blocked for its owner
    assert "your coins: 100" in auction.last_to(BOB).body


# -- 6. bounded amplification and work per mail -----------------------------------------------------


def seven_players(judge: Judge) -> None:
    for letter, power in zip("EIART", ("ENGLAND", "ITALY", "AUSTRIA", "RUSSIA", "TURKEY"), strict=True):
        judge.send(f"{letter.lower()}@example.org", f"JOIN g7 pw-{letter} {power}")


def test_press_blocks_per_mail_are_limited(auction: Judge) -> None:
    presses = "".join(f"PRESS TO Bob\nmessage {n}\nENDPRESS\n" for n in range(30))
    auction.send(ALICE, "SIGNON Alice@g1 alice-pw\n" + presses)
    mails = auction.new_mail()
    assert sum(m.to == BOB for m in mails) == auction.settings.max_press_per_mail
    assert auction.outcomes_of("PRESS TO Bob") == [("ok", None)] * 10 + [("error", "TOO_MANY_PRESS")] * 20


def test_mails_queued_per_inbound_mail_are_limited(tmp_path: Path) -> None:
    judge = Judge(tmp_path)
    judge.send(GM, "CREATE g7 gm")
    judge.send(ALICE, "JOIN g7 alice-pw FRANCE")
    judge.send(BOB, "JOIN g7 bob-pw GERMANY")
    seven_players(judge)
    judge.send(GM, "SIGNON MASTER@g7 gm\nSTART")
    judge.new_mail()
    judge.send(ALICE, "SIGNON F@g7 alice-pw\n" + "PRESS TO ALL\nhello\nENDPRESS\n" * 10)
    mails = judge.new_mail()
    assert len(mails) == 1 + judge.settings.max_mails_per_mail  # the reply, and 50 of the 60 press mails
    assert "not sent to" in mails[0].body or "not sent to" in next(m.body for m in mails if m.to == ALICE)


def test_commands_per_mail_are_limited(auction: Judge) -> None:
    auction.send(ALICE, "HELP\n" + "LIST g1\n" * 700)
    body = auction.last_to(ALICE).body
    assert "only the first 500 were read" in body and body.count("> LIST g1") == 499


def test_two_thousand_create_lines_cost_at_most_ten_password_hashes(judge: Judge,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    from judge.service.incoming.handlers import anyone

    hashed: list[str] = []
    real = anyone.hash_password
    monkeypatch.setattr(anyone, "hash_password", lambda password: hashed.append(password) or real(password))
    judge.send(MALLORY, "".join(f"CREATE spam{n} pw\n" for n in range(2000)), confirm=False)
    body = judge.last_to(MALLORY).body
    assert len(hashed) <= judge.settings.max_creates_per_day
    assert "the rest of it was not read" in body and body.count("> CREATE") == 11


def test_creates_per_address_and_day_are_limited(judge: Judge) -> None:
    judge.confirmed(MALLORY)
    judge.send(MALLORY, "CREATE s1 pw\nCREATE s2 pw\nCREATE s3 pw\nCREATE s4 pw")
    assert [judge.outcome_of(f"CREATE s{n} ****")[0] for n in range(1, 4)] == ["ok"] * 3
    assert judge.outcome_of("CREATE s4 ****") == ("error", "TOO_MANY_CREATES")  # 3 a day
    judge.later(24.1)
    judge.send(MALLORY, "CREATE s4 pw")
    assert judge.outcome_of("CREATE s4 ****")[0] == "ok"


def test_joins_per_address_and_day_are_limited(judge: Judge) -> None:
    judge.settings = replace(judge.settings, max_joins_per_day=2)
    for number in range(1, 4):
        judge.send(f"gm{number}@example.org", f"CREATE t{number} pw")
    judge.confirmed(MALLORY)
    judge.send(MALLORY, "JOIN t1 pw\nJOIN t2 pw\nJOIN t3 pw")
    assert [judge.outcome_of(f"JOIN t{n} ****")[0] for n in (1, 2)] == ["ok"] * 2
    assert judge.outcome_of("JOIN t3 ****") == ("error", "TOO_MANY_JOINS")


def test_join_for_another_address_waits_for_that_address_to_confirm(judge: Judge) -> None:
    judge.send(GM, "CREATE g5 gm-secret")
    judge.send(MALLORY, "JOIN g5 pw FRANCE", headers={"Reply-To": "victim@example.org"})
    reply = judge.last_to("victim@example.org").body
    assert "waiting for victim@example.org to confirm" in reply
    [token] = tokens(judge.db, "victim@example.org")
    assert token not in reply
    judge.send(GM, "LIST g5")
    assert "0 players joined" in judge.last_to(GM).body
    judge.send("victim@example.org", f"CONFIRM {token}")
    assert "you joined 'g5' (you asked for France)" in judge.last_to("victim@example.org").body
    judge.send("victim@example.org", f"CONFIRM {token}")
    assert "no request is waiting for that token" in judge.last_to("victim@example.org").body


def test_join_with_a_forged_envelope_sender_waits_for_confirmation(judge: Judge) -> None:
    judge.send(GM, "CREATE g5 gm-secret")
    judge.confirmed("victim@example.org")  # even an address that confirmed before: not its own mail
    status = app.inject(judge.db, judge.settings, raw_mail("victim@example.org", "JOIN g5 pw"), judge.now,
                        envelope_from=MALLORY)
    assert status == "done"
    judge.process("g1")
    assert "waiting for victim@example.org to confirm" in judge.last_to("victim@example.org").body
    assert len(tokens(judge.db, "victim@example.org")) == 1


def test_join_from_the_senders_own_address_needs_no_confirmation_once_it_has_confirmed(judge: Judge) -> None:
    """In mail the judge's MTA vouches for (its Authentication-Results: DMARC passed for the domain)."""
    judge.send(GM, "CREATE g5 gm-secret")
    judge.confirmed("carol@example.org")
    raw = raw_mail("carol@example.org", "JOIN g5 pw", headers=vouching(judge.settings, "carol@example.org"))
    status = app.inject(judge.db, judge.settings, raw, judge.now, envelope_from="carol@example.org")
    assert status == "done"
    judge.process("g1")
    assert "you joined 'g5'" in judge.last_to("carol@example.org").body
    assert not tokens(judge.db, "carol@example.org")


# -- what a stranger's mail may cost: one HELP, a few lookups ---------------------------------------------


def outbox_rows(judge: Judge) -> list[Outbox]:
    with judge.db.transaction() as session:
        rows = list(session.scalars(select(Outbox).order_by(Outbox.id)))
        session.expunge_all()
        return rows


def test_help_is_answered_once_a_mail_however_often_it_is_asked(judge: Judge) -> None:
    before = len(outbox_rows(judge))
    judge.send(MALLORY, "HELP\n" * 500)
    sent = outbox_rows(judge)[before:]
    assert len(sent) == 1 and sent[0].recipient == MALLORY
    assert sent[0].body.count("commands one per line") == 1  # the index, once
    assert judge.outcomes_of("HELP")[1:] == [("error", "ONE_PER_MAIL")] * (judge.settings.max_commands_per_mail - 1)
    assert len(sent[0].body.encode()) < 100_000  # not 500 copies of a 16 kB text


@pytest.mark.parametrize("lookup", ["LIST", "LIST g1", "WHOGAME g1", "GET INFO g1"])
def test_lookups_are_answered_up_to_their_limit_in_one_mail(judge: Judge, lookup: str) -> None:
    judge.send(MALLORY, f"{lookup}\n" * 500)
    body = judge.last_to(MALLORY).body
    limit = judge.settings.max_lookups_per_mail
    assert body.count(f"> {lookup}\n") == 500
    assert judge.outcomes_of(lookup)[limit:] == [("error", "TOO_MANY_LOOKUPS")] * (500 - limit)
    assert ("error", "TOO_MANY_LOOKUPS") not in judge.outcomes_of(lookup)[:limit]


def test_lookups_of_every_kind_share_one_limit(judge: Judge) -> None:
    judge.send(MALLORY, "LIST\nWHOGAME g1\nGET INFO g1\n" * 4)
    assert [answer.code for answer in judge.answers].count("TOO_MANY_LOOKUPS") == 2  # the 11th and 12th of any kind


# -- consent: headers prove nothing; the judge's MTA's verdict does ------------------------------------


def forged(judge: Judge, body: str, verdict: str | None = None) -> str:
    """A mail whose From, Reply-To and envelope sender all name carol (an attacker forges all
    three), with an Authentication-Results header saying ``verdict`` if given."""
    headers = {"Reply-To": CAROL} | ({"Authentication-Results": verdict} if verdict else {})
    return app.inject(judge.db, judge.settings, raw_mail(CAROL, body, headers=headers), judge.now,
                      envelope_from=CAROL)


def seats_of(judge: Judge, address: str) -> int:
    with judge.db.transaction() as session:
        return len(session.scalars(select(Player).where(Player.address == address)).all())


@pytest.mark.parametrize("verdict", [None, "evil.example; dmarc=pass header.from=example.org",
                                     f"{MX}; dmarc=fail header.from=example.org",
                                     f"{MX}; dkim=pass header.d=evil.example"])
def test_a_forged_join_in_a_confirmed_addresss_name_waits_for_its_token(judge: Judge, verdict: str | None) -> None:
    judge.send(GM, "CREATE g5 gm-secret")
    judge.confirmed(CAROL)
    mark = last_outbox_id(judge.db)
    assert forged(judge, "JOIN g5 attackerpw ENGLAND\nOBSERVE g1", verdict) == "done"
    assert seats_of(judge, CAROL) == 0
    assert len(tokens(judge.db, CAROL, mark)) == 2  # carol is asked, and ignoring it is enough
    with judge.db.transaction() as session:
        assert session.scalar(select(func.count(Observer.id))) == 0


def test_a_join_the_judges_mta_vouches_for_is_obeyed_at_once(judge: Judge) -> None:
    judge.send(GM, "CREATE g5 gm-secret")
    judge.confirmed(CAROL)
    mark = last_outbox_id(judge.db)
    assert forged(judge, "JOIN g5 pw ENGLAND", f"{MX}; spf=pass smtp.mailfrom={CAROL}") == "done"
    assert seats_of(judge, CAROL) == 1 and not tokens(judge.db, CAROL, mark)


def test_an_address_observes_at_most_its_limit_of_games(tmp_path: Path) -> None:
    judge = two_player_game(Judge(tmp_path, max_games_observed=2))
    for number in range(2, 4):
        judge.send(GM, f"CREATE g{number} gm-secret")
    judge.confirmed(CAROL)
    judge.send(CAROL, "OBSERVE g1\nOBSERVE g2\nOBSERVE g3")
    assert [judge.outcome_of(f"OBSERVE g{n}") for n in (1, 2)] == [("ok", None)] * 2
    assert judge.outcome_of("OBSERVE g3") == ("error", "TOO_MANY_OBSERVED")


# -- a mail with no address the judge can write to asks for nothing -------------------------------------


def test_a_request_from_an_unusable_address_queues_nothing(judge: Judge) -> None:
    judge.send(GM, "CREATE g5 gm-secret")
    mark = last_outbox_id(judge.db)
    raw = header_mail([("From", '"<img src=x onerror=alert(1)>"@evil.org'), ("Subject", "x")],
                      "JOIN g5 pw ENGLAND\nOBSERVE g1\nCREATE g6 pw\nTAKEOVER FRANCE@g1 pw")
    assert judge.send_raw(raw, confirm=False) == "done"
    assert last_outbox_id(judge.db) == mark
    with judge.db.transaction() as session:
        assert session.scalar(select(func.count(Player.id)).where(Player.address == "")) == 0


def test_the_angle_address_is_the_one_answered(judge: Judge) -> None:
    judge.send_raw(header_mail([("From", "victim@evil.org <bob@example.org>"), ("Subject", "x")], "LIST"))
    assert [mail.to for mail in judge.new_mail()] == [BOB]


# -- announcements count against what one mail may cost, one mail per reader ----------------------------


@pytest.fixture
def watched(tmp_path: Path) -> Judge:
    """g1 (two players) with 50 observers, and g2 (the same master, forming... then started) with two
    players of its own."""
    return once(Judge(tmp_path), _watched)


def _watched(judge: Judge) -> None:
    two_player_game(judge)
    for number in range(judge.settings.max_observers):
        judge.send(f"o{number}@example.org", "OBSERVE g1")
    judge.send(GM, "CREATE g2 gm-secret")
    judge.send("dave@example.org", "JOIN g2 dave-pw FRANCE")
    judge.send("erin@example.org", "JOIN g2 erin-pw GERMANY")
    judge.send(GM, "SIGNON MASTER@g2 gm-secret\nSTART")
    judge.new_mail()


def test_a_masters_news_and_results_in_one_mail_are_one_mail_per_reader(watched: Judge) -> None:
    mark = last_outbox_id(watched.db)
    watched.send(GM, "SIGNON MASTER@g1 gm-secret\nSET GRACE 12\nSET MOVEMENT 24\nPROCESS")
    sent = [row for row in outbox_rows(watched) if row.id > mark]
    readers = [row.recipient for row in sent if row.kind != "reply"]
    assert len(readers) == len(set(readers)) == 2 + 50 + 1  # each player, observer, and the master's chart
    assert all(row.kind in ("reply", "results", "chart") for row in sent)


def test_a_second_games_news_over_the_mail_budget_is_refused(watched: Judge) -> None:
    mark = last_outbox_id(watched.db)
    watched.send(GM, "SIGNON MASTER@g1 gm-secret\nSET GRACE 12\nSIGNON MASTER@g2 gm-secret\nSET GRACE 6\nPAUSE")
    body = watched.last_to(GM).body
    assert "> SET GRACE 6\n  ERROR: not done: telling the players and observers of g2 would take" in body
    assert "this mail has already caused 53, over the judge's limit of 50 mails a mail" in body
    assert "> PAUSE\n  ERROR: not done" in body
    sent = [row for row in outbox_rows(watched) if row.id > mark]
    assert len(sent) == 1 + 2 + 50  # the reply, and g1's players and observers told of its grace
    with watched.db.transaction() as session:
        g2 = session.scalar(select(Game).where(Game.name == "g2"))
        assert g2 is not None and g2.state == "active" and g2.settings["grace"] == 0


def test_one_mails_news_to_a_game_are_one_mail_per_reader(watched: Judge) -> None:
    mark = last_outbox_id(watched.db)
    watched.send(GM, "SIGNON MASTER@g2 gm-secret\nSET GRACE 6\nSET MOVEMENT 24\nPAUSE")
    body = watched.last_to(GM).body
    assert body.count("  OK") == 4
    told = [row.recipient for row in outbox_rows(watched) if row.id > mark and row.kind == "announcement"]
    assert sorted(told) == ["dave@example.org", "erin@example.org"]


def test_the_press_of_one_mail_holds_at_most_200000_characters_in_all_its_copies(auction: Judge) -> None:
    """Each copy of a press is a mail the judge keeps: a press as long as a mail (200,000 characters) to
    fifty readers would be ten megabytes.  g1 with three observers: Alice's PRESS TO ALL goes to
    Bob, the game master and the three observers, five copies.  A press of 400 lines of 99
    characters is 40,000 characters with its line ends, 200,000 in its five copies: sent; a second
    press of one line 'hi' (3 characters, 15 in five copies) would take the mail over: refused, saying
    so; the same press in the next mail is sent."""
    for watcher in ("w1@example.org", "w2@example.org", "w3@example.org"):
        auction.send(watcher, "OBSERVE g1")
    auction.new_mail()
    long = "\n".join(["x" * 99] * 400)
    auction.send(ALICE, f"SIGNON Alice@g1 alice-pw\nPRESS TO ALL\n{long}\nENDPRESS\nPRESS TO ALL\nhi\nENDPRESS")
    assert auction.outcomes_of("PRESS TO ALL") == [("ok", None), ("error", "TOO_MUCH_PRESS")]
    assert sum(m.subject == "g1 press from Alice" for m in auction.new_mail()) == 5
    auction.send(ALICE, "SIGNON Alice@g1 alice-pw\nPRESS TO ALL\nhi\nENDPRESS")
    assert auction.outcomes_of("PRESS TO ALL") == [("ok", None)]


def test_a_phase_completed_by_a_mail_over_its_mail_budget_waits_for_its_deadline(tmp_path: Path) -> None:
    """A phase's results go to each reader; processed by a mail that has queued mails already, they could
    take it over max-mails-per-mail, as a PROCESS would (which is refused then).  With the budget set to
    5: Bob's bid is in; Alice's mail sends press to all (Bob, the game master: 2 mails) and
    completes the phase, whose results would be 3 more (Alice, Bob, the game master): 5, within
    the budget, processed.  With two presses (4 mails), 7 would be over: the phase stays open, complete,
    and its deadline processes it."""
    for presses, processed in ((1, True), (2, False)):
        auction = start_auction(auction_judge(tmp_path / str(presses), max_mails_per_mail=5))
        auction.send(BOB, "SIGNON Bob@g1 bob-pw\nBID 1")
        auction.send(ALICE, "SIGNON Alice@g1 alice-pw\nBID 2\n" + "PRESS TO ALL\nhello\nENDPRESS\n" * presses)
        assert auction.outcomes_of("PRESS TO ALL") == [("ok", None)] * presses
        with auction.db.transaction() as session:
            assert (session.scalars(select(Game.phase).where(Game.name == "g1")).one() != "L1") == processed


@pytest.mark.parametrize("days", ["9" * 5_000, "\u00b2", "0061"])
def test_an_absence_days_option_python_would_not_read_is_refused_in_the_judges_words(tmp_path: Path,
                                                                                     days: str) -> None:
    """A number of 5,000 digits (Python reads none of 4,301 or more), a superscript two (a digit to Python,
    no number to int()) and 61 written with leading zeros: each refused as the option it is, the mail
    applied, not quarantined."""
    judge = Judge(tmp_path)
    judge.send(GM, f"CREATE g9 gm-pw ABSENCE_DAYS={days}")
    [answer] = [a for a in judge.answers if a.text.startswith("CREATE")]
    assert answer.outcome == "error" and "ABSENCE_DAYS takes a number of days up to 60" in answer.message
    with judge.db.transaction() as session:
        assert session.scalars(select(InboundMail.status)).all() == ["done"]


def test_a_reply_quotes_thirty_thousand_characters_of_a_mail_then_each_line_briefly(judge: Judge) -> None:
    """A reply that quoted every line of a mail whole would be as long as the mail, and the judge keeps it:
    130 unknown lines of 1,500 characters (195,000, within what a mail is read to) are quoted whole
    while the reply has quoted less than 30,000 characters of lines and answers: each line's answer
    is "unknown command 'ZZZ000': HELP lists the commands" (49 characters), 1,549 a line, so the
    first 20 lines are quoted whole (19 x 1,549 = 29,431 < 30,000 <= 20 x 1,549 = 30,980) and the 110
    after 80 characters each, enough to find the line, their answers 40: the reply holds 20 lines of
    1,500 characters, 20 answers of 49 and 110 of each, cut, 80 + 40 + 12 = 132 (under 50,000)."""
    lines = [f"ZZZ{n:03d} " + "x" * 1493 for n in range(130)]
    judge.send(ALICE, "\n".join(lines))
    answers = [answer for answer in judge.answers if answer.text.startswith("ZZZ")]
    assert len(answers) == 130 and {len(answer.message) for answer in answers[:20]} == {49}
    assert [answer.text for answer in answers[:20]] == lines[:20]
    assert [answer.text for answer in answers[20:]] == [line[:80] + " [...]" for line in lines[20:]]
    assert len(judge.last_to(ALICE).body) < 50_000  # the mail was 195,000 characters
