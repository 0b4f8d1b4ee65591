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
the defaults, 17.2, M50; a country whose player resigned and which nobody has taken over is
eliminated when the campaign ends, 18.3, M62: `leaving`), the next phase opens (after a Fall,
with A.1 and A.2 done: its incomes are published with the Fall's results), and every mail is
queued in the same transaction: to each player the public results and its own statement
(`judge.games.machiavelli.views`), to the game master the public results and every statement,
to observers the public results.  When somebody wins (4.2) the game ends with the ranking.
ROLLBACK goes back to a processed phase (the letters and the votes standing then stand again:
`votes_back`), and ROLLFORWARD is refused once a vote changed since (`changed_since_rollback`);
TERMINATE publishes the board and every player's standing and treasury.
"""

from __future__ import annotations

import logging
import random
import re
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy.orm import Session

from judge import api
from judge.api import (
    Closing,
    Game,
    GameError,
    GameState,
    PhaseChange,
    PhaseRow,
    Player,
    Publication,
    Settings,
    Submission,
    log_on_commit,
    queue,
    render,
    split_options,
    writing_to,
)
from judge.games.machiavelli import pictures, views
from judge.games.machiavelli.core.board import Board, board_names, load_board
from judge.games.machiavelli.core.campaign import Expected, campaign, expected_letters
from judge.games.machiavelli.core.existence import GameEnd, Proposal, standings
from judge.games.machiavelli.core.expenditures import LetterOrder
from judge.games.machiavelli.core.notation import position_from_data, position_to_data
from judge.games.machiavelli.core.position import Campaign, Phase, Position, Season
from judge.games.machiavelli.core.spring import spring_letter
from judge.games.machiavelli.core.syntax import parse_letter
from judge.language import Stored, current, in_every_language, in_reader_language, later, ngettext, worded
from judge.language import gettext as _

log = logging.getLogger("judge")

KIND_TITLE = "Machiavelli"
LETTER = "letter"
"""The kind of a player's `Submission` row: its letter standing in the phase."""
DEFAULT_PRESS = "PRESS=GREY/WHITE"
"""Press is anonymous unless its writer signs it (18.1: the judge transmits unsigned letters and
conceals their senders), so a game created without a ``PRESS=`` option gets grey press by
default, white (signed) on request."""
SEASONS = {Campaign.SPRING: "SP", Campaign.SUMMER: "SU", Campaign.FALL: "FA"}
Why = Callable[[], str]
"""Why a player got its country, said in the language being written in (`assign`)."""
LENGTHS = {Phase.A: "spring", Phase.C: "campaign"}
"""The setting each letter's phase lasts (``SET SPRING hours``, ``SET CAMPAIGN hours``)."""


# -- the game's settings --------------------------------------------------------------------------------


def read_options(words: Sequence[str]) -> tuple[str, list[str]]:
    """CREATE's words after ``machiavelli``: the scenario (a board's name, ``classic`` by default),
    then the host's options; grey press by default (`DEFAULT_PRESS`).  ValueError with the reason."""
    own, rest = split_options(list(words))
    scenario = board_names()[0]
    if rest and rest[0].lower() in board_names():
        scenario = rest.pop(0).lower()
    if rest:
        raise ValueError(_("'{word}' is not a scenario or option of {kind}: the scenarios are {scenarios}; the "
                           "options NO_OBSERVERS, ANONYMOUS, OPEN_TAKEOVER, ABSENCE_DAYS=N, PRESS=..., NO_PARTIAL, "
                           "NO_OBSERVER_PRESS", word=rest[0], kind=KIND_TITLE, scenarios=", ".join(board_names())))
    if not any(word.startswith("PRESS=") for word in own):
        own.append(DEFAULT_PRESS)
    return scenario, own


def board_of(game: Game) -> Board:
    """The board of the game's scenario."""
    return load_board(game.variant)


def describe(game: Game) -> str:
    """The game in words: "Machiavelli (classic board, 1454)"."""
    return title_of(board_of(game))


def title_of(board: Board) -> str:
    """A scenario's title in the reader's language (a board of the core's own, else as its file gives it)."""
    titles = {"classic": lambda: _("Machiavelli (classic board, 1454)"),
              "aop": lambda: _("Machiavelli: Absence of Plague (1459)")}
    found = titles.get(board.name)
    return found() if found is not None else board.title


def no_map() -> str:
    """The line a mail without a map carries instead, in the reader's language."""
    return _("(no map is attached: this board has no drawing yet, or this judge draws none; the board is listed "
             "above)")


def seat_of(player: Player) -> str | None:
    """The country a player plays (None: not assigned yet).  The one place that reads the
    host's seat column."""
    return player.seat


def phase_name(position: Position) -> str:
    """The name of the phase ``position`` opens: ``SP1454A``, ``SU1454C``..."""
    return f"{SEASONS[position.season.campaign]}{position.season.year}{position.phase.value}"


def campaign_phase(position: Position) -> str:
    """The name of the campaign letter's phase that ends the campaign ``position`` is in
    (``SP1455C`` from ``SP1455A`` or ``SP1455C``)."""
    return f"{SEASONS[position.season.campaign]}{position.season.year}{Phase.C.value}"


def season_of(name: str) -> tuple[Season, str]:
    """The season and the letter (``A``, ``C``) of a phase's name."""
    campaign_of = {code: c for c, code in SEASONS.items()}
    return Season(int(name[2:-1]), campaign_of[name[:2]]), name[-1]


def phase_order(name: str) -> tuple[int, ...] | None:
    """Where the phase named ``name`` comes in a game's course: by season, the spring letter before
    the campaign letter (AoP 2); None if no game has it (``SU1454A``: a spring letter is the
    spring's alone)."""
    if not re.fullmatch(r"(?:SP\d{4}[AC]|(?:SU|FA)\d{4}C)", name):
        return None
    season, letter = season_of(name)
    return *season.sort_key(), "AC".index(letter)


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
    row = api.current_phase(session, game)
    return None if row is None else position_of(row, board_of(game))


def letters_of(session: Session, game: Game, phase: str) -> dict[str, Submission]:
    """Each country's letter standing in ``phase``."""
    return {seat: row for (seat, kind), row in api.latest_submissions(session, game, phase).items() if kind == LETTER}


def orders_of(board: Board, letter: Submission) -> tuple[LetterOrder, ...]:
    """The orders of a letter standing, as they will be carried out."""
    return parse_letter("\n".join(letter.parsed["orders"]), board)[0]


def expected_now(session: Session, game: Game) -> dict[str, Expected]:
    """The letters the open phase awaits, by country (none once the game is over)."""
    row = api.current_phase(session, game)
    if row is None or row.status != "open":
        return {}
    board = board_of(game)
    return expected_in(board, position_of(row, board))


def expected_in(board: Board, position: Position) -> dict[str, Expected]:
    """The letters the phase ``position`` opens awaits, by country (none from an eliminated one, 4.3)."""
    return {e.player: e for e in expected_letters(board, position)}


def waiting_seats(session: Session, game: Game) -> list[str]:
    """The played countries whose letter the open phase awaits and has not: whom the clock reminds."""
    if game.phase is None:
        return []
    seat = api.seats(session, game)
    sent = api.latest_texts(session, game, game.phase)
    return [country for country in expected_now(session, game)
            if api.is_played(seat.get(country)) and (country, LETTER) not in sent]


def reopen_closed(game: Game, undone: Sequence[PhaseRow]) -> None:
    """A ROLLBACK undoes the processing of ``undone``: a country one of them eliminated, which M62
    then closed to a substitute, is alive again and open for one as it was."""
    for row in undone:
        for seat in (row.result or {}).get("closed", []):
            api.open_seat(game, seat)


def leaving(session: Session, game: Game, position: Position) -> frozenset[str]:
    """The living countries whose player left the game (RESIGN) and which no substitute leader
    has taken over since: eliminated when the campaign ends (18.3, 4.3, M62)."""
    seat = api.seats(session, game)
    return frozenset(country for country in position.living(board_of(game).powers)
                     if (player := seat.get(country)) is not None and player.resigned)


def complete(session: Session, game: Game) -> bool:
    """Whether every letter the open phase awaits from a played country is in (and one at least
    is awaited): the phase then closes before its deadline (18.2 would wait for the deadline;
    the brief of the judge closes it as soon as it can, as Payola's phases do).  A campaign at
    whose end a country without a leader is eliminated (`leaving`: M62, M65) does not close
    early: its notice told everyone that a substitute may take it over until that campaign's
    deadline, and a newcomer has until then, as in a game nobody plays (ruling H1)."""
    if game.phase is None:
        return False
    seat = api.seats(session, game)
    played = [c for c in expected_now(session, game) if api.is_played(seat.get(c))]
    sent = api.latest_texts(session, game, game.phase)
    if not played or any((country, LETTER) not in sent for country in played):
        return False
    position = position_now(session, game)
    return position is None or position.phase is not Phase.C or not leaving(session, game, position)


# -- votes on the game's end (M64) --------------------------------------------------------------------------


VOTES = "votes"
"""The key of the game's settings, and of each phase's result, where the countries' votes are kept."""

ROLLFORWARD = "rollforward"
"""The key of the game's settings where a ROLLBACK keeps the votes it brought back, for ROLLFORWARD
to find them unchanged (`changed_since_rollback`)."""


def vote_of(game: Game, country: str) -> tuple[Proposal | None, datetime | None]:
    """The country's secret vote on the game's end (M64: a draw, a concession, or None) and when
    the mail that cast it was accepted, kept in the game's settings (as Exchange Payola keeps its
    investors' votes)."""
    kept = game.settings.get(VOTES, {}).get(country) or {}
    at = datetime.fromisoformat(kept["at"]) if kept.get("at") else None
    vote = kept.get("vote")
    if not vote:
        return None, at
    return (Proposal() if vote == "DRAW" else Proposal(str(vote).partition(":")[2])), at


def set_vote(game: Game, country: str, vote: Proposal | None, at: datetime | None) -> None:
    """Keep the country's vote (None: none), cast by a mail accepted ``at`` (None: by no mail)."""
    kept = None if vote is None else "DRAW" if vote.to is None else f"CONCEDE:{vote.to}"
    votes = {**game.settings.get(VOTES, {}), country: {"vote": kept, "at": at.isoformat() if at else None}}
    api.keep_setting(game, VOTES, votes)


def votes_back(session: Session, game: Game, to: PhaseRow) -> None:
    """A ROLLBACK to the phase of ``to``: the votes as they stood when it was carried out (kept in
    its result), as its letters stand again; but a country's vote is its player's (M64), so one
    whose country has changed hands since is not brought back.  A phase carried out before the
    results kept the votes (an older judge's) leaves them as they are.  The votes then standing are
    kept for ROLLFORWARD (`changed_since_rollback`)."""
    kept = (to.result or {}).get(VOTES)
    if isinstance(kept, dict):
        seat = api.seats(session, game)
        votes = {}
        for country, vote in kept.items():
            player, at = seat.get(country), vote.get("at")
            if player is None or at is None or datetime.fromisoformat(at) >= player.joined_at:
                votes[country] = vote
        api.keep_setting(game, VOTES, votes)
    api.keep_setting(game, ROLLFORWARD, {VOTES: _standing(game)})


def _standing(game: Game) -> dict[str, str]:
    """Each country's vote standing, as kept (``DRAW``, ``CONCEDE:Milan``), for ROLLFORWARD to
    compare: a country with none is left out."""
    return {country: str(kept["vote"]) for country, kept in game.settings.get(VOTES, {}).items()
            if (kept or {}).get("vote")}


def changed_since_rollback(game: Game) -> str | None:
    """Whether a vote on the game's end changed since the ROLLBACK (cast, changed or withdrawn, or
    a country's new player's none), which ROLLFORWARD would discard; None if none did (the host
    checks the letters sent: `judge.service.hosting.course.rolling_forward`).  How many, not whose: votes
    are secret (M64), from the game master too."""
    marks = game.settings.get(ROLLFORWARD)
    if not isinstance(marks, dict):
        return None
    then, now = marks.get(VOTES, {}), _standing(game)
    changed = sum(then.get(country) != now.get(country) for country in {*then, *now})
    if changed == 1:
        return _("a vote on the game's end changed")
    return _("{count} votes on the game's end changed", count=changed) if changed else None


def standing_votes(session: Session, game: Game) -> dict[str, Proposal | None]:
    """The vote of each country that votes (M64: played; the core leaves out the eliminated)."""
    return {country: vote_of(game, country)[0] for country, player in api.seats(session, game).items()
            if api.is_played(player)}


# -- seats and the start ------------------------------------------------------------------------------------


def assign(countries: Sequence[str], wishes: Sequence[Sequence[str]], seed: int) -> list[tuple[str, Why]]:
    """The country of each player (in the order of ``wishes``, each player's countries wanted,
    best first) and why they got it (said in the language being written in when it is called): the
    players who wished are taken in an order drawn by lot
    (``seed``), each getting the first of its wishes nobody before took (random serial
    dictatorship: nobody gains by hiding a wish); the others draw among the countries left."""
    rng = random.Random(seed)
    order = [i for i, wish in enumerate(wishes) if wish]
    rng.shuffle(order)
    free = list(countries)
    got: dict[int, tuple[str, Why]] = {}
    for place, index in enumerate(order, start=1):
        country = next((c for c in wishes[index] if c in free), None)
        if country is not None:
            free.remove(country)
            rank = wishes[index].index(country) + 1
            got[index] = (country, _chosen(rank, place, len(order)))
    rng.shuffle(free)
    for index, wish in enumerate(wishes):
        if index not in got:
            got[index] = (free.pop(), (lambda: _("drawn by lot among the countries left, every country you wished "
                                                 "for being taken")) if wish else
                          (lambda: _("drawn by lot among the countries left")))
    return [got[index] for index in range(len(wishes))]


def _chosen(rank: int, place: int, count: int) -> Why:
    return lambda: _("your choice {rank}; the draw placed you {place} of {count}", rank=rank, place=place,
                     count=count)


def start(session: Session, game: Game, settings: Settings, now: datetime) -> None:
    """Assign the countries (the players' wishes by a seeded draw, then by lot; the countries
    nobody plays are dummies, which play by the defaults), open the scenario's first phase (its
    spring letter: the first spring starts at A.3, AoP 3) and mail each player its country, the
    board and what to send."""
    if game.state != GameState.FORMING:
        raise GameError(_("the game has already started"), "ALREADY_STARTED")
    board = board_of(game)
    seated = api.players(session, game)
    if not seated:
        raise GameError(_("nobody has joined the game yet"), "NOBODY_JOINED")
    if len(seated) > len(board.powers):
        raise GameError(_("more players than the {count} countries of the scenario", count=len(board.powers)),
                        "TOO_MANY_PLAYERS")
    wishes = [player.preferences or ([player.requested] if player.requested else []) for player in seated]
    why: dict[str, Why] = {}
    for player, (country, reason) in zip(seated, assign(board.powers, wishes, game.seed), strict=True):
        api.assign_seat(player, country)
        why[country] = reason
    for country in board.powers:
        if country not in why:
            dummy = Player(game_id=game.id, dummy=True, joined_at=now)
            api.assign_seat(dummy, country)
            session.add(dummy)
    session.flush()
    position = board.start
    _open_row(session, game, position, now)
    seat = api.seats(session, game)
    attached = pictures.position_map(settings, game.name, board, position, phase_name(position))

    def common() -> dict[str, Any]:  # in the language being written in
        return {"game": game, "what": describe(game), "roster": roster(session, game),
                "board": views.board_lines(board, position), "areas": views.area_lines(board),
                "deadline": game.deadline, "label": label(game.phase or ""), "map": "" if attached else no_map()}

    for country, player in seat.items():
        if api.is_played(player):
            assert player.address is not None
            with writing_to(session, settings, player.address, game):
                queue(session, settings, to=player.address, subject=_("{game} starts", game=game.name), kind="start",
                      now=now, game_id=game.id, attachments=attached, opens=country,
                      body=render("machiavelli/start", **common(), seat=country,
                                  why=why[country]() if country in why else "",
                                  treasury=position.treasuries.get(country, 0), todo=todo(board, position, country)))
    for reader in [game.gm_address, *api.observers(session, game)]:
        with writing_to(session, settings, reader, game):
            queue(session, settings, to=reader, subject=_("{game} starts", game=game.name), kind="start", now=now,
                  game_id=game.id, attachments=attached,
                  body=render("machiavelli/start", **common(), seat=None, why="", treasury=0, todo=""))


def roster(session: Session, game: Game) -> list[tuple[str, str]]:
    """Each country and whether it is played, in the board's order (never the order of joining)."""
    seat = api.seats(session, game)
    return [(country, _("played") if api.is_played(seat.get(country)) else _("a dummy (plays by the defaults)"))
            for country in board_of(game).powers if country in seat]


def todo(board: Board, position: Position, country: str) -> str:
    """What ``country`` must send in the phase ``position`` opens, in words."""
    expected = expected_in(board, position)
    if country not in expected:
        return (_("You have been eliminated: nothing is expected of you.") if country in position.eliminated
                else "")
    first = board.first_builds if position.season == board.start.season else 0
    return render("machiavelli/todo", letter=position.phase.value, season=views.season_text(position.season),
                  first=first, default=views.default_text(position.phase)).strip()


def _open_row(session: Session, game: Game, position: Position, now: datetime) -> PhaseRow:
    """The row of the phase ``position`` opens, and the game's deadline for it."""
    name = phase_name(position)
    row = api.open_phase(session, game, name, position_to_data(position), now)
    session.flush()
    return row


# -- closing a phase --------------------------------------------------------------------------------------


def process_phase(session: Session, game: Game, settings: Settings, now: datetime, closing: Closing) -> PhaseChange:
    """Carry out the open phase with the letters standing, open the next (or say the game is won)
    and queue every mail, each saying the ``closing``'s notes first."""
    row = api.current_phase(session, game)
    assert row is not None and row.status == "open"
    api.drop_setting(game, ROLLFORWARD)
    board = board_of(game)
    position = position_of(row, board)
    standing = letters_of(session, game, row.name)
    letters = {country: orders_of(board, letter) for country, letter in standing.items()}
    expected = expected_in(board, position)
    defaulted = {country: e for country, e in expected.items() if country not in standing}
    if position.phase is Phase.A:
        spring = spring_letter(board, position, letters)
        after, record = spring.position, None
    else:
        record = campaign(board, position, letters, leaving(session, game, position), standing_votes(session, game))
        after = record.position
    written: dict[str, tuple[list[str], dict[str, list[str]]]] = {}

    def texts() -> tuple[list[str], dict[str, list[str]]]:
        """The public results and every statement, in the language being written in (made once a language)."""
        if current() not in written:
            if record is None:
                written[current()] = (views.spring_public(board, spring), {
                    country: views.spring_statement(board, spring, country, position.treasuries.get(country, 0),
                                                    defaulted.get(country)) for country in expected})
            else:
                written[current()] = (views.campaign_public(board, record), {
                    country: views.campaign_statement(board, record, country, position.treasuries.get(country, 0),
                                                      defaulted.get(country)) for country in expected})
        return written[current()]

    kept_texts = in_every_language(texts)  # kept in every language: HISTORY, the page, the end's publication
    public = {language: made[0] for language, made in kept_texts.items()}
    statements = {country: {language: made[1][country] for language, made in kept_texts.items()}
                  for country in expected}
    kept = {"position": position_to_data(after),
            "letters": {country: letter.parsed["orders"] for country, letter in sorted(standing.items())},
            "defaulted": sorted(defaulted), "public": public, "statements": statements,
            VOTES: game.settings.get(VOTES, {})}  # as they stood: a ROLLBACK brings them back (`votes_back`)
    if closed := [seat for seat in game.settings.get("open", []) if seat in after.eliminated]:
        for seat in closed:  # M62: a country eliminated is open for a substitute no longer...
            api.close_seat(game, seat)
        kept["closed"] = closed  # ...until a ROLLBACK undoes it (`reopen_closed`)
    if after.phase is Phase.OVER:
        assert record is not None and record.end is not None
        kept["end"] = {"winners": list(record.end.winners),  # for the end's publication and places
                       "agreed": None if record.end.agreed is None else {"to": record.end.agreed.to}}
    api.processed(row, kept, now)
    title = row.name if after.phase is Phase.OVER else phase_name(after)
    attached = pictures.position_map(settings, game.name, board, after, title, record)
    if after.phase is Phase.OVER:
        assert record is not None and record.end is not None
        ended = _ended(row.name, record.end, position.season)
        log_on_commit(session, log, "game %s %s processed (%s); %s", game.name, row.name, closing.cause,
                      worded(ended.result))
        _mail_results(session, game, settings, now, row.name, board, after, texts, attached, closing)
        return ended
    _open_row(session, game, after, now)
    log_on_commit(session, log, "game %s %s processed (%s); next %s", game.name, row.name, closing.cause, game.phase)
    _mail_results(session, game, settings, now, row.name, board, after, texts, attached, closing)
    return PhaseChange(row.name, game.phase)


def _ended(phase: str, end: GameEnd, season: Season) -> PhaseChange:
    """The end of the game in ``phase`` as the host keeps it: won by its winners, or ended by a vote
    (M64) as a draw among every surviving country or conceded to one."""
    winners, agreed = end.winners, end.agreed
    when = views.season_kept(season)
    if agreed is None:
        named: Stored = winners[0] if len(winners) == 1 else later(
            "{first} and {last}", first=", ".join(winners[:-1]), last=winners[-1])
        result = later("won by {winners} in {season}", winners=named, season=when)
    elif agreed.to is None:
        result = later("a draw among all surviving countries in {season}: {countries} (M64)", season=when,
                       countries=", ".join(winners))
    else:
        result = later("conceded to {country} by every surviving player in {season} (M64)", country=agreed.to,
                       season=when)
    drawn = tuple(winners) if agreed is not None and agreed.to is None and len(winners) > 1 else ()  # M64
    return PhaseChange(phase, None, winners[0] if len(winners) == 1 else None, result, drawn)


def _mail_results(session: Session, game: Game, settings: Settings, now: datetime, phase: str, board: Board,
                  after: Position, texts: Callable[[], tuple[list[str], dict[str, list[str]]]],
                  attached: Sequence[Any], closing: Closing) -> None:
    """Each played country's mail (the public results and its own statement), the game master's
    (every statement too), and the observers' (the public results), each composed in its reader's
    language (``texts``: the results and statements in the language being written in)."""
    over = after.phase is Phase.OVER

    def common() -> dict[str, Any]:  # in the language being written in
        public, _statements = texts()
        return {"game": game, "phase": phase, "label": label(phase), "public": public,
                "board": views.board_lines(board, after), "preface": closing.preface, "over": over,
                "next": None if over else label(game.phase or ""), "deadline": None if over else game.deadline,
                "map": "" if attached else no_map()}

    def subject() -> str:  # in the language being written in
        return closing.subject(game.name, phase)

    for country, player in api.seats(session, game).items():
        if not api.is_played(player):
            continue
        assert player.address is not None
        with writing_to(session, settings, player.address, game):
            body = render("machiavelli/results", **common(), seat=country, statement=texts()[1].get(country, []),
                          todo="" if over else todo(board, after, country), master=None)
            queue(session, settings, to=player.address, subject=subject(), kind="results", now=now, game_id=game.id,
                  attachments=attached, body=body, opens=None if over else country)  # its form for the next letter
    with writing_to(session, settings, game.gm_address, game):
        master = [(country, lines) for country, lines in sorted(texts()[1].items())]
        queue(session, settings, to=game.gm_address, subject=subject(), kind="results", now=now, game_id=game.id,
              attachments=attached, body=render("machiavelli/results", **common(), seat=None, statement=[], todo="",
                                                master=master))
    for observer in api.observers(session, game):
        with writing_to(session, settings, observer, game):
            queue(session, settings, to=observer, subject=subject(), kind="results", now=now, game_id=game.id,
                  attachments=attached, body=render("machiavelli/results", **common(), seat=None, statement=[],
                                                    todo="", master=None))


def results_mails(session: Session, game: Game) -> int:
    """How many mails closing the current phase queues: one per played country and observer, and
    the game master's."""
    played = sum(1 for player in api.seats(session, game).values() if api.is_played(player))
    return played + len(api.observers(session, game)) + 1


# -- the end, ROLLBACK --------------------------------------------------------------------------------------


def publication(session: Session, game: Game) -> Publication:
    """M63: everything the rules kept secret while the game ran — every letter as carried out
    (expenditures, transfers, bribes and counter-bribes with their payers, assassinations and
    bodyguards, permissions, trades), every country's statement of every phase — then the board
    as it stands and every player's standing by 4.2.  Passwords and addresses are never in it."""
    position = position_now(session, game)
    assert position is not None
    board = board_of(game)
    lines: list[str] = []
    for row in api.processed_phases(session, game):
        result = row.result or {}
        letters: Mapping[str, list[str]] = result.get("letters", {})
        statements: Mapping[str, list[str]] = {country: in_reader_language(kept) or []
                                               for country, kept in (result.get("statements") or {}).items()}
        if not letters and not statements:
            continue
        lines += ["=== " + _("{phase}, {label}", phase=row.name, label=label(row.name)) + " ===", ""]
        for country in board.powers:
            if country not in letters and country not in statements:
                continue
            written = letters.get(country)
            lines.append((_("{country}: no letter (the defaults, 17.2, M50)", country=country)
                          if country in result.get("defaulted", []) else _("{country}: no letter", country=country))
                         if written is None else _("{country}'s letter:", country=country) if written
                         else _("{country}'s letter: none (no order)", country=country))
            lines += [f"  {order}" for order in written or []]
            if statement := statements.get(country):
                lines += [_("{country}'s statement:", country=country), *(f"  {line}" for line in statement)]
            lines.append("")
    lines += ["=== " + _("The end") + " ===", "", *views.board_lines(board, position), ""]
    if api.ended_deserted(game):  # H1: no winner, no ranking
        return Publication(_("Nothing is secret any more (M63): every letter as it was carried out, every country's "
                             "statement of every phase, and the board as it stands."),
                           [*lines, _("Nobody won, and nobody is ranked: the game was deserted (ruling H1).")])
    winners, agreed = ended_by(session, game)
    lines += views.end_lines(winners, standings(board, position, winners if agreed else ()), agreed)
    return Publication(_("Nothing is secret any more (M63): every letter as it was carried out, every country's "
                         "statement of every phase, the board as it stands, and every player's standing by 4.2 "
                         "(cities counted, provinces controlled, tax income, treasury)."), lines)


def ranking(session: Session, game: Game) -> list[api.Standing]:
    """4.2 (M7): every country's place at the end, by cities counted, provinces controlled, tax
    income and treasury, as the end publication ranks them; its cities counted (M6) are its
    centres, its treasury its money."""
    position = position_now(session, game)
    if position is None or game.state != "finished" or api.ended_deserted(game):  # H1: no ranking
        return []
    winners, agreed = ended_by(session, game)
    return [api.Standing(s.player, s.rank, _("{cities} and {provinces}",
                                             cities=ngettext("{count} city", "{count} cities", s.cities),
                                             provinces=ngettext("{count} province", "{count} provinces", s.provinces)),
                         s.cities, ngettext("{count} ducat", "{count} ducats", s.treasury))
            for s in standings(board_of(game), position, winners if agreed else ())]


def ended_by(session: Session, game: Game) -> tuple[tuple[str, ...], Proposal | None]:
    """How the last campaign ended the game: its winners, and the end the survivors agreed on (M64)
    if they did; none for a game the game master ended (TERMINATE)."""
    row = api.current_phase(session, game)  # the last campaign's, once the game is over
    end = (row.result or {}).get("end") if row is not None else None
    if not end:  # or a game ended before the judge kept how: its winner, if it had one
        return ((game.winner,) if game.winner else ()), None
    agreed = end["agreed"]
    return tuple(end["winners"]), None if agreed is None else Proposal(agreed["to"])


def notice(session: Session, game: Game, row: PhaseRow, seat: str, which: str, until: datetime,
           extended: datetime | None = None) -> str:
    """The reminder, the late alert (naming the automatic extension the phase would get,
    ``extended``, ruling H3) or the confirmation of a letter received (``received``: M59, sent at
    the deadline with the late alerts; "" for a country that owes no letter or has none in) to
    ``seat`` alone."""
    board = board_of(game)
    expected = expected_in(board, position_of(row, board))
    default = views.default_text(expected[seat].phase) if seat in expected else ""
    if which == "received":
        letter = letters_of(session, game, row.name).get(seat)
        if seat not in expected or letter is None:
            return ""
        return render("machiavelli/received", game=game, seat=seat, label=label(row.name), until=until,
                      extended=extended, received=letter.accepted_at or letter.created_at)
    return render(f"machiavelli/{which}", game=game, seat=seat, label=label(row.name), until=until, default=default,
                  extended=extended)
