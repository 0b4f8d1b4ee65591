"""Playing a game's record again: ``judge replay`` (the proof that a game was judged right, and a
test of the engine) and ``judge import --replay`` (the game carried on on another judge, proved).

Theory of operation.  A record (`judge.service.hosting.archive`) holds every mail the judge received
about the game, as stored, with when it arrived and when it was applied, and every run of the
game's deadline that changed it, with how many of those mails came before it.  A replay feeds
them to a judge in that order, at those times, through the judge's own applier (`receive`,
`process_mail`) and deadline (`process_game`): nothing is adjudicated here, and the kinds are
not told.  Three things of the first judge were chosen at random and are given back: the game's
seed (set as soon as the mail that created the game is applied, before anything reads it), the
tokens of its CONFIRMs (the replayed request is given the token its recorded CONFIRM names) and
the codes of a master's TERMINATE or REVEAL (the code a recorded mail repeats).  Stored mail
has its passwords masked (`judge.mail.redact`), each as ``****``: replayed, a JOIN, CREATE or
CONFIRM sets the password ``****`` and a sign-on gives it, so the masked sign-ons sign on.  (A
sign-on that failed on the first judge because of a wrong password would succeed here; the
replay then differs where it mattered, and says where.)

Then each phase is compared with the record's (`archive.phase_entry`: its seed, position,
result, submissions and times; of a result, the keys the record has: `_kept`), the game's state
and the kind's own tables (`snapshot`); the first phase that differs is named.  A replay runs on
a judge of its own on a temporary SQLite database, its mail kept from the outbox (`outbox.quiet`).

An import with ``--replay`` is the replay on the judge imported to, checked the same way
(`judge.service.operators.importing`, which also copies a record without playing it).
"""

from __future__ import annotations

import re
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from sqlalchemy import event, select
from sqlalchemy.orm import Session

from judge.service.config import Settings
from judge.service.hosting import archive
from judge.service.hosting.archive import FORCED, RecordError, moment
from judge.service.hosting.kinds import kinds_of
from judge.service.incoming.handlers.mail import process_mail, receive
from judge.service.operators import record_bounds
from judge.service.outgoing import outbox
from judge.service.running.app import process_game
from judge.store.database import Database
from judge.store.models import Confirmation, ConfirmedAddress, Game, Outbox

CONFIRM = re.compile(rb"\bCONFIRM\s+([0-9a-f]{16})\b", re.IGNORECASE)


@dataclass(frozen=True)
class Difference:
    """Where a replay differs from its record: the phase (None: the game as a whole) and what."""

    phase: str | None
    what: str

    def __str__(self) -> str:
        return f"{self.phase}: {self.what}" if self.phase else self.what


def replay(record: Any, settings: Settings, open_db: Any) -> list[Difference]:
    """Play ``record`` again on a judge of its own (a temporary data directory, ``open_db`` opening
    its database with the judge's kinds) and say where it differs, first difference first; none:
    the game was judged as recorded; `RecordError` for a record no judge could have written
    (`judge.service.operators.record_bounds`)."""
    folder = Path(tempfile.mkdtemp(prefix="judge-replay-"))
    try:
        own = replace(settings, data_dir=folder, database=None, web=False, maps=False)
        db = open_db(own)
        event.listen(db.engine, "connect", _unsynchronised)
        db.engine.dispose()  # every connection from now on: a scratch database waits for no disk
        try:
            with db.transaction() as session:
                record_bounds.check(record, settings, kinds_of(session))
            for number, mail in enumerate(record["mails"], 1):
                if mail["pruned"]:
                    raise RecordError(f"the record's mail {number} was pruned (judge prune dropped its copy): the "
                                      "game cannot be played again from it")
            play(db, own, record)
            with db.transaction() as session:
                return compare(session, own, record)
        finally:
            db.engine.dispose()
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _unsynchronised(connection: Any, _record: Any) -> None:
    """A replay's own database, thrown away after it, is not written to disk at each commit: a
    game's replay is as much mail as the game had, and a commit's wait for the disk was most of
    what each mail cost."""
    connection.execute("PRAGMA synchronous=OFF")


