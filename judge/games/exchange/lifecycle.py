"""The life of an Exchange game on the host: its creation's words, its start, the closing of each
phase (and the Income step after the year's last), draws and concessions, and its end.

Theory of operation.  The year is X.8.1's: Spring movement, retreats, Fall movement, retreats,
Winter adjustments (the engine's phases, retreats and adjustments only when needed), the Income
step, then the Exchange phase; the game opens with an Exchange phase in the Winter before the
first Spring (``W1900X`` on the standard board).  Each phase is a phase row
(`judge.games.exchange.stored`) named as the core names it (`judge.games.exchange.core.phases`);
the Income step has no deadline and no row of its own: it is run as the year's last phase is
processed (E27), and its results go out with that phase's.

Closing a phase (`process_phase`: at its deadline, on the game master's PROCESS, or once
complete), in one transaction: each investor's standing sheet is read back
(`judge.games.exchange.sheets.sheet_of`), what no longer passes the core's check is left out
(a block whose writer is no longer the CEO: they resigned), the core runs the step
(`run_exchange`, `run_movement`, `run_orders`, then `run_income` when the year is over), the
row keeps the state after it, the public results and the game master's chart, every reader's
mail is queued (`judge.games.exchange.mails`), and the next phase opens, or the game ends (a
corporation reached the victory count, E34).

When a phase may close before its deadline (E20, E29: the judge waits only for what they say):
an Exchange phase once every investor someone plays has a sheet standing; a movement phase once
the CEO of every corporation with units has sent its block, a retreat or adjustment phase once
each CEO with something to order has (the core's `expected`); never while an investor's WAIT
stands (the host's, `judge.service.hosting.host.closes_early`).  A movement phase with no corporation to
wait for (every one leaderless) runs to its deadline: the investors' private offers, which the
judge never waits for (E20), may come until then.  A retreat or adjustment phase in which no CEO
has anything to order closes at the clock's next tick.

ROLLBACK and ROLLFORWARD are the host's (`judge.service.hosting.course`): the state the phase row kept
when it was open comes back whole, so money and shares are where they were, and so do the votes on
the game's end standing as it was processed (`rolling_back`); each investor for whom that changes
something is told what, alone (`rolled_back`); ROLLFORWARD refuses once the state or a vote changed
since (`changed_since_rollback`).

The game ends (E34) when a corporation reaches the victory count, when every investor still in
the game votes the same ``VOTE DRAW`` (all surviving corporations) or ``VOTE CONCEDE X``
(`settle_votes`), or on the game master's TERMINATE; everything is then published (E41).
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy.orm import Session

from judge import api
from judge.api import (
    RUNNING,
    Closing,
    Game,
    GameError,
    PhaseChange,
    PhaseRow,
    Publication,
    Settings,
    log_on_commit,
    queue,
    render,
    split_options,
    writing_to,
)
from judge.engine.map import available_maps, load_map
from judge.engine.notation import NotationError, power_name
from judge.engine.orders import Order
from judge.engine.position import Season
from judge.games.exchange import mails, sheets, stored
from judge.games.exchange.core.accounts import resign
from judge.games.exchange.core.exchange import run_exchange
from judge.games.exchange.core.notation import state_from_data, state_to_data
from judge.games.exchange.core.options import exchange_options
from judge.games.exchange.core.phases import Expected, Step, complete, expected, step
from judge.games.exchange.core.record import ExchangeRecord
from judge.games.exchange.core.sheet import Block, Sheet, Worth, check
from judge.games.exchange.core.state import ExchangeState, NameProblem, Stage, new_game
from judge.games.exchange.core.state import name_problem as investor_name_problem
from judge.games.exchange.core.year import (
    CorporateSheet,
    IncomeRecord,
    MovementRecord,
    MovementSheets,
    OrdersRecord,
    end_game,
    run_income,
    run_movement,
    run_orders,
    surviving,
)
from judge.language import Wording, in_every_language, later, ngettext, nlater
from judge.language import gettext as _
from judge.payola.options import OptionError

log = logging.getLogger("judge")

KIND_TITLE = "Exchange Payola"
HOST_WORDS = frozenset({"MASTER", "GM", "M", "KEY"})
"""Words the host gives a meaning where a seat is named (SIGNON MASTER@game, PRESS TO M, a
private game's KEY): no investor may be named so (E1 adds the sheets' own words and the powers)."""


ROLLFORWARD = "rollforward"
"""The key of the game's settings where a ROLLBACK keeps a digest of the state it brought back and
the votes it brought back, for ROLLFORWARD to find them unchanged (`changed_since_rollback`)."""


# -- creating ----------------------------------------------------------------------------------------


def read_create(words: Sequence[str]) -> tuple[str, list[str]]:
    """CREATE's words after ``exchange``: a board (standard if none is named), then the host's flags,
    ``INVESTORS=n``, ``SHARES=n``, ``FUNDS=n`` and the Payola options Exchange plays (the core's
    `judge.games.exchange.core.options`, which says why it refuses the others), kept as the
    host's flags then the options' words with every default written out."""
    variant, rest = "standard", list(words)
    if rest and rest[0].lower() in available_maps():
        variant, rest = rest[0].lower(), rest[1:]
    try:
        own, words_left = split_options(rest)
        options = exchange_options(words_left, load_map(variant))
    except (OptionError, ValueError) as exc:
        raise ValueError(_("{problem} (the boards: {boards}; HELP exchange create names every option)",
                           problem=exc, boards=", ".join(available_maps()))) from None
    return variant, own + options.names


def describe(game: Game) -> str:
    """The game in words: "Exchange Payola on the standard board: 3 investors, 60 AgP each, 10 shares
    a corporation"."""
    options = stored.options_of(game)
    return ngettext("{kind} on the {board} board: {investors} investors, {funds} AgP each, {count} share a "
                    "corporation",
                    "{kind} on the {board} board: {investors} investors, {funds} AgP each, {count} shares a "
                    "corporation", options.shares, kind=KIND_TITLE, board=game.variant, investors=options.investors,
                    funds=options.funds)


