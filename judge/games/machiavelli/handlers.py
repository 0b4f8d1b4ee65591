"""A Machiavelli player's letter by mail, STATUS, and the game master's lengths of phases.

Theory of operation.  After ``SIGNON Country@game password``, every line that reads as part of
a letter (`judge.games.machiavelli.core.syntax.is_letter_line`: a unit, an order's verb, an
amount, a numbering, a heading ending with a colon, ``none``) is kept in the seat's block, and
the block is the player's letter when the seat's lines end (`close_block`): one mail, one letter
(AoP 2: the A orders, or the C orders, "posted to the judge in one letter").  Each line is
answered with what it was read as (``read as: A flo - pst``) or why it was not (the syntax's
reason; an order of the other letter's phase: not this phase's order).  A line that is no order
is neither carried out nor charged (8.1, M38); what an order read does is told in the player's
statement after the phase, with the rule that decided it.

The correction rule (17.1, M35): a player's first letter stands; a second one, before the
deadline, replaces it whole, **except its ducat transfers, which may not be withdrawn**: every
transfer of the first letter the correction does not repeat (the same amount to the same
player) is kept, in the first letter's order, ahead of the correction's orders (so each stands
where it stood among the transfers, A.4 or D.1, which are carried out before anything else);
a transfer the correction adds is added.  A third letter is refused, saying so, and the second
stands.  A mail whose letter lines hold no readable order at all (only lines the syntax could
not read) is no letter: it is answered line by line and counts as neither letter nor correction,
as a human judge ignores "illegible gibberish" (17.1).  A mail accepted before the letter
standing was (delivered late) never replaces it.  Other lines are the host's commands (PRESS,
STATUS, ...) or unknown, and are answered so.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from judge.commands.parse import Command, Unknown, read_phase_length
from judge.games.machiavelli import lifecycle, views
from judge.games.machiavelli.core.campaign import fits
from judge.games.machiavelli.core.expenditures import Transfer
from judge.games.machiavelli.core.position import Phase
from judge.games.machiavelli.core.syntax import is_letter_line, parse_letter
from judge.service import host
from judge.service.absences import absence_lines
from judge.service.dispatch import PLAYER, Entry
from judge.service.lifecycle import RUNNING
from judge.service.render import counted, when
from judge.service.turn import Turn
from judge.store.models import Game

BLOCK = "letter"
_NONE = re.compile(r"(\(?\d+[.)]\s*)?none\.?", re.IGNORECASE)
"""A line saying the letter holds no order."""


@dataclass(frozen=True)
class LetterLine:
    """A line of a letter, read with the seat's others when its lines end."""

    text: str


DURATIONS = {"SPRING": "spring", "CAMPAIGN": "campaign"}
"""``SET <word> hours``: the lengths of the spring letter's phase and of a campaign letter's."""


def read(text: str) -> Command:
    """A line the host's grammar does not know, as a Machiavelli game reads it."""
    words = text.split()
    if words[0].upper() == "SET":
        return read_phase_length(text, words, DURATIONS, "SET SPRING hours, SET CAMPAIGN hours")
    if is_letter_line(text):
        return LetterLine(text)
    return Unknown(f"unknown command '{words[0][:20]}': no order begins so either (HELP syntax gives the letters' "
                   "syntax)")


def letter_line(talk: Turn, text: str, _: LetterLine) -> None:
    """Kept for the end of the seat's lines (`close_block`), when the letter is read whole."""
    game = talk.game
    assert game is not None
    if game.state not in RUNNING or game.phase is None:
        talk.echo(text, "error", "the game is not running: letters are sent once it has started", code="NOT_RUNNING")
        return
    talk.hold(BLOCK, text)


def close_block(talk: Turn) -> None:
    """Read the seat's letter lines as one letter, answer each line, keep the letter (M35)."""
    game, seat, lines = talk.game, talk.seat, talk.block(BLOCK)
    if not lines:
        return
    assert game is not None and seat is not None and game.phase is not None
    expected = lifecycle.expected_now(talk.session, game)
    if seat not in expected:
        talk.set_aside(lines, f"not applied: no letter is awaited from {seat} in {game.phase} (4.3: an eliminated "
                       "player writes none)", "NOT_AWAITED")
        return
    board = lifecycle.board_of(game)
    phase = Phase(game.phase[-1])
    orders: list[str] = []
    readable = False  # an order of this letter, or "none": the mail is a letter
    for index, text in lines:
        read, problems = parse_letter(text, board)
        if problems:
            talk.mark(index, "error", f"not read: {problems[0].message}; not carried out, not charged (8.1)",
                      code=problems[0].code)
            continue
        if not read:
            empty = _NONE.fullmatch(text.split("#", 1)[0].strip()) is not None
            readable = readable or empty
            talk.mark(index, "ok", "read as: no order" if empty else "skipped (a heading or a comment)",
                      code="NO_ORDER" if empty else "SKIPPED")
            continue
        written = [str(order) for order in read]
        wrong = [order for order in read if not fits(order, phase)]
        if wrong:
            talk.mark(index, "error", f"read as '{'; '.join(written)}', which is no order of "
                      f"{lifecycle.label(game.phase)}: not carried out, not charged (2, 8.1)", code="NOT_THIS_PHASE")
            continue
        if any(isinstance(order, Transfer) and order.to == seat for order in read):
            talk.mark(index, "error", f"read as '{'; '.join(written)}': a transfer names another player, never its "
                      "writer: not carried out, not charged (8.1)", code="TRANSFER_TO_SELF")
            continue
        orders += written
        readable = True
        talk.mark(index, "ok", f"read as: {'; '.join(written)}", code="READ")
    if not readable:
        talk.note(lines[-1][0], [f"Nothing in this mail reads as an order of {lifecycle.label(game.phase)}: it is not "
                                 "taken as your letter, and the letter standing (if any) is unchanged (17.1). An "
                                 "empty letter is written: none"])
        return
    _keep(talk, game, seat, lines, orders)


