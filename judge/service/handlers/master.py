"""The game master's commands: START, SET DEADLINE, SET MOVEMENT/RETREAT/ADJUSTMENT/GRACE,
PROCESS, PAUSE, RESUME, ROLLBACK, DUMMY, TERMINATE.

Deadlines and durations are bounded (``MAX_DEADLINE_AHEAD``, and durations by the command
parser), so that no setting can make the deadline arithmetic overflow.
"""

from __future__ import annotations

from datetime import UTC, timedelta

from judge.commands import parse as cmd
from judge.service import lifecycle
from judge.service.handlers.conversation import MASTER, Conversation, handles, power_of
from judge.service.render import when

MAX_DEADLINE_AHEAD = timedelta(days=366)


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
    try:
        processed = lifecycle.process_phase(talk.session, game, talk.settings, talk.now)
    except lifecycle.GameError as exc:
        talk.echo(text, "error", str(exc))
        return
    talk.echo(text, "ok", f"{processed.phase} processed" + (f"; now {processed.next_phase}"
                                                             if processed.next_phase else ""))


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
    try:
        phase = lifecycle.rollback(talk.session, game, talk.now)
    except lifecycle.GameError as exc:
        talk.echo(text, "error", str(exc))
        return
    talk.echo(text, "ok", f"rolled back to {phase}; the game is paused: send RESUME (or PROCESS) to go on")
    talk.announce(f"the game master rolled the game back to {phase}: the position, balances, offer sheets, "
                  "orders and acceptance lists are as they were before it was processed. You may change your "
                  "sheet or orders; the game is paused until the game master resumes it")


@handles(cmd.Dummy, MASTER)
def dummy(talk: Conversation, text: str, command: cmd.Dummy) -> None:
    game = talk.context.game
    assert game is not None
    try:
        power = power_of(game, command.power)
    except ValueError as exc:
        talk.echo(text, "error", str(exc))
        return
    player = lifecycle.seats(talk.session, game).get(power)
    if player is None:
        talk.echo(text, "error", "powers are assigned when the game starts")
        return
    if player.dummy:
        talk.echo(text, "error", f"{power.title()} is already a dummy power")
        return
    player.dummy = True
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
