"""Settings of a judge installation: where its data lives and what it is called."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

DEFAULT_DURATIONS = {"movement": 48.0, "retreat": 24.0, "adjustment": 24.0, "grace": 0.0}


@dataclass(frozen=True)
class Settings:
    """Data directory (SQLite database and Maildir by default), database URL and mail domain."""

    data_dir: Path = Path("judge-data")
    database_url: str | None = None
    domain: str = "localhost"
    durations: dict[str, float] = field(default_factory=lambda: dict(DEFAULT_DURATIONS))

    @property
    def judge_address(self) -> str:
        return f"judge@{self.domain}"

    @property
    def database(self) -> str:
        return self.database_url or f"sqlite:///{(self.data_dir / 'judge.db').resolve()}"

    @property
    def maildir(self) -> Path:
        return self.data_dir / "outbox"
