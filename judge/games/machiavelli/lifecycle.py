"""The life of a Machiavelli game on the host: its scenario, seats and phases, the closing of each
phase with the letters standing, its end, and every mail these send.

Theory of operation.  A game is played in a scenario, a board of the rules core
(``core/boards/<name>.json``: ``classic``, the classic board of 1454, by default), kept as the
game's ``variant``; its seats are the scenario's countries.  The position is a value of the core,
kept as JSON (`judge.games.machiavelli.core.notation`) in the game's phase rows: a row per
letter the game awaits, named by the season and the letter (``SP1454A``: the spring letter of
Spring 1454, A orders; ``SP1454C``, ``SU1454C``, ``FA1454C``: the campaign letters of Spring,
Summer and Fall, C orders), holds the position as the phase opened (``position``) and, once
closed, what happened (``result``: the position it left, the letters carried out, the public
results and each player's statement, as sent).  No table of its own: a player's letter is a
`Submission` row of the phase (kind ``letter``: its text, and the orders read from it, as
`judge.games.machiavelli.handlers` keeps them under the correction rule, M35).

Closing a phase (`process_phase`: at the deadline, on the game master's PROCESS, or as soon as
every expected letter is in, `complete`): the letters standing are carried out by the core
(`spring_letter` for the A letters, `campaign` for the C letters; a country without a letter gets
the defaults, 17.2, M50), the next phase opens (after a Fall, with A.1 and A.2 done: its incomes
are published with the Fall's results), and every mail is queued in the same transaction: to
each player the public results and its own statement (`judge.games.machiavelli.views`), to the
game master the public results and every statement, to observers the public results.  When
somebody wins (4.2) the game ends with the ranking.  ROLLBACK goes back to a processed phase
(the letters standing then stand again); TERMINATE publishes the board and every player's
standing and treasury.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any, NamedTuple

from sqlalchemy.orm import Session

from judge.games.machiavelli import pictures, views
from judge.games.machiavelli.core.board import Board, board_names, load_board
from judge.games.machiavelli.core.campaign import Expected, campaign, expected_letters
from judge.games.machiavelli.core.existence import standings
from judge.games.machiavelli.core.expenditures import LetterOrder
from judge.games.machiavelli.core.notation import position_from_data, position_to_data
from judge.games.machiavelli.core.position import Campaign, Phase, Position, Season
from judge.games.machiavelli.core.spring import spring_letter
from judge.games.machiavelli.core.syntax import parse_letter
from judge.service import host
from judge.service.config import Settings
from judge.service.lifecycle import RUNNING, Event, GameError, GameState, move, state_of
from judge.service.logs import log_on_commit
from judge.service.options import split_options
from judge.service.outbox import queue
from judge.service.render import render
from judge.store.models import Game, PhaseRow, Player, Submission

log = logging.getLogger("judge")

KIND_TITLE = "Machiavelli"
LETTER = "letter"
"""The kind of a player's `Submission` row: its letter standing in the phase."""
DEFAULT_PRESS = "PRESS=GREY/WHITE"
"""Press is anonymous unless its writer signs it (18.1: the judge transmits unsigned letters and
conceals their senders), so a game created without a ``PRESS=`` option gets grey press by
default, white (signed) on request."""
SEASONS = {Campaign.SPRING: "SP", Campaign.SUMMER: "SU", Campaign.FALL: "FA"}
LENGTHS = {Phase.A: "spring", Phase.C: "campaign"}
"""The setting each letter's phase lasts (``SET SPRING hours``, ``SET CAMPAIGN hours``)."""


class Closed(NamedTuple):
    """What closing a phase did (`judge.service.kinds.PhaseChange`): the phase closed, the one
    opened (None: the game has ended) and the winner, if one player won alone."""

    phase: str
    next_phase: str | None
    winner: str | None = None


# -- the game's settings --------------------------------------------------------------------------------


