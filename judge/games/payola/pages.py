"""A Payola game's public pages, written beside the others by the host's pages
(`judge.web.pages`): what `public` lets a page show, rendered with ``judge/templates/web``.

Theory of operation.  `gather` reads a game from the store into plain records, inside one
read of the database; what a page may show of them is decided by `judge.games.payola.public`;
then `write_game` renders the pages (Jinja2) and writes them, each file atomically.  The layout
under ``web/games/<game>/``::

    index.html                  the game now: summary, board, who has acted, its phases
    <PHASE>.html                one per processed phase, with previous / next links
    end.html                    the end-of-game publication (printable), once finished
    <PHASE>-orders-<key>.png / .svg   a phase's orders as adjudicated
    <PHASE>-board-<key>.png / .svg    the board a phase starts from

A map's file name carries a key made from what it draws, so a map already written is never
drawn again, and one that a ROLLBACK made wrong is replaced, not reused.  Files of a game's
folder that the pages no longer use (a phase rolled back) are removed.  A digest of
everything a game's pages show is kept in ``.digest``: a game whose pages would not change
is not rendered again, which makes a refresh after every change cheap.
"""

from __future__ import annotations

import hashlib
import json
import logging
import struct
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from judge import api
from judge.api import (
    RUNNING,
    Game,
    PhaseRow,
    Player,
    Rules,
    render_page,
    rules_of,
    write_file,
    write_game_folder,
)
from judge.engine.notation import position_from_data, position_to_data, results_from_data
from judge.engine.position import Position
from judge.games.payola import lifecycle, public
from judge.games.payola.maps import png_unavailable
from judge.language import current
from judge.language import gettext as _
from judge.render import render_svg

log = logging.getLogger("judge")


@dataclass(frozen=True)
class PhaseRecord:
    """A processed phase's public part: the position it started from and its public report."""

    name: str
    position: Mapping[str, Any]
    report: Mapping[str, Any]
    adjudication: Mapping[str, Any]


@dataclass(frozen=True)
class GameRecord:
    """A game as its pages need it.  ``determinations`` and ``balances`` are read only once the
    game has finished, or those its game master's REVEAL published: while it runs, its other
    secrets are not even loaded."""

    facts: public.GameFacts
    phases: tuple[PhaseRecord, ...]
    board: Mapping[str, Any] | None  # the position now (at the end, the last one)
    determinations: tuple[tuple[str, Mapping[str, Any] | None], ...] = ()
    balances: Mapping[str, int] | None = None


@dataclass(frozen=True)
class MapFile:
    """A map written beside the pages: its PNG (shown) and SVG (any size), and what it shows."""

    png: str
    svg: str
    width: int
    height: int
    alt: str


def facts_of(session: Session, game: Game, acting: bool = True,
             seated: Sequence[Player] | None = None) -> public.GameFacts:
    """The facts of ``game`` that any page could show; ``acting`` adds who must act now.
    ``seated``: the game's players, if the caller has read them (the index reads everyone's at once)."""
    joined = api.players(session, game) if seated is None else seated
    seat = {p.seat: p for p in joined if p.seat}
    try:
        blind, rules = lifecycle.options_of(game).blind, rules_of(game)
    except ValueError:  # options this judge cannot read: hide the board rather than show it
        blind, rules = True, Rules()
    seats = [api.public_seat(game, power, player) for power in lifecycle.game_map(game).powers
             if (player := seat.get(power)) is not None]
    required: tuple[str, ...] = ()
    waiting: tuple[str, ...] = ()
    row = api.current_phase(session, game) if acting and not blind else None
    if row is not None and game.state in RUNNING and row.status == "open":
        position = lifecycle.position_of(row)
        required = tuple(lifecycle.required_powers(session, game, position, seat))
        waiting = tuple(lifecycle.waiting_for(session, game, position=position, seat=seat))
    return public.GameFacts(
        name=game.name, variant=game.variant, options=tuple(game.options or ()), state=game.state, phase=game.phase,
        deadline=game.deadline, blind=blind, winner=game.winner, result=game.settings.get("result"),
        listed=rules.listed, joined=len(joined), seats=tuple(seats),
        required=required, waiting=waiting, phase_title=public.title_of(game.phase) if game.phase else None,
        revealed=bool(game.settings.get("revealed")), drawn=tuple(game.settings.get("drawn", ())))


