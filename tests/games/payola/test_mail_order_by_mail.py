"""A Payola player's later mail is never replaced by an earlier one, whatever order the mail server
delivers them in (issue 24, item 1): its orders, acceptance list, vote and CLEAR; a TRANSFER is applied
as it comes.  The host's part (a seat's bids, whoever writes them) is played on the test kind in
tests/service/test_mail_order.py.  With the judge down, Postfix holds a player's successive
sheets and then delivers them in the order of its queue files, not in the order it took them.

Each mail here is handed over as the judge's MTA (``MTA``) hands it: its ``Received:`` line on
top says when the MTA accepted it, and that is the mail's place among the seat's mail.  The Date
header, the sender's clock, says the opposite in these tests, and is not what decides.
"""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import select

from judge.games.payola.store import PayolaSeat
from judge.store.models import Player
from tests.support.harness import Judge, two_player_game
from tests.support.held_mail import MTA, deliver

GM, ALICE, BOB = "gm@example.org", "alice@example.org", "bob@example.org"
FRANCE = "SIGNON FRANCE@g1 alice-pw\n"


def status(judge: Judge, sender: str = ALICE, signon: str = FRANCE) -> str:
    judge.send(sender, f"{signon}STATUS", subject="status")
    return judge.last_to(sender).body


def test_older_orders_do_not_replace_newer_ones(tmp_path: Path) -> None:
    judge = Judge(tmp_path, mta_hostname=MTA)
    judge.send(GM, "CREATE g1 gm-secret standard LOYAL_UNITS")
    judge.send(ALICE, "JOIN g1 alice-pw FRANCE")
    judge.send(BOB, "JOIN g1 bob-pw GERMANY")
    judge.send(GM, "SIGNON MASTER@g1 gm-secret\nSTART")
    orders = [(ALICE, f"{FRANCE}A PAR - {place}") for place in ("PIC", "GAS", "BUR")]
    answers = deliver(judge, orders, [3, 1, 2])
    assert "your orders:\n    A PAR - BUR" in status(judge)
    assert all(answer.codes("A PAR - " + place) == {("ignored", "SUPERSEDED")}
               for answer, place in zip(answers[1:], ("PIC", "GAS"), strict=True))


def test_an_older_acceptance_list_vote_clear_or_wait_replaces_nothing_newer(tmp_path: Path) -> None:
    judge = two_player_game(Judge(tmp_path, mta_hostname=MTA))
    mails = [(ALICE, f"{FRANCE}CLEAR"), (ALICE, f"{FRANCE}ACCEPT EFGIART\nVOTE DRAW\nWAIT"),
             (ALICE, f"{FRANCE}ACCEPT FGEIART\nVOTE NONE\nNOWAIT\n2 : A PAR - PIC")]
    answers = deliver(judge, mails, [3, 2, 1])
    shown = status(judge)
    assert "your acceptance list: FGEIART" in shown and "sheet/orders:\n    2 : A PAR - PIC" in shown
    with judge.db.transaction() as session:
        assert session.scalar(select(PayolaSeat.vote).join(Player, Player.id == PayolaSeat.player_id)
                              .where(Player.address == ALICE)) is None
    for line in ("ACCEPT EFGIART", "VOTE DRAW", "WAIT"):
        assert answers[1].codes(line) == {("ignored", "SUPERSEDED")}, line
    assert answers[2].codes("CLEAR") == {("ignored", "SUPERSEDED")}
    judge.send(GM, "SIGNON MASTER@g1 gm-secret\nPROCESS")  # WAIT would have held the phase: NOWAIT stands
    assert "g1 S1901M results" in [mail.subject for mail in judge.new_mail()]


def test_an_older_mail_still_transfers_money(tmp_path: Path) -> None:
    """A TRANSFER is not something a later mail replaces: it is applied as it comes."""
    judge = two_player_game(Judge(tmp_path, mta_hostname=MTA))
    mails = [(ALICE, f"{FRANCE}TRANSFER 5 TO GERMANY\n1 : A PAR - BUR"), (ALICE, f"{FRANCE}2 : A PAR - PIC")]
    answers = deliver(judge, mails, [2, 1])
    late = answers[1]
    assert "5 AgP sent to Germany" in late.body and late.codes("TRANSFER 5 TO GERMANY") == {("ok", None)}
    assert late.codes("1 : A PAR - BUR") == {("ignored", "SUPERSEDED")}
    assert "sheet/orders:\n    2 : A PAR - PIC" in status(judge)
