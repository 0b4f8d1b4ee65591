"""The whole path behind a real Postfix, configured as ``deploy/postfix/README.md`` says: players
write to Postfix on port 25, Postfix hands judge@judge.test to ``judge serve``, and the judge's
mail goes back through Postfix into the players' Maildirs.

The machine stands for a site whose domain judge.test Postfix already delivers locally
(``mydestination``: the case where the old guide's ``virtual_alias_domains`` broke everything).
The players live at players.test, a domain Postfix treats as remote (so the judge's mail to
them needs the relay permission the guide sets up) and delivers with its ``virtual`` agent into
Maildirs under a temporary directory.  One movement phase with seven players, a bounce of an
answer to an address that does not exist (reported to the admin), an outage during which a
player sends five sheets (Postfix delivers them afterwards in its own order: the fifth is
kept); and the guide's other cases, each delivering mail end to end: a domain for the judge
alone, and two judges on one database behind one transport, one of them killed.

It reconfigures and restarts this machine's Postfix, then restores its configuration, so it
runs only when asked: ``JUDGE_TEST_POSTFIX=1``, as root, with Postfix installed (``.ci/run``
installs it from Debian's packages).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import smtplib
import socket
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from email.message import EmailMessage
from pathlib import Path

import pytest

from judge.games.payola.demo import SPRING
from tests.support.flowed import meant
from tests.support.ports import free_port
from tests.support.postfix import (
    ADMIN,
    CONFIG,
    DOMAIN,
    GM,
    PLAYERS,
    PLAYERS_DOMAIN,
    Site,
    postfix_site,
    run,
    send,
    wait_or_show_log,
)

ROOT = Path(__file__).resolve().parents[2]
SETUP = ROOT / "deploy" / "postfix" / "setup-judge.sh"

pytestmark = pytest.mark.skipif(
    not os.environ.get("JUDGE_TEST_POSTFIX") or os.geteuid() != 0 or shutil.which("postconf") is None,
    reason="reconfigures this machine's Postfix: set JUDGE_TEST_POSTFIX=1 and run as root with Postfix installed "
           "(.ci/run installs it)")


@pytest.fixture
def site() -> Iterator[Site]:
    with postfix_site() as place:
        yield place


def rcpt(address: str) -> int:
    with smtplib.SMTP("127.0.0.1", 25, timeout=30) as client:
        client.ehlo()
        client.mail(f"someone@{PLAYERS_DOMAIN}")
        return client.rcpt(address)[0]


def start_judge(work: Path, settings: str, port: int) -> subprocess.Popen[str]:
    """``judge serve`` with the settings the guide's script printed, and a data directory and admin."""
    config = work / "judge.toml"
    config.write_text(f'[judge]\n{settings}\ndata-dir = "{work / "data"}"\nadmin = "{ADMIN}"\n')
    process = subprocess.Popen([sys.executable, "-m", "judge", "serve", "--config", str(config)],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and process.poll() is None:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return process
        except OSError:
            time.sleep(0.1)
    process.kill()
    raise AssertionError(f"judge serve did not start: {process.communicate()[0]}")


def outage(site: Site, judge: subprocess.Popen[str], settings: str, port: int) -> subprocess.Popen[str]:
    """The judge stops (an upgrade, say) while France sends five sheets in turn, which Postfix
    holds; once it is back, ``postqueue -f`` delivers them in the order of Postfix's queue
    files, and the fifth is the sheet kept (issue 24, item 1).  The judge started again."""
    judge.send_signal(signal.SIGTERM)
    output = judge.communicate(timeout=60)[0]
    assert judge.returncode == 0 and "Traceback" not in output, output
    france = PLAYERS["FRANCE"]
    for n in range(1, 6):
        send(france, f"SIGNON FRANCE@e2e1 pw-france\n{n} $", subject="held")
        time.sleep(1.1)  # Postfix's Received: line counts seconds: each sheet its own
    wait_or_show_log(lambda: [json.loads(line)["queue_name"] for line in run("postqueue", "-j").splitlines()]
               == ["deferred"] * 5, "Postfix holding the five sheets", site.log)
    judge = start_judge(site.work, settings, port)
    run("postqueue", "-f")
    wait_or_show_log(lambda: site.subjects(france).count("Re: held") == 5, "the answers to the five sheets", site.log)
    send(france, "SIGNON FRANCE@e2e1 pw-france\nSTATUS", subject="status")
    assert "your current sheet/orders:\n    5 $\n" in meant(site.wait_for(france, "Re: status").get_content())
    return judge


def test_a_movement_phase_through_postfix_as_the_guide_sets_it_up(site: Site) -> None:
    port = free_port()
    printed = run("sh", SETUP, "--domain", DOMAIN, "--judge", f"127.0.0.1:{port}")  # the guide, step 2
    settings = printed_settings(printed)
    assert f'domain = "{DOMAIN}"' in settings and 'relay = "127.0.0.1:25"' in settings
    run("postfix", "start")  # the guide: where there is no systemd
    judge = start_judge(site.work, settings, port)
    try:
        assert rcpt(f"judge@{DOMAIN}") == 250 and rcpt(f"judge+e2e1@{DOMAIN}") == 250
        assert rcpt(f"nosuchuser@{DOMAIN}") == 550  # the domain's other addresses are still checked
        send(GM, "CREATE e2e1 gm-secret")
        site.confirm(GM, "CREATE e2e1")
        for power, address in PLAYERS.items():
            send(address, f"JOIN e2e1 pw-{power.lower()} {power}", to=f"judge+e2e1@{DOMAIN}")
        for address in PLAYERS.values():
            site.confirm(address, "JOIN e2e1")
        send(GM, "SIGNON MASTER@e2e1 gm-secret\nSTART")
        for address in PLAYERS.values():
            site.wait_for(address, "e2e1 starts")
        for power, sheet in SPRING.items():
            send(PLAYERS[power], f"SIGNON {power}@e2e1 pw-{power.lower()}\n{sheet}")
        for address in PLAYERS.values():  # everyone sent a sheet: the phase is processed at once
            results = site.wait_for(address, "e2e1 S1901M results")
        assert results["From"] == f"The judge <judge@{DOMAIN}>"
        verp = rf"<judge\+b[0-9a-f]{{32}}@{re.escape(DOMAIN)}>"  # VERP: the enciphered number, then its tag
        assert re.fullmatch(verp, results["Return-Path"])
        send(f"nobody@{PLAYERS_DOMAIN}", "HELP")  # the answer bounces: no such user at players.test
        report = meant(site.wait_for(ADMIN, "Undeliverable mail").get_content())
        assert f'unknown user: "nobody@{PLAYERS_DOMAIN}"' in report
        judge = outage(site, judge, settings, port)
    finally:
        stop(judge)


def printed_settings(printed: str) -> str:
    """The judge.toml lines the guide's script printed."""
    settings = printed.split("Put these in the judge's settings (judge.toml):\n", 1)[1]
    return "\n".join(line.strip() for line in settings.splitlines() if " = " in line)


def answered(site: Site, judge: subprocess.Popen[str], sender: str, to: str, subject: str) -> EmailMessage:
    """``sender`` asks the judge for HELP at ``to`` through Postfix, and gets its answer."""
    send(sender, "HELP", to=to, subject=subject)
    try:
        return site.wait_for(sender, f"Re: {subject}")
    except AssertionError:
        judge.kill()
        raise AssertionError(f"no answer; the judge said:\n{judge.communicate()[0]}") from None


def stop(judge: subprocess.Popen[str]) -> None:
    judge.send_signal(signal.SIGTERM)
    output = judge.communicate(timeout=60)[0]
    assert judge.returncode == 0 and "Traceback" not in output, output


def test_a_domain_for_the_judge_alone_receives_its_mail_through_postfix(site: Site) -> None:
    """The guide's second case: a domain Postfix did not receive before, for the judge alone.
    (Its earlier setup, a virtual alias domain whose one address was the judge's, accepted the
    mail and then bounced it: "User unknown in virtual alias table".)"""
    port = free_port()
    printed = run("sh", SETUP, "--domain", "judge-only.test", "--judge", f"127.0.0.1:{port}")
    assert "judge-only.test" not in run("postconf", "-h", "mydestination")
    run("postfix", "start")
    judge = start_judge(site.work, printed_settings(printed), port)
    try:
        assert rcpt("judge@judge-only.test") == 250 and rcpt("someone@judge-only.test") == 550
        answer = answered(site, judge, GM, "judge@judge-only.test", "help, judge alone")
        assert answer["From"] == "The judge <judge@judge-only.test>"
        answered(site, judge, GM, "judge+tag@judge-only.test", "help, with a tag")
        forged = {"Authentication-Results": f"{run('postconf', '-h', 'myhostname').strip()}; dmarc=pass "
                                            f"header.from={PLAYERS_DOMAIN}"}
        send(GM, "HELP", to="judge@judge-only.test", subject="help, forged", headers=forged)
        site.wait_for(GM, "Re: help, forged")
        with sqlite3.connect(site.work / "data" / "judge.db") as stored:
            raw = stored.execute("SELECT raw FROM inbound_mail ORDER BY id DESC LIMIT 1").fetchone()[0]
        assert b"Subject: help, forged" in raw and b"Authentication-Results" not in raw  # removed by Postfix
    finally:
        stop(judge)


def test_several_judges_behind_postfix_take_the_mail_of_one_that_is_down(site: Site) -> None:
    """The guide's third case: two judges on one database, Postfix's transport listing both;
    the first is killed, and its mail goes to the second at once."""
    first, second = free_port(), free_port()
    printed = run("sh", SETUP, "--domain", DOMAIN, "--judge", f"127.0.0.1:{first}", "--judge", f"127.0.0.1:{second}")
    assert f"judge:[127.0.0.1]:{first}, [127.0.0.1]:{second}" in (CONFIG / "judge_transport").read_text()
    settings = printed_settings(printed)
    run("postfix", "start")
    judges = [start_judge(site.work, settings, first), start_judge(site.work, settings.replace(
        f"port = {first}", f"port = {second}"), second)]
    try:
        answered(site, judges[0], GM, f"judge@{DOMAIN}", "help, both up")
        judges[0].kill()  # kill -9: no stop, no goodbye
        judges[0].communicate(timeout=60)
        answered(site, judges[1], GM, f"judge@{DOMAIN}", "help, the first one down")
    finally:
        stop(judges[1])


class CannotStore:
    """A judge cut off from its database: its listener answers 451 to every mail (`judge.mail.smtp_in`)."""

    def __init__(self) -> None:
        self.refused = 0

    async def handle_DATA(self, server: object, session: object, envelope: object) -> str:
        self.refused += 1
        return "451 4.3.0 Temporary failure storing the message; please try again later"


def test_several_judges_behind_postfix_one_that_cannot_store_hands_the_mail_to_the_next(site: Site) -> None:
    """Three judges in the transport: each is tried in one delivery (Postfix's default stops after
    two), a machine that does not answer is given up after 5 s, and the mail that the first judge,
    cut off from its database, answers with 451 goes to the next judge at once, not to the queue."""
    from aiosmtpd.controller import Controller

    first, second, third = free_port(), free_port(), free_port()
    printed = run("sh", SETUP, "--domain", DOMAIN, "--judge", f"127.0.0.1:{first}", "--judge", f"127.0.0.1:{second}",
                  "--judge", f"127.0.0.1:{third}")
    service = run("postconf", "-P", "judge/unix/smtp_mx_session_limit", "judge/unix/smtp_connect_timeout")
    assert "judge/unix/smtp_mx_session_limit = 3" in service and "judge/unix/smtp_connect_timeout = 5s" in service
    settings = printed_settings(printed)
    run("postfix", "start")
    cut_off = CannotStore()
    refusing = Controller(cut_off, hostname="127.0.0.1", port=first)
    refusing.start()
    judge = start_judge(site.work, settings.replace(f"port = {first}", f"port = {second}"), second)
    try:
        answered(site, judge, GM, f"judge@{DOMAIN}", "help, the first judge cut off")
        assert cut_off.refused >= 1  # it was asked first, and said 451
    finally:
        refusing.stop()
        stop(judge)
