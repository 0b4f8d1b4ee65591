"""A map's words are its reader's (issue 72): each results mail carries pictures whose title bar and
legend are written in its reader's language, each picture drawn once per language of the mails that
carry it, never once per mail; and the drawing's words alone, in every language, for the pure
functions."""

from __future__ import annotations

import io
import logging
import struct
import zlib
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from judge.engine.notation import position_from_data
from judge.engine.position import Phase
from judge.language import reading
from judge.render.svg import phase_title, render_svg
from tests.support.harness import Judge, two_player_game

ALICE, BOB = "alice@example.org", "bob@example.org"
OBSERVERS = ("o1@example.org", "o2@example.org")

ENGLISH_KEY = "arrow: move \u00b7 ring: hold"
ITALIAN_KEY = "freccia: movimento \u00b7 cerchio: fermo"
FRENCH_KEY = "flèche : mouvement \u00b7 cercle : tenir"


def _svg(mail: Any) -> str:
    return next(data.decode() for name, (kind, data) in mail.attachments.items() if kind == "image/svg+xml")


def test_each_reader_gets_the_maps_in_their_language_each_drawn_once_a_language(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    pytest.importorskip("cairocffi")
    from judge.render import png

    judge = two_player_game(Judge(tmp_path, maps=True, maps_default="all"))
    judge.send(ALICE, "SET LANGUAGE it")
    judge.send(BOB, "SET LANGUAGE fr")
    for observer in OBSERVERS:
        judge.send(observer, "OBSERVE g1")
    judge.send(ALICE, "SIGNON FRANCE@g1 alice-pw\n3 : A PAR - BUR\n2 : F BRE - MAO")
    judge.new_mail()
    composed: Counter[str] = Counter()
    compose = png._compose

    def counting(drawing: Any, width: int) -> bytes:
        composed[drawing.frame] += 1
        return compose(drawing, width)

    monkeypatch.setattr(png, "_compose", counting)
    png.DRAWN.clear()
    with caplog.at_level(logging.WARNING, logger="judge"):
        judge.process("g1", force=True)
    assert not [r for r in caplog.records if "written in" in r.getMessage() and "results" in r.getMessage()]
    # two PNGs (the orders, the board after) in each of three languages (English: the two observers')
    assert len(composed) == 6 and set(composed.values()) == {1}
    subjects = {"g1 S1901M results", "g1 S1901M risultati", "g1 S1901M résultats"}  # each in its reader's language
    results = {m.to: m for m in judge.new_mail() if m.subject in subjects}
    italian, french = _svg(results[ALICE]), _svg(results[BOB])
    english = {_svg(results[observer]) for observer in OBSERVERS}
    assert len(english) == 1
    observed = english.pop()
    assert "g1 F1901M: Autunno 1901, movimento" in italian
    assert ITALIAN_KEY in italian and "centri," in italian and ENGLISH_KEY not in italian
    assert " centers, " not in italian and "movement" not in italian
    assert FRENCH_KEY in french and "centres, " in french and ENGLISH_KEY not in french
    assert "Automne 1901, mouvement" in french and "g1 F1901M : " in french
    assert ENGLISH_KEY in observed and "Fall 1901 movement" in observed and " centers, " in observed
    pngs = {to: {data for name, (kind, data) in mail.attachments.items() if kind == "image/png"}
            for to, mail in results.items()}
    assert pngs[OBSERVERS[0]] == pngs[OBSERVERS[1]]  # the same bytes for the readers of one language
    assert not pngs[ALICE] & pngs[BOB] and not pngs[ALICE] & pngs[OBSERVERS[0]]


POSITION = {"phase": "S1901M", "units": {"FRANCE": ["A PAR", "F BRE"], "GERMANY": ["A MUN"]},
            "centers": {"FRANCE": ["PAR", "BRE"], "GERMANY": ["MUN"]}}


def test_a_boards_words_are_in_the_readers_language() -> None:
    position, _ = position_from_data(POSITION)
    with reading("it"):
        italian = render_svg(position, title="g1 S1901M", seen_by="FRANCE", view=("PAR", "BRE"), counted=("FRANCE",))
        assert phase_title(Phase.parse("W1902A")) == "Inverno 1902, aggiustamenti"
    with reading("fr"):
        french = render_svg(position, {"GERMANY": ["A MUN H"]}, title="g1 S1901M")
        assert phase_title(Phase.parse("F1902R")) == "Automne 1902, retraites"
    english = render_svg(position, title="g1 S1901M", seen_by="FRANCE", view=("PAR", "BRE"), counted=("FRANCE",))
    assert "g1 S1901M: Primavera 1901, movimento, come la vede France (tratteggiato: fuori vista)" in italian
    assert "2 centri, 2 unità" in italian and ITALIAN_KEY in italian
    assert "g1 S1901M : Printemps 1901, mouvement" in french and "1 centre, 1 unité" in french
    assert FRENCH_KEY in french and ENGLISH_KEY not in french + italian
    assert "g1 S1901M: Spring 1901 movement, as France sees it (hatched: out of sight)" in english
    assert "2 centers, 2 units" in english and ENGLISH_KEY in english


def test_a_board_drawn_in_one_language_is_not_served_to_another() -> None:
    pytest.importorskip("cairocffi")
    from judge.render.png import render_png

    position, _ = position_from_data(POSITION)
    english = render_png(position, title="g1")
    with reading("it"):
        italian = render_png(position, title="g1")
    with reading("fr"):
        french = render_png(position, title="g1")
    assert len({english, italian, french}) == 3
    assert render_png(position, title="g1") == english


def test_a_pictures_languages_share_its_body_and_differ_in_its_frame_alone() -> None:
    """Drawn in three languages, a picture's rows between its title bar and its legend are the same
    indices of the same palette (composed and compressed once: `judge.render.png.encode_framed`);
    only the title bar's and the legend's rows differ."""
    pytest.importorskip("cairocffi")
    from PIL import Image

    from judge.render.board import load_board
    from judge.render.png import render_png
    from judge.render.svg import TITLE_HEIGHT

    position, _ = position_from_data(POSITION)
    drawn = []
    for language in ("en", "it", "fr"):
        with reading(language):
            drawn.append(Image.open(io.BytesIO(render_png(position, title="g1", width=1200))))
    width, height = drawn[0].size
    top, bottom = int(TITLE_HEIGHT * 1.2), int((TITLE_HEIGHT + load_board("standard").height) * 1.2)
    assert len({bytes(image.getpalette() or ()) for image in drawn}) == 1
    assert len({image.crop((0, top, width, bottom)).tobytes() for image in drawn}) == 1
    assert len({image.crop((0, 0, width, top)).tobytes() for image in drawn}) == 3
    assert len({image.crop((0, bottom, width, height)).tobytes() for image in drawn}) == 3


def test_a_pictures_body_is_one_chunk_at_a_line_of_base64_the_same_bytes_in_every_language(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A picture's PNG in each language holds its body's compressed rows in an IDAT chunk of their own that starts a
    multiple of 57 bytes (a line of the mail's base64) from the file's start and is the same bytes in every
    language, after no more than 56 empty deflate blocks of padding; the sender finds that chunk
    (`judge.mail.outbound._shared`) and encodes it once for the three files, each encoded as a whole would be."""
    pytest.importorskip("cairocffi")
    import binascii

    from PIL import Image

    from judge.mail import outbound
    from judge.render.png import EMPTY_BLOCK

    drawn = _languages_drawn(monkeypatch, whole=False)[:3]
    found = [outbound._shared(png) for png in drawn]
    assert all(place is not None for place in found)
    starts = [place[0] for place in found if place is not None]
    assert all(start % 57 == 0 for start in starts)
    chunks = {png[start:start + 12 + int.from_bytes(png[start:start + 4], "big")]
              for png, start in zip(drawn, starts, strict=True)}
    assert len(chunks) == 1 and len(next(iter(chunks))) > 20_000
    for png, start in zip(drawn, starts, strict=True):
        assert not png[:start].endswith(EMPTY_BLOCK * 57)
        Image.open(io.BytesIO(png)).load()
    monkeypatch.setattr(outbound, "_SHARED", {})
    encoded: list[int] = []
    real_lines = outbound._lines
    monkeypatch.setattr(outbound, "_lines", lambda data: encoded.append(len(data)) or real_lines(data))
    for png in drawn:
        whole = binascii.b2a_base64(png, newline=False)
        assert outbound.base64_lines(png) == b"\n".join(whole[at:at + 76] for at in range(0, len(whole), 76))
    assert sum(encoded) < sum(map(len, drawn)) - 2 * len(next(iter(chunks))) + 3 * 57


def _languages_drawn(monkeypatch: pytest.MonkeyPatch, whole: bool) -> list[bytes]:
    """A phase's two pictures (its orders, the board after), each drawn in English, Italian and French in turn
    as a results mail's are (`judge.service.outgoing.outbox`), from nothing kept; with ``whole``, every language
    composed over the whole body (the strips of `judge.render.png._compose` refused)."""
    from judge.engine.phases import adjudicate
    from judge.render import png as pictures
    from tools.reference_maps import MIDGAME

    monkeypatch.setattr(pictures, "DRAWN", pictures.Drawn())
    monkeypatch.setattr(pictures, "BODIES", pictures._Bodies())
    if whole:
        monkeypatch.setattr(pictures, "_words_rows", lambda surface, body: None)
    position, orders = position_from_data(MIDGAME)
    outcome = adjudicate(position, orders)
    drawn = []
    for draw in (lambda: pictures.render_png(position, outcome.results, title="g1 S1901M", width=900),
                 lambda: pictures.render_png(outcome.position, title="g1 F1901M", width=900)):
        for language in ("en", "it", "fr"):
            with reading(language):
                drawn.append(draw())
    return drawn


def test_another_languages_picture_drawn_from_its_title_bar_and_legend_alone_is_the_one_composed_whole(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Each language after a picture's first draws and encodes only its title bar's and its legend's rows over
    the kept body (`_compose`): its PNG is byte for byte the one composed over the whole body, and the body
    and its marks are made once for the three languages."""
    pytest.importorskip("cairocffi")
    from judge.render import png as pictures
    from judge.render import svg

    whole = _languages_drawn(monkeypatch, whole=True)
    monkeypatch.undo()
    bodies, marks = [], []
    real_body, real_marks = pictures._body, svg._body
    monkeypatch.setattr(pictures, "_body", lambda *args: bodies.append(1) or real_body(*args))
    monkeypatch.setattr(svg, "_body", lambda *args: marks.append(1) or real_marks(*args))
    encoded: list[int] = []
    real_encode = pictures.encode_framed
    monkeypatch.setattr(pictures, "encode_framed", lambda *args: encoded.append(1) or real_encode(*args))
    assert _languages_drawn(monkeypatch, whole=False) == whole
    assert len(set(whole)) == 6
    assert len(bodies) == len(marks) == len(encoded) == 2  # once a picture, in its first language


def test_a_later_language_gives_colours_only_to_the_rows_its_words_change(monkeypatch: pytest.MonkeyPatch) -> None:
    """A language after a picture's first gives colours from the palette only to the rows of its title bar and
    legend whose pixels are not the first language's (`judge.render.png._words_rows`), all of them at once; the
    others it takes as the first language's PNG holds them.  Each PNG's zlib stream is whole: its checksum,
    combined from the body's and its words', is the one zlib sums over the rows it holds."""
    pytest.importorskip("cairocffi")
    from PIL import Image

    from judge.render import png as pictures

    monkeypatch.setattr(pictures, "DRAWN", pictures.Drawn())
    monkeypatch.setattr(pictures, "BODIES", pictures._Bodies())
    coloured: list[int] = []
    real_coloured = pictures._coloured
    monkeypatch.setattr(pictures, "_coloured",
                        lambda pixels, width, stride, body: coloured.append(len(pixels) // stride)
                        or real_coloured(pixels, width, stride, body))
    position, _ = position_from_data(POSITION)
    drawn = {}
    for language in ("en", "it", "fr"):
        with reading(language):
            drawn[language] = pictures.render_png(position, title="g1", width=1200)
    strips = _frame_rows(drawn["en"])
    changed = [sum(row != first for row, first in zip(_frame_rows(drawn[language]), strips, strict=True))
               for language in ("it", "fr")]
    assert len(coloured) == 2  # one pass for each later language, none for the first
    assert changed[0] <= coloured[0] < len(strips) and changed[1] <= coloured[1] < len(strips)
    assert coloured[0] < len(strips) / 2  # most rows hold no word in either language
    for png in drawn.values():
        assert len(zlib.decompress(_idat(png))) == (1200 + 1) * Image.open(io.BytesIO(png)).height  # checked whole


@pytest.mark.parametrize("byteorder", ["little", "big"])
def test_a_later_languages_pixels_read_where_cairo_keeps_them_take_the_indices_an_rgb_copy_takes(
        monkeypatch: pytest.MonkeyPatch, byteorder: str) -> None:
    """A later language's changed rows, read by Pillow as RGBX where Cairo keeps them (its bytes blue, green, red)
    and mapped through the palette with red and blue exchanged (`judge.render.png._coloured`), take the indices the
    same pixels copied into an RGB image take through the palette itself: over a real map's palette, for random
    pixels and for pixels a level or two from its colours.  (On a big-endian machine, or told it is one, the copy is
    what it makes.)"""
    pytest.importorskip("cairocffi")
    import random
    import sys

    from PIL import Image

    from judge.render import png as pictures

    if sys.byteorder != "little":
        pytest.skip("the pixels below are laid out as Cairo keeps them on a little-endian machine")
    monkeypatch.setattr(pictures, "DRAWN", pictures.Drawn())
    monkeypatch.setattr(pictures, "BODIES", pictures._Bodies())
    position, _ = position_from_data(POSITION)
    pictures.render_png(position, title="g1", width=1200)
    (body,) = pictures.BODIES.kept.values()
    colours = bytes(body.palette.getpalette("RGB") or ()) if body.palette else b""
    assert len(colours) > 3 * 20
    draw = random.Random(72)
    near = [max(0, min(255, colours[at + channel] + draw.randint(-2, 2)))
            for at in range(0, len(colours), 3) for _ in range(40) for channel in (2, 1, 0)]  # blue, green, red
    pixels = bytearray(draw.randbytes(4 * 1200 * 30))
    for at in range(len(near) // 3):
        pixels[4 * at:4 * at + 3] = bytes(near[3 * at:3 * at + 3])
    copied = Image.frombuffer("RGB", (1200, 30), bytes(pixels), "raw", "BGRX", 4 * 1200, 1)
    wanted = pictures._indexed(copied, body)
    monkeypatch.setattr(sys, "byteorder", byteorder)
    assert pictures._coloured(bytes(pixels), 1200, 4 * 1200, body) == wanted
    assert len(set(wanted[1:1201])) > 20  # the colours' neighbours take many of the palette's indices


@pytest.mark.parametrize("words_higher", [False, True])
def test_a_later_language_compresses_its_strips_from_above_its_words_alone(
        monkeypatch: pytest.MonkeyPatch, words_higher: bool) -> None:
    """The first language's title bar and legend are each compressed in two pieces: the rows above its words (but
    `WORDS_MARGIN`), flushed to a byte, and the rest (`judge.render.png._first_segment`).  A later language whose
    rows above are the same takes that first piece as it is and compresses the rest alone, at `LATER_LEVEL`; one
    whose words reach higher (here: the first language's said to start lower) compresses its whole strips.  Either
    way its PNG holds its own rows, whole, in a zlib stream whose checksum is right."""
    pytest.importorskip("cairocffi")
    from PIL import Image

    from judge.render import png as pictures

    monkeypatch.setattr(pictures, "DRAWN", pictures.Drawn())
    monkeypatch.setattr(pictures, "BODIES", pictures._Bodies())
    if words_higher:
        monkeypatch.setattr(pictures, "_bare_rows", lambda *args: 48)
    compressed: list[tuple[int, int]] = []  # each segment `_segment` compresses: its bytes and level
    real_segment = pictures._segment
    monkeypatch.setattr(pictures, "_segment", lambda rows, last, level=pictures.LEVEL: compressed.append(
        (len(rows), level)) or real_segment(rows, last, level))
    given: list[bytes] = []  # each later language's title bar's and legend's rows, as `_words_rows` made them
    real_later = pictures._later_png
    monkeypatch.setattr(pictures, "_later_png", lambda width, height, title, legend, body: given.append(
        title + legend) or real_later(width, height, title, legend, body))
    position, _ = position_from_data(POSITION)
    drawn = {}
    for language in ("en", "it", "fr"):
        with reading(language):
            drawn[language] = pictures.render_png(position, title="g1", width=1200)
    strips = (50 * 1201, 75 * 1201)  # a 1200-pixel standard map's title bar's and legend's rows, as the PNG holds them
    assert compressed[0][1] == pictures.LEVEL  # the body's rows, once
    later = compressed[1:]
    assert {level for _, level in later} == {pictures.LATER_LEVEL} and len(later) == 4
    if words_higher:
        assert [size for size, _ in later] == [*strips, *strips]
    images = {language: Image.open(io.BytesIO(png)) for language, png in drawn.items()}
    held = {language: [image.crop((0, 0, 1200, 50)).tobytes(),
                       image.crop((0, image.height - 75, 1200, image.height)).tobytes()]
            for language, image in images.items()}
    if not words_higher:  # the rows from `WORDS_MARGIN` above the first that differs between the languages
        words = [min(next(row for row in range(len(strip) // 1200)
                           if strip[row * 1200:(row + 1) * 1200] != other[row * 1200:(row + 1) * 1200])
                      for other in (held["it"][index], held["fr"][index]))
                 for index, strip in enumerate(held["en"])]
        assert 10 < words[0] < 30 and 20 < words[1] < 50
        assert [size for size, _ in later] == 2 * [strip - (row - pictures.WORDS_MARGIN) * 1201
                                                   for strip, row in zip(strips, words, strict=True)]
    for language, rows in zip(("it", "fr"), given, strict=True):
        assert b"".join(held[language]) == b"".join(rows[at + 1:at + 1201] for at in range(0, len(rows), 1201))
        assert len(zlib.decompress(_idat(drawn[language]))) == 1201 * images[language].height  # its checksum right


def _frame_rows(png: bytes) -> list[bytes]:
    """The rows of a 1200-pixel standard map's title bar and legend, as pixels."""
    from PIL import Image

    from judge.render.board import load_board
    from judge.render.svg import TITLE_HEIGHT

    image = Image.open(io.BytesIO(png)).convert("RGB")
    top, bottom = int(TITLE_HEIGHT * 1.2), int((TITLE_HEIGHT + load_board("standard").height) * 1.2)
    return [image.crop((0, row, image.width, row + 1)).tobytes()
            for row in (*range(top), *range(bottom, image.height))]


def _idat(png: bytes) -> bytes:
    """The zlib stream of a PNG's IDAT chunks."""
    at, data = 8, b""
    while at < len(png):
        (length,), kind = struct.unpack(">I", png[at:at + 4]), png[at + 4:at + 8]
        if kind == b"IDAT":
            data += png[at + 8:at + 8 + length]
        at += 12 + length
    return data


def test_adler32_of_two_pieces_is_combined_as_zlib_sums_them_whole() -> None:
    """`judge.render.png._adler32` gives the checksum zlib gives the two pieces one after the other, for
    pieces longer than the sums' modulus (65,521) and empty ones."""
    from judge.render.png import _adler32

    pieces = [b"", b"\0", b"\xff" * 70_000, bytes(range(256)) * 300, b"title bar" * 9]
    for first in pieces:
        for second in pieces:
            assert _adler32(zlib.adler32(first), zlib.adler32(second), len(second)) == zlib.adler32(first + second)


def test_a_picture_of_other_orders_is_not_taken_for_the_last_one_drawn() -> None:
    """The marks kept for a picture's other languages (`judge.render.svg.picture`) are those of its own
    position, orders and view: another picture drawn meanwhile, or the same position with other orders,
    gets its own."""
    from judge.engine.phases import adjudicate
    from tools.reference_maps import MIDGAME

    position, orders = position_from_data(MIDGAME)
    results = adjudicate(position, orders).results
    bare, with_orders = render_svg(position, title="g1"), render_svg(position, results, title="g1")
    assert bare != with_orders
    assert render_svg(position, title="g1") == bare
    assert render_svg(position, results[:1], title="g1") not in (bare, with_orders)
    fogged = render_svg(position, results, title="g1", seen_by="FRANCE", view=["PAR", "BUR"])
    assert fogged != render_svg(position, results, title="g1", seen_by="FRANCE", view=["PAR"])
    with reading("it"):
        assert render_svg(position, results, title="g1") != with_orders  # its frame is its reader's
