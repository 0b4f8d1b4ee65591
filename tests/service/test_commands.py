"""Player and game-master commands of the host by mail, one behaviour each, played on the test kind's
auction g1 (the fixture ``auction``: Alice and Bob, lot L1 on sale, due 24 hours after its start)."""

from __future__ import annotations

from judge.service.incoming.handlers import receive
from judge.service.running.app import tick
from tests.support.auction import bid, master, send, state
from tests.support.harness import Judge, raw_mail
from tests.support.people import ALICE, BOB, GM


def test_mail_from_another_address_is_answered_there_with_a_copy_to_the_registered_one(auction: Judge) -> None:
    auction.send("alice@elsewhere.example", "SIGNON Alice@g1 alice-pw\nSTATUS")
    mails = auction.new_mail()
    assert sorted(m.to for m in mails) == ["alice@elsewhere.example", ALICE]
    assert all("your coins: 100" in m.body for m in mails)


def test_press_goes_to_the_named_seats_only_and_says_who_sent_it(auction: Judge) -> None:
    send(auction, "Alice", "PRESS TO Bob", "Let us share the lots.", "ENDPRESS", "STATUS")
    mails = {m.to: m for m in auction.new_mail()}
    assert "Press in g1 from Alice (to you alone):" in mails[BOB].body and "Let us share the lots." in mails[BOB].body
    assert "press sent to Bob" in mails[ALICE].body
    assert set(mails) == {ALICE, BOB}


def test_list_shows_the_seats_but_never_what_they_sent(auction: Judge) -> None:
    bid(auction, "Alice", 37)
    auction.send("stranger@example.org", "LIST g1")
    body = auction.new_mail()[-1].body
    assert "Alice: played" in body and "Bob: played" in body
    assert "BID" not in body and "37" not in body


def test_password_change_and_resign(auction: Judge) -> None:
    send(auction, "Bob", "SET PASSWORD new-pw")
    auction.send(BOB, "SIGNON Bob@g1 bob-pw\nSTATUS")
    assert auction.outcome_of("SIGNON Bob@g1 ****") == ("error", "SIGNON_REFUSED")
    auction.send(BOB, "SIGNON Bob@g1 new-pw\nRESIGN")
    assert auction.outcome_of("RESIGN")[0] == "ok"
    auction.new_mail()
    master(auction, "PROCESS")
    mails = auction.new_mail()
    assert [m.to for m in mails if m.subject == "g1 L1 results"] == [ALICE, GM]  # no more results to Bob


def test_pause_stops_deadlines_and_resume_restarts_them(auction: Judge) -> None:
    master(auction, "PAUSE")
    auction.later(100)
    assert auction.process("g1") == "g1 is paused: nothing to process"
    # Resumed 100 hours after the start (2026-01-05 12:00), past the deadline: now + 24 hours (a lot).
    assert "game resumed; deadline 2026-01-10 16:00 UTC" in master(auction, "RESUME").body
    assert "deadline set to 2026-01-10 12:00 UTC" in master(auction, "SET DEADLINE 2026-01-10 13:00 +01:00").body


def test_players_cannot_use_master_commands(auction: Judge) -> None:
    send(auction, "Alice", "PROCESS", "ROLLBACK", "DUMMY Bob")
    assert [auction.outcome_of(line) for line in ("PROCESS", "ROLLBACK", "DUMMY Bob")] == [
        ("error", "MASTER_ONLY")] * 3


def test_tick_applies_mail_accepted_before_the_deadline_before_processing_it(auction: Judge) -> None:
    # The bid got its 250 (it is stored) just before the deadline, but was not applied yet.
    auction.later(23.9)
    receive(auction.db, raw_mail(ALICE, "SIGNON Alice@g1 alice-pw\nBID 5"), auction.now)
    auction.later(0.2)
    lines = tick(auction.db, auction.settings, auction.now)
    assert lines[0].endswith(" done (game g1)") and "g1 L1 processed; next L2" in lines
    auction.process("g1")  # delivers the mail
    results = [m for m in auction.new_mail() if m.to == ALICE and m.subject == "g1 L1 results"]
    assert "lot 1: bought by Alice for 5" in results[0].body


def test_a_seat_made_dummy_can_no_longer_sign_on(auction: Judge) -> None:
    master(auction, "DUMMY Bob")
    auction.send(BOB, "SIGNON Bob@g1 bob-pw\nBID 4")
    assert auction.outcome_of("SIGNON Bob@g1 ****") == ("error", "NO_LONGER_YOURS")
    assert state(auction) == ("active", "L1")
