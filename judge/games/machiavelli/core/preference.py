"""Appendix A, the Area Preference List: how the judge ranks the areas a unit may go to (M28, M52).

For a unit of one owner every area falls in a category:

1. a friendly province (controlled by the owner);
2. a province with a supporting rebellion (one whose victim is somebody else);
3. an unrebelling province no player controls (empty of markers, contested, or independent);
4. a sea (for a fleet), ranked by the board's sea order;
5. a province another player controls

(a province rebelling against the owner is in none).  Within categories 1, 2, 3 and 5 a province
ranks by its *subcategory* — 1: in the owner's current or original home country; 3: in the
current home country of another living player; 2: elsewhere — then by its *sub-subcategory* —
the magnitude-3 city first, then magnitude 2, a garrisoned port city, a garrisoned city, an
ungarrisoned port city, an ungarrisoned city, no city — and a coastal province before an inland
one.  Category 6, conversion into the city, is the retreat code's business.

Ties are broken as Appendix A says, "giving precedence to the shortest route towards other areas
defined in the same list": for categories 1 to 5 in turn, the distance — in the unit's own move
graph (M28) — to the nearest *other* area of that category, and that area's own rank; and last
by the area's name, accents folded (M52).  :meth:`Preference.key` is the whole comparison.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass, field

from judge.games.machiavelli.core.board import Board, ascii_name
from judge.games.machiavelli.core.position import Independent, Owner, Position, UnitKind

FAR = 10**6  # the distance to a category the unit cannot reach at all
Rank = tuple[int, ...]
Key = tuple[int, Rank, tuple[tuple[int, Rank], ...], str]


@dataclass(frozen=True)
class Preference:
    """Appendix A as it applies to one owner's unit of one kind, on a position (its control,
    rebellions and home countries) with ``garrisoned`` the areas whose city holds a garrison."""

    board: Board
    position: Position
    owner: Owner
    kind: UnitKind
    garrisoned: frozenset[str]
    _homes: Mapping[str, frozenset[str]] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        homes = {
            power: frozenset().union(*(self.board.home_country(c) for c in countries))
            for power, countries in self.position.homes.items()
            if power not in self.position.eliminated
        }
        object.__setattr__(self, "_homes", homes)

    def category(self, area: str) -> int | None:
        """Appendix A's category (1 to 5) of ``area`` for this owner; None: a province rebelling
        against the owner, which is in none."""
        if self.board.areas[area].is_sea:
            return 4
        victim = self.position.rebellions.get(area)
        if victim is not None:
            return 2 if victim != self.owner else None
        controller = self.position.controller(area)
        if controller == self.owner:
            return 1
        if controller is None or isinstance(controller, Independent):
            return 3
        return 5

    def subcategory(self, area: str) -> int:
        """1: own home country (current or original); 3: another living player's; 2: any other."""
        owner = self.owner
        if isinstance(owner, str) and (area in self.board.home_country(owner) or area in self._homes.get(owner, ())):
            return 1
        if any(area in areas for power, areas in self._homes.items() if power != owner):
            return 3
        return 2

    def subsubcategory(self, area: str) -> int:
        """1 to 7: magnitude 3, magnitude 2, garrisoned port, garrisoned city, port, city, none."""
        city = self.board.areas[area].city
        if city is None:
            return 7
        if city.magnitude:
            return 4 - city.magnitude  # magnitude 3 first, then 2
        garrisoned = area in self.garrisoned
        if city.port:
            return 3 if garrisoned else 5
        return 4 if garrisoned else 6

    def rank(self, area: str) -> Rank:
        """The rank of ``area`` within its category (the smaller, the preferred)."""
        a = self.board.areas[area]
        if a.is_sea:
            return (self.board.sea_order.index(area),)
        return (self.subcategory(area), self.subsubcategory(area), 0 if a.is_coastal else 1)

    def nearest(self, area: str) -> tuple[tuple[int, Rank], ...]:
        """For categories 1 to 5: the distance from ``area`` to the nearest other area of that
        category, and the best rank among those that near (Appendix A's tie-break)."""
        distance = {area: 0}
        queue = deque([area])
        while queue:
            here = queue.popleft()
            for there in self.board.reach(self.kind, here):
                if there not in distance:
                    distance[there] = distance[here] + 1
                    queue.append(there)
        best: dict[int, tuple[int, Rank]] = {}
        for other, steps in distance.items():
            category = self.category(other) if other != area else None
            if category is not None:
                best[category] = min(best.get(category, (FAR, ())), (steps, self.rank(other)))
        return tuple(best.get(category, (FAR, ())) for category in range(1, 6))

    def key(self, area: str) -> Key:
        """The whole of Appendix A's comparison: the smaller key is preferred."""
        category = self.category(area)
        assert category is not None, f"{area} rebels against {self.owner}: no retreat goes there"
        return (category, self.rank(area), self.nearest(area), ascii_name(self.board.areas[area].name))
