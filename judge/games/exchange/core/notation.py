"""An Exchange game's state as JSON data and back: what the host keeps in a phase row.

The board is the engine's position data (:func:`judge.engine.notation.position_to_data`, which
names the board); the options are their words (:attr:`ExchangeOptions.names`, read back on that
board); acceptance lists are written as players write them (``FG?``); a ledger line keeps only
its fields that are set; a state written before ZEROSUM was played has no ``owed``,
``year_owners`` or ``ever_owned``, read as empty (no game could be ZEROSUM then).
:func:`state_from_data` of :func:`state_to_data` is the same state.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from judge.engine.notation import position_from_data, position_to_data
from judge.games.exchange.core.options import exchange_options
from judge.games.exchange.core.state import ExchangeState, LedgerKind, LedgerLine, Register, Stage
from judge.payola.acceptance import parse_acceptance

_LINE_FIELDS = ("amount", "who", "center", "shares", "price", "order")


def state_to_data(state: ExchangeState) -> dict[str, Any]:
    """The state as JSON-ready data."""
    return {
        "options": state.options.names,
        "position": position_to_data(state.position),
        "stage": state.stage.value,
        "order": list(state.order),
        "purses": dict(state.purses),
        "treasuries": dict(state.treasuries),
        "issued": dict(state.register.issued),
        "holdings": {c: dict(held) for c, held in state.register.holdings.items()},
        "ceos": dict(state.ceos),
        "acceptance": {c: str(listed) for c, listed in state.acceptance.items()},
        "worths": {c: dict(w) for c, w in state.worths.items()},
        "ledgers": {c: [_line_to_data(line) for line in lines] for c, lines in state.ledgers.items()},
        "eliminated": sorted(state.eliminated),
        "liquidated": sorted(state.liquidated),
        "resigned": sorted(state.resigned),
        "minted": state.minted,
        "destroyed": state.destroyed,
        "owed": dict(state.owed),
        "year_owners": dict(state.year_owners),
        "ever_owned": sorted(state.ever_owned),
        "result": list(state.result),
    }


def state_from_data(data: Mapping[str, Any]) -> ExchangeState:
    """The state :func:`state_to_data` wrote."""
    position, _ = position_from_data(data["position"])
    game_map = position.game_map
    letters = game_map.letters
    return ExchangeState(
        options=exchange_options(data["options"], game_map),
        position=position,
        stage=Stage(data["stage"]),
        order=tuple(data["order"]),
        purses=data["purses"],
        treasuries=data["treasuries"],
        register=Register(data["issued"], data["holdings"]),
        ceos=data["ceos"],
        acceptance={c: parse_acceptance(text, letters) for c, text in data["acceptance"].items()},
        worths=data["worths"],
        ledgers={c: tuple(_line_from_data(line) for line in lines) for c, lines in data["ledgers"].items()},
        eliminated=frozenset(data["eliminated"]),
        liquidated=frozenset(data["liquidated"]),
        resigned=frozenset(data["resigned"]),
        minted=data["minted"],
        destroyed=data["destroyed"],
        owed=data.get("owed", {}),
        year_owners=data.get("year_owners", {}),
        ever_owned=frozenset(data.get("ever_owned", ())),
        result=tuple(data["result"]),
    )


def _line_to_data(line: LedgerLine) -> dict[str, Any]:
    data: dict[str, Any] = {"phase": line.phase, "kind": line.kind.value}
    data.update({name: getattr(line, name) for name in _LINE_FIELDS if getattr(line, name)})
    return data


def _line_from_data(data: Mapping[str, Any]) -> LedgerLine:
    return LedgerLine(data["phase"], LedgerKind(data["kind"]), **{n: data[n] for n in _LINE_FIELDS if n in data})
