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
from judge.mail.inbound import usable_address
from judge.service import mailbox
from judge.service.dispatch import PLAYER, SIGNED_ON, Entry
from judge.service.hosting import host, silent_seats
from judge.service.hosting.deadlines import move_to, past_absences
from judge.service.incoming.handlers import consent
from judge.service.incoming.handlers.conversation import Conversation, masked
from judge.service.incoming.handlers.holding import Why
from judge.service.incoming.handlers.press import press
from judge.service.incoming.handlers.reading import Context
from judge.service.options import rules_of
from judge.service.passwords import hash_password
from judge.service.states import RUNNING, GameState
from judge.service.templates import counted, when
from judge.store.models import Absence, Confirmation, Game


def status(talk: Conversation, text: str, _: cmd.Status) -> None:
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
        talk.echo(text, "error", f"a phase of {kind.title} never closes before its deadline: there is nothing to "
                  "wait for", code="NEVER_EARLY")
        return
    if game.phase is None or game.state not in RUNNING:
        talk.echo(text, "error", "the game is not running", code="NOT_RUNNING")
        return
    if kind.out_of_game(talk.session, game, seat):
        talk.echo(text, "error", f"{kind.seat_title(seat)} is out of the game: it has no phase to hold",
                  code="OUT_OF_GAME")
        return
    if why := talk.superseded(host.latest_accepted(talk.session, game, game.phase, seat, host.WAIT),
                              "your WAIT or NOWAIT"):
        talk.echo(text, "ignored", why, code="SUPERSEDED")
        return
    host.submit(talk.session, game, game.phase, seat, host.WAIT, "WAIT" if command.on else "", {}, talk.now,
                talk.accepted)
    if command.on:
        talk.echo(text, "ok", f"{game.phase} will wait for its deadline even once everyone has sent what it waits "
                  "for (not through the grace period; NOWAIT to withdraw)", code="WAITING")
    else:
        talk.echo(text, "ok", f"WAIT withdrawn: {game.phase} may close as soon as everyone has sent what it waits "
                  "for", code="NOT_WAITING")


def late_lines(talk: Conversation, game: Game) -> list[str]:
    """Who is still to act in the game's open phase, for the game master's STATUS, in every kind."""
    if game.phase is None or game.state not in RUNNING:
        return []
    kind = talk.kinds.of(game)
    waiting = kind.waiting(talk.session, game)
    return [f"still to act in {game.phase}: {', '.join(map(kind.seat_title, waiting)) or 'nobody'}"]


def set_password(talk: Conversation, text: str, command: cmd.SetPassword) -> None:
    context = talk.context
    game = context.game
    assert game is not None
    if context.is_master:
        game.gm_password = hash_password(command.password)
    else:
        assert context.player is not None
        context.player.password = hash_password(command.password)
    talk.tell_registered(f"the password of {_seat_name(talk, context)} was changed")
    talk.echo(masked(text, command.password), "ok", "password changed")


def set_address(talk: Conversation, text: str, command: cmd.SetAddress) -> None:
    """The seat's mail goes to a new address once that address has confirmed it wants it
    (`consent`); the address registered before is told of the change."""
    context = talk.context
    game = context.game
    assert game is not None
    address = usable_address(command.address)
    if not address:
        talk.echo(text, "error", f"'{command.address[:80]}' is not an address the judge can send mail to",
                  code="BAD_ADDRESS")
        return
    previous = game.gm_address if context.is_master else (context.player.address if context.player else None)
    if taken := _played_elsewhere(talk, game, context.seat or "MASTER", address):
        talk.echo(text, "error", taken.message, code=taken.code)
        return
    if address != previous and consent.needed(talk, address):
        consent.ask(talk, text, address, "address", game, {"who": context.seat or "MASTER", "previous": previous},
                    f"SET ADDRESS {address}", f"to receive the mail of {_seat_name(talk, context)}")
        talk.tell_registered(f"the address of {_seat_name(talk, context)} is to be changed to {address}, once that "
                             "address confirms")
        return
    _move(talk, game, context.seat or "MASTER", address)
    talk.copy_to(address)
    talk.echo(text, "ok", f"mail will now go to {address}")


def address_confirmed(talk: Conversation, request: Confirmation, text: str) -> None:
    game = consent.game_of(talk, request)
    assert game is not None
    who, previous = request.details["who"], request.details["previous"]
    player = host.seats(talk.session, game).get(who)
    current = game.gm_address if who == "MASTER" else (
        player.address if player is not None and host.is_played(player) else None)
    if current != previous or game.state == GameState.FINISHED:
        talk.echo(text, "error", f"the seat's address has changed since {request.address} was asked: nothing done",
                  code="ADDRESS_CHANGED")
        return
    if taken := _played_elsewhere(talk, game, who, request.address):
        talk.echo(text, "error", taken.message, code=taken.code)
        return
    _move(talk, game, who, request.address)
    talk.echo(text, "ok", f"the mail of {_seat_name(talk, Context(game=game, seat=None if who == 'MASTER' else who))} "
              f"will now go to {request.address}")


