"""The host's handling of incoming mail in each reader's language (issue 72): an Italian and a French
reader get a press answer, a long answer's note, a superseded line's answer, PROCESS's announcement, the
notices of SET PASSWORD, the sign-on failures' notice and the quarantined / failure mails in their own
language, each a whole sentence (no clause glued to another in English)."""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from judge.language import reading
from judge.service.incoming.handlers import receive
from judge.service.incoming.handlers.answers import clauses
from judge.service.running.app import apply_stored
from tests.kinds.auction import core
from tests.support.auction import auction_judge, bid, master, send, start_auction, to
from tests.support.harness import Judge, raw_mail
from tests.support.people import ALICE, BOB, CAROL, GM, OBSERVER

MALLORY = "mallory@evil.example"
EVE = "eve@evil.example"


OTHERS = re.compile(r"\((g1 L1 results)\) was written")
"""Mails not these tests' part: the test kind's results (written in English: the auction is no kind a
player plays).  The copy of a reply to a seat's registered address is written in its reader's language
(quoting the reply as it was written where the reply's language is another)."""


@contextmanager
def unwarned(caplog: pytest.LogCaptureFixture) -> Iterator[None]:
    """No mail these commands cause was queued outside its reader's language (`outbox.queue`'s warning)."""
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="judge"):
        yield
    assert not [said for record in caplog.records
                if "for a reader of" in (said := record.getMessage()) and not OTHERS.search(said)]


def _speaking(tmp_path: Path, players: int = 2, **languages: str) -> Judge:
    judge = start_auction(auction_judge(tmp_path), players=players)
    for address, language in languages.items():
        judge.send(address, f"SET LANGUAGE {language}")
    judge.new_mail()
    return judge


def test_the_press_answer_is_one_sentence_in_its_writers_language(tmp_path: Path,
                                                                  caplog: pytest.LogCaptureFixture) -> None:
    judge = _speaking(tmp_path, **{ALICE: "it", BOB: "fr"})
    judge.send(OBSERVER, "OBSERVE g1")
    with unwarned(caplog):
        italian = send(judge, "Alice", "PRESS TO Bob", "Ciao Bob.", "ENDPRESS").body
        french = send(judge, "Bob", "PRESS TO ALL", "Bonjour.", "ENDPRESS").body
    assert "OK: press inviata a Bob" in italian and "press sent" not in italian
    assert "OK : presse envoyée à Alice, le maître du jeu et à 1 observateur" in french
    assert "press sent" not in french and "observer" not in french
    with reading("fr"):
        assert clauses(["presse envoyée à Alice", "non envoyée à Carol"]) == ("presse envoyée à Alice ; non "
                                                                              "envoyée à Carol")


def test_a_long_answer_says_what_is_attached_in_its_readers_language(tmp_path: Path) -> None:
    judge = _speaking(tmp_path, **{ALICE: "it", BOB: "fr"})
    italian = send(judge, "Alice", "HELP ALL").body
    french = send(judge, "Bob", "HELP ALL").body
    assert "OK: in allegato come help.txt (" in italian and " righe)" in italian
    assert "OK : en pièce jointe, help.txt (" in french and " lignes)" in french
    for said in (italian, french):
        assert "attached as" not in said and "the judge's help" not in said


def test_an_early_process_is_told_to_each_reader_in_their_language(tmp_path: Path,
                                                                   caplog: pytest.LogCaptureFixture) -> None:
    judge = _speaking(tmp_path, players=3, **{ALICE: "it", BOB: "fr"})
    bid(judge, "Alice", 20)
    judge.new_mail()
    with unwarned(caplog):
        master(judge, "PROCESS")
    mails = judge.new_mail()
    italian = " ".join(m.body for m in to(mails, ALICE))
    french = " ".join(m.body for m in to(mails, BOB))
    english = " ".join(m.body for m in to(mails, CAROL))
    assert "Il game master ha elaborato L1 in anticipo, " in italian
    assert "Le maître du jeu a traité L1 en avance, " in french
    assert "The game master processed L1 early, " in english
    for said in (italian, french):
        assert "processed L1 early" not in said


