"""Orders-ahead benchmark: a community of Payola games plays a season on a fixed seed, half its players
sending their retreat and adjustment orders ahead in ``PHASE`` blocks (issue 70, "Show"): the share of
retreat and adjustment phases that close before their deadline, and the days a season takes, beside the
same seed with nobody sending ahead (today's habit), and their ratio.

Theory of operation.  Each of ``--games`` games (Payola on the standard board, seven powers, the default
phase lengths: 48 hours a movement, 24 a retreat or an adjustment) is played on a judge of its own (the
judge of ``tests/support/harness.py``: SQLite, each mail injected as ``judge inject`` does, the deadline
clock, ``judge tick``, run on a virtual clock) for ``--years`` game-years, from Spring 1901 to the opening
of the next spring after them.  When a phase opens, each power the judge still waits for (`waiting_for`:
in a movement phase every power, in a retreat or adjustment phase those with something to do and no
orders in) answers at a time drawn evenly within the phase's length, and the clock ticks a minute after
the phase opened and after each mail, as ``judge serve``'s clock does every minute: a phase whose last
power has answered closes there (a movement phase at that mail), one nobody completes at its deadline.

What a power writes.  Its movement sheet offers 1 to 3 AgP for a legal order of each of its units: a move
to a centre it does not own seven times in ten where there is one, else a support of such a move where
the unit can give one, else a move two times in three (so that centres change hands and units are
dislodged).  A power that sends ahead (half the seats, alternately
by power and game) puts in the same mail, after its sheet, a ``PHASE`` block for the retreat phase that
follows, a line for each of its units where it stands and where it expects it to stand (a move's
target; a move may fail): a retreat to a neighbour, another as an alternative, then ``| D`` (``A BUR -
PIC | GAS | D``), since it cannot know which will be dislodged, nor where (the judge leaves out the
lines for units not dislodged); and in the fall, a block for the winter adjustment: a build in each home centre it
expects to own and no unit of its own to stand in (owned now, or a move's target), then two removals of
its units where it expects them, as a fallback should it lose centres; the judge takes builds and
removals up to what the centres allow.  A power that does not send ahead, or whose blocks left it still
waited for, answers then with a retreat chosen among the legal ones (a move before a disband), its builds
in free home centres up to what it may build, or the removals it must make.

The run is played twice on the same seed: once so, once with nobody sending ahead.  The draws of a
power's answer time and orders are seeded by game, phase and power, so both runs draw the same while
their games agree; a block may send a unit elsewhere than the player of the other run would, and their
games part from there.  Printed for each run: the retreat and adjustment phases in which some power had
something to do, those that closed before their deadline and those that closed at the first tick after
they opened (nobody waited for), the hours they stayed open on average, the days from Spring 1901 to the
next spring after the season, and the ratios of the first run's to the second's.  A phase in which
nobody has anything to do closes at the tick after it opens in either run (the early close the judge
had already), and is counted apart.  Since every power answers within the phase's length, a phase
closes before its deadline in both runs once its last power has answered: what sending ahead changes
is how soon, hence the phases closed at once and the hours open.

Run: .venv/bin/python bench/ahead_bench.py [--games 12] [--years 2] [--seed 70]
"""

from __future__ import annotations

import argparse
import random
import re
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # tests.support: the harness's judge

from sqlalchemy import select

from judge.api import current_phase
from judge.engine.legal import adjustment_count, legal_builds, legal_orders
from judge.engine.position import Position
from judge.games.payola.lifecycle import position_of, required_powers, waiting_for
from judge.service.hosting.host import phase_duration, phase_seed
from judge.store.models import Game, PhaseRow
from tests.support.harness import Judge, start_game

GAME = "g1"
POWERS = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")
TICK = timedelta(minutes=1)
"""How often ``judge serve``'s deadline clock runs (`judge.service.config.Settings.tick_seconds`)."""
MOVE = re.compile(r"^[AF] \S+ - \S+$")
"""A move by land or sea (not a support, not a convoy)."""
REMOVALS = 2
"""The removals an adjustment block names as a fallback."""


def address(power: str) -> str:
    return f"{power.lower()}@example.org"


def signon(power: str) -> str:
    return f"SIGNON {power}@{GAME} {power.lower()}-pw"


