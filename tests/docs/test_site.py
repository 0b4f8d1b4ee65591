"""The documentation site builds and holds together: Sphinx builds it with warnings as errors, its
doctests pass, every internal link and anchor of the built pages leads somewhere, the generated
references name every subcommand and setting, and in headless Chromium the search box finds a
command and the commands' page renders the HELP text.  Skipped without the ``docs`` extra
(``pip install -e '.[docs]'``, which ``.ci/run`` installs)."""

from __future__ import annotations

import functools
import http.server
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

from judge import bootstrap
from judge.service.operators import cli
from judge.service.operators.reference import settings_reference
from tests.support.serving import on_a_thread
from tests.web.chromium import CHROMIUM, Browser

pytest.importorskip("sphinx", reason="the docs extra is not installed (pip install -e '.[docs]')")
pytest.importorskip("myst_parser", reason="the docs extra is not installed (pip install -e '.[docs]')")

DOCS = Path(__file__).resolve().parents[2] / "docs"
PATIENCE = 30.0  # seconds the browser may take to run the search (a limit, never a measure)


def sphinx(builder: str, out: Path, read: Path | None = None) -> subprocess.CompletedProcess[str]:
    """Sphinx's ``builder`` writing the site into ``out``, from the pages as read into ``read``'s doctrees (``out``'s
    when None): a build on another's doctrees reads no page again (4.2 s of CPU for the doctests, 1.0 s so)."""
    return subprocess.run([sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", builder,
                           "-d", str((read or out) / ".doctrees"), str(DOCS), str(out)],
                          capture_output=True, text=True, timeout=600, check=False)


pytestmark = pytest.mark.timeout(900)  # past the suite's: the first test waits for the site's build, up to 600 s


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("site")
    built = sphinx("html", out)
    assert built.returncode == 0 and "WARNING" not in built.stderr, built.stderr
    return out


def test_the_site_builds_with_warnings_as_errors(site: Path) -> None:
    for page in ("index", "players/commands", "gamemasters/index", "operators/install", "reference/cli",
                 "reference/configuration", "reference/json", "rules/engine", "architecture/modules",
                 "performance/index", "changelog", "decisions/sphinx-and-myst"):
        assert (site / f"{page}.html").is_file(), page


def test_the_json_examples_pass_as_doctests(site: Path, tmp_path: Path) -> None:
    ran = sphinx("doctest", tmp_path, read=site)
    assert ran.returncode == 0, ran.stdout + ran.stderr
    summary = (tmp_path / "output.txt").read_text("utf-8")
    tests = re.search(r"^\s*(\d+) tests\s*$", summary, re.M)
    assert tests and int(tests.group(1)) >= 9 and re.search(r"^\s*0 failures in tests", summary, re.M), summary


class _Links(HTMLParser):
    """The links (href, src) and the anchors (id) of one page."""

    def __init__(self) -> None:
        super().__init__()
        self.links: list[str] = []
        self.anchors: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if name in ("href", "src") and value:
                self.links.append(value)
            elif name in ("id", "name") and value:
                self.anchors.add(value)


@functools.cache
def _read(page: Path) -> _Links:
    links = _Links()
    links.feed(page.read_text("utf-8"))
    return links


def test_every_internal_link_and_anchor_of_the_built_site_leads_somewhere(site: Path) -> None:
    broken = []
    pages = sorted(site.rglob("*.html"))
    assert len(pages) > 30
    for page in pages:
        for link in _read(page).links:
            parts = urlsplit(link)
            if parts.scheme or parts.netloc or link.startswith(("mailto:", "javascript:")):
                continue
            target = (page.parent / unquote(parts.path)).resolve() if parts.path else page
            if target.is_dir():
                target = target / "index.html"
            if not target.exists():
                broken.append(f"{page.relative_to(site)}: {link}")
            elif parts.fragment and target.suffix == ".html" and parts.fragment not in _read(target).anchors:
                broken.append(f"{page.relative_to(site)}: {link} (no such anchor)")
    assert broken == []


def test_the_references_name_every_subcommand_and_setting(site: Path) -> None:
    parser = cli.parser(bootstrap.kinds, bootstrap.TOOLS)
    subcommands = next(a for a in parser._actions if a.dest == "command").choices
    assert subcommands
    command_line = _read(site / "reference" / "cli.html").anchors
    assert [name for name in subcommands if f"judge-{name}" not in command_line] == []
    configuration = _read(site / "reference" / "configuration.html").anchors
    assert [s.key for s in settings_reference() if s.key not in configuration] == []


def test_no_page_of_the_site_cites_an_issue_number(site: Path) -> None:
    cited = [f"{page.relative_to(site)}: {hit}" for page in sorted(site.rglob("*.html"))
             for hit in re.findall(r"\bissues?\s+\d[\d.]*", re.sub(r"<[^>]+>", " ", page.read_text("utf-8")))]
    assert cited == []


@pytest.fixture(scope="module")
def served(site: Path) -> Iterator[str]:
    handler = functools.partial(_Quiet, directory=str(site))
    with on_a_thread(http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)) as port:
        yield f"http://127.0.0.1:{port}/"


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.mark.skipif(not CHROMIUM.exists(), reason=f"no headless browser: {CHROMIUM} is not installed "
                    "(Debian: apt-get install chromium)")
def test_in_chromium_the_search_box_finds_a_command_and_the_commands_page_renders(served: str) -> None:
    with Browser() as browser:
        tab = browser.open(1280, 900)
        tab.load(served + "index.html")
        assert tab.evaluate("document.querySelectorAll('#searchbox input[name=q]').length") == 1
        tab.evaluate("(() => { const box = document.querySelector('#searchbox input[name=q]');"
                     " box.value = 'TAKEOVER'; box.form.submit(); })()")
        browser.wait_for("Page.loadEventFired", tab.session)
        assert tab.evaluate("location.pathname + location.search").endswith("search.html?q=TAKEOVER")
        # Sphinx lists the results one by one and then writes its summary: read them only when it has
        summary = ""
        waited_until = time.monotonic() + PATIENCE
        while not summary.startswith("Search finished") and time.monotonic() < waited_until:
            summary = tab.evaluate("document.querySelector('#search-results p.search-summary')?.innerText ?? ''")
            time.sleep(0.2)
        found = tab.evaluate("[...document.querySelectorAll('#search-results li a')].map(a => a.pathname)")
        assert "/players/commands.html" in found, (summary, found)

        tab.load(served + "players/commands.html")
        assert tab.evaluate("document.title").startswith("Every command")
        every = tab.evaluate("[...document.querySelectorAll('pre')].map(p => p.innerText)")
        blocks = [block for block in every if block.startswith(("Commands (", "==="))]  # the help, not examples
        assert len(blocks) == 5  # the shared commands and each game's
        assert "TAKEOVER SEAT@game password" in blocks[0] and "mailed to judge@example.org" in blocks[0]
        assert "ACCEPT EFG?" in blocks[1]
        shown = tab.evaluate("[...document.querySelectorAll('pre')].map(p => p.getBoundingClientRect().height)")
        assert all(height > 50 for height in shown)  # each is laid out, not hidden or empty
        assert tab.problems() == []
