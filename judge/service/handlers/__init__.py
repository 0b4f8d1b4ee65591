"""Handling mail: store it, read its commands, act on them, and answer.

``mail`` stores each raw mail and applies it in a transaction of its own (or quarantines it);
``conversation`` reads its lines and dispatches each command to its handler; the handlers are
one module per family of commands, the way Mailman keeps one module per command: ``anyone``
(HELP, LIST, CREATE, JOIN, OBSERVE, HISTORY, SUMMARY), ``signon`` (SIGNON, TAKEOVER),
``consent`` (CONFIRM), ``player`` (a seat's commands in every game) and ``master`` (the game
master's).  A game's own commands are handled by its kind's edges (`judge.games`), registered
here too (`conversation.handles`) when the kind is first used.
"""

from judge.service.handlers import anyone, consent, master, player, signon  # noqa: F401  (they register commands)
from judge.service.handlers.mail import process_mail, receive

__all__ = ["process_mail", "receive"]
