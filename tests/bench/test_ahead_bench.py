"""`bench/ahead_bench.py` run small: what its players write ahead, how it counts, and one game of one year played
through the harness's judge with half its powers sending blocks ahead (issue 70, "Show").

The blocks are worked out from the standard board: France (A PAR, A MAR, F BRE; home centres PAR, MAR, BRE) expects
its units in PAR, SPA (A MAR - SPA) and BRE.  PAR's neighbours are BRE, BUR, GAS and PIC, less BRE where it expects
its fleet; MAR's BUR, GAS, PIE and SPA, less SPA; SPA's GAS, MAR and POR; the fleet's in BRE ENG, GAS, MAO and PIC.
MAR is the one home centre it expects to own with none of its units in it."""

from __future__ import annotations

import random
from datetime import datetime, timedelta
from pathlib import Path

from bench import ahead_bench
from bench.ahead_bench import Closed, Course, Figures, adjustment_block, retreat_block, table
from judge.engine.map import load_map
from judge.engine.position import Position
from tests.support.harness import Judge

EXPECTED = {"PAR": "A PAR", "SPA": "A SPA", "BRE": "F BRE"}
START = datetime(2026, 1, 5, 12, 0)


def test_a_retreat_block_names_two_free_neighbours_of_each_unit_where_it_stands_and_is_expected_then_a_disband(
        ) -> None:
    lines = retreat_block(Position.initial(load_map("standard")), "FRANCE", EXPECTED, random.Random(70))
    near = {"A PAR": {"BUR", "GAS", "PIC"}, "A MAR": {"BUR", "GAS", "PIE"}, "A SPA": {"GAS", "MAR", "POR"},
            "F BRE": {"ENG", "GAS", "MAO", "PIC"}}
    assert sorted(line.partition(" - ")[0] for line in lines) == sorted(near)
    for line in lines:
        unit, _, rest = line.partition(" - ")
        first, second, disband = rest.split(" | ")
        assert {first, second} <= near[unit] and first != second and disband == "D"


def test_an_adjustment_block_builds_where_a_home_centre_is_expected_free_then_names_two_removals() -> None:
    lines = adjustment_block(Position.initial(load_map("standard")), "FRANCE", EXPECTED, random.Random(70))
    assert lines[0] == "BUILD A MAR"
    assert len(lines) == 3 and {line.removeprefix("REMOVE ") for line in lines[1:]} <= set(EXPECTED.values())


def test_the_figures_count_retreats_and_adjustments_apart_from_movement_and_idle_phases() -> None:
    """Of the four short phases, one had nothing to do; of the other three, one closed a minute after it opened
    (at once), one after 10 hours and one at its deadline's tick (24 hours and a minute): two before their
    deadline, (1/60 + 10 + 24 + 1/60) / 3 = 11.344 hours open on average.  The season: 7.5 days.  The retreat
    phases had only powers sending ahead to act: one of them closed at once."""
    def phase(name: str, hours: float, acted: bool = True, covered: bool = False) -> Closed:
        return Closed(name, START, START + timedelta(hours=hours), START + timedelta(hours=24), acted, covered)

    course = Course([phase("S1901M", 30), phase("S1901R", 1 / 60, covered=True), phase("F1901M", 48),
                     phase("F1901R", 10, covered=True), phase("W1901A", 24 + 1 / 60),
                     phase("W1902A", 1 / 60, acted=False)], START, START + timedelta(days=7.5))
    figures = Figures.of([course])
    assert (figures.phases, figures.early, figures.at_once, figures.idle, figures.days) == (3, 2, 1, 1, 7.5)
    assert (figures.covered, figures.covered_at_once) == (2, 1)
    assert round(figures.hours, 3) == 11.344


def test_the_table_gives_the_ratio_of_each_run_to_nobody_sending_ahead() -> None:
    """3 of 4 phases early against 1 of 4 is 3.00; 3 hours open against 12 is 0.25; 6 days against 8 is 0.75; no
    phase at once today: no ratio."""
    ahead = Figures(phases=4, early=3, at_once=2, hours=3.0, idle=0, days=6.0, covered=2, covered_at_once=2)
    today = Figures(phases=4, early=1, at_once=0, hours=12.0, idle=0, days=8.0)
    *_, ratios, covered = table(ahead, today)
    assert ratios.split() == ["ahead", "/", "nobody", "3.00", "-", "0.25", "0.75"]
    assert covered == ("half send ahead: 2 of the 4 phases had every power to act sending ahead, and 2 of them "
                       "closed at once")


def test_a_game_of_a_year_reads_the_blocks_of_the_powers_sending_ahead_alone(tmp_path: Path) -> None:
    """One game, 1901 to the opening of 1902 (seed 70: its one short phase is W1901A): Austria, France, Italy and
    Turkey send blocks, read when their phase opens; England, Germany and Russia none; nobody, in the run where
    nobody sends ahead.  The retreats of 1901 are not played (nobody was dislodged), so their blocks are dropped."""
    for ahead, senders in ((True, {"AUSTRIA", "FRANCE", "ITALY", "TURKEY"}), (False, set())):
        folder = tmp_path / str(ahead)
        folder.mkdir()
        course = ahead_bench.play(folder, seed=70, game=0, years=1, ahead=ahead)
        assert [phase.name for phase in course.phases] == ["S1901M", "F1901M", "W1901A"]
        mail = Judge(folder).all_mail()
        read = {m.to for m in mail if m.subject == "g1: your lines for W1901A, read now"}
        dropped = {m.to for m in mail if m.subject == "g1: your lines for S1901R were not used"}
        assert read == dropped == {ahead_bench.address(power) for power in senders}
