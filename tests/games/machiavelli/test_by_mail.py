"""Machiavelli by mail through the game service: a spring's letters and its campaign played by
three players (the five other countries dummies), a summer without letters closed by the clock,
a fall, and the next spring's incomes; each player's statement checked to the ducat against
sums worked out by hand from the rules (AoP 5, 7, 8, 10, 12; rulings M12, M30, M31, M35, M50),
every line answered, and what each reader is told.

The played game (`played`, one per module) goes:

* SP1454A, the spring letters (all start with 15 ducats, AoP 3).  Venice writes ``transfer 2 to
  Milan, pay G ven, pay A pad``, then corrects it to ``pay G ven, pay A pad, pay A ver, pay F
  dal`` (the transfer stands, M35) and is refused a third letter.  Florence: ``transfer 3 to
  Milan, pay A flo, pay A are, raise A psa`` (F psa not listed: disbanded, M12; no raising where
  a unit is disbanded, 7.2), and lines that are no order.  Milan: ``pay`` its three armies,
  ``raise G mil``; its letter completes the phase.  Florence 15 - 3 - 3 - 3 = 6; Milan
  15 + 3 + 2 - 4 x 3 = 8; Venice 15 - 2 - 4 x 3 = 1; Naples (a dummy, four units paid by default,
  M50) 15 - 12 = 3.
* SP1454C.  Florence (6): ``bodyguard 3`` (D.2: 3), ``assassinate Milan 30`` (could not be paid
  in full: not carried out, not charged, M30), ``A flo - pst`` (advances), ``A are - pst`` (not
  adjacent: it holds, 9.3).  Milan (8) writes ``transfer 2 to Venice, A cre - man``, then corrects
  it to ``transfer 2 to Venice, bribe 6 disband G slz, counter-bribe 3 A mil, A cre - man``: the
  transfer repeated is not doubled; the bribe is out of reach (Saluzzo is neither in Milan's home
  country nor next to a unit of Milan, M36: not charged, M38); the counter-bribe is charged (12).  Venice
  (1): ``bodyguard 3``, paid with the 2 ducats received in D.1 (M31).  Florence 6 - 3 = 3; Milan
  8 - 2 - 3 = 3; Venice 1 + 2 - 3 = 0.
* SU1454C: Venice sends a line that is no order (not a letter); nobody else writes; reminders
  come 24 hours before the deadline, and the clock closes the phase: every unit holds (M50).
* FA1454C, closed by the clock too; then A.1 and A.2 of Spring 1455: Florence controls Arezzo,
  Florence, Pisa and Pistoia (4 provinces) and their cities Arezzo (1), Florence (3) and Pisa (1),
  and its home country (trade 4): 4 + 5 + 4 = 13 ducats, 3 + 13 = 16 (5.1, 5.2).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from judge.bootstrap import kinds
from judge.games.machiavelli import lifecycle, pictures
from judge.games.machiavelli.drawing import Geometry, GeometryError
from judge.games.machiavelli.kind import Machiavelli
from judge.language import worded
from judge.service.operators.demo import run_demo
from judge.store.models import Game, PhaseRow
from tests.support import cli
from tests.support.harness import Answer, Judge, Sent

GM = "gm@example.org"
WATCHER = "watcher@example.org"
PLAYERS = {"Florence": "ann", "Milan": "bob", "Venice": "cy"}
DUMMIES = ("Austria", "France", "Naples", "Papacy", "Turkey")


def address(country: str) -> str:
    return f"{PLAYERS[country]}@example.org"


def letter(judge: Judge, country: str, *lines: str, game: str = "m1") -> Sent:
    """Send ``lines`` as ``country``'s mail; the judge's answer to it."""
    judge.send(address(country), "\n".join((f"SIGNON {country}@{game} pw-{PLAYERS[country]}", *lines)))
    return judge.last_to(address(country))


def master(judge: Judge, *lines: str, game: str = "m1") -> Sent:
    judge.send(GM, "\n".join((f"SIGNON MASTER@{game} gm-pw", *lines)))
    return judge.last_to(GM)


def standing(played: Played, phase: str, game: str = "m1") -> dict[str, dict[str, Any]]:
    """Each country's letter standing in ``phase``, as the judge keeps it: its orders, the transfers kept from
    the first letter, and its number (2: a correction)."""
    with played.judge.db.transaction() as session:
        row = session.scalars(select(Game).where(Game.name == game)).one()
        return {seat: dict(letter.parsed) for seat, letter in lifecycle.letters_of(session, row, phase).items()}


def section(mail: Sent, country: str) -> str:
    """The part of a results mail for ``country`` alone."""
    found = re.search(rf"^For {country} alone:\n(.*?)\n\nThe public results:", mail.body, re.S | re.M)
    assert found is not None, mail.body
    return found.group(1)


def public(mail: Sent) -> str:
    """The part of a results mail that every reader receives alike (up to what the reader owes next)."""
    shown = mail.body[mail.body.index("The public results:"):]
    return re.split(r"\n\n(?:Send your|Now |The game is over)", shown)[0]


@dataclass
class Played:
    judge: Judge
    mails: dict[str, list[Sent]] = field(default_factory=dict)
    replies: dict[str, Sent] = field(default_factory=dict)
    answers: dict[str, list[Answer]] = field(default_factory=dict)

    def keep(self, name: str, reply: Sent) -> None:
        """Keep ``reply``, the judge's answer to the mail just sent, and what it made of each line, as ``name``."""
        self.replies[name] = reply
        self.answers[name] = list(self.judge.answers)

    def outcome_of(self, name: str, line: str) -> tuple[str, str | None]:
        """The outcome and code of the line ``line`` in the mail kept as ``name``."""
        found = [(a.outcome, a.code) for a in self.answers[name] if a.text == line]
        assert found, f"no answer to {line!r} in {name!r}: {[a.text for a in self.answers[name]]}"
        return found[-1]

    def step(self, name: str) -> None:
        self.mails[name] = self.judge.new_mail()

    def to(self, step: str, who: str, subject: str | None = None) -> list[Sent]:
        return [m for m in self.mails[step] if m.to == who and (subject is None or m.subject == subject)]

    def results(self, step: str, who: str, phase: str) -> Sent:
        found = self.to(step, who, f"m1 {phase} results")
        assert len(found) == 1, [m.subject for m in self.mails[step] if m.to == who]
        return found[0]


