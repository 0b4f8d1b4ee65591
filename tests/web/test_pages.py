"""The pages written for the games of conftest.py, read back as HTML: every processed phase with
its orders and maps, nothing secret while the games ran, the publication once they ended."""

from __future__ import annotations

import os
import shutil
from dataclasses import replace
from itertools import pairwise
from pathlib import Path

import pytest

from judge.games.payola.pages import gather, write_game
from judge.store.models import Game, PhaseRow
from judge.web.pages import publish, refresh, write_index
from judge.web.public import GameFacts
from tests.web.conftest import BLIND_SHEETS, PLAYERS, SHEETS, Played
from tests.web.page import read_page

PHASES = ["S1901M", "F1901M", "F1901R", "W1901A"]


def game_dir(played: Played, name: str = "webgame") -> Path:
    return played.root / "games" / name


def stored_results(played: Played, phase: str) -> list[dict[str, str]]:
    with played.judge.db.transaction() as session:
        row = session.query(PhaseRow).join(Game).filter(Game.name == "webgame", PhaseRow.name == phase).one()
        assert row.result is not None
        return list(row.result["report"]["results"])


def test_every_processed_phase_has_a_page_with_its_orders_and_maps(played: Played) -> None:
    for phase in PHASES:
        page = read_page(game_dir(played) / f"{phase}.html")
        assert page.heading(f"({phase})") and phase in page.title
        orders = page.table_with("Order")
        shown = {(row[0], row[1]) for row in orders[1:]}
        for result in stored_results(played, phase):
            assert (result["power"].title(), result["order"]) in shown, (phase, result)
        assert len(page.images) == 2  # the orders, and the board after
        assert phase in str(page.images[0]["alt"]) and "orders" in str(page.images[0]["alt"])
        for image in page.images:
            picture = game_dir(played) / str(image["src"])
            assert picture.read_bytes().startswith(b"\x89PNG") and int(str(image["width"])) > 0
            assert (game_dir(played) / picture.with_suffix(".svg").name).exists()


def test_the_retreat_and_the_builds_are_shown(played: Played) -> None:
    fall = read_page(game_dir(played) / "F1901M.html")
    assert ["France", "A BUR H", "fails: dislodged"] in fall.table_with("Order")
    dislodged = fall.table_with("May retreat to")
    assert dislodged[1] == ["France", "A BUR", "BEL, GAS, MAR, PAR, PIC"]
    assert "Germany sent no offer sheet" not in fall.text and "Austria sent no offer sheet" in fall.text
    retreat = read_page(game_dir(played) / "F1901R.html")
    assert ["France", "A BUR - PIC", "succeeds"] in retreat.table_with("Order")
    assert retreat.heading("Adjustments due")
    builds = read_page(game_dir(played) / "W1901A.html")
    assert ["Germany", "BUILD F KIE", "succeeds"] in builds.table_with("Order")
    assert ["Germany", "4", "4", "BER DEN KIE MUN", "A BUR, A MUN, F DEN, F KIE"] in builds.table_with("Unit list")


def test_phases_link_to_the_previous_and_the_next(played: Played) -> None:
    for number, phase in enumerate(PHASES):
        links = read_page(game_dir(played) / f"{phase}.html").links
        neighbours = {f"{p}.html" for p in PHASES[max(number - 1, 0):number + 2] if p != phase}
        assert {link for link in links if link[:-5] in PHASES} == neighbours
        assert "index.html" in links and "../../index.html" in links
    game = read_page(game_dir(played) / "index.html")
    assert [link for link in game.links if link[:-5] in PHASES] == [f"{phase}.html" for phase in PHASES]


def test_who_has_submitted_is_shown_while_the_phase_runs(played: Played) -> None:
    page = read_page(Path("webgame.html"), played.mid_spring["games/webgame/index.html"])
    powers = {row[0]: row for row in page.table_with("Played by")[1:]}
    submitted = list(SHEETS)[:3]
    for power in PLAYERS:
        assert powers[power.title()][4] == ("has submitted" if power in submitted else "not yet submitted")
        assert powers[power.title()][1] == "a player"
    assert powers["Italy"][1:] == ["nobody (a dummy)", "3", "3", "—"]


