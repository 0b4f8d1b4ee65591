"""An Exchange game in the host's rows: its state in the phase rows, its sheets in submission rows,
and its investors in the seat rows.  The kind adds no table of its own.

Theory of operation.  The game is the core's `ExchangeState`, kept as JSON
(`judge.games.exchange.core.notation`) in the game's phase rows.  The open phase's row holds the
state *as it stands* (``position``): what acts at once during a phase (a ``TRANSFER``, E5; an
acceptance list, rule 4.3; a resignation, E32) is written to it when it comes, and the transfers
of the phase are listed beside it (``transfers``) for the investors' statements (E39).  Once
processed, a row keeps what happened (``result``): the state after the phase (and after the
Income step that followed it, E27), the public results every reader was sent (``public``), and
the game master's chart of everything (``chart``), which is what is published at the end (E41),
and the votes on the game's end standing as it was processed (``votes``), for a ROLLBACK.

An investor's sheet for the open phase is one `Submission` row (kind ``sheet``): the lines of
each of its parts as written, its own lines and each ``FOR`` block, already merged with the
sheet that stood before (2.1: a later valid sheet replaces the earlier one part by part), so the
latest row is the sheet standing; an empty one is a CLEAR.  ``WAIT`` is the host's row of kind ``wait``.

A seat is an investor's name, in capitals (E1): the host's seat row keeps it (`seat_of`, `seat`).
An investor's vote on the game's end (E34) is kept, secret, in the game's settings (``votes``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import Connection
from sqlalchemy.orm import Session

from judge import api
from judge.api import Game, PhaseRow, Player, split_options
from judge.engine.map import GameMap, load_map
from judge.games.exchange.core.notation import state_from_data, state_to_data
from judge.games.exchange.core.options import ExchangeOptions, exchange_options
from judge.games.exchange.core.phases import phase_name
from judge.games.exchange.core.state import ExchangeState

SHEET = "sheet"
"""The kind of an Exchange game's submission rows (a WAIT is the host's, `judge.service.hosting.host.WAIT`)."""


# -- seats -------------------------------------------------------------------------------------------


def seat_of(player: Player) -> str | None:
    """The investor a seat row is (None before the start)."""
    return player.seat


VOTES = "votes"
"""The key of the game's settings, and of each processed phase's result, where the investors' votes
are kept."""


def vote_of(game: Game, investor: str) -> tuple[str | None, datetime | None]:
    """The investor's secret vote on the game's end (E34: ``DRAW``, ``CONCEDE:X``, or None) and when
    the mail that cast it was accepted, kept in the game's settings."""
    kept = game.settings.get(VOTES, {}).get(investor)
    if not kept:
        return None, None
    return kept["vote"], datetime.fromisoformat(kept["at"]) if kept.get("at") else None


def set_vote(game: Game, investor: str, vote: str | None, at: datetime | None) -> None:
    """Keep the investor's vote (None: none), cast by a mail accepted ``at`` (None: no mail's)."""
    votes = {**game.settings.get(VOTES, {}), investor: {"vote": vote, "at": at.isoformat() if at else None}}
    api.keep_setting(game, VOTES, votes)


def investors(session: Session, game: Game) -> dict[str, Player]:
    """Each investor's seat row, by name."""
    return api.seats(session, game)


def played(session: Session, game: Game) -> dict[str, Player]:
    """The seat rows of the investors someone plays (not vacant, resigned or a dummy)."""
    return {name: player for name, player in investors(session, game).items() if api.is_played(player)}


# -- the game's settings -----------------------------------------------------------------------------


def board(game: Game) -> GameMap:
    return load_map(game.variant)


def options_of(game: Game) -> ExchangeOptions:
    """The game's options (E1, E4, E7 and the Payola variations it plays), as CREATE kept them."""
    return exchange_options(split_options(game.options)[1], board(game))


def own_flags(game: Game) -> list[str]:
    """The host's flags the game was created with."""
    return split_options(game.options)[0]


