"""The public pages as static files in ``<data-dir>/web``, so that any web server can serve them.

Theory of operation.  Each game's pages are its kind's (`judge.games.GameKind.gather` and
``write_pages``: Payola's in `judge.games.payola.pages`): it reads the game from the store into
plain records inside one read of the database, decides what a page may show of them, renders
them (Jinja2, ``judge/templates/web``) with `render_page` and writes them with `write_file`,
each file atomically (a reader never sees half a page).  Here is what every kind shares: the
index, the stylesheet and icon, writing files, and keeping the pages up to date.  The layout::

    web/index.html                  every game, grouped: in progress, forming, finished
    web/style.css, web/icon.svg
    web/games/<game>/...            the game's pages: index.html, the game now, and what its kind adds
    web/feeds/, web/players/        each game's deadlines and results as feeds, each player's record
                                    and calendar (`judge.web.feeds`)

A kind keeps a digest of everything a game's pages show in its folder's ``.digest``
(`templates_version` is part of it): a game whose pages would not change is not rendered again,
which makes ``refresh`` after every change cheap.

The index lists every game, so its cost must not come with every mail: ``refresh`` writes it
again only when the line of a game it looked at changed (each game's line is kept in its
folder's ``.index``), and it is built with two queries whatever the number of games (the games,
then every seat), not two per game.  A deadline's tick writes each game's pages after its run
(`game_pages`) and the index once, for all of them, at its end (`publish_changed`): rewritten
after every game, the index cost 40% of an evening of 300 games.

A game's pages have several writers: the applier after a mail, a deadline worker after its run, `judge
publish`.  Each reads the game, then writes, and a kind removes what it did not write (a rollback's
phases), so a writer that read the game before another changed it and wrote after that one would put its
older pages back and remove the newer ones' files: a deadline worker that read a game just before a
concession ended it removed the end's record (``record.json``).  So each writer holds the game's folder
(`holding`, an exclusive lock on the folder itself, which the kernel lets go when a writer dies) from its
read to its last file: the writers of one game take turns, and the last to write read last.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import logging
import os
import re
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from functools import cache
from importlib.resources import files
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

from jinja2 import BaseLoader, Environment, StrictUndefined
from sqlalchemy import select
from sqlalchemy.orm import Session

from judge.language import current, reading
from judge.language import gettext as _
from judge.service.clock import utcnow
from judge.service.config import Settings
from judge.service.hosting import records
from judge.service.hosting.kinds import kind_of
from judge.service.states import RUNNING
from judge.service.templates import (
    ViewEnvironment,
    counted,
    install_gettext,
    keep_compiled,
    kind_packages,
    seat_state_word,
    state_word,
    template_loader,
)
from judge.store.database import Database
from judge.store.models import Game, Player
from judge.web import fame, feeds, public
from judge.wording import power_title

log = logging.getLogger("judge")
SAFE_NAME = re.compile(r"[a-z0-9][a-z0-9_-]*")  # game names as the judge accepts them (lower case)


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


# -- writing -----------------------------------------------------------------------------------------


def environment() -> Environment:
    """The pages' templates, the host's and every kind's (`template_loader`)."""
    return _environment(template_loader())


@cache
def _environment(loader: BaseLoader) -> Environment:
    env = ViewEnvironment(loader=loader, autoescape=True, undefined=StrictUndefined,
                          trim_blocks=True, lstrip_blocks=True, extensions=["jinja2.ext.i18n"])
    env.policies["ext.i18n.trimmed"] = True  # a {% trans %} block's lines are one message, its spaces as one
    install_gettext(env)
    env.filters["when"] = lambda moment: moment.strftime("%Y-%m-%d %H:%M UTC")
    env.filters["iso"] = lambda moment: moment.strftime("%Y-%m-%dT%H:%MZ")
    env.filters["power"] = power_title
    env.filters["counted"] = counted
    env.globals["language"] = current
    env.globals["state_word"] = state_word
    env.globals["seat_state_word"] = seat_state_word
    keep_compiled(env)
    return env


