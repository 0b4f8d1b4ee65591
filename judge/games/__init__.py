"""The games the judge hosts, and the seam between the host and each kind of game.

The host (`judge.service`: mail in and out, accounts, seats and passwords, sign-on and its
back-off, consent, deadlines and the clock, the game master's tools, observers, takeovers,
absences, the outbox; `judge.web`: the pages' framework and the index) knows no game.  A kind of
game plugs in as a :class:`GameKind`, registered here under the name its games carry in their
``kind`` column and that CREATE names (``CREATE game password pirates``; a CREATE that names no
kind makes a game of the ``DEFAULT`` kind, Payola, as the judge did before it hosted others).
A kind brings:

- its rules core, pure, beside it (`judge.engine` and `judge.payola` for Payola, `judge.pirates`
  for Pirates' Proposal), which knows nothing of the host;
- its words at CREATE and JOIN (`read_create`, `read_join`) and how its seats are named
  (`seat`, `seat_title`): a power of a board, or a player's own name;
- its phases: what START does, how long each phase lasts (`length_of`: the duration setting the
  game master sets with ``SET <setting> hours``, `durations` by default), who has still to act
  (`waiting`: the seats the clock reminds, each alone), whether a phase is complete before its
  deadline (`complete`; `closes_at_next_tick` if it is as soon as it opens), what closing one
  does (`process`: close it, queue each reader's mail in the same transaction, open the next or
  end the game), ROLLBACK if it has one, TERMINATE;
- its command grammar (`read`: a line the host's grammar does not know, read for the game the
  lines are signed on to) and handlers for its commands (registered with the host's
  `judge.service.handlers.conversation.handles`), and what a seat's block of lines does when it
  ends (`close_block`), with STATUS;
- what each kind of reader may see — one pure function per reader in its core or edges — and its
  templates (``judge/templates/mail/<kind>/``, ``judge/templates/web/<kind>/``);
- its public facts for the pages (`facts`) and its pages (`write_pages`), and its options and
  rules in words for ``GET INFO`` (`info`);
- its script for ``judge demo`` (`demo`, in a ``demo`` module of its edges), played against a
  judge the host runs for it (`judge.service.demo`).

Arrows point one way: the host reaches a kind only through this registry (`kind_of`, `kinds`);
a kind's edges (``judge/games/<kind>/``) use the host's services and their own core, never
another kind's; a core knows neither.  Adding a kind is a folder beside the others and a line in
``_KINDS``; no other kind's file changes.
"""

from __future__ import annotations

import importlib
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from sqlalchemy.orm import Session

    from judge.commands.parse import Command, History
    from judge.service.config import Settings
    from judge.service.demo import DemoJudge
    from judge.service.handlers.conversation import Context, Conversation
    from judge.store.models import Game, PhaseRow, Player
    from judge.web.public import GameFacts

DEFAULT = "payola"
"""The kind of a game whose CREATE names none."""

_KINDS = {"payola": "judge.games.payola.kind", "pirates": "judge.games.pirates.kind"}
"""Each kind's name and the module that holds its ``KIND``."""
_LOADED: dict[str, GameKind] = {}


class PhaseChange(Protocol):
    """What closing a phase did: the phase closed, the one opened (None: the game ended), and
    who won, if anyone did."""

    @property
    def phase(self) -> str: ...

    @property
    def next_phase(self) -> str | None: ...

    @property
    def winner(self) -> str | None: ...


