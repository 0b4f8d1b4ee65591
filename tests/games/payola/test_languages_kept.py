"""Payola's last English sentences in each reader's language (issue 72): a result kept in the game's
settings (a draw, a concession, a win) worded when it is read, the draw count told with the results,
LIST's lines, the warnings on orders taken together, the Tin Cup answers, the commands' refusals."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from sqlalchemy import select

from judge.games.payola import submissions
from judge.language import add_catalogue, later, nlater, reading, worded
from judge.store.models import Game
from tests.games.payola.by_mail import ENGLAND, FRANCE, GERMANY, play_spring, teleport
from tests.support.harness import Judge, start_game
from tests.support.people import ALICE, BOB, CAROL

READERS = {ALICE: "it", BOB: "fr", CAROL: "en"}
add_catalogue("judge.games.payola")  # as the kinds' registry reads it (the pure tests may run alone)


def _game(tmp_path: Path, options: str = "") -> Judge:
    judge = Judge(tmp_path, maps=False)
    for address, language in READERS.items():
        if language != "en":
            judge.send(address, f"SET LANGUAGE {language}")
    start_game(judge, "g1", options, ((ALICE, "FRANCE"), (BOB, "GERMANY"), (CAROL, "ENGLAND")))
    judge.new_mail()
    return judge


def _kept_result(judge: Judge) -> object:
    with judge.db.transaction() as session:
        game = session.scalar(select(Game).where(Game.name == "g1"))
        assert game is not None
        return game.settings.get("result")


def test_the_draw_count_is_told_in_each_readers_language(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    judge = _game(tmp_path, "SHOW_VOTES")
    judge.send(ALICE, FRANCE + "VOTE DRAW")
    caplog.clear()
    with caplog.at_level(logging.WARNING):
        play_spring(judge)
    assert not [r for r in caplog.records if "for a reader of" in r.getMessage()]
    results = {m.to: m.body for m in judge.new_mail() if "S1901M" in m.subject and not m.subject.startswith("Re:")}
    assert "1 delle 3 potenze sopravvissute ora vota per la patta." in results[ALICE]
    assert "1 des 3 puissances survivantes vote maintenant pour la nulle." in results[BOB]
    assert "1 of the 3 surviving powers now vote for a draw." in results[CAROL]
    assert "surviving powers now vote" not in results[ALICE] + results[BOB]


def test_a_draw_by_votes_is_kept_and_read_in_each_readers_language(tmp_path: Path) -> None:
    judge = _game(tmp_path)
    judge.send(ALICE, FRANCE + "VOTE DRAW")
    judge.send(BOB, GERMANY + "VOTE DRAW")
    judge.send(CAROL, ENGLAND + "VOTE DRAW")
    assert ("the votes of the surviving powers end the game: a draw including all survivors: Austria, England, "
            "France") in judge.last_to(CAROL).body
    kept = _kept_result(judge)
    assert isinstance(kept, dict) and kept["message"] == "a draw including all survivors: {powers}"
    judge.send(ALICE, "SUMMARY g1")
    judge.send(BOB, "SUMMARY g1")
    italian, french = judge.last_to(ALICE).body, judge.last_to(BOB).body
    assert "una patta tra tutti i sopravvissuti: Austria, England, France" in italian
    assert "une nulle entre tous les survivants : Austria, England, France" in french
    assert "a draw including" not in italian + french
    judge.send(ALICE, "LIST g1")
    judge.send(CAROL, "LIST g1")
    assert "risultato: una patta tra tutti i sopravvissuti: Austria, England, France" in judge.last_to(ALICE).body
    assert "result: a draw including all survivors: Austria, England, France" in judge.last_to(CAROL).body


def test_a_concession_is_answered_and_kept_in_each_readers_language(tmp_path: Path) -> None:
    judge = _game(tmp_path)
    judge.send(CAROL, ENGLAND + "VOTE CONCEDE FRANCE")
    judge.send(BOB, GERMANY + "VOTE CONCEDE FRANCE")
    assert ("les votes des puissances survivantes terminent la partie : concédée à France par toutes les autres "
            "puissances survivantes") in judge.last_to(BOB).body
    judge.send(ALICE, "SUMMARY g1")
    italian = judge.last_to(ALICE).body
    assert "concessa a France da tutte le altre potenze sopravvissute" in italian
    assert "conceded to" not in italian and "end the game" not in judge.last_to(BOB).body


def test_a_win_and_a_plain_result_of_an_older_judge_are_worded_when_read() -> None:
    win = nlater("{power} has won with {count} supply center", "{power} has won with {count} supply centers", 18,
                 power="France")
    with reading("it"):
        assert worded(win) == "France ha vinto con 18 centri di rifornimento"
        assert worded("France has won with 18 supply centers") == "France has won with 18 supply centers"
    with reading("fr"):
        assert worded(win) == "France a gagné avec 18 centres de ravitaillement"
        assert worded(later("the game master revealed every secret")) == "le maître du jeu a révélé tous les secrets"
    assert worded(win) == "France has won with 18 supply centers"


def test_list_is_in_the_askers_language(tmp_path: Path) -> None:
    judge = _game(tmp_path)
    judge.send(BOB, GERMANY + "2 : A MUN - RUH")
    judge.send(ALICE, "LIST g1")
    judge.send(BOB, "LIST g1")
    judge.send(CAROL, "LIST g1")
    italian, french, english = (judge.last_to(who).body for who in (ALICE, BOB, CAROL))
    for line in ("stato: in corso", "mappa: standard (Standard: 7 potenze", "opzioni: nessuna",
                 "fase: S1901M, scadenza ", "France: giocato, in attesa", "Germany: giocato, inviato"):
        assert line in italian, (line, italian)
    for line in ("état : en cours", "carte : standard (Standard : 7 puissances", "phase : S1901M, échéance ",
                 "France : joué, en attente", "Germany : joué, envoyé"):
        assert line in french, (line, french)
    for line in ("state: active", "board: standard (Standard: 7 powers", "options: none", "France: played, waiting",
                 "Germany: played, submitted"):
        assert line in english, (line, english)
    for body in (italian, french):
        assert "state: " not in body and "waiting" not in body and "submitted" not in body


def test_warnings_on_orders_together_are_whole_sentences_in_the_senders_language(tmp_path: Path) -> None:
    judge = _game(tmp_path)
    teleport(judge, {"phase": "W1901A",
                     "units": {"FRANCE": ["A BUR"], "GERMANY": ["A MUN", "A BER", "A KIE", "A RUH"],
                               "ENGLAND": ["F LON"]},
                     "centers": {"FRANCE": ["PAR", "BRE", "MAR"], "GERMANY": ["MUN", "BER"], "ENGLAND": ["LON"]}})
    judge.send(ALICE, FRANCE + "BUILD A PAR")
    judge.send(BOB, GERMANY + "REMOVE A RUH")  # both have sent: the phase is processed after the answers
    answers = {m.to: m.body for m in judge.new_mail() if m.subject.startswith("Re:")}
    italian, french = answers[ALICE], answers[BOB]
    assert "ATTENZIONE: puoi costruire 2 e ne hai ordinati 1: al resto si rinuncia" in italian
    assert ("ATTENTION : 2 retraits sont dus et vous en avez ordonné 1 : le juge retirera le reste selon les règles "
            "du désordre civil") in french
    assert "WARNING" not in italian + french


def test_the_tin_cup_answers_are_worded_in_the_readers_language() -> None:
    with reading("it"):
        assert submissions.unseen().startswith("nomina un'unità che non è sulla mappa come la vedi tu")
        assert submissions.unseen_order().startswith("nomina un'unità che non vedi (Tin Cup, regola 6.3)")
    with reading("fr"):
        assert submissions.unseen_place().startswith("nomme une province que vous ne voyez pas (Tin Cup, règle 6.3) :")
    assert submissions.unseen_order().startswith("names a unit you do not see (Tin Cup, rule 6.3): taken as given")


def test_a_commands_refusal_is_in_the_senders_language(tmp_path: Path) -> None:
    judge = _game(tmp_path)
    judge.send(ALICE, FRANCE + "TRANSFER 9999999999 TO GERMANY\nMAP now\nVOTE MAYBE")
    judge.send(BOB, GERMANY + "TRANSFER -3 TO FRANCE\nFROBNICATE\nPRESS TO ENGLND\nHi\nENDPRESS")
    italian, french = judge.last_to(ALICE).body, judge.last_to(BOB).body
    assert "un trasferimento è al massimo di 1.000.000 AgP" in italian
    assert "MAP non vuole niente dopo di sé" in italian
    assert "atteso VOTE DRAW, VOTE CONCEDE potenza o VOTE NONE" in italian
    assert "« -3 » : un montant est un nombre entier d'AgP, 0 ou plus" in french
    assert "« ENGLND » n'est ni une puissance" in french
    assert "commande inconnue « FROBNICATE » : HELP liste les commandes" in french
    assert "expected" not in italian + french and "unknown command" not in french


def test_a_zero_sum_ledger_entry_is_worded_when_read() -> None:
    from judge.games.payola.views import account
    entries = account([("zerosum", 30, "10 AgP per supply center (rule 6.7)"), ("zerosum", -12, "TUN lost to ITALY")])
    with reading("it"):
        assert str(entries[0]["what"]) == "somma zero: 10 AgP per centro di rifornimento (regola 6.7)"
    with reading("fr"):
        assert str(entries[0]["what"]) == "somme nulle : 10 AgP par centre de ravitaillement (règle 6.7)"
    assert str(entries[1]["what"]) == "zero sum: TUN lost to Italy"


def test_a_tin_cup_order_out_of_sight_is_answered_in_the_senders_language(tmp_path: Path) -> None:
    judge = Judge(tmp_path, maps=False)
    judge.send(ALICE, "SET LANGUAGE fr")
    judge.send("gm@example.org", "CREATE loyal pw standard BLIND LOYAL_UNITS")
    judge.send(ALICE, "JOIN loyal pw-f FRANCE")
    judge.send("gm@example.org", "SIGNON MASTER@loyal pw\nSTART")
    judge.send(ALICE, "SIGNON FRANCE@loyal pw-f\nA MAR S A MUN - BUR\nF BRE H")
    [reply] = [m for m in judge.all_mail() if "> A MAR S A MUN - BUR" in m.body]
    assert ("> A MAR S A MUN - BUR\n  OK : nomme une unité que vous ne voyez pas (Tin Cup, règle 6.3) : pris tel quel "
            "et jamais commenté") in reply.body
    assert "names a unit" not in reply.body
