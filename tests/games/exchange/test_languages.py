"""Exchange's mail in each reader's language (issue 72): an Italian and a French investor read their
results, their statement and the answers to their sheet lines in their own language, with every
figure the English investor in their seat reads; the observers and the game master each in theirs."""

from __future__ import annotations

import json
import logging
import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from sqlalchemy import select

from judge.language import gettext, reading
from judge.store.models import Game, PhaseRow
from judge.web.pages import publish
from tests.games.exchange.by_mail import GM, address, exchange_game, game_row, mails_to, master, send_as
from tests.support.harness import Judge, Sent

WINTER = {  # the worked Winter 1900 (section 3 of the rulings), one sheet each
    0: ("BID 6 FRANCE AT 5", "BID 2 GERMANY AT 3", "ELECT FRANCE ME", "ELECT GERMANY {third}"),
    1: ("PRIORITY 2", "BID 5 FRANCE AT 5", "BID 5 GERMANY AT 4", "ELECT FRANCE ME", "ELECT GERMANY ME"),
    2: ("PRIORITY 3", "BID 4 GERMANY AT 4", "BID 3 FRANCE AT 6", "ELECT GERMANY ME", "ELECT FRANCE ME"),
}


@pytest.fixture(scope="module")
def judge(tmp_path_factory: pytest.TempPathFactory) -> Judge:
    return Judge(Path(tmp_path_factory.mktemp("judge")), max_creates_per_day=50, max_creates_per_hour=50)


def play(judge: Judge, game: str, names: tuple[str, str, str]) -> list[Sent]:
    """The worked Winter 1900 played by ``names`` (in that investor order); the answers to their sheets."""
    exchange_game(judge, game, names, order=names)
    return [send_as(judge, game, name, *(line.format(third=names[2]) for line in WINTER[i]))
            for i, name in enumerate(names)]


def figures(mail: Sent) -> list[str]:
    """Every figure of a mail but its dates, in order."""
    return [n for line in mail.body.splitlines() if "UTC" not in line for n in re.findall(r"[+-]?\d+", line)]


@pytest.fixture(scope="module")
def played(judge: Judge) -> dict[str, tuple[list[Sent], list[Sent]]]:
    judge.send(address("ITA"), "SET LANGUAGE it")
    judge.send(address("FRA"), "SET LANGUAGE fr")
    english = play(judge, "english", ("ANN", "BOB", "CAT"))
    judge.send(GM, "SET LANGUAGE fr")
    with _Warnings() as said:
        translated = play(judge, "mixed", ("ITA", "FRA", "ENG"))
    assert not [r for r in said if "for a reader of" in r.getMessage()]
    return {"answers": (english, translated)}


