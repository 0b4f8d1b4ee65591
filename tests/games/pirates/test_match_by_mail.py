"""Pirates' Proposal by mail through the game service (issue 28): a whole 14-player match whose
every mail to every player is checked against what the rules let that player learn, recomputed
here from the plans and ballots stored and the mails the players sent; joining, the phases and
their deadlines, reminders, takeovers, observers, LIST and the pages, the end."""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Sequence
from pathlib import Path

import pytest
from sqlalchemy import select

from judge.games.pirates.core.match import ROUNDS, Match, moves_made
from judge.games.pirates.core.notation import match_from_data
from judge.store.models import Game, PhaseRow, Player, Submission
from tests.games.pirates.by_mail import FOUR, address, pirates_game
from tests.games.pirates.match import FOURTEEN, random_ballot, random_plan
from tests.support import cli
from tests.support.harness import Judge, Sent
from tests.support.people import GM

WATCHER = "watcher@example.org"
INFO = re.compile(r"^(Round \d+ of \d+|Room( [AB])?:|Package( of [A-Za-z0-9]+)?:|Gold( of [A-Za-z0-9]+)?:|Garnets:|"
                  r"Plan of |Your plan|Your ballot|Ballot of |Final gold|Tokens of Life|Extra Token|"
                  r"Elimination Candidate|Received by|Gold destroyed|Changed rooms|You change rooms)")
"""The lines that tell something of the match (the views' lines and the publication's)."""


def send_as(judge: Judge, name: str, lines: Iterable[str]) -> str:
    return judge.send(address(name), f"SIGNON {name}@pp pw-{name.lower()}\n" + "\n".join(lines))


def joined(judge: Judge, game: str) -> list[str]:
    """The names the players of ``game`` joined under, in the order they joined."""
    with judge.db.transaction() as session:
        row = session.scalars(select(Game).where(Game.name == game)).one()
        return [str(p.requested) for p in session.scalars(select(Player).where(Player.game_id == row.id)
                                                            .order_by(Player.id))]


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
    if mail.startswith("D"):  # and one's gold, as the round opened
        return [f"Round {number} of {ROUNDS}",
                *(f"Plan of {m}: you receive {round_.plan(m).share(player)} gold" for m in room),
                f"Gold: {gold_after(match, number - 1)[player]}"]
    lines = [f"Round {number} of {ROUNDS}",
             *(f"Plan of {m}: {'passed' if passed(match, number, m) else 'failed'}" for m in room),
             f"Gold: {gold_after(match, number)[player]}"]
    return lines + (distribution(number + 1) if number < ROUNDS else [])


# -- the whole match -------------------------------------------------------------------------------------


def richest_alone(gold: dict[str, int]) -> bool:
    """Whether one player has more gold than every other: only then is there an extra Token of
    Life to give, and a final phase in which to give it (P11)."""
    return list(gold.values()).count(max(gold.values())) == 1


SOLE_RICHEST_SEED = 0
"""A game seed whose whole match below ends with one player richer than all others (P11)."""
TIED_RICHEST_SEED = 13
"""A game seed whose whole match below ends with two players tied for the most gold: no extra
token, so the match ends as its last Voting Phase closes (P11)."""


def test_a_whole_14_player_match_by_mail_tells_each_player_only_what_the_rules_allow(tmp_path: Path) -> None:
    """The whole match below with the seed the judge draws: any end the draws give."""
    whole_match(tmp_path)


def test_p11_a_whole_match_whose_richest_player_is_alone_ends_after_the_final_phase(tmp_path: Path) -> None:
    """The whole match below with a seed that leaves one player richest: the V5 mails tell the
    end, and that player gives the extra token in the final phase (P11)."""
    assert richest_alone(gold_after(whole_match(tmp_path, SOLE_RICHEST_SEED), 5))


def test_p11_a_whole_match_with_two_players_tied_richest_ends_as_its_last_voting_phase_closes(
        tmp_path: Path) -> None:
    """The whole match below with a seed that leaves two players tied for the most gold: nobody
    may act in the final phase, so the match ends as V5 closes; the V5 mails tell only what every
    Voting Phase's do, and the end's mail the final gold (P10, P11, P14)."""
    assert not richest_alone(gold_after(whole_match(tmp_path, TIED_RICHEST_SEED), 5))


