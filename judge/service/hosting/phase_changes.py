"""What the game master may make a game's phase do in one mail, whatever the kind: the host's
service behind PROCESS, ROLLBACK, ROLLFORWARD and the commands that cannot be undone.

What a game master may make the judge do is bounded, as anyone may create a game
(`may_change_phase`): one PROCESS, ROLLBACK or ROLLFORWARD per game and mail, and one PROCESS or
ROLLFORWARD per mail whatever the game (each processes a phase and draws its maps: a master of
ten games would otherwise make one mail cost ten), ``max_phase_changes_per_hour`` of them an
hour per game (the times are kept in the game's settings, ``phase_changes``), and the results a
processing sends count toward the mail's ``max_mails_per_mail``, what the same mail announced
to the game said in them (`with_news`).

A PROCESS, ROLLBACK or ROLLFORWARD is meant for the phase its master saw: one accepted before the
current phase began (the phase before ended by itself as the mail was on its way, every power
having submitted) is answered so and not applied (`_crossed`), instead of processing or rolling
back a phase its master has not seen.  A command that cannot be undone (TERMINATE, a kind's
REVEAL) waits for a second line with a code (`confirmed`).
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Protocol

from sqlalchemy.orm import Session

from judge.language import gettext as _
from judge.mail.received import not_before
from judge.service.config import Settings
from judge.service.hosting import host
from judge.service.hosting.kinds import kind_of
from judge.service.hosting.turn import Said, said
from judge.service.templates import when
from judge.store.models import Game


class Changing(Protocol):
    """The mail that changes a game's phase, as this service sees it (the host's conversation,
    `judge.service.incoming.handlers.conversation.Conversation`): what it has done so far this mail."""

    session: Session
    settings: Settings
    now: datetime
    accepted: datetime
    mails_sent: int
    phase_changed: set[int]  # the games whose phase this mail changed
    opened: set[int]  # the games this mail started
    processed: bool  # whether it processed a phase
    check: bool  # whether the mail is a check (CHECK): nothing of it is kept

    @property
    def game(self) -> Game | None: ...

    def echo(self, text: str, outcome: str, message: str = "", extra: list[str] | None = None,
             code: str | None = None) -> int: ...

    def foldable(self, game: Game) -> int: ...


HOUR = timedelta(hours=1)


def in_phase(talk: Changing, text: str, game: Game, phase: str | None) -> bool:
    """Whether the phase a PROCESS names (``phase``; None: it names none) is the game's; if not,
    the line is answered why not (a master acting on mail that came late, or a script, must not
    process the phase after the one it meant: issue 29.7)."""
    if phase is None or phase == (game.phase or "").upper():
        return True
    said = (_("not processed: {game} is not in {phase}: it is in {current}", game=game.name, phase=phase,
              current=game.phase) if game.phase else
            _("not processed: {game} is not in {phase}: it has not started", game=game.name, phase=phase))
    talk.echo(text, "error", said, code="WRONG_PHASE")
    return False


def may_change_phase(talk: Changing, text: str, word: str) -> int | None:
    """How many mails the change ``word`` (PROCESS, ROLLBACK, ROLLFORWARD) of the signed-on
    game's phase will send, if it may go ahead; None after answering the line why not.

    Once per game and mail, a processing (PROCESS, ROLLFORWARD) once per mail; at most
    ``max_phase_changes_per_hour`` an hour per game; and a processing's results (one mail per
    played power and observer, and the chart) must fit in what is left of the mail's
    ``max_mails_per_mail``, unless the mail has queued nothing yet: a mail may always process
    one phase, whatever the game's size."""
    game = talk.game
    assert game is not None
    if game.id in talk.phase_changed:
        talk.echo(text, "error", _("one PROCESS, ROLLBACK or ROLLFORWARD per game in one mail: send it again in a "
                                   "mail of its own"), code="ONE_PER_MAIL")
        return None
    if word != "ROLLBACK" and talk.processed:
        talk.echo(text, "error", _("one PROCESS or ROLLFORWARD per mail, whatever the game: send it again in a "
                                   "mail of its own"), code="ONE_PER_MAIL")
        return None
    if why := _crossed(talk, game):
        talk.echo(text, "error", _("{why}; send {word} again if you mean it for this phase", why=why, word=word),
                  code="PHASE_CHANGED")
        return None
    limit = talk.settings.max_phase_changes_per_hour
    recent = _recent_changes(game.settings, talk.now)
    if len(recent) >= limit:
        talk.echo(text, "error", _("at most {limit} PROCESS, ROLLBACK and ROLLFORWARD an hour in one game: try again "
                                   "after {moment}", limit=limit, moment=when(recent[-limit] + HOUR)),
                  code="TOO_MANY_PHASE_CHANGES")
        return None
    if word == "ROLLBACK":
        return 0
    results = kind_of(talk.session, game).results_mails(talk.session, game)
    budget = talk.settings.max_mails_per_mail
    already = talk.mails_sent - talk.foldable(game)  # what it announced to the game goes with the results
    if already and already + results > budget:
        talk.echo(text, "error", _("this mail has already caused {already} mails and the results would be "
                                   "{results} more, over the judge's limit of {budget} a mail: send {word} in a mail "
                                   "of its own", already=already, results=results, budget=budget, word=word),
                  code="OVER_BUDGET")
        return None
    return results


