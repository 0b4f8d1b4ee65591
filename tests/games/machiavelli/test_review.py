"""What a letter's acknowledgment warns of (17.1, M35: a letter may be corrected once before the
deadline): the units a payment list leaves off (7.1, M12), two orders for one unit (8.1, 8.2),
orders for units the writer does not command (8.2, M50), a transfer of 0 ducats (8.1, M31), a
unit raised where none of its kind can stand (7.2, M13); worked out by hand on the classic board's units of 1454."""

from __future__ import annotations

from judge.games.machiavelli.core.position import Phase
from judge.games.machiavelli.core.results import Reason
from judge.games.machiavelli.core.review import Caveat, review

from .helpers import BOARD, A, F, G, game, letter

FLORENCE = (A("Florence", "flo"), A("Florence", "are"), F("Florence", "psa"))


def cautions(text: str, phase: Phase) -> list[tuple[int, Caveat, str]]:
    start = game(*FLORENCE, A("Milan", "mil"), A("Milan", "per"), G("Milan", "cre"), phase=phase)
    return [(c.at, c.caveat, c.subject) for c in review(BOARD, start, "Florence", letter(text))]


def test_M12_a_payment_list_warns_of_the_units_it_leaves_off_at_its_first_a7_order() -> None:
    """Florence pays its army in Florence and raises in Pisa: its army in Arezzo and its fleet in
    Pisa are not listed, and would be disbanded (7.1, M12)."""
    assert cautions("transfer 3 to Milan\npay A flo\nraise A psa", Phase.A) == [
        (1, Caveat.LEFT_OFF, "A are, F psa")]


def test_M12_a_spring_letter_without_a7_orders_pays_by_default_and_warns_of_nothing() -> None:
    assert cautions("transfer 3 to Milan", Phase.A) == []
    assert cautions("pay A flo\npay A are\ndisband F psa", Phase.A) == []  # every unit named


def test_M13_a_unit_raised_where_none_of_its_kind_can_stand_is_warned_of() -> None:
    """7.2, M13: an army needs a city, a fleet a port city.  Pistoia has no city and Arezzo's is
    inland: A pst and F are can never be raised; a garrison in Pisa's fortified port can (beside
    the fleet, in the province)."""
    start = game(*FLORENCE, phase=Phase.A)
    found = review(BOARD, start, "Florence", letter("pay A flo\npay A are\npay F psa\nraise A pst\nraise F are\n"
                                                    "raise G psa"))
    assert [(c.at, c.caveat, c.subject) for c in found] == [
        (3, Caveat.CANNOT_RAISE, "A pst"), (4, Caveat.CANNOT_RAISE, "F are")]
    assert str(found[0]) == f"A pst cannot be raised there: {Reason.NO_CITY_FOR_IT.value}"


def test_8_1_a_unit_paid_twice_and_a_unit_not_ones_own_are_warned_of() -> None:
    """The second payment for A flo contradicts the first (8.1); Milan's army is not Florence's to
    pay (7); A are and F psa are left off."""
    assert cautions("pay A flo\npay A flo\npay A mil", Phase.A) == [
        (0, Caveat.LEFT_OFF, "A are, F psa"), (1, Caveat.PAID_TWICE, "A flo"), (2, Caveat.NOT_YOURS_TO_PAY, "A mil")]


def test_8_2_M50_two_orders_for_a_unit_and_orders_for_units_not_commanded_are_warned_of() -> None:
    """A flo is given an advance, then a hold (two orders: it would hold, 8.2), then the advance
    again (the same order: one order, no warning); A mil is Milan's (ignored, M50); nothing stands
    in Bologna (8.2); a transfer of 0 is none (M31); A per is Milan's too, but the letter buys it,
    so its order is the one 8.2 allows for a unit one tries to bribe."""
    text = ("A flo - pst\nA flo H\nA flo - pst\nA mil - tyr\nA bol H\ntransfer 0 to Venice\nbribe 18 buy A per\n"
            "A per - sie\nG cre H")
    assert cautions(text, Phase.C) == [
        (1, Caveat.TWO_ORDERS, "A flo"), (3, Caveat.NOT_YOURS, "A mil"), (4, Caveat.NO_SUCH_UNIT, "A bol"),
        (5, Caveat.NO_DUCATS, ""), (8, Caveat.NOT_YOURS, "G cre")]


def test_a_letter_of_sound_orders_warns_of_nothing() -> None:
    assert cautions("transfer 3 to Milan\nA flo - pst\nA are S A flo - pst\nF psa H", Phase.C) == []
