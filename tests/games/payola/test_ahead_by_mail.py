"""Orders for a later phase in Payola: ``PHASE <later phase>`` opens a block kept until that phase opens,
read then as the power's mail.

The board (`FALL`, teleported in Fall 1901): France holds A BUR, A MAR and F BRE and owns PAR, BRE, MAR and BEL;
Germany's A MUN, supported by A RUH, attacks A BUR (2 AgP each against France's 1 for A BUR H), which is
dislodged: it may retreat to BEL, GAS, PAR or PIC, never to MUN, where the attack came from.  After it retreats
France has 4 centres and 3 units: one build, in PAR, its one free home centre (MAR and BRE are held).  Germany
(MUN, KIE; two units) and England (LON; one unit) have no adjustment, so France alone acts in F1901R and W1901A.
"""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import select

from judge.store.models import AheadBlock, Game, Submission
from tests.games.payola.by_mail import ENGLAND, FRANCE, GERMANY, MASTER, start, teleport
from tests.support.harness import Judge, Sent
from tests.support.people import ALICE, BOB, CAROL, GM

FALL = {"phase": "F1901M",
        "units": {"FRANCE": ["A BUR", "A MAR", "F BRE"], "GERMANY": ["A MUN", "A RUH"], "ENGLAND": ["F LON"]},
        "centers": {"FRANCE": ["PAR", "BRE", "MAR", "BEL"], "GERMANY": ["MUN", "KIE"], "ENGLAND": ["LON"]}}
SHEET = "1 : A BUR H\n1 : A MAR H\n1 : F BRE H\n"
"""France's sheet for F1901M: a hold for each of its units, 1 AgP each."""
MINUTE = 1 / 60


def fall(tmp_path: Path) -> Judge:
    """Game g1 in F1901M on `FALL`, Germany's and England's sheets in (Germany attacks A BUR)."""
    judge = start(Judge(tmp_path))
    teleport(judge, FALL)
    judge.send(BOB, GERMANY + "2 : A MUN - BUR\n2 : A RUH S A MUN - BUR")
    judge.send(CAROL, ENGLAND + "1 : F LON H")
    judge.new_mail()
    return judge


def phase(judge: Judge) -> str | None:
    with judge.db.transaction() as session:
        return session.scalars(select(Game.phase).where(Game.name == "g1")).one()


def blocks(judge: Judge) -> dict[str, str]:
    """The blocks waiting in g1, by phase: their text."""
    with judge.db.transaction() as session:
        return {row.phase: row.text for row in session.scalars(select(AheadBlock).order_by(AheadBlock.id))}


def orders(judge: Judge, name: str) -> list[str]:
    """France's orders stored for phase ``name``."""
    with judge.db.transaction() as session:
        return list(session.scalars(select(Submission.text).where(
            Submission.phase == name, Submission.seat == "FRANCE", Submission.kind == "orders")))


def mail(judge: Judge, subject: str, to: str = ALICE) -> Sent:
    [found] = [m for m in judge.all_mail() if m.to == to and m.subject == subject]
    return found


# -- one mail plays the year: movement, retreat and adjustment ------------------------------------------------------


def test_a_sheet_and_the_retreat_and_adjustment_blocks_of_one_mail_play_the_year(tmp_path: Path) -> None:
    """The lines before the first block are the sheet for F1901M, which completes it; F1901R opens with the
    retreat block, whose first choice (MUN, the attacker's origin) is barred, so A BUR goes to GAS, its
    alternative, and the phase closes at the next tick; W1901A opens with the builds: A PAR taken, A MAR (a
    home centre France's own A MAR holds) left out, and it closes at the next tick too."""
    judge = fall(tmp_path)
    judge.send(ALICE, FRANCE + SHEET + "PHASE F1901R\nA BUR - MUN | GAS\nPHASE W1901A\nBUILD A PAR\nBUILD A MAR")
    assert [judge.outcome_of(line) for line in ("PHASE F1901R", "PHASE W1901A")] == [("ok", "BLOCK_KEPT")] * 2
    assert judge.outcome_of("1 : A BUR H") == ("ok", "SHEET_ACCEPTED")
    assert phase(judge) == "F1901R"  # the sheet completed F1901M, and F1901R opened with the block read
    assert orders(judge, "F1901R") == ["A BUR - GAS"]
    read = mail(judge, "g1: your lines for F1901R, read now").body
    assert "'A BUR - MUN | GAS' was read as 'A BUR - GAS'" in read
    assert list(blocks(judge)) == ["W1901A"]
    judge.later(MINUTE)
    assert judge.tick() == ["g1 F1901R processed; next W1901A"]
    results = mail(judge, "g1 F1901R results", BOB).body
    assert "F1901R was played from orders given ahead" in results and "France: A BUR - GAS" in results
    assert orders(judge, "W1901A") == ["BUILD A PAR"]
    built = mail(judge, "g1: your lines for W1901A, read now").body
    assert "BUILD A MAR\n  IGNORED: not applied:" in built
    judge.later(MINUTE)
    assert judge.tick() == ["g1 W1901A processed; next S1902M"]
    assert blocks(judge) == {}


