"""The host's port for games: what a kind of game is, as the host sees it, and the registry of kinds.

The host (`judge.service`, `judge.web`, `judge.store`, `judge.mail`, `judge.commands`: mail in
and out, accounts, seats and passwords, sign-on and its back-off, consent, deadlines and the
clock, the game master's tools, observers, takeovers, absences, the outbox, the pages'
framework and the index) knows no game.  It defines here what a kind of game must be, as typed
protocols split by concern, and what a kind returns; a kind (``judge/games/<kind>/``) implements
them and is handed to the host by the composition root (`judge.bootstrap`), which lists every
kind once.  The host never imports a kind.  A member whose body here is more than ``...`` has
that body as its default; `judge.service.hosting.contract` says which members a kind must write, gives
the defaults that read the host's rows (`judge.service.hosting.contract.Kind`) and checks each kind.

- `Lobby`: its words at CREATE and JOIN, how its seats are named and how many it takes;
- `Phases`: START, how long each phase lasts, who must still act (whom the clock reminds),
  whether a phase is complete before its deadline, what closing one does (it returns a
  `PhaseChange`: the host, not the kind, moves the game's state, `judge.service.states`),
  ROLLBACK if it has one, TERMINATE;
- `Commands`: its command table (`judge.service.dispatch.Entry`: the host builds one
  dispatcher at start-up from its own table and every kind's), its grammar for a line the host's
  does not know, what a seat's block of lines does when it ends, STATUS, the takeover's briefing,
  LIST, HISTORY, SUMMARY, GET INFO and its part of HELP.  While one mail is applied a kind sees
  only a `judge.service.hosting.turn.Turn`, never the host's conversation;
- `Pages`: its public facts and its pages;
- `Demo`: the short game ``judge demo`` plays.

A kind's rules core is pure and lives in its folder (``core/``) or in a library it shares (the
Diplomacy engine, `judge.engine`, the renderer, `judge.render`, and the Payola core,
`judge.payola`); its edges use the host's services (`judge.service.hosting.host`, `outbox`, `render`,
`phase_changes`, ...) and their own core, never another kind's.  The import contracts of
``.importlinter`` hold all of this in CI.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from importlib import resources
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Protocol

from sqlalchemy import Connection
from sqlalchemy.orm import Session

from judge.commands.parse import Command as Line
from judge.commands.parse import History, press_to_seats
from judge.language import Stored, add_catalogue, later
from judge.language import gettext as _
from judge.service.config import Settings
from judge.service.dispatch import Dispatcher, Entry
from judge.service.hosting.turn import Said, Turn, said
from judge.service.options import GAME_FLAGS, split_options
from judge.service.outgoing import forms
from judge.service.outgoing.forms import Form
from judge.service.templates import add_kind_templates, seats_word, when
from judge.store.models import Game, PhaseRow, Player
from judge.web.public import GameFacts

if TYPE_CHECKING:
    from judge.service.hosting.scripts import DemoJudge


@dataclass(frozen=True)
class PhaseChange:
    """What closing a phase did (`Phases.process`): the phase closed, the one opened (None: the game
    is over), and once it is over who won, if anyone did, who shared a draw (``drawn``: Machiavelli's
    surviving countries, M64), and the result in words: a stored wording (`judge.language.later`), worded
    in each reader's language when read, or a plain string, shown as it is.  The host moves the game's
    state from it (`judge.service.hosting.course`)."""

    phase: str
    next_phase: str | None
    winner: str | None = None
    result: Stored | None = None
    drawn: tuple[str, ...] = ()


@dataclass(frozen=True)
class Closing:
    """Why and how the open phase closes, as the host tells its kind (`Phases.process`): ``cause``,
    for the log ("deadline", "all submitted", "master's PROCESS"); ``notes``, what every mail of
    the closing says first (an early PROCESS, what the master's mail announced, that the results
    replace earlier ones); ``again``, whether the phase was processed before and rolled back."""

    cause: str
    notes: tuple[Said, ...] = ()
    again: bool = False

    @property
    def preface(self) -> str | None:
        """The notes as one paragraph in the language being written in, or None: a kind asks for it
        inside each reader's language (`judge.api.writing_to`), as it writes that reader's mail."""
        return " ".join(self.lines) or None

    @property
    def lines(self) -> tuple[str, ...]:
        """Each note in the language being written in (asked for as `preface` is)."""
        return tuple(said(note) for note in self.notes)

    def subject(self, game: str, phase: str) -> str:
        """The subject of the phase's results: "g1 S1901M results", and "... results again, after a
        rollback" when they replace earlier ones, in every kind."""
        if self.again:
            return _("{game} {phase} results again, after a rollback", game=game, phase=phase)
        return _("{game} {phase} results", game=game, phase=phase)


