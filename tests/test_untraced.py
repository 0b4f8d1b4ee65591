"""The tests CI's coverage does not trace (tests/untraced.txt) are tests that exist, and
`tools/untraced.py` keeps a test untraced only where each line it runs another test runs too."""

from __future__ import annotations

import importlib
import inspect

import pytest

from tests.conftest import UNTRACED, marks
from tools.untraced import alone, call_of, candidates, runners


def test_every_untraced_test_is_a_test_function_of_its_file() -> None:
    """A name that no longer matches (a test renamed or moved) would quietly be traced again."""
    missing = []
    for name in UNTRACED:
        path, _, function = name.partition("::")
        module = importlib.import_module("tests." + path.removesuffix(".py").replace("/", "."))
        if not function.startswith("test_") or not inspect.isfunction(getattr(module, function, None)):
            missing.append(name)  # a module may collect tests it imports (kinds/test_contract.py does)
    assert not missing
    assert len(set(UNTRACED)) == len(UNTRACED)


@pytest.mark.parametrize(("context", "test"), [
    ("tests/engine/test_legal.py::test_f[1-world-S2000M]|run", "engine/test_legal.py::test_f"),
    ("tests/engine/test_legal.py::test_f|run", "engine/test_legal.py::test_f"),
    ("tests/engine/test_legal.py::test_f|setup", None),  # a fixture's: it stays traced
])
def test_a_context_is_the_call_of_the_test_it_names(context: str, test: str | None) -> None:
    assert call_of(context) == test


# Four lines of judge/: "a" runs L1 alone; "b" and "c" both run L2; "c" runs L3 with a setup (None); "d" runs L4
# with "b".
RAN = runners({
    ("judge/x.py", 1): ["tests/a.py::a|run"],
    ("judge/x.py", 2): ["tests/b.py::b|run", "tests/c.py::c|run"],
    ("judge/x.py", 3): ["tests/c.py::c|run", "tests/c.py::c|setup"],
    ("judge/x.py", 4): ["tests/d.py::d|run", "tests/b.py::b|run"],
})
# A fifth line, run by "a" and by a test CI's main run skips (it needs the docs extra) in its call and its setup.
SKIPPED = runners({("judge/x.py", 5): ["tests/a.py::a|run", "tests/docs/test_site.py::test_builds|run",
                                       "tests/docs/test_site.py::test_builds|setup"]})


def test_an_untraced_test_that_alone_runs_a_line_must_be_traced_again() -> None:
    assert alone(RAN, ["a.py::a"]) == {"a.py::a": 1}
    assert alone(RAN, ["b.py::b", "c.py::c"]) == {"b.py::b": 1, "c.py::c": 1}  # L2: nobody traced runs it
    assert alone(RAN, ["c.py::c", "d.py::d"]) == {}  # L3 has its setup, L2 and L4 have b


def test_a_test_ci_skips_stands_in_for_no_untraced_test() -> None:
    assert alone(SKIPPED, ["a.py::a"]) == {"a.py::a": 1}


def test_the_slowest_tests_whose_lines_others_run_are_the_candidates_each_counting_those_taken_before() -> None:
    seconds = {"a.py::a": 9.0, "b.py::b": 5.0, "c.py::c": 4.0, "d.py::d": 1.0}
    # a runs L1 alone; b goes (c runs L2, d runs L4); c then must stay (L2 would be b's and c's alone); d stays (L4)
    assert candidates(RAN, [], seconds) == ["b.py::b"]
    assert candidates(RAN, ["d.py::d"], seconds) == ["c.py::c"]  # with d untraced, b must run L4, c may go


def test_a_test_ci_skips_is_no_candidate() -> None:
    """It runs untraced there already (skipped); listing it would only make the list longer."""
    assert candidates({}, [], {"docs/test_site.py::test_s": 9.0, "a.py::a": 1.0}) == ["a.py::a"]


def test_a_test_named_untraced_is_marked_no_cover_and_its_neighbours_are_not() -> None:
    path, _, function = UNTRACED[0].partition("::")
    assert "no_cover" in marks(path, function)
    assert "no_cover" not in marks(path, "test_of_no_such_name")
