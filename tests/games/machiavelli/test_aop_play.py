"""The rules played on the Absence of Plague board: AoP's Examples 5 (17.1) and 6 (Appendix A) on
their own board, a first spring of 1459 (A.4 to A.7) and its campaign, worked out by hand; the
islands that hold fleets only (1.3, M15), the straits of Messina (with the passage along Calabria),
Bonifacio and Piombino (9.3, 13.5, M17), Venice's Lagoon and Ferrara (14), and the JSON interface."""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial

import pytest

from judge.games.machiavelli.core.board import load_board
from judge.games.machiavelli.core.campaign import CampaignRecord
from judge.games.machiavelli.core.expense import Reach, bribe_reach
from judge.games.machiavelli.core.income import city_collector
from judge.games.machiavelli.core.ledger import Flow, Purse
from judge.games.machiavelli.core.notation import NotationError, position_from_data, run
from judge.games.machiavelli.core.position import (
    Campaign,
    Independent,
    Owner,
    Phase,
    Place,
    Position,
    Season,
    Siege,
    Unit,
    UnitKind,
)
from judge.games.machiavelli.core.preference import Preference
from judge.games.machiavelli.core.results import Reason
from judge.games.machiavelli.core.spring import SpringRecord, spring_opening
from judge.games.machiavelli.core.syntax import parse_letter

from . import helpers

BOARD = load_board("aop")
SUMMER = Season(1459, Campaign.SUMMER)


def code(name: str) -> str:
    return BOARD.code(name)


def A(owner: Owner, name: str) -> Unit:
    return Unit(UnitKind.ARMY, owner, code(name))


def F(owner: Owner, name: str) -> Unit:
    return Unit(UnitKind.FLEET, owner, code(name))


def G(owner: Owner, name: str) -> Unit:
    return Unit(UnitKind.GARRISON, owner, code(name))


def game(*units: Unit, treasuries: Mapping[str, int] | None = None, control: Mapping[str, Owner] | None = None,
         rebellions: Mapping[str, Owner] | None = None, sieges: Mapping[str, Siege] | None = None) -> Position:
    """A Summer 1459 position awaiting the C letters: the start's control markers (changed by
    ``control``, by AoP names), every power in its own home country, the treasuries given."""
    money = dict.fromkeys(BOARD.powers, 0) | dict(treasuries or {})
    markers = dict(BOARD.start.control) | {code(n): o for n, o in (control or {}).items()}
    return Position.build(SUMMER, units, control=markers,
                          rebellions={code(n): v for n, v in (rebellions or {}).items()},
                          sieges={code(n): s for n, s in (sieges or {}).items()}, treasuries=money,
                          homes={p: frozenset({p}) for p in BOARD.powers}, phase=Phase.C, anticipated=money)


letter = partial(helpers.letter, board=BOARD)
play = partial(helpers.play, board=BOARD)
spring = partial(helpers.spring, board=BOARD)


def units(position: Position) -> set[str]:
    """The units of a position, written with their areas' AoP names."""
    return {f"{u.owner} {u.kind.value} {BOARD.name_of(u.area)}" for u in position.units.values()}


def outcomes(record: CampaignRecord | SpringRecord, player: str) -> list[tuple[str, int, Reason]]:
    return [(str(o.order), o.charged, o.reason) for o in record.outcomes if o.player == player]


def reasons(record: CampaignRecord) -> dict[str, Reason]:
    """Each unit's operation outcome, by ``owner kind area-name``."""
    return {f"{r.unit.owner} {r.unit.kind.value} {BOARD.name_of(r.unit.area)}": r.reason for r in record.action.results}


# -- AoP Example 5 (17.1), on the AoP board ----------------------------------------------------------------------------

EXAMPLE_5 = (A("Papacy", "Perugia"), A("Papacy", "Urbino"), F("Papacy", "Ancona"), G("Papacy", "Roma"),
             G(Independent(code("Siena")), "Siena"))
LETTER_5 = """Ducat expenditures:
1. bribe 9 buy G Siena
2. bodyguard 3
Military orders:
A Urbino --> Arezzo
A Perugia supp. Arezzo
F Ancona --> Adr. Sup.
G Roma conv.
G Siena conv."""


