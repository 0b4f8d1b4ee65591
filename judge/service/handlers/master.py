"""The game master's commands in every game: START, SET DEADLINE, SET GRACE/REMINDER and the
lengths of the game's phases, PROCESS, PAUSE, RESUME, ROLLBACK, DUMMY, TERMINATE, SET OPENING,
APPROVE/DENY ABSENCE, SET LISTED/PRIVATE/OBSERVERS, SET PRESS.  TERMINATE, which cannot be
undone, waits for a second line with a code, as a kind's like commands do (`confirmed`: Payola's
REVEAL).  What starting, processing, rolling back
and ending a game does is its kind's (`judge.games.GameKind`); a kind may add commands of its
own (Payola's PREVIEW, ROLLFORWARD, REVEAL).

Deadlines and durations are bounded (``MAX_DEADLINE_AHEAD``, and durations by the command
parser), so that no setting can make the deadline arithmetic overflow.  What a game master may
make the judge do is bounded too, as anyone may create a game (`may_change_phase`): one
PROCESS, ROLLBACK or ROLLFORWARD per game and mail, and one PROCESS or ROLLFORWARD per mail
whatever the game (each processes a phase and draws its maps: a master of ten games would
otherwise make one mail cost ten), ``max_phase_changes_per_hour`` of them an hour per game (the
times are kept in the game's settings, ``phase_changes``), and the results a processing sends
count toward the mail's ``max_mails_per_mail``.

A PROCESS, ROLLBACK or ROLLFORWARD is meant for the phase its master saw: one accepted before the
current phase began (the phase before ended by itself as the mail was on its way, every power
having submitted) is answered so and not applied (`_crossed`), instead of processing or
rolling back a phase its master has not seen.  A master (or a script) may also name the phase
(issue 29.7): ``PROCESS S1902M`` is refused unless the game is in S1902M (`in_phase`), and
``ROLLBACK F1902M`` names the phase to go back to, as DPjudge's does (its kind refuses one it
has not processed, the phase the game is in included).

What the public may know of the master's changes to a game's clock and phases (deadlines, the
lengths of phases, PAUSE, RESUME, ROLLBACK, dummies, press options, an open seat) is announced
to its players and observers alike (``public``).  A PROCESS before the deadline is said, with
when, in every mail of the phase's closing, and kept in the game's story for SUMMARY with each
ROLLBACK and ROLLFORWARD (`judge.service.host.record`, issue 23.2).
"""

from __future__ import annotations

import secrets
from datetime import UTC, datetime, timedelta

from sqlalchemy import select

from judge import games
from judge.commands import parse as cmd
from judge.service import host, zones
from judge.service.handlers.conversation import MASTER, SIGNED_ON, Conversation, handles, masked
from judge.service.handlers.player import approve_absence
from judge.service.host import GameError
from judge.service.passwords import hash_password
from judge.service.render import duration, when
from judge.store.models import Absence, Game

MAX_DEADLINE_AHEAD = timedelta(days=366)
HOUR = timedelta(hours=1)


@handles(cmd.Start, MASTER, closed_after_the_end=True)
def start(talk: Conversation, text: str, _: cmd.Start) -> None:
    game = talk.context.game
    assert game is not None
    try:
        games.kind_of(game).start(talk.session, game, talk.settings, talk.now)
    except GameError as exc:
        talk.echo(text, "error", str(exc))
        return
    talk.opened.add(game.id)
    talk.echo(text, "ok", f"{game.name} has started: {game.phase}, deadline {when(game.deadline)}")


