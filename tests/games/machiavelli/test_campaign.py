"""The campaign sequencer and the end of a campaign (AoP 2, 4, 17; M6 to M9, M34, M50), and AoP
Example 5, worked out by hand on the classic board."""

from __future__ import annotations

import pytest

from judge.games.machiavelli.core.campaign import campaign, default_letter, expected_letters
from judge.games.machiavelli.core.existence import Conquest, HomeLoss, Proposal
from judge.games.machiavelli.core.expenditures import Pay
from judge.games.machiavelli.core.ledger import Money
from judge.games.machiavelli.core.orders import UnitRef
from judge.games.machiavelli.core.position import Campaign, Independent, Phase, Place, Season, UnitKind
from judge.games.machiavelli.core.results import Reason
from judge.games.machiavelli.core.spring import spring_letter

from .helpers import BOARD, SPRING, SUMMER, A, F, G, game, homeland, letter, outcomes, play, where

FALL = Season(1454, Campaign.FALL)

# -- AoP 2: the sequence of campaigns -------------------------------------------------------------------------------


def test_2_a_year_is_spring_summer_and_fall_and_only_spring_has_a_phase_a() -> None:
    position = BOARD.start
    seen = []
    for _ in range(4):
        if position.phase is Phase.A:
            position = spring_letter(BOARD, position, {}).position
        seen.append((str(position.season), position.phase))
        position = campaign(BOARD, position, {}).position
    assert seen == [("Spring 1454", Phase.C), ("Summer 1454", Phase.C), ("Fall 1454", Phase.C),
                    ("Spring 1455", Phase.C)]
    with pytest.raises(ValueError, match="awaits the C letters"):
        spring_letter(BOARD, position, {})
    with pytest.raises(ValueError, match="awaits the A letters"):
        campaign(BOARD, BOARD.start, {})


def test_18_2_every_living_player_is_expected_and_told_the_default() -> None:
    assert [(e.player, e.phase) for e in expected_letters(BOARD, BOARD.start)] == [(p, Phase.A) for p in BOARD.powers]
    start = game(eliminated={"Turkey": SPRING})
    expected = expected_letters(BOARD, start)
    assert "Turkey" not in {e.player for e in expected} and len(expected) == 7
    assert {e.default for e in expected} == {"no expenditure, and every unit holds (17.2, M50)"}


def test_M50_m12_without_an_a_letter_the_units_are_paid_by_default_and_without_a_c_letter_nothing_is_done() -> None:
    # Milan (F3, magnitude 3) before Cremona and Pavia (F1, both inland), which go alphabetically.
    assert default_letter(BOARD, BOARD.start, "Milan") == tuple(
        Pay(UnitRef(UnitKind.ARMY, area)) for area in ("mil", "cre", "pav"))
    assert default_letter(BOARD, game(A("Milan", "mil")), "Milan") == ()


def test_M50_a_missing_letter_holds_every_unit_without_putting_a_rebellion_down_as_a_given_hold_does() -> None:
    start = game(A("Venice", "dal"), control={"dal": "Venice"}, rebellions={"dal": "Venice"})  # an unfortified city
    assert play(start).position.rebellions == {"dal": "Venice"}
    assert not play(start, Venice="A Dal H").position.rebellions


def test_8_1_a_campaign_letter_holds_no_a_order_and_the_letter_of_no_player_is_ignored() -> None:
    start = game(A("Venice", "pad"), eliminated={"Turkey": SPRING})
    done = play(start, Venice="pay A Pad", Turkey="A Pad H")
    assert outcomes(done, "Venice") == [("pay A pad", 0, Reason.NOT_THIS_PHASE)]
    assert outcomes(done, "Turkey") == [("A pad H", 0, Reason.NOT_A_PLAYER)]


# -- AoP 4.3, 4.4: conquest and elimination (M8, M9, M34) -------------------------------------------------------------


def test_M9_controlling_every_province_and_city_of_a_home_country_conquers_it_from_its_holder() -> None:
    start = game(A("Austria", "sla"), treasuries={"Austria": 7}, control=dict.fromkeys(("aus", "cri", "hun", "tyr"),
                                                                                      "Venice"))
    done = play(start)
    assert done.ending.conquests == (Conquest("Austria", "Venice", "Austria"),)
    assert done.position.homes["Venice"] == {"Venice", "Austria"} and "Austria" not in done.position.homes
    assert done.position.eliminated == {"Austria": SUMMER}
    assert done.position.province_unit("sla") == A(Independent("sla"), "sla")
    assert Money.of(done.movements).destroyed == 7 and "Austria" not in done.position.treasuries


