"""The public pages of games that have ended, for every kind (`judge.web.fame`): what each end
published and the game's public record beside its pages, linked from its page's head, and the
hall of fame of them all."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from sqlalchemy import select

from judge.service.hosting import archive
from judge.service.hosting.kinds import kind_of
from judge.store.models import Game
from judge.web.pages import web_root
from tests.games.pirates.by_mail import FOUR, address, pirates_game
from tests.service.every_kind import EXCHANGE, MACHIAVELLI, PAYOLA, PIRATES, TESTED, Kind
from tests.support.harness import Judge
from tests.support.people import GM
from tests.web.page import read_page as read


def ended(judge: Judge, kind: Kind) -> Judge:
    """``kind``'s game on ``judge`` (pages on), its first phase played, then TERMINATEd."""
    kind.first_played(judge)
    judge.terminate(GM, kind.master)
    return judge


@pytest.mark.parametrize("kind", TESTED, ids=lambda kind: kind.name)
def test_a_finished_game_of_every_kind_shows_its_end_publication_and_links_its_record(
        tmp_path: Path, kind: Kind) -> None:
    judge = ended(kind.judge(tmp_path, web=True), kind)
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
    for kind in (PAYOLA, PIRATES):
        ended(judge, kind)
    root = web_root(judge.settings)
    assert "halloffame.html" in read(root / "index.html").links
    hall = read(root / "halloffame.html")
    assert hall.heading("Payola Diplomacy") and hall.heading("Pirates")
    games = [row[0] for table in hall.tables if table and "Game" in table[0] for row in table[1:]]
    assert sorted(games) == ["g1", "pp"]
    payola = hall.table_with("Game")
    assert payola[1][0] == "g1" and payola[1][3] == "the game master ended the game"
    # the supply centers at the end: Russia's four home centers, the six others' three each (nothing
    # was taken before the fall), so Russia is first and the six share second place
    assert payola[1][4].startswith("1st Russia (4 supply centers), 2nd Austria (3 supply centers), ")
    assert payola[1][4].count("2nd ") == 6
    assert "France: alice" in payola[1][5] and "Italy" in payola[1][5]
    players = hall.table_with("Won")
    assert {row[0] for row in players[1:]} == {"alice", "bob", "carol", "ann", "cy", "dee"}
    # bob@example.org plays Germany in g1 and Bob in pp: one person, two games; the match was
    # stopped before its end, so it has no standings to place anyone by
    assert all(row[1:4] == ["0", "0", "2" if row[0] == "bob" else "1"] for row in players[1:])
    assert ["alice", "0", "0", "1", "2nd of 7 in g1"] in players and ["ann", "0", "0", "1", ""] in players
    assert "record.json" in " ".join(hall.links)


def test_H4_a_game_ended_within_a_day_of_its_start_places_nobody(tmp_path: Path) -> None:
    """Payola's g1 ended by its master as it starts, and Machiavelli's m1 after its first phase, 73
    hours later: both are listed, only m1's players are placed, each row linked from m1's seats."""
    judge = Judge(tmp_path, web=True)
    PAYOLA.begin(judge)
    judge.terminate(GM, PAYOLA.master)
    ended(judge, MACHIAVELLI)
    hall = read(web_root(judge.settings) / "halloffame.html")
    games = {row[0] for table in hall.tables if table and "Game" in table[0] for row in table[1:]}
    assert games == {"g1", "m1"}
    players = hall.table_with("Won")[1:]
    assert sorted(row[0] for row in players) == ["ann", "bob", "cy"]
    assert all(row[4].endswith(" in m1") for row in players)
    anchors = {link for link in hall.links if link.startswith("#player-")}  # from m1's seats and the ratings
    assert len(anchors) == 3 and all(f'id="{link[1:]}"' in (web_root(judge.settings) / "halloffame.html").read_text()
                                     for link in anchors)


def test_the_record_and_the_hall_show_the_options_a_game_master_set_and_the_defaults_as_defaults(
        tmp_path: Path) -> None:
    """m1 was created with no option: Machiavelli's grey press is its kind's default (18.1), not
    an option its game master set; m5 was created with PRESS=WHITE, which is his."""
    judge = ended(Judge(tmp_path, web=True), MACHIAVELLI)
    judge.send(GM, "CREATE m5 gm-pw machiavelli PRESS=WHITE")
    with judge.db.transaction() as session:
        games = {game.name: game for game in session.scalars(select(Game))}
        m1, m5 = (kind_of(session, games[name]).facts(session, games[name], acting=False) for name in ("m1", "m5"))
    assert (m1.options, m1.defaults) == ((), ("PRESS=GREY/WHITE",))
    assert (m5.options, m5.defaults) == (("PRESS=WHITE",), ())
    record = json.loads((web_root(judge.settings) / "games" / "m1" / "record.json").read_text())
    assert (record["game"]["options"], record["game"]["defaults"]) == ([], ["PRESS=GREY/WHITE"])
    row = read(web_root(judge.settings) / "halloffame.html").table_with("Game")[1]
    assert row[0] == "m1" and row[1].endswith("(by default PRESS=GREY/WHITE)")
    assert "Optionsnone set; by default PRESS=GREY/WHITE" in read(web_root(judge.settings) / "games" / "m1" /
                                                                  "index.html").text


