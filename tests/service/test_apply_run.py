"""Stored mail is applied several mails per transaction (`apply_run`): one commit for the run,
each mail in a savepoint, so one that fails is undone and quarantined alone."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import delete, event, select

from judge.games.payola import handlers as player_module
from judge.service.app import apply_stored, unapplied_mail
from judge.service.handlers import mail as mail_handler
from judge.service.handlers import receive
from judge.service.handlers.mail import apply_run
from judge.store.models import Game, InboundMail, Submission
from tests.support.harness import Judge, raw_mail
from tests.support.people import GM

ALICE, BOB = "alice@example.org", "bob@example.org"


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
    def broken(*args: Any) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(player_module, "parse_acceptance", broken)
    ids = [receive(judge.db, raw_mail(BOB, "SIGNON G@g1 bob-pw\n3 : A MUN - RUH"), judge.now),
           receive(judge.db, raw_mail(ALICE, "SIGNON F@g1 alice-pw\n2 : A PAR - BUR\nACCEPT FG"), judge.now),
           receive(judge.db, raw_mail(ALICE, "SIGNON F@g1 alice-pw\n1 : A MAR - SPA"), judge.now)]
    mail_handler.Runs(judge.db, judge.settings).classify(judge.now)  # PostgreSQL: one commit of its own, for all
    seen = commits(judge)
    assert apply_run(judge.db, judge.settings, ids, judge.now) == [
        (ids[0], "done"), (ids[1], "quarantined"), (ids[2], "done")]
    assert len(seen) == 1
    assert [text for _, text in sheets(judge)] == ["3 : A MUN - RUH", "1 : A MAR - SPA"]  # not the failed one's
    judge.process("g1")  # delivers the outbox
    assert any(m.subject == f"Mail {ids[1]} quarantined" and m.to == GM for m in judge.new_mail())


def test_a_run_ends_after_run_mails_and_the_rest_waits(judge: Judge, monkeypatch: pytest.MonkeyPatch) -> None:
    ids = [receive(judge.db, raw_mail(BOB, f"SIGNON G@g1 bob-pw\n{n} : A MUN - RUH"), judge.now) for n in (1, 2, 3)]
    monkeypatch.setattr(mail_handler, "RUN", 1)
    assert apply_run(judge.db, judge.settings, ids, judge.now) == [(ids[0], "done")]
    assert unapplied_mail(judge.db) == ids[1:]
    assert apply_stored(judge.db, judge.settings, judge.now) == [(ids[1], "done"), (ids[2], "done")]
    with judge.db.transaction() as session:
        assert set(session.scalars(select(InboundMail.status).where(InboundMail.id.in_(ids)))) == {"done"}


def test_a_duplicate_inside_one_run_is_found(judge: Judge) -> None:
    raw = raw_mail(BOB, "SIGNON G@g1 bob-pw\n3 : A MUN - RUH", message_id="<twice@example.org>")
    ids = [receive(judge.db, raw, judge.now), receive(judge.db, raw, judge.now)]
    assert apply_run(judge.db, judge.settings, ids, judge.now) == [(ids[0], "done"), (ids[1], "duplicate")]


def test_a_mail_gone_from_the_database_before_its_run_is_settled_as_missing(judge: Judge) -> None:
    ids = [receive(judge.db, raw_mail(BOB, f"SIGNON G@g1 bob-pw\n{n} : A MUN - RUH"), judge.now) for n in (1, 2)]
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
    ids = [receive(judge.db, raw_mail(BOB, "SIGNON G@g1 bob-pw\nBOOM"), judge.now),
           receive(judge.db, raw_mail(BOB, "SIGNON G@g1 bob-pw\n2 : A MUN - RUH"), judge.now)]
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


READS = ("SELECT games.id", "SELECT players.id", "SELECT phases.id",  # a game's row, its seats, its phase,
         "SELECT phases.name")  # and its phases' names (which phase a mail was meant for: judge.service.late)


def test_a_run_reads_a_games_row_seats_and_phase_once_for_all_its_mails(judge: Judge) -> None:
    ids = [receive(judge.db, raw_mail(who, text), judge.now) for who, text in (
        (BOB, "SIGNON G@g1 bob-pw\n3 : A MUN - RUH"), (BOB, "SIGNON G@g1 bob-pw\n2 : A MUN - BUR"),
        (ALICE, "SIGNON F@g1 alice-pw\nACCEPT FG"))]
    seen = statements(judge, *READS)
    assert apply_run(judge.db, judge.settings, ids, judge.now) == [(i, "done") for i in ids]
    assert seen == dict.fromkeys(READS, 1)
    assert [text for _, text in sheets(judge)] == ["3 : A MUN - RUH", "2 : A MUN - BUR"]


def test_a_run_reads_a_phases_latest_submissions_once_and_sees_those_it_makes(judge: Judge) -> None:
    """Every sheet asks whether a later mail set the seat's sheet and whether the phase is now
    complete: the run reads the phase's latest submissions once, and each sheet it keeps is added
    to what it read, so the last power's sheet completes the phase inside the run."""
    ids = [receive(judge.db, raw_mail(who, text), judge.now) for who, text in (
        (ALICE, "SIGNON F@g1 alice-pw\n1 : A PAR - BUR"), (ALICE, "SIGNON F@g1 alice-pw\n2 : A PAR - PIC"),
        (BOB, "SIGNON G@g1 bob-pw\n1 : A MUN H"))]
    latest = "SELECT submissions.seat, submissions.kind, submissions.text, submissions.accepted_at"
    seen = statements(judge, latest)
    assert apply_run(judge.db, judge.settings, ids, judge.now) == [(i, "done") for i in ids]
    assert seen == {latest: 2}  # S1901M's, for all three mails; F1901M's once it opens (is it complete at once?)
    with judge.db.transaction() as session:
        assert session.scalar(select(Game.phase).where(Game.name == "g1")) == "F1901M"  # processed: complete
    assert [text for _, text in sheets(judge)] == ["1 : A PAR - BUR", "2 : A PAR - PIC", "1 : A MUN H"]


