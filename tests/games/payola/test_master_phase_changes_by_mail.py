"""ROLLBACK and ROLLFORWARD in Payola: what a ROLLBACK brings back is Payola's too (the acceptance
lists as they stood), and so is what ROLLFORWARD would discard (issue 23.5): a seat's sheet sent
after the ROLLBACK, a power's money or acceptance lists changed since, a transfer.  The host's side
of the game master's phase changes is played on the test kind
(`tests/service/test_master_phase_changes.py`)."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import select

from judge.store.models import Game
from tests.games.payola.by_mail import ENGLAND, FRANCE, GERMANY, MASTER, play_spring, start, to
from tests.support.harness import Judge
from tests.support.people import ALICE, BOB, CAROL, GM


@pytest.fixture
def judge(tmp_path: Path) -> Judge:
    """Game g1 with France, Germany and England, started 2026-01-05 12:00."""
    return start(Judge(tmp_path))


def state(judge: Judge) -> str:
    with judge.db.transaction() as session:
        return session.scalars(select(Game.state).where(Game.name == "g1")).one()


def status(judge: Judge, address: str, signon: str) -> str:
    """What the STATUS of the power signed on with ``signon`` says of its acceptance list and vote."""
    judge.send(address, signon + "STATUS")
    return "\n".join(line.strip() for line in judge.last_to(address).body.splitlines()
                     if line.strip().startswith(("your acceptance list:", "your vote (secret):")))


def test_a_rollback_brings_the_acceptance_lists_back_as_they_stood(judge: Judge) -> None:
    """England's list stood when S1901M was processed, France had none; in F1901M England writes
    another and France its first. A ROLLBACK to S1901M brings back the lists it was processed with:
    England's first one, and none for France (the default)."""
    judge.send(CAROL, ENGLAND + "ACCEPT EFG?")
    play_spring(judge)
    judge.send(CAROL, ENGLAND + "ACCEPT GFE?")
    judge.send(ALICE, FRANCE + "ACCEPT FEG?")
    judge.send(GM, MASTER + "ROLLBACK S1901M")
    assert judge.outcome_of("ROLLBACK S1901M")[0] == "ok"
    assert status(judge, CAROL, ENGLAND).startswith("your acceptance list: EFG?\n")
    assert status(judge, ALICE, FRANCE).startswith("your acceptance list: the default (own first, then ?)")


def test_rollforward_is_refused_once_a_power_changed_anything_since_the_rollback(judge: Judge) -> None:
    play_spring(judge)
    judge.send(GM, MASTER + "ROLLBACK")
    judge.send(ALICE, FRANCE + "9 : A PAR - PIC")  # the players were invited to change their orders
    judge.send(CAROL, ENGLAND + "ACCEPT E?")
    judge.new_mail()
    judge.send(GM, MASTER + "ROLLFORWARD")
    mails = judge.new_mail()
    assert ("> ROLLFORWARD\n  ERROR: not undone: since the ROLLBACK, France sent something in this phase; England "
            "changed money or acceptance lists, which ROLLFORWARD would discard; PROCESS processes S1901M with them "
            "as they are now") in to(mails, GM)[0].body
    assert [m.to for m in mails] == [GM]  # no results, no notice
    judge.send(ALICE, FRANCE + "STATUS")
    assert "9 : A PAR - PIC" in judge.last_to(ALICE).body  # still stands
    assert state(judge) == "paused"


def test_a_transfer_since_the_rollback_refuses_rollforward(judge: Judge) -> None:
    play_spring(judge)
    judge.send(GM, MASTER + "ROLLBACK")
    judge.send(BOB, GERMANY + "TRANSFER 5 TO FRANCE")
    judge.send(GM, MASTER + "ROLLFORWARD")
    assert judge.outcome_of("ROLLFORWARD") == ("error", "CHANGED_SINCE_ROLLBACK")
    assert "Germany" in judge.last_to(GM).body  # who changed something
