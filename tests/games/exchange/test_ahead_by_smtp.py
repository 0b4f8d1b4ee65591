"""Exchange Payola's orders for later phases sent by SMTP through `judge serve`: France's CEO sends in one mail
his F1901M block and the blocks for the retreats and the adjustments (``PHASE F1901R``, ``PHASE W1901A``);
the daemon keeps them, reads each when its phase opens, and closes a phase every CEO that must act wrote
ahead at its next tick, unless one asked WAIT.

The story, worked out by hand on the standard board (ANN, BOB, CAT, 60 AgP each, in that investor order),
played once in two games, ``bourse`` and ``hold``, by one daemon (`story`):

- W1900X and S1901M, played before the daemon starts (`elected`): the worked year's auction and elections
  make BOB France's CEO and CAT Germany's (ANN 60 - 10 - 3 = 47 AgP).  In the spring France orders A PAR -
  BUR (A MAR and F BRE hold) and Germany A BER - MUN and A MUN - RUH (F KIE holds), ANN paying 2 AgP for A MUN
  - RUH too (45 AgP left).
- F1901M, by SMTP.  BOB orders France's A BUR H, A MAR - SPA and F BRE - MAO, 0 AgP each, and sends ahead
  ``A BUR - PIC`` for F1901R and ``BUILD F BRE``, ``BUILD A PAR`` for W1901A (he expects Spain, and Brest
  empty); in bourse a second mail replaces his F1901R block whole: ``A MAR - GAS``, ``A BUR - MUN | GAS``.
  ANN pays 1 AgP for F BRE H, more than BOB's 0 for F BRE - MAO (rule 3): the fleet stays (44 AgP left).
  CAT orders Germany's A MUN - BUR, A RUH S A MUN - BUR and F KIE - DEN, and sends ahead ``BUILD A BER`` for
  W1901A (in hold, then ``WAIT``).  CAT's is the last block awaited (ANN's offers are optional, E25): F1901M
  closes on it.  A BUR falls to the supported attack (strength 2 to 1); A MAR takes Spain, F KIE Denmark.
- F1901R opens with BOB's block read: A MAR is in Spain, so ``A MAR - GAS`` is left out, said so line by
  line; MUN, whence the attack came, is barred to A BUR, so ``A BUR - MUN | GAS`` is read as ``A BUR - GAS``
  (in hold, A BUR - PIC).  France alone must act, and has: the phase is due at once, and the clock's next
  tick closes it (a second on, the clock standing still), not the mail; its results say it was played from
  orders given ahead.
- W1901A: France owns BRE, MAR, PAR and SPA, 4 centres to 3 units, one build, in MAR or PAR: F BRE stayed,
  so ``BUILD F BRE`` is left out, said so line by line, and A PAR is built.  Germany owns BER, KIE, MUN and
  DEN to 3 units: one build, A BER.  Both CEOs wrote ahead: in bourse the phase closes at the next tick, an
  hour on (a game is run once at a moment of the clock); in hold CAT's WAIT holds it past that tick to its
  deadline, and its results say some orders came ahead.

Each step reads what stays once the clock's tick has come (`Running.ticked`): a phase due at once is run by
the daemon's own tick a second after it opens, so what a test reads of it before then depends on the
machine's speed.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import pytest

from tests.games.exchange.by_mail import address, exchange_game, game_row, send_as
from tests.support.ahead_by_smtp import blocks, lines, runs, send, to_deadline
from tests.support.forms_by_smtp import Mail, Served, answers
from tests.support.harness import Judge

GAMES = ("bourse", "hold")
"""The story's two games (see the module's header): hold's W1901A waits, bourse's does not."""
SPRING = {
    "ANN": ("2 : A MUN - RUH",),
    "BOB": ("FOR FRANCE", "WORTH PAR 24 MAR 14 BRE 10", "ACCEPT F?", "0 : A PAR - BUR", "0 : A MAR H", "0 : F BRE H",
            "END"),
    "CAT": ("FOR GERMANY", "0 : F KIE H", "0 : A BER - MUN", "0 : A MUN - RUH", "END"),
}
"""Each investor's S1901M sheet, sent in process (`elected`)."""
FALL = {
    "BOB": ("FOR FRANCE", "0 : A BUR H", "0 : A MAR - SPA", "0 : F BRE - MAO", "END",
            "PHASE F1901R", "FOR FRANCE", "A BUR - PIC", "END",
            "PHASE W1901A", "FOR FRANCE", "BUILD F BRE", "BUILD A PAR", "END"),
    "ANN": ("1 : F BRE H",),
    "CAT": ("FOR GERMANY", "0 : A MUN - BUR", "0 : A RUH S A MUN - BUR", "0 : F KIE - DEN", "END",
            "PHASE W1901A", "FOR GERMANY", "BUILD A BER", "END"),
}
"""Each investor's mail in F1901M, in the order sent: its sheet, then its blocks (in hold, CAT's ends with WAIT)."""
BOB_AGAIN = ("PHASE F1901R", "FOR FRANCE", "A MAR - GAS", "A BUR - MUN | GAS", "END")
"""BOB's second mail in bourse's F1901M, sent before ANN's: it replaces his F1901R block."""


