"""Players' records across games and the entry gates on them (`judge.service.hosting.records`): built by
real games played by mail, kept exactly (a rollback or the game master's extension counts against
nobody), checked at JOIN and TAKEOVER, and kept by a backup and by copy-db."""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import select

from judge.bootstrap import main, open_database
from judge.service.config import Settings
from judge.service.hosting import archive, records
from judge.service.operators import importing
from judge.store.models import Game, PhaseRow, PlayerRecord
from tests.support.harness import Judge, two_player_game
from tests.support.people import ALICE, BOB, CAROL, GM

MASTER = "SIGNON MASTER@g1 gm-secret\n"


def lines(judge: Judge) -> list[tuple[str, str | None, str]]:
    with judge.db.transaction() as session:
        return list(session.execute(select(PlayerRecord.address, PlayerRecord.phase, PlayerRecord.what)
                                    .order_by(PlayerRecord.id)))


def bob_abandons(tmp_path: Path) -> Judge:
    """g1 (S1901M due 48 hours after its start): Alice sends her sheet, Bob nothing; the policy
    abandons a seat at its first missed deadline, with no extension."""
    judge = two_player_game(Judge(tmp_path))
    judge.send(GM, MASTER + "SET SILENCE ON\nSET SILENCE EXTENSIONS 0\nSET SILENCE ABANDON 1")
    judge.send(ALICE, "SIGNON F@g1 alice-pw\n2 : A PAR - BUR")
    judge.later(48)
    judge.tick()
    judge.confirmed(ALICE, BOB, CAROL)  # their JOINs are taken at once, not after a CONFIRM
    return judge


def test_a_phase_gives_each_seat_due_its_line_and_a_silent_seat_its_abandonment(tmp_path: Path) -> None:
    judge = bob_abandons(tmp_path)
    assert lines(judge) == [(ALICE, "S1901M", "on_time"), (BOB, "S1901M", "missed"), (BOB, "S1901M", "abandoned")]
    with judge.db.transaction() as session:
        bob, alice = records.of(session, BOB, judge.now), records.of(session, ALICE, judge.now)
    assert (bob.due, bob.on_time, bob.abandoned, bob.abandoned_lately) == (1, 0, 1, 1)
    assert (alice.due, alice.on_time, alice.share) == (1, 1, 1.0)


def test_entry_gates_refuse_and_admit_by_the_records_real_games_built(tmp_path: Path) -> None:
    judge = bob_abandons(tmp_path)
    judge.send(GM, "CREATE g2 gm-secret")
    judge.send(GM, "SIGNON MASTER@g2 gm-secret\nSET GATE ABANDONED 0\nSET GATE ONTIME 90%")
    assert judge.outcome_of("SET GATE ONTIME 90%") == ("ok", None)
    judge.send(BOB, "JOIN g2 bob-pw2")
    assert judge.outcome_of("JOIN g2 ****") == ("error", "ENTRY_GATE")
    assert "your record shows 1" in judge.answer("JOIN g2 ****").message
    judge.send(ALICE, "JOIN g2 alice-pw2")  # on time in all her phases, nothing abandoned
    assert judge.outcome_of("JOIN g2 ****") == ("ok", None)
    judge.send(CAROL, "JOIN g2 carol-pw")  # no record at all: nothing against her
    assert judge.outcome_of("JOIN g2 ****") == ("ok", None)


def test_the_on_time_gate_counts_the_share_of_phases_on_time(tmp_path: Path) -> None:
    """Bob was due in one phase and missed it: 0% on time, under a gate of 50%; with the gate off he
    is admitted."""
    judge = bob_abandons(tmp_path)
    judge.send(GM, "CREATE g2 gm-secret")
    judge.send(GM, "SIGNON MASTER@g2 gm-secret\nSET GATE ONTIME 50%")
    judge.send(BOB, "JOIN g2 bob-pw2")
    assert judge.outcome_of("JOIN g2 ****") == ("error", "ENTRY_GATE")
    judge.send(GM, "SIGNON MASTER@g2 gm-secret\nSET GATE ONTIME OFF")
    judge.send(BOB, "JOIN g2 bob-pw2")
    assert judge.outcome_of("JOIN g2 ****") == ("ok", None)


