"""The host's own mail in each reader's language (`judge.service.hosting`): one game whose readers read
Italian, French and English, each getting the announcements, the deadline reminders, the extensions, the
abandoned seats and the end of the game in their own language, wholly, and the words of counts and
lengths of time (`judge.service.templates`) in it."""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from datetime import datetime, time
from pathlib import Path

import pytest

from judge.language import reading
from judge.service.hosting.kinds import GameKind
from judge.service.hosting.records import Record
from judge.service.hosting.silence import Policy
from judge.service.hosting.weekly import Weekly
from judge.service.templates import counted, duration, when
from judge.store.models import Game, PhaseRow
from tests.support.auction import GAME, MASTER, SEATS, auction_judge
from tests.support.harness import Judge, Sent
from tests.support.people import ALICE, BOB, CAROL, GM, OBSERVER

READERS = {ALICE: "it", BOB: "fr", OBSERVER: "fr"}
"""Who reads what: Carol and the game master chose nothing, and read English."""


@pytest.fixture
def unwarned(caplog: pytest.LogCaptureFixture) -> Iterator[None]:
    """No mail of the host's is queued outside its reader's language (`judge.service.outgoing.outbox.queue`);
    the answers to mails, a kind's start and results are other parts' (tests/service/test_languages*.py)."""
    with caplog.at_level(logging.WARNING, logger="judge"):
        yield
    others = re.compile(r"\((Re: .*|g1 starts|g1 L\d results)\) was written")
    assert not [r for r in caplog.records if "for a reader of" in r.getMessage() and not others.search(r.getMessage())]


def three_languages(tmp_path: Path, policy: str = "") -> Judge:
    """Auction g1 with Alice (Italian), Bob (French), Carol (English), a French observer and an English
    game master; started, its first lot L1 due 24 hours later.  Nobody has bid."""
    judge = auction_judge(tmp_path)
    for address, language in READERS.items():
        judge.send(address, f"SET LANGUAGE {language}")
    judge.send(GM, "CREATE g1 gm-secret auction LOTS=6")
    if policy:
        judge.send(GM, f"{MASTER}\n{policy}")
    for player in SEATS:
        judge.send(player.address, f"JOIN g1 {player.password} {player.name}")
    judge.send(OBSERVER, f"OBSERVE {GAME}")
    judge.send(GM, f"{MASTER}\nSTART")
    judge.new_mail()
    return judge


def to(mails: list[Sent], address: str, subject: str = "") -> Sent:
    return next(m for m in mails if m.to == address and subject in m.subject)


def test_an_announcement_given_as_a_function_is_written_in_each_readers_language(
        tmp_path: Path, unwarned: None) -> None:
    """A sentence a caller gives as a function (`judge.service.hosting.turn.Said`, as PAUSE gives its own) is
    written once per language: each player, the game master and the observer read it in theirs."""
    judge = three_languages(tmp_path)
    judge.send(GM, f"{MASTER}\nPAUSE")
    mails = [m for m in judge.new_mail() if m.to != GM or "Re:" not in m.subject]
    italian, french = to(mails, ALICE, "g1"), to(mails, BOB, "g1")
    assert "il game master ha messo in pausa la partita" in italian.body
    assert "en pause" in french.body and "en pause" in to(mails, OBSERVER, "g1").body
    assert "the game master paused the game" in to(mails, CAROL, "g1").body
    assert "paused the game" not in italian.body and "paused the game" not in french.body
    assert italian.subject == "g1: il game master ha messo in pausa la partita"  # its headline


def test_each_seat_is_reminded_of_the_deadline_in_its_language(tmp_path: Path, unwarned: None) -> None:
    judge = three_languages(tmp_path)
    judge.later(12)  # a phase of a day is reminded half-way
    judge.tick()
    mails = judge.new_mail()
    assert to(mails, ALICE).subject == "g1 L1 promemoria"
    assert to(mails, BOB).subject == "g1 L1 rappel"
    assert to(mails, CAROL).subject == "g1 L1 reminder"


def test_the_default_reminder_of_a_kind_is_a_whole_sentence_in_the_readers_language() -> None:
    game, row = Game(name="g1"), PhaseRow(name="L1")
    until, extended = datetime(2026, 1, 7, 12), datetime(2026, 1, 8, 12)
    kind = GameKind.__new__(GameKind)
    with reading("it"):
        said = GameKind.notice(kind, None, game, row, "Alice", "late", until, extended)  # type: ignore[arg-type]
        assert said == ("La scadenza è passata: invia i tuoi ordini per L1 di g1 prima di 2026-01-07 12:00 UTC (se "
                        "non arrivano entro allora, la fase è prorogata a 2026-01-08 12:00 UTC).\n")
    with reading("fr"):
        said = GameKind.notice(kind, None, game, row, "Alice", "reminder", until)  # type: ignore[arg-type]
        assert said == "L'échéance approche : envoyez vos ordres pour L1 de g1 avant 2026-01-07 12:00 UTC.\n"
    said = GameKind.notice(kind, None, game, row, "Alice", "reminder", until)  # type: ignore[arg-type]
    assert said == "The deadline is near: send your orders for L1 of g1 before 2026-01-07 12:00 UTC.\n"


