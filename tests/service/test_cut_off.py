"""A judge cut off from its PostgreSQL database: the server ends its sessions and frees what they
held (`judge.store.database.PG_SERVER`), and its own connections give up instead of hanging
(`PG_CLIENT`).  The cut itself (a link dropped between machines) needs root: bench/machines.py."""

from __future__ import annotations

import os

import pytest
from sqlalchemy import Engine, text
from sqlalchemy.exc import DBAPIError

from judge.service.incoming.handlers.mail import TOPIC_LOCKS, topic_lock
from judge.store.database import PG_CLIENT, PG_SERVER, make_engine, postgres_connect_args
from tests.support.harness import fresh_database_url
from tests.support.wait import wait_until

pytestmark = pytest.mark.skipif(not os.environ.get("JUDGE_TEST_DATABASE_URL"),
                                reason="a PostgreSQL server (JUDGE_TEST_DATABASE_URL)")
TAKE = text("SELECT pg_try_advisory_xact_lock(:space, :topic)")
GAME = {"space": TOPIC_LOCKS, "topic": topic_lock("game g1")}


def _engine(query: str = "") -> Engine:
    url = fresh_database_url(schema=False)
    assert url is not None
    return make_engine(url + query)


def test_a_judges_sessions_give_up_on_a_silent_machine_within_twenty_seconds() -> None:
    engine = _engine()
    with engine.connect() as connection:
        shown = {name: connection.scalar(text(f"SHOW {name}")) for name in PG_SERVER}
    engine.dispose()
    assert shown == {"tcp_keepalives_idle": "5", "tcp_keepalives_interval": "5", "tcp_keepalives_count": "3",
                     "tcp_user_timeout": "20000", "idle_in_transaction_session_timeout": "20s",
                     "lock_timeout": "2min", "statement_timeout": "5min"}
    # The judge's end: probes after 5 s of silence, every 5 s, 3 of them; unacknowledged data 20 s.
    assert PG_CLIENT["keepalives_idle"] + PG_CLIENT["keepalives_interval"] * PG_CLIENT["keepalives_count"] == 20
    assert PG_CLIENT["tcp_user_timeout"] == 20_000


def test_the_database_url_may_set_each_timeout_otherwise() -> None:
    args = postgres_connect_args("postgresql+psycopg://judge@db/judge?connect_timeout=3"
                                 "&options=-c%20idle_in_transaction_session_timeout%3D1s")
    assert "connect_timeout" not in args  # the URL's own, which the driver reads from it
    options = str(args["options"])
    assert options.endswith("-c idle_in_transaction_session_timeout=1s")  # last: it wins
    engine = _engine("?options=-c%20idle_in_transaction_session_timeout%3D1s")
    with engine.connect() as connection:
        assert connection.scalar(text("SHOW idle_in_transaction_session_timeout")) == "1s"
    engine.dispose()


def test_a_game_held_by_a_judge_that_stopped_talking_mid_transaction_is_freed_for_the_others() -> None:
    """A judge holds a game's advisory lock in an open transaction and falls silent (cut off, or
    stuck): the server rolls its transaction back after ``idle_in_transaction_session_timeout``
    (1 s here, 20 s by default), and another judge takes the game."""
    engine = _engine("?options=-c%20idle_in_transaction_session_timeout%3D1s")
    silent = engine.connect()
    silent.begin()
    assert silent.scalar(TAKE, GAME)
    with engine.connect() as other:
        assert not other.scalar(TAKE, GAME)  # held
        other.rollback()

        def taken() -> bool:
            got = bool(other.scalar(TAKE, GAME))
            other.rollback()
            return got

        wait_until(taken, "another judge taking the game held by the silent transaction", timeout=60.0)
    with pytest.raises(DBAPIError, match="idle-in-transaction timeout") as ended:  # its session is gone
        silent.scalar(text("SELECT 1"))
    assert ended.value.connection_invalidated  # the pool makes a new one, not this one again
    silent.invalidate()
    silent.close()
    engine.dispose()
