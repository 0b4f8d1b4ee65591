"""Pirates' Proposal's forms answered by SMTP through `judge serve`, one phase of each type, as mail clients
answer them: the whole mail quoted under a form filled in part, the mail quoted and nothing else, the form
filled unquoted.  No line is refused that a player did not write, every line written is applied, a reply
with nothing of the player's applies nothing.

The story, worked out by hand (seed 7: the rooms Ann and Cy, Bob and Dee; the packages Ann 50, Bob 20, Cy
40, Dee 30 gold; one garnet each, each spent adding 5 gold to share, P7; every phase closes at its
deadline, P10):

- D1: Ann plans 30 for herself and 20 for Cy (quoted, her GARNETS line left: none spent); Bob spends his
  garnet and plans 20 for himself and 5 for Dee, 25 gold in all (unquoted); Cy and Dee send only the mail
  quoted, so each has the default plan, the whole package to the other member of the room (P6).
- V1: Ann's ballot lists what she receives: her own plan 30, Cy's 40.  In a room of two a ballot is one
  Yes and one No (P3), both of the form's lines: Ann votes for Cy's plan (unquoted), Cy for his own
  (quoted), Dee for his own (unquoted); Bob sends only the mail quoted.
- D2 to V5 pass at their deadlines, and F: the richest player gives the extra Token of Life (quoted)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.games.pirates.by_mail import FOUR, address, pirates_game
from tests.support.forms_by_smtp import Served, answered, answers, quoted, refused, unquoted, untouched, written
from tests.support.harness import Judge

SEED = 7


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    judge = Served(pirates_game(Judge(tmp_path), FOUR, garnets=1, seed=SEED))
    yield judge
    judge.stop()


def signon(name: str) -> str:
    return f"SIGNON {name}@pp pw-{name.lower()}"


def notes(form: list[str]) -> str:
    """A form's notes as one text: each comment line's words, its ``%`` and wrapping undone."""
    return " ".join(" ".join(line.lstrip("%").split()) for line in form if line.startswith("% "))


def test_every_pirates_phase_type_answered_by_smtp_applies_what_each_player_wrote_and_nothing_else(
        served: Served) -> None:
    start = {name: served.opened(address(name), "pp starts") for name in FOUR}
    plan = {"PLAN ME _ Cy _": "PLAN ME 30 Cy 20"}
    answer = served.reply(address("Ann"), start["Ann"], quoted(start["Ann"], "pw-ann", plan))
    assert refused(answer) == [] and answered(answer) == written(plan.values(), signon("Ann"))
    bob = {"PLAN ME _ Dee _": "PLAN ME 20 Dee 5", "GARNETS _": "GARNETS 1"}
    answer = served.reply(address("Bob"), start["Bob"], unquoted(start["Bob"], "pw-bob", bob))
    assert refused(answer) == [] and answered(answer) == written(bob.values(), signon("Bob"))
    for name in ("Cy", "Dee"):
        assert answers(served.reply(address(name), start[name], untouched(start[name]))) == []
    kept = served.kept("pp", "D1")
    assert {seat for seat, _ in kept} == {"Ann", "Bob"}

    served.deadline(25)
    ballot = {name: served.opened(address(name), "pp D1 results") for name in FOUR}
    assert "What you receive under each plan of your room: your own 30 gold, Cy's 40 gold" in notes(ballot["Ann"].form)
    votes = {"VOTE _ ME": "VOTE NO ME", "VOTE _ Cy": "VOTE YES Cy"}
    answer = served.reply(address("Ann"), ballot["Ann"], unquoted(ballot["Ann"], "pw-ann", votes))
    assert refused(answer) == [] and answered(answer) == written(votes.values(), signon("Ann"))
    own = {"VOTE _ ME": "VOTE YES ME", "VOTE _ Ann": "VOTE NO Ann"}
    answer = served.reply(address("Cy"), ballot["Cy"], quoted(ballot["Cy"], "pw-cy", own))
    assert refused(answer) == [] and answered(answer) == written(own.values(), signon("Cy"))
    assert answers(served.reply(address("Bob"), ballot["Bob"], untouched(ballot["Bob"]))) == []
    dee = {"VOTE _ ME": "VOTE YES ME", "VOTE _ Bob": "VOTE NO Bob"}
    answer = served.reply(address("Dee"), ballot["Dee"], unquoted(ballot["Dee"], "pw-dee", dee))
    assert refused(answer) == [] and answered(answer) == written(dee.values(), signon("Dee"))
    assert {seat for seat, _ in served.kept("pp", "V1")} == {"Ann", "Cy", "Dee"}

    for phase in ("V1", "D2", "V2", "D3", "V3", "D4", "V4", "D5", "V5"):
        served.deadline(25)
        served.opened(address("Ann"), f"pp {phase} results")
    final = [mail for mail in served.read() if mail.subject == "pp V5 results" and "%% form for F of pp" in mail.body]
    assert len(final) == 1  # the richest player's alone (P11)
    richest = next(name for name in FOUR if address(name) == final[0].to)
    give = {"GIVE TOKEN _": f"GIVE TOKEN {next(name for name in FOUR if name != richest)}"}
    answer = served.reply(final[0].to, final[0], quoted(final[0], f"pw-{richest.lower()}", give))
    assert refused(answer) == [] and answered(answer) == written(give.values(), signon(richest))
    assert {seat for seat, _ in served.kept("pp", "F")} == {richest}
