"""The ``judge`` command run in the test's own process, on a harness judge's data."""

from __future__ import annotations

import contextlib
import io
from typing import Any

import pytest

from judge.bootstrap import kinds, main
from judge.service.operators.demo import run_demo
from tests.support.harness import Judge


def options(judge: Judge, *more: str) -> list[str]:
    """The options that point ``judge`` at ``judge``'s data directory and database, then ``more``; the mail
    ``judge`` queued is sent first (`Judge.deliver`), as a judge running would have sent it."""
    judge.deliver()
    settings = judge.settings
    given = ["--data-dir", str(settings.data_dir)] + (["--database", settings.database] if settings.database else [])
    return given + list(more)


def run(capsys: pytest.CaptureFixture[str], *arguments: str) -> tuple[int, str]:
    """``judge ARGUMENTS``, in this process: its exit status and what it printed."""
    status = main(list(arguments))
    return status, capsys.readouterr().out


def demo_output(**choice: Any) -> str:
    """What ``judge demo`` prints for ``choice`` (`judge.service.operators.demo.run_demo`'s ``kind``,
    ``scenario``, ...), played to its end, which it must reach without an error."""
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        assert run_demo(kinds(), **choice) == 0
    return printed.getvalue()
