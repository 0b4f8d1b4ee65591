"""Benchmark of a Machiavelli campaign on the classic board and on AoP's (figures only; nothing is asserted).

Run from the repository root::

    .venv/bin/python bench/machiavelli_bench.py [--board classic|aop|both] [--campaigns N] [--phases P] [--seed S]

What it measures
----------------
*classic*: the classic board's Spring 1454, its A letters carried out by default, every
treasury then set to 100 ducats, a rebellion in Pistoia (against Florence) and one in Lucca
(against its independent state): then one campaign with every player's C letter.

*aop*: the Absence of Plague board crowded: its Spring 1459 with, beside the twelve independent
garrisons, an army or fleet of its power in every one of the 74 home provinces (a fleet where
the city is a port or the place an island for fleets, else an army) and a garrison in every
other fortified home city — 125 units of thirteen players — every treasury at 100 ducats and the
same two rebellions (Pistoia, Lucca): then one campaign with every player's C letter.

In both, every unit is ordered (a seeded choice among its holds, advances, supports,
conversions and sieges), and the letters hold every kind of expenditure and C order:
transfers, an assassination and a bodyguard, a rebellion and a pacification, the four bribes
(operate, disband, buy, independent), a counter-bribe, a permission and an excommunication.
Timed, ``N`` times each (default 200):

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
from judge.games.machiavelli.core.board import Board, load_board
from judge.games.machiavelli.core.campaign import campaign
from judge.games.machiavelli.core.notation import position_to_data, run
from judge.games.machiavelli.core.orders import Advance, Besiege, Convert, Hold, Order, Support, UnitRef
from judge.games.machiavelli.core.position import Independent, Position, Unit, UnitKind
from judge.games.machiavelli.core.spring import spring_letter
from judge.games.machiavelli.core.syntax import parse_letter

EXPENDITURES = {  # every kind, each where the start of the case makes it legal
    "classic": {
        "Austria": ["bribe 12 disband A Swi", "allow Milan bribe"],
        "Florence": ["bribe 3 operate G Luc", "bribe 9 independent A Bol", "pacify Pistoia", "G Luc H"],
        "France": ["counter-bribe 3 A Swi"],
        "Milan": ["rebellion 3 Ferrara", "transfer 5 to Venice"],
        "Naples": ["transfer 5 to Papacy"],
        "Papacy": ["bribe 18 buy A Are", "counter-bribe 3 A Bol", "excommunicate Turkey"],
        "Turkey": ["assassinate Venice 30"],
        "Venice": ["bodyguard 3"],
    },
    "aop": {
        "Holy Roman Empire": ["bribe 12 disband A Milano", "allow Milan bribe"],
        "Dalmatia": ["bribe 12 disband A Steiermark"],
        "Ferrara": ["bribe 9 independent A Firenze"],
        "Florence": ["bribe 3 operate G Lucca", "pacify Pistoia", "G Lucca H"],
        "France": ["counter-bribe 3 A Avignon"],
        "Genoa": ["counter-bribe 3 F Genova"],
        "Milan": ["rebellion 3 Mantova", "transfer 5 to Venice"],
        "Naples": ["transfer 5 to Papacy"],
        "Papacy": ["bribe 18 buy A Arezzo", "counter-bribe 3 A Bologna", "excommunicate Turkey"],
        "Savoy": ["allow France straits"],
        "Sicily": ["transfer 2 to Naples"],
        "Turkey": ["assassinate Venice 30"],
        "Venice": ["bodyguard 3"],
    },
}


def crowded(board: Board, position: Position) -> Position:
    """``position`` with an army or fleet in every home province and a garrison in every other
    fortified home city (the *aop* case of the module docstring)."""
    units = list(position.units.values())
    for code, area in sorted(board.areas.items()):
        if area.home is None:
            continue
        fleet = area.fleet_only or (area.city is not None and area.city.port)
        units.append(Unit(UnitKind.FLEET if fleet else UnitKind.ARMY, area.home, code))
        if area.fortified_city and not area.single_unit:
            units.append(Unit(UnitKind.GARRISON, area.home, code))
    return position.with_units(units)


def the_campaign(board: Board, seed: int) -> tuple[Position, dict[str, str]]:
    """The position and every player's C letter as text (see the module docstring)."""
    spring = spring_letter(board, board.start, {}).position
    if board.name == "aop":
        spring = crowded(board, spring)
    position = replace(spring, treasuries=dict.fromkeys(board.powers, 100),
                       rebellions={board.code("Pistoia"): "Florence",
                                   board.code("Lucca"): Independent(board.code("Lucca"))})
    rng = random.Random(seed)
    letters = {power: list(lines) for power, lines in EXPENDITURES[board.name].items()}
    for unit in position.units.values():
        if isinstance(unit.owner, str):
            letters[unit.owner].append(str(rng.choice(orders_for(board, unit))))
    return position, {power: "\n".join(lines) for power, lines in letters.items()}


