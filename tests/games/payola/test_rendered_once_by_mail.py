"""A phase's results are rendered once per distinct text, not once per recipient (issue 27):
the public report, the same in every power's mail but in Tin Cup, once; the observers' mail,
the same for all of them, once; and each power's mail reads as it did when the public report
was rendered inside it."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from judge.games.payola import lifecycle
from judge.service.templates import render
from tests.support.harness import Judge, two_player_game

ALICE, BOB = "alice@example.org", "bob@example.org"


def test_a_phases_public_report_and_observers_mail_are_rendered_once(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    judge = two_player_game(Judge(tmp_path, maps=False))
    for observer in ("o1@example.org", "o2@example.org", "o3@example.org"):
        judge.send(observer, "OBSERVE g1")
    judge.send(ALICE, "SIGNON FRANCE@g1 alice-pw\n3 : A PAR - BUR\n2 : F BRE - MAO")  # Germany's at the deadline
    judge.new_mail()
    rendered: Counter[str] = Counter()

    def counting(name: str, **context: Any) -> str:
        rendered[name] += 1
        return render(name, **context)

    monkeypatch.setattr(lifecycle, "render", counting)
    judge.process("g1", force=True)
    assert rendered["payola/results_public"] == 1
    assert rendered["payola/results"] == 2 + 1  # each power's, and one for the three observers
    results = [m for m in judge.new_mail() if m.subject == "g1 S1901M results"]
    assert len(results) == 5
    alice = next(m.body for m in results if m.to == ALICE)
    assert "A PAR - BUR" in alice and "Your private statement as France" in alice
    observed = {m.body for m in results if m.to.startswith("o")}
    assert len(observed) == 1 and "private statement" not in observed.pop()


def test_a_results_mail_reads_the_same_with_its_public_report_rendered_apart(tmp_path: Path,
                                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    judge = two_player_game(Judge(tmp_path, maps=False))
    judge.send(ALICE, "SIGNON FRANCE@g1 alice-pw\n3 : A PAR - BUR\n4 $")
    judge.new_mail()
    calls: list[dict[str, Any]] = []

    def keeping(name: str, **context: Any) -> str:
        if name == "payola/results":
            calls.append(context)
        return render(name, **context)

    monkeypatch.setattr(lifecycle, "render", keeping)
    judge.process("g1", force=True)
    for context in calls:
        whole = {name: value for name, value in context.items() if name != "public"}
        assert "public" in context and render("payola/results", **context) == render("payola/results", **whole)


def test_a_phases_maps_are_drawn_once_for_its_mails_and_its_pages(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """The results mails carry the orders as adjudicated and the board after; the game's pages
    show the same two maps, read back from the store: each is composed once, and the pages'
    files are the mails' attachments."""
    pytest.importorskip("cairocffi")
    from judge.render import png

    judge = two_player_game(Judge(tmp_path, maps=True, web=True, maps_default="all"))
    judge.send(ALICE, "SIGNON FRANCE@g1 alice-pw\n3 : A PAR - BUR\n2 : F BRE - MAO")
    judge.new_mail()
    png.DRAWN.clear()  # not remembered from another test of this process that drew the same game's maps
    composed: list[str] = []
    compose = png._compose

    def counting(drawing: Any, width: int) -> bytes:
        composed.append(drawing.frame)
        return compose(drawing, width)

    monkeypatch.setattr(png, "_compose", counting)
    judge.process("g1", force=True)
    assert len(composed) == 2
    alice = next(m for m in judge.new_mail() if m.subject == "g1 S1901M results" and m.to == ALICE)
    attached = {data for name, (kind, data) in alice.attachments.items() if kind == "image/png"}
    pages = {path.read_bytes() for path in (tmp_path / "web" / "games" / "g1").glob("*.png")}
    assert len(attached) == 2 and attached <= pages
