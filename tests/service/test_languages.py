"""Each reader's own language: SET LANGUAGE and SET GAME LANGUAGE, HELP LANGUAGES, the answer to a
mail written wholly in its reader's language, and the message catalogues kept whole (every message the
code and the templates mark is in the catalogue, and translated in every complete language)."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from jinja2 import Environment
from sqlalchemy import select

from judge.language import called, gettext, name_of, offered, pgettext, reading, template_gettext, template_ngettext
from judge.service.config import ConfigError, Settings
from judge.service.outgoing import preferences
from judge.service.outgoing.outbox import queue
from judge.service.templates import install_gettext
from judge.store.models import Game
from tests.support.auction import GAME, GM, auction_judge, start_auction
from tests.support.harness import Judge
from tests.support.pseudo import pseudo, untranslated
from tools import catalogues

ALICE = "alice@example.org"


def test_the_judge_writes_english_french_and_italian() -> None:
    assert offered() == ("en", "fr", "it")
    assert [name_of(code) for code in offered()] == ["English", "Français", "Italiano"]
    with reading("fr"):
        assert called("it") == "italien"
    with reading("it"):
        assert called("fr") == "francese"


def test_a_message_is_written_in_the_language_being_read_and_english_outside() -> None:
    message = "The judge will write to you in {language} from its next mail on."
    with reading("it"):
        assert gettext(message, language="francese") == "Dalla sua prossima mail, il giudice ti scriverà in francese."
        with reading("fr"):
            assert gettext(message, language="italien") == ("À partir de son prochain courriel, le juge vous écrira "
                                                            "en italien.")
        assert gettext("NOTE: %(note)s") == "NOTA: %(note)s"
    assert gettext(message, language="Italian") == "The judge will write to you in Italian from its next mail on."
    with reading("xx"):  # a language the judge lacks reads as English
        assert gettext("NOTE: %(note)s") == "NOTE: %(note)s"


def test_set_language_writes_the_next_answers_wholly_in_the_language_chosen(tmp_path: Path) -> None:
    judge = Judge(tmp_path)
    judge.send(ALICE, "SET LANGUAGE it")
    said = judge.last_to(ALICE).body  # this answer is still in the language the mail was read in
    assert "OK: The judge will write to you in Italian from its next mail on." in said
    assert said.rstrip().endswith("The judge at judge@localhost")
    judge.send(ALICE, "SET FORM ON\nSET LANGUAGE klingon")
    said = judge.last_to(ALICE).body
    assert ('ERRORE: questo giudice non scrive nessuna lingua chiamata "klingon": scrive en (English), '
            "fr (Français), it (Italiano) (HELP LANGUAGES)") in said
    assert said.rstrip().endswith("Il giudice, judge@localhost")
    judge.send("ALICE@example.org", "SET LANGUAGE fr")  # one mailbox, however its address is written
    assert "OK: Dalla sua prossima mail, il giudice ti scriverà in francese." in judge.last_to("ALICE@example.org").body
    judge.send(ALICE, "SET LANGUAGE DEFAULT")
    assert ("OK : À partir de son prochain courriel, le juge vous écrira dans la langue de chaque partie, ou dans "
            "sa langue par défaut, anglais.") in judge.last_to(ALICE).body
    judge.send(ALICE, "SET LANGUAGE it")
    assert "OK: The judge will write to you in Italian" in judge.last_to(ALICE).body


def test_the_answer_to_set_language_is_not_logged_as_written_in_another_language(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """The answer to SET LANGUAGE is in the language its mail was read in, as meant: the judge's check of each
    mail's language (`outbox._check_language`) does not log it, and still logs a mail written in another."""
    judge = Judge(tmp_path)
    with caplog.at_level(logging.WARNING, logger="judge"):
        judge.send(ALICE, "SET LANGUAGE it")
        judge.send(ALICE, "SET LANGUAGE fr")
    assert not [record for record in caplog.records if "for a reader of" in record.getMessage()]
    with caplog.at_level(logging.WARNING, logger="judge"), judge.db.transaction() as session, reading("it"):
        queue(session, judge.settings, to=ALICE, subject="scritta in italiano", body="Ciao.\n", kind="reply",
              now=judge.now)
    assert [record for record in caplog.records if "for a reader of fr" in record.getMessage()]


