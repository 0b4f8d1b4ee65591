"""The players' ratings kept by the judge (`judge.service.hosting.ratings`): each finished game rated once,
when it ends, from its places under its result; rebuilt the same from the records; asked for by mail and
used as an entry gate.

The figures are those of `tests.service.test_rating`: for three newcomers' seats, a winner alone gains
3.269 (28.269) and the two sharing second place lose 1.634 each (23.366); each sigma becomes 8.207."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sqlalchemy import select

from judge.bootstrap import main
from judge.service.hosting import archive, ratings
from judge.service.operators import importing
from judge.store.models import Game, RatedGame, RatingRow
from judge.web.pages import web_root
from tests.games.payola.by_mail import start, teleport
from tests.service.every_kind import MACHIAVELLI, PAYOLA
from tests.support.harness import Judge, two_player_game
from tests.support.people import ALICE, BOB, CAROL, GM
from tests.web.page import read_page as read


def conceded_to_france(judge: Judge) -> Judge:
    """Payola's g1 (France Alice, Germany Bob, England Carol) after S1901M, two days after its start:
    the three concede it to France, who wins alone; Germany and England, three centres each, share second."""
    PAYOLA.first_played(judge)
    for seat in PAYOLA.seats:
        judge.send(seat.address, f"{seat.signon}\nVOTE CONCEDE FRANCE")
    return judge


def table(judge: Judge) -> dict[tuple[str, str], tuple[float, float, int]]:
    with judge.db.transaction() as session:
        return {(row.person, row.kind): (row.mu, row.sigma, row.games) for row in session.scalars(select(RatingRow))}


def test_a_concession_rates_its_winner_first_and_the_others_second_overall_and_in_the_kind(tmp_path: Path) -> None:
    judge = conceded_to_france(Judge(tmp_path))
    assert judge.last_to(ALICE).subject.endswith("has ended")
    rated = table(judge)
    assert {person for person, _ in rated} == {ALICE, BOB, CAROL}
    for kind in ("", "payola"):
        assert rated[ALICE, kind][0] == pytest.approx(28.269, abs=0.001)
        assert rated[BOB, kind][0] == pytest.approx(23.366, abs=0.001) == rated[CAROL, kind][0]
        assert rated[ALICE, kind][2] == 1


def test_a_game_ended_within_a_day_rates_nobody(tmp_path: Path) -> None:
    judge = PAYOLA.begin(Judge(tmp_path))
    judge.terminate(GM, PAYOLA.master)
    assert table(judge) == {}


def test_a_deserted_game_rates_nobody(tmp_path: Path) -> None:
    """H1: nobody sends anything for a whole phase of g1, the judge ends it deserted."""
    judge = PAYOLA.begin(Judge(tmp_path))
    judge.later(PAYOLA.hours + 1)
    judge.tick()
    with judge.db.transaction() as session:
        assert session.scalars(select(RatedGame)).all() == []
    assert table(judge) == {}


def test_the_ratings_rebuilt_from_the_records_are_those_kept_game_by_game(tmp_path: Path) -> None:
    """Payola's g1 conceded, then Machiavelli's m1 ended by its master after its first phase: Bob played
    both.  Rebuilding forgets every rating and rates both games again in the order they ended."""
    judge = conceded_to_france(Judge(tmp_path))
    MACHIAVELLI.first_played(judge)
    judge.terminate(GM, MACHIAVELLI.master)
    kept = table(judge)
    assert kept[BOB, ""][2] == 2 and kept[BOB, "payola"][2] == 1 and kept[BOB, "machiavelli"][2] == 1
    with judge.db.transaction() as session:
        assert ratings.rebuild(session) == 2
    assert table(judge) == kept


def test_get_rating_answers_ones_own_and_anothers_figures_in_words(tmp_path: Path) -> None:
    """Alice won g1: mu 28.269, sigma 8.207.  Her figure is 1000 + 40 * (28.269 - 3 * 8.207) = 1145.9, shown
    1146, provisional after one game."""
    judge = conceded_to_france(Judge(tmp_path))
    judge.send(ALICE, "GET RATING")
    assert judge.outcome_of("GET RATING") == ("info", None)
    said = judge.last_to(ALICE).body.splitlines()
    assert f"  your ratings on this judge ({ALICE}):" in said
    assert "    every kind: 1146 from 1 rated game, provisional" in said
    assert "    Payola Diplomacy: 1146 from 1 rated game, provisional" in said
    judge.send(BOB, f"GET RATING {ALICE}")
    said = judge.last_to(BOB).body.splitlines()
    assert f"  the ratings of {ALICE} on this judge:" in said
    assert "    every kind: 1146 from 1 rated game, provisional" in said


@pytest.mark.parametrize(("line", "words"), [
    ("GET RATING nobody@example.org", "no rated game yet"),
    ("GET RATING " + "a" * 4990 + "@example.org", "an address is at most 320 characters long"),
    ("GET RATING not-an-address", "is no mail address"),
    ("GET RATING a@example.org b@example.org", "expected GET RATING, or GET RATING followed by one address"),
])
def test_get_rating_of_an_unknown_or_unreadable_address_is_answered_in_words(
        tmp_path: Path, line: str, words: str) -> None:
    judge = Judge(tmp_path)
    judge.send(ALICE, line)
    assert words in " ".join(judge.last_to(ALICE).body.split())


def test_a_rating_gate_refuses_a_provisional_player_and_says_why(tmp_path: Path) -> None:
    judge = conceded_to_france(Judge(tmp_path))
    judge.confirmed(ALICE, BOB)
    judge.send(GM, "CREATE g2 gm-secret")
    judge.send(GM, "SIGNON MASTER@g2 gm-secret\nSET GATE RATING 1100")
    assert judge.outcome_of("SET GATE RATING 1100") == ("ok", None)
    judge.send(ALICE, "JOIN g2 alice-pw2")
    assert judge.outcome_of("JOIN g2 ****") == ("error", "ENTRY_GATE")
    assert "your rating is provisional (1146, from 1 rated game)" in judge.answer("JOIN g2 ****").message


@pytest.mark.parametrize("gate", ["-1", "1000000000", "12.5"])
def test_a_rating_gate_out_of_bounds_is_answered_in_words(tmp_path: Path, gate: str) -> None:
    judge = Judge(tmp_path)
    judge.send(GM, "CREATE g2 gm-secret")
    judge.send(GM, f"SIGNON MASTER@g2 gm-secret\nSET GATE RATING {gate}")
    answer = judge.answer(f"SET GATE RATING {gate}")
    assert answer.outcome == "error" and "SET GATE RATING n|OFF (a rating from 0 to 3000)" in (answer.message or "")


def test_the_hall_of_fame_shows_the_ratings_across_every_kind_and_in_each(tmp_path: Path) -> None:
    """After g1's concession: Alice 1146 (see above); Bob and Carol, mu 23.366 and sigma 8.207: figure
    1000 + 40 * (23.366 - 3 * 8.207) = 949.8, shown 950; each provisional."""
    judge = conceded_to_france(Judge(tmp_path, web=True))
    hall = read(web_root(judge.settings) / "halloffame.html")
    assert hall.heading("Ratings") and hall.heading("Every kind") and hall.heading("Payola Diplomacy")
    shown = [table for table in hall.tables if table and table[0] == ["Player", "Rating", "Rated games"]]
    assert len(shown) == 2 and shown[0] == shown[1]
    assert shown[0][1:] == [["alice", "1146 (provisional)", "1"], ["bob", "950 (provisional)", "1"],
                            ["carol", "950 (provisional)", "1"]]


def test_a_game_imported_with_an_earlier_end_is_rated_as_if_it_had_ended_here_then(tmp_path: Path) -> None:
    """g1 is conceded on one judge two days after its start; another judge plays m1 to its master's end
    three days after its start, then imports g1: the ratings are rebuilt with g1 first, and are those of
    a judge on which g1 ended before m1 (Bob played both: the order moves his overall rating)."""
    here = conceded_to_france(Judge(tmp_path / "here"))
    MACHIAVELLI.first_played(here)
    here.terminate(GM, MACHIAVELLI.master)
    first = conceded_to_france(Judge(tmp_path / "a"))
    with first.db.transaction() as session:
        record = json.loads(json.dumps(archive.export(session, first.settings, "g1")))
    other = MACHIAVELLI.first_played(Judge(tmp_path / "b"))
    other.terminate(GM, MACHIAVELLI.master)
    assert table(other)[BOB, ""][2] == 1
    importing.import_record(other.db, other.settings, record, other.now)
    assert table(other) == table(here)
    with other.db.transaction() as session:
        order = session.execute(select(Game.name).join(RatedGame, RatedGame.game_id == Game.id)
                                .order_by(RatedGame.ended_at)).scalars().all()
    assert order == ["g1", "m1"]


def test_judge_ratings_lists_the_figures_and_rebuilds_them_the_same(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    judge = conceded_to_france(Judge(tmp_path))
    kept = table(judge)
    assert main(["ratings", "--rebuild", "--data-dir", str(judge.settings.data_dir)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "ratings rebuilt from 1 finished game(s)"
    assert out[1].split() == ["1146?", "1", "game(s)", ALICE]
    assert out[-1] == "?: provisional, fewer than 5 rated games"
    assert table(judge) == kept


def test_nothing_of_a_running_game_moves_a_rating(tmp_path: Path) -> None:
    """g1's first phase played and its players' lines on their records: nobody is rated until it ends."""
    judge = PAYOLA.first_played(Judge(tmp_path))
    judge.send(ALICE, "GET RATING")
    assert table(judge) == {} and "no rated game yet" in " ".join(judge.last_to(ALICE).body.split())


def test_a_power_eliminated_is_placed_last_and_rated_so(tmp_path: Path) -> None:
    """g1 is put at a spring where England holds nothing (its centres and units gone), France 5 centres and
    Germany 3; its master ends it after that spring.  Places 1, 2, 3: France is above both (+1, 28.269),
    Germany above one and below one (0, 25.000), England below both (-1, 21.731)."""
    judge = start(Judge(tmp_path))
    teleport(judge, {"phase": "S1901M",
                     "units": {"FRANCE": ["A PAR", "A MAR", "F BRE"], "GERMANY": ["A MUN", "A BER", "F KIE"]},
                     "centers": {"FRANCE": ["PAR", "BRE", "MAR", "BEL", "SPA"], "GERMANY": ["MUN", "KIE", "BER"]}})
    judge.later(49)
    judge.tick()
    judge.terminate(GM, PAYOLA.master)
    rated = table(judge)
    assert rated[ALICE, ""][0] == pytest.approx(28.269, abs=0.001)
    assert rated[BOB, ""][0] == pytest.approx(25.0, abs=0.001)
    assert rated[CAROL, ""][0] == pytest.approx(21.731, abs=0.001)


def test_one_who_abandoned_a_seat_nobody_took_is_last_for_the_phases_after(tmp_path: Path) -> None:
    """g1, France Alice and Germany Bob, a seat abandoned at its first missed deadline: Bob sends nothing for
    S1901M and is declared abandoned when it closes; nobody takes Germany over; Alice's F1901M sheet, the only
    one due, closes it at once, and the game master ends the game.  Two phases were played, one after Bob
    left.  France and Germany hold 3 centres each: a shared place, no move for Alice (25.000); Bob takes half
    of it (0) and half of last place, below France: ``-1/2`` times 3.269, halved: 24.183."""
    judge = two_player_game(Judge(tmp_path))
    judge.send(GM, "SIGNON MASTER@g1 gm-secret\nSET SILENCE ON\nSET SILENCE EXTENSIONS 0\nSET SILENCE ABANDON 1")
    judge.send(ALICE, "SIGNON F@g1 alice-pw\n1 : A PAR H")
    judge.later(48)
    judge.tick()
    judge.send(ALICE, "SIGNON F@g1 alice-pw\n1 : A PAR H")
    judge.terminate(GM, "SIGNON MASTER@g1 gm-secret")
    rated = table(judge)
    assert rated[ALICE, ""][0] == pytest.approx(25.0, abs=0.001)
    assert rated[BOB, ""][0] == pytest.approx(24.183, abs=0.001)