def label(name: str) -> str:
    """A phase in words: "the Exchange phase of Winter 1900", "Spring 1901 movement"."""
    year = name[1:5]
    words = {"WX": lambda: _("the Exchange phase of Winter {year}", year=year),
             "SM": lambda: _("Spring {year} movement", year=year), "SR": lambda: _("Spring {year} retreats", year=year),
             "FM": lambda: _("Fall {year} movement", year=year), "FR": lambda: _("Fall {year} retreats", year=year),
             "WA": lambda: _("Winter {year} adjustments", year=year)}
    said = words.get(name[0] + name[-1])
    return said() if said is not None else name


def name_problem(session: Session, game: Game, word: str) -> str | None:
    """Why ``word`` cannot be a new investor's name in ``game`` (E1), or None."""
    taken = [p.requested or "" for p in api.players(session, game)]
    problem = investor_name_problem(word, stored.board(game), taken)
    if problem is not None:
        return name_problem_words(word[:20], problem)
    if word.upper() in HOST_WORDS:
        return _("'{word}' cannot be an investor's name: MASTER, GM, M and KEY are words of the commands", word=word)
    if len(word) > 12:
        return _("an investor's name is at most 12 letters and digits")
    return None


def name_problem_words(word: str, problem: NameProblem) -> str:
    """Why ``word`` cannot be an investor's name (E1), in words."""
    words = {
        NameProblem.NOT_LETTERS_AND_DIGITS: lambda: _(
            "'{word}' cannot be an investor's name: a name is letters and digits (E1)", word=word),
        NameProblem.TAKEN: lambda: _(
            "'{word}' cannot be an investor's name: another investor has this name (E1)", word=word),
        NameProblem.A_POWER: lambda: _(
            "'{word}' cannot be an investor's name: a power of the map has this name or initial (E1)", word=word),
        NameProblem.RESERVED: lambda: _(
            "'{word}' cannot be an investor's name: this word has a meaning in the sheets (E1)", word=word)}
    return words[problem]()


