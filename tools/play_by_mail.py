"""Play the host's common behaviours by real SMTP against ``judge serve``, in every kind, and write
every mail in and out to a transcript a person reads as a player would.

``python tools/play_by_mail.py [story ...] [--out DIR]`` starts ``judge serve`` on a temporary
data directory (a config with the SMTP listener on a free port of loopback and mail out to the
Maildir), one judge a story; each story (default: machiavelli, aop, payola, exchange, pirates,
and clock, a Payola game on a weekly clock; silence and deserted, an Absence of Plague year on
AoP's week with the policy for silent seats, on a clock of their own; ``deadline``, asked by name,
waits an hour of real time for deadlines and reminders) creates a game by mail from a game
master's address, has players join and confirm, and plays: WAIT and the early close, a letter
corrected, a late mail (answered with when its phase was processed; applied with ``PHASE``), a
mail copied to another player, HELP signed on and not, CHECK, ROLLBACK and the results sent
again, ROLLFORWARD, and the end's publication.  Each story's transcript is ``DIR/<story>.txt``
(every mail sent and every mail the judge sent, in order), and a line ``!!`` marks each
expectation that did not hold (the story goes on: the transcript is the evidence, the marks what
to read first); a story's data directory is kept when one did not hold.

The judge runs as its operators run it (``judge serve --config``), so this exercises the daemon,
the SMTP listener, the outbox and the Maildir as players meet them; nothing here imports the
judge, but for the stories whose days must pass (silence, deserted): they run the daemon of
``judge serve`` in this process on the same configuration, on a clock that stands still until the
story moves it (`VirtualJudge`), and their transcripts say each moment the clock stopped at."""

from __future__ import annotations

import argparse
import asyncio
import email
import email.policy
import logging
import re
import shutil
import smtplib
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path
from typing import Any

import formatflowed

JUDGE = "judge@localhost"
BARRIER = "barrier@example.org"  # `VirtualJudge.settle`'s HELP, left out of the transcript
GM = "gm@example.org"
CONFIG = """[judge]
domain = "localhost"
data-dir = "{data}"
host = "127.0.0.1"
port = {port}
maps = false
web = false
tick-seconds = 1
settle-seconds = 0
mta-flush = ""
max-phase-changes-per-hour = 200
max-creates-per-day = 50
max-creates-per-hour = 50
max-replies-per-hour = 1000
max-confirmations-per-day = 50
"""


def free_port() -> int:
    """A port of loopback nobody listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def text_of(message: EmailMessage) -> str:
    """A mail's text (its first plain part when it has attachments) as a mail client shows it: a
    format=flowed text (RFC 3676, as the judge sends every text) read by ``formatflowed``, each
    paragraph on one line, each fixed line as it is, quoted lines with their marks again."""
    body = message.get_body(preferencelist=("plain",))
    if body is None:
        return ""
    text = str(body.get_content())
    if str(body.get_param("format", "")).lower() != "flowed":
        return text
    wire = "\r\n".join(text.removesuffix("\n").split("\n")).encode("utf-8")
    delsp = str(body.get_param("delsp", "")).lower() == "yes"
    read = formatflowed.decode(wire, character_set="utf-8", delete_space=delsp)
    lines = [">" * info["quotedepth"] + (" " if info["quotedepth"] and chunk else "") + chunk for info, chunk in read]
    return "\n".join(lines) + ("\n" if text.endswith("\n") else "")


class Judge:
    """``judge serve`` on a data directory, mailed by SMTP, its mail read from the Maildir; every
    mail each way is written to the transcript ``log``."""

    def __init__(self, data: Path, log: Path) -> None:
        self.data, self.port = data, free_port()
        config = data / "judge.toml"
        config.write_text(CONFIG.format(data=data, port=self.port))
        self.maildir = data / "outbox"
        self._seen: set[str] = set()
        self.read: list[EmailMessage] = []
        self.barriers = 0  # the answers to `VirtualJudge.settle`'s barriers, which the transcript leaves out
        self.log = log.open("a", encoding="utf-8")
        self.problems = 0
        self.start(config)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                with smtplib.SMTP("127.0.0.1", self.port, timeout=5):
                    return
            except OSError:
                time.sleep(0.2)
        raise RuntimeError("judge serve did not listen")

    def start(self, config: Path) -> None:
        """Start ``judge serve`` on ``config``, as its operators do."""
        self.process = subprocess.Popen(
            [str(Path(sys.executable).with_name("judge")), "serve", "--config", str(config),
             "--log-file", str(self.data / "serve.log")])

    def stop(self) -> None:
        """Stop the judge (SIGTERM, as systemd does) and close the transcript."""
        self.process.terminate()
        self.process.wait(timeout=60)
        self.log.close()

    def note(self, text: str) -> None:
        """A line of the transcript."""
        self.log.write(text + "\n")
        self.log.flush()

    def expect(self, holds: bool, what: str) -> None:
        """Mark in the transcript (and on standard output) an expectation that does not hold."""
        if not holds:
            self.problems += 1
            self.note(f"!! NOT AS EXPECTED: {what}")
            print(f"!! {what}")

    def send(self, sender: str, body: str, subject: str = "orders", cc: str | None = None,
             in_reply_to: str | None = None, to: str = JUDGE) -> None:
        """Mail ``body`` from ``sender`` to the judge (``to``: the To header, the judge's address
        by default; ``cc``: copied to that address too)."""
        message = EmailMessage()
        message["From"], message["To"], message["Subject"] = sender, to, subject
        if cc:
            message["Cc"] = cc
        if in_reply_to:
            message["In-Reply-To"] = in_reply_to
        message["Message-ID"] = make_msgid(domain="example.org")
        message.set_content(body)
        if sender != BARRIER:
            self.note(f"\n>>>>>>>> {sender} -> {'judge' if to == JUDGE else to}{' (Cc ' + cc + ')' if cc else ''}  "
                      f"Subject: {subject}\n{body}")
        with smtplib.SMTP("127.0.0.1", self.port, timeout=30) as client:
            client.send_message(message, to_addrs=[JUDGE])

    def mails(self) -> list[EmailMessage]:
        """Every mail the judge has sent so far, oldest first; the new ones are written out."""
        found = []
        for sub in ("new", "cur"):
            folder = self.maildir / sub
            if folder.is_dir():
                found += [p for p in folder.iterdir() if p.name not in self._seen and not p.name.startswith(".")]
        found.sort(key=lambda p: (p.stat().st_mtime_ns, p.name))
        for path in found:
            self._seen.add(path.name)
            message = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
            assert isinstance(message, EmailMessage)
            if message["To"] == BARRIER:
                self.barriers += 1
                continue
            self.read.append(message)
            attached = [str(p.get_filename()) for p in message.iter_attachments()]
            self.note(f"\n<<<<<<<< judge -> {message['To']}  Subject: {message['Subject']}"
                      + (f"  [attached: {', '.join(attached)}]" if attached else "") + f"\n{text_of(message)}")
        return self.read

    def settle(self, quiet: float = 1.5, timeout: float = 30) -> list[EmailMessage]:
        """The mails sent from now until the judge has sent nothing for ``quiet`` seconds."""
        before = len(self.mails())
        last, start = time.monotonic(), time.monotonic()
        count = before
        while time.monotonic() - last < quiet and time.monotonic() - start < timeout:
            time.sleep(0.2)
            if len(self.mails()) != count:
                count, last = len(self.read), time.monotonic()
        return self.read[before:]

    def answer(self, sender: str, body: str, **kw: Any) -> EmailMessage:
        """Mail ``body`` and return the judge's answer to it (the next ``Re:`` mail to ``sender``)."""
        before = len(self.mails())
        self.send(sender, body, **kw)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            for message in self.mails()[before:]:
                if message["To"] == sender and str(message["Subject"]).startswith("Re:"):
                    self.settle(quiet=0.6)
                    return message
            time.sleep(0.1)
        raise TimeoutError(f"no answer to {sender}")

    def wait_for(self, subject: str, to: str | None = None, timeout: float = 60,
                 subjects: tuple[str, ...] = ()) -> EmailMessage:
        """The first mail whose subject contains ``subject`` (to ``to``; and one of ``subjects``,
        in any case, if any are given) once sent."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for message in self.mails():
                title = str(message["Subject"])
                if (subject in title and to in (None, message["To"])
                        and (not subjects or any(word in title.lower() for word in subjects))):
                    return message
            time.sleep(0.1)
        raise TimeoutError(f"no mail '{subject}' to {to}")

    def confirm(self, address: str) -> None:
        """Answer the judge's request that ``address`` confirm it wants game mail."""
        for message in reversed(self.mails()):
            if str(message["Subject"]).startswith("Please confirm:") and message["To"] == address:
                token = next(line for line in text_of(message).splitlines() if line.startswith("CONFIRM "))
                self.answer(address, token)
                return
        self.wait_for("Please confirm:", address)
        self.confirm(address)


