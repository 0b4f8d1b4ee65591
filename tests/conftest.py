"""What every test shares."""

from __future__ import annotations

import functools
import gc
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Collection, Generator, Iterator, Sequence
from pathlib import Path

import coverage
import pytest
from xdist.remote import Producer
from xdist.scheduler import LoadFileScheduling
from xdist.workermanage import WorkerController

from judge.service import passwords
from judge.service.running import workers
from tests.support.harness import share_statements_of_every_database

pytest_plugins = ["tests.support.fixtures"]  # the fixtures every test may ask for: judge, relay, clock

MEMORY = Path("/dev/shm")  # Linux's memory-backed folder


def _temporary_files_in_memory() -> None:
    """The tests' temporary files, each judge's SQLite database among them, in memory where the
    machine offers it: a commit then waits for no disk, which was a third of what a mail cost the
    tests.  A TMPDIR the user set wins; the judges the tests start as processes inherit it."""
    if "TMPDIR" not in os.environ and MEMORY.is_dir() and os.access(MEMORY, os.W_OK | os.X_OK):
        os.environ["TMPDIR"] = tempfile.tempdir = str(MEMORY)


def _bytecode_cached() -> None:
    """Where the environment forbids Python to cache compiled modules (PYTHONDONTWRITEBYTECODE, as some
    containers set it), every judge the tests start as a process (a hundred or so: daemons, their appliers,
    the `judge` command) compiled the judge's modules again, a third of a second apiece: the tests keep them
    in a folder of their temporary directory instead (PYTHONPYCACHEPREFIX), never in the source tree."""
    if os.environ.pop("PYTHONDONTWRITEBYTECODE", None) is None and not sys.flags.dont_write_bytecode:
        return
    cache = Path(tempfile.gettempdir()) / f"judge-tests-bytecode-{os.getuid()}"
    os.environ.setdefault("PYTHONPYCACHEPREFIX", str(cache))
    sys.pycache_prefix = os.environ["PYTHONPYCACHEPREFIX"]
    sys.dont_write_bytecode = False
    if "PYTEST_XDIST_WORKER" not in os.environ and cache.is_dir():  # once a run, before its workers start
        _forget_sources_gone(cache)


def _forget_sources_gone(cache: Path, folder: Path | None = None, depth: int = 4) -> None:
    """Remove the bytecode kept for folders that no longer exist, down to ``depth`` folders from the root:
    the temporary ones of earlier runs (their tests' virtual environments, pip's build environments, the
    drills' copies of old releases), in which nothing is run again.  They added some 100 MB a run, in
    memory where the temporary folder is (on this project's machine, 6.3 GB after a few days of runs)."""
    for entry in (folder or cache).iterdir():
        if not entry.is_dir() or entry.is_symlink():
            continue
        try:
            there = (Path("/") / entry.relative_to(cache)).exists()
        except OSError:  # a folder this user may no longer look into: left as it is
            continue
        if not there:
            shutil.rmtree(entry, ignore_errors=True)
        elif depth > 1:
            _forget_sources_gone(cache, entry, depth - 1)


_temporary_files_in_memory()
_bytecode_cached()


@pytest.fixture(autouse=True, scope="session")
def _cheap_password_hashes() -> Iterator[None]:
    """scrypt at its real cost takes some 50 ms a hash, and the tests hash hundreds of passwords;
    the cost is written into each stored hash, so checking works the same at any cost.  The daemons'
    children (`workers.CHILDREN`) import the judge afresh: `tests.support.cheap_hashes` does it there."""
    patch = pytest.MonkeyPatch()
    patch.setattr(passwords, "_N", 2**8)
    patch.setattr(workers, "PRELOAD", (*workers.PRELOAD, "tests.support.cheap_hashes"))
    yield
    patch.undo()


@pytest.hookimpl(wrapper=True)
def pytest_xdist_auto_num_workers(config: pytest.Config) -> Generator[None, int, int]:
    """``-n auto`` (pyproject.toml's addopts): a worker a core, and beside them a worker for each lane of the
    files that wait (`Lanes`), as many lanes as cores but at most `MOST_LANES`.  PYTEST_XDIST_AUTO_NUM_WORKERS,
    when set, is the count as it stands, without lanes."""
    cores = yield
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return cores
    config.stash[LANES] = lanes = min(cores, MOST_LANES)
    return cores + lanes


LANES = pytest.StashKey[int]()
"""How many lanes of waiting files this run has (`pytest_xdist_auto_num_workers`): none unless ``-n auto``."""
MOST_LANES = 4
"""Lanes at most: the integration layer's files wait some 170 s on two cores, 40 s a lane beside the rest of the
suite on eight."""


