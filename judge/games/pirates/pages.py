"""A Pirates' Proposal match's public page, written beside the others by the host's pages
(`judge.web.pages`): ``web/games/<game>/index.html``.

While the match runs the page shows what anyone may know of it (P10): its name, round and
phase, its deadline, and each seat's state (played, vacant, a dummy, open for takeover) — never
who has sent what, nor anything of a room, a plan, a ballot or anyone's gold.  Once it has ended
the page shows everything, as the end mail does (P14): the rooms of each round, every package,
plan and ballot (default plans and drawn ballots marked), every outcome and every player's gold
round by round, and the end.  A digest of what the page shows is kept in ``.digest``: a page that
would not change is not written again.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy.orm import Session

from judge import api
from judge.api import (
    Game,
    GameFacts,
    Player,
    render_page,
    summary,
    write_game_folder,
)
from judge.games.pirates import lifecycle
from judge.games.pirates.core.match import FinalResult, final_result
from judge.games.pirates.core.views import EndView, PublishedRound, publication, published_rounds
from judge.language import gettext as _
from judge.language import ngettext


@dataclass(frozen=True)
class MatchRecord:
    """A match as its page needs it: the facts anyone may know, and once it has ended the rounds
    it played and its end (None if it was stopped before)."""

    facts: GameFacts
    rounds: tuple[PublishedRound, ...] = ()
    end: EndView | None = None


def facts_of(session: Session, game: Game, seated: Sequence[Player] | None = None) -> GameFacts:
    """What any page may say of the match: name, round and phase, deadline, each seat's state."""
    joined = api.players(session, game) if seated is None else seated
    seats = [api.public_seat(game, player.seat, player) for player in lifecycle.seats_of(joined) if player.seat]
    return api.game_facts(game, lifecycle.KIND_TITLE, joined, seats,
                          lifecycle.label(game.phase) if game.phase else None)


def gather(session: Session, game: Game) -> MatchRecord:
    """Everything the match's page is made of: its facts, and once it has ended the publication."""
    facts = facts_of(session, game)
    match = lifecycle.match_now(session, game) if facts.finished else None
    if match is None:
        return MatchRecord(facts)
    if match.phase is not None and match.phase.name == "F":
        published = publication(match)
        return MatchRecord(facts, published.rounds, published.end)
    return MatchRecord(facts, published_rounds(match))


def published_lines(session: Session, game: Game) -> list[str]:
    """The publication of an ended match as lines (HISTORY): every round played, and the end."""
    record = gather(session, game)
    lines = [line for round_ in record.rounds for line in (*round_.lines(), "")]
    return lines + list(record.end.lines() if record.end is not None else ())


def write_game(root: Path, record: MatchRecord, force: bool = False) -> Path:
    """Write the match's page under ``root`` unless it would not change; returns it."""
    facts = record.facts
    head = summary(facts)

    def write(folder: Path, written: set[Path]) -> bool:
        render_page(folder / "index.html", "pirates/game.html.j2", written, game=head, root="../../",
                    rounds=record.rounds, end=record.end, ended=facts.finished)
        return True

    shown = [head, [r.lines() for r in record.rounds], record.end.lines() if record.end else None]
    return write_game_folder(root, facts.name, shown, write, force)


def standings(session: Session, game: Game) -> list[api.Standing]:
    """The hall of fame's places (`standings_of`), once the match has reached its end; none for a
    match stopped before it (TERMINATE), whose gold was never final."""
    match = lifecycle.match_now(session, game)
    return standings_of(final_result(match)) if match is not None and match.over else []


def standings_of(result: FinalResult) -> list[api.Standing]:
    """The players by their gold at the end (the rules' Results), each with the Tokens of Life it
    holds: one for each of the richest (Amendment, P11), and the richest's extra one where it was
    given (``token_to``); its gold is its money (a player owns no centre)."""
    tokens = Counter(result.tokens)
    if result.token_to is not None:
        tokens[result.token_to] += 1

    def score(gold: int, held: int) -> str:
        if held == 1:
            return _("{gold} gold, a Token of Life", gold=gold)
        return ngettext("{gold} gold, {count} Token of Life", "{gold} gold, {count} Tokens of Life", held,
                        gold=gold) if held else _("{gold} gold", gold=gold)

    return api.ranked([(player, gold, score(gold, tokens[player])) for player, gold in result.gold],
                      money={player: _("{gold} gold", gold=gold) for player, gold in result.gold})
