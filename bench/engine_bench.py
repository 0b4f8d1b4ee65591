"""Benchmark of the engine against the ``diplomacy`` package: adjudication and legal orders.

Run from the repository root::

    .venv/bin/python bench/engine_bench.py [--phases N] [--rounds R] [--seed S] [--boards B,...]

What it measures
----------------
On each board (default: every board, ``standard`` first), ``N`` random full-board movement
positions (default 1000, seed 1): 22-34 units on random provinces of the standard board (as
many in proportion to the provinces of another board: 23-36 on ``ancmed``, 41-64 on ``modern``,
53-82 on ``youngstown``, 47-73 on ``empire``, 56-87 on ``world``, 79-122 on
``known_world_901``), each of a random power and (where both can stand) a random type, fleets on
a random coast of split-coast provinces, supply centers owned as at the start; units are the
map's shared values, as when the engine reads a position.  Every unit gets an order drawn at
random from :func:`judge.engine.legal.legal_orders`.  Generation is not timed.  Each figure
below is printed beside the ``diplomacy`` package's (a benchmark-only extra: ``pip install -e
'.[bench]'``) from the same run, with the ratio theirs / ours and its target, and a closing
table gives every board's ratios on one line.  The package has every board but Youngstown: for
it the board is written from the judge's own data in the package's map format
(:func:`package_map_text`, a file in the temporary folder) and the package plays that, so both
engines play the very same board.  The first game on a board the package has not seen makes it
work out every convoy route (minutes on the big boards, once: it keeps them in
``~/.cache/diplomacy``); that is not timed.

1. *Core adjudication*: ``adjudicate(position, orders)`` (which also checks the orders) against
   ``Game.process()`` per movement phase; target 5x on the standard board, 2x elsewhere.  Their
   game is a fresh ``diplomacy.Game()`` (``Game(map_name=...)`` on another board) per phase with
   our units and orders set (same province ids; ``VIA CONVOY`` is written ``VIA``, and a power's
   name loses its ``_``, ``NEW_YORK`` being the package's ``NEWYORK``).  ``set_orders()``, where that package
   checks the orders, is not in the ratio; a second, informational ratio includes it.
2. *``judge adjudicate --jsonl``*: every position with its orders as one JSON object per line,
   through the command in a fresh interpreter, output to a file; the time of the same command on
   an empty file (start-up) is subtracted.  Per phase, against ``process()``; target 2x.
3. *Legal-order enumeration*: every legal order of every unit of a position (``legal_orders``
   for each unit of a fresh, never-asked ``Position``) against ``get_all_possible_orders()``;
   target 2x.
4. *``judge orders --jsonl``*: the positions through the command, as in 2; per position,
   against ``get_all_possible_orders()``; target 2x.
5. *Start-up* (standard board only): a one-shot ``judge adjudicate`` of the README's example,
   wall clock (the aim is about 0.1 s; it imports only the engine).
6. *Agreement*: the two engines' outcomes compared (units on the board and dislodged units after
   the phase; theirs read from the phase results, since the package disbands at once a dislodged
   unit with nowhere to go).  The package's known departures are counted apart, each by giving
   both engines the case without what it concerns and seeing them agree: DATC's older
   preference for 6.G.8 (an army move to an adjacent province that goes by convoy, ordered ``VIA
   CONVOY`` or convoyed by a fleet of its own power, DATC 4.A.3, whose convoy orders cannot form
   a route moves by land there, where DATC v3.0, which this engine follows, has it stay; random
   orders hit that often: such moves are given as land moves and their convoys as holds); on
   ``ancmed``, a convoy through a fleet in Baleares, which the package refuses and cannot carry
   out (its convoy paths take an archipelago for a coast only; DPjudge lets such a fleet convoy:
   such convoys are held); and DATC 6.B.9, a support naming another coast than the one the
   supported fleet moves to, void here and counted by the package, which reads supports without
   coasts (such supports are held).  The first three disagreements that remain are printed:
   those are the ones worth a look.  (With the default seed none remains on any board; 6.B.9
   explains one on the standard board, position 784.)

How to read the numbers
-----------------------
The machine may be shared and noisy, so the figures are CPU time (``time.process_time``, and
the children's CPU time for the commands): time spent waiting for a core is not counted.  What
remains still varies with the load (shared caches and cores), so each ratio compares figures
taken close together: in process, a chunk of 25 cases is prepared on both sides and then timed
ours and theirs back to back; each round measures everything once, and a command's ratio uses
the peer's figure from the same round.  Figures are medians over ``R`` rounds (default 3), and
ratios medians of the rounds' ratios.  While timing in process the garbage collector is paused
(and run between chunks), for both sides; the commands run with it on, as in use.  Nothing here
asserts on timings: a ratio below its target is reported, not failed.  The engine keeps
per-map tables across calls (shared unit and order values, the moves and supports found legal
by the map alone): in process they fill during the first round, as they would in a
long-running judge; each command starts with them empty.  The orders are drawn
uniformly from the legal ones, so supports dominate and convoys are rare.
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from judge import core_build
from judge.engine.convoys import route_exists
from judge.engine.legal import legal_orders
from judge.engine.map import GameMap, Location, Terrain, load_map
from judge.engine.notation import position_to_data
from judge.engine.orders import (
    Convoy,
    Hold,
    Move,
    MovementOrder,
    Order,
    PhaseKind,
    SupportHold,
    SupportMove,
    Unit,
    UnitType,
    lexicon,
)
from judge.engine.phases import PhaseResult, adjudicate
from judge.engine.position import Phase, PlacedUnit, Position, Season

MIN_UNITS = 22  # on the standard board's 75 provinces a unit can stand in; in proportion on the others
MAX_UNITS = 34
BOARDS = ("standard", "ancmed", "modern", "youngstown", "empire", "world", "known_world_901")
EXAMPLE = Path(__file__).parents[1] / "tests" / "engine" / "examples" / "s1901m.json"
COMMAND = [sys.executable, "-m", "judge"]


@dataclass(frozen=True)
class Case:
    """One generated position and the orders of every power."""

    position: Position
    orders: dict[str, list[Order]]


# -- generation ----------------------------------------------------------------------------


def random_position(game_map: GameMap, rng: random.Random) -> Position:
    """A spring movement position with 22-34 randomly placed units and home centers.

    The units are the map's shared values (:func:`judge.engine.orders.lexicon`), as in every
    position the engine reads or produces.
    """
    lex = lexicon(game_map)
    places = sorted(p for p, prov in game_map.provinces.items() if prov.terrain is not Terrain.IMPASSABLE)
    powers = sorted(game_map.powers)
    count = rng.randint(round(MIN_UNITS * len(places) / 75), round(MAX_UNITS * len(places) / 75))
    units: list[PlacedUnit] = []
    for province in rng.sample(places, count):
        fleet_places = game_map.fleet_locations(province)
        types: list[UnitType] = []
        if game_map.army_can_stand(province):
            types.append(UnitType.ARMY)
        if fleet_places:
            types.append(UnitType.FLEET)
        unit_type = rng.choice(types)
        where = rng.choice(fleet_places) if unit_type is UnitType.FLEET else Location(province)
        units.append(PlacedUnit(rng.choice(powers), lex.unit(unit_type, where)))
    centers = {c: info.name for info in game_map.powers.values() for c in info.home_centers}
    return Position.build(game_map, Phase(Season.SPRING, game_map.start_year, PhaseKind.MOVEMENT), units, centers)


def random_orders(position: Position, rng: random.Random) -> dict[str, list[Order]]:
    """One order per unit, drawn uniformly from its legal orders."""
    orders: dict[str, list[Order]] = {}
    for province in sorted(position.units):
        placed = position.units[province]
        orders.setdefault(placed.power, []).append(rng.choice(legal_orders(position, province)))
    return orders


def generate(count: int, seed: int, board: str = "standard") -> list[Case]:
    game_map = load_map(board)
    rng = random.Random(seed)
    cases = []
    for _ in range(count):
        position = random_position(game_map, rng)
        cases.append(Case(position, random_orders(position, rng)))
    return cases


# -- measuring ------------------------------------------------------------------------------

CHUNK = 25  # cases prepared on both sides, then timed ours and theirs back to back


def settle_memory() -> None:
    """Collect garbage and freeze what is alive (the generated positions) out of the collector's passes."""
    gc.collect()
    gc.freeze()


