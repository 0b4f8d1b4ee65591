"""The feeds (`judge.web.feeds`) read as a calendar program and a feed reader read them: each game's
deadline in iCalendar (the ``icalendar`` parser), each player's deadlines, each game's processed
phases in Atom (``feedparser``, which says when a feed is not well formed), and each player's record
page; all of them changing when a deadline moves or a phase is processed."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import feedparser
import icalendar
import pytest

from judge.service.running.app import run_deadlines
from judge.web import pages
from judge.web.feeds import Deadline, calendar
from judge.web.pages import publish_all, web_root
from tests.support.harness import Judge, start_game
from tests.support.people import ALICE, BOB, GM

WEB = "https://judge.example.org/pages"
MASTER = "SIGNON MASTER@g1 gm-secret\n"


def events(path: Path) -> list[icalendar.Event]:
    calendar = icalendar.Calendar.from_ical(path.read_bytes())
    assert calendar["VERSION"] == "2.0" and calendar["PRODID"]
    return list(calendar.walk("VEVENT"))


def web_judge(tmp_path: Path) -> Judge:
    """g1 under way (Alice France, Bob Germany; S1901M due 48 hours after 2026-01-05 12:00), its pages
    on the web."""
    judge = start_game(Judge(tmp_path, web=True, web_url=WEB), "g1")
    publish_all(judge.db, judge.settings)
    return judge


def test_a_games_calendar_holds_its_deadline_and_follows_it_when_it_moves(tmp_path: Path) -> None:
    judge = web_judge(tmp_path)
    feed = web_root(judge.settings) / "feeds" / "g1.ics"
    [event] = events(feed)
    assert event["SUMMARY"] == "g1 S1901M deadline"
    assert event.decoded("DTSTART") == datetime(2026, 1, 7, 12, 0, tzinfo=UTC)
    assert str(event["URL"]) == f"{WEB}/games/g1/index.html"
    judge.send(GM, MASTER + "SET DEADLINE 2026-01-09 18:30")
    [moved] = events(feed)
    assert moved.decoded("DTSTART") == datetime(2026, 1, 9, 18, 30, tzinfo=UTC)
    assert moved["UID"] == event["UID"]  # the same event, moved: a subscriber's calendar replaces it


def revision(event: icalendar.Event) -> tuple[int, datetime, datetime]:
    """An event's SEQUENCE, DTSTAMP and LAST-MODIFIED: what a calendar program compares to take the
    newer of two versions of one event (RFC 5546 2.1.5)."""
    return int(event["SEQUENCE"]), event.decoded("DTSTAMP"), event.decoded("LAST-MODIFIED")


def test_a_moved_deadline_is_a_revision_of_its_event_raised_and_stamped(tmp_path: Path) -> None:
    """g1 was created, and S1901M opened, at 2026-01-05 12:00: its event is the first version
    (SEQUENCE 0, stamped then). Moved at 15:00, then again at 15:30, it is revised each time: its
    SEQUENCE is the seconds from the game's creation to the revision (10,800, then 12,600), so that
    it grows with every revision however the game goes, and it is stamped at the revision."""
    judge = web_judge(tmp_path)
    feed = web_root(judge.settings) / "feeds" / "g1.ics"
    [event] = events(feed)
    assert revision(event) == (0, datetime(2026, 1, 5, 12, 0, tzinfo=UTC), datetime(2026, 1, 5, 12, 0, tzinfo=UTC))
    judge.later(3)
    judge.send(GM, MASTER + "SET DEADLINE 2026-01-09 18:30")
    [moved] = events(feed)
    assert revision(moved) == (10_800, datetime(2026, 1, 5, 15, 0, tzinfo=UTC),
                               datetime(2026, 1, 5, 15, 0, tzinfo=UTC))
    judge.later(0.5)
    judge.send(GM, MASTER + "SET DEADLINE 2026-01-10 18:30")
    [again] = events(feed)
    assert revision(again)[:2] == (12_600, datetime(2026, 1, 5, 15, 30, tzinfo=UTC))
    assert again["UID"] == moved["UID"] == event["UID"]


def test_a_phase_opened_again_by_a_rollback_is_a_newer_version_of_its_event(tmp_path: Path) -> None:
    """S1901M, moved at 13:00, is processed at 14:00; F1901M opens then. A ROLLBACK at 15:00 opens
    S1901M again, a ROLLFORWARD at 16:00 F1901M again: each event published again is newer than any
    version of it published before (a calendar program would keep the old one otherwise)."""
    judge = web_judge(tmp_path)
    feed = web_root(judge.settings) / "feeds" / "g1.ics"
    judge.later(1)
    judge.send(GM, MASTER + "SET DEADLINE 2026-01-09 18:30")
    [spring] = events(feed)
    judge.later(1)
    judge.send(GM, MASTER + "PROCESS S1901M")
    [fall] = events(feed)
    assert fall["SUMMARY"] == "g1 F1901M deadline" and revision(fall)[0] == 7_200
    judge.later(1)
    judge.send(GM, MASTER + "ROLLBACK S1901M")
    [spring_again] = events(feed)
    assert spring_again["UID"] == spring["UID"] and revision(spring_again)[0] == 10_800 > revision(spring)[0]
    assert revision(spring_again)[1] == datetime(2026, 1, 5, 15, 0, tzinfo=UTC)
    judge.later(1)
    judge.send(GM, MASTER + "ROLLFORWARD")
    [fall_again] = events(feed)
    assert fall_again["UID"] == fall["UID"] and revision(fall_again)[0] == 14_400 > revision(fall)[0]


def test_a_players_calendar_holds_the_deadlines_of_the_seats_it_holds(tmp_path: Path) -> None:
    judge = web_judge(tmp_path)
    judge.send(ALICE, "GET RECORD")
    body = judge.last_to(ALICE).body
    calendar = body.split("for your calendar (keep it to yourself): ")[1].split()[0]
    page = body.split("share it as you like): ")[1].split()[0]
    assert calendar.startswith(f"{WEB}/players/") and calendar.endswith(".ics")
    local = web_root(judge.settings) / "players" / calendar.rsplit("/", 1)[1]
    [event] = events(local)
    assert event["SUMMARY"] == "g1 S1901M deadline"
    record = (web_root(judge.settings) / "players" / page.rsplit("/", 1)[1]).read_text()
    assert "new to this judge" in record and "@" not in record


def test_H4_one_person_has_one_calendar_and_one_record_page_whatever_the_address(tmp_path: Path) -> None:
    """Alice plays France in g1 as alice@example.org and Italy in g2 as Alice+g2@example.org (g2
    due 24 hours after g1's start): one calendar holds both deadlines, whichever address asks."""
    judge = web_judge(tmp_path)
    judge.later(24)
    start_game(judge, "g2", seats=(("Alice+g2@example.org", "ITALY"), (BOB, "GERMANY")))
    publish_all(judge.db, judge.settings)
    links = []
    for written in (ALICE, "Alice+g2@example.org"):
        judge.send(written, "GET RECORD")
        links.append(judge.last_to(written).body.split("for your calendar (keep it to yourself): ")[1].split()[0])
    assert links[0] == links[1]
    found = events(web_root(judge.settings) / "players" / links[0].rsplit("/", 1)[1])
    assert sorted((event["SUMMARY"], event.decoded("DTSTART")) for event in found) == [
        ("g1 S1901M deadline", datetime(2026, 1, 7, 12, 0, tzinfo=UTC)),
        ("g2 S1901M deadline", datetime(2026, 1, 8, 12, 0, tzinfo=UTC))]
    assert len(list((web_root(judge.settings) / "players").glob("*.ics"))) == 2  # Alice's and Bob's


def test_a_players_calendar_moves_on_when_the_clock_runs_a_deadline(tmp_path: Path) -> None:
    """The deadline workers write the pages of their games' players once no game is left to
    claim (`judge.service.running.app.drain`), not after each game: they are written all the same."""
    judge = web_judge(tmp_path)
    judge.send(ALICE, "GET RECORD")
    link = judge.last_to(ALICE).body.split("for your calendar (keep it to yourself): ")[1].split()[0]
    calendar = web_root(judge.settings) / "players" / link.rsplit("/", 1)[1]
    [event] = events(calendar)
    assert event["SUMMARY"] == "g1 S1901M deadline"
    judge.later(49)
    assert [summary.split(";")[0] for summary in run_deadlines(judge.db, judge.settings, judge.now)] == [
        "g1 S1901M processed"]
    [moved] = events(calendar)
    assert moved["SUMMARY"] == "g1 F1901M deadline"


def test_the_players_of_many_games_are_read_a_batch_of_games_at_a_time(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """g1's players are in the second batch of one game: their pages are written all the same."""
    judge = web_judge(tmp_path)
    players = web_root(judge.settings) / "players"
    for page in players.iterdir():
        page.unlink()
    monkeypatch.setattr(pages, "PLAYERS_GAMES", 1)
    pages.publish_players(judge.db, judge.settings, ["nosuch", "g1"])
    assert len(list(players.glob("*.html"))) == 2 and len(list(players.glob("*.ics"))) == 2  # Alice's, Bob's


def test_a_games_atom_feed_has_an_entry_for_each_phase_processed(tmp_path: Path) -> None:
    judge = web_judge(tmp_path)
    path = web_root(judge.settings) / "feeds" / "g1.atom"
    empty = feedparser.parse(path.read_bytes())
    assert not empty.bozo, empty.get("bozo_exception")
    assert empty.feed.title == "g1: results (Payola Diplomacy)" and empty.entries == []
    judge.send(ALICE, "SIGNON F@g1 alice-pw\n2 : A PAR - BUR")
    judge.send(BOB, "SIGNON G@g1 bob-pw\n1 : A MUN - RUH")  # every power has acted: S1901M is processed
    parsed = feedparser.parse(path.read_bytes())
    assert not parsed.bozo, parsed.get("bozo_exception")
    [entry] = parsed.entries
    assert entry.title == "g1 S1901M processed" and entry.link == f"{WEB}/games/g1/index.html"
    assert entry.updated_parsed[:5] == (2026, 1, 5, 12, 0)
    [event] = events(web_root(judge.settings) / "feeds" / "g1.ics")
    assert event["SUMMARY"] == "g1 F1901M deadline"  # the calendar moved on to the next phase


def test_a_phase_processed_again_after_a_rollback_is_a_new_entry_that_says_so(tmp_path: Path) -> None:
    """S1901M processed at 13:00, rolled back at 14:00 and processed again at 15:00, rolled back at 16:00
    and processed again by ROLLFORWARD at 17:00: as each time its mail says "results again", its entry
    says "processed again", and each processing is an entry of its own (an id of its own, updated then),
    which a feed reader shows as new."""
    judge = web_judge(tmp_path)
    path = web_root(judge.settings) / "feeds" / "g1.atom"
    ids = []
    for hour, command in ((1, "PROCESS S1901M"), (3, "PROCESS S1901M"), (5, "ROLLFORWARD")):
        if hour > 1:
            judge.later(1)
            judge.send(GM, MASTER + "ROLLBACK S1901M")
        judge.later(1)
        judge.send(GM, MASTER + command)
        parsed = feedparser.parse(path.read_bytes())
        assert not parsed.bozo, parsed.get("bozo_exception")
        [entry] = parsed.entries
        assert entry.title == "g1 S1901M processed" + (" again" if hour > 1 else "")
        assert entry.updated_parsed[:5] == (2026, 1, 5, 12 + hour, 0)
        ids.append(entry.id)
    assert len(set(ids)) == 3


def test_a_machiavelli_feed_carries_the_public_results(tmp_path: Path) -> None:
    judge = start_game(Judge(tmp_path, web=True, web_url=WEB), "m1", "machiavelli",
                       (("alice@example.org", "VENICE"), ("bob@example.org", "MILAN")))
    judge.send(GM, "SIGNON MASTER@m1 gm-secret\nPROCESS")
    parsed = feedparser.parse((web_root(judge.settings) / "feeds" / "m1.atom").read_bytes())
    assert not parsed.bozo
    [entry] = parsed.entries
    assert entry.title.startswith("m1 ") and entry.content[0].value.strip()


def test_a_long_line_is_folded_where_a_calendar_program_unfolds_it() -> None:
    """RFC 5545 3.1: lines of at most 75 octets, never cut inside a character."""
    long = Deadline("g1", "S1901M", "Pirates' Proposal — à l'abordage, " * 4, datetime(2026, 1, 7, 12, 0),
                    timedelta(hours=1), datetime(2026, 1, 5, 12, 0), None)
    text = calendar("g1 deadlines", [long], "example.org")
    assert all(len(line) <= 75 for line in text.split(b"\r\n"))
    [event] = icalendar.Calendar.from_ical(text).walk("VEVENT")
    assert str(event["DESCRIPTION"]) == f"The deadline of S1901M in g1 ({long.title}); a grace of 1 hour follows."
