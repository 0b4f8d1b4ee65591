"""A results mail's text alone lets a player who cannot see the map play (issue 69.5): from the text part
of the results mail each seat receives, decoded as a phone decodes it (`tests.support.flowed`), a reader
written from the mail's layout (`tests.support.seat_view`) rebuilds that seat's view of the game, and it
is the engine's position whole: every unit with its owner and place (its coast too), every supply
center's owner, the seat's own money, and what else its kind's rules let the seat know (Machiavelli's
sieges and treasury, Exchange's cash and shares, Pirates' room, package, plans and gold).  For every
kind, on every board it plays.  And a seat's mail holds nothing another seat's rules keep from it."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import select

from judge.api import current_phase
from judge.engine.legal import legal_orders
from judge.engine.map import available_maps, load_map
from judge.engine.orders import Move, PhaseKind
from judge.engine.position import Position
from judge.games.payola import lifecycle as payola_lifecycle
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


# On the standard board a Russian army is dislodged in the fall, so that the results show a retreat to come.
STANDARD_SCRIPT = ({"WAR": "A WAR - GAL", "VIE": "A VIE H", "BUD": "A BUD H"},
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
