"""Load benchmark of ``judge serve``: many concurrent SMTP clients sending offer sheets for many games.

A real daemon (``judge.service.running.daemon.Daemon``) runs in a thread on its own event loop, on a
temporary data directory, listening on 127.0.0.1.  Setup (not timed): G games (``--games``,
default 10) are created, joined by seven players each and started, all by mail, and the
script waits until the judge has applied every setup mail.  Load (timed): C client threads
(``--clients``, default 8) each send M mails (``--mails-per-client``, default 50) as fast as
they can, one SMTP connection per mail.  Each mail is a player signing on and sending an
offer sheet of twenty legal Spring 1901 offers (it replaces that power's earlier sheet);
the mails are spread round-robin over the games and over six of the seven powers of each
game.  The seventh power of each game (a different one per game) never sends a sheet, so no
phase is complete and none is adjudicated during the run: every load mail is a valid sheet
for Spring 1901 and costs the same (sign-on with its password check, sheet parsing, reply).
The load comes in R rounds (``--rounds``, default 3), each sent to the no-op handler first and
then to the judge, which applies all of it before the next round: each round is printed and
then the medians (a round lasts about a second, at the mercy of whatever else a shared machine
is doing then).  The client threads run in a process of their own, as an MTA does: in the
daemon's process they shared its interpreter lock with the listener, and how the two took turns
varied from run to run (the same load, five runs: the slowest 0.73 of the fastest).  Nothing is
asserted; the script only prints numbers.

How to read a block (one per database):

* ``no-op aiosmtpd handler``: the peer, measured just before the judge in each round: the same
  clients send the same mails to an aiosmtpd server whose handler answers 250 at once and keeps
  nothing.
  ``=> accepted`` gives the judge's rate as a share of it (target: at least 50%) and the
  judge's p99 DATA->250 while it applies the mail it accepts (target: under 50 ms).
* ``accepted``: mails answered 250 and the wall time from the first connection to the last
  answer; ``mails/s`` is accepted mails per second of that wall time.  The 250 comes only
  after the raw mail is committed, so this is the rate at which mail is stored durably.
* ``DATA->250``: per mail, the time from sending the DATA command to reading its final
  answer (message transfer plus the commit), median and 99th percentile in milliseconds.
  ``whole mail`` is the same for the whole session (connect, EHLO, MAIL, RCPT, DATA, QUIT).
* ``refused``: any answer other than 250 (451 means the judge could not store the mail) and
  any client-side error, by kind; there should be none.
* ``applied while accepting``: mails are applied after they are stored, in arrival order (with
  SQLite they are first taken in from the daemon's intake file), so under load a backlog of
  mails not yet applied builds up.  ``backlog`` is how many were still unapplied when
  the last 250 came; ``drained after`` is how long after the last 250 the judge needed to apply
  them all; ``end to end`` is all load mails divided by the time from the first connection
  until the last was applied (the sustained throughput).  ``statuses`` counts the final
  status of the load mails (all should be ``done``); ``replies`` counts the judge's answers
  to them and how many refuse the sign-on or echo a line as ERROR or IGNORED (should be 0:
  every sign-on and every sheet is legal; the applying figures below count them too).
* ``while draining``: the CPU time the applier process, and the process of the listener (the
  daemon's threads, with the bench's clients idle and its polling), used from the last 250 until
  the backlog was applied, as a share of one core: what is not CPU is waiting (issue 27).
* ``answered``: when the judge's sender had written the reply to every load mail, counted from
  the first connection, and the load's mails per second of that time: the rate a player sees
  (a sender that sleeps with answers due shows here, not in ``drained``).
* ``judge log``: warnings and errors the daemon logged during the run, if any.
* ``applying alone``: once the daemon has stopped, as many new sheets are stored at once and
  applied in arrival order (`judge.service.running.app.apply_stored`: runs of several mails per
  transaction, as the daemon applies them), timed: the applier's own rate (target: at least
  150 mails/s).

``applying alone`` runs in the bench's own process, which has checked none of the players'
passwords yet (the daemon applied the load in its applier process): each power's first
sign-on costs its scrypt, one per power and process, 60 with the defaults.  ``applying
again`` then times as many more sheets in the same process, every password checked once:
the steady state of the daemon's long-running applier, the figure to hold against the target.

``--apply-only`` measures only ``applying alone``, with no daemon and no SMTP: a process of
its own stores and applies the setup mails and then the load mails (untimed), which leaves the
games and the bench's process as the full run leaves them, and ``applying alone`` follows;
then ``applying again`` times as many more sheets in the same process, where every password
has been checked once (the steady state of a long-running applier).  ``--repeat N`` does that
N times (each on a fresh database) and prints the medians (with ``--processes``, of each
number of processes too).

SQLite always runs (fresh temporary data directory).  PostgreSQL runs too with ``--postgres
URL`` or ``JUDGE_BENCH_POSTGRES=URL`` (a server URL; a fresh database is created on it for
the run and dropped afterwards).

``--runs N`` runs the whole bench N times per database, each on a fresh judge, and prints each
run's medians beside the others' at the end, with the slowest run's share of the fastest's: a
judge's rate should not depend on the run (issue 45 asked five runs within 20% of each other).

Run: .venv/bin/python bench/load_bench.py [--games 10] [--clients 8] [--mails-per-client 50] [--rounds 3] [--runs 5]
     [--postgres postgresql+psycopg://judge@127.0.0.1:55432/postgres] [--apply-only [--repeat 3]]
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import logging
import multiprocessing
import os
import random
import smtplib
import socket
import statistics
import tempfile
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, field
from datetime import datetime
from email.message import EmailMessage
from email.utils import make_msgid
from functools import partial
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from aiosmtpd.controller import Controller
from sqlalchemy import create_engine, func, insert, make_url, select, text

from judge.bootstrap import database, kinds, open_database
from judge.engine.legal import legal_orders
from judge.engine.map import load_map
from judge.engine.position import Position
from judge.payola.offers import parse_sheet
from judge.service.config import Settings
from judge.service.incoming.handlers.mail import store
from judge.service.passwords import verify_password
from judge.service.running.app import apply_stored
from judge.service.running.daemon import Daemon
from judge.store.database import Database
from judge.store.models import ConfirmedAddress, Game, InboundMail, Outbox, Player

POWERS = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")
GM = "gm@example.org"
JUDGE = "judge@localhost"
GM_PASSWORD = "gm-secret"
START = Position.initial(load_map("standard"))
ORDERS = {province: [str(order) for order in legal_orders(START, province)] for province in START.units}


class FixedClock:
    """The judge's clock, stopped: no deadline passes during the run."""

    def __init__(self) -> None:
        self.now = datetime(2026, 3, 1, 9, 0)

    def __call__(self) -> datetime:
        return self.now


