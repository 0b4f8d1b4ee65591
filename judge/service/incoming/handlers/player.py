"""A signed-on seat's commands in every game: STATUS (its game's kind answers it), PRESS
(`judge.service.incoming.handlers.press`), RESIGN, SET ABSENCE, WAIT and NOWAIT; and SET PASSWORD / SET
ADDRESS, which the game master may use too.
A game's own commands (Payola's offers and orders, Pirates' Proposal's plans and votes) are its
kind's.

A change of password or address is always told to the address registered before it, whoever
sent the mail and wherever its replies go, so that nobody can take a seat over silently; a new
address receives the seat's mail only once it has confirmed it wants it (`consent`).
"""

from __future__ import annotations

from sqlalchemy import select

from judge.commands import parse as cmd
from judge.language import gettext as _
from judge.language import later, ngettext
from judge.mail.inbound import usable_address
from judge.service import mailbox
from judge.service.dispatch import PLAYER, SIGNED_ON, Entry
from judge.service.hosting import host, silent_seats
from judge.service.hosting.deadlines import move_to, past_absences
from judge.service.incoming.handlers import consent
from judge.service.incoming.handlers.answers import clauses
from judge.service.incoming.handlers.conversation import Conversation, masked
from judge.service.incoming.handlers.holding import Why
from judge.service.incoming.handlers.press import press
from judge.service.incoming.handlers.reading import Context, news
from judge.service.options import rules_of
from judge.service.outgoing.preferences import writing_to
from judge.service.passwords import hash_password
from judge.service.states import RUNNING, GameState
from judge.service.templates import when
from judge.store.models import Absence, Confirmation, Game


def status(talk: Conversation, text: str, _command: cmd.Status) -> None:
    """A seat's STATUS is filled in by its game's kind when the seat's lines end
    (`judge.games.GameKind.close_block`), so that it shows what the same mail sends, whether it
    comes before or after it.  The host
    writes the first line of both (`host.status_header`) and adds who asks to WAIT
    (`Conversation.wait_lines`); to the game master's, who is still to act in the phase (the seats
    the clock reminds, `Phases.waiting`), the kind's own lines (none by default), and the silent seats'."""
    game = talk.context.game
    assert game is not None
    if not talk.context.is_master:
        talk.context.status_echoes.append(talk.echo(text, "info"))
    else:
        own = talk.kinds.of(game).master_status(talk)
        talk.echo(text, "info", "", [host.status_header(game), *late_lines(talk, game), *talk.wait_lines(game, None),
                                      *own, *silent_seats.lines(talk.session, game)])


def wait(talk: Conversation, text: str, command: cmd.Wait) -> None:
    """WAIT: the phase waits for its deadline even once every seat has sent what it must, so that a
    seat keeps the time to change its mind (in Machiavelli, its one correction: M60); it holds the
    phase to its deadline only, not through the grace period (`host.closes_early`).  NOWAIT
    withdraws it.  Kept as the seat's submission of kind ``wait`` of the phase (`host.WAIT`), which
    a later mail replaces; secret from the other seats, shown in the seat's STATUS and the game
    master's.  Where a kind's phases never close early (Pirates' Proposal) it has nothing to hold."""
    game, seat = talk.context.game, talk.context.seat
    assert game is not None and seat is not None
    kind = talk.kinds.of(game)
    if not kind.closes_early:
        talk.echo(text, "error", _("a phase of {kind} never closes before its deadline: there is nothing to wait for",
                                   kind=kind.title), code="NEVER_EARLY")
        return
    if game.phase is None or game.state not in RUNNING:
        talk.echo(text, "error", _("the game is not running"), code="NOT_RUNNING")
        return
    if kind.out_of_game(talk.session, game, seat):
        talk.echo(text, "error", _("{seat} is out of the game: it has no phase to hold", seat=kind.seat_title(seat)),
                  code="OUT_OF_GAME")
        return
    if why := talk.superseded(host.latest_accepted(talk.session, game, game.phase, seat, host.WAIT),
                              "your WAIT or NOWAIT"):
        talk.echo(text, "ignored", why, code="SUPERSEDED")
        return
    host.submit(talk.session, game, game.phase, seat, host.WAIT, "WAIT" if command.on else "", {}, talk.now,
                talk.accepted)
    if command.on:
        talk.echo(text, "ok", _("{phase} will wait for its deadline even once everyone has sent what it waits for "
                                "(not through the grace period; NOWAIT to withdraw)", phase=game.phase), code="WAITING")
    else:
        talk.echo(text, "ok", _("WAIT withdrawn: {phase} may close as soon as everyone has sent what it waits for",
                                phase=game.phase), code="NOT_WAITING")