def test_a_refused_mail_in_a_run_has_the_next_mail_read_its_game_again(judge: Judge) -> None:
    """A refused sign-on's savepoint is rolled back, and with it the locks it took: what the run
    had read is read again (the game's row locked again) by the next mail."""
    ids = [receive(judge.db, raw_mail(who, text), judge.now) for who, text in (
        (BOB, "SIGNON G@g1 bob-pw\n3 : A MUN - RUH"), ("eve@example.org", "SIGNON G@g1 guess\n1 : A MUN H"),
        (BOB, "SIGNON G@g1 bob-pw\n2 : A MUN - BUR"))]
    seen = statements(judge, *READS)
    assert apply_run(judge.db, judge.settings, ids, judge.now) == [(i, "done") for i in ids]
    assert seen["SELECT games.id"] == 3  # the first mail's, the refusal's record of it, the third mail's
    assert [text for _, text in sheets(judge)] == ["3 : A MUN - RUH", "2 : A MUN - BUR"]


def test_a_phase_processed_again_inside_a_run_is_read_afresh(judge: Judge) -> None:
    """S1901M processed, rolled back and processed again with other orders, all in one run:
    a sheet for F1901M is read against the position it has now, not the one read before."""
    texts = [
        (ALICE, "SIGNON F@g1 alice-pw\n1 : A PAR - BUR"),
        (BOB, "SIGNON G@g1 bob-pw\n1 : A MUN H"),  # completes S1901M: A PAR goes to BUR
        (ALICE, "SIGNON F@g1 alice-pw\n1 : A BUR - PIC"),  # F1901M read, with A BUR
        (GM, "SIGNON MASTER@g1 gm-secret\nROLLBACK\nRESUME"),
        (ALICE, "SIGNON F@g1 alice-pw\n1 : A PAR H"),  # completes S1901M again: A PAR stays
        (ALICE, "SIGNON F@g1 alice-pw\n1 : A PAR - PIC"),  # legal only in the new F1901M
    ]
    ids = [receive(judge.db, raw_mail(who, text), judge.now) for who, text in texts]
    assert apply_run(judge.db, judge.settings, ids, judge.now) == [(i, "done") for i in ids]
    with judge.db.transaction() as session:
        latest = session.scalars(select(Submission).where(Submission.seat == "FRANCE", Submission.kind == "sheet")
                                 .order_by(Submission.id.desc())).first()
        assert latest is not None and (latest.phase, latest.text) == ("F1901M", "1 : A PAR - PIC")