@handles(cmd.SetDeadline, MASTER, closed_after_the_end=True, announces=True)
def set_deadline(talk: Conversation, text: str, command: cmd.SetDeadline) -> None:
    game = talk.context.game
    assert game is not None
    if game.state not in ("active", "paused"):
        talk.echo(text, "error", "the game is not running")
        return
    if command.when.tzinfo is not None:
        deadline = command.when.astimezone(UTC).replace(tzinfo=None)
    elif (zone := game.settings.get("zone")) is None:
        deadline = command.when
    else:
        try:
            deadline = zones.in_zone(command.when, zones.zone_named(zone))
        except ValueError as exc:
            talk.echo(text, "error", str(exc))
            return
    if deadline <= talk.now:
        talk.echo(text, "error", f"that moment has passed (it is now {when(talk.now)})")
        return
    if deadline > talk.now + MAX_DEADLINE_AHEAD:
        talk.echo(text, "error", f"a deadline may be at most {MAX_DEADLINE_AHEAD.days} days ahead")
        return
    game.deadline = deadline
    talk.echo(text, "ok", f"deadline set to {when(game.deadline)}")
    talk.announce(f"the game master set the deadline of {game.phase} to {when(game.deadline)}", public=True)


@handles(cmd.SetDuration, MASTER, closed_after_the_end=True, announces=True)
def set_duration(talk: Conversation, text: str, command: cmd.SetDuration) -> None:
    """``SET <setting> hours``: GRACE and REMINDER (the host's), or the length of a kind of phase
    of the game (read by its kind's grammar: Payola's MOVEMENT, Pirates' Proposal's VOTING...)."""
    game = talk.context.game
    assert game is not None
    game.settings = {**game.settings, command.setting: command.hours}
    talk.echo(text, "ok", f"{command.setting} set to {duration(command.hours)}")
    if game.state != "forming":
        talk.announce(_duration_news(command.setting, command.hours), public=True)


@handles(cmd.Process, MASTER, closed_after_the_end=True)
def process(talk: Conversation, text: str, command: cmd.Process) -> None:
    """Close the game's phase now.  Before its deadline, every mail of the phase says so, and
    when (a player with a day left learns why its builds were waived: issue 23.2), and the
    game's story keeps it for SUMMARY."""
    game = talk.context.game
    assert game is not None
    if not in_phase(talk, text, game, command.phase):
        return
    results = may_change_phase(talk, text, "PROCESS")
    if results is None:
        return
    preface = None
    if game.state in ("active", "paused") and game.deadline is not None and talk.now < game.deadline:
        preface = (f"The game master processed {game.phase} early, {when(talk.now)}, before its deadline of "
                   f"{when(game.deadline)}.")
        host.record(game, f"processed early by the game master's PROCESS, {when(talk.now)} (deadline was "
                    f"{when(game.deadline)})")
    preface = with_news(preface, talk.take_news(game))  # one mail per reader: the results say it
    talk.announce_now(game)  # what the master did before it is told before the results
    try:
        processed = games.kind_of(game).process(talk.session, game, talk.settings, talk.now,
                                                cause="master's PROCESS", preface=preface)
    except GameError as exc:  # the game is not running: it has no deadline, and nothing was recorded
        talk.echo(text, "error", str(exc))
        return
    changed_phase(talk, "PROCESS", results)
    talk.echo(text, "ok", f"{processed.phase} processed" + (f"; now {processed.next_phase}"
                                                             if processed.next_phase else ""))


def in_phase(talk: Conversation, text: str, game: Game, phase: str | None) -> bool:
    """Whether the phase a PROCESS names (``phase``; None: it names none) is the game's; if not,
    the line is answered why not (a master acting on mail that came late, or a script, must not
    process the phase after the one it meant: issue 29.7)."""
    if phase is None or phase == (game.phase or "").upper():
        return True
    now = f"it is in {game.phase}" if game.phase else "it has not started"
    talk.echo(text, "error", f"not processed: {game.name} is not in {phase}: {now}")
    return False


def may_change_phase(talk: Conversation, text: str, word: str) -> int | None:
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
    if why := _crossed(talk, game):
        talk.echo(text, "error", f"{why}; send {word} again if you mean it for this phase")
        return None
    limit = talk.settings.max_phase_changes_per_hour
    recent = _recent_changes(game.settings, talk.now)
    if len(recent) >= limit:
        talk.echo(text, "error", f"at most {limit} PROCESS, ROLLBACK and ROLLFORWARD an hour in one game: try again "
                  f"after {when(recent[-limit] + HOUR)}")
        return None
    if word == "ROLLBACK":
        return 0
    results = games.kind_of(game).results_mails(talk.session, game)
    budget = talk.settings.max_mails_per_mail
    already = talk.mails_sent - talk.foldable(game)  # what it announced to the game goes with the results
    if already and already + results > budget:
        talk.echo(text, "error", f"this mail has already caused {already} mails and the results would be "
                  f"{results} more, over the judge's limit of {budget} a mail: send {word} in a mail of its own")
        return None
    return results