@dataclass(frozen=True)
class Publication:
    """What a game's end publishes (`Phases.publication`): a sentence saying what is published,
    with the rules that keep it secret until then, and the text itself, as lines."""

    intro: str
    lines: Sequence[str] = ()


@dataclass(frozen=True)
class Standing:
    """A seat's place when its game ended, by its kind's rules (`Pages.standings`): ``place`` (tied
    seats share the best, 1, 1, 3) and its ``score`` in words ("9 cities", "66.7% control"); where
    the kind has them, the ``centres`` it owned (what the tournament scores count,
    `judge.service.hosting.scores`) and its ``money`` at the end in words ("42 AgP", "12 ducats")."""

    seat: str
    place: int
    score: str
    centres: int | None = None
    money: str | None = None


def ranked(scores: Sequence[tuple[str, Any, str]], centres: Mapping[str, int] | None = None,
           money: Mapping[str, str] | None = None) -> list[Standing]:
    """Seats ranked by their scores (``seat``, score to compare, score in words), best first; equal
    scores share a place (1, 1, 3); each with its ``centres`` and ``money`` where the kind gives them."""
    found: list[Standing] = []
    order = sorted(scores, key=lambda item: item[1], reverse=True)
    for at, (seat, score, words) in enumerate(order, 1):
        place = found[-1].place if found and order[at - 2][1] == score else at
        found.append(Standing(seat, place, words, None if centres is None else centres.get(seat, 0),
                              None if money is None else money.get(seat)))
    return found


