"""What one hostile mail can cost the judge (issue 22): every limit is answered, and a mail's
work does not grow with what an attacker piles up (phases, games, recipients).

Anyone may create a game, so every game master may be the attacker.  Each test is named after
the finding it closes; the speeds themselves are measured in bench/abuse_bench.py, not here.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from alembic import command
from sqlalchemy import event, func, select, text

from judge.service.outgoing.outbox import message_of
from judge.service.outgoing.sender import _WITH_FILES
from judge.store.database import Database, alembic_config
from judge.store.models import Blob, Game, Outbox, OutboxFile, PhaseRow
from tests.support.auction import auction_judge, start_auction
from tests.support.harness import Judge, two_player_game
from tests.support.people import ALICE, BOB, GM

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
# (the limits on phase changes play the test kind's auction g1, `tests.support.auction`)


def test_process_500_times_in_one_mail_processes_one_phase(tmp_path: Path) -> None:
    judge = start_auction(auction_judge(tmp_path))
    before = outbox_rows(judge)
    judge.send(GM, master("g1", "PROCESS\n" * 499))
    assert processed(judge) == ["L1"]
    assert outbox_rows(judge) - before == 4  # the results to both players and the master, the reply
    assert judge.outcomes_of("PROCESS") == [("ok", None)] + [("error", "ONE_PER_MAIL")] * 498


def test_one_mail_processes_one_phase_whatever_the_game(tmp_path: Path) -> None:
    # Each processing draws its maps: a master of ten games would make one mail cost ten.
    judge = start_auction(auction_judge(tmp_path))
    judge.send(GM, "CREATE g2 gm-secret auction")
    judge.send(ALICE, "JOIN g2 alice-pw Alice")
    judge.send(BOB, "JOIN g2 bob-pw Bob")
    judge.send(GM, master("g2", "START"))
    judge.send(GM, master("g1", "PROCESS") + "\n" + master("g2", "PROCESS\nROLLBACK"))
    assert judge.outcomes_of("PROCESS") == [("ok", None), ("error", "ONE_PER_MAIL")]  # g1's, then g2's
    assert judge.outcome_of("ROLLBACK") == ("error", "NO_EARLIER_PHASE")  # a rollback is no processing
    assert processed(judge) == ["L1"]


def test_rollback_and_rollforward_in_a_loop_change_the_phase_once(tmp_path: Path) -> None:
    judge = start_auction(auction_judge(tmp_path))
    judge.send(GM, master("g1", "PROCESS"))
    before = outbox_rows(judge)
    judge.send(GM, master("g1", "ROLLBACK\nROLLFORWARD\n" * 249))
    assert judge.outcomes_of("ROLLBACK") == [("ok", None)] + [("error", "ONE_PER_MAIL")] * 248
    assert judge.outcomes_of("ROLLFORWARD") == [("error", "ONE_PER_MAIL")] * 249
    assert processed(judge) == []
    assert outbox_rows(judge) - before == 3  # the reply, and the rollback told to both players


def test_phase_changes_of_a_game_are_limited_per_hour(tmp_path: Path) -> None:
    judge = start_auction(auction_judge(tmp_path, max_phase_changes_per_hour=3))
    for word in ("PROCESS", "ROLLBACK", "ROLLFORWARD"):
        judge.send(GM, master("g1", word))
        assert judge.outcome_of(word) == ("ok", None), word
    judge.later(0.5)
    judge.send(GM, master("g1", "ROLLBACK"))
    assert judge.outcome_of("ROLLBACK") == ("error", "TOO_MANY_PHASE_CHANGES")
    assert "try again after 2026-01-05 13:00 UTC" in judge.last_to(GM).body  # an hour after the first
    assert processed(judge) == ["L1"]
    judge.later(0.5)  # the first of the three was an hour ago
    judge.send(GM, master("g1", "ROLLBACK"))
    assert judge.outcome_of("ROLLBACK") == ("ok", None) and processed(judge) == []


def test_a_process_after_other_mails_fits_in_the_mails_one_mail_may_cause(tmp_path: Path) -> None:
    judge = start_auction(auction_judge(tmp_path, max_mails_per_mail=2))
    judge.send(GM, master("g1", "BROADCAST\nhello\nENDPRESS\nPROCESS"))  # the broadcast: two mails
    assert judge.outcome_of("PROCESS") == ("error", "OVER_BUDGET")
    assert processed(judge) == []
    # A mail's first processing is never refused: however many its results, a game can be processed.
    judge.send(GM, master("g1", "PROCESS"))
    assert judge.outcome_of("PROCESS") == ("ok", None) and processed(judge) == ["L1"]


def test_a_phases_maps_are_stored_once_for_all_who_receive_them(tmp_path: Path) -> None:
    judge = Judge(tmp_path, maps=True, maps_default="all")  # every picture to everyone (SET MAPS ALL)
    seven_player_game(judge)
    judge.send("watcher@example.org", "OBSERVE g7")
    judge.send(GM, master("g7", "PROCESS"))
    with judge.db.transaction() as session:
        files = session.execute(select(OutboxFile.sha256).join(Outbox).where(Outbox.kind.in_(("results", "chart"))))
        referenced = [sha for (sha,) in files]
        blobs = {blob.sha256: len(blob.content) for blob in session.scalars(select(Blob))}
    assert len(referenced) == 3 * 9  # two PNG maps and an SVG to 7 players, the observer, the game master
    assert len(set(referenced)) == 3 and set(referenced) <= set(blobs)  # stored once: the phase's three maps
    # and the start mail's map of the board, once for all the players (issue 23.25):
    assert len(blobs) == 4
    results = [m for m in judge.new_mail() if m.subject == "g7 S1901M results"]
    assert len(results) == 8
    sizes = sorted(blobs[sha] for sha in set(referenced))
    for mail in results:  # and every mail is built with them
        assert sorted(len(data) for _, data in mail.attachments.values()) == sizes


def test_the_migration_stores_each_attachment_once(tmp_path: Path) -> None:
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


# -- 22.6: one mail, minutes of work --------------------------------------------------------------


def test_one_history_summary_map_and_preview_per_mail(tmp_path: Path) -> None:
    judge = two_player_game(Judge(tmp_path))
    judge.send(GM, master("g1", "PROCESS"))
    judge.send(GM, master("g1", "HISTORY g1\nSUMMARY g1\nMAP\nPREVIEW\n" * 3))
    reply = judge.last_to(GM)
    for word in ("HISTORY", "SUMMARY", "MAP", "PREVIEW"):
        line = f"{word} g1" if word in ("HISTORY", "SUMMARY") else word
        assert judge.outcomes_of(line)[1:] == [("error", "ONE_PER_MAIL")] * 2, word
    assert sorted(reply.attachments) == ["g1-F1901M-preview.txt", "g1-F1901M.png"]


def test_history_sends_at_most_50_phases_and_how_to_ask_for_the_rest(tmp_path: Path) -> None:
    judge = two_player_game(Judge(tmp_path))
    for _ in range(56):
        judge.process("g1", force=True)
    names = processed(judge)
    assert len(names) == 56
    judge.send(ALICE, "HISTORY g1")
    reply = judge.last_to(ALICE)
    ask = f"HISTORY g1 {names[50]}-{names[55]}"
    assert "OK: attached as g1-history.txt (" in reply.body
    assert f"at most 50 phases are sent at once: for the 6 after them, {ask}" in reply.body
    history = reply.attachments["g1-history.txt"][1].decode()
    assert history.count("Game g1, results of") == 50 and f"results of {names[49]}." in history
    judge.send(ALICE, ask)
    rest = judge.last_to(ALICE)
    assert "attached as g1-history.txt" in rest.body and "at most 50" not in rest.body
    assert rest.attachments["g1-history.txt"][1].decode().count("Game g1, results of") == 6


def test_a_reply_stays_within_its_size_limit(tmp_path: Path) -> None:
    judge = two_player_game(Judge(tmp_path))
    judge.send(ALICE, "HELP")
    limit = len(judge.last_to(ALICE).body.encode())  # room for HELP as the reply writes it, and its sign-off
    judge.settings = replace(judge.settings, max_reply_bytes=limit)
    judge.send(ALICE, "HELP\nLIST g1")
    body = judge.last_to(ALICE).body
    assert body.count("commands one per line") == 1  # the index
    assert (f"> LIST g1\n  ERROR: not answered: this reply has reached the judge's limit of {limit:,} bytes; "
            "ask again in another mail") in body
    assert len(body.encode()) < limit + 300  # its answers within the limit; the sign-off and a note beside them
    judge.send(ALICE, "SIGNON F@g1 alice-pw\nMAP")  # a map is bigger than that
    reply = judge.last_to(ALICE)
    assert "would take this reply over the judge's limit" in reply.body and not reply.attachments


# -- 22.13: games without limit, and every mail paying for all of them ----------------------------


def add_games(judge: Judge, count: int, **columns: Any) -> None:
    """``count`` forming games, created a month ago (no limit counts them), as the store has them."""
    with judge.db.transaction() as session:
        session.add_all(Game(name=f"old{n:04d}", variant="standard", options=[], state="forming",
                             gm_address=f"gm{n}@example.org", gm_password="-", seed=n, settings={},
                             created_at=judge.now - timedelta(days=30), **columns) for n in range(count))


def statements(judge: Judge, sender: str, body: str) -> int:
    """The SQL statements that applying (and sending the answers of) one mail runs."""
    count = 0

    def counted(*_: Any) -> None:
        nonlocal count
        count += 1

    event.listen(judge.db.engine, "before_cursor_execute", counted)
    try:
        judge.send(sender, body)
    finally:
        event.remove(judge.db.engine, "before_cursor_execute", counted)
    return count


def test_a_mail_costs_as_many_queries_among_1000_games_as_among_10(tmp_path: Path) -> None:
    counts = []
    for games in (10, 1000):
        judge = Judge(tmp_path / str(games), web=True)
        add_games(judge, games)
        judge.send(GM, "CREATE fresh gm-secret\nLIST fresh")
        judge.send(ALICE, "JOIN fresh alice-pw")  # the index is written with the new game
        assert "fresh" in (tmp_path / str(games) / "web" / "index.html").read_text("utf-8")
        index = (tmp_path / str(games) / "web" / "index.html").stat().st_mtime_ns
        unchanged = statements(judge, "carol@example.org", "LIST fresh")  # the game's line is the same
        assert (tmp_path / str(games) / "web" / "index.html").stat().st_mtime_ns == index
        joined = statements(judge, "dave@example.org", "JOIN fresh dave-pw")  # its line changes: 2 joined
        assert "2 joined so far" in (tmp_path / str(games) / "web" / "index.html").read_text("utf-8")
        counts.append((unchanged, joined))
    assert counts[0] == counts[1]


def test_the_21st_game_created_in_an_hour_from_21_addresses_is_refused(tmp_path: Path) -> None:
    judge = Judge(tmp_path)
    for n in range(21):
        judge.send(f"host{n}@example.org", f"CREATE game{n} pw")
    assert "game 'game19' created" in judge.last_to("host19@example.org").body
    assert judge.outcome_of("CREATE game20 ****") == ("error", "TOO_MANY_CREATES")
    assert "2026-01-05 13:00 UTC" in judge.last_to("host20@example.org").body  # when it may try again
    judge.later(1)
    judge.send("host20@example.org", "CREATE game20 pw")
    assert "game 'game20' created" in judge.last_to("host20@example.org").body


def test_list_names_50_games_at_a_time(tmp_path: Path) -> None:
    judge = Judge(tmp_path)
    add_games(judge, 60)
    with judge.db.transaction() as session:
        hidden = session.scalar(select(Game).where(Game.name == "old0010"))
        assert hidden is not None
        hidden.settings = {"unlisted": True}
    judge.send(ALICE, "LIST")
    body = judge.last_to(ALICE).body
    assert body.count(": forming") == 50 and "old0010" not in body and "old0050: forming" in body
    assert "(and more: LIST FROM old0051 for the next 50)" in body
    judge.send(ALICE, "LIST FROM old0051")
    body = judge.last_to(ALICE).body
    assert body.count(": forming") == 9 and "old0051: forming" in body and "and more" not in body
