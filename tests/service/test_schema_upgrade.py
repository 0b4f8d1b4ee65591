"""A judge's database of schema 0018 (the judge of 0.2: Payola's acceptance lists, votes, ledger
marks and ledger in the host's tables, a player's place called its ``power``) is upgraded in place
to revision 0019 (each kind's own tables, the host's ``seat``) when the newer judge opens it, and
play goes on as if nothing had happened.  ``fixtures/schema_0018.db`` was made by the judge of 0.2
(``fixtures/make_schema_0018.py``): Payola's ``g1`` in Fall 1902 and a Pirates' Proposal match in
round 2.

The money is worked out by hand from that history: each power's income on the standard board is
48 AgP a year at three centers (Russia 62 at four); France has had two incomes and Germany's transfer
of 5 and paid a 3 AgP bribe; Germany two incomes, less the transfer and a 4 AgP bribe."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from alembic import command
from sqlalchemy import create_engine, select, text

from judge.games.payola import lifecycle
from judge.store.database import SCHEMA, alembic_config, schema_version
from judge.store.models import Game
from tests.support.harness import Judge
from tests.support.upgrade import database_at

GM, ALICE, BOB = "gm@example.org", "alice@example.org", "bob@example.org"
MASTER = "SIGNON MASTER@g1 gm-secret\n"
AFTER = datetime(2026, 1, 10, 12, 0)  # the fixture's F1902M began on 9 January
BEFORE_1902 = {"AUSTRIA": 48, "ENGLAND": 48, "FRANCE": 48 + 5 - 3, "GERMANY": 48 - 5 - 4, "ITALY": 48,
               "RUSSIA": 62, "TURKEY": 48}
IN_1902 = {power: amount + (62 if power == "RUSSIA" else 48) for power, amount in BEFORE_1902.items()}


def upgraded(tmp_path: Path) -> Judge:
    """A judge on the fixture's database, which it upgrades as it opens it."""
    judge = Judge(tmp_path, now=AFTER, database=database_at(tmp_path, "0018"))
    judge.confirmed(GM, ALICE, BOB)
    return judge


def balances(judge: Judge, name: str = "g1") -> dict[str, int]:
    with judge.db.transaction() as session:
        return lifecycle.balances(session, session.scalars(select(Game).where(Game.name == name)).one())


def game_phase(judge: Judge, name: str) -> str | None:
    with judge.db.transaction() as session:
        return session.scalars(select(Game.phase).where(Game.name == name)).one()


def test_an_0018_database_opens_at_the_newest_schema_with_every_agp_where_it_was(tmp_path: Path) -> None:
    judge = upgraded(tmp_path)
    with judge.db.engine.connect() as connection:
        assert schema_version(connection) == SCHEMA
    assert balances(judge) == IN_1902


def test_acceptance_lists_and_the_secret_vote_survive_the_upgrade(tmp_path: Path) -> None:
    judge = upgraded(tmp_path)
    judge.send(ALICE, "SIGNON F@g1 alice-pw\nSTATUS")
    france = judge.last_to(ALICE).body
    assert "your acceptance list: EGFIART" in france
    assert "your vote (secret): for a draw including all survivors" in france
    judge.send(BOB, "SIGNON G@g1 bob-pw\nSTATUS")
    germany = judge.last_to(BOB).body
    assert "your acceptance list: GFEIART" in germany and "your vote (secret): none" in germany


def test_a_rollback_across_the_upgrade_restores_the_money_a_phase_of_before_started_with(tmp_path: Path) -> None:
    judge = upgraded(tmp_path)
    judge.send(GM, MASTER + "ROLLBACK")  # back to S1902M, processed before the upgrade
    assert game_phase(judge, "g1") == "S1902M"
    judge.send(GM, MASTER + "ROLLBACK")  # and to F1901M: 1902's income was paid as S1902M opened
    assert game_phase(judge, "g1") == "F1901M" and balances(judge) == BEFORE_1902
    judge.send(ALICE, "SIGNON F@g1 alice-pw\nSTATUS")
    assert "your acceptance list: EGFIART" in judge.last_to(ALICE).body  # as F1901M was processed with it
    judge.send(GM, MASTER + "RESUME")
    judge.later(49)
    judge.process("g1")
    assert game_phase(judge, "g1") == "S1902M" and balances(judge) == IN_1902
    assert "g1 F1901M results again, after a rollback" in {mail.subject for mail in judge.new_mail()}


def test_both_games_process_their_next_phase_after_the_upgrade(tmp_path: Path) -> None:
    judge = upgraded(tmp_path)
    judge.send(ALICE, "SIGNON F@g1 alice-pw\n2 : A BUR - MUN")  # the only offer to A BUR: it moves, France pays 2
    judge.later(49)
    judge.process("g1")
    assert game_phase(judge, "g1") == "W1902A"  # France took Munich, left empty since Spring 1901
    assert balances(judge) == {**IN_1902, "FRANCE": IN_1902["FRANCE"] - 2}
    assert {mail.to for mail in judge.new_mail() if mail.subject == "g1 F1902M results"} >= {ALICE, BOB}
    judge.send(GM, "SIGNON MASTER@pp gm-pw\nPROCESS")
    assert game_phase(judge, "pp") == "V2"


def test_the_upgrade_can_be_undone_with_every_list_vote_and_agp_back_in_the_old_columns(tmp_path: Path) -> None:
    judge = upgraded(tmp_path)
    url = judge.settings.database_url
    judge.db.engine.dispose()
    command.downgrade(alembic_config(url), "0018")
    engine = create_engine(url)
    with engine.connect() as connection:
        players = connection.execute(text("SELECT power, acceptance, vote FROM players WHERE game_id = 1")).all()
        money = dict(connection.execute(text("SELECT power, SUM(amount) FROM ledger GROUP BY power")).all())
    engine.dispose()
    assert ("FRANCE", "EGFIART", "DRAW") in players and ("GERMANY", "GFEIART", None) in players
    assert money == IN_1902
