"""Orders read only from mail sent to the judge alone, where a kind says so (Machiavelli's 17.4,
ruling M58): a mail whose To or Cc names anyone besides the judge is read for everything that is
not an order of the game (press, STATUS, sign-on), but no letter or correction in it is taken, each
such line saying why, and the phase's one correction (17.1, M35) is not used up by it.  A kind that
says nothing of it (the test kind's auction, as Payola) reads a copied mail's orders as ever."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import select

from judge.games.machiavelli import lifecycle
from judge.store.models import Game
from tests.service.every_kind import AUCTION, MACHIAVELLI
from tests.support.auction import auction_judge
from tests.support.harness import Judge


def letter(judge: Judge) -> dict[str, object]:
    """Florence's letter standing in SP1454A, as the judge keeps it (its orders, and its number: 2, a
    correction)."""
    with judge.db.transaction() as session:
        game = session.scalars(select(Game).where(Game.name == "m1")).one()
        return dict(lifecycle.letters_of(session, game, "SP1454A")["Florence"].parsed)


def test_m58_a_letter_copied_to_another_address_is_not_taken_and_the_correction_is_not_used_up(
        tmp_path: Path) -> None:
    judge = MACHIAVELLI.begin(Judge(tmp_path))
    MACHIAVELLI.send(judge, 0, "pay A flo")  # Florence's letter, to the judge alone
    assert letter(judge)["number"] == 1
    MACHIAVELLI.send(judge, 0, "pay A flo", "pay A are", "PRESS TO Milan", "Shall we talk?", "ENDPRESS", "STATUS",
                     headers={"Cc": "Bob <bob@example.org>"})
    assert judge.outcome_of("pay A flo") == ("ignored", "SENT_TO_OTHERS")
    assert judge.outcome_of("pay A are") == ("ignored", "SENT_TO_OTHERS")
    assert judge.outcome_of("PRESS TO Milan")[0] == "ok"  # the mail's other commands are read
    assert judge.outcome_of("STATUS")[0] == "info"
    assert "Shall we talk?" in judge.last_to("bob@example.org").body
    assert letter(judge) == {"orders": ["pay A flo"], "kept": [], "number": 1}
    MACHIAVELLI.send(judge, 0, "pay A flo", "pay A are")  # to the judge alone: the one correction (17.1)
    assert judge.outcome_of("pay A are") == ("ok", "READ")
    assert letter(judge) == {"orders": ["pay A flo", "pay A are"], "kept": [], "number": 2}


def test_m58_a_mail_to_the_judge_and_another_address_is_not_taken_either(tmp_path: Path) -> None:
    """To, not Cc: the judge is one of two addresses the mail was sent to."""
    judge = MACHIAVELLI.begin(Judge(tmp_path))
    MACHIAVELLI.send(judge, 0, "pay A flo", headers={"To": "judge@localhost, bob@example.org"})
    assert judge.outcome_of("pay A flo") == ("ignored", "SENT_TO_OTHERS")
    assert MACHIAVELLI.kept(judge, "SP1454A") == []


def test_m58_a_letter_copied_to_its_writers_own_address_is_not_taken_and_the_note_says_whose_it_is(
        tmp_path: Path) -> None:
    """M58 counts every address but the judge's, the writer's own too: the note names it as theirs, so
    that "sent to others too" does not read as a mistake of the judge's."""
    judge = MACHIAVELLI.begin(Judge(tmp_path))
    own = MACHIAVELLI.seats[0].address
    reply = MACHIAVELLI.send(judge, 0, "pay A flo", headers={"Cc": own}).body
    assert judge.outcome_of("pay A flo") == ("ignored", "SENT_TO_OTHERS")
    assert f"This mail was sent to others too ({own}, your own)" in reply


def test_m58_the_judges_own_address_however_written_is_no_other(tmp_path: Path) -> None:
    judge = MACHIAVELLI.begin(Judge(tmp_path))
    MACHIAVELLI.send(judge, 0, "pay A flo", headers={"To": "The Judge <JUDGE@LocalHost>", "Cc": "judge@localhost"})
    assert judge.outcome_of("pay A flo") == ("ok", "LEFT_OFF")  # taken, with its warning: other units unpaid (M12)
    assert MACHIAVELLI.kept(judge, "SP1454A") == ["letter"]


def test_a_kind_that_reads_any_mails_orders_takes_a_copied_one(tmp_path: Path) -> None:
    judge = AUCTION.begin(auction_judge(tmp_path))
    AUCTION.send(judge, 0, "BID 10", headers={"Cc": "bob@example.org"})
    assert judge.outcome_of("BID 10")[0] == "ok"
    assert AUCTION.kept(judge, "L1") == ["bid"]
