"""PRESS: a seat's or the game master's message to some seats, to the game master or to everyone.

Press to some seats (named as the game's kind reads them: powers by name or initial, players by
name), to the game master (``M``), or to everyone (``ALL``, ``BROADCAST``), as the game's press
options allow (`refused`).

White press is signed and each copy says who else received it.  Grey press is delivered unsigned
and says nothing of its other readers (who they are could tell who is not, the sender); the game
master gets a signed copy.  Each reader of grey press from a seat is given the sender's
`pseudonym` to answer it by (``PRESS TO ANON-...``), and the answer names its reader to nobody
but the game master; its writer is answered alike whether the seat behind the pseudonym is
played, vacant or a dummy (`_to_unheard`).  A broadcast is copied to the game master and to the
game's observers, as the classic judges do (unless the game says ``SET PRESS OBSERVERS OFF``).
One mail sends grey press or white press to players, never both (`_one_colour`): all the mail
one mail causes goes out at the same moment, with the same Date, and readers comparing their
mail would tie the grey press to the signed one.  Press carries a Message-ID with nothing of when
it was made (`judge.service.outgoing.outbox.queue`).  One mail's press holds at most `PRESS_COPIED`
characters in all its copies.

Theory of operation: as Mailman's chain of rules, a PRESS line goes through small rules in order
(`RULES`), each of which may refuse it (the first refusal is its answer) or work out more of where
it goes; then each delivery (`DELIVERIES`) sends its share of the copies; then the answer (`ANSWER`)
says what became of them: one whole sentence for who got it, and one clause for each copy not sent.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from sqlalchemy.orm import Session

from judge.commands import parse as cmd
from judge.language import gettext as _
from judge.language import ngettext, worded
from judge.service.hosting import host
from judge.service.hosting.kinds import GameKind
from judge.service.incoming.handlers.answers import clauses
from judge.service.incoming.handlers.conversation import Conversation
from judge.service.incoming.handlers.holding import Why
from judge.service.options import rules_of
from judge.service.outgoing.preferences import writing_to
from judge.service.templates import render
from judge.store.models import Game, GreyPress, Player, Secret

PSEUDONYM = re.compile(r"ANON-[A-Z2-7]{8}")
"""The name grey press is answered by (`pseudonym`)."""
PRESS_COPIED = 200_000
"""Characters of press one mail may send, counted once for each copy: each copy is a mail the judge keeps
(a press of 200,000 characters to fifty readers would be ten megabytes); a press of 20,000 characters
(some 3,000 words) reaches ten readers, and a longer one to all of a large game is sent in parts, in
several mails."""


@dataclass
class Press:
    """One PRESS line on its way through the rules: who sends it, to whom, in which colour, and
    what became of each copy."""

    talk: Conversation
    command: cmd.Press
    game: Game
    power: str | None  # the seat that sends it; None: the game master
    kind: GameKind
    to: tuple[str, ...] = ()  # ("ALL",), or seats and "MASTER"
    answered: str | None = None  # the seat whose grey press it answers by pseudonym
    grey: bool = False
    targets: dict[str, str] = field(default_factory=dict)  # address -> who it is, in the order named
    seats_at: dict[str, str] = field(default_factory=dict)  # address -> its seat
    unheard: str | None = None  # the pseudonym answered, when nobody plays the seat behind it
    skipped: list[str] = field(default_factory=list)  # the seats named that nobody plays
    watching: list[str] = field(default_factory=list)  # the observers' addresses a broadcast is copied to
    sent: list[str] = field(default_factory=list)
    held: list[str] = field(default_factory=list)  # not sent: over the mail's budget of mails
    observed: int = 0  # the observers' copies sent

    @property
    def everyone(self) -> bool:
        return self.to == ("ALL",)

    @property
    def by_master(self) -> bool:
        return self.talk.context.is_master

    @property
    def master_copied(self) -> bool:
        """Whether the game master gets a signed copy of grey press he is not among the readers of."""
        return self.grey and self.game.gm_address not in self.targets and not self.by_master

    @property
    def sender(self) -> str:
        """Who sent it, in the language being written in."""
        return self.kind.seat_title(self.power) if self.power else _("the game master")

    def body(self, *, everyone: bool, others: list[str], grey: bool, answer: str | None = None) -> str:
        """The text of one copy."""
        return render("press", game=self.game, sender=self.sender, body=self.command.body, everyone=everyone,
                      others=[_shown(who) for who in others], grey=grey, sent_grey=self.grey, answer=answer)

    def subject(self, signed: bool) -> str:
        return (_("{game} press from {sender}", game=self.game.name, sender=self.sender) if signed
                else _("{game} grey press", game=self.game.name))


THE_MASTER = "MASTER"
"""Who the game master is among a press's readers (`Press.targets`, `Press.held`), said in the language of
whoever reads it (`_shown`)."""
AN_OBSERVER = "OBSERVER"
"""An observer's copy among those held (`Press.held`)."""


