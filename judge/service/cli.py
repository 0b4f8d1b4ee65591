"""The ``judge`` command line: the one place where input, output and the core meet."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import IO, Any

from judge.engine.notation import NotationError, position_from_data, result_to_data
from judge.engine.phases import adjudicate
from judge.payola.notation import payola_from_data
from judge.service.app import inject, open_database, process_game, utcnow
from judge.service.config import Settings


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


def _service(args: argparse.Namespace) -> int:
    """``judge inject`` and ``judge process`` on the configured database and Maildir."""
    settings = Settings(data_dir=args.data_dir, database_url=args.database, domain=args.domain)
    try:
        db = open_database(settings)
        if args.command == "process":
            print(process_game(db, settings, args.game, utcnow(), force=args.force))
            return 0
        for name in args.files:
            status = inject(db, settings, Path(name).read_bytes(), utcnow())
            print(f"{name}: {status}")
    except OSError as exc:
        print(f"judge: {exc}", file=sys.stderr)
        return 1
    print(f"outgoing mail: {settings.maildir.resolve()}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="judge", description="A Payola Diplomacy judge.")
    commands = parser.add_subparsers(dest="command", required=True)
    adj = commands.add_parser("adjudicate", help="adjudicate a phase given as JSON (see README)")
    adj.add_argument("file", nargs="?", help="JSON input (default: standard input)")
    adj.add_argument("--jsonl", action="store_true", help="one JSON object per line in and out")
    pay = commands.add_parser("payola", help="determine orders from offer sheets given as JSON (see README)")
    pay.add_argument("file", nargs="?", help="JSON input (default: standard input)")
    pay.add_argument("--jsonl", action="store_true", help="one JSON object per line in and out")
    inject = commands.add_parser("inject", help="process one raw mail (.eml) as if it had arrived")
    inject.add_argument("files", nargs="+", help="raw mail files, processed in order")
    process = commands.add_parser("process", help="process a game's phase if its deadline has passed")
    process.add_argument("game")
    process.add_argument("--force", action="store_true", help="process now, due or not")
    for sub in (inject, process):
        sub.add_argument("--data-dir", type=Path, default=Path("judge-data"),
                         help="where the SQLite database and the Maildir live (default ./judge-data)")
        sub.add_argument("--database", help="SQLAlchemy URL (default: SQLite in the data directory)")
        sub.add_argument("--domain", default="localhost", help="mail domain: the judge is judge@DOMAIN")
    args = parser.parse_args(argv)
    if args.command in ("inject", "process"):
        return _service(args)
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
