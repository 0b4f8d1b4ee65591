"""The variants of rule 6 as named options of a game.

Options are words a game master gives when creating a game (``CREATE g pw standard EBAYOLA``):

* ``CLASSIC`` (6.1): the original rules: 7 AgP per center, direct offers only, no
  repetition, plateau, augmentation, ``|`` or savings, one offer per unit, zero offers to
  foreign units allowed;
* ``EBAYOLA`` (6.4): the winner pays one more than the best losing total;
* ``LOYAL_UNITS`` (6.5): players order their own units; only dummy units are bribed;
* ``ZEROSUM`` (6.7): a fixed amount of money (see :mod:`judge.payola.treasury`);
* ``BLIND`` (6.3, Tin Cup): offers to or mentioning absent units are silently ignored, and
  statements name only the nationality of the units paid;
* income schedules (6.6): ``INCOME=FIXED:7``, ``INCOME=DECREASING:17`` (the default, from the
  board's victory count: 17 on the standard board, 32 on Modern; rule 6.2, ruling 13),
  ``INCOME=INCREASING:1``, ``INCOME_CAP=100``, ``INCOME_TWICE`` (Spring and Fall).

Every option applies on every board (rule 6.2).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum

from judge.language import gettext as _


class OptionError(ValueError):
    """An option word that the judge does not know, or a bad value."""


class IncomeScheme(Enum):
    DECREASING = "DECREASING"
    FIXED = "FIXED"
    INCREASING = "INCREASING"


@dataclass(frozen=True, slots=True)
class Options:
    """The rule variants in force in a game."""

    classic: bool = False
    ebayola: bool = False
    loyal_units: bool = False
    zerosum: bool = False
    blind: bool = False
    income_scheme: IncomeScheme = IncomeScheme.DECREASING
    income_first: int | None = None  # amount of the first center; None: victory count - 1
    income_cap: int | None = None
    income_twice: bool = False

    @property
    def names(self) -> list[str]:
        """The option words that recreate these options."""
        words = [w for w, on in (("CLASSIC", self.classic), ("EBAYOLA", self.ebayola),
                                 ("LOYAL_UNITS", self.loyal_units), ("ZEROSUM", self.zerosum),
                                 ("BLIND", self.blind)) if on]
        if not self.classic and (self.income_scheme is not IncomeScheme.DECREASING or self.income_first is not None):
            first = "" if self.income_first is None else f":{self.income_first}"
            words.append(f"INCOME={self.income_scheme.value}{first}")
        if self.income_cap is not None:
            words.append(f"INCOME_CAP={self.income_cap}")
        if self.income_twice:
            words.append("INCOME_TWICE")
        return words


_FLAGS = {"CLASSIC": "classic", "EBAYOLA": "ebayola", "LOYAL_UNITS": "loyal_units", "ZEROSUM": "zerosum",
          "BLIND": "blind", "TINCUP": "blind", "INCOME_TWICE": "income_twice"}


def parse_options(words: Iterable[str]) -> Options:
    """Options from their words (any case); unknown words are an error naming the word."""
    values: dict[str, object] = {}
    for raw in words:
        word = raw.strip().upper()
        if not word:
            continue
        if word in _FLAGS:
            values[_FLAGS[word]] = True
            continue
        match = re.fullmatch(r"INCOME=(DECREASING|FIXED|INCREASING)(?::(\d{1,6}))?", word)
        if match:
            values["income_scheme"] = IncomeScheme(match.group(1))
            values["income_first"] = int(match.group(2)) if match.group(2) else None
            continue
        match = re.fullmatch(r"INCOME_CAP=(\d{1,7})", word)
        if match:
            values["income_cap"] = int(match.group(1))
            continue
        known = ", ".join([*_FLAGS, "INCOME=FIXED:N", "INCOME=DECREASING[:N]", "INCOME=INCREASING[:N]",
                           "INCOME_CAP=N"])
        raise OptionError(_("unknown option '{option}' (known: {known})", option=raw.strip()[:40], known=known))
    if values.get("classic"):
        values.setdefault("income_scheme", IncomeScheme.FIXED)
        values.setdefault("income_first", 7)
    if values.get("income_scheme") is IncomeScheme.FIXED and values.get("income_first") is None:
        raise OptionError(_("INCOME=FIXED needs an amount per center, e.g. INCOME=FIXED:7"))
    return Options(**values)  # type: ignore[arg-type]