class Lobby(Protocol):
    """A kind's words at CREATE and JOIN, and its seats."""

    name: str
    """The word CREATE names it by, kept in ``games.kind``."""
    title: str
    """The game's name for people: "Payola Diplomacy"."""
    seat_word: str = "player"
    """What a seat is called in answers: "power", "player"."""
    player_word: str = ""
    """What an answer calls those a seat's name names, where one names none ("there is no player named
    ..."): by default, the `seat_word`."""
    join_usage: Stored = later("JOIN game password name [KEY key]")
    """JOIN in this kind's words, as a JOIN line that cannot be read is answered: "JOIN game
    password [power] [KEY key], ..."; a stored wording (`judge.language.later`), worded in the reader's
    language where it is shown (a plain string is shown as it is)."""

    def read_create(self, words: Sequence[str]) -> tuple[str, list[str]]:
        """CREATE's words after the kind's name: the game's ``variant`` and ``options`` to keep;
        ValueError with a message for the game master if they cannot be read.  By default the
        host's options only (`judge.service.options.GAME_FLAGS`), the variant the kind's name."""
        own, options = split_options(list(words), GAME_FLAGS)
        if options:
            raise ValueError(_("'{option}' is no option of {kind}", option=options[0][:20], kind=self.title))
        return self.name, own

    def create_help(self) -> list[str]:
        """How to CREATE a game of this kind, as LIST ends with it."""
        return [_("{kind} (CREATE game password {name})", kind=self.title, name=self.name)]

    def capacity(self, game: Game) -> int:
        """How many players the game takes."""
        ...

    # By default a seat is its player's name as joined (any case when named later: ``SIGNON
    # alice@game``, ``PRESS TO Alice``), in the order of the names, and nobody chooses a seat with
    # PREFER: the seats of Pirates' Proposal, Exchange Payola and the example kind.  The defaults that
    # read the game's seats are `judge.service.hosting.contract.Kind`'s.

    def name_problem(self, session: Session, game: Game, name: str) -> str | None:
        """Why ``name`` cannot be a player's name in ``game`` (None: it can): by default, the shape of
        `judge.service.hosting.contract.NAME`, no word of the commands, and no name taken in the game whatever
        the case."""
        ...

    def read_join(self, session: Session, game: Game, word: str | None) -> str | None:
        """JOIN's word after the password (a wish or a name, as written), to keep as the
        player's ``requested``; ValueError with a message if it cannot be taken.  By default the
        player's name (`name_problem`)."""
        if not word:
            raise ValueError(_("a player of {kind} joins under a name: JOIN {game} password name", kind=self.title,
                               game=game.name))
        if (problem := self.name_problem(session, game, word)) is not None:
            raise ValueError(problem)
        return word

    def read_preferences(self, session: Session, game: Game, words: Sequence[str]) -> list[str]:
        """JOIN's ``PREFER`` words: the seats wanted, best first, for `Phases.start` to satisfy as
        well as it can; ValueError with a message if they cannot be read, or if the kind's seats
        are not assigned (by default)."""
        raise ValueError(_("PREFER does not apply to {kind}: each player plays under the name they join with (JOIN "
                           "{game} password name)", kind=self.title, game=game.name))

    def joined(self, game: Game, requested: str | None) -> str:
        """The answer to a JOIN that was taken."""
        return _("you joined '{game}' as {name} (SIGNON {name}@{game} password)", game=game.name, name=requested)

    def seat(self, session: Session, game: Game, word: str) -> str:
        """The seat ``word`` names in ``game`` (any case); ValueError with a message if none.  By
        default the seat of that name."""
        ...

    def seat_title(self, seat: str) -> str:
        """A seat as answers write it: "France", "Alice"."""
        return seat

    def handed_over(self, session: Session, game: Game, player: Player) -> None:
        """What else happens when the seat of ``player`` changes hands (TAKEOVER, REPLACE): by
        default, nothing."""
        return None

    def no_new_player(self, session: Session, game: Game, seat: str) -> str | None:
        """Why ``seat`` can have no player again (Exchange's investor who resigned has left the game,
        E32), or None: SET OPENING, TAKEOVER and REPLACE are refused with it; by default, None."""
        return None

    def abandoned(self, session: Session, game: Game, seat: str) -> str:
        """``seat`` has just been declared abandoned (its player missed the game's number of
        deadlines in a row, `judge.service.hosting.silent_seats`) and is open for TAKEOVER: what the kind
        does with it until a new player comes, in words for everyone ("its units hold, rule 3.3").
        By default nothing more: it plays on as a seat that sends nothing does."""
        return _("until a new player takes it over it plays on as a seat that sends nothing does")

    def out_of_game(self, session: Session, game: Game, seat: str) -> bool:
        """Whether ``seat`` is out of the game though its player keeps it (Machiavelli's eliminated
        countries, AoP 4.3): its player may then take over another seat (AoP 18.3's substitute
        leader); by default, never."""
        return False

    def seat_order(self, session: Session, game: Game) -> list[str]:
        """Every seat the game has or will have, in the order lists show them (PRESS TO ALL); by
        default the seats' names in alphabetical order."""
        ...

    def press_to(self, session: Session, game: Game, words: Sequence[str]) -> tuple[str, ...]:
        """Whom the line ``PRESS TO ...`` (its words) names: ``("ALL",)``, or seats and
        ``"MASTER"`` (the game master) in the order named; ValueError with a message."""
        return press_to_seats(words, _("expected PRESS TO followed by {seats}' names, ALL, or MASTER",
                                       seats=seats_word(self.player_word or self.seat_word)),
                              lambda name: self.seat(session, game, name))


