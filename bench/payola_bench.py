"""Benchmark of Payola order determination (issue: under 50 ms per phase on 2 cores).

Seven powers each send N offers (default 300) to random units of the Spring 1901 board,
with random legal orders, offer types, repetitions and plateaus, and balances far below
what they offer, so that rule 5.5 needs dozens of reduction rounds.  Parsing the sheets is
timed separately from order determination.  The last table runs N = 75, 150, 300, 600 to
show how the time grows with offers x rounds: the figure "us per offer-round" should stay
roughly flat if the cost is linear in both.  Numbers only; nothing is asserted.

Run: .venv/bin/python bench/payola_bench.py [--offers 300] [--phases 20] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from judge.engine.legal import legal_orders
from judge.engine.map import load_map
from judge.engine.position import Position
from judge.payola.determination import PowerInput, determine_orders
from judge.payola.offers import parse_sheet

START = Position.initial(load_map("standard"))
ORDERS = {p: [str(o) for o in legal_orders(START, p)] for p in START.units}


def random_sheet(rng: random.Random, power: str, offers: int) -> str:
    lines = []
    for _ in range(offers):
        province = rng.choice(sorted(START.units))
        order = rng.choice(ORDERS[province])
        kind = rng.choices(":!>@&", weights=[70, 10, 10, 5, 5])[0]
        amount = rng.randint(1, 40)
        plateau = rng.choice(["", "", f"#{rng.randint(0, amount)}"])
        repeat = rng.choice(["", "", "", "3*"])
        extra = rng.choice(["", "", f" + {rng.randint(1, 9)}"])
        lines.append(f"{repeat}{amount}{plateau}{extra} {kind} {order}")
    lines.append(f"{rng.randint(0, 20)} $")
    return "\n".join(lines)


def make_phase(rng: random.Random, offers: int) -> dict[str, PowerInput]:
    powers = {}
    for power in START.game_map.powers:
        sheet, errors = parse_sheet(random_sheet(rng, power, offers), START, power)
        assert not errors, errors[:3]
        powers[power] = PowerInput(rng.randint(40, 160), sheet)
    return powers


def run(offers: int, phases: int, seed: int) -> tuple[float, float, float]:
    rng = random.Random(seed)
    times, rounds, parse_times = [], [], []
    for i in range(phases):
        t0 = time.perf_counter()
        powers = make_phase(rng, offers)
        parse_times.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        result = determine_orders(START, powers, seed=i)
        times.append(time.perf_counter() - t0)
        rounds.append(result.rounds)
    return statistics.mean(times), statistics.mean(rounds), statistics.mean(parse_times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--offers", type=int, default=300, help="offers per power")
    parser.add_argument("--phases", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    mean, rounds, parsing = run(args.offers, args.phases, args.seed)
    print(f"7 powers x {args.offers} offers, {args.phases} phases")
    print(f"  order determination: {mean * 1000:.1f} ms per phase (target < 50 ms), {rounds:.1f} reduction rounds")
    print(f"  parsing the 7 sheets: {parsing * 1000:.1f} ms per phase")
    print("\n  offers/power  rounds   ms/phase  us per offer-round")
    for offers in (75, 150, 300, 600):
        mean, rounds, _ = run(offers, max(3, args.phases // 4), args.seed)
        per = mean * 1e6 / (7 * offers * max(rounds, 1))
        print(f"  {offers:12d}  {rounds:6.1f}  {mean * 1000:9.1f}  {per:18.3f}")


if __name__ == "__main__":
    main()