class VirtualJudge(Judge):
    """The judge's daemon run in this process, on the same configuration as ``judge serve``'s (its SMTP
    listener, its applier and deadline workers, its Maildir), but on a clock of its own that the story
    moves (`run_until`): a month of deadlines, reminders and extensions passes in a minute.  These
    stories alone import the judge: its daemon takes a clock (a callable returning a naive UTC time)
    that the command line does not offer."""

    START = datetime(2026, 1, 5, 9, 0)  # a Monday morning

    def start(self, config: Path) -> None:
        """The daemon on an event loop of its own, in a thread; its log in ``serve.log``."""
        from judge.bootstrap import kinds
        from judge.service.config import load_settings
        from judge.service.running.daemon import Daemon

        self.now = self.START
        self.handler = logging.FileHandler(self.data / "serve.log", encoding="utf-8")
        self.handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(message)s"))
        logging.getLogger().addHandler(self.handler)
        logging.getLogger().setLevel(logging.INFO)
        self.loop = asyncio.new_event_loop()
        settings = load_settings(config, overrides={"log_file": str(self.data / "serve.log")})  # its processes' too
        self.daemon = Daemon(settings, kinds(), lambda: self.now)
        self.thread = threading.Thread(target=self.loop.run_until_complete, args=(self.daemon.run(),), daemon=True)
        self.thread.start()
        self.note(f"## the clock: {self.now:%A %Y-%m-%d %H:%M} UTC")

    def stop(self) -> None:
        """Stop the daemon as SIGTERM does, and close the transcript."""
        self.loop.call_soon_threadsafe(self.daemon.stop.set)
        self.thread.join(timeout=60)
        logging.getLogger().removeHandler(self.handler)
        self.handler.close()
        self.log.close()

    def settle(self, quiet: float = 1.5, timeout: float = 30) -> list[EmailMessage]:
        """The mails sent from now until the judge has done what it had to with the mail it stored and
        queued before: a HELP from `BARRIER` is applied after the mail stored before it and answered
        after the mail queued before it (``quiet`` is not needed)."""
        before, barriers = len(self.mails()), self.barriers
        self.send(BARRIER, "HELP", subject="barrier")
        deadline = time.monotonic() + timeout
        while self.barriers == barriers:
            if time.monotonic() > deadline:
                self.expect(False, "the judge answered a HELP within 30 seconds")
                break
            time.sleep(0.05)
            self.mails()
        return self.read[before:]

    def run_until(self, end: datetime) -> list[EmailMessage]:
        """Move the clock on to ``end``, stopping at each moment a game has something to do on the way
        (a deadline, the grace's end, a reminder), where the judge does it, as the days passing would;
        the mails it sent meanwhile.  The transcript says each moment the clock stops at."""
        from judge.service.running.app import next_due

        before = len(self.mails())
        while (due := next_due(self.daemon.db)) is not None and due <= end:
            self._move(max(due, self.now))
            self.loop.call_soon_threadsafe(self.daemon.deadline_clock.tick_now.set)
            deadline = time.monotonic() + 60
            while self._busy():
                if time.monotonic() > deadline:
                    self.expect(False, f"the judge did what was due at {self.now:%Y-%m-%d %H:%M}")
                    return self.read[before:]
                time.sleep(0.05)
            self.settle()
        self._move(end)
        return self.read[before:]

    def _move(self, moment: datetime) -> None:
        if moment != self.now:
            self.now = moment
            self.note(f"\n## the clock: {moment:%A %Y-%m-%d %H:%M} UTC")

    def _busy(self) -> bool:
        """Whether a game is still due now, or being run."""
        from sqlalchemy import or_, select

        from judge.store.models import Game

        with self.daemon.db.transaction() as session:
            return session.scalar(select(Game.id).where(or_(Game.next_due <= self.now,
                                                            Game.claimed_until > self.now)).limit(1)) is not None


def addr(name: str) -> str:
    """A player's address."""
    return f"{name.lower().replace(' ', '')}@example.org"


class Game:
    """One game played by mail: its name, its game master, its seats and who plays them."""

    def __init__(self, judge: Judge, name: str, create: str, joins: dict[str, str]) -> None:
        self.judge, self.name = judge, name
        self.gm = f"gm-{name}@example.org"
        self.seats = dict(joins)  # player -> the seat asked for at JOIN, which each story's START gives
        judge.answer(self.gm, f"CREATE {name} gm-secret {create}".rstrip())
        judge.confirm(self.gm)
        for player, wish in joins.items():
            judge.answer(addr(player), f"JOIN {name} pw-{player.lower()} {wish}".rstrip())
            judge.confirm(addr(player))

    def master(self, *lines: str, **kw: Any) -> EmailMessage:
        """The game master's mail and its answer."""
        return self.judge.answer(self.gm, "\n".join((f"SIGNON MASTER@{self.name} gm-secret", *lines)), **kw)

    def play(self, player: str, *lines: str, **kw: Any) -> EmailMessage:
        """``player``'s mail with its sign-on, and the judge's answer."""
        seat = self.seats[player].replace(" ", "-")
        return self.judge.answer(addr(player), "\n".join((f"SIGNON {seat}@{self.name} pw-{player.lower()}", *lines)),
                                 **kw)