class Phases(Protocol):
    """A kind's phases: their lengths, who must act, and what opening and closing one does."""

    durations: Mapping[str, float]
    """The settings of the lengths of its phases, in hours by default (``SET <setting> hours``)."""
    clock_presets: Mapping[str, Mapping[str, str]] = MappingProxyType({})
    """Weekly clocks the kind offers by name (``SET CLOCK AOP``): for each, the rule of each of its
    phase settings in SET CLOCK's words (``"MON 12:00 UTC"``, `judge.service.hosting.weekly.read_rule`), and
    under ``"grace"`` a grace period (``"1h"``) if the preset sets one.  None by default."""
    between_phases: Stored = ""
    """What the kind's phases between its main ones are called (``later("retreat and adjustment phases")``,
    worded in the reader's language where it is shown), in which a game may forbid press (``SET PRESS
    BETWEEN OFF``); empty: it has none."""
    phase_names: str = ""
    """A regular expression that every name of the kind's phases matches whole (``[SFW]\\d{4}[MRA]``):
    a word of a mail's subject that matches it, and that `phase_order` places after the phase now,
    names a phase even before the game has one of that name, so that a mail meant for a phase the
    game has not reached is not applied to the phase now (`judge.service.incoming.late`).  Empty: only the
    phases the game has played are known by name."""
    closes_early: bool = True
    """Whether a phase may close before its deadline once it is `complete`: then a seat's WAIT holds
    it to its deadline (`judge.service.hosting.host.closes_early`); where none ever does (Pirates'
    Proposal, P10), WAIT has nothing to hold and is refused, saying why."""

    def start(self, session: Session, game: Game, settings: Settings, now: datetime) -> None:
        """Assign the seats, open the first phase and queue the start mails (`GameError`); the
        host then makes the game active."""
        ...

    def phase_order(self, name: str) -> tuple[int, ...] | None:
        """Where the phase named ``name`` (upper case, a name `phase_names` matches) comes in the kind's
        course: a key that sorts its phases in the order a game plays them (``S1901M`` before
        ``F1901M``), or None if the kind never has a phase so named (``S1901A``: adjustments are in
        winter).  A word of a mail's subject names a phase to come only if its key is after the phase
        now's (`judge.service.incoming.late`): a tag that merely looks like a phase's name (``[f0045a]``, a
        year the game left behind) names none.  By default None: no phase to come is known by name."""
        return None

    def following(self, game: Game, phase: str) -> tuple[str, ...]:
        """The phases that may come after ``phase`` (the game's now), nearest first, for which a seat may
        send lines ahead (``PHASE <later phase>``, `judge.service.incoming.handlers.ahead`): the host keeps a block
        for the first `judge.service.incoming.late.AHEAD` of them.  A phase the game may skip (retreats when
        nobody is dislodged) is named all the same.  By default none: the kind keeps no lines for a later
        phase, and a ``PHASE`` line naming one holds the mail's lines back, as it always did."""
        return ()

    def length_of(self, phase: str) -> str:
        """The duration setting (a key of `durations`) that the phase named ``phase`` lasts: by
        default the first (a kind of one length of phase has no more)."""
        return next(iter(self.durations))

    def waiting(self, session: Session, game: Game) -> list[str]:
        """The seats that must act in the current phase and have not: whom the clock reminds."""
        ...

    def complete(self, session: Session, game: Game, turn: Turn | None = None, now: datetime | None = None) -> bool:
        """Whether the current phase closes now, before its deadline (``turn``: the mail being
        applied, whose reads may be used; ``now``: the time, if not the mail's).  By default once
        nobody is `waiting`."""
        return game.phase is not None and not self.waiting(session, game)

    def closes_at_next_tick(self, session: Session, game: Game, row: PhaseRow) -> bool:
        """Whether the phase of ``row``, the game's current one (which the flush under way may
        not have written yet), is complete already: one in which nobody has anything to do.
        The clock then closes it at its next tick (`judge.service.hosting.schedule`) instead of at its
        deadline or at whatever mail comes first.  By default, never."""
        return False

    def results_mails(self, session: Session, game: Game) -> int:
        """How many mails closing the current phase queues, for the mail's budget: by default one to
        each played seat, each observer and the game master."""
        ...

    def process(self, session: Session, game: Game, settings: Settings, now: datetime, closing: Closing) -> PhaseChange:
        """Close the current phase, queue its mails (each saying ``closing.lines`` first, under
        ``closing.subject``), and open the next phase, or say that the game is over: the host moves
        the game's state, and at the end publishes (`publication`)."""
        ...

    restored: Stored = later("everything is as it was before it was processed")
    """What a ROLLBACK brings back, for the players' announcement ("the position, balances, offer
    sheets, orders and acceptance lists are as they were before it was processed"): a stored wording,
    worded in each reader's language."""

    def rolling_back(self, session: Session, game: Game, to: PhaseRow, later: Sequence[PhaseRow]) -> None:
        """ROLLBACK to the processed phase of ``to``: bring back the kind's own records as they were
        before it was processed, and drop its records of the ``later`` phases (the host then drops
        their rows and submissions and opens ``to`` again).  A kind that cannot go back raises
        `GameError` saying why.  By default, nothing: the phase rows hold all."""
        return None

    def rolled_back(self, session: Session, game: Game, settings: Settings, now: datetime) -> None:
        """After a ROLLBACK, tell each player alone what it changed of their secrets (Exchange: an
        investor's balance and shares); by default, nothing: the public announcement says it all."""
        return None

    def changed_since_rollback(self, session: Session, game: Game) -> str | None:
        """What changed in the kind's own records since the ROLLBACK (money, acceptance lists), in
        words, which ROLLFORWARD would discard and so refuses; None if nothing did (the host checks
        the submissions itself).  By default, None."""
        return None

    def terminated(self, session: Session, game: Game, now: datetime) -> None:
        """TERMINATE of a started game: close what is open before the end is published (Exchange
        ends the open phase unplayed); by default, nothing."""
        return None

    def publication(self, session: Session, game: Game) -> Publication:
        """What the game's end publishes to everyone: everything its rules kept secret while it ran
        (the host adds the result and who played which seat, `judge.service.hosting.course.publish`).  By
        default nothing more: nothing was secret."""
        return Publication(_("Nothing of the game was kept secret: there is nothing more to publish."))

    confirms_letters: bool = False
    """Whether, as the seats still to act are alerted at the deadline, each played seat whose part is
    in is told so, alone (Machiavelli's confirmation of each letter received, M59, M66): `notice`
    with ``which`` ``"received"``.  None by default."""

    def notice(self, session: Session, game: Game, row: PhaseRow, seat: str, which: str, until: datetime,
               extended: datetime | None = None) -> str:
        """The body of the reminder, the late alert or (where the kind `confirms_letters`) the
        confirmation (``which``: ``reminder``, ``late``, ``received``; "": none for this seat) to
        ``seat`` alone.  ``until``: the end of the grace period after the deadline; ``extended``:
        where the game's policy has an automatic extension left (`judge.service.hosting.silence`), the
        deadline it gives a phase in which a played seat has still not acted at ``until``.  A late
        alert then says that, without a mail by ``until``, the phase is extended to ``extended``,
        and never that it is carried out at ``until`` (ruling H3).  By default it names the phase."""
        values = {"phase": row.name, "game": game.name, "until": when(until), "extended": when(extended)}
        if which == "late" and extended:
            said = _("The deadline has passed: send your orders for {phase} of {game} before {until} (without it "
                     "then, the phase is extended to {extended}).", **values)
        elif which == "late":
            said = _("The deadline has passed: send your orders for {phase} of {game} before {until}.", **values)
        elif extended:
            said = _("The deadline is near: send your orders for {phase} of {game} before {until} (without it "
                     "then, the phase is extended to {extended}).", **values)
        else:
            said = _("The deadline is near: send your orders for {phase} of {game} before {until}.", **values)
        return said + "\n"

    def label(self, phase: str) -> str:
        """The phase ``phase`` in words, as STATUS and the pages name it beside its name ("the spring
        letter of Spring 1454"); by default none: its name says it all."""
        return ""

    def is_between(self, phase: str) -> bool:
        """Whether ``phase`` is one of the `between_phases`."""
        return False


