"""The operators' and the clock's mail in each reader's language: a game moved to this judge (`judge import`),
the judge restored from a backup, a game paused by an outage or a failed deadline; and the form to fill, whose
notes are written in its reader's language and whose markers are read back whatever language it was written in."""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import select

from judge.service.operators import backup, importing
from judge.service.outgoing import preferences
from judge.service.outgoing.sender import deliver_pending, transport_for
from judge.service.running.app import abandoned, claim_next
from judge.store.models import Game
from tests.service.every_kind import PAYOLA
from tests.service.test_game_records import played, record_of
from tests.support.auction import MASTER, auction_judge, start_auction
from tests.support.harness import Judge, Sent, two_player_game
from tests.support.people import ALICE, BOB, CAROL, GM

ADMIN = "postmaster@localhost"


@pytest.fixture
def unwarned(caplog: pytest.LogCaptureFixture) -> Iterator[None]:
    """No mail of these is queued outside its reader's language (`judge.service.outgoing.outbox.queue`); the
    answers to mails and a kind's start are other parts' (tests/service/test_languages*.py)."""
    with caplog.at_level(logging.WARNING, logger="judge"):
        yield
    ours = re.compile(r"\((g1 (has moved|paused)|Please confirm|g1: the judge was restored).*\) was written")
    assert not [r for r in caplog.records if "for a reader of" in r.getMessage() and ours.search(r.getMessage())]


def speaking(judge: Judge, **languages: str) -> None:
    """Each address's SET LANGUAGE (its mailbox's choice), kept as the command keeps it."""
    with judge.db.transaction() as session:
        for address, language in languages.items():
            preferences.choose_language(session, address, language, judge.now)


def to(mails: list[Sent], address: str) -> Sent:
    return next(mail for mail in mails if mail.to == address)


def test_a_moved_game_tells_each_reader_in_their_language(tmp_path: Path, unwarned: None) -> None:
    """Payola's g1 moved to another judge, which knows Alice (Italian) and Carol (French): each gets the news
    and a new password in their language; Bob (French) and the game master (Italian), whom it does not
    know, are asked to confirm in theirs."""
    first = played(Judge(tmp_path / "a"), PAYOLA, False)
    other = Judge(tmp_path / "b", now=first.now)
    other.confirmed(ALICE, CAROL)
    speaking(other, **{ALICE: "it", CAROL: "fr", BOB: "fr", GM: "it"})
    done = importing.import_record(other.db, other.settings, record_of(first, "g1"), first.now)
    deliver_pending(other.db, other.settings, transport_for(other.settings), first.now)
    assert (sorted(done.told), sorted(done.asked)) == ([ALICE, CAROL], [BOB, GM])
    mails = other.new_mail()
    italian, french = to(mails, ALICE), to(mails, CAROL)
    assert italian.subject == "g1 si è trasferita su questo giudice"
    assert "La partita g1 si è trasferita su questo giudice, " in italian.body
    assert "La tua nuova password per g1 è:" in italian.body
    assert "Da ora in poi" in italian.body or "RESIGN" in italian.body
    assert french.subject == "g1 a été déplacée sur ce juge"
    assert "La partie g1 a été déplacée sur ce juge, " in french.body
    assert "Votre nouveau mot de passe pour g1 est" in french.body
    for mail in (italian, french):
        assert "has moved" not in mail.body and "Your new password" not in mail.body
    bob, master = to(mails, BOB), to(mails, GM)
    assert bob.subject == "Veuillez confirmer : g1 a été déplacée sur ce juge"
    assert "Ses archives désignent cette adresse comme le joueur de " in bob.body
    assert re.search(r"^CONFIRM \S+ votremotdepasse$", bob.body, re.M)
    assert master.subject == "Conferma per favore: g1 si è trasferita su questo giudice"
    assert re.search(r"^CONFIRM \S+ tuapassword$", master.body, re.M)
    for mail in (bob, master):
        assert "Its record names" not in mail.body and "yourpassword" not in mail.body


