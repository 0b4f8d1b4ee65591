"""The game master's commands: START, SET DEADLINE, SET MOVEMENT/RETREAT/ADJUSTMENT/GRACE,
PROCESS, PAUSE, RESUME, ROLLBACK, DUMMY, TERMINATE.

Deadlines and durations are bounded (``MAX_DEADLINE_AHEAD``, and durations by the command
parser), so that no setting can make the deadline arithmetic overflow.  What a game master may
make the judge do is bounded too, as anyone may create a game (`_may_change_phase`): one
PROCESS, ROLLBACK or ROLLFORWARD per game and mail, and one PROCESS or ROLLFORWARD per mail
whatever the game (each processes a phase and draws its maps: a master of ten games would
otherwise make one mail cost ten), ``max_phase_changes_per_hour`` of them an hour per game (the
times are kept in the game's settings, ``phase_changes``), and the results a processing sends
count toward the mail's ``max_mails_per_mail``.
"""

from __future__ import annotations

import secrets
from dataclasses import replace
from datetime import UTC, datetime, timedelta

from sqlalchemy import func, select

from judge.commands import parse as cmd
from judge.mail.outbound import Attachment
from judge.service import lifecycle
from judge.service.handlers.conversation import MASTER, Conversation, handles, masked
from judge.service.handlers.player import approve_absence
from judge.service.passwords import hash_password
from judge.service.render import when
from judge.store.models import Absence, Outbox

MAX_DEADLINE_AHEAD = timedelta(days=366)
HOUR = timedelta(hours=1)


@handles(cmd.Start, MASTER)
def start(talk: Conversation, text: str, _: cmd.Start) -> None:
    game = talk.context.game
    assert game is not None
    try:
        lifecycle.start_game(talk.session, game, talk.settings, talk.now)
    except lifecycle.GameError as exc:
        talk.echo(text, "error", str(exc))
        return
    talk.echo(text, "ok", f"{game.name} has started: {game.phase}, deadline {when(game.deadline)}")


@handles(cmd.SetDeadline, MASTER)
def set_deadline(talk: Conversation, text: str, command: cmd.SetDeadline) -> None:
    game = talk.context.game
    assert game is not None
    if game.state not in ("active", "paused"):
        talk.echo(text, "error", "the game is not running")
        return
    deadline = command.when.astimezone(UTC).replace(tzinfo=None)
    if deadline <= talk.now:
        talk.echo(text, "error", f"that moment has passed (it is now {when(talk.now)})")
        return
    if deadline > talk.now + MAX_DEADLINE_AHEAD:
        talk.echo(text, "error", f"a deadline may be at most {MAX_DEADLINE_AHEAD.days} days ahead")
        return
    game.deadline = deadline
    talk.echo(text, "ok", f"deadline set to {when(game.deadline)}")
    talk.announce(f"the game master set the deadline of {game.phase} to {when(game.deadline)}")


@handles(cmd.SetDuration, MASTER)
def set_duration(talk: Conversation, text: str, command: cmd.SetDuration) -> None:
    game = talk.context.game
    assert game is not None
    game.settings = {**game.settings, command.setting: command.hours}
    talk.echo(text, "ok", f"{command.setting} set to {command.hours:g} hours")
    if game.state != "forming":
        talk.announce(_duration_news(command.setting, command.hours))


@handles(cmd.Process, MASTER)
def process(talk: Conversation, text: str, _: cmd.Process) -> None:
    game = talk.context.game
    assert game is not None
    results = _may_change_phase(talk, text, "PROCESS")
    if results is None:
        return
    try:
        processed = lifecycle.process_phase(talk.session, game, talk.settings, talk.now, cause="master's PROCESS")
    except lifecycle.GameError as exc:
        talk.echo(text, "error", str(exc))
        return
    _changed_phase(talk, "PROCESS", results)
    talk.echo(text, "ok", f"{processed.phase} processed" + (f"; now {processed.next_phase}"
                                                             if processed.next_phase else ""))


