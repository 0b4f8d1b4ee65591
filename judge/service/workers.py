"""The deadline clock's workers: processes of their own that run a tick's deadlines together.

Theory of operation.  Deadlines bunch: a community's game masters choose a round hour, and a
judge may have hundreds of games due in the same minute.  Running them one after another in a
thread of ``judge serve`` held its interpreter lock, which the SMTP listener needs for every 250,
and used one core.  So a tick hands its deadlines to `Workers`: ``deadline-workers`` processes
(one per core by default), each holding its connection to the database (the clock starts them a
few minutes before a deadline, as an interpreter takes seconds to start: `daemon.WARM`).  Each
claims a due game, runs its deadline (`judge.service.app.drain`: the claim, ``FOR UPDATE SKIP
LOCKED`` on PostgreSQL, gives each worker, and each judge on the same database, games of its
own), tells the daemon as soon as the run is committed, so that the game's results go out while
the next games are run, and claims the next, until none is left.  Then it writes the pages of the
games it ran (where the maps their mail carries are drawn already, and remembered:
`judge.render.png.Drawn`), and one worker writes the index of every game once and the tick's
heartbeat (`judge.service.app.finish_tick`).

A worker that dies (killed, out of memory) is started again at the next tick; the game it was
running was rolled back with its transaction, and its claim runs out (`judge.service.app.CLAIM`)
for another tick to run it.  When the daemon stops, each worker finishes the game it is running
and takes no other; the rest wait for the next start.
"""

from __future__ import annotations

import gc
import logging
import multiprocessing
import os
import threading
from collections.abc import Callable
from datetime import datetime
from multiprocessing.connection import Connection, wait
from typing import Any

from judge.service.app import drain, finish_tick
from judge.service.config import Settings
from judge.service.kinds import SESSION_KEY, Kinds
from judge.service.logs import log_to
from judge.store.database import Database
from judge.web.pages import IndexLine

log = logging.getLogger("judge")
_SPAWN = multiprocessing.get_context("spawn")  # a fresh interpreter: no copy of the daemon's threads
NICE = 5  # how much lower a worker's priority is than the listener's and the applier's
MOST = 4  # workers by default at most, whatever the cores: each holds a few hundred MB once it has drawn maps


def worker_count(settings: Settings) -> int:
    """How many workers run a tick's deadlines: ``deadline-workers``, or one per core (at most `MOST`)."""
    return settings.deadline_workers or max(1, min(os.cpu_count() or 1, MOST))


class Workers:
    """The deadline workers of one daemon; `tick` runs a tick's deadlines with them."""

    def __init__(self, settings: Settings, kinds: Kinds, count: int) -> None:
        self.settings = settings
        self.kinds = kinds
        self.count = count
        self.pipes: list[Connection | None] = [None] * count
        self.processes: list[Any] = [None] * count
        self.stopping = _SPAWN.Event()
        self.lock = threading.Lock()

    def _start(self, index: int) -> Connection:
        pipe, child = _SPAWN.Pipe()
        process = _SPAWN.Process(target=_worker_main, args=(child, self.settings, self.kinds, self.stopping),
                                 name=f"judge-deadlines-{index + 1}", daemon=True)
        process.start()
        child.close()
        if pipe.recv() != "ready":
            raise RuntimeError("a deadline worker did not start")
        self.pipes[index], self.processes[index] = pipe, process
        return pipe

    def _pipe(self, index: int) -> Connection:
        """Worker ``index``'s pipe, the worker (re)started if it is not running."""
        pipe, process = self.pipes[index], self.processes[index]
        if pipe is not None and process is not None and process.is_alive():
            return pipe
        if process is not None:
            log.error("deadline worker %d ended (exit code %s); starting another", index + 1, process.exitcode)
            if pipe is not None:
                pipe.close()
        return self._start(index)

    def start(self) -> None:
        """Start the workers not running yet: ahead of a deadline, as an interpreter of the judge's
        takes a second or more to start (nine on a loaded machine of two cores)."""
        with self.lock:
            for index in range(self.count):
                self._pipe(index)

    def tick(self, now: datetime, ready: Callable[[str, str], None]) -> list[str]:
        """Run every deadline due at ``now`` (`judge.service.app.drain` in each worker), telling
        ``ready`` each game and its run's summary as soon as the run is committed; then the end
        of the tick (`judge.service.app.finish_tick`, in one worker).  The runs' summaries."""
        with self.lock:
            pipes = {self._pipe(index): index for index in range(self.count)}
            for pipe in pipes:
                pipe.send(("drain", now))
            summaries: list[str] = []
            lines: list[IndexLine] = []
            waiting = set(pipes)
            while waiting:
                for ready_pipe in wait(list(waiting)):
                    assert isinstance(ready_pipe, Connection)
                    pipe = ready_pipe
                    try:
                        message = pipe.recv()
                    except (EOFError, OSError):  # the worker died: its game's claim runs out
                        log.error("deadline worker %d died during a tick", pipes[pipe] + 1)
                        waiting.discard(pipe)
                        continue
                    if message[0] == "ready":
                        summaries.append(message[2])
                        ready(message[1], message[2])
                    else:
                        waiting.discard(pipe)
                        if message[0] == "failed":
                            log.error("deadline worker %d: %s", pipes[pipe] + 1, message[1])
                        lines += message[1] if message[0] == "drained" else []
            self._finish(now, lines)
            return summaries

    def _finish(self, now: datetime, lines: list[IndexLine]) -> None:
        pipe = self._pipe(0)
        pipe.send(("finish", now, lines))
        try:
            message = pipe.recv()
        except (EOFError, OSError):
            log.error("deadline worker 1 died at the end of a tick")
            return
        if message[0] == "failed":
            log.error("the end of a tick failed: %s", message[1])

    def close(self, timeout: float = 30.0) -> None:
        """Stop the workers: each finishes the game it is running and takes no other."""
        self.stopping.set()
        with self.lock:
            for pipe, process in zip(self.pipes, self.processes, strict=True):
                if pipe is not None:
                    pipe.close()
                if process is not None:
                    process.join(timeout=timeout)
                    if process.is_alive():
                        log.error("a deadline worker did not end within %g s of the stop; killing it", timeout)
                        process.kill()
                        process.join()


def _worker_main(pipe: Connection, settings: Settings, kinds: Kinds, stopping: Any) -> None:
    """A worker's process: drain each tick asked for, until the daemon closes the pipe.  It runs
    at a lower priority (`NICE`): an evening's work gives way to the listener and to the mail
    being answered, which wait for a core while both workers use theirs."""
    os.nice(NICE)
    repeats = log_to(settings.log_file)
    db = Database(settings.database_url, {SESSION_KEY: kinds})
    gc.freeze()  # what start-up made lives as long as the process: the collector's full passes skip it
    pipe.send("ready")
    try:
        while True:
            try:
                message = pipe.recv()
            except EOFError:
                return
            try:
                if message[0] == "drain":
                    _, lines = drain(db, settings, message[1],
                                     lambda name, summary: pipe.send(("ready", name, summary)), stopping.is_set)
                    pipe.send(("drained", lines))
                else:
                    finish_tick(db, settings, message[1], message[2])
                    pipe.send(("finished", []))
            except Exception as exc:  # the database cannot be used: logged by the daemon, tried at the next tick
                pipe.send(("failed", f"{type(exc).__name__}: {exc}"))
    finally:
        db.engine.dispose()
        repeats.flush()