def new_game(judge: Judge, countries: tuple[str, ...] = tuple(PLAYERS), game: str = "m1") -> None:
    judge.send(GM, f"CREATE {game} gm-pw machiavelli")
    for country in countries:
        judge.send(address(country), f"JOIN {game} pw-{PLAYERS[country]} {country}")


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Played]:
    judge = Judge(tmp_path_factory.mktemp("machiavelli"))
    play = Played(judge)
    new_game(judge)
    judge.send(WATCHER, "OBSERVE m1")
    judge.new_mail()
    master(judge, "START")
    play.step("start")
    play.keep("venice 1", letter(judge, "Venice", "transfer 2 to Milan", "pay G ven", "pay A pad"))
    play.keep("venice 2", letter(judge, "Venice", "pay G ven", "pay A pad", "pay A ver", "pay F dal"))
    play.keep("venice 3", letter(judge, "Venice", "pay G ven"))
    play.keep("status", letter(judge, "Venice", "STATUS"))
    play.keep("master status", master(judge, "STATUS"))
    judge.send(WATCHER, "LIST m1")
    play.keep("list", judge.last_to(WATCHER))
    play.keep("florence A", letter(judge, "Florence", "Ducat exchanges:", "transfer 3 to Milan", "pay A flo",
                                   "pay A are", "raise A psa", "pay A xyz", "A flo - pst"))
    play.step("letters A")
    play.keep("milan A", letter(judge, "Milan", "pay A mil", "pay A pav", "pay A cre", "raise G mil"))
    play.step("SP1454A")
    play.keep("florence C", letter(judge, "Florence", "bodyguard 3", "assassinate Milan 30", "A flo - pst",
                                   "A are - pst"))
    play.keep("milan C 1", letter(judge, "Milan", "transfer 2 to Venice", "A cre - man"))
    play.keep("milan C 2", letter(judge, "Milan", "transfer 2 to Venice", "bribe 6 disband G slz",
                                  "counter-bribe 3 A mil", "A cre - man"))
    play.step("letters C")
    play.keep("venice C", letter(judge, "Venice", "bodyguard 3"))
    play.step("SP1454C")
    play.keep("gibberish", letter(judge, "Venice", "pay A xyz"))
    judge.later(96 - 24 + 1)
    judge.process("m1")
    play.step("reminders")
    judge.later(24)
    judge.process("m1")
    play.step("SU1454C")
    judge.later(96)
    judge.process("m1")
    play.step("FA1454C")
    yield play


# -- the start ------------------------------------------------------------------------------------------


def test_each_player_is_told_its_country_the_board_and_the_spring_letter_it_owes(played: Played) -> None:
    start = played.to("start", address("Venice"), "m1 starts")
    assert len(start) == 1
    body = start[0].body
    assert "You play Venice (your choice 1;" in body and "SIGNON Venice@m1 yourpassword" in body
    assert "Your treasury: 15 ducats." in body  # AoP 3: 15 ducats each
    assert "  Naples: a dummy (plays by the defaults)" in body
    assert ("  Venice: units A Padua (pad), A Verona (ver), F Dalmatia (dal), G Venice (ven)\n"
            "    10 provinces: Bergamo (ber), Brescia (bre), Dalmatia (dal), Friuli (fri), Istria (ist),\n"
            "      Padua (pad), Treviso (trv), Venice (ven), Verona (ver), Vicenza (vic)\n"
            "    4 cities: Dalmatia (dal), Padua (pad), Treviso (trv), Venice (ven)\n") in body
    assert "psa  Pisa [F1p]" in body and "pst  Pistoia" in body  # the areas' codes, as letters name them
    assert "In this first spring you may raise at most 3 units, and there is no income (3, M48)." in body
    assert "First phase: SP1454A, the spring letter of Spring 1454 (A orders); deadline 2026-01-08 12:00 UTC." in body
    assert "Without a letter: the units' salaries are paid by default" in body
    assert len(played.to("start", WATCHER, "m1 starts")) == 1
    assert "You play" not in played.to("start", WATCHER, "m1 starts")[0].body


# -- the letters: every line answered; the correction rule ----------------------------------------------


def test_each_line_of_a_letter_is_answered_with_what_it_was_read_as_or_why_not(played: Played) -> None:
    assert played.outcome_of("florence A", "transfer 3 to Milan") == ("ok", "READ")
    assert played.outcome_of("florence A", "raise A psa") == ("ok", "READ")
    assert played.outcome_of("florence A", "Ducat exchanges:") == ("ok", "SKIPPED")
    assert played.outcome_of("florence A", "pay A xyz") == ("error", "UNKNOWN_AREA")
    assert played.outcome_of("florence A", "A flo - pst") == ("error", "NOT_THIS_PHASE")  # a C order in an A letter
    assert standing(played, "SP1454A")["Florence"]["orders"] == [
        "transfer 3 to Milan", "pay A flo", "pay A are", "raise A psa"]


def test_M35_a_correction_replaces_the_first_letter_whose_transfers_stand(played: Played) -> None:
    assert played.outcome_of("venice 1", "transfer 2 to Milan") == ("ok", "READ")
    assert played.outcome_of("venice 2", "pay F dal") == ("ok", "READ")
    letter = standing(played, "SP1454A")["Venice"]  # as the correction left it: the third letter was refused
    assert letter["number"] == 2 and letter["kept"] == ["transfer 2 to Milan"]
    assert letter["orders"] == ["transfer 2 to Milan", "pay G ven", "pay A pad", "pay A ver", "pay F dal"]
    venice = section(played.results("SP1454A", address("Venice"), "SP1454A"), "Venice")
    assert "Your treasury: 15 ducats before, 1 ducat now." in venice  # 15 - 2 - 4 x 3
    assert "  -2 A.4 transfer out: transfer to Milan" in venice


