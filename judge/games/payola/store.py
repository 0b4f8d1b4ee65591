"""Payola's own tables: what the host's rows do not hold of a Payola game.

- ``payola_seats``: each power's acceptance list (rule 4.3: it persists from phase to phase) and
  its draw or concession vote (secret), with when the mail that set each was accepted (an older
  mail does not replace them: `judge.service.hosting.turn.Turn.superseded`), one row per seat's player row
  (the seat keeps its row when it changes hands, and so its list);
- ``payola_phases``: what a phase keeps for Payola: the acceptance lists it was processed with,
  where its money starts and ends in the ledger, and the marks a ROLLBACK keeps for ROLLFORWARD
  (the votes it was processed with are kept in its phase row's result, which has room for them:
  `judge.games.payola.lifecycle.votes_kept`);
- ``payola_ledger``: every movement of money (income, transfer, payment, refund, forfeit).  Money is
  never stored as a balance: a balance is the sum of a power's rows.

A seat or phase with nothing of Payola's has no row (`seat_of`, `phase_of` make one when written).
"""

from __future__ import annotations

from bisect import bisect_right
from datetime import datetime
from typing import Any

from sqlalchemy import JSON, DateTime, ForeignKey, Index, Integer, String, insert, select
from sqlalchemy.orm import Mapped, Session, mapped_column

from judge.api import Base, PhaseRow, Player


class PayolaSeat(Base):
    """A power's acceptance list and vote."""

    __tablename__ = "payola_seats"

    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), primary_key=True)
    acceptance: Mapped[str | None] = mapped_column(String(40), nullable=True)  # rule 4.3: persists
    vote: Mapped[str | None] = mapped_column(String(30), nullable=True)  # DRAW, CONCEDE:<power>; secret
    # When the mail that set the acceptance list, the vote, was accepted; None: not set by mail.
    acceptance_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    vote_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)


class PayolaPhase(Base):
    """What a phase keeps for Payola."""

    __tablename__ = "payola_phases"

    phase_id: Mapped[int] = mapped_column(ForeignKey("phases.id"), primary_key=True)
    acceptance: Mapped[dict[str, str] | None] = mapped_column(JSON, nullable=True)  # lists at processing
    ledger_mark: Mapped[int | None] = mapped_column(Integer, nullable=True)  # last ledger id before processing
    ledger_start: Mapped[int | None] = mapped_column(Integer, nullable=True)  # last ledger id once opened
    rollforward: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)  # marks kept by a ROLLBACK


