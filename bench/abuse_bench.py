"""Abuse benchmark of ``judge serve``: the worst mails an attacker found, and what others feel.

A judge runs on a temporary SQLite data directory with one seven-player game.  Each abusive
mail below is sent over SMTP while a bystander keeps sending an ordinary mail (``LIST``) every
50 ms; the table gives, per abusive mail, the time from its 250 until the judge has settled it
(applied, or quarantined) and the statuses its mails ended with, and the bystander's time-to-250 meanwhile
(median, 99th percentile, worst) and how many of its mails were refused (4xx).  Numbers only;
nothing is asserted.

- the largest offers: ``100*500 : A PAR - BUR`` from every power against balances of 48 (the
  limit of an amount is 500 AgP since issue 22.16; ``100*1000000`` before, about a million
  reduction rounds by rule 5.5's definition, settled by events instead);
- 2,000 ``CREATE`` lines, 2,000 wrong ``SIGNON`` lines, 1,000 ``PRESS TO ALL`` blocks;
- a poison header (a form feed in Message-ID and From) and a mail at the size limit.

*What one hostile mail costs* (issue 22), the second table: each mail is applied in this
process, as ``judge inject`` does, on a judge with maps and public pages on (the defaults),
and the table gives the CPU seconds of applying it (its transaction and the pages after it),
the bytes the database keeps for it (pages in use, after a checkpoint), the mails it queued and
the bytes of those mails once sent, beside the targets: < 1 s of CPU, < 5 MB stored, <= 50 mails.

- PROCESS x500, and ROLLBACK/ROLLFORWARD x250, from the master of a seven-player game with two
  observers (before issue 22: 1,001 mails, 804 MB in the database, 1.1 GB sent, about 75 s);
- HELP, LIST, GET INFO and WHOGAME x500 from a stranger (before: HELP x500 1.2 s of CPU, a 5.4 MB
  reply); a game master's SET and PROCESS, SET and ROLLBACK, and SET in two games, in a game
  of two players and 50 observers (before: 103 mails), whose target is one mail per reader; and
  35 forged mails in a player's name before the player's own (before: the player went unanswered);
- HISTORY x500 and SUMMARY x500 on a game of 500 phases (before: 252 s and a 314 MB reply),
  MAP x100 from a player, PREVIEW x50 from the master;
- LIST, and a JOIN (which changes the game's line in the public index), among 4,000 games
  (before: 1.63 s a mail among 4,091 games);
- seven maximal eBayola sheets, the seventh of which completes and processes the phase: each
  power bids 100 amounts (each its own plateau, up to 500 AgP) for a different order of A MUN,
  and offers 1 AgP for 299 other orders of the other units (before the limits of issue 22.16:
  about 12 s; one line of one amount of up to 1,000,000 AgP per power could take minutes).

Run: .venv/bin/python bench/abuse_bench.py [--costs]  (--costs: the second table only)
"""

from __future__ import annotations

import argparse
import asyncio
import email.policy
import logging
import random
import smtplib
import statistics
import struct
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime, timedelta
from email.message import EmailMessage
from pathlib import Path
from unittest import mock

from sqlalchemy import func, insert, select, text

from judge.bootstrap import kinds, open_database
from judge.engine.legal import legal_orders
from judge.engine.map import load_map
from judge.engine.position import Position
from judge.games.payola import pages as payola_pages
from judge.service.config import Settings
from judge.service.outgoing.sender import deliver_pending, transport_for
from judge.service.running.app import inject, process_game
from judge.service.running.daemon import Daemon
from judge.store.database import Database
from judge.store.models import ConfirmedAddress, Game, InboundMail, Outbox
from judge.web.pages import refresh

POWERS = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")
UNITS = {"AUSTRIA": "A VIE - GAL", "ENGLAND": "F LON - NTH", "FRANCE": "A PAR - BUR", "GERMANY": "A MUN - BUR",
         "ITALY": "A VEN - TYR", "RUSSIA": "A WAR - GAL", "TURKEY": "F ANK - BLA"}
GM = "gm@example.org"
BYSTANDER = "bystander@example.org"  # the ordinary sender whose times to 250 are measured


def address(power: str) -> str:
    return f"{power.lower()}@example.org"


MX = "mx.bench"  # the judge's MTA