def with_news(preface: str | None, news: list[str]) -> str | None:
    """``preface`` for a phase's results, with what the game master's mail announced before its
    processing (`Conversation.take_news`) said after it."""
    said = f"Also in the game master's mail: {'; '.join(news)}." if news else None
    return " ".join(part for part in (preface, said) if part) or None


def _crossed(talk: Conversation, game: Game) -> str | None:
    """Why this mail's PROCESS, ROLLBACK or ROLLFORWARD may not change the game's phase: the
    phase began after the mail was accepted (by the clock, the phase's own end once every power
    had submitted, or another mail), so it was meant for the phase before, which has changed
    already; a master who saw nothing happen sent PROCESS just as the last sheet came in, and
    it processed the next phase, that nobody had seen.  None if it may: the phase began before
    the mail was accepted, or this very mail began it (START, then PROCESS)."""
    row = host.current_phase(talk.session, game)
    if row is None or row.opened_at <= talk.accepted or game.id in talk.opened:
        return None
    return (f"not applied: this mail was accepted {talk.accepted:%Y-%m-%d %H:%M:%S} UTC, and the game has moved on "
            f"since: {row.name} began {row.opened_at:%Y-%m-%d %H:%M:%S} UTC")


def _recent_changes(settings: dict[str, object], now: datetime) -> list[datetime]:
    """The game's phase changes by its master in the hour before ``now``, oldest first."""
    kept = settings.get("phase_changes")
    moments = [datetime.fromisoformat(str(moment)) for moment in kept] if isinstance(kept, list) else []
    return [moment for moment in moments if moment > now - HOUR]


def changed_phase(talk: Conversation, word: str, results: int) -> None:
    """Count a phase change ``word`` that went ahead: for the mail (once per game, a processing
    once, its results in its budget) and for the game's hourly limit."""
    game = talk.context.game
    assert game is not None
    talk.phase_changed.add(game.id)
    talk.processed = talk.processed or word != "ROLLBACK"
    talk.mails_sent += results
    recent = [moment.isoformat() for moment in _recent_changes(game.settings, talk.now)]
    game.settings = {**game.settings, "phase_changes": [*recent, talk.now.isoformat()]}


@handles(cmd.Pause, MASTER, closed_after_the_end=True, announces=True)
def pause(talk: Conversation, text: str, _: cmd.Pause) -> None:
    game = talk.context.game
    assert game is not None
    if game.state != "active":
        talk.echo(text, "error", "only a running game can be paused")
        return
    game.state = "paused"
    talk.echo(text, "ok", "game paused: deadlines will not fire")
    talk.announce("the game master paused the game: no deadline fires until it is resumed", public=True)


@handles(cmd.Resume, MASTER, closed_after_the_end=True, announces=True)
def resume(talk: Conversation, text: str, _: cmd.Resume) -> None:
    game = talk.context.game
    assert game is not None
    if game.state != "paused":
        talk.echo(text, "error", "the game is not paused")
        return
    game.state = "active"
    if game.deadline is not None and game.deadline < talk.now and game.phase is not None:
        game.deadline = talk.now + host.phase_duration(game, game.phase)
    talk.echo(text, "ok", f"game resumed; deadline {when(game.deadline)}")
    talk.announce(f"the game master resumed the game: the deadline of {game.phase} is {when(game.deadline)}",
                  public=True)


