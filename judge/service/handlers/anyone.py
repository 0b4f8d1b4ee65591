"""Commands anyone may send without signing on: HELP, LIST, CREATE, JOIN and CONFIRM.

CREATE and JOIN are limited per address and day (``max_creates_per_day``,
``max_joins_per_day``).  A JOIN is registered at once only for the address that sent it (the
mail's From, its Reply-To if any, and the SMTP envelope sender when known all agree);
otherwise the address it would enrol receives a token and must send ``CONFIRM <token>``
itself, so that a forged From or Reply-To cannot sign a stranger up for a game's mail.

CREATE is limited per hour too, from all addresses together (``max_creates_per_hour``: anyone
may create a game, and a new address costs nothing), and LIST names at most ``LIST_PAGE``
games at a time, read with one query: what a mail costs does not grow with the games.
"""

from __future__ import annotations

import secrets
from datetime import timedelta

from sqlalchemy import delete, func, select

from judge.commands import parse as cmd
from judge.engine.map import available_maps, load_map
from judge.engine.position import Phase
from judge.mail.outbound import Attachment
from judge.payola.options import OptionError, parse_options
from judge.service import lifecycle, views
from judge.service.handlers.conversation import ANYONE, Conversation, handles, masked, power_of
from judge.service.passwords import hash_password, verify_password
from judge.service.render import render, when
from judge.store.models import Game, JoinRequest, Observer, Player

DAY = timedelta(days=1)
HOUR = timedelta(hours=1)
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
        _list_page(talk, text, command.start)
        return
    game = talk.named_game(text, command.game)
    if game is None:
        return
    waiting = set(lifecycle.waiting_for(talk.session, game))
    row = lifecycle.current_phase(talk.session, game)
    required = set(lifecycle.required_powers(talk.session, game, lifecycle.position_of(row))) if row else set()
    hidden = _blind_running(game)  # who must retreat, build or remove is part of the board
    seat = lifecycle.seats(talk.session, game)
    lines = [f"state: {game.state}", f"variant: {game.variant} {' '.join(game.options)}".rstrip()]
    if game.phase:
        lines.append(f"phase: {game.phase}, deadline {when(game.deadline)}")
    for power in load_map(game.variant).powers:
        player = seat.get(power)
        if player is None:
            continue
        played = "played" if lifecycle.is_played(player) else "vacant" if player.address else "dummy"
        if not lifecycle.is_played(player) and lifecycle.is_open(game, power):
            played += ", open for TAKEOVER"
        status = "" if hidden or game.state not in ("active", "paused") or not lifecycle.is_played(player) else (
            ", waiting" if power in waiting else ", submitted" if power in required else ", nothing to order")
        lines.append(f"{power.title()}: {played}{status}")
    if game.state == "forming":
        lines.append(f"{len(lifecycle.players(talk.session, game))} player(s) joined")
    talk.echo(text, "info", "", lines)


LIST_PAGE = 50  # games one LIST names: the next ones are asked for with LIST FROM name
_LISTED = Game.settings["unlisted"].as_boolean().is_not(True)  # SET UNLISTED hides a game (`lifecycle.rules_of`)


