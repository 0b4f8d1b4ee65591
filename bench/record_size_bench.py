"""Benchmark of a large game's record read and imported: peak memory and seconds, beside the judge of
a git revision (the peer).

Run from the repository root::

    .venv/bin/python bench/record_size_bench.py [--megabytes 45 | --phases 1000] [--against REV]

What it measures
----------------
``judge import`` and ``judge replay`` read a record in bounded memory and time
(`judge.service.operators.record_bounds`): its size refused before it is read, its depth and numbers bounded
as it is parsed, then each field checked.  Set-up (timed, as the peer of nothing): a two-player
Payola game is played by mail on a temporary data directory (the judge of
``tests/support/harness.py``: SQLite, maps and pages off) in which France writes press to Germany
in mails as large as a judge takes (its ``max_size``, 256 KiB: each mail is kept, and so is the
press the judge sent), one every hour, until its whole record (``judge export``) is about
``--megabytes`` MB (default 45): a record of few, large strings.  With ``--phases N`` the game is
instead `record_bench.py`'s, its master's ``PROCESS`` sent N times (1,000 make a record of 45 MB of
2,001 phases, and take minutes to play): a record of many small objects.  The record is written
to a file as ``judge export -o`` writes it.

Then, each in a Python process of its own (its peak memory, ``VmHWM``, is its own: Linux), by this
checkout's judge and by the judge of ``--against`` (default: d492a55, before the bounds; checked out
with ``git archive`` into a temporary folder):

- ``read``: the file read as ``judge import`` reads it (`importing.read`: this judge's also checks
  its bounds, the peer's parses it whole);
- ``import``: read, checked and imported by copy on an empty judge (`importing.import_record`: the
  rows written, the game exported again and compared, the mails of the move queued);
- ``oversize``: a file of one byte more than a judge reads (``record_bounds.MAX_RECORD_BYTES``, sparse:
  it takes no disk), read as ``judge import`` reads it: this judge refuses it by its size, the peer
  reads and parses it.

Each line gives the seconds and the peak memory of each, and ours over the peer's.  Times are
wall-clock on the machine at hand and vary with its load; nothing here asserts on them.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from judge.service.hosting import archive
from judge.service.operators.record_bounds import MAX_RECORD_BYTES
from tests.support.harness import Judge, start_game

ROOT = Path(__file__).resolve().parent.parent
PEER = "d492a55"
PRESS = "SIGNON F@g1 alice-pw\nPRESS TO GERMANY\n{text}\nENDPRESS"
CHILD = r"""
import json, sys, time
from datetime import datetime
from pathlib import Path
import judge
from judge.bootstrap import kinds
from judge.service.operators import importing
from judge.service.running.app import open_database
from judge.service.config import Settings

step, path, folder = sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3])
began = time.perf_counter()
outcome = "done"
try:
    record = importing.read(path)
    if step == "import":
        settings = Settings(data_dir=folder, maps=False, web=False)
        db = open_database(settings, kinds())
        importing.import_record(db, settings, record, datetime(2026, 3, 1, 12, 0))
except Exception as exc:
    outcome = f"{type(exc).__name__}: {str(exc)[:60]}"
seconds = time.perf_counter() - began
peak = next(int(line.split()[1]) for line in Path("/proc/self/status").read_text().splitlines()
            if line.startswith("VmHWM:"))  # this process's own peak since its exec (ru_maxrss counts its fork's)
