"""SIGNON, and the back-off that makes guessing passwords by mail hopeless.

Every refused sign-on is recorded, for its seat (a power of a game, or its master) and for its
sender.  After ``FREE_FAILURES`` failures in a row for a seat (a success clears them), or in a
day from one sender, each further attempt must wait twice as long as the one before (one
minute, two, four, ...; at most an hour for a seat, a day for a sender); an attempt made too
soon is refused without looking at the password and is not counted.  The seat's registered
address is told of the failures at the fifth, tenth, twentieth, ... one, with the senders'
addresses, so a player learns that someone is trying.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import NamedTuple

from sqlalchemy import and_, bindparam, case, delete, func, or_, select
from sqlalchemy.orm import Session

from judge.commands import parse as cmd
from judge.service import lifecycle, views
from judge.service.config import Settings
from judge.service.handlers.conversation import ANYONE, Context, Conversation, Refusal, handles, masked, power_of
from judge.service.outbox import queue
from judge.service.passwords import hash_password, verify_password
from judge.service.render import render
from judge.store.models import Game, Player, SignonFailure

FREE_FAILURES = 5
SEAT_CAP = timedelta(hours=1)
SENDER_CAP = timedelta(days=1)


@handles(cmd.SignOn, ANYONE)
def signon(talk: Conversation, text: str, command: cmd.SignOn) -> None:
    game = talk.game(command.game)
    sender = talk.mail.sender or talk.mail.reply_to
    if game is None:
        raise Refusal(until=failures(talk.session, None, None, sender, talk.now).blocked_until(talk.now))
    who = "MASTER" if command.who == "MASTER" else _power_or_none(game, command.who)
    found = failures(talk.session, game.id, who, sender, talk.now)
    until = found.blocked_until(talk.now)
    if until is not None:
        raise Refusal(game.name, who, until)
    if who == "MASTER":
        if not verify_password(command.password, game.gm_password):
            raise Refusal(game.name, who)
        registered = game.gm_address
        talk.context = Context(game=game, registered=registered)
        done = f"signed on as master of {game.name}"
    else:
        player = talk.seats(game).get(who) if who else None
        if player is None or not verify_password(command.password, player.password):
            raise Refusal(game.name, who)
        assert who is not None
        if not lifecycle.is_played(player):
            raise Refusal(game.name, who, gone=f"{who.title()} in {game.name} is no longer yours: "
                          + ("you resigned it" if player.resigned else "the game master made it a dummy power"))
        registered = player.address or ""
        talk.context = Context(game=game, power=who, player=player, registered=registered)
        done = f"signed on as {who.title()} in {game.name}"
    if found.seat:  # a success clears the seat's failures
        talk.session.execute(delete(SignonFailure).where(SignonFailure.game_id == game.id, SignonFailure.who == who))
    if registered and registered != talk.mail.reply_to:
        talk.copies.add(registered)
    talk.echo(masked(text, command.password), "ok", done)


def _power_or_none(game: Game, text: str) -> str | None:
    try:
        return power_of(game, text)
    except ValueError:
        return None


def _delay(failures: int, cap: timedelta) -> timedelta:
    if failures < FREE_FAILURES:
        return timedelta(0)
    return min(timedelta(minutes=2 ** min(failures - FREE_FAILURES, 20)), cap)


class Failures(NamedTuple):
    """The refused sign-ons on record for an attempt: its seat's, and its sender's in the last day."""

    seat: int
    seat_last: datetime | None
    sender: int
    sender_last: datetime | None

    def blocked_until(self, now: datetime) -> datetime | None:
        """When the next sign-on to this seat, or from this sender, may be tried; None if now."""
        moments = []
        if self.seat_last is not None:
            moments.append(self.seat_last + _delay(self.seat, SEAT_CAP))
        if self.sender_last is not None:
            moments.append(self.sender_last + _delay(self.sender, SENDER_CAP))
        until = max(moments, default=None)
        return until if until is not None and until > now else None


# A seat's failures and a sender's of the last day, in one statement built once (building and
# keying it cost more than running it).  A sign-on with no seat binds NULL: ``= NULL`` is never true.
_SEAT = and_(SignonFailure.game_id == bindparam("game_id"), SignonFailure.who == bindparam("who"))
_RECENT = and_(SignonFailure.sender == bindparam("sender"), SignonFailure.at > bindparam("since"))
_FAILURES = (select(func.count(case((_SEAT, 1))), func.max(case((_SEAT, SignonFailure.at))),
                    func.count(case((_RECENT, 1))), func.max(case((_RECENT, SignonFailure.at))))
             .where(or_(_SEAT, _RECENT)))


def failures(session: Session, game_id: int | None, who: str | None, sender: str, now: datetime) -> Failures:
    """The `Failures` of a sign-on to seat ``who`` of game ``game_id`` (none without a seat) from
    ``sender``, counted in one query over both."""
    row = session.execute(_FAILURES, {"game_id": game_id, "who": who, "sender": sender,
                                      "since": now - timedelta(days=1)}).one()
    return Failures(*row)


def record_failure(session: Session, settings: Settings, refusal: Refusal, sender: str, now: datetime) -> None:
    """Count a refused sign-on (not one refused for coming too soon) and tell the seat's owner at
    the fifth, tenth, twentieth... failure in a row."""
    if refusal.until is not None or refusal.gone is not None:
        return
    game = session.scalar(select(Game).where(Game.name == refusal.game)) if refusal.game else None
    session.add(SignonFailure(game_id=game.id if game else None, who=refusal.who if game else None,
                              sender=sender[:320], at=now))
    if game is None or refusal.who is None:
        return
    rows = list(session.execute(select(SignonFailure.sender, SignonFailure.at)
                                .where(SignonFailure.game_id == game.id, SignonFailure.who == refusal.who)))
    count = len(rows)
    if count < FREE_FAILURES or count % FREE_FAILURES or (count // FREE_FAILURES) & (count // FREE_FAILURES - 1):
        return
    if refusal.who == "MASTER":
        address: str | None = game.gm_address
    else:
        player = lifecycle.seats(session, game).get(refusal.who)
        address = player.address if player else None
    if address:
        senders = sorted({s for s, _ in rows})
        queue(session, settings, to=address, subject=f"{game.name}: failed sign-ons as {refusal.who.title()}",
              kind="notice", now=now, game_id=game.id,
              body=render("signon_failures", game=game, who=refusal.who, count=count, senders=senders,
                          until=now + _delay(count, SEAT_CAP)))


@handles(cmd.Takeover, ANYONE)
def takeover(talk: Conversation, text: str, command: cmd.Takeover) -> None:
    """DPjudge's TAKEOVER: a new player claims a vacant power that is open for it, with its
    treasury, acceptance list and units, and gets a briefing of the position."""
    shown = masked(text, command.password)
    game = talk.named_game(shown, command.game)
    if game is None:
        return
    power = talk.named_power(shown, game, command.who)
    if power is None:
        return
    player = lifecycle.seats(talk.session, game).get(power)
    if game.state not in ("active", "paused") or player is None:
        talk.echo(shown, "error", "powers can be taken over only in a running game")
    elif lifecycle.is_played(player):
        talk.echo(shown, "error", f"{power.title()} has a player")
    elif not lifecycle.is_open(game, power):
        talk.echo(shown, "error", f"{power.title()} is not open for takeover: ask the game master (SET OPENING)")
    elif any(p.address == talk.mail.reply_to for p in lifecycle.seats(talk.session, game).values()
             if lifecycle.is_played(p)):
        talk.echo(shown, "error", "you already play a power in this game")
    elif talk.mail.reply_to != talk.mail.sender:
        talk.echo(shown, "error", "send TAKEOVER from the address that will play (your From, without a Reply-To)")
    else:
        player.address, player.password = talk.mail.reply_to, hash_password(command.password)
        player.dummy = player.resigned = False
        player.vote = None
        player.joined_at = talk.now
        game.settings = {**game.settings, "open": [p for p in game.settings.get("open", []) if p != power]}
        lifecycle.record(game, f"{power.title()} taken over by a new player")
        talk.echo(shown, "ok", f"you now play {power.title()} in {game.name} (SIGNON {power}@{game.name} password); "
                  "a briefing follows")
        _brief(talk, game, power, player)
        who = "" if lifecycle.rules_of(game).anonymous else f" ({talk.mail.reply_to})"
        talk.context = Context(game=game, power=power, player=player, registered=player.address)
        talk.announce(f"{power.title()} has a new player{who}")


def _brief(talk: Conversation, game: Game, power: str, player: Player) -> None:
    """What the new player of a power needs: the board, its treasury and acceptance list, and its
    last statement (rule 5.7) — nothing of the other powers' secrets."""
    row = lifecycle.current_phase(talk.session, game)
    assert row is not None
    last = next((r for r in reversed(lifecycle.processed_phases(talk.session, game))
                 if r.result and r.result.get("determination")), None)
    statement = last.result["determination"]["powers"].get(power) if last and last.result else None
    if lifecycle.options_of(game).blind:
        board = views.board(lifecycle.sight_now(talk.session, game, power, row).after, power)
    else:
        board = views.board(lifecycle.position_of(row))
    body = render("briefing", game=game, power=power, board=board,
                  balance=lifecycle.balances(talk.session, game)[power], acceptance=player.acceptance,
                  statement=statement, last=last.name if last else None)
    queue(talk.session, talk.settings, to=talk.mail.reply_to, subject=f"{game.name}: your briefing as {power.title()}",
          kind="notice", now=talk.now, game_id=game.id, body=body)
