"""Games on the variant boards by mail (issue 25, rule 6.2): the first phase and its name, the
starting money, a phase with every power played and its results with the board's map, Void's 36
powers and its rule that an eliminated power may not transfer money, and HELP and LIST naming
the boards."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from judge.bootstrap import kinds
from judge.engine.map import load_map
from judge.service.templates import render
from tests.support.harness import Judge, start_game

GM, ALICE, BOB = "gm@example.org", "alice@example.org", "bob@example.org"


def test_rule_6_2_ancmed_game_starts_in_year_1_with_48_agp(tmp_path: Path) -> None:
    judge = Judge(tmp_path)
    judge.send(GM, "CREATE a1 gm-secret ancmed")
    judge.send(ALICE, "JOIN a1 alice-pw ROME")
    judge.send(GM, "SIGNON MASTER@a1 gm-secret\nSTART")
    start = next(m for m in judge.new_mail() if m.subject == "a1 starts" and m.to == ALICE)
    assert "Your balance: 48 AgP" in start.body  # ruling 13: 17 + 16 + 15
    judge.send(ALICE, "SIGNON R@a1 alice-pw\n0 : F NEA - TYN")  # the only player: the phase is processed
    results = next(m for m in judge.new_mail() if m.to == ALICE and m.subject == "a1 S0001M results")
    assert "F NEA - TYN" in results.body


def test_rule_6_2_ruling_13_void_initial_funds_and_no_donations(tmp_path: Path) -> None:
    judge = start_game(Judge(tmp_path), "v1", "void", ((ALICE, "ALBANIA"), (BOB, "APULIA")))
    start = next(m for m in judge.new_mail() if m.subject == "v1 starts" and m.to == ALICE)
    assert "Your balance: 9 AgP" in start.body  # one unit, no center: 17 / 2 rounded up
    # Fall 1900: Apulia takes Naples; Albania stays out of every center and loses its army in winter.
    judge.send(BOB, "SIGNON D@v1 bob-pw\n0 : A APU - NAP")
    judge.send(ALICE, "SIGNON C@v1 alice-pw\n0 : A ALB H")
    assert any(m.subject == "v1 F1900M results" for m in judge.new_mail())
    judge.send(ALICE, "SIGNON C@v1 alice-pw\nREMOVE A ALB")
    assert any(m.subject == "v1 W1900A results" for m in judge.new_mail())
    judge.send(ALICE, "SIGNON C@v1 alice-pw\nTRANSFER 5 TO D")
    assert "an eliminated power may not transfer money" in judge.new_mail()[-1].body
    judge.send(BOB, "SIGNON D@v1 bob-pw\nTRANSFER 5 TO C")
    assert "ERROR" not in judge.new_mail()[-1].body


def play_every_power(tmp_path: Path, board: str, **settings: object) -> tuple[Judge, dict[str, str]]:
    """A game on ``board`` with a player for every power, started: the judge, and each power's address."""
    judge = Judge(tmp_path, **settings)
    judge.send(GM, f"CREATE g1 gm-secret {board}")
    players = {power: f"{power.lower()}@example.org" for power in load_map(board).powers}
    for power, address in players.items():
        assert judge.send(address, f"JOIN g1 pw-{power.lower()} {power}") == "done"
    judge.send(GM, "SIGNON MASTER@g1 gm-secret\nSTART")
    return judge, players


def balances_at_start(judge: Judge, players: dict[str, str]) -> dict[str, int]:
    starts = {m.to: m.body for m in judge.new_mail() if m.subject == "g1 starts"}
    found = {}
    for power, address in players.items():
        balance = re.search(r"Your balance: (\d+) AgP", starts[address])
        assert balance is not None, starts[address]
        found[power] = int(balance.group(1))
    return found


