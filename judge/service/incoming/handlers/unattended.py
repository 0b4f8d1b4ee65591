"""The game master's settings for a game that runs without them at the keyboard, in every game:
SET CLOCK (the weekly clock, `judge.service.hosting.weekly`), SET SILENCE (the policy for silent seats,
`judge.service.hosting.silence`) and SET GATE (the entry gates on players' records,
`judge.service.hosting.records`); and anyone's GET RECORD.

Each may be set while the game forms or runs; a change to a running game is announced to its
players and observers, and START announces what is set (`judge.service.incoming.handlers.master.start`).
A change of the clock applies from the next phase of its kind on: the current deadline stays
where it is (SET DEADLINE moves it).
"""

from __future__ import annotations

from dataclasses import replace

from judge.commands import parse as cmd
from judge.commands.parse import parse_duration
from judge.service.dispatch import ANYONE, MASTER, Entry
from judge.service.hosting import ratings, records, silence
from judge.service.hosting.kinds import GameKind
from judge.service.hosting.weekly import read_rule
from judge.service.incoming.handlers.conversation import Conversation
from judge.service.rating import PROVISIONAL, Rating
from judge.service.states import GameState
from judge.service.templates import counted, duration
from judge.web.public import player_url


def set_clock(talk: Conversation, text: str, command: cmd.SetClock) -> None:
    """``SET CLOCK [phase] rule``, ``SET CLOCK [phase] OFF`` or ``SET CLOCK preset`` (the game's kind's,
    `judge.service.hosting.kinds.Phases.clock_presets`); a rule with no phase is every phase's."""
    game = talk.context.game
    assert game is not None
    kind = talk.kinds.of(game)
    words = list(command.words)
    clock = dict(game.settings.get("clock", {}))
    preset = _preset(kind, words)
    changed = list(kind.durations)  # the phase settings whose clock this changes (its news says theirs)
    try:
        if preset is not None:
            name, rules = preset
            read = {setting: read_rule(rule.split(), "UTC", talk.now.date())
                    for setting, rule in rules.items() if setting in kind.durations}
            clock = {setting: rule.data() for setting, rule in read.items()}
            said = [f"{setting} phases due {rule.words()}" for setting, rule in read.items()]
            if "grace" in rules:
                game.settings = {**game.settings, "grace": parse_duration(rules["grace"], 0.0)}
                said.append(f"a grace of {duration(game.settings['grace'])} after each deadline")
            done = f"the weekly clock {name}: " + "; ".join(said)
        else:
            setting = _setting(kind, words[0])
            settings = changed = [setting] if setting else list(kind.durations)
            rest = words[1:] if setting else words
            if [w.upper() for w in rest] == ["OFF"]:
                clock = {key: rule for key, rule in clock.items() if key not in settings}
                done = "no weekly clock" if not clock else f"no weekly clock for {', '.join(settings)} phases"
            else:
                rule = read_rule(rest, game.settings.get("zone") or "UTC", talk.now.date())
                clock |= {key: rule.data() for key in settings}
                done = f"{' and '.join(settings)} phases due {rule.words()}"
    except ValueError as exc:
        talk.echo(text, "error", str(exc), code="BAD_CLOCK")
        return
    game.settings = {key: value for key, value in game.settings.items() if key != "clock"} | (
        {"clock": clock} if clock else {})
    shown = done if clock or preset else "deadlines by the phases' lengths"
    talk.echo(text, "ok", f"{shown}, from the next phase of each kind on")
    if game.state != GameState.FORMING:
        talk.announce(f"the game master set the clock: {shown}, from the next phase of each kind on", public=True,
                      setting="clock " + " ".join(sorted(changed)))


def _preset(kind: GameKind, words: list[str]) -> tuple[str, dict[str, str]] | None:
    name = "-".join(words).upper()
    found = {key.upper(): dict(rules) for key, rules in kind.clock_presets.items()}
    return (name, found[name]) if name in found else None


def _setting(kind: GameKind, word: str) -> str | None:
    """The phase setting ``word`` names (``MOVEMENT``, ``RETREATS``), or None."""
    word = word.lower()
    return next((s for s in kind.durations if word in (s, s + "s")), None)


