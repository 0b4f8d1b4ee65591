"""Pictures of fixed positions, read back: the units drawn are the position's, arrows reach
their destinations, failures look different, and the PNGs are real images of the right size."""

from __future__ import annotations

import io
import itertools
import json
import math
import struct
import threading
import xml.etree.ElementTree as ET
import zlib
from collections.abc import Iterator
from importlib import resources
from typing import Any

import pytest
from PIL import Image, ImageChops, ImageStat

from judge.engine.map import Location, available_maps, load_map, parse_map
from judge.engine.notation import position_from_data
from judge.engine.orders import PhaseKind, parse_order
from judge.engine.phases import adjudicate
from judge.engine.position import Position
from judge.language import reading
from judge.render import Board, BoardError, load_board, render_svg
from judge.render.palette import power_colours
from judge.render.png import _on_white, rasterise, render_png, svg_to_png
from judge.render.svg import _STAR, aside_point, label_point, legend_columns, picture
from judge.wording import power_title
from tests.render.geometry import contains

SVG = "{http://www.w3.org/2000/svg}"

MIDGAME = {
    "phase": "F1903M",
    "units": {
        "ENGLAND": ["F NTH", "F ENG", "A LON", "F NWY"],
        "FRANCE": ["A PIC", "A BUR", "A MAR", "F SPA/SC"],
        "GERMANY": ["A BEL", "A RUH", "A MUN", "F HOL"],
        "RUSSIA": ["F STP/NC", "A WAR"],
        "TURKEY": ["F BUL/EC", "A RUM"],
    },
    "orders": {
        "ENGLAND": ["A LON - BEL VIA CONVOY", "F NTH C A LON - BEL", "F ENG S A LON - BEL", "F NWY - SWE"],
        "FRANCE": ["A PIC S A LON - BEL", "A BUR - RUH", "A MAR S A BUR", "F SPA/SC - WES"],
        "GERMANY": ["A BEL H", "A RUH S A BEL", "F HOL S A BEL", "A MUN - BUR"],
        "RUSSIA": ["F STP/NC - BAR", "A WAR - UKR"],
        "TURKEY": ["F BUL/EC - BLA", "A RUM H"],
    },
}


def classes(element: ET.Element) -> set[str]:
    return set(element.get("class", "").split())


def elements(svg: str, cls: str) -> Iterator[ET.Element]:
    for element in ET.fromstring(svg).iter():
        if cls in classes(element):
            yield element


def midgame() -> tuple[Position, str]:
    position, orders = position_from_data(MIDGAME)
    return position, render_svg(position, adjudicate(position, orders).results, title="Test game", date="today")


def test_every_unit_drawn_is_one_the_position_has() -> None:
    position, svg = midgame()
    drawn = sorted((e.get("data-power"), e.get("data-type"), e.get("data-location")) for e in elements(svg, "unit"))
    expected = sorted((u.power, u.type.value, str(u.location)) for u in position.units.values())
    assert drawn == expected


def test_fleets_on_split_coasts_stand_on_their_coast() -> None:
    _, svg = midgame()
    board = load_board()
    for element in elements(svg, "unit"):
        if element.get("data-location") in ("STP/NC", "BUL/EC", "SPA/SC"):
            province, coast = element.get("data-location", "").split("/")
            x, y = board.areas[province].coasts[coast]
            assert element.get("transform") == f"translate({x:g} {y:g})"


def test_move_arrows_end_in_the_destination_province() -> None:
    _, svg = midgame()
    board = load_board()
    arrows = list(elements(svg, "move"))
    assert len(arrows) == 8
    for arrow in arrows:
        destination = arrow.get("data-to", "").split("/")[0]
        tip = tuple(float(v) for v in arrow.get("data-tip", "").split())
        assert any(contains(rings, (tip[0], tip[1])) for rings in board.areas[destination].shape), arrow.get(
            "data-order"
        )


def test_failed_orders_are_drawn_differently() -> None:
    position, orders = position_from_data(MIDGAME)
    results = {str(r.order): r.outcome.value for r in adjudicate(position, orders).results}
    _, svg = midgame()
    drawn = {e.get("data-order"): e for e in elements(svg, "order")}
    assert results["A BUR - RUH"] == "fails" and results["A LON - BEL VIA CONVOY"] == "succeeds"
    for text, element in drawn.items():
        failed = results[str(text)] != "succeeds"
        assert ("failed" in classes(element)) is failed, text
        assert (element.get("data-result") != "succeeds") is failed, text
        assert bool([c for c in element.iter() if "cross" in classes(c)]) is failed, text


def test_supports_and_convoys_are_drawn() -> None:
    _, svg = midgame()
    kinds = {e.get("data-order"): classes(e) for e in elements(svg, "order")}
    assert "supportmove" in kinds["F ENG S A LON - BEL"]
    assert "supporthold" in kinds["A RUH S A BEL"]
    assert "convoy" in kinds["F NTH C A LON - BEL"]


def test_bare_orders_are_drawn_without_verdicts() -> None:
    position, orders = position_from_data(MIDGAME)
    svg = render_svg(position, orders)
    assert [e for e in elements(svg, "order") if "failed" in classes(e)] == []
    assert len(list(elements(svg, "move"))) == 8


def test_title_and_legend() -> None:
    position, svg = midgame()
    root = ET.fromstring(svg)
    texts = [t.text for t in root.iter(f"{SVG}text")]
    assert "Test game: Fall 1903 movement" in texts and "today" in texts
    legend = {e.get("data-power"): int(e.get("data-centers", "")) for e in elements(svg, "power")}
    assert legend == {p: len(position.centers_of(p)) for p in position.game_map.powers}