def fresh(position: Position) -> Position:
    """An equal position that has never been asked anything (nothing derived from it is kept)."""
    return position.evolve()


Prepare = Callable[[Case], Callable[[], object]]


def back_to_back(cases: Sequence[Case], ours: Prepare, theirs: Prepare | None) -> tuple[float, float]:
    """CPU seconds per case of our calls and of theirs (each ``Prepare`` gives, untimed, the call
    to time for a case).  A chunk of cases is prepared on both sides, then our calls are timed,
    then theirs; the collector is paused while timing and run between chunks."""
    totals = [0.0, 0.0]
    settle_memory()
    gc.disable()
    try:
        for first in range(0, len(cases), CHUNK):
            chunk = cases[first : first + CHUNK]
            sides = [[ours(case) for case in chunk], [theirs(case) for case in chunk] if theirs else []]
            for side, calls in enumerate(sides):
                if not calls:
                    continue  # no peer: its time stays 0, not the cost of timing nothing
                start = time.process_time()
                for call in calls:
                    call()
                totals[side] += time.process_time() - start
            del sides
            gc.collect(1)
    finally:
        gc.enable()
    return totals[0] / len(cases), totals[1] / len(cases)


def our_adjudication(case: Case) -> Callable[[], object]:
    position = fresh(case.position)
    return lambda: adjudicate(position, case.orders)


