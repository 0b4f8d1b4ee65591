"""Lines for a later phase in Exchange Payola: ``PHASE <later phase>`` opens a block kept until that phase
opens, read then as the investor's mail.

The worked year of section 3 (ANN, BOB, CAT in that order, 60 AgP each): the W1900X elections make BOB
France's CEO and CAT Germany's; S1901M and the first two F1901M sheets are the worked year's.  After F1901M
France holds BEL, BRE, PAR, POR and SPA (5 centres, 3 units: 2 builds, on PAR and BRE, its free home centres;
MAR, empty since the spring, was taken by Germany's A BUR) and Germany BER, DEN, HOL, KIE, MAR and MUN (6
centres, 3 units: 3 builds, on BER, KIE and MUN).  Nobody is dislodged, so F1901R is skipped, and W1901A
waits for the two CEOs alone.
"""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import select

from judge.games.exchange import stored
from judge.store.models import AheadBlock, Game
from tests.games.exchange.by_mail import address, exchange_game, game_row, mails_to, send_as, states
from tests.support.harness import Judge

GAME = "bourse"
MINUTE = 1 / 60
FRANCE_FALL = ("FOR FRANCE", "0 : A PIC - BEL", "0 : A SPA H", "0 : F MAO - POR", "END")
"""BOB's F1901M block for France (3.4)."""
GERMANY_FALL = ("FOR GERMANY", "5 : A BUR - MAR", "0 : F HOL H", "0 : A KIE - DEN", "5 : A SPA H", "END")
"""CAT's F1901M block for Germany (3.4)."""


def spring(tmp_path: Path) -> Judge:
    """The worked year in S1901M: BOB is France's CEO, CAT Germany's; no sheet in yet."""
    judge = exchange_game(Judge(tmp_path), GAME, order=("ANN", "BOB", "CAT"))
    send_as(judge, GAME, "ANN", "BID 6 FRANCE AT 5", "BID 2 GERMANY AT 3", "ELECT FRANCE ME", "ELECT GERMANY CAT")
    send_as(judge, GAME, "BOB", "PRIORITY 2", "BID 5 FRANCE AT 5", "BID 5 GERMANY AT 4", "ELECT FRANCE ME",
            "ELECT GERMANY ME")
    send_as(judge, GAME, "CAT", "PRIORITY 3", "BID 4 GERMANY AT 4", "BID 3 FRANCE AT 6", "ELECT GERMANY ME",
            "ELECT FRANCE ME")
    assert game_row(judge, GAME) == ("active", "S1901M")
    return judge


def spring_sheets(judge: Judge) -> None:
    """BOB's and CAT's S1901M sheets (3.3), which complete S1901M once ANN's is in."""
    send_as(judge, GAME, "BOB", "FOR FRANCE", "WORTH PAR 24 MAR 14 BRE 10", "ACCEPT F?", "0 : A PAR - PIC",
            "0 : A MAR - SPA", "0 : F BRE - MAO", "END")
    send_as(judge, GAME, "CAT", "FOR GERMANY", "0 : F KIE - HOL", "0 : A BER - KIE", "3 : A MUN - BUR", "END")


def fall(tmp_path: Path) -> Judge:
    """The worked year in F1901M, ANN's sheet in: BOB's and CAT's are still to come."""
    judge = spring(tmp_path)
    send_as(judge, GAME, "ANN", "2 : A MUN - RUH")
    spring_sheets(judge)
    send_as(judge, GAME, "ANN", "4 : A SPA - MAR")
    assert game_row(judge, GAME) == ("active", "F1901M")
    judge.new_mail()
    return judge


def blocks(judge: Judge) -> dict[tuple[str, str], str]:
    """The blocks waiting, by seat and phase: their text."""
    with judge.db.transaction() as session:
        return {(row.seat, row.phase): row.text for row in session.scalars(select(AheadBlock).order_by(AheadBlock.id))}


def units_after(judge: Judge, phase: str, corporation: str) -> list[str]:
    """``corporation``'s units on the board ``phase`` left."""
    state = dict(states(judge, GAME))[phase]
    return sorted(str(placed.unit) for placed in state.position.units.values() if placed.power == corporation)


