"""X.5: the CEO's powers — waiting and defaults, no purse, worths, dividends, records (rulings E20-E24)."""

from __future__ import annotations

import pytest

from judge.engine.orders import PhaseKind
from judge.engine.position import Phase, Position, Season
from judge.games.exchange.core.accounts import AccountError, Refused, set_acceptance, transfer
from judge.games.exchange.core.income import default_worths
from judge.games.exchange.core.phases import Expected, expected
from judge.games.exchange.core.record import Reason
from judge.games.exchange.core.sheet import (
    ME,
    Dividend,
    Elect,
    Ledger,
    Refusal,
    Sell,
    Worth,
    check,
    exactly,
)
from judge.games.exchange.core.state import LedgerKind
from judge.games.exchange.core.views import ViewRefused, annual_report, ceo_view
from judge.games.exchange.core.year import CorporateSheet, MovementSheets, run_movement, run_orders
from judge.payola.acceptance import parse_acceptance
from judge.payola.options import Options
from tests.games.exchange.game import STANDARD, F, G, R, at_exchange, at_movement, exchange, offers, sheet

STANDARD_START = Position.initial(STANDARD)


def test_E20_the_judge_waits_for_each_corporation_with_units_and_a_ceo_and_never_for_investors() -> None:
    state = at_movement(ceos={F: "BOB", G: "BOB", R: "CAT"})
    assert set(expected(state)) == {Expected("BOB", F), Expected("BOB", G), Expected("CAT", R)}
    no_units = state.evolve(position=state.position.evolve(
        units={p: u for p, u in state.position.units.items() if u.power != R}))
    assert Expected("CAT", R) not in expected(no_units)


def test_E20_a_corporation_without_a_sheet_holds_on_its_zero_offers_and_keeps_its_acceptance_list() -> None:
    # France (BOB) sends nothing; its list is "FG?" and ANN and Germany (CAT) each offer 1 for a move
    # of A PAR: A PAR's zero HOLD loses; BUR (Germany) and PIC (ANN) tie at 1, and France's list
    # puts Germany first.
    state = at_movement(ceos={F: "BOB", G: "CAT"}, treasuries={G: 5})
    state = set_acceptance(state, F, "BOB", parse_acceptance("FG?", STANDARD.letters))
    position = state.position
    after, record = run_movement(state, MovementSheets(
        {G: CorporateSheet(offers("1 : A PAR - BUR", G, position))},
        {"ANN": offers("1 : A PAR - PIC", "ANN", position)}), 1)
    units = record.determination.units
    assert str(units["PAR"].order) == "A PAR - BUR"
    assert str(units["MAR"].order) == "A MAR H" and str(units["BRE"].order) == "F BRE H"
    assert after.acceptance[F] == parse_acceptance("FG?", STANDARD.letters)


def test_E20_retreats_and_adjustments_not_ordered_follow_civil_disorder() -> None:
    # Winter: leaderless France owns 2 centers and has 3 units; one is removed for it.
    units = [p for p in STANDARD_START.units.values() if p.power == F]
    centers = {c: o for c, o in STANDARD_START.centers.items() if c != "MAR"}
    winter = Position.build(STANDARD, Phase(Season.WINTER, 1901, PhaseKind.ADJUSTMENT), units, centers)
    state = at_movement(position=winter)
    assert expected(state) == ()
    after, _ = run_orders(state, {})
    assert len(after.position.units_of(F)) == 2


def test_E21_only_the_ceo_writes_for_a_corporation_and_it_has_no_purse() -> None:
    state = at_exchange({F: {"ANN": 3, "BOB": 2}}, ceos={F: "BOB"}, treasuries={F: 30})
    assert check(sheet("ANN", Elect(F, ME), blocks={F: [Dividend(1)]}), state) == [(Refusal.NOT_THE_CEO, F, None)]
    with pytest.raises(AccountError) as refused:
        transfer(state, F, "BOB", 5)
    assert refused.value.reason is Refused.NOT_AN_INVESTOR
    with pytest.raises(AccountError) as refused:
        set_acceptance(state, F, "ANN", parse_acceptance("F?", STANDARD.letters))
    assert refused.value.reason is Refused.NOT_THE_CEO


