"""``judge serve``: one asyncio process running the SMTP listener, the mail processor, the
outgoing sender and the deadline clock.

Theory of operation.  The SMTP handler stores each raw mail in the intake and only then answers
250; then it wakes the processor.  Stores are group-committed (`GroupCommit`): the mail of all
the sessions that reach DATA while one commit is under way goes into the next commit, one insert
in one transaction, in a thread of its own (so neither the event loop nor the other database
work delays it); each session gets its 250 once its batch is committed, or 451 if the batch
failed. With SQLite the intake is a file of its own, so a store never waits for mail being
applied (`judge.service.incoming.intake`).  The processor takes the intake's mail into ``inbound_mail``
and applies it in arrival order (rows still ``new``), several per transaction
(`judge.service.incoming.handlers.mail.Runs`), in a process of its own (`Applier`), which starts
while the judge already listens (mail that comes meanwhile is stored and answered, and waits for
it); at start-up it first applies whatever a crash left unapplied.  A mail that cannot be
applied is quarantined and the next one goes on; the deadline clock runs each game's deadline on
its own, whatever happened to the mail before it.  Every change queues its outgoing mail in the
same transaction; the sender wakes after each run of mail, again at once after a pass that
stopped at its limit (`judge.service.outgoing.sender.send_due`), and every few seconds, and retries
what the relay refused.  While mail is coming in, the sender and the processor give way to the
listener (`sender_wait`, `applier_wait`): a burst is stored first, answered 250, then applied.
The deadline clock calls ``tick`` every ``tick_seconds``.  SIGTERM, SIGINT or SIGHUP (the
terminal of a game master who started it by hand closing; not with a log file, whose rotation
may send it) stops accepting mail, lets the current work finish, writes back and truncates the
SQLite write-ahead logs (of the database and of the intake: a raw mail that held a password
leaves no copy there) and exits.  One line of log per event; a phase processed is logged by its
game's kind (`judge.games`) with its cause, so the clock logs only its other news.  While it
runs it holds its data directory's lock shared (`judge.service.datadir.data_dir_lock`), so that
no restore replaces the data under it; when the public pages are on and none is published yet,
it writes the index at start (no game yet), so that ``judge web`` has a page to serve.

A start after an outage: a deadline that passed while a judge listened (its heartbeats say so,
one left before each tick that runs games: `unheard`) is run at once by the deadline workers, as
it would have been: a judge killed in the middle of an evening and started again goes on with
it.  A deadline that passed while no judge listened, and every later one, is held back
``settle_seconds`` for the mail the MTA held meanwhile: the clock applies only mail accepted
before the first of them and runs the other games due, then catches up
(`judge.service.running.app.catch_up`, the games run by the workers).  Once listening, the
judge tells systemd it is ready (``Type=notify``) and asks the MTA to deliver at once what it
holds (``mta_flush``, `Daemon.flush_mta`).  While its SMTP server serves it leaves a heartbeat every
minute, and marks it stopped when it stops (`judge.service.running.listening`): the tick timer runs no
deadline while nobody listens or a judge that has just started settles, and ``judge status``
sees a listener that is gone.

An outage while it runs: a listener that cannot store a mail (its database down or cut off, its
disk full) answers 451, and the MTA holds the mail and tries again on its own schedule (up to
an hour apart, after a long outage).  A deadline that passed meanwhile would otherwise run as
soon as the database answered again, without that mail, and its sheets would count for the
next phase.  So from the first 451 the judge is *refusing* (`refusing`): it marks its listener
stopped (the tick timer then runs no deadline either), and its clock runs none and applies no
mail.  At each tick, or at once when a store succeeds, it writes its heartbeat again; once that
works, the stretch of refusing is over: a new stretch of listening begins (the timer waits
``settle_seconds`` after it), the MTA is asked to deliver what it holds, and the deadlines
past by then wait ``settle_seconds`` for that mail and are caught up as after a restart.  A 451
during that wait starts a stretch of refusing again, and the deadlines go on waiting.

A stalled process stops nobody: a deadline worker or the applier that holds the database's write
lock longer than ``lock_seconds``, or has work and says nothing for ``stall_seconds``, is killed
and its work given to another (`judge.service.running.workers`, `Applier`); the listener stores mail in
its intake meanwhile.

The parts.  `Daemon` starts the judge, stops it and owns what the parts share (the database,
the clock, the threads, the intake and its `GroupCommit`, the `Applier`, the deadline workers),
closing each at the stop in order; it leaves the listener's heartbeat and measures the shared
clock.  `_Inbound` stores each mail for the SMTP handler and applies what is stored (the
processor); `_Sender` sends the outbox; `_DeadlineClock` ticks, settles and catches up after an
outage, and ends a stretch of refusing.  They wake one another by their events (``mail_waiting``,
``outbox_waiting``, ``tick_now``, ``rescheduled``), and stop when the daemon's ``stop`` is set.

Time.  Every moment the daemon writes or compares (a mail's acceptance, a deadline, a heartbeat,
a claim on an outgoing mail) is read from ``clock``: on PostgreSQL, where several judges on
several machines share the database, the machine's clock corrected to the database's, measured
at the start and every minute (`judge.service.clock.SharedClock`); on SQLite the machine's.
"""

from __future__ import annotations

import asyncio
import logging
import os
import shlex
import signal
import socket
import subprocess
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from datetime import datetime, timedelta
from functools import partial
from multiprocessing.connection import Connection
from typing import Any

