"""A game's record: the whole game as one JSON document, for another judge, an archive or a
player's program (``judge export``; its format is ``docs/reference/game-record.schema.json``).

Theory of operation.  The host knows no game, so a record holds what the host keeps of every game,
whatever its kind: the game's row (settings, board, state), its seats, every phase in order with
what it started from (``position``), what happened (``result``), its seed and what each seat sent
for it (the submissions, as read, with when each was accepted), the kind's own tables as its
`Records.snapshot` gives them, what the host keeps of it beside (who sent each grey press, the
seats' absences, where each seat signed on from, its players' records), and the mail that made it
all: every mail the judge received about the game (``inbound_mail`` rows whose topic is the
game), as stored (passwords masked, see `judge.mail.redact`), with when it arrived and when it
was applied, and every run of its deadline that changed it (``deadline_runs``), in their order.
From those `judge.service.operators.replay` plays the game again on an empty judge, phase by phase; an
import (`judge.service.operators.importing`) writes the rows back, or replays them with ``--replay``.  The
mail the judge sent about the game is there too (its text, not its attachments): what each
reader was told.

Two scopes.  The *whole* record is the operator's: it holds the players' addresses (the mail
does) but never a password (the judge keeps only scrypt hashes, which are left out, and its
stored mail has every password masked; a mail quarantined with its passwords whole is left
out).  The *public* record, of a finished game only, holds what the end publication and the
public pages show: the result, who played which seat as the pages name them, each phase's public
results, each seat's scores as the hall of fame shows them (`judge.service.hosting.scores`: worked
out from the game as it is kept, so a game imported from a record of version 1, which had none,
is scored too), and the end publication as an observer reads it; no address, no mail.

The game's result and story are kept as stored wordings (`judge.language.later`), worded in each
reader's language: a record writes the result as a text in the judge's default language (``game.result``)
and keeps the stored wordings themselves in the game's settings, which an import gives back as they were.

Every record says its format's version (`SCHEMA_VERSION`) and the judge's.  A record holds no
time of its export: exporting a game twice, or exporting it again after an import, gives the same
document (ids are the record's own: mail is numbered in its order, and each deadline run says how
many of the record's mails came before it).
"""

from __future__ import annotations

import base64
from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from judge import __version__
from judge.language import gettext as _
from judge.language import reading
from judge.service.config import Settings
from judge.service.hosting import host
from judge.service.hosting.kinds import kind_of
from judge.service.hosting.scores import Scores, exact, score
from judge.service.hosting.silent_seats import DESERTED
from judge.service.outgoing import outbox
from judge.service.templates import render, seat_word
from judge.store.models import (
    Absence,
    ConfirmedAddress,
    DeadlineRun,
    Game,
    GreyPress,
    InboundMail,
    Outbox,
    PhaseRow,
    PlayerRecord,
    Signon,
    Submission,
)
from judge.web.public import GameFacts

FORMAT = "judge-game-record"
SCHEMA_VERSION = 2
"""The version of the record's format, whole and public alike; a judge reads the records of its own
version and older.  Version 2 gave the public record each seat's scores (`scores_entry`); the whole
record is as in version 1, whose scores are worked out from its game once imported."""
SETTLED = ("done", "duplicate", "automatic")
"""The mail a record holds: applied, or set aside as a copy or an automatic reply (never a mail
still waiting, nor one quarantined, whose stored copy may hold passwords)."""
CONSENT = "record_confirmed"
"""The key of an imported game's settings that keeps its record's ``confirmed``: which addresses had
confirmed on the judge it began on before its first mail (what a replay of it needs), history of
the game and no consent of this judge's; a record writes it as its ``confirmed``, not among the
game's settings."""
FORCED = "forced: "
"""How a deadline run's line starts when the operator forced it (``judge process --force``)."""
MOVED = outbox.MOVED
"""The outbox kind of the mail an import sends (new passwords, the news, requests to confirm): the
move's, not the game's."""


class RecordError(ValueError):
    """A record this judge cannot export, read or replay: the message says why, for the operator."""


