"""Moving a judge's data (issue 24 items 2 and 3): ``judge copy-db`` from SQLite to PostgreSQL in
the middle of a phase, and ``judge backup``, ``judge restore --check`` and ``judge restore``."""

from __future__ import annotations

import grp
import os
import pwd
import shutil
import subprocess
import sys
import tempfile
from dataclasses import replace
from datetime import datetime
from pathlib import Path

import pytest
from sqlalchemy import func, select, update

from judge.bootstrap import main, open_database
from judge.games.payola import lifecycle
from judge.service.incoming.handlers import receive
from judge.service.incoming.intake import FileIntake, intake_path
from judge.service.outgoing.sender import deliver_pending, transport_for
from judge.service.running.app import apply_stored
from judge.store.database import Database
from judge.store.models import Game, InboundMail, Outbox, Secret, Submission
from tests.support.harness import Judge, fresh_database_url, last_outbox_id, raw_mail, two_player_game

ALICE, BOB = "alice@example.org", "bob@example.org"
postgresql = pytest.mark.skipif(not os.environ.get("JUDGE_TEST_DATABASE_URL"),
                                reason="needs a PostgreSQL server: set JUDGE_TEST_DATABASE_URL")


def sqlite_judge(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Judge:
    """A judge kept in SQLite (the default install), whatever the test run's database."""
    with monkeypatch.context() as patch:
        patch.delenv("JUDGE_TEST_DATABASE_URL", raising=False)
        return two_player_game(Judge(tmp_path / "data"))


def balances(db: Database) -> dict[str, int]:
    with db.transaction() as session:
        game = session.scalars(select(Game).where(Game.name == "g1")).one()
        return lifecycle.balances(session, game)


def sheets(db: Database) -> list[str]:
    with db.transaction() as session:
        return list(session.scalars(select(Submission.text).order_by(Submission.id)))


def in_the_intake(judge: Judge, sender: str, body: str) -> None:
    """A mail the daemon's listener stored in its intake and the judge has not taken in yet."""
    path = intake_path(judge.settings.database_url)
    assert path is not None
    intake = FileIntake(path)
    try:
        intake.store([(raw_mail(sender, body), sender)], judge.now)
    finally:
        intake.close()


@postgresql
def test_a_game_moved_from_sqlite_to_postgresql_mid_phase_plays_on(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    judge = sqlite_judge(tmp_path, monkeypatch)
    judge.send(ALICE, "SIGNON F@g1 alice-pw\n2 : A PAR - BUR")
    judge.send(BOB, "SIGNON G@g1 bob-pw\nTRANSFER 5 TO FRANCE")
    in_the_intake(judge, ALICE, "SIGNON F@g1 alice-pw\n3 : A PAR - PIC")  # her last word, not yet taken in
    before = balances(judge.db)
    target = fresh_database_url()
    assert target is not None
    assert main(["copy-db", "--data-dir", str(judge.settings.data_dir), "--to", target]) == 0
    out = capsys.readouterr().out
    assert "every table's rows and every game's money (its balances, purses and treasuries) match the source" in out
    assert "1 mail(s) from the intake" in out
    judge.settings = replace(judge.settings, database=target)  # the settings now name PostgreSQL
    judge.db = open_database(judge.settings)
    assert balances(judge.db) == before and (before["FRANCE"], before["GERMANY"]) == (48 + 5, 48 - 5)
    assert [status for _, status in apply_stored(judge.db, judge.settings, judge.now)] == ["done"]
    assert sheets(judge.db)[-1] == "3 : A PAR - PIC"  # the next sheet, applied on PostgreSQL
    judge.send(BOB, "SIGNON G@g1 bob-pw\n1 : A MUN - RUH\nWAIT")
    judge.later(49)
    assert judge.process("g1") == "g1 S1901M processed; next F1901M"  # the deadline, on PostgreSQL
    results = judge.last_to(ALICE)
    assert results.subject == "g1 S1901M results" and "A PAR - PIC" in results.body


def test_copy_db_refuses_a_target_that_holds_anything(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    judge = sqlite_judge(tmp_path, monkeypatch)
    copy = tmp_path / "copy.db"
    assert main(["copy-db", "--data-dir", str(judge.settings.data_dir), "--to", str(copy)]) == 0
    assert "games: 1 active" in capsys.readouterr().out
    assert main(["copy-db", "--data-dir", str(judge.settings.data_dir), "--to", str(copy)]) == 1
    assert "is not empty" in capsys.readouterr().out
    with Database(f"sqlite:///{copy}").transaction() as session:  # the first copy, untouched by the second
        assert session.scalar(select(func.count()).select_from(Game)) == 1
        copied_keys = set(session.execute(select(Secret.name, Secret.value)))
    with judge.db.transaction() as session:  # the source's VERP key, not the copy's own: its bounces still count
        assert copied_keys == set(session.execute(select(Secret.name, Secret.value)))


def test_a_backup_taken_while_the_judge_runs_is_checked_and_restored(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    judge = two_player_game(Judge(tmp_path / "data"))
    judge.send(ALICE, "SIGNON F@g1 alice-pw\n2 : A PAR - BUR")
    on_sqlite = judge.settings.database is None
    if on_sqlite:
        in_the_intake(judge, BOB, "SIGNON G@g1 bob-pw\n1 : A MUN - RUH")
    options = ["--data-dir", str(judge.settings.data_dir)]
    options += ["--database", judge.settings.database] if judge.settings.database else []
    assert main(["backup", str(tmp_path / "backups"), *options]) == 0
    out = capsys.readouterr().out
    made = next((tmp_path / "backups").iterdir())
    assert out.startswith(f"backup written to {made}") and "games: 1 active" in out and out.rstrip().endswith("OK")
    assert main(["restore", "--check", str(made)]) == 0
    checked = capsys.readouterr().out
    assert "integrity: ok" in checked and ("1 in the intake" in checked) == on_sqlite
    judge.send(ALICE, "SIGNON F@g1 alice-pw\n3 : A PAR - PIC")  # after the backup: lost by the restore
    restored_options = options if on_sqlite else ["--data-dir", str(judge.settings.data_dir),
                                                  "--database", str(fresh_database_url())]
    assert main(["restore", str(made), *restored_options]) == 0
    out = capsys.readouterr().out
    assert "restored" in out
    settings = judge.settings if on_sqlite else replace(judge.settings, database=restored_options[-1])
    db = open_database(settings)
    apply_stored(db, settings, judge.now)
    assert sheets(db) == ["2 : A PAR - BUR"] + (["1 : A MUN - RUH"] if on_sqlite else [])
    if on_sqlite:  # the files it replaced were moved aside, not deleted
        aside = next(judge.settings.data_dir.glob("before-restore-*"))
        assert (aside / "judge.db").is_file() and f"the files it replaced are in {aside}" in out


def test_a_damaged_backup_fails_its_check(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    judge = sqlite_judge(tmp_path, monkeypatch)
    assert main(["backup", str(tmp_path / "backups"), "--data-dir", str(judge.settings.data_dir)]) == 0
    made = next((tmp_path / "backups").iterdir())
    data = bytearray((made / "judge.db").read_bytes())
    data[4096:12288] = b"\xff" * 8192  # pages of the tables, overwritten
    (made / "judge.db").write_bytes(bytes(data))
    capsys.readouterr()
    assert main(["restore", "--check", str(made)]) != 0
    assert main(["restore", str(made), "--data-dir", str(judge.settings.data_dir)]) != 0  # never restored
    with judge.db.transaction() as session:
        assert session.scalar(select(func.count()).select_from(Outbox)) and \
            session.scalar(select(func.count()).select_from(InboundMail))


def test_backup_keep_deletes_only_the_oldest_and_only_after_a_good_backup(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    judge = sqlite_judge(tmp_path, monkeypatch)
    folder = tmp_path / "backups"
    other = folder / "notes"  # not a backup: never deleted
    other.mkdir(parents=True)
    for _ in range(3):
        assert main(["backup", str(folder), "--keep", "2", "--data-dir", str(judge.settings.data_dir)]) == 0
    made = sorted(path.name for path in folder.iterdir())
    assert len(made) == 3 and "notes" in made
    assert "deleted the older backup" in capsys.readouterr().out


def test_a_restore_says_what_the_backups_waiting_mail_will_do_and_can_keep_what_had_gone_from_going_twice(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    judge = two_player_game(Judge(tmp_path / "data"))
    before = last_outbox_id(judge.db)
    judge.send(ALICE, "HELP")
    judge.later(1)
    judge.send(BOB, "HELP")
    with judge.db.transaction() as session:  # the relay was down: both answers still waiting when the backup ran
        session.execute(update(Outbox).where(Outbox.id > before).values(status="pending", sent_at=None))
    options = ["--data-dir", str(judge.settings.data_dir)]
    options += ["--database", judge.settings.database] if judge.settings.database else []
    assert main(["backup", str(tmp_path / "backups"), *options]) == 0
    made = next((tmp_path / "backups").iterdir())
    capsys.readouterr()

    def restored(*extra: str) -> tuple[str, dict[str, str]]:
        """Restore the backup (on PostgreSQL into a new database); what it said, and its answers' states."""
        url = judge.settings.database_url if judge.settings.database is None else str(fresh_database_url())
        assert main(["restore", str(made), *extra, "--data-dir", str(judge.settings.data_dir), "--database", url]) == 0
        with Database(url).transaction() as session:
            states = dict(session.execute(select(Outbox.recipient, Outbox.status).where(Outbox.id > before)).all())
        return capsys.readouterr().out, states

    out, states = restored()
    assert "2 mail(s) waiting to go out in the backup (queued 2026-01-05 12:00 to 2026-01-05 13:00 UTC) go out " \
           "when the judge starts" in out and "--no-resend-before" in out
    assert states == {ALICE: "pending", BOB: "pending"}
    out, states = restored("--no-resend-before", "2026-01-05 12:30")  # Alice's had gone before the disk died
    assert "1 of the 2 mail(s) waiting to go out in the backup, queued before 2026-01-05 12:30 UTC, will not go " \
           "out again" in out
    assert states == {ALICE: "failed", BOB: "pending"}


def test_a_restore_applies_the_mail_the_backup_held_unapplied_without_answering_it_a_second_time(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Alice's sheet was stored, not yet applied, when the backup was made; the judge applied it and
    answered her a moment later, then its disk died.  The restored judge applies her sheet again (it
    counts, as it did) but does not answer her again: the answer is held, failed, for judge resend."""
    judge = two_player_game(Judge(tmp_path / "data"))
    receive(judge.db, raw_mail(ALICE, "SIGNON F@g1 alice-pw\n3 : A PAR - BUR"), judge.now)  # stored, not applied
    options = ["--data-dir", str(judge.settings.data_dir)]
    options += ["--database", judge.settings.database] if judge.settings.database else []
    assert main(["backup", str(tmp_path / "backups"), *options]) == 0
    made = next((tmp_path / "backups").iterdir())
    before = last_outbox_id(judge.db)
    apply_stored(judge.db, judge.settings, judge.now)  # the judge that made the backup, a moment later
    judge.tick()
    assert [mail.to for mail in judge.new_mail()] == [ALICE]  # her answer, once
    url = judge.settings.database_url if judge.settings.database is None else str(fresh_database_url())
    capsys.readouterr()
    assert main(["restore", str(made), "--data-dir", str(judge.settings.data_dir), "--database", url]) == 0
    assert "1 mail(s) stored but not yet applied in the backup applied now" in capsys.readouterr().out
    restored = Database(url)
    with restored.transaction() as session:
        assert session.scalars(select(Submission.text)).all() == ["3 : A PAR - BUR"]  # her sheet counts
        held = session.execute(select(Outbox.recipient, Outbox.status).where(Outbox.id > before)).all()
    assert [tuple(row) for row in held] == [(ALICE, "failed")]  # not answered a second time
    restored.engine.dispose()


def test_a_restore_after_the_data_directory_was_deleted_says_the_line_that_makes_it_then_restores(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """The disk's data directory deleted (/var/lib/judge), the judge's user may not make it again in its folder
    (/var/lib, root's): the restore failed with "Permission denied" until install.md's line was run again.  It
    now says that line, naming its user, and once the line has made the folder it restores into it."""
    judge = sqlite_judge(tmp_path, monkeypatch)
    shared = Path(tempfile.mkdtemp(prefix="judge-restore-"))  # where the judge's user (nobody, run as root) may read
    try:
        shared.chmod(0o755)
        assert main(["backup", str(shared / "backups"), "--data-dir", str(judge.settings.data_dir)]) == 0
        made = next((shared / "backups").iterdir())
        srv, data = shared / "srv", shared / "srv" / "judge"  # /var/lib and /var/lib/judge
        srv.mkdir(mode=0o755)
        as_user, user, group = judges_user(shared / "backups", srv)
        restore = [*as_user, sys.executable, "-m", "judge", "restore", str(made), "--data-dir", str(data)]
        if os.geteuid() == 0:  # root could make it, but it would be root's: refused, saying the line for its user
            capsys.readouterr()
            assert main(["restore", str(made), "--data-dir", str(data)]) == 3 and not data.exists()
            assert f"install -d -m 0700 -o {user} -g {group} {data}" in capsys.readouterr().out
        if subprocess.run([*as_user, sys.executable, "-c", "import judge"], capture_output=True, timeout=60).returncode:
            pytest.skip(f"{user} cannot read this checkout (a folder only its owner may enter, as mktemp -d makes): "
                        f"the restore as {user} cannot run here; the refusal as root was shown above")
        refused = subprocess.run(restore, capture_output=True, text=True, timeout=120)
        line = f"install -d -m 0700 -o {user} -g {group} {data}"
        assert refused.returncode == 1 and line in refused.stdout and not data.exists(), refused.stdout + refused.stderr
        if os.geteuid() == 0:
            subprocess.run(line.split(), check=True)  # the line, as root
        else:
            srv.chmod(0o755)  # what the line does, for a tester who is not root
            data.mkdir(mode=0o700)
        done = subprocess.run(restore, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0 and f"restored {made} into {data / 'judge.db'}" in done.stdout, done.stdout
        assert (data / "judge.db").stat().st_uid == pwd.getpwnam(user).pw_uid
    finally:
        shutil.rmtree(shared)


def judges_user(backups: Path, srv: Path) -> tuple[list[str], str, str]:
    """How to run a command as a user that may not write in ``srv`` (nobody, when the tester is root: ``srv`` is
    root's), and that user's name and group; ``backups`` made that user's."""
    if os.geteuid() != 0:
        srv.chmod(0o555)
        return [], pwd.getpwuid(os.geteuid()).pw_name, grp.getgrgid(os.getegid()).gr_name
    nobody = pwd.getpwnam("nobody")
    for path in (backups, *backups.rglob("*")):
        os.chown(path, nobody.pw_uid, nobody.pw_gid)
    group = grp.getgrgid(nobody.pw_gid).gr_name
    return ["setpriv", "--reuid", "nobody", "--regid", group, "--clear-groups"], "nobody", group


def test_after_a_restore_the_players_of_a_game_it_took_back_are_told_and_the_phase_again_replaces_its_results(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Spring was processed after the backup was made; the restore takes g1 back to spring.  Its players and its
    game master are told that the judge was restored to the backup's time and that spring is played again, and
    spring's second results say that they replace the first, as after a ROLLBACK (they came a second time, the
    same, with no word of the restore).  On PostgreSQL the restore is told the database it replaces
    (``--replacing``), which it compares with."""
    judge = two_player_game(Judge(tmp_path / "data"))
    judge.send(ALICE, "SIGNON F@g1 alice-pw\n2 : A PAR - BUR")
    judge.deliver()  # her answer sent before the backup
    options = ["--data-dir", str(judge.settings.data_dir)]
    options += ["--database", judge.settings.database] if judge.settings.database else []
    assert main(["backup", str(tmp_path / "backups"), *options]) == 0
    made = next((tmp_path / "backups").iterdir())
    taken = datetime.strptime(made.name, "judge-%Y%m%d-%H%M%S")
    judge.send(BOB, "SIGNON G@g1 bob-pw\n2 : A MUN - RUH")  # spring complete: processed
    first = [mail for mail in judge.new_mail() if mail.subject == "g1 S1901M results"]
    assert {mail.to for mail in first} == {ALICE, BOB}
    judge.db.engine.dispose()
    url = judge.settings.database_url if judge.settings.database is None else str(fresh_database_url())
    replacing = [] if judge.settings.database is None else ["--replacing", judge.settings.database]
    capsys.readouterr()
    assert main(["restore", str(made), *replacing, "--data-dir", str(judge.settings.data_dir), "--database", url]) == 0
    out = capsys.readouterr().out
    assert "the players of 1 game taken back by the restore are told which phase is played again: g1 (S1901M)" in out
    restored = Judge(tmp_path / "data", now=judge.now, database=url)
    restored.new_mail()  # what went before
    deliver_pending(restored.db, restored.settings, transport_for(restored.settings), restored.now)
    told = restored.new_mail()
    assert {mail.to for mail in told} == {ALICE, BOB, "gm@example.org"}
    back = f"{taken:%Y-%m-%d %H:%M} UTC"
    assert {mail.subject for mail in told} == {f"g1: the judge was restored to {back}"}
    assert f"the judge was restored from its backup of {back}, made before S1901M was processed" in told[0].body
    assert "S1901M is played again" in told[0].body
    restored.send(BOB, "SIGNON G@g1 bob-pw\n2 : A MUN - RUH")  # sent after the backup: lost, and sent again
    again = [mail for mail in restored.new_mail() if mail.subject == "g1 S1901M results again, after a rollback"]
    assert {mail.to for mail in again} == {ALICE, BOB}
    assert (f"These results replace the earlier results of S1901M, sent {judge.now:%Y-%m-%d %H:%M} UTC: the judge "
            f"was restored from its backup of {back}") in again[0].body
