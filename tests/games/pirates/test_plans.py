"""Plans and outcomes: P4 (the rules' Example), P5 (valid plans), P6 (the default plan), P7 (garnets)."""

from __future__ import annotations

from judge.games.pirates.core.match import (
    Plan,
    Submissions,
    close_phase,
    garnets_held,
    gold,
    open_phase,
    payout,
    settle,
)
from tests.games.pirates.match import match_in_round_1, phase, refusal, send

# The rules' Example: a 30-gold package in a room of seven, "Self" proposing.
EXAMPLE_ROOM = ("Self", "PlayerA", "PlayerB", "PlayerC", "PlayerD", "PlayerE", "PlayerF")
OTHER_ROOM = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus")
EXAMPLE_PLAN = "PLAN ME 7 PlayerA 3 PlayerB 7 PlayerC 2 PlayerD 3 PlayerE 4 PlayerF 4"


def example_match(packages: dict[str, int] | None = None, garnets: int = 0):  # type: ignore[no-untyped-def]
    chosen = {p: 10 for p in (*EXAMPLE_ROOM, *OTHER_ROOM)} | {"Self": 30} | (packages or {})
    return match_in_round_1(EXAMPLE_ROOM, OTHER_ROOM, chosen, garnets)


def example_votes(self_yes: tuple[str, ...]) -> dict[str, list[str]]:
    """Balanced ballots of the Example's room: the players in ``self_yes`` vote Yes on Self's plan,
    the others No, and every other plan (each keeping its 10-gold package) gets at least 4 Yes."""
    others = {"Self": "PlayerA PlayerB PlayerC", "PlayerA": "PlayerD PlayerE PlayerF",
              "PlayerD": "PlayerA PlayerB PlayerC", "PlayerB": "PlayerD PlayerE PlayerF PlayerA",
              "PlayerC": "PlayerD PlayerE PlayerF PlayerB", "PlayerE": "PlayerA PlayerB PlayerC PlayerD",
              "PlayerF": "PlayerC PlayerE PlayerF PlayerA"}
    if "PlayerB" in self_yes:
        others["PlayerB"] = "PlayerD PlayerE PlayerF"
    mails = {}
    for voter, yes in others.items():
        ayes = ([*yes.split(), "Self"] if voter in self_yes else yes.split())
        noes = [p for p in EXAMPLE_ROOM if p not in ayes]
        mails[voter] = [f"VOTE YES {' '.join(ayes)}", f"VOTE NO {' '.join(noes)}"]
    return mails


def play_example(self_yes: tuple[str, ...]):  # type: ignore[no-untyped-def]
    match = example_match()
    mails = {"Self": [EXAMPLE_PLAN]} | {p: ["PLAN ME 10"] for p in EXAMPLE_ROOM[1:]}
    match = phase(match, mails)
    return phase(match, example_votes(self_yes))


def test_P4_rules_example_three_yes_four_no_fails_and_each_of_the_six_others_gets_5() -> None:
    match = play_example(("Self", "PlayerA", "PlayerD"))
    outcome = settle(match.rounds[0]).outcome("Self")
    assert (outcome.yes, outcome.no, outcome.passed, outcome.total) == (3, 4, False, 30)
    after = gold(match, 1)
    assert after["Self"] == 0
    assert all(after[p] == 10 + 5 for p in EXAMPLE_ROOM[1:])  # their own kept 10, and 30 / 6
    round_ = match.rounds[0]
    assert payout(round_.plan("Self"), round_.room_of("Self"), passed=False) == (dict.fromkeys(EXAMPLE_ROOM[1:], 5)
                                                                              | {"Self": 0}, 0)


def test_P4_rules_example_with_one_more_yes_passes_and_everyone_gets_their_stated_gold() -> None:
    match = play_example(("Self", "PlayerA", "PlayerB", "PlayerD"))
    outcome = settle(match.rounds[0]).outcome("Self")
    assert (outcome.yes, outcome.no, outcome.passed) == (4, 3, True)
    after = gold(match, 1)
    assert after["Self"] == 7
    assert [after[p] - 10 for p in EXAMPLE_ROOM[1:]] == [3, 7, 2, 3, 4, 4]


def test_P4_a_tie_fails() -> None:
    # Rooms of 6 (12 players): 3 Yes and 3 No is not more Yes than No.
    first, second = EXAMPLE_ROOM[:6], OTHER_ROOM[:6]
    match = match_in_round_1(first, second, {p: 20 for p in (*first, *second)})
    match = phase(match, {"Self": ["PLAN ME 20"]})
    mails = {}
    for index, voter in enumerate(first):
        mails[voter] = ["VOTE YES Self " + " ".join(first[1:3]) if index < 3 else "VOTE YES " + " ".join(first[3:]),
                        "VOTE NO " + " ".join(first[3:]) if index < 3 else "VOTE NO Self " + " ".join(first[1:3])]
    match = phase(match, mails)
    outcome = settle(match.rounds[0]).outcome("Self")
    assert (outcome.yes, outcome.no, outcome.passed) == (3, 3, False)


