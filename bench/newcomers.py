"""Newcomers benchmark: a community of newcomer seats (a fixed seed) playing by mail, half of them
writing their lines from the players' docs' examples and half filling the form the judge mails them
(issue 69, "Show"): the mails a seat sends per phase and the lines the judge refuses per phase, for
each population, against the issue's targets (with the form, at most 1.2 mails a seat a phase, and at
most half the refused lines of the docs' writers); then the bytes of a results mail per board and
``SET MAPS`` choice.

Theory of operation.  For each kind (Payola on the standard board, Machiavelli on the classic board of
1454) and each of ``--games`` seeds, two games are played on judges of their own (the judge of
``tests/support/harness.py``: SQLite, each mail injected as ``judge inject`` does, each phase run by
the deadline clock, ``judge tick``, at its deadline): one whose newcomers write from the docs, one
whose newcomers fill the form, the same seats on the same seed.  A seat's *intent* in a phase is drawn
from the choices the form the judge mailed it lists (its units' legal orders, what it may pay, raise
or spend), so both populations mean the same kind of thing; only how they write it differs:

- *from the docs*: the seat writes each line in the syntax of the players' docs' examples (Payola's
  ``3 : A PAR - BUR``, HELP's offers; Machiavelli's ``pay A are``, ``A are - flo``, ``transfer 2 to
  Milan``, HELP syntax) with the newcomer's slips below, in a mail signed on above its lines;
- *with the form*: the seat replies to the mail that brought the form, quoting it whole as a mail
  client does, the form above the quote with its password and each ``_`` it means to fill filled in
  (the order chosen from the form's list, copied), the other lines left as the form gave them.  The
  same slips strike only the text a form leaves free: amounts, and the country a transfer is to.

A seat that the judge refuses lines reads the refusal (what the judge made of each line: the
harness's answers) and sends a corrected mail: every line again, each refused line written without
its slip (a refusal names the line and why), and on Machiavelli without the transfers its first
letter had accepted, which stand (17.1).  At most two corrections a phase.  A line is *refused* when
the judge answers it as an error or ignores it for its own sake (not a good line of a Payola sheet
refused whole, ``SHEET_REFUSED``), or warns that it will not be carried out (Machiavelli's cautions,
`judge.games.machiavelli.core.review.Caveat`).  A slip the judge reads as the newcomer meant (``->``
for ``-``, ``3 ducats``) is not refused, and the table counts it as a slip all the same.

The table's columns, per seat and phase written: the lines written (corrections included), the
mails sent, the lines refused, and the slips made per line written.

One seat of each game (Turkey, Naples) is the bench's, not a newcomer: it sends WAIT in every phase,
so that each phase runs to its deadline and a correction is never too late.  The newcomers write in
Payola's movement phases and in each of Machiavelli's letters; Payola's retreats and adjustments are
left to the deadline's defaults.

The error model (per line written, each slip drawn on its own; ``--slips`` scales every rate).  No
measurement of newcomers' mail exists to take the rates from: they are round figures set before the
first run, each kind a mistake the judge's refusals name (``UNKNOWN_AREA``, ``BAD_OFFER``, ``SYNTAX``,
``NO_SUCH_UNIT``...), and were not changed after any run.  A newcomer slips on a province's name
about once in twenty lines (a typing slip, two letters swapped: ``PRA``); gives a unit the wrong type
one line in thirty (thinking of the fleet beside it); leaves out a coast half the times a line needs
one (the docs' examples have none); writes another separator one line in twenty (``->``, ``to``, a
missing colon: other judges' and other hosts' habits); writes an amount another way one amount in
twenty-five (``3 AgP``, ``3.0``, ``$3``, ``three``: money as people write it); and orders a unit it
no longer has one line in thirty (last phase's board, or where it meant to move).  So the ratio the
table prints depends on these figures: run with ``--slips 0.5`` or ``--slips 2`` to see how far.

The bytes of a results mail per board and choice are `bench/maps_bench.py`'s (imported, not
copied: ``--bytes`` names the boards; ``--bytes none`` skips them).  The 1,000-game evening's bytes,
its half and last results, are printed by ``bench/evening_bench.py --games 1000`` (each run's
"results mail to a player" line, and the columns "half the results", "last results", "a results
mail" and "the evening's mail" of its table), which this bench does not run: the evening takes
minutes of a whole machine.

Run: .venv/bin/python bench/newcomers.py [--games 4] [--phases 4] [--kinds payola,machiavelli]
     [--slips 1.0] [--seed 69] [--bytes standard] [--choices png,svg,all,none]
"""