def test_M36_example_5_the_bodyguard_comes_first_and_the_lone_sienese_garrison_is_refused_for_want_of_ducats() -> None:
    """17.1's Example 5 as the text gives it: 10 ducats; the bodyguard (D.2, 3 ducats) comes before
    the bribe (D.4) whatever the letter's order, leaving 7 ducats, short of the 9 the bribe needs:
    "the garrison is not bribed and those 7 ducats remain".  The bribe is refused for that alone:
    Siena's garrison stands alone in its province, so the Papal army in Perugia, next door, may
    bribe it (M36 revised).  "Both conv." converts the Roman garrison only."""
    done = play(game(*EXAMPLE_5, treasuries={"Papacy": 10}), Papacy=LETTER_5)
    assert outcomes(done, "Papacy") == [("bodyguard 3", 3, Reason.BODYGUARD_HIRED),
                                        ("bribe 9 buy G sie", 0, Reason.UNAFFORDABLE)]
    assert done.position.treasuries["Papacy"] == 7
    assert units(done.position) == {"Papacy A Arezzo", "Papacy A Perugia", "Papacy F Upper Adriatic",
                                    "Papacy A Roma", f"independent {code('Siena')} G Siena"}
    assert [str(i.order) for i in done.action.ignored] == ["G sie C A"]  # "both" garrisons: Siena is not the Pope's
    assert reasons(done)["Papacy A Urbino"] is Reason.ADVANCED and reasons(done)["Papacy G Roma"] is Reason.CONVERTED


def test_M36_example_5_with_12_ducats_the_sienese_garrison_is_bought_and_both_garrisons_convert() -> None:
    """The same letter with 12 ducats: 12 - 3 (the bodyguard) = 9, the minimum to buy an
    independent unit (12 a), with no counter-bribe: the garrison of Siena becomes the Pope's
    (reached from Perugia, M36) and carries out the Pope's order for it (M39): both garrisons
    convert into armies, neither city being a port; 0 ducats remain."""
    done = play(game(*EXAMPLE_5, treasuries={"Papacy": 12}), Papacy=LETTER_5)
    assert outcomes(done, "Papacy") == [("bodyguard 3", 3, Reason.BODYGUARD_HIRED),
                                        ("bribe 9 buy G sie", 9, Reason.BRIBE_SUCCEEDED)]
    assert done.position.treasuries["Papacy"] == 0
    assert units(done.position) == {"Papacy A Arezzo", "Papacy A Perugia", "Papacy F Upper Adriatic",
                                    "Papacy A Roma", "Papacy A Siena"}
    assert not done.action.ignored


def test_M36_every_independent_garrison_of_1459_stands_alone_and_is_bribable_from_next_door() -> None:
    """AoP 3's twelve independent garrisons stand alone in their provinces at the start; each may
    be bribed from a unit in a neighbouring area, as 12 reads for any unit: Siena from Perugia
    (Example 5), Mantova from Verona, Ragusa from Herzegovina, Tunis from the Bay of Tunis by a
    fleet, Trento from Bolzano, San Marino from Urbino; and not from Roma, next to none of them."""
    start = BOARD.start
    pairs = {"Siena": A("Papacy", "Perugia"), "Mantova": A("Venice", "Verona"), "Ragusa": A("Turkey", "Herzegovina"),
             "Tunis": F("Turkey", "Bay of Tunis"), "Trento": A("Holy Roman Empire", "Bolzano"),
             "San Marino": A("Papacy", "Urbino")}
    indies = sorted(u.area for u in start.units.values() if isinstance(u.owner, Independent))
    assert len(indies) == 12 and all(start.province_unit(area) is None for area in indies)
    for name, near in pairs.items():
        target = start.garrison(code(name))
        assert target is not None and target.independent
        placed = start.with_units([*start.units.values(), near])
        assert bribe_reach(BOARD, placed, str(near.owner), target, frozenset()) is Reach.YES, name
        far = start.with_units([*start.units.values(), A(str(near.owner), "Roma")])
        assert bribe_reach(BOARD, far, str(near.owner), target, frozenset()) is Reach.NO, name


