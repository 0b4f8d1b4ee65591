"""Letters for a later phase in Machiavelli: ``PHASE <later phase>`` opens a block kept until that phase opens,
read then as the country's letter (17.1, M35: it counts as the letter sent; money checked then, M30).

The game (`spring`): m1 on the classic board, played by Florence, Milan and Venice (the other five countries
dummies), in SP1454A; each country has 15 ducats (AoP 3).  Florence's spring letter pays A flo and A are (3
ducats each, A.7) and leaves F psa off, which is disbanded (7.1, M12): Florence has 15 - 3 - 3 = 9 ducats in
SP1454C.  Milan pays A mil and Venice G ven (15 - 3 = 12 each); the last of the three letters completes the
spring, and SP1454C opens at once.
"""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import select

from judge.games.machiavelli import lifecycle
from judge.store.models import AheadBlock, Game
from tests.games.machiavelli.test_by_mail import GM, address, letter, master, new_game
from tests.support.harness import Judge, Sent

SPRING_LETTERS = {"Florence": ("pay A flo", "pay A are"), "Milan": ("pay A mil",), "Venice": ("pay G ven",)}
"""Each country's spring letter (see the module's header)."""


def spring(tmp_path: Path) -> Judge:
    """Game m1 started, in SP1454A, no letter in yet."""
    judge = Judge(tmp_path)
    new_game(judge)
    master(judge, "START")
    judge.new_mail()
    return judge


def springs(judge: Judge, **ahead: tuple[str, ...]) -> None:
    """Each country's spring letter, followed by its lines in ``ahead`` (blocks), Florence first: the last
    completes SP1454A."""
    for country, lines in SPRING_LETTERS.items():
        letter(judge, country, *lines, *ahead.get(country, ()))


def phase(judge: Judge) -> str | None:
    with judge.db.transaction() as session:
        return session.scalars(select(Game.phase).where(Game.name == "m1")).one()


def blocks(judge: Judge) -> dict[tuple[str, str], str]:
    """The blocks waiting in m1, by country and phase: their text."""
    with judge.db.transaction() as session:
        return {(row.seat, row.phase): row.text for row in session.scalars(select(AheadBlock))}


def standing(judge: Judge, name: str, country: str = "Florence") -> tuple[list[str], int] | None:
    """``country``'s letter standing in phase ``name``: its orders and its number (2: a correction)."""
    with judge.db.transaction() as session:
        game = session.scalars(select(Game).where(Game.name == "m1")).one()
        kept = lifecycle.letters_of(session, game, name).get(country)
        return None if kept is None else (list(kept.parsed["orders"]), int(kept.parsed["number"]))


def mail(judge: Judge, subject: str, to: str = "ann@example.org") -> Sent:
    [found] = [m for m in judge.all_mail() if m.to == to and m.subject == subject]
    return found


# -- kept, and played when its phase opens ------------------------------------------------------------------------


def test_17_1_M35_a_block_counts_as_the_letter_sent_and_may_then_be_corrected_once(tmp_path: Path) -> None:
    """The block is Florence's first SP1454C letter when SP1454C opens; its mail then is the one correction,
    and a third letter is refused."""
    judge = spring(tmp_path)
    springs(judge, Florence=("PHASE SP1454C", "A flo - pst"))
    assert phase(judge) == "SP1454C" and blocks(judge) == {}
    assert standing(judge, "SP1454C") == (["A flo - pst"], 1)
    assert "This is your letter, the campaign letter of Spring 1454" in mail(
        judge, "m1: your lines for SP1454C, read now").body
    letter(judge, "Florence", "A flo H")
    assert standing(judge, "SP1454C") == (["A flo H"], 2)
    letter(judge, "Florence", "A flo - are")
    assert judge.outcome_of("A flo - are") == ("ignored", "CORRECTED_ONCE")
    assert standing(judge, "SP1454C") == (["A flo H"], 2)


def test_M35_a_later_block_replaces_the_first_without_counting_as_the_correction(tmp_path: Path) -> None:
    """Two blocks for SP1454C before it opens: the second replaces the first whole, and is the first letter when
    the phase opens, so Florence may still correct it once."""
    judge = spring(tmp_path)
    letter(judge, "Florence", "PHASE SP1454C", "A flo - pst")
    letter(judge, "Florence", "PHASE SP1454C", "A are - pst")
    assert "replaces the block you sent for it before" in judge.answer("PHASE SP1454C").message
    assert blocks(judge) == {("Florence", "SP1454C"): "A are - pst"}
    springs(judge)
    assert standing(judge, "SP1454C") == (["A are - pst"], 1)
    letter(judge, "Florence", "A are H")
    assert standing(judge, "SP1454C") == (["A are H"], 2)


def test_a_block_for_a_later_campaign_waits_through_the_phase_between(tmp_path: Path) -> None:
    """A block for SU1454C sent in SP1454A is kept through SP1454C (whose letters Florence sends by mail) and is
    Florence's SU1454C letter when that opens."""
    judge = spring(tmp_path)
    springs(judge, Florence=("PHASE SU1454C", "A flo - pst"))
    assert phase(judge) == "SP1454C" and list(blocks(judge)) == [("Florence", "SU1454C")]
    for country, line in (("Florence", "A flo H"), ("Milan", "A mil H"), ("Venice", "G ven H")):
        letter(judge, country, line)
    assert phase(judge) == "SU1454C"
    assert standing(judge, "SP1454C") == (["A flo H"], 1)
    assert standing(judge, "SU1454C") == (["A flo - pst"], 1)