print(json.dumps({"seconds": seconds, "peak_mb": peak / 1024, "outcome": outcome, "judge": judge.__file__}))
"""


def made(folder: Path, megabytes: float) -> tuple[Path, float, int]:
    """The record file of a game played until its record is ``megabytes`` MB, the seconds it took,
    and how many mails of press it holds."""
    judge = Judge(folder / "first")
    began = time.perf_counter()
    start_game(judge, "g1")
    judge.confirmed("alice@example.org", "bob@example.org", "gm@example.org")
    text = ("Now hear this. " * 20_000)[:240_000]
    sent = 0
    size = 0
    while size < megabytes * 1e6:
        for _ in range(10):
            judge.later(1)
            judge.send("alice@example.org", PRESS.format(text=f"{sent}: {text}"))
            sent += 1
        with judge.db.transaction() as session:
            size = len(json.dumps(archive.export(session, judge.settings, "g1"), indent=1, ensure_ascii=False))
    with judge.db.transaction() as session:
        written = json.dumps(archive.export(session, judge.settings, "g1"), indent=1, ensure_ascii=False) + "\n"
    path = folder / "g1.json"
    path.write_text(written, encoding="utf-8")
    return path, time.perf_counter() - began, sent


def made_of_phases(folder: Path, phases: int) -> tuple[Path, float, int]:
    """The record file of `record_bench`'s game of ``phases`` PROCESSes, the seconds it took, and
    how many phases its record holds."""
    from record_bench import played

    judge, playing = played(folder / "first", phases)
    with judge.db.transaction() as session:
        record = archive.export(session, judge.settings, "g1")
    path = folder / "g1.json"
    path.write_text(json.dumps(record, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return path, playing, len(record["phases"])


def measured(source: Path, step: str, record: Path, folder: Path) -> dict[str, object]:
    """``step`` by the judge in ``source`` in a process of its own: its seconds and peak memory."""
    folder.mkdir(parents=True, exist_ok=True)
    environment = {**os.environ, "PYTHONPATH": str(source)}
    done = subprocess.run([sys.executable, "-c", CHILD, step, str(record), str(folder)], cwd=folder,
                          env=environment, capture_output=True, text=True, check=True)
    found: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    assert str(found["judge"]).startswith(str(source)), found  # the judge meant, not another on the path
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--megabytes", type=float, default=45.0)
    parser.add_argument("--phases", type=int, default=0, help="record_bench's game of so many PROCESSes instead")
    parser.add_argument("--against", default=PEER, help="the git revision of the peer (default: %(default)s)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary)
        record, playing, sent = made_of_phases(folder, args.phases) if args.phases else made(folder, args.megabytes)
        peer = folder / "peer"
        peer.mkdir()
        archived = subprocess.run(["git", "-C", str(ROOT), "archive", args.against, "judge"], capture_output=True,
                                  check=True).stdout
        subprocess.run(["tar", "-x", "-C", str(peer)], input=archived, check=True)
        oversize = folder / "oversize.json"
        with oversize.open("wb") as file:
            file.truncate(MAX_RECORD_BYTES + 1)
        game = f"a game of {sent} phases" if args.phases else f"a game of {sent} mails of press"
        print(f"{game}, played in {playing:.1f} s; its record {record.stat().st_size / 1e6:.1f} MB (the peer: the "
              f"judge of {args.against})")
        print(f"{'':10} {'ours s':>8} {'peer s':>8} {'ratio':>6}   {'ours MB':>8} {'peer MB':>8} {'ratio':>6}   "
              "outcome")
        for step, path in (("read", record), ("import", record), ("oversize", oversize)):
            ours = measured(ROOT, "import" if step == "import" else "read", path, folder / f"ours-{step}")
            theirs = measured(peer, "import" if step == "import" else "read", path, folder / f"peer-{step}")
            seconds = (float(str(ours["seconds"])), float(str(theirs["seconds"])))
            memory = (float(str(ours["peak_mb"])), float(str(theirs["peak_mb"])))
            print(f"{step:10} {seconds[0]:8.2f} {seconds[1]:8.2f} {seconds[0] / seconds[1]:6.2f}   "
                  f"{memory[0]:8.0f} {memory[1]:8.0f} {memory[0] / memory[1]:6.2f}   "
                  f"ours: {ours['outcome']}; peer: {theirs['outcome']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