def whole_match(tmp_path: Path, seed: int | None = None) -> Match:
    """Fourteen players, one garnet each; most send random valid plans, ballots and moves (some
    first a plan or ballot that is refused), some send nothing at some phases, two never do.  The
    game master closes some phases with PROCESS, the deadline the others (with the reminders half
    a phase before it).  Every mail to every player before the end holds exactly the lines the
    rules give that player then (P10), worked out here from the stored plans and ballots; the
    stored plans and ballots are the last valid ones each player sent, the default plan or a drawn
    ballot for the others; reminders go to each player without a valid submission, alone; the end
    publishes everything (P14).  The final phase opens only when one player is richer than all
    others; otherwise the match ends as V5 closes, and the V5 mails do not tell the end (P11).
    The game's ``seed`` if given, else the judge's draw; the match as it ended."""
    judge = pirates_game(Judge(tmp_path), FOURTEEN, garnets=1, seed=seed)
    judge.send(WATCHER, "OBSERVE pp")
    rng = random.Random(28)
    silent = {"Gus", "Ned"}
    mails: dict[str, list[tuple[str, Sent]]] = {name: [] for name in FOURTEEN}  # (the phase change, mail)
    sent_plans: dict[tuple[str, str], list[str]] = {}  # (phase, player) -> last valid plan lines
    sent_ballots: dict[tuple[str, str], list[str]] = {}
    told_at_reminder: dict[str, set[str]] = {}
    watched: list[Sent] = []
    played: list[str] = []  # the phases, as each was open

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
        played.append(phase)
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
    final_gold = gold_after(final, 5)
    final_phase = ["F"] if richest_alone(final_gold) else []  # otherwise nobody may act in it (P11)
    assert played == [*(f"{s}{r}" for r in range(1, 6) for s in "DV"), *final_phase]
    told_end = [f"Final gold: {p} {g}" for p, g in sorted(final_gold.items(), key=lambda item: (-item[1], item[0]))]
    with judge.db.transaction() as session:
        stored = {(s.phase, s.seat, s.kind) for s in session.scalars(select(Submission))}

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
            if change == "V5":  # the end is told here if a final phase opens, else in the end's mail (P11)
                shown = [line for line in shown if not line.startswith(("Final gold", "Tokens", "Extra", "Elim",
                                                                        "Garnets: "))]
                assert (told_end if final_phase else []) == [line for line in info(mail)
                                                             if line.startswith("Final gold")], (name, final_phase)
            assert shown == expected, (name, change, shown, expected)
            own = [line for line in info(mail) if line.startswith(("Your plan", "Your ballot"))]
            number = int(change[1:]) if change[0] in "DV" else 0
            room = set(final.rounds[number - 1].room_of(name)) if number else set()
            for line in own:  # one's own plan or ballot names only members of one's own room
                assert set(re.findall(r"\b[A-Z][a-z]+\b", line.split(":", 1)[1])) <= room | {"Yes", "No", "The"}
        end = mails[name][-1][1]
        assert end.subject == "pp has ended"
        for player, amount in final_gold.items():
            assert f"Final gold: {player} {amount}" in end.body.splitlines()
        least = min(final_gold.values())
        assert f"Elimination Candidate: {', '.join(p for p in FOURTEEN if final_gold[p] == least)}" in end.body
        assert "Tokens of Life: " in end.body
        assert ("Extra Token of Life: none (no player has more gold than every other)" in end.body) == (
            not final_phase)
        for round_ in final.rounds:  # the publication: every package, plan and ballot, drawn ones marked
            for player in FOURTEEN:
                assert f"Package of {player}: {round_.package(player)} gold" in end.body
                ballot = round_.ballot(player)
                sides = [f"{word} on {', '.join(side)}" for word, side in (("Yes", ballot.yes), ("No", ballot.no))
                         if side]  # a side with no plan is left out
                line = f"Ballot of {player}: {'; '.join(sides)}" + (" (drawn)" if player in round_.drawn else "")
                assert line in end.body.splitlines()
                assert any(text.startswith(f"Plan of {player}: ") and ("default" in text) == (
                    player in round_.defaults) for text in end.body.splitlines())
    # the observer: the phases' names only, then the publication (what the pages show)
    opened = [f"pp {s}{r}" for r in range(1, 6) for s in "DV"][1:]  # D1 opened before it observed
    assert [m.subject for m in watched][:-1] == [*opened, *(f"pp {name}" for name in final_phase)]
    assert all(info(m) == [] for m in watched[:-1]) and watched[-1].subject == "pp has ended"
    assert "(drawn)" in watched[-1].body and "@example.org" not in watched[-1].body  # no address to an observer
    return final


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


# -- creating, joining, starting -------------------------------------------------------------------------


