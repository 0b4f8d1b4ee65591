"""A Machiavelli player's letter by mail, STATUS, BORDERS (which areas border an area of the
game's board, and by what), and the game master's lengths of phases.

Theory of operation.  After ``SIGNON Country@game password``, every line that reads as part of
a letter (`judge.games.machiavelli.core.syntax.is_letter_line`: a unit, an order's verb, an
amount, a numbering, a heading ending with a colon, ``none``) is kept in the seat's block, and
the block is the player's letter when the seat's lines end (`close_block`): one mail, one letter
(AoP 2: the A orders, or the C orders, "posted to the judge in one letter").  Each line is
answered with what it was read as (``read as: A flo - pst``) or why it was not (the syntax's
reason; an order of the other letter's phase: not this phase's order; an order past the letter's
`MAX_ORDERS` or `MAX_LETTER`: too many, too long).  A line that is no order
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
standing was (delivered late) never replaces it.  The answer to a letter warns, line by line,
of what the letter will certainly do that its writer may want to correct
(`judge.games.machiavelli.core.review`: units left off a payment list, two orders for one unit,
an order for a unit not the writer's, a transfer of 0).  Other lines are the host's commands
(PRESS, STATUS, ...) or unknown, and are answered so.
"""

from __future__ import annotations

import re
from collections import Counter
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
from judge.games.machiavelli import lifecycle, views
from judge.games.machiavelli.core.board import Board, Border
from judge.games.machiavelli.core.campaign import fits
from judge.games.machiavelli.core.existence import Proposal
from judge.games.machiavelli.core.expenditures import Transfer
from judge.games.machiavelli.core.position import Phase
from judge.games.machiavelli.core.review import Caution, review
from judge.games.machiavelli.core.syntax import (
    MAX_LETTER,
    MAX_ORDERS,
    Problem,
    is_letter_line,
    parse_letter,
    read_area,
    read_player,
)
from judge.language import gettext as _
from judge.language import ngettext

BLOCK = "letter"
_NONE = re.compile(r"(\(?\d+[.)]\s*)?none\.?", re.IGNORECASE)
"""A line saying the letter holds no order."""


@dataclass(frozen=True)
class LetterLine:
    """A line of a letter, read with the seat's others when its lines end."""

    text: str


@dataclass(frozen=True)
class Borders:
    """``BORDERS area``: which areas border an area of the game's board, and how."""

    area: str


@dataclass(frozen=True)
class EndVote:
    """``VOTE DRAW``, ``VOTE CONCEDE country`` or ``VOTE NONE``: a country's secret vote on ending
    the game by agreement (M64), in Payola's and Exchange Payola's words."""

    choice: str  # DRAW, CONCEDE or NONE
    country: str | None = None  # conceded to


BORDER_WORDS = ("BORDERS", "NEIGHBOURS", "NEIGHBORS")
"""The words that ask for an area's borders."""

DURATIONS = {"SPRING": "spring", "CAMPAIGN": "campaign"}
"""``SET <word> hours``: the lengths of the spring letter's phase and of a campaign letter's."""


def read(text: str) -> Command:
    """A line the host's grammar does not know, as a Machiavelli game reads it."""
    words = text.split()
    if words[0].upper() == "SET":
        return read_phase_length(text, words, DURATIONS, "SET SPRING hours, SET CAMPAIGN hours")
    if words[0].upper() == "VOTE":
        choice = [w.upper() for w in words[1:]]
        if choice in (["DRAW"], ["NONE"], ["NODRAW"], ["NOCONCEDE"]):
            return EndVote("DRAW" if choice == ["DRAW"] else "NONE")
        if len(choice) >= 2 and choice[0] == "CONCEDE":
            return EndVote("CONCEDE", " ".join(words[2:]))
        return BadCommand(_("expected VOTE DRAW, VOTE CONCEDE country or VOTE NONE (M64)"))
    if words[0].upper() in BORDER_WORDS:
        if len(words) == 1:
            return BadCommand(_("expected BORDERS and an area (BORDERS Pisa, BORDERS ets)"))
        return Borders(" ".join(words[1:]))
    if is_letter_line(text):
        return LetterLine(text)
    return Unknown(_("unknown command '{word}': no order begins so either (HELP syntax gives the letters' syntax)",
                     word=words[0][:20]))