@cache
def _assets() -> dict[str, bytes]:
    """The files of ``judge/templates/web``: the templates, the stylesheet and the icon."""
    return _folder(files("judge") / "templates" / "web")


def _folder(folder: Traversable) -> dict[str, bytes]:
    """The files of ``folder`` by name (none if it is no folder)."""
    return {entry.name: entry.read_bytes() for entry in folder.iterdir() if entry.is_file()} if folder.is_dir() else {}


def write_file(path: Path, content: bytes, written: set[Path]) -> None:
    """Write ``content`` atomically, unless the file already holds it."""
    written.add(path)
    if path.exists() and path.read_bytes() == content:
        return
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    temporary.write_bytes(content)
    temporary.chmod(0o644)  # public by definition, whatever the judge's umask (the unit's is 0077)
    os.replace(temporary, path)


def make_folder(path: Path) -> None:
    """Make the folder ``path``, readable by any web server."""
    path.mkdir(parents=True, exist_ok=True)
    path.chmod(0o755)


@contextmanager
def holding(root: Path, name: str) -> Iterator[None]:
    """The pages of the game ``name`` held by this writer alone, from its read of the game to its last file
    (see the header): an exclusive lock on the game's folder, made if need be."""
    if not SAFE_NAME.fullmatch(name):
        raise ValueError(f"'{name}' cannot name a folder of pages")
    folder = root / "games" / name
    make_folder(root)
    make_folder(root / "games")
    make_folder(folder)
    handle = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    try:
        fcntl.flock(handle, fcntl.LOCK_EX)
        yield
    finally:
        os.close(handle)  # lets go of the lock


def render_page(path: Path, template: str, written: set[Path], **context: Any) -> None:
    write_file(path, environment().get_template(f"web/{template}").render(**context).encode("utf-8"), written)


def templates_version() -> str:
    """A key of the templates and stylesheet, the host's and each kind's: a judge with new ones writes
    every page again."""
    return _version(template_loader())


@cache
def _version(loader: BaseLoader) -> str:
    """`templates_version` for the kinds whose templates ``loader`` finds (`judge.service.templates`)."""
    found = {**_assets(), **{f"{kind}/{name}": text for kind, package in kind_packages().items()
                             for name, text in _folder(files(package) / "templates" / "web").items()}}
    return hashlib.sha256(b"".join(name.encode() + text for name, text in sorted(found.items()))).hexdigest()


def write_game_folder(root: Path, name: str, shown: Any, write: Callable[[Path, set[Path]], bool],
                      force: bool = False) -> Path:
    """Write the pages of the game ``name`` in ``root/games/<name>/`` unless they would not change, and
    return its page (``index.html``): every kind's pages are kept so.  ``shown`` is everything its
    pages show, as JSON (with `templates_version`, it makes the digest kept in the folder's
    ``.digest``: the same digest, and not ``force``, and nothing is written); ``write(folder,
    written)`` writes them with `render_page` and `write_file`, and says whether they are whole (a
    map that failed: False, and they are written again next time).  ValueError if ``name`` cannot
    name a folder."""
    if not SAFE_NAME.fullmatch(name):
        raise ValueError(f"'{name}' cannot name a folder of pages")
    folder = root / "games" / name
    digest = hashlib.sha256(json.dumps([shown, templates_version()], sort_keys=True, default=str).encode()).hexdigest()
    stamp = folder / ".digest"
    if not force and stamp.exists() and stamp.read_text("utf-8") == digest:
        return folder / "index.html"
    make_folder(root)
    make_folder(root / "games")
    make_folder(folder)
    written: set[Path] = set()
    if write(folder, written):
        write_file(stamp, digest.encode("utf-8"), written)
    else:
        stamp.unlink(missing_ok=True)
    return folder / "index.html"


