"""A small harness for Pirates' Proposal tests: matches set up by hand, mails in, phases closed."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence

from judge.games.pirates.core.commands import read_mail, submit
from judge.games.pirates.core.match import (
    ROUNDS,
    Match,
    Phase,
    Round,
    Stage,
    Submissions,
    close_phase,
    garnets_held,
    moves_made,
    open_phase,
)

FOURTEEN = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kim", "Lou", "Max", "Ned")


def by_name(names: Sequence[str]) -> tuple[str, ...]:
    return tuple(sorted(names, key=str.casefold))


def match_in_round_1(first: Sequence[str], second: Sequence[str], packages: Mapping[str, int],
                     garnets: int = 0) -> Match:
    """A match whose first Distribution Phase is open, with the rooms and packages given (instead
    of drawn), each player having ``garnets`` garnets."""
    players = by_name([*first, *second])
    rooms = (by_name(first), by_name(second))
    round_ = Round(1, rooms, tuple((p, packages[p]) for p in players))
    return Match(players, garnets, rooms, (round_,), Phase(Stage.DISTRIBUTION, 1))


def send(match: Match, submissions: Submissions, player: str, *lines: str) -> Submissions:
    """``player``'s mail, every part of which must be accepted."""
    result = submit(match, submissions, player, read_mail(lines))
    assert result.replies and all(reply.accepted for reply in result.replies), result.replies
    return result.submissions


def refusal(match: Match, player: str, *lines: str, submissions: Submissions | None = None) -> str:
    """The judge's answer to ``player``'s mail, which must be refused in one reply."""
    result = submit(match, submissions or Submissions(), player, read_mail(lines))
    assert len(result.replies) == 1 and not result.replies[0].accepted, result.replies
    return result.replies[0].message


def phase(match: Match, mails: Mapping[str, Sequence[str]], seed: int | str = 0) -> Match:
    """Close the open phase with these mails (all accepted), and open the next one if any."""
    submissions = Submissions()
    for player, lines in mails.items():
        submissions = send(match, submissions, player, *lines)
    closed = close_phase(match, submissions, seed)
    return closed if closed.phase == Phase(Stage.FINAL, ROUNDS) else open_phase(closed, seed)


def random_plan(match: Match, player: str, rng: random.Random) -> list[str]:
    """A random valid plan's lines for ``player`` in the open Distribution Phase."""
    round_ = match.round
    garnets = rng.randint(0, garnets_held(match, player, round_.number))
    total = round_.package(player) + 5 * garnets
    room = list(round_.room_of(player))
    shares = dict.fromkeys(room, 0)
    for _ in range(total):
        shares[rng.choice(room)] += 1
    named = [m for m in room if shares[m] or rng.random() < 0.5]
    words = " ".join(f"{'ME' if m == player else m.lower()} {shares[m]}" for m in named)
    return [f"PLAN {words}" if words else f"PLAN ME {total}", *([f"GARNETS {garnets}"] if garnets else [])]


def random_ballot(match: Match, player: str, rng: random.Random) -> list[str]:
    """A random balanced ballot's lines for ``player`` in the open Voting Phase."""
    room = list(match.round.room_of(player))
    ayes = len(room) // 2 + (rng.randint(0, 1) if len(room) % 2 else 0)
    rng.shuffle(room)
    named = ["ME" if m == player else m.upper() for m in room]
    lines = [f"VOTE YES {' '.join(named[:ayes])}" if ayes else "", f"VOTE NO {' '.join(named[ayes:])}"]
    return [line for line in lines if line]


def random_mails(match: Match, rng: random.Random) -> dict[str, list[str]]:
    """Random valid mails for the open phase: some players send nothing."""
    phase_ = match.current_phase
    assert phase_ is not None
    mails: dict[str, list[str]] = {}
    for player in match.players:
        if rng.random() < 0.25:
            continue
        if phase_.stage is Stage.DISTRIBUTION:
            mails[player] = random_plan(match, player, rng)
        elif phase_.stage is Stage.VOTING:
            mails[player] = random_ballot(match, player, rng)
            if phase_.round < ROUNDS and moves_made(match, player) < 2 and rng.random() < 0.2:
                mails[player].append("MOVE")
    return mails


def play_match(match: Match, rng: random.Random, seed: str = "s",
               each: Callable[[Match], None] | None = None) -> Match:
    """Play ``match`` from its open phase to the opening of its final phase with random mails;
    ``each`` is called with the match after every phase opens."""
    while match.phase is not None and match.phase.stage is not Stage.FINAL:
        if each is not None:
            each(match)
        match = phase(match, random_mails(match, rng), f"{seed}/{match.phase.name}")
    if each is not None:
        each(match)
    return match


def scripted_match() -> Match:
    """Four players, rooms Ann-Bob and Cy-Dee, one garnet each.  Every round everyone keeps their
    package; in each room both vote Yes on the first member's plan and No on the second's, so the
    first member gets both packages (the second's plan fails, its gold going to the one other
    member).  Ann spends her garnet in round 1.  So Ann ends with 150 + 5 + 150 = 305 gold, Cy
    with 300, Bob and Dee with 0."""
    match = match_in_round_1(("Ann", "Bob"), ("Cy", "Dee"), {"Ann": 10, "Bob": 10, "Cy": 10, "Dee": 10},
                             garnets=1)
    for number in range(1, 6):
        plans = {p: [f"PLAN ME {match.round.package(p)}"] for p in match.players}
        if number == 1:
            plans["Ann"] = [f"PLAN ME {match.round.package('Ann') + 5}", "GARNETS 1"]
        match = phase(match, plans, f"D{number}")
        match = phase(match, {"Ann": ["VOTE YES ME", "VOTE NO Bob"], "Bob": ["VOTE YES Ann", "VOTE NO ME"],
                              "Cy": ["VOTE YES ME", "VOTE NO Dee"], "Dee": ["VOTE YES Cy", "VOTE NO ME"]},
                      f"V{number}")
    return match
