"""Payola Diplomacy as a kind of game the host runs (`judge.games.GameKind`): the plug between
the host and Payola's edges (`lifecycle`, `handlers`, `submissions`, `views`, `maps`,
`commands`), which stand on its rules cores, `judge.engine` and `judge.payola`.  It is written by
concern, as `GameKind` is: `PayolaLobby`, `PayolaPhases` and `PayolaCommands`, and `Payola` for the rest.

A Payola game is played on a board (its ``variant``) by the powers of that board, which are its
seats; CREATE names the board and the options (rule 6), JOIN a power the player would like.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from types import MappingProxyType
from typing import Any

from sqlalchemy import Connection, func, inspect, select
from sqlalchemy.orm import Session

from judge import api
from judge.api import (
    GAME_FLAGS,
    RUNNING,
    Closing,
    Command,
    Commands,
    DemoJudge,
    Game,
    GameState,
    History,
    Kind,
    Lobby,
    PhaseChange,
    PhaseRow,
    Phases,
    Player,
    Publication,
    Settings,
    Turn,
    counted,
    queue,
    render,
    split_options,
    when,
)
from judge.engine.map import available_maps, load_map
from judge.engine.notation import position_from_data
from judge.engine.position import Phase
from judge.games.payola import ahead, commands, handlers, lifecycle, maps, pages, public, store, views
from judge.games.payola.commands import SIMPLE
from judge.games.payola.lifecycle import power_of
from judge.games.payola.store import LedgerRow, seat_of
from judge.games.payola.submissions import (
    active_position,
    keep_rejection,
    master_status_lines,
    status_lines,
    store_orders,
    store_sheet,
)
from judge.language import gettext as _
from judge.language import later, worded
from judge.payola.options import OptionError, parse_options
from judge.payola.treasury import forfeit
from judge.wording import power_title

HISTORY_PHASES = 50  # phases one HISTORY sends at most: a longer range is asked for in parts
_PHASE = re.compile(r"[SFW]\d{4}[MRA]")


class PayolaLobby(Lobby):
    """Payola's CREATE and JOIN, and its seats: the powers of the game's board (rule 6)."""

    name = "payola"
    title = "Payola Diplomacy"
    seat_word = "power"
    join_usage = later("JOIN game password [power] [KEY key], or JOIN game password PREFER and the powers wanted, "
                       "best first (PREFER FEGIART, or their names)")

    # -- creating and joining ------------------------------------------------------------------------

    def read_create(self, words: Sequence[str]) -> tuple[str, list[str]]:
        """A board (standard if none is named), then the host's and Payola's flags and the Payola
        options (rule 6), in the order written."""
        variant, rest = "standard", list(words)
        if rest and rest[0].lower() in available_maps():
            variant, rest = rest[0].lower(), rest[1:]
        try:
            own, payola = split_options(rest, (*lifecycle.PAYOLA_FLAGS, *GAME_FLAGS))
            options = parse_options(payola)
        except (OptionError, ValueError) as exc:
            raise ValueError(_("{problem} (the boards: {boards}; HELP payola create names every option)",
                               problem=exc, boards=", ".join(available_maps()))) from None
        return variant, own + options.names

    def create_help(self) -> list[str]:
        return [_("boards (CREATE game password BOARD):"),
                *(f"  {name}: {summary}" for name, summary, _areas in views.boards())]

    def capacity(self, game: Game) -> int:
        return len(load_map(game.variant).powers)

    def read_join(self, session: Session, game: Game, word: str | None) -> str | None:
        return power_of(game, word.upper()) if word else None

    def read_preferences(self, session: Session, game: Game, words: Sequence[str]) -> list[str]:
        """The powers wanted, best first: their names, or one run of initials (``FEGIART``); a
        power named twice is refused (a misspelling, most likely)."""
        named = [w.upper() for w in words]
        if len(named) == 1 and not _is_power(game, named[0]):
            named = list(named[0])
        powers = [power_of(game, word) for word in named]
        if len(set(powers)) < len(powers):
            twice = next(p for p in powers if powers.count(p) > 1)
            raise ValueError(_("PREFER names {power} twice", power=power_title(twice)))
        return powers

    def joined(self, game: Game, requested: str | None) -> str:
        if requested:
            return _("you joined '{game}' (you asked for {power}); powers are assigned when the game starts",
                     game=game.name, power=power_title(requested))
        return _("you joined '{game}'; powers are assigned when the game starts", game=game.name)

    # -- seats -----------------------------------------------------------------------------------

    def seat(self, session: Session, game: Game, word: str) -> str:
        return power_of(game, word)

    def seat_title(self, seat: str) -> str:
        return power_title(seat)

    def handed_over(self, session: Session, game: Game, player: Player) -> None:
        """A power's vote is its player's: a new player starts with none."""
        seat_of(session, player).vote = None

    def abandoned(self, session: Session, game: Game, seat: str) -> str:
        """Rule 3.3: a power that sends no sheet offers each of its units a zero hold; its treasury idles."""
        return _("until a new player takes it over, each of its units is offered a zero hold (rule 3.3) and its "
                 "treasury idles, while the other powers may still bribe its units")

    def seat_order(self, session: Session, game: Game) -> list[str]:
        return list(load_map(game.variant).powers)

    def press_to(self, session: Session, game: Game, words: Sequence[str]) -> tuple[str, ...]:
        """Powers by name or initial (`commands.press_recipients`), the master, or ALL."""
        named = commands.press_recipients(words)
        if named == ("ALL",):
            return named
        return tuple(dict.fromkeys(t if t == "MASTER" else power_of(game, t) for t in named))


class PayolaPhases(Phases):
    """Payola's phases: the board's movement, retreat and adjustment phases."""

    durations = MappingProxyType({"movement": 48.0, "retreat": 24.0, "adjustment": 24.0})
    between_phases = later("retreat and adjustment phases")
    phase_names = r"[SFW]\d{4}[MRA]"  # S1901M, F1901R, W1901A
    restored = later("the position, balances, offer sheets, orders, acceptance lists and votes on the game's end are "
                     "as they were before it was processed. You may change your sheet or orders")

    def start(self, session: Session, game: Game, settings: Settings, now: datetime) -> None:
        lifecycle.start_game(session, game, settings, now)

    def phase_order(self, name: str) -> tuple[int, ...] | None:
        """The board's order: by year, then spring, fall and winter, movement before retreats (no
        adjustments but in winter, none else in it)."""
        try:
            return Phase.parse(name).sort_key()
        except ValueError:
            return None

    def length_of(self, phase: str) -> str:
        return {"M": "movement", "R": "retreat", "A": "adjustment"}[phase[-1]]

    def following(self, game: Game, phase: str) -> tuple[str, ...]:
        return ahead.following(phase)

    def waiting(self, session: Session, game: Game) -> list[str]:
        return lifecycle.waiting_for(session, game)

    def complete(self, session: Session, game: Game, talk: Turn | None = None,
                 now: datetime | None = None) -> bool:
        if talk is None:
            return lifecycle.complete(session, game)
        return lifecycle.complete(session, game, active_position(talk), talk.seats(game))

    def closes_at_next_tick(self, session: Session, game: Game, row: PhaseRow) -> bool:
        """The phase is complete already (`lifecycle.complete`; the host asks whether a seat
        WAITs): no power has anything to do in it (only a dummy could act, nobody can build, the
        only dislodged units have nowhere to go; not in a Tin Cup game), or every power has acted
        but the mail that completed it had changed the game's phase already (once per mail)."""
        return lifecycle.complete(session, game, lifecycle.position_of(row))

    def results_mails(self, session: Session, game: Game) -> int:
        return lifecycle.results_mails(session, game)

    def process(self, session: Session, game: Game, settings: Settings, now: datetime, closing: Closing) -> PhaseChange:
        return lifecycle.process_phase(session, game, settings, now, closing)

    def rolling_back(self, session: Session, game: Game, to: PhaseRow, later: Sequence[PhaseRow]) -> None:
        lifecycle.rolling_back(session, game, to, later)

    def changed_since_rollback(self, session: Session, game: Game) -> str | None:
        return lifecycle.changed_since_rollback(session, game)

    def publication(self, session: Session, game: Game) -> Publication:
        return lifecycle.publication(session, game)

    def notice(self, session: Session, game: Game, row: PhaseRow, seat: str, which: str, until: datetime,
               extended: datetime | None = None) -> str:
        return lifecycle.notice(session, game, row, seat, which, until, extended)

    def is_between(self, phase: str) -> bool:
        return phase[-1:] in ("R", "A")


