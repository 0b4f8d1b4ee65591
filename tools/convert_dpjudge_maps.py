"""Write the variant boards' map data (``judge/engine/maps/<board>.json``) from DPjudge's map files
and the ``diplomacy`` package's.

    python tools/convert_dpjudge_maps.py DPJUDGE_MAPS [--package PACKAGE_MAPS]

``DPJUDGE_MAPS`` is a folder holding DPjudge's ``ancmed.map``, ``modern.map``, ``loeb9.map``,
``void.map``, ``youngstown.map``, ``empire.map`` and the files they use (``standard.*``,
``youngstown.*``; repository ``serrasqueiro/dpjudge``, branch ``satyr``, ``DPjudge/maps``, MIT
licence).  ``--package`` names the ``diplomacy`` package's ``maps`` folder (in a virtualenv with
the ``bench`` extra: ``site-packages/diplomacy/maps``): ``world`` and ``known_world_901``, which
DPjudge lacks, are read from it (its files are DPjudge's format), and where both have a board
(``ancmed``, ``modern``, ``empire``) the package's adjacencies, centers and homes are compared
with DPjudge's and the differences printed (DPjudge's are the ones written).  The facts of each
board are written in the judge's own format (see :mod:`judge.engine.map`); the tool was run
once and its output committed.

How DPjudge's files are read (its ``Map.py``): a ``TERRAIN LOC ABUTS ...`` line gives a
place's terrain (``WATER``, ``COAST``, ``LAND``, ``PORT``, ``SHUT``) and what it touches.  A
province with coasts has a lower-case line for the province as a whole (``COAST irn``) and
one line per coast (``COAST IRN/NC``).  In a list, a place in upper case is reached by
armies and fleets (as the terrain allows), in lower case by armies only, in Title case by
fleets only; an army moves along the lists of provinces, a fleet along those of the places
it stands in.  A trailing ``~`` marks a weak strait.  ``AMEND`` adds to a list, ``DROP``
removes a place, ``OLD -> New name = new ...`` renames a place (its old names stay
aliases), ``IN SPRING: WATER ARC`` opens a shut place in spring.  A ``PORT`` is written as
the judge's ``archipelago`` terrain, ``RULE BUILD_ANY`` as builds in any owned center, the
Payola directive ``RULE NO_DONATIONS`` as ``eliminated_may_transfer: false``, a ``DUMMY``
line under a power (Known World 901's Neutral State) as ``dummy: true``.  A power's name is
written with ``_`` for DPjudge's ``+`` and the package's ``-`` (``NEW_YORK``); its symbol is
the name's initial unless the power line names another (``INDIA (INDIAN:N)``), as DPjudge's
``Map.py`` gives it.  A place listing itself (DPjudge's Empire islands, ``COAST NEW ABUTS new``)
is no edge.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

BOARDS = ("ancmed", "modern", "loeb9", "void", "youngstown", "empire")  # read from DPjudge's files
PACKAGE_BOARDS = ("world", "known_world_901")  # read from the diplomacy package's
OUT = Path(__file__).parents[1] / "judge" / "engine" / "maps"
TERRAIN = {"WATER": "sea", "COAST": "coast", "LAND": "land", "PORT": "archipelago", "SHUT": "impassable"}
ARMY_GROUND = ("land", "coast", "archipelago")
SEASONS = {"SPRING": "S", "FALL": "F", "WINTER": "W"}
# What DPjudge's files do not say: each board's name for people, and the boards drawn as another.
TITLES = {
    "ancmed": "Ancient Mediterranean", "modern": "Modern", "loeb9": "Loeb9", "void": "Void",
    "youngstown": "Youngstown", "empire": "Empire", "world": "World", "known_world_901": "Known World 901",
}
DRAWINGS = {"void": "standard"}
POWER_NAMES = {"B.C.": "BRITISH_COLUMBIA"}  # DPjudge's Empire abbreviates it (the package names it in full)


@dataclass
class Power:
    name: str
    adjective: str
    letter: str
    homes: list[str] = field(default_factory=list)
    units: list[str] = field(default_factory=list)
    dummy: bool = False


@dataclass
class DPMap:
    """What DPjudge's ``Map.load`` keeps of a map file, for the directives these boards use."""

    names: dict[str, str] = field(default_factory=dict)  # abbreviation -> full name
    aliases: dict[str, list[str]] = field(default_factory=dict)
    kind: dict[str, str] = field(default_factory=dict)  # place (case as written) -> terrain
    abuts: dict[str, list[str]] = field(default_factory=dict)
    weak: set[tuple[str, str]] = field(default_factory=set)
    powers: dict[str, Power] = field(default_factory=dict)
    unowned: list[str] = field(default_factory=list)
    begin: str = "SPRING 1901 MOVEMENT"
    victory: int | None = None
    rules: list[str] = field(default_factory=list)
    payola_rules: list[str] = field(default_factory=list)
    opens: dict[str, list[str]] = field(default_factory=dict)  # place -> seasons it is open in

    def place(self, loc: str) -> str | None:
        """The key a place is kept under (``BUL/EC``, ``bul``, ``LON``), DPjudge's ``areatype`` lookup."""
        for key in (loc.upper(), loc.lower()):
            if key in self.kind:
                return key
        return None

    def load(self, folder: Path, name: str) -> None:
        lines = (folder / name).read_text("latin-1").splitlines()
        power: Power | None = None
        section: str | None = None  # a DIRECTIVES block
        for line in lines:
            word = line.split()
            if not word or word[0].startswith("#"):
                continue
            up = word[0].upper()
            if word[-1].upper() in ("DIRECTIVE", "DIRECTIVES"):
                section = None if up == "END" else up
                continue
            if section is not None:
                if section == "PAYOLA" and up == "RULE":
                    self.payola_rules += [w.upper() for w in word[1:]]
                continue
            if up == "IN":
                when, _, what = " ".join(word[1:]).partition(":")
                terrain, place = what.split()
                assert terrain == "WATER", line  # the place must be SHUT the rest of the year: checked in convert()
                self.opens.setdefault(place, []).append(SEASONS[when.strip().upper()])
            elif up in ("USE", "USES", "MAP"):
                for other in word[1:]:
                    self.load(folder, other if "." in other else other + ".map")
            elif up == "VICTORY":
                self.victory = int(word[1])
            elif up == "BEGIN":
                self.begin = " ".join(word[1:]).upper()
            elif up in ("RULE", "RULES"):
                self.rules += [w.upper() for w in word[1:]]
            elif up in ("FLAGS", "FLAG"):
                continue
            elif up == "DUMMY" and len(word) == 1:
                assert power is not None, line
                power.dummy = True
            elif "=" in line:
                self._name(line)
            elif up == "DROP":
                for place in word[1:]:
                    self._drop(place.upper())
            elif up in ("AMEND", *TERRAIN) and len(word) > 1:
                self._terrain(up, word)
            elif up in ("A", "F"):
                assert power is not None, line
                unit = f"{up} {word[1].upper()}"
                for other in self.powers.values():
                    other.units = [u for u in other.units if u[2:5] != unit[2:5]]
                power.units.append(unit)
            elif up in ("UNOWNED", "NEUTRAL", "CENTERS", "CENTRES"):
                power = None
                self.unowned += [w.upper() for w in word[1:]]
            else:
                power = self._power(word)

    def _name(self, line: str) -> None:
        name, _, rest = line.partition("=")
        words = rest.split()
        old, arrow, new = name.partition("->")
        if arrow:
            name = new
            self._rename(old.strip().upper(), words[0].upper())
        abbr = words[0].upper()
        if "/" in abbr:
            return  # a coast's names: the judge reads coasts itself
        self.names[abbr] = name.strip().replace("+", " ")
        kept = self.aliases.setdefault(abbr, [])
        for alias in words[1:]:
            if not re.search(r"[/()?]", alias):
                kept.append(alias.replace("+", " "))

    def _terrain(self, up: str, word: list[str]) -> None:
        place = word[1]
        other = place.swapcase()
        if other in self.kind and other != place:
            if up == "AMEND":
                self.kind[place], self.abuts[place] = self.kind[other], self.abuts[other]
            del self.kind[other]
            del self.abuts[other]
        if up != "AMEND":
            self.kind[place] = up
            self.abuts[place] = []
        assert place in self.kind, f"nothing to AMEND at {place}"
        for dest in word[3:]:
            if dest.startswith("-"):
                self.abuts[place] = [s for s in self.abuts[place] if not s.upper().startswith(dest[1:].upper())]
                continue
            if dest.endswith("~"):
                dest = dest[:-1]
                self.weak.add((place.upper()[:3], dest.upper()[:3]))
            assert dest.isalnum() or "/" in dest, f"special adjacency {dest} not understood"
            self.abuts[place].append(dest)

    def _drop(self, place: str) -> None:
        for key in [k for k in self.kind if k.upper().startswith(place)]:
            del self.kind[key]
            del self.abuts[key]
        for key in list(self.abuts):
            self.abuts[key] = [s for s in self.abuts[key] if not s.upper().startswith(place)]
        self.names.pop(place, None)
        self.aliases.pop(place, None)
        for power in self.powers.values():
            power.homes = [h for h in power.homes if h != place]
            power.units = [u for u in power.units if u[2:5] != place]
        self.unowned = [c for c in self.unowned if c != place]

    def _rename(self, old: str, new: str) -> None:
        def swap(token: str) -> str:
            if token.upper()[:3] != old:
                return token
            moved = new + token[3:].upper()
            return moved.lower() if token.islower() else moved.title() if token == token.title() else moved

        self.kind = {swap(k): v for k, v in self.kind.items()}
        self.abuts = {swap(k): [swap(s) for s in v] for k, v in self.abuts.items()}
        self.weak = {(swap(a), swap(b)) for a, b in self.weak}
        self.names.pop(old, None)
        # The old abbreviation and names stay aliases: the rename line lists them.
        self.aliases[new] = self.aliases.pop(old, [])
        for power in self.powers.values():
            power.homes = [swap(h) for h in power.homes]
            power.units = [u[:2] + swap(u[2:]) for u in power.units]
        self.unowned = [swap(c) for c in self.unowned]

    def _power(self, word: list[str]) -> Power:
        name = word[0].upper()
        name = POWER_NAMES.get(name, name.replace("+", "_").replace("-", "_"))
        rest = word[1:]
        adjective, letter = name.title().replace("_", " "), name[0]
        if rest and rest[0].startswith("("):
            nicks = rest[0].strip("()").split(":")
            adjective = nicks[0].replace("+", " ").title()
            if len(nicks) > 1 and len(nicks[1]) == 1:
                letter = nicks[1].upper()
            rest = rest[1:]
        power = self.powers.get(name)
        if power is None:
            power = self.powers[name] = Power(name, adjective, letter)
        elif word[1:2] and word[1].startswith("("):
            power.adjective, power.letter = adjective, letter
        if rest:
            power.homes = [h.upper() for h in rest]
        return power


