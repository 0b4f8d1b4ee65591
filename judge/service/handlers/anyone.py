"""Commands anyone may send without signing on: HELP, LIST, CREATE, JOIN and CONFIRM.

CREATE and JOIN are limited per address and day (``max_creates_per_day``,
``max_joins_per_day``).  A JOIN is registered at once only for the address that sent it (the
mail's From, its Reply-To if any, and the SMTP envelope sender when known all agree);
otherwise the address it would enrol receives a token and must send ``CONFIRM <token>``
itself, so that a forged From or Reply-To cannot sign a stranger up for a game's mail.
"""

from __future__ import annotations

import secrets
from datetime import timedelta

from sqlalchemy import delete, func, select

from judge.commands import parse as cmd
from judge.engine.map import available_maps, load_map
from judge.payola.options import OptionError, parse_options
from judge.service import lifecycle
from judge.service.handlers.conversation import ANYONE, Conversation, handles, masked, power_of
from judge.service.passwords import hash_password
from judge.service.render import render, when
from judge.store.models import Game, JoinRequest, Player

DAY = timedelta(days=1)
JOIN_TOKEN_DAYS = 7  # how long a JOIN waits for its address to confirm


@handles(cmd.Unread, ANYONE)
def unread(talk: Conversation, text: str, command: cmd.Unread) -> None:
    talk.echo(text, "ignored", command.reason)


@handles(cmd.Help, ANYONE)
def help_(talk: Conversation, text: str, _: cmd.Help) -> None:
    talk.echo(text, "info", "", render("help", settings=talk.settings).splitlines())


@handles(cmd.ListGames, ANYONE)
def list_games(talk: Conversation, text: str, command: cmd.ListGames) -> None:
    if command.game is None:
        games = talk.session.scalars(select(Game).order_by(Game.name)).all()
        talk.echo(text, "info", "", [f"{g.name}: {g.state}" + (f", {g.phase}" if g.phase else "") for g in games]
                  or ["no games yet"])
        return
    game = talk.game(command.game)
    if game is None:
        talk.echo(text, "error", f"there is no game '{command.game}'")
        return
    waiting = set(lifecycle.waiting_for(talk.session, game))
    row = lifecycle.current_phase(talk.session, game)
    required = set(lifecycle.required_powers(talk.session, game, lifecycle.position_of(row))) if row else set()
    seat = lifecycle.seats(talk.session, game)
    lines = [f"state: {game.state}", f"variant: {game.variant} {' '.join(game.options)}".rstrip()]
    if game.phase:
        lines.append(f"phase: {game.phase}, deadline {when(game.deadline)}")
    for power in load_map(game.variant).powers:
        player = seat.get(power)
        if player is None:
            continue
        played = "played" if lifecycle.is_played(player) else "dummy"
        status = "" if game.state not in ("active", "paused") or not lifecycle.is_played(player) else (
            ", waiting" if power in waiting else ", submitted" if power in required else ", nothing to order")
        lines.append(f"{power.title()}: {played}{status}")
    if game.state == "forming":
        lines.append(f"{len(lifecycle.players(talk.session, game))} player(s) joined")
    talk.echo(text, "info", "", lines)


@handles(cmd.Create, ANYONE)
def create(talk: Conversation, text: str, command: cmd.Create) -> None:
    shown = masked(text, command.password)
    address = talk.mail.reply_to
    created = talk.session.scalar(select(func.count(Game.id)).where(Game.gm_address == address,
                                                                     Game.created_at > talk.now - DAY))
    if (created or 0) >= talk.settings.max_creates_per_day:
        talk.echo(shown, "error", f"at most {talk.settings.max_creates_per_day} games may be created by one address "
                  "in a day; try again tomorrow")
        return
    if talk.game(command.game) is not None:
        talk.echo(shown, "error", f"a game named '{command.game}' already exists")
        return
    if command.variant not in available_maps():
        talk.echo(shown, "error", f"unknown variant '{command.variant}' (known: {', '.join(available_maps())})")
        return
    try:
        options = parse_options(command.options)
    except OptionError as exc:
        talk.echo(shown, "error", str(exc))
        return
    game = Game(name=command.game, variant=command.variant, options=options.names, state="forming",
                gm_address=address, gm_password=hash_password(command.password),
                seed=secrets.randbelow(2**31), settings=dict(talk.settings.durations), created_at=talk.now)
    talk.session.add(game)
    talk.session.flush()
    talk.echo(shown, "ok", f"game '{game.name}' created; you are its master (SIGNON MASTER@{game.name} password)")


