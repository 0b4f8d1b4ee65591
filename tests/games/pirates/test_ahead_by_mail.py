"""Lines for a later phase in Pirates' Proposal: none are kept.  A plan divides a package drawn only when its
Distribution Phase opens (P8), in a room a move may change then (P9), and a ballot votes on plans each player
learns only when the Voting Phase opens: written ahead, neither could be what the rules ask for.  So
``PHASE <later phase>`` says, as it always did, that the mail is meant for a phase to come, and none of its
lines is applied to the phase now or kept."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import select

from judge.store.models import AheadBlock
from tests.games.pirates.by_mail import FOUR, address, pirates_game
from tests.support.harness import Judge


def ahead(tmp_path: Path, *lines: str) -> Judge:
    """Ann's mail of ``lines`` in D1 of a match of four."""
    judge = pirates_game(Judge(tmp_path), FOUR)
    judge.send(address("Ann"), "SIGNON Ann@pp pw-ann\n" + "\n".join(lines))
    return judge


def kept(judge: Judge) -> list[str]:
    with judge.db.transaction() as session:
        return list(session.scalars(select(AheadBlock.phase)))


def test_P8_a_plan_for_a_later_distribution_phase_is_neither_applied_nor_kept(tmp_path: Path) -> None:
    judge = ahead(tmp_path, "PHASE D2", "PLAN ME 10")
    assert judge.outcome_of("PHASE D2") == ("ignored", "NOT_THE_PHASE")
    assert judge.outcome_of("PLAN ME 10") == ("ignored", "NOT_THE_PHASE")
    assert kept(judge) == []


def test_a_ballot_for_the_voting_phase_to_come_is_neither_applied_nor_kept(tmp_path: Path) -> None:
    judge = ahead(tmp_path, "PHASE V1", "VOTE YES ME")
    assert judge.outcome_of("PHASE V1") == ("ignored", "NOT_THE_PHASE")
    assert judge.outcome_of("VOTE YES ME") == ("ignored", "NOT_THE_PHASE")
    assert kept(judge) == []
