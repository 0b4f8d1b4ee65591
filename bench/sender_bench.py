"""The sender's CPU per mail of a deadline evening: building each queued mail's message and
writing it into the Maildir, as the judge's sender thread does once the games are processed.

Setup (not timed, with this tree): N games of the evening's mix (`evening_bench.prepare`:
Payola on the standard and big boards, Exchange, Machiavelli, Pirates; ``--games``, default 40),
their deadlines run in this process with maps on, so that the outbox holds the evening's mail,
the results with their maps (two PNGs and an SVG each), as the sender finds it.

Timed: a fresh copy of that data directory, sent by `judge.service.outgoing.sender.send_due` passes
until nothing is due, in a child process: the CPU of that process (``time.process_time``, its
threads' included: the fsyncs) over the passes, divided by the mails written.  Imports and
opening the database are not timed.  The peer is the same child run on the same copy with
``PYTHONPATH`` set to another tree of the judge (``--peer DIR``, or ``--peer-rev REV``: that
commit of this repository, unpacked by ``git archive``; default the commit before the sender's
work on this, ``7ca5797``).  Ours and the peer's run in turn, ``--rounds`` times (default 5);
the medians are printed, and the median of the rounds' ratios (a round's two runs close in time:
a shared machine's drift cancels).  Each run's Maildir is checked against the peer's:
the same rows must give the same bytes (the sender builds a mail again on every attempt).

``--profile FILE`` instead runs this tree's sender once under cProfile and writes its stats.

The first batch (`WARM_UP`, 20 mails) is sent before the timing starts, by ours and the peer
alike: a deadline evening's thousands of mails pay the first use of each library once.

Measured on the 2-core machine of issue 59 (load average 0.6), 40 games (320 mails, 306 of them
with maps; 300 timed), 7 rounds: ours 2.41 ms a mail, the peer 3.88 ms (medians); the rounds'
ratios 0.58 to 0.67, median 0.60x.  While the machine ran at half its speed (others' work), 0.55x
to 0.76x (medians of 5 and 7 rounds), ours 4.6 to 5.8 ms.  What
is left of ours, roughly: claiming and loading a batch's rows with their files 0.5 ms a mail,
writing the Maildir 0.5 (the kernel's copy of 640 KB and the fsyncs), each map's base64 once a
game 0.35, the rest of building the message 0.5, recording it sent 0.1.

Run: .venv/bin/python bench/sender_bench.py [--games 40] [--rounds 5] [--peer DIR | --peer-rev REV]
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path

HERE = Path(__file__).resolve().parent
WARM_UP = 20  # mails sent before the timing starts (a batch): the evening's thousands pay their first use once
ROOT = HERE.parent


def setup(data_dir: Path, games: int) -> int:
    """The evening's games prepared and their deadlines run, maps on; how many mails are due."""
    from evening_bench import prepare, set_deadline, utcnow  # a sibling script: the evening's games
    from sqlalchemy import func, select

    from judge.bootstrap import open_database
    from judge.service.running.app import process_game
    from judge.store.models import Outbox

    seats, settings = prepare(data_dir, None, games)
    settings = dataclasses.replace(settings, maps=True, web=False)
    now = utcnow()
    set_deadline(settings, sorted(seats), now - timedelta(seconds=1))
    db = open_database(settings)
    for name in sorted(seats):
        process_game(db, settings, name, now)
    with db.transaction() as session:
        due = int(session.scalar(select(func.count()).where(Outbox.status == "pending")) or 0)
    db.engine.dispose()
    return due


def send(data_dir: Path, profile: str | None) -> dict[str, float]:
    """The child: every due mail of ``data_dir`` sent into its Maildir; the CPU it took."""
    from evening_bench import utcnow

    from judge.bootstrap import open_database
    from judge.service.config import Settings
    from judge.service.outgoing import sender

    settings = Settings(data_dir=data_dir, maps=True, web=False)
    db = open_database(settings)
    transport = sender.transport_for(settings)
    profiler = None
    if profile:
        import cProfile
        profiler = cProfile.Profile(time.process_time)
        profiler.enable()
    sender.send_due(db, settings, transport, utcnow(), WARM_UP)  # not timed: the first use of each library
    began = time.process_time()
    mails = 0
    while True:
        done = sender.send_due(db, settings, transport, utcnow())
        mails += done.sent
        if not done.more:
            break
    cpu = time.process_time() - began
    if profiler is not None and profile:
        profiler.disable()
        profiler.dump_stats(profile)
    db.engine.dispose()
    return {"cpu": cpu, "mails": mails}


