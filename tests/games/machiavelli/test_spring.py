"""Phase A and the income (AoP 2, 3, 5 to 7, 14, 16; M10 to M14, M29 to M32, M46 to M48, M52, M53),
worked out by hand on the classic board."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from judge.games.machiavelli.core.income import Income, incomes, tax_value
from judge.games.machiavelli.core.ledger import Flow, Money, Purse
from judge.games.machiavelli.core.position import Campaign, Independent, Phase, Place, Position, Season, Siege, Unit
from judge.games.machiavelli.core.results import Reason
from judge.games.machiavelli.core.spring import Trade, spring_letter, spring_opening
from judge.games.machiavelli.views import board_lines

from .helpers import BOARD, POWERS, A, F, G, game, homeland, letter, outcomes, play, spring

SPRING_1455 = Season(1455, Campaign.SPRING)


def spring_game(*units: Unit, **kwargs: Any) -> Position:
    """A position awaiting the A letters of Spring 1455."""
    return game(*units, season=SPRING_1455, phase=Phase.A, **kwargs)


# -- A.2 income (5.1, 5.2, 14) ---------------------------------------------------------------------------------


def test_5_1_one_ducat_a_sea_and_a_province_a_city_its_magnitude_and_5_2_the_trade_income() -> None:
    # Milan's home: Como, Cremona (F1), Fornova, Milan (F3), Parma, Pavia (F1), Piacenza; and a fleet at sea.
    start = game(A("Milan", "mil"), A("Milan", "cre"), F("Milan", "egl"), control=homeland("Milan"))
    assert incomes(BOARD, start, ["Milan"])["Milan"] == Income(seas=1, provinces=7, cities=5, trade=3)
    assert incomes(BOARD, start, ["Milan"])["Milan"].total == 16


def test_M47_an_army_and_a_garrison_of_two_owners_split_the_province_and_the_city() -> None:
    start = game(A("Florence", "cre"), G("Milan", "cre"), control={"cre": "Milan"})
    earned = incomes(BOARD, start, ["Florence", "Milan"], trade=False)
    assert (earned["Florence"].provinces, earned["Florence"].cities) == (1, 0)
    assert (earned["Milan"].provinces, earned["Milan"].cities) == (0, 1)


def test_M47_a_city_under_siege_pays_nobody_while_its_province_pays_the_besieger() -> None:
    start = game(A("Florence", "cre"), G("Milan", "cre"), control={"cre": "Milan"}, sieges={"cre": Siege("Florence")})
    earned = incomes(BOARD, start, ["Florence", "Milan"], trade=False)
    assert earned["Florence"].tax == 1 and earned["Milan"].tax == 0


def test_M53_a_sea_pays_only_while_a_fleet_is_in_it() -> None:
    start = game(F("Venice", "uas"))
    assert incomes(BOARD, start, ["Venice"], trade=False)["Venice"] == Income(seas=1)


def test_M14_venice_with_an_empty_lagoon_pays_five_and_a_fleet_in_the_lagoon_takes_its_ducat() -> None:
    start = game(G("Venice", "ven"), control={"ven": "Venice"})
    assert incomes(BOARD, start, ["Venice"], trade=False)["Venice"] == Income(provinces=1, cities=3, lagoon=1)
    start = game(G("Venice", "ven"), F("Milan", "lag"), control={"ven": "Venice"})
    earned = incomes(BOARD, start, ["Venice", "Milan"], trade=False)
    assert earned["Venice"].tax == 4 and earned["Milan"] == Income(seas=1)


def test_11_2_a_rebelling_province_pays_nothing_and_a_garrisoned_city_in_it_pays_its_owner() -> None:
    start = game(G("Florence", "are"), control={"are": "Florence", "psa": "Florence"},
                 rebellions={"are": "Florence", "psa": "Florence"})
    assert incomes(BOARD, start, ["Florence"], trade=False)["Florence"] == Income(cities=1)


def test_M29_trade_income_is_paid_for_each_home_country_held_however_few_of_its_cities() -> None:
    start = game(homes={"Venice": frozenset({"Venice", "Milan"})})
    assert incomes(BOARD, start, ["Venice"])["Venice"] == Income(trade=4 + 3)


def test_A2_income_is_collected_as_the_fall_ends_and_the_spring_awaits_the_a_letters() -> None:
    start = game(G("Venice", "ven"), season=Season(1454, Campaign.FALL), treasuries={"Venice": 2},
                 control={"ven": "Venice"})
    done = play(start)
    assert done.opening is not None and done.opening.incomes["Venice"] == Income(provinces=1, cities=3, lagoon=1,
                                                                                  trade=4)
    assert done.position.treasuries["Venice"] == 2 + 9 and done.position.anticipated["Venice"] == 11
    assert (done.position.season, done.position.phase) == (SPRING_1455, Phase.A)
    assert Money.of(done.movements) == Money(income=sum(i.total for i in done.opening.incomes.values()), spent=0,
                                             destroyed=0)


# -- A.1 (16, M46) -----------------------------------------------------------------------------------------------


def test_M46_an_independent_garrison_springs_up_in_an_empty_fortified_city_no_player_controls() -> None:
    start = spring_game(A("Florence", "psa"), A("Florence", "luc"),
                        control={"are": "Florence", "psa": "Florence", "luc": "Florence", "hun": "Austria"},
                        rebellions={"are": "Florence", "luc": "Florence"}, sieges={"luc": Siege("Florence")})
    position, opening = spring_opening(BOARD, start, Purse(start.treasuries))
    sprung = {u.area for u in opening.sprung}
    assert {"are", "luc"} <= sprung  # rebelling fortified cities
    assert "psa" not in sprung and "hun" not in sprung  # controlled by a player; unfortified
    assert position.garrison("are") == G(Independent("are"), "are")
    assert {(e.area, e.reason) for e in opening.rebellions_ended} == {
        ("are", Reason.ENDED_BY_INDEPENDENT), ("luc", Reason.ENDED_BY_INDEPENDENT)}
    assert position.control["are"] == Independent("are")
    assert "luc" not in position.control  # the victim's army and the new garrison: nobody controls Lucca
    assert not position.sieges  # the siege of the rebelling city ended with the rebellion


# -- A.4 transfers (M31) ----------------------------------------------------------------------------------------


def test_M31_a_transfer_received_in_a4_is_spent_in_a7_but_not_within_a4_and_one_of_0_is_none() -> None:
    start = spring_game(treasuries={"Milan": 10, "Venice": 0}, control={"pad": "Venice"},
                        eliminated={"Turkey": Season(1454, Campaign.FALL)})
    done = spring(start, Milan="transfer 6 to Venice\ntransfer 1 to Turkey\ntransfer 0 to Venice",
                  Venice="transfer 3 to Milan\nraise A Pad")
    assert outcomes(done, "Milan") == [("transfer 6 to Venice", 6, Reason.TRANSFERRED),
                                       ("transfer 1 to Turkey", 0, Reason.UNKNOWN_PLAYER),
                                       ("transfer 0 to Venice", 0, Reason.NO_DUCATS)]
    assert outcomes(done, "Venice") == [("transfer 3 to Milan", 0, Reason.UNAFFORDABLE),
                                        ("raise A pad", 3, Reason.RAISED)]
    assert done.position.treasuries["Milan"] == 4 and done.position.treasuries["Venice"] == 3


# -- A.5 trades (6, M10) ----------------------------------------------------------------------------------------


def test_M10_matching_orders_move_the_price_and_then_the_marker() -> None:
    start = spring_game(treasuries={"Florence": 5}, control={"rme": "Papacy"})
    done = spring(start, Florence="buy Rome from Papacy for 3", Papacy="sell Rome to Florence for 3")
    assert done.trades == (Trade("rme", "Papacy", "Florence", 3),)
    assert done.position.control["rme"] == "Florence"
    assert (done.position.treasuries["Florence"], done.position.treasuries["Papacy"]) == (2, 3)
    assert outcomes(done, "Papacy") == [("sell rme to Florence for 3", 0, Reason.SOLD)]
    assert outcomes(done, "Florence") == [("buy rme from Papacy for 3", 3, Reason.BOUGHT)]


def test_M10_the_least_price_is_the_provinces_full_tax_income_three_for_rome() -> None:
    assert tax_value(BOARD, "rme") == 3 and tax_value(BOARD, "urb") == 1
    start = spring_game(treasuries={"Florence": 5}, control={"rme": "Papacy"})
    done = spring(start, Florence="buy Rome from Papacy for 2", Papacy="sell Rome to Florence for 2")
    assert outcomes(done, "Florence") == [("buy rme from Papacy for 2", 0, Reason.BELOW_MINIMUM_PRICE)]
    assert done.position.control["rme"] == "Papacy" and done.position.treasuries["Florence"] == 5


def test_M10_a_mismatch_an_occupied_province_or_a_buyer_short_of_money_moves_nothing() -> None:
    start = spring_game(A("Papacy", "anc"), treasuries={"Florence": 5},
                        control={"per": "Papacy", "anc": "Papacy", "urb": "Papacy"})
    done = spring(start, Papacy="sell Perugia to Florence for 2\nsell Ancona to Florence for 2\n"
                                "sell Urbino to Florence for 9\npay A Anc",
                  Florence="buy Perugia from Papacy for 3\nbuy Ancona from Papacy for 2\nbuy Urbino from Papacy for 9")
    assert [o[2] for o in outcomes(done, "Florence")] == [Reason.NO_MATCHING_ORDER, Reason.NOT_FOR_SALE,
                                                          Reason.BUYER_CANNOT_PAY]
    assert [o[2] for o in outcomes(done, "Papacy")] == [Reason.NO_MATCHING_ORDER, Reason.NOT_FOR_SALE,
                                                        Reason.BUYER_CANNOT_PAY, Reason.UNAFFORDABLE]
    assert not done.trades and done.position.treasuries["Florence"] == 5
    assert done.position.control["urb"] == "Papacy"


# -- A.6 forced taxation (5.3, M11) -------------------------------------------------------------------------------


def test_M11_forced_taxation_yields_one_and_one_for_a_controlled_city_and_the_province_rebels_at_once() -> None:
    start = spring_game(G("Milan", "cre"), control={"mil": "Milan", "com": "Milan", "cre": "Milan", "pav": "Venice"})
    done = spring(start, Milan="tax Milan\ntax Como\ntax Cremona\ntax Pavia\nraise A Mil\npay G Cre")
    assert outcomes(done, "Milan") == [
        ("tax mil", 0, Reason.FORCED_TAX_COLLECTED), ("tax com", 0, Reason.FORCED_TAX_COLLECTED),
        ("tax cre", 0, Reason.FORCED_TAX_COLLECTED), ("tax pav", 0, Reason.NOT_CONTROLLED),
        ("raise A mil", 0, Reason.REBELLING), ("pay G cre", 3, Reason.PAID)]
    assert [m.amount for m in done.movements if m.flow is Flow.FORCED_TAX] == [2, 1, 2]  # a major city adds 1
    assert done.position.treasuries["Milan"] == 5 - 3
    assert dict(done.position.rebellions) == {"mil": "Milan", "com": "Milan", "cre": "Milan"}
    assert done.position.city_controller("cre") == "Milan"  # a garrisoned city stays the taxer's
    assert done.position.anticipated["Milan"] == 5 - 3


def test_M11_an_empty_venice_taxed_by_force_yields_two_and_an_occupied_one_cannot_rebel() -> None:
    done = spring(spring_game(control={"ven": "Venice"}), Venice="tax Venice")
    assert [m.amount for m in done.movements if m.flow is Flow.FORCED_TAX] == [2]
    done = spring(spring_game(G("Venice", "ven"), treasuries={"Venice": 3}, control={"ven": "Venice"}),
                  Venice="tax Venice\npay G Ven")
    assert outcomes(done, "Venice")[0] == ("tax ven", 0, Reason.ISLAND_OCCUPIED)


# -- A.7 payments and raising (7, M12, M13, M30, M48, M52) ----------------------------------------------------------


def test_M12_with_payment_orders_the_units_not_listed_are_disbanded() -> None:
    start = spring_game(A("Milan", "mil"), A("Milan", "cre"), A("Milan", "pav"), treasuries={"Milan": 9})
    done = spring(start, Milan="pay A Mil\npay A Cre")
    assert [(d.unit, d.reason) for d in done.disbanded] == [(A("Milan", "pav"), Reason.NOT_LISTED)]
    assert done.position.treasuries["Milan"] == 3


def test_8_1_a_second_payment_order_for_one_unit_is_contradictory_and_the_first_stands() -> None:
    start = spring_game(A("Milan", "mil"), A("Milan", "cre"), treasuries={"Milan": 9})
    done = spring(start, Milan="pay A Mil\ndisband A Mil\npay A Mil\ndisband A Cre\npay A Cre\npay A Pav")
    assert outcomes(done, "Milan") == [
        ("pay A mil", 3, Reason.PAID), ("disband A mil", 0, Reason.CONTRADICTORY),
        ("pay A mil", 0, Reason.CONTRADICTORY), ("disband A cre", 0, Reason.DISMISSED),
        ("pay A cre", 0, Reason.CONTRADICTORY), ("pay A pav", 0, Reason.NO_SUCH_UNIT)]
    assert set(done.position.units.values()) == {A("Milan", "mil")} and done.position.treasuries["Milan"] == 6


def test_M30_payments_go_down_the_list_and_the_units_not_paid_are_disbanded_from_its_end() -> None:
    start = spring_game(A("Milan", "mil"), A("Milan", "cre"), A("Milan", "pav"), treasuries={"Milan": 5})
    done = spring(start, Milan="pay A Pav\npay A Mil\npay A Cre")
    assert outcomes(done, "Milan") == [("pay A pav", 3, Reason.PAID), ("pay A mil", 0, Reason.UNAFFORDABLE),
                                       ("pay A cre", 0, Reason.UNAFFORDABLE)]
    assert {(d.unit.area, d.reason) for d in done.disbanded} == {("mil", Reason.NOT_PAID), ("cre", Reason.NOT_PAID)}
    assert done.position.treasuries["Milan"] == 2


VENETIANS = (G("Venice", "ven"), A("Venice", "pad"), A("Venice", "ver"), F("Venice", "trv"), F("Venice", "dal"))


def test_M12_without_payment_orders_garrisons_are_paid_then_armies_then_fleets_a_city_before_none() -> None:
    done = spring(spring_game(*VENETIANS, treasuries={"Venice": 7}))
    assert outcomes(done, "Venice") == [
        ("pay G ven", 3, Reason.PAID_BY_DEFAULT), ("pay A pad", 3, Reason.PAID_BY_DEFAULT),
        ("pay A ver", 0, Reason.UNAFFORDABLE), ("pay F dal", 0, Reason.UNAFFORDABLE),
        ("pay F trv", 0, Reason.UNAFFORDABLE)]
    assert done.position.treasuries["Venice"] == 1


def test_M52_default_payments_tied_by_appendix_a_go_in_alphabetical_order() -> None:
    # Dalmatia (U1) and Treviso (F1): both an ungarrisoned city, both coastal: Dalmatia first.
    done = spring(spring_game(*VENETIANS, treasuries={"Venice": 13}))
    assert [(d.unit, d.reason) for d in done.disbanded] == [(F("Venice", "trv"), Reason.NOT_PAID)]


def test_M13_new_units_in_controlled_unrebelling_home_provinces_with_the_city_each_kind_needs() -> None:
    start = spring_game(G("Venice", "ven"), A("Venice", "pad"), treasuries={"Venice": 30},
                        control={a: "Venice" for a in ("ven", "pad", "trv", "dal", "ver")},
                        rebellions={"trv": "Venice"})
    done = spring(start, Venice="pay A Pad\npay G Ven\nraise A Pad\nraise G Pad\nraise A Trv\nraise G Dal\n"
                                "raise A Dal\nraise A Dal\nraise A Ver\nraise A Vic\nraise A Fer\nraise F Ven")
    assert outcomes(done, "Venice") == [
        ("pay A pad", 3, Reason.PAID), ("pay G ven", 3, Reason.PAID),
        ("raise A pad", 0, Reason.PLACE_TAKEN), ("raise G pad", 3, Reason.RAISED),
        ("raise A trv", 0, Reason.REBELLING), ("raise G dal", 0, Reason.NO_CITY_FOR_IT),
        ("raise A dal", 3, Reason.RAISED), ("raise A dal", 0, Reason.ONE_PER_PROVINCE),
        ("raise A ver", 0, Reason.NO_CITY_FOR_IT), ("raise A vic", 0, Reason.NOT_CONTROLLED),
        ("raise A fer", 0, Reason.NOT_HOME), ("raise F ven", 0, Reason.PLACE_TAKEN)]
    assert set(done.raised) == {G("Venice", "pad"), A("Venice", "dal")}
    assert done.position.treasuries["Venice"] == 30 - 12


def test_7_2_no_unit_is_disbanded_and_raised_in_one_province() -> None:
    start = spring_game(G("Venice", "ven"), treasuries={"Venice": 9}, control={"ven": "Venice"})
    done = spring(start, Venice="disband G Ven\nraise F Ven")
    assert outcomes(done, "Venice") == [("disband G ven", 0, Reason.DISMISSED),
                                        ("raise F ven", 0, Reason.DISBANDED_HERE)]
    assert not done.position.units and done.position.treasuries["Venice"] == 9


def test_M13_a_city_held_by_another_players_garrison_raises_nothing() -> None:
    start = spring_game(G("Milan", "pad"), treasuries={"Venice": 9, "Milan": 3}, control={"pad": "Venice"})
    done = spring(start, Venice="raise A Pad")
    assert outcomes(done, "Venice") == [("raise A pad", 0, Reason.CITY_HELD)]


def test_M48_no_more_than_three_units_are_raised_in_the_first_spring() -> None:
    start = replace(BOARD.start, treasuries={**BOARD.start.treasuries, "Naples": 30})
    done = spring_letter(BOARD, start, {"Naples": letter("pay A Bar\npay A Mes\npay F Nap\npay F Pal\n"
                                                         "raise G Bar\nraise G Mes\nraise G Nap\nraise G Pal")})
    assert [o.reason for o in done.outcomes if o.player == "Naples"][4:] == [
        Reason.RAISED, Reason.RAISED, Reason.RAISED, Reason.FIRST_SPRING_LIMIT]
    assert done.position.treasuries["Naples"] == 30 - 21


def test_3_the_first_spring_starts_at_a3_without_a1_or_a2_and_15_ducats_each() -> None:
    assert BOARD.start.phase is Phase.A and set(BOARD.start.treasuries.values()) == {15}
    done = spring_letter(BOARD, BOARD.start, {})
    assert not any(m.flow in (Flow.TAX, Flow.TRADE) for m in done.movements)
    assert done.position.treasuries["Naples"] == 15 - 12  # four units paid by default, no income
    assert done.position.phase is Phase.C and done.position.season == BOARD.start.season


# -- excommunication in phase A (15, M32) -------------------------------------------------------------------------


def test_M32_laid_in_a_fall_the_ban_blocks_the_next_phase_a_and_ends_with_it() -> None:
    start = game(season=Season(1454, Campaign.FALL), treasuries={"Venice": 20, "Milan": 20}, control={"pav": "Milan"})
    fall = play(start, Papacy="excommunicate Venice", Venice="transfer 5 to Milan")
    assert outcomes(fall, "Venice") == [("transfer 5 to Milan", 0, Reason.EXCOMMUNICATION_BLOCKS)]
    assert fall.position.bans == {"Venice": SPRING_1455}
    rich = replace(fall.position, treasuries={p: 30 for p in POWERS})
    done = spring(rich, Venice="transfer 5 to Milan\nbuy Pavia from Milan for 2", Milan="sell Pavia to Venice for 2")
    assert outcomes(done, "Venice") == [("transfer 5 to Milan", 0, Reason.EXCOMMUNICATION_BLOCKS),
                                        ("buy pav from Milan for 2", 0, Reason.EXCOMMUNICATION_BLOCKS)]
    assert not done.position.bans and done.position.excommunicated == ("Venice",)
    after = play(done.position, Venice="transfer 5 to Milan")
    assert outcomes(after, "Venice") == [("transfer 5 to Milan", 5, Reason.TRANSFERRED)]


def test_M32_laid_in_a7_the_ban_blocks_the_springs_d1_and_ends_with_its_f() -> None:
    start = spring_game(treasuries={"Venice": 20, "Milan": 20})
    done = spring(start, Papacy="excommunicate Venice", Venice="transfer 5 to Milan")
    assert outcomes(done, "Venice") == [("transfer 5 to Milan", 5, Reason.TRANSFERRED)]  # A.4 comes before A.7
    assert done.position.bans == {"Venice": SPRING_1455}
    spring_campaign = play(done.position, Venice="transfer 5 to Milan")
    assert outcomes(spring_campaign, "Venice") == [("transfer 5 to Milan", 0, Reason.EXCOMMUNICATION_BLOCKS)]
    assert not spring_campaign.position.bans
    summer = play(spring_campaign.position, Venice="transfer 5 to Milan")
    assert outcomes(summer, "Venice") == [("transfer 5 to Milan", 5, Reason.TRANSFERRED)]


def test_M32_the_board_says_when_a_ban_ends_a_falls_with_the_spring_letters_a_springs_with_its_campaign() -> None:
    def said(position: Position) -> str:
        return " ".join(" ".join(board_lines(BOARD, position)).split())

    fall = play(game(season=Season(1454, Campaign.FALL)), Papacy="excommunicate Venice")
    assert "Excommunicated: Venice (until the spring letters of Spring 1455 are carried out, 15)" in said(fall.position)
    done = spring(spring_game(), Papacy="excommunicate Venice")
    assert "Excommunicated: Venice (until the campaign of Spring 1455 is over, 15)" in said(done.position)


def test_15_only_the_pope_excommunicates() -> None:
    done = spring(spring_game(), Milan="excommunicate Venice")
    assert outcomes(done, "Milan") == [("excommunicate Venice", 0, Reason.NOT_THE_POPE)] and not done.position.bans


def test_15_the_pope_excommunicates_one_player_a_letter() -> None:
    done = spring(spring_game(), Papacy="excommunicate Venice\nexcommunicate Milan")
    assert outcomes(done, "Papacy") == [("excommunicate Venice", 0, Reason.EXCOMMUNICATED),
                                        ("excommunicate Milan", 0, Reason.NOT_THE_POPE)]
    assert done.position.bans == {"Venice": SPRING_1455}


def test_M32_a_player_is_excommunicated_once_a_game() -> None:
    done = spring(spring_game(excommunicated=("Venice",)), Papacy="excommunicate Venice")
    assert outcomes(done, "Papacy") == [("excommunicate Venice", 0, Reason.ONCE_PER_GAME)]
    assert not done.position.bans


def test_a_spring_letter_holds_no_operation_and_the_letter_of_no_player_is_ignored() -> None:
    start = spring_game(A("Venice", "pad"), treasuries={"Venice": 3}, eliminated={"Turkey": SPRING_1455})
    done = spring(start, Venice="A Pad H\npay A Pad", Turkey="transfer 1 to Venice")
    assert outcomes(done, "Venice") == [("A pad H", 0, Reason.NOT_THIS_PHASE), ("pay A pad", 3, Reason.PAID)]
    assert outcomes(done, "Turkey") == [("transfer 1 to Venice", 0, Reason.NOT_A_PLAYER)]
    with pytest.raises(ValueError, match="awaits the C letters"):
        spring_letter(BOARD, game(), {})
    assert Place("pad") in done.position.units


def test_B_a_spring_tells_each_player_its_own_and_publishes_the_trades_without_their_price() -> None:
    start = spring_game(treasuries={"Florence": 5}, control={"rme": "Papacy"})
    done = spring(start, Florence="buy Rome from Papacy for 3\ntransfer 1 to Milan",
                  Papacy="sell Rome to Florence for 3")
    assert done.public().trades == (Trade("rme", "Papacy", "Florence", None),) and not done.public().movements
    mine = done.for_player("Milan")
    assert not mine.outcomes and [(m.amount, m.flow) for m in mine.movements] == [(1, Flow.TRANSFER_IN)]
    assert done.for_player("Papacy").trades == done.trades