from __future__ import annotations

import argparse
import random
import re
import sys
import tempfile
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # tests.support: the harness's judge
sys.path.insert(0, str(Path(__file__).resolve().parent))  # maps_bench, a sibling script

from sqlalchemy import select

from judge.games.machiavelli.core.review import Caveat
from judge.service.hosting.host import phase_seed
from judge.store.models import Game, PhaseRow
from tests.support.harness import Answer, Judge, Sent, once, start_game

RATES = {"province": 1 / 20, "unit type": 1 / 30, "coast": 1 / 2, "separator": 1 / 20, "amount": 1 / 25,
         "no such unit": 1 / 30}
"""The newcomer's slips, each a chance per line it could strike (``coast``: per line that names one)."""
FREE = frozenset({"amount", "country"})
"""What a form leaves the player to write: its amounts, and the country a transfer is to."""
WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}
COLLATERAL = frozenset({"SHEET_REFUSED"})
"""Codes of a good line not applied for another line's sake: not a refusal of that line."""
CAUTIONS = frozenset(caveat.name for caveat in Caveat if caveat is not Caveat.LEFT_OFF)
"""Machiavelli's warnings that a line read will not be carried out: refusals to a newcomer (but the
warning of units left off, which falls on the letter's first payment for another line's sake)."""
CORRECTIONS = 2
GM = "gm@example.org"


# -- a seat's lines ----------------------------------------------------------------------------------

@dataclass(frozen=True)
class Choice:
    """One line a seat means: ``slot``, the form's line it fills (``_ : A PAR H``); ``verb`` (Payola's
    offer ``:``, Machiavelli's ``pay``, ``disband``, ``raise``, ``transfer`` or ``order``); ``unit``
    (``A PAR``), ``order`` (``- BUR``), ``amount`` and ``country`` where the line has them."""

    slot: str
    verb: str
    unit: str = ""
    order: str = ""
    amount: int = 0
    country: str = ""


@dataclass
class Written:
    """A line as the newcomer wrote it, and the slips it made in it."""

    text: str
    slips: tuple[str, ...] = ()


@dataclass
class Slips:
    """Draws a newcomer's slips (`RATES`, scaled); ``only``: the slips allowed (the form's free text)."""

    rng: random.Random
    scale: float
    only: frozenset[str] | None = None

    def strikes(self, slip: str) -> bool:
        allowed = self.only is None or slip in self.only
        rate = RATES["province" if slip == "country" else slip]  # a country's name is misspelt as a place's
        return allowed and self.rng.random() < min(1.0, rate * self.scale)


def misspelt(name: str, rng: random.Random) -> str:
    """``name`` with two neighbouring letters swapped (its last letter doubled where that changes nothing)."""
    if len(name) >= 2:
        at = rng.randrange(len(name) - 1)
        swapped = name[:at] + name[at + 1] + name[at] + name[at + 2:]
        if swapped != name:
            return swapped
    return name + name[-1]


def amount_text(amount: int, unit: str, slips: Slips, made: list[str]) -> str:
    if not slips.strikes("amount"):
        return str(amount)
    made.append("amount")
    return slips.rng.choice([f"{amount} {unit}", f"{amount}.0", f"${amount}", WORDS.get(amount, str(amount))])


