"""``judge import``: a game's record (`judge.service.archive`) made a game of this judge, which
carries it on; and the command line of records (``judge export``, ``import``, ``replay``).

Theory of operation.  Two ways, one outcome: the game's rows as the first judge kept them.

- **A copy** (the default): the record's rows are written as they are, in one transaction: the
  game's row, its seats, its observers, every phase (position, result, seed, times), what each
  seat sent as read with when it was accepted, the mail received as stored (passwords masked;
  each with its Message-ID and digest, so that a copy of it sent again is a duplicate here too),
  the runs of its deadline, what the host keeps beside (grey press authors, absences, sign-on
  sources, players' records), the mail it sent as kept history, and the kind's own tables
  through its `Records.restore`.  Ids are this judge's own: the record numbers its mail in order, and each
  deadline run says how many of those mails came before it, so a run is kept after the id of
  that many-th mail.  Then the game is exported from what was written and must give the record
  back (the record holds no time of its export, and export, import, export gives the same
  record): the first path that differs is named and the whole import undone.  A copy trusts the
  record as the judge that wrote it kept it, checked for its own consistency with what was
  written, not for its judging: what an operator moving their own games needs, in seconds.
- **A replay** (``--replay``): every mail of the record played again here through the judge's own
  applier and clock (`judge.service.replay.play`), each phase compared with the record: the proof
  that every phase was judged right, for a record from elsewhere, at the cost of the game's own
  mail.  Its rows stay as replayed when it differs, for the operator to read.

Either way the game then goes on where it stood, the mail it sent kept as sent (`sent_history`),
and each seat's and the master's password replaced by a new one, mailed to its player (or the
master) with the news of the move (`new_passwords`); the players' consent comes with the game: the
addresses that had confirmed on the first judge are confirmed on this one.  A game whose name is
taken here is refused, as is a copy of a game open again after a ROLLBACK, whose marks name the
first judge's rows of its submissions (its replay, or its copy once the phase is processed, does).
"""

from __future__ import annotations

import json
import secrets
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from email.utils import make_msgid
from pathlib import Path
from typing import Any

from sqlalchemy import insert, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from judge.service import archive, host, outbox
from judge.service.archive import RecordError, moment, raw_of
from judge.service.config import Settings
from judge.service.course import ROLLBACK
from judge.service.handlers.mail import fingerprint
from judge.service.kinds import Kinds, kind_of, kinds_of
from judge.service.passwords import hash_password
from judge.service.replay import compare, play
from judge.service.replay import replay as played_again
from judge.store.database import Database
from judge.store.models import (
    Absence,
    ConfirmedAddress,
    DeadlineRun,
    Game,
    GreyPress,
    InboundMail,
    Observer,
    Outbox,
    PhaseRow,
    Player,
    PlayerRecord,
    Signon,
    Submission,
)

UNSET = "-"
"""What a seat's and the master's password is while the import runs: no scrypt hash, so no
password signs on with it; `new_passwords` replaces it in the same transaction."""
ITS_OWN = ("judge", "judge_version")
"""What a record says of the judge that wrote it, not of the game: not compared."""


@dataclass(frozen=True)
class Imported:
    """What an import did: the game, and to whom its new passwords were mailed."""

    game: str
    told: list[str]