def letter_line(talk: Turn, text: str, _line: LetterLine) -> None:
    """Kept for the end of the seat's lines (`close_block`), when the letter is read whole."""
    game = talk.game
    assert game is not None
    if game.state not in RUNNING or game.phase is None:
        talk.echo(text, "error", _("the game is not running: letters are sent once it has started"),
                  code="NOT_RUNNING")
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
        talk.set_aside(lines, _("not applied: no letter is awaited from {country} in {phase} (4.3: an eliminated "
                                "player writes none)", country=seat, phase=game.phase), "NOT_AWAITED")
        return
    board = lifecycle.board_of(game)
    phase = Phase(game.phase[-1])
    orders: list[str] = []
    read_lines: list[str] = []  # the lines read as orders (or "none"): what is kept of the letter as written
    origins: list[int] = []  # the line of each order
    readable = False  # an order of this letter, or "none": the mail is a letter
    for index, text in lines:
        read, problems = parse_letter(text, board)
        if problems:
            talk.mark(index, "error", _("not read: {problem}; not carried out, not charged (8.1)",
                                        problem=problems[0].message), code=problems[0].code)
            continue
        if not read:
            empty = _NONE.fullmatch(text.split("#", 1)[0].strip()) is not None
            readable = readable or empty
            read_lines += [text] if empty else []
            talk.mark(index, "ok", _("read as: no order") if empty else _("skipped (a heading or a comment)"),
                      code="NO_ORDER" if empty else "SKIPPED")
            continue
        written = [str(order) for order in read]
        if len(orders) + len(written) > MAX_ORDERS:
            talk.mark(index, "error", _("not read: a letter holds at most {most} orders; not carried out, "
                                        "not charged (8.1)", most=MAX_ORDERS), code="TOO_MANY_ORDERS")
            continue
        if sum(map(len, orders + written)) > MAX_LETTER:
            most = f"{MAX_LETTER:,}"
            talk.mark(index, "error", _("not read: a letter's orders hold at most {most} characters in all; "
                                        "not carried out, not charged (8.1)", most=most), code="LETTER_TOO_LONG")
            continue
        wrong = [order for order in read if not fits(order, phase)]
        orders_read = "; ".join(written)
        if wrong:
            talk.mark(index, "error", _("read as '{orders}', which is no order of {label}: not carried out, not "
                                        "charged (2, 8.1)", orders=orders_read, label=lifecycle.label(game.phase)),
                      code="NOT_THIS_PHASE")
            continue
        if any(isinstance(order, Transfer) and order.to == seat for order in read):
            talk.mark(index, "error", _("read as '{orders}': a transfer names another player, never its writer: not "
                                        "carried out, not charged (8.1)", orders=orders_read), code="TRANSFER_TO_SELF")
            continue
        orders += written
        read_lines.append(text)
        origins += [index] * len(written)
        readable = True
        talk.mark(index, "ok", _("read as: {orders}", orders=orders_read), code="READ")
    if not readable:
        talk.note(lines[-1][0], [_("Nothing in this mail reads as an order of {label}: it is not taken as your letter, "
                                   "and the letter standing (if any) is unchanged (17.1). An empty letter is written: "
                                   "none", label=lifecycle.label(game.phase))])
        return
    _keep(talk, game, seat, lines, read_lines, orders, origins)


