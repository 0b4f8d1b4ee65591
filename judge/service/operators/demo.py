"""``judge demo``: a judge on a temporary data directory, and a scripted game played against it
by real SMTP on loopback, so a newcomer sees the whole thing work in one command.

The host runs the judge (`demo_judge`) and hands it, as a `DemoJudge`, to the script of the kind
of game asked for (`GameKind.demo`): ``judge demo`` plays Payola's (``--blind``: one phase of a
Tin Cup game), ``judge demo --pirates`` a short match of Pirates' Proposal, ``judge demo
machiavelli aop`` a short game of a kind's other scenario (`GameKind.demo_scenarios`).  A script
sends the
players' and the game master's mail with `DemoJudge.send`, answers the judge's request to confirm
an address as real players do the first time they ask for a game's mail (`DemoJudge.confirm`),
waits for the judge's mail (`DemoJudge.wait_for`) and prints what a newcomer needs to see.  The
host then says how many mails the judge sent, and where they are only if they were kept."""

from __future__ import annotations

import asyncio
import shutil
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from judge.service.config import Settings
from judge.service.hosting.kinds import Kinds
from judge.service.hosting.scripts import DemoJudge
from judge.service.running.daemon import Daemon


def demo_settings(data: Path, **changed: Any) -> Settings:
    """The demo judge's settings: on ``data``, a free port of loopback, a clock that ticks every two
    seconds, and room for a script's game master to close a whole match's phases, one mail each, in
    a minute.  No MTA hands this judge mail, so none is asked to flush its queue (a stopped Postfix
    would say it failed).  ``changed``: settings other than these."""
    return Settings(**{"data_dir": data, "port": 0, "tick_seconds": 2, "max_phase_changes_per_hour": 100,
                       "mta_flush": None, **changed})


START_WITHIN = 120.0  # seconds: a judge starts in a few, even on a loaded machine; past this, it never will


class NotStarted(Exception):
    """The demo's judge did not start: why, in one line (a port taken, a data directory it cannot write)."""


@contextmanager
def demo_judge(kinds: Kinds, keep: bool = False, **changed: Any) -> Iterator[DemoJudge]:
    """A judge on a temporary data directory, listening on a free port of loopback, for as long as
    the ``with`` lasts; then stopped, and its directory removed unless ``keep``.  ``changed``:
    settings other than the demo's (a test's ``maps=False``).  A judge that fails to start, or is
    not listening within `START_WITHIN` seconds, raises `NotStarted`: the demo waited for ever on it."""
    data = Path(tempfile.mkdtemp(prefix="judge-demo-"))
    settings = demo_settings(data, **changed)
    loop = asyncio.new_event_loop()
    failed: list[BaseException] = []
    try:
        daemon = Daemon(settings, kinds)
    except Exception as exc:
        shutil.rmtree(data, ignore_errors=True)
        raise NotStarted(_first_line(exc)) from exc

    def serve() -> None:
        try:
            loop.run_until_complete(daemon.run())
        except BaseException as exc:  # said once by the thread waiting for the start, not as a thread's traceback
            failed.append(exc)

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    given_up = time.monotonic() + START_WITHIN
    while daemon.port is None and thread.is_alive() and time.monotonic() < given_up:
        time.sleep(0.05)
    if daemon.port is None:
        hung = thread.is_alive()
        loop.call_soon_threadsafe(_cancel_all, loop)  # a start still under way is abandoned
        thread.join(timeout=10)
        if not keep:
            shutil.rmtree(data, ignore_errors=True)
        if hung or not failed:
            raise NotStarted(f"it was not listening after {START_WITHIN:g} s")
        raise NotStarted(_first_line(failed[0])) from failed[0]
    print(f"A judge is listening on 127.0.0.1:{daemon.port} (data in {data}).")
    try:
        yield DemoJudge(daemon.port, settings)
    finally:
        loop.call_soon_threadsafe(daemon.stop.set)
        thread.join(timeout=30)
        if not keep:
            shutil.rmtree(data, ignore_errors=True)


def _cancel_all(loop: asyncio.AbstractEventLoop) -> None:
    """Cancel every task of ``loop`` (from within it): a start that never ended."""
    for task in asyncio.all_tasks(loop):
        task.cancel()


def _first_line(exc: BaseException) -> str:
    """``exc`` said in one line: its message's first line, or its type's name when it has none."""
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0]


def run_demo(kinds: Kinds, keep: bool = False, blind: bool = False, kind: str | None = None,
             scenario: str | None = None) -> int:
    """``judge demo``: the script of ``kind`` (the default kind if None; ``blind``: its variant for
    hidden boards; ``scenario``: one of its `demo_scenarios`) against a judge of its own; the
    judge's mail is kept only with ``keep``, and the end says so (it never names a Maildir it has
    just removed)."""
    try:
        chosen = kinds.named(kind.lower()) if kind else kinds.default
    except KeyError:
        print(f"judge demo: no game is called '{kind}' (the judge hosts: {', '.join(k.name for k in kinds)})")
        return 2
    offered = chosen.demo_scenarios
    if scenario is not None and scenario.lower() not in offered:
        print(f"judge demo: {chosen.title} has no scenario '{scenario}' to play"
              + (f" (its demo plays: {', '.join(offered)})" if offered else ""))
        return 2
    try:
        with demo_judge(kinds, keep) as judge:
            chosen.demo(judge, blind=blind, scenario=scenario.lower() if scenario else None)
            sent = len(judge.mails())
    except NotStarted as exc:
        print(f"judge demo: the judge could not start: {exc}", file=sys.stderr)
        return 1
    if keep:
        print(f"The judge sent {sent} mails; they are in the Maildir {judge.settings.maildir}/new.")
    else:
        print(f"The judge sent {sent} mails; its temporary data directory is removed: run the demo again with "
              "--keep to look at them.")
    return 0
