"""The options of an Exchange Payola game: how many investors, shares and AgP (E1, E4, E7), and
which of Payola's variations (rule 6) it is played with.

Option words, given at creation like Payola's (``CREATE g pw standard INVESTORS=5 EBAYOLA``):

* ``INVESTORS=n`` (E1): how many investors play, at least 2; by default one per corporation;
* ``SHARES=n`` (E7): the shares each corporation issues at the start, at least 1; by default 10;
* ``FUNDS=n`` (E4): each investor's starting AgP; by default floor(sum over the corporations of
  I(home centers) / investors), which keeps a standard Payola start's money (350 / 7 = 50 on
  the standard map).

Payola's variations that Exchange plays:

* ``EBAYOLA`` (6.4): only the price of an issued order changes; the saving goes back down the
  owner's acceptance list, in which investors come last, in the investor order (E26).
* the income schemes (6.6) ``INCOME=FIXED:n``, ``INCOME=DECREASING[:n]``,
  ``INCOME=INCREASING[:n]`` and ``INCOME_CAP=n``: *I(n)* is the scheme's (capped) income for
  n centers, which a CEO's worths must add up to (E22); unpriced centers continue the scheme
  above the priced ones (E27); a corporation's income is capped as a whole.  With no capture
  this pays exactly the scheme's income, as the standard scale does.
* ``ZEROSUM`` (6.7): no income; the bribes a corporation's units take are paid to it at the
  Income step, and captures move money between corporations (a first capture earns 10 AgP);
  no worths are set; the default FUNDS share out 10 AgP for each corporation's home center.
  :mod:`judge.games.exchange.core.zerosum` says how each point of 6.7 reads for corporations and
  investors, money conserved and each investor told what is theirs.  With no income, an income
  scheme or cap given beside it is refused.

And those it refuses, with the reason:

* ``CLASSIC`` (6.1) allows zero offers to foreign units, and every unit is foreign to an
  investor, whose offers must be at least 1 AgP (E25).
* ``LOYAL_UNITS`` (6.5): no player owns a power or its units (X.1.1); a CEO plays the
  corporation by offers, as a Payola player (X.5.1), so there is no loyal unit to order.
* ``BLIND`` (6.3, Tin Cup): a player sees what its units see, and an investor owns none; the
  board and the orders issued are public to every investor (E36).
* ``INCOME_TWICE`` (6.6): income is paid once a year, at the end of the fiscal year (E27), and
  a worth is a center's income for that year (X.5.2).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from judge.engine.map import GameMap
from judge.games.exchange.core.income import ZEROSUM_CENTER, standard_income
from judge.language import gettext as _
from judge.payola.options import OptionError, Options, parse_options

DEFAULT_SHARES = 10
"""E7: the shares each corporation issues at the start (Duewer's 1.5 example)."""

REFUSED: dict[str, Callable[[str], str]] = {
    "CLASSIC": lambda word: _("Exchange Payola does not play {option}: zero offers to foreign units are allowed in "
                              "Payola Classic, and an investor's offers must be at least 1 AgP (E25)", option=word),
    "LOYAL_UNITS": lambda word: _("Exchange Payola does not play {option}: nobody owns a power's units: a CEO plays "
                                  "the corporation by offers (X.1.1, X.5.1)", option=word),
    "BLIND": lambda word: _("Exchange Payola does not play {option}: an investor owns no units to see with, and the "
                            "board is public to every investor (E36)", option=word),
    "INCOME_TWICE": lambda word: _("Exchange Payola does not play {option}: income is paid once, at the end of the "
                                   "fiscal year, and a worth is a year's income (E27)", option=word),
}
"""The Payola options an Exchange game refuses, and why (see the module's header), in the reader's language."""


@dataclass(frozen=True, slots=True)
class ExchangeOptions:
    """The settings of an Exchange game, fixed at its creation."""

    investors: int
    """E1: how many investors play."""
    funds: int
    """E4: each investor's starting AgP."""
    shares: int = DEFAULT_SHARES
    """E7: the shares each corporation issues at the start, all in its pool."""
    payola: Options = field(default_factory=Options)
    """The Payola variations in force (only those the header accepts)."""

    @property
    def names(self) -> list[str]:
        """The option words that recreate these options."""
        return [f"INVESTORS={self.investors}", f"SHARES={self.shares}", f"FUNDS={self.funds}", *self.payola.names]


def corporations_of(game_map: GameMap) -> tuple[str, ...]:
    """Every power of the map a player may take, in the map's order (X.1.1); not a power its data
    marks as no player's (a ``dummy``, as Known World 901's Neutral State)."""
    return tuple(power for power, info in game_map.powers.items() if not info.dummy)


def default_funds(game_map: GameMap, investors: int, payola: Options | None = None) -> int:
    """E4: floor(sum over the powers of I(home centers) / investors); under ``ZEROSUM`` the 10 AgP a
    center of 6.7.1 instead of I(n)."""
    payola = payola or Options()
    if payola.zerosum:
        homes = sum(len(game_map.powers[p].home_centers) for p in corporations_of(game_map))
        return ZEROSUM_CENTER * homes // investors
    total = sum(standard_income(len(game_map.powers[p].home_centers), game_map.victory_centers, payola)
                for p in corporations_of(game_map))
    return total // investors


def exchange_options(words: Iterable[str], game_map: GameMap) -> ExchangeOptions:
    """Options from their words (any case): ``INVESTORS=n``, ``SHARES=n``, ``FUNDS=n`` and the Payola
    words Exchange accepts; an unknown or refused word, or a bad number, is an :class:`OptionError`
    naming it and why."""
    numbers: dict[str, int] = {}
    payola_words: list[str] = []
    for raw in words:
        word = raw.strip().upper()
        if not word:
            continue
        match = re.fullmatch(r"(INVESTORS|SHARES|FUNDS)=(\d{1,7})", word)
        if match:
            numbers[match.group(1)] = int(match.group(2))
        elif word.split("=")[0] in REFUSED or word == "TINCUP":
            refused = "BLIND" if word == "TINCUP" else word.split("=")[0]
            raise OptionError(REFUSED[refused](raw.strip()[:40]))
        else:
            payola_words.append(word)
    payola = parse_options(payola_words)
    if payola.zerosum and (payola.income_cap is not None or any(w.startswith("INCOME=") for w in payola_words)):
        raise OptionError(_("ZEROSUM pays no income (6.7), so an income scheme or cap has nothing to apply to"))
    investors = numbers.get("INVESTORS", len(corporations_of(game_map)))
    if investors < 2:
        raise OptionError(_("an Exchange game needs at least 2 investors (E1)"))
    shares = numbers.get("SHARES", DEFAULT_SHARES)
    if shares < 1:
        raise OptionError(_("each corporation issues at least 1 share (E7)"))
    funds = numbers.get("FUNDS", default_funds(game_map, investors, payola))
    return ExchangeOptions(investors, funds, shares, payola)