def read_options(words: Sequence[str]) -> tuple[str, list[str]]:
    """CREATE's words after ``machiavelli``: the scenario (a board's name, ``classic`` by default),
    then the host's options; grey press by default (`DEFAULT_PRESS`).  ValueError with the reason."""
    own, rest = split_options(list(words))
    scenario = board_names()[0]
    if rest and rest[0].lower() in board_names():
        scenario = rest.pop(0).lower()
    if rest:
        raise ValueError(f"'{rest[0]}' is not a scenario or option of {KIND_TITLE}: the scenarios are "
                         f"{', '.join(board_names())}; the options NO_OBSERVERS, ANONYMOUS, OPEN_TAKEOVER, "
                         "ABSENCE_DAYS=N, PRESS=..., NO_PARTIAL, NO_OBSERVER_PRESS")
    if not any(word.startswith("PRESS=") for word in own):
        own.append(DEFAULT_PRESS)
    return scenario, own


def board_of(game: Game) -> Board:
    """The board of the game's scenario."""
    return load_board(game.variant)


def describe(game: Game) -> str:
    """The game in words: "Machiavelli (classic board, 1454)"."""
    return board_of(game).title


def seat_of(player: Player) -> str | None:
    """The country a player plays (None: not assigned yet).  The one place that reads the
    host's seat column."""
    return player.seat


def _seat(player: Player, country: str) -> None:
    player.seat = country


def phase_name(position: Position) -> str:
    """The name of the phase ``position`` opens: ``SP1454A``, ``SU1454C``..."""
    return f"{SEASONS[position.season.campaign]}{position.season.year}{position.phase.value}"


def season_of(name: str) -> tuple[Season, str]:
    """The season and the letter (``A``, ``C``) of a phase's name."""
    campaign_of = {code: c for c, code in SEASONS.items()}
    return Season(int(name[2:-1]), campaign_of[name[:2]]), name[-1]


def label(name: str) -> str:
    """A phase in words: "the spring letter of Spring 1454 (A orders)"."""
    season, letter = season_of(name)
    return views.season_words(season, letter)


# -- reading the state ------------------------------------------------------------------------------------


def position_of(row: PhaseRow, board: Board) -> Position:
    """The position of a phase row: as it opened, or once processed as it left the board."""
    data = row.result["position"] if row.status == "processed" and row.result else row.position
    return position_from_data(data, board)


def position_now(session: Session, game: Game) -> Position | None:
    """The position as it stands (None before the start)."""
    row = host.current_phase(session, game)
    return None if row is None else position_of(row, board_of(game))


def letters_of(session: Session, game: Game, phase: str) -> dict[str, Submission]:
    """Each country's letter standing in ``phase``."""
    return {seat: row for (seat, kind), row in host.latest_submissions(session, game, phase).items() if kind == LETTER}


def orders_of(board: Board, letter: Submission) -> tuple[LetterOrder, ...]:
    """The orders of a letter standing, as they will be carried out."""
    return parse_letter("\n".join(letter.parsed["orders"]), board)[0]


def expected_now(session: Session, game: Game) -> dict[str, Expected]:
    """The letters the open phase awaits, by country (none once the game is over)."""
    row = host.current_phase(session, game)
    if row is None or row.status != "open":
        return {}
    board = board_of(game)
    return {e.player: e for e in expected_letters(board, position_of(row, board))}


def waiting_seats(session: Session, game: Game) -> list[str]:
    """The played countries whose letter the open phase awaits and has not: whom the clock reminds."""
    if game.phase is None:
        return []
    seat = host.seats(session, game)
    sent = host.latest_texts(session, game, game.phase)
    return [country for country in expected_now(session, game)
            if host.is_played(seat.get(country)) and (country, LETTER) not in sent]


def complete(session: Session, game: Game) -> bool:
    """Whether every letter the open phase awaits from a played country is in (and one at least
    is awaited): the phase then closes before its deadline (18.2 would wait for the deadline;
    the brief of the judge closes it as soon as it can, as Payola's phases do)."""
    if game.phase is None:
        return False
    seat = host.seats(session, game)
    played = [c for c in expected_now(session, game) if host.is_played(seat.get(c))]
    sent = host.latest_texts(session, game, game.phase)
    return bool(played) and all((country, LETTER) in sent for country in played)