def our_enumeration(case: Case) -> Callable[[], object]:
    position = fresh(case.position)
    return lambda: {province: legal_orders(position, province) for province in position.units}


def run_command(args: Sequence[str], source: Path) -> tuple[float, float, list[str]]:
    """Run ``judge ARGS SOURCE`` in a fresh interpreter: its CPU and wall-clock seconds, and its output."""
    with tempfile.TemporaryFile("w+") as out:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run([*COMMAND, *args, str(source)], stdout=out, check=True)
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        out.seek(0)
        cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
        return cpu, wall, out.read().splitlines()


class Command:
    """``judge ARGS`` over a file of JSON lines; CPU seconds per line, its start-up (the same
    command on an empty file) excluded."""

    def __init__(self, args: Sequence[str], lines: Sequence[str], folder: Path) -> None:
        self.args = args
        self.count = len(lines)
        self.source, self.empty = folder / f"{args[0]}.jsonl", folder / "empty.jsonl"
        self.source.write_text("".join(line + "\n" for line in lines))
        self.empty.write_text("")

    def per_line(self) -> float:
        startup, _, _ = run_command(self.args, self.empty)
        cpu, _, output = run_command(self.args, self.source)
        if len(output) != self.count or any(line.startswith('{"error"') for line in output):
            raise SystemExit(f"judge {' '.join(self.args)} did not answer every line: {output[:1]}")
        return (cpu - startup) / self.count


def startup_seconds() -> float:
    """Wall-clock seconds of a one-shot ``judge adjudicate`` of the JSON reference's first example (median of 5)."""
    return statistics.median(run_command(["adjudicate"], EXAMPLE)[1] for _ in range(5))


def adjudicate_line(case: Case) -> str:
    data = position_to_data(case.position)
    data["orders"] = {power: [str(o) for o in orders] for power, orders in case.orders.items()}
    return json.dumps(data)


def our_units_after(result: PhaseResult) -> set[str]:
    """``POWER A PAR`` for units on the board, ``POWER *A PAR`` for dislodged ones."""
    after = result.position
    found = {f"{u.power} {u.unit}" for u in after.units.values()}
    found.update(f"{d.power} *{d.unit}" for d in after.dislodged.values())
    return found


# -- the diplomacy package -------------------------------------------------------------------


def _their_unit(unit: Unit, keep_coast: bool = True) -> str:
    """A unit in the package's notation: ``A PAR``, ``F STP/SC`` (same province ids as ours)."""
    assert unit.type is not None
    where = str(unit.location) if keep_coast else unit.location.province
    return f"{unit.type.value} {where}"


def their_order(order: Order) -> str:
    """Our order in the ``diplomacy`` package's notation.

    Province ids are the same on both sides (``NWG``, ``LYO``, ``MAO``, ``STP/SC``); only
    ``VIA CONVOY`` becomes ``VIA``, and a supported unit is named without its coast.
    """
    if isinstance(order, Hold):
        return f"{_their_unit(order.unit)} H"
    if isinstance(order, Move):
        return f"{_their_unit(order.unit)} - {order.destination}" + (" VIA" if order.via_convoy else "")
    if isinstance(order, SupportHold):
        return f"{_their_unit(order.unit)} S {_their_unit(order.supported, keep_coast=False)}"
    if isinstance(order, SupportMove):
        supported = _their_unit(order.supported, keep_coast=False)
        return f"{_their_unit(order.unit)} S {supported} - {order.destination}"
    if isinstance(order, Convoy):
        return f"{_their_unit(order.unit)} C {_their_unit(order.army)} - {order.destination}"
    raise TypeError(f"not a movement order: {order}")


def their_power(power: str) -> str:
    """A power's name in the package, which drops what is not a letter (``NEW-YORK`` is ``NEWYORK``)."""
    return power.replace("_", "")


_TERRAIN_WORDS = {
    Terrain.SEA: "WATER", Terrain.COAST: "COAST", Terrain.LAND: "LAND", Terrain.ARCHIPELAGO: "PORT",
    Terrain.IMPASSABLE: "SHUT",
}


