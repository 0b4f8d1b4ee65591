"""``deploy/postfix/setup-judge.sh`` on a Postfix configuration of the test's own (never this
machine's: one that already serves a judge has tables of its own, and its Postfix is not to be
reloaded): a second domain keeps the first one's entries, two domains on one judge are warned
of, a domain for the judge alone becomes a virtual mailbox domain (a virtual alias domain's
addresses are never handed to a transport), a virtual alias domain is refused with what to do,
and several judges share one transport entry.  Needs Postfix's tools and root (``postfix
check``), and runs when asked (``JUDGE_TEST_POSTFIX=1``, as CI's Postfix stage does): Postfix
reads a main.cf changed within the last second or two only after waiting for it, so each run of
the script takes seconds.  ``tests/service/test_postfix.py`` delivers mail through each case."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

SETUP = Path(__file__).resolve().parents[2] / "deploy" / "postfix" / "setup-judge.sh"

pytestmark = pytest.mark.skipif(
    not os.environ.get("JUDGE_TEST_POSTFIX") or shutil.which("postconf") is None or os.geteuid() != 0,
    reason="runs Postfix's tools for seconds each: set JUDGE_TEST_POSTFIX=1, as root with Postfix installed")


# The services of a plain Postfix, written here rather than copied from this machine (whose master.cf may already
# carry a judge's transport, or an operator's own changes): service, type, private, unprivileged, chroot, wakeup,
# process limit, command.
MASTER = [
    "smtp inet n - y - - smtpd", "pickup unix n - y 60 1 pickup", "cleanup unix n - y - 0 cleanup",
    "qmgr unix n - n 300 1 qmgr", "tlsmgr unix - - y 1000? 1 tlsmgr", "rewrite unix - - y - - trivial-rewrite",
    "bounce unix - - y - 0 bounce", "defer unix - - y - 0 bounce", "trace unix - - y - 0 bounce",
    "verify unix - - y - 1 verify", "flush unix n - y 1000? 0 flush", "proxymap unix - - n - - proxymap",
    "proxywrite unix - - n - 1 proxymap", "smtp unix - - y - - smtp", "relay unix - - y - - smtp",
    "showq unix n - y - - showq", "error unix - - y - - error", "retry unix - - y - - error",
    "discard unix - - y - - discard", "local unix - n n - - local", "virtual unix - n n - - virtual",
    "lmtp unix - - y - - lmtp", "anvil unix - - y - 1 anvil", "scache unix - - y - 1 scache",
    "postlog unix-dgram n - n - 1 postlogd",
]


def site(tmp_path: Path, *settings: str) -> Path:
    """A Postfix configuration of its own: a master.cf of plain Postfix's services (`MASTER`), a main.cf with
    ``settings``, and a queue directory of its own (so that ``postfix status`` never finds this machine's
    Postfix); nothing of this machine's /etc/postfix is read."""
    config = tmp_path / "postfix"
    config.mkdir()
    (config / "master.cf").write_text("".join(f"{line}\n" for line in MASTER))
    (tmp_path / "spool").mkdir()
    lines = ["compatibility_level = 3.6", "myhostname = mail.example.test", "mydestination = localhost",
             f"queue_directory = {tmp_path / 'spool'}", *settings]
    (config / "main.cf").write_text("".join(f"{line}\n" for line in lines))
    return config