def orders_for(board: Board, unit: Unit) -> list[Order]:
    ref = UnitRef(unit.kind, unit.area)
    choices: list[Order] = [Hold(ref), *(Convert(ref, kind) for kind in UnitKind if kind is not unit.kind)]
    if unit.kind is not UnitKind.GARRISON:
        choices.append(Besiege(ref))
    for area in sorted(board.reach(unit.kind, unit.area)):
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
    parser.add_argument("--board", choices=("classic", "aop", "both"), default="both", help="the case (default both)")
    parser.add_argument("--campaigns", type=int, default=200, help="campaigns timed (default 200)")
    parser.add_argument("--phases", type=int, default=200, help="the peer's phases (default 200)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)

    cases = generate(args.phases, args.seed)
    peer = timed([peer_phase(case) for case in cases])
    for name in ("classic", "aop") if args.board == "both" else (args.board,):
        bench_board(load_board(name), args.campaigns, args.seed, peer)
    print(f"  peer: judge.engine adjudicate() of a standard phase, every unit ordered ({args.phases} phases): "
          f"median {peer * 1000:.3f} ms")
    print("  target (the issue): well under a second per campaign")
    return 0


def bench_board(board: Board, runs: int, seed: int, peer: float) -> None:
    """Time one case (see the module docstring) and print its figures against the peer's."""
    position, texts = the_campaign(board, seed)
    letters = {}
    for power, text in texts.items():
        orders, problems = parse_letter(text, board)
        assert not problems, problems
        letters[power] = orders
    request: dict[str, Any] = json.loads(json.dumps({"board": board.name, "position": position_to_data(position),
                                                     "letters": texts}))
    record = campaign(board, position, letters)
    kinds = sorted({type(o.order).__name__ for o in record.outcomes})
    units = sum(isinstance(u.owner, str) for u in position.units.values())
    print(f"Machiavelli campaign: {board.name} board, {position.season}, {units} units ordered "
          f"({len(position.units) - units} independent), {len(record.outcomes)} other orders ({', '.join(kinds)}); "
          f"{runs} runs each")
    print(f"  (it went: {len(record.expending.bribes)} bribes took, assassinated: "
          f"{', '.join(sorted(record.expending.assassinated)) or 'nobody'}, "
          f"{sum(r.reason.name == 'ADVANCED' for r in record.action.results)} advances carried out, "
          f"{sum(r.reason.name == 'BOUNCED' for r in record.action.results)} bounced, "
          f"{len(record.action.retreats)} retreats)")

    core = timed([lambda: campaign(board, position, letters)] * runs)

    def from_text() -> object:
        return campaign(board, position, {p: parse_letter(t, board)[0] for p, t in texts.items()})

    parsed = timed([from_text] * runs)
    as_json = timed([lambda: run(request)] * runs)
    for label, seconds in (("core campaign()", core), ("letters parsed, then campaign()", parsed),
                           ("JSON request (notation.run)", as_json)):
        print(f"  {label:<34} median {seconds * 1000:8.3f} ms   {seconds / peer:6.1f}x the peer")


if __name__ == "__main__":
    raise SystemExit(main())
