"""Letters for later phases sent by SMTP through `judge serve`: each country sends in one mail its spring letter
and a block for each of the next two campaigns (``PHASE SP1454C``, ``PHASE SU1454C``); the daemon keeps them,
reads each when its phase opens, and closes a campaign every country wrote ahead at its next tick, unless a
country asked WAIT.

The story, worked out by hand on the classic board of 1454 (Florence ann, Milan bob, Venice cy, the other five
countries dummies; 15 ducats each, 3 a unit kept, A.7), played once by one daemon (`story`):

- SP1454A, each country's one mail.  Florence pays A flo and A are and leaves F psa off, which is disbanded
  (7.1, M12): 15 - 3 - 3 = 9 ducats; its SP1454C block, written with 15 ducats in hand, is ``F psa H``,
  ``bodyguard 12``, ``A flo - pst``; its SU1454C block ``A pst H``.  Milan pays A mil (A cre and A pav are
  disbanded): 15 - 3 = 12; blocks ``A mil H`` for SP1454C and ``A mil - pav`` for SU1454C, then a second mail,
  still in SP1454A, whose SU1454C block ``A mil H`` replaces the first whole (its SP1454C block stays).  Venice
  pays G ven: 15 - 3 = 12; blocks ``G ven H`` for SP1454C, ``G ven H`` and ``WAIT`` for SU1454C.  Venice's is
  the last spring letter: SP1454A closes on it and SP1454C opens, each block for it read as its country's letter
  then, answered to its country alone.
- SP1454C: every awaited letter came ahead, so the phase is due at once, and the clock's next tick closes it
  (a second on, the clock standing still), not the mail, nor its deadline.  F psa is gone: the mail that
  reads Florence's block warns of its order line by line, and the order is ignored (8.2); bodyguard 12 is
  more than Florence's 9 ducats: not carried out, not charged (M30), Florence 9 before and 9 after.  A flo -
  pst advances (Pistoia is empty).
- SU1454C: every awaited letter came ahead again, but Venice's WAIT holds the phase: the next tick leaves it
  open.  Milan's block (``A mil H``) is its first letter, the replaced one never counted: its mail
  ``A mil - pav`` is its one correction (letter 2), a third letter is refused (17.1, M35).  At the deadline the
  phase closes: A mil advances to Pavia (empty since the spring), and the results say some letters came ahead.

Each step reads what stays once the clock's tick has come (`Running.ticked`): a phase due at once is run by
the daemon's own tick a second after it opens, so what a test reads of it before then depends on the
machine's speed.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from sqlalchemy import select

from judge.games.machiavelli import lifecycle
from judge.store.models import Game
from tests.service.every_kind import MACHIAVELLI
from tests.support.ahead_by_smtp import blocks, runs, to_deadline
from tests.support.forms_by_smtp import Mail, Served, answers
from tests.support.harness import Judge

PLAYERS = {"Florence": "ann", "Milan": "bob", "Venice": "cy"}
SPRING = {
    "Florence": ("pay A flo", "pay A are", "PHASE SP1454C", "F psa H", "bodyguard 12", "A flo - pst",
                 "PHASE SU1454C", "A pst H"),
    "Milan": ("pay A mil", "PHASE SP1454C", "A mil H", "PHASE SU1454C", "A mil - pav"),
    "Venice": ("pay G ven", "PHASE SP1454C", "G ven H", "PHASE SU1454C", "G ven H", "WAIT"),
}
"""Each country's one mail in SP1454A: its spring letter, then its blocks (see the module's header)."""
MILAN_AGAIN = ("PHASE SU1454C", "A mil H")
"""Milan's second mail in SP1454A: it replaces its SU1454C block."""


def address(country: str) -> str:
    return f"{PLAYERS[country]}@example.org"


def signon(country: str) -> str:
    return f"SIGNON {country}@m1 pw-{PLAYERS[country]}"