@handles(cmd.Rollback, MASTER, closed_after_the_end=True, announces=True)
def rollback(talk: Conversation, text: str, command: cmd.Rollback) -> None:
    """Go back to the phase before (or to the one named: the kind refuses one it cannot go back
    to), the game paused; players and observers are told, and the game's story keeps it."""
    game = talk.context.game
    assert game is not None
    if may_change_phase(talk, text, "ROLLBACK") is None:
        return
    left = game.phase
    try:
        phase, restored = games.kind_of(game).rollback(talk.session, game, talk.now, command.phase)
    except GameError as exc:
        talk.echo(text, "error", str(exc))
        return
    changed_phase(talk, "ROLLBACK", 0)
    host.record(game, f"the game master's ROLLBACK, {when(talk.now)}: back from {left} to {phase}")
    talk.echo(text, "ok", f"rolled back to {phase}; the game is paused: send RESUME (or PROCESS) to go on")
    talk.announce(f"the game master rolled the game back to {phase}: {restored}; the game is paused until the "
                  "game master resumes it", public=True)


@handles(cmd.Dummy, MASTER, closed_after_the_end=True, announces=True)
def dummy(talk: Conversation, text: str, command: cmd.Dummy) -> None:
    game = talk.context.game
    assert game is not None
    power = talk.named_seat(text, game, command.power)
    if power is None:
        return
    kind = games.kind_of(game)
    title, word = kind.seat_title(power), kind.seat_word
    player = host.seats(talk.session, game).get(power)
    if player is None:
        talk.echo(text, "error", f"{word}s are assigned when the game starts")
        return
    if player.dummy:
        talk.echo(text, "error", f"{title} is already a dummy {word}")
        return
    host.left_seat(game, player)
    player.dummy = True
    host.record(game, f"{title} made a dummy by the game master")
    talk.echo(text, "ok", f"{title} is now a dummy {word}")
    talk.announce(f"the game master made {title} a dummy {word}: its player no longer plays it",
                  also=player.address, public=True)


@handles(cmd.Terminate, MASTER, closed_after_the_end=True)
def terminate(talk: Conversation, text: str, command: cmd.Terminate) -> None:
    """End the game now and for ever; a second line with the code the first was answered with
    confirms (`confirmed`), as for REVEAL."""
    game = talk.context.game
    assert game is not None
    if game.state == "finished":
        talk.echo(text, "error", "the game has already ended")
        return
    if not confirmed(talk, text, "TERMINATE", command.code, "TERMINATE ends the game now and for ever and "
                     "publishes everything it keeps secret"):
        return
    games.kind_of(game).terminate(talk.session, game, talk.settings, talk.now, "the game master ended the game")
    talk.echo(text, "ok", "game ended; everything is published to all players")


def confirmed(talk: Conversation, text: str, word: str, code: str | None, what: str) -> bool:
    """Whether the line ``text`` (the game master's ``word``, with ``code`` if it gave one)
    confirms a command that cannot be undone (TERMINATE, REVEAL).  ``word`` alone is answered
    with ``what`` it does and a new code, kept in the game's settings (``<word>_code``), which
    ``word code`` in a later mail must repeat; a wrong code is refused, and the code is used
    once.  A slip of the pen, or a mail sent twice, never ends or reveals a game."""
    game = talk.context.game
    assert game is not None
    key = f"{word.lower()}_code"
    kept = game.settings.get(key)
    if code is None or kept is None:
        kept = secrets.token_hex(3)
        game.settings = {**game.settings, key: kept}
        talk.echo(text, "ok", f"{what}, and cannot be undone: to confirm, send {word} {kept}")
        return False
    if code.lower() != kept:
        talk.echo(text, "error", f"that is not the code of the last {word}: send {word} again for a new one")
        return False
    game.settings = {name: value for name, value in game.settings.items() if name != key}
    return True


def _duration_news(setting: str, hours: float) -> str:
    if setting == "grace":
        return f"the game master set the grace period after each deadline to {duration(hours)}"
    if setting == "reminder":
        return f"the game master set reminders to go out {duration(hours)} before each deadline"
    return f"the game master set {setting} phases to last {duration(hours)}, from the next such phase on"


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


