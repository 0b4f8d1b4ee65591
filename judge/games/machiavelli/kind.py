"""Machiavelli as a kind of game the host runs (`judge.service.hosting.kinds.GameKind`): the plug between
the host and the game's edges (`lifecycle`, `handlers`, `views`, `pages`), which stand on its
rules core, `judge.games.machiavelli.core`.  It is written by concern, as `GameKind` is: `MachiavelliLobby`,
`MachiavelliPhases` and `MachiavelliCommands`, and `Machiavelli` for the rest.

A game is created with ``CREATE game password machiavelli [scenario]`` (a board of the core:
``classic``, the classic board of 1454, by default; ``aop``, Absence of Plague's of 1459); each
player joins wishing for a country or none (``JOIN game password Venice``, ``JOIN game password
PREFER Venice Milan``), and the game master's START assigns them.  Its phases are the letters
the rules await (AoP 2): the spring letter (A orders) and each campaign's letter (C orders),
lasting the game master's ``SET SPRING`` and ``SET CAMPAIGN`` hours (72 and 96 by default: AoP
18.2's week, A orders on Monday and C orders on Thursday, the judge's results the day after).

Press is grey (anonymous) by default, white on request, and grey press is answered through the
judge by its sender's pseudonym (18.1, the host's PRESS); a player whose country is eliminated
may take over another as its substitute leader (18.3, `Machiavelli.out_of_game`), and a country
whose player resigns is open for one until the campaign ends, then eliminated if nobody took it
over (18.3, M62: `Machiavelli.resigned`).  A country's vote on ending the game (M64) is its
player's: a new player starts with none (`Machiavelli.handed_over`).  What anyone may know of a
running game is its board and its public results, never who has sent a letter or a vote (LIST,
the pages, the observers' mail).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from types import MappingProxyType
from typing import Any

from sqlalchemy import Connection
from sqlalchemy.orm import Session

from judge import api
from judge.api import (
    MASTER_WORDS,
    RUNNING,
    Closing,
    Command,
    Commands,
    DemoJudge,
    Game,
    GameFacts,
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
    press_tokens,
    queue,
    render,
    writing_to,
)
from judge.games.machiavelli import ahead, handlers, lifecycle, pages, pictures, views
from judge.games.machiavelli.core.board import Board, board_names, load_board
from judge.language import gettext as _
from judge.language import in_reader_language, later, ngettext

HISTORY_PHASES = 50  # phases one HISTORY sends at most, as Payola's: a longer range is asked for in parts
HISTORY_CHARS = 200_000  # characters of one HISTORY answer at most (a phase at least): what anyone may ask for


def country_of(board: Board, word: str) -> str:
    """The country ``word`` names on ``board``: its name or another the board gives it, its words
    joined in any way (``Holy-Roman-Empire``, ``HRE``), or three letters or more that begin one
    name of it alone (any case); ValueError with a message if none."""
    key = _squashed(word)
    named = [(_squashed(name), p) for p in board.powers for name in board.power_names(p)]
    exact = {p for name, p in named if name == key}
    found = exact or ({p for name, p in named if name.startswith(key)} if len(key) >= 3 else set())
    if len(found) != 1:
        raise ValueError(_("'{word}' names no country of the {board} board ({countries})", word=word[:20],
                           board=board.name, countries=", ".join(board.powers)))
    return found.pop()


def _names_one(kind: Lobby, session: Session, game: Game, words: Sequence[str]) -> bool:
    """Whether ``words`` joined name one country."""
    try:
        kind.seat(session, game, "".join(words))
    except ValueError:
        return False
    return True


def _squashed(name: str) -> str:
    """A name as a mail's word may write it: any case, its words joined by nothing, spaces,
    hyphens or underscores."""
    return re.sub(r"[\s_-]+", "", name.casefold())


def _scenarios() -> list[str]:
    """The scenarios CREATE may name, a line each, as LIST and HELP show them."""
    return ["  " + ngettext("{name}: {title}, {count} country", "{name}: {title}, {count} countries",
                            len(load_board(name).powers), name=name, title=lifecycle.title_of(load_board(name)))
            for name in board_names()]


class MachiavelliLobby(Lobby):
    """Machiavelli's CREATE and JOIN, and its seats: the countries of the game's board."""

    name = "machiavelli"
    title = lifecycle.KIND_TITLE
    seat_word = "country"
    join_usage = later("JOIN game password [country] [KEY key], or JOIN game password PREFER and the countries "
                       "wanted, best first (PREFER Venice Milan, or their first three letters)")

    # -- creating and joining ------------------------------------------------------------------------

    def read_create(self, words: Sequence[str]) -> tuple[str, list[str]]:
        return lifecycle.read_options(words)

    def create_help(self) -> list[str]:
        return [_("{title} (CREATE game password machiavelli [scenario]), the scenarios:", title=self.title),
                *_scenarios()]

    def capacity(self, game: Game) -> int:
        return len(lifecycle.board_of(game).powers)

    def read_join(self, session: Session, game: Game, word: str | None) -> str | None:
        return country_of(lifecycle.board_of(game), word) if word else None

    def read_preferences(self, session: Session, game: Game, words: Sequence[str]) -> list[str]:
        """The countries wanted, best first, by name; one named twice is refused."""
        countries = [country_of(lifecycle.board_of(game), word) for word in words]
        if len(set(countries)) < len(countries):
            raise ValueError(_("PREFER names {country} twice",
                               country=next(c for c in countries if countries.count(c) > 1)))
        return countries

    def joined(self, game: Game, requested: str | None) -> str:
        if requested:
            return _("you joined '{game}' (you asked for {country}); countries are assigned when the game starts",
                     game=game.name, country=requested)
        return _("you joined '{game}'; countries are assigned when the game starts", game=game.name)

    # -- seats -----------------------------------------------------------------------------------

    def seat(self, session: Session, game: Game, word: str) -> str:
        return country_of(lifecycle.board_of(game), word)

    def seat_title(self, seat: str) -> str:
        return seat

    def handed_over(self, session: Session, game: Game, player: Player) -> None:
        """A country's vote on the game's end is its player's: a new player starts with none (M64)."""
        if player.seat is not None and lifecycle.vote_of(game, player.seat)[0] is not None:
            lifecycle.set_vote(game, player.seat, None, None)

    def out_of_game(self, session: Session, game: Game, seat: str) -> bool:
        """An eliminated country (4.3): its player may lead another as a substitute (18.3)."""
        position = lifecycle.position_now(session, game)
        return position is not None and seat in position.eliminated

    def no_new_player(self, session: Session, game: Game, seat: str) -> str | None:
        """An eliminated country (4.3) has no leader again: M62's substitute may take a country over
        only until the campaign that eliminates it ends."""
        position = lifecycle.position_now(session, game)
        if position is not None and seat in position.eliminated:
            return _("{country} was eliminated in {season} (4.3): no one can lead it again", country=seat,
                     season=views.season_text(position.eliminated[seat]))
        return None

    def abandoned(self, session: Session, game: Game, seat: str) -> str:
        """M65: a country declared abandoned is in M62's position, a player who left with no
        substitute leader (18.3): it plays by the defaults (17.2, M50), and unless a substitute
        takes it over before the campaign ends it is eliminated then (4.3), as everyone is told,
        with the campaign and its deadline."""
        return _("it plays by the defaults (17.2, M50), and unless a substitute leader takes it over {before}, "
                 "{country} is eliminated then, its units becoming independent (18.3, 4.3, M62)",
                 before=_before_the_campaign(session, game), country=seat)

    def seat_order(self, session: Session, game: Game) -> list[str]:
        return list(lifecycle.board_of(game).powers)

    def press_to(self, session: Session, game: Game, words: Sequence[str]) -> tuple[str, ...]:
        """Countries by name, the master (M, MASTER, GM), or ALL."""
        tokens = press_tokens(words, _("expected PRESS TO followed by countries, ALL, or MASTER"))
        if tokens == ["ALL"]:
            return ("ALL",)
        named: list[str] = []
        at = 0
        while at < len(tokens):  # a country of more words is the longest run naming one (Holy Roman Empire)
            if tokens[at].upper() in MASTER_WORDS:
                named.append("MASTER")
                at += 1
                continue
            run = next((n for n in range(len(tokens) - at, 1, -1)
                        if _names_one(self, session, game, tokens[at:at + n])), 1)
            named.append(self.seat(session, game, "".join(tokens[at:at + run])))
            at += run
        return tuple(dict.fromkeys(named))


