"""The README's examples work: its JSON inputs run through `judge adjudicate`, `judge payola` and
`judge machiavelli`."""

from __future__ import annotations

import json
import re
from pathlib import Path

from judge.games.machiavelli.core.notation import run
from judge.games.payola.cli import adjudicate_data
from judge.payola.notation import payola_from_data

README = (Path(__file__).parents[1] / "README.md").read_text("utf-8")


def test_readme_json_examples_run() -> None:
    blocks = [json.loads(b) for b in re.findall(r"```json\n(.*?)```", README, re.S)]
    assert len(blocks) >= 2
    for block in blocks:
        if "letters" in block:
            out = run(block)
            assert out["orders"] and out["operations"] and not out["problems"]
        elif "powers" in block:
            out = payola_from_data(block)
            assert out["orders"] and not any(p["errors"] for p in out["powers"].values())
        else:
            out = adjudicate_data(block)
            assert out["results"] and all(r["result"] != "invalid" for r in out["results"])


def test_readme_first_lines_are_the_two_commands() -> None:
    first = README.split("```sh\n", 1)[1].split("```", 1)[0].strip().splitlines()
    assert first == ["python3 -m venv .venv && .venv/bin/pip install -e '.[test]' && .venv/bin/judge demo",
                     ".venv/bin/python -m pytest"]
    ci = (Path(__file__).parents[1] / ".ci" / "run").read_text("utf-8")
    assert ".venv/bin/judge demo" in ci and "\n.venv/bin/python -m pytest\n" in ci