def corporation_named(state: ExchangeState, word: str) -> str:
    """The live corporation ``word`` names (a power's name or initial); ValueError with a message."""
    try:
        corporation = power_name(state.game_map, word)
    except NotationError:
        raise ValueError(_("'{word}' is not a corporation of this board (a power's name or initial)",
                           word=word[:20])) from None
    if corporation not in state.live:
        if corporation in state.liquidated:
            raise ValueError(_("{corporation} is no corporation of this game: it was liquidated (E31)",
                               corporation=mails.title(corporation)))
        raise ValueError(_("{corporation} is no corporation of this game: no player takes it",
                           corporation=mails.title(corporation)))
    return corporation


# -- starting ----------------------------------------------------------------------------------------


def start(session: Session, game: Game, settings: Settings, now: datetime) -> None:
    """Seat every investor under the name they joined with, draw the investor order from the game's
    seed (E30) and open the Exchange phase of the Winter before the first Spring (X.8.1); each
    investor and the game master are told, and the observers of the forming game."""
    options = stored.options_of(game)
    joined = api.players(session, game)
    if len(joined) != options.investors:
        raise GameError(ngettext("this game is for {investors} investors and {count} has joined: START when "
                                 "{investors} have (E1)",
                                 "this game is for {investors} investors and {count} have joined: START when "
                                 "{investors} have (E1)", len(joined), investors=options.investors),
                        "WRONG_NUMBER_OF_PLAYERS")
    names = []
    for player in joined:
        name = (player.requested or "").upper()
        api.assign_seat(player, name)
        names.append(name)
    state = new_game(stored.board(game), names, options, game.seed)
    session.flush()
    stored.open_row(session, game, state, now)
    mails.start_mails(session, game, settings, now, state)


# -- who must act, and when a phase is complete -----------------------------------------------------


def submitted(state: ExchangeState, standing: Mapping[str, stored.Parts]) -> set[Expected]:
    """What the standing sheets give of what the step waits for: an investor's sheet, and each
    block its CEO wrote (E20, E29)."""
    found: set[Expected] = set()
    for investor, parts in standing.items():
        found.add(Expected(investor))
        found.update(Expected(investor, corporation) for corporation in parts.blocks
                     if state.ceos.get(corporation) == investor)
    return found


def waiting_seats(session: Session, game: Game) -> list[str]:
    """The investors someone plays who owe the open phase something and have not sent it: whom the
    clock reminds."""
    row = api.current_phase(session, game)
    if row is None or game.state not in RUNNING or row.status != "open":
        return []
    state = stored.state_of(row)
    done = submitted(state, stored.sheets(session, game, row.name))
    owing = [e.investor for e in expected(state) if e not in done]
    played = stored.played(session, game)
    return [investor for investor in dict.fromkeys(owing) if investor in played]


def is_complete(session: Session, game: Game) -> bool:
    """Whether the open phase closes now, before its deadline (see the module's header; the host's
    WAIT holds it to its deadline, `judge.service.hosting.host.closes_early`)."""
    row = api.current_phase(session, game)
    return row is not None and row.status == "open" and _all_in(session, game, row)


def _all_in(session: Session, game: Game, row: PhaseRow) -> bool:
    """Whether every submission the phase of ``row`` waits for from an investor someone plays is in."""
    state = stored.state_of(row)
    now_step = step(state)
    played = stored.played(session, game)
    due = [e for e in expected(state) if e.investor in played]
    if not due and now_step in (Step.MOVEMENT, Step.EXCHANGE):
        return False  # nobody to wait for, but investors may still send (E20)
    done = submitted(state, stored.sheets(session, game, row.name))
    done |= {e for e in expected(state) if e.investor not in played}  # a dummy's part is not waited for
    return complete(state, done)


