"""HELP on a judge hosting the test kinds, whose example kind (the auction) has a summary and no topic:
a kind's help need not have topics, and one without any leaves the HELP of every other kind whole.
Every kind of the registry (`tests.kinds.registry.with_test_kinds`) is asked, by a stranger and by a
seat of a game of it."""

from __future__ import annotations

from pathlib import Path

import pytest

from judge.service.config import Settings
from judge.service.incoming import help_topics
from tests.kinds.registry import with_test_kinds
from tests.kinds.scripts import Script, address, started
from tests.support.harness import Judge

STRANGER = "stranger@example.org"


@pytest.mark.parametrize("words", ["HELP", "HELP INDEX", "HELP seats", "HELP ALL",
                                   *(f"HELP {kind.name}" for kind in with_test_kinds())])
def test_a_stranger_is_answered_help_by_a_judge_with_a_kind_without_topics(tmp_path: Path, words: str) -> None:
    judge = Judge(tmp_path, kinds=with_test_kinds())
    judge.send(STRANGER, words)
    assert judge.outcome_of(words)[0] in ("info", "ok")
    reply = judge.last_to(STRANGER)
    shown = reply.body + "".join(data.decode() for _, data in reply.attachments.values())
    if words == "HELP":
        assert all(f"HELP {kind.name}" in shown for kind in with_test_kinds())
    for kind in with_test_kinds():  # a kind's help, or all of it, holds its summary, word for word
        if words in (f"HELP {kind.name}", "HELP ALL"):
            summary = help_topics.kind_part(Settings(), kind).summary
            assert " ".join(summary.split()) in " ".join(shown.split()), kind.name


@pytest.mark.parametrize("words", ["HELP create", "HELP nothing", "HELP auction nothing"])
def test_a_stranger_asking_for_no_topic_is_told_so_by_a_judge_with_a_kind_without_topics(
        tmp_path: Path, words: str) -> None:
    judge = Judge(tmp_path, kinds=with_test_kinds())
    judge.send(STRANGER, words)
    assert judge.outcome_of(words) == ("error", "NO_SUCH_TOPIC")


def test_a_kind_without_topics_is_its_summary_alone() -> None:
    auction = with_test_kinds().named("auction")
    part = help_topics.kind_part(Settings(), auction)
    assert part.topics == () and part.summary == auction.help(Settings()).strip()


def test_a_seat_of_every_kind_is_answered_its_games_help_and_its_topics(tmp_path: Path, script: Script) -> None:
    judge = started(tmp_path, script)
    kind = script.kinds().named(script.kind)
    own = help_topics.kind_part(Settings(), kind)
    first = script.players[0][0]
    signon = script.signon(first)
    judge.send(address(first), f"{signon}\nHELP")
    assert judge.outcome_of("HELP")[0] in ("info", "ok")
    body = judge.last_to(address(first)).body
    assert own.summary.splitlines()[0] in body
    assert all(f"  {topic.name}: {topic.title}\n" in body for topic in own.topics)
    assert ("Its topics" in body) == bool(own.topics)
    judge.send(address(first), f"{signon}\nHELP nothing")
    assert judge.outcome_of("HELP nothing") == ("error", "NO_SUCH_TOPIC")
    for topic in own.topics:
        judge.send(address(first), f"{signon}\nHELP {topic.name}")
        reply = judge.last_to(address(first))
        shown = reply.body + "".join(data.decode() for _, data in reply.attachments.values())
        assert f"== {topic.name}: {topic.title} ==" in shown, topic.name
    judge.send(address(first), f"{signon}\nHELP {script.kind}")
    assert own.summary.splitlines()[0] in judge.last_to(address(first)).body