def unit_slips(unit: str, stale: list[str], targets: list[str], slips: Slips, made: list[str]) -> str:
    """``unit`` (``A PAR``) with the slips a unit may take: another type, a unit the seat has not."""
    kind, _, area = unit.partition(" ")
    if slips.strikes("no such unit") and (stale or targets):
        made.append("no such unit")
        return slips.rng.choice(stale) if stale else f"{kind} {slips.rng.choice(targets)}"
    if slips.strikes("unit type"):
        made.append("unit type")
        kind = slips.rng.choice([other for other in "AFG" if other != kind][: 1 if kind != "G" else 2])
    return f"{kind} {area}"


def moved_to(order: str) -> list[str]:
    """Where ``order`` moves its unit (``BUR`` of ``- BUR``): a unit the seat may think it has there."""
    return [COAST.sub("", order.split()[-1])] if order.startswith("- ") else []


COAST = re.compile(r"(/[NSEW]C|\([nsew]c\)|/[nsew]c)", re.I)


def order_slips(order: str, slips: Slips, made: list[str]) -> str:
    """``order`` (``- BUR``) with the slips an order may take: its coast left out, another separator."""
    if COAST.search(order) and slips.strikes("coast"):
        made.append("coast")
        order = COAST.sub("", order)
    if order.startswith("- ") and slips.strikes("separator"):
        made.append("separator")
        order = slips.rng.choice(["->", "to", "=>", "--"]) + order[1:]
    return order


def place_slip(unit: str, order: str, slips: Slips, made: list[str]) -> tuple[str, str]:
    """``unit`` and ``order`` with one of their place names (``PAR`` of ``A PAR``, ``BUR`` of ``- BUR``)
    misspelt."""
    words = [unit.split(" "), order.split(" ")]
    places = [(part, at) for part, line in enumerate(words) for at, word in enumerate(line)
              if ((part == 0 and at == 1) or part == 1) and len(word) >= 3 and word.lower() not in ("for", "to")]
    if places and slips.strikes("province"):
        made.append("province")
        part, at = slips.rng.choice(places)
        words[part][at] = misspelt(words[part][at], slips.rng)
    return " ".join(words[0]), " ".join(words[1])


# -- the forms ---------------------------------------------------------------------------------------

NOTE = re.compile(r"^% (Raise|[AFG] \S+): (.+)$")
UNIT = re.compile(r"^[AFG] \S+$")


@dataclass
class Form:
    """A form as a mail brought it: its block of lines, the mail, and its notes' lists by unit."""

    mail: Sent
    lines: list[str]
    lists: dict[str, list[str]] = field(default_factory=dict)
    treasury: int = 0

    @classmethod
    def of(cls, mail: Sent) -> Form:
        lines = mail.body.rstrip("\n").split("\n")
        opening = next(i for i, line in enumerate(lines) if line.startswith("%% form for"))
        form = cls(mail, lines[opening:lines.index("%% end of form", opening) + 1])
        for line in form.lines:
            if (found := NOTE.match(line)) is not None:
                form.lists.setdefault(found.group(1), []).extend(found.group(2).split(", "))
            elif (money := re.match(r"^% Treasury: (\d+)", line)) is not None:
                form.treasury = int(money.group(1))
        return form

    def units(self) -> list[str]:
        return [unit for unit in self.lists if unit != "Raise"]


# -- the kinds ---------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Seat:
    address: str
    name: str  # as SIGNON takes it
    password: str


class Kind(ABC):
    """What the bench knows of a kind: its game, its seats, what a seat means and how it writes it."""

    name = ""
    game = "g1"
    money = ""

    @abstractmethod
    def start(self, judge: Judge) -> tuple[list[Seat], Seat]:
        """The game started on ``judge``: its newcomers' seats, and the bench's seat that holds each phase."""

    def writes_in(self, phase: str) -> bool:
        """Whether the newcomers write in ``phase``."""
        return True

    @abstractmethod
    def intent(self, form: Form, others: list[str], rng: random.Random) -> list[Choice]:
        """What a seat means to send, chosen from ``form``'s lists (``others``: the other seats)."""

    @abstractmethod
    def write(self, choice: Choice, stale: list[str], slips: Slips) -> Written:
        """``choice`` as the newcomer writes it (``stale``: units it had last phase and has no more)."""