def test_an_early_process_read_in_one_language_is_said_in_the_results(tmp_path: Path) -> None:
    judge = _speaking(tmp_path, **{ALICE: "it", BOB: "it", GM: "it", CAROL: "fr"})
    bid(judge, "Alice", 20)
    judge.new_mail()
    judge.send(CAROL, "SIGNON MASTER@g1 gm-secret\nSET GRACE 12\nPROCESS")  # answered in French, from elsewhere
    assert "OK : " in judge.last_to(CAROL).body
    mails = judge.new_mail()
    for reader in (ALICE, BOB):
        [results] = [m for m in to(mails, reader) if m.subject.startswith("g1 L1")]
        assert "Il game master ha elaborato L1 in anticipo, " in results.body
        assert "Anche nella mail del game master: " in results.body and "Also in" not in results.body


def test_the_registered_address_is_told_of_a_new_password_in_its_language(tmp_path: Path,
                                                                          caplog: pytest.LogCaptureFixture) -> None:
    judge = _speaking(tmp_path, **{ALICE: "it", BOB: "fr"})
    with unwarned(caplog):
        judge.send(ALICE, "SIGNON Alice@g1 alice-pw\nSET PASSWORD alice-new", headers={"Reply-To": MALLORY})
        judge.send(BOB, "SIGNON Bob@g1 bob-pw\nSET PASSWORD bob-new", headers={"Reply-To": MALLORY})
    mails = judge.new_mail()
    [italian] = [m for m in to(mails, ALICE) if m.subject == "La tua iscrizione presso il giudice è cambiata"]
    [french] = [m for m in to(mails, BOB) if m.subject == "Votre inscription auprès du juge a changé"]
    assert "la password di Alice in g1 è stata cambiata" in italian.body
    assert "le mot de passe de Bob dans g1 a été changé" in french.body
    assert "was changed" not in italian.body + french.body


def test_failed_sign_ons_are_told_to_the_seat_in_its_language(tmp_path: Path) -> None:
    judge = _speaking(tmp_path, **{ALICE: "it", BOB: "fr"})
    for attempt in range(5):
        judge.send(MALLORY, f"SIGNON Alice@g1 guess{attempt}")
        judge.send(EVE, f"SIGNON Bob@g1 guess{attempt}")
    mails = judge.new_mail()
    [italian] = [m for m in to(mails, ALICE) if m.subject == "g1: accessi falliti come Alice"]
    [french] = [m for m in to(mails, BOB) if m.subject == "g1 : connexions échouées comme Bob"]
    assert "Ci sono stati 5 accessi falliti come Alice in g1, da queste fonti" in italian.body
    assert "Se non eri tu, qualcuno sta tirando a indovinare" in italian.body
    assert "Il y a eu 5 connexions échouées en tant que Bob dans g1, depuis ces sources" in french.body
    assert "Si ce n'était pas vous, quelqu'un essaie de deviner" in french.body
    for said in (italian.body, french.body):
        assert "failed sign-ons" not in said and "someone is guessing" not in said


def test_a_quarantined_mail_is_told_to_its_sender_and_master_in_their_languages(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    judge = _speaking(tmp_path, **{ALICE: "it", GM: "fr"})

    def broken_bid(auction: core.Auction, seat: str, amount: int) -> str | None:
        raise RuntimeError("boom")

    monkeypatch.setattr(core, "check_bid", broken_bid)
    with unwarned(caplog):
        first = receive(judge.db, raw_mail(ALICE, "SIGNON Alice@g1 alice-pw\nBID 2"), judge.now)
        assert [status for _, status in apply_stored(judge.db, judge.settings, judge.now)] == ["quarantined"]
    judge.process("g1")  # delivers the outbox
    mails = {m.to: m for m in judge.new_mail()}
    assert "Spiacenti: il giudice non è riuscito a elaborare la tua mail" in mails[ALICE].body
    assert "internal error" not in mails[ALICE].body
    assert mails[GM].subject == f"Courriel {first} mis en quarantaine"
    assert "set it aside" not in mails[GM].body and "RuntimeError: boom" in mails[GM].body


def test_list_and_whogame_name_a_games_state_in_the_readers_language(tmp_path: Path) -> None:
    judge = _speaking(tmp_path, **{ALICE: "it", BOB: "fr"})
    judge.send(ALICE, "LIST\nWHOGAME g1")
    italian = judge.last_to(ALICE).body
    judge.send(BOB, "LIST\nWHOGAME g1")
    french = judge.last_to(BOB).body
    assert "g1: in corso" in italian and ", in corso" in italian.split("> WHOGAME g1")[1]
    assert "g1: en cours" in french and ", en cours" in french.split("> WHOGAME g1")[1]
    assert "active" not in italian + french
