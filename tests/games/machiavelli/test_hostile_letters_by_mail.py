"""Hostile letters by mail: a route longer than the board can have, a line longer than any order,
a number Python would not read, a malformed TAKEOVER that reads as a letter's heading.  Each is
refused at reading, its line quoted with why; none is quarantined, kept or echoed whole."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from sqlalchemy import MetaData, select

from judge.games.machiavelli import kind as machiavelli_kind
from judge.games.machiavelli import lifecycle
from judge.store.models import Game, InboundMail
from tests.support.harness import Judge

GM = "gm@example.org"
PLAYERS = {"Florence": "ann", "Milan": "bob", "Venice": "cy"}


def address(country: str) -> str:
    return f"{PLAYERS[country]}@example.org"


def letter(judge: Judge, country: str, *lines: str) -> None:
    judge.send(address(country), "\n".join((f"SIGNON {country}@m1 pw-{PLAYERS[country]}", *lines)))


@pytest.fixture
def judge(tmp_path: Path) -> Judge:
    """m1 in SP1454C, the first campaign letter: the spring letters sent ('none') and the phase processed."""
    found = Judge(tmp_path)
    found.confirmed(GM, *map(address, PLAYERS))
    found.send(GM, "CREATE m1 gm-pw machiavelli")
    for country, name in PLAYERS.items():
        found.send(address(country), f"JOIN m1 pw-{name} {country}")
    found.send(GM, "SIGNON MASTER@m1 gm-pw\nSTART")
    for country in PLAYERS:
        letter(found, country, "none")
    found.new_mail()
    return found


def kept(judge: Judge) -> dict[str, list[str]]:
    """Each country's letter standing in the current phase: its orders as kept."""
    with judge.db.transaction() as session:
        game = session.scalars(select(Game).where(Game.name == "m1")).one()
        assert game.phase == "SP1454C"
        return {seat: row.parsed["orders"] for seat, row in lifecycle.letters_of(session, game, game.phase).items()}


def statuses(judge: Judge) -> set[str]:
    with judge.db.transaction() as session:
        return set(session.scalars(select(InboundMail.status)))


@pytest.mark.parametrize(("line", "code"), [
    ("A are-" + "-".join(["ets", "wts"] * 41), "ROUTE_TOO_LONG"),
    ("A are - " + " - ".join((["ets", "wts"] * 16_580)[:33_159]), "LINE_TOO_LONG"),
])
def test_a_route_longer_than_the_board_is_refused_at_reading(judge: Judge, line: str, code: str) -> None:
    """The classic board has 81 areas: a route names at most 80.  A route of 82 areas, written short
    ('A are-ets-wts-...', 334 characters), is refused at reading with ROUTE_TOO_LONG; the line of
    the route of 33,159 areas (198,006 characters, within the 200,000 the judge reads of a mail)
    with LINE_TOO_LONG, quoted in part.  Neither is carried out nor charged, and as the mail holds
    no order it is no letter."""
    letter(judge, "Florence", line)
    answer = [a for a in judge.answers if a.text.startswith("A are")]
    assert [(a.outcome, a.code) for a in answer] == [("error", code)]
    assert len(answer[0].text) <= 2_010  # quoted in part: the reply does not repeat 200 kB
    assert kept(judge) == {} and statuses(judge) == {"done"}


def test_a_letter_within_the_limits_is_kept_beside_its_refused_lines(judge: Judge) -> None:
    route = "A are-" + "-".join(["ets", "wts"] * 41)
    letter(judge, "Florence", "A flo - pst", route, "transfer 1000001 to Milan", "bodyguard 3")
    assert judge.outcome_of(route) == ("error", "ROUTE_TOO_LONG")
    assert judge.outcome_of("transfer 1000001 to Milan") == ("error", "AMOUNT_TOO_LARGE")
    assert kept(judge) == {"Florence": ["A flo - pst", "bodyguard 3"]}


@pytest.mark.parametrize(("digits", "code"), [(900, "AMOUNT_TOO_LARGE"), (4_301, "LINE_TOO_LONG"),
                                              (50_000, "LINE_TOO_LONG")])
def test_a_huge_number_is_refused_at_reading_and_nothing_is_quarantined(judge: Judge, digits: int, code: str) -> None:
    """Python raises on reading a number of 4,301 digits or more; such a mail was quarantined."""
    line = f"transfer {'9' * digits} to Milan"
    letter(judge, "Florence", line)
    assert [(a.outcome, a.code) for a in judge.answers if a.text.startswith("transfer")] == [("error", code)]
    assert statuses(judge) == {"done"} and kept(judge) == {}


def test_a_malformed_takeover_ending_with_a_colon_is_no_heading_and_its_password_is_kept_nowhere(
        judge: Judge) -> None:
    """A TAKEOVER with a word too many is the host's command mistyped, answered so; it is not offered to
    the game, whose letters skip a line ending with a colon as a heading (and kept it as written, password
    and all).  Nothing the judge keeps holds the password: not the letter, not the stored mail."""
    letter(judge, "Florence", "TAKEOVER Milan@m1 sesame-4711 extra:", "A flo - pst")
    assert judge.outcome_of("TAKEOVER Milan@m1 **** ****") == ("error", "SYNTAX")
    assert kept(judge) == {"Florence": ["A flo - pst"]}
    with judge.db.transaction() as session:
        tables = MetaData()
        tables.reflect(session.connection())
        for table in tables.sorted_tables:
            for row in session.execute(select(table)):
                assert "sesame-4711" not in repr(tuple(row)), table.name