def test_create_takes_players_and_garnets_and_join_a_name_unique_in_the_game(tmp_path: Path) -> None:
    judge = Judge(tmp_path)
    judge.confirmed(GM, *map(address, (*FOUR, "Eve")))  # the replies, not the requests to confirm
    judge.send(GM, "CREATE bad gm-pw pirates PLAYERS=5\nCREATE bad2 gm-pw pirates SEVEN=1\nCREATE pp gm-pw pirates "
               "PLAYERS=4 GARNETS=2")
    assert judge.outcome_of("CREATE bad **** pirates PLAYERS=5") == ("error", "BAD_OPTIONS")  # even, 4 to 14 (P1)
    assert judge.outcome_of("CREATE bad2 **** pirates SEVEN=1") == ("error", "BAD_OPTIONS")
    assert judge.outcome_of("CREATE pp **** pirates PLAYERS=4 GARNETS=2")[0] == "ok"
    judge.send(address("Ann"), "JOIN pp pw-ann\nJOIN pp pw-ann A\nJOIN pp pw-ann Master\nJOIN pp pw-ann Ann")
    assert "JOIN pp **** \n" not in judge.last_to(address("Ann")).body  # the line is quoted without a space after
    assert judge.outcome_of("JOIN pp ****") == ("error", "BAD_WISH")  # a player joins under a name
    assert judge.outcome_of("JOIN pp **** A") == ("error", "BAD_WISH")  # 2 to 12 letters or digits
    assert judge.outcome_of("JOIN pp **** Master") == ("error", "BAD_WISH")  # a word of the commands
    assert judge.outcome_of("JOIN pp **** Ann")[0] == "ok"
    judge.send(address("Bob"), "JOIN pp pw-bob ANN")
    assert judge.outcome_of("JOIN pp **** ANN") == ("error", "BAD_WISH")  # Ann's, whatever the case
    judge.send(address("Bob"), "JOIN pp pw-bob Bob")
    assert joined(judge, "pp") == ["Ann", "Bob"]
    judge.send(GM, "SIGNON MASTER@pp gm-pw\nSTART")
    assert judge.outcome_of("START") == ("error", "WRONG_NUMBER_OF_PLAYERS")
    for name in ("Cy", "Dee"):
        judge.send(address(name), f"JOIN pp pw-{name.lower()} {name}")
    judge.send(address("Eve"), "JOIN pp pw-eve Eve")
    assert judge.outcome_of("JOIN pp **** Eve") == ("error", "GAME_FULL")
    judge.new_mail()
    judge.send(GM, "SIGNON MASTER@pp gm-pw\nSTART")
    starts = {m.to: m.body for m in judge.new_mail() if m.subject == "pp starts"}
    assert set(starts) == {GM, *map(address, FOUR)}
    assert "You play as Ann. Sign on with: SIGNON Ann@pp" in starts[address("Ann")]
    assert "Garnets: 2" in starts[address("Ann")].splitlines() and "Garnets: 2" not in starts[GM]


def test_every_line_is_answered_and_status_shows_ones_own_part_only(tmp_path: Path) -> None:
    judge = pirates_game(Judge(tmp_path), FOUR, garnets=1)
    _, _, match = now_playing(judge)
    ann_room = match.round.room_of("Ann")
    other = next(p for p in FOUR if p not in ann_room)
    mate = next(p for p in ann_room if p != "Ann")
    package = match.round.package("Ann")
    judge.new_mail()
    send_as(judge, "Ann", [f"PLAN ME {package} {other} 0", "VOTE YES ME", "MOVE", "FLY", "STATUS",
                           f"PLAN ME {package - 1} {mate.lower()} 6", "GARNETS 1"])
    reply = judge.last_to(address("Ann")).body
    assert judge.outcome_of(f"PLAN ME {package} {other} 0") == ("error", "ONE_PLAN_A_MAIL")
    assert judge.outcome_of(f"PLAN ME {package - 1} {mate.lower()} 6") == ("error", "ONE_PLAN_A_MAIL")  # one plan
    assert judge.outcome_of("GARNETS 1") == ("error", "ONE_PLAN_A_MAIL")
    assert judge.outcome_of("VOTE YES ME") == ("error", "NOT_THIS_PHASE")  # votes in a Voting Phase
    assert judge.outcome_of("MOVE") == ("error", "NOT_THIS_PHASE")
    assert judge.outcome_of("FLY") == ("error", "UNKNOWN_COMMAND")
    assert "Your plan now: none yet" in reply
    send_as(judge, "Ann", [f"PLAN ME {package - 1} {mate.lower()} 6", "GARNETS 1", "STATUS"])
    reply = judge.last_to(address("Ann")).body
    assert judge.outcome_of(f"PLAN ME {package - 1} {mate.lower()} 6") == ("ok", "PLAN_ACCEPTED")
    assert judge.outcome_of("GARNETS 1") == ("ok", "PLAN_ACCEPTED")  # read with the PLAN line as one plan
    status = reply.split("> STATUS\n")[1]
    assert f"Room: {', '.join(ann_room)}" in status and f"Your plan now: you {package - 1}, {mate} 6" in status
    assert other not in status  # nothing of the other room (P10)
    send_as(judge, "Ann", [f"PLAN ME {package} {other} 0"])
    assert judge.outcome_of(f"PLAN ME {package} {other} 0") == ("error", "NOT_IN_ROOM")
    judge.send(GM, "SIGNON MASTER@pp gm-pw\nSTATUS\nVOTE YES ME")
    reply = judge.last_to(GM).body
    assert "Ann (played): plan sent" in reply and f"{mate} (played): nothing yet" in reply
    assert judge.outcome_of("VOTE YES ME") == ("error", "PLAYER_ONLY")


