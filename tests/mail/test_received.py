"""Where a mail came from (issue 22.3): only ``Received:`` lines the judge's own listener or MTA
wrote on top of a mail are believed, never one its sender wrote."""

from __future__ import annotations

from datetime import datetime

from judge.mail.received import Source, accepted_at, client_address, listener_line, vouched_for

NOW = datetime(2026, 3, 1, 9, 0)
MAIL = b"From: a@example.org\r\nTo: judge@localhost\r\nSubject: x\r\n\r\nHELP\r\n"
MTA = "mx.example.net"


def ours(ip: str) -> bytes:
    return listener_line("client.example", (ip, 4242), "localhost", True, NOW)


def postfix(ip: str, by: str = MTA) -> bytes:
    return (f"Received: from client.example (client.example [{ip}])\r\n\tby {by} (Postfix) with ESMTP id 1;\r\n"
            "\tSun, 1 Mar 2026 08:55:00 +0000\r\n").encode()


def test_the_listeners_own_line_names_the_client() -> None:
    assert client_address(ours("192.0.2.7") + MAIL, None) == "192.0.2.7"
    assert client_address(ours("2001:DB8::1") + MAIL, None) == "2001:db8::1"
    assert client_address(listener_line("x y(z)", None, "localhost", False, NOW) + MAIL, None) is None  # no peer


def test_a_line_the_sender_wrote_is_never_believed() -> None:
    forged = ours("198.51.100.1")
    assert client_address(forged + MAIL, None) == "198.51.100.1"  # on top: the listener wrote it
    assert client_address(ours("192.0.2.7") + forged + MAIL, None) == "192.0.2.7"
    assert client_address(postfix("192.0.2.7") + forged + MAIL, None) is None  # `judge inject`: nothing on top
    assert client_address(MAIL, None) is None


def test_with_an_mta_its_line_below_the_listeners_is_believed() -> None:
    held = ours("127.0.0.1") + postfix("192.0.2.7") + postfix("198.51.100.1") + MAIL
    assert client_address(held, MTA) == "192.0.2.7"
    assert client_address(postfix("192.0.2.7") + MAIL, MTA) == "192.0.2.7"  # handed over by `judge inject`
    assert client_address(ours("127.0.0.1") + postfix("192.0.2.7", "other.example") + MAIL, MTA) is None
    assert accepted_at(held, MTA) == datetime(2026, 3, 1, 8, 55)  # the outage rule reads the same line


def test_a_source_is_its_address_and_envelope_and_a_network_is_what_one_host_holds() -> None:
    assert Source("192.0.2.7", "a@example.org").key == "[192.0.2.7] a@example.org"
    assert Source(None, "a@example.org").key == "[unknown] a@example.org"
    assert Source("192.0.2.7", "").network == "192.0.2.7"
    assert Source("2001:db8:1:2:3::4", "").network == "2001:db8:1:2::/64"
    assert Source(None, "").network is None


# -- the MTA's verdict on the From (Authentication-Results, RFC 8601) -------------------------------


def results(value: str) -> bytes:
    return f"Authentication-Results: {value}\r\n".encode()


def test_the_mtas_dmarc_dkim_or_spf_pass_vouches_for_that_domain() -> None:
    assert vouched_for(results(f"{MTA}; dmarc=pass (p=reject dis=none) header.from=example.org") + MAIL,
                       MTA) == {"example.org"}
    assert vouched_for(results(f"{MTA} 1; dkim=pass (2048-bit key) header.d=Example.ORG header.s=sel") + MAIL,
                       MTA) == {"example.org"}
    assert vouched_for(results(f"{MTA}; spf=pass smtp.mailfrom=bounce@example.org") + MAIL, MTA) == {"example.org"}
    assert Source(None, "a@example.org", frozenset({"example.org"})).vouches_for("a@Example.org")


def test_a_verdict_that_is_not_a_pass_vouches_for_nothing() -> None:
    for verdict in ("dmarc=fail header.from=example.org", "dkim=neutral header.d=example.org",
                    "spf=softfail smtp.mailfrom=example.org", "none", "dmarc=pass"):
        assert vouched_for(results(f"{MTA}; {verdict}") + MAIL, MTA) == set(), verdict


def test_only_the_judges_own_mta_is_believed_and_only_its_first_header() -> None:
    forged = results(f"{MTA}; dmarc=pass header.from=example.org")
    assert vouched_for(results("evil.example; dmarc=pass header.from=example.org") + MAIL, MTA) == set()
    assert vouched_for(forged + MAIL, None) == set()  # no MTA named: nothing is believed
    # the MTA's own verdict is written above the headers the mail came with: a forged one below it counts for nothing
    assert vouched_for(results(f"{MTA}; dmarc=fail header.from=example.org") + forged + MAIL, MTA) == set()
    assert vouched_for(b"Authentication-Results: (((\r\n" + MAIL, MTA) == set()  # never raises
