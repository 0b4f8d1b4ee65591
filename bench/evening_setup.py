"""The games of a deadline evening (`evening_bench.py`): one game of each flavour of the mix set
up by mail, the way players and game masters do it, then copied row for row as many times as
the evening wants, every copy due at the same moment.

Theory of operation.  Setting up a thousand games by mail would cost the bench an hour (every
JOIN hashes a password), and would measure nothing the evening is about.  So each *flavour* (a
kind, its board and options) is played once by mail in-process (`judge.service.running.app.inject`,
maps and pages off) up to the phase the evening processes: created, joined by every seat,
started, earlier phases played where the flavour's evening phase is a later one, and then every
player's orders for that phase sent, held to the deadline (WAIT where the kind has it; a kind
that closes a phase as soon as every letter is in gets its last letter while the game is
paused, as a game master's PAUSE would keep it).  That game is the *template*; `clone` copies
its rows (the game, its seats, phases and submissions, and every kind's table keyed by one of
them) under a new name, with its players at addresses of their own and the deadline given.
Then each copy's players send letters of their own by mail in place of the template's (`vary`:
Payola's and Exchange's sheets drawn anew for the copy, two Machiavelli countries' corrections), so
that no two games stand alike after their deadline, as in a community; Pirates' Proposal, which
draws no map, keeps its template's plans.  What the judge then processes is exactly what it
would have processed had every copy been played by mail.  A community's games have each had
deadlines before, whose runs' costs order an evening's games
(`judge.service.running.app.claim_next`): each template is given the cost of its own phase's run,
measured on copies of it run here (`measure`), which its copies carry.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from email.utils import make_msgid

from sqlalchemy import Table, func, insert, or_, select, text, update

from judge.engine.legal import legal_orders
from judge.engine.map import load_map
from judge.engine.position import Position
from judge.payola.offers import parse_sheet
from judge.service.config import Settings
from judge.service.outgoing.preferences import choose_language
from judge.service.running.app import drain, inject
from judge.store.database import Database
from judge.store.models import Base, ConfirmedAddress, Game, Outbox, Player

MX = "mx.bench"  # the judge's MTA, which vouches for the bench's senders
GM = "gm@example.org"
GM_PASSWORD = "gm-secret"


def vouched(sender: str) -> str:
    return f"{MX}; dmarc=pass header.from={sender.rpartition('@')[2]}"


def mail(sender: str, body: str) -> bytes:
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = sender, "judge@localhost", "evening"
    message["Message-ID"] = make_msgid(domain="example.org")
    message["Authentication-Results"] = vouched(sender)
    message.set_content(body)
    return message.as_bytes()


def address(seat: str, game: str) -> str:
    """A player's address: one per seat and game, as in a community."""
    return f"{re.sub(r'[^a-z0-9]+', '-', seat.lower())}.{game}@example.org"


def password(seat: str) -> str:
    return f"pw-{re.sub(r'[^a-z0-9]+', '-', seat.lower())}"