def _list_page(talk: Conversation, text: str, start: str | None) -> None:
    """The listed games in order of name, from ``start`` on: at most ``LIST_PAGE`` of them,
    read with one query whatever the number of games, then how to ask for the next ones."""
    query = select(Game.name, Game.state, Game.phase).where(_LISTED).order_by(Game.name).limit(LIST_PAGE + 1)
    rows = talk.session.execute(query.where(Game.name >= start) if start else query).all()
    lines = [f"{name}: {state}" + (f", {phase}" if phase else "") for name, state, phase in rows[:LIST_PAGE]]
    if len(rows) > LIST_PAGE:
        lines.append(f"(and more: LIST FROM {rows[LIST_PAGE].name} for the next {LIST_PAGE})")
    talk.echo(text, "info", "", lines or ["no games yet" if not start else f"no game from '{start}' on"])


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
    hourly = talk.settings.max_creates_per_hour
    recent = list(talk.session.scalars(select(Game.created_at).where(Game.created_at > talk.now - HOUR)
                                       .order_by(Game.created_at.desc()).limit(hourly)))
    if len(recent) >= hourly:
        talk.echo(shown, "error", f"the judge takes at most {hourly} new games an hour, from all addresses together; "
                  f"try again after {when(recent[-1] + HOUR)}")
        return
    if talk.game(command.game) is not None:
        talk.echo(shown, "error", f"a game named '{command.game}' already exists")
        return
    if command.variant not in available_maps():
        talk.echo(shown, "error", f"unknown variant '{command.variant}' (known: {', '.join(available_maps())})")
        return
    try:
        own, payola = lifecycle.split_options(list(command.options))
        options = parse_options(payola)
    except (OptionError, ValueError) as exc:
        talk.echo(shown, "error", str(exc))
        return
    game = Game(name=command.game, variant=command.variant, options=own + options.names, state="forming",
                gm_address=address, gm_password=hash_password(command.password),
                seed=secrets.randbelow(2**31), settings=dict(talk.settings.durations), created_at=talk.now)
    talk.session.add(game)
    talk.session.flush()
    talk.echo(shown, "ok", f"game '{game.name}' created; you are its master (SIGNON MASTER@{game.name} password)")


@handles(cmd.Join, ANYONE)
def join(talk: Conversation, text: str, command: cmd.Join) -> None:
    shown = masked(masked(text, command.password), command.key or "")
    address = talk.mail.reply_to
    joined_today = talk.session.scalar(select(func.count(Player.id)).where(Player.address == address,
                                                                           Player.joined_at > talk.now - DAY))
    asked_today = talk.session.scalar(select(func.count(JoinRequest.id)).where(JoinRequest.address == address,
                                                                               JoinRequest.created_at > talk.now - DAY))
    if (joined_today or 0) + (asked_today or 0) >= talk.settings.max_joins_per_day:
        talk.echo(shown, "error", f"at most {talk.settings.max_joins_per_day} JOINs are taken from one address in a "
                  "day; try again tomorrow")
        return
    game = talk.named_game(shown, command.game)
    if game is None:
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
    key = game.settings.get("join_key")
    if key and not (command.key and verify_password(command.key, key)):
        talk.echo(masked(shown, command.key or ""), "error", "this game is private: JOIN game password [power] KEY "
                  "key, with the key from its game master")
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


@handles(cmd.Observe, ANYONE)
def observe(talk: Conversation, text: str, command: cmd.Observe) -> None:
    """OBSERVE: the game's public results by mail, to the sender's own address only."""
    game = talk.named_game(text, command.game)
    if game is None:
        return
    address = talk.mail.reply_to
    existing = talk.session.scalar(select(Observer).where(Observer.game_id == game.id, Observer.address == address))
    if command.stop:
        if existing is not None:
            talk.session.delete(existing)
        talk.echo(text, "ok", f"you no longer receive the results of {game.name}")
        return
    if not lifecycle.rules_of(game).observers:
        talk.echo(text, "error", f"{game.name} takes no observers")
    elif not _own_address(talk):
        talk.echo(text, "error", "send OBSERVE from the address that is to receive the results")
    elif existing is not None:
        talk.echo(text, "ok", f"you already receive the public results of {game.name}")
    else:
        talk.session.add(Observer(game_id=game.id, address=address, created_at=talk.now))
        talk.echo(text, "ok", f"you will receive the public results of {game.name} (UNOBSERVE {game.name} to stop)")