def setup(config: Path, *arguments: str, code: int = 0) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(["sh", str(SETUP), *arguments, "--config-dir", str(config)], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == code, done.stdout + done.stderr
    return done


def setting(config: Path, name: str) -> str:
    return subprocess.run(["postconf", "-c", str(config), "-h", name], capture_output=True, text=True,
                          check=True).stdout.strip()


def test_a_second_domain_keeps_the_first_and_two_domains_on_one_judge_are_told(tmp_path: Path) -> None:
    config = site(tmp_path, "mydestination = localhost, first.test, second.test")
    setup(config, "--domain", "first.test")
    same = setup(config, "--domain", "second.test")
    assert (config / "judge_transport").read_text().splitlines() == [
        "judge@first.test judge:[127.0.0.1]:2525", "judge@second.test judge:[127.0.0.1]:2525"]
    assert "judge@first.test (kept)" in same.stdout and "Warning: judge@first.test" in same.stderr
    apart = setup(config, "--domain", "second.test", "--judge", "127.0.0.1:2526")
    assert "judge@second.test judge:[127.0.0.1]:2526" in (config / "judge_transport").read_text()
    assert "same judge" not in apart.stderr
    assert sorted((config / "judge_recipients").read_text().splitlines()) == [
        "judge@first.test judge@first.test", "judge@second.test judge@second.test"]


def test_a_domain_for_the_judge_alone_becomes_a_virtual_mailbox_domain_not_a_virtual_alias_one(tmp_path: Path) -> None:
    config = site(tmp_path)
    done = setup(config, "--domain", "fresh.test")
    assert "(virtual mailbox, for the judge alone (new) domain)" in done.stdout
    assert "fresh.test" in setting(config, "virtual_mailbox_domains").split(", ")
    assert setting(config, "virtual_mailbox_maps") == f"hash:{config}/judge_recipients"
    assert "fresh.test" not in setting(config, "virtual_alias_domains")  # whose mail Postfix bounces
    assert setting(config, "transport_maps") == f"hash:{config}/judge_transport"
    again = setup(config, "--domain", "fresh.test")  # running it again changes nothing
    assert "(virtual mailbox domain)" in again.stdout
    assert setting(config, "virtual_mailbox_domains").split(", ").count("fresh.test") == 1


def test_a_virtual_alias_domain_is_refused_with_what_to_do(tmp_path: Path) -> None:
    config = site(tmp_path, "virtual_alias_domains = other.test, aliased.test")
    done = setup(config, "--domain", "aliased.test", code=1)
    assert "aliased.test is a virtual alias domain" in done.stderr
    assert f"postconf -c {config} -e 'virtual_alias_domains = other.test'" in done.stderr
    assert not (config / "judge_transport").exists()  # nothing changed


def test_several_judges_share_one_transport_entry_tried_in_order(tmp_path: Path) -> None:
    config = site(tmp_path, "mydestination = localhost, judge.test")
    done = setup(config, "--domain", "judge.test", "--judge", "127.0.0.1:2525", "--judge", "[::1]:2526")
    assert (config / "judge_transport").read_text().splitlines() == [
        "judge@judge.test judge:[127.0.0.1]:2525, [::1]:2526"]
    assert 'host = "127.0.0.1"\n  port = 2525\n' in done.stdout and "judge@PORT" in done.stdout
    assert "same judge" not in done.stderr
    assert setting(config, "judge_destination_concurrency_limit") == "1"


def test_an_authentication_results_header_naming_this_postfix_is_removed_as_the_mail_arrives(tmp_path: Path) -> None:
    """The judge believes (with mta-authenticates) the Authentication-Results header its Postfix's milter
    writes, by myhostname; one that comes with the mail and names it is forged (RFC 8601, section 5)."""
    config = site(tmp_path, "mydestination = localhost, judge.test", "header_checks = regexp:/etc/postfix/mine")
    setup(config, "--domain", "judge.test")
    assert setting(config, "header_checks") == f"regexp:{config}/judge_header_checks, regexp:/etc/postfix/mine"

    def action(header: str) -> str:
        return subprocess.run(["postmap", "-q", header, f"regexp:{config}/judge_header_checks"], capture_output=True,
                              text=True).stdout.strip()

    assert action("Authentication-Results: mail.example.test; dmarc=pass header.from=victim.test") == "IGNORE"
    assert action("Authentication-Results: (a (nested) comment)\n\tMAIL.example.test.; dkim=pass") == "IGNORE"
    assert action("Authentication-Results: mx.elsewhere.test; dmarc=pass header.from=x.test") == ""  # not ours
    assert action("Authentication-Results: mailXexample.test; dmarc=pass") == ""  # the dots are dots
    setup(config, "--domain", "judge.test")  # again: nothing added twice
    assert setting(config, "header_checks").count("judge_header_checks") == 1
