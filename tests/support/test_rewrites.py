"""The test files' asserts rewritten once a run, before xdist's workers start, where pytest has nothing cached for
them (tests/conftest.py): which files count as unrewritten, and their rewrite, by pytest's own collection."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import WARM_FROM, pytest_sessionstart, rewrite, suite_files, unrewritten


def written(folder: Path, name: str, body: str = "def test_it():\n    assert 1 + 1 == 2\n") -> Path:
    """A test file ``name`` in ``folder``, of ``body``."""
    file = folder / name
    file.write_text(body, encoding="utf-8")
    return file


def collect(*files: Path) -> None:
    """pytest's collection of ``files`` in a process of its own, as any run of pytest would collect them."""
    subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", *map(str, files)],
                   check=True, capture_output=True)


def test_a_file_is_unrewritten_until_pytest_has_cached_its_rewrite_and_again_once_changed(tmp_path: Path) -> None:
    file = written(tmp_path, "test_one.py")
    other = written(tmp_path, "test_other.py")
    assert unrewritten([file, other]) == [file, other]
    collect(file)
    assert unrewritten([file, other]) == [other]
    later = time.time_ns() + 60 * 10**9  # changed after its rewrite was cached, however long the collection took
    os.utime(file, ns=(later, later))
    assert unrewritten([file, other]) == [file, other]


def test_rewrite_caches_every_files_rewrite_in_several_processes(tmp_path: Path) -> None:
    files = [written(tmp_path, f"test_{number}.py") for number in range(5)]
    files.append(written(tmp_path, "test_broken.py", "import a_module_nowhere\n"))
    rewrite(files, processes=3)
    assert unrewritten(files) == []


def test_coverage_is_not_asked_to_measure_the_rewrite(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    settings = written(tmp_path, "coverage.ini", f"[run]\ndata_file = {tmp_path / 'measured'}\nparallel = true\n")
    monkeypatch.delenv("COVERAGE_PROCESS_CONFIG", raising=False)
    monkeypatch.setenv("COVERAGE_PROCESS_START", str(settings))
    collect(written(tmp_path, "test_measured.py"))
    assert list(tmp_path.glob("measured.*")), "coverage measures a process started with this environment"
    files = [written(tmp_path, "test_one.py")]
    rewrite(files, processes=1)
    assert unrewritten(files) == []
    assert len(list(tmp_path.glob("measured.*"))) == 1


def test_the_suites_files_are_the_test_files_in_and_at_the_paths_given(
        pytestconfig: pytest.Config, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "folder"
    (folder / "deeper").mkdir(parents=True)
    inside = [written(folder, "test_a.py"), written(folder / "deeper", "test_b.py")]
    written(folder, "helpers.py")
    alone = written(tmp_path, "test_alone.py")
    monkeypatch.setattr(pytestconfig, "args", [str(folder), f"{alone}::test_it", str(tmp_path / "gone")])
    assert suite_files(pytestconfig) == sorted([*inside, alone])


@pytest.fixture
def controller(pytestconfig: pytest.Config) -> Iterator[pytest.Config]:
    """This test process's configuration as xdist's controller's: a plugin of the controller's name registered."""
    pytestconfig.pluginmanager.register(object(), "dsession")
    yield pytestconfig
    pytestconfig.pluginmanager.unregister(name="dsession")


def test_the_controller_rewrites_before_its_workers_start_from_so_many_files_unrewritten(
        controller: pytest.Config, request: pytest.FixtureRequest, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    files = [written(tmp_path, f"test_{number}.py") for number in range(WARM_FROM)]
    session = request.session
    monkeypatch.setattr(controller, "args", [str(file) for file in files[1:]])
    pytest_sessionstart(session)
    assert unrewritten(files) == files  # one short of WARM_FROM given: the workers rewrite them
    monkeypatch.setattr(controller, "args", [str(tmp_path)])
    pytest_sessionstart(session)
    assert unrewritten(files) == []


def test_a_worker_and_a_run_without_workers_rewrite_nothing_before_the_tests(
        pytestconfig: pytest.Config, request: pytest.FixtureRequest, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    files = [written(tmp_path, f"test_{number}.py") for number in range(WARM_FROM)]
    monkeypatch.setattr(pytestconfig, "args", [str(tmp_path)])
    pytest_sessionstart(request.session)
    assert unrewritten(files) == files
