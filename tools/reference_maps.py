"""Write reference pictures of the boards (SVG and PNG) to a folder, for people to look at.

    python tools/reference_maps.py [FOLDER]          # default: reference-maps/
    python tools/reference_maps.py --boards docs/    # each board's start, as docs/players/maps.md shows it

It draws the start of a game with the usual opening orders, a crowded Fall 1903 with
supports, a convoy, bounces and a dislodgement, the retreat that follows, and a winter with
builds (one refused: Brest is occupied) and a removal: each adjudicated by the engine and
drawn with its results.  With ``--boards`` it draws instead the initial position of every
board shipped (``<board>.png``, 1000 pixels wide), Machiavelli's 1454 start
(``machiavelli.png``), Absence of Plague's 1459 start (``machiavelli-aop.png``) and its crowded
Summer 1459 campaign, every power's orders drawn with their outcomes, three sieges begun, two
rebellions (``machiavelli-aop-midgame.png``: `AOP_1459`), each as a small palette PNG: the picture is
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
from judge.games.machiavelli import drawing as machiavelli
from judge.games.machiavelli.core.board import load_board
from judge.games.machiavelli.core.campaign import CampaignRecord, campaign
from judge.games.machiavelli.core.position import Position as MachiavelliPosition
from judge.games.machiavelli.core.spring import spring_letter
from judge.games.machiavelli.core.syntax import parse_letter
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


AOP_1459 = (  # Absence of Plague's first spring, its campaign and the summer's orders, every power's
    {"France": "raise A lyo\nraise F mar\nraise A avi", "Savoy": "raise A tor\nraise F niz\nraise A sav",
     "Genoa": "raise F gen\nraise A mon\nraise F vnt", "Holy Roman Empire": "raise A ste\nraise G tir\nraise F tri",
     "Milan": "tax Como\nraise A mil\nraise A pav\nraise G cre", "Venice": "raise F ven\nraise A ver\nraise A pad",
     "Ferrara": "raise A fer\nraise A bol\nraise A rav", "Florence": "raise A are\nraise A pis\nraise G fir",
     "Papacy": "raise A per\nraise A urb\nraise F anc", "Naples": "raise F nap\nraise A slr\nraise A bar",
     "Sicily": "raise F pal\nraise F mes\nraise A sir", "Dalmatia": "raise F zar\nraise A spa\nraise A fiu",
     "Turkey": "raise F dur\nraise F mal\nraise A alb"},
    {"France": "F mar - sot\nA lyo - sch\nA avi H", "Savoy": "A tor - slz\nF niz - lig\nA sav H",
     "Genoa": "rebellion Massa\nF gen - lig\nA mon H\nF vnt H", "Holy Roman Empire": "A ste - ung\nF tri - uas",
     "Milan": "A mil - com\nA pav - pia", "Venice": "A ver - man\nF ven - lag\nA pad - vic",
     "Ferrara": "A rav - smr\nA bol H\nA fer H", "Florence": "A are - sie\nA pis - pio",
     "Papacy": "A per S A are - sie\nF anc - cas\nA urb H", "Naples": "A slr - kal\nF nap - bon\nA bar - otr",
     "Sicily": "F mes - lip\nF pal - wts\nA sir H", "Dalmatia": "F zar - las\nA spa H\nA fiu - cro",
     "Turkey": "A alb - rag\nF dur - ion\nF mal - bot"},
    {"France": "F sot - wms\nA sch H\nA avi - lyo", "Savoy": "A slz B\nF lig - wts\nA sav H",
     "Genoa": "A mon - for\nF gen - mas\nF vnt - lig", "Holy Roman Empire": "A ung B\nF uas - cas",
     "Milan": "A com H\nA pia - for\nG cre H", "Venice": "A man B\nF lag - uas\nA vic - trt",
     "Ferrara": "A smr B\nA bol - luc\nA fer H", "Florence": "A sie B\nA pio B\nG fir H",
     "Papacy": "A urb S A smr\nF cas - las\nA per H", "Naples": "A kal B\nF bon H\nA otr H",
     "Sicily": "F wts - ets\nF lip H\nA sir - pal", "Dalmatia": "F las - ion\nA spa H\nA cro - sla",
     "Turkey": "A rag B\nF ion - las\nF bot - tun"},
)


def aop_midgame() -> tuple[MachiavelliPosition, CampaignRecord]:
    """AoP's Summer 1459 campaign after the letters of `AOP_1459`: before it, and its record."""
    board = load_board("aop")

    def letters(written: Mapping[str, str]) -> dict[str, Any]:
        return {power: parse_letter(text, board)[0] for power, text in written.items()}

    spring, campaign_letters, summer = AOP_1459
    after_spring = spring_letter(board, board.start, letters(spring)).position
    after_campaign = campaign(board, after_spring, letters(campaign_letters)).position
    record = campaign(board, after_campaign, letters(summer))
    return after_campaign, record


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
    board = load_board("aop")
    before, record = aop_midgame()
    picture = machiavelli.render_png(board, machiavelli.load_geometry("aop"), before, title="Absence of Plague",
                                     record=record, width=1400)
    (folder / "machiavelli-aop-midgame.png").write_bytes(small_png(picture))
    print(folder / "machiavelli-aop-midgame.png")


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