def _shown(who: str) -> str:
    """A reader of a press as the language being written in names it: a seat's title as it is, the game
    master and an observer in words."""
    return _("the game master") if who == THE_MASTER else _("an observer") if who == AN_OBSERVER else who


def press(talk: Conversation, text: str, command: cmd.Press) -> None:
    """PRESS (see the header): the rules in order, the first refusal its answer; else its deliveries and
    the answer saying what became of them."""
    game = talk.context.game
    assert game is not None
    sending = Press(talk, command, game, talk.context.seat, talk.kinds.of(game))
    for rule in RULES:
        if (why := rule(sending)) is not None:
            talk.echo(text, "error", why.message, code=why.code)
            return
    for deliver in DELIVERIES:
        deliver(sending)
    talk.echo(text, "error" if sending.held or not sending.sent else "ok",
              clauses([said for clause in ANSWER if (said := clause(sending))]))


# -- the rules, in order: each refuses the press (why) or lets it go on (None) ----------------------


def _within_count(press: Press) -> Why | None:
    """At most ``max_press_per_mail`` PRESS lines are sent from one mail; each counts, sent or not."""
    talk = press.talk
    talk.presses += 1
    if talk.presses <= talk.settings.max_press_per_mail:
        return None
    return Why("TOO_MANY_PRESS", ngettext("not sent: at most {count} press message is sent from one mail",
                                          "not sent: at most {count} press messages are sent from one mail",
                                          talk.settings.max_press_per_mail))


def _readers_named(press: Press) -> Why | None:
    """The readers are those the line names, as the game's kind reads them, or the seat behind the
    pseudonym it answers (`answered`); a name nobody answers to refuses it."""
    command, talk = press.command, press.talk
    try:
        press.answered = None if command.to else _answered(talk, press.game, press.power, command.words)
        press.to = (press.answered,) if press.answered else command.to or press.kind.press_to(
            talk.session, press.game, command.words)
    except ValueError as exc:
        return Why("NO_SUCH_READER", str(exc))
    return None


def _allowed(press: Press) -> Why | None:
    """The game's press options allow press to these readers in this colour (`refused`)."""
    problem = refused(press.talk, press.game, press.to, press.command.grey)
    return Why(problem.code, _("not sent: {why}", why=problem.message)) if problem else None


def _coloured(press: Press) -> Why | None:
    """Its colour: the game's default unless the line says; press to the game master alone is signed.
    This rule never refuses."""
    command = press.command
    grey = rules_of(press.game).press.grey_by_default if command.grey is None else command.grey
    press.grey = grey and press.to != ("MASTER",)
    return None


