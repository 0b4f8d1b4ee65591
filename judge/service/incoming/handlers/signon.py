"""SIGNON, and the back-off that makes guessing passwords by mail hopeless without letting
anyone lock a player out; TAKEOVER, and the game master's REPLACE.

Every refused sign-on is recorded with its seat (a power of a game, its master, or ``KEY``: a
private game's join key, see `anyone.join`) and its *source*: the IP address the mail came from
as the judge's own MTA or listener wrote it, with the envelope sender
(`judge.mail.received.Source`), which an attacker cannot forge as cheaply as a From.  Budgets:

* a source on a seat: after ``FREE_FAILURES`` failures each further attempt must wait twice as
  long as the one before (one minute, two, four, ...; at most ``SEAT_CAP``); a success from
  that source clears its failures on the seat;
* a network (an IPv4 address, an IPv6 /64) on a seat over a day: the same after
  ``NETWORK_FREE_FAILURES``, at most a day, so that an attacker who changes its envelope sender
  with every mail is still counted.  It spares a mail whose envelope sender is the seat's
  registered address, or from a source that signed on to the seat before (`Signon`): a player
  who shares a large provider's servers with an attacker is not locked out by it;
* a source over a day across every seat, and apart from that across games that do not exist:
  after ``FREE_FAILURES``, at most a day.

An attempt over a budget is refused without looking at the password (no scrypt) and is not
counted.  No budget is shared between sources but the network's, so the right password from
the player's own source always works, whatever strangers try, and a forged From counts against
nobody.  The seat's registered address is told of the failures at the fifth, tenth, twentieth,
... one on record, with their sources, so a player learns that someone is trying.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from typing import NamedTuple, cast

from sqlalchemy import Table, and_, bindparam, case, delete, func, or_, select
from sqlalchemy.orm import Session

from judge.commands import parse as cmd
from judge.language import gettext as _
from judge.language import later
from judge.mail.inbound import usable_address
from judge.mail.received import Source
from judge.service import mailbox
from judge.service.config import Settings
from judge.service.dispatch import ANYONE, MASTER, Entry
from judge.service.hosting import host, records
from judge.service.hosting.kinds import kind_of
from judge.service.incoming.handlers import consent
from judge.service.incoming.handlers.conversation import Conversation, Refusal, masked
from judge.service.incoming.handlers.holding import Why
from judge.service.incoming.handlers.reading import Context
from judge.service.options import rules_of
from judge.service.outgoing.outbox import queue
from judge.service.outgoing.preferences import writing_to
from judge.service.passwords import hash_password, verify_password
from judge.service.states import RUNNING
from judge.service.templates import render
from judge.store.models import Confirmation, Game, Player, Signon, SignonFailure

FREE_FAILURES = 5
NETWORK_FREE_FAILURES = 20
SEAT_CAP = timedelta(hours=1)
DAY_CAP = timedelta(days=1)
KEY = "KEY"  # the seat of a private game's join key


def signon(talk: Conversation, text: str, command: cmd.SignOn) -> None:
    game = talk.game_named(command.game)
    source = talk.source
    if game is None:
        raise Refusal(until=failures(talk.session, None, None, source, talk.now).blocked_until(talk.now, seat=False))
    who = "MASTER" if command.who == "MASTER" else _seat_or_none(talk, game, command.who)
    player = talk.seats(game).get(who) if who and who != "MASTER" else None
    owner = game.gm_address if who == "MASTER" else player.address if player else None
    found = failures(talk.session, game.id, who, source, talk.now)
    until = found.blocked_until(talk.now, spared=bool(owner) and mailbox.same(source.envelope, owner))
    if until is not None:
        raise Refusal(game.name, who, until)
    if who == "MASTER":
        if not verify_password(command.password, game.gm_password):
            raise Refusal(game.name, who)
        registered = game.gm_address
        talk.context = Context(game=game, registered=registered)
        done = _("signed on as master of {game}", game=game.name)
    else:
        if player is None or not verify_password(command.password, player.password):
            raise Refusal(game.name, who)
        assert who is not None
        kind = talk.kinds.of(game)
        if not host.is_played(player):
            title = kind.seat_title(who)
            raise Refusal(game.name, who, gone=_("{seat} in {game} is no longer yours: the judge declared it "
                                                 "abandoned after you missed its deadlines", seat=title,
                                                 game=game.name)
                          if mailbox.same(game.settings.get("abandoned", {}).get(who), player.address)
                          else _("{seat} in {game} is no longer yours: you resigned it", seat=title, game=game.name)
                          if player.resigned
                          else _("{seat} in {game} is no longer yours: the game master made it a dummy", seat=title,
                                 game=game.name))
        registered = player.address or ""
        talk.context = Context(game=game, seat=who, player=player, registered=registered)
        done = _("signed on as {seat} in {game}", seat=kind.seat_title(who), game=game.name)
    if found.own:  # a success clears the source's own failures on the seat
        talk.session.execute(delete(SignonFailure).where(SignonFailure.game_id == game.id, SignonFailure.who == who,
                                                         SignonFailure.source == source.key))
    if not found.known:
        remember(talk, game, who)
    if registered and not mailbox.same(registered, talk.mail.reply_to):  # a copy to another mailbox only
        talk.copy_to(registered)
    talk.proved(registered)
    talk.echo(masked(text, command.password), "ok", done)


def remember(talk: Conversation, game: Game, who: str) -> None:
    """Keep that the mail's source signed on to seat ``who`` of ``game`` (it had not before)."""
    talk.session.add(Signon(game_id=game.id, who=who, source=talk.source.key, network=talk.source.network,
                            at=talk.now))


