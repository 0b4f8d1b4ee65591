"""The judge's message catalogues, kept with Babel: extract every marked message, bring each language's
catalogue up to date, compile them, and check that every complete language is whole.

    python tools/catalogues.py update            # extract, update each language's .po, compile the .mo
    python tools/catalogues.py init LANG         # update, starting every domain's catalogue of a new language
    python tools/catalogues.py compile           # compile the .po files into the .mo files the judge reads
    python tools/catalogues.py check             # CI: the templates fresh, the complete languages whole
    python tools/catalogues.py stats             # how much of each language is translated

A catalogue belongs to a *domain*: the host's (``judge/``, without the kinds' folders, into
``judge/locale``) and one per kind of game (``judge/games/<kind>/`` into its own ``locale``), so that a
kind stays one folder.  Messages are marked ``_("...")`` and ``ngettext(...)`` in the code (`judge.language`)
and ``{% trans %}`` or ``_()`` in the templates.  docs/architecture/translating.md is the translators' path.
"""

from __future__ import annotations

import argparse
import io
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
COMPLETE = ("fr", "it")
"""The languages whose catalogues must be whole: every message translated, none fuzzy (CI checks it)."""
KEYWORDS = {"_": None, "gettext": None, "ngettext": (1, 2), "pgettext": ((1, "c"), 2), "later": None, "nlater": (1, 2)}
"""The functions that mark a message (`judge.language`): ``_`` and ``later`` (a text kept to be worded when read)
their first argument, ``ngettext`` and ``nlater`` their first two (the singular and the plural), ``pgettext`` its
second in the context its first names; a template's
``{% trans %}`` block is a ``gettext`` (or an ``ngettext``)."""
TEMPLATES = {"extensions": "jinja2.ext.i18n", "trimmed": "true", "trim_blocks": "true", "lstrip_blocks": "true"}
"""How Jinja2 reads the templates, as the judge's environments do (`judge.service.templates`)."""
_PLACE = re.compile(r"\{([a-z_][a-z0-9_]*)\}|%\(([a-z_][a-z0-9_]*)\)[sd]")
"""A named place of a message: ``{unit}`` in the code's, ``%(unit)s`` in the templates'."""


@dataclass(frozen=True)
class Domain:
    """One catalogue's sources and folder: the host's, or a kind's."""

    name: str
    source: Path
    locale: Path
    others: tuple[str, ...] = ()  # folders of the source left to other domains

    @property
    def template(self) -> Path:
        return self.locale / "messages.pot"

    def po(self, language: str) -> Path:
        return self.locale / language / "LC_MESSAGES" / "messages.po"

    def mo(self, language: str) -> Path:
        return self.locale / language / "LC_MESSAGES" / "messages.mo"


def domains(root: Path = ROOT) -> list[Domain]:
    """The host's domain and each kind's (every package in ``judge/games``)."""
    games = root / "judge" / "games"
    kinds = [Domain(folder.name, folder, folder / "locale") for folder in sorted(games.iterdir())
             if (folder / "__init__.py").is_file()]
    return [Domain("judge", root / "judge", root / "judge" / "locale", ("games", "migrations")), *kinds]


def extract(domain: Domain) -> Catalog:
    """Every message marked in ``domain``'s code and templates, with where each is."""
    skipped = [(f"{other}/**", "ignore") for other in domain.others]
    method_map = [*skipped, ("**.py", "python"), ("**.j2", "jinja2.ext:babel_extract")]
    catalog = Catalog(project="judge", charset="utf-8")
    found = extract_from_dir(str(domain.source), method_map, {"**.j2": TEMPLATES}, KEYWORDS, strip_comment_tags=True)
    for filename, line, message, comments, context in found:
        catalog.add(message, None, [(filename, line)], auto_comments=comments, context=context)
    return catalog


def _write(path: Path, catalog: Catalog) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    buffer = io.BytesIO()
    write_po(buffer, catalog, width=100, omit_header=False, ignore_obsolete=True, include_previous=False)
    path.write_bytes(buffer.getvalue())


def _read(path: Path, language: str | None = None) -> Catalog:
    with path.open("rb") as file:
        return read_po(file, locale=language)


def compiled(catalog: Catalog) -> bytes:
    """The ``.mo`` bytes of ``catalog``, its fuzzy entries left out."""
    buffer = io.BytesIO()
    write_mo(buffer, catalog, use_fuzzy=False)
    return buffer.getvalue()


def languages(domain: Domain) -> list[str]:
    """The languages ``domain`` has a catalogue for."""
    if not domain.locale.is_dir():
        return []
    return sorted(entry.name for entry in domain.locale.iterdir() if (entry / "LC_MESSAGES" / "messages.po").is_file())


def update(domain: Domain, wanted: list[str]) -> None:
    """Write ``domain``'s template anew and bring its catalogue of each language of ``wanted`` up to it
    (starting those it lacks), compiled; a kind that marks no message has none."""
    template = extract(domain)
    if not len(template) and not domain.template.is_file():
        return
    _write(domain.template, template)
    for language in sorted({*wanted, *languages(domain)}):
        path = domain.po(language)
        catalog = _read(path, language) if path.is_file() else Catalog(locale=language, project="judge")
        catalog.update(template, no_fuzzy_matching=True)
        _write(path, catalog)
        domain.mo(language).write_bytes(compiled(catalog))