class MachiavelliPhases(Phases):
    """Machiavelli's phases: the spring letter and each campaign's letter (AoP 2)."""

    durations = MappingProxyType({"spring": 72.0, "campaign": 96.0})
    clock_presets = MappingProxyType({
        "AOP": {"spring": "MON 12:00 UTC", "campaign": "THU 12:00 UTC", "grace": "1h"},
        "AOP-SLOW": {"spring": "THU 12:00 UTC EVERY 2 WEEKS FROM NEXT WEEK",
                     "campaign": "THU 12:00 UTC EVERY 2 WEEKS", "grace": "1h"}})
    """AoP 18.2's schedules (M59): A orders on Mondays and C orders on Thursdays by 12:00 GMT, read at
    13:00 (an hour's grace); and the slower one, C orders every other Thursday and the spring letter on
    the Thursday between (``SET CLOCK AOP``, ``SET CLOCK AOP SLOW``)."""
    between_phases = ""
    phase_names = r"(?:SP|SU|FA)\d{4}[AC]"  # SP1454A, SU1454C (`lifecycle.phase_name`)
    restored = later("the board and the treasuries are as they were before it was carried out, and the letters then "
                     "standing stand again (a letter corrected then may not be corrected again, 17.1, M35), as do the "
                     "votes on the game's end then standing (M64)")

    def start(self, session: Session, game: Game, settings: Settings, now: datetime) -> None:
        lifecycle.start(session, game, settings, now)

    def phase_order(self, name: str) -> tuple[int, ...] | None:
        return lifecycle.phase_order(name)

    def following(self, game: Game, phase: str) -> tuple[str, ...]:
        return ahead.following(phase)

    def length_of(self, phase: str) -> str:
        return "spring" if phase.endswith("A") else "campaign"

    def waiting(self, session: Session, game: Game) -> list[str]:
        return lifecycle.waiting_seats(session, game)

    def complete(self, session: Session, game: Game, turn: Turn | None = None, now: datetime | None = None) -> bool:
        return lifecycle.complete(session, game)

    def closes_at_next_tick(self, session: Session, game: Game, row: PhaseRow) -> bool:
        """Every letter the phase awaits is in as it opens: sent ahead, each a block read when the phase
        opened (`ahead`); the clock closes it at its next tick, as the last letter by mail would."""
        return lifecycle.complete(session, game)

    def results_mails(self, session: Session, game: Game) -> int:
        return lifecycle.results_mails(session, game)

    def process(self, session: Session, game: Game, settings: Settings, now: datetime, closing: Closing) -> PhaseChange:
        return lifecycle.process_phase(session, game, settings, now, closing)

    def rolling_back(self, session: Session, game: Game, to: PhaseRow, later: Sequence[PhaseRow]) -> None:
        lifecycle.reopen_closed(game, [to, *later])
        lifecycle.votes_back(session, game, to)

    def changed_since_rollback(self, session: Session, game: Game) -> str | None:
        return lifecycle.changed_since_rollback(game)

    def publication(self, session: Session, game: Game) -> Publication:
        return lifecycle.publication(session, game)

    def standings(self, session: Session, game: Game) -> list[api.Standing]:
        return lifecycle.ranking(session, game)

    def label(self, phase: str) -> str:
        return lifecycle.label(phase)

    confirms_letters = True  # M59: at the deadline each letter received is confirmed, to its country alone (M66)

    def notice(self, session: Session, game: Game, row: PhaseRow, seat: str, which: str, until: datetime,
               extended: datetime | None = None) -> str:
        return lifecycle.notice(session, game, row, seat, which, until, extended)