def test_a_block_is_seen_by_its_power_alone_until_its_phase_results(tmp_path: Path) -> None:
    """Nothing of a block reaches another player: the F1901M results name none of its lines."""
    judge = fall(tmp_path)
    judge.send(ALICE, FRANCE + SHEET + "PHASE F1901R\nA BUR - PIC")
    for address in (BOB, CAROL, GM):
        assert "A BUR - PIC" not in mail(judge, "g1 F1901M results" if address != GM else "g1 F1901M chart",
                                         address).body


# -- kept, replaced, withdrawn, listed ----------------------------------------------------------------------------


def test_a_later_block_for_the_same_phase_replaces_the_first(tmp_path: Path) -> None:
    judge = fall(tmp_path)
    judge.send(ALICE, FRANCE + "PHASE F1901R\nA BUR - PIC")
    judge.later(1)
    judge.send(ALICE, FRANCE + "PHASE F1901R\nA BUR - BEL")
    assert judge.outcome_of("PHASE F1901R") == ("ok", "BLOCK_KEPT")
    assert "replaces the block you sent for it before" in judge.answer("PHASE F1901R").message
    assert blocks(judge) == {"F1901R": "A BUR - BEL"}


def test_an_empty_block_withdraws_the_block_waiting(tmp_path: Path) -> None:
    judge = fall(tmp_path)
    judge.send(ALICE, FRANCE + "PHASE F1901R\nA BUR - PIC")
    judge.send(ALICE, FRANCE + "PHASE F1901R")
    assert judge.outcome_of("PHASE F1901R") == ("ok", "BLOCK_WITHDRAWN")
    assert blocks(judge) == {}


def test_check_keeps_no_block(tmp_path: Path) -> None:
    judge = fall(tmp_path)
    judge.send(ALICE, FRANCE + "CHECK\nPHASE F1901R\nA BUR - PIC")
    assert judge.outcome_of("PHASE F1901R") == ("ok", "BLOCK_KEPT")  # what it would do
    assert blocks(judge) == {}


def test_list_shows_a_power_its_own_blocks_waiting_and_nobody_else(tmp_path: Path) -> None:
    judge = fall(tmp_path)
    judge.send(ALICE, FRANCE + "PHASE W1901A\nBUILD A PAR")
    judge.send(ALICE, FRANCE + "LIST g1")
    listed = judge.last_to(ALICE).body
    assert "your lines waiting for W1901A (PHASE W1901A), read when it opens:\n    BUILD A PAR" in listed
    judge.send(BOB, GERMANY + "LIST g1")
    assert "W1901A" not in judge.last_to(BOB).body


# -- never by accident: bad blocks answered in words, nothing applied ---------------------------------------------


def test_a_block_more_than_three_phases_ahead_is_refused(tmp_path: Path) -> None:
    """From F1901M the next three are F1901R, W1901A and S1902M: S1902R is a fourth."""
    judge = fall(tmp_path)
    judge.send(ALICE, FRANCE + "PHASE S1902M\n1 : A MAR H\nPHASE S1902R\nA MAR - GAS")
    assert judge.outcome_of("PHASE S1902M") == ("ok", "BLOCK_KEPT")
    assert judge.outcome_of("PHASE S1902R") == ("ignored", "TOO_FAR_AHEAD")
    assert judge.outcome_of("A MAR - GAS") == ("ignored", "TOO_FAR_AHEAD")
    assert list(blocks(judge)) == ["S1902M"]


