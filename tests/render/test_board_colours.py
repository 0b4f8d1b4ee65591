"""Every board's powers' colours as the map draws them, told apart with normal vision and with
protanopia, deuteranopia and tritanopia simulated: the least distance in CAM02-UCS
(`tests.render.vision`) over every pair of powers and every vision, for the colour of their
units and the tint of their supply centers (0.62 of the colour, as `judge.render.svg` fills a
center).

The thresholds, on the measure's scale (3: takes a look; 10: plainly two colours; 20: nobody
mistakes one for the other), from what each pair is for:

- neighbours (`tests.render.vision.neighbours`: homes at most one area apart, the powers a
  reader compares side by side along a front): 10 between their centers' tints, large fields that
  must be plainly two colours, and 20 between their units' colours, marks some fifteen pixels wide
  where colours are told apart less well than over a field (tritanopia's blues and yellows most
  of all), whatever the reader's vision;
- other pairs, on the standard board, whose units carry no letter: the same, since the colour
  alone tells whose a unit is (matched against the legend, which is harder than side by side);
- other pairs, on a board whose units carry their power's letter (`palette.lettered`): 3, the
  colours only never the same to any reader, since the letter on the unit and in the legend
  names the power;
- each power's centers' tint and the ground a center stands on or beside (unheld land, neutral
  land, the sea): 10, plainly two colours, whatever the reader's vision, so that no reader takes
  a held center for an unheld one or a coast's center for the water.  Impassable land is not
  measured: it is never held, and a few areas of it sit among the provinces, drawn darker.

Every board reaches every threshold (its colours: `judge.render.palette.BOARDS`, found by
``tools/board_palettes.py``, which reads the thresholds from here); a failure says what the board
measures (its least pair and the vision).
"""

from __future__ import annotations

import colorsys
import itertools
from collections.abc import Callable

import pytest

from judge.engine.map import available_maps, load_map
from judge.render.palette import LAND, NEUTRAL_LAND, SEA, lettered, power_colours, tint
from tests.render.vision import VISIONS, difference, neighbours

CENTER = 0.62  # the tint of a supply center its power owns (judge.render.svg)
DRAWN: dict[str, Callable[[str], str]] = {  # what the map fills with a power's colour
    "centers": lambda colour: tint(colour, CENTER),
    "units": lambda colour: colour,
}
NEIGHBOURS = {"centers": 10.0, "units": 20.0}
LETTERED_FAR = 3.0
GROUND = 10.0  # a center's tint from the ground round it (see the module's header)


def cases() -> list[object]:
    """Every board a game may be played on, for its neighbours and its other pairs, units and centers."""
    return [pytest.param(board, pairs, drawn, id=f"{board}-{pairs}-{drawn}")
            for board in available_maps() for pairs in ("neighbours", "far") for drawn in DRAWN]


def least(board: str, pairs: str, drawn: str) -> tuple[float, str, str, str]:
    """The least difference over the board's ``pairs`` and every vision, with its pair and vision."""
    game_map = load_map(board)
    colours = {power: DRAWN[drawn](colour) for power, colour in power_colours(game_map.powers).items()}
    near = neighbours(game_map)
    chosen = near if pairs == "neighbours" else set(itertools.combinations(sorted(colours), 2)) - near
    return min(((difference(colours[a], colours[b], vision), a, b, vision) for a, b in chosen for vision in VISIONS),
               default=(float("inf"), "", "", ""))


def threshold(board: str, pairs: str, drawn: str) -> float:
    """What a pair of this board must reach (see the module's header)."""
    if pairs == "far" and lettered(load_map(board).powers):
        return LETTERED_FAR
    return NEIGHBOURS[drawn]


@pytest.mark.parametrize(("board", "pairs", "drawn"), cases())
def test_every_boards_powers_stay_apart_whatever_the_readers_vision(board: str, pairs: str, drawn: str) -> None:
    """The least difference of the board's pairs, over every vision, reaches the threshold."""
    measured, first, second, vision = least(board, pairs, drawn)
    assert measured >= threshold(board, pairs, drawn), (round(measured, 1), first, second, vision)


def test_the_boards_measured_are_every_board_a_game_may_be_played_on() -> None:
    """Nine boards, the standard one alone without letters on its units; Void has no home centers,
    so no neighbours: all its 630 pairs are measured as far apart."""
    boards = available_maps()
    assert len(boards) == 9 and [b for b in boards if not lettered(load_map(b).powers)] == ["standard"]
    assert not neighbours(load_map("void")) and len(load_map("void").powers) == 36


@pytest.mark.parametrize("board", available_maps())
def test_no_reader_takes_a_held_center_for_the_ground_round_it(board: str) -> None:
    """Each power's centers' tint stands off unheld land, neutral land and the sea, whatever the vision."""
    colours = power_colours(load_map(board).powers)
    measured = min((difference(tint(colour, CENTER), ground, vision), power, ground, vision)
                   for power, colour in colours.items() for ground in (LAND, NEUTRAL_LAND, SEA) for vision in VISIONS)
    assert measured[0] >= GROUND, (round(measured[0], 1), *measured[1:])


HUES = {  # the traditional colours of the Great Powers, as hues (degrees, HLS), from and to
    "AUSTRIA": (345, 15), "ENGLAND": (190, 250), "BRITAIN": (190, 250), "FRANCE": (190, 250),
    "ITALY": (90, 150), "RUSSIA": (270, 330), "TURKEY": (35, 65),
}  # fmt: skip


def hls(colour: str) -> tuple[float, float, float]:
    """A ``#RRGGBB`` colour's hue in degrees, lightness and saturation (0 to 1)."""
    hue, lightness, saturation = colorsys.rgb_to_hls(*(int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)))
    return hue * 360, lightness, saturation


@pytest.mark.parametrize("board", ["standard", "loeb9", "modern", "youngstown"])
def test_the_great_powers_keep_their_traditional_colours(board: str) -> None:
    """On the boards of the Great Powers of 1901 (Known World 901's France and Germany are other
    realms), Austria is red, England (Modern's Britain) blue, France a lighter blue, Germany grey,
    Italy green, Russia purple and Turkey yellow: e.g. Austria's #E11E0F is hue 4, Germany's
    #5A5A5A has no saturation at all."""
    colours = power_colours(load_map(board).powers)
    for power, (start, end) in HUES.items():
        if power in colours:
            hue, _, saturation = hls(colours[power])
            assert (start <= hue <= end if start < end else hue >= start or hue <= end), (power, hue)
            assert saturation >= 0.1, (power, saturation)
    assert hls(colours["GERMANY"])[2] < 0.05
    assert hls(colours["FRANCE"])[1] > hls(colours.get("ENGLAND", colours.get("BRITAIN", "")))[1]
