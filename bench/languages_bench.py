"""What a language after the first costs a deadline: the evening's games processed with every player reading
English, and with a third of the players reading each of English, Italian and French, pair after pair.

Setup (not timed): the games of ``bench/evening_bench.py`` (`evening_setup`: its mix of every kind, each game played
by mail up to the phase it processes, every player's orders in), ``--games`` of them, prepared twice: every player
reading English, and a third of the players reading each language (`evening_setup.speak`, seeded: a game's
results are then written in two or three languages); every game due, taken in the same order in both (`unmeasured`);
then one run of each tree on English alone, so that its templates are compiled already, as a judge's are after its
first deadline (`warm`).

Timed: one ``judge tick`` process (``python -c``, the judge's own command in a loop until its outbox is empty: the
sender takes 200 mails a pass) on a fresh copy of a prepared data directory, maps on, pages on, no deadline
worker: the whole evening's work (the runs, the results mails and their maps in each language, the pages, the
sending into the Maildir) in one process, without the probes, the forks and the clocks that make
``evening_bench.py``'s figure move by a tenth from one run to the next.  Its CPU is the operating system's
accounting of the finished process (user + system: `os.wait4`).  The two configurations run in turn, thirds then
English alone, ``--pairs`` times, and the ratio thirds / English alone is taken pair by pair, so that the
machine's drift moves both sides of each pair.  The process's start-up (about a second) is in both.

The peer is English alone: issue 72 asks that the players' languages cost within 5% of it.  With ``--peer PATH``
(another source tree of the judge, put first on ``PYTHONPATH``), the peer tree's pairs are run in turn with this
code's, on copies of the same prepared games, and its ratio printed beside.

Printed: each configuration's median CPU (with the smallest and the largest), the median ratio (with its range),
and the results mails each run wrote (the same in every run of a configuration, or the run says so).

On a machine shared with other work a process's CPU moves by a tenth from one run to the next, more than the 5%
to be measured.  ``--instructions`` counts instead the instructions each run executes (Valgrind's cachegrind,
``--cache-sim=no``, about 30 times as long: give it ``--games`` 40), which the same code repeats to a ten-thousandth
whatever the machine's load: one run of each configuration at ``--games`` and one at half of it, a whole number of
the mix's 20 flavours each, and the per-game cost is the difference over the games between them (what a
process pays once, its start-up, each board's first drawing, each language's first message, cancels out).  A count
of instructions is not a time (a picture's compressing does more a cycle than the interpreter does): it says
which code does more, not by how much the evening takes longer.

Run: .venv/bin/python bench/languages_bench.py [--games 300] [--pairs 5] [--peer PATH]
     .venv/bin/python bench/languages_bench.py --instructions [--games 40] [--peer PATH]
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from datetime import timedelta
from pathlib import Path

from evening_bench import prepared, set_deadline, utcnow  # sibling scripts: the evening's games
from evening_setup import MX
from sqlalchemy import update

from judge.bootstrap import open_database
from judge.service.config import Settings
from judge.store.models import Game

ROOT = Path(__file__).resolve().parent.parent  # this code: the tree the bench is in

TICKS = """
import sqlite3, sys
from judge.bootstrap import main
config, database = sys.argv[1], sys.argv[2]
for _ in range(100):
    main(["tick", "--config", config])
    with sqlite3.connect(database) as connection:
        if not connection.execute("SELECT count(*) FROM outbox WHERE status != 'sent'").fetchone()[0]:
            break
"""
"""The timed process: ticks until every mail is sent (the sender takes at most 200 a pass)."""

CONFIGURATIONS = ("thirds", "en")


def prepare(root: Path, games: int) -> dict[str, Path]:
    """Each configuration's data directory, prepared and due, with its settings file: its folder."""
    folders = {}
    for languages in CONFIGURATIONS:
        folder = root / languages
        data = folder / "pristine"
        seats, settings, readers = prepared(data, None, games, languages)
        set_deadline(settings, list(seats), utcnow() - timedelta(seconds=5))
        unmeasured(settings)
        (folder / "judge.toml").write_text(
            f'[judge]\ndata-dir = "{folder / "data"}"\nmaps = true\nweb = true\nmta-hostname = "{MX}"\n'
            "mta-authenticates = true\nmax-replies-per-hour = 1000000\ndeadline-workers = 0\n")
        print(f"{languages}: {len(seats)} games, {sum(seats.values())} results mails to players; readers "
              + ", ".join(f"{language} {count}" for language, count in sorted(readers.items())), flush=True)
        folders[languages] = folder
    return folders


def unmeasured(settings: Settings) -> None:
    """Forget what each game's runs cost while it was prepared (`Game.run_cost`, seconds on the clock), by which a
    tick takes its due games in turn: both configurations then take them in one order, the games' names'.  Measured,
    they put the configurations' games in two orders drawn by the machine's noise, and the order decides how often
    a picture's body finds a raster of its size let go by another (`judge.render.png._Bodies`): 40 games less 20
    counted three new rasters of the standard map for a third of the players in each language and one for English
    alone: 2.4 M instructions a game of the 37.5 M the languages seemed to add, 1.4 M of it in clearing them."""
    db = open_database(settings)
    with db.transaction() as session:
        session.execute(update(Game).values(run_cost=None))
    db.engine.dispose()