def _seat_or_none(talk: Conversation, game: Game, text: str) -> str | None:
    try:
        return talk.kinds.of(game).seat(talk.session, game, text)
    except ValueError:
        return None


def _delay(failures: int, free: int, cap: timedelta) -> timedelta:
    if failures < free:
        return timedelta(0)
    return min(timedelta(minutes=2 ** min(failures - free, 20)), cap)


class Failures(NamedTuple):
    """The refused sign-ons on record for an attempt, by budget (see the module's header), and
    whether its source signed on to the seat before."""

    own: int  # the source's on the seat
    own_last: datetime | None
    network: int  # the source's network's on the seat, in the last day
    network_last: datetime | None
    source: int  # the source's on any seat, in the last day
    source_last: datetime | None
    nowhere: int  # the source's on games that do not exist, in the last day
    nowhere_last: datetime | None
    known: bool

    def blocked_until(self, now: datetime, *, seat: bool = True, spared: bool = False) -> datetime | None:
        """When the source may try again (None: now): on a ``seat`` (``own``, ``source``, and
        ``network`` unless the attempt is ``spared`` or comes from a ``known`` source), or for a
        game that does not exist (``nowhere``: it counts against no seat)."""
        if not seat:
            budgets = [(self.nowhere, self.nowhere_last, FREE_FAILURES, DAY_CAP)]
        else:
            budgets = [(self.own, self.own_last, FREE_FAILURES, SEAT_CAP),
                       (self.source, self.source_last, FREE_FAILURES, DAY_CAP)]
            if not (spared or self.known):
                budgets.append((self.network, self.network_last, NETWORK_FREE_FAILURES, DAY_CAP))
        moments = [last + _delay(count, free, cap) for count, last, free, cap in budgets if last is not None]
        until = max(moments, default=None)
        return until if until is not None and until > now else None


