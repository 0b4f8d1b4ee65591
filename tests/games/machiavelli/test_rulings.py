"""The rulings of machiavelli.md section 5 that concern the Action phase, one test (or a few) per
ruling, worked out by hand on the classic board."""

from __future__ import annotations

from dataclasses import replace

from judge.games.machiavelli.core.action import adjudicate
from judge.games.machiavelli.core.board import ascii_name
from judge.games.machiavelli.core.orders import (
    Advance,
    Besiege,
    Convert,
    Hold,
    Permission,
    PhaseD,
    Support,
    Transport,
)
from judge.games.machiavelli.core.position import Independent, Place, Siege, UnitKind
from judge.games.machiavelli.core.preference import Preference
from judge.games.machiavelli.core.resolution import _containing
from judge.games.machiavelli.core.results import Reason

from .helpers import BOARD, A, F, G, judge, position, ref, where

# -- M5: control after F.2 ---------------------------------------------------------------------------------------


def test_M5_control_goes_to_the_sole_occupant_after_f2_and_stays_with_the_last_one() -> None:
    venice, milan, garrison = A("Venice", "pad"), A("Milan", "par"), G("Florence", "cre")
    start = position(venice, milan, garrison, control={"pad": "Venice", "vic": "Milan", "cre": "Milan"})
    done = judge(start, Advance(ref(venice), "vic"), Advance(ref(milan), "cre"))
    assert done.position.control["vic"] == "Venice"  # occupied
    assert done.position.control["pad"] == "Venice"  # left: the marker stays with the last occupant
    assert "cre" not in done.position.control  # an army and a garrison of different owners
    assert {(c.area, c.before, c.after, c.reason) for c in done.control_changes} == {
        ("vic", "Milan", "Venice", Reason.OCCUPIED), ("cre", "Milan", None, Reason.CONTESTED)}


# -- M14, M15, M57: Venice and the Lagoon -------------------------------------------------------------------------


def test_M14_a_superior_attack_from_the_lagoon_makes_the_army_in_venice_a_garrison_and_stays_in_the_lagoon() -> None:
    defender, attacker, helper = A("Venice", "ven"), F("Milan", "lag"), F("Milan", "pad")
    done = judge(position(defender, attacker, helper), Hold(ref(defender)), Advance(ref(attacker), "ven"),
                 Support(ref(helper), "ven"))
    assert done.result(attacker.place).reason is Reason.DEFENDER_MADE_GARRISON
    assert done.result(defender.place).dislodged_from == "lag"
    assert where(done) == {"Venice G ven", "Milan F lag", "Milan F pad"} and not done.retreats
    assert [c.reason for c in done.conversions] == [Reason.MADE_GARRISON]


def test_M14_an_equal_attack_from_the_lagoon_fails() -> None:
    defender, attacker = A("Venice", "ven"), F("Milan", "lag")
    done = judge(position(defender, attacker), Advance(ref(attacker), "ven"))
    assert done.result(attacker.place).reason is Reason.BOUNCED
    assert where(done) == {"Venice A ven", "Milan F lag"}


def test_M14_another_players_fleet_in_the_lagoon_stops_support_across_it() -> None:
    defender, padua = A("Venice", "ven"), F("Venice", "pad")
    attacker, friuli = F("Milan", "lag"), F("Milan", "fri")
    done = judge(position(defender, padua, attacker, friuli), Support(ref(padua), "ven"),
                 Advance(ref(attacker), "ven"), Support(ref(friuli), "ven"))
    assert done.result(padua.place).reason is Reason.LAGOON_CLOSED
    assert done.result(friuli.place).reason is Reason.SUPPORT_GIVEN  # the Lagoon's fleet is the supporter's own
    assert "Venice G ven" in where(done)


def test_M14_a_besieged_garrison_in_venice_converts_when_the_besieging_force_is_not_superior() -> None:
    garrison, besieger = G("Venice", "ven"), F("Milan", "lag")
    start = position(garrison, besieger, sieges={"ven": Siege("Milan")})
    done = judge(start, Convert(ref(garrison), UnitKind.FLEET), Besiege(ref(besieger)))
    assert done.result(garrison.place).reason is Reason.CONVERTED
    assert done.result(besieger.place).reason is Reason.SIEGE_BROKEN
    assert where(done) == {"Venice F ven", "Milan F lag"} and not done.position.sieges


def test_M14_a_superior_besieging_force_stops_the_conversion_and_takes_venice() -> None:
    garrison, besieger, helper = G("Venice", "ven"), F("Milan", "lag"), F("Milan", "fri")
    start = position(garrison, besieger, helper, sieges={"ven": Siege("Milan")}, control={"ven": "Venice"})
    done = judge(start, Convert(ref(garrison), UnitKind.FLEET), Besiege(ref(besieger)), Support(ref(helper), "ven"))
    assert (done.result(garrison.place).operation, done.result(garrison.place).reason) == (
        Convert(ref(garrison), UnitKind.FLEET), Reason.SIEGE)  # its conversion stood off, then the city fell
    assert done.result(besieger.place).reason is Reason.SIEGE_COMPLETED
    assert [(d.unit, d.reason) for d in done.disbanded] == [(garrison, Reason.SIEGE)]
    assert done.position.control["ven"] == "Milan" and where(done) == {"Milan F lag", "Milan F fri"}


def test_M57_an_advance_from_the_lagoon_into_venice_holding_only_a_garrison_is_void() -> None:
    garrison, attacker = G("Venice", "ven"), F("Milan", "lag")
    done = judge(position(garrison, attacker), Advance(ref(attacker), "ven"))
    assert done.result(attacker.place).reason is Reason.ISLAND_GARRISONED
    assert where(done) == {"Venice G ven", "Milan F lag"}


def test_M15_the_victim_may_not_enter_a_rebelling_venice_and_a_non_victim_liberates_it() -> None:
    victim = F("Venice", "lag")
    done = judge(position(victim, rebellions={"ven": "Venice"}), Advance(ref(victim), "ven"))
    assert done.result(victim.place).reason is Reason.ISLAND_REBELLING and done.position.rebellions == {"ven": "Venice"}
    liberator = F("Milan", "lag")
    done = judge(position(liberator, rebellions={"ven": "Venice"}), Advance(ref(liberator), "ven"))
    assert done.result(liberator.place).reason is Reason.ADVANCED
    assert [(e.area, e.reason) for e in done.rebellions_ended] == [("ven", Reason.LIBERATED)]
    assert done.position.control["ven"] == "Milan"