def late_lines(talk: Conversation, game: Game) -> list[str]:
    """Who is still to act in the game's open phase, for the game master's STATUS, in every kind."""
    if game.phase is None or game.state not in RUNNING:
        return []
    kind = talk.kinds.of(game)
    waiting = kind.waiting(talk.session, game)
    if not waiting:
        return [_("still to act in {phase}: nobody", phase=game.phase)]
    return [_("still to act in {phase}: {seats}", phase=game.phase, seats=", ".join(map(kind.seat_title, waiting)))]


def set_password(talk: Conversation, text: str, command: cmd.SetPassword) -> None:
    context = talk.context
    game = context.game
    assert game is not None
    if context.is_master:
        game.gm_password = hash_password(command.password)
    else:
        assert context.player is not None
        context.player.password = hash_password(command.password)
    talk.tell_registered(news(lambda: _password_changed(talk, context)))
    talk.echo(masked(text, command.password), "ok", _("password changed"))


def set_address(talk: Conversation, text: str, command: cmd.SetAddress) -> None:
    """The seat's mail goes to a new address once that address has confirmed it wants it
    (`consent`); the address registered before is told of the change."""
    context = talk.context
    game = context.game
    assert game is not None
    address = usable_address(command.address)
    if not address:
        talk.echo(text, "error", _("'{address}' is not an address the judge can send mail to",
                                   address=command.address[:80]), code="BAD_ADDRESS")
        return
    previous = game.gm_address if context.is_master else (context.player.address if context.player else None)
    if taken := _played_elsewhere(talk, game, context.seat or "MASTER", address):
        talk.echo(text, "error", taken.message, code=taken.code)
        return
    if address != previous and consent.needed(talk, address):
        consent.ask(talk, text, address, "address", game, {"who": context.seat or "MASTER", "previous": previous},
                    f"SET ADDRESS {address}", lambda: _receive(talk, context))
        talk.tell_registered(news(lambda: _address_to_change(talk, context, address)))
        return
    _move(talk, game, context.seat or "MASTER", address)
    talk.copy_to(address)
    talk.echo(text, "ok", _("mail will now go to {address}", address=address))


def address_confirmed(talk: Conversation, request: Confirmation, text: str) -> None:
    game = consent.game_of(talk, request)
    assert game is not None
    who, previous = request.details["who"], request.details["previous"]
    player = host.seats(talk.session, game).get(who)
    current = game.gm_address if who == "MASTER" else (
        player.address if player is not None and host.is_played(player) else None)
    if current != previous or game.state == GameState.FINISHED:
        talk.echo(text, "error", _("the seat's address has changed since {address} was asked: nothing done",
                                   address=request.address), code="ADDRESS_CHANGED")
        return
    if taken := _played_elsewhere(talk, game, who, request.address):
        talk.echo(text, "error", taken.message, code=taken.code)
        return
    _move(talk, game, who, request.address)
    seat = Context(game=game, seat=None if who == "MASTER" else who)
    talk.echo(text, "ok", _address_moved(talk, seat, request.address))


def _played_elsewhere(talk: Conversation, game: Game, who: str, address: str) -> Why | None:
    """Why seat ``who`` (MASTER: the game master, who may play too) may not move to ``address``:
    the mailbox plays another seat of the game already (one seat a person, ruling H4)."""
    if who == "MASTER" or not any(mailbox.same(player.address, address) for seat, player in
                                  host.seats(talk.session, game).items() if seat != who and host.is_played(player)):
        return None
    return Why("ALREADY_PLAYING", _("{address} already plays another seat in this game", address=address))


