"""The ``judge`` command run in the test's own process, on a harness judge's data."""

from __future__ import annotations

import pytest

from judge.bootstrap import main
from tests.support.harness import Judge


def options(judge: Judge, *more: str) -> list[str]:
    """The options that point ``judge`` at ``judge``'s data directory and database, then ``more``."""
    settings = judge.settings
    given = ["--data-dir", str(settings.data_dir)] + (["--database", settings.database] if settings.database else [])
    return given + list(more)


def run(capsys: pytest.CaptureFixture[str], *arguments: str) -> tuple[int, str]:
    """``judge ARGUMENTS``, in this process: its exit status and what it printed."""
    status = main(list(arguments))
    return status, capsys.readouterr().out
