"""Commands anyone may send without signing on: HELP, LIST, CREATE, JOIN, OBSERVE, HISTORY,
SUMMARY and SET MAPS (the pictures an address's mail carries), and what a mail says of itself:
PHASE (the phase it is meant for) and CHECK (a dry run).  What a game of each kind takes at CREATE
and JOIN, and what LIST, HISTORY and SUMMARY tell of it, is its kind's to say (`judge.games`).

CREATE and JOIN are limited per address and day (``max_creates_per_day``,
``max_joins_per_day``), observers per game (``max_observers``) and games observed per address
(``max_games_observed``); an address is counted as its mailbox (ruling H4, `judge.service.mailbox`:
``Bob+x@Example.org`` is bob@example.org), and so is a player who has joined a game already.
CREATE, JOIN and OBSERVE are carried out at once only for an address that has confirmed it wants
the judge's mail and sent the command itself; otherwise the address is mailed a token and the command waits for its
``CONFIRM`` (`consent`), so that a forged From or Reply-To cannot sign a stranger up for a
game's mail.  A private game's JOIN key is guessed at the cost of a refused mail, counted like a
wrong password (`signon`).

CREATE is limited per hour too, from all addresses together (``max_creates_per_hour``: anyone
may create a game, and a new address costs nothing), and LIST names at most ``LIST_PAGE``
games at a time, read with one query: what a mail costs does not grow with the games.
"""

from __future__ import annotations

import secrets
from dataclasses import replace
from datetime import timedelta
from typing import Any

from sqlalchemy import func, select

from judge.commands import parse as cmd
from judge.language import called, ngettext
from judge.language import gettext as _
from judge.service import mailbox
from judge.service.dispatch import ANYONE, Entry
from judge.service.hosting import host, records, silent_seats
from judge.service.incoming import help_topics
from judge.service.incoming.handlers import ahead, consent, signon
from judge.service.incoming.handlers.conversation import Conversation, Refusal, masked
from judge.service.incoming.handlers.holding import Why
from judge.service.options import rules_of
from judge.service.outgoing import preferences
from judge.service.passwords import hash_password, verify_password
from judge.service.states import RUNNING, GameState
from judge.service.templates import duration, state_word, when
from judge.store.models import Confirmation, Game, Observer, Player

DAY = timedelta(days=1)
HOUR = timedelta(hours=1)


def unread(talk: Conversation, text: str, command: cmd.Unread) -> None:
    talk.echo(text, "ignored", command.reason, code="AFTER_UNENDED_PRESS")


def help_(talk: Conversation, text: str, command: cmd.Help) -> None:
    """HELP: the index, the signed-on game's own help, one topic, or all of it (attached: it is
    long), as `help_topics.answer` says."""
    game = talk.context.game
    try:
        body = help_topics.answer(talk.settings, talk.kinds, talk.kinds.of(game) if game is not None else None,
                                  command.words)
    except help_topics.NoTopic as exc:
        talk.echo(text, "error", str(exc), code="NO_SUCH_TOPIC")
        return
    talk.answer_long(text, "help.txt", body, _("the judge's help"))


def phase_named(talk: Conversation, text: str, command: cmd.PhaseNamed) -> None:
    """PHASE: the phase the mail's lines for a game are meant for, wherever the line stands in the
    mail (`judge.service.incoming.late`): said to be the game's phase now, or not (then a seat's lines for
    the game are not applied: `Conversation.meant_for`)."""
    game = talk.context.game
    if game is None or talk.context.seat is None or game.phase is None or game.state not in RUNNING:
        talk.echo(text, "ok", _("the lines of this mail for a seat of a game are meant for its phase {phase}",
                                phase=command.phase), code="PHASE_NAMED")
    elif (meant := talk.meant_for(game)) is None:
        talk.echo(text, "ok", _("this mail's lines for {game} act on {phase}, its phase now", game=game.name,
                                phase=game.phase), code="PHASE_NOW")
    else:
        talk.echo(text, "ignored", _("{game} is in {phase} now: this mail's lines for it are not applied "
                                     "(see the note)", game=game.name, phase=game.phase), code=meant.reason()[0])


def check(talk: Conversation, text: str, command: cmd.Check) -> None:
    """CHECK: the mail is a dry run, wherever the line stands in it (`Conversation.run` undoes it
    whole once read, and sends the reply alone)."""
    talk.echo(text, "ok", _("a check: this mail is read and answered, then undone: nothing in it is applied, "
                            "stored or sent"), code="CHECK")


