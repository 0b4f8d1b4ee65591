"""Machiavelli in three languages at one table: an Italian, a French and an English player (and an
Italian observer) each read the start and a season's results wholly in their own language, every figure
the same as the others' (and as the game master's copy of each statement, in English), and every mail
composed in its reader's language (the outbox warns of none written in another)."""

from __future__ import annotations

import logging
import re
from collections import Counter
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from sqlalchemy import select

from judge.bootstrap import kinds
from judge.games import machiavelli
from judge.games.machiavelli import views
from judge.games.machiavelli.core.position import Phase
from judge.language import gettext, reading
from judge.store.models import PhaseRow
from judge.web.pages import web_root
from tests.support.harness import Judge, Sent

GM = "gm@example.org"
WATCHER = "watcher@example.org"
PLAYERS = {"Florence": ("ann@example.org", "it"), "Milan": ("bob@example.org", "fr"),
           "Venice": ("cy@example.org", "en")}
_TEMPLATE = Path(machiavelli.__file__).parent / "locale" / "messages.pot"
SENTENCES = [message.id for message in read_po(_TEMPLATE.open("rb")) if isinstance(message.id, str)
             and len(message.id) > 24 and "{" not in message.id and "%(" not in message.id]
"""The kind's English sentences without places: none may be in an Italian or a French mail."""


def letter(judge: Judge, country: str, *lines: str) -> Sent:
    address = PLAYERS[country][0]
    judge.send(address, "\n".join((f"SIGNON {country}@m1 pw-{country}", *lines)))
    return judge.last_to(address)


def figures(text: str) -> Counter[str]:
    """Every number of ``text``, however many times each (the words around them are the language's)."""
    return Counter(re.findall(r"\d+", text))


def english_in(body: str) -> list[str]:
    return [sentence for sentence in SENTENCES if sentence in body]


@pytest.fixture(scope="module")
def season(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[Sent]]:
    judge = Judge(tmp_path_factory.mktemp("languages"))
    for address, language in [*PLAYERS.values(), (WATCHER, "it")]:
        judge.send(address, f"SET LANGUAGE {language}")
    judge.send(GM, "CREATE m1 gm-pw machiavelli")
    for country, (address, _language) in PLAYERS.items():
        judge.send(address, f"JOIN m1 pw-{country} {country}")
    judge.send(WATCHER, "OBSERVE m1")
    judge.new_mail()
    judge.send(GM, "SIGNON MASTER@m1 gm-pw\nSTART")
    mails = {"start": judge.new_mail()}
    answers = [letter(judge, "Florence", "transfer 3 to Milan", "pay A flo", "pay A are", "raise A psa", "pay A xyz"),
               letter(judge, "Milan", "STATUS", "BORDERS Pisa")]
    letter(judge, "Venice", "pay G ven", "pay A pad", "pay A ver", "pay F dal")
    letter(judge, "Milan", "pay A mil", "pay A pav", "pay A cre", "raise G mil")  # the last letter: carried out
    mails["SP1454A"] = judge.new_mail()
    letter(judge, "Florence", "bodyguard 3", "A flo - pst", "A are - pst")
    letter(judge, "Milan", "transfer 2 to Venice", "counter-bribe 3 A mil", "A cre - man")
    letter(judge, "Venice", "bodyguard 3")
    mails["SP1454C"] = judge.new_mail()
    mails["answers"] = answers
    return mails


def mail_to(mails: list[Sent], address: str) -> str:
    found = [mail.body for mail in mails if mail.to == address and not mail.subject.startswith("Re: ")]
    assert len(found) == 1, [mail.subject for mail in mails if mail.to == address]
    return found[0]


def test_each_player_reads_the_start_in_their_language(season: dict[str, list[Sent]]) -> None:
    start = season["start"]
    italian, french = mail_to(start, "ann@example.org"), mail_to(start, "bob@example.org")
    english = mail_to(start, "cy@example.org")
    assert "Giochi Florence (" in italian and "Invia la tua lettera di primavera per Primavera 1454" in italian
    assert "I paesi:" in italian and "La mappa, Primavera 1454:" in italian
    assert "Vous jouez Milan (" in french and "Envoyez votre lettre de printemps pour Printemps 1454" in french
    assert "Le plateau, Printemps 1454 :" in french and "Votre trésor : 15 ducats." in french
    assert "You play Venice (" in english and "The board, Spring 1454:" in english
    assert english_in(italian) == [] and english_in(french) == []
    assert "Il tuo tesoro: 15 ducati." in italian
    assert "Game m1 has started" in mail_to(start, GM) and "La partita m1 è cominciata" in mail_to(start, WATCHER)


