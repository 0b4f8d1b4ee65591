"""`judge orders`: every legal order of every unit, in canonical notation, in and out of process."""

from __future__ import annotations

import io
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

from judge.bootstrap import main
from judge.engine.legal import legal_orders
from judge.engine.map import load_map
from judge.engine.notation import position_to_data
from judge.engine.orders import Unit, UnitType
from judge.engine.position import Phase, PlacedUnit, Position
from judge.games.payola.cli import orders_data
from judge.service.operators.cli import run_json

M = load_map("standard")
START = position_to_data(Position.initial(M))


def listed(data: dict[str, Any]) -> dict[str, list[str]]:
    orders: dict[str, list[str]] = orders_data(data)["orders"]
    return orders


def test_spring_1901_every_unit_and_hand_counted_orders() -> None:
    orders = listed(START)
    assert len(orders) == 22 and sum(len(o) for o in orders.values()) == 238
    # Hold, moves, then supports by supported unit: A ROM's move to VEN, A VEN holding.
    assert orders["F TRI"] == [
        "F TRI H", "F TRI - ADR", "F TRI - ALB", "F TRI - VEN", "F TRI S A ROM - VEN", "F TRI S A VEN"
    ]
    assert orders["F STP/SC"] == [
        "F STP/SC H", "F STP/SC - BOT", "F STP/SC - FIN", "F STP/SC - LVN",
        "F STP/SC S A MOS - LVN", "F STP/SC S A WAR - LVN",
    ]
    assert sorted(orders["F LON"]) == sorted([
        "F LON H", "F LON - ENG", "F LON - NTH", "F LON - WAL", "F LON - YOR",
        "F LON S F BRE - ENG", "F LON S F EDI - NTH", "F LON S A LVP - WAL", "F LON S F EDI - YOR",
        "F LON S A LVP - YOR",
    ])
    assert len(orders["A PAR"]) == 11 and "A PAR S A MUN - BUR" in orders["A PAR"]
    # No fleet is at sea in 1901: no convoys, no moves by convoy.
    assert not any(" C " in o or "VIA CONVOY" in o for units in orders.values() for o in units)


def test_via_convoy_is_spelled_where_the_destination_is_adjacent_too() -> None:
    data = {"phase": "S1901M", "units": {"ENGLAND": ["A LON", "F NTH", "F ENG"]}}
    orders = listed(data)["A LON"]
    # YOR and WAL are next to LON: the land move and the move by convoy are different orders.
    assert {"A LON - YOR", "A LON - YOR VIA CONVOY", "A LON - WAL", "A LON - WAL VIA CONVOY"} <= set(orders)
    # NWY and BRE are reached only by convoy: both spellings mean the same move and both are listed.
    assert {"A LON - NWY", "A LON - NWY VIA CONVOY", "A LON - BRE", "A LON - BRE VIA CONVOY"} <= set(orders)
    assert "A LON - BUR VIA CONVOY" not in orders  # inland
    fleet = listed(data)["F NTH"]
    assert "F NTH C A LON - NWY" in fleet and "F NTH C A LON - BRE" not in fleet  # ENG alone carries it
    # 6.D.31: a fleet may support a convoyed move that does not need it, not one that does.
    assert "F NTH S A LON - BEL" in fleet and "F ENG S A LON - BEL" in listed(data)["F ENG"]
    alone = listed({"phase": "S1901M", "units": {"ENGLAND": ["A LON", "F NTH"]}})["F NTH"]
    assert "F NTH C A LON - BEL" in alone and "F NTH S A LON - BEL" not in alone


def test_retreat_and_adjustment_phases() -> None:
    retreat = {
        "phase": "F1901R",
        "units": {"GERMANY": ["A BEL", "A RUH"]},
        "dislodged": {"FRANCE": [{"unit": "A BEL", "attacker_from": "HOL"}]},
        "contested": ["PIC"],
    }
    assert orders_data(retreat) == {"orders": {"A BEL": ["A BEL - BUR", "A BEL D"]}}
    winter = {
        "phase": "W1901A",
        "units": {"FRANCE": ["A PAR", "A BUR"], "RUSSIA": ["A MOS"]},
        "centers": {"FRANCE": ["PAR"], "RUSSIA": ["MOS", "STP", "SEV"]},
    }
    out = orders_data(winter)
    assert out["orders"] == {"A BUR": ["REMOVE A BUR"], "A PAR": ["REMOVE A PAR"]}
    assert out["builds"] == {
        "RUSSIA": ["BUILD A SEV", "BUILD F SEV", "BUILD A STP", "BUILD F STP/NC", "BUILD F STP/SC", "WAIVE"]
    }


def random_position(rng: random.Random, count: int) -> Position:
    """Units on random provinces, fleets in most places where both types can stand (many convoys)."""
    places = sorted(p for p, prov in M.provinces.items() if prov.terrain.value != "impassable")
    units = []
    for province in rng.sample(places, count):
        fleets = M.fleet_locations(province)
        if fleets and (not M.army_can_stand(province) or rng.random() < 0.4):
            unit = Unit(UnitType.FLEET, rng.choice(fleets))
        else:
            unit = Unit(UnitType.ARMY, M.place(province))
        units.append(PlacedUnit(rng.choice(sorted(M.powers)), unit))
    return Position.build(M, Phase.parse("F1905M"), units, {})


def test_command_line_jsonl_gives_the_in_process_enumeration() -> None:
    rng = random.Random(5)
    positions = [random_position(rng, count) for count in (12, 24, 30, 34)]
    lines = "".join(json.dumps(position_to_data(p)) + "\n" for p in positions) + "{not json\n"
    proc = subprocess.run(
        [sys.executable, "-m", "judge", "orders", "--jsonl"],
        input=lines, capture_output=True, text=True, check=True,
    )
    answers = [json.loads(line) for line in proc.stdout.splitlines()]
    assert len(answers) == 5 and answers[4]["error"].startswith("malformed JSON")
    for position, answer in zip(positions, answers, strict=False):
        expected = {
            str(placed.unit): [str(o) for o in legal_orders(position, province)]
            for province, placed in sorted(position.units.items())
        }
        assert answer == {"orders": expected}
    assert any("VIA CONVOY" in o for answer in answers[:4] for unit in answer["orders"].values() for o in unit)


def test_one_object_and_errors(tmp_path: Path) -> None:
    source = tmp_path / "start.json"
    source.write_text(json.dumps(START))
    out = io.StringIO()
    with source.open() as handle:
        assert run_json(orders_data, handle, out, jsonl=False) == 0
    assert json.loads(out.getvalue()) == orders_data(START)
    out = io.StringIO()
    assert run_json(orders_data, io.StringIO(json.dumps({"phase": "S1901M", "units": {"FRANCE": ["A NTH"]}})), out,
                    jsonl=False) == 1
    assert json.loads(out.getvalue()) == {"error": "bad unit 'A NTH': an army cannot stand in NTH"}
    assert main(["orders", str(tmp_path / "missing.json")]) == 1