def has(message: EmailMessage, *needles: str) -> bool:
    """Whether the mail's subject or text holds every one of ``needles`` (case-insensitive)."""
    text = (str(message["Subject"]) + "\n" + text_of(message)).lower()
    return all(needle.lower() in text for needle in needles)


def lines_with(message: EmailMessage, pattern: str) -> list[str]:
    """The lines of the mail matching ``pattern``."""
    return [line for line in text_of(message).splitlines() if re.search(pattern, line, re.I)]


def no_traceback(judge: Judge) -> None:
    """No mail the judge sent shows a traceback or an internal error."""
    for message in judge.mails():
        judge.expect(not has(message, "Traceback") and "internal error" not in text_of(message).lower(),
                     f"a traceback or internal error in {message['Subject']} to {message['To']}")


# ---------------------------------------------------------------------------------------------------
# the common checks, the same story in every kind


def check_help(judge: Judge, game: Game, player: str, kind_word: str) -> None:
    """Finding 6: a seated player's HELP is its game's, short, with topics; a stranger's is the index."""
    stranger = judge.answer("stranger@example.org", "HELP")
    judge.expect(has(stranger, f"HELP {kind_word}"), "a stranger's HELP names the kinds' helps")
    seated = game.play(player, "HELP")
    size = len(text_of(seated).splitlines())
    judge.note(f"## {player}'s HELP is {size} lines; a stranger's {len(text_of(stranger).splitlines())}")
    judge.expect(size < 120, f"a seated player's HELP is short ({size} lines)")
    judge.expect(text_of(seated) != text_of(stranger), "a seated player's HELP is not the stranger's")


def check_rollback(judge: Judge, game: Game, phase: str, reader: str) -> None:
    """Finding 2 and 6: ROLLBACK to ``phase``, ROLLFORWARD answered as a command, then PROCESS: the
    results sent again are marked as such."""
    back = game.master(f"ROLLBACK {phase}")
    judge.expect(not has(back, "ERROR"), f"ROLLBACK {phase} accepted")
    forward = game.master("ROLLFORWARD", "STATUS")
    judge.expect(has(forward, "> ROLLFORWARD\n  OK:") and "> STATUS\n  game" in text_of(forward),
                 "ROLLFORWARD is answered as a command and STATUS after it is read")
    back = game.master(f"ROLLBACK {phase}")
    game.master(f"PROCESS {phase}")
    again = judge.wait_for(f"{phase} results again, after a rollback", addr(reader))
    judge.expect(has(again, "replace"), "the results sent again say which results they replace")


def check_end(judge: Judge, game: Game, reader: str, *published: str) -> EmailMessage:
    """Finding 4: TERMINATE; the end mail publishes what the game kept secret."""
    asked = game.master("TERMINATE")
    code = re.search(r"send TERMINATE (\S+)", text_of(asked))
    judge.expect(code is not None, "TERMINATE asks for its code")
    assert code is not None
    game.master(f"TERMINATE {code.group(1)}")
    end = judge.wait_for("has ended", addr(reader))
    judge.settle()
    for needle in published:
        judge.expect(has(end, needle), f"the end mail publishes '{needle}'")
    return end


KINDS: dict[str, Callable[[Any], None]] = {}
VIRTUAL: set[str] = set()  # the stories played on a clock of their own (`VirtualJudge`)


def kind(name: str, virtual: bool = False) -> Callable[[Callable[[Any], None]], Callable[[Any], None]]:
    """Register a kind's story (``virtual``: played on a `VirtualJudge`)."""
    def register(story: Callable[[Any], None]) -> Callable[[Any], None]:
        KINDS[name] = story
        if virtual:
            VIRTUAL.add(name)
        return story
    return register


@contextmanager
def running(out: Path, name: str) -> Iterator[Judge]:
    """A judge of its own for one kind's story, its transcript ``out/<name>.txt``."""
    data = Path(tempfile.mkdtemp(prefix=f"play-{name}-"))
    log = out / f"{name}.txt"
    log.unlink(missing_ok=True)
    judge = (VirtualJudge if name in VIRTUAL else Judge)(data, log)
    try:
        yield judge
        judge.settle()
        no_traceback(judge)
    finally:
        judge.stop()
        print(f"{name}: {judge.problems} expectations not met; transcript {log}; data {data}")
        if not judge.problems:
            shutil.rmtree(data, ignore_errors=True)


