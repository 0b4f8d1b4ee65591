"""A game master's PROCESS (ROLLBACK, ROLLFORWARD) that crosses the phase's own end (issue 27's
season): the master, hearing nothing, sends PROCESS just as the last sheet comes in; the sheet is
applied first and completes the phase; the PROCESS, applied next, must not process the phase
after it, which nobody has seen yet.  Found by `bench/season.py`, whose masters did just that.
Played on the test kind's auction g1 (`tests.support.auction`): a phase is a lot, L1, L2..."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from sqlalchemy import select

from judge.service.incoming.handlers.mail import receive
from judge.service.running.app import apply_stored
from judge.store.models import PhaseRow
from tests.support.auction import auction_judge, start_auction
from tests.support.harness import Judge, raw_mail
from tests.support.held_mail import MTA, held_mail

GM, ALICE, BOB = "gm@example.org", "alice@example.org", "bob@example.org"


def phases(judge: Judge) -> list[tuple[str, str]]:
    with judge.db.transaction() as session:
        return [(row.name, row.status) for row in session.scalars(select(PhaseRow).order_by(PhaseRow.id))]


def test_a_process_sent_before_the_phase_ended_by_itself_does_not_process_the_next(tmp_path: Path) -> None:
    judge = start_auction(auction_judge(tmp_path))
    judge.send(ALICE, "SIGNON Alice@g1 alice-pw\nBID 10")
    receive(judge.db, raw_mail(BOB, "SIGNON Bob@g1 bob-pw\nBID 5"), judge.now)  # the last bid
    receive(judge.db, raw_mail(GM, "SIGNON MASTER@g1 gm-secret\nPROCESS", subject="process"), judge.now)
    judge.later(0.01)
    apply_stored(judge.db, judge.settings, judge.now)  # one run: the bid, then the PROCESS
    judge.process("g1")  # delivers the outbox (nothing is due)
    assert phases(judge) == [("L1", "processed"), ("L2", "open")]
    answer = judge.last_to(GM)
    assert answer.subject == "Re: process"
    assert "not applied" in answer.body and "L2" in answer.body
    judge.send(GM, "SIGNON MASTER@g1 gm-secret\nPROCESS")  # sent again, knowing: it processes L2
    assert phases(judge)[:2] == [("L1", "processed"), ("L2", "processed")]


def test_start_and_process_in_one_mail_still_process_the_first_phase(tmp_path: Path) -> None:
    judge = auction_judge(tmp_path)
    judge.send(GM, "CREATE g1 gm-secret auction")
    judge.send(ALICE, "JOIN g1 alice-pw Alice")
    judge.send(BOB, "JOIN g1 bob-pw Bob")
    receive(judge.db, raw_mail(GM, "SIGNON MASTER@g1 gm-secret\nSTART\nPROCESS"), judge.now)
    apply_stored(judge.db, judge.settings, judge.now + timedelta(seconds=1))  # the phase opens after it came
    assert phases(judge)[0] == ("L1", "processed")


def test_a_process_sent_after_the_phase_began_processes_it(tmp_path: Path) -> None:
    judge = start_auction(auction_judge(tmp_path))
    judge.later(1)
    receive(judge.db, raw_mail(GM, "SIGNON MASTER@g1 gm-secret\nPROCESS"), judge.now)
    apply_stored(judge.db, judge.settings, judge.now + timedelta(seconds=1))
    assert phases(judge)[0] == ("L1", "processed")


def test_a_process_the_mta_accepted_in_the_second_the_phase_began_processes_it(tmp_path: Path) -> None:
    """The MTA's Received: line dates a mail to the second (RFC 5322's date-time). L2 began at
    13:00:00.4 (the last bid); the master's PROCESS, accepted by the MTA at 13:00:00.7, reads 13:00:00
    there and is stored a second later. At the resolution the line has it is not older than L2, whose
    start mail its master may have read: it processes L2."""
    judge = start_auction(auction_judge(tmp_path, mta_hostname=MTA))
    judge.send(ALICE, "SIGNON Alice@g1 alice-pw\nBID 10")
    judge.now = judge.now.replace(minute=0, second=0, microsecond=400_000) + timedelta(hours=1)
    judge.send(BOB, "SIGNON Bob@g1 bob-pw\nBID 5")
    assert phases(judge) == [("L1", "processed"), ("L2", "open")]
    accepted = judge.now + timedelta(seconds=0.3)
    judge.now += timedelta(seconds=1)
    judge.send_raw(held_mail(GM, "SIGNON MASTER@g1 gm-secret\nPROCESS", accepted))
    assert judge.outcome_of("PROCESS")[0] == "ok"
    assert phases(judge)[:2] == [("L1", "processed"), ("L2", "processed")]
