"""Write reference pictures of the boards (SVG and PNG) to a folder, for people to look at.

    python tools/reference_maps.py [FOLDER]          # default: reference-maps/
    python tools/reference_maps.py --boards docs/    # each board's start, as docs/players/maps.md shows it

It draws the start of a game with the usual opening orders, a crowded Fall 1903 with
supports, a convoy, bounces and a dislodgement, the retreat that follows, and a winter with
builds (one refused: Brest is occupied) and a removal: each adjudicated by the engine and
drawn with its results.  With ``--boards`` it draws instead the initial position of every
board shipped (``<board>.png``, 1000 pixels wide), Machiavelli's 1454 start
(``machiavelli.png``) and Absence of Plague's 1459 start (``machiavelli-aop.png``), each as a
small palette PNG: the picture is
quantised to 256 colours with Pillow (which cairosvg already brings), without dithering,
and written at its strongest compression.
"""

from __future__ import annotations

import argparse
import io
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from judge.engine.map import available_maps, load_map
from judge.engine.notation import position_from_data, result_to_data
from judge.engine.phases import adjudicate
from judge.engine.position import Position
from judge.games.machiavelli import render as machiavelli
from judge.games.machiavelli.core.board import load_board
from judge.render import render_svg
from judge.render.png import render_png

BOARD_NAMES = {
    "standard": "Standard",
    "ancmed": "Ancient Mediterranean",
    "modern": "Modern",
    "loeb9": "Loeb9",
    "void": "Void",
    "empire": "Empire",
    "world": "World",
    "known_world_901": "Known World 901",
    "youngstown": "Youngstown",
}

OPENING = {
    "variant": "standard",
    "phase": "S1901M",
    "units": {
        "AUSTRIA": ["A BUD", "A VIE", "F TRI"],
        "ENGLAND": ["F EDI", "F LON", "A LVP"],
        "FRANCE": ["F BRE", "A MAR", "A PAR"],
        "GERMANY": ["F KIE", "A BER", "A MUN"],
        "ITALY": ["F NAP", "A ROM", "A VEN"],
        "RUSSIA": ["A MOS", "A WAR", "F SEV", "F STP/SC"],
        "TURKEY": ["F ANK", "A CON", "A SMY"],
    },
    "orders": {
        "AUSTRIA": ["A VIE - GAL", "A BUD - SER", "F TRI - ALB"],
        "ENGLAND": ["F LON - NTH", "F EDI - NWG", "A LVP - YOR"],
        "FRANCE": ["F BRE - MAO", "A PAR - BUR", "A MAR S A PAR - BUR"],
        "GERMANY": ["F KIE - DEN", "A BER - KIE", "A MUN - RUH"],
        "ITALY": ["F NAP - ION", "A ROM - APU", "A VEN H"],
        "RUSSIA": ["A MOS - UKR", "A WAR - GAL", "F SEV - BLA", "F STP/SC - BOT"],
        "TURKEY": ["F ANK - BLA", "A CON - BUL", "A SMY - CON"],
    },
}

MIDGAME = {
    "variant": "standard",
    "phase": "F1903M",
    "units": {
        "ENGLAND": ["F NTH", "F ENG", "A LON", "F NWY", "F NWG"],
        "FRANCE": ["A PIC", "A BUR", "F MAO", "A GAS", "A MAR", "F LYO", "A SPA"],
        "GERMANY": ["A BEL", "A RUH", "A MUN", "F HOL", "F DEN", "A KIE", "A BER"],
        "ITALY": ["A PIE", "A VEN", "F TYS", "F ION", "A TUN"],
        "AUSTRIA": ["A GAL", "A BUD", "A SER", "F GRE", "A TRI"],
        "RUSSIA": ["A WAR", "A UKR", "F SEV", "A RUM", "F BOT", "A STP"],
        "TURKEY": ["F BLA", "A BUL", "A ARM", "F AEG", "A CON"],
    },
    "centers": {
        "ENGLAND": ["LON", "EDI", "LVP", "NWY"],
        "FRANCE": ["BRE", "MAR", "PAR", "SPA", "POR"],
        "GERMANY": ["BER", "KIE", "MUN", "HOL", "DEN", "BEL"],
        "ITALY": ["NAP", "ROM", "VEN", "TUN"],
        "AUSTRIA": ["VIE", "BUD", "TRI", "SER", "GRE"],
        "RUSSIA": ["MOS", "WAR", "SEV", "STP", "RUM", "SWE"],
        "TURKEY": ["ANK", "CON", "SMY", "BUL"],
    },
    "orders": {
        "ENGLAND": ["A LON - BEL VIA CONVOY", "F NTH C A LON - BEL", "F ENG S A LON - BEL", "F NWY - SWE", "F NWG H"],
        "FRANCE": [
            "A PIC S A LON - BEL",
            "A BUR - RUH",
            "F MAO - IRI",
            "A GAS - BRE",
            "A MAR S A BUR",
            "F LYO - TYS",
            "A SPA H",
        ],
        "GERMANY": [
            "A BEL H",
            "A RUH S A BEL",
            "F HOL S A BEL",
            "A MUN - BUR",
            "F DEN - SWE",
            "A KIE H",
            "A BER - SIL",
        ],
        "ITALY": ["A PIE - MAR", "A VEN H", "F TYS S F ION", "F ION C A TUN - APU", "A TUN - APU VIA CONVOY"],
        "AUSTRIA": ["A GAL H", "A BUD S A GAL", "A SER - RUM", "F GRE H", "A TRI H"],
        "RUSSIA": ["A WAR - GAL", "A UKR - MOS", "F SEV H", "A RUM S A WAR - GAL", "F BOT - SWE", "A STP H"],
        "TURKEY": ["F BLA S A BUL - RUM", "A BUL - RUM", "A ARM - SEV", "F AEG H", "A CON - BUL"],
    },
}

