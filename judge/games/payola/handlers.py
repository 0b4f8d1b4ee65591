"""A Payola game's own commands: offers and orders, ACCEPT, TRANSFER, CLEAR, MAP, VOTE (draws
and concessions); and the game master's PREVIEW, ROLLFORWARD and REVEAL (WAIT and NOWAIT are the
host's, `judge.service.incoming.handlers.player`).
The host's commands (sign-on, press, passwords, the game master's tools...) are the host's
(`judge.service.incoming.handlers`); these are registered with it, for the words Payola's grammar reads
(`judge.games.payola.commands`).
"""

from __future__ import annotations

from dataclasses import replace

from sqlalchemy import func, select

from judge import api
from judge.api import MASTER, PLAYER, RUNNING, SIGNED_ON, Attachment, Closing, Entry, Outbox, Turn, render, writing_to
from judge.engine.map import load_map
from judge.engine.orders import PhaseKind
from judge.games.payola import lifecycle, maps
from judge.games.payola.commands import (
    Accept,
    Clear,
    MapRequest,
    OfferLine,
    OrderLine,
    Preview,
    Reveal,
    Transfer,
    Vote,
)
from judge.games.payola.lifecycle import power_of
from judge.games.payola.store import LedgerRow, seat_of
from judge.games.payola.submissions import active_position, set_by_mail_at
from judge.language import gettext as _
from judge.language import later, worded
from judge.payola.acceptance import AcceptanceError, parse_acceptance
from judge.payola.treasury import TreasuryError, may_transfer, transfer
from judge.wording import power_title


def offer_line(talk: Turn, text: str, _command: OfferLine) -> None:
    position = active_position(talk)
    if position is None or position.phase.kind is not PhaseKind.MOVEMENT:
        talk.echo(text, "error", _("offers are only taken in a movement phase of a running game"), code="NOT_MOVEMENT")
        return
    talk.hold("sheet", text)


def order_line(talk: Turn, text: str, _command: OrderLine) -> None:
    position = active_position(talk)
    game = talk.game
    assert game is not None
    if position is None:
        talk.echo(text, "error", _("unknown command (the game is not running)"), code="UNKNOWN_COMMAND")
        return
    if position.phase.kind is PhaseKind.MOVEMENT and not lifecycle.options_of(game).loyal_units:
        talk.echo(text, "error", _("unknown command (in a movement phase units are bribed, not ordered)"),
                  code="UNKNOWN_COMMAND")
        return
    talk.hold("orders", text)


def accept(talk: Turn, text: str, command: Accept) -> None:
    game, player = talk.game, talk.player
    assert game is not None and player is not None
    try:
        listed = parse_acceptance(command.text, load_map(game.variant).letters)
    except AcceptanceError as exc:
        talk.echo(text, "error", str(exc), code="BAD_LIST")
        return
    kept = seat_of(talk.session, player)
    if why := talk.superseded(kept.acceptance_at, "your acceptance list"):
        talk.echo(text, "ignored", why, code="SUPERSEDED")
        return
    kept.acceptance, kept.acceptance_at = str(listed), talk.accepted
    talk.echo(text, "ok", _("acceptance list is now {listed}", listed=listed))


def transfer_money(talk: Turn, text: str, command: Transfer) -> None:
    """Rule 2.3.  The balance is read inside the transaction that holds the game's row, so two
    transfers sent at once can never spend the same money twice."""
    game, power = talk.game, talk.seat
    assert game is not None and power is not None
    try:
        receiver = power_of(game, command.to)
        row = api.current_phase(talk.session, game)
        allowed = row is None or may_transfer(lifecycle.position_of(row), power)  # Void: no donations
        _after, entries = transfer(lifecycle.balances(talk.session, game), power, receiver, command.amount, allowed)
    except (ValueError, TreasuryError) as exc:
        talk.echo(text, "error", str(exc), code="BAD_TRANSFER")
        return
    for entry in entries:
        talk.session.add(LedgerRow(game_id=game.id, power=entry.power, amount=entry.amount, kind="transfer",
                                   note=entry.note, phase=game.phase, created_at=talk.now))
    talk.session.flush()
    balance = lifecycle.balances(talk.session, game)
    talk.echo(text, "ok", _("{amount} AgP sent to {power}; your balance is {balance} AgP", amount=command.amount,
                            power=power_title(receiver), balance=balance[power]))
    player = api.seats(talk.session, game).get(receiver)
    if api.is_played(player):
        assert player is not None and player.address is not None
        with writing_to(talk.session, talk.settings, player.address, game):
            talk.send(to=player.address, subject=_("{game} transfer received", game=game.name), kind="transfer",
                      game_id=game.id,
                      body=render("payola/transfer", game=game, sender=power, amount=command.amount,
                                  balance=balance[receiver]))