def package_map_text(game_map: GameMap) -> str:
    """The board in the package's map format (DPjudge's), for a board the package lacks (Youngstown).

    Written from the judge's own data, so the package plays the very board the engine does: a
    ``TERRAIN PLACE ABUTS ...`` line per place (a split-coast province has a lower-case line for
    its armies and one per coast for fleets); a neighbour is written in upper case where armies
    and fleets both cross, in lower case where only armies do, in Title case where only fleets do.
    """
    lines = [f"VICTORY {game_map.victory_centers}", f"BEGIN SPRING {game_map.start_year} MOVEMENT"]
    if game_map.build_anywhere:
        lines.append("RULE BUILD_ANY")
    homes: set[str] = set()
    for name, info in game_map.powers.items():
        lines.append(f"{their_power(name)} ({info.adjective.replace(' ', '+')}:{info.letter}) "
                     + " ".join(sorted(info.home_centers)))
        lines += list(info.start_units) + (["DUMMY"] if info.dummy else [])
        homes |= info.home_centers
    lines.append("UNOWNED " + " ".join(sorted(game_map.supply_centers - homes)))
    for pid, prov in game_map.provinces.items():
        lines.append(f"{prov.name} = {pid}")
        lines += [f"{prov.name} ({coast}) = {pid}/{coast}" for coast in prov.coasts]
    for pid, prov in game_map.provinces.items():
        terrain = _TERRAIN_WORDS[prov.terrain]
        army = game_map.army_adjacency.get(pid, frozenset())
        if prov.coasts:  # armies move along the province's line (which names its seas too), fleets along its coasts'
            coasts = game_map.fleet_locations(pid)
            seas = {d.province for here in coasts for d in game_map.fleet_adjacency.get(here, ())}
            tokens = {q.lower() for q in army} | (seas & game_map.seas - army)
            lines.append(f"{terrain} {pid.lower()} ABUTS " + " ".join(sorted(tokens)))
            for here in coasts:
                reach = sorted(str(d) for d in game_map.fleet_adjacency.get(here, ()))
                lines.append(f"{terrain} {here} ABUTS " + " ".join(reach))
            continue
        fleet = {str(d) for d in game_map.fleet_adjacency.get(game_map.place(pid), ())}
        tokens = {d if d[:3] in army else d.title() for d in fleet}  # a coast named for armies too
        tokens |= {q.lower() for q in army if not any(d[:3] == q for d in fleet)}
        lines.append(f"{terrain} {pid} ABUTS " + " ".join(sorted(tokens)))
    return "\n".join(lines) + "\n"


def reads_alike(diplomacy: Any, game_map: GameMap, name: str) -> bool:
    """Whether the package reads map ``name`` (its own, or a file's path) as the judge's board:
    the same edges, by unit type and coast, the same centers and victory count."""
    # A map the package has loaded already is its cached one: a new object of that name it
    # leaves blank (its __init__ returns at once); else a new one, without the convoy routes.
    theirs = diplomacy.engine.map.MAP_CACHE.get(name) or diplomacy.engine.map.Map(name, use_cache=False)
    if theirs.error or sorted(theirs.scs) != sorted(game_map.supply_centers):
        return False
    majority = len(game_map.supply_centers) // 2 + 1  # the package's count where a file names none
    if (theirs.victory or [majority]) != [game_map.victory_centers]:
        return False
    provinces, places = list(game_map.provinces), list(game_map.locations)
    army = {(a, b) for a in provinces for b in provinces if a != b and theirs.abuts("A", a, "-", b)}
    if army != {(a, b) for a, near in game_map.army_adjacency.items() for b in near}:
        return False
    named = [p for p in places if "/" in p or not game_map.provinces[p].coasts]  # a fleet names the coast
    fleet = {(a, b) for a in places for b in named if a[:3] != b[:3] and theirs.abuts("F", a, "-", b)}
    return fleet == {(str(a), str(b)) for a, near in game_map.fleet_adjacency.items() for b in near}


@cache
def their_map(diplomacy: Any, game_map: GameMap) -> str:
    """The name the package knows the board by, where it reads its own file as the judge's board;
    else (a board it lacks, Youngstown, or whose file differs, Empire: DPjudge's Beaufort Sea does
    not touch Nunavut, the package's does) the path of a map file written by
    :func:`package_map_text`, so that both engines play the same board.  (The same text gives the
    same file, and the package keys the convoy routes it works out once, minutes on a big board,
    by the file's content.)"""
    if Path(diplomacy.__file__).parent.joinpath("maps", f"{game_map.name}.map").exists():
        if reads_alike(diplomacy, game_map, game_map.name):
            return game_map.name
        print(f"(the package's {game_map.name}.map differs from the judge's data: it plays the judge's board)")
    path = Path(tempfile.gettempdir(), "judge-bench-maps", f"{game_map.name}.map")
    text = package_map_text(game_map)
    if not path.exists() or path.read_text() != text:
        path.parent.mkdir(exist_ok=True)
        path.write_text(text)
    return str(path)