def test_M30_example_5_with_a_papal_army_in_siena_the_bribe_is_skipped_for_want_of_money_all_the_same() -> None:
    done = play(game(*EXAMPLE_5, A("Papacy", "Siena"), treasuries={"Papacy": 10}),
                Papacy="1. bribe 9 buy G Siena\n2. bodyguard 3")
    assert outcomes(done, "Papacy") == [("bodyguard 3", 3, Reason.BODYGUARD_HIRED),
                                        ("bribe 9 buy G sie", 0, Reason.UNAFFORDABLE)]
    assert done.position.garrison(code("Siena")) == G(Independent(code("Siena")), "Siena")
    assert done.position.treasuries["Papacy"] == 7


# -- AoP Example 6 (Appendix A), on the AoP board --------------------------------------------------------------------

EXAMPLE_6 = (F("Florence", "Ligurian Sea"), F("France", "Western Tyrrhenian Sea"), F("Genoa", "Ventimiglia"),
             A("Florence", "Pisa"), G(Independent(code("Massa")), "Massa"), G(Independent(code("Lucca")), "Lucca"))
ORDERS_6 = {"Florence": "A Pisa H\nF Ligurian Sea H", "Genoa": "F Ventimiglia - Ligurian Sea",
            "France": "F Western Tyrrhenian Sea S F Ventimiglia - Ligurian Sea"}


@pytest.mark.parametrize("pontremoli", ["Florence", "Savoy"])
def test_example_6_the_florentine_fleet_retreats_into_lucca(pontremoli: str) -> None:
    """Pisa (friendly) is occupied; no rebellion supports; Massa and Lucca are held by independent
    garrisons (category 3), never home countries, each with a fortified city, both coastal; the tie
    goes to Lucca, nearer to Pisa, Florence's home.  The example measures the way to the nearest
    friendly province through Pontremoli (adjacent to Massa) as through Pisa; M28 counts it in the
    fleet's own moves, where Pontremoli is out of reach and Pisa is one step from Lucca, two from
    Massa: Lucca either way, whoever holds Pontremoli."""
    start = game(*EXAMPLE_6, control={"Pontremoli": pontremoli})
    done = play(start, **ORDERS_6)
    (retreat,) = done.action.retreats
    assert retreat.unit == F("Florence", "Ligurian Sea") and retreat.attacked_from == code("Ventimiglia")
    assert retreat.to == F("Florence", "Lucca") and retreat.reason is Reason.RETREATED
    assert units(done.position) >= {"Genoa F Ligurian Sea", "Florence F Lucca", "Florence A Pisa"}
    preference = Preference(BOARD, start, "Florence", UnitKind.FLEET, frozenset({code("Massa"), code("Lucca")}))
    massa, lucca = preference.key(code("Massa")), preference.key(code("Lucca"))
    assert massa[:2] == lucca[:2] == (3, (2, 4, 0))  # category 3, not home, a garrisoned city, coastal
    assert lucca < massa and preference.key(code("Sea of Toulon"))[0] == 4 and preference.category(code("Genova")) == 5


# -- a first spring (AoP 3, M48): A.4 to A.7 -------------------------------------------------------------------------

FIRST_SPRING = {
    "Florence": "transfer 3 to Papacy\nraise A Firenze\nraise F Pisa\nraise G Arezzo",
    "Papacy": "raise A Perugia\nraise A Urbino\nraise F Ancona\nraise G Roma",
    "Ferrara": "raise A Bologna\nraise A Ravenna\nraise F Ferrara",
    "Venice": "raise F Venezia\nraise A Padova\nraise G Verona",
    "Savoy": "sell Pontremoli to Milan for 2\nraise F Nizza\nraise A Torino",
    "Milan": "buy Pontremoli from Savoy for 2\ntax Como\nraise A Como\nraise A Milano\nraise A Cremona",
    "France": "raise F Ajaccio\nraise G Avignon\nraise A Lyon",
    "Sicily": "raise A Lipari\nraise F Lipari\nraise F Messina",
}


def first_spring() -> SpringRecord:
    return spring(BOARD.start, **FIRST_SPRING)


