"""A seat's lines in one mail: held in blocks its game's kind acts on as a whole when the seat's lines
end (a Payola sheet, a Machiavelli letter), answered STATUS as things then stand, set aside when a later
mail set them already, and held back altogether when the mail may not act for the seat: it was sent to
others too in a game that reads only mail to the judge alone (M58), or meant for a phase other than the
game's now (`judge.service.incoming.late`).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import NamedTuple

from judge.commands import parse as cmd
from judge.language import gettext as _
from judge.language import ngettext
from judge.mail.received import not_before
from judge.service.hosting import host
from judge.service.incoming import late
from judge.service.incoming.handlers.telling import Telling
from judge.service.states import RUNNING
from judge.store.models import Game


class Why(NamedTuple):
    """Why a command is not done: the name a program reads (`Echo.code`) and the words a player reads."""

    code: str
    message: str


class Holding(Telling):
    """The seat's blocks of lines, and what is held back (`judge.service.hosting.turn.Holding`)."""

    accepted: datetime
    notes: list[str]
    named: list[tuple[str, bool]]
    meant: dict[int, late.Meant | None]
    held: set[tuple[str, int]]

    def wait_lines(self, game: Game, seat: str | None) -> list[str]:
        """What STATUS says of WAIT (`judge.service.incoming.handlers.player.wait`): to a seat (``seat``),
        whether its own stands; to the game master (None), which seats ask it.  Nobody else is told:
        a WAIT is secret from the other seats."""
        if game.phase is None or game.state not in RUNNING or not self.kinds.of(game).closes_early:
            return []
        waiting = host.seats_waiting(self.session, game)
        if seat is not None:
            return [_("you asked {phase} to WAIT for its deadline (NOWAIT to withdraw)", phase=game.phase)
                    ] if seat in waiting else []
        title = self.kinds.of(game).seat_title
        if not waiting:
            return [_("asking {phase} to WAIT for its deadline: nobody", phase=game.phase)]
        return [_("asking {phase} to WAIT for its deadline: {seats}", phase=game.phase,
                  seats=", ".join(map(title, waiting)))]

    def hold(self, name: str, text: str) -> int:
        index = self.echo(text, "ok")
        self.context.block.setdefault(name, []).append((index, text))
        return index

    def block(self, name: str) -> list[tuple[int, str]]:
        return list(self.context.block.get(name, []))

    def drop_blocks(self) -> None:
        self.context.block.clear()

    def superseded(self, since: datetime | None, what: str) -> str | None:
        """Why this mail may not set ``what`` (a power's sheet, orders, list or vote): a later
        mail, accepted at ``since``, has set it already, and an older mail never replaces a
        newer one, whatever order they are delivered in; None if it may (never set by mail, or
        set by a mail accepted no later than this one, at the resolution of the MTA's Received:
        lines, `not_before`: then the order of arrival decides).  ``what`` is no longer said: the
        lines answered name it, and the answer is one whole sentence."""
        if since is None or not_before(self.accepted, since):
            return None
        return _("not applied: this mail was accepted {accepted} UTC, and a later one, accepted {since} UTC, has "
                 "already set what these lines set (mail held on its way may be delivered out of order)",
                 accepted=self.accepted.strftime("%Y-%m-%d %H:%M:%S"), since=since.strftime("%Y-%m-%d %H:%M:%S"))

    def set_aside(self, block: Sequence[tuple[int, str]], why: str, code: str = "SUPERSEDED") -> None:
        """Answer the lines of a block not applied as a whole (echo indexes and texts): each
        ``ignored`` with ``code``, the last one saying ``why``."""
        for index, _line in block:
            self.echoes[index].outcome, self.echoes[index].message = "ignored", _("not applied: see below")
            self.echoes[index].code = code
        self.echoes[block[-1][0]].message = why

    def meant_for(self, game: Game) -> late.Meant | None:
        """The phase of ``game`` this mail was meant for, if it names one that is not the game's now
        (`judge.service.incoming.late.meant_for`: read once per mail and game), told once in the reply's notes
        (above its lines); None if it acts on the phase now."""
        if game.id not in self.meant:
            phases = self.read_once(game, "phase rows", lambda: late.phases_of(self.session, game))
            kind = self.kinds.of(game)
            processed = {phase.name for phase in phases if phase.status == "processed"}
            following = kind.following(game, game.phase or "")
            named = [phase for phase, signed in self.named  # a block's PHASE line is no word on the whole mail
                     if not (signed and late.opens_block(following, game, phase, processed))]
            self.meant[game.id] = late.meant_for(self.session, game, self.mail, named, phases,
                                                 kind.phase_names, kind.phase_order)
        meant = self.meant[game.id]
        if meant is not None and ("late", game.id) not in self.held:
            self.held.add(("late", game.id))
            self.notes.append(meant.note(game, self.kinds.of(game).seat_word))
        return meant

    def _held_back(self, command: cmd.Command) -> Why | None:
        """Why a line that acts for the signed-on seat (its game's orders, sheets, letters and own
        commands, and WAIT) is not done, or None: the mail was sent to others too, in a game that
        reads orders only from mail sent to the judge alone (`judge.service.hosting.kinds.Commands.orders_private`:
        Machiavelli's 17.4, M58); or it was meant for a phase other than the game's now
        (`judge.service.incoming.late`).  The reply says why once, in its notes; the mail's other
        commands are done as ever, and nothing held back counts as the seat's sending (a
        correction is not used up)."""
        game, seat = self.context.game, self.context.seat
        own = self.kinds.dispatch.is_games(type(command))
        if game is None or seat is None or game.state not in RUNNING or not (own or isinstance(command, cmd.Wait)):
            return None
        kind = self.kinds.of(game)
        judge = self.settings.judge_address.lower()
        others = [address for address in self.mail.recipients if address != judge]
        if own and kind.orders_private and others:
            if ("private", game.id) not in self.held:
                self.held.add(("private", game.id))
                yours = {self.mail.sender.lower(), self.mail.reply_to.lower()}  # M58 counts one's own address too
                named = ", ".join(_("{address}, your own", address=address) if address in yours else address
                                  for address in others[:3])
                if len(others) > 3:
                    named = ngettext("{named} and {count} more", "{named} and {count} more", len(others) - 3,
                                     named=named)
                self.notes.append(_("This mail was sent to others too ({named}): {kind} takes orders only from mail "
                                    "sent to the judge alone ({rule}), so none of its lines for you was taken, and "
                                    "none counts as a letter or a correction of yours; its other commands were read. "
                                    "Send your orders to {judge} alone.", named=named, kind=kind.title,
                                    rule=kind.orders_private, judge=self.settings.judge_address))
            return Why("SENT_TO_OTHERS", _("not taken: sent to others too ({rule})", rule=kind.orders_private))
        meant = self.meant_for(game)
        return None if meant is None else Why(*meant.reason())