class Commands(Protocol):
    """A kind's commands by mail, and what it says of a game in answers."""

    commands: Sequence[Entry]
    """Its command table: the host's dispatcher is built from it and the host's own."""
    words: Sequence[str] = ()
    """The first words of the lines its grammar reads (``ACCEPT``, ``BID``), each of which its HELP
    names (a test holds it to them, with ``SET`` and the name of each of its phases' lengths)."""
    orders_private: str = ""
    """The rule by which the kind reads orders only from mail sent to the judge alone (Machiavelli's
    "17.4"): a mail whose To or Cc names anyone else acts for no seat by the kind's lines (its
    orders, letters, own commands), while its host's commands are read; empty (by default): any
    mail's orders are read."""

    def read(self, text: str, game: Game | None) -> Line:
        """A line the host's grammar does not know, read as this kind's command in ``game``, the
        signed-on game (None before any sign-on, when the default kind reads it)."""
        ...

    def close_block(self, turn: Turn) -> None:
        """At the end of a seat's lines in a mail: act on its block (`Turn.block`) as a whole; by
        default, nothing (a kind that keeps no block)."""
        return None

    def check_ahead(self, game: Game, phase: str, command: Line) -> str | None:
        """Why a line of a block kept for the later phase ``phase`` (one of `Phases.following`), read by the
        kind's grammar as ``command``, cannot be given ahead, in words; None: kept.  What can be checked
        before the phase opens is the line's shape on the game's board, never a unit or money, which the
        phases between may change.  By default every line the kind reads is kept."""
        return None

    def read_ahead(self, session: Session, game: Game, seat: str,
                   lines: Sequence[str]) -> list[tuple[str, str | None, str]]:
        """A waiting block's lines as ``seat`` sends them now that their phase, the game's now, opens: for
        each line as written, the line sent (None: none, it is not possible now) and why, in words, where
        it is not sent as written.  By default each as written (Payola takes the first possible of a
        retreat's alternatives, and leaves out what the board no longer allows)."""
        return [(line, line, "") for line in lines]

    def status(self, turn: Turn) -> list[str]:
        """STATUS for the signed-on seat, as it stands once its block is acted on."""
        ...

    def form(self, session: Session, game: Game, seat: str) -> Form | None:
        """``seat``'s form to fill for the phase ``game`` is in (`judge.service.outgoing.forms`): what it
        should know and the lines it may send, each choice written ``_``; None where it has nothing to
        send.  A pure function of the game's state in the phase: the host lays it out at the end of
        each mail that opens the phase for the seat (``queue(..., opens=seat)``) and asks for it again
        to drop a reply's lines left as the form gave them.  By default, none."""
        return None

    def master_status(self, turn: Turn) -> list[str]:
        """The kind's lines of the game master's STATUS, after the host's (the game and its phase, who is
        still to act, who asks to WAIT) and before the silent seats'; by default none: the host's say it."""
        return []

    def brief(self, turn: Turn, game: Game, seat: str, player: Player, address: str) -> None:
        """Mail the new player of ``seat`` (TAKEOVER) what the seat knows now; by default the game, its
        phase and deadline, and how to see the seat as it stands (STATUS tells it)."""
        ...

    def resigned(self, turn: Turn, game: Game, seat: str) -> str:
        """What else happens when the player of ``seat`` resigns, as a whole clause in the reader's language
        ("being eliminated, its treasury is forfeited (rule 2.4)"), which the answer says after its own
        (`judge.service.incoming.handlers.answers.clauses` joins them); by default none ("")."""
        return ""

    def list_lines(self, turn: Turn, game: Game) -> list[str]:
        """``LIST game``: what anyone may know of the game now; by default the host's listing
        (`judge.service.hosting.host.answer_list`) of its seats in their order."""
        ...

    def history(self, turn: Turn, text: str, game: Game, command: History) -> None:
        """Answer ``HISTORY game ...``: by default the phases processed so far, by name."""
        ...

    def summary(self, turn: Turn, text: str, game: Game) -> None:
        """Answer ``SUMMARY game``: by default the host's summary (`judge.service.hosting.host.answer_summary`)."""
        ...

    def info(self, game: Game) -> list[str]:
        """``GET INFO game`` / ``GET RULES game``: the game's own options and the rules they
        bring, in words, with the rules' numbers (the host adds the clock's and its own options); by
        default the kind's title."""
        ...

    def help(self, settings: Settings) -> str:
        """The kind's part of HELP: by default its title and the first words of its lines."""
        ...