def _keep(talk: Turn, game: Game, seat: str, lines: list[tuple[int, str]], read_lines: list[str],
          orders: list[str], origins: list[int]) -> None:
    """The letter as it stands now: the first, or a correction with the first's transfers kept; of its text,
    the lines read (``read_lines``), not those refused or skipped; the answer warns of what its orders will
    come to that may be worth correcting."""
    assert game.phase is not None
    standing = lifecycle.letters_of(talk.session, game, game.phase).get(seat)
    since = api.latest_accepted(talk.session, game, game.phase, seat, lifecycle.LETTER)
    if (why := talk.superseded(since, _("your letter"))) is not None:
        talk.set_aside(lines, why)
        return
    number = 1 if standing is None else int(standing.parsed["number"]) + 1
    if number > 2:
        talk.set_aside(lines, _("not applied: your letter for {phase} was corrected once already, and a letter is "
                                "corrected once at most before the deadline (17.1, M35): your correction stands",
                                phase=game.phase), "CORRECTED_ONCE")
        return
    kept: list[str] = []
    board = lifecycle.board_of(game)
    if standing is not None:
        transfers = [str(o) for o in lifecycle.orders_of(board, standing) if isinstance(o, Transfer)]
        kept = list((Counter(transfers) - Counter(orders)).elements())
        kept = [t for t in transfers if t in kept]
    letter = [*kept, *orders]
    api.submit(talk.session, game, game.phase, seat, lifecycle.LETTER, "\n".join(read_lines),
                {"orders": letter, "kept": kept, "number": number}, talk.now, talk.accepted)
    cautions = _cautions(talk, game, seat, board, letter, origins, len(kept))
    what = lifecycle.label(game.phase)
    if number == 1:
        summary = [ngettext("This is your letter, {label}: {count} order. You may correct it once before the "
                            "deadline: a second letter replaces it whole, but its ducat transfers stand (17.1, M35).",
                            "This is your letter, {label}: {count} orders. You may correct it once before the "
                            "deadline: a second letter replaces it whole, but its ducat transfers stand (17.1, M35).",
                            len(letter), label=what)]
    else:
        summary = [ngettext("This corrects your letter, {label}: it replaces the first, whose ducat transfers stand "
                            "(17.1, M35). It may not be corrected again. It now holds {count} order.",
                            "This corrects your letter, {label}: it replaces the first, whose ducat transfers stand "
                            "(17.1, M35). It may not be corrected again. It now holds {count} orders.",
                            len(letter), label=what)]
        for at, transfer in enumerate(kept):
            summary += [_("Kept from your first letter: {order}", order=transfer),
                        *("  " + _("WARNING: {caution}", caution=views.caution_text(caution)) for caution in cautions
                          if caution.at == at)]
    if cautions:
        summary.append(ngettext("{count} warning: what it says may still be corrected, once, before the deadline "
                                "(17.1, M35).", "{count} warnings: what they say may still be corrected, once, before "
                                "the deadline (17.1, M35).", len(cautions)) if number == 1 else
                       ngettext("{count} warning: this letter may not be corrected again (17.1, M35).",
                                "{count} warnings: this letter may not be corrected again (17.1, M35).",
                                len(cautions)))
    talk.note(lines[-1][0], summary)


def _cautions(talk: Turn, game: Game, seat: str, board: Board, letter: list[str], origins: list[int],
              kept: int) -> tuple[Caution, ...]:
    """Warn, on the line of each order concerned, of what the letter will do that may be worth
    correcting (`judge.games.machiavelli.core.review`): the line keeps its answer ("read as"), its
    code names the caveat; the cautions, those on the ``kept`` transfers of the first letter
    (which come first in ``letter`` and have no line in this mail) left for the summary.
    ``origins`` is the line of each of this mail's orders."""
    position = lifecycle.position_now(talk.session, game)
    if position is None:
        return ()
    cautions = review(board, position, seat, parse_letter("\n".join(letter), board)[0])
    for caution in cautions:
        if caution.at >= kept:
            line = origins[caution.at - kept]
            talk.mark(line, code=caution.caveat.name)
            talk.note(line, [_("WARNING: {caution}", caution=views.caution_text(caution))])
    return cautions


