"""The public pages in their reader's language: a game's pages and feeds in the game's (SET GAME LANGUAGE),
the index and the hall of fame in the judge's own; counts by each language's plural rule."""

from __future__ import annotations

from pathlib import Path

from judge.language import reading
from judge.web.pages import publish, publish_game_feeds, publish_index, web_root, write_index
from judge.web.public import GameFacts
from tests.support.auction import GAME, GM, auction_judge, start_auction
from tests.web.page import read_page


def test_the_index_writes_its_words_and_counts_in_the_language_being_read(tmp_path: Path) -> None:
    """Italian says "1 iscritto", "3 iscritti"; French counts 0 as one, as CLDR's rule has it ("0 inscrit")."""
    games = [GameFacts(name, "standard", (), "forming", None, None, joined=joined)
             for name, joined in (("none", 0), ("one", 1), ("three", 3))]
    with reading("it"):
        write_index(tmp_path / "it", games)
    with reading("fr"):
        write_index(tmp_path / "fr", games)
    italian = read_page(tmp_path / "it" / "index.html")
    assert italian.table_with("Partita")[1:] == [
        ["none", "standard", "", "", "0 iscritti finora", "in formazione"],
        ["one", "standard", "", "", "1 iscritto finora", "in formazione"],
        ["three", "standard", "", "", "3 iscritti finora", "in formazione"]]
    french = read_page(tmp_path / "fr" / "index.html")
    assert [row[4] for row in french.table_with("Partie")[1:]] == [
        "0 inscrit jusqu'ici", "1 inscrit jusqu'ici", "3 inscrits jusqu'ici"]
    text = (tmp_path / "fr" / "index.html").read_text("utf-8")
    assert '<html lang="fr">' in text and "Toutes les parties" in text and "All games" not in text


def test_a_games_pages_are_in_its_language_and_the_judges_index_in_the_judges(tmp_path: Path) -> None:
    judge = start_auction(auction_judge(tmp_path))
    judge.send(GM, f"SIGNON MASTER@{GAME} gm-secret\nSET GAME LANGUAGE fr")
    page = publish(judge.db, judge.settings, GAME, force=True)
    text = page.read_text("utf-8")
    assert '<html lang="fr">' in text
    assert "<dt>État</dt><dd>en cours</dd>" in text and "Prochaine échéance" in text  # the host's summary
    assert "Skip to the content" not in text and "All games" not in text
    index = publish_index(judge.db, judge.settings).read_text("utf-8")
    assert '<html lang="en">' in index and "In progress" in index and "En cours" not in index
    publish_game_feeds(judge.db, judge.settings, [GAME])
    feed = (web_root(judge.settings) / "feeds" / f"{GAME}.atom").read_text("utf-8")
    assert f"<title>{GAME} : résultats (" in feed and "le juge de" in feed
