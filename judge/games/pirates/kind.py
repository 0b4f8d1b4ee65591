"""Pirates' Proposal as a kind of game the host runs (`judge.games.GameKind`): the plug between
the host and the match's edges (`lifecycle`, `handlers`, `pages`), which stand on its rules core,
`judge.games.pirates.core`.  It is written by concern, as `GameKind` is: `PiratesLobby`,
`PiratesPhases` and `PiratesCommands`, and `Pirates` for the rest.

A match is created with ``CREATE game password pirates [PLAYERS=n] [GARNETS=n]``; each player
joins under a name of their own (``JOIN game password name``), which is their seat: they sign
on with it (``SIGNON name@game password``), plans and ballots name players by it, and a player
who takes a vacant seat over plays under its name.  Its phases are the Distribution and Voting
Phases of five rounds, then the final phase (``D1``...``V5``, ``F``), each lasting the game
master's ``SET DISTRIBUTION``, ``SET VOTING`` or ``SET FINAL`` hours (24 by default).

What anyone may know of a running match is its name, round and phase and who holds which seat
(LIST, the pages, the observers' mail): never who has sent what (P10), which Payola's LIST tells.
Press goes to whoever it names, in either room: refusing press to the other room would tell who
is in it (P10).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from types import MappingProxyType
from typing import Any

from sqlalchemy.orm import Session

from judge import api
from judge.api import (
    Closing,
    Command,
    Commands,
    DemoJudge,
    Game,
    GameError,
    GameFacts,
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
    queue,
    render,
    writing_to,
)
from judge.games.pirates import handlers, lifecycle, pages
from judge.games.pirates.core.commands import KEYWORDS
from judge.games.pirates.core.match import check_name
from judge.games.pirates.core.notation import match_from_data
from judge.games.pirates.core.views import end_view
from judge.games.pirates.form import form_parts
from judge.language import gettext as _
from judge.language import later, ngettext

HOST_WORDS = frozenset({"MASTER", "GM", "ALL", "KEY"})
"""Words the host gives a meaning where a seat is named (SIGNON MASTER@game, PRESS TO ALL, a
private game's KEY): no player may be named so."""


class PiratesLobby(Lobby):
    """Pirates' Proposal's CREATE and JOIN, and its seats: its players, each under the name it joined with."""

    name = "pirates"
    title = lifecycle.KIND_TITLE
    seat_word = "seat"
    player_word = "player"
    join_usage = later("JOIN game password name [KEY key], the name you will play under: 2 to 12 letters or digits")

    # -- creating and joining ------------------------------------------------------------------------

    def read_create(self, words: Sequence[str]) -> tuple[str, list[str]]:
        return "pirates", lifecycle.read_options(words)

    def create_help(self) -> list[str]:
        return [_("Pirates' Proposal (CREATE game password pirates [PLAYERS=n] [GARNETS=n]): an even number of players "
                  "from 4 to 14 (14 by default), in two rooms, five rounds")]

    def capacity(self, game: Game) -> int:
        return lifecycle.setting(game, "PLAYERS")

    def read_join(self, session: Session, game: Game, word: str | None) -> str | None:
        """The player's name (P1): 2 to 12 letters or digits, unique in the game whatever the case,
        and no word the commands give a meaning (ME, YES, NO; MASTER, GM, ALL, KEY)."""
        if not word:
            raise ValueError(_("a player of Pirates' Proposal joins under a name: JOIN {game} password name (2 to "
                               "12 letters or digits)", game=game.name))
        problem = check_name(word)
        if problem is None and word.upper() in HOST_WORDS:
            problem = _("'{name}' cannot be a player's name: MASTER, GM, ALL and KEY are words of the commands",
                        name=word)
        if problem is not None:
            raise ValueError(problem)
        taken = {(p.requested or "").casefold() for p in api.players(session, game)}
        if word.casefold() in taken:
            raise ValueError(_("a player of {game} is already named '{name}' (names differ whatever the case): "
                               "choose another", game=game.name, name=word))
        return word

    def read_preferences(self, session: Session, game: Game, words: Sequence[str]) -> list[str]:
        """No preferences: a seat is the name its player joins under, and the rooms are drawn."""
        raise ValueError(_("PREFER does not apply to Pirates' Proposal: each player plays under the name they join "
                           "with and the rooms are drawn by lot (JOIN {game} password name)", game=game.name))

    def joined(self, game: Game, requested: str | None) -> str:
        return _("you joined '{game}' as {name}; the rooms are drawn when the match starts (SIGNON {name}@{game} "
                 "password)", game=game.name, name=requested)


class PiratesPhases(Phases):
    """Pirates' Proposal's phases: five rounds' Distribution and Voting Phases, then the final phase."""

    durations = MappingProxyType({"distribution": 24.0, "voting": 24.0, "final": 24.0})
    between_phases = ""
    phase_names = r"[DV][1-9]\d?"  # D1, V1: a round's Distribution and Voting Phases (`Phase.name`)
    closes_early = False  # a phase closing early would tell that all the others had submitted (P10)
    restored = ""

    def start(self, session: Session, game: Game, settings: Settings, now: datetime) -> None:
        lifecycle.start(session, game, settings, now)

    def phase_order(self, name: str) -> tuple[int, ...] | None:
        return lifecycle.phase_order(name)

    def length_of(self, phase: str) -> str:
        return {"D": "distribution", "V": "voting", "F": "final"}[phase[0]]

    def waiting(self, session: Session, game: Game) -> list[str]:
        return lifecycle.waiting_seats(session, game)

    def complete(self, session: Session, game: Game, talk: Turn | None = None,
                 now: datetime | None = None) -> bool:
        """Never before the deadline: a phase that closed early would tell every player that all
        the others had submitted (Amendment II, P10)."""
        return False

    def results_mails(self, session: Session, game: Game) -> int:
        return lifecycle.results_mails(session, game)

    def process(self, session: Session, game: Game, settings: Settings, now: datetime, closing: Closing) -> PhaseChange:
        return lifecycle.process_phase(session, game, settings, now, closing)

    def rolling_back(self, session: Session, game: Game, to: PhaseRow, later: Sequence[PhaseRow]) -> None:
        raise GameError(_("a match of Pirates' Proposal cannot be rolled back: the mails of each phase told every "
                          "player what the rules let them learn, and that cannot be taken back"), "CANNOT_ROLL_BACK")

    def publication(self, session: Session, game: Game) -> Publication:
        return lifecycle.publication(session, game)

    def label(self, phase: str) -> str:
        return lifecycle.label(phase)

    def notice(self, session: Session, game: Game, row: PhaseRow, seat: str, which: str, until: datetime,
               extended: datetime | None = None) -> str:
        return render(f"pirates/{which}", game=game, seat=seat, stage=row.name[0], label=lifecycle.label(row.name),
                      until=until, extended=extended)


class PiratesCommands(Commands):
    """Pirates' Proposal's commands by mail, and what it answers about a match."""

    title: str
    commands = handlers.COMMANDS
    words = tuple(sorted(KEYWORDS - {"GARNET"}))

    def read(self, text: str, game: Game | None) -> Command:
        return handlers.read(text)

    def close_block(self, talk: Turn) -> None:
        handlers.close_block(talk)

    def status(self, talk: Turn) -> list[str]:
        assert talk.game is not None and talk.seat is not None
        return handlers.status_lines(talk, talk.game, talk.seat)

    def master_status(self, talk: Turn) -> list[str]:
        return handlers.master_status(talk)

    def help(self, settings: Settings) -> str:
        return render("pirates/help", settings=settings)

    def form(self, session: Session, game: Game, seat: str) -> api.Form | None:
        """The player's form to fill in the open phase (`judge.games.pirates.form`): from the match as
        the phase opened, and only what the player's own views hold (P10)."""
        row = api.current_phase(session, game)
        if row is None or row.status != "open":
            return None
        parts = form_parts(match_from_data(row.position), seat)
        return api.Form(row.name, seat, *map(tuple, parts)) if parts is not None else None

    def info(self, game: Game) -> list[str]:
        players, garnets = lifecycle.setting(game, "PLAYERS"), lifecycle.setting(game, "GARNETS")
        return [_("Pirates' Proposal (the numbers are those of its rules, P1 to P14)"),
                _("PLAYERS={players}: {players} players in two rooms, five rounds (P1)", players=players),
                ngettext("GARNETS={count}: each player starts with {count} garnet (P1, P7)",
                         "GARNETS={count}: each player starts with {count} garnets (P1, P7)", garnets),
                _("a phase closes at its deadline or when the game master processes it, never early (P10); "
                  "everything is published at the end (P14)")]

    def brief(self, talk: Turn, game: Game, seat: str, player: Player, address: str) -> None:
        """What the seat knows now (its own views and what it has sent in the open phase), and
        nothing of anyone else's (P10)."""
        match = lifecycle.match_now(talk.session, game)
        assert match is not None and game.phase is not None
        with writing_to(talk.session, talk.settings, address, game):
            lines = lifecycle.seat_lines(match, seat, lifecycle.submissions_of(talk.session, game, game.phase))
            body = render("pirates/briefing", game=game, seat=seat, lines=lines, todo=lifecycle.todo(match, seat),
                          deadline=game.deadline)
            queue(talk.session, talk.settings, to=address,
                  subject=_("{game}: your briefing as {seat}", game=game.name, seat=seat), kind="notice",
                  now=talk.now, game_id=game.id, body=body, opens=seat)

    def resigned(self, talk: Turn, game: Game, seat: str) -> str:
        return _("it plays on by the defaults: the default plan, drawn ballots")

    def list_lines(self, talk: Turn, game: Game) -> list[str]:
        """The match's name, round and phase and each seat's state: never who has sent what (P10)."""
        return api.answer_list(game, lifecycle.describe(game), lifecycle.label(game.phase) if game.phase else None,
                               [(player.seat, player) for player in lifecycle.seats_of(api.players(talk.session, game))
                                if player.seat is not None])

    def history(self, talk: Turn, text: str, game: Game, command: History) -> None:
        """A match's story is published when it ends (P14); until then each player has been told
        only their own part of it (P10), and the game master has it in the charts."""
        if game.state != GameState.FINISHED:
            talk.echo(text, "error", _("the history of a match of Pirates' Proposal is published when it ends; until "
                                       "then each player is told only their own part of it"),
                      code="HISTORY_NOT_PUBLISHED")
            return
        lines = pages.published_lines(talk.session, game)
        if not lines:
            talk.echo(text, "ok", _("no round of {game} was played to its end: there is nothing to publish",
                                    game=game.name))
            return
        talk.answer_long(text, f"{game.name}-history.txt", "\n".join(lines), _("the publication"), game=game)

    def summary(self, talk: Turn, text: str, game: Game) -> None:
        """The match's phase and events, and once it has ended its end and who played which seat:
        every player of each, with the phases they played (`host.who_played`)."""
        match = lifecycle.match_now(talk.session, game)
        end = end_view(match).lines() if match is not None and game.state == GameState.FINISHED and match.over else ()
        api.answer_summary(talk, text, game, "pirates/summary", lifecycle.describe(game),
                            lifecycle.label(game.phase) if game.phase else None, end=end)


class Pirates(PiratesLobby, PiratesPhases, PiratesCommands, Kind):
    """Pirates' Proposal, as the host sees it: its lobby, phases and commands, and its pages and demo."""

    # -- pages -----------------------------------------------------------------------------------

    def facts(self, session: Session, game: Game, acting: bool = True,
              seated: Sequence[Player] | None = None) -> GameFacts:
        return pages.facts_of(session, game, seated)

    def gather(self, session: Session, game: Game) -> Any:
        return pages.gather(session, game)

    def write_pages(self, root: Path, record: Any, force: bool = False) -> Path:
        return pages.write_game(root, record, force)

    def check_phase(self, session: Session, game: Game, row: PhaseRow) -> None:
        """The match the phase started from, and once processed the match it left, read as the
        game reads them when it goes on: its players the game's seats, each once; nobody else in the
        ship's rooms, nobody twice; no garnets below none."""

        matches: list[tuple[str, Any]] = [("position", row.position)]
        if row.status == "processed" and row.result:
            matches.append(("result", (row.result or {}).get("match")))
        seats = set(api.seats(session, game))
        for where, data in matches:
            try:
                match = match_from_data(data)
            except (ValueError, KeyError, TypeError, AttributeError) as exc:
                raise ValueError(f"{where}: {exc}") from None
            players = sorted(match.players)
            if len(set(players)) != len(players) or set(players) != seats:
                raise ValueError(f"{where}: its players are {', '.join(players)}, not the game's seats")
            for number, rooms in enumerate([match.rooms, *(each.rooms for each in match.rounds)]):
                aboard = [name for room in rooms for name in room]
                if len(set(aboard)) == len(aboard) and set(aboard) <= set(players):
                    continue
                if number == 0:
                    raise ValueError(f"{where}: the rooms drawn at the start hold someone who is not one of its "
                                     "players, or one of them twice")
                raise ValueError(f"{where}: the rooms of round {number} hold someone who is not one of its players, "
                                 "or one of them twice")
            if match.garnets < 0 or any(amount < 0 for each in match.rounds for _, amount in each.packages):
                raise ValueError(f"{where}: it counts garnets below none")

    def standings(self, session: Session, game: Game) -> list[api.Standing]:
        return pages.standings(session, game)

    # -- the demo --------------------------------------------------------------------------------

    def demo(self, judge: DemoJudge, blind: bool = False, scenario: str | None = None) -> None:
        if blind:
            raise ValueError(f"{self.title} has no blind variant")
        from judge.games.pirates import demo

        demo.play(judge)