class Pages(Protocol):
    """A kind's public pages."""

    def facts(self, session: Session, game: Game, acting: bool = True,
              seated: Sequence[Player] | None = None) -> GameFacts:
        """What any page may say of the game (its line in the index, its page's header); by default
        the host's facts (`judge.service.hosting.host.game_facts`) of its seats in their order."""
        ...

    def gather(self, session: Session, game: Game) -> Any:
        """Everything the game's pages are made of, read in ``session``: by default its `facts`; else a
        record whose ``facts`` the host reads for the game's line of the index."""
        return self.facts(session, game)

    def write_pages(self, root: Path, record: Any, force: bool = False) -> Path:
        """Write the game's pages under ``root`` from what `gather` read; returns its page.  By
        default one page of its `facts`, the host's (``web/game.html.j2``)."""
        ...

    def standings(self, session: Session, game: Game) -> list[Standing]:
        """Each seat's place at the end of a finished game by the kind's rules, best first, for the
        hall of fame (`judge.web.fame`); none by default (the game's result says who won)."""
        return []

    def public_results(self, session: Session, game: Game, row: PhaseRow) -> list[str]:
        """The results of the processed phase of ``row`` that anyone may read, in lines: what the
        game's Atom feed says of it (`judge.web.feeds`); none by default (the feed links to the
        game's pages)."""
        return []