def test_3_M48_the_first_spring_no_income_and_at_most_three_units_raised_each() -> None:
    done = first_spring()
    assert not any(m.flow in (Flow.TAX, Flow.TRADE) for m in done.movements)  # 3: not collected in the first spring
    assert outcomes(done, "Papacy") == [("raise A per", 3, Reason.RAISED), ("raise A urb", 3, Reason.RAISED),
                                        ("raise F anc", 3, Reason.RAISED), ("raise G rom", 0,
                                                                            Reason.FIRST_SPRING_LIMIT)]
    assert outcomes(done, "Florence") == [("transfer 3 to Papacy", 3, Reason.TRANSFERRED),
                                          ("raise A fir", 3, Reason.RAISED), ("raise F pis", 3, Reason.RAISED),
                                          ("raise G are", 3, Reason.RAISED)]
    # 15 each; Florence gives 3 (A.4) and the Pope spends it in A.7 (M31)
    treasuries = {"Florence": 15 - 3 - 9, "Papacy": 15 + 3 - 9, "Ferrara": 15 - 9, "Venice": 15 - 9,
                  "Savoy": 15 + 2 - 6, "Milan": 15 - 2 + 1 - 6, "France": 15 - 6, "Sicily": 15 - 3,
                  "Holy Roman Empire": 15, "Genoa": 15, "Naples": 15, "Dalmatia": 15, "Turkey": 15}
    assert dict(done.position.treasuries) == treasuries


def test_6_M2_savoy_sells_pontremoli_to_milan_for_more_than_its_tax_income() -> None:
    done = first_spring()
    assert outcomes(done, "Savoy")[0] == ("sell pon to Milan for 2", 0, Reason.SOLD)
    assert outcomes(done, "Milan")[0] == ("buy pon from Savoy for 2", 2, Reason.BOUGHT)
    assert done.position.control[code("Pontremoli")] == "Milan"
    assert code("Pontremoli") not in BOARD.home_country("Milan")


def test_5_3_M11_milan_taxes_como_by_force_for_one_ducat_and_raises_nothing_there() -> None:
    done = first_spring()
    assert outcomes(done, "Milan")[1:] == [("tax com", 0, Reason.FORCED_TAX_COLLECTED),
                                           ("raise A com", 0, Reason.REBELLING),
                                           ("raise A mil", 3, Reason.RAISED), ("raise A cre", 3, Reason.RAISED)]
    assert done.position.rebellions == {code("Como"): "Milan"}
    assert done.position.anticipated["Milan"] == 15 + 1 - 6  # public: the forced tax and the salaries, no trade


def test_1_2_1_3_M15_no_garrison_in_an_unfortified_city_and_no_army_on_lipari() -> None:
    done = first_spring()
    assert outcomes(done, "France") == [("raise F aja", 3, Reason.RAISED), ("raise G avi", 0, Reason.NO_CITY_FOR_IT),
                                        ("raise A lyo", 3, Reason.RAISED)]
    assert outcomes(done, "Sicily") == [("raise A lip", 0, Reason.FLEETS_ONLY), ("raise F lip", 0,
                                                                                Reason.NO_CITY_FOR_IT),
                                        ("raise F mes", 3, Reason.RAISED)]


def test_3_the_first_spring_leaves_the_raised_units_and_awaits_the_spring_letters_of_phase_c() -> None:
    done = first_spring()
    assert done.position.phase is Phase.C and done.position.season == Season(1459, Campaign.SPRING)
    assert {u for u in units(done.position) if not u.startswith("independent")} == {
        "Florence A Firenze", "Florence F Pisa", "Florence G Arezzo", "Papacy A Perugia", "Papacy A Urbino",
        "Papacy F Ancona", "Ferrara A Bologna", "Ferrara A Ravenna", "Ferrara F Ferrara", "Venice F Venezia",
        "Venice A Padova", "Venice G Verona", "Savoy F Nizza", "Savoy A Torino", "Milan A Milano", "Milan A Cremona",
        "France F Ajaccio", "France A Lyon", "Sicily F Messina"}
    assert len(done.position.units) == 12 + 19 and done.position.units.keys() >= BOARD.start.units.keys()


# -- the campaign of Spring 1459 that follows, worked out by hand --------------------------------------------------