class NoOp:
    """The peer: an aiosmtpd handler that accepts every mail and keeps nothing."""

    async def handle_DATA(self, server: object, session: object, envelope: object) -> str:
        return "250 OK"


class LogCounter(logging.Handler):
    """Keeps the judge's warnings and errors so the report can show them."""

    def __init__(self) -> None:
        super().__init__(level=logging.WARNING)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


class Running:
    """A daemon on its own event loop in a thread, stopped cleanly at the end."""

    def __init__(self, settings: Settings) -> None:
        self.loop = asyncio.new_event_loop()
        self.daemon = Daemon(settings, kinds(), clock=FixedClock())
        self.thread = threading.Thread(target=self.loop.run_until_complete, args=(self.daemon.run(),), daemon=True)
        self.thread.start()
        wait_until(lambda: self.daemon.port is not None, timeout=60)
        assert self.daemon.port is not None
        self.port: int = self.daemon.port

    def applier_pid(self) -> int:
        assert self.daemon.applier is not None and self.daemon.applier.process.pid is not None
        return self.daemon.applier.process.pid

    def stop(self) -> None:
        self.loop.call_soon_threadsafe(self.daemon.stop.set)
        self.thread.join(timeout=60)
        if self.thread.is_alive():
            print("  warning: the daemon did not stop within 60 s")
        else:
            self.loop.close()


def cpu_seconds(pid: int) -> float:
    """The CPU time (user and system) a running process has used so far (Linux's /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def wait_until(condition: Callable[[], bool], timeout: float, period: float = 0.05) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise TimeoutError("condition not met")
        time.sleep(period)


# -- mails ------------------------------------------------------------------------------------------


def game_name(index: int) -> str:
    return f"load{index}"


def player_address(game: int, power: str) -> str:
    return f"{power.lower()}.{game_name(game)}@example.org"


MX = "mx.bench"  # the judge's MTA, which vouches for the bench's senders (their Authentication-Results)


def vouched(sender: str) -> str:
    """The header value with which the judge's MTA vouches that a mail comes from ``sender``."""
    return f"{MX}; dmarc=pass header.from={sender.rpartition('@')[2]}"


def password(power: str) -> str:
    return f"pw-{power.lower()}"


