"""What each reader may see of a game, decided in one place for every edge that shows it.

Theory of operation.  When a phase is processed, ``phase_report`` turns what happened into
plain data, stored with the phase: the orders as adjudicated, what the judge did by itself
(``automatic_actions``), and the board after the phase (``board``).  All of that is public:
every player receives it, and pages may show it.  What is private is kept apart and given only
to its owner: a power's rule 5.7 statement and its account (``account``: every change of its
balance since its last statement, rule 2.5).  The game master's chart (``chart``) adds every
power's offers, savings, expanded acceptance list and account.  ``results_view`` and
``chart_view`` are what the mail templates (and later the maps and pages) are given, so a
template cannot show what its reader may not see.

Under BLIND (Tin Cup, rule 6.3) nothing of the report is public: each power's results are
``blind_results_view``, made from its :class:`~judge.payola.blind.Sight` of the phase (its
own orders and those it saw, its sightings, the board as it sees it: ``board`` with
``seen_by``) and the judge's lines about itself only; an observer's show no position at all.
The game master, and everyone once the game has ended, get the whole report.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Any

from judge.api import counted, note_list
from judge.engine.legal import adjustment_count, legal_builds, retreat_options
from judge.engine.map import GameMap, available_maps, load_map
from judge.engine.notation import order_result_to_data
from judge.engine.orders import Build, Disband, OrderSyntaxError, PhaseKind, Remove, Retreat, Waive, parse_order
from judge.engine.position import Position
from judge.language import gettext as _
from judge.language import ngettext
from judge.payola.blind import Sight
from judge.payola.choices import unit_choices
from judge.payola.options import IncomeScheme, Options
from judge.wording import power_title


def board_summary(board: GameMap) -> str:
    """A board as HELP and LIST name it: ``Modern: 10 powers, 64 centers, 33 to win, from S1995M``."""
    first = Position.initial(board).phase
    return _("{board}: {powers} powers, {centers} centers, {win} to win, from {phase}", board=board.title,
             powers=len(board.powers), centers=len(board.supply_centers), win=board.victory_centers, phase=first)


def boards() -> list[tuple[str, str, list[str]]]:
    """Every board a game may be created on (rule 6.2), the standard one first: its name in
    commands, `board_summary`, and its powers with their symbols (ruling 14), in lines of at
    most 80 characters that never part a power from its symbol."""
    found = []
    for name in sorted(available_maps(), key=lambda name: (name != "standard", name)):
        board = load_map(name)
        lines: list[str] = []
        for power, info in board.powers.items():
            item = f"{power_title(power)} {info.letter}"
            if lines and len(lines[-1]) + len(item) + 2 <= 80:
                lines[-1] += f", {item}"
            else:
                lines[-1:] = [lines[-1] + ","] if lines else []
                lines.append(item)
        found.append((name, board_summary(board), lines))
    return found


def board(position: Position, seen_by: str | None = None, in_sight: Collection[str] = ()) -> dict[str, Any]:
    """The public board of a position: units, dislodged units and their retreats, supply
    centers with counts, and in an adjustment phase what each power must build or remove.

    With ``seen_by`` (Tin Cup), ``position`` is that power's :func:`~judge.payola.blind.as_seen`
    board and ``in_sight`` the provinces it sees: only its own entry is ``counted`` (another
    power's units and centers are those in sight, not its counts), only its own dislodged units
    show their retreats, and only its own adjustments are listed.  The provinces in sight are
    listed (``in_sight``), and the centers it sees owned by nobody (``unowned``) apart from
    those out of its sight (``unseen``), so that the text says what the map's fog shows: an
    empty province in sight is not one out of sight."""
    game_map = position.game_map
    powers = list(game_map.powers)
    units = {p: sorted(str(u.unit) for u in position.units_of(p)) for p in powers}
    centers = {p: sorted(position.centers_of(p)) for p in powers}
    owned = {c for cs in centers.values() for c in cs}
    mine = {seen_by} if seen_by else set(powers)
    view: dict[str, Any] = {
        "phase": str(position.phase),
        "seen_by": seen_by,
        "powers": [{"power": p, "units": units[p], "centers": centers[p], "counted": p in mine}
                   for p in sorted(powers, key=lambda p: p != seen_by)  # a Tin Cup power's own entry first
                   if units[p] or centers[p] or p == seen_by],
        "unowned": sorted(c for c in set(game_map.supply_centers) - owned if not seen_by or c in in_sight),
        "dislodged": [
            {"power": d.power, "unit": str(d.unit),
             "retreats": sorted(str(loc) for loc in retreat_options(position, province)) if d.power in mine else None}
            for province, d in sorted(position.dislodged.items())
        ],
        "adjustments": _adjustments(position, [p for p in powers if p in mine], centers, units),
    }
    if seen_by:
        view["in_sight"] = sorted(in_sight)
        view["unseen"] = sorted(c for c in set(game_map.supply_centers) - owned if c not in in_sight)
    return view


def _adjustments(position: Position, powers: Sequence[str], centers: Mapping[str, Sequence[str]],
                 units: Mapping[str, Sequence[str]]) -> list[dict[str, Any]]:
    """In an adjustment phase, what each of ``powers`` must build or remove, with its free home centers."""
    if position.phase.kind is not PhaseKind.ADJUSTMENT:
        return []
    found = []
    for power in powers:
        count = adjustment_count(position, power)
        if count == 0:
            continue
        free = sorted(c for c in position.game_map.powers[power].home_centers
                      if position.centers.get(c) == power and c not in position.units)
        found.append({"power": power, "centers": len(centers[power]), "units": len(units[power]),
                      "builds": max(count, 0), "removals": max(-count, 0), "free_homes": free})
    return found


def automatic_actions(before: Position, results: Sequence[Mapping[str, Any]], after: Position,
                      sheets: Iterable[str] | None, played: Iterable[str],
                      held: Mapping[str, Sequence[str]] | None = None,
                      seen: Position | None = None) -> list[tuple[str, str]]:
    """What the judge did by itself in a phase, one sentence each with the power it concerns:
    so that no player ever learns from a later position that a unit vanished.  ``sheets``
    names the powers whose offer sheet was used (movement phases), ``played`` the powers with
    a player; under LOYAL_UNITS ``held`` names, by power, the units of a played power that had
    no order of their own and held.  ``seen`` (Tin Cup, a retreat phase): ``before`` as one
    power saw it, so that a unit it saw a retreat for, barred only by a standoff it did not
    see, reads as not ordered rather than as cornered (`judge.payola.blind`)."""
    kind = before.phase.kind
    if kind is PhaseKind.MOVEMENT:
        return _movement_actions(before, sheets, played, held)
    succeeded = [(r.get("power"), _order(before, r)) for r in results if r.get("result") == "succeeds"]
    if kind is PhaseKind.RETREAT:
        return _retreat_actions(before, results, succeeded, seen)
    return _adjustment_actions(before, succeeded, after)


def _movement_actions(before: Position, sheets: Iterable[str] | None, played: Iterable[str],
                      held: Mapping[str, Sequence[str]] | None) -> list[tuple[str, str]]:
    """A movement phase's automatic actions: the loyal units that held for want of an order
    (rule 6.5), and the powers with a player and no sheet, offered a zero HOLD (rule 3.3)."""
    done: list[tuple[str, str]] = []
    for power, units in sorted((held or {}).items()):
        if len(units) == len(before.units_of(power)):
            done.append((power, f"{power_title(power)} sent no orders: each of its units held"))
        else:
            done.append((power, f"{power_title(power)} sent no order for {', '.join(units)}: "
                                f"{'it' if len(units) == 1 else 'they'} held"))
    for power in sorted(set(played) - set(sheets)) if sheets is not None else []:
        if before.units_of(power):
            done.append((power, f"{power_title(power)} sent no offer sheet: each of its units was offered a "
                                "zero HOLD by its own power (rule 3.3)"))
    return done


def _retreat_actions(before: Position, results: Sequence[Mapping[str, Any]], succeeded: Sequence[tuple[Any, Any]],
                     seen: Position | None) -> list[tuple[str, str]]:
    """A retreat phase's automatic actions: each dislodged unit that did not retreat was
    disbanded, with why (bounced, barred by a standoff, cornered, or not ordered)."""
    moved = {o.unit.province for _who, o in succeeded if isinstance(o, Retreat | Disband)}
    bounced = {o.unit.province: o for r in results if r.get("result") == "fails"
               for o in [_order(before, r)] if isinstance(o, Retreat)}
    barred = {o.unit.province: o for r in results if r.get("result") == "invalid"  # taken unseen: Tin Cup
              for o in [_order(before, r)] if isinstance(o, Retreat) and o.destination.province in before.contested}
    done: list[tuple[str, str]] = []
    for province, d in sorted(before.dislodged.items()):
        if province in moved:
            continue
        unit = f"{power_title(d.power)} {d.unit}"
        if province in bounced:
            why = f"its retreat to {bounced[province].destination} bounced"
        elif province in barred:
            why = f"its retreat to {barred[province].destination} failed: a standoff there barred it"
        elif not retreat_options(seen or before, province):
            why = "it had nowhere to retreat to"
        else:
            why = "no retreat was ordered for it"
        done.append((d.power, f"{unit} was disbanded: {why}"))
    return done


def _adjustment_actions(before: Position, succeeded: Sequence[tuple[Any, Any]],
                        after: Position) -> list[tuple[str, str]]:
    """An adjustment phase's automatic actions: builds a power did not use, waived, and units
    removed in civil disorder when too few removals were ordered."""
    done: list[tuple[str, str]] = []
    for power in before.game_map.powers:
        count = adjustment_count(before, power)
        mine = [o for who, o in succeeded if who == power]
        if count > 0:
            built = sum(isinstance(o, Build | Waive) for o in mine)
            if built < count:
                free = [c for c in before.game_map.powers[power].home_centers
                        if before.centers.get(c) == power and c not in before.units]
                reason = "it had no free home center" if not free else "they were not ordered"
                unused = counted(count - built, "build")
                done.append((power, f"{power_title(power)} did not use {unused}: waived ({reason})"))
        elif count < 0:
            ordered = {o.unit.province for o in mine if isinstance(o, Remove | Disband)}
            lost = sorted(str(u.unit) for p, u in before.units.items()
                          if u.power == power and p not in ordered and after.units.get(p) != u)
            for unit in lost:
                done.append((power, f"{power_title(power)} {unit} was removed in civil disorder: too few removals were "
                                    "ordered"))
    return done


def _order(position: Position, result: Mapping[str, Any]) -> Any:
    try:
        return parse_order(str(result.get("order", "")), position.game_map, position.phase.kind)
    except OrderSyntaxError:
        return None


def account(rows: Iterable[tuple[str, int, str]]) -> list[dict[str, Any]]:
    """A power's balance changes, each as ``amount`` and what it was (rule 2.5), from ledger
    rows given as (kind, amount, note); ``what`` is worded when the mail is written, in its reader's
    language (`Worded`)."""
    return [{"amount": amount, "what": Worded(kind, note)} for kind, amount, note in rows if amount]


_POWER = r"([A-Z][A-Za-z .'-]*?)"
_ACTIONS: list[tuple[re.Pattern[str], Any]] = [
    (re.compile(_POWER + r" sent no orders: each of its units held"),
     lambda m: _("{power} sent no orders: each of its units held", power=m[1])),
    (re.compile(_POWER + r" sent no order for ([^:]+): it held"),
     lambda m: _("{power} sent no order for {unit}: it held", power=m[1], unit=m[2])),
    (re.compile(_POWER + r" sent no order for ([^:]+): they held"),
     lambda m: _("{power} sent no order for {units}: they held", power=m[1], units=m[2])),
    (re.compile(_POWER + r" sent no offer sheet: each of its units was offered a zero HOLD by its own power "
                r"\(rule 3\.3\)"),
     lambda m: _("{power} sent no offer sheet: each of its units was offered a zero HOLD by its own power "
                 "(rule 3.3)", power=m[1])),
    (re.compile(_POWER + r" ([AF] \S+) was disbanded: its retreat to (\S+) bounced"),
     lambda m: _("{power} {unit} was disbanded: its retreat to {area} bounced", power=m[1], unit=m[2], area=m[3])),
    (re.compile(_POWER + r" ([AF] \S+) was disbanded: its retreat to (\S+) failed: a standoff there barred it"),
     lambda m: _("{power} {unit} was disbanded: its retreat to {area} failed: a standoff there barred it",
                 power=m[1], unit=m[2], area=m[3])),
    (re.compile(_POWER + r" ([AF] \S+) was disbanded: it had nowhere to retreat to"),
     lambda m: _("{power} {unit} was disbanded: it had nowhere to retreat to", power=m[1], unit=m[2])),
    (re.compile(_POWER + r" ([AF] \S+) was disbanded: no retreat was ordered for it"),
     lambda m: _("{power} {unit} was disbanded: no retreat was ordered for it", power=m[1], unit=m[2])),
    (re.compile(_POWER + r" did not use (\d+) builds?: waived \(it had no free home center\)"),
     lambda m: ngettext("{power} did not use {count} build: waived (it had no free home center)",
                        "{power} did not use {count} builds: waived (it had no free home center)", int(m[2]),
                        power=m[1])),
    (re.compile(_POWER + r" did not use (\d+) builds?: waived \(they were not ordered\)"),
     lambda m: ngettext("{power} did not use {count} build: waived (it was not ordered)",
                        "{power} did not use {count} builds: waived (they were not ordered)", int(m[2]),
                        power=m[1])),
    (re.compile(_POWER + r" ([AF] \S+) was removed in civil disorder: too few removals were ordered"),
     lambda m: _("{power} {unit} was removed in civil disorder: too few removals were ordered", power=m[1],
                 unit=m[2])),
]


class Action:
    """One thing the judge did by itself in a phase (`automatic_actions`), worded in the language being
    written when it is shown: the report keeps its sentence in English, and a mail made for several
    readers words it for each; a sentence the judge does not know is shown as it was kept."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = str(text)

    def __str__(self) -> str:
        for pattern, word in _ACTIONS:
            if found := pattern.fullmatch(self.text):
                return str(word(found))
        return self.text

    def __repr__(self) -> str:
        return f"Action({self.text!r})"

    def __eq__(self, other: object) -> bool:
        return str(self) == other if isinstance(other, str) else NotImplemented

    __hash__ = None  # type: ignore[assignment]


class Worded:
    """What a ledger entry was, worded in the language being written when it is shown: the ledger keeps
    its kind and its note (in English, as the treasury wrote it), and a mail made for several readers
    words it for each."""

    __slots__ = ("kind", "note")

    def __init__(self, kind: str, note: str) -> None:
        self.kind, self.note = kind, note

    def __str__(self) -> str:
        kinds = {"income": _("income"), "transfer": _("transfer"), "payment": _("paid"), "refund": _("refund"),
                 "forfeit": _("forfeited"), "zerosum": _("zero sum"), "void": _("initial funds")}
        kind = kinds.get(self.kind, self.kind)
        return _("{kind}: {note}", kind=kind, note=ledger_note(self.kind, self.note)) if self.note else kind

    def __repr__(self) -> str:
        return f"Worded({self.kind!r}, {self.note!r})"

    def __eq__(self, other: object) -> bool:
        return str(self) == other if isinstance(other, str) else NotImplemented

    __hash__ = None  # type: ignore[assignment]


def ledger_note(kind: str, note: str) -> str:
    """A ledger entry's note (`judge.payola.treasury`, the payments) in the reader's language; one the
    judge does not know is shown as it was kept."""
    if kind == "transfer":  # kept as "to FRANCE", "from UNITED_STATES": written as players read a power
        direction, _space, power = note.partition(" ")
        if direction == "to":
            return _("to {power}", power=power_title(power))
        if direction == "from":
            return _("from {power}", power=power_title(power))
        return f"{direction} {power_title(power)}"
    if found := re.fullmatch(r"(\d+) supply centers?", note):
        return ngettext("{count} supply center", "{count} supply centers", int(found[1]))
    if found := re.fullmatch(r"(\d+) units? and no supply center", note):
        return ngettext("{count} unit and no supply center", "{count} units and no supply center", int(found[1]))
    if found := re.fullmatch(r"bribes accepted in (\S+)", note):
        return _("bribes accepted in {phase}", phase=found[1])
    if found := re.fullmatch(r"first capture of (\S+)", note):
        return _("first capture of {center}", center=found[1])
    if found := re.fullmatch(r"(\S+) lost to (\S+)", note):
        return _("{center} lost to {power}", center=found[1], power=power_title(found[2]))
    if found := re.fullmatch(r"(\S+) lost", note):
        return _("{center} lost", center=found[1])
    if found := re.fullmatch(r"(\S+) taken from (\S+)", note):
        return _("{center} taken from {power}", center=found[1], power=power_title(found[2]))
    fixed = {"resigned while eliminated": _("resigned while eliminated"),
             "bribes paid to its units this year": _("bribes paid to its units this year"),
             "10 AgP per supply center (rule 6.7)": _("10 AgP per supply center (rule 6.7)")}
    return fixed.get(note, note)


def results_view(report: Mapping[str, Any], power: str | None, statement: Mapping[str, Any] | None,
                 account_lines: list[dict[str, Any]], balance: int) -> dict[str, Any]:
    """What one power's results mail shows: the public part, and its own private part only
    (``power`` None: an observer's or the history's, the public part alone)."""
    return {
        "phase": report["phase"],
        "results": report["results"],
        "automatic": [Action(text) for text in report["automatic"]],
        "board": report["board"],
        "blind": False,
        "power": power,
        "statement": statement,
        "account": account_lines,
        "balance": balance,
    }


def blind_results_view(report: Mapping[str, Any], sight: Sight | None, actions: Iterable[tuple[str, str]],
                       statement: Mapping[str, Any] | None, account_lines: list[dict[str, Any]],
                       balance: int) -> dict[str, Any]:
    """A Tin Cup results mail: the orders its power is told and its sightings, the judge's
    lines about that power (``actions``: :func:`automatic_actions`), and the board as it
    sees it; then its private part.  ``sight`` None: an observer's, with no position at all."""
    if sight is None:
        return {**results_view(report, None, None, [], 0), "results": [], "automatic": [], "board": None,
                "blind": True}
    told = [order_result_to_data(r) for r in sight.results]
    told += [{"power": s.power, "order": str(s), "result": None, "reason": None, "detail": None}
             for s in sight.sightings]
    return {
        **results_view(report, sight.power, statement, account_lines, balance),
        "results": told,
        "automatic": [Action(text) for who, text in actions if who == sight.power],
        "board": board(sight.after, sight.power, sight.view),
        "blind": True,
    }


def rules_in_words(variant: str, options: Options, flags: Sequence[str]) -> list[str]:
    """GET INFO / GET RULES: the rules a game of these options plays by, in words, each with its
    number in the Payola rules (rule 6's variants, and the rules every game plays by), and its
    own flags (draws)."""
    game_map = load_map(variant)
    victory = game_map.victory_centers
    lines = [_("Payola Diplomacy (the numbers are those of the Payola rules) on the {variant} board ({summary})",
               variant=variant, summary=board_summary(game_map)) if variant == "standard" else
             _("Payola Diplomacy (the numbers are those of the Payola rules) on the {variant} board ({summary}); "
               "every rule applies on it (6.2)", variant=variant, summary=board_summary(game_map))]
    if options.classic:
        lines.append(_("CLASSIC (6.1): Payola Classic: direct offers only, one offer per unit, no repetition, "
                       "plateau, augmentation, alternatives or savings; zero offers to foreign units allowed"))
    if options.ebayola:
        lines.append(_("EBAYOLA (6.4): a successful total bribe costs one AgP more than the best losing one; what "
                       "that saves goes back to its contributors in the order of the unit owner's acceptance list"))
    if options.loyal_units:
        lines.append(_("LOYAL_UNITS (6.5): each player orders its own units, which take no bribes; only the units "
                       "of dummy powers are bribed"))
    if options.blind:
        lines.append(_("BLIND (6.3, Tin Cup): each power sees only the board near its units and home centers; an "
                       "offer to or naming a unit that is not there is ignored and never reported; statements name "
                       "only the nationality of the units paid"))
    if options.zerosum:
        lines.append(_("ZEROSUM (6.7): 10 AgP per center at the start and no income: what a power's units were "
                       "paid in a year is paid to it, and a captured center brings money from its former owner"))
    else:
        income = _income_words(options, victory)
        lines.append(_("income (2.1, 6.6): {income}", income=income) if _income_changed(options)
                     else _("income (2.1): {income}", income=income))
    lines.append(_("offers (3.1), required offers: a power with no sheet offers 0 AgP for each of its units to "
                   "hold (3.3), savings requests (3.4), acceptance lists, kept until changed (4.2, 4.3), order "
                   "determination and reductions (5), statements (5.7), transfers at any time (2.3)"))
    lines.append(_("draws: none, the game ends only in a win or a concession") if "NO_DRAW" in flags else
                 _("draws: VOTE DRAW, when every surviving power with a player votes for it; or a concession "
                   "(VOTE CONCEDE power)"))
    if "SHOW_VOTES" in flags:
        lines.append(_("SHOW_VOTES: the players are told how many vote for a draw when that number changes, never "
                       "who"))
    return lines


def _income_changed(options: Options) -> bool:
    return (options.income_scheme is not IncomeScheme.DECREASING or options.income_first is not None
            or options.income_cap is not None or options.income_twice)


def _income_words(options: Options, victory: int) -> str:
    scheme = options.income_scheme
    if scheme is IncomeScheme.FIXED:
        words = _("{amount} AgP for each supply center", amount=options.income_first)
    elif scheme is IncomeScheme.INCREASING:
        first = options.income_first if options.income_first is not None else 1
        words = _("{amount} AgP for the first supply center, one more for each further one", amount=first)
    else:
        first = options.income_first if options.income_first is not None else victory - 1
        words = _("{amount} AgP for the first supply center, one less for each further one", amount=first)
    clauses = [words]  # each clause a phrase of its own, listed as the rules list them
    if options.income_cap is not None:
        clauses.append(_("at most {amount} AgP a year", amount=options.income_cap))
    clauses.append(_("paid in Spring and in Fall") if options.income_twice else _("paid once a year"))
    return ", ".join(clauses)


# -- the form to fill ------------------------------------------------------------------------------

def form_parts(position: Position, power: str, balance: int, acceptance: str | None,
               options: Options) -> tuple[list[str], list[str]] | None:
    """The notes and lines of ``power``'s form to fill in the phase of ``position`` (what the power sees
    of it, in a Tin Cup game, so that nothing it may not see is listed), each choice written ``_``
    (`judge.service.outgoing.forms`); None where it has nothing to send.  A movement phase: the treasury,
    each own unit's legal orders in short (its supports and convoys too where they fit), an offer line
    per own unit (under LOYAL_UNITS an order line), the acceptance list as it stands and a line to
    change it, a savings line.  A retreat phase: each dislodged unit's retreats and a line for each.
    An adjustment phase: how many builds or removals, where a build may go or which unit may go."""
    kind = position.phase.kind
    if kind is PhaseKind.MOVEMENT:
        return _movement_form(position, power, balance, acceptance, options)
    if kind is PhaseKind.RETREAT:
        return _retreat_form(position, power)
    return _adjustment_form(position, power)


def _movement_form(position: Position, power: str, balance: int, acceptance: str | None,
                   options: Options) -> tuple[list[str], list[str]]:
    loyal = options.loyal_units
    notes = [_("Treasury: {balance} AgP.", balance=balance)]
    if loyal:
        notes.append(_("Your own units obey your orders (LOYAL_UNITS): replace the _ of a unit's line with its "
                       "order, as listed here."))
    else:
        notes.append(_("Each line is an offer: replace its _ with the amount, and the order with another from "
                       "the list if you like. You may offer on any unit, not only your own."))
    units, listed = unit_choices(position, power, note_list)
    notes.extend(listed)
    lines = [f"{unit} _" if loyal else f"_ : {unit} H" for unit in units]
    own = position.game_map.powers[power].letter
    notes.append(_("Acceptance list: {acceptance}. To change it, replace the _ of the ACCEPT line with the new "
                   "list.", acceptance=acceptance or own + "?"))
    lines.append("ACCEPT _")
    if not options.classic:
        notes.append(_("Savings: replace the _ of the line ending with $ with the amount to save, if any."))
        lines.append("_ $")
    return notes, lines


def _retreat_form(position: Position, power: str) -> tuple[list[str], list[str]] | None:
    units = sorted((d.unit for d in position.dislodged.values() if d.power == power), key=str)
    if not units:
        return None
    notes = [_("Each dislodged unit's line: replace its _ with its retreat, or with D to disband it.")]
    for unit in units:
        retreats = [f"- {where}" for where in retreat_options(position, unit.province)]
        notes.extend(note_list(str(unit), [*retreats, "D"]))
    return notes, [f"{unit} _" for unit in units]


def _adjustment_form(position: Position, power: str) -> tuple[list[str], list[str]] | None:
    count = adjustment_count(position, power)
    if count > 0:
        builds = [str(order).removeprefix("BUILD ") for order in legal_builds(position, power)
                  if isinstance(order, Build)]
        if not builds:
            return ([ngettext("You may build {count} unit, but every centre where you may build is occupied.",
                              "You may build {count} units, but every centre where you may build is occupied.",
                              count)], [])
        notes = [ngettext("You may build {count} unit: replace the _ of a BUILD line with the unit to build, or "
                          "leave it as it is to waive it.",
                          "You may build {count} units: replace the _ of a BUILD line with the unit to build, or "
                          "leave it as it is to waive it.", count)]
        notes.extend(note_list(_("Builds"), builds))
        return notes, ["BUILD _"] * min(count, len(builds))
    if count < 0:
        units = [str(placed.unit) for placed in sorted(position.units_of(power), key=lambda placed: str(placed.unit))]
        notes = [ngettext("You must remove {count} unit: replace the _ of each REMOVE line with one of your "
                          "units, or the judge removes the ones farthest from home.",
                          "You must remove {count} units: replace the _ of each REMOVE line with one of your "
                          "units, or the judge removes the ones farthest from home.", -count)]
        notes.extend(note_list(_("Units"), units))
        return notes, ["REMOVE _"] * -count
    return None