# -- seats and the start ------------------------------------------------------------------------------------


def assign(countries: Sequence[str], wishes: Sequence[Sequence[str]], seed: int) -> list[tuple[str, str]]:
    """The country of each player (in the order of ``wishes``, each player's countries wanted,
    best first) and why they got it: the players who wished are taken in an order drawn by lot
    (``seed``), each getting the first of its wishes nobody before took (random serial
    dictatorship: nobody gains by hiding a wish); the others draw among the countries left."""
    rng = random.Random(seed)
    order = [i for i, wish in enumerate(wishes) if wish]
    rng.shuffle(order)
    free = list(countries)
    got: dict[int, tuple[str, str]] = {}
    for place, index in enumerate(order, start=1):
        country = next((c for c in wishes[index] if c in free), None)
        if country is not None:
            free.remove(country)
            rank = wishes[index].index(country) + 1
            got[index] = (country, f"your choice {rank}; the draw placed you {place} of {len(order)}")
    rng.shuffle(free)
    for index, wish in enumerate(wishes):
        if index not in got:
            why = "drawn by lot among the countries left" + (", every country you wished for being taken" if wish
                                                                else "")
            got[index] = (free.pop(), why)
    return [got[index] for index in range(len(wishes))]


def start(session: Session, game: Game, settings: Settings, now: datetime) -> None:
    """Assign the countries (the players' wishes by a seeded draw, then by lot; the countries
    nobody plays are dummies, which play by the defaults), open the scenario's first phase (its
    spring letter: the first spring starts at A.3, AoP 3) and mail each player its country, the
    board and what to send."""
    if game.state != GameState.FORMING:
        raise GameError("the game has already started", "ALREADY_STARTED")
    board = board_of(game)
    seated = host.players(session, game)
    if not seated:
        raise GameError("nobody has joined the game yet", "NOBODY_JOINED")
    if len(seated) > len(board.powers):
        raise GameError(f"more players than the {len(board.powers)} countries of the scenario", "TOO_MANY_PLAYERS")
    wishes = [player.preferences or ([player.requested] if player.requested else []) for player in seated]
    why: dict[str, str] = {}
    for player, (country, reason) in zip(seated, assign(board.powers, wishes, game.seed), strict=True):
        _seat(player, country)
        why[country] = reason
    for country in board.powers:
        if country not in why:
            dummy = Player(game_id=game.id, dummy=True, joined_at=now)
            _seat(dummy, country)
            session.add(dummy)
    move(game, Event.START)
    session.flush()
    position = board.start
    _open_row(session, game, position, now)
    seat = host.seats(session, game)
    attached = pictures.position_map(settings, game.name, board, position, phase_name(position))
    common: dict[str, Any] = {"game": game, "what": describe(game), "roster": roster(session, game),
                              "board": views.board_lines(board, position), "areas": views.area_lines(board),
                              "deadline": game.deadline, "label": label(game.phase or ""),
                              "map": "" if attached else pictures.NO_MAP}
    for country, player in seat.items():
        if host.is_played(player):
            assert player.address is not None
            queue(session, settings, to=player.address, subject=f"{game.name} starts", kind="start", now=now,
                  game_id=game.id, attachments=attached,
                  body=render("machiavelli/start", **common, seat=country, why=why.get(country, ""),
                              treasury=position.treasuries.get(country, 0), todo=todo(board, position, country)))
    queue(session, settings, to=game.gm_address, subject=f"{game.name} starts", kind="start", now=now,
          game_id=game.id, attachments=attached,
          body=render("machiavelli/start", **common, seat=None, why="", treasury=0, todo=""))
    for observer in host.observers(session, game):
        queue(session, settings, to=observer, subject=f"{game.name} starts", kind="start", now=now, game_id=game.id,
              attachments=attached, body=render("machiavelli/start", **common, seat=None, why="", treasury=0,
                                                todo=""))


