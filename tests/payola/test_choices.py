"""What an offer sheet's form lists of a power's units (`judge.payola.choices`), on the standard board's
first position, worked out by hand: France's A MAR, A PAR and F BRE in spring 1901."""

from __future__ import annotations

from collections.abc import Sequence

from judge.engine.map import load_map
from judge.engine.position import Position
from judge.payola.choices import UNLISTED, unit_choices

START = Position.initial(load_map("standard"))


def one_a_note(unit: str, orders: Sequence[str]) -> list[str]:
    """Each order a note of its own: any unit of more than three orders is past the most."""
    return [f"{unit}: {order}" for order in orders]


def all_in_one(unit: str, orders: Sequence[str]) -> list[str]:
    return [f"{unit}: {', '.join(orders)}"]


def test_each_unit_in_order_with_its_hold_moves_supports_and_convoys_where_they_fit() -> None:
    units, notes = unit_choices(START, "FRANCE", all_in_one)
    assert units == ["A MAR", "A PAR", "F BRE"]
    assert notes == [
        "A MAR: H, - BUR, - GAS, - PIE, - SPA, S F BRE - GAS, S A MUN - BUR, S A PAR - BUR, S A PAR - GAS, "
        "S A VEN - PIE",
        "A PAR: H, - BRE, - BUR, - GAS, - PIC, S F BRE, S F BRE - GAS, S F BRE - PIC, S A MAR - BUR, "
        "S A MAR - GAS, S A MUN - BUR",
        "F BRE: H, - ENG, - GAS, - MAO, - PIC, S F LON - ENG, S A MAR - GAS, S A PAR - GAS, S A PAR - PIC",
    ]


def test_a_unit_past_the_most_notes_lists_its_hold_and_moves_alone_and_the_notes_say_so() -> None:
    units, notes = unit_choices(START, "FRANCE", one_a_note)
    assert units == ["A MAR", "A PAR", "F BRE"]
    assert [note for note in notes if note.startswith("A PAR")] == [
        "A PAR: H", "A PAR: - BRE", "A PAR: - BUR", "A PAR: - GAS", "A PAR: - PIC"]
    assert not any(" S " in note or ": S " in note or ": C " in note for note in notes)
    assert notes[-1] == UNLISTED