PAYOLA_SEATS = (("fr@example.org", "FRANCE"), ("ge@example.org", "GERMANY"), ("en@example.org", "ENGLAND"),
                ("it@example.org", "ITALY"), ("au@example.org", "AUSTRIA"), ("ru@example.org", "RUSSIA"))
PAYOLA_HOLDER = ("tu@example.org", "TURKEY")


class Payola(Kind):
    """Payola on the standard board: six newcomer powers, Turkey the bench's; an offer a unit a phase."""

    name, money = "payola", "AgP"

    def start(self, judge: Judge) -> tuple[list[Seat], Seat]:
        start_game(judge, self.game, "", (*PAYOLA_SEATS, PAYOLA_HOLDER))
        seats = [Seat(address, power, f"{address.partition('@')[0]}-pw") for address, power in PAYOLA_SEATS]
        return seats, Seat(PAYOLA_HOLDER[0], PAYOLA_HOLDER[1], "tu-pw")

    def writes_in(self, phase: str) -> bool:
        return phase.endswith("M")

    def intent(self, form: Form, others: list[str], rng: random.Random) -> list[Choice]:
        return [Choice(f"_ : {unit} H", ":", unit, rng.choice(form.lists[unit]), rng.randint(1, 4))
                for unit in form.units() if f"_ : {unit} H" in form.lines]

    def write(self, choice: Choice, stale: list[str], slips: Slips) -> Written:
        made: list[str] = []
        amount = amount_text(choice.amount, self.money, slips, made)
        unit = unit_slips(choice.unit, stale, moved_to(choice.order), slips, made)
        order = order_slips(choice.order, slips, made)
        colon = ":"
        if "separator" not in made and slips.strikes("separator"):
            made.append("separator")
            colon = slips.rng.choice(["", "-", "="])
        unit, order = place_slip(unit, order, slips, made)
        return Written(f"{amount} {colon} {unit} {order}" if colon else f"{amount} {unit} {order}", tuple(made))


MACHIAVELLI_SEATS = {"Florence": "ann", "Milan": "bob", "Venice": "cy", "Papacy": "eve"}
MACHIAVELLI_HOLDER = ("Naples", "dee")


def _machiavelli_started(judge: Judge, game: str) -> None:
    judge.send(GM, f"CREATE {game} gm-pw machiavelli")
    for country, name in (*MACHIAVELLI_SEATS.items(), MACHIAVELLI_HOLDER):
        judge.send(f"{name}@example.org", f"JOIN {game} pw-{name} {country}")
    judge.send(GM, f"SIGNON MASTER@{game} gm-pw\nSTART")


