"""The deadline evening: N games of a community's mix due in the same minute, processed by
``judge serve`` as it runs for real, and every player's results mail timed from the deadline.

Setup (not timed; `evening_setup`): one game of each flavour of the mix (Payola on the standard
board, Tin Cup, World and the Ancient Mediterranean, Exchange Payola, Machiavelli on AoP's board
of 1459, Pirates' Proposal) played by mail up to the phase the evening processes, every
player's orders in, held to the deadline; then copied until there are N games, every copy due
at the same moment, 40 s ahead: the judges start meanwhile, as they run long before any evening.

Timed: one or two ``judge serve`` processes (on PostgreSQL two share the database; on SQLite
one), started on the data directory as a deployment runs them (the Maildir, the public pages,
maps on or off; judges that share this machine share its cores: ``deadline-workers`` is the
cores over the judges, unless ``--workers``), and a reader of their Maildir that notes when
each results mail to a player was written (its file's time).  Beside it, a prober in a process
of its own, as players and game masters who write during the evening: a HELP from a new address
every ``--probe-every`` seconds, and a game master's STATUS every fifth probe, each timed from
DATA to the 250 and until its answer is in the Maildir.

Printed, per run: from the deadline to the first, the median and the last results mail to a
player; games a minute (N over the time to the last); each game's time from the deadline to
its last results mail (median, p95); the judges' CPU per game (and how it split between their
main processes, their deadline workers and their appliers); the peak memory of each judge's
processes (their largest resident set, summed over a judge's processes); how much the database
grew and what the Maildir holds; the bytes of a results mail to a player as written (the mean
and the largest) and of the evening's mail in all (issue 69.3); when every game's public page
showed the new phase; and the probes' figures.  On SQLite, what the evening left in the
database per game-phase (each game processes one phase), at the stages of
``bench/disk_bench.py``, each against the same stage of a copy of the database taken before
the deadline: as stored once the mail has gone, once the clock has dropped the sent mail's
maps (``attachment-days`` on), after ``judge prune --older-than 0``, and ``VACUUM``-ed (what
stays for good).  Each run checks that every game was processed once (one results mail per
player, no more, no fewer) and prints what failed.  Then a table of every run and, where a
configuration ran at several N, how each figure grew with N (the ratio of its per-game cost at
the largest N to that at the smallest).

The code before the deadline workers is run as the peer with ``PYTHONPATH`` set to its tree
(and ``--tick-seconds 1``: its clock did not wake at a deadline).

SQLite always runs; ``--postgres URL`` (a server: a database of the run's own is created on it
and dropped afterwards) adds PostgreSQL with one and with two judges.  The load average is
printed beside each run: on a shared machine, say so beside the figures.

``--languages en,thirds`` runs each configuration twice: every player reading English, then a third of
the players (drawn with a fixed seed) reading each of English, Italian and French (issue 72), their
results mails written in three languages; the table then gives the CPU a game of the second against the
first.

Run: .venv/bin/python bench/evening_bench.py [--games 100,300,1000] [--maps on,off] [--languages en,thirds]
     [--postgres postgresql+psycopg://judge@127.0.0.1:55439/postgres] [--judges 1,2] [--only sqlite]
"""

from __future__ import annotations

import argparse
import email.header
import email.parser
import email.policy
import multiprocessing
import os
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
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from email.utils import make_msgid
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from disk_bench import STAGES, Bench, stages  # a sibling script: the database at each stage of its life
from evening_setup import (
    GM,
    GM_PASSWORD,
    MX,
    VARY_AFTER,
    Setup,
    build_templates,
    clone,
    mix,
    played_seats,
    setup_began,
    setup_mail_sent,
    speak,
    vary,
    vouched,
)
from load_bench import fresh_postgres  # a sibling script: a throwaway PostgreSQL database
from sqlalchemy import create_engine, func, select, text