def test_a_phase_closes_at_its_deadline_never_early_and_each_reminder_goes_to_its_player_alone(
        tmp_path: Path) -> None:
    """Every player sends a plan: the phase still waits for its deadline, since closing it then
    would tell everyone that all had submitted (Amendment II, P10).  In the Voting Phase two send
    ballots; the reminder and the late notice go to each of the two others alone."""
    judge = pirates_game(Judge(tmp_path), FOUR)
    judge.new_mail()
    for name in FOUR:
        _, _, match = now_playing(judge)
        send_as(judge, name, [f"PLAN ME {match.round.package(name)}"])
    assert now_playing(judge)[1] == "D1" and not [m for m in judge.new_mail() if "results" in m.subject]
    judge.later(23)
    judge.process("pp")
    assert now_playing(judge)[1] == "D1"
    judge.later(1)
    judge.process("pp")
    assert now_playing(judge)[1] == "V1"
    _, _, match = now_playing(judge)
    for name in ("Ann", "Bob"):
        send_as(judge, name, random_ballot(match, name, random.Random(name)))
    judge.new_mail()
    judge.send(GM, "SIGNON MASTER@pp gm-pw\nSET GRACE 2")
    judge.later(13)
    judge.process("pp")
    reminders = [m for m in judge.new_mail() if m.subject == "pp V1 reminder"]
    assert sorted(m.to for m in reminders) == [address("Cy"), address("Dee")]
    for mail in reminders:
        name = mail.to.split("@")[0].title()
        assert f"nothing from you ({name})" in mail.body and "drawn for you" in mail.body
        notice = mail.body.partition("%% form for")[0]  # the form names the player's own room, theirs to know
        assert not {n for n in FOUR if n != name} & set(re.findall(r"\b[A-Z][a-z]+\b", notice))
    judge.later(11)
    judge.process("pp")
    late = [m for m in judge.new_mail() if m.subject == "pp V1 late"]
    assert sorted(m.to for m in late) == [address("Cy"), address("Dee")] and now_playing(judge)[1] == "V1"
    judge.later(2)
    judge.process("pp")
    assert now_playing(judge)[1] == "D2"


def test_the_game_master_sets_the_length_of_each_kind_of_phase(tmp_path: Path) -> None:
    judge = Judge(tmp_path)
    judge.confirmed(GM)
    judge.send(GM, "CREATE pp gm-pw pirates PLAYERS=4\nSIGNON MASTER@pp gm-pw\nSET VOTING 36\nSET DISTRIBUTION 2d\n"
               "SET MOVEMENT 10")
    reply = judge.last_to(GM).body
    assert "OK: voting set to 1 day 12 hours" in reply and "OK: distribution set to 2 days" in reply
    assert judge.outcome_of("SET MOVEMENT 10") == ("error", "SYNTAX")
    for name in FOUR:
        judge.send(address(name), f"JOIN pp pw-{name.lower()} {name}")
    judge.send(GM, "SIGNON MASTER@pp gm-pw\nSTART")
    assert "pp has started: D1, deadline 2026-01-07 12:00 UTC" in judge.last_to(GM).body
    process(judge)
    assert "now V1" in judge.last_to(GM).body
    assert "Deadline of V1: 2026-01-07 00:00 UTC" in judge.last_to(address("Ann")).body


# -- what anyone may know: LIST, the pages, observers, HISTORY ------------------------------------------


def test_list_and_the_pages_show_name_round_phase_and_seats_never_who_has_sent_what(tmp_path: Path) -> None:
    judge = pirates_game(Judge(tmp_path, web=True), FOUR)
    _, _, match = now_playing(judge)
    send_as(judge, "Ann", [f"PLAN ME {match.round.package('Ann')}"])
    judge.send(WATCHER, "LIST\nLIST pp\nHISTORY pp\nSUMMARY pp")
    reply = judge.last_to(WATCHER).body
    assert "pp: active, D1 (Pirates' Proposal)" in reply
    assert "phase: D1 (the Distribution Phase of round 1), deadline 2026-01-06 12:00 UTC" in reply
    assert "Ann: played" in reply and "Bob: played" in reply
    assert not re.search(r"submitted|waiting|sent|Room|Package|gold", reply.split("> LIST pp")[1].split(">")[0])
    assert judge.outcome_of("HISTORY pp") == ("error", "HISTORY_NOT_PUBLISHED")
    page = (tmp_path / "web" / "games" / "pp" / "index.html").read_text("utf-8")
    assert "the Distribution Phase of round 1" in page and "Ann: played" in page
    assert not re.search(r"Room|Package|Plan of|Ballot|submitted", page)
    index = (tmp_path / "web" / "index.html").read_text("utf-8")
    assert "Pirates&#39; Proposal" in index and "pp" in index
    judge.terminate(GM, "SIGNON MASTER@pp gm-pw")
    judge.send(WATCHER, "HISTORY pp")
    assert "ERROR" not in judge.last_to(WATCHER).body.split("> HISTORY pp")[1]


