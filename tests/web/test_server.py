"""`judge publish` and `judge web`: the pages written again, and served read-only by a running
`judge web` (a subprocess on a free port, stopped as systemd stops it), which idle, slow or
failing connections cannot stop (issue 22.9).

Connections that stand for other clients come from other loopback addresses (127.0.0.2, ...),
which Linux lets any socket use."""

from __future__ import annotations

import contextlib
import logging
import resource
import select
import signal
import socket
import struct
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from email.message import Message
from pathlib import Path
from typing import Any

import pytest

from judge.bootstrap import main
from judge.web.server import Limits, PagesHandler, make_server
from tests.support.serving import on_a_thread
from tests.web.conftest import Played

SERVE = "import sys; from judge.bootstrap import main; raise SystemExit(main(sys.argv[1:]))"


def database_options(played: Played) -> list[str]:
    settings = played.judge.settings
    return ["--data-dir", str(settings.data_dir)] + (["--database", settings.database] if settings.database else [])


@contextlib.contextmanager
def judge_web(played: Played, prelude: str = "") -> Iterator[str]:
    """The address of a `judge web` serving the played games' pages, run after ``prelude``."""
    server = subprocess.Popen([sys.executable, "-c", prelude + SERVE, "web", "--port", "0", *database_options(played)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert server.stdout is not None
    line = server.stdout.readline()
    assert line.startswith("serving "), line + (server.stderr.read() if server.stderr else "")
    try:
        yield line.split(" at ", 1)[1].strip()
    finally:
        server.send_signal(signal.SIGTERM)
        assert server.wait(timeout=30) == 0
        server.stdout.close()
        if server.stderr:
            server.stderr.close()


@pytest.fixture(scope="module")
def site(played: Played) -> Iterator[str]:
    """The address of a running `judge web` serving the played games' pages."""
    with judge_web(played) as address:
        yield address


def fetch(url: str, method: str = "GET") -> tuple[int, Message, bytes]:
    """Status, headers (any case) and body."""
    try:
        with urllib.request.urlopen(urllib.request.Request(url, method=method), timeout=60) as answer:
            return answer.status, answer.headers, answer.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, b""


def test_judge_web_serves_the_pages_and_the_maps(site: str) -> None:
    status, headers, body = fetch(site)
    assert status == 200 and b"<h1>Games</h1>" in body
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
    assert fetch(site + "index.html%00.png")[0] == 404  # a NUL byte in the path: found nowhere, not a crash


def test_judge_publish_writes_every_game_or_one(played: Played, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["publish", *database_options(played)]) == 0
    assert "2 game(s) published in" in capsys.readouterr().out
    assert main(["publish", "webgame", *database_options(played)]) == 0
    assert main(["publish", "nosuchgame", *database_options(played)]) == 1
    assert "there is no game 'nosuchgame'" in capsys.readouterr().err
    assert (played.root / "games" / "webgame" / "W1901A.html").exists()


# --- connections (22.9) --------------------------------------------------------------------------


def port_of(address: str) -> int:
    return int(address.rstrip("/").rsplit(":", 1)[1])


def connect(port: int, source: str) -> socket.socket:
    client = socket.create_connection(("127.0.0.1", port), timeout=30, source_address=(source, 0))
    client.settimeout(30)  # a hung test fails, instead of waiting for ever
    return client


def closed(client: socket.socket) -> bool:
    """Whether the server has closed ``client`` (without answering), without waiting."""
    if not select.select([client], [], [], 0)[0]:
        return False
    try:
        return client.recv(1024) == b""
    except ConnectionResetError:
        return True


def get(client: socket.socket, path: str = "/") -> bytes:
    """A GET on an open connection; the whole answer."""
    client.sendall(f"GET {path} HTTP/1.0\r\nHost: judge\r\n\r\n".encode())
    answer = b""
    while chunk := client.recv(65536):
        answer += chunk
    return answer


def test_a_thousand_idle_connections_do_not_keep_a_real_request_out(played: Played) -> None:
    """A thousand connections that never send a request, from a hundred addresses, to a `judge
    web` allowed 512 descriptors (the thread-per-connection server stopped answering there)."""
    wanted = 1100
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < wanted:
        if hard != resource.RLIM_INFINITY and hard < wanted:
            pytest.skip(f"this test opens {wanted} descriptors; the hard limit here is {hard}")
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
    prelude = ("import resource as r; hard = r.getrlimit(r.RLIMIT_NOFILE)[1]; "
               "r.setrlimit(r.RLIMIT_NOFILE, (512, hard)); ")
    idle: list[socket.socket] = []
    try:
        with judge_web(played, prelude) as address:
            for n in range(2, 102):
                try:
                    idle += [connect(port_of(address), f"127.0.0.{n}") for _ in range(10)]
                except TimeoutError:
                    pytest.fail(f"judge web stopped taking connections after {len(idle)} idle ones")
            status, _, body = fetch(address)
            assert status == 200 and b"<h1>Games</h1>" in body
    finally:
        for client in idle:
            client.close()
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def test_a_slowloris_is_cut(site: str) -> None:
    """Headers one byte a second: cut once the five seconds for a request's head are over."""
    with connect(port_of(site), "127.0.0.2") as client:
        client.sendall(b"GET / HTTP/1.0\r\nX-Slow: ")
        for _ in range(60):
            time.sleep(1)
            if closed(client):
                break
            with contextlib.suppress(ConnectionResetError, BrokenPipeError):
                client.sendall(b"z")
        else:
            pytest.fail("a minute of headers one byte a second, and the connection is still open")


@contextlib.contextmanager
def serving(folder: Path, limits: Limits) -> Iterator[int]:
    """The port of `make_server` serving ``folder`` within ``limits`` (nothing trusted), in a thread."""
    (folder / "index.html").write_text("<h1>Games</h1>")
    with on_a_thread(make_server(folder, "127.0.0.1", 0, limits)) as port:
        yield port


def test_at_most_eight_connections_at_once_from_one_client(tmp_path: Path) -> None:
    with serving(tmp_path, Limits(head_seconds=60)) as port:
        eight = [connect(port, "127.0.0.2") for _ in range(8)]
        try:
            with connect(port, "127.0.0.2") as ninth:
                assert ninth.recv(1024) == b""  # closed at once
            with connect(port, "127.0.0.3") as other:
                assert get(other).startswith(b"HTTP/1.0 200 ")
            assert get(eight.pop()).startswith(b"HTTP/1.0 200 ")  # the eight were waiting
            with connect(port, "127.0.0.2") as again:  # the place it had is given back once it is answered
                assert get(again).startswith(b"HTTP/1.0 200 ")
        finally:
            for client in eight:
                client.close()


def test_the_server_survives_a_connection_that_errors(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                           caplog: pytest.LogCaptureFixture) -> None:
    """One worker, one connection per client: the failure gives both back."""
    answer = PagesHandler.send_head

    def send_head(handler: PagesHandler) -> Any:
        if handler.path == "/boom":
            raise RuntimeError("boom")
        return answer(handler)

    monkeypatch.setattr(PagesHandler, "send_head", send_head)
    caplog.set_level(logging.ERROR, logger="judge")
    with serving(tmp_path, Limits(per_client=1, workers=1)) as port:
        with connect(port, "127.0.0.2") as failing:
            assert get(failing, "/boom") == b""  # closed without an answer
        for _ in range(3):  # its place and the worker are free again
            with connect(port, "127.0.0.2") as client:
                assert get(client).startswith(b"HTTP/1.0 200 ")
        with connect(port, "127.0.0.3") as reset:  # one that resets its connection mid-request
            reset.sendall(b"GET / HTTP/1.0\r\n")
            reset.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        with connect(port, "127.0.0.4") as client:
            assert get(client).startswith(b"HTTP/1.0 200 ")
    assert "web 127.0.0.2: the request failed" in caplog.text and "RuntimeError: boom" in caplog.text


def test_judge_web_serves_a_placeholder_until_the_judge_publishes(tmp_path: Path) -> None:
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
        assert status == 200 and b"<h1>Games</h1>" in body and headers["Content-Security-Policy"]
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
