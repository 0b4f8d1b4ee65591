"""Disk benchmark of every kind of game: what each kind's demo game leaves, per processed phase.

`bench/disk_bench.py` plays as many Payola phases as it is asked; the other kinds' phases are
played here by their own demos (``judge demo <kind>``: a short game of each, by mail over SMTP,
against a judge on a temporary SQLite data directory with maps and public pages on).  For each
it prints, divided by the phases the game processed (its setup, CREATE, JOIN and their
confirmations, counted in: an upper bound, the demos being short):

- the database's bytes in use as the mail has just gone, and once the deadline clock has
  dropped the attachments of the mail sent (``attachment-days``, 7, later);
- the public pages, ``<data-dir>/web``, which are never pruned (each of these kinds writes one
  page per game, rewritten as its history grows, and its board as it stands: a page and maps per
  phase is Payola's);
- the mail sent, as the Maildir holds it (what a relay is handed).

Each stage is measured against a judge that has played no game.  Numbers only; nothing is asserted.

Run: .venv/bin/python bench/disk_kinds.py [KIND ...] 2>/dev/null  (default: exchange pirates machiavelli;
the judges' log goes to standard error)
"""

from __future__ import annotations

import argparse
import contextlib
import io
from datetime import timedelta
from pathlib import Path

from sqlalchemy import func, select, text

from judge.bootstrap import kinds
from judge.service.clock import utcnow
from judge.service.operators.demo import demo_judge
from judge.service.outgoing.outbox import drop_sent_attachments
from judge.store.database import Database
from judge.store.models import PhaseRow

MB = 2**20


def in_use(db: Database) -> int:
    """Bytes of the database in use, once its write-ahead log is checkpointed into it."""
    with db.engine.connect() as connection:
        connection.execute(text("PRAGMA wal_checkpoint(TRUNCATE)"))
        count, free, size = (connection.exec_driver_sql(f"PRAGMA {name}").scalar_one()
                             for name in ("page_count", "freelist_count", "page_size"))
    return int((count - free) * size)


def on_disk(folder: Path) -> int:
    return sum(path.stat().st_size for path in folder.rglob("*") if path.is_file()) if folder.exists() else 0


def measure(kind: str | None) -> tuple[int, list[int]]:
    """Play ``kind``'s demo (None: no game at all); the phases it processed, and its bytes: the
    database as the mail has just gone, once sent mail's attachments are dropped, the pages, the mail."""
    registry = kinds()
    with contextlib.redirect_stdout(io.StringIO()), demo_judge(registry, keep=True) as judge:
        if kind is not None:
            registry.named(kind).demo(judge, blind=False, scenario=None)
        data = judge.settings.data_dir
    db = Database(judge.settings.database_url)
    try:
        with db.transaction() as session:
            phases = session.scalar(select(func.count()).select_from(PhaseRow).where(PhaseRow.status == "processed"))
        stored = in_use(db)
        drop_sent_attachments(db, judge.settings, utcnow() + timedelta(days=judge.settings.attachment_days + 1))
        dropped = in_use(db)
    finally:
        db.engine.dispose()
    return int(phases or 0), [stored, dropped, on_disk(data / "web"), on_disk(data / "outbox")]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("kinds", nargs="*", default=["exchange", "pirates", "machiavelli"])
    args = parser.parse_args()
    _, base = measure(None)
    print(f"{'kind':<12} {'phases':>6} {'db as sent':>11} {'7 days on':>10} {'pages':>9} {'mail sent':>10}",
          "(MB a phase)")
    for kind in args.kinds:
        phases, sizes = measure(kind)
        each = [(size - before) / MB / max(phases, 1) for size, before in zip(sizes, base, strict=True)]
        print(f"{kind:<12} {phases:>6} {each[0]:>11.3f} {each[1]:>10.3f} {each[2]:>9.3f} {each[3]:>10.3f}")


if __name__ == "__main__":
    main()
