"""A phase's maps are drawn once its change is committed, outside its transaction: the mails
that carry them wait (``drawing``), get their files, and go; each map is drawn once however many
mails carry it; a map that cannot be drawn, or a process that dies before storing its maps,
leaves the mail to go without."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event, select

from judge.bootstrap import open_database
from judge.language import current, pages_language, reading
from judge.mail.outbound import Attachment, Drawn, MaildirOutbox
from judge.service.config import Settings
from judge.service.outgoing.outbox import DRAWING_TIME, Drawings, blob, queue
from judge.service.outgoing.sender import MaildirTransport, deliver_pending
from judge.store.database import Database
from judge.store.models import Blob, Game, Outbox
from tests.support.harness import fresh_database_url
from tests.support.people import GM

NOW = datetime(2026, 3, 1, 9, 0)


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return Settings(data_dir=tmp_path, database=fresh_database_url())


@pytest.fixture
def db(settings: Settings) -> Database:
    return open_database(settings)


def results(db: Database, settings: Settings, files: dict[str, list[Attachment | Drawn]],
            inside: Callable[[], None] = lambda: None) -> dict[str, int]:
    """A results mail to each address of ``files`` with its files, queued in one transaction (in
    which ``inside`` runs last); the outbox id of each."""
    with db.transaction() as session:
        game = Game(name="g1", gm_address=GM, gm_password="-", seed=1, created_at=NOW)
        session.add(game)
        session.flush()
        ids = {to: queue(session, settings, to=to, subject="g1 S1901M results", body="A PAR - BUR\n",
                         kind="results", now=NOW, game_id=game.id, attachments=attached)
               for to, attached in files.items()}
        inside()
    return ids


def rows(db: Database) -> dict[str, tuple[str, list[tuple[str, bytes]]]]:
    """Each mail's recipient: its status and its files (name, bytes), in order."""
    with db.transaction() as session:
        return {row.recipient: (row.status, [(f.filename, f.blob.data) for f in row.files])
                for row in session.scalars(select(Outbox).order_by(Outbox.id))}


def test_a_map_is_drawn_once_the_change_is_committed_and_once_for_every_mail_carrying_it(
        db: Database, settings: Settings) -> None:
    seen: list[str] = []

    def draw() -> bytes:
        with db.transaction() as session:  # the mails are in the database already, waiting
            seen.extend(session.scalars(select(Outbox.status)))
        return b"PNG"

    board = Drawn("g1-F1901M.png", "image/png", draw)
    chart = Attachment("g1-chart.txt", "text/plain", b"chart")
    results(db, settings, {"a@example.org": [board], "b@example.org": [board], GM: [board, chart]})
    assert seen == ["drawing"] * 3  # drawn once, after the commit
    assert rows(db) == {"a@example.org": ("pending", [("g1-F1901M.png", b"PNG")]),
                        "b@example.org": ("pending", [("g1-F1901M.png", b"PNG")]),
                        GM: ("pending", [("g1-F1901M.png", b"PNG"), ("g1-chart.txt", b"chart")])}


def test_a_changes_files_are_looked_for_among_the_stored_ones_in_one_query(
        db: Database, settings: Settings, monkeypatch: pytest.MonkeyPatch) -> None:
    """A phase's maps, a picture for each language its readers read, are each stored once, the one stored
    already (by an earlier change) found, with one query on the blobs for all of them: looked up one by
    one, each lookup first wrote the blob the one before had added; and each hashed once, however many mails
    carry it."""
    stored_before = Attachment("g1-S1901M.png", "image/png", b"PNG of spring")
    with db.transaction() as session:
        blob(session, stored_before.data)
    def picture(name: str, text: str) -> Drawn:
        return Drawn(f"g1-{name}.png", "image/png", text.encode)

    pictures = {language: [picture("orders", f"orders, {language}"), picture("F1901M", f"board, {language}")]
                for language in ("en", "it", "fr")}
    looked_up: list[str] = []

    def count(_connection: object, _cursor: object, statement: str, *_: object) -> None:
        if statement.lstrip().upper().startswith("SELECT") and "FROM blobs" in statement:
            looked_up.append(statement)

    hashed: list[bytes] = []
    sha256 = hashlib.sha256

    def counted(data: bytes = b"") -> Any:
        hashed.append(bytes(data))
        return sha256(data)

    event.listen(db.engine, "before_cursor_execute", count)
    monkeypatch.setattr(hashlib, "sha256", counted)
    try:
        results(db, settings, {f"{language}@example.org": [*drawn, stored_before]
                               for language, drawn in pictures.items()})
    finally:
        event.remove(db.engine, "before_cursor_execute", count)
        monkeypatch.undo()
    assert len(looked_up) == 1
    pictures_hashed = [data for data in hashed if data.startswith((b"orders, ", b"board, ", b"PNG of spring"))]
    assert sorted(pictures_hashed) == sorted(set(pictures_hashed)) and len(pictures_hashed) == 7  # each once
    with db.transaction() as session:
        assert sorted(session.scalars(select(Blob.data))) == sorted(
            [b"PNG of spring"] + [f"{what}, {language}".encode() for what in ("board", "orders")
                                  for language in ("en", "it", "fr")])
    assert rows(db)["it@example.org"] == ("pending", [("g1-orders.png", b"orders, it"), ("g1-F1901M.png", b"board, it"),
                                                      ("g1-S1901M.png", b"PNG of spring")])


