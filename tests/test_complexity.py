"""No function of the judge grows past what one reading holds: a cyclomatic complexity of at most
`MOST` (radon's measure, as McCabe's), the limit issue 68 set once ``press`` had reached 74 and
``judge status`` 48.  A function that needs more is a table of small rules (`judge.service.incoming.handlers.press`,
`judge.service.operators.operator`'s status) or a few named steps."""

from __future__ import annotations

from pathlib import Path

from radon.complexity import cc_visit

import judge

MOST = 25


def blocks_over(source: str, most: int = MOST) -> list[str]:
    """The functions and methods of ``source`` more complex than ``most``, with their complexity."""
    return [f"{block.fullname} ({block.complexity})" for block in cc_visit(source) if block.complexity > most]


def test_no_function_of_the_judge_is_more_complex_than_25() -> None:
    root = Path(judge.__file__).parent
    over = {str(path.relative_to(root.parent)): found for path in sorted(root.rglob("*.py"))
            if (found := blocks_over(path.read_text(encoding="utf-8")))}
    assert over == {}


def test_the_measure_finds_a_function_of_26_branches() -> None:
    """The check can fail: a function of 25 ifs (complexity 26) is over the limit, one of 24 is not."""
    def function(ifs: int) -> str:
        cases = "".join(f"    if x == {n}:\n        return {n}\n" for n in range(ifs))
        return f"def f(x):\n{cases}    return -1\n"

    assert blocks_over(function(25)) == ["f (26)"]
    assert blocks_over(function(24)) == []
