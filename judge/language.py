"""Every sentence a reader gets, in the reader's language: the judge's message catalogues and the
language being written in.

Theory of operation.  Every sentence the judge writes for a player, an observer or a game master is
an English message marked in the code (``_("...")``, `ngettext`) or in a template (Jinja2's i18n
extension: ``{% trans %}``, ``_()``), extracted into a catalogue (GNU gettext, kept with Babel:
``tools/catalogues.py``) and translated there.  The host's catalogue is ``judge/locale``; each kind
keeps its own beside its code (``<package>/locale``, registered with `add_catalogue` as the kind's
templates are), so that a kind stays one folder.  A language's translations are the host's merged
with every kind's, one table per language, read once a process from the compiled ``.mo`` files the
package ships.

The language a sentence is written in is the *reader's*, and it is ambient, as a locale is: the
edge that writes for a reader (the answer to a mail, each mail queued for its recipient, a game's
pages) sets it around the writing (`reading`), and every ``_()`` called inside returns the sentence
in it.  A game's rules core builds its sentences the same way, and so stays a function of its
inputs and of the reader's language, read from a context variable, never from a file or a clock
at the moment it runs (the catalogues are loaded once, like the boards).  Nothing is translated
after it was written: a mail is written in one language from its first line to its last, never
patched afterwards, and what a player wrote (press, a quoted line) is never translated.

A message with values is one whole sentence with named places, ``_("{unit} cannot move to
{area}.", unit=..., area=...)``, never glued from fragments, so that a translator can move the
places where the language puts them; a count is `ngettext`'s, which chooses the plural form by the
language's own rule (CLDR's, written in each catalogue's header).  English is the language the
messages are written in: it has no catalogue, and a message missing from another language's is
written in English.

A text kept to be read later (a game's story and result, in its settings) is decided when it
happens but read by many readers afterwards, each in their own language: it is kept as a *stored
wording* (`later`, `nlater`: the message and its values, JSON as the game's settings are; a value
may be a stored wording itself), and worded only when it is read (`worded`), in the reader's
language then.  A plain string (everything kept before, an imported game's) is worded as it is.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from gettext import NullTranslations
from importlib.resources import as_file, files
from typing import Any, NotRequired, TypeAlias, TypedDict, TypeVar

from babel import Locale, UnknownLocaleError
from babel.support import Translations

SOURCE = "en"
"""The language the messages are written in: English, which needs no catalogue."""
DOMAIN = "messages"
"""The catalogues' domain: ``<package>/locale/<language>/LC_MESSAGES/messages.mo``."""
HOST_PACKAGE = "judge"

_PACKAGES: list[str] = [HOST_PACKAGE]
"""The packages whose ``locale`` folder holds a catalogue: the host's, then each kind's (`add_catalogue`)."""
_reader: ContextVar[str] = ContextVar("judge_reader_language", default=SOURCE)
_pages: ContextVar[str | None] = ContextVar("judge_pages_language", default=None)


def add_catalogue(package: str) -> None:
    """Read the messages of ``package`` (a kind's) from its own ``locale`` folder too, if it has one."""
    if package not in _PACKAGES and files(package).joinpath("locale").is_dir():
        _PACKAGES.append(package)
        translations.cache_clear()


@cache
def offered() -> tuple[str, ...]:
    """The languages the judge writes: English and each language the host's catalogue has, in order of
    their codes (``en``, ``fr``, ``it``)."""
    folder = files(HOST_PACKAGE).joinpath("locale")
    found = {entry.name for entry in folder.iterdir() if entry.joinpath("LC_MESSAGES", f"{DOMAIN}.mo").is_file()}
    return tuple(sorted({SOURCE, *found}))


def name_of(code: str) -> str:
    """A language's name in that language, as a list of them shows it (each reader finds their own):
    ``Italiano``, ``Français``."""
    try:
        name = Locale.parse(code).get_display_name(code) or code
    except (UnknownLocaleError, ValueError):
        return code
    return name[:1].upper() + name[1:]


def called(code: str) -> str:
    """A language's name as a sentence in the reader's language writes it: ``Italian`` in English,
    ``italien`` in French, ``francese`` in Italian."""
    try:
        return Locale.parse(code).get_display_name(_reader.get()) or code
    except (UnknownLocaleError, ValueError):
        return code


@cache
def translations(language: str) -> NullTranslations:
    """The messages of ``language``: every kind's catalogue merged with the host's (none for English); a message
    both have (``none``) is read as the host translates it, whichever kind's code asks for it."""
    merged: NullTranslations = NullTranslations()
    if language == SOURCE:
        return merged
    for package in reversed(_PACKAGES):  # the host's last: a message of its own is read as it translates it
        with as_file(files(package).joinpath("locale")) as folder:
            found = Translations.load(str(folder), [language], DOMAIN)
        if not isinstance(found, Translations):
            continue
        if isinstance(merged, Translations):
            merged.merge(found)
        else:
            merged = found
    return merged


def current() -> str:
    """The language being written in: the reader's, where an edge set it (`reading`), else English."""
    return _reader.get()