def closes_at_next_tick(session: Session, game: Game, row: PhaseRow) -> bool:
    """A retreat or adjustment phase in which no CEO someone plays has anything to order, or a phase
    whose every submission is in as it opens: the lines its investors sent ahead for it, read when it
    opened (`judge.games.exchange.ahead`), with no mail to complete it."""
    state = stored.state_of(row)
    if step(state) in (Step.RETREAT, Step.ADJUSTMENT) and not any(
            e.investor in stored.played(session, game) for e in expected(state)):
        return True
    return _all_in(session, game, row)


def notice(session: Session, game: Game, row: PhaseRow, investor: str, which: str, until: datetime,
           extended: datetime | None = None) -> str:
    """The reminder or late notice (``which``) to ``investor``, who owes the phase something: what it
    owes, and when the phase closes or (``extended``) is extended to without it (ruling H3)."""
    state = stored.state_of(row)
    done = submitted(state, stored.sheets(session, game, row.name))
    owed = [e.corporation for e in expected(state) if e.investor == investor and e not in done]
    return render(f"exchange/{which}", game=game, investor=investor, label=label(row.name), step=step(state).value,
                  corporations=[mails.title(c) for c in owed if c], sheet=None in owed, until=until,
                  extended=extended)


def results_mails(session: Session, game: Game) -> int:
    """How many mails closing the open phase queues: one per investor someone plays and per
    observer, and the chart (as a Payola phase's results, the end's publication is not counted)."""
    return len(stored.played(session, game)) + len(api.observers(session, game)) + 1


# -- processing --------------------------------------------------------------------------------------


def process_phase(session: Session, game: Game, settings: Settings, now: datetime, closing: Closing) -> PhaseChange:
    """Close the open phase with the sheets standing, run the Income step after the year's last
    phase, open the next phase or end the game, and queue every mail (see the module's header)."""
    row = api.current_phase(session, game)
    assert row is not None and row.status == "open"
    api.drop_setting(game, ROLLFORWARD)
    state = stored.state_of(row)
    standing = {name: sheets.sheet_of(parts, state.game_map, name)
                for name, parts in stored.sheets(session, game, row.name).items() if name in state.order}
    now_step = step(state)
    record: ExchangeRecord | MovementRecord | OrdersRecord
    if now_step is Step.EXCHANGE:
        exchange_sheets = {name: sheet for name, mail in standing.items() if (sheet := _valid(mail.sheet, state))}
        after, record = run_exchange(state, exchange_sheets)
    elif now_step is Step.MOVEMENT:
        after, record = run_movement(state, _movement_sheets(state, standing), row.seed)
    else:
        after, record = run_orders(state, _orders(state, standing))
    income: IncomeRecord | None = None
    if after.stage is Stage.INCOME:
        after, income = run_income(after)
    written = {name: parts.text() for name, parts in sorted(stored.sheets(session, game, row.name).items())}
    done = mails.Done(state, after, record, written, income, stored.transfers(row))
    investors = sorted(set(state.order) | set(after.order))
    made = in_every_language(lambda: (mails.public_lines(done), mails.chart_lines(done),  # kept in every language:
                                      {i: mails.own_sections(done, i) for i in investors}))  # HISTORY, pages, E41
    public = {language: texts[0] for language, texts in made.items()}
    chart = {language: texts[1] for language, texts in made.items()}
    statements = {i: {language: texts[2][i] for language, texts in made.items()} for i in investors}
    votes = game.settings.get(stored.VOTES, {})  # as they stood: a ROLLBACK brings them back
    api.processed(row, {"state": state_to_data(after), "public": public,
                        "chart": chart, "statements": statements, stored.VOTES: votes}, now)
    if after.stage is Stage.ENDED:
        winner = after.result[0] if after.result else None
        reason = nlater("{corporation} has reached the victory count with {count} supply center (E34)",
                        "{corporation} has reached the victory count with {count} supply centers (E34)",
                        len(after.position.centers_of(winner)), corporation=mails.title(winner)
                        ) if winner else later("the game has ended")
        log_on_commit(session, log, "game %s %s processed (%s); the game has ended", game.name, row.name,
                      closing.cause)
        mails.results(session, game, settings, now, done, None, closing)
        return PhaseChange(row.name, None, winner, reason)
    opened = stored.open_row(session, game, after, now)
    log_on_commit(session, log, "game %s %s processed (%s); next %s", game.name, row.name, closing.cause, opened.name)
    mails.results(session, game, settings, now, done, opened.name, closing)
    return PhaseChange(row.name, opened.name)


