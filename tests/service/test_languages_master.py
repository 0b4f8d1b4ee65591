"""The game master's and the seats' answers in their reader's language (issue 72): an Italian and a French
game master and player of one game each read their answers, and the notices the other's commands send
them, wholly in their own language; a late mail's note and a block's answers too."""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from judge.language import reading
from judge.service.incoming.late import LINE, SUBJECT, Meant
from judge.store.models import Game
from tests.support.auction import auction_judge, master, send, start_auction
from tests.support.harness import Judge, Sent
from tests.support.people import ALICE, BOB, GM

ABSENCE = re.compile(r"\(g1 ?: (absence|assenza) ")


@contextmanager
def unwarned(caplog: pytest.LogCaptureFixture) -> Iterator[None]:
    """No notice these commands send (an absence asked, denied) was queued outside its reader's language
    (`outbox.queue`'s warning); the answers to mails and the announcements are other parts' (mail.py, hosting)."""
    with caplog.at_level(logging.WARNING, logger="judge"):
        yield
    assert not [record for record in caplog.records if "for a reader of" in record.getMessage()
                and ABSENCE.search(record.getMessage())]


def _speaking(tmp_path: Path, **languages: str) -> Judge:
    judge = start_auction(auction_judge(tmp_path))
    for address, language in languages.items():
        judge.send(address, f"SET LANGUAGE {language}")
    return judge


def _mail(judge: Judge, address: str, subject: str) -> Sent:
    """The last mail to ``address`` whose subject starts with ``subject``."""
    return [mail for mail in judge.all_mail() if mail.to == address and mail.subject.startswith(subject)][-1]


def test_an_italian_game_master_reads_the_answers_to_its_commands_in_italian(tmp_path: Path,
                                                                             caplog: pytest.LogCaptureFixture) -> None:
    judge = _speaking(tmp_path, **{GM: "it"})
    with unwarned(caplog):
        said = master(judge, "SET DEADLINE 2001-01-01 12:00", "PAUSE", "PAUSE", "RESUME", "SET ZONE Europe/Rome",
                      "SET MYZONE UTC", "SET UNLISTED", "DUMMY Nobody", "STATUS").body
    assert "ERRORE: quel momento è passato (ora è " in said
    assert "OK: partita in pausa: le scadenze non scatteranno" in said
    assert "ERRORE: si può mettere in pausa solo una partita in corso" in said
    assert "OK: partita ripresa; scadenza " in said
    assert "OK: il fuso orario della partita è Europe/Rome: SET DEADLINE lo usa" in said
    assert "ERRORE: SET MYZONE è per i giocatori: il fuso orario del game master è quello della partita" in said
    assert "OK: g1 non compare più in LIST" in said
    assert "devono ancora agire in L1: Alice, Bob" in said
    for english in ("that moment has passed", "game paused", "only a running game", "game resumed",
                    "the game's zone is", "is no longer listed", "still to act in"):
        assert english not in said


