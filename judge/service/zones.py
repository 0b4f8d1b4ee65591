"""Time zones: every moment a mail writes is written in its reader's zone, with UTC
beside it; the game master's SET DEADLINE reads times in the game's zone.

Theory of operation.  The judge keeps and computes every moment in UTC, and every template and
answer writes a moment one way, ``YYYY-MM-DD HH:MM UTC`` (`judge.service.templates.when`).  A game
may have a zone (``SET ZONE Europe/Paris``, the game master's, which is also the zone SET
DEADLINE reads), and a player their own (``SET MYZONE America/New_York``, kept on their seat).
When a mail of a game is queued (`judge.service.outgoing.outbox.queue`), `localize` rewrites each such
moment of its subject and body for its reader: ``2027-03-28 14:00 CEST (12:00 UTC)``, the zone's
abbreviation telling summer time from winter time, and the UTC date too when it is another day.
A player's mail is written in their own zone, else the game's; the game master's, an observer's
and anyone else's in the game's; a game with no zone writes UTC alone, as before.  Lines that
quote what a player wrote (a reply's ``>`` lines) and press are left as written: the judge never
changes a player's words.  An answer about a game that the reply is not signed on to (SUMMARY,
HISTORY or LIST of a game, asked by anyone) is written in that game's zone for its reader when it
is made (`judge.service.incoming.handlers.conversation.Conversation.localized`).  The zones are read once
per transaction (`reader_zone`).

The zones are the system's IANA database, through `zoneinfo`; a system without one (a minimal
container) has only UTC, and SET ZONE says so.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from functools import cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from sqlalchemy import bindparam, select
from sqlalchemy.orm import Session

from judge.language import gettext as _
from judge.store.models import Game, Player

_MOMENT = re.compile(r"(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}) UTC\b"
                     r"|\d{4}-\d{2}-\d{2} \d{2}:\d{2} [A-Za-z0-9+-]+ \((?:\d{4}-\d{2}-\d{2} )?\d{2}:\d{2} UTC\)")
"""A moment as the templates write it, or one `localize` wrote already (left as it is)."""
_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_+-]*(/[A-Za-z0-9_+-]+){0,2}")
UNZONED = ("press",)  # kinds of mail whose text is a player's own words


def zone_named(text: str) -> ZoneInfo:
    """The IANA zone ``text`` names (``Europe/Paris``, ``UTC``); ValueError with a message in the reader's
    language."""
    if len(text) <= 40 and _NAME.fullmatch(text):
        try:
            return ZoneInfo(text)
        except (ZoneInfoNotFoundError, ValueError, OSError):  # OSError: a name the file system refuses
            pass
    if not _zone_database():
        raise ValueError(_("unknown time zone '{zone}': this judge's system has no time zone database, so it knows "
                           "only UTC", zone=text[:40]))
    raise ValueError(_("unknown time zone '{zone}': use a name such as Europe/Paris or America/New_York",
                       zone=text[:40]))


@cache
def _zone_database() -> bool:
    """Whether the system has a time zone database (read once: listing it walks every file of it, which a
    name mistyped at every SET ZONE did again)."""
    return bool(available_timezones())


def in_zone(naive: datetime, zone: ZoneInfo) -> datetime:
    """The UTC moment (naive) of the wall-clock time ``naive`` in ``zone``.  A time the clocks
    skip when summer time starts is refused (ValueError); one they pass twice when it ends is
    the first of the two (summer time), as the answer's UTC shows."""
    moment = naive.replace(tzinfo=zone)
    if moment.astimezone(UTC).astimezone(zone).replace(tzinfo=None) != naive:
        raise ValueError(_("{moment} does not exist in {zone}: the clocks skip it (summer time starts)",
                           moment=naive.strftime("%Y-%m-%d %H:%M"), zone=zone.key))
    return moment.astimezone(UTC).replace(tzinfo=None)


def reader_zone(session: Session, game_id: int | None, address: str) -> ZoneInfo | None:
    """The zone the mail of game ``game_id`` to ``address`` is written in: the player's own,
    else the game's; None for UTC alone.  Read once per transaction (``session.info``)."""
    if game_id is None:
        return None
    known: dict[int, tuple[str | None, dict[str, str]]] = session.info.setdefault("zones", {})
    if game_id not in known:
        game = session.get(Game, game_id)
        own = session.execute(_ZONES, {"game_id": game_id})
        known[game_id] = (game.settings.get("zone") if game else None, {a: z for a, z in own if a and z})
    game_zone, players = known[game_id]
    name = players.get(address) or game_zone
    return ZoneInfo(name) if name else None


# Built once: a statement built at each call costs as much again as its execution.
_ZONES = select(Player.address, Player.zone).where(Player.game_id == bindparam("game_id"), Player.zone.is_not(None))


def forget(session: Session) -> None:
    """Read the zones again: one was set in this transaction."""
    session.info.pop("zones", None)


def localize(body: str, zone: ZoneInfo) -> str:
    """``body`` with each ``YYYY-MM-DD HH:MM UTC`` moment written in ``zone`` with its UTC beside
    it, except in the lines that quote a player's own (``>``); a moment written so already (an
    answer about another game, in its zone), and one that is none or that the zone cannot write (a
    refusal quoting what a mail wrote), are left as they are."""

    def local(match: re.Match[str]) -> str:
        if match.group(1) is None:
            return match.group(0)
        try:  # a moment the templates wrote; or one a refusal quotes as written, perhaps none at all
            moment = datetime.strptime(f"{match.group(1)} {match.group(2)}", "%Y-%m-%d %H:%M").replace(tzinfo=UTC)
            there = moment.astimezone(zone)
        except (ValueError, OverflowError):  # 2026-13-45, or a moment of year 1 in a zone west of UTC
            return match.group(0)
        utc = match.group(2) if there.date() == moment.date() else f"{match.group(1)} {match.group(2)}"
        return f"{there:%Y-%m-%d %H:%M} {there.tzname()} ({utc} UTC)"

    return "\n".join(line if line.startswith(">") else _MOMENT.sub(local, line) for line in body.split("\n"))
