"""The operations drill: one game lives through what an operator does to a judge, on this Debian
machine, on PostgreSQL, behind a real Postfix set up as ``deploy/postfix/README.md`` says.

1. The first release (0.1.0, from its commit in ``deploy/releases``) runs by hand, without
   systemd, as its guide said; France's spring sheet goes to it.
2. ``deploy/upgrade-from-0.1.sh --no-systemd`` upgrades it in place, from a clone of this
   repository: it must stop that judge (it left it running, and migrated its database under it);
   Germany's spring sheet, sent while no judge listens, waits in Postfix and counts for spring.
3. PostgreSQL stops across the autumn deadline: France's autumn sheet, sent before the deadline,
   is answered 451 and waits in Postfix; once PostgreSQL is back the judge asks Postfix for it
   (``mta-flush``) and the deadline waits for it: it counts for autumn.  Germany's mail, sent
   after the deadline, is answered too.

Every mail sent is answered once, nothing stays in Postfix's queue, and each sheet counts for the
phase it was sent in.

A second drill goes from the previous release to this one, back and forward again: two judges of the
machine (one on SQLite, one on PostgreSQL on a second domain, as install.md's second judge) installed
from the ``v0.3.0`` tag, a game of every kind on each played a phase with its maps mailed; then
``docs/operators/upgrades.md``'s upgrade, its way back to 0.3.0 and its upgrade again, each line as
written in the clone, each game playing a phase after each, and every row of 0.3's tables kept
throughout.  The way back installs the old release's files alone (``pip install .`` reused the newer
build's and put its migrations into the old judge, whose start then upgraded the database again).

Each reconfigures this machine's Postfix (restored afterwards) and starts a PostgreSQL cluster of its
own, so it runs when asked: ``JUDGE_TEST_POSTFIX=1``, as root, with Postfix, PostgreSQL's binaries
(``JUDGE_TEST_PG_BIN``) and git; ``.ci/run``'s Postfix stage runs them.  They need the releases'
commits: a clone without them (shallow) skips them, saying so.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from pathlib import Path

import pytest
from sqlalchemy import create_engine, inspect, text
from sqlalchemy.engine import Engine
from sqlalchemy.pool import NullPool

from judge import __version__
from judge.store.database import SCHEMA
from tests.support.ports import free_port
from tests.support.postfix import GM, PLAYERS, Site, postfix_site, run, send, wait_or_show_log

ROOT = Path(__file__).resolve().parents[2]
PG_BIN = Path(os.environ.get("JUDGE_TEST_PG_BIN", "/usr/lib/postgresql/15/bin"))
FRANCE, GERMANY = PLAYERS["FRANCE"], PLAYERS["GERMANY"]

pytestmark = [pytest.mark.skipif(
    not os.environ.get("JUDGE_TEST_POSTFIX") or os.geteuid() != 0 or shutil.which("postconf") is None
    or not (PG_BIN / "initdb").exists() or shutil.which("git") is None,
    reason="reconfigures this machine's Postfix and runs PostgreSQL: JUDGE_TEST_POSTFIX=1, as root, with Postfix, "
           "PostgreSQL's binaries and git (.ci/run's Postfix stage)"),
    pytest.mark.timeout(3600)]  # past the suite's (pyproject.toml): releases installed by pip, each step allowed 600 s


def releases() -> dict[str, str]:
    """The commit of each release's tag (``deploy/releases``)."""
    lines = (ROOT / "deploy" / "releases").read_text("utf-8").splitlines()
    return {line.split()[0]: line.split()[1] for line in lines if line and not line.startswith("#")}


