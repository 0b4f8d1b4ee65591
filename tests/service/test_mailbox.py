"""H4: one person is one mailbox (`judge.service.mailbox`): two addresses are the same person when
they differ only in the case of the domain, the case of the local part, or a ``+tag``."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import pytest
from sqlalchemy import select

from judge.service.mailbox import count, mailbox, same
from judge.store.models import Game, Observer
from tests.support.harness import Judge, two_player_game


@pytest.mark.parametrize("written", ["bob@example.org", "Bob@Example.ORG", "BOB@example.org", "bob+x@example.org",
                                     "Bob+x@Example.ORG", "bob+games+2026@EXAMPLE.org", "bob+@example.org"])
def test_H4_an_address_is_its_mailbox_whatever_its_case_or_tag(written: str) -> None:
    assert mailbox(written) == "bob@example.org"
    assert same(written, "bob@example.org")


@pytest.mark.parametrize("other", ["bobby@example.org", "bob@example.com", "bob@mail.example.org", "rob@example.org",
                                   "bob.x@example.org", "bob-x@example.org"])
def test_H4_another_local_part_or_domain_is_another_person(other: str) -> None:
    assert not same(other, "bob@example.org")


def test_H4_a_tag_alone_and_a_quoted_local_part_are_kept_whole() -> None:
    """A local part that is nothing but a tag has no mailbox before it; a quoted one is a name of its
    own, "+" included: both only lose their case."""
    assert mailbox("+Games@example.org") == "+games@example.org"
    assert mailbox('"Bob+X"@Example.org') == '"bob+x"@example.org'
    assert not same('"bob+x"@example.org', "bob@example.org")


def test_H4_the_case_of_a_local_part_beyond_ascii_is_folded_too() -> None:
    assert same("JOSÉ@example.org", "josé+x@example.org")


def test_nobody_is_the_same_as_anybody() -> None:
    assert not same(None, "bob@example.org") and not same("bob@example.org", None) and not same(None, None)


def test_a_count_by_mailbox_finds_every_way_of_writing_it_and_nothing_else(tmp_path: Path) -> None:
    """The observers kept as written, counted for ``Bob+x@example.org``: the three of bob's mailbox,
    not robert's nor bob's namesake elsewhere (the domain is kept lower-cased, as `usable_address`
    writes it)."""
    judge = two_player_game(Judge(tmp_path))
    with judge.db.transaction() as session:
        game = session.scalars(select(Game)).one()
        for address in ("bob@example.org", "BOB@example.org", "bob+news@example.org", "robert@example.org",
                        "bob@example.com", "bob_x@example.org"):
            session.add(Observer(game_id=game.id, address=address, created_at=datetime(2026, 1, 5)))
        session.flush()
        assert count(session, Observer.address, "Bob+x@example.org") == 3
        assert count(session, Observer.address, "bob@example.org", Observer.game_id == game.id + 1) == 0