@contextmanager
def reading(language: str, *, pages: str | None = None) -> Iterator[None]:
    """Write in ``language`` within the block: every message asked for inside is in it.  With ``pages``, the
    language the pages of the game written for are in (`pages_language`), where the writer knows it."""
    token = _reader.set(language if language in offered() else SOURCE)
    kept = _pages.set(pages) if pages is not None else None
    try:
        yield
    finally:
        if kept is not None:
            _pages.reset(kept)
        _reader.reset(token)


def pages_language() -> str | None:
    """The language of the pages of the game being written for, where the writer said it (`reading`: a results
    mail's maps, drawn for their readers): what is drawn in another language is never shown on its pages, and
    is not kept for them (`judge.render.png.Drawn`).  None where nobody said."""
    return _pages.get()


def gettext(message: str, /, **values: object) -> str:
    """``message`` in the reader's language, its named places (``{unit}``) filled with ``values``; the
    code imports it as ``_``, the name the catalogues are extracted by."""
    said = translations(_reader.get()).gettext(message)
    return said.format(**values) if values else said


def template_gettext(message: str) -> str:
    """``message`` in the reader's language, for the templates (Jinja2 fills its places itself)."""
    return translations(_reader.get()).gettext(message)


def template_ngettext(singular: str, plural: str, count: int) -> str:
    """The form ``count`` takes in the reader's language, for the templates (Jinja2 fills its places)."""
    return translations(_reader.get()).ngettext(singular, plural, count)


def ngettext(singular: str, plural: str, count: int, /, **values: object) -> str:
    """The form of ``singular``/``plural`` that ``count`` takes in the reader's language (its own
    plural rule), with ``{count}`` and the other named places filled."""
    said = translations(_reader.get()).ngettext(singular, plural, count)
    return said.format(count=count, **values)


def pgettext(context: str, message: str, /, **values: object) -> str:
    """``message`` in the reader's language as it is said in ``context`` (a word whose translation
    agrees with what it stands for: ``pgettext("centres", "none")`` is ``nessuno`` where the units'
    is ``nessuna``), its named places filled with ``values``."""
    said = translations(_reader.get()).pgettext(context, message)
    return said.format(**values) if values else said


# -- stored wordings: texts kept to be read later, worded in each reader's language -----------------
class Wording(TypedDict):
    """A text kept to be read later (`later`, `nlater`), as JSON: its English ``message`` (the
    singular, with ``plural`` and the ``count`` that chooses between them where it has a plural)
    and its named places' ``values``, each a text, a number or a stored wording itself."""
    message: str
    values: dict[str, Stored | int]
    plural: NotRequired[str]
    count: NotRequired[int]


Stored: TypeAlias = "str | Wording"
"""A kept text: a stored wording, or a plain string (kept before wordings were, or imported), worded as it is."""


def later(message: str, /, **values: Stored | int) -> Wording:
    """``message`` with its named places' ``values``, kept to be worded when it is read (`worded`),
    in the language of its reader then: ``later("{seat} taken over by a new player", seat=title)``.
    Marked as ``_`` is (``tools/catalogues.py`` extracts it)."""
    return {"message": message, "values": dict(values)}


def nlater(singular: str, plural: str, count: int, /, **values: Stored | int) -> Wording:
    """As `later`, for a count: worded as `ngettext` words it (``{count}`` and the other places filled)."""
    return {"message": singular, "plural": plural, "count": count, "values": dict(values)}


def worded(stored: object) -> str:
    """A kept text in the reader's language: a stored wording (`later`) worded now, its values that
    are stored wordings worded first; a plain string as it is; nothing (None) as an empty text.  A
    wording whose places do not match its values (a damaged or hand-made record) is its translation
    with its places left unfilled, and one nested deeper than `NESTED` wordings is cut there: never an
    error."""
    return _worded(stored, NESTED)


NESTED = 8
"""How deep stored wordings may nest in one another (a value's value's...) before `worded` stops: the
judge nests two; an imported record may hold anything."""


def _worded(stored: object, depth: int) -> str:
    if stored is None or depth < 0:
        return ""
    if not isinstance(stored, dict) or not isinstance(stored.get("message"), str):
        return str(stored)
    kept = stored.get("values")
    values = {str(name): _worded(value, depth - 1) if isinstance(value, dict) else value
              for name, value in (kept.items() if isinstance(kept, dict) else ())}
    language = translations(_reader.get())
    plural, count = stored.get("plural"), stored.get("count")
    if isinstance(plural, str) and isinstance(count, int):
        said = language.ngettext(stored["message"], plural, count)
        values["count"] = count
    else:
        said = language.gettext(stored["message"])
    try:
        return said.format(**values) if values else said
    except (KeyError, IndexError, ValueError):
        return said


# -- texts kept once per language: a phase's results, made when it is processed, read by every reader ---------

_Made = TypeVar("_Made")


def in_every_language(make: Callable[[], _Made]) -> dict[str, _Made]:
    """What ``make`` writes, made once in each language the judge offers (`offered`), keyed by its code:
    a text kept to be read later that is made of many sentences (a phase's results), as JSON."""
    made = {}
    for language in offered():
        with reading(language):
            made[language] = make()
    return made


def in_reader_language(kept: Any) -> Any:
    """A text kept once per language (`in_every_language`: an object keyed by language) in the reader's,
    in English where it lacks theirs; anything else (a plain list, kept before or imported) as it is."""
    if isinstance(kept, dict):
        return kept.get(current(), kept.get(SOURCE))
    return kept