def signon(name: str, game: str) -> str:
    return f"SIGNON {name}@{game} pw-{name.lower()}"


def elected(judge: Judge, game: str) -> None:
    """``game`` played in process to F1901M: the worked year's W1900X, then `SPRING`."""
    send_as(judge, game, "ANN", "BID 6 FRANCE AT 5", "BID 2 GERMANY AT 3", "ELECT FRANCE ME", "ELECT GERMANY CAT")
    send_as(judge, game, "BOB", "PRIORITY 2", "BID 5 FRANCE AT 5", "BID 5 GERMANY AT 4", "ELECT FRANCE ME",
            "ELECT GERMANY ME")
    send_as(judge, game, "CAT", "PRIORITY 3", "BID 4 GERMANY AT 4", "BID 3 FRANCE AT 6", "ELECT GERMANY ME",
            "ELECT FRANCE ME")
    for name, sheet in SPRING.items():
        send_as(judge, game, name, *sheet)
    assert game_row(judge, game) == ("active", "F1901M")


@dataclass(frozen=True)
class Story:
    """What the daemon did with the story of the module's header: its answers to each mail sent (by name),
    every mail it sent, each game's phase at each step (by step), bourse's blocks waiting in F1901M and what
    the clock did to each game (`runs`)."""

    replies: dict[str, Mail]
    mails: list[Mail]
    phases: dict[str, dict[str, str | None]]
    blocks: dict[tuple[str, str], str]
    runs: dict[str, list[str]]

    def to(self, name: str, subject: str) -> str:
        """The text of the one mail to investor ``name`` with ``subject``."""
        [body] = [mail.body for mail in self.mails if mail.to == address(name) and mail.subject == subject]
        return body

    def answered(self, name: str) -> dict[str, str]:
        """What the daemon made of each line of the mail ``name``: its outcome by the line."""
        return {answer.text: answer.outcome for answer in answers(self.replies[name])}


@pytest.fixture(scope="module")
def story(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Story]:
    """The module's story played by SMTP through one daemon (few phases: the suite is CPU-bound)."""
    judge = Judge(tmp_path_factory.mktemp("ahead"))
    for game in GAMES:
        exchange_game(judge, game, order=("ANN", "BOB", "CAT"))
        elected(judge, game)
    served = Served(judge)
    try:
        replies: dict[str, Mail] = {}
        phases: dict[str, dict[str, str | None]] = {}
        kept: dict[tuple[str, str], str] = {}
        for game in GAMES:
            begun = {name: served.opened(address(name), f"{game} S1901M results") for name in FALL}
            for name, written in FALL.items():
                if name == "CAT" and game == "bourse":
                    kept = blocks(served, game)
                sent = (*written, "WAIT") if game == "hold" and name == "CAT" else written
                replies[f"{name} {game}"] = send(served, address(name), begun[name], signon(name, game), sent)
                if name == "BOB" and game == "bourse":
                    replies["BOB again"] = send(served, address(name), begun[name], signon(name, game), BOB_AGAIN)
        served.opened(address("BOB"), "bourse: your lines for F1901R, read now")
        served.opened(address("BOB"), "hold: your lines for F1901R, read now")
        served.running.ticked()  # the next tick, the clock standing still
        served.opened(address("CAT"), "bourse: your lines for W1901A, read now")
        served.opened(address("CAT"), "hold: your lines for W1901A, read now")
        phases["retreats tick"] = {game: served.phase(game) for game in GAMES}
        served.deadline(1)
        served.running.settled()
        phases["adjustments tick"] = {game: served.phase(game) for game in GAMES}
        served.deadline(to_deadline(served, "hold"))
        served.opened(address("CAT"), "hold W1901A results")
        phases["deadline"] = {game: served.phase(game) for game in GAMES}
        yield Story(replies, served.read(), phases, kept, {game: runs(served, game) for game in GAMES})
    finally:
        served.stop()


# -- one mail: the sheet now and the blocks ahead -----------------------------------------------------------------


