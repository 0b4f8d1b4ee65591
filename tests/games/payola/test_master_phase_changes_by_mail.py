"""ROLLBACK and ROLLFORWARD in Payola: what a ROLLBACK brings back is Payola's too (the acceptance
lists and the votes on the game's end as they stood), and so is what ROLLFORWARD would discard
(issue 23.5): a seat's sheet sent after the ROLLBACK, a power's money or acceptance lists changed
since, a transfer, a vote.  The host's side of the game master's phase changes is played on the
test kind (`tests/service/test_master_phase_changes.py`)."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import select

from judge.store.models import Game, PhaseRow
from tests.games.payola.by_mail import ENGLAND, FRANCE, GERMANY, MASTER, play_spring, start, to
from tests.support.harness import Judge
from tests.support.people import ALICE, BOB, CAROL, GM

DAN = "dan@example.org"


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


def test_a_rollback_brings_the_votes_back_as_they_stood(judge: Judge) -> None:
    """A power's vote on the game's end is the game's state as much as its list: France votes DRAW
    in S1901M, which is then processed; in F1901M Germany votes DRAW and France withdraws. A
    ROLLBACK to S1901M brings back the votes standing when it was processed, and every player is
    told so: France's DRAW stands again, and Germany's, cast after, is gone."""
    judge.send(ALICE, FRANCE + "VOTE DRAW")
    play_spring(judge)
    judge.send(BOB, GERMANY + "VOTE DRAW")
    judge.send(ALICE, FRANCE + "VOTE NONE")
    judge.new_mail()
    judge.send(GM, MASTER + "ROLLBACK")
    assert judge.outcome_of("ROLLBACK")[0] == "ok"
    [told] = to(judge.new_mail(), CAROL)
    assert "acceptance lists and votes on the game's end are as they were before it was processed" in told.body
    assert status(judge, ALICE, FRANCE).endswith("your vote (secret): for a draw including all survivors")
    assert status(judge, BOB, GERMANY).endswith("your vote (secret): none")


def test_a_rollback_gives_no_new_player_the_vote_of_the_player_before(tmp_path: Path) -> None:
    """A power's vote is its player's (a new player starts with none): Germany and England vote DRAW
    in S1901M, which is processed; an hour later, in F1901M, England withdraws, Germany's player
    resigns and Dan takes Germany over. A ROLLBACK to S1901M brings England's DRAW back, but does not
    give Dan the vote his predecessor cast: Germany has none."""
    judge = start(Judge(tmp_path), "OPEN_TAKEOVER")
    judge.send(BOB, GERMANY + "VOTE DRAW")
    judge.send(CAROL, ENGLAND + "VOTE DRAW")
    play_spring(judge)
    judge.later(1)
    judge.send(CAROL, ENGLAND + "VOTE NONE")
    judge.send(BOB, GERMANY + "RESIGN")
    judge.send(DAN, "TAKEOVER GERMANY@g1 dan-pw")
    assert judge.outcome_of("TAKEOVER GERMANY@g1 ****")[0] == "ok"
    judge.send(GM, MASTER + "ROLLBACK")
    assert status(judge, CAROL, ENGLAND).endswith("your vote (secret): for a draw including all survivors")
    assert status(judge, DAN, "SIGNON G@g1 dan-pw\n").endswith("your vote (secret): none")


def test_a_rollback_to_a_phase_an_older_judge_processed_leaves_the_votes_as_they_are(judge: Judge) -> None:
    """A phase processed before its result kept the votes (an older judge's) says nothing of them: a
    ROLLBACK to it leaves them as they stand (France's DRAW, cast after it), rather than withdraw
    every one."""
    play_spring(judge)
    judge.send(ALICE, FRANCE + "VOTE DRAW")
    with judge.db.transaction() as session:
        row = session.scalars(select(PhaseRow).where(PhaseRow.name == "S1901M")).one()
        row.result = {key: value for key, value in row.result.items() if key != "votes"}
    judge.send(GM, MASTER + "ROLLBACK")
    assert judge.outcome_of("ROLLBACK")[0] == "ok"
    assert status(judge, ALICE, FRANCE).endswith("your vote (secret): for a draw including all survivors")


def test_rollforward_is_refused_once_a_vote_changed_since_the_rollback(judge: Judge) -> None:
    """ROLLFORWARD processes the phase again as it was rolled back, with France's DRAW standing as it
    did: once Germany votes DRAW it would discard that vote, so it is refused, saying that a vote
    changed but never whose (votes are secret, from the game master too); once France withdraws
    too, 2 votes changed.  Once both are as they were, nothing it would discard has changed, and it
    processes S1901M again."""
    judge.send(ALICE, FRANCE + "VOTE DRAW")
    play_spring(judge)
    judge.send(GM, MASTER + "ROLLBACK")
    judge.send(BOB, GERMANY + "VOTE DRAW")
    judge.send(GM, MASTER + "ROLLFORWARD")
    assert judge.outcome_of("ROLLFORWARD") == ("error", "CHANGED_SINCE_ROLLBACK")
    assert ("> ROLLFORWARD\n  ERROR: not undone: since the ROLLBACK, a vote on the game's end changed, which "
            "ROLLFORWARD would discard; PROCESS processes S1901M with them as they are now") in judge.last_to(GM).body
    judge.send(ALICE, FRANCE + "VOTE NONE")
    judge.send(GM, MASTER + "ROLLFORWARD")
    refused = judge.last_to(GM).body
    assert "since the ROLLBACK, 2 votes on the game's end changed, which ROLLFORWARD would discard" in refused
    assert not any(power in refused for power in ("France", "Germany", "England"))
    assert state(judge) == "paused"
    judge.send(BOB, GERMANY + "VOTE NONE")
    judge.send(ALICE, FRANCE + "VOTE DRAW")
    judge.send(GM, MASTER + "ROLLFORWARD")
    assert judge.outcome_of("ROLLFORWARD")[0] == "ok"
    assert state(judge) == "active"
    assert status(judge, ALICE, FRANCE).endswith("your vote (secret): for a draw including all survivors")


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
