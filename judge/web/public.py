"""What the public pages of a game may show, decided here and nowhere else (not in templates).

Theory of operation.  A game's pages are read by anyone, so they show only what every player
of the game already received, and what is public by the rules:

* the game's summary: name, variant, options, state, phase, next deadline, how it ended, and
  for each power whether it is played, vacant or a dummy and open for takeover (never who
  plays it: addresses are private, and ANONYMOUS games keep even the names secret);
* the current board (views.board) and who has still to act in the current phase (never what
  they sent: only that they sent something, as LIST tells anyone);
* the history: each processed phase's public report (orders as adjudicated, what the judge
  did by itself, the board after it), the very report every player was mailed.

Money and its paper are secret while the game runs: balances, offer sheets, acceptance lists,
transfers and the game master's chart (rules 2.5, 3.5, 4.5), and so is press.  When the game
has finished, the pages gain the end-of-game publication (rules 3.6, 4.5), which is what the
end mail gives everyone: final treasuries, and every phase's acceptance lists, offer sheets
and chart.  Statements, accounts, the ledger and press are never published.

A Blind (Tin Cup, rule 6.3) game shows only its name, phase and state while it runs: its
players see only part of the board, so no page may show all of it.  Once finished it shows
everything, as the end mail does: the whole history and board, and the end-of-game
publication.

Each function below is pure: it takes plain facts and returns plain data for the templates.
Only ``publication`` is given the determinations and balances, and it returns nothing until
the game has finished.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from judge.engine.position import Phase, Position
from judge.render.svg import phase_title
from judge.service import views

RESULT_KEYS = ("power", "order", "result", "reason", "detail")


@dataclass(frozen=True)
class Seat:
    """A power's seat: ``played``, ``vacant`` (its player left) or ``dummy``; ``open`` when a
    newcomer may take it over.  Never who holds it."""

    power: str
    status: str
    open: bool = False


@dataclass(frozen=True)
class GameFacts:
    """What the judge's store says of a game, as far as any public page could need it.

    ``seats`` are in the map's order; ``required`` the powers that must act in the current phase,
    ``waiting`` those of them that have not yet (lifecycle.required_powers and waiting_for);
    ``blind`` is the BLIND option (an unreadable set of options counts as blind: a doubt hides
    the board); ``listed`` is false when the game master hid the game from the lists;
    ``result`` how the game ended."""

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

    @property
    def finished(self) -> bool:
        return self.state == "finished"

    @property
    def hidden(self) -> bool:
        """Nothing but name, phase and state may be shown: a Blind game that is still running."""
        return self.blind and not self.finished


def title_of(phase: str) -> str:
    """``Spring 1901 movement`` for ``S1901M``; the name itself if it is not a phase."""
    try:
        return phase_title(Phase.parse(phase))
    except ValueError:
        return phase


def summary(facts: GameFacts) -> dict[str, Any]:
    """A game's line in the index and its page's header: name, phase and state, and unless it
    is a running Blind game, variant, options, deadline, result and each power's seat."""
    shown: dict[str, Any] = {
        "name": facts.name,
        "state": facts.state,
        "phase": facts.phase,
        "phase_title": title_of(facts.phase) if facts.phase else None,
        "hidden": facts.hidden,
    }
    if facts.hidden:
        return shown
    return shown | {
        "variant": facts.variant,
        "options": list(facts.options),
        "deadline": facts.deadline if facts.state in ("active", "paused") else None,
        "winner": facts.winner,
        "result": facts.result if facts.finished else None,
        "joined": facts.joined if facts.state == "forming" else None,
        "seats": [{"power": s.power, "seat": s.status, "open": s.open} for s in facts.seats],
    }


def current(facts: GameFacts, position: Position | None) -> dict[str, Any] | None:
    """The board now (or at the end), and each power's seat, counts and, while the game runs,
    whether it has acted in the current phase (never what it sent).  None for a running Blind
    game, or before the game starts."""
    if facts.hidden or position is None:
        return None
    board = views.board(position)
    counts = {p["power"]: (len(p["centers"]), len(p["units"])) for p in board["powers"]}
    seats = {s.power: s for s in facts.seats}
    running = facts.state in ("active", "paused")
    powers = []
    for power in position.game_map.powers:
        if power not in seats and power not in counts:
            continue
        acting = None
        if running and power in facts.required:
            acting = "waiting" if power in facts.waiting else "submitted"
        centers, units = counts.get(power, (0, 0))
        seat = seats.get(power)
        powers.append({"power": power, "seat": seat.status if seat else None, "open": bool(seat and seat.open),
                       "centers": centers, "units": units, "acting": acting})
    return {"board": board, "powers": powers}


def history(facts: GameFacts, report: Mapping[str, Any], adjudication: Mapping[str, Any]) -> dict[str, Any] | None:
    """One processed phase as every player was told it: the orders as adjudicated, what the
    judge did by itself, the board after it; from its stored public ``report`` (and from the
    ``adjudication`` only the phase that followed).  None for a running Blind game (each
    player was told only its part: the whole is published when the game ends)."""
    if facts.hidden:
        return None
    phase = str(report["phase"])
    return {
        "phase": phase,
        "title": title_of(phase),
        "results": [{key: r.get(key) for key in RESULT_KEYS} for r in report.get("results", [])],
        "automatic": [str(line) for line in report.get("automatic", [])],
        "board": report["board"],
        "next_phase": adjudication.get("next_phase"),
    }


def publication(facts: GameFacts, determinations: Sequence[tuple[str, Mapping[str, Any] | None]],
                balances: Mapping[str, int]) -> dict[str, Any] | None:
    """The end-of-game publication (rules 3.6, 4.5), as the end mail has it: final treasuries,
    and for each movement phase the acceptance lists, offer sheets and chart.  None while the
    game has not finished: until then all of it is secret."""
    if not facts.finished:
        return None
    phases = []
    for phase, det in determinations:
        if not det:
            continue
        units = det.get("units", {})
        chart = [{"unit": unit, "owner": units.get(unit, {}).get("owner"), "issued": units.get(unit, {}).get("order"),
                  "candidates": [{"order": c["order"], "total": c["total"], "contributions": dict(c["contributions"])}
                                 for c in candidates]}
                 for unit, candidates in det.get("chart", {}).items()]
        acceptance, sheets = det.get("acceptance", {}), det.get("sheets", {})
        powers = [{"power": p, "acceptance": acceptance.get(p), "sheet": sheets.get(p)}
                  for p in [*acceptance, *(p for p in sheets if p not in acceptance)]]
        phases.append({"phase": phase, "title": title_of(phase), "powers": powers, "chart": chart})
    return {"winner": facts.winner, "result": facts.result, "balances": dict(balances), "phases": phases}


def page_url(web_url: str | None, game: str, page: str = "index.html") -> str | None:
    """The address of a game's ``page`` (``end.html``: the end-of-game publication) under the
    public base address ``web_url`` (the ``web-url`` setting), for the mails; None when the
    pages are not published on the web."""
    if not web_url:
        return None
    return f"{web_url.rstrip('/')}/games/{game}/{page}"