CAMPAIGN = {
    "Ferrara": "A Bologna - Firenze\nA Ravenna S A Bologna - Firenze\nF Ferrara - Lagoon",
    "Florence": "A Firenze H\nF Pisa - Ligurian Sea\nG Arezzo H",
    "Papacy": "A Perugia - Arezzo\nA Urbino S A Perugia - Arezzo\nF Ancona - Central Adriatic",
    "Venice": "F Venezia - Lagoon\nA Padova H\nG Verona H",
    "Savoy": "F Nizza - Ligurian Sea\nA Torino - Savoia",
    "Milan": "A Milano H\nA Cremona - Mantova",
    "France": "F Ajaccio - Sassari\nA Lyon - Savoia",
    "Sicily": "F Messina - Kalabria",
}


def test_a_campaign_of_1459_on_the_aop_board() -> None:
    """Bologna, supported from Ravenna (2), beats Firenze's hold (1): the Florentine army must go,
    not to Bologna (whence the attack), Arezzo (attacked, M42), Pisa, Ravenna or Urbino (occupied);
    of Prato, Pistoia (both Florence's, category 1, home) and Siena (independent, 3), Pistoia's
    ungarrisoned city ranks it above city-less Prato.  The Pope takes Arezzo's province beside the
    Florentine garrison (control split: nobody's).  The Lagoon, the Ligurian Sea and Savoia are
    stood off (1 against 1).  The Sicilian fleet crosses the strait of Messina into Kalabria (its
    own fleet controls it) beside the independent garrison, which supports nothing into an empty
    province (M44); Milan enters Mantova so too; the French fleet crosses Bonifacio into Sassari."""
    spring_done = first_spring()
    done = play(spring_done.position, **CAMPAIGN)
    (retreat,) = done.action.retreats
    assert retreat.unit == A("Florence", "Firenze") and retreat.to == A("Florence", "Pistoia")
    assert reasons(done).items() >= {
        "Ferrara A Bologna": Reason.ADVANCED, "Ferrara A Ravenna": Reason.SUPPORT_GIVEN,
        "Florence A Firenze": Reason.DISLODGED, "Papacy A Perugia": Reason.ADVANCED,
        "Papacy F Ancona": Reason.ADVANCED, "Ferrara F Ferrara": Reason.BOUNCED, "Venice F Venezia": Reason.BOUNCED,
        "Florence F Pisa": Reason.BOUNCED, "Savoy F Nizza": Reason.BOUNCED, "Savoy A Torino": Reason.BOUNCED,
        "France A Lyon": Reason.BOUNCED, "Sicily F Messina": Reason.ADVANCED, "Milan A Cremona": Reason.ADVANCED,
        "France F Ajaccio": Reason.ADVANCED}.items()
    after = done.position
    assert units(after) - units(spring_done.position) == {
        "Ferrara A Firenze", "Florence A Pistoia", "Papacy A Arezzo", "Papacy F Central Adriatic",
        "Sicily F Kalabria", "Milan A Mantova", "France F Sassari"}
    control = {BOARD.name_of(c.area): c.after for c in done.action.control_changes}
    assert control == {"Firenze": "Ferrara", "Arezzo": None, "Kalabria": None, "Mantova": None, "Sassari": "France"}
    assert after.controller(code("Arezzo")) is None and after.city_controller(code("Arezzo")) is None  # 4.1
    assert city_collector(BOARD, after, code("Arezzo")) == "Florence"  # but the garrison's owner collects its tax
    assert dict(after.treasuries) == dict(spring_done.position.treasuries)  # no expenditure, no income
    assert after.season == SUMMER and after.phase is Phase.C and done.end is None


# -- the islands that hold fleets only (1.3, 11.1, M15) ---------------------------------------------------------------


def test_1_3_M15_no_army_is_transported_onto_lipari_but_one_passes_through_a_fleet_on_it() -> None:
    start = game(A("Sicily", "Messina"), F("Sicily", "Eastern Tyrrhenian Sea"), F("Sicily", "Lipari"),
                 F("Sicily", "Bay of Naples"))
    done = play(start, Sicily="A Messina - Eastern Tyrrhenian Sea - Lipari\nF ETS T for Sicily\nF Lipari H\n"
                              "F Bay of Naples H")
    assert reasons(done)["Sicily A Messina"] is Reason.ISLAND_FOR_FLEETS
    done = play(start, Sicily="A Messina - Eastern Tyrrhenian Sea - Lipari - Bay of Naples - Napoli\n"
                              "F ETS T for Sicily\nF Lipari T for Sicily\nF Bay of Naples T for Sicily")
    assert reasons(done)["Sicily A Messina"] is Reason.ADVANCED
    assert A("Sicily", "Napoli") in done.position.units.values()