@pytest.mark.parametrize("phase", ["SP1454A", "SP1454C"])
def test_each_player_reads_the_seasons_results_in_their_language_with_the_same_figures(
        season: dict[str, list[Sent]], phase: str) -> None:
    mails = season[phase]
    italian, french = mail_to(mails, "ann@example.org"), mail_to(mails, "bob@example.org")
    english, master = mail_to(mails, "cy@example.org"), mail_to(mails, GM)
    assert "I risultati pubblici:" in italian and "Il tuo tesoro:" in italian
    assert "Les résultats publics :" in french and "Votre trésor :" in french
    assert "The public results:" in english and "Your treasury:" in english
    assert english_in(italian) == [] and english_in(french) == []
    assert "The public results:" not in italian + french and "I risultati pubblici:" not in english + french
    public = {body: body[body.index(head):body.index(tail)] for body, head, tail in (
        (italian, "I risultati pubblici:", "\n\nInvia la tua"), (french, "Les résultats publics :", "\n\nEnvoyez"),
        (english, "The public results:", "\n\nSend your"), (master, "The public results:", "\n\nNow "))}
    assert len({frozenset(figures(text).items()) for text in public.values()}) == 1  # the same figures, each
    for body, country, head in ((italian, "Florence", "Solo per Florence:"), (french, "Milan", "Pour Milan seul :"),
                                (english, "Venice", "For Venice alone:")):
        own = body[body.index(head) + len(head):body.index("\n\n", body.index(head))]
        copy = master[master.index(f"\n{country}:\n") + len(country) + 3:]
        copy = copy[:copy.index("\n\n")]
        assert figures(own) == figures(copy), (own, copy)
    watcher = mail_to(mails, WATCHER)
    assert "I risultati pubblici:" in watcher and english_in(watcher) == []


def test_every_mail_of_the_season_is_composed_in_its_readers_language(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="judge"):
        judge = Judge(tmp_path)
        judge.send("ann@example.org", "SET LANGUAGE it")
        judge.send(GM, "CREATE m1 gm-pw machiavelli")
        judge.send("ann@example.org", "JOIN m1 pw-Florence Florence")
        judge.send(GM, "SIGNON MASTER@m1 gm-pw\nSTART")
        judge.later(73)
        judge.process("m1")
    assert [record.message for record in caplog.records if "was written in" in record.message
            and "(Re: " not in record.message] == []  # the answer to SET LANGUAGE is in the language it was read in


def test_the_answers_to_a_letter_status_and_borders_are_in_the_senders_language(
        season: dict[str, list[Sent]]) -> None:
    italian, french = (answer.body for answer in season["answers"])
    assert "letto come: transfer 3 to Milan" in italian
    assert "Questa è la tua lettera, la lettera di primavera" in italian
    assert "4 ordini." in italian and "non letto: " in italian
    assert "AVVISO: ci sono ordini di pagamento, e omettono F psa" in italian
    assert "non letto: nessuna area si chiama 'xyz'; non eseguito" in italian
    assert "Vous jouez Milan. Votre trésor : 15 ducats." in french and "Vos unités : " in french
    assert ("Pisa (psa), une province côtière avec une ville portuaire fortifiée de revenu 1, borde 8 zones :"
            in french)
    assert english_in(italian) == [] and english_in(french) == []


def test_the_statements_words_follow_the_reader() -> None:
    kinds()  # the kinds' catalogues found, as a judge's are, however this test is run
    with reading("it"):
        assert views.default_text(Phase.C) == "nessuna spesa, e ogni unità resta ferma (17.2, M50)"
    with reading("fr"):
        assert views.said("held (9.2)") == "a tenu (9.2)"
    assert views.said("held (9.2)") == "held (9.2)"


# -- HELP, INFO, HISTORY, a refused line, the end's publication and the page ------------------------------------------

