"""The kinds' conformance suite, continued: every command a player or a game master sends that the
host answers alike in every kind, played in a game of each kind of the registry (`tests.kinds.scripts`)
— LIST, WHOGAME, SUMMARY and HISTORY; RESIGN and TAKEOVER; a silent seat declared abandoned; the
game's pages and feeds, from its start to its end; its record exported, played again and imported.
(HELP, with topics and without: `tests.kinds.test_help_of_every_kind`; STATUS, WAIT, CHECK, a late
mail, ROLLBACK/ROLLFORWARD, TERMINATE and the publication: `tests.kinds.test_conformance`.)"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from sqlalchemy import select

from judge.service.hosting import archive
from judge.service.operators import importing, replay
from judge.service.outgoing.sender import deliver_pending, transport_for
from judge.store.models import Game
from judge.web.pages import web_root
from tests.kinds.scripts import GAME, GM, Script, address, master, send, started, state
from tests.support.harness import Judge, Sent, open_kinds_database

STRANGER = "stranger@example.org"
NEWCOMER = "newcomer@example.org"


def shown(mail: Sent) -> str:
    """What a reply shows: its body and its attachments."""
    return mail.body + "".join(data.decode() for _, data in mail.attachments.values())


def test_every_kinds_game_is_listed_and_summarised_to_anyone_with_its_phase_and_seats(
        tmp_path: Path, script: Script) -> None:
    judge = started(tmp_path, script)
    title = script.kinds().named(script.kind).title
    phase = state(judge)[1]
    assert phase is not None
    seats = [seat.casefold() for _, _, seat in script.players]
    judge.send(STRANGER, f"LIST {GAME}")
    assert judge.outcome_of(f"LIST {GAME}") == ("info", None)
    listed = judge.last_to(STRANGER).body
    assert "  state: active" in listed and f"phase: {phase}" in listed
    assert all(re.search(rf"^  {re.escape(seat)}: played", listed, re.M | re.I) for seat in seats), listed
    judge.send(STRANGER, f"WHOGAME {GAME}")
    assert judge.outcome_of(f"WHOGAME {GAME}") == ("info", None)
    who = judge.last_to(STRANGER).body
    assert f"  {GAME}: {title}, active, {phase}" in who
    assert all(re.search(rf"^  {re.escape(seat)}: played by a player$", who, re.M | re.I) for seat in seats), who
    judge.send(STRANGER, f"SUMMARY {GAME}")
    assert judge.outcome_of(f"SUMMARY {GAME}") == ("info", None)
    assert re.search(rf"Game {GAME}\b.*\bactive\b.*\b{phase}\b", judge.last_to(STRANGER).body)


def test_every_kinds_history_is_none_before_a_phase_is_processed_and_all_of_it_after_the_end(
        tmp_path: Path, script: Script) -> None:
    """Before a phase is processed there is no history (or none published: Pirates' Proposal keeps it
    secret until the end); once the game has ended, HISTORY answers anyone what its phases did."""
    judge = started(tmp_path, script)
    first = script.players[0][0]
    before = shown(send(judge, script, first, f"HISTORY {GAME}"))
    master(judge, "PROCESS")
    judge.terminate(GM, f"SIGNON MASTER@{GAME} gm-pw")
    judge.send(STRANGER, f"HISTORY {GAME}")
    assert judge.outcome_of(f"HISTORY {GAME}")[0] in ("info", "ok")
    after = shown(judge.last_to(STRANGER))
    assert after.split("> HISTORY", 1)[1] != before.split("> HISTORY", 1)[1]


def test_in_every_kind_a_player_resigns_and_a_newcomer_takes_the_seat_over_once_it_is_opened(
        tmp_path: Path, script: Script) -> None:
    """Every other player and the game master are told; the master opens the seat (SET OPENING), a
    newcomer takes it over, is briefed and signs on; where a resigned seat has left the game for good
    (Exchange, E32) the master is told it cannot be opened."""
    judge = started(tmp_path, script)
    master(judge, "PROCESS")
    judge.new_mail()
    name, _, seat = script.players[1]
    send(judge, script, name, "RESIGN")
    assert judge.outcome_of("RESIGN") == ("ok", None)
    told = {mail.to for mail in judge.new_mail() if mail.subject.startswith(f"{GAME}: the player of ")}
    assert told == {GM, *(address(other) for other, _, _ in script.players if other != name)}
    master(judge, f"SET OPENING {seat}")
    if script.resigned_leave:
        assert judge.outcome_of(f"SET OPENING {seat}") == ("error", "LEFT_THE_GAME")
        return
    assert judge.outcome_of(f"SET OPENING {seat}") == ("ok", None)
    judge.confirmed(NEWCOMER)
    judge.send(NEWCOMER, f"TAKEOVER {seat}@{GAME} new-pw")
    assert judge.answers[-1].outcome == "ok"
    mails = judge.new_mail()
    assert any(mail.to == NEWCOMER and "your briefing as" in mail.subject for mail in mails)
    assert any(mail.to == GM and mail.subject.endswith("taken over") for mail in mails)
    judge.send(NEWCOMER, f"SIGNON {seat}@{GAME} new-pw\nSTATUS")
    assert judge.outcome_of("STATUS") == ("info", None)


def test_in_every_kind_a_silent_seat_is_declared_abandoned_at_the_deadline_and_open_for_takeover(
        tmp_path: Path, script: Script) -> None:
    """The game master sets the silence policy to no extension and abandonment at the first deadline
    missed; only the first player sends its part: every other seat is declared abandoned, it and the
    game master told, and a newcomer may take it over."""
    judge = started(tmp_path, script)
    first = script.players[0][0]
    starts = judge.last_to(address(first))
    policy = ("SET SILENCE ON", "SET SILENCE EXTENSIONS 0", "SET SILENCE ABANDON 1")
    master(judge, *policy)
    assert [judge.outcome_of(line) for line in policy] == [("ok", None)] * len(policy)
    send(judge, script, first, *script.order(first, starts))
    judge.new_mail()
    with judge.db.transaction() as session:
        deadline = session.scalars(select(Game.deadline).where(Game.name == GAME)).one()
    assert deadline is not None
    judge.now = deadline
    judge.tick()
    abandoned = [mail for mail in judge.new_mail() if mail.subject.endswith("declared abandoned")]
    silent = script.players[1:]
    assert {mail.to for mail in abandoned} >= {GM, *(address(name) for name, _, _ in silent)}
    assert not any(re.search(rf"\b{script.players[0][2]}\b", mail.subject, re.I) for mail in abandoned)
    judge.confirmed(NEWCOMER)
    judge.send(NEWCOMER, f"TAKEOVER {silent[0][2]}@{GAME} new-pw")
    assert judge.answers[-1].outcome == "ok"


def page(judge: Judge, name: str = "index.html") -> str:
    return (web_root(judge.settings) / "games" / GAME / name).read_text(encoding="utf-8")


def feed(judge: Judge, suffix: str) -> str:
    return (web_root(judge.settings) / "feeds" / f"{GAME}.{suffix}").read_text(encoding="utf-8")


def phase_shown(judge: Judge) -> tuple[str, str]:
    """The phase the game's page names: its title in words (none where its kind has no words for its
    phases: `Phases.label`) and its name."""
    found = re.search(r"<dt>Phase</dt><dd>(?:([^<]*?) \(([^()<]+)\)|([^()<]+))</dd>", page(judge))
    assert found is not None, page(judge)
    return found.group(1) or "", found.group(2) or found.group(3)


def test_every_kinds_pages_and_feeds_name_the_phase_in_words_and_its_deadline_and_publish_its_end(
        tmp_path: Path, script: Script) -> None:
    judge = started(tmp_path, script, web=True)
    phase = state(judge)[1]
    words, name = phase_shown(judge)
    with judge.db.transaction() as session:  # the phase in the kind's words (none where it has none for it)
        said = script.kinds().named(script.kind).facts(session, session.scalars(
            select(Game).where(Game.name == GAME)).one()).phase_title or ""
    assert name == phase and words == said and words != phase and "None" not in words
    assert f"SUMMARY:{GAME} {phase} deadline" in feed(judge, "ics")
    master(judge, "PROCESS")
    assert phase_shown(judge)[1] == state(judge)[1] != phase
    assert re.search(rf"<title[^>]*>[^<]*\b{phase}\b", feed(judge, "atom")), feed(judge, "atom")
    judge.terminate(GM, f"SIGNON MASTER@{GAME} gm-pw")
    assert "the game master ended the game" in page(judge)
    published = page(judge, "publication.html")
    assert re.search(r"Who played which \w+:", published)
    assert all(re.search(rf"^  {re.escape(seat)}: ", published, re.M | re.I) for _, _, seat in script.players)
    assert "@example.org" not in published  # an address, never


def exported(judge: Judge) -> dict[str, Any]:
    with judge.db.transaction() as session:
        record: dict[str, Any] = json.loads(json.dumps(archive.export(session, judge.settings, GAME)))
    return record  # as a file gives it back


def test_every_kinds_game_is_exported_played_again_as_recorded_and_imported_to_play_on(
        tmp_path: Path, script: Script) -> None:
    judge = started(tmp_path / "a", script)
    first = script.players[0][0]
    send(judge, script, first, *script.order(first, judge.last_to(address(first))))
    master(judge, "PROCESS")
    record = exported(judge)
    assert record["game"]["kind"] == script.kind
    assert replay.replay(record, judge.settings, lambda own: open_kinds_database(own, script.kinds())) == []
    other = Judge(tmp_path / "b", now=judge.now, kinds=script.kinds())
    other.confirmed(record["game"]["master"], *(seat["address"] for seat in record["seats"] if seat["address"]))
    importing.import_record(other.db, other.settings, record, judge.now)
    deliver_pending(other.db, other.settings, transport_for(other.settings), judge.now)
    assert state(other) == state(judge)
    assert exported(other)["phases"] == record["phases"]
    password = re.search(r"new password for \S+ is:\n\n +(\S+)", other.last_to(GM).body)
    assert password is not None, other.last_to(GM).body  # the import gives the master a new password
    other.send(GM, f"SIGNON MASTER@{GAME} {password.group(1)}\nSTATUS")
    assert other.outcome_of("STATUS") == ("info", None)
