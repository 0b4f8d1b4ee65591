"""Adjudication agrees with the ``diplomacy`` package's ``process()`` on every board: random
positions and random legal orders, the package's known departures aside (6.G.8: an army move
to an adjacent province that goes by convoy, whose convoy cannot form, moves by land there; its
convoy paths never pass through a fleet in Baleares, which DPjudge lets convoy; 6.B.9: it counts
a support naming another coast than the supported fleet's).  Youngstown, which the package
lacks, and Empire, whose file differs (DPjudge's Beaufort Sea does not touch Nunavut), are
given to it written from the judge's own data in its map format.  Skipped when the
package (the ``bench`` extra) is not installed; the first run on a board makes the package work
out its convoy routes (minutes on the big boards, once: it keeps them in ``~/.cache/diplomacy``).
``bench/engine_bench.py`` runs the same comparison on a thousand positions a board (and is
imported from there: a copy of the tests without ``bench/``, as CI's compiled build runs them,
skips this too)."""

from __future__ import annotations

from pathlib import Path

import pytest

from judge.engine.map import load_map

diplomacy = pytest.importorskip("diplomacy")
engine_bench = pytest.importorskip("bench.engine_bench")
BOARDS, check_theirs, generate = engine_bench.BOARDS, engine_bench.check_theirs, engine_bench.generate
package_map_text, reads_alike, still_disagrees = (
    engine_bench.package_map_text,
    engine_bench.reads_alike,
    engine_bench.still_disagrees,
)


@pytest.mark.parametrize("board", BOARDS)
def test_adjudication_agrees_with_the_diplomacy_package(board: str) -> None:
    cases = generate(60, 5, board)
    run = check_theirs(diplomacy, cases)
    if board != "ancmed":
        assert run.rejected_orders == 0, run.rejected_examples
    assert [i for i in run.disagree if still_disagrees(diplomacy, cases[i])] == []


@pytest.mark.parametrize("board", ["youngstown", "world"])
def test_a_board_in_the_packages_format_is_read_by_it_as_the_engine_reads_it(board: str, tmp_path: Path) -> None:
    """The bench's Youngstown (and Empire) for the package: every edge (by unit type and coast),
    center and the victory count the same (World too, whose data is the package's own)."""
    path = tmp_path / f"{board}.map"
    path.write_text(package_map_text(load_map(board)))
    assert reads_alike(diplomacy, load_map(board), str(path))


def test_the_package_reads_its_own_files_as_the_engine_reads_the_boards_but_empire() -> None:
    """Where the package has a board, its file gives the judge's data (World and Known World 901
    were written from it), but for Empire: DPjudge's Beaufort Sea does not touch Nunavut, the
    package's does (the bench then gives the package the judge's Empire)."""
    alike = {board: reads_alike(diplomacy, load_map(board), board) for board in BOARDS if board != "youngstown"}
    assert alike == {board: board != "empire" for board in alike}