def mail(sender: str, body: str, headers: dict[str, str] | None = None, vouched: bool = True) -> bytes:
    """A mail from ``sender``; ``vouched``: the judge's MTA vouches that it is ``sender``'s (its
    Authentication-Results says DMARC passed), so a confirmed address's JOIN is obeyed at once."""
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = sender, "judge@localhost", "bench"
    if vouched:
        message["Authentication-Results"] = f"{MX}; dmarc=pass header.from={sender.rpartition('@')[2]}"
    for name, value in (headers or {}).items():
        message[name] = value
    message.set_content(body)
    return message.as_bytes(policy=email.policy.SMTP)  # CRLF line endings, as SMTP wants


class Judge:
    """A daemon on its own event loop in a thread, on a stopped clock."""

    def __init__(self, data: Path) -> None:
        self.loop = asyncio.new_event_loop()
        stopped = datetime(2026, 3, 1, 9, 0)
        settings = Settings(data_dir=data, port=0, tick_seconds=3600, mta_hostname=MX, mta_authenticates=True,
                            log_file=data / "judge.log")  # the applier's process logs there, not into the table
        self.daemon = Daemon(settings, kinds(), clock=lambda: stopped)
        self.thread = threading.Thread(target=self.loop.run_until_complete, args=(self.daemon.run(),), daemon=True)
        self.thread.start()
        while self.daemon.port is None:
            time.sleep(0.05)
        self.port: int = self.daemon.port
        self.sent = 0  # mails other than the bystander's answered 250

    def send(self, sender: str, raw: bytes) -> None:
        with smtplib.SMTP("127.0.0.1", self.port, timeout=120) as client:
            client.sendmail(sender, ["judge@localhost"], raw)
        if sender != BYSTANDER:
            self.sent += 1

    def unsettled(self) -> int:
        """The mails other than the bystander's that were answered 250 and are not applied or
        quarantined yet: those still in the listener's intake (not yet rows) and those waiting."""
        with self.daemon.db.transaction() as session:
            done = session.scalar(select(func.count()).select_from(InboundMail).where(
                InboundMail.envelope_from != BYSTANDER, InboundMail.status.not_in(("new", "applying"))))
        return self.sent - int(done or 0)

    def last_id(self) -> int:
        with self.daemon.db.transaction() as session:
            return int(session.scalar(select(func.max(InboundMail.id))) or 0)

    def statuses_since(self, first: int) -> str:
        """The statuses of the attacker's mails stored after ``first``, counted."""
        with self.daemon.db.transaction() as session:
            rows = session.execute(select(InboundMail.status, func.count()).where(
                InboundMail.id > first, InboundMail.envelope_from != BYSTANDER)
                .group_by(InboundMail.status)).all()
        return " ".join(f"{status}x{count}" for status, count in rows)

    def stop(self) -> None:
        self.loop.call_soon_threadsafe(self.daemon.stop.set)
        self.thread.join(timeout=60)


class Bystander:
    """Sends an ordinary mail every 50 ms and keeps each one's time to the 250."""

    def __init__(self, judge: Judge) -> None:
        self.judge, self.refused = judge, 0
        self.times: list[float] = []
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        raw = mail(BYSTANDER, "LIST")
        while not self.stopping.is_set():
            started = time.perf_counter()
            try:
                self.judge.send(BYSTANDER, raw)
                self.times.append(time.perf_counter() - started)
            except smtplib.SMTPException:
                self.refused += 1
            self.stopping.wait(0.05)

    def __enter__(self) -> Bystander:
        self.thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self.stopping.set()
        self.thread.join()


def settle(judge: Judge, timeout: float = 600.0) -> None:
    deadline = time.monotonic() + timeout
    while judge.unsettled() and time.monotonic() < deadline:
        time.sleep(0.02)


def setup(judge: Judge) -> None:
    with judge.daemon.db.transaction() as session:  # the players confirmed they want the judge's mail before
        session.add_all(ConfirmedAddress(address=a, confirmed_at=datetime(2026, 1, 1))
                        for a in (GM, *(address(power) for power in POWERS)))
    judge.send(GM, mail(GM, "CREATE abuse gm-secret"))
    for power in POWERS:
        judge.send(address(power), mail(address(power), f"JOIN abuse pw-{power.lower()} {power}"))
    judge.send(GM, mail(GM, "SIGNON MASTER@abuse gm-secret\nSTART"))
    settle(judge)