def _valid(sheet: Sheet, state: ExchangeState) -> Sheet | None:
    """``sheet`` without the parts that no longer pass the core's check (a block whose writer is no
    longer the corporation's CEO); None if nothing is left."""
    problems = check(sheet, state)
    if not problems:
        return sheet
    own_bad = any(p.corporation is None for p in problems)
    bad_blocks = {p.corporation for p in problems}
    kept = Sheet(sheet.author, () if own_bad else sheet.lines,
                 tuple(b for b in sheet.blocks if b.corporation not in bad_blocks))
    if (kept.lines or kept.blocks) and not check(kept, state):
        return kept
    return None


def _movement_sheets(state: ExchangeState, standing: Mapping[str, sheets.Assembled]) -> MovementSheets:
    """Each CEO's block (its offers and, in Spring, its worths: E22) and each investor's private
    offers (X.6), as the movement's determination takes them."""
    corporations: dict[str, CorporateSheet] = {}
    investors = {}
    spring = state.position.phase.season is Season.SPRING
    for investor, mail in standing.items():
        investors[investor] = sheets.offers_of(mail.parts[0], investor, state)
        for part in mail.parts[1:]:
            corporation = part.corporation
            if corporation is None or state.ceos.get(corporation) != investor:
                continue
            worth = next((line for _place, line in part.lines if isinstance(line, Worth)), None)
            if worth is not None and (not spring or check(Sheet(investor, (), (Block(corporation, (worth,)),)), state)):
                worth = None
            corporations[corporation] = CorporateSheet(sheets.offers_of(part, corporation, state), worth)
    return MovementSheets(corporations, investors)


def _orders(state: ExchangeState, standing: Mapping[str, sheets.Assembled]) -> dict[str, list[Order]]:
    """Each CEO's retreats or adjustments for its corporation (X.5.1)."""
    orders: dict[str, list[Order]] = {}
    for investor, mail in standing.items():
        for part in mail.parts[1:]:
            if part.corporation is not None and state.ceos.get(part.corporation) == investor:
                orders[part.corporation] = sheets.orders_of(part, state)
    return orders


# -- the end -----------------------------------------------------------------------------------------


def publication(session: Session, game: Game) -> Publication:
    """E41: everything — the ranking (E35), every phase's chart in order, every corporation's ledger."""
    state = stored.state_now(session, game)
    assert state is not None
    return Publication(_("Everything that was secret is now published (E41): the scores, every phase's sheets and "
                         "what became of each of their lines, the share register after each Exchange phase, every "
                         "purse and treasury, and every corporation's ledger."),
                       mails.published_lines(session, game, state))


def terminated(session: Session, game: Game, now: datetime) -> None:
    """The game master ends the game (E34): nobody wins, the open phase ends unplayed."""
    row = api.current_phase(session, game)
    assert row is not None
    if row.status == "open":
        _end_row(row, end_game(stored.state_of(row), ()), now)


def _end_row(row: PhaseRow, state: ExchangeState, now: datetime) -> None:
    """The open phase closed by the game's end, unplayed: its row keeps the state as it ended."""
    chart = in_every_language(lambda: [_("{phase} was not played: the game ended", phase=row.name)])
    api.processed(row, {"state": state_to_data(state), "public": [], "chart": chart}, now)


def voters(session: Session, game: Game, state: ExchangeState) -> list[str]:
    """Who votes on a draw or a concession (E34): the investors still in the game someone plays."""
    played = stored.played(session, game)
    return [investor for investor in state.order if investor in played]


