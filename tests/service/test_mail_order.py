"""A player's later mail is never replaced by an earlier one, whatever order the mail server
delivers them in (issue 24, item 1).  With the judge down, Postfix holds a player's successive
bids and then delivers them in the order of its queue files, not in the order it took them.

Each mail here is handed over as the judge's MTA (``MTA``) hands it: its ``Received:`` line on
top says when the MTA accepted it, and that is the mail's place among the seat's mail.  The Date
header, the sender's clock, says the opposite in these tests, and is not what decides.  Played on
the test kind's auction g1 (`tests.support.auction`: Alice and Bob)."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from tests.support.auction import auction_judge, send, start_auction
from tests.support.harness import Judge
from tests.support.held_mail import MTA, deliver, held_mail
from tests.support.people import ALICE, BOB

ALICE_SIGNON = "SIGNON Alice@g1 alice-pw\n"


def started(tmp_path: Path) -> Judge:
    judge = start_auction(auction_judge(tmp_path, mta_hostname=MTA))
    judge.new_mail()
    return judge


def test_five_bids_delivered_in_scrambled_order_keep_the_last_one(tmp_path: Path) -> None:
    judge = started(tmp_path)
    bids = [(ALICE, f"{ALICE_SIGNON}BID {n}") for n in range(1, 6)]
    answers = deliver(judge, bids, [2, 4, 1, 5, 3])
    assert "your bid: 5" in send(judge, "Alice", "STATUS").body
    applied = [n for n, answer in zip([2, 4, 1, 5, 3], answers, strict=True) if answer.codes(f"BID {n}") == {
        ("ok", None)}]
    assert applied == [2, 4, 5]  # each the latest so far when it came; 1 and 3 came after a later one
    late = answers[2]  # the first mail, delivered after the fourth
    assert late.codes("BID 1") == {("ignored", "SUPERSEDED")}
    assert "2026-01-05 11:51:00 UTC" in late.body and "2026-01-05 11:54:00 UTC" in late.body  # its time, the later's


def test_after_an_outage_longer_than_max_lateness_the_last_bid_is_still_kept(tmp_path: Path) -> None:
    """A deadline is not told by a time more than ``max_lateness`` old (a clock gone wrong), but
    the order of one seat's mail is: they all come from the same MTA's clock."""
    judge = started(tmp_path)
    bids = [(ALICE, f"{ALICE_SIGNON}BID {n}") for n in range(1, 6)]
    deliver(judge, bids, [2, 4, 1, 5, 3], held=timedelta(days=3))
    assert "your bid: 5" in send(judge, "Alice", "STATUS").body


def test_a_seat_is_one_whoever_writes_for_it_and_other_seats_are_their_own(tmp_path: Path) -> None:
    """The mail of a seat is ordered as one, from whatever address it comes; another seat's
    older mail is nothing to it."""
    judge = started(tmp_path)
    mails = [(ALICE, f"{ALICE_SIGNON}BID 1"), ("alice@work.example", f"{ALICE_SIGNON}BID 2"),
             (BOB, "SIGNON Bob@g1 bob-pw\nWAIT")]
    answers = deliver(judge, mails, [2, 3, 1])
    assert "your bid: 2" in send(judge, "Alice", "STATUS").body
    assert answers[1].codes("WAIT") == {("ok", "WAITING")}  # Bob's, older than Alice's second
    assert answers[2].codes("BID 1") == {("ignored", "SUPERSEDED")}


def test_a_mail_the_mta_accepted_in_the_second_of_a_later_one_is_taken_in_the_order_it_came(tmp_path: Path) -> None:
    """The MTA's Received: line dates a mail to the second (RFC 5322's date-time). Alice's first bid
    came with no such line and was stored at 12:00:00.5; her second, which the MTA accepted 0.2 s
    later, reads 12:00:00 there. At the resolution the line has, the two are of one second, neither
    older than the other, and the order they came in decides: the second bid stands."""
    judge = started(tmp_path)
    judge.now = judge.now.replace(microsecond=500_000)
    send(judge, "Alice", "BID 1")
    judge.send_raw(held_mail(ALICE, f"{ALICE_SIGNON}BID 2", judge.now + timedelta(seconds=0.2)))
    assert judge.outcome_of("BID 2") == ("ok", None)
    assert "your bid: 2" in send(judge, "Alice", "STATUS").body
