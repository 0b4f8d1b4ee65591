"""A game's mail can be filtered as a mailing list's (RFC 2919, RFC 2369): every mail about a game
names it in List-Id and says how to get help; an observer's mail says how to stop it, and that
way stops it, and where the pages are served over HTTPS offers a one-click link too (RFC 8058,
which `tests/web/test_one_click.py` follows); a player's own mail offers nothing to stop; mail
about no game is no list's."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from sqlalchemy import select

from judge.service.outgoing.outbox import list_label, queue
from judge.service.outgoing.sender import deliver_pending, transport_for
from judge.store.models import Game, Observer
from tests.support.auction import HOURS, auction_judge, bid, master, send, start_auction
from tests.support.harness import Judge, Sent
from tests.support.people import ALICE, BOB, GM, OBSERVER

LIST_ID = "Game g1 <g1.localhost>"
HELP = "<mailto:judge@localhost?subject=HELP&body=HELP>"
UNOBSERVE = "<mailto:judge@localhost?subject=UNOBSERVE%20g1&body=UNOBSERVE%20g1>"


PAGES = "https://judge.example.org/pages/"  # web-url: the pages served over HTTPS
ONE_CLICK = re.compile(r"<https://judge\.example\.org/pages/unsubscribe/1-[a-z2-7]{24}>")  # game g1 is id 1


def watched(auction: Judge) -> Judge:
    """The auction with Olga observing it, the mail so far read."""
    auction.send(OBSERVER, "OBSERVE g1")
    assert auction.outcome_of("OBSERVE g1") == ("ok", "TO_CONFIRM")  # confirmed by the harness
    auction.new_mail()
    return auction


def results(judge: Judge) -> dict[str, Sent]:
    """Alice and Bob bid on lot 1, which closes it: its results mail, by address."""
    bid(judge, "Alice", 20)
    bid(judge, "Bob", 10)
    return {mail.to: mail for mail in judge.new_mail() if mail.subject == "g1 L1 results"}


def list_headers(mail: Sent) -> dict[str, str]:
    return {name: value for name, value in mail.headers.items() if name.lower().startswith("list-")}


def test_a_players_results_mail_names_its_game_and_help_and_offers_nothing_to_stop(auction: Judge) -> None:
    mails = results(auction)
    assert set(mails) == {ALICE, BOB, GM}
    for address in (ALICE, BOB, GM):
        assert list_headers(mails[address]) == {"List-Id": LIST_ID, "List-Help": HELP}


def test_the_answer_to_a_players_mail_is_about_its_game(auction: Judge) -> None:
    reply = send(auction, "Alice", "BID 20")
    assert list_headers(reply) == {"List-Id": LIST_ID, "List-Help": HELP}


def test_a_mail_about_no_game_is_no_lists(auction: Judge) -> None:
    auction.send("stranger@example.net", "HELP")
    [reply] = auction.new_mail()
    assert reply.to == "stranger@example.net"
    assert list_headers(reply) == {}


def test_an_observers_mail_offers_unobserve_and_sending_it_back_stops_the_observing(auction: Judge) -> None:
    """Olga's mail client follows List-Unsubscribe as RFC 6068 reads a mailto: a mail to its address
    with its subject and body.  The judge stops her observing; the next lot's results reach the
    players and not her."""
    mails = results(watched(auction))
    assert set(mails) == {ALICE, BOB, GM, OBSERVER}
    headers = list_headers(mails[OBSERVER])
    assert headers["List-Id"] == LIST_ID and headers["List-Help"] == HELP
    assert "List-Unsubscribe-Post" not in headers  # no one-click: no web-url over HTTPS
    url = urlsplit(headers["List-Unsubscribe"].removeprefix("<").removesuffix(">"))
    assert url.scheme == "mailto" and url.path == "judge@localhost"
    fields = {name: values[0] for name, values in parse_qs(url.query).items()}
    assert fields == {"subject": "UNOBSERVE g1", "body": "UNOBSERVE g1"}
    auction.send(OBSERVER, fields["body"], subject=fields["subject"], headers={"To": url.path})
    assert auction.outcome_of("UNOBSERVE g1") == ("ok", None)
    auction.new_mail()
    auction.later(HOURS + 1)
    assert auction.tick() == ["g1 L2 processed; next L3"]
    assert {mail.to for mail in auction.new_mail() if mail.subject == "g1 L2 results"} == {ALICE, BOB, GM}


def test_an_observer_who_plays_the_game_gets_the_players_mail_with_nothing_to_stop(auction: Judge) -> None:
    """Alice also observes the game she plays: she gets her own results alone (the observers' copy
    goes to those who do not play), and stopping the observing would not stop them."""
    auction.send(ALICE, "OBSERVE g1")
    with auction.db.transaction() as session:  # confirmed by the harness
        assert session.scalars(select(Observer.address)).all() == [ALICE]
    auction.new_mail()
    mails = results(auction)
    assert list_headers(mails[ALICE]) == {"List-Id": LIST_ID, "List-Help": HELP}


def test_an_announcement_to_an_observer_offers_unobserve(auction: Judge) -> None:
    """The game master's broadcast reaches the observers as an announcement of the game."""
    watched(auction)
    master(auction, "BROADCAST", "The auction pauses for the holidays.", "ENDPRESS")
    [mail] = [mail for mail in auction.new_mail() if mail.to == OBSERVER]
    assert list_headers(mail) == {"List-Id": LIST_ID, "List-Help": HELP, "List-Unsubscribe": UNOBSERVE}


