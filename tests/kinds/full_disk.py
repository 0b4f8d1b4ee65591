"""The auction whose every lot sold mails its game master the lot's map, drawn once the sale is
committed (a `judge.api.Drawn`, as a Payola phase's maps), on a disk that fills at a test's order:
while the file ``full`` exists, the database refuses to store a map, in whichever process stores it
(a deadline worker, the applier, the daemon), as SQLite refuses anything on a full disk (`refusing`).
For the tests of a judge whose disk fills during an evening, whose deadline workers and applier are
processes of their own, where a test's monkeypatch does not reach.

It is the auction in every other way (its templates are the auction's, the kind it is built on:
`judge.service.hosting.kinds.Kinds`), registered in the auction's place by the tests that need it
(``registry([*hosted(), FullDisk(...)])``).  Never by filling the machine's disk."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import Session

from judge import api
from judge.service.outgoing import outbox
from judge.store.models import Blob
from tests.kinds.auction import kind

MAP = b"\x89PNG\r\n\x1a\n a lot's map"  # a PNG's signature: stored as it is
_filling: list[Path] = []  # the ``full`` file this process's storing of blobs looks at, once installed


def refusing(full: Path, stored: Callable[[Session, bytes], Blob]) -> Callable[[Session, bytes], Blob]:
    """``stored`` (`judge.service.outgoing.outbox.blob`), refusing as a full disk does while ``full`` exists."""

    def blob(session: Session, data: bytes) -> Blob:
        if full.exists():
            raise OperationalError("INSERT INTO blobs", {}, sqlite3.OperationalError("database or disk is full"))
        return stored(session, data)

    return blob


class FullDisk(kind.Auction):
    """The auction, each lot sold mailing its game master the lot's map (subject "gN LN map"), on a
    disk full while the file ``full`` exists."""

    def __init__(self, full: Path) -> None:
        self.full = full

    def process(self, session: Session, game: api.Game, settings: api.Settings, now: datetime,
                closing: api.Closing) -> api.PhaseChange:
        if self.full not in _filling:  # in the process running the lot: a deadline worker, the applier
            vars(outbox)["blob"] = refusing(self.full, outbox.blob)  # for the process's life
            _filling.append(self.full)
        lot = game.phase
        change = super().process(session, game, settings, now, closing)
        api.queue(session, settings, to=game.gm_address, subject=f"{game.name} {lot} map", kind="results", now=now,
                  game_id=game.id, body=f"The map of {lot}.\n",
                  attachments=[api.Drawn(f"{game.name}-{lot}.png", "image/png", lambda: MAP)])
        return change
