"""The answers to anyone's commands, the sign-on and the consent asked for, the press frames and the
parser's errors, written wholly in their reader's language (issue 72): an Italian and a French reader
each read their own, and a press goes to each of its readers in that reader's language, its text as
written."""

from __future__ import annotations

import logging
import re
from pathlib import Path

import pytest

from judge.commands import parse as cmd
from judge.language import reading
from tests.support.auction import GAME, GM, MASTER, auction_judge, seat, start_auction
from tests.support.harness import Judge
from tests.support.pseudo import pseudo, untranslated

ALICE = "alice@example.org"
DAN = "dan@example.org"
MIXED = "written in"  # `queue`'s warning of a mail queued outside its reader's language


def _no_mixed_mail(caplog: pytest.LogCaptureFixture) -> None:
    assert [r.getMessage() for r in caplog.records if MIXED in r.getMessage() and "for a reader of" in
            r.getMessage()] == []


def test_the_parsers_errors_are_in_the_language_being_read() -> None:
    with reading("it"):
        [line] = cmd.parse_lines(["SIGNON"])
        assert line.command == cmd.BadCommand("atteso SIGNON POTENZA@partita password (oppure SIGNON Xpartita "
                                              "password, SIGNON MASTER@partita password)")
    with reading("fr"):
        [line] = cmd.parse_lines(["SET ABSENCE 2027-01-10 TO 2027-01-01"])
        assert line.command == cmd.BadCommand("une absence finit après avoir commencé")
        [press, _after] = cmd.parse_lines(["PRESS TO ALL", "hello"])
        assert press.command == cmd.BadCommand(cmd.unended_press())
        assert "PRESS sans ENDPRESS : rien n'a été envoyé" in cmd.unended_press()
    [line] = cmd.parse_lines(["SIGNON"])  # outside, English
    assert line.command == cmd.BadCommand("expected SIGNON POWER@game password (or SIGNON Xgame password, "
                                          "SIGNON MASTER@game password)")