def test_after_the_end_the_page_and_history_publish_everything(tmp_path: Path) -> None:
    judge = pirates_game(Judge(tmp_path, web=True), FOUR)
    for _ in range(11):
        state, _, _ = now_playing(judge)
        if state == "finished":
            break
        judge.later(25)
        judge.process("pp")
    assert now_playing(judge)[0] == "finished"
    page = (tmp_path / "web" / "games" / "pp" / "index.html").read_text("utf-8")
    _, _, final = now_playing(judge)
    for round_ in final.rounds:
        for player in FOUR:
            ballot = round_.ballot(player)
            said = f"Yes on {', '.join(ballot.yes)}" if ballot.yes else f"No on {', '.join(ballot.no)}"
            assert f"Ballot of {player}: {said}" in page
    assert "(drawn)" in page and "the default plan" in page and "Elimination Candidate: " in page
    judge.send(WATCHER, "HISTORY pp")
    history = judge.last_to(WATCHER)
    text = history.body + "".join(data.decode() for _, data in history.attachments.values())
    assert "Ballot of Ann: " in text and "Final gold: " in text and "Elimination Candidate: " in text


# -- seats changing hands -----------------------------------------------------------------------------------


def test_a_vacant_seat_is_taken_over_under_its_name_and_its_new_player_told_only_what_it_knows(
        tmp_path: Path) -> None:
    judge = pirates_game(Judge(tmp_path), FOUR)
    _, _, match = now_playing(judge)
    send_as(judge, "Bob", [f"PLAN ME {match.round.package('Bob')}"])
    judge.new_mail()
    judge.send(GM, "SIGNON MASTER@pp gm-pw\nDUMMY bob\nSET OPENING Bob")
    reply = judge.last_to(GM).body
    assert "OK: Bob is now a dummy" in reply and "OK: Bob may be taken over: TAKEOVER Bob@pp password" in reply
    news = [m for m in judge.new_mail() if m.subject.startswith("pp: ")]
    assert {m.to for m in news} >= {address("Ann"), address("Cy"), address("Dee")}
    judge.send("zed@example.org", "TAKEOVER bob@pp zed-pw")
    mails = judge.new_mail()
    assert any("OK: you now play Bob in pp (SIGNON Bob@pp password); a briefing follows" in m.body for m in mails
               if m.to == "zed@example.org" and m.subject.startswith("Re:"))
    briefing = next(m for m in mails if m.subject == "pp: your briefing as Bob")
    assert briefing.to == "zed@example.org"
    room = match.round.room_of("Bob")
    assert f"Room: {', '.join(room)}" in briefing.body
    assert f"Package: {match.round.package('Bob')} gold" in briefing.body
    plan = next(line for line in briefing.body.splitlines() if line.startswith("Your plan now: "))
    shares = dict(part.rsplit(" ", 1) for part in plan.removeprefix("Your plan now: ").split(", "))
    # PLAN ME <package>: the whole package to Bob, nothing to the others of the room (in the room's order)
    assert shares == {"you": str(match.round.package("Bob"))} | {name: "0" for name in room if name != "Bob"}
    assert not set(FOUR) - set(room) & set(re.findall(r"\b[A-Z][a-z]+\b", briefing.body))
    assert any(m.to == GM and m.subject == "pp: Bob taken over" for m in mails)
    judge.send("zed@example.org", "SIGNON Bob@pp zed-pw\nSTATUS")
    assert "signed on as Bob in pp" in judge.last_to("zed@example.org").body
    send_as(judge, "Bob", ["STATUS"])  # the old password no longer works
    assert judge.outcome_of("SIGNON Bob@pp ****") == ("error", "SIGNON_REFUSED")


def test_resign_leaves_a_seat_that_plays_on_by_the_defaults(tmp_path: Path) -> None:
    judge = pirates_game(Judge(tmp_path), FOUR)
    send_as(judge, "Dee", ["RESIGN"])
    assert "you have resigned; your seat is now a dummy; it plays on by the defaults" in judge.last_to(
        address("Dee")).body
    judge.new_mail()
    process(judge)
    assert address("Dee") not in {m.to for m in judge.new_mail()}
    _, _, match = now_playing(judge)
    assert "Dee" in match.rounds[0].defaults


def test_the_game_master_is_told_when_a_player_resigns(tmp_path: Path) -> None:
    judge = pirates_game(Judge(tmp_path), FOUR)
    judge.new_mail()
    send_as(judge, "Dee", ["RESIGN"])
    told = [m for m in judge.new_mail() if m.to == GM]
    assert [m.subject for m in told] == ["pp: the player of Dee resigned"]
    assert "the player of Dee resigned: it is now a dummy" in told[0].body


