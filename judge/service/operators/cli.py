"""The ``judge`` command line of the host: the one place where input, output and the service meet.

The host's commands are here: running the judge (``serve``, ``inject``, ``process``, ``tick``,
``demo``), the operator's (``status``, ``queue``, ``resend``, ``quarantine``, ``prune``, ``db``,
``backup``, ``restore``, ``copy-db``: carried out by `judge.service.operators.operator`) and the pages'
(``web``, ``publish``: `judge.web.cli`).  The games bring tools of their own (`Tool`: Payola's
``adjudicate``, ``orders``, ``payola`` and ``map``), which the composition root
(`judge.bootstrap`) hands to `main` with the kinds of game; a tool parses its own arguments and
imports only what it uses, so that a one-shot JSON call starts fast: the service (SQLAlchemy,
Alembic, aiosmtpd, Jinja2) is imported only by the commands that use it.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, TextIO, cast

if TYPE_CHECKING:
    from judge.service.config import Settings
    from judge.service.hosting.kinds import Kinds


@dataclass(frozen=True)
class Tool:
    """A game's subcommand: ``judge <name> ...``, whose arguments it reads itself."""

    name: str
    help: str
    main: Callable[[list[str]], int]


def json_tool(name: str, help: str, handler: Callable[[Any], dict[str, Any]]) -> Tool:
    """A tool that answers JSON requests with ``handler``: one object from a file or standard
    input, or one per line with ``--jsonl`` (`run_json`)."""

    def run(arguments: list[str]) -> int:
        parser = argparse.ArgumentParser(prog=f"judge {name}", description=help)
        parser.add_argument("file", nargs="?", help="JSON input (default: standard input)")
        parser.add_argument("--jsonl", action="store_true", help="one JSON object per line in and out")
        args = parser.parse_args(arguments)
        try:
            source = _open(args.file)
        except OSError as exc:
            print(json.dumps({"error": f"cannot read {args.file}: {exc.strerror}"}))
            return 1
        with source:
            return run_json(handler, source, sys.stdout, args.jsonl)

    return Tool(name, help, run)


def _answer(handler: Callable[[Any], dict[str, Any]], text: str) -> tuple[dict[str, Any], bool]:
    """Handle one JSON request; any failure becomes ``{"error": ...}`` (never a traceback)."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        return {"error": f"malformed JSON: {exc.msg} at line {exc.lineno} column {exc.colno}"}, False
    try:
        return handler(data), True
    except ValueError as exc:  # a request the tool could not read (the engine's NotationError is one)
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


def _settings(args: argparse.Namespace) -> Settings:
    from judge.service.config import load_settings

    names = ("data_dir", "database", "domain", "host", "port", "relay", "log_file")
    overrides = {name: getattr(args, name, None) for name in names}
    if getattr(args, "relay_starttls", False):
        overrides["relay_starttls"] = True
    return load_settings(args.config, overrides=overrides)


def _service(args: argparse.Namespace, kinds: Callable[[], Kinds]) -> int:
    """The commands that work on a judge's database: inject, process, tick, serve."""
    from judge.service import collector
    from judge.service.clock import now_on
    from judge.service.config import ConfigError
    from judge.service.datadir import REFUSED, OperatorError, RootRefused, data_dir_lock, refuse_root
    from judge.service.logs import log_to
    from judge.service.outgoing.sender import deliver_pending, transport_for
    from judge.service.running.app import inject, open_database, process_game
    from judge.service.running.listening import timer_tick

    try:
        settings = _settings(args)
        refuse_root(settings)
        if args.command == "serve":  # its listener and workers imported for it alone: a tick starts without them
            from judge.service.running.daemon import serve

            serve(settings, kinds())
            return 0
        if args.command == "tick":  # for a timer or cron: quiet when nothing happened, each line timestamped
            repeats = log_to()  # what the work logs: a phase processed (with its cause), a migration
            try:
                with data_dir_lock(settings.data_dir, alone=False):
                    db = open_database(settings, kinds())
                    collector.long_lived()
                    now = now_on(db)
                    lines = [line for line in timer_tick(db, settings, now)
                             if (" is not due " not in line or "notices" in line) and " processed" not in line]
                    sent = deliver_pending(db, settings, transport_for(settings), now_on(db))
            finally:
                repeats.flush()
            lines += [f"{sent} mail(s) sent to {settings.relay or settings.maildir.resolve()}"] if sent else []
            for line in lines:
                print(f"{now:%Y-%m-%d %H:%M:%S} UTC {line}")
            return 0
        db = open_database(settings, kinds())
        collector.long_lived()
        if args.command == "process":
            print(process_game(db, settings, args.game, now_on(db), force=args.force))
        else:
            for name in args.files:
                print(f"{name}: {inject(db, settings, Path(name).read_bytes(), now_on(db))}")
        sent = deliver_pending(db, settings, transport_for(settings), now_on(db))
        where = settings.relay or settings.maildir.resolve()
        print(f"{sent} mail(s) sent to {where}")
    except RootRefused as exc:
        print(f"judge: {exc}", file=sys.stderr)
        return REFUSED
    except (OSError, ConfigError, OperatorError) as exc:
        print(f"judge: {exc}", file=sys.stderr)
        return 1
    except ImportError as exc:  # the database's driver: PostgreSQL's comes with the postgres extra
        print(f"judge: the database's driver {exc.name} is not installed (pip install '.[postgres]' for PostgreSQL)",
              file=sys.stderr)
        return 1
    return 0