SAID = {
    "it": {"help": ["Le fasi sono le lettere che le regole attendono",
                    "letters: la tua lettera, la sua unica correzione",
                    "  A Flo H\n    restare fermo (anche: holds, stand)", "Ordini di primavera (fase A; AoP da 5 a 7):",
                    "  classic: Machiavelli (mappa classica, 1454), 8 paesi"],
           "join": "'Narnia' non nomina nessun paese della mappa classic",
           "block": "che non è un ordine di la lettera di campagna di Primavera 1454",
           "info": ["la variante Absence of Plague", "la press è grigia (anonima) per impostazione predefinita (18.1)"],
           "history": ["== SP1454A, la lettera di primavera di Primavera 1454 (ordini A) ==",
                       "m2 non ha eseguito nessuna fase FA1460C (eseguite: SP1454A)",
                       "Primavera 1454, fase A (da A.4 ad A.7):", "Unità sciolte (7):"],
           "end": ["Niente è più segreto (M63)", "=== La fine ===", "La lettera di Florence:\n  transfer 3 to Milan",
                   "Il rendiconto di Florence:", "Il tuo tesoro: 15 ducati prima, 6 ducati ora.",
                   "Non hai inviato alcuna lettera: gli stipendi delle unità sono pagati d'ufficio"],
           "page": ["<h1>Partita m2</h1>", "Una partita di Machiavelli per posta", "<h2 id=\"seats\">Paesi</h2>",
                    "Florence: giocato", "I risultati di SP1454A", "Il denaro di ogni paese, anno per anno"]},
    "fr": {"help": ["Les phases sont les lettres que les règles attendent",
                    "letters: votre lettre, son unique correction", "  A Flo H\n    tenir (aussi : holds, stand)",
                    "Ordres de printemps (phase A ; AoP 5 à 7) :",
                    "  classic : Machiavelli (carte classique, 1454), 8 pays"],
           "join": "« Narnia » ne nomme aucun pays de la carte classic",
           "block": "qui n'est pas un ordre de la lettre de campagne de Printemps 1454",
           "info": ["la variante Absence of Plague", "la presse est grise (anonyme) par défaut (18.1)"],
           "history": ["== SP1454A, la lettre de printemps de Printemps 1454 (ordres A) ==",
                       "m2 n'a exécuté aucune phase FA1460C (exécutées : SP1454A)",
                       "Printemps 1454, phase A (A.4 à A.7) :", "Unités dissoutes (7) :"],
           "end": ["Plus rien n'est secret (M63)", "=== La fin ===", "La lettre de Florence :\n  transfer 3 to Milan",
                   "Le relevé de Florence :", "Votre trésor : 15 ducats avant, 6 ducats maintenant.",
                   "Vous n'avez envoyé aucune lettre : les soldes des unités sont payées d'office"],
           "page": ["<h1>Partie m2</h1>", "Une partie de Machiavelli par courriel", "<h2 id=\"seats\">Pays</h2>",
                    "Florence : joué", "Les résultats de SP1454A", "argent de chaque pays, année par année"]},
}
ENGLISH = {"help": ["The phases are the letters the rules await", "hold (also: holds, stand)"],
           "join": "names no country", "block": "which is no order of",
           "info": ["the variant Absence of Plague", "press is grey (anonymous) by default"],
           "history": ["the spring letter of Spring 1454", "has carried out no phase", "Spring 1454, phase A",
                       "Units disbanded (7):"],
           "end": ["Nothing is secret any more", "=== The end ===", "Florence's letter:", "Your treasury:",
                   "You sent no letter:"],
           "page": ["Game m2", "A game of Machiavelli by mail", "Countries", "Florence: played", "The results of",
                    "year by year"]}
"""What an English reader reads of the same: none of it in an Italian or a French reader's."""