from judge.bootstrap import open_database
from judge.language import gettext, offered, reading
from judge.service.config import Settings
from judge.store.models import ConfirmedAddress, Outbox

LEAD = 40.0  # seconds from setting the deadline (then starting the judges, their workers warmed) to it
PROBE_PREFIX = "probe"


def _results_subjects() -> re.Pattern[str]:
    """A results mail's subject in every language the judge writes (``g1 S1901M results``, ``g1 S1901M
    risultati``): one alternative a language, its game's name its one group."""
    forms = set()
    for language in offered():
        with reading(language):
            forms.add(gettext("{game} {phase} results"))
    return re.compile("|".join(re.escape(form).replace(r"\{game\}", r"(\S+)").replace(r"\{phase\}", r"\S+")
                               for form in sorted(forms)))


RESULTS = _results_subjects()


def is_results(written: Written) -> bool:
    """A results mail to a player (not the game master's copy), in whatever language its reader reads."""
    return RESULTS.fullmatch(written.subject) is not None and not written.to.startswith("gm@")


def game_of(written: Written) -> str:
    """The game a results mail is about, read from its subject."""
    found = RESULTS.fullmatch(written.subject)
    assert found is not None, written.subject
    return next(group for group in found.groups() if group)


def utcnow() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def percentile(values: Sequence[float], fraction: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, max(0, round(fraction * len(ordered) + 0.5) - 1))]


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


# -- the Maildir ---------------------------------------------------------------------------------------


@dataclass
class Written:
    """A mail the judges wrote: when (its file's time, epoch seconds), to whom, about what, its size."""

    at: float
    to: str
    subject: str
    size: int


class Reader:
    """Reads the Maildir's new mail every ``period`` seconds in a thread: each file's headers once."""

    def __init__(self, maildir: Path, period: float = 0.25) -> None:
        self.new = maildir / "new"
        self.period = period
        self.seen: dict[str, Written] = {}
        self.lock = threading.Lock()
        self.stopping = threading.Event()
        self.parser = email.parser.BytesHeaderParser(policy=email.policy.compat32)
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while not self.stopping.wait(self.period):
            self.look()

    def look(self) -> None:
        if not self.new.is_dir():
            return
        with os.scandir(self.new) as entries:
            fresh = [e for e in entries if e.name not in self.seen and not e.name.startswith(".")]
        for entry in fresh:
            try:
                stat = entry.stat()
                with open(entry.path, "rb") as handle:
                    head = handle.read(4096).split(b"\n\n", 1)[0]
            except FileNotFoundError:
                continue
            headers = self.parser.parsebytes(head)
            with self.lock:
                subject = str(email.header.make_header(email.header.decode_header(str(headers.get("Subject", "")))))
                self.seen[entry.name] = Written(stat.st_mtime, str(headers.get("To", "")), " ".join(subject.split()),
                                                stat.st_size)

    def mails(self) -> list[Written]:
        with self.lock:
            return list(self.seen.values())

    def close(self) -> None:
        self.stopping.set()
        self.thread.join()
        self.look()


# -- the judges ------------------------------------------------------------------------------------------


@dataclass
class Judge:
    process: subprocess.Popen[bytes]
    port: int
    log: Path

    def pids(self) -> list[int]:
        """The judge's processes: its own and its children's (the applier, any workers)."""
        found = []
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[3]) == self.process.pid or int(entry.name) == self.process.pid:  # ppid
                found.append(int(entry.name))
        return found


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def niceness(pid: int) -> int:
    return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[16])


def peak_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    return 0


