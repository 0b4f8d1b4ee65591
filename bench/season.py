"""Season benchmark: scripted players play N games for Y years by mail against ``judge serve``,
which is killed with SIGKILL every few dozen seconds, and the run is checked afterwards.

Theory of operation.  The judge runs as it does for real: ``judge serve`` subprocesses
(``--processes``, default 1; more only on PostgreSQL) on one temporary data directory, each on
its own loopback port between 20000 and 29999, with the maps and public pages of an ordinary
deployment.  Every ``--kill-every`` seconds (default 30, give or take a third) one of them is
killed with SIGKILL, its applier process and all (the process group, as systemd kills a unit),
and started again at once.  The players and the game masters are scripted: each is a mailbox
of its own (an address per player and game) and acts only on the mails sent to it, which a
reader thread picks from the data directory's Maildir (``outbox/new``) as the judge delivers
them.  A mail is sent by SMTP to whichever judge answers, again with the same bytes (the same
Message-ID) until one answers 250, as an MTA would while the judge is down: a mail stored by a
judge killed before its 250 is then applied once, and its copy is a duplicate.

A game: its master CREATEs it, seven players JOIN it, each confirms its address (as the
judge asks the first time), the master STARTs it.  Then each player offers, in every movement
phase, for legal orders of the board it was told (the standard board at the start, then the
board of its last results mail, which the judge's engine lists the legal orders of: the same
lists a player's program would compute), a few AgP per unit and now and then for a unit of
another power; it sometimes transfers 1 AgP or sends press.  Retreats and builds are ordered
directly, as the results mail says they are due.  Now and then one player forgets a movement
phase (``--forget``, a share of the phases), so the phase does not complete by itself: its
master, who hears nothing (no chart) for ``--patience`` seconds, looks at the game (LIST) and,
if it is still in that phase, sends PROCESS.  After ``--years`` years the master sends TERMINATE, and confirms it.

Nothing reads the database while the season runs.  Once the games are over, the killing stops
and the judges run on for as long as a mail claimed by a judge killed just before takes to go
out (`judge.service.outgoing.sender.MAILDIR_TIME`, and two passes of the sender).  Afterwards (the judges stopped with
SIGTERM) the script checks, from the Maildir and then the database:

* no stuck game: every game ended, no mail left unapplied or quarantined, nothing unsent;
* every processed phase's results went once to every power, in the order of the phases;
* every account adds up: each results mail's account, added to the balance the power was
  told before, gives the balance it is told now, and the last one is the ledger's sum;
* no mail carries another power's statement or account;
* every mail a judge accepted (250) is answered (a mail In-Reply-To it).

It prints the numbers (games finished, phases, mails in and out, kills, the time) and each
check's failures; it asserts nothing about time.  The machine may be shared: the times are
noisy.

What it found (fixed since, each with its test): a restart read every mail of the Maildir
whole (`judge.mail.outbound.MaildirOutbox.message_ids`); a judge restarting while another
wrote a mail sent it again (`judge.service.outgoing.sender.settle_stale`); a master's PROCESS crossing
the phase's own end processed the next phase (`judge.service.incoming.handlers.master`).

Run: .venv/bin/python bench/season.py [--games 12] [--years 6] [--processes 1] [--kill-every 30]
     [--database postgresql+psycopg://judge@127.0.0.1:55432/postgres]  (a server: a database
     of the run's own is created on it, and dropped unless --keep) [--no-maps] [--forget 0.05]
     [--patience 10]
"""

from __future__ import annotations

import argparse
import collections
import email
import email.policy
import os
import random
import re
import shutil
import signal
import smtplib
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path

from sqlalchemy import create_engine, func, make_url, select, text

from judge.engine.legal import legal_orders
from judge.engine.map import load_map
from judge.engine.notation import parse_unit
from judge.engine.position import Phase, PlacedUnit, Position
from judge.games.payola.store import LedgerRow
from judge.mail.flowed import unflow
from judge.service.outgoing.sender import MAILDIR_TIME
from judge.service.running.daemon import SENDER_PERIOD
from judge.store.database import Database
from judge.store.models import Game, InboundMail, Outbox, PhaseRow, Player

