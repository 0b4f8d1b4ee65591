"""Colours of the map: one per power, chosen to stay apart for colour-blind players.

The powers use Paul Tol's "bright" qualitative scheme (https://personal.sron.nl/~pault/),
built to be told apart under the common colour-vision deficiencies and in greyscale
lightness, mapped onto the board's traditional colours (England blue, France light blue,
Italy green, Russia purple, Turkey yellow, Austria red, Germany grey).  A power's supply
centers are filled with a strong tint of its colour, other land it holds with a light one;
units and arrows use the full colour with a dark outline, so a light colour still reads
on a light tint.
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

# Tol's "muted" scheme, for powers of other variants.
SPARE = ["#332288", "#88CCEE", "#44AA99", "#117733", "#999933", "#DDCC77", "#CC6677", "#882255", "#AA4499"]

SEA = "#C9DAE6"
LAND = "#F3EDDC"
NEUTRAL_LAND = "#E4DFD3"
IMPASSABLE = "#B7B2A6"
INK = "#222222"
PALE_INK = "#9A9A9A"  # outlines of failed orders
SEA_INK = "#3F6079"


def power_colours(powers: Iterable[str]) -> dict[str, str]:
    """Each power's colour: the traditional one where it has one, then spare colours in turn."""
    spare = iter(SPARE)
    return {p: TOL_BRIGHT[TRADITIONAL[p]] if p in TRADITIONAL else next(spare, "#777777") for p in powers}


def tint(colour: str, strength: float) -> str:
    """``colour`` mixed with white: 1.0 is the colour, 0.0 is white."""
    red, green, blue = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    mixed = (round(255 - (255 - c) * strength) for c in (red, green, blue))
    return "#" + "".join(f"{c:02X}" for c in mixed)