def _maps_words(choice: str, default: bool) -> str:
    """What a game's mail carries to an address for each choice of SET MAPS, in words (the judge's default
    said so), as one whole sentence."""
    if default:
        return {
            "png": _("Your mail will now carry the judge's default, one picture: the phase's orders drawn on the "
                     "board (the board where there are no orders), as PNG"),
            "svg": _("Your mail will now carry the judge's default, one picture, as SVG: the phase's orders drawn "
                     "on the board where the game draws them so, else the board (a PNG where the game draws no "
                     "SVG)"),
            "all": _("Your mail will now carry the judge's default, every picture: the phase's orders drawn on the "
                     "board, and the board after as PNG and as SVG"),
            "none": _("Your mail will now carry the judge's default, no pictures (MAP, where the game has it, sends "
                      "the board; the game's pages show it)"),
        }[choice]
    return {
        "png": _("Your mail will now carry one picture: the phase's orders drawn on the board (the board where "
                 "there are no orders), as PNG"),
        "svg": _("Your mail will now carry one picture, as SVG: the phase's orders drawn on the board where the "
                 "game draws them so, else the board (a PNG where the game draws no SVG)"),
        "all": _("Your mail will now carry every picture: the phase's orders drawn on the board, and the board "
                 "after as PNG and as SVG"),
        "none": _("Your mail will now carry no pictures (MAP, where the game has it, sends the board; the game's "
                  "pages show it)"),
    }[choice]


def set_maps(talk: Conversation, text: str, command: cmd.SetMaps) -> None:
    """SET MAPS: the pictures every game's mail carries to the sender's mailbox from now on, whoever it
    is in the game (`preferences`); the answer says it in words."""
    address = talk.mail.reply_to
    preferences.choose_maps(talk.session, address, command.choice, talk.now)
    choice = preferences.maps_of(talk.session, talk.settings, address)
    lines = [_("(for every way of writing your address {address}, in every game, as a player, an observer or a "
               "game master)", address=mailbox.mailbox(address))]
    if not talk.settings.maps:
        lines.append(_("(this judge draws no maps at the moment: its mail carries none until it does)"))
    talk.echo(text, "ok", _maps_words(choice, command.choice is None), lines, code="MAPS_SET")


def set_form(talk: Conversation, text: str, command: cmd.SetForm) -> None:
    """SET FORM ON / OFF: whether every game's mail that opens a phase for the sender's seat ends with its
    form to fill (`judge.service.outgoing.forms`), kept for the sender's mailbox (`preferences`)."""
    address = talk.mail.reply_to
    preferences.choose_form(talk.session, address, command.on, talk.now)
    said = (_("Each mail that opens a phase for your seat will now end with its form to fill") if command.on else
            _("The mails that open a phase for your seat will now come without the form to fill"))
    talk.echo(text, "ok", said, [_("(for every way of writing your address {address}, in every game)",
                                   address=mailbox.mailbox(address))], code="FORM_SET")


def set_language(talk: Conversation, text: str, command: cmd.SetLanguage) -> None:
    """SET LANGUAGE: the language the judge writes every mail to the sender's mailbox in, in every game
    (`preferences`); SET GAME LANGUAGE, the game master's: the game's pages', and that of its readers who
    chose none.  This answer stays in the language the mail was read in: a mail is never written in two."""
    if command.game:
        _set_game_language(talk, text, command.language)
        return
    address = talk.mail.reply_to
    preferences.choose_language(talk.session, address, command.language, talk.now)
    if command.language is None:
        said = _("The judge will write to you in the language of each game, or in its own default, {language}, "
                 "from its next mail on.", language=called(talk.settings.language_default))
    else:
        said = _("The judge will write to you in {language} from its next mail on.",
                 language=called(command.language))
    talk.echo(text, "ok", said, [_("(for every way of writing your address {address}, in every game, as a player, "
                                   "an observer or a game master)", address=mailbox.mailbox(address))],
              code="LANGUAGE_SET")


