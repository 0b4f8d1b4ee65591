"""The public pages as static files in ``<data-dir>/web``, so that any web server can serve them.

Theory of operation.  ``gather`` reads a game from the store into plain records, inside one
read of the database; what a page may show of them is decided by :mod:`judge.web.public`;
then the pages are rendered (Jinja2, ``judge/templates/web``) and written, each file
atomically (a reader never sees half a page).  The layout::

    web/index.html                  every game, grouped: in progress, forming, finished
    web/style.css, web/icon.svg
    web/games/<game>/index.html     the game now: summary, board, who has acted, its phases
    web/games/<game>/<PHASE>.html   one per processed phase, with previous / next links
    web/games/<game>/end.html       the end-of-game publication (printable), once finished
    web/games/<game>/<PHASE>-orders-<key>.png / .svg   a phase's orders as adjudicated
    web/games/<game>/<PHASE>-board-<key>.png / .svg    the board a phase starts from

A map's file name carries a key made from what it draws, so a map already written is never
drawn again, and one that a ROLLBACK made wrong is replaced, not reused.  Files of a game's
folder that the pages no longer use (a phase rolled back) are removed.  A digest of
everything a game's pages show is kept in ``.digest``: a game whose pages would not change
is not rendered again, which makes ``refresh`` after every change cheap.

The index lists every game, so its cost must not come with every mail: ``refresh`` writes it
again only when the line of a game it looked at changed (each game's line is kept in its
folder's ``.index``), and it is built with two queries whatever the number of games (the games,
then every seat), not two per game.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import re
import struct
import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from importlib.resources import files
from pathlib import Path
from typing import Any

from jinja2 import Environment, PackageLoader, StrictUndefined
from sqlalchemy import select
from sqlalchemy.orm import Session

from judge.engine.notation import position_from_data, position_to_data, results_from_data
from judge.engine.position import Position
from judge.render import render_svg
from judge.service import lifecycle
from judge.service.config import Settings
from judge.service.maps import png_unavailable
from judge.store.database import Database
from judge.store.models import Game, PhaseRow, Player
from judge.web import public

log = logging.getLogger("judge")
SAFE_NAME = re.compile(r"[a-z0-9][a-z0-9_-]*")  # game names as the judge accepts them (lower case)


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
    game has finished: while it runs, its secrets are not even loaded."""

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


def web_root(settings: Settings) -> Path:
    """Where the pages are written: ``<data-dir>/web``."""
    return settings.data_dir / "web"


# -- reading the store ------------------------------------------------------------------------------


@contextmanager
def _reading(source: Session | Database) -> Iterator[Session]:
    if isinstance(source, Database):
        with source.transaction() as session:
            yield session
    else:
        yield source


def _game(session: Session, game: Game | str) -> Game:
    if isinstance(game, Game):
        return game
    found = session.scalar(select(Game).where(Game.name == game.lower()))
    if found is None:
        raise LookupError(f"there is no game '{game}'")
    return found


def facts_of(session: Session, game: Game, acting: bool = True,
             seated: Sequence[Player] | None = None) -> public.GameFacts:
    """The facts of ``game`` that any page could show; ``acting`` adds who must act now.
    ``seated``: the game's players, if the caller has read them (the index reads everyone's at once)."""
    joined = lifecycle.players(session, game) if seated is None else seated
    seat = {p.power: p for p in joined if p.power}
    seats = []
    for power in lifecycle.game_map(game).powers:
        if (player := seat.get(power)) is not None:
            status = "played" if lifecycle.is_played(player) else "vacant" if player.address else "dummy"
            seats.append(public.Seat(power, status, status != "played" and lifecycle.is_open(game, power)))
    try:
        blind, rules = lifecycle.options_of(game).blind, lifecycle.rules_of(game)
    except ValueError:  # options this judge cannot read: hide the board rather than show it
        blind, rules = True, lifecycle.Rules()
    required: tuple[str, ...] = ()
    waiting: tuple[str, ...] = ()
    row = lifecycle.current_phase(session, game) if acting and not blind else None
    if row is not None and game.state in ("active", "paused") and row.status == "open":
        position = lifecycle.position_of(row)
        required = tuple(lifecycle.required_powers(session, game, position, seat))
        waiting = tuple(lifecycle.waiting_for(session, game, position=position, seat=seat))
    return public.GameFacts(
        name=game.name, variant=game.variant, options=tuple(game.options or ()), state=game.state, phase=game.phase,
        deadline=game.deadline, blind=blind, winner=game.winner, result=game.settings.get("result"),
        listed=rules.listed, joined=len(joined), seats=tuple(seats),
        required=required, waiting=waiting)


