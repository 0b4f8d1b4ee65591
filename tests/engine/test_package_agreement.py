"""Adjudication agrees with the ``diplomacy`` package's ``process()`` on the variant boards it
also has (``ancmed``, ``modern``), as on the standard board: random positions and random legal
orders, the package's known departures aside (6.G.8: an army ordered ``VIA CONVOY`` to an
adjacent province whose convoy cannot form moves by land there; and its convoy paths never pass
through a fleet in Baleares, which DPjudge lets convoy).  Skipped
when the package (the ``bench`` extra) is not installed; ``bench/engine_bench.py`` runs the same
comparison on a thousand positions a board (and is imported from there: a copy of the tests
without ``bench/``, as CI's compiled build runs them, skips this too)."""

from __future__ import annotations

import pytest

diplomacy = pytest.importorskip("diplomacy")
engine_bench = pytest.importorskip("bench.engine_bench")
check_theirs, generate, still_disagrees = engine_bench.check_theirs, engine_bench.generate, engine_bench.still_disagrees


@pytest.mark.parametrize("board", ["standard", "ancmed", "modern"])
def test_6_2_adjudication_agrees_with_the_diplomacy_package(board: str) -> None:
    cases = generate(60, 5, board)
    run = check_theirs(diplomacy, cases)
    if board != "ancmed":
        assert run.rejected_orders == 0, run.rejected_examples
    assert [i for i in run.disagree if still_disagrees(diplomacy, cases[i])] == []