@kind("machiavelli")
def machiavelli(judge: Judge, scenario: str = "classic") -> None:
    """Machiavelli on the classic board: WAIT keeps the one correction (M60), a late letter (3),
    a copied letter (17.4, M58), HELP (6), ROLLBACK/ROLLFORWARD (2, 6), the end's publication (M63)."""
    seats = {"Ann": "Florence", "Bob": "Milan", "Cy": "Venice"}
    game = Game(judge, "m1", f"machiavelli {scenario}", seats)
    game.master("START")
    start = judge.wait_for("m1 starts", addr("Ann"))
    judge.settle()
    check_help(judge, game, "Ann", "machiavelli")
    topic = game.play("Ann", "HELP letters")
    judge.expect(len(text_of(topic)) > 100 and not has(topic, "no topic"), "HELP letters answers the topic")
    # Finding 1: WAIT, then every letter in: the phase waits; Ann corrects; NOWAIT closes it.
    waited = game.play("Ann", "WAIT", "transfer 3 to Milan", "pay A flo", "pay A are", "raise A psa")
    judge.expect(not has(waited, "ERROR"), "WAIT is accepted in Machiavelli")
    game.play("Bob", "pay A mil", "pay A pav", "pay A cre", "raise G mil")
    status = game.play("Bob", "STATUS")
    judge.expect(not has(status, "Florence waits") and not has(status, "WAIT"),
                 "another player's STATUS does not tell of Florence's WAIT")
    game.play("Cy", "pay G ven", "pay A pad", "pay A ver", "pay F dal")
    judge.settle(quiet=3)
    judge.expect(not any("SP1454A results" in str(m["Subject"]) for m in judge.read),
                 "the phase waits for its deadline while Florence asks to WAIT")
    gm_status = game.master("STATUS")
    judge.expect(has(gm_status, "wait"), "the game master's STATUS says who waits")
    corrected = game.play("Ann", "transfer 3 to Milan", "pay A flo", "pay A are")
    judge.expect(not has(corrected, "ERROR") and has(corrected, "correct"), "Florence's one correction is taken")
    game.play("Ann", "NOWAIT")
    results = judge.wait_for("m1 SP1454A results", addr("Ann"))
    judge.settle()
    # Finding 3: a late spring letter (its subject names the phase; then a reply to the start mail).
    late = game.play("Bob", "pay A mil", "pay A pav", "raise A cre", subject="SP1454A letter")
    judge.expect(has(late, "processed") and has(late, "not applied"), "a late letter is answered with what happened")
    late_reply = game.play("Bob", "pay A mil", subject="Re: m1 starts", in_reply_to=str(start["Message-ID"]))
    judge.expect(has(late_reply, "processed"), "a reply to the start mail is read as meant for SP1454A")
    applied = game.play("Bob", "PHASE SP1454C", "counter-bribe 3 A mil", "A cre - man", subject="SP1454A letter")
    judge.expect(not has(applied, "not applied") and not has(applied, "IGNORED"), "PHASE SP1454C applies it")
    early = game.play("Cy", "A pad H", subject="SU1454C letter")
    judge.expect(has(early, "meant for SU1454C") and has(early, "not applied"),
                 "a letter titled with a phase to come is not applied to this one")
    # A reply to the answer to a spring letter is meant for the spring, which is over: not applied.
    spring_answer = next(m for m in judge.read if m["To"] == addr("Cy") and str(m["Subject"]).startswith("Re:")
                         and "pay F dal" in text_of(m))
    stale = game.play("Cy", "A pad H", subject=f"Re: {spring_answer['Subject']}",
                      in_reply_to=str(spring_answer["Message-ID"]))
    judge.expect(has(stale, "meant for SP1454A") and has(stale, "PHASE SP1454C"),
                 "a reply to an answer of the phase before is late, and says how to apply it")
    # Finding 5: a letter copied to another player is not taken, nor does it use the correction.
    copied = game.play("Cy", "A pad H", "PRESS TO Florence", "We are copied.", "ENDPRESS", cc=addr("Ann"))
    judge.expect(has(copied, "sent to others too"), "a copied letter is refused by 17.4")
    game.play("Cy", "A pad H", "A ver H")
    second = game.play("Cy", "A pad H", "A ver - tyr", "A mil - pav")
    judge.expect(not has(second, "third") and not has(second, "ERROR"), "Cy's correction after a copied mail is taken")
    # Grey press and a bribe, for the end's publication.
    game.play("Ann", "PRESS TO Milan", "Beware of Venice.", "ENDPRESS")
    dry = game.play("Ann", "CHECK", "bodyguard 3", "assassinate Milan 30", "A flo - pst")
    judge.expect(has(dry, "check"), "CHECK is answered as a check")
    third = game.play("Cy", "A pad H")
    judge.expect(has(third, "corrected once already"), "a third letter is refused, saying so")
    # A reply to the results that opened this phase is meant for this phase, whatever its subject says.
    replied = game.play("Ann", "bodyguard 3", "bribe 6 disband A pad", "A flo - pst", "A are - pst",
                        subject=f"Re: {results['Subject']}", in_reply_to=str(results["Message-ID"]))
    judge.expect(not has(replied, "IGNORED"), "a reply to the results that opened the phase is applied")
    judge.wait_for("m1 SP1454C results", addr("Bob"))
    statement = judge.wait_for("m1 SP1454C results", addr("Cy"))
    judge.expect(bool(lines_with(statement, r"^  A mil - pav: ")),
                 "an order for a unit one does not command is reported as written")
    judge.settle()
    # Finding 2 and 6: ROLLBACK, ROLLFORWARD, results again.
    check_rollback(judge, game, "SP1454C", "Bob")
    judge.settle()
    end = check_end(judge, game, "Cy", "from Florence to Milan", "bribe 6 disband A pad", "Florence's letter")
    judge.expect(not has(end, "pw-"), "no password is published")


@kind("aop")
def absence_of_plague(judge: Judge) -> None:
    """Absence of Plague on its own board of 1459: WAIT (M60), a late letter, a copied letter
    (M58), HELP, ROLLBACK/ROLLFORWARD, the end's publication (M63)."""
    seats = {"Ann": "Milan", "Bob": "Savoy", "Cy": "Holy Roman Empire", "Dee": "Turkey"}
    game = Game(judge, "plague", "machiavelli aop", seats)
    game.master("START")
    start = judge.wait_for("plague starts", addr("Bob"))
    judge.settle()
    check_help(judge, game, "Dee", "machiavelli")
    game.play("Ann", "buy Pontremoli from Savoy for 4", "tax Como", "raise A mil", "raise A pav", "raise G cre")
    waited = game.play("Bob", "WAIT", "sell Pontremoli to Milan for 4", "raise A tor", "raise F niz")
    judge.expect(has(waited, "will wait for its deadline"), "WAIT is accepted in AoP")
    game.play("Cy", "transfer 3 to Milan", "raise A ste", "raise F tri")
    game.play("Dee", "raise F dur", "raise F mal", "raise A alb")
    judge.settle(quiet=3)
    judge.expect(not any("SP1459A results" in str(m["Subject"]) for m in judge.read),
                 "the phase waits while Savoy asks to WAIT")
    status = game.play("Dee", "STATUS")
    judge.expect(not has(status, "Savoy"), "Turkey's STATUS does not name Savoy's WAIT")
    corrected = game.play("Bob", "sell Pontremoli to Milan for 4", "raise A tor", "raise F niz", "raise F sav",
                          "NOWAIT")
    judge.expect(has(corrected, "corrects your letter"), "Savoy's correction is taken after its WAIT")
    judge.wait_for("plague SP1459A results", addr("Ann"))
    judge.settle()
    late = game.play("Dee", "raise F dur", in_reply_to=str(start["Message-ID"]), subject="Re: plague starts")
    judge.expect(has(late, "processed") and has(late, "not applied"), "a late letter is answered with what happened")
    game.play("Ann", "counter-bribe 3 A pav", "A mil - com", "A pav - pia")
    copied = game.play("Bob", "bribe 12 independent A pav", "A tor H", "F niz - lig", cc=addr("Cy"))
    judge.expect(has(copied, "sent to others too"), "a copied letter is refused by 17.4")
    game.play("Bob", "bribe 12 independent A pav", "A tor H", "F niz - lig")
    game.play("Bob", "PRESS TO Milan", "Your army in Pavia is safe.", "ENDPRESS")
    game.play("Cy", "A ste H", "F tri - uas")
    game.play("Dee", "PHASE SP1459C", "F dur - ion", "F mal - bot", "A alb H", subject="SP1459A letter")
    judge.wait_for("plague SP1459C results", addr("Ann"))
    judge.settle()
    check_rollback(judge, game, "SP1459C", "Dee")
    judge.settle()
    end = check_end(judge, game, "Ann", "bribe 12 independent A pav", "from Savoy to Milan")
    judge.expect(not has(end, "pw-"), "no password is published")


