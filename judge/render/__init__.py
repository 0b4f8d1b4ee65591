"""Pictures of the board: a position and its phase's orders as SVG and PNG.

An edge package: it reads engine values (positions, orders, adjudication results) and the
map's geometry data, and knows nothing of games, mail or the database.  The PNG pictures
(:mod:`judge.render.png`) need the Cairo library (Debian's ``libcairo2``) and are imported
only where they are drawn, so that a judge without it runs, and says so, instead of failing
to start.
"""

from judge.render.board import Board, BoardError, load_board
from judge.render.svg import render_svg

__all__ = ["Board", "BoardError", "load_board", "png_missing", "render_svg"]

PACKAGES = {"cairocffi": "cairocffi", "cairosvg": "cairosvg", "PIL": "pillow", "cffi": "cffi"}
"""The Python package (as pip names it) of each module the PNG pictures import."""


def png_missing() -> str | None:
    """What this machine lacks to draw PNG pictures, as what to install, or None when it lacks nothing.

    Without the Cairo library cairocffi's import fails with OSError (Debian's package: ``libcairo2``);
    without a Python package the judge depends on (an installation that skipped it), with ImportError
    naming its module, whose package is named for pip.  zlib-ng is not needed (`judge.render.png`)."""
    try:
        import judge.render.png  # noqa: F401  (cairocffi loads libcairo2 when imported)
    except OSError as exc:
        return f"the Cairo library cannot be loaded ({exc}): apt-get install libcairo2"
    except ImportError as exc:
        module = (exc.name or "").split(".")[0]
        package = PACKAGES.get(module, module or "payola-judge")
        return f"the Python package {package} is not installed ({exc}): /opt/judge/bin/pip install {package}"
    return None
