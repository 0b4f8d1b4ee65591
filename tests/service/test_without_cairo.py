"""A judge without the Cairo library (Debian's libcairo2; issue 24 item 10), or without a Python package its maps
need: it runs, and sends its mail and writes its pages without maps, saying once in its log what to install.  A
judge without zlib-ng draws its maps all the same, compressed by the standard library's zlib (the same deflate)."""

from __future__ import annotations

import importlib.abc
import io
import logging
import sys
from collections.abc import Callable, Iterator, Sequence
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType

import pytest
from PIL import Image

from judge.games.payola import maps
from tests.support.harness import Judge, two_player_game

ALICE, BOB = "alice@example.org", "bob@example.org"


class _Unloadable(importlib.abc.MetaPathFinder):
    """Imports of ``name`` fail as on a machine without it: OSError, as cairocffi's import does when it
    cannot load the Cairo library; ImportError, for a Python package that is not installed."""

    def __init__(self, name: str, error: Exception) -> None:
        self.name, self.error = name, error

    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> ModuleSpec | None:
        if fullname == self.name or fullname.startswith(f"{self.name}."):
            raise self.error
        return None


Lacking = Callable[[str, Exception], None]


@pytest.fixture
def without(monkeypatch: pytest.MonkeyPatch) -> Iterator[Lacking]:
    """``without(name, error)``: the maps' modules imported afresh, ``name`` failing as ``error``; afterwards every
    module as it was (the modules, and the packages' names for them: a test after reads the same module the
    judge's code does)."""
    before = set(sys.modules)

    def lacking(name: str, error: Exception) -> None:
        for module in [module for module in sys.modules  # what imports ``name`` is imported again, and fails
                       if module.split(".")[0] in (name, "cairosvg") or module == "judge.render.png"]:
            monkeypatch.delitem(sys.modules, module)
            package, _, child = module.rpartition(".")
            if package in sys.modules and hasattr(sys.modules[package], child):  # an import again would rebind it
                monkeypatch.setattr(sys.modules[package], child, getattr(sys.modules[package], child))
        monkeypatch.setattr(sys, "meta_path", [_Unloadable(name, error), *sys.meta_path])
        maps.png_unavailable.cache_clear()

    yield lacking
    for module in set(sys.modules) - before:  # imported by the test alone
        del sys.modules[module]
    maps.png_unavailable.cache_clear()


def results_of_a_phase(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> tuple[list[dict[str, tuple[str, bytes]]],
                                                                                     list[str]]:
    """Each results mail's attachments of a phase played with maps on, and the judge's warnings meanwhile."""
    caplog.set_level(logging.INFO, logger="judge")
    judge = two_player_game(Judge(tmp_path, maps=True, web=True, maps_default="all"))
    judge.send(ALICE, "SIGNON F@g1 alice-pw\n2 : A PAR - BUR")
    judge.send(BOB, "SIGNON G@g1 bob-pw\n2 : A MUN - RUH\nMAP")
    results = [mail.attachments for mail in judge.new_mail() if mail.subject == "g1 S1901M results"]
    assert (tmp_path / "web" / "games" / "g1" / "index.html").exists()  # the pages, with or without their maps
    warnings = [record.getMessage() for record in caplog.records  # the judge's: another test's leftovers may log too
                if record.levelno >= logging.WARNING and record.name.split(".")[0] == "judge"]
    return results, warnings


def test_without_the_cairo_library_mail_goes_without_maps_and_one_warning_naming_debians_package(
        tmp_path: Path, without: Lacking, caplog: pytest.LogCaptureFixture) -> None:
    without("cairocffi", OSError("no library called \"cairo-2\" was found"))
    results, warnings = results_of_a_phase(tmp_path, caplog)
    assert len(results) == 2 and results == [{}, {}]
    assert len(warnings) == 1 and "apt-get install libcairo2" in warnings[0], warnings


def test_without_a_python_package_the_maps_need_one_warning_names_it_for_pip(
        tmp_path: Path, without: Lacking, caplog: pytest.LogCaptureFixture) -> None:
    without("PIL", ImportError("No module named 'PIL'", name="PIL"))
    results, warnings = results_of_a_phase(tmp_path, caplog)
    assert results == [{}, {}]
    assert len(warnings) == 1 and "/opt/judge/bin/pip install pillow" in warnings[0] and "libcairo2" not in warnings[0]


def test_without_zlib_ng_the_maps_go_out_compressed_by_the_standard_zlib(
        tmp_path: Path, without: Lacking, caplog: pytest.LogCaptureFixture) -> None:
    """zlib-ng only makes the maps' deflate faster: without it (a wheel that would not install, say) the judge sent
    no map and said "install libcairo2"."""
    without("zlib_ng", ImportError("No module named 'zlib_ng'", name="zlib_ng"))
    results, warnings = results_of_a_phase(tmp_path, caplog)
    assert warnings == []
    pictures = [data for attachments in results for kind, data in attachments.values() if kind == "image/png"]
    assert len(pictures) == 4  # each player's two maps: the orders, and the board after them
    for data in pictures:
        with Image.open(io.BytesIO(data)) as picture:
            picture.load()  # every row decompressed and checked (CRC, lengths)
            assert picture.mode == "P" and picture.width > 0