class PayolaCommands(Commands):
    """Payola's commands by mail (offers, orders, ACCEPT, TRANSFER, VOTE...), and what it answers about a game."""

    commands = handlers.COMMANDS
    words = (*SIMPLE, "VOTE", "REVEAL", "ACCEPT", "TRANSFER")

    def read(self, text: str, game: Game | None) -> Command:
        return commands.read(text, game.variant if game is not None else None)

    def close_block(self, talk: Turn) -> None:
        """A power's offer lines are one sheet, its orders one set of orders, each replacing the
        earlier one as a whole (under LOYAL_UNITS a rejected sheet keeps the phase waiting for the
        power: `keep_rejection`)."""
        assert talk.game is not None
        if active_position(talk) is None:  # a VOTE of this very mail ended the game: nothing is left to keep
            for name in ("sheet", "orders"):
                if lines := talk.block(name):
                    talk.set_aside(lines, _("not applied: the game has ended"), code="GAME_ENDED")
            return
        sheet = store_sheet(talk) if talk.block("sheet") else None
        orders = store_orders(talk) if talk.block("orders") else False
        if (sheet is not None or orders) and lifecycle.options_of(talk.game).loyal_units:
            keep_rejection(talk, sheet, orders)

    def check_ahead(self, game: Game, phase: str, command: Command) -> str | None:
        return ahead.check_ahead(game, phase, command)

    def read_ahead(self, session: Session, game: Game, seat: str,
                   lines: Sequence[str]) -> list[tuple[str, str | None, str]]:
        return ahead.read_ahead(session, game, seat, lines)

    def status(self, talk: Turn) -> list[str]:
        return status_lines(talk)

    def master_status(self, talk: Turn) -> list[str]:
        return master_status_lines(talk)

    def form(self, session: Session, game: Game, seat: str) -> api.Form | None:
        """The power's form to fill in the phase (`views.form_parts`): drawn from what it sees of the
        board in a Tin Cup game (`lifecycle.sight_now`), its own treasury and acceptance list."""
        row = api.current_phase(session, game)
        player = api.seats(session, game).get(seat)
        if row is None or row.status != "open" or player is None:
            return None
        options = lifecycle.options_of(game)
        position = (lifecycle.sight_now(session, game, seat, row).after if options.blind
                    else lifecycle.position_of(row))
        kept = session.get(store.PayolaSeat, player.id)
        parts = views.form_parts(position, seat, lifecycle.balances(session, game)[seat],
                                 kept.acceptance if kept is not None else None, options)
        return api.Form(row.name, power_title(seat), *map(tuple, parts)) if parts is not None else None

    def help(self, settings: Settings) -> str:
        return render("payola/help", settings=settings, boards=views.boards())

    def brief(self, talk: Turn, game: Game, seat: str, player: Player, address: str) -> None:
        """What the new player of a power needs: the board (in words, and its map as the start mail
        has it), its treasury and acceptance list, and its last statement (rule 5.7) — nothing of
        the other powers' secrets."""
        row = api.current_phase(talk.session, game)
        assert row is not None
        last = next((r for r in reversed(api.processed_phases(talk.session, game))
                     if r.result and r.result.get("determination")), None)
        statement = last.result["determination"]["powers"].get(seat) if last and last.result else None
        blind = lifecycle.options_of(game).blind
        if blind:
            sight = lifecycle.sight_now(talk.session, game, seat, row)
            board = views.board(sight.after, seat, sight.view)
            drawn = (maps.position_map(game.name, sight.after, (seat, sight.view), role="board")
                     if talk.settings.maps else [])
        else:
            position = lifecycle.position_of(row)
            board = views.board(position)
            drawn = maps.position_map(game.name, position, role="board") if talk.settings.maps else []
        with api.writing_to(talk.session, talk.settings, address, game):
            body = render("payola/briefing", game=game, power=seat, board=board,
                          balance=lifecycle.balances(talk.session, game)[seat],
                          acceptance=seat_of(talk.session, player).acceptance,
                          statement=statement, last=last.name if last else None, drawn=bool(drawn), blind=blind)
            subject = _("{game}: your briefing as {power}", game=game.name, power=power_title(seat))
            queue(talk.session, talk.settings, to=address, subject=subject,
                  kind="notice", now=talk.now, game_id=game.id, body=body, attachments=drawn, opens=seat)

    def resigned(self, talk: Turn, game: Game, seat: str) -> str:
        """An eliminated power's treasury is forfeited when its player resigns (rule 2.4)."""
        row = api.current_phase(talk.session, game)
        if row is None or lifecycle.position_of(row).centers_of(seat):
            return ""
        for entry in forfeit(lifecycle.balances(talk.session, game), seat)[1]:
            talk.session.add(LedgerRow(game_id=game.id, power=seat, amount=entry.amount, kind="forfeit",
                                       note=entry.note, phase=game.phase, created_at=talk.now))
        return _("being eliminated, its treasury is forfeited (rule 2.4)")

    def list_lines(self, talk: Turn, game: Game) -> list[str]:
        """The board, options and phase, and each power's seat and whether it has acted in the
        phase (never what it sent), as the pages show it; not in a running Tin Cup game, where
        who must retreat, build or remove is part of the board.  Once the game has ended, its result,
        worded in the reader's language."""
        waiting = set(lifecycle.waiting_for(talk.session, game))
        row = api.current_phase(talk.session, game)
        required = set(lifecycle.required_powers(talk.session, game, lifecycle.position_of(row))) if row else set()
        hidden = _blind_running(game)
        seat = api.seats(talk.session, game)
        lines = [_("state: {state}", state=_state_word(str(game.state))),
                 _("board: {board} ({summary})", board=game.variant,
                   summary=views.board_summary(load_map(game.variant))),
                 _("options: {options}", options=" ".join(game.options) or _("none"))]
        if game.phase:
            lines.append(_("phase: {phase}, deadline {deadline}", phase=game.phase, deadline=when(game.deadline)))
        for power in load_map(game.variant).powers:
            player = seat.get(power)
            if player is None:
                continue
            played, title = api.seat_state(game, power, player), power_title(power)
            if hidden or game.state not in RUNNING or not api.is_played(player):
                lines.append(_("{power}: {seat}", power=title, seat=played))
            elif power in waiting:
                lines.append(_("{power}: {seat}, waiting", power=title, seat=played))
            elif power in required:
                lines.append(_("{power}: {seat}, submitted", power=title, seat=played))
            else:
                lines.append(_("{power}: {seat}, nothing to order", power=title, seat=played))
        if game.state == GameState.FINISHED:  # as the host's LIST says it of the other kinds (`api.answer_list`)
            lines.append(_("result: {result}", result=worded(game.settings.get("result"))))
        return lines

    def history(self, talk: Turn, text: str, game: Game, command: History) -> None:
        """HISTORY: the public results of processed phases, in order (what every player received):
        at most ``HISTORY_PHASES`` of them, then how to ask for the rest, so that one line costs
        the judge a bounded time and reply (a game may have hundreds of phases)."""
        asked = [p for p in (command.first, command.last) if p]
        if not all(_PHASE.fullmatch(p) for p in asked):
            written = str(command.first if command.first == command.last else f"{command.first}-{command.last}")
            talk.echo(text, "error", _("'{written}' is not a phase (S1901M) or a range of phases (S1901M-W1902A)",
                                       written=written[:20]), code="SYNTAX")
            return
        if _blind_running(game) and not talk.master_of(game):
            talk.echo(text, "error", _("a Blind game's history is published when it ends"),
                      code="HISTORY_NOT_PUBLISHED")
            return
        named = [(row_id, name) for row_id, name in api.processed_names(talk.session, game)
                 if _within(name, command.first, command.last)]
        if not named:
            talk.echo(text, "info", "", [_("no processed phase in that range")])
            return
        shown, rest = named[:HISTORY_PHASES], named[HISTORY_PHASES:]
        rows = api.phases_by_id(talk.session, [row_id for row_id, _name in shown])
        body = "\n\n".join(render("payola/results", game=game,
                                   view=views.results_view(r.result["report"], None, None, [], 0),
                                   next_phase=None, winner=None, deadline=None, history=True).strip()
                            for r in rows if r.result and "report" in r.result)
        more = ""
        if rest:  # the first ones, and how to ask for the others
            asking = f"HISTORY {game.name} {rest[0][1]}-{rest[-1][1]}"
            more = "; " + _("at most {limit} phases are sent at once: for the {count} after them, {command}",
                            limit=HISTORY_PHASES, count=len(rest), command=asking)
            body += f"\n\n{more[2:]}\n"
        talk.answer_long(text, f"{game.name}-history.txt", body, counted(len(shown), "phase"), more, game)

    def summary(self, talk: Turn, text: str, game: Game) -> None:
        """SUMMARY: supply centers per power at the start of each year, the game's events, its
        result, and after the end who played what: every player of each seat, with the phases
        they played (`host.who_played`: addresses only for the game's players and master)."""
        years: list[tuple[str, dict[str, int]]] = []
        hidden = _blind_running(game) and not talk.master_of(game)  # each power's count is its own
        for name, position in [] if hidden else lifecycle.spring_positions(talk.session, game):
            years.append((name[1:5], {p: len(cs) for p, cs in position.get("centers", {}).items()}))
        powers = list(load_map(game.variant).powers)
        seated = []
        if game.state == GameState.FINISHED:  # in the board's order, as the end mail lists them
            seated = sorted(api.who_played(talk.session, game, talk.reader_of(game)),
                            key=lambda seat: powers.index(seat[0]))
        body = render("payola/summary", game=game, years=years, hidden=hidden, powers=powers,
                      events=[worded(event) for event in game.settings.get("events", [])],
                      result=worded(game.settings.get("result")) or None, seated=seated)
        talk.answer_long(text, f"{game.name}-summary.txt", body, _("the summary"), game=game)

    def info(self, game: Game) -> list[str]:
        return views.rules_in_words(game.variant, lifecycle.options_of(game), lifecycle.own_flags(game))


