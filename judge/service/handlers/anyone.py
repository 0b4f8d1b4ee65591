"""Commands anyone may send without signing on: HELP, LIST, CREATE, JOIN, OBSERVE, HISTORY
and SUMMARY.

CREATE and JOIN are limited per address and day (``max_creates_per_day``,
``max_joins_per_day``), observers per game (``max_observers``).  CREATE, JOIN and OBSERVE are
carried out at once only for an address that has confirmed it wants the judge's mail and sent
the command itself; otherwise the address is mailed a token and the command waits for its
``CONFIRM`` (`consent`), so that a forged From or Reply-To cannot sign a stranger up for a
game's mail.  A private game's JOIN key is guessed at the cost of a refused mail, counted like a
wrong password (`signon`).

CREATE is limited per hour too, from all addresses together (``max_creates_per_hour``: anyone
may create a game, and a new address costs nothing), and LIST names at most ``LIST_PAGE``
games at a time, read with one query: what a mail costs does not grow with the games.
"""

from __future__ import annotations

import secrets
from datetime import timedelta
from typing import Any

from sqlalchemy import delete, func, select

from judge.commands import parse as cmd
from judge.engine.map import available_maps, load_map
from judge.engine.position import Phase
from judge.mail.outbound import Attachment
from judge.payola.options import OptionError, parse_options
from judge.service import lifecycle, views
from judge.service.handlers import consent, signon
from judge.service.handlers.conversation import ANYONE, Conversation, Refusal, handles, masked, power_of
from judge.service.passwords import hash_password, verify_password
from judge.service.render import render, when
from judge.store.models import Confirmation, Game, Observer, Player

DAY = timedelta(days=1)
HOUR = timedelta(hours=1)


@handles(cmd.Unread, ANYONE)
def unread(talk: Conversation, text: str, command: cmd.Unread) -> None:
    talk.echo(text, "ignored", command.reason)


@handles(cmd.Help, ANYONE)
def help_(talk: Conversation, text: str, _: cmd.Help) -> None:
    talk.echo(text, "info", "", render("help", settings=talk.settings, boards=views.boards()).splitlines())


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
    lines = [f"state: {game.state}", f"board: {game.variant} ({views.board_summary(load_map(game.variant))})",
             f"options: {' '.join(game.options) or 'none'}"]
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
    lines = lines or ["no games yet" if not start else f"no game from '{start}' on"]
    lines += ["", "boards (CREATE game password BOARD):"]
    lines += [f"  {name}: {summary}" for name, summary, _ in views.boards()]
    talk.echo(text, "info", "", lines)


@handles(cmd.Create, ANYONE)
def create(talk: Conversation, text: str, command: cmd.Create) -> None:
    shown = masked(text, command.password)
    address = talk.mail.reply_to
    problem = _cannot_create(talk, address, command.game)
    if problem:
        talk.echo(shown, "error", problem)
        return
    try:
        own, payola = lifecycle.split_options(list(command.options))
        options = parse_options(payola)
    except (OptionError, ValueError) as exc:
        talk.echo(shown, "error", f"{exc} (the boards: {', '.join(available_maps())}; HELP names every option)")
        return
    details = {"name": command.game, "variant": command.variant, "options": own + options.names,
               "password": hash_password(command.password)}
    if consent.needed(talk, address):
        consent.ask(talk, shown, address, "create", None, details, f"CREATE {command.game}",
                    "a new game, with you as its game master")
        return
    _create(talk, address, details, shown)


@consent.on_confirm("create")
def _create_confirmed(talk: Conversation, request: Confirmation, text: str) -> None:
    problem = _cannot_create(talk, request.address, request.details["name"])
    if problem:
        talk.echo(text, "error", problem)
        return
    _create(talk, request.address, request.details, text)


def _cannot_create(talk: Conversation, address: str, name: str) -> str | None:
    created = talk.session.scalar(select(func.count(Game.id)).where(Game.gm_address == address,
                                                                     Game.created_at > talk.now - DAY))
    asked = talk.session.scalar(select(func.count(Confirmation.id)).where(
        Confirmation.address == address, Confirmation.kind == "create", Confirmation.created_at > talk.now - DAY))
    if (created or 0) + (asked or 0) >= talk.settings.max_creates_per_day:
        return (f"at most {talk.settings.max_creates_per_day} games may be created by one address in a day; try "
                "again tomorrow")
    hourly = talk.settings.max_creates_per_hour
    recent = list(talk.session.scalars(select(Game.created_at).where(Game.created_at > talk.now - HOUR)
                                       .order_by(Game.created_at.desc()).limit(hourly)))
    if len(recent) >= hourly:
        return (f"the judge takes at most {hourly} new games an hour, from all addresses together; try again after "
                f"{when(recent[-1] + HOUR)}")
    if talk.game(name) is not None:
        return f"a game named '{name}' already exists"
    return None


def _create(talk: Conversation, address: str, details: dict[str, Any], shown: str) -> None:
    game = Game(name=details["name"], variant=details["variant"], options=details["options"], state="forming",
                gm_address=address, gm_password=details["password"], seed=secrets.randbelow(2**31),
                settings=dict(talk.settings.durations), created_at=talk.now)
    talk.session.add(game)
    talk.session.flush()
    talk.echo(shown, "ok", f"game '{game.name}' created; you are its master (SIGNON MASTER@{game.name} password)")


