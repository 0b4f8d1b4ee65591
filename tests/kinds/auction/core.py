"""The auction's rules, pure: a state, the bids of a lot, the state after.

Theory of operation.  `Auction` is the whole game as a value: each seat's coins and lots won, the
lot on sale, and what was sold.  `sell` takes the bids standing for the lot on sale (a seat that sent
none bids nothing), sells it to the highest bid at its price (a tie goes to the seat first in
``order``; nobody buys a lot all bid 0 for) and returns the state after; `ranking` orders the seats
at the end.  No clock, no I/O: the kind's edges (`tests.kinds.auction.kind`) read and store it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

MAX_LOTS = 9
MAX_COINS = 10_000


@dataclass(frozen=True)
class Sale:
    """One lot sold (or not): its number, its buyer (None: nobody bid), the price, and every bid."""

    lot: int
    buyer: str | None
    price: int
    bids: tuple[tuple[str, int], ...]


@dataclass(frozen=True)
class Auction:
    """The game: each seat's coins and lots, the lot on sale (``lots + 1`` once all are sold)."""

    lots: int
    coins: Mapping[str, int]
    won: Mapping[str, int]
    lot: int = 1
    sales: tuple[Sale, ...] = field(default=())

    @property
    def over(self) -> bool:
        return self.lot > self.lots


def start(seats: Sequence[str], lots: int, coins: int) -> Auction:
    """Every seat with ``coins`` and no lot; lot 1 on sale."""
    if not 1 <= lots <= MAX_LOTS or not 0 <= coins <= MAX_COINS:
        raise ValueError(f"an auction has 1 to {MAX_LOTS} lots and 0 to {MAX_COINS} coins a player")
    return Auction(lots, dict.fromkeys(seats, coins), dict.fromkeys(seats, 0))


def check_bid(auction: Auction, seat: str, amount: int) -> str | None:
    """Why ``seat`` may not bid ``amount`` on the lot on sale, or None."""
    if auction.over:
        return "every lot is sold"
    if amount < 0:
        return "a bid is 0 coins or more"
    if amount > auction.coins.get(seat, 0):
        return f"you have {auction.coins.get(seat, 0)} coins: you cannot bid {amount}"
    return None


def sell(auction: Auction, bids: Mapping[str, int], order: Sequence[str]) -> Auction:
    """The lot on sale sold to the highest valid bid, the first in ``order`` among equals."""
    standing = tuple((seat, bids.get(seat, 0)) for seat in order if seat in auction.coins)
    valid = [(seat, amount) for seat, amount in standing if check_bid(auction, seat, amount) is None]
    best = max((amount for _, amount in valid), default=0)
    buyer = next((seat for seat, amount in valid if amount == best), None) if best > 0 else None
    coins, won = dict(auction.coins), dict(auction.won)
    if buyer is not None:
        coins[buyer] -= best
        won[buyer] += 1
    sale = Sale(auction.lot, buyer, best if buyer else 0, standing)
    return replace(auction, coins=coins, won=won, lot=auction.lot + 1, sales=(*auction.sales, sale))


def ranking(auction: Auction, order: Sequence[str]) -> list[str]:
    """The seats best first: the most lots, then the most coins, then the game's order."""
    return sorted(auction.coins, key=lambda seat: (-auction.won[seat], -auction.coins[seat], order.index(seat)))


def winner(auction: Auction, order: Sequence[str]) -> str | None:
    """The seat ahead of every other by lots or by coins; None on a tie for first."""
    first, *rest = ranking(auction, order)
    if rest and (auction.won[rest[0]], auction.coins[rest[0]]) == (auction.won[first], auction.coins[first]):
        return None
    return first


def to_data(auction: Auction) -> dict[str, Any]:
    return {"lots": auction.lots, "coins": dict(auction.coins), "won": dict(auction.won), "lot": auction.lot,
            "sales": [{"lot": s.lot, "buyer": s.buyer, "price": s.price, "bids": [list(b) for b in s.bids]}
                      for s in auction.sales]}


def from_data(data: Mapping[str, Any]) -> Auction:
    return Auction(int(data["lots"]), dict(data["coins"]), dict(data["won"]), int(data["lot"]),
                   tuple(Sale(s["lot"], s["buyer"], s["price"], tuple((seat, amount) for seat, amount in s["bids"]))
                         for s in data["sales"]))