def pytest_xdist_make_scheduler(config: pytest.Config, log: Producer) -> LoadFileScheduling | None:
    """xdist's file by file scheduling (``--dist loadfile``, pyproject.toml's addopts), in `Lanes` under ``-n auto``."""
    lanes = config.stash.get(LANES, 0)
    return Lanes(config, log, lanes) if lanes and config.getoption("dist") == "loadfile" else None


class Lanes(LoadFileScheduling):  # type: ignore[misc]  # xdist is untyped
    """Files to the workers as they ask, each whole, but the files that wait (`waits`: the integration layer's, real
    SMTP, the daemon, processes) first to the workers of the lanes, the first ``lanes`` workers, and the others to
    the rest of the workers: a lane's worker takes a file that computes once no file that waits is left, and
    another worker a file that waits once no other is left.

    Those files spend their time waiting: on a clock, a socket, a judge's process (170 s of a worker's time on two
    cores for 20 s of its CPU).  Handed out as any file, they ran at the start all at once (`FIRST`), and the cores
    were idle some 40 core-seconds in the suite's first minute; anywhere else, they met each other later on.  In
    lanes, the workers beyond the cores' (`pytest_xdist_auto_num_workers`) wait while the others compute."""

    def __init__(self, config: pytest.Config, log: Producer, lanes: int) -> None:
        super().__init__(config, log)
        self.lanes = {f"gw{number}" for number in range(lanes)}

    def _assign_work_unit(self, node: WorkerController) -> None:
        scope = next_file(self.workqueue, lane=node.gateway.id in self.lanes)
        self.workqueue.move_to_end(scope, last=False)  # xdist's own hands out the first
        super()._assign_work_unit(node)


@functools.cache
def waits(path: str) -> bool:
    """Whether the test file at ``path`` (from the project's root, as xdist names it) mostly waits: asked of every
    file left at each file handed out, and read once a file."""
    return layer(path.removeprefix("tests/")) == "integration"


def next_file(files: Collection[str], lane: bool) -> str:
    """The file a worker is given next of ``files`` (in the order they are handed out): for a lane's worker the
    first that waits, for another the first that does not; else the first."""
    return next((path for path in files if waits(path) == lane), next(iter(files)))


# pytest rewrites each test file's asserts as it imports it, and caches the rewritten code beside the file's bytecode.
# Every xdist worker imports every test file (each collects the whole suite), so where nothing is cached yet (a fresh
# clone: the README's first run, CI's every run) each worker rewrote all of them at once: some 7 s of CPU apiece,
# 26 s of the 310 s of CPU the suite takes with four workers (measured on two cores: a fresh clone's run 197 s against
# the same clone's next 186).  Rewritten once, before the workers start, the work is done once, on every core.
WARM_FROM = 30
"""Test files at least missing their rewritten code for it to be written before the workers start.  A file's rewrite
takes some 25 ms, which each worker saves; the warming's own processes start in some 0.8 s a core."""


def pytest_sessionstart(session: pytest.Session) -> None:
    """In xdist's controller, before it starts its workers (its own `pytest_sessionstart` is ``trylast``): the test
    files' asserts rewritten and cached, when `WARM_FROM` files or more have nothing cached or an older cache."""
    config = session.config
    if not config.pluginmanager.has_plugin("dsession") or sys.dont_write_bytecode:
        return
    files = unrewritten(suite_files(config))
    if len(files) >= WARM_FROM:
        rewrite(files, os.cpu_count() or 1)


def suite_files(config: pytest.Config) -> list[Path]:
    """The test files (``python_files``' names) in or at the paths this run was given (``testpaths`` by default)."""
    found: set[Path] = set()
    for argument in config.args:
        path = config.invocation_params.dir / argument.partition("::")[0]
        if path.is_dir():
            found.update(file for pattern in config.getini("python_files") for file in path.rglob(pattern))
        elif path.is_file():
            found.add(path)
    return sorted(found)


def unrewritten(files: Collection[Path]) -> list[Path]:
    """Those of ``files`` for which pytest has no rewritten code cached, or has cached it before the file's last
    change.  pytest's names of its cache are no public API: should they go, none counts (nothing is rewritten
    before the workers start, as before this), and tests/support/test_rewrites.py fails."""
    try:
        from _pytest.assertion.rewrite import PYC_TAIL, get_cache_dir
    except ImportError:
        return []

    def cached(file: Path) -> bool:
        try:
            return (get_cache_dir(file) / (file.stem + PYC_TAIL)).stat().st_mtime_ns >= file.stat().st_mtime_ns
        except OSError:
            return False

    return [file for file in files if not cached(file)]


