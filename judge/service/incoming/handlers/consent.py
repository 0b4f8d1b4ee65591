"""Consent: no address receives a game's mail before it has said it wants it; and CONFIRM.

Anyone can send a mail with any From, Reply-To and envelope sender (an attacker's own MTA
forges all three), so a command that would make an address receive a game's mail — CREATE (the
game master's address), JOIN, OBSERVE, TAKEOVER, SET ADDRESS — is carried out at once only for
an address that has confirmed before (`ConfirmedAddress`), that is plainly the mail's own (its
From, its Reply-To if any and its envelope sender when known all agree), and for which the
judge's own MTA vouches: its ``Authentication-Results`` says SPF, DKIM or DMARC passed for the
address's domain (``mta_authenticates``; `judge.mail.received.vouched_for`).  Headers alone prove
nothing, as all of them can be forged; so without an MTA that checks, every such request waits
for its token (`needed`).
Otherwise the request waits (`Confirmation`) and the judge mails a token to that address
itself, never in the reply (a reply may be copied to a seat's registered address): the token
mail says what was asked, by which From and from where (`judge.mail.received.Source`), and that
ignoring it is enough.  ``CONFIRM token``, sent within ``TOKEN_DAYS``, confirms the address and
carries the request out (the handler the table ``CONFIRMED`` names for it), after checking
again that it still can be.  The token is the proof, since it went to that address alone, so
CONFIRM is taken from whichever address sends it (a forwarded mailbox answers from another).

An address once confirmed is not asked again when it asks for itself in mail its MTA vouches
for; one whose From is forged by somebody else is asked again.  Consent is for delivery: an
address confirms for itself alone, as written (``bob+games@`` confirms apart from ``bob@``: a
``+tag`` may file mail elsewhere, and some mail systems know no tags), as Mailman 3 asks each
address it is given.  Token mails to one mailbox (ruling H4, `judge.service.mailbox`: every case and
``+tag`` of an address) are at most ``max_confirmations_per_day`` a day, and each counts against
its mail's ``max_mails_per_mail``, so that nobody can make the judge flood a stranger with them.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping
from datetime import timedelta
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from judge.commands import parse as cmd
from judge.language import gettext as _
from judge.language import ngettext
from judge.service import mailbox
from judge.service.incoming.handlers.conversation import Conversation
from judge.service.outgoing.preferences import writing_to
from judge.service.passwords import hash_password
from judge.service.templates import render
from judge.store.models import Confirmation, ConfirmedAddress, Game

TOKEN_DAYS = 7
DAY = timedelta(days=1)
Done = Callable[[Conversation, Confirmation, str], None]
"""What CONFIRM does for a request of one kind, given the request and the line: the handlers'
table (`judge.service.incoming.handlers.CONFIRMED`) names one for each kind of request."""
PASSWORD_REQUESTS = frozenset({"replace", "moved"})
"""The kinds of request whose CONFIRM chooses the password of a seat (``CONFIRM token password``:
no password is ever mailed), which the request's details then hold, hashed, as ``password``."""


def unmailable(talk: Conversation, shown: str) -> bool:
    """Whether the mail has no address the judge can write to (its From and Reply-To are none it
    can use: `judge.mail.inbound.usable_address`), after answering ``shown`` so: nothing is asked
    for such an address, and nothing mailed to it."""
    if talk.mail.reply_to:
        return False
    talk.echo(shown, "error", _("the judge cannot write to your mail's address (From, or Reply-To): send it from "
                                "an address it can answer"), code="UNMAILABLE")
    return True


def is_confirmed(session: Session, address: str) -> bool:
    return session.get(ConfirmedAddress, address) is not None


def own_address(talk: Conversation, address: str) -> bool:
    """Whether ``address`` is plainly the mail's own: its From, its Reply-To if any, and its
    envelope sender when known."""
    wanted = address.lower()
    envelope = (talk.envelope_from or "").strip().strip("<>").lower()
    return (talk.mail.sender.lower() == wanted and talk.mail.reply_to.lower() == wanted
            and (not envelope or envelope == wanted))


def needed(talk: Conversation, address: str) -> bool:
    """Whether a request to send game mail to ``address`` must wait for it to confirm: unless the
    address is plainly the mail's own, the judge's MTA vouches for it (`Source.vouches_for`), and
    it has confirmed before."""
    return not (own_address(talk, address) and talk.source.vouches_for(address)
                and is_confirmed(talk.session, address))


