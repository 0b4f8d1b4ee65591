"""How ``-n auto`` shares the suite among its workers (tests/conftest.py): a worker a core, and a worker more for
each lane of the files that wait, which run one after the other in it."""

from __future__ import annotations

from collections.abc import Iterator
from types import SimpleNamespace

import pytest
from xdist.remote import Producer

from tests.conftest import (
    LANES,
    MOST_LANES,
    Lanes,
    next_file,
    pytest_xdist_auto_num_workers,
    pytest_xdist_make_scheduler,
)


def workers(config: pytest.Config, cores: int) -> int:
    """What ``-n auto`` starts on ``cores`` cores (conftest's wrapper around xdist's count)."""
    counting = pytest_xdist_auto_num_workers(config)
    next(counting)
    with pytest.raises(StopIteration) as ended:
        counting.send(cores)
    return int(ended.value.value)


@pytest.fixture
def config(pytestconfig: pytest.Config, monkeypatch: pytest.MonkeyPatch) -> Iterator[pytest.Config]:
    """This test process's configuration, with four workers sharing files as pyproject.toml asks; the lanes it is
    given counted, none after the test (only xdist's controller counts them, never the process running a test)."""
    monkeypatch.delenv("PYTEST_XDIST_AUTO_NUM_WORKERS", raising=False)
    monkeypatch.setattr(pytestconfig.option, "tx", ["popen"] * 4)
    monkeypatch.setattr(pytestconfig.option, "dist", "loadfile")
    assert LANES not in pytestconfig.stash
    yield pytestconfig
    if LANES in pytestconfig.stash:
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


class Worker:
    """A worker as xdist's scheduler sees it: its name, and the tests it was sent (by their index)."""

    def __init__(self, name: str) -> None:
        self.gateway = SimpleNamespace(id=name)
        self.sent: list[int] = []
        self.shutting_down = False

    def send_runtest_some(self, indexes: list[int]) -> None:
        self.sent += indexes

    def shutdown(self) -> None:
        self.shutting_down = True


SUITE = ["tests/service/test_daemon.py::test_a", "tests/service/test_daemon.py::test_b[1]",
         "tests/games/payola/test_game_by_mail.py::test_c", "tests/engine/test_legal.py::Legal::test_d",
         "tests/service/test_logs.py::test_e", "tests/service/test_store.py::test_f",
         "tests/games/payola/test_form_by_smtp.py::test_g", "tests/render/test_render.py::test_h"]
"""A suite in the order xdist hands its files out: the daemon's, the logs' and the SMTP form's wait."""


def test_the_lanes_workers_take_the_files_that_wait_and_the_others_the_rest_each_file_whole(
        config: pytest.Config) -> None:
    workers(config, 2)
    lanes = pytest_xdist_make_scheduler(config, Producer("lanes", enabled=False))
    assert isinstance(lanes, Lanes)
    gw = [Worker(f"gw{number}") for number in range(4)]
    for worker in gw:
        lanes.add_node(worker)
        lanes.add_node_collection(worker, SUITE)
    lanes.schedule()
    # each took a file, then in turn, as it had two tests or fewer to run, the next one for it: gw1 a file that
    # computes, none that waits being left, and gw3 nothing, nothing being left
    assert [[SUITE[index].split("::")[0].rpartition("/")[2] for index in worker.sent] for worker in gw] == [
        ["test_daemon.py", "test_daemon.py", "test_form_by_smtp.py"], ["test_logs.py", "test_store.py"],
        ["test_game_by_mail.py", "test_render.py"], ["test_legal.py"]]


@pytest.mark.parametrize(("lane", "files", "given"), [
    (True, ["c.py", "tests/service/test_daemon.py", "tests/service/test_logs.py"], "tests/service/test_daemon.py"),
    (False, ["tests/service/test_daemon.py", "c.py", "d.py"], "c.py"),
    (True, ["c.py", "d.py"], "c.py"),  # no file waits: a lane's worker computes
    (False, ["tests/service/test_logs.py", "tests/service/test_daemon.py"], "tests/service/test_logs.py"),
])
def test_a_worker_is_given_the_first_file_of_its_own_sort_or_else_the_first(lane: bool, files: list[str],
                                                                             given: str) -> None:
    assert next_file(files, lane) == given


def test_other_ways_of_sharing_the_tests_are_xdists_own(config: pytest.Config,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    workers(config, 2)
    monkeypatch.setattr(config.option, "dist", "load")
    assert pytest_xdist_make_scheduler(config, Producer("lanes", enabled=False)) is None