def test_a_gate_on_games_finished_admits_a_player_once_a_game_has_ended(tmp_path: Path) -> None:
    """g1 started 2026-01-05 12:00; S1901M is played at its deadline two days later, and the game
    master ends the game then: a phase played, two days long, it counts."""
    judge = two_player_game(Judge(tmp_path))
    judge.confirmed(ALICE)
    judge.send(GM, "CREATE g2 gm-secret")
    judge.send(GM, "SIGNON MASTER@g2 gm-secret\nSET GATE FINISHED 1")
    judge.send(ALICE, "JOIN g2 alice-pw2")
    assert judge.outcome_of("JOIN g2 ****") == ("error", "ENTRY_GATE")
    judge.later(48)
    judge.tick()
    judge.terminate(GM, MASTER)  # g1 ends with Alice and Bob in their seats
    assert [what for _, _, what in lines(judge) if what == "finished"] == ["finished", "finished"]
    judge.send(ALICE, "JOIN g2 alice-pw2")
    assert judge.outcome_of("JOIN g2 ****") == ("ok", None)


def test_H4_a_game_started_and_terminated_at_once_counts_for_nobody(tmp_path: Path) -> None:
    judge = two_player_game(Judge(tmp_path))
    judge.terminate(GM, MASTER)
    assert lines(judge) == []
    with judge.db.transaction() as session:
        assert records.of(session, ALICE, judge.now).finished == 0


def test_H4_a_game_ended_within_a_day_of_its_start_counts_for_nobody(tmp_path: Path) -> None:
    """Both send their orders, S1901M is played at once (every power has acted), and the game master
    ends the game 23 hours after its start: a phase was played, but the game lasted less than a day."""
    judge = two_player_game(Judge(tmp_path))
    judge.send(ALICE, "SIGNON F@g1 alice-pw\n2 : A PAR - BUR")
    judge.send(BOB, "SIGNON G@g1 bob-pw\n1 : A MUN - RUH")
    judge.later(23)
    judge.terminate(GM, MASTER)
    assert [what for _, _, what in lines(judge)] == ["on_time", "on_time"]  # the phase counts; the game does not


def test_H4_a_game_with_no_phase_played_counts_for_nobody_however_long_it_lasted(tmp_path: Path) -> None:
    judge = two_player_game(Judge(tmp_path))
    judge.later(47)  # S1901M is due at 48 hours: still open
    judge.terminate(GM, MASTER)
    assert lines(judge) == []


def test_H4_a_game_a_day_long_whose_last_phase_ends_it_counts(tmp_path: Path) -> None:
    """`records.counts` hour by hour: a game whose only phase is played is counted when that phase's
    closing ends it a day or more after the start; a phase played before the one the game ends in
    counts, the one a TERMINATE ends in does not."""
    judge = two_player_game(Judge(tmp_path))
    with judge.db.transaction() as session:
        game = session.scalars(select(Game)).one()
        row = session.scalars(select(PhaseRow).where(PhaseRow.game_id == game.id)).one()
        assert records.counts(session, game, judge.now + timedelta(hours=24), closed=True)
        assert not records.counts(session, game, judge.now + timedelta(hours=23, minutes=59), closed=True)
        assert not records.counts(session, game, judge.now + timedelta(hours=48), closed=False)
        row.status, row.processed_at = "processed", judge.now + timedelta(hours=48)
        game.phase = "F1901M"
        assert records.counts(session, game, judge.now + timedelta(hours=48), closed=False)


