"""What every test shares."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from judge.service import passwords


@pytest.fixture(autouse=True, scope="session")
def _cheap_password_hashes() -> Iterator[None]:
    """scrypt at its real cost takes some 50 ms a hash, and the tests hash hundreds of passwords;
    the cost is written into each stored hash, so checking works the same at any cost."""
    patch = pytest.MonkeyPatch()
    patch.setattr(passwords, "_N", 2**8)
    yield
    patch.undo()