def rewrite(files: Sequence[Path], processes: int) -> None:
    """pytest's rewrite of ``files`` cached by collecting them, in ``processes`` processes at once (a file each
    process in turn): pytest's own import of a test file, its only public way.  What a collection reports (a file
    that fails to import among them) is left to the run's own.  Coverage, measuring the processes started under it
    (CI's run: ``patch = subprocess``, pyproject.toml), is not asked to measure these: the workers import the same,
    measured, and the rewrite took half as long again measured."""
    unmeasured = {name: value for name, value in os.environ.items() if not name.startswith("COVERAGE_PROCESS_")}
    started = [
        subprocess.Popen(
            [sys.executable, "-m", "pytest", "--collect-only", "-q", "-n", "0", "-p", "no:cacheprovider",
             *map(str, files[first::processes])],
            env=unmeasured, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for first in range(min(processes, len(files)))
    ]
    for process in started:
        process.wait()


# The cyclic garbage collector's first threshold in the test process once the suite is collected, against
# Python's 700: a tenth of the collections, and fewer old objects promoted for the full collections to walk.
COLLECT_EVERY = 10_000


@pytest.hookimpl(trylast=True)
def pytest_collection_finish(session: pytest.Session) -> None:
    """What the test process holds once the suite is collected (the modules, the libraries, the collected tests)
    lives to its end: the garbage collector stops walking it (`gc.freeze`), and counts more allocations before
    each pass.  Six by-mail files in one test process: its passes 4.0 s of some 70 s of CPU, 1.8 s with these two
    (timed with `gc.callbacks`; the whole run's CPU within the machine's noise).  The test process alone: the
    judges the tests start as processes collect as the judge does anywhere."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(COLLECT_EVERY, *gc.get_threshold()[1:])


@pytest.hookimpl(wrapper=True, trylast=True)
def pytest_runtest_call(item: pytest.Item) -> Generator[None, None, None]:
    """An `UNTRACED` test's call runs untraced.  pytest-cov's ``no_cover`` stops its own measurement alone; in an
    xdist worker, those coverage started as the worker's process began (``patch = subprocess``, pyproject.toml)
    lie beneath it, and the last of them takes over when it stops: each is stopped too, then started again, else
    the test runs traced all the same."""
    beneath = []
    if item.get_closest_marker("no_cover"):
        while (measuring := coverage.Coverage.current()) is not None:
            measuring.stop()
            beneath.append(measuring)
    try:
        return (yield)
    finally:
        for measuring in reversed(beneath):
            measuring.start()


# The layers of the suite, by where a test lives (first match of its path, relative to tests/, wins): each
# test gets one layer marker, so `pytest -m unit` runs the pure cores' tests in seconds and `-m "not e2e"`
# everything a machine without Postfix or Chromium can run.  tests/README.md says what each layer holds.
LAYERS: tuple[tuple[str, str], ...] = (
    ("service/test_postfix.py", "e2e"),
    ("service/test_operations_drills.py", "e2e"),
    ("web/test_browser.py", "e2e"),
    ("packaging/test_wheel.py", "e2e"),
    ("packaging/test_compiled.py", "e2e"),
    ("packaging/test_postfix_script.py", "e2e"),
    ("service/test_store.py", "migrations"),
    ("service/test_schema_upgrade.py", "migrations"),
    ("service/test_games_in_progress_upgrade.py", "migrations"),
    ("service/test_moving.py", "migrations"),
    ("packaging/test_upgrade_from_first_release.py", "migrations"),
    ("service/test_daemon.py", "integration"),
    ("service/test_three_languages_by_smtp.py", "integration"),
    ("service/test_game_records_by_smtp.py", "integration"),
    ("service/test_smtp_limits.py", "integration"),
    ("service/test_apply_processes.py", "integration"),
    ("service/test_listening.py", "integration"),
    ("service/test_postfix_outage.py", "integration"),
    ("service/test_passwords_at_rest.py", "integration"),
    ("service/test_logs.py", "integration"),
    ("service/test_bounces.py", "integration"),
    ("service/test_sender_edges.py", "integration"),
    ("service/test_command_line.py", "integration"),
    ("service/test_machines.py", "integration"),
    ("service/test_stalled_worker.py", "integration"),
    ("service/test_restart_mid_evening.py", "integration"),
    ("service/test_ratings_by_smtp.py", "integration"),
    ("support/test_daemon_ticked.py", "integration"),
    ("web/test_server.py", "integration"),
    ("games/machiavelli/test_aop_deserted_by_smtp.py", "integration"),
    ("games/payola/test_form_by_smtp.py", "integration"),
    ("games/exchange/test_form_by_smtp.py", "integration"),
    ("games/machiavelli/test_form_by_smtp.py", "integration"),
    ("games/machiavelli/test_ahead_by_smtp.py", "integration"),
    ("games/payola/test_ahead_by_smtp.py", "integration"),
    ("games/exchange/test_ahead_by_smtp.py", "integration"),
    ("games/pirates/test_form_by_smtp.py", "integration"),
    ("service/test_classic.py", "bymail"),
    ("templates/", "template"),
    ("games/payola/test_seating.py", "unit"),
    ("games/", "bymail:by_mail"),  # a game's folder: its by-mail files (named *by_mail*) are by mail, the rest unit
    ("service/", "host"),
    ("web/", "host"),
    ("mail/", "host"),
    ("packaging/", "host"),
    ("engine/", "unit"),
    ("payola/", "unit"),
    ("commands/", "unit"),
    ("render/", "unit"),
    ("", "host"),
)
# The tests that concern the database (its schema, locks, transactions, migrations, and one whole game's
# round trip): the PostgreSQL stage of .ci/run runs these again (`-m database`), not the whole suite.
DATABASE = (
    "service/test_store.py", "service/test_schema_upgrade.py", "service/test_games_in_progress_upgrade.py",
    "service/test_moving.py",
    "service/test_apply_processes.py", "service/test_apply_run.py", "service/test_intake.py",
    "service/test_duplicates.py", "service/test_mail_order.py", "games/payola/test_mail_order_by_mail.py",
    "service/test_tick.py", "service/test_prune.py",
    "service/test_phase_change_crossing.py", "service/test_states.py", "games/payola/test_game_by_mail.py",
    "service/test_operator.py", "service/test_sender_edges.py", "service/test_cut_off.py",
    "service/test_shared_clock.py", "service/test_machines.py",
)  # and single tests elsewhere marked `@pytest.mark.database` (test_daemon's judges sharing one database)
# The tests CI's coverage does not trace: tests/untraced.txt says which and why.
UNTRACED = tuple(line for line in (Path(__file__).parent / "untraced.txt").read_text(encoding="utf-8").splitlines()
                 if line and not line.startswith("#"))
MARKERS = {
    "unit": "a pure core's tests: values in, values out, no database, no mail",
    "host": "the host's tests against the host: a judge on a temporary database fed mails, the web pages",
    "bymail": "a game played by mail through the host (a game's *by_mail* tests)",
    "template": "the wording of the judge's mails, against golden files: the one place wording is asserted",
    "integration": "real SMTP on loopback, the daemon, several processes, the web server",
    "e2e": "Postfix, Chromium, the wheel, the compiled build: skipped unless their switch is set",
    "migrations": "the schema from the migrations, upgrades of old databases, moving a judge's data",
    "database": "concerns the database: run again on PostgreSQL by .ci/run (JUDGE_TEST_DATABASE_URL)",
}


def pytest_configure(config: pytest.Config) -> None:
    for name, what in MARKERS.items():
        config.addinivalue_line("markers", f"{name}: {what}")
    share_statements_of_every_database()


def layer(path: str) -> str:
    """The layer of the test file at ``path`` (relative to tests/, with / between folders)."""
    for prefix, name in LAYERS:
        if path.startswith(prefix):
            kind, _, infix = name.partition(":")
            return kind if not infix or infix in path.rpartition("/")[2] else "unit"
    raise AssertionError("the last prefix matches every path")


# The order in which the workers take the layers' files: the slow ones (processes, sockets, whole games by mail)
# first (under -n auto the integration layer's as lanes, `Lanes`), so that the many small files of the fast layers
# fill the workers in at the end and none waits long for another's last big file.  xdist's loadfile hands out files
# in the order collected only with --no-loadscope-reorder (pyproject.toml's addopts): by default it sorts them by
# their number of tests, which put the few-test files that wait on processes and clocks last, and the run ended with
# one core idle for a minute.
FIRST = ("integration", "e2e", "bymail", "migrations", "host", "template", "unit")


def marks(path: str, function: str) -> list[str]:
    """The markers of the test ``function`` of the file at ``path`` (relative to tests/): its layer, `database` if its
    file is one of `DATABASE`, `no_cover` if it is one of `UNTRACED`."""
    found = [layer(path)]
    if path in DATABASE:
        found.append("database")
    if f"{path}::{function}" in UNTRACED:
        found.append("no_cover")
    return found


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    root = Path(__file__).parent
    layers: dict[pytest.Item, str] = {}
    for item in items:
        path = item.path.relative_to(root).as_posix() if item.path.is_relative_to(root) else item.path.name
        found = marks(path, getattr(item, "originalname", item.name))
        layers[item] = found[0]
        for name in found:
            item.add_marker(name)
    items.sort(key=lambda item: FIRST.index(layers[item]))  # stable: a file's tests keep their order