def new_game(diplomacy: Any, case: Case) -> Any:
    """A ``diplomacy.Game`` (the case's map, its first phase, home centers owned) holding the case's units."""
    game_map = case.position.game_map
    game = diplomacy.Game() if game_map.name == "standard" else diplomacy.Game(map_name=their_map(diplomacy, game_map))
    game.clear_units()
    by_power: dict[str, list[str]] = {}
    for placed in case.position.units.values():
        by_power.setdefault(their_power(placed.power), []).append(_their_unit(placed.unit))
    for power in game.powers:
        game.set_units(power, by_power.get(power, []), reset=True)
    return game


def set_their_orders(game: Any, case: Case) -> list[str]:
    """Give the game the case's orders; return the errors it reported (orders it rejected)."""
    for power, orders in case.orders.items():
        game.set_orders(their_power(power), [their_order(o) for o in orders])
    errors = [str(e) for e in game.error]
    game.error = []
    return errors


def their_units(game: Any, case: Case) -> set[str]:
    """Their board after processing, in the form of :func:`our_units_after`.

    Dislodged units are taken from the phase's results rather than from ``get_units()``: the
    package disbands at once a dislodged unit that has nowhere to retreat, where this engine
    keeps it for the retreat phase.
    """
    ours = {their_power(p): p for p in case.position.game_map.powers}
    found = {f"{ours[power.name]} {unit}" for power in game.powers.values() for unit in power.units}
    for unit, outcome in game.result_history.last_value().items():
        if any(str(code) == "dislodged" for code in outcome):
            placed = case.position.units[unit[2:5]]
            found.add(f"{placed.power} *{placed.unit}")
    return found


@dataclass
class TheirRun:
    """What the peer made of the cases: rejected orders and the cases whose outcome differs."""

    set_orders_seconds: float = 0.0
    rejected_orders: int = 0
    rejected_examples: list[str] = field(default_factory=list)
    disagree: list[int] = field(default_factory=list)


def check_theirs(diplomacy: Any, cases: Sequence[Case]) -> TheirRun:
    """Process every case once with ``diplomacy.Game``: ``set_orders`` time, rejections, disagreements."""
    run = TheirRun()
    for index, case in enumerate(cases):
        game = new_game(diplomacy, case)
        start = time.process_time()
        errors = set_their_orders(game, case)
        run.set_orders_seconds += time.process_time() - start
        run.rejected_orders += len(errors)
        run.rejected_examples.extend(f"#{index}: {e}" for e in errors[: 5 - len(run.rejected_examples)])
        game.process()
        if their_units(game, case) != our_units_after(adjudicate(case.position, case.orders)):
            run.disagree.append(index)
    return run


def their_adjudication(diplomacy: Any) -> Callable[[Case], Callable[[], object]]:
    def prepare(case: Case) -> Callable[[], object]:
        game = new_game(diplomacy, case)
        set_their_orders(game, case)
        process: Callable[[], object] = game.process
        return process

    return prepare


def their_enumeration(diplomacy: Any) -> Callable[[Case], Callable[[], object]]:
    last: dict[int, Any] = {}  # the game of the case being timed

    def prepare(case: Case) -> Callable[[], object]:
        # One game serves every round of a case: get_all_possible_orders() changes nothing.
        if id(case) not in last:
            last.clear()
            last[id(case)] = new_game(diplomacy, case)
        enumerate_orders: Callable[[], object] = last[id(case)].get_all_possible_orders
        return enumerate_orders

    return prepare


def processed_game(diplomacy: Any, case: Case) -> Any:
    game = new_game(diplomacy, case)
    set_their_orders(game, case)
    game.process()
    return game


