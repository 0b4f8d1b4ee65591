"""Games on the variant boards by mail (issue 25, rule 6.2): the first phase and its name,
the starting money, and Void's rule that an eliminated power may not transfer money."""

from __future__ import annotations

from pathlib import Path

from tests.service.harness import Judge

GM, ALICE, BOB = "gm@example.org", "alice@example.org", "bob@example.org"


def test_rule_6_2_ancmed_game_starts_in_year_1_with_48_agp(tmp_path: Path) -> None:
    judge = Judge(tmp_path)
    judge.send(GM, "CREATE a1 gm-secret ancmed")
    judge.send(ALICE, "JOIN a1 alice-pw ROME")
    judge.send(GM, "SIGNON MASTER@a1 gm-secret\nSTART")
    start = next(m for m in judge.new_mail() if m.subject == "a1 starts" and m.to == ALICE)
    assert "Your balance: 48 AgP" in start.body  # ruling 13: 17 + 16 + 15
    judge.send(ALICE, "SIGNON R@a1 alice-pw\n0 : F NEA - TYN")  # the only player: the phase is processed
    results = next(m for m in judge.new_mail() if m.to == ALICE and m.subject == "a1 S0001M results")
    assert "F NEA - TYN" in results.body


def test_rule_6_2_ruling_13_void_initial_funds_and_no_donations(tmp_path: Path) -> None:
    judge = Judge(tmp_path)
    judge.send(GM, "CREATE v1 gm-secret void")
    judge.send(ALICE, "JOIN v1 alice-pw ALBANIA")
    judge.send(BOB, "JOIN v1 bob-pw APULIA")
    judge.send(GM, "SIGNON MASTER@v1 gm-secret\nSTART")
    start = next(m for m in judge.new_mail() if m.subject == "v1 starts" and m.to == ALICE)
    assert "Your balance: 9 AgP" in start.body  # one unit, no center: 17 / 2 rounded up
    # Fall 1900: Apulia takes Naples; Albania stays out of every center and loses its army in winter.
    judge.send(BOB, "SIGNON D@v1 bob-pw\n0 : A APU - NAP")
    judge.send(ALICE, "SIGNON C@v1 alice-pw\n0 : A ALB H")
    assert any(m.subject == "v1 F1900M results" for m in judge.new_mail())
    judge.send(ALICE, "SIGNON C@v1 alice-pw\nREMOVE A ALB")
    assert any(m.subject == "v1 W1900A results" for m in judge.new_mail())
    judge.send(ALICE, "SIGNON C@v1 alice-pw\nTRANSFER 5 TO D")
    assert "an eliminated power may not transfer money" in judge.new_mail()[-1].body
    judge.send(BOB, "SIGNON D@v1 bob-pw\nTRANSFER 5 TO C")
    assert "ERROR" not in judge.new_mail()[-1].body
