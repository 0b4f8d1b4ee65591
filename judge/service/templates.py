"""Jinja2 rendering of every outgoing mail from the templates in ``judge/templates/mail`` and in
each kind's own folder (package data, so an installed judge finds them without a source tree).

A kind keeps its templates in its own package, ``<package>/templates/mail/*.txt.j2`` and
``<package>/templates/web/*.html.j2``, and names them ``mail/<kind>/<name>.txt.j2`` (through
`render`: ``<kind>/<name>``) and ``web/<kind>/<name>.html.j2``, as the host's own are named
``mail/<name>.txt.j2``: the registry of kinds adds each kind's folder (`judge.service.hosting.kinds.Kinds`)
(`add_kind_templates`), and `template_loader` finds a template in the host's folder or in its
kind's.

Each process compiled each template it rendered (some 4 ms a template, 0.36 s for all of them): every
`judge` command, every child of ``judge serve`` (its applier, each evening's deadline workers).  Compiled
once, a template's code is kept in the temporary folder (`keep_compiled`) and read back by the next
process, as Python keeps a module's."""

from __future__ import annotations

import contextlib
import hashlib
from collections.abc import Callable
from datetime import datetime
from functools import cache
from importlib.resources import files
from typing import Any

import jinja2
from jinja2 import BaseLoader, ChoiceLoader, Environment, PackageLoader, PrefixLoader, StrictUndefined
from jinja2.bccache import Bucket, FileSystemBytecodeCache
from jinja2.filters import do_wordwrap
from jinja2.nodes import EvalContext
from jinja2.utils import pass_environment, pass_eval_context
from markupsafe import Markup

from judge.language import called, name_of, ngettext, offered, template_gettext, template_ngettext
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


_DICT_ATTRIBUTES = frozenset(dir(dict))


class ViewEnvironment(Environment):
    """Jinja2's environment, reading a view's fields at once: the judge's views are dicts, and Jinja2 reads
    ``view.field`` by asking for an attribute first, which for a dict raises an AttributeError and catches it
    each time, then for the key (some 560 times in a World game's public report: a fifth of its rendering).  A
    plain dict's key that is no attribute of dicts is read as a key first here; what a template gets is the
    same as Jinja2 gives (a dict's methods, ``items`` or ``get``, are still its methods)."""

    def getattr(self, obj: Any, attribute: str) -> Any:
        if type(obj) is dict and attribute not in _DICT_ATTRIBUTES:
            try:
                return obj[attribute]
            except LookupError:
                return self.undefined(obj=obj, name=attribute)
        return super().getattr(obj, attribute)


@cache
def environment() -> Environment:
    env = ViewEnvironment(
        loader=template_loader(),
        autoescape=False,  # plain-text mail
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        extensions=["jinja2.ext.i18n"],
    )
    env.policies["ext.i18n.trimmed"] = True  # a {% trans %} block's lines are one message, its spaces as one
    install_gettext(env)
    env.filters["counted"] = counted
    env.filters["power"] = power_title
    env.filters["state"] = state_word
    env.filters["wordwrap"] = wordwrap
    env.filters["language_name"] = called
    env.globals["languages"] = lambda: [(code, name_of(code)) for code in offered()]
    keep_compiled(env)
    return env


class _Compiled(FileSystemBytecodeCache):
    """Jinja2's cache of compiled templates in files, which a process that cannot read or write them renders
    without: a cache, not a store (a full disk, a folder gone)."""

    def load_bytecode(self, bucket: Bucket) -> None:
        try:
            super().load_bytecode(bucket)
        except OSError:
            bucket.reset()

    def dump_bytecode(self, bucket: Bucket) -> None:
        with contextlib.suppress(OSError):
            super().dump_bytecode(bucket)


