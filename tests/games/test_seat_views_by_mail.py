"""A results mail's text alone lets a player who cannot see the map play: from the text part
of the results mail each seat receives, decoded as a phone decodes it (`tests.support.flowed`), a reader
written from the mail's layout (`tests.support.seat_view`) rebuilds that seat's view of the game, and it
is the engine's position whole: every unit with its owner and place (its coast too), every supply
center's owner, the seat's own money, and what else its kind's rules let the seat know (Machiavelli's
sieges and treasury, Exchange's cash and shares, Pirates' room, package, plans and gold).  For every
kind, on every board it plays; in Tin Cup (Payola's rule 6.3), the part of it the power sees.  And a
seat's mail holds nothing another seat's rules keep from it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from sqlalchemy import select

from judge.api import current_phase, processed_phases
from judge.engine.legal import legal_orders
from judge.engine.map import available_maps, load_map
from judge.engine.orders import Move, PhaseKind
from judge.engine.position import Position
from judge.games.exchange import stored as exchange_stored
from judge.games.exchange.core.state import ExchangeState
from judge.games.machiavelli import lifecycle as machiavelli_lifecycle
from judge.games.machiavelli.core.board import Board, board_names
from judge.games.machiavelli.core.position import Independent
from judge.games.machiavelli.core.position import Position as MachiavelliPosition
from judge.games.payola import lifecycle as payola_lifecycle
from judge.games.pirates import lifecycle as pirates_lifecycle
from judge.games.pirates.core.match import Match, garnets_held, settle
from judge.games.pirates.core.match import gold as pirates_gold
from judge.store.models import Game
from judge.wording import power_title
from tests.support import seat_view
from tests.support.harness import Judge, Sent, start_game

GAME = "g1"
GM = "gm@example.org"


def _address(power: str) -> str:
    return f"{power.lower().replace('_', '-')}@example.org"


def _game(judge: Judge) -> tuple[Position, dict[str, int]]:
    """Payola's g1 as the engine has it now: the position, each power's balance."""
    with judge.db.transaction() as session:
        game = session.scalars(select(Game).where(Game.name == GAME)).one()
        row = current_phase(session, game)
        assert row is not None
        return payola_lifecycle.position_of(row), payola_lifecycle.balances(session, game)


def _unit(power: str, unit: object) -> seat_view.Unit:
    """A unit of the engine's as the mail writes it: ``("Russia", "F", "STP/SC")``."""
    kind, place = str(unit).split()
    return power_title(power), kind, place


def _payola_engine_view(position: Position, balance: int) -> seat_view.BoardView:
    """What the engine says one seat of a Payola game (not Tin Cup) may read: the whole board, its balance."""
    return seat_view.BoardView(
        frozenset(_unit(*placed) for placed in position.units.values()),
        {center: power_title(owner) if (owner := position.centers.get(center)) else None
         for center in position.game_map.supply_centers},
        balance,
        frozenset(_unit(d.power, d.unit) for d in position.dislodged.values()))


# On the standard board Russia's fleet on St Petersburg's south coast stays there in the spring (a coast to read),
# and a Russian army is dislodged in the fall, so that the results show a retreat to come.
STANDARD_SCRIPT = ({"WAR": "A WAR - GAL", "VIE": "A VIE H", "BUD": "A BUD H", "STP": "F STP/SC H"},
                   {"BUD": "A BUD - GAL", "VIE": "A VIE S A BUD - GAL", "GAL": "A GAL H"})


def _sheet(position: Position, power: str, chosen: dict[str, str]) -> str:
    """An offer of 1 AgP for each of ``power``'s units: its order in ``chosen``, else its first legal move
    (its hold where it has none)."""
    lines = []
    for province, placed in sorted(position.units.items()):
        if placed.power != power:
            continue
        legal = legal_orders(position, province)
        order = chosen.get(province) or next((str(o) for o in legal if isinstance(o, Move)), f"{placed.unit} H")
        lines.append(f"1 : {order}")
    return "\n".join(lines)