from judge import __version__, core_build
from judge.mail.smtp_in import InboundHandler, judge_addresses, smtp_factory
from judge.peers import networks
from judge.service import collector
from judge.service.clock import REFRESH, SharedClock, utcnow
from judge.service.config import Settings
from judge.service.datadir import data_dir_lock, pid_file
from judge.service.hosting.kinds import SESSION_KEY, Kinds
from judge.service.incoming.handlers.mail import MAIL_CHANNEL, Runs
from judge.service.incoming.intake import intake_for
from judge.service.logs import log_to
from judge.service.outgoing.outbox import KEPT
from judge.service.outgoing.sender import recover, send_due, transport_for
from judge.service.running.app import (
    LEFT_PAUSE,
    catch_up,
    due_now,
    finish_tick,
    mail_line,
    next_due,
    open_database,
    overdue,
    rate_finished,
    settling_mail,
    still_waiting,
    unapplied_mail,
)
from judge.service.running.listening import BEAT, Listener, listener, listening, stopped_listening, whoami
from judge.service.running.workers import CHILDREN, Workers, look_every, overrun, preload, worker_count
from judge.store.database import Database, Holding
from judge.web.pages import refresh, web_root

log = logging.getLogger("judge")
SENDER_PERIOD = 5.0  # seconds between outbox sweeps when nothing wakes the sender
FAULT_PERIOD = 60.0  # at most this many seconds between the tries of a task whose database is down (`backoff`)
SENDER_QUIET = 0.2  # seconds without mail coming in before the sender runs ...
SENDER_PATIENCE = 2.0  # ... or at most this long after it was woken
APPLIER_QUIET = 0.05  # seconds without mail coming in before stored mail is applied ...
APPLIER_PATIENCE = 1.0  # ... or at most this long after the processor was woken
SOONEST = 1.0  # seconds the clock waits at least between two ticks
WARM = 300.0  # seconds before a game is due that the deadline workers are started, if they are not running


def backoff(period: float, failures: int) -> float:
    """Seconds before a task that runs every ``period`` seconds tries again after ``failures``
    failures in a row: twice as long each time, at most `FAULT_PERIOD`.  A database down for an
    hour is tried a minute apart, not every few seconds, each try a line of the log."""
    return min(period * 2.0 ** min(failures, 16), max(period, FAULT_PERIOD))


def quiet_wait(now: float, last_stored: float, woken: float, quiet: float, patience: float) -> float:
    """How many seconds a task woken at ``woken`` that gives way to the listener still waits at
    ``now``: until no mail has been stored for ``quiet`` seconds (``last_stored`` is the last
    store), and at most ``patience`` seconds after it was woken."""
    return max(0.0, min(last_stored + quiet, woken + patience) - now)


def sender_wait(now: float, last_stored: float, woken: float) -> float:
    """How long the sender still waits before writing the answers (`quiet_wait`, `SENDER_QUIET`,
    `SENDER_PATIENCE`).

    Writing the answers competes with storing mail for the listener's process (one interpreter,
    one lock): at a deadline's peak, a sender waits for its 250 while no player waits for an
    answer to the second.  Measured with `bench/load_bench.py` on a quiet machine, three runs
    each, by turns: accepting rose from 40-48% of a no-op handler's rate to 53-60%, and the p99
    from DATA to 250 fell from 34-38 ms to 20-23 ms."""
    return quiet_wait(now, last_stored, woken, SENDER_QUIET, SENDER_PATIENCE)


def applier_wait(now: float, last_stored: float, woken: float) -> float:
    """How long the processor still waits before applying the mail stored (`quiet_wait`,
    `APPLIER_QUIET`, `APPLIER_PATIENCE`): a burst of mail is stored first, then applied.

    On a machine of two cores, the SMTP clients (the MTA), the listener and the applier each
    want most of a core in a burst; the listener's sessions wait for their 250 while a player
    waits seconds for an answer.  Measured with `bench/load_bench.py --mails-per-client 40
    --runs 5`, ten runs each, by turns: accepting went from 33-61% of the no-op handler's rate
    (runs' medians 43-55%, 10 rounds of 30 at 50% or more) to 45-75% (runs' medians 49-59%, 26
    of 30), the p99 from DATA to 250 from 9.7-103.7 ms to 7.7-30.1 ms; applying the burst end to
    end went from 288-329 to 247-269 mails/s and answering it from 183-215 to 162-178: a burst's
    answers come about an eighth later.  Twenty milliseconds of quiet were not enough (a round at
    45%, a p99 of 62 ms)."""
    return quiet_wait(now, last_stored, woken, APPLIER_QUIET, APPLIER_PATIENCE)


class GroupCommit:
    """Stores raw mail for many SMTP sessions at once: each `add` waits for the commit of the
    batch it joined, and a batch is everything that arrived while the previous one committed.

    Alone, a mail waits for no one; under load, one commit (one fsync) carries many mails, which
    is what lets the listener accept mail about as fast as it can read it.  ``write`` stores a
    batch of (raw, envelope sender) and returns their ids; it runs in one dedicated thread.  A
    `tidy` asks for a commit even with no mail (the intake deletes what was taken in).
    """

    def __init__(self, write: Callable[[list[tuple[bytes, str]]], list[int]]) -> None:
        self.write = write
        self.waiting: list[tuple[bytes, str, asyncio.Future[int]]] = []
        self.wake = asyncio.Event()
        self.untidy = False
        self.closed = False
        self.thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="judge-store")

    async def add(self, raw: bytes, mail_from: str) -> int:
        """Store one mail; its id once committed.  Raises what the batch's commit raised."""
        if self.closed:
            raise RuntimeError("the judge is stopping")
        future: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        self.waiting.append((raw, mail_from, future))
        self.wake.set()
        return await future

    async def run(self) -> None:
        """Commit batches until `close`, then what is still waiting, and stop."""
        loop = asyncio.get_running_loop()
        while not (self.closed and not self.waiting):
            await self.wake.wait()
            self.wake.clear()
            batch, self.waiting = self.waiting, []
            if not batch and not self.untidy:
                continue
            self.untidy = False
            try:
                ids = await loop.run_in_executor(self.thread, self.write, [(raw, sender) for raw, sender, _ in batch])
            except Exception as exc:
                for _, _, future in batch:
                    if not future.done():  # a session may have gone meanwhile
                        future.set_exception(exc)
                continue
            for (_, _, future), mail_id in zip(batch, ids, strict=True):
                if not future.done():
                    future.set_result(mail_id)
        self.thread.shutdown(wait=True)

    def tidy(self) -> None:
        """Commit even if no mail comes."""
        self.untidy = True
        self.wake.set()

    def close(self) -> None:
        """Take no more mail; `run` ends once what is waiting is committed."""
        self.closed = True
        self.wake.set()