def _addressed(press: Press) -> Why | None:
    """The readers' addresses (to everyone: every other seat, and the game master but from himself),
    and the seats named that nobody plays.  This rule never refuses."""
    talk, game = press.talk, press.game
    names = [p for p in press.kind.seat_order(talk.session, game) if p != press.power] if press.everyone else list(
        press.to)
    if press.everyone and not press.by_master:
        names.append("MASTER")
    seats = host.seats(talk.session, game)
    for name in names:
        if name != "MASTER":
            _address_seat(press, name, seats.get(name))
        elif not press.by_master:
            press.targets.setdefault(game.gm_address, THE_MASTER)
    return None


def _address_seat(press: Press, name: str, player: Player | None) -> None:
    """Where the copy to seat ``name`` goes: its player's address; if nobody plays it, nowhere (said
    to its writer, but of the seat behind a pseudonym: `_to_unheard`)."""
    # an answer never names its reader
    who = press.command.words[2].upper() if press.answered else press.kind.seat_title(name)
    if name != press.power and host.is_played(player):
        assert player is not None and player.address is not None
        press.targets.setdefault(player.address, who)
        press.seats_at.setdefault(player.address, name)
    elif press.answered:
        press.unheard = who  # answered as if it went, so that the answer tells nothing of the seat
    else:
        press.skipped.append(who)


def _watched(press: Press) -> Why | None:
    """A broadcast is copied to the game's observers who are not among its readers, unless the game says
    ``SET PRESS OBSERVERS OFF``.  This rule never refuses."""
    if press.everyone and rules_of(press.game).press.observers:
        press.watching = [a for a in host.observers(press.talk.session, press.game) if a not in press.targets]
    return None


def _one_colour(press: Press) -> Why | None:
    """One mail sends grey press or white press to players, never both (see the header); press to the
    game master alone, and the game master's, are of no colour here."""
    if press.to == ("MASTER",) or press.by_master or not _mixed(press.talk, press.game, press.grey):
        return None
    return Why("MIXED_PRESS", _("not sent: this mail also sends white press; both would arrive at the same moment, "
                                "and readers who compare their mail could tell who sent the grey one: send grey "
                                "press in a mail of its own") if press.grey else
               _("not sent: this mail also sends grey press; both would arrive at the same moment, and readers who "
                 "compare their mail could tell who sent the grey one: send grey press in a mail of its own"))


def _within_size(press: Press) -> Why | None:
    """One mail's press holds at most `PRESS_COPIED` characters in all its copies; what is sent counts."""
    talk = press.talk
    copies = len(press.targets) + (press.unheard is not None) + len(press.watching) + press.master_copied
    size = copies * sum(len(line) + 1 for line in press.command.body)
    if talk.press_copied + size > PRESS_COPIED:
        return Why("TOO_MUCH_PRESS", ngettext(
            "not sent: its copy to {count} reader would hold {size} characters, and one mail's press holds at most "
            "{most} characters in all its copies ({before} before this one); send it shorter, or in another mail",
            "not sent: its copies to {count} readers would hold {size} characters, and one mail's press holds at "
            "most {most} characters in all its copies ({before} before this one); send it shorter, or in another "
            "mail", copies, size=format(size, ","), most=format(PRESS_COPIED, ","),
            before=format(talk.press_copied, ",")))
    talk.press_copied += size
    return None


RULES: tuple[Callable[[Press], Why | None], ...] = (
    _within_count, _readers_named, _allowed, _coloured, _addressed, _watched, _one_colour, _within_size)
"""PRESS's rules, in order."""


# -- the deliveries, in order ----------------------------------------------------------------------


