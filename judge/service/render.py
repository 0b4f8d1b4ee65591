"""Jinja2 rendering of every outgoing mail from the templates in ``judge/templates/mail``
(package data, so an installed judge finds them without a source tree)."""

from __future__ import annotations

from datetime import datetime
from functools import cache
from typing import Any

from jinja2 import Environment, PackageLoader, StrictUndefined


@cache
def environment() -> Environment:
    return Environment(
        loader=PackageLoader("judge", "templates"),
        autoescape=False,  # plain-text mail
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )


def render(name: str, **context: Any) -> str:
    """Render ``judge/templates/mail/<name>.txt.j2``."""
    return environment().get_template(f"mail/{name}.txt.j2").render(**context)


def when(moment: datetime | None) -> str:
    """A moment as the mails write it (naive UTC), or "none"."""
    return "none" if moment is None else moment.strftime("%Y-%m-%d %H:%M UTC")