@kind("payola")
def payola(judge: Judge) -> None:
    """Payola on the standard board: WAIT, a late sheet, a copied sheet (read as any), HELP,
    CHECK, ROLLBACK/ROLLFORWARD, the end's publication."""
    seats = {"Ann": "ENGLAND", "Bob": "FRANCE", "Cy": "GERMANY"}
    game = Game(judge, "p1", "", seats)
    game.master("START")
    judge.wait_for("p1 starts", addr("Ann"))
    judge.settle()
    check_help(judge, game, "Bob", "payola")
    waited = game.play("Ann", "WAIT", "1 : F LON - NTH", "1 : F EDI - NWG")
    judge.expect(has(waited, "will wait for its deadline"), "WAIT is accepted in Payola")
    game.play("Bob", "2 : A PAR - BUR", "1 : F BRE - MAO")
    copied = game.play("Cy", "3 : A MUN - RUH", "PRESS TO ENGLAND", "Hello from Germany.", "ENDPRESS", cc=addr("Bob"))
    judge.expect(not has(copied, "IGNORED"), "a copied sheet is read in Payola")
    judge.settle(quiet=3)
    judge.expect(not any("S1901M results" in str(m["Subject"]) for m in judge.read),
                 "the phase waits while England asks to WAIT")
    status = game.play("Bob", "STATUS")
    judge.expect(not has(status, "ENGLAND wait") and not has(status, "England wait"), "no WAIT of another told")
    dry = game.play("Ann", "CHECK", "5 : F LON - NTH")
    judge.expect(has(dry, "check"), "CHECK is a check")
    game.play("Ann", "2 : F LON - NTH", "1 : F EDI - NWG", "NOWAIT")
    spring = judge.wait_for("p1 S1901M results", addr("Ann"))
    judge.settle()
    late = game.play("Bob", "1 : A BUR - MAR", subject="S1901M orders")
    judge.expect(has(late, "processed") and has(late, "not applied"), "a late sheet is answered with what happened")
    applied = game.play("Bob", "PHASE F1901M", "1 : A BUR - MAR", subject="S1901M orders")
    judge.expect(not has(applied, "IGNORED"), "PHASE F1901M applies it")
    replied = game.play("Ann", "1 : F NTH - NWY", subject=f"Re: {spring['Subject']}",
                        in_reply_to=str(spring["Message-ID"]))
    judge.expect(not has(replied, "IGNORED"), "a reply to the results that opened the phase is applied")
    game.play("Cy", "1 : A RUH - BEL")
    judge.wait_for("p1 F1901M results", addr("Ann"))
    judge.settle()
    check_rollback(judge, game, "F1901M", "Cy")
    judge.settle()
    check_end(judge, game, "Bob", "3 : A MUN - RUH", "Acceptance lists")


@kind("exchange")
def exchange(judge: Judge) -> None:
    """Exchange Payola: WAIT, a late sheet, a copied sheet, HELP, ROLLBACK/ROLLFORWARD, the end."""
    seats = {"Ann": "Ann", "Bob": "Bob", "Cat": "Cat"}
    game = Game(judge, "x1", "exchange INVESTORS=3 FUNDS=60", {name: name for name in seats})
    game.master("START")
    start = judge.wait_for("x1 starts", addr("Ann"))
    judge.settle()
    check_help(judge, game, "Ann", "exchange")
    waited = game.play("Ann", "WAIT", "BID 6 FRANCE AT 5", "BID 2 GERMANY AT 3", "ELECT FRANCE ME",
                       "ELECT GERMANY CAT")
    judge.expect(has(waited, "will wait for its deadline"), "WAIT is accepted in Exchange")
    game.play("Bob", "PRIORITY 2", "BID 5 FRANCE AT 5", "BID 5 GERMANY AT 4", "ELECT FRANCE ME",
              "ELECT GERMANY ME")
    game.play("Cat", "PRIORITY 3", "BID 4 GERMANY AT 4", "BID 3 FRANCE AT 6", "ELECT GERMANY ME",
              "ELECT FRANCE ME", "PRESS TO Bob", "Sell me France.", "ENDPRESS", cc=addr("Bob"))
    judge.settle(quiet=3)
    judge.expect(not any("W1900X results" in str(m["Subject"]) for m in judge.read),
                 "the phase waits while Ann asks to WAIT")
    status = game.play("Bob", "STATUS")
    judge.expect(not has(status, "Ann wait"), "no WAIT of another told")
    game.play("Ann", "NOWAIT")
    judge.wait_for("x1 W1900X results", addr("Bob"))
    judge.settle()
    late = game.play("Cat", "BID 4 ITALY AT 4", subject="Re: x1 starts", in_reply_to=str(start["Message-ID"]))
    judge.expect(has(late, "processed") and has(late, "not applied"), "a late sheet is answered with what happened")
    game.play("Bob", "FOR FRANCE", "WORTH PAR 24 MAR 14 BRE 10", "0 : A PAR - PIC", "0 : A MAR - SPA",
              "0 : F BRE - MAO", "END")
    game.play("Cat", "PHASE S1901M", "FOR GERMANY", "0 : F KIE - HOL", "0 : A BER - KIE", "3 : A MUN - BUR", "END",
              subject="W1900X sheet")
    judge.wait_for("x1 S1901M results", addr("Ann"))
    judge.settle()
    check_rollback(judge, game, "S1901M", "Ann")
    judge.settle()
    check_end(judge, game, "Cat", "sheet of CAT", "BID 3 FRANCE AT 6")


