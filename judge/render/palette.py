"""Colours of the map: one per power, chosen to stay apart for colour-blind players.

Every board a game may be played on has colours of its own (`BOARDS`), measured by
``tests/render/test_board_colours.py`` in CAM02-UCS with protanopia, deuteranopia and tritanopia
simulated by colorspacious (Machado, Oliveira and Fernandes 2009) beside normal vision: two powers
whose home centers are at most one area apart stand 10 or more apart where their centers are
tinted and 20 where their units are drawn, whatever the reader's vision; on the standard board,
whose units carry no letter, so do any two powers; on the others, any two powers are never one
colour to any reader (3); and every center's tint stands 10 from unheld land, neutral land and the
sea for every reader.  They were found by ``tools/board_palettes.py`` (a search over a grid of
colours that keeps each power as near its colour before as the thresholds allow), from Paul Tol's
schemes (https://personal.sron.nl/~pault/): the standard board's from his "bright" set on the
board's traditional colours (Austria red, England blue, France light blue, Germany grey, Italy
green, Russia purple, Turkey yellow), which the variants' powers of the same name keep as near as
their neighbours allow, the others' from his "discrete rainbow" and, on World, his qualitative
sets.  Under every name a label reads (``tests/render/test_label_contrast.py``).

Any other set of powers (Machiavelli's boards) takes Tol's "discrete rainbow" for that many
colours, in the order of its powers: his table gives up to 11 colours that stay distinct for
colour-blind readers, and 12 or 13 that reach for the paler ends of the rainbow (Machiavelli's
Absence of Plague has 13 players); more powers than 13 take the 11 in turn.  Wherever the colours
are not the standard board's, each unit also carries its power's letter (:func:`lettered`), which
the legend repeats.  A power's supply centers are filled with a strong tint of its colour, other
land it holds with a light one; units and arrows use the full colour with a dark outline, so a
light colour still reads on a light tint.
"""

from __future__ import annotations

from collections.abc import Iterable

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

STANDARD = {
    "AUSTRIA": "#E11E0F", "ENGLAND": "#0F78B4", "FRANCE": "#4BB4FF", "GERMANY": "#5A5A5A",
    "ITALY": "#789678", "RUSSIA": "#5A0F5A", "TURKEY": "#E1B42D",
}  # fmt: skip
"""The standard board's traditional colours: Tol's bright set, moved as far as every reader's vision
asks.  Germany's light grey, whose tint was taken for neutral land, is a dark grey; Italy's green a
sage green, lighter than Austria's red to a deuteranope; Russia's purple a dark plum."""

