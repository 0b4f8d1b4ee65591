"""Which language a mail is written in, read from the catalogues' own sentences: the check that no English
sentence of a catalogue reaches an Italian or French reader, and no Italian or French one an English reader
(issue 72's Show).

Theory of operation.  Every catalogue the judge ships (the host's, ``judge/locale``, and each kind's,
``judge/games/<kind>/locale``) pairs an English message with its translation.  A message whose translation
differs from its English is cut at its named places (``{unit}``, ``%(unit)s``) into literal fragments; a
fragment of at least three words (`WORDS`) is a piece of sentence that only that language writes.  A mail is
read as its reader reads it (decoded, format=flowed joined: `tests.support.flowed.meant`, which the suite's
mail readers already apply), without the lines it quotes (``> ``: what the player wrote, echoed by an answer)
and with each line's form markers (``%``) and indentation dropped, its whitespace folded, so that a sentence
wrapped over lines reads whole.  A fragment of another language found in it is a leftover (`leftovers`),
unless the reader's own language writes the same words somewhere in its catalogues (an order word, a name).

Figures are compared apart from words (`figures`): the numbers a mail shows, in order of size, which a
translation may move within a sentence but never change."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parent.parent.parent / "judge"
SOURCE = "en"
TRANSLATED = ("fr", "it")
WORDS = 3
"""A fragment is a sentence's piece when it has at least this many words (a word: a run with a letter)."""
_PLACE = re.compile(r"\{[a-z_][a-z0-9_]*\}|%\([a-z_][a-z0-9_]*\)[sd]|%[sd]")
_WORD = re.compile(r"\S*[^\W\d_]\S*")
_NUMBER = re.compile(r"\d+")
_EDGES = "\"'\u2019«»\u201c\u201d()[]{}<>.,;:!?¡¿…\u2014\u2013-*/%=+"


@dataclass(frozen=True)
class Fragment:
    """A piece of one language's sentence: its text (whitespace folded), its language, and where it comes
    from (the catalogue's folder relative to ``judge/``, and the English message)."""

    text: str
    language: str
    catalogue: str
    message: str


def fold(text: str) -> str:
    """``text`` with every run of whitespace one space, stripped."""
    return " ".join(text.split())


def pieces(message: str) -> Iterator[str]:
    """The literal fragments of ``message`` of at least `WORDS` words, cut at its named places."""
    for piece in _PLACE.split(message):
        folded = fold(piece)
        if len(_WORD.findall(folded)) >= WORDS:
            yield folded


def catalogues() -> list[Path]:
    """Every translated catalogue the judge ships: the host's, then each kind's."""
    return sorted(ROOT.glob("locale/*/LC_MESSAGES/messages.po")) + \
        sorted(ROOT.glob("games/*/locale/*/LC_MESSAGES/messages.po"))


def _forms(value: object) -> tuple[str, ...]:
    return tuple(form for form in (value if isinstance(value, (tuple, list)) else (value,)) if form)


@cache
def fragments() -> tuple[Fragment, ...]:
    """The fragments of every message whose translation differs from its English: the English ones (once per
    catalogue and message) and each translation's."""
    found: dict[tuple[str, str], Fragment] = {}
    for path in catalogues():
        language = path.parent.parent.name
        where = path.parent.parent.parent.relative_to(ROOT).as_posix()
        with path.open("rb") as file:
            catalog = read_po(file, locale=language)
        for entry in catalog:
            english, translated = _forms(entry.id), _forms(entry.string)
            if not english or not translated or entry.fuzzy or set(english) == set(translated):
                continue
            for text in english:
                for piece in pieces(text):
                    found.setdefault((SOURCE, piece), Fragment(piece, SOURCE, where, english[0]))
            for text in translated:
                for piece in pieces(text):
                    found.setdefault((language, piece), Fragment(piece, language, where, english[0]))
    return tuple(found.values())


