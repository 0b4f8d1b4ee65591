"""A signed-on seat's commands in every game: STATUS (its game's kind answers it), PRESS, RESIGN,
SET ABSENCE, WAIT and NOWAIT; and SET PASSWORD / SET ADDRESS, which the game master may use too.
A game's own commands (Payola's offers and orders, Pirates' Proposal's plans and votes) are its
kind's.

A change of password or address is always told to the address registered before it, whoever
sent the mail and wherever its replies go, so that nobody can take a seat over silently; a new
address receives the seat's mail only once it has confirmed it wants it (`consent`).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re

from sqlalchemy import select
from sqlalchemy.orm import Session

from judge.commands import parse as cmd
from judge.mail.inbound import usable_address
from judge.service import host, mailbox, silent_seats
from judge.service.deadlines import move_to, past_absences
from judge.service.dispatch import PLAYER, SIGNED_ON, Entry
from judge.service.handlers import consent
from judge.service.handlers.conversation import Conversation, masked
from judge.service.handlers.holding import Why
from judge.service.handlers.reading import Context
from judge.service.options import rules_of
from judge.service.passwords import hash_password
from judge.service.states import RUNNING, GameState
from judge.service.templates import counted, render, when
from judge.store.models import Absence, Confirmation, Game, GreyPress, Secret


def status(talk: Conversation, text: str, _: cmd.Status) -> None:
    """A seat's STATUS is filled in by its game's kind when the seat's lines end
    (`judge.games.GameKind.close_block`), so that it shows what the same mail sends, whether it
    comes before or after it.  The game master's is the kind's to give, if it gives one.  The host
    writes the first line of both (`host.status_header`) and adds who asks to WAIT
    (`Conversation.wait_lines`); to the game master's, who is still to act in the phase (the seats
    the clock reminds, `Phases.waiting`), and the clock's and silent seats' lines."""
    game = talk.context.game
    assert game is not None
    kind = talk.kinds.of(game)
    if not talk.context.is_master:
        talk.context.status_echoes.append(talk.echo(text, "info"))
    elif (lines := kind.master_status(talk)) is not None:
        talk.echo(text, "info", "", [host.status_header(game), *late_lines(talk, game), *talk.wait_lines(game, None),
                                      *lines, *silent_seats.lines(talk.session, game)])
    else:
        talk.echo(text, "error", f"that is a player's command; sign on as a {kind.seat_word}", code="PLAYER_ONLY")


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


PSEUDONYM = re.compile(r"ANON-[A-Z2-7]{8}")
"""The name grey press is answered by (`pseudonym`)."""
PRESS_COPIED = 200_000
"""Characters of press one mail may send, counted once for each copy: each copy is a mail the judge keeps
(a press of 200,000 characters to fifty readers would be ten megabytes); a press of 20,000 characters
(some 3,000 words) reaches ten readers, and a longer one to all of a large game is sent in parts, in
several mails."""


def pseudonym(session: Session, game: Game, sender: str, reader: str) -> str:
    """The name under which grey press from the seat ``sender`` reaches the seat ``reader``, who
    answers it with ``PRESS TO`` that name without learning whose it is (AoP 18.1: the judge
    "conceals the identities of anonymous senders and also transmits answers to them").  It is
    the same for every grey press of one sender to one reader, as a pseudonym signs them, and
    another for each reader, so that readers comparing theirs learn nothing; keyed with the
    judge's secret (`Secret`), so that nobody can work it out from the seats' names."""
    key = session.get_one(Secret, "verp").value.encode()
    digest = hmac.new(key, f"grey press|{game.id}|{sender}|{reader}".encode(), hashlib.sha256).digest()
    return "ANON-" + base64.b32encode(digest[:5]).decode()


def _answered(talk: Conversation, game: Game, reader: str | None, words: tuple[str, ...]) -> str | None:
    """The seat whose grey press ``PRESS TO <pseudonym>`` answers (None: the line names no
    pseudonym); ValueError if it is no pseudonym of a sender to ``reader``."""
    if len(words) != 3 or words[1].upper() != "TO" or not PSEUDONYM.fullmatch(words[2].upper()):
        return None
    named = words[2].upper()
    senders = [seat for seat in host.seats(talk.session, game) if reader is not None and seat != reader
               and pseudonym(talk.session, game, seat, reader) == named]
    if not senders:
        raise ValueError(f"no grey press reached you from {named}")
    return senders[0]


def press(talk: Conversation, text: str, command: cmd.Press) -> None:
    """Press to some seats (named as the game's kind reads them: powers by name or initial,
    players by name), to the game master (``M``), or to everyone (``ALL``, ``BROADCAST``), as
    the game's press options allow (`refused`).

    White press is signed and each copy says who else received it.  Grey press is delivered
    unsigned and says nothing of its other readers (who they are could tell who is not, the
    sender); the game master gets a signed copy.  Each reader of grey press from a seat is
    given the sender's `pseudonym` to answer it by (``PRESS TO ANON-...``), and the answer
    names its reader to nobody but the game master; its writer is answered alike whether the seat
    behind the pseudonym is played, vacant or a dummy (`_unheard`).  A broadcast is copied to the
    game master and to the game's observers, as the classic judges do (unless the game says ``SET
    PRESS OBSERVERS OFF``).  One mail sends grey press or white press to players, never both (`_mixed`): all the
    mail one mail causes goes out at the same moment, with the same Date, and readers comparing
    their mail would tie the grey press to the signed one.  Press carries a Message-ID with
    nothing of when it was made (`judge.service.outbox.queue`).  One mail's press holds at most
    `PRESS_COPIED` characters in all its copies."""
    game, power = talk.context.game, talk.context.seat
    assert game is not None
    talk.presses += 1
    if talk.presses > talk.settings.max_press_per_mail:
        talk.echo(text, "error", f"not sent: at most {talk.settings.max_press_per_mail} press messages are sent "
                  "from one mail", code="TOO_MANY_PRESS")
        return
    kind = talk.kinds.of(game)
    seat = host.seats(talk.session, game)
    rules = rules_of(game).press
    try:
        answered = None if command.to else _answered(talk, game, power, command.words)
        to = (answered,) if answered else command.to or kind.press_to(talk.session, game, command.words)
    except ValueError as exc:
        talk.echo(text, "error", str(exc), code="NO_SUCH_READER")
        return
    everyone = to == ("ALL",)
    problem = refused(talk, game, to, command.grey)
    if problem:
        talk.echo(text, "error", f"not sent: {problem.message}", code=problem.code)
        return
    grey = (rules.grey_by_default if command.grey is None else command.grey) and to != ("MASTER",)
    names = [p for p in kind.seat_order(talk.session, game) if p != power] if everyone else list(to)
    if everyone and not talk.context.is_master:
        names.append("MASTER")
    targets: dict[str, str] = {}  # address -> who it is, in the order named
    unheard = None  # the pseudonym answered, when nobody plays the seat behind it
    seats_at: dict[str, str] = {}  # address -> its seat
    skipped = []
    for name in names:
        if name == "MASTER":
            if not talk.context.is_master:
                targets.setdefault(game.gm_address, "the game master")
            continue
        player = seat.get(name)
        who = command.words[2].upper() if answered else kind.seat_title(name)  # an answer never names its reader
        if name != power and host.is_played(player):
            assert player is not None and player.address is not None
            targets.setdefault(player.address, who)
            seats_at.setdefault(player.address, name)
        elif answered:
            unheard = who  # `_unheard`: answered as if it went, so that the answer tells nothing of the seat
        else:
            skipped.append(who)
    watching = [a for a in host.observers(talk.session, game) if a not in targets] if (
        everyone and rules.observers) else []
    if to != ("MASTER",) and not talk.context.is_master and _mixed(talk, game, grey):
        talk.echo(text, "error", f"not sent: this mail also sends {'white' if grey else 'grey'} press; both would "
                  "arrive at the same moment, and readers who compare their mail could tell who sent the grey "
                  "one: send grey press in a mail of its own", code="MIXED_PRESS")
        return
    copies = len(targets) + (unheard is not None) + len(watching) + (
        grey and game.gm_address not in targets and not talk.context.is_master)
    size = copies * sum(len(line) + 1 for line in command.body)
    if talk.press_copied + size > PRESS_COPIED:
        talk.echo(text, "error", f"not sent: its copies to {counted(copies, 'reader')} would hold {size:,} "
                  f"characters, and one mail's press holds at most {PRESS_COPIED:,} characters in all its copies "
                  f"({talk.press_copied:,} before this one); send it shorter, or in another mail",
                  code="TOO_MUCH_PRESS")
        return
    talk.press_copied += size
    sender = kind.seat_title(power) if power else "the game master"
    sent: list[str] = []
    held: list[str] = []
    for address, who in targets.items():
        signed = not grey or address == game.gm_address
        others = [w for a, w in targets.items() if a != address] if signed else []
        answer = pseudonym(talk.session, game, power, seats_at[address]) if (
            not signed and power and address in seats_at) else None
        body = render("press", game=game, sender=sender, body=command.body, everyone=everyone, others=others,
                      grey=not signed, sent_grey=grey, answer=answer)
        subject = f"{game.name} press from {sender}" if signed else f"{game.name} grey press"
        (sent if talk.send(to=address, subject=subject, kind="press", game_id=game.id, body=body) else held).append(who)
    if grey and power and sent:  # its author is published at the end (`judge.service.course.publish`)
        talk.session.add(GreyPress(game_id=game.id, phase=game.phase, sent_at=talk.now, author=power,
                                   readers=[seats_at.get(a, "MASTER") for a, who in targets.items() if who in sent]))
    if unheard is not None:
        (sent if _unheard(talk) else held).append(unheard)
    if grey and game.gm_address not in targets and not talk.context.is_master:
        readers = [kind.seat_title(seats_at[a]) if a in seats_at else who for a, who in targets.items()]
        body = render("press", game=game, sender=sender, body=command.body, everyone=everyone,
                      others=readers, grey=False, sent_grey=True)  # an answer's reader by seat: the GM knows all
        if not talk.send(to=game.gm_address, subject=f"{game.name} grey press from {sender}", kind="press",
                         game_id=game.id, body=body):
            held.append("the game master")
    observed = 0
    for address in watching:
        body = render("press", game=game, sender=sender, body=command.body, everyone=True, others=[], grey=grey,
                      sent_grey=grey)
        if talk.send(to=address, subject=f"{game.name} grey press" if grey else f"{game.name} press from {sender}",
                     kind="press", game_id=game.id, body=body):
            observed += 1
        else:
            held.append("an observer")
    colour = "grey press" if grey else "press"
    message = f"{colour} sent to {', '.join(sent) or 'nobody'}"
    if observed:
        message += f" and {counted(observed, 'observer')}"
    if grey and game.gm_address not in targets and not talk.context.is_master:
        message += " (the game master is told who sent it)"
    if command.grey and to == ("MASTER",):
        message += " (signed: press to the game master always is)"
    if skipped:
        message += f" (not to {', '.join(skipped)}: no player)"
    if held:
        message += (f"; not sent to {', '.join(held)}: one mail may cause at most "
                    f"{talk.settings.max_mails_per_mail} mails")
    talk.echo(text, "error" if held or not sent else "ok", message)


def _unheard(talk: Conversation) -> bool:
    """Whether an answer to a pseudonym whose seat nobody plays (vacant, a dummy) would have been sent had
    somebody played it: it takes its place among the mails the mail may cause, as a sent one would, and
    goes to nobody.  Its writer is answered as if it had gone: "not to ANON-...: no player" beside the
    game's list of vacant seats would name the seat behind the pseudonym."""
    if talk.mails_sent >= talk.settings.max_mails_per_mail:
        return False
    talk.mails_sent += 1
    return True


