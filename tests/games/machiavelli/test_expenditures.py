"""Phases D and E, the expenditures (AoP 8.1, 10 to 12, 15; M20, M21, M30, M31, M33, M36 to M40,
M51, M54, M56, M17e), worked out by hand on the classic board in Summer 1454."""

from __future__ import annotations

from judge.games.machiavelli.core.expenditures import BribeKind
from judge.games.machiavelli.core.expense import BribeEffect, Reach, bribe_minimum, bribe_reach
from judge.games.machiavelli.core.orders import Grant, Permission
from judge.games.machiavelli.core.position import Independent, Phase, Place, Siege, Unit
from judge.games.machiavelli.core.results import Reason

from .helpers import BOARD, SPRING, A, F, G, game, homeland, outcomes, play, spring, where

# -- D.1 (M31) -------------------------------------------------------------------------------------------------


def test_M31_ducats_received_in_d1_are_spent_later_in_the_same_campaign() -> None:
    start = game(A("Milan", "per"), A("Venice", "are"), treasuries={"Milan": 5, "Venice": 13})
    done = play(start, Milan="transfer 5 to Venice", Venice="bribe 18 buy A Per")
    assert outcomes(done, "Venice") == [("bribe 18 buy A per", 18, Reason.BRIBE_SUCCEEDED)]
    assert done.position.treasuries["Venice"] == 0 and done.position.province_unit("per") == A("Venice", "per")


# -- M30: paid in full or skipped, in the order written ------------------------------------------------------------


def test_M30_an_order_that_cannot_be_paid_in_full_is_skipped_and_the_next_one_still_runs() -> None:
    start = game(A("Papacy", "per"), A("Papacy", "rme"), treasuries={"Papacy": 10})
    done = play(start, Papacy="assassinate Milan 30\nbodyguard 6\ncounter-bribe 6 A Per\ncounter-bribe 3 A Rme")
    assert outcomes(done, "Papacy") == [
        ("assassinate Milan 30", 0, Reason.UNAFFORDABLE), ("bodyguard 6", 6, Reason.BODYGUARD_HIRED),
        ("counter-bribe 6 A per", 0, Reason.UNAFFORDABLE), ("counter-bribe 3 A rme", 3, Reason.COUNTER_BRIBE_PAID)]
    assert done.position.treasuries["Papacy"] == 1


def test_8_1_an_order_repeating_one_of_the_same_kind_on_the_same_target_is_contradictory() -> None:
    start = game(A("Milan", "per"), A("Florence", "are"), treasuries={"Florence": 60})
    done = play(start, Florence="bribe 18 buy A Per\nbribe 21 buy A Per\ncounter-bribe 3 A Are\ncounter-bribe 3 A Are")
    assert [(o[1], o[2]) for o in outcomes(done, "Florence")] == [
        (18, Reason.BRIBE_SUCCEEDED), (0, Reason.CONTRADICTORY), (3, Reason.COUNTER_BRIBE_PAID),
        (0, Reason.CONTRADICTORY)]


# -- D.2 and E: assassination (10, M20, M40) -----------------------------------------------------------------------


def test_M20_the_highest_attempt_succeeds_when_30_above_the_highest_bodyguard_and_all_are_charged() -> None:
    start = game(A("Milan", "mil"), treasuries={"Venice": 36, "Florence": 30, "Milan": 6, "Papacy": 3})
    done = play(start, Venice="assassinate Milan 36", Florence="assassinate Milan 30", Milan="bodyguard 6",
                Papacy="bodyguard 3 for Milan")
    assert done.expending.assassinated == {"Milan"}
    assert outcomes(done, "Venice") == [("assassinate Milan 36", 36, Reason.ASSASSINATION_SUCCEEDED)]
    assert outcomes(done, "Florence") == [("assassinate Milan 30", 30, Reason.NOT_THE_HIGHEST)]
    assert outcomes(done, "Milan") == [("bodyguard 6", 6, Reason.BODYGUARD_HIRED)]
    assert outcomes(done, "Papacy") == [("bodyguard 3 for Milan", 3, Reason.BODYGUARD_HIRED)]
    assert {done.position.treasuries[p] for p in ("Venice", "Florence", "Milan", "Papacy")} == {0}


