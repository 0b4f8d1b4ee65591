"""An Exchange Payola game's board phases as the ``diplomacy`` package's saved game (``judge export
GAME --diplomacy``), read back by that package (the ``bench`` extra; skipped without it)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from judge.service.hosting import archive
from tests.service.every_kind import EXCHANGE
from tests.support.harness import Judge


def test_the_diplomacy_package_reads_an_exchange_game_back_with_its_board_phases(tmp_path: Path) -> None:
    """Exchange Payola's board phases only (not its stock's): after the winter of 1900 and a year
    in which the Exchange's CEO-less powers all hold (the game now in its Exchange phase, W1901X),
    the package's game has Spring and Fall 1901 with every unit's hold, and stands in Spring 1902
    on the starting board."""
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
    assert [phase["name"] for phase in record["phases"]] == ["W1900X", "S1901M", "F1901M", "W1901X"]
    game = diplomacy.from_saved_game_format(saved)
    history = game.get_phase_history()
    assert [str(phase.name) for phase in history] == ["S1901M", "F1901M"]
    for phase in history:
        assert "A PAR H" in phase.orders["FRANCE"] and len(phase.orders["RUSSIA"]) == 4
    assert game.get_current_phase() == "S1902M" and "A PAR" in game.get_units("FRANCE")


def test_in_its_exchange_phase_the_saved_game_ends_on_the_board_as_it_stands(tmp_path: Path) -> None:
    """The worked year of the rulings (section 3) played to its Exchange phase of Winter 1901: the
    saved game holds every board phase of 1901 (Spring and Fall movement, the Winter adjustments)
    and, as the phase the game is in, Spring 1902's board as it stands, with what 1901 did: Germany's
    army that went to Burgundy in the spring has taken Marseilles in the fall (3.4), and the builds
    of Winter 1901 stand (3.5: France's A PAR and F BRE, Germany's A BER, F KIE and A MUN)."""
    from tests.games.exchange.by_mail import exchange_game, send_as

    judge = exchange_game(Judge(tmp_path), "bourse", order=("ANN", "BOB", "CAT"))
    send_as(judge, "bourse", "ANN", "BID 6 FRANCE AT 5", "BID 2 GERMANY AT 3", "ELECT FRANCE ME", "ELECT GERMANY CAT")
    send_as(judge, "bourse", "BOB", "PRIORITY 2", "BID 5 FRANCE AT 5", "BID 5 GERMANY AT 4", "ELECT FRANCE ME",
            "ELECT GERMANY ME")
    send_as(judge, "bourse", "CAT", "PRIORITY 3", "BID 4 GERMANY AT 4", "BID 3 FRANCE AT 6", "ELECT GERMANY ME",
            "ELECT FRANCE ME")
    send_as(judge, "bourse", "ANN", "2 : A MUN - RUH")
    send_as(judge, "bourse", "BOB", "FOR FRANCE", "WORTH PAR 24 MAR 14 BRE 10", "ACCEPT F?", "0 : A PAR - PIC",
            "0 : A MAR - SPA", "0 : F BRE - MAO", "END")
    send_as(judge, "bourse", "CAT", "FOR GERMANY", "0 : F KIE - HOL", "0 : A BER - KIE", "3 : A MUN - BUR", "END")
    send_as(judge, "bourse", "ANN", "4 : A SPA - MAR")
    send_as(judge, "bourse", "BOB", "FOR FRANCE", "0 : A PIC - BEL", "0 : A SPA H", "0 : F MAO - POR", "END")
    send_as(judge, "bourse", "CAT", "FOR GERMANY", "5 : A BUR - MAR", "0 : F HOL H", "0 : A KIE - DEN", "5 : A SPA H",
            "END")
    send_as(judge, "bourse", "BOB", "FOR FRANCE", "BUILD A PAR", "BUILD F BRE", "END")
    send_as(judge, "bourse", "CAT", "FOR GERMANY", "BUILD A BER", "BUILD F KIE", "BUILD A MUN", "END")
    with judge.db.transaction() as session:
        saved = json.loads(json.dumps(archive.saved_game(session, "bourse")))
        record = archive.export(session, judge.settings, "bourse")
    assert record["game"]["phase"] == "W1901X"
    assert [phase["name"] for phase in saved["phases"]] == ["S1901M", "F1901M", "W1901A", "S1902M"]
    fall, now = saved["phases"][1], saved["phases"][-1]
    assert "A BUR" in fall["state"]["units"]["GERMANY"] and "A BUR - MAR" in fall["orders"]["GERMANY"]
    assert {"A MAR", "A BER", "F KIE", "A MUN"} <= set(now["state"]["units"]["GERMANY"])
    assert {"A PAR", "F BRE"} <= set(now["state"]["units"]["FRANCE"]) and now["orders"]["GERMANY"] == []


def test_before_its_first_spring_the_saved_game_is_the_board_it_starts_from(tmp_path: Path) -> None:
    """In the Exchange phase of Winter 1900, before any board phase: the saved game stands in Spring
    1901 on the starting board (France's A PAR, A MAR and F BRE), not empty."""
    judge = EXCHANGE.begin(Judge(tmp_path))
    with judge.db.transaction() as session:
        saved = archive.saved_game(session, "ex")
    assert [phase["name"] for phase in saved["phases"]] == ["S1901M"]
    assert sorted(saved["phases"][0]["state"]["units"]["FRANCE"]) == ["A MAR", "A PAR", "F BRE"]
