"""AoP's Examples 1 to 4 (chapter 13), on the classic board whose names they use, with the outcome
the rules text gives.  The examples name Genoa as a power; on the classic board it is only a
player's name here."""

from __future__ import annotations

from judge.games.machiavelli.core.orders import Advance, Convert, Hold, Support
from judge.games.machiavelli.core.position import UnitKind
from judge.games.machiavelli.core.results import Reason

from .helpers import BOARD, A, F, G, judge, position, ref, where

# -- Example 1 (13.4): a ring of advances, and a garrison's support -----------------------------------------

M1, R1, G1 = A("Milan", "tyr"), A("France", "com"), A("Genoa", "tur")


def test_example_1_three_armies_advancing_in_a_ring_all_advance() -> None:
    done = judge(position(M1, R1, G1), Advance(ref(M1), "com"), Advance(ref(R1), "tur"), Advance(ref(G1), "tyr"))
    assert where(done) == {"Milan A com", "France A tur", "Genoa A tyr"}
    assert all(r.reason is Reason.ADVANCED for r in done.results)


def test_example_1_a_garrison_supports_the_attack_on_its_province_and_the_supporter_is_forced_out() -> None:
    austrian = G("Austria", "tyr")
    done = judge(position(M1, R1, G1, austrian), Support(ref(M1), "tur"), Advance(ref(R1), "tur"),
                 Advance(ref(G1), "tyr"), Support(ref(austrian), "tyr", "Genoa"))
    assert done.result(G1.place).reason is Reason.ADVANCED and done.result(G1.place).strength == 2
    assert done.result(R1.place).reason is Reason.ADVANCED
    assert done.result(M1.place).reason is Reason.SUPPORTER_DISLODGED
    (retreat,) = done.retreats
    # "possibly it retreats into Como": with nobody's control marked, Appendix A prefers Milan,
    # a province of Milan's home country with a magnitude-3 city, to Como, which has no city.
    assert retreat.attacked_from == "tur" and retreat.to == A("Milan", "mil")


def test_example_1_the_retreat_into_como_when_milan_is_held() -> None:
    austrian, other = G("Austria", "tyr"), A("Milan", "mil")
    start = position(M1, R1, G1, austrian, other, control=BOARD.start.control)
    done = judge(start, Support(ref(M1), "tur"), Advance(ref(R1), "tur"), Advance(ref(G1), "tyr"),
                 Support(ref(austrian), "tyr", "Genoa"))
    # Como is Milan's and friendly (category 1); Carinthia and Austria are Austria's (5), Swiss France's (5).
    assert done.retreats[0].to == A("Milan", "com")


# -- Example 2 (13.5): a garrison converting under a superior attack ----------------------------------------

FG, V2, G2, M2 = G("Florence", "man"), A("Venice", "man"), A("Genoa", "par"), A("Milan", "cre")
A2, T2, P2, R2 = A("Austria", "ver"), A("Turkey", "fer"), A("Papacy", "bol"), A("France", "mod")
EXAMPLE_2 = position(FG, V2, G2, M2, A2, T2, P2, R2)
ORDERS_2 = [Convert(ref(FG), UnitKind.ARMY), Support(ref(M2), "man", "Florence"), Advance(ref(P2), "man"),
            Support(ref(A2), "man", "Papacy"), Support(ref(T2), "man", "Papacy")]


def test_example_2_the_garrison_converts_forcing_v_out_then_retreats_into_its_city() -> None:
    done = judge(EXAMPLE_2, *ORDERS_2, Advance(ref(V2), "cre"))  # Genoa betrays V and does nothing
    assert done.result(P2.place).reason is Reason.ADVANCED and done.result(P2.place).strength == 3
    assert done.result(M2.place).reason is Reason.SUPPORT_GIVEN  # V's attack came from Mantua, the supported area
    assert done.result(FG.place).reason is Reason.CONVERTED_THEN_DISLODGED
    retreats = {r.unit: r.to for r in done.retreats}
    assert retreats == {V2: A("Venice", "bre"), A("Florence", "man"): G("Florence", "man")}
    assert where(done) >= {"Venice A bre", "Florence G man", "Papacy A man", "Milan A cre"}


def test_example_2_with_genoa_supporting_v_it_takes_cremona_and_f_retreats_into_brescia() -> None:
    done = judge(EXAMPLE_2, *ORDERS_2, Advance(ref(V2), "cre"), Support(ref(G2), "cre", "Venice"))
    assert done.result(V2.place).reason is Reason.ADVANCED
    assert done.result(M2.place).reason is Reason.SUPPORTER_DISLODGED
    assert done.result(FG.place).reason is Reason.CONVERTED_THEN_DISLODGED
    retreats = {r.unit: r.to for r in done.retreats}
    assert retreats[A("Florence", "man")] == A("Florence", "bre")
    assert where(done) >= {"Venice A cre", "Florence A bre", "Papacy A man"}


def test_example_2_v_holding_with_genoese_support_is_still_forced_out() -> None:
    done = judge(EXAMPLE_2, *ORDERS_2, Hold(ref(V2)), Support(ref(G2), "man", "Venice"))
    assert done.result(P2.place).reason is Reason.ADVANCED
    assert done.result(V2.place).dislodged_from == "bol"
    assert {r.unit: r.to for r in done.retreats} == {V2: A("Venice", "bre"), A("Florence", "man"): G("Florence", "man")}


