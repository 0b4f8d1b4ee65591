"""Sanity checks on the raw standard map data file (standard.json)."""

import json
from importlib.resources import files

import pytest

MAP_PATH = files("judge.engine") / "maps" / "standard.json"  # as the judge ships it (in a source tree or installed)

SPLIT_COASTS = {"STP": {"NC", "SC"}, "SPA": {"NC", "SC"}, "BUL": {"EC", "SC"}}

SEAS = set(
    "ADR AEG BAL BAR BLA BOT EAS ENG HEL ION IRI LYO MAO NAO NTH NWG SKA TYS WES".split()
)
LAND_IDS = set(
    """ALB ANK APU ARM BEL BER BOH BRE BUD BUL BUR CLY CON DEN EDI FIN GAL GAS GRE
    HOL KIE LON LVN LVP MAR MOS MUN NAF NAP NWY PAR PIC PIE POR PRU ROM RUH RUM SER
    SEV SIL SMY SPA STP SWE SYR TRI TUN TUS TYR UKR VEN VIE WAL WAR YOR""".split()
)
INLAND = set("BOH BUD BUR GAL MOS MUN PAR RUH SER SIL TYR UKR VIE WAR".split())
CENTERS = set(
    """ANK BEL BER BRE BUD BUL CON DEN EDI GRE HOL KIE LON LVP MAR MOS MUN NAP NWY
    PAR POR ROM RUM SER SEV SMY SPA STP SWE TRI TUN VEN VIE WAR""".split()
)
HOMES = {
    "AUSTRIA": {"BUD", "TRI", "VIE"},
    "ENGLAND": {"EDI", "LON", "LVP"},
    "FRANCE": {"BRE", "MAR", "PAR"},
    "GERMANY": {"BER", "KIE", "MUN"},
    "ITALY": {"NAP", "ROM", "VEN"},
    "RUSSIA": {"MOS", "SEV", "STP", "WAR"},
    "TURKEY": {"ANK", "CON", "SMY"},
}
UNITS = {
    "AUSTRIA": {"A BUD", "A VIE", "F TRI"},
    "ENGLAND": {"F EDI", "F LON", "A LVP"},
    "FRANCE": {"F BRE", "A MAR", "A PAR"},
    "GERMANY": {"F KIE", "A BER", "A MUN"},
    "ITALY": {"F NAP", "A ROM", "A VEN"},
    "RUSSIA": {"A MOS", "A WAR", "F SEV", "F STP/SC"},
    "TURKEY": {"F ANK", "A CON", "A SMY"},
}


@pytest.fixture(scope="module")
def data():
    with MAP_PATH.open(encoding="utf-8") as fh:
        return json.load(fh)


@pytest.fixture(scope="module")
def provinces(data):
    return {p["id"]: p for p in data["provinces"]}


def _pair(a, b):
    return " ".join(sorted([a, b]))


@pytest.fixture(scope="module")
def army_set(data):
    return set(data["army_edges"])


@pytest.fixture(scope="module")
def fleet_set(data):
    return set(data["fleet_edges"])


# ---------------------------------------------------------------- header


def test_header(data):
    assert data["name"] == "standard"
    assert data["start_year"] == 1901
    assert data["victory_centers"] == 18
    assert data["title"] == "Standard"
    assert set(data) == {
        "name", "title", "start_year", "victory_centers", "powers",
        "provinces", "army_edges", "fleet_edges",
    }


def test_powers(data, provinces):
    powers = data["powers"]
    assert set(powers) == set(HOMES)
    letters = {name: p["letter"] for name, p in powers.items()}
    assert letters == {
        "AUSTRIA": "A", "ENGLAND": "E", "FRANCE": "F", "GERMANY": "G",
        "ITALY": "I", "RUSSIA": "R", "TURKEY": "T",
    }
    for name, p in powers.items():
        assert p["adjective"]
        assert set(p["home_centers"]) == HOMES[name]
        assert len(p["home_centers"]) == len(HOMES[name])
        assert set(p["units"]) == UNITS[name]
        for unit in p["units"]:
            kind, loc = unit.split()
            base = loc.split("/")[0]
            assert base in p["home_centers"]
            prov = provinces[base]
            if kind == "F":
                assert prov["type"] == "coast"
                if base in SPLIT_COASTS:
                    assert "/" in loc and loc.split("/")[1] in SPLIT_COASTS[base]
            else:
                assert kind == "A" and prov["type"] in ("coast", "land")
    all_homes = [c for p in powers.values() for c in p["home_centers"]]
    assert len(all_homes) == 22
    assert len(set(all_homes)) == 22
    assert all(provinces[c]["center"] for c in all_homes)