def _may_change_phase(talk: Conversation, text: str, word: str) -> int | None:
    """How many mails the change ``word`` (PROCESS, ROLLBACK, ROLLFORWARD) of the signed-on
    game's phase will send, if it may go ahead; None after answering the line why not.

    Once per game and mail, a processing (PROCESS, ROLLFORWARD) once per mail; at most
    ``max_phase_changes_per_hour`` an hour per game; and a processing's results (one mail per
    played power and observer, and the chart) must fit in what is left of the mail's
    ``max_mails_per_mail``, unless the mail has queued nothing yet: a mail may always process
    one phase, whatever the game's size."""
    game = talk.context.game
    assert game is not None
    if game.id in talk.phase_changed:
        talk.echo(text, "error", "one PROCESS, ROLLBACK or ROLLFORWARD per game in one mail: send it again in a "
                  "mail of its own")
        return None
    if word != "ROLLBACK" and talk.processed:
        talk.echo(text, "error", "one PROCESS or ROLLFORWARD per mail, whatever the game: send it again in a mail "
                  "of its own")
        return None
    limit = talk.settings.max_phase_changes_per_hour
    recent = _recent_changes(game.settings, talk.now)
    if len(recent) >= limit:
        talk.echo(text, "error", f"at most {limit} PROCESS, ROLLBACK and ROLLFORWARD an hour in one game: try again "
                  f"after {when(recent[-limit] + HOUR)}")
        return None
    if word == "ROLLBACK":
        return 0
    results = lifecycle.results_mails(talk.session, game)
    budget = talk.settings.max_mails_per_mail
    if talk.mails_sent and talk.mails_sent + results > budget:
        talk.echo(text, "error", f"this mail has already caused {talk.mails_sent} mails and the results would be "
                  f"{results} more, over the judge's limit of {budget} a mail: send {word} in a mail of its own")
        return None
    return results


def _recent_changes(settings: dict[str, object], now: datetime) -> list[datetime]:
    """The game's phase changes by its master in the hour before ``now``, oldest first."""
    kept = settings.get("phase_changes")
    moments = [datetime.fromisoformat(str(moment)) for moment in kept] if isinstance(kept, list) else []
    return [moment for moment in moments if moment > now - HOUR]


def _changed_phase(talk: Conversation, word: str, results: int) -> None:
    """Count a phase change ``word`` that went ahead: for the mail (once per game, a processing
    once, its results in its budget) and for the game's hourly limit."""
    game = talk.context.game
    assert game is not None
    talk.phase_changed.add(game.id)
    talk.processed = talk.processed or word != "ROLLBACK"
    talk.mails_sent += results
    recent = [moment.isoformat() for moment in _recent_changes(game.settings, talk.now)]
    game.settings = {**game.settings, "phase_changes": [*recent, talk.now.isoformat()]}


@handles(cmd.Pause, MASTER)
def pause(talk: Conversation, text: str, _: cmd.Pause) -> None:
    game = talk.context.game
    assert game is not None
    if game.state != "active":
        talk.echo(text, "error", "only a running game can be paused")
        return
    game.state = "paused"
    talk.echo(text, "ok", "game paused: deadlines will not fire")
    talk.announce("the game master paused the game: no deadline fires until it is resumed")


@handles(cmd.Resume, MASTER)
def resume(talk: Conversation, text: str, _: cmd.Resume) -> None:
    game = talk.context.game
    assert game is not None
    if game.state != "paused":
        talk.echo(text, "error", "the game is not paused")
        return
    game.state = "active"
    if game.deadline is not None and game.deadline < talk.now:
        game.deadline = talk.now + lifecycle.phase_duration(game, game.phase or "M")
    talk.echo(text, "ok", f"game resumed; deadline {when(game.deadline)}")
    talk.announce(f"the game master resumed the game: the deadline of {game.phase} is {when(game.deadline)}")