class Setup:
    """Mail sent in-process to a judge's database at a moment that moves a second a mail."""

    def __init__(self, db: Database, settings: Settings, now: datetime) -> None:
        self.db, self.settings, self.now = db, settings, now

    def send(self, sender: str, body: str) -> str:
        self.now += timedelta(seconds=1)
        with self.db.transaction() as session:
            if session.get(ConfirmedAddress, sender) is None:
                session.add(ConfirmedAddress(address=sender, confirmed_at=self.now - timedelta(days=1)))
        return inject(self.db, self.settings, mail(sender, body), self.now)

    def signed(self, game: str, seat: str, *lines: str) -> str:
        return self.send(address(seat, game), "\n".join((f"SIGNON {seat.replace(' ', '-')}@{game} {password(seat)}",
                                                          *lines)))

    def accepted(self, game: str, seat: str, *lines: str) -> None:
        """``signed``, and SystemExit unless the judge took every line (its answer says ERROR or IGNORED of none)."""
        self.signed(game, seat, *lines)
        answer = self.last_to(address(seat, game))
        if re.search(r"^  (ERROR|IGNORED):", answer, re.M):
            raise SystemExit(f"{seat}'s letter to {game} was refused:\n{answer[:2000]}")

    def master(self, game: str, *lines: str) -> str:
        return self.send(GM, "\n".join((f"SIGNON MASTER@{game} {GM_PASSWORD}", *lines)))

    def game(self, name: str) -> Game:
        with self.db.transaction() as session:
            found = session.scalars(select(Game).where(Game.name == name)).one()
            session.expunge(found)
            return found

    def last_to(self, to: str) -> str:
        with self.db.transaction() as session:
            return str(session.scalars(select(Outbox.body).where(Outbox.recipient == to)
                                       .order_by(Outbox.id.desc())).first())

    def create(self, name: str, words: str, seats: Sequence[str]) -> None:
        self.send(GM, f"CREATE {name} {GM_PASSWORD} {words}".rstrip())
        for seat in seats:
            self.send(address(seat, name), f"JOIN {name} {password(seat)} {seat}")
        self.master(name, "START")
        state = self.game(name).state
        if state != "active":
            raise SystemExit(f"the template {name} did not start ({state}): {self.last_to(GM)[:2000]}")

    def paused(self, name: str, paused: bool) -> None:
        """The template's state set by hand: a letter sent while it is paused does not close the phase."""
        with self.db.transaction() as session:
            session.execute(update(Game).where(Game.name == name).values(state="paused" if paused else "active"))


# -- the flavours ------------------------------------------------------------------------------------


def payola_sheet(position: Position, power: str, rng: random.Random) -> str:
    """A Payola offer sheet of legal orders: two offers for each of the power's units, a few for
    other powers' units, and savings; what a careful player sends."""
    own = sorted(p for p, unit in position.units.items() if unit.power == power)
    others = sorted(p for p in position.units if p not in own)
    lines = []
    for province in own * 2 + rng.sample(others, min(3, len(others))):
        order = rng.choice([str(o) for o in legal_orders(position, province)])
        lines.append(f"{rng.randint(1, 4)} {rng.choices(':!>', weights=[80, 10, 10])[0]} {order}")
    lines.append(f"{rng.randint(0, 3)} $")
    sheet = "\n".join(lines)
    _, errors = parse_sheet(sheet, position, power)
    assert not errors, errors
    return sheet


def payola(board: str, options: str = "") -> Callable[[Setup, str], None]:
    def play(setup: Setup, name: str) -> None:
        setup.create(name, f"{board} {options}".strip(), list(load_map(board).powers))
        payola_sheets(board)(setup, name)
    return play


def payola_sheets(board: str) -> Callable[[Setup, str], None]:
    """Every power's offer sheet of the game, drawn for it alone (`payola_sheet`, seeded by the game's name): the
    template's, and a copy's own in place of the template's (`vary`)."""
    def sheets(setup: Setup, name: str) -> None:
        game_map = load_map(board)
        position = Position.initial(game_map)
        rng = random.Random(name)
        for power in game_map.powers:
            setup.signed(name, power, payola_sheet(position, power, rng), "WAIT")
    return sheets


EXCHANGE_1900 = {
    "Ann": ("BID 6 FRANCE AT 5", "BID 2 GERMANY AT 3", "ELECT FRANCE ME", "ELECT GERMANY CAT"),
    "Bob": ("PRIORITY 2", "BID 5 FRANCE AT 5", "BID 5 GERMANY AT 4", "ELECT FRANCE ME", "ELECT GERMANY ME"),
    "Cat": ("PRIORITY 3", "BID 4 GERMANY AT 4", "BID 3 FRANCE AT 6", "ELECT GERMANY ME", "ELECT FRANCE ME"),
}