def test_M35_a_third_letter_is_refused_saying_so_and_the_correction_stands(played: Played) -> None:
    assert played.outcome_of("venice 3", "pay G ven") == ("ignored", "CORRECTED_ONCE")
    venice = section(played.results("SP1454A", address("Venice"), "SP1454A"), "Venice")
    for unit in ("G Venice (ven)", "A Padua (pad)", "A Verona (ver)", "F Dalmatia (dal)"):
        assert f"pay {unit} (A.7): carried out, charged 3 ducats" in venice


def test_M35_a_transfer_the_correction_repeats_is_made_once(played: Played) -> None:
    assert standing(played, "SP1454C")["Milan"]["kept"] == []
    milan = section(played.results("SP1454C", address("Milan"), "SP1454C"), "Milan")
    assert milan.count("transfer out") == 1
    assert "Your treasury: 8 ducats before, 3 ducats now." in milan  # 8 - 2 (D.1) - 3 (D.4)


def test_status_shows_the_letter_standing_and_the_masters_status_who_has_sent_one(played: Played) -> None:
    status = played.replies["status"].body
    assert "You play Venice. Your treasury: 15 ducats." in status
    assert "Your letter (corrected: it may not be corrected again, 17.1, M35):" in status
    assert "  transfer 2 to Milan (a transfer of your first letter: it stands, 17.1)" in status
    assert "  pay F dal" in status
    masters = played.replies["master status"].body
    assert "Venice (played): letter of 5 orders, corrected" in masters
    assert "Florence (played): no letter yet" in masters and "Naples (dummy): no letter yet" in masters


def test_nobody_but_the_master_is_told_who_has_sent_a_letter(played: Played) -> None:
    listed = played.replies["list"].body
    assert "  Venice: played\n" in listed and "  Florence: played\n" in listed  # Venice has sent one, Florence not
    assert "no letter" not in listed and not re.search(r"\d+ orders?\b", listed)


def test_list_says_the_default_press_of_a_game_created_with_no_option_is_a_default(played: Played) -> None:
    """m1 was created with no option: its grey press (PRESS=GREY/WHITE) is Machiavelli's default,
    which LIST says as the pages do, not as an option its game master set."""
    assert "  options: none (by default PRESS=GREY/WHITE)\n" in played.replies["list"].body


def test_a_mail_with_no_readable_order_is_no_letter(played: Played) -> None:
    assert played.outcome_of("gibberish", "pay A xyz") == ("error", "UNKNOWN_AREA")
    assert "Venice" not in standing(played, "SU1454C")
    venice = section(played.results("SU1454C", address("Venice"), "SU1454C"), "Venice")
    assert "You sent no letter: no expenditure, and every unit holds (17.2, M50)." in venice


# -- the spring's results, to the ducat ------------------------------------------------------------------


def test_the_spring_letters_are_carried_out_as_soon_as_the_last_is_in(played: Played) -> None:
    assert not [m for m in played.mails["letters A"] if m.subject.endswith("results")]
    readers = {m.to for m in played.mails["SP1454A"] if m.subject == "m1 SP1454A results"}
    assert readers == {*map(address, PLAYERS), GM, WATCHER}


def test_7_M12_the_spring_statement_tells_each_payment_to_the_ducat(played: Played) -> None:
    florence = section(played.results("SP1454A", address("Florence"), "SP1454A"), "Florence")
    assert "Your treasury: 15 ducats before, 6 ducats now." in florence
    for line in ("  -3 A.4 transfer out: transfer to Milan", "  -3 A.7 salary: pay A Florence (flo)",
                 "  -3 A.7 salary: pay A Arezzo (are)"):
        assert line in florence
    assert ("raise A Pisa (psa) (A.7): not carried out, not charged: a unit of this province is disbanded: no unit "
            "may be raised there too (7.2, M13)" in florence)
    assert "F Pisa (psa): payment orders were sent and this unit was not listed: disbanded (7.1, M12)" in florence
    milan = section(played.results("SP1454A", address("Milan"), "SP1454A"), "Milan")
    assert "Your treasury: 15 ducats before, 8 ducats now." in milan
    assert "  +3 A.4 transfer in: transfer from Florence" in milan
    assert "  +2 A.4 transfer in: transfer from Venice" in milan
    assert "raise G Milan (mil) (A.7): carried out, charged 3 ducats" in milan


def test_M50_a_dummy_country_pays_its_units_by_default(played: Played) -> None:
    chart = played.results("SP1454A", GM, "SP1454A").body
    naples = chart[chart.index("\nNaples:\n"):chart.index("\nPapacy:\n")]
    assert "Your treasury: 15 ducats before, 3 ducats now." in naples
    assert naples.count("no payment orders: salaries paid by default") == 4


def test_the_spring_publishes_units_raised_and_disbanded_and_no_money(played: Played) -> None:
    shown = public(played.results("SP1454A", address("Florence"), "SP1454A"))
    assert "Units raised (7.2):\n  Milan G Milan (mil)" in shown
    assert "Units disbanded (7):\n  Florence F Pisa (psa)" in shown
    assert "transfer" not in shown and "ducat" not in shown
    assert "Now SP1454C, the campaign letter of Spring 1454 (C orders)" in played.results(
        "SP1454A", address("Florence"), "SP1454A").body


# -- the campaign's results, to the ducat -----------------------------------------------------------------


def test_M30_M38_each_expenditure_charged_or_not_and_why(played: Played) -> None:
    florence = section(played.results("SP1454C", address("Florence"), "SP1454C"), "Florence")
    assert "Your treasury: 6 ducats before, 3 ducats now." in florence
    assert "bodyguard 3 (D.2): carried out, charged 3 ducats: bodyguard hired" in florence
    assert ("assassinate Milan 30 (D.2): not carried out, not charged: could not be paid in full when its turn came"
            in florence)
    milan = section(played.results("SP1454C", address("Milan"), "SP1454C"), "Milan")
    assert ("bribe 6 disband G Saluzzo (slz) (D.4): not carried out, not charged: neither in the briber's home country "
            "nor adjacent to a unit that may direct the bribe" in milan)
    assert "counter-bribe 3 A Milan (mil) (D.4): carried out, charged 3 ducats: counter-bribe paid" in milan


