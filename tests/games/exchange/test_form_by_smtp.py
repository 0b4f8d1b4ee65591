"""Exchange Payola's forms answered by SMTP through `judge serve`, as mail clients answer them: the whole
mail quoted under a form filled in part, the mail quoted and nothing else, the form filled unquoted.  No
line is refused that an investor did not write (a CEO's block's ``FOR`` and ``END`` lines are read, as the
form gives them, and refused never), every line written is applied, a reply with nothing of the investor's
applies nothing.

The story, worked out by hand on the standard board (ANN, BOB and CAT, 60 AgP each, in that investor
order):

- W1900X, the exchange phase: ANN bids for 3 shares of France at 5 AgP and votes BOB its CEO (quoted, her
  other lines left); BOB bids for 5 of France and 5 of Germany and votes himself CEO of both (unquoted,
  his PRIORITY and the other corporations' lines left); CAT sends only the mail quoted.  At the deadline
  ANN, first in the investor order, has bought 3 of France's pool of 10 at 5 AgP (60 - 15 = 45 AgP left),
  BOB 5 of France at 5 and 5 of Germany at 4 (60 - 25 - 20 = 15 AgP left), and he is elected CEO of both
  (E14).
- S1901M: BOB, France's CEO, orders A MAR - SPA and A PAR - BUR for nothing (quoted: F BRE's line,
  France's worths and Germany's block left); ANN offers 1 AgP for Italy's A VEN - TYR (unquoted, her one
  line); CAT sends only the mail quoted.
- F1901M: BOB orders France's A BUR - MUN and A SPA H (unquoted, Germany's block left: A MUN holds), CAT
  offers 1 AgP for A TYR S A BUR - MUN (quoted), ANN sends only the mail quoted: Germany's A MUN is
  dislodged, two to one.
- F1901R: BOB retreats it to RUH (quoted; MUN's other neighbours BUR, the attacker's, and KIE, BER and TYR,
  held, are closed), the one retreat: the phase closes at once.
- W1901A: France owns Spain and Munich, 5 centres to 3 units, and may build in PAR and MAR; Germany has
  2 centres for 3 units.  BOB builds A MAR for France (unquoted, France's other BUILD line and Germany's
  removal left: its unit is removed in civil disorder)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.games.exchange.by_mail import address, exchange_game
from tests.support.forms_by_smtp import Served, answered, answers, frames, quoted, refused, unquoted, untouched, written
from tests.support.harness import Judge

GAME = "bourse"


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    judge = Served(exchange_game(Judge(tmp_path), GAME, order=("ANN", "BOB", "CAT")))
    yield judge
    judge.stop()


def signon(name: str) -> str:
    return f"SIGNON {name}@{GAME} pw-{name.lower()}"


def notes(form: list[str]) -> str:
    """A form's notes as one text: each comment line's words, its ``%`` and wrapping undone."""
    return " ".join(" ".join(line.lstrip("%").split()) for line in form if line.startswith("% "))


def test_every_exchange_phase_type_answered_by_smtp_applies_what_each_investor_wrote_and_nothing_else(
        served: Served) -> None:
    start = {name: served.opened(address(name), f"{GAME} starts") for name in ("ANN", "BOB", "CAT")}
    ann = {"BID _ FRANCE AT _": "BID 3 FRANCE AT 5", "ELECT FRANCE _": "ELECT FRANCE BOB"}
    answer = served.reply(address("ANN"), start["ANN"], quoted(start["ANN"], "pw-ann", ann))
    assert refused(answer) == [] and answered(answer) == written(ann.values(), signon("ANN"))
    bob = {"BID _ FRANCE AT _": "BID 5 FRANCE AT 5", "BID _ GERMANY AT _": "BID 5 GERMANY AT 4",
           "ELECT FRANCE _": "ELECT FRANCE ME", "ELECT GERMANY _": "ELECT GERMANY ME"}
    answer = served.reply(address("BOB"), start["BOB"], unquoted(start["BOB"], "pw-bob", bob))
    assert refused(answer) == [] and answered(answer) == written(bob.values(), signon("BOB"))
    assert answers(served.reply(address("CAT"), start["CAT"], untouched(start["CAT"]))) == []
    assert {seat for seat, _ in served.kept(GAME, "W1900X")} == {"ANN", "BOB"}

    served.close(GAME, "W1900X", 49)
    spring = {name: served.opened(address(name), f"{GAME} W1900X results") for name in ("ANN", "BOB", "CAT")}
    assert "Your cash: 45 AgP." in notes(spring["ANN"].form) and "Your cash: 15 AgP." in notes(spring["BOB"].form)
    assert {"FOR FRANCE", "FOR GERMANY"} <= set(spring["BOB"].form)  # elected to run both
    orders = {"_ : A MAR H": "0 : A MAR - SPA", "_ : A PAR H": "0 : A PAR - BUR"}
    answer = served.reply(address("BOB"), spring["BOB"], quoted(spring["BOB"], "pw-bob", orders))
    assert refused(answer) == [] and answered(answer) - frames(spring["BOB"]) == written(orders.values(), signon("BOB"))
    offer = {"_ : _": "1 : A VEN - TYR"}
    answer = served.reply(address("ANN"), spring["ANN"], unquoted(spring["ANN"], "pw-ann", offer))
    assert refused(answer) == [] and answered(answer) == written(offer.values(), signon("ANN"))
    assert answers(served.reply(address("CAT"), spring["CAT"], untouched(spring["CAT"]))) == []
    assert {seat for seat, _ in served.kept(GAME, "S1901M")} == {"ANN", "BOB"}

    served.close(GAME, "S1901M", 49)
    fall = {name: served.opened(address(name), f"{GAME} S1901M results") for name in ("ANN", "BOB", "CAT")}
    assert {"_ : A SPA H", "_ : A BUR H", "_ : A MUN H"} <= set(fall["BOB"].form)  # France's orders, applied
    attack = {"_ : A BUR H": "0 : A BUR - MUN", "_ : A SPA H": "0 : A SPA H"}
    answer = served.reply(address("BOB"), fall["BOB"], unquoted(fall["BOB"], "pw-bob", attack))
    assert refused(answer) == [] and answered(answer) - frames(fall["BOB"]) == written(attack.values(), signon("BOB"))
    support = {"_ : _": "1 : A TYR S A BUR - MUN"}  # Italy's army, where ANN's offer sent it
    answer = served.reply(address("CAT"), fall["CAT"], quoted(fall["CAT"], "pw-cat", support))
    assert refused(answer) == [] and answered(answer) == written(support.values(), signon("CAT"))
    assert answers(served.reply(address("ANN"), fall["ANN"], untouched(fall["ANN"]))) == []

    served.close(GAME, "F1901M", 49)
    retreat = served.opened(address("BOB"), f"{GAME} F1901M results")
    assert [line for line in retreat.form if not line.startswith(("%", "SIGNON"))] == \
        ["FOR GERMANY", "A MUN _", "END"]
    assert "% A MUN: - BOH, - RUH, - SIL, D" in retreat.form
    back = {"A MUN _": "A MUN - RUH"}
    answer = served.reply(address("BOB"), retreat, quoted(retreat, "pw-bob", back))
    assert refused(answer) == [] and answered(answer) - frames(retreat) == written(back.values(), signon("BOB"))

    builds = served.opened(address("BOB"), f"{GAME} F1901R results")
    assert [line for line in builds.form if line.startswith(("FOR ", "BUILD", "REMOVE"))] == \
        ["FOR FRANCE", "BUILD _", "BUILD _", "FOR GERMANY", "REMOVE _"]
    build = {"BUILD _": "BUILD A MAR"}
    answer = served.reply(address("BOB"), builds, unquoted(builds, "pw-bob", build))
    assert refused(answer) == [] and answered(answer) - frames(builds) == written(build.values(), signon("BOB"))
    assert served.kept(GAME, "W1901A") == {("BOB", "sheet"): "FOR FRANCE\nBUILD A MAR\nEND"}