def vote(talk: Turn, text: str, command: EndVote) -> None:
    """M64: a secret vote for a draw among every surviving country, or to concede the game to one;
    the game ends at the end of the campaign in which every surviving country with a player votes
    the same (the core decides: `judge.games.machiavelli.core.existence`).  A dummy or an
    eliminated country does not vote; a vote may be changed or withdrawn (VOTE NONE) until then."""
    game, country = talk.game, talk.seat
    assert game is not None and country is not None
    if game.state not in RUNNING:
        talk.echo(text, "error", _("the game is not running"), code="NOT_RUNNING")
        return
    position = lifecycle.position_now(talk.session, game)
    board = lifecycle.board_of(game)
    living = position.living(board.powers) if position is not None else ()
    if country not in living:
        talk.echo(text, "error", _("an eliminated country does not vote (M64)"), code="NOT_A_VOTER")
        return
    if why := talk.superseded(lifecycle.vote_of(game, country)[1], _("your vote")):
        talk.echo(text, "ignored", why, code="SUPERSEDED")
        return
    proposal: Proposal | None
    if command.choice == "CONCEDE":
        to = read_player(command.country or "", board)
        if isinstance(to, Problem):
            talk.echo(text, "error", to.message, code=to.code)
            return
        if to not in living or to not in lifecycle.standing_votes(talk.session, game):
            talk.echo(text, "error", _("{country} has no player or is eliminated: it cannot be conceded to (M64)",
                                       country=to), code="NOT_A_VOTER")
            return
        proposal, said = Proposal(to), _("to concede the game to {country}", country=to)
    elif command.choice == "DRAW":
        proposal, said = Proposal(), _("for a draw among all surviving countries")
    else:
        proposal, said = None, _("withdrawn (no vote)")
    lifecycle.set_vote(game, country, proposal, talk.accepted)
    talk.echo(text, "ok", _("your vote, kept secret: {vote} (the game ends at the end of the campaign in which every "
                            "surviving country with a player votes the same, M64)", vote=said))


def borders(talk: Turn, text: str, command: Borders) -> None:
    """BORDERS: every area the named one borders on the game's board, and by what (land, sea,
    a strait), from the data every rule reads (`judge.games.machiavelli.core.board.Board.borders`)."""
    game = talk.game
    assert game is not None
    board = lifecycle.board_of(game)
    code = read_area(command.area, board)
    if isinstance(code, Problem):
        talk.echo(text, "error", _("{problem} on the {board} board", problem=code.message, board=board.name),
                  code=code.code)
        return
    area, near = board.areas[code], board.borders(code)
    talk.echo(text, "ok", ngettext("{area} ({code}), {what}, borders {count} area:",
                                   "{area} ({code}), {what}, borders {count} areas:", len(near), area=area.name,
                                   code=code, what=_what(board, code)),
              extra=[*(_border_line(board, code, border) for border in near), *(
                  _("a fleet here carrying an army from {start} to {end} passes the strait of {strait} (9.3, M17)",
                    start=a, end=b, strait=strait.name)
                  for a, b, strait in board.passages_through(code))])


def _what(board: Board, code: str) -> str:
    """An area in words: its kind, its city, what it may hold."""
    area = board.areas[code]
    what = _("a sea") if area.is_sea else _("a coastal province") if area.is_coastal else _("an inland province")
    city = area.city
    if city is not None:
        cities = {(True, True): _("{what} with a fortified port city of income {income}"),
                  (True, False): _("{what} with a fortified city of income {income}"),
                  (False, True): _("{what} with an unfortified port city of income {income}"),
                  (False, False): _("{what} with an unfortified city of income {income}")}
        what = cities[city.fortified, city.port].format(what=what, income=city.income)
    if board.lagoon is not None and code == board.lagoon.island:
        what = _("{what}, reached from {sea} ({code}) alone (14)", what=what, sea=board.name_of(board.lagoon.sea),
                 code=board.lagoon.sea)
    if area.fleet_only:
        what = _("{what}, holding a fleet or a rebellion only (1.3, M15)", what=what)
    elif area.single_unit:
        what = _("{what}, holding one unit at a time (1.3)", what=what)
    return what


