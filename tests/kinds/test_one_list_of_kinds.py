"""One list of kinds, the registry's (`judge.bootstrap.HOSTED`, and `tests.kinds.registry.with_test_kinds`
for the judges hosting the test kinds): every test "for every kind" takes its kinds from it, and a kind
it hosts that a suite has no way to play fails here, by name, instead of going silently untested; and a kind of
the judge's whose forms no test answers by SMTP (`tests.support.forms_by_smtp.unanswered`)."""

from __future__ import annotations

from dataclasses import dataclass

from judge import api
from judge.bootstrap import HOSTED, hosted, registry
from tests.kinds.auction.kind import Auction, bid
from tests.kinds.registry import with_test_kinds
from tests.kinds.scripts import KINDS, unscripted
from tests.service import every_kind
from tests.support import forms_by_smtp


@dataclass(frozen=True)
class Offer:
    """The throwaway kind's one command (a command belongs to one kind alone)."""

    amount: int


class Throwaway(Auction):
    """A kind registered without a script or a game of the host's tests: the checks must catch it."""

    name = "throwaway"
    title = "Throwaway auction"
    commands = (api.Entry(Offer, bid, api.PLAYER),)
    words = ("OFFER",)


def test_every_hosted_kind_has_a_conformance_script() -> None:
    assert unscripted(with_test_kinds()) == []


def test_every_hosted_kind_has_a_game_for_the_hosts_every_kind_tests() -> None:
    assert every_kind.missing(with_test_kinds()) == []


def test_every_kind_the_judge_hosts_has_its_forms_answered_by_smtp() -> None:
    assert forms_by_smtp.unanswered(registry(hosted())) == []


def test_a_kind_registered_without_a_script_or_a_game_is_caught() -> None:
    """The seeded mutation: a fifth kind's registry line alone, nothing else written for it."""
    kinds = registry([*with_test_kinds(), Throwaway()])
    assert unscripted(kinds) == ["throwaway"]
    assert every_kind.missing(kinds) == ["throwaway"]
    assert forms_by_smtp.unanswered(kinds) == ["auction", "throwaway"]  # the test kind, none of the judge's own, too


def test_the_suites_play_every_kind_of_the_registry_once() -> None:
    """The judge's own kinds (`HOSTED`, a line each) everywhere; the example kind where the judge hosts it."""
    own = {kind.name for kind in hosted()}
    assert len(own) == len(HOSTED)
    assert sorted(KINDS) == sorted({*own, "auction"})
    assert sorted(kind.name for kind in every_kind.KINDS) == sorted(own)
    assert sorted(kind.name for kind in every_kind.TESTED) == sorted({*own, "auction"})