# -- M17, M51, M55: straits ---------------------------------------------------------------------------------------

PIOMBINO = F("Papacy", "pio")


def test_M17_a_fleet_in_piombino_closes_the_elba_strait_to_the_others() -> None:
    turk = F("Turkey", "ets")
    done = judge(position(PIOMBINO, turk), Advance(ref(turk), "psa"))
    assert done.result(turk.place).reason is Reason.STRAIT_CLOSED and "Turkey F ets" in where(done)


def test_M51_the_controller_may_grant_the_passage_for_the_campaign() -> None:
    turk = F("Turkey", "ets")
    done = judge(position(PIOMBINO, turk), Advance(ref(turk), "psa"), permissions=[Permission("Papacy", "Turkey")])
    assert done.result(turk.place).reason is Reason.ADVANCED
    other = judge(position(PIOMBINO, turk), Advance(ref(turk), "psa"), permissions=[Permission("Papacy", "Milan")])
    assert other.result(turk.place).reason is Reason.STRAIT_CLOSED


def test_M17_the_controllers_own_fleets_pass_and_a_fleet_arriving_in_piombino_closes_nothing() -> None:
    own = F("Papacy", "ets")
    assert judge(position(PIOMBINO, own), Advance(ref(own), "psa")).result(own.place).reason is Reason.ADVANCED
    arriving, turk = F("Papacy", "wts"), F("Turkey", "ets")
    done = judge(position(arriving, turk), Advance(ref(arriving), "pio"), Advance(ref(turk), "psa"))
    assert where(done) == {"Papacy F pio", "Turkey F psa"}


def test_M17_the_messina_strait_is_closed_by_a_fleet_in_messina() -> None:
    messina, turk = F("Naples", "mes"), F("Turkey", "ion")
    done = judge(position(messina, turk), Advance(ref(turk), "gon"))
    assert done.result(turk.place).reason is Reason.STRAIT_CLOSED


def test_M17_support_and_transport_through_a_closed_strait_are_not_given() -> None:
    fleet, army, defender = F("Turkey", "ets"), A("Turkey", "sie"), A("Florence", "psa")
    done = judge(position(PIOMBINO, fleet, army, defender), Advance(ref(army), "psa"), Support(ref(fleet), "psa"))
    assert done.result(fleet.place).reason is Reason.STRAIT_CLOSED
    assert done.result(army.place).reason is Reason.BOUNCED
    carried = A("Turkey", "pat")
    start = position(PIOMBINO, fleet, carried)
    orders = (Advance(ref(carried), "psa", route=("ets",)), Transport(ref(fleet)))
    assert judge(start, *orders).result(carried.place).reason is Reason.STRAIT_CLOSED
    allowed = judge(start, *orders, permissions=[Permission("Papacy", "Turkey")])
    assert allowed.result(carried.place).reason is Reason.ADVANCED


def test_M55_a_move_the_strait_stops_bounces_nothing() -> None:
    turk, milan = F("Turkey", "ets"), A("Milan", "sie")
    done = judge(position(PIOMBINO, turk, milan), Advance(ref(turk), "psa"), Advance(ref(milan), "psa"))
    assert done.result(milan.place).reason is Reason.ADVANCED


def test_M55_a_move_the_strait_stops_leaves_its_target_open_to_retreats() -> None:
    turk, florence = F("Turkey", "ets"), A("Florence", "luc")
    attacker, helper, blocker = A("Venice", "mod"), A("Venice", "bol"), A("Milan", "pst")
    done = judge(position(PIOMBINO, turk, florence, attacker, helper, blocker), Advance(ref(turk), "psa"),
                 Advance(ref(attacker), "luc"), Support(ref(helper), "luc"))
    assert done.retreats[0].to == A("Florence", "psa")


# -- M18, M19: supports ------------------------------------------------------------------------------------------

MILAN, PAPAL = A("Milan", "cre"), A("Papacy", "man")


def test_M18_a_support_goes_to_an_area_for_the_player_named() -> None:
    helper = A("Florence", "par")
    done = judge(position(MILAN, PAPAL, helper), Advance(ref(MILAN), "man"), Support(ref(helper), "man", "Milan"))
    assert done.result(MILAN.place).strength == 2 and done.result(PAPAL.place).dislodged_from == "cre"


def test_M18_the_default_beneficiary_is_the_supporters_owner() -> None:
    helper = A("Milan", "par")
    done = judge(position(MILAN, PAPAL, helper), Advance(ref(MILAN), "man"), Support(ref(helper), "man"))
    assert done.result(MILAN.place).reason is Reason.ADVANCED


def test_M18_a_support_for_a_player_with_no_operation_there_adds_nothing() -> None:
    helper = A("Florence", "par")
    done = judge(position(MILAN, PAPAL, helper), Advance(ref(MILAN), "man"), Support(ref(helper), "man", "Venice"))
    assert done.result(helper.place).reason is Reason.NOTHING_TO_SUPPORT
    assert done.result(MILAN.place).reason is Reason.BOUNCED


def test_M18_a_support_of_an_area_helps_the_unit_holding_there() -> None:
    helper, backer = A("Milan", "par"), A("Papacy", "bol")
    done = judge(position(MILAN, PAPAL, helper, backer), Advance(ref(MILAN), "man"), Support(ref(helper), "man"),
                 Support(ref(backer), "man"))
    assert done.result(MILAN.place).reason is Reason.BOUNCED
    assert done.result(backer.place).reason is Reason.SUPPORT_GIVEN


def test_M18_with_two_of_the_beneficiarys_units_directed_at_the_area_the_one_left_holding_there_gets_it() -> None:
    holder, mover, helper = A("Milan", "man"), A("Milan", "cre"), A("Florence", "par")
    attacker, backer = A("Papacy", "bol"), A("Papacy", "fer")
    done = judge(position(holder, mover, helper, attacker, backer), Hold(ref(holder)), Advance(ref(mover), "man"),
                 Support(ref(helper), "man", "Milan"), Advance(ref(attacker), "man"), Support(ref(backer), "man"))
    assert done.result(mover.place).reason is Reason.FRIENDLY_CONFLICT
    assert done.result(helper.place).reason is Reason.SUPPORT_GIVEN
    assert done.result(attacker.place).reason is Reason.BOUNCED  # 2 against 2