class Demo(Protocol):
    """A kind's short game for ``judge demo``."""

    demo_scenarios: tuple[str, ...] = ()
    """The scenarios its demo can play besides its own (``judge demo machiavelli aop``)."""

    def demo(self, judge: DemoJudge, blind: bool = False, scenario: str | None = None) -> None:
        """Play a short scripted game against ``judge`` by mail and print what a newcomer needs to
        see (``blind``: its variant with hidden boards, for a kind that has one; ``scenario``: one of
        its `demo_scenarios`, None for its own).  By default it says there is none."""
        print(f"{getattr(self, 'title', 'this game')} has no demo: its games are played by mail")


class Records(Protocol):
    """A kind's records, as the operator's commands check them."""

    def totals(self, connection: Connection) -> dict[str, int]:
        """Sums a game master recognises in the kind's own tables, by name ("g1 FRANCE": Payola's
        balances), compared between a database and its copy (`judge.service.operators.backup`); nothing by
        default.  Tables of an older schema may be missing: a kind counts what is there."""
        return {}

    def snapshot(self, session: Session, game: Game) -> dict[str, Any]:
        """What the kind keeps of ``game`` in its own tables, as JSON values, for the game's record
        (`judge.service.hosting.archive`): what a replay of the game must give again.  Nothing by
        default: a kind whose phase rows and submissions hold all has no tables of its own."""
        return {}

    def restore(self, session: Session, game: Game, snapshot: dict[str, Any]) -> None:
        """Write the kind's own tables of ``game`` as ``snapshot`` (what `snapshot` gave on the
        judge that exported the game) says, the host's rows of the game (its seats, phases and
        submissions) written already: the inverse of `snapshot`, for ``judge import``, which then
        checks that `snapshot` gives ``snapshot`` back.  KeyError, TypeError or ValueError for a
        snapshot it cannot read.  Nothing by default: a kind without tables of its own."""
        return None

    def check_phase(self, session: Session, game: Game, row: PhaseRow) -> None:
        """ValueError if the phase of ``row``, as an imported record wrote it (`judge import`),
        is none this kind could have played: its ``position`` (and once processed what it left,
        its ``result``) read as the kind reads them when the game goes on, each unit where its
        board lets it stand.  The message names the field first (``position: an army cannot
        stand in NTH``).  Nothing is checked by default."""
        return None

    def saved_game(self, session: Session, game: Game) -> dict[str, Any] | None:
        """The game's board history as the ``diplomacy`` package's saved game (``judge export GAME
        --diplomacy``), for a kind played on a Diplomacy board; None by default: it has none."""
        return None