# ---------------------------------------------------------------- provinces


def test_province_counts(provinces, data):
    assert len(data["provinces"]) == 76
    assert len(provinces) == 76  # no duplicate ids
    non_imp = [p for p in provinces.values() if p["type"] != "impassable"]
    assert len(non_imp) == 75
    assert [p["id"] for p in provinces.values() if p["type"] == "impassable"] == ["SWI"]
    assert {p["id"] for p in provinces.values() if p["type"] == "sea"} == SEAS
    assert len(SEAS) == 19
    assert {p["id"] for p in non_imp if p["type"] != "sea"} == LAND_IDS
    assert {p["id"] for p in provinces.values() if p["type"] == "land"} == INLAND


def test_centers(provinces):
    centers = {pid for pid, p in provinces.items() if p["center"]}
    assert centers == CENTERS
    assert len(centers) == 34


def test_province_fields(provinces):
    for pid, p in provinces.items():
        assert set(p) == {"id", "name", "type", "center", "coasts", "aliases"}
        assert p["type"] in ("sea", "coast", "land", "impassable")
        assert isinstance(p["center"], bool)
        assert p["name"]
        if pid in SPLIT_COASTS:
            assert set(p["coasts"]) == SPLIT_COASTS[pid]
            assert p["type"] == "coast"
        else:
            assert p["coasts"] == []


def test_aliases_unique(provinces):
    seen = {}
    for pid, p in provinces.items():
        seen.setdefault(pid.lower(), []).append(pid)
        seen.setdefault(p["name"].lower(), []).append(pid)
    for pid, p in provinces.items():
        assert len(set(a.lower() for a in p["aliases"])) == len(p["aliases"])
        for alias in p["aliases"]:
            key = alias.lower()
            # may not equal any id or name (its own name included: redundant)
            assert key not in seen, (pid, alias, seen.get(key))
    all_aliases = [a.lower() for p in provinces.values() for a in p["aliases"]]
    assert len(all_aliases) == len(set(all_aliases))


def test_required_aliases(provinces):
    def owner(alias):
        hits = [pid for pid, p in provinces.items()
                if alias.lower() in (a.lower() for a in p["aliases"])]
        assert len(hits) == 1, (alias, hits)
        return hits[0]

    assert owner("NRG") == "NWG"
    assert owner("GOL") == "LYO"
    assert owner("MID") == "MAO"
    assert owner("NAT") == "NAO"
    assert owner("ECH") == "ENG"
    assert owner("NOR") == "NWY"
    assert owner("TYN") == "TYS"
    assert owner("Gulf of Lyons") == "LYO"
    assert owner("St. Petersburg") == "STP"


# ---------------------------------------------------------------- edges


def _check_edge_format(edges):
    assert len(edges) == len(set(edges)), "duplicate edges"
    for e in edges:
        parts = e.split(" ")
        assert len(parts) == 2, e
        a, b = parts
        assert a < b, f"unsorted or self edge: {e}"
        assert a.split("/")[0] != b.split("/")[0], f"self edge: {e}"


def test_army_edges(data, provinces):
    edges = data["army_edges"]
    _check_edge_format(edges)
    for e in edges:
        for end in e.split():
            assert "/" not in end, e
            assert end in provinces, e
            assert provinces[end]["type"] in ("coast", "land"), e