def import_record(db: Database, settings: Settings, record: dict[str, Any], now: datetime, *,
                  replay: bool = False) -> Imported:
    """Create the game of ``record`` on the judge of ``db`` (see the module's header): its rows
    copied and checked, or ``replay``-ed; `RecordError` if the record cannot be read, or the copy
    differs from it (nothing is left of it), or the replay does (its rows are left as replayed)."""
    archive.check(record)
    if replay:
        play(db, settings, record)
        with db.transaction() as session:
            differences = compare(session, settings, record)
            if differences:
                raise RecordError("the replay differs from the record: " + "; ".join(map(str, differences[:3])))
            game = session.scalars(select(Game).where(Game.name == record["game"]["name"])).one()
            for row in session.scalars(select(Outbox).where(Outbox.status == outbox.QUIET)):
                session.delete(row)  # what the replay wrote and never sent gives way to what was sent
            session.flush()
            sent_history(session, settings, game, record["sent"], now)
            return Imported(game.name, new_passwords(session, settings, game, now))
    with db.transaction() as session:
        game = copied(session, settings, record, now)
        again = archive.whole_record(session, settings, game)
        mine, theirs = _compared(again), _compared(record)
        if mine != theirs and (where := first_difference(theirs, mine)) is not None:
            raise RecordError(f"the game as imported differs from its record at {where}: the record does not "
                              "hold together as a game of this judge (judge import --replay says which phase)")
        return Imported(game.name, new_passwords(session, settings, game, now))


def copied(session: Session, settings: Settings, record: dict[str, Any], now: datetime) -> Game:
    """The record's rows written on this judge (`RecordError` for a record that cannot be)."""
    entry = record["game"]
    name = str(entry["name"])
    if session.scalar(select(Game.id).where(Game.name == name)) is not None:
        raise RecordError(f"this judge already has a game called {name}")
    rolled = (entry.get("settings") or {}).get(ROLLBACK)
    if isinstance(rolled, dict) and rolled.get("phase") == entry.get("phase") and entry.get("state") != "finished":
        raise RecordError(f"{name} is open again after a ROLLBACK, whose marks name the first judge's rows: "
                          "import it with --replay, or once its phase is processed")
    try:
        kind = kinds_of(session).named(str(entry["kind"]))
    except KeyError:
        raise RecordError(f"this judge hosts no game of the kind {entry['kind']}") from None
    try:
        game = Game(name=name, kind=entry["kind"], variant=entry["variant"], options=list(entry["options"]),
                    state=entry["state"], gm_address=entry["master"], gm_password=UNSET, seed=int(entry["seed"]),
                    settings=dict(entry["settings"]), phase=entry["phase"], deadline=moment(entry["deadline"]),
                    winner=entry["winner"], created_at=moment(entry["created_at"]))
        session.add(game)
        session.flush()
        session.add_all(Player(game_id=game.id, seat=seat["seat"], requested=seat["requested"],
                               address=seat["address"], password=UNSET if seat["address"] else None,
                               dummy=bool(seat["dummy"]), resigned=bool(seat["resigned"]),
                               joined_at=moment(seat["joined_at"]), preferences=seat["preferences"], zone=seat["zone"])
                        for seat in record["seats"])
        session.add_all(Observer(game_id=game.id, address=address, created_at=game.created_at)
                        for address in record["observers"])
        session.add_all(PhaseRow(game_id=game.id, name=phase["name"], position=phase["position"],
                                 seed=int(phase["seed"]), status=phase["status"], result=phase["result"],
                                 notices=phase["notices"], opened_at=moment(phase["opened_at"]),
                                 processed_at=moment(phase["processed_at"])) for phase in record["phases"])
        sent = [{"game_id": game.id, "phase": phase["name"], "seat": row["seat"], "kind": row["kind"],
                 "text": row["text"], "parsed": row["parsed"], "created_at": moment(row["created_at"]),
                 "accepted_at": moment(row["accepted_at"])}
                for phase in record["phases"] for row in phase["submissions"]]
        if sent:
            session.execute(insert(Submission), sent)
        received(session, game, record)
        beside(session, game, record["host"])
        consented(session, record)
        sent_history(session, settings, game, record["sent"], now)
        session.flush()
        kind.restore(session, game, record["kind"])
        session.flush()
    except (LookupError, TypeError, ValueError, AttributeError, IntegrityError) as exc:
        why = str(exc.orig) if isinstance(exc, IntegrityError) else str(exc)
        raise RecordError(f"the record cannot be imported as it is: {type(exc).__name__} {why}") from None
    return game