class Doorbell:
    """PostgreSQL: every judge on one database hears at once when any of them stores mail, and
    applies it with the others instead of at its next tick (LISTEN/NOTIFY: `store` notifies
    ``MAIL_CHANNEL`` in the transaction that stores, heard at its commit; so does a run of mail
    that applied some and left some, as its topics come free: `Runs`).  A judge that found
    every game of the waiting mail held by others waits for this, or `LEFT_PAUSE`, before it
    looks again (a judge that dies frees its games without a word).  A thread of its own
    holds one connection listening and calls ``ring`` for each notice; when the connection fails it
    tries again every ``RETRY`` seconds (and rings once it listens again: mail may have come
    meanwhile); it looks at ``close`` every ``PERIOD`` seconds."""

    PERIOD = 1.0
    RETRY = 5.0

    def __init__(self, db: Database, ring: Callable[[], object]) -> None:
        self.db = db
        self.ring = ring
        self.closing = threading.Event()
        self.thread = threading.Thread(target=self._listen, name="judge-doorbell", daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.closing.set()
        self.thread.join(timeout=self.PERIOD + self.RETRY)

    def _listen(self) -> None:
        failures = 0
        while not self.closing.is_set():
            try:
                with self.db.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
                    try:
                        connection.exec_driver_sql(f"LISTEN {MAIL_CHANNEL}")
                        failures = 0
                        self.ring()
                        listening = connection.connection.driver_connection
                        assert listening is not None
                        while not self.closing.is_set():
                            if next(listening.notifies(timeout=self.PERIOD, stop_after=1), None) is not None:
                                self.ring()
                    finally:
                        connection.invalidate()  # closed, not given back to the pool still listening
            except Exception as exc:
                failures += 1
                log.warning("not listening for other judges' mail (trying again in %.0f s): %s",
                            backoff(self.RETRY, failures - 1), (str(exc).splitlines() or [""])[0])
                self.closing.wait(backoff(self.RETRY, failures - 1))


class Daemon:
    """The running judge, ``run`` until ``stop`` is set: its start-up and shutdown, the listener's
    heartbeat, and what its parts share, which it opens and closes (the database, the clock, the
    threads, the intake, the applier, the deadline workers).  Its parts run the work: `_Inbound`
    stores and applies the mail, `_Sender` sends what is queued, `_DeadlineClock` runs the deadlines."""

    def __init__(self, settings: Settings, kinds: Kinds, clock: Callable[[], datetime] | None = None,
                 local: Callable[[], datetime] = utcnow) -> None:
        """``clock``: a clock to use as it is (a test's, moved by hand); by default the machine's
        own (``local``) corrected to the database's where judges share one (`SharedClock`)."""
        self.settings = settings
        self.kinds = kinds
        preload(kinds)  # before its first child, the applier or a worker, starts the server they fork from
        self.db: Database = open_database(settings, kinds)
        self.shared_clock = SharedClock(self.db, local) if clock is None else None
        self.clock: Callable[[], datetime] = clock or self.shared_clock or local
        self.transport = transport_for(settings)
        self.executor = ThreadPoolExecutor(max_workers=4, thread_name_prefix="judge-db")
        self.inbound = _Inbound(self)
        self.sender = _Sender(self)
        self.deadline_clock = _DeadlineClock(self)
        self.applier: Applier | None = None
        self.deadlines = Workers(settings, kinds, worker_count(settings), self.db)  # started when a deadline nears
        self.intake = intake_for(self.db)
        self.commits = GroupCommit(self.inbound.write)
        self.stop = asyncio.Event()
        self.server: asyncio.base_events.Server | None = None
        self.port: int | None = None
        self.refusing: datetime | None = None  # since when the listener answers 451 (see the header)

    async def in_thread(self, function: Callable[..., Any], *args: Any) -> Any:
        """``function(*args)`` in the daemon's threads (the database's work), not on the event loop."""
        return await asyncio.get_running_loop().run_in_executor(self.executor, partial(function, *args))

    async def pause(self, event: asyncio.Event, seconds: float | None, *others: asyncio.Event) -> None:
        """Wait until ``event`` (or one of ``others``) is set, the daemon stops, or ``seconds`` pass
        (None: no limit).

        Not with ``asyncio.wait_for``: in Python 3.11 it loses a cancellation that comes just as
        the event is set, and a loop whose cancellation was lost kept the daemon from stopping
        (a stop that hung, seen once in CI).  The loops also end by themselves once ``stop`` is set.
        """
        waits = [asyncio.ensure_future(e.wait()) for e in (event, self.stop, *others)]
        try:
            await asyncio.wait(waits, timeout=seconds, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for wait in waits:
                wait.cancel()

    async def give_way(self, wait: Callable[[float, float, float], float], look: float) -> None:
        """While mail is coming in, leave the machine to the listener for as long as ``wait``
        says (`sender_wait`, `applier_wait`), looking again at least every ``look`` seconds."""
        loop = asyncio.get_running_loop()
        woken = loop.time()
        while not self.stop.is_set() and (left := wait(loop.time(), self.inbound.last_stored, woken)) > 0:
            await asyncio.sleep(min(left, look))

    async def start(self) -> None:
        """Listen first, then wait for the applier: the applier's interpreter takes about as long
        to start as this one (issue 27), and mail that comes meanwhile is stored and answered
        all the same, to be applied once it is ready (before any processing begins)."""
        loop = asyncio.get_running_loop()
        applier = asyncio.ensure_future(self.in_thread(Applier, self.settings, self.kinds))
        handler = InboundHandler(judge_addresses(self.settings.domain), self.inbound.store)
        settings = self.settings
        factory = smtp_factory(handler, max_sessions=settings.max_sessions, per_client=settings.max_sessions_per_client,
                               reserved=settings.reserved_sessions, trusted=networks(settings.trusted_clients),
                               idle_timeout=settings.idle_timeout, lifetime=settings.session_lifetime,
                               data_size_limit=settings.max_size, hostname=settings.domain,
                               enable_SMTPUTF8=True, ident="Payola judge")
        try:
            if self.shared_clock is not None:
                await self.in_thread(self.shared_clock.measure)  # before the first mail's moment is written
            self.server = await loop.create_server(factory, host=self.settings.host, port=self.settings.port)
        finally:
            self.applier = await applier  # closed by `run`'s end, or here if the port could not be had
            if self.server is None:
                self.applier.close()
        if self.settings.web and not (web_root(self.settings) / "index.html").exists():
            await self.in_thread(refresh, self.db, self.settings, [])  # the index alone; never raises
        self.port = self.server.sockets[0].getsockname()[1]
        before = await self.in_thread(heard, self.db)  # who listened until this start, and since when
        await self.in_thread(listening, self.db, self.clock(), whoami(self.settings, self.port), True)
        await self.in_thread(recover, self.db, self.settings, self.transport, self.clock())
        await self.in_thread(rate_finished, self.db)
        started = self.clock()
        self.deadline_clock.hold(await self.in_thread(overdue, self.db, started), before, started,
                                 "while the judge was down")
        self.inbound.mail_waiting.set()  # apply whatever a crash left stored but unapplied
        log.info("payola-judge %s (%s core), judge %s listening on %s:%s", __version__, core_build(),
                 self.settings.judge_address, self.settings.host, self.port)
        _notify_systemd(b"READY=1")

    async def flush_mta(self, why: str) -> None:
        """Ask the MTA to deliver at once what it holds for the judge (``mta_flush``), saying ``why``."""
        command = self.settings.mta_flush
        if not command:
            return
        try:
            done = await self.in_thread(partial(subprocess.run, shlex.split(command), capture_output=True, text=True,
                                                timeout=60, stdin=subprocess.DEVNULL))
        except FileNotFoundError:
            log.info("%s: not asking the MTA to deliver what it holds: %s is not installed here (mta-flush)", why,
                     shlex.split(command)[0])
            return
        except (OSError, subprocess.SubprocessError, ValueError) as exc:
            log.warning("%s: could not ask the MTA to deliver what it holds (mta-flush %s): %s", why, command, exc)
            return
        if done.returncode:
            said = " ".join((done.stderr or done.stdout).split())[:300]
            log.warning("%s: asking the MTA to deliver what it holds failed (mta-flush %s, exit status %d): %s", why,
                        command, done.returncode, said)
        else:
            log.info("%s: asked the MTA to deliver what it holds (%s)", why, command)

    async def run(self) -> None:
        """Start, run the parts until ``stop`` is set, then stop in order: no more mail taken, the
        mail being stored answered, the parts ended, and everything the daemon opened closed."""
        commits = asyncio.create_task(self.commits.run())  # stores mail from the moment the judge listens
        try:
            await self.start()
        except BaseException:
            self.commits.close()
            await commits
            raise
        tasks = [asyncio.create_task(loop()) for loop in (self.inbound.run, self.sender.run, self.deadline_clock.run,
                                                          self._beat, self._measure_time)]
        tasks.append(asyncio.create_task(self.flush_mta("the judge listens")))  # beside the work, not before it
        loop = asyncio.get_running_loop()
        doorbell = (Doorbell(self.db, partial(loop.call_soon_threadsafe, self.inbound.mail_waiting.set))
                    if self.db.engine.dialect.name == "postgresql" else None)
        await self.stop.wait()
        log.info("stopping")
        self.deadlines.stopping.set()  # a tick under way ends with the games its workers are running
        if doorbell is not None:
            await self.in_thread(doorbell.close)
        assert self.server is not None
        self.server.close()
        await self.server.wait_closed()
        try:
            await self.in_thread(stopped_listening, self.db, self.clock(), whoami(self.settings, self.port or 0))
        except Exception as exc:  # the database: the heartbeat goes stale by itself
            log.warning("could not record that the listener stopped: %s", exc)
        self.commits.close()
        await commits  # a mail in a batch being committed still gets its answer
        for task in tasks:
            task.cancel()
        warming = self.deadline_clock.warming
        started = [warming] if warming is not None else []  # the deadline workers' start, closed below
        await asyncio.gather(*tasks, *started, return_exceptions=True)
        self.executor.shutdown(wait=True)
        self.deadlines.close()
        if self.applier is not None:
            self.applier.close()
        self.intake.close()
        self.db.checkpoint(wait=True)
        self.db.engine.dispose()
        log.info("stopped")

    async def _beat(self) -> None:
        """Leave the listener's heartbeat every `BEAT` seconds while the SMTP server serves
        (`judge.service.running.listening`): from the event loop, so a stuck loop beats no more."""
        while not self.stop.is_set():
            await self.pause(self.stop, BEAT)
            if self.stop.is_set() or self.server is None or not self.server.is_serving() or self.refusing:
                continue
            try:
                await self.in_thread(listening, self.db, self.clock(), whoami(self.settings, self.port or 0))
            except Exception as exc:  # the database: tried again at the next beat
                log.warning("could not leave the listener's heartbeat: %s", exc)

    async def _measure_time(self) -> None:
        """Measure the offset to the database's clock again every `REFRESH` seconds (`SharedClock`)."""
        while not self.stop.is_set() and self.shared_clock is not None:
            await self.pause(self.stop, REFRESH)
            if self.stop.is_set():
                continue
            try:
                await self.in_thread(self.shared_clock.measure)
            except Exception as exc:  # the database: the offset it had stands until the next try
                log.warning("could not read the database's clock: %s", (str(exc).splitlines() or [""])[0])


class _Inbound:
    """The mail coming in: each mail the SMTP handler is given stored (`GroupCommit`: answered 250
    once committed, 451 if it cannot be), then taken into the database and applied in arrival order
    by the applier's process, once the listener has had its burst (`applier_wait`)."""

    def __init__(self, daemon: Daemon) -> None:
        self.daemon = daemon
        self.mail_waiting = asyncio.Event()
        self.applying = asyncio.Lock()  # the processor's and the clock's passes, one at a time
        self.last_stored = 0.0  # when the listener last stored mail (the event loop's clock)
        self.topics: dict[int, str] = {}  # while settling: the topic of each stored mail read (`settling_mail`)

    def write(self, mails: list[tuple[bytes, str]]) -> list[int]:
        """Store a batch of mail in the intake (`GroupCommit`'s ``write``, in its thread)."""
        return self.daemon.intake.store(mails, self.daemon.clock())

    async def store(self, raw: bytes, mail_from: str) -> None:
        """Store one mail for the SMTP handler; a failure begins a stretch of refusing (see the header)."""
        daemon = self.daemon
        try:
            mail_id = await daemon.commits.add(raw, mail_from)
        except Exception:
            if daemon.refusing is None and not daemon.commits.closed:
                daemon.refusing = daemon.clock()  # the 451 waits for nothing more: the rest is the clock's
                daemon.deadline_clock.tick_now.set()
            raise
        self.last_stored = asyncio.get_running_loop().time()
        log.info("%s %s stored (%d bytes from %s)", daemon.intake.kind, mail_id, len(raw), mail_from or "<>")
        self.mail_waiting.set()
        if daemon.refusing is not None:
            daemon.deadline_clock.tick_now.set()  # it stores again: the clock sees to the end of the outage now

    async def run(self) -> None:
        """The processor: apply the mail stored each time some is."""
        daemon = self.daemon
        while not daemon.stop.is_set():
            await daemon.pause(self.mail_waiting, None)
            if self.mail_waiting.is_set():
                await daemon.give_way(applier_wait, APPLIER_QUIET)
                self.mail_waiting.clear()
                await self.apply_stored()

    async def apply_stored(self) -> None:
        """Take in and apply stored mail in arrival order; the processor and the clock share this,
        one at a time.  A mail that cannot be applied is quarantined (`Runs.run`); only a database
        that cannot be used ends the pass (logged), to be tried again at the next wake or tick."""
        daemon = self.daemon
        async with self.applying:
            try:
                await self.take_in()
                waiting = await self._waiting()
                while waiting and not daemon.stop.is_set():
                    assert daemon.applier is not None
                    applied = await daemon.in_thread(daemon.applier.run, waiting, daemon.clock())
                    for mail_id, status, game in applied:
                        log.info("%s", mail_line(mail_id, status, game))
                    done = [(mail_id, status) for mail_id, status, _ in applied]
                    waiting = still_waiting(waiting, done)
                    if done:
                        daemon.sender.outbox_waiting.set()
                        daemon.deadline_clock.rescheduled.set()
                    else:  # PostgreSQL: other judges hold the games of the mail left; their runs ring when done
                        await daemon.pause(self.mail_waiting, LEFT_PAUSE)
                        self.mail_waiting.clear()
                        waiting = await self._waiting()
            except Exception:
                log.exception("applying stored mail failed; trying again later")

    async def _waiting(self) -> list[int]:
        """The stored mail to apply now: all of it, or while settling all but the mail about a
        game held back that came after the first deadline held (`settling_mail`), or none while
        the listener refuses mail (which deadlines passed meanwhile is known only once it stores
        again)."""
        daemon = self.daemon
        if daemon.refusing is not None:
            return []
        if daemon.deadline_clock.overdue:
            return list(await daemon.in_thread(settling_mail, daemon.db, daemon.settings,
                                               daemon.deadline_clock.overdue, self.topics))
        self.topics.clear()
        return list(await daemon.in_thread(unapplied_mail, daemon.db))

    async def take_in(self) -> None:
        """Take the intake's mail into the database; the intake then forgets it (`GroupCommit.tidy`)."""
        if await self.daemon.in_thread(self.daemon.intake.take, self.daemon.db):
            self.daemon.commits.tidy()


class _Sender:
    """The mail going out: the outbox sent after each change that queued mail (``outbox_waiting``),
    again at once after a pass that stopped at its limit, and every `SENDER_PERIOD` seconds, once
    the listener has had its burst (`sender_wait`); what the relay refused is tried again."""

    def __init__(self, daemon: Daemon) -> None:
        self.daemon = daemon
        self.outbox_waiting = asyncio.Event()

    async def run(self) -> None:
        """Send what is due, each time the outbox is woken or the period has passed."""
        daemon = self.daemon
        failures = 0
        while not daemon.stop.is_set():
            await daemon.give_way(sender_wait, SENDER_QUIET)
            try:
                sent, more = await daemon.in_thread(send_due, daemon.db, daemon.settings, daemon.transport,
                                                    daemon.clock())
                failures = 0
                if sent:
                    log.info("%d mail(s) sent", sent)
                if more:  # stopped at its limit: the rest is due now, not at the next sweep
                    self.outbox_waiting.set()
            except Exception:
                failures += 1
                log.exception("sender failed; retrying")
            await daemon.pause(self.outbox_waiting, backoff(SENDER_PERIOD, failures))
            self.outbox_waiting.clear()


class _DeadlineClock:
    """The deadline clock: each tick, the mail stored before it applied, then the games due run by
    the deadline workers (started shortly before they are needed); after an outage, the deadlines
    held back (`hold`) for the settle time, and the catching up; while the listener refuses mail,
    no deadline (see the header)."""

    def __init__(self, daemon: Daemon) -> None:
        self.daemon = daemon
        self.tick_now = asyncio.Event()
        self.rescheduled = asyncio.Event()  # mail was applied: a deadline may have moved (`_wait_for_tick`)
        self.warming: asyncio.Future[Any] | None = None  # the deadline workers' start (`_warm`)
        self.overdue: list[tuple[datetime, str]] = []  # deadlines held back for the settle time (`hold`)
        self.settle_until = datetime.min  # while ``overdue``: when the settle time ends
        self.refusing_told = False  # the log and the heartbeat say that the listener refuses mail
        self.begun = 0  # ticks begun since the daemon started
        self.ended = 0  # the number of the last tick that has ended (its games run, its changes committed)

    async def run(self) -> None:
        """Tick until the daemon stops."""
        daemon = self.daemon
        while not daemon.stop.is_set():
            self.begun += 1
            if daemon.refusing is not None:
                await self._stores_again()
            if daemon.refusing is not None:  # no deadline runs while the MTA holds the mail (see the header)
                self.ended = self.begun
                await daemon.pause(self.tick_now, daemon.settings.tick_seconds)
                self.tick_now.clear()
                continue
            if self.overdue and daemon.clock() >= self.settle_until:
                await self._catch_up()
            else:
                # a sheet accepted before the deadline is applied before it (while settling, one accepted
                # before the first deadline held back); never raises
                await daemon.inbound.apply_stored()
                try:
                    now = daemon.clock()
                    if await daemon.in_thread(due_now, daemon.db, now, self.held()):
                        await self._listened(now)
                        await daemon.in_thread(daemon.deadlines.tick, now, self._told(), None, self.held())
                    else:
                        await daemon.in_thread(finish_tick, daemon.db, daemon.settings, now, [])
                except Exception:
                    log.exception("deadline clock failed; retrying")
            self.ended = self.begun
            await self._wait_for_tick()

    def held(self) -> list[str]:
        """The games whose deadlines wait for the settle time's end (`hold`): no tick runs them."""
        return [name for _, name in self.overdue]

    def hold(self, overdue: list[tuple[datetime, str]], listened: Listener | None, now: datetime, why: str) -> None:
        """Hold back, until ``settle_seconds`` after ``now``, the deadlines of ``overdue`` (`unheard`)
        that may have missed mail an MTA held while no judge listened (``listened``: what the
        heartbeats said before, `judge.service.running.listening.listener`); the others are run at once by
        the ticks, as they would have been.  ``why``: when no judge listened, for the log ("while the
        judge was down")."""
        self.overdue = unheard(overdue, listened)
        if self.overdue:
            self.settle_until = now + timedelta(seconds=self.daemon.settings.settle_seconds)
            log.info("%d deadline(s) passed %s; they wait until %s UTC for held mail", len(self.overdue), why,
                     f"{self.settle_until:%H:%M:%S}")
        if len(overdue) > len(self.overdue):
            log.info("%d deadline(s) passed while a judge listened; they are run now",
                     len(overdue) - len(self.overdue))

    async def _listened(self, now: datetime) -> None:
        """Leave the listener's heartbeat at ``now`` before a tick runs the games due: a judge started
        after this one is killed knows that their deadlines passed while a judge listened (`unheard`)."""
        daemon = self.daemon
        if daemon.server is None or not daemon.server.is_serving():
            return
        try:
            await daemon.in_thread(listening, daemon.db, now, whoami(daemon.settings, daemon.port or 0))
        except Exception as exc:  # the database: the tick says more
            log.warning("could not leave the listener's heartbeat: %s", (str(exc).splitlines() or [""])[0])

    def _told(self) -> Callable[[str, str], None]:
        """What the deadline workers call with each game run (from the tick's thread): `_ran`, on the loop."""
        loop = asyncio.get_running_loop()

        def told(_: str, summary: str) -> None:
            loop.call_soon_threadsafe(self._ran, summary)

        return told

    async def _catch_up(self) -> None:
        """The settle time is over: catch up on the deadlines held back and the mail that came
        meanwhile, in the order things happened (`catch_up`), the games run by the deadline workers."""
        daemon = self.daemon
        told = self._told()
        async with daemon.inbound.applying:
            try:
                await daemon.inbound.take_in()
                now = daemon.clock()
                lines = await daemon.in_thread(catch_up, daemon.db, daemon.settings, now, self.overdue,
                                               partial(daemon.deadlines.tick, now, told))
            except Exception:
                log.exception("catching up after the outage failed; the deadlines run as usual")
                lines = []
            self.overdue = []
        for line in lines:
            if " processed" not in line:  # lifecycle logs those, with their cause
                log.info("%s", line)
        daemon.sender.outbox_waiting.set()

    async def _wait_for_tick(self) -> None:
        """Wait until the next tick (`until_next_tick`), or ``tick_now``; mail applied meanwhile
        (`rescheduled`) may have made a game due sooner (a SET DEADLINE), so the wait is looked at again."""
        daemon = self.daemon
        loop = asyncio.get_running_loop()
        wait = await self.until_next_tick()
        if self.overdue:  # the settle time's end
            wait = min(wait, max(0.0, (self.settle_until - daemon.clock()).total_seconds()))
        if wait < WARM and not self.warming:  # the deadline workers, started before they are needed
            self.warming = asyncio.ensure_future(daemon.in_thread(self._warm))
        until = loop.time() + wait
        while not daemon.stop.is_set() and not self.tick_now.is_set() and (left := until - loop.time()) > 0:
            await daemon.pause(self.tick_now, left, self.rescheduled)
            if self.rescheduled.is_set():
                self.rescheduled.clear()
                until = min(until, loop.time() + await self.until_next_tick())
        self.tick_now.clear()

    def _warm(self) -> None:
        try:
            self.daemon.deadlines.start()
        except Exception:  # the next tick starts them, or says why not
            log.exception("could not start the deadline workers")

    def _ran(self, summary: str) -> None:
        """A game's deadline was run (its change committed): its mail goes out now, while the tick
        runs the others.  A phase processed is logged by its kind; a pause or notices here."""
        if " processed" not in summary and ("paused" in summary or "notices" in summary):
            log.info("%s", summary)
        self.daemon.sender.outbox_waiting.set()

    async def until_next_tick(self) -> float:
        """Seconds until the next tick: ``tick_seconds``, or less if a game is due sooner (at least
        `SOONEST`: a game left due is one another judge is running)."""
        daemon = self.daemon
        try:
            moment: datetime | None = await daemon.in_thread(next_due, daemon.db, self.held())
        except Exception as exc:  # the database: the usual period
            log.warning("could not read when the next game is due: %s", (str(exc).splitlines() or [""])[0])
            return daemon.settings.tick_seconds
        if moment is None:
            return daemon.settings.tick_seconds
        return min(daemon.settings.tick_seconds, max(SOONEST, (moment - daemon.clock()).total_seconds()))

    async def _stores_again(self) -> None:
        """While refusing: whether the database takes a write again (the listener's heartbeat,
        which begins a new stretch of listening); if it does, the refusing is over, the MTA is asked
        for what it holds, and the deadlines past by now wait ``settle_seconds`` for it.  The first
        time, the listener is first marked stopped, for the tick timer (see the header)."""
        daemon = self.daemon
        assert daemon.refusing is not None
        if not self.refusing_told:
            self.refusing_told = True
            log.warning("the listener cannot store mail and answers 451: its MTA holds the players' mail, and no "
                        "deadline runs until mail can be stored again")
            try:  # stopped from the first 451: a deadline after it waits for the held mail (`unheard`)
                await daemon.in_thread(stopped_listening, daemon.db, daemon.refusing,
                                       whoami(daemon.settings, daemon.port or 0))
            except Exception as exc:  # the database is down: the heartbeat goes stale by itself
                log.warning("could not record that the listener refuses mail: %s", (str(exc).splitlines() or [""])[0])
        now = daemon.clock()
        try:
            before = await daemon.in_thread(heard, daemon.db)
            await daemon.in_thread(listening, daemon.db, now, whoami(daemon.settings, daemon.port or 0), True)
            overdue_now = await daemon.in_thread(overdue, daemon.db, now)
        except Exception as exc:  # still down: tried again at the next tick
            log.warning("the listener still cannot store mail: %s", (str(exc).splitlines() or [""])[0])
            return
        since, daemon.refusing, self.refusing_told = daemon.refusing, None, False
        log.info("the listener stores mail again (it answered 451 from %s UTC)", f"{since:%H:%M:%S}")
        if before is not None and not before.stopped:  # its stop was not recorded: the MTA held mail from the 451 on
            before = replace(before, seen=min(before.seen, since))
        self.hold(overdue_now, before, now, "while the listener answered 451")
        daemon.inbound.mail_waiting.set()
        await daemon.flush_mta("the listener stores mail again")


def heard(db: Database) -> Listener | None:
    """What the heartbeats say of the judges' listening (`judge.service.running.listening.listener`)."""
    with db.transaction() as session:
        return listener(session)


def unheard(overdue: list[tuple[datetime, str]], listened: Listener | None) -> list[tuple[datetime, str]]:
    """The deadlines of ``overdue`` (earliest first, `judge.service.running.app.overdue`) that wait for the
    mail an MTA held: from the first that passed while no judge is known to have listened, every one.

    A deadline that passed while a judge listened (``listened``: from the start of the stretch of
    listening to the last heartbeat, which a judge leaves before each tick that runs games and
    every minute) found the mail sent before it stored: nothing is held for it, and it is run at
    once, as it would have been (a judge killed in the middle of an evening, and started again).
    One that passed before that stretch or after the last heartbeat may have missed mail that its
    MTA held meanwhile; it waits, and so does every later one, so that the held mail and they are
    caught up in the order things happened (`judge.service.running.app.catch_up`)."""
    for index, (due, _) in enumerate(overdue):
        if listened is None or not listened.since <= due <= listened.seen:
            return overdue[index:]
    return []


def _notify_systemd(state: bytes) -> None:
    """Send ``state`` to systemd's notification socket, if the judge runs under a unit that has one."""
    address = os.environ.get("NOTIFY_SOCKET", "")
    if not address:
        return
    if address.startswith("@"):  # an abstract socket
        address = "\0" + address[1:]
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as notify:
            notify.sendto(state, address)
    except OSError as exc:
        log.warning("could not notify systemd: %s", exc)


class Applier:
    """Applies stored mail (`judge.service.incoming.handlers.mail.Runs`) in a process of its own.

    Applying is CPU work (parsing, password checks, rendering); in a thread of the daemon it
    would hold the GIL that the SMTP listener needs, and every 250 would wait behind it.  The
    process gets runs of mail ids through a pipe and answers their statuses, with the maps of phases
    processed early that the database refused (`judge.service.outgoing.outbox.Kept`).  It ends when the
    pipe closes: when the daemon stops, or dies.  Like a deadline worker, it stops nobody: one
    that holds the write lock longer than ``lock-seconds``, or takes longer than ``stall-seconds``
    to answer a run (`judge.service.running.workers.START` to start), is killed
    (`judge.service.running.workers.overrun`), which lets the lock go, and another started and given the
    run again.
    """

    def __init__(self, settings: Settings, kinds: Kinds) -> None:
        self.settings = settings
        self.kinds = kinds
        self.lock = threading.Lock()
        self._start()

    def _start(self) -> None:
        """Start the process and wait until it has imported the judge and opened the database."""
        self.pipe, child = CHILDREN.Pipe()
        self.holding: Holding = CHILDREN.RawValue("d", 0.0)
        self.process = CHILDREN.Process(target=_applier_main, args=(child, self.settings, self.kinds, self.holding),
                                        name="judge-applier", daemon=True)
        self.process.start()
        child.close()
        if self._answer(started=False) != "ready":
            raise RuntimeError("the applier did not start")

    def run(self, mail_ids: list[int], now: datetime) -> list[tuple[int, str, str | None]]:
        """Apply a run of the stored mails ``mail_ids`` (see `apply_run`); in a worker thread.
        Each mail settled comes with its status and the game it was about (`Runs.about`).

        If the process has died (killed, out of memory) or overruns, another one is started and
        given the run again: what the dead one was applying was rolled back with its transaction."""
        with self.lock:
            try:
                answer = self._ask(mail_ids, now)
            except (EOFError, OSError):
                self.pipe.close()
                self.process.join(timeout=5)
                log.error("the applier process ended (exit code %s); starting another", self.process.exitcode)
                self._start()
                answer = self._ask(mail_ids, now)
        if isinstance(answer, str):
            raise RuntimeError(f"the applier failed: {answer}")
        return answer

    def _ask(self, mail_ids: list[int], now: datetime) -> list[tuple[int, str, str | None]] | str:
        self.pipe.send((mail_ids, now))
        answer: list[tuple[int, str, str | None]] | str
        answer, kept = self._answer()
        KEPT.take(kept)  # the maps the database refused: the daemon's sender stores them (`outbox.Kept`)
        return answer

    def _answer(self, started: bool = True) -> Any:
        """What the process answers; EOFError if it dies or overruns (`overrun`: then it is killed)."""
        asked = time.monotonic()
        while not self.pipe.poll(look_every(self.settings)):
            if why := overrun(self.settings, self.holding, asked, time.monotonic(), started):
                self.process.kill()  # a stopped process too; its lock is let go as it ends
                self.process.join()
                log.error("the applier (pid %s) was killed: %s", self.process.pid, why)
                raise EOFError(why)
        return self.pipe.recv()

    def close(self, timeout: float = 30.0) -> None:
        """Close the pipe, which ends the process once its run is applied; one that has not
        ended within ``timeout`` seconds is killed (its transaction rolls back)."""
        self.pipe.close()
        self.process.join(timeout=timeout)
        if self.process.is_alive():
            log.error("the applier process did not end within %g s of the stop; killing it", timeout)
            self.process.kill()
            self.process.join()


def _applier_main(pipe: Connection, settings: Settings, kinds: Kinds, holding: Holding | None = None) -> None:
    """The applier's process: apply each run asked for, until the daemon closes the pipe; it keeps in
    ``holding`` since when it has held the write lock (`judge.store.database.watch_writes`), for the
    daemon (none: nobody watches it)."""
    repeats = log_to(settings.log_file)
    db = Database(settings.database_url, {SESSION_KEY: kinds}, holding)
    runs = Runs(db, settings)  # kept for the process's life: a mail left to a later run is read once
    collector.long_lived()
    try:
        answer: object = "ready"
        while _answered(pipe, answer):
            try:
                mail_ids, now = pipe.recv()
            except EOFError:
                return
            statuses: list[tuple[int, str, str | None]] | str
            try:
                statuses = [(mail_id, status, runs.about.get(mail_id)) for mail_id, status in runs.run(mail_ids, now)]
            except Exception as exc:  # the database cannot be used: the daemon logs it and tries later
                statuses = f"{type(exc).__name__}: {exc}"
            answer = (statuses, KEPT.hand_over())  # with the maps the database refused, for the daemon (`Kept`)
    finally:
        db.engine.dispose()
        repeats.flush()


def _answered(pipe: Connection, answer: object) -> bool:
    """Send the daemon ``answer``; False if the daemon is gone (killed: its end of the pipe is closed), which
    is logged on one line, not a traceback: the run the applier answers was committed, and its mail is
    settled; the judge started again applies whatever is left."""
    try:
        pipe.send(answer)
    except OSError as exc:  # BrokenPipeError, ConnectionResetError
        log.warning("the applier's daemon is gone (%s: %s); the applier ends", type(exc).__name__, exc)
        return False
    return True


def serve(settings: Settings, kinds: Kinds) -> None:
    """Run the judge until SIGTERM or SIGINT, or SIGHUP when it logs to standard error (its
    terminal hung up); with a log file (``log-file``) SIGHUP only says the log goes on there,
    in a file opened again if it was moved (a log rotation's ``postrotate``)."""
    repeats = log_to(settings.log_file)
    collector.long_lived()

    async def main() -> None:
        daemon = Daemon(settings, kinds)
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT) if settings.log_file else (signal.SIGTERM, signal.SIGINT,
                                                                             signal.SIGHUP):
            loop.add_signal_handler(sig, daemon.stop.set)
        if settings.log_file:
            loop.add_signal_handler(signal.SIGHUP, log.info, "SIGHUP: the log goes on in %s", settings.log_file)
        await daemon.run()

    try:
        with data_dir_lock(settings.data_dir, alone=False), pid_file(settings.data_dir / f"serve-{settings.port}.pid"):
            asyncio.run(main())
    finally:
        repeats.flush()