@handles(cmd.Rollback, MASTER)
def rollback(talk: Conversation, text: str, _: cmd.Rollback) -> None:
    game = talk.context.game
    assert game is not None
    if _may_change_phase(talk, text, "ROLLBACK") is None:
        return
    try:
        phase = lifecycle.rollback(talk.session, game, talk.now)
    except lifecycle.GameError as exc:
        talk.echo(text, "error", str(exc))
        return
    _changed_phase(talk, "ROLLBACK", 0)
    talk.echo(text, "ok", f"rolled back to {phase}; the game is paused: send RESUME (or PROCESS) to go on")
    talk.announce(f"the game master rolled the game back to {phase}: the position, balances, offer sheets, "
                  "orders and acceptance lists are as they were before it was processed. You may change your "
                  "sheet or orders; the game is paused until the game master resumes it")


@handles(cmd.Dummy, MASTER)
def dummy(talk: Conversation, text: str, command: cmd.Dummy) -> None:
    game = talk.context.game
    assert game is not None
    power = talk.named_power(text, game, command.power)
    if power is None:
        return
    player = lifecycle.seats(talk.session, game).get(power)
    if player is None:
        talk.echo(text, "error", "powers are assigned when the game starts")
        return
    if player.dummy:
        talk.echo(text, "error", f"{power.title()} is already a dummy power")
        return
    player.dummy = True
    lifecycle.record(game, f"{power.title()} made a dummy by the game master")
    talk.echo(text, "ok", f"{power.title()} is now a dummy power")
    talk.announce(f"the game master made {power.title()} a dummy power: its player no longer plays it",
                  also=player.address)


@handles(cmd.Terminate, MASTER)
def terminate(talk: Conversation, text: str, _: cmd.Terminate) -> None:
    game = talk.context.game
    assert game is not None
    if game.state == "finished":
        talk.echo(text, "error", "the game has already ended")
        return
    lifecycle.finish_game(talk.session, game, talk.settings, talk.now, "the game master ended the game")
    talk.echo(text, "ok", "game ended; everything is published to all players")


def _duration_news(setting: str, hours: float) -> str:
    if setting == "grace":
        return f"the game master set the grace period after each deadline to {hours:g} hours"
    if setting == "reminder":
        return f"the game master set reminders to go out {hours:g} hours before each deadline"
    return f"the game master set {setting} phases to last {hours:g} hours, from the next such phase on"


@handles(cmd.Preview, MASTER)
def preview(talk: Conversation, text: str, _: cmd.Preview) -> None:
    """The chart the phase would have if processed now, without processing it (a savepoint is
    rolled back: nothing is kept, no mail goes out)."""
    game = talk.context.game
    assert game is not None
    if game.state not in ("active", "paused"):
        talk.echo(text, "error", "the game is not running")
        return
    phase = game.phase
    mark = talk.session.scalar(select(func.max(Outbox.id))) or 0
    savepoint = talk.session.begin_nested()
    try:  # without maps: only the chart is kept
        lifecycle.process_phase(talk.session, game, replace(talk.settings, maps=False), talk.now,
                                cause="master's PREVIEW")  # rolled back
        talk.session.flush()
        chart = talk.session.scalar(select(Outbox.body).where(Outbox.id > mark, Outbox.kind == "chart")) or ""
    finally:
        savepoint.rollback()
    preview = Attachment(f"{game.name}-{phase}-preview.txt", "text/plain", chart.encode("utf-8"))
    if not talk.attach([preview]):
        talk.echo(text, "error", talk.too_big(len(preview.data)))
        return
    talk.echo(text, "ok", f"the chart {phase} would have if processed now is attached; nothing was processed")


@handles(cmd.Rollforward, MASTER)
def rollforward(talk: Conversation, text: str, _: cmd.Rollforward) -> None:
    game = talk.context.game
    assert game is not None
    results = _may_change_phase(talk, text, "ROLLFORWARD")
    if results is None:
        return
    try:
        processed = lifecycle.rollforward(talk.session, game, talk.settings, talk.now)
    except lifecycle.GameError as exc:
        talk.echo(text, "error", str(exc))
        return
    _changed_phase(talk, "ROLLFORWARD", results)
    talk.echo(text, "ok", f"{processed.phase} processed again with its sheets as they were at the ROLLBACK")
    talk.announce(f"the game master undid the rollback: {processed.phase} was processed again with the sheets, "
                  "orders and lists it had")


