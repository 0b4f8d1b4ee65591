"""Benchmark of a whole phase on the big boards: processed, and every power's results mail queued.

Run from the repository root::

    .venv/bin/python bench/phase_bench.py [BOARD ...] [--rounds N] [--offers N]

What it measures
----------------
Issue 26 asks that a 17-power World game's phase be processed and its 17 results mails with
maps queued in under 2 s, and what a phase costs with and without the maps.  For each board
(default: every board offered for games with ten powers or more), a game is created on a
temporary data directory (the judge of ``tests/support/harness.py``: SQLite, mail injected as
``judge inject`` does), every power joins and the game starts, and every power sends by mail
an offer sheet of ``--offers`` legal offers (default 20: each own unit twice, then other
powers' units, a savings line last) -- all that is set-up and not timed.  Then the phase is
processed at its deadline (``process_game``, as the clock does it), timed with
``time.perf_counter``: adjudication by Payola's order determination and the engine, the new
position stored, and one results mail per power plus the master's chart written to the outbox
in the same transaction, with the maps drawn (one PNG and SVG per power) when ``maps`` is on.
Sending them (the sender's work, apart from the phase) is not timed.

Each figure is the median over ``--rounds`` games (default 3), with maps and without; the
difference is what the pictures cost (drawn once a phase: every player gets the same three,
the orders and the new position as PNG, and the position as SVG).  Before them, a first game
with maps is timed apart: the first picture of a board in a process also reads its drawing
and rasterises the layers that never change, once per process (the daemon's applier and
clock run for months).  Times are wall-clock on the machine at hand and vary
with its load; nothing here asserts on them.  World and the other boards not yet drawn are
not offered for games and are skipped (``judge adjudicate`` and ``bench/payola_bench.py``
time their engine and order determination).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from judge.engine.legal import legal_orders
from judge.engine.map import available_maps, load_map
from judge.engine.position import Position
from judge.payola.offers import parse_sheet
from judge.service.running.app import process_game
from tests.support.harness import Judge

GM = "gm@example.org"


def offer_sheet(rng: random.Random, position: Position, power: str, lines: int) -> str:
    """About ``lines`` legal offers: each of the power's units twice, then other powers' units."""
    own = sorted(p for p, unit in position.units.items() if unit.power == power)
    others = sorted(p for p in position.units if p not in own)
    sheet = []
    for i in range(lines - 1):
        province = own[i % len(own)] if i < 2 * len(own) else rng.choice(others)
        order = rng.choice(legal_orders(position, province))
        sheet.append(f"{rng.randint(1, 3)} {rng.choice(':::!>')} {order}")
    sheet.append("1 $")
    text = "\n".join(sheet)
    _, errors = parse_sheet(text, position, power)
    assert not errors, errors
    return text


def one_phase(board: str, maps: bool, offers: int, seed: int) -> float:
    """Seconds to process one phase of a new game on ``board`` with every power's sheet in."""
    rng = random.Random(seed)
    the_map = load_map(board)
    position = Position.initial(the_map)
    with tempfile.TemporaryDirectory(prefix="judge-phase-bench-") as folder:
        judge = Judge(Path(folder), maps=maps)
        judge.send(GM, f"CREATE g1 gm-secret {board}")
        for power in the_map.powers:
            judge.send(f"{power.lower()}@example.org", f"JOIN g1 pw-{power.lower()} {power}")
        judge.send(GM, "SIGNON MASTER@g1 gm-secret\nSTART")
        powers = list(the_map.powers)
        for power in powers[:-1]:  # the last sheet would complete the phase: the deadline does it
            letter = the_map.powers[power].letter
            sheet = offer_sheet(rng, position, power, offers)
            judge.send(f"{power.lower()}@example.org", f"SIGNON {letter}g1 pw-{power.lower()}\n{sheet}")
        start = time.perf_counter()
        summary = process_game(judge.db, judge.settings, "g1", judge.now, force=True)
        elapsed = time.perf_counter() - start
        assert " processed" in summary, summary
        return elapsed


def main(argv: list[str] | None = None) -> int:
    big = [name for name in available_maps() if len(load_map(name).powers) >= 10 and name != "void"]
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("boards", nargs="*", metavar="BOARD", help=f"default: {', '.join(big)}")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--offers", type=int, default=20)
    args = parser.parse_args(argv)
    print(
        f"{'board':<18}{'powers':>7}{'units':>7}  {'without maps':>13}  {'with maps':>10}  {'maps':>8}"
        f"  {'first in process':>16}"
    )
    for board in args.boards or big:
        if board not in available_maps():
            print(f"{board:<18}  not offered for games (no drawing yet): skipped")
            continue
        the_map = load_map(board)
        units = sum(len(info.start_units) for info in the_map.powers.values())
        first = one_phase(board, True, args.offers, seed=-1)  # reads the drawing, rasterises its layers
        plain = statistics.median(one_phase(board, False, args.offers, seed) for seed in range(args.rounds))
        drawn = statistics.median(one_phase(board, True, args.offers, seed) for seed in range(args.rounds))
        print(
            f"{board:<18}{len(the_map.powers):>7}{units:>7}  {plain * 1000:>10.0f} ms  {drawn * 1000:>7.0f} ms"
            f"  {(drawn - plain) * 1000:>5.0f} ms  {first * 1000:>12.0f} ms"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