def gather(session: Session, game: Game) -> GameRecord:
    """Everything the pages of ``game`` are made from, read in ``session``."""
    facts = facts_of(session, game)
    rows = list(session.scalars(select(PhaseRow).where(PhaseRow.game_id == game.id, PhaseRow.status == "processed")
                                .order_by(PhaseRow.id)))
    phases = tuple(PhaseRecord(r.name, r.position, r.result["report"], r.result["adjudication"])
                   for r in rows if r.result and r.result.get("report"))
    row = api.current_phase(session, game)
    board: Mapping[str, Any] | None = None
    if row is not None:
        board = row.position if row.status == "open" or not row.result else row.result["adjudication"]
    revealed = game.settings.get("revealed")
    if facts.finished:
        determinations = tuple((r.name, (r.result or {}).get("determination")) for r in rows)
        return GameRecord(facts, phases, board, determinations, lifecycle.balances(session, game))
    if isinstance(revealed, dict):  # what the game master's REVEAL published, and nothing since
        names = [r.name for r in rows]
        through = names.index(revealed["through"]) + 1 if revealed.get("through") in names else 0
        determinations = tuple((r.name, (r.result or {}).get("determination")) for r in rows[:through])
        return GameRecord(facts, phases, board, determinations, revealed.get("balances", {}))
    return GameRecord(facts, phases, board)


def _png_size(data: bytes) -> tuple[int, int]:
    width, height = struct.unpack(">II", data[16:24])  # the IHDR chunk
    return int(width), int(height)


def _map(folder: Path, game: str, position: Position, results: Sequence[Mapping[str, Any]] | None,
         written: set[Path]) -> MapFile | None:
    """A phase's orders (``results`` given) or a board, each drawn once: the file name carries a
    key of what is drawn.  None if it cannot be drawn (logged: the text beside it says everything),
    as without the Cairo library (`png_unavailable`)."""
    if png_unavailable():
        return None
    from judge.render.png import render_png

    phase, title = str(position.phase), public.title_of(str(position.phase))
    kind = "board" if results is None else "orders"
    drawn = [game, kind, position_to_data(position), results, current()]  # a page's words are in its language
    stem = f"{phase}-{kind}-{hashlib.sha256(json.dumps(drawn, sort_keys=True).encode()).hexdigest()[:12]}"
    png, svg = folder / f"{stem}.png", folder / f"{stem}.svg"
    try:
        if not (png.exists() and svg.exists()):
            given = None if results is None else results_from_data(position, results)
            write_file(svg, render_svg(position, given, title=f"{game} {phase}").encode("utf-8"), written)
            write_file(png, render_png(position, given, title=f"{game} {phase}"), written)
        written.update((png, svg))
        with png.open("rb") as handle:
            width, height = _png_size(handle.read(24))
    except Exception:
        log.exception("the %s map of %s %s could not be drawn", kind, game, phase)
        return None
    if results is None:
        alt = _("Map of game {game} at the start of {title} ({phase}): every unit and supply center, as listed in "
                "the tables beside it", game=game, title=title, phase=phase)
    else:
        alt = _("Map of the orders of {title} ({phase}) in game {game}, as adjudicated, drawn on the board the "
                "phase started from; the orders are listed in the table above it", game=game, title=title, phase=phase)
    return MapFile(png.name, svg.name, width, height, alt)


def write_game(root: Path, record: GameRecord, force: bool = False) -> Path:
    """Write the pages of one game under ``root`` (its maps only when new); returns its page."""
    facts = record.facts
    head = public.summary(facts)
    position = position_from_data(record.board)[0] if record.board is not None else None
    now = public.current(facts, position)
    shown = [(p, view) for p in record.phases if (view := public.history(facts, p.report, p.adjudication))]
    published = public.publication(facts, record.determinations, record.balances or {})

    def write(folder: Path, written: set[Path]) -> bool:
        started = time.time()
        maps: list[MapFile | None] = []

        def drawn(position: Position, results: Sequence[Mapping[str, Any]] | None = None) -> MapFile | None:
            maps.append(_map(folder, facts.name, position, results, written))
            return maps[-1]

        links = [{"phase": view["phase"], "title": view["title"], "href": f"{view['phase']}.html"}
                 for _row, view in shown]
        common = {"game": head, "root": "../../", "publication": published}
        render_page(folder / "index.html", "payola/game.html.j2", written, current=now, phases=links,
                    current_map=drawn(position) if now and position else None, **common)
        by_phase = {p["phase"]: p for p in (published or {}).get("phases", [])}
        for number, (phase, view) in enumerate(shown):
            render_page(folder / f"{view['phase']}.html", "payola/phase.html.j2", written, phase=view,
                        orders_map=drawn(position_from_data(phase.position)[0], view["results"]),
                        after_map=drawn(position_from_data(phase.adjudication)[0]),
                        previous=links[number - 1] if number else None,
                        next=links[number + 1] if number + 1 < len(links) else None,
                        published_phase=by_phase.get(view["phase"]), **common)
        if published is not None:
            render_page(folder / "end.html", "payola/end.html.j2", written, **common)
        for stale in folder.iterdir():  # what a rollback left, but not what another writer has just written
            if stale.is_file() and stale not in written and not stale.name.startswith(".") and \
                    stale.stat().st_mtime < started:
                stale.unlink()
        return all(maps) or png_unavailable() is not None  # without Cairo, no map is missing by mistake

    # with maps or without: the Cairo library installed since writes them again
    views = [head, now, [view for _row, view in shown], published, png_unavailable() is None]
    return write_game_folder(root, facts.name, views, write, force)