def _payola_phase(judge: Judge, powers: list[str], chosen: dict[str, str]) -> dict[str, Sent]:
    """A movement phase: every seat's sheet for it, the last one closing it; another phase: processed by the
    game master (each unit its default).  Each seat's results mail, by power."""
    position, _ = _game(judge)
    phase = str(position.phase)
    judge.new_mail()
    if position.phase.kind is not PhaseKind.MOVEMENT:
        judge.send(GM, f"SIGNON MASTER@{GAME} gm-secret\nPROCESS")
    for power in powers if position.phase.kind is PhaseKind.MOVEMENT else ():
        if position.units_of(power):
            judge.send(_address(power), f"SIGNON {power}@{GAME} {_address(power).partition('@')[0]}-pw\n"
                       + _sheet(position, power, chosen))
    mails = {m.to: m for m in judge.new_mail() if m.subject == f"{GAME} {phase} results"}
    assert set(mails) == {_address(power) for power in powers}, phase
    return {power: mails[_address(power)] for power in powers}


@pytest.mark.parametrize("board", available_maps())
def test_every_payola_seat_rebuilds_the_board_and_its_balance_from_its_results_text(tmp_path: Path,
                                                                                    board: str) -> None:
    """The first two phases with every power played, each unit moving where it first can in a movement phase (on
    the standard board, a Russian army dislodged; Void's winter processed by its master): after each phase each
    seat's text gives the board whole."""
    game_map = load_map(board)
    powers = [power for power, info in game_map.powers.items() if not info.dummy]
    judge = start_game(Judge(tmp_path), GAME, board, tuple((_address(power), power) for power in powers))
    script = STANDARD_SCRIPT if board == "standard" else ({}, {})
    for chosen in script:
        mails = _payola_phase(judge, powers, chosen)
        position, balances = _game(judge)
        for power, mail in mails.items():
            assert seat_view.payola(mail.body) == _payola_engine_view(position, balances[power]), (board, power)
    if board == "standard":
        assert position.dislodged and str(position.phase) == "F1901R"


def test_a_payola_seats_results_text_holds_no_other_seats_offers_nor_money(tmp_path: Path) -> None:
    """Rule 5.7: each power's statement (the offers it paid, what its units issued for how much) and its
    account are its own; no line of them is in another power's mail, nor its heading."""
    powers = [power for power, info in load_map("standard").powers.items() if not info.dummy]
    judge = start_game(Judge(tmp_path), GAME, "standard", tuple((_address(power), power) for power in powers))
    mails = _payola_phase(judge, powers, STANDARD_SCRIPT[0])
    private = {power: {line for line in mail.body.splitlines()
                       if line.startswith(("  you paid ", "  your A ", "  your F "))} for power, mail in mails.items()}
    assert private["RUSSIA"] >= {"  you paid 1 AgP for A WAR - GAL",
                                 "  your A WAR issued A WAR - GAL for a total bribe of 1 AgP"}
    for power, mail in mails.items():
        for other in powers:
            if other != power:
                assert f"as {power_title(other)} " not in mail.body, (power, other)
                assert not private[other] & set(mail.body.splitlines()), (power, other)


def _tin_cup_sight(before: Position, after: Position, power: str) -> frozenset[str]:
    """Rule 6.3 as the Blind variant reads it, written here from the rule: a power looks from its home centers
    and from where its units (dislodged ones too) stood when the phase began or stand when it ended, and sees
    those provinces and every one next to them, by land or sea."""
    game_map = before.game_map
    eyes = set(game_map.powers[power].home_centers)
    for position in (before, after):
        eyes |= {p for p, placed in position.units.items() if placed.power == power}
        eyes |= {p for p, d in position.dislodged.items() if d.power == power}
    return frozenset(eyes.union(*(game_map.board.neighbours[p] for p in eyes)))


def _tin_cup_engine_view(before: Position, after: Position, power: str, balance: int) -> seat_view.BoardView:
    """What the engine's positions say a Tin Cup power may read once the phase from ``before`` to ``after`` has
    closed: its own units and centers wherever they are; of the others, the units, dislodged units and center
    owners in its sight; the provinces it sees, and so the centers whose owner it cannot know; its balance."""
    sight = _tin_cup_sight(before, after, power)
    known = {c for c in after.game_map.supply_centers if c in sight or after.centers.get(c) == power}
    return seat_view.BoardView(
        frozenset(_unit(*placed) for province, placed in after.units.items()
                  if placed.power == power or province in sight),
        {center: power_title(owner) if (owner := after.centers.get(center)) else None for center in known},
        balance,
        frozenset(_unit(d.power, d.unit) for province, d in after.dislodged.items()
                  if d.power == power or province in sight),
        {"in sight": sight, "out of sight": frozenset(after.game_map.supply_centers) - known})


