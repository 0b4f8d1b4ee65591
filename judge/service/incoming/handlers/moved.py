"""CONFIRM of a game's move: a player, master or observer of a game imported from another judge
(`judge.service.operators.importing`), whose address this judge had never confirmed, says it wants the
game's mail here.

The import kept a request for each such address and mailed it a token, never a password; the
game's mail to it has been held since (`judge.service.outgoing.outbox.HELD`).  Its CONFIRM (``CONFIRM token
password`` for a seat or the master, who choose their password in it, as for REPLACE; ``CONFIRM
token`` for an observer) gives the seat its password and sends the held mail, in its order.  A
seat that changed hands meanwhile (a REPLACE, a TAKEOVER after its player was declared absent) is
not given: the confirmation is refused, saying so, and the mail stays held.
"""

from __future__ import annotations

from judge.language import gettext as _
from judge.language import ngettext
from judge.service.hosting import host
from judge.service.incoming.handlers import consent
from judge.service.incoming.handlers.conversation import Conversation
from judge.service.outgoing import outbox
from judge.store.models import Confirmation


def seat_confirmed(talk: Conversation, request: Confirmation, text: str) -> None:
    """The seat's (or the master's) player confirmed: its password is the one it chose."""
    game = consent.game_of(talk, request)
    assert game is not None
    seat, role = request.details.get("seat"), request.details.get("role")
    kind = talk.kinds.of(game)
    if role == "master":
        if game.gm_address != request.address:
            talk.echo(text, "error", _("{game} has another game master now: nothing done", game=game.name),
                      code="ADDRESS_CHANGED")
            return
        game.gm_password = request.details["password"]
        what = _("you are the game master of {game} on this judge (SIGNON MASTER@{game} and the password you "
                 "chose)", game=game.name)
    elif seat is None:  # joined before the start: the seat comes at START
        joined = [player for player in host.players(talk.session, game)
                  if player.address == request.address and player.seat is None and not player.resigned]
        if not joined:
            talk.echo(text, "error", _("you are no longer among the players of {game}: nothing done",
                                       game=game.name), code="ADDRESS_CHANGED")
            return
        joined[0].password = request.details["password"]
        what = _("you have joined {game} on this judge, with the password you chose", game=game.name)
    else:
        player = host.seats(talk.session, game).get(seat)
        if player is None or player.address != request.address or not host.is_played(player):
            talk.echo(text, "error", _("{seat} has changed hands since {game} moved here: nothing done",
                                       seat=kind.seat_title(seat), game=game.name), code="ADDRESS_CHANGED")
            return
        player.password = request.details["password"]
        what = _("you play {seat} in {game} on this judge (SIGNON {power}@{game} and the password you chose)",
                 seat=kind.seat_title(seat), game=game.name, power=seat)
    held = outbox.release(talk.session, request.address, game.id)
    talk.echo(text, "ok", _("{done}; {held}", done=what, held=_held(held, game.name)))


def observer_confirmed(talk: Conversation, request: Confirmation, text: str) -> None:
    """The observer confirmed: it receives the game's public results here."""
    game = consent.game_of(talk, request)
    assert game is not None
    held = outbox.release(talk.session, request.address, game.id)
    talk.echo(text, "ok", _("you observe {game} on this judge (UNOBSERVE {game} to stop); {held}", game=game.name,
                            held=_held(held, game.name)))


def _held(count: int, game: str) -> str:
    """What becomes of the mail held for the address, in words."""
    if count == 0:
        return _("nothing of {game} was held for you", game=game)
    return ngettext("the {count} mail of {game} held for you since the move goes out now",
                    "the {count} mails of {game} held for you since the move go out now", count, game=game)