def _to_readers(press: Press) -> None:
    """A copy to each reader: white press signed and naming the others who got it; grey press
    unsigned, naming nobody, with the pseudonym to answer it by (the game master's copy is signed)."""
    talk, game, power = press.talk, press.game, press.power
    for address, who in press.targets.items():
        signed = not press.grey or address == game.gm_address
        others = [w for a, w in press.targets.items() if a != address] if signed else []
        answer = pseudonym(talk.session, game, power, press.seats_at[address]) if (
            not signed and power and address in press.seats_at) else None
        with writing_to(talk.session, talk.settings, address, game):  # each copy in its reader's language
            body = press.body(everyone=press.everyone, others=others, grey=not signed, answer=answer)
            went = talk.send(to=address, subject=press.subject(signed), kind="press", game_id=game.id, body=body)
        (press.sent if went else press.held).append(who)


def _grey_kept(press: Press) -> None:
    """Grey press a seat sent is kept, its author to be published at the end
    (`judge.service.hosting.course.publish`)."""
    if press.grey and press.power and press.sent:
        readers = [press.seats_at.get(a, "MASTER") for a, who in press.targets.items() if who in press.sent]
        press.talk.session.add(GreyPress(game_id=press.game.id, phase=press.game.phase, sent_at=press.talk.now,
                                         author=press.power, readers=readers))


def _to_unheard(press: Press) -> None:
    """An answer to a pseudonym whose seat nobody plays (vacant, a dummy) takes its place among the
    mails the mail may cause, as a sent one would, and goes to nobody.  Its writer is answered as if
    it had gone: "not to ANON-...: no player" beside the game's list of vacant seats would name the
    seat behind the pseudonym."""
    if press.unheard is None:
        return
    talk = press.talk
    if talk.mails_sent >= talk.settings.max_mails_per_mail:
        press.held.append(press.unheard)
        return
    talk.mails_sent += 1
    press.sent.append(press.unheard)


def _to_master(press: Press) -> None:
    """The game master's signed copy of grey press sent to others, naming every reader (an answer's
    reader by seat: the game master knows all)."""
    if not press.master_copied:
        return
    readers = [press.kind.seat_title(press.seats_at[a]) if a in press.seats_at else who
               for a, who in press.targets.items()]
    talk, game = press.talk, press.game
    with writing_to(talk.session, talk.settings, game.gm_address, game):
        body = press.body(everyone=press.everyone, others=readers, grey=False)
        went = talk.send(to=game.gm_address, subject=_("{game} grey press from {sender}", game=game.name,
                                                       sender=press.sender), kind="press", game_id=game.id, body=body)
    if not went:
        press.held.append(THE_MASTER)


def _to_observers(press: Press) -> None:
    """A broadcast's copy to each of the game's observers, in its colour."""
    talk, game = press.talk, press.game
    for address in press.watching:
        with writing_to(talk.session, talk.settings, address, game):
            body = press.body(everyone=True, others=[], grey=press.grey)
            went = talk.send(to=address, subject=press.subject(not press.grey), kind="press", game_id=game.id,
                             body=body)
        if went:
            press.observed += 1
        else:
            press.held.append(AN_OBSERVER)


DELIVERIES: tuple[Callable[[Press], None], ...] = (_to_readers, _grey_kept, _to_unheard, _to_master, _to_observers)
"""PRESS's deliveries, in order."""


# -- the answer: one whole sentence per case, then a clause for each copy not sent ------------------


