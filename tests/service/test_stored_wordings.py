"""Texts kept to be read later, worded in each reader's language (`judge.language.later`, `worded`): a
game's story and its result are kept as stored wordings and read in Italian, French and English by
the readers of SUMMARY and of the end's mail; an event kept as a plain string before (or imported) is
shown as it was written, and a stored wording's values may be stored wordings themselves."""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import select

from judge.language import in_every_language, in_reader_language, later, nlater, reading, worded
from judge.service.hosting.host import record, result_of, story
from judge.store.models import Game
from tests.support.auction import GAME, MASTER, SEATS, auction_judge
from tests.support.harness import Judge, Sent
from tests.support.people import ALICE, BOB, CAROL, GM, OBSERVER

DAVE = "dave@example.org"
READERS = {ALICE: "it", BOB: "fr", OBSERVER: "fr"}
"""Who reads what: Carol, Dave and the game master chose nothing, and read English."""
TAKEN = {"en": "L1: Carol taken over by a new player", "it": "L1: Carol: un nuovo giocatore è subentrato nel posto",
         "fr": "L1 : Carol : place reprise par un nouveau joueur"}
DESERTED = {"en": "deserted (nobody has played in it since the deadline of L1, and nobody took a seat over in L2)",
            "it": "deserta (nessuno ci gioca dalla scadenza di L1, e nessuno è subentrato in un posto durante L2)",
            "fr": "désertée (personne n'y joue depuis l'échéance de L1, et personne n'a repris de place pendant L2)"}


@pytest.fixture
def unwarned(caplog: pytest.LogCaptureFixture) -> Iterator[None]:
    """The end's mail is queued in each reader's language (`judge.service.outgoing.outbox.queue`); the
    answers to mails and the kind's results are other parts'."""
    with caplog.at_level(logging.WARNING, logger="judge"):
        yield
    others = re.compile(r"\((Re: .*|g1 starts|g1 L\d results.*)\) was written")
    assert not [r for r in caplog.records if "for a reader of" in r.getMessage() and not others.search(r.getMessage())]


def ended(tmp_path: Path) -> Judge:
    """Auction g1 read in three languages: Carol resigns in L1 and Dave takes her seat over; nobody bids,
    every seat is abandoned at L1's deadline and nobody comes in L2, so the game ends deserted (ruling H1)."""
    judge = auction_judge(tmp_path)
    for address, language in READERS.items():
        judge.send(address, f"SET LANGUAGE {language}")
    judge.send(GM, "CREATE g1 gm-secret auction LOTS=6")
    judge.send(GM, f"{MASTER}\nSET SILENCE ON\nSET SILENCE EXTENSIONS 0\nSET SILENCE ABANDON 1")
    for player in SEATS:
        judge.send(player.address, f"JOIN g1 {player.password} {player.name}")
    judge.send(OBSERVER, f"OBSERVE {GAME}")
    judge.send(GM, f"{MASTER}\nSTART")
    judge.send(CAROL, "SIGNON Carol@g1 carol-pw\nRESIGN")
    judge.send(GM, f"{MASTER}\nSET OPENING Carol")
    judge.send(DAVE, "TAKEOVER Carol@g1 dave-pw")
    for hours in (24, 24):
        judge.later(hours)
        judge.tick()
    return judge


def game_row(judge: Judge) -> Game:
    with judge.db.transaction() as session:
        game = session.scalar(select(Game).where(Game.name == GAME))
        assert game is not None
        session.expunge(game)
        return game


def to(mails: list[Sent], address: str, subject: str) -> Sent:
    return next(m for m in mails if m.to == address and subject in m.subject)


def test_the_story_and_the_result_are_read_in_each_readers_language(tmp_path: Path, unwarned: None) -> None:
    judge = ended(tmp_path)
    game = game_row(judge)
    assert game.state == "finished"
    assert isinstance(game.settings["result"], dict)  # kept as a stored wording, worded when read
    mails = judge.new_mail()
    italian, french = to(mails, ALICE, "terminata").body, to(mails, BOB, "terminée").body
    assert italian.startswith(f"La partita g1 è terminata: {DESERTED['it']}")
    assert french.startswith(f"La partie g1 est terminée : {DESERTED['fr']}")
    assert to(mails, OBSERVER, "terminée").body.startswith(f"La partie g1 est terminée : {DESERTED['fr']}")
    for reader in (CAROL, DAVE, GM):
        assert to(mails, reader, "has ended").body.startswith(f"Game g1 has ended: {DESERTED['en']}")
    assert "deserted" not in italian and "deserted" not in french
    for address, language in ((ALICE, "it"), (BOB, "fr"), (CAROL, "en")):
        judge.send(address, "SUMMARY g1")
        summary = judge.last_to(address).body
        assert TAKEN[language] in summary and DESERTED[language] in summary
        if language != "en":
            assert TAKEN["en"] not in summary and "deserted" not in summary and "taken over" not in summary


