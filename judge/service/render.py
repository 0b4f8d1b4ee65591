"""Jinja2 rendering of every outgoing mail from the templates in ``judge/templates/mail``
(package data, so an installed judge finds them without a source tree)."""

from __future__ import annotations

from datetime import datetime
from functools import cache
from typing import Any, NamedTuple

from jinja2 import Environment, PackageLoader, StrictUndefined

from judge import games
from judge.service.config import Settings


class KindHelp(NamedTuple):
    """A game kind's name and its part of HELP."""

    name: str
    text: str


def games_help(settings: Settings) -> list[KindHelp]:
    """Every game kind's part of HELP, the default kind first (``help.txt.j2`` calls it)."""
    return [KindHelp(kind.name, kind.help(settings).strip()) for kind in games.kinds()]


@cache
def environment() -> Environment:
    env = Environment(
        loader=PackageLoader("judge", "templates"),
        autoescape=False,  # plain-text mail
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.globals["games_help"] = games_help
    return env


def render(name: str, **context: Any) -> str:
    """Render ``judge/templates/mail/<name>.txt.j2`` (a game kind's are ``<kind>/<name>``)."""
    return environment().get_template(f"mail/{name}.txt.j2").render(**context)


def when(moment: datetime | None) -> str:
    """A moment as the mails write it (naive UTC), or "none"."""
    return "none" if moment is None else moment.strftime("%Y-%m-%d %H:%M UTC")