def received(session: Session, game: Game, record: dict[str, Any]) -> None:
    """The mail the game received, as stored, and the runs of its deadline, each after as many of
    those mails as the record says (`archive.runs_of`)."""
    rows = []
    for mail in record["mails"]:
        raw = raw_of(mail)
        message_id, seen = fingerprint(raw, mail["envelope_from"])
        rows.append({"message_id": message_id, "digest": seen, "envelope_from": mail["envelope_from"], "raw": raw,
                     "received_at": moment(mail["received_at"]), "processed_at": moment(mail["processed_at"]),
                     "status": mail["status"], "topic": f"game {game.name}"})
    ids = list(session.scalars(insert(InboundMail).returning(InboundMail.id, sort_by_parameter_order=True),
                               rows)) if rows else []
    runs = [{"game_id": game.id, "at": moment(run["at"]), "what": run["what"],
             "after_mail": ids[int(run["after"]) - 1] if int(run["after"]) else 0} for run in record["deadline_runs"]]
    if runs:
        session.execute(insert(DeadlineRun), runs)


def beside(session: Session, game: Game, kept: dict[str, Any]) -> None:
    """What the host keeps of the game beside its phases (`archive.kept_beside`); a player's record
    of a phase points at this judge's row of it."""
    session.flush()
    phases = {row.name: row.id for row in host.all_phases(session, game)}
    for model, rows in (
            (GreyPress, [{"phase": row["phase"], "sent_at": moment(row["sent_at"]), "author": row["author"],
                          "readers": list(row["readers"])} for row in kept["grey_press"]]),
            (Absence, [{"seat": row["seat"], "start": date.fromisoformat(row["start"]),
                        "end": date.fromisoformat(row["end"]), "status": row["status"],
                        "created_at": moment(row["created_at"])} for row in kept["absences"]]),
            (Signon, [{"who": row["who"], "source": row["source"], "network": row["network"], "at": moment(row["at"])}
                      for row in kept["signons"]]),
            (PlayerRecord, [{"address": row["address"], "seat": row["seat"], "phase": row["phase"], "what": row["what"],
                             # a line a ROLLBACK kept of a phase it dropped (`records.forget_from`) has none
                             "phase_row": phases.get(row["phase"]) if row["phase"] is not None else None,
                             "at": moment(row["at"])} for row in kept["player_records"]])):
        if rows:
            session.execute(insert(model), [{"game_id": game.id, **row} for row in rows])


def consented(session: Session, record: dict[str, Any]) -> None:
    """The addresses that had confirmed on the first judge, confirmed here before the game's first
    mail (as a record says them: `archive.whole_record`)."""
    first = moment(record["mails"][0]["received_at"]) if record["mails"] else moment(record["game"]["created_at"])
    before = (first or datetime(1970, 1, 1)) - timedelta(seconds=1)
    for address in record["confirmed"]:
        found = session.get(ConfirmedAddress, address)
        if found is None:
            session.add(ConfirmedAddress(address=address, confirmed_at=before))
        elif found.confirmed_at > before:
            found.confirmed_at = before


def _compared(record: Mapping[str, Any]) -> dict[str, Any]:
    """What of a record an import must give back: all but what it says of its judge."""
    return {key: value for key, value in record.items() if key not in ITS_OWN}


def first_difference(first: Any, second: Any, path: str = "") -> str | None:
    """The path of the first place where two JSON values differ (``phases[3].result``), or None."""
    if isinstance(first, Mapping) and isinstance(second, Mapping):
        for key in [*first, *(key for key in second if key not in first)]:
            if key not in first or key not in second:
                return f"{path}.{key}".lstrip(".")
            if (found := first_difference(first[key], second[key], f"{path}.{key}")) is not None:
                return found
        return None
    if isinstance(first, Sequence) and isinstance(second, Sequence) and not isinstance(first, str) \
            and not isinstance(second, str):
        for at, (one, other) in enumerate(zip(first, second, strict=False)):
            if (found := first_difference(one, other, f"{path}[{at}]")) is not None:
                return found
        return None if len(first) == len(second) else f"{path}[{min(len(first), len(second))}]".lstrip(".")
    return None if first == second and type(first) is type(second) else (path.lstrip(".") or "the record")