def _move(talk: Conversation, game: Game, who: str, address: str) -> None:
    """Send the mail of seat ``who`` (a power, or MASTER) to ``address``; the address it had
    is told (one notice per address and mail, `Conversation.notices`)."""
    seat = Context(game=game, seat=None if who == "MASTER" else who)
    if who == "MASTER":
        previous: str | None = game.gm_address
        game.gm_address = address
    else:
        player = host.seats(talk.session, game)[who]
        previous, player.address = player.address, address
    if previous and previous != address:
        talk.tell_of_change(previous, news(lambda: _address_changed(talk, seat, address)), game)


# What is said of a seat's registration, one whole sentence each for the game master and for a seat.

def _password_changed(talk: Conversation, context: Context) -> str:
    assert context.game is not None
    if context.is_master:
        return _("the password of the game master in {game} was changed", game=context.game.name)
    return _("the password of {seat} in {game} was changed", seat=_title(talk, context), game=context.game.name)


def _receive(talk: Conversation, context: Context) -> str:
    """What a new address is asked to consent to (`consent.ask`: the words after "confirm that you want")."""
    assert context.game is not None
    if context.is_master:
        return _("to receive the mail of the game master in {game}", game=context.game.name)
    return _("to receive the mail of {seat} in {game}", seat=_title(talk, context), game=context.game.name)


def _address_to_change(talk: Conversation, context: Context, address: str) -> str:
    assert context.game is not None
    if context.is_master:
        return _("the address of the game master in {game} is to be changed to {address}, once that address "
                 "confirms", game=context.game.name, address=address)
    return _("the address of {seat} in {game} is to be changed to {address}, once that address confirms",
             seat=_title(talk, context), game=context.game.name, address=address)


def _address_moved(talk: Conversation, context: Context, address: str) -> str:
    assert context.game is not None
    if context.is_master:
        return _("the mail of the game master in {game} will now go to {address}", game=context.game.name,
                 address=address)
    return _("the mail of {seat} in {game} will now go to {address}", seat=_title(talk, context),
             game=context.game.name, address=address)


def _address_changed(talk: Conversation, context: Context, address: str) -> str:
    assert context.game is not None
    if context.is_master:
        return _("the address of the game master in {game} was changed to {address}", game=context.game.name,
                 address=address)
    return _("the address of {seat} in {game} was changed to {address}", seat=_title(talk, context),
             game=context.game.name, address=address)


def _title(talk: Conversation, context: Context) -> str:
    assert context.game is not None
    return talk.kinds.of(context.game).seat_title(context.seat or "")


def resign(talk: Conversation, text: str, _command: cmd.Resign) -> None:
    game, power, player = talk.context.game, talk.context.seat, talk.context.player
    assert game is not None and power is not None and player is not None
    kind = talk.kinds.of(game)
    host.left_seat(game, player)
    player.resigned = True
    before = talk.news_so_far(game)  # the resignation is told first, what the kind's rules make of it after
    resigned = kind.resigned(talk, game, power)
    # A seat that can have no player again has left the game (Exchange's investor, E32): it is no dummy.
    left = kind.no_new_player(talk.session, game, power) is not None
    note = (_("you have resigned; your seat has left the game") if left
            else _("you have resigned; your seat is now a dummy"))
    # the kind's own clause, whole (one written to be glued, without the English "and" or "; " it began with)
    more = resigned.strip().lstrip(";").strip().removeprefix("and, ").removeprefix("and ")
    note = clauses([note, more]) if more else note
    title = kind.seat_title(power)
    host.record(game, later("the player of {seat} resigned", seat=title))
    if left:
        told = news(lambda: _("the player of {seat} resigned: it has left the game", seat=title))
    else:
        told = news(lambda: _("the player of {seat} resigned: it is now a dummy", seat=title))
    talk.announce(told, public=True, at=before)  # observers are told of resignations too (docs/players/by-mail.md)
    talk.context = Context()
    talk.echo(text, "ok", note)