def test_a_letter_holds_at_most_a_hundred_orders_and_keeps_only_the_lines_read(judge: Judge) -> None:
    """A hundred orders are read; the hundred and first and every order line after it is refused, quoted,
    neither carried out nor charged.  What the judge keeps of the letter as written is its lines read:
    not a refused one, nor a heading."""
    letter(judge, "Florence", "Orders:", *["A flo H"] * 100, "A are H", "A flo - xyz")
    assert judge.outcomes_of("A flo H") == [("ok", "READ")] * 100
    assert judge.outcome_of("A are H") == ("error", "TOO_MANY_ORDERS")
    assert judge.outcome_of("A flo - xyz") == ("error", "UNKNOWN_AREA")
    with judge.db.transaction() as session:
        game = session.scalars(select(Game).where(Game.name == "m1")).one()
        [row] = lifecycle.letters_of(session, game, "SP1454C").values()
        assert row.parsed["orders"] == ["A flo H"] * 100 and row.text == "\n".join(["A flo H"] * 100)


def test_history_sends_a_bounded_part_of_a_long_history_and_says_how_to_ask_for_the_rest(
        judge: Judge, monkeypatch: pytest.MonkeyPatch) -> None:
    """Three phases carried out (SP1454A, SP1454C, SU1454C); with at most two phases to an answer (50 in the
    judge, made 2 here), HISTORY m1 sends the first two and the line that asks for the third; with at most
    one character (a phase at least), the first alone."""
    for _ in range(2):
        judge.send(GM, "SIGNON MASTER@m1 gm-pw\nPROCESS")
    monkeypatch.setattr(machiavelli_kind, "HISTORY_PHASES", 2)
    judge.send("reader@example.org", "HISTORY m1")
    answer = judge.last_to("reader@example.org")
    text = answer.body + "".join(data.decode() for _, data in answer.attachments.values())
    assert re.findall(r"^\s*== (\w+),", text, re.M) == ["SP1454A", "SP1454C"]
    assert "1 more phase: HISTORY m1 SU1454C" in text
    monkeypatch.setattr(machiavelli_kind, "HISTORY_CHARS", 1)
    judge.send("reader@example.org", "HISTORY m1 SP1454C-SU1454C")
    answer = judge.last_to("reader@example.org")
    text = answer.body + "".join(data.decode() for _, data in answer.attachments.values())
    assert re.findall(r"^\s*== (\w+),", text, re.M) == ["SP1454C"]
    assert "1 more phase: HISTORY m1 SU1454C" in text


def test_a_letters_orders_hold_at_most_10000_characters(judge: Judge) -> None:
    """A route of 80 areas (the most on the classic board) prints as 'A are' and 80 times ' - ets' or
    ' - wts': 5 + 480 = 485 characters.  20 of them are 9,700 characters, read; the 21st would make
    10,185, over 10,000: refused, neither carried out nor charged, and so is each after it."""
    route = "A are-" + "-".join(["ets", "wts"] * 40)
    letter(judge, "Florence", *[route] * 22)
    assert judge.outcomes_of(route) == [("ok", "READ")] * 20 + [("error", "LETTER_TOO_LONG")] * 2
    orders = kept(judge)["Florence"]
    assert len(orders) == 20 and {len(order) for order in orders} == {485}


def test_past_what_a_reply_quotes_whole_the_answers_the_letter_gives_later_are_brief_too(judge: Judge) -> None:
    """A reply quotes 30,000 characters of a mail whole, then 80 of each line and 40 of its answer,
    even an answer the letter gives once it has read every line.  The sign-on is quoted with its
    answer, 25 + 27 = 52 characters; each route of 80 areas is written in 5 + 80 x 4 = 325: the
    93rd starts at 52 + 92 x 325 = 29,952, under 30,000, and is quoted whole; the 94th starts at
    30,277 and is quoted by its first 80 characters.  The 21st route and those after are refused
    for the letter's 10,000 characters (above): in full up to the 93rd, by 40 characters after."""
    route = "A are-" + "-".join(["ets", "wts"] * 40)
    letter(judge, "Florence", *[route] * 100)
    answers = [answer for answer in judge.answers if answer.text.startswith("A are")]
    refusal = ("not read: a letter's orders hold at most 10,000 characters in all; not carried out, "
               "not charged (8.1)")
    assert [answer.text for answer in answers] == [route] * 93 + [route[:80] + " [...]"] * 7
    assert [answer.message for answer in answers[20:]] == [refusal] * 73 + [refusal[:40] + " [...]"] * 7


def test_an_order_for_a_unit_one_does_not_command_is_reported_as_written(judge: Judge) -> None:
    """The statement lists a letter's orders for units its writer did not command as written, in
    codes, whatever their length: spelled with every area's name, a letter's routes grew eightfold
    in each statement to the writer and to the game master."""
    route = "A mil - pav - cre"  # Milan's army
    letter(judge, "Florence", route)
    for country in ("Milan", "Venice"):
        letter(judge, country, "none")
    for to in (address("Florence"), GM):
        assert re.search(rf"Your orders for units you did not command:\n +{route}: ", judge.last_to(to).body)
