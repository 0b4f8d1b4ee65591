"""The deadline clock's workers: processes of their own that run a tick's deadlines together.

Theory of operation.  Deadlines bunch: a community's game masters choose a round hour, and a
judge may have hundreds of games due in the same minute.  Running them one after another in a
thread of ``judge serve`` held its interpreter lock, which the SMTP listener needs for every 250,
and used one core.  So a tick hands its deadlines to `Workers`: ``deadline-workers`` processes
(one per core by default), each holding its connection to the database (the clock starts them a
few minutes before a deadline, as an interpreter takes seconds to start: `daemon.WARM`).  Each
claims a due game, runs its deadline (`judge.service.running.app.drain`: the claim, ``FOR UPDATE SKIP
LOCKED`` on PostgreSQL, gives each worker, and each judge on the same database, games of its
own), tells the daemon as soon as the run is committed, so that the game's results go out while
the next games are run, and claims the next, until none is left.  Then it writes the pages of the
games it ran (where the maps their mail carries are drawn already, and remembered:
`judge.render.png.Drawn`), and one worker writes the index of every game once and the tick's
heartbeat (`judge.service.running.app.finish_tick`).

A stalled worker stops nobody.  On SQLite a worker inside a transaction that has written holds
the one writer's lock, which the applier (the players' mail), the sender and the other workers
wait for; a worker stopped there (SIGSTOP, a machine swapping) would stop them all, and nothing
makes a stopped process let go but its end.  So the daemon bounds it: a worker that has held the
lock for ``lock-seconds`` (the moment it took it is shared with the daemon:
`judge.store.database.watch_writes`), or that has said nothing for ``stall-seconds`` while it
has a game or a tick's work (it tells the daemon each game it claims, and each it has run), is
killed (SIGKILL, which ends even a stopped process and frees its lock at once) and another
started in its place, given the rest of the tick.  The game it was running had not committed
(its claim still stands): its claim is let go and the game claimed again, by the new worker or
another, and run once; one whose change was committed (the worker was drawing its maps) is
left as it is, its mail going without maps once a sender has seen it wait
(`judge.service.outgoing.outbox.DRAWING_TIME`).  Maps the database refused (a full disk) a worker hands to
the daemon with each game it ran, whose sender stores them once there is room
(`judge.service.outgoing.outbox.Kept`): a worker idles once its evening is over.  A game left unfinished
twice in a tick is paused and its game master told (`judge.service.running.app.abandoned`).  A worker
that dies by itself (out of memory) is taken for one killed.  The daemon never waits on a worker
without looking at the time: the tick waits for their messages at most `LOOK` seconds at a time.

When the daemon stops, each worker finishes the game it is running and takes no other; the rest
wait for the next start.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from multiprocessing.connection import Connection, wait
from typing import Any

from judge.service import collector
from judge.service.claimants import claim_for
from judge.service.config import Settings
from judge.service.hosting.kinds import SESSION_KEY, Kinds
from judge.service.logs import log_to
from judge.service.outgoing.outbox import KEPT
from judge.service.running.app import abandoned, drain, finish_tick
from judge.store.database import Database, Holding
from judge.web.pages import IndexLine

log = logging.getLogger("judge")
CHILDREN = multiprocessing.get_context("forkserver")
"""How the daemon starts its child processes (its applier, its deadline workers): each forked from a server
process that imported the judge once (`set_forkserver_preload`), started as a fresh interpreter, so a child holds
no copy of the daemon's threads and their locks, as a spawned one; but it no longer spends the second or more
an interpreter took to import the judge again for every child (about a tenth of the test suite's time)."""
PRELOAD = ("judge.service.running.daemon", "judge.bootstrap")
"""What the server imports before it forks a child; beside these, the hosted kinds' modules (`preload`)."""
CHILDREN.set_forkserver_preload(list(PRELOAD))


def preload(kinds: Kinds) -> None:
    """Have the server the children fork from (started with the first child) import ``kinds``' modules too:
    each child reads the registry it is handed, which imports them, and would otherwise import every kind
    again (a tenth of a second or more each, for each applier and worker started)."""
    CHILDREN.set_forkserver_preload([*PRELOAD, *kinds.modules])


NICE = 5  # how much lower a worker's priority is than the listener's and the applier's
MOST = 4  # workers by default at most, whatever the cores: each holds a few hundred MB once it has drawn maps
LOOK = 1.0  # seconds at most between two looks at the workers' time (less when ``lock-seconds`` is shorter)
START = 120.0  # seconds a child process may take to start, whatever stall-seconds (nine on a loaded 2-core machine)


def worker_count(settings: Settings) -> int:
    """How many workers run a tick's deadlines: ``deadline-workers``, or one per core (at most `MOST`)."""
    return settings.deadline_workers or max(1, min(os.cpu_count() or 1, MOST))


def look_every(settings: Settings) -> float:
    """Seconds between two looks at a child process's time (`overrun`): `LOOK`, or a quarter of the
    shortest bound."""
    return min(LOOK, settings.lock_seconds / 4, settings.stall_seconds / 4)


def overrun(settings: Settings, holding: Holding, heard: float, now: float, started: bool = True) -> str | None:
    """Why a child process of the daemon that has work must be killed at ``now`` (``time.monotonic``):
    it has held the write lock (``holding``, `judge.store.database.watch_writes`) for longer than
    ``lock-seconds``, or said nothing since ``heard`` for longer than ``stall-seconds`` (`START`
    while it has not ``started``); else None."""
    since = holding.value
    if since and now - since > settings.lock_seconds:
        return f"it held the database's write lock for {now - since:.1f} s, longer than lock-seconds"
    if started and now - heard > settings.stall_seconds:
        return f"it said nothing for {now - heard:.1f} s, longer than stall-seconds"
    if not started and now - heard > max(START, settings.stall_seconds):
        return f"it did not start within {now - heard:.0f} s"
    return None


@dataclass
class _Worker:
    """One worker process: its pipe, the moment it shares (`watch_writes`), and, during a tick, what
    the daemon knows of it."""

    process: Any
    pipe: Connection
    holding: Holding
    started: bool = False  # it has said it is ready
    game: str | None = None  # the game it claimed and has not run yet
    heard: float = 0.0  # when it last said something (``time.monotonic``)
    busy: bool = False  # it has work of the tick's: a drain or the tick's end


class Workers:
    """The deadline workers of one daemon; `tick` runs a tick's deadlines with them."""

    def __init__(self, settings: Settings, kinds: Kinds, count: int, db: Database) -> None:
        """``db``: the daemon's, to let go of the claim of a game whose worker was killed (`abandoned`)."""
        self.settings = settings
        self.kinds = kinds
        self.count = count
        self.db = db
        self.workers: list[_Worker | None] = [None] * count
        self.stopping = CHILDREN.Event()
        self.lock = threading.Lock()

    def _spawn(self) -> _Worker:
        """A worker started, not waited for: it says ``"ready"`` once it has opened the database."""
        pipe, child = CHILDREN.Pipe()
        holding = CHILDREN.RawValue("d", 0.0)
        process = CHILDREN.Process(target=_worker_main, args=(child, self.settings, self.kinds, self.stopping, holding),
                                   name="judge-deadlines", daemon=True)
        process.start()
        child.close()
        return _Worker(process, pipe, holding, heard=time.monotonic())

    def _running(self, index: int) -> _Worker | None:
        """Worker ``index`` if it is running; one that ended is forgotten, and said so."""
        worker = self.workers[index]
        if worker is not None and not worker.process.is_alive():
            log.error("deadline worker %d ended (exit code %s); starting another", index + 1, worker.process.exitcode)
            worker.pipe.close()
            worker = self.workers[index] = None
        return worker

    def start(self) -> None:
        """Start the workers not running yet, and wait until they are ready: ahead of a deadline, as an
        interpreter of the judge's takes a second or more to start (nine on a loaded machine of two
        cores).  A worker that does not start within `START` seconds is killed."""
        with self.lock:
            for index in range(self.count):
                if self._running(index) is None:
                    self.workers[index] = self._spawn()
            self._serve({}, lambda index, worker, message: None)

    def tick(self, now: datetime, ready: Callable[[str, str], None], only: Sequence[str] | None = None,
             skip: Sequence[str] = ()) -> list[str]:
        """Run every deadline due at ``now`` (`judge.service.running.app.drain` in each worker, among the games
        of ``only`` but those of ``skip``), telling ``ready`` each game and its run's summary as soon
        as the run is committed; then the end of the tick (`judge.service.running.app.finish_tick`, in one
        worker).  The runs' summaries, and those of the games whose worker was killed."""
        with self.lock:
            summaries: list[str] = []
            lines: list[IndexLine] = []
            left: dict[str, int] = {}  # the games whose runs were left unfinished at this tick, and how often

            def begin(index: int, worker: _Worker) -> None:
                worker.busy = True
                worker.pipe.send(("drain", now, list(only) if only is not None else None, list(skip)))

            def said(index: int, worker: _Worker, message: tuple[Any, ...]) -> None:
                nonlocal lines
                if message[0] == "claimed":
                    worker.game = message[1]
                elif message[0] == "ready":
                    worker.game = None
                    KEPT.take(message[3])  # the maps the database refused: the daemon's sender stores them (`Kept`)
                    summaries.append(message[2])
                    ready(message[1], message[2])
                else:
                    worker.busy = False
                    if message[0] == "failed":
                        log.error("deadline worker %d: %s", index + 1, message[1])
                    lines += message[1] if message[0] == "drained" else []

            def lost(index: int, worker: _Worker, why: str) -> None:
                if worker.game is not None:
                    left[worker.game] = left.get(worker.game, 0) + 1
                    summary = abandoned(self.db, self.settings, worker.game, now, why, left[worker.game] > 1)
                    log.error("%s", summary)
                    summaries.append(summary)

            for index in range(self.count):
                if self._running(index) is None:
                    self.workers[index] = self._spawn()
            self._serve({index: begin for index in range(self.count)}, said, lost)
            self._finish(now, lines)
            return summaries

    def _finish(self, now: datetime, lines: list[IndexLine]) -> None:
        """The end of the tick, in the first worker running."""
        first = next((index for index in range(self.count) if self._running(index) is not None), None)
        if first is None:
            log.error("no deadline worker is left for the end of the tick; the next tick does it")
            return

        def begin(index: int, worker: _Worker) -> None:
            worker.busy = True
            worker.pipe.send(("finish", now, lines))

        def said(index: int, worker: _Worker, message: tuple[Any, ...]) -> None:
            worker.busy = False
            if message[0] == "failed":
                log.error("the end of a tick failed: %s", message[1])

        self._serve({first: begin}, said, restart=False)

    def _serve(self, work: dict[int, Callable[[int, _Worker], None]],
               said: Callable[[int, _Worker, tuple[Any, ...]], None],
               lost: Callable[[int, _Worker, str], None] = lambda index, worker, why: None,
               restart: bool = True) -> None:
        """Give each worker of ``work`` its work (``work[index]``, once it is ready) and read what the
        workers say (``said``) until each is ready and has none left.  A worker that overruns
        (`overrun`) is killed and one that dies taken for killed: ``lost`` is told why, and with
        ``restart`` (unless the daemon stops) another is started in its place and given its work."""
        pending = dict(work)
        while True:
            for index, worker in enumerate(self.workers):
                if worker is not None and worker.started and index in pending:
                    worker.heard = time.monotonic()  # its silence counts from now: it was idle, not stalled
                    pending.pop(index)(index, worker)
            working = {index: worker for index, worker in enumerate(self.workers)
                       if worker is not None and (not worker.started or worker.busy)}
            if not working:
                return
            gone = self._hear(working, said)
            gone.update(self._kill_overrunning({i: w for i, w in working.items() if i not in gone}))
            for index, killed in gone.items():
                self._lost(index, working[index], killed, lost)
                if restart and working[index].busy and index in work and not self.stopping.is_set():
                    pending[index] = work[index]
                    self.workers[index] = self._spawn()

    def _hear(self, working: dict[int, _Worker], said: Callable[[int, _Worker, tuple[Any, ...]], None],
              ) -> dict[int, str | None]:
        """Read what the ``working`` workers say, for a while at most (`look_every`): a worker's first
        word says it is ready, the others go to ``said``.  The workers found dead, each with None."""
        pipes = {worker.pipe: index for index, worker in working.items()}
        gone: dict[int, str | None] = {}  # the workers gone: why they were killed, or None if they died
        for pipe in wait(list(pipes), timeout=look_every(self.settings)):
            assert isinstance(pipe, Connection)
            index = pipes[pipe]
            worker = working[index]
            try:
                message = pipe.recv()
            except (EOFError, OSError):  # it died: its transaction was rolled back, its lock let go
                gone[index] = None
                continue
            worker.heard = time.monotonic()
            if message == "ready":
                worker.started = True
            else:
                said(index, worker, message)
        return gone

    def _kill_overrunning(self, working: dict[int, _Worker]) -> dict[int, str | None]:
        """Kill the workers that overrun (`overrun`); each, with why."""
        moment = time.monotonic()
        killed: dict[int, str | None] = {}
        for index, worker in working.items():
            if why := overrun(self.settings, worker.holding, worker.heard, moment, worker.started):
                worker.process.kill()  # a stopped process too; its lock is let go as it ends
                killed[index] = why
        return killed

    def _lost(self, index: int, worker: _Worker, killed: str | None,
              lost: Callable[[int, _Worker, str], None]) -> None:
        """A worker gone (``killed``: why it was; None: it died) is logged, its place emptied, and
        ``lost`` told why."""
        worker.process.join()
        worker.pipe.close()
        why = killed or f"it ended (exit code {worker.process.exitcode})"
        log.error("deadline worker %d (pid %s) %s%s", index + 1, worker.process.pid,
                  f"was killed: {killed}" if killed else why, f"; it was running {worker.game}" if worker.game
                  else "")
        self.workers[index] = None
        lost(index, worker, why)

    def close(self, timeout: float = 30.0) -> None:
        """Stop the workers: each finishes the game it is running and takes no other."""
        self.stopping.set()
        with self.lock:
            for worker in self.workers:
                if worker is None:
                    continue
                worker.pipe.close()
                worker.process.join(timeout=timeout)
                if worker.process.is_alive():
                    log.error("a deadline worker did not end within %g s of the stop; killing it", timeout)
                    worker.process.kill()
                    worker.process.join()


def _worker_main(pipe: Connection, settings: Settings, kinds: Kinds, stopping: Any, holding: Holding) -> None:
    """A worker's process: drain each tick asked for, until the daemon closes the pipe.  It runs
    at a lower priority (`NICE`): an evening's work gives way to the listener and to the mail
    being answered, which wait for a core while both workers use theirs.  It keeps in ``holding``
    since when it has held the write lock (`judge.store.database.watch_writes`), for the daemon.  A
    worker whose daemon was killed claims no other game: a judge of another machine would wait for
    its claim to run out (one started again on this machine takes it at once once the worker has
    ended: `judge.service.running.app.claim_next`)."""
    os.nice(NICE)
    daemon = os.getppid()
    claim_for(daemon)  # its claims are its judge's: a worker lost while its judge lives is the daemon's to settle
    repeats = log_to(settings.log_file)
    db = Database(settings.database_url, {SESSION_KEY: kinds}, holding)
    collector.long_lived()
    try:
        pipe.send("ready")
        while True:
            try:
                message = pipe.recv()
            except EOFError:
                return
            try:
                if message[0] == "drain":
                    _, lines = drain(db, settings, message[1],
                                     lambda name, summary: pipe.send(("ready", name, summary, KEPT.hand_over())),
                                     lambda: stopping.is_set() or os.getppid() != daemon,  # the daemon stops, or died
                                     lambda name: pipe.send(("claimed", name)), message[2], message[3])
                    pipe.send(("drained", lines))
                else:
                    finish_tick(db, settings, message[1], message[2])
                    pipe.send(("finished", []))
            except ConnectionError:  # the pipe: below
                raise
            except Exception as exc:  # the database cannot be used: logged by the daemon, tried at the next tick
                pipe.send(("failed", f"{type(exc).__name__}: {exc}"))
    except ConnectionError as exc:  # a broken pipe: the daemon was killed; what this worker committed stands
        log.warning("the deadline worker's daemon is gone (%s: %s); the worker ends", type(exc).__name__, exc)
    finally:
        db.engine.dispose()
        repeats.flush()