def test_M31_ducats_received_in_D1_are_spent_in_the_same_letter(played: Played) -> None:
    venice = section(played.results("SP1454C", address("Venice"), "SP1454C"), "Venice")
    assert "Your treasury: 1 ducat before, 0 ducats now." in venice
    assert "  +2 D.1 transfer in: transfer from Milan" in venice and "  -3 D.2 expenditure: bodyguard 3" in venice


def test_9_3_each_unit_is_told_what_it_did_and_why(played: Played) -> None:
    florence = section(played.results("SP1454C", address("Florence"), "SP1454C"), "Florence")
    assert "Florence A Florence (flo) - Pistoia (pst): advanced" in florence
    assert ("Florence A Arezzo (are) - Pistoia (pst), carried out as A Arezzo (are) H: the unit cannot reach that "
            "area: it holds (9.3)" in florence)
    shown = public(played.results("SP1454C", address("Venice"), "SP1454C"))
    assert "Milan A Cremona (cre) - Mantua (man): advanced" in shown
    assert "Florence A Florence (flo) - Pistoia (pst): advanced" in shown
    assert "Held, no order given (9.2, M50): " in shown and "Independent units held, unbribed (16, M33): " in shown


def test_8_1_the_campaigns_publication_names_no_expenditure_and_no_treasury(played: Played) -> None:
    for who in (WATCHER, address("Venice")):
        shown = public(played.results("SP1454C", who, "SP1454C"))
        for secret in ("bodyguard", "assassinate", "counter-bribe", "bribe 6", "transfer", "treasury", "ducat"):
            assert secret not in shown


def test_the_public_part_of_each_results_mail_is_the_same_for_every_reader(played: Played) -> None:
    for step in ("SP1454A", "SP1454C", "SU1454C", "FA1454C"):
        mails = [played.results(step, who, step) for who in (*map(address, PLAYERS), GM, WATCHER)]
        parts = {public(mail) for mail in mails}
        assert len(parts) == 1, step
        assert all(mail.body.count(" alone:") == 1 for mail in mails[:3])
        assert " alone:" not in mails[-1].body  # the observer


# -- the clock, the defaults, the year ------------------------------------------------------------------


def test_each_player_still_owing_a_letter_is_reminded_alone(played: Played) -> None:
    reminders = [m for m in played.mails["reminders"] if m.subject == "m1 SU1454C reminder"]
    assert {m.to for m in reminders} == set(map(address, PLAYERS))
    for mail in reminders:
        others = [country for country in (*PLAYERS, *DUMMIES) if country not in mail.body]
        assert len(others) == len(PLAYERS) + len(DUMMIES) - 1
        assert "Without one: no expenditure, and every unit holds (17.2, M50)." in mail.body


def test_M50_without_letters_every_unit_holds_and_nothing_is_spent(played: Played) -> None:
    florence = section(played.results("SU1454C", address("Florence"), "SU1454C"), "Florence")
    assert "You sent no letter: no expenditure, and every unit holds (17.2, M50)." in florence
    assert "Your treasury: 3 ducats before, 3 ducats now." in florence
    shown = public(played.results("SU1454C", address("Florence"), "SU1454C"))
    assert "Held, no order given (9.2, M50): " in shown


def test_5_1_5_2_the_fall_brings_the_springs_incomes_to_each_treasury(played: Played) -> None:
    results = played.results("FA1454C", address("Florence"), "FA1454C")
    florence = section(results, "Florence")
    assert "Your treasury: 3 ducats before, 16 ducats now." in florence  # 3 + 4 provinces + 5 (cities) + 4 (trade)
    assert "  +9 A.2 tax: tax income (5.1)" in florence and "  +4 A.2 trade: trade income (5.2)" in florence
    assert "Your income in Spring 1455 (A.2): 13 ducats, tax 9 and trade 4:" in florence
    # area by area (5.1, 5.2): its four provinces, A are and A pst in two, Florence and Pisa empty and
    # its own; Arezzo's city 1, Florence's major city 3, Pisa's 1 (Pistoia has none); no fleet, no sea
    assert "  provinces 4 (1 each, 5.1): Arezzo (are), Florence (flo), Pisa (psa), Pistoia (pst)" in florence
    assert "  cities 5 (5.1): Arezzo (are) 1, Florence (flo) 3, Pisa (psa) 1" in florence
    assert "  trade 4 (5.2): the home country of Florence 4" in florence and "seas" not in florence
    shown = public(results)
    assert "Spring 1455, A.1 and A.2:" in shown and "Florence 13 (tax 9, trade 4)" in shown
    assert "Anticipated treasuries (2, A.2): " in shown
    assert "(each treasury as public information alone moves it: incomes, forced taxes and salaries" in shown
    assert "Now SP1455A, the spring letter of Spring 1455 (A orders)" in results.body


def test_a_letter_line_beginning_with_start_is_an_order_not_the_masters_start(tmp_path: Path) -> None:
    """"start rebellion" is one of the letters' ways to write a rebellion (syntax, D.3); the host's START,
    which takes nothing after it, is the game master's alone."""
    judge = Judge(tmp_path)
    new_game(judge)
    master(judge, "START")
    letter(judge, "Venice", "start rebellion 15 Pisa", "pay G ven")
    assert "read as 'rebellion 15 psa'" in judge.answer("start rebellion 15 Pisa").message
    master(judge, "START now")
    assert judge.outcome_of("START now") == ("error", "SYNTAX")