def test_M20_less_than_30_above_the_bodyguard_fails_and_is_charged_all_the_same() -> None:
    start = game(treasuries={"Venice": 40, "Milan": 9})
    done = play(start, Venice="assassinate Milan 36\nassassinate Venice 30\nassassinate Papacy 31",
                Milan="bodyguard 9\nbodyguard 4 for Venice")
    assert not done.expending.assassinated
    assert outcomes(done, "Venice") == [("assassinate Milan 36", 36, Reason.ASSASSINATION_GUARDED),
                                        ("assassinate Venice 30", 0, Reason.UNKNOWN_PLAYER),
                                        ("assassinate Papacy 31", 0, Reason.WRONG_AMOUNT)]
    assert outcomes(done, "Milan") == [("bodyguard 9", 9, Reason.BODYGUARD_HIRED),
                                       ("bodyguard 4 for Venice", 0, Reason.WRONG_AMOUNT)]


def test_M20_the_victims_units_hold_its_conquests_rebel_and_its_d3_d4_orders_are_skipped_uncharged() -> None:
    start = game(A("Milan", "mil"), A("Milan", "man"), A("Papacy", "bol"), treasuries={"Venice": 30, "Milan": 20},
                 control={**homeland("Milan"), "man": "Milan", "fer": "Milan", "pad": "Venice"})
    done = play(start, Venice="assassinate Milan 30", Milan="A Man - Ver\ncounter-bribe 3 A Mil\nrebellion 15 Pad",
                Papacy="A Bol - Man")
    assert {(r.area, r.victim, r.reason) for r in done.expending.rebellions_started} == {
        ("fer", "Milan", Reason.ASSASSINATION_REBELLION), ("man", "Milan", Reason.ASSASSINATION_REBELLION)}
    assert outcomes(done, "Milan") == [("counter-bribe 3 A mil", 0, Reason.LEADER_ASSASSINATED),
                                       ("rebellion 15 pad", 0, Reason.LEADER_ASSASSINATED)]
    assert done.position.treasuries["Milan"] == 20
    held = done.action.result(Place("man"))  # it held; the rebellion backed the Pope's attack, 2 to 1
    assert (held.reason, held.dislodged_from) == (Reason.ASSASSINATED, "bol")
    assert "Papacy A man" in where(done.action) and "Milan A cre" in where(done.action)  # retreated home (App. A)
    assert done.position.rebellions == {"fer": "Milan"}  # Mantua's was liberated by the Papal army


def test_M61_the_assassinated_players_orders_are_neither_carried_out_nor_disclosed() -> None:
    """M61 (8.2, 10): Milan's leader is assassinated (30 above no bodyguard); its army in Milan
    was ordered to Tyrolea, its army in Cremona twice (a support and a hold).  Each holds, and
    each result, public or Milan's, says only that it held for the assassination: no order of
    Milan's letter is shown, not even that it gave Cremona two."""
    start = game(A("Milan", "mil"), A("Milan", "cre"), treasuries={"Venice": 30})
    done = play(start, Venice="assassinate Milan 30", Milan="A Mil - Tyr\nA Cre S A Mil - Tyr\nA Cre H")
    shown = {r.unit.area: (r.order, str(r.operation), r.reason) for r in done.public().operations}
    assert shown == {"mil": (None, "A mil H", Reason.ASSASSINATED), "cre": (None, "A cre H", Reason.ASSASSINATED)}
    assert not done.action.ignored
    assert [(r.order, r.reason) for r in done.for_player("Milan").operations] == [(None, Reason.ASSASSINATED)] * 2
    assert "Milan A mil" in where(done.action) and "Milan A cre" in where(done.action)


def test_M40_other_players_still_bribe_the_assassinated_players_units_which_then_obey_them() -> None:
    start = game(A("Milan", "cre"), A("Florence", "man"), treasuries={"Venice": 30, "Florence": 18})
    done = play(start, Venice="assassinate Milan 30", Florence="bribe 18 buy A Cre\nA Cre - Par")
    assert outcomes(done, "Florence") == [("bribe 18 buy A cre", 18, Reason.BRIBE_SUCCEEDED)]
    assert "Florence A par" in where(done.action)


# -- D.3 rebellions (11, M21) ----------------------------------------------------------------------------------------