class Payola(PayolaLobby, PayolaPhases, PayolaCommands, Kind):
    """Payola Diplomacy, as the host sees it: its lobby, phases and commands, and its pages, records and demo."""

    # -- pages -----------------------------------------------------------------------------------

    def facts(self, session: Session, game: Game, acting: bool = True,
              seated: Sequence[Player] | None = None) -> public.GameFacts:
        return pages.facts_of(session, game, acting, seated)

    def gather(self, session: Session, game: Game) -> Any:
        return pages.gather(session, game)

    def write_pages(self, root: Path, record: Any, force: bool = False) -> Path:
        return pages.write_game(root, record, force)

    # -- records ---------------------------------------------------------------------------------

    def totals(self, connection: Connection) -> dict[str, int]:
        """Each power's balance, by game and power ("g1 FRANCE"): a copy of the database must
        keep every silver piece."""
        if not inspect(connection).has_table(LedgerRow.__tablename__):
            return {}
        summed = select(Game.name, LedgerRow.power, func.sum(LedgerRow.amount)).join(
            Game, Game.id == LedgerRow.game_id).group_by(Game.name, LedgerRow.power)
        return {f"{game} {power}": int(total) for game, power, total in connection.execute(summed)}

    def snapshot(self, session: Session, game: Game) -> dict[str, Any]:
        """Payola's tables of the game: acceptance lists, votes and the ledger (`store.snapshot`)."""
        return store.snapshot(session, game.id)

    def restore(self, session: Session, game: Game, snapshot: dict[str, Any]) -> None:
        """Payola's tables of the game as its record has them (`store.restore`)."""
        store.restore(session, game.id, snapshot)

    def standings(self, session: Session, game: Game) -> list[api.Standing]:
        """The powers by the supply centers they held at the end (what the end publication lists),
        each with its centers and its treasury at the end; a power eliminated is last, with none."""
        row = api.current_phase(session, game)
        if row is None or game.state != GameState.FINISHED:
            return []
        after = ((row.result or {}).get("adjudication") or {}).get("centers") if row.status == "processed" else None
        centers: dict[str, list[str]] = after or row.position.get("centers", {})
        money = lifecycle.balances(session, game)  # every power of the map, one eliminated with none too
        held = {power: len(centers.get(power, [])) for power in dict.fromkeys([*centers, *money])}
        return api.ranked([(power, count, counted(count, "supply center")) for power, count in held.items()],
                          held, {power: f"{money.get(power, 0)} AgP" for power in held})

    def check_phase(self, session: Session, game: Game, row: PhaseRow) -> None:
        """The board the phase started from, read as the adjudicator reads it (each unit where it
        may stand, each center a supply center), on the game's map and named as the phase; once
        processed, the board its adjudication left too."""
        boards: list[tuple[str, Any, str | None]] = [("position", row.position, row.name)]
        if row.status == "processed" and row.result:
            boards.append(("result", (row.result or {}).get("adjudication"), None))
        for where, board, phase in boards:
            try:
                position, _rest = position_from_data(board)
            except (ValueError, KeyError, TypeError, AttributeError) as exc:
                raise ValueError(f"{where}: {exc}") from None
            if str(board.get("variant", "standard")) != game.variant:
                raise ValueError(f"{where}: a board of {board.get('variant')}, not of the game's {game.variant}")
            if phase is not None and str(position.phase) != phase:
                raise ValueError(f"{where}: the board of {position.phase}, not of {phase}")

    def saved_game(self, session: Session, game: Game) -> dict[str, Any] | None:
        """Every phase's board, orders as adjudicated and their results, as the ``diplomacy``
        package saves a game (`saved_game`): no money, which it has no place for."""
        from judge.engine.saved_game import Phase, adjudicated, saved_game

        rows = [*api.processed_phases(session, game), api.current_phase(session, game)]
        phases = []
        for row in dict.fromkeys(row for row in rows if row is not None):
            lines = ((row.result or {}).get("adjudication") or {}).get("results", [])
            phases.append(Phase(row.name, row.position, *adjudicated(lines if row.status == "processed" else [])))
        return saved_game(game.name, load_map(game.variant), game.variant, phases)

    def demo(self, judge: DemoJudge, blind: bool = False, scenario: str | None = None) -> None:
        from judge.games.payola import demo

        demo.play(judge, blind)


def _is_power(game: Game, word: str) -> bool:
    """Whether ``word`` names a power of the game by its name (however its words are joined), not
    by its initial."""
    try:
        power_of(game, word)
    except ValueError:
        return False
    return len(word) > 1


def _state_word(state: str) -> str:
    """A game's state as LIST says it, in the reader's language (the host's words: `judge.api` does
    not offer its filter to the kinds)."""
    words = {"forming": _("forming"), "active": _("active"), "paused": _("paused"), "finished": _("finished")}
    return words.get(state, state)


def _blind_running(game: Game) -> bool:
    """A Tin Cup game not yet over: each power sees only its part of the board (rule 6.3)."""
    return lifecycle.options_of(game).blind and game.state != GameState.FINISHED


def _within(name: str, first: str | None, last: str | None) -> bool:
    key = Phase.parse(name).sort_key()
    return (first is None or key >= Phase.parse(first).sort_key()) and (last is None or key <= Phase.parse(last)
                                                                       .sort_key())


