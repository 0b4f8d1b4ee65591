"""The current phase's row read once a transaction (`judge.service.hosting.host.current_phase`), and read again
whenever what it read may no longer hold: the phase moved on, the row was deleted, the transaction rolled back."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import event, select
from sqlalchemy.orm import Session

from judge.service.hosting import host
from judge.service.hosting.kinds import kind_of
from judge.store.models import Game, PhaseRow, Submission
from tests.support.auction import auction_judge, start_auction
from tests.support.harness import Judge


@contextmanager
def phase_reads(judge: Judge) -> Iterator[list[str]]:
    """The statements run meanwhile that read the phases' table."""
    read: list[str] = []

    def seen(_connection: Any, _cursor: Any, statement: str, *_: Any) -> None:
        if statement.lstrip().upper().startswith("SELECT") and "FROM phases" in statement:
            read.append(statement)

    event.listen(judge.db.engine, "before_cursor_execute", seen)
    try:
        yield read
    finally:
        event.remove(judge.db.engine, "before_cursor_execute", seen)


def moved_on(judge: Judge) -> Judge:
    """``judge``'s game g1 in its second phase, the first processed (a ROLLBACK may drop the second)."""
    judge.process("g1", force=True)
    return judge


def drop_current(session: Session, played: Game, current: PhaseRow) -> None:
    """Drop ``current`` as a ROLLBACK to the phase before drops it: the kind's records of it first."""
    previous, later = host.rollback_target(session, played, None)
    assert later == [current]
    kind_of(session, played).rolling_back(session, played, previous, later)
    host.drop_phase(session, played, current)


def game(session: Session) -> Game:
    found = session.scalar(select(Game).where(Game.name == "g1"))
    assert found is not None
    return found


def read_current(session: Session) -> tuple[Game, PhaseRow]:
    """Game g1 and its current phase's row, read in ``session``."""
    played = game(session)
    row = host.current_phase(session, played)
    assert row is not None
    return played, row


def test_the_current_phase_is_read_once_a_transaction(tmp_path: Path) -> None:
    judge = start_auction(auction_judge(tmp_path))
    with phase_reads(judge) as read, judge.db.transaction() as session:
        first = host.current_phase(session, game(session))
        assert first is not None and first.name == "L1"
        assert host.current_phase(session, game(session)) is first
        assert len(read) == 1
    with phase_reads(judge) as read, judge.db.transaction() as session:
        assert host.current_phase(session, game(session)) is not first  # each transaction reads its own
        assert len(read) == 1


def test_a_phase_opened_in_the_transaction_is_the_current_one(tmp_path: Path) -> None:
    judge = start_auction(auction_judge(tmp_path))
    with judge.db.transaction() as session:
        played, first = read_current(session)
        opened = host.open_phase(session, played, "L2", first.position, judge.now)
        assert host.current_phase(session, played) is opened


def test_the_current_phase_opened_again_in_its_own_name_is_its_new_row(tmp_path: Path) -> None:
    """`open_phase` deletes a row of the phase's name (a ROLLBACK's) before it adds its own."""
    judge = moved_on(start_auction(auction_judge(tmp_path)))
    with judge.db.transaction() as session:
        played, current = read_current(session)
        assert current.name == "L2"
        again = host.open_phase(session, played, current.name, current.position, judge.now)
        assert again is not current and host.current_phase(session, played) is again


def test_a_current_phase_deleted_in_the_transaction_is_read_again(tmp_path: Path) -> None:
    judge = moved_on(start_auction(auction_judge(tmp_path)))
    with judge.db.transaction() as session:
        played, current = read_current(session)
        drop_current(session, played, current)
        assert host.current_phase(session, played) is None


def test_a_savepoint_rolled_back_forgets_the_row_it_read(tmp_path: Path) -> None:
    judge = moved_on(start_auction(auction_judge(tmp_path)))
    with judge.db.transaction() as session:
        played, current = read_current(session)
        nested = session.begin_nested()
        drop_current(session, played, current)
        assert host.current_phase(session, played) is None
        nested.rollback()
        back = host.current_phase(session, played)
        assert back is not None and back.name == played.phase


def test_reading_the_current_phase_still_flushes_what_the_transaction_changed(tmp_path: Path) -> None:
    """The read flushed the session's changes, as any query does: a statement of the Core after it sees them."""
    judge = start_auction(auction_judge(tmp_path))
    with judge.db.transaction() as session:
        played = game(session)
        assert host.current_phase(session, played) is not None
        session.add(Submission(game_id=played.id, phase="L1", seat="Alice", kind="bid", text="BID 7", parsed={},
                               created_at=judge.now))
        assert host.current_phase(session, played) is not None
        table = Submission.__table__
        assert session.connection().scalar(select(table.c.text).where(table.c.seat == "Alice")) == "BID 7"