# -- the state ---------------------------------------------------------------------------------------


def state_of(row: PhaseRow) -> ExchangeState:
    """The state of the phase of ``row``: as it stands while open, as the phase left it once processed."""
    if row.status == "processed" and row.result:
        return state_from_data(row.result["state"])
    return state_from_data(row.position)


def state_now(session: Session, game: Game) -> ExchangeState | None:
    """The game's state now (None before the start)."""
    row = api.current_phase(session, game)
    return None if row is None else state_of(row)


def save(row: PhaseRow, state: ExchangeState, transfer: Mapping[str, Any] | None = None) -> None:
    """Write the state of the open phase of ``row`` as it stands now, with a transfer just made."""
    kept = list(row.position.get("transfers", []))
    row.position = {**state_to_data(state), "transfers": kept + ([dict(transfer)] if transfer else [])}


def transfers(row: PhaseRow) -> list[dict[str, Any]]:
    """The transfers made while the phase of ``row`` was open (E5), in order."""
    return list(row.position.get("transfers", []))


def open_row(session: Session, game: Game, state: ExchangeState, now: datetime) -> PhaseRow:
    """The row of the step ``state`` is at, opened now, and the game's deadline for it."""
    row = api.open_phase(session, game, phase_name(state), {**state_to_data(state), "transfers": []}, now)
    session.flush()
    return row


# -- sheets ------------------------------------------------------------------------------------------


class Parts:
    """An investor's sheet as stored: the lines of their own part and of each block, as written."""

    def __init__(self, own: Sequence[str] = (), blocks: Mapping[str, Sequence[str]] | None = None) -> None:
        self.own = list(own)
        self.blocks = {corporation: list(lines) for corporation, lines in (blocks or {}).items() if lines}

    def __bool__(self) -> bool:
        return bool(self.own or self.blocks)

    def merged(self, later: Parts) -> Parts:
        """2.1: the later sheet's parts replace these, part by part."""
        return Parts(later.own or self.own, {**self.blocks, **later.blocks})

    def text(self) -> str:
        """The sheet as one text, as it would be written."""
        lines = list(self.own)
        for corporation, block in self.blocks.items():
            lines += [f"FOR {corporation}", *block, "END"]
        return "\n".join(lines)

    def data(self) -> dict[str, Any]:
        return {"own": self.own, "blocks": self.blocks}

    @staticmethod
    def of(data: Mapping[str, Any] | None) -> Parts:
        return Parts(data.get("own", ()), data.get("blocks", {})) if data else Parts()


def sheets(session: Session, game: Game, phase: str) -> dict[str, Parts]:
    """Each investor's sheet standing in ``phase`` (none after a CLEAR)."""
    found = {name: Parts.of(row.parsed) for (name, kind), row in api.latest_submissions(session, game, phase).items()
             if kind == SHEET}
    return {name: parts for name, parts in found.items() if parts}


def keep_sheet(session: Session, game: Game, phase: str, investor: str, parts: Parts, now: datetime,
               accepted: datetime | None) -> None:
    """Keep ``parts`` as the investor's sheet standing in ``phase`` (an empty one: CLEAR)."""
    api.submit(session, game, phase, investor, SHEET, parts.text(), parts.data(), now, accepted)


def totals(connection: Connection, kind: str) -> dict[str, int]:
    """The money of every game of ``kind`` as its current phase row holds it: each purse and
    treasury, what was destroyed, and what ZEROSUM owes a corporation, by "game name"
    (`judge.service.hosting.kinds.Records.totals`)."""
    found: dict[str, int] = {}
    for name, data in api.phase_data_now(connection, kind, "state"):
        found |= {f"{name} {who}": int(amount) for who, amount in {**data["purses"], **data["treasuries"]}.items()}
        found[f"{name} destroyed"] = int(data["destroyed"])
        found |= {f"{name} owed {who}": int(amount) for who, amount in data.get("owed", {}).items()}
    return found
