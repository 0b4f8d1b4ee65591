"""A Payola game's board history as the ``diplomacy`` package's saved game (``judge export GAME
--diplomacy``), read back by that package (the ``bench`` extra; skipped without it)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from judge.service.hosting import archive
from judge.service.hosting.archive import RecordError
from tests.games.payola.by_mail import ENGLAND, FRANCE, GERMANY, start
from tests.support.harness import Judge
from tests.support.people import ALICE, BOB, CAROL


def test_the_diplomacy_package_reads_a_payola_game_back_with_its_boards_and_orders(tmp_path: Path) -> None:
    """Spring 1901 of g1: France's A PAR - BUR and Germany's A MUN - RUH go ahead (nothing
    contests them), England's F LON - NTH too; the package's game, rebuilt from the saved game,
    has each phase of the judge in order, the orders as adjudicated, and the board after them
    with A BUR, A RUH and F NTH."""
    diplomacy = pytest.importorskip("diplomacy.utils.export")
    judge = start(Judge(tmp_path))
    judge.send(ALICE, FRANCE + "2 : A PAR - BUR")
    judge.send(BOB, GERMANY + "2 : A MUN - RUH")
    judge.send(CAROL, ENGLAND + "1 : F LON - NTH")
    judge.later(49)
    judge.tick()
    with judge.db.transaction() as session:
        saved = json.loads(json.dumps(archive.saved_game(session, "g1")))
    game = diplomacy.from_saved_game_format(saved)
    with judge.db.transaction() as session:
        record = archive.export(session, judge.settings, "g1")
    played = [phase["name"] for phase in record["phases"]]
    phases = game.get_phase_history()  # the processed phases; the open one is the game's current phase
    assert [str(phase.name) for phase in phases] == played[:-1] and played[0] == "S1901M"
    assert "A PAR - BUR" in phases[0].orders["FRANCE"] and "F LON - NTH" in phases[0].orders["ENGLAND"]
    assert game.get_current_phase() == played[-1] == record["game"]["phase"]
    assert {"A BUR", "A RUH"} <= set(game.get_units("FRANCE") + game.get_units("GERMANY"))
    assert "F NTH" in game.get_units("ENGLAND")


def test_a_kind_without_a_diplomacy_board_has_no_saved_game(tmp_path: Path) -> None:
    from tests.service.every_kind import PIRATES

    judge = PIRATES.begin(Judge(tmp_path))
    with judge.db.transaction() as session, pytest.raises(RecordError, match="no board history"):
        archive.saved_game(session, "pp")