def run(folder: Path, tree: Path | None, counted: bool = False) -> tuple[float, int]:
    """One ``judge tick`` process on a fresh copy of ``folder``'s games (of the code in ``tree``, or this one's):
    its CPU seconds, or with ``counted`` the instructions it executed (`cachegrind`), and the mails it wrote.  The
    process runs in ``folder``: run in a tree of the judge, ``python -c`` would import that tree's code first,
    whatever ``PYTHONPATH`` says (a peer measured as this code)."""
    data = folder / "data"
    shutil.rmtree(data, ignore_errors=True)
    shutil.copytree(folder / "pristine", data)
    environment = dict(os.environ, PYTHONPATH=str(tree or ROOT))
    environment["PYTHONHASHSEED"] = "0"  # the same sets iterated in the same order, run after run
    command = [sys.executable, "-c", TICKS, str(folder / "judge.toml"), str(data / "judge.db")]
    report = folder / "cachegrind.log"
    if counted:
        command = ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
                   f"--log-file={report}", *command]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=environment,
                               cwd=folder)
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode:
        raise SystemExit(f"judge tick on {folder.name} exited with {process.returncode}")
    written = len(list((data / "outbox" / "new").iterdir()))
    if counted:
        found = re.search(r"I\s+refs:\s+([\d,]+)", report.read_text())
        if found is None:
            raise SystemExit(f"cachegrind counted nothing: {report}")
        return float(found.group(1).replace(",", "")), written
    return usage.ru_utime + usage.ru_stime, written


def warm(trees: dict[str, Path | None], folder: Path) -> None:
    """One run of each tree, neither timed nor counted, before those that are: a judge keeps its templates
    compiled from one process to the next (`judge.service.templates.keep_compiled`), and the first process of a
    tree compiles them (0.35 G instructions), which would be charged to whichever configuration ran first (the
    difference over the games, ``--instructions``, put it all on thirds' smaller run: 1.12 where 1.16 was due)."""
    for tree in trees.values():
        run(folder, tree)


def spread(values: list[float], unit: str = "") -> str:
    return f"{statistics.median(values):.3f}{unit} ({min(values):.3f} to {max(values):.3f})"


def instructions(trees: dict[str, Path | None], games: int) -> None:
    """Each tree's instructions a game, in each configuration, and their ratio (see the module's docstring)."""
    if games % 40:
        raise SystemExit("--instructions wants --games a multiple of 40: it and its half each a whole mix")
    if shutil.which("valgrind") is None:
        raise SystemExit("--instructions needs Valgrind (valgrind on the PATH)")
    with tempfile.TemporaryDirectory(prefix="languages-bench-") as tmp:
        sizes = {size: prepare(Path(tmp) / str(size), size) for size in (games // 2, games)}
        warm(trees, sizes[games // 2]["en"])
        for name, tree in trees.items():
            each = {}
            for languages in CONFIGURATIONS:
                counts = {size: run(folders[languages], tree, counted=True)[0] for size, folders in sizes.items()}
                each[languages] = (counts[games] - counts[games // 2]) / (games // 2)
                print(f"{name}, {languages}: {counts[games // 2] / 1e9:.3f} G instructions for {games // 2} games, "
                      f"{counts[games] / 1e9:.3f} G for {games}: {each[languages] / 1e9:.4f} G a game", flush=True)
            print(f"{name}: instructions a game, thirds / English alone: {each['thirds'] / each['en']:.4f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int)
    parser.add_argument("--pairs", type=int, default=5)
    parser.add_argument("--peer", type=Path, help="another source tree of the judge, run in turn with this one")
    parser.add_argument("--instructions", action="store_true", help="count instructions (Valgrind), not CPU time")
    args = parser.parse_args()
    trees: dict[str, Path | None] = {"this code": None}
    if args.peer is not None:
        trees["peer"] = args.peer.resolve()
    if args.instructions:
        instructions(trees, args.games or 40)
        return
    with tempfile.TemporaryDirectory(prefix="languages-bench-") as tmp:
        folders = prepare(Path(tmp), args.games or 300)
        warm(trees, folders["en"])
        cpu: dict[tuple[str, str], list[float]] = {(tree, c): [] for tree in trees for c in CONFIGURATIONS}
        mails: dict[tuple[str, str], set[int]] = {key: set() for key in cpu}
        for pair in range(args.pairs):
            for name, tree in trees.items():
                for languages in CONFIGURATIONS:
                    seconds, written = run(folders[languages], tree)
                    cpu[(name, languages)].append(seconds)
                    mails[(name, languages)].add(written)
                print(f"pair {pair + 1}, {name}: thirds {cpu[(name, 'thirds')][-1]:.2f} s, English alone "
                      f"{cpu[(name, 'en')][-1]:.2f} s", flush=True)
        for name in trees:
            ratios = [a / b for a, b in zip(cpu[(name, "thirds")], cpu[(name, "en")], strict=True)]
            print(f"{name}: CPU English alone {spread(cpu[(name, 'en')], ' s')}, thirds "
                  f"{spread(cpu[(name, 'thirds')], ' s')}; thirds / English alone, pair by pair: {spread(ratios)}")
            for languages in CONFIGURATIONS:
                if len(mails[(name, languages)]) != 1:
                    print(f"  {name}, {languages}: the runs wrote different numbers of mails: "
                          f"{sorted(mails[(name, languages)])}")


if __name__ == "__main__":
    main()
