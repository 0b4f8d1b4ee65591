"""The words a kind gives the host to say for it, in each reader's language (issue 72): its JOIN usage, what
a ROLLBACK brings back, the name of its phases between its main ones (stored wordings, `judge.language.later`,
worded where the host shows them), what a resignation does to its seat (a whole clause the host's answer
says after its own) and the default CREATE line of LIST."""

from __future__ import annotations

import logging
from pathlib import Path
from types import SimpleNamespace

import pytest

from judge.bootstrap import kinds
from judge.language import reading, worded
from judge.service.hosting.kinds import Lobby, Phases
from tests.games.payola.by_mail import FRANCE, GERMANY, MASTER, play_spring, start
from tests.games.pirates.by_mail import FOUR, address, pirates_game
from tests.support.harness import Judge
from tests.support.people import ALICE, BOB, CAROL, GM

ENGLISH = {"JOIN game password", "the name you will", "best first", "as they were before", "processed",
           "retreat and adjustment", "carried out"}
"""English that none of these words keeps in Italian or French."""


@pytest.mark.parametrize("language", ["it", "fr"])
def test_every_kinds_join_usage_rollback_and_phase_words_are_worded_in_the_readers_language(language: str) -> None:
    registry = kinds()  # registers each kind's catalogue
    for kind in registry:
        if kind.name == "auction":  # the test kind keeps no catalogue
            continue
        with reading(language):
            said = [worded(kind.join_usage), worded(kind.restored), worded(kind.between_phases)]
        english = [worded(kind.join_usage), worded(kind.restored), worded(kind.between_phases)]
        for ours, theirs in zip(said, english, strict=True):
            assert not theirs or ours != theirs, (kind.name, ours)
            assert not any(words in ours for words in ENGLISH), (kind.name, ours)
            assert "JOIN" not in theirs or "JOIN" in ours  # the command words stay
    with reading("it"):
        assert worded(registry.named("payola").between_phases) == "fasi di ritirata e di aggiustamento"
        assert worded(registry.named("exchange").join_usage).startswith("JOIN partita password nome [KEY chiave]")
    with reading("fr"):
        assert worded(registry.named("payola").between_phases) == "phases de retraite et d'ajustement"
        assert worded(registry.named("pirates").join_usage) == ("JOIN partie motdepasse nom [KEY clé], le nom sous "
                                                                "lequel vous jouerez : de 2 à 12 lettres ou chiffres")
    assert worded(registry.named("payola").between_phases) == "retreat and adjustment phases"
    assert not registry.named("pirates").between_phases  # data still: a kind without such phases


def test_the_hosts_defaults_are_worded_in_the_readers_language() -> None:
    kind = SimpleNamespace(title="Example", name="example")
    with reading("it"):
        assert worded(Phases.restored) == "tutto è com'era prima che la fase fosse elaborata"
    with reading("fr"):
        assert worded(Phases.restored) == "tout est comme avant que la phase soit traitée"
    for language in ("it", "fr", "en"):  # the command as HELP writes it, in every language (as Machiavelli's)
        with reading(language):
            assert Lobby.create_help(kind) == ["Example (CREATE game password example)"]  # type: ignore[arg-type]


def test_a_join_naming_a_game_is_answered_with_its_kinds_usage_in_the_readers_language(tmp_path: Path) -> None:
    judge = pirates_game(Judge(tmp_path), FOUR)
    judge.send("it@example.org", "SET LANGUAGE it")
    judge.send("fr@example.org", "SET LANGUAGE fr")
    judge.send("it@example.org", "JOIN pp")
    said = judge.last_to("it@example.org").body
    assert ("ERRORE: atteso JOIN partita password nome [KEY chiave], il nome con cui giocherai: da 2 a 12 lettere o "
            "cifre") in said
    judge.send("fr@example.org", "JOIN pp")
    said = judge.last_to("fr@example.org").body
    assert ("ERREUR : attendu : JOIN partie motdepasse nom [KEY clé], le nom sous lequel vous jouerez : de 2 à 12 "
            "lettres ou chiffres") in said
    assert "the name you will play under" not in said


