"""One-click unsubscribe (RFC 8058, issue 69 item 4): `judge web` follows the link of an observer's
mail as a mail client does, with a POST of ``List-Unsubscribe=One-Click``, and stops that observing
alone; a GET (a mail scanner, a link preview, a person) shows a page whose button does it and
changes nothing; a token the judge did not make, or made for another game, changes nothing.

Olga observes auction g1 on a judge whose pages are at https://judge.example.org/pages/; the
link of her results mail is followed at a `judge web` serving on loopback (`make_server` on a
thread, as the unit behind a proxy answers ``/unsubscribe/...``)."""

from __future__ import annotations

import http.client
import logging
import re
import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from sqlalchemy import select

from judge.store.models import Game, Observer
from judge.web.server import make_server
from judge.web.unsubscribe import MAX_BODY, OneClick
from tests.support.auction import HOURS, auction_judge, bid, start_auction
from tests.support.harness import Judge
from tests.support.people import ALICE, BOB, GM, OBSERVER
from tests.support.serving import on_a_thread

PAGES = "https://judge.example.org/pages/"
ONE_CLICK = "List-Unsubscribe=One-Click"
FORM = "application/x-www-form-urlencoded"


@pytest.fixture
def watched(tmp_path: Path) -> Judge:
    """Auction g1 under way on a judge whose pages are served over HTTPS, Olga observing it."""
    judge = start_auction(auction_judge(tmp_path / "judge", web_url=PAGES, one_click=True))
    judge.send(OBSERVER, "OBSERVE g1")
    judge.new_mail()
    return judge


def link(judge: Judge) -> str:
    """The path of the one-click link of Olga's results of lot 1 (Alice and Bob bid, which closes it)."""
    bid(judge, "Alice", 20)
    bid(judge, "Bob", 10)
    [mail] = [mail for mail in judge.new_mail() if mail.to == OBSERVER and mail.subject == "g1 L1 results"]
    found = re.match(r"<https://judge\.example\.org/pages(/unsubscribe/[^>]+)>, <mailto:",
                     mail.headers["List-Unsubscribe"])
    assert found is not None
    return found.group(1)


def observing(judge: Judge) -> list[tuple[str, str]]:
    """Who observes which game."""
    with judge.db.transaction() as session:
        return [(game, address) for game, address in session.execute(
            select(Game.name, Observer.address).join(Game, Game.id == Observer.game_id).order_by(Observer.id))]


@contextmanager
def judge_web(judge: Judge, url: str | None = None) -> Iterator[int]:
    """The port of a `judge web` answering the one-click links from ``judge``'s database (or ``url``)."""
    folder = judge.settings.data_dir / "web"
    folder.mkdir(exist_ok=True)
    (folder / "index.html").write_text("<h1>Games</h1>")
    one_click = OneClick(url or judge.settings.database_url)
    with on_a_thread(make_server(folder, "127.0.0.1", 0, one_click=one_click)) as port:
        yield port


def request(port: int, method: str, path: str, body: bytes | None = None,
            headers: dict[str, str] | None = None) -> tuple[int, http.client.HTTPResponse, str]:
    """Status, the answer (its headers) and its text."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        connection.request(method, path, body=body, headers=headers or {})
        answer = connection.getresponse()
        return answer.status, answer, answer.read().decode()
    finally:
        connection.close()


def post(port: int, path: str, body: bytes = ONE_CLICK.encode(), content_type: str = FORM) -> tuple[int, str]:
    status, _, text = request(port, "POST", path, body, {"Content-Type": content_type})
    return status, text


def test_a_post_of_one_click_stops_the_observing_and_the_next_results_skip_her(watched: Judge) -> None:
    path = link(watched)
    with judge_web(watched) as port:
        status, text = post(port, path)
    assert status == 200 and "You no longer receive the results of g1." in text
    assert observing(watched) == []
    assert watched.new_mail() == []  # as UNOBSERVE, which answers its mail: nothing mailed
    watched.later(HOURS + 1)
    assert watched.tick() == ["g1 L2 processed; next L3"]
    assert {mail.to for mail in watched.new_mail() if mail.subject == "g1 L2 results"} == {ALICE, BOB, GM}


def test_the_form_encoding_rfc_8058_prefers_stops_it_too(watched: Judge) -> None:
    """multipart/form-data, as a mail client SHOULD send it (RFC 8058, 3.1)."""
    body = (b'--b0undary\r\nContent-Disposition: form-data; name="List-Unsubscribe"\r\n\r\n'
            b"One-Click\r\n--b0undary--\r\n")
    path = link(watched)
    with judge_web(watched) as port:
        assert post(port, path, body, "multipart/form-data; boundary=b0undary")[0] == 200
    assert observing(watched) == []


def test_a_get_shows_a_button_that_posts_and_changes_nothing(watched: Judge) -> None:
    """A mail scanner follows every link: GET and HEAD only read.  The page's form posts the one
    field to its own address, which its Content-Security-Policy allows (the other pages allow no
    form at all), and no cache keeps it."""
    path = link(watched)
    with judge_web(watched) as port:
        status, answer, text = request(port, "GET", path)
        assert request(port, "HEAD", path)[0] == 200
        assert request(port, "GET", path)[0] == 200
    assert status == 200 and "<h1>Stop observing g1</h1>" in text
    assert '<form method="post">' in text and '<input type="hidden" name="List-Unsubscribe" value="One-Click">' in text
    assert "form-action 'self'" in answer.headers["Content-Security-Policy"]
    assert answer.headers["Cache-Control"] == "no-store"
    assert observing(watched) == [("g1", OBSERVER)]


def test_a_forged_or_altered_token_is_refused_and_changes_nothing(watched: Judge) -> None:
    """The tag altered in its last character: 404, a plain page; a path that is no token (cut
    short, a character base32 has not): 400.  Olga still observes g1."""
    path = link(watched)
    altered = path[:-1] + ("a" if path[-1] != "a" else "b")
    with judge_web(watched) as port:
        for method in ("GET", "POST"):
            status, _, text = request(port, method, altered, ONE_CLICK.encode(), {"Content-Type": FORM})
            assert status == 404 and "This link stops nothing" in text and "Traceback" not in text
            for broken in (path[:-1], path[:-1] + "1", "/unsubscribe/", "/unsubscribe/1-x/y"):
                status, _, text = request(port, method, broken, ONE_CLICK.encode(), {"Content-Type": FORM})
                assert status == 400 and "This link is not one the judge makes" in text, broken
    assert observing(watched) == [("g1", OBSERVER)]


def test_the_token_of_one_game_stops_nothing_of_another(watched: Judge) -> None:
    """Olga observes g1 (id 1) and g2 (id 2).  g1's tag under g2's id is refused; g2's own link stops g2 alone."""
    watched.send(GM, "CREATE g2 gm-secret auction")
    watched.send(OBSERVER, "OBSERVE g2")
    watched.new_mail()
    path = link(watched)
    assert path.startswith("/unsubscribe/1-")
    with judge_web(watched) as port:
        assert post(port, path.replace("/1-", "/2-"))[0] == 404
        assert observing(watched) == [("g1", OBSERVER), ("g2", OBSERVER)]
        assert post(port, path)[0] == 200
        assert post(port, path)[0] == 404  # stale: stopped already
    assert observing(watched) == [("g2", OBSERVER)]