class MachiavelliCommands(Commands):
    """Machiavelli's commands by mail, and what it answers about a game."""

    title: str
    commands = handlers.COMMANDS
    words = ("VOTE", "BORDERS")
    orders_private = "17.4"  # "the judge ignores all orders but those which have been sent solely to him" (M58)

    def read(self, text: str, game: Game | None) -> Command:
        return handlers.read(text)

    def close_block(self, turn: Turn) -> None:
        handlers.close_block(turn)

    def check_ahead(self, game: Game, phase: str, command: Command) -> str | None:
        return ahead.check_ahead(game, phase, command)

    def status(self, turn: Turn) -> list[str]:
        assert turn.game is not None and turn.seat is not None
        return handlers.status_lines(turn, turn.game, turn.seat)

    def master_status(self, turn: Turn) -> list[str]:
        return handlers.master_status(turn)

    def form(self, session: Session, game: Game, seat: str) -> api.Form | None:
        """The country's form to fill for the letter the open phase awaits (`views.form_parts`), drawn from
        the position as the phase opened, so the same whenever asked; none for a country no letter is
        awaited from (eliminated, 4.3)."""
        row = api.current_phase(session, game)
        if row is None or row.status != "open":
            return None
        board = lifecycle.board_of(game)
        position = lifecycle.position_of(row, board)  # read once, for both (each seat's form, at every results mail)
        if seat not in lifecycle.expected_in(board, position):
            return None
        notes, lines = views.form_parts(board, position, seat)
        return api.Form(row.name, seat, tuple(notes), tuple(lines))

    def help(self, settings: Settings) -> str:
        return render("machiavelli/help", settings=settings, scenarios=_scenarios())

    def info(self, game: Game) -> list[str]:
        return [_("{title}, the variant Absence of Plague (its chapters, and the rulings M1 to M64 of the "
                  "judge's design notes)", title=self.title),
                _("scenario {scenario}: {description}", scenario=game.variant, description=lifecycle.describe(game)),
                _("the spring letter (A orders: A.4 to A.7) and each campaign's letter (C orders: expenditures, "
                  "then operations), one letter a phase, corrected once at most before the deadline, its ducat "
                  "transfers standing (17.1, M35); orders are taken only from mail sent to the judge alone (17.4, "
                  "M58)"),
                _("a phase is carried out at its deadline, or as soon as every letter awaited from a played country "
                  "is in unless a country asks to WAIT (M60); without a letter, the defaults (17.2, M50)"),
                _("each player is told its own treasury, expenditures and units; the actions and the board are "
                  "published (2, 8.1, 8.2); press is grey (anonymous) by default (18.1)"),
                _("a country whose player leaves with no substitute leader is eliminated when the campaign ends "
                  "(18.3, M62); the surviving players may end the game by a unanimous secret vote, VOTE DRAW or "
                  "VOTE CONCEDE country, taking effect at the end of the campaign (M64)")]

    def brief(self, turn: Turn, game: Game, seat: str, player: Player, address: str) -> None:
        """What the country knows now: its treasury, units and letter standing, the board and its
        map, and its last statement; nothing of the other countries' secrets."""
        with writing_to(turn.session, turn.settings, address, game):
            self._brief(turn, game, seat, address)

    def _brief(self, turn: Turn, game: Game, seat: str, address: str) -> None:
        last = next((r for r in reversed(api.processed_phases(turn.session, game)) if r.result), None)
        kept = last.result.get("statements", {}).get(seat) if last is not None and last.result else None
        statement = list(in_reader_language(kept) or [])
        lines = handlers.status_lines(turn, game, seat)
        if statement and last is not None:
            lines += ["", _("Your statement of {phase}, {label}:", phase=last.name, label=lifecycle.label(last.name)),
                      *statement]
        board = lifecycle.board_of(game)
        position = lifecycle.position_now(turn.session, game)
        todo = lifecycle.todo(board, position, seat) if position is not None and game.phase else ""
        shown = views.board_lines(board, position) if position is not None else []
        attached = (pictures.position_map(turn.settings, game.name, board, position, game.phase or "board")
                    if position is not None else [])
        body = render("machiavelli/briefing", game=game, seat=seat, lines=lines, board=shown, todo=todo,
                      deadline=game.deadline, map="" if attached or position is None else lifecycle.no_map())
        queue(turn.session, turn.settings, to=address,
              subject=_("{game}: your briefing as {country}", game=game.name, country=seat),
              kind="notice", now=turn.now, game_id=game.id, body=body, attachments=attached, opens=seat)

    def resigned(self, turn: Turn, game: Game, seat: str) -> str:
        """AoP 18.3, M62: a player who leaves with no substitute leader is eliminated (4.3) when the
        campaign ends; until then the country is open for a substitute (TAKEOVER), and everyone is
        told so."""
        position = lifecycle.position_now(turn.session, game)
        living = position.living(lifecycle.board_of(game).powers) if position is not None else ()
        if position is None or game.state not in RUNNING or seat not in living:
            return ""
        api.open_seat(game, seat)
        before = _before_the_campaign(turn.session, game)
        takeover = f"TAKEOVER {seat.replace(' ', '-')}@{game.name} password"
        turn.announce(lambda: _("{country} has no leader: unless a substitute takes it over ({takeover}) {before}, "
                                "{country} is eliminated then, its units becoming independent (18.3, 4.3, M62)",
                                country=seat, takeover=takeover, before=_before_the_campaign(turn.session, game)),
                      public=True)
        return _("unless a substitute leader takes {country} over {before}, it is eliminated then (18.3, 4.3, M62)",
                 country=seat, before=before)

    def list_lines(self, turn: Turn, game: Game) -> list[str]:
        """The game's scenario, phase and each country's state: never who has sent a letter."""
        seat = api.seats(turn.session, game)
        return api.answer_list(game, lifecycle.describe(game), lifecycle.label(game.phase) if game.phase else None,
                               [(country, seat[country]) for country in lifecycle.board_of(game).powers
                                if country in seat], defaults=(lifecycle.DEFAULT_PRESS,))

    def history(self, turn: Turn, text: str, game: Game, command: History) -> None:
        """The public results of the phases carried out (all, one, or a range), which anyone may read: at most
        ``HISTORY_PHASES`` phases and ``HISTORY_CHARS`` characters at once (a phase at least), then how to ask
        for the rest."""
        published = [(r.name, in_reader_language(r.result["public"]))
                     for r in api.processed_phases(turn.session, game) if r.result]
        names = [name for name, _ in published]
        first, last = command.first, command.last
        for named in (first, last):
            if named is not None and named not in names:
                problem = (_("{game} has carried out no phase {phase} (carried out: {phases})", game=game.name,
                             phase=named[:20], phases=", ".join(names)) if names else
                           _("{game} has carried out no phase {phase} (carried out: none)", game=game.name,
                             phase=named[:20]))
                turn.echo(text, "error", problem, code="NO_SUCH_PHASE")
                return
        start = names.index(first) if first else 0
        end = names.index(last) + 1 if last else len(names)
        chosen = published[start:end]
        if not chosen:
            turn.echo(text, "ok", _("{game} has carried out no phase yet", game=game.name))
            return
        lines: list[str] = []
        size = 0  # characters of the answer so far
        for shown, (name, public) in enumerate(chosen):  # at most HISTORY_PHASES, HISTORY_CHARS: then how to go on
            phase = [f"== {name}, {lifecycle.label(name)} ==", *public, ""]
            size += sum(len(line) + 1 for line in phase)
            if shown and (shown == HISTORY_PHASES or size > HISTORY_CHARS):
                rest = f"{name}-{chosen[-1][0]}" if name != chosen[-1][0] else name
                lines.append(ngettext("{count} more phase: HISTORY {game} {rest}",
                                      "{count} more phases: HISTORY {game} {rest}", len(chosen) - shown,
                                      game=game.name, rest=rest))
                break
            lines += phase
        turn.answer_long(text, f"{game.name}-history.txt", "\n".join(lines), _("the history"))

    def summary(self, turn: Turn, text: str, game: Game) -> None:
        api.answer_summary(turn, text, game, "machiavelli/summary", lifecycle.describe(game),
                            lifecycle.label(game.phase) if game.phase else None)