def test_the_gates_hold_at_takeover_too(tmp_path: Path) -> None:
    judge = bob_abandons(tmp_path)  # Germany is open for TAKEOVER
    judge.send(GM, MASTER + "SET GATE ABANDONED 0")
    judge.send(BOB, "TAKEOVER GERMANY@g1 bob-pw2")  # the player who left it, abandoned once
    assert judge.outcome_of("TAKEOVER GERMANY@g1 ****") == ("error", "ENTRY_GATE")
    judge.send(CAROL, "TAKEOVER GERMANY@g1 carol-pw")
    assert judge.outcome_of("TAKEOVER GERMANY@g1 ****") == ("ok", None)


def test_a_rollback_drops_the_lines_of_the_phases_it_goes_back_before(tmp_path: Path) -> None:
    judge = two_player_game(Judge(tmp_path))
    judge.send(ALICE, "SIGNON F@g1 alice-pw\n2 : A PAR - BUR")
    judge.later(48)
    judge.tick()
    assert lines(judge) == [(ALICE, "S1901M", "on_time"), (BOB, "S1901M", "missed")]
    judge.send(GM, MASTER + "ROLLBACK S1901M")
    assert lines(judge) == []
    judge.send(BOB, "SIGNON G@g1 bob-pw\n1 : A MUN - RUH")  # the phase played again: Bob acts this time
    judge.send(GM, MASTER + "PROCESS S1901M")
    assert lines(judge) == [(ALICE, "S1901M", "on_time"), (BOB, "S1901M", "on_time")]


def test_a_substitutes_first_orders_on_time_are_in_the_substitutes_record(tmp_path: Path) -> None:
    """Germany is abandoned at S1901M's deadline (48 hours); Carol takes it over an hour into
    F1901M and sends her orders at once: at F1901M's deadline (96 hours) her record holds that
    phase, on time.  Bob, who no longer plays, gets no line of it."""
    judge = bob_abandons(tmp_path)
    judge.later(1)
    judge.send(CAROL, "TAKEOVER GERMANY@g1 carol-pw")
    judge.send(CAROL, "SIGNON G@g1 carol-pw\n1 : A MUN - RUH")
    judge.later(47)
    judge.tick()
    assert [line for line in lines(judge) if line[1] == "F1901M" and line[0] != ALICE] == [
        (CAROL, "F1901M", "on_time")]
    with judge.db.transaction() as session:
        carol = records.of(session, CAROL, judge.now)
    assert (carol.due, carol.on_time) == (1, 1)


def test_a_substitute_who_has_not_acted_in_the_phase_he_came_in_misses_nothing(tmp_path: Path) -> None:
    """Carol takes Germany over an hour before F1901M's deadline and sends nothing: she may have come
    too late to act, so that phase gives her no line."""
    judge = bob_abandons(tmp_path)
    judge.later(47)
    judge.send(CAROL, "TAKEOVER GERMANY@g1 carol-pw")
    judge.later(1)
    judge.tick()
    assert [line for line in lines(judge) if line[0] == CAROL] == []


def test_a_rollback_keeps_an_abandonment_that_stands_and_the_seat_stays_open(tmp_path: Path) -> None:
    """Bob is declared abandoned at S1901M's deadline, and the game master rolls the game back to
    S1901M.  A ROLLBACK never seats again a player who left, so Germany stays vacant and open for
    TAKEOVER and Bob's password no longer signs on; his record keeps the deadline he missed and the
    abandonment, and the gate still refuses him.  Played again, S1901M counts Alice once and gives
    Bob, who no longer plays, no second line."""
    judge = bob_abandons(tmp_path)
    judge.send(GM, MASTER + "ROLLBACK S1901M")
    assert lines(judge) == [(BOB, "S1901M", "missed"), (BOB, "S1901M", "abandoned")]
    judge.send(GM, MASTER + "STATUS")
    assert "Germany: vacant, open for TAKEOVER" in judge.last_to(GM).body
    judge.send(BOB, "SIGNON G@g1 bob-pw\n1 : A MUN - RUH")
    assert "no longer yours" in judge.last_to(BOB).body
    judge.send(GM, MASTER + "PROCESS S1901M")
    assert lines(judge) == [(BOB, "S1901M", "missed"), (BOB, "S1901M", "abandoned"), (ALICE, "S1901M", "on_time")]
    judge.send(GM, "CREATE g2 gm-secret")
    judge.send(GM, "SIGNON MASTER@g2 gm-secret\nSET GATE ABANDONED 0")
    judge.send(BOB, "JOIN g2 bob-pw2")
    assert judge.outcome_of("JOIN g2 ****") == ("error", "ENTRY_GATE")


