"""The ``judge`` command line: the one place where input, output and the core meet."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from typing import IO, Any

from judge.engine.notation import NotationError, position_from_data, result_to_data
from judge.engine.phases import adjudicate
from judge.payola.notation import payola_from_data


def adjudicate_data(data: Any) -> dict[str, Any]:
    """One `judge adjudicate` request: a position with orders in, the phase result out."""
    position, orders = position_from_data(data)
    return result_to_data(adjudicate(position, orders))


def _answer(handler: Callable[[Any], dict[str, Any]], text: str) -> tuple[dict[str, Any], bool]:
    """Handle one JSON request; any failure becomes ``{"error": ...}`` (never a traceback)."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        return {"error": f"malformed JSON: {exc.msg} at line {exc.lineno} column {exc.colno}"}, False
    try:
        return handler(data), True
    except (NotationError, ValueError) as exc:
        return {"error": str(exc)}, False
    except Exception as exc:
        return {"error": f"internal error ({type(exc).__name__}): {exc}"}, False


def run_json(handler: Callable[[Any], dict[str, Any]], source: IO[str], out: IO[str], jsonl: bool) -> int:
    """Run requests from ``source``: one JSON object, or one per line with ``jsonl``."""
    if not jsonl:
        answer, ok = _answer(handler, source.read())
        out.write(json.dumps(answer) + "\n")
        return 0 if ok else 1
    for line in source:
        if line.strip():
            answer, _ = _answer(handler, line)
            out.write(json.dumps(answer) + "\n")
            out.flush()
    return 0


def _open(path: str | None) -> IO[str]:
    return sys.stdin if path in (None, "-") else open(path, encoding="utf-8")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="judge", description="A Payola Diplomacy judge.")
    commands = parser.add_subparsers(dest="command", required=True)
    adj = commands.add_parser("adjudicate", help="adjudicate a phase given as JSON (see README)")
    adj.add_argument("file", nargs="?", help="JSON input (default: standard input)")
    adj.add_argument("--jsonl", action="store_true", help="one JSON object per line in and out")
    pay = commands.add_parser("payola", help="determine orders from offer sheets given as JSON (see README)")
    pay.add_argument("file", nargs="?", help="JSON input (default: standard input)")
    pay.add_argument("--jsonl", action="store_true", help="one JSON object per line in and out")
    args = parser.parse_args(argv)
    handlers = {"adjudicate": adjudicate_data, "payola": payola_from_data}
    if args.command in handlers:
        try:
            source = _open(args.file)
        except OSError as exc:
            print(json.dumps({"error": f"cannot read {args.file}: {exc.strerror}"}))
            return 1
        with source:
            return run_json(handlers[args.command], source, sys.stdout, args.jsonl)
    return 2


if __name__ == "__main__":
    raise SystemExit(main())
