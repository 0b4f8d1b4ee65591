"""One-click unsubscribe (RFC 8058) for a game's observers: the link their mail carries, and the
observation a link names.

Theory of operation.  Where the operator serves the pages over HTTPS (``web-url`` begins with
``https://``) and turned ``one-click`` on, having made ``/unsubscribe/`` reach ``judge web``, an
observer's mail carries beside the ``UNOBSERVE`` mailto a link
``<web-url>/unsubscribe/<token>``, to which a mail client POSTs ``List-Unsubscribe=One-Click`` and
``judge web`` stops the observing (`judge.web.unsubscribe`).  The token is ``<game id>-<tag>``, the
tag an HMAC of the game's id and the observer's mailbox keyed with the judge's secret (`Secret`
``verp``, which also keys its bounce addresses, pages' names and grey press's pseudonyms; each use
signs words of its own): nothing is stored per mail, nobody can make the token of another game or
another address, and the link does not show the address it was sent to, in a web server's log or
anywhere.  A link names an observation, (game, mailbox), not a row: it stops whichever addresses
of that mailbox observe the game, as ``UNOBSERVE`` does, and it stops nothing once they no longer
observe it.  Reading a token, the judge tries the tag of each observer of the game it names (at
most ``max-observers``)."""

from __future__ import annotations

import base64
import hashlib
import hmac
import re

from sqlalchemy import select
from sqlalchemy.orm import Session

from judge.service.config import Settings
from judge.service.mailbox import mailbox
from judge.store.models import Game, Observer, Secret

PATH = "/unsubscribe/"
"""Where under ``web-url`` the links point, and what ``judge web`` answers them at."""

_TAG_BYTES = 15  # of the HMAC, 120 bits: 24 characters of base32
_TOKEN = re.compile(r"([1-9][0-9]{0,9})-([a-z2-7]{24})")
_LARGEST_ID = 2**31 - 1  # an id of SQL's INTEGER, PostgreSQL's included


def base(settings: Settings) -> str | None:
    """The address one-click links start with, where observers' mail carries them: the operator turned
    ``one-click`` on and the pages are served over HTTPS (``web-url``); else None."""
    web_url = settings.web_url
    return web_url if settings.one_click and web_url is not None and web_url.lower().startswith("https://") else None


def key(session: Session) -> bytes:
    """The judge's secret the tokens are signed with."""
    return session.get_one(Secret, "verp").value.encode()


def token(secret: bytes, game_id: int, address: str) -> str:
    """The token of the observation of game ``game_id`` by ``address``'s mailbox."""
    return f"{game_id}-{_tag(secret, game_id, address)}"


def link(web_url: str, secret: bytes, game_id: int, address: str) -> str:
    """The one-click link of the observation of game ``game_id`` by ``address``'s mailbox."""
    return f"{web_url.rstrip('/')}{PATH}{token(secret, game_id, address)}"


def well_formed(text: str) -> bool:
    """Whether ``text`` has the shape of a token (a link cut short or mangled has not)."""
    return _TOKEN.fullmatch(text) is not None


def observation(session: Session, text: str) -> tuple[Game, str] | None:
    """The game and an address of the observation ``text`` names, if the token is the judge's and
    that mailbox still observes that game; None otherwise (a forged, altered or stale token)."""
    found = _TOKEN.fullmatch(text)
    if found is None or int(found.group(1)) > _LARGEST_ID:
        return None
    game = session.get(Game, int(found.group(1)))
    if game is None:
        return None
    secret = key(session)
    for address in session.scalars(select(Observer.address).where(Observer.game_id == game.id)
                                   .order_by(Observer.id)):
        if hmac.compare_digest(_tag(secret, game.id, address), found.group(2)):
            return game, address
    return None


def _tag(secret: bytes, game_id: int, address: str) -> str:
    digest = hmac.new(secret, f"one-click unsubscribe|{game_id}|{mailbox(address)}".encode(), hashlib.sha256).digest()
    return base64.b32encode(digest[:_TAG_BYTES]).decode().lower()