def test_M18_a_unit_supports_only_into_an_area_it_could_advance_into() -> None:
    army, fleet = A("Milan", "mil"), F("Venice", "uas")
    done = judge(position(army, fleet, A("Venice", "ven")), Support(ref(army), "man"), Support(ref(fleet), "ven"))
    assert done.result(army.place).reason is Reason.SUPPORT_OUT_OF_REACH
    assert done.result(fleet.place).reason is Reason.SUPPORT_GIVEN  # across the Lagoon (M14)


def test_M18_a_fleet_may_support_the_siege_of_a_city_that_is_no_port() -> None:
    garrison, besieger = G("Florence", "sie"), A("Papacy", "sie")
    fleet, attacker = F("Papacy", "ets"), A("Florence", "are")
    done = judge(position(garrison, besieger, fleet, attacker), Besiege(ref(besieger)), Support(ref(fleet), "sie"),
                 Advance(ref(attacker), "sie"))
    assert done.result(fleet.place).reason is Reason.SUPPORT_GIVEN
    assert done.result(attacker.place).reason is Reason.BOUNCED
    assert done.result(besieger.place).reason is Reason.BESIEGED


def test_M19_a_garrison_supports_only_into_its_own_province() -> None:
    garrison = G("Venice", "pad")
    done = judge(position(garrison), Support(ref(garrison), "vic"))
    assert done.result(garrison.place).reason is Reason.GARRISON_SUPPORTS_OWN_PROVINCE


# -- M20: assassination ------------------------------------------------------------------------------------------


def test_M20_the_assassinated_players_units_hold_and_may_be_supported() -> None:
    victim, attacker, helper, friend = A("Venice", "pad"), A("Papacy", "fer"), A("Milan", "ver"), A("Florence", "vic")
    done = judge(position(victim, attacker, helper, friend), Advance(ref(victim), "trv"), Advance(ref(attacker), "pad"),
                 Support(ref(helper), "pad", "Papacy"), Support(ref(friend), "pad", "Venice"),
                 phase_d=PhaseD(assassinated=frozenset({"Venice"})))
    assert done.result(victim.place).reason is Reason.ASSASSINATED
    assert done.result(attacker.place).reason is Reason.BOUNCED  # 2 against the supported hold's 2


def test_M20_the_assassinated_players_holds_put_down_no_rebellion() -> None:
    victim = A("Venice", "vic")
    done = judge(position(victim, rebellions={"vic": "Venice"}), Hold(ref(victim)),
                 phase_d=PhaseD(assassinated=frozenset({"Venice"})))
    assert done.position.rebellions == {"vic": "Venice"}


# -- M22, M47: sieges ----------------------------------------------------------------------------------------------

GARRISON, BESIEGER = G("Florence", "cre"), A("Milan", "cre")


def test_M22_a_first_successful_season_lays_the_siege_and_the_second_takes_the_city() -> None:
    start = replace(position(GARRISON, BESIEGER, control={"cre": "Florence"}),
                    season=BOARD.start.season.next().next())  # Fall
    first = judge(start, Besiege(ref(BESIEGER)))
    assert first.result(BESIEGER.place).reason is Reason.BESIEGED
    assert first.position.sieges == {"cre": Siege("Milan", 1)}  # M47: the city now yields nobody tax
    spring = replace(first.position, season=first.position.season.next())  # no winter: Fall then Spring
    second = judge(spring, Besiege(ref(BESIEGER)))
    assert second.result(BESIEGER.place).reason is Reason.SIEGE_COMPLETED
    assert [(d.unit, d.reason) for d in second.disbanded] == [(GARRISON, Reason.SIEGE)]
    assert where(second) == {"Milan A cre"} and second.position.control["cre"] == "Milan"
    assert not second.position.sieges


def test_9_4_a_garrison_destroyed_by_a_completed_siege_is_reported_destroyed_not_held() -> None:
    """9.4: "if the siege succeeds, the garrison unit is destroyed".  An independent garrison has
    no order (16) and would be reported among the independents that held unbribed; the second
    season of Milan's siege of Mantua destroys it, and its result says so."""
    garrison, besieger = G(Independent("man"), "man"), A("Milan", "man")
    done = judge(position(garrison, besieger, sieges={"man": Siege("Milan")}), Besiege(ref(besieger)))
    result = done.result(garrison.place)
    assert (result.order, result.succeeded, result.reason) == (None, False, Reason.SIEGE)
    assert [(d.unit, d.reason) for d in done.disbanded] == [(garrison, Reason.SIEGE)] and where(done) == {
        "Milan A man"}


def test_M22_in_the_second_season_any_order_but_besiege_is_a_hold_that_breaks_the_siege() -> None:
    start = position(GARRISON, BESIEGER, sieges={"cre": Siege("Milan")})
    done = judge(start, Advance(ref(BESIEGER), "man"))
    assert done.result(BESIEGER.place).reason is Reason.SIEGE_SECOND_SEASON
    assert [(s.area, s.reason) for s in done.sieges] == [("cre", Reason.SIEGE_BROKEN)] and not done.position.sieges
    held = judge(start, Hold(ref(BESIEGER)))
    assert held.result(BESIEGER.place).reason is Reason.HELD and not held.position.sieges


def test_M22_a_besieger_forced_to_retreat_breaks_the_siege() -> None:
    attacker, helper = A("Venice", "man"), A("Venice", "ber")
    start = position(GARRISON, BESIEGER, attacker, helper, sieges={"cre": Siege("Milan")})
    done = judge(start, Besiege(ref(BESIEGER)), Advance(ref(attacker), "cre"), Support(ref(helper), "cre"))
    assert done.result(BESIEGER.place).reason is Reason.SIEGE_BROKEN and not done.position.sieges
    assert "Florence G cre" in where(done)