@handles(cmd.SetZone, SIGNED_ON, closed_after_the_end=True, announces=True)
def set_zone(talk: Conversation, text: str, command: cmd.SetZone) -> None:
    """SET ZONE (the game master: the game's zone, which SET DEADLINE reads and everyone's mail is
    written in unless they chose their own) and SET MYZONE (a player: their own).  An observer
    reads the game's zone: observers do not sign on."""
    game, player = talk.context.game, talk.context.player
    assert game is not None
    if command.zone is not None:
        try:
            zones.zone_named(command.zone)
        except ValueError as exc:
            talk.echo(text, "error", str(exc))
            return
    if command.mine:
        if player is None:
            talk.echo(text, "error", "SET MYZONE is a player's: the game master's zone is the game's (SET ZONE)")
            return
        player.zone = command.zone
        where = command.zone or "the game's zone"
        talk.echo(text, "ok", f"your mail writes deadlines in {where}, with UTC beside them")
    elif not talk.context.is_master:
        talk.echo(text, "error", "only the game master sets the game's zone; yours is SET MYZONE zone")
        return
    else:
        game.settings = {key: value for key, value in game.settings.items() if key != "zone"} | (
            {"zone": command.zone} if command.zone else {})
        talk.echo(text, "ok", f"the game's zone is {command.zone or 'UTC'}: SET DEADLINE reads it, and mail writes "
                  "deadlines in it (a player's own zone first), with UTC beside them")
        if game.state != "forming":
            talk.announce(f"the game master set the game's time zone to {command.zone or 'UTC'}: deadlines are "
                          "written in it, with UTC beside them (SET MYZONE zone for your own)", public=True)
    zones.forget(talk.session)


@handles(cmd.SetPress, MASTER, closed_after_the_end=True, announces=True)
def set_press(talk: Conversation, text: str, command: cmd.SetPress) -> None:
    """A press option (`host.PressRules`), at any time the game runs (mail is applied between
    phases): the players are told the game's press options as they now are."""
    game = talk.context.game
    assert game is not None
    kind = games.kind_of(game)
    if command.setting == "between" and not kind.between_phases:
        talk.echo(text, "error", f"a game of {kind.title} has no phases between its main ones")
        return
    game.settings = {**game.settings, "press": {**game.settings.get("press", {}), command.setting: command.value}}
    now = host.rules_of(game).press.words()
    talk.echo(text, "ok", f"press: {now}")
    if game.state != "forming":
        talk.announce(f"the game master changed the press options: {now}", public=True)


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


@handles(cmd.SetOpening, MASTER, closed_after_the_end=True, announces=True)
def set_opening(talk: Conversation, text: str, command: cmd.SetOpening) -> None:
    game = talk.context.game
    assert game is not None
    power = talk.named_seat(text, game, command.power)
    if power is None:
        return
    title = games.kind_of(game).seat_title(power)
    if host.is_played(host.seats(talk.session, game).get(power)):
        talk.echo(text, "error", f"{title} has a player")
        return
    game.settings = {**game.settings, "open": sorted({*game.settings.get("open", []), power})}
    talk.echo(text, "ok", f"{title} may be taken over: TAKEOVER {power}@{game.name} password")
    talk.announce(f"{title} is open for a new player: TAKEOVER {power}@{game.name} password", public=True)


@handles(cmd.DecideAbsence, MASTER, closed_after_the_end=True)
def decide_absence(talk: Conversation, text: str, command: cmd.DecideAbsence) -> None:
    game = talk.context.game
    assert game is not None
    power = talk.named_seat(text, game, command.power)
    if power is None:
        return
    title = games.kind_of(game).seat_title(power)
    absence = talk.session.scalar(select(Absence).where(Absence.game_id == game.id, Absence.power == power,
                                                        Absence.status == "pending").order_by(Absence.id.desc()))
    if absence is None:
        talk.echo(text, "error", f"{title} has asked for no absence")
        return
    if command.approve:
        approve_absence(talk, absence)
        talk.echo(text, "ok", f"absence of {title} from {absence.start} to {absence.end} approved")
    else:
        absence.status = "denied"
        player = host.seats(talk.session, game).get(power)
        if player is not None and player.address:
            talk.send(to=player.address, subject=f"{game.name}: absence denied", kind="notice", game_id=game.id,
                      body=f"The game master denied your absence from {absence.start} to {absence.end}.\n")
        talk.echo(text, "ok", f"absence of {title} denied; {title} is told")