def test_8_2_M30_a_block_meets_the_board_and_the_ducats_of_when_its_phase_opens(tmp_path: Path) -> None:
    """F psa, disbanded in SP1454A (left off Florence's payments, M12), is warned of line by line in the mail
    that reads the block, and its order is ignored (8.2); bodyguard 12, within the 15 ducats Florence had when it
    wrote the block, is more than the 9 it has in SP1454C: not carried out, not charged (M30)."""
    judge = spring(tmp_path)
    springs(judge, Florence=("PHASE SP1454C", "F psa H", "bodyguard 12", "A flo - pst"),
            Milan=("PHASE SP1454C", "A mil H"), Venice=("PHASE SP1454C", "G ven H"))
    read = mail(judge, "m1: your lines for SP1454C, read now").body
    assert "> F psa H\n  OK: read as: F psa H\n  WARNING: no F psa stands there" in read
    assert judge.tick() == ["m1 SP1454C processed; next SU1454C"]
    results = mail(judge, "m1 SP1454C results").body
    assert "Your treasury: 9 ducats before, 9 ducats now." in results
    assert "bodyguard 12 (D.2): not carried out, not charged: could not be paid in full" in results
    assert "F psa H: no such unit stands there: the order is ignored (8.2)" in results
    assert "Florence A Florence (flo) - Pistoia (pst): advanced" in results


# -- early close, WAIT --------------------------------------------------------------------------------------------


def test_a_campaign_every_country_sent_ahead_closes_at_the_next_tick(tmp_path: Path) -> None:
    judge = spring(tmp_path)
    springs(judge, **{country: ("PHASE SP1454C", f"{unit} H") for country, unit in
                      (("Florence", "A flo"), ("Milan", "A mil"), ("Venice", "G ven"))})
    assert phase(judge) == "SP1454C"
    assert judge.tick() == ["m1 SP1454C processed; next SU1454C"]
    assert "SP1454C was played from orders given ahead" in mail(judge, "m1 SP1454C results", GM).body


def test_a_wait_in_a_block_holds_its_campaign_to_the_deadline(tmp_path: Path) -> None:
    judge = spring(tmp_path)
    springs(judge, Florence=("PHASE SP1454C", "A flo H", "WAIT"), Milan=("PHASE SP1454C", "A mil H"),
            Venice=("PHASE SP1454C", "G ven H"))
    judge.later(1)
    assert judge.tick() == []
    assert phase(judge) == "SP1454C"


# -- refused now, for its shape -----------------------------------------------------------------------------------


def test_2_8_1_a_block_with_an_order_of_the_other_letter_is_refused_whole(tmp_path: Path) -> None:
    """``pay A flo`` is a spring order (A.7), no order of a campaign letter: the SP1454C block is refused, its
    other line with it, and nothing is kept; ``A flo - xyz`` names no area."""
    judge = spring(tmp_path)
    letter(judge, "Florence", "PHASE SP1454C", "A flo - pst", "pay A flo", "PHASE SU1454C", "A flo - xyz")
    assert judge.outcome_of("pay A flo") == ("error", "NOT_FOR_THAT_PHASE")
    assert "no order of the campaign letter of Spring 1454 (C orders)" in judge.answer("pay A flo").message
    assert judge.outcome_of("A flo - pst") == ("ignored", "BLOCK_REFUSED")
    assert judge.outcome_of("A flo - xyz") == ("error", "NOT_FOR_THAT_PHASE")
    assert [judge.outcome_of(f"PHASE {name}") for name in ("SP1454C", "SU1454C")] == [("ignored", "BLOCK_REFUSED")] * 2
    assert blocks(judge) == {} and standing(judge, "SP1454A") is None


def test_M64_a_vote_acts_when_read_and_is_not_kept_in_a_block(tmp_path: Path) -> None:
    judge = spring(tmp_path)
    letter(judge, "Florence", "PHASE SP1454C", "A flo H", "VOTE DRAW")
    assert judge.outcome_of("VOTE DRAW") == ("error", "NOT_FOR_THAT_PHASE")
    assert "send it outside the PHASE block to do it now" in judge.answer("VOTE DRAW").message
    assert blocks(judge) == {}


def test_a_block_more_than_three_phases_ahead_is_refused(tmp_path: Path) -> None:
    """From SP1454A the next three are SP1454C, SU1454C and FA1454C: SP1455A, the next spring letter, is a
    fourth."""
    judge = spring(tmp_path)
    letter(judge, "Florence", "PHASE FA1454C", "A flo H", "PHASE SP1455A", "pay A flo")
    assert judge.outcome_of("PHASE FA1454C") == ("ok", "BLOCK_KEPT")
    assert judge.outcome_of("PHASE SP1455A") == ("ignored", "TOO_FAR_AHEAD")
    assert list(blocks(judge)) == [("Florence", "FA1454C")]


# -- secrecy ------------------------------------------------------------------------------------------------------


def test_8_1_M66_nothing_of_a_block_reaches_another_country_before_its_results(tmp_path: Path) -> None:
    """Florence's block transfers 7 ducats to Milan and moves A flo: no mail to Milan, Venice or the game master
    names either before the SP1454C results (the transfer, an expenditure, not even then)."""
    judge = spring(tmp_path)
    springs(judge, Florence=("PHASE SP1454C", "transfer 7 to Milan", "A flo - pst"))
    letter(judge, "Milan", "A mil H")
    master(judge, "STATUS")
    for to in (address("Milan"), address("Venice"), GM):
        for sent in judge.all_mail():
            if sent.to == to:
                assert "transfer 7" not in sent.body and "flo - pst" not in sent.body, (to, sent.subject)
