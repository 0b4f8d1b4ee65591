"""The judge's text as ``format=flowed`` (RFC 3676, ``DelSp=no``): prose reflows on a phone,
tables and lists stay as they were written.

In RFC 3676 a line that ends in a space is *soft*: a reader joins it to the next and wraps the
paragraph to its own width; any other line is *hard*, shown as it is.  The judge's text comes from
templates and Python strings written as fixed-width text, wrapped by hand at various widths; `flow`
(the one encoder, called on every text part `judge.mail.outbound.build_message` writes) tells its
prose from its fixed lines by a rule a template writer can follow:

- A line is **fixed** if it is empty, begins with a space, ``>`` or ``%`` (a comment to the judge's
  reader: a form's notes), holds two spaces in a row (the columns of a table), or is the signature
  separator ``-- ``; so is every line of a form to fill, from its ``%% form for`` line to its
  ``%% end of form`` (`judge.service.outgoing.forms`: the lines a player sends back, whatever case
  they begin in).  Every other line is **prose**.
- Two prose lines in a row make one paragraph (the first goes on into the second), unless the
  first ends with a colon (it opens a list: ``What the investor knows now:``), when the second
  goes on with a sentence (it begins with a lower-case letter or ``(``), or when the first ends a
  sentence or clause (``.``, ``!``, ``?``, ``,`` or ``;``, before any closing bracket or quote) and
  the second begins a sentence (a capital, then lower case: ``Your``, ``A phase``; not a word in
  capitals such as ``CONFIRM`` or ``NOTE:``, nor a unit such as ``A PAR``).  Otherwise the break
  stays hard: a line of its own (``Your balance: 48 AgP``) is never joined to the next.
- Each line as a reader will see it (a paragraph joined, or a fixed line) longer than `WIDTH` is
  broken at spaces into soft lines of at most `WIDTH` characters, unless it is a table's row (it
  holds two spaces in a row after its indent: the templates keep those short).  A long indented
  line (an answer's ``  ERROR: ...``, a list's item) is a paragraph alone: its continuations start
  at the margin in a reader that does not reflow, and a reader that does keeps its indent.
- Trailing spaces of the text are dropped (a space at a line's end would make it soft), and a line
  that begins with a space, ``>`` or ``From `` is space-stuffed (a space put before it, which the
  reader takes away).

Decoded (soft lines joined, stuffing removed), the text is the writer's, with each paragraph on one
line: a table's, a list's or a form's lines are never joined.
"""

from __future__ import annotations

import functools
import re

WIDTH = 72
"""The longest line the judge sends, its soft space and its stuffing counted (RFC 3676 4.2)."""

FLOWED = {"format": "flowed", "delsp": "no"}
"""The ``Content-Type`` parameters of a text `flow` made."""

SIGNATURE = "-- "
FORM_OPENS, FORM_ENDS = "%% form for ", "%% end of form"  # a form's first and last lines, as the host lays it out
_LINE_ENDS = re.compile(r"\r\n|\r|\n")  # the line ends the email package cuts a text's bytes at
_CLOSERS = ")]\"'"
_CLAUSE_ENDS = ".!?,;"


@functools.lru_cache(maxsize=256)
def flow(text: str) -> str:
    """``text`` as format=flowed lines, each ending in ``\\n`` as ``text``'s did (the rule is the
    module's).  A text many readers are sent (a phase's public results) is encoded once."""
    lines = [line if line == SIGNATURE else line.rstrip(" ") for line in _LINE_ENDS.split(text)]
    sent: list[str] = []
    index = 0
    form = False  # inside a form to fill: every line is fixed
    while index < len(lines):
        line = lines[index]
        form = form or line.startswith(FORM_OPENS)
        while not form and index + 1 < len(lines) and _goes_on(lines[index], lines[index + 1]):
            index += 1
            line = f"{line} {lines[index]}"
        sent.extend(_wrapped(line))
        form = form and line != FORM_ENDS
        index += 1
    return "\n".join(sent)


def is_fixed(line: str) -> bool:
    """Whether ``line`` is fixed: never joined to another (empty, indented, quoted, a comment, a
    table's row, the signature separator)."""
    return not line or line[0] in " >%" or "  " in line or line == SIGNATURE


def _goes_on(line: str, following: str) -> bool:
    """Whether the prose ``line`` goes on into ``following`` (the module's rule)."""
    if is_fixed(line) or is_fixed(following) or line.endswith(":"):
        return False
    if following[0].islower() or following[0] == "(":
        return True
    return line.rstrip(_CLOSERS)[-1:] in tuple(_CLAUSE_ENDS) and _begins_sentence(following)


def _begins_sentence(line: str) -> bool:
    """Whether ``line``'s first word is a capital then lower case (``Your``, ``A phase``), not a
    word in capitals (``CONFIRM``, ``NOTE:``, the unit ``A PAR``)."""
    first, _, rest = line.partition(" ")
    if not first[0].isupper():
        return False
    return first[1:].islower() if len(first) > 1 else rest[:1].islower()


def _wrapped(line: str) -> list[str]:
    """``line`` as the lines sent: stuffed, and broken into soft lines of at most `WIDTH` if it is
    longer and not a table's row."""
    indent = len(line) - len(line.lstrip(" "))
    if len(_stuffed(line)) <= WIDTH or "  " in line[indent:]:
        return [_stuffed(line)]
    pieces: list[str] = []
    start = 0
    while len(_stuffed(line[start:])) > WIDTH:
        room = WIDTH - (len(_stuffed(line[start:])) - len(line[start:]))  # a stuffed line has one less
        cut = line.rfind(" ", start + max(indent - start, 0) + 1, start + room)  # the soft space ends the line
        if cut < 0:  # a word longer than a line: the line is cut after it instead
            cut = line.find(" ", start + room)
            if cut < 0:
                break
        pieces.append(_stuffed(line[start:cut + 1]))
        start = cut + 1
    pieces.append(_stuffed(line[start:]))
    return pieces


def _stuffed(line: str) -> str:
    """``line`` with the space RFC 3676 4.4 puts before a line that begins with a space, ``>`` or
    ``From `` (which a reader would take for stuffing, a quote or an mbox's separator)."""
    return f" {line}" if line[:1] in (" ", ">") or line.startswith("From ") else line


def unflow(text: str, *, delsp: bool = False) -> str:
    """Undo RFC 3676 format=flowed: rejoin lines broken at soft line breaks (a trailing space),
    take away each line's stuffing; a quoted line (``>``) is joined only to lines of its depth.
    What a player's flowed mail is read as (`judge.mail.inbound`), and the judge's own text as its
    reader sees it (`flow`'s inverse: the demos read the judge's mail so)."""
    out: list[str] = []
    pending: str | None = None  # the paragraph being joined, without its quote marks
    pending_depth = 0
    for line in _LINE_ENDS.split(text):
        depth = len(line) - len(line.lstrip(">"))
        content = line[depth:]
        if content.startswith(" "):
            content = content[1:]  # space-stuffing
        signature = content == "-- " and not depth
        if pending is not None and (depth != pending_depth or signature):
            out.append(">" * pending_depth + pending)
            pending = None
        flowed = content.endswith(" ") and not signature
        if flowed and delsp:
            content = content[:-1]
        pending = content if pending is None else pending + content
        pending_depth = depth
        if not flowed:
            out.append(">" * depth + pending)
            pending = None
    if pending is not None:
        out.append(">" * pending_depth + pending)
    return "\n".join(out)