def test_M39_a_besieger_bribed_to_another_side_must_hold() -> None:
    start = position(GARRISON, BESIEGER, sieges={"cre": Siege("Venice")})  # Milan bought Venice's besieger
    done = judge(start, Besiege(ref(BESIEGER)))
    assert done.result(BESIEGER.place).reason is Reason.BRIBED_BESIEGER and not done.position.sieges


def test_M22_the_victim_besieging_its_rebelling_city_puts_the_rebellion_down() -> None:
    victim = A("Venice", "pad")
    start = position(victim, rebellions={"pad": "Venice"}, sieges={"pad": Siege("Venice")}, control={"pad": "Venice"})
    done = judge(start, Besiege(ref(victim)))
    assert done.result(victim.place).reason is Reason.SIEGE_COMPLETED
    assert [(e.area, e.reason) for e in done.rebellions_ended] == [("pad", Reason.PUT_DOWN_BY_SIEGE)]
    assert not done.position.rebellions and done.position.controller("pad") == "Venice"


def test_M22_a_fleet_besieges_only_a_port_city() -> None:
    garrison, fleet = G("Florence", "sie"), F("Papacy", "sie")
    done = judge(position(garrison, fleet), Besiege(ref(fleet)))
    assert done.result(fleet.place).reason is Reason.FLEET_BESIEGES_PORT_ONLY
    port, port_fleet = G("Florence", "psa"), F("Papacy", "psa")
    done = judge(position(port, port_fleet), Besiege(ref(port_fleet)))
    assert done.result(port_fleet.place).reason is Reason.BESIEGED


# -- M23, M43: conversions ---------------------------------------------------------------------------------------


def test_M23_an_army_converting_into_the_city_leaves_the_province_to_an_advance() -> None:
    army, attacker = A("Milan", "cre"), A("Venice", "man")
    done = judge(position(army, attacker), Convert(ref(army), UnitKind.GARRISON), Advance(ref(attacker), "cre"))
    assert where(done) == {"Milan G cre", "Venice A cre"}


def test_M23_a_garrison_converts_into_a_province_an_army_leaves() -> None:
    garrison, army = G("Milan", "cre"), A("Venice", "cre")
    done = judge(position(garrison, army), Convert(ref(garrison), UnitKind.ARMY), Advance(ref(army), "man"))
    assert where(done) == {"Milan A cre", "Venice A man"}


def test_M23_a_garrison_converting_into_an_enemy_army_it_cannot_beat_stays() -> None:
    garrison, army = G("Milan", "cre"), A("Venice", "cre")
    done = judge(position(garrison, army), Convert(ref(garrison), UnitKind.ARMY))
    assert done.result(garrison.place).reason is Reason.CONVERSION_BOUNCED
    assert where(done) == {"Milan G cre", "Venice A cre"}


def test_M23_conversions_need_an_empty_unrebelling_fortified_city_and_a_port_for_fleets() -> None:
    cases = [
        (position(A("Milan", "com")), Convert(ref(A("Milan", "com")), UnitKind.GARRISON), Reason.NO_FORTIFIED_CITY),
        (position(A("Milan", "cre"), G("Venice", "cre")), Convert(ref(A("Milan", "cre")), UnitKind.GARRISON),
         Reason.CITY_OCCUPIED),
        (position(A("Milan", "cre"), rebellions={"cre": "Milan"}), Convert(ref(A("Milan", "cre")), UnitKind.GARRISON),
         Reason.CITY_REBELLING),
        (position(F("Papacy", "sie")), Convert(ref(F("Papacy", "sie")), UnitKind.GARRISON), Reason.NOT_A_PORT),
        (position(G("Milan", "cre")), Convert(ref(G("Milan", "cre")), UnitKind.FLEET), Reason.NOT_A_PORT),
        (position(A("Milan", "cre")), Convert(ref(A("Milan", "cre")), UnitKind.FLEET), Reason.WRONG_UNIT),
    ]
    for start, order, reason in cases:
        assert judge(start, order).results[0].reason is reason, order


def test_M43_a_garrison_converting_under_a_superior_attack_retreats_elsewhere_if_it_can() -> None:
    garrison, attacker, helper = G("Florence", "man"), A("Papacy", "bol"), A("Papacy", "fer")
    done = judge(position(garrison, attacker, helper), Convert(ref(garrison), UnitKind.ARMY),
                 Advance(ref(attacker), "man"), Support(ref(helper), "man"))
    assert done.result(garrison.place).reason is Reason.CONVERTED_THEN_DISLODGED
    (retreat,) = done.retreats
    assert retreat.unit == A("Florence", "man") and retreat.to is not None and retreat.to.kind is UnitKind.ARMY


# -- M24: transport ------------------------------------------------------------------------------------------------


def test_M24_an_army_travels_along_the_fleets_its_order_names_seas_and_coastal_provinces() -> None:
    army, upper, lower = A("Papacy", "anc"), F("Papacy", "uas"), F("Papacy", "las")
    done = judge(position(army, upper, lower), Advance(ref(army), "dur", route=("uas", "las")), Transport(ref(upper)),
                 Transport(ref(lower)))
    assert done.result(army.place).reason is Reason.ADVANCED and done.result(upper.place).reason is Reason.TRANSPORTED
    coastal_army, ferrara = A("Papacy", "bol"), F("Venice", "fer")
    done = judge(position(coastal_army, ferrara), Advance(ref(coastal_army), "pad", route=("fer",)),
                 Transport(ref(ferrara), "Papacy"))
    assert where(done) == {"Papacy A pad", "Venice F fer"}


def test_M24_a_transport_needs_the_fleets_order_for_the_armys_owner() -> None:
    army, fleet = A("Papacy", "bol"), F("Venice", "fer")
    done = judge(position(army, fleet), Advance(ref(army), "pad", route=("fer",)), Transport(ref(fleet)))
    assert done.result(army.place).reason is Reason.TRANSPORT_FAILED
    assert done.result(fleet.place).reason is Reason.NOTHING_TRANSPORTED


def test_M24_a_route_that_is_no_chain_of_fleets_is_an_impossible_order() -> None:
    army, fleet = A("Papacy", "bol"), F("Papacy", "uas")
    done = judge(position(army, fleet), Advance(ref(army), "dur", route=("uas",)), Transport(ref(fleet)))
    assert done.result(army.place).reason is Reason.BAD_ROUTE