class Usage:
    """CPU time and peak memory of a judge's processes, sampled every ``period`` seconds (a worker
    that ends is kept as last seen)."""

    def __init__(self, judges: Sequence[Judge], period: float = 0.5) -> None:
        self.judges = judges
        self.cpu: dict[tuple[int, int], float] = {}
        self.memory: dict[tuple[int, int], int] = {}
        self.niced: dict[int, int] = {}
        self.period = period
        self.sample()
        self.baseline = dict(self.cpu)  # what the judges had used before the deadline
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def sample(self) -> None:
        for index, judge in enumerate(self.judges):
            for pid in judge.pids():
                try:
                    self.cpu[index, pid] = cpu_seconds(pid)
                    self.memory[index, pid] = peak_kb(pid)
                    self.niced[pid] = niceness(pid)
                except (OSError, IndexError):
                    continue

    def _run(self) -> None:
        while not self.stopping.wait(self.period):
            self.sample()

    def close(self) -> None:
        self.stopping.set()
        self.thread.join()
        self.sample()

    def total_cpu(self) -> float:
        return sum(self.cpu.values()) - sum(self.baseline.values())

    def split(self) -> dict[str, float]:
        """The CPU used since the deadline by the judges' main processes (listener, sender, clock),
        their deadline workers (the children at a lower priority) and their other children (the applier)."""
        parts = {"main": 0.0, "workers": 0.0, "applier": 0.0}
        for (index, pid), seconds in self.cpu.items():
            used = seconds - self.baseline.get((index, pid), 0.0)
            part = "main" if pid == self.judges[index].process.pid else \
                "workers" if self.niced.get(pid, 0) > 0 else "applier"
            parts[part] += used
        return parts

    def peak_mb(self) -> list[tuple[float, float]]:
        """Per judge: (its own process's peak, the sum of its processes' peaks), in MB."""
        out = []
        for index, judge in enumerate(self.judges):
            mine = [kb for (i, _), kb in self.memory.items() if i == index]
            out.append((self.memory.get((index, judge.process.pid), 0) / 1024, sum(mine) / 1024))
        return out


def start_judge(data_dir: Path, database: str | None, maps: bool, web: bool, name: str,
                tick_seconds: float, workers: int) -> Judge:
    port = free_port()
    config = data_dir / f"{name}.toml"
    lines = [f'data-dir = "{data_dir}"', f"port = {port}", f"maps = {str(maps).lower()}",
             f"web = {str(web).lower()}", f"tick-seconds = {tick_seconds}", f'mta-hostname = "{MX}"',
             "mta-authenticates = true", "max-replies-per-hour = 1000000"]
    if "deadline_workers" in Settings.__dataclass_fields__:  # not in a judge before the workers (a peer's run)
        lines.append(f"deadline-workers = {workers}")
    if database:
        lines.append(f'database = "{database}"')
    config.write_text("[judge]\n" + "\n".join(lines) + "\n")
    log = data_dir / f"{name}.log"
    process = subprocess.Popen([sys.executable, "-m", "judge", "serve", "--config", str(config),
                                "--log-file", str(log)], start_new_session=True, cwd=data_dir)  # not a tree's: -m
    # would import the code of the folder it runs in first, whatever PYTHONPATH says
    return Judge(process, port, log)


def listening(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1):
            return True
    except OSError:
        return False


def stop(judge: Judge) -> None:
    judge.process.send_signal(signal.SIGTERM)
    try:
        judge.process.wait(timeout=120)
    except subprocess.TimeoutExpired:
        os.killpg(judge.process.pid, signal.SIGKILL)
        judge.process.wait()


# -- the prober ----------------------------------------------------------------------------------------------


def probe_mail(sender: str, body: str) -> bytes:
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = sender, "judge@localhost", "probe"
    message["Message-ID"] = make_msgid(domain="example.org")
    message["Authentication-Results"] = vouched(sender)
    message.set_content(body)
    return message.as_bytes()