def exchange_sheets(setup: Setup, name: str) -> None:
    """The CEOs' and the investor's sheets of Spring 1901 (the demo's lines), each unit's order drawn among its legal
    ones, seeded by the game's name: the template's, and a copy's own in place of the template's (`vary`)."""
    position = Position.initial(load_map("standard"))
    rng = random.Random(name)

    def order(province: str) -> str:
        return rng.choice([str(o) for o in legal_orders(position, province)])

    sheets = {
        "Ann": (f"2 : {order('MUN')}", "WAIT"),
        "Bob": ("FOR FRANCE", "WORTH PAR 24 MAR 14 BRE 10", *(f"0 : {order(p)}" for p in ("PAR", "MAR", "BRE")),
                "END", "WAIT"),
        "Cat": ("FOR GERMANY", f"0 : {order('KIE')}", f"0 : {order('BER')}", f"3 : {order('MUN')}", "END", "WAIT"),
    }
    for investor, lines in sheets.items():
        setup.accepted(name, investor, *lines)


def exchange(setup: Setup, name: str) -> None:
    """Exchange Payola's worked year (the demo's sheets): the Exchange phase of 1900 played, the
    CEOs' sheets of Spring 1901 held to the deadline (`exchange_sheets`)."""
    setup.create(name, "exchange INVESTORS=3 FUNDS=60", list(EXCHANGE_1900))
    for investor, lines in EXCHANGE_1900.items():
        setup.signed(name, investor, *lines)
    if setup.game(name).phase != "S1901M":
        raise SystemExit(f"the template {name} is in {setup.game(name).phase}, not S1901M")
    exchange_sheets(setup, name)


AOP_SPRING = {
    "Milan": ("buy Pontremoli from Savoy for 4", "tax Como", "raise A mil", "raise A pav", "raise G cre"),
    "Savoy": ("sell Pontremoli to Milan for 4", "raise A tor", "raise F niz"),
    "Holy Roman Empire": ("transfer 3 to Milan", "raise A ste", "raise F tri"),
    "Turkey": ("raise F dur", "raise F mal", "raise A alb"),
}
AOP_CAMPAIGN = {
    "Milan": ("counter-bribe 3 A pav", "A mil - com", "A pav - pia"),
    "Savoy": ("bribe 12 independent A pav", "A tor H", "F niz - lig"),
    "Holy Roman Empire": ("A ste H", "F tri - uas"),
    "Turkey": ("F dur - ion", "F mal - bot", "A alb H"),
}


def machiavelli(setup: Setup, name: str) -> None:
    """Absence of Plague on its board of 1459 (the demo's letters): four countries played, nine
    dummies; the spring played, every campaign letter in (the last one while paused)."""
    setup.create(name, "machiavelli aop", list(AOP_SPRING))
    for country, lines in AOP_SPRING.items():
        setup.signed(name, country, *lines)
    if setup.game(name).phase != "SP1459C":
        raise SystemExit(f"the template {name} is in {setup.game(name).phase}, not SP1459C")
    *first, last = AOP_CAMPAIGN.items()
    for country, lines in first:
        setup.signed(name, country, *lines)
    setup.paused(name, True)
    setup.signed(name, last[0], *last[1])
    setup.paused(name, False)


AOP_CORRECTIONS = {
    "Holy Roman Empire": (("A ste H",), ("F tri - uas", "F tri H")),
    "Turkey": (("F dur - ion", "F dur H"), ("F mal - bot", "F mal H"), ("A alb H",)),
}
"""The orders a copy's countries without bribes choose among for their one correction (`machiavelli_corrections`)."""


def machiavelli_corrections(setup: Setup, name: str) -> None:
    """A copy's own campaign (`vary`): the Holy Roman Empire and Turkey each send their one correction (17.1),
    each fleet holding or moving as drawn, seeded by the game's name; sent while the game is paused, as its last
    letter was (`machiavelli`)."""
    rng = random.Random(name)
    setup.paused(name, True)
    for country, choices in AOP_CORRECTIONS.items():
        setup.accepted(name, country, *(rng.choice(orders) for orders in choices))
    setup.paused(name, False)


PIRATES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay")