def test_a_backup_checks_every_countrys_treasury(played: Played) -> None:
    """Records.totals: what a copy of the database must keep of the game, as the fall of 1454 leaves it:
    Florence's 16 ducats (3 + 9 + 4, worked out above), and a treasury for each of the board's countries."""
    with played.judge.db.engine.connect() as connection:
        totals = Machiavelli().totals(connection)
    assert totals["m1 Florence"] == 16
    assert sorted(totals) == sorted(f"m1 {country}" for country in (*PLAYERS, *DUMMIES))


def test_the_phase_rows_keep_the_letters_as_carried_out(played: Played) -> None:
    with played.judge.db.transaction() as session:
        game = session.scalars(select(Game).where(Game.name == "m1")).one()
        row = session.scalars(select(PhaseRow).where(PhaseRow.game_id == game.id, PhaseRow.name == "SP1454C")).one()
        assert row.result is not None
        assert row.result["letters"]["Milan"] == ["transfer 2 to Venice", "bribe 6 disband G slz",
                                                  "counter-bribe 3 A mil", "A cre - man"]
        assert row.result["defaulted"] == sorted(DUMMIES)  # every country writes a letter, or gets the defaults
        assert game.phase == "SP1455A"


def test_history_gives_the_public_results_to_anyone(played: Played) -> None:
    played.judge.send(WATCHER, "HISTORY m1 SP1454C")
    history = played.judge.last_to(WATCHER)
    text = history.body + "".join(data.decode() for _, data in history.attachments.values())
    assert "== SP1454C, the campaign letter of Spring 1454 (C orders) ==" in text
    assert "Milan A Cremona (cre) - Mantua (man): advanced" in text and "bodyguard" not in text


# -- games of their own: ROLLBACK, TERMINATE, CREATE -----------------------------------------------------


def test_rollback_restores_the_board_and_the_letters_standing(tmp_path: Path) -> None:
    judge = Judge(tmp_path)
    new_game(judge, ("Florence",), "r1")
    master(judge, "START", game="r1")
    letter(judge, "Florence", "transfer 3 to Milan", game="r1")  # the one letter awaited: carried out at once
    reply = master(judge, "ROLLBACK", "SET SPRING 48", game="r1")
    assert "rolled back to SP1454A; the game is paused" in reply.body
    assert "OK: spring set to 2 days" in reply.body
    status = letter(judge, "Florence", "STATUS", game="r1").body
    assert "Your treasury: 15 ducats." in status and "  transfer 3 to Milan" in status
    master(judge, "PROCESS", game="r1")
    florence = judge.last_to(address("Florence"))
    assert florence.subject == "r1 SP1454A results again, after a rollback"  # they replace the first ones
    assert "These results replace the earlier results of SP1454A" in florence.body
    # 15 - 3 (the transfer) - 3 x 3: without A.7 orders, its three units are paid by default (M12)
    assert "Your treasury: 15 ducats before, 3 ducats now." in florence.body


def test_m63_the_end_publishes_every_letter_statement_and_grey_press_author_to_everyone(tmp_path: Path) -> None:
    """M63: once the game ends, what the rules kept secret is published to every reader: here
    Florence's spring letter (its transfer of 3 ducats to Milan, 17.1), Florence's statement of
    that phase (15 ducats before; 15 - 3 - 3 x 3 = 3 after, M12), which Milan was never sent, and
    that the grey press Milan received came from Florence."""
    judge = Judge(tmp_path)
    new_game(judge, ("Florence", "Milan"), "p1")
    master(judge, "START", game="p1")
    letter(judge, "Florence", "PRESS TO Milan", "Beware of Venice.", "ENDPRESS", game="p1")
    letter(judge, "Florence", "transfer 3 to Milan", game="p1")
    letter(judge, "Milan", "none", game="p1")  # SP1454A carried out
    spring = judge.last_to(address("Milan")).body
    assert "transfer 3 to Milan" not in spring and "Your treasury: 15 ducats before, 3 ducats now" not in spring
    judge.new_mail()
    judge.terminate(GM, "SIGNON MASTER@p1 gm-pw")
    ends = {m.to: m.body for m in judge.new_mail() if m.subject == "p1 has ended"}
    assert set(ends) == {address("Florence"), address("Milan"), GM}
    for body in ends.values():
        assert "=== SP1454A, " in body and "Florence's letter:\n  transfer 3 to Milan\n" in body
        florence = body.partition("Florence's statement:\n")[2]
        assert "Your treasury: 15 ducats before, 3 ducats now." in florence
        assert "gm-pw" not in body and "Who played which country:" in body
        assert re.search(r"Grey press, with its authors .*\n  SP1454A, 2026-01-05 \d\d:\d\d UTC: from Florence to "
                         r"Milan\n", body), body


def test_m63_an_empty_letter_is_published_as_a_letter_and_a_country_without_one_as_none(tmp_path: Path) -> None:
    """M63 publishes every letter as sent: Milan's letter ``none`` was answered as its letter of 0
    orders (17.2: an empty letter), so the end says Milan wrote a letter with no order, not that it
    sent none; Venice, a dummy, wrote nothing and played by the defaults (17.2, M50)."""
    judge = Judge(tmp_path)
    new_game(judge, ("Florence", "Milan"), "p2")
    master(judge, "START", game="p2")
    letter(judge, "Florence", "transfer 3 to Milan", game="p2")
    letter(judge, "Milan", "none", game="p2")  # SP1454A carried out
    judge.new_mail()
    judge.terminate(GM, "SIGNON MASTER@p2 gm-pw")
    end = next(m.body for m in judge.new_mail() if m.subject == "p2 has ended" and m.to == address("Florence"))
    spring = end.partition("=== SP1454A, ")[2].partition("=== ")[0]
    assert "Milan's letter: none (no order)\n" in spring, spring
    assert "Milan: no letter" not in spring
    assert "Venice: no letter (the defaults, 17.2, M50)\n" in spring, spring


