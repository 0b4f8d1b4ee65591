"""Random mails through the whole store-and-apply path: nothing raises, nothing is left unsettled,
and the queue keeps moving.

Hypothesis builds mails with random headers (control and line-separator characters, encoded
words, overlong values), random MIME structure (nested multiparts, charsets, transfer
encodings, HTML) and random command lines (real commands of a running game, mangled ones,
press blocks left open).  Each is stored with ``receive`` and applied with ``process_mail``; it
must end done, automatic or duplicate (a quarantine would mean a bug: one is reported as a
failure here with its mail), a plain mail after it must be applied, and everything queued must
be deliverable.
"""

from __future__ import annotations

import base64
import quopri
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from judge.service.incoming.handlers import process_mail, receive
from judge.service.outgoing.sender import deliver_pending, transport_for
from judge.service.running.app import unapplied_mail
from tests.strength import examples
from tests.support.harness import Judge, raw_mail
from tests.support.people import GM

ALICE, BOB = "alice@example.org", "bob@example.org"

SPECIAL = ["\x0c", "\x0b", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029", "\r", "\n", "\r\n", "\x00", "\t",
           "=?utf-8?q?a=0D=0Ab?=", "=?utf-8?b?4oCo?=", "<", ">", "@", '"', ",", ";", "\\", "é", "\U0001f600",
           "\udcff"]
COMMANDS = ["SIGNON F@g1 alice-pw", "SIGNON G@g1 bob-pw", "SIGNON MASTER@g1 gm-secret", "SIGNON F@g1 wrong",
            "STATUS", "LIST", "LIST g1", "HELP", "2 : A PAR - BUR", "3 : F KIE - DEN", "1*2#1 : A MUN - RUH",
            "10 $", "TRANSFER 5 TO G", "TRANSFER 1 TO ENGLAND", "PRESS TO G", "PRESS TO ALL", "ENDPRESS",
            "ACCEPT FG", "ACCEPT G?", "CLEAR", "SET DEADLINE 2026-02-01 10:00", "SET GRACE 2", "PAUSE", "RESUME",
            "JOIN g1 pw", "CREATE fz pw", "CONFIRM 0123", "SIGNOFF", "A PAR - BUR", "WAIVE", "-- ", "> quoted",
            "1000000 : A PAR - PIC", "100*1000000 : A PAR - BUR", "SET ADDRESS alice@example.org"]


def header_values() -> st.SearchStrategy[str]:
    piece = st.one_of(st.text(max_size=12), st.sampled_from(SPECIAL), st.just("x" * 400))
    return st.lists(piece, max_size=5).map("".join)


def addresses() -> st.SearchStrategy[str]:
    return st.one_of(st.sampled_from([ALICE, BOB, GM, "", "<>", "MAILER-DAEMON@example.org"]),
                     st.builds(lambda local, domain: f"{local}@{domain}", header_values(), header_values()))


def command_lines() -> st.SearchStrategy[str]:
    line = st.one_of(st.sampled_from(COMMANDS), header_values(),
                     st.builds(lambda a, b: f"{a} {b}", st.sampled_from(COMMANDS), header_values()))
    return st.lists(line, max_size=12).map("\n".join)


@st.composite
def bodies(draw: st.DrawFn, depth: int = 0) -> bytes:
    """A MIME entity (headers and body) of random structure."""
    if depth < 2 and draw(st.booleans()):
        boundary = draw(st.sampled_from(["b1", "b2", "", "x" * 80]))
        subtype = draw(st.sampled_from(["mixed", "alternative", "related", "report"]))
        parts = draw(st.lists(bodies(depth + 1), min_size=0, max_size=3))
        inner = b"".join(b"--" + boundary.encode() + b"\r\n" + part + b"\r\n" for part in parts)
        closing = draw(st.sampled_from([b"--" + boundary.encode() + b"--\r\n", b""]))
        return (f"Content-Type: multipart/{subtype}; boundary=\"{boundary}\"\r\n\r\n").encode() + inner + closing
    text = draw(command_lines())
    charset = draw(st.sampled_from(["utf-8", "utf-7", "latin-1", "us-ascii", "bogus", "utf-16"]))
    encoding = draw(st.sampled_from(["7bit", "8bit", "base64", "quoted-printable", "x-bogus"]))
    kind = draw(st.sampled_from(["text/plain", "text/html", "application/octet-stream", "text/plain; format=flowed"]))
    disposition = draw(st.sampled_from(["", "Content-Disposition: attachment\r\n", "Content-Disposition: inline\r\n"]))
    codec = "utf-8" if charset == "bogus" else charset
    data = text.encode(codec, "surrogatepass" if codec.startswith("utf") else "replace")
    if encoding == "base64":
        data = base64.encodebytes(data)
    elif encoding == "quoted-printable":
        data = quopri.encodestring(data)
    return (f"Content-Type: {kind}; charset={charset}\r\nContent-Transfer-Encoding: {encoding}\r\n{disposition}\r\n"
            ).encode() + data


@st.composite
def mails(draw: st.DrawFn) -> bytes:
    headers = [("From", draw(addresses()))]
    for name in draw(st.lists(st.sampled_from(["Reply-To", "Message-ID", "Subject", "MIME-Version", "Sender",
                                               "Auto-Submitted", "Precedence", "X-Junk", "Subject", "From"]),
                              max_size=5)):
        headers.append((name, draw(addresses()) if name in ("Reply-To", "Sender", "From") else draw(header_values())))
    head = "".join(f"{name}: {value}\r\n" for name, value in headers).encode("utf-8", "surrogateescape")
    return head + draw(bodies())


@pytest.fixture(scope="module")
def judge(tmp_path_factory: pytest.TempPathFactory) -> Judge:
    judge = Judge(Path(tmp_path_factory.mktemp("fuzz")))
    judge.send(GM, "CREATE g1 gm-secret")
    judge.send(ALICE, "JOIN g1 alice-pw FRANCE")
    judge.send(BOB, "JOIN g1 bob-pw GERMANY")
    judge.send(GM, "SIGNON MASTER@g1 gm-secret\nSTART")
    return judge


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                      HealthCheck.too_slow])
@given(raw=mails())
def test_random_mails_are_settled_and_the_queue_keeps_moving(judge: Judge, raw: bytes) -> None:
    mail_id = receive(judge.db, raw, judge.now, envelope_from=None)
    status = process_mail(judge.db, judge.settings, mail_id, judge.now)
    assert status in ("done", "automatic", "duplicate"), (status, raw)
    assert unapplied_mail(judge.db) == []
    plain = receive(judge.db, raw_mail(BOB, "LIST g1"), judge.now)
    assert process_mail(judge.db, judge.settings, plain, judge.now) == "done"
    deliver_pending(judge.db, judge.settings, transport_for(judge.settings), judge.now)
