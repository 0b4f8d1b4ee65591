"""The outlines an SVG map writes: a province's shape with the points it steps through on a straight line
left out, within half a unit of the board (`judge.render.board.corners`)."""

from __future__ import annotations

from judge.render.board import corners, path_data


def test_a_square_traced_point_by_point_is_written_by_its_four_corners() -> None:
    traced = [(float(x), 0.0) for x in range(10)] + [(10.0, float(y)) for y in range(10)] + \
        [(float(x), 10.0) for x in range(10, 0, -1)] + [(0.0, float(y)) for y in range(10, 0, -1)]
    assert corners(traced) == [(0.0, 0.0), (10.0, 0.0), (10.0, 10.0), (0.0, 10.0)]
    assert path_data((((tuple(traced)),),)) == "M0 0 10 0 10 10 0 10Z"


def test_a_staircase_within_half_a_unit_of_a_diagonal_is_the_diagonal() -> None:
    """The points of a traced diagonal step half a unit each way: none lies farther than 0.36 (a
    half-step's diagonal over the square root of 2) from the line through its ends."""
    steps = [(i * 0.5 + dx, i * 0.5) for i in range(8) for dx in (0.0, 0.5)]
    ring = [*steps, (4.0, 0.0)]
    assert corners(ring) == [(0.0, 0.0), (4.0, 3.5), (4.0, 0.0)]


def test_a_corner_farther_than_half_a_unit_from_the_line_is_kept() -> None:
    assert corners([(0.0, 0.0), (5.0, 0.6), (10.0, 0.0), (5.0, 10.0)]) == [(0.0, 0.0), (5.0, 0.6), (10.0, 0.0),
                                                                             (5.0, 10.0)]