JUDGE = "judge@localhost"
MAP = load_map("standard")
POWERS = tuple(sorted(MAP.powers))
WAIT = 180.0  # seconds a player waits for a mail before it calls its game stuck


# -- the judges ------------------------------------------------------------------------------------

class Judges:
    """``judge serve`` subprocesses on one data directory, each in a process group of its own."""

    def __init__(self, data: Path, database: str | None, count: int, maps: bool) -> None:
        self.data, self.database = data, database
        self.config = data.parent / "judge.toml"
        # A community's judge: more answers per address and hour than the default (a player of a
        # game run this fast writes more than 30 mails an hour), the rest as configured by default.
        self.config.write_text("[judge]\nmax-replies-per-hour = 1000\nmax-phase-changes-per-hour = 100\n"
                               f"maps = {'true' if maps else 'false'}\n")
        self.ports = random.sample(range(20000, 30000), count)
        self.processes: list[subprocess.Popen[bytes] | None] = [None] * count
        self.logs = [open(data.parent / f"judge{i}.log", "ab") for i in range(count)]  # noqa: SIM115
        self.kills = 0
        self.restarts: list[float] = []  # seconds from each SIGKILL to listening again
        for number in range(count):
            self.start(number)

    def start(self, number: int) -> None:
        command = [sys.executable, "-m", "judge", "serve", "--config", str(self.config),
                   "--data-dir", str(self.data), "--port", str(self.ports[number])]
        if self.database:
            command += ["--database", self.database]
        process = subprocess.Popen(command, stdout=self.logs[number], stderr=subprocess.STDOUT, start_new_session=True)
        self.processes[number] = process
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and process.poll() is None:
            try:
                socket.create_connection(("127.0.0.1", self.ports[number]), timeout=1).close()
                return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError(f"judge {number} did not start (see {self.logs[number].name})")

    def kill(self, number: int) -> None:
        """SIGKILL the judge and its applier (its process group), then start it again."""
        process = self.processes[number]
        assert process is not None
        killed = time.monotonic()
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
        self.kills += 1
        self.start(number)
        self.restarts.append(time.monotonic() - killed)

    def stop(self) -> None:
        for process in self.processes:
            if process is not None:
                process.send_signal(signal.SIGTERM)
        for process in self.processes:
            if process is not None:
                process.wait(timeout=120)
        for log in self.logs:
            log.close()


def killer(judges: Judges, every: float, stop: threading.Event) -> None:
    """Kill one judge after another, every ``every`` seconds give or take a third."""
    number = 0
    while not stop.wait(every * random.uniform(2 / 3, 4 / 3)):
        judges.kill(number)
        number = (number + 1) % len(judges.ports)


# -- mail ------------------------------------------------------------------------------------------

@dataclass
class Received:
    """A mail the judge delivered: whom to, its subject, text, and the mail it answers."""

    key: str
    to: str
    subject: str
    text: str
    in_reply_to: str


class Mailboxes:
    """Reads the judge's Maildir as it fills, and gives each address its own mail, in order."""

    def __init__(self, maildir: Path) -> None:
        self.new = maildir / "new"
        self.seen: set[str] = set()
        self.boxes: dict[str, list[Received]] = collections.defaultdict(list)
        self.all: list[Received] = []
        self.changed = threading.Condition()

    def scan(self) -> None:
        """Read the mails delivered since the last scan, oldest first (mtime, then name)."""
        try:
            entries = [entry for entry in os.scandir(self.new) if entry.name not in self.seen]
        except FileNotFoundError:
            return
        found = sorted((entry.stat().st_mtime_ns, entry.name, entry.path) for entry in entries)
        mails = []
        for _, name, path in found:
            message = email.message_from_bytes(Path(path).read_bytes(), policy=email.policy.default)
            assert isinstance(message, EmailMessage)
            body = message.get_body(preferencelist=("plain",))
            mails.append(Received(name, str(message["To"]), str(message["Subject"]),
                                  unflow(str(body.get_content())) if body is not None else "",
                                  str(message["In-Reply-To"] or "")))
            self.seen.add(name)
        if mails:
            with self.changed:
                for mail in mails:
                    self.boxes[mail.to].append(mail)
                    self.all.append(mail)
                self.changed.notify_all()

    def run(self, stop: threading.Event) -> None:
        while not stop.wait(0.1):
            self.scan()

    def wait(self, address: str, test: Callable[[Received], bool], timeout: float = WAIT) -> Received | None:
        """The first mail to ``address`` that passes ``test``, once it comes (None after ``timeout``)."""
        deadline = time.monotonic() + timeout
        with self.changed:
            while True:
                for mail in self.boxes[address]:
                    if test(mail):
                        return mail
                left = deadline - time.monotonic()
                if left <= 0:
                    return None
                self.changed.wait(left)