def settle_votes(session: Session, game: Game, settings: Settings, now: datetime) -> Wording | None:
    """E34: end the game when every voter votes for the same draw or concession; the result (a stored
    wording, `judge.language.later`), or None."""
    row = api.current_phase(session, game)
    if row is None or game.state not in RUNNING:
        return None
    state = stored.state_of(row)
    voting = voters(session, game, state)
    votes = {stored.vote_of(game, investor)[0] for investor in voting}
    if not voting or len(votes) != 1 or None in votes:
        return None
    vote = votes.pop() or ""
    if vote == "DRAW":
        corporations = surviving(state)
        result = later("a draw of every surviving corporation: {corporations}",
                       corporations=", ".join(mails.title(c) for c in corporations))
    else:
        corporations = (vote.partition(":")[2],)
        if corporations[0] not in state.live:
            return None
        result = later("conceded to {corporation} by every investor (E34)", corporation=mails.title(corporations[0]))
    ended = end_game(state, corporations)
    _end_row(row, ended, now)
    api.end_game(session, game, settings, now, result, corporations[0] if vote != "DRAW" else None,
                 drawn=tuple(corporations) if vote == "DRAW" else ())
    return result


# -- ROLLBACK -----------------------------------------------------------------------------------------


def rolling_back(session: Session, game: Game, to: PhaseRow, later: Sequence[PhaseRow]) -> None:
    """A ROLLBACK to the processed phase of ``to`` (the host drops the later phases and their sheets
    and opens it again, with the state it had as it opened — the transfers made while it was open
    included — and the sheets standing in it then).  The whole state comes back at once, so every
    AgP and share is where it was: money is conserved across the ROLLBACK as across the phases.
    An investor who resigned since stays resigned (the host does not seat them again): E32 is
    applied again to the state brought back, their money forfeited and their shares pooled.  What
    changed for each investor alone (their balance, their shares, their CEO offices) is kept for
    `rolled_back` to tell them, and a digest of the state for ROLLFORWARD.  The votes on the game's
    end come back as they stood when it was processed (`votes_back`)."""
    left = stored.state_now(session, game)
    back = state_from_data(to.position)
    gone = sorted(left.resigned - back.resigned) if left else []
    for investor in gone:  # a resignation stands: the ROLLBACK does not bring back a player who left (E32)
        back = resign(back, investor)
    if gone:
        stored.save(to, back)
    votes_back(session, game, to, back)
    told = {investor: lines for investor in back.order if (lines := _changed_for(left, back, investor))} if left else {}
    api.keep_setting(game, "rollback_notices", told)
    api.keep_setting(game, ROLLFORWARD, {"position": _digest(to.position), stored.VOTES: _standing(game)})


def votes_back(session: Session, game: Game, to: PhaseRow, back: ExchangeState) -> None:
    """The votes on the game's end (E34) as they stood when the phase of ``to`` was processed (kept
    in its result), as its sheets stand again; but a vote is its player's, so neither that of an
    investor who has resigned since (E32: they left the game, and ``back`` has them resigned) nor
    one cast before the investor's player took the seat over is brought back (a new player starts
    with none).  A phase processed before the results kept the votes (an older judge's) leaves them
    as they are."""
    kept = (to.result or {}).get(stored.VOTES)
    if not isinstance(kept, dict):
        return
    seats = stored.investors(session, game)
    votes = {}
    for investor, vote in kept.items():
        player, at = seats.get(investor), vote.get("at")
        if investor in back.order and (player is None or at is None or datetime.fromisoformat(at) >= player.joined_at):
            votes[investor] = vote
    api.keep_setting(game, stored.VOTES, votes)


def _standing(game: Game) -> dict[str, str]:
    """Each investor's vote standing (E34), for ROLLFORWARD to compare: who has none is left out."""
    return {investor: vote for investor in game.settings.get(stored.VOTES, {})
            if (vote := stored.vote_of(game, investor)[0])}


def _digest(data: object) -> str:
    return hashlib.sha256(json.dumps(data, sort_keys=True, default=str).encode()).hexdigest()