def message(sender: str, body: str, subject: str = "orders") -> EmailMessage:
    """A player's mail, vouched for by the judge's MTA: JOIN from a confirmed address is obeyed at once."""
    mail = EmailMessage()
    mail["From"], mail["To"], mail["Subject"] = sender, JUDGE, subject
    mail["Authentication-Results"] = vouched(sender)
    mail["Message-ID"] = make_msgid(domain="example.org")
    mail.set_content(body)
    return mail


def offer_sheet(rng: random.Random, power: str, lines: int = 20) -> str:
    """About ``lines`` legal Spring 1901 offers, mostly to the power's own units, and a savings line."""
    own = sorted(province for province, placed in START.units.items() if placed.power == power)
    others = sorted(province for province in START.units if province not in own)
    sheet = []
    for i in range(lines - 1):
        province = own[i % len(own)] if i < 2 * len(own) else rng.choice(others)
        order = rng.choice(ORDERS[province])
        kind = rng.choices(":!>@", weights=[70, 10, 10, 10])[0]
        sheet.append(f"{rng.randint(1, 5)} {kind} {order}")
    sheet.append(f"{rng.randint(0, 5)} $")
    text = "\n".join(sheet)
    _, errors = parse_sheet(text, START, power)
    assert not errors, errors
    return text


@dataclass(frozen=True)
class Mail:
    sender: str
    raw: bytes


def bench_settings(data_dir: Path, database: str | None, args: argparse.Namespace) -> Settings:
    """The judge's settings for a run: one game master creates every game, so the limits on
    CREATE (per address and day, and from all addresses per hour) are lifted to ``--games``;
    and every mail is answered (a player sends more than the 30 mails an hour that are answered
    over a whole run, on the bench's clock that does not move: 40 with the defaults)."""
    return Settings(data_dir=data_dir, database=database, port=0, tick_seconds=3600, maps=False, web=False,
                    mta_hostname=MX, mta_authenticates=True, max_creates_per_day=args.games,
                    max_creates_per_hour=args.games, max_replies_per_hour=100_000)


def check_started(db: Database, games: int) -> None:
    """Stop the bench unless every game of the setup has started: a limit it did not lift
    (CREATE's per hour, until 2026-11-24) had half of 40 games' sign-ons refused, and timed."""
    with db.transaction() as session:
        active = session.scalar(select(func.count()).select_from(Game).where(Game.state == "active"))
    if active != games:
        raise RuntimeError(f"{active} of the setup's {games} games started: see the game master's answers")


def setup_mails(games: int) -> list[list[Mail]]:
    """Per game, in order: CREATE, seven JOINs, SIGNON MASTER + START."""
    batches = []
    for g in range(games):
        name = game_name(g)
        batch = [Mail(GM, message(GM, f"CREATE {name} {GM_PASSWORD}").as_bytes())]
        for power in POWERS:
            address = player_address(g, power)
            batch.append(Mail(address, message(address, f"JOIN {name} {password(power)} {power}").as_bytes()))
        batch.append(Mail(GM, message(GM, f"SIGNON MASTER@{name} {GM_PASSWORD}\nSTART").as_bytes()))
        batches.append(batch)
    return batches


def confirmed(db: Database, setup: list[list[Mail]]) -> None:
    """The setup's senders taken as having confirmed they want the judge's mail before: the
    bench measures sheets, not confirmations."""
    with db.transaction() as session:
        session.execute(insert(ConfirmedAddress), [{"address": sender, "confirmed_at": datetime(2026, 1, 1)}
                                                   for sender in sorted({m.sender for batch in setup for m in batch})])


def sending_powers(game: int) -> list[str]:
    """The six powers that send sheets in a game; the seventh (a different one in each game) stays silent."""
    return [power for j, power in enumerate(POWERS) if j != game % len(POWERS)]