class Machiavelli(Kind):
    """Machiavelli on the classic board: four newcomer countries, Naples the bench's; every unit paid
    as far as the treasury goes (the rest disbanded), a unit raised now and then, a small transfer
    now and then, an order for every unit in a campaign."""

    name, game, money = "machiavelli", "m1", "ducats"

    def start(self, judge: Judge) -> tuple[list[Seat], Seat]:
        once(judge, _machiavelli_started, self.game)
        seats = [Seat(f"{name}@example.org", country, f"pw-{name}") for country, name in MACHIAVELLI_SEATS.items()]
        country, name = MACHIAVELLI_HOLDER
        return seats, Seat(f"{name}@example.org", country, f"pw-{name}")

    def intent(self, form: Form, others: list[str], rng: random.Random) -> list[Choice]:
        money = form.treasury
        chosen: list[Choice] = []
        for line in form.lines:
            if UNIT.match(line[2:]) and line.startswith("_ "):  # a unit to pay or disband (A.7)
                paid = money >= 3
                money -= 3 if paid else 0
                chosen.append(Choice(line, "pay" if paid else "disband", line[2:]))
            elif line[:-2] in form.lists and line.endswith(" _"):  # a unit's order (C)
                chosen.append(Choice(line, "order", line[:-2], rng.choice(form.lists[line[:-2]])))
        if "raise _" in form.lines and form.lists.get("Raise") and money >= 3 and rng.random() < 0.5:
            chosen.append(Choice("raise _", "raise", rng.choice(form.lists["Raise"])))
            money -= 3
        if "transfer _ to _" in form.lines and money >= 1 and rng.random() < 0.25:
            chosen.insert(0, Choice("transfer _ to _", "transfer", amount=rng.randint(1, min(3, money)),
                                    country=rng.choice(others)))
        return chosen

    def write(self, choice: Choice, stale: list[str], slips: Slips) -> Written:
        made: list[str] = []
        if choice.verb == "transfer":
            amount = amount_text(choice.amount, self.money, slips, made)
            country = choice.country
            if slips.strikes("country"):
                made.append("country")
                country = misspelt(country, slips.rng)
            return Written(f"transfer {amount} to {country}", tuple(made))
        unit = unit_slips(choice.unit, stale if choice.verb != "raise" else [], moved_to(choice.order), slips, made)
        order = order_slips(choice.order, slips, made)
        unit, order = place_slip(unit, order, slips, made)
        if choice.verb == "order":
            return Written(f"{unit} {order}", tuple(made))
        return Written(f"{choice.verb} {unit}", tuple(made))


KINDS: dict[str, Callable[[], Kind]] = {"payola": Payola, "machiavelli": Machiavelli}


# -- playing -----------------------------------------------------------------------------------------

@dataclass
class Tally:
    """One population's figures over its games."""

    seat_phases: int = 0
    mails: int = 0
    lines: int = 0
    refused: int = 0
    slips: Counter[str] = field(default_factory=Counter)
    refused_slips: Counter[str] = field(default_factory=Counter)

    def add(self, other: Tally) -> None:
        self.seat_phases += other.seat_phases
        self.mails += other.mails
        self.lines += other.lines
        self.refused += other.refused
        self.slips.update(other.slips)
        self.refused_slips.update(other.refused_slips)

    def per(self, value: int) -> float:
        return value / self.seat_phases if self.seat_phases else 0.0


def refused(line: str, answers: list[Answer]) -> bool:
    """Whether the judge refused ``line`` as the newcomer wrote it (see the module's docstring)."""
    found = [answer for answer in answers if answer.text == line.strip()]
    return any((answer.outcome in ("error", "ignored") and answer.code not in COLLATERAL)
               or answer.code in CAUTIONS for answer in found)


def state(judge: Judge, game: str) -> tuple[str, datetime | None, str]:
    """``game``'s phase, deadline and state."""
    with judge.db.transaction() as session:
        row = session.scalars(select(Game).where(Game.name == game)).one()
        return row.phase or "", row.deadline, row.state


def fix_seed(judge: Judge, game: str, seed: int) -> None:
    """``game``'s seed, drawn at random at its CREATE, set to ``seed``, and its open phase's with it:
    what the judge draws from them (a tie, a retreat it chooses) is then the same in every run."""
    with judge.db.transaction() as session:
        row = session.scalars(select(Game).where(Game.name == game)).one()
        row.seed = seed
        for phase in session.scalars(select(PhaseRow).where(PhaseRow.game_id == row.id, PhaseRow.name == row.phase)):
            phase.seed = phase_seed(row, phase.name)


def to_next_phase(judge: Judge, game: str) -> None:
    """Run the deadline clock at the game's deadline, an hour later each time, until its phase changes."""
    phase, deadline, _ = state(judge, game)
    for _ in range(10):
        if deadline is not None:
            judge.now = max(judge.now, deadline + timedelta(minutes=1))
        judge.tick()
        now_phase, deadline, game_state = state(judge, game)
        if now_phase != phase or game_state != "active":
            return
        judge.later(1)
    raise SystemExit(f"{game}: {phase} did not end at its deadline")


def latest_form(judge: Judge, seat: Seat, marker: str) -> Form | None:
    mails = [mail for mail in judge.all_mail() if mail.to == seat.address and marker in mail.body]
    return Form.of(mails[-1]) if mails else None


