"""A power's offer sheet or orders, stored as a whole when its block of lines ends.

Offer lines in one mail form one sheet: if any line is bad, none is applied and the previous
sheet stays (rule 3: a sheet is read as a whole).  Orders in a retreat or adjustment phase, or
for loyal units, are stored the same way.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from judge.engine.legal import check_order
from judge.engine.orders import OrderSyntaxError, parse_order
from judge.payola.offers import parse_sheet
from judge.service import lifecycle
from judge.store.models import Submission

if TYPE_CHECKING:
    from judge.service.handlers.conversation import Context, Conversation


def store_sheet(talk: Conversation, context: Context) -> None:
    game, power = context.game, context.power
    assert game is not None and power is not None
    position = talk.active_position()
    assert position is not None
    seat = lifecycle.seats(talk.session, game)
    dummies = {p for p in position.game_map.powers if not lifecycle.is_played(seat.get(p))}
    text = "\n".join(t for _, t in context.sheet)
    sheet, errors = parse_sheet(text, position, power, lifecycle.options_of(game), dummies)
    if errors:
        for number, (index, _) in enumerate(context.sheet, 1):
            found = [e for e in errors if e.line == number]
            if found:
                talk.echoes[index].outcome, talk.echoes[index].message = "error", found[0].error
            else:
                talk.echoes[index].outcome = "ignored"
                talk.echoes[index].message = "not applied: the sheet has errors, your previous sheet stays"
        return
    talk.session.add(Submission(game_id=game.id, phase=str(position.phase), power=power, kind="sheet", text=text,
                                parsed={"offers": len(sheet.offers), "savings": sheet.savings},
                                created_at=talk.now))
    last = context.sheet[-1][0]
    talk.echoes[last].message = (f"offer sheet accepted: {len(sheet.offers)} offer(s), savings {sheet.savings} AgP;"
                                 " it replaces any earlier sheet for this phase")


def store_orders(talk: Conversation, context: Context) -> None:
    game, power = context.game, context.power
    assert game is not None and power is not None
    position = talk.active_position()
    assert position is not None
    bad = False
    for index, text in context.orders:
        try:
            order = parse_order(text, position.game_map, position.phase.kind)
        except OrderSyntaxError as exc:
            talk.echoes[index].outcome, talk.echoes[index].message = "error", str(exc)
            bad = True
            continue
        verdict = check_order(position, power, order)
        if verdict.illegal is not None:
            talk.echoes[index].outcome, talk.echoes[index].message = "error", verdict.illegal.message
            bad = True
        else:
            talk.echoes[index].message = str(verdict.order)
    if bad:
        for index, _ in context.orders:
            if talk.echoes[index].outcome == "ok":
                talk.echoes[index].outcome = "ignored"
                talk.echoes[index].message = "not applied: some orders have errors, your previous orders stay"
        return
    text = "\n".join(t for _, t in context.orders)
    talk.session.add(Submission(game_id=game.id, phase=str(position.phase), power=power, kind="orders", text=text,
                                parsed={"orders": [talk.echoes[i].message for i, _ in context.orders]},
                                created_at=talk.now))