def test_1_3_a_superior_attack_on_a_fleet_on_lipari_dislodges_it_and_takes_the_island() -> None:
    """Venice's rule (14: the defender becomes a garrison, the attacker stays) is Venice's alone."""
    start = game(F("Sicily", "Lipari"), F("Naples", "Bay of Naples"), F("Naples", "Eastern Tyrrhenian Sea"))
    done = play(start, Naples="F Bay of Naples - Lipari\nF ETS S F Bay of Naples - Lipari", Sicily="F Lipari H")
    (retreat,) = done.action.retreats
    assert retreat.unit == F("Sicily", "Lipari") and retreat.to is None  # both seas are taken or attacked
    assert units(done.position) == {"Naples F Lipari", "Naples F Eastern Tyrrhenian Sea"}
    assert done.position.control[code("Lipari")] == "Naples"


def test_M15_the_victims_fleet_may_not_enter_a_rebelling_island_another_players_liberates_it() -> None:
    start = game(F("Sicily", "Bay of Naples"), F("Naples", "Eastern Tyrrhenian Sea"), rebellions={"Lipari": "Sicily"})
    done = play(start, Sicily="F Bay of Naples - Lipari")
    assert reasons(done)["Sicily F Bay of Naples"] is Reason.ISLAND_REBELLING
    done = play(start, Naples="F ETS - Lipari")
    assert reasons(done)["Naples F Eastern Tyrrhenian Sea"] is Reason.ADVANCED
    assert [(r.area, r.reason) for r in done.action.rebellions_ended] == [(code("Lipari"), Reason.LIBERATED)]


def test_11_1_a_rebellion_rises_on_lampedusa_only_while_it_is_empty() -> None:
    occupied = game(F("Turkey", "Lampedusa"), treasuries={"Naples": 30}, control={"Lampedusa": "Turkey"})
    done = play(occupied, Naples="rebellion 15 Lampedusa")
    assert outcomes(done, "Naples") == [("rebellion 15 lam", 0, Reason.ISLAND_OCCUPIED)]
    done = play(game(treasuries={"Naples": 30}), Naples="rebellion 15 Lampedusa")
    assert outcomes(done, "Naples") == [("rebellion 15 lam", 15, Reason.REBELLION_STARTED)]
    assert done.position.rebellions == {code("Lampedusa"): "Turkey"}


# -- the straits (9.3, 13.5, M17, M51, M55) ------------------------------------------------------------------------


def test_M17_a_sicilian_fleet_in_messina_closes_the_bay_of_naples_to_the_ionian_sea() -> None:
    start = game(F("Sicily", "Messina"), F("Naples", "Bay of Naples"))
    done = play(start, Naples="F Bay of Naples - Ionian Sea")
    assert reasons(done)["Naples F Bay of Naples"] is Reason.STRAIT_CLOSED
    done = play(start, Naples="F Bay of Naples - Ionian Sea", Sicily="allow Naples straits")
    assert reasons(done)["Naples F Bay of Naples"] is Reason.ADVANCED


def test_9_3_M17_a_fleet_in_calabria_cannot_carry_an_army_through_the_strait_of_messina_an_enemy_controls() -> None:
    start = game(A("Naples", "Salerno"), F("Naples", "Kalabria"), F("Naples", "Ionian Sea"), F("Sicily", "Messina"))
    orders = "A Salerno - Kalabria - Ionian Sea - Siracusa\nF Kalabria T for Naples\nF Ionian Sea T for Naples"
    done = play(start, Naples=orders)
    assert reasons(done)["Naples A Salerno"] is Reason.STRAIT_CLOSED
    done = play(start, Naples=orders, Sicily="allow Naples straits")
    assert reasons(done)["Naples A Salerno"] is Reason.ADVANCED
    assert A("Naples", "Siracusa") in done.position.units.values()
    along = "A Salerno - Kalabria - Otranto\nF Kalabria T for Naples"  # from the Tyrrhenian side to the Ionian
    assert reasons(play(start, Naples=along))["Naples A Salerno"] is Reason.STRAIT_CLOSED
    home = game(A("Naples", "Salerno"), F("Naples", "Kalabria"), F("Naples", "Messina"))
    assert reasons(play(home, Naples=along))["Naples A Salerno"] is Reason.ADVANCED  # its own fleet in Messina