@cache
def written_in(language: str) -> str:
    """Every message of every catalogue as ``language`` writes it (English: the messages themselves), folded
    and joined: the words a reader of that language may read."""
    texts: set[str] = set()
    for path in catalogues():
        with path.open("rb") as file:
            catalog = read_po(file, locale=path.parent.parent.name)
        for entry in catalog:
            if language == SOURCE:
                texts.update(fold(form) for form in _forms(entry.id))
            elif path.parent.parent.name == language:
                texts.update(fold(form) for form in _forms(entry.string))
    return "\n".join(sorted(texts))


@cache
def foreign_to(language: str) -> tuple[Fragment, ...]:
    """The fragments a reader of ``language`` must never read: every other language's, but those the reader's
    own language writes too."""
    own = written_in(language)
    return tuple(fragment for fragment in fragments() if fragment.language != language and fragment.text not in own)


def read(body: str) -> str:
    """A mail's text as its reader reads the judge's words in it: the quoted lines (what the player wrote)
    and a form's frame (``%% form for S1901M of g1, France``, ``%% end of form``: grammar, every reader's
    alike) left out, each line's form markers and indentation dropped, whitespace folded."""
    kept = (line.lstrip().lstrip("%").strip() for line in body.split("\n")
            if not line.lstrip().startswith((">", "%%")))
    return fold(" ".join(kept))


def leftovers(text: str, language: str) -> list[Fragment]:
    """The fragments of another language than ``language`` found in ``text`` (a mail's subject and body, read
    with `read`), each once: empty when the mail is wholly in its reader's language."""
    read_text = read(text)
    return [fragment for fragment in foreign_to(language) if fragment.text in read_text]


def _words(text: str) -> list[str | None]:
    """``text``'s whitespace-separated tokens, each a word (its punctuation at either end stripped, its first
    letter lowercased) or None where it is no word: a number, a code, a word in capitals (``SET``, ``IP``)."""
    found: list[str | None] = []
    for token in text.split():
        word = token.strip(_EDGES)
        word = word[:1].lower() + word[1:]
        found.append(word if word and all(c.isalpha() or c in "'\u2019-" for c in word) and word.islower() else None)
    return found


@cache
def vocabulary(language: str) -> frozenset[str]:
    """Every word the catalogues write in ``language`` (English: their messages), their places left out."""
    return frozenset(word for text in written_in(language).split("\n") for word in _words(_PLACE.sub(" ", text))
                     if word)


@cache
def foreign_words(language: str) -> frozenset[str]:
    """The words another language's messages write that no message of ``language`` does (``the``, ``unknown``
    for an Italian reader)."""
    others = frozenset().union(*(vocabulary(other) for other in (SOURCE, *TRANSLATED) if other != language))
    return others - vocabulary(language)


RUN = 2
"""Words in a row that only another language writes: a run of this many is a piece of that language."""


def foreign_runs(text: str, language: str, length: int = RUN) -> list[str]:
    """The runs of at least ``length`` words in a row of ``text`` (read with `read`) that only another language
    writes: English words inside an Italian sentence (``inviata da ... from an unknown IP address``), which
    no catalogue message holds whole.  A word every language writes (an order's ``from``, a name) or none
    (a name the catalogues do not hold) ends a run."""
    words = read(text).split()
    marks = [word is not None and word in foreign_words(language) for word in _words(" ".join(words))]
    runs, start = [], None
    for at, foreign in enumerate([*marks, False]):
        if foreign and start is None:
            start = at
        elif not foreign and start is not None:
            if at - start >= length:
                runs.append(" ".join(words[start:at]))
            start = None
    return runs


def figures(text: str) -> list[int]:
    """The numbers ``text`` shows (the quoted lines left out), in order of size."""
    return sorted(int(number) for number in _NUMBER.findall(read(text)))


def grouped(found: Iterable[tuple[str, Fragment]]) -> dict[str, list[str]]:
    """Leftovers found (each with what was being read) grouped by the catalogue they come from, for a failure's
    message: ``catalogue: [language] fragment  <- message  (in: where)``."""
    by: dict[str, list[str]] = {}
    for where, fragment in found:
        line = f"[{fragment.language}] {fragment.text!r} <- {fragment.message!r} (in: {where})"
        if line not in by.setdefault(fragment.catalogue, []):
            by[fragment.catalogue].append(line)
    return by
