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
   (``svg_to_png``), which is what the cached layers avoid;
5. a results mail's pictures (the orders as adjudicated and the board after, PNG, and the board
   as SVG: what `judge.games.payola.maps.phase_maps` draws) in one language, and in three
   (English, Italian, French: a game whose players read three languages draws each picture once
   per language, issue 72), each from a cleared `DRAWN` but with each language's board layers
   already made (paid once per process), and the ratio of the two;
6. encoding one composed picture (`judge.render.png.encode_png`: the picture's own flat colours
   and 16 shades for its edges, each pixel given the nearest, zlib at level 5) against the
   encoder of issue 26.4 (Pillow's fast octree over every pixel, zlib at level 6), by turns on
   the same picture, with each one's bytes and its worst pixel against the full-colour picture.

Each figure is the median over ``--rounds`` rounds (default 5).  Times are wall-clock on the
machine at hand and vary with its load; nothing here asserts on them.
"""

from __future__ import annotations

import argparse
import io
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PIL import Image, ImageChops

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from judge.engine.notation import position_from_data
from judge.engine.phases import adjudicate
from judge.language import reading
from judge.render import png as pictures
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
    outcome = adjudicate(position, orders)
    results = outcome.results
    powers = list(position.game_map.powers)

    def one(power: str) -> bytes:
        pictures.DRAWN.clear()  # drawn, not remembered from the round before (`picture_to_png`)
        return render_png(position, results, width=args.width, title=f"Bench game, map for {power.title()}")

    def seven() -> None:
        for power in powers:
            one(power)

    first = timed(lambda: one(powers[0]))
    svg_times, seq_times, whole_times = [], [], []
    for _ in range(args.rounds):
        pictures.DRAWN.clear()  # drawn, not remembered: a picture's marks are kept for its other languages
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
    languages(position, results, outcome.position, args.width, args.rounds)
    encoding(position, results, args.rounds * 4)
    return 0


LANGUAGES = ("en", "it", "fr")


def languages(position: Any, results: Any, after: Any, width: int, rounds: int) -> None:
    """Item 5: a results mail's pictures in one language, and in three."""

    def mail_pictures(language: str) -> None:
        with reading(language):
            render_png(position, results, width=width, title="Bench game S1901M")
            render_png(after, width=width, title="Bench game F1901M")
            render_svg(after, title="Bench game F1901M")

    def drawn_in(spoken: tuple[str, ...]) -> None:
        pictures.DRAWN.clear()
        for language in spoken:
            mail_pictures(language)

    drawn_in(LANGUAGES)  # each language's board layers, once per process
    one: list[float] = []
    three: list[float] = []
    for _ in range(rounds):
        one.append(timed(lambda: drawn_in(LANGUAGES[:1])))
        three.append(timed(lambda: drawn_in(LANGUAGES)))
    single, triple = statistics.median(one), statistics.median(three)
    print(f"{'a results mail' + chr(39) + 's pictures (2 PNG, 1 SVG), one language:':<68}{single * 1000:8.1f} ms")
    print(f"{'the same in three languages (en, it, fr):':<68}{triple * 1000:8.1f} ms "
          f"({triple / single:.2f}x one language)")


def octree_level6(surface: Any) -> bytes:
    """The encoder of issue 26.4: Pillow's fast octree over every pixel, zlib at level 6."""
    surface.flush()
    image = Image.frombuffer("RGB", (surface.get_width(), surface.get_height()), bytes(surface.get_data()),
                             "raw", "BGRX" if sys.byteorder == "little" else "XRGB", surface.get_stride(), 1)
    out = io.BytesIO()
    image.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE).save(out, "PNG", compress_level=6)
    return out.getvalue()


def encoding(position: Any, results: Any, rounds: int) -> None:
    """Item 5: the two encoders by turns on the same composed picture."""
    kept: list[Any] = []
    framed = pictures.encode_framed
    encode = pictures.encode_png

    def keeping(surface: Any, colours: Any, body: Any) -> bytes:
        kept.append((surface, colours))
        return framed(surface, colours, body)

    pictures.encode_framed = keeping
    pictures.DRAWN.clear()
    try:
        render_png(position, results, title="Bench game, map for France")
    finally:
        pictures.encode_framed = framed
    surface, colours = kept[0]
    surface.flush()
    full = Image.frombuffer("RGB", (surface.get_width(), surface.get_height()), bytes(surface.get_data()), "raw",
                            "BGRX" if sys.byteorder == "little" else "XRGB", surface.get_stride(), 1)

    def now(drawn: Any) -> bytes:
        return encode(drawn, colours)

    times: dict[str, list[float]] = {"now": [], "before": []}
    made: dict[str, bytes] = {}
    for _ in range(rounds):
        for label, encoder in (("now", now), ("before", octree_level6)):
            start = time.perf_counter()
            made[label] = encoder(surface)
            times[label].append(time.perf_counter() - start)
    for label in ("before", "now"):
        decoded = Image.open(io.BytesIO(made[label])).convert("RGB")
        extrema: Any = ImageChops.difference(full, decoded).getextrema()
        worst = max(high for _, high in extrema)
        print(f"encoding one picture, {label + ':':<8} {statistics.median(times[label]) * 1000:6.1f} ms, "
              f"{len(made[label]) // 1024} KiB, worst pixel {worst} levels off")
    print(f"  now / before: {statistics.median(times['now']) / statistics.median(times['before']):.2f}x the time, "
          f"{len(made['now']) / len(made['before']):.2f}x the bytes")


if __name__ == "__main__":
    raise SystemExit(main())