@contextmanager
def playing(settings: Settings, record: dict[str, Any]) -> Iterator[Settings]:
    """The settings a replay runs with: the first judge's MTA (what its ``Received:`` lines and
    vouching mean, and whether it checked senders), no maps drawn, and its mail kept from the
    outbox."""
    mta = record["judge"]
    with outbox.quiet():
        yield replace(settings, mta_hostname=mta.get("mta_hostname"), maps=False,
                      mta_authenticates=bool(mta.get("mta_authenticates", settings.mta_authenticates)))


def play(db: Database, settings: Settings, record: dict[str, Any]) -> None:
    """Feed ``record``'s mail and deadline runs to the judge of ``db``, in order, at their times."""
    name = str(record["game"]["name"])
    with db.transaction() as session:
        if session.scalar(select(Game.id).where(Game.name == name)) is not None:
            raise RecordError(f"this judge already has a game called {name}")
        first = moment(record["mails"][0]["received_at"]) if record["mails"] else None
        for address in record["confirmed"]:
            if session.get(ConfirmedAddress, address) is None:
                session.add(ConfirmedAddress(address=address, confirmed_at=(first or datetime(1970, 1, 1))
                                             - timedelta(seconds=1)))
    runs = deadline_runs(record)
    tokens = {match for mail in record["mails"] for match in CONFIRM.findall(archive.raw_of(mail))}
    with playing(settings, record) as own:
        for number, mail in enumerate(record["mails"]):
            while runs and runs[0]["after"] <= number:
                run_deadline(db, own, name, runs.pop(0))
            raw = archive.raw_of(mail)
            with db.transaction() as session:
                given_back(session, name, raw, tokens)
            received = moment(mail["received_at"])
            assert received is not None
            mail_id = receive(db, raw, received, mail.get("envelope_from"))
            process_mail(db, own, mail_id, moment(mail.get("processed_at")) or received)
            with db.transaction() as session:
                seeded(session, name, int(record["game"]["seed"]))
        for run in runs:
            run_deadline(db, own, name, run)


def deadline_runs(record: dict[str, Any]) -> list[dict[str, Any]]:
    """The runs of the game's deadline a replay plays, in their order: the record's, and for a game
    begun before the judge kept them (schema 0026, after 0.3.0), a run at each closing of a phase
    before the first that was kept (`closing_runs`)."""
    kept = list(record["deadline_runs"])
    first = moment(kept[0]["at"]) if kept else None
    older = closing_runs(record, before=first)
    return sorted(older + kept, key=lambda run: (run["after"], moment(run["at"]) or datetime.min)) if older else kept


def begun_before_runs(record: dict[str, Any]) -> bool:
    """Whether the game of ``record`` closed phases before the judge kept its deadline's runs: its
    replay then closes each at its recorded closing (`deadline_runs`)."""
    return bool(closing_runs(record, before=moment(record["deadline_runs"][0]["at"]) if record["deadline_runs"]
                             else None))


def closing_runs(record: dict[str, Any], before: datetime | None = None) -> list[dict[str, Any]]:
    """For a game older than the table of deadline runs: a run at each phase's closing (``before``
    the first run kept, if any) that no mail of the record caused (a mail applied at that moment
    did: a PROCESS, a phase complete)."""
    applied = [moment(mail.get("processed_at")) for mail in record["mails"]]
    runs = []
    for phase in record["phases"]:
        closed = moment(phase.get("processed_at"))
        if closed is None or closed in applied or (before is not None and closed >= before):
            continue
        runs.append({"at": archive.iso(closed), "after": sum(1 for at in applied if at is not None and at <= closed),
                     "what": f"{phase['name']} processed"})
    return sorted(runs, key=lambda run: run["after"])


def run_deadline(db: Database, settings: Settings, name: str, run: dict[str, Any]) -> None:
    """A recorded run of the game's deadline, at its moment (forced if the operator forced it)."""
    at = moment(run["at"])
    assert at is not None
    process_game(db, settings, name, at, force=str(run.get("what", "")).startswith(FORCED))