def test_13_5_M17_a_retreat_through_bonifacio_comes_last_however_friendly_the_far_side() -> None:
    start = game(F("France", "Ajaccio"), F("Genoa", "Bastia"), F("Genoa", "Western Tyrrhenian Sea"),
                 control={"Sassari": "France"})
    orders = {"Genoa": "F Bastia - Ajaccio\nF Western Tyrrhenian Sea S F Bastia - Ajaccio", "France": "F Ajaccio H"}
    (retreat,) = play(start, **orders).action.retreats
    assert retreat.to == F("France", "Sea of Toulon")  # a sea (category 4) before friendly Sassari across the strait
    crowded = game(*start.units.values(), F("Savoy", "Sea of Toulon"), control={"Sassari": "France"})
    (retreat,) = play(crowded, **orders).action.retreats
    assert retreat.to == F("France", "Sassari")  # nobody controls Bonifacio: the passage is granted


def test_M17_a_genoese_fleet_in_piombino_with_elba_closes_the_channel_to_pisa() -> None:
    start = game(F("Genoa", "Piombino"), F("Florence", "Eastern Tyrrhenian Sea"), control={"Pisa": "Florence"})
    done = play(start, Florence="F ETS - Pisa")
    assert reasons(done)["Florence F Eastern Tyrrhenian Sea"] is Reason.STRAIT_CLOSED
    done = play(start, Florence="F ETS - Pisa", Genoa="allow Florence straits")
    assert reasons(done)["Florence F Eastern Tyrrhenian Sea"] is Reason.ADVANCED


# -- Venice, its Lagoon and Ferrara (14) ----------------------------------------------------------------------------


def test_14_a_fleet_in_ferrara_supports_its_besieger_on_the_lagoon_so_the_garrison_cannot_convert() -> None:
    """A besieged garrison in Venice converts unless the besieging force is superior: the Genoese
    fleet in Ferrara supports the siege across the Lagoon, 2 against 1; the siege's second season
    takes Venezia.  Without that support the garrison converts and the siege ends."""
    start = game(G("Venice", "Venezia"), F("Genoa", "Lagoon"), F("Genoa", "Ferrara"),
                 sieges={"Venezia": Siege("Genoa")}, control={"Ferrara": "Genoa"})
    done = play(start, Venice="G Venezia convert to F", Genoa="F Lagoon besiege\nF Ferrara S Venezia")
    assert reasons(done)["Genoa F Ferrara"] is Reason.SUPPORT_GIVEN
    assert reasons(done)["Venice G Venezia"] is Reason.SIEGE  # its conversion stood off, then the city fell (9.4)
    assert reasons(done)["Genoa F Lagoon"] is Reason.SIEGE_COMPLETED
    assert done.position.garrison(code("Venezia")) is None and done.position.control[code("Venezia")] == "Genoa"
    done = play(start, Venice="G Venezia convert to F", Genoa="F Lagoon besiege")
    assert F("Venice", "Venezia") in done.position.units.values() and not done.position.sieges


# -- A.1 and the JSON interface ---------------------------------------------------------------------------------------


def test_16_M46_no_garrison_springs_up_in_the_unfortified_cities_of_schweiz_bolzano_and_gabes() -> None:
    fall = Position.build(Season(1459, Campaign.FALL), BOARD.start.units.values(), treasuries=BOARD.start.treasuries,
                          homes=BOARD.start.homes)  # nobody controls anything: every fortified city is open
    opened, opening = spring_opening(BOARD, fall, Purse(fall.treasuries))
    sprung = {u.area for u in opening.sprung}
    assert not sprung & {code("Schweiz"), code("Bolzano"), code("Gabes")}
    fortified = {c for c, a in BOARD.areas.items() if a.fortified_city} - {u.area for u in BOARD.start.units.values()}
    # the fortified home cities: 2 French, 2 Savoyard, 3 Genoese, 3 Austrian, 3 Milanese, 4 Venetian (Venezia
    # included: empty), 4 Ferrarese, 4 Florentine, 4 Papal, 3 Neapolitan, 3 Sicilian, 3 Dalmatian, 2 Turkish
    assert sprung == fortified and len(fortified) == 2 + 2 + 3 + 3 + 3 + 4 + 4 + 4 + 4 + 3 + 3 + 3 + 2
    assert all(opened.garrison(a) is not None for a in sprung)