class Cluster:
    """A PostgreSQL cluster of the drill's own on a free port, its superuser ``payola``."""

    def __init__(self, folder: Path) -> None:
        self.folder, self.port = folder, free_port()
        folder.mkdir()
        shutil.chown(folder, "postgres")
        self.postgres("initdb", "-D", str(folder / "data"), "-A", "trust", "-U", "payola")
        self.start()
        self.url = f"postgresql+psycopg://payola@127.0.0.1:{self.port}/postgres"

    def postgres(self, program: str, *arguments: str) -> None:
        run("runuser", "-u", "postgres", "--", str(PG_BIN / program), *arguments)

    def start(self) -> None:
        self.postgres("pg_ctl", "-D", str(self.folder / "data"), "-l", str(self.folder / "log"), "-w", "start", "-o",
                      f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c fsync=off")

    def stop(self) -> None:
        self.postgres("pg_ctl", "-D", str(self.folder / "data"), "-m", "fast", "-w", "stop")


@pytest.fixture
def work() -> Iterator[Path]:
    folder = Path(os.environ.get("TMPDIR", "/var/tmp")) / f"judge-drill-{os.getpid()}"
    folder.mkdir(mode=0o755)
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


class Drill:
    """The installation the drill plays on: the first release's layout under ``root`` (the upgrade
    script's ``--root``), its settings naming the cluster and the port Postfix hands the mail to."""

    def __init__(self, work: Path, site: Site, cluster: Cluster, settings: str) -> None:
        self.work, self.site, self.cluster = work, site, cluster
        self.root = work / "root"
        self.config = self.root / "etc" / "judge" / "judge.toml"
        self.venv = self.root / "opt" / "judge"
        self.judge: subprocess.Popen[str] | None = None
        for folder in ("etc/judge", "etc/cron.d", "etc/logrotate.d", "var/lib/judge", "var/log/judge"):
            (self.root / folder).mkdir(parents=True)
        self.config.write_text(f'[judge]\n{settings}\ndata-dir = "{self.root / "var/lib/judge"}"\n'
                               f'database = "{cluster.url}"\nmaps = false\nweb = false\ntick-seconds = 2\n'
                               f'settle-seconds = 10\nadmin = "{GM}"\n')
        (self.root / "etc" / "cron.d" / "judge").write_text(
            f"*/5 * * * * judge {self.venv}/bin/judge tick --config {self.config}\n")

    def serve(self) -> None:
        """``judge serve`` of whatever release ``venv`` holds, as its guide starts it by hand."""
        log = (self.work / "serve.log").open("a")
        self.judge = subprocess.Popen([str(self.venv / "bin" / "judge"), "serve", "--config", str(self.config)],
                                      stdout=log, stderr=subprocess.STDOUT, text=True)
        port = int(re.search(r"^port = (\d+)$", self.config.read_text(), re.M).group(1))  # type: ignore[union-attr]
        deadline = time.monotonic() + 120
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                return
            except OSError:
                assert self.judge.poll() is None and time.monotonic() < deadline, self.log()
                time.sleep(0.2)

    def stop(self) -> None:
        """As ``systemctl stop judge`` would: SIGTERM, and wait."""
        if self.judge is not None and self.judge.poll() is None:
            self.judge.send_signal(signal.SIGTERM)
            assert self.judge.wait(60) == 0, self.log()
        self.judge = None

    def log(self) -> str:
        return (self.work / "serve.log").read_text("utf-8", "replace")[-4000:]

    def database(self) -> Engine:
        return create_engine(self.cluster.url, poolclass=NullPool)  # a connection of its own each time

    def sheets(self) -> list[tuple[str, str, str]]:
        """(power, phase, text) of every sheet stored, in order (the first release's table too,
        whose column was ``power``)."""
        with self.database().connect() as connection:
            seat = "seat" if "seat" in {column["name"] for column in inspect(connection).get_columns("submissions")} \
                else "power"
            rows = connection.execute(text(f"SELECT {seat}, phase, text FROM submissions ORDER BY id"))
            return [(str(power), str(phase), str(sheet)) for power, phase, sheet in rows]

    def phase(self) -> str:
        with self.database().connect() as connection:
            return str(connection.execute(text("SELECT phase FROM games WHERE name = 'ops1'")).scalar_one())

    def held(self) -> list[str]:
        return held()


def held() -> list[str]:
    """The queues (deferred, active...) of the mail Postfix holds."""
    return [line.split('"queue_name": "')[1].split('"')[0] for line in run("postqueue", "-j").splitlines()]


def answered(site: Site, address: str, subject: str) -> None:
    site.wait_for(address, f"Re: {subject}")


def test_a_game_lives_through_an_upgrade_without_systemd_and_an_outage_across_a_deadline(work: Path) -> None:
    tags = releases()
    clone = work / "checkout"
    run("git", "clone", "--quiet", str(ROOT), str(clone))
    missing = [tag for tag, commit in tags.items()
               if subprocess.run(["git", "-C", str(clone), "cat-file", "-e", f"{commit}^{{commit}}"]).returncode]
    if missing:
        pytest.skip(f"this clone does not hold the commits of {', '.join(missing)} (deploy/releases): a shallow clone")
    with postfix_site() as site:
        port = free_port()
        printed = run("sh", str(clone / "deploy" / "postfix" / "setup-judge.sh"), "--domain", "judge.test",
                      "--judge", f"127.0.0.1:{port}")
        settings = "\n".join(line.strip() for line in printed.split("(judge.toml):\n", 1)[1].splitlines()
                             if " = " in line)
        run("postfix", "start")
        cluster = Cluster(work / "pg")
        drill = Drill(work, site, cluster, settings)
        try:
            first_release(drill, clone, tags["v0.1.0"])
            upgraded_without_systemd(drill, clone)
            outage_across_a_deadline(drill)
            assert drill.held() == []  # nothing left in Postfix
        finally:
            drill.stop()
            cluster.stop()


def first_release(drill: Drill, clone: Path, commit: str) -> None:
    """0.1.0 installed from its commit and started by hand; a game, and France's spring sheet."""
    run(sys.executable, "-m", "venv", str(drill.venv))
    source = drill.work / "v0.1.0"
    source.mkdir()
    run("sh", "-c", f"git -C {clone} archive {commit} | tar -x -C {source}")
    run(str(drill.venv / "bin" / "pip"), "install", "--quiet", f"{source}[postgres]")
    drill.serve()
    send(GM, "CREATE ops1 gm-pw", subject="create")
    answered(drill.site, GM, "create")
    for power, address in (("FRANCE", FRANCE), ("GERMANY", GERMANY)):
        send(address, f"JOIN ops1 pw {power}", subject="join")
        answered(drill.site, address, "join")
    send(GM, "SIGNON MASTER@ops1 gm-pw\nSTART", subject="start")
    answered(drill.site, GM, "start")
    send(FRANCE, "SIGNON F@ops1 pw\n3 : A PAR - BUR", subject="spring, before the upgrade")
    answered(drill.site, FRANCE, "spring, before the upgrade")
    assert drill.sheets() == [("FRANCE", "S1901M", "3 : A PAR - BUR")]


def upgraded_without_systemd(drill: Drill, clone: Path) -> None:
    """The upgrade script stops the judge it finds running (its command line names the settings),
    then upgrades; Germany's sheet sent meanwhile waits in Postfix, and the new judge asks for it."""
    running = drill.judge
    assert running is not None
    done = subprocess.run(["sh", str(clone / "deploy" / "upgrade-from-0.1.sh"), "--root", str(drill.root),
                           "--user", "root", "--old-user", "root", "--no-systemd"],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"stopped with SIGTERM: {running.pid}" in done.stdout and running.wait(10) == 0  # stopped, cleanly
    drill.judge = None
    assert "database upgraded from 0007 to" in done.stdout + done.stderr
    send(GERMANY, "SIGNON G@ops1 pw\n2 : A MUN - RUH", subject="spring, during the upgrade")
    wait_or_show_log(lambda: drill.held() == ["deferred"], "Postfix holding Germany's sheet", drill.site.log)
    drill.serve()  # the new release, which asks Postfix for what it holds as it starts
    answered(drill.site, GERMANY, "spring, during the upgrade")
    wait_or_show_log(lambda: drill.phase() == "F1901M", "spring processed with both sheets", drill.site.log)
    assert drill.sheets() == [("FRANCE", "S1901M", "3 : A PAR - BUR"), ("GERMANY", "S1901M", "2 : A MUN - RUH")]


def outage_across_a_deadline(drill: Drill) -> None:
    """PostgreSQL stops; France's autumn sheet is answered 451 and held; the deadline passes; it
    comes back, and the sheet counts for autumn."""
    deadline = datetime.now(UTC).replace(tzinfo=None) + timedelta(seconds=20)
    with drill.database().begin() as connection:  # the autumn deadline, in twenty seconds
        connection.execute(text("UPDATE games SET deadline = :at, next_due = :at WHERE name = 'ops1'"),
                           {"at": deadline})
    drill.cluster.stop()
    send(FRANCE, "SIGNON F@ops1 pw\n1 : F BRE - MAO", subject="autumn, before the deadline")
    wait_or_show_log(lambda: drill.held() == ["deferred"], "Postfix holding France's sheet (451)", drill.site.log)
    while datetime.now(UTC).replace(tzinfo=None) < deadline + timedelta(seconds=5):
        time.sleep(1)
    send(GERMANY, "SIGNON G@ops1 pw\nSTATUS", subject="after the deadline")
    wait_or_show_log(lambda: drill.held() == ["deferred", "deferred"], "both mails held", drill.site.log)
    drill.cluster.start()  # Postfix would try again minutes from now: the judge asks it at once
    answered(drill.site, FRANCE, "autumn, before the deadline")
    answered(drill.site, GERMANY, "after the deadline")
    wait_or_show_log(lambda: drill.phase() not in ("F1901M",), "autumn processed", drill.site.log, timeout=120)
    assert ("FRANCE", "F1901M", "1 : F BRE - MAO") in drill.sheets(), drill.log()


def test_postqueue_flushes_for_the_judges_user_in_the_units_sandbox_only_with_the_group_postdrop() -> None:
    """deploy/judge.service runs the judge with NoNewPrivileges, under which postqueue's setgid bit
    does not apply: the judge's own ``postqueue -f`` (mta-flush) works with the group postdrop, which
    the unit gives it (SupplementaryGroups), and not without."""
    if shutil.which("setpriv") is None:
        pytest.skip("setpriv (util-linux) is not installed")
    with postfix_site():
        run("postfix", "start")
        sandbox = ["setpriv", "--reuid", "nobody", "--regid", "nogroup", "--no-new-privs"]
        flush = [shutil.which("postqueue") or "postqueue", "-f"]
        assert subprocess.run([*sandbox, "--groups", "postdrop", *flush], capture_output=True).returncode == 0
        assert subprocess.run([*sandbox, "--clear-groups", *flush], capture_output=True).returncode != 0


# -- From the previous release to this one, back, and forward again ------------------------------------------------

SQLITE_GAMES, POSTGRES_GAMES = "l", "q"  # the prefixes of each judge's games: the players' mailboxes are shared
KINDS = (  # a game of every kind: (name, CREATE's words after the password, [(address, JOIN's seat)])
    ("pay", "", [(PLAYERS["FRANCE"], "FRANCE"), (PLAYERS["GERMANY"], "GERMANY")]),
    ("exc", "exchange INVESTORS=3", [(PLAYERS["AUSTRIA"], "ANN"), (PLAYERS["ENGLAND"], "BOB"),
                                     (PLAYERS["ITALY"], "CAT")]),
    ("mac", "machiavelli", [(PLAYERS["RUSSIA"], "Florence"), (PLAYERS["TURKEY"], "Milan")]),
    ("pir", "pirates PLAYERS=4", [(PLAYERS["AUSTRIA"], "Ann"), (PLAYERS["ENGLAND"], "Bob"), (PLAYERS["ITALY"], "Cy"),
                                  (PLAYERS["FRANCE"], "Dee")]),
)


class Judged:
    """One judge of the machine, as install.md's second domain has it: its settings, data directory, database and
    port of its own, the same /opt/judge; started by hand without systemd, stopped as the guide says."""

    def __init__(self, work: Path, name: str, domain: str, venv: Path, settings: str, database: str | None,
                 games: str) -> None:
        self.name, self.domain, self.venv, self.games = name, domain, venv, games
        self.data, self.config = work / name / "data", work / name / "judge.toml"
        self.data.parent.mkdir()
        self.data.mkdir(mode=0o700)
        self.url = database or f"sqlite:///{self.data / 'judge.db'}"
        self.config.write_text(
            f'[judge]\n{settings}\ndata-dir = "{self.data}"\n' + (f'database = "{database}"\n' if database else "")
            + f'tick-seconds = 2\nsettle-seconds = 5\nadmin = "{GM}"\nweb = false\nmax-creates-per-day = 20\n'
            'max-joins-per-day = 50\nmax-replies-per-hour = 1000\n')
        self.port = int(re.search(r"^port = (\d+)$", settings, re.M).group(1))  # type: ignore[union-attr]
        self.process: subprocess.Popen[str] | None = None
        self.sent = 0

    def judge(self, *arguments: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([str(self.venv / "bin" / "judge"), *arguments, "--config", str(self.config)],
                              capture_output=True, text=True, timeout=300)

    def serve(self) -> None:
        log = (self.data.parent / "serve.log").open("a")
        self.process = subprocess.Popen([str(self.venv / "bin" / "judge"), "serve", "--config", str(self.config)],
                                        stdout=log, stderr=subprocess.STDOUT, text=True)
        deadline = time.monotonic() + 120
        while True:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return
            except OSError:
                assert self.process.poll() is None and time.monotonic() < deadline, self.log()
                time.sleep(0.2)

    def stop(self) -> None:
        """install.md's stop without systemd: by the judge's pid file; a judge of 0.3.0, which writes none, by
        its command line, which names its settings (upgrades.md)."""
        if self.process is None or self.process.poll() is not None:
            self.process = None
            return
        pid_file = self.data / f"serve-{self.port}.pid"
        stop = ["pkill", "-L", "-F", str(pid_file)] if pid_file.exists() else \
            ["pkill", "-f", f"judge serve --config {self.config}"]
        subprocess.run(stop, check=True)
        assert self.process.wait(60) == 0, self.log()
        self.process = None

    def log(self) -> str:
        return (self.data.parent / "serve.log").read_text("utf-8", "replace")[-4000:]

    def engine(self) -> Engine:
        return create_engine(self.url, poolclass=NullPool)

    def mail(self, sender: str, body: str) -> str:
        """``body`` from ``sender`` to this judge through Postfix; the subject its answer will be a reply to."""
        self.sent += 1
        subject = f"{self.name} {self.sent}"
        send(sender, body, to=f"judge@{self.domain}", subject=subject)
        return subject

    def rows(self) -> dict[str, set[tuple[object, ...]]]:
        """Every table's rows by their primary key."""
        engine = self.engine()
        found: dict[str, set[tuple[object, ...]]] = {}
        with engine.connect() as connection:
            for table in inspect(connection).get_table_names():
                keys = inspect(connection).get_pk_constraint(table)["constrained_columns"]
                if keys and table != "alembic_version":
                    found[table] = {tuple(row) for row in connection.execute(
                        text(f"SELECT {', '.join(keys)} FROM {table}"))}
        engine.dispose()
        return found


def all_answered(site: Site, asked: list[tuple[str, str]], saying: str | None = None) -> None:
    """Every mail of ``asked`` (its sender, its subject) answered; with ``saying``, each answer says it."""
    for address, subject in asked:
        answer = site.wait_for(address, f"Re: {subject}")
        body = str(answer.get_body(("plain",)).get_content())  # type: ignore[union-attr]
        assert saying is None or saying in body, body


def results(site: Site, address: str, game: str) -> list[EmailMessage]:
    return [message for message in site.mailbox(address)
            if str(message["Subject"]).startswith(f"{game} ") and " results" in str(message["Subject"])]


def played_a_phase(site: Site, judges: list[Judged]) -> None:
    """Each judge's game master PROCESSes each of its games, and each game's first player has its results; each
    judge's mail carries maps (a Payola phase's always do)."""
    waiting, asked = {}, []
    time.sleep(1.1)  # Postfix's Received: line counts seconds: a PROCESS of the second its phase began reads older
    for judged in judges:
        for kind, _, seats in KINDS:
            game = judged.games + kind
            waiting[(game, seats[0][0])] = len(results(site, seats[0][0], game))
            asked.append((GM, judged.mail(GM, f"SIGNON MASTER@{game} gm-pw\nPROCESS")))
    all_answered(site, asked, "OK: ")
    mapped = set()
    for (game, address), before in waiting.items():
        told = [str(message.get_body(("plain",)).get_content())[-600:]  # type: ignore[union-attr]
                for message in site.mailbox(GM)[-len(asked):]]
        wait_or_show_log(lambda game=game, address=address, before=before:  # type: ignore[misc]
                         len(results(site, address, game)) > before,
                         f"{game}'s results (its player has {site.subjects(address)[-5:]}; the game master's "
                         f"answers: {told})", site.log)
        if any(part.get_content_type() == "image/png" for part in results(site, address, game)[-1].iter_attachments()):
            mapped.add(game[0])
    assert mapped == {judged.games for judged in judges}  # each judge mailed maps in this phase


def started(site: Site, judges: list[Judged]) -> None:
    """A game of every kind on each judge, created, joined and started by mail, each request confirmed by its
    address with the token the judge mailed it (Postfix, with no milter, vouches for no sender)."""
    for step in ("CREATE", "JOIN", "START"):
        asked = []
        for judged in judges:
            for kind, words, seats in KINDS:
                game = judged.games + kind
                if step == "CREATE":
                    asked.append((judged, GM, game, judged.mail(GM, f"CREATE {game} gm-pw {words}".strip())))
                elif step == "JOIN":
                    asked += [(judged, address, game, judged.mail(address, f"JOIN {game} pw {seat}"))
                              for address, seat in seats]
                else:
                    asked.append((judged, GM, game, judged.mail(GM, f"SIGNON MASTER@{game} gm-pw\nSTART")))
        all_answered(site, [(address, subject) for _, address, _, subject in asked],
                     "OK: waiting for" if step != "START" else "OK: ")
        if step != "START":
            confirmed = []
            for judged, address, game, _ in asked:
                request = site.wait_for(address, f"Please confirm: {step} {game}")
                token = next(line for line in request.get_content().splitlines() if line.startswith("CONFIRM "))
                confirmed.append((address, judged.mail(address, token)))
            all_answered(site, confirmed, "OK: ")


def as_written(guide: str, section: str, judges: list[Judged], clone: Path, release: str, commit: str) -> list[str]:
    """upgrades.md's block after ``section``, each line as written (``$J``, ``$C``, /opt/judge, the backups' folder
    and systemctl standing for this installation's; ``v0.4.0``, the new release, for ``commit``), in the clone:
    the lines of a judge for each judge, the others once.  A checkout of a release's tag that git refuses (the
    clone has no tags) is made by the guide's line for that; what each judge's lines printed is returned."""
    printed = []
    for line in (line.replace("v0.4.0", commit) for line in guide_lines(guide, section)):
        if line.startswith("systemctl stop"):
            for judged in judges:
                judged.stop()
        elif line.startswith("systemctl start"):
            for judged in judges:
                judged.serve()
        elif line.startswith("$J db version"):  # "says schema ...": the old release's, as the table has it
            for judged in judges:
                shown = judged.judge("db", "version").stdout
                assert f"schema {schema_of(guide, release)};" in shown, shown
        elif line.startswith("$J"):
            for judged in judges:
                command = line.replace("$J", str(judged.venv / "bin" / "judge")).replace(
                    "$C", f"--config {judged.config}").replace("/var/lib/judge-backups", str(judged.data.parent))
                done = subprocess.run(["sh", "-c", command], capture_output=True, text=True, timeout=300)
                assert done.returncode in ((0,) if " db downgrade " in line else (0, 1)) and "Traceback" not in \
                    done.stderr, f"{command}: {done.stdout}{done.stderr}"  # status says 1 for a problem it sees
                printed.append(done.stdout)
        else:
            command = line.replace("/opt/judge", str(judges[0].venv))
            done = subprocess.run(["sh", "-c", command], cwd=clone, capture_output=True, text=True, timeout=600)
            if done.returncode and command.startswith("git checkout v") and "did not match" in done.stderr:
                without = "has not published its tags" if section.startswith("To upgrade") else "Without its tag"
                [command] = guide_lines(guide, without)
                done = subprocess.run(["sh", "-c", command], cwd=clone, capture_output=True, text=True, timeout=600)
            assert done.returncode == 0, f"{command}: {done.stdout}{done.stderr}"
    return printed


def guide_lines(guide: str, after: str) -> list[str]:
    """The lines of the first ``sh`` block after ``after`` in the guide, each without its comment."""
    block = guide.split(after, 1)[1].split("```sh\n", 1)[1].split("```", 1)[0]
    return [line.split("  #", 1)[0].strip() for line in block.splitlines() if line.strip()]


def schema_of(guide: str, release: str) -> str:
    """The schema the upgrades table gives ``release`` (v0.3.0: 0020)."""
    found = re.search(rf"^\| {re.escape(release.removeprefix('v'))}[^|]*\| (\d{{4}}) \|$", guide, re.M)
    assert found is not None, release
    return found.group(1)


def test_games_of_every_kind_with_maps_live_through_the_upgrade_from_the_previous_release_the_way_back_and_forward(
        work: Path) -> None:
    """The previous release (v0.3.0) installed from its tag, as install.md says, runs two judges of the machine,
    one on SQLite and one on PostgreSQL, each a domain of its own behind Postfix, each with a game of every kind
    played a phase with its maps mailed.  upgrades.md's lines, as written, upgrade them to this release (a
    checkout of a tag: git pull failed there), and each game plays a phase; its way back to 0.3.0 (which stopped
    on SQLite at 0025: FOREIGN KEY constraint failed [SQL: DROP TABLE blobs]), and each plays a phase; forward
    again, and each plays a phase.  Every row of 0.3's tables there before the way back is there after it."""
    began = time.monotonic()
    guide = (ROOT / "docs" / "operators" / "upgrades.md").read_text("utf-8")
    tags = releases()
    clone = work / "checkout"
    run("git", "clone", "--quiet", str(ROOT), str(clone))
    head = run("git", "-C", str(ROOT), "rev-parse", "HEAD").strip()
    if subprocess.run(["git", "-C", str(clone), "cat-file", "-e", f"{tags['v0.3.0']}^{{commit}}"]).returncode:
        pytest.skip("this clone does not hold the commit of v0.3.0 (deploy/releases): a shallow clone")
    with postfix_site() as site:
        sqlite_port, postgres_port = free_port(), free_port()
        printed = [run("sh", str(clone / "deploy" / "postfix" / "setup-judge.sh"), "--domain", domain, "--judge",
                       f"127.0.0.1:{port}") for domain, port in (("judge.test", sqlite_port),
                                                                  ("second.test", postgres_port))]
        settings = ["\n".join(line.strip() for line in text.split("(judge.toml):\n", 1)[1].splitlines()
                              if " = " in line) for text in printed]
        run("postfix", "start")
        cluster = Cluster(work / "pg")
        venv = work / "opt" / "judge"
        judges = [Judged(work, "sqlite", "judge.test", venv, settings[0], None, SQLITE_GAMES),
                  Judged(work, "postgresql", "second.test", venv, settings[1], cluster.url, POSTGRES_GAMES)]

        def lap(what: str) -> None:  # how long each step took, for the Postfix stage's wall time (-s shows it)
            print(f"  {time.monotonic() - began:5.0f} s: {what}", flush=True)

        try:
            installed_from_its_tag(clone, venv, guide)
            lap("0.3.0 installed")
            for judged in judges:
                judged.serve()
            started(site, judges)
            lap("games started")
            played_a_phase(site, judges)
            lap("a phase played by 0.3.0")
            upgraded = as_written(guide, "To upgrade (", judges, clone, "v0.3.0", head)
            assert sum(f"database upgraded from 0020 to {SCHEMA}" in said for said in upgraded) == 2, upgraded
            assert judges[0].judge("--version").stdout.startswith(f"payola-judge {__version__} ")
            lap("upgraded")
            played_a_phase(site, judges)
            lap("a phase played")
            before = [judged.rows() for judged in judges]
            as_written(guide, "To go back to the previous release", judges, clone, "v0.3.0", head)
            lap("back to 0.3.0")
            old = [judged.rows() for judged in judges]
            installed = subprocess.run([str(venv / "bin" / "judge"), "--version"], capture_output=True, text=True)
            assert installed.stdout.startswith("payola-judge 0.3.0 "), installed.stdout
            site_packages = next(venv.glob("lib/python3*/site-packages"))
            files = {str(path.relative_to(site_packages)) for path in (site_packages / "judge").rglob("*")
                     if path.is_file() and "__pycache__" not in path.parts}
            assert files == set(run("git", "-C", str(clone), "ls-tree", "-r", "--name-only", tags["v0.3.0"],
                                    "judge").split())  # the old release's files, and nothing of the newer build
            for was, now in zip(before, old, strict=True):  # every row 0.3 has a table for, kept
                assert {table: was[table] - now[table] for table in now if was[table] - now[table]} == {}
            played_a_phase(site, judges)
            lap("a phase played by 0.3.0")
            upgraded = as_written(guide, "To upgrade (", judges, clone, "v0.3.0", head)
            assert sum(f"database upgraded from 0020 to {SCHEMA}" in said for said in upgraded) == 2, upgraded
            lap("upgraded again")
            played_a_phase(site, judges)
            lap("a phase played")
            for was, judged in zip(old, judges, strict=True):  # and forward again: nothing lost either
                now = judged.rows()
                assert {table: was[table] - now[table] for table in was if was[table] - now.get(table, set())} == {}
            assert held() == []  # nothing left in Postfix
        finally:
            for judged in judges:
                judged.stop()
            cluster.stop()


def installed_from_its_tag(clone: Path, venv: Path, guide: str) -> None:
    """0.3.0 installed as install.md says, from a checkout of its tag (or its commit, as upgrades.md says when
    the clone has no tags)."""
    if subprocess.run(["git", "-C", str(clone), "checkout", "--quiet", "v0.3.0"], capture_output=True).returncode:
        [line] = guide_lines(guide, "Without its tag")
        run("sh", "-c", f"cd {clone} && {line}")
    run(sys.executable, "-m", "venv", str(venv))
    run(str(venv / "bin" / "pip"), "install", "--quiet", f"{clone}[postgres]")
