"""`bench/newcomers.py` run small: newcomers writing from the docs or filling the form, played through
the harness's judge, one game and one phase a kind (issue 69, "Show").

The numbers are worked out from the standard board and the classic board of 1454: in Spring 1901
the bench's six newcomer powers (France, Germany, England, Italy, Austria, Russia) have 3, 3, 3, 3, 3
and 4 units, an offer each, 19 lines; in Spring 1454 its four newcomer countries (Florence, Milan,
Venice, the Papacy) each pay or disband every unit they have."""

from __future__ import annotations

from collections import Counter

import pytest

from bench import newcomers
from bench.newcomers import Tally, population, report

SPRING_1901_LINES = 19  # 3 + 3 + 3 + 3 + 3 + 4 offers, one a unit
PAYOLA_SEATS = 6


@pytest.mark.parametrize(("kind", "seats"), [("payola", PAYOLA_SEATS), ("machiavelli", 4)])
@pytest.mark.parametrize("with_form", [False, True])
def test_without_slips_each_seat_sends_one_mail_and_no_line_is_refused(kind: str, seats: int,
                                                                       with_form: bool) -> None:
    """What the bench's newcomers write, from the docs or in the form, is read as they meant it: the
    judge refuses none of it, so nobody writes twice."""
    tally = population(newcomers.KINDS[kind](), games=1, phases=1, scale=0.0, seed=69, with_form=with_form)
    assert (tally.seat_phases, tally.mails, tally.refused) == (seats, seats, 0)
    if kind == "payola":
        assert tally.lines == SPRING_1901_LINES


def test_a_slip_is_refused_read_and_corrected_and_the_form_slips_only_in_its_free_text(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Every amount written another way and every place name misspelt: from the docs each of the 19
    offers has both slips, in the form only its amount (the order is copied from the form's list);
    the judge refuses every offer either way, and each seat sends one corrected mail, which it takes."""
    for slip in newcomers.RATES:
        monkeypatch.setitem(newcomers.RATES, slip, 1.0 if slip in ("amount", "province") else 0.0)
    docs = population(newcomers.Payola(), games=1, phases=1, scale=1.0, seed=69, with_form=False)
    form = population(newcomers.Payola(), games=1, phases=1, scale=1.0, seed=69, with_form=True)
    assert docs.slips == Counter(amount=SPRING_1901_LINES, province=SPRING_1901_LINES)
    assert form.slips == Counter(amount=SPRING_1901_LINES)
    for tally in (docs, form):
        assert (tally.seat_phases, tally.mails, tally.refused) == (PAYOLA_SEATS, 2 * PAYOLA_SEATS, SPRING_1901_LINES)


def test_the_table_marks_each_target_met_or_not() -> None:
    """11 mails in 10 seat-phases is 1.10 a seat a phase (at most 1.2: met); 4 refused lines against 8
    is 0.50 of the docs' (at most half: met); 13 mails is 1.30 (not met), 6 against 8 is 0.75 (not met)."""
    docs = Tally(seat_phases=10, mails=13, lines=40, refused=8)
    met = report("payola", docs, Tally(seat_phases=10, mails=11, lines=40, refused=4))
    assert "with the form 1.10 <= 1.2: met; refused lines 0.50 of the docs' <= 0.5: met" in met[3]
    missed = report("payola", docs, Tally(seat_phases=10, mails=13, lines=40, refused=6))
    assert "with the form 1.30 <= 1.2: NOT met; refused lines 0.75 of the docs' <= 0.5: NOT met" in missed[3]