def test_fleet_edges(data, provinces):
    edges = data["fleet_edges"]
    _check_edge_format(edges)
    # no unordered duplicates even after stripping coasts
    bases = [tuple(sorted(x.split("/")[0] for x in e.split())) for e in edges]
    for e in edges:
        ends = e.split()
        for end in ends:
            base, _, coast = end.partition("/")
            assert base in provinces, e
            assert provinces[base]["type"] in ("sea", "coast"), e
            if base in SPLIT_COASTS:
                assert coast in SPLIT_COASTS[base], f"split coast without coast: {e}"
            else:
                assert coast == "", e
    # each coast of a split province reaches at least one sea
    for base, cs in SPLIT_COASTS.items():
        for c in cs:
            tok = f"{base}/{c}"
            assert any(tok in e.split() for e in edges), tok
    # every coastal province touches at least one sea
    for pid, p in provinces.items():
        if p["type"] == "coast":
            assert any(
                pid in b and provinces[b[0] if b[1] == pid else b[1]]["type"] == "sea"
                for b in bases
            ), pid


def test_coast_coast_fleet_edges_share_a_sea(data, provinces, army_set):
    adj = {}
    for e in data["fleet_edges"]:
        a, b = e.split()
        adj.setdefault(a, set()).add(b)
        adj.setdefault(b, set()).add(a)
    for e in data["fleet_edges"]:
        a, b = e.split()
        ta = provinces[a.split("/")[0]]["type"]
        tb = provinces[b.split("/")[0]]["type"]
        if ta == "coast" and tb == "coast":
            # coastal pairs must also be land neighbours
            assert _pair(a.split("/")[0], b.split("/")[0]) in army_set, e
            shared = {s for s in adj[a] & adj[b] if provinces[s]["type"] == "sea"}
            assert shared, f"coast-coast fleet edge without common sea: {e}"


def test_connected(data, provinces):
    # all non-impassable provinces reachable via army+fleet edges
    adj = {}
    for e in data["army_edges"] + data["fleet_edges"]:
        a, b = (x.split("/")[0] for x in e.split())
        adj.setdefault(a, set()).add(b)
        adj.setdefault(b, set()).add(a)
    start = "PAR"
    seen, todo = {start}, [start]
    while todo:
        for n in adj.get(todo.pop(), ()):
            if n not in seen:
                seen.add(n)
                todo.append(n)
    assert seen == {pid for pid, p in provinces.items() if p["type"] != "impassable"}


def test_switzerland_isolated(data):
    for e in data["army_edges"] + data["fleet_edges"]:
        assert "SWI" not in e.split()


# ---------------------------------------------------------------- hand-checked facts

ARMY_FACTS = [
    ("ROM", "VEN", True),
    ("APU", "ROM", True),
    ("NAP", "ROM", True),
    ("NAP", "VEN", False),
    ("NWY", "SWE", True),
    ("DEN", "KIE", True),
    ("DEN", "SWE", True),
    ("ANK", "CON", True),
    ("CON", "SMY", True),
    ("BUL", "CON", True),
    ("ANK", "SMY", True),
    ("ARM", "SYR", True),
    ("SMY", "SYR", True),
    ("ANK", "SYR", False),
    ("BOH", "GAL", True),
    ("GAL", "SIL", True),
    ("GAL", "WAR", True),
    ("GAL", "UKR", True),
    ("GAL", "RUM", True),
    ("BUD", "GAL", True),
    ("GAL", "VIE", True),
    ("GAL", "MOS", False),
    ("MUN", "TYR", True),
    ("PIE", "TYR", True),
    ("TRI", "TYR", True),
    ("TYR", "VEN", True),
    ("BUR", "MAR", True),
    ("BUR", "GAS", True),
    ("BEL", "BUR", True),
    ("BUR", "HOL", False),
    ("FIN", "NWY", True),
    ("FIN", "STP", True),
    ("LVN", "STP", True),
    ("EDI", "LVP", True),
    ("WAL", "YOR", True),
    ("LON", "LVP", False),
    ("BER", "MUN", True),
    ("KIE", "SIL", False),
    ("SER", "TRI", True),
    ("GRE", "SER", True),
    ("BUL", "SEV", False),
    ("NAF", "TUN", True),
    ("MAR", "SPA", True),
    ("GAS", "SPA", True),
    ("POR", "SPA", True),
    ("PAR", "PIC", True),
    ("BEL", "PAR", False),
    ("MOS", "SEV", True),
    ("ARM", "SEV", True),
]

