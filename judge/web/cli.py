"""``judge web`` and ``judge publish``: the public pages from the command line.

``judge publish [GAME]`` writes (again) every game's pages, or one game's, and the index into
``<data-dir>/web``; ``judge web`` serves that folder over HTTP (read-only, 127.0.0.1:8080 by
default; `judge.web.server`), after writing it with ``--publish``, and where ``web-url`` is an
HTTPS address answers the one-click links of observers' mail (`judge.web.unsubscribe`), writing to
the judge's database.  The ``trusted-clients`` (a
web server proxying to it on this machine) have no per-client cap.  Until the judge has
published its index (a fresh install: ``judge serve`` writes it at start), ``judge web`` serves
a placeholder index instead of failing, so that its unit does not restart in a loop.  While it
serves, ``<data-dir>/web-<port>.pid`` holds its process id, for its stop without systemd
(`judge.service.datadir.pid_file`); under its unit, whose data directory it may only read, there is none.
"""

from __future__ import annotations

import argparse
import contextlib
import signal
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING

from judge.service.config import ConfigError, Settings, load_settings

if TYPE_CHECKING:
    from judge.service.hosting.kinds import Kinds


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="judge", description="The games' public pages.")
    commands = parser.add_subparsers(dest="command", required=True)
    web = commands.add_parser("web", help="serve the public pages of <data-dir>/web over HTTP (read-only)")
    web.add_argument("--host", default="127.0.0.1", help="address to listen on (default %(default)s)")
    web.add_argument("--port", type=int, default=8080, help="port to listen on, 0 for any (default %(default)s)")
    web.add_argument("--publish", action="store_true", help="write every game's pages first")
    web.add_argument("--log-file", type=Path, help="write the log there, not to standard error (no systemd); "
                     "opened again when rotated")
    publish = commands.add_parser("publish", help="write the public pages into <data-dir>/web")
    publish.add_argument("game", nargs="?", help="only this game's pages (and the index)")
    for sub in (web, publish):
        sub.add_argument("--config", type=Path, help="TOML settings file (see deploy/judge.toml)")
        sub.add_argument("--data-dir", type=Path, help="the judge's data directory (default ./judge-data)")
        sub.add_argument("--database", help="any SQLAlchemy URL, e.g. postgresql+psycopg://judge@/judge")
    return parser


def _publish(settings: Settings, kinds: Kinds, game: str | None) -> int:
    from judge.service.datadir import refuse_root
    from judge.service.running.app import open_database
    from judge.web.pages import publish, publish_all, publish_feeds, publish_index, web_root

    refuse_root(settings)
    db = open_database(settings, kinds)
    if game is None:
        count = len(publish_all(db, settings, force=True)) - 1
    else:
        try:
            publish(db, settings, game, force=True)
        except LookupError as exc:
            print(f"judge publish: {exc}", file=sys.stderr)
            return 1
        publish_index(db, settings)
        publish_feeds(db, settings, [game.lower()])
        count = 1
    print(f"{count} game(s) published in {web_root(settings).resolve()}")
    return 0


def _serve(settings: Settings, host: str, port: int) -> int:
    from judge.peers import networks
    from judge.service.datadir import pid_file
    from judge.service.outgoing.one_click import base
    from judge.web.pages import placeholder_index, web_root
    from judge.web.server import make_server
    from judge.web.unsubscribe import OneClick

    folder = web_root(settings)
    if not (folder / "index.html").is_file():
        print(f"judge web: nothing is published in {folder.resolve()} yet: a placeholder stands in until the "
              "judge publishes its pages (judge serve does at start; or judge publish)", file=sys.stderr, flush=True)
    server = make_server(folder, host, port, trusted=networks(settings.trusted_clients),  # a proxy: no per-client cap
                         placeholder=placeholder_index(),
                         one_click=OneClick(settings.database_url) if base(settings) else None)

    def stop(_signal: int, _frame: FrameType | None) -> None:
        threading.Thread(target=server.shutdown).start()  # shutdown waits for serve_forever: not from its thread

    signal.signal(signal.SIGTERM, stop)
    bound_host, bound_port = server.server_address[:2]
    print(f"serving {folder.resolve()} at http://{bound_host!s}:{bound_port}/", flush=True)
    with contextlib.ExitStack() as held:
        try:  # its stop without systemd, as judge serve's (install.md, step 5)
            held.enter_context(pid_file(settings.data_dir / f"web-{bound_port}.pid"))
        except OSError as exc:  # a data directory it may only read (judge-web.service): its service manager stops it
            print(f"judge web: no pid file ({exc})", file=sys.stderr, flush=True)
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            pass
        finally:
            server.server_close()
    return 0


def main(argv: list[str], kinds: Callable[[], Kinds]) -> int:
    """Run ``judge web ...`` or ``judge publish ...`` (``argv`` starts with the command's name;
    ``kinds``: the kinds of game the judge hosts, whose pages ``publish`` writes)."""
    args = _parser().parse_args(argv)
    try:
        settings = load_settings(args.config, overrides={"data_dir": args.data_dir, "database": args.database})
        if args.command == "publish":
            return _publish(settings, kinds(), args.game)
        if args.log_file is not None:  # as judge serve's (install.md, step 5)
            from judge.service.logs import log_to

            log_to(args.log_file)
        if args.publish:
            _publish(settings, kinds(), None)
        return _serve(settings, args.host, args.port)
    except (OSError, ConfigError) as exc:
        print(f"judge {args.command}: {exc}", file=sys.stderr)
        return 1
