"""Offerers that own no power (``outsiders``: Exchange Payola's investors, ruling E26).

They rank after every power in every acceptance list, among themselves in the order given;
each is held to its own balance by rule 5.5 and gets its own statement (5.7).  A Payola game
passes none, and its determination is unchanged (the rest of the Payola suite holds that).
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from judge.engine.position import Position
from judge.payola.determination import Determination, PowerInput, determine_orders
from judge.payola.offers import parse_sheet
from judge.payola.options import Options
from tests.payola.game import START, issued
from tests.payola.phases import Phase, offer, phases
from tests.payola.reference_rounds import determine_by_rounds
from tests.strength import examples


def _determine(sheets: dict[str, str], balances: dict[str, int], outsiders: tuple[str, ...],
               position: Position = START) -> Determination:
    powers = {}
    for who, text in sheets.items():
        sheet, errors = parse_sheet(text, position, who, Options())
        assert not errors, errors
        powers[who] = PowerInput(balances.get(who, 0), sheet)
    return determine_orders(position, powers, Options(), 7, outsiders=outsiders)


def test_E26_an_outsider_ranks_after_every_power() -> None:
    # A MUN: Austria offers 2 for BUR, the outsider ANN 2 for RUH; Germany offers nothing to it, so
    # its zero HOLD stands at 0.  Germany's list "G?" names Austria (in the ?) before any outsider.
    result = _determine({"AUSTRIA": "2 : A MUN - BUR", "ANN": "2 : A MUN - RUH"}, {"AUSTRIA": 5, "ANN": 5},
                        ("ANN",))
    assert issued(result, "MUN") == "A MUN - BUR"
    german = result.acceptance["GERMANY"]
    assert german[0] == "GERMANY" and set(german[:7]) == set(START.game_map.powers) and german[7:] == ("ANN",)
    assert result.statements["AUSTRIA"].spent == 2
    assert result.statements["ANN"].spent == 0


def test_E26_outsiders_rank_among_themselves_in_the_order_given() -> None:
    sheets = {"ANN": "2 : A MUN - RUH", "BOB": "2 : A MUN - BUR"}
    first = _determine(sheets, {"ANN": 5, "BOB": 5}, ("ANN", "BOB"))
    assert issued(first, "MUN") == "A MUN - RUH"
    assert first.statements["ANN"].spent == 2 and first.statements["BOB"].spent == 0
    second = _determine(sheets, {"ANN": 5, "BOB": 5}, ("BOB", "ANN"))
    assert issued(second, "MUN") == "A MUN - BUR"
    assert second.statements["BOB"].spent == 2 and second.statements["ANN"].spent == 0


def test_rule_5_5_an_outsider_over_its_balance_is_reduced() -> None:
    # ANN offers 5 for A MUN - RUH with 3 AgP: she is over until her offer is down to 3, which
    # still beats Germany's zero HOLD.  She pays 3, after two reduction rounds.
    result = _determine({"ANN": "5 : A MUN - RUH"}, {"ANN": 3}, ("ANN",))
    assert issued(result, "MUN") == "A MUN - RUH"
    statement = result.statements["ANN"]
    assert (statement.balance, statement.spent, statement.new_balance, statement.reductions) == (3, 3, 0, 2)
    assert result.rounds == 2


@st.composite
def _with_outsiders(draw: st.DrawFn) -> tuple[Phase, tuple[str, ...]]:
    board, powers, options, seed = draw(phases(ebayola=draw(st.booleans())).filter(lambda p: not p[2].loyal_units))
    outsiders = ("ANN", "BOB")
    provinces = sorted(board.units)
    dummies = {p for p, i in powers.items() if i.dummy}
    powers = dict(powers)
    for who in outsiders:
        lines = draw(st.lists(st.integers(0, 2**60), max_size=4))
        text = "\n".join(offer(line, board, who, provinces, 12) for line in lines)
        sheet, errors = parse_sheet(text, board, who, options, dummies)
        assert not errors, errors
        powers[who] = PowerInput(draw(st.sampled_from([0, 1, 6, 12, 24])), sheet)
    return (board, powers, options, seed), outsiders


@settings(max_examples=examples(100), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(_with_outsiders())
def test_rule_5_5_events_equal_reference_rounds_with_outsiders(drawn: tuple[Phase, tuple[str, ...]]) -> None:
    (board, powers, options, seed), outsiders = drawn
    events = determine_orders(board, powers, options, seed, outsiders=outsiders)
    rounds = determine_by_rounds(board, powers, options, seed, outsiders=outsiders)
    assert events == rounds
    for who in outsiders:
        statement = events.statements[who]
        assert 0 <= statement.new_balance == powers[who].balance - statement.spent
