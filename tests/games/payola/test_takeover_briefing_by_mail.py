"""A takeover's briefing: what the new player of a power reads first, the board's map with it as
the start mail has it."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.harness import Judge, start_game

GM = "gm@example.org"
DAVE = "dave@example.org"


@pytest.mark.parametrize(("options", "said"), [
    ("", "The board is attached"),
    ("BLIND", "The board as Germany sees it is attached"),  # Tin Cup's rule: its own sight, fogged
])
def test_the_briefing_of_a_power_taken_over_carries_the_boards_map(tmp_path: Path, options: str, said: str) -> None:
    """Bob resigns Germany, the master opens it, Dave takes it over: his briefing, like the start mail,
    has the board as text and its map attached, of the phase now (in a blind game, as Germany sees it)."""
    judge = start_game(Judge(tmp_path, maps=True), "g1", options)
    judge.send("bob@example.org", "SIGNON G@g1 bob-pw\nRESIGN")
    judge.send(GM, "SIGNON MASTER@g1 gm-secret\nSET OPENING GERMANY")
    judge.new_mail()
    judge.send(DAVE, "TAKEOVER GERMANY@g1 dave-pw")
    [briefing] = [m for m in judge.new_mail() if m.subject == "g1: your briefing as Germany"]
    assert briefing.to == DAVE
    assert list(briefing.attachments) == ["g1-S1901M.png"]
    kind, data = briefing.attachments["g1-S1901M.png"]
    assert kind == "image/png" and data.startswith(b"\x89PNG")
    assert f"{said} unless you chose SET MAPS NONE; MAP draws it again at any time." in briefing.body
