"""What every test shares."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from judge.service import passwords

MEMORY = Path("/dev/shm")  # Linux's memory-backed folder


def _temporary_files_in_memory() -> None:
    """The tests' temporary files, each judge's SQLite database among them, in memory where the
    machine offers it: a commit then waits for no disk, which was a third of what a mail cost the
    tests.  A TMPDIR the user set wins; the judges the tests start as processes inherit it."""
    if "TMPDIR" not in os.environ and MEMORY.is_dir() and os.access(MEMORY, os.W_OK | os.X_OK):
        os.environ["TMPDIR"] = tempfile.tempdir = str(MEMORY)


_temporary_files_in_memory()


@pytest.fixture(autouse=True, scope="session")
def _cheap_password_hashes() -> Iterator[None]:
    """scrypt at its real cost takes some 50 ms a hash, and the tests hash hundreds of passwords;
    the cost is written into each stored hash, so checking works the same at any cost."""
    patch = pytest.MonkeyPatch()
    patch.setattr(passwords, "_N", 2**8)
    yield
    patch.undo()