def load_mails(games: int, clients: int, per_client: int, seed: int = 1) -> list[list[Mail]]:
    """Per client, its mails; consecutive mails overall go to different games, then to different powers."""
    rng = random.Random(seed)
    plan: list[list[Mail]] = [[] for _ in range(clients)]
    for k in range(per_client):
        for c in range(clients):
            i = k * clients + c
            g = i % games
            power = sending_powers(g)[(i // games) % (len(POWERS) - 1)]
            address = player_address(g, power)
            body = f"SIGNON {power}@{game_name(g)} {password(power)}\n{offer_sheet(rng, power)}"
            plan[c].append(Mail(address, message(address, body).as_bytes()))
    return plan


# -- sending ----------------------------------------------------------------------------------------


@dataclass
class Outcome:
    data_seconds: list[float] = field(default_factory=list)  # DATA sent -> final answer, accepted mails
    mail_seconds: list[float] = field(default_factory=list)  # whole session, accepted mails
    refused: collections.Counter[str] = field(default_factory=collections.Counter)
    examples: list[str] = field(default_factory=list)


def send_one(port: int, mail: Mail, outcome: Outcome, lock: threading.Lock) -> None:
    started = time.perf_counter()
    failure = None
    data_time = 0.0
    try:
        with smtplib.SMTP("127.0.0.1", port, timeout=120) as client:
            client.ehlo()
            code, answer = client.mail(mail.sender)
            if code != 250:
                failure = f"MAIL {code}", answer
            else:
                code, answer = client.rcpt(JUDGE)
                if code != 250:
                    failure = f"RCPT {code}", answer
                else:
                    data_start = time.perf_counter()
                    code, answer = client.data(mail.raw)
                    data_time = time.perf_counter() - data_start
                    if code != 250:
                        failure = f"DATA {code}", answer
    except (OSError, smtplib.SMTPException) as exc:
        failure = type(exc).__name__, str(exc).encode()
    elapsed = time.perf_counter() - started
    with lock:
        if failure is None:
            outcome.data_seconds.append(data_time)
            outcome.mail_seconds.append(elapsed)
        else:
            outcome.refused[failure[0]] += 1
            if len(outcome.examples) < 5:
                outcome.examples.append(f"{failure[0]}: {failure[1].decode(errors='replace')[:200]}")


def run_clients(port: int, plan: list[list[Mail]]) -> tuple[Outcome, float, float]:
    """Send every client's mails from its own thread; returns the outcome, start and end (perf_counter)."""
    outcome = Outcome()
    lock = threading.Lock()
    barrier = threading.Barrier(len(plan) + 1)

    def client(mails: list[Mail]) -> None:
        barrier.wait()
        for mail in mails:
            send_one(port, mail, outcome, lock)

    threads = [threading.Thread(target=client, args=(mails,), name=f"client-{i}") for i, mails in enumerate(plan)]
    for thread in threads:
        thread.start()
    barrier.wait()
    start = time.perf_counter()
    for thread in threads:
        thread.join()
    return outcome, start, time.perf_counter()


class Clients:
    """`run_clients` in a process of its own, kept for the whole bench: its threads and the SMTP
    servers under test (the judge's listener and the no-op handler, both in this process) do not
    share an interpreter lock.  Times are ``perf_counter``'s, the system's monotonic clock, the
    same in both processes."""

    def __init__(self) -> None:
        context = multiprocessing.get_context("spawn")
        self.connection, theirs = context.Pipe()
        self.process = context.Process(target=serve_clients, args=(theirs,), name="bench-clients", daemon=True)
        self.process.start()

    def run(self, port: int, plan: list[list[Mail]]) -> tuple[Outcome, float, float]:
        self.connection.send((port, plan))
        result: tuple[Outcome, float, float] = self.connection.recv()
        return result

    def close(self) -> None:
        self.connection.send(None)
        self.process.join(timeout=30)


def serve_clients(connection: Connection) -> None:
    """The clients' process: runs each plan it is sent and sends back what `run_clients` returns."""
    while (job := connection.recv()) is not None:
        connection.send(run_clients(*job))


# -- the database -----------------------------------------------------------------------------------


def applied_after(running: Running, first_id: int = 0) -> int:
    """Mails applied among those after ``first_id``.  (Mail still in the daemon's intake file,
    with SQLite, has no ``inbound_mail`` row yet: it is counted as not applied.)"""
    query = select(func.count()).select_from(InboundMail).where(InboundMail.id > first_id,
                                                                 InboundMail.status != "new")
    with running.daemon.db.transaction() as session:
        return int(session.scalar(query) or 0)


def applied_is(running: Running, n: int) -> bool:
    return applied_after(running) == n


def statuses_after(running: Running, first_id: int) -> dict[str, int]:
    with running.daemon.db.transaction() as session:
        rows = session.execute(select(InboundMail.status, func.count()).where(InboundMail.id > first_id)
                               .group_by(InboundMail.status)).all()
    return {status: int(n) for status, n in rows}


def rejected_sheets(db: Database, first_outbox_id: int) -> tuple[int, int]:
    """Replies to load mails, and how many refuse the sign-on or report an ERROR or IGNORED line
    (each line is echoed with its fate)."""
    with db.transaction() as session:
        bodies = session.scalars(select(Outbox.body).where(Outbox.id > first_outbox_id, Outbox.kind == "reply")).all()
    bad = sum(any(line.lstrip().startswith(("ERROR:", "IGNORED:", "Sign-on refused"))
                  for line in (body or "").splitlines()) for body in bodies)
    return len(bodies), bad


def last_id(db: Database, table: type[InboundMail] | type[Outbox]) -> int:
    """The id of the table's newest row (0 if none): what a round or a figure counts from."""
    with db.transaction() as session:
        return int(session.scalar(select(func.max(table.id))) or 0)


def nothing_to_send(running: Running) -> bool:
    """Whether the judge has sent every answer it queued (its sender works in this process)."""
    with running.daemon.db.transaction() as session:
        unsent = select(func.count()).select_from(Outbox).where(Outbox.status.in_(("pending", "sending")))
        return not session.scalar(unsent)


@contextmanager
def fresh_postgres(server_url: str) -> Iterator[str]:
    """A new empty database on the server (dropped afterwards); yields its URL."""
    name = f"judge_bench_{uuid.uuid4().hex[:12]}"
    admin = create_engine(server_url, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield make_url(server_url).set(database=name).render_as_string(hide_password=False)
    finally:
        try:
            with admin.connect() as connection:
                connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        except Exception as exc:
            print(f"  warning: could not drop database {name}: {exc}")
        admin.dispose()


# -- one run ----------------------------------------------------------------------------------------


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f}"


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(fraction * len(ordered) + 0.5) - 1))]