class LedgerRow(Base):
    """One movement of money: income, transfer, payment, refund, forfeit."""

    __tablename__ = "payola_ledger"
    __table_args__ = (Index("ix_payola_ledger_game", "game_id", "power"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"))
    power: Mapped[str] = mapped_column(String(20))
    amount: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(16))
    note: Mapped[str] = mapped_column(String(200), default="")
    phase: Mapped[str | None] = mapped_column(String(10), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime)


def seat_of(session: Session, player: Player) -> PayolaSeat:
    """The Payola row of ``player``'s seat, made (empty) if it has none yet."""
    found = session.get(PayolaSeat, player.id)
    if found is None:
        found = PayolaSeat(player_id=player.id)
        session.add(found)
    return found


def seats_of(session: Session, players: list[Player]) -> dict[int, PayolaSeat]:
    """The Payola rows of ``players``' seats that have one, by player id, in one query."""
    ids = [player.id for player in players]
    return {row.player_id: row for row in session.scalars(select(PayolaSeat).where(PayolaSeat.player_id.in_(ids)))}


def phase_of(session: Session, row: PhaseRow) -> PayolaPhase:
    """The Payola row of the phase ``row``, made (empty) if it has none yet."""
    found = session.get(PayolaPhase, row.id)
    if found is None:
        found = PayolaPhase(phase_id=row.id)
        session.add(found)
    return found


def lists_of(session: Session, seats: dict[str, Player]) -> dict[str, str]:
    """The acceptance list written for each of ``seats`` that has one (by seat), in one query."""
    rows = seats_of(session, list(seats.values()))
    return {name: row.acceptance for name, player in seats.items()
            if (row := rows.get(player.id)) is not None and row.acceptance}


def votes_of(session: Session, seats: dict[str, Player]) -> dict[str, str | None]:
    """The vote of each of ``seats`` (None: none), in one query."""
    rows = seats_of(session, list(seats.values()))
    return {name: row.vote if (row := rows.get(player.id)) is not None else None for name, player in seats.items()}


def snapshot(session: Session, game_id: int) -> dict[str, Any]:
    """Payola's tables of a game as JSON values, for its record: each seat's acceptance list and
    vote with when the mail that set each was accepted, each phase's acceptance lists as
    processed and its marks in the ledger, and every movement of money with its reason, in order.
    No row ids (another judge's differ): a mark in the ledger is how many of the game's movements
    of money came up to it, which `restore` turns back into this judge's ids."""
    seats = session.execute(select(Player.seat, PayolaSeat).join(PayolaSeat, PayolaSeat.player_id == Player.id)
                            .where(Player.game_id == game_id).order_by(Player.seat))
    phases = session.execute(select(PhaseRow.name, PayolaPhase).join(PayolaPhase, PayolaPhase.phase_id == PhaseRow.id)
                             .where(PhaseRow.game_id == game_id).order_by(PhaseRow.id))
    ledger = list(session.scalars(select(LedgerRow).where(LedgerRow.game_id == game_id).order_by(LedgerRow.id)))
    ids = [row.id for row in ledger]
    return {
        "seats": [{"seat": seat, "acceptance": row.acceptance, "vote": row.vote,
                   "acceptance_at": _iso(row.acceptance_at), "vote_at": _iso(row.vote_at)} for seat, row in seats],
        "phases": [{"phase": name, "acceptance": row.acceptance, "ledger_start": _counted(ids, row.ledger_start),
                    "ledger_mark": _counted(ids, row.ledger_mark), "rollforward": _marks(row.rollforward, ids)}
                   for name, row in phases],
        "ledger": [{"power": row.power, "amount": row.amount, "kind": row.kind, "note": row.note, "phase": row.phase,
                    "at": row.created_at.isoformat()} for row in ledger],
    }


def restore(session: Session, game_id: int, snapshot: dict[str, Any]) -> None:
    """Payola's tables of a game as ``snapshot`` (its record's) has them, on this judge: the inverse
    of `snapshot`, the game's seat and phase rows written first (KeyError, TypeError or ValueError
    for a snapshot that names a seat or phase the game does not have, or lacks a field)."""
    seats = {player.seat: player.id for player in session.scalars(select(Player).where(Player.game_id == game_id))}
    phases = {row.name: row.id for row in session.scalars(select(PhaseRow).where(PhaseRow.game_id == game_id))}
    rows = [{"game_id": game_id, "power": entry["power"], "amount": int(entry["amount"]), "kind": entry["kind"],
             "note": entry["note"], "phase": entry["phase"], "created_at": datetime.fromisoformat(entry["at"])}
            for entry in snapshot.get("ledger", [])]
    ids = list(session.scalars(insert(LedgerRow).returning(LedgerRow.id, sort_by_parameter_order=True), rows)) \
        if rows else []
    session.add_all(PayolaSeat(player_id=seats[entry["seat"]], acceptance=entry["acceptance"], vote=entry["vote"],
                               acceptance_at=_moment(entry["acceptance_at"]), vote_at=_moment(entry["vote_at"]))
                    for entry in snapshot.get("seats", []))
    session.add_all(PayolaPhase(phase_id=phases[entry["phase"]], acceptance=entry["acceptance"],
                                ledger_start=_mark(ids, entry["ledger_start"]),
                                ledger_mark=_mark(ids, entry["ledger_mark"]),
                                rollforward=_marks(entry["rollforward"], ids, back=True))
                    for entry in snapshot.get("phases", []))


def _counted(ids: list[int], mark: int | None) -> int | None:
    """A mark in the ledger (a row id: the last one it covers) as how many of ``ids`` it covers."""
    return None if mark is None else bisect_right(ids, mark)


def _mark(ids: list[int], counted: int | None) -> int | None:
    """The inverse of `_counted`: the id of the last of ``ids`` a mark covers (0: none)."""
    if counted is None:
        return None
    return ids[int(counted) - 1] if counted else 0


def _marks(kept: dict[str, Any] | None, ids: list[int], back: bool = False) -> dict[str, Any] | None:
    """A ROLLBACK's marks (`lifecycle.rolling_back`), their mark in the ledger counted, or back."""
    if not kept or "ledger" not in kept:
        return kept
    return {**kept, "ledger": _mark(ids, kept["ledger"]) if back else _counted(ids, kept["ledger"])}


def _iso(moment: datetime | None) -> str | None:
    return None if moment is None else moment.isoformat()


def _moment(text: str | None) -> datetime | None:
    return None if text is None else datetime.fromisoformat(text)