def test_set_language_refuses_what_it_cannot_read_and_keeps_the_language(tmp_path: Path) -> None:
    judge = Judge(tmp_path)
    judge.send(ALICE, "SET LANGUAGE fr")
    judge.send(ALICE, "SET LANGUAGE " + "x" * 5000)  # each mail but the first of a day without a command goes
    # unanswered (tests/service/test_mail_loops.py): the next ones carry one that is
    said = judge.last_to(ALICE).body
    assert 'ERREUR : ce juge n\'écrit aucune langue appelée « xxxxxxxxxxxxxxxxxxxx... »' in said
    assert "x" * 5000 not in said.split("ERREUR")[1]
    judge.send(ALICE, "SET FORM ON\nSET LANGUAGE")
    assert ("ERREUR : attendu : SET LANGUAGE suivi du code d'une langue : en (English), fr (Français), it "
            "(Italiano)") in judge.last_to(ALICE).body
    judge.send(ALICE, "SET FORM ON\nSET LANGUAGE it fr")
    assert "ERREUR : ce juge n'écrit aucune langue appelée « it fr »" in judge.last_to(ALICE).body


def test_set_game_language_is_the_game_masters_and_a_reader_who_chose_none_reads_it(tmp_path: Path) -> None:
    judge = start_auction(auction_judge(tmp_path))
    judge.send(ALICE, "SET GAME LANGUAGE it")
    assert ("ERROR: only the game master, signed on as MASTER@game, sets the game's language; yours is "
            "SET LANGUAGE") in judge.last_to(ALICE).body
    judge.send(GM, f"SIGNON MASTER@{GAME} gm-secret\nSET GAME LANGUAGE it")
    assert ("OK: The game's pages are now written in Italian, and so is the mail of each reader who chose no "
            "language of their own (SET LANGUAGE).") in judge.last_to(GM).body
    with judge.db.transaction() as session:
        game = session.scalar(select(Game).where(Game.name == GAME))
        assert game is not None and game.settings["language"] == "it"
        assert preferences.language_of(session, judge.settings, ALICE, game) == "it"
        assert preferences.language_of(session, judge.settings, ALICE) == "en"
        preferences.choose_language(session, ALICE, "fr", judge.now)
        assert preferences.language_of(session, judge.settings, ALICE, game) == "fr"
    judge.send(GM, f"SIGNON MASTER@{GAME} gm-secret\nSET GAME LANGUAGE DEFAULT")  # read in the game's language
    assert "OK: Le pagine della partita sono ora scritte in inglese, e così" in judge.last_to(GM).body
    with judge.db.transaction() as session:
        game = session.scalar(select(Game).where(Game.name == GAME))
        assert game is not None and "language" not in game.settings


def test_help_languages_lists_every_language_in_its_own_name(tmp_path: Path) -> None:
    judge = Judge(tmp_path)
    judge.send(ALICE, "HELP LANGUAGES")
    said = judge.last_to(ALICE).body
    for code, name in (("EN", "English"), ("FR", "Français"), ("IT", "Italiano")):
        assert f"    SET LANGUAGE {code}\n      {name}\n" in said
    assert "else this judge's own: English" in said