@dataclass(frozen=True)
class Round:
    """What a round measured: accepting as a share of the no-op handler's rate (%), the p99
    DATA->250 (ms), and applying and answering the load, end to end (mails/s)."""

    share: float
    p99: float
    applied: float
    answered: float


def run(label: str, data_dir: Path, database: str | None, args: argparse.Namespace, log: LogCounter) -> Round:
    """One run on a fresh judge: its setup, ``--rounds`` rounds, then applying alone; returns
    the medians of the rounds."""
    print(f"== {label}: {args.games} games, {args.clients} clients x {args.mails_per_client} mails "
          f"(SIGNON and a 20-line sheet each), {args.rounds} round(s)")
    log.records.clear()
    settings = bench_settings(data_dir, database, args)
    setup = setup_mails(args.games)
    # The peer: a no-op aiosmtpd handler, sent the same mails by the same clients just before
    # the judge in every round.
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        noop_port = probe.getsockname()[1]
    noop = Controller(NoOp(), hostname="127.0.0.1", port=noop_port)
    noop.start()
    running = Running(settings)
    clients = Clients()
    rounds: list[Round] = []
    try:
        # Setup, not timed: the games in parallel, each game's mails in order.
        confirmed(running.daemon.db, setup)
        setup_started = time.perf_counter()
        sent = 0
        setup_outcome = Outcome()
        lock = threading.Lock()
        for step in range(len(setup[0])):
            for batch in setup:
                send_one(running.port, batch[step], setup_outcome, lock)
                sent += 1
            wait_until(partial(applied_is, running, sent), timeout=300)
        setup_statuses = statuses_after(running, 0)
        check_started(running.daemon.db, args.games)
        print(f"  setup: {sent} mails in {time.perf_counter() - setup_started:.1f} s, statuses {setup_statuses}"
              + (f", refused {dict(setup_outcome.refused)}" if setup_outcome.refused else ""))
        for round_ in range(args.rounds):
            plan = load_mails(args.games, args.clients, args.mails_per_client, seed=1 + 100 * round_)
            if args.rounds > 1:
                print(f"  -- round {round_ + 1}")
            rounds.append(load_round(running, clients, noop_port, plan))
    finally:
        clients.close()
        running.stop()
        noop.stop()
    print_log(log)
    shares, p99s = [r.share for r in rounds], [r.p99 for r in rounds]
    if args.rounds > 1:
        print(f"  => over {args.rounds} rounds: accepted {statistics.median(shares):.0f}% of the no-op handler's "
              f"(median; {min(shares):.0f}-{max(shares):.0f}%, target >= 50%), p99 DATA->250 while applying "
              f"{statistics.median(p99s):.1f} ms (median; {min(p99s):.1f}-{max(p99s):.1f}, target < 50)")
    apply_alone(settings, args)
    apply_alone(settings, args, seed=3, label="applying again, every password checked before")
    return Round(statistics.median(shares), statistics.median(p99s), statistics.median(r.applied for r in rounds),
                 statistics.median(r.answered for r in rounds))


