"""Connections and logs are bounded: idle, surplus or hoarded SMTP sessions cannot crowd out real
mail, and a flood of one kind of log line cannot fill the disk.

The judge's own MTA is 127.0.0.1 (the default ``trusted-clients``); other clients connect from
other loopback addresses (127.0.0.2, ...), which Linux lets any socket use."""

from __future__ import annotations

import asyncio
import logging
import select
import signal
import smtplib
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from email.message import EmailMessage
from pathlib import Path

import pytest

from judge.mail.smtp_in import InboundHandler, smtp_factory
from judge.service.config import Settings
from judge.service.logs import RepeatFilter
from tests.support.clock import Clock
from tests.support.daemon import Running, maildir_subjects
from tests.support.harness import fresh_database_url
from tests.support.people import GM
from tests.support.ports import free_port
from tests.support.wait import wait_until


def banner(client: socket.socket) -> bytes:
    """Everything the server says before it waits for a command (or closes)."""
    data = b""
    while not data.endswith(b"\r\n"):
        chunk = client.recv(1024)
        if not chunk:
            break
        data += chunk
    return data


def connect(port: int, source: str = "127.0.0.1") -> socket.socket:
    client = socket.create_connection(("127.0.0.1", port), timeout=30, source_address=(source, 0))
    client.settimeout(30)  # a hung test fails, instead of waiting for ever
    return client


def send_from(judge: Running, source: str) -> None:
    """The game master's HELP, sent from ``source``; raises SMTPConnectError on a 421."""
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = GM, "judge@localhost", "orders"
    message.set_content("HELP")
    with smtplib.SMTP("127.0.0.1", judge.port, timeout=10, source_address=(source, 0)) as client:
        client.send_message(message)


def mail_gets_through(judge: Running) -> bool:
    try:
        judge.send(GM, "HELP")
    except smtplib.SMTPConnectError:
        return False  # 421: a session the server has not counted as closed yet
    except smtplib.SMTPServerDisconnected:
        return False  # on a loaded machine this session too may fall silent past a short idle timeout
    except smtplib.SMTPSenderRefused as refused:
        if refused.smtp_code != 421:
            raise
        return False  # or outlive a short lifetime (a second) before its MAIL FROM
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


@pytest.mark.parametrize(("stored", "answer"), [(True, 250), (False, 451)])
def test_a_mail_whose_store_outlasts_the_idle_timeout_is_answered_not_hung_up_on(stored: bool, answer: int) -> None:
    """A store that takes longer than the idle timeout (a database cut off is given up after about
    30 s, the timeout is 60 s, a loaded machine stretches the one past the other): the sender gets
    the store's verdict, 250 or 451, not a hang-up it cannot tell from a crash (and, where the
    store went through, would send again: a second copy)."""
    async def slow_store(raw: bytes, sender: str) -> None:
        await asyncio.sleep(1.5)  # three idle timeouts
        if not stored:
            raise OSError("the database is out of reach")

    loop = asyncio.new_event_loop()
    factory = smtp_factory(InboundHandler(lambda address: True, slow_store), max_sessions=2, per_client=2,
                           reserved=0, trusted=(), idle_timeout=0.5, lifetime=30)
    server = loop.run_until_complete(loop.create_server(factory, "127.0.0.1", 0))
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    try:
        with smtplib.SMTP("127.0.0.1", server.sockets[0].getsockname()[1], timeout=30) as client:
            client.ehlo()
            client.mail(GM)
            client.rcpt("judge@localhost")
            try:
                code = client.data(b"Subject: orders\r\n\r\nHELP\r\n")[0]
            except smtplib.SMTPDataError as refused:
                code = refused.smtp_code
        assert code == answer
    finally:
        loop.call_soon_threadsafe(server.close)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(timeout=30)
        loop.close()


def test_default_limits() -> None:
    assert (Settings().max_sessions, Settings().idle_timeout) == (100, 60.0)
    assert (Settings().max_sessions_per_client, Settings().reserved_sessions, Settings().session_lifetime) \
        == (10, 20, 300.0)
    assert Settings().trusted_clients == ("127.0.0.1", "::1")


