"""`judge adjudicate`: the README example, chaining phases, batches, and clear errors."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from judge.bootstrap import main
from judge.games.payola.cli import adjudicate_data
from judge.service.operators.cli import run_json

EXAMPLE = Path(__file__).parent / "examples" / "s1901m.json"


def results(data: dict[str, Any]) -> dict[str, tuple[str, str | None]]:
    return {r["order"]: (r["result"], r["reason"]) for r in data["results"]}


def test_readme_example() -> None:
    out = adjudicate_data(json.loads(EXAMPLE.read_text()))
    assert results(out) == {
        "F LON - ENG": ("fails", "bounce"),  # 1 against 1 with F BRE
        "F EDI - NTH": ("succeeds", None),
        "A LVP - YOR": ("succeeds", None),
        "F BRE - ENG": ("fails", "bounce"),
        "A PAR - BUR": ("succeeds", None),  # 2 (MAR supports) against 1 from MUN
        "A MAR S A PAR - BUR": ("succeeds", None),
        "F KIE - HOL": ("succeeds", None),
        "A BER - KIE": ("succeeds", None),  # KIE is vacated
        "A MUN - BUR": ("fails", "bounce"),
    }
    assert out["units"]["GERMANY"] == ["A KIE", "A MUN", "F HOL"]
    assert out["next_phase"] == "F1901M" and out["winner"] is None and out["dislodged"] == {}


def test_output_with_new_orders_is_the_next_phase_input() -> None:
    spring = adjudicate_data(json.loads(EXAMPLE.read_text()))
    spring["orders"] = {"GERMANY": ["F HOL H"], "FRANCE": ["A BUR - BEL"]}
    fall = adjudicate_data(spring)
    assert fall["phase"] == "F1901M"
    assert "HOL" in fall["centers"]["GERMANY"] and "BEL" in fall["centers"]["FRANCE"]
    assert fall["next_phase"] == "W1901A"


def test_retreat_phase_input_and_output() -> None:
    data = {
        "phase": "S1901R",
        "units": {"GERMANY": ["A HOL"]},
        "dislodged": {"FRANCE": [{"unit": "A BEL", "attacker_from": "HOL"}]},
        "contested": ["PIC"],
        "orders": {"FRANCE": ["A BEL - BUR"]},
    }
    out = adjudicate_data(data)
    assert results(out) == {"A BEL - BUR": ("succeeds", None)}
    assert out["units"]["FRANCE"] == ["A BUR"] and out["next_phase"] == "F1901M"


def test_movement_output_lists_dislodged_units_with_their_retreats() -> None:
    data = {
        "phase": "S1901M",
        "units": {"GERMANY": ["A HOL", "A RUH"], "FRANCE": ["A BEL"], "ENGLAND": ["A PIC", "A BUR"]},
        "orders": {"GERMANY": ["A HOL - BEL", "A RUH S A HOL - BEL"], "ENGLAND": ["A PIC - BUR"]},
    }
    out = adjudicate_data(data)
    # BEL's neighbours BUR HOL PIC RUH: HOL is the attacker's origin, the rest are occupied.
    assert out["dislodged"] == {"FRANCE": [{"unit": "A BEL", "attacker_from": "HOL", "retreats": []}]}
    assert "FRANCE" not in out["units"]  # dislodged units appear only under "dislodged" (ruling 11)
    assert out["next_phase"] == "S1901R"


def test_bad_orders_are_reported_invalid_with_the_reason() -> None:
    data = {"phase": "S1901M", "units": {"FRANCE": ["A PAR"]},
            "orders": {"FRANCE": ["A PAR - XYZ", "A MAR - BUR", "A PAR - MUN"]}}
    out = adjudicate_data(data)
    assert [(r["result"], r["reason"]) for r in out["results"]] == [
        ("invalid", "unreadable"), ("invalid", "illegal"), ("invalid", "illegal")
    ]
    assert "unknown province 'XYZ'" in out["results"][0]["detail"]
    assert out["results"][1]["detail"] == "there is no unit there"
    assert out["units"]["FRANCE"] == ["A PAR"]  # the unit held


def test_jsonl_batch_goes_on_after_bad_lines() -> None:
    good = json.dumps({"phase": "S1901M", "units": {"FRANCE": ["A PAR"]}, "orders": {"FRANCE": ["A PAR - BUR"]}})
    lines = [good, "{not json", json.dumps({"phase": "S1901M", "units": {"FRANCE": ["A XYZ"]}}), good]
    out = io.StringIO()
    assert run_json(adjudicate_data, io.StringIO("\n".join(lines) + "\n"), out, jsonl=True) == 0
    answers = [json.loads(line) for line in out.getvalue().splitlines()]
    assert len(answers) == 4
    assert answers[0]["units"] == {"FRANCE": ["A BUR"]} == answers[3]["units"]
    assert answers[1]["error"].startswith("malformed JSON")
    assert answers[2] == {"error": "bad unit 'A XYZ': unknown province 'XYZ'"}


def test_input_errors_are_clear() -> None:
    def error(data: object) -> str:
        out = io.StringIO()
        assert run_json(adjudicate_data, io.StringIO(json.dumps(data)), out, jsonl=False) == 1
        return str(json.loads(out.getvalue())["error"])

    assert error({"units": {}}) == "'phase' is required, e.g. \"S1901M\""
    assert error({"phase": "S1901X"}).startswith("bad phase 'S1901X'")
    assert error({"phase": "S1901M", "units": {"PRUSSIA": ["A BER"]}}).startswith("unknown power 'PRUSSIA'")
    assert error({"phase": "S1901M", "units": {"FRANCE": ["A NTH"]}}) == "bad unit 'A NTH': an army cannot stand in NTH"
    assert error({"phase": "S1901M", "units": {"RUSSIA": ["F STP"]}}).startswith("bad unit 'F STP': say which coast")
    assert error({"phase": "S1901M", "variant": "hexagon"}) == "unknown variant 'hexagon'"
    assert error([1, 2]) == "'input' must be an object"


def test_command_line_never_prints_a_traceback(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{\"phase\": ")
    proc = subprocess.run(
        [sys.executable, "-m", "judge", "adjudicate", str(bad)], capture_output=True, text=True, check=False
    )
    assert proc.returncode == 1 and proc.stderr == ""
    assert json.loads(proc.stdout)["error"].startswith("malformed JSON")
    assert main(["adjudicate", str(tmp_path / "missing.json")]) == 1


def test_a_power_of_two_words_is_read_however_its_words_are_joined() -> None:
    """Empire's BRITISH_COLUMBIA as the README's table writes it, as DPjudge's map files do, as the
    ``diplomacy`` package does, and in lower case; NEW_YORK likewise."""
    for british, new_york in (("British Columbia", "New York"), ("BRITISH-COLUMBIA", "NEW-YORK"),
                              ("BRITISHCOLUMBIA", "NEWYORK"), ("british_columbia", "new york")):
        out = adjudicate_data({"variant": "empire", "phase": "S1999M",
                               "units": {british: ["A VAN"], new_york: ["A PHI"]},
                               "orders": {british: ["A VAN H"], new_york: ["A PHI H"]}})
        assert out["units"] == {"BRITISH_COLUMBIA": ["A VAN"], "NEW_YORK": ["A PHI"]}, (british, new_york)
        assert {r["power"] for r in out["results"]} == {"BRITISH_COLUMBIA", "NEW_YORK"}
    out = io.StringIO()  # a misspelling is no other way of joining the words
    data = {"variant": "empire", "phase": "S1999M", "units": {"BRITISH COLOMBIA": ["A VAN"]}}
    assert run_json(adjudicate_data, io.StringIO(json.dumps(data)), out, jsonl=False) == 1
    assert json.loads(out.getvalue())["error"].startswith("unknown power 'BRITISH COLOMBIA'")
