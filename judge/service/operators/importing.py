"""``judge import``: a game's record (`judge.service.hosting.archive`) made a game of this judge, which
carries it on; and the command line of records (``judge export``, ``import``, ``replay``).

Theory of operation.  First the record is held to what a judge could have written
(`judge.service.operators.record_bounds`: its size, depth and numbers as it is read, then every field),
and refused in one line naming the first field no judge could have written.  Then two ways, one
outcome: the game's rows as the first judge kept them, written in one transaction, so that an
import that fails for any reason leaves nothing behind.

- **A copy** (the default): the record's rows are written as they are: the game's row, its
  seats, its observers, every phase (position, result, seed, times), what each seat sent as read
  with when it was accepted, the mail received as stored (passwords masked; each with its
  Message-ID and digest, so that a copy of it sent again is a duplicate here too), the runs of its
  deadline, what the host keeps beside (grey press authors, absences, sign-on sources, players'
  records), the mail it sent as kept history, and the kind's own tables through its
  `Records.restore`.  Ids are this judge's own: the record numbers its mail in order, and each
  deadline run says how many of those mails came before it, so a run is kept after the id of
  that many-th mail; a ROLLBACK's marks name the last submission before it by how many of its
  phase's submissions came up to it.  The kind then checks what was written: each seat one of
  the game's (`Lobby.seat`, no more than `Lobby.capacity`), its variant and options as CREATE
  reads them, each phase one it could have played (`Records.check_phase`).  Then the game is
  exported from what was written and must give the record back (the record holds no time of its
  export, and export, import, export gives the same record), all but what the record says of the
  judge that wrote it: the first path that differs is named and the whole import undone.  The
  record's ``confirmed`` (who had confirmed on the first judge before the game's first mail, what
  its replay needs) stays with the game (`archive.CONSENT`): it is no consent of this judge's.
  A copy trusts the record as the judge that wrote it kept it, checked for its own consistency,
  not for its judging: what an operator moving their own games needs, in seconds.
- **A replay first** (``--replay``): every mail of the record played again on an empty judge of
  its own (`judge.service.operators.replay.replay`, what ``judge replay`` does), each phase, the seats and
  the kind's records compared with the record: the proof that every phase was judged right, for a
  record from elsewhere, at the cost of the game's own mail.  Then the copy, as above.  The
  replay runs apart, so what this judge knows already (its players' records and consent, from
  other games) changes nothing of it, and a replay that differs leaves nothing here.

A judge the game's players already use (two judges merging) keeps what it knows of them: its
consent, and their records, to which the game's lines are added.  Either way the game then goes
on where it stood, the mail it sent kept as sent (`sent_history`), and nobody is mailed who has
not said to this judge that they want its mail (`judge.service.incoming.handlers.consent`): the master
and each player whose address this judge has confirmed get a new password with the news of the
move, each observer it has confirmed the news alone; an address it has never confirmed gets the
consent round trip instead (a token to send back, with a password the player chooses: the judge
never mails it one), and the game's mail to it is held until it confirms (`outbox.HELD`),
mailed to it then, never if it does not.  A game whose name is taken here is refused.
"""

from __future__ import annotations

import json
import os
import secrets
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from email.utils import make_msgid
from pathlib import Path
from typing import Any

