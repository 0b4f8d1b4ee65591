"""One person is one mailbox (ruling H4): the address by which the judge counts people, whatever
case or ``+tag`` an address is written with.

Theory of operation.  Two addresses are the same person when they differ only in the case of
their domain, in the case of their local part, or by a ``+tag`` after the local part, as the
most trusted mail systems deliver them (Postfix's ``recipient_delimiter = +`` and its
case-folded lookups; Mailman 3 keeps an address lower-cased beside the address as written):
``Bob+games@Example.ORG`` and ``bob@example.org`` reach one mailbox, `mailbox` writes it
``bob@example.org``.  Everything that counts people goes by it: one seat per player in a game
(JOIN, TAKEOVER, REPLACE, SET ADDRESS), the entry gates and the players' records
(`judge.service.hosting.records`, whose lines are kept under the mailbox), the hall of fame and the
players' pages, and every limit per address (CREATEs and JOINs a day, games observed, tokens
mailed a day, answers an hour).  The judge still answers, and mails a seat, at the address as
written.

Consent is for delivery, not for counting: an address confirms for itself alone
(`judge.service.incoming.handlers.consent`), since a ``+tag`` may file mail elsewhere and some mail
systems know no tags; the tokens mailed to one mailbox are counted together all the same.

The tables keep the addresses as written, with their domain lower-cased (`judge.mail.inbound.usable_address`),
so a query finds the addresses of a mailbox by their domain (`at_domain`) and `same` tells them
apart exactly (`count`): the case of a local part is folded by Python's rules, which no SQL
database applies alike.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from sqlalchemy import ColumnElement, select
from sqlalchemy.orm import InstrumentedAttribute, Session

TAG = "+"
"""What separates a local part from its tag (Postfix's ``recipient_delimiter``)."""


def mailbox(address: str) -> str:
    """The mailbox ``address`` reaches: its local part without its ``+tag`` and its domain, both
    lower-cased (``Bob+games@Example.ORG``: ``bob@example.org``).  A quoted local part is taken
    whole, and so is one that is nothing but a tag (``+x@example.org``)."""
    local, at, domain = address.strip().rpartition("@")
    if not at:
        return address.strip().lower()
    if not local.startswith('"'):
        local = local.partition(TAG)[0] or local
    return f"{local.lower()}@{domain.lower()}"


def same(one: str | None, other: str | None) -> bool:
    """Whether ``one`` and ``other`` are addresses of one mailbox (None is nobody's)."""
    return one is not None and other is not None and mailbox(one) == mailbox(other)


def domain_of(address: str) -> str:
    """The domain of ``address``'s mailbox."""
    return mailbox(address).rpartition("@")[2]


def at_domain(column: InstrumentedAttribute[Any], address: str) -> ColumnElement[bool]:
    """A condition true of every address kept in ``column`` that reaches ``address``'s mailbox, and
    of the other addresses of its domain (`same` tells them apart): the domain is kept lower-cased."""
    escaped = domain_of(address).replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return column.like(f"%@{escaped}", escape="\\")


def count(session: Session, column: InstrumentedAttribute[Any], address: str, *where: ColumnElement[bool]) -> int:
    """How many rows matching ``where`` have in ``column`` an address of ``address``'s mailbox."""
    found: Iterable[str | None] = session.scalars(select(column).where(at_domain(column, address), *where))
    return sum(1 for kept in found if same(kept, address))