def subject_is(subject: str) -> Callable[[Received], bool]:
    return lambda mail: mail.subject == subject


@dataclass
class Post:
    """Sends mail to the judges as an MTA would: the same bytes again until one answers 250."""

    ports: list[int]
    accepted: dict[str, str] = field(default_factory=dict)  # Message-ID -> sender
    retries: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def send(self, sender: str, body: str, subject: str) -> str:
        message = EmailMessage()
        message["From"], message["To"], message["Subject"] = sender, JUDGE, subject
        message["Message-ID"] = make_msgid(domain="example.org")
        message.set_content(body)
        deadline = time.monotonic() + WAIT
        while True:
            port = random.choice(self.ports)
            try:
                with smtplib.SMTP("127.0.0.1", port, timeout=30) as client:
                    client.send_message(message)
                with self.lock:
                    self.accepted[str(message["Message-ID"])] = sender
                return str(message["Message-ID"])
            except (OSError, smtplib.SMTPException):
                with self.lock:
                    self.retries += 1
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)


# -- the players -----------------------------------------------------------------------------------

SECTION = re.compile(r"^The board for (\S+)")
UNITS = re.compile(r"^  (\w+): \d+ center\(s\), \d+ unit\(s\): (.*)$")
DISLODGED = re.compile(r"^  (\w+) ([AF] [A-Z/]+): (may retreat to (.*)|no retreat possible|dislodged)$")
CENTERS = re.compile(r"^  (\w+) \(\d+\): (.*)$")
ADJUST = re.compile(r"^  (\w+): \d+ center\(s\), \d+ unit\(s\): (may build (\d+)|must remove (\d+))"
                    r"(?: \(free home centers: ([A-Z ]+)\))?")
ENTRY = re.compile(r"^\s+([+-]\d+) AgP  ")
BALANCE = re.compile(r"(?:your balance|Your balance): (-?\d+) AgP")
NEXT = re.compile(r"^Next phase: (\S+),", re.M)
TERMINATE_CODE = re.compile(r"to confirm, send TERMINATE (\S+)")
OWNER = re.compile(r"(?:private statement|Your account) as (\w+)")


@dataclass
class Board:
    """What a results mail tells of the board the next phase starts from."""

    units: dict[str, list[str]] = field(default_factory=dict)
    centers: dict[str, str] = field(default_factory=dict)
    dislodged: dict[str, list[tuple[str, list[str]]]] = field(default_factory=dict)
    builds: dict[str, tuple[int, list[str]]] = field(default_factory=dict)
    removals: dict[str, int] = field(default_factory=dict)


def read_board(mail_text: str) -> Board:
    board, part = Board(), ""
    for line in _unwrapped(mail_text):
        if SECTION.match(line):
            part = "units"
        elif line.startswith("Dislodged"):
            part = "dislodged"
        elif line.startswith("Supply centers"):
            part = "centers"
        elif line.startswith("Adjustments due"):
            part = "adjust"
        elif not line.startswith("  "):
            if line.strip():
                part = ""
        elif part == "units" and (match := UNITS.match(line)):
            units = match.group(2)
            board.units[match.group(1).upper()] = [] if units == "no units" else units.split(", ")
        elif part == "dislodged" and (match := DISLODGED.match(line)):
            options = (match.group(4) or "").split(", ") if match.group(4) else []
            board.dislodged.setdefault(match.group(1).upper(), []).append((match.group(2), options))
        elif part == "centers" and (match := CENTERS.match(line)):
            for center in match.group(2).split():
                board.centers[center] = match.group(1).upper()
        elif part == "adjust" and (match := ADJUST.match(line)):
            power = match.group(1).upper()
            if match.group(3):
                board.builds[power] = (int(match.group(3)), (match.group(5) or "").split())
            else:
                board.removals[power] = int(match.group(4))
    return board


