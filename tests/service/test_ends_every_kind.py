"""How a finished game of every kind is kept for anyone to read: who shared its draw (each kind's
draw: Payola's DIAS, Exchange Payola's E34, Machiavelli's M64), who played each seat under the name
the pages give a player (never an address, nobody in an ANONYMOUS game), and each player's
placings in the hall of fame, which exist for every kind."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from judge.service.hosting import archive
from judge.store.models import Game
from judge.web.pages import web_root
from tests.service.every_kind import EXCHANGE, MACHIAVELLI, PAYOLA, TESTED, Kind
from tests.support.harness import Judge
from tests.support.people import GM
from tests.web.page import read_page as read

CLASSIC = ["Austria", "Florence", "France", "Milan", "Naples", "Papacy", "Turkey", "Venice"]
STANDARD = ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]


def public_record(judge: Judge, kind: Kind) -> dict[str, Any]:
    with judge.db.transaction() as session:
        game = session.scalars(select(Game).where(Game.name == kind.game)).one()
        return archive.public_record(session, game)


def first_phase_played(judge: Judge, kind: Kind) -> Judge:
    """``kind``'s game with its first phase played at its deadline (nobody sent anything), then a
    day more gone by."""
    kind.begin(judge)
    judge.later(kind.hours + 1)
    judge.tick()
    assert kind.phase(judge) == kind.second
    judge.later(24)
    return judge


def players(judge: Judge) -> dict[str, list[str]]:
    """The hall of fame's rows of placings, by the name shown: won, drawn, played, places."""
    hall = read(web_root(judge.settings) / "halloffame.html")
    return {row[0]: row[1:] for row in hall.table_with("Won")[1:]}


@pytest.mark.parametrize("kind", TESTED, ids=lambda kind: kind.name)
def test_every_kinds_finished_game_names_its_players_as_the_pages_do_and_places_them(
        tmp_path: Path, kind: Kind) -> None:
    """Each seat that has a player at the end is played by the part of its mailbox before the "@"
    (alice@example.org: alice), in the public record and the hall of fame; a dummy by nobody."""
    judge = first_phase_played(kind.judge(tmp_path, web=True), kind)
    judge.terminate(GM, kind.master)
    record = public_record(judge, kind)
    named = {seat.name: seat.address.partition("@")[0] for seat in kind.seats}
    assert {seat["seat"]: seat["played_by"] for seat in record["seats"]} == {
        seat["seat"]: named.get(seat["seat"]) for seat in record["seats"]}
    assert sorted(players(judge)) == sorted(named.values())
    assert all(row[:3] == ["0", "0", "1"] for row in players(judge).values())


def test_an_anonymous_game_names_and_places_nobody(tmp_path: Path) -> None:
    judge = Judge(tmp_path, web=True)
    judge.send(GM, "CREATE m9 gm-pw machiavelli ANONYMOUS")
    for country, name in (("Florence", "ann"), ("Milan", "bob"), ("Venice", "cy")):
        judge.send(f"{name}@example.org", f"JOIN m9 pw-{name} {country}")
    judge.send(GM, "SIGNON MASTER@m9 gm-pw\nSTART")
    judge.later(73)
    judge.tick()
    judge.terminate(GM, "SIGNON MASTER@m9 gm-pw")
    with judge.db.transaction() as session:
        game = session.scalars(select(Game).where(Game.name == "m9")).one()
        assert all(seat["played_by"] is None for seat in archive.public_record(session, game)["seats"])
    assert not any(table and "Won" in table[0] for table in read(web_root(judge.settings) / "halloffame.html").tables)


def test_M64_a_draw_of_eight_countries_records_every_survivor_as_drawn(tmp_path: Path) -> None:
    """The three players of m1 vote DRAW in SP1454C; the campaign closes with their votes standing:
    a draw among the eight surviving countries (the five dummies too, M64).  The record names the
    eight; the hall of fame gives each of the three players a draw, and shows who drew."""
    judge = first_phase_played(Judge(tmp_path, web=True), MACHIAVELLI)
    for seat in range(3):
        MACHIAVELLI.send(judge, seat, "VOTE DRAW")
    MACHIAVELLI.as_master(judge, "PROCESS")
    record = public_record(judge, MACHIAVELLI)
    assert record["game"]["winner"] is None and sorted(record["game"]["drawn"]) == CLASSIC
    assert {name: row[:3] for name, row in players(judge).items()} == {
        "ann": ["0", "1", "1"], "bob": ["0", "1", "1"], "cy": ["0", "1", "1"]}
    hall = read(web_root(judge.settings) / "halloffame.html")
    assert any(row[3].startswith("Draw: ") and "Naples" in row[3]
               for table in hall.tables if table and "Game" in table[0] for row in table[1:])


def test_a_payola_draw_records_every_surviving_power_as_drawn(tmp_path: Path) -> None:
    judge = first_phase_played(Judge(tmp_path, web=True), PAYOLA)
    for seat in range(3):
        PAYOLA.send(judge, seat, "VOTE DRAW")
    record = public_record(judge, PAYOLA)
    assert record["game"]["winner"] is None and record["game"]["drawn"] == STANDARD
    assert {row[1] for row in players(judge).values()} == {"1"}


def test_E34_an_exchange_draw_records_every_surviving_corporation_as_drawn(tmp_path: Path) -> None:
    """Exchange Payola's draw is of corporations, as its victory is a corporation's (E34): every
    investor is placed by E35, and none of them drew as a seat."""
    judge = first_phase_played(Judge(tmp_path, web=True), EXCHANGE)
    for seat in range(3):
        EXCHANGE.send(judge, seat, "VOTE DRAW")
    record = public_record(judge, EXCHANGE)
    assert record["game"]["winner"] is None and record["game"]["drawn"] == STANDARD
    assert {row[1] for row in players(judge).values()} == {"0"}
