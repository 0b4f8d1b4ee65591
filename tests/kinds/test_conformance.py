"""The kinds' conformance suite: every kind the judge hosts, and the minimal example kind of the tests
(`tests.kinds.auction`), played by mail through the real applier through what players expect of every
game — created, joined and started; an order sent; the phase processed; rolled back and processed
again, its results saying they replace the first ones; rolled back and forward; ended, and everything
its rules kept secret published to everyone with who played which seat.

What is common is the host's (`judge.service.hosting.course`), so the same test holds for every kind: a kind
that breaks it, or a host that stops doing it for one kind, fails here.  Each kind says only how it is
created, joined and signed on to, and what its first player sends (`tests.kinds.scripts.Script`);
the kinds are the registry's (`tests.kinds.registry.with_test_kinds`)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from sqlalchemy import func, select

from judge.service.operators.demo import run_demo
from judge.store.models import Game, Submission
from tests.kinds.registry import with_test_kinds
from tests.kinds.scripts import GAME, GM, KINDS, Script, address, master, send, started, state, to_players
from tests.support.harness import Judge


def test_a_game_of_every_kind_starts_and_every_player_is_told(tmp_path: Path, script: Script) -> None:
    judge = started(tmp_path, script)
    assert judge.outcome_of("START") == ("ok", None)
    assert state(judge)[0] == "active"
    assert set(to_players(script, judge.new_mail(), f"{GAME} starts")) == {name for name, _, _ in script.players}


def test_every_kind_takes_an_order_and_processes_its_phase_with_results_to_every_player(
        tmp_path: Path, script: Script) -> None:
    judge = started(tmp_path, script)
    first = script.players[0][0]
    lines = script.order(first, judge.last_to(address(first)))
    judge.send(address(first), "\n".join((script.signon(first), *lines)))
    assert [judge.outcome_of(line)[0] for line in lines] == ["ok"] * len(lines)
    phase = state(judge)[1]
    mails = master(judge, "PROCESS")
    assert judge.outcome_of("PROCESS") == ("ok", None)
    assert set(to_players(script, mails, f"{GAME} {phase} results")) == {name for name, _, _ in script.players}
    assert state(judge)[1] != phase


def test_every_kind_that_rolls_back_marks_the_results_sent_again_and_one_that_cannot_says_so(
        tmp_path: Path, script: Script) -> None:
    judge = started(tmp_path, script)
    phase = state(judge)[1]
    master(judge, "PROCESS")
    after = state(judge)
    told = master(judge, "ROLLBACK")
    if not script.rolls_back:
        assert judge.outcome_of("ROLLBACK") == ("error", "CANNOT_ROLL_BACK")
        assert state(judge) == after and [m.to for m in told] == [GM]  # nothing changed, nobody else told
        return
    assert judge.outcome_of("ROLLBACK") == ("ok", None)
    assert state(judge) == ("paused", phase)
    for name, _, _ in script.players:
        assert any(f"rolled the game back to {phase}" in m.body for m in told if m.to == address(name)), name
    again = to_players(script, master(judge, "PROCESS"), f"{GAME} {phase} results again, after a rollback")
    assert set(again) == {name for name, _, _ in script.players}
    assert all(f"These results replace the earlier results of {phase}" in m.body for m in again.values())
    assert state(judge)[0] == "active"


def test_every_kind_that_rolls_back_rolls_forward_as_it_was(tmp_path: Path, script: Script) -> None:
    if not script.rolls_back:
        pytest.skip(f"{script.kind} cannot be rolled back (the test above holds that it says so)")
    judge = started(tmp_path, script)
    phase = state(judge)[1]
    master(judge, "PROCESS")
    after = state(judge)[1]
    master(judge, "ROLLBACK")
    mails = master(judge, "ROLLFORWARD")
    assert judge.outcome_of("ROLLFORWARD") == ("ok", None)
    assert set(to_players(script, mails, f"{GAME} {phase} results again, after a rollback")) == {
        name for name, _, _ in script.players}
    assert state(judge) == ("active", after)
    master(judge, "ROLLFORWARD")
    assert judge.outcome_of("ROLLFORWARD") == ("error", "NO_ROLLBACK")


def test_every_kind_ends_with_everything_published_to_every_player_and_who_played_which_seat(
        tmp_path: Path, script: Script) -> None:
    judge = started(tmp_path, script)
    master(judge, "PROCESS")
    judge.new_mail()
    judge.terminate(GM, f"SIGNON MASTER@{GAME} gm-pw")
    ends = to_players(script, judge.new_mail(), f"{GAME} has ended")
    assert set(ends) == {name for name, _, _ in script.players}
    for name, end in ends.items():
        assert end.body.startswith(f"Game {GAME} has ended: the game master ended the game."), end.body
        assert re.search(r"^Who played which \w+:$", end.body, re.M), end.body
        assert address(script.players[0][0]) in end.body, name  # the players are told who played, by address
        assert "pw-" not in end.body and "gm-pw" not in end.body  # never a password
    assert state(judge) == ("finished", state(judge)[1])


def test_the_example_kind_reaches_the_host_through_its_api_alone() -> None:
    """The auction imports nothing of the judge but `judge.api` (and nothing of another kind): a kind is
    one folder on the host's API."""
    folder = Path(__file__).parent / "auction"
    imported = {node.module or "" for path in folder.rglob("*.py") for node in ast.walk(ast.parse(path.read_text()))
                if isinstance(node, ast.ImportFrom)}
    imported |= {alias.name for path in folder.rglob("*.py") for node in ast.walk(ast.parse(path.read_text()))
                 if isinstance(node, ast.Import) for alias in node.names}
    assert {name for name in imported if name.startswith("judge")} == {"judge"}  # `from judge import api`
    assert {name for name in imported if name.startswith("tests")} <= {"tests.kinds.auction"}


