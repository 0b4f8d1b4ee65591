"""The ``judge`` command assembled by the composition root: the host's commands, the games' tools,
and ``judge demo`` naming its kind of game by word or by flag."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from judge import bootstrap
from judge.service.operators import demo
from judge.service.operators.cli import PIPE_CLOSED
from tests.support.harness import seed_sqlite


@pytest.mark.parametrize(("arguments", "kind"), [(["demo"], None), (["demo", "pirates"], "pirates"),
                                                 (["demo", "--pirates"], "pirates"), (["demo", "payola"], "payola")])
def test_judge_demo_plays_the_kind_it_names(monkeypatch: pytest.MonkeyPatch, arguments: list[str],
                                            kind: str | None) -> None:
    asked: list[str | None] = []
    monkeypatch.setattr(demo, "run_demo", lambda _kinds, keep, blind, kind: asked.append(kind) or 0)
    assert bootstrap.main(arguments) == 0
    assert asked == [kind]


@pytest.mark.parametrize("arguments", [["demo", "machiavelli", "aop"], ["demo", "--machiavelli", "aop"]])
def test_judge_demo_plays_the_scenario_it_names(monkeypatch: pytest.MonkeyPatch, arguments: list[str]) -> None:
    asked: list[tuple[str | None, str | None]] = []
    monkeypatch.setattr(demo, "run_demo", lambda _kinds, keep, blind, kind, scenario=None:
                        asked.append((kind, scenario)) or 0)
    assert bootstrap.main(arguments) == 0
    assert asked == [("machiavelli", "aop")]


def test_every_games_tool_is_a_subcommand(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        bootstrap.main(["--help"])
    listed = capsys.readouterr().out
    assert all(f"    {tool.name} " in listed for tool in bootstrap.TOOLS)


@pytest.mark.parametrize("arguments", [["status"], ["db", "version"], ["queue"], ["help"], ["publish"], ["--version"],
                                       ["--help"], ["map", "--help"]], ids=" ".join)
def test_a_command_whose_reader_has_gone_ends_without_a_word(tmp_path: Path, arguments: list[str]) -> None:
    """``judge status | head``: the reader (head) gone before the judge has written all it has to say,
    each command ends without a traceback (it ended in one, of a BrokenPipeError, a closed pipe), with the
    status of a program a closed pipe ends (141, as the shell gives it for SIGPIPE), or its own where it had
    written all it had to say (argparse's help: 0)."""
    options = []
    if not (arguments[0].startswith("--") or arguments[-1] == "--help"):  # a command that reads the judge's data
        seed_sqlite(tmp_path / "data")  # its database at the newest schema, as `judge db upgrade` leaves it
        options = ["--data-dir", str(tmp_path / "data")]
    reading, writing = os.pipe()
    os.close(reading)  # a reader that has gone, as head does once it has its lines
    done = subprocess.run([sys.executable, "-m", "judge", *arguments, *options], stdout=writing,
                          stderr=subprocess.PIPE, text=True, timeout=120)
    os.close(writing)
    assert done.stderr == "" and done.returncode in (PIPE_CLOSED, 0)
