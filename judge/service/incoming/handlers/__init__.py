"""Handling mail: store it, read its commands, act on them, and answer.

``mail`` stores each raw mail and applies it in a transaction of its own (or quarantines it);
``conversation`` reads its lines and hands each command to its handler; the handlers are one
module per family of commands, the way Mailman keeps one module per command: ``anyone`` (HELP,
LIST, CREATE, JOIN, OBSERVE, HISTORY, SUMMARY), ``signon`` (SIGNON, TAKEOVER), ``consent``
(CONFIRM), ``player`` (a seat's commands in every game), ``master`` (the game master's) and
``unattended`` (the game master's clock, silent seats and entry gates; GET RECORD).
Each offers its commands as a table; `COMMANDS` is the host's, which the composition root
(`judge.bootstrap`) hands to the dispatcher beside every kind's.
"""

from functools import partial

from judge.commands import parse as cmd
from judge.service.dispatch import ANYONE, Entry
from judge.service.incoming.handlers import anyone, consent, master, moved, player, signon, unattended
from judge.service.incoming.handlers.mail import process_mail, receive

CONFIRMED: dict[str, consent.Done] = {
    "create": anyone.create_confirmed,
    "join": anyone.join_confirmed,
    "observe": anyone.observe_confirmed,
    "takeover": signon.take_over_confirmed,
    "replace": signon.replace_confirmed,
    "address": player.address_confirmed,
    "moved": moved.seat_confirmed,
    "moved_observer": moved.observer_confirmed,
}
"""What CONFIRM carries out for each kind of request (`consent`)."""

COMMANDS = (
    *anyone.COMMANDS,
    *signon.COMMANDS,
    Entry(cmd.Confirm, partial(consent.confirm, done=CONFIRMED), ANYONE),
    *player.COMMANDS,
    *master.COMMANDS,
    *unattended.COMMANDS,
)
"""Every command of the host, for the dispatcher (`judge.service.dispatch`)."""

__all__ = ["COMMANDS", "CONFIRMED", "process_mail", "receive"]