def write_index(root: Path, games: Iterable[public.GameFacts]) -> Path:
    """Write the index of every listed game, the stylesheet and the icon under ``root``."""
    make_folder(root)
    written: set[Path] = set()
    for asset in ("style.css", "icon.svg"):
        write_file(root / asset, _assets()[asset], written)
    groups: dict[str, list[dict[str, Any]]] = {"active": [], "forming": [], "finished": []}
    for facts in sorted((f for f in games if f.listed), key=lambda f: f.name):
        groups["active" if facts.state in RUNNING else facts.state].append(public.summary(facts))
    render_page(root / "index.html", "index.html.j2", written, root="", groups=groups)
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
        name = _game(session, game).name  # there is such a game: its folder may be made
    return _write_game(source, settings, name, force)[0]


def _write_game(source: Session | Database, settings: Settings, name: str, force: bool = False) -> tuple[Path, str]:
    """Read the game ``name`` and write its pages (unchanged ones only if ``force``), holding its folder from
    the read to the last file (`holding`); its page, and its line of the index (`_index_line`)."""
    with holding(web_root(settings), name):
        with _reading(source) as session:
            found = _game(session, name)
            kind = kind_of(session, found)
            language = game_language(found, settings)
            with reading(language):
                record = kind.gather(session, found)
                ended = fame.gather(session, found)
        with reading(language):  # a game's pages are in its language (SET GAME LANGUAGE)
            page = kind.write_pages(web_root(settings), record, force)
            write_ended(web_root(settings), ended)
            return page, _index_line(record if isinstance(record, public.GameFacts) else record.facts)


def game_language(game: Game, settings: Settings) -> str:
    """The language of ``game``'s pages and feeds: its own (SET GAME LANGUAGE), else the judge's."""
    return str(game.settings.get("language") or settings.language_default)


def write_ended(root: Path, ended: fame.Ended | None) -> None:
    """A finished game's end publication and public record, beside its kind's pages (`judge.web.fame`)."""
    folder = root / "games" / ended.name if ended is not None else None
    if ended is None or folder is None or not folder.is_dir():
        return
    written: set[Path] = set()
    render_page(folder / "publication.html", "publication.html.j2", written, root="../../", name=ended.name,
                text=ended.publication)
    write_file(folder / "record.json", (json.dumps(ended.record, indent=1, ensure_ascii=False) + "\n").encode(),
               written)


def publish_index(source: Session | Database, settings: Settings) -> Path:
    """Write the index of every game into ``<data-dir>/web``; returns it.  Two queries, however
    many games: the games, then all their players."""
    with _reading(source) as session, reading(settings.language_default):  # the judge's pages: its language
        seated: dict[int, list[Player]] = {}
        every = list(session.scalars(select(Game).order_by(Game.name)))
        for player in session.scalars(select(Player).order_by(Player.id)):
            seated.setdefault(player.game_id, []).append(player)
        facts = [kind_of(session, g).facts(session, g, acting=False, seated=seated.get(g.id, [])) for g in every]
        honoured = fame.hall(session, every, facts, {g.kind: kind_of(session, g).title for g in every})
    with reading(settings.language_default):  # the judge's own pages, in its own language
        index = write_index(web_root(settings), facts)
        render_page(web_root(settings) / "halloffame.html", "halloffame.html.j2", set(), root="", **honoured)
    return index


def _index_line(facts: public.GameFacts) -> str:
    """What the index shows of a game (or that it does not), as kept in its folder's ``.index``."""
    return json.dumps([facts.listed, public.summary(facts)], sort_keys=True, default=str)


def publish_all(source: Session | Database, settings: Settings, *, force: bool = False) -> list[Path]:
    """Every game's pages and the index (``judge publish``); returns the pages written."""
    with _reading(source) as session:
        names = list(session.scalars(select(Game.name).order_by(Game.name)))
    written = [publish(source, settings, name, force=force) for name in names] + [publish_index(source, settings)]
    publish_feeds(source, settings, names)
    return written


def publish_feeds(source: Session | Database, settings: Settings, names: Iterable[str]) -> None:
    """The feeds of the games ``names`` and the pages of their players (`judge.web.feeds`): each
    file written only if it changed."""
    publish_game_feeds(source, settings, names)
    publish_players(source, settings, names)