def describe_disagreement(diplomacy: Any, index: int, case: Case) -> str:
    """The orders (with their notation in brackets where it differs) and both outcomes, compactly."""
    lines = [f"  position #{index}:"]
    for power in sorted(case.orders):
        texts = []
        for order in case.orders[power]:
            ours_text, their_text = str(order), their_order(order)
            texts.append(ours_text if ours_text == their_text else f"{ours_text} [{their_text}]")
        lines.append(f"    {power}: " + "; ".join(texts))
    result = adjudicate(case.position, case.orders)
    game = processed_game(diplomacy, case)
    mine, theirs = our_units_after(result), their_units(game, case)
    lines.append("    only ours:   " + ", ".join(sorted(mine - theirs)))
    lines.append("    only theirs: " + ", ".join(sorted(theirs - mine)))
    involved = {u.split()[-1][:3] for u in mine ^ theirs}
    our_results = [
        f"{r.order}: {r.outcome.value}" + (f" ({r.reason})" if r.reason else "")
        for r in result.results
        if isinstance(r.order, MovementOrder) and r.order.unit.province in involved
    ]
    lines.append("    our results:   " + "; ".join(our_results))
    their_results = [
        f"{unit}: {', '.join(str(code) for code in outcome) or 'ok'}"
        for unit, outcome in game.result_history.last_value().items()
        if unit[2:5] in involved
    ]
    lines.append("    their results: " + "; ".join(their_results))
    return "\n".join(lines)


def without_unconvoyed_via(case: Case) -> Case:
    """The case with each army move to an adjacent province that goes by convoy, ordered ``VIA
    CONVOY`` or convoyed by a fleet of its own power (DATC 4.A.3, 2023 rules), made a land move
    when the fleets ordered to convoy it could not form a route even if all succeeded (DATC
    6.G.8), and those fleets' convoy orders holds (so that nothing makes it a convoy any more)."""
    position = case.position
    adjacency = position.game_map.army_adjacency
    convoying: dict[tuple[str, str], set[str]] = {}
    for orders in case.orders.values():
        for o in orders:
            if isinstance(o, Convoy):
                convoying.setdefault((o.army.province, o.destination.province), set()).add(o.unit.province)
    owner = {province: placed.power for province, placed in position.units.items()}
    landed: set[tuple[str, str]] = set()
    for orders in case.orders.values():
        for o in orders:
            if not isinstance(o, Move) or o.unit.type is not UnitType.ARMY:
                continue
            start, dest = o.unit.province, o.destination.province
            fleets = convoying.get((start, dest), set())
            by_convoy = o.via_convoy or any(owner[f] == owner[start] for f in fleets)
            adjacent = dest in adjacency.get(start, ())
            if by_convoy and adjacent and not route_exists(position.game_map, start, dest, fleets):
                landed.add((start, dest))

    def land(order: Order) -> Order:
        if isinstance(order, Move) and (order.unit.province, order.destination.province) in landed:
            return Move(order.unit, order.destination)
        if isinstance(order, Convoy) and (order.army.province, order.destination.province) in landed:
            return Hold(order.unit)
        return order

    return Case(position, {power: [land(o) for o in orders] for power, orders in case.orders.items()})


def agree(diplomacy: Any, case: Case) -> bool:
    """Whether the two engines leave the same units on the board (and dislodged) after the case."""
    return their_units(processed_game(diplomacy, case), case) == our_units_after(adjudicate(case.position, case.orders))


def rejected_by_them(diplomacy: Any, case: Case) -> set[str]:
    """The orders (in their notation) that the package's ``set_orders()`` refuses in a case."""
    return {error.split(": ", 1)[1] for error in set_their_orders(new_game(diplomacy, case), case) if ": " in error}


def without_refused_convoys(diplomacy: Any, case: Case) -> Case:
    """The case with the convoys of fleets in an archipelago, and the orders the package refuses,
    given to both engines as holds.  The package's convoy paths never pass through an
    archipelago (``utils/convoy_paths.py`` takes a ``PORT`` for a coast only), where DPjudge,
    whose map files both use, lets a fleet in Baleares convoy; and they stop at 13 fleets (its
    ``MAX_CONVOY_LENGTH``), where a big board has room for longer routes: orders needing such
    a route are refused there."""
    archipelago = {p for p, prov in case.position.game_map.provinces.items() if prov.terrain is Terrain.ARCHIPELAGO}
    refused = rejected_by_them(diplomacy, case)

    def held(order: Order) -> Order:
        assert isinstance(order, MovementOrder)
        if their_order(order) in refused or (isinstance(order, Convoy) and order.unit.province in archipelago):
            return Hold(order.unit)
        return order

    return Case(case.position, {power: [held(o) for o in orders] for power, orders in case.orders.items()})


def without_supports_to_another_coast(case: Case) -> Case:
    """The case with each support of a fleet's move naming a coast other than the one the fleet
    is ordered to given to both engines as a hold.  DATC 6.B.9: such a support supports a move
    that is not made, so it is void (its unit holds); the package reads supports without coasts
    and counts it."""
    moving = {o.unit.province: o.destination for orders in case.orders.values() for o in orders if isinstance(o, Move)}

    def held(order: Order) -> Order:
        if isinstance(order, SupportMove) and order.destination.coast:
            target = moving.get(order.supported.province)
            if target is not None and target.province == order.destination.province and target != order.destination:
                return Hold(order.unit)
        return order

    return Case(case.position, {power: [held(o) for o in orders] for power, orders in case.orders.items()})


