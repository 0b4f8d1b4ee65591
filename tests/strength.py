"""How hard the property tests try.  Every run tries a quarter of each property's full count of
examples (at least 10), which finds a broken rule in seconds and keeps the suite to minutes; with
``JUDGE_TEST_THOROUGH=1`` (before a release, or to hunt a bug) each tries its full count.  Hypothesis
keeps the examples that ever failed (``.hypothesis/``) and tries them first in every run."""

from __future__ import annotations

import os

THOROUGH = os.environ.get("JUDGE_TEST_THOROUGH") == "1"


def examples(full: int) -> int:
    """The examples a property tries in this run, of its ``full`` count."""
    return full if THOROUGH else max(10, full // 4)
