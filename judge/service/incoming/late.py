"""Which phase a mail was meant for: a seat's mail that comes after its phase was processed.

Theory of operation.  A mail that names no phase acts on its game's phase as it is when the mail
is read.  One that does name a phase, in any of three ways, acts on the game only if that phase
is the game's phase now (`meant_for`):

1. a line ``PHASE <phase>`` (`judge.commands.parse.PhaseNamed`), the player's own word: it wins
   over the other two, so that ``PHASE F1901M`` sends again, for the phase now, lines that were
   meant for the one before;
2. the subject, written by the player (not a reply's or a forward's ``Re:`` / ``Fwd:``, whose
   subject is the judge's: the results of S1901M are answered with the orders of the next
   phase), naming a phase of the game as a word of its own (``S1901M orders``, in any case), two
   characters or more: one it has processed, or one it has not reached but can still reach,
   written as its kind writes the names of its phases (`Phases.phase_names`) and coming after
   the phase now in its course (`Phases.phase_order`: ``F1901M orders`` in S1901M).  Any other
   word is no phase's name, however much it looks like one: ``sheet [f0045a]`` (a tag, a year
   the game left behind, a phase the kind never has) names none, and acts on the phase now;
3. the judge's mail it answers (``In-Reply-To``, ``References``: the newest of them the judge
   sent about this game), which belongs to the phase that was open when it was sent: a phase's
   start mail, the results that opened it, its reminders, the answers to the mail read in it.
   A moment two phases share (one processed and the next opened at once) belongs to the later
   one, except for a mail queued before that processing began (the answer to the very mail
   that completed the phase): the outbox row's id against the first results queued then.

Each kind names its phases its own way (``S1901M``, ``SP1454A``, ``W1900X``, ``V3``); the host
knows every phase row's name of a game, which is all it needs.  A mail meant for a phase the
game has processed is *late*: the lines that act for the seat (the kind's orders, sheets,
letters and own commands, and WAIT) are not applied, and the reply says when that phase was
processed and how to apply them to the phase now (``PHASE <phase now>``); the host's other
commands (STATUS, PRESS, HELP, ...) are done as ever (`judge.service.incoming.handlers.conversation`).
One meant for a phase the game has not reached is not applied either, the same way.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import NamedTuple

from sqlalchemy import bindparam, func, select
from sqlalchemy.orm import Session

from judge.commands import parse as cmd
from judge.language import gettext as _
from judge.mail.inbound import InboundMail
from judge.service.templates import when
from judge.store.models import Game, Outbox, PhaseRow

_NOT_OWN_SUBJECT = re.compile(r"\s*(?:re|aw|sv|antw|odp|vs|fwd?|wg|tr)\s*(?:\[\d+\])?\s*:", re.IGNORECASE)
"""The start of a subject a mail client wrote for a reply or a forward, in a few languages."""
_WORD = re.compile(r"[A-Za-z0-9]+")


@dataclass(frozen=True)
class Meant:
    """The phase a mail was meant for, other than its game's phase now: how the mail said so (`LINE`,
    `SUBJECT`, `ANSWER`), and when that phase was processed (None: the game has not reached it, or has no
    phase so named)."""

    phase: str
    how: str
    processed_at: datetime | None

    def note(self, game: Game, seat_word: str = "") -> str:
        """What the reply says once, in its notes above the lines not applied (``seat_word``, the kind's
        word for a seat, is no longer said: the note speaks of the reader's seat)."""
        values = {"phase": self.phase, "game": game.name, "line": f"PHASE {self.phase}"}
        if self.processed_at is not None:
            processed = when(self.processed_at)
            if self.how == LINE:
                what = _("This mail was meant for {phase} of {game} (your line {line}), which was processed {when}, "
                         "before this mail was read: none of its lines for your seat was applied.", when=processed,
                         **values)
            elif self.how == SUBJECT:
                what = _("This mail was meant for {phase} of {game} (its subject names it), which was processed "
                         "{when}, before this mail was read: none of its lines for your seat was applied.",
                         when=processed, **values)
            else:
                what = _("This mail was meant for {phase} of {game} (it answers the judge's mail of that phase), "
                         "which was processed {when}, before this mail was read: none of its lines for your seat was "
                         "applied.", when=processed, **values)
        elif self.how == LINE:
            what = _("This mail was meant for {phase} (your line {line}), which is not a phase {game} is in: none of "
                     "its lines for your seat was applied.", **values)
        else:
            what = _("This mail was meant for {phase} (its subject names it), which is not a phase {game} is in: none "
                     "of its lines for your seat was applied.", **values)
        return what + " " + _("The phase of {game} now is {now}: to apply them to it, send them again with the line "
                              "PHASE {now}.", game=game.name, now=game.phase)

    def reason(self) -> tuple[str, str]:
        """The code and words each line not applied is answered with."""
        if self.processed_at is not None:
            return "LATE", _("not applied: this mail was meant for {phase}, processed already (see the note)",
                             phase=self.phase)
        return "NOT_THE_PHASE", _("not applied: this mail was meant for {phase}, not the phase now (see the note)",
                                  phase=self.phase)


LINE, SUBJECT, ANSWER = "line", "subject", "answer"
"""How a mail names the phase it was meant for (`Meant.how`): a ``PHASE`` line, its subject, the judge's
mail it answers."""


class Phase(NamedTuple):
    """A phase row of a game, as `meant_for` needs it."""

    name: str
    status: str
    opened_at: datetime
    processed_at: datetime | None


def phases_of(session: Session, game: Game) -> list[Phase]:
    """Every phase row of ``game``, in order (read once per transaction and phase by the caller)."""
    return [Phase(*row) for row in session.execute(_PHASES, {"game": game.id})]


_PHASES = (select(PhaseRow.name, PhaseRow.status, PhaseRow.opened_at, PhaseRow.processed_at)
           .where(PhaseRow.game_id == bindparam("game")).order_by(PhaseRow.id))  # built once: read at each mail


Order = Callable[[str], tuple[int, ...] | None]
"""Where a phase of the game's kind comes in its course (`Phases.phase_order`)."""


def meant_for(session: Session, game: Game, mail: InboundMail, named: Sequence[str],
              phases: Sequence[Phase], phase_names: str = "", order: Order = lambda _: None) -> Meant | None:
    """The phase ``mail`` was meant for, if it names one that is not ``game``'s phase now (see the
    module's header); ``named``: the phases its ``PHASE`` lines name, upper case; ``phases``: the
    game's (`phases_of`); ``phase_names`` and ``order``: the kind's (`Phases.phase_names`,
    `Phases.phase_order`).  None: the mail acts on the phase now."""
    if game.phase is None:
        return None
    processed = {phase.name: phase.processed_at for phase in phases if phase.status == "processed"}
    if named:
        if game.phase in named:
            return None
        return Meant(named[0], LINE, processed.get(named[0]))
    if not _NOT_OWN_SUBJECT.match(mail.subject):
        words = {word.upper() for word in _WORD.findall(mail.subject)}
        if game.phase in words:
            return None
        for phase in phases:
            if phase.name in processed and len(phase.name) > 1 and phase.name in words:
                return Meant(phase.name, SUBJECT, phase.processed_at)
        ahead = sorted(word for word in words if phase_names and re.fullmatch(phase_names, word, re.IGNORECASE)
                       and word not in processed and to_come(order, word, game.phase))
        if ahead:
            return Meant(ahead[0], SUBJECT, None)
    answered = _answered(session, game, mail.references, phases)
    if answered is not None and answered != game.phase and answered in processed:
        return Meant(answered, ANSWER, processed[answered])
    return None


def to_come(order: Order, name: str, now: str) -> bool:
    """Whether the phase named ``name`` comes after the phase ``now`` in the kind's course (``order``):
    the game can still reach it."""
    where, here = order(name), order(now)
    return where is not None and here is not None and where > here


def _answered(session: Session, game: Game, references: Sequence[str], phases: Sequence[Phase]) -> str | None:
    """The phase of the newest mail of ``references`` the judge sent about ``game``, or None."""
    if not references:
        return None
    found = session.execute(select(Outbox.id, Outbox.created_at)
                            .where(Outbox.game_id == game.id, Outbox.message_id.in_(references))
                            .order_by(Outbox.id.desc()).limit(1)).first()
    if found is None:
        return None
    row_id, sent = found
    spanning = [phase.name for phase in phases
                if phase.opened_at <= sent and (phase.processed_at is None or sent <= phase.processed_at)]
    if len(spanning) < 2:
        return spanning[0] if spanning else None
    first_results = session.scalar(select(func.min(Outbox.id)).where(
        Outbox.game_id == game.id, Outbox.created_at == sent, Outbox.kind == "results"))
    return spanning[0] if first_results is not None and row_id < first_results else spanning[-1]


AHEAD = 3
"""How many phases ahead a seat's block of lines may be kept for (``PHASE <later phase>``,
`judge.service.incoming.handlers.ahead`): one year's cycle of a Diplomacy board."""


def phase_lines(lines: Sequence[cmd.Line]) -> list[tuple[str, bool]]:
    """Each ``PHASE`` line's phase, in the mail's order, and whether a ``SIGNON`` comes before it (no
    ``SIGNOFF`` between): only such a line may open a block of lines for a later phase (`opens_block`),
    which says nothing of the rest of the mail."""
    named, signed = [], False
    for line in lines:
        if isinstance(line.command, cmd.SignOn | cmd.SignOff):
            signed = isinstance(line.command, cmd.SignOn)
        elif isinstance(line.command, cmd.PhaseNamed):
            named.append((line.command.phase, signed))
    return named


def opens_block(following: Sequence[str], game: Game, phase: str, processed: set[str]) -> bool:
    """Whether a seat's line ``PHASE <phase>`` opens a block of lines for a later phase in ``game``: its kind
    names phases that may follow (``following``: `Phases.following`, empty where it keeps no block), the game
    is active, and ``phase`` is neither the phase now nor one ``processed``."""
    return (game.state == "active" and game.phase is not None and phase != game.phase
            and phase not in processed and bool(following))
