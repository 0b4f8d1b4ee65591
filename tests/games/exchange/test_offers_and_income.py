"""X.6 and X.7: investors' private offers, and income (rulings E25-E28)."""

from __future__ import annotations

from judge.engine.orders import PhaseKind
from judge.engine.position import Phase, Position, Season
from judge.games.exchange.core.income import corporate_income
from judge.games.exchange.core.state import Stage
from judge.games.exchange.core.year import CorporateSheet, MovementSheets, run_income, run_movement
from judge.payola.offers import parse_sheet
from judge.payola.options import Options
from tests.games.exchange.game import STANDARD, A, F, G, at_movement, money, offers


def test_E25_an_investors_offer_is_at_least_one_agp_and_a_negative_offer_builds_its_zero_hold() -> None:
    state = at_movement(ceos={F: "BOB"}, treasuries={F: 10})
    _, errors = parse_sheet("0 : A PAR H", state.position, "ANN")
    assert [e.error for e in errors] == ["zero offers to foreign units are not allowed"]
    # France offers 2 for A PAR - BUR; ANN's negative offer of 3 against it pays for PAR's HOLD
    # (its zero HOLD is a candidate): HOLD 3 against BUR 2.
    position = state.position
    after, record = run_movement(state, MovementSheets(
        {F: CorporateSheet(offers("2 : A PAR - BUR", F, position))},
        {"ANN": offers("3 ! A PAR - BUR", "ANN", position)}), 1)
    assert str(record.determination.units["PAR"].order) == "A PAR H"
    assert (after.purses["ANN"], after.treasuries[F]) == (57, 10)


def test_E26_investors_rank_after_every_corporation_then_in_the_investor_order() -> None:
    # A MUN: France (BOB) offers 2 for BUR, ANN 2 for RUH; Germany's zero HOLD; Germany's list is
    # "G?": France, in the ?, comes before any investor.
    state = at_movement(ceos={F: "BOB", G: "CAT"}, treasuries={F: 5})
    position = state.position
    _, record = run_movement(state, MovementSheets(
        {F: CorporateSheet(offers("2 : A MUN - BUR", F, position))},
        {"ANN": offers("2 : A MUN - RUH", "ANN", position)}), 1)
    assert str(record.determination.units["MUN"].order) == "A MUN - BUR"
    # Between investors: BOB before ANN in the investor order wins the tie, and the other way round.
    sheets = MovementSheets(investors={"ANN": offers("2 : A MUN - RUH", "ANN", position),
                                       "BOB": offers("2 : A MUN - BUR", "BOB", position)})
    for order, issued in ((("BOB", "ANN", "CAT"), "A MUN - BUR"), (("ANN", "BOB", "CAT"), "A MUN - RUH")):
        _, record = run_movement(state.evolve(order=order), sheets, 1)
        assert str(record.determination.units["MUN"].order) == issued


def test_E26_a_ceos_private_offers_and_the_corporations_are_different_offerers() -> None:
    # BOB, France's CEO, offers 1 of his own and France 1 of its own for A MUN - BUR: 2 against ANN's
    # 1 for RUH; each pays its own 1.
    state = at_movement(ceos={F: "BOB"}, treasuries={F: 5})
    position = state.position
    after, _ = run_movement(state, MovementSheets(
        {F: CorporateSheet(offers("1 : A MUN - BUR", F, position))},
        {"BOB": offers("1 : A MUN - BUR", "BOB", position), "ANN": offers("1 : A MUN - RUH", "ANN", position)}), 1)
    assert (after.purses["BOB"], after.treasuries[F], after.purses["ANN"]) == (59, 4, 60)


def test_E27_unpriced_centers_continue_the_scale_above_the_priced_ones() -> None:
    # Two priced centers worth 20 and 5 (m = 2), and three unpriced: 15, 14, 13 (V = 18).
    centers, total = corporate_income(["A", "B", "X", "Y", "Z"], {"A": 20, "B": 5}, 18, Options())
    assert total == 20 + 5 + 15 + 14 + 13
    assert [(c.center, c.amount, c.priced) for c in centers] == [
        ("A", 20, True), ("B", 5, True), ("X", 15, False), ("Y", 14, False), ("Z", 13, False)]
    assert corporate_income(["A", "X"], {"A": 40}, 18, Options(income_cap=50))[1] == 50  # 40 + 16, capped
    assert corporate_income(["A", "X"], {"A": 40}, 18, Options(income_first=7))[1] == 46  # 40 + (7 - 1)


def test_E27_without_captures_income_is_standard_payola_income() -> None:
    state = at_movement()
    state, _ = run_movement(state, MovementSheets(), 1)  # every Spring default worth
    state, _ = run_movement(state, MovementSheets(), 2)
    assert state.stage is Stage.INCOME  # nobody moved: no adjustment, the year is over
    after, record = run_income(state)
    assert {i.corporation: i.total for i in record.incomes} == {
        "AUSTRIA": 48, "ENGLAND": 48, "FRANCE": 48, "GERMANY": 48, "ITALY": 48, "RUSSIA": 62, "TURKEY": 48}
    assert after.minted == state.minted + 6 * 48 + 62 == money(after)
    assert after.stage is Stage.EXCHANGE


def test_E28_leaderless_corporations_bank_income_and_one_owning_no_center_is_eliminated() -> None:
    centers = {c: o for c, o in Position.initial(STANDARD).centers.items() if o != A}
    after_fall = Position.build(STANDARD, Phase(Season.SPRING, 1902, PhaseKind.MOVEMENT),
                                [u for u in Position.initial(STANDARD).units.values() if u.power != A], centers)
    state = at_movement(position=after_fall, treasuries={A: 7}).evolve(stage=Stage.INCOME)
    after, record = run_income(state)
    assert record.eliminated == (A,)
    assert after.eliminated == frozenset({A})
    assert after.treasuries[A] == 7 and after.treasuries[G] == 48