def _played_elsewhere(talk: Conversation, game: Game, who: str, address: str) -> Why | None:
    """Why seat ``who`` (MASTER: the game master, who may play too) may not move to ``address``:
    the mailbox plays another seat of the game already (one seat a person, ruling H4)."""
    if who == "MASTER" or not any(mailbox.same(player.address, address) for seat, player in
                                  host.seats(talk.session, game).items() if seat != who and host.is_played(player)):
        return None
    return Why("ALREADY_PLAYING", f"{address} already plays another {talk.kinds.of(game).seat_word} in this game")


def _move(talk: Conversation, game: Game, who: str, address: str) -> None:
    """Send the mail of seat ``who`` (a power, or MASTER) to ``address``; the address it had
    is told (one notice per address and mail, `Conversation.notices`)."""
    seat = _seat_name(talk, Context(game=game, seat=None if who == "MASTER" else who))
    if who == "MASTER":
        previous: str | None = game.gm_address
        game.gm_address = address
    else:
        player = host.seats(talk.session, game)[who]
        previous, player.address = player.address, address
    if previous and previous != address:
        talk.notices.setdefault(previous, []).append(f"the address of {seat} was changed to {address}")


def _seat_name(talk: Conversation, context: Context) -> str:
    assert context.game is not None
    who = "the game master" if context.is_master else talk.kinds.of(context.game).seat_title(context.seat or "")
    return f"{who} in {context.game.name}"


def resign(talk: Conversation, text: str, _: cmd.Resign) -> None:
    game, power, player = talk.context.game, talk.context.seat, talk.context.player
    assert game is not None and power is not None and player is not None
    kind = talk.kinds.of(game)
    host.left_seat(game, player)
    player.resigned = True
    before = talk.news_so_far(game)  # the resignation is told first, what the kind's rules make of it after
    resigned = kind.resigned(talk, game, power)
    # A seat that can have no player again has left the game (Exchange's investor, E32): it is no dummy.
    left = kind.no_new_player(talk.session, game, power) is not None
    note = f"you have resigned; your {kind.seat_word} " + ("has left the game" if left else "is now a dummy") + resigned
    host.record(game, f"the player of {kind.seat_title(power)} resigned")
    talk.announce(f"the player of {kind.seat_title(power)} resigned: "
                  + ("it has left the game" if left else f"it is now a dummy {kind.seat_word}"),
                  public=True, at=before)  # observers are told of resignations too (docs/players/by-mail.md)
    talk.context = Context()
    talk.echo(text, "ok", note)


def set_absence(talk: Conversation, text: str, command: cmd.SetAbsence) -> None:
    """An absence: approved at once within the game's ABSENCE_DAYS a year, else by the game
    master; once approved, no deadline of the game falls inside it."""
    game, power = talk.context.game, talk.context.seat
    assert game is not None and power is not None
    if game.state == GameState.FINISHED:
        talk.echo(text, "error", "the game has ended", code="GAME_ENDED")
        return
    if command.start < talk.now.date():
        talk.echo(text, "error", "an absence cannot start in the past", code="IN_THE_PAST")
        return
    days = (command.end - command.start).days + 1
    taken = sum((a.end - a.start).days + 1 for a in talk.session.scalars(select(Absence).where(
        Absence.game_id == game.id, Absence.seat == power, Absence.status == "approved",
        Absence.start >= command.start.replace(month=1, day=1))))
    absence = Absence(game_id=game.id, seat=power, start=command.start, end=command.end, created_at=talk.now)
    talk.session.add(absence)
    if taken + days <= rules_of(game).absence_days:
        approve_absence(talk, absence)
        talk.echo(text, "ok", f"absence approved ({counted(days, 'day')}; {taken + days} of the game's "
                  f"{rules_of(game).absence_days} a year)", code="ABSENCE_APPROVED")
    else:
        absence.status = "pending"
        title = talk.kinds.of(game).seat_title(power)
        talk.send(to=game.gm_address, subject=f"{game.name}: absence asked by {title}", kind="notice",
                  game_id=game.id, body=f"{title} asks to be absent from {command.start} to {command.end} "
                  f"({counted(days, 'day')}).\nAPPROVE ABSENCE {power} or DENY ABSENCE {power}, signed on as the "
                  "master.\n")
        talk.echo(text, "ok", "absence asked for: the game master decides (you will be told)", code="ABSENCE_ASKED")


def approve_absence(talk: Conversation, absence: Absence) -> None:
    """Approve an absence, move the deadline out of it, tell everyone, and keep it among the
    game's events (SUMMARY)."""
    game = talk.context.game
    assert game is not None
    absence.status = "approved"
    talk.session.flush()
    title = talk.kinds.of(game).seat_title(absence.seat)
    host.record(game, f"{title} absent from {absence.start} to {absence.end} (approved)")
    if game.deadline is not None and game.phase is not None:
        setting = talk.kinds.of(game).length_of(game.phase)
        moved = past_absences(talk.session, game, game.deadline, setting)
        if moved != game.deadline:
            move_to(game, moved, talk.now)
            talk.announce(f"{title} is absent from {absence.start} to {absence.end}: the deadline "
                          f"of {game.phase} moves to {when(moved)}")
            return
    talk.announce(f"{title} will be absent from {absence.start} to {absence.end}: no deadline "
                  "falls in those days")


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
