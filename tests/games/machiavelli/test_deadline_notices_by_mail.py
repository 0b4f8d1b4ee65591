"""What a Machiavelli country is told at a deadline (M59, M66; rulings H2, H3): the country whose
letter has not arrived is alerted, each country whose letter is in gets its confirmation, each
alone, and nobody learns another country's letter.

The game of `tests.service.every_kind` (m1, the classic board: Ann as Florence, Bob as Milan, Cy
as Venice), started 2026-01-05 12:00 UTC: the spring letter (SP1454A) is due 72 hours later,
Thursday 2026-01-08 12:00, with an hour's grace and one automatic extension of 24 hours."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from tests.service.every_kind import MACHIAVELLI
from tests.support.harness import Judge


def test_M59_at_the_deadline_each_letter_received_is_confirmed_to_its_country_alone(tmp_path: Path) -> None:
    judge = MACHIAVELLI.begin(Judge(tmp_path))
    MACHIAVELLI.as_master(judge, "SET SILENCE ON", "SET GRACE 1")
    judge.later(1)
    MACHIAVELLI.send(judge, 1, "pay A mil")  # Milan, at 13:00 on the 5th
    judge.later(2)
    MACHIAVELLI.send(judge, 2, "pay G ven")  # Venice, at 15:00
    judge.new_mail()
    judge.now = datetime(2026, 1, 8, 12, 0)
    judge.tick()
    sent = {(m.to, m.subject): m.body.replace("\n", " ") for m in judge.new_mail()}
    florence, milan, venice = (seat.address for seat in MACHIAVELLI.seats)
    assert set(sent) == {(florence, "m1 SP1454A late"), (milan, "m1 SP1454A received"),
                         (venice, "m1 SP1454A received")}
    assert ("the judge has your letter (Milan), received 2026-01-05 13:00 UTC: it stands as it is (18.2, M59). The "
            "phase is carried out when the grace period ends, at 2026-01-08 13:00 UTC, unless a country that has not "
            "written by then is given the game's automatic extension: then at 2026-01-09 12:00 UTC.") in sent[
        (milan, "m1 SP1454A received")]
    confirmed = sent[(milan, "m1 SP1454A received")]
    assert "Venice" not in confirmed and "Florence" not in confirmed
    assert ("Without a letter by 2026-01-08 13:00 UTC, when the grace period ends, the phase is extended to "
            "2026-01-09 12:00 UTC") in sent[(florence, "m1 SP1454A late")]