def test_a_caption_is_drawn_on_its_powers_legend_line_only() -> None:
    """Captions (Exchange Payola's CEOs) are written in the legend of the powers given one, and
    of no other."""
    position = Position.initial(load_map("standard"))
    svg = render_svg(position, captions={"FRANCE": "CEO BOB", "GERMANY": "leaderless"})
    lines = {e.get("data-power"): [t.text for t in e.iter(f"{SVG}text")] for e in elements(svg, "power")}
    assert lines["FRANCE"] == ["3 centers, 3 units", "CEO BOB"]
    assert lines["GERMANY"] == ["3 centers, 3 units", "leaderless"]
    assert all(len(texts) == 1 for power, texts in lines.items() if power not in ("FRANCE", "GERMANY"))


def test_an_empty_caption_draws_nothing() -> None:
    """An empty caption is no caption (its width was a division by zero)."""
    position = Position.initial(load_map("standard"))
    svg = render_svg(position, captions={"FRANCE": ""})
    lines = {e.get("data-power"): [t.text for t in e.iter(f"{SVG}text")] for e in elements(svg, "power")}
    assert lines["FRANCE"] == ["3 centers, 3 units"]


def test_centers_show_their_owner() -> None:
    position, svg = midgame()
    owners = {e.get("data-province"): e.get("data-owner") for e in elements(svg, "center")}
    assert owners == {c: position.centers.get(c, "") for c in position.game_map.supply_centers}


def test_retreat_phase_draws_dislodged_units_and_retreats() -> None:
    position, orders = position_from_data(MIDGAME)
    after = adjudicate(position, orders).position
    assert list(after.dislodged) == ["BEL"]
    retreats = {"GERMANY": [parse_order("A BEL D", after.game_map, PhaseKind.RETREAT)]}
    svg = render_svg(after, adjudicate(after, retreats).results)
    dislodged = [
        (e.get("data-power"), e.get("data-location"), e.get("data-attacker-from")) for e in elements(svg, "dislodged")
    ]
    assert dislodged == [("GERMANY", "BEL", "LON")]
    assert [e.get("data-order") for e in elements(svg, "disband")] == ["A BEL D"]


def test_builds_are_drawn_apart_from_units() -> None:
    data = {
        "phase": "W1901A",
        "units": {"FRANCE": ["A PAR"]},
        "centers": {"FRANCE": ["PAR", "BRE", "MAR", "SPA"]},
        "orders": {"FRANCE": ["BUILD F BRE", "BUILD A MAR"]},
    }
    position, orders = position_from_data(data)
    svg = render_svg(position, adjudicate(position, orders).results)
    assert [e.get("data-location") for e in elements(svg, "unit")] == ["PAR"]
    assert sorted((e.get("data-type"), e.get("data-location")) for e in elements(svg, "new-unit")) == [
        ("A", "MAR"),
        ("F", "BRE"),
    ]
    assert len(list(elements(svg, "build"))) == 2


