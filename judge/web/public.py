"""What any public page may show of a game, whatever its kind: its line in the index and its page's
header (`GameFacts`, `summary`); each kind decides the rest of its pages (Payola's in
`judge.games.payola.public`).

Theory of operation.  A game's pages are read by anyone, so they show only what every player
of the game already received, and what is public by the rules of its kind.  Of every game the
index and the head of its page show: its name, kind and variant, options, state, phase, next
deadline, how it ended (`outcome`: a win and a draw worded alike), and for each seat whether it
is played, vacant or a dummy and open for takeover; who played it only once the game has finished,
as its kind names them (never an address, which is private: Payola names a player by its
address's part before the "@", and an ANONYMOUS game by nothing).  All of that is what LIST
tells anyone, so a game whose board is secret while it runs (a Blind Payola game: ``hidden``)
shows it too; its kind's pages then show no board and not who has acted.

Each function below is pure: it takes plain facts and returns plain data for the templates.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from judge.language import gettext as _
from judge.language import worded
from judge.service.states import RUNNING, GameState
from judge.wording import power_title


@dataclass(frozen=True)
class Seat:
    """A seat (a power, a player's name): ``played``, ``vacant`` (its player left), ``dummy``, or
    ``out`` of the game (nobody can play it again: Machiavelli's eliminated country);
    ``open`` when a newcomer may take it over.  Who holds it (``played_by``) only once the game
    has finished, as its kind names them (never an address)."""

    name: str
    status: str
    open: bool = False
    played_by: str | None = None


@dataclass(frozen=True)
class GameFacts:
    """What the judge's store says of a game, as far as any public page could need it, as its
    kind gathers it (`judge.games.GameKind.facts`).

    ``variant`` is what the game is played on or as (a Payola board); ``seats`` are in the order
    the kind lists them; ``phase_title`` the phase in words; ``blind`` hides all but the name,
    phase and state while the game runs (Payola's BLIND option: an unreadable set of options
    counts as blind, a doubt hides the board); ``listed`` is false when the game master hid the
    game from the lists; ``result`` how the game ended, in the reader's language (a stored wording
    a kind passes as the game's settings keep it, `judge.language.later`, is worded as the facts
    are made).  ``required`` and ``waiting`` are what a kind that shows who has acted tells of it
    (Payola: the powers that must act in the current phase, and those of them that have not yet);
    a kind that keeps that secret leaves them empty.
    ``options`` are those its game master set at CREATE; ``defaults``, those its kind gave it because
    the game master set none of the sort (Machiavelli's grey press), shown as defaults; ``drawn``,
    the seats that shared its draw."""

    name: str
    variant: str
    options: tuple[str, ...]
    state: str
    phase: str | None
    deadline: datetime | None
    blind: bool = False
    winner: str | None = None
    result: str | None = None
    listed: bool = True
    joined: int = 0
    seats: tuple[Seat, ...] = ()
    required: tuple[str, ...] = ()
    waiting: tuple[str, ...] = ()
    phase_title: str | None = None
    revealed: bool = False
    drawn: tuple[str, ...] = ()
    defaults: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        kept: object = self.result
        if kept is not None and not isinstance(kept, str):  # as the game's settings keep it: worded now
            object.__setattr__(self, "result", worded(kept))

    @property
    def finished(self) -> bool:
        return self.state == GameState.FINISHED

    @property
    def hidden(self) -> bool:
        """Nothing but name, phase and state may be shown: a Blind game that is still running."""
        return self.blind and not self.finished


def summary(facts: GameFacts) -> dict[str, Any]:
    """A game's line in the index and its page's header: name, phase and state, variant,
    options, deadline, result and each seat, even while it is hidden (a running Blind game):
    LIST tells all of that to anyone, and only the board and who has acted are secret there."""
    shown: dict[str, Any] = {
        "name": facts.name,
        "state": facts.state,
        "phase": facts.phase,
        "phase_title": facts.phase_title if facts.phase else None,
        "hidden": facts.hidden,
    }
    return shown | {
        "variant": facts.variant,
        "options": list(facts.options),
        "defaults": list(facts.defaults),
        "deadline": facts.deadline if facts.state in RUNNING else None,
        "winner": facts.winner,
        "result": facts.result if facts.finished else None,
        "joined": facts.joined if facts.state == GameState.FORMING else None,
        "seats": [{"name": s.name, "seat": s.status, "open": s.open,
                   **({"played_by": s.played_by} if facts.finished and s.played_by else {})} for s in facts.seats],
        "outcome": outcome(facts),
    }


def outcome(facts: GameFacts) -> str | None:
    """How a finished game ended, worded alike for a win and a draw: ``Won by: France``,
    ``Draw: France, Germany``; else how it ended (``terminated by the game master``)."""
    if not facts.finished:
        return None
    if facts.winner:
        return _("Won by: {power}", power=power_title(facts.winner))
    if facts.drawn:
        return _("Draw: {powers}", powers=", ".join(power_title(p) for p in facts.drawn))
    return facts.result


def page_url(web_url: str | None, game: str, page: str = "index.html") -> str | None:
    """The address of a game's ``page`` (``end.html``: the end-of-game publication) under the
    public base address ``web_url`` (the ``web-url`` setting), for the mails; None when the
    pages are not published on the web."""
    if not web_url:
        return None
    return f"{web_url.rstrip('/')}/games/{game}/{page}"


def player_url(web_url: str | None, name: str, suffix: str = "html") -> str | None:
    """The address of a player's page (``players/<name>.html``: its record) or calendar
    (``suffix`` ``ics``) under ``web_url``; None when the pages are not on the web."""
    if not web_url:
        return None
    return f"{web_url.rstrip('/')}/players/{name}.{suffix}"