def keep_compiled(env: Environment) -> None:
    """Keep ``env``'s compiled templates in Jinja2's folder of this user's in the temporary folder, once ``env`` is
    set up; none where that folder cannot be made.

    Jinja2 finds a template's code by its name and file and checks it against the template's source; what the
    code also depends on is the environment's settings (its syntax, its extensions and their policies, which
    ``{% trans %}`` compiles by) and Jinja2's own version: those are in the files' names, so that an environment
    set up otherwise, or another Jinja2, never reads code compiled for another."""
    settings = sorted((name, value) for name, value in vars(env).items()
                      if value is None or isinstance(value, str | bool | int | float))
    extensions = sorted(f"{type(extension).__module__}.{type(extension).__qualname__}"
                        for extension in env.extensions.values())
    policies = sorted((name, repr(value)) for name, value in env.policies.items())
    fingerprint = hashlib.sha256(repr((jinja2.__version__, settings, extensions, policies)).encode()).hexdigest()
    try:
        env.bytecode_cache = _Compiled(pattern=f"judge-{fingerprint[:16]}-%s.cache")
    except (OSError, RuntimeError):  # Jinja2's folder could not be made, or is not this user's alone
        env.bytecode_cache = None


def install_gettext(env: Environment) -> None:
    """Give ``env``'s templates ``_``, ``gettext`` and ``ngettext`` in the reader's language, as Jinja2's i18n
    extension gives them with ``newstyle`` (a message's places filled by ``%`` from the call's named values,
    and escaped where the template escapes), but each a single call.  The extension's ``_`` calls its
    ``gettext`` through the template's context, which calls the translation through the context again: three
    calls of the context's machinery for each message, where these make one; a Payola game's results mails
    render in about two thirds of the time (in-process: 0.19 ms a mail against 0.30 in English, 0.27 against
    0.39 in Italian).  `{% trans %}` blocks call the same names."""
    # the extension's own first: its newstyle flag is how it compiles {% trans %}; then these over its callables
    env.install_gettext_callables(template_gettext, template_ngettext, newstyle=True)  # type: ignore[attr-defined]
    env.globals.update(_=_gettext, gettext=_gettext, ngettext=_ngettext)


@pass_eval_context
def _gettext(context: EvalContext, message: str, /, **values: object) -> str:
    said = template_gettext(message)
    return (Markup(said) if context.autoescape else said) % values


@pass_eval_context
def _ngettext(context: EvalContext, singular: str, plural: str, count: int, /, **values: object) -> str:
    values.setdefault("num", count)
    said = template_ngettext(singular, plural, count)
    return (Markup(said) if context.autoescape else said) % values


@pass_environment
def wordwrap(environment: Environment, s: str, width: int = 79, break_long_words: bool = True,
             wrapstring: str | None = None, break_on_hyphens: bool = True) -> str:
    """Jinja2's ``wordwrap`` filter, which gives back as it is, without cutting it into words first, a text of
    one line that fits and ends in no whitespace (most of a mail's: a board's lines, its sentences), as
    Python's textwrap would: such a line's words all fit on its one line, and only whitespace at a line's end
    is dropped.  Cutting each such line into words cost a public report a quarter of its rendering, once
    for each language its readers read."""
    if isinstance(s, str) and len(s) <= width and not s[-1:].isspace() and s.splitlines() == [s]:
        return s
    return do_wordwrap(environment, s, width, break_long_words, wrapstring, break_on_hyphens)


def seat_state_word(status: str) -> str:
    """A seat's state as the pages and STATUS write it (``host.seat_state``), in the reader's language."""
    words = {"played": _("played"), "vacant": _("vacant"), "dummy": _("dummy")}
    return words.get(status, status)


def render(name: str, **context: Any) -> str:
    """Render ``judge/templates/mail/<name>.txt.j2`` (a game kind's are ``<kind>/<name>``)."""
    return environment().get_template(f"mail/{name}.txt.j2").render(**context)


def when(moment: datetime | None) -> str:
    """A moment as the mails write it (naive UTC), or "none" (in the reader's language)."""
    return _("none") if moment is None else moment.strftime("%Y-%m-%d %H:%M UTC")


_SEAT_WORDS: dict[str, Callable[[], str]] = {
    "country": lambda: _("country"), "investor": lambda: _("investor"), "power": lambda: _("power"),
    "player": lambda: _("player"), "seat": lambda: _("seat")}
"""What each kind calls a seat (`judge.service.hosting.kinds.Kind.seat_word`), in the reader's language."""


_SEATS_WORDS: dict[str, Callable[[], str]] = {
    "country": lambda: _("countries"), "investor": lambda: _("investors"), "power": lambda: _("powers"),
    "player": lambda: _("players"), "seat": lambda: _("seats")}
"""What each kind calls its seats, in the plural, in the reader's language."""