def set_absence(talk: Conversation, text: str, command: cmd.SetAbsence) -> None:
    """An absence: approved at once within the game's ABSENCE_DAYS a year, else by the game
    master; once approved, no deadline of the game falls inside it."""
    game, power = talk.context.game, talk.context.seat
    assert game is not None and power is not None
    if game.state == GameState.FINISHED:
        talk.echo(text, "error", _("the game has ended"), code="GAME_ENDED")
        return
    if command.start < talk.now.date():
        talk.echo(text, "error", _("an absence cannot start in the past"), code="IN_THE_PAST")
        return
    days = (command.end - command.start).days + 1
    taken = sum((a.end - a.start).days + 1 for a in talk.session.scalars(select(Absence).where(
        Absence.game_id == game.id, Absence.seat == power, Absence.status == "approved",
        Absence.start >= command.start.replace(month=1, day=1))))
    absence = Absence(game_id=game.id, seat=power, start=command.start, end=command.end, created_at=talk.now)
    talk.session.add(absence)
    if taken + days <= rules_of(game).absence_days:
        approve_absence(talk, absence)
        talk.echo(text, "ok", ngettext("absence approved ({count} day; {used} of the game's {most} a year)",
                                       "absence approved ({count} days; {used} of the game's {most} a year)", days,
                                       used=taken + days, most=rules_of(game).absence_days), code="ABSENCE_APPROVED")
    else:
        absence.status = "pending"
        title = talk.kinds.of(game).seat_title(power)
        with writing_to(talk.session, talk.settings, game.gm_address, game):  # the master's mail, in theirs
            subject = _("{game}: absence asked by {seat}", game=game.name, seat=title)
            asked = ngettext("{seat} asks to be absent from {start} to {end} ({count} day).",
                             "{seat} asks to be absent from {start} to {end} ({count} days).", days, seat=title,
                             start=command.start, end=command.end)
            how = _("APPROVE ABSENCE {power} or DENY ABSENCE {power}, signed on as the master.", power=power)
            talk.send(to=game.gm_address, subject=subject, kind="notice", game_id=game.id, body=f"{asked}\n{how}\n")
        talk.echo(text, "ok", _("absence asked for: the game master decides (you will be told)"), code="ABSENCE_ASKED")


def approve_absence(talk: Conversation, absence: Absence) -> None:
    """Approve an absence, move the deadline out of it, tell everyone, and keep it among the
    game's events (SUMMARY)."""
    game = talk.context.game
    assert game is not None
    absence.status = "approved"
    talk.session.flush()
    title = talk.kinds.of(game).seat_title(absence.seat)
    host.record(game, later("{seat} absent from {start} to {end} (approved)", seat=title, start=str(absence.start),
                            end=str(absence.end)))
    if game.deadline is not None and game.phase is not None:
        setting = talk.kinds.of(game).length_of(game.phase)
        moved = past_absences(talk.session, game, game.deadline, setting)
        if moved != game.deadline:
            move_to(game, moved, talk.now)
            phase, deadline = game.phase, when(moved)
            talk.announce(news(lambda: _("{seat} is absent from {start} to {end}: the deadline of {phase} moves to "
                                         "{deadline}", seat=title, start=absence.start, end=absence.end, phase=phase,
                                         deadline=deadline)))
            return
    talk.announce(news(lambda: _("{seat} will be absent from {start} to {end}: no deadline falls in those days",
                                 seat=title, start=absence.start, end=absence.end)))


COMMANDS = (
    Entry(cmd.Status, status, SIGNED_ON),
    Entry(cmd.Press, press, SIGNED_ON),
    Entry(cmd.SetPassword, set_password, SIGNED_ON),
    Entry(cmd.SetAddress, set_address, SIGNED_ON),
    Entry(cmd.Resign, resign, PLAYER, closed_after_the_end=True, announces=True),
    Entry(cmd.SetAbsence, set_absence, PLAYER, closed_after_the_end=True, announces=True),
    Entry(cmd.Wait, wait, PLAYER, closed_after_the_end=True),
)
"""The commands of this module, for the dispatcher (`judge.service.dispatch`)."""