def test_M21_a_rebellion_costs_15_in_the_victims_home_country_9_in_a_conquest_3_against_an_independent() -> None:
    start = game(G(Independent("sie"), "sie"), treasuries={"Venice": 27},
                 control={"mil": "Milan", "man": "Milan", "sie": Independent("sie")})
    done = play(start, Venice="rebellion Milan\nrebellion 9 Mantua\nrebellion 3 Siena")
    assert outcomes(done, "Venice") == [("rebellion mil", 15, Reason.REBELLION_STARTED),
                                        ("rebellion 9 man", 9, Reason.REBELLION_STARTED),
                                        ("rebellion 3 sie", 3, Reason.REBELLION_STARTED)]
    assert done.position.rebellions == {"mil": "Milan", "man": "Milan", "sie": Independent("sie")}
    assert done.position.treasuries["Venice"] == 0


def test_M21_no_rebellion_for_a_wrong_price_or_where_no_enemy_controls_the_province_and_nothing_charged() -> None:
    start = game(A("Milan", "cre"), G("Florence", "cre"), G("Milan", "ven"), treasuries={"Venice": 20},
                 control={"mil": "Milan", "pad": "Venice", "cre": "Milan", "ven": "Milan"})
    done = play(start, Venice="rebellion 9 Milan\nrebellion Padua\nrebellion Cremona\nrebellion Upper Adriatic\n"
                              "rebellion Brescia\nrebellion Venice")
    assert [o[1:] for o in outcomes(done, "Venice")] == [
        (0, Reason.WRONG_AMOUNT), (0, Reason.NOT_ENEMY_CONTROLLED), (0, Reason.NOT_ENEMY_CONTROLLED),
        (0, Reason.NOT_ENEMY_CONTROLLED), (0, Reason.NOT_ENEMY_CONTROLLED), (0, Reason.ISLAND_OCCUPIED)]
    assert not done.position.rebellions and done.position.treasuries["Venice"] == 20


def test_M21_several_players_start_one_rebellion_and_all_pay() -> None:
    start = game(treasuries={"Venice": 9, "Florence": 9}, control={"man": "Milan"})
    done = play(start, Venice="rebellion Mantua", Florence="rebellion Mantua")
    assert outcomes(done, "Venice") == outcomes(done, "Florence") == [("rebellion man", 9, Reason.REBELLION_STARTED)]
    assert len(done.expending.rebellions_started) == 1 and done.position.rebellions == {"man": "Milan"}


def test_M21_pacifications_come_first_every_pacifier_pays_12_and_a_new_rebellion_may_then_rise() -> None:
    start = game(treasuries={"Venice": 12, "Milan": 24, "Florence": 15}, control={"pad": "Venice"},
                 rebellions={"pad": "Venice"})
    done = play(start, Venice="pacify Padua", Milan="pacify 12 Padua\npacify Milan", Florence="rebellion Padua")
    assert outcomes(done, "Venice") == [("pacify pad", 12, Reason.PACIFIED)]
    assert outcomes(done, "Milan") == [("pacify 12 pad", 12, Reason.PACIFIED), ("pacify mil", 0, Reason.NOT_REBELLING)]
    assert outcomes(done, "Florence") == [("rebellion pad", 15, Reason.REBELLION_STARTED)]
    assert [(e.area, e.reason) for e in done.expending.rebellions_ended] == [("pad", Reason.PACIFIED)]
    assert done.position.rebellions == {"pad": "Venice"}


# -- D.4 bribes (12, M36 to M39, M54) -------------------------------------------------------------------------------


def test_12_bribe_minimums_3_6_9_on_independents_9_12_18_on_committed_units_doubled_in_a_major_city() -> None:
    indie, army, garrison = A(Independent("pon"), "pon"), A("Milan", "per"), G("Milan", "flo")
    assert [bribe_minimum(BOARD, k, indie) for k in BribeKind] == [3, 6, 9, None]  # operate, disband, buy, indep.
    assert [bribe_minimum(BOARD, k, army) for k in BribeKind] == [None, 12, 18, 9]
    assert [bribe_minimum(BOARD, k, garrison) for k in BribeKind] == [None, 24, 36, 18]  # Florence: F3
    assert bribe_minimum(BOARD, BribeKind.BUY, G(Independent("gen"), "gen")) == 9  # type a is never doubled


