"""The situations the rules checklist (machiavelli.md section 4) says a DATC engine already settles,
played on the classic board to show that the core reused from that model behaves as the DATC
says (the DATC case each mirrors is named in its docstring)."""

from __future__ import annotations

from judge.games.machiavelli.core.orders import Advance, Support, Transport
from judge.games.machiavelli.core.results import Reason

from .helpers import A, F, judge, position, ref, where


def test_two_equal_attacks_on_an_empty_province_bounce_and_leave_it_empty() -> None:
    """DATC 6.A.7-like: a standoff."""
    milan, papal = A("Milan", "cre"), A("Papacy", "bol")
    done = judge(position(milan, papal), Advance(ref(milan), "man"), Advance(ref(papal), "man"))
    assert where(done) == {"Milan A cre", "Papacy A bol"}


def test_a_supported_attack_beats_two_unsupported_rivals() -> None:
    milan, helper, papal, venice = A("Milan", "cre"), A("Milan", "par"), A("Papacy", "bol"), A("Venice", "ver")
    done = judge(position(milan, helper, papal, venice), Advance(ref(milan), "man"), Support(ref(helper), "man"),
                 Advance(ref(papal), "man"), Advance(ref(venice), "man"))
    assert "Milan A man" in where(done)


def test_an_equal_head_to_head_fails_both_ways() -> None:
    """DATC 6.E.-like: no swap without transport."""
    milan, venice = A("Milan", "cre"), A("Venice", "man")
    done = judge(position(milan, venice), Advance(ref(milan), "man"), Advance(ref(venice), "cre"))
    assert where(done) == {"Milan A cre", "Venice A man"}


def test_the_stronger_side_of_a_head_to_head_wins_and_the_weaker_retreats() -> None:
    milan, helper, venice = A("Milan", "cre"), A("Milan", "par"), A("Venice", "man")
    done = judge(position(milan, helper, venice), Advance(ref(milan), "man"), Support(ref(helper), "man"),
                 Advance(ref(venice), "cre"))
    assert done.result(milan.place).reason is Reason.ADVANCED
    assert done.result(venice.place).dislodged_from == "cre"
    assert done.retreats[0].to is not None and done.retreats[0].to.area not in {"cre", "man"}


def test_a_beleaguered_unit_between_two_equal_attacks_stays() -> None:
    """DATC 6.E.-like: the beleaguered garrison."""
    venice = A("Venice", "man")
    milan, milan_helper = A("Milan", "cre"), A("Milan", "par")
    papal, papal_helper = A("Papacy", "bol"), A("Papacy", "fer")
    done = judge(position(venice, milan, milan_helper, papal, papal_helper), Advance(ref(milan), "man"),
                 Support(ref(milan_helper), "man"), Advance(ref(papal), "man"), Support(ref(papal_helper), "man"))
    assert "Venice A man" in where(done) and not done.retreats


def test_a_ring_of_advances_attacked_from_outside_stands_still() -> None:
    """DATC 6.C.3-like: a circular movement broken by an equal attack on one of its areas."""
    milan, france, genoa, austria = A("Milan", "tyr"), A("France", "com"), A("Genoa", "tur"), A("Austria", "swi")
    start = position(milan, france, genoa, austria)
    done = judge(start, Advance(ref(milan), "com"), Advance(ref(france), "tur"), Advance(ref(genoa), "tyr"),
                 Advance(ref(austria), "tur"))
    assert done.position.units == start.units


def test_two_armies_swap_when_one_goes_by_transport() -> None:
    """DATC 6.G.-like: the swap through a convoy (AoP 13.2: "via different routes")."""
    papal, fleet, florence = A("Papacy", "rma"), F("Papacy", "uas"), A("Florence", "bol")
    done = judge(position(papal, fleet, florence), Advance(ref(papal), "bol", route=("uas",)), Transport(ref(fleet)),
                 Advance(ref(florence), "rma"))
    assert where(done) == {"Papacy A bol", "Papacy F uas", "Florence A rma"}
    direct = judge(position(papal, florence), Advance(ref(papal), "bol"), Advance(ref(florence), "rma"))
    assert where(direct) == {"Papacy A rma", "Florence A bol"}


def test_a_support_is_cut_by_an_attack_from_elsewhere() -> None:
    """DATC 6.D.-like (the supporter forced out by the unit it supports against: Example 1)."""
    milan, helper, papal, cutter = A("Milan", "cre"), A("Milan", "par"), A("Papacy", "man"), A("Papacy", "mod")
    done = judge(position(milan, helper, papal, cutter), Advance(ref(milan), "man"), Support(ref(helper), "man"),
                 Advance(ref(cutter), "par"))
    assert done.result(helper.place).reason is Reason.SUPPORT_CUT and "Papacy A man" in where(done)


def test_an_advance_into_an_area_being_left_succeeds() -> None:
    milan, venice = A("Milan", "cre"), A("Venice", "man")
    done = judge(position(milan, venice), Advance(ref(milan), "man"), Advance(ref(venice), "ver"))
    assert where(done) == {"Milan A man", "Venice A ver"}