BOARDS: dict[str, dict[str, str]] = {
    "standard": STANDARD,
    "loeb9": {**STANDARD, "NORWAY": "#FFD22D", "SPAIN": "#D2000F"},
    "youngstown": {**STANDARD, "CHINA": "#0069D2", "INDIA": "#FFD22D", "JAPAN": "#E15A0F"},
    "modern": {
        **{power: STANDARD[power] for power in ("FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")},
        "BRITAIN": STANDARD["ENGLAND"], "EGYPT": "#0069A5", "POLAND": "#FFD22D", "SPAIN": "#E15A0F",
        "UKRAINE": "#780000",
    },
    "ancmed": {
        "CARTHAGE": "#0F69B4", "EGYPT": "#5AA5E1", "GREECE": "#3CB469", "PERSIA": "#FFD22D", "ROME": "#C30F0F",
    },
    "empire": {
        "BRITISH_COLUMBIA": "#872D78", "CALIFORNIA": "#0F69B4", "CUBA": "#5AA5E1", "FLORIDA": "#87A54B",
        "HEARTLAND": "#F0B45A", "MEXICO": "#FFD22D", "NEW_YORK": "#F0A53C", "PERU": "#E15A0F",
        "QUEBEC": "#E10F0F", "TEXAS": "#781E0F",
    },
    "known_world_901": {
        "ARABIA": "#961E78", "AXUM": "#005AA5", "BYZANTINUM": "#4B87C3", "CHINA": "#878796",
        "DENMARK": "#3CA578", "EGYPT": "#E1B44B", "FRANCE": "#FFD22D", "GERMANY": "#E14B00",
        "INDIA": "#F05A0F", "KHAZARIA": "#E10F0F", "NEUTRAL_STATE": "#4B0000", "RUSSIA": "#872D69",
        "SPAIN": "#0F69B4", "SRIVIJAYA": "#3C87F0", "TURAN": "#69B4FF", "WAGADU": "#4BB45A",
    },
    # Dealt far apart (``tools/board_palettes.py --spread``): no neighbours, every power lettered.
    "void": {
        "ADRIATIC_SEA": "#872D78", "AEGEAN_SEA": "#4BFF00", "ALBANIA": "#3C780F", "APULIA": "#0000FF",
        "ARMENIA": "#FF78FF", "BALTIC_SEA": "#873CFF", "BARENTS_SEA": "#0FA587", "BLACK_SEA": "#87000F",
        "BOHEMIA": "#4B0087", "BURGUNDY": "#87A500", "CLYDE": "#FF4B69", "ENGLISH_CHANNEL": "#C34BC3",
        "FINLAND": "#B42D4B", "GALICIA": "#D2A55A", "GASCONY": "#782DB4", "GULF_OF_BOTHNIA": "#780F4B",
        "GULF_OF_LYON": "#8769FF", "HELGOLAND_BIGHT": "#3C8796", "IONIAN_SEA": "#5A0FC3", "LIVONIA": "#FFC369",
        "MID_ATLANTIC_OCEAN": "#5A962D", "NORTH_SEA": "#0000B4", "NORWEGIAN_SEA": "#691EFF", "PICARDY": "#00B4F0",
        "PIEDMONT": "#0078A5", "PRUSSIA": "#690F78", "RUHR": "#2DE100", "SILESIA": "#C378D2", "SKAGERRAK": "#A53C69",
        "TUSCANY": "#961E0F", "TYROLIA": "#F01E00", "TYRRHENIAN_SEA": "#005A87", "UKRAINE": "#C34B4B",
        "WALES": "#A53CD2", "W_MEDITERRANEAN_SEA": "#1EC32D", "YORKSHIRE": "#D20F2D",
    },
    # Of Tol's qualitative sets and his rainbow before, so that no two of the six that once shared
    # three blues (Brazil, China, Europe, Quebec, Russia, South Africa) look alike (test_palette).
    "world": {
        "ARGENTINA": "#0F9687", "BRAZIL": "#F0962D", "CHINA": "#B469AB", "EUROPE": "#B48796",
        "FROZEN_ANTARCTICA": "#00781E", "GHANA": "#D23C1E", "INDIA": "#87B400", "KENYA": "#B45A69",
        "LIBYA": "#0F69B4", "NEAR_EAST": "#69693C", "OZ": "#E16987", "PACIFIC_RUSSIA": "#4BD25A",
        "QUEBEC": "#872D78", "RUSSIA": "#E10000", "SOUTH_AFRICA": "#FFD22D", "UNITED_STATES": "#1EB4F0",
        "WESTERN_CANADA": "#F0785A",
    },
}
"""Each board's powers' colours (see the module's header): a board is known by its set of powers."""

SEA = "#C9DAE6"
LAND = "#F3EDDC"
NEUTRAL_LAND = "#E4DFD3"
IMPASSABLE = "#B7B2A6"
INK = "#222222"
PALE_INK = "#9A9A9A"  # outlines of failed orders
SEA_INK = "#2F4B62"  # dark enough to read through its halo where a fog's hatch crosses (5.2:1)


def traditional(powers: Iterable[str]) -> bool:
    """Whether these are the standard board's powers, drawn in their traditional colours."""
    return set(powers) == set(BOARDS["standard"])


def lettered(powers: Iterable[str]) -> bool:
    """Whether units carry their power's letter: wherever the colours are not the traditional ones."""
    return not traditional(powers)


def power_colours(powers: Iterable[str]) -> dict[str, str]:
    """Each power's colour: its board's own (`BOARDS`), else the discrete rainbow (its set of as
    many colours, up to 13; beyond, the 11 in turn)."""
    names = list(powers)
    board = next((colours for colours in BOARDS.values() if set(colours) == set(names)), None)
    if board is not None:
        return {p: board[p] for p in names}
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
