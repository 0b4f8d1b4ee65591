"""A pseudo-language that shows which sentences of the judge's mail are not yet messages of a catalogue.

Within `pseudo`, every message the judge writes for a reader of Italian is written as its English
between brackets, ``⟦The judge will write to you in {language}...⟧``, whatever the catalogue says: a
sentence of an Italian reader's mail outside brackets was never asked of a catalogue (`untranslated`
finds such lines).  ``python -m tests.support.pseudo`` plays the first phase of a game of each kind
with every reader on Italian and prints, mail by mail, the lines left outside: how much of the judge
is still to be marked (docs/architecture/translating.md).
"""

from __future__ import annotations

import re
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from gettext import NullTranslations
from pathlib import Path

import judge.language

OPEN, CLOSE = "⟦", "⟧"
_MARKED = re.compile(f"{OPEN}[^{OPEN}{CLOSE}]*{CLOSE}")
_WORDS = re.compile(r"\b[a-z]{2,}\b(?:[ ,;:'-]+\b[a-z]{2,}\b)+")
"""Two words of the English a sentence is made of, lower case, next to each other: what no value (a
number, an order in the grammar, a power's or an area's name) and no command word is."""


class _Bracketed(NullTranslations):
    """Every message as its English between brackets."""

    def gettext(self, message: str) -> str:
        return f"{OPEN}{message}{CLOSE}"

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return f"{OPEN}{msgid1 if n == 1 else msgid2}{CLOSE}"


@contextmanager
def pseudo(language: str = "it") -> Iterator[None]:
    """Within the block, every message for a reader of ``language`` is its English between brackets."""
    real = judge.language.translations

    def bracketed(code: str) -> NullTranslations:
        return _Bracketed() if code == language else real(code)

    bracketed.cache_clear = real.cache_clear  # type: ignore[attr-defined]  # a kind's catalogue added meanwhile
    judge.language.translations = bracketed  # type: ignore[assignment]
    try:
        yield
    finally:
        judge.language.translations = real


def untranslated(body: str) -> list[str]:
    """The lines of a mail written outside any message (two lowercase words of English left once every
    bracketed message, however many lines it was wrapped over, is taken out); quoted lines (``>``), the
    form's ``%`` lines and the lines of a form (its commands, in the grammar every language writes) and blank
    lines apart."""
    masked = body
    while (bare := _MARKED.sub(_blank, masked)) != masked:
        masked = bare
    found, in_form = [], False
    for line, rest in zip(body.splitlines(), masked.splitlines(), strict=True):
        text = line.strip()
        if text.startswith("%% form for"):
            in_form = True
        if in_form or not text or text.startswith((">", "%")):
            in_form = in_form and not text.startswith("%% end of form")
            continue
        if _WORDS.search(rest):
            found.append(line)
    return found


def _blank(match: re.Match[str]) -> str:
    """A bracketed message as spaces, its line breaks kept: the lines around it stay where they were."""
    return "".join("\n" if char == "\n" else " " for char in match.group(0))


def _report() -> int:
    """Play each kind's first phase with every reader on Italian; print what is left outside the messages."""
    from tests.service.every_kind import KINDS

    left = 0
    with pseudo():
        for kind in KINDS:
            with tempfile.TemporaryDirectory() as folder:
                judge_ = kind.judge(Path(folder))
                readers = {seat.address for seat in kind.seats} | {"gm@example.org"}
                for reader in sorted(readers):
                    judge_.send(reader, "SET LANGUAGE it")
                chosen = len(judge_.all_mail())  # the answers to SET LANGUAGE, in the language it was read in
                kind.first_played(judge_)
                for mail in judge_.all_mail()[chosen:]:
                    lines = untranslated(mail.body) if mail.to in readers else []
                    if lines:
                        print(f"== {kind.name}: {mail.subject} (to {mail.to})")
                        print("\n".join(lines))
                        left += len(lines)
    print(f"{left} lines outside the catalogues")
    return 0


if __name__ == "__main__":
    sys.exit(_report())