@dataclass(frozen=True)
class Story:
    """What the daemon did with the story of the module's header: its answers to each mail sent (by name),
    every mail it sent, what the game held at each step (by step) and what the clock did to it (`runs`)."""

    replies: dict[str, Mail]
    mails: list[Mail]
    phases: dict[str, str | None]
    blocks: dict[str, dict[tuple[str, str], str]]
    letters: dict[str, dict[str, tuple[list[str], int]]]
    runs: list[str]

    def to(self, country: str, subject: str) -> str:
        """The text of the one mail to ``country`` with ``subject``."""
        [body] = [mail.body for mail in self.mails if mail.to == address(country) and mail.subject == subject]
        return body

    def answered(self, name: str) -> dict[str, str]:
        """What the daemon made of each line of the mail ``name``: its outcome by the line."""
        return {answer.text: answer.outcome for answer in answers(self.replies[name])}


def send(served: Served, country: str, to: Mail, lines: tuple[str, ...]) -> Mail:
    """``lines`` from ``country``, signed on, sent by SMTP as an answer to ``to``; the daemon's answer."""
    return served.reply(address(country), to, "\n".join((signon(country), *lines)))


def letters(served: Served, phase: str) -> dict[str, tuple[list[str], int]]:
    """Each country's letter standing in ``phase`` of m1: its orders and its number (2: a correction)."""
    with served.running.daemon.db.transaction() as session:
        game = session.scalars(select(Game).where(Game.name == "m1")).one()
        return {country: (list(kept.parsed["orders"]), int(kept.parsed["number"]))
                for country, kept in lifecycle.letters_of(session, game, phase).items()}


@pytest.fixture(scope="module")
def story(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Story]:
    """The module's story played by SMTP through one daemon (few phases: the suite is CPU-bound)."""
    served = Served(MACHIAVELLI.begin(Judge(tmp_path_factory.mktemp("ahead"))))
    try:
        replies: dict[str, Mail] = {}
        phases: dict[str, str | None] = {}
        kept: dict[str, dict[tuple[str, str], str]] = {}
        standing: dict[str, dict[str, tuple[list[str], int]]] = {}
        start = {country: served.opened(address(country), "m1 starts") for country in PLAYERS}
        for country in ("Florence", "Milan"):
            replies[country] = send(served, country, start[country], SPRING[country])
        replies["Milan again"] = send(served, "Milan", start["Milan"], MILAN_AGAIN)
        kept["spring"] = blocks(served, "m1")
        replies["Venice"] = send(served, "Venice", start["Venice"], SPRING["Venice"])
        for country in PLAYERS:
            served.opened(address(country), "m1: your lines for SP1454C, read now")
        standing["SP1454C"] = letters(served, "SP1454C")
        served.running.ticked()  # the next tick, the clock standing still
        summer = {country: served.opened(address(country), "m1: your lines for SU1454C, read now")
                  for country in PLAYERS}
        phases["first tick"], kept["summer"] = served.phase("m1"), blocks(served, "m1")
        standing["SU1454C first"] = letters(served, "SU1454C")
        served.deadline(1)
        served.running.settled()
        phases["second tick"] = served.phase("m1")
        replies["correction"] = send(served, "Milan", summer["Milan"], ("A mil - pav",))
        replies["third"] = send(served, "Milan", summer["Milan"], ("A mil H",))
        phases["letters"], standing["SU1454C"] = served.phase("m1"), letters(served, "SU1454C")
        served.deadline(to_deadline(served, "m1"))
        served.opened(address("Milan"), "m1 SU1454C results")
        phases["deadline"] = served.phase("m1")
        yield Story(replies, served.read(), phases, kept, standing, runs(served, "m1"))
    finally:
        served.stop()


# -- one mail: the letter now and the blocks ahead ----------------------------------------------------------------


def test_one_mail_carries_the_spring_letter_and_a_block_for_each_of_the_next_two_campaigns(story: Story) -> None:
    assert story.answered("Florence")["PHASE SU1454C"] == "ok"
    assert story.letters["SP1454C"]["Florence"] == (["F psa H", "bodyguard 12", "A flo - pst"], 1)
    assert story.blocks["spring"][("Florence", "SU1454C")] == "A pst H"
    assert story.blocks["summer"] == {}