def test_the_answers_marked_so_far_are_messages_from_their_first_line_to_their_last(tmp_path: Path) -> None:
    """Read in the pseudo-language (every message bracketed), no line of these answers is left outside."""
    with pseudo():
        judge = Judge(tmp_path)
        judge.send(ALICE, "SET LANGUAGE it")
        judge.send(ALICE, "SET LANGUAGE klingon\nHELP LANGUAGES\nSET LANGUAGE fr")
        said = judge.last_to(ALICE).body
    assert "⟦ERROR: %(message)s⟧" not in said and "⟦ERROR: ⟦this judge writes no language" in said
    assert untranslated(said) == []
    assert untranslated("OK: the judge heard you\n> quoted words stay\n%  a form's note") == ["OK: the judge heard you"]


def test_the_judges_default_language_is_one_it_writes() -> None:
    assert Settings(language_default="IT").language_default == "it"
    with pytest.raises(ConfigError, match="language-default must be one of en, fr, it"):
        Settings(language_default="de")


def test_the_catalogues_list_every_marked_message_and_the_complete_languages_are_whole() -> None:
    """What CI checks: no message marked in the code or a template is missing from its catalogue, and
    French and Italian translate every one, none fuzzy, each with its message's named places, and a
    message two catalogues share is translated one way (the judge reads them merged)."""
    found = catalogues.domains()
    assert [problem for domain in found for problem in catalogues.problems(domain)] == []
    assert list(catalogues.disagreements(found)) == []


def test_the_catalogue_check_finds_an_untranslated_a_fuzzy_a_misplaced_and_a_widened_message(tmp_path: Path) -> None:
    source = tmp_path / "judge"
    (source / "games").mkdir(parents=True)
    (source / "said.py").write_text('from judge.language import gettext as _\n'
                                    'A = _("one {unit}")\nB = _("two")\nC = _("three")\nD = _("four")\n'
                                    'F = _("it is → {unit}")\n')
    domain = catalogues.domains(tmp_path)[0]
    catalogues.update(domain, ["it"])
    po = domain.po("it")
    text = po.read_text("utf-8")
    text = text.replace('msgid "one {unit}"\nmsgstr ""', 'msgid "one {unit}"\nmsgstr "uno {unita}"')
    text = text.replace('msgid "two"\nmsgstr ""', '#, fuzzy\nmsgid "two"\nmsgstr "due"')
    text = text.replace('msgid "three"\nmsgstr ""', 'msgid "three"\nmsgstr "tre"')
    text = text.replace('msgid "it is → {unit}"\nmsgstr ""', 'msgid "it is → {unit}"\nmsgstr "com\u2019è → {unit}"')
    po.write_text(text, "utf-8")
    (source / "said.py").write_text((source / "said.py").read_text() + 'E = _("five")\n')
    found = list(catalogues.problems(domain, complete=("it",)))
    assert "judge: not in messages.pot (run tools/catalogues.py update): 'five'" in found
    assert "judge it: missing: 'five'" in found
    assert "judge it: fuzzy: 'two'" in found
    assert "judge it: untranslated: 'four'" in found
    assert "judge it: named places ['unita'] where the message has ['unit']: 'one {unit}'" in found
    assert "judge it: messages.mo is not messages.po compiled (run tools/catalogues.py compile)" in found
    assert "judge it: letters past Latin-1 its message lacks (\u2019: the catalogues write the straight apostrophe): " \
           "'it is → {unit}'" in found  # (the arrow, the message's own, is not one)
    assert not any("'three'" in problem for problem in found)


def test_the_catalogue_check_finds_a_message_two_catalogues_translate_two_ways(tmp_path: Path) -> None:
    """The judge reads one catalogue per language, all domains merged: a message the host and a kind both
    mark must be translated one way, else one of them is written in the other's mail."""
    source = tmp_path / "judge"
    (source / "games" / "k").mkdir(parents=True)
    (source / "games" / "k" / "__init__.py").write_text("")
    for folder in (source, source / "games" / "k"):
        (folder / "said.py").write_text('from judge.language import gettext as _\nA = _("starts")\n')
    found = catalogues.domains(tmp_path)
    for domain, word in zip(found, ("inizia", "comincia"), strict=True):
        catalogues.update(domain, ["it"])
        po = domain.po("it")
        po.write_text(po.read_text("utf-8").replace('msgid "starts"\nmsgstr ""', f'msgid "starts"\nmsgstr "{word}"'),
                      "utf-8")
    assert list(catalogues.disagreements(found, complete=("it",))) == [
        "it: 'starts' translated differently by judge, k: judge: 'inizia'; k: 'comincia'"]