def roster(session: Session, game: Game) -> list[tuple[str, str]]:
    """Each country and whether it is played, in the board's order (never the order of joining)."""
    seat = host.seats(session, game)
    return [(country, "played" if host.is_played(seat.get(country)) else "a dummy (plays by the defaults)")
            for country in board_of(game).powers if country in seat]


def todo(board: Board, position: Position, country: str) -> str:
    """What ``country`` must send in the phase ``position`` opens, in words."""
    expected = {e.player: e for e in expected_letters(board, position)}
    if country not in expected:
        return ("You have been eliminated: nothing is expected of you." if country in position.eliminated else "")
    first = board.first_builds if position.season == board.start.season else 0
    return render("machiavelli/todo", letter=position.phase.value, season=position.season, first=first,
                  default=expected[country].default).strip()


def _open_row(session: Session, game: Game, position: Position, now: datetime) -> PhaseRow:
    """The row of the phase ``position`` opens, and the game's deadline for it."""
    name = phase_name(position)
    row = host.open_phase(session, game, name, position_to_data(position), now)
    session.flush()
    return row


# -- closing a phase --------------------------------------------------------------------------------------


def process_phase(session: Session, game: Game, settings: Settings, now: datetime, *, cause: str,
                  preface: str | None = None) -> Closed:
    """Carry out the open phase with the letters standing, open the next (or end the game) and
    queue every mail, each saying ``preface`` first if given."""
    if game.state not in RUNNING:
        raise GameError("the game is not running", "NOT_RUNNING")
    row = host.current_phase(session, game)
    assert row is not None and row.status == "open"
    if state_of(game) is GameState.PAUSED and game.settings.get("rolled_back") == row.name:
        move(game, Event.RESUME)  # a phase rolled back and processed again ends the ROLLBACK's pause
    game.settings = {k: v for k, v in game.settings.items() if k != "rolled_back"}
    board = board_of(game)
    position = position_of(row, board)
    standing = letters_of(session, game, row.name)
    letters = {country: orders_of(board, letter) for country, letter in standing.items()}
    expected = {e.player: e for e in expected_letters(board, position)}
    defaulted = {country: e for country, e in expected.items() if country not in standing}
    statements: dict[str, list[str]] = {}
    if position.phase is Phase.A:
        spring = spring_letter(board, position, letters)
        after, record = spring.position, None
        public = views.spring_public(board, spring)
        for country in expected:
            statements[country] = views.spring_statement(board, spring, country, position.treasuries.get(country, 0),
                                                         defaulted.get(country))
    else:
        record = campaign(board, position, letters)
        after = record.position
        public = views.campaign_public(board, record)
        for country in expected:
            statements[country] = views.campaign_statement(board, record, country, position.treasuries.get(country, 0),
                                                           defaulted.get(country))
    row.result = {"position": position_to_data(after),
                  "letters": {country: letter.parsed["orders"] for country, letter in sorted(standing.items())},
                  "defaulted": sorted(defaulted), "public": public, "statements": statements}
    row.status, row.processed_at = "processed", now
    title = row.name if after.phase is Phase.OVER else phase_name(after)
    attached = pictures.position_map(settings, game.name, board, after, title, record)
    if after.phase is Phase.OVER:
        assert record is not None and record.end is not None
        winners = record.end.winners
        log_on_commit(session, log, "game %s %s processed (%s); won by %s", game.name, row.name, cause,
                      ", ".join(winners))
        _mail_results(session, game, settings, now, row.name, board, after, public, statements, attached, preface)
        result = f"won by {' and '.join(winners)} in {position.season}"
        _end(session, game, result, winners[0] if len(winners) == 1 else None)
        return Closed(row.name, None, game.winner)
    _open_row(session, game, after, now)
    log_on_commit(session, log, "game %s %s processed (%s); next %s", game.name, row.name, cause, game.phase)
    _mail_results(session, game, settings, now, row.name, board, after, public, statements, attached, preface)
    return Closed(row.name, game.phase)


