"""Players' records across games, kept by the judge for each person (each mailbox: ruling H4), and
the entry gates a game master may set on them.

Theory of operation.  A person is a mailbox (`judge.service.mailbox`): every line is kept under
the mailbox of the address that earned it, and read for any address of that mailbox, so that
``Bob+games@Example.org`` and ``bob@example.org`` have one record and pass one gate.  When a
phase closes, each played seat that was due to act in it gets a line for its player
(`judge.service.hosting.silent_seats.closing`): ``on_time`` if it acted by the deadline (the game
master's, not the judge's automatic extensions), ``late`` if it acted in the grace period or an
extension, ``missed`` if it did not act at all; a seat with nothing to do, one whose new player
took it over during the phase and did not act in it, and a phase its game master closed before the
deadline give no line.  A seat the judge declares abandoned gives an ``abandoned`` line.

A record is earned.  A game that ends gives each player who holds a seat then a ``finished``
line (`finished`), but only a game that *counts* (`counts`): one in which a phase was played,
and which ended a day or more after it started; a game started and ended within a day, or with
no phase played, counts for nobody's record and places nobody in the hall of fame, which reads
its placings from these lines (`judge.web.fame`).  A ROLLBACK neither adds nor wipes
(`forget_from`): the lines of the phases it goes back before are dropped for the players who
still hold their seats, as those phases are played again and each counts once; a line of a
player who has left the seat since (declared abandoned, resigned, replaced) stays, as nobody plays
those phases again for them, and so does every ``abandoned`` line, as a ROLLBACK never gives a
seat back to the player it was taken from.  A game master's extension never counts against a
player.

What a record says (`Record`): the phases due, on time and late, the seats abandoned (in all and
in the last year) and the games finished, in numbers and in words (`Record.words`: a beginner
is a beginner, not "unreliable").  The gates (``SET GATE``, kept in the game's settings,
``gates``) are checked at JOIN and TAKEOVER (`refusal`), each refusal saying which gate and what
the record shows.  The public page of a record is at a name no one can work out from the
address (`page_name`, one for the mailbox), which the player learns from ``GET RECORD``: an
address is private.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import case, delete, func, select
from sqlalchemy.orm import Session

from judge.language import gettext as _
from judge.language import ngettext
from judge.service.mailbox import mailbox
from judge.service.rating import NEWCOMER, PROVISIONAL, Rating
from judge.store.models import Game, PhaseRow, Player, PlayerRecord, RatingRow, Secret

YEAR = timedelta(days=365)
DAY = timedelta(days=1)
"""The least time between a game's start and its end for it to count (`counts`, H4)."""
PHASE_LINES = ("on_time", "late", "missed")
"""The lines a phase gives the seats due in it, which a ROLLBACK drops for the phases played again."""
BEGINNER = 10
"""Phases due below which a record is a beginner's: its share on time says little yet."""
GATES = ("abandoned", "on_time", "finished", "rating")


