"""Several judges (or a judge's several workers) share a deadline's games through claims: each
claim takes a game nobody holds, and a game another judge has locked is skipped, not waited
for; every game is processed once and every player's results mail written once, in phase
order, however the games fell to the judges."""

from __future__ import annotations

import dataclasses
import os
import signal
import socket
import subprocess
import sys
import threading
from collections import Counter
from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import select, update

from judge.service.claimants import claimant, gone
from judge.service.hosting.kinds import SESSION_KEY
from judge.service.outgoing.sender import deliver_pending, transport_for
from judge.service.running.app import (
    CLAIM,
    Claim,
    abandoned,
    claim_next,
    drain,
    due_now,
    next_due,
    process_game,
)
from judge.store.database import Database
from judge.store.models import Game
from tests.support.auction import auction_judge
from tests.support.harness import Judge, once

GAMES = 4


def player(game: int, seat: str) -> str:
    return f"{seat}{game}@example.org"


def _games(judge: Judge) -> None:
    for number in range(GAMES):
        judge.send("gm@example.org", f"CREATE g{number} gm-secret auction")
        for seat in ("alice", "bob"):
            judge.send(player(number, seat), f"JOIN g{number} {seat}-pw {seat.capitalize()}")
        judge.send("gm@example.org", f"SIGNON MASTER@g{number} gm-secret\nSTART")


@pytest.fixture
def judge(tmp_path: Path) -> Judge:
    judge = once(auction_judge(tmp_path, max_creates_per_day=GAMES, max_creates_per_hour=GAMES), _games)
    with judge.db.transaction() as session:
        assert len(session.scalars(select(Game).where(Game.state == "active")).all()) == GAMES
    return judge


def another_judge(judge: Judge) -> Database:
    """A connection of another judge to ``judge``'s database, hosting the same kinds."""
    return Database(judge.settings.database_url, {SESSION_KEY: judge.kinds})