@kind("pirates")
def pirates(judge: Judge) -> None:
    """Pirates' Proposal: WAIT refused, a late plan, a copied plan, HELP, ROLLBACK refused saying
    why, the end's publication."""
    names = ("Ann", "Bob", "Cy", "Dee")
    game = Game(judge, "r1", "pirates PLAYERS=4 GARNETS=1", {name: name for name in names})
    game.master("START")
    starts = {name: judge.wait_for("r1 starts", addr(name)) for name in names}
    judge.settle()
    check_help(judge, game, "Cy", "pirates")
    wait = game.play("Ann", "WAIT")
    judge.expect(has(wait, "ERROR") and has(wait, "never closes before its deadline"), "Pirates refuses WAIT")
    rooms = {}
    for name in names:
        room = re.search(r"^Room: (.*)$", text_of(starts[name]), re.M)
        package = re.search(r"^Package: (\d+)", text_of(starts[name]), re.M)
        assert room and package
        mates = [mate for mate in room.group(1).split(", ") if mate != name]
        rooms[name] = mates
        plan = f"PLAN ME {int(package.group(1)) - 10 * len(mates)} " + " ".join(f"{m} 10" for m in mates)
        answer = game.play(name, plan, cc=addr(mates[0]) if name == "Bob" else None)
        judge.expect(not has(answer, "ERROR"), f"{name}'s plan is taken")
    judge.settle(quiet=3)
    judge.expect(not any("D1 results" in str(m["Subject"]) for m in judge.read), "a Pirates phase never closes early")
    game.master("PROCESS")
    judge.wait_for("r1 D1 results", addr("Ann"))
    judge.settle()
    late = game.play("Bob", "PLAN ME 3", subject="D1 plan")
    judge.expect(has(late, "processed") and has(late, "not applied"), "a late plan is answered with what happened")
    for name in names:
        ballot = f"VOTE YES ME NO {rooms[name][0]}"
        answer = game.play(name, "PHASE V1", ballot, subject="D1 plan")
        judge.expect(not has(answer, "IGNORED"), f"{name}'s ballot with PHASE V1 is applied")
    game.play("Cy", "PRESS TO Ann", "Vote for me.", "ENDPRESS")
    back = game.master("ROLLBACK")
    judge.expect(has(back, "ERROR"), "Pirates refuses ROLLBACK")
    forward = game.master("ROLLFORWARD")
    judge.expect(has(forward, "ERROR") and not has(forward, "signed off"), "ROLLFORWARD is answered")
    game.master("PROCESS")
    judge.wait_for("r1 V1 results", addr("Ann"))
    game.master("PROCESS")
    judge.wait_for("r1 D2 results", addr("Ann"))
    judge.settle()
    check_end(judge, game, "Dee", "Plan of Bob", "Ballot of Ann")


@kind("clock")
def weekly_clock(judge: Judge) -> None:
    """Payola on a weekly clock with the policy for silent seats: what START announces, STATUS,
    SET DEADLINE on a clock, and PROCESS with a silent seat (the days-long story itself is
    tests/games/payola/test_unattended_by_mail.py's: by SMTP the judge's clock is the real one)."""
    seats = {"Alice": "FRANCE", "Bob": "GERMANY"}
    game = Game(judge, "g1", "", seats)
    setup = game.master("SET CLOCK MOVEMENT MON THU 12:00 Europe/Paris", "SET CLOCK RETREAT DAILY 12:00 Europe/Paris",
                        "SET CLOCK ADJUSTMENT DAILY 12:00 Europe/Paris", "SET SILENCE ON", "START")
    judge.expect(not has(setup, "ERROR"), "the clock, the policy and START are taken")
    runs = judge.wait_for("g1: how g1 runs", addr("Bob"))
    judge.expect(has(runs, "Europe/Paris") and has(runs, "abandon"), "START announces the clock and the policy")
    judge.settle()
    game.play("Bob", "STATUS")
    game.play("Alice", "1 : A PAR - BUR")
    game.master("STATUS")
    moved = game.master("SET DEADLINE 2030-01-07 12:00 Europe/Paris")
    judge.note(f"## SET DEADLINE on a clock: {lines_with(moved, 'DEADLINE')}")
    game.master("PROCESS")
    judge.wait_for("g1 S1901M results", addr("Bob"))
    judge.settle()
    game.play("Bob", "STATUS", "GET RECORD")
    game.master("STATUS")


@kind("deadline")
def deadline(judge: Judge) -> None:
    """The clock, in real time (about 65 minutes: a deadline is at least an hour ahead): a Payola,
    a Machiavelli and an Exchange game whose deadline the game master sets an hour and a few
    minutes ahead, with a reminder 61 minutes before it; in each one seat asks to WAIT and one stays
    silent.  The reminder goes to the silent seat alone; at the deadline the phase closes though a
    seat asked to WAIT; in a fourth game (Payola, SET SILENCE ON) the silent seat's deadline is
    extended instead, everyone told who is late."""
    due = (datetime.now(UTC) + timedelta(minutes=63)).strftime("%Y-%m-%d %H:%M")
    payola = Game(judge, "d1", "", {"Ann": "ENGLAND", "Bob": "FRANCE", "Cy": "GERMANY"})
    machiavelli = Game(judge, "d2", "machiavelli", {"Ann": "Florence", "Bob": "Milan", "Cy": "Venice"})
    exchange = Game(judge, "d3", "exchange INVESTORS=3 FUNDS=60", {"Ann": "Ann", "Bob": "Bob", "Cy": "Cy"})
    silent = Game(judge, "d4", "", {"Ann": "ENGLAND", "Bob": "FRANCE", "Cy": "GERMANY"})
    silent.master("SET SILENCE ON")
    games = (payola, machiavelli, exchange, silent)
    for game in games:
        set_up = game.master("START")
        judge.expect(not has(set_up, "ERROR"), f"{game.name} starts")
        set_up = game.master("SET GRACE 0", "SET REMINDER 61m", f"SET DEADLINE {due} UTC")
        judge.expect(not has(set_up, "ERROR"), f"{game.name}'s deadline and reminder are set")
    judge.settle()
    for game in (payola, silent):
        game.play("Ann", "WAIT", "1 : F LON - NTH")
        game.play("Cy", "1 : A MUN - RUH")
    machiavelli.play("Ann", "WAIT", "pay A flo", "pay A are", "pay F psa")
    machiavelli.play("Cy", "pay G ven", "pay A pad", "pay A ver", "pay F dal")
    exchange.play("Ann", "WAIT", "PASS")
    exchange.play("Cy", "BID 10 GERMANY AT 2", "ELECT GERMANY ME")
    for game in games:
        judge.wait_for(f"{game.name} ", addr("Bob"), timeout=240, subjects=("reminder",))
    judge.settle(quiet=5)
    reminded = {(str(m["To"]), str(m["Subject"])) for m in judge.read if "remind" in str(m["Subject"]).lower()}
    judge.expect(all(to == addr("Bob") for to, _ in reminded), f"only the silent seat is reminded: {reminded}")
    for subject in ("d1 S1901M results", "d2 SP1454A results", "d3 W1900X results"):
        judge.wait_for(subject, addr("Ann"), timeout=75 * 60)
    extended = judge.wait_for("d4: S1901M extended", addr("Ann"), timeout=10 * 60)
    judge.expect(has(extended, "FRANCE") or has(extended, "France"), "the extension names the seat that is late")
    judge.settle(quiet=5)


# AoP 1459 on the weekly clock with the policy for silent seats: the players' AoP page's worked example

PLAGUE = {"France": "France", "Savoy": "Savoy", "Genoa": "Genoa", "Empire": "Holy Roman Empire", "Milan": "Milan",
          "Venice": "Venice", "Ferrara": "Ferrara", "Florence": "Florence", "Papacy": "Papacy", "Naples": "Naples",
          "Sicily": "Sicily", "Dalmatia": "Dalmatia", "Turkey": "Turkey"}  # each player named for the country
