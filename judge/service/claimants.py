"""Who holds a claim, and whether that process has ended: the claims of outgoing mail
(`judge.service.outgoing.sender`) and of a game's deadline run (`judge.service.running.app.claim_next`).

A claim names the process that made it (`claimant`: the machine, the process id and the moment the
process started, so that an id the system has given again is not taken for the process that ended).
A judge killed (``kill -9``) leaves its claims standing; one started again on the same machine tells
its dead claims by that name (`gone`) and takes them at once, instead of waiting for them to run out.
A claim of another machine can never be told dead so: it is taken only once it has run out."""

from __future__ import annotations

import os
import socket
from functools import cache
from pathlib import Path


def _stat(pid: int) -> list[str]:
    """The fields of process ``pid``'s status after its name (Linux's /proc: its state first); none
    where that cannot be read (no such process, another system, or hidden)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    except OSError:
        return []


def _started(stat: list[str]) -> str | None:
    """When a process started (clock ticks since the machine booted), from its status (`_stat`)."""
    return stat[19] if len(stat) > 19 else None


_HOLDER: list[int] = []  # the process this one's claims name, where not itself (`claim_for`)


def claim_for(pid: int) -> None:
    """Make this process's claims name process ``pid`` (a deadline worker's: its judge, whose daemon
    settles the claims of a worker it lost, `judge.service.running.workers`; only when that judge has
    ended too may a judge started again take them at once)."""
    _HOLDER[:] = [pid]


def claimant() -> str:
    """This process as its claims name it: ``host pid N started T`` (its judge's, in a worker)."""
    pid = _HOLDER[0] if _HOLDER else os.getpid()
    return f"{socket.gethostname()} pid {pid} started {_start(pid)}"[:200]


@cache
def _start(pid: int) -> str:
    """When process ``pid`` started, as `claimant` names it (``?`` where that cannot be read): read once, when
    the process is running (a claimant names itself or its judge, both alive when it first claims), for it never
    changes; reading /proc for each claim was a third of the sender's claim."""
    return _started(_stat(pid)) or "?"


def gone(claimed_by: str | None) -> bool:
    """Whether the process a claim names (`claimant`) was one of this machine's and has ended:
    no process has its id, or the one that has it started at another moment (the id used again), or
    it is a zombie (it has ended and its parent has not reaped it: a judge's worker whose judge was
    killed, where nothing reaps orphans).  A claim of another machine, or of none, is never taken
    for a dead one here."""
    host, _, rest = (claimed_by or "").partition(" pid ")
    pid, _, started = rest.partition(" started ")
    if host != socket.gethostname() or not pid.isdigit():
        return False
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return True
    except OSError:  # someone else's process: alive
        return False
    stat = _stat(int(pid))
    if stat[:1] == ["Z"]:
        return True
    now_started = _started(stat)
    return started != "?" and now_started is not None and now_started != started