def changed_since_rollback(session: Session, game: Game) -> str | None:
    """Whether money, an acceptance list or an investor changed the open phase's state since the
    ROLLBACK (a TRANSFER, a resignation), or a vote on the game's end did, which ROLLFORWARD would
    discard (the host checks the sheets and WAITs sent: `judge.service.hosting.course.rolling_forward`).
    Whose vote is not said: votes are secret, from the game master too (E34)."""
    row = api.current_phase(session, game)
    marks = game.settings.get(ROLLFORWARD)
    if row is None or not marks:
        return None
    moved = _digest(row.position) != marks["position"]
    changed = 0
    if (then := marks.get(stored.VOTES)) is not None:  # a ROLLBACK of an older judge kept no votes
        now = _standing(game)
        changed = sum(then.get(investor) != now.get(investor) for investor in {*then, *now})
    if moved and changed:
        return ngettext("money, an acceptance list or an investor changed; a vote on the game's end changed",
                        "money, an acceptance list or an investor changed; {count} votes on the game's end changed",
                        changed)
    if changed:
        return ngettext("a vote on the game's end changed", "{count} votes on the game's end changed", changed)
    return _("money, an acceptance list or an investor changed") if moved else None


def _changed_for(left: ExchangeState, back: ExchangeState, investor: str) -> dict[str, object]:
    """What the ROLLBACK changed for ``investor`` alone (E39: their own balance and holdings; their
    offices, E38), as figures kept for their notice (`rollback_lines` words them in the reader's
    language); empty if nothing did."""
    changed: dict[str, object] = {}
    was, now = left.purses.get(investor, 0), back.purses[investor]
    if was != now:
        changed["balance"] = [now, was]
    held, holds = left.register.portfolio(investor), back.register.portfolio(investor)
    if held != holds:
        changed["shares"] = [[[c, n] for c, n in sorted(holds.items())], [[c, n] for c, n in sorted(held.items())]]
    offices = sorted(c for c, ceo in back.ceos.items() if ceo == investor)
    if offices != sorted(c for c, ceo in left.ceos.items() if ceo == investor):
        changed["offices"] = offices
    return changed


def rollback_lines(changed: Mapping[str, Any] | Sequence[str]) -> list[str]:
    """What the ROLLBACK changed for one investor (`_changed_for`), as lines of their notice in the
    reader's language (a notice an older judge kept as lines is given as it is)."""
    if not isinstance(changed, Mapping):
        return [str(line) for line in changed]

    def shares(held: Sequence[Sequence[Any]]) -> str:
        return ", ".join(f"{mails.title(c)} {n}" for c, n in held) or _("none")

    lines = []
    if "balance" in changed:
        now, was = changed["balance"]
        lines.append(_("your balance: {amount} AgP (it was {before} AgP before the ROLLBACK)", amount=now, before=was))
    if "shares" in changed:
        holds, held = changed["shares"]
        lines.append(_("your shares: {shares} (they were {before})", shares=shares(holds), before=shares(held)))
    if "offices" in changed:
        offices: Sequence[str] = changed["offices"]
        lines.append(_("your CEO offices: {corporations}",
                       corporations=", ".join(mails.title(c) for c in offices) or _("none")))
    return lines


def rolled_back(session: Session, game: Game, settings: Settings, now: datetime) -> None:
    """Tell each investor the ROLLBACK changed something for, alone, what it changed (E39), in their
    language."""
    told: dict[str, Mapping[str, Any] | list[str]] = game.settings.get("rollback_notices", {})
    api.drop_setting(game, "rollback_notices")
    players = stored.played(session, game)
    for investor, changed in sorted(told.items()):
        player = players.get(investor)
        if player is None or not player.address:
            continue
        with writing_to(session, settings, player.address, game):
            body = render("exchange/rolled_back", game=game, phase=game.phase,
                          lines=[f"  {line}" for line in rollback_lines(changed)])
            queue(session, settings, to=player.address, kind="notice", now=now, game_id=game.id, body=body,
                  subject=_("{game}: your account after the ROLLBACK to {phase}", game=game.name, phase=game.phase))
