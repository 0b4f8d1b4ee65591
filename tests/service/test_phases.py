"""When a phase ends, and what its results say of every unit (issue 23, items 3, 4, 6, 7, 8, 9, 17).

A phase waits for the powers that have something to do, and for nothing else: not for a power
whose only dislodged units have nowhere to go, not for a dummy, not through the grace period for
a WAIT; and not for the unrelated mail that happened to come next.  A Tin Cup game keeps waiting
where ending early would tell what rule 6.3 hides.  Under LOYAL_UNITS every unit is in the
results with the order it issued, and a power whose offer sheet was rejected has not submitted.
Every test goes through the game service as mail, and the clock as ``judge tick`` runs it.
"""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import select

from judge.service.app import run_deadlines
from judge.service.sender import deliver_pending, transport_for
from judge.store.models import Game
from tests.service.harness import Judge, Sent
from tests.service.test_game_service import teleport

GM = "gm@example.org"
ALICE, BOB, CAROL = "alice@example.org", "bob@example.org", "carol@example.org"
FRANCE, GERMANY, ENGLAND = "SIGNON F@g1 alice-pw\n", "SIGNON G@g1 bob-pw\n", "SIGNON E@g1 carol-pw\n"
MASTER = "SIGNON MASTER@g1 gm-secret\n"


def start(tmp_path: Path, options: str = "") -> Judge:
    """Game g1 with ``options``, France (alice), Germany (bob) and England (carol) played, the
    others dummies; started 2026-01-05 12:00, the mail so far read."""
    judge = Judge(tmp_path)
    judge.send(GM, f"CREATE g1 gm-secret standard {options}".strip())
    judge.send(ALICE, "JOIN g1 alice-pw FRANCE")
    judge.send(BOB, "JOIN g1 bob-pw GERMANY")
    judge.send(CAROL, "JOIN g1 carol-pw ENGLAND")
    judge.send(GM, MASTER + "START")
    judge.new_mail()
    return judge


def tick(judge: Judge) -> list[str]:
    """What ``judge tick`` does for the deadlines now, its mail delivered."""
    lines = run_deadlines(judge.db, judge.settings, judge.now)
    deliver_pending(judge.db, judge.settings, transport_for(judge.settings), judge.now)
    return lines


def phase(judge: Judge) -> str | None:
    with judge.db.transaction() as session:
        return session.scalars(select(Game.phase).where(Game.name == "g1")).one()


def to(mails: list[Sent], address: str, subject: str) -> str:
    [mail] = [m for m in mails if m.to == address and m.subject == subject]
    return mail.body


# -- 23.3: Loyal Units, every unit in the results -----------------------------------------------------


def test_23_3_loyal_units_every_unit_is_in_the_results_and_the_chart_with_the_order_it_issued(
        tmp_path: Path) -> None:
    judge = start(tmp_path, "LOYAL_UNITS")
    judge.send(ALICE, FRANCE + "A PAR - BUR")  # France orders one unit of three; Germany sends nothing
    judge.send(CAROL, ENGLAND + "F LON - NTH\nF EDI - NWG\nA LVP - YOR")
    judge.later(48)
    assert judge.process("g1") == "g1 S1901M processed; next F1901M"
    mails = judge.new_mail()
    chart = to(mails, GM, "g1 S1901M chart")
    for body in (to(mails, CAROL, "g1 S1901M results"), chart):
        for unit in ("France: A MAR H", "France: F BRE H", "Germany: A BER H", "Germany: A MUN H",
                     "Germany: F KIE H"):
            assert unit in body, unit
        assert "- Germany sent no orders: each of its units held" in body
        assert "- France sent no order for A MAR, F BRE: they held" in body
        assert "England sent no" not in body


def test_23_3_loyal_units_movement_results_invent_no_unused_builds(tmp_path: Path) -> None:
    judge = start(tmp_path, "LOYAL_UNITS")
    teleport(judge, {"phase": "S1902M",  # France owns a center more than it has units: no home was free
                     "units": {"FRANCE": ["A PAR", "F BRE", "A MAR"], "GERMANY": ["A MUN"], "ENGLAND": ["F LON"]},
                     "centers": {"FRANCE": ["PAR", "BRE", "MAR", "SPA"], "GERMANY": ["MUN"], "ENGLAND": ["LON"]}})
    judge.send(ALICE, FRANCE + "A PAR H\nF BRE H\nA MAR H")
    judge.send(BOB, GERMANY + "A MUN H")
    judge.send(CAROL, ENGLAND + "F LON H")
    results = to(judge.new_mail(), ALICE, "g1 S1902M results")
    assert "build" not in results  # a movement phase, where nobody builds


