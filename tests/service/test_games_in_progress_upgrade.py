"""A judge's database of schema 0020 (the judge of 0.3, before the host ran every game's course), with a
game of every kind in the middle of a phase, is upgraded in place when the newer judge opens it, and each
game plays on: ``fixtures/schema_0020.db`` (made by ``fixtures/make_schema_0020.py`` with that judge) holds
a Payola, an Exchange and a Machiavelli game each paused by a ROLLBACK of its first phase, and a Pirates'
Proposal match in its first Voting Phase.

The ROLLBACKs' marks, which each kind kept its own way, are the host's after the upgrade (revision
0021): the phases rolled back are processed again with results that say they replace the first ones, and
ROLLFORWARD finds its marks.  The money is worked out by hand: France bribed A PAR - BUR for 5 of its 48
AgP in Spring 1901 (the first processing, rolled back, and the same again); Florence transferred 3 of its
15 ducats to Milan in the spring letters (rolled back, and not sent again: nothing is paid).

The way back (docs/operators/upgrades.md): with each game played on and its maps mailed, ``judge db downgrade
--yes`` takes the schema back to 0.3's keeping every row 0.3 holds, and every migration walks down and up again."""

from __future__ import annotations

import json
import zlib
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from alembic.script import ScriptDirectory
from sqlalchemy import MetaData, create_engine, select, text

from judge.games.payola import lifecycle
from judge.store.database import SCHEMA, alembic_config, schema_version
from judge.store.models import Game, OutboxFile
from tests.support.cli import options, run
from tests.support.harness import Judge, Sent
from tests.support.upgrade import FIXTURES, database_at

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


def rows_of_the_old_schema(url: str) -> dict[str, list[tuple[object, ...]]]:
    """Every row of every table that schema 0020 has, with the columns it has (those of the fixture an 0.3
    judge made), each attachment's bytes as they are whether stored compressed or not: what the previous
    release holds, which the way back to it and forward again must keep."""
    old = MetaData()
    fixture = create_engine(f"sqlite:///{FIXTURES / 'schema_0020.db'}")
    old.reflect(fixture)
    fixture.dispose()
    now = MetaData()
    engine = create_engine(url)
    now.reflect(engine)
    found: dict[str, list[tuple[object, ...]]] = {}
    with engine.connect() as connection:
        for name, table in old.tables.items():
            if name == "alembic_version":
                continue
            columns = [now.tables[name].c[column.name] for column in table.c]
            encoded = "encoding" in now.tables[name].c
            read = connection.execute(select(*columns, now.tables[name].c.encoding) if encoded else select(*columns))
            found[name] = sorted((tuple(_plain(row, encoded, [c.name for c in columns])) for row in read), key=repr)
    engine.dispose()
    return found


def _plain(row: Any, encoded: bool, names: list[str]) -> list[object]:
    values = list(row)
    if encoded:  # a blob stored compressed (revision 0025): its bytes
        encoding = values.pop()
        if encoding == "zlib":
            values[names.index("data")] = zlib.decompress(values[names.index("data")])
    return [json_value(value) for value in values]


def json_value(value: object) -> object:
    """A JSON column's value compared as what it holds (SQLite's text, PostgreSQL's dict); other values as read."""
    if isinstance(value, str) and value[:1] in "{[":
        try:
            return json.loads(value)
        except ValueError:
            return value
    return value


def downgraded_by_the_command_line(judge: Judge, capsys: pytest.CaptureFixture[str], schema: str) -> None:
    """``judge db downgrade --yes`` again until ``judge db version`` says ``schema``, as upgrades.md says."""
    judge.db.engine.dispose()
    while f"schema {schema};" not in run(capsys, "db", "version", *options(judge))[1]:
        status, printed = run(capsys, "db", "downgrade", "--yes", *options(judge))
        assert status == 0, printed


def played_with_maps(tmp_path: Path) -> Judge:
    """The 0.3 judge's database upgraded, each of its games (one of every kind) played on with its maps mailed."""
    judge = Judge(tmp_path, now=AFTER, database=database_at(tmp_path, "0020"), maps=True)
    judge.confirmed(GM, *(address(name) for name in ("Alice", "Bob", "Ann", "Cat", "Flo", "Mil", "Cy", "Dee")))
    for game in ("pg", "ex", "mc", "pp"):
        line = "ROLLFORWARD" if game == "ex" else "PROCESS"
        master(judge, game, line)
        assert judge.outcome_of(line) == ("ok", None), game
    return judge


def test_the_way_back_to_0020_and_forward_again_keeps_every_game_and_mail_of_every_kind_with_its_maps(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The upgrade of 0.3's database, each game of every kind processed with its maps mailed, then the way back
    to 0.3's schema by the command line (on SQLite it failed at 0025: ``FOREIGN KEY constraint failed [SQL: DROP
    TABLE blobs]``, the blobs being copied anew under the mail that uses them), then forward again: every row
    0.3 holds is there each time, and a results mail sent before is sent again with its maps."""
    judge = played_with_maps(tmp_path)
    with judge.db.transaction() as session:
        mapped = session.scalars(select(OutboxFile.outbox_id).order_by(OutboxFile.id)).first()
    assert mapped is not None  # maps went out
    url = judge.settings.database_url
    before = rows_of_the_old_schema(url)
    downgraded_by_the_command_line(judge, capsys, "0020")
    assert rows_of_the_old_schema(url) == before
    status, printed = run(capsys, "db", "upgrade", *options(judge))
    assert (status, printed.strip()) == (0, f"database upgraded from 0020 to {SCHEMA}")
    assert rows_of_the_old_schema(url) == before
    sent = {attachment(part) for mail in judge.all_mail() for part in mail.message.iter_attachments()}
    again = Judge(tmp_path, now=AFTER, database=url, maps=True)
    again.all_mail()  # what went before
    status, printed = run(capsys, "resend", "--again", str(mapped), *options(again))
    assert status == 0, printed
    [resent] = again.new_mail()[-1:]
    maps = {attachment(part) for part in resent.message.iter_attachments()}
    assert maps and maps <= sent  # its maps, byte for byte


def attachment(part: Any) -> tuple[str, bytes]:
    return str(part.get_content_type()), bytes(part.get_payload(decode=True))


def test_every_migration_walks_down_and_up_again_by_the_command_line_with_games_of_every_kind_and_maps_sent(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    migrations = list(ScriptDirectory.from_config(alembic_config("sqlite://")).walk_revisions())
    judge = played_with_maps(tmp_path)
    judge.db.engine.dispose()
    said = []
    while (status := run(capsys, "db", "downgrade", "--yes", *options(judge)))[0] == 0:
        said.append(status[1].strip())
    walked = [line.split(";")[0] for line in said]
    assert walked[0] == f"database downgraded from {SCHEMA} to {int(SCHEMA) - 1:04}"
    assert walked[-1] == "database downgraded from 0001 to nothing" and len(walked) == len(migrations)
    assert said[-1].endswith("it holds no judge's tables now (a judge started on it makes them anew, empty)")
    status, printed = run(capsys, "db", "upgrade", *options(judge))
    assert (status, printed.strip()) == (0, f"database upgraded from nothing to {SCHEMA}")
