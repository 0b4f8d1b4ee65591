"""A game imported from its record plays on through `judge serve`, by mail over SMTP, and ends as it
would have on the judge it came from."""

from __future__ import annotations

import email
import email.policy
import json
import re
from email.message import EmailMessage
from pathlib import Path

from judge.bootstrap import kinds
from judge.mail.outbound import MaildirOutbox
from judge.service.config import Settings
from judge.service.hosting import archive
from judge.service.operators import importing
from judge.service.running.app import open_database
from judge.store.models import ConfirmedAddress
from tests.service.every_kind import PAYOLA
from tests.support.clock import Clock
from tests.support.daemon import Running
from tests.support.flowed import meant
from tests.support.harness import Judge, fresh_database_url
from tests.support.people import GM
from tests.support.wait import wait_until

PASSWORD = re.compile(r"new password for \S+ is:\n\n +(\S+)")
TERMINATE = re.compile(r"send TERMINATE (\w+)")


def bodies(settings: Settings) -> list[tuple[str, str]]:
    """Each mail in the Maildir of the judge of ``settings``: its recipient and text."""
    found = []
    for raw in MaildirOutbox(settings.maildir).messages():
        message = email.message_from_bytes(raw, policy=email.policy.default)
        assert isinstance(message, EmailMessage)
        text = message.get_body(preferencelist=("plain",))
        found.append((str(message["To"]), meant(str(text.get_content())) if text is not None else ""))
    return found


def test_an_imported_game_plays_on_through_judge_serve_and_ends_as_on_the_first_judge(tmp_path: Path) -> None:
    """Spring 1901 played and Fall 1901 begun on the first judge; imported into a second its
    players use, which `judge serve` runs; there its master, with the password the import mailed him, processes the
    fall and ends the game over SMTP. The first judge, sent the same, ends with the same phases."""
    first = Judge(tmp_path / "a")
    PAYOLA.begin(first)
    for seat, line in enumerate(PAYOLA.sent):
        PAYOLA.send(first, seat, line)
    first.later(49)
    first.tick()
    PAYOLA.send(first, 0, "3 : F BRE - MAO")
    with first.db.transaction() as session:
        record = json.loads(json.dumps(archive.export(session, first.settings, "g1")))
    settings = Settings(data_dir=tmp_path / "b", database=fresh_database_url(), port=0, tick_seconds=3600)
    db = open_database(settings, kinds())
    with db.transaction() as session:  # a judge its players use: each has confirmed there (else it asks them first)
        session.add_all(ConfirmedAddress(address=address, confirmed_at=first.now)
                        for address in {GM, *(seat.address for seat in PAYOLA.seats)})
    importing.import_record(db, settings, record, first.now)
    db.engine.dispose()
    second = Running(settings, Clock(first.now))
    try:
        def password() -> str | None:
            found = [match.group(1) for to, body in bodies(settings) if to == GM and (match := PASSWORD.search(body))]
            return found[-1] if found else None

        wait_until(lambda: password() is not None, "the master's new password")
        master = f"SIGNON MASTER@g1 {password()}"
        second.send(GM, master + "\nPROCESS")
        second.settled()
        second.send(GM, master + "\nTERMINATE")
        second.settled()
        codes = [found.group(1) for _, body in bodies(settings) if (found := TERMINATE.search(body))]
        code = codes[-1]
        second.send(GM, master + f"\nTERMINATE {code}")
        second.settled()
    finally:
        second.stop()
    first.send(GM, PAYOLA.master + "\nPROCESS")
    first.terminate(GM, PAYOLA.master)
    db = open_database(settings, kinds())
    with db.transaction() as session, first.db.transaction() as there:
        moved, stayed = archive.export(session, settings, "g1"), archive.export(there, first.settings, "g1")
    db.engine.dispose()
    assert moved["game"]["state"] == stayed["game"]["state"] == "finished"
    assert [(p["name"], p["position"], p["result"]) for p in moved["phases"]] == \
        [(p["name"], p["position"], p["result"]) for p in stayed["phases"]]
    assert len(moved["phases"]) > len(record["phases"])  # played on after the move, not only as recorded
    money = [[(row["power"], row["amount"], row["kind"], row["note"], row["phase"]) for row in each["kind"]["ledger"]]
             for each in (moved, stayed)]
    assert money[0] == money[1] and money[0]
