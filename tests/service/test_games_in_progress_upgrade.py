"""A judge's database of schema 0020 (the judge of 0.3, before the host ran every game's course), with a
game of every kind in the middle of a phase, is upgraded in place when the newer judge opens it, and each
game plays on: ``fixtures/schema_0020.db`` (made by ``fixtures/make_schema_0020.py`` with that judge) holds
a Payola, an Exchange and a Machiavelli game each paused by a ROLLBACK of its first phase, and a Pirates'
Proposal match in its first Voting Phase.

The ROLLBACKs' marks, which each kind kept its own way, are the host's after the upgrade (revision
0021): the phases rolled back are processed again with results that say they replace the first ones, and
ROLLFORWARD finds its marks.  The money is worked out by hand: France bribed A PAR - BUR for 5 of its 48
AgP in Spring 1901 (the first processing, rolled back, and the same again); Florence transferred 3 of its
15 ducats to Milan in the spring letters (rolled back, and not sent again: nothing is paid)."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path
from typing import Any

from alembic import command
from sqlalchemy import create_engine, select, text

from judge.games.payola import lifecycle
from judge.store.database import SCHEMA, alembic_config, schema_version
from judge.store.models import Game
from tests.support.harness import Judge, Sent
from tests.support.upgrade import database_at

GM = "gm@example.org"
AFTER = datetime(2026, 1, 7, 12, 0)  # the fixture was made on 5 and 6 January


def address(name: str) -> str:
    return f"{name.lower()}@example.org"


def upgraded(tmp_path: Path) -> Judge:
    judge = Judge(tmp_path, now=AFTER, database=database_at(tmp_path, "0020"))
    judge.confirmed(GM, *(address(name) for name in ("Alice", "Bob", "Ann", "Cat", "Flo", "Mil", "Cy", "Dee")))
    return judge


def master(judge: Judge, game: str, line: str) -> list[Sent]:
    judge.new_mail()
    judge.send(GM, f"SIGNON MASTER@{game} gm-pw\n{line}")
    return judge.new_mail()


def game_row(judge: Judge, name: str) -> tuple[str, str | None, dict[str, object]]:
    with judge.db.transaction() as session:
        game = session.scalars(select(Game).where(Game.name == name)).one()
        return game.state, game.phase, dict(game.settings)


def test_the_0020_database_opens_at_the_newest_schema_with_each_rollbacks_marks_the_hosts(tmp_path: Path) -> None:
    judge = upgraded(tmp_path)
    with judge.db.engine.connect() as connection:
        assert schema_version(connection) == SCHEMA
    for name, phase in (("pg", "S1901M"), ("ex", "W1900X"), ("mc", "SP1454A")):
        state, now, settings = game_row(judge, name)
        assert (state, now) == ("paused", phase), name
        assert isinstance(settings["rollback"], dict) and settings["rollback"]["phase"] == phase, name
        assert "rolled_back" not in settings, name


def test_a_payola_game_rolled_back_before_the_upgrade_is_processed_again_as_such(tmp_path: Path) -> None:
    judge = upgraded(tmp_path)
    mails = master(judge, "pg", "PROCESS")
    again = [m for m in mails if m.to == address("Alice") and m.subject == "pg S1901M results again, after a rollback"]
    assert len(again) == 1 and "These results replace the earlier results of S1901M, sent 2026-01-05" in again[0].body
    assert game_row(judge, "pg")[:2] == ("active", "F1901M")
    with judge.db.transaction() as session:
        game = session.scalars(select(Game).where(Game.name == "pg")).one()
        assert lifecycle.balances(session, game)["FRANCE"] == 48 - 5  # the sheet standing then stands again


def test_an_exchange_game_rolled_back_before_the_upgrade_rolls_forward(tmp_path: Path) -> None:
    judge = upgraded(tmp_path)
    mails = master(judge, "ex", "ROLLFORWARD")
    assert judge.outcome_of("ROLLFORWARD") == ("ok", None)
    assert {m.to for m in mails if m.subject == "ex W1900X results again, after a rollback"} >= {
        address("ANN"), address("BOB"), address("CAT")}
    assert game_row(judge, "ex")[:2] == ("active", "S1901M")


def test_a_machiavelli_game_rolled_back_before_the_upgrade_is_carried_out_again_as_such(tmp_path: Path) -> None:
    judge = upgraded(tmp_path)
    judge.send(address("Mil"), "SIGNON Milan@mc pw-mil\nSTATUS")
    assert "Your treasury: 15 ducats." in judge.last_to(address("Mil")).body  # Florence's 3 came back
    mails = master(judge, "mc", "PROCESS")
    assert {m.to for m in mails if m.subject == "mc SP1454A results again, after a rollback"} == {
        address("Flo"), address("Mil"), GM}
    assert game_row(judge, "mc")[:2] == ("active", "SP1454C")


def test_a_pirates_match_mid_round_plays_on(tmp_path: Path) -> None:
    judge = upgraded(tmp_path)
    master(judge, "pp", "PROCESS")
    assert judge.outcome_of("PROCESS") == ("ok", None)
    assert game_row(judge, "pp")[:2] == ("active", "D2")


def test_the_upgrade_can_be_undone_with_each_rollbacks_marks_where_its_kind_kept_them(tmp_path: Path) -> None:
    judge = upgraded(tmp_path)
    url = judge.settings.database_url
    judge.db.engine.dispose()
    command.downgrade(alembic_config(url), "0020")
    engine = create_engine(url)
    with engine.connect() as connection:
        kept = dict(connection.execute(text("SELECT name, settings FROM games")).all())
        payola = connection.execute(text("SELECT rollforward FROM payola_phases WHERE rollforward IS NOT NULL")).all()
    engine.dispose()
    machiavelli, marks = json_of(kept["mc"]), [json_of(row[0]) for row in payola]
    assert machiavelli["rolled_back"] == "SP1454A" and "rollback" not in machiavelli
    assert len(marks) == 1 and {"submission", "processed", "ledger", "acceptance"} <= set(marks[0])


def json_of(value: object) -> dict[str, Any]:
    """A JSON column's value as read by SQL: text on SQLite, already a dict on PostgreSQL."""
    found = json.loads(value) if isinstance(value, str) else value
    assert isinstance(found, dict)
    return found
