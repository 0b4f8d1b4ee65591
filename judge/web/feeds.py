"""Deadlines and results where players look: an iCalendar feed of each game's deadline and of each
player's (RFC 5545), an Atom feed of each game's public results (RFC 4287), and each player's
record as a page; written with the public pages (`judge.web.pages`), so that they change when a
deadline moves or a phase is processed.

The layout, beside the games' pages::

    web/feeds/<game>.ics            the game's next deadline (and its grace), for a calendar
    web/feeds/<game>.atom           the game's processed phases, newest first, for a feed reader
    web/players/<name>.html         a player's record (`judge.service.hosting.records`), no address on it
    web/players/<name>.ics          the deadlines of every seat the player holds

A player's ``<name>`` is keyed with the judge's secret (`judge.service.hosting.records.page_name`, a
different one for the record and the calendar), one for each person (each mailbox, ruling H4),
so no one finds a player's pages from an address: the player learns them from GET RECORD and
shares them as it likes.  What a feed says is what the game's pages say: its deadline, which
LIST tells anyone, and of its results only what its kind publishes to anyone
(`judge.service.hosting.kinds.Pages.public_results`; none while a Blind game runs).

Each feed is made here by hand, as the formats are small: the iCalendar text with its escapes,
lines folded at 75 octets and CRLF ends; the Atom with ElementTree, which escapes the XML.  The
tests read both with the parsers of a calendar program and a feed reader (icalendar, feedparser).
"""

from __future__ import annotations

import xml.etree.ElementTree as ElementTree
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import or_, select
from sqlalchemy.orm import Session

from judge.language import gettext as _
from judge.service.config import Settings
from judge.service.hosting import host, records
from judge.service.hosting.deadlines import revised_at
from judge.service.hosting.kinds import kind_of
from judge.service.mailbox import at_domain, domain_of, mailbox
from judge.service.states import RUNNING
from judge.service.templates import duration
from judge.store.models import Game, PhaseRow, Player
from judge.web.public import page_url

ATOM = "http://www.w3.org/2005/Atom"
MAX_ENTRIES = 50  # the newest phases an Atom feed carries


@dataclass(frozen=True)
class Deadline:
    """A game's deadline as a calendar event."""

    game: str
    phase: str
    title: str  # the game's kind's name for people
    at: datetime
    grace: timedelta
    since: datetime  # when this version of it was made: the phase's opening, or the deadline's last move
    url: str | None
    sequence: int = 0  # the version's number (`revision`)


@dataclass(frozen=True)
class Entry:
    """A processed phase as a feed's entry."""

    phase: str
    row: int
    at: datetime
    lines: tuple[str, ...]
    again: int = 0  # the times it was processed again after a ROLLBACK (`judge.service.hosting.host.reopened`)


@dataclass(frozen=True)
class GameFeeds:
    """What a game's feeds are made of, read in one session."""

    name: str
    title: str
    created: datetime
    deadline: Deadline | None
    entries: tuple[Entry, ...]
    url: str | None


def deadline_of(session: Session, game: Game, settings: Settings) -> Deadline | None:
    """The game's deadline, if it is running and has one, in its latest version (`revision`)."""
    if game.state not in RUNNING or game.deadline is None or game.phase is None:
        return None
    row = host.current_phase(session, game)
    since, sequence = revision(game, row.opened_at if row else game.created_at)
    return Deadline(game.name, game.phase, kind_of(session, game).title, game.deadline,
                    timedelta(hours=host.duration(game, "grace")), since, page_url(settings.web_url, game.name),
                    sequence)


def revision(game: Game, opened: datetime) -> tuple[datetime, int]:
    """When the version of the game's deadline event now was made, and its number (RFC 5545's
    DTSTAMP and SEQUENCE): made when its phase opened (at ``opened``) or when its deadline last moved
    (`judge.service.hosting.deadlines.move_to`); numbered by the seconds from the game's creation to then.
    The number grows with every version of an event, however the game goes: a deadline moved, the
    phase opened again by a ROLLBACK or the next one by a ROLLFORWARD, each is published later than
    every version of it before, so a calendar program takes it as newer (RFC 5546 2.1.5: the higher
    SEQUENCE wins) without a count to keep."""
    since = revised_at(game) or opened
    return since, max(0, int((since - game.created_at).total_seconds()))


