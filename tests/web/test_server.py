"""`judge publish` and `judge web`: the pages written again, and served read-only by a running
`judge web` (a subprocess on a free port, stopped as systemd stops it)."""

from __future__ import annotations

import signal
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from email.message import Message
from pathlib import Path

import pytest

from judge.web.cli import main
from tests.web.conftest import Played

SERVE = "import sys; from judge.web.cli import main; raise SystemExit(main(sys.argv[1:]))"


def database_options(played: Played) -> list[str]:
    settings = played.judge.settings
    return ["--data-dir", str(settings.data_dir)] + (["--database", settings.database] if settings.database else [])


@pytest.fixture(scope="module")
def site(played: Played) -> Iterator[str]:
    """The address of a running `judge web` serving the played games' pages."""
    server = subprocess.Popen([sys.executable, "-c", SERVE, "web", "--port", "0", *database_options(played)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert server.stdout is not None
    line = server.stdout.readline()
    assert line.startswith("serving "), line + (server.stderr.read() if server.stderr else "")
    yield line.split(" at ", 1)[1].strip()
    server.send_signal(signal.SIGTERM)
    assert server.wait(timeout=30) == 0
    server.stdout.close()
    if server.stderr:
        server.stderr.close()


def fetch(url: str, method: str = "GET") -> tuple[int, Message, bytes]:
    """Status, headers (any case) and body."""
    try:
        with urllib.request.urlopen(urllib.request.Request(url, method=method)) as answer:
            return answer.status, answer.headers, answer.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, b""


def test_judge_web_serves_the_pages_and_the_maps(site: str) -> None:
    status, headers, body = fetch(site)
    assert status == 200 and b"<h1>Payola games</h1>" in body
    assert "script-src" not in headers["Content-Security-Policy"]  # default-src 'none': no script may run
    assert headers["X-Content-Type-Options"] == "nosniff"
    status, headers, body = fetch(site + "games/webgame/index.html")
    assert status == 200 and headers["Content-Type"] == "text/html; charset=utf-8"
    picture = next(part.split('"')[0] for part in body.decode().split('src="')[1:])
    status, headers, body = fetch(site + "games/webgame/" + picture)
    assert status == 200 and headers["Content-Type"] == "image/png" and body.startswith(b"\x89PNG")


def test_judge_web_is_read_only_and_lists_nothing(site: str) -> None:
    assert fetch(site + "games/")[0] == 404  # no directory listing
    assert fetch(site + "games/webgame/.digest")[0] == 404  # no hidden file
    assert fetch(site + "no-such-page.html")[0] == 404
    assert fetch(site + "index.html", method="POST")[0] == 501
    assert fetch(site + "index.html", method="PUT")[0] == 501


def test_judge_publish_writes_every_game_or_one(played: Played, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["publish", *database_options(played)]) == 0
    assert "2 game(s) published in" in capsys.readouterr().out
    assert main(["publish", "webgame", *database_options(played)]) == 0
    assert main(["publish", "nosuchgame", *database_options(played)]) == 1
    assert "there is no game 'nosuchgame'" in capsys.readouterr().err
    assert (played.root / "games" / "webgame" / "W1901A.html").exists()


def test_24_8_judge_web_serves_a_placeholder_until_the_judge_publishes(tmp_path: Path) -> None:
    """A fresh install has no pages yet: `judge web` serves a placeholder index (its unit used to
    fail and restart every 5 s), then the judge's own index once it is written."""
    server = subprocess.Popen([sys.executable, "-c", SERVE, "web", "--port", "0", "--data-dir", str(tmp_path)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None and server.stderr is not None
        assert "nothing is published" in server.stderr.readline()
        line = server.stdout.readline()
        assert line.startswith("serving "), line
        address = line.split(" at ", 1)[1].strip()
        status, headers, body = fetch(address)
        assert status == 200 and b"<h1>Payola games</h1>" in body and headers["Content-Security-Policy"]
        assert fetch(f"{address}games/x/index.html")[0] == 404
        (tmp_path / "web").mkdir()
        (tmp_path / "web" / "index.html").write_text("<h1>the judge's own</h1>")
        assert fetch(address)[2] == b"<h1>the judge's own</h1>"
    finally:
        server.send_signal(signal.SIGTERM)
        assert server.wait(timeout=30) == 0
        for stream in (server.stdout, server.stderr):
            if stream:
                stream.close()