def seats_word(word: str) -> str:
    """A kind's word for a seat in the plural, in the reader's language (an s added, for a word the host
    does not know)."""
    found = _SEATS_WORDS.get(word)
    return found() if found is not None else word + "s"


def seat_word(word: str) -> str:
    """A kind's word for a seat in the reader's language (as it is, for a word the host does not know)."""
    found = _SEAT_WORDS.get(word)
    return found() if found is not None else word


def state_word(state: str) -> str:
    """A game's state (``games.state``) in the reader's language: ``active``, ``attiva``, ``en cours``;
    the templates' ``state`` filter."""
    words = {"forming": _("forming"), "active": _("active"), "paused": _("paused"), "finished": _("finished")}
    return words.get(str(state), str(state))


_COUNTED: dict[str, Callable[[int], str]] = {
    "address": lambda count: ngettext("{count} address", "{count} addresses", count),
    "area": lambda count: ngettext("{count} area", "{count} areas", count),
    "build": lambda count: ngettext("{count} build", "{count} builds", count),
    "center": lambda count: ngettext("{count} center", "{count} centers", count),
    "day": lambda count: ngettext("{count} day", "{count} days", count),
    "ducat": lambda count: ngettext("{count} ducat", "{count} ducats", count),
    "game": lambda count: ngettext("{count} game", "{count} games", count),
    "garnet": lambda count: ngettext("{count} garnet", "{count} garnets", count),
    "hour": lambda count: ngettext("{count} hour", "{count} hours", count),
    "minute": lambda count: ngettext("{count} minute", "{count} minutes", count),
    "more phase": lambda count: ngettext("{count} more phase", "{count} more phases", count),
    "new share": lambda count: ngettext("{count} new share", "{count} new shares", count),
    "observer": lambda count: ngettext("{count} observer", "{count} observers", count),
    "offer": lambda count: ngettext("{count} offer", "{count} offers", count),
    "order": lambda count: ngettext("{count} order", "{count} orders", count),
    "phase": lambda count: ngettext("{count} phase", "{count} phases", count),
    "player": lambda count: ngettext("{count} player", "{count} players", count),
    "province": lambda count: ngettext("{count} province", "{count} provinces", count),
    "rated game": lambda count: ngettext("{count} rated game", "{count} rated games", count),
    "reader": lambda count: ngettext("{count} reader", "{count} readers", count),
    "record": lambda count: ngettext("{count} record", "{count} records", count),
    "reduction round": lambda count: ngettext("{count} reduction round", "{count} reduction rounds", count),
    "removal": lambda count: ngettext("{count} removal", "{count} removals", count),
    "season": lambda count: ngettext("{count} season", "{count} seasons", count),
    "seat": lambda count: ngettext("{count} seat", "{count} seats", count),
    "share": lambda count: ngettext("{count} share", "{count} shares", count),
    "supply center": lambda count: ngettext("{count} supply center", "{count} supply centers", count),
    "surviving power": lambda count: ngettext("{count} surviving power", "{count} surviving powers", count),
    "unit": lambda count: ngettext("{count} unit", "{count} units", count),
    "vote": lambda count: ngettext("{count} vote", "{count} votes", count),
    "warning": lambda count: ngettext("{count} warning", "{count} warnings", count),
}
"""Each noun the judge counts, as whole forms in the reader's language (its own plural rule)."""


def counted(count: int, noun: str) -> str:
    """A count of things as the mails write it: "1 offer", "3 offers", "0 offers", never "1
    offer(s)"; the templates' ``counted`` filter.  Each noun the judge counts has its whole forms
    in the catalogue (`_COUNTED`), in the reader's language; another takes an s, in English."""
    if (forms := _COUNTED.get(noun)) is not None:
        return forms(count)
    return f"{count} {noun if count == 1 else noun + 's'}"


def duration(hours: float) -> str:
    """A length of time in words, as the mails write it: ``4 minutes``, ``2 hours``, ``1 day 6
    hours`` (to the minute), never a fraction of an hour such as ``0.0666667 hours``; in the
    reader's language."""
    minutes = round(hours * 60)
    if minutes == 0:
        return _("less than a minute") if hours > 0 else ngettext("{count} hour", "{count} hours", 0)
    days, rest = divmod(minutes, 24 * 60)
    parts = [(days, "day"), (rest // 60, "hour"), (rest % 60, "minute")]
    return " ".join(counted(count, unit) for count, unit in parts if count)