def _help(args: argparse.Namespace, kinds: Callable[[], Kinds]) -> int:
    """``judge help``: the HELP mail this judge sends, which names the documentation's address when
    the operator set one (``docs-url``), and that address again on its last line."""
    from judge.service.config import ConfigError
    from judge.service.incoming.help_topics import help_mail

    try:
        settings = _settings(args)
    except ConfigError as exc:
        print(f"judge: {exc}", file=sys.stderr)
        return 1
    print(help_mail(settings, kinds()).rstrip())
    print()
    print(f"The documentation: {settings.docs_url}" if settings.docs_url else
          "No address of the documentation is set (docs-url); the docs/ folder of the source holds it.")
    return 0


def _operator(args: argparse.Namespace, kinds: Callable[[], Kinds]) -> int:
    """The operator's commands (`judge.service.operators.operator`)."""
    from judge.service.config import ConfigError
    from judge.service.operators.operator import main as operator_main

    try:
        settings = _settings(args)
    except ConfigError as exc:
        print(f"judge: {exc}", file=sys.stderr)
        return 1
    return operator_main(args, settings, kinds)


def _records(args: argparse.Namespace, kinds: Callable[[], Kinds]) -> int:
    """``judge export``, ``import`` and ``replay`` (`judge.service.operators.replay`)."""
    from judge.service.config import ConfigError
    from judge.service.operators.importing import command

    try:
        settings = _settings(args)
    except ConfigError as exc:
        print(f"judge: {exc}", file=sys.stderr)
        return 1
    return command(args, settings, kinds())