# -- what a power writes ------------------------------------------------------------------------------------------

def moves_of(position: Position, province: str) -> list[str]:
    """The moves the unit in ``province`` may make (``A PAR - BUR``)."""
    return [text for text in map(str, legal_orders(position, province)) if MOVE.match(text)]


def sheet(position: Position, power: str, rng: random.Random) -> tuple[list[str], dict[str, str]]:
    """``power``'s offers for the movement phase of ``position``, and where it expects each unit to stand
    (its unit's text, ``A PAR``, by the province it means it to be in): each unit that can moves to a
    centre it does not own seven times in ten, the others support one of those moves where they can
    (else move two times in three, else hold or support at random); 1 to 3 AgP an offer."""
    game_map = position.game_map
    units = sorted(position.units_of(power), key=lambda placed: placed.location.province)
    chosen: dict[str, str] = {}
    for placed in units:
        province = placed.location.province
        grabs = [move for move in moves_of(position, province)
                 if move.split(" - ")[1].split("/")[0] in game_map.supply_centers - set(position.centers_of(power))]
        if grabs and rng.random() < 0.7:
            chosen[province] = rng.choice(grabs)
    lines: list[str] = []
    expected: dict[str, str] = {}
    for placed in units:
        province = placed.location.province
        order = chosen.get(province)
        if order is None:
            orders = [str(order) for order in legal_orders(position, province)]
            supports = [text for text in orders if any(text.endswith(f" S {move}") for move in chosen.values())]
            moves = moves_of(position, province)
            order = (rng.choice(supports) if supports else rng.choice(moves) if moves and rng.random() < 2 / 3
                     else rng.choice(orders))
        lines.append(f"{rng.randint(1, 3)} : {order}")
        there = order.split(" - ")[1] if MOVE.match(order) else order.split()[1]
        expected[there.split("/")[0]] = f"{order[0]} {there}"
    return lines, expected


def retreat_block(position: Position, power: str, expected: dict[str, str], rng: random.Random) -> list[str]:
    """A retreat line for each unit of ``power`` where it stands and where it expects it (a move may fail):
    two neighbours to go to (a fleet's with their coast), then disband."""
    game_map = position.game_map
    standing = {placed.location.province: placed.unit.text for placed in position.units_of(power)}
    lines = []
    for province, unit in sorted({**standing, **expected}.items()):
        if unit.startswith("A"):
            places = sorted(game_map.army_adjacency.get(province, ()))
        else:
            places = sorted({str(there) for where, near in game_map.fleet_adjacency.items()
                             if str(where) == unit.split()[1] for there in near})
        places = [place for place in places if place.split("/")[0] not in expected]
        chosen = rng.sample(places, min(2, len(places)))
        lines.append(" | ".join([f"{unit} - {chosen[0]}", *chosen[1:], "D"] if chosen else [f"{unit} D"]))
    return lines


def adjustment_block(position: Position, power: str, expected: dict[str, str], rng: random.Random) -> list[str]:
    """Builds in the home centres ``power`` expects to own with none of its units in them, then
    `REMOVALS` removals of its units where it expects them."""
    game_map = position.game_map
    owned = set(position.centers_of(power)) | (set(expected) & game_map.supply_centers)
    homes = sorted(game_map.powers[power].home_centers & owned - set(expected))
    builds = [f"BUILD A {home}" for home in homes if game_map.army_can_stand(home)]
    removals = [f"REMOVE {unit}" for unit in rng.sample(sorted(expected.values()), min(REMOVALS, len(expected)))]
    return builds + removals


def answer(position: Position, power: str, rng: random.Random) -> list[str]:
    """``power``'s orders for the retreat or adjustment phase of ``position``, written when it opens."""
    due = adjustment_count(position, power) if position.phase.kind.value == "A" else 0
    if due > 0:
        builds: dict[str, list[str]] = {}
        for order in map(str, legal_builds(position, power)):
            if order != "WAIVE":
                builds.setdefault(order.split()[2].split("/")[0], []).append(order)
        sites = sorted(builds)
        return [rng.choice(builds[site]) for site in rng.sample(sites, min(due, len(sites)))]
    if due < 0:
        units = sorted(str(placed.unit) for placed in position.units_of(power))
        return [f"REMOVE {unit}" for unit in rng.sample(units, -due)]
    lines = []
    for province, dislodged in sorted(position.dislodged.items()):
        if dislodged.power == power:
            orders = [str(order) for order in legal_orders(position, province)]
            lines.append(rng.choice(orders[:-1]) if len(orders) > 1 else orders[0])
    return lines