def test_a_later_mail_replaces_a_block_whole_and_leaves_the_other_phase_s_block(story: Story) -> None:
    assert story.answered("Milan again") == {signon("Milan").replace("pw-bob", "****"): "ok",
                                             "PHASE SU1454C": "ok", "A mil H": "ok"}
    assert "replaces the block you sent for it before" in story.replies["Milan again"].body
    assert {phase: text for (country, phase), text in story.blocks["spring"].items() if country == "Milan"} == \
        {"SP1454C": "A mil H", "SU1454C": "A mil H"}


# -- a campaign every country wrote ahead -------------------------------------------------------------------------


def test_a_campaign_every_country_wrote_ahead_closes_at_the_next_tick(story: Story) -> None:
    assert story.phases["first tick"] == "SU1454C"
    assert story.runs[0] == "m1 SP1454C processed; next SU1454C"  # the clock's, not Venice's mail's
    for country in PLAYERS:
        assert "SP1454C was played from orders given ahead" in story.to(country, "m1 SP1454C results")


def test_8_2_M30_a_block_overtaken_by_the_spring_is_answered_line_by_line_when_its_campaign_opens(
        story: Story) -> None:
    """F psa, disbanded in the spring, is warned of in the mail that reads Florence's block; bodyguard 12, within
    the 15 ducats Florence had when it wrote the block, is more than its 9 then (M30)."""
    read = story.to("Florence", "m1: your lines for SP1454C, read now")
    assert "> F psa H\n  OK: read as: F psa H\n  WARNING: no F psa stands there" in read
    assert "> bodyguard 12\n  OK: read as: bodyguard 12\n> A flo - pst\n" in read
    results = story.to("Florence", "m1 SP1454C results")
    assert "Your treasury: 9 ducats before, 9 ducats now." in results
    assert "bodyguard 12 (D.2): not carried out, not charged: could not be paid in full" in results
    assert "F psa H: no such unit stands there: the order is ignored (8.2)" in results
    assert "Florence A Florence (flo) - Pistoia (pst): advanced" in results


def test_8_1_M66_florence_s_expenditure_sent_ahead_reaches_no_other_country(story: Story) -> None:
    """Its bodyguard, an expenditure, is never disclosed: no mail to Milan or Venice names it, neither while the
    block waits nor in the results; the game master reads it only in the results, with every statement."""
    named = [(mail.to, mail.subject) for mail in story.mails if "bodyguard 12" in mail.body]
    assert {to for to, _ in named} == {address("Florence"), "gm@example.org"}
    assert [subject for to, subject in named if to == "gm@example.org"] == ["m1 SP1454C results"]


# -- WAIT, the one correction -------------------------------------------------------------------------------------


def test_a_wait_in_a_block_holds_its_campaign_to_the_deadline(story: Story) -> None:
    assert story.phases["second tick"] == story.phases["letters"] == "SU1454C"
    assert story.phases["deadline"] == "FA1454C"
    results = story.to("Milan", "m1 SU1454C results")
    assert "Some orders of SU1454C were given ahead" in results
    assert "Milan A Milan (mil) - Pavia (pav): advanced" in results


def test_17_1_M35_a_block_counts_as_the_first_letter_and_the_replaced_one_not_at_all(story: Story) -> None:
    """Milan's block is its SU1454C letter 1 as the phase opens; its mail then is the one correction (2); a third
    letter is refused and the correction stands."""
    assert story.letters["SU1454C first"]["Milan"] == (["A mil H"], 1)
    assert story.answered("correction")["A mil - pav"] == "ok"
    assert story.answered("third")["A mil H"] == "ignored"
    assert story.letters["SU1454C"]["Milan"] == (["A mil - pav"], 2)


def test_no_line_a_country_wrote_is_refused(story: Story) -> None:
    for name in ("Florence", "Milan", "Milan again", "Venice", "correction"):
        assert [answer for answer in answers(story.replies[name]) if answer.outcome != "ok"] == [], name