def prober(connection: Connection, port: int, every: float, done: Any, game: str) -> None:
    """Send a HELP from a new address every ``every`` seconds until ``done`` is set, and every fifth
    probe the game master's STATUS of ``game``; answer [(address, sent at, DATA->250 seconds, what)]."""
    sent: list[tuple[str, float, float, str]] = []
    index = 0
    while not done.is_set():
        index += 1
        if index % 5 == 0:
            sender, body, what = GM, f"SIGNON MASTER@{game} {GM_PASSWORD}\nSTATUS", "STATUS"
        else:
            sender, body, what = f"{PROBE_PREFIX}{index}@example.org", "HELP", "HELP"
        raw = probe_mail(sender, body)
        began = time.time()
        try:
            with smtplib.SMTP("127.0.0.1", port, timeout=60) as client:
                client.ehlo()
                client.mail(sender)
                client.rcpt("judge@localhost")
                data = time.perf_counter()
                code, _ = client.data(raw)
                took = time.perf_counter() - data
            if code == 250:
                sent.append((sender, began, took, what))
        except (OSError, smtplib.SMTPException):
            pass
        time.sleep(max(0.0, began + every - time.time()))
    connection.send(sent)
    connection.close()


@dataclass
class Probes:
    accept: list[float] = field(default_factory=list)  # DATA -> 250, seconds
    help: list[float] = field(default_factory=list)  # sent -> answer written
    status: list[float] = field(default_factory=list)
    unanswered: int = 0


def probes_of(sent: list[tuple[str, float, float, str]], mails: list[Written]) -> Probes:
    answers: dict[str, list[float]] = {}
    for written in mails:
        if written.subject.startswith("Re:"):
            answers.setdefault(written.to, []).append(written.at)
    found = Probes()
    for sender, began, took, what in sent:
        found.accept.append(took)
        after = [at for at in answers.get(sender, []) if at >= began - 0.01]
        if not after:
            found.unanswered += 1
            continue
        (found.help if what == "HELP" else found.status).append(min(after) - began)
        if sender == GM:
            answers[sender].remove(min(after))
    return found


# -- one run ---------------------------------------------------------------------------------------------------


@dataclass
class Run:
    label: str
    games: int
    maps: bool
    judges: int
    load_before: str
    languages: str = "en"  # "thirds": a third of the players reading each of English, Italian and French
    load_after: str = ""
    first: float = float("nan")
    median_mail: float = float("nan")
    last: float = float("nan")
    game_median: float = float("nan")
    game_p95: float = float("nan")
    cpu: float = float("nan")
    cpu_split: dict[str, float] = field(default_factory=dict)
    memory: list[tuple[float, float]] = field(default_factory=list)
    db_growth: float = float("nan")
    kept: list[float] = field(default_factory=list)  # MB a game-phase at each of disk_bench's stages (SQLite)
    mails: int = 0
    mail_mb: float = 0.0
    results_sizes: list[int] = field(default_factory=list)  # bytes of each results mail to a player, as written
    pages_done: float = float("nan")
    probes: Probes = field(default_factory=Probes)
    problems: list[str] = field(default_factory=list)

    @property
    def per_minute(self) -> float:
        return self.games / self.last * 60 if self.last == self.last and self.last > 0 else float("nan")

    def results_weight(self) -> str:
        """The bytes of a results mail to a player: the mean and the largest, in KB."""
        sizes = self.results_sizes
        return f"{statistics.mean(sizes) / 1000:,.0f} / {sizes[-1] / 1000:,.0f} KB" if sizes else "-"


def database_bytes(data_dir: Path, database: str | None) -> int:
    if database is None:
        return sum(p.stat().st_size for p in data_dir.glob("judge.db*")) + sum(
            p.stat().st_size for p in data_dir.glob("intake.db*"))
    engine = create_engine(database)
    try:
        with engine.connect() as connection:
            return int(connection.scalar(text("SELECT pg_database_size(current_database())")) or 0)
    finally:
        engine.dispose()


def prepare(data_dir: Path, database: str | None, games: int) -> tuple[dict[str, int], Settings]:
    """The evening's games set up, every player reading English (`prepared`): the results mails expected of each
    game, and the settings."""
    seats, settings, _readers = prepared(data_dir, database, games)
    return seats, settings