@handles(cmd.Join, ANYONE)
def join(talk: Conversation, text: str, command: cmd.Join) -> None:
    shown = masked(masked(text, command.password), command.key or "")
    address = talk.mail.reply_to
    joined_today = talk.session.scalar(select(func.count(Player.id)).where(Player.address == address,
                                                                           Player.joined_at > talk.now - DAY))
    asked_today = talk.session.scalar(select(func.count(Confirmation.id)).where(
        Confirmation.address == address, Confirmation.kind == "join", Confirmation.created_at > talk.now - DAY))
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
    if key and not command.key:
        talk.echo(shown, "error", "this game is private: JOIN game password [power] KEY key, with the key from its "
                  "game master")
        return
    if key:  # a guess is a refused mail, counted against its source like a wrong password
        guessed = signon.failures(talk.session, game.id, signon.KEY, talk.source, talk.now)
        until = guessed.blocked_until(talk.now)
        if until is not None or not verify_password(command.key or "", key):
            raise Refusal(game.name, signon.KEY, until)
    details = {"password": hash_password(command.password), "requested": requested}
    if consent.needed(talk, address):
        consent.ask(talk, shown, address, "join", game, details, f"JOIN {game.name}",
                    "to play in that game" + (f", as {requested.title()} if you can" if requested else ""))
        return
    _seat(talk, game, address, details, shown)


@consent.on_confirm("join")
def _join_confirmed(talk: Conversation, request: Confirmation, text: str) -> None:
    game = consent.game_of(talk, request)
    assert game is not None
    problem = _cannot_join(talk, game, request.address)
    if problem:
        talk.echo(text, "error", problem)
        return
    _seat(talk, game, request.address, request.details, text)


def _cannot_join(talk: Conversation, game: Game, address: str) -> str | None:
    if game.state != "forming":
        return "that game has already started"
    joined = lifecycle.players(talk.session, game)
    if len(joined) >= len(load_map(game.variant).powers):
        return "the game is full"
    if any(p.address == address for p in joined):
        return "you have already joined this game"
    return None


def _seat(talk: Conversation, game: Game, address: str, details: dict[str, Any], shown: str) -> None:
    requested = details.get("requested")
    talk.session.add(Player(game_id=game.id, requested=requested, address=address, password=details["password"],
                            joined_at=talk.now))
    talk.session.flush()
    wish = f" (you asked for {requested.title()})" if requested else ""
    talk.echo(shown, "ok", f"you joined '{game.name}'{wish}; powers are assigned when the game starts")


@handles(cmd.Observe, ANYONE)
def observe(talk: Conversation, text: str, command: cmd.Observe) -> None:
    """OBSERVE: the game's public results by mail, to an address that has confirmed it wants them."""
    game = talk.named_game(text, command.game)
    if game is None:
        return
    address = talk.mail.reply_to
    if command.stop:
        talk.session.execute(delete(Observer).where(Observer.game_id == game.id, Observer.address == address))
        talk.echo(text, "ok", f"you no longer receive the results of {game.name}")
        return
    problem = _cannot_observe(talk, game, address)
    if problem:
        talk.echo(text, *problem)
    elif consent.needed(talk, address):
        consent.ask(talk, text, address, "observe", game, {}, f"OBSERVE {game.name}",
                    "to receive that game's public results")
    else:
        _observe(talk, game, address, text)


@consent.on_confirm("observe")
def _observe_confirmed(talk: Conversation, request: Confirmation, text: str) -> None:
    game = consent.game_of(talk, request)
    assert game is not None
    problem = _cannot_observe(talk, game, request.address)
    if problem:
        talk.echo(text, *problem)
    else:
        _observe(talk, game, request.address, text)


def _cannot_observe(talk: Conversation, game: Game, address: str) -> tuple[str, str] | None:
    """Why ``address`` cannot observe ``game`` now, as an answer (outcome, message); None if it can."""
    if not lifecycle.rules_of(game).observers:
        return "error", f"{game.name} takes no observers"
    if talk.session.scalar(select(Observer.id).where(Observer.game_id == game.id, Observer.address == address)):
        return "ok", f"you already receive the public results of {game.name}"
    watching = talk.session.scalar(select(func.count(Observer.id)).where(Observer.game_id == game.id)) or 0
    if watching >= talk.settings.max_observers:
        return "error", f"{game.name} has {watching} observers, the most a game takes"
    return None


def _observe(talk: Conversation, game: Game, address: str, text: str) -> None:
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
    """SUMMARY: supply centers per power at the start of each year, the game's events, its result,
    and after the end who played what (with addresses only for the game's players and master)."""
    game = talk.named_game(text, command.game)
    if game is None:
        return
    years: list[tuple[str, dict[str, int]]] = []
    hidden = _blind_running(game) and not _master_of(talk, game)  # each power's count is its own
    for name, position in [] if hidden else lifecycle.spring_positions(talk.session, game):
        years.append((name[1:5], {p: len(cs) for p, cs in position.get("centers", {}).items()}))
    seated = []
    if game.state == "finished":
        seated = lifecycle.who_played(talk.session, game, _reader(talk, game))
    body = render("summary", game=game, years=years, hidden=hidden, powers=list(load_map(game.variant).powers),
                  events=game.settings.get("events", []), result=game.settings.get("result"), seated=seated)
    _answer_long(talk, text, f"{game.name}-summary.txt", body, "the summary")


def _reader(talk: Conversation, game: Game) -> str:
    """Who the answer goes to, as `lifecycle.who_played` needs it: the game's master (signed on
    as such, or answered at its address), one of its players (answered at a player's address),
    or anyone else.  The answer goes to the mail's reply address, so a forged From gains nothing."""
    if _master_of(talk, game) or talk.mail.reply_to == game.gm_address:
        return "master"
    signed_on = talk.context.game is not None and talk.context.game.id == game.id
    if signed_on or talk.mail.reply_to in {p.address for p in lifecycle.players(talk.session, game)}:
        return "player"
    return "anyone"


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
