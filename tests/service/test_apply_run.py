"""Stored mail is applied several mails per transaction (`apply_run`): one commit for the run,
each mail in a savepoint, so one that fails is undone and quarantined alone."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import delete, event, select

from judge.games.payola import handlers as player_module
from judge.service.app import apply_stored, unapplied_mail
from judge.service.handlers import mail as mail_handler
from judge.service.handlers import receive
from judge.service.handlers.mail import apply_run
from judge.store.models import InboundMail, Submission
from tests.service.harness import Judge, raw_mail, two_player_game

GM = "gm@example.org"
ALICE, BOB = "alice@example.org", "bob@example.org"


@pytest.fixture
def judge(tmp_path: Path) -> Judge:
    return two_player_game(Judge(tmp_path))


def commits(judge: Judge) -> list[int]:
    """A list that grows by one at each commit of the judge's database."""
    seen: list[int] = []
    event.listen(judge.db.engine, "commit", lambda _connection: seen.append(1))
    return seen


def sheets(judge: Judge) -> list[tuple[str, str]]:
    with judge.db.transaction() as session:
        return [(s.power, s.text) for s in session.scalars(select(Submission).order_by(Submission.id))]


def test_a_run_of_mail_is_one_commit_and_a_failing_mail_in_it_is_undone_alone(
        judge: Judge, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: Any) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(player_module, "parse_acceptance", broken)
    ids = [receive(judge.db, raw_mail(BOB, "SIGNON G@g1 bob-pw\n3 : A MUN - RUH"), judge.now),
           receive(judge.db, raw_mail(ALICE, "SIGNON F@g1 alice-pw\n2 : A PAR - BUR\nACCEPT FG"), judge.now),
           receive(judge.db, raw_mail(ALICE, "SIGNON F@g1 alice-pw\n1 : A MAR - SPA"), judge.now)]
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
    assert apply_run(judge.db, judge.settings, ids, judge.now) == [(ids[0], "missing"), (ids[1], "done")]


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
