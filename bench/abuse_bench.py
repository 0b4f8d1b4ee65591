"""Abuse benchmark of ``judge serve``: the worst mails an attacker found, and what others feel.

A judge runs on a temporary SQLite data directory with one seven-player game.  Each abusive
mail below is sent over SMTP while a bystander keeps sending an ordinary mail (``LIST``) every
50 ms; the table gives, per abusive mail, the time from its 250 until the judge has settled it
(applied, or quarantined) and the statuses its mails ended with, and the bystander's time-to-250 meanwhile
(median, 99th percentile, worst) and how many of its mails were refused (4xx).  Numbers only;
nothing is asserted.

- huge offers: ``100*1000000 : A PAR - BUR`` from every power against balances of 48: by
  rule 5.5's definition about a million reduction rounds, settled by events instead;
- 2,000 ``CREATE`` lines, 2,000 wrong ``SIGNON`` lines, 1,000 ``PRESS TO ALL`` blocks;
- a poison header (a form feed in Message-ID and From) and a mail at the size limit.

Run: .venv/bin/python bench/abuse_bench.py
"""

from __future__ import annotations

import asyncio
import email.policy
import logging
import smtplib
import statistics
import tempfile
import threading
import time
from collections.abc import Callable
from datetime import datetime
from email.message import EmailMessage
from pathlib import Path

from sqlalchemy import func, select

from judge.service.config import Settings
from judge.service.daemon import Daemon
from judge.store.models import ConfirmedAddress, InboundMail

POWERS = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")
UNITS = {"AUSTRIA": "A VIE - GAL", "ENGLAND": "F LON - NTH", "FRANCE": "A PAR - BUR", "GERMANY": "A MUN - BUR",
         "ITALY": "A VEN - TYR", "RUSSIA": "A WAR - GAL", "TURKEY": "F ANK - BLA"}
GM = "gm@example.org"


def address(power: str) -> str:
    return f"{power.lower()}@example.org"


def mail(sender: str, body: str, headers: dict[str, str] | None = None) -> bytes:
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = sender, "judge@localhost", "bench"
    for name, value in (headers or {}).items():
        message[name] = value
    message.set_content(body)
    return message.as_bytes(policy=email.policy.SMTP)  # CRLF line endings, as SMTP wants


class Judge:
    """A daemon on its own event loop in a thread, on a stopped clock."""

    def __init__(self, data: Path) -> None:
        self.loop = asyncio.new_event_loop()
        stopped = datetime(2026, 3, 1, 9, 0)
        self.daemon = Daemon(Settings(data_dir=data, port=0, tick_seconds=3600), clock=lambda: stopped)
        self.thread = threading.Thread(target=self.loop.run_until_complete, args=(self.daemon.run(),), daemon=True)
        self.thread.start()
        while self.daemon.port is None:
            time.sleep(0.05)
        self.port: int = self.daemon.port

    def send(self, sender: str, raw: bytes) -> None:
        with smtplib.SMTP("127.0.0.1", self.port, timeout=120) as client:
            client.sendmail(sender, ["judge@localhost"], raw)

    def unsettled(self) -> int:
        with self.daemon.db.transaction() as session:
            return int(session.scalar(select(func.count()).select_from(InboundMail)
                                      .where(InboundMail.status.in_(("new", "applying")))) or 0)

    def last_id(self) -> int:
        with self.daemon.db.transaction() as session:
            return int(session.scalar(select(func.max(InboundMail.id))) or 0)

    def statuses_since(self, first: int) -> str:
        """The statuses of the attacker's mails stored after ``first``, counted."""
        with self.daemon.db.transaction() as session:
            rows = session.execute(select(InboundMail.status, func.count()).where(
                InboundMail.id > first, InboundMail.envelope_from != "bystander@example.org")
                .group_by(InboundMail.status)).all()
        return " ".join(f"{status}x{count}" for status, count in rows)

    def stop(self) -> None:
        self.loop.call_soon_threadsafe(self.daemon.stop.set)
        self.thread.join(timeout=60)


class Bystander:
    """Sends an ordinary mail every 50 ms and keeps each one's time to the 250."""

    def __init__(self, judge: Judge) -> None:
        self.judge, self.times, self.refused = judge, [], 0
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        raw = mail("bystander@example.org", "LIST")
        while not self.stopping.is_set():
            started = time.perf_counter()
            try:
                self.judge.send("bystander@example.org", raw)
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
            body = f"SIGNON {power}@abuse pw-{power.lower()}\n100*1000000 : {UNITS[power]}"
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

    return [("huge offers, 7 powers (~1e6 rounds by definition)", sheets), ("2,000 CREATE lines", creates),
            ("2,000 wrong SIGNON lines", signons), ("1,000 PRESS TO ALL blocks", presses),
            ("poison headers", poison), ("a 250 KiB mail of offers", big)]


def main() -> None:
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