def test_a_rollback_tells_each_player_what_it_brought_back_in_their_language(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    judge = start(Judge(tmp_path))
    judge.send(ALICE, "SET LANGUAGE it")
    judge.send(BOB, "SET LANGUAGE fr")
    play_spring(judge)
    judge.new_mail()
    caplog.clear()  # the answers to SET LANGUAGE are written in the language they were read in
    with caplog.at_level(logging.WARNING, logger="judge"):
        judge.send(GM, MASTER + "ROLLBACK")
    assert not [record for record in caplog.records if "for a reader of" in record.getMessage()]
    assert judge.outcome_of("ROLLBACK")[0] == "ok"
    mails = {mail.to: mail.body for mail in judge.new_mail()}
    assert ("la posizione, i saldi, i fogli delle offerte, gli ordini, le liste di accettazione e i voti sulla fine "
            "della partita sono com'erano prima che la fase fosse elaborata. Puoi cambiare il tuo foglio o i tuoi "
            "ordini") in " ".join(mails[ALICE].split())
    assert ("la position, les soldes, les feuilles d'offres, les ordres, les listes d'acceptation et les votes sur la "
            "fin de la partie sont comme avant que la phase soit traitée") in " ".join(mails[BOB].split())
    assert "as they were before it was processed" in " ".join(mails[CAROL].split())
    assert "Phase S1901M, en pause, échéance" in mails[BOB]  # the game's state in the reader's words too
    assert "Phase S1901M, paused, deadline" in mails[CAROL]
    for body in (mails[ALICE], mails[BOB]):
        assert "as they were before" not in " ".join(body.split()) and ", paused," not in body


def test_a_resignation_says_what_the_kind_does_with_the_seat_in_one_whole_answer(tmp_path: Path) -> None:
    judge = pirates_game(Judge(tmp_path), FOUR)
    judge.send(address("Cy"), "SET LANGUAGE it")
    judge.send(address("Dee"), "SET LANGUAGE fr")
    judge.send(address("Cy"), "SIGNON Cy@pp pw-cy\nRESIGN")
    said = " ".join(judge.last_to(address("Cy")).body.split())
    assert ("ti sei ritirato; il tuo posto è ora un fantoccio; continua a giocare con le scelte predefinite: il piano "
            "predefinito, schede estratte a sorte") in said
    judge.send(address("Dee"), "SIGNON Dee@pp pw-dee\nRESIGN")
    said = " ".join(judge.last_to(address("Dee")).body.split())
    assert ("vous avez abandonné ; votre place est désormais un pantin ; elle continue de jouer par défaut : le plan "
            "par défaut, des bulletins tirés au sort") in said
    assert "plays on by the defaults" not in said


def test_a_clause_a_kind_still_glues_reads_as_a_clause_of_its_own(tmp_path: Path) -> None:
    """A kind written before resigned() returned a whole clause (" and, ...") still reads."""
    judge = start(Judge(tmp_path))
    payola = kinds().named("payola")
    glued = " and, being eliminated, its treasury is forfeited (rule 2.4)"
    original = type(payola).resigned
    type(payola).resigned = lambda self, talk, game, seat: glued  # type: ignore[method-assign]
    try:
        judge.send(BOB, GERMANY + "RESIGN")
    finally:
        type(payola).resigned = original  # type: ignore[method-assign]
    assert ("you have resigned; your seat is now a dummy; being eliminated, its treasury is forfeited (rule 2.4)"
            in " ".join(judge.last_to(BOB).body.split()))


def test_a_copy_to_the_registered_address_is_written_in_its_readers_language(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """Alice reads Italian at her registered address; a mail signed on as France from another address is
    answered in that address's language (English): her copy quotes that answer, as written, in a mail of
    her own language; Bob, who reads the reply's language, gets his copy as it is."""
    judge = start(Judge(tmp_path))
    judge.send(ALICE, "SET LANGUAGE it")
    judge.new_mail()
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="judge"):
        judge.send("elsewhere@example.org", FRANCE + "STATUS")
        judge.send("other@example.org", GERMANY + "STATUS")
    assert not [record for record in caplog.records if "for a reader of" in record.getMessage()]
    mails = judge.new_mail()
    [italian] = [mail for mail in mails if mail.to == ALICE]
    [english] = [mail for mail in mails if mail.to == BOB]
    assert (italian.subject, english.subject) == ("Copia: Re: orders", "Copy: Re: orders")
    assert ("Questa è una copia della risposta del giudice a una mail di elsewhere@example.org che riguarda il tuo "
            "posto. È citata qui sotto così come è stata scritta a quell'indirizzo, in inglese:") in " ".join(
        italian.body.split())
    assert ">   OK: signed on as France in g1" in italian.body  # the answer as it was written, quoted
    assert italian.body.rstrip().endswith("Il giudice, judge@localhost")
    assert "The judge at judge@localhost" not in italian.body.replace("> The judge", "")
    assert english.body.lstrip().startswith("> SIGNON G@g1") and "Questa è una copia" not in english.body
