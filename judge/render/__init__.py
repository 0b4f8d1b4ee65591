"""Pictures of the board: a position and its phase's orders as SVG and PNG.

An edge package: it reads engine values (positions, orders, adjudication results) and the
map's geometry data, and knows nothing of games, mail or the database.
"""

from judge.render.board import Board, BoardError, load_board
from judge.render.png import render_png, svg_to_png
from judge.render.svg import render_svg

__all__ = ["Board", "BoardError", "load_board", "render_png", "render_svg", "svg_to_png"]