def set_silence(talk: Conversation, text: str, command: cmd.SetSilence) -> None:
    """``SET SILENCE ...``: the policy for silent seats, the standard one (`silence.Policy`) with
    the change asked for, or none (OFF)."""
    game = talk.context.game
    assert game is not None
    policy = silence.policy_of(game) or silence.Policy()
    if command.setting == "off":
        silence.set_policy(game, None, talk.now)
        words = "the game master handles silent seats: the judge reminds them once and waits"
    else:
        if command.setting == "daily":
            policy = replace(policy, daily=bool(command.value))
        elif command.setting == "extension":
            policy = replace(policy, extension=float(command.value or 0))
        elif command.setting == "extensions":
            policy = replace(policy, extensions=int(command.value or 0))
        elif command.setting == "abandon":
            policy = replace(policy, abandon=int(command.value or 0))
        silence.set_policy(game, policy, talk.now)
        words = policy.words()
    talk.echo(text, "ok", f"silent seats: {words}")
    if game.state != GameState.FORMING:
        talk.announce(f"the game master set how silent seats are handled: {words}", public=True, setting="silence")


def set_gate(talk: Conversation, text: str, command: cmd.SetGate) -> None:
    """``SET GATE ...``: what a player's record must show to JOIN or TAKEOVER a seat."""
    game = talk.context.game
    assert game is not None
    records.set_gate(game, command.gate, command.value)
    gates = records.gate_words(game)
    talk.echo(text, "ok", "entry gates: " + ("; ".join(gates) if gates else "none: anyone may join"))


def get_record(talk: Conversation, text: str, _: cmd.GetRecord) -> None:
    """GET RECORD: the record of the address the answer goes to, and where its public page is."""
    address = talk.mail.reply_to
    record = records.of(talk.session, address, talk.now)
    lines = [f"your record on this judge ({address}): {record.words()}", *record.numbers()]
    if url := player_url(talk.settings.web_url, records.page_name(talk.session, address)):
        lines.append(f"its public page (no address on it; share it as you like): {url}")
        calendar = player_url(talk.settings.web_url, records.page_name(talk.session, address, "calendar"), "ics")
        lines.append(f"the deadlines of every seat you hold, for your calendar (keep it to yourself): {calendar}")
    talk.echo(text, "info", "", lines)


def get_rating(talk: Conversation, text: str, command: cmd.GetRating) -> None:
    """GET RATING [address]: the sender's own ratings (overall and in each kind), or another
    person's public figures; the same answer for an address the judge has never seen as for one
    with no rated game, so that it tells no more than the hall of fame does."""
    own = command.address is None
    address = talk.mail.reply_to if command.address is None else command.address
    found = ratings.of(talk.session, address)
    whose = f"your ratings on this judge ({address})" if own else f"the ratings of {address} on this judge"
    if not found:
        lines = [f"{whose}: no rated game yet. A player is rated when a game they played ends, and the rating is "
                 f"provisional until {PROVISIONAL} rated games."]
    else:
        lines = [f"{whose}:"] + [rating_line(ratings.title(talk.kinds, kind), rating)
                                 for kind, rating in sorted(found.items())]
        lines.append(f"A rating is the skill the games show, less three times the doubt about it, read like an Elo "
                     f"rating: a newcomer starts at 1000. It is provisional until {PROVISIONAL} rated games.")
    talk.echo(text, "info", "", lines)


def rating_line(title: str, rating: Rating) -> str:
    """One rating in words: ``overall: 1234 from 7 rated games``, provisional marked."""
    games = counted(rating.games, "rated game")
    if rating.provisional:
        return f"  {title}: {rating.figure} from {games}, provisional"
    return f"  {title}: {rating.figure} from {games}"


COMMANDS = (
    Entry(cmd.SetClock, set_clock, MASTER, closed_after_the_end=True, announces=True),
    Entry(cmd.SetSilence, set_silence, MASTER, closed_after_the_end=True, announces=True),
    Entry(cmd.SetGate, set_gate, MASTER, closed_after_the_end=True),
    Entry(cmd.GetRecord, get_record, ANYONE, lookup=True),
    Entry(cmd.GetRating, get_rating, ANYONE, lookup=True),
)
"""The commands of this module, for the dispatcher (`judge.service.dispatch`)."""
