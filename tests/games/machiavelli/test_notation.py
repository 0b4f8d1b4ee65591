"""The JSON contract and the ``machiavelli`` subcommand: the documented example, positions both
ways, and what a bad request gets."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import Any

import pytest

from judge.bootstrap import main
from judge.games.machiavelli import cli
from judge.games.machiavelli.core.notation import NotationError, position_from_data, position_to_data, run
from judge.games.machiavelli.core.position import Campaign, Independent, Phase, Season, Siege
from judge.service.operators.cli import run_json

from .helpers import BOARD, A, F, G, game


def documented() -> tuple[Any, Any]:
    """The request and the excerpt of its answer that the subcommand's docstring shows."""
    doc = cli.__doc__ or ""
    request, excerpt = re.findall(r"::\n\n((?:    .*\n|\n)+)", doc)
    return json.loads(request), json.loads(excerpt)


def test_the_documented_example_gives_the_documented_answer() -> None:
    request, excerpt = documented()
    out = io.StringIO()
    assert run_json(run, io.StringIO(json.dumps(request)), out, jsonl=False) == 0
    answer = json.loads(out.getvalue())
    assert {key: answer[key] for key in excerpt} == excerpt


def test_a_position_reads_back_from_what_it_writes() -> None:
    rich = game(A("Milan", "cre"), G("Florence", "cre"), G(Independent("sie"), "sie"), F("Naples", "pro", "sc"),
                A(Independent("pon"), "pon"), season=Season(1456, Campaign.FALL),
                control={"cre": "Milan", "sie": Independent("sie"), "pst": "Florence"},
                rebellions={"pst": "Florence", "luc": Independent("luc")}, sieges={"cre": Siege("Florence", 1)},
                treasuries={"Milan": 7}, homes={"Venice": frozenset({"Venice", "Austria"})},
                eliminated={"Austria": Season(1455, Campaign.SPRING)}, bans={"Milan": Season(1457, Campaign.SPRING)},
                excommunicated=("Milan",))
    data = json.loads(json.dumps(position_to_data(rich)))
    assert position_from_data(data, BOARD) == rich
    assert position_from_data(position_to_data(BOARD.start), BOARD) == BOARD.start


def test_the_answers_position_is_the_next_request_and_names_the_letters_it_awaits() -> None:
    first = run({"board": "classic", "letters": {"Milan": "pay A Mil"}})
    assert first["phase"] == "A" and first["position"]["phase"] == "C"
    assert [u for u in first["position"]["units"] if u[0] == "Milan"] == [["Milan", "A", "mil"]]
    assert first["treasuries"]["Milan"] == 12
    second = run({"position": first["position"], "letters": {"Milan": "A Mil - Tyr\nfrobnicate"}})
    assert second["season"] == "Spring 1454" and second["position"]["season"] == "Summer 1454"
    assert second["problems"] == {"Milan": ['line 2 "frobnicate": no order begins so: an operation begins with A, '
                                            'F or G; see the syntax for the rest']}
    assert {e["player"] for e in second["expected"]} == set(BOARD.powers)


@pytest.mark.parametrize(("request_data", "message"), [
    ({"board": "atlantis"}, "no board called 'atlantis'"),
    ({"position": {"season": "Winter 1454"}}, "a season reads 'Spring 1454', not 'Winter 1454'"),
    ({"position": {"season": "Spring 1454", "units": [["Milan", "F", "mil"]]}}, "no fleet can stand in mil"),
    ({"position": {"season": "Spring 1454", "units": [["Milan", "A", "xyz"]]}}, "no area is called 'xyz'"),
    ({"position": {"season": "Spring 1454", "control": {"mil": "Spain"}}}, "no power is called 'Spain'"),
    ({"letters": {"Spain": "G Flo H"}}, "no power is called 'Spain'"),
    ({"position": {"season": "Spring 1454", "phase": "over"}}, "the game is over: no letter is awaited"),
    ({"position": {"season": "Spring 1454", "phase": "B"}}, "malformed position: 'B' is not a valid Phase"),
    ({"position": {"season": "Spring 1454", "units": [["Milan", "A", "mil"], ["Venice", "A", "mil"]]}},
     "malformed position: Venice A mil and Milan A mil share mil"),
])
def test_a_request_that_describes_no_position_gets_an_error(request_data: dict[str, Any], message: str) -> None:
    with pytest.raises(NotationError, match=re.escape(message)):
        run(request_data)


def test_the_subcommand_answers_errors_as_json_and_reads_one_request_a_line_with_jsonl(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "requests.jsonl"
    source.write_text('{"letters": {}}\n{not json\n\n{"board": "atlantis"}\n', encoding="utf-8")
    assert main(["machiavelli", str(source), "--jsonl"]) == 0  # the judge's command line, as installed
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert lines[0]["phase"] == "A" and lines[1]["error"].startswith("malformed JSON")
    assert lines[2] == {"error": "no board called 'atlantis'"} and len(lines) == 3
    single = tmp_path / "one.json"
    single.write_text('{"board": "atlantis"}', encoding="utf-8")
    assert cli.TOOL.main([str(single)]) == 1
    assert cli.TOOL.main([str(tmp_path / "missing.json")]) == 1
    assert [json.loads(line) for line in capsys.readouterr().out.splitlines()][1]["error"].startswith("cannot read")


def test_a_json_position_leaving_out_homes_and_anticipated_gives_each_living_player_its_own() -> None:
    position = position_from_data({"season": "Summer 1454", "treasuries": {"Milan": 4},
                                   "eliminated": {"Turkey": "Spring 1454"}}, BOARD)
    assert position.homes["Milan"] == {"Milan"} and "Turkey" not in position.homes
    assert position.anticipated == {"Milan": 4} and position.phase is Phase.C