def _set_game_language(talk: Conversation, text: str, language: str | None) -> None:
    """SET GAME LANGUAGE, signed on as the game's master: kept among the game's settings."""
    game = talk.context.game
    if game is None or not talk.context.is_master:
        talk.echo(text, "error", _("only the game master, signed on as MASTER@game, sets the game's language; "
                                   "yours is SET LANGUAGE"), code="MASTER_ONLY")
        return
    game.settings = {key: value for key, value in game.settings.items() if key != "language"} | (
        {"language": language} if language else {})
    preferences.forget_game_languages(talk.session)
    chosen = called(language or talk.settings.language_default)
    talk.echo(text, "ok", _("The game's pages are now written in {language}, and so is the mail of each reader "
                            "who chose no language of their own (SET LANGUAGE).", language=chosen),
              code="GAME_LANGUAGE_SET")


def list_games(talk: Conversation, text: str, command: cmd.ListGames) -> None:
    """LIST: a page of the games, or what anyone may know of one game; to a seat signed on to it, also
    its own lines waiting for a later phase (`judge.service.incoming.handlers.ahead`)."""
    if command.game is None:
        _list_page(talk, text, command.start)
        return
    game = talk.named_game(text, command.game)
    if game is None:
        return
    lines = talk.kinds.of(game).list_lines(talk, game)
    lines.append(_("press: {press}", press=rules_of(game).press.words()))
    if game.state == GameState.FORMING:
        joined = len(host.players(talk.session, game))
        lines.append(ngettext("{count} player joined", "{count} players joined", joined))
    if talk.context.seat is not None and talk.context.game is game:  # its own blocks, to the seat alone
        lines.extend(ahead.waiting_lines(talk.session, game, talk.context.seat))
    talk.echo(text, "info", "", talk.localized(game, "\n".join(lines)).split("\n"))


LIST_PAGE = 50  # games one LIST names: the next ones are asked for with LIST FROM name
_LISTED = Game.settings["unlisted"].as_boolean().is_not(True)  # SET UNLISTED hides a game (`host.rules_of`)


def _list_page(talk: Conversation, text: str, start: str | None) -> None:
    """The listed games in order of name, from ``start`` on: at most ``LIST_PAGE`` of them,
    read with one query whatever the number of games, then how to ask for the next ones."""
    query = (select(Game.name, Game.state, Game.phase, Game.kind, Game.settings).where(_LISTED).order_by(Game.name)
             .limit(LIST_PAGE + 1))
    rows = talk.session.execute(query.where(Game.name >= start) if start else query).all()
    lines = [f"{name}: {state_word(state)}" + (f", {phase}" if phase else "")
             + (f" ({talk.kinds.named(kind).title})" if kind and kind != talk.kinds.default.name else "")
             + _open_seats(state, settings) for name, state, phase, kind, settings in rows[:LIST_PAGE]]
    if len(rows) > LIST_PAGE:
        lines.append(_("(and more: LIST FROM {game} for the next {count})", game=rows[LIST_PAGE].name,
                       count=LIST_PAGE))
    lines = lines or [_("no games yet") if not start else _("no game from '{start}' on", start=start)]
    for kind in talk.kinds:
        lines += ["", *kind.create_help()]
    talk.echo(text, "info", "", lines)


def _open_seats(state: str, settings: dict[str, Any]) -> str:
    """A running game's seats open for TAKEOVER (SET OPENING, or declared abandoned), as LIST ends
    its line: anyone not playing in the game may take one."""
    opened = settings.get("open", []) if state in RUNNING else []
    return _("; open for TAKEOVER: {seats}", seats=", ".join(opened)) if opened else ""


def create(talk: Conversation, text: str, command: cmd.Create) -> None:
    shown = masked(text, command.password)
    address = talk.mail.reply_to
    if consent.unmailable(talk, shown):
        return
    problem = _cannot_create(talk, address, command.game)
    if problem:
        talk.echo(shown, "error", problem.message, code=problem.code)
        return
    words = list(command.words)
    kind = talk.kinds.in_create(words[0]) if words else None
    if kind is None:
        kind = talk.kinds.default
    else:
        words = words[1:]
    try:
        variant, options = kind.read_create(words)
    except ValueError as exc:
        talk.echo(shown, "error", str(exc), code="BAD_OPTIONS")
        return
    details = {"name": command.game, "kind": kind.name, "variant": variant, "options": options,
               "password": hash_password(command.password)}
    if consent.needed(talk, address):
        consent.ask(talk, shown, address, "create", None, details, f"CREATE {command.game}",
                    lambda: _("a new game, with you as its game master"))
        return
    _create(talk, address, details, shown)