def gather(session: Session, game: Game) -> GameRecord:
    """Everything the pages of ``game`` are made from, read in ``session``."""
    facts = facts_of(session, game)
    rows = list(session.scalars(select(PhaseRow).where(PhaseRow.game_id == game.id, PhaseRow.status == "processed")
                                .order_by(PhaseRow.id)))
    phases = tuple(PhaseRecord(r.name, r.position, r.result["report"], r.result["adjudication"])
                   for r in rows if r.result and r.result.get("report"))
    row = lifecycle.current_phase(session, game)
    board: Mapping[str, Any] | None = None
    if row is not None:
        board = row.position if row.status == "open" or not row.result else row.result["adjudication"]
    if not facts.finished:
        return GameRecord(facts, phases, board)
    determinations = tuple((r.name, (r.result or {}).get("determination")) for r in rows)
    return GameRecord(facts, phases, board, determinations, lifecycle.balances(session, game))


# -- writing -----------------------------------------------------------------------------------------


@cache
def environment() -> Environment:
    env = Environment(loader=PackageLoader("judge", "templates"), autoescape=True, undefined=StrictUndefined,
                      trim_blocks=True, lstrip_blocks=True)
    env.filters["when"] = lambda moment: moment.strftime("%Y-%m-%d %H:%M UTC")
    env.filters["iso"] = lambda moment: moment.strftime("%Y-%m-%dT%H:%MZ")
    env.filters["power"] = lambda name: str(name).title()
    return env


@cache
def _assets() -> dict[str, bytes]:
    """The files of ``judge/templates/web``: the templates, the stylesheet and the icon."""
    folder = files("judge") / "templates" / "web"
    return {entry.name: entry.read_bytes() for entry in folder.iterdir() if entry.is_file()}


def _write(path: Path, content: bytes, written: set[Path]) -> None:
    """Write ``content`` atomically, unless the file already holds it."""
    written.add(path)
    if path.exists() and path.read_bytes() == content:
        return
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    temporary.write_bytes(content)
    temporary.chmod(0o644)  # public by definition, whatever the judge's umask (the unit's is 0077)
    os.replace(temporary, path)


def _folder(path: Path) -> None:
    """Make the folder ``path``, readable by any web server."""
    path.mkdir(parents=True, exist_ok=True)
    path.chmod(0o755)


def _page(path: Path, template: str, written: set[Path], **context: Any) -> None:
    _write(path, environment().get_template(f"web/{template}").render(**context).encode("utf-8"), written)


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
    drawn = [game, kind, position_to_data(position), results]
    stem = f"{phase}-{kind}-{hashlib.sha256(json.dumps(drawn, sort_keys=True).encode()).hexdigest()[:12]}"
    png, svg = folder / f"{stem}.png", folder / f"{stem}.svg"
    try:
        if not (png.exists() and svg.exists()):
            given = None if results is None else results_from_data(position, results)
            _write(svg, render_svg(position, given, title=f"{game} {phase}").encode("utf-8"), written)
            _write(png, render_png(position, given, title=f"{game} {phase}"), written)
        written.update((png, svg))
        with png.open("rb") as handle:
            width, height = _png_size(handle.read(24))
    except Exception:
        log.exception("the %s map of %s %s could not be drawn", kind, game, phase)
        return None
    if results is None:
        alt = (f"Map of game {game} at the start of {title} ({phase}): every unit and supply center, "
               "as listed in the tables beside it")
    else:
        alt = (f"Map of the orders of {title} ({phase}) in game {game}, as adjudicated, drawn on the board "
               "the phase started from; the orders are listed in the table above it")
    return MapFile(png.name, svg.name, width, height, alt)


@cache
def _version() -> str:
    """A key of the templates and stylesheet: a judge with new ones writes every page again."""
    return hashlib.sha256(b"".join(name.encode() + text for name, text in sorted(_assets().items()))).hexdigest()


def _digest(*views: Any) -> str:
    """A key of what the pages show: with maps or without (the Cairo library installed since)."""
    content = json.dumps([views, _version(), png_unavailable() is None], sort_keys=True, default=str)
    return hashlib.sha256(content.encode()).hexdigest()