def explain(diplomacy: Any, case: Case) -> str | None:
    """What explains a disagreement: ``"6.G.8"`` when it goes once the 6.G.8 moves are given as land
    moves to both engines, ``"refused"`` when it then goes once the convoys the package refuses
    or cannot make are held too, ``"6.B.9"`` when it goes once the supports naming another coast
    than the supported fleet's are held too, else ``None``."""
    land = without_unconvoyed_via(case)
    if agree(diplomacy, land):
        return "6.G.8"
    land = without_refused_convoys(diplomacy, land)
    if agree(diplomacy, land):
        return "refused"
    if agree(diplomacy, without_supports_to_another_coast(land)):
        return "6.B.9"
    return None


def still_disagrees(diplomacy: Any, case: Case) -> bool:
    """Whether the engines disagree even once the package's known departures are set aside:
    6.G.8 moves given as land moves to both, the convoys the package refuses or cannot make
    (through an archipelago, longer than 13 fleets) and the supports naming another coast (6.B.9) held."""
    return explain(diplomacy, case) is None


# -- main --------------------------------------------------------------------------------------


@dataclass
class Figure:
    """One comparison: CPU seconds per item for us and the peer, and their ratio, one value per round."""

    name: str
    unit: str
    peer: str
    target: float
    ours: list[float] = field(default_factory=list)
    theirs: list[float] = field(default_factory=list)

    def add(self, ours: float, theirs: float) -> None:
        self.ours.append(ours)
        self.theirs.append(theirs)

    def ratio(self) -> float:
        return statistics.median(t / o for o, t in zip(self.ours, self.theirs, strict=True))

    def line(self) -> str:
        text = f"{self.name:<26} {1000 * statistics.median(self.ours):7.3f} ms/{self.unit}"
        if not any(self.theirs):
            return f"{text}   {self.peer}: not measured, the diplomacy package is not installed"
        ratio = self.ratio()
        verdict = "meets" if ratio >= self.target else "BELOW"
        theirs = 1000 * statistics.median(self.theirs)
        return f"{text}   {self.peer:<26} {theirs:7.3f} ms/{self.unit}   {ratio:5.2f}x ({verdict} {self.target:.0f}x)"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--phases", type=int, default=1000, help="number of random positions (default 1000)")
    parser.add_argument("--rounds", type=int, default=3, help="repetitions of each measurement (default 3)")
    parser.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    parser.add_argument("--boards", default=",".join(BOARDS), help=f"boards to measure (default {','.join(BOARDS)})")
    args = parser.parse_args(argv)
    try:
        import diplomacy
    except ImportError:
        diplomacy = None
        print("diplomacy package not installed: our figures only (pip install -e '.[bench]')")
    rows = []
    for board in args.boards.split(","):
        print(f"== {board} ==")
        rows.append(measure(board, args, diplomacy))
        print()
    print("Ratios beside each board (theirs / ours; targets: core 5x on the standard board, the rest 2x):")
    print(f"  {'board':<16} {'units':>6} {'core':>7} {'--jsonl':>8} {'orders':>7} {'--jsonl':>8}   disagreements")
    for row in rows:
        print(row)
    return 0


@dataclass
class Row:
    """One board's line of the closing table."""

    board: str
    units: float
    figures: tuple[Figure, ...]
    agreement: str = "not compared"

    def __str__(self) -> str:
        ratios = [f"{f.ratio():6.2f}x" if any(f.theirs) else "      -" for f in self.figures]
        core, through, listed, listing = ratios
        return f"  {self.board:<16} {self.units:6.1f} {core} {through:>8} {listed} {listing:>8}   {self.agreement}"