def two_judges_drain(judge: Judge) -> list[str]:
    """Two judges, each with a connection of its own, drain the deadlines due now at once; what both ran."""
    ran: list[list[str]] = [[], []]

    def one(index: int) -> None:
        db = another_judge(judge)
        try:
            ran[index] = drain(db, judge.settings, judge.now)[0]
        finally:
            db.engine.dispose()

    threads = [threading.Thread(target=one, args=(index,)) for index in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    return ran[0] + ran[1]


def test_two_judges_draining_at_once_process_each_game_once_and_mail_each_player_once_in_phase_order(
        judge: Judge) -> None:
    judge.later(25)  # the first lot's deadline: nobody sent anything
    first = two_judges_drain(judge)
    judge.later(25)  # the second's
    second = two_judges_drain(judge)
    for ran, phase in ((first, "L1"), (second, "L2")):
        assert sorted(summary.split("; ")[0] for summary in ran) == [f"g{n} {phase} processed" for n in range(GAMES)]
    deliver_pending(judge.db, judge.settings, transport_for(judge.settings), judge.now)
    results = Counter((m.to, m.subject) for m in judge.all_mail() if m.subject.endswith(" results"))
    for number in range(GAMES):
        for seat in ("alice", "bob"):
            mine = [m.subject for m in judge.all_mail() if m.to == player(number, seat) and
                    m.subject.endswith(" results")]
            assert mine == [f"g{number} L1 results", f"g{number} L2 results"]
    assert set(results.values()) == {1}


def test_a_claim_takes_a_game_nobody_holds_and_a_dead_judges_claim_runs_out(judge: Judge) -> None:
    judge.later(25)
    claimed = [claim_next(judge.db, judge.now) for _ in range(GAMES)]
    assert sorted(claim.name for claim in claimed if claim) == [f"g{n}" for n in range(GAMES)]  # one each
    assert {claim.phase for claim in claimed if claim} == {"L1"}
    assert claim_next(judge.db, judge.now) is None  # every game held
    later = judge.now + CLAIM + timedelta(seconds=1)  # the judge that claimed them died
    assert claim_next(judge.db, later) == ("g0", "L1")


# A process of this machine that names itself as its claims do, then waits to be killed.
CLAIMANT = "import sys; from judge.service.claimants import claimant; print(claimant(), flush=True); sys.stdin.read()"


def a_claimant() -> tuple[subprocess.Popen[str], str]:
    """A short-lived process of this machine, alive until the test kills it, and how its claims name it."""
    process = subprocess.Popen([sys.executable, "-c", CLAIMANT], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               text=True)
    assert process.stdout is not None
    return process, process.stdout.readline().strip()


def hold(judge: Judge, by: dict[str, str]) -> None:
    """Claim each game named in ``by`` for ``CLAIM`` from now, in the name of the process given."""
    with judge.db.transaction() as session:
        for name, claimed_by in by.items():
            session.execute(update(Game).where(Game.name == name)
                            .values(claimed_until=judge.now + CLAIM, claimed_by=claimed_by))


def test_a_claim_of_a_process_killed_on_this_machine_is_taken_at_once_and_a_live_or_another_machines_is_not(
        judge: Judge) -> None:
    """A judge killed (kill -9) leaves its workers' claims for two minutes: the judge started again on the
    same machine takes them at once, and wakes for them (`next_due`); a live process's claim, this one's
    or another's, and another machine's (the killed process's id there) still wait until they run out."""
    judge.later(25)
    doomed, named = a_claimant()
    host, _, pid = named.partition(" pid ")
    assert host == socket.gethostname() and pid.startswith(f"{doomed.pid} started ")
    try:
        hold(judge, {"g0": named, "g1": claimant(), "g2": f"elsewhere.example pid {pid}"})
        assert claim_next(judge.db, judge.now) == ("g3", "L1")  # the one game nobody held
        assert claim_next(judge.db, judge.now) is None and not due_now(judge.db, judge.now)  # g0's process lives
        assert next_due(judge.db) == judge.now + CLAIM  # when the four claims run out
    finally:
        doomed.kill()
        doomed.wait()
    assert gone(named)
    assert next_due(judge.db) is not None and next_due(judge.db) <= judge.now  # g0 is due, and claimable now
    assert due_now(judge.db, judge.now)
    assert claim_next(judge.db, judge.now) == ("g0", "L1")
    with judge.db.transaction() as session:
        assert session.scalar(select(Game.claimed_by).where(Game.name == "g0")) == claimant()  # this process's now
    assert claim_next(judge.db, judge.now) is None  # g1 (alive) and g2 (another machine's) wait
    assert claim_next(judge.db, judge.now + CLAIM + timedelta(seconds=1), skip=["g0", "g3"]) == ("g1", "L1")


def test_judge_process_runs_a_game_whose_claim_names_a_process_that_has_ended_and_not_one_held_by_a_live_one(
        judge: Judge) -> None:
    judge.later(25)
    doomed, named = a_claimant()
    doomed.kill()
    doomed.wait()
    hold(judge, {"g0": named, "g1": claimant()})
    assert process_game(judge.db, judge.settings, "g1", judge.now) == "g1 is being processed elsewhere"
    assert process_game(judge.db, judge.settings, "g0", judge.now) == "g0 L1 processed; next L2"
    with judge.db.transaction() as session:
        assert session.execute(select(Game.claimed_until, Game.claimed_by).where(Game.name == "g0")).one() == (
            None, None)


def test_a_killed_process_its_parent_has_not_reaped_yet_has_ended_for_its_claims() -> None:
    """A judge's worker outlives its judge killed; once it ends, nothing may reap it (a container whose
    first process reaps no orphans): a zombie still has its id, and is ended all the same."""
    doomed, named = a_claimant()
    try:
        assert not gone(named)
        doomed.send_signal(signal.SIGKILL)
        os.waitid(os.P_PID, doomed.pid, os.WEXITED | os.WNOWAIT)  # ended, left unreaped: a zombie
        os.kill(doomed.pid, 0)  # its id is still taken
        assert gone(named)
    finally:
        doomed.kill()
        doomed.wait()
    assert gone(named)


def test_a_game_run_at_a_tick_is_not_claimed_again_at_that_tick(judge: Judge) -> None:
    judge.later(25)
    assert len(drain(judge.db, judge.settings, judge.now)[0]) == GAMES
    with judge.db.transaction() as session:  # the runs name no process: once their workers end, nobody takes them
        assert set(session.execute(select(Game.claimed_until, Game.claimed_by))) == {(judge.now, None)}
    with judge.db.transaction() as session:  # as if each game were due again at once (a phase with nothing to do)
        session.execute(update(Game).values(next_due=judge.now))
    assert claim_next(judge.db, judge.now) is None
    assert claim_next(judge.db, judge.now + timedelta(seconds=1)) is not None  # the next tick's


@pytest.mark.skipif(not os.environ.get("JUDGE_TEST_DATABASE_URL"),
                    reason="row locks that another judge holds: PostgreSQL (JUDGE_TEST_DATABASE_URL)")
def test_a_game_another_judge_has_locked_is_skipped_not_waited_for(judge: Judge) -> None:
    judge.later(25)
    other = another_judge(judge)
    found: list[Claim | None] = []
    try:
        with other.transaction() as session:  # the other judge is running g0's deadline at this moment
            session.execute(select(Game).where(Game.name == "g0").with_for_update())
            claiming = threading.Thread(target=lambda: found.append(claim_next(judge.db, judge.now)))
            claiming.start()
            claiming.join(20)
            assert not claiming.is_alive()  # not waiting for the other judge's lock
    finally:
        other.engine.dispose()
    assert [claim.name for claim in found if claim] == ["g1"]


def _costs(judge: Judge, **costs: float | None) -> None:
    with judge.db.transaction() as session:
        for name, cost in costs.items():
            session.execute(update(Game).where(Game.name == name).values(run_cost=cost))


def _due(judge: Judge, **after: timedelta) -> None:
    """Each game due ``after`` the start of a minute ten minutes ago."""
    minute = judge.now.replace(second=0, microsecond=0) - timedelta(minutes=10)
    with judge.db.transaction() as session:
        for name, offset in after.items():
            session.execute(update(Game).where(Game.name == name).values(next_due=minute + offset))


def _claimed(judge: Judge) -> list[str]:
    names = []
    while (claim := claim_next(judge.db, judge.now)) is not None:
        names.append(claim.name)
    return names


def test_of_the_games_due_in_a_minute_the_cheapest_for_each_player_is_claimed_first(judge: Judge) -> None:
    """Shortest job first within a minute: a game not measured yet, then by the cost of its run
    for each seat, whatever the second each fell due at; the order by name is gone."""
    judge.later(25)
    _due(judge, g0=timedelta(seconds=1), g1=timedelta(seconds=2), g2=timedelta(seconds=3), g3=timedelta(seconds=4))
    _costs(judge, g0=0.5, g1=0.1, g2=None, g3=0.3)
    assert _claimed(judge) == ["g2", "g1", "g3", "g0"]


def test_a_game_due_a_minute_earlier_is_claimed_before_a_cheaper_one(judge: Judge) -> None:
    judge.later(25)
    _due(judge, g0=timedelta(0), g1=timedelta(0), g2=timedelta(0), g3=-timedelta(minutes=1))
    _costs(judge, g0=0.2, g1=0.1, g2=0.3, g3=9.0)
    assert _claimed(judge) == ["g3", "g1", "g0", "g2"]


def test_a_run_that_processes_a_phase_keeps_its_cost_for_each_seat_and_a_run_that_does_not_keeps_none(
        judge: Judge, monkeypatch: pytest.MonkeyPatch) -> None:
    """The CPU a run took (0.6 s here, a clock that moves 0.6 s a reading) over its two seats."""
    readings = iter(0.6 * n for n in range(100))
    monkeypatch.setattr("judge.service.running.app.time.process_time", lambda: next(readings))
    judge.later(25)
    assert len(drain(judge.db, judge.settings, judge.now)[0]) == GAMES
    with judge.db.transaction() as session:
        assert list(session.scalars(select(Game.run_cost))) == pytest.approx([0.3] * GAMES)
    _costs(judge, g0=9.0)
    with judge.db.transaction() as session:  # due again with nothing to do: the phase stays
        session.execute(update(Game).values(next_due=judge.now + timedelta(seconds=1)))
    summaries = drain(judge.db, judge.settings, judge.now + timedelta(seconds=1))[0]
    assert summaries and all("is not due" in summary for summary in summaries)
    with judge.db.transaction() as session:
        assert session.scalar(select(Game.run_cost).where(Game.name == "g0")) == 9.0


def test_a_drain_stopped_after_a_run_still_keeps_that_runs_cost(judge: Judge, monkeypatch: pytest.MonkeyPatch) -> None:
    """A run's cost rides on the next claim; a drain told to stop makes no next claim and keeps
    it on its own."""
    readings = iter(0.6 * n for n in range(100))
    monkeypatch.setattr("judge.service.running.app.time.process_time", lambda: next(readings))
    judge.later(25)
    asked = iter([False, True])
    assert len(drain(judge.db, judge.settings, judge.now, stopping=lambda: next(asked))[0]) == 1
    with judge.db.transaction() as session:
        costs = list(session.scalars(select(Game.run_cost)))
    assert sorted(costs, key=lambda cost: cost is None) == [pytest.approx(0.3)] + [None] * (GAMES - 1)


def test_a_drain_writes_the_pages_once_every_game_it_can_claim_is_run(
        judge: Judge, monkeypatch: pytest.MonkeyPatch) -> None:
    """The pages are off the evening's path: each game's results are ready to go out before the
    first game's pages are written, and each game's pages are written once."""
    happened: list[str] = []
    monkeypatch.setattr("judge.service.running.app.game_pages",
                        lambda db, settings, name, players=True: happened.append(f"pages {name}"))
    judge.later(25)
    drain(judge.db, dataclasses.replace(judge.settings, web=True), judge.now,
          ready=lambda name, summary: happened.append(f"ready {name}"))
    ready = [event for event in happened if event.startswith("ready")]
    assert len(ready) == GAMES and happened[:GAMES] == ready
    assert sorted(happened[GAMES:]) == [f"pages g{n}" for n in range(GAMES)]


def test_a_run_left_unfinished_lets_its_claim_go_and_its_game_is_claimed_again_at_the_same_tick(judge: Judge) -> None:
    """Its worker was killed before the run committed: the game is claimed again at once and run once."""
    judge.later(25)
    claim = claim_next(judge.db, judge.now, only=["g1"])
    assert claim == ("g1", "L1") and claim_next(judge.db, judge.now, only=["g1"]) is None  # held
    summary = abandoned(judge.db, judge.settings, "g1", judge.now, "it was killed", again=False)
    assert summary.endswith("it is claimed again")
    assert claim_next(judge.db, judge.now, only=["g1"]) == ("g1", "L1")


def test_a_run_left_unfinished_after_its_commit_is_left_as_it_is(judge: Judge) -> None:
    """Its worker was killed drawing the maps: the phase is processed, and the claim the run ended stays ended."""
    judge.later(25)
    assert drain(judge.db, judge.settings, judge.now, only=["g1"])[0] == ["g1 L1 processed; next L2"]
    summary = abandoned(judge.db, judge.settings, "g1", judge.now, "it was killed", again=True)
    assert "after its change was committed" in summary
    with judge.db.transaction() as session:
        assert session.execute(select(Game.state, Game.phase).where(Game.name == "g1")).one() == ("active", "L2")
    assert claim_next(judge.db, judge.now, only=["g1"]) is None


def test_a_run_left_unfinished_twice_pauses_its_game_and_tells_its_master(judge: Judge) -> None:
    judge.later(25)
    claim_next(judge.db, judge.now, only=["g1"])
    summary = abandoned(judge.db, judge.settings, "g1", judge.now, "it was killed", again=True)
    assert summary.startswith("g1 paused: its deadline failed")
    with judge.db.transaction() as session:
        assert session.scalar(select(Game.state).where(Game.name == "g1")) == "paused"
    deliver_pending(judge.db, judge.settings, transport_for(judge.settings), judge.now)
    told = [mail.subject for mail in judge.all_mail() if mail.to == "gm@example.org"]
    assert "g1 paused: its deadline failed" in told


def test_a_claim_takes_only_the_games_asked_for_and_none_skipped(judge: Judge) -> None:
    judge.later(25)
    assert claim_next(judge.db, judge.now, skip=["g0", "g1", "g2"]) == ("g3", "L1")
    assert claim_next(judge.db, judge.now, skip=["g0", "g1", "g2"]) is None
    assert claim_next(judge.db, judge.now, only=["g1"]) == ("g1", "L1")
