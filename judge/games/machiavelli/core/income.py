"""Income (AoP 5, 14): who collects each area's tax, what each player's income comes to, and what
a province is worth to a buyer or a tax collector.

Tax (5.1, M47, M53).  A sea pays 1 to the owner of the fleet in it (none to nobody).  A province
pays 1 to the owner of the army or fleet in it, or, empty, to its controller (the marker), unless
it rebels.  A city pays its income (1, or a major city's magnitude) to the owner of its garrison,
or, ungarrisoned, to the controller of its province, unless it is under siege (a siege in
progress, M47) or rebels.  So an army or fleet and a garrison of different owners each take
their part (4.1).  Independent states collect nothing that matters.  Venice (14, M14): a Lagoon
without a fleet pays its 1 to the controller of Venice, 5 in all.

Trade (5.2, M29): each home country a player holds pays its trade income, however many of its
cities the player holds.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import Enum

from judge.games.machiavelli.core.board import Board
from judge.games.machiavelli.core.position import Owner, Position


class Source(Enum):
    """What pays a ducat of income (5.1, 5.2, 14)."""

    PROVINCE = "province"
    CITY = "city"
    SEA = "sea"
    LAGOON = "lagoon"
    TRADE = "trade"


@dataclass(frozen=True)
class Earning:
    """What one area, or one home country's trade, paid a player: ``where`` is the area's code,
    or for trade the home country (its power's name)."""

    source: Source
    where: str
    ducats: int


@dataclass(frozen=True)
class Income:
    """One player's income of an A.2 (5.1, 5.2, 14), and what paid it, area by area (``earnings``:
    not compared, the counts say the same)."""

    seas: int = 0
    provinces: int = 0
    cities: int = 0
    lagoon: int = 0
    trade: int = 0
    earnings: tuple[Earning, ...] = field(default=(), compare=False)

    @property
    def tax(self) -> int:
        """The tax income (5.1, 14): everything but trade."""
        return self.seas + self.provinces + self.cities + self.lagoon

    @property
    def total(self) -> int:
        return self.tax + self.trade


def province_collector(position: Position, area: str) -> Owner | None:
    """Who collects the tax of the province (or sea) ``area`` (5.1, M47, M53)."""
    unit = position.province_unit(area)
    if unit is not None:
        return None if area in position.rebellions else unit.owner
    return position.controller(area)


def city_collector(board: Board, position: Position, area: str) -> Owner | None:
    """Who collects the tax of the city of ``area`` (5.1, M47), if it has one."""
    if board.areas[area].city is None or area in position.sieges:
        return None
    garrison = position.garrison(area)
    if garrison is not None:
        return garrison.owner
    return position.controller(area)


def incomes(board: Board, position: Position, players: Iterable[str], *, trade: bool = True) -> dict[str, Income]:
    """Each player's income as the position stands (A.2); without ``trade``, the tax alone (the
    "tax income which would be currently collected" that ranks players: 4.2)."""
    wanted = set(players)
    counts = {player: {"seas": 0, "provinces": 0, "cities": 0, "lagoon": 0} for player in wanted}
    earned: dict[str, list[Earning]] = {player: [] for player in wanted}
    for code, area in sorted(board.areas.items()):
        collector = province_collector(position, code)
        if collector in wanted:
            assert isinstance(collector, str)
            counts[collector]["seas" if area.is_sea else "provinces"] += 1
            earned[collector].append(Earning(Source.SEA if area.is_sea else Source.PROVINCE, code, 1))
        if area.city is not None:
            city = city_collector(board, position, code)
            if city in wanted:
                assert isinstance(city, str)
                counts[city]["cities"] += area.city.income
                earned[city].append(Earning(Source.CITY, code, area.city.income))
    lagoon = board.lagoon
    if lagoon is not None and position.province_unit(lagoon.sea) is None:
        venice = position.controller(lagoon.island)
        if venice in wanted:
            assert isinstance(venice, str)
            counts[venice]["lagoon"] += 1
            earned[venice].append(Earning(Source.LAGOON, lagoon.sea, 1))
    for player in wanted if trade else ():
        earned[player] += [Earning(Source.TRADE, c, board.trade[c]) for c in sorted(position.home_countries(player))]
    return {
        player: Income(**counts[player], trade=sum(e.ducats for e in earned[player] if e.source is Source.TRADE),
                       earnings=tuple(earned[player]))
        for player in sorted(wanted)
    }


def tax_value(board: Board, area: str) -> int:
    """A province's full tax income, its city's included: the least it sells for (6, M10; Rome 3)."""
    city = board.areas[area].city
    return 1 + (city.income if city is not None else 0)


def forced_tax(board: Board, position: Position, player: str, area: str) -> int:
    """What taxing ``area`` by force yields (5.3, M11): 1 for the province, and 1 more if the
    player controls a city in it (a major city no more); Venice's Lagoon is a sea, not taxed."""
    city = board.areas[area].city is not None and city_collector(board, position, area) == player
    return 2 if city else 1