def iso(moment: datetime | None) -> str | None:
    """A naive UTC moment as the record writes it: ISO 8601 with a Z."""
    return None if moment is None else moment.isoformat() + "Z"


def moment(text: str | None) -> datetime | None:
    """A moment of the record (`iso`) as the judge keeps it: naive UTC."""
    return None if text is None else datetime.fromisoformat(text.removesuffix("Z"))


def ran(session: Session, game: Game, now: datetime, what: str, forced: bool = False) -> None:
    """Keep a run of the game's deadline that changed it, after the mail settled so far (`DeadlineRun`)."""
    settled = session.scalar(select(func.max(InboundMail.id)).where(InboundMail.status != "new")) or 0
    what = ((FORCED if forced else "") + what)[:200]
    session.add(DeadlineRun(game_id=game.id, at=now, after_mail=settled, what=what))


def find(session: Session, name: str) -> Game:
    game = session.scalar(select(Game).where(Game.name == name.lower()))
    if game is None:
        raise RecordError(f"there is no game '{name}'")
    return game


def export(session: Session, settings: Settings, name: str, *, public: bool = False) -> dict[str, Any]:
    """The record of the game ``name``: whole, or ``public`` (a finished game only)."""
    game = find(session, name)
    if public:
        with reading(settings.language_default):  # its texts (the result, the publication) in the judge's language
            return public_record(session, game)
    return whole_record(session, settings, game)


def saved_game(session: Session, name: str) -> dict[str, Any]:
    """The game ``name``'s board history as the ``diplomacy`` package's saved game, where its kind
    has one (`Records.saved_game`)."""
    game = find(session, name)
    found = kind_of(session, game).saved_game(session, game)
    if found is None:
        raise RecordError(f"{game.name} is a game of {game.kind}, which has no board history in the diplomacy "
                          "package's format")
    return found


def head(game: Game, scope: str) -> dict[str, Any]:
    return {"format": FORMAT, "schema_version": SCHEMA_VERSION, "judge_version": __version__, "scope": scope}


def whole_record(session: Session, settings: Settings, game: Game) -> dict[str, Any]:
    """Everything the judge keeps of ``game`` but passwords (see the module's header)."""
    kind = kind_of(session, game)
    phases = host.all_phases(session, game)
    submissions: dict[str, list[dict[str, Any]]] = {}
    for row in session.scalars(select(Submission).where(Submission.game_id == game.id).order_by(Submission.id)):
        submissions.setdefault(row.phase, []).append({
            "seat": row.seat, "kind": row.kind, "text": row.text, "parsed": row.parsed,
            "created_at": iso(row.created_at), "accepted_at": iso(row.accepted_at)})
    mails = list(session.scalars(select(InboundMail).where(InboundMail.topic == f"game {game.name}",
                                                           InboundMail.status.in_(SETTLED))
                                 .order_by(InboundMail.id)))
    first = mails[0].received_at if mails else game.created_at
    addresses = {player.address for player in host.players(session, game) if player.address} | {game.gm_address}
    kept = game.settings.get(CONSENT)
    confirmed = sorted(kept) if isinstance(kept, list) else sorted(session.scalars(select(
        ConfirmedAddress.address).where(ConfirmedAddress.address.in_(addresses | {mail.envelope_from or ""
                                                                                  for mail in mails}),
                                        ConfirmedAddress.confirmed_at <= first)))
    with reading(settings.language_default):  # the result's text; its stored wording stays in the settings
        result = host.result_of(game)
    return head(game, "whole") | {
        "judge": {"domain": settings.domain, "mta_hostname": settings.mta_hostname,
                  "mta_authenticates": settings.mta_authenticates},
        "game": {
            "name": game.name, "kind": game.kind, "variant": game.variant, "options": list(game.options),
            "state": game.state, "phase": game.phase, "deadline": iso(game.deadline), "winner": game.winner,
            "result": result, "created_at": iso(game.created_at), "seed": game.seed,
            "master": game.gm_address, "settings": settings_of(session, game),
        },
        "seats": [{"seat": p.seat, "requested": p.requested, "address": p.address, "dummy": p.dummy,
                   "resigned": p.resigned, "joined_at": iso(p.joined_at), "preferences": p.preferences,
                   "zone": p.zone} for p in host.players(session, game)],
        "observers": sorted(host.observers(session, game)),
        "phases": [phase_entry(row, submissions.get(row.name, [])) for row in phases],
        "kind": kind.snapshot(session, game),
        "mails": [mail_entry(mail) for mail in mails],
        "deadline_runs": runs_of(session, game, [mail.id for mail in mails]),
        "confirmed": confirmed,
        "host": kept_beside(session, game),
        "sent": [{"to": row.recipient, "subject": row.subject, "kind": row.kind, "at": iso(row.created_at),
                  "body": row.body} for row in session.scalars(
                      select(Outbox).where(Outbox.game_id == game.id, Outbox.kind != MOVED).order_by(Outbox.id))],
    }