def test_the_masters_status_shows_vacancies_and_absences_and_a_player_its_own(tmp_path: Path) -> None:
    judge = pirates_game(Judge(tmp_path), FOUR)
    send_as(judge, "Dee", ["RESIGN"])
    send_as(judge, "Ann", ["SET ABSENCE 2026-02-01 TO 2026-02-03"])
    send_as(judge, "Ann", ["STATUS"])
    assert "your absence: 2026-02-01 to 2026-02-03, asked (the game master decides)" in judge.last_to(
        address("Ann")).body
    send_as(judge, "Bob", ["STATUS"])
    assert "absen" not in judge.last_to(address("Bob")).body.split("> STATUS", 1)[1]
    judge.send(GM, "SIGNON MASTER@pp gm-pw\nSET OPENING Dee\nSTATUS")
    status = judge.last_to(GM).body.split("> STATUS", 1)[1]
    assert "Dee (vacant, open for TAKEOVER): nothing yet" in status
    assert "Ann absent: 2026-02-01 to 2026-02-03, asked (the game master decides)" in status


def test_the_end_names_every_player_of_a_seat_with_the_phases_played(tmp_path: Path) -> None:
    judge = pirates_game(Judge(tmp_path), FOUR)
    process(judge)  # D1 closes: V1 opens
    send_as(judge, "Bob", ["RESIGN"])
    judge.send(GM, "SIGNON MASTER@pp gm-pw\nSET OPENING Bob")
    judge.send("zed@example.org", "TAKEOVER bob@pp zed-pw")
    judge.new_mail()
    judge.terminate(GM, "SIGNON MASTER@pp gm-pw")
    ended = {m.to: m.body for m in judge.new_mail() if m.subject == "pp has ended"}
    assert "Bob: bob@example.org (D1 to V1), zed@example.org (V1 to the end)" in ended[GM]
    assert "Ann: ann@example.org (D1 to the end)" in ended["zed@example.org"]
    judge.send(WATCHER, "SUMMARY pp")
    summary = judge.last_to(WATCHER).body
    assert "Bob: a player (D1 to V1), a player (V1 to the end)" in summary and "@example.org" not in summary


# -- the game master's tools, the end --------------------------------------------------------------------


def test_a_match_cannot_be_rolled_back_and_terminate_publishes_the_rounds_played(tmp_path: Path) -> None:
    judge = pirates_game(Judge(tmp_path), FOUR)
    process(judge)
    judge.later(1)
    judge.send(GM, "SIGNON MASTER@pp gm-pw\nROLLBACK")
    assert judge.outcome_of("ROLLBACK") == ("error", "CANNOT_ROLL_BACK")
    for _ in range(2):
        judge.later(1)
        process(judge)
    assert now_playing(judge)[1] == "V2"
    judge.new_mail()
    judge.terminate(GM, "SIGNON MASTER@pp gm-pw")
    ended = {m.to: m.body for m in judge.new_mail() if m.subject == "pp has ended"}
    assert set(ended) == {GM, *map(address, FOUR)}
    body = ended[address("Ann")]
    assert "Round 1 of 5" in body and "Ballot of Ann:" in body and "Round 2 of 5" not in body  # round 2 unfinished
    assert "has ended: the game master ended the game" in body


def test_a_final_phase_in_which_nobody_may_act_closes_at_once(tmp_path: Path) -> None:
    """Each player gives their whole package to their room's other member, and in each room both
    vote for the first member's plan: the first member's plan passes, the second's fails and its
    gold goes to the first.  So each gets the other's packages, 150 gold each: nobody is richer
    than all others, nobody gives an extra token (P11), and the final phase closes as it opens."""
    judge = pirates_game(Judge(tmp_path), FOUR)
    while now_playing(judge)[0] != "finished":
        _, phase, match = now_playing(judge)
        for name in FOUR:
            mate = next(m for m in match.round.room_of(name) if m != name)
            first, second = match.round.room_of(name)
            send_as(judge, name, [f"PLAN {mate} {match.round.package(name)}"] if phase[0] == "D"
                    else [f"VOTE YES {first}", f"VOTE NO {second}"])
        judge.new_mail()
        judge.later(1)
        process(judge)
        if phase == "V5":
            break
    mails = judge.new_mail()
    _, phase, final = now_playing(judge)
    assert phase == "F" and final.over and final.token_to is None
    ended = next(m for m in mails if m.to == address("Ann") and m.subject == "pp has ended").body
    assert all(f"Final gold: {name} 150" in ended for name in FOUR)
    assert "Extra Token of Life: none (no player has more gold than every other)" in ended
    assert not [m for m in mails if "You have more gold than any other player" in m.body]


