"""Exchange Payola (Payola rule 6.8) as a kind of game the host runs (`judge.service.hosting.kinds.GameKind`):
the plug between the host and the game's edges (`lifecycle`, `sheets`, `handlers`, `mails`,
`pages`), which stand on its rules core, `judge.games.exchange.core`, and the libraries it shares
(`judge.engine`, `judge.payola`, `judge.render`).  It is written by concern, as `GameKind` is:
`ExchangeLobby`, `ExchangePhases` and `ExchangeCommands`, and `Exchange` for the rest.

A game is created with ``CREATE game password exchange [board] [INVESTORS=n] [SHARES=n]
[FUNDS=n] [options]``; each investor joins under a name of their own (``JOIN game password
name``, E1), which is their seat: they sign on with it (``SIGNON name@game password``) and the
sheets name investors by it.  The corporations are the board's powers; nobody owns one (X.1.1).
Its phases are the board's and the Exchange phase (``W1900X``, ``S1901M``, ... ``W1901X``),
lasting the game master's ``SET EXCHANGE``, ``SET MOVEMENT``, ``SET RETREAT`` and ``SET
ADJUSTMENT`` hours.

What anyone may know of a running game is E36's: the board, the orders issued, the investors
and the investor order, each corporation's CEO and shares; never who has sent what (LIST does
not tell it), nor anyone's money, holdings, bids or ballots (E40).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from types import MappingProxyType
from typing import Any

from sqlalchemy import Connection
from sqlalchemy.orm import Session

from judge import api
from judge.api import (
    Closing,
    Command,
    Commands,
    DemoJudge,
    Game,
    GameFacts,
    History,
    Kind,
    Lobby,
    PhaseChange,
    PhaseRow,
    Phases,
    Player,
    Publication,
    Settings,
    Turn,
    queue,
    render,
    writing_to,
)
from judge.engine.map import available_maps
from judge.engine.position import Phase
from judge.games.exchange import ahead, handlers, lifecycle, mails, pages, reading, sheets, stored, views
from judge.games.exchange.core.accounts import resign
from judge.games.exchange.core.views import ceo_view
from judge.games.exchange.form import form_parts
from judge.language import SOURCE, in_reader_language, later, ngettext
from judge.language import gettext as _


class ExchangeLobby(Lobby):
    """Exchange Payola's CREATE and JOIN, and its seats: the investors, each under the name it joined
    with (E1)."""

    name = "exchange"
    title = lifecycle.KIND_TITLE
    seat_word = "investor"
    join_usage = later("JOIN game password name [KEY key], the name you will invest under: letters and digits (E1)")

    # -- creating and joining ------------------------------------------------------------------------

    def read_create(self, words: Sequence[str]) -> tuple[str, list[str]]:
        return lifecycle.read_create(words)

    def create_help(self) -> list[str]:
        return [_("{kind} (CREATE game password exchange [board] [INVESTORS=n] [SHARES=n] [FUNDS=n]): investors trade "
                  "the powers' stock and elect their CEOs, on any board ({boards})", kind=self.title,
                  boards=", ".join(available_maps()))]

    def capacity(self, game: Game) -> int:
        return stored.options_of(game).investors

    def read_join(self, session: Session, game: Game, word: str | None) -> str | None:
        """The investor's name (E1): letters and digits, unique in the game whatever the case, not a
        power's name or initial, no word of the sheets or of the host's commands."""
        if not word:
            raise ValueError(_("an investor joins under a name: JOIN {game} password name (letters and digits, E1)",
                               game=game.name))
        problem = lifecycle.name_problem(session, game, word)
        if problem is not None:
            raise ValueError(problem)
        return word.upper()

    def read_preferences(self, session: Session, game: Game, words: Sequence[str]) -> list[str]:
        raise ValueError(_("PREFER does not apply to {kind}: every investor plays under the name they join with, and "
                           "nobody owns a power (JOIN {game} password name)", kind=self.title, game=game.name))

    def joined(self, game: Game, requested: str | None) -> str:
        return _("you joined '{game}' as the investor {investor}; the investor order is drawn when the game starts "
                 "(SIGNON {investor}@{game} password)", game=game.name, investor=requested)

    # -- seats -----------------------------------------------------------------------------------

    def handed_over(self, session: Session, game: Game, player: Player) -> None:
        """An investor's vote on the game's end is its player's: a new player starts with none (E34)."""
        investor = stored.seat_of(player)
        if investor is not None:
            stored.set_vote(game, investor, None, None)

    def abandoned(self, session: Session, game: Game, seat: str) -> str:
        """E16: a holder who sends no ballot votes for the sitting CEO if eligible, else abstains;
        the investor keeps its money and shares (it did not resign: E32 does not apply)."""
        return _("until a new player takes it over, the investor keeps its money and shares, makes no offer, and "
                 "its shares vote for each sitting CEO who may serve again, else abstain (E16)")

    def seat_order(self, session: Session, game: Game) -> list[str]:
        return sorted(stored.investors(session, game))

    def no_new_player(self, session: Session, game: Game, seat: str) -> str | None:
        """An investor who resigned has left the game for good (E32: money forfeited, shares back in
        the pools), and stays so even across a ROLLBACK: a new player would play no one."""
        state = stored.state_now(session, game)
        if state is not None and seat in state.resigned:
            return _("{investor} resigned and has left the game (E32): no one can play that investor again",
                     investor=seat)
        return None