def ask(talk: Conversation, shown: str, address: str, kind: str, game: Game | None, details: dict[str, Any],
        command: str, meaning: str | Callable[[], str]) -> None:
    """Keep the request (``command``, which means to ``address`` what ``meaning`` says, asked for in
    the language of the address, which the token's mail is written in, where it is a callable), mail its
    token to ``address``, and answer the line ``shown``.  A request of a kind registered with
    ``password=True`` asks the address to choose its password in its CONFIRM."""
    mailed = mailbox.count(talk.session, Confirmation.address, address, Confirmation.created_at > talk.now - DAY)
    if mailed >= talk.settings.max_confirmations_per_day:
        talk.echo(shown, "error", ngettext("{address} has been asked to confirm {count} time today, which is the "
                                           "most the judge asks in a day; answer that mail (CONFIRM token), or try "
                                           "again tomorrow", "{address} has been asked to confirm {count} times "
                                           "today, which is the most the judge asks in a day; answer one of those "
                                           "mails (CONFIRM token), or try again tomorrow", mailed, address=address),
                  code="TOO_MANY_CONFIRMATIONS")
        return
    token = secrets.token_hex(8)
    game_kind = talk.kinds.of(game) if game is not None else talk.kinds.named(details["kind"]) if (
        "kind" in details) else None  # a CREATE's: the game is not made yet
    with writing_to(talk.session, talk.settings, address, game):
        said = meaning() if callable(meaning) else meaning
        body = render("confirm", command=command, meaning=said, token=token, mail=talk.mail, source=talk.source,
                      now=talk.now, expires=talk.now + TOKEN_DAYS * DAY, settings=talk.settings,
                      password=kind in PASSWORD_REQUESTS, title=game_kind.title if game_kind else None)
        sent = talk.send(to=address, subject=_("Please confirm: {command}", command=command)[:200], body=body,
                         kind="notice", game_id=game.id if game else None)
    if not sent:
        talk.echo(shown, "error", ngettext("not done: one mail may cause at most {count} mail",
                                           "not done: one mail may cause at most {count} mails",
                                           talk.settings.max_mails_per_mail), code="OVER_BUDGET")
        return
    talk.session.add(Confirmation(token=token, address=address, kind=kind, game_id=game.id if game else None,
                                  details=details, created_at=talk.now))
    talk.echo(shown, "ok", ngettext("waiting for {address} to confirm: the judge has mailed it a token to send back "
                                    "(CONFIRM token, within {count} day); nothing is done until then",
                                    "waiting for {address} to confirm: the judge has mailed it a token to send back "
                                    "(CONFIRM token, within {count} days); nothing is done until then", TOKEN_DAYS,
                                    address=address), code="TO_CONFIRM")


def confirm(talk: Conversation, text: str, command: cmd.Confirm, *, done: Mapping[str, Done]) -> None:
    """CONFIRM token: the address the token was mailed to wants the mail it was asked about."""
    request = talk.session.scalar(select(Confirmation).where(Confirmation.token == command.token,
                                                             Confirmation.created_at > talk.now - TOKEN_DAYS * DAY))
    if request is None:
        talk.echo(text, "error", _("no request is waiting for that token (it may have expired: ask again)"),
                  code="NO_SUCH_TOKEN")
        return
    if (request.kind in PASSWORD_REQUESTS) != (command.password is not None):  # the token stays good
        talk.echo(text, "error", _("choose the password you will sign on with: CONFIRM token yourpassword")
                  if request.kind in PASSWORD_REQUESTS else _("expected CONFIRM token, with nothing after it"),
                  code="PASSWORD_NEEDED")
        return
    if command.password is not None:
        request.details = {**request.details, "password": hash_password(command.password)}
    talk.session.execute(delete(Confirmation).where(Confirmation.id == request.id))
    if not is_confirmed(talk.session, request.address):
        talk.session.add(ConfirmedAddress(address=request.address, confirmed_at=talk.now))
        talk.session.flush()
    done[request.kind](talk, request, text)


def game_of(talk: Conversation, request: Confirmation) -> Game | None:
    """The game of a confirmed request, its row locked (`Conversation.game`)."""
    game = talk.session.get(Game, request.game_id) if request.game_id is not None else None
    return talk.game_named(game.name) if game is not None else None