FLEET_FACTS = [
    ("BAR", "STP/NC", True),
    ("BAR", "STP/SC", False),
    ("BOT", "STP/SC", True),
    ("BOT", "STP/NC", False),
    ("NWY", "STP/NC", True),
    ("FIN", "STP/SC", True),
    ("LVN", "STP/SC", True),
    ("ROM", "VEN", False),
    ("APU", "ROM", False),
    ("NAP", "ROM", True),
    ("ROM", "TUS", True),
    ("TUS", "VEN", False),
    ("APU", "VEN", True),
    ("TRI", "VEN", True),
    ("ALB", "TRI", True),
    ("ALB", "GRE", True),
    ("BLA", "BUL/EC", True),
    ("BLA", "BUL/SC", False),
    ("AEG", "BUL/SC", True),
    ("AEG", "BUL/EC", False),
    ("BUL/EC", "CON", True),
    ("BUL/SC", "CON", True),
    ("BUL/EC", "RUM", True),
    ("BUL/SC", "GRE", True),
    ("BUL/EC", "GRE", False),
    ("ANK", "CON", True),
    ("CON", "SMY", True),
    ("ANK", "SMY", False),
    ("ARM", "SYR", False),
    ("SMY", "SYR", True),
    ("GAS", "SPA/NC", True),
    ("GAS", "SPA/SC", False),
    ("MAR", "SPA/SC", True),
    ("MAR", "SPA/NC", False),
    ("MAO", "SPA/NC", True),
    ("MAO", "SPA/SC", True),
    ("LYO", "SPA/SC", True),
    ("WES", "SPA/SC", True),
    ("POR", "SPA/NC", True),
    ("POR", "SPA/SC", True),
    ("GAS", "MAR", False),
    ("DEN", "SWE", True),
    ("DEN", "KIE", True),
    ("BER", "KIE", True),
    ("HOL", "KIE", True),
    ("FIN", "NWY", False),
    ("NWY", "SWE", True),
    ("CLY", "EDI", True),
    ("EDI", "LVP", False),
    ("WAL", "YOR", False),
    ("LON", "WAL", True),
    ("NAO", "NWG", True),
    ("NAO", "NTH", False),
    ("BAL", "BOT", True),
    ("HEL", "NTH", True),
    ("HEL", "SKA", False),
    ("EAS", "ION", True),
    ("ADR", "TYS", False),
    ("ION", "TYS", True),
    ("TUN", "TYS", True),
    ("LYO", "TUS", True),
    ("ENG", "NAO", False),
    ("IRI", "MAO", True),
    ("BRE", "PIC", True),
]


@pytest.mark.parametrize("a,b,expected", ARMY_FACTS)
def test_army_fact(army_set, a, b, expected):
    assert (_pair(a, b) in army_set) is expected


@pytest.mark.parametrize("a,b,expected", FLEET_FACTS)
def test_fleet_fact(fleet_set, a, b, expected):
    assert (_pair(a, b) in fleet_set) is expected


NEIGHBOURS = {
    # fleet neighbours of seas, coasts included
    "MAO": "BRE ENG GAS IRI NAF NAO POR SPA/NC SPA/SC WES",
    "NAO": "CLY IRI LVP MAO NWG",
    "NWG": "BAR CLY EDI NAO NTH NWY",
    "NTH": "BEL DEN EDI ENG HEL HOL LON NWG NWY SKA YOR",
    "HEL": "DEN HOL KIE NTH",
    "BAL": "BER BOT DEN KIE LVN PRU SWE",
    "BOT": "BAL FIN LVN STP/SC SWE",
    "ION": "ADR AEG ALB APU EAS GRE NAP TUN TYS",
    "EAS": "AEG ION SMY SYR",
    "AEG": "BUL/SC CON EAS GRE ION SMY",
    "BLA": "ANK ARM BUL/EC CON RUM SEV",
    "WES": "LYO MAO NAF SPA/SC TUN TYS",
    "LYO": "MAR PIE SPA/SC TUS TYS WES",
    "TYS": "ION LYO NAP ROM TUN TUS WES",
}

ARMY_NEIGHBOURS = {
    "GAL": "BOH BUD RUM SIL UKR VIE WAR",
    "TYR": "BOH MUN PIE TRI VEN VIE",
    "BUR": "BEL GAS MAR MUN PAR PIC RUH",
    "MUN": "BER BOH BUR KIE RUH SIL TYR",
    "SER": "ALB BUD BUL GRE RUM TRI",
}


