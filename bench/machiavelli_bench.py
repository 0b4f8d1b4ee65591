"""Benchmark of a Machiavelli campaign on the classic board (figures only; nothing is asserted).

Run from the repository root::

    .venv/bin/python bench/machiavelli_bench.py [--campaigns N] [--phases P] [--seed S]

What it measures
----------------
The classic board's Spring 1454, its A letters carried out by default, every treasury then
set to 100 ducats, a rebellion in Pistoia (against Florence) and one in Lucca (against its
independent state): then one campaign with every player's C letter.  Every unit is ordered
(a seeded choice among its holds, advances, supports, conversions and sieges), and the letters
hold every kind of expenditure and C order: transfers, an assassination and a bodyguard, a
rebellion and a pacification, the four bribes (operate, disband, buy, independent), a
counter-bribe, a permission and an excommunication.  Timed, ``N`` times each (default 200):

1. *core*: :func:`~judge.games.machiavelli.core.campaign.campaign` on the letters as values —
   D, E, F and the end of the campaign;
2. *text*: every letter read by :func:`~judge.games.machiavelli.core.syntax.parse_letter`, then
   the campaign (what the mail edge will do);
3. *JSON*: :func:`~judge.games.machiavelli.core.notation.run` on the request as JSON values —
   the position read, the letters parsed, the campaign, the answer written (``judge
   machiavelli`` without its interpreter's start-up).

The peer is the Diplomacy engine's adjudication (``judge.engine.phases.adjudicate``) of a
standard-board movement phase with every unit ordered, on ``P`` random positions (default 200)
made as ``bench/engine_bench.py`` makes them (22-34 units, every unit a random legal order).
Figures are medians of CPU time (``time.process_time``) per campaign or phase, with the
garbage collector paused while timing, and the ratio campaign / peer.  The issue's target is
"well under a second" per campaign.
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from engine_bench import Case, fresh, generate  # the peer's positions, as engine_bench makes them

from judge.engine.phases import adjudicate
from judge.games.machiavelli.core.board import load_board
from judge.games.machiavelli.core.campaign import campaign
from judge.games.machiavelli.core.notation import position_to_data, run
from judge.games.machiavelli.core.orders import Advance, Besiege, Convert, Hold, Order, Support, UnitRef
from judge.games.machiavelli.core.position import Independent, Position, Unit, UnitKind
from judge.games.machiavelli.core.spring import spring_letter
from judge.games.machiavelli.core.syntax import parse_letter

BOARD = load_board()
EXPENDITURES = {  # every kind, each where the classic start makes it legal
    "Austria": ["bribe 12 disband A Swi", "allow Milan bribe"],
    "Florence": ["bribe 3 operate G Luc", "bribe 9 independent A Bol", "pacify Pistoia", "G Luc H"],
    "France": ["counter-bribe 3 A Swi"],
    "Milan": ["rebellion 3 Ferrara", "transfer 5 to Venice"],
    "Naples": ["transfer 5 to Papacy"],
    "Papacy": ["bribe 18 buy A Are", "counter-bribe 3 A Bol", "excommunicate Turkey"],
    "Turkey": ["assassinate Venice 30"],
    "Venice": ["bodyguard 3"],
}


def the_campaign(seed: int) -> tuple[Position, dict[str, str]]:
    """The position and every player's C letter as text (see the module docstring)."""
    spring = spring_letter(BOARD, BOARD.start, {}).position
    position = replace(spring, treasuries=dict.fromkeys(BOARD.powers, 100),
                       rebellions={"pst": "Florence", "luc": Independent("luc")})
    rng = random.Random(seed)
    letters = {power: list(lines) for power, lines in EXPENDITURES.items()}
    for unit in position.units.values():
        if isinstance(unit.owner, str):
            letters[unit.owner].append(str(rng.choice(orders_for(unit))))
    return position, {power: "\n".join(lines) for power, lines in letters.items()}


def orders_for(unit: Unit) -> list[Order]:
    ref = UnitRef(unit.kind, unit.area)
    choices: list[Order] = [Hold(ref), *(Convert(ref, kind) for kind in UnitKind if kind is not unit.kind)]
    if unit.kind is not UnitKind.GARRISON:
        choices.append(Besiege(ref))
    for area in sorted(BOARD.reach(unit.kind, unit.area)):
        choices += [Advance(ref, area), Advance(ref, area), Support(ref, area)]
    return choices


def timed(calls: list[Callable[[], object]]) -> float:
    """The median CPU seconds of the calls (after one untimed), the garbage collector paused while each runs."""
    times = []
    calls[0]()  # warm: the board's name tables and the like are made once per process
    gc.collect()
    for call in calls:
        gc.disable()
        start = time.process_time()
        call()
        times.append(time.process_time() - start)
        gc.enable()
    return statistics.median(times)


def peer_phase(case: Case) -> Callable[[], object]:
    """The peer's call for one position (a fresh position each, as engine_bench times it)."""
    position = fresh(case.position)
    return lambda: adjudicate(position, case.orders)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--campaigns", type=int, default=200, help="campaigns timed (default 200)")
    parser.add_argument("--phases", type=int, default=200, help="the peer's phases (default 200)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)

    position, texts = the_campaign(args.seed)
    letters = {}
    for power, text in texts.items():
        orders, problems = parse_letter(text, BOARD)
        assert not problems, problems
        letters[power] = orders
    request: dict[str, Any] = json.loads(json.dumps({"position": position_to_data(position), "letters": texts}))
    record = campaign(BOARD, position, letters)
    kinds = sorted({type(o.order).__name__ for o in record.outcomes})
    units = sum(isinstance(u.owner, str) for u in position.units.values())
    print(f"Machiavelli campaign: classic board, {position.season}, {units} units ordered, "
          f"{len(record.outcomes)} other orders ({', '.join(kinds)}); {args.campaigns} runs each")
    print(f"  (it went: {len(record.expending.bribes)} bribes took, assassinated: "
          f"{', '.join(sorted(record.expending.assassinated)) or 'nobody'}, "
          f"{sum(r.reason.name == 'ADVANCED' for r in record.action.results)} advances carried out, "
          f"{sum(r.reason.name == 'BOUNCED' for r in record.action.results)} bounced, "
          f"{len(record.action.retreats)} retreats)")

    core = timed([lambda: campaign(BOARD, position, letters)] * args.campaigns)

    def from_text() -> object:
        return campaign(BOARD, position, {p: parse_letter(t, BOARD)[0] for p, t in texts.items()})

    text = timed([from_text] * args.campaigns)
    as_json = timed([lambda: run(request)] * args.campaigns)
    cases = generate(args.phases, args.seed)
    peer = timed([peer_phase(case) for case in cases])
    for label, seconds in (("core campaign()", core), ("letters parsed, then campaign()", text),
                           ("JSON request (notation.run)", as_json)):
        print(f"  {label:<34} median {seconds * 1000:8.3f} ms   {seconds / peer:6.1f}x the peer")
    print(f"  peer: judge.engine adjudicate() of a standard phase, every unit ordered ({args.phases} phases): "
          f"median {peer * 1000:.3f} ms")
    print("  target (the issue): well under a second per campaign")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