def png_size(png: bytes) -> tuple[int, int]:
    """Width and height from the IHDR chunk, after checking the data inflates to that many rows."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert png[12:16] == b"IHDR"
    width, height, depth, colour = struct.unpack(">IIBB", png[16:26])
    assert depth == 8 and colour == 3  # 8-bit palette (issue 26.4)
    idat, offset = b"", 8
    while offset < len(png):
        (length,) = struct.unpack(">I", png[offset : offset + 4])
        if png[offset + 4 : offset + 8] == b"IDAT":
            idat += png[offset + 8 : offset + 8 + length]
        offset += length + 12
    assert len(zlib.decompress(idat)) == (width + 1) * height  # a filter byte and an index a pixel
    return width, height


def test_png_is_an_image_of_the_asked_width() -> None:
    position, orders = position_from_data(MIDGAME)
    results = adjudicate(position, orders).results
    width, height = png_size(render_png(position, results))
    assert width == 1200 and 1100 < height < 1400
    assert png_size(render_png(position, results, width=600))[0] == 600
    assert png_size(svg_to_png(render_svg(position, results), width=800))[0] == 800


def pixels(png: bytes) -> bytes:
    """The RGB bytes of one of our PNGs."""
    png_size(png)
    return Image.open(io.BytesIO(png)).convert("RGB").tobytes()


def test_the_fast_png_looks_like_the_svg_rasterised_whole() -> None:
    """The cached layers and the direct painting of marks give the picture cairosvg gives."""
    position, orders = position_from_data(MIDGAME)
    results = adjudicate(position, orders).results
    fast = pixels(render_png(position, results, width=400, title="Same"))
    whole = pixels(svg_to_png(render_svg(position, results, title="Same"), width=400))
    assert len(fast) == len(whole)
    difference = sum(abs(a - b) for a, b in zip(fast, whole, strict=True)) / len(fast)
    assert difference < 0.5  # out of 255: antialiasing at a few edges, nothing drawn differently


def test_the_legends_note_is_painted_on_the_map_in_its_readers_language(monkeypatch: pytest.MonkeyPatch) -> None:
    """The legend's line saying how orders are drawn (`judge.render.png._note_layer`, painted once a process for
    each board, width and language) is on the map: each pixel its raster's letters cover at least half is the
    raster's colour over the legend's background there (but for the palette's rounding), and the English and
    Italian lines cover other pixels: the map holds the line in its reader's language."""
    from judge.render import png as pictures

    monkeypatch.setattr(pictures, "DRAWN", pictures.Drawn())
    monkeypatch.setattr(pictures, "BODIES", pictures._Bodies())
    position, orders = position_from_data(MIDGAME)
    results = adjudicate(position, orders).results
    covered: dict[str, set[tuple[int, int]]] = {}
    for language in ("en", "it"):
        with reading(language):
            drawn = Image.open(io.BytesIO(render_png(position, results, width=1200, title="Note"))).convert("RGB")
            drawing = picture(position, results, title="Note")
        strip, upper = pictures._note_layer(drawing.board, drawing.powers, 1200, drawn.height, language)
        stride, data = strip.get_stride(), bytes(strip.get_data())
        letters = [(x, y) for y in range(strip.get_height()) for x in range(strip.get_width())
                   if data[y * stride + 4 * x + 3] >= 128]
        assert len(letters) > 500
        rows = drawn.crop((0, upper + min(y for _, y in letters), 1200, upper + max(y for _, y in letters) + 1))
        background = max(rows.getcolors(1200 * rows.height) or [], key=lambda counted: counted[0])[1]
        errors: list[float] = []
        for x, y in letters:  # Cairo's premultiplied BGRA, over the background
            *colour, alpha = data[y * stride + 4 * x:y * stride + 4 * x + 4]
            wanted = [ink + (255 - alpha) * under / 255 for ink, under in zip(colour[::-1], background, strict=True)]
            errors.append(max(abs(have - want) for have, want in zip(drawn.getpixel((x, upper + y)), wanted,
                                                                      strict=True)))
        # The palette's few shades for edges move a pixel by up to some 30 levels; where the letters are missing, a
        # pixel they cover at least half is the background, half their distance from it or more (over 70 levels).
        assert max(errors) <= 40 and sum(errors) / len(errors) <= 20, language
        covered[language] = set(letters)
    assert len(covered["en"] ^ covered["it"]) > 500


def test_a_tin_cup_powers_fogged_png_looks_like_its_svg_rasterised_whole() -> None:
    """The fog over each province a power does not see is painted once into a tile of its own
    and laid over the board: the picture is the one cairosvg gives of the whole document."""
    from judge.payola.blind import witness

    position, orders = position_from_data(MIDGAME)
    outcome = adjudicate(position, orders)
    sight = witness("FRANCE", position, outcome.results, outcome.position)
    drawing: dict[str, Any] = {"title": "Fog", "counted": ("FRANCE",), "seen_by": "FRANCE", "view": sight.view}
    assert 'class="unseen"' in render_svg(sight.before, tuple(sight.results), **drawing)
    fast = pixels(render_png(sight.before, tuple(sight.results), width=400, **drawing))
    whole = pixels(svg_to_png(render_svg(sight.before, tuple(sight.results), **drawing), width=400))
    assert len(fast) == len(whole)
    difference = sum(abs(a - b) for a, b in zip(fast, whole, strict=True)) / len(fast)
    assert difference < 0.5  # out of 255


def test_a_results_map_is_a_crisp_palette_png_a_third_the_size() -> None:
    """World's 1920-pixel map, mailed to each of 17 players, was a 666 KB RGBA PNG: as 256
    colours it is under 300 KB, each pixel still within a few levels of the full-colour picture."""
    position = Position.initial(load_map("world"))
    png = render_png(position, title="World")
    assert png_size(png)[0] == 1920 and len(png) < 300_000
    palette = Image.open(io.BytesIO(png)).convert("RGB")
    surface = _on_white(rasterise(render_svg(position, title="World"), 1920))
    full = Image.frombuffer("RGBA", palette.size, bytes(surface.get_data()), "raw", "BGRA", surface.get_stride(), 1)
    difference = ImageStat.Stat(ImageChops.difference(palette, full.convert("RGB"))).mean
    assert max(difference) < 2.0  # out of 255; the flat colours a power is told by stay its own


def test_every_pixel_of_a_power_s_colour_is_that_colour_in_the_png(monkeypatch: pytest.MonkeyPatch) -> None:
    """The palette holds the colours the map is drawn with as they are (issue 69.3): World's seventeen powers,
    each on few pixels of a 1920-pixel map (a unit, a legend's disc), are each exactly its own colour wherever
    the full-colour picture has it, and the shades of the edges never take a flat colour's pixels."""
    from judge.render import png as pictures

    drawn: list[Image.Image] = []
    encode = pictures.encode_framed  # a map's picture is encoded with what its languages share (issue 72)

    def keeping(surface: Any, colours: Any, body: Any) -> bytes:
        surface.flush()
        drawn.append(Image.frombuffer("RGBA", (surface.get_width(), surface.get_height()), bytes(surface.get_data()),
                                      "raw", "BGRA", surface.get_stride(), 1).convert("RGB"))
        return encode(surface, colours, body)

    monkeypatch.setattr(pictures, "encode_framed", keeping)
    monkeypatch.setattr(pictures, "DRAWN", pictures.Drawn())
    monkeypatch.setattr(pictures, "BODIES", pictures._Bodies())  # composed whole, not over a body kept before
    position = Position.initial(load_map("world"))
    png = Image.open(io.BytesIO(render_png(position, title="World"))).convert("RGB")
    colours = {tuple(bytes.fromhex(c[1:])) for c in power_colours(position.game_map.powers).values()}
    assert len(colours) == 17
    for colour in colours:
        full = pixels_of(drawn[0], colour)
        assert full.getbbox() is not None  # the power's colour is on the map...
        assert ImageChops.subtract(full, pixels_of(png, colour)).getbbox() is None  # ...and every pixel of it kept


def pixels_of(image: Image.Image, colour: tuple[int, ...]) -> Image.Image:
    """A mask of the pixels of ``image`` that are exactly ``colour``: 255 there, 0 elsewhere."""
    red, green, blue = ImageChops.difference(image, Image.new("RGB", image.size, colour)).split()
    return ImageChops.add(ImageChops.add(red, green), blue).point(lambda v: 255 if v == 0 else 0)


def test_a_canvas_drawn_on_again_keeps_nothing_of_the_picture_before(monkeypatch: pytest.MonkeyPatch) -> None:
    """A thread draws every picture of a size on the same canvas: a picture drawn after others
    is the one drawn first, byte for byte, and a canvas of another thread is its own."""
    from judge.render import png as pictures

    monkeypatch.setattr(pictures, "DRAWN", pictures.Drawn())
    position, orders = position_from_data(MIDGAME)
    results = adjudicate(position, orders).results
    first = render_png(position, results, title="Again", width=400)
    render_png(Position.initial(load_map("standard")), title="Between", width=400)
    pictures.DRAWN.clear()
    assert render_png(position, results, title="Again", width=400) == first
    elsewhere: list[Any] = []
    thread = threading.Thread(target=lambda: elsewhere.append(pictures._SURFACES.get(400, 300)))
    thread.start()
    thread.join()
    assert elsewhere[0] is not pictures._SURFACES.get(400, 300)


def test_a_map_is_written_as_pillows_png_writer_writes_it() -> None:
    """The maps' PNG is written with zlib-ng, not Pillow's writer: read back by Pillow, the same
    palette, the same pixels, about the same bytes."""
    from judge.render.png import _png

    position, orders = position_from_data(MIDGAME)
    indexed = Image.open(io.BytesIO(render_png(position, adjudicate(position, orders).results, width=600)))
    indexed.load()
    written = io.BytesIO()
    indexed.save(written, "PNG")
    ours, pillows = Image.open(io.BytesIO(_png(indexed))), Image.open(written)
    assert (ours.mode, ours.size) == (pillows.mode, pillows.size) == ("P", indexed.size)
    assert ours.getpalette() == pillows.getpalette() and ours.tobytes() == pillows.tobytes()
    assert png_size(_png(indexed)) == indexed.size


def test_a_map_without_a_drawing_is_refused() -> None:
    data = json.loads(resources.files("judge.engine.maps").joinpath("standard.json").read_text("utf-8"))
    other = Position.initial(parse_map({**data, "name": "undrawn"}))
    with pytest.raises(BoardError, match="undrawn"):
        render_svg(other)
    assert load_map().name == "standard"


# -- every board ------------------------------------------------------------------------------


@pytest.mark.parametrize("name", available_maps())
def test_the_initial_position_of_every_board_is_drawn(name: str) -> None:
    """Issue 25, item 5: each board's start, every unit on its own province and every center with its owner."""
    position = Position.initial(load_map(name))
    svg = render_svg(position)
    board = load_board(position.game_map.drawing)
    units = list(elements(svg, "unit"))
    drawn = sorted((e.get("data-power"), e.get("data-type"), e.get("data-location")) for e in units)
    assert drawn == sorted((u.power, u.type.value, str(u.location)) for u in position.units.values())
    for unit in position.units.values():
        x, y = board.point(unit.location)
        assert any(contains(rings, (x, y)) for rings in board.areas[unit.location.province].shape)
    owners = {e.get("data-province"): e.get("data-owner") for e in elements(svg, "center")}
    assert owners == {c: position.centers.get(c, "") for c in position.game_map.supply_centers}
    legend = {e.get("data-power") for e in elements(svg, "power")}
    assert legend == set(position.game_map.powers)


@pytest.mark.parametrize("name", ["ancmed", "modern", "loeb9", "void", "youngstown"])
def test_variant_units_carry_their_powers_letter(name: str) -> None:
    """Variants' colours are not the traditional seven: each unit and legend entry shows its power's letter."""
    position = Position.initial(load_map(name))
    root = ET.fromstring(render_svg(position))
    letters = [t.text for t in root.iter(f"{SVG}text") if "letter" in t.get("class", "").split()]
    expected = [position.game_map.powers[u.power].letter for u in position.units.values()]
    assert sorted(letters) == sorted(expected)


def test_standard_units_carry_no_letter() -> None:
    svg = render_svg(Position.initial(load_map("standard")))
    assert not [t for t in ET.fromstring(svg).iter(f"{SVG}text") if "letter" in t.get("class", "").split()]


def test_a_legend_of_36_powers_keeps_to_the_picture() -> None:
    """Void's 36 powers: six rows of six, every name and count inside the picture's width and height."""
    position = Position.initial(load_map("void"))
    root = ET.fromstring(render_svg(position))
    width, height = (float(v) for v in root.get("viewBox", "").split()[2:])
    legend = next(g for g in root.iter() if "legend-key" in g.get("class", "").split())
    top = float(legend.get("transform", "").split()[1].rstrip(")"))
    names = [t for t in legend.iter(f"{SVG}text") if t.get("font-size") == "11"]
    assert len(names) == 36
    rows = sorted({float(t.get("y", "")) for t in names})
    assert len(rows) == 6
    for text in names:
        assert 0 < float(text.get("x", "")) < width - 100
        assert top + float(text.get("y", "")) < height - 20


def test_the_first_eleven_powers_of_a_variant_have_distinct_colours() -> None:
    colours = power_colours([f"P{i}" for i in range(11)])
    assert len(set(colours.values())) == 11
    assert power_colours(["AUSTRIA", "ENGLAND"]) != {"AUSTRIA": "#EE6677", "ENGLAND": "#4477AA"}  # not the seven


def test_twelve_or_thirteen_powers_take_tols_sets_for_as_many_and_more_keep_the_eleven_in_turn() -> None:
    """Tol's discrete rainbow has sets of 12 and 13 colours (Machiavelli's Absence of Plague has 13
    players); a board of more powers than 13 (Known World's 16, Void's 36) repeats the set of 11 as
    before, so its pictures are unchanged (World's 17 have their own: test_palette)."""
    thirteen = power_colours([f"P{i}" for i in range(13)])
    assert len(set(thirteen.values())) == 13
    assert thirteen["P0"] == "#D1BBD7" and thirteen["P12"] == "#DC050C"  # Tol's 13: from pale purple to red
    assert len(set(power_colours([f"P{i}" for i in range(12)]).values())) == 12
    eleven = list(power_colours([f"P{i}" for i in range(11)]).values())
    sixteen = power_colours([f"P{i}" for i in range(16)])
    assert [sixteen[f"P{i}"] for i in range(16)] == [eleven[i % 11] for i in range(16)]


def test_an_archipelago_held_is_tinted_on_its_islands_only() -> None:
    """Baleares owned by Rome: the holder's tint fills its islands, not the water round them."""
    position, _ = position_from_data(
        {"variant": "ancmed", "phase": "F0001M", "units": {"ROME": ["F BAL"]}, "centers": {"ROME": ["BAL"]}}
    )
    svg = render_svg(position)
    board = load_board("ancmed")
    filled = [e for e in elements(svg, "province") if e.get("data-province") == "BAL"]
    assert [e.get("data-owner") for e in filled] == ["ROME"]
    assert filled[0].get("d") == board.areas["BAL"].land != board.areas["BAL"].path
    x, y = board.point(Location("BAL"))
    assert any(contains(rings, (x, y)) for rings in board.areas["BAL"].islands)


def test_weak_straits_are_drawn_as_fords() -> None:
    svg = render_svg(Position.initial(load_map("loeb9")))
    assert sorted(e.get("data-provinces") for e in elements(svg, "strait")) == ["COR NAF", "NAP SIC"]


def test_youngstowns_off_board_boxes_are_drawn_linked_and_moved_into() -> None:
    """Each box beside what the data links it to, a line to it; the boxes it is linked to round
    the world named in it; and a move into a box drawn like any other (an arrow between units' points)."""
    board = load_board("youngstown")
    the_map = load_map("youngstown")
    boxes = {p for p in board.areas if p.startswith("OB")}
    assert len(boxes) == 12
    links = {tuple(sorted(s["provinces"])) for s in json.loads(
        resources.files("judge.engine.maps").joinpath("youngstown_geometry.geojson").read_text("utf-8"))["links"]}
    to_provinces = {tuple(sorted((a, b))) for a in boxes for b in the_map.army_adjacency.get(a, ()) if b not in boxes}
    to_provinces |= {tuple(sorted((a, b.province))) for a in boxes
                     for b in the_map.fleet_adjacency.get(Location(a), ()) if b.province not in boxes}
    assert links == to_provinces and ("MOR", "OBD") in links and len(links) == 12
    assert set(board.boxes["OBC"]) == {"OBB", "OBD", "OBH", "OBI", "OBJ", "OBK"}
    position, orders = position_from_data({
        "variant": "youngstown", "phase": "S1901M", "units": {"ITALY": ["F SOM"], "ENGLAND": ["F OBC"]},
        "orders": {"ITALY": ["F SOM - OBH"], "ENGLAND": ["F OBC - OBJ"]}})
    svg = render_svg(position, adjudicate(position, orders).results)
    assert sorted(e.get("data-provinces") for e in elements(svg, "link")) == sorted(" ".join(p) for p in links)
    assert {e.text for e in elements(svg, "box-links")} >= {"OBB OBD OBH", "OBI OBJ OBK"}
    moves = {e.get("data-order"): e for e in elements(svg, "move")}
    assert set(moves) == {"F SOM - OBH", "F OBC - OBJ"}
    assert all("failed" not in classes(e) for e in moves.values())


@pytest.mark.parametrize("name", ["ancmed", "modern", "loeb9", "void", "youngstown"])
def test_every_board_renders_as_png(name: str) -> None:
    position = Position.initial(load_map(name))
    width, height = png_size(render_png(position, width=320))
    board = load_board(position.game_map.drawing)
    assert width == 320 and height == pytest.approx(320 / board.width * picture(position).size[1], abs=2)


# -- readability (issue 23.30) and a power's sight (issue 23.22) -------------------------------------------


def _overlap(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@pytest.mark.parametrize("name", sorted(available_maps()))
def test_no_unit_stands_on_its_provinces_name(name: str) -> None:
    """The name of a land province (APU on the standard board) is never where a unit of it is
    drawn, on its unit point or one of its coasts (a fleet's mark: 10 either side, 12 up, 7.5 down;
    a bold name of 9.5: 0.34 of the size per letter either side, 7.1 up from its baseline)."""
    board = load_board(load_map(name).drawing)
    for area in board.areas.values():
        if area.kind in ("sea", "impassable"):
            continue
        x, y = label_point(board, area.id)
        half = 0.34 * 9.5 * len(area.id)
        name_box = (x - half, y + 3.6 - 7.1, x + half, y + 3.6 + 0.95)
        for ux, uy in (area.unit, *area.coasts.values()):
            assert not _overlap(name_box, (ux - 10, uy - 12, ux + 10, uy + 7.5)), (name, area.id)


def _name_box(board: Board, province: str) -> tuple[float, float, float, float]:
    """What a province's name covers: bold 9.5 on land (moved off its unit), italic 10 at sea."""
    area = board.areas[province]
    size = 10.0 if area.kind == "sea" else 9.5
    x, y = area.label if area.kind == "sea" else label_point(board, province)
    half = 0.34 * size * len(province)
    return x - half, y + 3.6 - 0.75 * size, x + half, y + 3.6 + 0.1 * size


@pytest.mark.parametrize("name", sorted(available_maps()))
def test_no_two_names_overlap_and_no_unit_of_the_start_covers_a_name(name: str) -> None:
    """Every name on the board can be read at the start: no two names' boxes overlap, and no
    unit of the initial position (a mark 20 wide, 12 up and 7.5 down from its point) covers one."""
    position = Position.initial(load_map(name))
    board = load_board(position.game_map.drawing)
    names = {province: _name_box(board, province) for province in board.areas}
    crowded = [(a, b) for a, b in itertools.combinations(sorted(names), 2) if _overlap(names[a], names[b])]
    assert crowded == []
    units = {str(unit.location): board.point(unit.location) for unit in position.units.values()}
    covered = [(at, province) for at, (x, y) in sorted(units.items()) for province, box in sorted(names.items())
               if _overlap(box, (x - 10, y - 12, x + 10, y + 7.5))]
    assert covered == []


def _star_box(at: tuple[float, float]) -> tuple[float, float, float, float]:
    """What a supply center's star drawn at ``at`` covers: its points and half its stroke of 1."""
    xs, ys = [x for x, _ in _STAR], [y for _, y in _STAR]
    return at[0] + min(xs) - 0.5, at[1] + min(ys) - 0.5, at[0] + max(xs) + 0.5, at[1] + max(ys) + 0.5


@pytest.mark.parametrize("name", sorted(available_maps()))
def test_no_supply_center_star_covers_a_name(name: str) -> None:
    """Every name on the board can be read beside the stars: no supply center's star (its own
    province's or a neighbour's) overlaps a name's box."""
    board = load_board(load_map(name).drawing)
    names = {province: _name_box(board, province) for province in board.areas}
    stars = {area.id: _star_box(area.center) for area in board.areas.values() if area.center is not None}
    covered = [(star, province) for star, box in sorted(stars.items()) for province, name_box in sorted(names.items())
               if _overlap(box, name_box)]
    assert covered == []


def test_a_dislodged_unit_stands_clear_of_its_attacker_and_the_center() -> None:
    position, orders = position_from_data(MIDGAME)
    after = adjudicate(position, orders).position
    svg = render_svg(after)
    board = load_board(after.game_map.drawing)
    [dislodged] = [e for e in elements(svg, "dislodged")]
    drawn = ET.fromstring(svg)
    ring = next(c for c in drawn.iter(f"{SVG}circle") if c.get("r") == "12")  # the white ground under it
    at = (float(ring.get("cx", "")), float(ring.get("cy", "")))
    attacker, star = board.areas["BEL"].unit, board.areas["BEL"].center
    assert dislodged.get("data-location") == "BEL" and star is not None
    assert math.dist(at, attacker) >= 20 and math.dist(at, star) >= 18  # a unit is 15 across, a star 11
    for area in board.areas.values():  # wherever a unit is dislodged
        aside = aside_point(board, area.id)
        assert math.dist(aside, area.unit) >= 20
        assert area.center is None or math.dist(aside, area.center) >= 14, area.id


def test_holds_are_marked_and_failed_orders_keep_their_colour() -> None:
    position, svg = midgame()
    colours = power_colours(position.game_map.powers)
    holds = {e.get("data-order"): e for e in elements(svg, "hold")}
    assert set(holds) == {"A BEL H", "A RUM H"}
    [failed_move] = [e for e in elements(svg, "move") if e.get("data-order") == "A BUR - RUH"]
    assert "failed" in classes(failed_move)
    fills = {p.get("fill") for p in failed_move.iter(f"{SVG}path") if "cross" not in classes(p)}
    assert colours["FRANCE"] in fills  # not a paler tint of it
    texts = [t.text or "" for t in ET.fromstring(svg).iter(f"{SVG}text")]
    assert any("ring: hold" in t and "crossed out: failed" in t for t in texts)


def test_a_power_sight_is_titled_and_the_rest_fogged() -> None:
    position = Position.initial(load_map("standard"))
    view = {"PAR", "BUR", "PIC", "BRE", "GAS", "MAR"}
    svg = render_svg(position, title="g1", seen_by="FRANCE", view=view, counted=("FRANCE",))
    fogged = {e.get("data-province") for e in elements(svg, "unseen")}
    board = load_board(position.game_map.drawing)
    assert fogged == {a.id for a in board.areas.values() if a.kind != "impassable"} - view
    assert "g1: Spring 1901 movement, as France sees it (hatched: out of sight)" in svg
    assert not list(elements(render_svg(position), "unseen"))
    assert png_size(render_png(position, width=320, seen_by="FRANCE", view=view))[0] == 320


def test_the_fog_is_hatched_inside_each_province_out_of_sight_and_nowhere_else() -> None:
    """A dark tone alone read as a lighter or darker grey beside a grey power's tint (the
    standard board's Germany): every province out of sight is hatched, its lines inside it at
    45 degrees on one grid for the whole board, so that fog is fog whatever the colours."""
    position = Position.initial(load_map("standard"))
    view = {"PAR", "BUR", "PIC", "BRE", "GAS", "MAR", "MUN", "RUH", "BEL", "SWI", "SPA", "MAO", "ENG", "WES", "LYO"}
    svg = render_svg(position, title="g1", seen_by="FRANCE", view=view, counted=("FRANCE",))
    board = load_board(position.game_map.drawing)
    hatched: set[str] = set()
    for element in elements(svg, "fog-hatch"):
        province = element.get("data-province", "")
        numbers = [float(v) for v in element.get("d", "").replace("M", " ").replace("L", " ").split()]
        for x1, y1, x2, y2 in zip(numbers[0::4], numbers[1::4], numbers[2::4], numbers[3::4], strict=True):
            assert abs((x1 - y1) - (x2 - y2)) < 0.2  # at 45 degrees
            offset = ((x1 - y1) / (6 * math.sqrt(2)) - 0.5) % 1  # on the board's one grid, 6 units apart
            assert min(offset, 1 - offset) < 0.05, (province, x1, y1)
            middle = ((x1 + x2) / 2, (y1 + y2) / 2)
            assert any(contains(rings, middle) for rings in board.areas[province].shape), (province, middle)
            hatched.add(province)
    assert hatched == {a.id for a in board.areas.values() if a.kind != "impassable"} - view
    assert "MUN" not in hatched  # Germany's grey, in sight, is plain
    assert not list(elements(render_svg(position), "fog-hatch"))


def test_order_arrows_run_under_the_names_and_never_hide_a_letter() -> None:
    """Modern: A MAR - SWI and A MIL - SWI cross the names of Marseille and Switzerland, F EDI -
    NWG and F LON - NTH end on the names of their seas.  Every pixel of those names' letters is
    the same with the arrows as without them; in the SVG every name, with its halo, comes after
    every order."""
    position = Position.initial(load_map("modern"))
    given = {"FRANCE": ["A MAR - SWI"], "ITALY": ["A MIL - SWI"], "BRITAIN": ["F EDI - NWG", "F LON - NTH"]}
    orders = {power: [parse_order(o, position.game_map, PhaseKind.MOVEMENT) for o in texts]
              for power, texts in given.items()}
    results = adjudicate(position, orders).results
    board = load_board(position.game_map.drawing)
    bare = Image.open(io.BytesIO(render_png(position, width=1200))).convert("RGB")
    drawn = Image.open(io.BytesIO(render_png(position, results, width=1200))).convert("RGB")
    scale = 1200 / board.width
    for name in ("MAR", "SWI", "NWG", "NTH"):
        area = board.areas[name]
        sea = area.kind == "sea"
        x, y = area.label if sea else label_point(board, name)
        left, top, right, bottom = (v * scale for v in (x - 14, y + 42 - 6, x + 14, y + 42 + 6))
        letters = [(i, j) for i in range(int(left), int(right)) for j in range(int(top), int(bottom))
                   if max(bare.getpixel((i, j))) < (130 if sea else 60)]  # the ink of the name's letters
        assert len(letters) > 10, name
        changed = [(i, j) for i, j in letters
                   if max(abs(a - b) for a, b in zip(bare.getpixel((i, j)), drawn.getpixel((i, j)), strict=True)) > 12]
        assert not changed, (name, changed[:5])
    svg = render_svg(position, results)
    order = [classes(e) for e in ET.fromstring(svg).iter() if e.get("class")]
    last_order = max(i for i, c in enumerate(order) if c & {"move", "hold", "support", "convoy"})
    first_name = min(i for i, c in enumerate(order) if "halo" in c)
    assert last_order < first_name


# -- World wraps east-west (issue 26.2) -------------------------------------------------------------------


def _xs(path: ET.Element) -> list[float]:
    numbers = [float(v) for v in path.get("d", "").replace("M", " ").replace("L", " ").replace("Z", " ").split()]
    return numbers[0::2]


def test_an_order_across_worlds_edge_is_drawn_the_short_way() -> None:
    """Alaska (at the west edge) and the Bering Strait (at the east edge) are neighbours across
    the Pacific: the move and the support between them run off the edge the short way and come
    in again at the other edge, instead of crossing the whole map."""
    board = load_board("world")
    assert board.wrap and board.areas["ALA"].unit[0] < 200 < board.width - 200 < board.areas["BRS"].unit[0]
    position, orders = position_from_data({
        "variant": "world", "phase": "S2000M",
        "units": {"WESTERN_CANADA": ["F ALA", "A YTE"], "PACIFIC_RUSSIA": ["F KAM"]},
        "orders": {"WESTERN_CANADA": ["F ALA - BRS", "A YTE S F ALA - BRS"], "PACIFIC_RUSSIA": ["F KAM S F ALA - BRS"]},
    })
    svg = render_svg(position, orders)
    drawn = {g.get("data-order"): g for g in elements(svg, "order")}
    for order in ("F ALA - BRS", "F KAM S F ALA - BRS"):
        group = drawn[order]
        paths = [p for p in group if p.tag == f"{SVG}path"]
        assert paths, order
        for path in paths:  # the short way: less than half the map across, running off one edge
            xs = _xs(path)
            assert max(xs) - min(xs) < board.width / 4, order
            assert min(xs) < 0 or max(xs) > board.width, order
        again = [g for g in group if "beyond-edge" in classes(g)]
        assert len(again) == 1 and again[0].get("transform") in (
            f"translate({board.width:g} 0)", f"translate(-{board.width:g} 0)"), order
    supported = drawn["A YTE S F ALA - BRS"]  # both on the west side: drawn once, on the map
    assert not [g for g in supported if "beyond-edge" in classes(g)]
    assert all(0 <= x <= board.width for p in supported if p.tag == f"{SVG}path" for x in _xs(p))


@pytest.mark.parametrize("board", available_maps())
def test_a_caption_sits_between_its_powers_name_and_the_next_cell_in_the_drawn_font(board: str) -> None:
    """Exchange Payola's CEO captions follow each power's name in the legend: measured in the font
    the PNG is drawn with, every caption (here as long as an investor's name may make it) starts a
    space after its bold name ends and ends before the next power's cell begins."""
    cairo = pytest.importorskip("cairocffi")
    position = Position.initial(load_map(board))
    powers = position.game_map.powers
    svg = render_svg(position, captions={p: "CEO ABCDEFGHIJKL" for p in powers})
    root = ET.fromstring(svg)
    names = {t.text: t for t in root.iter(f"{SVG}text") if t.get("font-weight") == "bold"}
    cell = float((root.get("viewBox") or "0 0 0 0").split()[2]) / legend_columns(len(powers))
    context = cairo.Context(cairo.ImageSurface(cairo.FORMAT_ARGB32, 1, 1))

    def advance(text: ET.Element, slant: int, weight: int) -> float:
        context.select_font_face(text.get("font-family", "").split(",")[0], slant, weight)
        context.set_font_size(float(text.get("font-size", "0")))
        return float(context.text_extents(text.text)[4])

    for line in elements(svg, "power"):
        captions = [t for t in line.iter(f"{SVG}text") if t.get("font-style") == "italic"]
        if not captions:  # a name too long for its cell leaves no room: the caption is left out
            continue
        caption = captions[0]
        name = names[power_title(line.get("data-power") or "")]
        name_end = float(name.get("x", "0")) + advance(name, cairo.FONT_SLANT_NORMAL, cairo.FONT_WEIGHT_BOLD)
        start = float(caption.get("x", "0"))
        end = start + advance(caption, cairo.FONT_SLANT_ITALIC, cairo.FONT_WEIGHT_NORMAL)
        cell_end = (list(powers).index(line.get("data-power") or "") % legend_columns(len(powers)) + 1) * cell
        assert name_end + float(name.get("font-size", "0")) / 3 <= start and end <= cell_end, (
            line.get("data-power"), name_end, start, end, cell_end, caption.text)


def test_a_picture_pushed_out_of_memory_is_read_back_from_disk_not_drawn_again(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A deadline worker writes its games' pages after all their runs: the maps the first game's
    mail carried have left the memory by then, and are read back from the process's folder."""
    from judge.render import png as pictures

    drawn = pictures.Drawn()
    drawn.KEPT = 2
    monkeypatch.setattr(pictures, "DRAWN", drawn)
    composed: list[str] = []
    compose = pictures._compose
    monkeypatch.setattr(pictures, "_compose", lambda drawing, width: composed.append(drawing.frame) or
                        compose(drawing, width))
    position = position_from_data(MIDGAME)[0]
    first = render_png(position, title="First", width=300)
    for n in range(4):
        render_png(position, title=f"Later {n}", width=300)
    assert len(drawn.memory) == 2 and len(drawn.spooled) == 3
    assert render_png(position, title="First", width=300) == first
    assert len(composed) == 5  # the first picture was not drawn again
    folder = drawn.folder
    assert folder is not None and len(list(folder.iterdir())) == 3
    drawn.clear()
    assert not list(folder.iterdir()) and not drawn.memory
    render_png(position, title="First", width=300)
    assert len(composed) == 6


def test_a_picture_in_another_language_than_its_pages_is_kept_in_memory_alone(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A results mail's maps drawn for its Italian and French readers, in a game whose pages are English: the
    pages will ask for the English ones alone, which alone go to disk when memory is full; where nobody said
    which language the pages are in, every picture goes."""
    from judge.render import png as pictures

    drawn = pictures.Drawn()
    drawn.KEPT = 1
    monkeypatch.setattr(pictures, "DRAWN", drawn)
    position = position_from_data(MIDGAME)[0]
    for language in ("en", "it", "fr"):
        with reading(language, pages="en"):
            render_png(position, title="Game", width=300)
    with reading("it"):
        render_png(position, title="Another", width=300)
    render_png(position, title="Last", width=300)
    assert [key[0] for key in drawn.memory] == ["en"]
    assert len(drawn.spooled) == 2  # the game's English picture, and the other game's Italian one
    composed: list[str] = []
    compose = pictures._compose
    monkeypatch.setattr(pictures, "_compose", lambda drawing, width: composed.append(drawing.frame) or
                        compose(drawing, width))
    render_png(position, title="Game", width=300)  # the pages' picture, read back from disk
    with reading("it"):
        render_png(position, title="Another", width=300)
        render_png(position, title="Game", width=300)  # never kept
    assert len(composed) == 1


def test_pictures_in_other_languages_than_the_pages_push_none_of_the_pages_out_of_memory(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A results mail's maps for its Italian and French readers are kept apart from the pages' English ones: the
    English picture stays in memory, nothing goes to disk; a picture missed whose key's hash never went to disk is
    not looked for there (its key not even digested)."""
    from judge.render import png as pictures

    drawn = pictures.Drawn()
    drawn.KEPT = 1
    monkeypatch.setattr(pictures, "DRAWN", drawn)
    digested: list[tuple[object, ...]] = []
    digest = pictures._digest
    monkeypatch.setattr(pictures, "_digest", lambda key: digested.append(key) or digest(key))
    position = position_from_data(MIDGAME)[0]
    for language in ("en", "it", "fr"):
        with reading(language, pages="en"):
            render_png(position, title="Game", width=300)
    assert [key[0] for key in drawn.memory] == ["en"] and [key[0] for key in drawn.elsewhere] == ["fr"]
    assert drawn.folder is None and not digested
    render_png(position, title="Another", width=300)  # pushes the game's English picture out, to disk
    assert len(drawn.spooled) == 1 and len(digested) == 1
    render_png(position, title="Third", width=300)  # a miss on disk: its key's hash never went there
    assert len(drawn.spooled) == 2 and len(digested) == 2  # the one pushed out, digested to be written


def test_a_later_languages_words_reaching_into_the_body_are_refused_its_rows(monkeypatch: pytest.MonkeyPatch) -> None:
    """A language after a picture's first draws its title bar and legend over the kept body; its rows are taken
    alone only if the body's rows next to them (`BAND`) are still the body's (`judge.render.png._words_rows`): a
    mark painted into them, above the legend or under the title bar, refuses them."""
    from judge.render import png as pictures

    monkeypatch.setattr(pictures, "DRAWN", pictures.Drawn())
    monkeypatch.setattr(pictures, "BODIES", pictures._Bodies())
    render_png(position_from_data(MIDGAME)[0], title="Game", width=300)
    (body,) = pictures.BODIES.kept.values()
    for band, expected in ((None, True), (body.strips[0].band, False), (body.strips[1].band, False)):
        canvas = pictures.Canvas(body.surface)
        if band is not None:
            canvas.context.set_source_rgb(1, 0, 1)
            canvas.context.rectangle(100, band[1] - 1, 20, 1)  # on one row of the band
            canvas.context.fill()
        assert (pictures._words_rows(canvas.surface, body) is not None) is expected


def test_a_pictures_file_name_digests_each_part_of_its_key_with_its_type() -> None:
    """Keys differing in any part, or in a part's type alone (a string and a tuple whose repr it is), name
    different files; the same key the same file."""
    from judge.render.png import _digest

    key = ("en", "standard", 300, ("ENGLAND",), "<path/>")
    assert _digest(key) == _digest(tuple(key))
    others = [("it", *key[1:]), (*key[:2], 301, *key[3:]), (*key[:4], "<path />"), (*key[:3], "('ENGLAND',)", key[4]),
              (*key[:4], ("<path/>",))]
    assert len({_digest(key), *map(_digest, others)}) == 1 + len(others)


def test_the_pictures_kept_on_disk_are_bounded_by_their_bytes_the_oldest_going_first(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from judge.render import png as pictures

    drawn = pictures.Drawn()
    drawn.KEPT = 1
    monkeypatch.setattr(pictures, "DRAWN", drawn)
    position = position_from_data(MIDGAME)[0]
    sizes = [len(render_png(position, title=f"Picture {n}", width=300)) for n in range(4)]
    drawn.SPOOLED_BYTES = sizes[2] + sizes[3]  # room for the last two pushed out of memory
    drawn.put(("another",), b"x")  # pushes out the fourth: the oldest two go
    assert drawn.spooled_bytes == sizes[2] + sizes[3] == sum(drawn.spooled.values())
    assert drawn.folder is not None and len(list(drawn.folder.iterdir())) == 2