def convert(dp: DPMap, board: str) -> dict[str, Any]:
    """The judge's data for a board read into ``dp``."""
    homes = {h for p in dp.powers.values() for h in p.homes}
    centers = homes | set(dp.unowned)
    province_keys = sorted({k.upper()[:3] for k in dp.kind})
    provinces = []
    for pid in province_keys:
        key = dp.place(pid)
        assert key is not None, pid
        coasts = sorted(k.split("/")[1] for k in dp.kind if k.startswith(pid + "/"))
        kind = dp.kind[key]
        entry: dict[str, Any] = {
            "id": pid,
            "name": dp.names[pid].title() if dp.names[pid].isupper() else dp.names[pid],
            "type": "sea" if pid in dp.opens else TERRAIN[kind],
            "center": pid in centers,
            "coasts": coasts,
            "aliases": [],
        }
        if pid in dp.opens:
            assert kind == "SHUT", f"{pid} is opened in some seasons but not shut in the others"
            entry["seasons"] = dp.opens[pid]
        provinces.append(entry)
    _aliases(dp, provinces)
    kinds = {p["id"]: p["type"] for p in provinces}
    army: set[str] = set()
    fleet: set[str] = set()
    for key, dests in dp.abuts.items():
        here = key.upper()
        for token in dests:
            there = token.upper()
            if "impassable" in (kinds[here[:3]], kinds[there[:3]]) or here[:3] == there[:3]:
                continue
            by_land = token != token.title() and kinds[there[:3]] in ARMY_GROUND and kinds[here[:3]] in ARMY_GROUND
            if "/" not in key and by_land:
                army.add(" ".join(sorted((here[:3], there[:3]))))
            # A fleet stands at upper-case keys only (a province with coasts, at a coast).
            ends = (kinds[here[:3]], kinds[there[:3]])
            by_sea = token[0].isupper() and dp.place(there) == there and "land" not in ends
            if (key.isupper() or "/" in key) and by_sea:
                fleet.add(" ".join(sorted((here, there))))
    season, year, _ = dp.begin.split()
    data: dict[str, Any] = {
        "name": board,
        "title": TITLES.get(board, board.title()),
        **({"drawing": DRAWINGS[board]} if board in DRAWINGS else {}),
        "start_year": int(year),
        "victory_centers": dp.victory or len(centers) // 2 + 1,
    }
    if SEASONS[season] != "S":
        data["start_season"] = SEASONS[season]
    if "BUILD_ANY" in dp.rules:
        data["builds"] = "owned_centers"
    if "NO_DONATIONS" in dp.payola_rules:
        data["eliminated_may_transfer"] = False
    data["powers"] = {
        p.name: {
            "letter": p.letter, "adjective": p.adjective, "home_centers": sorted(p.homes), "units": p.units,
            **({"dummy": True} if p.dummy else {}),
        }
        for p in sorted(dp.powers.values(), key=lambda p: p.name)
    }
    data["provinces"] = provinces
    data["army_edges"] = sorted(army)
    data["fleet_edges"] = sorted(fleet)
    if dp.weak:
        data["weak_edges"] = sorted({" ".join(sorted(pair)) for pair in dp.weak})
    return data