class ExchangePhases(Phases):
    """Exchange Payola's phases: the board's, and the Exchange phase each Winter (E29)."""

    durations = MappingProxyType({"exchange": 48.0, "movement": 48.0, "retreat": 24.0, "adjustment": 24.0})
    between_phases = later("retreat and adjustment phases")
    phase_names = r"[SFW]\d{4}[MRAX]"  # W1900X, the Exchange phase, then the board's

    restored = later("the board, every balance, treasury and share, the CEOs and the investor order are as they were "
                     "before it was processed, and the sheets standing then stand again, as do the votes on the game's "
                     "end then standing (E34); each investor whose balance, shares or offices this changed is told, "
                     "alone. You may change your sheet")

    def start(self, session: Session, game: Game, settings: Settings, now: datetime) -> None:
        lifecycle.start(session, game, settings, now)

    def phase_order(self, name: str) -> tuple[int, ...] | None:
        """The board's order (Payola's), then each winter's Income step and Exchange phase after its
        adjustments (X.8.1: ``W1901A``, ``W1901I``, ``W1901X``, ``S1902M``)."""
        if re.fullmatch(r"W\d{4}[IX]", name):
            return int(name[1:5]), 2, {"I": 3, "X": 4}[name[-1]]
        try:
            return Phase.parse(name).sort_key()
        except ValueError:
            return None

    def following(self, game: Game, phase: str) -> tuple[str, ...]:
        return ahead.following(phase)

    def length_of(self, phase: str) -> str:
        return {"X": "exchange", "M": "movement", "R": "retreat", "A": "adjustment"}[phase[-1]]

    def is_between(self, phase: str) -> bool:
        return phase[-1] in "RA"

    def waiting(self, session: Session, game: Game) -> list[str]:
        return lifecycle.waiting_seats(session, game)

    def complete(self, session: Session, game: Game, turn: Turn | None = None, now: datetime | None = None) -> bool:
        return lifecycle.is_complete(session, game)

    def closes_at_next_tick(self, session: Session, game: Game, row: PhaseRow) -> bool:
        return lifecycle.closes_at_next_tick(session, game, row)

    def results_mails(self, session: Session, game: Game) -> int:
        return lifecycle.results_mails(session, game)

    def process(self, session: Session, game: Game, settings: Settings, now: datetime, closing: Closing) -> PhaseChange:
        return lifecycle.process_phase(session, game, settings, now, closing)

    def rolling_back(self, session: Session, game: Game, to: PhaseRow, later: Sequence[PhaseRow]) -> None:
        lifecycle.rolling_back(session, game, to, later)

    def rolled_back(self, session: Session, game: Game, settings: Settings, now: datetime) -> None:
        lifecycle.rolled_back(session, game, settings, now)

    def changed_since_rollback(self, session: Session, game: Game) -> str | None:
        return lifecycle.changed_since_rollback(session, game)

    def terminated(self, session: Session, game: Game, now: datetime) -> None:
        lifecycle.terminated(session, game, now)

    def publication(self, session: Session, game: Game) -> Publication:
        return lifecycle.publication(session, game)

    def label(self, phase: str) -> str:
        return lifecycle.label(phase)

    def notice(self, session: Session, game: Game, row: PhaseRow, seat: str, which: str, until: datetime,
               extended: datetime | None = None) -> str:
        return lifecycle.notice(session, game, row, seat, which, until, extended)


