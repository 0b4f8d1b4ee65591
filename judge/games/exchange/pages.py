"""An Exchange game's public page, written beside the others by the host's pages
(`judge.web.pages`): ``web/games/<game>/index.html``; and its history by mail (HISTORY).

While the game runs the page shows what every investor and observer was sent (E36): the
investors and the investor order, each corporation's CEO and shares, and the public results of
each phase processed (the orders issued and their results, the board); never anyone's money,
holdings, bids, ballots or a corporation's treasury, worths or ledger (E40).  Once it has ended
the page shows everything, as the end mail does (E41): the ranking, every phase's chart (every
sheet, every line's outcome, the share register after each Exchange phase) and every ledger.
A digest of what the page shows is kept in ``.digest``: a page that would not change is not
written again.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy.orm import Session

from judge.games.exchange import handlers, lifecycle, mails, stored
from judge.service import host
from judge.service.options import rules_of
from judge.store.models import Game, Player
from judge.web.pages import SAFE_NAME, make_folder, render_page, templates_version, write_file
from judge.web.public import GameFacts, summary


@dataclass(frozen=True)
class GameRecord:
    """A game as its page needs it: the facts anyone may know, what is public now (E36), each
    processed phase's public results, and once it has ended the publication (E41)."""

    facts: GameFacts
    now: tuple[str, ...] = ()
    phases: tuple[tuple[str, tuple[str, ...]], ...] = ()
    published: tuple[str, ...] = ()


def facts_of(session: Session, game: Game, seated: Sequence[Player] | None = None) -> GameFacts:
    """What any page may say of the game: name, board, phase, deadline, each investor's seat."""
    joined = host.players(session, game) if seated is None else seated
    seats = []
    for player in sorted((p for p in joined if stored.seat_of(p)), key=lambda p: stored.seat_of(p) or ""):
        name = stored.seat_of(player) or ""
        seats.append(host.public_seat(game, name, player))
    return GameFacts(name=game.name, variant=f"{lifecycle.KIND_TITLE} ({game.variant})", options=tuple(game.options),
                     state=game.state, phase=game.phase, deadline=game.deadline, winner=game.winner,
                     result=game.settings.get("result"), listed=rules_of(game).listed, joined=len(joined),
                     seats=tuple(seats), phase_title=lifecycle.label(game.phase) if game.phase else None)


def gather(session: Session, game: Game) -> GameRecord:
    """Everything the game's page is made of (see the module's header)."""
    facts = facts_of(session, game)
    state = stored.state_now(session, game)
    if state is None:
        return GameRecord(facts)
    phases = tuple((row.name, tuple(public)) for row in host.processed_phases(session, game)
                   if (public := (row.result or {}).get("public")))
    published = tuple(mails.published_lines(session, game, state)) if facts.finished else ()
    return GameRecord(facts, tuple(handlers.public_lines(state)), phases, published)


def history_lines(record: GameRecord, first: str | None = None, last: str | None = None) -> list[str]:
    """HISTORY: the public results of the processed phases from ``first`` to ``last`` (each a phase
    the game processed; None: from the first, to the last); after the whole history of a game that
    has ended, the publication (E41)."""
    names = [name for name, _ in record.phases]
    start = names.index(first) if first else 0
    end = names.index(last) + 1 if last else len(names)
    lines = [line for name, public in record.phases[start:end] for line in (f"=== {name} ===", *public, "")]
    if record.published and first is None and last is None:
        lines += ["=== Everything, published at the end (E41) ===", *record.published]
    return lines


def write_game(root: Path, record: GameRecord, force: bool = False) -> Path:
    """Write the game's page under ``root`` unless it would not change; returns it."""
    facts = record.facts
    if not SAFE_NAME.fullmatch(facts.name):
        raise ValueError(f"'{facts.name}' cannot name a folder of pages")
    folder = root / "games" / facts.name
    head = summary(facts)
    shown = [head, record.now, record.phases, record.published, templates_version()]
    digest = hashlib.sha256(json.dumps(shown, sort_keys=True, default=str).encode()).hexdigest()
    stamp = folder / ".digest"
    if not force and stamp.exists() and stamp.read_text("utf-8") == digest:
        return folder / "index.html"
    make_folder(root)
    make_folder(root / "games")
    make_folder(folder)
    written: set[Path] = set()
    render_page(folder / "index.html", "exchange/game.html.j2", written, game=head, root="../../", now=record.now,
                phases=record.phases, published=record.published, ended=facts.finished)
    write_file(stamp, digest.encode("utf-8"), written)
    return folder / "index.html"