def prepared(data_dir: Path, database: str | None, games: int, languages: str = "en"
             ) -> tuple[dict[str, int], Settings, dict[str, int]]:
    """The evening's games set up (`evening_setup`), due a day on; with ``languages`` ``thirds``, a third of
    their players reading each of English, Italian and French (`evening_setup.speak`, seeded).  The results
    mails expected of each game, the settings, and how many players read each language."""
    settings = Settings(data_dir=data_dir, database=database, maps=False, web=False, mta_hostname=MX,
                        mta_authenticates=True, max_creates_per_day=10**6, max_creates_per_hour=10**6,
                        max_replies_per_hour=10**6, max_joins_per_day=10**6)
    db = open_database(settings)
    now = setup_began(games)
    flavours = mix(games)
    templates = build_templates(db, settings, now, flavours)
    placeholder = utcnow() + timedelta(days=1)  # the real deadline is set once the judges listen
    names: dict[str, list[str]] = {}
    for index, flavour in enumerate(flavours):
        names.setdefault(flavour, []).append(f"e{index:04d}-{flavour}")
    for flavour, copies in names.items():
        clone(db, templates[flavour], copies, placeholder)
    vary(Setup(db, settings, now + VARY_AFTER), names)
    every = [name for copies in names.values() for name in copies]
    with db.transaction() as session:
        session.add_all(ConfirmedAddress(address=f"{PROBE_PREFIX}{i}@example.org", confirmed_at=now)
                        for i in range(1, 20_000))
    readers = speak(db, every, now) if languages == "thirds" else {}
    setup_mail_sent(db)
    seats = played_seats(db, every)
    db.engine.dispose()
    return seats, settings, readers or {"en": sum(seats.values())}


def set_deadline(settings: Settings, names: Sequence[str], deadline: datetime) -> None:
    db = open_database(settings)
    from judge.store.models import Game
    with db.transaction() as session:
        session.execute(Game.__table__.update().where(Game.name.in_(names))  # type: ignore[attr-defined]
                        .values(deadline=deadline, next_due=deadline))
    db.engine.dispose()


def outbox_counts(settings: Settings) -> dict[str, int]:
    db = open_database(settings)
    with db.transaction() as session:
        counts = {status: int(n) for status, n in session.execute(
            select(Outbox.status, func.count()).group_by(Outbox.status))}
    db.engine.dispose()
    return counts


