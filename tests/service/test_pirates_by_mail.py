"""Pirates' Proposal by mail through the game service (issue 28): a whole 14-player match whose
every mail to every player is checked against what the rules let that player learn, recomputed
here from the plans and ballots stored and the mails the players sent; joining, the phases and
their deadlines, reminders, takeovers, observers, LIST and the pages, the end."""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Sequence
from pathlib import Path

from sqlalchemy import select

from judge.pirates.match import ROUNDS, Match, moves_made
from judge.pirates.notation import match_from_data
from judge.store.models import Game, PhaseRow, Submission
from tests.pirates.match import FOURTEEN, random_ballot, random_plan
from tests.service.harness import Judge, Sent

GM = "gm@example.org"
WATCHER = "watcher@example.org"
FOUR = ("Ann", "Bob", "Cy", "Dee")
INFO = re.compile(r"^(Round \d+ of \d+|Room( [AB])?:|Package( of [A-Za-z0-9]+)?:|Gold( of [A-Za-z0-9]+)?:|Garnets:|"
                  r"Plan of |Your plan|Your ballot|Ballot of |Final gold|Tokens of Life|Extra Token|"
                  r"Elimination Candidate|Received by|Gold destroyed|Changed rooms|You change rooms)")
"""The lines that tell something of the match (the views' lines and the publication's)."""


def address(name: str) -> str:
    return f"{name.lower()}@example.org"


def pirates_game(judge: Judge, names: Sequence[str], garnets: int = 0) -> Judge:
    """Game ``pp``, created by GM for ``names``, each joined under their name, started."""
    judge.send(GM, f"CREATE pp gm-pw pirates PLAYERS={len(names)} GARNETS={garnets}")
    for name in names:
        judge.send(address(name), f"JOIN pp pw-{name.lower()} {name}")
    judge.send(GM, "SIGNON MASTER@pp gm-pw\nSTART")
    return judge


def send_as(judge: Judge, name: str, lines: Iterable[str]) -> str:
    return judge.send(address(name), f"SIGNON {name}@pp pw-{name.lower()}\n" + "\n".join(lines))


def now_playing(judge: Judge) -> tuple[str, str, Match]:
    """The game's state, its phase and the match as that phase opened (as stored)."""
    with judge.db.transaction() as session:
        game = session.scalars(select(Game).where(Game.name == "pp")).one()
        row = session.scalars(select(PhaseRow).where(PhaseRow.game_id == game.id, PhaseRow.name == game.phase)).one()
        data = row.result["match"] if row.status == "processed" else row.position
        return game.state, row.name, match_from_data(data)


def info(mail: Sent) -> list[str]:
    return [line.strip() for line in mail.body.splitlines() if INFO.match(line.strip())]


def process(judge: Judge) -> None:
    """The game master closes the open phase now."""
    judge.send(GM, "SIGNON MASTER@pp gm-pw\nPROCESS")


# -- independent arithmetic: what each player is owed by the rules (rules, Round Information; P4, P10)


def payouts(match: Match, number: int) -> dict[str, int]:
    """What each player received in round ``number``, from its stored plans and ballots (P2, P4)."""
    round_ = match.rounds[number - 1]
    got = dict.fromkeys(match.players, 0)
    for room in round_.rooms:
        for proposer in room:
            plan = dict(round_.plan(proposer).shares)
            yes = sum(proposer in round_.ballot(voter).yes for voter in room)
            no = sum(proposer in round_.ballot(voter).no for voter in room)
            if yes > no:
                for member, amount in plan.items():
                    got[member] += amount
            else:
                others = [m for m in room if m != proposer]
                for member in others:
                    got[member] += sum(plan.values()) // len(others)
    return got


def passed(match: Match, number: int, proposer: str) -> bool:
    round_ = match.rounds[number - 1]
    room = round_.room_of(proposer)
    return sum(proposer in round_.ballot(v).yes for v in room) > sum(proposer in round_.ballot(v).no for v in room)


def gold_after(match: Match, rounds: int) -> dict[str, int]:
    total = dict.fromkeys(match.players, 0)
    for number in range(1, rounds + 1):
        for player, amount in payouts(match, number).items():
            total[player] += amount
    return total


def owed(match: Match, player: str, mail: str, garnets: int) -> list[str]:
    """The lines the rules give ``player`` in the mail of phase change ``mail`` (``start``, or the
    phase that closed), recomputed from the stored match (rules, Round Information; P10)."""
    def distribution(number: int) -> list[str]:
        round_ = match.rounds[number - 1]
        spent = sum(r.plan(player).garnets for r in match.rounds[:number - 1])
        return [f"Round {number} of {ROUNDS}", f"Room: {', '.join(round_.room_of(player))}",
                f"Package: {round_.package(player)} gold", f"Gold: {gold_after(match, number - 1)[player]}",
                f"Garnets: {garnets - spent}"]

    if mail == "start":
        return distribution(1)
    number = int(mail[1:]) if mail != "F" else ROUNDS
    round_ = match.rounds[number - 1]
    room = round_.room_of(player)
    if mail.startswith("D"):
        return [f"Round {number} of {ROUNDS}",
                *(f"Plan of {m}: you receive {round_.plan(m).share(player)} gold" for m in room)]
    lines = [f"Round {number} of {ROUNDS}",
             *(f"Plan of {m}: {'passed' if passed(match, number, m) else 'failed'}" for m in room),
             f"Gold: {gold_after(match, number)[player]}"]
    return lines + (distribution(number + 1) if number < ROUNDS else [])


