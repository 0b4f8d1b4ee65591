"""World's seventeen colours (`judge.render.palette.WORLD`), measured: CIEDE2000 (`tests.render.vision`)
between powers' colours as the map draws them, with normal vision and with protanopia,
deuteranopia and tritanopia simulated (Machado et al. 2009).

The thresholds: two powers whose home supply centers are at most one area apart (land or sea
between them) differ by 15 or more where their centers are tinted (0.62 of the colour, as
`judge.render.svg` fills a supply center) and by 20 or more where their units are drawn (the
colour itself), whatever the reader's vision; any two powers by 9 or more with normal vision (the
six that were blues among them), and every center's tint stands apart from unheld land, neutral
land (15 or more) and from the sea (12 or more).
"""

from __future__ import annotations

import itertools
from collections import deque

import pytest

from judge.engine.map import load_map
from judge.render.palette import LAND, NEUTRAL_LAND, SEA, WORLD, power_colours, tint
from tests.render.vision import ciede2000, difference, least_difference

CENTER = 0.62  # the tint of a supply center its power owns (judge.render.svg)
WORLD_MAP = load_map("world")
FORMERLY_BLUE = ("BRAZIL", "CHINA", "EUROPE", "QUEBEC", "RUSSIA", "SOUTH_AFRICA")


def neighbours(distance: int = 2) -> set[tuple[str, str]]:
    """Pairs of World's powers some home center of one of which is at most ``distance`` areas from
    a home center of the other (2: one area, land or sea, between them)."""
    homes = {power: set(info.home_centers) for power, info in WORLD_MAP.powers.items()}

    def apart(first: set[str], second: set[str]) -> int:
        steps = dict.fromkeys(first, 0)
        queue = deque(first)
        while queue:
            area = queue.popleft()
            if area in second:
                return steps[area]
            for other in WORLD_MAP.neighbours[area]:
                if other not in steps:
                    steps[other] = steps[area] + 1
                    queue.append(other)
        return len(steps)

    return {(a, b) for a, b in itertools.combinations(sorted(homes), 2) if apart(homes[a], homes[b]) <= distance}


@pytest.mark.parametrize(("first", "second", "expected"), [
    ((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485), 2.0425),
    ((50.0, 2.5, 0.0), (73.0, 25.0, -18.0), 27.1492),
    ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
    ((90.8027, -2.0831, 1.4410), (91.1528, -1.6435, 0.0447), 1.4441),
    ((2.0776, 0.0795, -1.1350), (0.9033, -0.0636, -0.5514), 0.9082),
])
def test_the_measure_is_ciede2000_as_sharma_wu_and_dalal_check_it(first: tuple[float, float, float],
                                                                  second: tuple[float, float, float],
                                                                  expected: float) -> None:
    """Five pairs of the test data Sharma, Wu and Dalal (2005) give with the formula, to 4 places."""
    assert round(ciede2000(first, second), 4) == expected


def test_an_orange_and_a_green_alike_to_a_deuteranope_are_apart_to_everyone_else() -> None:
    """The simulation does what it is for: an orange and a yellow-green, plainly apart with normal
    vision (over 40), are all but the same colour to a deuteranope (under 3)."""
    assert difference("#EE7733", "#88AA00") > 40 > 3 > difference("#EE7733", "#88AA00", "deuteranopia")


def test_world_has_seventeen_colours_of_its_own_where_the_eleven_in_turn_repeated_three() -> None:
    """The eleven in turn gave Brazil and Quebec one blue, China and Russia another, Europe and
    South Africa a third."""
    assert power_colours(WORLD_MAP.powers) == WORLD and len(set(WORLD.values())) == len(WORLD_MAP.powers) == 17
    eleven = power_colours([f"P{i}" for i in range(17)])
    before = dict(zip(WORLD_MAP.powers, eleven.values(), strict=True))  # dealt in the board's order
    assert before["BRAZIL"] == before["QUEBEC"] and before["CHINA"] == before["RUSSIA"]
    assert before["EUROPE"] == before["SOUTH_AFRICA"]


def test_neighbouring_powers_never_look_alike_whatever_the_readers_vision() -> None:
    """Every pair of powers whose homes are at most one area apart (23 pairs, Libya and the Near
    East bordering): 15 or more between their centers' tints, 20 or more between their units'
    colours, with normal vision and each of the three dichromacies."""
    pairs = neighbours()
    assert len(pairs) == 23 and ("LIBYA", "NEAR_EAST") in pairs and ("EUROPE", "RUSSIA") in pairs
    for a, b in sorted(pairs):
        assert least_difference(tint(WORLD[a], CENTER), tint(WORLD[b], CENTER)) >= 15, (a, b)
        assert least_difference(WORLD[a], WORLD[b]) >= 20, (a, b)


def test_any_two_powers_are_told_apart_at_a_glance_the_six_former_blues_among_them() -> None:
    """9 or more between any two centers' tints with normal vision (the six former blues differed by
    0 to 13); and no center's tint is taken for unheld or neutral land (15 or more) or for the sea
    (12 or more; World has no impassable land)."""
    for a, b in itertools.combinations(sorted(WORLD), 2):
        assert difference(tint(WORLD[a], CENTER), tint(WORLD[b], CENTER)) >= 9, (a, b)
    for a, b in itertools.combinations(FORMERLY_BLUE, 2):
        assert difference(tint(WORLD[a], CENTER), tint(WORLD[b], CENTER)) >= 10, (a, b)
    assert not WORLD_MAP.impassable
    for power, colour in WORLD.items():
        for ground in (LAND, NEUTRAL_LAND):
            assert difference(tint(colour, CENTER), ground) >= 15, (power, ground)
        assert difference(tint(colour, CENTER), SEA) >= 12, power
