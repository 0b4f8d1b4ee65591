"""The tests' bytecode cache (PYTHONPYCACHEPREFIX, tests/conftest.py) forgets the folders whose sources are gone."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import _forget_sources_gone


def mirror(cache: Path, source: Path) -> Path:
    """Where the cache keeps the bytecode of ``source``'s modules, as Python lays it out (the path under the prefix)."""
    kept = cache / source.relative_to(source.anchor) / "__pycache__"
    kept.mkdir(parents=True)
    (kept / "module.cpython-311.pyc").write_bytes(b"compiled")
    return kept.parent


def test_the_bytecode_of_a_folder_gone_is_removed_and_of_one_still_there_kept(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    (tmp_path / "still").mkdir()
    still, gone = mirror(cache, tmp_path / "still"), mirror(cache, tmp_path / "gone")
    _forget_sources_gone(cache, depth=len(tmp_path.parts) + 1)
    assert still.is_dir() and not gone.exists()


def test_below_its_depth_nothing_is_looked_at(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    gone = mirror(cache, tmp_path / "gone")
    _forget_sources_gone(cache, depth=len(tmp_path.parts) - 1)
    assert gone.is_dir()


def test_a_folder_that_may_not_be_looked_into_is_left_and_the_run_goes_on(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cache = tmp_path / "cache"
    hidden, gone = mirror(cache, tmp_path / "hidden"), mirror(cache, tmp_path / "gone")
    exists = Path.exists

    def refused(path: Path) -> bool:  # as for a user who may no longer search the folder above it
        if path == tmp_path / "hidden":
            raise PermissionError(13, "Permission denied", str(path))
        return exists(path)

    monkeypatch.setattr(Path, "exists", refused)
    _forget_sources_gone(cache, depth=len(tmp_path.parts) + 1)
    assert hidden.is_dir() and not gone.exists()