@pytest.mark.parametrize(("board", "first", "offers", "money"), [
    # Rule 6.2, ruling 13: income counts down from one less than the victory count.
    ("modern", "S1995M", {"FRANCE": "3 : A PAR - ALS", "GERMANY": "2 : A MUN - ALS", "EGYPT": "1 : F CAI - RED"},
     {3: 32 + 31 + 30, 4: 32 + 31 + 30 + 29, 5: 32 + 31 + 30 + 29 + 28}),
    ("loeb9", "S1901M", {"SPAIN": "3 : A COR - NAF", "NORWAY": "2 : F COP - BAL", "FRANCE": "1 : A PAR - GAS"},
     {3: 19 + 18 + 17, 4: 19 + 18 + 17 + 16}),
    ("empire", "S1999M", {"TEXAS": "3 : A DAL - OKL", "HEARTLAND": "2 : A MIN - DAK", "PERU": "1 : A BOG - VIC"},
     {3: 29 + 28 + 27}),
    ("world", "S2000M", {"EUROPE": "3 : A GER - AHU", "RUSSIA": "2 : A MOS - UKR", "CHINA": "1 : A BEI - HEI"},
     {3: 43 + 42 + 41}),
    ("known_world_901", "S0901M",
     {"ARABIA": "3 : A BAG - MOS", "CHINA": "2 : A CHA - AMD", "RUSSIA": "1 : A KIE - VOL"},
     {4: 54 + 53 + 52 + 51, 49: sum(range(6, 55))}),
    ("youngstown", "S1901M",
     {"ITALY": "3 : F MOG - SOM", "CHINA": "2 : A PEK - MAN", "RUSSIA": "1 : F VLA - JAP"},
     {3: 36 + 35 + 34, 4: 36 + 35 + 34 + 33, 6: sum(range(31, 37))}),
])
def test_rule_6_2_a_game_by_mail_on_the_board_with_every_power(
        tmp_path: Path, board: str, first: str, offers: dict[str, str], money: dict[int, int]) -> None:
    """Every power joined by name, the starting balances of rule 6.2 (Modern 93, 122 and 150;
    Loeb9 54 and 70; Empire 84, World's 17 powers 126, Known World 901 210 and Youngstown 105, 138
    and 201, issue 26), a movement phase with offers, and its results with the board's map (seen by
    the first power offering)."""
    judge, players = play_every_power(tmp_path, board, maps=True, maps_default="all")  # every picture: PNG and SVG
    the_map = load_map(board)
    assert balances_at_start(judge, players) == {
        power: money[len(info.home_centers)] for power, info in the_map.powers.items()}
    for power, address in players.items():
        letter = the_map.powers[power].letter
        hold = f"0 : {the_map.powers[power].start_units[0]} H"  # a sheet makes an offer (rule 3.3, ruling 15)
        judge.send(address, f"SIGNON {letter}g1 pw-{power.lower()}\n" + offers.get(power, hold))
    results = {m.to: m for m in judge.new_mail() if m.subject == f"g1 {first} results"}
    assert set(results) == set(players.values())  # the last sheet completed the phase
    reader = results[players[next(iter(offers))]]
    for order in offers.values():
        assert order.split(" : ")[1] in reader.body
    pictures = reader.attachments
    assert {name.rsplit(".", 1)[1] for name in pictures} == {"png", "svg"}
    svg = next(data for name, (_, data) in pictures.items() if name.endswith(".svg"))
    for power in the_map.powers:  # drawn on its own board: its legend names the board's powers
        assert f">{power.replace('_', ' ').title()}<".encode() in svg, power


def test_rule_6_2_a_36_power_void_game_by_mail_works_as_a_seven_power_one(tmp_path: Path) -> None:
    """All 36 powers joined by name and signing on by their symbols (ruling 14: digits, + and *),
    each balance 9 AgP (ruling 13), every sheet in: the phase is processed and each of the 36
    gets its results, the game master the chart."""
    judge, players = play_every_power(tmp_path, "void")
    assert set(balances_at_start(judge, players).values()) == {9}
    the_map = load_map("void")
    for power, address in players.items():
        info = the_map.powers[power]
        judge.send(address, f"SIGNON {info.letter}g1 pw-{power.lower()}\n1 : {info.start_units[0]} H")
    mails = judge.new_mail()
    results = {m.to for m in mails if m.subject == "g1 F1900M results"}
    assert results == set(players.values())
    assert any(m.to == GM and m.subject == "g1 F1900M chart" for m in mails)


