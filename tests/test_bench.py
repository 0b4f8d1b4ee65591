"""`bench/engine_bench.py` without its optional peer, the ``diplomacy`` package (issue 24 item 17)."""

from __future__ import annotations


def test_without_the_diplomacy_package_the_bench_says_so_instead_of_below() -> None:
    from bench.engine_bench import Figure, back_to_back, generate, our_adjudication

    cases = generate(3, seed=1)
    ours, theirs = back_to_back(cases, our_adjudication, None)
    assert ours > 0 and theirs == 0  # nothing of the peer's was timed
    figure = Figure("core adjudicate()", "phase", "diplomacy process()", 5)
    figure.add(ours, theirs)
    assert "not installed" in figure.line() and "BELOW" not in figure.line() and "0.00x" not in figure.line()
