"""When a Payola phase ends, and what its results say of every unit (issue 23, items 3, 4, 7, 8, 9, 17).

A phase waits for the powers that have something to do, and for nothing else: not for a power
whose only dislodged units have nowhere to go, not for a dummy; and not for the unrelated mail that
happened to come next (a WAIT through the grace period is the host's: tests/service/test_phases.py).
A Tin Cup game keeps waiting where ending early would tell what rule 6.3 hides.  Under LOYAL_UNITS
every unit is in the results with the order it issued, and a power whose offer sheet was rejected
has not submitted.
Every test goes through the game service as mail, and the clock as ``judge tick`` runs it.
"""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import select

from judge.store.models import Game
from tests.games.payola.by_mail import start as start_g1
from tests.games.payola.by_mail import teleport
from tests.support.harness import Judge, Sent
from tests.support.people import GM

ALICE, BOB, CAROL = "alice@example.org", "bob@example.org", "carol@example.org"
FRANCE, GERMANY, ENGLAND = "SIGNON F@g1 alice-pw\n", "SIGNON G@g1 bob-pw\n", "SIGNON E@g1 carol-pw\n"
MASTER = "SIGNON MASTER@g1 gm-secret\n"


def start(tmp_path: Path, options: str = "") -> Judge:
    """Game g1 with ``options``, France (alice), Germany (bob) and England (carol) played, the
    others dummies; started 2026-01-05 12:00, the mail so far read."""
    return start_g1(Judge(tmp_path), options)


def phase(judge: Judge) -> str | None:
    with judge.db.transaction() as session:
        return session.scalars(select(Game.phase).where(Game.name == "g1")).one()


def to(mails: list[Sent], address: str, subject: str) -> str:
    [mail] = [m for m in mails if m.to == address and m.subject == subject]
    return mail.body


# -- 23.3: Loyal Units, every unit in the results -----------------------------------------------------


