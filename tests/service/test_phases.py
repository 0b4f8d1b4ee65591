"""When a phase ends (issue 23, item 6): a WAIT holds a phase to its deadline, not through the grace
period.  Played on the test kind's auction g1 (`tests.support.auction`: Alice, Bob and Carol; L1 due
24 hours after its start), by mail through the game service and the clock as ``judge tick`` runs it."""

from __future__ import annotations

from pathlib import Path

from tests.support.auction import auction_judge, bid, master, send, start_auction, state
from tests.support.harness import Judge


def start(tmp_path: Path) -> Judge:
    judge = start_auction(auction_judge(tmp_path), players=3)
    judge.new_mail()
    return judge


def test_a_late_bid_that_completes_the_set_during_grace_is_processed_at_once_despite_wait(tmp_path: Path) -> None:
    judge = start(tmp_path)
    master(judge, "SET GRACE 6")
    send(judge, "Alice", "WAIT", "BID 20")
    bid(judge, "Bob", 10)
    judge.later(24)  # the deadline: Carol is late
    assert judge.tick()[0].endswith("notices sent to Carol")
    judge.later(1)
    bid(judge, "Carol", 5)  # within the grace period
    assert any(m.subject == "g1 L1 results" for m in judge.new_mail())


def test_wait_with_every_bid_in_is_processed_at_the_deadline_not_after_the_grace(tmp_path: Path) -> None:
    judge = start(tmp_path)
    master(judge, "SET GRACE 6")
    send(judge, "Alice", "WAIT", "BID 20")
    bid(judge, "Bob", 10)
    bid(judge, "Carol", 5)
    assert state(judge) == ("active", "L1")  # WAIT holds it until the deadline
    judge.later(24)
    assert judge.tick() == ["g1 L1 processed; next L2"]