# -- playing ------------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Closed:
    """A phase played: its name, when it opened and closed, its deadline, whether anyone had to act, and
    whether every power that had to act sends ahead."""

    name: str
    opened: datetime
    closed: datetime
    deadline: datetime
    acted: bool
    covered: bool = False


@dataclass
class Course:
    """A game's season: its phases, and when it started and ended."""

    phases: list[Closed]
    started: datetime
    ended: datetime


def now_open(judge: Judge) -> tuple[str, datetime, Position, list[str], str]:
    """The game's phase, its deadline and position, the powers it waits for, and the game's state."""
    with judge.db.transaction() as session:
        game = session.scalars(select(Game).where(Game.name == GAME)).one()
        row = current_phase(session, game)
        assert row is not None and game.phase is not None and game.deadline is not None
        return game.phase, game.deadline, position_of(row), waiting_for(session, game), game.state


def fix_seed(judge: Judge, seed: int) -> None:
    """The game's seed, drawn at random at its CREATE, and its open phase's, set from ``seed``."""
    with judge.db.transaction() as session:
        game = session.scalars(select(Game).where(Game.name == GAME)).one()
        game.seed = seed
        for row in session.scalars(select(PhaseRow).where(PhaseRow.game_id == game.id, PhaseRow.name == game.phase)):
            row.seed = phase_seed(game, row.name)


def draws(seed: int, game: int, phase: str, power: str) -> random.Random:
    """The draws of ``power`` in ``phase`` of game ``game``: the same in both runs while their games agree."""
    return random.Random(f"{seed}:{game}:{phase}:{power}")


def play(folder: Path, seed: int, game: int, years: int, ahead: bool) -> Course:
    """One game on a judge in ``folder`` for ``years`` years; ``ahead``: half its powers send blocks ahead."""
    judge = Judge(folder)
    start_game(judge, GAME, "", tuple((address(power), power) for power in POWERS))
    fix_seed(judge, seed * 1000 + game)
    senders = set(POWERS[game % 2::2]) if ahead else set()
    started = judge.now
    name, deadline, position, waiting, state = now_open(judge)
    while state == "active" and position.phase.year < position.game_map.start_year + years:
        opened = judge.now
        times = sorted((opened + (deadline - opened) * draws(seed, game, name, power).random(), power)
                       for power in waiting)
        judge.now += TICK
        judge.tick()
        for at, power in times:
            if now_open(judge)[0] != name:
                break
            judge.now = max(judge.now, at)
            judge.send(address(power), mail(position, power, power in senders, draws(seed, game, name, power)))
            if now_open(judge)[0] == name:
                judge.now += TICK
                judge.tick()
        while now_open(judge)[0] == name:
            judge.now = max(judge.now + TICK, deadline + TICK)
            judge.tick()
        name, deadline, position, waiting, state = now_open(judge)
    return Course(played(judge, senders), started, judge.now)


def played(judge: Judge, senders: set[str]) -> list[Closed]:
    """The game's phases processed, from its record: a phase's deadline is its length after it opened
    (nobody asked for more time), and a power had something to do in it if `required_powers` names it
    (``senders``: the powers that send ahead)."""
    with judge.db.transaction() as session:
        game = session.scalars(select(Game).where(Game.name == GAME)).one()
        rows = session.scalars(select(PhaseRow).where(PhaseRow.game_id == game.id, PhaseRow.status == "processed")
                               .order_by(PhaseRow.opened_at, PhaseRow.id))
        closed = []
        for row in rows:
            assert row.processed_at is not None
            required = set(required_powers(session, game, position_of(row)))
            closed.append(Closed(row.name, row.opened_at, row.processed_at,
                                 row.opened_at + phase_duration(game, row.name), bool(required),
                                 bool(required) and required <= senders))
        return closed


