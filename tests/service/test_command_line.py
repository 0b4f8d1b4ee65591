"""The ``judge`` command assembled by the composition root: the host's commands, the games' tools,
and ``judge demo`` naming its kind of game by word or by flag."""

from __future__ import annotations

import pytest

from judge import bootstrap
from judge.service import demo


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
