"""Every label the maps draw reaches a contrast of 4.5:1 (WCAG 2, success criterion 1.4.3) against
what is drawn right behind it, as `judge.render.svg` draws it and `judge.render.paint` paints it.

What is behind each label:

- a province's, a coast's and an off-board box's name (`INK`; a sea's `SEA_INK`, in italics) has a
  halo of white at 0.7 opacity under and round its letters, over the ground: the sea, unheld
  land, neutral land, impassable land, a power's tint of a center (0.62) or of other land it holds
  (0.3); under a Tin Cup fog, the fog's veil (`FOG` at 0.6) over any of these, and where a hatch
  line crosses, the hatch (`FOG_HATCH` at 0.7) over the veil;
- a unit's letter (`palette.ink_on` of its power's colour, black or white) is drawn on the unit,
  which is filled with that colour, and so is the letter in the legend's circle;
- the title, the date and the legend's names, counts, captions (`INK`) and key (#555555) are on
  the paper, white.

A colour over another at some opacity is mixed in sRGB's encoded values, as Cairo and the
browsers do.
"""

from __future__ import annotations

import pytest

from judge.engine.map import available_maps, load_map
from judge.render.palette import IMPASSABLE, INK, LAND, NEUTRAL_LAND, SEA, SEA_INK, ink_on, power_colours, tint
from judge.render.svg import FOG, FOG_HATCH

WHITE = "#FFFFFF"
LEGEND_KEY_INK = "#555555"  # the line of the legend that says how orders are drawn (judge.render.svg)
HALO, VEIL, HATCH = 0.7, 0.6, 0.7  # the names' halo, the fog's veil and its hatch: their opacities
LEAST = 4.5  # WCAG 2's minimum contrast for text (AA)


def luminance(colour: str) -> float:
    """WCAG 2's relative luminance of a ``#RRGGBB`` sRGB colour."""
    channels = (int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5))
    red, green, blue = (c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


def contrast(first: str, second: str) -> float:
    """WCAG 2's contrast ratio of two colours, 1 to 21."""
    lighter, darker = sorted((luminance(first), luminance(second)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


def over(top: str, opacity: float, ground: str) -> str:
    """``top`` at ``opacity`` painted over ``ground``."""
    mixed = (round(opacity * int(top[i : i + 2], 16) + (1 - opacity) * int(ground[i : i + 2], 16)) for i in (1, 3, 5))
    return "#" + "".join(f"{c:02X}" for c in mixed)


def land_grounds(board: str) -> set[str]:
    """Every colour the board's land may show under a name: clear, and under a fog and its hatch."""
    clear = {LAND, NEUTRAL_LAND, IMPASSABLE}
    for colour in power_colours(load_map(board).powers).values():
        clear |= {tint(colour, 0.62), tint(colour, 0.3)}
    veiled = {over(FOG, VEIL, ground) for ground in clear}
    return clear | veiled | {over(FOG_HATCH, HATCH, ground) for ground in veiled}


def sea_grounds() -> dict[str, str]:
    """The sea under a name: clear, under a fog, and under a fog where a hatch line crosses."""
    veiled = over(FOG, VEIL, SEA)
    return {"clear": SEA, "fog": veiled, "fog-hatch": over(FOG_HATCH, HATCH, veiled)}


def least_contrast(ink: str, grounds: set[str], halo: bool) -> tuple[float, str]:
    """The least contrast of ``ink`` over any of ``grounds`` (under a halo where ``halo``), with its ground."""
    return min((contrast(ink, over(WHITE, HALO, ground) if halo else ground), ground) for ground in grounds)


def test_the_contrast_is_wcag_2s() -> None:
    """Worked by hand: black on white is (1 + 0.05) / (0 + 0.05) = 21; #777777 (0.7 encoded: ((0.4667 +
    0.055) / 1.055) ** 2.4 = 0.1845 linear) on white is 1.05 / 0.2345 = 4.48, the grey just too
    light for text; white at 0.6 over black is 0.6 * 255 = 153, #999999."""
    assert round(contrast("#000000", WHITE), 2) == 21.0
    assert round(contrast("#777777", WHITE), 2) == 4.48
    assert over(WHITE, 0.6, "#000000") == "#999999"


@pytest.mark.parametrize("board", available_maps())
def test_every_land_name_reads_on_any_ground_through_its_halo(board: str) -> None:
    """Provinces', coasts' and boxes' names (INK) on any land the board shows, fogged or not."""
    measured, ground = least_contrast(INK, land_grounds(board), halo=True)
    assert measured >= LEAST, (round(measured, 2), ground)


@pytest.mark.parametrize("sea", ["clear", "fog", "fog-hatch"])
def test_every_sea_name_reads_on_the_sea_through_its_halo(sea: str) -> None:
    """Seas' names (SEA_INK) on the sea, clear (8.2:1), under a fog (6.4:1) and where the fog's
    hatch crosses under the name (5.2:1; SEA_INK was lighter, #3F6079, which read at 3.76:1 there)."""
    ground = sea_grounds()[sea]
    measured, _ = least_contrast(SEA_INK, {ground}, halo=True)
    assert measured >= LEAST, (round(measured, 2), ground)


@pytest.mark.parametrize("board", available_maps())
def test_every_units_letter_reads_on_its_powers_colour(board: str) -> None:
    """Each power's letter, black or white as `ink_on` chooses, on its units and in the legend."""
    colours = power_colours(load_map(board).powers)
    measured, power = min((contrast(ink_on(colour), colour), power) for power, colour in colours.items())
    assert measured >= LEAST, (round(measured, 2), power)


@pytest.mark.parametrize("ink", [INK, LEGEND_KEY_INK])
def test_the_title_and_the_legend_read_on_the_paper(ink: str) -> None:
    """The title, date, powers' names, counts and captions (INK) and the key (#555555) on white."""
    assert contrast(ink, WHITE) >= LEAST