# Every budget of an attempt, in one Core statement built once (building and keying it cost more
# than running it, and the ORM's layer more again).  An attempt with no seat binds NULL: ``= NULL``
# is never true; so does one with no network.
_FAILED = cast(Table, SignonFailure.__table__).c
_SIGNED = cast(Table, Signon.__table__).c
_SEAT = and_(_FAILED.game_id == bindparam("game_id"), _FAILED.who == bindparam("who"))
_SOURCE = _FAILED.source == bindparam("source")
_RECENT = _FAILED.at > bindparam("since")
_OWN = and_(_SEAT, _SOURCE)
_NETWORK = and_(_SEAT, _FAILED.network == bindparam("network"), _RECENT)
_ANYWHERE = and_(_SOURCE, _RECENT, _FAILED.game_id.is_not(None))
_NOWHERE = and_(_SOURCE, _RECENT, _FAILED.game_id.is_(None))
_KNOWN = (select(func.count(_SIGNED.id)).where(_SIGNED.game_id == bindparam("game_id"), _SIGNED.who == bindparam("who"),
                                               _SIGNED.source == bindparam("source")).scalar_subquery())
_FAILURES = (select(*(f(case((condition, value))) for condition in (_OWN, _NETWORK, _ANYWHERE, _NOWHERE)
                      for f, value in ((func.count, 1), (func.max, _FAILED.at))), _KNOWN)
             .where(or_(_OWN, _NETWORK, and_(_SOURCE, _RECENT))))


def failures(session: Session, game_id: int | None, who: str | None, source: Source, now: datetime) -> Failures:
    """The `Failures` of an attempt on seat ``who`` of game ``game_id`` (none without a seat)
    from ``source``, counted in one query over every budget."""
    row = session.execute(_FAILURES, {"game_id": game_id, "who": who, "source": source.key,
                                      "network": source.network, "since": now - timedelta(days=1)}).one()
    return Failures(*row[:8], known=bool(row[8]))


