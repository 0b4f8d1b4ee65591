"""What the public pages of a Payola game may show, decided here and nowhere else (not in
templates); its line in the index and the head of its page are the host's (`judge.web.public`,
whose names this module gives too).

Theory of operation.  A game's pages are read by anyone, so they show only what every player
of the game already received, and what is public by the rules:

* the game's summary (`judge.web.public.summary`): name, variant, options, state, phase, next
  deadline, how it ended, and for each power whether it is played, vacant or a dummy and open
  for takeover (never who plays it);
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
from typing import Any

from judge.engine.position import Phase, Position
from judge.games.payola import views
from judge.render.svg import phase_title
from judge.web.public import GameFacts, Seat, page_url, summary

__all__ = ["GameFacts", "Seat", "current", "history", "page_url", "publication", "summary", "title_of"]

RESULT_KEYS = ("power", "order", "result", "reason", "detail")


def title_of(phase: str) -> str:
    """``Spring 1901 movement`` for ``S1901M``; the name itself if it is not a phase."""
    try:
        return phase_title(Phase.parse(phase))
    except ValueError:
        return phase


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