def settings_of(session: Session, game: Game) -> dict[str, Any]:
    """The game's settings as a record writes them: a ROLLBACK's marks (`judge.service.hosting.course`)
    name the last submission before it by how many of its phase's submissions came up to it, as
    a row's id is one judge's own (an import gives the mark back in its own ids)."""
    from judge.service.hosting.course import ROLLBACK  # course imports the pages, which import this module

    settings = {key: value for key, value in game.settings.items() if key != CONSENT}
    marks = settings.get(ROLLBACK)
    if not isinstance(marks, dict) or not isinstance(marks.get("submission"), int):
        return settings
    before = session.scalar(select(func.count(Submission.id)).where(
        Submission.game_id == game.id, Submission.phase == marks.get("phase"), Submission.id <= marks["submission"]))
    return {**settings, ROLLBACK: {**marks, "submission": before or 0}}


def kept_beside(session: Session, game: Game) -> dict[str, list[dict[str, Any]]]:
    """What the host keeps of the game beside its phases and its mail, each in its order: who
    sent each grey press (its end publishes them), the seats' absences, the sources each seat
    signed on from, and its players' records (on time, late, missed: what a JOIN shows)."""
    def rows(model: Any) -> list[Any]:
        return list(session.scalars(select(model).where(model.game_id == game.id).order_by(model.id)))

    return {
        "grey_press": [{"phase": row.phase, "sent_at": iso(row.sent_at), "author": row.author, "readers": row.readers}
                       for row in rows(GreyPress)],
        "absences": [{"seat": row.seat, "start": row.start.isoformat(), "end": row.end.isoformat(),
                      "status": row.status, "created_at": iso(row.created_at)} for row in rows(Absence)],
        "signons": [{"who": row.who, "source": row.source, "network": row.network, "at": iso(row.at)}
                    for row in rows(Signon)],
        "player_records": [{"address": row.address, "seat": row.seat, "phase": row.phase, "what": row.what,
                            "at": iso(row.at)} for row in rows(PlayerRecord)],
    }


def phase_entry(row: PhaseRow, sent: list[dict[str, Any]]) -> dict[str, Any]:
    """A phase as the whole record holds it, and as a replay compares it."""
    return {"name": row.name, "status": row.status, "seed": row.seed, "opened_at": iso(row.opened_at),
            "processed_at": iso(row.processed_at), "position": row.position, "result": row.result,
            "notices": row.notices, "submissions": sent}


def mail_entry(mail: InboundMail) -> dict[str, Any]:
    """A received mail: as stored (text if it is UTF-8, else base64), when it arrived and was
    applied, and what became of it; ``pruned`` if ``judge prune`` dropped its copy."""
    raw = bytes(mail.raw or b"")
    try:
        text, encoding = raw.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        text, encoding = base64.b64encode(raw).decode("ascii"), "base64"
    return {"received_at": iso(mail.received_at), "processed_at": iso(mail.processed_at), "status": mail.status,
            "envelope_from": mail.envelope_from, "raw": text, "encoding": encoding, "pruned": not raw}


def raw_of(entry: Mapping[str, Any]) -> bytes:
    """A record's mail's bytes, as the judge stored them."""
    text = str(entry["raw"])
    return base64.b64decode(text) if entry.get("encoding") == "base64" else text.encode("utf-8")


