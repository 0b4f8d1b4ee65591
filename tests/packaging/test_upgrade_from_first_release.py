"""``deploy/upgrade-from-0.1.sh`` on an installation laid out as the first release (0.1.0,
2026-11-22) made it, in a temporary root: its settings in etc/judge (group and mode as its
README set them), its SQLite database at schema 0007 holding a started game with a sheet applied
and another still in the listener's intake, its cron job and logrotate file, its log.  The script
runs with the tester's own user standing for both users (``--user``, ``--old-user``), a stand-in
for the venv's pip, the judge of this checkout as /opt/judge/bin/judge, and (for systemd) a
stand-in systemctl that notes what it is asked.  Afterwards the new judge works on the data: the
sheet sent before the upgrade is there, and the one waiting in the intake is applied."""

from __future__ import annotations

import grp
import json
import os
import pwd
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest
from alembic import command
from sqlalchemy import select

from judge.bootstrap import open_database
from judge.service.config import Settings, load_settings
from judge.service.incoming.intake import FileIntake, intake_path
from judge.service.running.app import inject
from judge.service.running.listening import timer_tick
from judge.store.database import SCHEMA, alembic_config
from judge.store.models import PhaseRow, Submission
from tests.support.harness import inject_confirming, raw_mail

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "deploy" / "upgrade-from-0.1.sh"
ME = pwd.getpwuid(os.geteuid()).pw_name
GM, FRANCE, GERMANY = "gm@example.org", "fred@example.org", "gus@example.org"
# Past the suite's timeout (pyproject.toml): a test here runs the upgrade script and its way back, each allowed
# 300 s, and on a loaded machine measuring coverage the way back alone took 313 s (the test then failed).
pytestmark = pytest.mark.timeout(900)

# What the first release's README installed (deploy/judge.cron, deploy/judge.logrotate of 0.1.0).
OLD_CRON = """\
# Run the deadlines from cron instead of (or as well as) the daemon's own clock: claims on the
# games make each phase process exactly once even when both run. Install in /etc/cron.d/judge;
# /var/log/judge must exist, owned by judge (README), and deploy/judge.logrotate rotates the log.
*/5 * * * * judge /opt/judge/bin/judge tick --config /etc/judge/judge.toml >> /var/log/judge/tick.log 2>&1
"""
OLD_LOGROTATE = """\
/var/log/judge/*.log {
    weekly
    rotate 12
    compress
    delaycompress
    missingok
    notifempty
    create 0640 judge judge
    su judge judge
}
"""


def old_settings(data: Path) -> str:
    """The first release's example settings (deploy/judge.toml of 0.1.0), with this test's data
    directory, no relay (the Maildir) and no maps or pages (drawing them is slow)."""
    return f"""[judge]
domain = "example.org"
data-dir = "{data}"
judge-name = "Payola Judge"
maps = false
web = false
host = "127.0.0.1"
port = 2525
max-size = 262144
relay-starttls = false
tick-seconds = 60
max-lateness = 24
settle-seconds = 300
mta-hostname = "mail.example.org"
retry-days = 4
max-sessions = 100
idle-timeout = 60
max-commands-per-mail = 500
max-password-checks-per-mail = 10
max-press-per-mail = 10
max-mails-per-mail = 50
max-creates-per-day = 3
max-joins-per-day = 10

[judge.durations]
movement = 48
retreat = 24
adjustment = 24
grace = 0
"""