def test_example_2_equal_forces_of_f_and_p_are_a_standoff_and_v_stays() -> None:
    done = judge(EXAMPLE_2, *ORDERS_2, Hold(ref(V2)), Support(ref(R2), "man", "Florence"))
    assert done.result(FG.place).reason is Reason.CONVERSION_BOUNCED and done.result(FG.place).strength == 3
    assert done.result(P2.place).reason is Reason.BOUNCED and done.result(P2.place).strength == 3
    assert done.position.units == EXAMPLE_2.units and not done.retreats


# -- Example 3 (13.1): an attacker forced to retreat cuts no support and stops nothing ---------------------------

M3, P3, V3, F3 = A("Milan", "par"), A("Papacy", "bol"), A("Venice", "man"), A("Florence", "flo")
N3, R3, T3, G3 = A("Naples", "psa"), F("France", "egl"), F("Turkey", "wts"), F("Genoa", "gen")
ORDERS_3 = [Advance(ref(M3), "mod"), Advance(ref(P3), "mod"), Advance(ref(V3), "bol"),
            Support(ref(F3), "bol", "Venice")]
ORDERS_3B = [*ORDERS_3, Advance(ref(N3), "flo"), Advance(ref(T3), "psa"), Support(ref(R3), "psa", "Turkey")]


def test_example_3_v_forces_p_out_of_bologna_and_m_takes_modena() -> None:
    done = judge(position(M3, P3, V3, F3), *ORDERS_3)
    assert done.result(V3.place).reason is Reason.ADVANCED
    assert done.result(P3.place).dislodged_from == "man"
    assert done.result(M3.place).reason is Reason.ADVANCED
    assert where(done) >= {"Milan A mod", "Venice A bol"}


def test_example_3_n_forced_out_of_pisa_cannot_cut_f_and_t_takes_pisa() -> None:
    done = judge(position(M3, P3, V3, F3, N3, R3, T3), *ORDERS_3B)
    assert done.result(N3.place).dislodged_from == "wts"
    assert done.result(F3.place).reason is Reason.SUPPORT_GIVEN
    assert where(done) >= {"Milan A mod", "Venice A bol", "Turkey F psa"}


def test_example_3_a_genoese_fleet_cuts_r_and_nothing_happens() -> None:
    start = position(M3, P3, V3, F3, N3, R3, T3, G3)
    done = judge(start, *ORDERS_3B, Advance(ref(G3), "egl"))
    assert done.result(R3.place).reason is Reason.SUPPORT_CUT
    assert done.result(F3.place).reason is Reason.SUPPORT_CUT
    assert done.position.units == start.units and not done.retreats


# -- Example 4 (13.6): cyclic conflicts -------------------------------------------------------------------------

G4, A4, V4, P4, F4, R4, M4 = (A("Genoa", "mod"), A("Austria", "man"), A("Venice", "ver"), A("Papacy", "fer"),
                              A("Florence", "bol"), A("France", "luc"), A("Milan", "par"))


def test_example_4a_the_partially_symmetric_cycle_the_stronger_attacks_win() -> None:
    done = judge(position(G4, A4, V4, P4, F4, R4), Advance(ref(G4), "man"), Advance(ref(V4), "fer"),
                 Advance(ref(P4), "bol"), Advance(ref(R4), "mod"), Support(ref(A4), "fer", "Venice"),
                 Support(ref(F4), "mod", "France"))
    assert done.result(V4.place).reason is Reason.ADVANCED and done.result(R4.place).reason is Reason.ADVANCED
    assert done.result(A4.place).reason is Reason.SUPPORT_GIVEN and done.result(F4.place).reason is Reason.SUPPORT_GIVEN
    assert {r.unit for r in done.retreats} == {G4, P4}


def test_example_4b_with_g_supporting_m_all_supports_are_cut_and_nothing_happens() -> None:
    start = position(G4, A4, V4, P4, F4, R4, M4)
    done = judge(start, Support(ref(G4), "man", "Milan"), Advance(ref(M4), "man"), Advance(ref(V4), "fer"),
                 Advance(ref(P4), "bol"), Advance(ref(R4), "mod"), Support(ref(A4), "fer", "Venice"),
                 Support(ref(F4), "mod", "France"))
    assert {done.result(u.place).reason for u in (G4, A4, F4)} == {Reason.SUPPORT_CUT}
    assert done.position.units == start.units


def test_example_4c_the_totally_symmetric_cycle_is_a_standoff() -> None:
    start = position(G4, A4, P4, F4, R4, M4)
    done = judge(start, Advance(ref(R4), "mod"), Support(ref(F4), "mod", "France"), Advance(ref(M4), "man"),
                 Support(ref(G4), "man", "Milan"), Advance(ref(P4), "bol"), Support(ref(A4), "bol", "Papacy"))
    assert {done.result(u.place).reason for u in (G4, A4, F4)} == {Reason.SUPPORT_CUT}
    assert done.position.units == start.units