@dataclass(frozen=True)
class Record:
    """What the judge knows of an address: phases ``due`` (on time, late or missed), ``on_time``
    and ``late``; seats ``abandoned`` (and of them ``abandoned_lately``, in the last year); games
    ``finished``; and the phases due and on time in the last year (``due_lately``, ``on_time_lately``)."""

    due: int = 0
    on_time: int = 0
    late: int = 0
    abandoned: int = 0
    abandoned_lately: int = 0
    finished: int = 0
    due_lately: int = 0
    on_time_lately: int = 0

    @property
    def share(self) -> float | None:
        """The share of the phases due that were on time (None: none due)."""
        return self.on_time / self.due if self.due else None

    @property
    def share_lately(self) -> float | None:
        return self.on_time_lately / self.due_lately if self.due_lately else None

    def numbers(self) -> list[str]:
        """The record in numbers, one line each."""
        missed = self.due - self.on_time - self.late
        due = (_("phases due: {due}, on time: {on_time} ({share}), late: {late}, missed: {missed}", due=self.due,
                 on_time=self.on_time, share=format(self.share, ".0%"), late=self.late, missed=missed)
               if self.share is not None else
               _("phases due: {due}, on time: {on_time}, late: {late}, missed: {missed}", due=self.due,
                 on_time=self.on_time, late=self.late, missed=missed))
        return [due, _("seats abandoned: {count} ({lately} in the last year)", count=self.abandoned,
                       lately=self.abandoned_lately),
                _("games finished: {count}", count=self.finished)]

    def words(self) -> str:
        """The record in words, gently: a player with few phases is new, not unreliable; a phase is
        *due* whether or not its player acted in it."""
        if not self.due and not self.finished:
            return _("new to this judge: no phase played yet")
        if self.due < BEGINNER:
            parts = [ngettext("a beginner on this judge: {count} phase due so far, {on_time} on time",
                              "a beginner on this judge: {count} phases due so far, {on_time} on time", self.due,
                              on_time=self.on_time)]
        else:
            share = self.share or 0.0
            values = {"share": f"{share:.0%}", "due": self.due}
            parts = [_("very reliable: {share} of {due} phases on time", **values) if share >= 0.95 else
                     _("reliable: {share} of {due} phases on time", **values) if share >= 0.85 else
                     _("sometimes late: {share} of {due} phases on time", **values) if share >= 0.7 else
                     _("often late or silent: {share} of {due} phases on time", **values)]
        if self.abandoned:
            parts.append(ngettext("left {count} seat to be declared abandoned",
                                  "left {count} seats to be declared abandoned", self.abandoned))
        if self.finished:
            parts.append(ngettext("played {count} game to the end", "played {count} games to the end", self.finished))
        return "; ".join(parts)


def of(session: Session, address: str, now: datetime) -> Record:
    """The record of ``address``'s mailbox at ``now``: one query."""
    return of_many(session, [address], now)[address]


def of_many(session: Session, addresses: Sequence[str], now: datetime) -> dict[str, Record]:
    """The record of each of ``addresses`` (of its mailbox) at ``now``, in one query."""
    boxes = {address: mailbox(address) for address in addresses}
    recent = func.sum(case((PlayerRecord.at >= now - YEAR, 1), else_=0))  # in the last year
    rows = session.execute(select(PlayerRecord.address, PlayerRecord.what, func.count(), recent)
                           .where(PlayerRecord.address.in_(set(boxes.values())))
                           .group_by(PlayerRecord.address, PlayerRecord.what))
    counts: dict[str, dict[str, tuple[int, int]]] = {}
    for box, what, total, lately in rows:
        counts.setdefault(box, {})[what] = (int(total), int(lately or 0))
    return {address: _record(counts.get(box, {})) for address, box in boxes.items()}


def _record(counts: dict[str, tuple[int, int]]) -> Record:
    def count(*what: str, lately: bool = False) -> int:
        return sum(counts.get(w, (0, 0))[1 if lately else 0] for w in what)

    return Record(due=count(*PHASE_LINES), on_time=count("on_time"), late=count("late"),
                  abandoned=count("abandoned"), abandoned_lately=count("abandoned", lately=True),
                  finished=count("finished"), due_lately=count(*PHASE_LINES, lately=True),
                  on_time_lately=count("on_time", lately=True))


def keep(session: Session, game: Game, seat: str, address: str, what: str, now: datetime,
         phase: str | None = None, phase_row: int | None = None) -> None:
    """A line of the record of ``address``'s mailbox: ``what`` (on_time, late, missed, abandoned,
    finished) as ``seat`` of ``game``, of the phase ``phase`` (its row ``phase_row``) if any."""
    session.add(PlayerRecord(address=mailbox(address), game_id=game.id, seat=seat, phase=phase, phase_row=phase_row,
                             what=what, at=now))