def test_terminate_publishes_the_board_and_every_players_standing(tmp_path: Path) -> None:
    judge = Judge(tmp_path)
    new_game(judge, ("Florence", "Milan"), "t1")
    master(judge, "START", game="t1")
    judge.terminate(GM, "SIGNON MASTER@t1 gm-pw")
    end = judge.last_to(address("Milan"))
    assert end.subject == "t1 has ended"
    assert "Ranking (4.2: cities counted, provinces, tax income, treasury):" in end.body
    assert re.search(r"^  \d\. Milan: 3 cities, 7 provinces, tax \d+, treasury 15$", end.body, re.M), end.body


@pytest.mark.parametrize(("words", "answer"), [
    ("machiavelli aop", "created"),
    ("machiavelli atlantis", "'ATLANTIS' is not a scenario or option of Machiavelli: the scenarios are classic, aop"),
])
def test_a_game_is_created_in_a_scenario_the_board_data_names(tmp_path: Path, words: str, answer: str) -> None:
    judge = Judge(tmp_path)
    judge.send(GM, f"CREATE c1 gm-pw {words}")
    assert answer in judge.last_to(GM).body


def test_grey_press_is_the_default_and_names_no_sender(tmp_path: Path) -> None:
    judge = Judge(tmp_path)
    new_game(judge, ("Florence", "Milan"), "p1")
    master(judge, "START", game="p1")
    judge.new_mail()
    letter(judge, "Florence", "PRESS TO Milan", "Beware of Venice.", "ENDPRESS", game="p1")
    press = [m for m in judge.new_mail() if m.to == address("Milan")]
    assert [m.subject for m in press] == ["p1 grey press"]
    assert "Beware of Venice." in press[0].body and "Florence" not in press[0].body


def test_18_1_the_judge_carries_an_answer_to_grey_press_back_to_its_unnamed_sender(tmp_path: Path) -> None:
    """AoP 18.1: the judge "conceals the identities of anonymous senders and also transmits
    answers to them": grey press names its sender by a pseudonym for that reader only."""
    judge = Judge(tmp_path)
    new_game(judge, ("Florence", "Milan", "Venice"), "p2")
    master(judge, "START", game="p2")
    judge.new_mail()
    letter(judge, "Venice", "PRESS TO Florence, Milan", "Who paid the Turk?", "ENDPRESS", game="p2")
    mails = judge.new_mail()
    [to_florence] = [m for m in mails if m.to == address("Florence") and m.subject == "p2 grey press"]
    [to_milan] = [m for m in mails if m.to == address("Milan") and m.subject == "p2 grey press"]
    florences = re.findall(r"PRESS TO (ANON-[A-Z2-7]{8})\)", to_florence.body)
    milans = re.findall(r"PRESS TO (ANON-[A-Z2-7]{8})\)", to_milan.body)
    assert len(florences) == len(milans) == 1 and florences != milans  # comparing them tells nothing
    assert "Venice" not in to_florence.body
    reply = letter(judge, "Florence", f"PRESS TO {florences[0]}", "Not I.", "ENDPRESS", game="p2")
    assert f"grey press sent to {florences[0]}" in reply.body and "Venice" not in reply.body
    answered = judge.new_mail()
    [answer] = [m for m in answered if m.to == address("Venice") and m.subject == "p2 grey press"]
    assert "Not I." in answer.body and "Florence" not in answer.body
    [told] = [m for m in answered if m.to == GM and m.subject == "p2 grey press from Florence"]
    assert "also sent to Venice" in told.body and "ANON-" not in told.body  # the game master is told who is who
    assert re.search(r"PRESS TO ANON-[A-Z2-7]{8}\)", answer.body)  # and Venice may answer the answer
    refused = letter(judge, "Milan", f"PRESS TO {florences[0]}", "Me neither.", "ENDPRESS", game="p2")
    assert f"no grey press reached you from {florences[0]}" in refused.body


def test_the_page_shows_the_board_and_the_latest_public_results_and_no_secret(tmp_path: Path) -> None:
    judge = Judge(tmp_path, web=True)
    new_game(judge, ("Florence", "Milan"), "w1")
    master(judge, "START", game="w1")
    letter(judge, "Florence", "transfer 3 to Milan", "pay A flo", game="w1")
    letter(judge, "Milan", "bodyguard 3", game="w1")  # no order of the spring letter: no letter at all
    master(judge, "PROCESS", game="w1")
    page = (tmp_path / "web" / "games" / "w1" / "index.html").read_text("utf-8")
    assert "Machiavelli (classic board, 1454)" in page and "Florence: played" in page
    assert "The results of SP1454A, the spring letter of Spring 1454 (A orders)" in page
    assert "Florence F Pisa (psa)" in page and "Florence A Arezzo (are)" in page  # disbanded: not listed (M12)
    assert not re.search(r"transfer \d|Your treasury|\d ducat|bodyguard|letter of \d", page)
    # the year's public money (A.2, 2): no income in the first spring (3); Florence pays A flo alone
    # (3), Milan's letter has no A order, so its three units are paid by default (9, M50): anticipated
    # 15 - 3 = 12 and 15 - 9 = 6; Florence's transfer of 3 is secret (8.1): its treasury is 9, not told
    assert "Each country&#39;s money, year by year" in page or "Each country's money, year by year" in page
    assert re.search(r"^  Florence +0 +0 +3 +12$", page, re.M) and re.search(r"^  Milan +0 +0 +9 +6$", page, re.M)
    assert '<img src="board.svg"' in page
    svg = (tmp_path / "web" / "games" / "w1" / "board.svg").read_text("utf-8")
    assert 'data-area="flo"' in svg and "w1" in svg
    index = (tmp_path / "web" / "index.html").read_text("utf-8")
    assert "w1" in index and "Machiavelli" in index


