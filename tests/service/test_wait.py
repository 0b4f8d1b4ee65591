"""WAIT and NOWAIT, the host's for every kind whose phases may close before their deadline (Payola,
Exchange Payola's E29, Machiavelli's M60): a phase closes early only once every seat that can act
has sent and none waits; a WAIT holds it to its deadline, not through the grace period; NOWAIT
releases it; a WAIT is secret from the other seats, told to its seat and to the game master in
STATUS.  Pirates' Proposal's phases never close early (P10): WAIT is refused there, saying why.
Everything by mail, through the applier, the clock by `Judge.process` and `Judge.tick`."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.service.every_kind import EARLY, PIRATES, Kind
from tests.support.harness import Judge

early = pytest.mark.parametrize("kind", EARLY, ids=lambda kind: kind.name)


def everyone_sends(kind: Kind, judge: Judge, first: tuple[str, ...] = (), skip_last: bool = False) -> None:
    """Each seat sends its part of the first phase; the first seat ``first`` before it."""
    seats = range(len(kind.seats) - 1 if skip_last else len(kind.seats))
    for seat in seats:
        kind.send(judge, seat, *(first if seat == 0 else ()), kind.sent[seat])


@early
def test_a_wait_holds_the_phase_to_its_deadline_once_everyone_has_sent(tmp_path: Path, kind: Kind) -> None:
    judge = kind.begin(kind.judge(tmp_path))
    everyone_sends(kind, judge, first=("WAIT",))
    assert kind.phase(judge) == kind.first  # without the WAIT, the last seat's mail would have closed it
    judge.later(kind.hours - 1)
    judge.process(kind.game)  # an hour before the deadline
    assert kind.phase(judge) == kind.first
    judge.later(1)
    assert judge.process(kind.game).startswith(f"{kind.game} {kind.first} processed")
    assert kind.phase(judge) == kind.second


@early
def test_nowait_releases_the_phase_once_everyone_has_sent(tmp_path: Path, kind: Kind) -> None:
    judge = kind.begin(kind.judge(tmp_path))
    kind.send(judge, 0, "WAIT")
    assert judge.outcome_of("WAIT") == ("ok", "WAITING")
    everyone_sends(kind, judge)
    assert kind.phase(judge) == kind.first
    kind.send(judge, 0, "NOWAIT")
    assert judge.outcome_of("NOWAIT") == ("ok", "NOT_WAITING")
    assert kind.phase(judge) == kind.second  # closed by the NOWAIT's mail, days before its deadline


@early
def test_a_wait_holds_the_phase_to_its_deadline_not_through_the_grace_period(tmp_path: Path, kind: Kind) -> None:
    """With six hours' grace, the last seat's mail an hour after the deadline closes the phase at once,
    as it would without the WAIT: the grace is for the late, not for the one who waits."""
    judge = kind.begin(kind.judge(tmp_path))
    kind.as_master(judge, "SET GRACE 6")
    everyone_sends(kind, judge, first=("WAIT",), skip_last=True)
    judge.later(kind.hours + 1)
    kind.send(judge, len(kind.seats) - 1, kind.sent[-1])
    assert kind.phase(judge) == kind.second


@early
def test_a_wait_is_told_to_its_seat_and_the_game_master_and_to_no_other_seat(tmp_path: Path, kind: Kind) -> None:
    judge = kind.begin(kind.judge(tmp_path))
    before = kind.send(judge, 1, "STATUS").body
    own = kind.send(judge, 0, "WAIT", "STATUS").body
    after = kind.send(judge, 1, "STATUS").body
    master = kind.as_master(judge, "STATUS").body
    assert after == before and "WAIT" not in after
    assert f"you asked {kind.first} to WAIT for its deadline" in own
    assert f"asking {kind.first} to WAIT for its deadline: {kind.seats[0].title}" in master
    kind.send(judge, 0, "NOWAIT")
    assert f"asking {kind.first} to WAIT for its deadline: nobody" in kind.as_master(judge, "STATUS").body


def test_wait_is_refused_where_no_phase_closes_before_its_deadline(tmp_path: Path) -> None:
    judge = PIRATES.begin(Judge(tmp_path))
    PIRATES.send(judge, 0, "WAIT")
    assert judge.outcome_of("WAIT") == ("error", "NEVER_EARLY")
    assert "WAIT" not in PIRATES.as_master(judge, "STATUS").body
