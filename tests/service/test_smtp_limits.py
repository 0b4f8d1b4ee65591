"""Connections and logs are bounded: idle or surplus SMTP sessions cannot crowd out real mail,
and a flood of one kind of log line cannot fill the disk."""

from __future__ import annotations

import logging
import signal
import smtplib
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from judge.service.config import Settings
from judge.service.logs import RepeatFilter
from tests.service.harness import fresh_database_url
from tests.service.test_daemon import GM, Clock, Running, maildir_subjects, wait_until


def banner(client: socket.socket) -> bytes:
    """Everything the server says before it waits for a command (or closes)."""
    data = b""
    while not data.endswith(b"\r\n"):
        chunk = client.recv(1024)
        if not chunk:
            break
        data += chunk
    return data


def connect(port: int) -> socket.socket:
    client = socket.create_connection(("127.0.0.1", port), timeout=30)
    client.settimeout(30)  # a hung test fails, instead of waiting for ever
    return client


def mail_gets_through(judge: Running) -> bool:
    try:
        judge.send(GM, "HELP")
    except smtplib.SMTPConnectError:
        return False  # 421: a session the server has not counted as closed yet
    return True


@pytest.fixture
def limited(tmp_path: Path) -> Iterator[Running]:
    settings = Settings(data_dir=tmp_path, database=fresh_database_url(), port=0, tick_seconds=3600,
                        max_sessions=3, idle_timeout=30)
    judge = Running(settings, Clock())
    yield judge
    judge.stop()


def test_connections_beyond_max_sessions_get_421_and_mail_gets_through_once_they_close(limited: Running) -> None:
    assert limited.port is not None
    idle = [connect(limited.port) for _ in range(3)]
    try:
        for client in idle:
            assert banner(client).startswith(b"220 ")
        with connect(limited.port) as surplus:
            assert banner(surplus) == b"421 4.7.0 too many connections, try again later\r\n"
            assert surplus.recv(1024) == b""  # and closed
        with pytest.raises(smtplib.SMTPConnectError) as refused:
            limited.send(GM, "HELP")
        assert refused.value.smtp_code == 421
    finally:
        for client in idle:
            client.close()
    wait_until(lambda: mail_gets_through(limited))
    wait_until(lambda: maildir_subjects(limited.settings) == ["Re: orders"])


def test_idle_session_is_closed_after_the_timeout_and_frees_its_place(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path, database=fresh_database_url(), port=0, tick_seconds=3600,
                        max_sessions=1, idle_timeout=0.5)
    judge = Running(settings, Clock())
    try:
        assert judge.port is not None
        with connect(judge.port) as client:
            assert banner(client).startswith(b"220 ")
            assert client.recv(1024) == b""  # the server hung up on the silent client
        wait_until(lambda: mail_gets_through(judge))
        wait_until(lambda: maildir_subjects(settings) == ["Re: orders"])
    finally:
        judge.stop()


def test_default_limits() -> None:
    assert (Settings().max_sessions, Settings().idle_timeout) == (100, 60.0)


# --- logs ---------------------------------------------------------------------------------------------


class FakeClock:
    """Seconds the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class Collect(logging.Handler):
    """Keeps the message of every record it is handed."""

    def __init__(self) -> None:
        super().__init__()
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(f"{record.name} {record.levelname} {record.getMessage()}")


@pytest.fixture
def logged() -> Iterator[tuple[logging.Logger, Collect, RepeatFilter, FakeClock]]:
    clock = FakeClock()
    handler = Collect()
    repeats = RepeatFilter(handler.handle, burst=3, interval=60, clock=clock)
    handler.addFilter(repeats)
    logger = logging.getLogger("judge.smtp.test_repeats")  # the listener's lines: those a flood is cut in
    logger.propagate, logger.level = False, logging.INFO
    logger.addHandler(handler)
    yield logger, handler, repeats, clock
    logger.removeHandler(handler)


def test_repeated_log_lines_are_cut_to_a_burst_and_a_count(
        logged: tuple[logging.Logger, Collect, RepeatFilter, FakeClock]) -> None:
    logger, handler, _, clock = logged
    for i in range(1000):
        logger.info("refused recipient %s from %s", f"x{i}@example.org", ("10.0.0.1", i))
        clock.now += 0.01
    assert handler.lines == [f"judge.smtp.test_repeats INFO refused recipient x{i}@example.org from ('10.0.0.1', {i})"
                             for i in range(3)]
    clock.now += 60  # the interval is over: the next line brings the count, then starts a new interval
    logger.info("refused recipient %s from %s", "y@example.org", ("10.0.0.2", 1))
    assert handler.lines[3:] == [  # the first line held back stands for them, as it would have been written
        "judge.smtp.test_repeats INFO 997 similar lines suppressed, such as: refused recipient x3@example.org "
        "from ('10.0.0.1', 3)",
        "judge.smtp.test_repeats INFO refused recipient y@example.org from ('10.0.0.2', 1)",
    ]


def test_log_kinds_are_counted_apart_by_logger_level_and_template(
        logged: tuple[logging.Logger, Collect, RepeatFilter, FakeClock]) -> None:
    logger, handler, _, _ = logged
    other = logger.getChild("other")
    for _ in range(5):
        logger.info("one %s", 1)
        logger.warning("one %s", 1)
        logger.info("two %s", 2)
        other.info("one %s", 1)
    assert len(handler.lines) == 4 * 3


def test_log_count_comes_when_the_interval_ends_with_any_line_and_at_flush(
        logged: tuple[logging.Logger, Collect, RepeatFilter, FakeClock]) -> None:
    logger, handler, repeats, clock = logged
    for _ in range(5):
        logger.warning("sender failed; retrying")
    for _ in range(4):
        logger.info("mail %s stored", 1)
    clock.now += 61
    logger.info("judge listening")
    assert handler.lines[-3:] == [
        "judge.smtp.test_repeats WARNING 2 similar lines suppressed, such as: sender failed; retrying",
        "judge.smtp.test_repeats INFO 1 similar lines suppressed, such as: mail 1 stored",
        "judge.smtp.test_repeats INFO judge listening",
    ]
    for _ in range(4):
        logger.info("judge listening")
    repeats.flush()
    assert handler.lines[-1] == "judge.smtp.test_repeats INFO 2 similar lines suppressed, such as: judge listening"
    written = len(handler.lines)
    repeats.flush()  # nothing more held back
    assert len(handler.lines) == written


def test_judge_serve_log_is_bounded(tmp_path: Path) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    command = [sys.executable, "-m", "judge.service.cli", "serve", "--data-dir", str(tmp_path), "--port", str(port)]
    if database := fresh_database_url():
        command += ["--database", database]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        def listening() -> bool:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    return True
            except OSError:
                return process.poll() is not None

        wait_until(listening)
        with smtplib.SMTP("127.0.0.1", port, timeout=10) as client:
            client.ehlo()
            client.mail("x@example.org")
            for i in range(30):
                assert client.rcpt(f"victim{i}@example.net")[0] == 550
    finally:
        process.send_signal(signal.SIGTERM)
        output, _ = process.communicate(timeout=30)
    refused = [line for line in output.splitlines() if "refused recipient" in line]
    assert len(refused) == 11, output
    assert "INFO 20 similar lines suppressed, such as: refused recipient victim10@example.net from" in refused[-1]
