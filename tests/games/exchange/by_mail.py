"""Exchange games played by mail through the game service (`tests.support.harness.Judge`): a game
created, joined and started as its game master and investors would, sheets sent, and what the
judge keeps read back."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import select

from judge.games.exchange import stored
from judge.games.exchange.core.notation import state_from_data
from judge.games.exchange.core.state import ExchangeState, initial_order
from judge.store.models import Game, PhaseRow
from tests.support.harness import Judge, Sent

GM = "gm@example.org"
WORKED = ("ANN", "BOB", "CAT")


def address(name: str) -> str:
    return f"{name.lower()}@example.org"


def exchange_game(judge: Judge, game: str, names: Sequence[str] = WORKED, options: str = "INVESTORS=3 FUNDS=60",
                  order: Sequence[str] | None = None) -> Judge:
    """Game ``game`` created by GM with ``options`` on the standard board, joined by ``names`` under
    their names and started; with ``order``, its seed is one that draws that investor order (E30:
    the worked year of section 3 fixes ANN, BOB, CAT)."""
    judge.confirmed(GM, *(address(name) for name in names))
    judge.send(GM, f"CREATE {game} gm-pw exchange {options}")
    if order is not None:
        seed = next(s for s in range(10_000) if initial_order(sorted(names), s) == tuple(order))
        with judge.db.transaction() as session:
            session.scalars(select(Game).where(Game.name == game)).one().seed = seed
    for name in names:
        judge.send(address(name), f"JOIN {game} pw-{name.lower()} {name}")
    judge.send(GM, f"SIGNON MASTER@{game} gm-pw\nSTART")
    return judge


def send_as(judge: Judge, game: str, name: str, *lines: str) -> Sent:
    """``name``'s mail of ``lines``, signed on; the judge's answer to it."""
    judge.send(address(name), f"SIGNON {name}@{game} pw-{name.lower()}\n" + "\n".join(lines))
    return [m for m in judge.all_mail() if m.to == address(name) and m.subject.startswith("Re:")][-1]


def master(judge: Judge, game: str, *lines: str) -> Sent:
    judge.send(GM, f"SIGNON MASTER@{game} gm-pw\n" + "\n".join(lines))
    return [m for m in judge.all_mail() if m.to == GM and m.subject.startswith("Re:")][-1]


def states(judge: Judge, game: str) -> list[tuple[str, ExchangeState]]:
    """The state after each processed phase (by name, in order), and the open phase's as it stands."""
    with judge.db.transaction() as session:
        found = session.scalars(select(Game).where(Game.name == game)).one()
        rows = session.scalars(select(PhaseRow).where(PhaseRow.game_id == found.id).order_by(PhaseRow.id)).all()
        return [(row.name, state_from_data((row.result or {})["state"] if row.status == "processed" else row.position))
                for row in rows]


def votes(judge: Judge, game: str) -> dict[str, str]:
    """Each investor's vote on the game's end standing (E34), as the judge keeps it."""
    with judge.db.transaction() as session:
        found = session.scalars(select(Game).where(Game.name == game)).one()
        kept = {name: stored.vote_of(found, name)[0] for name in stored.investors(session, found)}
        return {name: vote for name, vote in kept.items() if vote}


def game_row(judge: Judge, game: str) -> tuple[str, str | None]:
    """The game's state and phase."""
    with judge.db.transaction() as session:
        found = session.scalars(select(Game).where(Game.name == game)).one()
        return found.state, found.phase


def mails_to(judge: Judge, name: str, subject: str) -> Sent:
    """The one mail to ``name`` whose subject is ``subject``."""
    found = [m for m in judge.all_mail() if m.to == address(name) and m.subject == subject]
    assert len(found) == 1, (subject, [m.subject for m in judge.all_mail() if m.to == address(name)])
    return found[0]


def section(mail: Sent, heading: str) -> list[str]:
    """The lines of a results mail's section whose heading starts with ``heading`` (empty if none)."""
    lines = mail.body.splitlines()
    start = next((i for i, line in enumerate(lines) if line.startswith(heading)), None)
    if start is None:
        return []
    end = next((i for i in range(start + 1, len(lines)) if not lines[i].strip()), len(lines))
    return [line.strip() for line in lines[start + 1:end]]
