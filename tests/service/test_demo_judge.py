"""The judge `judge demo` runs (`judge.service.operators.demo`): a judge of its own on loopback."""

from __future__ import annotations

import asyncio
import gc
import logging
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from judge.service.operators import demo
from judge.service.operators.demo import demo_judge, demo_settings, run_demo
from judge.service.running.daemon import Daemon
from tests.kinds.registry import with_test_kinds


def test_the_demo_judge_asks_no_mta_to_flush_its_queue(tmp_path: Path) -> None:
    """No MTA hands the demo's judge its mail: asking one to deliver what it holds (``mta-flush``,
    at every start) printed a failure on a machine whose Postfix is installed but stopped."""
    assert demo_settings(tmp_path).mta_flush is None
    assert demo_settings(tmp_path, maps=False).mta_flush is None  # a test's own settings keep it


def test_a_judge_stopped_leaves_no_task_pending(caplog: pytest.LogCaptureFixture) -> None:
    """Stopping ends every task of the judge's event loop, the start of the deadline workers (a
    few minutes before a deadline, or at the first tick of an idle judge) too: left pending, it
    was destroyed later by the garbage collector, logged as an error in whatever ran then."""
    caplog.set_level(logging.ERROR, logger="asyncio")
    with demo_judge(with_test_kinds()):
        time.sleep(1.0)  # past the clock's first tick, which starts the deadline workers
    gc.collect()
    assert [record.getMessage() for record in caplog.records if "pending" in record.getMessage()] == []


@pytest.fixture
def taken_port() -> Iterator[int]:
    """A port of loopback another server listens on for as long as the test lasts."""
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        yield server.getsockname()[1]


def demo_on(port: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """The demo's judge told to listen on ``port`` (the demo's own settings take any free port)."""
    own = demo.demo_settings
    monkeypatch.setattr(demo, "demo_settings", lambda data, **changed: own(data, **{"port": port, **changed}))


@pytest.mark.timeout(120)  # the bound: before, the demo waited for ever on a judge that had failed to start
def test_the_demo_says_in_one_line_that_its_judge_could_not_listen_on_a_port_taken_and_leaves_no_data(
        taken_port: int, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    monkeypatch.setattr(demo.tempfile, "tempdir", str(tmp_path))  # where the demo makes its data directory
    demo_on(taken_port, monkeypatch)
    assert run_demo(with_test_kinds()) == 1
    out, err = capfd.readouterr()
    assert "Traceback" not in out + err
    assert err.splitlines() == [f"judge demo: the judge could not start: [Errno 98] error while attempting to bind on "
                                f"address ('127.0.0.1', {taken_port}): address already in use"]
    assert "listening" not in out
    assert list(tmp_path.iterdir()) == []


@pytest.mark.timeout(60)
def test_the_demo_gives_up_on_a_judge_whose_start_never_ends(
        monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]) -> None:
    async def never(self: Daemon) -> None:
        await asyncio.Event().wait()

    monkeypatch.setattr(Daemon, "start", never)
    monkeypatch.setattr(demo, "START_WITHIN", 0.5)
    assert run_demo(with_test_kinds()) == 1
    out, err = capfd.readouterr()
    assert "Traceback" not in out + err
    assert err.splitlines() == ["judge demo: the judge could not start: it was not listening after 0.5 s"]