def test_M24_one_army_per_fleet_per_campaign() -> None:
    first, second, fleet = A("Papacy", "bol"), A("Papacy", "rma"), F("Papacy", "uas")
    done = judge(position(first, second, fleet), Advance(ref(first), "pad", route=("uas",)),
                 Advance(ref(second), "fer", route=("uas",)), Transport(ref(fleet)))
    assert {done.result(u.place).reason for u in (first, second)} == {Reason.TRANSPORT_AMBIGUOUS}


def test_M24_a_fleet_forced_to_retreat_fails_the_transport() -> None:
    army, fleet, attacker, helper = A("Papacy", "anc"), F("Papacy", "uas"), F("Venice", "las"), F("Venice", "dal")
    done = judge(position(army, fleet, attacker, helper), Advance(ref(army), "ist", route=("uas",)),
                 Transport(ref(fleet)), Advance(ref(attacker), "uas"), Support(ref(helper), "uas"))
    assert done.result(army.place).reason is Reason.TRANSPORT_FAILED
    assert done.result(fleet.place).reason is Reason.TRANSPORT_BROKEN


def test_M24_a_paradox_involving_a_transport_holds_the_transported_army() -> None:
    # The army in Albania, carried through the Lower Adriatic, attacks Bari, whose fleet supports
    # the attack on the transporting fleet: if the transport works, the support is cut and the
    # fleet survives; if not, the fleet is forced out.  Both are consistent: Szykman holds the army.
    army, fleet = A("Turkey", "alb"), F("Turkey", "las")
    bari, otranto = F("Naples", "bar"), F("Naples", "otr")
    done = judge(position(army, fleet, bari, otranto), Advance(ref(army), "bar", route=("las",)),
                 Transport(ref(fleet)), Support(ref(bari), "las"), Advance(ref(otranto), "las"))
    assert done.result(army.place).reason is Reason.CONVOY_PARADOX
    assert done.result(bari.place).reason is Reason.SUPPORT_GIVEN
    assert done.result(fleet.place).dislodged_from == "otr"


# -- M25: cutting a support --------------------------------------------------------------------------------------


def test_M25_an_attacker_forced_to_retreat_does_not_cut_the_support() -> None:
    milan, helper, papal, cutter = A("Milan", "cre"), A("Milan", "par"), A("Papacy", "man"), A("Papacy", "mod")
    venice, venice_helper = A("Venice", "luc"), A("Venice", "bol")
    done = judge(position(milan, helper, papal, cutter, venice, venice_helper), Advance(ref(milan), "man"),
                 Support(ref(helper), "man"), Advance(ref(cutter), "par"), Advance(ref(venice), "mod"),
                 Support(ref(venice_helper), "mod"))
    assert done.result(cutter.place).dislodged_from == "luc"
    assert done.result(helper.place).reason is Reason.SUPPORT_GIVEN
    assert done.result(milan.place).reason is Reason.ADVANCED


def test_M25_an_attack_from_the_supported_area_does_not_cut() -> None:
    milan, helper, papal = A("Milan", "cre"), A("Milan", "par"), A("Papacy", "man")
    done = judge(position(milan, helper, papal), Advance(ref(milan), "man"), Support(ref(helper), "man"),
                 Advance(ref(papal), "par"))
    assert done.result(helper.place).reason is Reason.SUPPORT_GIVEN
    assert done.result(papal.place).dislodged_from == "cre"


# -- M26: friendly conflicts ----------------------------------------------------------------------------------------


def test_M26_two_own_units_advancing_into_one_area_both_hold() -> None:
    first, second = A("Milan", "cre"), A("Milan", "par")
    done = judge(position(first, second), Advance(ref(first), "man"), Advance(ref(second), "man"))
    assert {r.reason for r in done.results} == {Reason.FRIENDLY_CONFLICT}


def test_M26_an_advance_against_an_own_unit_that_stays_holds() -> None:
    mover, stayer = A("Milan", "cre"), A("Milan", "man")
    done = judge(position(mover, stayer), Advance(ref(mover), "man"), Support(ref(stayer), "par"))
    assert done.result(mover.place).reason is Reason.FRIENDLY_CONFLICT


def test_M26_a_support_of_another_players_attack_on_an_own_unit_holds() -> None:
    own, traitor, attacker = A("Venice", "pad"), A("Venice", "vic"), A("Milan", "ver")
    done = judge(position(own, traitor, attacker), Support(ref(traitor), "pad", "Milan"), Advance(ref(attacker), "pad"))
    assert done.result(traitor.place).reason is Reason.FRIENDLY_CONFLICT
    assert done.result(attacker.place).reason is Reason.BOUNCED


def test_M26_own_units_may_move_through_each_others_vacated_areas() -> None:
    ring = (A("Milan", "tyr"), A("Milan", "com"), A("Milan", "tur"))
    done = judge(position(*ring), Advance(ref(ring[0]), "com"), Advance(ref(ring[1]), "tur"),
                 Advance(ref(ring[2]), "tyr"))
    assert {r.reason for r in done.results} == {Reason.ADVANCED}


# -- M27: cycles -------------------------------------------------------------------------------------------------------


def test_M27_two_equal_attacks_each_winning_only_if_the_other_is_forced_out_are_a_standoff() -> None:
    # Milan and Florence advance on empty Modena; each is forced out of its area if it stays.  A
    # unit forced out prevents nothing (13.5), so either attack wins if the other loses: two
    # outcomes, mirror images.  Neither is chosen: both attacks fail, and both units are forced out.
    milan, florence = A("Milan", "par"), A("Florence", "luc")
    venice, venice_helper = A("Venice", "man"), A("Venice", "cre")
    papal, papal_helper = A("Papacy", "bol"), A("Papacy", "pst")
    done = judge(position(milan, florence, venice, venice_helper, papal, papal_helper), Advance(ref(milan), "mod"),
                 Advance(ref(florence), "mod"), Advance(ref(venice), "par"), Support(ref(venice_helper), "par"),
                 Advance(ref(papal), "luc"), Support(ref(papal_helper), "luc"))
    assert done.result(milan.place).reason is Reason.CYCLE_STANDOFF
    assert done.result(florence.place).reason is Reason.CYCLE_STANDOFF
    assert {r.unit for r in done.retreats} == {milan, florence}
    assert where(done) >= {"Venice A par", "Papacy A luc"}