def _operator_commands(commands: Any) -> list[argparse.ArgumentParser]:
    """The operator's commands' parsers (docs/operators/commands.md)."""
    status = commands.add_parser("status", help="is the judge well? (exit status 1 when not: for monitoring)")
    status.add_argument("--max-age", type=float, default=60, metavar="MINUTES",
                        help="mail not yet sent after this long is a problem (default %(default)s)")
    status.add_argument("--min-free", type=float, default=200, metavar="MB",
                        help="less free space on the data directory's disk is a problem (default %(default)s)")
    queue = commands.add_parser("queue", help="list the outgoing mail not yet sent, with its last error")
    queue.add_argument("--state", choices=("drawing", "pending", "deferred", "sending", "failed", "sent", "all"),
                       help="only the mail in this state (default: all but sent)")
    queue.add_argument("--limit", type=int, default=100, help="list at most this many (default %(default)s)")
    resend = commands.add_parser("resend", help="send outgoing mail again now (numbers from judge queue)")
    resend.add_argument("ids", type=int, nargs="*", metavar="N", help="the mails to send again")
    resend.add_argument("--all", action="store_true", help="every mail not yet sent: failed or waiting to retry")
    resend.add_argument("--again", action="store_true", help="send a mail already sent a second time")
    quarantine = commands.add_parser("quarantine", help="list, show, retry or drop mail the judge could not apply")
    quarantine.add_argument("action", nargs="?", choices=("list", "show", "retry", "drop"), default="list",
                            help="list them (the default), show one, apply it again, or drop it")
    quarantine.add_argument("number", nargs="?", type=int, help="the mail's number (judge quarantine lists them)")
    quarantine.add_argument("--force", action="store_true", help="retry even what may no longer be meant")
    prune = commands.add_parser("prune", help="drop old mail's bulk: sent mail's text and attachments, received "
                                "mail's raw copy (never what a game needs)")
    prune.add_argument("--older-than", type=_days, default=30, metavar="DAYS",
                       help="only mail sent or applied more than DAYS ago (default %(default)s)")
    db = commands.add_parser("db", help="the database's schema: version, upgrade, downgrade (one step, or --to "
                             "a schema)")
    db.add_argument("action", choices=("version", "upgrade", "downgrade"),
                    help="print the schema's version and this judge's, upgrade it, or take it down one step")
    db.add_argument("--yes", action="store_true", help="really downgrade (the judge stopped, after a backup)")
    db.add_argument("--to", metavar="SCHEMA", help="downgrade down to this schema (an old release's, e.g. 0023), "
                    "every migration on the way in turn")
    backup = commands.add_parser("backup", help="write a checked backup of the judge's data into DIR/judge-<time>")
    backup.add_argument("folder", metavar="DIR", help="the folder the backups are kept in")
    backup.add_argument("--keep", type=int, metavar="N", help="then delete all but the newest N backups in DIR")
    restore = commands.add_parser("restore", help="put a backup back (the judge stopped), or --check it")
    restore.add_argument("backup", metavar="BACKUP", help="a folder made by judge backup (or a database URL to check)")
    restore.add_argument("--check", action="store_true", help="only open the backup and say what it holds")
    restore.add_argument("--no-resend-before", type=_utc_time, metavar="'YYYY-MM-DD HH:MM'",
                         help="the backup's mail waiting to go out that was queued before this time (UTC) is not "
                         "sent again, but marked failed (the judge that made the backup had most likely sent it)")
    restore.add_argument("--replacing", metavar="URL", help="PostgreSQL: the database the restore replaces (the "
                         "settings' before), whose games' later phases their players are told are played again")
    copy = commands.add_parser("copy-db", help="copy the judge's data into another, empty database")
    copy.add_argument("--from", dest="source", metavar="URL", help="the database to copy (default: the judge's)")
    copy.add_argument("--to", dest="target", metavar="URL", required=True, help="an empty database (or SQLite file)")
    export = commands.add_parser("export", help="write a game's record as JSON (docs/reference/game-record.md)")
    export.add_argument("game", help="the game's name")
    export.add_argument("--public", action="store_true",
                        help="only what its end publication shows (a finished game): safe to post")
    export.add_argument("--diplomacy", action="store_true",
                        help="its board history as the diplomacy package's saved game (Payola), for Diplomacy tools")
    export.add_argument("--output", "-o", type=Path, metavar="FILE", help="write it there (default: standard output)")
    imported = commands.add_parser("import", help="create a game on this judge from its record (judge export), "
                                   "its rows copied and checked, and carry it on")
    imported.add_argument("file", type=Path, metavar="FILE", help="the game's whole record")
    imported.add_argument("--replay", action="store_true",
                          help="first play every mail of it again on a judge of its own, each phase checked: the "
                               "proof that it was judged right (a record from elsewhere)")
    replayed = commands.add_parser("replay", help="play a game's record again and say any phase judged otherwise")
    replayed.add_argument("file", type=Path, metavar="FILE", help="the game's whole record")
    rated = commands.add_parser("ratings", help="list the players' ratings, or --rebuild them from the finished games")
    rated.add_argument("--rebuild", action="store_true",
                       help="forget every rating and rate every finished game again, in the order they ended")
    rated.add_argument("--kind", default="", metavar="KIND", help="the ratings in one kind of game (default: overall)")
    return [status, queue, resend, quarantine, prune, db, backup, restore, copy, export, imported, replayed, rated]


