"""Benchmark of a long game's record: exported, replayed and imported.

Run from the repository root::

    .venv/bin/python bench/record_bench.py [--phases N]

What it measures
----------------
A game's record (`judge.service.hosting.archive`) must export and import in seconds for a game of
1,000 phases.  A two-player Payola game is created on a temporary data directory (the judge of
``tests/support/harness.py``: SQLite, mail injected as ``judge inject`` does, maps and pages
off), and its master sends ``PROCESS`` ``--phases`` times (default 1,000), an hour apart, each
closing the phase open (and any after it that close at once: about two phases a ``PROCESS``), with
a sheet from each player every spring: that is the set-up, timed too,
as the peer: what the judge spent playing the game by mail.  Then, each timed with
``time.perf_counter``: ``export`` (the whole record, as a dict, then written as JSON), ``replay``
(`judge.service.operators.replay.replay`: the record played again on an empty judge and compared phase by
phase), ``import`` (`judge.service.operators.importing.import_record` on a second empty judge: the record's
rows copied, the game exported again and compared with the record, then the new passwords) and
``import --replay`` (the same on a third empty judge, the game played again from its mail, checked,
then the new passwords).  Each import reads the record from its JSON text, as ``judge import``
does.  A replay plays every mail of the game again through the judge's own applier, so its cost
is the game's own; a copy writes rows, so its cost is the record's size; the ratio against the
first judge's playing says each.  Times are wall-clock on the machine at hand and vary with its
load; nothing here asserts on them.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from judge.service.hosting import archive
from judge.service.operators import importing, replay
from tests.support.harness import Judge, open_kinds_database, start_game

MASTER = "SIGNON MASTER@g1 gm-secret\nPROCESS"
SHEETS = {"alice@example.org": "SIGNON F@g1 alice-pw\n1 : A PAR H",
          "bob@example.org": "SIGNON G@g1 bob-pw\n1 : A MUN H"}


def played(folder: Path, phases: int) -> tuple[Judge, float]:
    """A game of ``phases`` phases played by mail on a judge in ``folder``, and the seconds it took."""
    judge = Judge(folder)
    began = time.perf_counter()
    start_game(judge, "g1")
    for _ in range(phases):
        judge.later(1)
        if _phase(judge).startswith("S"):
            for address, sheet in SHEETS.items():
                judge.send(address, sheet)
        judge.send("gm@example.org", MASTER)
    return judge, time.perf_counter() - began


def _phase(judge: Judge) -> str:
    from sqlalchemy import select

    from judge.store.models import Game

    with judge.db.transaction() as session:
        return session.scalars(select(Game.phase).where(Game.name == "g1")).one() or ""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--phases", type=int, default=1000)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        judge, playing = played(Path(folder) / "a", args.phases)
        began = time.perf_counter()
        with judge.db.transaction() as session:
            record = archive.export(session, judge.settings, "g1")
        text = json.dumps(record)
        exporting = time.perf_counter() - began
        began = time.perf_counter()
        differences = replay.replay(json.loads(text), judge.settings,
                                    lambda own: open_kinds_database(own, judge.kinds))
        replaying = time.perf_counter() - began
        other = Judge(Path(folder) / "b", now=judge.now)
        began = time.perf_counter()
        importing.import_record(other.db, other.settings, json.loads(text), judge.now)
        copying = time.perf_counter() - began
        third = Judge(Path(folder) / "c", now=judge.now)
        began = time.perf_counter()
        importing.import_record(third.db, third.settings, json.loads(text), judge.now, replay=True)
        importing_replayed = time.perf_counter() - began
    print(f"a game of {len(record['phases'])} phases, {len(record['mails'])} mails received, "
          f"{len(record['sent'])} sent; its record {len(text) / 1e6:.1f} MB of JSON")
    print(f"played by mail (the peer)  {playing:8.2f} s")
    print(f"export                      {exporting:8.2f} s   {exporting / playing:6.3f} x the play")
    print(f"replay                      {replaying:8.2f} s   {replaying / playing:6.3f} x the play"
          f"   ({'as recorded' if not differences else f'{len(differences)} differences'})")
    print(f"import (rows copied)        {copying:8.2f} s   {copying / playing:6.3f} x the play")
    print(f"import --replay             {importing_replayed:8.2f} s   {importing_replayed / playing:6.3f} x the play")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