def cases() -> list[tuple[str, Callable[[Judge], None]]]:
    def sheets(judge: Judge) -> None:
        for power in POWERS:
            body = f"SIGNON {power}@abuse pw-{power.lower()}\n100*500 : {UNITS[power]}"
            judge.send(address(power), mail(address(power), body))

    def creates(judge: Judge) -> None:
        judge.send("spam@example.org", mail("spam@example.org", "".join(f"CREATE s{n} pw\n" for n in range(2000))))

    def signons(judge: Judge) -> None:
        judge.send("spam@example.org", mail("spam@example.org", "".join(f"SIGNON F@abuse g{n}\n" for n in range(2000))))

    def presses(judge: Judge) -> None:
        body = "SIGNON FRANCE@abuse pw-france\n" + "PRESS TO ALL\nhello\nENDPRESS\n" * 1000
        judge.send(address("FRANCE"), mail(address("FRANCE"), body))

    def poison(judge: Judge) -> None:
        raw = (b"From: fr\x0cance@example.org\r\nTo: judge@localhost\r\nSubject: p\x0co\r\n"
               b"Message-ID: <a\x0cb@example.org>\r\n\r\nSIGNON FRANCE@abuse pw-france\r\nSTATUS\r\n")
        judge.send("france@example.org", raw)

    def big(judge: Judge) -> None:
        lines = "SIGNON FRANCE@abuse pw-france\n" + "1 : A PAR - BUR % padding padding padding\n" * 5000
        judge.send(address("FRANCE"), mail(address("FRANCE"), lines[: 250 * 1024]))

    return [("the largest offers, 7 powers (100*500)", sheets), ("2,000 CREATE lines", creates),
            ("2,000 wrong SIGNON lines", signons), ("1,000 PRESS TO ALL blocks", presses),
            ("poison headers", poison), ("a 250 KiB mail of offers", big)]


# -- what one hostile mail costs (issue 22) ---------------------------------------------------------


class Meter:
    """A judge applied to in this process, on a stopped clock: what each mail costs it."""

    def __init__(self, data: Path) -> None:
        # maps and public pages on (the defaults); the MTA vouches for the scene's senders
        self.settings = Settings(data_dir=data, mta_hostname=MX, mta_authenticates=True)
        self.quiet = replace(self.settings, maps=False, web=False)  # for building the scene
        self.db = open_database(self.settings)
        self.now = datetime(2026, 3, 1, 9, 0)
        self.confirmed: set[str] = set()

    def send(self, sender: str, body: str, settings: Settings | None = None, **headers: str) -> str:
        """A mail of the scene, from an address that confirmed it wants the judge's mail before."""
        if sender not in self.confirmed:
            with self.db.transaction() as session:
                session.merge(ConfirmedAddress(address=sender, confirmed_at=self.now - timedelta(days=1)))
            self.confirmed.add(sender)
        status = inject(self.db, settings or self.quiet, mail(sender, body, headers), self.now)
        deliver_pending(self.db, self.settings, transport_for(self.settings), self.now)
        return status

    def stored(self) -> int:
        """Bytes of the database in use, once the write-ahead log is checkpointed into it."""
        with self.db.engine.connect() as connection:
            connection.execute(text("PRAGMA wal_checkpoint(TRUNCATE)"))
            pages, free, size = (connection.execute(text(f"PRAGMA {name}")).scalar_one()
                                 for name in ("page_count", "freelist_count", "page_size"))
        return int((pages - free) * size)

    def queued(self) -> int:
        with self.db.transaction() as session:
            return int(session.scalar(select(func.count(Outbox.id))) or 0)

    def sent(self) -> int:
        return sum(f.stat().st_size for f in (self.settings.maildir / "new").iterdir())

    def cost(self, name: str, sender: str, body: str, mails: int = 50) -> None:
        """Apply one hostile mail and print what it cost, beside the targets (``mails``: the
        most it may queue; a game master's mail may tell each of its game's readers once)."""
        stored, queued, sent = self.stored(), self.queued(), self.sent()
        started = time.process_time()
        status = inject(self.db, self.settings, mail(sender, body), self.now)
        cpu = time.process_time() - started
        deliver_pending(self.db, self.settings, transport_for(self.settings), self.now, limit=100_000)
        stored, queued, sent = self.stored() - stored, self.queued() - queued, self.sent() - sent
        verdict = "ok" if cpu < 1 and stored < 5e6 and queued <= mails else "OVER"
        print(f"{name:52} {cpu:7.2f} s {stored / 1e6:8.2f} MB {queued:6d} {sent / 1e6:8.2f} MB  {status:8} {verdict}",
              flush=True)


