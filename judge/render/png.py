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
an 8-bit palette PNG instead (issue 26.4: a third of the bytes, at about the same cost): the
picture's flat colours exactly and a few shades for its edges (`palette`), compressed by zlib
(`_png`).  With the borders drawn crisp (:mod:`judge.render.svg`), a results mail's orders
picture is about half the bytes it was (the standard board's, 142 KB to 72 KB).

A picture's words are its reader's (issue 72), and a results mail's maps are drawn once for each
language their readers read.  Its words lie in its title bar and its legend alone, so its body (the
board, the land, the marks, the names: `_body`) is composed once for all its languages and kept
(`BODIES`), and each language only copies it and writes its words over it; the palette is chosen from
the body, and the body's rows given their colours and compressed once, a segment of each language's
zlib stream (`encode_framed`); each language after the first draws and encodes only its title bar's and its
legend's rows (`compose_framed`), and its marks are made once (`judge.render.svg.picture`); the body's rows, an
IDAT chunk of their own at a line of the mail's base64, are encoded base64 once for all its languages too
(`_framed_png`).  The render bench
(``bench/render_bench.py``) times a results mail's pictures in three languages at 1.18 times one language's,
where drawing each language whole took 3.0.
"""

from __future__ import annotations

import contextlib
import hashlib
import re
import shutil
import struct
import sys
import tempfile
import threading
import weakref
import xml.etree.ElementTree as ET
from collections import OrderedDict
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import NamedTuple

import cairocffi as cairo
from cairosvg.parser import Tree
from cairosvg.surface import PNGSurface
from PIL import Image, ImageChops

from judge.engine.position import Position
from judge.language import current, pages_language
from judge.render.board import Board, Shape
from judge.render.paint import paint, rgb
from judge.render.svg import (
    PIXELS_PER_UNIT,
    TITLE_HEIGHT,
    OrdersOrResults,
    Picture,
    fog,
    forget_unframed,
    legend_group,
    legend_note,
    legend_powers,
    map_layer,
    picture,
    static_layers,
)

try:
    from zlib_ng import zlib_ng as deflate  # the same deflate as zlib's, in 0.4 times the time
except ImportError:  # a judge installed without it (no wheel for its machine): the standard library's, slower
    import zlib as deflate  # type: ignore[no-redef]

Mask = tuple[cairo.ImageSurface, int, int]  # an area's alpha mask, and where its top left corner goes


def rasterise(svg: str, width: int) -> cairo.ImageSurface:
    """An SVG document drawn by cairosvg into an ARGB image ``width`` pixels wide, which remembers
    the colours it was drawn with (`_DRAWN_WITH`)."""
    surface: cairo.ImageSurface = PNGSurface(Tree(bytestring=svg.encode("utf-8")), None, 96, output_width=width).cairo
    _DRAWN_WITH[surface] = frozenset(colours_of(svg))
    return surface


_DRAWN_WITH: weakref.WeakKeyDictionary[cairo.ImageSurface, frozenset[str]] = weakref.WeakKeyDictionary()
"""The colours of each raster `rasterise` drew, while it lives: a picture composed of fixed layers
(`Canvas.layer`) has their colours in its palette, whoever drew them."""


SAMPLE_STEP = 3  # the palette is chosen from every third pixel of every third row
COMMON = 1000  # a colour covering at least one pixel counted in this many is in the palette as it is
EDGE_COLOURS = 16  # and up to this many shades for the antialiased edges (`_shades`)...
NEAR = 6  # ...none this close to a flat colour
LEVEL = 5  # zlib's level of compression (`_png`)
STRIP_LEVEL = 3  # and of a picture's title bar and legend, drawn again in each language (`_first_segment`)
LATER_LEVEL = 2  # and of a language's after the first (`_later_segment`)
_RAW = "BGRX" if sys.byteorder == "little" else "XRGB"  # how Pillow reads Cairo's opaque pixels (`_rgb`)
_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_COLOUR = re.compile(r"#[0-9A-Fa-f]{6}\b")


def colours_of(document: str) -> set[str]:
    """The flat colours an SVG document names (``#RRGGBB``, and white, the paper's)."""
    return {colour.upper() for colour in _COLOUR.findall(document)} | {"#FFFFFF"}


def encode_png(surface: cairo.ImageSurface, colours: Iterable[str] = ()) -> bytes:
    """An opaque ARGB32 Cairo image, drawn with ``colours`` (and shades of them at its edges), as
    an 8-bit palette PNG.

    A board is flat colours with antialiased edges: each pixel given the nearest colour of its
    `palette`, without dithering, keeps it crisp (each pixel within a few levels of its colour) at
    a fraction of an RGBA PNG's bytes, which matters when a results round mails a map to each of
    17 players.  Cairo keeps a pixel as one native-endian 32-bit ``0xAARRGGBB``: B G R A in memory
    on a little-endian machine.
    """
    image = _rgb(surface)
    return _png(image.quantize(palette=palette(image, colours), dither=Image.Dither.NONE))


def palette(image: Image.Image, colours: Iterable[str] = ()) -> Image.Image:
    """The palette of ``image``, at most 256 colours: first, each as it is, ``colours`` (those the
    picture is drawn with, a power's however few its pixels) and the colours that cover at least one
    pixel in `COMMON` of every sixth pixel of every sixth row (the sea, the land, a fog's veil over
    them: what a caller need not name); then the shades of its edges (`_shades`).

    Every pixel of a flat colour is then exactly its colour, and the edges' few shades repeat,
    which zlib compresses.  The octree's 256 colours for the whole picture, used before, gave the
    flat colours 256 cells to share with the edges: with the crisp borders, 1.3 times these bytes
    (the standard board's orders: 102 KB for 81, both by zlib's run-length strategy); and an octree
    of fewer colours for the whole picture moves a power's colour (of 64, World's Russia by 24
    levels of 255).
    """
    sample = image.resize((max(1, image.width // SAMPLE_STEP), max(1, image.height // SAMPLE_STEP)),
                          Image.Resampling.NEAREST)
    counted = sample.resize((max(1, sample.width // 2), max(1, sample.height // 2)), Image.Resampling.NEAREST)
    pixels = counted.width * counted.height
    least = max(1, pixels // COMMON)
    common = sorted(bytes(colour) for count, colour in counted.getcolors(pixels) or ()
                    if count >= least and isinstance(colour, tuple))
    flat = list(dict.fromkeys([rgb_bytes(colour) for colour in sorted(colours)] + common))[: 256 - EDGE_COLOURS]
    chosen = Image.new("P", (1, 1))
    chosen.putpalette(b"".join(flat + _shades(sample, flat)), "RGB")
    return chosen


def _shades(sample: Image.Image, flat: list[bytes]) -> list[bytes]:
    """Up to `EDGE_COLOURS` shades for the antialiased edges and text of a picture of ``flat``
    colours, chosen by Pillow's fast octree from the pixels of ``sample`` (a ninth of the picture's:
    `SAMPLE_STEP`) of no flat colour, none within `NEAR` levels of a flat colour (Pillow finds a
    pixel's nearest colour only to 6 bits a channel: a shade that close would take the pixels of
    the flat colour).

    The octree over every pixel spent most of its cells on the flat colours, each then dropped as
    near one: 16 asked gave 6 shades on the standard board, and a picture drawn twice in ways a few
    pixels apart (`Canvas` and the whole SVG) came out with shades of its edges apart by tens of
    levels.  Over the edges' pixels alone, 16 shades: the same pictures differ as their pixels do,
    for 1.03 times the bytes.  More shades than 16 look no different (32: 1.04 times the bytes)."""
    if not flat:
        return []
    only = Image.new("P", (1, 1))
    only.putpalette(b"".join(flat), "RGB")
    red, green, blue = ImageChops.difference(
        sample, sample.quantize(palette=only, dither=Image.Dither.NONE).convert("RGB")).split()
    edge = ImageChops.add(ImageChops.add(red, green), blue).point(lambda level: 255 if level else 0)
    edges = Image.composite(sample, Image.new("RGB", sample.size, tuple(flat[0])), edge)  # the flat ones as one
    octree = edges.quantize(EDGE_COLOURS, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    cells = bytes(octree.getpalette("RGB") or ())
    shades = [cells[3 * index : 3 * index + 3] for _, index in octree.getcolors(EDGE_COLOURS) or ()
              if isinstance(index, int)]
    return [shade for shade in shades if not _near(shade, flat)]


def _near(shade: bytes, flat: list[bytes]) -> bool:
    """Whether ``shade`` is within `NEAR` levels of 255 of a ``flat`` colour in each of red, green
    and blue.  Asked of 16 shades against up to 240 colours for each map drawn: written to give up
    on a colour at its first channel too far, not to take the largest of the three."""
    red, green, blue = shade
    return any(abs(red - r) <= NEAR and abs(green - g) <= NEAR and abs(blue - b) <= NEAR for r, g, b in flat)


def rgb_bytes(colour: str) -> bytes:
    """A colour of the pictures (``#RRGGBB`` or ``white``) as its three bytes."""
    return bytes(round(fraction * 255) for fraction in rgb(colour))


def _png(indexed: Image.Image) -> bytes:
    """A palette image as an 8-bit palette PNG, its rows unfiltered (as Pillow writes a palette
    image) and compressed by zlib-ng, at zlib's `LEVEL` 5: Pillow's writer compresses with the system's
    zlib, the same deflate stream at 2.5 times the time, and the maps are most of a deadline's work.
    Against the run-length strategy used before, on maps of flat colours and few shades (`palette`),
    0.87 times the bytes (Known World 901's orders: 225 KB to 196 KB) for 3 times the compressing's
    time (11 ms against 4 on that 1920-pixel map); level 6 took 1.6 times the time of level 5 for 0.96
    times the bytes, and a standard map is drawn in about 20 ms.
    Without zlib-ng the standard library's zlib writes it: a valid PNG of the same picture, more slowly."""
    width, height = indexed.size
    rows = indexed.tobytes("raw", "P", width + 1)  # each row, then a zero: the next row's filter type, none
    compressor = deflate.compressobj(LEVEL, deflate.DEFLATED, 15, 9, deflate.Z_DEFAULT_STRATEGY)
    return _png_file(width, height, bytes(indexed.getpalette("RGB") or ()), compressor.compress(b"\0"),
                     compressor.compress(memoryview(rows)[:-1]), compressor.flush())


def _png_file(width: int, height: int, colours: bytes, *data: bytes | memoryview) -> bytes:
    """An 8-bit palette PNG of ``colours`` (its palette) whose rows, compressed, are the pieces ``data`` one after
    the other, in one IDAT chunk."""
    return _png_chunks(width, height, colours, _chunk(b"IDAT", *data))


def _png_chunks(width: int, height: int, colours: bytes, *idat: Sequence[bytes | memoryview]) -> bytes:
    """An 8-bit palette PNG of ``colours`` (its palette) whose IDAT chunks are ``idat``, each as the pieces to
    join: the file is joined once, each piece copied into it and nowhere else (a picture in a language after the
    first is mostly its body's compressed rows: `_framed_png`)."""
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)  # 8 bits an index; palette; no interlace
    return b"".join((_SIGNATURE, *_chunk(b"IHDR", header), *_chunk(b"PLTE", colours),
                     *(piece for chunk in idat for piece in chunk), *_chunk(b"IEND")))


def _chunk(kind: bytes, *data: bytes | memoryview) -> tuple[bytes | memoryview, ...]:
    """A PNG chunk of ``kind`` holding the pieces ``data`` one after the other, as the pieces to join."""
    crc = deflate.crc32(kind)
    for piece in data:
        crc = deflate.crc32(piece, crc)
    return struct.pack(">I", sum(len(piece) for piece in data)), kind, *data, struct.pack(">I", crc)


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
    return encode_png(_on_white(rasterise(svg, width)), colours_of(svg))


def _tile(shape: Shape, scale: float, top: float, margin: int,
          form: int) -> tuple[cairo.ImageSurface, cairo.Context, int, int]:
    """A surface of ``form`` just large enough for ``shape`` drawn at ``scale`` pixels a map unit,
    ``top`` map units below the picture's top, with ``margin`` pixels around it; a context that
    draws on it in map units; and where its top left corner goes in the picture."""
    xs = [x for polygon in shape for ring in polygon for x, _ in ring]
    ys = [y + top for polygon in shape for ring in polygon for _, y in ring]
    left, upper = int(min(xs) * scale) - margin, int(min(ys) * scale) - margin
    surface = cairo.ImageSurface(form, int(max(xs) * scale) - left + 2 * margin,
                                 int(max(ys) * scale) - upper + 2 * margin)
    context = cairo.Context(surface)
    context.translate(-left, -upper)
    context.scale(scale, scale)
    context.translate(0, top)
    return surface, context, left, upper


def land_masks(shapes: Iterable[tuple[str, Shape]], scale: float, top: float) -> dict[str, Mask]:
    """An alpha mask of each area's polygons (even-odd), drawn by Cairo at ``scale`` pixels a map
    unit, the map ``top`` map units below the picture's top (its title bar): what a fill colours."""
    masks: dict[str, Mask] = {}
    for name, shape in shapes:
        mask, context, left, upper = _tile(shape, scale, top, 1, cairo.FORMAT_A8)
        for polygon in shape:
            for ring in polygon:
                context.move_to(*ring[0])
                for point in ring[1:]:
                    context.line_to(*point)
                context.close_path()
        context.set_fill_rule(cairo.FILL_RULE_EVEN_ODD)
        context.fill()
        masks[name] = (mask, left, upper)
    return masks


@cache
def _fog_tile(board: Board, province: str, width: int) -> tuple[cairo.ImageSurface, int, int]:
    """The fog over ``province`` (`judge.render.svg.fog`), painted once per board and width into
    a tile of its own, and where the tile goes: a Tin Cup power's maps are fogged over most of
    the board, and painting the fog's outlines and hatching each time took two thirds of them."""
    tile, context, left, upper = _tile(board.areas[province].shape, width / board.width, TITLE_HEIGHT, 2,
                                       cairo.FORMAT_ARGB32)
    paint(context, ET.fromstring(f'<svg xmlns="http://www.w3.org/2000/svg">{fog(board, province)}</svg>'))
    return tile, left, upper


class _Surfaces(threading.local):
    """This thread's canvas of each size, drawn on again and again (`Canvas`): one for each
    board's maps, 6 MB for the standard board's.  A new canvas for each map, zeroed by the
    kernel and given back, cost a standard map 4 ms of 30 in the kernel, its pages faulted in
    again each time."""

    def __init__(self) -> None:
        self.by_size: dict[tuple[int, int], cairo.ImageSurface] = {}

    def get(self, width: int, height: int) -> cairo.ImageSurface:
        surface = self.by_size.get((width, height))
        if surface is None:
            stride = cairo.ImageSurface.format_stride_for_width(cairo.FORMAT_ARGB32, width)
            surface = cairo.ImageSurface.create_for_data(bytearray(stride * height), cairo.FORMAT_ARGB32,
                                                         width, height, stride)
            self.by_size[(width, height)] = surface
        return surface


_SURFACES = _Surfaces()


class Canvas:
    """A picture composed from fixed layers and this picture's parts, bottom to top, then
    encoded (`encode_png`): ``under``, an opaque raster of the fixed bottom, is copied first,
    over all of the thread's canvas of its size (`_Surfaces`), which keeps nothing of the last
    picture.  A canvas is done with (`png`) before the thread's next one of the size is made.
    With ``rows`` (of each band of rows, the first and the one past the last), only those rows of the
    canvas are drawn on, everything where it would be on the whole picture (a language's title bar and
    legend: `compose_framed`); the other rows keep whatever they held.  Clipped rather than drawn on a
    smaller canvas moved up: the same arithmetic places each glyph on the same pixel."""

    def __init__(self, under: cairo.ImageSurface, rows: Sequence[tuple[int, int]] = ()) -> None:
        self.surface = _SURFACES.get(under.get_width(), under.get_height())
        self.colours: set[str] = set()  # the flat colours drawn, for the palette (`encode_png`)
        self.context = cairo.Context(self.surface)
        for first, end in rows:
            self.context.rectangle(0, first, under.get_width(), end - first)
        if rows:
            self.context.clip()
        self.context.set_operator(cairo.OPERATOR_SOURCE)  # copied, not blended over nothing: the same, sooner
        self.layer(under)
        self.context.set_operator(cairo.OPERATOR_OVER)

    def layer(self, raster: cairo.ImageSurface, left: int = 0, upper: int = 0) -> None:
        """A fixed layer (with transparency) over what is there, its top left corner at (left, upper)."""
        self.colours.update(_DRAWN_WITH.get(raster, ()))
        self.context.set_source_surface(raster, left, upper)
        self.context.paint()

    def fill(self, masks: Mapping[str, Mask], fills: Mapping[str, str]) -> None:
        """Each area of ``fills`` in its colour, through its mask."""
        self.colours.update(fills.values())
        for name, colour in fills.items():
            mask, left, upper = masks[name]
            self.context.set_source_rgb(*rgb(colour))
            self.context.mask_surface(mask, left, upper)

    def paint(self, document: str, scale: float) -> None:
        """An SVG document of `judge.render.paint`'s vocabulary, painted at ``scale`` pixels a unit."""
        self.colours.update(colours_of(document))
        self.context.save()
        self.context.scale(scale, scale)
        paint(self.context, ET.fromstring(document))
        self.context.restore()

    def png(self) -> bytes:
        return encode_png(self.surface, self.colours)


@cache
def _board_layers(
    board: Board, powers: tuple[str, ...], letters: tuple[tuple[str, str], ...], width: int
) -> tuple[cairo.ImageSurface, cairo.ImageSurface, cairo.ImageSurface, dict[str, Mask]]:
    """Rasters of what lies under and over the land (with the legend's powers) and of the names over
    everything, and each land province's mask: the same in every language."""
    # A picture with nothing on it has the board's size and fixes the document's frame.
    blank = Picture(board, powers, letters, {}, {}, "", "")
    below, over, names = static_layers(board)
    under = rasterise(blank.document(map_layer(below)), width)
    top = rasterise(blank.document(map_layer(over), legend_group(board, legend_powers(board, powers, letters)),
                                   background=False), width)
    named = rasterise(blank.document(map_layer(names), background=False), width)
    land = ((area.id, area.land_shape) for area in board.areas.values() if area.kind != "sea")
    return under, top, named, land_masks(land, width / board.width, TITLE_HEIGHT)


class Drawn:
    """The pictures a process drew, remembered by what they show (`picture_to_png`): the last
    `KEPT` in memory, and up to `SPOOLED_BYTES` of older ones in files of a temporary folder of
    its own (made when first needed, removed when the process ends).

    A deadline worker runs all the games it can claim first and writes their pages after (the
    pages are off the evening's path: `judge.service.running.app.drain`), so the pages of its first
    game show maps drawn hundreds of pictures earlier; they are read back here, not drawn again.  A
    picture drawn in another language than its game's pages' (`judge.language.pages_language`: a
    results mail's for its readers of another language) is kept in memory alone, the last `KEPT` of
    them apart from the others (so that they push none of the pages' out to disk), and not looked for on
    disk: no page shows it, and writing each to disk cost a fifth of what drawing it in a language after
    the first did.  A picture is looked for on disk only if a picture of its key's hash went there: the
    key's digest, its file's name, costs more than a miss should."""

    KEPT = 32  # pictures in memory: a phase's maps, and some to spare; as many again of other languages'
    SPOOLED_BYTES = 512 * 2**20  # on disk: an evening's maps of a worker (about 200 MB for 500 games)

    def __init__(self) -> None:
        self.memory: OrderedDict[tuple[object, ...], bytes] = OrderedDict()  # the pages', the newest last
        self.elsewhere: OrderedDict[tuple[object, ...], bytes] = OrderedDict()  # the other languages'
        self.spooled: OrderedDict[str, int] = OrderedDict()  # file name (a digest of the key) -> its size
        self.hashes: set[int] = set()  # the hashes of the keys of the pictures spooled
        self.spooled_bytes = 0
        self.folder: Path | None = None

    def get(self, key: tuple[object, ...]) -> bytes | None:
        for kept in (self.memory, self.elsewhere):
            if (png := kept.get(key)) is not None:
                kept.move_to_end(key)
                return png
        if self.folder is None or not _for_pages() or hash(key) not in self.hashes or (
                name := _digest(key)) not in self.spooled:
            return None  # (a picture the pages will not show is never on disk: its key is not even digested)
        try:
            png = (self.folder / name).read_bytes()
        except OSError:
            return None
        self.spooled.move_to_end(name)
        return png

    def put(self, key: tuple[object, ...], png: bytes) -> None:
        kept = self.memory if _for_pages() else self.elsewhere
        kept[key] = png
        if len(kept) > self.KEPT:
            oldest, png = kept.popitem(last=False)
            if kept is self.memory:
                self._spool(oldest, png)

    def _spool(self, key: tuple[object, ...], png: bytes) -> None:
        """Keep ``png`` on disk, the oldest files going beyond `SPOOLED_BYTES`.  A disk that
        refuses only loses the picture: it is drawn again if asked for."""
        try:
            if self.folder is None:
                self.folder = Path(tempfile.mkdtemp(prefix="judge-pictures-"))
                weakref.finalize(self, shutil.rmtree, self.folder, ignore_errors=True)
            name = _digest(key)
            (self.folder / name).write_bytes(png)
        except OSError:
            return
        self.hashes.add(hash(key))
        self.spooled_bytes += len(png) - self.spooled.pop(name, 0)
        self.spooled[name] = len(png)
        while self.spooled_bytes > self.SPOOLED_BYTES:
            oldest, size = self.spooled.popitem(last=False)
            self.spooled_bytes -= size
            with contextlib.suppress(OSError):
                (self.folder / oldest).unlink()

    def clear(self) -> None:
        """Forget every picture, and the bodies and marks kept for a picture's other languages (`BODIES`,
        `judge.render.svg.picture`): a benchmark that would time the drawing, not the remembering."""
        BODIES.clear()
        forget_unframed()
        self.memory.clear()
        self.elsewhere.clear()
        if self.folder is not None:
            for name in self.spooled:
                with contextlib.suppress(OSError):
                    (self.folder / name).unlink()
        self.spooled.clear()
        self.hashes.clear()
        self.spooled_bytes = 0


def _for_pages() -> bool:
    """Whether the picture being drawn may be shown on its game's pages: drawn in their language, or for a
    writer that did not say theirs (`judge.language.pages_language`)."""
    return pages_language() in (None, current())


def _digest(key: tuple[object, ...]) -> str:
    """The name of the file of the picture ``key`` names: the SHA-256 of its parts, each its type's name, its
    length and its text (a string's own, another part's repr), without writing out the picture's marks (some
    20 KB of SVG) again as the key's repr did."""
    digest = hashlib.sha256()
    for part in key:
        data = (part if isinstance(part, str) else repr(part)).encode("utf-8", "surrogatepass")
        digest.update(b"%s %d:" % (type(part).__name__.encode(), len(data)))
        digest.update(data)
    return digest.hexdigest()


DRAWN = Drawn()  # this process's pictures


def picture_to_png(drawing: Picture, width: int = 1200) -> bytes:
    """The PNG of a picture: cached board layers, the land's fills, this phase's marks, the names
    over them, and the words of its frame.

    The pictures drawn are remembered by what they show (`Drawn`), in the language they are written
    in (the reader's): the pages of a phase just processed show the maps its results mail carries,
    drawn once for both where the game's language is the reader's."""
    key = (current(), drawing.board.name, width, drawing.powers, drawing.letters,
           tuple(sorted(drawing.fills.items())), drawing.marks, drawing.frame, drawing.fog)
    if (png := DRAWN.get(key)) is not None:
        return png
    png = _compose(drawing, width)
    DRAWN.put(key, png)
    return png


class _Bodies(threading.local):
    """This thread's last pictures' bodies (`compose_framed`): all of a picture but the words of its frame,
    which are its reader's.  A results mail's picture is drawn once for each language its readers
    read, one language after the other, by one thread (`judge.service.outgoing.outbox`): its board,
    land, marks and names, two thirds of its drawing, are composed once for all of them, and each
    language only copies the body and writes its words over it.  A body is a raster of the picture's
    size (6 MB for the standard board): the last `KEPT` are kept, and the raster of the last one let
    go is drawn on again by the next body of its size (`raster`), as the thread's canvas is
    (`_Surfaces`): a new one for each picture, its pages faulted in, cost a single language's
    picture a tenth more than drawing it whole did."""

    KEPT = 2  # a phase's two pictures (the orders, the board after), each drawn in every language

    def __init__(self) -> None:
        self.kept: OrderedDict[tuple[object, ...], _Body] = OrderedDict()
        self.spare: dict[tuple[int, int], cairo.ImageSurface] = {}

    def get(self, key: tuple[object, ...]) -> _Body | None:
        body = self.kept.get(key)
        if body is not None:
            self.kept.move_to_end(key)
        return body

    def put(self, key: tuple[object, ...], body: _Body) -> None:
        self.kept[key] = body
        while len(self.kept) > self.KEPT:
            self._let_go(self.kept.popitem(last=False)[1])

    def raster(self, width: int, height: int) -> cairo.ImageSurface:
        """A raster for a new body: the last let go of this size, else a new one."""
        return self.spare.pop((width, height), None) or cairo.ImageSurface(cairo.FORMAT_ARGB32, width, height)

    def _let_go(self, body: _Body) -> None:
        self.spare[(body.surface.get_width(), body.surface.get_height())] = body.surface

    def clear(self) -> None:
        for body in self.kept.values():
            self._let_go(body)
        self.kept.clear()


BODIES = _Bodies()


def _compose(drawing: Picture, width: int) -> bytes:
    """The picture: its body (`_body`), then the legend's note (`_note_layer`) and the frame's words in the
    reader's language (`compose_framed`)."""
    key = (drawing.board.name, width, drawing.powers, drawing.letters, tuple(sorted(drawing.fills.items())),
           drawing.marks, drawing.fog)
    scale = width / drawing.board.width
    rows = int(TITLE_HEIGHT * scale), int((TITLE_HEIGHT + drawing.board.height) * scale)
    height = _board_layers(drawing.board, drawing.powers, drawing.letters, width)[0].get_height()
    return compose_framed(key, lambda: _body(drawing, width), drawing.document(drawing.frame, background=False),
                          scale, rows, _note_layer(drawing.board, drawing.powers, width, height, current()))


@cache
def _note_layer(board: Board, powers: tuple[str, ...], width: int, height: int,
                language: str) -> tuple[cairo.ImageSurface, int]:
    """The legend's line saying how orders are drawn, in ``language`` (`legend_note`), on a picture ``width`` by
    ``height`` pixels: a raster of the legend's rows, and the row it goes at.  Painted by Cairo's toy text API
    (`judge.render.paint`) on those rows alone, once a process for each board, width and language: cairosvg drew
    it on a raster of the whole picture, a letter at a time in Python, in 46 M instructions (Valgrind)."""
    blank = Picture(board, powers, (), {}, {}, "", "")
    document = blank.document(legend_group(board, legend_note(board, powers)), background=False)
    scale = width / board.width
    upper = int((TITLE_HEIGHT + board.height) * scale)
    strip = cairo.ImageSurface(cairo.FORMAT_ARGB32, width, height - upper)
    context = cairo.Context(strip)
    context.translate(0, -upper)
    context.scale(scale, scale)
    paint(context, ET.fromstring(document))
    strip.flush()
    _DRAWN_WITH[strip] = frozenset(colours_of(document))
    return strip, upper


def compose_framed(key: tuple[object, ...], body: Callable[[], Canvas], frame: str, scale: float,
                   rows: tuple[int, int], note: tuple[cairo.ImageSurface, int] | None = None) -> bytes:
    """The PNG of a picture whose words lie in its title bar (above ``rows``) and its legend (below them)
    alone: its body (``body()``: all of it but ``frame``, the words' SVG document, and ``note``, a raster of
    the legend's and the row it goes at), kept by ``key`` for its other languages (`BODIES`), then its words
    in the reader's language, encoded with what its languages share (`encode_framed`).  Writing the words
    last draws the pixels writing them in their layers' order drew.  Each language after the first draws
    and encodes only its title bar's and its legend's rows (`_Body.strips`)."""
    kept = BODIES.get(key)
    if kept is not None and kept.palette is not None:  # another language: its title bar and legend alone
        canvas = Canvas(kept.surface, [strip.rows for strip in kept.strips])
        if note is not None:
            canvas.layer(note[0], 0, note[1])
        canvas.paint(frame, scale)
        words = _words_rows(canvas.surface, kept)
        if words is not None:
            return _later_png(kept.surface.get_width(), kept.surface.get_height(), *words, kept)
    if kept is None:  # composed on this thread's canvas, and kept: the canvas goes on from it
        canvas = body()
        kept = _Body(canvas.surface, canvas.colours, rows)
        BODIES.put(key, kept)
    else:
        canvas = Canvas(kept.surface)
    if note is not None:
        canvas.layer(note[0], 0, note[1])
    canvas.paint(frame, scale)
    return encode_framed(canvas.surface, canvas.colours, kept)


BAND = 16
"""The rows of a picture's body next to its title bar and to its legend that are checked to be the
body's before its PNG shares the body's (`encode_framed`): a word reaching into the body would cross
them."""


class _Strip(NamedTuple):
    """Rows of a picture that each language but its body's first draws on its own (`compose_framed`): ``rows``,
    the first and the one past the last, of which ``kept`` are its words' (the title bar's or the legend's)
    and ``band`` the body's next to them (`BAND`), whose pixels must stay ``pixels``."""

    rows: tuple[int, int]
    kept: tuple[int, int]
    band: tuple[int, int]
    pixels: bytes


class _Body:
    """All of a picture but the words of its frame (`_body`): a copy of its raster, the rows between its
    title bar and its legend (``top`` to ``bottom``: the same pixels in every language) and those next
    to the frame (`BAND`); and once a PNG of it is written, what every language's PNG shares
    (`encode_framed`): the palette, those rows as indices, filtered, compressed and summed, and the first
    language's title bar and legend, as pixels and as the PNG holds them (`_words_rows`)."""

    def __init__(self, composed: cairo.ImageSurface, colours: Collection[str], rows: tuple[int, int]) -> None:
        composed.flush()
        self.surface = BODIES.raster(composed.get_width(), composed.get_height())
        context = cairo.Context(self.surface)
        context.set_operator(cairo.OPERATOR_SOURCE)
        context.set_source_surface(composed)
        context.paint()
        self.surface.flush()
        _DRAWN_WITH[self.surface] = frozenset(colours)  # a language's canvas copies it (`Canvas`)
        self.top, self.bottom = rows
        height = int(self.surface.get_height())
        above, below = _band_rows(self.top, self.bottom)
        self.strips = (_Strip((0, above[1]), (0, self.top), above, _pixels(self.surface, above)),
                       _Strip((below[0], height), (self.bottom, height), below, _pixels(self.surface, below)))
        self.palette: Image.Image | None = None
        self.mirrored: Image.Image  # ``palette``, red and blue exchanged (`_coloured`): set with it
        self.colours = b""  # the palette's bytes, as the PNG writes them
        self.rows: bytes | memoryview = b""  # the body's rows as the PNG holds them, each after its filter byte
        self.deflated = b""  # ``rows`` compressed: a segment of the PNG's zlib stream
        self.chunk: tuple[bytes | memoryview, ...] = ()  # ``deflated`` in an IDAT chunk, its pieces (`_framed_png`)
        self.checksum = 1  # ``rows``' Adler-32, which each language's PNG's combines with its words' (`_adler32`)
        self.words: tuple[tuple[bytes, bytes | memoryview], ...] = ()  # the first language's, for each strip
        self.heads: tuple[_Head, ...] = ()  # and its rows as compressed, for each strip (`_first_segment`)
        self.lock = threading.Lock()


def _same_bands(surface: cairo.ImageSurface, body: _Body) -> bool:
    """Whether ``surface``'s rows next to its title bar and to its legend (`BAND`) are ``body``'s: compared where
    Cairo keeps them, not copied out (some 150 KB a standard map's)."""
    drawn, stride = memoryview(surface.get_data()), surface.get_stride()
    return all(strip.pixels.startswith(drawn[strip.band[0] * stride:strip.band[1] * stride]) for strip in body.strips)


def _band_rows(top: int, bottom: int) -> tuple[tuple[int, int], tuple[int, int]]:
    """The body's rows next to the title bar and to the legend (`BAND`), each the first and the one past the last."""
    return (top, min(top + BAND, bottom)), (max(bottom - BAND, top), bottom)


def _pixels(surface: cairo.ImageSurface, rows: tuple[int, int]) -> bytes:
    """The pixels of ``surface``'s ``rows`` (the first and the one past the last), as Cairo keeps them."""
    stride = surface.get_stride()
    return bytes(memoryview(surface.get_data())[rows[0] * stride:rows[1] * stride])


def _body(drawing: Picture, width: int) -> Canvas:
    """All of ``drawing`` but the words of its frame, composed on this thread's canvas."""
    under, top, named, masks = _board_layers(drawing.board, drawing.powers, drawing.letters, width)
    canvas = Canvas(under)
    canvas.fill(masks, drawing.fills)
    canvas.layer(top)
    for province in drawing.fog:
        canvas.layer(*_fog_tile(drawing.board, province, width))
    canvas.paint(drawing.document(map_layer(drawing.marks), background=False), width / drawing.board.width)
    canvas.layer(named)
    return canvas


def _rgb(surface: cairo.ImageSurface) -> Image.Image:
    """An opaque ARGB32 Cairo image decoded into an RGB image of its own (see `encode_png`)."""
    surface.flush()
    return Image.frombuffer("RGB", (surface.get_width(), surface.get_height()), surface.get_data(), "raw", _RAW,
                            surface.get_stride(), 1)


def _filtered(indexed: Image.Image) -> bytes:
    """Rows of indices as a PNG holds them, each after its filter byte (none: see `_png`)."""
    return b"\0" + indexed.tobytes("raw", "P", indexed.width + 1)[:-1]


def _segment(rows: bytes | memoryview, last: bool, level: int = LEVEL) -> bytes:
    """``rows`` deflated on their own (no window shared with what goes before), ending on a byte: a
    piece of one zlib stream, which the pieces before and after it join (zlib's sync flush)."""
    compressor = _raw_compressor(level)
    return compressor.compress(rows) + compressor.flush(deflate.Z_FINISH if last else deflate.Z_SYNC_FLUSH)


def _raw_compressor(level: int) -> deflate._Compress:
    """A compressor of raw deflate (no zlib header: a piece of the PNG's one stream) at ``level``."""
    return deflate.compressobj(level, deflate.DEFLATED, -15, 9, deflate.Z_DEFAULT_STRATEGY)


_ZLIB_HEADER = (lambda c: c.compress(b"") + c.flush())(
    deflate.compressobj(LEVEL, deflate.DEFLATED, 15, 9, deflate.Z_DEFAULT_STRATEGY))[:2]


def encode_framed(surface: cairo.ImageSurface, colours: Iterable[str], body: _Body) -> bytes:
    """The PNG of a picture composed over ``body`` (`compose_framed`): as `encode_png`, but what its languages
    share is done once for all of them.  The first language drawn chooses the palette from its picture
    as `encode_png` does (the same pixels: a game read in one language gets the pictures it got before
    its words were translated), and its body's rows, the same pixels in every language, are given
    their colours and compressed once, a segment of the PNG's zlib stream (`_segment`); each other
    language gives only its title bar's and legend's rows their colours, from that palette (its words
    are in the frame's fixed colours, ``colours``, their edges' shades near the first language's), and
    compresses them.  A picture whose body rows are not the body's (its words reaching into them,
    crossing the rows next to the frame: `BAND`; never seen) is encoded whole (`encode_png`).

    Choosing the palette from the body alone, the same whatever language came first, cost a single
    language's picture a tenth more (the body read again for it), and from the body's rows alone it
    gave the words' edges shades too far (a 400-pixel map's mean error past half a level)."""
    surface.flush()
    top, bottom = body.top, body.bottom
    if not _same_bands(surface, body):
        return encode_png(surface, colours)
    image = _rgb(surface)
    width, height = image.size
    title: bytes | memoryview
    legend: bytes | memoryview
    with body.lock:
        if body.palette is None:  # the first language: the whole picture given its colours at once
            body.palette = palette(image, colours)  # as `encode_png` chooses it: this language's picture's
            indexed = image.quantize(palette=body.palette, dither=Image.Dither.NONE)
            body.colours = bytes(indexed.getpalette("RGB") or ())
            body.mirrored = _mirrored(body.colours)
            rows = memoryview(indexed.tobytes("raw", "P", width + 1))  # each row, then the next one's filter byte
            line = width + 1
            title, body.rows, legend = (b"\0" + rows[: top * line - 1], rows[top * line - 1 : bottom * line - 1],
                                        rows[bottom * line - 1 : -1])
            body.deflated = _segment(body.rows, last=False)
            body.chunk = _chunk(b"IDAT", body.deflated)
            body.checksum = deflate.adler32(body.rows)
            body.words = ((_pixels(surface, (0, top)), title), (_pixels(surface, (bottom, height)), legend))
            bare, stride = memoryview(body.surface.get_data()), surface.get_stride()  # the rows without words
            (title_pixels, _), (legend_pixels, _) = body.words
            body.heads = (_first_segment(title, _bare_rows(title_pixels, bare, stride), line, False),
                          _first_segment(legend, _bare_rows(legend_pixels, bare[bottom * stride:], stride), line, True))
            return _framed_png(width, height, title, legend, body, *(head.before + head.after for head in body.heads))
        title, legend = (_indexed(image.crop(box), body) for box in ((0, 0, width, top), (0, bottom, width, height)))
    return _later_png(width, height, title, legend, body)


def _words_rows(surface: cairo.ImageSurface, body: _Body) -> tuple[bytes, bytes] | None:
    """The rows of a language's title bar and legend (drawn on ``surface`` over its body's rows:
    `compose_framed`) as `encode_framed` writes them from the whole picture, given their colours from the
    body's palette; None if its words reach into the body's rows next to them (`BAND`).  A row whose
    pixels are the first language's (no word on it in either: 78 of a standard map's 125) is that
    language's row as its PNG holds it; the others are given their colours together, in one pass."""
    surface.flush()
    if not _same_bands(surface, body):
        return None
    stride, width = surface.get_stride(), surface.get_width()
    drawn = memoryview(surface.get_data())
    changed: list[memoryview] = []  # the pixels of the rows that are not the first language's
    kept: list[list[int | None]] = []  # each strip's rows: the first language's row, or None for the next changed
    for strip, (pixels, _) in zip(body.strips, body.words, strict=True):
        first = strip.kept[0] * stride
        rows: list[int | None] = []
        for row in range(strip.kept[1] - strip.kept[0]):
            now = drawn[first + row * stride:first + (row + 1) * stride]  # the row's pixels in this language
            if pixels.startswith(now, row * stride):
                rows.append(row)
            else:
                rows.append(None)
                changed.append(now)
        kept.append(rows)
    line = width + 1
    given = _coloured(b"".join(changed), width, stride, body) if changed else b""
    made = (given[start:start + line] for start in range(0, len(given), line))
    title, legend = (b"".join(next(made) if row is None else first_rows[row * line:(row + 1) * line] for row in rows)
                     for rows, (_, first_rows) in zip(kept, body.words, strict=True))
    return title, legend


def _indexed(rows: Image.Image, body: _Body) -> bytes:
    """A language's title bar's or legend's rows in its body's palette, as the PNG holds them (`_filtered`)."""
    return _filtered(rows.quantize(palette=body.palette, dither=Image.Dither.NONE))


def _coloured(pixels: bytes, width: int, stride: int, body: _Body) -> bytes:
    """Rows of Cairo's pixels (``stride`` bytes each) in their body's palette, as the PNG holds them (`_filtered`).

    On a little-endian machine Pillow reads them where they lie, as RGBX, though Cairo's bytes are blue, green,
    red: through the palette with red and blue exchanged (`_Body.mirrored`) they map to the indices their colours
    do through the palette, as Pillow finds a colour's nearest by a sum over the three channels weighted alike
    (`quantize` takes RGB images only; the core's ``convert`` it calls takes RGBX too).  Copied into an RGB image
    instead (`_indexed`), Pillow filled it and then wrote each pixel: 0.56 M of the 8.31 M instructions a standard
    map's picture in a language after its first cost (Valgrind)."""
    rows = len(pixels) // stride
    if sys.byteorder != "little":
        image = Image.frombuffer("RGB", (width, rows), pixels, "raw", _RAW, stride, 1)
        with body.lock:
            return _indexed(image, body)
    read = Image.frombuffer("RGBX", (width, rows), pixels, "raw", "RGBX", stride, 1)
    with body.lock:  # Pillow keeps a palette's nearest colours in the palette as it maps
        return _filtered(read._new(read.im.convert("P", Image.Dither.NONE, body.mirrored.im)))


def _mirrored(colours: bytes) -> Image.Image:
    """A palette of ``colours`` (red, green, blue each) with each colour's red and blue exchanged (`_coloured`)."""
    exchanged = bytearray(colours)
    exchanged[0::3], exchanged[2::3] = colours[2::3], colours[0::3]
    mirrored = Image.new("P", (1, 1))
    mirrored.putpalette(bytes(exchanged), "RGB")
    mirrored.load()  # the palette given to Pillow's core, which `_coloured` maps through
    return mirrored


def _framed_png(width: int, height: int, title: bytes | memoryview, legend: bytes | memoryview, body: _Body,
                title_deflated: bytes, legend_deflated: bytes) -> bytes:
    """The PNG of a picture whose body's rows, given their colours and compressed, ``body`` keeps: its title
    bar's and its legend's rows, ``title`` and ``legend``, compressed each on its own (``title_deflated``,
    ``legend_deflated``: `_first_segment`, `_later_segment`), the three segments one zlib stream, each in an IDAT
    chunk of its own.

    The body's chunk, the same bytes in every language (`_Body.chunk`), starts a line of the mail's base64 (a
    multiple of `LINE` bytes from the file's start): the title bar's chunk ends with as many empty blocks of
    deflate as that takes (`EMPTY_BLOCK`, five bytes each, at most 56 of them), so that the sender encodes the
    body's rows in base64 once for all the picture's languages (`judge.mail.outbound.base64_lines`)."""
    checksum = _adler32(_adler32(deflate.adler32(title), body.checksum, len(body.rows)), deflate.adler32(legend),
                        len(legend))
    opening = _ZLIB_HEADER + title_deflated
    before = len(_SIGNATURE) + 25 + 12 + len(body.colours) + 12 + len(opening)  # IHDR's 13 bytes, each chunk 12 more
    padding = EMPTY_BLOCK * (-before * _FIFTH % LINE)  # 5 * _FIFTH is 1 more than a multiple of LINE
    return _png_chunks(width, height, body.colours, _chunk(b"IDAT", opening, padding), body.chunk,
                       _chunk(b"IDAT", legend_deflated, struct.pack(">I", checksum)))


class _Head(NamedTuple):
    """A strip's rows in its body's first language, compressed in two pieces (`_first_segment`): ``before``, the
    first ``at`` bytes of them, ending on a byte, and ``after``, the rest."""

    at: int
    before: bytes
    after: bytes


WORDS_MARGIN = 4
"""The rows above the first language's words in a strip that another language's may reach (an accent over a
capital: `_first_segment`)."""


def _bare_rows(pixels: bytes, bare: memoryview, stride: int) -> int:
    """How many rows ``pixels`` (a strip's, with its words) starts with that are ``bare``'s (its body's, without
    them)."""
    row = 0
    while row * stride < len(pixels) and pixels.startswith(bare[row * stride:(row + 1) * stride], row * stride):
        row += 1
    return row


def _first_segment(rows: bytes | memoryview, bare: int, line: int, last: bool) -> _Head:
    """A strip's rows in its body's first language (``line`` bytes each, of which ``bare`` hold no word)
    compressed as `_segment` compresses them but in two pieces: the rows up to `WORDS_MARGIN` above its words,
    flushed to a byte, and the rest.  A later language whose rows up to there are the same (its words no higher)
    takes the first piece as it is and compresses the rest alone (`_later_segment`): a standard map's title bar has
    15 rows of its 50 above its words, its legend 36 of its 75.

    They are compressed at zlib's `STRIP_LEVEL` 3: a standard map's at level 5 took 0.35 ms of the 1.6 a
    language after the first cost, at 3 0.19 ms, for 0.6 KB more (of 84)."""
    at, view = max(bare - WORDS_MARGIN, 0) * line, memoryview(rows)  # (sliced, not copied)
    compressor = _raw_compressor(STRIP_LEVEL)
    before = compressor.compress(view[:at]) + compressor.flush(deflate.Z_SYNC_FLUSH)
    return _Head(at, before,
                 compressor.compress(view[at:]) + compressor.flush(deflate.Z_FINISH if last else deflate.Z_SYNC_FLUSH))


def _later_segment(rows: bytes, first: bytes | memoryview, head: _Head, last: bool) -> bytes:
    """A strip's ``rows`` in a language after its body's first compressed, a segment of the PNG's zlib stream:
    the first language's (``first``, compressed as ``head``) where they are the same, its first piece and the rest
    compressed alone where only their rest differs, else the whole compressed as `_segment` does.

    What it compresses itself it compresses at `LATER_LEVEL` 2: counted in instructions (Valgrind), a standard
    map's picture in a language after the first cost 9.06 M at `STRIP_LEVEL` 3 and 8.25 M at 2, for 0.3 to 0.8 KB
    more (of 52 to 134); a game read in one language has no such picture."""
    if len(rows) == len(first) and rows.startswith(first):
        return head.before + head.after
    if rows.startswith(memoryview(first)[:head.at]):
        return head.before + _segment(memoryview(rows)[head.at:], last, LATER_LEVEL)
    return _segment(rows, last, LATER_LEVEL)


def _later_png(width: int, height: int, title: bytes, legend: bytes, body: _Body) -> bytes:
    """The PNG of a picture in a language after its body's first, from its title bar's and legend's rows
    (`_framed_png`, `_later_segment`)."""
    (_, first_title), (_, first_legend) = body.words
    title_head, legend_head = body.heads
    return _framed_png(width, height, title, legend, body, _later_segment(title, first_title, title_head, False),
                       _later_segment(legend, first_legend, legend_head, True))


LINE = 57
"""The bytes a line of a mail's base64 carries (76 characters: `judge.mail.outbound.BASE64_LINE`)."""
EMPTY_BLOCK = b"\0\0\0\xff\xff"
"""An empty stored block of deflate, not the last: five bytes that add nothing to the rows, after a segment that ends
on a byte (`_segment`)."""
_FIFTH = pow(len(EMPTY_BLOCK), -1, LINE)


_ADLER = 65521  # the prime Adler-32 sums are taken modulo


def _adler32(first: int, second: int, length: int) -> int:
    """The Adler-32 of two byte strings one after the other, from each one's and the second's ``length``
    (zlib's ``adler32_combine``, which Python's zlib lacks): the body's is summed once for all its
    languages."""
    shift = length % _ADLER
    low = first & 0xFFFF
    return ((low + (second & 0xFFFF) - 1) % _ADLER
            | ((shift * (low - 1) + (first >> 16) + (second >> 16)) % _ADLER) << 16)


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