def test_P6_default_plan_30_gold_in_a_room_of_7_gives_5_to_each_of_the_six_others_and_0_to_the_proposer() -> None:
    match = close_phase(example_match(), Submissions(), 0)
    assert match.rounds[0].plan("Self") == Plan("Self", tuple((p, 0 if p == "Self" else 5) for p in
                                                            sorted(EXAMPLE_ROOM, key=str.casefold)))
    assert "Self" in match.rounds[0].defaults


def test_P6_default_plan_40_gold_in_a_room_of_7_gives_6_to_each_other_and_the_remainder_4_to_the_proposer() -> None:
    match = close_phase(example_match({"Self": 40}), Submissions(), 0)
    shares = dict(match.rounds[0].plan("Self").shares)
    assert shares.pop("Self") == 4
    assert set(shares.values()) == {6} and len(shares) == 6


def test_P6_a_plan_equal_to_the_default_is_the_same_plan() -> None:
    sent = send(example_match(), Submissions(), "Self",
                "PLAN PlayerA 5 PlayerB 5 PlayerC 5 PlayerD 5 PlayerE 5 PlayerF 5")
    assert close_phase(example_match(), sent, 0).rounds[0].plans == close_phase(example_match(), Submissions(),
                                                                                0).rounds[0].plans


def test_P5_a_member_not_named_gets_nothing_and_keeping_everything_is_allowed() -> None:
    match = example_match()
    sent = send(match, Submissions(), "Self", "PLAN me 30")
    assert dict(sent.plans[0].shares) == dict.fromkeys(EXAMPLE_ROOM, 0) | {"Self": 30}
    sent = send(match, Submissions(), "Self", "plan playera 30")
    assert dict(sent.plans[0].shares) == dict.fromkeys(EXAMPLE_ROOM, 0) | {"PlayerA": 30}


def test_P5_a_plan_must_give_out_exactly_the_package() -> None:
    assert refusal(example_match(), "Self", "PLAN ME 20 PlayerA 13") == (
        "a plan must give out exactly 30 gold (the 30-gold package); yours gives 33")


def test_P5_a_plan_gives_only_to_members_of_the_proposers_room_each_once() -> None:
    match = example_match()
    assert refusal(match, "Self", "PLAN ME 20 Ann 10") == (
        "Ann is not in your room this round (your room: PlayerA, PlayerB, PlayerC, PlayerD, PlayerE, PlayerF, Self)")
    assert refusal(match, "Self", "PLAN ME 20 Zed 10") == "there is no player named Zed in this game"
    assert refusal(match, "Self", "PLAN ME 20 PlayerA 5 playera 5") == "the plan names PlayerA twice"
    assert refusal(match, "Self", "PLAN ME 20 Self 10") == "the plan names you twice"


def test_P5_a_refused_plan_leaves_the_last_valid_one_standing() -> None:
    match = example_match()
    first = send(match, Submissions(), "Self", "PLAN ME 30")
    later = refusal(match, "Self", "PLAN ME 31", submissions=first)
    assert later.startswith("a plan must give out exactly 30 gold")
    again = send(match, first, "Self", "PLAN PlayerA 30")
    assert dict(close_phase(match, again, 0).rounds[0].plan("Self").shares)["PlayerA"] == 30


def test_P5_P7_a_garnet_adds_5_gold_to_the_plan() -> None:
    match = example_match(garnets=1)
    sent = send(match, Submissions(), "Self", "PLAN ME 35", "GARNETS 1")
    assert sent.plans[0].garnets == 1 and sent.plans[0].total == 35
    assert refusal(match, "Self", "PLAN ME 33", "GARNETS 1") == (
        "a plan must give out exactly 35 gold (the 30-gold package and 1 garnet); yours gives 33")
    assert refusal(match, "Self", "PLAN ME 40", "GARNETS 2") == "you have 1 garnet; this plan spends 2"
    assert refusal(match, "Self", "GARNETS 1") == (
        "GARNETS goes with a PLAN line in the same mail: garnets are spent as part of a plan")


def test_P7_garnets_are_spent_when_the_phase_closes_with_the_plan_even_if_it_fails() -> None:
    match = example_match(garnets=1)
    match = phase(match, {"Self": ["PLAN ME 35", "GARNETS 1"]} | {p: ["PLAN ME 10"] for p in EXAMPLE_ROOM[1:]})
    assert garnets_held(match, "Self", 2) == 0
    assert garnets_held(match, "PlayerA", 2) == 1
    match = phase(match, example_votes(("Self", "PlayerA", "PlayerD")))  # fails, 3 Yes 4 No
    settlement = settle(match.rounds[0])
    assert not settlement.outcome("Self").passed
    after = gold(match, 1)
    assert [after[p] for p in EXAMPLE_ROOM] == [0, 15, 15, 15, 15, 15, 15]  # 35 // 6 = 5 each
    round_ = match.rounds[0]
    assert payout(round_.plan("Self"), round_.room_of("Self"), passed=False)[1] == 5  # 35 - 6 * 5 destroyed
    assert garnets_held(match, "Self", 2) == 0


def test_P7_a_plan_replaced_before_the_deadline_spends_nothing() -> None:
    match = example_match(garnets=1)
    sent = send(match, Submissions(), "Self", "PLAN ME 35", "GARNETS 1")
    sent = send(match, sent, "Self", "PLAN ME 30")
    assert garnets_held(open_phase(close_phase(match, sent, 0), 0), "Self", 2) == 1
