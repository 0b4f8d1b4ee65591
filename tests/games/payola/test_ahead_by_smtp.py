"""Payola's orders for later phases sent by SMTP through `judge serve`: France sends in one mail its F1901M
offer sheet and a block for each of the next three phases (``PHASE F1901R``, ``PHASE W1901A``, ``PHASE
S1902M``); the daemon keeps them, reads each when its phase opens, and closes a phase every power that must act
wrote ahead at its next tick, unless a power asked WAIT.

The story, worked out by hand on the standard board teleported to Fall 1901 (France Alice, Germany Bob, England
Carol; the other powers have no units), played once by one daemon (`story`):

- F1901M.  France holds A BUR, A MAR and F BRE and owns PAR, BRE, MAR and BEL; Germany holds A MUN and A RUH
  (MUN, KIE), England F NTH (LON).  France's one mail: its sheet, 1 AgP for each unit to hold, and the blocks
  ``A BUR - PIC`` (F1901R), ``BUILD A PAR`` (W1901A, France expecting 4 centres to 3 units) and, for S1902M,
  a hold for each unit it expects (A MAR, F BRE, A GAS).  A second mail replaces its F1901R block whole:
  ``A MAR - GAS`` and ``A BUR - MUN | GAS``.  Germany pays 2 for A MUN - BUR and 2 for A RUH S A MUN - BUR, with
  an S1902M block; England pays 1 for F NTH - BEL, with ``BUILD F LON`` for W1901A and an S1902M block ending
  with ``WAIT``.  England's is the last sheet: F1901M closes on it.  A BUR falls to the supported attack
  (strength 2 to 1); F NTH takes the empty Belgium.
- F1901R opens with France's block read: A MAR was not dislodged, so ``A MAR - GAS`` is left out, said so line
  by line; MUN, where the attack came from, is no retreat for A BUR, and BEL is England's now, so ``A BUR -
  MUN | GAS`` is read as ``A BUR - GAS``.  France alone must act, and has: the phase is due at once, and the
  clock's next tick closes it (a second on, the clock standing still), not the mail; its results say it was
  played from orders given ahead.
- W1901A: France owns PAR, BRE and MAR (Belgium lost) with 3 units, so no build: its ``BUILD A PAR``, written
  for 4 centres, is left out, said so line by line.  England owns LON and BEL with one unit: one build, its
  block's F LON.  England alone must act, and has: the phase closes at the next tick too, an hour on (a game is
  run once at a moment of the clock).
- S1902M: every power's sheet came ahead, but England's WAIT holds the phase: the next tick leaves it open,
  and it is played at its deadline.

Each step reads what stays once the clock's tick has come (`Running.ticked`): a phase due at once is run by
the daemon's own tick a second after it opens, so what a test reads of it before then depends on the
machine's speed.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import pytest

from tests.games.payola.by_mail import start, teleport
from tests.support.ahead_by_smtp import blocks, lines, runs, send, to_deadline
from tests.support.forms_by_smtp import Mail, Served, answers
from tests.support.harness import Judge
from tests.support.people import ALICE, BOB, CAROL

FALL = {"phase": "F1901M",
        "units": {"FRANCE": ["A BUR", "A MAR", "F BRE"], "GERMANY": ["A MUN", "A RUH"], "ENGLAND": ["F NTH"]},
        "centers": {"FRANCE": ["PAR", "BRE", "MAR", "BEL"], "GERMANY": ["MUN", "KIE"], "ENGLAND": ["LON"]}}
SIGNON = {ALICE: "SIGNON F@g1 alice-pw", BOB: "SIGNON G@g1 bob-pw", CAROL: "SIGNON E@g1 carol-pw"}
FRANCE = ("1 : A BUR H", "1 : A MAR H", "1 : F BRE H", "PHASE F1901R", "A BUR - PIC", "PHASE W1901A",
          "BUILD A PAR", "PHASE S1902M", "1 : A MAR H", "1 : F BRE H", "1 : A GAS H")
FRANCE_AGAIN = ("PHASE F1901R", "A MAR - GAS", "A BUR - MUN | GAS")
GERMANY = ("2 : A MUN - BUR", "2 : A RUH S A MUN - BUR", "PHASE S1902M", "1 : A BUR H", "1 : A RUH H")
ENGLAND = ("1 : F NTH - BEL", "PHASE W1901A", "BUILD F LON", "PHASE S1902M", "1 : F BEL H", "1 : F LON H", "WAIT")
"""Each power's mails in F1901M: its sheet, then its blocks (see the module's header)."""


@dataclass(frozen=True)
class Story:
    """What the daemon did with the story of the module's header: its answers to each mail sent (by name),
    every mail it sent, what the game held at each step (by step) and what the clock did to it (`runs`)."""

    replies: dict[str, Mail]
    mails: list[Mail]
    phases: dict[str, str | None]
    blocks: dict[str, dict[tuple[str, str], str]]
    runs: list[str]

    def to(self, address: str, subject: str) -> str:
        """The text of the one mail to ``address`` with ``subject``."""
        [body] = [mail.body for mail in self.mails if mail.to == address and mail.subject == subject]
        return body

    def answered(self, name: str) -> dict[str, str]:
        """What the daemon made of each line of the mail ``name``: its outcome by the line."""
        return {answer.text: answer.outcome for answer in answers(self.replies[name])}


@pytest.fixture(scope="module")
def story(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Story]:
    """The module's story played by SMTP through one daemon (few phases: the suite is CPU-bound)."""
    judge = start(Judge(tmp_path_factory.mktemp("ahead")))
    teleport(judge, FALL)
    served = Served(judge)
    try:
        replies: dict[str, Mail] = {}
        phases: dict[str, str | None] = {}
        kept: dict[str, dict[tuple[str, str], str]] = {}
        begun = {address: served.opened(address, "g1 starts") for address in SIGNON}
        replies["France"] = send(served, ALICE, begun[ALICE], SIGNON[ALICE], FRANCE)
        replies["France again"] = send(served, ALICE, begun[ALICE], SIGNON[ALICE], FRANCE_AGAIN)
        replies["Germany"] = send(served, BOB, begun[BOB], SIGNON[BOB], GERMANY)
        kept["fall"] = blocks(served, "g1")
        replies["England"] = send(served, CAROL, begun[CAROL], SIGNON[CAROL], ENGLAND)
        served.opened(ALICE, "g1: your lines for F1901R, read now")
        served.running.ticked()  # the next tick, the clock standing still
        served.opened(CAROL, "g1: your lines for W1901A, read now")
        phases["retreats tick"] = served.phase("g1")
        served.deadline(1)
        served.opened(CAROL, "g1: your lines for S1902M, read now")
        phases["adjustments tick"], kept["spring"] = served.phase("g1"), blocks(served, "g1")
        served.deadline(1)
        served.running.settled()
        phases["spring tick"] = served.phase("g1")
        served.deadline(to_deadline(served, "g1"))
        served.opened(CAROL, "g1 S1902M results")
        phases["deadline"] = served.phase("g1")
        yield Story(replies, served.read(), phases, kept, runs(served, "g1"))
    finally:
        served.stop()


