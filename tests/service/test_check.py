"""A check (a dry run), in every kind: a mail with a line ``CHECK`` is read and answered line by line
as it would be applied, its STATUS as things would stand, then undone whole: nothing in it is
stored, no phase closes, no press or notice is sent; the reply is all that is sent.  A refused
sign-on in a check still counts toward its source's back-off, and the answers it costs are counted."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import func, select

from judge.store.models import Outbox, SignonFailure
from tests.service.every_kind import AUCTION, EARLY, TESTED, Kind
from tests.support.auction import auction_judge
from tests.support.harness import Judge

every_kind = pytest.mark.parametrize("kind", TESTED, ids=lambda kind: kind.name)


def outbox(judge: Judge) -> int:
    with judge.db.transaction() as session:
        return session.scalar(select(func.count()).select_from(Outbox)) or 0


@every_kind
def test_a_check_answers_the_full_reading_and_stores_nothing(tmp_path: Path, kind: Kind) -> None:
    judge = kind.begin(kind.judge(tmp_path))
    kind.as_master(judge, "PROCESS")  # the second phase, in which kind.later is a line to keep
    judge.new_mail()
    sent = outbox(judge)
    other = kind.seats[1].title
    reply = kind.send(judge, 0, "CHECK", kind.later, f"PRESS TO {other}", "Hello", "ENDPRESS", "STATUS")
    assert judge.outcome_of("CHECK") == ("ok", "CHECK")
    assert judge.outcome_of(kind.later)[0] == "ok"  # read as it would be applied
    assert judge.outcome_of(f"PRESS TO {other}")[0] == "ok"
    assert judge.outcome_of("STATUS")[0] == "info"
    assert "nothing in it was applied, stored or sent" in reply.body
    assert kind.kept(judge, kind.second) == []
    assert [mail.to for mail in judge.new_mail()] == [kind.seats[0].address]  # the reply alone
    assert outbox(judge) == sent + 1
    kind.send(judge, 0, kind.later)  # the same without CHECK
    assert kind.kept(judge, kind.second) != []


@pytest.mark.parametrize("kind", EARLY, ids=lambda kind: kind.name)
def test_a_check_that_would_complete_the_phase_closes_nothing(tmp_path: Path, kind: Kind) -> None:
    judge = kind.begin(kind.judge(tmp_path))
    for seat in range(1, len(kind.seats)):
        kind.send(judge, seat, kind.sent[seat])
    judge.new_mail()
    kind.send(judge, 0, kind.sent[0], "CHECK")  # CHECK anywhere in the mail
    assert kind.phase(judge) == kind.first
    assert [mail.subject for mail in judge.new_mail()] == ["Re: orders"]


def test_a_refused_sign_on_in_a_check_still_counts_toward_the_back_off(tmp_path: Path) -> None:
    kind = AUCTION
    judge = kind.begin(auction_judge(tmp_path))
    seat = kind.seats[0]
    judge.send(seat.address, f"CHECK\n{seat.signon}-wrong\n{kind.sent[0]}")
    assert judge.outcome_of(f"{seat.signon.rsplit(' ', 1)[0]} ****") == ("error", "SIGNON_REFUSED")
    with judge.db.transaction() as session:
        assert session.scalar(select(func.count()).select_from(SignonFailure)) == 1


def test_a_terminate_in_a_check_gives_no_code_that_would_not_work(tmp_path: Path) -> None:
    """TERMINATE alone answers with the code that confirms it, kept in the game; a check keeps
    nothing, so a code given in a check would be refused when sent: a check says so and gives
    none, and the game master's next TERMINATE gives one that ends the game."""
    kind = AUCTION
    judge = kind.begin(auction_judge(tmp_path))
    checked = kind.as_master(judge, "CHECK", "TERMINATE")
    assert judge.outcome_of("TERMINATE") == ("ok", "TO_CONFIRM")
    assert "send TERMINATE in a mail without CHECK" in checked.body
    assert "to confirm, send TERMINATE " not in checked.body
    asked = kind.as_master(judge, "TERMINATE").body
    code = asked.split("to confirm, send TERMINATE ", 1)[1].split()[0]
    kind.as_master(judge, f"TERMINATE {code}")
    assert judge.outcome_of(f"TERMINATE {code}")[0] == "ok"
