"""The registry of kinds the tests' judges host: the judge's own and the tests' example kind, a line."""

from __future__ import annotations

from functools import cache

from judge.bootstrap import hosted, registry
from judge.service.hosting.kinds import Kinds
from tests.kinds.auction.kind import Auction


@cache
def with_test_kinds() -> Kinds:
    """The judge's own kinds (`judge.bootstrap.HOSTED`), and the auction (`tests.kinds.auction`)."""
    return registry([*hosted(), Auction()])