def test_a_restore_tells_each_reader_in_their_language(tmp_path: Path, unwarned: None) -> None:
    """The judge restored to a backup made before g1's L1 was processed: Alice (Italian), Bob (French) and the
    game master (English) are each told in their own language that L1 is played again."""
    judge = start_auction(auction_judge(tmp_path))
    speaking(judge, **{ALICE: "it", BOB: "fr"})
    judge.later(25)
    judge.tick()  # L1 processed
    with judge.db.transaction() as session:  # the game as the backup has it: still in L1
        game = session.scalar(select(Game).where(Game.name == "g1"))
        assert game is not None
        game.phase = "L1"
    judge.new_mail()
    made = judge.now - timedelta(hours=2)
    assert judge.kinds is not None
    backup.tell_taken_back(judge.settings, judge.kinds, made, judge.settings.database_url, judge.now)
    deliver_pending(judge.db, judge.settings, transport_for(judge.settings), judge.now)
    mails = judge.new_mail()
    back = f"{made:%Y-%m-%d %H:%M} UTC"
    italian, french, english = to(mails, ALICE), to(mails, BOB), to(mails, GM)
    assert italian.subject == f"g1: il giudice è stato ripristinato al {back}"
    assert f"Partita g1: il giudice è stato ripristinato dal suo backup del {back}, fatto prima che" in italian.body
    assert f"Quanto è stato inviato alla partita dopo il {back} non è nel backup: invialo di nuovo." in italian.body
    assert french.subject == f"g1 : le juge a été restauré au {back}"
    assert f"Partie g1 : le juge a été restauré depuis sa sauvegarde du {back}, faite avant" in french.body
    assert "renvoyez-le." in french.body
    for mail in (italian, french):
        assert "was restored" not in mail.body and "is not in the backup" not in mail.body
    assert english.subject == f"g1: the judge was restored to {back}"
    assert f"Game g1: the judge was restored from its backup of {back}" in english.body


@pytest.mark.parametrize(("language", "subject", "sentences"), [
    ("it", "g1 in pausa: scadenza mancata",
     ("Partita g1: la scadenza di L1 era ", "il giudice l'ha messa in pausa.",
      "Fissa una nuova scadenza (SET DEADLINE YYYY-MM-DD HH:MM) e invia RESUME per continuare.")),
    ("fr", "g1 en pause : échéance manquée",
     ("Partie g1 : l'échéance de L1 était le ", "le juge l'a mise en pause.",
      "Fixez une nouvelle échéance (SET DEADLINE YYYY-MM-DD HH:MM) et envoyez RESUME pour continuer.")),
])
def test_an_outage_is_told_to_the_game_master_in_their_language(
        tmp_path: Path, unwarned: None, language: str, subject: str, sentences: tuple[str, ...]) -> None:
    judge = start_auction(auction_judge(tmp_path))
    speaking(judge, **{GM: language})
    judge.new_mail()
    judge.later(24 + 24 + 2)  # the deadline, then more than max-lateness: the judge was down
    judge.tick()
    told = to(judge.new_mail(), GM)
    assert told.subject == subject
    assert all(sentence in told.body for sentence in sentences), told.body
    assert "long before now" not in told.body and "Set a new deadline" not in told.body


