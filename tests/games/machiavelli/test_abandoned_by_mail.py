"""A Machiavelli country whose player goes silent, under the game master's policy for silent seats
(SET SILENCE): the judge declares it abandoned and hands it to the game's own rule for a leader
who leaves, 18.3 (a substitute leader may take it over; meanwhile the defaults of 17.2 and M50).
Started 2026-01-05 12:00 UTC, the spring letter (SP1454A) is due 72 hours later."""

from __future__ import annotations

from pathlib import Path

from tests.support.harness import Judge, start_game
from tests.support.people import ALICE, BOB, CAROL, GM


def test_a_silent_country_is_declared_abandoned_and_open_for_a_substitute_leader(tmp_path: Path) -> None:
    judge = start_game(Judge(tmp_path), "m1", "machiavelli", ((ALICE, "VENICE"), (BOB, "MILAN")))
    judge.send(GM, "SIGNON MASTER@m1 gm-secret\nSET SILENCE ON\nSET SILENCE EXTENSIONS 0\nSET SILENCE ABANDON 1")
    judge.new_mail()
    judge.later(72)
    judge.tick()
    news = {m.to: m.body for m in judge.new_mail() if m.subject == "m1: Venice declared abandoned"}
    assert set(news) >= {ALICE, GM}
    assert "until a substitute leader takes it over (18.3, M62)" in news[GM]
    assert "plays by the defaults (17.2, M50)" in news[GM]
    judge.send(CAROL, "WHOGAME m1")
    assert "Venice: vacant (its player left), open for TAKEOVER" in judge.last_to(CAROL).body
    judge.confirmed(CAROL)
    judge.send(CAROL, "TAKEOVER VENICE@m1 carol-pw")
    assert judge.outcome_of("TAKEOVER VENICE@m1 ****") == ("ok", None)
    assert "m1: your briefing as Venice" in [m.subject for m in judge.new_mail() if m.to == CAROL]
