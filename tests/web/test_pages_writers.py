"""A game's pages have several writers (the applier after a mail, a deadline worker after its run): each
holds the game's folder from its read of the game to its last file (`judge.web.pages.holding`), so that a
writer that read the game before another changed it cannot put its older pages back over the newer ones'.
Found as a race: a deadline worker that read a game just before a concession ended it removed the end's
record (``record.json``) that the applier had just written."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

from judge.bootstrap import kinds
from judge.web import pages
from judge.web.pages import game_pages, web_root
from tests.service.every_kind import PAYOLA
from tests.support.harness import Judge

PATIENCE = 1.0  # seconds the second writer is given to write while the first holds the game


def test_a_writer_that_read_the_game_before_it_ended_does_not_remove_the_ends_record(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    judge = PAYOLA.begin(Judge(tmp_path, web=True))
    asked = PAYOLA.as_master(judge, "TERMINATE").body
    code = asked.split("to confirm, send TERMINATE ", 1)[1].split()[0]
    read, go, ended_written = threading.Event(), threading.Event(), threading.Event()
    kind = type(kinds().named("payola"))
    write_pages, write_ended = kind.write_pages, pages.write_ended

    def first_writer_waits(self: Any, root: Path, record: Any, force: bool = False) -> Path:
        if not read.is_set():  # the first writer, which read the game running, waits here
            read.set()
            go.wait(30)
        return write_pages(self, root, record, force)

    def telling(root: Path, ended: Any) -> None:
        write_ended(root, ended)
        if ended is not None:
            ended_written.set()

    monkeypatch.setattr(kind, "write_pages", first_writer_waits)
    monkeypatch.setattr(pages, "write_ended", telling)
    stale = threading.Thread(target=game_pages, args=(judge.db, judge.settings, PAYOLA.game))
    stale.start()
    assert read.wait(30)
    ending = threading.Thread(target=PAYOLA.as_master, args=(judge, f"TERMINATE {code}"))
    ending.start()
    ended_written.wait(PATIENCE)  # the end's writer's chance to write while the first holds the game (it must wait)
    go.set()
    stale.join(30)
    ending.join(30)
    assert ended_written.is_set()
    folder = web_root(judge.settings) / "games" / PAYOLA.game
    assert (folder / "record.json").is_file() and (folder / "publication.html").is_file()
