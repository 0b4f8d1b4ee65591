"""Convoy routes: which chains of fleets at sea could carry an army.

A route from one coast to another is a chain of seas holding fleets, each touching the
next, the first touching the army's coast and the last the destination.  The questions the
rules ask, and how they are answered:

* *Could a route exist, and where could an army go?*  The seas holding fleets fall into
  connected groups (:class:`ConvoyNetwork`, one per position; each group is found the
  first time the coast of an army asked about touches it, so a position asked about one
  army pays for its groups only); a route exists when one group touches both coasts (one
  of the army's groups holds a sea by the destination), and an army can be
  convoyed to every coast along a group that touches its own coast (worked out only when
  all its destinations are asked for, as when listing legal orders).
* *Is a fleet on a minimal route* (DATC 6.G.19, for the legality of convoy orders)?  A route
  needs each of its fleets exactly when it is an induced path: no fleet touches the start
  except the first, none touches the destination except the last, and no two touch unless
  they are consecutive.  To check one convoy order the induced paths from the army's coast
  are walked until one reaches the destination through the fleet; to list legal orders
  they are walked once, which gives for every destination the fleets on some minimal route.
* *Could a route exist with only some of the fleets* (those whose convoy succeeded, or all
  but a supporting fleet, DATC 6.D.31)?  A search over those seas: :func:`route_exists`.
  A supporting unit that is not a fleet at sea is on no route, so it is not searched for.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping

from judge.engine.map import GameMap

_NONE: frozenset[str] = frozenset()


def seas_linked(game_map: GameMap, start: str, links: Collection[str]) -> set[str]:
    """The seas of ``links`` that a chain of them connects to the coast of ``start``."""
    touching = game_map.sea_adjacency
    frontier = [s for s in touching[start] if s in links]
    seen = set(frontier)
    while frontier:
        for nxt in touching[frontier.pop()]:
            if nxt in links and nxt not in seen:
                seen.add(nxt)
                frontier.append(nxt)
    return seen


def route_exists(game_map: GameMap, start: str, dest: str, links: Collection[str]) -> bool:
    """Whether a chain of the seas in ``links`` links the coasts of two provinces."""
    if start == dest or start not in game_map.coastal or dest not in game_map.coastal:
        return False
    return not seas_linked(game_map, start, links).isdisjoint(game_map.sea_adjacency[dest])


class ConvoyNetwork:
    """The convoy routes of one position: the groups of seas holding fleets, and what they allow.

    Built once per position (:attr:`judge.engine.position.Position.convoys`); the groups of
    seas, the coasts along each, and the answers for each army's coast, are computed on
    first use and kept.
    """

    def __init__(self, game_map: GameMap, fleet_seas: frozenset[str]) -> None:
        self.game_map = game_map
        self.fleet_seas = fleet_seas
        self._group: dict[str, int] = {}  # each sea of a group found so far -> the group's number
        self._members: list[set[str]] = []  # the seas of each group
        self._shores: dict[int, frozenset[str]] = {}  # the coasts along each group, once asked
        self._touching: dict[str, frozenset[int]] = {}  # the groups touching each province asked about
        self._destinations: dict[str, frozenset[str]] = {}
        self._routes: dict[str, Mapping[str, frozenset[str]]] = {}
        self._without: dict[tuple[str, str], frozenset[str]] = {}  # coasts reached without one fleet

    def destinations(self, start: str) -> frozenset[str]:
        """Every coastal province an army in ``start`` could reach through the fleets at sea."""
        found = self._destinations.get(start)
        if found is None:
            found = _NONE
            if start in self.game_map.coastal:
                shores = [self._shores_of(g) for g in self._groups_at(start)]
                found = frozenset().union(*shores) - {start}
            self._destinations[start] = found
        return found

    def _groups_at(self, province: str) -> frozenset[int]:
        """The numbers of the groups of fleets touching a province."""
        found = self._touching.get(province)
        if found is None:
            fleet_seas = self.fleet_seas
            seas = self.game_map.sea_adjacency[province]
            found = self._touching[province] = frozenset([self._group_of(s) for s in seas if s in fleet_seas])
        return found

    def _group_of(self, sea: str) -> int:
        """The number of the group of a sea holding a fleet, finding the group the first time."""
        group = self._group.get(sea)
        if group is None:
            group = len(self._members)
            members = {sea} | seas_linked(self.game_map, sea, self.fleet_seas)
            self._group.update(dict.fromkeys(members, group))
            self._members.append(members)
        return group

    def _shores_of(self, group: int) -> frozenset[str]:
        found = self._shores.get(group)
        if found is None:
            shores = self.game_map.shores
            found = self._shores[group] = frozenset().union(*(shores[s] for s in self._members[group]))
        return found

    def route_exists(self, start: str, dest: str, without: str | None = None) -> bool:
        """Whether the fleets at sea (all but the one in ``without``) could convoy ``start`` to ``dest``."""
        coastal = self.game_map.coastal
        if start == dest or start not in coastal or dest not in coastal:
            return False
        # Some group of fleets touches both coasts; which coasts a group runs along is not needed.
        # The groups at the start are found whole: a sea of theirs by the destination is numbered.
        groups = self._groups_at(start)
        if groups:
            for sea in self.game_map.sea_adjacency[dest]:
                if self._group.get(sea) in groups:
                    return without is None or not self.needs_fleet(start, dest, without)
        return False

    def needs_fleet(self, start: str, dest: str, fleet: str) -> bool:
        """Whether every route from ``start`` to ``dest`` (there is one) goes through the fleet in ``fleet``."""
        if fleet not in self.fleet_seas or not self.on_minimal_route(start, dest, fleet):
            # A unit not at sea is on no route; otherwise the shortest route is a minimal one,
            # and it does not use that fleet.
            return False
        key = (start, fleet)
        found = self._without.get(key)
        if found is None:
            seas = seas_linked(self.game_map, start, self.fleet_seas - {fleet})
            found = self._without[key] = frozenset().union(*(self.game_map.shores[s] for s in seas))
        return dest not in found

    def on_minimal_route(self, start: str, dest: str, fleet: str) -> bool:
        """Whether the fleet in sea ``fleet`` is on some minimal route from ``start`` to ``dest``.

        Read off :meth:`minimal_routes` when they are known; otherwise, unless the fleet alone
        links the two coasts, the induced paths from ``start`` are walked only until one reaches
        ``dest`` through ``fleet``: a path stops where it first touches ``dest`` (going on, it
        would not be induced).
        """
        walked = self._routes.get(start)
        if walked is not None:
            return fleet in walked.get(dest, _NONE)
        if start == dest or fleet not in self.fleet_seas:
            return False
        touching, shores, fleet_seas = self.game_map.sea_adjacency, self.game_map.shores, self.fleet_seas
        if start in shores[fleet] and dest in shores[fleet]:
            return True  # the fleet alone is a route: the shortest there is, so a minimal one

        def extend(last: str, through: bool, barred: frozenset[str]) -> bool:
            # ``through``: the path holds ``fleet``; ``barred`` as in :meth:`_walk`.  No sea
            # but the last touches ``dest``, or the path would have stopped there.
            if dest in shores[last]:
                return through
            further = barred | touching[last]
            return any(
                extend(nxt, through or nxt == fleet, further)
                for nxt in touching[last]
                if nxt in fleet_seas and nxt not in barred
            )

        at_start = touching[start]
        return any(extend(first, first == fleet, at_start) for first in at_start & fleet_seas)

    def minimal_routes(self, start: str) -> Mapping[str, frozenset[str]]:
        """For each destination of an army in ``start``, the fleets on some minimal route to it."""
        found = self._routes.get(start)
        if found is None:
            found = self._routes[start] = self._walk(start) if self.destinations(start) else {}
        return found

    def _walk(self, start: str) -> dict[str, frozenset[str]]:
        """Walk every induced path of fleets from ``start`` (see the module docstring)."""
        touching, shores = self.game_map.sea_adjacency, self.game_map.shores
        fleets: dict[str, set[str]] = {}

        def extend(path: list[str], behind: frozenset[str], barred: frozenset[str]) -> None:
            # ``behind``: coasts along the path but its last sea; ``barred``: seas that touch
            # the start or a sea of the path but its last (the path's own seas among them).
            last = path[-1]
            for dest in shores[last] - behind - {start}:
                fleets.setdefault(dest, set()).update(path)
            for nxt in touching[last]:
                if nxt in self.fleet_seas and nxt not in barred:
                    path.append(nxt)
                    extend(path, behind | shores[last], barred | touching[last])
                    path.pop()

        at_start = touching[start]
        for first in sorted(at_start & self.fleet_seas):
            extend([first], _NONE, at_start)
        return {dest: frozenset(found) for dest, found in fleets.items()}
