"""What the results, statements and pages write (`judge.games.machiavelli.views`): every area by its
name then its code, orders as their letters write them, an independent unit named once, chapters
never read as counts, counts that agree in number, the automatic supports of M44 said where they
decided a dislodgement, the A.2 income area by area, and the money of each year the rules
publish.  Worked out by hand on the classic board."""

from __future__ import annotations

import pytest

from judge.games.machiavelli.core.existence import Standing
from judge.games.machiavelli.core.expenditures import (
    Allow,
    Assassinate,
    Bodyguard,
    Bribe,
    BribeKind,
    CounterBribe,
    Dismiss,
    Excommunicate,
    ForcedTax,
    LetterOrder,
    Pacify,
    Pay,
    Purchase,
    Raise,
    Sell,
    StartRebellion,
    Transfer,
)
from judge.games.machiavelli.core.income import incomes
from judge.games.machiavelli.core.orders import (
    Advance,
    Besiege,
    Convert,
    Grant,
    Hold,
    Support,
    Transport,
    UnitRef,
)
from judge.games.machiavelli.core.position import Campaign, Independent, Phase, Season, UnitKind
from judge.games.machiavelli.core.results import Automatic
from judge.games.machiavelli.views import (
    board_lines,
    codes,
    end_lines,
    income_lines,
    named,
    operation_lines,
    spelled,
    spring_public,
    unit_text,
    yearly_lines,
)

from .helpers import BOARD, A, F, G, game, homeland, judge, position, ref, spring

ARMY, FLEET = UnitKind.ARMY, UnitKind.FLEET
ORDERS: list[LetterOrder] = [
    Hold(UnitRef(ARMY, "flo")), Advance(UnitRef(ARMY, "flo"), "pst"),
    Advance(UnitRef(ARMY, "psa"), "nap", route=("wts", "ets")), Advance(UnitRef(FLEET, "nap"), "spa", coast="nc"),
    Support(UnitRef(ARMY, "are"), "pst"), Support(UnitRef(ARMY, "are"), "pst", beneficiary="Milan"),
    Support(UnitRef(ARMY, "are"), "pst", supported=UnitRef(ARMY, "flo")),
    Support(UnitRef(ARMY, "are"), "flo", supported=UnitRef(ARMY, "flo")),
    Transport(UnitRef(FLEET, "ets")), Transport(UnitRef(FLEET, "ets"), beneficiary="Milan"),
    Transport(UnitRef(FLEET, "ets"), carried=UnitRef(ARMY, "psa")), Besiege(UnitRef(ARMY, "sie")),
    Convert(UnitRef(UnitKind.GARRISON, "nap"), FLEET), Convert(UnitRef(UnitKind.GARRISON, "nap"), FLEET, "nc"),
    Transfer("Milan", 3), Sell("pst", "Milan", 4), Purchase("for", "Milan", 4), ForcedTax("com"),
    Pay(UnitRef(ARMY, "flo")), Dismiss(UnitRef(FLEET, "psa")), Raise(ARMY, "flo"), Raise(FLEET, "nap", "nc"),
    Excommunicate("Milan"), Allow("Milan"), Allow("Milan", frozenset({Grant.STRAITS})), Assassinate("Milan", 30),
    Bodyguard(3), Bodyguard(6, "Milan"), StartRebellion("pst"), StartRebellion("pst", 15), Pacify("pst"),
    Pacify("pst", 12), Bribe(BribeKind.BUY, UnitRef(UnitKind.GARRISON, "sie"), 9),
    CounterBribe(UnitRef(ARMY, "flo"), 3),
]


@pytest.mark.parametrize("order", ORDERS, ids=str)
def test_an_order_spelled_with_its_codes_is_what_its_letter_writes(order: LetterOrder) -> None:
    """`spelled` follows the core's own writing of every kind of order, so that naming the areas
    changes nothing else."""
    assert spelled(order, codes) == str(order)


def test_every_area_is_written_with_its_name_then_its_code() -> None:
    name = named(BOARD)
    assert name("for") == "Fornova (for)"  # "for" the area, not the word of "for 4"
    assert spelled(Purchase("for", "Milan", 4), name) == "buy Fornova (for) from Milan for 4"
    assert spelled(Advance(UnitRef(ARMY, "psa"), "nap", route=("ets",)), name) == (
        "A Pisa (psa) - Eastern Tyrrhenian Sea (ets) - Naples (nap)")
    assert spelled(Raise(FLEET, "nap", "nc"), name) == "raise F Naples (nap/nc)"
    assert unit_text(A("Florence", "flo"), board=BOARD) == "Florence A Florence (flo)"
    assert "  Venice: units A Padua (pad), A Verona (ver), F Dalmatia (dal), G Venice (ven)" in board_lines(
        BOARD, BOARD.start)


