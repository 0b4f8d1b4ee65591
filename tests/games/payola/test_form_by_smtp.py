"""Payola's forms answered by SMTP through `judge serve`, one phase of each type, as mail clients answer them:
the whole mail quoted under a form filled in part, the mail quoted and nothing else, the form filled
unquoted.  No line is refused that a player did not write, every line written is applied (the next
phase's forms show the units where the orders sent them), a reply with nothing of the player's applies
nothing.

The story, worked out by hand on the standard board (France Alice, Germany Bob, England Carol, the other
powers dummies whose units hold):

- S1901M: France offers 2 for A PAR - BUR (quoted, the rest of its form left); Germany fills its whole form
  (A BER - MUN, A MUN - RUH, F KIE - DEN, unquoted); England sends only the mail quoted.  At the deadline
  each unit bribed goes where it was paid to.
- F1901M: Germany pays A RUH - BUR and A MUN S A RUH - BUR (quoted, F DEN left to hold); England fills its
  whole form (A LVP - YOR, F EDI - NWG, F LON - NTH, unquoted); France sends only the mail quoted.  A BUR
  is dislodged, two to one, and only France must retreat.
- F1901R: France retreats A BUR - PIC (quoted), the one power that must act: the phase closes at once.
- W1901A: Germany owns Denmark, 4 centres to 3 units, and builds A BER (unquoted), the one power that must
  act; Kiel is empty too, but one build is all it may order."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.games.payola.by_mail import start
from tests.support.forms_by_smtp import Served, answered, answers, quoted, refused, unquoted, untouched, written
from tests.support.harness import Judge
from tests.support.people import ALICE, BOB, CAROL


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    judge = Served(start(Judge(tmp_path)))
    yield judge
    judge.stop()


def sheet(served: Served, power: str, phase: str) -> str | None:
    return served.kept("g1", phase).get((power, "sheet"))


def test_every_payola_phase_type_answered_by_smtp_applies_what_each_player_wrote_and_nothing_else(
        served: Served) -> None:
    start_mail = {address: served.opened(address, "g1 starts") for address in (ALICE, BOB, CAROL)}
    spring = {"_ : A PAR H": "2 : A PAR - BUR"}
    answer = served.reply(ALICE, start_mail[ALICE], quoted(start_mail[ALICE], "alice-pw", spring))
    assert refused(answer) == [] and answered(answer) == written(spring.values(), "SIGNON FRANCE@g1 alice-pw")
    assert sheet(served, "FRANCE", "S1901M") == "2 : A PAR - BUR"

    germany = {"_ : A BER H": "2 : A BER - MUN", "_ : A MUN H": "2 : A MUN - RUH", "_ : F KIE H": "2 : F KIE - DEN",
               "ACCEPT _": "ACCEPT G?", "_ $": "3 $"}
    answer = served.reply(BOB, start_mail[BOB], unquoted(start_mail[BOB], "bob-pw", germany))
    assert refused(answer) == [] and answered(answer) == written(germany.values(), "SIGNON GERMANY@g1 bob-pw")
    assert sheet(served, "GERMANY", "S1901M") == "2 : A BER - MUN\n2 : A MUN - RUH\n2 : F KIE - DEN\n3 $"

    answer = served.reply(CAROL, start_mail[CAROL], untouched(start_mail[CAROL]))
    assert answers(answer) == [] and sheet(served, "ENGLAND", "S1901M") is None

    served.deadline(49)
    fall = {address: served.opened(address, "g1 S1901M results") for address in (ALICE, BOB, CAROL)}
    assert {"_ : A BUR H", "_ : A MAR H", "_ : F BRE H"} <= set(fall[ALICE].form)  # A PAR went to Burgundy
    assert {"_ : A MUN H", "_ : A RUH H", "_ : F DEN H"} <= set(fall[BOB].form)
    assert {"_ : A LVP H", "_ : F EDI H", "_ : F LON H"} <= set(fall[CAROL].form)  # England's units held

    attack = {"_ : A RUH H": "3 : A RUH - BUR", "_ : A MUN H": "3 : A MUN S A RUH - BUR"}
    answer = served.reply(BOB, fall[BOB], quoted(fall[BOB], "bob-pw", attack))
    assert refused(answer) == [] and answered(answer) == written(attack.values(), "SIGNON GERMANY@g1 bob-pw")
    england = {"_ : A LVP H": "1 : A LVP - YOR", "_ : F EDI H": "1 : F EDI - NWG", "_ : F LON H": "1 : F LON - NTH",
               "ACCEPT _": "ACCEPT E?", "_ $": "2 $"}
    answer = served.reply(CAROL, fall[CAROL], unquoted(fall[CAROL], "carol-pw", england))
    assert refused(answer) == [] and answered(answer) == written(england.values(), "SIGNON ENGLAND@g1 carol-pw")
    answer = served.reply(ALICE, fall[ALICE], untouched(fall[ALICE]))
    assert answers(answer) == [] and sheet(served, "FRANCE", "F1901M") is None

    served.deadline(49)
    retreat = served.opened(ALICE, "g1 F1901M results")
    assert retreat.form[0] == "%% form for F1901R of g1, France"
    retreats = {line: "A BUR - PIC" for line in retreat.form if line.startswith("A BUR ")}
    answer = served.reply(ALICE, retreat, quoted(retreat, "alice-pw", retreats))
    assert refused(answer) == [] and answered(answer) == written(["A BUR - PIC"], "SIGNON FRANCE@g1 alice-pw")

    builds = served.opened(BOB, "g1 F1901R results")
    assert builds.form[0] == "%% form for W1901A of g1, Germany"
    build = {line: "BUILD A BER" for line in builds.form if line.startswith("BUILD ")}
    answer = served.reply(BOB, builds, unquoted(builds, "bob-pw", build))
    assert refused(answer) == [] and answered(answer) == written(["BUILD A BER"], "SIGNON GERMANY@g1 bob-pw")

    spring_1902 = {address: served.opened(address, "g1 W1901A results") for address in (ALICE, BOB)}
    assert "_ : A PIC H" in spring_1902[ALICE].form  # the retreat, applied
    assert {"_ : A BER H", "_ : A BUR H", "_ : A MUN H", "_ : F DEN H"} <= set(spring_1902[BOB].form)