def _neighbours(edges, node):
    out = set()
    for e in edges:
        a, b = e.split()
        if a == node:
            out.add(b)
        elif b == node:
            out.add(a)
    return out


@pytest.mark.parametrize("sea", sorted(NEIGHBOURS))
def test_sea_neighbours(data, sea):
    assert _neighbours(data["fleet_edges"], sea) == set(NEIGHBOURS[sea].split())


@pytest.mark.parametrize("prov", sorted(ARMY_NEIGHBOURS))
def test_army_neighbours(data, prov):
    assert _neighbours(data["army_edges"], prov) == set(ARMY_NEIGHBOURS[prov].split())


# ---------------------------------------------------------------- the variant boards (rule 6.2)
#
# Each board's counts, worked out from DPjudge's map files and pages (serrasqueiro/dpjudge,
# branch satyr, DPjudge/maps and DPjudge/pages/about_*): Ancient Mediterranean has 79 places
# (one line each in ancmed.map) and five powers of three homes; Modern has 141 (140 lines,
# and Iran's province line beside its two coasts) and ten powers (Russia has five homes,
# Egypt, Poland and Spain three, the rest four); Loeb9 is the standard board less Spain
# (76 - 1) plus Arctic Ocean, Catalonia, Cordoba, Corsica, Iceland, Ireland, Kazakz,
# Madrid, Navarre, Sardinia, Siberia and Sicily (12), with 34 - 1 + 5 centers (Cordoba,
# Madrid, Ireland, Prussia, Silesia) and two powers of three homes more; Void is the
# standard board with 36 powers of one unit each and no homes.  The victory count is more
# than half the centers (none of the four names one; ruling 13), 20 on Loeb9 by its page.
#
# The big boards (issue 26).  A split-coast province has a line for itself and one per coast,
# so a board's places are its terrain lines less two per such province.  Youngstown: 198 lines
# in youngstown.geography, seven split provinces (Bulgaria, Egypt, Jordan, Nejd, Spain, St
# Petersburg, Thailand): 184 places, the four impassable ones and the twelve off-board boxes
# among them; its page: ten powers, 39 units (Russia six, China, India and Japan three, the
# others four, colonies among their homes), 72 centers, victory at 37.  Empire: 177 lines,
# eight split provinces, 161; ten powers of three homes and units, 58 centers, victory at 30
# (its page), first year 1999.  World (the diplomacy package's world.map): 214 lines, eleven
# split provinces, 192; 17 powers of three homes and units, 86 centers (51 homes, 35 unowned),
# victory 44; first year 2000.  Known World 901 (known_world_901.map): 281 lines, six split
# provinces, 269; fifteen powers of four homes and the Neutral State, a dummy with an army
# in each of its 49 centers, 109 in all, victory 55; first year 901; builds in any owned center.

from judge.engine.map import Terrain, load_map  # noqa: E402

BOARDS = {
    # board: (provinces, centers, powers, home centers, starting units, victory, first phase)
    "ancmed": (79, 34, 5, 15, 15, 18, ("S", 1)),
    "modern": (141, 64, 10, 38, 38, 33, ("S", 1995)),
    "loeb9": (87, 38, 9, 28, 28, 20, ("S", 1901)),
    "void": (76, 34, 36, 0, 36, 18, ("F", 1900)),
    "youngstown": (184, 72, 10, 39, 39, 37, ("S", 1901)),
    "empire": (161, 58, 10, 30, 30, 30, ("S", 1999)),
    "world": (192, 86, 17, 51, 51, 44, ("S", 2000)),
    "known_world_901": (269, 109, 16, 15 * 4 + 49, 15 * 4 + 49, 55, ("S", 901)),
}