def run_once(label: str, database: str | None, games: int, maps: bool, judges: int, args: argparse.Namespace,
             tmp: Path, languages: str = "en") -> Run:
    data_dir = tmp / f"{label}-{games}-{'maps' if maps else 'nomaps'}-{judges}-{languages}".replace(" ", "")
    data_dir.mkdir(parents=True)
    run = Run(label, games, maps, judges, load(), languages)
    print(f"== {label}, {games} games, maps {'on' if maps else 'off'}, {judges} judge(s), languages {languages}  "
          f"(load {run.load_before})", flush=True)
    began = time.monotonic()
    seats, settings, readers = prepared(data_dir, database, games, languages)
    print(f"  setup {time.monotonic() - began:.1f} s: {sum(seats.values())} players' results expected; readers "
          + ", ".join(f"{language} {count}" for language, count in readers.items()), flush=True)
    size_before = database_bytes(data_dir, database)
    before = data_dir.parent / f"{data_dir.name}-before"
    if database is None:  # the database as it stood before the evening, for the stages of what it keeps
        Bench(data_dir).in_use()  # the write-ahead log checkpointed: the copy is whole
        before.mkdir()
        shutil.copyfile(data_dir / "judge.db", before / "judge.db")
    deadline_epoch = time.time() + LEAD  # the judges start before it, as on any evening
    deadline = datetime.fromtimestamp(deadline_epoch, UTC).replace(tzinfo=None)
    set_deadline(settings, list(seats), deadline)
    workers = args.workers or max(1, (os.cpu_count() or 1) // judges)  # judges sharing a machine share its cores
    running = [start_judge(data_dir, database, maps, True, f"judge{i}", args.tick_seconds, workers)
               for i in range(judges)]
    try:
        while not all(listening(j.port) for j in running):
            if time.time() > deadline_epoch - 1 or any(j.process.poll() is not None for j in running):
                raise SystemExit(f"a judge did not start before the deadline: see {running[0].log}")
            time.sleep(0.02)
        reader = Reader(settings.maildir)
        usage = Usage(running)
        spawn = multiprocessing.get_context("spawn")
        ours, theirs = spawn.Pipe()
        probing = spawn.Event()
        prober_process = spawn.Process(target=prober, args=(theirs, running[0].port, args.probe_every, probing,
                                                            min(seats)), daemon=True)
        if args.probe_every > 0:
            prober_process.start()
        expected = sum(seats.values())
        pages_done = float("nan")
        limit = time.time() + LEAD + args.timeout
        results: list[Written] = []
        while time.time() < limit:
            time.sleep(0.5)
            results = [w for w in reader.mails() if is_results(w)]
            if pages_done != pages_done and all_pages_after(data_dir, list(seats), deadline_epoch):
                pages_done = time.time() - deadline_epoch
            if len(results) >= expected and pages_done == pages_done:
                break
        probing.set()
        time.sleep(2.0)  # the last probes' answers
        usage.close()
    finally:
        for judge in running:
            stop(judge)
    reader.close()
    sent: list[tuple[str, float, float, str]] = []
    if args.probe_every > 0:
        if ours.poll(60):
            sent = ours.recv()
        prober_process.join(timeout=10)
    mails = reader.mails()
    results = [w for w in mails if is_results(w)]
    run.load_after = load()
    run.pages_done = pages_done
    times = sorted(w.at - deadline_epoch for w in results)
    if times:
        run.first, run.median_mail, run.last = times[0], statistics.median(times), times[-1]
    per_game: dict[str, list[Written]] = {}
    for written in results:
        game = game_of(written)
        per_game.setdefault(game, []).append(written)
    finished = [max(w.at for w in ws) - deadline_epoch for ws in per_game.values()]
    if finished:
        run.game_median, run.game_p95 = statistics.median(finished), percentile(finished, 0.95)
    run.cpu = usage.total_cpu()
    run.cpu_split = usage.split()
    run.memory = usage.peak_mb()
    run.db_growth = (database_bytes(data_dir, database) - size_before) / 2**20
    if database is None:
        later = utcnow() + timedelta(days=settings.attachment_days, hours=1)
        run.kept = [(after - was) / games / 2**20 for after, was in
                    zip(stages(Bench(data_dir), later), stages(Bench(before), later), strict=True)]
    run.mails = len(mails)
    run.mail_mb = sum(w.size for w in mails) / 2**20
    run.results_sizes = sorted(w.size for w in results)
    run.probes = probes_of(sent, mails)
    check(run, seats, per_game, settings)
    for judge in running:
        errors = [line for line in judge.log.read_text().splitlines() if " ERROR " in line or "Traceback" in line]
        if errors:
            run.problems.append(f"{judge.log.name}: {len(errors)} error line(s), the first: {errors[0][:200]}")
    report(run)
    return run


def all_pages_after(data_dir: Path, names: Sequence[str], moment: float) -> bool:
    root = data_dir / "web" / "games"
    for name in names:
        try:
            if (root / name / "index.html").stat().st_mtime < moment:
                return False
        except FileNotFoundError:
            return False
    return True


def check(run: Run, seats: dict[str, int], per_game: dict[str, list[Written]], settings: Settings) -> None:
    """Every game processed once: one results mail to each of its players, and no more."""
    for name, expected in seats.items():
        got = per_game.get(name, [])
        recipients = [w.to for w in got]
        if len(got) != expected or len(set(recipients)) != len(recipients):
            run.problems.append(f"{name}: {len(got)} results mails to {len(set(recipients))} players, "
                                f"{expected} expected")
    counts = outbox_counts(settings)
    if counts.get("pending") or counts.get("sending") or counts.get("failed"):
        run.problems.append(f"outbox left: {counts}")


def seconds(value: float) -> str:
    return "-" if value != value else f"{value:.1f} s"


def report(run: Run) -> None:
    n = run.games
    print(f"  results to players: first {seconds(run.first)}, median {seconds(run.median_mail)}, "
          f"last {seconds(run.last)} after the deadline; {run.per_minute:,.0f} games a minute")
    print(f"  per game, deadline to its last results mail: median {seconds(run.game_median)}, "
          f"p95 {seconds(run.game_p95)}; CPU {run.cpu / n * 1000:.0f} ms a game ({run.cpu:.1f} s in all: "
          + ", ".join(f"{part} {used:.1f} s" for part, used in run.cpu_split.items()) + ")")
    print("  peak memory: " + "; ".join(f"judge {i + 1} {own:.0f} MB main, {total:.0f} MB all its processes"
                                        for i, (own, total) in enumerate(run.memory)))
    print(f"  database grew {run.db_growth:.1f} MB ({run.db_growth / n:.2f} MB a game); Maildir {run.mails} mails, "
          f"{run.mail_mb:.0f} MB; pages all showing the new phase {seconds(run.pages_done)} after the deadline")
    print(f"  results mail to a player: {len(run.results_sizes)} mails, {run.results_weight()} (mean / largest), "
          f"{sum(run.results_sizes) / 2**20:,.0f} MB in all; the evening's mail {run.mail_mb:,.0f} MB")
    if run.kept:
        print("  the database a game-phase: " + "; ".join(f"{stage.format(days=7)} {size:.3f} MB"
                                                        for stage, size in zip(STAGES, run.kept, strict=True)))
    p = run.probes
    if p.accept:
        print(f"  during the evening: {len(p.accept)} probes accepted, DATA->250 median "
              f"{statistics.median(p.accept) * 1000:.1f} ms, p99 {percentile(p.accept, 0.99) * 1000:.1f} ms; "
              f"HELP answered median {seconds(statistics.median(p.help) if p.help else float('nan'))}, "
              f"max {seconds(max(p.help) if p.help else float('nan'))}; STATUS answered median "
              f"{seconds(statistics.median(p.status) if p.status else float('nan'))}, "
              f"max {seconds(max(p.status) if p.status else float('nan'))}; {p.unanswered} unanswered")
    print(f"  load average before {run.load_before}, after {run.load_after}")
    for problem in run.problems[:10]:
        print(f"  PROBLEM {problem}")
    if len(run.problems) > 10:
        print(f"  ... and {len(run.problems) - 10} more problems")
    print(flush=True)


def table(runs: Sequence[Run]) -> None:
    print("| database, judges | games | maps | last results | games a minute | half the results | "
          "per game median / p95 | CPU a game | peak memory (main / all) | DB a game-phase: grew / 7 days on / "
          "for good | a results mail (mean / largest) | the evening's mail | load |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in runs:
        memory = " + ".join(f"{own:.0f} / {total:.0f} MB" for own, total in r.memory)
        kept = f" / {r.kept[1]:.3f} / {r.kept[-1]:.3f}" if r.kept else " / - / -"
        languages = "" if r.languages == "en" else f", {r.languages}"
        print(f"| {r.label}, {r.judges}{languages} | {r.games:,} | {'on' if r.maps else 'off'} | {seconds(r.last)} | "
              f"{r.per_minute:,.0f} | {seconds(r.median_mail)} | {seconds(r.game_median)} / {seconds(r.game_p95)} | "
              f"{r.cpu / r.games * 1000:.0f} ms | {memory} | {r.db_growth / r.games:.2f}{kept} MB | "
              f"{r.results_weight()} | {r.mail_mb:,.0f} MB | {r.load_before} |")
    for r in runs:
        alone = next((e for e in runs if e.languages == "en" and (e.label, e.judges, e.maps, e.games) ==
                      (r.label, r.judges, r.maps, r.games)), None)
        if r.languages != "en" and alone is not None:
            print(f"languages {r.languages} against English alone, {r.label}, {r.judges} judge(s), maps "
                  f"{'on' if r.maps else 'off'}, {r.games} games: CPU a game {r.cpu / alone.cpu:.3f}x "
                  f"({r.cpu / r.games * 1000:.0f} ms against {alone.cpu / alone.games * 1000:.0f} ms), "
                  f"last results {r.last / alone.last:.2f}x")
    groups: dict[tuple[str, int, bool, str], list[Run]] = {}
    for r in runs:
        groups.setdefault((r.label, r.judges, r.maps, r.languages), []).append(r)
    for (label, judges, maps, languages), group in groups.items():
        if len(group) < 2:
            continue
        small, large = min(group, key=lambda r: r.games), max(group, key=lambda r: r.games)
        print(f"growth {label}, {judges} judge(s), languages {languages}, maps {'on' if maps else 'off'}, "
              f"{small.games} -> {large.games} "
              f"games ({large.games / small.games:.0f}x): last results {large.last / small.last:.2f}x, "
              f"CPU a game {large.cpu / large.games / (small.cpu / small.games):.2f}x, "
              f"wall a game {large.last / large.games / (small.last / small.games):.2f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else None)
    parser.add_argument("--games", default="100", help="numbers of games, comma-separated (e.g. 100,300,1000)")
    parser.add_argument("--maps", default="on,off", help="on, off or both")
    parser.add_argument("--postgres", default=os.environ.get("JUDGE_BENCH_POSTGRES"))
    parser.add_argument("--judges", default="1,2", help="judges on PostgreSQL")
    parser.add_argument("--only", choices=("sqlite", "postgres"), default=None)
    parser.add_argument("--tick-seconds", type=float, default=60.0)
    parser.add_argument("--probe-every", type=float, default=0.5, help="seconds between probes (0: none)")
    parser.add_argument("--timeout", type=float, default=900.0, help="seconds to wait for the last results")
    parser.add_argument("--keep", help="a folder to keep each run's data directory and logs in")
    parser.add_argument("--workers", type=int, default=0,
                        help="each judge's deadline-workers (0: the machine's cores shared among its judges)")
    parser.add_argument("--languages", default="en",
                        help="en (every player reads English), thirds (a third of the players each reads English, "
                             "Italian and French, drawn with a fixed seed), or both: en,thirds")
    args = parser.parse_args()
    sizes = [int(n) for n in args.games.split(",")]
    maps = [m == "on" for m in args.maps.split(",")]
    runs: list[Run] = []
    print(f"machine: {os.cpu_count()} cores, {platform()}; load {load()}; {utcnow():%Y-%m-%d %H:%M} UTC\n")
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(args.keep) if args.keep else Path(name)
        for games in sizes:
            for with_maps in maps:
                for languages in args.languages.split(","):
                    if args.only != "postgres":
                        runs.append(run_once("SQLite", None, games, with_maps, 1, args, tmp, languages))
                    if args.postgres and args.only != "sqlite":
                        for judges in (int(j) for j in args.judges.split(",")):
                            with fresh_postgres(args.postgres) as url:
                                runs.append(run_once("PostgreSQL", url, games, with_maps, judges, args, tmp,
                                                     languages))
    table(runs)


def platform() -> str:
    try:
        model = next(line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                     if line.startswith("model name"))
    except (OSError, StopIteration):
        model = "unknown processor"
    return f"{model}, Python {sys.version.split()[0]}"


if __name__ == "__main__":
    main()
