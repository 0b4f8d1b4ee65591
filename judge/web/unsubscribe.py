"""``judge web``'s answers to the one-click links of observers' mail (RFC 8058): the only thing it
changes, and only on a POST.

An observer's mail names ``<web-url>/unsubscribe/<token>`` (`judge.service.outgoing.one_click`).
A mail client that offers to unsubscribe POSTs ``List-Unsubscribe=One-Click`` to it, as a form
(``application/x-www-form-urlencoded`` or ``multipart/form-data``, both of which RFC 8058 allows):
`OneClick.stop` then stops the observing the token names, in one transaction, with the host's own
`judge.service.hosting.host.stop_observing`, as ``UNOBSERVE`` does.  A person who opens the link
in a browser gets `OneClick.ask`, a page whose button sends that POST: opening it changes
nothing, because mail scanners and link previews follow every link they see.  A token that is
not the judge's, or whose observing has ended, changes nothing and gets a plain page (404; 400
for what is no token at all), and so does a POST that does not say ``List-Unsubscribe=One-Click``
(400).  UNOBSERVE answers the mail that sent it and mails nothing else, and neither does a click:
the page it answers says what happened.  A failure of the database is logged and answered 503,
never with a traceback.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from http import HTTPStatus
from urllib.parse import parse_qs

from judge.service.hosting.host import stop_observing
from judge.service.outgoing import one_click
from judge.store.database import Database
from judge.web.pages import environment

log = logging.getLogger("judge")

MAX_BODY = 4096
"""Bytes of a POST's body `judge web` reads: a mail client's is under 300, a larger one is refused (413)."""

FIELD, VALUE = "List-Unsubscribe", "One-Click"  # RFC 8058, section 3.1


@dataclass(frozen=True)
class Page:
    """An answer of `OneClick`: its status and its HTML; ``form``: it holds a form that posts to
    its own address (which the pages' Content-Security-Policy otherwise forbids)."""

    status: HTTPStatus
    html: bytes
    form: bool = False


class OneClick:
    """The one-click links' answers from the judge's database at ``url``, opened at the first
    request (a ``judge web`` that nobody clicks never touches the database)."""

    def __init__(self, url: str) -> None:
        self.url = url
        self._db: Database | None = None
        self._opening = threading.Lock()  # the workers' threads share one `Database`, and its turns on SQLite

    @property
    def db(self) -> Database:
        with self._opening:
            if self._db is None:
                self._db = Database(self.url)
            return self._db

    def ask(self, token: str) -> Page:
        """GET: the page of the link, with the button that stops the observing; nothing changes."""
        if not one_click.well_formed(token):
            return _page(HTTPStatus.BAD_REQUEST, "malformed")
        try:
            with self.db.transaction() as session:
                found = one_click.observation(session, token)
                game = found[0].name if found is not None else None
        except Exception:
            log.exception("web: a one-click link could not be read")
            return _page(HTTPStatus.SERVICE_UNAVAILABLE, "unavailable")
        if game is None:
            return _page(HTTPStatus.NOT_FOUND, "unknown")
        return _page(HTTPStatus.OK, "ask", game)

    def stop(self, token: str, content_type: str, body: bytes) -> Page:
        """POST: stop the observing ``token`` names, if ``body`` (of ``content_type``) says
        ``List-Unsubscribe=One-Click``."""
        if not one_click.well_formed(token):
            return _page(HTTPStatus.BAD_REQUEST, "malformed")
        if not one_click_asked(content_type, body):
            return _page(HTTPStatus.BAD_REQUEST, "refused")
        try:
            with self.db.transaction() as session:
                found = one_click.observation(session, token)
                if found is not None:
                    stop_observing(session, *found)
                game = found[0].name if found is not None else None
        except Exception:
            log.exception("web: a one-click unsubscribe failed")
            return _page(HTTPStatus.SERVICE_UNAVAILABLE, "unavailable")
        if game is None:
            return _page(HTTPStatus.NOT_FOUND, "unknown")
        log.info("web: an observer of %s stopped it by its one-click link", game)
        return _page(HTTPStatus.OK, "stopped", game)


def one_click_asked(content_type: str, body: bytes) -> bool:
    """Whether a POST's form (``body``, of ``content_type``) holds ``List-Unsubscribe=One-Click``
    (RFC 8058, 3.1: "The POST content SHOULD be sent as multipart/form-data and MAY instead be
    encoded as application/x-www-form-urlencoded")."""
    kind = content_type.partition(";")[0].strip().lower()
    if kind == "application/x-www-form-urlencoded":
        try:
            fields = parse_qs(body.decode("ascii"), strict_parsing=True)
        except (UnicodeDecodeError, ValueError):
            return False
        return VALUE in fields.get(FIELD, [])
    if kind == "multipart/form-data":
        form = BytesParser(policy=policy.default).parsebytes(
            f"Content-Type: {content_type}\r\n\r\n".encode("latin-1") + body)
        if not form.is_multipart():
            return False
        return any(isinstance(part, EmailMessage) and part.get_param("name", header="content-disposition") == FIELD
                   and part.get_payload(decode=True) == VALUE.encode() for part in form.iter_parts())
    return False


def _page(status: HTTPStatus, state: str, game: str | None = None) -> Page:
    html = environment().get_template("web/unsubscribe.html.j2").render(root="../", state=state, game=game)
    return Page(status, html.encode("utf-8"), form=state == "ask")