def test_a_french_game_master_reads_its_answers_in_french_and_its_players_the_news_in_theirs(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    judge = _speaking(tmp_path, **{GM: "fr", ALICE: "it"})
    with unwarned(caplog):
        said = master(judge, "SET DEADLINE 2001-01-01 12:00", "TERMINATE", "SET PUBLIC", "SET OPENING Alice",
                      "APPROVE ABSENCE Bob").body
    assert "ERREUR : ce moment est passé (il est maintenant " in said
    assert "OK : TERMINATE termine la partie maintenant et pour toujours" in said
    assert "OK : tout le monde peut faire JOIN dans g1" in said
    assert "ERREUR : Alice a un joueur" in said
    assert "ERREUR : Bob n'a demandé aucune absence" in said
    for english in ("that moment has passed", "ends the game now", "anyone may JOIN", "has a player",
                    "has asked for no absence"):
        assert english not in said


def test_a_french_player_asks_an_absence_that_an_italian_game_master_denies(tmp_path: Path,
                                                                            caplog: pytest.LogCaptureFixture) -> None:
    judge = _speaking(tmp_path, **{GM: "it", ALICE: "fr"})
    start = judge.now.date() + timedelta(days=2)
    end = start + timedelta(days=59)
    with unwarned(caplog):
        said = send(judge, "Alice", f"SET ABSENCE {start} TO {end}", "WAIT", "NOWAIT", "RESIGN").body
        asked = _mail(judge, GM, "g1: assenza")
        denied = master(judge, "DENY ABSENCE Alice").body
        told = _mail(judge, ALICE, "g1 : absence")
    assert "OK : absence demandée : le maître du jeu décide (vous serez informé)" in said
    assert "OK : L1 attendra son échéance même quand tout le monde aura envoyé ce qu'elle attend" in said
    assert "OK : WAIT retiré : L1 peut se fermer dès que tout le monde a envoyé ce qu'elle attend" in said
    assert "OK : vous avez abandonné ; votre place " in said
    assert "absence asked for" not in said and "will wait for its deadline" not in said and "resigned" not in said
    assert asked.subject == "g1: assenza chiesta da Alice"
    assert f"Alice chiede di assentarsi dal {start} al {end} (60 giorni)." in asked.body
    assert "APPROVE ABSENCE Alice o DENY ABSENCE Alice, collegato come game master." in asked.body
    assert "asks to be absent" not in asked.body
    assert "OK: assenza di Alice negata; Alice ne è informato" in denied
    assert told.subject == "g1 : absence refusée"
    assert f"Le maître du jeu a refusé votre absence du {start} au {end}." in told.body
    assert "denied" not in told.body


def test_a_players_password_and_address_and_ratings_are_answered_in_its_language(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    judge = _speaking(tmp_path, **{BOB: "it", ALICE: "fr"})
    with unwarned(caplog):
        said = send(judge, "Bob", "SET PASSWORD bob-new", "SET ADDRESS alice@example.org", "GET RATING").body
        french = send(judge, "Alice", "GET RECORD", "GET RATING bob@example.org").body
    assert "OK: password cambiata" in said
    assert "ERRORE: alice@example.org gioca già un altro posto in questa partita" in said
    assert "le tue valutazioni su questo giudice (bob@example.org): ancora nessuna partita valutata." in said
    assert "password changed" not in said and "no rated game yet" not in said
    assert "votre bilan sur ce juge (alice@example.org) : " in french
    assert "les classements de bob@example.org sur ce juge : aucune partie classée pour l'instant." in french
    assert "your record on this judge" not in french and "no rated game yet" not in french


def test_a_late_mails_note_is_written_in_its_readers_language() -> None:
    game = Game(name="g1", phase="L3")
    processed = Meant("L1", LINE, datetime(2026, 1, 5, 12, 0, tzinfo=UTC).replace(tzinfo=None))
    ahead = Meant("L9", SUBJECT, None)
    with reading("it"):
        note, (code, why) = processed.note(game), processed.reason()
        assert note.startswith("Questa mail era per la fase L1 di g1 (la tua riga PHASE L1), elaborata ")
        assert note.endswith("Ora g1 è nella fase L3: per applicarle a questa fase, inviale di nuovo con la riga "
                             "PHASE L3.")
        assert (code, why) == ("LATE", "non applicata: questa mail era per la fase L1, già elaborata (vedi la nota)")
    with reading("fr"):
        assert ahead.note(game).startswith("Ce courriel était destiné à la phase L9 (son objet la nomme), qui n'est "
                                           "pas celle où se trouve g1 : aucune de ses lignes pour votre place n'a "
                                           "été appliquée.")
        assert ahead.reason()[1] == ("non appliquée : ce courriel était destiné à la phase L9, pas à la phase en "
                                     "cours (voir la note)")
    assert processed.note(game).startswith("This mail was meant for L1 of g1 (your line PHASE L1), which was processed")


def test_a_zone_mistyped_and_a_time_summer_time_skips_are_refused_in_the_masters_language(tmp_path: Path) -> None:
    """SET ZONE with a name no zone has, and SET DEADLINE at 02:30 on the night Paris's clocks go from 02:00 to
    03:00 (Sunday 29 March 2026), refused in French."""
    judge = _speaking(tmp_path, **{GM: "fr"})
    said = " ".join(master(judge, "SET ZONE Narnia/Cair_Paravel", "SET ZONE Europe/Paris",
                           "SET DEADLINE 2026-03-29 02:30").body.split())
    assert ("fuseau horaire inconnu « Narnia/Cair_Paravel » : utilisez un nom tel que Europe/Paris ou "
            "America/New_York") in said
    assert ("2026-03-29 02:30 n'existe pas dans le fuseau Europe/Paris : les horloges la sautent (passage à l'heure "
            "d'été)") in said
    assert "unknown time zone" not in said and "does not exist" not in said