def write_game(root: Path, record: GameRecord, force: bool = False) -> Path:
    """Write the pages of one game under ``root`` (its maps only when new); returns its page."""
    facts = record.facts
    if not SAFE_NAME.fullmatch(facts.name):
        raise ValueError(f"'{facts.name}' cannot name a folder of pages")
    folder = root / "games" / facts.name
    head = public.summary(facts)
    position = position_from_data(record.board)[0] if record.board is not None else None
    now = public.current(facts, position)
    shown = [(p, view) for p in record.phases if (view := public.history(facts, p.report, p.adjudication))]
    published = public.publication(facts, record.determinations, record.balances or {})
    digest = _digest(head, now, [view for _, view in shown], published)
    stamp = folder / ".digest"
    if not force and stamp.exists() and stamp.read_text("utf-8") == digest:
        return folder / "index.html"
    _folder(root)
    _folder(root / "games")
    _folder(folder)
    started = time.time()
    written: set[Path] = set()
    maps: list[MapFile | None] = []

    def drawn(position: Position, results: Sequence[Mapping[str, Any]] | None = None) -> MapFile | None:
        maps.append(_map(folder, facts.name, position, results, written))
        return maps[-1]

    links = [{"phase": view["phase"], "title": view["title"], "href": f"{view['phase']}.html"} for _, view in shown]
    common = {"game": head, "root": "../../", "publication": published}
    _page(folder / "index.html", "game.html.j2", written, current=now, phases=links,
          current_map=drawn(position) if now and position else None, **common)
    by_phase = {p["phase"]: p for p in (published or {}).get("phases", [])}
    for number, (phase, view) in enumerate(shown):
        _page(folder / f"{view['phase']}.html", "phase.html.j2", written, phase=view,
              orders_map=drawn(position_from_data(phase.position)[0], view["results"]),
              after_map=drawn(position_from_data(phase.adjudication)[0]),
              previous=links[number - 1] if number else None,
              next=links[number + 1] if number + 1 < len(links) else None,
              published_phase=by_phase.get(view["phase"]), **common)
    if published is not None:
        _page(folder / "end.html", "end.html.j2", written, **common)
    for stale in folder.iterdir():  # what a rollback left, but not what another writer has just written
        if stale.is_file() and stale not in written and not stale.name.startswith(".") and \
                stale.stat().st_mtime < started:
            stale.unlink()
    if all(maps) or png_unavailable():  # without Cairo, no map is missing by mistake
        _write(stamp, digest.encode("utf-8"), written)
    else:  # a map that failed is drawn again next time
        stamp.unlink(missing_ok=True)
    return folder / "index.html"


def write_index(root: Path, games: Iterable[public.GameFacts]) -> Path:
    """Write the index of every listed game, the stylesheet and the icon under ``root``."""
    _folder(root)
    written: set[Path] = set()
    for asset in ("style.css", "icon.svg"):
        _write(root / asset, _assets()[asset], written)
    groups: dict[str, list[dict[str, Any]]] = {"active": [], "forming": [], "finished": []}
    for facts in sorted((f for f in games if f.listed), key=lambda f: f.name):
        groups["active" if facts.state in ("active", "paused") else facts.state].append(public.summary(facts))
    _page(root / "index.html", "index.html.j2", written, root="", groups=groups)
    return root / "index.html"


def placeholder_index() -> bytes:
    """The index of a judge that has published nothing yet (``judge web`` serves it meanwhile)."""
    groups: dict[str, list[dict[str, Any]]] = {"active": [], "forming": [], "finished": []}
    return environment().get_template("web/index.html.j2").render(root="", groups=groups).encode("utf-8")


# -- the API -----------------------------------------------------------------------------------------


def publish(source: Session | Database, settings: Settings, game: Game | str, *, force: bool = False) -> Path:
    """Write the public pages of one game into ``<data-dir>/web``; returns its page.  Unchanged
    pages are not rendered again unless ``force``."""
    with _reading(source) as session:
        record = gather(session, _game(session, game))
    return write_game(web_root(settings), record, force)


def publish_index(source: Session | Database, settings: Settings) -> Path:
    """Write the index of every game into ``<data-dir>/web``; returns it.  Two queries, however
    many games: the games, then all their players."""
    with _reading(source) as session:
        seated: dict[int, list[Player]] = {}
        games = list(session.scalars(select(Game).order_by(Game.name)))
        for player in session.scalars(select(Player).order_by(Player.id)):
            seated.setdefault(player.game_id, []).append(player)
        facts = [facts_of(session, g, acting=False, seated=seated.get(g.id, [])) for g in games]
    return write_index(web_root(settings), facts)


def _index_line(facts: public.GameFacts) -> str:
    """What the index shows of a game (or that it does not), as kept in its folder's ``.index``."""
    return json.dumps([facts.listed, public.summary(facts)], sort_keys=True, default=str)


def publish_all(source: Session | Database, settings: Settings, *, force: bool = False) -> list[Path]:
    """Every game's pages and the index (``judge publish``); returns the pages written."""
    with _reading(source) as session:
        names = list(session.scalars(select(Game.name).order_by(Game.name)))
    return [publish(source, settings, name, force=force) for name in names] + [publish_index(source, settings)]


def refresh(db: Database, settings: Settings, games: Iterable[str] | None = None) -> None:
    """Bring the pages up to date after a change to ``games`` (None: look at every game; the
    unchanged ones cost a read), and the index if the line of one of them changed.  Never
    raises: the pages are a convenience beside the mail, and a failure is logged while the
    game goes on."""
    try:
        if games is None:
            publish_all(db, settings)
            return
        root = web_root(settings)
        lines: dict[Path, str] = {}
        for name in games:
            with _reading(db) as session:
                try:
                    record = gather(session, _game(session, name))
                except LookupError:  # no such game: no pages
                    continue
            stamp = write_game(root, record).parent / ".index"
            line = _index_line(record.facts)
            if not stamp.exists() or stamp.read_text("utf-8") != line:
                lines[stamp] = line
        if lines or not (root / "index.html").exists():
            publish_index(db, settings)
            for stamp, line in lines.items():  # once the index shows them
                _write(stamp, line.encode("utf-8"), set())
    except Exception:
        log.exception("the public pages could not be written")