def _days(text: str) -> float:
    """A number of days, 0 or more (argparse's type for ``--older-than``)."""
    try:
        days = float(text)
    except ValueError:
        days = -1.0
    if not 0 <= days < 100_000:
        raise argparse.ArgumentTypeError(f"'{text}' is not a number of days (0 or more)")
    return days


def _utc_time(text: str) -> datetime:
    """A moment in UTC, ``YYYY-MM-DD HH:MM`` (argparse's type for ``--no-resend-before``)."""
    try:
        return datetime.strptime(text.strip(), "%Y-%m-%d %H:%M")
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a time written YYYY-MM-DD HH:MM (UTC)") from None


class _Version(argparse.Action):
    """``judge --version``: the release and how the core runs (read only when asked)."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, help="print the judge's version and exit")

    def __call__(self, parser: argparse.ArgumentParser, *_: Any) -> None:
        from judge import __version__, core_build

        print(f"payola-judge {__version__} ({core_build()})")
        parser.exit()


def _database_options(sub: argparse.ArgumentParser) -> None:
    sub.add_argument("--config", type=Path, help="TOML settings file (see deploy/judge.toml)")
    sub.add_argument("--data-dir", type=Path, help="the SQLite database and the Maildir (default ./judge-data)")
    sub.add_argument("--database", help="any SQLAlchemy URL, e.g. postgresql+psycopg://judge@/judge")
    sub.add_argument("--domain", help="mail domain: the judge is judge@DOMAIN (default localhost)")
    sub.add_argument("--relay", help="HOST:PORT of the SMTP relay for outgoing mail (default: the Maildir)")
    sub.add_argument("--relay-starttls", action="store_true", help="use STARTTLS with the relay")


def parser(kinds: Callable[[], Kinds], tools: Sequence[Tool] = (), *,
           kind_flags: bool = True) -> argparse.ArgumentParser:
    """The ``judge`` command's parser: the host's subcommands, and the games' ``tools`` and the pages' by name
    only (they read their own arguments).  The command-line reference is generated from it.  Without
    ``kind_flags`` it lacks ``judge demo``'s flag of each kind (``--pirates``): they import every kind, some
    two thirds of a second, which a command that reads no game (``judge --version``, ``judge db upgrade``,
    ``judge status``) need not wait for."""
    judge = argparse.ArgumentParser(prog="judge", description="A mail judge of Payola Diplomacy and other games.")
    judge.add_argument("--version", action=_Version)
    commands = judge.add_subparsers(dest="command", required=True)
    for tool in tools:
        commands.add_parser(tool.name, help=tool.help, add_help=False)
    serve_cmd = commands.add_parser("serve", help="run the judge: SMTP listener, sender and deadline clock")
    serve_cmd.add_argument("--host", help="address to listen on (default 127.0.0.1)")
    serve_cmd.add_argument("--port", type=int, help="port to listen on (default 2525)")
    serve_cmd.add_argument("--log-file", type=Path, help="write the log there, not to standard error (no systemd); "
                           "opened again when rotated, and SIGHUP no longer stops the judge")
    inject_cmd = commands.add_parser("inject", help="process raw mails (.eml) as if they had arrived")
    inject_cmd.add_argument("files", nargs="+", help="raw mail files, processed in order")
    process = commands.add_parser("process", help="process a game's phase if it is due")
    process.add_argument("game", help="the game's name")
    process.add_argument("--force", action="store_true", help="process now, due or not")
    tick_cmd = commands.add_parser("tick", help="run every game's deadline once (for cron)")
    demo = commands.add_parser("demo", help="play a short scripted game by SMTP on loopback and show it")
    demo.add_argument("--keep", action="store_true", help="keep the temporary data directory")
    demo.add_argument("--blind", action="store_true",
                      help="its variant with hidden boards, for a game that has one (each player sees only its part "
                      "of the board)")
    demo.add_argument("kind", nargs="?", help="the kind of game to play (default: the judge's default kind)")
    demo.add_argument("scenario", nargs="?", help="a scenario its demo can play besides its own (judge demo "
                      "machiavelli aop)")
    for kind in list(kinds())[1:] if kind_flags else ():  # judge demo --pirates, as judge demo pirates
        demo.add_argument(f"--{kind.name}", action="store_const", const=kind.name, dest="flagged",
                          help=f"play {kind.title}: judge demo {kind.name}")
    help_cmd = commands.add_parser("help", help="print the HELP mail this judge sends, and where its documentation is")
    operators = _operator_commands(commands)
    for sub in (serve_cmd, inject_cmd, process, tick_cmd, help_cmd, *operators):
        _database_options(sub)
    commands.add_parser("web", help="serve the games' public pages (<data-dir>/web) over HTTP, read-only")
    commands.add_parser("publish", help="write the games' public pages into <data-dir>/web")
    return judge


PIPE_CLOSED = 128 + signal.SIGPIPE  # the status a shell gives a program a closed pipe ended (141)


class ReaderGone(BaseException):
    """Standard output's reader has gone (``judge status | head``).  Not an OSError, as the
    BrokenPipeError it stands for is: a command answers those as failures of its own ("judge: [Errno
    32] Broken pipe"), and this passes them all, to `main`."""