def test_help_gives_the_letters_syntax_and_get_info_the_rules_followed(tmp_path: Path) -> None:
    judge = Judge(tmp_path)
    judge.send(WATCHER, "HELP machiavelli")
    summary = judge.last_to(WATCHER).body
    assert "=== Machiavelli, Absence of Plague (CREATE game password machiavelli [scenario]) ===" in summary
    assert "SP1454A" in summary and "SP1459A" in summary  # the phases' names on either board
    judge.send(WATCHER, "HELP machiavelli create")
    assert "  classic: Machiavelli (classic board, 1454), 8 countries" in judge.last_to(WATCHER).body
    judge.send(WATCHER, "HELP machiavelli syntax")
    help_text = judge.last_to(WATCHER)
    text = help_text.body + "".join(data.decode() for _, data in help_text.attachments.values())
    assert "bribe 12 buy A Psa" in text and "sell Pisa to Venice for 5" in text  # the core's syntax, whole
    new_game(judge, ("Florence",), "i1")
    judge.send(WATCHER, "GET INFO i1")
    info = judge.last_to(WATCHER).body
    assert "corrected once at most before the deadline, its ducat transfers standing (17.1, M35)" in info
    assert "press is grey (anonymous) by default (18.1)" in info


def test_a_player_taking_over_a_dummy_country_is_briefed_with_the_board_its_map_and_its_last_statement(
        tmp_path: Path) -> None:
    """Naples, a dummy, paid its four units by default in the spring (15 - 4 x 3 = 3 ducats, M50); its
    new player is told that statement, the board as it stands (public: every country's units and
    provinces) with its map, and nothing of Florence's letter or treasury."""
    judge = Judge(tmp_path, maps=draws_maps())
    new_game(judge, ("Florence",), "k1")
    master(judge, "START", game="k1")
    letter(judge, "Florence", "transfer 2 to Milan", "pay A flo", game="k1")  # the spring is carried out at once
    master(judge, "SET OPENING Naples", game="k1")
    judge.send("dee@example.org", "TAKEOVER Naples@k1 pw-dee")
    [briefing] = [m for m in judge.all_mail() if m.subject == "k1: your briefing as Naples"]
    body = briefing.body
    assert briefing.to == "dee@example.org"
    assert "You play Naples. Your treasury: 3 ducats." in body
    assert "Your units: A Bari (bar), A Messina (mes), F Naples (nap), F Palermo (pal)" in body
    assert "Your statement of SP1454A, the spring letter of Spring 1454 (A orders):" in body
    assert "Your treasury: 15 ducats before, 3 ducats now." in body
    assert "pay A Bari (bar) (A.7): carried out, charged 3 ducats: no payment orders: salaries paid by default" in body
    assert "The board, Spring 1454:" in body
    assert "  Naples: units A Bari (bar), A Messina (mes), F Naples (nap), F Palermo (pal)" in body
    assert "transfer 2" not in body and "Florence alone" not in body  # Florence's letter and money stay its own
    if draws_maps():
        assert sorted(briefing.attachments) == ["k1-SP1454C.png"]  # the board: a briefing has no orders


def test_18_3_an_eliminated_player_may_lead_another_country_as_its_substitute_a_living_one_may_not(
        tmp_path: Path) -> None:
    """AoP 18.3: a substitute leader "cannot be a leader of another major power which still is in
    the game, but rather a player who has already been eliminated from it" (4.3)."""
    judge = Judge(tmp_path)
    new_game(judge, ("Florence", "Milan"), "k2")
    master(judge, "START", "SET OPENING Naples", game="k2")
    judge.send(address("Milan"), "TAKEOVER Naples@k2 pw-bob2")
    assert "you already play in this game" in judge.last_to(address("Milan")).body
    with judge.db.transaction() as session:  # Florence eliminated in the last campaign (4.3)
        game = session.scalars(select(Game).where(Game.name == "k2")).one()
        row = session.scalars(select(PhaseRow).where(PhaseRow.game_id == game.id, PhaseRow.name == "SP1454A")).one()
        row.position = {**row.position, "eliminated": {"Florence": "Spring 1454"}}
    judge.send(address("Florence"), "TAKEOVER Naples@k2 pw-ann2")
    assert any("you now play Naples in k2" in m.body for m in judge.all_mail() if m.to == address("Florence"))


def draws_maps() -> bool:
    """Whether the judge draws maps here (the Cairo library loads)."""
    try:
        import judge.render.png  # noqa: F401
    except (ImportError, OSError):
        return False
    return True


@pytest.fixture(scope="module")
def demo_output() -> str:
    """What ``judge demo machiavelli`` prints (played once: it runs a judge by SMTP)."""
    return cli.demo_output(kind="machiavelli")


def test_judge_demo_machiavelli_plays_a_spring_and_a_campaign_by_smtp(demo_output: str) -> None:
    assert "OK: read as: transfer 3 to Milan" in demo_output
    assert "Kept from your first letter: transfer 2 to Milan" in demo_output  # M35
    assert "Your treasury: 15 ducats before, 6 ducats now." in demo_output  # Florence's spring
    assert "assassinate Milan 30 (D.2): not carried out, not charged" in demo_output  # M30
    assert "Your treasury: 6 ducats before, 3 ducats now." in demo_output  # Florence's campaign
    assert "Milan A Cremona (cre) - Mantua (man): advanced" in demo_output
    assert "For Milan alone" not in demo_output and "For Venice alone" not in demo_output
    if draws_maps():
        assert "Attached: demo-spring-1454-orders.png (the campaign's orders" in demo_output  # one picture


@pytest.fixture(scope="module")
def aop_demo_output() -> str:
    """What ``judge demo machiavelli aop`` prints (played once: it runs a judge by SMTP)."""
    return cli.demo_output(kind="machiavelli", scenario="aop")


def test_judge_demo_machiavelli_aop_plays_the_first_spring_of_1459_and_its_campaign_by_smtp(
        aop_demo_output: str) -> None:
    # Milan: 15 + 3 (the Empire's gift, A.4) - 4 (Pontremoli, A.5) + 1 (Como taxed by force, A.6)
    # - 3 x 3 (three units raised, A.7; no income in the first spring: M48) = 6; then a
    # counter-bribe of 3: 6 - 3 = 3
    assert "Your treasury: 15 ducats before, 6 ducats now." in aop_demo_output
    assert "  -4 A.5 purchase: Pontremoli (pon) bought from Savoy" in aop_demo_output
    assert "Your treasury: 6 ducats before, 3 ducats now." in aop_demo_output
    assert "Milan A Pavia (pav) is now independent" in aop_demo_output  # Savoy's 12 beat the counter-bribe of 3 (12)
    assert "Holy Roman Empire A Steiermark (ste)" in aop_demo_output and "Austria" not in aop_demo_output
    assert "For Savoy alone" not in aop_demo_output
    if draws_maps():
        assert "Attached: plague-spring-1459-orders.png (the campaign's orders" in aop_demo_output  # one picture


