"""An Exchange game's commands by mail: the sheet lines of section 2 (read together when the
investor's lines end: `judge.games.exchange.sheets`), CLEAR, MAP, VOTE
(E34), the lengths of the phases (``SET EXCHANGE 48``), STATUS, and the game master's
ROLLFORWARD.

A line the host's grammar does not know is read here (`read`): a word of the sheets' language,
an offer (a digit first) or something shaped as an order is a sheet line, kept for the end of
the investor's lines; the other words are this module's commands; anything else is unknown.
"""

from __future__ import annotations

from dataclasses import dataclass

from judge import api
from judge.api import (
    PLAYER,
    RUNNING,
    SIGNED_ON,
    BadCommand,
    Command,
    Entry,
    Game,
    Turn,
    Unknown,
    absence_lines,
    read_phase_length,
)
from judge.games.exchange import lifecycle, mails, stored, views
from judge.games.exchange.core.state import ExchangeState
from judge.games.exchange.core.views import ceo_view, corporation_facts
from judge.games.exchange.reading import routed
from judge.language import gettext as _
from judge.language import worded


@dataclass(frozen=True)
class SheetLine:
    """A line of an investor's sheet, read with their others when their lines end."""

    text: str


@dataclass(frozen=True)
class ExchangeClear:
    """``CLEAR``: the investor's sheet for the phase is withdrawn."""


@dataclass(frozen=True)
class ExchangeMap:
    """``MAP``: the board now, each corporation's CEO in the legend."""


@dataclass(frozen=True)
class ExchangeVote:
    """``VOTE DRAW``, ``VOTE CONCEDE X`` or ``VOTE NONE`` (E34)."""

    choice: str
    corporation: str | None = None


DURATIONS = {"MOVEMENT": "movement", "RETREAT": "retreat", "RETREATS": "retreat", "ADJUSTMENT": "adjustment",
             "ADJUSTMENTS": "adjustment", "EXCHANGE": "exchange"}
"""``SET <word> hours``: the words for the lengths of the phases, and their settings."""


def read(text: str) -> Command:
    """A line the host's grammar does not know, as an Exchange game reads it."""
    words = text.split()
    keyword = words[0].upper()
    if keyword in ("CLEAR", "MAP"):
        if len(words) > 1:
            return BadCommand(_("{keyword} takes nothing after it", keyword=keyword))
        return {"CLEAR": ExchangeClear(), "MAP": ExchangeMap()}[keyword]
    if keyword == "VOTE":
        choice = [w.upper() for w in words[1:]]
        if choice == ["DRAW"] or choice == ["NONE"]:
            return ExchangeVote(choice[0])
        if len(choice) == 2 and choice[0] == "CONCEDE":
            return ExchangeVote("CONCEDE", choice[1])
        return BadCommand(_("expected VOTE DRAW, VOTE CONCEDE corporation or VOTE NONE (E34)"))
    if keyword == "SET":
        return read_phase_length(text, words, DURATIONS, "SET EXCHANGE, SET MOVEMENT, SET RETREAT, "
                                 "SET ADJUSTMENT hours")
    if routed(text):
        return SheetLine(text)
    return Unknown(_("unknown command '{word}': HELP lists the commands of Exchange Payola", word=words[0][:20]))


def _running(talk: Turn, text: str) -> Game | None:
    game = talk.game
    assert game is not None
    if game.state not in RUNNING or game.phase is None:
        talk.echo(text, "error", _("the game is not running: sheets are sent once it has started"), code="NOT_RUNNING")
        return None
    return game


def sheet_line(talk: Turn, text: str, _: SheetLine) -> None:
    """Kept for the end of the investor's lines (`judge.games.exchange.sheets.accept_mail`)."""
    if _running(talk, text) is not None:
        talk.hold("sheet", text)


def clear(talk: Turn, text: str, _command: ExchangeClear) -> None:
    game, investor = _running(talk, text), talk.seat
    if game is None or investor is None:
        return
    assert game.phase is not None
    if why := talk.superseded(api.latest_accepted(talk.session, game, game.phase, investor, stored.SHEET),
                              _("your sheet")):
        talk.echo(text, "ignored", why, code="SUPERSEDED")
        return
    talk.drop_blocks()
    stored.keep_sheet(talk.session, game, game.phase, investor, stored.Parts(), talk.now, talk.accepted)
    talk.echo(text, "ok", _("your sheet for {phase} is withdrawn: you have none now", phase=game.phase))


def map_request(talk: Turn, text: str, _command: ExchangeMap) -> None:
    game = talk.game
    assert game is not None
    state = stored.state_now(talk.session, game)
    if state is None:
        talk.echo(text, "error", _("the game has not started: there is no board to draw"), code="NOT_STARTED")
        return
    pictures = mails.position_map(game.name, state.position, state)
    if not pictures:
        talk.echo(text, "error", _("the map could not be drawn; the board is in STATUS"), code="MAP_FAILED")
    elif talk.attach(pictures):
        talk.echo(text, "ok", _("the map of {phase} is attached, each corporation's CEO in its legend",
                                phase=str(state.position.phase)))
    else:
        talk.echo(text, "error", talk.too_big(sum(len(p.data) for p in pictures)), code="REPLY_TOO_LONG")