def test_nothing_secret_appears_while_the_games_run(played: Played) -> None:
    """Every page after every change: no offer line, acceptance list, balance, transfer, press,
    address or password; and nothing of the Blind game's board."""
    secrets = [line for sheet in (*SHEETS.values(), *BLIND_SHEETS.values()) for line in sheet.splitlines()
               if line.startswith(("ACCEPT", "TRANSFER")) or ":" in line or "$" in line]
    secrets += ["GFEIART", "EFGIART", "AgP", "PRESS_SECRET", "Belgium to you", "example.org", "pw-", "gm-secret",
                "tin-secret"]
    words = ["transfer", "balance", "final treasuries", "chart:", "offer sheet</th>", "acceptance list</th>"]
    assert len(played.running) > 10
    seen = 0
    for pages in played.running:
        for name, text in pages.items():
            page = read_page(Path(name), text)
            for secret in secrets:
                assert secret not in text and secret not in page.text, f"{name} shows '{secret}'"
            for word in words:
                assert word not in text.lower(), f"{name} shows '{word}'"
            if name.startswith("games/tincup/"):
                assert name == "games/tincup/index.html" and not page.images and not page.tables
                assert "F LON" not in page.text and "A PAR" not in page.text
            seen += 1
    assert seen > 40


def test_the_index_lists_every_game_without_addresses(played: Played) -> None:
    running = read_page(Path("index.html"), played.running[-1]["index.html"])
    games = {row[0]: row for row in running.table_with("Game")[1:]}
    assert games["webgame"][1:] == ["standard", "S1902M", "2026-01-10 20:00 UTC",
                                    "Austria (played), England (played), France (played), Germany (played), "
                                    "Italy (dummy), Russia (played), Turkey (played)", "active"]
    # Issue 23.33: a Tin Cup game's line says what LIST tells anyone (the deadline, the seats), not its board.
    assert games["tincup"][1:] == ["standard BLIND (Blind: the board is secret until it ends)", "F1901M",
                                   "2026-01-07 18:00 UTC", "Austria (dummy), England (played), France (played), "
                                   "Germany (dummy), Italy (dummy), Russia (dummy), Turkey (dummy)", "active"]
    assert "games/webgame/index.html" in running.links
    ended = read_page(played.root / "index.html")
    assert ended.heading("Finished") and {row[0] for row in ended.table_with("Game")[1:]} == {"tincup", "webgame"}


def test_after_the_end_every_sheet_list_and_chart_is_published(played: Played) -> None:
    end = read_page(game_dir(played) / "end.html")
    for power, sheet in SHEETS.items():
        for line in sheet.splitlines():
            if not line.startswith(("ACCEPT", "TRANSFER")):
                assert line in end.text, f"{power}: {line}"
    assert ["England", "GFEIART", "48, spent 0 → 48", "0 : F EDI - NWG 0 : A LVP - YOR"] in end.tables[1]
    treasuries = end.table_with("Balance (AgP)")
    assert [row[0] for row in treasuries[1:]] == ["Austria", "England", "France", "Germany", "Italy", "Russia",
                                                  "Turkey"]
    assert end.heading("Chart") and "F LON - NTH: 5 (Germany 5)" in end.text
    spring = read_page(game_dir(played) / "S1901M.html")
    assert spring.heading("Published at the end") and "30 : F ANK - BLA" in spring.text
    game = read_page(game_dir(played) / "index.html")
    assert "end.html" in game.links and game.heading("The board at the end")
    # Issue 23.21: once ended, the page names who played each power, as the end mail does (never the address).
    assert {row[0]: row[1] for row in game.table_with("Played by")[1:]} == {
        "Austria": "al", "England": "eve", "France": "fred", "Germany": "gus", "Italy": "nobody (a dummy)",
        "Russia": "rita", "Turkey": "tom"}
    for page in game_dir(played).glob("*.html"):
        text = page.read_text("utf-8")
        assert "PRESS_SECRET" not in text and "example.org" not in text and "TRANSFER" not in text