def test_help_and_list_name_every_board_with_its_powers_centers_and_victory(tmp_path: Path) -> None:
    judge = Judge(tmp_path)
    judge.send(ALICE, "HELP payola boards\nLIST")
    reply = judge.last_to(ALICE).body
    for summary in ("Standard: 7 powers, 34 centers, 18 to win, from S1901M",
                    "Ancient Mediterranean: 5 powers, 34 centers, 18 to win, from S0001M",
                    "Modern: 10 powers, 64 centers, 33 to win, from S1995M",
                    "Loeb9: 9 powers, 38 centers, 20 to win, from S1901M",
                    "Void: 36 powers, 34 centers, 18 to win, from F1900M",
                    "Empire: 10 powers, 58 centers, 30 to win, from S1999M",
                    "World: 17 powers, 86 centers, 44 to win, from S2000M",
                    "Known World 901: 16 powers, 109 centers, 55 to win, from S0901M",
                    "Youngstown: 10 powers, 72 centers, 37 to win, from S1901M"):
        assert reply.count(summary) == 2, summary  # once in HELP, once in LIST
    assert "Britain B, Egypt E, France F" in reply and "W Mediterranean Sea +, Yorkshire *" in reply
    assert "British Columbia B, California C, Cuba U" in reply  # issue 26: a board once it is drawn
    assert "Argentina A, Brazil B, China C, Europe E, Frozen Antarctica F" in reply  # issue 26.2: World
    assert "Arabia A, Axum X, Byzantinum B" in reply  # issue 26.2: Known World 901, drawn
    assert "Austria A, China C, England E" in reply  # issue 26.2: Youngstown, drawn
    judge.send(GM, "CREATE g2 gm-secret atlantis")
    assert ("(the boards: ancmed, empire, known_world_901, loeb9, modern, standard, void, world, youngstown;"
            in judge.last_to(GM).body)


def test_worlds_results_mail_keeps_its_center_table_to_mail_lines(tmp_path: Path) -> None:
    """World's 17 powers and 86 centers: the board and supply-center tables of the results wrap
    at a mail line's width, continued indented under their power, every center still listed."""
    judge, players = play_every_power(tmp_path, "world")
    the_map = load_map("world")
    for power, address in players.items():
        info = the_map.powers[power]
        judge.send(address, f"SIGNON {info.letter}g1 pw-{power.lower()}\n0 : {info.start_units[0]} H")
    body = next(m.body for m in judge.new_mail() if m.subject == "g1 S2000M results")
    table = body[body.index("The board for F2000M:"):body.index("Your private statement")]
    assert max(len(line) for line in table.splitlines()) <= 78
    unowned = table[table.index("  unowned (35): "):].split("\n\n")[0]
    assert len(unowned.splitlines()) > 1 and all(line.startswith("    ") for line in unowned.splitlines()[1:])
    assert set(unowned.split()[2:]) == set(the_map.supply_centers) - {
        c for info in the_map.powers.values() for c in info.home_centers}
    assert table.count(" (3): ") == 17