def test_the_json_interface_plays_the_first_spring_on_the_board_called_aop() -> None:
    answer = run({"board": "aop", "letters": {"Sicily": ["raise F Messina", "raise A Lipari"]}})
    assert answer["board"] == "aop" and answer["season"] == "Spring 1459" and answer["phase"] == "A"
    assert [o["reason"] for o in answer["orders"] if o["player"] == "Sicily"] == ["RAISED", "FLEETS_ONLY"]
    assert answer["treasuries"]["Sicily"] == 12 and answer["position"]["phase"] == "C"
    assert len(answer["expected"]) == 13


def test_the_json_interface_refuses_an_army_on_an_island_for_fleets() -> None:
    with pytest.raises(NotationError):
        position_from_data({"season": "Summer 1459", "units": [["Sicily", "A", "lip"]]}, BOARD)
    fleet = position_from_data({"season": "Summer 1459", "units": [["Sicily", "F", "Lipari"]]}, BOARD)
    assert fleet.province_unit(code("Lipari")) == F("Sicily", "Lipari") and fleet.unit_at(Place("lip")) is not None


def test_13_5_M15_an_army_forced_out_of_messina_never_retreats_onto_lipari_or_across_the_strait() -> None:
    start = game(A("Sicily", "Messina"), A("Naples", "Palermo"), A("Naples", "Siracusa"))
    done = play(start, Naples="A Palermo - Messina\nA Siracusa S A Palermo - Messina", Sicily="A Messina H")
    (retreat,) = done.action.retreats  # Palermo the attack's, Siracusa occupied: only Messina's own city is left
    assert retreat.unit == A("Sicily", "Messina") and retreat.to == G("Sicily", "Messina")
    assert retreat.reason is Reason.RETREAT_CONVERTED
    assert not {code("Lipari"), code("Kalabria")} & {u.area for u in done.position.units.values()}


def test_13_4_example_1_the_ring_of_tyrolea_como_and_turin_turns_on_the_aop_board_too() -> None:
    """Chapter 13's examples are drawn on another scenario's map (13.4); its first one lies on
    areas AoP's board keeps, with the same edges."""
    start = game(A("Milan", "Tyrolea"), A("France", "Como"), A("Genoa", "Turin"))
    done = play(start, Milan="A Tyrolea - Como", France="A Como - Turin", Genoa="A Turin - Tyrolea")
    assert units(done.position) == {"Milan A Como", "France A Torino", "Genoa A Tirol"}


def test_3_the_holy_roman_empire_is_a_player_by_that_name_and_a_letter_may_call_it_austria_or_hre() -> None:
    """AoP 3 names the power "Holy Roman Empire (Austria)": the board and the judge call it by
    its name, and a letter may name it by that name in words, by "Austria", "HRE" or "Empire"."""
    assert "Holy Roman Empire" in BOARD.powers and "Austria" not in BOARD.powers
    assert BOARD.area("Steiermark").home == "Holy Roman Empire"
    letter = "\n".join(["transfer 3 to Holy Roman Empire", "transfer 2 to Austria", "transfer 1 to HRE",
                        "assassinate Empire 30", "excommunicate holy roman empire", "transfer 4 to Holy"])
    orders, problems = parse_letter(letter, BOARD)
    assert not problems
    assert [str(o) for o in orders] == ["transfer 3 to Holy Roman Empire", "transfer 2 to Holy Roman Empire",
                                        "transfer 1 to Holy Roman Empire", "assassinate Holy Roman Empire 30",
                                        "excommunicate Holy Roman Empire", "transfer 4 to Holy Roman Empire"]
    assert parse_letter("\n".join(str(o) for o in orders), BOARD) == (orders, ())