def create_confirmed(talk: Conversation, request: Confirmation, text: str) -> None:
    problem = _cannot_create(talk, request.address, request.details["name"])
    if problem:
        talk.echo(text, "error", problem.message, code=problem.code)
        return
    _create(talk, request.address, request.details, text)


def _cannot_create(talk: Conversation, address: str, name: str) -> Why | None:
    created = mailbox.count(talk.session, Game.gm_address, address, Game.created_at > talk.now - DAY)
    asked = mailbox.count(talk.session, Confirmation.address, address, Confirmation.kind == "create",
                          Confirmation.created_at > talk.now - DAY)
    if created + asked >= talk.settings.max_creates_per_day:
        return Why("TOO_MANY_CREATES", ngettext("at most {count} game may be created by one address in a day; try "
                                                "again tomorrow", "at most {count} games may be created by one "
                                                "address in a day; try again tomorrow",
                                                talk.settings.max_creates_per_day))
    hourly = talk.settings.max_creates_per_hour
    recent = list(talk.session.scalars(select(Game.created_at).where(Game.created_at > talk.now - HOUR)
                                       .order_by(Game.created_at.desc()).limit(hourly)))
    if len(recent) >= hourly:
        return Why("TOO_MANY_CREATES", ngettext("the judge takes at most {count} new game an hour, from all "
                                                "addresses together; try again after {moment}",
                                                "the judge takes at most {count} new games an hour, from all "
                                                "addresses together; try again after {moment}", hourly,
                                                moment=when(recent[-1] + HOUR)))
    if talk.game_named(name) is not None:
        return Why("GAME_EXISTS", _("a game named '{game}' already exists", game=name))
    return None


def _create(talk: Conversation, address: str, details: dict[str, Any], shown: str) -> None:
    # a request kept before the judge hosted several kinds is of the default kind
    kind = talk.kinds.named(details["kind"]) if "kind" in details else talk.kinds.default
    game = Game(name=details["name"], kind=kind.name, variant=details["variant"], options=details["options"],
                state=GameState.FORMING, gm_address=address, gm_password=details["password"],
                seed=secrets.randbelow(2**31), settings=host.durations_at_create(kind, talk.settings.durations),
                created_at=talk.now)
    talk.session.add(game)
    talk.session.flush()
    talk.proved(address)
    talk.echo(shown, "ok", _("game '{game}' created; you are its master (SIGNON MASTER@{game} password)",
                             game=game.name))


def join(talk: Conversation, text: str, command: cmd.Join) -> None:
    shown = masked(masked(text, command.password), command.key or "")
    address = talk.mail.reply_to
    if consent.unmailable(talk, shown):
        return
    joined_today = mailbox.count(talk.session, Player.address, address, Player.joined_at > talk.now - DAY)
    asked_today = mailbox.count(talk.session, Confirmation.address, address, Confirmation.kind == "join",
                                Confirmation.created_at > talk.now - DAY)
    if joined_today + asked_today >= talk.settings.max_joins_per_day:
        talk.echo(shown, "error", ngettext("at most {count} JOIN is taken from one address in a day; try again "
                                           "tomorrow", "at most {count} JOINs are taken from one address in a day; "
                                           "try again tomorrow", talk.settings.max_joins_per_day),
                  code="TOO_MANY_JOINS")
        return
    game = talk.named_game(shown, command.game)
    if game is None:
        return
    problem = _cannot_join(talk, game, address)  # before the wish: of a full game, that it is full
    if problem:
        talk.echo(shown, "error", problem.message, code=problem.code)
        return
    try:
        preferences = talk.kinds.of(game).read_preferences(talk.session, game, command.prefer) if (
            command.prefer) else None
        requested = talk.kinds.of(game).read_join(talk.session, game, command.wish)
    except ValueError as exc:
        talk.echo(shown, "error", str(exc), code="BAD_WISH")
        return
    key = game.settings.get("join_key")
    if key and not command.key:
        talk.echo(shown, "error", _("this game is private: end your JOIN line with KEY and the key its game "
                                    "master gave you"), code="PRIVATE_GAME")
        return
    if key:  # a guess is a refused mail, counted against its source like a wrong password
        guessed = signon.failures(talk.session, game.id, signon.KEY, talk.source, talk.now)
        until = guessed.blocked_until(talk.now)
        if until is not None or not verify_password(command.key or "", key):
            raise Refusal(game.name, signon.KEY, until)
    details = {"password": hash_password(command.password), "requested": requested, "preferences": preferences}
    if consent.needed(talk, address):
        seat_title = talk.kinds.of(game).seat_title
        consent.ask(talk, shown, address, "join", game, details, f"JOIN {game.name}",
                    lambda: _("to play in that game, as {seat} if you can", seat=seat_title(requested))
                    if requested else _("to play in that game"))
        return
    _seat(talk, game, address, details, shown)