# -- 23.4: Loyal Units, a rejected sheet is not a submission --------------------------------------------


def test_23_4_loyal_units_orders_taken_with_a_rejected_sheet_leave_the_power_waiting(tmp_path: Path) -> None:
    judge = start(tmp_path, "LOYAL_UNITS")
    judge.send(BOB, GERMANY + "A MUN - RUH")
    judge.send(CAROL, ENGLAND + "F LON - NTH")
    judge.send(ALICE, FRANCE + "A PAR - BUR\n3 : A MUN - BUR\n2 : A VIE - GAL")  # Germany's unit is loyal
    reply = judge.last_to(ALICE).body
    assert "> A PAR - BUR\n  OK: A PAR - BUR" in reply
    assert ("your offer sheet was rejected, though your orders were taken: the phase waits for you as for a "
            "power that has not submitted") in reply
    assert phase(judge) == "S1901M"
    judge.send(GM, "LIST g1")
    assert "France: played, waiting" in judge.last_to(GM).body
    judge.send(ALICE, FRANCE + "STATUS")
    status = judge.last_to(ALICE).body
    assert "your orders:\n    A PAR - BUR" in status and "your last offer sheet was rejected" in status
    judge.later(24)
    tick(judge)  # the reminder: the phase waits for its sheet, not for its orders
    reminder = to(judge.new_mail(), ALICE, "g1 S1901M reminder")
    assert "the last offer sheet of France was rejected" in reminder and "Your orders stand" in reminder
    judge.send(ALICE, FRANCE + "2 : A VIE - GAL")  # the offers again, without the error: now it goes
    results = to(judge.new_mail(), ALICE, "g1 S1901M results")
    assert "Austria: A VIE - GAL" in results and "France: A PAR - BUR" in results


def test_23_4_loyal_units_orders_alone_after_a_rejected_sheet_make_no_offers(tmp_path: Path) -> None:
    judge = start(tmp_path, "LOYAL_UNITS")
    judge.send(BOB, GERMANY + "A MUN - RUH")
    judge.send(CAROL, ENGLAND + "F LON - NTH")
    judge.send(ALICE, FRANCE + "A PAR - BUR\n2 : A VIE - GALL")
    assert phase(judge) == "S1901M"
    judge.send(ALICE, FRANCE + "A PAR - PIC")
    assert phase(judge) == "F1901M"


# -- 23.17: Loyal Units mails speak of orders -----------------------------------------------------------------


def test_23_17_loyal_units_start_mail_says_players_order_their_units_and_bribe_only_dummies(tmp_path: Path) -> None:
    judge = Judge(tmp_path)
    judge.send(GM, "CREATE g1 gm-secret standard LOYAL_UNITS")
    judge.send(ALICE, "JOIN g1 alice-pw FRANCE")
    judge.send(GM, MASTER + "START")
    for address in (ALICE, GM):
        start_mail = " ".join(to(judge.all_mail(), address, "g1 starts").split())
        assert "players order their own units" in start_mail
        assert "their offers may bribe only the units of the dummy powers" in start_mail


def test_23_17_loyal_units_reminders_and_status_speak_of_orders(tmp_path: Path) -> None:
    judge = start(tmp_path, "LOYAL_UNITS")
    judge.send(ALICE, FRANCE + "A PAR - BUR\n2 : A VIE - GAL\nSTATUS")
    status = judge.last_to(ALICE).body
    assert "your orders:\n    A PAR - BUR" in status
    assert "your offer sheet (bribes to the dummies' units):\n    2 : A VIE - GAL" in status
    judge.later(24)
    tick(judge)
    reminder = to(judge.new_mail(), BOB, "g1 S1901M reminder")
    assert "Without orders your units hold" in reminder and "offer sheet" not in reminder