def print_runs(label: str, runs: list[Round]) -> None:
    """``--runs``: each run's medians beside each other, and how far apart the slowest and the
    fastest are (target: applying within 20%)."""
    print(f"== {label}, {len(runs)} runs (medians of each run's rounds):")
    for i, r in enumerate(runs, 1):
        print(f"  run {i}: accepted {r.share:.0f}% of the no-op handler's, p99 DATA->250 {r.p99:.1f} ms, "
              f"applied {r.applied:.1f} mails/s end to end, answered {r.answered:.1f} mails/s")
    for name, rates in (("applied", [r.applied for r in runs]), ("answered", [r.answered for r in runs])):
        print(f"  {name}: {min(rates):.1f}-{max(rates):.1f} mails/s, the slowest run {min(rates) / max(rates):.2f} "
              f"of the fastest (target: within 20%, 0.80 or more)")


def load_round(running: Running, clients: Clients, noop_port: int, plan: list[list[Mail]]) -> Round:
    """One round: the no-op handler sent ``plan``, then the judge, timed while it applies what it
    accepts; prints both and returns what it measured.  The round begins once the judge has sent
    the answers of the one before (its sender shares this process with the no-op handler)."""
    wait_until(partial(nothing_to_send, running), timeout=600)
    peer, peer_start, peer_end = clients.run(noop_port, plan)
    first_id, first_outbox = last_id(running.daemon.db, InboundMail), last_id(running.daemon.db, Outbox)
    outcome, start, end = clients.run(running.port, plan)
    total = sum(len(mails) for mails in plan)
    backlog = total - applied_after(running, first_id)
    applier_cpu, judge_cpu = cpu_seconds(running.applier_pid()), time.process_time()
    wait_until(lambda: applied_after(running, first_id) == total, timeout=3600, period=0.02)
    applied = time.perf_counter()
    applier_cpu = cpu_seconds(running.applier_pid()) - applier_cpu
    judge_cpu = time.process_time() - judge_cpu
    wait_until(partial(nothing_to_send, running), timeout=3600, period=0.02)
    answered = time.perf_counter()
    statuses = statuses_after(running, first_id)
    replies, errors = rejected_sheets(running.daemon.db, first_outbox)
    print_load(outcome, start, end, total)
    peer_rate = len(peer.data_seconds) / (peer_end - peer_start)
    rate = len(outcome.data_seconds) / (end - start)
    print(f"  no-op aiosmtpd handler, same clients: {len(peer.data_seconds)}/{total} in {peer_end - peer_start:.2f} s "
          f"= {peer_rate:.1f} mails/s; DATA->250 p99 {ms(percentile(peer.data_seconds, 0.99))} ms")
    p99 = percentile(outcome.data_seconds, 0.99) * 1000 if outcome.data_seconds else float("nan")
    print(f"  => accepted {rate:.1f} mails/s = {100 * rate / peer_rate:.0f}% of the no-op handler's (target >= 50%); "
          f"p99 DATA->250 while applying {p99:.1f} ms (target < 50)")
    print(f"  applied while accepting: backlog {backlog} at the last 250, drained after {applied - end:.2f} s; "
          f"{total / (applied - start):.1f} mails/s end to end")
    drain = applied - end
    print(f"  while draining: the applier process used {applier_cpu:.2f} s of CPU "
          f"({applier_cpu / drain:.0%} of a core), the listener's process (with this bench's polling) "
          f"{judge_cpu:.2f} s ({judge_cpu / drain:.0%})")
    print(f"  statuses: {statuses}; replies {replies}, refusing the sign-on or with an ERROR/IGNORED line: {errors}")
    print(f"  answered: the last reply sent {answered - start:.2f} s after the first connection = "
          f"{total / (answered - start):.1f} mails/s")
    return Round(100 * rate / peer_rate, p99, total / (applied - start), total / (answered - start))


def print_load(outcome: Outcome, start: float, end: float, total: int) -> None:
    accepted = len(outcome.data_seconds)
    wall = end - start
    print(f"  accepted: {accepted}/{total} mails in {wall:.2f} s wall = {accepted / wall:.1f} mails/s")
    if outcome.data_seconds:
        data, whole = outcome.data_seconds, outcome.mail_seconds
        print(f"  DATA->250 ms: median {ms(statistics.median(data))}, p99 {ms(percentile(data, 0.99))}, "
              f"max {ms(max(data))}")
        print(f"  whole mail ms: median {ms(statistics.median(whole))}, p99 {ms(percentile(whole, 0.99))}, "
              f"max {ms(max(whole))}")
    print(f"  refused: {dict(outcome.refused) if outcome.refused else 'none'}")
    for example in outcome.examples:
        print(f"    {example}")