def _border_line(board: Board, code: str, border: Border) -> str:
    """One border: the neighbour, and by land, by sea, along which coasts, through which strait."""
    how = _("by land and by sea") if border.land and border.sea else _("by land") if border.land else _("by sea")
    if border.land and not border.sea and board.areas[code].is_coastal and board.areas[border.area].is_coastal:
        how = _("{how} (their coasts do not join: no fleet crosses, 9.3)", how=how)
    if border.fleets:
        coasts = ", ".join(f"{a} - {b}" for a, b in border.fleets)
        how = _("{how} (a fleet: {coasts})", how=how, coasts=coasts)
    strait = border.strait
    if strait is not None:
        how = (_("{how}, through the strait of {strait}, which a fleet in {controller} closes to others (9.3, M17)",
                 how=how, strait=strait.name, controller=board.name_of(strait.controller)) if strait.controller
               else _("{how}, through the strait of {strait}, which nobody controls; a retreat through it comes last "
                      "(13.5, M17)", how=how, strait=strait.name))
    code = f"{border.area:<4}"
    return "  " + _("{code} {area}: {how}", code=code, area=board.name_of(border.area), how=how)


def status_lines(talk: Turn, game: Game, seat: str) -> list[str]:
    """STATUS for a player: the phase and deadline, its treasury and units, its letter standing,
    and its absences."""
    lines: list[str] = []
    row = api.current_phase(talk.session, game)
    if row is None:
        return [*lines, _("the game has not started")]
    board = lifecycle.board_of(game)
    position = lifecycle.position_of(row, board)
    units = sorted(views.unit_text(u, owner=False, board=board) for u in position.units_of(seat))
    lines += [ngettext("You play {country}. Your treasury: {count} ducat.",
                       "You play {country}. Your treasury: {count} ducats.", position.treasuries.get(seat, 0),
                       country=seat),
              _("Your units: {units}", units=", ".join(units) or _("none"))]
    if row.status == "open" and seat in lifecycle.expected_now(talk.session, game):
        letter = lifecycle.letters_of(talk.session, game, row.name).get(seat)
        lines += views.letter_lines(letter.parsed["orders"] if letter else [],
                                    letter.parsed["kept"] if letter else [], int(letter.parsed["number"]) if letter
                                    else 0)
    proposal = lifecycle.vote_of(game, seat)[0]
    if proposal is not None:
        lines.append(_("Your vote on the game's end (M64, secret): a draw") if proposal.to is None else
                     _("Your vote on the game's end (M64, secret): to concede the game to {country}",
                       country=proposal.to))
    return [*lines, *absence_lines(talk.session, game, talk.now.date(), seat)]


def master_status(talk: Turn) -> list[str]:
    """STATUS for the game master: each country, played or a dummy, and its letter standing."""
    game = talk.game
    assert game is not None
    lines: list[str] = []
    if game.phase is None:
        return [*lines, *(_("{country}: joined", country=p.requested) if p.requested else _("a player: joined")
                          for p in api.players(talk.session, game))]
    expected = lifecycle.expected_now(talk.session, game)
    letters = lifecycle.letters_of(talk.session, game, game.phase)
    seat = api.seats(talk.session, game)
    for country in lifecycle.board_of(game).powers:
        state = api.seat_state(game, country, seat.get(country))
        letter = letters.get(country)
        count = len(letter.parsed["orders"]) if letter is not None else 0
        sent = (_("no letter awaited") if country not in expected else _("no letter yet") if letter is None else
                ngettext("letter of {count} order, corrected", "letter of {count} orders, corrected", count)
                if int(letter.parsed["number"]) > 1 else
                ngettext("letter of {count} order", "letter of {count} orders", count))
        lines.append(_("{country} ({state}): {letter}", country=country, state=state, letter=sent))
    return [*lines, *absence_lines(talk.session, game, talk.now.date())]


COMMANDS = (
    Entry(LetterLine, letter_line, PLAYER, closed_after_the_end=True),
    Entry(EndVote, vote, PLAYER, closed_after_the_end=True),
    Entry(Borders, borders, SIGNED_ON, lookup=True),
)
"""The commands of this module, for the dispatcher (`judge.service.dispatch`)."""
