"""No password outlives the mail that carried it (issue 22.5): not in the stored copy, wherever
the mail held it (an HTML alternative, next to punctuation, below a signature, in the Subject,
in a quoted-printable or base64 body), not in the judge's answer nor any other outgoing mail,
and, after the daemon stops cleanly, in no file of the data directory (the database, its
write-ahead log, the intake file and its log, the Maildir, the public pages)."""

from __future__ import annotations

import base64
import email
import email.policy
import quopri
import re
import smtplib
import sqlite3
from email.message import EmailMessage
from pathlib import Path

import pytest
from sqlalchemy import select

from judge.bootstrap import database
from judge.mail.outbound import MaildirOutbox
from judge.mail.redact import masker
from judge.service.config import Settings
from judge.service.incoming.intake import FileIntake
from judge.store.database import Database
from judge.store.models import InboundMail, Outbox
from tests.support.clock import Clock
from tests.support.daemon import Running
from tests.support.harness import Judge, fresh_database_url, two_player_game
from tests.support.people import ALICE
from tests.support.wait import wait_until

GM_PW, ALICE_PW, BOB_PW = "Gm-Sesame-2207", "Al1ce-Sesame-2207", "B0b-Sesame-2207"
PASSWORDS = (GM_PW, ALICE_PW, BOB_PW)


def mail(subject: str, body: str, *, html: str | None = None, cte: str | None = None) -> bytes:
    """A mail from Alice: plain text, with an HTML alternative, or its text in a transfer encoding;
    its Message-ID is ``<rest-SUBJECT@example.org>``."""
    head = (f"From: Alice <{ALICE}>\r\nTo: judge@localhost\r\nSubject: {subject}\r\n"
            f"Message-ID: {message_id(subject)}\r\n")
    if html is not None:
        return crlf(head + "MIME-Version: 1.0\r\nContent-Type: multipart/alternative; boundary=XX\r\n\r\n--XX\r\n"
                "Content-Type: text/plain; charset=utf-8\r\n\r\n" + body + "\r\n--XX\r\n"
                "Content-Type: text/html; charset=utf-8\r\n\r\n" + html + "\r\n--XX--\r\n")
    if cte == "base64":
        encoded = base64.encodebytes(body.encode()).decode()
    elif cte == "quoted-printable":  # a soft line break in the middle of the password, as clients wrap
        encoded = quopri.encodestring(body.encode()).decode().replace("Sesame", "Ses=\r\name")
    else:
        encoded, cte = body, "8bit"
    return crlf(head + f"Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: {cte}\r\n\r\n"
                + encoded)


def crlf(text: str) -> bytes:
    """``text`` with every line ending CRLF, as SMTP carries it."""
    return re.sub(r"\r?\n", "\r\n", text).encode()


def message_id(subject: str) -> str:
    return f"<rest-{''.join(filter(str.isalnum, subject.split()[0]))[:20]}@example.org>"


SIGNON = f"SIGNON F@rest1 {ALICE_PW}\nSTATUS\n"
MAILS = [
    mail("html", SIGNON, html=f"<p>SIGNON F@rest1 {ALICE_PW}<br>STATUS</p><p>again {ALICE_PW}</p>"),
    mail("punctuation", SIGNON + f"my password, {ALICE_PW}, is ({ALICE_PW}).\n"),
    mail("signature", SIGNON + f"-- \nAlice ({ALICE_PW})\n" + "A signature longer than a page of the database.\n" * 200
         + f"Alice ({ALICE_PW})\n"),
    mail(f"orders {ALICE_PW}", SIGNON),
    mail(f"=?utf-8?q?encoded_{ALICE_PW.replace('-', '=2D')}?=", SIGNON),
    mail("qp", SIGNON + f"SET PASSWORD {ALICE_PW}\n", cte="quoted-printable"),
    mail("b64", SIGNON, cte="base64"),
]


def assert_no_password_in_the_outbox(rows: list[Outbox], sent: list[bytes]) -> None:
    """Neither an outbox row nor a mail sent (decoded) carries a password."""
    for row in rows:
        for password in PASSWORDS:
            assert password not in row.subject and password not in (row.body or ""), (row.id, password)
    for raw in sent:
        message = email.message_from_bytes(raw, policy=email.policy.default)
        assert isinstance(message, EmailMessage)
        text = str(message["Subject"]) + "".join(str(part.get_content()) for part in message.walk()
                                                 if part.get_content_maintype() == "text")
        for password in PASSWORDS:
            assert password not in text, password


def answers(settings: Settings) -> dict[str, str]:
    """The judge's answers in its Maildir, by the Message-ID they answer: their decoded text."""
    found = {}
    for raw in MaildirOutbox(settings.maildir).messages():
        message = email.message_from_bytes(raw, policy=email.policy.default)
        assert isinstance(message, EmailMessage)
        body = message.get_body(preferencelist=("plain",))
        found[str(message["In-Reply-To"])] = str(body.get_content()) if body is not None else ""
    return found