def _aliases(dp: DPMap, provinces: list[dict[str, Any]]) -> None:
    """Give each province its aliases, but none of one letter (an order keyword) or another province's name."""
    taken: dict[str, str] = {}
    for p in provinces:
        for text in (p["id"], p["name"]):
            taken[_key(text)] = p["id"]
    for p in provinces:
        for alias in dp.aliases.get(p["id"], []):
            key = _key(alias)
            if len(key) < 2 or taken.get(key, p["id"]) != p["id"]:
                print(f"  {p['id']}: alias '{alias}' left out (one letter, or another province's name)")
                continue
            if key not in taken:
                taken[key] = p["id"]
                p["aliases"].append(alias.upper() if len(alias) <= 4 and " " not in alias else alias.title())


def _key(text: str) -> str:
    return " ".join(text.upper().replace("-", " ").replace(".", " ").replace("'", "").split())


def write(data: dict[str, Any], path: Path) -> None:
    """The JSON in the layout of ``standard.json``: one power, province or edge list per line."""
    lines = ["{"]
    head = [k for k in data if k not in ("powers", "provinces", "army_edges", "fleet_edges", "weak_edges")]
    lines += [f"  {json.dumps(k)}: {json.dumps(data[k])}," for k in head]
    lines.append('  "powers": {')
    powers = [f"    {json.dumps(k)}: {json.dumps(v)}" for k, v in data["powers"].items()]
    lines.append(",\n".join(powers))
    lines.append("  },")
    lines.append('  "provinces": [')
    lines.append(",\n".join(f"    {json.dumps(p)}" for p in data["provinces"]))
    lines.append("  ],")
    tails = [k for k in ("army_edges", "fleet_edges", "weak_edges") if k in data]
    for i, key in enumerate(tails):
        comma = "," if i < len(tails) - 1 else ""
        lines.append(f"  {json.dumps(key)}: {json.dumps(data[key])}{comma}")
    lines.append("}")
    path.write_text("\n".join(lines) + "\n", "utf-8")


