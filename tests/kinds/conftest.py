"""The kinds' suite's fixture: the script of each kind the registry hosts (`tests.kinds.scripts`)."""

from __future__ import annotations

import pytest

from tests.kinds.scripts import KINDS, SCRIPTS, Script


@pytest.fixture(params=KINDS)
def script(request: pytest.FixtureRequest) -> Script:
    """The script of a kind of the registry; a kind without one fails here, by its name."""
    assert request.param in SCRIPTS, f"the kind {request.param} has no conformance script (tests/kinds/scripts.py)"
    return SCRIPTS[request.param]
