"""Ratings played by SMTP through `judge serve`: two games of two kinds ended by their players' and master's
mail, a player's GET RATING answered, the hall of fame showing the ratings and the scores, and a finished
game's public record, of the format's version 2 with its scores, valid against its published schema.

The story: Payola's g1 (France Alice, Germany Bob, England Carol) and Machiavelli's m1 (Florence Ann, Milan
Bob, Venice Cy) start together; each plays its first phase at its deadline (g1's S1901M after 48 hours,
m1's SP1454A after 72).  The three powers of g1 concede it to France: Alice wins alone, mu 28.269 (figure
1146), Bob and Carol share second, mu 23.366 (figure 950; worked out in `tests.service.test_ratings`).  m1's
master then ends it: its places by 4.2 move Bob a second time."""

from __future__ import annotations

import json
import re
import smtplib
from collections.abc import Iterator
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path

import jsonschema
import pytest

from judge.web.pages import web_root
from tests.service.every_kind import MACHIAVELLI, PAYOLA
from tests.support.forms_by_smtp import JUDGE, Mail, Served
from tests.support.harness import TERMINATE_CODE, Judge
from tests.support.people import ALICE, BOB, GM
from tests.support.wait import wait_until
from tests.web.page import read_page

SCHEMA = Path(__file__).parents[2] / "docs" / "reference" / "game-record.schema.json"


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    judge = Judge(tmp_path, web=True)
    PAYOLA.begin(judge)
    MACHIAVELLI.begin(judge)
    running = Served(judge)
    yield running
    running.stop()


def send(served: Served, sender: str, body: str) -> Mail:
    """``body`` from ``sender`` by SMTP; the judge's answer, once in the Maildir."""
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = sender, JUDGE, "orders"
    message["Message-ID"] = sent = make_msgid(domain="example.org")
    message.set_content(body)
    with smtplib.SMTP("127.0.0.1", served.running.port, timeout=10) as client:
        client.send_message(message)
    wait_until(lambda: any(mail.in_reply_to == sent for mail in served.read()), f"the answer to {sender}")
    return next(mail for mail in served.read() if mail.in_reply_to == sent)


def terminate(served: Served, signon: str) -> None:
    """The game master's TERMINATE, then again with the code the judge answered it with."""
    answer = send(served, GM, f"{signon}\nTERMINATE")
    code = TERMINATE_CODE.search(answer.body)
    assert code is not None, answer.body
    send(served, GM, f"{signon}\nTERMINATE {code.group(1)}")


def test_two_games_ended_by_mail_rate_their_players_and_the_hall_and_record_show_it(served: Served) -> None:
    for seat, line in enumerate(PAYOLA.sent):
        send(served, PAYOLA.seats[seat].address, f"{PAYOLA.seats[seat].signon}\n{line}")
    served.deadline(PAYOLA.hours + 1)
    for seat in PAYOLA.seats:
        send(served, seat.address, f"{seat.signon}\nVOTE CONCEDE FRANCE")
    served.opened(ALICE, "g1 has ended")

    answer = send(served, BOB, f"GET RATING {ALICE}")
    assert f"the ratings of {ALICE} on this judge:" in answer.body
    assert "every kind: 1146 from 1 rated game, provisional" in answer.body

    for seat, line in enumerate(MACHIAVELLI.sent):
        send(served, MACHIAVELLI.seats[seat].address, f"{MACHIAVELLI.seats[seat].signon}\n{line}")
    served.deadline(MACHIAVELLI.hours)
    terminate(served, MACHIAVELLI.master)
    served.opened(BOB, "m1 has ended")

    mine = send(served, BOB, "GET RATING").body
    assert f"your ratings on this judge ({BOB}):" in mine
    assert re.search(r"every kind: \d+ from 2 rated games, provisional", mine)
    assert "Payola Diplomacy: 950 from 1 rated game, provisional" in mine
    assert re.search(r"Machiavelli[^:]*: \d+ from 1 rated game, provisional", mine)

    root = web_root(served.settings)
    wait_until(lambda: "m1" in (root / "halloffame.html").read_text(), "the hall of fame with m1")
    hall = read_page(root / "halloffame.html")
    overall = next(table for table in hall.tables if table and table[0] == ["Player", "Rating", "Rated games"])
    assert ["alice", "1146 (provisional)", "1"] in overall
    assert any(row[0] == "bob" and row[2] == "2" for row in overall[1:])
    scores = next(table for table in hall.tables if table[:2] and table[0][:3] == ["Place", "Seat", "DSS"]
                  and table[1] == ["g1"])
    assert scores[2][:5] == ["1st", "France", "100.0", "100.0", "100.0"]  # a solo: first, whatever its centres
    record = json.loads((root / "games" / "g1" / "record.json").read_text())
    assert record["schema_version"] == 2 and record["scores"]["dss_shared_by"] == "solo"
    jsonschema.validate(record, json.loads(SCHEMA.read_text()))