@pytest.mark.parametrize("kind", KINDS)
def test_every_kinds_demo_plays_to_its_end_by_smtp(kind: str, capsys: pytest.CaptureFixture[str]) -> None:
    """``judge demo <kind>``: a judge of its own, the kind's short game played against it over real SMTP."""
    assert run_demo(with_test_kinds(), kind=kind) == 0
    shown = capsys.readouterr().out
    assert "Traceback" not in shown and "The judge sent" in shown.splitlines()[-1]


def test_every_kind_that_closes_a_phase_early_waits_for_a_wait_and_one_that_never_does_says_so(
        tmp_path: Path, script: Script) -> None:
    """Every player sends; the first asked to WAIT: the phase stands until its deadline (or NOWAIT)."""
    judge = started(tmp_path, script)
    starts = {name: judge.last_to(address(name)) for name, _, _ in script.players}
    phase = state(judge)[1]
    first = script.players[0][0]
    send(judge, script, first, "WAIT", *script.order(first, starts[first]))
    if not script.closes_early:
        assert judge.outcome_of("WAIT") == ("error", "NEVER_EARLY")
        return
    assert judge.outcome_of("WAIT") == ("ok", "WAITING")
    for name, _, _ in script.players[1:]:
        send(judge, script, name, *script.order(name, starts[name]))
    assert state(judge) == ("active", phase)  # every player has sent: only the WAIT holds it
    send(judge, script, first, "NOWAIT")
    assert state(judge)[1] != phase


def test_every_kind_answers_a_mail_meant_for_a_phase_processed_already_and_applies_it_when_told(
        tmp_path: Path, script: Script) -> None:
    judge = started(tmp_path, script)
    first = script.players[0][0]
    lines = script.order(first, judge.last_to(address(first)))
    phase = state(judge)[1]
    master(judge, "PROCESS")
    now = state(judge)[1]
    send(judge, script, first, f"PHASE {phase}", *lines)
    assert [judge.outcome_of(line) for line in lines] == [("ignored", "LATE")] * len(lines)
    assert f"This mail was meant for {phase} of {GAME} (your line PHASE {phase}), which was processed" in (
        judge.last_to(address(first)).body)
    if script.kind == "pirates":
        return  # a Voting Phase follows a Distribution Phase: its orders are ballots, not plans
    send(judge, script, first, f"PHASE {now}", *lines)
    assert all(judge.outcome_of(line)[1] != "LATE" for line in lines)


def test_every_kind_reads_a_check_in_full_and_keeps_nothing_of_it(tmp_path: Path, script: Script) -> None:
    judge = started(tmp_path, script)
    first = script.players[0][0]
    lines = script.order(first, judge.last_to(address(first)))
    with judge.db.transaction() as session:
        before = session.scalar(select(func.count(Submission.id)))
    judge.new_mail()
    send(judge, script, first, "CHECK", *lines)
    assert [judge.outcome_of(line)[0] for line in lines] == ["ok"] * len(lines)
    assert [m.to for m in judge.new_mail()] == [address(first)]  # the reply alone
    with judge.db.transaction() as session:
        assert session.scalar(select(func.count(Submission.id))) == before


def test_the_game_master_sets_the_length_of_every_kinds_phases(tmp_path: Path, script: Script) -> None:
    """``SET <phase> hours`` for each of the kind's phases' lengths (`Phases.durations`), read by its grammar."""
    judge = started(tmp_path, script)
    kind = script.kinds().named(script.kind)
    lines = [f"SET {setting.upper()} 30" for setting in kind.durations]
    master(judge, *lines)
    assert [judge.outcome_of(line) for line in lines] == [("ok", None)] * len(lines)
    assert all(game_settings(judge)[setting] == 30.0 for setting in kind.durations)


def game_settings(judge: Judge) -> dict[str, object]:
    with judge.db.transaction() as session:
        return dict(session.scalars(select(Game).where(Game.name == GAME)).one().settings)


def test_every_kinds_status_begins_with_the_game_and_tells_the_master_who_is_still_to_act(
        tmp_path: Path, script: Script) -> None:
    """The first line of STATUS is the host's, the same in every kind; the game master's names the
    seats still to act (the first player has sent, the others have not)."""
    judge = started(tmp_path, script)
    first = script.players[0][0]
    send(judge, script, first, *script.order(first, judge.last_to(address(first))), "STATUS")
    phase = state(judge)[1]
    header = re.compile(rf"^  game {GAME}, active, phase {phase}( \(.+\))?, deadline 2026-\d\d-\d\d \d\d:\d\d UTC$",
                        re.M)
    assert header.search(judge.last_to(address(first)).body)
    mails = master(judge, "STATUS")
    told = next(m.body for m in mails if m.to == GM)
    assert header.search(told)
    others = [seat for name, _, seat in script.players[1:]]
    still = re.search(rf"^  still to act in {phase}: (.*)$", told, re.M)
    assert still is not None and {seat.casefold() for seat in others} <= {
        who.strip().casefold() for who in still.group(1).split(",")}
    assert script.players[0][2].casefold() not in still.group(1).casefold() or script.kind == "pirates"
