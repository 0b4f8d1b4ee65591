"""An Exchange game as one frozen value: the board, the investors and their order, the money, the
share register, the CEOs, the year's worths and each corporation's ledger.

Every corporation is a power of the map (X.1.1) that players may take: a power the map's data
marks as no player's (Known World 901's Neutral State) is none, its units holding unless bribed
as a Payola dummy's do (rule 4.4, 6.5's neutral units).  Every player is an investor, named in
the investor order (E30).  Money is held in investors' private *purses* and corporations'
*treasuries*, in one currency (E3).  The state also counts the money that entered the game
(``minted``: the starting funds and every income) and the money that left it (``destroyed``:
priority, bribes, liquidation remainders, forfeits), so that at every moment

    Σ purses + Σ treasuries + Σ owed + destroyed = minted.

``owed`` is empty but under ``ZEROSUM`` (6.7, :mod:`judge.games.exchange.core.zerosum`): there the
bribes paid to a corporation's units are not destroyed but owed to it until the Income step.

Shares are whole: each corporation has ``issued`` shares, held by investors (outstanding) or
by the corporation itself (its *pool*, what is not held) (X.3.1, E7).
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum
from types import MappingProxyType
from typing import NamedTuple

from judge.engine.map import GameMap
from judge.engine.position import Position
from judge.games.exchange.core.options import ExchangeOptions, corporations_of
from judge.payola.acceptance import AcceptanceList, default_list


class Stage(Enum):
    """Where the year stands (X.8.1): on the board (the position's phase says which), at the
    Income step, at the Exchange phase, or over."""

    BOARD = "board"
    INCOME = "income"
    EXCHANGE = "exchange"
    ENDED = "ended"


class LedgerKind(Enum):
    """What a line of a corporation's ledger records (E24, E38)."""

    WORTH = "worth"  # a center's worth for the fiscal year (E22): ``center``, ``price``
    BRIBE = "bribe"  # an accepted offer paid (rule 5.6): ``order``
    INCOME = "income"  # a center's income at the Income step (E27): ``center``
    INCOME_CAP = "income cap"  # what INCOME_CAP took off the year's income (6.6)
    DONATION = "donation"  # money an investor transferred to the corporation (E5): ``who``
    DIVIDEND = "dividend"  # a dividend paid (E23): ``price`` per share on ``shares`` outstanding
    ISSUE = "issue"  # new shares into the pool (E11): ``shares`` asked at ``price``
    POOL_SALE = "pool sale"  # shares sold from the pool (E8, E9): to ``who``
    BUY_BACK = "buy-back"  # shares bought back into the pool (E12): from ``who``
    LIQUIDATION = "liquidation"  # the treasury paid out at liquidation (E31)
    ZEROSUM_DEPOSIT = "zero sum deposit"  # ZEROSUM (6.7): the bribes its units took this year
    FIRST_CAPTURE = "first capture"  # ZEROSUM (6.7): 10 AgP for a ``center`` no corporation had owned
    CENTER_LOST = "center lost"  # ZEROSUM (6.7): the share of the treasury a lost ``center`` takes to ``who``
    CENTER_TAKEN = "center taken"  # ZEROSUM (6.7): that share, from ``who``, to the center's new owner


class LedgerLine(NamedTuple):
    """One entry of a corporation's ledger: ``amount`` is the change of its treasury (0 for a record
    that moves no money, as a worth)."""

    phase: str
    kind: LedgerKind
    amount: int = 0
    who: str = ""
    center: str = ""
    shares: int = 0
    price: int = 0
    order: str = ""


def _frozen(mapping: Mapping[str, int]) -> Mapping[str, int]:
    return MappingProxyType(dict(mapping))


@dataclass(frozen=True)
class Register:
    """The share register (X.3.1): issued shares per corporation, and who holds how many (only
    holdings above zero are kept).  The rest of the issued shares are in the corporation's pool."""

    issued: Mapping[str, int]
    holdings: Mapping[str, Mapping[str, int]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "issued", _frozen(self.issued))
        object.__setattr__(self, "holdings", MappingProxyType({
            corporation: _frozen({who: n for who, n in held.items() if n})
            for corporation, held in self.holdings.items() if any(held.values())
        }))

    def held(self, corporation: str, investor: str) -> int:
        """The shares of ``corporation`` that ``investor`` holds."""
        return self.holdings.get(corporation, {}).get(investor, 0)

    def outstanding(self, corporation: str) -> int:
        """The shares held by investors: they vote, earn dividends and score (X.3.1)."""
        return sum(self.holdings.get(corporation, {}).values())

    def pool(self, corporation: str) -> int:
        """The shares the corporation holds itself."""
        return self.issued.get(corporation, 0) - self.outstanding(corporation)

    def holders(self, corporation: str) -> tuple[str, ...]:
        """The stockholders of ``corporation``, alphabetically (E37)."""
        return tuple(sorted(self.holdings.get(corporation, {})))

    def portfolio(self, investor: str) -> dict[str, int]:
        """The shares ``investor`` holds, by corporation."""
        return {c: held[investor] for c, held in self.holdings.items() if investor in held}


@dataclass(frozen=True)
class ExchangeState:
    """An Exchange game between two steps.

    ``position`` is the board before its next phase (after the year's last phase it is already
    the next Spring's, while the Income step and the Exchange phase come first: ``stage``).
    ``order`` is the investor order (E30), which is also the list of investors in the game;
    ``ceos`` names each corporation's CEO (a corporation not in it is leaderless, E2);
    ``worths`` are each corporation's worth list for the fiscal year, set at its Spring movement
    (E22: a center's worth belongs to the center, whoever owns it at the year's end: :meth:`worth`);
    ``eliminated`` are the corporations that owned no center at the last Income step, to be
    liquidated at the next Exchange phase (E31), ``liquidated`` those that were.
    Under ``ZEROSUM`` (6.7): ``owed`` is what each corporation's units took in bribes this fiscal
    year, paid to it at the Income step; ``year_owners`` the corporation owning each center when
    the year's Spring opened; ``ever_owned`` the centers a corporation has ever owned.
    """

    options: ExchangeOptions
    position: Position
    stage: Stage
    order: tuple[str, ...]
    purses: Mapping[str, int]
    treasuries: Mapping[str, int]
    register: Register
    ceos: Mapping[str, str] = field(default_factory=dict)
    acceptance: Mapping[str, AcceptanceList] = field(default_factory=dict)
    worths: Mapping[str, Mapping[str, int]] = field(default_factory=dict)
    ledgers: Mapping[str, tuple[LedgerLine, ...]] = field(default_factory=dict)
    eliminated: frozenset[str] = frozenset()
    liquidated: frozenset[str] = frozenset()
    resigned: frozenset[str] = frozenset()
    minted: int = 0
    destroyed: int = 0
    owed: Mapping[str, int] = field(default_factory=dict)
    year_owners: Mapping[str, str] = field(default_factory=dict)
    ever_owned: frozenset[str] = frozenset()
    result: tuple[str, ...] = ()
    """Once ended: the winning corporation, or those in the draw (none if the game master ended it)."""

    def __post_init__(self) -> None:
        for name in ("purses", "treasuries", "ceos", "acceptance", "ledgers", "owed", "year_owners"):
            object.__setattr__(self, name, MappingProxyType(dict(getattr(self, name))))
        object.__setattr__(self, "worths", MappingProxyType({c: _frozen(w) for c, w in self.worths.items()}))

    @property
    def game_map(self) -> GameMap:
        return self.position.game_map

    @property
    def corporations(self) -> tuple[str, ...]:
        """The corporations, in the map's order (X.1.1): :func:`corporations_of` its map."""
        return corporations_of(self.game_map)

    @property
    def live(self) -> tuple[str, ...]:
        """The corporations not liquidated."""
        return tuple(c for c in self.corporations if c not in self.liquidated)

    def worth(self) -> dict[str, int]:
        """Every center priced this fiscal year, and its worth (E22, E27)."""
        return {center: w for worths in self.worths.values() for center, w in worths.items()}

    def ledger(self, corporation: str) -> tuple[LedgerLine, ...]:
        return self.ledgers.get(corporation, ())

    def evolve(self, **changes: object) -> ExchangeState:
        return replace(self, **changes)  # type: ignore[arg-type]


RESERVED = frozenset({"ME", "NONE", "ALL", "BUT", "PASS", "AT", "TO", "FROM", "FOR", "END"})
"""Words of the sheet language, which no investor may be named (E1: ``ME`` means oneself)."""


class NameProblem(Enum):
    """Why a name cannot be an investor's (E1)."""

    NOT_LETTERS_AND_DIGITS = "a name is letters and digits"
    TAKEN = "another investor has this name"
    A_POWER = "a power of the map has this name or initial"
    RESERVED = "this word has a meaning in the sheets"


def name_problem(name: str, game_map: GameMap, taken: Iterable[str] = ()) -> NameProblem | None:
    """E1: why ``name`` cannot be a new investor's, or None.  Names are compared without case."""
    upper = name.upper()
    if not re.fullmatch(r"[A-Za-z0-9]+", name):
        return NameProblem.NOT_LETTERS_AND_DIGITS
    if upper in RESERVED:
        return NameProblem.RESERVED
    if any(upper in (power.upper(), info.letter.upper()) for power, info in game_map.powers.items()):
        return NameProblem.A_POWER
    if upper in {t.upper() for t in taken}:
        return NameProblem.TAKEN
    return None


def initial_order(names: Sequence[str], seed: int | str) -> tuple[str, ...]:
    """E30: the first investor order, a random one drawn from the game's stored seed."""
    order = sorted(names)
    random.Random(f"{seed}/investor order").shuffle(order)
    return tuple(order)


def opening(game_map: GameMap, order: Sequence[str], options: ExchangeOptions) -> ExchangeState:
    """The game before its first Exchange phase ("Winter 1900", X.8.1): every investor with the
    same funds (E4), every corporation with 0 AgP and its whole issue in its pool (E7), nobody a
    CEO, every acceptance list its default (rule 4.2), the first Spring's board."""
    if len(order) != options.investors:
        raise ValueError(f"the game is for {options.investors} investors, not {len(order)} (E1)")
    for i, name in enumerate(order):
        problem = name_problem(name, game_map, order[:i])
        if problem is not None:
            raise ValueError(f"{name}: {problem.value} (E1)")
    start = Position.initial(game_map)
    return ExchangeState(
        options=options,
        position=start,
        stage=Stage.EXCHANGE,
        order=tuple(order),
        purses=dict.fromkeys(order, options.funds),
        treasuries=dict.fromkeys(corporations_of(game_map), 0),
        register=Register(dict.fromkeys(corporations_of(game_map), options.shares)),
        acceptance={power: default_list(game_map.powers[power].letter) for power in corporations_of(game_map)},
        minted=options.funds * len(order),
        ever_owned=frozenset(c for c, owner in start.centers.items() if owner in corporations_of(game_map)),
    )


def new_game(game_map: GameMap, names: Sequence[str], options: ExchangeOptions, seed: int | str) -> ExchangeState:
    """:func:`opening`, with the investor order drawn from ``seed`` (E30)."""
    return opening(game_map, initial_order(names, seed), options)
