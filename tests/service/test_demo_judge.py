"""The judge `judge demo` runs (`judge.service.demo`): a judge of its own on loopback."""

from __future__ import annotations

import gc
import logging
import time
from pathlib import Path

import pytest

from judge.service.demo import demo_judge, demo_settings
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
