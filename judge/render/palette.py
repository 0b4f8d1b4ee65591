"""Colours of the map: one per power, chosen to stay apart for colour-blind players.

The standard board's seven powers use Paul Tol's "bright" qualitative scheme
(https://personal.sron.nl/~pault/), built to be told apart under the common colour-vision
deficiencies and in greyscale lightness, mapped onto the board's traditional colours
(England blue, France light blue, Italy green, Russia purple, Turkey yellow, Austria red,
Germany grey).  Any other set of powers (a variant's) takes Tol's "discrete rainbow" for
that many colours, in the board's order of powers: his table gives up to 11 colours that
stay distinct for colour-blind readers, and 12 or 13 that reach for the paler ends of the
rainbow (Machiavelli's Absence of Plague has 13 players).  A board with more powers than 13
(Void's 36, Known World's 16) uses the 11 in turn, as it did before the sets of 12 and 13
were added; on such boards, and on every board whose colours are not the traditional ones,
each unit also carries its power's letter (:func:`lettered`), which the legend repeats, so
that no two powers look alike.

World's seventeen have colours of their own (`WORLD`): the 11 in turn gave six of them blues
(Brazil and Quebec the same, China and Russia, Europe and South Africa), told apart only by
their letters.  They are seventeen colours of Tol's qualitative sets and his discrete rainbow
whose centres' tints stand apart from unheld and neutral land and from the sea,
dealt by a search (in CIEDE2000, with Machado, Oliveira and Fernandes's 2009 simulation of
protanopia, deuteranopia and tritanopia) so that two powers whose home centres are at most one
area apart stand apart where their centres are tinted and where their units are drawn, whatever
the reader's vision, and any two powers with normal vision.  ``tests/render/test_palette.py``
measures it now in CAM02-UCS, colour blindness simulated by colorspacious: neighbours' tints 10 or
more and their units 20, any two powers' tints 5, each centre's tint 10 from the ground.
``tests/render/test_board_colours.py`` measures every board so, and names the boards that fall
short (each a strict expected failure, with what it measures).  A power's supply centers are filled
with a strong tint of its colour, other land it holds with a light one; units and arrows
use the full colour with a dark outline, so a light colour still reads on a light tint.
"""

from __future__ import annotations

from collections.abc import Iterable

TOL_BRIGHT = {
    "blue": "#4477AA",
    "cyan": "#66CCEE",
    "green": "#228833",
    "yellow": "#CCBB44",
    "red": "#EE6677",
    "purple": "#AA3377",
    "grey": "#BBBBBB",
}

TRADITIONAL = {
    "AUSTRIA": "red",
    "ENGLAND": "blue",
    "FRANCE": "cyan",
    "GERMANY": "grey",
    "ITALY": "green",
    "RUSSIA": "purple",
    "TURKEY": "yellow",
}

# Tol's "discrete rainbow": 29 colours, and which of them to take for 1 to 11 classes.
RAINBOW = (
    "#E8ECFB", "#D9CCE3", "#D1BBD7", "#CAACCB", "#BA8DB4", "#AE76A3", "#AA6F9E", "#994F88", "#882E72", "#1965B0",
    "#437DBF", "#5289C7", "#6195CF", "#7BAFDE", "#4EB265", "#90C987", "#CAE0AB", "#F7F056", "#F7CB45", "#F6C141",
    "#F4A736", "#F1932D", "#EE8026", "#E8601C", "#E65518", "#DC050C", "#A5170E", "#72190E", "#42150A",
)  # fmt: skip
RAINBOW_SETS = (
    (9,),
    (9, 25),
    (9, 17, 25),
    (9, 14, 17, 25),
    (9, 13, 14, 17, 25),
    (9, 13, 14, 16, 17, 25),
    (8, 9, 13, 14, 16, 17, 25),
    (8, 9, 13, 14, 16, 17, 22, 25),
    (8, 9, 13, 14, 16, 17, 22, 25, 27),
    (8, 9, 13, 14, 16, 17, 20, 23, 25, 27),
    (8, 9, 11, 13, 14, 16, 17, 20, 23, 25, 27),
    (2, 5, 8, 9, 11, 13, 14, 16, 17, 20, 23, 25),
    (2, 5, 8, 9, 11, 13, 14, 15, 16, 17, 20, 23, 25),
)
IN_TURN = 11  # the set a board of more powers than the table has repeats

WORLD = {
    "ARGENTINA": "#009988", "BRAZIL": "#F1932D", "CHINA": "#AA6F9E", "EUROPE": "#CAACCB",
    "FROZEN_ANTARCTICA": "#117733", "GHANA": "#CC3311", "INDIA": "#BBCC33", "KENYA": "#BB5566",
    "LIBYA": "#1965B0", "NEAR_EAST": "#666633", "OZ": "#FFAABB", "PACIFIC_RUSSIA": "#90C987",
    "QUEBEC": "#882E72", "RUSSIA": "#DC050C", "SOUTH_AFRICA": "#F7CB45", "UNITED_STATES": "#33BBEE",
    "WESTERN_CANADA": "#EE8866",
}  # fmt: skip
"""World's seventeen powers' colours (see the module's header)."""

SEA = "#C9DAE6"
LAND = "#F3EDDC"
NEUTRAL_LAND = "#E4DFD3"
IMPASSABLE = "#B7B2A6"
INK = "#222222"
PALE_INK = "#9A9A9A"  # outlines of failed orders
SEA_INK = "#3F6079"


def traditional(powers: Iterable[str]) -> bool:
    """Whether these are the standard board's powers, drawn in their traditional colours."""
    return set(powers) == set(TRADITIONAL)


def lettered(powers: Iterable[str]) -> bool:
    """Whether units carry their power's letter: wherever the colours are not the traditional ones."""
    return not traditional(powers)


def power_colours(powers: Iterable[str]) -> dict[str, str]:
    """Each power's colour: the traditional ones for the standard seven, World's own for its
    seventeen, else the discrete rainbow (its set of as many colours, up to 13; beyond, the 11 in
    turn)."""
    names = list(powers)
    if traditional(names):
        return {p: TOL_BRIGHT[TRADITIONAL[p]] for p in names}
    if set(names) == set(WORLD):
        return {p: WORLD[p] for p in names}
    if not names:
        return {}
    chosen = RAINBOW_SETS[(len(names) if len(names) <= len(RAINBOW_SETS) else IN_TURN) - 1]
    return {p: RAINBOW[chosen[i % len(chosen)]] for i, p in enumerate(names)}


def ink_on(colour: str) -> str:
    """Black or white, whichever reads better on ``colour`` (by its relative luminance)."""
    red, green, blue = (int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5))
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in (red, green, blue)]
    luminance = 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
    return "#000000" if luminance > 0.18 else "#FFFFFF"


def tint(colour: str, strength: float) -> str:
    """``colour`` mixed with white: 1.0 is the colour, 0.0 is white."""
    red, green, blue = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    mixed = (round(255 - (255 - c) * strength) for c in (red, green, blue))
    return "#" + "".join(f"{c:02X}" for c in mixed)
