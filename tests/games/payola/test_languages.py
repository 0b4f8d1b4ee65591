"""Payola in each reader's language (issue 72): a game of an Italian, a French and an English power,
each mail of a phase written wholly in its reader's language, the figures the same in all three."""

from __future__ import annotations

import logging
import re
from pathlib import Path

import pytest
from sqlalchemy import select

from judge.bootstrap import kinds
from judge.games.payola import lifecycle
from judge.games.payola.seating import Seat
from judge.language import reading, template_gettext
from judge.store.models import Game
from tests.games.payola.by_mail import play_spring
from tests.support.harness import Judge, Sent, start_game
from tests.support.people import ALICE, BOB, CAROL

READERS = {ALICE: "it", BOB: "fr", CAROL: "en"}
OBSERVERS = {"oit@example.org": "it", "ofr@example.org": "fr", "oen@example.org": "en"}
ENGLISH = ("Your private statement as", "your balance:", "Orders:", "Supply centers:", "Next phase:",
           "has started", "Your acceptance list:", "Powers, in the board's order:", "total spent:",
           "The board for", "First phase:")


def said(language: str, message: str, **values: object) -> str:
    """``message`` (a template's) as a reader of ``language`` reads it."""
    with reading(language):
        return template_gettext(message) % values


def _game(tmp_path: Path) -> Judge:
    judge = Judge(tmp_path, maps=False)
    for address, language in {**READERS, **OBSERVERS}.items():
        if language != "en":
            judge.send(address, f"SET LANGUAGE {language}")
    start_game(judge, "g1", "", ((ALICE, "FRANCE"), (BOB, "GERMANY"), (CAROL, "ENGLAND")))
    for observer in OBSERVERS:
        judge.send(observer, "OBSERVE g1")
    judge.new_mail()
    return judge


def _english_left(body: str) -> list[str]:
    return [sentence for sentence in ENGLISH if sentence in body]


