"""What one hostile mail can cost the judge (issue 22): every limit is answered, and a mail's
work does not grow with what an attacker piles up (phases, games, recipients).

Anyone may create a game, so every game master may be the attacker.  Each test is named after
the finding it closes; the speeds themselves are measured in bench/abuse_bench.py, not here.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from alembic import command
from sqlalchemy import func, select, text

from judge.service.outbox import message_of
from judge.service.sender import _WITH_FILES
from judge.store.database import Database, alembic_config
from judge.store.models import Blob, Outbox, OutboxFile, PhaseRow
from tests.service.harness import Judge

GM = "gm@example.org"
ALICE = "alice@example.org"
POWERS = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")


def seven_player_game(judge: Judge, name: str = "g7") -> None:
    """Game ``name``, started with all seven powers played (power@example.org, pw-power)."""
    judge.send(GM, f"CREATE {name} gm-secret")
    for power in POWERS:
        judge.send(f"{power.lower()}@example.org", f"JOIN {name} pw-{power.lower()} {power}")
    judge.send(GM, f"SIGNON MASTER@{name} gm-secret\nSTART")
    judge.new_mail()


def outbox_rows(judge: Judge) -> int:
    with judge.db.transaction() as session:
        return int(session.scalar(select(func.count(Outbox.id))) or 0)


def processed(judge: Judge) -> list[str]:
    with judge.db.transaction() as session:
        return list(session.scalars(select(PhaseRow.name).where(PhaseRow.status == "processed").order_by(PhaseRow.id)))


def master(game: str, lines: str) -> str:
    return f"SIGNON MASTER@{game} gm-secret\n{lines}"


# -- 22.2: one mail, thousands of mails and gigabytes ---------------------------------------------


def test_22_2_a_phases_maps_are_stored_once_for_all_who_receive_them(tmp_path: Path) -> None:
    judge = Judge(tmp_path, maps=True)
    seven_player_game(judge)
    judge.send("watcher@example.org", "OBSERVE g7")
    judge.send(GM, master("g7", "PROCESS"))
    with judge.db.transaction() as session:
        files = session.execute(select(OutboxFile.sha256).join(Outbox).where(Outbox.kind.in_(("results", "chart"))))
        referenced = [sha for (sha,) in files]
        blobs = {sha: size for sha, size in session.execute(select(Blob.sha256, func.length(Blob.data)))}
    assert len(referenced) == 3 * 9  # two PNG maps and an SVG to 7 players, the observer, the game master
    assert set(referenced) == set(blobs) and len(blobs) == 3  # stored once: the phase's three maps
    results = [m for m in judge.new_mail() if m.subject == "g7 S1901M results"]
    assert len(results) == 8
    for mail in results:  # and every mail is built with them
        assert sorted(len(data) for _, data in mail.attachments.values()) == sorted(blobs.values())


def test_22_2_the_migration_stores_each_attachment_once(tmp_path: Path) -> None:
    db = Database(f"sqlite:///{tmp_path / 'old.db'}")
    config = alembic_config(db.url)
    command.upgrade(config, "0007")
    with db.engine.begin() as connection:
        for row in (1, 2):
            connection.execute(text("INSERT INTO outbox (id, recipient, subject, kind, sender, message_id, body, "
                                    "created_at, status, attempts) VALUES (:id, 'p@example.org', 's', 'results', "
                                    "'J <judge@localhost>', :mid, 'body', :at, 'pending', 0)"),
                               {"id": row, "mid": f"<m{row}@localhost>", "at": datetime(2026, 1, 1)})
            for name, data in (("map.png", b"the same map"), ("own.txt", f"row {row}".encode())):
                connection.execute(text("INSERT INTO outbox_files (outbox_id, filename, content_type, data) "
                                        "VALUES (:id, :name, 'application/octet-stream', :data)"),
                                   {"id": row, "name": name, "data": data})
    db.upgrade()
    with db.transaction() as session:
        assert session.scalar(select(func.count()).select_from(Blob)) == 3
        row = session.get(Outbox, 2, options=[_WITH_FILES])
        assert row is not None
    message = message_of(row)
    assert b'filename="map.png"' in message and b"cm93IDI=" in message  # "row 2", base64
    command.downgrade(config, "base")