def refused(talk: Conversation, game: Game, to: tuple[str, ...], grey: bool | None) -> Why | None:
    """Why the game's press options refuse press to ``to`` (``("ALL",)``, or seats and
    ``"MASTER"``) in the colour asked (None: the game's default), or None.  Press to the game
    master alone is always allowed (signed); the game master's press is not restricted, but is
    always signed."""
    rules = rules_of(game).press
    kind = talk.kinds.of(game)
    if talk.context.is_master:
        return Why("MASTER_SIGNS", "the game master's press is always signed") if grey else None
    if to == ("MASTER",):
        return None
    if rules.colours == "NONE":
        return Why("NO_PRESS", "this game allows no press but to the game master (PRESS TO M)")
    if not rules.partial and to != ("ALL",):
        return Why("BROADCAST_ONLY", "this game allows press to everyone only (PRESS TO ALL, BROADCAST), or to the "
                   "game master alone")
    if not rules.between and game.phase and kind.is_between(game.phase):
        return Why("NO_PRESS_BETWEEN", f"this game allows no press during its {kind.between_phases} but to the game "
                   "master")
    wanted = rules.grey_by_default if grey is None else grey
    if not rules.allows(wanted):
        return Why(f"{rules.colours}_ONLY", f"this game allows {rules.colours.lower()} press only"
                   + (" (drop the word GREY)" if wanted else " (end the PRESS line with GREY)"))
    return None


def _mixed(talk: Conversation, game: Game, grey: bool) -> bool:
    """Whether this mail has sent press of the other colour in ``game`` (the game master's
    copies aside); notes that it sends press of ``grey``'s colour if not."""
    sent: set[bool] = talk.cache.setdefault(("press colours", game.id), set())
    if (not grey) in sent:
        return True
    sent.add(grey)
    return False


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