@pytest.mark.parametrize("board", sorted(BOARDS))
def test_board_counts(board):
    provinces, centers, powers, homes, units, victory, first = BOARDS[board]
    game_map = load_map(board)
    assert game_map.name == board
    assert len(game_map.provinces) == provinces
    assert len(game_map.supply_centers) == centers
    assert len(game_map.powers) == powers
    assert sum(len(p.home_centers) for p in game_map.powers.values()) == homes
    assert sum(len(p.start_units) for p in game_map.powers.values()) == units
    assert game_map.victory_centers == victory == centers // 2 + 1
    assert (game_map.start_season, game_map.start_year) == first
    home = [c for p in game_map.powers.values() for c in p.home_centers]
    assert len(home) == len(set(home)) and set(home) <= game_map.supply_centers


@pytest.mark.parametrize("board", sorted(BOARDS))
def test_board_is_consistent(board):
    """Every edge is mutual and names places units can stand; the starting units stand on the board."""
    game_map = load_map(board)
    for a, dests in game_map.army_adjacency.items():
        assert all(a in game_map.army_adjacency[b] for b in dests)
        assert game_map.army_can_stand(a)
    for loc, dests in game_map.fleet_adjacency.items():
        assert all(loc in game_map.fleet_adjacency[d] for d in dests)
    from judge.engine.position import Position

    start = Position.initial(game_map)
    assert len(start.units) == BOARDS[board][4]
    assert str(start.phase) == "{}{:04d}M".format(*BOARDS[board][6])


def test_power_letters():
    """Rule 4.1 and ruling 14: the issue's letters; Void's 24 letters (no M, no O), 0-9, + and *."""
    assert "".join(sorted(load_map("ancmed").letters.values())) == "CEGPR"
    assert "".join(sorted(load_map("modern").letters.values())) == "BEFGIPRSTU"
    assert "".join(sorted(load_map("loeb9").letters.values())) == "AEFGINRST"
    youngstown = load_map("youngstown").letters
    assert "".join(sorted(youngstown.values())) == "ACEFGIJNRT" and youngstown["INDIA"] == "N"
    empire = load_map("empire").letters  # Cuba U and Mexico X by their power lines; New York N by its name
    assert "".join(sorted(empire.values())) == "BCFHNPQTUX" and (empire["CUBA"], empire["MEXICO"]) == ("U", "X")
    world = load_map("world").letters  # the Near East N, the United States U, Western Canada W, Oz Z
    assert "".join(sorted(world.values())) == "ABCEFGIKLNPQRSUWZ" and world["OZ"] == "Z"
    known = load_map("known_world_901").letters  # each named on its power line
    assert "".join(sorted(known.values())) == "ABCDEFGIKNRSTVWX" and known["NEUTRAL_STATE"] == "N"
    assert all("M" not in load_map(b).letters.values() for b in BOARDS)
    void = load_map("void").letters
    assert sorted(void.values()) == sorted("ABCDEFGHIJKLNPQRSTUVWXYZ0123456789+*")
    assert void["ADRIATIC_SEA"] == "A" and void["YORKSHIRE"] == "*" and void["W_MEDITERRANEAN_SEA"] == "+"


def test_special_terrain():
    """Baleares is the one archipelago; Loeb9's Arctic Ocean opens in spring only; its straits are weak."""
    ancmed = load_map("ancmed")
    assert [p for p, prov in ancmed.provinces.items() if prov.terrain is Terrain.ARCHIPELAGO] == ["BAL"]
    assert ancmed.provinces["BAL"].center and "BAL" not in ancmed.army_adjacency
    loeb9 = load_map("loeb9")
    assert dict(loeb9.open_seasons) == {"ARC": frozenset({"S"})}
    weak = {p: set(v) for p, v in loeb9.weak.items()}
    assert weak == {"COR": {"NAF"}, "NAF": {"COR"}, "NAP": {"SIC"}, "SIC": {"NAP"}}
    # The renamed provinces keep their standard names and abbreviations as aliases.
    assert [loeb9.province_id(old) for old in ("DEN", "Norway", "POR", "Sweden")] == ["COP", "OSL", "LIS", "STO"]
    assert load_map("void").build_anywhere and not load_map("void").eliminated_may_transfer
    modern = load_map("modern")
    assert modern.provinces["IRN"].coasts == ("NC", "SC")
    standard = load_map("standard")
    assert not standard.seasonal and not standard.weak and not standard.build_anywhere
    assert (standard.start_season, standard.eliminated_may_transfer) == ("S", True)