def test_a_rollback_keeps_the_lines_of_a_player_who_has_left_the_seat_since(tmp_path: Path) -> None:
    """Both play S1901M on time; in F1901M Bob resigns; the game master rolls back to S1901M.  Bob
    will not play S1901M again, so his line stays; Alice's is dropped and comes back once S1901M is
    played again: the ROLLBACK neither adds nor wipes."""
    judge = two_player_game(Judge(tmp_path))
    judge.send(ALICE, "SIGNON F@g1 alice-pw\n2 : A PAR - BUR")
    judge.send(BOB, "SIGNON G@g1 bob-pw\n1 : A MUN - RUH")  # every power has acted: S1901M is played
    judge.send(BOB, "SIGNON G@g1 bob-pw\nRESIGN")
    judge.send(GM, MASTER + "ROLLBACK S1901M")
    assert lines(judge) == [(BOB, "S1901M", "on_time")]
    judge.send(GM, MASTER + "PROCESS S1901M")
    assert lines(judge) == [(BOB, "S1901M", "on_time"), (ALICE, "S1901M", "on_time")]


def test_a_line_kept_of_a_phase_a_rollback_dropped_goes_with_the_game_to_another_judge(tmp_path: Path) -> None:
    """Bob plays S1901M and F1901M, resigns in S1902M; the game master rolls back to S1901M, whose
    later phases are dropped, and ends the game there.  Bob's F1901M line stays on his record
    (nobody plays F1901M again for him), of a phase the game no longer has: the game's record takes
    it to another judge all the same."""
    judge = two_player_game(Judge(tmp_path / "a"))
    for phase in ("S1901M", "F1901M"):
        judge.send(ALICE, f"SIGNON F@g1 alice-pw\nPHASE {phase}\n1 : A PAR H")
        judge.send(BOB, f"SIGNON G@g1 bob-pw\nPHASE {phase}\n1 : A MUN H")
    judge.send(BOB, "SIGNON G@g1 bob-pw\nRESIGN")
    judge.send(GM, MASTER + "ROLLBACK S1901M")
    assert lines(judge) == [(BOB, "S1901M", "on_time"), (BOB, "F1901M", "on_time")]
    judge.terminate(GM, MASTER)
    with judge.db.transaction() as session:
        record = json.loads(json.dumps(archive.export(session, judge.settings, "g1")))
    other = Judge(tmp_path / "b", now=judge.now)
    importing.import_record(other.db, other.settings, record, judge.now)
    assert lines(other) == [(BOB, "S1901M", "on_time"), (BOB, "F1901M", "on_time")]


def test_a_game_masters_extension_counts_against_nobody(tmp_path: Path) -> None:
    """S1901M is due 48 hours after the start (2026-01-07 12:00); the game master moves it a day
    on; Bob's sheet 30 hours after the first deadline, 6 hours before the second, is on time."""
    judge = two_player_game(Judge(tmp_path))
    judge.send(GM, MASTER + "SET DEADLINE 2026-01-08 18:00")
    judge.send(ALICE, "SIGNON F@g1 alice-pw\n2 : A PAR - BUR")
    judge.later(48 + 30)
    judge.send(BOB, "SIGNON G@g1 bob-pw\n1 : A MUN - RUH")
    assert lines(judge) == [(ALICE, "S1901M", "on_time"), (BOB, "S1901M", "on_time")]