def compare(data: dict[str, Any], package_map: Path) -> None:
    """Print where the ``diplomacy`` package's map file differs from what was written."""
    dp = DPMap()
    dp.load(package_map.parent, package_map.name)
    theirs = convert(dp, data["name"])
    for key in ("army_edges", "fleet_edges"):
        ours_set, their_set = set(data[key]), set(theirs[key])
        if ours_set != their_set:
            only_ours, only_theirs = sorted(ours_set - their_set), sorted(their_set - ours_set)
            print(f"  {key}: only DPjudge {only_ours}; only the package {only_theirs}")
    ours_c = {p["id"] for p in data["provinces"] if p["center"]}
    their_c = {p["id"] for p in theirs["provinces"] if p["center"]}
    if ours_c != their_c:
        print(f"  centers: only DPjudge {sorted(ours_c - their_c)}; only the package {sorted(their_c - ours_c)}")
    for name, power in data["powers"].items():
        other = theirs["powers"].get(name)
        if other is None or (power["home_centers"], sorted(power["units"])) != (
            other["home_centers"],
            sorted(other["units"]),
        ):
            print(f"  {name}: DPjudge {power}; the package {other}")
    if (data["start_year"], data.get("start_season")) != (theirs["start_year"], theirs.get("start_season")):
        print(f"  first year: DPjudge {data['start_year']}, the package {theirs['start_year']}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("maps", type=Path, help="folder with DPjudge's map files")
    parser.add_argument("--package", type=Path, help="the diplomacy package's maps folder")
    args = parser.parse_args(argv)
    sources = [(board, args.maps) for board in BOARDS]
    if args.package:
        sources += [(board, args.package) for board in PACKAGE_BOARDS]
    else:
        print(f"no --package: {', '.join(PACKAGE_BOARDS)} not written")
    for board, folder in sources:
        print(f"{board}:")
        dp = DPMap()
        dp.load(folder, f"{board}.map")
        data = convert(dp, board)
        write(data, OUT / f"{board}.json")
        if args.package and folder != args.package and (args.package / f"{board}.map").exists():
            compare(data, args.package / f"{board}.map")
    return 0


if __name__ == "__main__":
    sys.exit(main())
