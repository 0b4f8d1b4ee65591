"""``judge machiavelli``: a Machiavelli phase as JSON in, its record as JSON out.

The host's command line adds the subcommand with :func:`add_parser` and runs it with
:func:`main`; ``python -m judge.games.machiavelli.cli [FILE] [--jsonl]`` runs it alone.  It reads
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
``conversions``, ``sieges``, ``control`` (markers moved), ``conquests``, ``losses``, ``eliminated``,
``winners``, ``ranking``, and ``spring`` (after a Fall: the next spring's A.1 and A.2 — the
garrisons sprung up and each player's ``incomes``).  A spring adds ``trades``, ``forced_taxes``,
``raised``, ``disbanded``, ``excommunicated`` and ``control``.  Reasons are the names of
:class:`judge.games.machiavelli.core.results.Reason`, whose values say the rule applied.

An example (AoP Example 5 on the classic board)
-----------------------------------------------

The Pope has 10 ducats, armies in Perugia and Urbino, a fleet in Ancona and a garrison in Rome;
Siena's independent garrison stands beside them.  The bodyguard (D.2) is paid before the bribe
(D.4), which leaves 7 ducats: the bribe is not carried out (nor could it be: a garrison is
bribed only from its own province, M36), and nothing is charged for it.  Request::

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
                 "reason": "BRIBE_OUT_OF_REACH"}],
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

import argparse
import json
import sys
from typing import IO, Any

from judge.games.machiavelli.core.notation import NotationError, run


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add the ``machiavelli`` subcommand to a command line's subparsers."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "machiavelli", help="carry out a Machiavelli phase given as JSON (see judge/games/machiavelli/cli.py)",
        description="Carry out a Machiavelli phase (a spring's A orders, or a campaign) given as JSON.")
    parser.add_argument("file", nargs="?", help="JSON input (default: standard input)")
    parser.add_argument("--jsonl", action="store_true", help="one JSON object per line in and out")
    return parser


def answer(text: str) -> tuple[dict[str, Any], bool]:
    """One request's answer, and whether it was carried out (a failure is ``{"error": ...}``)."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        return {"error": f"malformed JSON: {exc.msg} at line {exc.lineno} column {exc.colno}"}, False
    try:
        return run(data), True
    except NotationError as exc:
        return {"error": str(exc)}, False
    except Exception as exc:  # never a traceback on the contract: one bad request must not stop a --jsonl run
        return {"error": f"internal error ({type(exc).__name__}): {exc}"}, False


def serve(source: IO[str], out: IO[str], jsonl: bool) -> int:
    """Answer the requests of ``source`` on ``out``: one JSON object, or one a line."""
    if not jsonl:
        reply, ok = answer(source.read())
        out.write(json.dumps(reply) + "\n")
        return 0 if ok else 1
    for line in source:
        if line.strip():
            out.write(json.dumps(answer(line)[0]) + "\n")
            out.flush()
    return 0


def main(args: argparse.Namespace) -> int:
    """Run the subcommand with the arguments :func:`add_parser` defined."""
    if args.file in (None, "-"):
        return serve(sys.stdin, sys.stdout, args.jsonl)
    try:
        source = open(args.file, encoding="utf-8")  # noqa: SIM115 - closed below
    except OSError as exc:
        print(json.dumps({"error": f"cannot read {args.file}: {exc.strerror}"}))
        return 1
    with source:
        return serve(source, sys.stdout, args.jsonl)


if __name__ == "__main__":
    _parser = argparse.ArgumentParser(prog="judge")
    add_parser(_parser.add_subparsers(dest="command", required=True))
    raise SystemExit(main(_parser.parse_args(["machiavelli", *sys.argv[1:]])))
