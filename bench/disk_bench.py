"""Disk benchmark: what a phase of a seven-player game leaves in the database (issue 24, item 14).

A judge on a temporary SQLite data directory, with maps on (public pages off: they are files,
not the database), plays N phases of a seven-player game with two observers: in each movement
phase every power sends a sheet (an offer of 1 to 3 AgP for a random legal order of each of
its units) and the seventh completes the phase; a retreat or adjustment phase is processed at
once, as its deadline would.  Every mail is sent (into the Maildir, emptied as it goes).

It prints the database's bytes in use (pages in use, after a checkpoint) per processed phase:

- as stored when the mail has just gone (each distinct map once, in ``blobs``; every mail's
  text; every mail received, raw);
- once the deadline clock has dropped the attachments of the mail sent (``attachment-days``
  after it went: 7 days by default);
- after ``judge prune --older-than 0`` (the text of mail sent, the raw copy of mail applied);
- and the file's size once ``VACUUM``-ed, what is left per phase for good: the phases, sheets,
  ledger and the rows of the mail (each table's share is printed).

Then a year of a judge at 1,000 such phases (say ten games at two phases a week).  ``--blind``
plays a Tin Cup game, where each power's maps are its own.  ``--pages`` writes the public pages
too, and prints what ``<data-dir>/web`` grew by (files on disk, never pruned: a page and two
maps per processed phase, each map as PNG and SVG).  Numbers only; nothing is asserted.

Run: .venv/bin/python bench/disk_bench.py [--phases N] [--blind] [--pages]  (default 20 phases)
"""

from __future__ import annotations

import argparse
import logging
import random
import shutil
import tempfile
from datetime import datetime, timedelta
from email.message import EmailMessage
from pathlib import Path

from sqlalchemy import select, text

from judge.bootstrap import open_database
from judge.engine.legal import legal_orders
from judge.engine.orders import PhaseKind
from judge.games.payola import lifecycle
from judge.service.config import Settings
from judge.service.hosting import host
from judge.service.operators.operator import prune
from judge.service.outgoing.outbox import drop_sent_attachments
from judge.service.outgoing.sender import deliver_pending, transport_for
from judge.service.running.app import inject, process_game
from judge.store.database import Database
from judge.store.models import ConfirmedAddress, Game

POWERS = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")
GM = "gm@example.org"
YEAR = 1000  # phases a year: ten games at two phases a week


MX = "mx.bench"  # the judge's MTA, which vouches for the bench's senders (their Authentication-Results)


def vouched(sender: str) -> str:
    """The header value with which the judge's MTA vouches that a mail comes from ``sender``."""
    return f"{MX}; dmarc=pass header.from={sender.rpartition('@')[2]}"


def mail(sender: str, body: str) -> bytes:
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = sender, "judge@localhost", "orders"
    message["Authentication-Results"] = vouched(sender)
    message.set_content(body)
    return message.as_bytes()


class Bench:
    def __init__(self, data: Path, pages: bool = False) -> None:
        self.settings = Settings(data_dir=data, web=pages, mta_hostname=MX, mta_authenticates=True)  # maps on
        self.db = open_database(self.settings)
        self.now = datetime(2026, 3, 1, 9, 0)

    def send(self, sender: str, body: str) -> None:
        inject(self.db, self.settings, mail(sender, body), self.now)
        self.deliver()

    def deliver(self) -> None:
        deliver_pending(self.db, self.settings, transport_for(self.settings), self.now, limit=100_000)
        shutil.rmtree(self.settings.maildir / "new", ignore_errors=True)  # read by the players

    def in_use(self) -> int:
        """Bytes of the database in use, once the write-ahead log is checkpointed into it."""
        with self.db.engine.connect() as connection:
            connection.execute(text("PRAGMA wal_checkpoint(TRUNCATE)"))
            pages, free, size = (connection.execute(text(f"PRAGMA {name}")).scalar_one()
                                 for name in ("page_count", "freelist_count", "page_size"))
        return int((pages - free) * size)

    def by_table(self) -> dict[str, int]:
        """Bytes of each table and its indexes (SQLite's dbstat)."""
        tables: dict[str, int] = {}
        with self.db.engine.connect() as connection:
            for table, size in connection.execute(text("SELECT tbl_name, SUM(pgsize) FROM dbstat JOIN sqlite_master "
                                                       "USING (name) GROUP BY tbl_name")):
                tables[table] = int(size)
        return tables

    def setup(self, blind: bool) -> None:
        with self.db.transaction() as session:
            for address in [GM, *(f"{p.lower()}@example.org" for p in POWERS), "w1@example.org", "w2@example.org"]:
                session.add(ConfirmedAddress(address=address, confirmed_at=self.now))
        self.send(GM, "CREATE disk gm-secret standard BLIND" if blind else "CREATE disk gm-secret")
        for power in POWERS:
            self.send(f"{power.lower()}@example.org", f"JOIN disk pw-{power.lower()} {power}")
        for watcher in ("w1@example.org", "w2@example.org"):
            self.send(watcher, "OBSERVE disk")
        self.send(GM, "SIGNON MASTER@disk gm-secret\nSTART")

    def play_phase(self, rng: random.Random) -> None:
        self.now += timedelta(hours=1)
        with self.db.transaction() as session:
            game = session.scalars(select(Game).where(Game.name == "disk")).one()
            row = host.current_phase(session, game)
            assert row is not None
            position = lifecycle.position_of(row)
        if position.phase.kind is not PhaseKind.MOVEMENT:
            process_game(self.db, self.settings, "disk", self.now, force=True)
            self.deliver()
            return
        for power in POWERS:
            lines = [f"{rng.randint(1, 3)} : {rng.choice(legal_orders(position, province))}"
                     for province, placed in sorted(position.units.items()) if placed.power == power]
            self.send(f"{power.lower()}@example.org", f"SIGNON {power}@disk pw-{power.lower()}\n" + "\n".join(lines))