def test_a_power_line_of_the_board_wraps_between_units_never_inside_one() -> None:
    """A long list of units wraps at a mail line, each unit whole on one line ("F" and "BRE" of
    F BRE never on two lines: a player, or a player's program, reads the units line by line)."""
    units = [f"{kind} {province}" for kind, province in zip("AFAFFAAFAFAFFAFAAFFA" * 2, (
        "PAR", "BRE", "MAR", "STP/SC", "LON", "MUN", "BER", "KIE", "VIE", "TRI", "ROM", "NAP", "SPA/NC", "BUD",
        "SEV", "MOS", "WAR", "CON", "SMY", "ANK", "EDI", "LVP", "NWY", "SWE", "DEN", "HOL", "BEL", "POR",
        "TUN", "SER", "RUM", "BUL/EC", "GRE", "ALB", "VEN", "PIE", "TUS", "APU", "BUR", "GAS"), strict=True)]
    board = {"phase": "F1905M", "powers": [{"power": "FRANCE", "centers": ["PAR"] * 18, "units": units}],
             "dislodged": [], "unowned": [], "adjustments": []}
    kinds()  # the kinds' templates found, as a judge's are, however this test is run
    text = render("payola/results_public", view={"blind": False, "power": None, "results": [], "automatic": [],
                                                 "board": board})
    table = text[text.index("  France: "):text.index("Supply centers")].strip("\n")
    lines = table.splitlines()
    assert len(lines) > 3 and max(len(line) for line in lines) <= 78
    written = [unit for line in lines for unit in line.split(": ")[-1].strip().rstrip(",").split(", ")]
    assert written == units


def test_a_power_of_two_words_is_read_by_mail_however_its_words_are_joined(tmp_path: Path) -> None:
    """Empire's BRITISH_COLUMBIA and NEW_YORK, written as the README's board table writes them,
    as DPjudge's map files do and as the ``diplomacy`` package does."""
    judge = Judge(tmp_path)
    judge.send(GM, "CREATE e1 gm-secret empire")
    judge.send(ALICE, "JOIN e1 alice-pw British Columbia")
    judge.send(BOB, "JOIN e1 bob-pw NEW-YORK")
    assert "(you asked for British Columbia)" in judge.last_to(ALICE).body
    judge.send(GM, "SIGNON MASTER@e1 gm-secret\nSTART")
    starts = {m.to: m.body for m in judge.new_mail() if m.subject == "e1 starts"}
    assert "You play British Columbia (you asked for British Columbia)" in starts[ALICE]
    assert "You play New York (you asked for New York)" in starts[BOB]
    judge.send(BOB, "SIGNON NEW_YORK@e1 bob-pw\nPRESS TO british-columbia\nHi.\nENDPRESS")
    assert "ERROR" not in judge.last_to(BOB).body
    assert "Hi." in judge.last_to(ALICE).body
    judge.send(ALICE, "SIGNON BRITISHCOLUMBIA@e1 alice-pw\nTRANSFER 5 TO New York\nPRESS TO NEWYORK\nHello.\n"
                      "ENDPRESS\nVOTE CONCEDE new-york")
    reply = judge.last_to(ALICE).body
    assert "OK: signed on as British Columbia in e1" in reply and "ERROR" not in reply, reply
    assert "5 AgP sent to New York" in reply and "OK: press sent to New York" in reply
    assert "to concede the game to New York" in reply  # the only other survivor with a player: it has won


def test_a_power_of_two_words_is_written_with_a_space_in_accounts_and_the_end_lines_up_the_centers(
        tmp_path: Path) -> None:
    judge = Judge(tmp_path)
    judge.send(GM, "CREATE e1 gm-secret empire")
    judge.send(ALICE, "JOIN e1 alice-pw British Columbia")
    judge.send(BOB, "JOIN e1 bob-pw New York")
    judge.send(GM, "SIGNON MASTER@e1 gm-secret\nSTART")
    judge.send(ALICE, "SIGNON BRITISH_COLUMBIA@e1 alice-pw\nTRANSFER 5 TO NEW_YORK")
    judge.send(GM, "SIGNON MASTER@e1 gm-secret\nPROCESS S1999M")
    results = next(m.body for m in judge.all_mail() if m.to == BOB and m.subject == "e1 S1999M results")
    assert "     +5 AgP  transfer: from British Columbia" in results.splitlines()
    judge.send(ALICE, "SIGNON BRITISH_COLUMBIA@e1 alice-pw\nVOTE CONCEDE NEW_YORK")
    ended = next(m.body for m in judge.all_mail() if m.to == BOB and m.subject == "e1 has ended").splitlines()
    assert "  British Columbia:  3  ANC CGY VAN" in ended  # the names' column as wide as the longest name
    assert "  New York:          3  NJE NYC PHI" in ended