def test_a_blind_game_shows_everything_once_ended(played: Played) -> None:
    """Rule 6.3: secret while it runs (above), the whole of it once ended, as the end mail has it."""
    pages = sorted(p.name for p in game_dir(played, "tincup").iterdir() if p.suffix == ".html")
    assert pages == ["S1901M.html", "end.html", "index.html", "publication.html"]
    game = read_page(game_dir(played, "tincup") / "index.html")
    assert game.images and "end.html" in game.links and "S1901M.html" in game.links
    spring = read_page(game_dir(played, "tincup") / "S1901M.html")
    orders = spring.table_with("Order")
    assert ["England", "F LON - NTH", "succeeds"] in orders and ["Russia", "A WAR H", "succeeds"] in orders
    assert spring.images and spring.heading("Orders as adjudicated")
    end = read_page(game_dir(played, "tincup") / "end.html")
    assert "7 : F LON - NTH" in end.text and "6 : A PAR - PIC" in end.text and "EFGIART" in end.text


def test_pages_are_well_formed_plain_and_accessible(played: Played) -> None:
    pages = list(played.root.rglob("*.html"))
    assert len([path for path in pages if path.parent.name != "players"]) == 13  # with the hall of fame, and
    # each finished game's end publication as an observer read it (`judge.web.fame`)
    assert len([path for path in pages if path.parent.name == "players"]) == 6  # each player's record
    for path in pages:
        page = read_page(path)  # every element closed, in order
        assert page.lang == "en" and page.title and page.scripts == 0
        assert [level for level, _ in page.headings].count(1) == 1 and page.headings[0][0] == 1
        levels = [level for level, _ in page.headings]
        assert all(b <= a + 1 for a, b in pairwise(levels)), (path, levels)
        assert all(image.get("alt") and image.get("width") and image.get("height") for image in page.images)
        assert all(table[0] and "scope=\"col\"" in path.read_text("utf-8") for table in page.tables)
    assert (played.root / "style.css").exists() and (played.root / "icon.svg").exists()


def test_maps_are_drawn_once_and_a_rolled_back_phase_goes_away(played: Played, tmp_path: Path) -> None:
    maps = {p: p.stat().st_mtime_ns for p in game_dir(played).glob("*.png")}
    assert len(maps) == 8  # four phases' orders and the boards after them; the last is the board now
    publish(played.judge.db, played.judge.settings, "webgame", force=True)
    assert {p: p.stat().st_mtime_ns for p in game_dir(played).glob("*.png")} == maps
    copy = tmp_path / "web"
    shutil.copytree(played.root, copy)
    with played.judge.db.transaction() as session:
        record = gather(session, session.query(Game).filter(Game.name == "webgame").one())
    short = type(record)(record.facts, record.phases[:2], record.phases[1].adjudication, record.determinations,
                         record.balances)  # as if the game had been rolled back to F1901R
    write_game(copy, short)
    left = sorted(p.name for p in (copy / "games" / "webgame").iterdir() if p.suffix == ".html")
    assert left == ["F1901M.html", "S1901M.html", "end.html", "index.html"]
    assert len(list((copy / "games" / "webgame").glob("*.png"))) == 4


def test_the_index_lists_only_listed_games_and_any_server_may_read_it(tmp_path: Path) -> None:
    listed = GameFacts("shown", "standard", (), "forming", None, None, joined=3)
    mask = os.umask(0o077)  # the judge's systemd unit runs with this umask
    try:
        write_index(tmp_path / "web", [listed, GameFacts("unlisted", "standard", (), "forming", None, None,
                                                         listed=False)])
    finally:
        os.umask(mask)
    index = read_page(tmp_path / "web" / "index.html")
    assert index.table_with("Game")[1:] == [["shown", "standard", "", "", "3 joined so far", "forming"]]
    assert (tmp_path / "web").stat().st_mode & 0o777 == 0o755
    assert {p.stat().st_mode & 0o777 for p in (tmp_path / "web").iterdir()} == {0o644}


def test_refresh_never_fails_the_change_that_called_it(played: Played, tmp_path: Path,
                                                       caplog: pytest.LogCaptureFixture) -> None:
    refresh(played.judge.db, played.judge.settings, ["webgame", "nosuchgame"])
    assert not caplog.records
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder")
    refresh(played.judge.db, replace(played.judge.settings, data_dir=blocked), ["webgame"])
    assert "the public pages could not be written" in caplog.text