def test_M36_a_bribe_reaches_the_home_country_units_next_to_the_brier_or_next_to_a_permitting_third_player() -> None:
    start = game(A("Florence", "are"), A("Papacy", "spo"), A("Milan", "per"), A("Milan", "rme"), A("Milan", "nap"),
                 A("Milan", "pst"))

    def reach(target: Unit, *permissions: Permission) -> Reach:
        return bribe_reach(BOARD, start, "Florence", target, frozenset(permissions))

    assert reach(A("Milan", "pst")) is Reach.YES  # Pistoia is in Florence's home country
    assert reach(A("Milan", "per")) is Reach.YES  # next to the army in Arezzo
    assert reach(A("Milan", "rme")) is Reach.NEEDS_PERMISSION  # next to the Pope's army in Spoleto only
    assert reach(A("Milan", "rme"), Permission("Papacy", "Florence", Grant.BRIBE)) is Reach.YES
    assert reach(A("Milan", "rme"), Permission("Papacy", "Florence", Grant.STRAITS)) is Reach.NEEDS_PERMISSION
    assert reach(A("Milan", "nap")) is Reach.NO


def test_M36_a_garrison_is_adjacent_to_the_army_or_fleet_of_its_province_alone_and_else_as_any_unit() -> None:
    """12 and M36 (revised): "a garrison unit and another military unit in the same province are
    considered adjacent, in which case the garrison unit is adjacent to no other unit"; a garrison
    alone in its province is adjacent to the units of the neighbouring areas, both ways.  Mantua
    touches Bologna, Arezzo touches Perugia (the classic board)."""
    garrison = G("Milan", "man")

    def reach(*units: Unit, rebellions: dict[str, str] | None = None, target: Unit = garrison) -> Reach:
        start = game(target, *units, rebellions=rebellions)
        return bribe_reach(BOARD, start, "Florence", target, frozenset())

    assert reach(A("Florence", "bol")) is Reach.YES  # alone in Mantua: next to the army in Bologna
    assert reach(A("Florence", "bol"), A("Milan", "man")) is Reach.NO  # paired with Milan's army: adjacent to it only
    assert reach(A("Florence", "man")) is Reach.YES  # the army of its own province
    assert reach(A("Florence", "bol"), A("Milan", "man"), rebellions={"man": "Milan"}) is Reach.YES  # 12's rebellion
    army = A("Milan", "per")
    assert reach(G("Florence", "are"), target=army) is Reach.YES  # a lone garrison bribes next door
    assert reach(G("Florence", "are"), A("Milan", "are"), target=army) is Reach.NO  # paired: only its own province
    assert reach(G("Florence", "per"), target=army) is Reach.YES
    assert reach(G("Florence", "per"), target=army, rebellions={"per": "Milan"}) is Reach.NO  # rebelling: bribes none
    assert reach(G("Florence", "are"), target=G("Milan", "per")) is Reach.YES  # two lone garrisons, neighbours


def test_M17_a_strait_closed_to_the_briber_cuts_the_adjacency_across_it() -> None:
    messina, target, turk = F("Naples", "mes"), F("Naples", "gon"), F("Turkey", "ion")
    start = game(messina, target, turk)
    assert bribe_reach(BOARD, start, "Turkey", target, frozenset()) is Reach.NO
    assert bribe_reach(BOARD, start, "Turkey", target, frozenset({Permission("Naples", "Turkey")})) is Reach.YES


def test_M38_illegal_bribes_cost_nothing_and_one_lacking_a_third_players_permission_is_charged() -> None:
    start = game(A("Florence", "are"), A("Florence", "flo"), A("Florence", "sie"), G("Milan", "sie"),
                 A("Milan", "per"), A("Milan", "rme"), A("Milan", "nap"), A("Papacy", "spo"),
                 sieges={"sie": Siege("Florence")}, treasuries={"Florence": 100})
    done = play(start, Florence="bribe 18 buy A Nap\nbribe 18 buy A Flo\nbribe 3 operate A Per\nbribe 19 buy A Per\n"
                                "bribe 15 buy A Per\nbribe 24 disband G Sie\nbribe 18 buy A Rme\nbribe 18 buy F Per")
    assert [o[1:] for o in outcomes(done, "Florence")] == [
        (0, Reason.BRIBE_OUT_OF_REACH), (0, Reason.BRIBE_OWN_UNIT), (0, Reason.WRONG_BRIBE), (0, Reason.WRONG_AMOUNT),
        (0, Reason.WRONG_AMOUNT), (0, Reason.BRIBE_BESIEGED), (18, Reason.BRIBE_NO_PERMISSION),
        (0, Reason.NO_SUCH_UNIT)]
    assert done.position.treasuries["Florence"] == 82 and not done.expending.bribes