def test_E22_a_worth_list_is_refused_whole_unless_it_names_every_owned_center_once_adding_up_to_I_n() -> None:
    state = at_movement(ceos={F: "BOB"})  # France owns BRE, MAR, PAR; I(3) = 48

    def refusals(*worths: tuple[str, int]) -> list[Refusal]:
        return [p.reason for p in check(sheet("BOB", blocks={F: [Worth(worths)]}), state)]

    assert refusals(("PAR", 24), ("MAR", 14), ("BRE", 10)) == []
    assert refusals(("PAR", 24), ("MAR", 24)) == [Refusal.WORTH_MISSING]
    assert refusals(("PAR", 24), ("MAR", 14), ("BRE", 5), ("MUN", 5)) == [Refusal.WORTH_NOT_OWNED]
    assert refusals(("PAR", 24), ("PAR", 14), ("MAR", 0), ("BRE", 10)) == [Refusal.WORTH_TWICE]
    assert refusals(("PAR", 24), ("MAR", 14), ("BRE", 9)) == [Refusal.WORTH_TOTAL]
    assert refusals(("PAR", 39), ("MAR", -1), ("BRE", 10)) == [Refusal.NEGATIVE]
    assert check(sheet("BOB", Worth((("PAR", 48),))), state) == [(Refusal.FOR_A_CORPORATION, None, 0)]
    fall = state.evolve(position=state.position.evolve(phase=Phase(Season.FALL, 1901, PhaseKind.MOVEMENT)))
    assert check(sheet("BOB", blocks={F: [Worth((("PAR", 24), ("MAR", 14), ("BRE", 10)))]}), fall) == [
        (Refusal.NOT_NOW, F, 0)]


def test_E22_default_worths_share_I_n_and_give_the_rest_alphabetically() -> None:
    assert default_worths(["WAR", "STP", "SEV", "MOS"], 18, Options()) == {"MOS": 16, "SEV": 16, "STP": 15,
                                                                             "WAR": 15}
    assert default_worths(["BER", "KIE", "MUN"], 18, Options()) == {"BER": 16, "KIE": 16, "MUN": 16}
    assert default_worths(["A", "B"], 18, Options()) == {"A": 17, "B": 16}  # I(2) = 33


def test_E23_a_dividend_is_at_most_the_treasury_over_the_issued_shares_and_the_pool_gets_nothing() -> None:
    # 129 AgP over 10 issued shares: 12 a share at most.  ANN holds 4, the pool 6: a dividend of 3
    # pays ANN 12 and leaves France 117.
    state = at_exchange({F: {"ANN": 4}}, ceos={F: "BOB"}, treasuries={F: 129})
    assert check(sheet("BOB", blocks={F: [Dividend(13)]}), state) == [(Refusal.DIVIDEND_ABOVE_LIMIT, F, 0)]
    assert check(sheet("BOB", blocks={F: [Dividend(12)]}), state) == []
    after, record = exchange(state, sheet("BOB", blocks={F: [Dividend(3)]}))
    assert (after.purses["ANN"], after.treasuries[F]) == (72, 117)
    assert record.dividends[2].payouts == (("ANN", 12),)
    assert after.ledger(F)[-1][1:3] == (LedgerKind.DIVIDEND, -12)


def test_E23_without_a_declaration_the_dividend_is_withheld_and_the_stockholders_are_told() -> None:
    state = at_exchange({F: {"ANN": 4}}, ceos={F: "BOB"}, treasuries={F: 129})
    _, record = exchange(state)
    report = annual_report(record, F, "ANN")
    assert (report.dividend, report.withheld) == (0, Reason.WITHHELD)


def test_E24_a_new_ceo_receives_the_complete_ledger_and_may_ask_for_it_again() -> None:
    state = at_exchange({F: {"ANN": 4, "BOB": 3}}, ceos={F: "BOB"}, treasuries={F: 50})
    after, record = exchange(state, sheet("ANN", Elect(F, ME)),
                             sheet("BOB", blocks={F: [Dividend(2), Sell(exactly(3), F, 4)]}))
    assert after.ceos[F] == "ANN"
    handover = record.handovers[0]
    assert (handover.corporation, handover.ceo) == (F, "ANN")
    assert [line.kind for line in handover.ledger] == [LedgerKind.DIVIDEND]  # paid 14; nobody bought
    assert ceo_view(after, F, "ANN").ledger == handover.ledger
    assert check(sheet("ANN", Ledger(F)), after) == []  # the new fiscal year: on the board
    assert check(sheet("BOB", Ledger(F)), after) == [(Refusal.NOT_THE_CEO, None, 0)]
    with pytest.raises(ViewRefused):
        ceo_view(after, F, "BOB")
    again, record = exchange(after.evolve(stage=state.stage), sheet("ANN", Elect(F, ME)))
    assert again.ceos[F] == "ANN" and record.handovers == ()  # re-elected: nothing to hand over
