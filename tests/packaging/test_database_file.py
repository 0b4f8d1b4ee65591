"""A new SQLite database is readable by the judge's user only, whatever the umask it starts under:
it holds the players' addresses and every mail they sent."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from judge.bootstrap import open_database
from judge.service.config import Settings


@pytest.mark.parametrize("umask", [0o022, 0o002, 0o000])
def test_a_new_database_file_is_created_mode_0600(tmp_path: Path, umask: int) -> None:
    previous = os.umask(umask)
    try:
        db = open_database(Settings(data_dir=tmp_path / "data"))
        db.engine.dispose()
    finally:
        os.umask(previous)
    assert stat.S_IMODE((tmp_path / "data" / "judge.db").stat().st_mode) == 0o600


def test_an_existing_database_keeps_the_mode_its_owner_gave_it(tmp_path: Path) -> None:
    open_database(Settings(data_dir=tmp_path)).engine.dispose()
    (tmp_path / "judge.db").chmod(0o640)  # an administrator's choice, say for a backup group
    open_database(Settings(data_dir=tmp_path)).engine.dispose()
    assert stat.S_IMODE((tmp_path / "judge.db").stat().st_mode) == 0o640
