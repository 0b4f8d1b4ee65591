"""Judges on several machines: network namespaces joined by veth links, PostgreSQL on one, a
``judge serve`` on each of the others, each machine with its own CPU budget; then a partition,
clocks that disagree, a machine lost for good, and throughput with 1, 2 and 3 machines.

Needs root (``ip netns``, veth links, cgroup v1's cpu controller) and PostgreSQL's binaries
(``--pg-bin``, default /usr/lib/postgresql/15/bin); prints numbers, asserts nothing.

The machines.  ``jm-db`` holds PostgreSQL; ``jm-j1`` .. ``jm-jN`` a judge each.  Each judge has
two links: one to the database's machine (10.45.N.2 <-> 10.45.N.1) and one to this process's
namespace, which plays the MTA and the operator (10.46.N.1 <-> 10.46.N.2); the operator reaches
the database by a link of its own (10.47.0.1 <-> 10.47.0.2).  A judge's process (and its
applier) runs in a cpu cgroup ``jm-jN`` capped at ``--cpu`` of a core (cfs_quota_us); the
database is not capped.  The MTA here (`Mta`) sends each mail to one judge and, when it answers
4xx or cannot be reached within ``--mta-timeout`` seconds, to the next, as the Postfix transport
of `judge.service.hosting.scripts` does.

Faults, and what this machine offers for them.  The kernel here has no netem and no packet
filter (no iptables, no nftables, no tc classifier), so a link cannot be made to lose packets
while up, nor be delayed.  The nearest honest cut: the database's end of a judge's link is set
down (``ip link set down``): nothing passes either way, and neither end is told (no RST, no
FIN): the judge's packets go into a link with no carrier, the server's have no route.  A
machine lost for good: its judge is killed (SIGKILL) and its namespace deleted with its links.
Clocks: each judge's own clock is the machine's plus ``--skew`` seconds, given to the daemon as
its local clock (`judge.service.running.daemon.Daemon`'s ``local``: no faketime, no LD_PRELOAD).

Scenarios (``--scenario``, all by default):

* ``scaling``: the same load (``--clients`` x ``--mails`` sheets over ``--games`` games, spread
  over the judges) with 1, 2 and 3 machines (``--machines``), each on a fresh database, after
  ``--warm-rounds`` untimed rounds of a sheet from every seat, so that each judge's applier has
  checked nearly every player's password once (a first sign-on costs its scrypt, about 40 ms of
  CPU, in every applier process, and which judge applies a game's mail is whichever takes it
  first: the steady state is a long-running judge's).  Three rounds were too few for several
  judges: on 2026-11-25 two judges' appliers spent 1.14 s more CPU than one judge's on the same
  240 timed mails after 3 rounds (cold passwords), 0.09 s more after 8.  Printed side by side:
  applied mails per second from the first connection to the last mail applied, and the judges'
  CPU per mail applied (each judge's split between its listener's process and its applier's).
* ``partition``: two judges under load; the first one's database link is cut; how long until
  the other has applied every mail acknowledged so far (games the cut judge held included), what
  the cut judge answered meanwhile; the link returns; every acknowledged mail applied once.
* ``loss``: two judges under load; the first one's machine is removed for good; the same counts.
* ``skew``: two judges, one 5 minutes ahead, one 5 minutes behind; a game's deadline 20 s ahead
  by the database's clock; a sheet to the judge that is ahead; the deadline processed once, at
  the database's time, with the sheet in it.
* ``evening`` (not among the defaults): ``--evening-games`` games of `evening_bench.py`'s mix due
  at once, with 1, 2, ... judge machines (``--machines``), maps and pages on: the time from the
  deadline to the last results mail, games a minute, the judges' CPU per game, how the games fell
  to the judges and whether any was processed twice.

Run: sudo .venv/bin/python bench/machines.py [--scenario scaling,partition,loss,skew] [--cpu 0.3]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import shlex
import shutil
import signal
import smtplib
import statistics
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from functools import partial
from pathlib import Path
from typing import Any

from sqlalchemy import func, select, text

from judge.bootstrap import database, kinds
from judge.service.clock import utcnow
from judge.service.config import Settings
from judge.service.hosting import host
from judge.service.running.daemon import Daemon
from judge.store.database import Database
from judge.store.models import Game, InboundMail, Outbox, PhaseRow

sys.path.insert(0, str(Path(__file__).parent))
import load_bench  # a sibling script: the load's mails

ROOT = Path("/tmp/jm")
PG_PORT = 5432
SMTP_PORT = 2525
CGROUP = Path("/sys/fs/cgroup/cpu")
PERIOD_US = 100_000


def sh(*command: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, check=check, capture_output=True, text=True)


def in_ns(ns: str, *command: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    return sh("ip", "netns", "exec", ns, *command, check=check)


# -- the machines -----------------------------------------------------------------------------------

@dataclass
class JudgeMachine:
    number: int
    prefix: str
    net: int
    root: Path
    process: subprocess.Popen[bytes] | None = None

    @property
    def ns(self) -> str:
        return f"{self.prefix}-j{self.number}"

    @property
    def address(self) -> str:  # where the MTA reaches its listener
        return f"10.{self.net + 1}.{self.number}.2"

    @property
    def data_dir(self) -> Path:
        return self.root / f"j{self.number}"


@dataclass
class Machines:
    """The database's machine and ``judges`` judges' machines (see the header)."""

    pg_bin: Path
    cpu: float
    prefix: str = "jm"  # of the namespaces, links and cgroups: two sets of machines may coexist
    net: int = 45  # the links' subnets: 10.<net>.N (judges-database), 10.<net+1>.N (MTA), 10.<net+2>.0 (operator)
    root: Path = ROOT
    judges: list[JudgeMachine] = field(default_factory=list)

    @property
    def db_ns(self) -> str:
        return f"{self.prefix}-db"

    def build(self, count: int) -> None:
        self.tear_down()
        self.root.mkdir(parents=True, exist_ok=True)
        sh("ip", "netns", "add", self.db_ns)
        in_ns(self.db_ns, "ip", "link", "set", "lo", "up")
        sh("ip", "link", "add", f"{self.prefix}a", "type", "veth", "peer", "name", f"{self.prefix}b")
        sh("ip", "link", "set", f"{self.prefix}b", "netns", self.db_ns)
        sh("ip", "addr", "add", f"10.{self.net + 2}.0.1/24", "dev", f"{self.prefix}a")
        sh("ip", "link", "set", f"{self.prefix}a", "up")
        in_ns(self.db_ns, "ip", "addr", "add", f"10.{self.net + 2}.0.2/24", "dev", f"{self.prefix}b")
        in_ns(self.db_ns, "ip", "link", "set", f"{self.prefix}b", "up")
        for number in range(1, count + 1):
            self.add_judge_machine(number)
        self.start_postgres()

    def add_judge_machine(self, number: int) -> JudgeMachine:
        machine = JudgeMachine(number, self.prefix, self.net, self.root)
        ns = machine.ns
        sh("ip", "netns", "add", ns)
        in_ns(ns, "ip", "link", "set", "lo", "up")
        # to the database: jmd<N> (database's end) <-> jmj<N> (judge's end)
        sh("ip", "link", "add", f"{self.prefix}d{number}", "type", "veth", "peer", "name", f"{self.prefix}j{number}")
        sh("ip", "link", "set", f"{self.prefix}d{number}", "netns", self.db_ns)
        sh("ip", "link", "set", f"{self.prefix}j{number}", "netns", ns)
        in_ns(self.db_ns, "ip", "addr", "add", f"10.{self.net}.{number}.1/24", "dev", f"{self.prefix}d{number}")
        in_ns(self.db_ns, "ip", "link", "set", f"{self.prefix}d{number}", "up")
        in_ns(ns, "ip", "addr", "add", f"10.{self.net}.{number}.2/24", "dev", f"{self.prefix}j{number}")
        in_ns(ns, "ip", "link", "set", f"{self.prefix}j{number}", "up")
        ends = ((self.db_ns, f"{self.prefix}d{number}", f"10.{self.net}.{number}.1"),
                (ns, f"{self.prefix}j{number}", f"10.{self.net}.{number}.2"))
        for (here, device, _), (there, peer, address) in (ends, ends[::-1]):  # static neighbours: ARP tells nothing
            mac = in_ns(there, "cat", f"/sys/class/net/{peer}/address").stdout.strip()
            in_ns(here, "ip", "neigh", "replace", address, "lladdr", mac, "dev", device, "nud", "permanent")
        # to the MTA (this namespace): jmm<N> <-> jmn<N>
        sh("ip", "link", "add", f"{self.prefix}m{number}", "type", "veth", "peer", "name", f"{self.prefix}n{number}")
        sh("ip", "link", "set", f"{self.prefix}n{number}", "netns", ns)
        sh("ip", "addr", "add", f"10.{self.net + 1}.{number}.1/24", "dev", f"{self.prefix}m{number}")
        sh("ip", "link", "set", f"{self.prefix}m{number}", "up")
        in_ns(ns, "ip", "addr", "add", f"10.{self.net + 1}.{number}.2/24", "dev", f"{self.prefix}n{number}")
        in_ns(ns, "ip", "link", "set", f"{self.prefix}n{number}", "up")
        group = CGROUP / ns
        group.mkdir(exist_ok=True)
        (group / "cpu.cfs_period_us").write_text(str(PERIOD_US))
        (group / "cpu.cfs_quota_us").write_text(str(int(self.cpu * PERIOD_US)))
        self.judges.append(machine)
        return machine

    def start_postgres(self) -> None:
        data = self.root / "pg"
        shutil.rmtree(data, ignore_errors=True)
        data.mkdir(parents=True)
        shutil.chown(data, "postgres")
        shutil.chown(self.root, "postgres")
        as_postgres = ["su", "postgres", "-s", "/bin/sh", "-c"]
        sh(*as_postgres, f"{self.pg_bin}/initdb -D {data}/data -A trust -U postgres >/dev/null")
        with open(data / "data" / "pg_hba.conf", "a") as hba:
            hba.write(f"host all all 10.{self.net}.0.0/16 trust\nhost all all 10.{self.net + 2}.0.0/24 trust\n")
        in_ns(self.db_ns, *as_postgres, f"{self.pg_bin}/pg_ctl -D {data}/data -w -l {data}/log -o "
              f"'-p {PG_PORT} -k {data} -c listen_addresses=* -c max_connections=200 -c fsync=on' start")

    def admin_url(self, name: str = "postgres") -> str:
        return f"postgresql+psycopg://postgres@10.{self.net + 2}.0.2:{PG_PORT}/{name}"

    def fresh_database(self, name: str) -> Database:
        admin = Database(self.admin_url())
        with admin.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
            connection.execute(text(f'CREATE DATABASE "{name}"'))
        admin.engine.dispose()
        made = Database(self.admin_url(name))
        made.upgrade()
        made.engine.dispose()
        return database(self.admin_url(name))

    def start_judge(self, machine: JudgeMachine, database: str, skew: float = 0.0, maps: bool = False,
                    options: str = "") -> None:
        """``judge serve`` (through `judge_main`) on ``machine``, in its cpu cgroup, logging to its data dir;
        with ``maps``, its mail's maps and its public pages on, as an ordinary deployment's; ``options``, the
        database URL's query (``connect_timeout=2``), which wins over the judge's own connection options."""
        shutil.rmtree(machine.data_dir, ignore_errors=True)
        machine.data_dir.mkdir(parents=True)
        url = f"postgresql+psycopg://postgres@10.{self.net}.{machine.number}.1:{PG_PORT}/{database}"
        url += f"?{options}" if options else ""
        judge = (f"exec ip netns exec {machine.ns} {sys.executable} {Path(__file__).resolve()} judge "
                 f"--data-dir {machine.data_dir} --database {shlex.quote(url)} --skew {skew}"
                 + (" --maps" if maps else ""))
        script = f"echo $$ > {CGROUP / machine.ns / 'cgroup.procs'} && {judge}"
        with open(machine.data_dir / "judge.log", "ab") as log:
            machine.process = subprocess.Popen(["sh", "-c", script], stdout=subprocess.DEVNULL, stderr=log)
        wait_until(lambda: _listens(machine.address), 120)

    def stop_judges(self) -> None:
        for machine in self.judges:
            if machine.process is not None and machine.process.poll() is None:
                machine.process.send_signal(signal.SIGTERM)
                try:
                    machine.process.wait(60)
                except subprocess.TimeoutExpired:
                    machine.process.kill()
                    machine.process.wait()
            machine.process = None

    def cut(self, machine: JudgeMachine) -> None:
        """The database's end of the judge's link down: nothing passes, neither end is told."""
        in_ns(self.db_ns, "ip", "link", "set", f"{self.prefix}d{machine.number}", "down")

    def heal(self, machine: JudgeMachine) -> None:
        in_ns(self.db_ns, "ip", "link", "set", f"{self.prefix}d{machine.number}", "up")

    def remove(self, machine: JudgeMachine) -> None:
        """The machine gone for good: its judge killed, its namespace and links deleted."""
        if machine.process is not None:
            _kill_namespace(machine.ns)
            machine.process.wait()
            machine.process = None
        sh("ip", "netns", "del", machine.ns, check=False)

    def tear_down(self) -> None:
        self.stop_judges()
        if Path(f"/run/netns/{self.db_ns}").exists():
            in_ns(self.db_ns, "su", "postgres", "-s", "/bin/sh", "-c",
                  f"{self.pg_bin}/pg_ctl -D {self.root / 'pg' / 'data'} -m immediate stop", check=False)
        namespaces = Path("/run/netns")
        for ns in sorted(p.name for p in namespaces.glob(f"{self.prefix}-*")) if namespaces.exists() else []:
            _kill_namespace(ns)
            sh("ip", "netns", "del", ns, check=False)
        sh("ip", "link", "del", f"{self.prefix}a", check=False)
        for number in range(1, 10):
            sh("ip", "link", "del", f"{self.prefix}m{number}", check=False)
            with contextlib.suppress(OSError):
                (CGROUP / f"{self.prefix}-j{number}").rmdir()
        self.judges = []


def _throttling(machine: JudgeMachine) -> tuple[int, int]:
    """The machine's cgroup's CFS periods so far, and how many of them it was throttled in (its cap reached)."""
    stat = dict(line.split() for line in (CGROUP / machine.ns / "cpu.stat").read_text().splitlines())
    return int(stat["nr_periods"]), int(stat["nr_throttled"])


def _cpu_seconds(machine: JudgeMachine) -> float:
    """The CPU time (user and system) the processes now on ``machine`` have used."""
    return sum(_cpu_split(machine))


def _cpu_split(machine: JudgeMachine) -> tuple[float, float]:
    """The CPU time the processes now on ``machine`` have used: its applier process (a spawned
    interpreter), and the others (the listener's, with the sender and the clock)."""
    listener = applier = 0.0
    for pid in sh("ip", "netns", "pids", machine.ns, check=False).stdout.split():
        with contextlib.suppress(OSError):
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            seconds = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
            if b"multiprocessing" in Path(f"/proc/{pid}/cmdline").read_bytes():
                applier += seconds
            else:
                listener += seconds
    return listener, applier


def _kill_namespace(ns: str) -> None:
    """SIGKILL every process in the network namespace ``ns``."""
    for pid in sh("ip", "netns", "pids", ns, check=False).stdout.split():
        with contextlib.suppress(ProcessLookupError):
            os.kill(int(pid), signal.SIGKILL)


def _listens(host: str) -> bool:
    try:
        with smtplib.SMTP(host, SMTP_PORT, timeout=2) as client:
            return client.noop()[0] == 250
    except OSError:
        return False


def wait_until(condition: Callable[[], bool], timeout: float, period: float = 0.1) -> bool:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(period)
    return True


# -- a judge on a machine ---------------------------------------------------------------------------

def judge_main(args: argparse.Namespace) -> None:
    """What each judge machine runs: a daemon whose own clock is the machine's plus ``--skew`` s."""
    settings = Settings(data_dir=Path(args.data_dir), database=args.database, host="0.0.0.0", port=SMTP_PORT,
                        tick_seconds=2, maps=args.maps, web=args.maps, mta_hostname=load_bench.MX,
                        mta_authenticates=True,
                        max_creates_per_day=1000, max_creates_per_hour=1000, max_replies_per_hour=100_000,
                        log_file=Path(args.data_dir) / "judge.log")
    skew = timedelta(seconds=args.skew)

    async def main() -> None:
        from judge.service.logs import log_to

        log_to(settings.log_file)
        daemon = Daemon(settings, kinds(), local=lambda: utcnow() + skew)
        loop = asyncio.get_running_loop()
        loop.add_signal_handler(signal.SIGTERM, daemon.stop.set)
        await daemon.run()

    asyncio.run(main())


# -- the MTA ----------------------------------------------------------------------------------------

@dataclass
class Mta:
    """Sends each mail to a judge, and to the next when one answers 4xx or does not answer."""

    judges: list[JudgeMachine]
    timeout: float
    accepted: dict[str, int] = field(default_factory=dict)  # Message-ID -> the judge that said 250
    answers: Counter[str] = field(default_factory=Counter)  # "j1 451", "j1 timeout", ...
    lock: threading.Lock = field(default_factory=threading.Lock)
    dead_until: dict[int, float] = field(default_factory=dict)  # a judge that failed is skipped a while
    SKIP = 30.0  # seconds (Postfix keeps a dead host's status for a while too, $smtp_*_timeout aside)

    def send(self, mail: load_bench.Mail, first: int) -> bool:
        order = [self.judges[(first + k) % len(self.judges)] for k in range(len(self.judges))]
        alive = [m for m in order if self.dead_until.get(m.number, 0.0) <= time.monotonic()]
        for machine in alive + [m for m in order if m not in alive]:
            answer = self._try(machine, mail)
            with self.lock:
                self.answers[f"j{machine.number} {answer}"] += 1
                if answer == "250":
                    self.accepted[_message_id(mail.raw)] = machine.number
                    return True
                self.dead_until[machine.number] = time.monotonic() + self.SKIP
        return False

    def _try(self, machine: JudgeMachine, mail: load_bench.Mail) -> str:
        try:
            with smtplib.SMTP(machine.address, SMTP_PORT, timeout=self.timeout) as client:
                client.sendmail(mail.sender, [load_bench.JUDGE], mail.raw)
            return "250"
        except smtplib.SMTPDataError as exc:
            return str(exc.smtp_code)
        except smtplib.SMTPResponseException as exc:
            return str(exc.smtp_code)
        except (TimeoutError, OSError, smtplib.SMTPException) as exc:
            return "timeout" if isinstance(exc, TimeoutError) else type(exc).__name__

    def run(self, plan: list[list[load_bench.Mail]], pace: float = 0.0) -> list[threading.Thread]:
        """One thread per client of ``plan``; client c starts with judge c (mod judges)."""
        def client(c: int, mails: list[load_bench.Mail]) -> None:
            for mail in mails:
                self.send(mail, c)
                if pace:
                    time.sleep(pace)

        threads = [threading.Thread(target=client, args=(c, mails), daemon=True) for c, mails in enumerate(plan)]
        for thread in threads:
            thread.start()
        return threads


def _message_id(raw: bytes) -> str:
    for line in raw.split(b"\n"):
        if line.lower().startswith(b"message-id:"):
            return line.split(b":", 1)[1].strip().decode().strip("<>")
    raise ValueError("no Message-ID")


# -- what the database says -------------------------------------------------------------------------

def applied_count(db: Database) -> int:
    with db.transaction() as session:
        return int(session.scalar(select(func.count()).select_from(InboundMail)
                                  .where(InboundMail.status != "new")) or 0)


@dataclass(frozen=True)
class Row:
    message_id: str
    status: str
    received_at: datetime
    processed_at: datetime | None


def mail_rows(db: Database) -> list[Row]:
    with db.transaction() as session:
        rows = session.execute(select(InboundMail.message_id, InboundMail.status, InboundMail.received_at,
                                      InboundMail.processed_at)).all()
    return [Row((mid or "").strip("<>"), status, received, processed) for mid, status, received, processed in rows]


def database_time(db: Database) -> datetime:
    with db.engine.connect() as connection:
        moment = connection.scalar(text("SELECT clock_timestamp() AT TIME ZONE 'UTC'"))
    assert isinstance(moment, datetime)
    return moment


def all_applied(db: Database, mta: Mta) -> bool:
    """Whether every mail a judge acknowledged is stored and applied."""
    with mta.lock:
        expected = set(mta.accepted)
    applied = {row.message_id for row in mail_rows(db) if row.status != "new"}
    return expected <= applied


def waits_report(db: Database, since: datetime) -> str:
    """How long the mails stored since ``since`` (database time) waited between their store and
    their application (both stamped by the database's clock)."""
    waits = sorted((row.processed_at - row.received_at).total_seconds() for row in mail_rows(db)
                   if row.received_at >= since and row.processed_at is not None)
    if not waits:
        return "no mail stored since"
    return (f"{len(waits)} mails stored since waited for their application: median {statistics.median(waits):.1f} s, "
            f"longest {waits[-1]:.1f} s")


def _applied_is(db: Database, n: int) -> bool:
    return applied_count(db) >= n


def replies_sent(db: Database) -> int:
    with db.transaction() as session:
        return int(session.scalar(select(func.count()).select_from(Outbox)
                                  .where(Outbox.kind == "reply", Outbox.status == "sent")) or 0)


def once_report(db: Database, mta: Mta) -> str:
    """Every mail a judge acknowledged: stored, applied once (done once, any other copy a duplicate)."""
    rows = mail_rows(db)
    stored = Counter(row.message_id for row in rows)
    done = Counter(row.message_id for row in rows if row.status == "done")
    waiting = {row.message_id for row in rows if row.status == "new"}
    lost = [mid for mid in mta.accepted if not stored[mid]]
    return (f"acknowledged {len(mta.accepted)}: lost {len(lost)}, applied as done twice "
            f"{sum(done[mid] > 1 for mid in mta.accepted)}, still unapplied {len(waiting & set(mta.accepted))}, "
            f"stored twice (the second a duplicate) {sum(stored[mid] > 1 for mid in mta.accepted)}")


def set_up_games(machines: Machines, db: Database, games: int) -> None:
    """The load bench's setup (games created, joined and started by mail), through judge 1."""
    setup = load_bench.setup_mails(games)
    load_bench.confirmed(db, setup)
    mta = Mta(machines.judges[:1], timeout=60)
    sent = 0
    for step in range(len(setup[0])):
        for batch in setup:
            mta.send(batch[step], 0)
            sent += 1
        wait_until(partial(_applied_is, db, sent), 300)
    load_bench.check_started(db, games)


# -- scenarios ----------------------------------------------------------------------------------------

def scaling(machines: Machines, args: argparse.Namespace) -> None:
    print(f"== scaling: {args.clients} clients x {args.mails} sheets over {args.games} games; each judge's machine "
          f"capped at {args.cpu:.2f} of a core; PostgreSQL uncapped; {args.repeat} run(s) each")
    rates: dict[int, list[float]] = {}
    costs: dict[int, list[float]] = {}  # the judges' CPU (all of them) per mail applied, in ms
    for count in args.machines:
        for run in range(args.repeat):
            machines.build(count)
            db = machines.fresh_database("judge")
            for machine in machines.judges:
                machines.start_judge(machine, "judge")
            set_up_games(machines, db, args.games)
            every_seat = -(-args.games * (len(load_bench.POWERS) - 1) // args.clients)  # mails per client
            for _ in range(args.warm_rounds):
                warm = load_bench.load_mails(args.games, args.clients, every_seat, seed=3)
                warmed = applied_count(db) + sum(len(m) for m in warm)
                for thread in Mta(machines.judges, timeout=args.mta_timeout).run(warm):
                    thread.join()
                wait_until(partial(_applied_is, db, warmed), 600, 0.05)
            base = applied_count(db)
            plan = load_bench.load_mails(args.games, args.clients, args.mails, seed=7 + run)
            total = sum(len(mails) for mails in plan)
            mta = Mta(machines.judges, timeout=args.mta_timeout)
            before = [(_throttling(m), _cpu_seconds(m)) for m in machines.judges]
            split_before = [_cpu_split(m) for m in machines.judges]
            start = time.monotonic()
            for thread in mta.run(plan):
                thread.join()
            accepted = time.monotonic() - start
            wait_until(partial(_applied_is, db, base + total), 600, 0.05)
            wall = time.monotonic() - start
            after = [(_throttling(m), _cpu_seconds(m)) for m in machines.judges]
            split = [(b[0] - a[0], b[1] - a[1]) for a, b in zip(split_before, map(_cpu_split, machines.judges),
                                                                strict=True)]
            rate = total / wall
            rates.setdefault(count, []).append(rate)
            cpu = sum(b[1] - a[1] for a, b in zip(before, after, strict=True))
            periods = sum(b[0][0] - a[0][0] for a, b in zip(before, after, strict=True))
            throttled = sum(b[0][1] - a[0][1] for a, b in zip(before, after, strict=True))
            costs.setdefault(count, []).append(1000 * cpu / total)
            print(f"  {count} machine(s), run {run + 1}: accepted in {accepted:.2f} s, applied {total} in "
                  f"{wall:.2f} s = {rate:.1f} mails/s; the judges used {cpu / wall:.2f} cores of the "
                  f"{count * args.cpu:.2f} allowed, throttled in {throttled / max(periods, 1):.0%} of their periods; "
                  f"CPU per mail applied {1000 * cpu / total:.1f} ms (each judge's listener + applier: "
                  f"{', '.join(f'{listener:.2f} + {applier:.2f} s' for listener, applier in split)}); "
                  f"answers {dict(mta.answers)}")
            db.engine.dispose()
            machines.stop_judges()
    one = statistics.median(rates[args.machines[0]])
    print("  machines:        " + "".join(f"{count:>14}" for count in rates))
    print("  applied mails/s: " + "".join(f"{statistics.median(r):>14.1f}" for r in rates.values()))
    print("  spread (min-max):" + "".join(f"{f'{min(r):.0f}-{max(r):.0f}':>14}" for r in rates.values()))
    print("  x one machine:   " + "".join(f"{statistics.median(r) / one:>14.2f}" for r in rates.values()))
    print("  CPU ms per mail: " + "".join(f"{statistics.median(c):>14.1f}" for c in costs.values()))


def _two_judges_under_load(machines: Machines, args: argparse.Namespace) -> tuple[Database, Mta, list[threading.Thread],
                                                                                   int]:
    machines.build(2)
    db = machines.fresh_database("judge")
    for machine in machines.judges:
        machines.start_judge(machine, "judge")
    set_up_games(machines, db, args.games)
    plan = load_bench.load_mails(args.games, args.clients, args.mails, seed=11)
    mta = Mta(machines.judges, timeout=args.mta_timeout)
    threads = mta.run(plan, pace=args.pace)
    return db, mta, threads, applied_count(db)


def _log_lines(machine: JudgeMachine, *words: str) -> list[str]:
    path = machine.data_dir / "judge.log"
    lines = path.read_text(errors="replace").splitlines() if path.exists() else []
    return [line for line in lines if any(word in line for word in words)]


def partition(machines: Machines, args: argparse.Namespace) -> None:
    print(f"== partition: two judges under load ({args.clients} clients x {args.mails} sheets, one every "
          f"{args.pace:.2f} s per client); judge 1's database link cut after {args.cut_after:.0f} s for "
          f"{args.cut_for:.0f} s")
    db, mta, threads, _ = _two_judges_under_load(machines, args)
    cut_judge = machines.judges[0]
    time.sleep(args.cut_after)
    cut_at = database_time(db)
    machines.cut(cut_judge)
    with mta.lock:
        before = len(mta.accepted)
    print(f"  cut; {before} mails acknowledged so far")
    time.sleep(args.cut_for)
    held = all_applied(db, mta)
    print(f"  after {args.cut_for:.0f} s cut off: every mail acknowledged so far applied: {held}; "
          + waits_report(db, cut_at) + f" (bound stated: {args.bound:.0f} s)")
    print(f"  judge 1's answers to the MTA so far: {_answers_of(mta, 1)}; its log while cut, e.g.:")
    for line in _log_lines(cut_judge, "could not store", "WARNING", "ERROR")[:4]:
        print(f"    {line[:150]}")
    machines.heal(cut_judge)
    for thread in threads:
        thread.join()
    wait_until(lambda: all_applied(db, mta), 120, 0.2)
    wait_until(lambda: replies_sent(db) >= len(mta.accepted), 120, 0.2)
    print(f"  link back, load over: {once_report(db, mta)}; MTA's answers by judge: {dict(mta.answers)}")
    db.engine.dispose()
    machines.stop_judges()


def _answers_of(mta: Mta, number: int) -> dict[str, int]:
    with mta.lock:
        return {key.split()[1]: n for key, n in mta.answers.items() if key.startswith(f"j{number} ")}


def loss(machines: Machines, args: argparse.Namespace) -> None:
    print(f"== loss: two judges under load; judge 1's machine removed for good after {args.cut_after:.0f} s")
    db, mta, threads, _ = _two_judges_under_load(machines, args)
    lost = machines.judges[0]
    time.sleep(args.cut_after)
    removed_at = database_time(db)
    machines.remove(lost)
    for thread in threads:
        thread.join()
    wait_until(lambda: all_applied(db, mta), 120, 0.2)
    wait_until(lambda: replies_sent(db) >= len(mta.accepted), 120, 0.2)
    print(f"  {waits_report(db, removed_at)} (bound stated: {args.bound:.0f} s)")
    print(f"  {once_report(db, mta)}; MTA's answers by judge: {dict(mta.answers)}")
    db.engine.dispose()
    machines.stop_judges()


def skew(machines: Machines, args: argparse.Namespace) -> None:
    print("== skew: judge 1's clock 5 minutes ahead, judge 2's 5 minutes behind; a deadline 20 s ahead by the "
          "database's clock")
    machines.build(2)
    db = machines.fresh_database("judge")
    machines.start_judge(machines.judges[0], "judge", skew=300)
    machines.start_judge(machines.judges[1], "judge", skew=-300)
    set_up_games(machines, db, 1)
    with db.engine.connect() as connection:
        now = connection.scalar(text("SELECT clock_timestamp() AT TIME ZONE 'UTC'"))
    due = now + timedelta(seconds=20)
    with db.transaction() as session:
        game = session.scalars(select(Game)).one()
        game.deadline = due - timedelta(hours=host.duration(game, "grace"))
    sheet = load_bench.load_mails(1, 1, 1, seed=5)[0][0]
    mta = Mta(machines.judges[:1], timeout=60)
    mta.send(sheet, 0)  # to the judge 5 minutes ahead: by its own clock, 4.7 minutes late
    wait_until(lambda: False, 30)  # the deadline passes by the database's clock
    with db.transaction() as session:
        rows = session.execute(select(PhaseRow.name, PhaseRow.status, PhaseRow.processed_at)
                               .order_by(PhaseRow.id)).all()
        received = session.scalar(select(InboundMail.received_at).order_by(InboundMail.id.desc()).limit(1))
    processed = [row for row in rows if row.status == "processed"]
    print(f"  deadline (processing) at {due:%H:%M:%S.%f} database time; the sheet stored at {received:%H:%M:%S.%f} "
          f"by the judge 5 minutes ahead")
    for row in processed:
        late = (row.processed_at - due).total_seconds()
        print(f"  {row.name} processed at {row.processed_at:%H:%M:%S.%f} ({late:+.1f} s from the deadline)")
    print(f"  phases processed: {len(processed)} (exactly one expected); the sheet "
          f"{'before' if received is not None and received < due else 'AFTER'} the deadline")
    for machine in machines.judges:
        for line in _log_lines(machine, "off the database")[:1]:
            print(f"  judge {machine.number}: {line[:150]}")
    db.engine.dispose()
    machines.stop_judges()


def evening(machines: Machines, args: argparse.Namespace) -> None:
    """A deadline evening shared by judges on machines of their own (`evening_bench.py`'s mix of
    games, every player's orders in, all due at once): 1, 2, ... judges (``--machines``), maps and
    pages on, each machine capped at ``--cpu`` of a core; the time from the deadline to the last
    results mail, games a minute, the judges' CPU per game, and how the games fell to the judges."""
    import evening_bench
    import evening_setup

    print(f"== evening: {args.evening_games} games due at once; each judge's machine capped at {args.cpu:.2f} of a "
          f"core; PostgreSQL uncapped; {args.repeat} run(s) each")
    rates: dict[int, list[float]] = {}
    for count in args.machines:
        for run in range(args.repeat):
            machines.build(count)
            db = machines.fresh_database("judge")
            settings = Settings(data_dir=machines.root / "setup", database=machines.admin_url("judge"), maps=False,
                                web=False, mta_hostname=load_bench.MX, mta_authenticates=True,
                                max_creates_per_day=10**6, max_creates_per_hour=10**6, max_replies_per_hour=10**6,
                                max_joins_per_day=10**6)
            setup = database(settings.database_url)
            flavours = evening_setup.mix(args.evening_games)
            began = evening_setup.setup_began(args.evening_games)
            templates = evening_setup.build_templates(setup, settings, began, flavours)
            names: dict[str, list[str]] = {}
            for index, flavour in enumerate(flavours):
                names.setdefault(flavour, []).append(f"e{index:04d}-{flavour}")
            deadline = database_time(db) + timedelta(seconds=15 + 20 * count)  # the judges start before it
            for flavour, copies in names.items():
                evening_setup.clone(setup, templates[flavour], copies, deadline)
            evening_setup.vary(evening_setup.Setup(setup, settings, began + evening_setup.VARY_AFTER), names)
            evening_setup.setup_mail_sent(setup)
            seats = evening_setup.played_seats(setup, [n for copies in names.values() for n in copies])
            setup.engine.dispose()
            for machine in machines.judges:
                machines.start_judge(machine, "judge", maps=True)
            before = [_cpu_seconds(m) for m in machines.judges]
            at = time.time() + (deadline - database_time(db)).total_seconds()
            readers = [evening_bench.Reader(m.data_dir / "outbox") for m in machines.judges]
            finished = wait_until(partial(_all_results, readers, sum(seats.values())), 1800, 0.5)
            for reader in readers:
                reader.close()
            cpu = sum(_cpu_seconds(m) - b for m, b in zip(machines.judges, before, strict=True))
            by_judge = [_results(reader) for reader in readers]
            last = max((w.at for mails in by_judge for w in mails), default=at) - at
            games = [{line.split()[4] for line in _log_lines(m, " processed (")} & set(seats) for m in machines.judges]
            per_game = Counter(w.subject.split()[0] for mails in by_judge for w in mails)
            twice = sum(per_game[name] > expected for name, expected in seats.items())
            rate = len(seats) / last * 60 if last > 0 else float("nan")
            rates.setdefault(count, []).append(rate)
            print(f"  {count} machine(s), run {run + 1}: {'all' if finished else 'NOT all'} results written, the last "
                  f"{last:.1f} s after the deadline = {rate:.0f} games a minute; the judges' CPU "
                  f"{1000 * cpu / len(seats):.0f} ms a game; games processed by each judge {[len(g) for g in games]}, "
                  f"by two {len(set.intersection(*games)) if len(games) > 1 else 0}, with a player's results mailed "
                  f"twice {twice}; load {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
            db.engine.dispose()
            machines.stop_judges()
    one = statistics.median(rates[args.machines[0]])
    print("  machines:        " + "".join(f"{count:>14}" for count in rates))
    print("  games a minute:  " + "".join(f"{statistics.median(r):>14.0f}" for r in rates.values()))
    print("  x one machine:   " + "".join(f"{statistics.median(r) / one:>14.2f}" for r in rates.values()))


def _results(reader: Any) -> list[Any]:
    """The results mails to players a judge's Maildir holds (`evening_bench.Reader`)."""
    return [w for w in reader.mails() if w.subject.endswith(" results") and not w.to.startswith("gm@")]


def _all_results(readers: list[Any], expected: int) -> bool:
    return sum(len(_results(reader)) for reader in readers) >= expected


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else None)
    sub = parser.add_subparsers(dest="command")
    judge = sub.add_parser("judge", help="(internal) what each judge machine runs")
    judge.add_argument("--data-dir", required=True)
    judge.add_argument("--database", required=True)
    judge.add_argument("--skew", type=float, default=0.0)
    judge.add_argument("--maps", action="store_true", help="maps and public pages on")
    parser.add_argument("--scenario", default="scaling,partition,loss,skew")
    parser.add_argument("--pg-bin", type=Path, default=Path("/usr/lib/postgresql/15/bin"))
    parser.add_argument("--cpu", type=float, default=0.3, help="each judge machine's CPU, in cores")
    parser.add_argument("--games", type=int, default=12)
    parser.add_argument("--clients", type=int, default=6)
    parser.add_argument("--mails", type=int, default=40, help="sheets per client")
    parser.add_argument("--repeat", type=int, default=1, help="scaling: runs per number of machines")
    parser.add_argument("--machines", type=lambda text: [int(n) for n in text.split(",")], default=[1, 2, 3],
                        help="scaling: the numbers of judge machines, e.g. 1,2,3 (the first is the one compared to)")
    parser.add_argument("--warm-rounds", type=int, default=8, help="scaling: untimed rounds before the timed one")
    parser.add_argument("--pace", type=float, default=0.1, help="partition, loss: seconds between a client's mails")
    parser.add_argument("--cut-after", type=float, default=2.0)
    parser.add_argument("--cut-for", type=float, default=45.0, help="partition: how long the link stays cut")
    parser.add_argument("--bound", type=float, default=30.0)
    parser.add_argument("--mta-timeout", type=float, default=60.0)
    parser.add_argument("--evening-games", type=int, default=60, help="evening: games due at once")
    parser.add_argument("--prefix", default="jm", help="of the namespaces, links and cgroups (another run's differs)")
    parser.add_argument("--net", type=int, default=45, help="the links' subnets: 10.NET.x, 10.NET+1.x, 10.NET+2.x")
    args = parser.parse_args()
    if args.command == "judge":
        judge_main(args)
        return
    if os.geteuid() != 0:
        sys.exit("bench/machines.py needs root (network namespaces, veth links, cgroups)")
    machines = Machines(args.pg_bin, args.cpu, args.prefix, args.net, Path(f"/tmp/{args.prefix}"))
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))  # the machines are torn down all the same
    scenarios = {"scaling": scaling, "partition": partition, "loss": loss, "skew": skew, "evening": evening}
    try:
        for name in args.scenario.split(","):
            scenarios[name](machines, args)
    finally:
        machines.tear_down()


if __name__ == "__main__":
    main()
