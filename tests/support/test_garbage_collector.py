"""The test process's garbage collector once the suite is collected (tests/conftest.py): what collection made is
left out of its passes, and it passes seldom."""

from __future__ import annotations

import gc

from tests.conftest import COLLECT_EVERY


def test_the_test_process_collects_seldom_and_never_walks_what_collecting_the_suite_made() -> None:
    assert gc.get_threshold()[0] == COLLECT_EVERY
    assert gc.get_freeze_count() > 0  # the modules, the libraries and the collected tests: 100,000 objects and more