class _Caught(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


class _Warnings:
    def __enter__(self) -> list[logging.LogRecord]:
        self.handler = _Caught()
        logging.getLogger("judge").addHandler(self.handler)
        return self.handler.records

    def __exit__(self, *_: object) -> None:
        logging.getLogger("judge").removeHandler(self.handler)


def test_an_italian_investor_reads_their_results_in_italian_with_the_english_figures(
        judge: Judge, played: dict[str, tuple[list[Sent], list[Sent]]]) -> None:
    mail, english = mails_to(judge, "ITA", "mixed W1900X risultati"), mails_to(judge, "ANN", "english W1900X results")
    assert "Game english: W1900X has been processed; S1901M opens." in english.body
    assert "Partita mixed: W1900X è stata elaborata; si apre S1901M." in mail.body
    for said in ("Il tuo estratto conto (E39):", "Ordine degli investitori (E30): ENG, FRA, ITA",
                 "saldo quando la fase è stata elaborata: 60 AgP", "che cosa è stato di ciascuna delle tue righe:",
                 "La mappa com'è ora (unità, poi centri di rifornimento):", "% I tuoi contanti: 47 AgP."):
        assert said in mail.body
    for english_words in ("Your statement", "balance now", "has been processed", "The board as it stands",
                          "what became of", "read as", "shares", "Deadline of"):
        assert english_words not in mail.body
    assert figures(mail) == figures(english)


def test_a_french_investor_reads_their_results_in_french_with_the_english_figures(
        judge: Judge, played: dict[str, tuple[list[Sent], list[Sent]]]) -> None:
    mail, english = mails_to(judge, "FRA", "mixed W1900X résultats"), mails_to(judge, "BOB", "english W1900X results")
    for said in ("Partie mixed : W1900X a été traitée ; S1901M s'ouvre.", "Votre relevé (E39) :",
                 "solde au traitement de la phase : 60 AgP", "Échéance de S1901M :"):
        assert said in mail.body
    for english_words in ("Your statement", "balance now", "has been processed", "Deadline of", "shares"):
        assert english_words not in mail.body
    assert figures(mail) == figures(english)


def test_the_english_investor_of_the_same_game_reads_english(
        judge: Judge, played: dict[str, tuple[list[Sent], list[Sent]]]) -> None:
    mail, english = mails_to(judge, "ENG", "mixed W1900X results"), mails_to(judge, "CAT", "english W1900X results")
    assert "Your statement (E39):" in mail.body and "Il tuo" not in mail.body and "Votre" not in mail.body
    assert figures(mail) == figures(english)


def test_the_answers_to_sheet_lines_are_in_the_sender_s_language(
        played: dict[str, tuple[list[Sent], list[Sent]]]) -> None:
    english, (italian, french, _) = played["answers"]
    assert "letta come: un'offerta d'acquisto fino a 6 France a 5 AgP l'una (E8, E13)" in italian.body
    assert "lue comme : dépenser 2 AgP pour l'ordre des investisseurs à l'étape c" in french.body
    assert "read as" not in italian.body and "read as" not in french.body
    assert "read as: a bid for up to 6 France at 5 AgP each (E8, E13)" in english[0].body


def test_the_start_and_the_chart_are_in_their_reader_s_language(
        judge: Judge, played: dict[str, tuple[list[Sent], list[Sent]]]) -> None:
    start = mails_to(judge, "ITA", "mixed comincia")
    assert "Sei l'investitore ITA. Accedi con: SIGNON ITA@mixed yourpassword" in start.body
    assert "Hai 60 AgP e nessuna azione." in start.body and "You have" not in start.body
    french = mails_to(judge, "FRA", "mixed commence")
    assert "Chaque investisseur commence avec 60 AgP (E4)." in french.body
    chart = [m for m in judge.all_mail() if m.to == GM and m.subject == "mixed W1900X : tableau"]
    english = [m for m in judge.all_mail() if m.to == GM and m.subject == "english W1900X chart"]
    assert len(chart) == 1 and len(english) == 1
    for said in ("Partie mixed : le tableau de W1900X, pour le seul maître du jeu", "Feuilles :",
                 "Registre des actions après la phase :",
                 "contrôle de l'argent : 175 détenus + 5 détruits = 180 ; 180 entrés dans la partie"):
        assert said in chart[0].body
    for english_words in ("Sheets:", "What became", "Money after it", "money check", "held by"):
        assert english_words not in chart[0].body
    assert sorted(figures(chart[0])) == sorted(figures(english[0]))  # the sheets listed by name, in another order


def test_a_refused_sheet_and_a_transfer_are_answered_in_the_sender_s_language_and_told_in_the_receiver_s(
        judge: Judge, played: dict[str, tuple[list[Sent], list[Sent]]]) -> None:
    refused = send_as(judge, "mixed", "ITA", "BID 0 FRANCE AT 5")
    assert "ERRORE: non in questa fase (2.2, X.8.2)" in refused.body
    assert "foglio RESPINTO (1 riga errata); non hai nessun foglio per S1901M" in refused.body
    with _Warnings() as said:
        sent = send_as(judge, "mixed", "ITA", "TRANSFER 5 TO FRA")
    assert not [r for r in said if "for a reader of" in r.getMessage()]
    assert "5 AgP mandati a FRA; il tuo saldo è 42 AgP" in sent.body
    told = mails_to(judge, "FRA", "mixed : virement reçu")
    assert "Partie mixed : ITA vous a viré 5 AgP" in told.body and "Votre solde est maintenant de" in told.body
    assert address("FRA") == told.to


def test_status_is_answered_in_the_investor_s_language(
        judge: Judge, played: dict[str, tuple[list[Sent], list[Sent]]]) -> None:
    italian, french = send_as(judge, "mixed", "ITA", "STATUS"), send_as(judge, "mixed", "FRA", "STATUS")
    assert "le tue azioni: France 2, Germany 1" in italian.body and "your shares" not in italian.body
    assert "ordine degli investitori (E30): ENG, FRA, ITA" in italian.body
    assert "vous êtes le PDG de France (E38) :" in french.body and "your balance" not in french.body


def test_a_line_written_wrong_is_answered_in_the_sender_s_language(
        judge: Judge, played: dict[str, tuple[list[Sent], list[Sent]]]) -> None:
    french = send_as(judge, "mixed", "FRA", "BID x FRANCE AT 5", "ELECT")
    assert "« X » n'est pas un nombre entier : un nombre s'écrit en chiffres (X.2.1)" in french.body
    assert "attendu : ELECT X nom, ELECT X ME ou ELECT X NONE" in french.body
    assert "expected" not in french.body and "whole number" not in french.body


def test_exchange_s_help_is_in_the_reader_s_language(
        judge: Judge, played: dict[str, tuple[list[Sent], list[Sent]]]) -> None:
    judge.send(address("ITA"), "HELP EXCHANGE stock")
    italian = judge.last_to(address("ITA")).body
    assert "compra fino a n azioni di X a p l'una, al prezzo offerto (E8)" in italian and "  BID n X AT p" in italian
    judge.send(address("FRA"), "HELP EXCHANGE")
    french = judge.last_to(address("FRA")).body
    assert "Règle 6.8 de Payola : chaque puissance est une société" in french
    assert "buy up to n shares" not in italian and "every power is a corporation" not in french


# -- the pages, SUMMARY, INFO, the core's refusals, lines kept ahead, ROLLBACK and the end ----------------


@pytest.fixture(scope="module")
def finale(judge: Judge, played: dict[str, tuple[list[Sent], list[Sent]]]) -> str:
    """A second game of the same three readers (ITA reads Italian, FRA French, ENG the game's
    language), past its first Exchange phase: ITA France's CEO, FRA Germany's; S1901M open."""
    exchange_game(judge, "finale", ("ITA", "FRA", "ENG"))
    send_as(judge, "finale", "ITA", "BID 10 FRANCE AT 2", "ELECT FRANCE ME")
    send_as(judge, "finale", "FRA", "BID 10 GERMANY AT 2", "ELECT GERMANY ME")
    send_as(judge, "finale", "ENG", "PASS")
    assert game_row(judge, "finale") == ("active", "S1901M")
    return "finale"


def test_the_games_page_is_written_in_the_games_language(judge: Judge, finale: str) -> None:
    master(judge, finale, "SET GAME LANGUAGE it")
    italian = publish(judge.db, judge.settings, finale, force=True).read_text("utf-8")
    for said in ("<h1>Partita finale</h1>", "<h2 id=\"investors\">Investitori</h2>", "<li>ITA: giocato</li>",
                 "Una partita di Exchange Payola: finché è in corso", "Le società ora",
                 "Primavera 1901, movimento (S1901M)"):
        assert said in italian, said
    master(judge, finale, "SET GAME LANGUAGE fr")
    french = publish(judge.db, judge.settings, finale, force=True).read_text("utf-8")
    for said in ("<h1>Partie finale</h1>", "Investisseurs", "<li>FRA : joué</li>", "Les sociétés maintenant",
                 "Écrit par le juge. Tant qu'une partie d'Exchange Payola est en cours"):
        assert said in french, said
    for page in (italian, french):
        for english_words in ("Investors", "A game of Exchange Payola", "The corporations now", "Written by the judge",
                              ": played", "Spring 1901 movement"):
            assert english_words not in page
    master(judge, finale, "SET GAME LANGUAGE en")


def test_summary_and_info_are_answered_in_the_askers_language(judge: Judge, finale: str) -> None:
    judge.send(address("ITA"), f"SUMMARY {finale}")
    italian = judge.last_to(address("ITA")).body
    assert ("Partita finale: Exchange Payola sulla mappa standard: 3 investitori, 60 AgP ciascuno, 10 azioni per "
            "società; in corso, Primavera 1901, movimento (S1901M).") in italian
    assert "on the standard board" not in italian and "Spring" not in italian
    judge.send(address("FRA"), f"GET INFO {finale}")
    french = judge.last_to(address("FRA")).body
    for said in ("Exchange Payola (règle 6.8 de Payola ; les numéros sont ceux des décisions E1 à E41",
                 "carte : standard ; les sociétés sont ses puissances (X.1.1)",
                 "INVESTORS=3 (E1), SHARES=10 par société, toutes dans sa réserve au départ (E7)",
                 "une phase de Bourse par an après les ajustements d'hiver"):
        assert said in french, said
    for english_words in ("the numbers are the rulings", "the corporations are its powers", "one Exchange phase"):
        assert english_words not in french
    judge.send(address("ITA"), f"LIST {finale}")
    listed = judge.last_to(address("ITA")).body
    assert "Exchange Payola sulla mappa standard: 3 investitori" in listed and "investors, 60 AgP each" not in listed


def test_the_cores_refusals_are_written_in_the_senders_language(judge: Judge, finale: str) -> None:
    italian = send_as(judge, finale, "ITA", "TRANSFER 500 TO FRA")
    assert "un trasferimento è al massimo il saldo di chi lo manda (E33)" in italian.body
    assert "sender's balance" not in italian.body
    french = send_as(judge, finale, "FRA", "LEDGER FRANCE")
    assert "seul le PDG de France peut voir ses comptes" in french.body or "ERREUR" in french.body
    judge.send(GM, "CREATE refused gm-pw exchange CLASSIC")
    refused = judge.last_to(GM).body
    assert "Exchange Payola ne joue pas CLASSIC : Payola Classic admet les offres nulles" in refused
    assert "les cartes :" in refused and "the boards" not in refused and "does not play" not in refused


def test_lines_kept_ahead_are_answered_in_the_senders_language(judge: Judge, finale: str) -> None:
    italian = send_as(judge, finale, "ITA", "PHASE F1901M", "BID 1 GERMANY AT 2")
    assert "le righe della fase di Borsa non si conservano in anticipo" in italian.body
    assert "not kept ahead" not in italian.body
    french = send_as(judge, finale, "FRA", "PHASE F1901M", "FOR GERMANY", "A BER - KIE", "END")
    assert "dans une phase de mouvement, on soudoie les unités, on ne leur donne pas d'ordres" in french.body
    assert "units are bribed, not ordered" not in french.body


def test_the_rollback_tells_each_investor_in_their_language(judge: Judge, finale: str) -> None:
    master(judge, finale, "ROLLBACK W1900X")
    italian = mails_to(judge, "ITA", "finale: il tuo conto dopo il ROLLBACK a W1900X").body
    assert "Partita finale: il game master ha riportato la partita a W1900X." in italian
    assert "  il tuo saldo: 60 AgP (era 40 AgP prima del ROLLBACK)" in italian
    assert "  le tue azioni: nessuna (erano France 10)" in italian
    assert "  le tue cariche di amministratore delegato: nessuna" in italian
    french = mails_to(judge, "FRA", "finale : votre compte après le ROLLBACK à W1900X").body
    assert "  votre solde : 60 AgP (il était de 40 AgP avant le ROLLBACK)" in french
    assert "La feuille que vous aviez en vigueur en W1900X est de nouveau en vigueur" in french
    for mail in (italian, french):
        assert "your balance" not in mail and "rolled the game back" not in mail
    master(judge, finale, "PROCESS")
    assert game_row(judge, finale) == ("active", "S1901M")


def test_the_ends_publication_is_in_each_readers_language(judge: Judge, finale: str) -> None:
    with _Warnings() as said:
        for name in ("ITA", "FRA", "ENG"):
            send_as(judge, finale, name, "VOTE DRAW")
    assert not [r for r in said if "for a reader of" in r.getMessage()]
    assert game_row(judge, finale)[0] == "finished"
    ended = [m for m in judge.all_mail() if m.to in (address("ITA"), address("FRA"), address("ENG"))
             and "(E41)" in m.body and m.subject.startswith(finale)]
    italian, french, english = ([m.body for m in ended if m.to == address(name)][-1] for name in ("ITA", "FRA", "ENG"))
    for said in ("Tutto ciò che era segreto è ora pubblicato (E41)",
                 "=== Il libro contabile di ogni società (E24, E41) ===",
                 "Punteggi per % di controllo di Austria, England, France, Germany"):
        assert said in italian, said
    for said in ("Tout ce qui était secret est maintenant publié (E41)",
                 "=== Le grand livre de chaque société (E24, E41) ===", "Scores par % de contrôle de"):
        assert said in french, said
    for mail in (italian, french):
        assert "Everything that was secret" not in mail and "Every corporation's ledger" not in mail
    assert "Everything that was secret is now published (E41)" in english


_TEMPLATE = Path(__file__).parents[3] / "judge" / "games" / "exchange" / "locale" / "messages.pot"
SENTENCES = [message.id for message in read_po(_TEMPLATE.open("rb")) if isinstance(message.id, str)
             and len(message.id) > 24 and "{" not in message.id and "%(" not in message.id]
"""Exchange's English sentences without places: none may be in what an Italian or a French reader reads."""
SAID = {"it": ["Le società dopo W1900X (E36; gli amministratori delegati eletti per il 1901, E19):",
               "La mappa com'è ora (unità, poi centri di rifornimento):", "Che cosa è stato di ciascuna riga:",
               "Registro delle azioni dopo la fase:", "S1901M non è stata giocata: la partita è finita"],
        "fr": ["Les sociétés après W1900X (E36 ; les PDG élus pour 1901, E19) :",
               "La carte telle qu'elle est (unités, puis centres de ravitaillement) :",
               "Ce qu'il est advenu de chaque ligne :", "Registre des actions après la phase :",
               "S1901M n'a pas été jouée : la partie est terminée"]}
"""What an Italian and a French reader read of the phases' kept texts: their public results and charts."""


def _history(judge: Judge, name: str, game: str) -> str:
    judge.send(address(name), f"HISTORY {game}")
    sent = judge.last_to(address(name))
    return sent.body + "".join(data.decode() for _, data in sent.attachments.values())


def test_history_and_the_ends_publication_quote_every_phase_in_the_readers_language(judge: Judge, finale: str) -> None:
    """Each phase's public results, statements and chart are kept in every language, with the same
    figures: HISTORY and the end's publication quote them in the reader's, with no English sentence."""
    with judge.db.transaction() as session:
        game_id = session.scalars(select(Game.id).where(Game.name == finale)).one()
        row = session.scalars(select(PhaseRow).where(PhaseRow.game_id == game_id, PhaseRow.name == "W1900X")).one()
        for key in ("public", "chart"):
            kept = row.result[key]
            assert set(kept) == {"en", "fr", "it"} and kept["it"] != kept["en"]
            assert _marks(kept["en"]) == _marks(kept["fr"]) == _marks(kept["it"]), key
        for investor, kept in row.result["statements"].items():
            assert _marks(kept["en"]) == _marks(kept["fr"]) == _marks(kept["it"]), investor
    ended = [m for m in judge.all_mail() if "(E41)" in m.body and m.subject.startswith(finale)]
    for name, language in (("ITA", "it"), ("FRA", "fr")):
        publication = [m.body for m in ended if m.to == address(name)][-1]
        history = _history(judge, name, finale)
        with reading(language):  # a sentence the language keeps as it is
            same = {sentence for sentence in SENTENCES if gettext(sentence) == sentence}
        for text in (history, publication):
            assert [said for said in SAID[language][2:] if said not in text] == [], name
            assert [sentence for sentence in SENTENCES if sentence in text and sentence not in same] == [], name
            assert "What became of each line" not in text and "was not played" not in text
        assert [said for said in SAID[language][:2] if said not in history] == [], name
        assert "The corporations after" not in history and "The board as it stands" not in history


def test_a_phase_kept_before_its_texts_were_kept_in_every_language_is_read_as_it_was_kept(
        judge: Judge, finale: str) -> None:
    """A phase an older judge processed (or an imported game's) kept its texts once, as plain lists:
    HISTORY quotes them as they were kept, to an Italian reader too."""
    with judge.db.transaction() as session:
        game_id = session.scalars(select(Game.id).where(Game.name == finale)).one()
        row = session.scalars(select(PhaseRow).where(PhaseRow.game_id == game_id, PhaseRow.name == "W1900X")).one()
        row.result = {**row.result, "public": ["An old judge's public results."],
                      "chart": ["An old judge's chart."], "statements": {"ITA": [["Your statement", ["old"]]]}}
    history = _history(judge, "ITA", finale)
    assert "An old judge's public results." in history and "An old judge's chart." in history
    assert "Tutto, pubblicato alla fine (E41)" in history


def _marks(kept: object) -> list[str]:
    """The figures and investors' names of a kept text, in order: the same in every language."""
    return re.findall(r"\b(?:ITA|FRA|ENG)\b|\d+", json.dumps(kept, ensure_ascii=False))


def test_no_centre_and_no_unit_agree_in_gender_in_italian_and_french() -> None:
    """The board's lines say "none" for centres in the centres' gender (`pgettext`), for units in the units'."""
    from judge.games.exchange import views
    from judge.language import add_catalogue, reading

    add_catalogue("judge.games.exchange")  # as the kinds' registry reads it (the test may run alone)
    with reading("it"):
        lines = views.board_lines([], [("PAR", "FRANCE")], {}, ["PAR"]) + views.board_lines(
            [("A PAR", "FRANCE")], [], {}, [])
    assert "France: 1 centro, unità: nessuna" in lines[0] and "      centri: nessuno" in lines
    with reading("fr"):
        lines = views.board_lines([("A PAR", "FRANCE")], [], {}, [])
    assert "      centres : aucun" in lines