def test_anyones_answers_are_italian_for_an_italian_reader(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    judge = Judge(tmp_path)
    judge.send(ALICE, "SET LANGUAGE it")  # answered in English, the language it was read in
    caplog.clear()
    with caplog.at_level(logging.WARNING):
        judge.send(ALICE, "LIST\nCHECK\nWHOGAME nosuch\nSIGNON\nSET MAPS PNG\nSET FORM OFF\nHISTORY")
    said = judge.last_to(ALICE).body
    for sentence in ("ancora nessuna partita",
                     "OK: una prova: questa mail viene letta e ha risposta, poi viene annullata",
                     "ERRORE: atteso SIGNON POTENZA@partita password",
                     "OK: Le tue mail ora porteranno un'immagine: gli ordini della fase disegnati sulla mappa",
                     "(per ogni modo di scrivere il tuo indirizzo alice@example.org, in ogni partita)",
                     "ERRORE: atteso HISTORY partita [fase | prima-ultima]",
                     "CHECK: questa mail era una prova."):
        assert sentence in said, sentence
    for english in ("no games yet", "a check: this mail", "expected SIGNON", "Your mail will now carry",
                    "for every way of writing", "this mail was a check"):
        assert english not in said, english
    _no_mixed_mail(caplog)


def test_anyones_answers_are_french_for_a_french_reader(tmp_path: Path) -> None:
    judge = Judge(tmp_path)
    judge.send(ALICE, "SET LANGUAGE fr")
    judge.send(ALICE, "CONFIRM 0123456789abcdef\nSET MAPS DEFAULT\nSET FORM ON")
    said = judge.last_to(ALICE).body
    for sentence in ("ERREUR : aucune demande n'attend ce jeton (il a peut-être expiré : redemandez)",
                     "OK : Chaque courriel qui ouvre une phase pour votre place se terminera désormais par son "
                     "formulaire à remplir",
                     "Vos courriels porteront désormais le choix par défaut du juge"):
        assert sentence in said, sentence
    for english in ("no request is waiting", "Each mail that opens", "Your mail will now carry"):
        assert english not in said, english


def test_a_create_asks_consent_in_the_language_of_the_address_asked(tmp_path: Path) -> None:
    judge = Judge(tmp_path)
    judge.send(DAN, "SET LANGUAGE it")
    judge.send(DAN, "CREATE g9 secret", confirm=False)
    answer = judge.last_to(DAN)
    asked = next(m for m in judge.all_mail() if m.to == DAN and m.subject.startswith("Conferma per favore: CREATE g9"))
    assert "Qualcuno ha chiesto al giudice judge@localhost di mandare a questo indirizzo la posta di una partita" in (
        asked.body)
    assert "  CREATE g9: una nuova partita, con te come game master" in asked.body
    assert re.search(r"^CONFIRM \S+$", asked.body, re.M)
    assert "Someone asked" not in asked.body and "If it was not you" not in asked.body
    assert asked.body.rstrip().endswith("Il giudice, judge@localhost")
    assert answer is not None


def test_a_press_goes_to_each_reader_in_their_own_language_its_text_as_written(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    judge = start_auction(auction_judge(tmp_path))
    alice, bob = seat("Alice"), seat("Bob")
    judge.send(alice.address, "SET LANGUAGE it")
    judge.send(bob.address, "SET LANGUAGE fr")
    judge.new_mail()
    caplog.clear()
    with caplog.at_level(logging.WARNING):
        judge.send(alice.address, f"{alice.signon()}\nPRESS TO ALL\nHello from Alice, as written.\nENDPRESS")
    mails = {mail.to: mail for mail in judge.new_mail()}
    to_bob, to_master, reply = mails[bob.address], mails[GM], mails[alice.address]
    assert to_bob.subject == f"{GAME} : presse de Alice"
    assert f"Presse dans {GAME} de Alice à tous :" in to_bob.body
    assert "Hello from Alice, as written." in to_bob.body and "Press in" not in to_bob.body
    assert to_master.subject == f"{GAME} press from Alice"
    assert f"Press in {GAME} from Alice to everyone:" in to_master.body
    assert "OK: press inviata a Bob, il game master" in reply.body
    _no_mixed_mail(caplog)


def test_the_masters_answers_and_the_not_yours_refusals_follow_the_masters_language(tmp_path: Path) -> None:
    judge = start_auction(auction_judge(tmp_path))
    judge.send(GM, "SET LANGUAGE fr")
    judge.send(GM, f"{MASTER}\nWHOGAME\nGET INFO")
    said = judge.last_to(GM).body
    assert f"OK : connecté comme maître du jeu de {GAME}" in said
    assert "maître du jeu : gm@example.org" in said
    assert "observateurs : admis (OBSERVE)" in said or "observateurs : non admis" in said
    assert "signed on as master" not in said and "game master:" not in said


def test_these_answers_are_messages_from_their_first_line_to_their_last(tmp_path: Path) -> None:
    """In the pseudo-language (every message bracketed), no line of these answers is left outside one."""
    with pseudo():
        judge = Judge(tmp_path)
        judge.send(ALICE, "SET LANGUAGE it")
        judge.send(ALICE, "CHECK\nSIGNON\nSET MAPS PNG\nSET FORM OFF\nHISTORY\nCONFIRM x\nJOIN\nSET ABSENCE x")
        said = judge.last_to(ALICE).body
    assert untranslated(said) == []


def test_a_replacement_is_told_to_each_reader_in_their_own_language(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """REPLACE: the new player's consent, the game master's notice, the old player's and the players'
    announcement, each in the language of the one who reads it."""
    judge = start_auction(auction_judge(tmp_path))
    alice, bob = seat("Alice"), seat("Bob")
    judge.send(alice.address, "SET LANGUAGE it")
    judge.send(GM, "SET LANGUAGE fr")
    judge.send(DAN, "SET LANGUAGE it")
    judge.new_mail()
    caplog.clear()
    with caplog.at_level(logging.WARNING):
        judge.send(GM, f"{MASTER}\nREPLACE Bob {DAN}")
        asked = next(m for m in judge.new_mail() if m.to == DAN)
        assert asked.subject == f"Conferma per favore: REPLACE Bob@{GAME}"
        assert "per giocare Bob in quella partita al posto del suo giocatore, come ha chiesto il game master" in (
            asked.body)
        token = re.search(r"^CONFIRM (\S+) tuapassword$", asked.body, re.M)
        assert token is not None
        judge.send(DAN, f"CONFIRM {token.group(1)} dans-pw", confirm=False)
    mails = judge.new_mail()
    to_master = next(m for m in mails if m.to == GM and m.subject == f"{GAME} : Bob remplacée")
    assert f"{DAN} a confirmé et joue maintenant Bob dans {GAME} à la place de {bob.address}." in to_master.body
    to_bob = next(m for m in mails if m.to == bob.address)
    assert f"The game master of {GAME} has given Bob to a new player" in to_bob.body  # Bob chose nothing
    to_alice = next(m for m in mails if m.to == alice.address)
    assert f"il game master ha dato Bob a un nuovo giocatore ({DAN})" in to_alice.body
    assert "to a new player" not in to_alice.body and f"Partita {GAME}:" in to_alice.body
    _no_mixed_mail(caplog)