@handles(cmd.Join, ANYONE)
def join(talk: Conversation, text: str, command: cmd.Join) -> None:
    shown = masked(text, command.password)
    address = talk.mail.reply_to
    joined_today = talk.session.scalar(select(func.count(Player.id)).where(Player.address == address,
                                                                           Player.joined_at > talk.now - DAY))
    asked_today = talk.session.scalar(select(func.count(JoinRequest.id)).where(JoinRequest.address == address,
                                                                               JoinRequest.created_at > talk.now - DAY))
    if (joined_today or 0) + (asked_today or 0) >= talk.settings.max_joins_per_day:
        talk.echo(shown, "error", f"at most {talk.settings.max_joins_per_day} JOINs are taken from one address in a "
                  "day; try again tomorrow")
        return
    game = talk.game(command.game)
    if game is None:
        talk.echo(shown, "error", f"there is no game '{command.game}'")
        return
    requested = None
    if command.power:
        try:
            requested = power_of(game, command.power)
        except ValueError as exc:
            talk.echo(shown, "error", str(exc))
            return
    problem = _cannot_join(talk, game, address)
    if problem:
        talk.echo(shown, "error", problem)
        return
    if not _own_address(talk):
        token = secrets.token_hex(8)
        talk.session.add(JoinRequest(game_id=game.id, address=address, password=hash_password(command.password),
                                     requested=requested, token=token, created_at=talk.now))
        talk.echo(shown, "ok", f"to join '{game.name}' with {address}, send CONFIRM {token} from that address within "
                  f"{JOIN_TOKEN_DAYS} days (this mail's From, Reply-To or envelope sender differ, so the address "
                  "must confirm it wants the game's mail)")
        return
    _seat(talk, game, address, hash_password(command.password), requested, shown)


@handles(cmd.Confirm, ANYONE)
def confirm(talk: Conversation, text: str, command: cmd.Confirm) -> None:
    request = talk.session.scalar(select(JoinRequest).where(JoinRequest.token == command.token,
                                                            JoinRequest.created_at > talk.now - JOIN_TOKEN_DAYS * DAY))
    if request is None:
        talk.echo(text, "error", "no JOIN is waiting for that token (it may have expired: JOIN again)")
        return
    talk.session.execute(delete(JoinRequest).where(JoinRequest.id == request.id))
    game = talk.session.get(Game, request.game_id)
    assert game is not None
    game = talk.game(game.name)
    assert game is not None
    problem = _cannot_join(talk, game, request.address)
    if problem:
        talk.echo(text, "error", problem)
        return
    _seat(talk, game, request.address, request.password, request.requested, text)


def _own_address(talk: Conversation) -> bool:
    """Whether the address a JOIN would enrol is plainly the sender's own."""
    address = talk.mail.reply_to.lower()
    envelope = (talk.envelope_from or "").strip().strip("<>").lower()
    return address == talk.mail.sender.lower() and (not envelope or envelope == address)


def _cannot_join(talk: Conversation, game: Game, address: str) -> str | None:
    if game.state != "forming":
        return "that game has already started"
    joined = lifecycle.players(talk.session, game)
    if len(joined) >= len(load_map(game.variant).powers):
        return "the game is full"
    if any(p.address == address for p in joined):
        return "you have already joined this game"
    return None


def _seat(talk: Conversation, game: Game, address: str, password_hash: str, requested: str | None, shown: str) -> None:
    talk.session.add(Player(game_id=game.id, requested=requested, address=address, password=password_hash,
                            joined_at=talk.now))
    talk.session.flush()
    wish = f" (you asked for {requested.title()})" if requested else ""
    talk.echo(shown, "ok", f"you joined '{game.name}'{wish}; powers are assigned when the game starts")