def record_failure(session: Session, settings: Settings, refusal: Refusal, source: Source, sender: str,
                   now: datetime) -> None:
    """Count a refused attempt (not one refused for coming too soon) and tell the seat's owner
    at the fifth, tenth, twentieth... failure on record for the seat."""
    if refusal.until is not None or refusal.gone is not None:
        return
    game = session.scalar(select(Game).where(Game.name == refusal.game)) if refusal.game else None
    session.add(SignonFailure(game_id=game.id if game else None, who=refusal.who if game else None,
                              sender=sender[:320], source=source.key, network=source.network, at=now))
    if game is None or refusal.who is None:
        return
    rows = list(session.execute(select(SignonFailure.source, SignonFailure.sender)
                                .where(SignonFailure.game_id == game.id, SignonFailure.who == refusal.who)))
    count = len(rows)
    if count < FREE_FAILURES or count % FREE_FAILURES or (count // FREE_FAILURES) & (count // FREE_FAILURES - 1):
        return
    if refusal.who in ("MASTER", KEY):
        address: str | None = game.gm_address
    else:
        player = host.seats(session, game).get(refusal.who)
        address = player.address if player else None
    if address:
        seat = refusal.who.title() if refusal.who == "MASTER" else kind_of(session, game).seat_title(refusal.who)
        sources = sorted({f"{key} (From: {sender})" for key, sender in rows})
        with writing_to(session, settings, address, game):
            subject = (_("{game}: failed JOINs with a wrong key", game=game.name) if refusal.who == KEY
                       else _("{game}: failed sign-ons as {seat}", game=game.name, seat=seat))
            queue(session, settings, to=address, subject=subject, kind="notice", now=now, game_id=game.id,
                  body=render("signon_failures", game=game, key=refusal.who == KEY, seat=seat, count=count,
                             sources=sources))


def takeover(talk: Conversation, text: str, command: cmd.Takeover) -> None:
    """DPjudge's TAKEOVER: a new player claims a vacant seat that is open for it, with what the seat
    had (a power's treasury, acceptance list and units; a Pirates' Proposal player's name, gold and
    garnets), and gets a briefing from the game's kind of what the seat knows now.  The address
    that will play must have confirmed it (`consent`); the game master is told where the
    takeover came from (`_tell_master`)."""
    shown = masked(text, command.password)
    if consent.unmailable(talk, shown):
        return
    game = talk.named_game(shown, command.game)
    if game is None:
        return
    power = talk.named_seat(shown, game, command.who)
    if power is None:
        return
    address = talk.mail.reply_to
    over = talk.over_budget(game)
    problem = _cannot_take_over(talk, game, power, address) or (Why("OVER_BUDGET", over) if over else None)
    if problem:
        talk.echo(shown, "error", problem.message, code=problem.code)
        return
    password, source = hash_password(command.password), talk.source
    if consent.needed(talk, address):  # the game master hears where the TAKEOVER came from, not the CONFIRM
        consent.ask(talk, shown, address, "takeover", game,
                    {"power": power, "password": password, "source": source.key, "network": source.network,
                     "from": str(source)}, f"TAKEOVER {power}@{game.name}",
                    lambda: _("to play {seat} in that game", seat=talk.kinds.of(game).seat_title(power)))
        return
    _take_over(talk, shown, game, power, address, password, (source.key, source.network, str(source)))
    player = host.seats(talk.session, game)[power]
    talk.context = Context(game=game, seat=power, player=player, registered=address)


def take_over_confirmed(talk: Conversation, request: Confirmation, text: str) -> None:
    game = consent.game_of(talk, request)
    assert game is not None
    details = request.details
    problem = _cannot_take_over(talk, game, details["power"], request.address)
    if problem:
        talk.echo(text, "error", problem.message, code=problem.code)
        return
    _take_over(talk, text, game, details["power"], request.address, details["password"],
               (details["source"], details["network"], details["from"]))


def _cannot_take_over(talk: Conversation, game: Game, power: str, address: str) -> Why | None:
    kind = talk.kinds.of(game)
    player = host.seats(talk.session, game).get(power)
    if game.state not in RUNNING or player is None:
        return Why("NOT_RUNNING", _("{seat} can be taken over only in a running game", seat=kind.seat_title(power)))
    if host.is_played(player):
        return Why("HAS_A_PLAYER", _("{seat} has a player", seat=kind.seat_title(power)))
    if gone := kind.no_new_player(talk.session, game, power):
        return Why("LEFT_THE_GAME", gone)
    if not host.is_open(game, power):
        return Why("NOT_OPEN", _("{seat} is not open for takeover: ask the game master (SET OPENING)",
                                 seat=kind.seat_title(power)))
    if any(mailbox.same(p.address, address) for seat, p in host.seats(talk.session, game).items()
           if host.is_played(p) and not kind.out_of_game(talk.session, game, seat)):
        return Why("ALREADY_PLAYING", _("you already play in this game"))
    if gated := records.refusal(talk.session, game, address, talk.now):
        return Why("ENTRY_GATE", gated)
    return None


def _seat_to(talk: Conversation, game: Game, player: Player, address: str, password: str) -> None:
    """Give the seat ``player`` to a new player at ``address`` (TAKEOVER, REPLACE): played again,
    no longer open for takeover, and whatever else its kind does when a seat changes hands
    (`judge.service.hosting.kinds.Lobby.handed_over`: Payola withdraws its vote); who played it before, and
    since when the new player does, are kept for the end's "who played what" (`host.left_seat`,
    `host.took_seat`)."""
    assert player.seat is not None
    host.left_seat(game, player)
    host.took_seat(game, player.seat)
    player.address, player.password = address, password
    player.dummy = player.resigned = False
    talk.kinds.of(game).handed_over(talk.session, game, player)
    player.joined_at = talk.now
    game.settings = {**game.settings, "open": [p for p in game.settings.get("open", []) if p != player.seat],
                     "abandoned": {s: a for s, a in game.settings.get("abandoned", {}).items() if s != player.seat}}


def _take_over(talk: Conversation, shown: str, game: Game, power: str, address: str, password: str,
               source: tuple[str, str | None, str]) -> None:
    """Give ``power`` to ``address``, answering the line ``shown``; ``source`` is where the
    TAKEOVER came from (`Source`: its key, its network, and as the game master is told it)."""
    kind = talk.kinds.of(game)
    title = kind.seat_title(power)
    player = host.seats(talk.session, game)[power]
    _seat_to(talk, game, player, address, password)
    host.record(game, later("{seat} taken over by a new player", seat=title))
    talk.proved(address)
    talk.echo(shown, "ok", _("you now play {seat} in {game} (SIGNON {power}@{game} password); a briefing follows",
                             seat=title, game=game.name, power=power))
    kind.brief(talk, game, power, player, address)
    key, network, told = source
    _tell_master(talk, game, power, address, key, network, told)
    if not talk.session.scalar(select(Signon.id).where(Signon.game_id == game.id, Signon.who == power,
                                                       Signon.source == key)):
        talk.session.add(Signon(game_id=game.id, who=power, source=key, network=network, at=talk.now))

    def unnamed() -> str:  # each reader's in their language (`Telling.announce`)
        return _("{seat} has a new player", seat=title)

    def named() -> str:
        return _("{seat} has a new player ({address})", seat=title, address=address)

    talk.announce(unnamed if rules_of(game).anonymous else named, game=game, master=False,  # told above
                  observers=unnamed)  # observers are told, never an address


def _tell_master(talk: Conversation, game: Game, power: str, address: str, key: str, network: str | None,
                 told: str) -> None:
    """Tell the game master who took ``power`` over and from where, and whether that source (or
    its network) has signed on as another seat of the game: one player holding two seats."""
    title = talk.kinds.of(game).seat_title
    seen = list(talk.session.execute(select(Signon.who, Signon.source).where(
        Signon.game_id == game.id, Signon.who != power, or_(Signon.source == key, Signon.network == network))))
    same = {who for who, source in seen if source == key}
    near = {who for who, source in seen if source != key} - same
    with writing_to(talk.session, talk.settings, game.gm_address, game):
        lines = [_("{seat} in {game} was taken over by {address}.", seat=title(power), game=game.name,
                   address=address),
                 _("The TAKEOVER came from {source}.", source=told)]
        if same:
            lines.append(_("WARNING: that source has signed on as {seats} in this game: one player may now hold two "
                           "seats.", seats=_seats(same, title)))
        if near:
            lines.append(_("Its network (IP address) has signed on as {seats}: a shared mail provider, or the same "
                           "player.", seats=_seats(near, title)))
        queue(talk.session, talk.settings, to=game.gm_address,
              subject=_("{game}: {seat} taken over", game=game.name, seat=title(power)),
              kind="notice", now=talk.now, game_id=game.id, body="\n".join(lines) + "\n")


def _seats(seats: set[str], title: Callable[[str], str]) -> str:
    return ", ".join(_("the game master") if who == "MASTER" else title(who) for who in sorted(seats))


def replace(talk: Conversation, text: str, command: cmd.Replace) -> None:
    """njudge's REPLACE: the game master gives a seat, played or not, to a new address.  That
    address confirms it wants it and chooses its password in the same line (``CONFIRM token
    password``: the judge never mails a password, issue 22.5); then it gets the briefing a
    takeover gets, the player it replaces is told, and so is everyone (who the new player is,
    unless the game is ANONYMOUS)."""
    game = talk.context.game
    assert game is not None
    power = talk.named_seat(text, game, command.power)
    if power is None:
        return
    kind = talk.kinds.of(game)
    address = usable_address(command.address)
    if not address:
        talk.echo(text, "error", _("'{address}' is not an address the judge can send mail to",
                                   address=command.address[:80]), code="BAD_ADDRESS")
        return
    problem = _cannot_replace(talk, game, power, address)
    if problem:
        talk.echo(text, "error", problem.message, code=problem.code)
        return
    player = host.seats(talk.session, game)[power]
    consent.ask(talk, text, address, "replace", game,
                {"power": power, "previous": player.address if host.is_played(player) else None},
                f"REPLACE {power}@{game.name}",
                lambda: _("to play {seat} in that game in place of its player, as its game master asked",
                          seat=kind.seat_title(power)))


def _cannot_replace(talk: Conversation, game: Game, power: str, address: str) -> Why | None:
    kind = talk.kinds.of(game)
    if game.state not in RUNNING or host.seats(talk.session, game).get(power) is None:
        return Why("NOT_RUNNING", _("{seat} can be replaced only in a running game", seat=kind.seat_title(power)))
    if gone := kind.no_new_player(talk.session, game, power):
        return Why("LEFT_THE_GAME", gone)
    if any(mailbox.same(p.address, address) for p in host.seats(talk.session, game).values() if host.is_played(p)):
        return Why("ALREADY_PLAYING", _("{address} already plays in this game", address=address))
    return None


def replace_confirmed(talk: Conversation, request: Confirmation, text: str) -> None:
    game = consent.game_of(talk, request)
    assert game is not None
    details, address = request.details, request.address
    power = details["power"]
    kind = talk.kinds.of(game)
    title = kind.seat_title(power)
    problem = _cannot_replace(talk, game, power, address)
    player = host.seats(talk.session, game).get(power)
    if problem is None and player is not None and (player.address if host.is_played(player) else None) != details[
            "previous"]:
        problem = Why("ADDRESS_CHANGED", _("{seat} has changed hands since the game master asked: nothing done",
                                           seat=title))
    if problem or player is None:
        talk.echo(text, "error", problem.message if problem else "", code=problem.code if problem else None)
        return
    previous = details["previous"]
    _seat_to(talk, game, player, address, details["password"])
    host.record(game, later("{seat} given to a new player by the game master", seat=title))
    talk.echo(text, "ok", _("you now play {seat} in {game} (SIGNON {power}@{game} and the password you chose); "
                            "a briefing follows", seat=title, game=game.name, power=power))
    kind.brief(talk, game, power, player, address)
    if previous:
        with writing_to(talk.session, talk.settings, previous, game):
            queue(talk.session, talk.settings, to=previous,
                  subject=_("{game}: you no longer play {seat}", game=game.name, seat=title),
                  kind="notice", now=talk.now, game_id=game.id,
                  body=_("The game master of {game} has given {seat} to a new player: your password no longer "
                         "signs on to it.", game=game.name, seat=title) + "\n" + _("Thank you for playing.") + "\n")
    with writing_to(talk.session, talk.settings, game.gm_address, game):
        told = (_("{address} confirmed and now plays {seat} in {game} in place of {previous}.", address=address,
                  seat=title, game=game.name, previous=previous) if previous
                else _("{address} confirmed and now plays {seat} in {game}.", address=address, seat=title,
                       game=game.name))
        queue(talk.session, talk.settings, to=game.gm_address,
              subject=_("{game}: {seat} replaced", game=game.name, seat=title), kind="notice",
              now=talk.now, game_id=game.id, body=told + "\n")

    def given() -> str:  # each reader's in their language (`Telling.announce`)
        return _("the game master gave {seat} to a new player", seat=title)

    def named() -> str:
        return _("the game master gave {seat} to a new player ({address})", seat=title, address=address)

    talk.announce(given if rules_of(game).anonymous else named, game=game, master=False,  # told above
                  observers=given)


COMMANDS = (
    Entry(cmd.SignOn, signon, ANYONE),
    Entry(cmd.Takeover, takeover, ANYONE),
    Entry(cmd.Replace, replace, MASTER, closed_after_the_end=True, announces=True),
)
"""The commands of this module, for the dispatcher (`judge.service.dispatch`)."""