def test_judge_demo_refuses_a_scenario_its_kind_does_not_play(capsys: pytest.CaptureFixture[str]) -> None:
    assert run_demo(kinds(), kind="machiavelli", scenario="1066") == 2
    assert "has no scenario '1066' to play (its demo plays: classic, aop)" in capsys.readouterr().out


def test_4_2_a_victory_ends_the_game_with_the_ranking_in_every_mail(tmp_path: Path) -> None:
    judge = Judge(tmp_path)
    new_game(judge, ("Florence", "Milan"), "v1")
    master(judge, "START", game="v1")
    letter(judge, "Florence", "none", game="v1")
    letter(judge, "Milan", "none", game="v1")  # SP1454A carried out: SP1454C awaits the campaign letters
    cities = ["flo", "are", "psa", "cor", "crn", "cro", "sar", "trv", "tur", "avi", "mar", "swi", "bar", "nap",
              "pal"]  # 15 cities with their provinces, Florence among them (4.2, M6)
    with judge.db.transaction() as session:
        game = session.scalars(select(Game).where(Game.name == "v1")).one()
        row = session.scalars(select(PhaseRow).where(PhaseRow.game_id == game.id, PhaseRow.name == "SP1454C")).one()
        row.position = {"season": "Spring 1454", "phase": "C",
                        "units": [["Florence", "A", "flo"], ["Milan", "A", "mil"]],
                        "control": {**dict.fromkeys(cities, "Florence"), "mil": "Milan"},
                        "treasuries": {"Florence": 4, "Milan": 7}}
    judge.new_mail()
    master(judge, "PROCESS", game="v1")
    milans = [m for m in judge.new_mail() if m.to == address("Milan")]
    assert [m.subject for m in milans] == ["v1 SP1454C results", "v1 has ended"]
    milan, end = milans
    assert "Game v1 has ended: won by Florence in Spring 1454." in end.body and "Ranking" in end.body
    assert "Victory (4.2): Florence wins." in milan.body and "The game is over." in milan.body
    assert re.search(r"^  1\. Florence: 15 cities, 15 provinces, tax \d+, treasury 4$", milan.body, re.M)
    with judge.db.transaction() as session:
        game = session.scalars(select(Game).where(Game.name == "v1")).one()
        assert (game.state, game.winner, worded(game.settings["result"])) == ("finished", "Florence",
                                                                      "won by Florence in Spring 1454")


def test_a_campaigns_mail_carries_its_operations_and_the_board_as_maps(tmp_path: Path) -> None:
    if not draws_maps():
        pytest.skip("the Cairo library does not load here: no map is drawn")
    judge = Judge(tmp_path, maps=True, maps_default="all")  # every picture (SET MAPS ALL)
    new_game(judge, ("Florence",), "d1")
    master(judge, "START", game="d1")
    start = judge.last_to(address("Florence"))
    assert list(start.attachments) == ["d1-SP1454A.png", "d1-SP1454A.svg"] and "no map is attached" not in start.body
    letter(judge, "Florence", "none", game="d1")
    letter(judge, "Florence", "A flo - pst", game="d1")
    results = judge.last_to(address("Florence"))
    assert results.subject == "d1 SP1454C results"
    assert {name: kind for name, (kind, _) in results.attachments.items()} == {
        "d1-spring-1454-orders.png": "image/png", "d1-SU1454C.png": "image/png", "d1-SU1454C.svg": "image/svg+xml"}
    aop = Judge(tmp_path / "aop", maps=True, maps_default="all")  # AoP's own board of 1459 is drawn too
    aop.send(GM, "CREATE d2 gm-pw machiavelli aop")
    aop.send(address("Florence"), "JOIN d2 pw-ann Florence")
    master(aop, "START", game="d2")
    start = aop.last_to(address("Florence"))
    assert list(start.attachments) == ["d2-SP1459A.png", "d2-SP1459A.svg"] and "no map is attached" not in start.body


def test_set_maps_svg_sends_a_campaigns_operations_alone_as_svg(tmp_path: Path) -> None:
    if not draws_maps():
        pytest.skip("the Cairo library does not load here: no map is drawn")
    judge = Judge(tmp_path, maps=True)
    new_game(judge, ("Florence",), "d1")
    judge.send(address("Florence"), "SET MAPS SVG")
    master(judge, "START", game="d1")
    assert list(judge.last_to(address("Florence")).attachments) == ["d1-SP1454A.svg"]  # no orders yet: the board
    letter(judge, "Florence", "none", game="d1")
    letter(judge, "Florence", "A flo - pst", game="d1")
    results = judge.last_to(address("Florence"))
    assert results.subject == "d1 SP1454C results"
    [(name, (kind, svg))] = results.attachments.items()
    assert (name, kind) == ("d1-spring-1454-orders.svg", "image/svg+xml") and svg.startswith(b"<svg")


def test_a_board_without_a_drawing_says_so_where_its_map_would_be(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    if not draws_maps():
        pytest.skip("the Cairo library does not load here: no map is drawn")

    def undrawn(name: str) -> Geometry:
        raise GeometryError(f"the board {name!r} has no drawing")

    monkeypatch.setattr(pictures, "load_geometry", undrawn)
    judge = Judge(tmp_path, maps=True, maps_default="all")  # every picture (SET MAPS ALL)
    new_game(judge, ("Florence",), "d1")
    master(judge, "START", game="d1")
    start = judge.last_to(address("Florence"))
    assert not start.attachments and "(no map is attached: this board has no drawing yet" in start.body
