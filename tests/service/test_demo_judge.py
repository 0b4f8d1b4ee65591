"""The judge `judge demo` runs (`judge.service.demo`): a judge of its own on loopback."""

from __future__ import annotations

from pathlib import Path

from judge.service.demo import demo_settings


def test_the_demo_judge_asks_no_mta_to_flush_its_queue(tmp_path: Path) -> None:
    """No MTA hands the demo's judge its mail: asking one to deliver what it holds (``mta-flush``,
    at every start) printed a failure on a machine whose Postfix is installed but stopped."""
    assert demo_settings(tmp_path).mta_flush is None
    assert demo_settings(tmp_path, maps=False).mta_flush is None  # a test's own settings keep it
