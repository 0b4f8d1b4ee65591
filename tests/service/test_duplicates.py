"""A mail sent again is applied once; another mail under the same Message-ID is not a duplicate
(issue 22.12): a duplicate has the Message-ID, the sender and the command text of a mail
applied before.  Played on the test kind's auction g1 (the fixture ``auction``)."""

from __future__ import annotations

import base64

from tests.support.harness import Judge, raw_mail

ALICE, BOB = "alice@example.org", "bob@example.org"
SHARED = "<orders-1@example.org>"


def test_another_players_mail_under_a_message_id_used_before_is_applied_and_answered(auction: Judge) -> None:
    assert auction.send(ALICE, "SIGNON Alice@g1 alice-pw\nSTATUS", message_id=SHARED) == "done"
    assert auction.send(BOB, "SIGNON Bob@g1 bob-pw\nSTATUS", message_id=SHARED) == "done"
    assert "your coins: 100" in auction.last_to(BOB).body
    forged = auction.send(ALICE, "SIGNON Alice@g1 alice-pw\nSTATUS\nWAIT", message_id=SHARED)  # same sender, other text
    assert forged == "done" and "> WAIT" in auction.last_to(ALICE).body


def test_a_message_id_taken_first_by_someone_else_does_not_silence_the_player(auction: Judge) -> None:
    assert auction.send("mallory@evil.example", "HELP", message_id=SHARED) == "done"
    assert auction.send(ALICE, "SIGNON Alice@g1 alice-pw\nSTATUS", message_id=SHARED) == "done"
    assert "your coins: 100" in auction.last_to(ALICE).body


def test_a_true_resend_is_still_a_silent_duplicate(auction: Judge) -> None:
    raw = raw_mail(ALICE, "SIGNON Alice@g1 alice-pw\nSTATUS", message_id=SHARED)
    assert auction.send_raw(raw) == "done"
    auction.new_mail()
    assert auction.send_raw(raw) == "duplicate"
    head, _, body = raw.partition(b"\n\n")  # the same mail, its text re-encoded by a relay on the way
    recoded = (head.replace(b"Content-Transfer-Encoding: 7bit", b"Content-Transfer-Encoding: base64")
               + b"\n\n" + base64.encodebytes(body))
    assert recoded != raw and auction.send_raw(recoded) == "duplicate"
    assert auction.new_mail() == []
