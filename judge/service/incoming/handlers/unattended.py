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

from collections.abc import Callable
from dataclasses import replace

from babel.lists import format_list

from judge.commands import parse as cmd
from judge.commands.parse import parse_duration
from judge.language import current, ngettext
from judge.language import gettext as _
from judge.service.dispatch import ANYONE, MASTER, Entry
from judge.service.hosting import ratings, records, silence
from judge.service.hosting.kinds import GameKind
from judge.service.hosting.weekly import Weekly, read_rule
from judge.service.incoming.handlers.conversation import Conversation
from judge.service.incoming.handlers.reading import news
from judge.service.rating import PROVISIONAL, Rating
from judge.service.states import GameState
from judge.service.templates import duration
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
    done: Callable[[], str]  # the clock in words, in the language being written (its news is said in each reader's)
    try:
        if preset is not None:
            name, rules = preset
            read = {setting: read_rule(rule.split(), "UTC", talk.now.date())
                    for setting, rule in rules.items() if setting in kind.durations}
            clock = {setting: rule.data() for setting, rule in read.items()}
            grace = None
            if "grace" in rules:
                game.settings = {**game.settings, "grace": parse_duration(rules["grace"], 0.0)}
                grace = float(game.settings["grace"])

            def done() -> str:
                return _preset_words(name, read, grace)
        else:
            setting = _setting(kind, words[0])
            settings = changed = [setting] if setting else list(kind.durations)
            rest = words[1:] if setting else words
            if [w.upper() for w in rest] == ["OFF"]:
                clock = {key: rule for key, rule in clock.items() if key not in settings}

                def done() -> str:
                    return _("no weekly clock for {settings} phases", settings=", ".join(settings))
            else:
                rule = read_rule(rest, game.settings.get("zone") or "UTC", talk.now.date())
                clock |= {key: rule.data() for key in settings}

                def done() -> str:
                    return _("{settings} phases due {rule}", settings=format_list(settings, locale=current()),
                             rule=rule.words())
    except ValueError as exc:
        talk.echo(text, "error", str(exc), code="BAD_CLOCK")
        return
    game.settings = {key: value for key, value in game.settings.items() if key != "clock"} | (
        {"clock": clock} if clock else {})
    shown = done if clock or preset else _no_clock
    talk.echo(text, "ok", _("{clock}, from the next phase of each kind on", clock=shown()))
    if game.state != GameState.FORMING:
        talk.announce(news(lambda: _("the game master set the clock: {clock}, from the next phase of each kind on",
                                     clock=shown())), public=True, setting="clock " + " ".join(sorted(changed)))


def _preset_words(name: str, read: dict[str, Weekly], grace: float | None) -> str:
    """A preset clock in words: each kind of phase's rule, and its grace."""
    said = [_("{settings} phases due {rule}", settings=setting, rule=rule.words()) for setting, rule in read.items()]
    if grace is not None:
        said.append(_("a grace of {duration} after each deadline", duration=duration(grace)))
    return _("the weekly clock {name}: {rules}", name=name, rules="; ".join(said))


def _no_clock() -> str:
    return _("deadlines by the phases' lengths")


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
    words: Callable[[], str]  # the policy in words, in the language being written (its news: each reader's)
    if command.setting == "off":
        silence.set_policy(game, None, talk.now)
        words = _no_policy
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
        words = policy.words
    talk.echo(text, "ok", _("silent seats: {policy}", policy=words()))
    if game.state != GameState.FORMING:
        talk.announce(news(lambda: _("the game master set how silent seats are handled: {policy}", policy=words())),
                      public=True, setting="silence")


def _no_policy() -> str:
    return _("the game master handles silent seats: the judge reminds them once and waits")


def set_gate(talk: Conversation, text: str, command: cmd.SetGate) -> None:
    """``SET GATE ...``: what a player's record must show to JOIN or TAKEOVER a seat."""
    game = talk.context.game
    assert game is not None
    records.set_gate(game, command.gate, command.value)
    gates = records.gate_words(game)
    talk.echo(text, "ok", _("entry gates: {gates}", gates="; ".join(gates)) if gates
              else _("entry gates: none: anyone may join"))


def get_record(talk: Conversation, text: str, _command: cmd.GetRecord) -> None:
    """GET RECORD: the record of the address the answer goes to, and where its public page is."""
    address = talk.mail.reply_to
    record = records.of(talk.session, address, talk.now)
    lines = [_("your record on this judge ({address}): {record}", address=address, record=record.words()),
             *record.numbers()]
    if url := player_url(talk.settings.web_url, records.page_name(talk.session, address)):
        lines.append(_("its public page (no address on it; share it as you like): {url}", url=url))
        calendar = player_url(talk.settings.web_url, records.page_name(talk.session, address, "calendar"), "ics")
        lines.append(_("the deadlines of every seat you hold, for your calendar (keep it to yourself): {url}",
                       url=calendar))
    talk.echo(text, "info", "", lines)


def get_rating(talk: Conversation, text: str, command: cmd.GetRating) -> None:
    """GET RATING [address]: the sender's own ratings (overall and in each kind), or another
    person's public figures; the same answer for an address the judge has never seen as for one
    with no rated game, so that it tells no more than the hall of fame does."""
    own = command.address is None
    address = talk.mail.reply_to if command.address is None else command.address
    found = ratings.of(talk.session, address)
    if not found:
        none = (_("your ratings on this judge ({address}): no rated game yet.", address=address) if own
                else _("the ratings of {address} on this judge: no rated game yet.", address=address))
        lines = [none + " " + ngettext("A player is rated when a game they played ends, and the rating is "
                                       "provisional until {count} rated game.",
                                       "A player is rated when a game they played ends, and the rating is "
                                       "provisional until {count} rated games.", PROVISIONAL)]
    else:
        whose = (_("your ratings on this judge ({address}):", address=address) if own
                 else _("the ratings of {address} on this judge:", address=address))
        lines = [whose] + [rating_line(ratings.title(talk.kinds, kind), rating)
                           for kind, rating in sorted(found.items())]
        lines.append(_("A rating is the skill the games show, less three times the doubt about it, read like an Elo "
                       "rating: a newcomer starts at 1000.") + " " + ngettext(
            "It is provisional until {count} rated game.", "It is provisional until {count} rated games.",
            PROVISIONAL))
    talk.echo(text, "info", "", lines)


def rating_line(title: str, rating: Rating) -> str:
    """One rating in words: ``overall: 1234 from 7 rated games``, provisional marked."""
    if rating.provisional:
        return "  " + ngettext("{title}: {figure} from {count} rated game, provisional",
                               "{title}: {figure} from {count} rated games, provisional", rating.games, title=title,
                               figure=rating.figure)
    return "  " + ngettext("{title}: {figure} from {count} rated game", "{title}: {figure} from {count} rated games",
                           rating.games, title=title, figure=rating.figure)


COMMANDS = (
    Entry(cmd.SetClock, set_clock, MASTER, closed_after_the_end=True, announces=True),
    Entry(cmd.SetSilence, set_silence, MASTER, closed_after_the_end=True, announces=True),
    Entry(cmd.SetGate, set_gate, MASTER, closed_after_the_end=True),
    Entry(cmd.GetRecord, get_record, ANYONE, lookup=True),
    Entry(cmd.GetRating, get_rating, ANYONE, lookup=True),
)
"""The commands of this module, for the dispatcher (`judge.service.dispatch`)."""
