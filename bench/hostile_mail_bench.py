"""What the worst mail of each kind's grammar costs the judge: CPU seconds, bytes stored, mails queued.

For each kind (Payola, Exchange Payola, Pirates' Proposal, Machiavelli on the classic board and on
AoP's) a scene is played once on a temporary data directory, with maps and public pages on (the
defaults): a game started, two observers, every seat but one having sent its sheet or letter, so
that the last seat's mail completes the phase and has it processed, its results and maps mailed to
every reader.  Each hostile mail below is then applied, as ``judge inject`` applies it, to a fresh
copy of that scene; the table gives the CPU seconds of applying it (``time.process_time``: its
transaction, the phase it processed, the maps drawn, the pages written), the bytes the database
grew by (its pages in use, after a checkpoint), the mails it queued besides its reply, and its
status, beside the targets (issue 55): under a second of CPU, a megabyte stored, fifty mails.

The peer, for each kind, is the same seat's ordinary mail (a one-line sheet or letter) completing
the same phase, and each hostile mail is that mail with the hostile lines after it (a Payola
sheet with a bad line is refused whole: its phase is not completed then): the ratio says how
much more the worst mail costs than an honest one.  Before the
reading limits of this release, a Machiavelli letter with a route of 33,159 areas cost 3.65 s of
CPU and 3.5 MB (one of 41,400 areas, 9 s and 10.7 MB).  Nothing is asserted: the tests hold the
bytes and the mails (``tests/service/test_hostile_mail_budget.py``); the time is measured here.

Run: .venv/bin/python bench/hostile_mail_bench.py [--repeat N]  (N: each mail applied N times, the
median kept; default 3)
"""

from __future__ import annotations

import argparse
import email.policy
import logging
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import datetime, timedelta
from email.message import EmailMessage
from pathlib import Path

from sqlalchemy import func, select, text

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the scenes are the test's (tests/support)

from judge.bootstrap import open_database
from judge.service.config import Settings
from judge.service.running.app import inject
from judge.store.database import Database
from judge.store.models import ConfirmedAddress, InboundMail, Outbox
from tests.support.scenes import address, exchange, machiavelli, payola, pirates

MX = "mx.bench"  # the judge's MTA, which vouches for the scene's senders
NOW = datetime(2026, 3, 1, 9, 0)
READ = 200_000  # characters of a mail the judge reads


def mail(sender: str, body: str) -> bytes:
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = sender, "judge@localhost", "bench"
    message["Authentication-Results"] = f"{MX}; dmarc=pass header.from={sender.rpartition('@')[2]}"
    message.set_content(body)
    return message.as_bytes(policy=email.policy.SMTP)


class Scene:
    """A judge on a data directory of its own, fed the mails of a scene."""

    def __init__(self, data: Path) -> None:
        self.settings = Settings(data_dir=data, mta_hostname=MX, mta_authenticates=True, max_replies_per_hour=10_000)
        self.db = open_database(self.settings)

    def send(self, sender: str, body: str) -> str:
        with self.db.transaction() as session:
            session.merge(ConfirmedAddress(address=sender, confirmed_at=NOW - timedelta(days=1)))
        return inject(self.db, self.settings, mail(sender, body), NOW)

    def close(self) -> None:
        self.db.engine.dispose()


def _lines(line: str, times: int = 500) -> str:
    return "\n".join([line] * times)[:READ]


