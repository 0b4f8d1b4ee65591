"""Reading the judge's text as a phone does: RFC 3676 ``format=flowed`` decoded by ``formatflowed``,
a reader kept apart from the judge's encoder (`judge.mail.flowed`), so that a test of the one is
not a test of the other with itself."""

from __future__ import annotations

import textwrap
from dataclasses import dataclass

import formatflowed


@dataclass(frozen=True)
class Chunk:
    """A line as a reader shows it: ``paragraph`` (soft lines joined, to be wrapped to the
    screen) or not (a fixed line, shown as it is), its text without quote marks or stuffing."""

    text: str
    paragraph: bool


def chunks(wire: str) -> list[Chunk]:
    """The lines a reader makes of the flowed text ``wire`` (as sent, its soft spaces and
    stuffing in it); ValueError for a quoted line (the judge quotes nothing: a line of its own
    that began with ``>`` must have come stuffed)."""
    found = []
    lines = wire.removesuffix("\n").split("\n")  # the Maildir's line ends; the wire's are CRLF
    for info, text in formatflowed.decode("\r\n".join(lines).encode("utf-8"), character_set="utf-8"):
        if info["quotedepth"]:
            raise ValueError(f"a line read as quoted: {text!r}")
        found.append(Chunk(text, info["type"] == formatflowed.PARAGRAPH))
    return found


def meant(wire: str) -> str:
    """The text the judge meant by ``wire``: each paragraph on one line, each fixed line as it is,
    one ``\\n`` after each as the judge's text has (a text ends with its last line's end)."""
    lines = [chunk.text for chunk in chunks(wire)]
    return "".join(f"{line}\n" for line in lines) if wire.endswith("\n") else "\n".join(lines)


def on_a_phone(wire: str, width: int = 40) -> list[str]:
    """``wire`` as a phone shows it ``width`` characters wide: each paragraph wrapped to the
    width, each fixed line as it is."""
    shown: list[str] = []
    for chunk in chunks(wire):
        if chunk.paragraph and chunk.text.strip():
            shown.extend(textwrap.wrap(chunk.text, width, drop_whitespace=True) or [""])
        else:
            shown.append(chunk.text)
    return shown