def _mail_results(session: Session, game: Game, settings: Settings, now: datetime, phase: str, board: Board,
                  after: Position, public: list[str], statements: Mapping[str, list[str]], attached: Sequence[Any],
                  preface: str | None) -> None:
    """Each played country's mail (the public results and its own statement), the game master's
    (every statement too), and the observers' (the public results)."""
    over = after.phase is Phase.OVER
    common: dict[str, Any] = {"game": game, "phase": phase, "label": label(phase), "public": public,
                              "board": views.board_lines(board, after), "preface": preface, "over": over,
                              "next": None if over else label(game.phase or ""), "deadline": None if over else
                              game.deadline, "map": "" if attached else pictures.NO_MAP}
    subject = f"{game.name} {phase} results"
    for country, player in host.seats(session, game).items():
        if not host.is_played(player):
            continue
        assert player.address is not None
        queue(session, settings, to=player.address, subject=subject, kind="results", now=now, game_id=game.id,
              attachments=attached, body=render("machiavelli/results", **common, seat=country,
                                                statement=statements.get(country, []),
                                                todo="" if over else todo(board, after, country), master=None))
    master = [(country, lines) for country, lines in sorted(statements.items())]
    queue(session, settings, to=game.gm_address, subject=subject, kind="results", now=now, game_id=game.id,
          attachments=attached, body=render("machiavelli/results", **common, seat=None, statement=[], todo="",
                                            master=master))
    for observer in host.observers(session, game):
        queue(session, settings, to=observer, subject=subject, kind="results", now=now, game_id=game.id,
              attachments=attached, body=render("machiavelli/results", **common, seat=None, statement=[], todo="",
                                                master=None))


def results_mails(session: Session, game: Game) -> int:
    """How many mails closing the current phase queues: one per played country and observer, and
    the game master's."""
    played = sum(1 for player in host.seats(session, game).values() if host.is_played(player))
    return played + len(host.observers(session, game)) + 1


# -- the end, ROLLBACK --------------------------------------------------------------------------------------


def _end(session: Session, game: Game, result: str, winner: str | None) -> None:
    move(game, Event.END)
    game.deadline = None
    game.winner = winner
    game.settings = {**game.settings, "result": result}
    host.record(game, result)


def terminate(session: Session, game: Game, settings: Settings, now: datetime, reason: str) -> None:
    """The game master ends the game: the board as it stands and every player's standing (4.2's
    ranking, treasuries included: nothing is secret once the game is over) go to every player,
    the game master and the observers."""
    position = position_now(session, game)
    if position is None:  # never started: nothing to publish
        _end(session, game, reason, None)
        return
    board = board_of(game)
    ranking = standings(board, position)
    lines = [*views.board_lines(board, position), "", *views.end_lines((), ranking)]
    _end(session, game, reason, None)
    body = render("machiavelli/end", game=game, reason=reason, lines=lines)
    for address in sorted({p.address for p in host.players(session, game) if host.is_played(p) and p.address}
                          | {game.gm_address} | set(host.observers(session, game))):
        queue(session, settings, to=address, subject=f"{game.name} has ended", body=body, kind="end", now=now,
              game_id=game.id)


def rollback(session: Session, game: Game, now: datetime, phase: str | None = None) -> str:
    """Go back to the phase before, or to the processed phase ``phase``: its position, and the
    letters standing in it then, which stand again (and count as sent for the correction rule:
    M35); the later phases and their letters are dropped.  The game is left paused until the
    game master resumes it or processes the phase again."""
    previous, later = host.rollback_target(session, game, phase)
    for row in later:
        host.drop_phase(session, game, row)
    host.reopen(session, game, previous, now)
    game.settings = {**game.settings, "rolled_back": previous.name}
    session.flush()
    return previous.name


def notice(game: Game, row: PhaseRow, seat: str, which: str, until: datetime) -> str:
    """The reminder or late notice to ``seat`` alone."""
    board = board_of(game)
    expected = {e.player: e for e in expected_letters(board, position_of(row, board))}
    default = expected[seat].default if seat in expected else ""
    return render(f"machiavelli/{which}", game=game, seat=seat, label=label(row.name), until=until, default=default)
