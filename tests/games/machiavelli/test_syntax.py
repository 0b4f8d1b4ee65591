"""The letters' syntax (M49 names, 17.1 clear orders): the lines of the players' reference, read
back from what the orders print, and the lines that are no order, each with what is wrong."""

from __future__ import annotations

import pytest

from judge.games.machiavelli.core.board import load_board
from judge.games.machiavelli.core.expenditures import (
    Allow,
    Assassinate,
    Bodyguard,
    Bribe,
    BribeKind,
    CounterBribe,
    Dismiss,
    Excommunicate,
    ForcedTax,
    LetterOrder,
    Pacify,
    Pay,
    Purchase,
    Raise,
    Sell,
    StartRebellion,
    Transfer,
)
from judge.games.machiavelli.core.orders import Advance, Besiege, Convert, Grant, Hold, Support, Transport, UnitRef
from judge.games.machiavelli.core.position import Independent, UnitKind
from judge.games.machiavelli.core.syntax import MAX_LINE, parse_letter

from .helpers import BOARD


def ref(kind: str, area: str) -> UnitRef:
    return UnitRef(UnitKind(kind), area)


GOOD: list[tuple[str, LetterOrder]] = [
    ("A Flo - Psa", Advance(ref("A", "flo"), "psa")),
    ("army Florence moves to Pisa", Advance(ref("A", "flo"), "psa")),
    ("A Flo -> Arezzo", Advance(ref("A", "flo"), "are")),
    ("A Nap - Gulf of Naples - Tunis", Advance(ref("A", "nap"), "tun", route=("gon",))),
    ("F Mar - Pro/sc", Advance(ref("F", "mar"), "pro", "sc")),
    ("F Mar - Provence (nc)", Advance(ref("F", "mar"), "pro", "nc")),
    ("F Eastern Gulf of Lyons S A Psa - Luc", Support(ref("F", "egl"), "luc", supported=ref("A", "psa"))),
    ("F egl S A psa", Support(ref("F", "egl"), "psa", supported=ref("A", "psa"))),
    ("F egl supports A psa holds", Support(ref("F", "egl"), "psa", supported=ref("A", "psa"))),
    ("F egl S Luc for France", Support(ref("F", "egl"), "luc", "France")),
    ("G Sie S Siena for independent", Support(ref("G", "sie"), "sie", Independent("sie"))),
    ("A Per S Sie", Support(ref("A", "per"), "sie")),
    ("F gon T A Nap - Tun", Transport(ref("F", "gon"), carried=ref("A", "nap"))),
    ("F gon convoy for Naples", Transport(ref("F", "gon"), "Naples")),
    ("F gon T", Transport(ref("F", "gon"))),
    ("G Flo H", Hold(ref("G", "flo"))),
    ("A Psa besiege", Besiege(ref("A", "psa"))),
    ("A Psa B", Besiege(ref("A", "psa"))),
    ("G Psa convert to A", Convert(ref("G", "psa"), UnitKind.ARMY)),
    ("G Rome conv", Convert(ref("G", "rme"), UnitKind.ARMY)),  # Rome is no port: an army (Example 5)
    ("G Nap C F", Convert(ref("G", "nap"), UnitKind.FLEET)),
    ("A Psa convert", Convert(ref("A", "psa"), UnitKind.GARRISON)),
    ("transfer 10 to Venice", Transfer("Venice", 10)),
    ("give 10 ducats to Ven", Transfer("Venice", 10)),
    ("assassinate Milan 30", Assassinate("Milan", 30)),
    ("assassinate 33d Milan", Assassinate("Milan", 33)),
    ("bodyguard 3", Bodyguard(3)),
    ("bodyguard 6 for Milan", Bodyguard(6, "Milan")),
    ("rebellion 15 Pisa", StartRebellion("psa", 15)),
    ("start a rebellion in Pisa", StartRebellion("psa")),
    ("pacify 12 Pisa", Pacify("psa", 12)),
    ("pacify rebellion in Pisa", Pacify("psa")),
    ("bribe 12 buy A Psa", Bribe(BribeKind.BUY, ref("A", "psa"), 12)),
    ("12 ducats disband army Bologna", Bribe(BribeKind.DISBAND, ref("A", "bol"), 12)),
    ("bribe 9 convert to independent G Sie", Bribe(BribeKind.INDEPENDENT, ref("G", "sie"), 9)),
    ("operate 3 G Sie", Bribe(BribeKind.OPERATE, ref("G", "sie"), 3)),
    ("counter-bribe 6 A Psa", CounterBribe(ref("A", "psa"), 6)),
    ("counter bribe 6 on A Psa", CounterBribe(ref("A", "psa"), 6)),
    ("allow Venice", Allow("Venice")),
    ("allow Venice bribe", Allow("Venice", frozenset({Grant.BRIBE}))),
    ("allow Ven to use the straits", Allow("Venice", frozenset({Grant.STRAITS}))),
    ("excommunicate Venice", Excommunicate("Venice")),
    ("crusade Turkey", Excommunicate("Turkey")),
    ("sell Pisa to Venice for 5", Sell("psa", "Venice", 5)),
    ("buy Pisa from Florence for 5", Purchase("psa", "Florence", 5)),
    ("tax Pisa", ForcedTax("psa")),
    ("forced tax Pisa", ForcedTax("psa")),
    ("pay A Psa", Pay(ref("A", "psa"))),
    ("keep F Nap", Pay(ref("F", "nap"))),
    ("disband A Psa", Dismiss(ref("A", "psa"))),
    ("raise F Napoli", Raise(UnitKind.FLEET, "nap")),
    ("build G Flo", Raise(UnitKind.GARRISON, "flo")),
]


