"""How different two colours look, for the tests of the maps' colours, measured with
``colorspacious``: the distance in CAM02-UCS (Luo, Cui and Li 2006, the uniform space built on
CIECAM02) between colours as seen with normal vision or with a colour-vision deficiency simulated
as Machado, Oliveira and Fernandes do it ("A physiologically-based model for simulation of color
vision deficiency", 2009), at severity 100: protanomaly, deuteranomaly and tritanomaly at full
severity are protanopia, deuteranopia and tritanopia.  The simulated colour is measured as the
model gives it, not clipped to the screen's gamut.

The scale: black to white is 100; about 1 is two colours side by side only just told apart, 2 to 3
takes a look, 10 is plainly two colours and 20 and more nobody mistakes one for the other, as with
CIELAB's and CIEDE2000's units (between 5 and 30, on World's colours, CAM02-UCS reads about 1.1
times CIEDE2000).
"""

from __future__ import annotations

import itertools
from collections import deque
from typing import Any

from colorspacious import deltaE

from judge.engine.map import GameMap

VISIONS: dict[str, Any] = {
    "normal": "sRGB1",
    **{name: {"name": "sRGB1+CVD", "cvd_type": name, "severity": 100}
       for name in ("protanomaly", "deuteranomaly", "tritanomaly")},
}
"""Each reader's vision, as the colour space in which colorspacious reads an sRGB colour for it."""


def rgb(colour: str) -> tuple[float, float, float]:
    """``#RRGGBB`` as sRGB in 0..1."""
    return int(colour[1:3], 16) / 255, int(colour[3:5], 16) / 255, int(colour[5:7], 16) / 255


def difference(first: str, second: str, vision: str = "normal") -> float:
    """How different two ``#RRGGBB`` colours look to a reader with ``vision`` (one of `VISIONS`):
    their distance in CAM02-UCS."""
    return float(deltaE(rgb(first), rgb(second), input_space=VISIONS[vision], uniform_space="CAM02-UCS"))


def least_difference(first: str, second: str) -> float:
    """The least difference of two colours with normal vision and each simulated deficiency."""
    return min(difference(first, second, vision) for vision in VISIONS)


def neighbours(game_map: GameMap, distance: int = 2) -> set[tuple[str, str]]:
    """The pairs of powers a reader compares side by side: those some home center of one of which is
    at most ``distance`` areas from a home center of the other (2: one area, land or sea, between
    them).  A board without home centers (Void) has none."""
    homes = {power: set(info.home_centers) for power, info in game_map.powers.items()}

    def apart(first: set[str], second: set[str]) -> int:
        steps = dict.fromkeys(first, 0)
        queue = deque(first)
        while queue:
            area = queue.popleft()
            if area in second:
                return steps[area]
            for other in game_map.neighbours[area]:
                if other not in steps:
                    steps[other] = steps[area] + 1
                    queue.append(other)
        return distance + 1  # never reached: not neighbours

    return {(a, b) for a, b in itertools.combinations(sorted(homes), 2) if apart(homes[a], homes[b]) <= distance}
