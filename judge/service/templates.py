"""Jinja2 rendering of every outgoing mail from the templates in ``judge/templates/mail`` and in
each kind's own folder (package data, so an installed judge finds them without a source tree).

A kind keeps its templates in its own package, ``<package>/templates/mail/*.txt.j2`` and
``<package>/templates/web/*.html.j2``, and names them ``mail/<kind>/<name>.txt.j2`` (through
`render`: ``<kind>/<name>``) and ``web/<kind>/<name>.html.j2``, as the host's own are named
``mail/<name>.txt.j2``: the registry of kinds adds each kind's folder (`judge.service.hosting.kinds.Kinds`)
(`add_kind_templates`), and `template_loader` finds a template in the host's folder or in its
kind's."""

from __future__ import annotations

from datetime import datetime
from functools import cache
from importlib.resources import files
from typing import Any

from jinja2 import BaseLoader, ChoiceLoader, Environment, PackageLoader, PrefixLoader, StrictUndefined

from judge.language import called, name_of, offered, template_gettext, template_ngettext
from judge.language import gettext as _
from judge.wording import power_title

_KIND_PACKAGES: dict[str, str] = {}
"""Each kind's name and the package whose ``templates`` folder holds its templates (`add_kind_templates`)."""


def add_kind_templates(name: str, package: str) -> None:
    """Find the templates of the kind ``name`` in the ``templates`` folder of ``package``, if it has one."""
    if _KIND_PACKAGES.get(name) != package:
        _KIND_PACKAGES[name] = package
        template_loader.cache_clear()
        environment.cache_clear()


def kind_packages() -> dict[str, str]:
    """Each kind's name and the package whose ``templates`` folder holds its templates."""
    return dict(_KIND_PACKAGES)


@cache
def template_loader() -> BaseLoader:
    """The loader of every template: the host's (``judge/templates``), then each kind's, by its name:
    ``mail/<kind>/...`` and ``web/<kind>/...`` in ``<package>/templates/mail`` and ``/web``."""
    kinds: dict[str, dict[str, BaseLoader]] = {"mail": {}, "web": {}}
    for name, package in sorted(_KIND_PACKAGES.items()):
        for side, found in kinds.items():
            if files(package).joinpath("templates", side).is_dir():
                found[name] = PackageLoader(package, f"templates/{side}")
    return ChoiceLoader([PackageLoader("judge", "templates"),
                         PrefixLoader({side: PrefixLoader(found) for side, found in kinds.items()})])


@cache
def environment() -> Environment:
    env = Environment(
        loader=template_loader(),
        autoescape=False,  # plain-text mail
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        extensions=["jinja2.ext.i18n"],
    )
    env.policies["ext.i18n.trimmed"] = True  # a {% trans %} block's lines are one message, its spaces as one
    env.install_gettext_callables(template_gettext, template_ngettext, newstyle=True)  # type: ignore[attr-defined]
    env.filters["counted"] = counted
    env.filters["power"] = power_title
    env.filters["language_name"] = called
    env.globals["languages"] = lambda: [(code, name_of(code)) for code in offered()]
    env.globals["state_word"] = state_word
    return env


def state_word(state: str) -> str:
    """A game's state (``games.state``) as the mails and pages write it, in the reader's language."""
    words = {"forming": _("forming"), "active": _("active"), "paused": _("paused"), "finished": _("finished")}
    return words.get(state, state)


def seat_word(status: str) -> str:
    """A seat's state as the pages write it (``host.seat_state``), in the reader's language."""
    words = {"played": _("played"), "vacant": _("vacant"), "dummy": _("dummy")}
    return words.get(status, status)


def render(name: str, **context: Any) -> str:
    """Render ``judge/templates/mail/<name>.txt.j2`` (a game kind's are ``<kind>/<name>``)."""
    return environment().get_template(f"mail/{name}.txt.j2").render(**context)


def when(moment: datetime | None) -> str:
    """A moment as the mails write it (naive UTC), or "none"."""
    return "none" if moment is None else moment.strftime("%Y-%m-%d %H:%M UTC")


def counted(count: int, noun: str) -> str:
    """A count of things as the mails write it: "1 offer", "3 offers", "0 offers", never "1
    offer(s)"; the templates' ``counted`` filter (every noun the judge counts takes an s)."""
    return f"{count} {noun if count == 1 else noun + 's'}"


def duration(hours: float) -> str:
    """A length of time in words, as the mails write it: ``4 minutes``, ``2 hours``, ``1 day 6
    hours`` (to the minute), never a fraction of an hour such as ``0.0666667 hours``."""
    minutes = round(hours * 60)
    if minutes == 0:
        return "less than a minute" if hours > 0 else "0 hours"
    days, rest = divmod(minutes, 24 * 60)
    parts = [(days, "day"), (rest // 60, "hour"), (rest % 60, "minute")]
    return " ".join(counted(count, unit) for count, unit in parts if count)