def print_log(log: LogCounter) -> None:
    if log.records:
        kinds = collections.Counter(f"{r.levelname} {r.getMessage().splitlines()[0][:80]}" for r in log.records)
        print(f"  judge log: {len(log.records)} warnings/errors")
        for kind, n in kinds.most_common(5):
            print(f"    {n} x {kind}")
    else:
        print("  judge log: no warnings or errors")


def apply_alone(settings: Settings, args: argparse.Namespace, seed: int = 2, label: str = "applying alone") -> float:
    """The applier on its own: as many new sheets stored at once, then applied (`apply_stored`),
    timed; returns the rate."""
    db = database(settings.database_url)
    plan = load_mails(args.games, args.clients, args.mails_per_client, seed=seed)
    mails = [(mail.raw, mail.sender) for mails in plan for mail in mails]
    store(db, mails, FixedClock().now)
    first_outbox = last_id(db, Outbox)
    started = time.perf_counter()
    results = apply_stored(db, settings, FixedClock().now)
    elapsed = time.perf_counter() - started
    replies, rejected = rejected_sheets(db, first_outbox)
    db.engine.dispose()
    done = collections.Counter(status for _, status in results)
    rate = len(results) / elapsed
    print(f"  {label}: {len(results)} mails in {elapsed:.2f} s = {rate:.1f} mails/s "
          f"(target >= 150); statuses {dict(done)}; replies {replies}, rejecting something: {rejected}")
    return rate


def applying_process(settings: Settings, ready: Any, go: Any, results: Any) -> None:
    """One of ``--processes`` appliers (``--apply-only``): every player's password checked
    first (the steady state of a long-running applier; untimed), then, once ``go`` is set, the
    stored mail applied as a judge's applier does (`apply_stored`: runs of several per
    transaction, leaving the games other processes hold); it puts how many mails it applied."""
    db = database(settings.database_url)
    with db.transaction() as session:
        for power, stored in session.execute(select(Player.seat, Player.password)):
            if power in POWERS and stored:
                verify_password(password(power), stored)
    ready.release()
    go.wait()
    settled = apply_stored(db, settings, FixedClock().now)
    db.engine.dispose()
    results.put(sum(1 for _, status in settled if status == "done"))


def apply_in_processes(settings: Settings, args: argparse.Namespace, processes: int, seed: int) -> float:
    """As many new sheets stored at once, then applied by ``processes`` processes at once
    (`applying_process`), timed from the start signal until all are applied; returns the rate."""
    context = multiprocessing.get_context("spawn")
    ready, go, results = context.Semaphore(0), context.Event(), context.Queue()
    db = database(settings.database_url)
    plan = load_mails(args.games, args.clients, args.mails_per_client, seed=seed)
    store(db, [(mail.raw, mail.sender) for mails in plan for mail in mails], FixedClock().now)
    first_outbox = last_id(db, Outbox)
    workers = [context.Process(target=applying_process, args=(settings, ready, go, results))
               for _ in range(processes)]
    for worker in workers:
        worker.start()
    for _ in workers:
        if not ready.acquire(timeout=600):
            raise RuntimeError("an applying process did not start")
    started = time.perf_counter()
    go.set()
    shares = [int(results.get(timeout=3600)) for _ in workers]
    elapsed = time.perf_counter() - started
    for worker in workers:
        worker.join()
    rate = sum(shares) / elapsed
    replies, rejected = rejected_sheets(db, first_outbox)
    db.engine.dispose()
    print(f"  {processes} applying process(es): {sum(shares)} mails in {elapsed:.2f} s = {rate:.1f} mails/s "
          f"(each applied {', '.join(map(str, shares))}); replies {replies}, rejecting something: {rejected}",
          flush=True)
    return rate


def set_up(settings: Settings, args: argparse.Namespace) -> None:
    """``--apply-only``, in a process of its own: the games created, joined and started, and the
    first load applied, by storing their mails and applying them directly."""
    db = open_database(settings)
    now = FixedClock().now
    setup = setup_mails(args.games)
    confirmed(db, setup)
    for step in range(len(setup[0])):
        store(db, [(batch[step].raw, batch[step].sender) for batch in setup], now)
        apply_stored(db, settings, now)
    plan = load_mails(args.games, args.clients, args.mails_per_client)
    store(db, [(mail.raw, mail.sender) for mails in plan for mail in mails], now)
    statuses = collections.Counter(status for _, status in apply_stored(db, settings, now))
    check_started(db, args.games)
    db.engine.dispose()
    print(f"  setup and first load, untimed: statuses {dict(statuses)}", flush=True)