def written(data_dir: Path) -> list[str]:
    """The SHA-256 of every message in ``data_dir``'s Maildir, sorted: what two runs must share."""
    return sorted(hashlib.sha256(path.read_bytes()).hexdigest() for path in (data_dir / "outbox" / "new").iterdir())


def child(tree: Path, snapshot: Path, work: Path) -> tuple[float, int, list[str]]:
    """One timed send of a fresh copy of ``snapshot`` by the judge in ``tree``: (CPU s, mails, what it wrote)."""
    shutil.rmtree(work, ignore_errors=True)
    shutil.copytree(snapshot, work)
    for path in work.rglob("*"):  # on disk before the child starts: its writes do not wait behind the copy's
        if path.is_file():
            descriptor = os.open(path, os.O_RDONLY)
            try:
                os.fsync(descriptor)
            finally:
                os.close(descriptor)
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tree), str(HERE)])}
    done = subprocess.run([sys.executable, __file__, "--send", str(work)], env=environment, check=True,
                          capture_output=True, text=True, cwd=tree)
    result = json.loads(done.stdout.strip().splitlines()[-1])
    return result["cpu"], int(result["mails"]), written(work)


def peer_tree(args: argparse.Namespace, tmp: Path) -> Path:
    if args.peer:
        return Path(args.peer).resolve()
    tree = tmp / "peer"
    tree.mkdir()
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", args.peer_rev], check=True, capture_output=True)
    subprocess.run(["tar", "-x", "-C", str(tree)], input=archive.stdout, check=True)
    return tree


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--peer", help="a tree of the judge to compare with")
    parser.add_argument("--peer-rev", default="7ca5797", help="a commit to compare with (default: %(default)s)")
    parser.add_argument("--profile", help="profile this tree's sender once and write its stats here")
    parser.add_argument("--send", help=argparse.SUPPRESS)  # the child's part
    args = parser.parse_args()
    if args.send:
        print(json.dumps(send(Path(args.send), args.profile)))
        return
    with tempfile.TemporaryDirectory(prefix="sender-bench-") as name:
        tmp = Path(name)
        snapshot = tmp / "snapshot"
        snapshot.mkdir()
        began = time.monotonic()
        due = setup(snapshot, args.games)
        with_maps = _with_maps(snapshot)
        print(f"setup: {args.games} games, {due} mails due ({with_maps} with maps), {time.monotonic() - began:.0f} s",
              flush=True)
        if args.profile:
            work = tmp / "work"
            shutil.copytree(snapshot, work)
            subprocess.run([sys.executable, __file__, "--send", str(work), "--profile", args.profile], check=True,
                           env={**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(HERE)])})
            print(f"profile written to {args.profile}")
            return
        peer = peer_tree(args, tmp)
        ours: list[float] = []
        theirs: list[float] = []
        for round_ in range(args.rounds):
            if round_ % 2:  # each goes first in every other round
                peer_cpu, peer_mails, peer_bytes = child(peer, snapshot, tmp / "theirs")
                cpu, mails, our_bytes = child(ROOT, snapshot, tmp / "ours")
            else:
                cpu, mails, our_bytes = child(ROOT, snapshot, tmp / "ours")
                peer_cpu, peer_mails, peer_bytes = child(peer, snapshot, tmp / "theirs")
            same = our_bytes == peer_bytes and mails == peer_mails == due - WARM_UP
            ours.append(cpu / mails * 1000)
            theirs.append(peer_cpu / peer_mails * 1000)
            print(f"round {round_ + 1}: ours {ours[-1]:.2f} ms a mail, peer {theirs[-1]:.2f} ms  "
                  f"({mails} mails; {'the same bytes' if same else 'DIFFERENT BYTES OR COUNTS'})", flush=True)
            if not same:
                sys.exit("the sender wrote other bytes than the peer's: stopped")
        mine, peers = statistics.median(ours), statistics.median(theirs)
        paired = statistics.median(o / p for o, p in zip(ours, theirs, strict=True))  # each round's pair: drift cancels
        print(f"sender CPU a mail (median of {args.rounds}): ours {mine:.2f} ms, peer ({peer}) {peers:.2f} ms; "
              f"ours / peer, the median of the rounds' ratios: {paired:.2f}x")


def _with_maps(data_dir: Path) -> int:
    import sqlite3
    with sqlite3.connect(data_dir / "judge.db") as connection:
        return int(connection.execute(
            "SELECT COUNT(DISTINCT outbox_id) FROM outbox_files JOIN outbox ON outbox.id = outbox_id"
            " WHERE outbox.status = 'pending'").fetchone()[0])


if __name__ == "__main__":
    main()
