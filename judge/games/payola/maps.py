"""The maps a mail carries: the phase's orders as drawn on the board, and the position after.

A picture is a convenience beside the text, which says everything: if drawing fails, the mail
goes without it (the failure is logged), and the game goes on.  A phase's maps are drawn once its
change is committed (`judge.mail.outbound.Drawn`), outside its transaction.  Without the Cairo library
(Debian's ``libcairo2``), or a Python package it needs, no map is drawn at all, and the log says once
what to install (`png_unavailable`).
A Tin Cup power's maps are drawn from its own view of the phase (:mod:`judge.payola.blind`),
given here as positions and results already filtered, with only its own counts in the legend,
"as France sees it" in the title and a fog over the provinces out of its view.
"""

from __future__ import annotations

import logging
from collections.abc import Collection, Iterable
from functools import cache
from typing import Any, Literal, overload

from judge.api import Attachment, Drawn, Role
from judge.engine.position import Position
from judge.engine.results import OrderResult
from judge.render import png_missing, render_svg

log = logging.getLogger("judge")


def phase_maps(game: str, before: Position, results: Iterable[OrderResult], after: Position,
               sight: tuple[str, Collection[str]] | None = None) -> list[Drawn]:
    """The orders of the phase just processed, drawn where they were given (failures marked),
    and the board the next phase starts from (PNG, and SVG for any size), drawn once the phase's
    change is committed (`Drawn`), each marked with its role for the host to keep those each reader
    chose (SET MAPS); the orders as SVG too, a spare, drawn only for a reader who wants them so.
    ``sight``: a Tin Cup power and the provinces it sees, which its maps say and fog the rest of."""
    if png_unavailable():
        return []
    from judge.render.png import render_png

    phase, following = str(before.phase), str(after.phase)
    seen = _seen(sight)
    ordered = tuple(results)
    return [
        Drawn(f"{game}-{phase}-orders.png", "image/png",
              lambda: render_png(before, ordered, title=f"{game} {phase}", **seen), role="orders"),
        Drawn(f"{game}-{following}.png", "image/png", lambda: render_png(after, title=f"{game} {following}", **seen),
              role="board"),
        Drawn(f"{game}-{following}.svg", "image/svg+xml",
              lambda: render_svg(after, title=f"{game} {following}", **seen).encode(), role="board"),
        Drawn(f"{game}-{phase}-orders.svg", "image/svg+xml",
              lambda: render_svg(before, ordered, title=f"{game} {phase}", **seen).encode(), role="orders",
              spare=True),
    ]


def _seen(sight: tuple[str, Collection[str]] | None) -> dict[str, Any]:
    """The drawing's arguments for a Tin Cup power's ``sight``: only its counts in the legend,
    its name in the title, and the fog over what it does not see."""
    if sight is None:
        return {}
    power, view = sight
    return {"counted": (power,), "seen_by": power, "view": view}


@overload
def position_map(game: str, position: Position, sight: tuple[str, Collection[str]] | None = None,
                 role: Literal[""] = "") -> list[Attachment]: ...


@overload
def position_map(game: str, position: Position, sight: tuple[str, Collection[str]] | None = None, *,
                 role: Literal["board"]) -> list[Drawn]: ...


def position_map(game: str, position: Position, sight: tuple[str, Collection[str]] | None = None,
                 role: Role = "") -> list[Attachment] | list[Drawn]:
    """The current board, for MAP (asked for: no ``role``, every reader gets it, drawn now in the
    answer's language) and the start mail and a briefing (``role="board"``: the host keeps it for the
    readers who chose it, and draws it once the change is committed in each reader's language,
    `Drawn`); ``sight``: as in `phase_maps`."""
    if png_unavailable():
        return []
    from judge.render.png import render_png

    phase = str(position.phase)
    seen = _seen(sight)
    if role:
        return [Drawn(f"{game}-{phase}.png", "image/png", lambda: render_png(position, title=f"{game} {phase}", **seen),
                      role=role)]
    try:
        return [Attachment(f"{game}-{phase}.png", "image/png", render_png(position, title=f"{game} {phase}", **seen),
                           role=role)]
    except Exception:
        log.exception("the map of %s could not be drawn", game)
        return []


@cache
def png_unavailable() -> str | None:
    """Why no PNG map can be drawn here (the Cairo library, or a Python package the maps need, is
    missing: `judge.render.png_missing`), or None; said once in the log, the first time a map is wanted."""
    if missing := png_missing():
        log.warning("maps are off: %s; mail and pages go without maps until it is installed and the judge restarted",
                    missing)
    return missing