def test_a_phase_the_game_master_closes_early_misses_nobody(tmp_path: Path) -> None:
    judge = two_player_game(Judge(tmp_path))
    judge.send(ALICE, "SIGNON F@g1 alice-pw\n2 : A PAR - BUR")
    judge.send(GM, MASTER + "PROCESS S1901M")
    assert lines(judge) == [(ALICE, "S1901M", "on_time")]


def test_a_record_says_a_beginner_is_a_beginner_and_counts_plainly() -> None:
    """A player with 3 phases due, 1 on time, is a beginner, not "unreliable"; 19 of 20 on time is
    95%; a phase is *due*, whether or not its player played it."""
    assert records.Record().words() == "new to this judge: no phase played yet"
    assert records.Record(due=3, on_time=1).words() == "a beginner on this judge: 3 phases due so far, 1 on time"
    assert records.Record(due=2).words() == "a beginner on this judge: 2 phases due so far, 0 on time"
    assert records.Record(due=1, on_time=1, finished=1).words() == (
        "a beginner on this judge: 1 phase due so far, 1 on time; played 1 game to the end")
    assert records.Record(due=20, on_time=19, finished=2, abandoned=1).words() == (
        "very reliable: 95% of 20 phases on time; left 1 seat to be declared abandoned; played 2 games to the end")
    assert records.Record(due=20, on_time=10, late=4).numbers()[0] == (
        "phases due: 20, on time: 10 (50%), late: 4, missed: 6")


def test_get_record_answers_the_address_its_own_record(tmp_path: Path) -> None:
    judge = bob_abandons(tmp_path)
    judge.send(BOB, "GET RECORD")
    body = judge.last_to(BOB).body
    assert "a beginner on this judge: 1 phase due so far, 0 on time; left 1 seat to be declared abandoned" in body
    assert "phases due: 1, on time: 0 (0%), late: 0, missed: 1" in body


def test_an_abandonment_over_a_year_old_no_longer_shuts_the_gate(tmp_path: Path) -> None:
    judge = bob_abandons(tmp_path)
    judge.now += timedelta(days=366)
    judge.send(GM, "CREATE g2 gm-secret")
    judge.send(GM, "SIGNON MASTER@g2 gm-secret\nSET GATE ABANDONED 0")
    judge.send(BOB, "JOIN g2 bob-pw2")
    assert judge.outcome_of("JOIN g2 ****") == ("ok", None)


@pytest.mark.database
def test_the_records_survive_a_backup_and_restore_and_a_copy_of_the_database(
        tmp_path: Path) -> None:
    judge = bob_abandons(tmp_path / "judge")
    before = lines(judge)
    options = ["--data-dir", str(judge.settings.data_dir)]
    options += ["--database", judge.settings.database] if judge.settings.database else []
    assert main(["backup", str(tmp_path / "backups"), *options]) == 0
    made = next((tmp_path / "backups").iterdir())
    copy = tmp_path / "copy.db"
    assert main(["copy-db", *options, "--to", str(copy)]) == 0
    restored = Settings(data_dir=tmp_path / "restored")  # SQLite, whatever the judge was kept in
    assert main(["restore", str(made), "--data-dir", str(restored.data_dir)]) == 0
    for settings in (restored, Settings(data_dir=tmp_path / "copied", database=f"sqlite:///{copy}")):
        db = open_database(settings)
        with db.transaction() as session:
            kept = list(session.execute(select(PlayerRecord.address, PlayerRecord.phase, PlayerRecord.what)
                                        .order_by(PlayerRecord.id)))
            assert kept == before
            assert records.of(session, BOB, datetime(2026, 1, 8)).abandoned == 1
