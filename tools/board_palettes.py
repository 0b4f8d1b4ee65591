"""Search for a board's power colours that pass the maps' colour tests, near the colours it has.

Run once per board whose palette falls short (`tests/render/test_board_colours.py`); the colours it
prints go into `judge.render.palette.BOARDS`.

Theory of operation.  Every candidate colour (a grid over sRGB) is converted once into CAM02-UCS as
each reader sees it (normal vision, protanopia, deuteranopia, tritanopia, simulated as
`tests.render.vision` does), both as the colour itself (a unit) and as its center's tint; the
distance the tests measure is then the Euclidean distance of two such points.  Candidates whose
center's tint could be taken for the ground (unheld, neutral or impassable land, the sea) or under
whose tints a name would not read are dropped first.  Each power starts at the candidate nearest its
anchor (its colour now, or a traditional one given), and in turns one power takes the candidate that
most raises the board's least ratio of measure to threshold (over every pair and vision), less a
small cost for straying from its anchor, until no change helps.  The least ratio counts only up to
`ENOUGH`: past a margin over every threshold, the colours stay as near their anchors as they can.

A board of many powers and no neighbours (Void's 36) is dealt by ``--spread`` instead: from Tol's
purple, each next colour is the vivid candidate (lightness 0.25 to 0.75, saturation 0.4 or more)
farthest, to every reader, from those taken.
"""

from __future__ import annotations

import argparse
import colorsys
import itertools
import random
from functools import cache

import numpy as np
from colorspacious import cspace_convert

from judge.engine.map import load_map
from judge.render.palette import LAND, NEUTRAL_LAND, SEA, lettered, power_colours, tint
from tests.render.test_board_colours import CENTER, GROUND, LETTERED_FAR, NEIGHBOURS
from tests.render.test_label_contrast import FOG, FOG_HATCH, HATCH, INK, LEAST, VEIL, least_contrast, over
from tests.render.vision import VISIONS, neighbours

ENOUGH = 1.08  # the least ratio of measure to threshold sought: a margin over every threshold
STRAY = 0.002  # what a unit of distance (normal vision) from a power's anchor costs against that ratio
HARD = 10.0  # how much the least ratio (up to ENOUGH) counts: short of it, no colour is worth keeping
SOFT = 0.5  # how much the mean of the pairs' ratios (each up to ENOUGH) counts beside the least one
LEVELS = 18  # the candidates: this many levels of each of red, green and blue


def rgb(colour: str) -> list[float]:
    return [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]


def seen(colours: np.ndarray) -> np.ndarray:
    """Each colour (rows of sRGB in 0..1) in CAM02-UCS for each vision: shape (visions, colours, 3)."""
    return np.stack([cspace_convert(colours, space, "CAM02-UCS") for space in VISIONS.values()])


def readable(colour: str) -> bool:
    """Whether a name (INK through its halo) reads on this colour's tints, clear or under a fog."""
    clear = {tint(colour, CENTER), tint(colour, 0.3)}
    veiled = {over(FOG, VEIL, ground) for ground in clear}
    grounds = clear | veiled | {over(FOG_HATCH, HATCH, ground) for ground in veiled}
    return least_contrast(INK, grounds, halo=True)[0] >= LEAST