_PNG = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + struct.pack(">II", 1, 1)  # what the pages read of a map


def seven_player_game(meter: Meter, name: str, options: str = "", observers: int = 0,
                      powers: tuple[str, ...] = POWERS, master: str = GM) -> None:
    meter.send(master, f"CREATE {name} gm-secret {options}")
    for power in powers:
        meter.send(address(power), f"JOIN {name} pw-{power.lower()} {power}")
    for n in range(observers):
        meter.send(f"watcher{n}@example.org", f"OBSERVE {name}")
    meter.send(master, f"SIGNON MASTER@{name} gm-secret\nSTART")


def maximal_sheet(rng: random.Random, board: Position) -> str:
    """The worst sheet found within the limits of issue 22.16 (judge/payola/offers.py)."""
    orders = {p: [str(o) for o in legal_orders(board, p)] for p in board.units}
    others = [o for p in sorted(board.units) if p != "MUN" for o in orders[p]]
    first = " + ".join(f"{rng.randint(250, 500)}#{rng.randint(0, 250)}" for _ in range(100))
    return "\n".join([f"{first} : {rng.choice(orders['MUN'])}", *(f"1 : {o}" for o in others[:299])])


def costs() -> None:
    logging.getLogger("judge").setLevel(logging.ERROR)
    with tempfile.TemporaryDirectory(prefix="judge-cost-") as data:
        meter = Meter(Path(data))
        seven_player_game(meter, "seven", observers=2)
        seven_player_game(meter, "long")
        for _ in range(500):
            process_game(meter.db, meter.quiet, "long", meter.now, force=True)
        with mock.patch.object(payola_pages, "render_svg", lambda *_, **__: "<svg/>"), \
                mock.patch("judge.render.png.render_png", lambda *_, **__: _PNG):
            refresh(meter.db, meter.settings, ["long"])  # its pages, as they would have been written phase by phase
        seven_player_game(meter, "ebay", "EBAYOLA")
        meter.send("host@example.org", "CREATE open gm-secret")
        deliver_pending(meter.db, meter.settings, transport_for(meter.settings), meter.now, limit=100_000)
        master = "SIGNON MASTER@seven gm-secret\n"
        print(f"{'hostile mail (targets: < 1 s CPU, < 5 MB stored, <= 50 mails)':52} {'CPU':>9} {'stored':>11} "
              f"{'mails':>6} {'sent':>11}  status")
        meter.cost("PROCESS x500 (seven players, two observers)", GM, master + "PROCESS\n" * 499)
        meter.cost("ROLLBACK/ROLLFORWARD x250", GM, master + "ROLLBACK\nROLLFORWARD\n" * 249)
        meter.cost("HISTORY x500 (a game of 500 phases)", "stranger@example.org", "HISTORY long\n" * 500)
        meter.cost("SUMMARY x500 (a game of 500 phases)", "stranger@example.org", "SUMMARY long\n" * 500)
        meter.cost("LIST long (its 500 phases' pages looked at)", "stranger@example.org", "LIST long")
        meter.cost("MAP x100", address("FRANCE"), "SIGNON FRANCE@seven pw-france\n" + "MAP\n" * 100)
        meter.cost("PREVIEW x50", GM, master + "PREVIEW\n" * 50)
        for command in ("HELP", "LIST", "GET INFO seven", "WHOGAME seven"):
            meter.cost(f"{command} x500", "stranger@example.org", f"{command}\n" * 500)
        # its master's fourth game of the day would be refused (max-creates-per-day): another master, of two games
        second = "second@example.org"
        seven_player_game(meter, "watched", observers=50, powers=("FRANCE", "GERMANY"), master=second)
        seven_player_game(meter, "small", powers=("FRANCE", "GERMANY"), master=second)
        watched = "SIGNON MASTER@watched gm-secret\n"
        readers = 1 + 2 + 50 + 1  # the reply, and one mail each to its players, observers and master (the chart)
        meter.cost("SET x2 and PROCESS (two players, 50 observers)", second,
                   watched + "SET GRACE 12\nSET MOVEMENT 24\nPROCESS", mails=readers)
        meter.cost("SET and ROLLBACK (two players, 50 observers)", second, watched + "SET GRACE 1\nROLLBACK",
                   mails=readers)
        meter.cost("SET in two games, the second over the budget", second,
                   watched + "SET GRACE 2\nSIGNON MASTER@small gm-secret\nSET GRACE 2", mails=readers)
        silenced(meter)
        _many_games(meter.db, meter.now, 4000)
        meter.cost("LIST seven, among 4,000 games", "stranger@example.org", "LIST seven")
        meter.cost("JOIN (the index changes), among 4,000 games", "newcomer@example.org", "JOIN open pw")
        meter.cost("LIST (no game named), among 4,000 games", "stranger@example.org", "LIST")
        rng = random.Random(1)
        board = Position.initial(load_map("standard"))
        for power in POWERS[:-1]:
            meter.send(address(power), f"SIGNON {power}@ebay pw-{power.lower()}\n{maximal_sheet(rng, board)}")
        last = POWERS[-1]
        meter.cost("7 maximal eBayola sheets: the 7th processes", address(last),
                   f"SIGNON {last}@ebay pw-{last.lower()}\n{maximal_sheet(rng, board)}")