def _keep(talk: Turn, game: Game, seat: str, lines: list[tuple[int, str]], orders: list[str]) -> None:
    """The letter as it stands now: the first, or a correction with the first's transfers kept."""
    assert game.phase is not None
    standing = lifecycle.letters_of(talk.session, game, game.phase).get(seat)
    since = host.latest_accepted(talk.session, game, game.phase, seat, lifecycle.LETTER)
    if (why := talk.superseded(since, "your letter")) is not None:
        talk.set_aside(lines, why)
        return
    number = 1 if standing is None else int(standing.parsed["number"]) + 1
    if number > 2:
        talk.set_aside(lines, f"not applied: your letter for {game.phase} was corrected once already, and a letter "
                       "is corrected once at most before the deadline (17.1, M35): your correction stands",
                       "CORRECTED_ONCE")
        return
    kept: list[str] = []
    if standing is not None:
        board = lifecycle.board_of(game)
        transfers = [str(o) for o in lifecycle.orders_of(board, standing) if isinstance(o, Transfer)]
        kept = list((Counter(transfers) - Counter(orders)).elements())
        kept = [t for t in transfers if t in kept]
    letter = [*kept, *orders]
    host.submit(talk.session, game, game.phase, seat, lifecycle.LETTER, "\n".join(text for _, text in lines),
                {"orders": letter, "kept": kept, "number": number}, talk.now, talk.accepted)
    what = lifecycle.label(game.phase)
    if number == 1:
        summary = [f"This is your letter, {what}: {counted(len(letter), 'order')}. You may correct it once before the "
                   "deadline: a second letter replaces it whole, but its ducat transfers stand (17.1, M35)."]
    else:
        summary = [f"This corrects your letter, {what}: it replaces the first, whose ducat transfers stand (17.1, "
                   f"M35). It may not be corrected again. It now holds {counted(len(letter), 'order')}."]
        summary += [f"Kept from your first letter: {transfer}" for transfer in kept]
    talk.note(lines[-1][0], summary)


def status_lines(talk: Turn, game: Game, seat: str) -> list[str]:
    """STATUS for a player: the phase and deadline, its treasury and units, its letter standing,
    and its absences."""
    lines = [_header(game)]
    row = host.current_phase(talk.session, game)
    if row is None:
        return [*lines, "the game has not started"]
    board = lifecycle.board_of(game)
    position = lifecycle.position_of(row, board)
    units = sorted(views.unit_text(u, owner=False) for u in position.units_of(seat))
    lines += [f"You play {seat}. Your treasury: {position.treasuries.get(seat, 0)} ducats.",
              f"Your units: {', '.join(units) or 'none'}"]
    if row.status == "open" and seat in lifecycle.expected_now(talk.session, game):
        letter = lifecycle.letters_of(talk.session, game, row.name).get(seat)
        lines += views.letter_lines(letter.parsed["orders"] if letter else [],
                                    letter.parsed["kept"] if letter else [], int(letter.parsed["number"]) if letter
                                    else 0)
    return [*lines, *absence_lines(talk.session, game, talk.now.date(), seat)]


def master_status(talk: Turn) -> list[str]:
    """STATUS for the game master: each country, played or a dummy, and its letter standing."""
    game = talk.game
    assert game is not None
    lines = [_header(game)]
    if game.phase is None:
        return [*lines, *(f"{p.requested or 'a player'}: joined" for p in host.players(talk.session, game))]
    expected = lifecycle.expected_now(talk.session, game)
    letters = lifecycle.letters_of(talk.session, game, game.phase)
    seat = host.seats(talk.session, game)
    for country in lifecycle.board_of(game).powers:
        state = host.seat_state(game, country, seat.get(country))
        letter = letters.get(country)
        sent = ("no letter awaited" if country not in expected else "no letter yet" if letter is None else
                f"letter of {counted(len(letter.parsed['orders']), 'order')}" +
                (", corrected" if int(letter.parsed["number"]) > 1 else ""))
        lines.append(f"{country} ({state}): {sent}")
    return [*lines, *absence_lines(talk.session, game, talk.now.date())]


def _header(game: Game) -> str:
    phase = f"{game.phase} ({lifecycle.label(game.phase)})" if game.phase else "-"
    return f"game {game.name}, {game.state}, phase {phase}, deadline {when(game.deadline)}"


COMMANDS = (
    Entry(LetterLine, letter_line, PLAYER, closed_after_the_end=True),
)
"""The commands of this module, for the dispatcher (`judge.service.dispatch`)."""