def runs_of(session: Session, game: Game, mail_ids: list[int]) -> list[dict[str, Any]]:
    """The game's deadline runs that changed it, each with how many of the record's mails came
    before it (``after``).  A game older than the table has none: its phases' closing times stand
    in for the runs that closed them (`judge.service.operators.replay`)."""
    found = []
    for run in session.scalars(select(DeadlineRun).where(DeadlineRun.game_id == game.id).order_by(DeadlineRun.id)):
        after = sum(1 for mail_id in mail_ids if mail_id <= run.after_mail)
        found.append({"at": iso(run.at), "after": after, "what": run.what})
    return found


def public_record(session: Session, game: Game) -> dict[str, Any]:
    """What a finished game's end publication and its public pages show, as one document: the
    options its game master set apart from its kind's defaults, who shared its draw, who played
    each seat as the pages name them (`judge.service.hosting.host.public_name`), all as its kind's facts
    say them, and each seat's scores (`scored`)."""
    if game.state != "finished":
        raise RecordError(f"{game.name} has not ended: its public record is written once it has")
    kind = kind_of(session, game)
    facts = kind.facts(session, game, acting=False)
    processed = host.processed_phases(session, game)
    return head(game, "public") | {
        "game": {"name": game.name, "kind": game.kind, "variant": game.variant, "options": list(facts.options),
                 "defaults": list(facts.defaults), "state": game.state, "winner": game.winner,
                 "result": host.result_of(game), "drawn": list(facts.drawn),
                 "started": iso(processed[0].opened_at) if processed else None,
                 "ended": iso(processed[-1].processed_at) if processed else None},
        "seats": [{"seat": seat.name, "title": kind.seat_title(seat.name), "played_by": seat.played_by}
                  for seat in facts.seats],
        "phases": [{"name": row.name, "opened_at": iso(row.opened_at), "processed_at": iso(row.processed_at),
                    "results": kind.public_results(session, game, row)} for row in processed],
        "scores": scores_entry(scored(session, game, facts)),
        "publication": publication_text(session, game),
    }


def scored(session: Session, game: Game, facts: GameFacts) -> Scores:
    """A finished game's scores (`judge.service.hosting.scores`) from its kind's standings and how
    it ended; none for a game that ended deserted (ruling H1), which ranks nobody."""
    standings = [] if game.settings.get(DESERTED) else kind_of(session, game).standings(session, game)
    return score(standings, facts.winner, facts.drawn)


def scores_entry(scores: Scores) -> dict[str, Any]:
    """The scores as the public record writes them: whom Draw-Size Scoring shared its points among
    (None where the kind has no centres), then each seat, best first, its figures rounded to four
    decimals (`judge.service.hosting.scores.exact`)."""
    return {"dss_shared_by": scores.basis.value if scores.basis else None,
            "seats": [{"seat": s.seat, "place": s.place, "centres": s.centres, "money": s.money,
                       "dss": exact(s.dss), "sos": exact(s.sos), "c_diplo": exact(s.c_diplo)}
                      for s in scores.seats]}


def publication_text(session: Session, game: Game) -> str:
    """The end publication of a finished game as anyone may read it (what its observers were
    mailed, `judge.service.hosting.course.publish`): the result, what the rules kept secret, the grey
    press's authors and that a player held each seat."""
    from judge.service.hosting.course import grey_press  # course imports the pages, which import this module

    kind = kind_of(session, game)
    order = {seat: at for at, seat in enumerate(kind.seat_order(session, game))}
    who = sorted(host.who_played(session, game, "anyone"), key=lambda held: order.get(held[0], len(order)))
    result = host.result_of(game) or _("the game has ended")
    return render("end", game=game, headline=_("has ended: {result}", result=result),
                  preface=None, publication=kind.publication(session, game),
                  grey=grey_press(session, game, kind.seat_title),
                  who=[(kind.seat_title(seat), held) for seat, held in who], seat_word=seat_word(kind.seat_word))


def strings(value: Any) -> Iterable[str]:
    """Every string in a JSON value, keys too (for the tests of what a record may hold)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, Mapping):
        for key, item in value.items():
            yield str(key)
            yield from strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from strings(item)