# -- the whole match -------------------------------------------------------------------------------------


def test_28_a_whole_14_player_match_by_mail_tells_each_player_only_what_the_rules_allow(tmp_path: Path) -> None:
    """Fourteen players, one garnet each; most send random valid plans, ballots and moves (some
    first a plan or ballot that is refused), some send nothing at some phases, two never do.  The
    game master closes some phases with PROCESS, the deadline the others (with the reminders half
    a phase before it).  Every mail to every player before the end holds exactly the lines the
    rules give that player then (P10), worked out here from the stored plans and ballots; the
    stored plans and ballots are the last valid ones each player sent, the default plan or a drawn
    ballot for the others; reminders go to each player without a valid submission, alone; the end
    publishes everything (P14)."""
    judge = pirates_game(Judge(tmp_path), FOURTEEN, garnets=1)
    judge.send(WATCHER, "OBSERVE pp")
    rng = random.Random(28)
    silent = {"Gus", "Ned"}
    mails: dict[str, list[tuple[str, Sent]]] = {name: [] for name in FOURTEEN}  # (the phase change, mail)
    sent_plans: dict[tuple[str, str], list[str]] = {}  # (phase, player) -> last valid plan lines
    sent_ballots: dict[tuple[str, str], list[str]] = {}
    told_at_reminder: dict[str, set[str]] = {}
    watched: list[Sent] = []

    def collect(change: str) -> None:
        for mail in judge.new_mail():
            name = mail.to.split("@")[0].title()
            if mail.subject.startswith(("Re:", "Copy:", "Please confirm")):
                continue
            if mail.to == WATCHER:
                watched.append(mail)
            elif name in mails:
                mails[name].append(("end" if mail.subject == "pp has ended" else change, mail))

    collect("start")
    step = 0
    while True:
        state, phase, match = now_playing(judge)
        if state == "finished":
            break
        for name in FOURTEEN:
            if name in silent or rng.random() < 0.2:
                continue
            if phase.startswith("D"):
                if rng.random() < 0.3:  # a plan that does not add up: refused whole, nothing stored
                    refused = send_as(judge, name, [f"PLAN ME {match.round.package(name) + 1}"])
                    assert refused == "done"
                lines = random_plan(match, name, rng)
                sent_plans[(phase, name)] = lines
            elif phase.startswith("V"):
                if rng.random() < 0.3:  # a ballot that breaks the balance: refused whole (P3)
                    send_as(judge, name, ["VOTE YES " + " ".join(match.round.room_of(name))])
                lines = random_ballot(match, name, rng)
                sent_ballots[(phase, name)] = lines
                if match.round.number < ROUNDS and moves_made(match, name) < 2 and rng.random() < 0.25:
                    lines = [*lines, "MOVE"]
            else:
                continue  # the final phase is the richest player's, below
            send_as(judge, name, lines)
            reply = judge.last_to(address(name)).body
            assert "ERROR" not in reply.split("> " + lines[0])[1], reply
        for mail in judge.new_mail():
            assert mail.subject.startswith("Re:"), mail.subject  # no mail to anyone else: P10
        if phase == "F":
            holder = next(n for n in FOURTEEN if "You have more gold than any other player" in mails[n][-1][1].body)
            send_as(judge, holder, [f"GIVE TOKEN {next(n for n in FOURTEEN if n != holder)}"])
            judge.new_mail()
        if step % 3 == 2:
            process(judge)
        else:
            judge.later(13)  # past the reminder, half a phase before the deadline
            judge.process("pp")
            reminded = {m.to for m in judge.new_mail() if m.subject == f"pp {phase} reminder"}
            told_at_reminder[phase] = reminded
            judge.later(11)
            judge.process("pp")
        collect(phase)
        step += 1

    _, _, final = now_playing(judge)
    assert final.over
    with judge.db.transaction() as session:
        stored = {(s.phase, s.power, s.kind) for s in session.scalars(select(Submission))}

    # the stored plans and ballots are the players' own, or the defaults (P3, P5, P6)
    for round_ in final.rounds:
        d, v = f"D{round_.number}", f"V{round_.number}"
        for name in FOURTEEN:
            if (d, name) in sent_plans:
                assert name not in round_.defaults and (d, name, "plan") in stored
                assert round_.plan(name).shares == plan_of(sent_plans[(d, name)], name, round_.room_of(name))
            else:
                assert name in round_.defaults
            if (v, name) in sent_ballots:
                assert name not in round_.drawn
                yes, no = ballot_of(sent_ballots[(v, name)], name)
                assert (set(round_.ballot(name).yes), set(round_.ballot(name).no)) == (yes, no)
            else:
                assert name in round_.drawn
    # every reminder went to a player who had sent nothing valid in that phase, each alone
    for phase, reminded in told_at_reminder.items():
        if phase == "F":  # the richest player gave the token: nobody is reminded
            assert reminded == set()
            continue
        kind = sent_plans if phase.startswith("D") else sent_ballots
        assert reminded == {address(n) for n in FOURTEEN if (phase, n) not in kind}, phase
    # each player's mails: exactly the lines the rules give them, nothing of anyone else's (P10)
    for name in FOURTEEN:
        changes = [change for change, mail in mails[name] if not mail.subject.endswith((" reminder", " late"))]
        assert changes == ["start", *(f"{s}{r}" for r in range(1, 6) for s in "DV"), "end"], (name, changes)
        for change, mail in mails[name]:
            if mail.subject.endswith((" reminder", " late")):
                assert info(mail) == [] and name in mail.body
                continue
            if change == "end":
                continue  # below
            expected = owed(final, name, change, 1)
            shown = [line for line in info(mail) if not line.startswith(("Your plan", "Your ballot", "You change"))]
            if change == "V5":
                shown = [line for line in shown if not line.startswith(("Final gold", "Tokens", "Extra", "Elim",
                                                                        "Garnets: "))]
                assert [f"Final gold: {p} {g}" for p, g in sorted(gold_after(final, 5).items(),
                                                                   key=lambda item: (-item[1], item[0]))] == [
                    line for line in info(mail) if line.startswith("Final gold")]
            assert shown == expected, (name, change, shown, expected)
            own = [line for line in info(mail) if line.startswith(("Your plan", "Your ballot"))]
            number = int(change[1:]) if change[0] in "DV" else 0
            room = set(final.rounds[number - 1].room_of(name)) if number else set()
            for line in own:  # one's own plan or ballot names only members of one's own room
                assert set(re.findall(r"\b[A-Z][a-z]+\b", line.split(":", 1)[1])) <= room | {"Yes", "No", "The"}
        end = mails[name][-1][1]
        assert end.subject == "pp has ended"
        final_gold = gold_after(final, 5)
        for player, amount in final_gold.items():
            assert f"Final gold: {player} {amount}" in end.body.splitlines()
        least = min(final_gold.values())
        assert f"Elimination Candidate: {', '.join(p for p in FOURTEEN if final_gold[p] == least)}" in end.body
        assert "Tokens of Life: " in end.body
        for round_ in final.rounds:  # the publication: every package, plan and ballot, drawn ones marked
            for player in FOURTEEN:
                assert f"Package of {player}: {round_.package(player)} gold" in end.body
                ballot = round_.ballot(player)
                line = (f"Ballot of {player}: Yes on {', '.join(ballot.yes) or 'none'}; No on "
                        f"{', '.join(ballot.no) or 'none'}" + (" (drawn)" if player in round_.drawn else ""))
                assert line in end.body.splitlines()
                assert any(text.startswith(f"Plan of {player}: ") and ("default" in text) == (
                    player in round_.defaults) for text in end.body.splitlines())
    # the observer: the phases' names only, then the publication (what the pages show)
    opened = [f"pp {s}{r}" for r in range(1, 6) for s in "DV"][1:]  # D1 opened before it observed
    assert [m.subject for m in watched][:-1] == [*opened, "pp F"]
    assert all(info(m) == [] for m in watched[:-1]) and watched[-1].subject == "pp has ended"
    assert "(drawn)" in watched[-1].body and "@example.org" not in watched[-1].body  # no address to an observer


def plan_of(lines: Sequence[str], player: str, room: Sequence[str]) -> tuple[tuple[str, int], ...]:
    """The shares a PLAN line gives, read here from the line as sent (ME: the player)."""
    words = lines[0].split()[1:]
    given = {}
    for name, amount in zip(words[::2], words[1::2], strict=True):
        member = player if name.upper() == "ME" else next(m for m in room if m.casefold() == name.casefold())
        given[member] = int(amount)
    return tuple((m, given.get(m, 0)) for m in room)


def ballot_of(lines: Sequence[str], player: str) -> tuple[set[str], set[str]]:
    """The proposers a ballot's VOTE lines vote Yes and No on, read here from the lines as sent."""
    votes: dict[str, set[str]] = {"YES": set(), "NO": set()}
    for line in lines:
        words = line.split()[1:]
        side = words[0].upper()
        for word in words[1:]:
            if word.upper() in votes:
                side = word.upper()
            else:
                votes[side].add(player if word.upper() == "ME" else word.title())
    return votes["YES"], votes["NO"]
