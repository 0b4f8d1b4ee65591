"""Stored mail is applied several mails per transaction (`apply_run`): one commit for the run,
each mail in a savepoint, so one that fails is undone and quarantined alone.  Played on the test kind's
auction g1 (`tests.support.auction`: Alice and Bob, 100 coins each, lot L1 on sale), but the reads a run
makes once, which are Payola's reads through the turn."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import delete, event, select

from judge.service.incoming.handlers import mail as mail_handler
from judge.service.incoming.handlers import receive
from judge.service.incoming.handlers.mail import apply_run
from judge.service.running.app import apply_stored, unapplied_mail
from judge.store.models import Game, InboundMail, Submission
from tests.kinds.auction import core
from tests.support.auction import auction_judge, start_auction
from tests.support.harness import Judge, raw_mail, two_player_game
from tests.support.people import GM

ALICE, BOB = "alice@example.org", "bob@example.org"


@pytest.fixture
def judge(tmp_path: Path) -> Judge:
    judge = start_auction(auction_judge(tmp_path))
    judge.new_mail()
    return judge


def commits(judge: Judge) -> list[int]:
    """A list that grows by one at each commit of the judge's database."""
    seen: list[int] = []
    event.listen(judge.db.engine, "commit", lambda _connection: seen.append(1))
    return seen


def sheets(judge: Judge) -> list[tuple[str, str]]:
    with judge.db.transaction() as session:
        return [(s.seat, s.text) for s in session.scalars(select(Submission).order_by(Submission.id))]


def test_a_run_of_mail_is_one_commit_and_a_failing_mail_in_it_is_undone_alone(
        judge: Judge, monkeypatch: pytest.MonkeyPatch) -> None:
    check = core.check_bid

    def broken(auction: core.Auction, seat: str, amount: int) -> str | None:
        if amount == 2:
            raise RuntimeError("boom")
        return check(auction, seat, amount)

    monkeypatch.setattr(core, "check_bid", broken)
    ids = [receive(judge.db, raw_mail(BOB, "SIGNON Bob@g1 bob-pw\nBID 3"), judge.now),
           receive(judge.db, raw_mail(ALICE, "SIGNON Alice@g1 alice-pw\nSTATUS\nBID 2"), judge.now),
           receive(judge.db, raw_mail(ALICE, "SIGNON Alice@g1 alice-pw\nBID 1"), judge.now)]
    mail_handler.Runs(judge.db, judge.settings).classify(judge.now)  # PostgreSQL: one commit of its own, for all
    seen = commits(judge)
    assert apply_run(judge.db, judge.settings, ids, judge.now) == [
        (ids[0], "done"), (ids[1], "quarantined"), (ids[2], "done")]
    assert len(seen) == 1
    assert [text for _, text in sheets(judge)] == ["3", "1"]  # not the failed one's
    judge.process("g1")  # delivers the outbox
    assert any(m.subject == f"Mail {ids[1]} quarantined" and m.to == GM for m in judge.new_mail())


def test_a_run_ends_after_run_mails_and_the_rest_waits(judge: Judge, monkeypatch: pytest.MonkeyPatch) -> None:
    ids = [receive(judge.db, raw_mail(BOB, f"SIGNON Bob@g1 bob-pw\nBID {n}"), judge.now) for n in (1, 2, 3)]
    monkeypatch.setattr(mail_handler, "RUN", 1)
    assert apply_run(judge.db, judge.settings, ids, judge.now) == [(ids[0], "done")]
    assert unapplied_mail(judge.db) == ids[1:]
    assert apply_stored(judge.db, judge.settings, judge.now) == [(ids[1], "done"), (ids[2], "done")]
    with judge.db.transaction() as session:
        assert set(session.scalars(select(InboundMail.status).where(InboundMail.id.in_(ids)))) == {"done"}


def test_a_duplicate_inside_one_run_is_found(judge: Judge) -> None:
    raw = raw_mail(BOB, "SIGNON Bob@g1 bob-pw\nBID 3", message_id="<twice@example.org>")
    ids = [receive(judge.db, raw, judge.now), receive(judge.db, raw, judge.now)]
    assert apply_run(judge.db, judge.settings, ids, judge.now) == [(ids[0], "done"), (ids[1], "duplicate")]


def test_a_mail_gone_from_the_database_before_its_run_is_settled_as_missing(judge: Judge) -> None:
    ids = [receive(judge.db, raw_mail(BOB, f"SIGNON Bob@g1 bob-pw\nBID {n}"), judge.now) for n in (1, 2)]
    with judge.db.transaction() as session:
        session.execute(delete(InboundMail).where(InboundMail.id == ids[0]))  # dropped by the operator meanwhile
    gone = [(ids[0], "missing")] if judge.db.engine.dialect.name == "sqlite" else []  # PostgreSQL: not listed
    assert apply_run(judge.db, judge.settings, ids, judge.now) == [*gone, (ids[1], "done")]
    assert unapplied_mail(judge.db) == []


def test_a_mail_that_cannot_even_be_read_is_quarantined_and_its_run_goes_on(
        judge: Judge, monkeypatch: pytest.MonkeyPatch) -> None:
    read = mail_handler.read_stored

    def unreadable(stored: mail_handler.Stored) -> mail_handler.Read:
        if b"BOOM" in stored.raw:
            raise RecursionError("a bug the mail found")
        return read(stored)

    monkeypatch.setattr(mail_handler, "read_stored", unreadable)
    ids = [receive(judge.db, raw_mail(BOB, "SIGNON Bob@g1 bob-pw\nBOOM"), judge.now),
           receive(judge.db, raw_mail(BOB, "SIGNON Bob@g1 bob-pw\nBID 2"), judge.now)]
    assert apply_run(judge.db, judge.settings, ids, judge.now) == [(ids[0], "quarantined"), (ids[1], "done")]


