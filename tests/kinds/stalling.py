"""The auction with a fault to order, for the tests of a judge whose processes stall or die: a process
that stops itself (SIGSTOP) in the middle of a transaction that has written, as an operator's
``kill -STOP``, a debugger or a machine swapping would stop it; a lot whose run takes its time; and
which process ran each lot.

It is the auction in every other way (its templates are the auction's, the kind it is built on:
`judge.service.hosting.kinds.Kinds`), registered in the auction's place by the tests that need it
(``registry([*hosted(), Stalling(...)])``)."""

from __future__ import annotations

import os
import signal
import time
from datetime import datetime
from functools import partial
from pathlib import Path

from sqlalchemy.orm import Session

from judge import api
from tests.kinds.auction import kind

STOPPING_BID = 13  # the bid whose applying stops its process


def stop(marker: Path, once: bool) -> None:
    """Write this process's pid into ``marker`` (a line a stop) and stop it (SIGSTOP): only the first time
    with ``once`` (the file exists then), every time without."""
    try:
        descriptor = os.open(marker, os.O_WRONLY | os.O_CREAT | os.O_APPEND | (os.O_EXCL if once else 0), 0o600)
    except FileExistsError:
        return
    os.write(descriptor, f"{os.getpid()}\n".encode())
    os.close(descriptor)
    os.kill(os.getpid(), signal.SIGSTOP)


def stopped(marker: Path) -> list[int]:
    """The pids of the processes that stopped themselves so far (`stop`)."""
    return [int(line) for line in marker.read_text().split()] if marker.exists() else []


def ran(runs: Path) -> list[tuple[str, int]]:
    """Each lot's run so far (`Stalling`'s ``runs``): its game, and the pid of the process that ran it."""
    return [(game, int(pid)) for game, pid in (line.split() for line in runs.read_text().splitlines())] \
        if runs.exists() else []


def _bid(marker: Path, turn: api.Turn, text: str, command: kind.Bid) -> None:
    """A player's bid (`kind.bid`); one of `STOPPING_BID` coins first stops the process applying it, once."""
    if command.amount == STOPPING_BID:
        stop(marker, once=True)
    kind.bid(turn, text, command)


class Stalling(kind.Auction):
    """The auction, whose deadline run of game ``game`` stops its process inside the run's transaction
    (once, or ``every`` time), whose bid of `STOPPING_BID` coins stops the process applying it (once),
    each writing its pid into ``marker`` first (`stop`); whose every lot's run takes ``slow`` seconds
    (the transaction that has written held meanwhile); and whose every lot's run writes its game and
    the pid of the process running it into the file ``runs`` (`ran`), if given."""

    def __init__(self, marker: Path, game: str | None = None, every: bool = False, slow: float = 0.0,
                 runs: Path | None = None) -> None:
        self.marker, self.game, self.every, self.slow, self.runs = marker, game, every, slow, runs
        self.commands = (api.Entry(kind.Bid, partial(_bid, marker), api.PLAYER, closed_after_the_end=True),)

    def process(self, session: Session, game: api.Game, settings: api.Settings, now: datetime,
                closing: api.Closing) -> api.PhaseChange:
        if game.name == self.game:
            stop(self.marker, once=not self.every)
        time.sleep(self.slow)
        if self.runs is not None:
            with self.runs.open("a") as runs:
                runs.write(f"{game.name} {os.getpid()}\n")
        return super().process(session, game, settings, now, closing)
