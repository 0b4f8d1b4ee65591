"""A game master's PROCESS (ROLLBACK, ROLLFORWARD) that crosses the phase's own end (issue 27's
season): the master, hearing nothing, sends PROCESS just as the last sheet comes in; the sheet is
applied first and completes the phase; the PROCESS, applied next, must not process the phase
after it, which nobody has seen yet.  Found by `bench/season.py`, whose masters did just that."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from sqlalchemy import select

from judge.service.app import apply_stored
from judge.service.handlers.mail import receive
from judge.store.models import PhaseRow
from tests.support.harness import Judge, raw_mail, two_player_game

GM, ALICE, BOB = "gm@example.org", "alice@example.org", "bob@example.org"


def phases(judge: Judge) -> list[tuple[str, str]]:
    with judge.db.transaction() as session:
        return [(row.name, row.status) for row in session.scalars(select(PhaseRow).order_by(PhaseRow.id))]


def test_a_process_sent_before_the_phase_ended_by_itself_does_not_process_the_next(tmp_path: Path) -> None:
    judge = two_player_game(Judge(tmp_path))
    judge.send(ALICE, "SIGNON FRANCE@g1 alice-pw\n1 : A PAR - BUR")
    receive(judge.db, raw_mail(BOB, "SIGNON GERMANY@g1 bob-pw\n1 : A MUN - RUH"), judge.now)  # the last sheet
    receive(judge.db, raw_mail(GM, "SIGNON MASTER@g1 gm-secret\nPROCESS", subject="process"), judge.now)
    judge.later(0.01)
    apply_stored(judge.db, judge.settings, judge.now)  # one run: the sheet, then the PROCESS
    judge.process("g1")  # delivers the outbox (nothing is due)
    assert phases(judge) == [("S1901M", "processed"), ("F1901M", "open")]
    answer = judge.last_to(GM)
    assert answer.subject == "Re: process"
    assert "not applied" in answer.body and "F1901M" in answer.body
    judge.send(GM, "SIGNON MASTER@g1 gm-secret\nPROCESS")  # sent again, knowing: it processes F1901M
    assert phases(judge)[:2] == [("S1901M", "processed"), ("F1901M", "processed")]


def test_start_and_process_in_one_mail_still_process_the_first_phase(tmp_path: Path) -> None:
    judge = Judge(tmp_path)
    judge.send(GM, "CREATE g1 gm-secret")
    judge.send(ALICE, "JOIN g1 alice-pw FRANCE")
    receive(judge.db, raw_mail(GM, "SIGNON MASTER@g1 gm-secret\nSTART\nPROCESS"), judge.now)
    apply_stored(judge.db, judge.settings, judge.now + timedelta(seconds=1))  # the phase opens after it came
    assert phases(judge)[0] == ("S1901M", "processed")


def test_a_process_sent_after_the_phase_began_processes_it(tmp_path: Path) -> None:
    judge = two_player_game(Judge(tmp_path))
    judge.later(1)
    receive(judge.db, raw_mail(GM, "SIGNON MASTER@g1 gm-secret\nPROCESS"), judge.now)
    apply_stored(judge.db, judge.settings, judge.now + timedelta(seconds=1))
    assert phases(judge)[0] == ("S1901M", "processed")