def show(what: str, used: int, base: int, phases: int) -> None:
    per = (used - base) / phases
    print(f"{what:62} {used / 1e6:8.2f} MB {per / 1e6:8.3f} MB/phase {per * YEAR / 1e6:9.0f} MB/year")


def on_disk(folder: Path) -> int:
    """Bytes of the files under ``folder``."""
    return sum(path.stat().st_size for path in folder.rglob("*") if path.is_file()) if folder.exists() else 0


STAGES = ("as stored, the mail just sent", "the clock dropped sent mail's maps ({days:g} days on)",
          "after judge prune --older-than 0", "and VACUUM-ed: what stays for good")


def stages(bench: Bench, later: datetime, say: bool = False) -> list[int]:
    """The bytes in use at each of `STAGES`, taking ``bench``'s database through them at ``later``."""
    used = [bench.in_use()]
    while drop_sent_attachments(bench.db, bench.settings, later) != (0, 0):
        pass
    used.append(bench.in_use())
    for line in prune(bench.db, later, 0):
        if say:
            print(f"  judge prune --older-than 0: {line}")
    used.append(bench.in_use())
    vacuum(bench.db)
    used.append(bench.in_use())
    return used


def run(phases: int, blind: bool, pages: bool) -> None:
    """Each stage is compared with the same stage of the database as it stood before the phases (a copy
    taken then, taken through the stages too): the setup's own mail, maps and all, is dropped and pruned
    with the phases', and measured against the setup as stored it made the phases look smaller."""
    logging.getLogger("judge").setLevel(logging.ERROR)
    with tempfile.TemporaryDirectory(prefix="judge-disk-") as data:
        played, before = Path(data) / "played", Path(data) / "before"
        bench = Bench(played, pages)
        bench.setup(blind)
        vacuum(bench.db)
        bench.in_use()  # the write-ahead log checkpointed: the copy is whole
        shutil.copytree(played, before)
        tables = bench.by_table()
        web = played / "web"
        pages_before = on_disk(web)
        rng = random.Random(1)
        for _ in range(phases):
            bench.play_phase(rng)
        later = bench.now + timedelta(days=bench.settings.attachment_days, hours=1)
        base = stages(Bench(before), later)
        print(f"{phases} phases of a seven-player {'Tin Cup ' if blind else ''}game with two observers, maps on; "
              f"the database before them: {base[0] / 1e6:.2f} MB as stored, {base[-1] / 1e6:.2f} MB once pruned "
              f"and VACUUM-ed; a year = {YEAR} phases")
        if pages:
            show("the public pages (<data-dir>/web, never pruned)", on_disk(web), pages_before, phases)
        for stage, used, was in zip(STAGES, stages(bench, later, say=True), base, strict=True):
            show(stage.format(days=bench.settings.attachment_days), used, was, phases)
        grown = {name: size - tables.get(name, 0) for name, size in bench.by_table().items()}
        print("  what stays per phase, by table: " + ", ".join(
            f"{name} {size / phases / 1e3:.1f} KB" for name, size in sorted(grown.items(), key=lambda i: -i[1])
            if size / phases >= 500))


def vacuum(db: Database) -> None:
    with db.engine.connect() as connection:
        connection.execution_options(isolation_level="AUTOCOMMIT").execute(text("VACUUM"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--phases", type=int, default=20, help="phases to play (default %(default)s)")
    parser.add_argument("--blind", action="store_true", help="a Tin Cup game: each power's maps are its own")
    parser.add_argument("--pages", action="store_true", help="write the public pages too, and say what they weigh")
    args = parser.parse_args()
    run(args.phases, args.blind, args.pages)


if __name__ == "__main__":
    main()