from sqlalchemy import insert, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from judge.language import gettext as _
from judge.service.config import Settings
from judge.service.hosting import archive, host, ratings
from judge.service.hosting.archive import RecordError, moment, raw_of
from judge.service.hosting.course import ROLLBACK
from judge.service.hosting.kinds import Kinds, kind_of, kinds_of
from judge.service.incoming.handlers.consent import TOKEN_DAYS, is_confirmed
from judge.service.incoming.handlers.mail import fingerprint
from judge.service.mailbox import mailbox
from judge.service.operators import record_bounds
from judge.service.operators.replay import begun_before_runs
from judge.service.operators.replay import replay as played_again
from judge.service.outgoing import outbox
from judge.service.outgoing.preferences import writing_to
from judge.service.passwords import hash_password
from judge.store.database import Database
from judge.store.models import (
    Absence,
    Confirmation,
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
"""What a seat's and the master's password is until its player has one here: no scrypt hash, so
no password signs on with it (`moved` replaces it, or the player's CONFIRM does)."""
ITS_OWN = ("judge", "judge_version", "schema_version")
"""What a record says of the judge that wrote it, not of the game: not compared (a record of an
older version of the format, `judge.service.hosting.archive.SCHEMA_VERSION`, is exported again in
this judge's)."""
OLDER = ("note: this game closed phases before its judge kept the runs of its deadline (a game begun under 0.3.0 "
         "or older): the replay closed each of those at the time the record says it closed")
"""What a replay says of a game begun before the judge kept its deadline's runs (`replay.deadline_runs`)."""
SEAT, OBSERVER = "moved", "moved_observer"
"""The kinds of consent request an import leaves for an address this judge has never confirmed:
a seat's or the master's (its CONFIRM chooses the password), an observer's."""


@dataclass(frozen=True)
class Imported:
    """What an import did: the game, to whom its new passwords were mailed, whom it asked to
    confirm first, and which observers it told."""

    game: str
    told: list[str]
    asked: list[str] = field(default_factory=list)
    observers: list[str] = field(default_factory=list)

    def summary(self, sent: int) -> str:
        """The line ``judge import`` prints."""
        said = [f"{self.game} imported"]
        if self.told:
            said.append(f"new passwords mailed to {', '.join(self.told)}")
        if self.observers:
            said.append(f"the move told to its observers {', '.join(self.observers)}")
        if self.asked:
            said.append(f"asked to confirm first (their mail of the game is held until they do): "
                        f"{', '.join(self.asked)}")
        return "; ".join(said) + f" ({sent} mail(s) sent)"


def kinds_in(db: Database) -> Kinds:
    """The kinds of game the judge of ``db`` hosts."""
    with db.transaction() as session:
        return kinds_of(session)


def import_record(db: Database, settings: Settings, record: Any, now: datetime, *, replay: bool = False,
                  open_db: Callable[[Settings], Database] | None = None) -> Imported:
    """Create the game of ``record`` on the judge of ``db`` (see the module's header): checked,
    then, with ``replay``, played again on a judge of its own (``open_db`` opens its database; by
    default with this judge's kinds), then copied; `RecordError` saying why not, nothing of it left."""
    kinds = kinds_in(db)
    record = record_bounds.check(record, settings, kinds)
    if replay:
        from judge.service.running.app import open_database

        differences = played_again(record, settings, open_db or (lambda own: open_database(own, kinds)))
        if differences:
            raise RecordError("the replay differs from the record: " + "; ".join(map(str, differences[:3])))
    with db.transaction() as session:
        game = copied(session, settings, record, now)
        again = archive.whole_record(session, settings, game)
        mine, theirs = _compared(again), _compared(record)
        if mine != theirs and (where := first_difference(theirs, mine)) is not None:
            raise RecordError(f"the game as imported differs from its record at {where}: the record does not "
                              "hold together as a game of this judge (judge import --replay says which phase)")
        ratings.catch_up(session)  # a finished game is rated as if it had ended here, at its own end
        return moved(session, settings, game, now)


def copied(session: Session, settings: Settings, record: dict[str, Any], now: datetime) -> Game:
    """The record's rows written on this judge (`RecordError` for a record that cannot be)."""
    entry = record["game"]
    name = str(entry["name"])
    if session.scalar(select(Game.id).where(Game.name == name)) is not None:
        raise RecordError(f"this judge already has a game called {name}")
    kind = kinds_of(session).named(str(entry["kind"]))
    try:
        game = Game(name=name, kind=entry["kind"], variant=entry["variant"], options=list(entry["options"]),
                    state=entry["state"], gm_address=entry["master"], gm_password=UNSET, seed=int(entry["seed"]),
                    settings=dict(entry["settings"]) | {archive.CONSENT: list(record["confirmed"])},
                    phase=entry["phase"], deadline=moment(entry["deadline"]),
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
        session.flush()
        phases = [PhaseRow(game_id=game.id, name=phase["name"], position=phase["position"], seed=int(phase["seed"]),
                           status=phase["status"], result=phase["result"], notices=phase["notices"],
                           opened_at=moment(phase["opened_at"]), processed_at=moment(phase["processed_at"]))
                  for phase in record["phases"]]
        checked(session, game, record, phases)  # before the phases are written: writing one reads it
        session.add_all(phases)
        sent = [{"game_id": game.id, "phase": phase["name"], "seat": row["seat"], "kind": row["kind"],
                 "text": row["text"], "parsed": row["parsed"], "created_at": moment(row["created_at"]),
                 "accepted_at": moment(row["accepted_at"])}
                for phase in record["phases"] for row in phase["submissions"]]
        if sent:
            session.execute(insert(Submission), sent)
        marked(session, game)
        received(session, game, record)
        beside(session, game, record["host"])
        sent_history(session, settings, game, record["sent"], now)
        session.flush()
    except (LookupError, TypeError, ValueError, AttributeError, IntegrityError) as exc:
        if isinstance(exc, RecordError):
            raise
        raise RecordError(f"the record cannot be imported as it is: {_said(exc)}") from None
    try:
        kind.restore(session, game, record["kind"])
        session.flush()
    except (LookupError, TypeError, ValueError, AttributeError, IntegrityError) as exc:
        raise RecordError(f"the record's kind is not what {kind.title} keeps of a game: {_said(exc)}") from None
    return game


def _said(exc: Exception) -> str:
    """What went wrong writing a record's rows, for the operator: the error's name and words."""
    return f"{type(exc).__name__} {exc.orig if isinstance(exc, IntegrityError) else exc}"


def marked(session: Session, game: Game) -> None:
    """A ROLLBACK's marks given back in this judge's ids: the record names the last submission
    before it by how many of its phase's submissions came up to it (`archive.settings_of`)."""
    marks = game.settings.get(ROLLBACK)
    if not isinstance(marks, dict) or not isinstance(marks.get("submission"), int):
        return
    ids = list(session.scalars(select(Submission.id).where(Submission.game_id == game.id,
                                                           Submission.phase == marks.get("phase"))
                               .order_by(Submission.id)))
    before = marks["submission"]
    if not 0 <= before <= len(ids):
        raise RecordError(f"the record's game.settings.{ROLLBACK}.submission is {before}, but its phase "
                          f"{marks.get('phase')} has {len(ids)} submission(s)")
    last = ids[before - 1] if before else (ids[0] - 1 if ids else 0)
    game.settings = {**game.settings, ROLLBACK: {**marks, "submission": last}}


def checked(session: Session, game: Game, record: dict[str, Any], phases: list[PhaseRow]) -> None:
    """What the record's kind says of the game as written (its row and seats; its ``phases`` not
    yet): its variant and options as CREATE reads them, each seat one of the game's and no more of
    them than it takes, each phase one it could have played (`Records.check_phase`); `RecordError`
    naming the field."""
    kind = kind_of(session, game)
    readings = []
    for words in ([game.variant, *game.options], list(game.options)):
        try:
            readings.append(kind.read_create(words)[0])
        except ValueError as exc:
            readings.append(str(exc))
    if game.variant not in readings:
        raise RecordError(f"the record's game.variant and game.options are not what CREATE makes of a game of "
                          f"{kind.title}: {readings[0]}")
    seats = record["seats"]
    most = kind.capacity(game)
    if len(seats) > most:
        raise RecordError(f"the record's seats has {len(seats)} seats; a game of {kind.title} such as this one has "
                          f"at most {most}")
    named: dict[str, int] = {}
    for at, seat in enumerate(seats):
        name = seat["seat"]
        if name is None:
            if game.phase is not None:
                raise RecordError(f"the record's seats[{at}].seat is null in a game that has started")
            continue
        if name in named:
            raise RecordError(f"the record's seats[{at}].seat is {name}, as seats[{named[name]}].seat is")
        named[name] = at
        try:
            found = kind.seat(session, game, name)
        except ValueError as exc:
            raise RecordError(f"the record's seats[{at}].seat is {name}, no {kind.seat_word} of this game: "
                              f"{exc}") from None
        if found != name:
            raise RecordError(f"the record's seats[{at}].seat is {name}, where the game names it {found}")
    for at, row in enumerate(phases):
        try:
            kind.check_phase(session, game, row)
        except (ValueError, LookupError, TypeError, AttributeError) as exc:
            raise RecordError(f"the record's phases[{at}].{exc}") from None


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
            (PlayerRecord, [{"address": mailbox(row["address"]), "seat": row["seat"], "phase": row["phase"],
                             "what": row["what"],
                             # a line a ROLLBACK kept of a phase it dropped (`records.forget_from`) has none
                             "phase_row": phases.get(row["phase"]) if row["phase"] is not None else None,
                             "at": moment(row["at"])} for row in kept["player_records"]])):
        if rows:
            session.execute(insert(model), [{"game_id": game.id, **row} for row in rows])


def _compared(record: Mapping[str, Any]) -> dict[str, Any]:
    """What of a record an import must give back: the game, not what it says of its judge; its
    players' record lines by mailbox, as this judge keeps them (ruling H4: a record written before
    schema 0028 may name one person several ways)."""
    found = {key: value for key, value in record.items() if key not in ITS_OWN}
    kept = found.get("host")
    if isinstance(kept, dict) and isinstance(kept.get("player_records"), list):
        found["host"] = {**kept, "player_records": [
            {**line, "address": mailbox(line["address"])} if isinstance(line, dict) and
            isinstance(line.get("address"), str) else line for line in kept["player_records"]]}
    return found


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


def moved(session: Session, settings: Settings, game: Game, now: datetime) -> Imported:
    """Tell the game's master, players and observers that it has moved here, each as this judge's
    consent allows (see the module's header): a new password, the news alone (an observer), or
    the consent round trip (`ask`)."""
    from judge.service.templates import render

    kind = kind_of(session, game)
    title = kind.seat_title
    told: list[str] = []
    asked: list[str] = []
    watching: list[str] = []
    holders: list[tuple[Player | None, str | None, str]] = [(None, None, game.gm_address), *(
        (player, player.seat, str(player.address)) for player in host.players(session, game)
        if player.address and not player.resigned and not player.dummy)]
    for player, seat, address in holders:
        if not is_confirmed(session, address):
            ask(session, settings, game, address, seat, now,
                role="master" if player is None else "seat" if seat else "joined", title=title)
            asked.append(address)
            continue
        password = secrets.token_urlsafe(9)
        if player is None:
            game.gm_password = hash_password(password)
        else:
            player.password = hash_password(password)
        with writing_to(session, settings, address, game):  # each reader's mail in their own language
            body = render("moved", game=game, seat=seat, password=password, settings=settings,
                          title=title(seat) if seat else None, observer=False, joined=player is not None and not seat)
            outbox.queue(session, settings, to=address, subject=_("{game} has moved to this judge", game=game.name),
                         body=body, kind=outbox.MOVED, now=now, game_id=game.id)
        told.append(address)
    for address in host.observers(session, game):
        if not is_confirmed(session, address):
            ask(session, settings, game, address, None, now, role="observer", title=title)
            asked.append(address)
            continue
        with writing_to(session, settings, address, game):
            body = render("moved", game=game, seat=None, password=None, settings=settings, title=None, observer=True,
                          joined=False)
            outbox.queue(session, settings, to=address, subject=_("{game} has moved to this judge", game=game.name),
                         body=body, kind=outbox.MOVED, now=now, game_id=game.id)
        watching.append(address)
    return Imported(game.name, told, asked, watching)


def ask(session: Session, settings: Settings, game: Game, address: str, seat: str | None, now: datetime, *,
        role: str, title: Callable[[str], str]) -> None:
    """The consent round trip for an address of the game this judge has never confirmed: a token
    mailed to it alone, to send back (with the password it chooses, for a seat or the master);
    until then the game's mail to it is held (`outbox.HELD`)."""
    from judge.service.templates import render

    token = secrets.token_hex(8)
    with writing_to(session, settings, address, game):  # in the language the address chose, else the game's
        body = render("moved_confirm", game=game, seat=seat, title=title(seat) if seat else None, role=role,
                      token=token, settings=settings, expires=now + timedelta(days=TOKEN_DAYS),
                      kind=kind_of(session, game).title)
        outbox.queue(session, settings, to=address,
                     subject=_("Please confirm: {game} has moved to this judge", game=game.name), body=body,
                     kind=outbox.MOVED, now=now, game_id=game.id)
    session.add(Confirmation(token=token, address=address, kind=OBSERVER if role == "observer" else SEAT,
                             game_id=game.id, details={"role": role, "seat": seat}, created_at=now))
    session.flush()
    outbox.hold(session, address, game.id)


def command(args: Any, settings: Settings, kinds: Kinds) -> int:
    """``judge export GAME``, ``judge import FILE``, ``judge replay FILE``: what each did, or why not."""
    from judge.service.clock import now_on
    from judge.service.datadir import OperatorError, data_dir_lock
    from judge.service.outgoing.sender import deliver_pending, transport_for
    from judge.service.running.app import open_database

    try:
        if args.command == "replay":
            record = read(args.file)
            differences = played_again(record, settings, lambda own: open_database(own, kinds))
            for difference in differences:
                print(f"differs: {difference}")
            if begun_before_runs(record):
                print(OLDER)
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
                write(args.output, text, private=not (args.public or args.diplomacy))
            return 0
        with data_dir_lock(settings.data_dir, alone=True):  # a running judge would apply the mail meanwhile
            done = import_record(db, settings, read(args.file), now_on(db), replay=args.replay,
                                 open_db=lambda own: open_database(own, kinds))
            sent = deliver_pending(db, settings, transport_for(settings), now_on(db))
        print(done.summary(sent))
        return 0
    except (RecordError, OperatorError) as exc:
        print(f"judge: {exc}", file=sys.stderr)
        return 1
    except OSError as exc:
        print(f"judge: {exc}", file=sys.stderr)
        return 1


def write(path: Path, text: str, *, private: bool) -> None:
    """Write ``text`` to ``path``; a ``private`` one (a whole record: every address of the game and
    its mail) with mode 0600 whatever the umask, as the judge's database."""
    if not private:
        path.write_text(text, encoding="utf-8")
        return
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    os.fchmod(descriptor, 0o600)  # a file that was there keeps its mode otherwise
    with os.fdopen(descriptor, "w", encoding="utf-8") as file:
        file.write(text)


def read(path: Path) -> Any:
    """The JSON value in the file ``path``, read within the bounds of a record
    (`record_bounds.parse`): checked as a record by whoever uses it."""
    with path.open("rb") as file:
        size = os.fstat(file.fileno()).st_size
        if size > record_bounds.MAX_RECORD_BYTES:
            raise RecordError(f"{path} is {size:,} bytes; a judge reads records of at most "
                              f"{record_bounds.MAX_RECORD_BYTES:,} bytes")
        text = record_bounds.decoded(file.read(record_bounds.MAX_RECORD_BYTES + 1))  # the bytes dropped once read
    return record_bounds.loads(text)