def _route(hops: int, separator: str = " - ") -> str:
    return "A are" + separator + separator.join((["ets", "wts"] * (hops // 2 + 1))[:hops])


def _press(to: str) -> str:
    return f"PRESS TO {to}\n" + "\n".join(["p" * 72] * (READ // 73 - 2)) + "\nENDPRESS"


MACHIAVELLI = {
    "a route of 33,159 areas (a line of 198,006 characters)": _route(33_159),
    "a route of 82 areas, written short (over the board)": _route(81, "-"),
    "500 routes of 80 areas (20 read: 10,000 characters)": "\n".join([_route(80, "-")] * 500),
    "500 routes of 101 areas (AoP's most) by code": "\n".join([_route(101, "-")] * 500)[:READ],
    "a number of 4,301 digits": f"transfer {'9' * 4_301} to Milan",
    "500 amounts of 900 digits": _lines(f"bodyguard {'9' * 900}"),
    "500 unreadable lines of 1,000 characters": _lines("A flo - " + "x" * 992),
    "PRESS TO ALL as long as a mail": _press("ALL"),
}

KINDS: dict[str, tuple[Callable[[Scene], None], str, str, dict[str, str]]] = {
    "Payola": (payola, address("alice"), "SIGNON FRANCE@pb alice-pw\n1 : A PAR - BUR", {
        "300 offers of 100 amounts of 500 AgP": _lines(" + ".join(["1*500#500"] * 100) + " : A PAR - BUR", 300),
        "500 offer lines padded with comments": _lines("3 : A PAR - BUR % " + "x" * 1_950),
        "TRANSFER of 5,000 digits x 500": _lines(f"TRANSFER {'9' * 5_000} TO GERMANY"),
        "a convoy route of 40,000 areas": "F BRE - " + " - ".join(["MAO", "ENG"] * 20_000),
        "PRESS TO ALL as long as a mail": _press("ALL"),
    }),
    "Exchange": (exchange, address("CAT"), "SIGNON CAT@xb pw-cat\nBID 1 ITALY AT 1", {
        "BID with numbers of 5,000 digits x 500": _lines(f"BID {'9' * 5_000} FRANCE AT {'9' * 5_000}"),
        "a FOR block of 500 offers": "FOR FRANCE\n" + _lines("1 : A PAR - BUR % " + "x" * 300) + "\nEND",
        "PRESS TO ALL as long as a mail": _press("ALL"),
    }),
    "Pirates": (pirates, address("Dee"), "SIGNON Dee@pp pw-dee\nPLAN ME 10", {
        "a PLAN naming 20,000 shares": "PLAN " + " ".join(["Ann 1"] * 20_000),
        "VOTE naming 30,000 plans": "VOTE YES" + " ME" * 30_000,
        "GARNETS of 5,000 digits x 500": _lines(f"GARNETS {'9' * 5_000}"),
        "PRESS TO ALL as long as a mail": _press("ALL"),
    }),
    "Machiavelli classic": (machiavelli(""), address("Florence"), "SIGNON Florence@mc pw-florence\nA flo - pst",
                            MACHIAVELLI),
    "Machiavelli AoP": (machiavelli("aop"), address("Florence"), "SIGNON Florence@mc pw-florence\nnone",
                        MACHIAVELLI),
}


def stored(db: Database) -> int:
    with db.engine.connect() as connection:
        connection.execute(text("PRAGMA wal_checkpoint(TRUNCATE)"))
        pages, free, size = (connection.execute(text(f"PRAGMA {name}")).scalar_one()
                             for name in ("page_count", "freelist_count", "page_size"))
    return int((pages - free) * size)


def queued(db: Database) -> int:
    with db.transaction() as session:
        return int(session.scalar(select(func.count(Outbox.id))) or 0)


def apply_once(scene_dir: Path, sender: str, body: str) -> tuple[float, int, int, str]:
    """Apply ``body`` from ``sender`` to a fresh copy of the scene in ``scene_dir``: CPU seconds, bytes
    stored, mails queued besides the reply, the mail's status."""
    with tempfile.TemporaryDirectory(prefix="judge-hostile-") as work:
        data = Path(work) / "data"
        shutil.copytree(scene_dir, data)
        scene = Scene(data)
        try:
            before, mails = stored(scene.db), queued(scene.db)
            with scene.db.transaction() as session:
                session.merge(ConfirmedAddress(address=sender, confirmed_at=NOW - timedelta(days=1)))
            raw = mail(sender, body)
            started = time.process_time()
            inject(scene.db, scene.settings, raw, NOW)
            cpu = time.process_time() - started
            with scene.db.transaction() as session:
                status = str(session.scalars(select(InboundMail.status).order_by(InboundMail.id.desc()).limit(1))
                             .one())
            return cpu, stored(scene.db) - before, queued(scene.db) - mails - 1, status
        finally:
            scene.close()


def measure(scene_dir: Path, sender: str, body: str, repeat: int) -> tuple[float, int, int, str]:
    runs = [apply_once(scene_dir, sender, body) for _ in range(repeat)]
    cpu = statistics.median(run[0] for run in runs)
    return cpu, max(run[1] for run in runs), max(run[2] for run in runs), runs[-1][3]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="each mail applied this many times (median CPU)")
    repeat = parser.parse_args().repeat
    logging.getLogger("judge").setLevel(logging.ERROR)
    print(f"{'kind: hostile mail (targets: < 1 s CPU, < 1 MB, <= 50 mails)':66} {'CPU':>7} {'ratio':>6} "
          f"{'stored':>9} {'mails':>5}  status")
    worst = 0.0
    for kind, (build, sender, ordinary, hostile) in KINDS.items():
        with tempfile.TemporaryDirectory(prefix="judge-scene-") as work:
            scene_dir = Path(work) / "data"
            scene = Scene(scene_dir)
            build(scene)
            scene.db.checkpoint(wait=True)
            scene.close()
            peer, peer_stored, peer_mails, _ = measure(scene_dir, sender, ordinary, repeat)
            print(f"{kind + ': an ordinary mail (the peer)':66} {peer:6.2f}s {'1.00x':>6} {peer_stored / 1e6:7.2f}MB "
                  f"{peer_mails:5d}")
            for name, body in hostile.items():
                cpu, grown, mails, status = measure(scene_dir, sender, f"{ordinary}\n{body}", repeat)
                worst = max(worst, cpu)
                verdict = "ok" if cpu < 1 and grown <= 1e6 and mails <= 50 and status == "done" else "OVER"
                print(f"{kind + ': ' + name:66} {cpu:6.2f}s {cpu / peer:5.2f}x {grown / 1e6:7.2f}MB {mails:5d}  "
                      f"{status} {verdict}", flush=True)
    print(f"\nthe worst mail: {worst:.2f} s of CPU")


if __name__ == "__main__":
    main()
