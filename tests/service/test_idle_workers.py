"""A deadline worker idle between ticks is not taken for stalled: its silence counts from the moment
the daemon gives it work, not from its last word of the tick before.

Found by the restart drill (tests/service/test_restart_mid_evening.py): a worker idle for 48 s was
killed the moment the next tick gave it a game ("it said nothing for 48.6 s, longer than
stall-seconds"), and a game waited for a new worker.  Between deadlines hours apart every worker is
idle far longer than ``stall-seconds``; the daemon looks at its workers' time (`LOOK`) before a
worker that has just been given work has answered, however quickly it does.

The daemon's `Workers` are given a stand-in worker here: its pipe is real, its process a record of
whether it was killed, and it answers its work after longer than a look (`look_every`) but well
within ``stall-seconds``, as a worker on a loaded machine does."""

from __future__ import annotations

import multiprocessing
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from judge.service.config import Settings
from judge.service.running.workers import Workers, _Worker, look_every

STALL = 6.0  # stall-seconds here: a look every 1 s (`look_every`)
ANSWER = 2.0  # seconds the stand-in takes to answer its work: after a look, well within STALL


@dataclass
class StandIn:
    """A worker's process as the daemon sees it: whether it was killed."""

    killed: list[bool] = field(default_factory=list)
    pid: int = 0
    exitcode: int | None = None

    def kill(self) -> None:
        self.killed.append(True)

    def join(self, timeout: float | None = None) -> None:
        return None

    def is_alive(self) -> bool:
        return not self.killed


def answer_late(end: Any) -> None:
    """The stand-in's side of the pipe: the work it is given, answered `ANSWER` seconds later."""
    work = end.recv()
    time.sleep(ANSWER)
    end.send(("drained", []) if work[0] == "drain" else ("finished", []))


def test_a_worker_idle_longer_than_stall_seconds_is_not_killed_when_it_is_given_work(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path, stall_seconds=STALL)
    assert look_every(settings) < ANSWER < STALL
    ours, theirs = multiprocessing.Pipe()
    process = StandIn()
    idle = _Worker(process, ours, multiprocessing.RawValue("d", 0.0), started=True,
                   heard=time.monotonic() - 10 * STALL)  # its last word: the tick before, long ago
    workers = Workers(settings, kinds=None, count=1, db=None)  # type: ignore[arg-type]  # neither is used here
    workers.workers = [idle]
    lost: list[str] = []
    said: list[tuple[Any, ...]] = []

    def begin(index: int, worker: _Worker) -> None:
        worker.busy = True
        worker.pipe.send(("drain", None, None, []))

    def heard(index: int, worker: _Worker, message: tuple[Any, ...]) -> None:
        worker.busy = False
        said.append(message)

    answering = threading.Thread(target=answer_late, args=(theirs,))
    answering.start()
    workers._serve({0: begin}, heard, lambda index, worker, why: lost.append(why), restart=False)
    answering.join()
    assert (process.killed, lost, said) == ([], [], [("drained", [])])