def gather(session: Session, game: Game, settings: Settings) -> GameFeeds:
    kind = kind_of(session, game)
    hidden = kind.facts(session, game, acting=False).hidden
    rows = session.scalars(select(PhaseRow).where(PhaseRow.game_id == game.id, PhaseRow.status == "processed")
                           .order_by(PhaseRow.id.desc()).limit(MAX_ENTRIES))
    entries = tuple(Entry(row.name, row.id, row.processed_at or row.opened_at,
                          () if hidden else tuple(kind.public_results(session, game, row)), host.reopened(game, row))
                    for row in rows)
    return GameFeeds(game.name, kind.title, game.created_at, deadline_of(session, game, settings), entries,
                     page_url(settings.web_url, game.name))


# -- iCalendar --------------------------------------------------------------------------------------


def _escaped(text: str) -> str:
    return text.replace("\\", "\\\\").replace(";", "\\;").replace(",", "\\,").replace("\n", "\\n")


def _folded(line: str) -> str:
    """A content line folded at 75 octets, never inside a character (RFC 5545 3.1)."""
    if len(line) <= 75 and line.isascii():
        return line
    out: list[str] = []
    current = ""
    for char in line:
        if len((current + char).encode("utf-8")) > (75 if not out else 74):
            out.append(current)
            current = ""
        current += char
    out.append(current)
    return "\r\n ".join(out)


def _stamp(moment: datetime) -> str:
    return moment.strftime("%Y%m%dT%H%M%SZ")


def calendar(name: str, deadlines: Iterable[Deadline], domain: str) -> bytes:
    """An iCalendar feed (RFC 5545) of ``deadlines``: one event each, at the deadline, the grace
    period in its description; its identity the game and phase, and its version stamped and
    numbered (DTSTAMP, LAST-MODIFIED and SEQUENCE, `revision`), so a moved deadline replaces the
    event in a subscriber's calendar."""
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", f"PRODID:-//{domain}//the judge//EN", "CALSCALE:GREGORIAN",
             "METHOD:PUBLISH", f"X-WR-CALNAME:{_escaped(name)}"]
    for deadline in deadlines:
        if deadline.grace:
            about = _("The deadline of {phase} in {game} ({title}); a grace of {grace} follows.", phase=deadline.phase,
                      game=deadline.game, title=deadline.title,
                      grace=duration(deadline.grace.total_seconds() / 3600))
        else:
            about = _("The deadline of {phase} in {game} ({title}).", phase=deadline.phase, game=deadline.game,
                      title=deadline.title)
        summary = _("{game} {phase} deadline", game=deadline.game, phase=deadline.phase)
        lines += ["BEGIN:VEVENT", f"UID:{deadline.game}-{deadline.phase}@{domain}", f"DTSTAMP:{_stamp(deadline.since)}",
                  f"LAST-MODIFIED:{_stamp(deadline.since)}", f"SEQUENCE:{deadline.sequence}",
                  f"DTSTART:{_stamp(deadline.at)}", f"SUMMARY:{_escaped(summary)}",
                  f"DESCRIPTION:{_escaped(about)}", "TRANSP:TRANSPARENT",
                  *([f"URL:{deadline.url}"] if deadline.url else []), "END:VEVENT"]
    lines.append("END:VCALENDAR")
    return "".join(_folded(line) + "\r\n" for line in lines).encode("utf-8")


# -- Atom -------------------------------------------------------------------------------------------