# -- one mail: the sheet now and the blocks ahead -----------------------------------------------------------------


def test_one_mail_carries_the_fall_sheet_and_a_block_for_each_of_the_next_three_phases(story: Story) -> None:
    assert story.answered("France")["1 : A BUR H"] == "ok"
    assert all(story.answered("France")[f"PHASE {phase}"] == "ok" for phase in ("F1901R", "W1901A", "S1902M"))
    assert {phase for (power, phase) in story.blocks["fall"] if power == "FRANCE"} == {"F1901R", "W1901A", "S1902M"}
    assert story.blocks["fall"][("FRANCE", "S1902M")] == "1 : A MAR H\n1 : F BRE H\n1 : A GAS H"
    assert story.blocks["spring"] == {}


def test_a_later_mail_replaces_a_block_whole_and_leaves_the_other_phases_blocks(story: Story) -> None:
    assert "replaces the block you sent for it before" in story.replies["France again"].body
    assert story.blocks["fall"][("FRANCE", "F1901R")] == "A MAR - GAS\nA BUR - MUN | GAS"
    assert story.blocks["fall"][("FRANCE", "W1901A")] == "BUILD A PAR"


def test_no_line_a_power_wrote_is_refused(story: Story) -> None:
    for name in ("France", "France again", "Germany", "England"):
        assert [answer for answer in answers(story.replies[name]) if answer.outcome != "ok"] == [], name


