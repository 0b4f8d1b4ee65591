"""Which tests CI's coverage need not trace.

CI runs the suite under coverage (`.ci/run`), which on Python 3.11 doubles the CPU of whatever it traces: every
line of every library, not only the judge's.  A test each line of which, in ``judge/``, other tests run too adds
nothing to the figure, and runs untraced (`tests/untraced.txt`, pytest-cov's ``no_cover``): the gate
measures the same lines for less.  This tool reads a run of the suite that recorded which test ran each line, and
says which listed tests must be traced again (alone, they run a line: untraced, the figure would drop) and which
unlisted ones could go on the list, the slowest first::

    .venv/bin/python -m pytest --cov --cov-context=test --junitxml=/tmp/times.xml
    .venv/bin/python tools/untraced.py .coverage /tmp/times.xml

A test is named as `tests/untraced.txt` names it, its file relative to ``tests/`` and its function, every parameter
of it at once: ``engine/test_legal.py::test_legal_orders_are_exactly_the_orders_check_accepts_on_every_board``.
Only the test's own call goes untraced (its fixtures' setup and the processes it starts stay traced), so only lines
its call ran count as its.  The files of tests that CI's main run skips (they need an extra it does not install) are
left out of the reckoning: their lines would not be there to stand in for another's.
"""

from __future__ import annotations

import sys
from collections import defaultdict
from collections.abc import Iterable, Mapping
from xml.etree import ElementTree

from coverage import CoverageData

SKIPPED_IN_CI = ("docs/", "engine/test_package_agreement.py", "service/test_machines.py")
"""The test files CI's main run skips: they need the docs, bench or postgres extra (`.ci/run` installs ``test``)."""

Line = tuple[str, int]


def call_of(context: str) -> str | None:
    """The test whose call a context of ``--cov-context=test`` is (``tests/a.py::test_f[x]|run`` is
    ``a.py::test_f``), or None: a fixture's setup or teardown, a process the test started (no context)."""
    node, _, phase = context.rpartition("|")
    if phase != "run" or not node.startswith("tests/"):
        return None
    path, _, function = node.removeprefix("tests/").partition("::")
    return f"{path}::{function.partition('[')[0]}"


def skipped_in_ci(context: str) -> bool:
    """Whether a context is of a test CI's main run skips (`SKIPPED_IN_CI`), its call or its fixtures'."""
    return context.startswith("tests/") and context.removeprefix("tests/").startswith(SKIPPED_IN_CI)


def runners(lines: Mapping[Line, Iterable[str]]) -> dict[Line, frozenset[str | None]]:
    """For each line, who ran it: the tests whose calls did, and None where anything else did (a setup, a process);
    the tests CI skips left out, as they would not run it there."""
    return {line: frozenset(call_of(context) for context in contexts if not skipped_in_ci(context))
            for line, contexts in lines.items()}


def alone(ran: Mapping[Line, frozenset[str | None]], untraced: Iterable[str]) -> dict[str, int]:
    """How many lines of judge/ no traced test runs, by the untraced tests that run them: untraced, each of these
    tests takes lines off the figure."""
    listed = set(untraced)
    lost: dict[str, int] = defaultdict(int)
    for by in ran.values():
        if by <= listed:
            for test in by:
                lost[str(test)] += 1
    return dict(lost)


def candidates(ran: Mapping[Line, frozenset[str | None]], untraced: Iterable[str],
               seconds: Mapping[str, float]) -> list[str]:
    """The tests not listed that could run untraced with those listed, the slowest first: taken one by one, each
    runs no line that only it and the untraced tests run.  A test CI's main run skips is none: it is not traced
    there."""
    listed = set(untraced)
    lines_of: dict[str, list[frozenset[str | None]]] = defaultdict(list)
    for by in ran.values():
        for test in by:
            if test is not None:
                lines_of[test].append(by)
    found = []
    for test in sorted(seconds, key=lambda name: -seconds[name]):
        if test in listed or test.startswith(SKIPPED_IN_CI):
            continue
        if all(by - listed - {test} for by in lines_of.get(test, ())):
            listed.add(test)
            found.append(test)
    return found


def times(junit: str) -> dict[str, float]:
    """Each test's seconds, its parameters' summed, from pytest's ``--junitxml`` report."""
    found: dict[str, float] = defaultdict(float)
    for case in ElementTree.parse(junit).iter("testcase"):
        path = case.get("classname", "").removeprefix("tests.").replace(".", "/") + ".py"
        found[f"{path}::{case.get('name', '').partition('[')[0]}"] += float(case.get("time", "0"))
    return dict(found)


def main(data_file: str, junit: str) -> int:
    sys.path.insert(0, ".")
    from tests.conftest import UNTRACED

    data = CoverageData(data_file)
    data.read()
    ran = runners({(name, number): contexts for name in data.measured_files()
                   for number, contexts in data.contexts_by_lineno(name).items()})
    lost = alone(ran, UNTRACED)
    for test, count in sorted(lost.items()):
        print(f"trace again: {test} (alone it runs {count} lines)")
    seconds = times(junit)
    for test in candidates(ran, set(UNTRACED) - set(lost), seconds):
        print(f"{seconds[test]:7.1f} s  could run untraced: {test}")
    return 1 if lost else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