@cache
def candidates(board: str) -> list[str]:
    """The grid's colours whose center's tint stands off the ground and under whose tints names read."""
    levels = range(0, 256, 255 // (LEVELS - 1))
    grid = ["#" + "".join(f"{c:02X}" for c in rgb_) for rgb_ in itertools.product(levels, repeat=3)]
    grounds = [LAND, NEUTRAL_LAND, SEA]
    ground = seen(np.array([rgb(g) for g in grounds]))
    tints = seen(np.array([rgb(tint(c, CENTER)) for c in grid]))
    apart = np.linalg.norm(tints[:, :, None, :] - ground[:, None, :, :], axis=-1).min(axis=(0, 2))
    return [c for c, far in zip(grid, apart, strict=True) if far >= GROUND * ENOUGH and readable(c)]


def descend(board: str, anchors: dict[str, tuple[str, float]],
            start: list[int] | None = None) -> tuple[float, float, dict[str, str]]:
    """One descent from ``start`` (else the anchors): its least ratio, its score and the colours."""
    game_map = load_map(board)
    powers = list(game_map.powers)
    count = len(powers)
    pool = candidates(board)
    units = seen(np.array([rgb(c) for c in pool]))
    centers = seen(np.array([rgb(tint(c, CENTER)) for c in pool]))
    near = neighbours(game_map)
    far = (LETTERED_FAR, LETTERED_FAR) if lettered(powers) else (NEIGHBOURS["units"], NEIGHBOURS["centers"])
    limits = np.empty((count, count, 2))
    for i, j in itertools.product(range(count), repeat=2):
        pair = tuple(sorted((powers[i], powers[j])))
        limits[i, j] = (NEIGHBOURS["units"], NEIGHBOURS["centers"]) if pair in near else far
    anchored = cspace_convert(np.array([rgb(anchors[p][0]) for p in powers]), "sRGB1", "CAM02-UCS")
    stray = np.stack([np.linalg.norm(units[0] - anchored[i], axis=-1) for i in range(count)])
    cost = stray * np.array([anchors[p][1] for p in powers])[:, None] * STRAY
    chosen = start or [int(np.argmin(stray[i])) for i in range(count)]
    chosen = [c % len(pool) for c in chosen]

    def ratios(i: int, options: np.ndarray) -> np.ndarray:
        """Power i at each of ``options``: its ratio to each other power, shape (options, powers)."""
        others = np.array(chosen)
        unit = np.linalg.norm(units[:, options, None, :] - units[:, None, others, :], axis=-1).min(axis=0)
        center = np.linalg.norm(centers[:, options, None, :] - centers[:, None, others, :], axis=-1).min(axis=0)
        both = np.minimum(unit / limits[i, :, 0], center / limits[i, :, 1])
        both[:, i] = np.inf
        return both

    everything = np.arange(len(pool))
    pairs = count * (count - 1)  # each pair twice, as the matrix holds it
    while True:
        matrix = np.stack([ratios(i, np.array([chosen[i]]))[0] for i in range(count)])
        capped = np.minimum(matrix, ENOUGH)
        np.fill_diagonal(capped, 0)
        spent = sum(cost[i, chosen[i]] for i in range(count))
        score = HARD * min(matrix.min(), ENOUGH) + SOFT * capped.sum() / pairs - spent
        best = (score + 1e-9, -1, -1)
        for i in range(count):
            rest = np.delete(np.delete(matrix, i, axis=0), i, axis=1).min(initial=np.inf)
            mine = ratios(i, everything)
            trial = np.minimum(np.minimum(mine.min(axis=1), rest), ENOUGH)
            soft = capped.sum() - 2 * capped[i].sum() + 2 * np.minimum(mine, ENOUGH).sum(axis=1, where=mine < np.inf)
            total = HARD * trial + SOFT * soft / pairs - (spent - cost[i, chosen[i]]) - cost[i]
            k = int(np.argmax(total))
            if total[k] > best[0]:
                best = (float(total[k]), i, k)
        if best[1] < 0:
            return matrix.min(), score, {p: pool[chosen[i]] for i, p in enumerate(powers)}
        chosen[best[1]] = best[2]


def search(board: str, anchors: dict[str, tuple[str, float]], restarts: int, seed: int) -> dict[str, str]:
    """The best colours of a descent from the anchors and of ``restarts`` more from random colours."""
    chance = random.Random(seed)
    count = len(load_map(board).powers)
    starts = [None] + [[chance.randrange(len(candidates(board))) for _ in range(count)] for _ in range(restarts)]
    least, score, found = max((descend(board, anchors, start) for start in starts), key=lambda r: r[1])
    print(f"# {board}: least ratio {least:.3f}, score {score:.3f}")
    return found


def spread(board: str) -> dict[str, str]:
    """Each power a colour, taken in turn as the one farthest from those taken (see the header)."""
    pool = [c for c in candidates(board) if 0.25 <= colorsys.rgb_to_hls(*rgb(c))[1] <= 0.75
            and colorsys.rgb_to_hls(*rgb(c))[2] >= 0.4]
    units = seen(np.array([rgb(c) for c in pool]))
    centers = seen(np.array([rgb(tint(c, CENTER)) for c in pool]))

    def apart(k: int) -> np.ndarray:
        return np.minimum(np.linalg.norm(units - units[:, k : k + 1], axis=-1).min(axis=0),
                          np.linalg.norm(centers - centers[:, k : k + 1], axis=-1).min(axis=0))

    purple = seen(np.array([rgb("#882E72")]))[0, 0]
    taken = [int(np.argmin(np.linalg.norm(units[0] - purple, axis=-1)))]
    least = apart(taken[0])
    for _ in range(len(load_map(board).powers) - 1):
        taken.append(int(np.argmax(least)))
        least = np.minimum(least, apart(taken[-1]))
    return {p: pool[k] for p, k in zip(load_map(board).powers, taken, strict=True)}


def main() -> None:
    parser = argparse.ArgumentParser(description="Search for a board's power colours (see the module's header).")
    parser.add_argument("board")
    parser.add_argument("--anchor", action="append", default=[], help="POWER=#RRGGBB[:weight], a colour to keep near")
    parser.add_argument("--restarts", type=int, default=20, help="descents from random colours besides the anchors'")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--spread", action="store_true", help="deal colours far apart, without anchors")
    args = parser.parse_args()
    powers = load_map(args.board).powers
    anchors = {p: (c, 1.0) for p, c in power_colours(powers).items()}
    for given in args.anchor:
        power, _, rest = given.partition("=")
        if power not in powers:
            continue
        colour, _, weight = rest.partition(":")
        anchors[power] = (colour, float(weight or 1))
    found = spread(args.board) if args.spread else search(args.board, anchors, args.restarts, args.seed)
    for power, colour in found.items():
        print(f'    "{power}": "{colour}",')


if __name__ == "__main__":
    main()