def test_M27_of_two_outcomes_neither_containing_the_other_none_is_chosen() -> None:
    a, b = ("given", Place("man")), ("given", Place("bol"))
    assert _containing([{a: True, b: False}, {a: False, b: True}]) is None
    assert _containing([{a: True, b: True}, {a: False, b: False}]) == {a: True, b: True}
    assert _containing([{a: True, b: True}, {a: False, b: False}, {a: True, b: False}]) is None


# -- M28, M41, M42: retreats ------------------------------------------------------------------------------------------


def test_M28_retreat_never_into_an_area_anyone_attacked() -> None:
    papal, attacker, helper = A("Papacy", "tiv"), A("Naples", "cap"), A("Naples", "spo")
    florence, milan = A("Florence", "per"), A("Milan", "pat")
    done = judge(position(papal, attacker, helper, florence, milan), Advance(ref(attacker), "tiv"),
                 Support(ref(helper), "tiv"), Advance(ref(florence), "rme"), Advance(ref(milan), "rme"))
    # Rome stays empty, but two attacks bounced there: it is closed, and nothing else is open.
    assert done.retreats[0].to is None and done.retreats[0].reason is Reason.NO_RETREAT
    calm = judge(position(papal, attacker, helper, florence, milan), Advance(ref(attacker), "tiv"),
                 Support(ref(helper), "tiv"))
    assert calm.retreats[0].to == A("Papacy", "rme")


def test_M28_appendix_a_prefers_a_friendly_province_a_bigger_city_and_the_coast() -> None:
    preference = Preference(BOARD, BOARD.start, "Venice", UnitKind.ARMY, frozenset())
    assert preference.category("pad") == 1 and preference.category("man") == 3 and preference.category("mil") == 5
    assert preference.key("pad") < preference.key("man") < preference.key("mil")
    assert preference.rank("ven") < preference.rank("pad") < preference.rank("vic")  # magnitude 3, city, none
    assert preference.rank("fri") < preference.rank("vic")  # no city either: the coast first
    assert preference.subcategory("mil") == 3 and preference.subcategory("man") == 2


def test_M28_a_fleet_with_only_seas_left_follows_the_sea_order() -> None:
    venice, attacker, helper = F("Venice", "ion"), F("Naples", "otr"), F("Naples", "mes")
    start = position(venice, attacker, helper, A("Naples", "pal"), control=BOARD.start.control)
    done = judge(start, Advance(ref(attacker), "ion"), Support(ref(helper), "ion"))
    # Durazzo is Turkey's (category 5), the Gulf of Naples is through the Messina strait its
    # controller closed (the attacker's owner), Bay of Tunis and Lower Adriatic are seas: the
    # Lower Adriatic comes first in Appendix A's order.
    assert done.retreats[0].to == F("Venice", "las")


def test_M28_the_nearest_friendly_province_breaks_a_tie_as_in_example_6() -> None:
    florence, pisa = F("Florence", "egl"), A("Florence", "psa")
    attacker, helper, blocker = F("Milan", "gen"), F("France", "wts"), A("France", "sav")
    start = position(florence, pisa, attacker, helper, blocker, G(Independent("mod"), "mod"),
                     G(Independent("luc"), "luc"), control={"psa": "Florence"})
    done = judge(start, Advance(ref(attacker), "egl"), Support(ref(helper), "egl", "Milan"))
    # Modena and Lucca: both unrebelling, uncontrolled by players, coastal, with a garrisoned
    # city; Lucca is one fleet move from friendly Pisa, Modena two.
    assert done.retreats[0].to == F("Florence", "luc")


def test_M28_straits_are_the_least_preferred_way_out() -> None:
    florence, attacker, helper = F("Florence", "ets"), F("Milan", "wts"), F("Milan", "gon")
    blockers = [A("Naples", a) for a in ("pio", "sie", "pat", "mes")] + [F("Naples", "pal")]
    start = position(florence, attacker, helper, *blockers, control={"psa": "Florence"})
    orders = (Advance(ref(attacker), "ets"), Support(ref(helper), "ets"))
    assert judge(start, *orders).retreats[0].to == F("Florence", "tiv")  # not friendly Pisa, through the strait
    closed_tivoli = position(florence, attacker, helper, *blockers, A("Naples", "tiv"), control={"psa": "Florence"})
    assert judge(closed_tivoli, *orders).retreats[0].to == F("Florence", "psa")


def test_M28_the_strait_is_refused_when_its_controller_made_the_attack() -> None:
    florence, attacker, helper = F("Florence", "ets"), F("Papacy", "wts"), F("Papacy", "pio")
    blockers = [A("Naples", a) for a in ("sie", "pat", "tiv", "mes")] + [F("Naples", "pal"), F("Naples", "gon")]
    done = judge(position(florence, attacker, helper, *blockers), Advance(ref(attacker), "ets"),
                 Support(ref(helper), "ets"))
    assert done.retreats[0].to is None and done.retreats[0].reason is Reason.NO_RETREAT
    assert [d.unit for d in done.disbanded] == [florence]


def test_M28_an_independent_unit_retreats_only_by_converting() -> None:
    native, attacker, helper = A(Independent("man"), "man"), A("Venice", "ver"), A("Venice", "bre")
    done = judge(position(native, attacker, helper), Advance(ref(attacker), "man"), Support(ref(helper), "man"))
    assert done.retreats[0].to == G(Independent("man"), "man") and done.retreats[0].reason is Reason.RETREAT_CONVERTED
    pirate, fleet, backer = F(Independent("las"), "las"), F("Venice", "uas"), F("Venice", "dal")
    done = judge(position(pirate, fleet, backer), Advance(ref(fleet), "las"), Support(ref(backer), "las"))
    assert done.retreats[0].reason is Reason.INDEPENDENT_FORCED_OUT and done.disbanded[0].unit == pirate


