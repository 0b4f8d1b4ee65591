"""A deadline evening that goes wrong: a deadline worker stopped (SIGSTOP) inside its SQLite write
transaction, or the judge killed (kill -9) and started again, in the middle of the evening.

The evening is `evening_bench`'s (N games of a community's mix, every player's orders in, all due
at the same moment, maps on, a HELP probe every half second, `judge serve` as deployed on SQLite).
``--scenario stall``: ``--at`` seconds after the deadline, the bench looks in ``/proc/locks`` for the
deadline worker that holds SQLite's write lock (the write-ahead log's lock byte of ``judge.db-shm``),
stops it (SIGSTOP) while it holds it (it stops one and lets it go again until one is caught holding
the lock), and continues it ``--stop-for`` seconds later if it is still there.  ``--scenario kill``:
``--at`` seconds after the deadline, the judge's main process is killed (SIGKILL; its workers are
left to end by themselves) and the judge started again at once on the same port.

Printed: when the results mails to players came (the last one) and how many went without their maps
(a results mail under 20 KB, but Pirates' Proposal's, which has none); each game processed once
(one results mail to each player, as `evening_bench.check`); the HELP probes' answers (median,
99th percentile and longest), and those never answered; the peak memory of each main process; and
what the judges logged about it.
``--code PATH`` runs the judge of another tree (the code before a change) with ``PYTHONPATH``.

Run: .venv/bin/python bench/stall_bench.py --games 100 --scenario stall [--at 3 --stop-for 150]
     .venv/bin/python bench/stall_bench.py --games 100 --scenario kill [--at 10] [--code /tmp/before]
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from evening_bench import (
    LEAD,
    Reader,
    Run,
    Written,
    check,
    free_port,
    listening,
    load,
    niceness,
    peak_kb,
    percentile,
    platform,
    prepare,
    prober,
    probes_of,
    set_deadline,
    utcnow,
)
from evening_setup import MX

from judge.service.config import Settings

WITHOUT_MAPS = 20_000  # bytes: a results mail smaller than this carries no map (one with maps: about 550 KB)
MAPLESS = ("pirates",)  # the flavours of the mix whose results carry no map (`evening_setup.MIX`)


@dataclass
class Judge:
    process: subprocess.Popen[bytes]
    log: Path


def start(data_dir: Path, port: int, name: str, code: str | None) -> Judge:
    """``judge serve`` on ``data_dir`` as `evening_bench` starts it (maps and pages on), listening on ``port``."""
    config = data_dir / f"{name}.toml"
    config.write_text("[judge]\n" + "\n".join([
        f'data-dir = "{data_dir}"', f"port = {port}", "maps = true", "web = true", "tick-seconds = 60",
        f'mta-hostname = "{MX}"', "mta-authenticates = true", "max-replies-per-hour = 1000000"]) + "\n")
    log = data_dir / f"{name}.log"
    environment = {**os.environ, **({"PYTHONPATH": code} if code else {})}
    process = subprocess.Popen([sys.executable, "-m", "judge", "serve", "--config", str(config), "--log-file",
                                str(log)], start_new_session=True, env=environment)
    while not listening(port):
        if process.poll() is not None:
            raise SystemExit(f"the judge did not start: see {log}")
        time.sleep(0.02)
    return Judge(process, log)


def children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1]) == pid:
                    found.append(int(entry.name))
            except (OSError, IndexError):
                continue
    return found


def write_lock_holder(shm: Path) -> int | None:
    """The process holding the write lock of the SQLite database whose shared memory is ``shm``: a POSIX
    lock on byte 120 of it (the write-ahead log's WAL_WRITE_LOCK), as ``/proc/locks`` lists it."""
    try:
        inode = shm.stat().st_ino
    except FileNotFoundError:
        return None
    for line in Path("/proc/locks").read_text().splitlines():
        fields = line.split()
        if "->" in fields or len(fields) < 8 or fields[1] != "POSIX" or fields[3] != "WRITE":
            continue
        if int(fields[5].rsplit(":", 1)[1]) == inode and int(fields[6]) <= 120 <= int(fields[7]):
            return int(fields[4])
    return None


def stop_a_worker_holding_the_lock(judge: Judge, shm: Path, give_up: float) -> int | None:
    """Stop (SIGSTOP) a deadline worker of ``judge`` (a child at a lower priority) while it holds the write
    lock; its pid, or None if none was caught before ``give_up`` (``time.time``)."""
    while time.time() < give_up:
        holder = write_lock_holder(shm)
        if holder is not None and holder in children(judge.process.pid) and niceness(holder) > 0:
            os.kill(holder, signal.SIGSTOP)
            if write_lock_holder(shm) == holder:
                return holder
            os.kill(holder, signal.SIGCONT)
        time.sleep(0.001)
    return None


def alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return False


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--scenario", choices=("stall", "kill"), default="stall")
    parser.add_argument("--at", type=float, default=3.0, help="seconds after the deadline")
    parser.add_argument("--stop-for", type=float, default=150.0, help="seconds the worker stays stopped (stall)")
    parser.add_argument("--code", help="a tree of the judge to run instead (PYTHONPATH)")
    parser.add_argument("--timeout", type=float, default=600.0)
    parser.add_argument("--keep", help="a folder to keep the data directory and logs in")
    args = parser.parse_args()
    print(f"machine: {os.cpu_count()} cores, {platform()}; load {load()}; {utcnow():%Y-%m-%d %H:%M} UTC; "
          f"{args.scenario}, {args.games} games, code {args.code or 'this tree'}", flush=True)
    with tempfile.TemporaryDirectory() as name:
        data_dir = (Path(args.keep) if args.keep else Path(name)) / "data"
        data_dir.mkdir(parents=True)
        seats, settings = prepare(data_dir, None, args.games)
        deadline_epoch = time.time() + LEAD
        set_deadline(settings, list(seats), datetime.fromtimestamp(deadline_epoch, UTC).replace(tzinfo=None))
        port = free_port()
        judges = [start(data_dir, port, "judge", args.code)]
        reader = Reader(settings.maildir)
        spawn = multiprocessing.get_context("spawn")
        ours, theirs = spawn.Pipe()
        probing = spawn.Event()
        probe = spawn.Process(target=prober, args=(theirs, port, 0.5, probing, min(seats)), daemon=True)
        probe.start()
        expected = sum(seats.values())
        events: list[str] = []
        stopped: int | None = None
        continue_at = float("inf")
        peaks: list[float] = []
        try:
            time.sleep(max(0.0, deadline_epoch + args.at - time.time()))
            if args.scenario == "stall":
                stopped = stop_a_worker_holding_the_lock(judges[0], data_dir / "judge.db-shm", deadline_epoch + 120)
                if stopped is None:
                    events.append("no worker was caught holding the write lock")
                else:
                    continue_at = time.time() + args.stop_for
                    events.append(f"worker {stopped} stopped holding the write lock at "
                                  f"{time.time() - deadline_epoch:.1f} s")
            else:
                main_pid = judges[0].process.pid
                peaks.append(peak_kb(main_pid) / 1024)
                os.kill(main_pid, signal.SIGKILL)
                judges[0].process.wait()
                events.append(f"main process killed at {time.time() - deadline_epoch:.1f} s")
                judges.append(start(data_dir, port, "judge-again", args.code))
                events.append(f"judge started again, listening at {time.time() - deadline_epoch:.1f} s")
            limit = time.time() + args.timeout
            while time.time() < limit:
                time.sleep(0.25)
                if stopped is not None and not alive(stopped):
                    events.append(f"worker {stopped} gone at {time.time() - deadline_epoch:.1f} s")
                    stopped = None
                if stopped is not None and time.time() >= continue_at:
                    os.kill(stopped, signal.SIGCONT)
                    events.append(f"worker {stopped} continued at {time.time() - deadline_epoch:.1f} s")
                    stopped = None
                results = [w for w in reader.mails() if w.subject.endswith(" results") and not w.to.startswith("gm@")]
                if len(results) >= expected and stopped is None:
                    break
            time.sleep(3.0)  # the last probes' answers
            probing.set()
            peaks.append(peak_kb(judges[-1].process.pid) / 1024)
        finally:
            if stopped is not None:
                os.kill(stopped, signal.SIGCONT)
            for judge in judges:
                if judge.process.poll() is None:
                    judge.process.send_signal(signal.SIGTERM)
                    judge.process.wait(timeout=120)
            reader.close()
        sent = ours.recv() if ours.poll(60) else []
        probe.join(timeout=10)
        report(args, deadline_epoch, reader.mails(), sent, seats, settings, events, peaks,
               [judge.log for judge in judges])


def report(args: argparse.Namespace, deadline: float, mails: list[Written], sent: list[tuple[str, float, float, str]],
           seats: dict[str, int], settings: Settings, events: list[str], peaks: list[float], logs: list[Path]
           ) -> None:
    results = [w for w in mails if w.subject.endswith(" results") and not w.to.startswith("gm@")]
    times = sorted(w.at - deadline for w in results)
    bare = [w for w in results if w.size < WITHOUT_MAPS and not w.subject.split()[0].endswith(MAPLESS)]
    run = Run("SQLite", args.games, True, 1, load())
    per_game: dict[str, list[Written]] = {}
    for written in results:
        per_game.setdefault(written.subject.split()[0], []).append(written)
    check(run, seats, per_game, settings)
    for event in events:
        print(f"  {event}")
    print(f"  results to players: {len(results)} of {sum(seats.values())}, the last at "
          f"{times[-1] if times else float('nan'):.1f} s, half at {statistics.median(times) if times else 0:.1f} s; "
          f"{len(bare)} without maps")
    probes = probes_of(sent, mails)
    if probes.help:
        print(f"  HELP answered: {len(probes.help)}, median {statistics.median(probes.help):.2f} s, "
              f"p99 {percentile(probes.help, 0.99):.2f} s, longest {max(probes.help):.2f} s; "
              f"{probes.unanswered} probe(s) never answered")
    print("  peak memory of the main process(es): " + ", ".join(f"{mb:.0f} MB" for mb in peaks))
    for log in logs:
        for line in log.read_text().splitlines():
            if any(word in line for word in ("was killed", "left unfinished", "passed while", "ERROR",
                                             "Traceback", "without")):
                print(f"  {log.name}: {line[:220]}")
    for problem in run.problems[:10]:
        print(f"  PROBLEM {problem}")
    print(f"  load after {load()}", flush=True)


if __name__ == "__main__":
    main()