def test_an_independent_unit_in_its_native_area_is_named_once() -> None:
    """Siena's garrison in Siena is ``independent G Siena (sie)``, not ``independent sie G sie``;
    Siena's army in Florence names its native area too."""
    assert unit_text(G(Independent("sie"), "sie"), board=BOARD) == "independent G Siena (sie)"
    assert unit_text(A(Independent("sie"), "flo"), board=BOARD) == "independent Siena (sie) A Florence (flo)"
    start = position(A(Independent("sie"), "flo"), G(Independent("sie"), "sie"))
    line = next(line for line in board_lines(BOARD, start) if "Independent units" in line)
    assert line == "  Independent units: independent Siena (sie) A Florence (flo), G Siena (sie)"


def test_every_city_no_country_controls_is_listed_with_its_holder() -> None:
    """Issue 69: a player who cannot see the map learns every city's holder from the text.  Siena's garrison
    holds its own city, Siena's control marker holds Lucca, Florence's garrison holds Pisa; every other
    city of the board is nobody's, Pisa is Florence's and is not in the list."""
    start = position(G(Independent("sie"), "sie"), G("Florence", "psa"), control={"luc": Independent("sie")})
    lines = board_lines(BOARD, start)
    at = next(i for i, line in enumerate(lines) if line.startswith("  Cities no country controls: "))
    listed = " ".join(line.strip() for line in lines[at:] if line.startswith("    ") or line == lines[at])
    items = listed.removeprefix("Cities no country controls: ").split(", ")
    assert "Siena (sie) independent" in items and "Lucca (luc) independent Siena (sie)" in items
    assert "Pisa (psa)" not in listed and "Florence (flo) held by nobody" in items
    assert len(items) == sum(1 for area in BOARD.areas.values() if area.city is not None) - 1


def test_chapters_are_cited_as_chapters_never_as_a_count() -> None:
    """A.5: Florence sells Pistoia to Milan for 4 (its tax value is 1: no city); the publication
    says the trade under ``Provinces traded (chapter 6)``, one trade, never "(6)", a count."""
    start = game(season=Season(1455, Campaign.SPRING), phase=Phase.A, control={"pst": "Florence"},
                 treasuries={"Florence": 0, "Milan": 10})
    record = spring(start, Florence="sell pst to Milan for 4", Milan="buy pst from Florence for 4")
    shown = spring_public(BOARD, record)
    assert shown[1:3] == ["Provinces traded (chapter 6):", "  Pistoia (pst): from Florence to Milan"]


def test_counts_agree_in_number() -> None:
    """One city and one province: ``1 city``, ``1 province``, never ``1 cities``."""
    start = position(A("Florence", "are"), control={"are": "Florence"})
    lines = board_lines(BOARD, start)
    at = lines.index("  Florence: units A Arezzo (are)")
    assert lines[at + 1:at + 3] == ["    1 province: Arezzo (are)", "    1 city: Arezzo (are)"]
    assert "    0 provinces: none" in lines and "    0 cities: none" in lines
    ranking = end_lines((), [Standing("Florence", 1, 1, 1, 2, 5)])
    assert ranking[-1] == "  1. Florence: 1 city, 1 province, tax 2, treasury 5"


def test_M44_a_dislodgement_helped_by_a_rebellions_automatic_support_says_so() -> None:
    """Padua rebels against Venice; Milan's army in Verona advances alone into it: strength 1 + 1
    (the rebellion's automatic support, M44) beats Venice's army's 1, which is forced out.  Both
    lines say what decided it."""
    victim, attacker = A("Venice", "pad"), A("Milan", "ver")
    done = judge(position(victim, attacker, rebellions={"pad": "Venice"}), Advance(ref(attacker), "pad"))
    assert done.result(attacker.place).automatic == (Automatic.REBELLION,)
    lines = operation_lines(BOARD, done.results)
    assert ("  Milan A Verona (ver) - Padua (pad): advanced: stronger than the defence and every other attack on "
            "the area (9.3, 13.2, 13.4); with the rebellion's automatic support (11.2, M44)") in lines
    assert ("  Venice A Padua (pad) H: no order was given: the unit holds (9.2, M50); attacked from Verona (ver), an "
            "attack with the rebellion's automatic support (11.2, M44)") in lines
    assert not any(line.startswith("  Held, no order given") for line in lines)  # its fate is not lost in a list


