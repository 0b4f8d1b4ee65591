"""The check of a mail's language against the catalogues (`tests.support.catalogue_fragments`): what it takes
from a message, what it finds in a mail, and what it lets pass."""

from __future__ import annotations

from tests.support import catalogue_fragments as check

ENGLISH = "Your private statement as France (rule 5.7; nobody else sees it):"
ITALIAN = "Il tuo estratto conto privato come Germany (regola 5.7; nessun altro lo vede):"
FRENCH = "Votre relevé privé en tant que England (règle 5.7 ; personne d'autre ne le voit) :"


def test_a_message_is_cut_at_its_places_into_pieces_of_three_words_or_more() -> None:
    assert list(check.pieces("Your private statement as %(power)s (rule 5.7; nobody else sees it):")) == \
        ["Your private statement as", "(rule 5.7; nobody else sees it):"]
    assert list(check.pieces("{game} {phase} results")) == []  # one word between the places: no sentence's piece
    assert list(check.pieces("The judge will write to you in {language} from its\nnext mail on.")) == \
        ["The judge will write to you in", "from its next mail on."]


def test_every_translated_catalogue_gives_pieces_of_each_language() -> None:
    where = {(fragment.language, fragment.catalogue) for fragment in check.fragments()}
    assert {("en", "locale"), ("it", "locale"), ("fr", "locale"), ("it", "games/payola/locale"),
            ("fr", "games/machiavelli/locale")} <= where


def test_a_sentence_of_another_language_is_found_and_the_readers_own_is_not() -> None:
    assert [f.text for f in check.leftovers(ENGLISH, "it")] == ["Your private statement as",
                                                                "(rule 5.7; nobody else sees it):"]
    assert check.leftovers(ITALIAN, "it") == [] and check.leftovers(FRENCH, "fr") == []
    assert {f.language for f in check.leftovers(FRENCH, "en")} == {"fr"}
    assert {f.language for f in check.leftovers(ITALIAN, "fr")} == {"it"}


def test_what_the_player_wrote_and_a_forms_frame_are_not_read() -> None:
    assert check.leftovers(f"> {ENGLISH}\n  OK: letta", "it") == []
    assert check.read("%% form for S1901M of g1, France\n% Tesoro: 48 AgP.\n%% end of form") == "Tesoro: 48 AgP."


def test_a_sentence_wrapped_over_lines_is_read_whole() -> None:
    assert check.leftovers("Your private\n  statement as France (rule 5.7; nobody\n  else sees it):", "fr")


def test_english_words_put_into_another_languages_sentence_are_found() -> None:
    italian = "inviata da bob@example.org from an unknown IP address, il 2026-01-05 12:00 UTC."
    assert check.foreign_runs(italian, "it") == ["an unknown"]
    assert check.foreign_runs(ITALIAN, "it") == [] and check.foreign_runs(FRENCH, "fr") == []
    assert check.foreign_runs("buy pisa from Milan for 5", "it") == []  # an order's words: every language's


def test_figures_are_the_numbers_read_in_order_of_size() -> None:
    assert check.figures("Tesoro: 48 AgP, 3 unità\n> 2 : A PAR - BUR") == [3, 48]