def test_an_event_kept_as_a_plain_string_is_shown_as_it_was_written(tmp_path: Path) -> None:
    judge = ended(tmp_path)
    with judge.db.transaction() as session:
        game = session.scalar(select(Game).where(Game.name == GAME))
        assert game is not None  # a game kept before events were stored wordings, or imported
        game.settings = {**game.settings, "events": ["L1: Carol taken over by a new player",
                                                     *game.settings["events"]], "result": "a tie for first place"}
    judge.send(ALICE, "SUMMARY g1")
    summary = judge.last_to(ALICE).body
    assert "L1: Carol taken over by a new player" in summary and TAKEN["it"] in summary
    assert "a tie for first place" in summary


def test_a_stored_wording_is_worded_in_the_language_it_is_read_in_with_its_values_worded_too() -> None:
    game = Game(name="g1", phase="S1901M", settings={})
    record(game, later("{seat} taken over by a new player", seat="France"))
    record(game, "the game master revealed every secret")  # a plain string, as a kind may still give
    abandoned = nlater("{seat} declared abandoned: it missed {count} deadline in a row, up to that of {phase}",
                       "{seat} declared abandoned: it missed {count} deadlines in a row, up to that of {phase}",
                       3, seat="Italy", phase="F1901M")
    game.settings = {**game.settings, "result": later("deserted (nobody plays in it, and no seat can be taken over "
                                                      "again)")}
    assert story(game) == ["S1901M: France taken over by a new player",
                           "S1901M: the game master revealed every secret"]
    assert worded(abandoned) == ("Italy declared abandoned: it missed 3 deadlines in a row, up to that of "
                                 "F1901M")
    with reading("it"):
        assert story(game) == ["S1901M: France: un nuovo giocatore è subentrato nel posto",
                               "S1901M: the game master revealed every secret"]
        assert worded(abandoned) == ("Italy: posto dichiarato abbandonato, ha mancato 3 scadenze di fila, fino a "
                                     "quella di F1901M")
        assert result_of(game) == "deserta (nessuno ci gioca, e in nessun posto si può più subentrare)"
    with reading("fr"):
        assert story(game)[0] == "S1901M : France : place reprise par un nouveau joueur"
        nested = later("{phase}: {event}", phase="F1901M", event=abandoned)
        assert worded(nested) == ("F1901M : Italy : place déclarée abandonnée, elle a manqué 3 échéances "
                                  "d'affilée, jusqu'à celle de F1901M")
        damaged = later("{seat} taken over by a new player", who="France")  # a hand-made record's: no error
        assert worded(damaged) == "{seat} : place reprise par un nouveau joueur"
    assert worded(None) == "" and result_of(Game(name="g2", settings={})) is None
    deep: object = "the bottom"
    for _level in range(10_000):  # a hostile record's nesting is cut, not a RecursionError
        deep = {"message": "{event}", "values": {"event": deep}}
    assert worded(deep) == ""
    assert worded({"message": 5, "values": {}}) == "{'message': 5, 'values': {}}"  # not a wording: as it is


def test_a_text_kept_in_every_language_is_read_in_the_readers_or_in_english_or_as_it_was_kept() -> None:
    """A phase's results are made once per language the judge offers and read in the reader's; a
    language missing from what was kept is read in English, and a plain list (kept before, or
    imported) as it is, whoever reads it."""
    kept = in_every_language(lambda: [worded(later("the game has ended"))])
    assert list(kept) == ["en", "fr", "it"] and kept["en"] == ["the game has ended"]
    with reading("it"):
        assert in_reader_language(kept) == kept["it"] != kept["en"]
        assert in_reader_language({"en": ["English only"]}) == ["English only"]
        assert in_reader_language(["kept before"]) == ["kept before"]
    assert in_reader_language(kept) == ["the game has ended"] and in_reader_language(None) is None
