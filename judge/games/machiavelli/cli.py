"""``judge machiavelli``: a Machiavelli phase as JSON in, its record as JSON out.

The composition root (`judge.bootstrap`) hands `TOOL` to the host's command line;
``python -m judge.games.machiavelli.cli [FILE] [--jsonl]`` runs it alone.  It reads
one JSON request from FILE (or standard input), or with ``--jsonl`` one request a line, and
writes one JSON answer for each (a line each with ``--jsonl``).  A request that cannot be
carried out gets ``{"error": "..."}`` (exit status 1 without ``--jsonl``).

The request
-----------

``board``
    the board's name: ``classic`` (the classic board of 1454, the default) or ``aop`` (Absence
    of Plague's own board of 1459, a reconstruction: ``core/boards/aop.json``).
``position``
    the position (default: the board's start, Phase A.3 of its first spring): ``season``
    (``"Spring 1454"``), ``phase`` (``"A"`` awaits the spring's A letters, A.1 and A.2 done;
    ``"C"`` a campaign's letters; ``"over"`` nothing), ``units`` (``[owner, "A"|"F"|"G", area]``, ``area/nc`` for a
    fleet on a coast), ``control`` (area → owner), ``rebellions`` (area → victim), ``sieges``
    (area → ``{"besieger", "seasons"}``), ``treasuries``, ``anticipated`` (the treasuries
    public information gives; left out: the treasuries), ``homes`` (player → the home countries
    held, named by their original power; a living player left out holds its own),
    ``eliminated`` (player → season), ``bans`` (excommunicated player → the season whose Phase
    F ends the ban) and ``excommunicated`` (every player ever excommunicated).  An owner is a
    power, or ``"independent"`` (the independent state of that very area).  Areas are codes.
``letters``
    player → the letter's text (or a list of its lines), in the syntax of
    :mod:`judge.games.machiavelli.core.syntax`.  A player without a letter gets the defaults.
``leaving``
    a campaign's players who left the game with no substitute leader: they are eliminated when
    the campaign ends (18.3, M62).  Left out: nobody.

The answer
----------

``board``, ``season``, ``phase`` (the phase carried out), ``problems`` (player → the lines that
are no order, each with what is wrong), ``orders`` (every order of the letters but the
operations: ``player``, ``phase`` — the sub-phase, ``A.4`` to ``A.7``, ``C.2``, ``D.1`` to
``D.4`` —, ``order``, ``succeeded``, ``charged`` in ducats, 0 when not charged, and ``reason``),
``movements`` (every movement of a treasury: ``player``, signed ``amount``, ``flow``,
``phase``, ``detail``), ``treasuries``, ``position`` (the new position: the next request's) and
``expected`` (the letters the new position awaits, with each one's default).  A campaign adds
``assassinated``, ``bribes``, ``rebellions`` (``started``, ``ended``), ``operations`` (each unit's
``order``, what it ``carried_out``, ``succeeded``, ``reason``, ``strength``, ``dislodged_from``),
``ignored`` (orders for units their writer does not command), ``retreats``, ``disbanded``,
``conversions``, ``sieges``, ``control`` (markers moved), ``conquests``, ``losses``, ``eliminated`` (each
player's ``treasury`` removed, its ``units`` and what they became, and the ``reason``),
``winners``, ``ranking``, and ``spring`` (after a Fall: the next spring's A.1 and A.2 — the
garrisons sprung up and each player's ``incomes``).  A spring adds ``trades``, ``forced_taxes``,
``raised``, ``disbanded``, ``excommunicated`` and ``control``.  Reasons are the names of
:class:`judge.games.machiavelli.core.results.Reason`, whose values say the rule applied.

An example (AoP Example 5 on the classic board)
-----------------------------------------------

The Pope has 10 ducats, armies in Perugia and Urbino, a fleet in Ancona and a garrison in Rome;
Siena's independent garrison stands beside them, alone in its province, so the army in Perugia
may direct a bribe at it (M36).  The bodyguard (D.2) is paid before the bribe (D.4), which leaves
7 ducats: the bribe cannot be paid in full, so it is not carried out and nothing is charged for
it (M30).  Request::

    {"board": "classic",
     "position": {"season": "Summer 1454", "phase": "C",
                  "units": [["Papacy", "A", "per"], ["Papacy", "A", "urb"], ["Papacy", "F", "anc"],
                            ["Papacy", "G", "rme"], ["independent", "G", "sie"]],
                  "treasuries": {"Papacy": 10}},
     "letters": {"Papacy": ["1. bribe 9 buy G Siena", "2. bodyguard 3", "A Urbino - Arezzo",
                            "A Perugia S A Urbino - Arezzo", "F Ancona - Upper Adriatic", "G Rome convert"]}}

The answer holds, among the rest::

    {"orders": [{"player": "Papacy", "phase": "D.2", "order": "bodyguard 3", "succeeded": true, "charged": 3,
                 "reason": "BODYGUARD_HIRED"},
                {"player": "Papacy", "phase": "D.4", "order": "bribe 9 buy G sie", "succeeded": false, "charged": 0,
                 "reason": "UNAFFORDABLE"}],
     "operations": [{"unit": "Papacy F anc", "order": "F anc - uas", "carried_out": "F anc - uas", "succeeded": true,
                     "reason": "ADVANCED", "strength": 1, "dislodged_from": null},
                    {"unit": "Papacy A per", "order": "A per S A urb - are", "carried_out": "A per S are for Papacy",
                     "succeeded": true, "reason": "SUPPORT_GIVEN", "strength": 0, "dislodged_from": null},
                    {"unit": "Papacy G rme", "order": "G rme C A", "carried_out": "G rme C A", "succeeded": true,
                     "reason": "CONVERTED", "strength": 1, "dislodged_from": null},
                    {"unit": "independent G sie", "order": null, "carried_out": "G sie H", "succeeded": true,
                     "reason": "INDEPENDENT", "strength": 0, "dislodged_from": null},
                    {"unit": "Papacy A urb", "order": "A urb - are", "carried_out": "A urb - are", "succeeded": true,
                     "reason": "ADVANCED", "strength": 2, "dislodged_from": null}],
     "treasuries": {"Papacy": 7}}
"""

from __future__ import annotations

import sys
from typing import Any

from judge.api import json_tool


def run(data: Any) -> dict[str, Any]:
    """One request (`judge.games.machiavelli.core.notation.run`), the core imported on first use: every
    ``judge`` command imports this module, and only this one needs the core."""
    from judge.games.machiavelli.core.notation import run as carried_out

    return carried_out(data)


TOOL = json_tool("machiavelli", "carry out a Machiavelli phase (a spring's A orders, or a campaign) given as JSON "
                 "(see docs/reference/json.md)", run)
"""``judge machiavelli``, which the composition root hands to the command line."""

if __name__ == "__main__":
    raise SystemExit(TOOL.main(sys.argv[1:]))