def test_a_word_said_in_a_context_is_extracted_with_it_and_agrees_with_what_it_stands_for(tmp_path: Path) -> None:
    """``pgettext``: the same English word translated apart where its gender differs (Exchange's board
    lines: no centre is ``nessuno`` in Italian, no unit ``nessuna``; tests/games/exchange/test_languages)."""
    source = tmp_path / "judge"
    (source / "games").mkdir(parents=True)
    (source / "said.py").write_text('from judge.language import gettext as _\nfrom judge.language import pgettext\n'
                                    'A = _("none")\nB = pgettext("centers", "none")\n'
                                    'C = pgettext("units", "{count} left")\n')
    domain = catalogues.domains(tmp_path)[0]
    catalogues.update(domain, ["it"])
    found = {(message.context, message.id) for message in catalogues.extract(domain) if message.id}
    assert found == {(None, "none"), ("centers", "none"), ("units", "{count} left")}
    assert 'msgctxt "centers"\nmsgid "none"' in domain.po("it").read_text("utf-8")
    with reading("it"):
        assert pgettext("no such context", "none") == "none"  # a context nobody translated reads as English
    assert pgettext("centers", "none") == "none"
    assert pgettext("units", "{count} left", count=2) == "2 left"


MESSAGES = (  # messages of the host's catalogue (and one of none), called as the templates call them
    '{{ _("Game %(name)s", name=who) }}|{{ _("100%% of %(name)s", name=who) }}|'
    '{{ ngettext("%(num)d reduction round", "%(num)d reduction rounds", n) }}|'
    "{% trans name=who %}{{ name }} ended with neither a solo nor a draw: Draw-Size Scoring shares its 100 points "
    "among the seats still holding a centre.{% endtrans %}|"
    "{% trans count=n %}{{ count }} seat{% pluralize %}{{ count }} seats{% endtrans %}"
)


@pytest.mark.parametrize("autoescape", [False, True], ids=["mail", "page"])
@pytest.mark.parametrize("language", ["en", "it", "fr"])
def test_the_templates_messages_are_what_jinjas_own_gettext_writes(autoescape: bool, language: str) -> None:
    """The templates' `_`, `gettext` and `ngettext` (`install_gettext`) write what Jinja2's i18n extension writes
    with newstyle gettext: translated, their places filled by ``%`` (a ``%%`` written once), a plural by its
    count, and a value escaped where the template escapes (a page) and not where it does not (a mail)."""
    ours, jinjas = (Environment(autoescape=autoescape, extensions=["jinja2.ext.i18n"]) for _ in range(2))
    for env in (ours, jinjas):
        env.policies["ext.i18n.trimmed"] = True
    install_gettext(ours)
    jinjas.install_gettext_callables(template_gettext, template_ngettext, newstyle=True)  # type: ignore[attr-defined]
    with reading(language):
        for who, n in (("Anne", 0), ("<b>R&D</b>", 1), ("F1901M", 7)):
            written = ours.from_string(MESSAGES).render(who=who, n=n)
            assert written == jinjas.from_string(MESSAGES).render(who=who, n=n)
            assert ("&lt;b&gt;R&amp;D&lt;/b&gt;" in written) is (autoescape and n == 1)
            assert f"100% of {who if n != 1 or not autoescape else '&lt;b&gt;R&amp;D&lt;/b&gt;'}|" in written
            assert f"|{n} seat{'' if n == 1 else 's'}" in written
    with reading("it"):
        assert ours.from_string(MESSAGES).render(who="Anne", n=7).startswith("Partita Anne|")
