"""The README is the short way in: its first lines are the two commands CI runs, it stays short,
every link in it leads to a file of this checkout, and it leads each audience to its pages.  The
JSON examples it used to hold are in docs/reference/json.md: they run through `judge adjudicate`,
`judge payola` and `judge machiavelli` here (and as that page's doctests, tests/docs)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from judge.games.machiavelli.core.notation import run
from judge.games.payola.cli import adjudicate_data
from judge.payola.notation import payola_from_data

ROOT = Path(__file__).parents[1]
README = (ROOT / "README.md").read_text("utf-8")
JSON_REFERENCE = (ROOT / "docs" / "reference" / "json.md").read_text("utf-8")


def test_the_json_references_examples_run() -> None:
    blocks = [json.loads(b) for b in re.findall(r"```json\n(.*?)```", JSON_REFERENCE, re.S)]
    assert len(blocks) >= 3
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
    assert README.index("```sh\n") < README.index("\n## ")  # before anything else is said
    ci = (ROOT / ".ci" / "run").read_text("utf-8")
    assert ".venv/bin/judge demo" in ci
    assert re.search(r"^\.venv/bin/python -m pytest(?: --cov\S*)*$", ci, re.M)  # coverage options only


def test_readme_is_short() -> None:
    assert len(README.splitlines()) <= 150


def test_every_link_of_the_readme_leads_to_a_file_of_the_checkout() -> None:
    links = re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", README)
    assert len(links) >= 10
    missing = [link for link in links if "://" not in link and not (ROOT / link).exists()]
    assert missing == []


def test_readme_leads_each_audience_to_its_pages_and_shows_a_map() -> None:
    for page in ("docs/players/index.md", "docs/players/commands.md", "docs/gamemasters/index.md",
                 "docs/operators/index.md", "docs/reference/index.md", "docs/reference/cli.md",
                 "docs/reference/configuration.md", "docs/rules/index.md", "docs/architecture/index.md",
                 "docs/performance/index.md", "docs/changelog.md", "LICENSE"):
        assert f"]({page})" in README, page
    assert re.search(r"!\[[^]]+\]\(docs/\w+\.png\)", README)
    for game in ("Payola", "Exchange Payola", "Pirates' Proposal", "Machiavelli", "Youngstown", "Known World 901"):
        assert game in README, game