def given_back(session: Session, name: str, raw: bytes, recorded: set[bytes]) -> None:
    """Before a recorded mail is applied, give back what the first judge chose at random and the
    mail repeats: a CONFIRM's token (the oldest request this judge made that no recorded mail
    names takes it), and a master's TERMINATE or REVEAL code."""
    for token in CONFIRM.findall(raw):
        text = token.decode().lower()
        if session.scalar(select(Confirmation.id).where(Confirmation.token == text)) is not None:
            continue
        made = session.scalar(select(Confirmation).where(Confirmation.token.not_in([t.decode().lower()
                                                                                    for t in recorded]))
                              .order_by(Confirmation.id).limit(1))
        if made is None:
            continue
        for row in session.scalars(select(Outbox).where(Outbox.body.contains(made.token))):
            row.body = (row.body or "").replace(made.token, text)
        made.token = text
    game = session.scalar(select(Game).where(Game.name == name))
    if game is None:
        return
    for key in [key for key in game.settings if key.endswith("_code")]:
        word = key.removesuffix("_code").upper().encode()
        found = re.search(rb"\b" + word + rb"\s+([0-9a-f]{6})\b", raw, re.IGNORECASE)
        if found and (code := found.group(1).decode().lower()) != game.settings[key]:
            for row in session.scalars(select(Outbox).where(Outbox.game_id == game.id,
                                                            Outbox.body.contains(str(game.settings[key])))):
                row.body = (row.body or "").replace(f"{word.decode()} {game.settings[key]}", f"{word.decode()} {code}")
            game.settings = {**game.settings, key: code}


def seeded(session: Session, name: str, seed: int) -> None:
    """The game's seed as the first judge drew it, once the game exists and before its first phase."""
    game = session.scalar(select(Game).where(Game.name == name))
    if game is not None and game.seed != seed and game.phase is None:
        game.seed = seed


def _kept(mine: Any, theirs: Any, field: str) -> Any:
    """A replayed phase's ``field`` as the record could hold it: a result's keys that the record's
    lacks are what a newer judge keeps beside the outcome (each kind's votes on the game's end,
    kept since 0.4 so that a ROLLBACK brings them back), which the judge that wrote the record
    did not; every key the record has is compared, and so is everything else."""
    if field != "result" or not isinstance(mine, dict) or not isinstance(theirs, dict):
        return mine
    return {key: value for key, value in mine.items() if key in theirs}


def compare(session: Session, settings: Settings, record: dict[str, Any]) -> list[Difference]:
    """Where the game as replayed differs from ``record``: each phase in order, then the game."""
    name = str(record["game"]["name"])
    game = session.scalar(select(Game).where(Game.name == name))
    if game is None:
        return [Difference(None, "the game was never created")]
    again = archive.whole_record(session, settings, game)
    found = []
    recorded = {phase["name"]: phase for phase in record["phases"]}
    replayed = {phase["name"]: phase for phase in again["phases"]}
    for phase in record["phases"]:
        mine = replayed.get(phase["name"])
        if mine is None:
            found.append(Difference(phase["name"], "the replay never reached it"))
            continue
        for field in ("seed", "status", "opened_at", "processed_at", "submissions", "position", "result"):
            if _kept(mine.get(field), phase.get(field), field) != phase.get(field):
                found.append(Difference(phase["name"], f"its {field} differs"))
                break
    found += [Difference(phase["name"], "the record does not have it") for phase in again["phases"]
              if phase["name"] not in recorded]
    for field in ("kind", "variant", "options", "master", "state", "phase", "winner", "result", "deadline"):
        if again["game"].get(field) != record["game"].get(field):
            found.append(Difference(None, f"the game's {field} differs: {again['game'].get(field)} against "
                                    f"{record['game'].get(field)} in the record"))
    for at, (mine, theirs) in enumerate(zip(again["seats"], record["seats"], strict=False)):
        if mine != theirs:
            field = next(key for key in theirs if mine.get(key) != theirs.get(key))
            found.append(Difference(None, f"seat {at + 1} ({theirs.get('seat') or theirs.get('requested')}) differs: "
                                    f"its {field} is {mine.get(field)} against {theirs.get(field)} in the record"))
            break
    if len(again["seats"]) != len(record["seats"]):
        found.append(Difference(None, f"the game has {len(again['seats'])} seats against {len(record['seats'])} in "
                                "the record"))
    if again["observers"] != record["observers"]:
        found.append(Difference(None, "the game's observers differ"))
    if again["kind"] != record.get("kind", {}):
        found.append(Difference(None, "the kind's own records differ"))
    return found
