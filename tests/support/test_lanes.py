"""How ``-n auto`` shares the suite among its workers (tests/conftest.py): a worker a core, and a worker more for
each lane of the files that wait, which run one after the other in it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from xdist.remote import Producer

from tests.conftest import LANES, MOST_LANES, Lanes, pytest_xdist_auto_num_workers, pytest_xdist_make_scheduler


def workers(config: pytest.Config, cores: int) -> int:
    """What ``-n auto`` starts on ``cores`` cores (conftest's wrapper around xdist's count)."""
    counting = pytest_xdist_auto_num_workers(config)
    next(counting)
    with pytest.raises(StopIteration) as ended:
        counting.send(cores)
    return int(ended.value.value)


@pytest.fixture
def config(pytestconfig: pytest.Config, monkeypatch: pytest.MonkeyPatch) -> Iterator[pytest.Config]:
    """This run's configuration with no lanes counted yet, and four workers sharing files as pyproject.toml asks;
    its own lanes, if any, as they were after the test."""
    monkeypatch.delenv("PYTEST_XDIST_AUTO_NUM_WORKERS", raising=False)
    monkeypatch.setattr(pytestconfig.option, "tx", ["popen"] * 4)
    monkeypatch.setattr(pytestconfig.option, "dist", "loadfile")
    kept = pytestconfig.stash.get(LANES, None)
    if kept is not None:
        del pytestconfig.stash[LANES]
    yield pytestconfig
    if kept is not None:
        pytestconfig.stash[LANES] = kept
    elif LANES in pytestconfig.stash:
        del pytestconfig.stash[LANES]


def test_n_auto_starts_a_worker_a_core_and_one_a_lane_as_many_lanes_as_cores_but_at_most_four(
        config: pytest.Config) -> None:
    assert workers(config, 2) == 4 and config.stash[LANES] == 2
    assert workers(config, 1) == 2 and config.stash[LANES] == 1
    assert workers(config, 16) == 20 and config.stash[LANES] == MOST_LANES == 4


def test_a_worker_count_set_in_the_environment_is_the_count_and_has_no_lanes(
        config: pytest.Config, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PYTEST_XDIST_AUTO_NUM_WORKERS", "3")
    assert workers(config, 3) == 3 and LANES not in config.stash
    assert pytest_xdist_make_scheduler(config, Producer("lanes", enabled=False)) is None  # xdist's own


def test_the_integration_files_are_dealt_in_order_into_the_lanes_and_every_other_file_is_a_unit_of_its_own(
        config: pytest.Config) -> None:
    workers(config, 2)
    lanes = pytest_xdist_make_scheduler(config, Producer("lanes", enabled=False))
    assert isinstance(lanes, Lanes)
    tests = ["tests/service/test_daemon.py::test_a", "tests/service/test_daemon.py::test_b[1]",
             "tests/service/test_logs.py::test_c", "tests/games/payola/test_game_by_mail.py::test_d",
             "tests/games/payola/test_form_by_smtp.py::test_e", "tests/service/test_daemon.py::test_f",
             "tests/engine/test_legal.py::Legal::test_g", "tests/service/test_store.py::test_h"]
    assert [lanes._split_scope(test) for test in tests] == [
        "lane 0", "lane 0", "lane 1", "tests/games/payola/test_game_by_mail.py", "lane 0", "lane 0",
        "tests/engine/test_legal.py", "tests/service/test_store.py"]


def test_other_ways_of_sharing_the_tests_are_xdists_own(config: pytest.Config,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    workers(config, 2)
    monkeypatch.setattr(config.option, "dist", "load")
    assert pytest_xdist_make_scheduler(config, Producer("lanes", enabled=False)) is None