_LATIN_1 = 0xFF
"""The last letter of Latin-1: a translation writes none past it that its English lacks.  A mail of such letters only
is held by Python one byte a letter, one with a letter past them two (a typographic apostrophe put every Italian
and French results mail there, each step of writing and sending it the slower); and the catalogues write the
straight apostrophe everywhere else."""


def places(text: str) -> set[str]:
    """The named places of a message or of its translation."""
    return {match.group(1) or match.group(2) for match in _PLACE.finditer(text)}


def problems(domain: Domain, complete: tuple[str, ...] = COMPLETE) -> Iterator[str]:
    """What is wrong with ``domain``'s catalogues: a template that no longer lists what the code marks, a
    complete language with a message untranslated, fuzzy or missing, a translation whose named places
    are not its message's or with a letter past Latin-1 its message lacks (`_LATIN_1`), a ``.mo`` that is not its
    ``.po`` compiled."""
    marked = {message.id for message in extract(domain) if message.id}
    listed = {message.id for message in _read(domain.template) if message.id} if domain.template.is_file() else set()
    for message_id in sorted(marked - listed, key=str):
        yield f"{domain.name}: not in messages.pot (run tools/catalogues.py update): {message_id!r}"
    for message_id in sorted(listed - marked, key=str):
        yield f"{domain.name}: in messages.pot but marked nowhere (run tools/catalogues.py update): {message_id!r}"
    for language in languages(domain):
        catalog = _read(domain.po(language), language)
        yield from _language_problems(domain, language, catalog, marked, language in complete)
        if not domain.mo(language).is_file() or domain.mo(language).read_bytes() != compiled(catalog):
            yield f"{domain.name} {language}: messages.mo is not messages.po compiled (run tools/catalogues.py compile)"
    for language in complete:
        if marked and not domain.po(language).is_file():
            yield f"{domain.name} {language}: no catalogue (run tools/catalogues.py update)"


def disagreements(found: list[Domain], complete: tuple[str, ...] = COMPLETE) -> Iterator[str]:
    """A message two domains both mark, translated two ways in a language: the judge reads one merged
    catalogue per language (`judge.language.translations`, the host's last), so one of the two would be
    written in the other's mail too (a kind's subject in another kind's words)."""
    for language in complete:
        said: dict[tuple[object, object], dict[str, object]] = {}
        for domain in found:
            if domain.po(language).is_file():
                for message in _read(domain.po(language), language):
                    if message.id and message.string:
                        said.setdefault((message.context, message.id), {})[domain.name] = message.string
        for (context, message_id), ways in said.items():
            if len(set(map(str, ways.values()))) > 1:
                named = f"{context}|{message_id!r}" if context else repr(message_id)
                yield f"{language}: {named} translated differently by {', '.join(sorted(ways))}: " \
                      f"{'; '.join(f'{name}: {way!r}' for name, way in sorted(ways.items()))}"


def _language_problems(domain: Domain, language: str, catalog: Catalog, marked: set[object],
                       complete: bool) -> Iterator[str]:
    where = f"{domain.name} {language}"
    found = {message.id for message in catalog if message.id}
    if complete:
        for message_id in sorted(marked - found, key=str):
            yield f"{where}: missing: {message_id!r}"
    for message in catalog:
        if not message.id:
            continue
        plurals = message.id if isinstance(message.id, tuple) else (message.id,)
        singular = plurals[0]
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        if complete and (message.fuzzy or not all(strings)):
            yield f"{where}: {'fuzzy' if message.fuzzy else 'untranslated'}: {singular!r}"
        wider = {letter for string in filter(None, strings) for letter in string if ord(letter) > _LATIN_1} - set(
            "".join(map(str, plurals)))
        if wider:
            yield f"{where}: letters past Latin-1 its message lacks ({''.join(sorted(wider))}: the catalogues write " \
                  f"the straight apostrophe): {singular!r}"
        wanted = set().union(*(places(text) for text in plurals))
        for string in filter(None, strings):
            if places(string) - wanted or (len(plurals) == 1 and places(string) != wanted):
                yield f"{where}: named places {sorted(places(string))} where the message has {sorted(wanted)}: " \
                      f"{singular!r}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("action", choices=("update", "init", "compile", "check", "stats"))
    parser.add_argument("language", nargs="?", help="init: the code of the new language (e.g. de)")
    args = parser.parse_args(argv)
    found = domains()
    host = languages(found[0])
    if args.action in ("update", "init"):
        if args.action == "init" and not args.language:
            parser.error("init needs the code of a language")
        for domain in found:
            update(domain, [*host, args.language] if args.language else host)
    elif args.action == "compile":
        for domain in found:
            for language in languages(domain):
                domain.mo(language).write_bytes(compiled(_read(domain.po(language), language)))
    elif args.action == "stats":
        for domain in found:
            for language in languages(domain):
                catalog = _read(domain.po(language), language)
                done = sum(1 for m in catalog if m.id and not m.fuzzy and all(
                    m.string if isinstance(m.string, tuple) else (m.string,)))
                print(f"{domain.name} {language}: {done} of {sum(1 for m in catalog if m.id)} translated")
    else:
        wrong = [*(problem for domain in found for problem in problems(domain)), *disagreements(found)]
        print("\n".join(wrong) or "the catalogues are whole")
        return 1 if wrong else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