class GameKind(Lobby, Phases, Commands, Pages, Records, Demo, Protocol):
    """A kind of game, as the host sees it: every member the host reads, and nothing else.  A kind
    implements it by subclassing `judge.service.hosting.contract.Kind`, the host's defaults."""


class Kinds:
    """The kinds of game one judge hosts, by name, the default first, and the dispatcher of every
    command it reads (the host's ``commands`` and each kind's): what the composition root
    (`judge.bootstrap`) hands the host.  A CREATE that names no kind makes a game of the default
    kind (Payola, as the judge did before it hosted others)."""

    def __init__(self, kinds: Sequence[GameKind], default: str, commands: Sequence[Entry] = ()) -> None:
        self._kinds = {kind.name: kind for kind in kinds}
        if default not in self._kinds or len(self._kinds) != len(kinds):
            raise ValueError("kinds need distinct names, the default among them")
        self.default = self._kinds[default]
        self.dispatch = Dispatcher([commands, *(kind.commands for kind in kinds)])
        self._find_templates()

    @property
    def modules(self) -> list[str]:
        """The modules of the kinds' classes: what a process handed this registry imports to read it."""
        return sorted({type(kind).__module__ for kind in self._kinds.values()})

    def __setstate__(self, state: dict[str, Any]) -> None:
        """A registry sent to another process (the applier: `judge.service.running.daemon`) finds its kinds'
        templates there too."""
        self.__dict__.update(state)
        self._find_templates()

    def _find_templates(self) -> None:
        """Each kind's templates are in the ``templates`` folder of its own package (`add_kind_templates`),
        or, for a kind built on another (a subclass in a package without templates), of the nearest
        kind it is built on that has one; its messages in the ``locale`` folder of its package and of
        each it is built on (`judge.language.add_catalogue`)."""
        for kind in self._kinds.values():
            packages = [module.rpartition(".")[0] for cls in type(kind).__mro__ if "." in (module := cls.__module__)]
            add_kind_templates(kind.name, next((package for package in packages if _has_templates(package)),
                                               packages[0]))
            for package in packages:
                add_catalogue(package)

    def __iter__(self) -> Iterator[GameKind]:
        yield self.default
        yield from (kind for name, kind in sorted(self._kinds.items()) if kind is not self.default)

    def named(self, name: str) -> GameKind:
        """The kind called ``name`` (KeyError if none)."""
        return self._kinds[name]

    def of(self, game: Game) -> GameKind:
        """The kind of ``game``."""
        return self._kinds[game.kind] if game.kind else self.default

    def in_create(self, word: str) -> GameKind | None:
        """The kind CREATE's first word after the password names, if it names one."""
        return self._kinds.get(word.lower())


SESSION_KEY = forms.KINDS  # where a session keeps the registry (`judge.store.database.Database`: `info`)


def kinds_of(session: Session) -> Kinds:
    """The kinds of the judge whose database ``session`` is of (`judge.store.database.Database`
    puts them in every session it makes)."""
    kinds: Kinds = session.info[SESSION_KEY]
    return kinds


def kind_of(session: Session, game: Game) -> GameKind:
    """The kind of ``game``, read in ``session``."""
    return kinds_of(session).of(game)


def _has_templates(package: str) -> bool:
    """Whether ``package`` (importable) has a ``templates`` folder."""
    try:
        return (resources.files(package) / "templates").is_dir()
    except (ModuleNotFoundError, TypeError, ValueError):
        return False