class Machiavelli(MachiavelliLobby, MachiavelliPhases, MachiavelliCommands, Kind):
    """Machiavelli, as the host sees it: its lobby, phases and commands, and its pages, records and demo."""

    # -- pages -----------------------------------------------------------------------------------

    def public_results(self, session: Session, game: Game, row: PhaseRow) -> list[str]:
        """What every player and observer read of the phase: its public lines."""
        return [str(line) for line in in_reader_language((row.result or {}).get("public")) or []]

    def facts(self, session: Session, game: Game, acting: bool = True,
              seated: Sequence[Player] | None = None) -> GameFacts:
        return pages.facts_of(session, game, seated)

    def gather(self, session: Session, game: Game) -> Any:
        return pages.gather(session, game)

    def write_pages(self, root: Path, record: Any, force: bool = False) -> Path:
        return pages.write_game(root, record, force)

    # -- records ---------------------------------------------------------------------------------

    def totals(self, connection: Connection) -> dict[str, int]:
        """Each country's treasury in every Machiavelli game as it stands ("m1 Venice"): a copy of
        the database must keep every ducat.  The game keeps them in its phase rows' positions."""
        return {f"{name} {country}": int(ducats)
                for name, data in api.phase_data_now(connection, self.name, "position")
                for country, ducats in data.get("treasuries", {}).items()}

    def check_phase(self, session: Session, game: Game, row: PhaseRow) -> None:
        """The position the phase started from, and once processed the position it left, read
        on the game's board as the game reads them when it goes on: each unit where it may stand
        (an army on land, a garrison in a fortified city), each power one of the board's."""
        from judge.games.machiavelli.core.notation import position_from_data

        board = lifecycle.board_of(game)
        positions: list[tuple[str, Any]] = [("position", row.position)]
        if row.status == "processed" and row.result:
            positions.append(("result", (row.result or {}).get("position")))
        for where, data in positions:
            try:
                position_from_data(data, board)
            except ValueError as exc:
                raise ValueError(f"{where}: {exc}") from None

    # -- the demo --------------------------------------------------------------------------------

    demo_scenarios = ("classic", "aop")

    def demo(self, judge: DemoJudge, blind: bool = False, scenario: str | None = None) -> None:
        if blind:
            raise ValueError(f"{self.title} has no blind variant")
        from judge.games.machiavelli import demo

        if scenario == "aop":
            demo.play_aop(judge)
        else:
            demo.play(judge)


def _before_the_campaign(session: Session, game: Game) -> str:
    """Until when a country without a leader may still get a substitute (18.3, M62, M65), in words:
    before the current campaign is carried out, at its deadline if it is the phase now; else (the
    spring letter is) once the spring letter is carried out, whose deadline is named."""
    position = lifecycle.position_now(session, game)
    assert position is not None
    campaign = lifecycle.campaign_phase(position)
    season = views.season_text(position.season)
    if game.phase == campaign:
        return _("before {season}'s campaign ({campaign}) is carried out, at its deadline, {deadline}", season=season,
                 campaign=campaign, deadline=api.when(game.deadline))
    return _("before {season}'s campaign ({campaign}) is carried out, at the deadline it gets when the spring letter "
             "({phase}, due {deadline}) is carried out", season=season, campaign=campaign, phase=game.phase,
             deadline=api.when(game.deadline))