def test_where_the_pages_are_served_over_https_an_observers_mail_offers_one_click_first(tmp_path: Path) -> None:
    """RFC 8058: the HTTPS link first, the mailto after it for clients that only mail, and
    List-Unsubscribe-Post saying what to POST.  The link names game g1 (id 1) and a tag of 24
    characters of base32 (120 bits of an HMAC): the same for the announcement as for the results."""
    auction = start_auction(auction_judge(tmp_path, web_url=PAGES, one_click=True))
    auction.new_mail()
    mails = results(watched(auction))
    headers = list_headers(mails[OBSERVER])
    link, mailto = headers["List-Unsubscribe"].split(", ")
    assert ONE_CLICK.fullmatch(link) and mailto == UNOBSERVE
    assert headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    master(auction, "BROADCAST", "The auction pauses for the holidays.", "ENDPRESS")
    [announcement] = [mail for mail in auction.new_mail() if mail.to == OBSERVER]
    assert list_headers(announcement)["List-Unsubscribe"] == headers["List-Unsubscribe"]
    assert list_headers(announcement)["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"


def test_a_players_mail_never_offers_one_click(tmp_path: Path) -> None:
    """Over HTTPS too, the players' and the master's results, and the answer to a player, offer
    nothing to stop; nor does Alice's when she also observes the game she plays."""
    auction = start_auction(auction_judge(tmp_path, web_url=PAGES, one_click=True))
    auction.new_mail()
    auction.send(ALICE, "OBSERVE g1")
    auction.new_mail()
    assert list_headers(send(auction, "Bob", "BID 10")) == {"List-Id": LIST_ID, "List-Help": HELP}
    mails = results(watched(auction))
    for address in (ALICE, BOB, GM):
        assert list_headers(mails[address]) == {"List-Id": LIST_ID, "List-Help": HELP}


@pytest.mark.parametrize(("web_url", "one_click"), [("http://judge.example.org/pages/", True), (None, True),
                                                    (PAGES, False)])
def test_without_one_click_over_https_an_observers_mail_offers_the_mailto_alone(
        tmp_path: Path, web_url: str | None, one_click: bool) -> None:
    """Pages served over plain HTTP, or not on the web, or one-click not turned on by the operator (its
    default: the path may not reach `judge web`): no link to POST to, no List-Unsubscribe-Post."""
    auction = start_auction(auction_judge(tmp_path, web_url=web_url, one_click=one_click))
    auction.new_mail()
    mails = results(watched(auction))
    assert list_headers(mails[OBSERVER]) == {"List-Id": LIST_ID, "List-Help": HELP, "List-Unsubscribe": UNOBSERVE}


@pytest.mark.parametrize(("name", "label", "command"), [
    ("g1\r\nBcc: victim@evil.example", "g1-bcc-victim-evil-example", "g1%0D%0ABcc%3A%20victim%40evil.example"),
    ("=?utf-8?q?=0D=0ABcc:_v@evil.example?=", "utf-8-q-0d-0abcc-_v-evil-example",
     "%3D%3Futf-8%3Fq%3F%3D0D%3D0ABcc%3A_v%40evil.example%3F%3D"),
])
def test_a_hostile_game_name_cannot_inject_a_header(auction: Judge, name: str, label: str, command: str) -> None:
    """A game whose name came from elsewhere (an import) with a line break in it, as such or as an
    encoded word: its List-Id is its name cleaned into one atom, its UNOBSERVE percent-encoded, and
    no Bcc header appears in the mail it sends its observer."""
    watched(auction)
    with auction.db.transaction() as session:
        game = session.scalars(select(Game).where(Game.name == "g1")).one()
        game.name = name
        queue(session, auction.settings, to=OBSERVER, subject="news", body="The auction goes on.\n",
              kind="announcement", now=auction.now, game_id=game.id)
    deliver_pending(auction.db, auction.settings, transport_for(auction.settings), auction.now)
    [mail] = auction.new_mail()
    assert mail.to == OBSERVER
    assert "Bcc" not in mail.message
    assert list_headers(mail) == {
        "List-Id": f"Game {label} <{label}.localhost>", "List-Help": HELP,
        "List-Unsubscribe": f"<mailto:judge@localhost?subject=UNOBSERVE%20{command}&body=UNOBSERVE%20{command}>"}


@pytest.mark.parametrize(("name", "label"), [
    ("spring", "spring"), ("Payola_1-b", "payola_1-b"), ("a.b c", "a-b-c"), ("été 1901", "t-1901"), ("--", "game"),
])
def test_a_games_list_label_is_its_name_as_one_atom(name: str, label: str) -> None:
    """A name the judge gives a game is its label as it is; the rest is cut to lower-case ASCII
    letters, digits, - and _ (the dot would make two labels of one name)."""
    assert list_label(name) == label