def test_ten_blocks_in_a_mail_keep_three_and_apply_nothing_else(tmp_path: Path) -> None:
    """One block per phase, three phases ahead at most: of ten blocks for the ten phases from F1901R on, three
    are kept; the rest, and their lines, are refused, and nothing reaches the phase now."""
    judge = fall(tmp_path)
    names = ["F1901R", "W1901A", "S1902M", "S1902R", "F1902M", "F1902R", "W1902A", "S1903M", "S1903R", "F1903M"]
    judge.send(ALICE, FRANCE + "".join(f"PHASE {name}\nWAIT\n" for name in names))
    assert [judge.outcome_of(f"PHASE {name}")[1] for name in names] == ["BLOCK_KEPT"] * 3 + ["TOO_FAR_AHEAD"] * 7
    assert sorted(blocks(judge)) == ["F1901R", "S1902M", "W1901A"]
    assert phase(judge) == "F1901M"


def test_a_block_for_a_phase_the_game_cannot_reach_is_refused(tmp_path: Path) -> None:
    """Machiavelli's spring letter is no phase of a Payola game."""
    judge = fall(tmp_path)
    judge.send(ALICE, FRANCE + "PHASE SP1454C\nA BUR - PIC")
    assert judge.outcome_of("PHASE SP1454C") == ("ignored", "NOT_A_PHASE_AHEAD")
    assert blocks(judge) == {}


def test_a_second_block_for_one_phase_in_a_mail_is_refused_and_the_first_kept(tmp_path: Path) -> None:
    judge = fall(tmp_path)
    judge.send(ALICE, FRANCE + "PHASE F1901R\nA BUR - PIC\nPHASE F1901R\nA BUR - BEL")
    assert judge.outcomes_of("PHASE F1901R") == [("ok", "BLOCK_KEPT"), ("ignored", "TWO_BLOCKS")]
    assert blocks(judge) == {"F1901R": "A BUR - PIC"}


def test_phase_with_no_phase_applies_none_of_the_lines_after_it(tmp_path: Path) -> None:
    """The lines after a bare PHASE were meant for some later phase: none reaches the phase now."""
    judge = fall(tmp_path)
    judge.send(ALICE, FRANCE + "PHASE\n" + SHEET)
    assert judge.outcome_of("PHASE") == ("error", "SYNTAX")
    assert judge.outcome_of("1 : A BUR H") == ("ignored", "NO_PHASE")
    assert phase(judge) == "F1901M" and blocks(judge) == {}


def test_a_block_with_a_line_its_phase_does_not_take_is_refused_whole(tmp_path: Path) -> None:
    """Rule 2: units are ordered by their owner in a retreat phase, bribed in a movement phase: an offer in a
    retreat block and an order in a movement block are no lines of those phases."""
    judge = fall(tmp_path)
    judge.send(ALICE, FRANCE + "PHASE F1901R\nA BUR - PIC\n1 : A BUR - PIC\nPHASE S1902M\nA MAR H")
    assert judge.outcome_of("1 : A BUR - PIC") == ("error", "NOT_FOR_THAT_PHASE")
    assert judge.outcome_of("A BUR - PIC") == ("ignored", "BLOCK_REFUSED")
    assert judge.outcome_of("PHASE F1901R") == ("ignored", "BLOCK_REFUSED")
    assert judge.outcome_of("A MAR H") == ("error", "NOT_FOR_THAT_PHASE")
    assert blocks(judge) == {}


def test_a_command_that_acts_at_once_is_not_kept_in_a_block(tmp_path: Path) -> None:
    """ACCEPT and TRANSFER act when they are read: in a block they are refused, and the block with them."""
    judge = fall(tmp_path)
    judge.send(ALICE, FRANCE + "PHASE S1902M\n1 : A MAR H\nTRANSFER 5 TO G")
    assert judge.outcome_of("TRANSFER 5 TO G") == ("error", "NOT_FOR_THAT_PHASE")
    assert blocks(judge) == {}


def test_a_host_command_in_a_block_is_answered_and_not_done(tmp_path: Path) -> None:
    judge = fall(tmp_path)
    judge.send(ALICE, FRANCE + "PHASE F1901R\nA BUR - PIC\nSTATUS")
    assert judge.outcome_of("STATUS") == ("ignored", "NOT_FOR_A_BLOCK")
    assert blocks(judge) == {"F1901R": "A BUR - PIC"}


def test_a_phase_line_before_any_signon_says_the_whole_mail_is_for_that_phase_as_before(tmp_path: Path) -> None:
    judge = fall(tmp_path)
    judge.send(ALICE, "PHASE F1901R\n" + FRANCE + SHEET)
    assert judge.outcome_of("1 : A BUR H") == ("ignored", "NOT_THE_PHASE")
    assert blocks(judge) == {}