class ExchangeCommands(Commands):
    """Exchange Payola's commands by mail, and what it answers about a game."""

    title: str
    commands = handlers.COMMANDS
    words = (*reading.USAGE, "CLEAR", "MAP", "VOTE")

    def read(self, text: str, game: Game | None) -> Command:
        return handlers.read(text)

    def close_block(self, turn: Turn) -> None:
        sheets.accept_mail(turn)

    def check_ahead(self, game: Game, phase: str, command: Command) -> str | None:
        return ahead.check_ahead(game, phase, command)

    def read_ahead(self, session: Session, game: Game, seat: str,
                   lines: Sequence[str]) -> list[tuple[str, str | None, str]]:
        return ahead.read_ahead(session, game, seat, lines)

    def status(self, turn: Turn) -> list[str]:
        return handlers.status_lines(turn)

    def master_status(self, turn: Turn) -> list[str]:
        return handlers.master_status(turn)

    def help(self, settings: Settings) -> str:
        return render("exchange/help", settings=settings)

    def form(self, session: Session, game: Game, seat: str) -> api.Form | None:
        """The investor's form to fill in the open phase (`judge.games.exchange.form`): from the state the
        phase keeps, their own money and shares, and the blocks of the corporations they run."""
        row = api.current_phase(session, game)
        if row is None or row.status != "open" or seat not in api.seats(session, game):
            return None
        parts = form_parts(stored.state_of(row), seat)
        return api.Form(row.name, seat, *map(tuple, parts)) if parts is not None else None

    def info(self, game: Game) -> list[str]:
        options = stored.options_of(game)
        if options.payola.zerosum:
            year = _("one Exchange phase a year after the Winter adjustments and the Income step (E29); sealed "
                     "pay-as-bid market (E8), elections by shares (X.4), ZEROSUM: no income, the bribes a "
                     "corporation's units take are paid to it at the Income step and captures move money (6.7); "
                     "everything is published at the end (E41)")
        else:
            year = _("one Exchange phase a year after the Winter adjustments and the Income step (E29); sealed "
                     "pay-as-bid market (E8), elections by shares (X.4), worths set by each CEO in Spring (E22); "
                     "everything is published at the end (E41)")
        return [_("{kind} (Payola rule 6.8; the numbers are the rulings E1 to E41 and the Payola rules')",
                  kind=self.title),
                _("board: {board}; the corporations are its powers (X.1.1)", board=game.variant),
                _("INVESTORS={investors} (E1), SHARES={shares} a corporation, all in its pool at the start (E7), "
                  "FUNDS={funds} AgP each investor (E4); corporations start with 0 AgP", investors=options.investors,
                  shares=options.shares, funds=options.funds),
                _("Payola options: {options}", options=" ".join(options.payola.names) or _("none")),
                year]

    def brief(self, turn: Turn, game: Game, seat: str, player: Player, address: str) -> None:
        """What the investor's seat knows now: its own money, shares and corporations, the board
        and its map, and the seat's last statement (its own sections of the results of the last
        phase that had any for it); nothing of another investor's (E40)."""
        state = stored.state_now(turn.session, game)
        assert state is not None
        with writing_to(turn.session, turn.settings, address, game):
            lines = [*views.wrap(_("investor order (E30): {order}", order=", ".join(state.order)), "")]
            if seat in state.order:
                lines += [_("your balance: {amount} AgP", amount=state.purses[seat]),
                          *views.holdings_lines(sorted(state.register.portfolio(seat).items()), "")]
                for corporation in state.corporations:
                    if state.ceos.get(corporation) == seat:
                        lines += views.ceo_lines(ceo_view(state, corporation, seat))
            position = state.position
            board = [_("The board as it stands (units, then supply centers):"),
                     *views.board_lines(((str(p.unit), p.power) for p in position.units.values()),
                                        sorted(position.centers.items()), state.ceos, position.game_map.supply_centers)]
            last = next((r for r in reversed(api.processed_phases(turn.session, game))
                         if r.result and _statement(r, seat)), None)  # its last with a word for it
            sections = _statement(last, seat) if last is not None else []
            body = render("exchange/briefing", game=game, seat=seat, lines=lines, board=board,
                          todo=mails.todo(state, seat), last=last.name if last is not None else None, sections=sections,
                          deadline=game.deadline)
            pictures = mails.position_map(game.name, position, state, role="board") if turn.settings.maps else []
            queue(turn.session, turn.settings, to=address,
                  subject=_("{game}: your briefing as {seat}", game=game.name, seat=seat), kind="notice",
                  now=turn.now, game_id=game.id, body=body, attachments=pictures, opens=seat)

    def resigned(self, turn: Turn, game: Game, seat: str) -> str:
        """E32: the investor leaves the game: their money is forfeited, their shares go back to each
        corporation's pool, and they leave every CEO office (E19)."""
        row = api.current_phase(turn.session, game)
        if row is None or row.status != "open":
            return ""
        state = stored.state_of(row)
        if seat not in state.order:
            return ""
        stored.save(row, resign(state, seat))
        led = [views.title(c) for c in state.corporations if state.ceos.get(c) == seat]
        if led:  # E19: the corporations it led are leaderless until the next election; everyone is told
            turn.announce(lambda: ngettext(
                "the player of {seat} resigned: {corporations} is now leaderless until the next election (E2, E19)",
                "the player of {seat} resigned: {corporations} are now leaderless until the next election (E2, E19)",
                len(led), seat=seat, corporations=_and(led)), public=True)
            return ngettext("as an investor who resigns (E32), you forfeit your money, your shares go back to the "
                            "corporations' pools and you leave any CEO office: {corporations} is now leaderless "
                            "(E19)",
                            "as an investor who resigns (E32), you forfeit your money, your shares go back to the "
                            "corporations' pools and you leave any CEO office: {corporations} are now leaderless "
                            "(E19)", len(led), corporations=_and(led))
        return _("as an investor who resigns (E32), you forfeit your money, your shares go back to the "
                 "corporations' pools and you leave any CEO office")

    def list_lines(self, turn: Turn, game: Game) -> list[str]:
        """The board, options and phase, the investor order and each corporation's CEO and shares (E36),
        each investor's seat; never who has sent what."""
        state = stored.state_now(turn.session, game)
        return api.answer_list(game, lifecycle.describe(game), lifecycle.label(game.phase) if game.phase else None,
                               sorted(stored.investors(turn.session, game).items()),
                               handlers.public_lines(state) if state is not None else ())

    def history(self, turn: Turn, text: str, game: Game, command: History) -> None:
        """The public results of the processed phases (what every investor received, E36): all of
        them, the one named (``HISTORY g S1901M``) or a range (``HISTORY g W1900X-F1901M``), as the
        other kinds read it; a phase named that the game has not processed is refused, naming those it
        has.  Once the game has ended, the whole history ends with the publication of everything (E41)."""
        record = pages.gather(turn.session, game)
        names = [name for name, _kind in record.phases]
        for named in (command.first, command.last):
            if named is not None and named not in names:
                turn.echo(text, "error", _("{game} has processed no phase {phase} (processed: {phases})",
                                           game=game.name, phase=named[:20], phases=", ".join(names) or _("none")),
                          code="NO_SUCH_PHASE")
                return
        lines = pages.history_lines(record, command.first, command.last)
        if not lines:
            turn.echo(text, "ok", _("no phase of {game} has been processed yet", game=game.name) if not names else
                      _("no processed phase of {game} from {first} to {last}", game=game.name, first=command.first,
                        last=command.last))
            return
        turn.answer_long(text, f"{game.name}-history.txt", "\n".join(lines), _("the history"))

    def summary(self, turn: Turn, text: str, game: Game) -> None:
        api.answer_summary(turn, text, game, "exchange/summary", lifecycle.describe(game),
                            lifecycle.label(game.phase) if game.phase else None)