def clear(talk: Turn, text: str, _command: Clear) -> None:
    game, power = talk.game, talk.seat
    assert game is not None and power is not None
    if game.phase is None:
        talk.echo(text, "error", _("the game has not started"), code="NOT_STARTED")
        return
    if why := talk.superseded(set_by_mail_at(talk, game.phase, power, "sheet", "orders"), "your sheet or orders"):
        talk.echo(text, "ignored", why, code="SUPERSEDED")
        return
    for kind in ("sheet", "orders"):  # every line is answered: those above are withdrawn with the rest
        for index, _line in talk.block(kind):
            talk.mark(index, "ignored", _("withdrawn by the CLEAR below"), code="WITHDRAWN")
    talk.drop_blocks()
    for kind in ("sheet", "orders"):
        api.submit(talk.session, game, game.phase, power, kind, "", {}, talk.now, talk.accepted)
    talk.echo(text, "ok", _("your sheet and orders for this phase are cleared"))


def map_request(talk: Turn, text: str, _command: MapRequest) -> None:
    """MAP: the current board; in a Tin Cup game a player's shows only what its power sees."""
    game, power = talk.game, talk.seat
    assert game is not None
    position = active_position(talk)
    if position is None:
        talk.echo(text, "error", _("the game is not running: there is no board to draw"), code="NOT_RUNNING")
        return
    sight, seen = None, ""
    if lifecycle.options_of(game).blind and power is not None:
        view = lifecycle.sight_now(talk.session, game, power)
        position, sight, seen = view.after, (power, view.view), power_title(power)
    if not (pictures := maps.position_map(game.name, position, sight)):
        talk.echo(text, "error", _("the map could not be drawn; the board is in STATUS"), code="MAP_FAILED")
    elif talk.attach(pictures):
        talk.echo(text, "ok", _("the map of {phase} as {power} sees it is attached", phase=position.phase, power=seen)
                  if seen else _("the map of {phase} is attached", phase=position.phase))
    else:
        talk.echo(text, "error", talk.too_big(sum(len(picture.data) for picture in pictures)), code="REPLY_TOO_LONG")