def test_M8_a_player_survives_while_a_home_city_is_controlled_by_no_other_player() -> None:
    control = {"aus": "Venice", "tyr": "Venice", "hun": "Austria"}
    done = play(game(control=control, rebellions={"hun": "Austria"}))  # Hungary's city rebels: nobody controls it
    assert not done.ending.eliminations and done.position.homes["Austria"] == {"Austria"}
    done = play(game(control={**control, "hun": "Milan"}))
    assert done.ending.losses == (HomeLoss("Austria", "Austria"),) and not done.ending.conquests
    assert [e.player for e in done.ending.eliminations] == ["Austria"]


def test_M9_a_player_losing_its_original_home_country_but_holding_a_conquered_one_survives() -> None:
    control = {**dict.fromkeys(BOARD.home_country("Venice"), "Milan"), **dict.fromkeys(("aus", "hun", "tyr"), "Venice")}
    held = {"Venice": frozenset({"Venice", "Austria"})}  # Austria's own player fell earlier
    done = play(game(control=control, homes=held, eliminated={"Austria": SPRING}))
    assert done.ending.conquests == (Conquest("Venice", "Milan", "Venice"),)
    assert done.position.homes["Venice"] == {"Austria"} and done.position.homes["Milan"] == {"Milan", "Venice"}
    assert not done.ending.eliminations


def test_M34_an_eliminated_players_units_turn_independent_unless_their_area_has_one_its_markers_and_money_go() -> None:
    units = (A("Austria", "sla"), A("Austria", "trt"), G(Independent("trt"), "trt"), G("Austria", "man"),
             A("Austria", "man"))
    control = {**dict.fromkeys(("aus", "hun", "tyr"), "Venice"), "cri": "Milan", "bos": "Austria", "fri": "Austria"}
    done = play(game(*units, treasuries={"Austria": 12}, control=control, rebellions={"fri": "Austria"}))
    (elimination,) = done.ending.eliminations
    assert elimination.units == (
        (G("Austria", "man"), G(Independent("man"), "man")), (A("Austria", "man"), None),
        (A("Austria", "sla"), A(Independent("sla"), "sla")), (A("Austria", "trt"), None))
    assert {str(u) for u in done.position.units.values()} == {
        "independent man G man", "independent sla A sla", "independent trt G trt"}
    assert [(e.area, e.reason) for e in done.ending.rebellions_ended] == [("fri", Reason.VICTIM_ELIMINATED)]
    control_after = done.position.control
    assert "bos" not in control_after and "fri" not in control_after
    assert (control_after["sla"], control_after["man"], control_after["trt"]) == (
        Independent("sla"), Independent("man"), Independent("trt"))
    assert elimination.treasury == 12 and Money.of(done.movements).destroyed == 12


def test_15_the_popes_elimination_ends_the_excommunications() -> None:
    control = dict.fromkeys(("anc", "bol", "per", "rme"), "Venice")
    done = play(game(control=control, bans={"Milan": FALL}, excommunicated=("Milan",)))
    assert "Papacy" in done.position.eliminated and not done.position.bans


# -- AoP 4.2: victory and ranking (M6, M7) ---------------------------------------------------------------------------

VENICE_15 = ("ven", "pad", "trv", "dal", "fer", "gen", "luc", "man", "mod", "mon", "sav", "slz", "tur", "trt", "sie")
MILAN_15 = ("mil", "cre", "pav", "cor", "crn", "cro", "pio", "rag", "sar", "flo", "are", "rme", "nap", "bar", "aus")


def test_M6_M7_fifteen_cities_with_their_provinces_one_at_home_win_and_every_player_is_ranked() -> None:
    control = {**dict.fromkeys(VENICE_15, "Venice"), **dict.fromkeys(MILAN_15, "Milan")}
    eliminated = {"Austria": SPRING, "Turkey": SUMMER}
    done = play(game(control=control, season=FALL, treasuries={"France": 5}, eliminated=eliminated))
    end = done.end
    assert end is not None and end.winners == ("Milan",)  # 15 cities and 15 provinces each; Milan's tax: 36 to 35
    assert [(s.player, s.rank, s.cities, s.provinces, s.tax) for s in end.ranking[:2]] == [
        ("Milan", 1, 15, 15, 36), ("Venice", 2, 15, 15, 35)]
    assert [(s.player, s.rank) for s in end.ranking[2:]] == [
        ("France", 3), ("Florence", 4), ("Naples", 4), ("Papacy", 4), ("Turkey", 7), ("Austria", 8)]
    assert done.position.phase is Phase.OVER and done.opening is None and not expected_letters(BOARD, done.position)
    done = play(game(control={**control, "ver": "Venice"}, season=FALL, eliminated=eliminated))
    assert done.end is not None and done.end.winners == ("Venice",)  # 16 provinces to 15


