"""The public pages of games that have ended, for every kind (`judge.web.fame`): what each end
published and the game's public record beside its pages, linked from its page's head, and the
hall of fame of them all."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from judge.service import archive
from judge.web.pages import web_root
from tests.service.every_kind import KINDS, PAYOLA, Kind
from tests.support.harness import Judge
from tests.support.people import GM
from tests.web.page import read_page as read


def ended(judge: Judge, kind: Kind) -> Judge:
    """``kind``'s game on ``judge`` (pages on), its first phase played, then TERMINATEd."""
    kind.begin(judge)
    for seat, line in enumerate(kind.sent):
        if line:
            kind.send(judge, seat, line)
    judge.later(kind.hours + 1)
    judge.tick()
    judge.terminate(GM, kind.master)
    return judge


@pytest.mark.parametrize("kind", KINDS, ids=lambda kind: kind.name)
def test_a_finished_game_of_every_kind_shows_its_end_publication_and_links_its_record(
        tmp_path: Path, kind: Kind) -> None:
    judge = ended(Judge(tmp_path, web=True), kind)
    folder = web_root(judge.settings) / "games" / kind.game
    with judge.db.transaction() as session:
        public = archive.export(session, judge.settings, kind.game, public=True)
    assert json.loads((folder / "record.json").read_text()) == json.loads(json.dumps(public))
    shown = read(folder / "publication.html")
    secret = public["publication"].splitlines()[2]  # the kind's publication: what its rules kept secret
    assert secret and secret.strip() in shown.text
    assert "@" not in (folder / "publication.html").read_text()
    page = read(folder / "index.html")
    assert f"../../games/{kind.game}/publication.html" in page.links
    assert f"../../games/{kind.game}/record.json" in page.links


def test_a_running_game_has_no_record_on_its_pages(tmp_path: Path) -> None:
    judge = PAYOLA.begin(Judge(tmp_path, web=True))
    judge.process("g1", force=True)
    folder = web_root(judge.settings) / "games" / "g1"
    assert (folder / "index.html").exists()
    assert not (folder / "record.json").exists() and not (folder / "publication.html").exists()
    assert "record.json" not in " ".join(read(folder / "index.html").links)


def test_the_hall_of_fame_lists_finished_games_by_kind_with_results_and_placings(tmp_path: Path) -> None:
    """Two kinds ended on one judge: each under its kind's title, with its result and who played
    which seat as the pages name them; each player's placings; the index links the hall."""
    judge = Judge(tmp_path, web=True)
    for kind in (PAYOLA, KINDS[3]):
        ended(judge, kind)
    root = web_root(judge.settings)
    assert "halloffame.html" in read(root / "index.html").links
    hall = read(root / "halloffame.html")
    assert hall.heading("Payola Diplomacy") and hall.heading("Pirates")
    games = [row[0] for table in hall.tables if table and "Game" in table[0] for row in table[1:]]
    assert sorted(games) == ["g1", "pp"]
    payola = hall.table_with("Game")
    assert payola[1][0] == "g1" and payola[1][3] == "the game master ended the game"
    assert "France: alice" in payola[1][4] and "Italy" in payola[1][4]
    players = hall.table_with("Won")
    assert {row[0] for row in players[1:]} >= {"alice", "bob", "carol"}
    assert all(row[1:] == ["0", "0", "1"] for row in players[1:])
    assert "record.json" in " ".join(hall.links)