def test_press_goes_to_whoever_it_names_in_either_room(tmp_path: Path) -> None:
    judge = pirates_game(Judge(tmp_path), FOUR)
    _, _, match = now_playing(judge)
    other = next(p for p in FOUR if p not in match.round.room_of("Ann"))
    judge.new_mail()
    send_as(judge, "Ann", [f"PRESS TO {other.lower()} M", "shall we?", "ENDPRESS", "PRESS TO Zed", "hi", "ENDPRESS"])
    reply = judge.last_to(address("Ann")).body
    assert f"OK: press sent to {other}, the game master" in reply
    assert judge.outcome_of("PRESS TO Zed") == ("error", "NO_SUCH_READER")
    assert {m.to for m in judge.new_mail() if m.subject == "pp press from Ann"} == {address(other), GM}


# -- judge demo --pirates --------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def pirates_demo() -> str:
    """What ``judge demo --pirates`` prints (played once for the tests below: it takes a while)."""
    return cli.demo_output(kind="pirates")


def test_judge_demo_pirates_shows_one_players_mails_and_the_end_publication(pirates_demo: str) -> None:
    """A newcomer sees Ann's mails of the first round (her room and package, her plan answered
    line by line, what she would receive under each plan of her room, which passed and her gold),
    none of them telling anything of the other room (P10), then the whole publication (P14)."""
    before, end = pirates_demo.split("Subject: demo has ended")
    room = re.search(r"^\s*Room: (.*)$", before, re.M)
    assert room is not None
    mates = room.group(1).split(", ")
    assert "Ann" in mates and len(mates) == 2
    assert re.search(r"^\s*Package: \d+ gold$", before, re.M) and "Garnets: 1" in before
    assert re.search(r"OK: Plan accepted, \d+ gold \(the \d+-gold package and 1 garnet\)", before)
    assert "OK: read with 'PLAN ME" in before  # the GARNETS line, answered as part of the plan
    told = re.findall(r"^\s*Plan of (\w+): (you receive \d+ gold|passed|failed)$", before, re.M)
    assert sorted({name for name, _ in told}) == sorted(mates) and len(told) == 4
    assert not re.search(r"^\s*(Package|Gold|Ballot) of ", before, re.M)  # nobody else's part before the end
    for name in FOUR:
        assert re.search(rf"^\s*Final gold: {name} \d+$", end, re.M)
        assert re.search(rf"^\s*Ballot of {name}: Yes on .*\(drawn\)$", end, re.M)  # rounds 2-5: all drawn
    assert re.search(r"^\s*Ballot of Dee: Yes on \w+; No on \w+ \(drawn\)$", end.split("Round 2 of 5")[0], re.M)
    assert re.search(r"^\s*Plan of Ann: .*1 garnet\): (passed|failed)", end, re.M)
    assert "Tokens of Life: " in end and "Elimination Candidate: " in end


def test_judge_demo_does_not_name_the_maildir_it_removed(pirates_demo: str) -> None:
    """Without --keep the demo removes its data directory: it says to run it with --keep to look
    at the mails, and names no Maildir that is gone."""
    data = re.search(r"\(data in (\S+)\)", pirates_demo)
    assert data is not None and not Path(data.group(1)).exists()
    assert data.group(1) not in pirates_demo.split("(data in", 1)[1].split(")", 1)[1]
    assert "Maildir" not in pirates_demo
    assert "run the demo again with --keep to look at them" in pirates_demo


# -- what playing a match by mail showed ------------------------------------------------------------------


def test_status_in_a_voting_phase_counts_the_garnet_the_rounds_plan_spent(tmp_path: Path) -> None:
    """Ann spends her garnet on her plan of round 1: once the Distribution Phase has closed, she
    holds none (P7), and STATUS says so; Bob, who spent none, still holds his."""
    judge = pirates_game(Judge(tmp_path), FOUR, garnets=1)
    _, _, match = now_playing(judge)
    send_as(judge, "Ann", [f"PLAN ME {match.round.package('Ann') + 5}", "GARNETS 1"])
    process(judge)
    send_as(judge, "Ann", ["STATUS"])
    status = judge.last_to(address("Ann")).body.splitlines()
    assert "  Garnets: 0" in status and "  Garnets: 1" not in status
    send_as(judge, "Bob", ["STATUS"])
    assert "  Garnets: 1" in judge.last_to(address("Bob")).body.splitlines()


def test_an_observer_of_a_forming_match_is_told_when_it_starts(tmp_path: Path) -> None:
    """Whoever observes a match before it starts is told that it has, and its first phase; nothing
    else (what the pages show)."""
    judge = Judge(tmp_path)
    judge.send(GM, "CREATE pp gm-pw pirates PLAYERS=4")
    judge.send(WATCHER, "OBSERVE pp")
    for name in FOUR:
        judge.send(address(name), f"JOIN pp pw-{name.lower()} {name}")
    judge.new_mail()
    judge.send(GM, "SIGNON MASTER@pp gm-pw\nSTART")
    told = [m for m in judge.new_mail() if m.to == WATCHER]
    assert [m.subject for m in told] == ["pp D1"]
    assert "the match has started; the Distribution Phase of round 1 (D1) opens" in told[0].body
    assert info(told[0]) == [] and not any(name in told[0].body for name in FOUR)