def test_a_failed_deadline_is_told_to_the_master_and_the_admin_each_in_their_language(
        tmp_path: Path, unwarned: None) -> None:
    judge = start_auction(auction_judge(tmp_path))
    speaking(judge, **{GM: "it", ADMIN: "fr"})
    with judge.db.transaction() as session:  # a setting stored before durations were bounded: the run fails
        game = session.scalar(select(Game).where(Game.name == "g1"))
        assert game is not None
        game.settings = {**game.settings, "grace": 1e300}
    judge.new_mail()
    judge.later(25)
    assert judge.tick()[0].startswith("g1 paused: its deadline failed (OverflowError")
    mails = judge.new_mail()
    italian, french = to(mails, GM), to(mails, ADMIN)
    assert italian.subject == "g1 in pausa: l'esecuzione della scadenza non è riuscita"
    assert "Partita g1: il giudice non è riuscito a eseguire la scadenza di L1 (" in italian.body
    assert french.subject == "g1 en pause : l'exécution de son échéance a échoué"
    assert "Partie g1 : le juge n'a pas pu exécuter l'échéance de L1 (" in french.body
    assert "L'errore, come l'ha riportato il programma del giudice (in inglese, non tradotto):" in italian.body
    assert "L'erreur, telle que le programme du juge l'a signalée (en anglais, non traduite) :" in french.body
    for mail in (italian, french):
        assert "OverflowError" in mail.body  # the cause, as the log has it: the program's words, not translated
        assert "could not run the deadline" not in mail.body and "Nothing of it was applied" not in mail.body
        assert "as the judge's program reported it" not in mail.body
    judge.send(GM, f"{MASTER}\nRESUME")  # the master's RESUME, as the mail says
    assert judge.outcome_of("RESUME")[0] == "ok"


def test_a_run_left_unfinished_twice_is_told_in_each_readers_language_around_the_programs_words(
        tmp_path: Path, unwarned: None) -> None:
    """What ended the run is the worker's own words (kept as they are); the sentence that says so is the
    reader's: the game master's Italian, the admin's French, and English for a reader who chose none."""
    judge = start_auction(auction_judge(tmp_path))
    speaking(judge, **{GM: "it", ADMIN: "fr"})
    judge.new_mail()
    judge.later(25)
    claim_next(judge.db, judge.now, only=["g1"])
    summary = abandoned(judge.db, judge.settings, "g1", judge.now, "it ended (exit code -9)", again=True)
    assert summary == "g1 paused: its deadline failed (its run was left unfinished twice (it ended (exit code -9)))"
    deliver_pending(judge.db, judge.settings, transport_for(judge.settings), judge.now)
    mails = judge.new_mail()
    italian, french = to(mails, GM), to(mails, ADMIN)
    assert ("La sua esecuzione è rimasta incompiuta due volte; ciò che ha interrotto l'ultima, come l'ha riportato "
            "il programma del giudice (in inglese, non tradotto):") in italian.body
    assert ("Son exécution est restée inachevée deux fois ; ce qui a interrompu la dernière, tel que le programme "
            "du juge l'a signalé (en anglais, non traduit) :") in french.body
    for mail in (italian, french):
        assert "  it ended (exit code -9)" in mail.body
        assert "left unfinished twice" not in mail.body and "could not run the deadline" not in mail.body


# -- the form ------------------------------------------------------------------------------------------------

HOW = {"it": "% Sostituisci ogni _ qui sotto con la tua scelta e rimanda le righe.",
       "fr": "% Remplacez chaque _ ci-dessous par votre choix et renvoyez les lignes."}
ALICE_IN, BOB_IN = "SIGNON F@g1 alice-pw\n", "SIGNON G@g1 bob-pw\n"


def form_of(mail: Sent) -> list[str]:
    """The form block a mail ends with: from its opening line to its end line."""
    lines = mail.body.rstrip("\n").split("\n")
    opening = next(index for index, line in enumerate(lines) if line.startswith("%% form for"))
    assert lines[-1] == "%% end of form"
    return lines[opening:]


@pytest.fixture
def autumn(tmp_path: Path) -> tuple[Judge, Sent, Sent]:
    """Payola's g1, Alice (France) reading Italian, Bob (Germany) French, spring played: the results each got,
    with the form for F1901M."""
    judge = two_player_game(Judge(tmp_path))
    speaking(judge, **{ALICE: "it", BOB: "fr"})
    judge.send(ALICE, ALICE_IN + "2 : A PAR - BUR")
    judge.send(BOB, BOB_IN + "2 : A MUN - RUH")
    mails = [mail for mail in judge.new_mail() if "%% form for F1901M" in mail.body]
    return judge, to(mails, ALICE), to(mails, BOB)