# -- retreats and adjustments every power that must act wrote ahead -----------------------------------------------


def test_a_retreat_and_an_adjustment_phase_every_power_wrote_ahead_close_at_the_next_tick(story: Story) -> None:
    assert story.phases["retreats tick"] == "W1901A" and story.phases["adjustments tick"] == "S1902M"
    assert story.runs[:2] == ["g1 F1901R processed; next W1901A", "g1 W1901A processed; next S1902M"]  # the clock's
    for address in SIGNON:
        for phase in ("F1901R", "W1901A"):
            assert f"{phase} was played from orders given ahead" in story.to(address, f"g1 {phase} results")


def test_a_retreat_block_overtaken_by_the_movement_is_answered_line_by_line_when_its_phase_opens(
        story: Story) -> None:
    """A MAR stood; A BUR fell, and may not retreat to MUN, whence Germany came: its alternative GAS is taken."""
    read = story.to(ALICE, "g1: your lines for F1901R, read now")
    assert "Your line 'A BUR - MUN | GAS' was read as 'A BUR - GAS'" in read
    assert "> A MAR - GAS\n  IGNORED: not applied: only dislodged units are ordered in a retreat phase\n" \
           "> A BUR - GAS\n  OK: A BUR - GAS\n" in read
    assert "Orders:\n  France: A BUR - GAS\n\nThe board for W1901A:" in story.to(BOB, "g1 F1901R results")


def test_a_build_block_for_a_centre_the_movement_lost_is_answered_line_by_line_when_its_phase_opens(
        story: Story) -> None:
    """Belgium went to England: France's 3 centres to 3 units allow no build, England's 2 to 1 one."""
    read = story.to(ALICE, "g1: your lines for W1901A, read now")
    assert "> BUILD A PAR\n  IGNORED: not applied: this power has no builds or removals to make\n" in read
    assert "> BUILD F LON\n  OK: BUILD F LON\n" in story.to(CAROL, "g1: your lines for W1901A, read now")
    results = story.to(BOB, "g1 W1901A results")
    assert "Orders:\n  England: BUILD F LON\n\nThe board for S1902M:" in results
    assert "England: 2 centers, 2 units: F BEL, F LON" in results
    assert "France: 3 centers, 3 units: A GAS, A MAR, F BRE" in results


def test_a_block_reaches_no_other_power_before_its_phase_opens(story: Story) -> None:
    """France's lines as it wrote them, each a line of its own (or echoed, ``> ``), are read by France alone;
    the game master reads none either."""
    for line in ("A BUR - MUN | GAS", "A MAR - GAS", "BUILD A PAR", "A BUR - PIC"):
        assert {mail.to for mail in story.mails if line in lines(mail)} == {ALICE}, line


# -- WAIT ---------------------------------------------------------------------------------------------------------


def test_a_wait_in_a_block_holds_its_phase_to_the_deadline(story: Story) -> None:
    assert story.phases["spring tick"] == "S1902M" and story.phases["deadline"] == "F1902M"
    assert "WAIT\n  OK: S1902M will wait for its deadline" in story.to(CAROL, "g1: your lines for S1902M, read now")
    results = story.to(BOB, "g1 S1902M results")
    assert "Some orders of S1902M were given ahead" in results
    assert "England: F LON H\n  France: A GAS H\n  France: A MAR H\n  France: F BRE H\n  Germany: A BUR H" in results