def test_an_extension_is_told_to_each_reader_in_their_language(tmp_path: Path, unwarned: None) -> None:
    judge = three_languages(tmp_path, "SET SILENCE ON\nSET SILENCE EXTENSIONS 1")
    judge.later(24)
    judge.tick()
    mails = judge.new_mail()
    italian, french, english = (to(mails, who, "L1").body for who in (ALICE, BOB, CAROL))
    assert "L1 prorogata" in italian and "prolongée" not in italian and "extended" not in italian
    assert "L1 prolongée" in french and "prorogata" not in french and "extended" not in french
    assert "L1 extended" in english
    assert "L1 prolongée" in to(mails, OBSERVER, "L1").body
    assert "L1 extended" in to(mails, GM, "L1").body


def test_seats_abandoned_and_the_end_are_told_in_each_readers_language(tmp_path: Path, unwarned: None) -> None:
    judge = three_languages(tmp_path, "SET SILENCE ON\nSET SILENCE EXTENSIONS 0\nSET SILENCE ABANDON 1")
    judge.later(24)
    judge.tick()
    mails = judge.new_mail()
    alone = to(mails, ALICE, "Alice")
    assert alone.subject == "g1: Alice dichiarato abbandonato"
    assert "Non hai agito in L1 di g1, quindi il giudice ha dichiarato Alice abbandonato" in alone.body.replace(
        "\n", " ")
    assert "You have not" not in alone.body
    news = to(mails, OBSERVER, "abandonné").body
    assert "Bob déclaré abandonné : l'échéance de L1 a été manquée" in news.replace("\n", " ")
    assert "declared abandoned" not in news
    assert to(mails, GM, "declared abandoned").subject == "g1: Alice, Bob and Carol declared abandoned"
    judge.send(GM, f"{MASTER}\nTERMINATE")
    code = judge.last_to(GM).body.split("send TERMINATE ")[1].split()[0]
    judge.send(GM, f"{MASTER}\nTERMINATE {code}")
    mails = judge.new_mail()
    assert to(mails, ALICE, "terminata").subject == "g1 è terminata"
    assert to(mails, BOB, "terminée").body.startswith("La partie g1 est terminée : ")
    assert "Qui a joué chaque joueur :\n  Alice: un joueur (L1 à L1)" in to(mails, OBSERVER, "terminée").body
    assert to(mails, CAROL, "has ended").body.startswith("Game g1 has ended: ")


def test_counts_and_lengths_of_time_are_written_in_the_readers_language() -> None:
    assert (counted(1, "offer"), counted(3, "supply center"), duration(30.5), when(None)) == (
        "1 offer", "3 supply centers", "1 day 6 hours 30 minutes", "none")
    with reading("it"):
        assert (counted(1, "unit"), counted(2, "supply center"), duration(25), when(None)) == (
            "1 unità", "2 centri di rifornimento", "1 giorno 1 ora", "nessuna")
    with reading("fr"):
        assert (counted(0, "unit"), counted(2, "offer"), duration(0.5), duration(0.001)) == (
            "0 unité", "2 offres", "30 minutes", "moins d'une minute")
    assert counted(2, "lot") == "2 lots"  # a noun the host does not know takes an s, in English


def test_the_clock_the_silence_policy_and_a_record_are_written_in_the_readers_language() -> None:
    rule, policy = Weekly((0, 3), time(12, 0), "Europe/Paris", 12), Policy(extensions=2, abandon=3)
    record = Record(due=20, on_time=19, abandoned=1, finished=2)
    assert rule.words() == "Mondays and Thursdays at 12:00 (Europe/Paris), at least 12 hours a phase"
    assert record.words() == ("very reliable: 95% of 20 phases on time; left 1 seat to be declared abandoned; played 2 "
                              "games to the end")
    with reading("it"):
        assert rule.words() == "il lunedì e il giovedì alle 12:00 (Europe/Paris), almeno 12 ore a fase"
        assert policy.words().startswith("ai posti che devono ancora agire viene ricordato ogni giorno")
        assert "fino a 2 volte di 1 giorno" in policy.words()
        assert record.words() == ("molto affidabile: 95% di 20 fasi in tempo; ha lasciato 1 posto dichiarato "
                                  "abbandonato; ha giocato 2 partite fino alla fine")
    with reading("fr"):
        assert rule.words() == "le lundi et le jeudi à 12:00 (Europe/Paris), au moins 12 heures par phase"
        assert "une place qui manque 3 échéances de suite est déclarée abandonnée" in policy.words()
        assert record.numbers()[2] == "parties terminées : 2"