def forget_from(session: Session, game: Game, phase_row: int) -> None:
    """A ROLLBACK went back to the phase of row ``phase_row``: drop the phases' lines from it on
    of the players who still hold their seats (they play those phases again, and each counts
    once); keep those of a player who has left the seat since, and every abandonment, which a
    ROLLBACK does not undo: the record neither gains nor loses by it."""
    holding = {seat: mailbox(address) for seat, address in session.execute(select(Player.seat, Player.address).where(
        Player.game_id == game.id, Player.dummy.is_(False), Player.resigned.is_(False))) if seat and address}
    dropped = [line_id for line_id, seat, address in session.execute(
        select(PlayerRecord.id, PlayerRecord.seat, PlayerRecord.address).where(
            PlayerRecord.game_id == game.id, PlayerRecord.phase_row >= phase_row,
            PlayerRecord.what.in_(PHASE_LINES)))
        if holding.get(seat) == address]
    if dropped:
        session.execute(delete(PlayerRecord).where(PlayerRecord.id.in_(dropped)))


def counts(session: Session, game: Game, now: datetime, *, closed: bool) -> bool:
    """Whether ``game``, ending at ``now``, counts for its players' records and the hall of fame
    (H4): a phase was played in it (one processed before the phase it ends in, or that phase if its
    closing ends the game: ``closed``; not a phase that a vote or TERMINATE ended unplayed, as
    Exchange Payola's are), and it ended a day or more after it started (its first phase opened).
    A game started and ended within a day, or with no phase played, counts for nobody."""
    started, played = session.execute(select(func.min(PhaseRow.opened_at), func.count(PhaseRow.id).filter(
        PhaseRow.status == "processed", PhaseRow.name != game.phase)).where(PhaseRow.game_id == game.id)).one()
    return started is not None and (closed or played > 0) and now - started >= DAY


def finished(session: Session, game: Game, now: datetime, *, closed: bool = False) -> None:
    """A game has ended (by its rules, or TERMINATE): each player who holds a seat gets a
    ``finished`` line, if the game counts (`counts`; ``closed``: a phase's closing ended it)."""
    if not counts(session, game, now, closed=closed):
        return
    held = session.execute(select(Player.seat, Player.address).where(
        Player.game_id == game.id, Player.seat.is_not(None), Player.address.is_not(None),
        Player.dummy.is_(False), Player.resigned.is_(False)))
    for seat, address in list(held):
        if seat is not None and address is not None:
            keep(session, game, seat, address, "finished", now)


# -- entry gates --------------------------------------------------------------------------------------


def gates_of(game: Game) -> dict[str, float]:
    """The game's entry gates: ``abandoned`` (at most so many seats abandoned in the last year),
    ``on_time`` (at least so many percent of the phases due in the last year on time),
    ``finished`` (at least so many games finished), ``rating`` (a rating at least so high, not provisional)."""
    found: dict[str, float] = game.settings.get("gates", {})
    return found


def set_gate(game: Game, gate: str, value: float | None) -> None:
    gates = {} if gate == "off" else {k: v for k, v in gates_of(game).items() if k != gate}
    if value is not None:
        gates[gate] = value
    game.settings = {k: v for k, v in game.settings.items() if k != "gates"} | ({"gates": gates} if gates else {})


def gate_words(game: Game) -> list[str]:
    """The game's gates in words, one each."""
    gates = gates_of(game)
    words = {"abandoned": lambda n: ngettext("at most {most} seat abandoned in the last year",
                                             "at most {most} seats abandoned in the last year", int(n),
                                             most=format(n, "g")),
             "on_time": lambda n: _("at least {share} of the phases due in the last year on time",
                                    share=format(n, "g") + "%"),
             "finished": lambda n: ngettext("at least {least} game played to the end",
                                            "at least {least} games played to the end", int(n), least=format(n, "g")),
             "rating": lambda n: _("a rating of at least {least}, no longer provisional (at least {games} rated "
                                   "games)", least=format(n, "g"), games=PROVISIONAL)}
    return [words[gate](gates[gate]) for gate in GATES if gate in gates]