@handles(cmd.Reveal, MASTER)
def reveal(talk: Conversation, text: str, command: cmd.Reveal) -> None:
    """Publish every secret of the game while it goes on; a second mail with the code confirms."""
    game = talk.context.game
    assert game is not None
    code = game.settings.get("reveal_code")
    if command.code is None or code is None:
        code = secrets.token_hex(3)
        game.settings = {**game.settings, "reveal_code": code}
        talk.echo(text, "ok", "REVEAL mails every offer sheet, acceptance list, chart and treasury of the game to "
                  f"every player now, and cannot be undone: to confirm, send REVEAL {code}")
        return
    if command.code != code:
        talk.echo(text, "error", "that is not the code of the last REVEAL: send REVEAL again for a new one")
        return
    game.settings = {key: value for key, value in game.settings.items() if key != "reveal_code"}
    game.settings = {**game.settings, "revealed": True}
    lifecycle.record(game, "the game master revealed every secret")
    lifecycle.publish_secrets(talk.session, game, talk.settings, talk.now, f"{game.name}: every secret revealed",
                              "has had its secrets revealed by the game master; the game goes on")
    talk.echo(text, "ok", "every sheet, list, chart and treasury was mailed to every player")


@handles(cmd.SetFlag, MASTER)
def set_flag(talk: Conversation, text: str, command: cmd.SetFlag) -> None:
    game = talk.context.game
    assert game is not None
    if command.flag == "listed":
        game.settings = {**game.settings, "unlisted": not command.on}
        talk.echo(text, "ok", f"{game.name} is {'listed' if command.on else 'no longer listed'} by LIST")
    else:
        game.settings = {**game.settings, "observers": command.on}
        talk.echo(text, "ok", f"observers are {'allowed' if command.on else 'no longer sent anything'}")


@handles(cmd.SetPrivate, MASTER)
def set_private(talk: Conversation, text: str, command: cmd.SetPrivate) -> None:
    game = talk.context.game
    assert game is not None
    if command.key is None:
        game.settings = {key: value for key, value in game.settings.items() if key != "join_key"}
        talk.echo(text, "ok", f"anyone may JOIN {game.name}")
    else:
        game.settings = {**game.settings, "join_key": hash_password(command.key)}
        talk.echo(masked(text, command.key), "ok", "players must JOIN with KEY and this key")


@handles(cmd.SetOpening, MASTER)
def set_opening(talk: Conversation, text: str, command: cmd.SetOpening) -> None:
    game = talk.context.game
    assert game is not None
    power = talk.named_power(text, game, command.power)
    if power is None:
        return
    if lifecycle.is_played(lifecycle.seats(talk.session, game).get(power)):
        talk.echo(text, "error", f"{power.title()} has a player")
        return
    game.settings = {**game.settings, "open": sorted({*game.settings.get("open", []), power})}
    talk.echo(text, "ok", f"{power.title()} may be taken over: TAKEOVER {power}@{game.name} password")
    talk.announce(f"{power.title()} is open for a new player: TAKEOVER {power}@{game.name} password")


@handles(cmd.DecideAbsence, MASTER)
def decide_absence(talk: Conversation, text: str, command: cmd.DecideAbsence) -> None:
    game = talk.context.game
    assert game is not None
    power = talk.named_power(text, game, command.power)
    if power is None:
        return
    absence = talk.session.scalar(select(Absence).where(Absence.game_id == game.id, Absence.power == power,
                                                        Absence.status == "pending").order_by(Absence.id.desc()))
    if absence is None:
        talk.echo(text, "error", f"{power.title()} has asked for no absence")
        return
    if command.approve:
        approve_absence(talk, absence)
        talk.echo(text, "ok", f"absence of {power.title()} from {absence.start} to {absence.end} approved")
    else:
        absence.status = "denied"
        player = lifecycle.seats(talk.session, game).get(power)
        if player is not None and player.address:
            talk.send(to=player.address, subject=f"{game.name}: absence denied", kind="notice", game_id=game.id,
                      body=f"The game master denied your absence from {absence.start} to {absence.end}.\n")
        talk.echo(text, "ok", f"absence of {power.title()} denied; {power.title()} is told")