def mail(position: Position, power: str, ahead: bool, rng: random.Random) -> str:
    """What ``power`` sends when it answers the phase of ``position``: its sheet (and, ``ahead``, its blocks)
    in a movement phase, its orders in a retreat or adjustment phase."""
    if position.phase.kind.value != "M":
        return "\n".join([signon(power), *answer(position, power, rng)])
    lines, expected = sheet(position, power, rng)
    if ahead:
        season, year = position.phase.season.value, position.phase.year
        lines += [f"PHASE {season}{year:04d}R", *retreat_block(position, power, expected, rng)]
        if season == "F":
            lines += [f"PHASE W{year:04d}A", *adjustment_block(position, power, expected, rng)]
    return "\n".join([signon(power), *lines])


# -- the figures --------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Figures:
    """A run's figures: retreat and adjustment phases with something to do, those closed before their
    deadline and at the first tick, the mean hours they stayed open, those with nothing to do, the mean
    days of a game's season; and the phases whose every power to act sent ahead, and of them those
    closed at the first tick."""

    phases: int
    early: int
    at_once: int
    hours: float
    idle: int
    days: float
    covered: int = 0
    covered_at_once: int = 0

    @classmethod
    def of(cls, courses: list[Course]) -> Figures:
        short = [phase for course in courses for phase in course.phases if not phase.name.endswith("M")]
        acted = [phase for phase in short if phase.acted]
        days = sum((course.ended - course.started) / timedelta(days=1) for course in courses) / len(courses)
        hours = sum((phase.closed - phase.opened) / timedelta(hours=1) for phase in acted) / max(1, len(acted))
        covered = [phase for phase in acted if phase.covered]
        return cls(len(acted), sum(phase.closed < phase.deadline for phase in acted),
                   sum(phase.closed - phase.opened <= TICK for phase in acted), hours, len(short) - len(acted), days,
                   len(covered), sum(phase.closed - phase.opened <= TICK for phase in covered))

    def share(self, count: int) -> float:
        return count / self.phases if self.phases else 0.0


@contextmanager
def folder() -> Iterator[Path]:
    with tempfile.TemporaryDirectory(prefix="ahead-bench-") as name:
        yield Path(name)


def run(games: int, years: int, seed: int, ahead: bool) -> Figures:
    courses = []
    for game in range(games):
        with folder() as path:
            courses.append(play(path, seed, game, years, ahead))
    return Figures.of(courses)


def table(ahead: Figures, today: Figures) -> list[str]:
    """The rows printed: each run, then the ratio of the first to the second."""
    rows = [f"{'run':<18} {'R/A phases':>10} {'before deadline':>16} {'at once':>14} {'hours open':>10} "
            f"{'nothing to do':>13} {'days a season':>13}"]
    for name, figures in (("half send ahead", ahead), ("nobody ahead", today)):
        rows.append(f"{name:<18} {figures.phases:>10} {figures.early:>6} ({figures.share(figures.early):>6.1%}) "
                    f"{figures.at_once:>4} ({figures.share(figures.at_once):>6.1%}) {figures.hours:>10.2f} "
                    f"{figures.idle:>13} {figures.days:>13.2f}")

    def ratio(one: float, other: float) -> str:
        return f"{one / other:.2f}" if other else "-"

    rows.append(f"{'ahead / nobody':<18} {'':>10} {ratio(ahead.share(ahead.early), today.share(today.early)):>16} "
                f"{ratio(ahead.share(ahead.at_once), today.share(today.at_once)):>14} "
                f"{ratio(ahead.hours, today.hours):>10} {'':>13} "
                f"{ratio(ahead.days, today.days):>13}")
    rows.append(f"half send ahead: {ahead.covered} of the {ahead.phases} phases had every power to act sending "
                f"ahead, and {ahead.covered_at_once} of them closed at once")
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=12, help="games in the community (default 12)")
    parser.add_argument("--years", type=int, default=2, help="game-years a season lasts (default 2)")
    parser.add_argument("--seed", type=int, default=70)
    args = parser.parse_args(argv)
    print(f"Orders ahead: {args.games} Payola games, {args.years} year(s) each, seed {args.seed}, "
          "phases of 48/24/24 hours")
    for row in table(run(args.games, args.years, args.seed, True), run(args.games, args.years, args.seed, False)):
        print(row)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