SPRING_1459 = {"France": ("raise A avi",), "Savoy": ("raise A tor", "raise F niz"), "Genoa": ("raise A gen",),
               "Empire": ("raise A ste", "raise A tir"), "Milan": ("raise A mil", "raise A pav", "raise A cre"),
               "Ferrara": ("raise A bol",), "Florence": ("raise A fir",), "Papacy": ("raise A per",),
               "Naples": ("raise A nap",), "Sicily": ("raise F pal",), "Dalmatia": ("raise A zar",),
               "Turkey": ("raise A alb", "raise F dur")}
SPRING_CAMPAIGN_1459 = {"Milan": ("A mil - com", "A pav H"), "Savoy": ("A tor - slz", "F niz - lig"),
                        "Papacy": ("bribe 9 buy G sie", "A per H"), "Ferrara": ("A bol - man",)}
OLGA = addr("Olga")  # observes both games
CAROL = addr("Carol")  # the substitute leader


def flat(message: EmailMessage) -> str:
    """A mail's subject and text with every run of spaces and line breaks made one space: a sentence the
    judge wrapped reads whole."""
    return " ".join(f"{message['Subject']} {text_of(message)}".split())


def plague_on_the_weekly_clock(judge: VirtualJudge) -> Game:
    """AoP's game "plague", every country wished for by a player named for it, Olga observing, on AoP
    18.2's week (`SET CLOCK AOP`) with the standard policy for silent seats (`SET SILENCE ON`), both set
    before the start on Monday 2026-01-05 12:00 UTC."""
    game = Game(judge, "plague", "machiavelli aop", PLAGUE)
    set_up = game.master("SET CLOCK AOP", "SET SILENCE ON")
    judge.expect(not has(set_up, "ERROR"), "the clock and the policy are set before the start")
    judge.send(OLGA, "OBSERVE plague")
    judge.confirm(OLGA)
    judge.run_until(datetime(2026, 1, 5, 12, 0))
    started = game.master("START")
    judge.expect(not has(started, "ERROR"), "the game starts")
    judge.wait_for("plague starts", addr("Milan"))
    judge.settle()
    return game


def every_reader(game: Game) -> set[str]:
    """The game master, the observer and every player of ``game``."""
    return {game.gm, OLGA, *map(addr, PLAGUE)}


def spring_1459_with_venice_silent(judge: VirtualJudge, game: Game) -> None:
    """SP1459A: every country but Venice writes; Venice is reminded daily, alerted at the deadline, the
    phase extended a day without naming it to the others (H2, H3, M59, M66), and carried out on Tuesday
    13th at 13:00."""
    others = [player for player in PLAGUE if player != "Venice"]
    for player in others:
        game.play(player, *SPRING_1459[player])
    mails = judge.run_until(datetime(2026, 1, 12, 11, 59))
    reminders = [str(m["To"]) for m in mails if "reminder" in str(m["Subject"])]
    judge.expect(reminders == [addr("Venice")] * 6, f"Venice alone is reminded, daily Tuesday to Sunday: {reminders}")
    mails = judge.run_until(datetime(2026, 1, 12, 12, 30))
    late = [m for m in mails if m["To"] == addr("Venice")]
    judge.expect(len(late) == 1 and "Without a letter by 2026-01-12 13:00 UTC, when the grace period ends, the "
                 "phase is extended to 2026-01-13 12:00 UTC" in flat(late[0]),
                 "Venice's late alert names the extension it will get, not a time the judge will not keep (H3)")
    confirmed = sorted(str(m["To"]) for m in mails if m["To"] != addr("Venice"))
    judge.expect(confirmed == sorted(map(addr, others)),
                 f"each letter in is confirmed at 12:00, alone (M59): {confirmed}")
    judge.expect(not any("Venice" in flat(m) for m in mails if m["To"] != addr("Venice")),
                 "no confirmation names Venice (M66)")
    mails = judge.run_until(datetime(2026, 1, 12, 13, 30))
    told = {str(m["To"]): flat(m) for m in mails}
    judge.expect(sorted(told) == sorted(every_reader(game)) and len(mails) == len(told),
                 "the extension is told once to each player, the game master and the observer")
    judge.expect(not any("Venice" in body for reader, body in told.items() if reader not in (game.gm, addr("Venice"))),
                 "the extension names no country to the players and the observer (H2, M66)")
    judge.expect("Venice has not acted yet" in told.get(game.gm, ""), "the game master is told which (H2)")
    judge.expect("you (Venice) have not acted yet" in told.get(addr("Venice"), ""), "Venice is told alone")
    mails = judge.run_until(datetime(2026, 1, 13, 14, 0))
    judge.expect(any("SP1459A results" in str(m["Subject"]) for m in mails), "SP1459A is carried out on Tuesday 13:00")


def takeover(judge: Judge, game: Game, player: str, country: str) -> EmailMessage:
    """``player``'s TAKEOVER of ``country`` (password pw-<player>), confirmed when the judge asks; the
    judge's answer to it."""
    asked = judge.answer(addr(player), f"TAKEOVER {country}@{game.name} pw-{player.lower()}")
    if has(asked, "to confirm"):
        judge.confirm(addr(player))
        asked = [m for m in judge.read if m["To"] == addr(player) and str(m["Subject"]).startswith("Re:")][-1]
    if not has(asked, "ERROR"):
        game.seats[player] = country
    return asked


def no_address_to_the_observer(judge: VirtualJudge) -> None:
    """No mail to the observer names another's address (M63, and the observers' privacy)."""
    for message in judge.read:
        if message["To"] == OLGA:
            others = set(re.findall(r"[\w.+-]+@example\.org", text_of(message))) - {OLGA}
            judge.expect(not others, f"the observer's '{message['Subject']}' names no address: {sorted(others)}")


