"""Pictures of the board: a position and its phase's orders as SVG and PNG.

An edge package: it reads engine values (positions, orders, adjudication results) and the
map's geometry data, and knows nothing of games, mail or the database.  The PNG pictures
(:mod:`judge.render.png`) need the Cairo library (Debian's ``libcairo2``) and are imported
only where they are drawn, so that a judge without it runs, and says so, instead of failing
to start.
"""

from judge.render.board import Board, BoardError, load_board
from judge.render.svg import render_svg

__all__ = ["Board", "BoardError", "load_board", "render_svg"]
