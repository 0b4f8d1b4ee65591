"""``judge map``: draw a `judge adjudicate` input or output as SVG or PNG, for tools.

An input (a position with ``orders``) is adjudicated and drawn with its orders, failed
ones marked; ``--orders-only`` draws the orders as given.  An output (it has
``results``) describes the position after the phase: that is what is drawn.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from judge.engine.notation import NotationError, position_from_data
from judge.engine.phases import adjudicate
from judge.render.board import BoardError
from judge.render.svg import render_svg


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="judge map",
        description="Draw a `judge adjudicate` input (with its orders) or output (the position after it).",
    )
    parser.add_argument("file", nargs="?", help="JSON input or output of `judge adjudicate` (default: standard input)")
    parser.add_argument("--png", action="store_true", help="write PNG instead of SVG")
    parser.add_argument("-o", "--output", metavar="FILE", help="write to FILE (default: standard output)")
    parser.add_argument("--width", type=int, help="PNG width in pixels (default: 1200, 1920 for World)")
    parser.add_argument("--title", help="the game's name, shown before the phase")
    parser.add_argument("--date", help="text shown at the right of the title bar, e.g. the deadline")
    parser.add_argument("--orders-only", action="store_true", help="draw an input's orders without adjudicating")
    return parser


def _read(path: str | None) -> Any:
    if path is None:
        return json.load(sys.stdin)
    with open(path, encoding="utf-8") as handle:
        return json.load(handle)


def main(argv: list[str]) -> int:
    """Run ``judge map`` with ``argv`` (the arguments after ``map``); 0 on success, 1 on bad input."""
    args = _parser().parse_args(argv)
    if args.width is not None and not 16 <= args.width <= 10000:
        print("judge map: --width must be between 16 and 10000 pixels", file=sys.stderr)
        return 1
    if args.png:
        try:
            from judge.render.png import render_png
        except (ImportError, OSError) as exc:  # no libcairo2: cairocffi cannot load it
            print(f"judge map: --png needs the Cairo library (apt-get install libcairo2): {exc}", file=sys.stderr)
            return 1
    try:
        data = _read(args.file)
        position, orders = position_from_data(data)
        is_output = isinstance(data, dict) and "results" in data
        drawn = None if is_output else orders if args.orders_only else adjudicate(position, orders).results
        options = {"title": args.title, "date": args.date}
        picture: bytes = (
            render_png(position, drawn, width=args.width, **options)
            if args.png
            else render_svg(position, drawn, **options).encode("utf-8")
        )
    except OSError as exc:
        print(f"judge map: cannot read {args.file}: {exc.strerror}", file=sys.stderr)
        return 1
    except json.JSONDecodeError as exc:
        print(f"judge map: malformed JSON: {exc.msg} at line {exc.lineno} column {exc.colno}", file=sys.stderr)
        return 1
    except (NotationError, BoardError) as exc:
        print(f"judge map: {exc}", file=sys.stderr)
        return 1
    if args.output:
        with open(args.output, "wb") as handle:
            handle.write(picture)
    else:
        sys.stdout.buffer.write(picture)
        sys.stdout.buffer.flush()
    return 0