def test_M6_no_victory_without_a_counted_city_in_the_original_home_country() -> None:
    cities = (*MILAN_15[3:], "fer", "gen", "luc")
    done = play(game(control=dict.fromkeys(cities, "Milan")))
    assert done.end is None and done.position.phase is Phase.C


def test_4_2_twelve_cities_win_from_spring_1465() -> None:
    control = dict.fromkeys(VENICE_15[:12], "Venice")
    assert play(game(control=control)).end is None
    done = play(game(control=control, season=Season(1465, Campaign.SUMMER)))
    assert done.end is not None and done.end.winners == ("Venice",)


def test_M62_a_country_whose_player_left_with_no_substitute_is_eliminated_when_the_campaign_ends() -> None:
    """18.3: "if a substitute leader cannot be found, the player is thought to have been
    eliminated from the game, see Chapter 4.3"; M62: when the campaign ends.  Florence's player
    left; Florence holds its home country (Florence, Arezzo, Pisa, Pistoia) with A flo, A are and
    F psa and 7 ducats.  Its units hold through the campaign (no letter, M50); at its end it is
    eliminated as 4.3 says (M34): each unit becomes independent where it stands, the 7 ducats are
    removed, and so is the marker of Pistoia, where no unit stands.  Milan plays on."""
    start = game(A("Florence", "flo"), A("Florence", "are"), F("Florence", "psa"), A("Milan", "mil"),
                 treasuries={"Florence": 7}, control=homeland("Florence", "Milan"))
    done = campaign(BOARD, start, {"Milan": letter("A mil H")}, leaving=frozenset({"Florence"}))
    assert done.public().eliminated == (("Florence", Reason.LEFT_THE_GAME),)
    assert {r.reason for r in done.action.results if r.unit.owner == "Florence"} == {Reason.NO_ORDER}
    assert where(done.action) == {"Florence A flo", "Florence A are", "Florence F psa", "Milan A mil"}
    assert {str(u) for u in done.position.units.values()} == {
        "independent flo A flo", "independent are A are", "independent psa F psa", "Milan A mil"}
    assert done.position.eliminated == {"Florence": SUMMER} and "Florence" not in done.position.treasuries
    assert Money.of(done.movements).destroyed == 7
    assert done.position.control["flo"] == Independent("flo") and "pst" not in done.position.control
    assert done.position.living(BOARD.powers) == tuple(p for p in BOARD.powers if p != "Florence")


def test_M62_a_country_that_lost_its_home_country_too_is_eliminated_for_that_one_already_out_is_left_alone() -> None:
    control = dict.fromkeys(BOARD.home_country("Austria"), "Venice")
    done = campaign(BOARD, game(control=control, eliminated={"Turkey": SPRING}), {},
                    leaving=frozenset({"Austria", "Turkey"}))
    assert done.public().eliminated == (("Austria", Reason.ELIMINATED),)


# -- ending by agreement (M64) -----------------------------------------------------------------------------------------

DRAW = Proposal()


def test_M64_a_draw_every_surviving_voter_stands_by_ends_the_campaign_and_shares_first_place_among_all() -> None:
    """Florence, Milan and Venice are played (they vote); the five other countries are dummies
    (they do not vote, but survive).  All three vote DRAW: the game ends with this campaign, a
    draw among all eight survivors, each ranked first; nothing more is awaited."""
    votes = {"Florence": DRAW, "Milan": DRAW, "Venice": DRAW}
    done = campaign(BOARD, game(), {}, votes=votes)
    assert done.end is not None and done.end.agreed == DRAW and set(done.end.winners) == set(BOARD.powers)
    assert {s.rank for s in done.end.ranking} == {1} and done.position.phase is Phase.OVER
    assert expected_letters(BOARD, done.position) == ()


def test_M64_no_end_while_a_surviving_voter_votes_otherwise_or_not_at_all() -> None:
    for votes in ({"Florence": DRAW, "Milan": DRAW, "Venice": None},
                  {"Florence": DRAW, "Milan": DRAW, "Venice": Proposal("Venice")},
                  {"Florence": Proposal("Naples"), "Milan": Proposal("Naples")}):  # Naples, a dummy, is no voter
        done = campaign(BOARD, game(), {}, votes=votes)
        assert done.end is None and done.position.phase is Phase.C  # the Fall campaign follows