@pytest.fixture(scope="module", params=["it", "fr"])
def played(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> tuple[str, dict[str, str]]:
    """A reader of ``language`` plays Florence, an English reader Milan, in a game whose pages are in
    ``language``: what the Florentine reads of HELP, a refused JOIN and block line, GET INFO, HISTORY, the
    end's publication, and the game's page."""
    language = request.param
    judge = Judge(tmp_path_factory.mktemp(f"reader-{language}"), web=True)
    ann, bob = PLAYERS["Florence"][0], PLAYERS["Milan"][0]
    judge.send(ann, f"SET LANGUAGE {language}")
    judge.send(GM, "SET LANGUAGE en")  # the game master reads English whatever the game's language
    judge.send(ann, "HELP machiavelli")
    read = {"help": judge.last_to(ann).body}
    judge.send(ann, "HELP machiavelli create")
    read["help"] += judge.last_to(ann).body
    judge.send(ann, "HELP machiavelli syntax")
    sent = judge.last_to(ann)
    read["help"] += sent.body + "".join(data.decode() for _, data in sent.attachments.values())
    judge.send(GM, "CREATE m2 gm-pw machiavelli")
    judge.send(ann, "JOIN m2 pw-Florence Narnia")
    read["join"] = judge.last_to(ann).body
    judge.send(ann, "JOIN m2 pw-Florence Florence")
    judge.send(bob, "JOIN m2 pw-Milan Milan")
    judge.send(GM, f"SIGNON MASTER@m2 gm-pw\nSET GAME LANGUAGE {language}\nSTART")
    judge.send(ann, "\n".join(("SIGNON Florence@m2 pw-Florence", "transfer 3 to Milan", "PHASE SP1454C",
                               "pay A flo")))
    read["block"] = judge.last_to(ann).body
    judge.send(bob, "SIGNON Milan@m2 pw-Milan\npay A mil")  # the last letter: SP1454A is carried out
    judge.send(ann, "GET INFO m2")
    read["info"] = judge.last_to(ann).body
    judge.send(ann, "HISTORY m2")
    sent = judge.last_to(ann)
    read["history"] = sent.body + "".join(data.decode() for _, data in sent.attachments.values())
    judge.send(ann, "HISTORY m2 FA1460C")
    read["history"] += judge.last_to(ann).body
    read["page"] = (web_root(judge.settings) / "games" / "m2" / "index.html").read_text("utf-8")
    judge.new_mail()
    judge.terminate(GM, "SIGNON MASTER@m2 gm-pw")
    read["end"] = next(m.body for m in judge.new_mail() if m.to == ann and not m.subject.startswith("Re: "))
    return language, read


@pytest.mark.parametrize("part", ["help", "join", "block", "info", "history", "end", "page"])
def test_help_info_history_a_refused_line_the_publication_and_the_page_are_in_the_readers_language(
        played: tuple[str, dict[str, str]], part: str) -> None:
    language, read = played
    said = SAID[language][part]
    text = " ".join(read[part].split())  # as one line: the mail wraps long lines
    for sentence in [said] if isinstance(said, str) else said:
        assert " ".join(sentence.split()) in text, (part, sentence)
    english = ENGLISH[part]
    assert [sentence for sentence in ([english] if isinstance(english, str) else english) if sentence in text] == []
    with reading(language):  # not one English sentence of the kind, the phases' kept texts included, but a title
        kept = {sentence for sentence in SENTENCES if gettext(sentence) == sentence}  # kept as it is (AoP's)
    assert [sentence for sentence in english_in(read[part]) if sentence not in kept] == [], part


def test_a_phase_kept_before_its_texts_were_kept_in_every_language_is_read_as_it_was_kept(
        tmp_path: Path) -> None:
    """A phase processed by an older judge kept its public results and statements once, in English (a
    plain list, as an imported game's may be): HISTORY and the end's publication show them as they were
    kept, to an Italian reader too, with the rest of the answer in Italian; a phase kept in every language
    is read in the reader's."""
    judge = Judge(tmp_path)
    ann, bob = PLAYERS["Florence"][0], PLAYERS["Milan"][0]
    judge.send(ann, "SET LANGUAGE it")
    judge.send(GM, "CREATE m3 gm-pw machiavelli")
    judge.send(ann, "JOIN m3 pw-Florence Florence")
    judge.send(bob, "JOIN m3 pw-Milan Milan")
    judge.send(GM, "SIGNON MASTER@m3 gm-pw\nSTART")
    judge.send(ann, "SIGNON Florence@m3 pw-Florence\npay A flo")
    judge.send(bob, "SIGNON Milan@m3 pw-Milan\npay A mil")  # SP1454A carried out
    with judge.db.transaction() as session:
        row = session.scalars(select(PhaseRow).where(PhaseRow.name == "SP1454A")).one()
        assert set(row.result["public"]) == {"en", "fr", "it"}
        assert row.result["statements"]["Florence"]["it"] != row.result["statements"]["Florence"]["en"]
        assert figures("".join(row.result["public"]["it"])) == figures("".join(row.result["public"]["en"]))
        row.result = {**row.result, "public": ["An old judge's public results."],
                      "statements": {"Florence": ["An old judge's statement for Florence."]}}
    judge.send(ann, "HISTORY m3")
    sent = judge.last_to(ann)
    history = sent.body + "".join(data.decode() for _, data in sent.attachments.values())
    assert "== SP1454A, la lettera di primavera di Primavera 1454 (ordini A) ==" in history
    assert "An old judge's public results." in history
    judge.new_mail()
    judge.terminate(GM, "SIGNON MASTER@m3 gm-pw")
    end = next(m.body for m in judge.new_mail() if m.to == ann and not m.subject.startswith("Re: "))
    assert "Il rendiconto di Florence:\n  An old judge's statement for Florence." in end
    assert "Niente è più segreto (M63)" in end
