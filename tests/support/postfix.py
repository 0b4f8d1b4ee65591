"""This machine's Postfix set up as a site for the tests behind a real Postfix
(``tests/service/test_postfix.py``, ``tests/service/test_operations_drills.py``): the judge's
domain judge.test, which Postfix delivers locally (``mydestination``), and the players at
players.test, a domain Postfix treats as remote and delivers with its ``virtual`` agent into
Maildirs under a temporary directory.  `postfix_site` reconfigures this machine's Postfix for the
length of a test and restores its configuration afterwards."""

from __future__ import annotations

import email
import email.policy
import os
import pwd
import shutil
import smtplib
import subprocess
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from email.message import EmailMessage
from pathlib import Path

from judge.games.payola.demo import SPRING
from tests.support.wait import wait_until

CONFIG = Path("/etc/postfix")
DOMAIN, PLAYERS_DOMAIN = "judge.test", "players.test"
GM, ADMIN = f"gm@{PLAYERS_DOMAIN}", f"admin@{PLAYERS_DOMAIN}"
PLAYERS = {power: f"{power.lower()}@{PLAYERS_DOMAIN}" for power in SPRING}


def run(*command: str | Path) -> str:
    done = subprocess.run([str(part) for part in command], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, f"{command}: {done.stdout}{done.stderr}"
    return done.stdout


def postfix_running() -> bool:
    return subprocess.run(["postfix", "status"], capture_output=True).returncode == 0


def wait_or_show_log(condition: Callable[[], bool], what: str, log: Path, timeout: float = 90.0) -> None:
    """`wait_until` ``condition``, failing with the end of Postfix's ``log``, which says why."""
    try:
        wait_until(condition, what, timeout)
    except TimeoutError as timed_out:
        raise AssertionError(f"{timed_out}; Postfix's log:\n{_tail(log)}") from None


def _tail(log: Path) -> str:
    return "\n".join(log.read_text("utf-8", "replace").splitlines()[-40:]) if log.exists() else "(none)"


class Site:
    """This machine's Postfix, set up as the site the test stands for, and its players' Maildirs."""

    def __init__(self, work: Path) -> None:
        self.work = work
        self.mail = work / "mail"  # the players' Maildirs, written by Postfix's virtual agent as nobody
        self.log = work / "postfix.log"

    def configure(self) -> None:
        self.mail.mkdir(mode=0o755)
        nobody = pwd.getpwnam("nobody")
        os.chown(self.mail, nobody.pw_uid, nobody.pw_gid)
        (self.work / "players_transport").write_text(f"{PLAYERS_DOMAIN} virtual:\n")
        users = ["gm", "admin", *(power.lower() for power in PLAYERS)]  # not "nobody": its mail bounces
        (self.work / "players").write_text("".join(f"{u}@{PLAYERS_DOMAIN} {PLAYERS_DOMAIN}/{u}/\n" for u in users))
        for table in ("players_transport", "players"):
            run("postmap", f"hash:{self.work / table}")
        destinations = run("postconf", "-h", "mydestination").strip()
        run("postconf", "-e",
            f"mydestination = {destinations}, {DOMAIN}",  # the site's own domain, delivered locally
            "inet_interfaces = loopback-only",
            f"maillog_file = {self.log}",  # containers have no syslog
            f"transport_maps = hash:{self.work / 'players_transport'}",
            f"virtual_mailbox_maps = hash:{self.work / 'players'}",
            f"virtual_mailbox_base = {self.mail}",
            f"virtual_uid_maps = static:{nobody.pw_uid}",
            f"virtual_gid_maps = static:{nobody.pw_gid}")

    def mailbox(self, address: str) -> list[EmailMessage]:
        folder = self.mail / PLAYERS_DOMAIN / address.split("@")[0] / "new"
        found = []
        for path in sorted(folder.iterdir(), key=lambda p: p.stat().st_mtime_ns) if folder.exists() else []:
            message = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
            assert isinstance(message, EmailMessage)
            found.append(message)
        return found

    def subjects(self, address: str) -> list[str]:
        return [str(message["Subject"]) for message in self.mailbox(address)]

    def wait_for(self, address: str, subject: str) -> EmailMessage:
        wait_or_show_log(lambda: subject in self.subjects(address), f"'{subject}' for {address}", self.log)
        return next(m for m in self.mailbox(address) if m["Subject"] == subject)

    def confirm(self, address: str, asked: str) -> None:
        """Answer the judge's request to confirm ``address`` for ``asked``, and wait for the answer."""
        request = self.wait_for(address, f"Please confirm: {asked}")
        token = next(line for line in request.get_content().splitlines() if line.startswith("CONFIRM "))
        send(address, token, subject="confirm")
        self.wait_for(address, "Re: confirm")


@contextmanager
def postfix_site() -> Iterator[Site]:
    """The site, for the ``with``'s duration: Postfix stopped, reconfigured, and afterwards restored
    (and started again if it was running); what the test queued is removed with it."""
    was_running = postfix_running()
    work = Path(tempfile.mkdtemp(prefix="judge-postfix-", dir="/var/tmp"))
    work.chmod(0o755)  # the virtual agent, running as nobody, goes through it
    saved = work / "etc-postfix"
    shutil.copytree(CONFIG, saved, symlinks=True)
    if was_running:
        run("postfix", "stop")
    try:
        place = Site(work)
        place.configure()
        yield place
    finally:
        if postfix_running():
            run("postfix", "stop")
        if not was_running:
            subprocess.run(["postsuper", "-d", "ALL"], capture_output=True)  # nobody else's mail: it was not running
        shutil.rmtree(CONFIG)
        shutil.copytree(saved, CONFIG, symlinks=True)
        if was_running:
            run("postfix", "start")
        shutil.rmtree(work, ignore_errors=True)


def send(sender: str, body: str, to: str = f"judge@{DOMAIN}", subject: str = "orders",
         headers: dict[str, str] | None = None) -> None:
    """A player's mail, into Postfix on port 25."""
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = sender, to, subject
    for name, value in (headers or {}).items():
        message[name] = value
    message.set_content(body)
    with smtplib.SMTP("127.0.0.1", 25, timeout=30) as client:
        client.send_message(message)