def test_the_hall_of_fame_gives_each_kinds_standings_by_its_rules(tmp_path: Path) -> None:
    """Exchange Payola ended by its master: E35 scores control of the winning corporation (or of
    those in the draw), and there is none, so every investor has 0.0% and all share first place.
    Machiavelli: the ranking by 4.2 is the one its end publication gives, place for place."""
    judge = Judge(tmp_path, web=True)
    for kind in (EXCHANGE, MACHIAVELLI):
        ended(judge, kind)
    hall = read(web_root(judge.settings) / "halloffame.html")
    rows = {row[0]: row for table in hall.tables if table and "Game" in table[0] for row in table[1:]}
    assert sorted(rows["ex"][4].split(", ")) == ["1st Ann (0.0% control)", "1st Bob (0.0% control)",
                                                  "1st Cat (0.0% control)"]  # listed in the investor order
    with judge.db.transaction() as session:
        game = session.scalars(select(Game).where(Game.name == "m1")).one()
        published = kind_of(session, game).publication(session, game).lines
    ranking = [re.match(r"  (\d+)\. (\w+):", line) for line in published]
    expected = [(int(found.group(1)), found.group(2)) for found in ranking if found]
    shown = [re.match(r"(\d+)\D+ (\w+) \(", entry) for entry in rows["m1"][4].split(", ")]
    assert expected and [(int(found.group(1)), found.group(2)) for found in shown if found] == expected


def test_the_hall_of_fame_gives_a_pirates_match_played_to_its_end_the_gold_and_tokens_its_end_told(
        tmp_path: Path) -> None:
    """Pirates' Proposal, its five rounds closed by the game master with every player silent (the
    default plans and drawn ballots): the hall lists the players by gold, and those the end's
    mail gave a Token of Life (rules, Results; P11) say so; a match stopped before its end has
    no standings (the ended() games above)."""
    judge = pirates_game(Judge(tmp_path, web=True), FOUR)
    for _ in range(20):  # five rounds of three phases, and the final one
        judge.send(GM, "SIGNON MASTER@pp gm-pw\nPROCESS")
    end = next(mail for mail in judge.all_mail() if mail.to == address("Ann") and mail.subject == "pp has ended")
    told = next(line.strip() for line in end.body.splitlines() if line.strip().startswith("Tokens of Life: "))
    holders = told.removeprefix("Tokens of Life: ").split(", ")
    hall = read(web_root(judge.settings) / "halloffame.html")
    row = next(row for table in hall.tables if table and "Game" in table[0] for row in table[1:] if row[0] == "pp")
    shown = dict(re.findall(r"\d+\w\w (\w+) \((\d+ gold[^)]*)\)", row[4]))
    assert sorted(shown) == sorted(FOUR), row[4]
    assert {name for name, words in shown.items() if "Token of Life" in words} == set(holders), (told, row[4])


def test_the_hall_of_fame_scores_a_payola_game_by_its_centres_beside_each_treasury(tmp_path: Path) -> None:
    """g1 ended by its master after Spring 1901: Russia holds 4 centres, the six others 3 each.
    No solo, no draw: DSS shares 100 among the seven survivors, 14.3 each (and says so).  Σc² = 16 +
    6 * 9 = 70: SoS 1600 / 70 = 22.9 for Russia, 900 / 70 = 12.9 for the others.  C-Diplo: Russia
    1 + 4 + 38 = 43; the six tie for second and share 14 + 7: 1 + 3 + 3.5 = 7.5 each.  Each
    treasury as the end publication gives it."""
    judge = ended(Judge(tmp_path, web=True), PAYOLA)
    hall = read(web_root(judge.settings) / "halloffame.html")
    table = hall.table_with("C-Diplo")
    assert table[0] == ["Place", "Seat", "DSS", "SoS", "C-Diplo", "Money"] and table[1] == ["g1"]
    rows = {row[1]: row for row in table[2:]}
    assert rows["Russia"][:5] == ["1st", "Russia", "14.3", "22.9", "43.0"]
    assert all(rows[seat][:5] == ["2nd", seat, "14.3", "12.9", "7.5"] for seat in rows if seat != "Russia")
    assert len(rows) == 7
    end = next(mail.body for mail in judge.all_mail() if mail.to == GM and mail.subject == "g1 has ended")
    assert all(f"  {seat}: {rows[seat][5]}" in end for seat in rows), end
    assert "g1 ended with neither a solo nor a draw: Draw-Size Scoring shares its 100 points" in hall.text