@handles(cmd.History, ANYONE)
def history(talk: Conversation, text: str, command: cmd.History) -> None:
    """HISTORY: the public results of processed phases, in order (what every player received):
    at most ``HISTORY_PHASES`` of them, then how to ask for the rest, so that one line costs
    the judge a bounded time and reply (a game may have hundreds of phases)."""
    game = talk.named_game(text, command.game)
    if game is None:
        return
    if _blind_running(game) and not _master_of(talk, game):
        talk.echo(text, "error", "a Blind game's history is published when it ends")
        return
    named = [(row_id, name) for row_id, name in lifecycle.processed_names(talk.session, game)
             if _within(name, command.first, command.last)]
    if not named:
        talk.echo(text, "info", "", ["no processed phase in that range"])
        return
    shown, rest = named[:HISTORY_PHASES], named[HISTORY_PHASES:]
    rows = lifecycle.phases_by_id(talk.session, [row_id for row_id, _ in shown])
    body = "\n\n".join(render("results", game=game, view=views.results_view(r.result["report"], None, None, [], 0),
                               next_phase=None, winner=None, deadline=None, history=True).strip()
                        for r in rows if r.result and "report" in r.result)
    more = ""
    if rest:  # the first ones, and how to ask for the others
        more = (f"; at most {HISTORY_PHASES} phases are sent at once: for the {len(rest)} after them, "
                f"HISTORY {game.name} {rest[0][1]}-{rest[-1][1]}")
        body += f"\n\n{more[2:]}\n"
    _answer_long(talk, text, f"{game.name}-history.txt", body, f"{len(shown)} phase(s)", more)


@handles(cmd.Summary, ANYONE)
def summary(talk: Conversation, text: str, command: cmd.Summary) -> None:
    """SUMMARY: supply centers per power at the start of each year, the game's events, its result."""
    game = talk.named_game(text, command.game)
    if game is None:
        return
    years: list[tuple[str, dict[str, int]]] = []
    hidden = _blind_running(game) and not _master_of(talk, game)  # each power's count is its own
    for name, position in [] if hidden else lifecycle.spring_positions(talk.session, game):
        years.append((name[1:5], {p: len(cs) for p, cs in position.get("centers", {}).items()}))
    seated = []
    if game.state == "finished" and not lifecycle.rules_of(game).anonymous:
        seated = [(p.power, p.address or "(nobody)") for p in lifecycle.players(talk.session, game) if p.power]
    body = render("summary", game=game, years=years, hidden=hidden, powers=list(load_map(game.variant).powers),
                  events=game.settings.get("events", []), result=game.settings.get("result"), seated=seated)
    _answer_long(talk, text, f"{game.name}-summary.txt", body, "the summary")


def _blind_running(game: Game) -> bool:
    """A Tin Cup game not yet over: each power sees only its part of the board (rule 6.3)."""
    return lifecycle.options_of(game).blind and game.state != "finished"


def _master_of(talk: Conversation, game: Game) -> bool:
    """Whether the mail is signed on as the master of ``game`` (not of another game)."""
    return talk.context.is_master and talk.context.game is not None and talk.context.game.id == game.id


def _within(name: str, first: str | None, last: str | None) -> bool:
    key = Phase.parse(name).sort_key()
    return (first is None or key >= Phase.parse(first).sort_key()) and (last is None or key <= Phase.parse(last)
                                                                       .sort_key())


LONG = 60  # lines: a longer answer is an attachment, not a body of thousands of lines
HISTORY_PHASES = 50  # phases one HISTORY sends at most: a longer range is asked for in parts


def _answer_long(talk: Conversation, text: str, filename: str, body: str, what: str, more: str = "") -> None:
    """Answer with ``body``: in the reply, or attached if long (and if the reply has room)."""
    lines = body.splitlines()
    if len(lines) <= LONG:
        talk.echo(text, "info", more[2:], lines)
        return
    attachment = Attachment(filename, "text/plain", body.encode("utf-8"))
    if talk.attach([attachment]):
        talk.echo(text, "ok", f"{what} attached as {filename} ({len(lines)} lines){more}")
    else:
        talk.echo(text, "error", talk.too_big(len(attachment.data)))
