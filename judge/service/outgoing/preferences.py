"""What an address chose for the mail it gets (``address_preferences``), and the host keeping to it:
``SET MAPS PNG | SVG | ALL | NONE``, the pictures a game's mail carries, and ``SET FORM ON | OFF``,
whether a mail that opens a phase for its seat ends with the form to fill (`judge.service.outgoing.forms`;
on unless the mailbox chose OFF), and ``SET LANGUAGE``, the language the judge writes to it in
(`language_of`: the mailbox's, else the game's, else the judge's ``language-default``; `judge.language`).

A kind offers every picture it draws of a moment, each marked with its role (`judge.mail.outbound.Role`:
the phase's orders drawn on the board, or the board) and its format; the host keeps those its reader
chose as the mail is queued (`judge.service.outgoing.outbox.queue`, `kept`), so that a choice holds in
every game and kind alike, for a player, an observer and a game master the same, and a picture nobody
chose is never drawn (a `Drawn` is drawn only for the mails that keep it).  Most of a results mail's
weight is its pictures: one PNG is about a quarter of the three (``bench/maps_bench.py``).

- ``png`` (the judge's default, ``maps-default``): one picture, the phase's orders drawn on the board,
  or the board where there are no orders (the start, a briefing);
- ``svg``: that one picture as SVG where the kind draws it so (Payola's, Exchange's and Machiavelli's
  orders are), else the board's SVG, else the PNG (a mail that offers no SVG at all);
- ``all``: every picture the kind offers but its spares (what every mail carried before the choice);
- ``none``: no picture.

A file that is no picture of the choice (role ``""``: the map MAP asked for, HELP's text) is always kept.
The choice is the mailbox's (`judge.service.mailbox`: ``Bob@`` and ``bob@`` share it), read once a
transaction for each mailbox that gets a picture.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime
from typing import NamedTuple, TypeVar

from sqlalchemy import bindparam, select
from sqlalchemy.orm import Session

from judge.commands.parse import MAPS_CHOICES
from judge.language import current, offered, reading
from judge.mail.outbound import Attachment, Drawn
from judge.service.config import Settings
from judge.service.mailbox import mailbox
from judge.store.models import AddressPreference, Game

_READ = "judge_preferences"  # a session's info key: each mailbox's choices, as read in its transaction
_GAMES_READ = "judge_game_languages"  # a session's info key: each game's language, as read in its transaction
_ANSWERED_IN = "judge_languages_chosen"  # a session's info key: who chose a language in it (`answered_in`)
PNG, SVG = "image/png", "image/svg+xml"

File = TypeVar("File", Attachment, Drawn, Attachment | Drawn)


class _Chosen(NamedTuple):
    """What a mailbox chose: SET MAPS, SET FORM, SET LANGUAGE (None: nothing)."""

    maps: str | None = None
    form: bool | None = None
    language: str | None = None


def _chosen(session: Session, address: str) -> _Chosen:
    """What ``address``'s mailbox chose, read once a transaction: most mailboxes chose nothing, and a
    session reads a missing row again each time it is asked."""
    read: dict[str, _Chosen] = session.info.setdefault(_READ, {})
    box = mailbox(address)
    if box not in read:
        row = session.execute(_PREFERENCES, {"box": box}).first()
        read[box] = _Chosen(*row) if row is not None else _Chosen()
    return read[box]


# Built once, as it is read at each mail: a session's `get` of a missing row cost twice this select.
_PREFERENCES = (select(AddressPreference.maps, AddressPreference.form, AddressPreference.language)
                .where(AddressPreference.mailbox == bindparam("box")))


def maps_of(session: Session, settings: Settings, address: str) -> str:
    """The pictures ``address``'s mailbox chose (`MAPS_CHOICES`), or the judge's default."""
    return _chosen(session, address).maps or settings.maps_default


def choose_maps(session: Session, address: str, choice: str | None, now: datetime) -> None:
    """Keep ``choice`` (one of `MAPS_CHOICES`; None: the judge's default again) for ``address``'s mailbox."""
    assert choice is None or choice in MAPS_CHOICES
    _keep(session, address, now, maps=choice)


def form_wanted(session: Session, address: str) -> bool:
    """Whether ``address``'s mailbox gets the form to fill (SET FORM: on unless it chose OFF)."""
    return _chosen(session, address).form is not False


def choose_form(session: Session, address: str, on: bool, now: datetime) -> None:
    """Keep SET FORM ON or OFF (``on``) for ``address``'s mailbox."""
    _keep(session, address, now, form=on)


def language_of(session: Session, settings: Settings, address: str, game: Game | str | None = None) -> str:
    """The language the judge writes to ``address`` in: its mailbox's (SET LANGUAGE), else that of
    ``game`` (SET GAME LANGUAGE; a game's row, or its name: its settings then read once a transaction), else
    the judge's ``language-default``; one the judge still writes."""
    chosen = _chosen(session, address).language if address else None
    if chosen is None and game is not None:
        chosen = _game_language(session, game) if isinstance(game, str) else game.settings.get("language")
    language = chosen or settings.language_default
    return language if language in offered() else settings.language_default


def _game_language(session: Session, name: str) -> str | None:
    """The language the game called ``name`` chose (SET GAME LANGUAGE), read once a transaction (one column,
    not the game's row, which the mail's sign-on reads and locks after)."""
    read: dict[str, str | None] = session.info.setdefault(_GAMES_READ, {})
    if name not in read:
        kept = session.scalar(_GAME_SETTINGS, {"name": name})
        read[name] = kept.get("language") if kept else None
    return read[name]


_GAME_SETTINGS = select(Game.settings).where(Game.name == bindparam("name"))  # built once, as it is read at each mail


def forget_game_languages(session: Session) -> None:
    """Read the games' languages again: one was set in this transaction."""
    session.info.pop(_GAMES_READ, None)


@contextmanager
def writing_to(session: Session, settings: Settings, address: str, game: Game | None = None) -> Iterator[None]:
    """Write in the language of ``address`` (a reader of ``game``) within the block: a mail for it is
    composed inside, its template rendered and every message of its text asked for there (`language_of`)."""
    with reading(language_of(session, settings, address, game)):
        yield


def by_language(session: Session, settings: Settings, game: Game, addresses: Iterable[str]) -> dict[str, list[str]]:
    """``addresses`` (readers of ``game``, its observers say) grouped by the language each reads, in their
    order: a text written once for all of them is written once per language."""
    grouped: dict[str, list[str]] = {}
    for address in addresses:
        grouped.setdefault(language_of(session, settings, address, game), []).append(address)
    return grouped


def choose_language(session: Session, address: str, language: str | None, now: datetime) -> None:
    """Keep ``language`` (one the judge writes; None: no choice, the game's or the judge's again) for
    ``address``'s mailbox."""
    assert language is None or language in offered()
    _keep(session, address, now, language=language)
    session.info.setdefault(_ANSWERED_IN, {}).setdefault(mailbox(address), current())


def answered_in(session: Session, address: str) -> str | None:
    """The language the answer to ``address``'s SET LANGUAGE is written in, if a mail of this transaction chose
    the mailbox's language: the one its mail was read in, not the one it chose (`choose_language`)."""
    chosen: dict[str, str] = session.info.get(_ANSWERED_IN, {})
    return chosen.get(mailbox(address))


def _keep(session: Session, address: str, now: datetime, **chosen: str | bool | None) -> None:
    """Keep ``chosen`` (columns of `AddressPreference`) for ``address``'s mailbox, and forget what the
    transaction had read of it (`_chosen`), to read it again: a rolled-back savepoint may undo this."""
    box = mailbox(address)
    row = session.get(AddressPreference, box)
    if row is None:
        session.add(AddressPreference(mailbox=box, updated_at=now, **chosen))
    else:
        for column, value in chosen.items():
            setattr(row, column, value)
        row.updated_at = now
    session.flush()
    session.info.get(_READ, {}).pop(box, None)


def kept(files: Sequence[File], choice: str) -> list[File]:
    """The files of ``files`` that a reader who chose ``choice`` gets, in their order: every file that
    is no picture of the choice (role ``""``), and of the pictures those the choice keeps (see above)."""
    pictures = [file for file in files if file.role]
    if choice == "all":
        wanted = [file for file in pictures if not file.spare]
    elif choice == "none":
        wanted = []
    else:
        one = _one(pictures, SVG) if choice == "svg" else None
        one = one or _one(pictures, PNG)
        wanted = [one] if one is not None else []
    return [file for file in files if not file.role or any(file is picture for picture in wanted)]


def _one(pictures: Sequence[File], content_type: str) -> File | None:
    """The one picture in ``content_type``: the orders drawn on the board, else the board."""
    for role in ("orders", "board"):
        for picture in pictures:
            if picture.role == role and picture.content_type == content_type:
                return picture
    return None
