"""The garbage collector in the judge's long-lived processes (`judge.service.collector`): what start-up
made is left out of its passes, the youngest objects are passed over every `YOUNG` allocations, and every
process that does the judge's work (the daemon, its applier and deadline workers, ``judge tick``,
``process`` and ``inject``) does so once it has started."""

from __future__ import annotations

import asyncio
import json
import multiprocessing
import os
import subprocess
import sys
from collections.abc import Coroutine
from pathlib import Path
from typing import Any

import pytest

from judge.bootstrap import kinds, main
from judge.service import claimants, collector
from judge.service.config import Settings
from judge.service.running import daemon, workers

PROBE = """
import gc, json
from judge.service.collector import long_lived
made = [[] for _ in range(1000)]  # what start-up made: alive until the process ends
default, before = gc.get_threshold(), gc.get_freeze_count()
long_lived()
print(json.dumps([default, gc.get_threshold(), gc.get_freeze_count() - before]))
"""


def test_a_started_process_leaves_what_it_made_out_of_the_collector_and_passes_over_the_young_seldom() -> None:
    """In a fresh interpreter (the tests' own process sets its collector as the judge does: `tests/conftest.py`)."""
    done = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, check=True, timeout=60)
    default, tuned, frozen = json.loads(done.stdout)
    assert default[0] < collector.YOUNG == 10_000  # Python's own (700 on 3.11), which the judge's processes start with
    assert tuned == [collector.YOUNG, *default[1:]]  # the older generations' as Python has them
    assert frozen >= 1000  # the thousand lists at least, and the modules' objects


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """A word for each time a process said it had started (`collector.long_lived`, stubbed: this test process's
    collector is left as it is)."""
    said: list[str] = []
    monkeypatch.setattr(collector, "long_lived", lambda: said.append("started"))
    return said


def _closed_pipe() -> Any:
    """A pipe whose other end, the daemon's, is closed: the child's first word finds nobody, and it ends."""
    ours, theirs = multiprocessing.Pipe()
    ours.close()
    return theirs


def test_judge_tick_process_and_inject_tune_the_collector_once_the_judge_is_open(
        tmp_path: Path, started: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    data = ["--data-dir", str(tmp_path / "data")]
    mail = tmp_path / "help.eml"
    mail.write_bytes(b"From: someone@example.org\nTo: judge@localhost\nSubject: help\nMessage-ID: <c@x>\n\nHELP\n")
    assert main(["tick", *data]) == 0
    assert started == ["started"]
    assert main(["inject", *data, str(mail)]) == 0
    assert started == ["started"] * 2
    main(["process", "nosuchgame", *data])
    assert started == ["started"] * 3
    capsys.readouterr()


def test_the_daemon_its_applier_and_its_deadline_workers_tune_the_collector_once_started(
        tmp_path: Path, started: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    settings = Settings(data_dir=tmp_path, port=0, maps=False, web=False)

    def not_run(coroutine: Coroutine[Any, Any, None]) -> None:
        coroutine.close()

    monkeypatch.setattr(asyncio, "run", not_run)  # judge serve up to its event loop
    daemon.serve(settings, kinds())
    assert started == ["started"]
    daemon._applier_main(_closed_pipe(), settings, kinds())
    assert started == ["started"] * 2
    monkeypatch.setattr(os, "nice", lambda increment: 0)  # not this test process's priority
    monkeypatch.setattr(claimants, "_HOLDER", [])  # nor whom its claims name
    workers._worker_main(_closed_pipe(), settings, kinds(), multiprocessing.Event(),
                         multiprocessing.RawValue("d", 0.0))
    assert started == ["started"] * 3
