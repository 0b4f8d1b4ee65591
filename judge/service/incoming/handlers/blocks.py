"""A mail's blocks of lines for a later phase, as the conversation reads them: ``PHASE <later phase>`` opens
one, and the lines after it are kept for that phase, checked for what can be checked now (the theory of
operation is `judge.service.incoming.handlers.ahead`'s: what is kept, refused, and read when the phase opens).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from sqlalchemy import select

from judge.commands import parse as cmd
from judge.language import gettext as _
from judge.language import ngettext
from judge.service.hosting.kinds import GameKind
from judge.service.incoming import late
from judge.service.incoming.handlers.holding import Holding
from judge.service.states import GameState
from judge.store.models import AheadBlock, Game

AHEAD = late.AHEAD


@dataclass
class Block:
    """A block being read: its phase (None: ``PHASE`` named none), its ``PHASE`` line's answer, its
    lines (answer index, text), and why it is not kept, if it is not (code, words)."""

    phase: str | None
    opening: int
    lines: list[tuple[int, str]] = field(default_factory=list)
    refused: tuple[str, str] | None = None


@dataclass
class Reading:
    """What one mail's conversation reads of blocks: how it reads a line (`Conversation._read`), the block
    open, and the phases that had one."""

    read: Callable[[cmd.Line], cmd.Command | None]
    block: Block | None = None
    phases: set[str] = field(default_factory=set)

    def takes(self, talk: Holding, line: cmd.Line) -> bool:
        """Whether ``line`` is a block's, handled here: a ``PHASE`` line opening one, or a line of the
        block open.  A ``PHASE``, ``SIGNON`` or ``SIGNOFF`` line ends the block open first."""
        command = line.command
        if isinstance(command, cmd.PhaseNamed | cmd.SignOn | cmd.SignOff) or _bare_phase(line):
            self.end(talk)
        game, seat = talk.context.game, talk.context.seat
        if game is None or seat is None:
            return False
        kind = talk.kinds.of(game)
        if _bare_phase(line):
            if not kind.following(game, game.phase or "") or game.state != GameState.ACTIVE:
                return False
            assert isinstance(command, cmd.BadCommand)
            index = talk.echo(line.text, "error", command.error, code="SYNTAX")
            self.block = Block(None, index, refused=("NO_PHASE", _("not applied: the line PHASE above it names no "
                                                                   "phase, so the lines after it are kept for none")))
            return True
        if isinstance(command, cmd.PhaseNamed):
            processed = {row.name for row in late.phases_of(talk.session, game) if row.status == "processed"}
            if not late.opens_block(kind.following(game, game.phase or ""), game, command.phase, processed):
                return False
            index = talk.echo(line.text, "ok")
            self.block = Block(command.phase, index, refused=self._refusal(talk, kind, game, command.phase))
            self.phases.add(command.phase)
            return True
        if self.block is None:
            return False
        self._line(talk, kind, game, line)
        return True

    def _refusal(self, talk: Holding, kind: GameKind, game: Game, phase: str) -> tuple[str, str] | None:
        """Why a block for ``phase`` is not kept, whatever its lines: a second for it in this mail, a
        phase beyond the next `AHEAD` or none the game can reach, the mail late."""
        assert game.phase is not None
        following = kind.following(game, game.phase)
        if phase in self.phases:
            return "TWO_BLOCKS", _("not kept: this mail has a block for {phase} already, and one is kept per phase",
                                   phase=phase)
        if phase not in following[:AHEAD]:
            if phase in following or late.to_come(kind.phase_order, phase, game.phase):
                return "TOO_FAR_AHEAD", ngettext(
                    "not kept: {phase} is more than {count} phase after {now}, the phase now; lines are kept for "
                    "{phases} at most", "not kept: {phase} is more than {count} phases after {now}, the phase now; "
                    "lines are kept for {phases} at most", AHEAD, phase=phase, now=game.phase,
                    phases=", ".join(following[:AHEAD]))
            return "NOT_A_PHASE_AHEAD", _("not kept: {phase} is no phase {game} can reach from {now}", phase=phase,
                                          game=game.name, now=game.phase)
        meant = talk.meant_for(game)
        if meant is not None and meant.processed_at is not None:
            return "LATE", _("not kept: this mail was meant for {phase}, processed already (see the note)",
                             phase=meant.phase)
        return None

    def _line(self, talk: Holding, kind: GameKind, game: Game, line: cmd.Line) -> None:
        """One line of the block open: read by the kind's grammar as the mail's lines are, checked for
        the block's phase (`Commands.check_ahead`), and answered; a line no grammar knows is answered as
        it would be anywhere (and may be the mail's sign-off)."""
        block = self.block
        assert block is not None
        before = len(talk.echoes)
        command = self.read(line)
        if command is None:
            if len(talk.echoes) > before and talk.echoes[-1].code == "SYNTAX":
                block.lines.append((len(talk.echoes) - 1, line.text))
            return
        own = talk.kinds.dispatch.is_games(type(command)) or isinstance(command, cmd.Wait)
        if not own:
            talk.echo(line.text, "ignored", _("not done: a block for a later phase keeps only your lines for that "
                                              "phase (your orders, WAIT); send other commands outside it"),
                      code="NOT_FOR_A_BLOCK")
            return
        index = talk.echo(line.text, "ok", _("kept for {phase}", phase=block.phase) if block.phase else "")
        block.lines.append((index, line.text))
        if block.refused is None and block.phase is not None and not isinstance(command, cmd.Wait) and (
                why := kind.check_ahead(game, block.phase, command)) is not None:
            talk.mark(index, "error", why, code="NOT_FOR_THAT_PHASE")

    def end(self, talk: Holding) -> None:
        """The block open ends: kept (replacing the seat's earlier block for its phase; an empty one
        withdraws it) or refused whole, and answered so on its ``PHASE`` line."""
        block, self.block = self.block, None
        if block is None:
            return
        game, seat = talk.context.game, talk.context.seat
        assert game is not None and seat is not None
        errors = sum(talk.outcome(index) == "error" for index, _text in block.lines)
        refused = block.refused or (("BLOCK_REFUSED", ngettext(
            "not kept: {count} of its lines cannot be read for {phase} (see it)",
            "not kept: {count} of its lines cannot be read for {phase} (see them)", errors, phase=block.phase))
            if errors else None)
        if refused is not None:
            code, why = refused
            if block.phase is not None:  # a PHASE naming none is answered as the syntax error it is
                talk.mark(block.opening, "ignored", why, code=code)
            for index, _text in block.lines:
                if talk.outcome(index) != "error":
                    talk.mark(index, "ignored", _("not applied: its block is not kept (see its PHASE line)"),
                              code=code)
            if block.phase is None:
                talk.note(block.opening, [why])
            return
        assert block.phase is not None
        kept = talk.session.scalar(select(AheadBlock).where(
            AheadBlock.game_id == game.id, AheadBlock.seat == seat, AheadBlock.phase == block.phase))
        if later := talk.superseded(kept.accepted_at if kept is not None else None,
                                    f"your block for {block.phase}"):
            talk.mark(block.opening, "ignored", later, code="SUPERSEDED")
            for index, _text in block.lines:
                talk.mark(index, "ignored", _("not applied: see its PHASE line"), code="SUPERSEDED")
            return
        if kept is not None:
            talk.session.delete(kept)
            talk.session.flush()
        if not block.lines:
            talk.mark(block.opening, "ok", _("no line for {phase}: your block waiting for it is withdrawn",
                                             phase=block.phase) if kept is not None
                      else _("no line for {phase}: nothing is kept for it", phase=block.phase),
                      code="BLOCK_WITHDRAWN" if kept is not None else "BLOCK_EMPTY")
            return
        talk.session.add(AheadBlock(game_id=game.id, seat=seat, phase=block.phase,
                                    text="\n".join(text for _index, text in block.lines),
                                    message_id=talk.mail.message_id, accepted_at=talk.accepted))
        count = len(block.lines)
        if kept is not None:
            said = ngettext("kept for {phase}: {count} line, read when {phase} opens; it replaces the block you sent "
                            "for it before", "kept for {phase}: {count} lines, read when {phase} opens; it replaces "
                            "the block you sent for it before", count, phase=block.phase)
        else:
            said = ngettext("kept for {phase}: {count} line, read when {phase} opens",
                            "kept for {phase}: {count} lines, read when {phase} opens", count, phase=block.phase)
        talk.mark(block.opening, "ok", said, code="BLOCK_KEPT")
        talk.note(block.opening, [_("These lines are checked again when {phase} opens, against the board and the "
                                    "money as they stand then, and answered to you alone in a mail of their own.",
                                    phase=block.phase)])


def _bare_phase(line: cmd.Line) -> bool:
    """Whether ``line`` is ``PHASE`` naming no phase (a syntax error of the host's grammar)."""
    words = line.text.split()
    return isinstance(line.command, cmd.BadCommand) and bool(words) and words[0].upper() == "PHASE"