def _unwrapped(mail_text: str) -> list[str]:
    """The lines of a results mail, a board or center table's wrapped lines (continued
    indented under their power: World's 17 powers) joined to the line they continue."""
    lines: list[str] = []
    table = False
    for line in mail_text.splitlines():
        if line.startswith("The board for") or line.startswith("Supply centers"):
            table = True
        elif not line.startswith("  "):
            table = False
        if table and line.startswith("    ") and lines:
            lines[-1] += " " + line.strip()
        else:
            lines.append(line)
    return lines


def account_adds_up(mail_text: str, before: int) -> tuple[int, bool]:
    """The balance a results mail tells, and whether its account's entries lead there from ``before``."""
    told, entries, inside = before, 0, False
    for line in mail_text.splitlines():
        if line.startswith("Your account as"):
            inside = True
        elif inside and (match := ENTRY.match(line)):
            entries += int(match.group(1))
        elif inside and (match := BALANCE.search(line)):
            told = int(match.group(1))
            inside = False
    return told, before + entries == told


@dataclass
class Seat:
    power: str
    address: str
    password: str
    balance: int = 0
    board: Board = field(default_factory=Board)
    wrong_accounts: int = 0


class Season:
    """The whole run: the judges, the mailboxes, the games' threads, and what they saw."""

    def __init__(self, args: argparse.Namespace, judges: Judges, boxes: Mailboxes) -> None:
        self.args, self.judges, self.boxes = args, judges, boxes
        self.post = Post(judges.ports)
        self.stuck: list[str] = []
        self.wrong_accounts: list[str] = []
        self.seats: dict[str, dict[str, Seat]] = {}
        self.processes_sent = 0
        self.forgotten = 0
        self.lock = threading.Lock()

    def confirm(self, address: str) -> bool:
        request = self.boxes.wait(address, lambda mail: mail.subject.startswith("Please confirm:"))
        if request is None:
            return False
        token = next(line for line in request.text.splitlines() if line.startswith("CONFIRM "))
        self.post.send(address, token, "confirm")
        return True

    def play(self, number: int) -> None:
        try:
            self._play(number)
        except Exception as exc:  # a game that cannot go on is a finding, not the end of the run
            with self.lock:
                self.stuck.append(f"game{number}: {type(exc).__name__}: {exc}")

    def _play(self, number: int) -> None:
        rng = random.Random(number)
        name, master, secret = f"season{number}", f"gm{number}@example.org", f"gm-{number}"
        seats = {power: Seat(power, f"{power.lower()}{number}@example.org", f"pw-{power.lower()}-{number}")
                 for power in POWERS}
        self.seats[name] = seats
        self.post.send(master, f"CREATE {name} {secret}", f"{name} create")
        if not self.confirm(master):
            raise RuntimeError(f"{name}: no request to confirm its master's address")
        for seat in seats.values():
            self.post.send(seat.address, f"JOIN {name} {seat.password} {seat.power}", f"{name} join")
        for seat in seats.values():
            if not self.confirm(seat.address):
                raise RuntimeError(f"{name}: no request to confirm {seat.address}")
        for seat in seats.values():  # joined once confirmed: the answer to CONFIRM says so
            if self.boxes.wait(seat.address, lambda mail: mail.subject == "Re: confirm") is None:
                raise RuntimeError(f"{name}: {seat.address}'s CONFIRM unanswered")
        self.post.send(master, f"SIGNON MASTER@{name} {secret}\nSTART", f"{name} start")
        phase = ""
        for seat in seats.values():
            start = self.boxes.wait(seat.address, lambda mail: mail.subject == f"{name} starts")
            if start is None:
                raise RuntimeError(f"{name}: {seat.power} was not told the game started")
            seat.balance = int(BALANCE.search(start.text).group(1))  # type: ignore[union-attr]
            initial = Position.initial(MAP)
            seat.board.units = {power: [str(u.unit) for u in initial.units_of(power)] for power in POWERS}
            seat.board.centers = dict(initial.centers)
            phase = re.search(r"First phase: (\S+),", start.text).group(1)  # type: ignore[union-attr]
        last_year = MAP.start_year + self.args.years - 1
        count = 0
        while Phase.parse(phase).year <= last_year:
            count += 1
            forgetful = (rng.choice(POWERS) if phase.endswith("M") and rng.random() < self.args.forget else None)
            for seat in seats.values():
                if seat.power != forgetful:
                    self.act(name, seat, phase, rng, count)
            if forgetful:
                with self.lock:
                    self.forgotten += 1
            self.oversee(name, master, secret, phase)
            following, subject = "", f"{name} {phase} results"
            for seat in seats.values():
                results = self.boxes.wait(seat.address, subject_is(subject))
                if results is None:
                    raise RuntimeError(f"{name}: no results of {phase} for {seat.power}")
                seat.board = read_board(results.text)
                seat.balance, adds_up = account_adds_up(results.text, seat.balance)
                if not adds_up:
                    with self.lock:
                        self.wrong_accounts.append(f"{name} {phase} {seat.power}")
                found = NEXT.search(results.text)
                if found is None:
                    raise RuntimeError(f"{name}: the results of {phase} name no next phase (won?)")
                following = found.group(1)
            phase = following
        asked = self.post.send(master, f"SIGNON MASTER@{name} {secret}\nTERMINATE", f"{name} terminate")
        answer = self.boxes.wait(master, lambda mail: mail.in_reply_to == asked)
        code = TERMINATE_CODE.search(answer.text) if answer is not None else None
        if code is None:
            raise RuntimeError(f"{name}: TERMINATE was not answered with its confirmation code")
        self.post.send(master, f"SIGNON MASTER@{name} {secret}\nTERMINATE {code.group(1)}", f"{name} terminate")
        if self.boxes.wait(master, lambda mail: mail.subject == f"{name} has ended") is None:
            raise RuntimeError(f"{name}: TERMINATE did not end it")

    def oversee(self, name: str, master: str, secret: str, phase: str) -> None:
        """The master, who hears nothing of ``phase`` (no chart) for a while, looks at the game
        (LIST): if it is still in ``phase``, it waits for someone, and the master processes it.
        Mail is applied in order, so the LIST sees every sheet sent before it; a PROCESS sent
        without looking could cross the phase's own processing and process the next one."""
        def charted(mail: Received) -> bool:
            return mail.subject == f"{name} {phase} chart"

        if self.boxes.wait(master, charted, timeout=self.args.patience) is not None:
            return
        asked = self.post.send(master, f"LIST {name}", f"{name} {phase} list")
        answer = self.boxes.wait(master, lambda mail: mail.in_reply_to == asked)
        if answer is None:
            raise RuntimeError(f"{name}: the master's LIST in {phase} was not answered")
        if f"phase: {phase}," in answer.text and not self.boxes.wait(master, charted, timeout=0):
            self.post.send(master, f"SIGNON MASTER@{name} {secret}\nPROCESS", f"{name} {phase} process")
            with self.lock:
                self.processes_sent += 1

    def act(self, name: str, seat: Seat, phase: str, rng: random.Random, count: int) -> None:
        """What ``seat`` sends for ``phase``, from the board of its own last mail (None: nothing due)."""
        board, lines = seat.board, []
        if phase.endswith("M"):
            lines = self.offers(seat, phase, rng)
            if lines and rng.random() < 0.1:
                lines.append(f"TRANSFER 1 TO {rng.choice([p for p in POWERS if p != seat.power])}")
            if lines and rng.random() < 0.1:
                to = rng.choice([p for p in POWERS if p != seat.power])
                lines += [f"PRESS TO {to}", f"{seat.power.title()} to {to.title()}: shall we, in {phase}?", "ENDPRESS"]
        elif phase.endswith("R"):
            for unit, options in board.dislodged.get(seat.power, []):
                choice = rng.choice([*options, ""])
                lines.append(f"{unit} - {choice}" if choice else f"{unit} D")
        elif seat.power in board.builds:
            builds, homes = board.builds[seat.power]
            lines = [f"BUILD A {home}" for home in homes[:builds]]
        elif seat.power in board.removals:
            units = board.units.get(seat.power, [])
            lines = [f"REMOVE {unit}" for unit in rng.sample(units, min(board.removals[seat.power], len(units)))]
        if lines:
            self.post.send(seat.address, "\n".join([f"SIGNON {seat.power}@{name} {seat.password}", *lines]),
                           f"{name} {phase} {seat.power.lower()} #{count}")

    def offers(self, seat: Seat, phase: str, rng: random.Random) -> list[str]:
        """An offer sheet: a few AgP for a legal order of each unit of its own, and now and then
        for one of another power's, within its balance."""
        units = [PlacedUnit(power, parse_unit(MAP, unit)) for power, names in seat.board.units.items()
                 for unit in names]
        if not any(unit.power == seat.power for unit in units):
            return []
        position = Position.build(MAP, Phase.parse(phase), units, seat.board.centers)
        mine = [unit for unit in units if unit.power == seat.power]
        others = [unit for unit in units if unit.power != seat.power]
        chosen = mine + ([rng.choice(others)] if others and rng.random() < 0.3 else [])
        budget, lines = seat.balance, []
        for unit in chosen:
            orders = legal_orders(position, unit.unit.location.province)
            amount = min(rng.randint(1, 4), budget)
            budget -= amount
            lines.append(f"{amount} : {rng.choice(orders)}")
        return lines