def run_apply_only(
    label: str, data_dir: Path, database: str | None, args: argparse.Namespace
) -> tuple[float, float, list[tuple[int, float]]]:
    """``--apply-only``: `set_up` in a process of its own, then `apply_alone` here, cold and
    again warm, then `apply_in_processes` for each of ``--processes``; returns the rates."""
    print(f"== {label}, applying only: {args.games} games, {args.clients * args.mails_per_client} sheets",
          flush=True)
    settings = bench_settings(data_dir, database, args)
    setup = multiprocessing.get_context("spawn").Process(target=set_up, args=(settings, args))
    setup.start()
    setup.join()
    if setup.exitcode != 0:
        raise RuntimeError(f"the setup process failed (exit code {setup.exitcode})")
    cold = apply_alone(settings, args)
    warm = apply_alone(settings, args, seed=3, label="applying again, every password checked before")
    rates = [(n, apply_in_processes(settings, args, n, seed=10 + n)) for n in args.processes]
    if rates:
        print("  scaling: " + ", ".join(f"{n} process(es) {rate / rates[0][1]:.2f}x" for n, rate in rates[1:]),
              flush=True)
    return cold, warm, rates


def databases(args: argparse.Namespace) -> list[tuple[str, str | None]]:
    """The databases to run on, each with its server: SQLite, and PostgreSQL with ``--postgres``."""
    return [("SQLite", None)] + ([("PostgreSQL", args.postgres)] if args.postgres else [])


@contextmanager
def fresh(server: str | None) -> Iterator[tuple[Path, str | None]]:
    """A temporary data directory, and a fresh database on ``server`` (PostgreSQL) if any."""
    with tempfile.TemporaryDirectory(prefix="judge-load-") as tmp, \
            (fresh_postgres(server) if server else nullcontext(None)) as url:
        yield Path(tmp), url


def apply_only(args: argparse.Namespace) -> None:
    """``--apply-only``: `run_apply_only` ``--repeat`` times per database, and the medians."""
    for label, server in databases(args):
        runs = []
        for _ in range(args.repeat):
            with fresh(server) as (data_dir, url):
                runs.append(run_apply_only(label, data_dir, url, args))
        if len(runs) > 1:
            medians = [("alone", [c for c, _, _ in runs]), ("again", [w for _, w, _ in runs])]
            for n in dict.fromkeys(args.processes):
                medians.append((f"with {n} process(es)", [rate for _, _, rates in runs for m, rate in rates if m == n]))
            for name, rates in medians:
                print(f"  {label}, applying {name}: median of {len(rates)} runs {statistics.median(rates):.1f} "
                      f"mails/s (min {min(rates):.1f}, max {max(rates):.1f})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--mails-per-client", type=int, default=50)
    parser.add_argument("--postgres", metavar="URL", default=os.environ.get("JUDGE_BENCH_POSTGRES"),
                        help="a PostgreSQL server URL (default: $JUDGE_BENCH_POSTGRES); a fresh database is used")
    parser.add_argument("--rounds", type=int, default=3,
                        help="load rounds per database, each the no-op handler then the judge (medians)")
    parser.add_argument("--runs", type=int, default=1,
                        help="whole runs per database, each on a fresh judge, printed beside each other at the end")
    parser.add_argument("--apply-only", action="store_true",
                        help="measure only 'applying alone' (no daemon, no SMTP)")
    parser.add_argument("--repeat", type=int, default=1, help="with --apply-only: runs per database (median)")
    parser.add_argument("--processes", type=lambda text: [int(n) for n in text.split(",")], default=[],
                        help="with --apply-only: numbers of processes applying at once, e.g. 1,2,4 "
                             "(several only on PostgreSQL)")
    args = parser.parse_args()

    log = LogCounter()
    judge_log = logging.getLogger("judge")
    judge_log.addHandler(log)
    judge_log.propagate = False  # counted and summarised, not printed as they come

    if args.apply_only:
        apply_only(args)
        return
    for label, server in databases(args):
        runs = []
        for _ in range(args.runs):
            with fresh(server) as (data_dir, url):
                runs.append(run(label, data_dir, url, args, log))
        if args.runs > 1:
            print_runs(label, runs)


if __name__ == "__main__":
    main()
