"""The tournament scores of a finished game (`judge.service.hosting.scores`), figures worked by hand."""

from __future__ import annotations

from fractions import Fraction

from judge.service.hosting.kinds import Standing, ranked
from judge.service.hosting.scores import Basis, Scores, by_result, exact, score, shown

SEVEN = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")


def board(*centres: int) -> list[Standing]:
    """The seven powers holding ``centres`` in the board's order, ranked as Payola ranks them."""
    owned = dict(zip(SEVEN, centres, strict=True))
    return ranked([(seat, n, f"{n} supply centers") for seat, n in owned.items()], owned,
                  {seat: f"{10 * n} AgP" for seat, n in owned.items()})


def by_seat(scores: Scores, system: str) -> dict[str, Fraction | None]:
    return {s.seat: getattr(s, system) for s in scores.seats}


def test_a_solo_gives_the_winner_100_by_every_system_and_the_others_nothing() -> None:
    scores = score(board(18, 6, 4, 3, 2, 1, 0), "AUSTRIA", ())
    assert scores.basis is Basis.SOLO
    for system in ("dss", "sos", "c_diplo"):
        assert by_seat(scores, system) == {"AUSTRIA": 100, **{seat: 0 for seat in SEVEN[1:]}}


def test_a_three_way_draw_shares_draw_size_scoring_and_squares_count_every_seat() -> None:
    """Centres 10, 8, 6, 5, 3, 2, 0: Σc² = 100 + 64 + 36 + 25 + 9 + 4 = 238; DSS 100 / 3 to each drawer."""
    scores = score(board(10, 8, 6, 5, 3, 2, 0), None, ("AUSTRIA", "ENGLAND", "FRANCE"))
    assert scores.basis is Basis.DRAW
    third = Fraction(100, 3)
    assert by_seat(scores, "dss") == {"AUSTRIA": third, "ENGLAND": third, "FRANCE": third, "GERMANY": 0,
                                      "ITALY": 0, "RUSSIA": 0, "TURKEY": 0}
    assert by_seat(scores, "sos") == {"AUSTRIA": Fraction(10000, 238), "ENGLAND": Fraction(6400, 238),
                                      "FRANCE": Fraction(3600, 238), "GERMANY": Fraction(2500, 238),
                                      "ITALY": Fraction(900, 238), "RUSSIA": Fraction(400, 238), "TURKEY": 0}
    assert [shown(s.sos) for s in scores.seats] == ["42.0", "26.9", "15.1", "10.5", "3.8", "1.7", "0.0"]
    assert [shown(s.dss) for s in scores.seats] == ["33.3", "33.3", "33.3", "0.0", "0.0", "0.0", "0.0"]
    assert exact(third) == 33.3333 and exact(None) is None and shown(None) == ""


def test_c_diplo_gives_a_point_for_playing_one_a_centre_and_38_14_7_to_the_top_three() -> None:
    """10, 8, 6 top the board: 1 + 10 + 38 = 49, 1 + 8 + 14 = 23, 1 + 6 + 7 = 14; then 6, 4, 3, 1: 100 in all."""
    scores = score(board(10, 8, 6, 5, 3, 2, 0), None, ("AUSTRIA", "ENGLAND", "FRANCE"))
    assert [s.c_diplo for s in scores.seats] == [49, 23, 14, 6, 4, 3, 1]
    assert sum(s.c_diplo or 0 for s in scores.seats) == 100


def test_c_diplo_seats_tied_on_top_share_the_first_and_second_places_points() -> None:
    """9 and 9 share 38 + 14: 1 + 9 + 26 = 36 each; 7 is third: 1 + 7 + 7 = 15; then 5, 4, 3, 1."""
    scores = score(board(9, 9, 7, 4, 3, 2, 0), None, ())
    assert [s.c_diplo for s in scores.seats] == [36, 36, 15, 5, 4, 3, 1]
    assert [s.place for s in scores.seats] == [1, 1, 3, 4, 5, 6, 7]


def test_c_diplo_three_seats_tied_for_second_share_14_7_and_nothing() -> None:
    """6, 6 and 6 share 14 + 7 + 0: 1 + 6 + 7 = 14 each."""
    scores = score(board(10, 6, 6, 6, 4, 2, 0), None, ())
    assert [s.c_diplo for s in scores.seats] == [49, 14, 14, 14, 5, 3, 1]


def test_a_game_ended_with_neither_solo_nor_draw_shares_draw_size_among_the_survivors() -> None:
    """Six powers still hold a centre, Turkey none: 100 / 6 each."""
    scores = score(board(10, 8, 6, 5, 3, 2, 0), None, ())
    assert scores.basis is Basis.SURVIVORS
    assert by_seat(scores, "dss") == {**{seat: Fraction(100, 6) for seat in SEVEN[:6]}, "TURKEY": 0}
    assert shown(scores.seats[0].dss) == "16.7"


def test_the_money_and_centres_of_each_seat_are_kept_beside_its_scores() -> None:
    scores = score(board(10, 8, 6, 5, 3, 2, 0), None, ())
    assert (scores.seats[0].seat, scores.seats[0].centres, scores.seats[0].money) == ("AUSTRIA", 10, "100 AgP")


def test_a_kind_without_centres_is_scored_by_its_money_only() -> None:
    """Exchange Payola's investors own no centre: no system by centres scores them."""
    standings = [Standing("ANN", 1, "60.0% control", money="60.0% control"),
                 Standing("BOB", 2, "40.0% control", money="40.0% control")]
    scores = score(standings, None, ())
    assert not scores.centred
    assert [(s.money, s.dss, s.sos, s.c_diplo) for s in scores.seats] == [
        ("60.0% control", None, None, None), ("40.0% control", None, None, None)]


def test_the_result_places_a_winner_first_and_a_draw_shared_over_the_centres() -> None:
    """Russia holds most centres (4), the others 3 each: a concession to France puts France first alone,
    Russia second, the others third together; a draw of France and Germany puts both first, Russia third,
    England fourth."""
    standings = [Standing("RUSSIA", 1, "4 supply centers", 4), Standing("ENGLAND", 2, "3 supply centers", 3),
                 Standing("FRANCE", 2, "3 supply centers", 3), Standing("GERMANY", 2, "3 supply centers", 3)]
    assert [(s.seat, s.place) for s in by_result(standings, "FRANCE", ())] == [
        ("FRANCE", 1), ("RUSSIA", 2), ("ENGLAND", 3), ("GERMANY", 3)]
    assert [(s.seat, s.place) for s in by_result(standings, None, ("FRANCE", "GERMANY"))] == [
        ("FRANCE", 1), ("GERMANY", 1), ("RUSSIA", 3), ("ENGLAND", 4)]
    assert by_result(standings, None, ()) == standings
