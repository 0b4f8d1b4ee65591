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


def test_judge_web_says_when_nothing_is_published(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["web", "--data-dir", str(tmp_path), "--port", "0"]) == 1
    assert "run `judge publish`" in capsys.readouterr().err
