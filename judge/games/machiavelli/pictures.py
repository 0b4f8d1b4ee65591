"""The map of a Machiavelli game: the one place every mail and page asks for it.

A picture is a convenience beside the text, which lists the whole board: if drawing fails the
mail goes without it (the failure is logged), and the game goes on; it is drawn once the change
that mails it is committed (`judge.api.Drawn`).  A map is drawn where the
board has a drawing (`judge.games.machiavelli.drawing`: the classic board of 1454 and AoP's of
1459 have one) and where the Cairo library loads (said once in the log when it does not: the
mails then go without maps, as Payola's do); a mail without one says why in a line
(`judge.games.machiavelli.lifecycle.no_map`).
A campaign's mail carries its operations as carried out, the failed ones crossed out (PNG), and
the board it leaves (PNG, and SVG, which any size of screen or printer draws sharp); the start,
a spring's and a takeover's briefing carry the board the same way.  The pages show the board as
an SVG (`board_svg`).
"""

from __future__ import annotations

import logging
from functools import cache

from judge.api import Drawn, Settings
from judge.games.machiavelli.core.board import Board
from judge.games.machiavelli.core.campaign import CampaignRecord
from judge.games.machiavelli.core.position import Position
from judge.games.machiavelli.drawing import GeometryError, load_geometry, render_png, render_svg
from judge.render import png_missing

log = logging.getLogger("judge")


def position_map(settings: Settings, game: str, board: Board, position: Position, title: str,
                 record: CampaignRecord | None = None) -> list[Drawn]:
    """The maps of game ``game``'s mails when the judge draws maps (``settings.maps``): the
    operations of ``record`` (a campaign that led to ``position``) where they were ordered, and
    ``position`` on ``board``; ``title`` names the moment ("SP1454C").  Drawn once the change
    that mails them is committed (`Drawn`), each marked with its role for the host to keep those
    each reader chose (SET MAPS); the operations as SVG a spare, drawn only for a reader who wants
    them so."""
    if not settings.maps or _no_png():
        return []
    try:
        geometry = load_geometry(board.name)
    except GeometryError:
        return []
    pictures = []
    if record is not None:
        orders = f"{game}-{record.season.campaign.value}-{record.season.year}-orders"
        pictures.append(Drawn(f"{orders}.png", "image/png",
                              lambda: render_png(board, geometry, record.expending.position, title=game,
                                                 record=record), role="orders"))
    pictures.append(Drawn(f"{game}-{title}.png", "image/png",
                          lambda: render_png(board, geometry, position, title=game), role="board"))
    pictures.append(Drawn(f"{game}-{title}.svg", "image/svg+xml",
                          lambda: render_svg(board, geometry, position, title=game).encode("utf-8"), role="board"))
    if record is not None:
        pictures.append(Drawn(f"{orders}.svg", "image/svg+xml",
                              lambda: render_svg(board, geometry, record.expending.position, title=game,
                                                 record=record).encode("utf-8"), role="orders", spare=True))
    return pictures


def board_svg(board: Board, position: Position, game: str) -> str | None:
    """The board as an SVG picture for the pages (None where the board has no drawing)."""
    try:
        return render_svg(board, load_geometry(board.name), position, title=game)
    except GeometryError:
        return None


@cache
def _no_png() -> bool:
    """Whether no PNG can be drawn here (the Cairo library or a package the pictures need is missing); said
    once in the log, with what to install."""
    if missing := png_missing():
        log.warning("no Machiavelli maps: %s", missing)
        return True
    return False