def test_the_forms_notes_are_in_its_readers_language_and_its_markers_in_the_judges_grammar(
        autumn: tuple[Judge, Sent, Sent]) -> None:
    _, italian, french = autumn
    for mail, language, seat in ((italian, "it", "France"), (french, "fr", "Germany")):
        form = form_of(mail)
        assert form[0] == f"%% form for F1901M of g1, {seat}"  # the marker, alike in every language
        assert form[1].startswith(HOW[language])
        assert "Replace each _" not in mail.body and "is not read" not in mail.body
        assert all(len(line) <= 72 for line in form)


def test_a_reply_quoting_an_italian_form_applies_the_lines_filled(autumn: tuple[Judge, Sent, Sent]) -> None:
    """Alice fills her Italian form above the whole results mail, quoted: the form's markers and its Italian
    notes are passed over in silence, her line is applied."""
    judge, italian, _ = autumn
    filled = [line.replace("_ : A BUR H", "2 : A BUR - MUN") for line in form_of(italian)]
    quoted = [f"> {line}" if line else ">" for line in italian.body.split("\n")]
    judge.send(ALICE, "\n".join([ALICE_IN.strip(), *filled, "", *quoted]), subject="Re: g1")
    assert judge.outcome_of("2 : A BUR - MUN") == ("ok", "SHEET_ACCEPTED")
    assert {answer.text for answer in judge.answers} == {"SIGNON F@g1 ****", "2 : A BUR - MUN"}


def test_a_french_form_filled_inline_below_a_french_attribution_is_read(autumn: tuple[Judge, Sent, Sent]) -> None:
    """Bob answers inline, as a French mail program quotes: ``Le ... a écrit :`` and the whole mail quoted, his
    lines written below the quoted form's lines they fill."""
    judge, _, french = autumn
    filled = {"SIGNON GERMANY@g1 _": "SIGNON GERMANY@g1 bob-pw", "_ : A RUH H": "1 : A RUH - BEL"}
    out = ["Voilà :", "", "Le jeu. 5 janv. 2026 à 12:00, judge@example.org a écrit :"]
    for line in french.body.rstrip("\n").split("\n"):
        out.append(f"> {line}" if line else ">")
        if line in filled:
            out.append(filled[line])
    judge.send(BOB, "\n".join(out), subject="Re: g1")
    assert judge.outcome_of("1 : A RUH - BEL") == ("ok", "SHEET_ACCEPTED")
    assert "Reading stopped" not in judge.last_to(BOB).body


def test_a_french_form_of_another_phase_is_answered_in_french_and_none_of_it_applied(
        autumn: tuple[Judge, Sent, Sent]) -> None:
    """Bob sends back his French form of spring (its marker naming S1901M) in autumn: none of its lines is
    applied, and he is told why in French; the line after its end is his own, and read."""
    judge, _, french = autumn
    form = form_of(french)
    spring = [form[0].replace("F1901M", "S1901M"), *form[1:-1], "1 : A RUH - BEL", form[-1]]
    judge.send(BOB, "\n".join([BOB_IN.strip(), *spring, "1 : A RUH H"]))
    assert judge.outcome_of(spring[0]) == ("ignored", "OTHER_FORM")
    assert judge.outcome_of("1 : A RUH - BEL") == ("ignored", "OTHER_FORM")
    assert judge.outcome_of("1 : A RUH H") == ("ok", "SHEET_ACCEPTED")
    answer = judge.last_to(BOB).body
    assert "non appliqué : ce formulaire est pour S1901M, mais g1 est maintenant en F1901M" in answer
    assert "not applied" not in answer