def atom(feeds: GameFeeds, domain: str) -> bytes:
    """An Atom feed (RFC 4287) of the game's processed phases, newest first: each with its public
    results where its kind publishes them, and a link to the game's page.  A phase processed again
    after a ROLLBACK (or by ROLLFORWARD) is a new entry, as its results are new results and its
    mail says "results again": titled "processed again", with an id of its own for each time (its
    row's, and how many times again) and updated then, so that a feed reader shows it as new
    beside the first it kept, rather than as an edit it may not show at all."""
    ElementTree.register_namespace("", ATOM)

    def add(parent: ElementTree.Element, tag: str, text: str | None = None, **attributes: str) -> ElementTree.Element:
        element = ElementTree.SubElement(parent, f"{{{ATOM}}}{tag}", attributes)
        element.text = text
        return element

    base = f"tag:{domain},{feeds.created:%Y-%m-%d}:{feeds.name}"
    feed = ElementTree.Element(f"{{{ATOM}}}feed")
    add(feed, "id", base)
    add(feed, "title", _("{game}: results ({title})", game=feeds.name, title=feeds.title))
    add(feed, "updated", _iso(feeds.entries[0].at if feeds.entries else feeds.created))
    add(add(feed, "author"), "name", _("the judge at {domain}", domain=domain))
    if feeds.url:
        add(feed, "link", href=feeds.url)
    for entry in feeds.entries:
        item = add(feed, "entry")
        add(item, "id", f"{base}/{entry.phase}/{entry.row}" + (f"/again/{entry.again}" if entry.again else ""))
        add(item, "title", _("{game} {phase} processed again", game=feeds.name, phase=entry.phase) if entry.again
            else _("{game} {phase} processed", game=feeds.name, phase=entry.phase))
        add(item, "updated", _iso(entry.at))
        if feeds.url:
            add(item, "link", href=feeds.url)
        text = "\n".join(entry.lines) if entry.lines else (
            _("{phase} of {game} has been processed: its public results are on the game's page.", phase=entry.phase,
              game=feeds.name))
        add(item, "content", text, type="text")
    body: bytes = ElementTree.tostring(feed, encoding="utf-8", xml_declaration=False)
    return b'<?xml version="1.0" encoding="utf-8"?>\n' + body


def _iso(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


# -- players ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PlayerPages:
    """A player's pages, read in one session: its record and its deadlines."""

    record_name: str
    calendar_name: str
    record: records.Record
    deadlines: tuple[Deadline, ...]


def gather_players(session: Session, addresses: Sequence[str], settings: Settings,
                   now: datetime) -> list[PlayerPages]:
    """The pages of each person of ``addresses``, one a mailbox (ruling H4: ``Bob+x@`` and ``bob@``
    have one record and one calendar, with the deadlines of every seat held at any of its
    addresses): four queries however many players, and one per game they hold a seat in."""
    key = records.page_key(session)
    boxes = sorted({mailbox(address) for address in addresses})
    wanted = set(boxes)
    by_domain = {domain_of(box): box for box in boxes}  # the addresses of a mailbox are found by its domain
    held: dict[str, dict[int, Game]] = {}
    rows: list[tuple[str | None, Game]] = [(address, game) for address, game in session.execute(
        select(Player.address, Game).join(Game, Game.id == Player.game_id).where(
            or_(*(at_domain(Player.address, box) for box in by_domain.values())), Player.seat.is_not(None),
            Player.dummy.is_(False), Player.resigned.is_(False)).order_by(Game.name))] if boxes else []
    for address, game in rows:
        if address is not None and (box := mailbox(address)) in wanted:
            held.setdefault(box, {})[game.id] = game
    deadlines: dict[int, Deadline | None] = {}
    for game in {game.id: game for games in held.values() for game in games.values()}.values():
        deadlines[game.id] = deadline_of(session, game, settings)
    known = records.of_many(session, boxes, now)
    return [PlayerPages(records.named(key, box), records.named(key, box, "calendar"), known[box],
                        tuple(found for game in held.get(box, {}).values()
                              if (found := deadlines[game.id]) is not None))
            for box in boxes]


def addresses_of(session: Session, names: Sequence[str]) -> list[str]:
    """The addresses that play or played in the games ``names``."""
    found = session.scalars(select(Player.address).join(Game, Game.id == Player.game_id)
                            .where(Game.name.in_(names), Player.address.is_not(None)))
    return sorted({address for address in found if address})
