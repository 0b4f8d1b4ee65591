"""The form to fill: the lines a seat may send in the phase it is in, at the end of every mail that
opens that phase for it, and a reply to it read as if only the player's own lines were written.

Theory of operation.  A kind says what its lines are (`judge.service.hosting.kinds.Commands.form`: a
`Form`, a pure function of the game's state in the phase and of the seat, so the same whenever it is
asked); the host lays it out (`lay_out`) and reads the replies (`Reading`), alike for every kind.

- **Out.**  A kind queues a mail that opens a phase for a seat with ``opens=seat``
  (`judge.service.outgoing.outbox.queue`): the host then asks the game's kind for that seat's form
  (through the registry a session carries, `Registry`) and appends it as one block, unless the
  reader's mailbox chose ``SET FORM OFF`` (`judge.service.outgoing.preferences`).  The block opens
  with a marker line (``%% form for S1901M of g1, France``) and ends with ``%% end of form``; between
  them come the host's note on how to fill it and the kind's notes, each a comment line (``%``,
  which the host's parser skips, `judge.commands.parse`), the sign-on line with its password left
  blank, and the kind's lines.  Every line is at most `WIDTH` characters.
- **Blanks.**  Whatever the player must choose is written ``_``, which no reader of the judge takes
  for a value: a line left as the form gave it is refused by its kind's reader, and is never an order
  the player did not choose.  More: a reply's line equal (blanks and case aside, `normal`) to one of
  the seat's form's lines with a blank is dropped before it is read, without a word (`Reading.unfilled`),
  and so is the sign-on line with its blank password (`unfilled_signon`).
- **Frames.**  A form's line with no blank frames the lines after it (Exchange Payola's ``FOR
  FRANCE`` and ``END``, between which come France's lines): a reply's line equal to one is read as
  written, since the lines after it are read in the part it opens, but it is no choice of the
  player's (`framing`): a reply with nothing else of the form filled came back as it was sent.
- **Markers in a reply.**  Quoted lines (``> ``) are dropped before any of this (`judge.mail.inbound`;
  a form filled in inline, the player's lines unquoted among its quoted ones below an ``On ... wrote:``
  line, is read there), so only a marker the player kept unquoted is read
  (`judge.commands.parse.FormOpens`, `FormEnds`): one that names the phase, game and seat the lines act
  for is passed over in silence; one that names another is answered in words, and none of the lines up
  to its ``%% end of form`` is applied; a form kept twice is read once, the last copy with a line filled
  in, the other answered as not read (`judge.service.incoming.handlers.conversation.form_copies`).
- **Languages.**  A form is written in its reader's language, as the mail it ends (the host's note,
  the kind's notes), all but its two marker lines (`OPENS`, `ENDS`) and its lines to send back: the
  markers are the judge's grammar, as ``SIGNON`` is, the same in every language, so that a reply read
  by the judge whatever language its form was written in (an Italian player's form forwarded to a
  French one's mailbox, a reader who changed language since) is matched with its phase, game and seat.
"""

from __future__ import annotations

import logging
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session

from judge.language import gettext as _
from judge.store.models import Game

log = logging.getLogger("judge")
WIDTH = 72
"""The longest line of a form: the longest a mail's fixed line may be (RFC 3676's advice, and a phone's)."""
BLANK = "_"
"""What a form writes where the player must choose: no reader of the judge reads it as a value."""
KINDS = "kinds"
"""Where a session keeps the judge's registry of kinds (`judge.service.hosting.kinds.Kinds`), which
answers for each game's kind (`Registry`)."""
OPENS = "%% form for {phase} of {game}, {seat}"
"""A form's opening marker: never translated, `judge.commands.parse.FORM_OPENS` reads it in every reply."""
ENDS = "%% end of form"
"""A form's end marker, never translated (`judge.commands.parse.FORM_ENDS`)."""
HOW = ("Replace each _ below with your choice and send the lines back. A line left as it is, "
       "like every line starting with %, is not read.")
"""The host's note at the head of every form: how to fill it (one sentence, wrapped as it is laid out)."""


def how() -> str:
    """`HOW` in the reader's language."""
    return _("Replace each _ below with your choice and send the lines back. A line left as it is, like every line "
             "starting with %, is not read.")