def statements(judge: Judge, *starts: str) -> dict[str, int]:
    """A dict that counts, as the judge's database runs them, the statements starting with each of ``starts``."""
    seen = dict.fromkeys(starts, 0)

    def count(_connection: Any, _cursor: Any, statement: str, *_: Any) -> None:
        for start in starts:
            if statement.startswith(start):
                seen[start] += 1

    event.listen(judge.db.engine, "before_cursor_execute", count)
    return seen


@pytest.fixture
def payola(tmp_path: Path) -> Judge:
    """Payola's g1 (`harness.two_player_game`), for the reads of a run: what a run reads once is what a kind reads
    through the turn (`Turn.seats`, `Turn.read_once`), as Payola does and the test kind does not."""
    return two_player_game(Judge(tmp_path))


READS = ("SELECT games.id", "SELECT players.id", "SELECT phases.id",  # a game's row, its seats, its phase,
         "SELECT phases.name")  # and its phases' names (which phase a mail was meant for: judge.service.incoming.late)


def test_a_run_reads_a_games_row_seats_and_phase_once_for_all_its_mails(payola: Judge) -> None:
    ids = [receive(payola.db, raw_mail(who, text), payola.now) for who, text in (
        (BOB, "SIGNON G@g1 bob-pw\n3 : A MUN - RUH"), (BOB, "SIGNON G@g1 bob-pw\n2 : A MUN - BUR"),
        (ALICE, "SIGNON F@g1 alice-pw\nACCEPT FG"))]
    seen = statements(payola, *READS)
    assert apply_run(payola.db, payola.settings, ids, payola.now) == [(i, "done") for i in ids]
    assert seen == dict.fromkeys(READS, 1)
    assert [text for _, text in sheets(payola)] == ["3 : A MUN - RUH", "2 : A MUN - BUR"]


def test_a_run_reads_a_phases_latest_submissions_once_and_sees_those_it_makes(payola: Judge) -> None:
    """Every sheet asks whether a later mail set the seat's sheet and whether the phase is now
    complete: the run reads the phase's latest submissions once, and each sheet it keeps is added
    to what it read, so the last power's sheet completes the phase inside the run."""
    ids = [receive(payola.db, raw_mail(who, text), payola.now) for who, text in (
        (ALICE, "SIGNON F@g1 alice-pw\n1 : A PAR - BUR"), (ALICE, "SIGNON F@g1 alice-pw\n2 : A PAR - PIC"),
        (BOB, "SIGNON G@g1 bob-pw\n1 : A MUN H"))]
    latest = "SELECT submissions.seat, submissions.kind, submissions.text, submissions.accepted_at"
    seen = statements(payola, latest)
    assert apply_run(payola.db, payola.settings, ids, payola.now) == [(i, "done") for i in ids]
    assert seen == {latest: 2}  # S1901M's, for all three mails; F1901M's once it opens (is it complete at once?)
    with payola.db.transaction() as session:
        assert session.scalar(select(Game.phase).where(Game.name == "g1")) == "F1901M"  # processed: complete
    assert [text for _, text in sheets(payola)] == ["1 : A PAR - BUR", "2 : A PAR - PIC", "1 : A MUN H"]


def test_a_refused_mail_in_a_run_has_the_next_mail_read_its_game_again(judge: Judge) -> None:
    """A refused sign-on's savepoint is rolled back, and with it the locks it took: what the run
    had read is read again (the game's row locked again) by the next mail."""
    ids = [receive(judge.db, raw_mail(who, text), judge.now) for who, text in (
        (BOB, "SIGNON Bob@g1 bob-pw\nBID 3"), ("eve@example.org", "SIGNON Bob@g1 guess\nBID 1"),
        (BOB, "SIGNON Bob@g1 bob-pw\nBID 2"))]
    seen = statements(judge, *READS)
    assert apply_run(judge.db, judge.settings, ids, judge.now) == [(i, "done") for i in ids]
    assert seen["SELECT games.id"] == 3  # the first mail's, the refusal's record of it, the third mail's
    assert [text for _, text in sheets(judge)] == ["3", "2"]


def test_a_phase_processed_again_inside_a_run_is_read_afresh(judge: Judge) -> None:
    """L1 processed, rolled back and processed again with other bids, all in one run: a bid for L2
    is read against the coins Alice has now, not those read before."""
    texts = [
        (ALICE, "SIGNON Alice@g1 alice-pw\nBID 60"),
        (BOB, "SIGNON Bob@g1 bob-pw\nBID 0"),  # completes L1: Alice buys lot 1 for 60, 40 coins left
        (ALICE, "SIGNON Alice@g1 alice-pw\nBID 50"),  # L2 read, with 40 coins: refused
        (GM, "SIGNON MASTER@g1 gm-secret\nROLLBACK"),
        (ALICE, "SIGNON Alice@g1 alice-pw\nBID 10"),  # L1's bid again
        (GM, "SIGNON MASTER@g1 gm-secret\nRESUME"),  # completes L1 again: Alice buys it for 10, 90 left
        (ALICE, "SIGNON Alice@g1 alice-pw\nBID 50"),  # legal only in the new L2
    ]
    ids = [receive(judge.db, raw_mail(who, text), judge.now) for who, text in texts]
    assert apply_run(judge.db, judge.settings, ids, judge.now) == [(i, "done") for i in ids]
    with judge.db.transaction() as session:
        latest = session.scalars(select(Submission).where(Submission.seat == "Alice", Submission.kind == "bid")
                                 .order_by(Submission.id.desc())).first()
        assert latest is not None and (latest.phase, latest.text) == ("L2", "50")
