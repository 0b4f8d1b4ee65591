"""Lines for a later phase: ``PHASE <later phase>`` opens a block kept until that phase opens.

Theory of operation.  Where a seat is signed on to a running game whose kind names the phases that may
follow (`judge.service.hosting.kinds.Phases.following`), a line ``PHASE <phase>`` naming neither the phase
now nor one the game has processed opens a *block*: the lines after it, up to the next ``PHASE``,
``SIGNON`` or ``SIGNOFF`` line or the mail's end, are that phase's, written exactly as they would be in
it (`judge.service.incoming.handlers.blocks`).  Everything else keeps its meaning: the lines before the
first block act on the phase now; ``PHASE <phase now>`` says so of the whole mail, as it always did;
``PHASE <processed phase>``, a subject naming another phase or an answer to an old phase's mail make
the mail late (or not for the phase now), its lines for the seat not applied
(`judge.service.incoming.late`), and a late mail's blocks are not kept either; a ``PHASE`` line before
any ``SIGNON`` is a declaration of the whole mail, as before.

A block is kept only for one of the next `AHEAD` phases the kind names: three, one year's cycle of a
Diplomacy board (from a movement phase: its retreats, the next movement or adjustment, and the retreats
or movement after), far enough for the short phases that stall games on fixed deadlines, near enough
that the board the block was written for is still the board it meets.  A phase beyond them, one the game
can never reach (another kind's name, winter movement), a second block for one phase in a mail, a
block with a line the kind cannot read for that phase (`Commands.check_ahead`: its shape on the board,
never its units or money, which the phases between may change), a block from the game master or in a
late mail: each answered in words, nothing of it kept.  ``PHASE`` with no phase opens a block refused
the same way, so that the lines meant for it are never applied to the phase now.  Only the seat's own
lines are kept: the kind's and ``WAIT``/``NOWAIT``; any other command in a block is answered and not done.
A block kept replaces the seat's earlier block for that phase whole (a mail accepted before the one
that sent it stores nothing, `Turn.superseded`), an empty one withdraws it, and the answer says that it
is checked again when its phase opens.  ``CHECK`` keeps none (the mail is undone whole).

When a phase opens after a closing (`opened`, called by whoever closed it: the clock, PROCESS,
ROLLFORWARD, the applier after the mail that completed it), each block waiting for it is read as if its
seat had sent it then, through the same conversation as a mail, in the same transaction (unless its
player has left the seat since, or the seat changed hands: a resigned or former player's lines are never
played): the kind first takes what is possible of it now (`Commands.read_ahead`: Payola's first possible
retreat), then each line is applied and answered, and the answers go to the seat alone, in a mail of
their own queued with the results that opened the phase.  A phase so completed closes at the clock's
next tick, unless a seat asks WAIT: the kind's early close (`judge.service.hosting.schedule`); the
results of a phase that used blocks say so (`judge.service.hosting.course.AHEAD`).  A block for a phase
the game went past without playing it (no retreats were needed) is dropped and its seat told; so are a
game's blocks when a ROLLBACK takes it back (`rolled_back`: they were written for a course that is
undone) and when it ends.  Nothing of a block is shown to anyone but its seat before its phase's
results: ``LIST`` shows a seat its own blocks waiting (`waiting_lines`).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from judge.language import gettext as _
from judge.mail.inbound import InboundMail
from judge.service.config import Settings
from judge.service.hosting import course, host
from judge.service.hosting.kinds import kind_of
from judge.service.incoming import late
from judge.service.incoming.handlers.conversation import Conversation
from judge.service.incoming.handlers.reading import Context
from judge.service.outgoing.outbox import queue
from judge.service.outgoing.preferences import writing_to
from judge.service.states import GameState
from judge.service.templates import render
from judge.store.models import AheadBlock, Game


def opened(session: Session, game: Game, settings: Settings, now: datetime) -> None:
    """After a closing of ``game``'s phase: its blocks for the phase now opened read as if their seats
    sent them now, each seat answered alone; its blocks for a phase it went past without playing
    dropped, their seats told; all of them dropped if the game has ended."""
    blocks = list(session.scalars(select(AheadBlock).where(AheadBlock.game_id == game.id)
                                  .order_by(AheadBlock.accepted_at, AheadBlock.id)))
    if not blocks:
        return
    if game.state == GameState.FINISHED or game.phase is None:
        session.execute(delete(AheadBlock).where(AheadBlock.game_id == game.id))
        return
    kind = kind_of(session, game)
    for block in blocks:
        if block.phase == game.phase:
            _read_now(session, game, settings, now, block)
            session.delete(block)
        elif not late.to_come(kind.phase_order, block.phase, game.phase):
            _tell(session, game, settings, now, block.seat, _not_used(game, block.phase))
            session.delete(block)
    session.flush()


def rolled_back(session: Session, game: Game, settings: Settings, now: datetime) -> None:
    """After a ROLLBACK of ``game``: its blocks waiting for later phases are dropped (written for a course
    the ROLLBACK undid), each seat told."""
    for block in session.scalars(select(AheadBlock).where(AheadBlock.game_id == game.id)):
        _tell(session, game, settings, now, block.seat, _dropped(game, block.phase))
        session.delete(block)
    session.flush()


Telling = Callable[[], tuple[str, str]]
"""What a seat is told of its block: a function giving the mail's subject and text, in the language being
written (its reader's)."""


def _not_used(game: Game, phase: str) -> Telling:
    def told() -> tuple[str, str]:
        return (_("{game}: your lines for {phase} were not used", game=game.name, phase=phase),
                _("{game} went on to {now} without playing {phase}, so the lines you sent ahead for it "
                  "(PHASE {phase}) were not used, and are dropped. Send your lines for the phase now as ever.",
                  game=game.name,
                  now=game.phase, phase=phase))
    return told


def _dropped(game: Game, phase: str) -> Telling:
    def told() -> tuple[str, str]:
        return (_("{game}: your lines for {phase} were dropped", game=game.name, phase=phase),
                _("The game master rolled {game} back to {now}, so the lines you sent ahead for {phase} "
                  "(PHASE {phase}) are dropped: they were written for a course of the game that is undone. Send "
                  "them again if you still mean them.", game=game.name, now=game.phase, phase=phase))
    return told


def waiting_lines(session: Session, game: Game, seat: str) -> list[str]:
    """What ``LIST`` tells ``seat`` of its own blocks waiting in ``game``: each phase and its lines."""
    lines = []
    for block in session.scalars(select(AheadBlock).where(AheadBlock.game_id == game.id, AheadBlock.seat == seat)
                                 .order_by(AheadBlock.id)):
        lines.append(_("your lines waiting for {phase} (PHASE {phase}), read when it opens:", phase=block.phase))
        lines.extend(f"  {text}" for text in block.text.splitlines())
    return lines


def _read_now(session: Session, game: Game, settings: Settings, now: datetime, block: AheadBlock) -> None:
    """``block``'s lines applied as its seat's mail now, through the conversation a mail goes through
    (the kind's reading first, `Commands.read_ahead`), and its answers mailed to the seat alone; the
    phase marked as played from lines sent ahead (`course.AHEAD`)."""
    player = host.seats(session, game).get(block.seat)
    address = player.address if player is not None else None
    if player is None or not address or not host.is_played(player) or player.joined_at > block.accepted_at:
        return  # the seat's player left it, or gave it to another, since: the lines were not the seat's now
    with writing_to(session, settings, address, game):  # the seat's answers, wholly in its player's language
        taken = kind_of(session, game).read_ahead(session, game, block.seat, block.text.splitlines())
        mail = InboundMail(sender=address, reply_to=address, subject="", message_id=None,
                           lines=tuple(sent for _written, sent, _why in taken if sent is not None), html_only=False,
                           no_text=False, automatic=False, truncated=False, stopped_at=None, from_attachment=False)
        talk = Conversation(session, settings, mail, now, accepted=block.accepted_at)
        talk.context = Context(game, block.seat, player, address)
        lines = iter(talk.lines)
        for written, sent, why in taken:
            if sent is None:
                talk.echo(written, "ignored", _("not applied: {why}", why=why), code="NOT_POSSIBLE_NOW")
                continue
            if sent != written:
                talk.notes.append(_("Your line '{written}' was read as '{sent}': {why}.", written=written, sent=sent,
                                    why=why))
            talk._line(next(lines))
        talk.close_block()
        body = render("reply", echoes=talk.echoes, notes=[
            _("{phase} of {game} has opened: these are the lines you sent ahead for it (PHASE {phase}), read as if you "
              "had sent them now, each answered as ever.", phase=block.phase, game=game.name),
            *talk.notes], settings=settings)
        subject = _("{game}: your lines for {phase}, read now", game=game.name, phase=block.phase)
    queue(session, settings, to=address, subject=subject, body=body, kind="reply", now=now, game_id=game.id)
    marks = game.settings.get(course.AHEAD)
    used = sorted({*(marks.get("seats", []) if isinstance(marks, dict) and marks.get("phase") == game.phase else []),
                   block.seat})
    game.settings = {**game.settings, course.AHEAD: {"phase": game.phase, "seats": used}}


def _tell(session: Session, game: Game, settings: Settings, now: datetime, seat: str, told: Telling) -> None:
    """Mail the player of ``seat`` alone what became of its block, in the player's language."""
    player = host.seats(session, game).get(seat)
    if player is not None and player.address:
        with writing_to(session, settings, player.address, game):
            subject, text = told()
        queue(session, settings, to=player.address, subject=subject, body=text + "\n", kind="notice", now=now,
              game_id=game.id)
