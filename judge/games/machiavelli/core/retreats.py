"""F.2, the Retreat phase: the judge chooses every retreat (AoP 13.5, Appendix A, M28, M41 to M43).

Theory of operation.  A unit forced to retreat may go, as one advance without transport, to an
area that is empty after F.1, that no force attacked this season (M42), that is not the area the
attack came from (M41: for a transported attack, the army's starting area), and that is not a
province rebelling against its owner (11.2).  Through a strait it goes last of all; there the
judge grants the controller's permission unless the controller made the attack (13.5).  When
nothing else is open it may convert into the empty, unrebelling fortified city of its own
province (a port city for a fleet); an independent unit may retreat only so (16, M33).  Open
areas are ranked by :class:`~.preference.Preference` (Appendix A).  An army never retreats onto
an island that holds fleets only (1.3, M15): the board gives such an island no army neighbour
(the loader refuses one), and a retreat is an advance without transport.

All retreats are chosen together, to avoid eliminations (13.5).  Units that could clash are
grouped (they share some possible place), and in each group the judge takes the assignment that
lets the most units survive, then the most survive without converting, then gives each unit in
turn — the unit whose best choice ranks first, then by its area's name — the best place still
compatible with those two counts.  The rest are eliminated.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from judge.games.machiavelli.core.board import Board, Location, ascii_name
from judge.games.machiavelli.core.position import Place, Position, Unit, UnitKind
from judge.games.machiavelli.core.preference import Preference
from judge.games.machiavelli.core.results import Reason, Retreat


@dataclass(frozen=True)
class Dislodgement:
    """A unit forced to retreat: as it stands now, who forced it, and from which area (M41)."""

    unit: Unit
    attacker: Unit
    attacked_from: str


@dataclass(frozen=True)
class _Option:
    key: tuple[Any, ...]  # moves by Appendix A (straits last), then conversion
    place: Place
    to: Unit
    converts: bool


def retreats(
    board: Board,
    position: Position,
    standing: Mapping[Place, Unit],
    dislodged: Sequence[Dislodgement],
    attacked: frozenset[str],
) -> tuple[Retreat, ...]:
    """Where each dislodged unit goes (``standing``: the units in place after F.1; ``position``:
    the board as F began, whose control and rebellions Appendix A and 11.2 read)."""
    garrisoned = frozenset(p.area for p in standing if p.city)
    options = [_options(board, position, standing, d, attacked, garrisoned) for d in dislodged]
    order = sorted(range(len(dislodged)), key=lambda i: (
        options[i][0].key if options[i] else (2,), ascii_name(board.areas[dislodged[i].unit.area].name),
        dislodged[i].unit.kind.value))
    chosen: dict[int, _Option | None] = {}
    for group in _groups(order, options):
        chosen.update(_assign(group, options))
    result = []
    for i in order:
        d, option = dislodged[i], chosen[i]
        if option is not None:
            reason = Reason.RETREAT_CONVERTED if option.converts else Reason.RETREATED
        elif d.unit.independent:
            reason = Reason.INDEPENDENT_FORCED_OUT
        else:
            reason = Reason.RETREAT_CLASH if options[i] else Reason.NO_RETREAT
        result.append(Retreat(d.unit, d.attacked_from, option.to if option else None, reason))
    return tuple(result)


def _options(board: Board, position: Position, standing: Mapping[Place, Unit], d: Dislodgement,
             attacked: frozenset[str], garrisoned: frozenset[str]) -> list[_Option]:
    """The places the unit may retreat to, the preferred first; conversion last."""
    unit = d.unit
    found: list[_Option] = []
    if not unit.independent:
        preference = Preference(board, position, unit.owner, unit.kind, garrisoned)
        if unit.kind is UnitKind.ARMY:
            targets = [Location(area) for area in board.army_reach(unit.area)]
        else:
            targets = list(board.fleet_reach(Location(unit.area, unit.coast)))
        for target in targets:
            area = target.area
            if (area == d.attacked_from or area in attacked or Place(area) in standing
                    or (board.areas[area].single_unit and Place(area, city=True) in standing)
                    or position.rebellions.get(area) == unit.owner):
                continue
            strait = board.strait(unit.area, area)
            if strait is not None and strait.controller is not None:
                guard = position.province_unit(strait.controller)
                if (guard is not None and guard.kind is UnitKind.FLEET and guard.owner == d.attacker.owner
                        and guard.owner != unit.owner):
                    continue  # the controller made the attack: permission denied (13.5)
            key = (0, strait is not None, preference.key(area), target.coast or "")
            found.append(_Option(key, Place(area), Unit(unit.kind, unit.owner, area, target.coast), False))
    city = board.areas[unit.area].city
    if (unit.kind is not UnitKind.GARRISON and city is not None and city.fortified
            and (city.port or unit.kind is UnitKind.ARMY) and Place(unit.area, city=True) not in standing
            and unit.area not in position.rebellions):
        garrison = Unit(UnitKind.GARRISON, unit.owner, unit.area)
        found.append(_Option((1,), garrison.place, garrison, True))
    return sorted(found, key=lambda option: option.key)


def _groups(order: Sequence[int], options: Sequence[list[_Option]]) -> list[list[int]]:
    """The dislodged units (by index) split into groups that share no possible place, each in ``order``."""
    groups: list[tuple[set[Place], list[int]]] = []
    for unit in order:
        places = {option.place for option in options[unit]}
        merged: tuple[set[Place], list[int]] = (places, [unit])
        for group in [g for g in groups if g[0] & places]:
            groups.remove(group)
            merged = (merged[0] | group[0], group[1] + merged[1])
        groups.append(merged)
    return [sorted(units, key=order.index) for _, units in groups]


def _assign(group: Sequence[int], options: Sequence[list[_Option]]) -> dict[int, _Option | None]:
    """The best assignment of one group: most survivors, then fewest conversions, then each unit
    in turn its best place (depth-first in that order, keeping only strictly better scores)."""
    weight = len(group) + 1  # one more survivor outweighs any number of conversions
    value = {unit: max((weight if o.converts else weight + 1 for o in options[unit]), default=0) for unit in group}
    bound = [sum(value[u] for u in group[i:]) for i in range(len(group) + 1)]
    best: tuple[int, list[_Option | None]] = (-1, [])

    def search(i: int, used: frozenset[Place], score: int, chosen: list[_Option | None]) -> None:
        nonlocal best
        if score + bound[i] <= best[0]:
            return
        if i == len(group):
            best = (score, list(chosen))
            return
        for option in options[group[i]]:
            if option.place not in used:
                gain = weight if option.converts else weight + 1
                search(i + 1, used | {option.place}, score + gain, [*chosen, option])
        search(i + 1, used, score, [*chosen, None])

    search(0, frozenset(), 0, [])
    return dict(zip(group, best[1], strict=True))
