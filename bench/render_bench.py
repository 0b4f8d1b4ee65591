"""Benchmark of the map pictures: a phase drawn for each of the 7 powers, PNG included.

Run from the repository root::

    .venv/bin/python bench/render_bench.py [--rounds N] [--width PX]

What it measures
----------------
The crowded Fall 1903 of ``tools/reference_maps.py`` (40 units, supports, a convoy, bounces, a
dislodgement) is adjudicated once (not timed).  Then, with ``time.perf_counter``:

1. the first picture in the process, which also reads the board's geometry and rasterises the
   layers that never change (borders, names, each province's mask): paid once per process;
2. ``render_svg`` alone, per picture;
3. seven PNG pictures, one per power, each with its own title (so no picture is a copy of
   another), one after the other: the figure the judge pays per phase;
4. for comparison, one PNG made by rasterising the whole SVG document with cairosvg
   (``svg_to_png``), which is what the cached layers avoid.

Each figure is the median over ``--rounds`` rounds (default 5).  Times are wall-clock on the
machine at hand and vary with its load; nothing here asserts on them.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from judge.engine.notation import position_from_data
from judge.engine.phases import adjudicate
from judge.render import render_svg
from judge.render.png import render_png, svg_to_png
from tools.reference_maps import MIDGAME


def timed(work: Callable[[], object]) -> float:
    start = time.perf_counter()
    work()
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--width", type=int, default=1200)
    args = parser.parse_args(argv)
    position, orders = position_from_data(MIDGAME)
    results = adjudicate(position, orders).results
    powers = list(position.game_map.powers)

    def one(power: str) -> bytes:
        return render_png(position, results, width=args.width, title=f"Bench game, map for {power.title()}")

    def seven() -> None:
        for power in powers:
            one(power)

    first = timed(lambda: one(powers[0]))
    svg_times, seq_times, whole_times = [], [], []
    for _ in range(args.rounds):
        svg_times.append(timed(lambda: render_svg(position, results, title="Bench game")))
        seq_times.append(timed(seven))
        whole_times.append(timed(lambda: svg_to_png(render_svg(position, results, title="Bench game"), args.width)))
    png_bytes = len(one(powers[0]))
    svg_bytes = len(render_svg(position, results, title="Bench game"))
    print(
        f"picture: {args.width} px wide, {len(position.units)} units, {len(results)} orders; "
        f"PNG {png_bytes // 1024} KiB, SVG {svg_bytes // 1024} KiB"
    )

    def report(label: str, seconds: float, note: str = "") -> None:
        print(f"{label:<68}{seconds * 1000:8.1f} ms {note}")

    report("first picture in the process (loads the board, caches its layers):", first)
    report("render_svg, one picture:", statistics.median(svg_times))
    seven_total = statistics.median(seq_times)
    report("7 PNG pictures, one after the other:", seven_total, f"({seven_total / 7 * 1000:.1f} ms each)")
    report("1 PNG from the whole SVG with cairosvg (no cached layers):", statistics.median(whole_times))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