def with_news(preface: Said | None, news: Sequence[Said]) -> Said | None:
    """``preface`` for a phase's results, with what the game master's mail announced before its
    processing (`Conversation.take_news`) said after it, in each reader's language."""
    if not news:
        return preface

    def told() -> str:
        also = _("Also in the game master's mail: {news}.", news="; ".join(said(line) for line in news))
        return " ".join(part for part in (said(preface) if preface is not None else "", also) if part)
    return told


def _crossed(talk: Changing, game: Game) -> str | None:
    """Why this mail's PROCESS, ROLLBACK or ROLLFORWARD may not change the game's phase: the
    phase began after the mail was accepted (by the clock, the phase's own end once every power
    had submitted, or another mail), so it was meant for the phase before, which has changed
    already; a master who saw nothing happen sent PROCESS just as the last sheet came in, and
    it processed the next phase, that nobody had seen.  None if it may: the phase began before
    the mail was accepted (or in the same second: the MTA's Received: line says no more,
    `not_before`), or this very mail began it (START, then PROCESS)."""
    row = host.current_phase(talk.session, game)
    if row is None or not_before(talk.accepted, row.opened_at) or game.id in talk.opened:
        return None
    accepted, opened = talk.accepted.strftime("%Y-%m-%d %H:%M:%S"), row.opened_at.strftime("%Y-%m-%d %H:%M:%S")
    return _("not applied: this mail was accepted {accepted} UTC, and the game has moved on since: {phase} began "
             "{opened} UTC", accepted=accepted, phase=row.name, opened=opened)


def _recent_changes(settings: dict[str, object], now: datetime) -> list[datetime]:
    """The game's phase changes by its master in the hour before ``now``, oldest first."""
    kept = settings.get("phase_changes")
    moments = [datetime.fromisoformat(str(moment)) for moment in kept] if isinstance(kept, list) else []
    return [moment for moment in moments if moment > now - HOUR]


def changed_phase(talk: Changing, word: str, results: int) -> None:
    """Count a phase change ``word`` that went ahead: for the mail (once per game, a processing
    once, its results in its budget) and for the game's hourly limit."""
    game = talk.game
    assert game is not None
    talk.phase_changed.add(game.id)
    talk.processed = talk.processed or word != "ROLLBACK"
    talk.mails_sent += results
    recent = [moment.isoformat() for moment in _recent_changes(game.settings, talk.now)]
    game.settings = {**game.settings, "phase_changes": [*recent, talk.now.isoformat()]}


def confirmed(talk: Changing, text: str, word: str, code: str | None, what: str) -> bool:
    """Whether the line ``text`` (the game master's ``word``, with ``code`` if it gave one)
    confirms a command that cannot be undone (TERMINATE, REVEAL).  ``word`` alone is answered
    with ``what`` it does and a new code, kept in the game's settings (``<word>_code``), which
    ``word code`` in a later mail must repeat; a wrong code is refused, and the code is used
    once.  A slip of the pen, or a mail sent twice, never ends or reveals a game.  A check keeps
    nothing, so it gives no code (one would be refused when sent) and says how to get one."""
    game = talk.game
    assert game is not None
    key = f"{word.lower()}_code"
    kept = game.settings.get(key)
    if (code is None or kept is None) and talk.check:
        talk.echo(text, "ok", _("{what}, and cannot be undone: to confirm it, send {word} in a mail without CHECK "
                                "for the code to send back (a check keeps nothing, a code neither)", what=what,
                                word=word), code="TO_CONFIRM")
        return False
    if code is None or kept is None:
        kept = secrets.token_hex(3)
        game.settings = {**game.settings, key: kept}
        talk.echo(text, "ok", _("{what}, and cannot be undone: to confirm, send {word} {code}", what=what, word=word,
                                code=kept), code="TO_CONFIRM")
        return False
    if code.lower() != kept:
        talk.echo(text, "error", _("that is not the code of the last {word}: send {word} again for a new one",
                                   word=word),
                  code="WRONG_CODE")
        return False
    game.settings = {name: value for name, value in game.settings.items() if name != key}
    return True