TIN_CUP_UNIT = re.compile(r"\b(?:A|F|Army|Fleet) ([A-Z]{3})\b")


@pytest.mark.parametrize("board", available_maps())
def test_every_tin_cup_seat_rebuilds_what_it_may_see_from_its_results_text_and_nothing_more(
        tmp_path: Path, board: str) -> None:
    """Rule 6.3 (Tin Cup), every power played, each unit moving where it first can: the first two phases (on the
    standard board the script above, then the retreat of Russia's A GAL and the winter, processed by the master).
    After each phase each seat's text gives what its sight lets it know, as the fog of its map does: its own
    units and centers, the others' units, dislodged units and center owners in sight, which provinces it sees
    and which centers lie out of sight, its balance.  No unit its text names stands out of its sight, and no
    other power's statement or account is in it.

    By hand, on the standard board after Fall 1901: Russia (A MOS, F BOT, F SEV; A GAL dislodged; A LVN and
    F STP/SC before) looks from MOS WAR SEV STP LVN GAL BOT and sees those and ARM BAL BAR BLA BOH BUD FIN NWY
    PRU RUM SIL SWE UKR VIE: 21 provinces, 9 of them centers (its own MOS SEV STP WAR, Austria's BUD VIE, and
    NWY RUM SWE unowned); the other 25 of the 34 centers are out of its sight.  Austria (A GAL, A VIE, F ALB;
    A BUD and F ADR before) looks from VIE BUD TRI GAL ADR ALB and sees Russia's A GAL dislodged, in 17 provinces."""
    game_map = load_map(board)
    powers = [power for power, info in game_map.powers.items() if not info.dummy]
    judge = start_game(Judge(tmp_path), GAME, f"{board} TINCUP",
                       tuple((_address(power), power) for power in powers))
    script = (*STANDARD_SCRIPT, {}, {}) if board == "standard" else ({}, {})
    seen: dict[tuple[str, str], seat_view.BoardView] = {}
    for chosen in script:
        before, _ = _game(judge)
        mails = _payola_phase(judge, powers, chosen)
        after, balances = _game(judge)
        for power, mail in mails.items():
            view = seat_view.payola(mail.body)
            assert view == _tin_cup_engine_view(before, after, power, balances[power]), (board, power)
            sight = _tin_cup_sight(before, after, power)
            assert set(TIN_CUP_UNIT.findall(mail.body)) <= sight, (board, power)
            assert not any(f"as {power_title(other)} " in mail.body for other in powers if other != power)
            seen[str(before.phase), power] = view
    if board == "standard":
        assert [str(phase) for phase, power in seen if power == "RUSSIA"] == ["S1901M", "F1901M", "F1901R", "W1901A"]
        russia, austria = seen["F1901M", "RUSSIA"], seen["F1901M", "AUSTRIA"]
        assert len(russia.other["in sight"]) == 21 and len(russia.other["out of sight"]) == 25
        assert len(russia.centers) == 9  # its own four, Austria's two, three unowned
        assert {c for c, owner in russia.centers.items() if owner is None} == {"NWY", "RUM", "SWE"}
        assert ("Russia", "A", "GAL") in russia.dislodged and austria.dislodged == russia.dislodged
        assert len(austria.other["in sight"]) == 17


def _machiavelli_owner(owner: object) -> str:
    """A Machiavelli owner as the mail writes it: a country's name, ``independent <native area>``."""
    return f"independent {owner.native}" if isinstance(owner, Independent) else str(owner)


def _machiavelli_game(judge: Judge) -> tuple[Board, MachiavelliPosition]:
    with judge.db.transaction() as session:
        game = session.scalars(select(Game).where(Game.name == GAME)).one()
        position = machiavelli_lifecycle.position_now(session, game)
        assert position is not None
        return machiavelli_lifecycle.board_of(game), position


def _machiavelli_engine_view(board: Board, position: MachiavelliPosition, country: str) -> seat_view.BoardView:
    """What the engine says a country may read of a Machiavelli game: every unit, every city's holder, the
    provinces each country controls, the sieges, its own treasury."""
    cities = [area for area in board.areas if board.areas[area].city is not None]
    return seat_view.BoardView(
        frozenset((_machiavelli_owner(u.owner), u.kind.value, f"{u.area}/{u.coast}" if u.coast else u.area)
                  for u in position.units.values()),
        {area: None if (by := position.city_controller(area)) is None else _machiavelli_owner(by) for area in cities},
        position.treasuries.get(country),
        other={"provinces": {area: by for area in board.areas if board.areas[area].is_land
                             and isinstance(by := position.controller(area), str)},
               "sieges": {area: (_machiavelli_owner(s.besieger), s.seasons) for area, s in position.sieges.items()}})