# -- the checks ------------------------------------------------------------------------------------

def check(season: Season, db: Database) -> dict[str, list[str]]:
    """What went wrong, by check (an empty list: the check passed)."""
    boxes = season.boxes
    failures: collections.defaultdict[str, list[str]] = collections.defaultdict(list)
    failures["no stuck game"] += season.stuck
    power_of = {seat.address: seat.power for seats in season.seats.values() for seat in seats.values()}
    for mail in boxes.all:
        for owner in OWNER.findall(mail.text):
            if power_of.get(mail.to) != owner.upper():
                failures["no mail carries another power's statement"].append(
                    f"{mail.key} to {mail.to} ({mail.subject}) carries {owner}'s")
    answers = collections.Counter(mail.in_reply_to for mail in boxes.all if mail.in_reply_to)
    for message_id, sender in season.post.accepted.items():
        if answers[message_id] == 0:
            failures["every accepted mail answered"].append(f"{message_id} from {sender}")
    failures["every account adds up"] += [f"{what}: the account does not lead to the balance told"
                                         for what in season.wrong_accounts]
    with db.transaction() as session:
        left = session.execute(select(InboundMail.status, func.count()).where(
            InboundMail.status.in_(("new", "applying", "quarantined"))).group_by(InboundMail.status)).all()
        failures["no stuck game"] += [f"{n} inbound mail(s) {status}" for status, n in left]
        unsent = session.scalar(select(func.count()).select_from(Outbox).where(Outbox.status != "sent")) or 0
        if unsent:
            failures["no stuck game"].append(f"{unsent} outgoing mail(s) not sent")
        for game in session.scalars(select(Game).order_by(Game.id)):
            if game.state != "finished":
                failures["no stuck game"].append(f"{game.name} is {game.state} in {game.phase}")
            phases = list(session.scalars(select(PhaseRow.name).where(
                PhaseRow.game_id == game.id, PhaseRow.status == "processed").order_by(PhaseRow.id)))
            seats = season.seats.get(game.name, {})
            for player in session.scalars(select(Player).where(Player.game_id == game.id)):
                if player.address is None or player.seat is None:
                    continue
                told = [mail.subject.split()[1] for mail in boxes.boxes[player.address]
                        if mail.subject.startswith(f"{game.name} ") and mail.subject.endswith(" results")]
                if told != phases:
                    failures["every phase's results once to every power, in order"].append(
                        f"{game.name} {player.seat}: told {' '.join(told)}; processed {' '.join(phases)}")
                ledger = session.scalar(select(func.sum(LedgerRow.amount)).where(
                    LedgerRow.game_id == game.id, LedgerRow.power == player.seat)) or 0
                seat = seats.get(player.seat)
                if seat is not None and seat.balance != ledger:
                    failures["every account adds up"].append(
                        f"{game.name} {player.seat}: last told {seat.balance} AgP, the ledger sums to {ledger}")
    return failures