def pirates(setup: Setup, name: str) -> None:
    """Pirates' Proposal for six: every player's plan for the first round, as the demo's players
    write it from their start mail."""
    setup.create(name, f"pirates PLAYERS={len(PIRATES)} GARNETS=1", list(PIRATES))
    for player in PIRATES:
        start = setup.last_to(address(player, name))
        room = [m for m in re.search(r"^Room: (.*)$", start, re.M).group(1).split(", ") if m != player]  # type: ignore[union-attr]
        package = int(re.search(r"^Package: (\d+)", start, re.M).group(1))  # type: ignore[union-attr]
        each = (package // 2) // len(room) if room else 0
        shares = " ".join(f"{member} {each}" for member in room)
        setup.signed(name, player, f"PLAN ME {package - each * len(room)} {shares}".rstrip())


@dataclass(frozen=True)
class Flavour:
    name: str
    play: Callable[[Setup, str], None]
    phase: str | None  # the phase the evening processes (None: the board's first)
    vary: Callable[[Setup, str], None] | None = None  # a copy's own letters in place of the template's (`vary`)


FLAVOURS = {
    "standard": Flavour("Payola, standard board", payola("standard"), "S1901M", payola_sheets("standard")),
    "tincup": Flavour("Payola Tin Cup", payola("standard", "TINCUP"), "S1901M", payola_sheets("standard")),
    "world": Flavour("Payola, World (17 powers)", payola("world"), None, payola_sheets("world")),
    "ancmed": Flavour("Payola, Ancient Mediterranean", payola("ancmed"), None, payola_sheets("ancmed")),
    "exchange": Flavour("Exchange Payola", exchange, "S1901M", exchange_sheets),
    "aop": Flavour("Machiavelli, Absence of Plague", machiavelli, "SP1459C", machiavelli_corrections),
    "pirates": Flavour("Pirates' Proposal", pirates, "D1"),
}
# Per 20 games: 14 Payola on the standard board, one each of the others.
MIX = ("standard",) * 14 + ("tincup", "world", "ancmed", "exchange", "aop", "pirates")


def mix(count: int, pattern: Sequence[str] = MIX) -> list[str]:
    """The flavour of each of ``count`` games, spread evenly."""
    return [pattern[i % len(pattern)] for i in range(count)]


def build_templates(db: Database, settings: Settings, now: datetime, flavours: Sequence[str]) -> dict[str, str]:
    """Play one game of each flavour by mail; the template game's name of each."""
    setup = Setup(db, settings, now)
    names = {}
    for flavour in dict.fromkeys(flavours):
        name = f"template-{flavour}"
        FLAVOURS[flavour].play(setup, name)
        if setup.game(name).phase != (FLAVOURS[flavour].phase or setup.game(name).phase) or \
                setup.game(name).state != "active":
            raise SystemExit(f"the template {name} is {setup.game(name).state} in {setup.game(name).phase}")
        names[flavour] = name
    measure(setup, templates=names)
    return names


def measure(setup: Setup, templates: dict[str, str]) -> None:
    """Give each template what its run costs (`Game.run_cost`), which its copies then carry, as
    a community's games carry what their previous deadline cost (the clock runs the cheapest for
    each player of a minute first: `judge.service.running.app.claim_next`).  Two copies of each template
    are run at their deadline here, maps and pages on, one after the other, each with letters of its
    own (`vary`); the second's cost is kept, its board's fixed layers drawn already, as a deadline
    worker's are after its first games.  The copies stay, in their next phase, due days later."""
    db, settings = setup.db, setup.settings
    due = datetime.now(UTC).replace(tzinfo=None)
    for flavour, template in templates.items():
        copies = [f"measure-{flavour}-1", f"measure-{flavour}-2"]
        clone(db, template, copies, due - timedelta(seconds=1))
        vary(setup, {flavour: copies})
    drain(db, replace(settings, maps=True, web=True), due)
    with db.transaction() as session:
        for flavour, template in templates.items():
            cost = session.scalar(select(Game.run_cost).where(Game.name == f"measure-{flavour}-2"))
            if cost is None:
                raise SystemExit(f"the copy of {template} measured no cost: did its run process its phase?")
            session.execute(update(Game).where(Game.name == template).values(run_cost=cost))


# -- copies ------------------------------------------------------------------------------------------


def _table(name: str) -> Table:
    return Base.metadata.tables[name]


def _references(table: Table) -> dict[str, str]:
    """The columns of ``table`` that refer to a game, a seat or a phase: column -> referred table."""
    return {fk.parent.name: fk.column.table.name for fk in table.foreign_keys
            if fk.column.table.name in ("games", "players", "phases") and fk.column.name == "id"}


# What a game's copy leaves out: the mail of the template's setup, its sign-ons and confirmations.
NOT_COPIED = {"games", "outbox", "outbox_files", "inbound_mail", "signons", "signon_failures", "confirmations"}


def clone(db: Database, template: str, names: Sequence[str], deadline: datetime) -> None:
    """Copy the game ``template`` as each of ``names``, due at ``deadline``, its players at
    addresses of their own (`address`): the game's row and every row of any table that refers to
    it, to one of its seats or to one of its phases, new ids given in bulk."""
    tables = [t for t in Base.metadata.sorted_tables if t.name not in NOT_COPIED and _references(t)]
    games, players, phases = _table("games"), _table("players"), _table("phases")
    with db.transaction() as session:
        connection = session.connection()
        source = connection.execute(select(games).where(games.c.name == template)).mappings().one()
        rows: dict[str, list[dict[str, object]]] = {}
        owned = {"games": [dict(source)]}
        for table in (players, phases):
            owned[table.name] = [dict(r) for r in connection.execute(
                select(table).where(table.c.game_id == source["id"])).mappings()]
        ids = {"games": {source["id"]}, "players": {r["id"] for r in owned["players"]},
               "phases": {r["id"] for r in owned["phases"]}}
        for table in tables:
            if table.name in owned:
                continue
            condition = or_(*(table.c[column].in_(ids[referred]) for column, referred in _references(table).items()))
            owned[table.name] = [dict(r) for r in connection.execute(select(table).where(condition)).mappings()]
        next_id = {name: (connection.scalar(select(func.max(_table(name).c.id))) or 0) + 1
                   for name in ("games", "players", "phases")}
        for copy in names:
            renumbered: dict[str, dict[object, int]] = {}
            for name in ("games", "players", "phases"):
                renumbered[name] = {}
                for row in owned[name]:
                    renumbered[name][row["id"]] = next_id[name]
                    next_id[name] += 1
            for table in [games, players, phases, *(t for t in tables if t.name not in ("players", "phases"))]:
                for row in owned.get(table.name, ()):
                    new = dict(row)
                    if table.name in renumbered:
                        new["id"] = renumbered[table.name][row["id"]]
                    for column, referred in _references(table).items():
                        if new.get(column) is not None:
                            new[column] = renumbered[referred][row[column]]
                    if table.name == "games":
                        new.update(name=copy, deadline=deadline, next_due=deadline, claimed_until=None,
                                   seed=random.Random(copy).randrange(2**31))
                    elif table.name == "players" and new.get("address") and new.get("seat"):
                        new["address"] = address(str(new["seat"]), copy)
                    elif "id" in table.c and table.name not in renumbered and table.c.id.autoincrement:
                        new.pop("id", None)
                    rows.setdefault(table.name, []).append(new)
        for table in [games, players, phases, *(t for t in tables if t.name not in ("players", "phases"))]:
            batch = rows.get(table.name, [])
            for start in range(0, len(batch), 500):
                connection.execute(insert(table), batch[start:start + 500])
        confirmed = [{"address": r["address"], "confirmed_at": deadline - timedelta(days=30)}
                     for r in rows.get("players", []) if r.get("address")]
        for start in range(0, len(confirmed), 500):
            connection.execute(insert(_table("confirmed_addresses")), confirmed[start:start + 500])
        if connection.dialect.name == "postgresql":  # the ids given by hand: the sequences go past them
            for name in ("games", "players", "phases"):
                connection.execute(text(f"SELECT setval(pg_get_serial_sequence('{name}', 'id'), "
                                        f"(SELECT max(id) FROM {name}))"))


LETTERS_A_COPY = 20
"""A copy's own letters at most (`vary`: World's 17 sheets; a Machiavelli copy's pause, two corrections, resumption)."""
VARY_AFTER = timedelta(minutes=15)
"""How long after the setup's first mail the copies' own letters start (`vary`): after every template's and its
measured copies' (`build_templates`, a second a mail, some 400 of them)."""


def setup_began(games: int) -> datetime:
    """When the setup of ``games`` games sends its first mail (the templates', `build_templates`): far enough back for
    the copies' own letters (`vary`, a second each) to be sent before now."""
    return (datetime.now(UTC).replace(tzinfo=None) - timedelta(minutes=30) - VARY_AFTER
            - timedelta(seconds=LETTERS_A_COPY * games))


def vary(setup: Setup, names: Mapping[str, Sequence[str]]) -> None:
    """Each copy of ``names`` (the copies of each flavour) given its own letters in place of its template's, by mail
    (`Flavour.vary`: Payola's and Exchange's sheets drawn anew, two Machiavelli countries' corrections), sent by
    ``setup`` after its template's letters.  A community's games each stand where their own players took them:
    copies alike to the last order would draw the same maps, and a judge draws a map's board, land and marks once
    for the pictures that share them (`judge.render.png.BODIES`: a picture's languages), so that identical copies
    one after the other, as an evening runs them, drew each map's board once for all of them.  Pirates' Proposal
    draws no map: its copies stay alike."""
    for flavour, copies in names.items():
        if (letters := FLAVOURS[flavour].vary) is not None:
            for copy in copies:
                letters(setup, copy)


def setup_mail_sent(db: Database) -> None:
    """The setup's own mail marked sent: the judges write only what the evening makes."""
    with db.transaction() as session:
        session.execute(update(Outbox).where(Outbox.status == "pending").values(status="sent"))


def played_seats(db: Database, names: Sequence[str]) -> dict[str, int]:
    """How many results mails to players each game's processing writes: its seats played."""
    with db.transaction() as session:
        rows = session.execute(select(Game.name, func.count(Player.id)).join(Player, Player.game_id == Game.id)
                               .where(Game.name.in_(names), Player.address.is_not(None), Player.dummy.is_(False),
                                      Player.seat.is_not(None))
                               .group_by(Game.name))
        return {name: int(count) for name, count in rows}


THIRDS = ("en", "it", "fr")
"""The languages of ``--languages thirds``: a third of the evening's players reads each (issue 72)."""


def speak(db: Database, names: Sequence[str], now: datetime, seed: int = 72) -> dict[str, int]:
    """Give a third of the players of each of the games ``names`` each language of `THIRDS` (SET LANGUAGE, as each
    would have sent it), drawn with ``seed``: how many players read each.

    A third of each game's players, not of the evening's: drawn over the evening, a game could lack a language,
    and an evening of 40 games read a flavour in a language its half of 20 did not.  The benches count a game as
    the 40's cost less the 20's, over 20: what a process does once for each language of a flavour (the legend's
    note of its board, 46 M instructions while cairosvg drew it) was counted as a game's then, a twentieth of it
    each."""
    with db.transaction() as session:
        seated = session.execute(
            select(Game.name, Player.address).join(Game, Game.id == Player.game_id)
            .where(Game.name.in_(names), Player.address.is_not(None), Player.dummy.is_(False),
                   Player.seat.is_not(None)))
        games: dict[str, set[str]] = {}
        for name, address in seated:
            games.setdefault(name, set()).add(str(address))
        draw = random.Random(seed)
        chosen: dict[str, str] = {}
        for name in sorted(games):
            players = sorted(games[name] - chosen.keys())  # (an address in two games reads one language)
            draw.shuffle(players)
            first = draw.randrange(len(THIRDS))  # which language a game's odd players read, game by game
            for index, player in enumerate(players):
                chosen[player] = THIRDS[(first + index) % len(THIRDS)]
        counts = dict.fromkeys(THIRDS, 0)
        for player, language in sorted(chosen.items()):
            counts[language] += 1
            if language != "en":
                choose_language(session, player, language, now)
    return counts