def vote(talk: Turn, text: str, command: Vote) -> None:
    """A secret vote for a draw including all survivors, or to concede to one power; the game
    ends when every voter (played, not eliminated) votes for a draw, or when every voter but one
    concedes to that one, whose own vote is not needed (`lifecycle.settle_votes`).  In a Tin Cup
    game a concession to any power of the map is taken alike, since refusing one to an
    eliminated or unplayed power would tell what the board does not show; it ends the game only
    if that power is a voter.  Under SHOW_VOTES the number voting for a draw is told with the
    next results, not at once."""
    game, power, player = talk.game, talk.seat, talk.player
    assert game is not None and power is not None and player is not None
    if game.state not in RUNNING:
        talk.echo(text, "error", _("the game is not running"), code="NOT_RUNNING")
        return
    if power not in lifecycle.voters(talk.session, game):
        talk.echo(text, "error", _("an eliminated power does not vote"), code="ELIMINATED")
        return
    kept = seat_of(talk.session, player)
    if why := talk.superseded(kept.vote_at, "your vote"):
        talk.echo(text, "ignored", why, code="SUPERSEDED")
        return
    if command.choice == "DRAW" and not lifecycle.draws_allowed(game):
        talk.echo(text, "error", _("{game} allows no draws (NO_DRAW)", game=game.name), code="NO_DRAW")
        return
    if command.choice == "CONCEDE":
        try:
            to = power_of(game, command.power or "")
        except ValueError as exc:
            talk.echo(text, "error", str(exc), code="NO_SUCH_POWER")
            return
        if not lifecycle.options_of(game).blind and to not in lifecycle.voters(talk.session, game):
            talk.echo(text, "error", _("{power} has no player or no supply center: it cannot be conceded to",
                                       power=power_title(to)), code="NOT_A_VOTER")
            return
        kept.vote, said = f"CONCEDE:{to}", _("to concede the game to {power}", power=power_title(to))
    else:
        kept.vote = command.choice if command.choice == "DRAW" else None
        said = _("for a draw including all survivors") if kept.vote else _("withdrawn (no vote)")
    kept.vote_at = talk.accepted
    answered = talk.echo(text, "ok", _("your vote, kept secret: {vote}", vote=said))
    talk.session.flush()
    result = lifecycle.settle_votes(talk.session, game, talk.settings, talk.now)
    if result:
        talk.note(answered, [_("the votes of the surviving powers end the game: {result}", result=worded(result))])


def preview(talk: Turn, text: str, _command: Preview) -> None:
    """The chart the phase would have if processed now, without processing it (a savepoint is
    rolled back: nothing is kept, no mail goes out)."""
    game = talk.game
    assert game is not None
    if game.state not in RUNNING:
        talk.echo(text, "error", _("the game is not running"), code="NOT_RUNNING")
        return
    phase = game.phase
    mark = talk.session.scalar(select(func.max(Outbox.id))) or 0
    savepoint = talk.session.begin_nested()
    try:  # without maps: only the chart is kept
        lifecycle.process_phase(talk.session, game, replace(talk.settings, maps=False), talk.now,
                                Closing("master's PREVIEW"))  # rolled back
        talk.session.flush()
        chart = talk.session.scalar(select(Outbox.body).where(Outbox.id > mark, Outbox.kind == "chart")) or ""
    finally:
        savepoint.rollback()
    preview = Attachment(f"{game.name}-{phase}-preview.txt", "text/plain", chart.encode("utf-8"))
    if not talk.attach([preview]):
        talk.echo(text, "error", talk.too_big(len(preview.data)), code="REPLY_TOO_LONG")
        return
    talk.echo(text, "ok", _("the chart {phase} would have if processed now is attached; nothing was processed",
                            phase=phase))


def reveal(talk: Turn, text: str, command: Reveal) -> None:
    """Publish every secret of the game while it goes on; a second mail with the code confirms
    (`judge.service.incoming.handlers.master.confirmed`)."""
    game = talk.game
    assert game is not None
    if not talk.confirmed(text, "REVEAL", command.code, _("REVEAL mails every offer sheet, acceptance list, chart "
                                                          "and treasury of the game to every player now")):
        return
    api.record(game, later("the game master revealed every secret"))
    lifecycle.reveal(talk.session, game, talk.settings, talk.now)
    talk.echo(text, "ok", _("every sheet, list, chart and treasury was mailed to every player"))


COMMANDS = (
    Entry(OfferLine, offer_line, PLAYER, closed_after_the_end=True),
    Entry(OrderLine, order_line, PLAYER, closed_after_the_end=True),
    Entry(Accept, accept, PLAYER, closed_after_the_end=True),
    Entry(Transfer, transfer_money, PLAYER, closed_after_the_end=True),
    Entry(Clear, clear, PLAYER, closed_after_the_end=True),
    Entry(MapRequest, map_request, SIGNED_ON, once=True),
    Entry(Vote, vote, PLAYER, closed_after_the_end=True),
    Entry(Preview, preview, MASTER, once=True, closed_after_the_end=True),
    Entry(Reveal, reveal, MASTER),
)
"""The commands of this module, for the dispatcher (`judge.service.dispatch`)."""