WINTER = {
    "variant": "standard",
    "phase": "W1903A",
    "units": {
        "ENGLAND": ["F NTH", "F ENG", "A BEL", "F NWY"],
        "FRANCE": ["A PIC", "A BUR", "F MAO", "A BRE", "A MAR"],
        "GERMANY": ["A RUH", "A MUN", "F HOL", "F DEN", "A KIE", "A SIL"],
        "RUSSIA": ["A WAR", "A MOS", "F SEV", "F BOT", "A STP"],
        "TURKEY": ["F BLA", "A RUM", "A ARM", "F AEG", "A BUL"],
    },
    "centers": {
        "ENGLAND": ["LON", "EDI", "LVP", "NWY", "BEL"],
        "FRANCE": ["BRE", "MAR", "PAR", "SPA", "POR", "TUN"],
        "GERMANY": ["BER", "KIE", "MUN", "HOL", "DEN"],
        "RUSSIA": ["MOS", "WAR", "SEV", "STP", "SWE"],
        "TURKEY": ["ANK", "CON", "SMY", "BUL", "RUM", "GRE", "SER"],
    },
    "orders": {
        "ENGLAND": ["BUILD F LON"],
        "FRANCE": ["BUILD F BRE", "BUILD A PAR"],
        "GERMANY": ["REMOVE A SIL"],
        "TURKEY": ["BUILD A CON", "BUILD F SMY"],
    },
}


def _retreats_for(after: Mapping[str, Any]) -> dict[str, list[str]]:
    """Each dislodged unit retreats to its first option, or disbands when it has none."""
    orders: dict[str, list[str]] = {}
    for power, items in after.get("dislodged", {}).items():
        for item in items:
            options = item.get("retreats", [])
            orders.setdefault(power, []).append(f"{item['unit']} - {options[0]}" if options else f"{item['unit']} D")
    return orders


def write(folder: Path, name: str, data: Mapping[str, Any], title: str) -> dict[str, Any]:
    """Adjudicate a phase, draw it with its results as NAME.svg and NAME.png; return the result data."""
    position, orders = position_from_data(data)
    result = adjudicate(position, orders)
    (folder / f"{name}.svg").write_text(render_svg(position, result.results, title=title), "utf-8")
    (folder / f"{name}.png").write_bytes(render_png(position, result.results, title=title))
    print(folder / f"{name}.png")
    return result_to_data(result)


def small_png(png: bytes) -> bytes:
    """A picture as a 256-colour palette PNG (no dithering: flat areas stay flat), compressed hard."""
    from PIL import Image

    image = Image.open(io.BytesIO(png)).convert("RGB").quantize(256, dither=Image.Dither.NONE)
    out = io.BytesIO()
    image.save(out, "PNG", optimize=True)
    return out.getvalue()


def write_boards(folder: Path, width: int = 1000) -> None:
    """Each board's initial position as FOLDER/<board>.png, Machiavelli's 1454 start as
    FOLDER/machiavelli.png (1200 pixels wide: its 81 areas' names need the room) and Absence of
    Plague's 1459 start as FOLDER/machiavelli-aop.png (1400 pixels: its 102 areas' names, written
    in full)."""
    for name in available_maps():
        position = Position.initial(load_map(name))
        (folder / f"{name}.png").write_bytes(small_png(render_png(position, width=width, title=BOARD_NAMES.get(name))))
        print(folder / f"{name}.png")
    for board_name, file, title, pixels in (("classic", "machiavelli", "Machiavelli", 1200),
                                            ("aop", "machiavelli-aop", "Absence of Plague", 1400)):
        board = load_board(board_name)
        picture = machiavelli.render_png(board, machiavelli.load_geometry(board_name), board.start, title=title,
                                         width=pixels)
        (folder / f"{file}.png").write_bytes(small_png(picture))
        print(folder / f"{file}.png")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", nargs="?", default="reference-maps", help="where to write (default: %(default)s)")
    parser.add_argument("--boards", action="store_true", help="draw every board's start instead (docs/players/maps.md)")
    args = parser.parse_args(argv)
    folder = Path(args.folder)
    folder.mkdir(parents=True, exist_ok=True)
    if args.boards:
        write_boards(folder)
        return 0
    write(folder, "s1901m-opening", OPENING, "Reference game")
    after = write(folder, "f1903m-midgame", MIDGAME, "Reference game")
    write(folder, "f1903r-retreats", {**after, "orders": _retreats_for(after)}, "Reference game")
    write(folder, "w1903a-adjustments", WINTER, "Reference game")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
