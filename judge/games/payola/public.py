"""What the public pages of a Payola game may show, decided here and nowhere else (not in
templates); its line in the index and the head of its page are the host's (`judge.web.public`,
whose names this module gives too).

Theory of operation.  A game's pages are read by anyone, so they show only what every player
of the game already received, and what is public by the rules:

* the game's summary (`judge.web.public.summary`): name, variant, options, state, phase, next
  deadline, how it ended, and for each power whether it is played, vacant or a dummy and open
  for takeover (who played it only once the game has finished, by the part of its address
  before the "@", and not in an ANONYMOUS game);
* the current board (views.board) and who has still to act in the current phase (never what
  they sent: only that they sent something, as LIST tells anyone);
* the history: each processed phase's public report (orders as adjudicated, what the judge
  did by itself, the board after it), the very report every player was mailed.

Money and its paper are secret while the game runs: balances, offer sheets, acceptance lists,
transfers and the game master's chart (rules 2.5, 3.6, 4.5), and so is press.  When the game
has finished, the pages gain the end-of-game publication (rules 3.6, 4.5), which is what the
end mail gives everyone: final treasuries, and every phase's acceptance lists (those used),
offer sheets, money and chart (`published_phase`).  After the game master's REVEAL, they gain
what it published, and nothing since: the treasuries then and the phases up to then.
Statements, accounts, the ledger and press are never published.

A Blind (Tin Cup, rule 6.3) game shows no board, history or who has acted while it runs: its
players see only part of the board, so no page may show all of it; its summary (deadline,
seats) is shown as for any game, since LIST gives it to anyone.  Once finished it shows
everything, as the end mail does: the whole history and board, and the end-of-game
publication.

Each function below is pure: it takes plain facts and returns plain data for the templates.
Only ``publication`` is given the determinations and balances, and it returns nothing until
the game has finished or been revealed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from judge.api import RUNNING, GameFacts, Seat, page_url, summary
from judge.engine.position import Phase, Position
from judge.games.payola import views
from judge.language import gettext as _
from judge.render.svg import phase_title

__all__ = ["GameFacts", "Seat", "current", "history", "page_url", "publication", "summary", "title_of"]

RESULT_KEYS = ("power", "order", "result", "reason", "detail")


def title_of(phase: str) -> str:
    """``Spring 1901 movement`` for ``S1901M``, in the reader's language; the name itself if it is not a phase."""
    try:
        parsed = Phase.parse(phase)
    except ValueError:
        return phase
    year = parsed.year
    titles = {
        "SM": lambda: _("Spring {year} movement", year=year), "SR": lambda: _("Spring {year} retreats", year=year),
        "SA": lambda: _("Spring {year} adjustments", year=year), "FM": lambda: _("Fall {year} movement", year=year),
        "FR": lambda: _("Fall {year} retreats", year=year), "FA": lambda: _("Fall {year} adjustments", year=year),
        "WM": lambda: _("Winter {year} movement", year=year), "WR": lambda: _("Winter {year} retreats", year=year),
        "WA": lambda: _("Winter {year} adjustments", year=year)}
    worded = titles.get(f"{parsed.season.value}{parsed.kind.value}")
    return worded() if worded is not None else phase_title(parsed)


def current(facts: GameFacts, position: Position | None) -> dict[str, Any] | None:
    """The board now (or at the end), and each power's seat, counts and, while the game runs,
    whether it has acted in the current phase (never what it sent).  None for a running Blind
    game, or before the game starts."""
    if facts.hidden or position is None:
        return None
    board = views.board(position)
    counts = {p["power"]: (len(p["centers"]), len(p["units"])) for p in board["powers"]}
    seats = {s.name: s for s in facts.seats}
    running = facts.state in RUNNING
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
                       "played_by": seat.played_by if seat and facts.finished else None,
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


def published_phase(phase: str, det: Mapping[str, Any]) -> dict[str, Any]:
    """One movement phase of the end-of-game publication (rules 3.6, 4.5), for the end mail and
    the pages alike, from its stored determination: each power's acceptance list if it was used,
    its offer sheet and its money (balance, savings asked for, spent, reduction rounds); and each
    bribed unit's chart: the order it issued, what each power paid for it (and, where they
    differ, what it had offered, what the reductions left and what eBayola gave back), and
    every candidate order with each power's part after the reductions.

    A list is *used* when its power owned a bribed unit and had a player: a dummy's ties go to
    its own HOLD and an eliminated power has no unit (rule 4.4), so theirs are listed apart."""
    units = det.get("units", {})
    dummies = set(det.get("dummies", ()))
    owners = {u.get("owner") for u in units.values()}
    acceptance, sheets, lists = det.get("acceptance", {}), det.get("sheets", {}), det.get("lists", {})
    money = det.get("powers", {})
    used = {p for p in owners if p not in dummies}
    powers = []
    for power in dict.fromkeys([*money, *acceptance, *sheets]):  # the board's order
        paper = money.get(power, {})
        if power in used or sheets.get(power):
            powers.append({"power": power, "acceptance": acceptance.get(power) if power in used else None,
                           "sent": lists.get(power), "sheet": sheets.get(power), "dummy": power in dummies,
                           **{key: paper.get(key) for key in ("balance", "savings", "spent", "new_balance",
                                                               "reductions")}})
    chart = []
    for unit, candidates in det.get("chart", {}).items():
        issued = units.get(unit, {})
        paid = [{"power": power, "paid": amount} for power, amount in issued.get("paid", {}).items()]
        detailed = [{"power": power, **{key: a.get(key) for key in ("offered", "reduced", "refund", "paid")}}
                    for power, paper in money.items() for a in paper.get("accepted", ())
                    if a.get("unit") == unit and "offered" in a]
        if detailed:  # every accepted offer, 0 AgP included (not known of phases stored before they were kept)
            paid = detailed
        chart.append({"unit": unit, "owner": issued.get("owner"), "issued": issued.get("order"),
                      "total": issued.get("total"), "paid": paid,
                      "candidates": [{"order": c["order"], "total": c["total"],
                                      "contributions": dict(c["contributions"])} for c in candidates]})
    return {"phase": phase, "title": title_of(phase), "powers": powers,
            "unused": [p for p in acceptance if p not in used], "chart": chart}


def publication(facts: GameFacts, determinations: Sequence[tuple[str, Mapping[str, Any] | None]],
                balances: Mapping[str, int]) -> dict[str, Any] | None:
    """The end-of-game publication (rules 3.6, 4.5), as the end mail has it: final treasuries,
    and for each movement phase its `published_phase`.  None while the game has not finished
    (nor been REVEALed: then ``determinations`` and ``balances`` are those of the reveal): until
    then all of it is secret."""
    if not facts.finished and not facts.revealed:
        return None
    phases = [published_phase(phase, det) for phase, det in determinations if det]
    return {"winner": facts.winner, "result": facts.result, "balances": dict(balances), "phases": phases,
            "final": facts.finished}
