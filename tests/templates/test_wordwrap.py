"""The mails' ``wordwrap`` filter (`judge.service.templates.wordwrap`): the text Jinja2's own gives, without
cutting a line that already fits into words."""

from __future__ import annotations

import textwrap

import pytest
from hypothesis import given
from hypothesis import strategies as st
from jinja2.filters import do_wordwrap

from judge.service.templates import environment, wordwrap

TEXT = st.text(alphabet=st.sampled_from(list("ab -.\t\n\r\x0b\x0c\x1c\x85\u2028\u00a0\u00e9")), max_size=40)
"""Words, hyphens and every kind of whitespace and line break Python's str knows."""


@given(TEXT, st.integers(min_value=1, max_value=30), st.booleans(), st.booleans())
def test_the_wordwrap_filter_gives_what_jinjas_own_gives(text: str, width: int, break_long_words: bool,
                                                         break_on_hyphens: bool) -> None:
    env = environment()
    assert (wordwrap(env, text, width, break_long_words, "\n    ", break_on_hyphens)
            == do_wordwrap(env, text, width, break_long_words, "\n    ", break_on_hyphens))


def test_a_line_that_fits_is_given_back_without_being_cut_into_words(monkeypatch: pytest.MonkeyPatch) -> None:
    def refused(*args: object, **kwargs: object) -> list[str]:
        raise AssertionError("textwrap asked to wrap a line that fits")

    template = environment().from_string('{{ line | wordwrap(74, break_long_words=false, wrapstring="\\n    ") }}')
    monkeypatch.setattr(textwrap, "wrap", refused)
    assert template.render(line="France: 5 centers, 5 units: A PAR, A MAR, F BRE") == (
        "France: 5 centers, 5 units: A PAR, A MAR, F BRE")
    with pytest.raises(AssertionError, match="a line that fits"):
        template.render(line="France: " + "A PAR, " * 12)