def join_confirmed(talk: Conversation, request: Confirmation, text: str) -> None:
    game = consent.game_of(talk, request)
    assert game is not None
    problem = _cannot_join(talk, game, request.address)
    if problem is None and request.details.get("requested"):
        try:  # read again: another may have taken a name that is a player's own meanwhile
            talk.kinds.of(game).read_join(talk.session, game, request.details["requested"])
        except ValueError as exc:
            problem = Why("BAD_WISH", str(exc))
    if problem:
        talk.echo(text, "error", problem.message, code=problem.code)
        return
    _seat(talk, game, request.address, request.details, text)


def _cannot_join(talk: Conversation, game: Game, address: str) -> Why | None:
    if game.state != GameState.FORMING:
        return Why("ALREADY_STARTED", _("that game has already started"))
    joined = host.players(talk.session, game)
    if len(joined) >= talk.kinds.of(game).capacity(game):
        return Why("GAME_FULL", _("the game is full"))
    if any(mailbox.same(p.address, address) for p in joined):
        return Why("ALREADY_JOINED", _("you have already joined this game"))
    if gated := records.refusal(talk.session, game, address, talk.now):
        return Why("ENTRY_GATE", gated)
    return None


def _seat(talk: Conversation, game: Game, address: str, details: dict[str, Any], shown: str) -> None:
    requested, preferences = details.get("requested"), details.get("preferences")
    talk.session.add(Player(game_id=game.id, requested=requested, address=address, password=details["password"],
                            joined_at=talk.now, preferences=preferences))
    talk.session.flush()
    talk.proved(address)
    kind = talk.kinds.of(game)
    wish = (_("; your preferences, best first: {seats} (the start mail says how they were met)",
              seats=", ".join(kind.seat_title(p) for p in preferences)) if preferences else "")
    talk.echo(shown, "ok", kind.joined(game, requested) + wish)


def observe(talk: Conversation, text: str, command: cmd.Observe) -> None:
    """OBSERVE: the game's public results by mail, to an address that has confirmed it wants them."""
    game = talk.named_game(text, command.game)
    if game is None:
        return
    address = talk.mail.reply_to
    if not command.stop and consent.unmailable(talk, text):
        return
    if command.stop:  # the person stops, whichever of their addresses observes
        if host.stop_observing(talk.session, game, address):
            talk.echo(text, "ok", _("you no longer receive the results of {game}", game=game.name))
        else:
            talk.echo(text, "ignored", _("you were not observing {game} (at {address}): nothing to stop",
                                         game=game.name, address=address), code="NOT_OBSERVING")
        return
    problem = _cannot_observe(talk, game, address)
    if problem:
        talk.echo(text, problem[0], problem[1].message, code=problem[1].code)
    elif consent.needed(talk, address):
        consent.ask(talk, text, address, "observe", game, {}, f"OBSERVE {game.name}",
                    lambda: _("to receive that game's public results"))
    else:
        _observe(talk, game, address, text)


def observe_confirmed(talk: Conversation, request: Confirmation, text: str) -> None:
    game = consent.game_of(talk, request)
    assert game is not None
    problem = _cannot_observe(talk, game, request.address)
    if problem:
        talk.echo(text, problem[0], problem[1].message, code=problem[1].code)
    else:
        _observe(talk, game, request.address, text)