@kind("silence", virtual=True)
def silence(judge: VirtualJudge) -> None:
    """AoP 1459 on the weekly clock, all thirteen countries played, Venice's player silent from the start:
    reminded daily, alerted at the deadline, the extension announced without naming it (H2, H3, M59,
    M66); abandoned after two missed deadlines, its notice naming the campaign at whose end it is
    eliminated and its deadline (M65); taken over in time by Carol, who plays the year out (18.3)."""
    game = plague_on_the_weekly_clock(judge)
    spring_1459_with_venice_silent(judge, game)
    others = [player for player in PLAGUE if player != "Venice"]
    for player in others:
        game.play(player, *SPRING_CAMPAIGN_1459.get(player, ("none",)))
    mails = judge.run_until(datetime(2026, 1, 16, 14, 0))
    reminders = [str(m["To"]) for m in mails if str(m["Subject"]) == "plague SP1459C reminder"]
    judge.expect(reminders == [addr("Venice")], f"Venice is reminded once on the Wednesday, alone: {reminders}")
    notices = [m for m in mails if str(m["Subject"]).endswith("declared abandoned")]
    readers = [str(m["To"]) for m in notices]
    judge.expect(sorted(readers) == sorted(every_reader(game)), f"one notice a reader (M65): {sorted(readers)}")
    judge.expect(all("before Summer 1459's campaign (SU1459C) is carried out, at its deadline, 2026-01-22 12:00 UTC, "
                     "Venice is eliminated then" in flat(m) for m in notices),
                 "every notice names the campaign at whose end Venice is eliminated, and its deadline (M65)")
    for player in others:
        game.play(player, "none")
    mails = judge.run_until(datetime(2026, 1, 17, 10, 0))
    judge.expect(not any("SU1459C results" in str(m["Subject"]) for m in mails),
                 "with every played country's letter in, SU1459C waits for its deadline: Venice may get a substitute")
    listed = judge.answer(CAROL, "LIST plague")
    judge.expect(bool(lines_with(listed, r"Venice: vacant.*TAKEOVER")), "LIST offers Venice to a newcomer")
    mails = judge.run_until(datetime(2026, 1, 19, 10, 0))
    judge.expect(not mails, "nobody is reminded: every played country has written")
    before = len(judge.read)
    taken = takeover(judge, game, "Carol", "Venice")
    judge.expect(not has(taken, "ERROR"), "Carol takes Venice over in time")
    judge.settle()
    told = [m for m in judge.read[before:] if m["To"] == OLGA and "Venice" in flat(m)]
    judge.expect(bool(told), "the observer is told that Venice has a new leader")
    game.play("Carol", "transfer 3 to Milan")
    judge.wait_for("plague SU1459C results", addr("Milan"))
    judge.settle()
    for player in (*others, "Carol"):
        game.play(player, "none")
    judge.wait_for("plague FA1459C results", addr("Milan"))
    judge.settle()
    who = judge.answer(OLGA, "WHOGAME plague")
    judge.expect(bool(lines_with(who, r"Venice: played")), "Venice is played again (WHOGAME)")
    no_address_to_the_observer(judge)


@kind("deserted", virtual=True)
def deserted(judge: VirtualJudge) -> None:
    """AoP 1459 on the weekly clock, all thirteen countries played: Venice silent from the start, the
    others after the spring letter.  Venice is abandoned at SP1459C's deadline and eliminated at
    SU1459C's end (M65); the twelve are abandoned at SU1459C's, in one mail a reader (M65); nobody
    takes a country over, and when FA1459C is carried out the game ends as deserted (H1), told to the
    game master, the observer and all thirteen who played; then the clock runs on and the judge is
    silent."""
    game = plague_on_the_weekly_clock(judge)
    spring_1459_with_venice_silent(judge, game)
    mails = judge.run_until(datetime(2026, 1, 16, 14, 0))
    notices = [m for m in mails if str(m["Subject"]).endswith("declared abandoned")]
    judge.expect(sorted(str(m["To"]) for m in notices) == sorted(every_reader(game)),
                 "Venice's abandonment is told once to each reader")
    mails = judge.run_until(datetime(2026, 1, 23, 14, 0))
    notices = [m for m in mails if "declared abandoned" in str(m["Subject"])]
    readers = [str(m["To"]) for m in notices]
    judge.expect(sorted(readers) == sorted(every_reader(game) - {addr("Venice")}),
                 f"the twelve abandoned at one deadline are told in one mail a reader: {sorted(readers)}")
    master = next((m for m in notices if m["To"] == game.gm), None)
    judge.expect(master is not None and all(country in flat(master) for country in PLAGUE.values()
                                            if country != "Venice"), "the game master's one mail names all twelve")
    judge.expect(master is not None and "TAKEOVER Holy-Roman-Empire@plague password" in flat(master),
                 "the notice's TAKEOVER line names the Empire as a TAKEOVER reads it")
    judge.run_until(datetime(2026, 1, 24, 10, 0))
    who = judge.answer(CAROL, "WHOGAME plague")
    judge.expect(bool(lines_with(who, r"Venice: out of the game")) and bool(lines_with(who, r"Milan: vacant")),
                 "WHOGAME shows Venice out of the game, not vacant, and Milan vacant (M65)")
    refused = takeover(judge, game, "Carol", "Venice")
    judge.expect(has(refused, "ERROR"), "a TAKEOVER of eliminated Venice is refused")
    mails = judge.run_until(datetime(2026, 1, 29, 11, 59))
    judge.expect(not [m for m in mails if m["To"] not in (game.gm, OLGA)],
                 "nobody is reminded in a phase nobody plays")
    mails = judge.run_until(datetime(2026, 1, 29, 14, 0))
    ended = [str(m["To"]) for m in mails if str(m["Subject"]) == "plague has ended"]
    judge.expect(sorted(ended) == sorted(every_reader(game)),
                 f"the end is told to the game master, the observer and all thirteen who played (H1): {sorted(ended)}")
    judge.expect(any("deserted" in flat(m) for m in mails if m["To"] == OLGA), "the end says the game was deserted")
    end = next((m for m in mails if m["To"] == addr("Milan") and str(m["Subject"]) == "plague has ended"), None)
    judge.expect(end is not None and has(end, "Nobody won, and nobody is ranked") and not has(end, "Ranking"),
                 "a deserted game's end ranks nobody (H1)")
    judge.expect(end is not None and has(end, "Milan: milan@example.org (SP1459A to SU1459C)"),
                 "Milan's player held it up to the deadline it was abandoned at, SU1459C's")
    mails = judge.run_until(datetime(2026, 2, 26, 14, 0))
    judge.expect(not mails, f"a deserted game sends nothing more: {[str(m['Subject']) for m in mails]}")
    no_address_to_the_observer(judge)


def main(argv: list[str] | None = None) -> int:
    """Play each kind asked for; 1 when an expectation did not hold."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    quick = [name for name in KINDS if name != "deadline"]  # the deadline story takes an hour of real time
    parser.add_argument("stories", nargs="*", default=quick,
                        help=f"any of {', '.join(KINDS)} (default: all but deadline)")
    parser.add_argument("--out", type=Path, default=Path("play-transcripts"))
    args = parser.parse_args(argv)
    if unknown := [name for name in args.stories if name not in KINDS]:
        parser.error(f"no story called {', '.join(unknown)}")
    args.out.mkdir(parents=True, exist_ok=True)
    problems = 0
    for name in args.stories:
        with running(args.out, name) as judge:
            try:
                KINDS[name](judge)
            except Exception as error:  # the story stops; what it read so far is in the transcript
                judge.expect(False, f"the story stopped: {error!r}")
        problems += judge.problems
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