@pytest.fixture
def judge(tmp_path: Path) -> Iterator[Running]:
    """A judge with the default limits: 100 sessions, 10 per client, 20 kept for 127.0.0.1 and ::1."""
    settings = Settings(data_dir=tmp_path, database=fresh_database_url(), port=0, tick_seconds=3600)
    running = Running(settings, Clock())
    yield running
    running.stop()


def hoard(port: int, sources: list[str], count: int) -> tuple[list[socket.socket], list[bytes]]:
    """``count`` connections from each of ``sources``, each kept alive with a NOOP if it got a
    session; the connections and what the judge first said on each."""
    clients = [connect(port, source) for source in sources for _ in range(count)]
    said = [banner(client) for client in clients]
    for client, greeting in zip(clients, said, strict=True):
        if greeting.startswith(b"220 "):
            client.sendall(b"NOOP\r\n")
            assert banner(client).startswith(b"250 ")
    return clients, said


def test_noop_sessions_from_one_client_do_not_block_real_mail(judge: Running) -> None:
    assert judge.port is not None
    clients, said = hoard(judge.port, ["127.0.0.2"], 100)
    try:
        send_from(judge, "127.0.0.3")  # another client
        send_from(judge, "127.0.0.1")  # the MTA
        assert sum(greeting.startswith(b"220 ") for greeting in said) == 10
        assert said.count(b"421 4.7.0 too many connections from your address, try again later\r\n") == 90
    finally:
        for client in clients:
            client.close()
    wait_until(lambda: maildir_subjects(judge.settings) == ["Re: orders"] * 2)


def test_a_flood_from_many_clients_leaves_the_mta_its_reserved_sessions(judge: Running) -> None:
    assert judge.port is not None
    clients, said = hoard(judge.port, [f"127.0.0.{n}" for n in range(2, 12)], 10)  # 100, 10 from each
    try:
        send_from(judge, "127.0.0.1")  # the MTA's places are not taken
        with pytest.raises(smtplib.SMTPConnectError):
            send_from(judge, "127.0.0.12")  # the others' are
        assert sum(greeting.startswith(b"220 ") for greeting in said) == 80
        assert said.count(b"421 4.7.0 too many connections, try again later\r\n") == 20
    finally:
        for client in clients:
            client.close()
    wait_until(lambda: maildir_subjects(judge.settings) == ["Re: orders"])


def test_at_most_ten_sessions_at_once_from_one_client_but_the_mta(judge: Running) -> None:
    assert judge.port is not None
    ten = [connect(judge.port, "127.0.0.2") for _ in range(10)]
    others = [connect(judge.port, source) for source in ["127.0.0.3"] + ["127.0.0.1"] * 11]
    try:
        assert all(banner(client).startswith(b"220 ") for client in ten + others)
        with connect(judge.port, "127.0.0.2") as eleventh:
            assert banner(eleventh) == b"421 4.7.0 too many connections from your address, try again later\r\n"
            assert eleventh.recv(1024) == b""  # and closed
        ten.pop().close()

        def a_place_again() -> bool:
            with connect(judge.port or 0, "127.0.0.2") as client:
                return banner(client).startswith(b"220 ")

        wait_until(a_place_again)
    finally:
        for client in ten + others:
            client.close()


def test_a_session_that_sends_noop_for_ever_is_closed_after_its_lifetime(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path, database=fresh_database_url(), port=0, tick_seconds=3600,
                        max_sessions=1, idle_timeout=30, session_lifetime=1)
    judge = Running(settings, Clock())
    try:
        assert judge.port is not None
        with connect(judge.port) as client:
            assert banner(client).startswith(b"220 ")
            said = b"250 "
            for _ in range(240):  # a minute of NOOPs, a quarter of a second apart: never idle for 30 s
                if not select.select([client], [], [], 0.25)[0]:  # the judge said nothing meanwhile
                    client.sendall(b"NOOP\r\n")
                said = banner(client)
                if not said.startswith(b"250 "):
                    break
            assert said == b"421 4.4.2 no mail finished in this session for too long, closing\r\n"
            assert client.recv(1024) == b""  # and closed
        wait_until(lambda: mail_gets_through(judge))  # its place is free again
        wait_until(lambda: maildir_subjects(settings) == ["Re: orders"])
    finally:
        judge.stop()


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
    port = free_port()
    command = [sys.executable, "-m", "judge", "serve", "--data-dir", str(tmp_path), "--port", str(port)]
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