def measure(board: str, args: argparse.Namespace, diplomacy: Any) -> Row:
    """Every figure on a board, and the agreement of the two engines' outcomes."""
    start = time.perf_counter()
    cases = generate(args.phases, args.seed, board)
    units = sum(len(c.position.units) for c in cases)
    print(
        f"generated {len(cases)} positions, {units} units (seed {args.seed}) "
        f"in {time.perf_counter() - start:.1f} s (not measured); medians of {args.rounds} rounds, CPU time;"
        f" the judge's core: {core_build()}"
    )
    if diplomacy is not None:
        new_game(diplomacy, cases[0])  # the package's first game on a board works out its convoy routes once
    their_process = their_adjudication(diplomacy) if diplomacy else None
    their_listing = their_enumeration(diplomacy) if diplomacy else None

    core = Figure("core adjudicate()", "phase", "diplomacy process()", 5 if board == "standard" else 2)
    through = Figure("judge adjudicate --jsonl", "phase", "diplomacy process()", 2)
    enumeration = Figure("legal orders, whole board", "pos", "get_all_possible_orders()", 2)
    listing = Figure("judge orders --jsonl", "pos", "get_all_possible_orders()", 2)
    with tempfile.TemporaryDirectory() as folder:
        adjudicating = Command(["adjudicate", "--jsonl"], [adjudicate_line(c) for c in cases], Path(folder))
        positions = [json.dumps(position_to_data(c.position)) for c in cases]
        ordering = Command(["orders", "--jsonl"], positions, Path(folder))
        for _ in range(args.rounds):
            # One round measures everything once, so that each ratio compares figures taken close in time.
            ours, theirs = back_to_back(cases, our_adjudication, their_process)
            core.add(ours, theirs)
            through.add(adjudicating.per_line(), theirs)
            ours, theirs = back_to_back(cases, our_enumeration, their_listing)
            enumeration.add(ours, theirs)
            listing.add(ordering.per_line(), theirs)
    print()
    row = Row(board, units / len(cases), (core, through, enumeration, listing))
    for figure in row.figures:
        print(figure.line())
    if board == "standard":
        print(f"start-up of a one-shot judge adjudicate: {startup_seconds():.3f} s (wall clock)")
    counted = sum(len(legal_orders(c.position, p)) for c in cases for p in c.position.units)
    print(f"legal orders per unit on average: {counted / units:.1f} (ours)", end="")
    if diplomacy is None:
        print()
        return row
    theirs_counted = sum(
        len(orders) for c in cases[:200] for orders in new_game(diplomacy, c).get_all_possible_orders().values()
    )
    print(f", {theirs_counted / sum(len(c.position.units) for c in cases[:200]):.1f} (diplomacy, first 200)")
    row.agreement = agreement(diplomacy, cases, core)
    return row


def agreement(diplomacy: Any, cases: Sequence[Case], core: Figure) -> str:
    """The package's order checks and the positions where the two engines' outcomes differ
    (printed); the disagreements in short, for the closing table."""
    run = check_theirs(diplomacy, cases)
    with_checks = run.set_orders_seconds / len(cases) + statistics.median(core.theirs)
    print(
        f"  (diplomacy checks orders in set_orders(), not in process(); with it: {1000 * with_checks:.3f} ms/phase,"
        f" ratio {with_checks / statistics.median(core.ours):.2f}x)"
    )
    print(f"orders rejected by diplomacy as invalid: {run.rejected_orders}")
    for example in run.rejected_examples:
        print(f"  {example}")
    disagree = run.disagree
    print(f"positions where the engines disagree: {len(disagree)} of {len(cases)}")
    for index in disagree[:3]:
        print(describe_disagreement(diplomacy, index, cases[index]))
    why = {i: explain(diplomacy, cases[i]) for i in disagree}
    unexplained = [i for i in disagree if why[i] is None]
    counts = {reason: sum(1 for w in why.values() if w == reason) for reason in ("6.G.8", "refused", "6.B.9")}
    print(
        "  of which explained by DATC 6.G.8 (an army move to an adjacent province that goes by convoy, ordered"
        " VIA CONVOY or convoyed by its own power's fleet, whose convoy orders form no route: the army stays under"
        f" DATC v3.0, diplomacy moves it by land): {counts['6.G.8']}"
    )
    if counts["refused"] or run.rejected_orders:
        print(
            "  explained by the package's convoy paths, which never pass through an archipelago (Baleares),"
            " where DPjudge lets a fleet there convoy, and stop at 13 fleets (a big board has room for longer"
            f" routes): {counts['refused']}"
        )
    print(
        "  explained by DATC 6.B.9 (a support naming another coast than the supported fleet moves to is void;"
        f" diplomacy reads supports without coasts and counts it): {counts['6.B.9']}"
    )
    print(f"  disagreements left once these are given to both engines alike: {len(unexplained)}")
    for index in unexplained[:3]:
        print("  (with those moves given by land, and those convoys and supports as holds)")
        case = without_refused_convoys(diplomacy, without_unconvoyed_via(cases[index]))
        print(describe_disagreement(diplomacy, index, without_supports_to_another_coast(case)))
    explained = ", ".join(f"{n} {reason}" for reason, n in counts.items() if n)
    return f"{len(disagree)} of {len(cases)} ({explained or 'none explained'}), {len(unexplained)} left"


if __name__ == "__main__":
    sys.exit(main())
