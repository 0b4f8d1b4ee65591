"""The pages in a real browser: headless Chromium loads them from a running `judge web` server
(a thread on a free port), at a desktop's and a phone's width, and in print.  Screenshots are
kept in pytest's temporary directory; their paths are printed (``pytest -s`` shows them)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from judge.web.server import make_server
from tests.support.serving import on_a_thread
from tests.web.chromium import CHROMIUM, Browser, Tab
from tests.web.conftest import Played

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason=f"no headless browser: {CHROMIUM} is not installed "
                                "(Debian: apt-get install chromium)")

SIZES = {"desktop": (1280, 900), "phone": (390, 844)}
PAGES = {"index.html": "Games", "games/webgame/index.html": "Game webgame",
         "games/webgame/F1901M.html": "webgame F1901M: Fall 1901 movement",
         "games/webgame/end.html": "webgame: the end-of-game publication"}


@pytest.fixture(scope="module")
def site(played: Played) -> Iterator[str]:
    with on_a_thread(make_server(played.root, "127.0.0.1", 0)) as port:
        yield f"http://127.0.0.1:{port}/"


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with Browser() as running:
        yield running


@pytest.fixture(scope="module")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("screenshots")


@pytest.mark.parametrize("size", SIZES)
def test_pages_load_with_their_maps_and_no_error(site: str, browser: Browser, shots: Path, size: str) -> None:
    tab: Tab = browser.open(*SIZES[size])
    for path, title in PAGES.items():
        tab.load(site + path)
        assert tab.evaluate("document.title") == title
        images = tab.evaluate("[...document.images].map(i => [i.complete, i.naturalWidth, i.naturalHeight, i.alt])")
        assert all(done and width > 0 and height > 0 and alt for done, width, height, alt in images), images
        assert len(images) == {"games/webgame/index.html": 1, "games/webgame/F1901M.html": 2}.get(path, 0)
        wide, window = tab.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
        assert wide <= window, f"{path} is wider than a {size} screen: {wide} > {window}"
        if path.startswith("games/"):
            shot = tab.screenshot(shots / f"{size}-{path.replace('/', '-')}.png")
            print(f"screenshot: {shot}")
    assert tab.problems() == []


def test_the_end_of_game_page_prints_without_navigation(site: str, browser: Browser) -> None:
    tab = browser.open(*SIZES["desktop"])
    tab.load(site + "games/webgame/end.html")
    assert tab.evaluate("getComputedStyle(document.querySelector('header.site')).display") != "none"
    browser.call("Emulation.setEmulatedMedia", {"media": "print"}, tab.session)
    assert tab.evaluate("getComputedStyle(document.querySelector('header.site')).display") == "none"
    assert tab.evaluate("getComputedStyle(document.querySelector('section.phase')).breakBefore") == "page"
    assert tab.problems() == []