def _cannot_observe(talk: Conversation, game: Game, address: str) -> tuple[str, Why] | None:
    """Why ``address`` cannot observe ``game`` now, as an answer (outcome, why); None if it can."""
    if not rules_of(game).observers:
        return "error", Why("NO_OBSERVERS", _("{game} takes no observers", game=game.name))
    if mailbox.count(talk.session, Observer.address, address, Observer.game_id == game.id):
        return "ok", Why("ALREADY_OBSERVING", _("you already receive the public results of {game}", game=game.name))
    watching = talk.session.scalar(select(func.count(Observer.id)).where(Observer.game_id == game.id)) or 0
    if watching >= talk.settings.max_observers:
        return "error", Why("TOO_MANY_OBSERVERS", ngettext("{game} has {count} observer, the most a game takes",
                                                           "{game} has {count} observers, the most a game takes",
                                                           watching, game=game.name))
    observed = mailbox.count(talk.session, Observer.address, address)
    if observed >= talk.settings.max_games_observed:
        return "error", Why("TOO_MANY_OBSERVED", ngettext("{address} observes {count} game, the most one address "
                                                          "may: UNOBSERVE it first", "{address} observes {count} "
                                                          "games, the most one address may: UNOBSERVE one of "
                                                          "them first", observed, address=address))
    return None


def _observe(talk: Conversation, game: Game, address: str, text: str) -> None:
    talk.session.add(Observer(game_id=game.id, address=address, created_at=talk.now))
    talk.proved(address)
    talk.echo(text, "ok", _("you will receive the public results of {game} (UNOBSERVE {game} to stop)",
                            game=game.name))


def history(talk: Conversation, text: str, command: cmd.History) -> None:
    """HISTORY: the public results of processed phases, as the game's kind keeps them."""
    found = _history_of(talk, text, command)
    if found is not None:
        talk.kinds.of(found[0]).history(talk, text, *found)


def _history_of(talk: Conversation, text: str, command: cmd.History) -> tuple[Game, cmd.History] | None:
    """The game a HISTORY line asks about, and what it asks, or None after answering what is
    wrong.  After a sign-on the game need not be named: ``HISTORY`` is the signed-on game's,
    and so is ``HISTORY S1902M`` when no game is called that (issue 23.27)."""
    signed_on = talk.context.game
    if command.game is None:
        if signed_on is None:
            talk.echo(text, "error", _("expected HISTORY game [phase | first-last] (or sign on first, then "
                                       "HISTORY [phase | first-last])"), code="SYNTAX")
            return None
        return signed_on, command
    game = talk.game_named(command.game)
    if game is not None:
        return game, command
    phases = command.game.upper().split("-")
    if signed_on is None or command.first is not None or len(phases) > 2:
        talk.echo(text, "error", _("there is no game '{game}'", game=command.game), code="NO_SUCH_GAME")
        return None
    return signed_on, replace(command, first=phases[0], last=phases[-1])


def _game_asked(talk: Conversation, text: str, name: str | None, usage: str) -> Game | None:
    """The game a line names, else the signed-on game; None after answering what is wrong."""
    if name is not None:
        return talk.named_game(text, name)
    if talk.context.game is None:
        talk.echo(text, "error", _("expected {usage} (or sign on first)", usage=usage), code="SYNTAX")
    return talk.context.game


def whogame(talk: Conversation, text: str, command: cmd.WhoGame) -> None:
    """WHOGAME (njudge's): each seat of the game in its kind's order, played, vacant (its player
    left) or a dummy, and who plays it as `host.who_plays` lets the reader know: the address
    for the game master, and for its players unless the game is ANONYMOUS; for anyone else only
    that the seat is played (the judge gives no stranger a player's address).  Before the start,
    how many have joined, and whom (by the same rule).  The game master's address is told where
    a player's would be, and its line left out where not ("game master: the game's master" told
    a stranger nothing but that the address was kept from them)."""
    game = _game_asked(talk, text, command.game, "WHOGAME game")
    if game is None:
        return
    kind = talk.kinds.of(game)
    reader = talk.reader_of(game)
    shown = host.who_plays(talk.session, game, reader)
    addresses = reader == "master" or (reader == "player" and not rules_of(game).anonymous)
    lines = [f"{game.name}: {kind.title}, {state_word(game.state)}" + (f", {game.phase}" if game.phase else "")]
    if addresses:  # an address is private: one who may not read the players' reads no master's either
        lines.append(_("game master: {address}", address=game.gm_address))
    if game.state == GameState.FORMING:
        joined = host.players(talk.session, game)
        lines.append(ngettext("{count} player joined, of {capacity}", "{count} players joined, of {capacity}",
                              len(joined), capacity=kind.capacity(game)))
        lines.extend(f"  {p.address}" for p in joined if addresses and p.address)
    else:
        seat = talk.seats(game)
        for name in kind.seat_order(talk.session, game):
            player = seat.get(name)
            if player is None:
                continue
            out = host.is_out(game, name, player)  # never offered as vacant (M65)
            title = kind.seat_title(name)
            if host.is_played(player):
                lines.append(_("{seat}: played by {who}", seat=title, who=shown[name]) if addresses and name in shown
                             else _("{seat}: played by a player", seat=title))
            elif out:
                lines.append(_("{seat}: out of the game", seat=title))
            elif game.state != GameState.FINISHED and host.is_open(game, name):
                lines.append(_("{seat}: vacant (its player left), open for TAKEOVER", seat=title) if player.address
                             else _("{seat}: a dummy, open for TAKEOVER", seat=title))
            else:
                lines.append(_("{seat}: vacant (its player left)", seat=title) if player.address
                             else _("{seat}: a dummy", seat=title))
    talk.echo(text, "info", "", lines)


