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
ROLLBACK and ROLLFORWARD (`judge.service.hosting.host.record`, issue 23.2).
"""

from __future__ import annotations

from datetime import UTC, timedelta

from sqlalchemy import select

from judge.commands import parse as cmd
from judge.language import gettext as _
from judge.language import later, ngettext, worded
from judge.service import zones
from judge.service.dispatch import MASTER, SIGNED_ON, Entry
from judge.service.hosting import course, host, silent_seats
from judge.service.hosting.deadlines import move_to
from judge.service.hosting.phase_changes import changed_phase, confirmed, in_phase, may_change_phase, with_news
from judge.service.hosting.turn import Said
from judge.service.incoming.handlers import ahead
from judge.service.incoming.handlers.conversation import Conversation, masked
from judge.service.incoming.handlers.player import approve_absence
from judge.service.incoming.handlers.reading import news
from judge.service.options import rules_of
from judge.service.outgoing.preferences import writing_to
from judge.service.passwords import hash_password
from judge.service.states import RUNNING, Event, GameError, GameState, move
from judge.service.templates import duration, when
from judge.store.models import Absence, Game

MAX_DEADLINE_AHEAD = timedelta(days=366)


def start(talk: Conversation, text: str, _command: cmd.Start) -> None:
    game = talk.context.game
    assert game is not None
    try:
        course.start(talk.session, game, talk.settings, talk.now)
    except GameError as exc:
        talk.echo(text, "error", str(exc), code=exc.code)
        return
    talk.opened.add(game.id)
    talk.echo(text, "ok", _("{game} has started: {phase}, deadline {deadline}", game=game.name, phase=game.phase,
                            deadline=when(game.deadline)))
    if told := silent_seats.lines(talk.session, game):  # the game's clock, silent seats and gates
        rules = "; ".join(told)
        talk.announce(news(lambda: _("how {game} runs: {rules}", game=game.name, rules=rules)), public=True)


def set_deadline(talk: Conversation, text: str, command: cmd.SetDeadline) -> None:
    game = talk.context.game
    assert game is not None
    if game.state not in RUNNING:
        talk.echo(text, "error", _("the game is not running"), code="NOT_RUNNING")
        return
    if command.when.tzinfo is not None:
        deadline = command.when.astimezone(UTC).replace(tzinfo=None)
    elif (zone := game.settings.get("zone")) is None:
        deadline = command.when
    else:
        try:
            deadline = zones.in_zone(command.when, zones.zone_named(zone))
        except ValueError as exc:
            talk.echo(text, "error", str(exc), code="NO_SUCH_TIME")
            return
    if deadline <= talk.now:
        talk.echo(text, "error", _("that moment has passed (it is now {now})", now=when(talk.now)), code="IN_THE_PAST")
        return
    if deadline > talk.now + MAX_DEADLINE_AHEAD:
        talk.echo(text, "error", ngettext("a deadline may be at most {count} day ahead",
                                          "a deadline may be at most {count} days ahead", MAX_DEADLINE_AHEAD.days),
                  code="TOO_FAR_AHEAD")
        return
    move_to(game, deadline, talk.now)
    written, phase = when(game.deadline), game.phase
    talk.echo(text, "ok", _("deadline set to {deadline}", deadline=written))
    talk.announce(news(lambda: _("the game master set the deadline of {phase} to {deadline}", phase=phase,
                                 deadline=written)), public=True, setting="deadline")


def set_duration(talk: Conversation, text: str, command: cmd.SetDuration) -> None:
    """``SET <setting> hours``: GRACE and REMINDER (the host's), or the length of a kind of phase
    of the game (read by its kind's grammar: Payola's MOVEMENT, Pirates' Proposal's VOTING...)."""
    game = talk.context.game
    assert game is not None
    game.settings = {**game.settings, command.setting: command.hours}
    talk.echo(text, "ok", _("{setting} set to {duration}", setting=command.setting, duration=duration(command.hours)))
    if game.state != GameState.FORMING:
        setting, hours = command.setting, command.hours
        talk.announce(news(lambda: _duration_news(setting, hours)), public=True, setting=setting)


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
    preface: Said | None = None
    if game.state in RUNNING and game.deadline is not None and talk.now < game.deadline:
        phase, at, deadline = game.phase, talk.now, game.deadline
        preface = news(lambda: _("The game master processed {phase} early, {now}, before its deadline of {deadline}.",
                                 phase=phase, now=when(at), deadline=when(deadline)))
        host.record(game, later("processed early by the game master's PROCESS, {moment} (deadline was {deadline})",
                                moment=when(at), deadline=when(deadline)))
    preface = _folded(talk, game, preface)  # one mail per reader: the results say it
    talk.announce_now(game)  # what the master did before it is told before the results
    try:
        processed = course.close(talk.session, game, talk.settings, talk.now, cause="master's PROCESS",
                                 preface=preface)
    except GameError as exc:  # the game is not running: it has no deadline, and nothing was recorded
        talk.echo(text, "error", str(exc), code=exc.code)
        return
    ahead.opened(talk.session, game, talk.settings, talk.now)
    changed_phase(talk, "PROCESS", results)
    if processed.next_phase:
        talk.echo(text, "ok", _("{phase} processed; now {next}", phase=processed.phase, next=processed.next_phase))
    else:
        talk.echo(text, "ok", _("{phase} processed", phase=processed.phase))


def _folded(talk: Conversation, game: Game, preface: Said | None) -> Said | None:
    """``preface`` for the results of the phase this mail closes, with what it announced to ``game`` said in
    them instead of in mails of their own (`Telling.take_news`), in each reader's language."""
    return with_news(preface, talk.take_news(game))


def _moved(talk: Conversation, text: str, event: Event, refusal: str, code: str) -> Game | None:
    """The master's game, moved by ``event`` (PAUSE, RESUME); None, and ``refusal`` the answer, if its
    state does not take the event (`judge.service.states.TRANSITIONS`)."""
    game = talk.context.game
    assert game is not None
    try:
        move(game, event)
    except GameError:
        talk.echo(text, "error", refusal, code=code)
        return None
    return game


def pause(talk: Conversation, text: str, _command: cmd.Pause) -> None:
    if _moved(talk, text, Event.PAUSE, _("only a running game can be paused"), "NOT_RUNNING") is None:
        return
    talk.echo(text, "ok", _("game paused: deadlines will not fire"))
    talk.announce(news(lambda: _("the game master paused the game: no deadline fires until it is resumed")),
                  public=True)


def resume(talk: Conversation, text: str, _command: cmd.Resume) -> None:
    game = _moved(talk, text, Event.RESUME, _("the game is not paused"), "NOT_PAUSED")
    if game is None:
        return
    if game.deadline is not None and game.deadline < talk.now and game.phase is not None:
        move_to(game, host.phase_deadline(talk.session, game, game.phase, talk.now), talk.now)
    deadline, phase = when(game.deadline), game.phase
    talk.echo(text, "ok", _("game resumed; deadline {deadline}", deadline=deadline))
    talk.announce(news(lambda: _("the game master resumed the game: the deadline of {phase} is {deadline}",
                                 phase=phase, deadline=deadline)), public=True)


def rollback(talk: Conversation, text: str, command: cmd.Rollback) -> None:
    """Go back to the phase before (or to the one named: the kind refuses one it cannot go back
    to), the game paused; players and observers are told, and the game's story keeps it."""
    game = talk.context.game
    assert game is not None
    if may_change_phase(talk, text, "ROLLBACK") is None:
        return
    left = game.phase
    try:
        phase = course.roll_back(talk.session, game, talk.settings, talk.now, command.phase)
    except GameError as exc:
        talk.echo(text, "error", str(exc), code=exc.code)
        return
    ahead.rolled_back(talk.session, game, talk.settings, talk.now)
    changed_phase(talk, "ROLLBACK", 0)
    host.record(game, later("the game master's ROLLBACK, {moment}: back from {left} to {phase}", moment=when(talk.now),
                            left=str(left), phase=phase))
    talk.echo(text, "ok", _("rolled back to {phase}; the game is paused: send RESUME (or PROCESS) to go on",
                            phase=phase))
    restored = talk.kinds.of(game).restored
    talk.announce(news(lambda: _("the game master rolled the game back to {phase}: {restored}; the game is paused "
                                 "until the game master resumes it", phase=phase, restored=worded(restored))),
                  public=True)


def rollforward(talk: Conversation, text: str, _command: cmd.Rollforward) -> None:
    """Undo a ROLLBACK: process the phase again as it was, refused once anything changed since
    (`course.roll_forward`).  Players and observers are told before the results come, in a notice
    naming the phase as the game is in it; the game's story keeps it."""
    game = talk.context.game
    assert game is not None
    results = may_change_phase(talk, text, "ROLLFORWARD")
    if results is None:
        return
    try:
        phase = course.rolling_forward(talk.session, game)
    except GameError as exc:
        talk.echo(text, "error", str(exc), code=exc.code)
        return
    host.record(game, later("the game master's ROLLFORWARD, {moment}: {phase} processed again as it was rolled back",
                            moment=when(talk.now), phase=phase))
    talk.announce(news(lambda: _("the game master undid the rollback of {phase}: it is processed again now, as it was "
                                 "when it was rolled back (nobody has changed anything since)", phase=phase)),
                  public=True)
    preface = _folded(talk, game, None)
    talk.announce_now(game)
    processed = course.roll_forward(talk.session, game, talk.settings, talk.now, preface=preface)
    ahead.opened(talk.session, game, talk.settings, talk.now)
    changed_phase(talk, "ROLLFORWARD", results)
    if processed.next_phase:
        talk.echo(text, "ok", _("{phase} processed again as it was at the ROLLBACK; now {next}",
                                phase=processed.phase, next=processed.next_phase))
    else:
        talk.echo(text, "ok", _("{phase} processed again as it was at the ROLLBACK", phase=processed.phase))


def dummy(talk: Conversation, text: str, command: cmd.Dummy) -> None:
    game = talk.context.game
    assert game is not None
    power = talk.named_seat(text, game, command.power)
    if power is None:
        return
    kind = talk.kinds.of(game)
    title = kind.seat_title(power)
    player = host.seats(talk.session, game).get(power)
    if player is None:
        talk.echo(text, "error", _("seats are assigned when the game starts"),
                  code="NOT_STARTED")
        return
    if player.dummy:
        talk.echo(text, "error", _("{seat} is already a dummy", seat=title), code="ALREADY_DUMMY")
        return
    host.left_seat(game, player)
    player.dummy = True
    host.record(game, later("{seat} made a dummy by the game master", seat=title))
    talk.echo(text, "ok", _("{seat} is now a dummy", seat=title))
    talk.announce(news(lambda: _("the game master made {seat} a dummy: its player no longer plays it", seat=title)),
                  also=player.address, public=True)


def terminate(talk: Conversation, text: str, command: cmd.Terminate) -> None:
    """End the game now and for ever; a second line with the code the first was answered with
    confirms (`confirmed`), as for REVEAL."""
    game = talk.context.game
    assert game is not None
    if game.state == GameState.FINISHED:
        talk.echo(text, "error", _("the game has already ended"), code="GAME_ENDED")
        return
    if not confirmed(talk, text, "TERMINATE", command.code, _("TERMINATE ends the game now and for ever and "
                                                              "publishes what its rules keep secret until the end")):
        return
    published = course.terminate(talk.session, game, talk.settings, talk.now, later("the game master ended the game"))
    talk.echo(text, "ok", _("game ended") if published is None else _(
        "game ended; its end's publication is mailed to everyone who played, the game master and the observers, and "
        "says: {intro}", intro=published.intro))


def _duration_news(setting: str, hours: float) -> str:
    if setting == "grace":
        return _("the game master set the grace period after each deadline to {duration}", duration=duration(hours))
    if setting == "reminder":
        return _("the game master set reminders to go out {duration} before each deadline", duration=duration(hours))
    return _("the game master set {setting} phases to last {duration}, from the next such phase on", setting=setting,
             duration=duration(hours))


def set_flag(talk: Conversation, text: str, command: cmd.SetFlag) -> None:
    game = talk.context.game
    assert game is not None
    if command.flag == "listed":
        game.settings = {**game.settings, "unlisted": not command.on}
        talk.echo(text, "ok", _("{game} is listed by LIST", game=game.name) if command.on
                  else _("{game} is no longer listed by LIST", game=game.name))
    else:
        game.settings = {**game.settings, "observers": command.on}
        talk.echo(text, "ok", _("observers are allowed") if command.on else _("observers are no longer sent anything"))


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
            talk.echo(text, "error", str(exc), code="BAD_ZONE")
            return
    if command.mine:
        if player is None:
            talk.echo(text, "error", _("SET MYZONE is a player's: the game master's zone is the game's (SET ZONE)"),
                      code="PLAYER_ONLY")
            return
        player.zone = command.zone
        if command.zone:
            said = _("your mail writes deadlines in {zone}, with UTC beside them", zone=command.zone)
        else:
            said = _("your mail writes deadlines in the game's zone, with UTC beside them")
        talk.echo(text, "ok", said + _deadline_now(game))
    elif not talk.context.is_master:
        talk.echo(text, "error", _("only the game master sets the game's zone; yours is SET MYZONE zone"),
                  code="MASTER_ONLY")
        return
    else:
        game.settings = {key: value for key, value in game.settings.items() if key != "zone"} | (
            {"zone": command.zone} if command.zone else {})
        zone = command.zone or "UTC"
        talk.echo(text, "ok", _("the game's zone is {zone}: SET DEADLINE reads it, and mail writes deadlines in it (a "
                                "player's own zone first), with UTC beside them", zone=zone) + _deadline_now(game))
        if game.state != GameState.FORMING:
            talk.announce(news(lambda: _("the game master set the game's time zone to {zone}: deadlines are written in "
                                         "it, with UTC beside them (SET MYZONE zone for your own)", zone=zone)),
                          public=True, setting="zone")
    zones.forget(talk.session)


def _deadline_now(game: Game) -> str:
    """The end of SET ZONE's and SET MYZONE's answer: the phase's deadline, which the reply writes in
    the zone just set (`zones.localize`: the zones are read again), so that its reader sees it as
    their mail will write it; nothing when the game has none."""
    if game.deadline is None or game.phase is None or game.state not in RUNNING:
        return ""
    return _("; the deadline of {phase} is {deadline}", phase=game.phase, deadline=when(game.deadline))


def set_press(talk: Conversation, text: str, command: cmd.SetPress) -> None:
    """A press option (`host.PressRules`), at any time the game runs (mail is applied between
    phases): the players are told the game's press options as they now are."""
    game = talk.context.game
    assert game is not None
    kind = talk.kinds.of(game)
    if command.setting == "between" and not kind.between_phases:
        talk.echo(text, "error", _("a game of {kind} has no phases between its main ones", kind=kind.title),
                  code="NO_PHASES_BETWEEN")
        return
    game.settings = {**game.settings, "press": {**game.settings.get("press", {}), command.setting: command.value}}
    now = rules_of(game).press.words()
    talk.echo(text, "ok", _("press: {options}", options=now))
    if game.state != GameState.FORMING:
        talk.announce(news(lambda: _("the game master changed the press options: {options}", options=now)),
                      public=True, setting="press")


def set_private(talk: Conversation, text: str, command: cmd.SetPrivate) -> None:
    game = talk.context.game
    assert game is not None
    if command.key is None:
        game.settings = {key: value for key, value in game.settings.items() if key != "join_key"}
        talk.echo(text, "ok", _("anyone may JOIN {game}", game=game.name))
    else:
        game.settings = {**game.settings, "join_key": hash_password(command.key)}
        talk.echo(masked(text, command.key), "ok", _("players must JOIN with KEY and this key"))


def set_opening(talk: Conversation, text: str, command: cmd.SetOpening) -> None:
    game = talk.context.game
    assert game is not None
    power = talk.named_seat(text, game, command.power)
    if power is None:
        return
    kind = talk.kinds.of(game)
    title = kind.seat_title(power)
    if host.is_played(host.seats(talk.session, game).get(power)):
        talk.echo(text, "error", _("{seat} has a player", seat=title), code="HAS_A_PLAYER")
        return
    if gone := kind.no_new_player(talk.session, game, power):
        talk.echo(text, "error", gone, code="LEFT_THE_GAME")
        return
    game.settings = {**game.settings, "open": sorted({*game.settings.get("open", []), power})}
    written = host.command_name(power)
    takeover = f"TAKEOVER {written}@{game.name} password"
    talk.echo(text, "ok", _("{seat} may be taken over: {takeover}", seat=title, takeover=takeover))
    talk.announce(news(lambda: _("{seat} is open for a new player: {takeover}", seat=title, takeover=takeover)),
                  public=True)


def decide_absence(talk: Conversation, text: str, command: cmd.DecideAbsence) -> None:
    game = talk.context.game
    assert game is not None
    power = talk.named_seat(text, game, command.power)
    if power is None:
        return
    title = talk.kinds.of(game).seat_title(power)
    absence = talk.session.scalar(select(Absence).where(Absence.game_id == game.id, Absence.seat == power,
                                                        Absence.status == "pending").order_by(Absence.id.desc()))
    if absence is None:
        talk.echo(text, "error", _("{seat} has asked for no absence", seat=title), code="NO_ABSENCE")
        return
    if command.approve:
        approve_absence(talk, absence)
        talk.echo(text, "ok", _("absence of {seat} from {start} to {end} approved", seat=title, start=absence.start,
                                end=absence.end))
    else:
        absence.status = "denied"
        player = host.seats(talk.session, game).get(power)
        if player is not None and player.address:
            with writing_to(talk.session, talk.settings, player.address, game):  # the player's mail, in theirs
                body = _("The game master denied your absence from {start} to {end}.", start=absence.start,
                         end=absence.end)
                talk.send(to=player.address, subject=_("{game}: absence denied", game=game.name), kind="notice",
                          game_id=game.id, body=body + "\n")
        talk.echo(text, "ok", _("absence of {seat} denied; {seat} is told", seat=title))


COMMANDS = (
    Entry(cmd.Start, start, MASTER, closed_after_the_end=True),
    Entry(cmd.SetDeadline, set_deadline, MASTER, closed_after_the_end=True, announces=True),
    Entry(cmd.SetDuration, set_duration, MASTER, closed_after_the_end=True, announces=True),
    Entry(cmd.Process, process, MASTER, closed_after_the_end=True),
    Entry(cmd.Pause, pause, MASTER, closed_after_the_end=True, announces=True),
    Entry(cmd.Resume, resume, MASTER, closed_after_the_end=True, announces=True),
    Entry(cmd.Rollback, rollback, MASTER, closed_after_the_end=True, announces=True),
    Entry(cmd.Rollforward, rollforward, MASTER, closed_after_the_end=True, announces=True),
    Entry(cmd.Dummy, dummy, MASTER, closed_after_the_end=True, announces=True),
    Entry(cmd.Terminate, terminate, MASTER, closed_after_the_end=True),
    Entry(cmd.SetFlag, set_flag, MASTER),
    Entry(cmd.SetZone, set_zone, SIGNED_ON, closed_after_the_end=True, announces=True),
    Entry(cmd.SetPress, set_press, MASTER, closed_after_the_end=True, announces=True),
    Entry(cmd.SetPrivate, set_private, MASTER),
    Entry(cmd.SetOpening, set_opening, MASTER, closed_after_the_end=True, announces=True),
    Entry(cmd.DecideAbsence, decide_absence, MASTER, closed_after_the_end=True),
)
"""The commands of this module, for the dispatcher (`judge.service.dispatch`)."""
