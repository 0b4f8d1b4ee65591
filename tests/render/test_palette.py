"""World's seventeen colours (`judge.render.palette.BOARDS`), measured: the distance in CAM02-UCS
(`tests.render.vision`, colorspacious) between powers' colours as the map draws them, with normal
vision and with protanopia, deuteranopia and tritanopia simulated (Machado et al. 2009).

The thresholds come from what each rule is for, on the measure's scale (10: plainly two colours;
20: nobody mistakes one for the other):

- two powers whose home supply centers are at most one area apart (land or sea between them) are
  the ones a reader compares side by side, on any vision: 10 or more where their centers are
  tinted (0.62 of the colour, as `judge.render.svg` fills a supply center), large fields plainly
  two colours; 20 or more where their units are drawn (the colour itself), since a unit is a mark
  some fifteen pixels wide and colours are told apart less well the smaller the field (the blue
  and yellow that tritanopia confuses most of all);
- any two powers, with normal vision, 5 or more between their centers' tints (twice "takes a
  look": no colour twice on the board, where the letters tell the rest), and the six powers that
  shared three blues before World had colours of its own 10 or more (plainly two colours: the
  fault that was fixed);
- a center's tint 10 or more from unheld land, neutral land and the sea, whatever the reader's
  vision (measured for every board in ``tests/render/test_board_colours.py``).

World reaches 12.7 (Europe and the Near East, tritanopia), 21.8 (India and Oz, deuteranopia), 7.1
(Kenya and Oz) and 10.9 (China and Europe).
"""

from __future__ import annotations

import itertools

from judge.engine.map import load_map
from judge.render.palette import BOARDS, power_colours, tint
from tests.render.vision import difference, least_difference, neighbours

CENTER = 0.62  # the tint of a supply center its power owns (judge.render.svg)
WORLD_MAP = load_map("world")
WORLD = BOARDS["world"]
FORMERLY_BLUE = ("BRAZIL", "CHINA", "EUROPE", "QUEBEC", "RUSSIA", "SOUTH_AFRICA")


def test_the_measure_runs_from_black_to_white_over_a_hundred() -> None:
    """The scale the thresholds are read on: CAM02-UCS's lightness runs 0 to 100, black to white."""
    assert round(difference("#000000", "#FFFFFF")) == 100


def test_an_orange_and_a_green_alike_to_a_deuteranope_are_apart_to_everyone_else() -> None:
    """The simulation does what it is for: an orange and a yellow-green, beyond mistaking with normal
    vision (over 30: 36.4), are all but the same colour to a deuteranope (under 3, "takes a look":
    2.4)."""
    assert difference("#EE7733", "#88AA00") > 30 > 3 > difference("#EE7733", "#88AA00", "deuteranomaly")


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
    East bordering): 10 or more between their centers' tints, 20 or more between their units'
    colours, with normal vision and each of the three dichromacies."""
    pairs = neighbours(WORLD_MAP)
    assert len(pairs) == 23 and ("LIBYA", "NEAR_EAST") in pairs and ("EUROPE", "RUSSIA") in pairs
    for a, b in sorted(pairs):
        assert least_difference(tint(WORLD[a], CENTER), tint(WORLD[b], CENTER)) >= 10, (a, b)
        assert least_difference(WORLD[a], WORLD[b]) >= 20, (a, b)


def test_any_two_powers_are_told_apart_at_a_glance_the_six_former_blues_among_them() -> None:
    """5 or more between any two centers' tints with normal vision, 10 or more between the six
    former blues (two of each once had one colour)."""
    for a, b in itertools.combinations(sorted(WORLD), 2):
        assert difference(tint(WORLD[a], CENTER), tint(WORLD[b], CENTER)) >= 5, (a, b)
    for a, b in itertools.combinations(FORMERLY_BLUE, 2):
        assert difference(tint(WORLD[a], CENTER), tint(WORLD[b], CENTER)) >= 10, (a, b)