def _sent_to(press: Press) -> str:
    """Who it was sent to, in its colour, with how many observers got it and whether the game master is
    told who sent grey press or got it signed: one whole sentence for each case."""
    readers, count = ", ".join(_shown(who) for who in press.sent), press.observed
    if not press.grey:
        if press.command.grey and press.to == ("MASTER",) and press.sent:
            return _("press sent to {readers} (signed: press to the game master always is)", readers=readers)
        if press.sent and count:
            return ngettext("press sent to {readers} and {count} observer",
                            "press sent to {readers} and {count} observers", count, readers=readers)
        if count:
            return ngettext("press sent to {count} observer", "press sent to {count} observers", count)
        return _("press sent to {readers}", readers=readers) if press.sent else _("press sent to nobody")
    if press.master_copied:
        if press.sent and count:
            return ngettext("grey press sent to {readers} and {count} observer (the game master is told who sent it)",
                            "grey press sent to {readers} and {count} observers (the game master is told who sent "
                            "it)", count, readers=readers)
        if count:
            return ngettext("grey press sent to {count} observer (the game master is told who sent it)",
                            "grey press sent to {count} observers (the game master is told who sent it)", count)
        return (_("grey press sent to {readers} (the game master is told who sent it)", readers=readers)
                if press.sent else _("grey press sent to nobody (the game master is told who sent it)"))
    if press.sent and count:
        return ngettext("grey press sent to {readers} and {count} observer",
                        "grey press sent to {readers} and {count} observers", count, readers=readers)
    if count:
        return ngettext("grey press sent to {count} observer", "grey press sent to {count} observers", count)
    return _("grey press sent to {readers}", readers=readers) if press.sent else _("grey press sent to nobody")


def _skipped(press: Press) -> str:
    """The seats named that nobody plays."""
    return ngettext("not sent to {seats}: nobody plays it", "not sent to {seats}: nobody plays them",
                    len(press.skipped), seats=", ".join(press.skipped)) if press.skipped else ""


def _held(press: Press) -> str:
    """The copies over the mail's budget of mails."""
    if not press.held:
        return ""
    return ngettext("not sent to {readers}: one mail may cause at most {count} mail",
                    "not sent to {readers}: one mail may cause at most {count} mails",
                    press.talk.settings.max_mails_per_mail, readers=", ".join(_shown(who) for who in press.held))


ANSWER: tuple[Callable[[Press], str], ...] = (_sent_to, _skipped, _held)
"""PRESS's answer: who got it (one whole sentence per case), then each clause that applies, joined as the
language joins clauses (`clauses`)."""


# -- what the rules ask ------------------------------------------------------------------------------


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
        raise ValueError(_("no grey press reached you from {pseudonym}", pseudonym=named))
    return senders[0]


def refused(talk: Conversation, game: Game, to: tuple[str, ...], grey: bool | None) -> Why | None:
    """Why the game's press options refuse press to ``to`` (``("ALL",)``, or seats and
    ``"MASTER"``) in the colour asked (None: the game's default), or None.  Press to the game
    master alone is always allowed (signed); the game master's press is not restricted, but is
    always signed."""
    rules = rules_of(game).press
    kind = talk.kinds.of(game)
    if talk.context.is_master:
        return Why("MASTER_SIGNS", _("the game master's press is always signed")) if grey else None
    if to == ("MASTER",):
        return None
    if rules.colours == "NONE":
        return Why("NO_PRESS", _("this game allows no press but to the game master (PRESS TO M)"))
    if not rules.partial and to != ("ALL",):
        return Why("BROADCAST_ONLY", _("this game allows press to everyone only (PRESS TO ALL, BROADCAST), or to "
                                       "the game master alone"))
    if not rules.between and game.phase and kind.is_between(game.phase):
        return Why("NO_PRESS_BETWEEN", _("this game allows no press during its {phases} but to the game master",
                                         phases=worded(kind.between_phases)))
    wanted = rules.grey_by_default if grey is None else grey
    if not rules.allows(wanted):
        if rules.colours == "WHITE":
            said = _("this game allows white press only (drop the word GREY)")
        elif wanted:
            said = _("this game allows grey press only (drop the word GREY)")
        else:
            said = _("this game allows grey press only (end the PRESS line with GREY)")
        return Why(f"{rules.colours}_ONLY", said)
    return None


def _mixed(talk: Conversation, game: Game, grey: bool) -> bool:
    """Whether this mail has sent press of the other colour in ``game`` (the game master's
    copies aside); notes that it sends press of ``grey``'s colour if not."""
    sent: set[bool] = talk.cache.setdefault(("press colours", game.id), set())
    if (not grey) in sent:
        return True
    sent.add(grey)
    return False