# On the classic board Florence gives Milan 3 ducats in the spring letter, then its army marches into Siena and
# lays siege to its independent garrison.
MACHIAVELLI_SCRIPT = {"classic": ({"Flo": "transfer 3 to Milan"}, {"Flo": "A are - sie"}, {"Flo": "A sie B"})}
MACHIAVELLI_PLAYERS = {"Flo": "Florence", "Mil": "Milan"}


@pytest.mark.parametrize("board", board_names())
def test_every_machiavelli_country_rebuilds_the_board_and_its_treasury_from_its_results_text(
        tmp_path: Path, board: str) -> None:
    """Two phases of a game on each board (on the classic board three, with a transfer and a siege laid):
    after each phase each country's text gives every unit, every city's holder, each country's provinces,
    the sieges and its treasury."""
    judge = Judge(tmp_path)
    people = {name: f"{name.lower()}@example.org" for name in MACHIAVELLI_PLAYERS}
    judge.confirmed(GM, *people.values())
    judge.send(GM, f"CREATE {GAME} gm-secret machiavelli {board}")
    for name, country in MACHIAVELLI_PLAYERS.items():
        judge.send(people[name], f"JOIN {GAME} pw-{name.lower()} {country}")
    judge.send(GM, f"SIGNON MASTER@{GAME} gm-secret\nSTART")
    sieges = 0
    for letters in MACHIAVELLI_SCRIPT.get(board, ({}, {})):
        with judge.db.transaction() as session:
            phase = session.scalars(select(Game.phase).where(Game.name == GAME)).one()
        for name, letter in letters.items():
            judge.send(people[name], f"SIGNON {MACHIAVELLI_PLAYERS[name]}@{GAME} pw-{name.lower()}\n{letter}")
        judge.new_mail()
        judge.send(GM, f"SIGNON MASTER@{GAME} gm-secret\nPROCESS")
        mails = {m.to: m for m in judge.new_mail() if m.subject == f"{GAME} {phase} results"}
        layout, position = _machiavelli_game(judge)
        for name, country in MACHIAVELLI_PLAYERS.items():
            view = seat_view.machiavelli(mails[people[name]].body)
            assert view == _machiavelli_engine_view(layout, position, country), (board, phase, country)
            others = set(MACHIAVELLI_PLAYERS.values()) - {country}
            assert not any(f"For {other} alone:" in mails[people[name]].body for other in others)  # 8.1
        sieges = len(position.sieges)
    assert sieges == (1 if board in MACHIAVELLI_SCRIPT else 0)


INVESTORS = ("ANN", "BOB", "CAT")


def _exchange_states(judge: Judge) -> dict[str, ExchangeState]:
    """The state each processed phase of Exchange's g1 left, by the phase's name."""
    with judge.db.transaction() as session:
        game = session.scalars(select(Game).where(Game.name == GAME)).one()
        return {row.name: exchange_stored.state_of(row) for row in processed_phases(session, game)}


def _exchange_engine_view(state: ExchangeState, investor: str) -> seat_view.BoardView:
    """What the engine says an investor may read after a phase: the whole board, its cash and its shares."""
    position = state.position
    return seat_view.BoardView(
        frozenset(_unit(*placed) for placed in position.units.values()),
        {center: power_title(owner) if (owner := position.centers.get(center)) else None
         for center in position.game_map.supply_centers},
        state.purses[investor],
        other={"shares": {power_title(c): n for c, n in state.register.portfolio(investor).items()}})


