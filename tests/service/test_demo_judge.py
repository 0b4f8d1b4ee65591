"""The judge `judge demo` runs (`judge.service.demo.demo_judge`): a judge of its own on loopback."""

from __future__ import annotations

from judge.service.demo import demo_judge
from tests.kinds.registry import with_test_kinds


def test_the_demo_judge_asks_no_mta_to_flush_its_queue() -> None:
    """No MTA hands the demo's judge its mail: asking one to deliver what it holds (``mta-flush``,
    at every start) printed a failure on a machine whose Postfix is installed but stopped."""
    with demo_judge(with_test_kinds()) as judge:
        assert judge.settings.mta_flush is None