def publish_game_feeds(source: Session | Database, settings: Settings, names: Iterable[str]) -> None:
    """The deadlines calendar and news feed of each of the games ``names``, each written only if it changed."""
    root = web_root(settings)
    with _reading(source) as session:
        made = [(feeds.gather(session, game, settings), game_language(game, settings))
                for game in session.scalars(select(Game).where(Game.name.in_(list(names))))]
    written: set[Path] = set()
    make_folder(root / "feeds")
    for game, language in made:
        with reading(language):  # a game's feeds are in its language, as its pages
            calendar = feeds.calendar(_("{game} deadlines", game=game.name), [game.deadline] if game.deadline else [],
                                      settings.domain)
            write_file(root / "feeds" / f"{game.name}.ics", calendar, written)
            write_file(root / "feeds" / f"{game.name}.atom", feeds.atom(game, settings.domain), written)


PLAYERS_GAMES = 200  # the games whose players `publish_players` reads at once


def publish_players(source: Session | Database, settings: Settings, names: Iterable[str]) -> None:
    """The pages of the players of the games ``names`` (their records and deadlines calendars),
    each written only if it changed: for a deadline evening's games, once at its end
    (`judge.service.running.app.drain`), every player of them at once."""
    root = web_root(settings)
    names = list(names)
    players: list[feeds.PlayerPages] = []
    now = utcnow()
    with _reading(source) as session:
        for start in range(0, len(names), PLAYERS_GAMES):  # a query names each address: SQLite takes 32,766
            players += feeds.gather_players(session, feeds.addresses_of(session, names[start:start + PLAYERS_GAMES]),
                                            settings, now)
    written: set[Path] = set()
    make_folder(root / "players")
    for player in players:  # the judge's own language: a player's page names no game
        render_page(root / "players" / f"{player.record_name}.html", "player.html.j2", written, root="../",
                    record=records.summary(player.record))
        write_file(root / "players" / f"{player.calendar_name}.ics",
                   feeds.calendar(_("my deadlines"), player.deadlines, settings.domain), written)


IndexLine = tuple[str, str]  # a game's folder's ``.index`` stamp (its path) and its new line in the index


def game_pages(db: Database, settings: Settings, name: str, players: bool = True) -> IndexLine | None:
    """Bring the pages of the game ``name`` up to date, its feeds and (``players``) its players'
    pages with them (unchanged pages cost a read); its line of the index if that changed, for
    `publish_changed` to write the index with.  Never raises:
    the pages are a convenience beside the mail, and a failure is logged while the game goes on."""
    try:
        with _reading(db) as session:
            try:
                name = _game(session, name).name
            except LookupError:  # no such game: no pages
                return None
        page, line = _write_game(db, settings, name)
        stamp = page.parent / ".index"
        publish_game_feeds(db, settings, [name])
        if players:
            publish_players(db, settings, [name])
        return None if stamp.exists() and stamp.read_text("utf-8") == line else (str(stamp), line)
    except Exception:
        log.exception("the public pages of %s could not be written", name)
        return None


def publish_changed(db: Database, settings: Settings, lines: Iterable[IndexLine]) -> None:
    """Write the index if ``lines`` (of `game_pages`) changed a line of it, or none is written
    yet; then each game's stamp, once the index shows its line.  Never raises."""
    try:
        lines = list(lines)
        if lines or not (web_root(settings) / "index.html").exists():
            publish_index(db, settings)
            for stamp, line in lines:
                write_file(Path(stamp), line.encode("utf-8"), set())
    except Exception:
        log.exception("the index of the public pages could not be written")


def refresh(db: Database, settings: Settings, names: Iterable[str] | None = None) -> None:
    """Bring the pages up to date after a change to the games ``names`` (None: look at every game; the
    unchanged ones cost a read), and the index if the line of one of them changed.  Never
    raises: the pages are a convenience beside the mail, and a failure is logged while the
    game goes on."""
    if names is None:
        try:
            publish_all(db, settings)
        except Exception:
            log.exception("the public pages could not be written")
        return
    publish_changed(db, settings, [line for name in names if (line := game_pages(db, settings, name)) is not None])