def play(kind: Kind, folder: Path, seed: int, phases: int, scale: float, with_form: bool) -> Tally:
    """One game of ``kind`` on a judge in ``folder``, its newcomers writing from the docs or with the form."""
    judge = Judge(folder)
    seats, holder = kind.start(judge)
    fix_seed(judge, kind.game, seed)
    tally = Tally()
    rng = random.Random(seed)  # the seats' intents: the same draws for both populations
    slip_rng = random.Random(seed * 7919 + 1)
    slips = Slips(slip_rng, scale, FREE if with_form else None)
    stale: dict[str, list[str]] = {seat.name: [] for seat in seats}
    written = 0
    while written < phases:
        phase, _, game_state = state(judge, kind.game)
        if game_state != "active":
            break
        if kind.writes_in(phase):
            judge.send(holder.address, f"SIGNON {holder.name}@{kind.game} {holder.password}\nWAIT")
            for seat in seats:
                form = latest_form(judge, seat, f"%% form for {phase} of {kind.game}, ")
                if form is None:
                    continue
                others = [other.name for other in seats if other is not seat]
                choices = kind.intent(form, others, rng)
                if choices:
                    write_phase(judge, kind, seat, form, choices, stale[seat.name], slips, with_form, tally)
                stale[seat.name] = form.units()  # next phase, the units it had in this one
            written += 1
        to_next_phase(judge, kind.game)
    return tally


def write_phase(judge: Judge, kind: Kind, seat: Seat, form: Form, choices: list[Choice], stale: list[str],
                slips: Slips, with_form: bool, tally: Tally) -> None:
    """One seat's mails for one phase: its first, then its corrections while lines are refused."""
    old = [unit for unit in stale if unit not in form.units()]
    lines = [kind.write(choice, old, slips) for choice in choices]
    tally.seat_phases += 1
    for attempt in range(1 + CORRECTIONS):
        tally.mails += 1
        tally.lines += len(lines)
        for line in lines:
            tally.slips.update(line.slips)
        judge.send(seat.address, mail_body(kind, seat, form, choices, lines, with_form),
                   subject=f"Re: {form.mail.subject}" if with_form else "orders")
        bad = [i for i, line in enumerate(lines) if refused(line.text, judge.answers)]
        tally.refused += len(bad)
        for i in bad:
            tally.refused_slips.update(lines[i].slips or ("none",))
        if not bad or attempt == CORRECTIONS:
            return
        clean = Slips(slips.rng, 0.0)
        keep = [i for i in range(len(lines))
                if i in bad or not (kind.name == "machiavelli" and choices[i].verb == "transfer")]
        choices = [choices[i] for i in keep]
        lines = [kind.write(choices[n], [], clean) if i in bad else lines[i] for n, i in enumerate(keep)]


def mail_body(kind: Kind, seat: Seat, form: Form, choices: list[Choice], lines: list[Written],
              with_form: bool) -> str:
    signon = f"SIGNON {seat.name.replace(' ', '-')}@{kind.game} {seat.password}"
    if not with_form:
        return "\n".join([signon, *(line.text for line in lines)])
    block = list(form.lines)
    for choice, line in zip(choices, lines, strict=True):
        block[block.index(choice.slot)] = line.text
    block = [signon if line.startswith("SIGNON ") and line.endswith(" _") else line for line in block]
    quoted = [f"> {line}" if line else ">" for line in form.mail.body.split("\n")]
    return "\n".join([*block, "", *quoted])


@contextmanager
def folder() -> Iterator[Path]:
    with tempfile.TemporaryDirectory(prefix="newcomers-bench-") as name:
        yield Path(name)


def population(kind: Kind, games: int, phases: int, scale: float, seed: int, with_form: bool) -> Tally:
    total = Tally()
    for game in range(games):
        with folder() as path:
            total.add(play(kind, path, seed + game, phases, scale, with_form))
    return total