def test_one_mail_carries_the_fall_block_and_the_retreat_and_adjustment_blocks(story: Story) -> None:
    assert all(story.answered("BOB bourse")[f"PHASE {phase}"] == "ok" for phase in ("F1901R", "W1901A"))
    assert story.blocks[("BOB", "W1901A")] == "FOR FRANCE\nBUILD F BRE\nBUILD A PAR\nEND"
    results = story.to("ANN", "bourse F1901M results")
    assert "France: A BUR H (fails: dislodged)\n  France: A MAR - SPA\n  France: F BRE H\n" in results


def test_a_later_mail_replaces_a_block_whole_and_leaves_the_sheet_and_the_other_block(story: Story) -> None:
    """BOB's second mail holds a block alone: his F1901M sheet stands (A MAR went to Spain)."""
    assert "replaces the block you sent for it before" in story.replies["BOB again"].body
    assert story.blocks[("BOB", "F1901R")] == "FOR FRANCE\nA MAR - GAS\nA BUR - MUN | GAS\nEND"
    assert ("BOB", "W1901A") in story.blocks


def test_no_line_an_investor_wrote_is_refused(story: Story) -> None:
    for name in story.replies:
        assert [answer for answer in answers(story.replies[name]) if answer.outcome != "ok"] == [], name


# -- retreats and adjustments every CEO that must act wrote ahead -------------------------------------------------


def test_a_retreat_and_an_adjustment_phase_every_ceo_wrote_ahead_close_at_the_next_tick(story: Story) -> None:
    assert story.phases["retreats tick"] == {"bourse": "W1901A", "hold": "W1901A"}
    assert story.phases["adjustments tick"]["bourse"] == "W1901X"
    assert story.runs["bourse"][:2] == ["bourse F1901R processed; next W1901A",
                                        "bourse W1901A processed; next W1901X"]  # the clock's, not the mail's
    for name in ("ANN", "BOB", "CAT"):
        for phase in ("F1901R", "W1901A"):
            assert f"{phase} was played from orders given ahead" in story.to(name, f"bourse {phase} results")


def test_a_retreat_block_overtaken_by_the_movement_is_answered_line_by_line_when_its_phase_opens(
        story: Story) -> None:
    """A MAR went to Spain; A BUR fell, and may not retreat to MUN, whence Germany came: GAS is taken."""
    read = story.to("BOB", "bourse: your lines for F1901R, read now")
    assert "Your line 'A BUR - MUN | GAS' was read as 'A BUR - GAS'" in read
    assert "> A MAR - GAS\n  IGNORED: not applied: there is no unit there\n> A BUR - GAS\n  OK:" in read
    assert "Orders:\n  France: A BUR - GAS\n" in story.to("CAT", "bourse F1901R results")
    assert "Orders:\n  France: A BUR - PIC\n" in story.to("CAT", "hold F1901R results")


def test_3_a_build_on_a_centre_a_bribe_kept_filled_is_answered_line_by_line_when_its_phase_opens(
        story: Story) -> None:
    """ANN's 1 AgP kept F BRE in Brest: France's one build is A PAR, written second; Germany's is A BER."""
    read = story.to("BOB", "bourse: your lines for W1901A, read now")
    assert "> BUILD F BRE\n  IGNORED: not applied: that province is occupied\n" \
           "> BUILD A PAR\n  OK: read as: BUILD A PAR\n" in read
    assert "> BUILD A BER\n  OK: read as: BUILD A BER\n" in story.to("CAT", "bourse: your lines for W1901A, read now")
    results = story.to("ANN", "bourse W1901A results")
    assert "Orders:\n  France: BUILD A PAR\n  Germany: BUILD A BER\n" in results
    assert "France (CEO BOB): 4 centers, units: A GAS, A PAR, A SPA, F BRE" in results


def test_E40_a_block_reaches_no_other_investor_before_its_phase_opens(story: Story) -> None:
    """BOB's lines as he wrote them, each a line of its own (or echoed, ``> ``), are read by him alone; the
    game master reads none either."""
    for line in ("A BUR - MUN | GAS", "A MAR - GAS", "BUILD F BRE", "A BUR - PIC"):
        assert {mail.to for mail in story.mails if line in lines(mail)} == {address("BOB")}, line


# -- WAIT ---------------------------------------------------------------------------------------------------------


def test_a_wait_in_a_block_holds_its_phase_to_the_deadline(story: Story) -> None:
    assert story.phases["adjustments tick"]["hold"] == "W1901A" and story.phases["deadline"]["hold"] == "W1901X"
    assert "> WAIT\n  OK: W1901A will wait for its deadline" in story.to("CAT", "hold: your lines for W1901A, read now")
    results = story.to("ANN", "hold W1901A results")
    assert "Some orders of W1901A were given ahead" in results
    assert "Orders:\n  France: BUILD A PAR\n  Germany: BUILD A BER\n" in results
