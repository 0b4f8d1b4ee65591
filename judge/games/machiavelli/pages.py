"""A Machiavelli game's public page, written beside the others by the host's pages
(`judge.web.pages`): ``web/games/<game>/index.html``.

The page shows what the rules publish (AoP 2, 18.1: the judge's "noteboard in the web
pages"): the host's head (name, scenario, state, phase, deadline, each country played or a
dummy), the board as it stands with its map (`judge.games.machiavelli.pictures`), the public
results of the latest phase carried out (the same lines as the results mails,
`judge.games.machiavelli.views`), and each country's public money year by year: its income,
forced taxes, salaries and anticipated treasury (`views.yearly_lines`).  Never a treasury, an expenditure or who
has sent a letter.  A digest of what the page shows is kept in ``.digest``: a page that would
not change is not written again.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy.orm import Session

from judge import api
from judge.api import (
    Game,
    GameFacts,
    Player,
    render_page,
    summary,
    write_file,
    write_game_folder,
)
from judge.games.machiavelli import lifecycle, pictures, views
from judge.games.machiavelli.core.board import load_board
from judge.games.machiavelli.core.notation import position_from_data, position_to_data
from judge.language import in_reader_language


@dataclass(frozen=True)
class GameRecord:
    """A game as its page needs it: the facts anyone may know, the board as it stands, and the
    public results of the latest phase carried out (its name, and its lines)."""

    facts: GameFacts
    board: tuple[str, ...] = ()
    latest: str | None = None
    results: tuple[str, ...] = ()
    scenario: str | None = None  # the board the map is drawn on, and the position it shows
    position: dict[str, Any] | None = None
    money: tuple[str, ...] = ()  # each country's public money, year by year (`views.yearly_lines`)


def facts_of(session: Session, game: Game, seated: Sequence[Player] | None = None) -> GameFacts:
    """What any page may say of the game: name, scenario, phase, deadline, each country's state."""
    joined = api.players(session, game) if seated is None else seated
    order = {country: i for i, country in enumerate(lifecycle.board_of(game).powers)}
    seats = []
    for player in sorted((p for p in joined if lifecycle.seat_of(p)), key=lambda p: order[lifecycle.seat_of(p) or ""]):
        country = lifecycle.seat_of(player)
        assert country is not None
        seats.append(api.public_seat(game, country, player))
    return api.game_facts(game, lifecycle.describe(game), joined, seats,
                          lifecycle.label(game.phase) if game.phase else None, defaults=(lifecycle.DEFAULT_PRESS,))


def gather(session: Session, game: Game) -> GameRecord:
    """Everything the game's page is made of."""
    facts = facts_of(session, game)
    position = lifecycle.position_now(session, game)
    if position is None:
        return GameRecord(facts)
    layout = lifecycle.board_of(game)
    board = tuple(views.board_lines(layout, position))
    drawn = position_to_data(position)
    processed = api.processed_phases(session, game)
    springs = [(position_from_data(r.position, layout), lifecycle.position_of(r, layout)) for r in processed
               if r.result and r.name.endswith("A")]
    money = tuple(views.yearly_lines(layout, springs))
    last = next((r for r in reversed(processed) if r.result), None)
    if last is None or last.result is None:
        return GameRecord(facts, board, scenario=game.variant, position=drawn, money=money)
    public = tuple(in_reader_language(last.result["public"]))
    return GameRecord(facts, board, last.name, public, game.variant, drawn, money)


def write_game(root: Path, record: GameRecord, force: bool = False) -> Path:
    """Write the game's page under ``root`` unless it would not change; returns it."""
    facts = record.facts
    head = summary(facts)

    def write(folder: Path, written: set[Path]) -> bool:
        svg = None
        if record.scenario is not None and record.position is not None:
            board = load_board(record.scenario)
            svg = pictures.board_svg(board, position_from_data(record.position, board), facts.name)
        if svg is not None:
            write_file(folder / "board.svg", svg.encode("utf-8"), written)
        render_page(folder / "index.html", "machiavelli/game.html.j2", written, game=head, root="../../",
                    board=record.board, latest=record.latest,
                    label=lifecycle.label(record.latest) if record.latest else None, results=record.results,
                    drawn=svg is not None, money=record.money)
        return True

    shown = [head, record.board, record.latest, record.results, record.position, record.money]
    return write_game_folder(root, facts.name, shown, write, force)