@pytest.mark.parametrize("game_language", [None, "fr"])
def test_a_map_is_drawn_knowing_the_language_of_its_games_pages(
        db: Database, settings: Settings, game_language: str | None) -> None:
    """The pages are in the game's language (SET GAME LANGUAGE), else the judge's: a map drawn for a reader of
    another is not kept for them (`judge.render.png.Drawn`)."""
    seen: list[tuple[str, str | None]] = []

    def draw() -> bytes:
        seen.append((current(), pages_language()))
        return b"PNG"

    board = Drawn("g1-F1901M.png", "image/png", draw)
    with db.transaction() as session:
        game = Game(name="g1", gm_address=GM, gm_password="-", seed=1, created_at=NOW,
                    settings={"language": game_language} if game_language else {})
        session.add(game)
        session.flush()
        for language in ("en", "it"):
            with reading(language):
                queue(session, settings, to=f"{language}@example.org", subject="g1 S1901M results", body="-\n",
                      kind="results", now=NOW, game_id=game.id, attachments=[board])
    assert seen == [("en", game_language or "en"), ("it", game_language or "en")]


def test_a_map_that_cannot_be_drawn_leaves_its_mail_to_go_without_it(db: Database, settings: Settings) -> None:
    def broken() -> bytes:
        raise RuntimeError("no ink")

    results(db, settings, {"a@example.org": [Drawn("g1-orders.png", "image/png", broken),
                                             Drawn("g1-F1901M.png", "image/png", lambda: b"PNG")]})
    assert rows(db) == {"a@example.org": ("pending", [("g1-F1901M.png", b"PNG")])}


def test_nothing_is_drawn_for_a_change_rolled_back(db: Database, settings: Settings) -> None:
    drawn: list[int] = []

    def fail() -> None:
        raise RuntimeError("the phase failed")

    with pytest.raises(RuntimeError):
        results(db, settings, {"a@example.org": [Drawn("g1.png", "image/png", lambda: drawn.append(1) or b"")]}, fail)
    assert drawn == [] and rows(db) == {}


def test_nothing_is_drawn_for_a_mail_a_rolled_back_savepoint_queued(db: Database, settings: Settings) -> None:
    drawn: list[str] = []

    def kept(name: str) -> Drawn:
        return Drawn(f"{name}.png", "image/png", lambda: drawn.append(name) or b"PNG")

    with db.transaction() as session:
        game = Game(name="g1", gm_address=GM, gm_password="-", seed=1, created_at=NOW)
        session.add(game)
        session.flush()
        with pytest.raises(RuntimeError), session.begin_nested():  # a mail quarantined, say
            queue(session, settings, to="a@example.org", subject="s", body="b", kind="results", now=NOW,
                  game_id=game.id, attachments=[kept("lost")])
            raise RuntimeError("quarantined")
        queue(session, settings, to="b@example.org", subject="s", body="b", kind="results", now=NOW,
              game_id=game.id, attachments=[kept("kept")])
    assert drawn == ["kept"] and rows(db) == {"b@example.org": ("pending", [("kept.png", b"PNG")])}


def test_a_mail_whose_maps_were_never_stored_goes_without_them_once_a_sender_has_seen_it_wait(
        db: Database, settings: Settings, monkeypatch: pytest.MonkeyPatch) -> None:
    """The process drawing them died between the commit and the drawing: the maps are lost with
    it, and the mail goes as text once a sender has seen it wait `DRAWING_TIME` by its own clock
    (a live process stores them within seconds of the commit)."""
    from judge.service.outgoing import outbox, sender

    seconds = [1000.0]
    monkeypatch.setattr(sender, "DRAWINGS", Drawings(clock=lambda: seconds[0]))
    monkeypatch.setattr(outbox, "draw", lambda db, waiting: None)  # died before drawing
    results(db, settings, {"a@example.org": [Drawn("g1.png", "image/png", lambda: b"PNG")]})
    maildir = MaildirOutbox(settings.maildir)
    later = NOW + timedelta(days=1)  # whatever the judges' clocks say
    assert deliver_pending(db, settings, MaildirTransport(maildir), later) == 0  # first seen waiting
    seconds[0] += DRAWING_TIME - 1
    assert deliver_pending(db, settings, MaildirTransport(maildir), later) == 0
    assert rows(db) == {"a@example.org": ("drawing", [])}
    seconds[0] += 1
    assert deliver_pending(db, settings, MaildirTransport(maildir), later) == 1
    assert rows(db) == {"a@example.org": ("sent", [])} and len(maildir.messages()) == 1


def test_a_failure_after_the_commit_leaves_the_change_made_and_its_mail_waiting(
        db: Database, settings: Settings, monkeypatch: pytest.MonkeyPatch) -> None:
    """What fails while the maps are drawn and stored cannot undo the phase, committed already:
    the caller is not told of it (a deadline's run would take it for its own failure and pause the
    game), and the mail goes without its maps once a sender has seen it wait (above)."""
    from judge.service.outgoing import outbox

    def broken(db: Database, waiting: object) -> None:
        raise RuntimeError("the database went away")

    monkeypatch.setattr(outbox, "_draw", broken)
    results(db, settings, {"a@example.org": [Drawn("g1.png", "image/png", lambda: b"PNG")]})
    assert rows(db) == {"a@example.org": ("drawing", [])}
