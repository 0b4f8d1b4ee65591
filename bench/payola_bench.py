"""Benchmark of Payola offer parsing and order determination (figures only; nothing is asserted).

*Worst case*: seven powers each send N offers (default 300) to random units of the Spring
1901 board, with random legal orders, offer types, repetitions and plateaus, and balances
far below what they offer, so that rule 5.5 needs dozens of reduction rounds (about 68),
with amounts reaching a plateau or zero in almost every round.  Parsing the seven sheets
(with a fresh :class:`PhaseReader`, as for a new phase) and order determination are timed
apart and together.  Targets (issue): determination under 10 ms, both under 15 ms.

*World*: the same worst case scaled to the largest board, World's start: seventeen powers
each send N offers to random units of its 51, balances again far below (about 72 rounds).
Target (issue 26): determination under 50 ms per phase in pure Python.  The sheets keep within
the judge's limits (:data:`judge.payola.offers.LIMITS`: at most 300 offers, 1,000 amounts,
amounts of at most 500 AgP): amounts of 1 to 40, a third of them with a ``+`` part, a quarter
repeated three times.

*Abuse*: huge offers against small balances: ``100*1000000`` against 10 AgP is a million
rounds by definition (issue: well under a second).  The rounds are counted, not run.  Two
powers outbidding each other change the order every round (two million rounds): the judge
jumps over the repeated cycles of rounds.  (The judge's sheet limits refuse amounts over 500
AgP since issue 22.16; these sheets are read with wider ones, to time the core alone.)

*JSON lines*: ``judge payola --jsonl`` (the CLI path: JSON in, sheets parsed, orders
determined, the whole chart written out) over a file of worst-case phases, one per line, run
in a fresh interpreter; the same command on a file of one phase without offers is subtracted,
so start-up (the interpreter, and the core imported on the first request) is not counted.
Target (issue): under 25 ms per phase.

The last table runs N = 75, 150, 300 (the most a sheet may hold).  Figures are medians of wall-clock and CPU times
(in this process, or of the child for the JSON lines); on a shared machine both are noisy,
CPU time less so.

Run: .venv/bin/python bench/payola_bench.py [--offers 300] [--phases 20] [--seed 1]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from functools import cache
from pathlib import Path

from judge import core_build
from judge.engine.legal import legal_orders
from judge.engine.map import load_map
from judge.engine.notation import position_to_data
from judge.engine.position import Position
from judge.payola.determination import PowerInput, determine_orders
from judge.payola.offers import Limits, PhaseReader, parse_sheet
from judge.payola.options import Options

START = Position.initial(load_map("standard"))
WORLD = Position.initial(load_map("world"))
WIDE = Limits(amount=1_000_000)  # the abuse cases' amounts are over the judge's limits


@cache
def orders_of(start: Position) -> dict[str, list[str]]:
    """Every legal order of every unit of a board's start."""
    return {p: [str(o) for o in legal_orders(start, p)] for p in start.units}


ABUSE = [
    ("one offer of 100*1000000 against 10", {"FRANCE": ("100*1000000 : A PAR - BUR", 10)}),
    ("plateaus and savings, two powers", {
        "FRANCE": ("99*1000000#999990 + 5 : A PAR - BUR\n50*1000000 & F BRE - MAO\n7 $", 10),
        "GERMANY": ("100*1000000 > A MUN - BUR | - RUH\n100*999999 ! F KIE H", 0),
    }),
    ("two powers outbidding each other", {
        "FRANCE": ("100*1000000 : A PAR - BUR", 10), "GERMANY": ("100*999999 : A PAR - PIC", 5),
    }),
]


def random_sheet(rng: random.Random, power: str, offers: int, start: Position = START, top: int = 40) -> str:
    """``offers`` random offers to the units of ``start``, of amounts up to ``top``, and savings."""
    lines = []
    orders = orders_of(start)
    units = sorted(start.units)
    for _ in range(offers):
        province = rng.choice(units)
        order = rng.choice(orders[province])
        kind = rng.choices(":!>@&", weights=[70, 10, 10, 5, 5])[0]
        amount = rng.randint(1, top)
        plateau = rng.choice(["", "", f"#{rng.randint(0, amount)}"])
        repeat = rng.choice(["", "", "", "3*"])
        extra = rng.choice(["", "", f" + {rng.randint(1, 9)}"])
        lines.append(f"{repeat}{amount}{plateau}{extra} {kind} {order}")
    lines.append(f"{rng.randint(0, 20)} $")
    return "\n".join(lines)


def make_phase(
    rng: random.Random, offers: int, start: Position = START, top: int = 40
) -> tuple[dict[str, str], dict[str, int]]:
    """Each power's sheet text and balance."""
    powers = start.game_map.powers
    return {p: random_sheet(rng, p, offers, start, top) for p in powers}, {p: rng.randint(40, 160) for p in powers}


def parse_phase(
    texts: dict[str, str], balances: dict[str, int], options: Options, start: Position = START
) -> dict[str, PowerInput]:
    reader = PhaseReader(start)  # a new phase: nothing read yet
    powers = {}
    for power, text in texts.items():
        sheet, errors = parse_sheet(text, start, power, options, reader=reader)
        assert not errors, errors[:3]
        powers[power] = PowerInput(balances[power], sheet)
    return powers