def get_info(talk: Conversation, text: str, command: cmd.GetInfo) -> None:
    """GET INFO / GET RULES (njudge's and DPjudge's): the rules the game plays by, in words, as
    its kind tells them (`judge.games.GameKind.info`), then the host's: the phases' lengths, the
    grace period, and its options (observers, anonymity, takeovers, absences)."""
    game = _game_asked(talk, text, command.game, " ".join(text.split()[:2]).upper() + " game")
    if game is None:
        return
    kind = talk.kinds.of(game)
    rules = rules_of(game)
    lines = [*kind.info(game)]
    lengths = ", ".join(f"{setting} {duration(host.duration(game, setting))}" for setting in kind.durations)
    lines.append(_("phases: {lengths}; grace after each deadline: {grace}", lengths=lengths,
                   grace=duration(host.duration(game, "grace"))))
    lines.append(_("observers: allowed (OBSERVE)") if rules.observers else _("observers: not allowed"))
    lines.append(_("who plays what: told only at the end (ANONYMOUS)") if rules.anonymous
                 else _("who plays what: told to the players and the game master"))
    lines.append(_("vacant seats: open for TAKEOVER (OPEN_TAKEOVER)") if rules.open_takeover
                 else _("vacant seats: taken over once the game master opens them (SET OPENING)"))
    lines.append(ngettext("absences: {count} day a year approved at once (ABSENCE_DAYS), more by the game master",
                          "absences: {count} days a year approved at once (ABSENCE_DAYS), more by the game master",
                          rules.absence_days) if rules.absence_days
                 else _("absences: approved by the game master"))
    lines += silent_seats.lines(talk.session, game)  # its weekly clock, policy for silent seats, entry gates
    talk.echo(text, "info", "", lines)


def summary(talk: Conversation, text: str, command: cmd.Summary) -> None:
    """SUMMARY: the game's story in one mail, as its kind tells it (after a sign-on the game need
    not be named, as with HISTORY and WHOGAME)."""
    game = _game_asked(talk, text, command.game, "SUMMARY game")
    if game is not None:
        talk.kinds.of(game).summary(talk, text, game)


COMMANDS = (
    Entry(cmd.Unread, unread, ANYONE),
    Entry(cmd.Help, help_, ANYONE, once=True),
    Entry(cmd.PhaseNamed, phase_named, ANYONE),
    Entry(cmd.Check, check, ANYONE),
    Entry(cmd.ListGames, list_games, ANYONE, lookup=True),
    Entry(cmd.Create, create, ANYONE),
    Entry(cmd.Join, join, ANYONE),
    Entry(cmd.Observe, observe, ANYONE),
    Entry(cmd.History, history, ANYONE, once=True),
    Entry(cmd.WhoGame, whogame, ANYONE, lookup=True),
    Entry(cmd.GetInfo, get_info, ANYONE, lookup=True),
    Entry(cmd.Summary, summary, ANYONE, once=True),
    Entry(cmd.SetMaps, set_maps, ANYONE),
    Entry(cmd.SetForm, set_form, ANYONE),
    Entry(cmd.SetLanguage, set_language, ANYONE),
)
"""The commands of this module, for the dispatcher (`judge.service.dispatch`)."""