def sent_history(session: Session, settings: Settings, game: Game, sent: list[dict[str, Any]],
                 now: datetime) -> None:
    """The mail the game sent, as the record has it (what the first judge's players read, which a
    judge of other settings would word otherwise: maps attached or not), kept as sent."""
    session.add_all(Outbox(game_id=game.id, recipient=mail["to"], subject=mail["subject"], kind=mail["kind"],
                           sender=settings.judge_from, message_id=make_msgid(domain=settings.domain),
                           body=mail["body"], created_at=(written := moment(mail["at"]) or now), status="sent",
                           attempts=0, sent_at=written) for mail in sent)


def new_passwords(session: Session, settings: Settings, game: Game, now: datetime) -> list[str]:
    """Give the master and each seat with a player a new password, mailed to each: what the import
    left (``****`` after a replay, `UNSET` after a copy) is no one's.  Returns the addresses told."""
    from judge.service.templates import render

    title = kind_of(session, game).seat_title
    told = []
    seats = [(player, player.seat) for player in host.players(session, game) if player.address and player.password]
    holders: list[tuple[Any, str | None, str]] = [(game, None, game.gm_address),
                                                   *((p, seat, str(p.address)) for p, seat in seats)]
    for holder, seat, address in holders:
        password = secrets.token_urlsafe(9)
        if seat is None:
            game.gm_password = hash_password(password)
        else:
            holder.password = hash_password(password)
        body = render("moved", game=game, seat=seat, password=password, settings=settings,
                      title=title(seat) if seat else None)
        outbox.queue(session, settings, to=address, subject=f"{game.name} has moved to this judge", body=body,
                     kind=archive.MOVED, now=now, game_id=game.id)
        told.append(address)
    return told


def command(args: Any, settings: Settings, kinds: Kinds) -> int:
    """``judge export GAME``, ``judge import FILE``, ``judge replay FILE``: what each did, or why not."""
    from judge.service.app import open_database
    from judge.service.clock import now_on
    from judge.service.datadir import OperatorError, data_dir_lock
    from judge.service.sender import deliver_pending, transport_for

    try:
        if args.command == "replay":
            differences = played_again(read(args.file), settings, lambda own: open_database(own, kinds))
            for difference in differences:
                print(f"differs: {difference}")
            if differences:
                return 1
            print("every phase was judged as recorded")
            return 0
        db = open_database(settings, kinds)
        if args.command == "export":
            with db.transaction() as session:
                written = archive.saved_game(session, args.game) if args.diplomacy else \
                    archive.export(session, settings, args.game, public=args.public)
                text = json.dumps(written, indent=1, ensure_ascii=False) + "\n"
            if args.output is None:
                sys.stdout.write(text)
            else:
                args.output.write_text(text, encoding="utf-8")
            return 0
        with data_dir_lock(settings.data_dir, alone=True):  # a running judge would apply the replayed mail
            done = import_record(db, settings, read(args.file), now_on(db), replay=args.replay)
            sent = deliver_pending(db, settings, transport_for(settings), now_on(db))
        print(f"{done.game} imported; new passwords mailed to {', '.join(done.told)} ({sent} mail(s) sent)")
        return 0
    except (RecordError, OperatorError) as exc:
        print(f"judge: {exc}", file=sys.stderr)
        return 1
    except OSError as exc:
        print(f"judge: {exc}", file=sys.stderr)
        return 1


def read(path: Path) -> dict[str, Any]:
    """The record in the file ``path``, checked (`archive.check`)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise RecordError(f"{path} is not JSON: {exc.msg} at line {exc.lineno}") from None
    return archive.check(data)
