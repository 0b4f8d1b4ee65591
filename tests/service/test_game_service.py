"""A game a community can run, the host's part: ROLLBACK, every action of the game master announced,
WAIT, press, reminders, no reading traps.  One test per behaviour, through the game service as mail
(``judge inject``'s path), on the test kind's auction g1 (`tests.support.auction`: Alice, Bob and
Carol; lots of 24 hours, L1 due 2026-01-06 12:00 UTC).  Payola's own are in
tests/games/payola/test_game_service_by_mail.py."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import select

from judge.service.hosting import host as lifecycle
from judge.store.models import Game, PhaseRow
from tests.support.auction import MASTER, auction_judge, bid, every_bid, master, send, start_auction, state, to
from tests.support.harness import Judge
from tests.support.people import ALICE, BOB, CAROL, GM


@pytest.fixture
def judge(tmp_path: Path) -> Judge:
    judge = start_auction(auction_judge(tmp_path), players=3)
    judge.new_mail()
    return judge


# -- ROLLBACK --------------------------------------------------------------------------------------


def test_rollback_pauses_announces_and_does_not_reprocess(judge: Judge) -> None:
    every_bid(judge)
    assert any(m.subject == "g1 L1 results" for m in judge.new_mail())
    master(judge, "ROLLBACK")
    mails = judge.new_mail()
    assert "rolled back to L1; the game is paused" in to(mails, GM)[0].body
    for address in (ALICE, BOB, CAROL):
        news = to(mails, address)
        assert len(news) == 1 and "rolled the game back to L1" in news[0].body and "paused" in news[0].body
    assert not [m for m in mails if "results" in m.subject]  # every seat "has submitted", yet nothing ran
    judge.later(100)
    assert judge.process("g1") == "g1 is paused: nothing to process"
    status = send(judge, "Alice", "STATUS").body
    assert "your bid: 20" in status and "phase L1" in status
    master(judge, "RESUME")  # all had bid: processed at once
    assert len([m for m in judge.new_mail() if m.subject == "g1 L1 results again, after a rollback"]) == 4


def test_several_rollbacks_step_back_phase_by_phase(judge: Judge) -> None:
    every_bid(judge)
    judge.later(25)
    judge.process("g1")  # L2 on its deadline: nobody sent anything
    assert "rolled back to L2" in master(judge, "ROLLBACK").body  # one a mail (issue 22.2)
    assert "rolled back to L1" in master(judge, "ROLLBACK").body
    assert "there is no earlier phase to go back to" in master(judge, "ROLLBACK").body


def test_rollback_after_terminate_is_refused(judge: Judge) -> None:
    every_bid(judge)
    judge.terminate(GM, MASTER)
    assert "> ROLLBACK\n  ERROR: g1 has ended: nothing more can be done in it" in master(judge, "ROLLBACK").body
    judge.send(GM, "LIST g1")
    assert "state: finished" in judge.last_to(GM).body


def test_the_end_is_published_to_every_player_who_played_those_who_left_a_seat_too(judge: Judge) -> None:
    """Bob resigns and Dave takes his seat over; Carol resigns and nobody comes.  At the end every one
    of them, who played the game, reads its publication: the players now, Bob and Carol who left, the
    master."""
    send(judge, "Bob", "RESIGN")
    send(judge, "Carol", "RESIGN")
    master(judge, "SET OPENING Bob")
    judge.send("dave@example.org", "TAKEOVER Bob@g1 dave-pw")
    judge.new_mail()
    judge.terminate(GM, MASTER)
    ended = {m.to for m in judge.new_mail() if m.subject == "g1 has ended"}
    assert ended == {ALICE, BOB, CAROL, "dave@example.org", GM}


# -- announcements and the game master's tools ---------------------------------------------------------


def test_set_deadline_is_announced_to_every_player(judge: Judge) -> None:
    master(judge, "SET DEADLINE 2026-01-09 18:00")
    mails = judge.new_mail()
    for address in (ALICE, BOB, CAROL):
        news = to(mails, address)
        assert len(news) == 1 and "set the deadline of L1 to 2026-01-09 18:00 UTC" in news[0].body


@pytest.mark.parametrize(("command", "news"), [
    ("PAUSE", "paused the game"), ("SET LOT 72", "set lot phases to last 3 days"),
    ("DUMMY Bob", "made Bob a dummy"),
])
def test_game_master_actions_are_announced(judge: Judge, command: str, news: str) -> None:
    master(judge, command)
    mails = judge.new_mail()
    assert all(news in to(mails, address)[0].body for address in (ALICE, BOB, CAROL))


def test_a_mail_tells_each_setting_once_where_it_ended(judge: Judge) -> None:
    """A game master's mail that sets the deadline three times, the grace twice and pauses and resumes
    the game twice tells each player the deadline and the grace as they ended, once, and the pause and
    resume once each, in the order they last happened: what a thousand such lines would tell a
    thousand times is told once."""
    master(judge, "SET DEADLINE 2026-01-09 18:00", "SET GRACE 2", "SET DEADLINE 2026-01-10 18:00", "PAUSE",
           "RESUME", "SET GRACE 3", "PAUSE", "RESUME", "SET DEADLINE 2026-01-11 18:00")
    [news] = to(judge.new_mail(), ALICE)
    told = [line.strip() for line in news.body.splitlines() if "the game master" in line]
    assert told == ["- the game master set the grace period after each deadline to 3 hours",
                    "- the game master paused the game: no deadline fires until it is resumed",
                    "- the game master resumed the game: the deadline of L1 is 2026-01-10 18:00 UTC",
                    "- the game master set the deadline of L1 to 2026-01-11 18:00 UTC"], news.body


def test_a_player_whose_seat_was_made_a_dummy_is_told_so_at_sign_on(judge: Judge) -> None:
    master(judge, "DUMMY Bob")
    judge.send(BOB, "SIGNON Bob@g1 bob-pw\nSTATUS")
    assert judge.outcome_of("SIGNON Bob@g1 ****") == ("error", "NO_LONGER_YOURS")
    assert "the game master made it a dummy" in judge.last_to(BOB).body  # who did, and how


def test_a_bid_after_terminate_is_refused(judge: Judge) -> None:
    judge.terminate(GM, MASTER)
    body = send(judge, "Alice", "BID 10", "STATUS").body
    assert "> BID 10\n  ERROR: g1 has ended: nothing more can be done in it" in body
    assert "your coins: 100" in body


# -- reminders ---------------------------------------------------------------------------------------


def test_reminder_defaults_to_half_a_short_phase_and_never_comes_with_the_results(judge: Judge) -> None:
    every_bid(judge)  # L1 -> L2 (24 hours): a phase shorter than two days, reminded half of it before
    judge.new_mail()
    with judge.db.transaction() as session:
        game = session.scalar(select(Game).where(Game.name == "g1"))
        assert game is not None
        row = session.scalar(select(PhaseRow).where(PhaseRow.name == "L2"))
        assert row is not None
        assert lifecycle.reminder_time(game, row) == game.deadline - timedelta(hours=12)
        game.settings = {**game.settings, "lot": 12.0}
        assert lifecycle.reminder_time(game, row) == game.deadline - timedelta(hours=6)
        game.settings = {**game.settings, "reminder": 48.0}  # before the phase opened: no reminder at all
        assert lifecycle.reminder_time(game, row) is None


def test_set_reminder_moves_the_reminder_and_is_announced(judge: Judge) -> None:
    master(judge, "SET REMINDER 6")
    assert "set reminders to go out 6 hours before each deadline" in judge.last_to(ALICE).body
    judge.later(24 - 7)
    judge.process("g1")
    assert not [m for m in judge.new_mail() if m.subject.endswith(" reminder")]
    judge.later(2)
    judge.process("g1")
    assert {m.to for m in judge.new_mail() if m.subject == "g1 L1 reminder"} == {ALICE, BOB, CAROL}


# -- WAIT ---------------------------------------------------------------------------------------------


def test_wait_holds_processing_until_the_deadline(judge: Judge) -> None:
    send(judge, "Alice", "WAIT", "BID 20")
    bid(judge, "Bob", 10)
    bid(judge, "Carol", 5)  # the last bid: without WAIT, processed now
    assert not [m for m in judge.new_mail() if "results" in m.subject]
    bid(judge, "Bob", 30)  # Bob revises his bid after hearing from the others
    judge.later(25)
    assert judge.process("g1").startswith("g1 L1 processed")
    results = next(m for m in judge.new_mail() if m.to == BOB and m.subject == "g1 L1 results").body
    assert "lot 1: bought by Bob for 30" in results


def test_nowait_withdraws_wait(judge: Judge) -> None:
    send(judge, "Alice", "WAIT", "BID 20")
    bid(judge, "Bob", 10)
    bid(judge, "Carol", 5)
    send(judge, "Alice", "NOWAIT")
    assert any(m.subject == "g1 L1 results" for m in judge.new_mail())


# -- press --------------------------------------------------------------------------------------------


def test_press_without_endpress_sends_nothing_and_reports_an_error(judge: Judge) -> None:
    send(judge, "Alice", "PRESS TO Bob", "Let us share the lots.", "BID 10")
    mails = judge.new_mail()
    assert [m.to for m in mails] == [ALICE]
    assert "> PRESS TO Bob\n  ERROR: PRESS without ENDPRESS: nothing was sent" in mails[0].body
    assert judge.answer("BID 10").outcome == "ignored"
    assert "your bid: none yet" in send(judge, "Alice", "STATUS").body


def test_press_by_full_names_to_the_master_says_who_else_received_it(judge: Judge) -> None:
    send(judge, "Alice", "PRESS TO Bob Carol M", "A three-way deal?", "ENDPRESS")
    mails = {m.to: m for m in judge.new_mail()}
    assert set(mails) == {ALICE, BOB, CAROL, GM}
    assert "Press in g1 from Alice (also sent to Bob, the game master):" in mails[CAROL].body
    assert "A three-way deal?" in mails[GM].body
    assert "press sent to Bob, Carol, the game master" in mails[ALICE].body


def test_the_game_master_can_broadcast(judge: Judge) -> None:
    master(judge, "BROADCAST", "Deadlines move to Sundays.", "ENDPRESS")
    mails = {m.to: m for m in judge.new_mail()}
    assert {ALICE, BOB, CAROL} <= set(mails)
    assert "Press in g1 from the game master to everyone:" in mails[ALICE].body


# -- what is read, and how --------------------------------------------------------------------------


def test_a_mail_with_only_a_text_attachment_is_read_from_it(judge: Judge) -> None:
    raw = (b"From: alice@example.org\r\nTo: judge@localhost\r\nSubject: bid\r\nMessage-ID: <att@x>\r\n"
           b"MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=b\r\n\r\n--b\r\n"
           b"Content-Type: text/plain; charset=utf-8\r\n\r\n\r\n--b\r\n"
           b"Content-Type: text/plain; charset=utf-8\r\nContent-Disposition: attachment; filename=bid.txt\r\n\r\n"
           b"SIGNON Alice@g1 alice-pw\r\nBID 10\r\n--b--\r\n")
    assert judge.send_raw(raw) == "done"
    assert "the judge read your commands from its text attachment" in judge.last_to(ALICE).body
    assert judge.outcome_of("BID 10")[0] == "ok"


def test_announcements_have_short_subjects(judge: Judge) -> None:
    every_bid(judge)
    judge.new_mail()
    master(judge, "ROLLBACK", "SET DEADLINE 2026-01-09 18:00")
    news = to(judge.new_mail(), ALICE)[0]
    assert news.subject == "g1: the game master rolled the game back to L1 (and more)"
    assert "set the deadline of L1 to 2026-01-09 18:00 UTC" in news.body
    assert state(judge) == ("paused", "L1")