def test_no_file_of_a_cleanly_stopped_judge_keeps_a_password(tmp_path: Path) -> None:
    """Another process keeps the SQLite files open (a ``judge web``, a ``judge tick`` from cron), so
    closing the daemon's connections does not remove the write-ahead logs: the daemon truncates them."""
    settings = Settings(data_dir=tmp_path, database=fresh_database_url(), port=0, tick_seconds=3600, maps=False)
    judge = Running(settings, Clock())
    others = [sqlite3.connect(tmp_path / name) for name in ("judge.db", "judge-intake.db") if settings.database is None]
    for other in others:
        other.execute("SELECT count(*) FROM sqlite_master").fetchall()
    try:
        judge.send("gm@example.org", f"CREATE rest1 {GM_PW}")
        judge.confirm("gm@example.org")
        for address, words in ((ALICE, f"{ALICE_PW} FRANCE"), ("bob@example.org", f"{BOB_PW} GERMANY")):
            judge.send(address, f"JOIN rest1 {words}")
            judge.confirm(address)
        judge.send("gm@example.org", f"SIGNON MASTER@rest1 {GM_PW}\nSTART")
        for raw in MAILS:
            with smtplib.SMTP("127.0.0.1", judge.port, timeout=10) as client:
                client.sendmail(ALICE, ["judge@localhost"], raw)
        wanted = {message_id(str(email.message_from_bytes(raw)["Subject"])) for raw in MAILS}
        wait_until(lambda: wanted <= set(answers(settings)))
    finally:
        judge.stop()
    for answered in wanted:
        assert "your balance: 48 AgP" in answers(settings)[answered], answered  # every mail was applied
    files = [path for path in tmp_path.rglob("*") if path.is_file()]
    if settings.database is None:  # SQLite: the database and the intake, each without its log once stopped
        assert {"judge.db", "judge-intake.db"} <= {path.name for path in files}
    for path in files:
        data = path.read_bytes()
        for password in PASSWORDS:
            assert password.encode() not in data, (path.name, password)
    for other in others:
        other.close()
    db = database(settings.database_url)
    with db.transaction() as session:
        rows = list(session.scalars(select(Outbox)))
        stored = b"".join(session.scalars(select(InboundMail.raw)))
    db.engine.dispose()
    assert_no_password_in_the_outbox(rows, MaildirOutbox(settings.maildir).messages())
    assert b"Subject: orders ****" in stored and b"Subject: encoded ****" in stored  # masked, not dropped


@pytest.fixture
def judge(tmp_path: Path) -> Judge:
    judge = Judge(tmp_path)
    judge.send("gm@example.org", f"CREATE rest1 {GM_PW}")
    judge.send(ALICE, f"JOIN rest1 {ALICE_PW} FRANCE")
    judge.send("bob@example.org", f"JOIN rest1 {BOB_PW} GERMANY")
    judge.send("gm@example.org", f"SIGNON MASTER@rest1 {GM_PW}\nSTART")
    return judge


@pytest.mark.parametrize("raw", MAILS, ids=["html", "punctuation", "signature", "subject", "encoded-subject",
                                            "quoted-printable", "base64"])
def test_neither_the_stored_copy_nor_the_answer_keeps_the_password(judge: Judge, raw: bytes) -> None:
    assert judge.send_raw(raw) == "done"
    with judge.db.transaction() as session:
        stored = session.scalars(select(InboundMail.raw).order_by(InboundMail.id.desc())).first()
        rows = list(session.scalars(select(Outbox)))
    assert stored is not None and ALICE_PW.encode() not in stored and b"SIGNON F@rest1 ****" in stored
    assert_no_password_in_the_outbox(rows, MaildirOutbox(judge.settings.maildir).messages())
    reply = judge.last_to(ALICE)
    assert "your balance: 48 AgP" in reply.body or "password of France in rest1 was changed" in reply.body


def test_a_password_is_masked_as_a_token_not_inside_another_word() -> None:
    mask = masker({"pw-1"})
    assert [mask(text) for text in ("pw-1", "pw-1,", "(pw-1)", "pw-1<br>", "pw-1</p>", '"pw-1"', "x=pw-1;")] == \
        ["****", "****,", "(****)", "****<br>", "****</p>", '"****"', "x=****;"]
    assert [mask(text) for text in ("apw-1", "pw-12", "épw-1")] == ["apw-1", "pw-12", "épw-1"]


def test_a_copy_of_the_answer_to_the_seats_address_keeps_no_password_either(tmp_path: Path) -> None:
    judge = two_player_game(Judge(tmp_path))
    judge.send("mallory@evil.example", "SIGNON F@g1 alice-pw\nSTATUS\nI know alice-pw!", subject="alice-pw")
    copy = judge.last_to("alice@example.org")
    assert copy.subject.startswith("Copy:") and "alice-pw" not in copy.subject + copy.body


def test_the_database_and_the_intake_zero_what_they_delete(tmp_path: Path) -> None:
    """``secure_delete``: many SQLite builds have it on by default, not all (the test above shows
    what it keeps out of the files where it is off)."""
    db = Database(f"sqlite:///{tmp_path / 'judge.db'}")
    intake = FileIntake(tmp_path / "judge-intake.db")
    for engine in (db.engine, intake.engine):
        with engine.connect() as connection:
            assert connection.exec_driver_sql("PRAGMA secure_delete").scalar() == 1
    intake.close()
    db.engine.dispose()
