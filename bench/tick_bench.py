"""Tick benchmark: a deadline tick over many idle games and a few due ones.

Setup (not timed): D games (``--due``, default 5) are created, joined and started by mail,
the way the judge runs them; then I idle games (``--idle``, default 10,000) are copied from the
first one, row for row, with a deadline a month away.  Timed: ``run_deadlines`` (what ``judge
tick`` and the daemon's clock run) at a moment when nothing is due, then at the deadline of the
D games, which are processed; then with twice as many due.  The cost of a tick should follow
the games that are due, not the games there are.  Beside it: the cost of visiting idle games
the way the tick did before ``games.next_due`` (each game opened and checked in its own
transaction), measured on ``--sample`` of them and multiplied out.  Nothing is asserted; the
script only prints numbers (target: a tick over 10,000 idle games under 50 ms).

SQLite always runs; PostgreSQL too with ``--postgres URL`` or ``JUDGE_BENCH_POSTGRES=URL``.

Run: .venv/bin/python bench/tick_bench.py [--idle 10000] [--due 5] [--postgres URL]
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from datetime import datetime, timedelta
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path

from load_bench import MX, fresh_postgres, vouched  # a sibling script: its MTA, a throwaway PostgreSQL database
from sqlalchemy import insert, select, text

from judge.bootstrap import open_database
from judge.games.payola.store import PayolaPhase
from judge.service.config import Settings
from judge.service.running.app import inject, process_game, run_deadlines
from judge.store.database import Database
from judge.store.models import ConfirmedAddress, Game, PhaseRow

START = datetime(2026, 3, 1, 9, 0)
DEADLINE = START + timedelta(hours=48)  # a movement phase's default length
GM = "gm@example.org"


def mail(sender: str, body: str) -> bytes:
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = sender, "judge@localhost", "bench"
    message["Message-ID"] = make_msgid(domain="example.org")
    message["Authentication-Results"] = vouched(sender)
    message.set_content(body)
    return message.as_bytes()


def start_games(db: Database, settings: Settings, names: list[str]) -> None:
    """Create, join (two players; the others are dummies) and start each game by mail, from
    addresses that confirmed they want the judge's mail before, in mail the judge's MTA vouches for."""
    with db.transaction() as session:
        known = set(session.scalars(select(ConfirmedAddress.address)))
        session.execute(insert(ConfirmedAddress), [
            {"address": address, "confirmed_at": START}
            for address in {GM, *(f"{p}.{name}@example.org" for name in names for p in "ab")} - known])
    for name in names:
        for sender, body in ((GM, f"CREATE {name} gm-pw"), (f"a.{name}@example.org", f"JOIN {name} a-pw FRANCE"),
                             (f"b.{name}@example.org", f"JOIN {name} b-pw GERMANY"),
                             (GM, f"SIGNON MASTER@{name} gm-pw\nSTART")):
            inject(db, settings, mail(sender, body), START)
    with db.transaction() as session:
        unstarted = set(session.scalars(select(Game.name).where(Game.name.in_(names), Game.state != "active")))
    if unstarted:  # a refused mail would leave the tick nothing due to time
        raise SystemExit(f"games not started by mail: {', '.join(sorted(unstarted))}")


def copy_idle(db: Database, template: str, count: int) -> None:
    """``count`` active games like ``template``, each with its open phase, due in a month."""
    later = DEADLINE + timedelta(days=30)
    with db.transaction() as session:
        game = session.scalars(select(Game).where(Game.name == template)).one()
        phase = session.scalars(select(PhaseRow).where(PhaseRow.game_id == game.id)).one()
        payola = session.scalars(select(PayolaPhase).where(PayolaPhase.phase_id == phase.id)).one()
        games = [{"name": f"idle{i}", "variant": game.variant, "options": game.options,
                  "state": "active", "gm_address": "idle-gm@example.org", "gm_password": game.gm_password,
                  "seed": i, "settings": game.settings, "phase": game.phase, "deadline": later,
                  "created_at": START - timedelta(days=30), "next_due": later - timedelta(hours=24)}
                 for i in range(count)]  # created long ago: the judge's hourly limit of CREATEs does not count them
        for chunk in range(0, count, 1000):
            ids = session.scalars(insert(Game).returning(Game.id, sort_by_parameter_order=True),
                                  games[chunk:chunk + 1000]).all()
            phase_ids = session.scalars(insert(PhaseRow).returning(PhaseRow.id, sort_by_parameter_order=True), [
                {"game_id": game_id, "name": phase.name, "position": phase.position, "seed": 0, "status": "open",
                 "opened_at": START} for game_id in ids]).all()
            session.execute(insert(PayolaPhase), [  # what Payola keeps of the phase: where its ledger starts
                {"phase_id": phase_id, "acceptance": payola.acceptance, "ledger_start": payola.ledger_start}
                for phase_id in phase_ids])


def timed_tick(db: Database, settings: Settings, now: datetime) -> tuple[float, list[str]]:
    started = time.perf_counter()
    lines = run_deadlines(db, settings, now)
    return time.perf_counter() - started, lines


def run(label: str, data_dir: Path, database: str | None, args: argparse.Namespace) -> None:
    print(f"== {label}: {args.idle} idle games, {args.due} then {2 * args.due} due")
    settings = Settings(data_dir=data_dir, database=database, maps=False, web=False,
                        max_creates_per_day=3 * args.due, mta_hostname=MX, mta_authenticates=True)
    db = open_database(settings)
    setup = time.perf_counter()
    start_games(db, settings, [f"due{i}" for i in range(args.due)])
    copy_idle(db, "due0", args.idle)
    if db.engine.dialect.name == "postgresql":  # statistics, as autovacuum keeps them: not those of an empty table
        with db.engine.begin() as connection:
            connection.execute(text("ANALYZE"))
    print(f"  setup: {time.perf_counter() - setup:.1f} s")

    idle, lines = timed_tick(db, settings, START + timedelta(hours=1))
    print(f"  tick, nothing due:        {idle * 1000:7.1f} ms, {len(lines)} games run   (target < 50 ms)")
    due, lines = timed_tick(db, settings, DEADLINE)
    processed = sum("processed" in line for line in lines)
    print(f"  tick, {args.due:2d} due:             {due * 1000:7.1f} ms, {len(lines)} games run, "
          f"{processed} processed ({due / max(1, len(lines)) * 1000:.1f} ms a game)")
    start_games(db, settings, [f"more{i}" for i in range(2 * args.due)])
    twice, lines = timed_tick(db, settings, DEADLINE)
    processed = sum("processed" in line for line in lines)
    print(f"  tick, {2 * args.due:2d} due:             {twice * 1000:7.1f} ms, {len(lines)} games run, "
          f"{processed} processed ({twice / max(1, len(lines)) * 1000:.1f} ms a game)")

    sample = [f"idle{i}" for i in range(min(args.sample, args.idle))]
    started = time.perf_counter()
    for name in sample:
        process_game(db, settings, name, START + timedelta(hours=1))
    each = (time.perf_counter() - started) / max(1, len(sample))
    print(f"  before next_due (every active game visited): {each * 1000:.2f} ms a game x {args.idle} "
          f"= {each * args.idle:.1f} s a tick (measured on {len(sample)})")
    db.engine.dispose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else None)
    parser.add_argument("--idle", type=int, default=10_000)
    parser.add_argument("--due", type=int, default=5)
    parser.add_argument("--sample", type=int, default=200, help="idle games visited the old way, to extrapolate")
    parser.add_argument("--postgres", default=os.environ.get("JUDGE_BENCH_POSTGRES"))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        run("SQLite", Path(tmp) / "sqlite", None, args)
        if args.postgres:
            with fresh_postgres(args.postgres) as url:
                run("PostgreSQL", Path(tmp) / "postgres", url, args)


if __name__ == "__main__":
    main()