def test_M44_a_dislodgement_helped_by_an_independent_garrisons_automatic_support_says_so() -> None:
    """Mantua's independent garrison holds unbribed while Venice's army stands in its province;
    Milan's army from Cremona advances alone into it: 1 + 1 (the garrison, M44) beats 1."""
    garrison, occupant, attacker = G(Independent("man"), "man"), A("Venice", "man"), A("Milan", "cre")
    done = judge(position(garrison, occupant, attacker), Advance(ref(attacker), "man"))
    assert done.result(attacker.place).automatic == (Automatic.GARRISON,)
    lines = operation_lines(BOARD, done.results)
    assert any(line.startswith("  Milan A Cremona (cre) - Mantua (man): advanced") and line.endswith(
        "; with the independent garrison's automatic support (16, M44)") for line in lines)
    assert any(line.startswith("  Venice A Mantua (man) H") and line.endswith(
        "; attacked from Cremona (cre), an attack with the independent garrison's automatic support (16, M44)")
        for line in lines)
    unhelped = judge(position(A("Venice", "pad"), A("Milan", "ver"), A("Milan", "vic")),
                     Advance(ref(A("Milan", "ver")), "pad"), Support(ref(A("Milan", "vic")), "pad"))
    assert not any("automatic" in line for line in operation_lines(BOARD, unhelped.results))


def test_5_1_5_2_the_income_is_told_area_by_area() -> None:
    """Milan holds its home country (Como, Cremona, Fornova, Milan, Parma, Pavia, Piacenza: 7
    provinces), with armies in Milan and Cremona and a fleet in the Eastern Gulf of Lyons: cities
    Cremona 1, Milan 3 and Pavia 1 (5), the gulf 1, trade 3 (5.2): 16 in all."""
    start = game(A("Milan", "mil"), A("Milan", "cre"), F("Milan", "egl"), control=homeland("Milan"))
    lines = income_lines(BOARD, Season(1455, Campaign.SPRING), incomes(BOARD, start, ["Milan"])["Milan"])
    assert lines == [
        "Your income in Spring 1455 (A.2): 16 ducats, tax 13 and trade 3:",
        "  provinces 7 (1 each, 5.1): Como (com), Cremona (cre), Fornova (for), Milan (mil), Parma (par),",
        "      Pavia (pav), Piacenza (pia)",
        "  cities 5 (5.1): Cremona (cre) 1, Milan (mil) 3, Pavia (pav) 1",
        "  seas 1 (1 each, 5.1): Eastern Gulf of Lyons (egl)",
        "  trade 3 (5.2): the home country of Milan 3",
    ]
    venice = game(G("Venice", "ven"), control={"ven": "Venice"})  # an empty Lagoon pays Venice its ducat (14)
    assert income_lines(BOARD, Season(1455, Campaign.SPRING), incomes(BOARD, venice, ["Venice"])["Venice"])[1:] == [
        "  provinces 1 (1 each, 5.1): Venice (ven)", "  cities 3 (5.1): Venice (ven) 3",
        "  the Lagoon 1 (14): Lagoon (lag)", "  trade 4 (5.2): the home country of Venice 4"]


def test_the_years_money_is_what_public_information_gives() -> None:
    """Spring 1455: Milan's A.2 income is 16 (as above); its anticipated treasury as the spring
    opens is 20.  It taxes Como by force (1: no city there, 5.3) and pays A mil and F egl, so A cre
    is disbanded (M12): salaries 2 x 3 = 6; anticipated 20 + 1 - 6 = 15."""
    before = game(A("Milan", "mil"), A("Milan", "cre"), F("Milan", "egl"), control=homeland("Milan"),
                  season=Season(1455, Campaign.SPRING), phase=Phase.A, treasuries={"Milan": 20})
    after = spring(before, Milan="tax com\npay A mil\npay F egl").position
    lines = yearly_lines(BOARD, [(before, after)])
    assert "1455 (the spring letters of Spring 1455):" in lines
    assert lines[lines.index("1455 (the spring letters of Spring 1455):") + 1].split() == [
        "country", "income", "forced", "salaries", "anticipated"]
    milan = next(line for line in lines if line.startswith("  Milan "))
    assert milan.split() == ["Milan", "16", "1", "6", "15"]
    assert "never a transfer, a trade's price or an expenditure" in " ".join(lines)