class Exchange(ExchangeLobby, ExchangePhases, ExchangeCommands, Kind):
    """Exchange Payola, as the host sees it: its lobby, phases and commands, and its pages, records
    and demo."""

    # -- pages -----------------------------------------------------------------------------------

    def public_results(self, session: Session, game: Game, row: PhaseRow) -> list[str]:
        """What every player and observer read of the phase: its public lines."""
        return [str(line) for line in in_reader_language((row.result or {}).get("public")) or []]

    def facts(self, session: Session, game: Game, acting: bool = True,
              seated: Sequence[Player] | None = None) -> GameFacts:
        return pages.facts_of(session, game, seated)

    def gather(self, session: Session, game: Game) -> Any:
        return pages.gather(session, game)

    def write_pages(self, root: Path, record: Any, force: bool = False) -> Path:
        return pages.write_game(root, record, force)

    # -- records ---------------------------------------------------------------------------------

    def totals(self, connection: Connection) -> dict[str, int]:
        """Every investor's purse, corporation's treasury, the AgP destroyed and those ZEROSUM owes of
        each Exchange game as it stands ("g1 ANN", "g1 FRANCE", "g1 destroyed", "g1 owed FRANCE"): a
        copy of the database must keep every silver piece.  The game keeps them in its phase rows
        (`judge.games.exchange.stored`)."""
        return stored.totals(connection, self.name)

    def standings(self, session: Session, game: Game) -> list[api.Standing]:
        """E35: the investors by % control of the winning corporation, or of those in the draw, which
        is their money's standing too (an investor owns no centre)."""
        from judge.games.exchange.core.scoring import ranking
        from judge.games.exchange.core.state import Stage

        state = stored.state_now(session, game)
        if state is None or state.stage is not Stage.ENDED:
            return []
        return [api.Standing(score.investor, score.rank, views.control(score.control),
                             money=views.control(score.control))
                for score in ranking(state)]

    def check_phase(self, session: Session, game: Game, row: PhaseRow) -> None:
        """The state the phase started from, and once processed the state it left, read as the
        game reads them when it goes on: its board's units where they may stand on the game's map,
        its investors the game's seats."""
        from judge.games.exchange.core.notation import state_from_data

        states: list[tuple[str, Any]] = [("position", row.position)]
        if row.status == "processed" and row.result:
            states.append(("result", (row.result or {}).get("state")))
        for where, data in states:
            try:
                state = state_from_data(data)
            except KeyError as exc:
                raise ValueError(f"{where}: it lacks {exc}") from None
            except (ValueError, TypeError, AttributeError) as exc:
                raise ValueError(f"{where}: {exc}") from None
            if state.game_map.name != game.variant:
                raise ValueError(f"{where}: a board of {state.game_map.name}, not of the game's {game.variant}")
            if sorted(state.order) != sorted(api.seats(session, game)):
                raise ValueError(f"{where}: its investors are {', '.join(sorted(state.order))}, not the game's seats")

    def saved_game(self, session: Session, game: Game) -> dict[str, Any] | None:
        """The board phases' boards and the orders carried out (as their public results list them),
        as the ``diplomacy`` package saves a game: no stock, no money, which it has no place for.
        The package takes its last phase for the one the game is in: in the Income step or the
        Exchange phase, that is the board as it stands, named as the board phase that comes next
        (in W1901X, S1902M's board, after every board phase of 1901)."""
        from judge.engine.map import load_map
        from judge.engine.saved_game import Phase, saved_game

        board = load_map(game.variant)
        named = {_letters(power): power for power in board.powers}
        current = api.current_phase(session, game)
        rows = [*api.processed_phases(session, game), current]
        phases = []
        for row in dict.fromkeys(row for row in rows if row is not None):
            if not isinstance(row.position.get("position"), dict):
                continue
            if row.position.get("stage") != "board":
                if row is current and row.status == "open":  # the board now, as the next board phase starts
                    phases.append(Phase(str(row.position["position"].get("phase")), row.position["position"]))
                continue
            orders: dict[str, list[str]] = {}
            for line in _orders_of(_english((row.result or {}).get("public"))) if row.status == "processed" else []:
                title, _colon, order = line.strip().partition(": ")
                orders.setdefault(named.get(_letters(title), title.upper()), []).append(order)
            phases.append(Phase(row.name, row.position["position"], orders))
        return saved_game(game.name, board, game.variant, phases)

    # -- the demo --------------------------------------------------------------------------------

    def demo(self, judge: DemoJudge, blind: bool = False, scenario: str | None = None) -> None:
        if blind:
            raise ValueError(f"{self.title} has no blind variant")
        from judge.games.exchange import demo

        demo.play(judge)