class GameKind(ABC):
    """A kind of game, as the host sees it: every method the host calls, and nothing else."""

    name: str
    """The word CREATE names it by, kept in ``games.kind``."""
    title: str
    """The game's name for people: "Payola Diplomacy"."""
    seat_word: str
    """What a seat is called in answers: "power", "player"."""
    durations: Mapping[str, float]
    """The settings of the lengths of its phases, in hours by default (``SET <setting> hours``)."""

    # -- creating and joining ------------------------------------------------------------------------

    @abstractmethod
    def read_create(self, words: Sequence[str]) -> tuple[str, list[str]]:
        """CREATE's words after the kind's name: the game's ``variant`` and ``options`` to keep;
        ValueError with a message for the game master if they cannot be read."""

    @abstractmethod
    def create_help(self) -> list[str]:
        """How to CREATE a game of this kind, as LIST ends with it."""

    @abstractmethod
    def help(self, settings: Settings) -> str:
        """The kind's part of HELP."""

    @abstractmethod
    def capacity(self, game: Game) -> int:
        """How many players the game takes."""

    @abstractmethod
    def read_join(self, session: Session, game: Game, word: str | None) -> str | None:
        """JOIN's word after the password (a wish or a name, as written), to keep as the
        player's ``requested``; ValueError with a message if it cannot be taken."""

    def read_preferences(self, session: Session, game: Game, words: Sequence[str]) -> list[str]:
        """JOIN's ``PREFER`` words: the seats wanted, best first, for `start` to satisfy as well as
        it can; ValueError with a message if they cannot be read, or if the kind's seats are not
        assigned (by default)."""
        raise ValueError(f"PREFER does not apply to {self.title}: its {self.seat_word}s are not assigned by the judge")

    @abstractmethod
    def joined(self, game: Game, requested: str | None) -> str:
        """The answer to a JOIN that was taken."""

    # -- seats -----------------------------------------------------------------------------------

    @abstractmethod
    def seat(self, session: Session, game: Game, word: str) -> str:
        """The seat ``word`` names in ``game`` (any case); ValueError with a message if none."""

    @abstractmethod
    def seat_title(self, seat: str) -> str:
        """A seat as answers write it: "France", "Alice"."""

    # -- phases ----------------------------------------------------------------------------------

    @abstractmethod
    def start(self, session: Session, game: Game, settings: Settings, now: datetime) -> None:
        """Assign the seats, open the first phase and queue the start mails (`GameError`)."""

    @abstractmethod
    def length_of(self, phase: str) -> str:
        """The duration setting (a key of `durations`) that the phase named ``phase`` lasts."""

    @abstractmethod
    def waiting(self, session: Session, game: Game) -> list[str]:
        """The seats that must act in the current phase and have not: whom the clock reminds."""

    @abstractmethod
    def complete(self, session: Session, game: Game, talk: Conversation | None = None,
                 now: datetime | None = None) -> bool:
        """Whether the current phase closes now, before its deadline (``talk``: the mail being
        applied, whose caches may be used; ``now``: the time, if not the mail's)."""

    def closes_at_next_tick(self, session: Session, game: Game, row: PhaseRow) -> bool:
        """Whether the phase of ``row``, the game's current one (which the flush under way may
        not have written yet), is complete already: one in which nobody has anything to do.
        The clock then closes it at its next tick (`judge.service.schedule`) instead of at its
        deadline or at whatever mail comes first.  By default, never."""
        return False

    @abstractmethod
    def results_mails(self, session: Session, game: Game) -> int:
        """How many mails closing the current phase queues, for the mail's budget."""

    @abstractmethod
    def process(self, session: Session, game: Game, settings: Settings, now: datetime, *,
                cause: str, preface: str | None = None) -> PhaseChange:
        """Close the current phase (`GameError` if the game is not running), queue its mails,
        open the next or end the game.  ``cause`` says why, for the log; ``preface``, a sentence
        every mail of the phase's closing carries, to players, observers and the game master
        alike (the game master's PROCESS before the deadline, issue 23.2)."""

    @abstractmethod
    def rollback(self, session: Session, game: Game, now: datetime, phase: str | None = None) -> tuple[str, str]:
        """Go back to the previous phase (or to ``phase``, the one the game master named: the
        kind says which it can go back to), leaving the game paused; returns its name and what
        is as it was before (for the players' announcement).  `GameError` if it cannot be done."""

    @abstractmethod
    def terminate(self, session: Session, game: Game, settings: Settings, now: datetime, reason: str) -> None:
        """End the game now (TERMINATE) and publish what its end publishes."""

    @abstractmethod
    def notice(self, session: Session, game: Game, row: PhaseRow, seat: str, which: str, until: datetime) -> str:
        """The body of the reminder or late notice (``which``) to ``seat`` alone."""

    # -- mail ------------------------------------------------------------------------------------

    @abstractmethod
    def read(self, text: str) -> Command:
        """A line the host's grammar does not know, read as this kind's command."""

    @abstractmethod
    def close_block(self, talk: Conversation, context: Context) -> None:
        """At the end of a seat's lines in a mail: store what they send, answer STATUS."""

    @abstractmethod
    def master_status(self, talk: Conversation) -> list[str] | None:
        """STATUS for the game master (None: not for the game master in this kind)."""

    @abstractmethod
    def brief(self, talk: Conversation, game: Game, seat: str, player: Player, address: str) -> None:
        """Mail the new player of ``seat`` (TAKEOVER) what the seat knows now."""

    @abstractmethod
    def resigned(self, talk: Conversation, game: Game, seat: str) -> str:
        """What else happens when the player of ``seat`` resigns; the words added to the answer."""

    @abstractmethod
    def list_lines(self, talk: Conversation, game: Game) -> list[str]:
        """``LIST game``: what anyone may know of the game now."""

    @abstractmethod
    def history(self, talk: Conversation, text: str, game: Game, command: History) -> None:
        """Answer ``HISTORY game ...``."""

    @abstractmethod
    def summary(self, talk: Conversation, text: str, game: Game) -> None:
        """Answer ``SUMMARY game``."""

    def info(self, game: Game) -> list[str]:
        """``GET INFO game`` / ``GET RULES game``: the game's own options and the rules they
        bring, in words, with the rules' numbers (the host adds the clock's and its own options:
        `judge.service.handlers.anyone.get_info`).  By default, the kind and its options as
        written."""
        from judge.service.host import split_options  # the host imports this module

        own = split_options(game.options)[1]
        return [f"{self.title}; options: {' '.join(own) or 'none'}"]

    @abstractmethod
    def seat_order(self, session: Session, game: Game) -> list[str]:
        """Every seat the game has or will have, in the order lists show them (PRESS TO ALL)."""

    between_phases = ""
    """What the kind's phases between its main ones are called ("retreat and adjustment phases"),
    in which a game may forbid press (``SET PRESS BETWEEN OFF``); empty: it has none."""

    def is_between(self, phase: str) -> bool:
        """Whether ``phase`` is one of the `between_phases`."""
        return False

    @abstractmethod
    def press_to(self, session: Session, game: Game, words: Sequence[str]) -> tuple[str, ...]:
        """Whom the line ``PRESS TO ...`` (its words) names: ``("ALL",)``, or seats and
        ``"MASTER"`` (the game master) in the order named; ValueError with a message."""

    # -- pages -----------------------------------------------------------------------------------

    @abstractmethod
    def facts(self, session: Session, game: Game, acting: bool = True,
              seated: Sequence[Player] | None = None) -> GameFacts:
        """What any page may say of the game (its line in the index, its page's header)."""

    @abstractmethod
    def gather(self, session: Session, game: Game) -> Any:
        """Everything the game's pages are made of, read in ``session``."""

    @abstractmethod
    def write_pages(self, root: Path, record: Any, force: bool = False) -> Path:
        """Write the game's pages under ``root`` from what `gather` read; returns its page."""

    # -- the demo --------------------------------------------------------------------------------

    def demo(self, judge: DemoJudge, blind: bool = False) -> None:
        """Play a short scripted game against ``judge`` by mail and print what a newcomer needs to
        see (``judge demo``; ``blind``: its variant with hidden boards, for a kind that has one)."""
        raise NotImplementedError(f"{self.title} has no demo")


def kinds() -> list[GameKind]:
    """Every kind the judge hosts, the default first."""
    return [kind_named(name) for name in sorted(_KINDS, key=lambda name: (name != DEFAULT, name))]


def kind_named(name: str) -> GameKind:
    """The kind called ``name`` (KeyError if none)."""
    if name not in _LOADED:
        kind: GameKind = importlib.import_module(_KINDS[name]).KIND
        _LOADED[name] = kind
    return _LOADED[name]


def kind_of(game: Game) -> GameKind:
    """The kind of ``game``."""
    return kind_named(game.kind or DEFAULT)


def named_in_create(word: str) -> GameKind | None:
    """The kind CREATE's first word after the password names, if it names one."""
    return kind_named(word.lower()) if word.lower() in _KINDS else None