def own_lines(judge: Judge, phase: str, investor: str) -> list[str]:
    """The lines of ``investor``'s own part of the sheet standing in ``phase``."""
    with judge.db.transaction() as session:
        game = session.scalars(select(Game).where(Game.name == GAME)).one()
        return stored.sheets(session, game, phase)[investor].own


def phase(judge: Judge) -> str | None:
    with judge.db.transaction() as session:
        return session.scalars(select(Game.phase).where(Game.name == GAME)).one()


# -- kept, and played when the phase opens ---------------------------------------------------------------------------


def test_X81_builds_sent_ahead_with_the_fall_sheets_close_the_adjustments_at_the_next_tick(tmp_path: Path) -> None:
    """Both CEOs send their builds for W1901A with their F1901M sheets: the second sheet completes F1901M,
    W1901A opens with both blocks read and complete, and closes at the next tick: France builds 2, Germany 3."""
    judge = fall(tmp_path)
    send_as(judge, GAME, "BOB", *FRANCE_FALL, "PHASE W1901A", "FOR FRANCE", "BUILD A PAR", "BUILD F BRE", "END")
    assert judge.outcome_of("PHASE W1901A") == ("ok", "BLOCK_KEPT")
    send_as(judge, GAME, "CAT", *GERMANY_FALL, "PHASE W1901A", "FOR GERMANY", "BUILD A BER", "BUILD F KIE",
            "BUILD A MUN", "END")
    assert phase(judge) == "W1901A"
    assert blocks(judge) == {}
    judge.later(MINUTE)
    judge.tick()
    assert phase(judge) != "W1901A"
    assert units_after(judge, "W1901A", "FRANCE") == ["A BEL", "A PAR", "A SPA", "F BRE", "F POR"]
    assert units_after(judge, "W1901A", "GERMANY") == ["A BER", "A DEN", "A MAR", "A MUN", "F HOL", "F KIE"]
    assert "W1901A was played from orders given ahead" in mails_to(judge, "ANN", f"{GAME} W1901A results").body


def test_3_an_offer_sent_ahead_for_the_fall_is_read_as_the_sheet_sent_when_the_fall_opens(tmp_path: Path) -> None:
    """ANN sends her 3.4 offer (4 AgP to France's A SPA to go to MAR) with her 3.3 sheet: when F1901M opens it
    is her sheet for it, so the fall waits for BOB's and CAT's alone, and plays as in the worked year:
    Germany's A BUR takes MAR, France holds BEL, SPA and POR."""
    judge = spring(tmp_path)
    send_as(judge, GAME, "ANN", "2 : A MUN - RUH", "PHASE F1901M", "4 : A SPA - MAR")
    assert judge.outcome_of("PHASE F1901M") == ("ok", "BLOCK_KEPT")
    spring_sheets(judge)
    assert phase(judge) == "F1901M"
    read = mails_to(judge, "ANN", f"{GAME}: your lines for F1901M, read now").body
    assert "sheet accepted for F1901M" in read
    assert own_lines(judge, "F1901M", "ANN") == ["4 : A SPA - MAR"]
    send_as(judge, GAME, "BOB", *FRANCE_FALL)
    send_as(judge, GAME, "CAT", *GERMANY_FALL)
    assert phase(judge) == "W1901A"
    assert units_after(judge, "F1901M", "FRANCE") == ["A BEL", "A SPA", "F POR"]
    assert units_after(judge, "F1901M", "GERMANY") == ["A DEN", "A MAR", "F HOL"]


def test_list_shows_an_investor_its_own_blocks_waiting_and_nobody_else(tmp_path: Path) -> None:
    judge = fall(tmp_path)
    send_as(judge, GAME, "BOB", "PHASE W1901A", "FOR FRANCE", "BUILD A PAR", "END")
    listed = send_as(judge, GAME, "BOB", f"LIST {GAME}").body
    assert "your lines waiting for W1901A (PHASE W1901A), read when it opens:" in listed
    assert "BUILD A PAR" not in send_as(judge, GAME, "CAT", f"LIST {GAME}").body


