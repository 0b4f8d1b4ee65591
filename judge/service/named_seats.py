"""The seats of a kind whose players play under the names they join with (Pirates' Proposal, Exchange
Payola, a kind of one's own): what `judge.service.kinds.Lobby` asks of such a kind, written once.

A kind mixes `NamedSeats` into its `GameKind` and sets ``title`` and ``seat_word``; it may narrow
what a name may be (`name_problem`), or read JOIN's name in its own words and keep the rest (Exchange
Payola's `read_join`, Pirates' Proposal's).  A seat is then its player's name as joined (any case
when named later: ``SIGNON alice@game``, ``PRESS TO Alice``), in the order of the names; nobody
chooses a seat with PREFER, and no name is one the commands give a meaning (MASTER, GM, M, ALL, KEY).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from sqlalchemy.orm import Session

from judge.commands.parse import press_to_seats
from judge.service import host
from judge.store.models import Game

NAME = re.compile(r"[A-Za-z][A-Za-z0-9]{1,11}")
"""A player's name, by default: 2 to 12 letters or digits, a letter first."""
HOST_WORDS = frozenset({"MASTER", "GM", "M", "ALL", "KEY"})
"""Words the host gives a meaning where a seat is named: no player may be named so."""


class NamedSeats:
    """`judge.service.kinds.Lobby`'s seats for a kind whose seats are its players' names."""

    title: str
    seat_word: str
    player_word: str = ""
    """What an answer calls those a seat's name names, where one names none ("there is no player named
    ..."): by default, the `seat_word`."""

    def name_problem(self, session: Session, game: Game, name: str) -> str | None:
        """Why ``name`` cannot be a player's name in ``game`` (None: it can): by default, the shape of
        `NAME`, no word of the commands, and no name taken in the game whatever the case."""
        if not NAME.fullmatch(name):
            return f"'{name[:20]}' is not a name here: 2 to 12 letters or digits, a letter first"
        if name.upper() in HOST_WORDS:
            return f"'{name}' cannot be a player's name: MASTER, GM, M, ALL and KEY are words of the commands"
        if name.casefold() in {(p.requested or "").casefold() for p in host.players(session, game)}:
            return f"a player of {game.name} is already named '{name}' (names differ whatever the case): choose another"
        return None

    def read_join(self, session: Session, game: Game, word: str | None) -> str | None:
        if not word:
            raise ValueError(f"a player of {self.title} joins under a name: JOIN {game.name} password name")
        if (problem := self.name_problem(session, game, word)) is not None:
            raise ValueError(problem)
        return word

    def read_preferences(self, session: Session, game: Game, words: Sequence[str]) -> list[str]:
        raise ValueError(f"PREFER does not apply to {self.title}: each player plays under the name they join with "
                         f"(JOIN {game.name} password name)")

    def joined(self, game: Game, requested: str | None) -> str:
        return f"you joined '{game.name}' as {requested} (SIGNON {requested}@{game.name} password)"

    def seat(self, session: Session, game: Game, word: str) -> str:
        found = next((name for name in host.seats(session, game) if name.casefold() == word.casefold()), None)
        if found is None:
            raise ValueError(f"there is no {self.player_word or self.seat_word} named '{word[:20]}' in {game.name}")
        return found

    def seat_title(self, seat: str) -> str:
        return seat

    def seat_order(self, session: Session, game: Game) -> list[str]:
        return sorted(host.seats(session, game), key=str.casefold)

    def press_to(self, session: Session, game: Game, words: Sequence[str]) -> tuple[str, ...]:
        return press_to_seats(words, f"expected PRESS TO followed by {self.player_word or self.seat_word}s' names, "
                                     "ALL, or MASTER",
                              lambda name: self.seat(session, game, name))