class _Output:
    """Standard output, whose writes raise `ReaderGone` where they would raise BrokenPipeError."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        try:
            return self._stream.write(text)
        except BrokenPipeError:
            raise ReaderGone from None

    def flush(self) -> None:
        try:
            self._stream.flush()
        except BrokenPipeError:
            raise ReaderGone from None

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def main(argv: Sequence[str] | None, kinds: Callable[[], Kinds], tools: Sequence[Tool] = ()) -> int:
    """``judge ...``: the host's commands, and the games' ``tools``; ``kinds`` gives the kinds of
    game the judge hosts (asked for only by the commands that use them).  A reader that stops
    reading (``judge status | head``) ends the command as it ends a program of the system's, with
    no traceback: status `PIPE_CLOSED`, and nothing more written (Python ignores SIGPIPE, for the
    daemon's sockets, and raises BrokenPipeError at each write instead, the last one as it exits)."""
    output = sys.stdout
    sys.stdout = cast(TextIO, _Output(output))
    try:
        try:
            return _command(argv, kinds, tools)
        finally:
            sys.stdout.flush()  # here, where a closed pipe can be answered, not as the interpreter exits
    except ReaderGone:
        os.dup2(os.open(os.devnull, os.O_WRONLY), output.fileno())  # the exit's own flush finds nobody gone
        return PIPE_CLOSED
    finally:
        sys.stdout = output


def _command(argv: Sequence[str] | None, kinds: Callable[[], Kinds], tools: Sequence[Tool]) -> int:
    arguments = list(sys.argv[1:] if argv is None else argv)
    own = {tool.name: tool for tool in tools}
    if arguments[:1] and arguments[0] in own:  # a game's tool reads its own arguments
        return own[arguments[0]].main(arguments[1:])
    if arguments[:1] in (["web"], ["publish"]):  # their own parser: judge/web/cli.py
        from judge.web.cli import main as web_main

        return web_main(arguments, kinds)
    args = parser(kinds, tools, kind_flags=arguments[:1] == ["demo"]).parse_args(arguments)
    if args.command == "demo":
        from judge.service.operators.demo import run_demo

        if args.flagged and args.kind and not args.scenario:  # judge demo --machiavelli aop
            args.kind, args.scenario = None, args.kind
        scenario = {"scenario": args.scenario} if args.scenario else {}
        return run_demo(kinds(), keep=args.keep, blind=args.blind, kind=args.flagged or args.kind, **scenario)
    if args.command in ("serve", "inject", "process", "tick"):
        return _service(args, kinds)
    if args.command == "help":
        return _help(args, kinds)
    if args.command in ("export", "import", "replay"):
        return _records(args, kinds)
    return _operator(args, kinds)
