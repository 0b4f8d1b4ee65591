"""Rule 4: acceptance lists."""

from __future__ import annotations

import pytest

from judge.payola.acceptance import AcceptanceError, default_list, expand_lists, parse_acceptance, phase_rng
from tests.payola.game import LETTERS


def test_rule_4_1_full_list_and_list_with_question_mark() -> None:
    assert str(parse_acceptance("ACCEPT EFGIART", LETTERS)) == "EFGIART"
    assert str(parse_acceptance("accept e, f g ?", LETTERS)) == "EFG?"
    assert str(parse_acceptance("?", LETTERS)) == "?"


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("ACCEPT EFG", "powers AIRT are missing: list every power or put one '?' for the rest"),
        ("ACCEPT EEFG?", "'E' appears more than once"),
        ("ACCEPT EF??", "'?' appears more than once"),
        ("ACCEPT EXG?", "'X' is not a power of this game"),
        ("ACCEPT", "an acceptance list needs the powers' initials"),
    ],
)
def test_rule_4_1_invalid_lists(text: str, error: str) -> None:
    with pytest.raises(AcceptanceError, match=error.replace("?", r"\?")):
        parse_acceptance(text, LETTERS)


def test_rule_4_2_default_list_is_own_letter_then_question_mark() -> None:
    assert str(default_list("G")) == "G?"
    lists = expand_lists({}, LETTERS, seed=3)
    assert all(order[0] == power and sorted(order) == sorted(LETTERS) for power, order in lists.items())


def test_ruling_7_question_mark_expansion_depends_only_on_seed_and_power() -> None:
    listed = parse_acceptance("ACCEPT E?T", LETTERS)
    first = listed.expand(LETTERS, phase_rng(42, "ENGLAND"))
    assert first == listed.expand(LETTERS, phase_rng(42, "ENGLAND"))
    assert first[0] == "ENGLAND" and first[-1] == "TURKEY" and len(set(first)) == 7
    shuffles = {listed.expand(LETTERS, phase_rng(s, "ENGLAND")) for s in range(20)}
    assert len(shuffles) > 1


def test_ruling_14_power_symbols_of_the_variant_boards_in_acceptance_lists() -> None:
    from judge.engine.map import load_map

    void = load_map("void").letters
    listed = parse_acceptance("ACCEPT +*09A?", void)
    assert str(listed) == "+*09A?"
    order = listed.expand(void, phase_rng(1, "YORKSHIRE"))
    assert order[:5] == ("W_MEDITERRANEAN_SEA", "YORKSHIRE", "PIEDMONT", "WALES", "ADRIATIC_SEA")
    assert sorted(order) == sorted(void)
    with pytest.raises(AcceptanceError, match="'M' is not a power of this game"):
        parse_acceptance("ACCEPT M?", void)  # M is the game master's (ruling 14)
    modern = load_map("modern").letters
    assert str(parse_acceptance("ACCEPT UBEFGIPRST", modern)) == "UBEFGIPRST"
    with pytest.raises(AcceptanceError, match="missing"):
        parse_acceptance("ACCEPT UBEFGIPRS", modern)


def test_ruling_14_power_symbols_of_the_big_boards_in_acceptance_lists() -> None:
    from judge.engine.map import load_map

    youngstown = load_map("youngstown").letters  # India is N: I is Italy's
    order = parse_acceptance("ACCEPT NI?", youngstown).expand(youngstown, phase_rng(1, "INDIA"))
    assert order[:2] == ("INDIA", "ITALY") and sorted(order) == sorted(youngstown)
    world = load_map("world").letters
    assert str(parse_acceptance("ACCEPT ZWUSRQPNLKIGFECBA", world)) == "ZWUSRQPNLKIGFECBA"
    with pytest.raises(AcceptanceError, match="power A is missing"):
        parse_acceptance("ACCEPT ZWUSRQPNLKIGFECB", world)
    known = load_map("known_world_901").letters
    assert parse_acceptance("ACCEPT XVN?", known).expand(known, phase_rng(2, "AXUM"))[:3] == (
        "AXUM", "SRIVIJAYA", "NEUTRAL_STATE")
    for board in ("youngstown", "empire", "world", "known_world_901"):
        with pytest.raises(AcceptanceError, match="'M' is not a power of this game"):
            parse_acceptance("ACCEPT M?", load_map(board).letters)
