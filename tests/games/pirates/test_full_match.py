"""Whole 14-player matches with random valid mails, from the start to the end."""

from __future__ import annotations

import random

import pytest

from judge.games.pirates.core.match import (
    GARNET_GOLD,
    PACKAGES,
    Submissions,
    close_phase,
    final_result,
    garnets_held,
    gold,
    open_phase,
    settle,
    start_match,
)
from judge.games.pirates.core.views import end_view, publication
from tests.games.pirates.match import FOURTEEN, play_match, send


@pytest.mark.parametrize("seed", range(12))
def test_a_whole_match_conserves_gold_every_round(seed: int) -> None:
    match = play_match(open_phase(start_match(FOURTEEN, seed, garnets=seed % 3), f"{seed}/D1"),
                       random.Random(seed), f"{seed}")
    spent = 0
    for round_ in match.rounds:
        settlement = settle(round_)
        garnets = sum(plan.garnets for plan in round_.plans)
        spent += garnets
        opened = sum(amount for _, amount in round_.packages)
        given = sum(amount for _, amount in settlement.receipts)
        assert given + settlement.destroyed == opened + GARNET_GOLD * garnets
        assert all(amount >= 0 for _, amount in settlement.receipts)
        for room in round_.rooms:
            for proposer in room:
                assert round_.plan(proposer).total == round_.package(proposer) + GARNET_GOLD * round_.plan(
                    proposer).garnets
                assert {m for m, _ in round_.plan(proposer).shares} == set(room)
                ballot = round_.ballot(proposer)
                assert sorted((*ballot.yes, *ballot.no)) == sorted(room)
        assert sorted(p for room in round_.rooms for p in room) == sorted(FOURTEEN)
    final = gold(match, 5)
    assert sum(final.values()) + sum(settle(r).destroyed for r in match.rounds) == 14 * sum(PACKAGES) + (
        GARNET_GOLD * spent)
    assert sum(garnets_held(match, p, 6) for p in FOURTEEN) == 14 * match.garnets - spent
    result = final_result(match)
    assert dict(result.gold) == final
    assert set(result.elimination_candidates) == {p for p in FOURTEEN if final[p] == min(final.values())}
    submissions = Submissions()
    if result.extra_token is not None:
        to = random.Random(seed).choice([p for p in FOURTEEN if p != result.extra_token])
        submissions = send(match, submissions, result.extra_token, f"GIVE TOKEN {to}")
    ended = close_phase(match, submissions, "F")
    assert ended.over and ended.token_to == submissions.token_to
    assert publication(ended).end == end_view(ended)
    assert [r.gold for r in publication(ended).rounds][-1] == tuple(final.items())