# -- the table ---------------------------------------------------------------------------------------

def verdict(met: bool) -> str:
    return "met" if met else "NOT met"


def report(kind: str, docs: Tally, form: Tally) -> list[str]:
    """The rows of ``kind``: each population, the ratio, the targets."""
    rows = [f"{kind:<12} {name:<10} {t.seat_phases:>6} {t.per(t.lines):>7.2f} {t.per(t.mails):>11.2f} "
            f"{t.per(t.refused):>12.3f} {sum(t.slips.values()) / max(1, t.lines):>8.3f}"
            for name, t in (("docs", docs), ("form", form))]
    mails = form.per(form.mails)
    ratio = form.per(form.refused) / docs.per(docs.refused) if docs.refused else 0.0
    rows.append(f"{'':<12} {'form/docs':<10} {'':>6} {'':>7} {mails / docs.per(docs.mails):>11.2f} "
                f"{ratio:>12.2f}")
    rows.append(f"{'':<12} targets: mails a seat a phase with the form {mails:.2f} <= 1.2: {verdict(mails <= 1.2)}; "
                f"refused lines {ratio:.2f} of the docs' <= 0.5: {verdict(ratio <= 0.5)}")
    for name, t in (("docs", docs), ("form", form)):
        slipped = ", ".join(f"{slip} {count} ({t.refused_slips[slip]} refused)"
                            for slip, count in t.slips.most_common())
        rows.append(f"{'':<12} {name} slips: {slipped or 'none'}")
    return rows


def newcomers_table(kinds: list[str], games: int, phases: int, scale: float, seed: int) -> list[str]:
    """The newcomers' table: a header, then `report`'s rows for each kind."""
    rows = [f"{'kind':<12} {'writing':<10} {'seat-phases':>6} {'lines':>7} {'mails/seat':>11} "
            f"{'refused/seat':>12} {'slips':>8}",
            f"{'':<12} {'':<10} {'':>6} {'':>7} {'per phase':>11} {'per phase':>12} {'per line':>8}"]
    for name in kinds:
        kind = KINDS[name]()
        docs = population(kind, games, phases, scale, seed, with_form=False)
        form = population(kind, games, phases, scale, seed, with_form=True)
        rows.extend(report(name, docs, form))
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4, help="games per kind and population (default 4)")
    parser.add_argument("--phases", type=int, default=4, help="phases written in each game (default 4)")
    parser.add_argument("--kinds", default=",".join(KINDS), help=f"default {','.join(KINDS)}")
    parser.add_argument("--slips", type=float, default=1.0, help="scales every slip's rate (default 1)")
    parser.add_argument("--seed", type=int, default=69)
    parser.add_argument("--bytes", default="standard", help="boards for the results mail's bytes, or none")
    parser.add_argument("--choices", default="png,svg,all,none", help="the SET MAPS choices measured")
    args = parser.parse_args(argv)
    print(f"Newcomers: {args.games} games a kind and population, {args.phases} phases each, seed {args.seed}, "
          f"slips x{args.slips:g}")
    for row in newcomers_table(args.kinds.split(","), args.games, args.phases, args.slips, args.seed):
        print(row)
    if args.bytes != "none":
        print_bytes(args.bytes.split(","), args.choices.split(","))
    return 0


def print_bytes(boards: list[str], choices: list[str]) -> None:
    """The bytes of a results mail per board and choice, as `bench/maps_bench.py` measures them."""
    import maps_bench  # a sibling script; imported here, as drawing maps needs what the table does not

    print("Results mail bytes (bench/maps_bench.py: the largest to a player of the first phase):")
    print(f"{'board':<18}" + "".join(f"{choice.upper():>11}" for choice in choices))
    for board in boards:
        sizes = []
        for choice in choices:
            with folder() as path:
                sizes.append(max(len(raw) for raw in maps_bench.results_mails(path, board, choice)))
        print(f"{board:<18}" + "".join(f"{size:>11,}" for size in sizes))


if __name__ == "__main__":
    raise SystemExit(main())