def test_a_build_on_a_centre_lost_in_the_fall_is_left_out_and_answered_when_the_adjustments_open(
        tmp_path: Path) -> None:
    """MAR is France's and empty when BOB writes BUILD A MAR, and Germany's after F1901M: the line is left out,
    answered in the mail that reads the block, and France's two builds go to PAR and BRE."""
    judge = fall(tmp_path)
    send_as(judge, GAME, "BOB", *FRANCE_FALL, "PHASE W1901A", "FOR FRANCE", "BUILD A MAR", "BUILD A PAR",
            "BUILD F BRE", "END")
    send_as(judge, GAME, "CAT", *GERMANY_FALL)
    read = mails_to(judge, "BOB", f"{GAME}: your lines for W1901A, read now").body
    assert "BUILD A MAR\n  IGNORED: not applied:" in read
    send_as(judge, GAME, "CAT", "FOR GERMANY", "BUILD A BER", "END")
    judge.later(MINUTE)
    judge.tick()
    assert units_after(judge, "W1901A", "FRANCE") == ["A BEL", "A PAR", "A SPA", "F BRE", "F POR"]


def test_builds_beyond_what_the_centres_allow_are_left_out_in_the_order_written(tmp_path: Path) -> None:
    """France may build 2: A PAR and A BRE are taken, F BRE (the third) is left out, saying why."""
    judge = fall(tmp_path)
    send_as(judge, GAME, "BOB", *FRANCE_FALL, "PHASE W1901A", "FOR FRANCE", "BUILD A PAR", "BUILD A BRE",
            "BUILD F BRE", "END")
    send_as(judge, GAME, "CAT", *GERMANY_FALL)
    read = mails_to(judge, "BOB", f"{GAME}: your lines for W1901A, read now").body
    assert "BUILD F BRE\n  IGNORED: not applied: FRANCE's centres allow 2 builds now" in read
    send_as(judge, GAME, "CAT", "FOR GERMANY", "BUILD A BER", "END")
    judge.later(MINUTE)
    judge.tick()
    assert units_after(judge, "W1901A", "FRANCE") == ["A BEL", "A BRE", "A PAR", "A SPA", "F POR"]


def test_2_1_a_block_for_a_corporation_its_writer_does_not_run_refuses_the_sheet_when_read(tmp_path: Path) -> None:
    """ANN is no CEO: her FOR FRANCE block is kept for its shape, and refused whole when W1901A opens, as the
    same sheet sent then would be (2.1, E21); France's builds are BOB's alone."""
    judge = fall(tmp_path)
    send_as(judge, GAME, "ANN", "PHASE W1901A", "FOR FRANCE", "BUILD A PAR", "END")
    assert judge.outcome_of("PHASE W1901A") == ("ok", "BLOCK_KEPT")
    send_as(judge, GAME, "BOB", *FRANCE_FALL)
    send_as(judge, GAME, "CAT", *GERMANY_FALL)
    read = mails_to(judge, "ANN", f"{GAME}: your lines for W1901A, read now").body
    assert "> FOR FRANCE\n  ERROR: only the corporation's CEO may write for it (2.1, E21, E24)" in read
    assert "sheet REFUSED (2 bad lines); you have no sheet for W1901A" in read
    assert phase(judge) == "W1901A"


# -- replaced, refused for its shape, WAIT, secrecy -----------------------------------------------------------------


def test_a_later_block_for_the_same_phase_replaces_the_first(tmp_path: Path) -> None:
    judge = fall(tmp_path)
    send_as(judge, GAME, "BOB", "PHASE W1901A", "FOR FRANCE", "BUILD A PAR", "END")
    judge.later(1)
    send_as(judge, GAME, "BOB", "PHASE W1901A", "FOR FRANCE", "BUILD F BRE", "END")
    assert "replaces the block you sent for it before" in judge.answer("PHASE W1901A").message
    assert blocks(judge) == {("BOB", "W1901A"): "FOR FRANCE\nBUILD F BRE\nEND"}


