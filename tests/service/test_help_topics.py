"""HELP, short and with topics, as njudge's GET: a stranger's HELP is the judge's index (the commands
anyone may send, the topics every game shares, the kinds of game hosted and how to get each one's
help); a seated player's HELP is its game's (its summary and topics); ``HELP topic`` is one topic,
``HELP KIND [topic]`` a kind's for anyone, ``HELP ALL`` all of it, attached."""

from __future__ import annotations

from pathlib import Path

import pytest

from judge.bootstrap import kinds
from judge.service.config import Settings
from judge.service.incoming import help_topics
from judge.service.incoming.help_topics import help_mail
from tests.kinds.registry import with_test_kinds
from tests.service.every_kind import PAYOLA, TESTED, Kind
from tests.support.harness import Judge
from tests.support.people import GM

every_kind = pytest.mark.parametrize("kind", TESTED, ids=lambda kind: kind.name)
STRANGER = "stranger@example.org"
SETTINGS = Settings()


def topics_of(name: str) -> list[help_topics.Topic]:
    return list(help_topics.kind_part(SETTINGS, with_test_kinds().named(name)).topics)


def test_a_strangers_help_is_the_index_of_the_judge(tmp_path: Path) -> None:
    judge = Judge(tmp_path)
    judge.send(STRANGER, "HELP")
    assert judge.outcome_of("HELP")[0] == "info"  # in the reply, not attached: it is short
    body = judge.last_to(STRANGER).body
    for kind in kinds():
        assert f"HELP {kind.name}" in body and kind.title in body
    for topic in ("seats", "master", "mail"):
        assert f"HELP {topic}" in body
    assert "4 : A LON - YOR" not in body and "PLAN ME" not in body  # no kind's own commands
    assert len(body.splitlines()) < 60


@every_kind
def test_a_seated_players_help_is_its_games_summary_and_topics(tmp_path: Path, kind: Kind) -> None:
    judge = kind.begin(kind.judge(tmp_path))
    body = kind.send(judge, 0, "HELP").body
    title = with_test_kinds().named(kind.name).title
    assert f"=== {title}" in body
    assert all(f"  {topic.name}: {topic.title}\n" in body for topic in topics_of(kind.name))
    assert not [other.title for other in with_test_kinds() if other.title != title and f"=== {other.title}" in body]
    assert len(body.splitlines()) < 60


@every_kind
def test_a_seated_players_help_topic_is_that_topic_of_its_game(tmp_path: Path, kind: Kind) -> None:
    judge = kind.begin(kind.judge(tmp_path))
    for topic in topics_of(kind.name):
        reply = kind.send(judge, 0, f"HELP {topic.name}")
        shown = reply.body + "".join(data.decode() for _, data in reply.attachments.values())
        assert f"== {topic.name}: {topic.title} ==" in shown, topic.name
        assert "Anyone:" not in shown  # one topic, not the index


def test_help_kind_topic_answers_anyone_and_help_topic_the_hosts(tmp_path: Path) -> None:
    judge = Judge(tmp_path)
    judge.send(STRANGER, "HELP payola offers")
    assert "4 : A LON - YOR" in judge.last_to(STRANGER).body
    judge.send(STRANGER, "HELP mail")
    body = judge.last_to(STRANGER).body
    assert "PHASE S1902M" in body and "CHECK" in body
    judge.send(STRANGER, "HELP letters")  # one kind alone has it: that kind's
    assert "Machiavelli" in judge.last_to(STRANGER).body and "17.1" in judge.last_to(STRANGER).body


def test_the_game_masters_help_master_is_every_games_and_its_own(tmp_path: Path) -> None:
    judge = PAYOLA.begin(Judge(tmp_path))
    body = PAYOLA.as_master(judge, "HELP master").body
    assert "== master: the game master's commands in every game" in body
    assert "== master: Payola's own commands for the game master ==" in body


def test_help_all_attaches_all_of_the_help(tmp_path: Path) -> None:
    judge = Judge(tmp_path)
    judge.send(STRANGER, "HELP ALL")
    assert judge.outcome_of("HELP ALL") == ("ok", None)
    _, data = judge.last_to(STRANGER).attachments["help.txt"]
    assert data.decode().rstrip() == help_mail(judge.settings, kinds()).rstrip()


@pytest.mark.parametrize("words", ["HELP nothing", "HELP payola nothing", "HELP create", "HELP chess rules"])
def test_a_help_naming_no_topic_says_which_there_are(tmp_path: Path, words: str) -> None:
    judge = Judge(tmp_path)
    judge.send(GM, words)
    assert judge.outcome_of(words) == ("error", "NO_SUCH_TOPIC")


def test_each_topic_is_named_once_and_only_the_masters_is_shared_with_the_host() -> None:
    host = {topic.name for topic in help_topics.host_part(SETTINGS, kinds()).topics}
    assert host == {"seats", "master", "mail", "maps", "form", "languages"}
    names = {kind.name for kind in kinds()} | {help_topics.WHOLE, help_topics.INDEX}
    for kind in kinds():
        own = [topic.name for topic in topics_of(kind.name)]
        assert len(own) == len(set(own)), kind.name
        assert not set(own) & names and set(own) & host <= {"master"}, kind.name


def test_all_of_the_help_is_the_index_the_hosts_topics_and_every_kinds_help() -> None:
    """Nothing is lost by splitting: the whole text holds each part word for word (wrapped as a
    document: `help_topics.document`)."""
    whole = " ".join(help_mail(SETTINGS, kinds()).split())
    for topic in help_topics.host_part(SETTINGS, kinds()).topics:
        assert " ".join(topic.text.split()) in whole
    for kind in kinds():
        assert " ".join(kind.help(SETTINGS).split()) in whole