def test_loyal_units_every_unit_is_in_the_results_and_the_chart_with_the_order_it_issued(
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


def test_loyal_units_movement_results_invent_no_unused_builds(tmp_path: Path) -> None:
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


def test_loyal_units_orders_taken_with_a_rejected_sheet_leave_the_power_waiting(tmp_path: Path) -> None:
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
    judge.tick()  # the reminder: the phase waits for its sheet, not for its orders
    reminder = to(judge.new_mail(), ALICE, "g1 S1901M reminder")
    assert "the last offer sheet of France was rejected" in reminder and "Your orders stand" in reminder
    judge.send(ALICE, FRANCE + "2 : A VIE - GAL")  # the offers again, without the error: now it goes
    results = to(judge.new_mail(), ALICE, "g1 S1901M results")
    assert "Austria: A VIE - GAL" in results and "France: A PAR - BUR" in results


def test_loyal_units_orders_alone_after_a_rejected_sheet_make_no_offers(tmp_path: Path) -> None:
    judge = start(tmp_path, "LOYAL_UNITS")
    judge.send(BOB, GERMANY + "A MUN - RUH")
    judge.send(CAROL, ENGLAND + "F LON - NTH")
    judge.send(ALICE, FRANCE + "A PAR - BUR\n2 : A VIE - GALL")
    assert phase(judge) == "S1901M"
    judge.send(ALICE, FRANCE + "A PAR - PIC")
    assert phase(judge) == "F1901M"


# -- 23.7: a retreat with nowhere to go -------------------------------------------------------------------

# Fall 1901: Germany dislodges France's A PIC, which has nowhere to go: BEL, PAR and BRE are held,
# BUR is where the attack came from, and ENG is sea.
CORNERED = {"phase": "F1901M",
            "units": {"FRANCE": ["A PIC", "A PAR", "F BRE"], "GERMANY": ["A BUR", "A BEL"], "ENGLAND": ["F LON"]},
            "centers": {"FRANCE": ["PAR", "BRE", "MAR"], "GERMANY": ["MUN", "BER", "KIE"],
                        "ENGLAND": ["LON", "EDI", "LVP"]}}
ATTACK = {ALICE: FRANCE + "1 : A PIC H\n1 : A PAR H\n1 : F BRE H",
          BOB: GERMANY + "2 : A BUR - PIC\n2 : A BEL S A BUR - PIC",
          CAROL: ENGLAND + "1 : F LON H"}


def test_a_retreat_phase_whose_only_dislodged_unit_has_nowhere_to_go_ends_at_the_next_tick(
        tmp_path: Path) -> None:
    judge = start(tmp_path)
    teleport(judge, CORNERED)
    for address, sheet in ATTACK.items():
        judge.send(address, sheet)
    assert phase(judge) == "F1901R"
    judge.send(GM, "LIST g1")
    assert "France: played, nothing to order" in judge.last_to(GM).body
    judge.new_mail()
    assert judge.tick()[0].startswith("g1 F1901R processed")  # not at its deadline, two days on
    results = to(judge.new_mail(), ALICE, "g1 F1901R results")
    assert "France A PIC was disbanded: it had nowhere to retreat to" in results


def test_tin_cup_a_retreat_with_nowhere_to_go_waits_for_its_owner_or_its_deadline(tmp_path: Path) -> None:
    judge = start(tmp_path, "BLIND")
    teleport(judge, CORNERED)
    for address, sheet in ATTACK.items():
        judge.send(address, sheet)
    assert phase(judge) == "F1901R"
    judge.new_mail()
    assert judge.tick() == []  # ending now would tell everyone that the unit had nowhere to go
    judge.send(BOB, GERMANY + "STATUS")
    assert phase(judge) == "F1901R"
    judge.later(12)
    judge.tick()  # the reminder, to France alone
    assert [m.to for m in judge.new_mail() if m.subject == "g1 F1901R reminder"] == [ALICE]
    judge.later(12)
    assert judge.tick()[0].startswith("g1 F1901R processed")


# -- 23.8: a phase nobody has anything to do in -------------------------------------------------------------

# Fall 1901: Germany dislodges a dummy's unit (Austria's A TYR); no played power has a unit to retreat.
DUMMY_HIT = {"phase": "F1901M",
             "units": {"FRANCE": ["A PAR"], "GERMANY": ["A MUN", "A BOH"], "AUSTRIA": ["A TYR"],
                       "ENGLAND": ["F LON"]},
             "centers": {"FRANCE": ["PAR"], "GERMANY": ["MUN", "BER"], "AUSTRIA": ["VIE"], "ENGLAND": ["LON"]}}
HIT = {ALICE: FRANCE + "1 : A PAR H",
       BOB: GERMANY + "2 : A MUN - TYR\n2 : A BOH S A MUN - TYR",
       CAROL: ENGLAND + "1 : F LON H"}


def test_a_phase_in_which_only_a_dummy_could_act_is_processed_at_the_next_tick(tmp_path: Path) -> None:
    judge = start(tmp_path)
    teleport(judge, DUMMY_HIT)
    for address, sheet in HIT.items():
        judge.send(address, sheet)
    assert phase(judge) == "F1901R"
    judge.new_mail()
    assert judge.tick()[0].startswith("g1 F1901R processed")
    assert "Austria A TYR was disbanded" in to(judge.new_mail(), ALICE, "g1 F1901R results")


def test_tin_cup_a_phase_nobody_acts_in_waits_for_its_deadline_whatever_mail_comes(tmp_path: Path) -> None:
    judge = start(tmp_path, "BLIND")
    teleport(judge, DUMMY_HIT)
    for address, sheet in HIT.items():
        judge.send(address, sheet)
    assert phase(judge) == "F1901R"
    judge.new_mail()
    assert judge.tick() == []  # ending now would tell every power that no other had a unit to retreat
    judge.send(ALICE, FRANCE + "STATUS")  # nor does an unrelated mail end it
    assert phase(judge) == "F1901R"
    judge.later(25)
    assert judge.tick()[0].startswith("g1 F1901R processed")


def test_a_wait_sent_into_such_a_phase_holds_it_and_the_clock_stops_visiting(tmp_path: Path) -> None:
    judge = start(tmp_path)
    teleport(judge, DUMMY_HIT)
    for address, sheet in HIT.items():
        judge.send(address, sheet)
    judge.send(ALICE, FRANCE + "WAIT")  # before the next tick
    judge.new_mail()
    assert judge.tick() == ["g1 F1901R is not due (deadline 2026-01-06 12:00 UTC)"]
    assert judge.tick() == []  # visited once, not at every tick until its deadline
    judge.later(24)
    assert judge.tick()[0].startswith("g1 F1901R processed")


# -- 23.9: SHOW_VOTES ---------------------------------------------------------------------------------------


def test_show_votes_a_vote_that_leaves_the_count_as_told_mails_nothing(tmp_path: Path) -> None:
    judge = start(tmp_path, "SHOW_VOTES")
    judge.send(ALICE, FRANCE + "VOTE DRAW")
    for address, sheet in ((ALICE, FRANCE + "2 : A PAR - BUR"), (BOB, GERMANY + "2 : A MUN - RUH"),
                           (CAROL, ENGLAND + "1 : F LON - NTH")):
        judge.send(address, sheet)
    assert "1 of the 3 surviving powers now vote for a draw" in to(judge.new_mail(), CAROL, "g1 S1901M results")
    judge.send(ALICE, FRANCE + "VOTE NONE")  # the count goes to 0 and back to 1 with another voter
    judge.send(BOB, GERMANY + "VOTE DRAW")
    judge.send(BOB, GERMANY + "VOTE DRAW")
    mails = judge.new_mail()
    assert {m.to for m in mails} == {ALICE, BOB}  # the voters' replies alone
    judge.later(48)
    judge.process("g1")
    assert "vote for a draw" not in to(judge.new_mail(), CAROL, "g1 F1901M results")


# -- 23.17: Loyal Units mails speak of orders -----------------------------------------------------------------


def test_loyal_units_start_mail_says_players_order_their_units_and_bribe_only_dummies(tmp_path: Path) -> None:
    judge = Judge(tmp_path)
    judge.send(GM, "CREATE g1 gm-secret standard LOYAL_UNITS")
    judge.send(ALICE, "JOIN g1 alice-pw FRANCE")
    judge.send(GM, MASTER + "START")
    for address in (ALICE, GM):
        start_mail = " ".join(to(judge.all_mail(), address, "g1 starts").split())
        assert "players order their own units" in start_mail
        assert "their offers may bribe only the units of the dummy powers" in start_mail


def test_loyal_units_reminders_and_status_speak_of_orders(tmp_path: Path) -> None:
    judge = start(tmp_path, "LOYAL_UNITS")
    judge.send(ALICE, FRANCE + "A PAR - BUR\n2 : A VIE - GAL\nSTATUS")
    status = judge.last_to(ALICE).body
    assert "your orders:\n    A PAR - BUR" in status
    assert "your offer sheet (bribes to the dummies' units):\n    2 : A VIE - GAL" in status
    judge.later(24)
    judge.tick()
    reminder = to(judge.new_mail(), BOB, "g1 S1901M reminder")
    assert "Without orders your units hold" in reminder and "offer sheet" not in reminder


# -- ruling 15: a sheet without an offer ----------------------------------------------------------------


def test_ruling_15_a_sheet_of_savings_alone_is_kept_and_warned_but_not_a_submission(tmp_path: Path) -> None:
    """France asks to save 5 AgP and offers nothing; Germany and England send sheets.  Rule 3.3
    asks for at least one offer: France has not submitted, so the phase waits for its deadline,
    where France's units hold on their own zero offers and its savings request stands."""
    judge = start(tmp_path)
    judge.send(ALICE, FRANCE + "5 $")
    reply = judge.last_to(ALICE).body
    assert "> 5 $\n  OK: read as a savings request of 5 AgP" in reply
    assert "offer sheet kept, with no offer: savings 5 AgP" in reply
    assert "WARNING: a sheet needs at least one offer (rule 3.3)" in reply and "you have not submitted" in reply
    judge.send(BOB, GERMANY + "2 : A MUN - RUH")
    judge.send(CAROL, ENGLAND + "1 : F LON - NTH")
    assert phase(judge) == "S1901M"  # every other power has submitted: only France holds it open
    judge.send(ALICE, FRANCE + "STATUS")
    status = judge.last_to(ALICE).body
    assert "  5 $\n" in status and "your sheet makes no offer: you have not submitted" in status
    judge.send(GM, MASTER + "STATUS")
    assert "France: played; waiting" in judge.last_to(GM).body
    judge.send(CAROL, "LIST g1")
    assert "France: played, waiting" in judge.last_to(CAROL).body
    judge.later(24)  # the reminder: France has sent something, but not an offer
    judge.tick()
    [reminder] = [m for m in judge.new_mail() if m.subject == "g1 S1901M reminder"]
    assert reminder.to == ALICE and "the offer sheet of France makes no offer" in reminder.body
    judge.later(24)
    assert judge.tick() == ["g1 S1901M processed; next F1901M"]
    results = to(judge.new_mail(), ALICE, "g1 S1901M results")
    assert "France sent no offer sheet: each of its units was offered a zero HOLD by its own power" in results
    assert "France: A PAR H" in results and "savings you asked for: 5 AgP" in results


def test_ruling_15_offers_sent_after_a_sheet_without_one_are_a_submission(tmp_path: Path) -> None:
    judge = start(tmp_path)
    judge.send(ALICE, FRANCE + "5 $")
    judge.send(BOB, GERMANY + "2 : A MUN - RUH")
    judge.send(CAROL, ENGLAND + "1 : F LON - NTH")
    judge.send(ALICE, FRANCE + "5 $\n1 : A PAR - BUR")  # France's sheet now makes an offer: all are in
    assert phase(judge) == "F1901M"
    results = to(judge.new_mail(), ALICE, "g1 S1901M results")
    assert "France sent no offer sheet" not in results and "France: A PAR - BUR" in results