def test_the_masters_status_in_the_final_phase_says_who_has_nothing_to_send(tmp_path: Path) -> None:
    """Every round, Ann keeps her package and her room mate gives Ann theirs, and both vote for
    Ann's plan and against the mate's: Ann ends with her room's every package, richer than all.
    In the final phase only she may act (P11): the master's STATUS says the others have nothing
    to send, not that they have sent nothing yet."""
    judge = pirates_game(Judge(tmp_path), FOUR)
    while (playing := now_playing(judge))[1] != "F":
        _, phase, match = playing
        for name in FOUR:
            room = match.round.room_of(name)
            mate = next(m for m in room if m != name)
            if phase[0] == "D":
                lines = [f"PLAN {'ME' if 'Ann' in room else mate} {match.round.package(name)}"]
                if "Ann" in room and name != "Ann":
                    lines = [f"PLAN Ann {match.round.package(name)}"]
            elif "Ann" in room:
                lines = ["VOTE YES Ann", f"VOTE NO {'ME' if name != 'Ann' else mate}"]
            else:
                lines = ["VOTE YES ME", f"VOTE NO {mate}"]
            send_as(judge, name, lines)
        judge.later(1)
        process(judge)
    judge.send(GM, "SIGNON MASTER@pp gm-pw\nSTATUS")
    status = judge.last_to(GM).body
    assert "Ann (played): nothing yet" in status
    for name in FOUR[1:]:
        assert f"{name} (played): nothing to send in the final phase" in status


def test_the_index_of_games_speaks_of_players_not_of_powers_or_offer_sheets(tmp_path: Path) -> None:
    """The index lists every kind's games: its columns and its footer are the host's, and name no
    game's own words."""
    pirates_game(Judge(tmp_path, web=True), FOUR)
    index = (tmp_path / "web" / "index.html").read_text("utf-8")
    assert '<th scope="col">Players</th>' in index and "Ann (played)" in index
    assert "Powers" not in index and "offer sheets" not in index and "rules 2.5" not in index


def test_a_match_without_garnets_does_not_tell_how_to_spend_them(tmp_path: Path) -> None:
    """With GARNETS=0 nobody holds a garnet before the end (P7): the mails asking for a plan do not
    offer the GARNETS line; with garnets they do."""
    start = pirates_game(Judge(tmp_path / "none"), FOUR).last_to(address("Ann")).body
    assert "PLAN ME 10 <name>" in start and "GARNETS 1" not in start and "garnets you spend" not in start
    start = pirates_game(Judge(tmp_path / "one"), FOUR, garnets=1).last_to(address("Ann")).body
    assert "GARNETS 1" in start and "garnets you spend" in start


def test_terminate_before_a_round_is_settled_says_there_is_nothing_to_publish(tmp_path: Path) -> None:
    """A match ended by the game master in its first round has no round to publish: the end mail
    and HISTORY say so instead of announcing a publication that does not follow; after a round, it says
    that the rounds played to their end are published, not everything."""
    judge = pirates_game(Judge(tmp_path), FOUR)
    judge.new_mail()
    judge.terminate(GM, "SIGNON MASTER@pp gm-pw")
    ended = next(m.body for m in judge.new_mail() if m.to == address("Ann") and m.subject == "pp has ended")
    assert "No round was played to its end, so there is nothing to publish." in ended
    assert "Everything that was secret" not in ended and "Round 1" not in ended
    judge.send(WATCHER, "HISTORY pp")
    assert "> HISTORY pp\n  OK: no round of pp was played to its end: there is nothing to publish" in judge.last_to(
        WATCHER).body
    judge = pirates_game(Judge(tmp_path / "later"), FOUR)
    for _ in range(3):
        judge.later(1)
        process(judge)
    judge.new_mail()
    judge.terminate(GM, "SIGNON MASTER@pp gm-pw")
    ended = next(m.body for m in judge.new_mail() if m.to == address("Ann") and m.subject == "pp has ended")
    assert "Everything that was secret in the rounds played to their end is now published" in ended
    assert "Round 1 of 5" in ended and "Round 2 of 5" not in ended


def test_a_confirmation_names_the_kind_of_game_asked_for_never_payola(tmp_path: Path) -> None:
    judge = Judge(tmp_path)
    judge.send(GM, "CREATE pp gm-pw pirates PLAYERS=4")
    [asked] = [m for m in judge.all_mail() if m.subject.startswith("Please confirm: CREATE pp")]
    assert asked.body.startswith("Someone asked the judge at judge@localhost to send the mail of a game of "
                                 "Pirates' Proposal to this address:")  # one paragraph, as a reader shows it
    judge.send(address("Ann"), "JOIN pp pw-ann Ann")
    [asked] = [m for m in judge.all_mail() if m.subject == "Please confirm: JOIN pp"]
    assert "a game of Pirates' Proposal" in asked.body
    assert "Payola" not in asked.body.split("\n-- \n")[0]
