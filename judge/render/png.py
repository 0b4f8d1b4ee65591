"""PNG pictures: SVG rasterised by cairosvg (on Cairo), with the fixed layers drawn only once.

Rasterising the whole SVG of a board costs a few hundred milliseconds, most of it in
parsing thousands of coastline points that are the same in every picture.  So
:func:`render_png` keeps, per board and width, a raster of what lies under the land, one
of what lies over it (borders, the legend's key) and one of the names, which go over the
phase's marks, all drawn by cairosvg from the same SVG the document uses, and an alpha mask
of each land province drawn by Cairo from the same polygons.  A picture is then those layers
composed with the land's fills and this phase's marks (centers, units, orders, title,
legend), whose small SVG :mod:`judge.render.paint` paints with Cairo directly, under the
names.

Cairo's own PNG writer compresses hard and slowly, in full colour; :func:`encode_png` writes
an 8-bit palette PNG instead (issue 26.4: a third of the bytes, at about the same cost).
"""

from __future__ import annotations

import io
import sys
import xml.etree.ElementTree as ET
from collections.abc import Collection, Mapping
from functools import cache

import cairocffi as cairo
from cairosvg.parser import Tree
from cairosvg.surface import PNGSurface
from PIL import Image

from judge.engine.position import Position
from judge.render.board import Board
from judge.render.paint import paint, rgb
from judge.render.svg import (
    PIXELS_PER_UNIT,
    TITLE_HEIGHT,
    OrdersOrResults,
    Picture,
    legend_key,
    map_layer,
    picture,
    static_layers,
)

_Mask = tuple[cairo.ImageSurface, int, int]


def _rasterise(svg: str, width: int) -> cairo.ImageSurface:
    """An SVG document drawn by cairosvg into an ARGB image ``width`` pixels wide."""
    surface: cairo.ImageSurface = PNGSurface(Tree(bytestring=svg.encode("utf-8")), None, 96, output_width=width).cairo
    return surface


def encode_png(surface: cairo.ImageSurface) -> bytes:
    """An opaque ARGB32 Cairo image as an 8-bit palette PNG.

    A board is flat colours with antialiased edges: 256 colours chosen by Pillow's fast octree
    (Pillow comes with cairosvg), without dithering, keep it crisp (each pixel within a few
    levels of its colour) at a third of an RGBA PNG's bytes (World's 1920-pixel map: 666 KB
    to about 205 KB), which matters when a results round mails a map to each of 17 players.
    Cairo keeps a pixel as one native-endian 32-bit ``0xAARRGGBB``: B G R A in memory on a
    little-endian machine.
    """
    surface.flush()
    raw = "BGRX" if sys.byteorder == "little" else "XRGB"
    image = Image.frombuffer("RGB", (surface.get_width(), surface.get_height()), bytes(surface.get_data()),
                             "raw", raw, surface.get_stride(), 1)
    palette = image.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    out = io.BytesIO()
    palette.save(out, "PNG", compress_level=6)
    return out.getvalue()


def _on_white(surface: cairo.ImageSurface) -> cairo.ImageSurface:
    flat = cairo.ImageSurface(cairo.FORMAT_ARGB32, surface.get_width(), surface.get_height())
    context = cairo.Context(flat)
    context.set_source_rgb(1, 1, 1)
    context.paint()
    context.set_source_surface(surface)
    context.paint()
    return flat


def svg_to_png(svg: str, width: int = 1200) -> bytes:
    """Rasterise any SVG document to PNG, ``width`` pixels wide, flattened on white."""
    return encode_png(_on_white(_rasterise(svg, width)))


@cache
def _board_layers(
    board: Board, powers: tuple[str, ...], letters: tuple[tuple[str, str], ...], width: int
) -> tuple[cairo.ImageSurface, cairo.ImageSurface, cairo.ImageSurface, dict[str, _Mask]]:
    """Rasters of what lies under and over the land and of the names over everything, and each
    land province's mask."""
    # A picture with nothing on it has the board's size and fixes the document's frame.
    blank = Picture(board, powers, letters, {}, {}, "", "")
    below, over, names = static_layers(board)
    under = _rasterise(blank.document(map_layer(below)), width)
    top = _rasterise(blank.document(map_layer(over), legend_key(board, powers, letters), background=False), width)
    named = _rasterise(blank.document(map_layer(names), background=False), width)
    scale = width / board.width
    masks: dict[str, _Mask] = {}
    for area in board.areas.values():
        if area.kind == "sea":
            continue
        xs = [x for polygon in area.land_shape for ring in polygon for x, _ in ring]
        ys = [y + TITLE_HEIGHT for polygon in area.land_shape for ring in polygon for _, y in ring]
        left, upper = int(min(xs) * scale) - 1, int(min(ys) * scale) - 1
        mask = cairo.ImageSurface(cairo.FORMAT_A8, int(max(xs) * scale) - left + 2, int(max(ys) * scale) - upper + 2)
        context = cairo.Context(mask)
        context.translate(-left, -upper)
        context.scale(scale, scale)
        context.translate(0, TITLE_HEIGHT)
        for polygon in area.land_shape:
            for ring in polygon:
                context.move_to(*ring[0])
                for point in ring[1:]:
                    context.line_to(*point)
                context.close_path()
        context.set_fill_rule(cairo.FILL_RULE_EVEN_ODD)
        context.fill()
        masks[area.id] = (mask, left, upper)
    return under, top, named, masks


def picture_to_png(drawing: Picture, width: int = 1200) -> bytes:
    """The PNG of a picture: cached board layers, the land's fills, this phase's marks, and the
    names over them."""
    under, top, named, masks = _board_layers(drawing.board, drawing.powers, drawing.letters, width)
    canvas = cairo.ImageSurface(cairo.FORMAT_ARGB32, under.get_width(), under.get_height())
    context = cairo.Context(canvas)
    context.set_source_surface(under)
    context.paint()
    for province, fill in drawing.fills.items():
        mask, left, upper = masks[province]
        context.set_source_rgb(*rgb(fill))
        context.mask_surface(mask, left, upper)
    context.set_source_surface(top)
    context.paint()
    context.save()
    context.scale(width / drawing.board.width, width / drawing.board.width)
    paint(context, ET.fromstring(drawing.document(map_layer(drawing.marks), drawing.frame, background=False)))
    context.restore()
    context.set_source_surface(named)
    context.paint()
    return encode_png(canvas)


def render_png(
    position: Position,
    orders_or_results: OrdersOrResults | None = None,
    *,
    width: int | None = None,
    title: str | None = None,
    date: str | None = None,
    territory: Mapping[str, str] | None = None,
    board: Board | None = None,
    counted: Collection[str] | None = None,
    seen_by: str | None = None,
    view: Collection[str] | None = None,
    captions: Mapping[str, str] | None = None,
) -> bytes:
    """The PNG of :func:`judge.render.svg.render_svg`'s picture, ``width`` pixels wide (by default
    the SVG's nominal size: 1200 for a board 1000 units wide, more for World's wider board)."""
    drawing = picture(position, orders_or_results, title=title, date=date, territory=territory, board=board,
                      counted=counted, seen_by=seen_by, view=view, captions=captions)
    return picture_to_png(drawing, width or round(drawing.board.width * PIXELS_PER_UNIT))