def _and(names: Sequence[str]) -> str:
    """Names joined as a list in the reader's language: ``France and Italy``."""
    if len(names) < 2:
        return "".join(names)
    return _("{first} and {last}", first=", ".join(names[:-1]), last=names[-1])


def _statement(row: PhaseRow, investor: str) -> list[Any]:
    """What ``investor`` alone was told of the phase of ``row``, in the reader's language."""
    return list(in_reader_language((row.result or {}).get("statements", {}).get(investor)) or [])


def _english(public: Any) -> list[str]:
    """A phase's public results as the judge writes them in English: how the saved game reads its orders."""
    kept = public.get(SOURCE) if isinstance(public, dict) else public
    return [str(line) for line in kept or []]


def _letters(name: str) -> str:
    """A power's name or title reduced to its letters, upper case: how the two are matched."""
    return "".join(letter for letter in name.upper() if letter.isalpha())


def _orders_of(public: Sequence[str]) -> list[str]:
    """The lines of the orders carried out in a board phase's public results ("Orders:", then one
    "  Power: order" a line, to a blank line)."""
    found: list[str] = []
    reading = False
    for line in public:
        if line.strip() == "Orders:":
            reading = True
        elif reading and not line.strip():
            break
        elif reading:
            found.append(line)
    return found
