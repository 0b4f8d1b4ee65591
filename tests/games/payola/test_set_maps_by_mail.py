"""SET MAPS by mail: each address chooses the pictures the next results mail of a real Payola game carries
(issue 69, item 3); the host keeps them as it queues the mail, for players, observers and the game master."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from tests.games.payola.by_mail import FRANCE, MASTER, play_spring, start
from tests.support.harness import Judge, Sent
from tests.support.people import ALICE, BOB, GM, OBSERVER

ORDERS_PNG, ORDERS_SVG = "g1-S1901M-orders.png", "g1-S1901M-orders.svg"
BOARD_PNG, BOARD_SVG = "g1-F1901M.png", "g1-F1901M.svg"


def game(tmp_path: Path, **settings: Any) -> Judge:
    """Game g1 under way (France Alice, Germany Bob, England Carol), the judge drawing maps."""
    judge = start(Judge(tmp_path, **settings))
    judge.settings = replace(judge.settings, maps=True)
    return judge


@pytest.fixture
def judge(tmp_path: Path) -> Judge:
    return game(tmp_path)


def results_to(judge: Judge) -> dict[str, Sent]:
    """Spring 1901 played to its results: each reader's results mail (the game master's chart), by address."""
    play_spring(judge)
    return {mail.to: mail for mail in judge.new_mail() if mail.subject in ("g1 S1901M results", "g1 S1901M chart")}


def pictures(mail: Sent) -> dict[str, str]:
    """The pictures a mail carries: each one's content type, by file name."""
    return {name: kind for name, (kind, _) in mail.attachments.items()}


def test_an_address_that_never_chose_gets_the_orders_drawn_on_the_board_alone(judge: Judge) -> None:
    mails = results_to(judge)
    assert pictures(mails[ALICE]) == pictures(mails[GM]) == {ORDERS_PNG: "image/png"}


@pytest.mark.parametrize(("choice", "carried"), [
    ("PNG", {ORDERS_PNG: "image/png"}),
    ("SVG", {ORDERS_SVG: "image/svg+xml"}),
    ("ALL", {ORDERS_PNG: "image/png", BOARD_PNG: "image/png", BOARD_SVG: "image/svg+xml"}),
    ("NONE", {}),
])
def test_each_choice_is_what_the_next_results_mail_to_that_address_carries(judge: Judge, choice: str,
                                                                           carried: dict[str, str]) -> None:
    judge.send(ALICE, f"SET MAPS {choice}")
    assert judge.outcome_of(f"SET MAPS {choice}") == ("ok", "MAPS_SET")
    assert "Your mail will now carry" in judge.last_to(ALICE).body
    mails = results_to(judge)
    assert pictures(mails[ALICE]) == carried
    assert pictures(mails[BOB]) == {ORDERS_PNG: "image/png"}  # one address's choice is its own


def test_the_orders_as_svg_are_the_orders_drawn(judge: Judge) -> None:
    judge.send(ALICE, "SET MAPS SVG")
    _, svg = results_to(judge)[ALICE].attachments[ORDERS_SVG]
    assert svg.startswith(b"<") and b"<svg" in svg and b'data-location="PAR"' in svg  # the army ordered from Paris


def test_a_choice_sent_with_orders_after_a_sign_on_is_the_address_s_too(judge: Judge) -> None:
    judge.send(ALICE, FRANCE + "SET MAPS ALL\n2 : A PAR - BUR")
    assert judge.outcome_of("SET MAPS ALL") == ("ok", "MAPS_SET")
    judge.send(BOB, "SIGNON G@g1 bob-pw\n2 : A MUN - RUH")
    judge.send("carol@example.org", "SIGNON E@g1 carol-pw\n1 : F LON - NTH")
    results = {mail.to: mail for mail in judge.new_mail() if mail.subject == "g1 S1901M results"}
    assert set(pictures(results[ALICE])) == {ORDERS_PNG, BOARD_PNG, BOARD_SVG}


def test_none_leaves_map_the_board_on_request(judge: Judge) -> None:
    judge.send(ALICE, "SET MAPS NONE")
    judge.send(ALICE, FRANCE + "MAP")
    assert judge.outcome_of("MAP") == ("ok", None)
    assert set(judge.last_to(ALICE).attachments) == {"g1-S1901M.png"}


def test_the_choice_is_the_mailbox_s_however_the_address_is_written(judge: Judge) -> None:
    judge.send("Alice+maps@EXAMPLE.org", "SET MAPS NONE")
    assert judge.outcome_of("SET MAPS NONE") == ("ok", "MAPS_SET")
    reply = [mail for mail in judge.all_mail() if mail.to.lower() == "alice+maps@example.org"][-1]
    assert "your address alice@example.org" in reply.body
    judge.send("BOB@example.org", "SET MAPS ALL")
    mails = results_to(judge)
    assert pictures(mails[ALICE]) == {}
    assert set(pictures(mails[BOB])) == {ORDERS_PNG, BOARD_PNG, BOARD_SVG}


def test_a_later_choice_replaces_the_earlier_and_default_restores_the_judge_s(judge: Judge) -> None:
    judge.send(ALICE, "SET MAPS NONE")
    judge.send(ALICE, "SET MAPS ALL")
    judge.send(ALICE, "SET MAPS DEFAULT")
    assert judge.outcome_of("SET MAPS DEFAULT") == ("ok", "MAPS_SET")
    assert "the judge's default" in judge.last_to(ALICE).body
    assert pictures(results_to(judge)[ALICE]) == {ORDERS_PNG: "image/png"}


def test_the_game_master_and_an_observer_choose_the_same_way(judge: Judge) -> None:
    judge.send(OBSERVER, "OBSERVE g1")
    judge.send(OBSERVER, "SET MAPS SVG")
    judge.send(GM, MASTER + "SET MAPS NONE")
    assert judge.outcome_of("SET MAPS NONE") == ("ok", "MAPS_SET")
    mails = results_to(judge)
    assert pictures(mails[OBSERVER]) == {ORDERS_SVG: "image/svg+xml"}
    assert pictures(mails[GM]) == {}
    assert pictures(mails[ALICE]) == {ORDERS_PNG: "image/png"}


@pytest.mark.parametrize("line", ["SET MAPS JPEG", "SET MAPS", "SET MAPS PNG SVG"])
def test_a_bad_choice_is_answered_in_words_quoting_the_line_and_changes_nothing(judge: Judge, line: str) -> None:
    judge.send(ALICE, "SET MAPS NONE")
    judge.send(ALICE, line)
    assert judge.outcome_of(line) == ("error", "SYNTAX")
    reply = judge.last_to(ALICE).body
    assert line in reply and "expected SET MAPS PNG" in reply
    assert pictures(results_to(judge)[ALICE]) == {}  # NONE still holds


@pytest.mark.parametrize(("default", "carried"), [
    ("all", {ORDERS_PNG, BOARD_PNG, BOARD_SVG}), ("svg", {ORDERS_SVG}), ("none", set()),
])
def test_the_judge_s_setting_is_the_default_of_an_address_that_never_chose(tmp_path: Path, default: str,
                                                                           carried: set[str]) -> None:
    judge = game(tmp_path, maps_default=default)
    judge.send(BOB, "SET MAPS PNG")
    mails = results_to(judge)
    assert set(pictures(mails[ALICE])) == carried
    assert set(pictures(mails[BOB])) == {ORDERS_PNG}
