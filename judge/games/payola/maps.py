"""The maps a mail carries: the phase's orders as drawn on the board, and the position after.

A picture is a convenience beside the text, which says everything: if drawing fails, the mail
goes without it (the failure is logged), and the game goes on.  Without the Cairo library
(Debian's ``libcairo2``) no map is drawn at all, and the log says so once (`png_unavailable`).
A Tin Cup power's maps are drawn from its own view of the phase (:mod:`judge.payola.blind`),
given here as positions and results already filtered, with only its own counts in the legend
(``counted``).
"""

from __future__ import annotations

import logging
from collections.abc import Collection, Iterable
from functools import cache

from judge.engine.position import Position
from judge.engine.results import OrderResult
from judge.mail.outbound import Attachment
from judge.render import render_svg

log = logging.getLogger("judge")


def phase_maps(game: str, before: Position, results: Iterable[OrderResult], after: Position,
               counted: Collection[str] | None = None) -> list[Attachment]:
    """The orders of the phase just processed, drawn where they were given (failures marked),
    and the board the next phase starts from (PNG, and SVG for any size)."""
    if png_unavailable():
        return []
    from judge.render.png import render_png

    phase, following = str(before.phase), str(after.phase)
    try:
        return [
            Attachment(f"{game}-{phase}-orders.png", "image/png",
                       render_png(before, tuple(results), title=f"{game} {phase}", counted=counted)),
            Attachment(f"{game}-{following}.png", "image/png",
                       render_png(after, title=f"{game} {following}", counted=counted)),
            Attachment(f"{game}-{following}.svg", "image/svg+xml",
                       render_svg(after, title=f"{game} {following}", counted=counted).encode()),
        ]
    except Exception:
        log.exception("the maps of %s %s could not be drawn", game, phase)
        return []


def position_map(game: str, position: Position, counted: Collection[str] | None = None) -> list[Attachment]:
    """The current board, for MAP."""
    if png_unavailable():
        return []
    from judge.render.png import render_png

    try:
        phase = str(position.phase)
        return [Attachment(f"{game}-{phase}.png", "image/png",
                           render_png(position, title=f"{game} {phase}", counted=counted))]
    except Exception:
        log.exception("the map of %s could not be drawn", game)
        return []


@cache
def png_unavailable() -> str | None:
    """Why no PNG map can be drawn here (the Cairo library cannot be loaded), or None; said once
    in the log, the first time a map is wanted."""
    try:
        import judge.render.png  # noqa: F401  (cairocffi loads libcairo2 when imported)
    except (ImportError, OSError) as exc:
        log.warning("maps are off: the Cairo library cannot be loaded (%s); mail and pages go without maps until "
                    "it is installed (apt-get install libcairo2) and the judge restarted", exc)
        return str(exc)
    return None