def run(
    offers: int, phases: int, seed: int, options: Options, start: Position = START, top: int = 40
) -> dict[str, float]:
    """Medians over ``phases`` random phases: parse, determination and both in ms of wall-clock
    and of CPU time (steadier on a shared machine), and rounds."""
    rng = random.Random(seed)
    times: dict[str, list[float]] = {}
    rounds = []
    for i in range(phases):
        texts, balances = make_phase(rng, offers, start, top)
        w0, c0 = time.perf_counter(), time.process_time()
        powers = parse_phase(texts, balances, options, start)
        w1, c1 = time.perf_counter(), time.process_time()
        result = determine_orders(start, powers, options, seed=i)
        w2, c2 = time.perf_counter(), time.process_time()
        for name, value in (("parse", w1 - w0), ("determine", w2 - w1), ("both", w2 - w0),
                            ("parse cpu", c1 - c0), ("determine cpu", c2 - c1), ("both cpu", c2 - c0)):
            times.setdefault(name, []).append(value * 1000)
        rounds.append(result.rounds)
    return {**{name: statistics.median(values) for name, values in times.items()}, "rounds": statistics.median(rounds)}


def _child_run(command: list[str]) -> tuple[float, float]:
    """Wall-clock and CPU seconds of one run of ``command`` in a fresh interpreter."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    w0 = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, env=os.environ)
    wall = time.perf_counter() - w0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def jsonl(offers: int, phases: int, seed: int, repeats: int) -> tuple[float, float]:
    """Medians over ``repeats`` runs of ``judge payola --jsonl`` on ``phases`` worst-case phases,
    less the same command on one phase without offers (start-up): ms per phase, wall-clock and CPU."""
    rng = random.Random(seed)
    board = position_to_data(START)
    requests = []
    for i in range(phases):
        texts, balances = make_phase(rng, offers)
        powers = {p: {"balance": balances[p], "sheet": texts[p]} for p in texts}
        requests.append(json.dumps({**board, "seed": i, "powers": powers}))
    command = [sys.executable, "-m", "judge", "payola", "--jsonl"]
    with tempfile.TemporaryDirectory() as folder:
        full, empty = Path(folder, "phases.jsonl"), Path(folder, "empty.jsonl")
        full.write_text("\n".join(requests) + "\n", encoding="utf-8")
        empty.write_text(json.dumps({**board, "powers": {}}) + "\n", encoding="utf-8")
        walls, cpus = [], []
        for _ in range(repeats):
            (w_full, c_full), (w_empty, c_empty) = _child_run([*command, str(full)]), _child_run([*command, str(empty)])
            walls.append((w_full - w_empty) / phases * 1000)
            cpus.append((c_full - c_empty) / phases * 1000)
    return statistics.median(walls), statistics.median(cpus)


def abuse(repeats: int) -> None:
    for options in (Options(), Options(ebayola=True)):
        for name, sheets in ABUSE:
            powers = {}
            for power, (text, balance) in sheets.items():
                sheet, errors = parse_sheet(text, START, power, options, reader=PhaseReader(START, WIDE))
                assert not errors, errors
                powers[power] = PowerInput(balance, sheet)
            times = []
            for _ in range(repeats):
                t0 = time.perf_counter()
                result = determine_orders(START, powers, options)
                times.append(time.perf_counter() - t0)
            variant = "eBayola" if options.ebayola else "plain  "
            print(f"  {variant} {name:38s} {result.rounds:9d} rounds  {statistics.median(times) * 1000:8.2f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--offers", type=int, default=300, help="offers per power")
    parser.add_argument("--phases", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"The judge's core: {core_build()}")
    print(f"Worst case: 7 powers x {args.offers} offers, median of {args.phases} phases")
    print("                 determination (< 10 ms)   parse          both (< 15 ms)   rounds")
    for options in (Options(), Options(ebayola=True)):
        f = run(args.offers, args.phases, args.seed, options)
        variant = "eBayola" if options.ebayola else "plain  "
        print(f"  {variant} wall / cpu  {f['determine']:6.1f} / {f['determine cpu']:5.1f} ms"
              f"   {f['parse']:5.1f} / {f['parse cpu']:5.1f}   {f['both']:6.1f} / {f['both cpu']:5.1f} ms"
              f"   {f['rounds']:6.0f}")
    print(f"\nWorld: 17 powers x {args.offers} offers, median of {args.phases} phases")
    print("                 determination (< 50 ms)   parse          both             rounds")
    for options in (Options(), Options(ebayola=True)):
        f = run(args.offers, args.phases, args.seed, options, WORLD)
        variant = "eBayola" if options.ebayola else "plain  "
        print(f"  {variant} wall / cpu  {f['determine']:6.1f} / {f['determine cpu']:5.1f} ms"
              f"   {f['parse']:5.1f} / {f['parse cpu']:5.1f}   {f['both']:6.1f} / {f['both cpu']:5.1f} ms"
              f"   {f['rounds']:6.0f}")
    wall, cpu = jsonl(args.offers, args.phases, args.seed, repeats=3)
    print(f"\n`judge payola --jsonl`, {args.phases} phases in one file, start-up subtracted (< 25 ms):"
          f" {wall:.1f} / {cpu:.1f} ms per phase (wall / cpu)")
    print("\nAbuse: huge offers against small balances (target: well under a second)")
    abuse(max(3, args.phases // 4))
    print("\n  offers/power  rounds  determination ms (cpu)  parse ms (cpu)")
    for offers in (75, 150, 300):  # a sheet holds at most 300 offers (issue 22.16)
        f = run(offers, max(3, args.phases // 4), args.seed, Options())
        print(f"  {offers:12d}  {f['rounds']:6.0f}  {f['determine cpu']:22.1f}  {f['parse cpu']:13.1f}")


if __name__ == "__main__":
    main()
