"""An Exchange Payola game's board phases as the ``diplomacy`` package's saved game (``judge export
GAME --diplomacy``), read back by that package (the ``bench`` extra; skipped without it)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from judge.service import archive
from tests.service.every_kind import EXCHANGE
from tests.support.harness import Judge


def test_the_diplomacy_package_reads_an_exchange_game_back_with_its_board_phases(tmp_path: Path) -> None:
    """Exchange Payola's board phases only (not its stock's): after the winter of 1900 and a spring
    in which the Exchange's CEO-less powers all hold, the package's game has Spring 1901 with every
    unit's hold, and stands in Fall 1901 on the starting board."""
    diplomacy = pytest.importorskip("diplomacy.utils.export")
    judge = EXCHANGE.begin(Judge(tmp_path))
    for seat, line in enumerate(EXCHANGE.sent):
        EXCHANGE.send(judge, seat, line)
    judge.later(49)
    judge.tick()
    judge.later(49)
    judge.tick()
    with judge.db.transaction() as session:
        saved = json.loads(json.dumps(archive.saved_game(session, "ex")))
        record = archive.export(session, judge.settings, "ex")
    assert [phase["name"] for phase in record["phases"]][:3] == ["W1900X", "S1901M", "F1901M"]
    game = diplomacy.from_saved_game_format(saved)
    history = game.get_phase_history()
    assert [str(phase.name) for phase in history] == ["S1901M"]
    assert "A PAR H" in history[0].orders["FRANCE"] and len(history[0].orders["RUSSIA"]) == 4
    assert game.get_current_phase() == "F1901M" and "A PAR" in game.get_units("FRANCE")