@pytest.mark.parametrize(("line", "order"), GOOD, ids=[line for line, _ in GOOD])
def test_each_line_of_the_players_reference_reads_as_its_order(line: str, order: LetterOrder) -> None:
    assert parse_letter(line, BOARD) == ((order,), ())


@pytest.mark.parametrize("order", [order for _, order in GOOD], ids=[line for line, _ in GOOD])
def test_every_order_prints_as_a_line_that_reads_back_as_itself(order: LetterOrder) -> None:
    assert parse_letter(str(order), BOARD) == ((order,), ())


def test_M49_areas_by_code_name_or_alias_in_any_case_with_or_without_accents_spaces_and_dots() -> None:
    lines = ["F CRI H", "F Kärnten H", "F karnten H", "F Carinzia H", "F gulfofnaples H", "F Adr. Sup. H",
             "F upper adriatic H", "F Pist H"]
    orders, problems = parse_letter("\n".join(lines), BOARD)
    assert not problems
    assert [o.unit.area for o in orders] == ["cri", "cri", "cri", "cri", "gon", "uas", "uas", "pst"]


def test_17_1_headings_numbering_blank_lines_comments_and_none_are_no_orders() -> None:
    text = "Ducat expenditures:\n\n1. bodyguard 3  # for me\nexpense 2: none\n2) A Flo H\n- G Flo H\n"
    assert parse_letter(text, BOARD) == ((Bodyguard(3), Hold(ref("A", "flo")), Hold(ref("G", "flo"))), ())


BAD = [
    ("A Pis - Flo", "'pis' could be any of psa, pst: write more of the name"),
    ("A Atlantis H", "no area is called 'atlantis'"),
    ("A Flo jumps", "'jumps' is no order: H, -, S, T, B or C"),
    ("A Flo - Psa at once", "cannot read 'once'"),
    ("Flo - Psa", "no order begins so: an operation begins with A, F or G; see the syntax for the rest"),
    ("bribe buy A Psa", "a bribe needs an amount of ducats"),
    ("bribe 12 steal A Psa", "say which bribe: operate, disband, buy or independent"),
    ("transfer 10 Venice", "a transfer is written: transfer 10 to Venice"),
    ("transfer 10 to Atlantis", "no player is called 'atlantis'"),
    ("G Nap convert", "a garrison in a port city converts into A or F: say which"),
    ("frobnicate", "no order begins so: an operation begins with A, F or G; see the syntax for the rest"),
    ("assassinate Milan", "an assassination needs an amount of ducats"),
    ("F Mar - Pro/sc - Avi", "a coast is named only for the last area"),
]


@pytest.mark.parametrize(("line", "message"), BAD, ids=[line for line, _ in BAD])
def test_a_line_that_is_no_order_is_quoted_with_what_is_wrong(line: str, message: str) -> None:
    orders, problems = parse_letter(f"G Flo H\n{line}", BOARD)
    assert orders == (Hold(ref("G", "flo")),)
    assert [str(p) for p in problems] == [f'line 2 "{line}": {message}']


# -- what a letter line may hold: a reading that bounds the work a letter makes ----------------------------


def test_a_route_names_at_most_every_area_of_the_board_but_the_one_left() -> None:
    """A unit passes through each area at most once, so a route (its areas passed through and the
    one it ends in) names at most every area but the one the unit leaves: 81 - 1 = 80 on the
    classic board.  A route of 80 is read (whatever it is worth on the board); 81 is refused at
    reading, saying so, and so is anything longer."""
    assert len(BOARD.areas) == 81
    route = ["ets", "wts"] * 40
    orders, problems = parse_letter("A Are - " + " - ".join(route), BOARD)
    assert not problems and orders == (Advance(ref("A", "are"), "wts", route=tuple(route[:-1])),)
    for longer in (81, 33_159):
        line = "A Are - " + " - ".join((["ets", "wts"] * longer)[:longer])
        orders, problems = parse_letter(line, BOARD)
        assert orders == () and [p.code for p in problems] == (
            ["ROUTE_TOO_LONG"] if len(line) <= MAX_LINE else ["LINE_TOO_LONG"])


