"""A judge without the Cairo library (Debian's libcairo2; issue 24 item 10): it runs, and sends
its mail and writes its pages without maps, saying so once in its log."""

from __future__ import annotations

import logging
import sys
from pathlib import Path

import pytest

from judge.games.payola import maps
from tests.support.harness import Judge, two_player_game

ALICE, BOB = "alice@example.org", "bob@example.org"


def test_without_the_cairo_library_mail_goes_without_maps_and_one_warning(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    monkeypatch.setitem(sys.modules, "cairocffi", None)  # as when libcairo2 is missing: the import fails
    monkeypatch.delitem(sys.modules, "judge.render.png", raising=False)
    maps.png_unavailable.cache_clear()
    try:
        caplog.set_level(logging.INFO, logger="judge")
        judge = two_player_game(Judge(tmp_path, maps=True, web=True))
        judge.send(ALICE, "SIGNON F@g1 alice-pw\n2 : A PAR - BUR")
        judge.send(BOB, "SIGNON G@g1 bob-pw\n2 : A MUN - RUH\nMAP")
        results = [mail for mail in judge.new_mail() if mail.subject == "g1 S1901M results"]
        assert len(results) == 2 and all(mail.attachments == {} for mail in results)
        warnings = [record for record in caplog.records  # the judge's: another test's leftovers may log too
                    if record.levelno >= logging.WARNING and record.name.split(".")[0] == "judge"]
        assert len(warnings) == 1 and "libcairo2" in warnings[0].getMessage(), warnings
        assert (tmp_path / "web" / "games" / "g1" / "index.html").exists()  # the pages, without their maps
    finally:
        maps.png_unavailable.cache_clear()