def test_M51_a_third_players_permission_lets_the_briber_use_its_unit() -> None:
    start = game(A("Papacy", "spo"), A("Milan", "rme"), treasuries={"Florence": 18},
                 eliminated={"Turkey": SPRING})
    done = play(start, Papacy="allow Florence bribe\nallow Turkey", Florence="bribe 18 buy A Rme")
    assert outcomes(done, "Papacy") == [("allow Florence bribe", 0, Reason.GRANTED),
                                        ("allow Turkey", 0, Reason.UNKNOWN_PLAYER)]
    assert outcomes(done, "Florence") == [("bribe 18 buy A rme", 18, Reason.BRIBE_SUCCEEDED)]


def test_M37_the_largest_bribe_alone_is_checked_and_takes_if_its_excess_covers_the_highest_counter_bribe() -> None:
    units = (A("Milan", "per"), A("Florence", "are"), A("Papacy", "spo"))
    done = play(game(*units, treasuries={"Florence": 24, "Papacy": 21, "Milan": 6}),
                Florence="bribe 24 buy A Per", Papacy="bribe 21 disband A Per", Milan="counter-bribe 6 A Per")
    assert outcomes(done, "Florence") == [("bribe 24 buy A per", 24, Reason.BRIBE_SUCCEEDED)]  # 24 - 18 >= 6
    assert outcomes(done, "Papacy") == [("bribe 21 disband A per", 21, Reason.BRIBE_OUTBID)]
    assert outcomes(done, "Milan") == [("counter-bribe 6 A per", 6, Reason.COUNTER_BRIBE_PAID)]
    assert done.expending.bribes == (BribeEffect("Florence", BribeKind.BUY, A("Milan", "per"), A("Florence", "per")),)
    done = play(game(*units, treasuries={"Florence": 24, "Papacy": 21, "Milan": 9}),
                Florence="bribe 24 buy A Per", Papacy="bribe 21 disband A Per", Milan="counter-bribe 9 A Per")
    assert outcomes(done, "Florence") == [("bribe 24 buy A per", 24, Reason.BRIBE_COUNTERED)]  # 6 < 9
    assert outcomes(done, "Papacy") == [("bribe 21 disband A per", 21, Reason.BRIBE_OUTBID)]  # 21 - 12 >= 9, unchecked
    assert done.position.province_unit("per") == A("Milan", "per")


def test_M37_equal_bribes_the_lowest_minimum_is_checked_a_tie_there_fails_all_but_disband_bribes() -> None:
    units = (A("Milan", "per"), A("Florence", "are"), A("Papacy", "spo"))
    money = {"Florence": 18, "Papacy": 18}
    done = play(game(*units, treasuries=money), Florence="bribe 18 buy A Per", Papacy="bribe 18 disband A Per")
    assert [o.reason for o in done.outcomes] == [Reason.BRIBE_OUTBID, Reason.BRIBE_SUCCEEDED]  # disband: minimum 12
    assert done.position.province_unit("per") is None
    done = play(game(*units, treasuries=money), Florence="bribe 18 buy A Per", Papacy="bribe 18 buy A Per")
    assert [(o.charged, o.reason) for o in done.outcomes] == [(18, Reason.BRIBE_TIED)] * 2
    assert done.position.province_unit("per") == A("Milan", "per")
    done = play(game(*units, treasuries=money), Florence="bribe 12 disband A Per", Papacy="bribe 12 disband A Per")
    assert [(o.charged, o.reason) for o in done.outcomes] == [(12, Reason.BRIBE_SUCCEEDED)] * 2
    assert done.position.province_unit("per") is None


def test_M39_a_bought_unit_obeys_its_buyer_its_old_owners_order_is_set_aside_and_its_area_follows_it() -> None:
    start = game(A("Milan", "per"), A("Florence", "are"), treasuries={"Florence": 18}, control={"per": "Milan"})
    done = play(start, Florence="bribe 18 buy A Per\nA Per - Rme", Milan="A Per - Spo")
    assert [(c.area, c.before, c.after) for c in done.expending.control_changes] == [("per", "Milan", "Florence")]
    assert [(str(i.order), i.reason) for i in done.action.ignored] == [("A per - spo", Reason.NOT_OWNER)]
    assert where(done.action) == {"Florence A are", "Florence A rme"}