def silenced(meter: Meter) -> None:
    """Forged mail in a player's name, from an attacker's own server, then the player's own mail
    with a mistake in its sheet: is the player told?  (30 forged mails an hour used to use up the
    player's answers.)"""
    forger = {"Received": f"from evil.example (evil.example [203.0.113.66]) by {MX} with ESMTP; "
                          "Sun, 1 Mar 2026 09:00:00 +0000"}
    for _ in range(meter.settings.max_replies_per_hour + 5):
        inject(meter.db, meter.quiet, mail(address("FRANCE"), "SIGNON FRANCE@watched guess\nSTATUS", forger, False),
               meter.now)
    before = meter.queued()
    meter.send(address("FRANCE"), "SIGNON FRANCE@watched pw-france\n3 : A PAR - XXX")
    told = meter.queued() - before
    name = "35 forged mails in a player's name, then its own"
    print(f"{name:52} {'answered' if told else 'NOT ANSWERED':>9}", flush=True)


def _many_games(db: Database, now: datetime, count: int) -> None:
    """``count`` forming games, as the store has them (created long ago: no limit counts them)."""
    rows = [{"name": f"many{n:05d}", "variant": "standard", "options": [], "state": "forming",
             "gm_address": f"gm{n}@example.org", "gm_password": "-", "seed": n, "settings": {},
             "created_at": now - timedelta(days=30)} for n in range(count)]
    with db.transaction() as session:
        session.execute(insert(Game), rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--costs", action="store_true", help="only what one hostile mail costs (issue 22)")
    if parser.parse_args().costs:
        costs()
        return
    smtp()
    print()
    costs()


def smtp() -> None:
    logging.getLogger("judge").setLevel(logging.ERROR)
    with tempfile.TemporaryDirectory(prefix="judge-abuse-") as data:
        judge = Judge(Path(data))
        try:
            setup(judge)
            print(f"{'abusive mail':52} {'settled in':>10}  {'status':12} {'others: p50':>11} {'p99':>7} "
                  f"{'max':>7} {'4xx':>4}")
            for name, attack in cases():
                first = judge.last_id()
                with Bystander(judge) as bystander:
                    time.sleep(0.3)
                    started = time.perf_counter()
                    attack(judge)
                    sent = time.perf_counter()
                    settle(judge)
                    took = time.perf_counter() - sent
                    time.sleep(0.2)
                status = judge.statuses_since(first)
                times = sorted(bystander.times) or [0.0]
                p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
                print(f"{name:52} {took:9.2f}s  {status:12} {statistics.median(times) * 1000:9.1f}ms "
                      f"{p99 * 1000:5.0f}ms {times[-1] * 1000:5.0f}ms {bystander.refused:4d}"
                      f"   (sending took {sent - started:.2f}s)")
        finally:
            judge.stop()


if __name__ == "__main__":
    main()