@pytest.fixture(scope="module")
def made_once(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The first release's installation, made once (a game played, the schema taken down) and
    copied for each test."""
    root = tmp_path_factory.mktemp("first-release") / "root"
    build(root)
    return root


def first_release(made_once: Path, root: Path) -> Path:
    """A copy of the first release's installation at ``root``; its data directory (its settings
    name the copy's)."""
    shutil.copytree(made_once, root, symlinks=True)
    config = root / "etc" / "judge" / "judge.toml"
    config.write_text(config.read_text().replace(str(made_once), str(root)))
    return root / "var" / "lib" / "judge"


def build(root: Path) -> None:
    """The first release's installation under ``root``."""
    etc, data, logs = root / "etc", root / "var" / "lib" / "judge", root / "var" / "log" / "judge"
    for folder in (etc / "cron.d", etc / "logrotate.d", logs):
        folder.mkdir(parents=True)
    (etc / "judge").mkdir(mode=0o750)
    (etc / "judge" / "judge.toml").write_text(old_settings(data))
    (etc / "judge" / "judge.toml").chmod(0o640)
    (etc / "cron.d" / "judge").write_text(OLD_CRON)
    (etc / "logrotate.d" / "judge").write_text(OLD_LOGROTATE)
    (logs / "tick.log").write_text("2026-11-22 12:05:00 UTC 1 mail(s) sent to /var/lib/judge/outbox\n")
    data.mkdir(parents=True, mode=0o700)
    settings = Settings(data_dir=data, maps=False, web=False)  # SQLite: what the first release's README set up
    db = open_database(settings)
    now = datetime.now(UTC).replace(tzinfo=None)
    inject_confirming(db, settings, raw_mail(GM, "CREATE old1 gm-pw"), now)
    for power, address in (("FRANCE", FRANCE), ("GERMANY", GERMANY)):
        inject_confirming(db, settings, raw_mail(address, f"JOIN old1 pw {power}"), now)
    inject(db, settings, raw_mail(GM, "SIGNON MASTER@old1 gm-pw\nSTART"), now)
    inject(db, settings, raw_mail(FRANCE, "SIGNON F@old1 pw\n3 : A PAR - BUR"), now)
    db.engine.dispose()
    intake_file = intake_path(settings.database_url)
    assert intake_file is not None
    intake = FileIntake(intake_file)  # Germany's sheet, stored by the listener just before the judge stopped
    intake.store([(raw_mail(GERMANY, "SIGNON G@old1 pw\n2 : A MUN - RUH"), GERMANY)], now)
    intake.engine.dispose()
    command.downgrade(alembic_config(settings.database_url), "0007")  # the first release's schema
    with sqlite3.connect(data / "judge.db") as old:
        assert old.execute("SELECT version_num FROM alembic_version").fetchall() == [("0007",)]


def stand_ins(root: Path, bin_dir: Path, cron: bool = True) -> None:
    """/opt/judge/bin: pip noting what it is asked, judge running this checkout; and in ``bin_dir``
    python3 (this one: it reads TOML), systemctl noting what it is asked, and (with ``cron``) cron
    and logrotate, there to be found."""
    venv = root / "opt" / "judge" / "bin"
    venv.mkdir(parents=True, exist_ok=True)
    bin_dir.mkdir(exist_ok=True)
    # pip notes the newest migration of the source it installs: its files alone, not the bytecode Python may have
    # written beside them (``__pycache__``, which ``ls`` lists after them)
    scripts = {venv / "pip": f'echo "$@" >> {root / "pip.log"}\nfor given in "$@"; do case "$given" in '
                             f'/*"[postgres]") ls "${{given%\\[postgres\\]}}/judge/migrations/versions" '
                             f'| grep "[.]py$" | tail -1 >> {root / "pip.log"} ;; esac; done\n',
               venv / "judge": f'exec "{sys.executable}" -m judge "$@"\n',
               bin_dir / "systemctl": f'echo "$@" >> {root / "systemctl.log"}\n'}
    if cron:
        scripts |= {bin_dir / "cron": "exit 0\n", bin_dir / "logrotate": "exit 0\n"}
    for path, body in scripts.items():
        path.write_text(f"#!/bin/sh\n{body}")
        path.chmod(0o755)
    if not (bin_dir / "python3").exists():
        (bin_dir / "python3").symlink_to(sys.executable)


def environment(root: Path, cron: bool = True) -> dict[str, str]:
    """The script's environment: the stand-ins first on its PATH, then this machine's programs; without
    ``cron``, a PATH of its own, on which neither cron nor logrotate is found, whatever this machine has."""
    path = os.environ["PATH"] if cron else str(programs_but(root / "programs", {"cron", "crond", "logrotate"}))
    return {**os.environ, "PATH": f"{root / 'stand-ins'}:{path}", "PYTHONPATH": str(ROOT)}


def programs_but(folder: Path, left_out: set[str]) -> Path:
    """``folder`` holding a link to each program found on this machine's PATH (the first of each name), but those
    named in ``left_out``."""
    folder.mkdir(exist_ok=True)
    for place in os.environ["PATH"].split(os.pathsep):
        for program in sorted(Path(place).iterdir()) if Path(place).is_dir() else ():
            link = folder / program.name
            if program.name not in left_out and not link.exists() and os.access(program, os.X_OK):
                link.symlink_to(program)
    return folder


def upgrade(root: Path, *options: str, cron: bool = True) -> subprocess.CompletedProcess[str]:
    stand_ins(root, root / "stand-ins", cron)
    return subprocess.run(["sh", str(SCRIPT), "--root", str(root), "--user", ME, "--old-user", ME, *options],
                          capture_output=True, text=True, timeout=300, env=environment(root, cron))


OLD_JUDGE = """
import sqlite3, sys, time
database = sqlite3.connect(sys.argv[4])  # as the first release's judge serve: its database open
database.execute("SELECT 1").fetchall()
print("listening", flush=True)
time.sleep(float(sys.argv[5]) if len(sys.argv) > 5 else 600)
"""


def old_judge(root: Path, data: Path, *command: str) -> subprocess.Popen[str]:
    """A stand-in for the first release's ``judge serve --config ...``, started by hand: a program
    called judge, its settings on its command line, its database open; once it has opened it."""
    program = root / "opt" / "old" / "judge"
    program.parent.mkdir(parents=True, exist_ok=True)
    program.write_text(OLD_JUDGE)
    config = root / "etc" / "judge" / "judge.toml"
    started = subprocess.Popen([*command, sys.executable, str(program), "serve", "--config", str(config),
                                str(data / "judge.db")], stdout=subprocess.PIPE, text=True)
    assert started.stdout is not None and started.stdout.readline() == "listening\n"
    return started


def saved(root: Path) -> Path:
    [folder] = (root / "var" / "lib" / "judge-backups").glob("before-upgrade-*")
    return folder


needs_own_group = pytest.mark.skipif(not any(group.gr_name == ME for group in grp.getgrall()),
                                     reason=f"the settings go to the group named like the user, and {ME} has none")


@needs_own_group
def test_the_first_release_is_upgraded_in_place_without_systemd_and_its_games_go_on(
        made_once: Path, tmp_path: Path) -> None:
    root = tmp_path / "root"
    data = first_release(made_once, root)
    done = upgrade(root, "--no-systemd")
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"database upgraded from 0007 to {SCHEMA}" in done.stdout + done.stderr
    backup = saved(root)  # as they were, for going back
    assert (backup / "cron.d-judge").read_text() == OLD_CRON and (backup / "logrotate.d-judge").read_text() \
        == OLD_LOGROTATE
    with sqlite3.connect(backup / "data" / "judge.db") as old:
        assert old.execute("SELECT version_num FROM alembic_version").fetchall() == [("0007",)]
    assert (backup / "data" / "judge-intake.db").is_file() and (backup / "judge.toml").is_file()
    etc = root / "etc"
    assert (etc / "cron.d" / "judge").read_text() == (ROOT / "deploy" / "judge.cron").read_text()  # as payola
    assert (etc / "logrotate.d" / "judge").read_text() == (ROOT / "deploy" / "judge.logrotate").read_text()
    installed = (root / "pip.log").read_text().splitlines()
    assert installed[0] == f"install --quiet --upgrade {ROOT}[postgres]" and installed[1].startswith(f"{SCHEMA}_")
    assert (etc / "judge").stat().st_mode & 0o777 == 0o750 and (etc / "judge" / "judge.toml").stat().st_mode & 0o777 \
        == 0o640 and data.stat().st_mode & 0o777 == 0o700  # modes kept
    assert "setsid -f runuser -u" in done.stdout  # how to start it
    settings = load_settings(etc / "judge" / "judge.toml")
    db = open_database(settings)
    timer_tick(db, settings, datetime.now(UTC).replace(tzinfo=None))  # the timer's first tick takes the intake in
    with db.transaction() as session:
        sheets = session.execute(select(Submission.seat, Submission.phase, Submission.text).order_by(Submission.id))
        assert [tuple(sheet) for sheet in sheets] == [("FRANCE", "S1901M", "3 : A PAR - BUR"),
                                                      ("GERMANY", "S1901M", "2 : A MUN - RUH")]
        assert session.scalars(select(PhaseRow.status).where(PhaseRow.name == "S1901M")).one() == "processed"
    db.engine.dispose()


@needs_own_group
def test_with_systemd_the_old_files_go_and_the_new_units_and_timers_start(made_once: Path, tmp_path: Path) -> None:
    root = tmp_path / "root"
    first_release(made_once, root)
    (root / "etc" / "systemd" / "system").mkdir(parents=True)
    (root / "etc" / "systemd" / "system" / "judge-web.service").write_text("[Service]\nUser=judge\n")
    done = upgrade(root, "--systemd")
    assert done.returncode == 0, done.stdout + done.stderr
    assert (root / "systemctl.log").read_text().splitlines() == [
        "stop judge.service", "stop judge-web.service", "daemon-reload",
        "enable --now judge.service judge-tick.timer judge-backup.timer", "enable --now judge-web.service"]
    assert not (root / "etc" / "cron.d" / "judge").exists() and not (root / "etc" / "logrotate.d" / "judge").exists()
    units = root / "etc" / "systemd" / "system"
    for unit in ("judge.service", "judge-web.service", "judge-tick.service", "judge-tick.timer",
                 "judge-backup.service", "judge-backup.timer"):
        assert (units / unit).read_text() == (ROOT / "deploy" / unit).read_text(), unit
    assert "User=payola" in (units / "judge-web.service").read_text()


def test_a_postgresql_database_used_as_the_old_user_is_refused_before_anything_changes(
        made_once: Path, tmp_path: Path) -> None:
    root = tmp_path / "root"
    data = first_release(made_once, root)
    config = root / "etc" / "judge" / "judge.toml"
    config.write_text(config.read_text().replace('[judge]\n', '[judge]\ndatabase = "postgresql+psycopg://judge@/judge"\n'))
    bin_dir = root / "stand-ins"
    stand_ins(root, bin_dir)
    done = subprocess.run(["sh", str(SCRIPT), "--root", str(root), "--user", ME, "--old-user", "judge", "--no-systemd"],
                          capture_output=True, text=True, timeout=60,
                          env={**os.environ, "PATH": f"{bin_dir}:{os.environ['PATH']}"})
    assert done.returncode == 1 and "ALTER ROLE judge RENAME TO" in done.stderr
    assert (root / "etc" / "cron.d" / "judge").read_text() == OLD_CRON  # nothing changed
    assert not (root / "var" / "lib" / "judge-backups").exists() and (data / "judge.db").is_file()


@needs_own_group
def test_without_systemd_the_old_judge_started_by_hand_is_stopped_before_its_data_is_copied(
        made_once: Path, tmp_path: Path) -> None:
    """The first release's guide started the judge by hand without systemd; the script said
    "stopped" and copied and migrated the database under the judge still running.  Now it finds
    it (its settings on its command line, its database open), stops it with SIGTERM, and only then
    copies the data."""
    root = tmp_path / "root"
    data = first_release(made_once, root)
    running = old_judge(root, data)
    try:
        done = upgrade(root, "--no-systemd")
        assert done.returncode == 0, done.stdout + done.stderr
        assert f"stopped with SIGTERM: {running.pid}" in done.stdout
        assert running.wait(10) == -signal.SIGTERM  # it was stopped, not left running
        assert f"database upgraded from 0007 to {SCHEMA}" in done.stdout + done.stderr
    finally:
        running.kill()


@needs_own_group
def test_an_old_judge_that_something_starts_again_is_refused_and_nothing_is_copied(
        made_once: Path, tmp_path: Path) -> None:
    """A supervisor the script does not know (not systemd, no init script) starts the judge again
    as soon as it ends: the script says so, puts the cron job back and changes nothing."""
    root = tmp_path / "root"
    data = first_release(made_once, root)
    flag = tmp_path / "supervising"
    flag.touch()
    program = root / "opt" / "old" / "judge"
    old_judge(root, data).kill()  # writes the stand-in program
    config = root / "etc" / "judge" / "judge.toml"
    judge = json.dumps([sys.executable, str(program), "serve", "--config", str(config), str(data / "judge.db")])
    supervisor = subprocess.Popen([sys.executable, "-c", (  # nothing of the judge's on its own command line
        "import json, os, subprocess, sys\n"
        "while os.path.exists(sys.argv[1]):\n"
        "    subprocess.run(json.loads(os.environ['SUPERVISED']))\n"),
        str(flag)], env={**os.environ, "SUPERVISED": judge}, stdout=subprocess.PIPE, text=True)
    try:
        # at work before the upgrade begins (else the script finds no judge to stop, and upgrades)
        assert supervisor.stdout is not None and supervisor.stdout.readline() == "listening\n"
        done = upgrade(root, "--no-systemd")
        assert done.returncode == 1 and "a judge came back after it stopped" in done.stderr, done.stdout + done.stderr
        assert "serve --config" in done.stderr  # which process it is
        assert (root / "etc" / "cron.d" / "judge").read_text() == OLD_CRON  # put back
        assert not (saved(root) / "data").exists()  # nothing copied
        with sqlite3.connect(data / "judge.db") as old:
            assert old.execute("SELECT version_num FROM alembic_version").fetchall() == [("0007",)]
    finally:
        flag.unlink()
        for process in psutil_children(supervisor.pid):
            os.kill(process, signal.SIGKILL)
        supervisor.kill()
        supervisor.communicate(timeout=10)


def psutil_children(pid: int) -> list[int]:
    """The processes whose parent is ``pid``."""
    children = []
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and int((entry / "stat").read_text().rpartition(")")[2].split()[1]) == pid:
                children.append(int(entry.name))
        except OSError:
            continue
    return children


@needs_own_group
def test_an_old_judge_under_an_init_script_is_stopped_by_it(made_once: Path, tmp_path: Path) -> None:
    root = tmp_path / "root"
    data = first_release(made_once, root)
    running = old_judge(root, data)
    init = root / "etc" / "init.d" / "judge"
    init.parent.mkdir(parents=True)
    # as a real init script's stop (start-stop-daemon --retry), it returns once the judge has ended (a zombie
    # the test has not reaped yet has ended): else the upgrade may find it still ending, and send its own SIGTERM
    init.write_text(f'#!/bin/sh\necho "$@" >> {root / "init.log"}\nkill {running.pid}\n'
                    f'for _ in $(seq 300); do [ -r /proc/{running.pid}/stat ] && '
                    f'[ "$(sed "s/.*) \\(.\\).*/\\1/" /proc/{running.pid}/stat)" != Z ] || break; sleep 0.1; done\n')
    init.chmod(0o755)
    try:
        done = upgrade(root, "--no-systemd")
        assert done.returncode == 0, done.stdout + done.stderr
        assert f"stopped with {init} stop" in done.stdout and "stopped with SIGTERM" not in done.stdout
        assert (root / "init.log").read_text() == "stop\n" and running.wait(10) == -signal.SIGTERM
    finally:
        running.kill()


@needs_own_group
def test_without_cron_or_logrotate_the_no_systemd_path_says_the_tick_would_never_run(
        made_once: Path, tmp_path: Path) -> None:
    root = tmp_path / "root"
    first_release(made_once, root)
    done = upgrade(root, "--no-systemd", cron=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "cron logrotate is not installed here" in done.stderr


@needs_own_group
@pytest.mark.skipif(os.geteuid() != 0, reason="gives the settings a group of another user's: root")
def test_the_way_back_puts_the_first_releases_groups_files_and_schema_back_keeping_every_game(
        made_once: Path, tmp_path: Path) -> None:
    """The first release's settings belong to its user's group; the upgrade gives them to payola's.
    The way back the upgrade writes (way-back.sh) takes the database down to 0007 in place, with
    the sheets played since, and gives the settings their group again, which the old judge needs
    to read them."""
    root = tmp_path / "root"
    data = first_release(made_once, root)
    etc = root / "etc" / "judge"
    old_group = grp.getgrgid(1).gr_name  # not the tester's
    for path in (etc, etc / "judge.toml"):
        os.chown(path, -1, 1)
    done = upgrade(root, "--no-systemd")
    assert done.returncode == 0, done.stdout + done.stderr
    assert grp.getgrgid((etc / "judge.toml").stat().st_gid).gr_name != old_group  # payola's, now
    settings = load_settings(etc / "judge.toml")
    db = open_database(settings)
    timer_tick(db, settings, datetime.now(UTC).replace(tzinfo=None))  # a game played on after the upgrade
    db.engine.dispose()
    way_back = saved(root) / "way-back.sh"
    temporary = tmp_path / "tmp"  # where the way back copies the first release's commit to install it
    temporary.mkdir()
    back = subprocess.run(["sh", str(way_back)], capture_output=True, text=True, timeout=300,
                          env={**environment(root), "TMPDIR": str(temporary)})
    assert back.returncode == 0, back.stdout + back.stderr
    assert not any(temporary.iterdir())
    for path in (etc, etc / "judge.toml"):
        assert grp.getgrgid(path.stat().st_gid).gr_name == old_group, path
    assert (root / "etc" / "cron.d" / "judge").read_text() == OLD_CRON
    assert (root / "etc" / "logrotate.d" / "judge").read_text() == OLD_LOGROTATE
    with sqlite3.connect(data / "judge.db") as old:
        assert old.execute("SELECT version_num FROM alembic_version").fetchall() == [("0007",)]
        assert old.execute("SELECT count(*) FROM submissions").fetchall() == [(2,)]  # both sheets, kept
    installed = (root / "pip.log").read_text().splitlines()[-2:]  # the first release's files, from its commit
    assert re.fullmatch(r"install --quiet /\S+\[postgres\]", installed[0]) and installed[1] == "0007_intake_marks.py"


@needs_own_group
@pytest.mark.skipif(os.geteuid() != 0, reason="runs the way back as root, as its operator does")
def test_a_way_back_whose_install_fails_leaves_no_copy_of_the_first_release_behind(
        made_once: Path, tmp_path: Path) -> None:
    """The way back installs the first release from a copy of its commit in a temporary folder: when the
    install fails (pip refusing, a full disk), the script stops, and the copy is removed all the same."""
    root = tmp_path / "root"
    first_release(made_once, root)
    done = upgrade(root, "--no-systemd")
    assert done.returncode == 0, done.stdout + done.stderr
    (root / "opt" / "judge" / "bin" / "pip").write_text(f'#!/bin/sh\necho "$@" >> {root / "pip.log"}\nexit 1\n')
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    back = subprocess.run(["sh", str(saved(root) / "way-back.sh")], capture_output=True, text=True, timeout=300,
                          env={**environment(root), "TMPDIR": str(temporary)})
    assert back.returncode != 0 and (root / "pip.log").read_text().splitlines()[-1].startswith("install --quiet /")
    assert not any(temporary.iterdir()), back.stdout + back.stderr