@dataclass(frozen=True)
class Form:
    """A seat's form for a phase, as its kind gives it (`judge.service.hosting.kinds.Commands.form`):
    the ``phase`` it is for (its name), the ``seat`` as the form's first line names it ("France"),
    ``notes``, what the player should know to fill it (its money, what each unit may do), each a
    sentence, and ``lines``, each a line the player may send, written with `BLANK` where the player
    must choose (``_ : A PAR H``), so that a line left as it is is no order; a line without a `BLANK`
    only frames others (``FOR FRANCE``, `framing`).  A reply's line is compared with the form only if
    it holds a `BLANK` as a word of its own, and the form is asked for then alone (a run of mail reads
    no more for the replies that keep no form)."""

    phase: str
    seat: str
    notes: tuple[str, ...] = ()
    lines: tuple[str, ...] = ()


class FormSource(Protocol):
    """What the host asks a kind for: a seat's form for the phase its game is in (None: no form)."""

    def form(self, session: Session, game: Game, seat: str) -> Form | None: ...


class Registry(Protocol):
    """The judge's kinds as the outbox reaches them (`KINDS`): the kind of a game."""

    def of(self, game: Game) -> FormSource: ...


def form_of(session: Session, game: Game, seat: str) -> Form | None:
    """``seat``'s form for the phase ``game`` is in, as its kind gives it (None: none, or a session
    without the judge's kinds)."""
    registry: Registry | None = session.info.get(KINDS)
    return asked(registry.of(game), session, game, seat) if registry is not None else None


def asked(kind: FormSource, session: Session, game: Game, seat: str) -> Form | None:
    """What ``kind``'s `form` gives ``seat``, or None if it fails: a form helps the player, and a fault
    in one must cost neither a phase's run (its mail goes without the form) nor a player's mail (read
    as if no form had been sent); the operator finds the fault in the log.  A fault of the database's
    is the caller's: its transaction cannot go on."""
    try:
        return kind.form(session, game, seat)
    except SQLAlchemyError:
        raise
    except Exception:
        log.exception("the form of %s in %s could not be made: the mail goes, or is read, without it", seat,
                      game.name)
        return None


NOTE = WIDTH - 4
"""The longest note of a list (`note_list`): a comment line's width, its ``% `` and a margin taken."""


def note_list(head: str, items: Sequence[str]) -> list[str]:
    """``head: item, item, ...`` as a form's notes, each of at most `NOTE` characters and starting with
    ``head`` (``Builds: A PAR, A MAR``): a long list goes on over several notes, never cut in an item, as
    the layout would wrap one long note."""
    found: list[str] = []
    line = ""
    for item in items:
        if line and len(line) + 2 + len(item) > NOTE:
            found.append(line)
            line = ""
        line = f"{line}, {item}" if line else f"{head}: {item}"
    return [*found, line] if line else found


def lay_out(form: Form, game: str, seat: str) -> list[str]:
    """``form`` as the block that ends a mail to ``seat`` (its name as SIGNON takes it) of ``game``:
    the opening marker, the host's note and the kind's as comment lines (a note longer than a line
    goes on over more, each a comment), the sign-on line, the kind's lines, the end marker; the notes in
    the reader's language, the markers and the lines in the judge's grammar, alike in every language."""
    block = [OPENS.format(phase=form.phase, game=game, seat=form.seat)]
    for note in (how(), *form.notes):
        block.extend(textwrap.wrap(note, WIDTH, initial_indent="% ", subsequent_indent="%   ",
                                   break_on_hyphens=False, break_long_words=True))
    block.append(signon_line(seat, game))
    block.extend(form.lines)
    block.append(ENDS)
    return block


def signon_line(seat: str, game: str) -> str:
    """The form's sign-on line, its password left blank; a seat's name of several words (Machiavelli's
    Holy Roman Empire) written as one, joined by hyphens, as SIGNON takes it."""
    return f"SIGNON {seat.replace(' ', '-')}@{game} {BLANK}"


def normal(line: str) -> str:
    """A line as a reply's line is compared with a form's: its words, single-spaced, in capitals."""
    return " ".join(line.split()).upper()


def unfilled(form: Form | None) -> frozenset[str]:
    """The lines of ``form`` with a `BLANK`, as a reply that leaves them so writes them (`normal`)."""
    return frozenset(normal(line) for line in form.lines if BLANK in line.split()) if form is not None else frozenset()


def framing(form: Form | None) -> frozenset[str]:
    """The lines of ``form`` with no `BLANK` (``FOR FRANCE``, ``END``), as a reply writes them (`normal`):
    read, for the lines after them depend on them, but no choice of the player's."""
    return frozenset(normal(line) for line in form.lines if BLANK not in line.split()) if form is not None \
        else frozenset()


def unfilled_signon(line: str) -> bool:
    """Whether ``line`` is a form's sign-on line left as it was given (its password still `BLANK`)."""
    words = line.split()
    return len(words) == 3 and words[0].upper() == "SIGNON" and words[2] == BLANK