@pytest.mark.parametrize("board", available_maps())
def test_every_exchange_investor_rebuilds_the_board_its_cash_and_shares_from_its_results_text(
        tmp_path: Path, board: str) -> None:
    """The Exchange phase (ANN and BOB buy shares of the board's first two corporations at auction, CAT
    passes) and the first phase on the board, closed by the game master: after each, each investor's text
    gives the board whole, its cash and its shares."""
    judge = Judge(tmp_path)
    people = {name: f"{name.lower()}@example.org" for name in INVESTORS}
    judge.confirmed(GM, *people.values())
    judge.send(GM, f"CREATE {GAME} gm-secret exchange {board} INVESTORS=3 FUNDS=60")
    for name in INVESTORS:
        judge.send(people[name], f"JOIN {GAME} pw-{name.lower()} {name}")
    judge.send(GM, f"SIGNON MASTER@{GAME} gm-secret\nSTART")
    first, second = list(load_map(board).powers)[:2]
    for name, line in zip(INVESTORS, (f"BID 2 {first} AT 3", f"BID 1 {second} AT 3", "PASS"), strict=True):
        judge.send(people[name], f"SIGNON {name}@{GAME} pw-{name.lower()}\n{line}")
    judge.send(GM, f"SIGNON MASTER@{GAME} gm-secret\nPROCESS")  # the Exchange phase closed on CAT's mail
    states = _exchange_states(judge)
    assert len(states) == 2 and list(states)[1].endswith("M"), list(states)
    for phase, state in states.items():
        for name in INVESTORS:
            mail = next(m for m in judge.all_mail() if m.to == people[name] and m.subject == f"{GAME} {phase} results")
            assert seat_view.exchange(mail.body) == _exchange_engine_view(state, name), (board, phase, name)
            assert sum(line.startswith("  your shares: ") for line in mail.body.splitlines()) == 1  # its own (E39)
    assert states[list(states)[1]].register.portfolio("ANN") == {first: 2}


PIRATES = ("Ann", "Bob", "Cy", "Dee")


def _pirates_engine_view(match: Match, player: str, phase: str) -> seat_view.RoomView:
    """What the rules let ``player`` know once ``phase`` (D1, V1...) has closed, from the match itself (P10):
    after a Distribution Phase, its receipts under each plan of its room, its own plan and its gold; after a
    Voting Phase, which plans of its room passed, its gold, and the next round's room, package and garnets."""
    number = int(phase[1:])
    round_ = match.rounds[number - 1]
    room = round_.room_of(player)
    if phase.startswith("D"):
        return seat_view.RoomView(number, {p: round_.plan(p).share(player) for p in room}, {},
                                  {"you" if m == player else m: n for m, n in round_.plan(player).shares},
                                  pirates_gold(match, number - 1)[player])
    settlement = settle(round_)
    after = match.rounds[number]
    return seat_view.RoomView(number, {}, {p: settlement.outcome(p).passed for p in room}, {},
                              pirates_gold(match, number)[player], after.room_of(player), after.package(player),
                              garnets_held(match, player, number + 1))


def test_every_pirate_rebuilds_its_room_plans_and_gold_from_its_results_text(tmp_path: Path) -> None:
    """A round of four players, each planning the whole package for itself, the ballots drawn: after each
    phase each player's text gives what the rules let it know, and no plan of the other room."""
    judge = Judge(tmp_path)
    people = {name: f"{name.lower()}@example.org" for name in PIRATES}
    judge.confirmed(GM, *people.values())
    judge.send(GM, f"CREATE {GAME} gm-secret pirates PLAYERS=4")
    for name in PIRATES:
        judge.send(people[name], f"JOIN {GAME} pw-{name.lower()} {name}")
    judge.send(GM, f"SIGNON MASTER@{GAME} gm-secret\nSTART")
    for name in PIRATES:
        package = re.search(r"^Package: (\d+) gold$", judge.last_to(people[name]).body, re.M)
        assert package is not None
        judge.send(people[name], f"SIGNON {name}@{GAME} pw-{name.lower()}\nPLAN ME {package.group(1)}")
    for phase in ("D1", "V1"):
        judge.send(GM, f"SIGNON MASTER@{GAME} gm-secret\nPROCESS")
        with judge.db.transaction() as session:
            match = pirates_lifecycle.match_now(session, session.scalars(select(Game).where(Game.name == GAME)).one())
        assert match is not None
        for name in PIRATES:
            mail = next(m for m in judge.all_mail() if m.to == people[name] and m.subject == f"{GAME} {phase} results")
            view = seat_view.pirates(mail.body)
            assert view == _pirates_engine_view(match, name, phase), (phase, name)
            others = set(PIRATES) - set(match.rounds[0].room_of(name))
            assert not any(f"Plan of {other}" in mail.body for other in others)  # P10