def test_M28_clashing_retreats_leave_the_unit_that_cannot_be_placed_eliminated() -> None:
    bosnia, ragusa = A("Genoa", "bos"), A("Genoa", "rag")
    start = position(bosnia, ragusa, G(Independent("rag"), "rag"), A("Turkey", "cro"), A("Turkey", "dal"),
                     A("Turkey", "alb"), F("Turkey", "las"))
    done = judge(start, Advance(ref(A("Turkey", "cro")), "bos"), Support(ref(A("Turkey", "dal")), "bos"),
                 Advance(ref(A("Turkey", "alb")), "rag"), Support(ref(F("Turkey", "las")), "rag"))
    # Herzegovina is the only way out of both; Ragusa's city is held.  Equal choices: Bosnia
    # comes first alphabetically and goes there.
    assert {(r.unit, r.to, r.reason) for r in done.retreats} == {
        (bosnia, A("Genoa", "her"), Reason.RETREATED), (ragusa, None, Reason.RETREAT_CLASH)}


def test_M52_the_last_tie_break_is_alphabetical_with_accents_folded() -> None:
    genoese, attacker, helper = A("Genoa", "alb"), A("Turkey", "her"), F("Turkey", "las")
    done = judge(position(genoese, attacker, helper), Advance(ref(attacker), "alb"), Support(ref(helper), "alb"))
    # Durazzo and Ragusa: both ungarrisoned port cities, coastal, nobody's, equally far from
    # everything Appendix A counts: Durazzo before Ragusa.
    preference = Preference(BOARD, position(), "Genoa", UnitKind.ARMY, frozenset())
    assert preference.key("dur")[:3] == preference.key("rag")[:3]
    assert done.retreats[0].to == A("Genoa", "dur")
    assert ascii_name("Kärnten") == "Karnten"


def test_M41_no_retreat_into_the_starting_area_of_a_transported_attacker() -> None:
    venice, army, fleet, helper = A("Venice", "fer"), A("Papacy", "pad"), F("Papacy", "uas"), A("Papacy", "bol")
    start = position(venice, army, fleet, helper, control={"pad": "Venice", "ver": "Venice"})
    done = judge(start, Advance(ref(army), "fer", route=("uas",)), Transport(ref(fleet)), Support(ref(helper), "fer"))
    assert done.result(army.place).reason is Reason.ADVANCED
    assert done.retreats[0].to == A("Venice", "ver")  # not Padua, which the army left


VENETIAN = A("Venice", "man")


def test_M42_the_target_of_a_failed_transport_is_closed_to_retreats() -> None:
    attacker, helper, blockers = A("Milan", "cre"), A("Milan", "par"), [A("Venice", "ver"), A("Papacy", "mod")]
    army, fleet = A("Papacy", "bol"), F("Papacy", "uas")
    start = position(VENETIAN, attacker, helper, army, fleet, *blockers, control={"fer": "Venice", "bre": "Milan"})
    orders = (Advance(ref(attacker), "man"), Support(ref(helper), "man"))
    assert judge(start, *orders).retreats[0].to == A("Venice", "fer")
    failed = judge(start, *orders, Advance(ref(army), "fer", route=("uas",)))
    assert failed.result(army.place).reason is Reason.TRANSPORT_FAILED
    assert failed.retreats[0].to == A("Venice", "bre")


def test_M42_an_impossible_advance_and_an_assassinated_players_advance_attack_nothing() -> None:
    attacker, helper, blockers = A("Milan", "cre"), A("Milan", "par"), [A("Venice", "ver"), A("Papacy", "mod")]
    army, stray = A("Papacy", "bol"), A("Papacy", "pst")
    start = position(VENETIAN, attacker, helper, army, stray, *blockers, control={"fer": "Venice", "bre": "Milan"})
    orders = (Advance(ref(attacker), "man"), Support(ref(helper), "man"))
    illegal = judge(start, *orders, Advance(ref(stray), "fer"))
    assert illegal.result(stray.place).reason is Reason.NOT_ADJACENT and illegal.retreats[0].to == A("Venice", "fer")
    cancelled = judge(start, *orders, Advance(ref(army), "fer"), phase_d=PhaseD(assassinated=frozenset({"Papacy"})))
    assert cancelled.retreats[0].to == A("Venice", "fer")
    attempted = judge(start, *orders, Advance(ref(army), "fer"), Advance(ref(blockers[0]), "fer"))  # a standoff
    assert attempted.retreats[0].to == A("Venice", "bre")


# -- M44, M45, M56: rebellions ----------------------------------------------------------------------------------------


def test_M44_a_rebellion_supports_a_lone_attacker_who_is_not_its_victim() -> None:
    victim, attacker = A("Venice", "pad"), A("Milan", "ver")
    done = judge(position(victim, attacker, rebellions={"pad": "Venice"}), Advance(ref(attacker), "pad"))
    assert done.result(attacker.place).strength == 2 and done.result(victim.place).dislodged_from == "ver"
    assert [(e.area, e.reason) for e in done.rebellions_ended] == [("pad", Reason.LIBERATED)]


def test_M44_no_rebellion_support_when_two_players_attack() -> None:
    victim, milan, papal = A("Venice", "pad"), A("Milan", "ver"), A("Papacy", "fer")
    done = judge(position(victim, milan, papal, rebellions={"pad": "Venice"}), Advance(ref(milan), "pad"),
                 Advance(ref(papal), "pad"))
    assert done.result(milan.place).strength == 1 and "Venice A pad" in where(done)


def test_M44_the_victims_own_attack_gets_no_rebellion_support() -> None:
    victim = A("Venice", "vic")
    done = judge(position(victim, rebellions={"pad": "Venice"}), Advance(ref(victim), "pad"))
    assert done.result(victim.place).strength == 1


def test_M44_an_independent_garrison_supports_an_attack_on_the_enemy_in_its_province() -> None:
    garrison, occupant, attacker = G(Independent("man"), "man"), A("Venice", "man"), A("Milan", "cre")
    done = judge(position(garrison, occupant, attacker), Advance(ref(attacker), "man"))
    assert done.result(attacker.place).strength == 2 and done.result(occupant.place).dislodged_from == "cre"
    empty = judge(position(garrison, attacker), Advance(ref(attacker), "man"))
    assert empty.result(attacker.place).strength == 1