def season_database(server: str | None) -> tuple[str | None, Callable[[], None]]:
    """A database of the run's own on the PostgreSQL server ``server`` (and how to drop it), or SQLite."""
    if not server:
        return None, lambda: None
    name = f"season_{uuid.uuid4().hex[:10]}"
    admin = create_engine(server, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text(f'CREATE DATABASE "{name}"'))

    def drop() -> None:
        with admin.connect() as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()

    return make_url(server).set(database=name).render_as_string(hide_password=False), drop


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=12)
    parser.add_argument("--years", type=int, default=6)
    parser.add_argument("--database", help="a PostgreSQL server's URL (default: SQLite in the data directory)")
    parser.add_argument("--processes", type=int, default=1, help="judge serve processes (more than 1: PostgreSQL)")
    parser.add_argument("--kill-every", type=float, default=30.0, help="seconds between SIGKILLs (0: never)")
    parser.add_argument("--forget", type=float, default=0.05, help="share of movement phases a player forgets")
    parser.add_argument("--patience", type=float, default=10.0, help="seconds a master waits before it looks")
    parser.add_argument("--no-maps", action="store_true", help="results without their maps (the judge's maps = false)")
    parser.add_argument("--keep", action="store_true", help="keep the data directory and database")
    args = parser.parse_args()
    if args.processes > 1 and not args.database:
        parser.error("more than one judge process needs PostgreSQL (--database)")
    work = Path(tempfile.mkdtemp(prefix="judge-season-"))
    data = work / "data"
    data.mkdir()
    database, drop = season_database(args.database)
    started = time.monotonic()
    judges = Judges(data, database, args.processes, maps=not args.no_maps)
    print(f"{args.games} games for {args.years} years, {args.processes} judge process(es) on "
          f"{'PostgreSQL' if database else 'SQLite'}, ports {judges.ports}, data in {work}", flush=True)
    boxes = Mailboxes(data / "outbox")
    season = Season(args, judges, boxes)
    stop = threading.Event()
    reader = threading.Thread(target=boxes.run, args=(stop,), daemon=True)
    reader.start()
    kills = threading.Thread(target=killer, args=(judges, args.kill_every, stop), daemon=True)
    if args.kill_every > 0:
        kills.start()
    games = [threading.Thread(target=season.play, args=(number,)) for number in range(args.games)]
    for game in games:
        game.start()
    for game in games:
        game.join()
    played = time.monotonic() - started
    stop.set()
    if kills.is_alive():
        kills.join()
    if args.kill_every > 0:  # a mail claimed by a judge killed just now goes out once its claim is old
        time.sleep(MAILDIR_TIME.total_seconds() + 2 * SENDER_PERIOD)
    judges.stop()
    reader.join()
    boxes.scan()
    db = Database(database or f"sqlite:///{(data / 'judge.db').resolve()}")
    failures = check(season, db)
    with db.transaction() as session:
        finished = session.scalar(select(func.count()).select_from(Game).where(Game.state == "finished")) or 0
        phases = session.scalar(select(func.count()).select_from(PhaseRow).where(PhaseRow.status == "processed")) or 0
        statuses = dict(session.execute(select(InboundMail.status, func.count()).group_by(InboundMail.status)).all())
    db.engine.dispose()
    print(f"played in {played:.0f} s: {finished} of {args.games} games finished, {phases} phases processed")
    print(f"mails in: {len(season.post.accepted)} accepted ({season.post.retries} sends tried again while a judge was"
          f" down), applied as {statuses}")
    down = f" (back listening after {statistics.median(judges.restarts):.1f} s, median)" if judges.restarts else ""
    print(f"mails out: {len(boxes.all)}; kills: {judges.kills}{down}; forgotten phases: {season.forgotten}, "
          f"PROCESS sent: {season.processes_sent}")
    for name in ("no stuck game", "every phase's results once to every power, in order", "every account adds up",
                 "no mail carries another power's statement", "every accepted mail answered"):
        found = failures.get(name, [])
        print(f"  {'ok  ' if not found else 'FAIL'} {name}" + (f": {len(found)}" if found else ""))
        for line in found[:10]:
            print(f"       {line}")
    if not args.keep:
        drop()
        shutil.rmtree(work, ignore_errors=True)
    print(f"(data directory {work}{' kept' if args.keep else ''}; judge logs judge*.log there)")
    return 1 if any(failures.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