def test_M64_a_concession_ranks_the_country_conceded_to_first_and_the_others_by_4_2() -> None:
    """Every voter, Venice included, concedes to Venice.  Venice ranks first though it controls
    nothing; the others by 4.2's factors as at a victory: Milan, holding Milan's province and its
    city of magnitude 3 (1 city counted, 1 province), second; the six others, with nothing, tied
    third."""
    votes = dict.fromkeys(("Florence", "Milan", "Venice"), Proposal("Venice"))
    done = campaign(BOARD, game(control={"mil": "Milan"}), {}, votes=votes)
    assert done.end is not None and done.end.winners == ("Venice",)
    ranks = {s.player: s.rank for s in done.end.ranking}
    assert ranks == {"Venice": 1, "Milan": 2, **{p: 3 for p in BOARD.powers if p not in ("Venice", "Milan")}}


def test_M64_a_voter_eliminated_as_the_campaign_ends_no_longer_votes_M62() -> None:
    """Florence's player left (M62) without voting; Milan and Venice vote DRAW.  Florence is
    eliminated at the campaign's end; the survivors' voters agree: a draw among the seven
    survivors, Florence ranked last."""
    votes = {"Florence": None, "Milan": DRAW, "Venice": DRAW}
    done = campaign(BOARD, game(), {}, leaving=frozenset({"Florence"}), votes=votes)
    assert done.end is not None and set(done.end.winners) == set(BOARD.powers) - {"Florence"}
    assert done.end.ranking[-1].player == "Florence" and done.end.ranking[-1].rank == 8


# -- AoP Example 5 (17.1), on the classic board -------------------------------------------------------------------

EXAMPLE_5 = (A("Papacy", "per"), A("Papacy", "urb"), F("Papacy", "anc"), G("Papacy", "rme"),
             G(Independent("sie"), "sie"))
ORDERS_5 = ("1. bribe 9 buy G Siena\n2. bodyguard 3\nA Urbino - Arezzo\nA Perugia S A Urbino - Arezzo\n"
            "F Ancona - Upper Adriatic\nG Rome convert\nG Siena convert")


def test_example_5_the_bodyguard_is_hired_before_the_bribe_and_seven_ducats_remain() -> None:
    """As on AoP's board: the bribe, which the army in Perugia may direct at the lone garrison of
    Siena (M36), is refused only because 10 - 3 = 7 ducats cannot pay its 9 (M30)."""
    done = play(game(*EXAMPLE_5, treasuries={"Papacy": 10}), Papacy=ORDERS_5)
    assert outcomes(done, "Papacy") == [("bodyguard 3", 3, Reason.BODYGUARD_HIRED),
                                        ("bribe 9 buy G sie", 0, Reason.UNAFFORDABLE)]
    assert done.position.treasuries["Papacy"] == 7
    assert where(done.action) == {"Papacy A are", "Papacy A per", "Papacy F uas", "Papacy A rme",
                                  "independent sie G sie"}  # only the Roman garrison converts
    assert [str(i.order) for i in done.action.ignored] == ["G sie C A"]


def test_M30_example_5_with_the_garrison_in_reach_the_bribe_is_skipped_for_want_of_money() -> None:
    done = play(game(*EXAMPLE_5, A("Papacy", "sie"), treasuries={"Papacy": 10}), Papacy="bribe 9 buy G Siena\n"
                                                                                       "bodyguard 3")
    assert outcomes(done, "Papacy") == [("bodyguard 3", 3, Reason.BODYGUARD_HIRED),
                                        ("bribe 9 buy G sie", 0, Reason.UNAFFORDABLE)]
    assert done.position.garrison("sie") == G(Independent("sie"), "sie")


# -- phase B: what each player learns and what the rules publish -------------------------------------------------------


def test_B_the_player_learns_its_own_movements_and_outcomes_and_the_public_sees_no_money() -> None:
    start = game(A("Milan", "per"), A("Florence", "are"), treasuries={"Florence": 18, "Venice": 5})
    done = play(start, Florence="bribe 18 buy A Per", Venice="transfer 5 to Florence")
    mine = done.for_player("Florence")
    assert mine.treasury == 5 and {m.player for m in mine.movements} == {"Florence"}
    assert [o.reason for o in mine.outcomes] == [Reason.BRIBE_SUCCEEDED]
    assert {r.unit.place for r in mine.operations} == {Place("are"), Place("per")}  # the bought army is Florence's now
    public = done.public()
    assert public.bribes == ((A("Milan", "per"), A("Florence", "per")),)
    assert public.control_changes[0].after == "Florence"
    assert done.for_player("Milan").bribed == done.expending.bribes  # Milan learns it lost the army