def test_M45_a_given_hold_of_the_victims_army_puts_the_province_rebellion_down() -> None:
    victim = A("Venice", "vic")
    done = judge(position(victim, rebellions={"vic": "Venice"}), Hold(ref(victim)))
    assert done.result(victim.place).reason is Reason.REBELLION_PUT_DOWN and not done.position.rebellions
    garrisoned = position(A("Venice", "pad"), G("Venice", "pad"), rebellions={"pad": "Venice"})
    assert not judge(garrisoned, Hold(ref(A("Venice", "pad")))).position.rebellions


def test_M45_no_order_a_rebelling_fortified_city_or_a_garrison_puts_nothing_down() -> None:
    assert judge(position(A("Venice", "vic"), rebellions={"vic": "Venice"})).position.rebellions == {"vic": "Venice"}
    rebel_city = position(A("Venice", "pad"), rebellions={"pad": "Venice"})
    assert judge(rebel_city, Hold(ref(A("Venice", "pad")))).position.rebellions == {"pad": "Venice"}
    garrison_only = position(G("Venice", "pad"), rebellions={"pad": "Venice"})
    assert judge(garrison_only, Hold(ref(G("Venice", "pad")))).position.rebellions == {"pad": "Venice"}


def test_M56_liberation_frees_the_ungarrisoned_city_too_and_a_garrison_keeps_its_city() -> None:
    liberator = A("Milan", "ver")
    done = judge(position(liberator, rebellions={"pad": "Venice"}, control={"pad": "Venice"}),
                 Advance(ref(liberator), "pad"))
    assert not done.position.rebellions and done.position.control["pad"] == "Milan"
    assert done.position.city_controller("pad") == "Milan"
    kept = judge(position(liberator, G("Venice", "pad"), rebellions={"pad": "Venice"}, control={"pad": "Venice"}),
                 Advance(ref(liberator), "pad"))
    assert not kept.position.rebellions and "pad" not in kept.position.control  # army and garrison: contested
    assert "Venice G pad" in where(kept)


# -- M33, M39, M50: independents, bribed units, missing orders -------------------------------------------------------


def test_M33_an_independent_unit_holds_unless_bribed_to_operate_and_never_advances() -> None:
    native = A(Independent("man"), "man")
    start = position(native)
    assert judge(start).results[0].reason is Reason.INDEPENDENT
    operated = PhaseD(operated={native.place: "Milan"})
    done = judge(start, Advance(ref(native), "cre"), phase_d=operated)
    assert done.results[0].reason is Reason.INDEPENDENT_MAY_NOT_ADVANCE


def test_M39_an_independent_bribed_to_operate_follows_the_briber() -> None:
    native, attacker, victim = A(Independent("man"), "man"), A("Milan", "par"), A("Venice", "cre")
    start = position(native, attacker, victim)
    done = judge(start, Support(ref(native), "cre", "Milan"), Advance(ref(attacker), "cre"),
                          phase_d=PhaseD(operated={native.place: "Milan"}))
    assert done.result(native.place).reason is Reason.SUPPORT_GIVEN
    assert done.result(victim.place).dislodged_from == "par"


def test_8_2_impossible_or_unclear_orders_are_holds_with_their_reason() -> None:
    fleet, victim, army = F("Venice", "ist"), A("Venice", "pad"), A("Milan", "cre")
    start = position(fleet, victim, army, F("France", "avi"), rebellions={"pad": "Venice"})
    done = judge(start, Advance(ref(fleet), "cro"), Support(ref(victim), "vic"), Besiege(ref(army)),
                 Advance(ref(F("France", "avi")), "pro", coast="sc"))
    assert done.result(fleet.place).reason is Reason.COAST_UNCLEAR  # Istria touches both coasts of Croatia
    assert done.result(victim.place).reason is Reason.VICTIM_MAY_NOT_SUPPORT  # 11.2
    assert done.result(army.place).reason is Reason.NOTHING_TO_BESIEGE
    assert done.result(Place("avi")).reason is Reason.NO_SUCH_COAST  # Avignon reaches Provence's north coast only
    two = judge(start, Hold(ref(army)), Advance(ref(army), "man"))
    assert two.result(army.place).reason is Reason.SEVERAL_ORDERS
    ghost = adjudicate(BOARD, start, {"Milan": [Advance(ref(F("Milan", "cre")), "man")]})
    assert [i.reason for i in ghost.ignored] == [Reason.NO_SUCH_UNIT]


def test_a_given_hold_forced_out_is_reported_dislodged() -> None:
    holder, attacker, helper = A("Papacy", "man"), A("Milan", "cre"), A("Milan", "par")
    done = judge(position(holder, attacker, helper), Hold(ref(holder)), Advance(ref(attacker), "man"),
                 Support(ref(helper), "man"))
    result = done.result(holder.place)
    assert (result.reason, result.succeeded, result.dislodged_from) == (Reason.DISLODGED, False, "cre")


def test_M50_orders_for_units_the_writer_does_not_command_are_ignored_and_missing_orders_hold() -> None:
    bought = A("Milan", "cre")  # bought from Venice in D.4: Venice's order for it no longer counts
    start = position(bought)
    done = adjudicate(BOARD, start, {"Venice": [Advance(ref(bought), "man")]})
    assert done.results[0].reason is Reason.NO_ORDER
    assert [(i.player, i.reason) for i in done.ignored] == [("Venice", Reason.NOT_OWNER)]
    done = adjudicate(BOARD, start, {"Milan": [Advance(ref(bought), "man")]})
    assert done.results[0].reason is Reason.ADVANCED


def test_M14_supports_for_the_siege_of_venice_do_not_defend_the_lagoon() -> None:
    garrison, besieger, helper = G("Venice", "ven"), F("Milan", "lag"), F("Milan", "fri")
    attacker, backer = F("Venice", "uas"), F("Venice", "pad")
    start = position(garrison, besieger, helper, attacker, backer)
    done = judge(start, Besiege(ref(besieger)), Support(ref(helper), "ven"), Advance(ref(attacker), "lag"),
                 Support(ref(backer), "lag"))
    assert done.result(helper.place).reason is Reason.SUPPORT_GIVEN  # to the siege, directed at Venice
    assert done.result(attacker.place).reason is Reason.ADVANCED  # 2 against the besieger's own 1
    assert done.result(besieger.place).reason is Reason.SIEGE_BROKEN
