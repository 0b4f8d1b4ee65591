"""Machiavelli's forms answered by SMTP through `judge serve`, one phase of each type, as mail clients answer
them: the whole mail quoted under a form filled in part, the mail quoted and nothing else, the form filled
unquoted.  No line is refused that a player did not write, every line written is applied (the next
phase's forms show the treasuries and units that follow), a reply with nothing of the player's applies
nothing.

The story, worked out by hand on the classic board of 1454 (Florence ann, Milan bob, Venice cy, the other
countries dummies; 15 ducats each, 3 a unit kept, A.7):

- SP1454A, the spring letter: Florence pays its three units (quoted: its transfer and raise lines left),
  15 - 9 = 6 ducats; Venice pays its four and transfers 1 ducat to Florence (unquoted), 15 - 12 - 1 = 2,
  Florence 7; Milan sends only the mail quoted, so each of its three units is paid as far as its treasury
  goes (M50), 15 - 9 = 6.  The phase closes at its deadline.
- SP1454C, the campaign letter: Milan orders A cre - pia (quoted, its other lines left: A mil and A pav
  hold); Venice orders each of its units (unquoted: A pad - trv, A ver - vic, F dal - ist, G ven H);
  Florence sends only the mail quoted, so its units hold.  Nobody else moves into those areas."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.service.every_kind import MACHIAVELLI
from tests.support.forms_by_smtp import Served, answered, answers, quoted, refused, unquoted, untouched, written
from tests.support.harness import Judge

PLAYERS = {"Florence": "ann", "Milan": "bob", "Venice": "cy"}


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    judge = Served(MACHIAVELLI.begin(Judge(tmp_path)))
    yield judge
    judge.stop()


def address(country: str) -> str:
    return f"{PLAYERS[country]}@example.org"


def signon(country: str) -> str:
    return f"SIGNON {country}@m1 pw-{PLAYERS[country]}"


def test_every_machiavelli_phase_type_answered_by_smtp_applies_what_each_player_wrote_and_nothing_else(
        served: Served) -> None:
    start = {country: served.opened(address(country), "m1 starts") for country in PLAYERS}
    florence = {"_ A are": "pay A are", "_ A flo": "pay A flo", "_ F psa": "pay F psa"}
    answer = served.reply(address("Florence"), start["Florence"], quoted(start["Florence"], "pw-ann", florence))
    assert refused(answer) == [] and answered(answer) == written(florence.values(), signon("Florence"))
    venice = {"transfer _ to _": "transfer 1 to Florence", "_ A pad": "pay A pad", "_ A ver": "pay A ver",
              "_ F dal": "pay F dal", "_ G ven": "pay G ven"}
    answer = served.reply(address("Venice"), start["Venice"], unquoted(start["Venice"], "pw-cy", venice))
    assert refused(answer) == [] and answered(answer) == written(venice.values(), signon("Venice"))
    assert answers(served.reply(address("Milan"), start["Milan"], untouched(start["Milan"]))) == []
    assert {seat for seat, _ in served.kept("m1", "SP1454A")} == {"Florence", "Venice"}

    served.deadline(73)
    campaign = {country: served.opened(address(country), "m1 SP1454A results") for country in PLAYERS}
    assert [campaign[country].form[3] for country in PLAYERS] == \
        ["% Treasury: 7 ducats.", "% Treasury: 6 ducats.", "% Treasury: 2 ducats."]
    assert {"A are _", "A flo _", "F psa _"} <= set(campaign["Florence"].form)  # every unit paid, none raised
    assert {"A cre _", "A mil _", "A pav _"} <= set(campaign["Milan"].form)
    milan = {"A cre _": "A cre - pia"}
    answer = served.reply(address("Milan"), campaign["Milan"], quoted(campaign["Milan"], "pw-bob", milan))
    assert refused(answer) == [] and answered(answer) == written(milan.values(), signon("Milan"))
    venice = {"A pad _": "A pad - trv", "A ver _": "A ver - vic", "F dal _": "F dal - ist", "G ven _": "G ven H"}
    answer = served.reply(address("Venice"), campaign["Venice"], unquoted(campaign["Venice"], "pw-cy", venice))
    assert refused(answer) == [] and answered(answer) == written(venice.values(), signon("Venice"))
    assert answers(served.reply(address("Florence"), campaign["Florence"], untouched(campaign["Florence"]))) == []
    assert {seat for seat, _ in served.kept("m1", "SP1454C")} == {"Milan", "Venice"}

    served.deadline(97)
    summer = {country: served.opened(address(country), "m1 SP1454C results") for country in PLAYERS}
    assert {"A are _", "A flo _", "F psa _"} <= set(summer["Florence"].form)
    assert {"A pia _", "A mil _", "A pav _"} <= set(summer["Milan"].form)
    assert {"A trv _", "A vic _", "F ist _", "G ven _"} <= set(summer["Venice"].form)