def refusal(session: Session, game: Game, address: str, now: datetime) -> str | None:
    """Why ``address`` may not JOIN or TAKEOVER a seat of ``game``, by its gates and the record
    of its mailbox (None: it may): which gate, and what the record shows."""
    gates = gates_of(game)
    if not gates:
        return None
    record = of(session, address, now)
    why = []
    if "abandoned" in gates and record.abandoned_lately > gates["abandoned"]:
        most = gates["abandoned"]
        why.append(ngettext("it takes players with at most {most} seat abandoned in the last year, and your record "
                            "shows {shown}", "it takes players with at most {most} seats abandoned in the last year, "
                            "and your record shows {shown}", int(most), most=format(most, "g"),
                            shown=record.abandoned_lately))
    if "on_time" in gates and record.share_lately is not None and record.share_lately * 100 < gates["on_time"]:
        why.append(_("it takes players on time in at least {least} of their phases of the last year, and yours "
                     "were on time in {on_time} of {due} ({share})", least=format(gates['on_time'], "g") + "%",
                     on_time=record.on_time_lately, due=record.due_lately, share=format(record.share_lately, ".0%")))
    if "finished" in gates and record.finished < gates["finished"]:
        least = gates["finished"]
        why.append(ngettext("it takes players who have played at least {least} game to the end, and your record "
                            "shows {shown}", "it takes players who have played at least {least} games to the end, "
                            "and your record shows {shown}", int(least), least=format(least, "g"),
                            shown=record.finished))
    if "rating" in gates and (refused := _rating_refusal(session, address, gates["rating"])):
        why.append(refused)
    return _("{game} has entry gates: {why}", game=game.name, why="; ".join(why)) if why else None


def _rating_refusal(session: Session, address: str, least: float) -> str | None:
    """Why ``address``'s rating does not pass a gate of ``least``: too low, or still provisional."""
    row = session.get(RatingRow, (mailbox(address), ""))  # the overall rating (`judge.service.hosting.ratings`)
    rating = Rating(row.mu, row.sigma, row.games) if row is not None else NEWCOMER
    if rating.provisional:
        return ngettext("it takes players rated at least {least}, from at least {games} rated games, and your rating "
                        "is provisional ({figure}, from {count} rated game)", "it takes players rated at least "
                        "{least}, from at least {games} rated games, and your rating is provisional ({figure}, from "
                        "{count} rated games)", rating.games, least=format(least, "g"), games=PROVISIONAL,
                        figure=rating.figure)
    if rating.figure < least:
        return _("it takes players rated at least {least}, and your rating is {figure}", least=format(least, "g"),
                 figure=rating.figure)
    return None


# -- the public page ----------------------------------------------------------------------------------


def page_name(session: Session, address: str, what: str = "record") -> str:
    """The name of the public page (``what``: ``record``, or ``calendar`` for the player's own
    calendar of deadlines; ``fame``: the player's row in the hall of fame) of ``address``'s
    mailbox, keyed with the judge's secret: no one can work out an address's page from the
    address, nor the address from the page, and every address of one mailbox has the same."""
    return named(page_key(session), address, what)


def page_key(session: Session) -> bytes:
    """The judge's secret the pages' names are keyed with."""
    return session.get_one(Secret, "verp").value.encode()


def named(key: bytes, address: str, what: str = "record") -> str:
    """`page_name` with the key read once (`page_key`)."""
    digest = hmac.new(key, f"{what}:{mailbox(address)}".encode(), hashlib.sha256).digest()
    return base64.b32encode(digest[:10]).decode().lower()


def summary(record: Record) -> dict[str, Any]:
    """A record as its page shows it."""
    return {"words": record.words(), "numbers": record.numbers()}