def test_each_power_and_observer_reads_the_phases_results_in_their_language(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    judge = _game(tmp_path)
    caplog.clear()  # the answers to SET LANGUAGE are the host's
    with caplog.at_level(logging.WARNING):
        play_spring(judge)  # the last sheet processes the phase
    assert not [r for r in caplog.records if "for a reader of" in r.getMessage()]
    subjects = {"it": "g1 S1901M risultati", "fr": "g1 S1901M résultats", "en": "g1 S1901M results"}
    results = {m.to: m for m in judge.new_mail() if m.subject in subjects.values()}
    for address, language in {**READERS, **OBSERVERS}.items():
        assert results[address].subject == subjects[language]  # each mail's subject in its reader's language
    with judge.db.transaction() as session:
        game = session.scalar(select(Game).where(Game.name == "g1"))
        assert game is not None
        money = lifecycle.balances(session, game)
    paid = {ALICE: ("FRANCE", "France", 2, "A PAR - BUR"), BOB: ("GERMANY", "Germany", 2, "A MUN - RUH"),
            CAROL: ("ENGLAND", "England", 1, "F LON - NTH")}
    for address, language in READERS.items():
        body = results[address].body
        power, title, amount, order = paid[address]
        assert said(language, "Game %(game)s, results of %(phase)s.", game="g1", phase="S1901M") in body
        assert said(language, "Your private statement as %(power)s (rule 5.7; nobody else sees it):",
                    power=title) in body
        assert said(language, "you paid %(paid)s AgP for %(order)s", paid=amount, order=order) in body
        assert said(language, "your balance: %(balance)s AgP", balance=money[power]) in body
        assert said(language, "Supply centers:") in body
        if language != "en":
            assert _english_left(body) == [], (language, body)
    assert "Il tuo estratto conto privato come France (regola 5.7; nessun altro lo vede):" in results[ALICE].body
    assert "votre solde : " in results[BOB].body and "il tuo saldo: " in results[ALICE].body
    observed = {OBSERVERS[m.to]: m.body for m in results.values() if m.to in OBSERVERS}
    assert set(observed) == {"it", "fr", "en"}
    figures = {language: re.findall(r"\d+", body) for language, body in observed.items()}
    assert figures["it"] == figures["fr"] == figures["en"]  # only the words change
    assert "Ordini:" in observed["it"] and "Ordres :" in observed["fr"] and "Orders:" in observed["en"]
    assert _english_left(observed["it"]) == [] and _english_left(observed["fr"]) == []


def test_the_start_mail_is_in_each_readers_language(tmp_path: Path) -> None:
    judge = Judge(tmp_path, maps=False)
    for address, language in READERS.items():
        if language != "en":
            judge.send(address, f"SET LANGUAGE {language}")
    start_game(judge, "g1", "", ((ALICE, "FRANCE"), (BOB, "GERMANY"), (CAROL, "ENGLAND")))
    started: dict[str, Sent] = {m.to: m for m in judge.new_mail()
                                if m.subject in ("g1 starts", "g1 comincia", "g1 commence")}
    assert [started[a].subject for a in (ALICE, BOB, CAROL)] == ["g1 comincia", "g1 commence", "g1 starts"]
    assert "La partita g1 è cominciata (standard)." in started[ALICE].body
    assert "La partie g1 a commencé (standard)." in started[BOB].body
    assert "Game g1 has started (standard)." in started[CAROL].body
    assert "Giochi France (hai chiesto France)." in started[ALICE].body
    assert "Mappa: Standard: 7 potenze, 34 centri, 18 per vincere, da S1901M." in started[ALICE].body
    assert "Votre liste d'acceptation : G? (règle 4.2 : " in started[BOB].body
    for address in (ALICE, BOB):
        assert _english_left(started[address].body) == [], started[address].body


def test_a_ledger_entry_and_a_seats_reason_are_worded_when_they_are_read() -> None:
    from judge.games.payola.views import account
    kinds()  # the kinds' catalogues found, as a judge's are, however this test is run
    entry = account([("income", 5, "5 supply centers"), ("transfer", -3, "to FRANCE")])
    with reading("it"):
        assert [str(e["what"]) for e in entry] == ["entrate: 5 centri di rifornimento", "trasferimento: a France"]
    with reading("fr"):
        assert str(entry[0]["what"]) == "revenu : 5 centres de ravitaillement"
    assert str(entry[1]["what"]) == "transfer: to France"
    seat = Seat("FRANCE", ("GERMANY", "FRANCE"), 2, 3)
    with reading("fr"):
        assert seat.why.startswith("votre choix n° 2 : ")
    assert seat.why.startswith("your choice 2: ")


def test_a_sheets_answer_and_its_errors_are_in_the_senders_language(tmp_path: Path) -> None:
    judge = _game(tmp_path)
    judge.send(ALICE, "SIGNON F@g1 alice-pw\n5.5 : A PAR - BUR\n2 : A MAR H")
    judge.send(BOB, "SIGNON G@g1 bob-pw\n2 : A MUN - RUH\n9 $")
    alice, bob = judge.last_to(ALICE).body, judge.last_to(BOB).body
    assert "'5.5': un importo è un numero intero di AgP, 0 o più" in alice
    assert "non applicato: il foglio ha errori (vedi sotto)" in alice
    assert "foglio RESPINTO (1 errore); il tuo foglio per S1901M ora è: nessuno" in alice
    assert "feuille d'offres acceptée : 1 offre, épargne 9 AgP ; elle remplace toute feuille antérieure" in bob
    assert "whole number" not in alice and "offer sheet accepted" not in bob


def test_summary_is_in_the_askers_language(tmp_path: Path) -> None:
    judge = _game(tmp_path)
    judge.send(BOB, "SIGNON G@g1 bob-pw\nSUMMARY")
    judge.send(CAROL, "SIGNON E@g1 carol-pw\nSUMMARY")
    bob, carol = judge.last_to(BOB).body, judge.last_to(CAROL).body
    assert "Partie g1 (standard) : en cours, S1901M." in bob
    assert "Centres de ravitaillement au début de chaque année :" in bob
    assert "Game g1 (standard): active, S1901M." in carol and "Supply centers at the start of each year:" in carol


def test_a_transfer_is_answered_and_told_each_in_its_readers_language(tmp_path: Path,
                                                                       caplog: pytest.LogCaptureFixture) -> None:
    judge = _game(tmp_path)
    caplog.clear()
    with caplog.at_level(logging.WARNING):
        judge.send(BOB, "SIGNON G@g1 bob-pw\nTRANSFER 5 TO F")
    assert not [r for r in caplog.records if "for a reader of" in r.getMessage()]
    assert "5 AgP envoyés à France ; votre solde est de " in judge.last_to(BOB).body
    told = judge.last_to(ALICE)
    assert told.subject == "g1: trasferimento ricevuto"
    assert "Partita g1: Germany ti ha mandato 5 AgP." in told.body and "sent you" not in told.body


def test_history_answers_in_the_askers_language(tmp_path: Path) -> None:
    judge = _game(tmp_path)
    judge.send(BOB, "SIGNON G@g1 bob-pw\nHISTORY")
    assert "aucune phase traitée dans cet intervalle" in judge.last_to(BOB).body
    play_spring(judge)
    judge.send(ALICE, "SIGNON F@g1 alice-pw\nHISTORY")
    said = judge.last_to(ALICE).body
    assert "Partita g1, risultati di S1901M." in said and "Ordini:" in said and "Orders:" not in said


def test_help_and_info_are_in_the_askers_language(tmp_path: Path) -> None:
    judge = _game(tmp_path)
    judge.send(ALICE, "HELP payola")
    judge.send(BOB, "HELP payola")
    italian, french = judge.last_to(ALICE).body, judge.last_to(BOB).body
    judge.send(ALICE, "HELP payola offers")
    judge.send(BOB, "HELP payola offers")
    italian, french = italian + judge.last_to(ALICE).body, french + judge.last_to(BOB).body
    assert "Diplomacy in cui nessuno dà ordini alle proprie unità nelle fasi di movimento" in italian
    assert "    diretta: paghi 4 se l'armata si muove nello Yorkshire" in italian
    assert "  4 : A LON - YOR\n" in italian  # the lines a player writes stay as the judge reads them
    assert "Une Diplomatie où personne ne donne d'ordres à ses propres unités" in french
    assert "    cadeau : payer 4 quoi qu'elle fasse" in french
    for body in (italian, french):
        assert "Diplomacy in which nobody" not in body and "pay 4 whatever it does" not in body
    judge.send(ALICE, "GET INFO g1")
    judge.send(BOB, "GET INFO g1")
    italian, french = judge.last_to(ALICE).body, judge.last_to(BOB).body
    assert "Payola Diplomacy (i numeri sono quelli delle regole di Payola) sulla mappa standard" in italian
    assert "entrate (2.1): 17 AgP per il primo centro di rifornimento" in italian
    assert "revenu (2.1) : 17 AgP pour le premier centre de ravitaillement" in french
    assert "the numbers are those" not in italian + french and "for the first supply center" not in italian + french


def test_the_masters_status_is_in_the_masters_language(tmp_path: Path) -> None:
    judge = _game(tmp_path)
    judge.send(BOB, "SIGNON G@g1 bob-pw\nTRANSFER 5 TO F")
    judge.send("gm@example.org", "SET LANGUAGE it")
    judge.send("gm@example.org", "SIGNON MASTER@g1 gm-secret\nSTATUS")
    status = judge.last_to("gm@example.org").body
    assert ("ogni potenza: il suo posto; se ha mandato o no (mai cosa); il suo saldo e i trasferimenti di questa "
            "fase; il suo voto") in status
    assert "Germany: giocato; in attesa; 43 AgP (trasferimenti in questa fase: -5 a France); voto: nessuno" in status
    assert "nessuna assenza richiesta" in status
    assert "each power" not in status and "waiting" not in status and "no absence" not in status


def test_an_offer_for_an_illegal_order_is_refused_in_the_senders_language(tmp_path: Path) -> None:
    judge = _game(tmp_path)
    judge.send(ALICE, "SIGNON F@g1 alice-pw\n2 : A PAR - MOS\n3 : A MAR S")
    judge.send(BOB, "SIGNON G@g1 bob-pw\n2 : A MUN - MOS\n1 : A BER - XXX")
    alice, bob = judge.last_to(ALICE).body, judge.last_to(BOB).body
    assert ("'A PAR - MOS' non è un ordine valido per A PAR: la destinazione non è adiacente e non esiste una rotta "
            "di convoglio") in alice
    assert "attesa la provincia dell'unità supportata, trovato 'fine dell'ordine'" in alice
    assert ("« A MUN - MOS » n'est pas un ordre valide pour A MUN : la destination n'est pas adjacente et aucune "
            "route de convoi n'existe") in bob
    assert "province inconnue « XXX »" in bob
    for body in (alice, bob):
        assert "is not a legal order" not in body and "not adjacent" not in body and "expected" not in body
    judge.send(ALICE, "SIGNON F@g1 alice-pw\n3*2#1 + 1 > A PAR - BUR | - PIC")
    assert ("letta come tre offerte da 2 AgP (plateau 1) e una da 1 AgP; offerta di movimento per A PAR - BUR o "
            "A PAR - PIC, o per qualsiasi altro movimento") in judge.last_to(ALICE).body


def test_the_end_publication_is_in_each_readers_language(tmp_path: Path) -> None:
    judge = _game(tmp_path)
    play_spring(judge)
    judge.new_mail()
    judge.terminate("gm@example.org", "SIGNON MASTER@g1 gm-secret")
    ended = {m.to: m.body for m in judge.new_mail() if m.to in READERS}
    assert "Tesorerie finali:" in ended[ALICE] and "Liste di accettazione usate (regola 4.5)" in ended[ALICE]
    assert "Fogli delle offerte e denaro (saldo, risparmi chiesti, speso, giri di riduzione):" in ended[ALICE]
    assert "A PAR (France) ha eseguito A PAR - BUR, totale 2; hanno pagato: France 2" in ended[ALICE]
    assert "Trésors finaux :" in ended[BOB] and ("A MUN (Germany) a exécuté A MUN - RUH, total 2 ; ont payé : Germany 2"
                                             in ended[BOB])
    assert "Final treasuries:" in ended[CAROL]
    for language in (ALICE, BOB):
        assert "Final treasuries" not in ended[language] and "Offer sheets and money" not in ended[language]
        assert " issued " not in ended[language] and "nobody paid" not in ended[language]


def test_a_games_pages_are_in_its_language(tmp_path: Path) -> None:
    from judge.web.pages import publish
    judge = _game(tmp_path)
    play_spring(judge)
    for language, words, english in (
            ("it", ("Potenze", "Giocata da", "Centri di rifornimento", "Primavera 1901, movimento"), "Played by"),
            ("fr", ("Puissances", "Jouée par", "Centres de ravitaillement", "Printemps 1901, mouvement"), "Played by")):
        judge.send("gm@example.org", f"SIGNON MASTER@g1 gm-secret\nSET GAME LANGUAGE {language}")
        page = publish(judge.db, judge.settings, "g1", force=True)
        text = page.read_text("utf-8")
        assert all(word in text for word in words), (language, text)
        assert english not in text and "Supply centers" not in text and "Spring 1901 movement" not in text
        phase = (page.parent / "S1901M.html").read_text("utf-8")
        assert ("Ordini come aggiudicati" if language == "it" else "Ordres tels qu'arbitrés") in phase
        assert "Orders as adjudicated" not in phase and "The board after" not in phase


@pytest.mark.parametrize("first", ["en", "it", "fr"])
def test_an_orders_result_and_its_reason_are_in_each_renders_language_whatever_was_rendered_first(
        first: str) -> None:
    """The words of a result and an illegal order's reason are made once a render (board.txt.j2's and
    illegal.txt.j2's tables): each render of the public results, one language after another in one process,
    writes them in its own reader's."""
    from judge.bootstrap import kinds
    from judge.service.templates import environment, render
    kinds()  # Payola's templates and catalogue registered
    environment.cache_clear()  # a new environment: the first render in it is in ``first``
    results = [{"power": "FRANCE", "order": "A PAR - BUR", "result": "bounce", "reason": None},
               {"power": "GERMANY", "order": "A MUN S A MUN", "result": "illegal", "reason": None,
                "detail": "a unit cannot support itself"}]
    view = {"blind": False, "power": None, "results": results, "automatic": [], "board": None}
    order = [first] + [language for language in ("en", "it", "fr") if language != first]
    for language in order:
        with reading(language):
            text = render("payola/results_public", view=view)
        for word in ("bounce", "illegal", "a unit cannot support itself"):
            assert f"{said(language, word)}" in text, (language, word, text)
        if language != "en":
            assert "bounce" not in text and "cannot support" not in text