def vote(talk: Turn, text: str, command: ExchangeVote) -> None:
    """E34: a secret vote for a draw of every surviving corporation, or to concede the game to one;
    the game ends when every investor still in the game votes the same."""
    game = _running(talk, text)
    if game is None:
        return
    state = stored.state_now(talk.session, game)
    assert state is not None
    if talk.seat not in state.order:
        talk.echo(text, "error", _("only an investor still in the game votes (E34)"), code="NOT_A_VOTER")
        return
    investor = talk.seat
    assert investor is not None
    if why := talk.superseded(stored.vote_of(game, investor)[1], _("your vote")):
        talk.echo(text, "ignored", why, code="SUPERSEDED")
        return
    vote: str | None
    if command.choice == "CONCEDE":
        try:
            corporation = lifecycle.corporation_named(state, command.corporation or "")
        except ValueError as exc:
            talk.echo(text, "error", str(exc), code="NO_SUCH_CORPORATION")
            return
        vote = f"CONCEDE:{corporation}"
        said = _("your vote, kept secret: to concede the game to {corporation} (the game ends when every investor "
                 "votes the same, E34)", corporation=views.title(corporation))
    elif command.choice == "DRAW":
        vote = "DRAW"
        said = _("your vote, kept secret: for a draw of every surviving corporation (the game ends when every "
                 "investor votes the same, E34)")
    else:
        vote = None
        said = _("your vote, kept secret: withdrawn (no vote) (the game ends when every investor votes the same, E34)")
    stored.set_vote(game, investor, vote, talk.accepted)
    answered = talk.echo(text, "ok", said)
    talk.session.flush()
    result = lifecycle.settle_votes(talk.session, game, talk.settings, talk.now)
    if result:
        talk.note(answered, [_("the investors' votes end the game: {result}", result=worded(result))])


# -- STATUS ------------------------------------------------------------------------------------------


def status_lines(talk: Turn) -> list[str]:
    """STATUS for an investor: the phase and deadline, the public facts, their own balance,
    holdings and corporations, the sheet standing for them, their vote, their absences (the host adds
    their WAIT)."""
    game, investor = talk.game, talk.seat
    assert game is not None and investor is not None
    lines: list[str] = []
    state = stored.state_now(talk.session, game)
    if state is None:
        return [*lines, _("the game has not started")]
    lines += public_lines(state)
    if investor not in state.order:
        return [*lines, _("you are no longer an investor in this game (E32)")]
    lines += [_("your balance: {amount} AgP", amount=state.purses[investor]),
              *views.holdings_lines(sorted(state.register.portfolio(investor).items()), "")]
    for corporation in state.corporations:
        if state.ceos.get(corporation) == investor:
            lines += [_("you are {corporation}'s CEO (E38):", corporation=views.title(corporation)), *views.ceo_lines(
                ceo_view(state, corporation, investor))[:2]]
    if game.phase and game.state in RUNNING:
        parts = stored.sheets(talk.session, game, game.phase).get(investor)
        lines.append(_("your sheet for {phase}:", phase=game.phase) if parts else
                     _("your sheet for {phase}: none yet", phase=game.phase))
        lines += [f"  {line}" for line in (parts.text().splitlines() if parts else [])]
    vote = stored.vote_of(game, investor)[0]
    if vote:
        conceded = vote.partition(":")[2]
        lines.append(_("your vote: to concede the game to {corporation}", corporation=views.title(conceded))
                     if conceded else _("your vote: a draw"))
    return [*lines, *mails.todo(state, investor), *absence_lines(talk.session, game, talk.now.date(), investor)]


def public_lines(state: ExchangeState) -> list[str]:
    """What anyone may know of the game now (E36): the investor order, each corporation's CEO and shares."""
    return [*views.wrap(_("investor order (E30): {order}", order=", ".join(state.order)), ""),
            *views.facts_lines(corporation_facts(state), None)]


def master_status(talk: Turn) -> list[str]:
    """STATUS for the game master: the phase, each investor's seat and what they have sent (which
    no investor is told of another: a sheet standing), their money, and every seat's absences; the
    host's STATUS adds who asks to WAIT."""
    game = talk.game
    assert game is not None
    lines: list[str] = []
    state = stored.state_now(talk.session, game)
    if state is None:
        return [*lines, *(_("{investor}: joined", investor=p.requested) for p in api.players(talk.session, game))]
    lines += public_lines(state)
    standing = stored.sheets(talk.session, game, game.phase) if game.phase else {}
    owing = set(lifecycle.waiting_seats(talk.session, game))
    for investor, player in stored.investors(talk.session, game).items():
        said = [_("a sheet stands") if investor in standing else _("no sheet")]
        said += [_("owes the phase")] if investor in owing else []
        said.append(_("{amount} AgP", amount=state.purses[investor]) if investor in state.purses else _("resigned"))
        lines.append(_("{investor} ({seat}): {said}", investor=investor, seat=api.seat_state(game, investor, player),
                       said=", ".join(said)))
    lines += views.money_lines(state)
    return [*lines, *absence_lines(talk.session, game, talk.now.date())]


COMMANDS = (
    Entry(SheetLine, sheet_line, PLAYER, closed_after_the_end=True),
    Entry(ExchangeClear, clear, PLAYER, closed_after_the_end=True),
    Entry(ExchangeMap, map_request, SIGNED_ON, once=True),
    Entry(ExchangeVote, vote, PLAYER, closed_after_the_end=True),
)
"""The commands of this module, for the dispatcher (`judge.service.dispatch`)."""
