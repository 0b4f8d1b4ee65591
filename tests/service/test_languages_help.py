"""HELP in the reader's language: the index, the host's topics and all of the help (HELP ALL) written
wholly in Italian or in French for a reader who chose it, no English sentence of the host's catalogue
left in them, the commands as the judge reads them, and the help as short as in English."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from judge.bootstrap import kinds
from judge.language import reading
from judge.service.config import Settings
from judge.service.incoming import help_topics
from judge.service.outgoing import preferences
from tests.support.harness import Judge
from tools import catalogues

READER = "lettore@example.org"
PLACE = re.compile(r"%\([a-z_]+\)s|\{[a-z_]+\}")
SHORTEST = 20  # an English stretch shorter than this may be a command or a name, in every language


def english_stretches(language: str) -> list[str]:
    """Each stretch of English between the named places of the host's messages, as long as a sentence's
    part, that the language's translation of the message does not keep as it is (a command list)."""
    host = catalogues.domains()[0]
    with host.po(language).open("rb") as po:
        catalogue = read_po(po)
    stretches = []
    for message in catalogue:
        if not message.id or isinstance(message.id, tuple):
            continue
        translated = " ".join(str(message.string).split())
        for stretch in PLACE.split(message.id):
            stretch = " ".join(stretch.split())
            if len(stretch) >= SHORTEST and stretch not in translated:
                stretches.append(stretch)
    return stretches


def english_left(text: str, language: str) -> list[str]:
    """The stretches of the host's English messages still in ``text`` (its lines joined as one)."""
    return [stretch for stretch in english_stretches(language) if stretch in flat(text)]


def reader(tmp_path: Path, language: str) -> Judge:
    """A judge, and a reader who chose ``language`` (as SET LANGUAGE does)."""
    judge = Judge(tmp_path)
    with judge.db.transaction() as session:
        preferences.choose_language(session, READER, language, judge.now)
    return judge


def flat(text: str) -> str:
    return " ".join(text.split())


SAID = {
    "it": {
        "HELP": ["Chiunque:", "    questo indice (dopo SIGNON, HELP da solo è l'aiuto della tua partita",
                 "Altro aiuto, HELP seguito da un argomento:", "  HELP seats: ciò che un posto fa in ogni partita",
                 "I tipi di partita che questo giudice ospita, HELP seguito dal tipo"],
        "HELP seats": ["== seats: ciò che un posto fa in ogni partita, dopo SIGNON ==",
                       "  RESIGN\n    lascia il tuo posto (diventa un fantoccio)\n"],
        "HELP maps": ["== maps: le immagini che la posta di una partita ti porta: SET MAPS ==",
                      "    di nuovo la scelta predefinita del giudice (PNG su questo giudice)"],
        "HELP form": ["== form: il modulo da compilare alla fine di una mail che apre una fase: SET FORM ==",
                      'tra una riga "%% form for PHASE of GAME, SEAT" e una riga "%% end of form"',
                      "  3 : A PAR - BUR\n"],
        "HELP nothing": ["ERRORE: non c'è nessun argomento «nothing»: gli argomenti sono seats, master"],
        "HELP payola": ["I suoi argomenti, HELP seguito dall'argomento dopo SIGNON, o HELP payola seguito",
                        "Comuni a ogni partita: HELP seats (i comandi di un posto), HELP master"],
        "HELP letters": ["Machiavelli: == letters:"],
    },
    "fr": {
        "HELP": ["Tout le monde :", "    cet index (après SIGNON, HELP seul donne l'aide de votre partie",
                 "Plus d'aide, HELP suivi d'un sujet :", "  HELP seats: ce que fait une place dans toutes",
                 "Les types de partie que ce juge accueille, HELP suivi du type"],
        "HELP seats": ["== seats: ce que fait une place dans toutes les parties, après SIGNON ==",
                       "  RESIGN\n    abandonnez votre place (elle devient un pantin)\n"],
        "HELP maps": ["== maps: les images que le courrier d'une partie vous apporte : SET MAPS ==",
                      "    à nouveau le choix par défaut du juge (PNG sur ce juge)"],
        "HELP form": ["== form: le formulaire à remplir à la fin d'un courriel qui ouvre une phase : SET FORM ==",
                      "entre une ligne « %% form for PHASE of GAME, SEAT » et une ligne « %% end of form »",
                      "  3 : A PAR - BUR\n"],
        "HELP nothing": ["ERREUR : il n'y a pas de sujet « nothing » : les sujets sont seats, master"],
        "HELP payola": ["Ses sujets, HELP suivi du sujet après SIGNON, ou HELP payola suivi du sujet :",
                        "Communs à toutes les parties : HELP seats (les commandes d'une place), HELP master"],
        "HELP letters": ["Machiavelli : == letters:"],
    },
}


@pytest.mark.parametrize("language", ["it", "fr"])
def test_help_and_its_topics_are_written_wholly_in_the_readers_language(tmp_path: Path, language: str,
                                                                       caplog: pytest.LogCaptureFixture) -> None:
    judge = reader(tmp_path, language)
    for words, said in SAID[language].items():
        judge.send(READER, words)
        body = judge.last_to(READER).body
        for sentence in said:
            assert flat(sentence) in flat(body), (words, sentence)
        assert english_left(body, language) == [], words
        assert len(body.splitlines()) < 60, words
    assert "for a reader of" not in caplog.text  # each answer written in its reader's language


@pytest.mark.parametrize("language", ["it", "fr"])
def test_help_all_is_written_wholly_in_the_readers_language(tmp_path: Path, language: str) -> None:
    judge = reader(tmp_path, language)
    judge.send(READER, "HELP ALL")
    sent = judge.last_to(READER)
    _, data = sent.attachments["help.txt"]
    whole = data.decode()
    with reading(language):
        assert whole.rstrip() == help_topics.help_mail(judge.settings, kinds()).rstrip()
    assert english_left(sent.body + whole, language) == []
    assert len(sent.body.splitlines()) < 60
    assert all(len(line) <= 72 or " " not in line.strip() for line in whole.splitlines())
    said = {"it": ["== languages: la lingua in cui il giudice ti scrive: SET LANGUAGE ==",
                   "  TERMINATE, poi TERMINATE code\n", "524.288 byte"],
            "fr": ["== languages: la langue dans laquelle le juge vous écrit : SET LANGUAGE ==",
                   "  TERMINATE, puis TERMINATE code\n", "524\u202f288 octets"]}[language]
    for sentence in said:
        assert flat(sentence) in flat(whole), sentence


def test_an_english_reader_reads_the_help_in_english_and_the_check_finds_it() -> None:
    """The check above is no empty one: the English help holds the English stretches."""
    settings, hosted = Settings(), kinds()
    english = help_topics.help_mail(settings, hosted)
    assert len(english_left(english, "it")) > 60
    assert "  TERMINATE, then TERMINATE code\n" in english and "524,288 bytes" in flat(english)
    with reading("it"):
        assert english_left(help_topics.help_mail(settings, hosted), "it") == []


def test_a_help_naming_no_topic_is_refused_in_the_readers_language() -> None:
    settings, hosted = Settings(), kinds()
    for words, said in ((["payola", "nothing"], "Payola Diplomacy non ha nessun argomento «nothing»: i suoi argomenti"),
                        (["chess", "rules"], "«chess» non è un tipo di partita che questo giudice ospita (payola,")):
        with reading("it"), pytest.raises(help_topics.NoTopic) as refused:
            help_topics.answer(settings, hosted, None, words)
        assert str(refused.value).startswith(said)