def test_a_route_too_long_is_refused_with_the_limit_quoted() -> None:
    line = "A Are-" + "-".join(["ets", "wts"] * 41)  # 82 areas, 334 characters: a line short enough
    orders, problems = parse_letter(line, BOARD)
    assert orders == () and [p.code for p in problems] == ["ROUTE_TOO_LONG"]
    assert "at most 80 areas" in problems[0].message


def test_the_longest_route_by_code_on_either_board_fits_a_line_and_prints_as_one() -> None:
    """AoP's board has 102 areas: a route of 101, by code, prints as 'A xxx' and 101 times ' - xxx',
    5 + 606 = 611 characters, within a line's 1,000, and reads back (a letter is kept as the lines
    its orders print)."""
    aop = load_board("aop")
    assert len(aop.areas) == 102
    seas = sorted(code for code, area in aop.areas.items() if not area.is_land)[:2]
    order = Advance(ref("A", "fir"), seas[1], route=tuple((seas * 51)[:100]))
    assert len(str(order)) == 611 <= MAX_LINE
    assert parse_letter(str(order), aop) == ((order,), ())


@pytest.mark.parametrize("line", [
    "A Flo H" + " " * MAX_LINE,  # padding
    "Ducat expenditures " + "x" * MAX_LINE + ":",  # a heading, skipped were it shorter
    "# " + "x" * MAX_LINE,  # a comment, likewise
])
def test_a_line_longer_than_a_thousand_characters_is_refused_whatever_it_holds(line: str) -> None:
    orders, problems = parse_letter(f"G Flo H\n{line}", BOARD)
    assert orders == (Hold(ref("G", "flo")),)
    assert [(p.number, p.code) for p in problems] == [(2, "LINE_TOO_LONG")]
    assert len(problems[0].line) <= MAX_LINE


@pytest.mark.parametrize("line", [
    "transfer 1000001 to Venice", "bribe 1000001 buy A Psa", "1000001 ducats disband army Bologna",
    "assassinate Milan " + "9" * 900, "9" * 900 + " buy A Psa", "bodyguard " + "3" * 900,
])
def test_an_amount_over_a_million_ducats_is_refused_at_reading_whatever_its_length(line: str) -> None:
    orders, problems = parse_letter(line, BOARD)
    assert orders == () and [p.code for p in problems] == ["AMOUNT_TOO_LARGE"]


@pytest.mark.parametrize("line", ["assassinate Milan " + "9" * 4_301, "9" * 4_301 + " buy A Psa"])
def test_a_number_python_would_not_read_is_a_line_refused_not_an_error(line: str) -> None:
    """Python reads no number of 4,301 digits or more (it raises): such a line is over a line's
    limit, refused as the line it is."""
    orders, problems = parse_letter(line, BOARD)
    assert orders == () and [p.code for p in problems] == ["LINE_TOO_LONG"]


def test_an_amount_of_a_million_ducats_is_read() -> None:
    assert parse_letter("transfer 1000000 to Venice\ntransfer 0001000000 to Milan", BOARD) == (
        (Transfer("Venice", 1_000_000), Transfer("Milan", 1_000_000)), ())


def test_an_order_word_after_an_area_is_never_read_as_part_of_its_name() -> None:
    """'luc', 'c' and 'a' run together spell Lucca: a garrison's conversion written 'G luc C A', as the
    judge prints it and keeps it, is the conversion, not a garrison in Lucca with no order."""
    assert parse_letter("G luc C A\nG Lucca C\nG luc convert to A", BOARD) == (
        (Convert(ref("G", "luc"), UnitKind.ARMY),) * 3, ())


@pytest.mark.parametrize("board", ["classic", "aop"])
def test_every_operation_of_every_unit_in_every_area_prints_as_a_line_that_reads_back_as_itself(board: str) -> None:
    """Every area of both boards, every kind of unit, and each operation that names only its unit (and a
    conversion into each other kind): the judge keeps a letter as the lines its orders print."""
    loaded = load_board(board)
    for area in loaded.areas:
        for kind in UnitKind:
            unit = UnitRef(kind, area)
            for order in (Hold(unit), Besiege(unit), Transport(unit), Support(unit, area),
                          *(Convert(unit, into) for into in UnitKind if into is not kind)):
                assert parse_letter(str(order), loaded) == ((order,), ()), str(order)