def test_a_master_cannot_send_a_block(tmp_path: Path) -> None:
    judge = fall(tmp_path)
    judge.send(GM, MASTER + "PHASE F1901R\nA BUR - PIC")
    assert judge.outcome_of("PHASE F1901R")[1] != "BLOCK_KEPT"
    assert blocks(judge) == {}


# -- when its phase opens -----------------------------------------------------------------------------------------


def test_a_retreat_block_for_a_phase_the_game_skips_is_dropped_and_its_power_told(tmp_path: Path) -> None:
    """Germany attacks nobody: no unit is dislodged, F1901R is skipped and W1901A follows F1901M."""
    judge = start(Judge(tmp_path))
    teleport(judge, FALL)
    judge.send(BOB, GERMANY + "1 : A MUN H\n1 : A RUH H")
    judge.send(CAROL, ENGLAND + "1 : F LON H")
    judge.send(ALICE, FRANCE + SHEET + "PHASE F1901R\nA BUR - PIC")
    assert phase(judge) == "W1901A"
    assert "were not used" in mail(judge, "g1: your lines for F1901R were not used").subject
    assert blocks(judge) == {}


def test_a_wait_in_a_block_holds_its_phase_to_the_deadline(tmp_path: Path) -> None:
    judge = fall(tmp_path)
    judge.send(ALICE, FRANCE + SHEET + "PHASE F1901R\nA BUR - GAS\nWAIT")
    assert phase(judge) == "F1901R" and orders(judge, "F1901R") == ["A BUR - GAS"]
    judge.later(MINUTE)
    assert judge.tick() == []
    assert phase(judge) == "F1901R"


def test_an_offer_sheet_block_for_a_unit_gone_is_refused_when_its_phase_opens(tmp_path: Path) -> None:
    """Rule 3: a sheet is read whole. The S1902M sheet bribes Germany's A MUN, which left MUN for BUR in F1901M:
    when S1902M opens the offer names no unit on the board, and the sheet is refused, answered line by line."""
    judge = fall(tmp_path)
    judge.send(ALICE, FRANCE + SHEET + "PHASE F1901R\nA BUR - GAS\nPHASE W1901A\nBUILD A PAR\n"
               "PHASE S1902M\n1 : A MUN H\n1 : A MAR H")
    judge.later(MINUTE)
    judge.tick()
    judge.later(MINUTE)
    assert judge.tick() == ["g1 W1901A processed; next S1902M"]
    read = mail(judge, "g1: your lines for S1902M, read now").body
    assert "> 1 : A MUN H\n  ERROR:" in read and "> 1 : A MAR H\n  IGNORED: not applied: the sheet has errors" in read
    with judge.db.transaction() as session:
        assert session.scalars(select(Submission).where(Submission.phase == "S1902M")).all() == []


def test_a_rollback_drops_the_blocks_waiting_and_tells_their_power(tmp_path: Path) -> None:
    judge = fall(tmp_path)
    judge.send(ALICE, FRANCE + SHEET + "PHASE W1901A\nBUILD A PAR")
    assert phase(judge) == "F1901R"
    judge.send(GM, MASTER + "ROLLBACK")
    assert phase(judge) == "F1901M" and blocks(judge) == {}
    assert "rolled g1 back to F1901M" in mail(judge, "g1: your lines for W1901A were dropped").body


def test_a_block_of_a_player_who_resigned_since_is_never_played(tmp_path: Path) -> None:
    """France sends its retreat and its build ahead, then resigns in F1901R: when W1901A opens, the build its
    former player wrote is not read for the seat, which now plays by the defaults (no orders stored)."""
    judge = fall(tmp_path)
    judge.send(ALICE, FRANCE + SHEET + "PHASE F1901R\nA BUR - GAS\nPHASE W1901A\nBUILD A PAR")
    assert phase(judge) == "F1901R" and list(blocks(judge)) == ["W1901A"]
    judge.send(ALICE, FRANCE + "RESIGN")
    assert judge.outcome_of("RESIGN")[0] == "ok"
    judge.later(MINUTE)
    judge.tick()
    assert phase(judge) == "W1901A"
    assert orders(judge, "W1901A") == [] and blocks(judge) == {}
    assert not [m for m in judge.all_mail() if m.subject == "g1: your lines for W1901A, read now"]