def test_E8_bids_and_ballots_for_the_exchange_phase_are_refused_in_a_block(tmp_path: Path) -> None:
    """The market and the elections are written against what the year decides: not kept ahead."""
    judge = fall(tmp_path)
    send_as(judge, GAME, "ANN", "PHASE W1901X", "BID 1 FRANCE AT 9", "ELECT FRANCE ME")
    assert judge.outcome_of("BID 1 FRANCE AT 9") == ("error", "NOT_FOR_THAT_PHASE")
    assert judge.outcome_of("ELECT FRANCE ME") == ("error", "NOT_FOR_THAT_PHASE")
    assert judge.outcome_of("PHASE W1901X")[1] == "BLOCK_REFUSED"
    assert blocks(judge) == {}


def test_an_offer_in_an_adjustment_block_is_refused_for_its_shape(tmp_path: Path) -> None:
    judge = fall(tmp_path)
    send_as(judge, GAME, "BOB", "PHASE W1901A", "FOR FRANCE", "0 : A PAR H", "END")
    assert judge.answer("0 : A PAR H").message.endswith("offers are only taken in a movement phase, and W1901A is "
                                                         "not one")
    assert blocks(judge) == {}


def test_E5_a_transfer_in_a_block_acts_when_read_so_is_not_kept(tmp_path: Path) -> None:
    judge = fall(tmp_path)
    send_as(judge, GAME, "ANN", "PHASE W1901A", "TRANSFER 5 TO BOB")
    assert judge.outcome_of("TRANSFER 5 TO BOB") == ("error", "NOT_FOR_THAT_PHASE")
    assert blocks(judge) == {}


def test_a_wait_in_a_block_holds_the_adjustments_to_their_deadline(tmp_path: Path) -> None:
    judge = fall(tmp_path)
    send_as(judge, GAME, "BOB", *FRANCE_FALL, "PHASE W1901A", "FOR FRANCE", "BUILD A PAR", "BUILD F BRE", "END",
            "WAIT")
    send_as(judge, GAME, "CAT", *GERMANY_FALL, "PHASE W1901A", "FOR GERMANY", "BUILD A BER", "END")
    assert phase(judge) == "W1901A"
    judge.later(MINUTE)
    assert judge.tick() == []
    assert phase(judge) == "W1901A"


def test_E40_a_block_is_seen_by_its_investor_alone_until_its_phase_results(tmp_path: Path) -> None:
    """Nothing of BOB's block reaches ANN or CAT: not the F1901M results, nor any other mail."""
    judge = fall(tmp_path)
    send_as(judge, GAME, "BOB", *FRANCE_FALL, "PHASE W1901A", "FOR FRANCE", "BUILD F BRE", "END")
    send_as(judge, GAME, "CAT", *GERMANY_FALL)
    assert phase(judge) == "W1901A"
    for mail in judge.all_mail():
        if mail.to in (address("ANN"), address("CAT")):
            assert "BUILD F BRE" not in mail.body


def test_a_retreat_block_with_alternatives_is_kept_and_dropped_when_nobody_is_dislodged(tmp_path: Path) -> None:
    """BOB's F1901R block names alternatives for A SPA (kept for its shape: units and money are not checked
    ahead); F1901M dislodges nobody, so F1901R is skipped and BOB is told his lines were not used."""
    judge = fall(tmp_path)
    send_as(judge, GAME, "BOB", *FRANCE_FALL, "PHASE F1901R", "FOR FRANCE", "A SPA - GAS | POR | D", "END")
    assert judge.outcome_of("PHASE F1901R") == ("ok", "BLOCK_KEPT")
    send_as(judge, GAME, "CAT", *GERMANY_FALL)
    assert phase(judge) == "W1901A"
    assert blocks(judge) == {}
    told = mails_to(judge, "BOB", f"{GAME}: your lines for F1901R were not used").body
    assert "went on to W1901A without playing F1901R" in told


def test_alternatives_are_refused_in_an_adjustment_block(tmp_path: Path) -> None:
    judge = fall(tmp_path)
    send_as(judge, GAME, "BOB", "PHASE W1901A", "FOR FRANCE", "BUILD A PAR | BUILD F BRE", "END")
    assert judge.answer("BUILD A PAR | BUILD F BRE").message.endswith("alternatives (|) are given only for a retreat")
    assert blocks(judge) == {}