@pytest.mark.parametrize(("body", "content_type"), [
    (b"List-Unsubscribe=Two-Click", FORM), (b"", FORM), (b"\xff", FORM),
    (ONE_CLICK.encode(), "text/plain"), (ONE_CLICK.encode(), "multipart/form-data; boundary=x"),
])
def test_a_post_that_does_not_say_one_click_changes_nothing(watched: Judge, body: bytes, content_type: str) -> None:
    path = link(watched)
    with judge_web(watched) as port:
        status, text = post(port, path, body, content_type)
    assert status == 400 and "List-Unsubscribe=One-Click (RFC 8058)" in text
    assert observing(watched) == [("g1", OBSERVER)]


def test_a_body_too_large_or_of_no_length_is_not_read(watched: Judge) -> None:
    """Over `MAX_BODY` (4096 bytes): 413 before a byte of it is read; no Content-Length: 411."""
    path = link(watched)
    with judge_web(watched) as port:
        assert post(port, path, ONE_CLICK.encode() + b"&x=" + b"y" * (MAX_BODY - 28))[0] == 413
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        connection.putrequest("POST", path)
        connection.putheader("Content-Type", FORM)
        connection.endheaders()
        assert connection.getresponse().status == 411
        connection.close()
    assert observing(watched) == [("g1", OBSERVER)]


def test_a_database_that_cannot_be_reached_is_answered_503_without_a_traceback(
        watched: Judge, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    path = link(watched)
    caplog.set_level(logging.ERROR, logger="judge")
    with judge_web(watched, f"sqlite:///{tmp_path / 'nowhere' / 'judge.db'}") as port:
        status, text = post(port, path)
        assert request(port, "GET", path)[0] == 503
    assert status == 503 and "The judge cannot stop these results just now." in text and "Traceback" not in text
    assert "web: a one-click unsubscribe failed" in caplog.text
    assert observing(watched) == [("g1", OBSERVER)]


def test_the_log_leaves_the_token_out(watched: Judge, caplog: pytest.LogCaptureFixture) -> None:
    path = link(watched)
    caplog.set_level(logging.INFO, logger="judge")
    with judge_web(watched) as port:
        post(port, path)
    assert '"POST /unsubscribe/... HTTP/1.1" 200' in caplog.text and path not in caplog.text


SERVE = "import sys; from judge.bootstrap import main; raise SystemExit(main(sys.argv[1:]))"


@pytest.mark.parametrize(("web_url", "one_click", "status"), [
    (PAGES, "true", 400), ("http://judge.example.org/", "true", 501), (PAGES, "false", 501)])
def test_judge_web_answers_the_links_only_where_one_click_is_on_over_https(
        tmp_path: Path, web_url: str, one_click: str, status: int) -> None:
    """`judge web` itself, configured as the operator does (``JUDGE_WEB_URL``, ``JUDGE_ONE_CLICK``): a POST
    to a link that is no token is answered as one (400) where one-click is on and the pages are on HTTPS,
    else as any POST (501)."""
    server = subprocess.Popen([sys.executable, "-c", SERVE, "web", "--port", "0", "--data-dir", str(tmp_path)],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                              env={"PATH": "/usr/bin:/bin", "JUDGE_WEB_URL": web_url, "JUDGE_ONE_CLICK": one_click})
    try:
        assert server.stdout is not None
        line = server.stdout.readline()
        assert line.startswith("serving "), line
        port = int(line.rstrip().rstrip("/").rsplit(":", 1)[1])
        assert post(port, "/unsubscribe/nothing")[0] == status
    finally:
        server.send_signal(signal.SIGTERM)
        assert server.wait(timeout=30) == 0
        if server.stdout:
            server.stdout.close()
