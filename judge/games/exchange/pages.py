"""An Exchange game's public page, written beside the others by the host's pages
(`judge.web.pages`): ``web/games/<game>/index.html``; and its history by mail (HISTORY).

While the game runs the page shows what every investor and observer was sent (E36): the
investors and the investor order, each corporation's CEO and shares, and the public results of
each phase processed (the orders issued and their results, the board); never anyone's money,
holdings, bids, ballots or a corporation's treasury, worths or ledger (E40).  Once it has ended
the page shows everything, as the end mail does (E41): the ranking, every phase's chart (every
sheet, every line's outcome, the share register after each Exchange phase) and every ledger.
Above them the map of the board as it stands (``board.svg``, drawn as Payola's and Machiavelli's
pages draw theirs): each corporation in its power's colour, its CEO (or leaderless, or
liquidated) in the legend, which is public (E36); a map that cannot be drawn is left out, logged,
as the text says everything.  A digest of what the page shows is kept in ``.digest``: a page
that would not change is not written again.
"""

from __future__ import annotations

import logging
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
from judge.engine.notation import position_from_data, position_to_data
from judge.games.exchange import handlers, lifecycle, mails, stored
from judge.language import gettext as _
from judge.language import in_reader_language
from judge.render import render_svg

log = logging.getLogger("judge")


@dataclass(frozen=True)
class GameRecord:
    """A game as its page needs it: the facts anyone may know, what is public now (E36), each
    processed phase's public results, and once it has ended the publication (E41)."""

    facts: GameFacts
    now: tuple[str, ...] = ()
    phases: tuple[tuple[str, tuple[str, ...]], ...] = ()
    published: tuple[str, ...] = ()
    board: dict[str, Any] | None = None
    """The board as it stands (the engine's position data), for the map."""
    captions: tuple[tuple[str, str], ...] = ()
    """Each corporation's line in the map's legend: its CEO, leaderless or liquidated (E36)."""


def facts_of(session: Session, game: Game, seated: Sequence[Player] | None = None) -> GameFacts:
    """What any page may say of the game: name, board, phase, deadline, each investor's seat."""
    joined = api.players(session, game) if seated is None else seated
    seats = []
    for player in sorted((p for p in joined if stored.seat_of(p)), key=lambda p: stored.seat_of(p) or ""):
        name = stored.seat_of(player) or ""
        seats.append(api.public_seat(game, name, player))
    return api.game_facts(game, f"{lifecycle.KIND_TITLE} ({game.variant})", joined, seats,
                          lifecycle.label(game.phase) if game.phase else None)


def gather(session: Session, game: Game) -> GameRecord:
    """Everything the game's page is made of (see the module's header)."""
    facts = facts_of(session, game)
    state = stored.state_now(session, game)
    if state is None:
        return GameRecord(facts)
    phases = tuple((row.name, tuple(public)) for row in api.processed_phases(session, game)
                   if (public := in_reader_language((row.result or {}).get("public"))))
    published = tuple(mails.published_lines(session, game, state)) if facts.finished else ()
    return GameRecord(facts, tuple(handlers.public_lines(state)), phases, published,
                      position_to_data(state.position), tuple(mails.captions(state).items()))


def history_lines(record: GameRecord, first: str | None = None, last: str | None = None) -> list[str]:
    """HISTORY: the public results of the processed phases from ``first`` to ``last`` (each a phase
    the game processed; None: from the first, to the last); after the whole history of a game that
    has ended, the publication (E41)."""
    names = [name for name, _public in record.phases]
    start = names.index(first) if first else 0
    end = names.index(last) + 1 if last else len(names)
    lines = [line for name, public in record.phases[start:end] for line in (f"=== {name} ===", *public, "")]
    if record.published and first is None and last is None:
        lines += ["=== " + _("Everything, published at the end (E41)") + " ===", *record.published]
    return lines


def write_game(root: Path, record: GameRecord, force: bool = False) -> Path:
    """Write the game's page under ``root`` unless it would not change; returns it."""
    facts = record.facts
    head = summary(facts)

    def write(folder: Path, written: set[Path]) -> bool:
        drawn = record.board is not None and _draw(folder / "board.svg", facts.name, record, written)
        render_page(folder / "index.html", "exchange/game.html.j2", written, game=head, root="../../", now=record.now,
                    phases=record.phases, published=record.published, ended=facts.finished, drawn=drawn)
        return True

    shown = [head, record.now, record.phases, record.published, record.board, record.captions]
    return write_game_folder(root, facts.name, shown, write, force)


def _draw(path: Path, game: str, record: GameRecord, written: set[Path]) -> bool:
    """Write the map of the board as it stands, each corporation's CEO in the legend; False if it
    cannot be drawn (logged)."""
    position = position_from_data(record.board)[0]
    try:
        svg = render_svg(position, title=f"{game} {position.phase}", captions=dict(record.captions))
    except Exception:
        log.exception("the map of %s could not be drawn", game)
        return False
    write_file(path, svg.encode("utf-8"), written)
    return True
