"""The judge's clock: the moment now, as the database stores moments (naive UTC)."""

from __future__ import annotations

from datetime import UTC, datetime


def utcnow() -> datetime:
    """Naive UTC, as stored."""
    return datetime.now(UTC).replace(tzinfo=None)