def test_M39_a_unit_made_independent_holds_where_it_stands_and_a_disbanded_one_is_gone_before_f() -> None:
    start = game(A("Milan", "per"), A("Milan", "pst"), A("Florence", "are"), treasuries={"Florence": 21})
    done = play(start, Florence="bribe 9 independent A Per\nbribe 12 disband A Pst", Milan="A Per - Rme\nA Pst - Flo")
    assert done.expending.bribes == (
        BribeEffect("Florence", BribeKind.INDEPENDENT, A("Milan", "per"), A(Independent("per"), "per")),
        BribeEffect("Florence", BribeKind.DISBAND, A("Milan", "pst"), None))
    assert done.action.result(Place("per")).reason is Reason.INDEPENDENT
    assert where(done.action) == {"Florence A are", "independent per A per"}


def test_M39_an_independent_bribed_to_operate_follows_the_briber_who_cannot_make_it_advance() -> None:
    start = game(A(Independent("pon"), "pon"), A("Florence", "mod"), treasuries={"Florence": 3})
    done = play(start, Florence="bribe 3 operate A Pon\nA Pon - Par")
    assert done.expending.phase_d.operated == {Place("pon"): "Florence"}
    assert done.action.result(Place("pon")).reason is Reason.INDEPENDENT_MAY_NOT_ADVANCE
    assert done.position.province_unit("pon") == A(Independent("pon"), "pon")


def test_M54_no_unit_is_made_independent_where_an_independent_unit_has_that_native_area() -> None:
    start = game(A("Milan", "sie"), G(Independent("sie"), "sie"), A("Florence", "psa"), treasuries={"Florence": 9})
    done = play(start, Florence="bribe 9 independent A Sie")
    assert outcomes(done, "Florence") == [("bribe 9 independent A sie", 0, Reason.NATIVE_AREA_TAKEN)]


def test_M56_a_unit_bought_in_a_rebelling_province_liberates_it_and_takes_its_control() -> None:
    start = game(A("Milan", "per"), A("Florence", "are"), treasuries={"Florence": 18}, control={"per": "Milan"},
                 rebellions={"per": "Milan"})
    done = play(start, Florence="bribe 18 buy A Per")
    assert [(e.area, e.reason) for e in done.expending.rebellions_ended] == [("per", Reason.LIBERATED_BY_BRIBE)]
    assert done.position.controller("per") == "Florence"


def test_M33_independent_units_maintain_themselves_in_a7() -> None:
    start = game(G(Independent("sie"), "sie"), A(Independent("pon"), "pon"), season=SPRING, phase=Phase.A)
    done = spring(start)
    assert set(done.position.units.values()) == set(start.units.values()) and not done.movements


def test_M5_control_follows_a_bribe_and_a_rebellion_at_once_before_f() -> None:
    start = game(A("Milan", "per"), A("Florence", "are"), treasuries={"Florence": 18, "Venice": 9},
                 control={"per": "Milan", "man": "Milan"})
    done = play(start, Florence="bribe 18 buy A Per", Venice="rebellion Mantua")
    before_f = done.expending.position
    assert before_f.controller("per") == "Florence"  # bought in D.4
    assert before_f.controller("man") is None and before_f.control["man"] == "Milan"  # the marker names the victim


# -- excommunication in phase D (15, M32) -----------------------------------------------------------------------------


def test_M32_laid_in_c2_the_ban_blocks_this_and_the_next_campaigns_transfers_then_ends() -> None:
    start = game(treasuries={"Venice": 20, "Milan": 20})
    summer = play(start, Papacy="excommunicate Venice", Milan="transfer 5 to Venice")
    assert outcomes(summer, "Milan") == [("transfer 5 to Venice", 0, Reason.EXCOMMUNICATION_BLOCKS)]
    assert outcomes(summer, "Papacy") == [("excommunicate Venice", 0, Reason.EXCOMMUNICATED)]
    fall = play(summer.position, Venice="transfer 5 to Milan")
    assert outcomes(fall, "Venice") == [("transfer 5 to Milan", 0, Reason.EXCOMMUNICATION_BLOCKS)]
    assert not fall.position.bans  # ended with the next campaign's F, before the next phase A
    later = spring(fall.position, Papacy="excommunicate Venice", Venice="transfer 5 to Milan")
    assert outcomes(later, "Venice") == [("transfer 5 to Milan", 5, Reason.TRANSFERRED)]
    assert outcomes(later, "Papacy") == [("excommunicate Venice", 0, Reason.ONCE_PER_GAME)]
