"""Rule 6.3 (Tin Cup) played whole through the game service: every mail to a power shows only
its part of the board, observers see no position, and the end of the game publishes it all.

The view is written again here from the issue's text, not taken from ``judge.payola.blind``: a
power sees from its home centers and from every province where one of its units stood when the
phase began or stands when it ended; it sees those provinces and their neighbours.  Every mail
is checked against the positions the judge stored, line by line: a foreign unit, a foreign
order or a foreign center owner named outside that view is a leak.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from judge.bootstrap import kinds
from judge.engine.map import load_map
from judge.service.operators.demo import run_demo
from judge.store.models import Game, PhaseRow
from tests.games.payola.by_mail import start as start_g1
from tests.games.payola.by_mail import teleport
from tests.support.harness import Judge, Sent
from tests.support.people import GM

WATCHER = "watcher@example.org"
PLAYERS = {power: f"{power.lower()}@example.org"
           for power in ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")}
HOMES = {"AUSTRIA": {"VIE", "BUD", "TRI"}, "ENGLAND": {"LON", "EDI", "LVP"}, "FRANCE": {"PAR", "BRE", "MAR"},
         "GERMANY": {"BER", "KIE", "MUN"}, "ITALY": {"ROM", "NAP", "VEN"}, "RUSSIA": {"MOS", "WAR", "SEV", "STP"},
         "TURKEY": {"ANK", "CON", "SMY"}}
STANDARD = load_map("standard")
UNIT = re.compile(r"\b(?:A|F|Army|Fleet) ([A-Z]{3})\b")
NAMES = "|".join(power.title() for power in PLAYERS)
SIGHTING = re.compile(rf"^\s*({NAMES}): (?:Army|Fleet) ([A-Z]{{3}}) (ARRIVES|DEPARTS|LOST|FOUND)\.$")
ORDER = re.compile(rf"^\s*({NAMES}): [AF] ([A-Z]{{3}})(?:/[NSEW]C)?(.*)$")
OWNERS = re.compile(rf"^\s*({NAMES}) \(([^)]*)\): ([A-Z ]+)$")
UNSEEN = "names a unit you do not see (Tin Cup, rule 6.3)"  # an order's answer
UNSEEN_OFFER = "names a unit that is not on the board as you see it (Tin Cup, rule 6.3)"

Data = dict[str, Any]

# Spring 1901: Turkey bids on a French unit it cannot see (there) and on one that is not there.
SPRING = {
    "FRANCE": "3 : A PAR - BUR\n1 : A MAR H\n1 : F BRE - MAO",
    "GERMANY": "2 : A MUN - RUH\n2 : F KIE - HOL\n2 : A BER - MUN",
    "ENGLAND": "1 : F LON - NTH\n1 : F EDI - NWG\n1 : A LVP - YOR",
    "RUSSIA": "1 : A WAR - GAL\n1 : F SEV - BLA\n1 : A MOS - UKR\n1 : F STP/SC - BOT",
    "AUSTRIA": "1 : A VIE - GAL\n1 : A BUD - SER\n1 : F TRI - ALB",
    "TURKEY": "1 : F ANK - BLA\n1 : A CON - BUL\n1 : A SMY - ARM\n2 : A PAR H\n1 : A PIC H",
}
# Fall 1901: Germany dislodges France's A BUR; England, France, Russia take centers.
FALL = {
    "GERMANY": "3 : A RUH - BUR\n3 : A MUN S A RUH - BUR\n1 : F HOL H",
    "FRANCE": "1 : A BUR H\n1 : F MAO - POR\n1 : A MAR - SPA",
    "ENGLAND": "1 : F NTH - NWY\n1 : F NWG H\n1 : A YOR H",
    "RUSSIA": "1 : F BOT - SWE\n1 : A UKR H\n1 : A WAR H\n1 : F SEV H",
    "TURKEY": "1 : A BUL H\n1 : A ARM H\n1 : F ANK H",
}
BUILDS = {"GERMANY": "BUILD F KIE", "FRANCE": "BUILD A PAR", "ENGLAND": "BUILD F LON", "TURKEY": "BUILD A SMY"}
# England, far from them, orders units it cannot see in F1901R and W1901A: France's A BUR
# (dislodged), Germany's A MUN (standing), and nothing (RUH, PIE); each in both phase kinds.
RETREAT_PROBES = ("A BUR - PIC", "A MUN - BOH", "A RUH - KIE", "A PIE D")
ADJUSTMENT_PROBES = ("REMOVE A MUN", "REMOVE A BUR", "REMOVE A RUH", "REMOVE A PIE")  # sent with its build
# Spring 1902: money buys a French unit Germany sees, and an Italian one Turkey does not.
SPRING_1902 = {
    "GERMANY": "5 : A PIC - BEL\n1 : A BUR H\n1 : A MUN H",
    "FRANCE": "1 : A PIC H\n1 : A PAR - GAS",
    "TURKEY": "3 : A VEN - TYR\n1 : A BUL - GRE",
    "ENGLAND": "1 : F LON - ENG",
}


@dataclass
class Played:
    """The game as it went: every mail with the phase it was sent in, what each power wrote,
    and the positions the judge stored."""

    judge: Judge
    mails: list[tuple[Sent, str | None]] = field(default_factory=list)  # (mail, results phase or current)
    wrote: dict[str, set[str]] = field(default_factory=dict)
    phases: dict[str, tuple[Data, Data]] = field(default_factory=dict)  # name -> (before, after)
    first: Data = field(default_factory=dict)

    def collect(self, current: str | None) -> list[Sent]:
        fresh = self.judge.new_mail()
        self.mails.extend((m, current) for m in fresh)
        return fresh

    def send(self, power: str, text: str) -> list[Sent]:
        current = self.current()
        self.wrote.setdefault(power, set()).update(line.strip() for line in text.splitlines())
        self.judge.send(PLAYERS[power], f"SIGNON {power}@tc pw-{power.lower()}\n{text}")
        return self.collect(current)

    def current(self) -> str | None:
        with self.judge.db.transaction() as session:
            game = session.scalar(select(Game).where(Game.name == "tc"))
            assert game is not None
            return game.phase

    def process(self, hours: float = 49) -> str:
        """Let the deadline pass (``hours``: just past it, not so long that the judge pauses)."""
        current = self.current()
        self.judge.later(hours)
        done = self.judge.process("tc")
        self.collect(current)
        return done

    def everyone(self, text: str) -> None:
        for power in PLAYERS:
            self.send(power, text)

    def read_positions(self) -> None:
        with self.judge.db.transaction() as session:
            game = session.scalar(select(Game).where(Game.name == "tc"))
            assert game is not None
            rows = list(session.scalars(select(PhaseRow).where(PhaseRow.game_id == game.id).order_by(PhaseRow.id)))
            self.first = rows[0].position
            for row in rows:
                if row.status == "processed":
                    self.phases[row.name] = (row.position, row.result["adjudication"])


def placed(data: Data) -> set[tuple[str, str]]:
    """(power, province) of every unit, dislodged ones too."""
    found = {(power, unit.split()[1][:3]) for power, units in data.get("units", {}).items() for unit in units}
    return found | {(power, d["unit"].split()[1][:3]) for power, ds in data.get("dislodged", {}).items() for d in ds}


def units_of(data: Data) -> set[tuple[str, str]]:
    """(power, province) of the units on the board (not dislodged)."""
    return {(power, unit.split()[1][:3]) for power, units in data.get("units", {}).items() for unit in units}


def view(power: str, before: Data, after: Data) -> set[str]:
    """The issue's rule: home centers and the provinces of its units before and after, and all
    provinces next to one of those."""
    eyes = HOMES[power] | {p for q, p in placed(before) | placed(after) if q == power}
    return eyes.union(*(STANDARD.neighbours[p] for p in eyes))


def owner(data: Data, center: str) -> str | None:
    return next((p for p, cs in data.get("centers", {}).items() if center in cs), None)


def leaks(power: str, body: str, before: Data, after: Data, wrote: Iterable[str]) -> list[str]:
    """What ``body``, mailed to ``power``, says that ``power`` may not see (see the header)."""
    seen = view(power, before, after)
    mine = {p for q, p in placed(before) | placed(after) if q == power}
    foreign = {p for q, p in placed(before) | placed(after) if q != power}
    own_lines = set(wrote)
    found = []
    centers = False
    for line in body.splitlines():
        text = line.strip()
        if not text:
            centers = False
            continue
        if line.startswith(">") or text in own_lines:  # what the power wrote, quoted back
            continue
        if text == "Supply centers:":
            centers = True
            continue
        if centers and (match := OWNERS.match(line)) and not text.startswith("unowned"):
            whose, listed = match.group(1).upper(), set(match.group(3).split())
            if whose == power:
                if listed != set(after["centers"].get(power, [])) or match.group(2) != str(len(listed)):
                    found.append(f"own centers wrong: {text}")
            elif match.group(2) != "in sight" or any(c not in seen or owner(after, c) != whose for c in listed):
                found.append(f"center owner out of sight: {text}")
            continue
        if re.match(r"^\s*(\w+): \d+ center", line) and not text.startswith(f"{power.title()}:"):
            found.append(f"another power's counts: {text}")
        if re.match(rf"^\s*({NAMES}) [AF] [A-Z/]+: (may retreat|no retreat)", line) \
                and not text.startswith(f"{power.title()} "):
            found.append(f"another power's retreats: {text}")
        if text.startswith((f"{power.title()}: ", "your ")):
            continue  # its own units' orders, whatever they name
        if match := SIGHTING.match(line):
            whose, where, glimpse = match.group(1).upper(), match.group(2), match.group(3)
            was = (whose, where) in placed(before)
            now = (whose, where) in placed(after)
            if where not in seen or not (was if glimpse in ("DEPARTS", "LOST") else now):
                found.append(f"sighting out of sight or untrue: {text}")
            continue
        if (match := ORDER.match(line)) and match.group(1).upper() != power:
            whose, where, rest = match.group(1).upper(), match.group(2), match.group(3)
            moved = re.match(r" - ([A-Z]{3})", rest)
            there = moved.group(1) if moved and "(" not in rest else where
            if where not in seen or there not in seen or (whose, where) not in placed(before):
                found.append(f"order of a unit out of sight: {text}")
            continue  # told in full: what it names is part of the order
        for where in UNIT.findall(line):
            if where in foreign and where not in mine and where not in seen:
                found.append(f"unit out of sight: {text}")
    return found


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Played:
    judge = Judge(tmp_path_factory.mktemp("tincup"))
    game = Played(judge)
    assert judge.send(GM, "CREATE tc tc-secret standard TINCUP") == "done"
    for power, address in PLAYERS.items():
        judge.send(address, f"JOIN tc pw-{power.lower()} {power}")
    judge.send(WATCHER, "OBSERVE tc")
    judge.send(GM, "SIGNON MASTER@tc tc-secret\nSTART")
    game.collect(None)
    game.everyone("STATUS")
    for power, sheet in SPRING.items():
        game.send(power, sheet)
    assert game.process() == "tc S1901M processed; next F1901M"
    game.everyone("STATUS")
    for power, sheet in FALL.items():
        game.send(power, sheet)
    assert game.process() == "tc F1901M processed; next F1901R"
    game.everyone("STATUS")
    game.send("ENGLAND", "\n".join(RETREAT_PROBES))  # before France's retreat ends the phase
    game.send("FRANCE", "A BUR - PIC")  # the only retreat: processed at once
    game.everyone("STATUS")
    for power, orders in BUILDS.items():
        game.send(power, "\n".join((*ADJUSTMENT_PROBES, orders)) if power == "ENGLAND" else orders)
    assert game.process(25) == "tc W1901A processed; next S1902M"
    game.everyone("STATUS")
    judge.send(WATCHER, "LIST tc\nHISTORY tc\nSUMMARY tc")
    game.collect(game.current())
    for power, sheet in SPRING_1902.items():
        game.send(power, sheet)
    assert game.process() == "tc S1902M processed; next F1902M"
    game.everyone("STATUS")
    game.read_positions()
    judge.terminate(GM, "SIGNON MASTER@tc tc-secret")
    game.collect(None)
    return game


def context(played: Played, mail: Sent, current: str | None) -> tuple[Data, Data]:
    """The positions a mail is about: those of the phase it gives the results of, or for any
    other mail those of the phase that led to the current one (at the start: the start)."""
    if match := re.fullmatch(r"tc (\w+) results", mail.subject):
        return played.phases[match.group(1)]
    for before, after in played.phases.values():
        if after["next_phase"] == current:
            return before, after
    return played.first, played.first


def test_rule_6_3_tin_cup_no_mail_to_a_power_names_what_it_cannot_see(played: Played) -> None:
    checked = 0
    for mail, current in played.mails:
        power = next((p for p, a in PLAYERS.items() if a == mail.to), None)
        if power is None or mail.subject == "tc has ended":
            continue
        before, after = context(played, mail, current)
        assert not leaks(power, mail.body, before, after, played.wrote.get(power, ())), (mail.subject, mail.body)
        checked += 1
    assert checked > 60
    assert set(played.phases) == {"S1901M", "F1901M", "F1901R", "W1901A", "S1902M"}


def test_rule_6_3_tin_cup_results_show_every_unit_in_sight_and_only_those(played: Played) -> None:
    for mail, _ in played.mails:
        power = next((p for p, a in PLAYERS.items() if a == mail.to), None)
        match = re.fullmatch(r"tc (\w+) results", mail.subject)
        if power is None or match is None:
            continue
        before, after = played.phases[match.group(1)]
        seen = view(power, before, after)
        shown = {(m.group(1).upper(), unit.split()[1][:3])
                 for m in re.finditer(r"^  (\w+), in sight: (.*)$", mail.body, re.M)
                 for unit in m.group(2).split(", ")}
        assert shown == {(q, p) for q, p in units_of(after) if q != power and p in seen}, (power, mail.body)
        assert re.search(rf"{power.title()}: {len(after['centers'].get(power, []))} centers?, ", mail.body)


def test_rule_6_3_tin_cup_the_view_rule_is_what_the_mails_show(played: Played) -> None:
    """Worked by hand from the issue's rule: after Fall 1901, Germany (at BUR, MUN, HOL) sees
    France's A BUR dislodged; England (NWY, NWG, YOR; home LON, EDI, LVP) sees neither."""
    fall = [m for m, _ in played.mails if m.subject == "tc F1901M results"]
    [german] = [m for m in fall if m.to == PLAYERS["GERMANY"]]
    [english] = [m for m in fall if m.to == PLAYERS["ENGLAND"]]
    assert "France: A BUR H (fails: dislodged)" in german.body and "France A BUR: dislodged" in german.body
    assert "Germany: A RUH - BUR" in german.body
    assert "BUR" not in english.body and "Germany: F HOL H" in english.body  # HOL is next to NTH
    assert "Russia: Fleet SWE ARRIVES." in english.body and "BOT" not in english.body  # SWE is next to NWY
    [retreat] = [m for m, _ in played.mails if m.subject == "tc F1901R results" and m.to == PLAYERS["GERMANY"]]
    assert "France: A BUR - PIC" in retreat.body


def test_rule_6_3_tin_cup_players_are_told_at_the_start_what_they_will_see(played: Played) -> None:
    starts = [m for m, _ in played.mails if m.subject == "tc starts" and m.to in PLAYERS.values()]
    assert len(starts) == 7
    assert all("you see only the part of the board near your units and home centers" in m.body for m in starts)
    [status] = [m for m, current in played.mails if m.to == PLAYERS["ITALY"] and current == "S1901M"
                and "> STATUS" in m.body]
    assert "The board for S1901M, as Italy sees it:" in status.body and "Austria, in sight: F TRI" in status.body


def test_rule_6_3_tin_cup_foreign_builds_are_found_and_their_orders_never_told(played: Played) -> None:
    [french] = [m for m, _ in played.mails if m.subject == "tc W1901A results" and m.to == PLAYERS["FRANCE"]]
    assert "Fleet KIE" not in french.body and "BUILD F KIE" not in french.body
    [german] = [m for m, _ in played.mails if m.subject == "tc W1901A results" and m.to == PLAYERS["GERMANY"]]
    assert "France: Army PAR FOUND." in german.body and "BUILD A PAR" not in german.body
    assert "France did not use" not in german.body  # the judge's line about France is France's alone
    assert "France did not use 1 build:" in french.body


def test_rule_6_3_tin_cup_offers_to_units_out_of_sight_are_answered_alike_and_count(played: Played) -> None:
    [reply] = [m for m, _ in played.mails if m.to == PLAYERS["TURKEY"] and "> 2 : A PAR H" in m.body]
    lines = reply.body.splitlines()
    par, pic = lines.index("> 2 : A PAR H"), lines.index("> 1 : A PIC H")
    assert UNSEEN_OFFER in lines[par + 1] and lines[par + 1] == lines[pic + 1]  # there, and not there: alike
    assert "offer sheet accepted: 5 offers," in reply.body
    [spring] = [m for m, _ in played.mails if m.subject == "tc S1902M results" and m.to == PLAYERS["TURKEY"]]
    assert "you paid 3 AgP to a unit of Italy" in spring.body  # Italy's A VEN, bought unseen
    assert "VEN" not in spring.body.split("Supply centers")[0]
    [french] = [m for m, _ in played.mails if m.subject == "tc S1902M results" and m.to == PLAYERS["FRANCE"]]
    assert "France: A PIC - BEL" in french.body  # its own unit, bought by Germany


def test_rule_6_3_tin_cup_observers_get_no_position_while_it_runs(played: Played) -> None:
    watched = [m for m, _ in played.mails if m.to == WATCHER and m.subject != "tc has ended"]
    assert len([m for m in watched if m.subject.endswith("results")]) == 5
    for mail in watched:
        counts = re.search(r": \d+ centers?, \d+ units?", mail.body)  # a power's line of the board
        assert not UNIT.search(mail.body) and "Supply centers" not in mail.body and not counts, mail.body
    [asked] = [m for m in watched if "> HISTORY tc" in m.body]
    assert "a Blind game's history is published when it ends" in asked.body
    assert "each power's supply centers are its own secret until the game ends" in asked.body


def test_rule_6_3_tin_cup_the_end_publishes_every_order_and_board(played: Played) -> None:
    ends = {m.to: m for m, _ in played.mails if m.subject == "tc has ended"}
    assert set(ends) == {*PLAYERS.values(), WATCHER, GM}
    body = ends[WATCHER].body
    published = body.split("Final treasuries:")[1].split("Who played")[0]  # the same to all; who played what,
    assert all(m.body.split("Final treasuries:")[1].split("Who played")[0] == published  # with addresses for the
               for m in ends.values())  # players and master only
    assert "@example.org" not in body and f"France: {PLAYERS['FRANCE']}" in ends[PLAYERS["ITALY"]].body
    for name, (_, after) in played.phases.items():
        for result in after["results"]:
            assert f"{result['power'].title()}: {result['order']}" in body, (name, result)
    last = played.phases["S1902M"][1]
    for power, units in last["units"].items():
        assert re.search(rf"{power.title()}: {len(last['centers'].get(power, []))} centers?, {len(units)} units?: "
                         rf"{re.escape(', '.join(sorted(units)))}", body)
    assert "France: A BUR H (fails: dislodged)" in body and "Italy: A VEN - TYR" in body


def probe_answers(played: Played, probes: tuple[str, ...]) -> list[tuple[str, ...]]:
    """England's answer to each line of the mail that sent ``probes``: (outcome, message)."""
    [reply] = [m for m, _ in played.mails if m.to == PLAYERS["ENGLAND"] and f"> {probes[0]}" in m.body]
    lines = reply.body.splitlines()
    return [tuple(lines[lines.index(f"> {probe}") + 1].strip().split(": ", 1)) for probe in probes]


@pytest.mark.parametrize("probes", [RETREAT_PROBES, ADJUSTMENT_PROBES], ids=["retreat", "adjustment"])
def test_tin_cup_orders_out_of_sight_are_answered_alike_in_every_phase(played: Played,
                                                                             probes: tuple[str, ...]) -> None:
    """A dislodged unit, a standing one, and none at all, out of England's sight: one answer."""
    retreat = probes is RETREAT_PROBES
    before, after = played.phases["F1901R" if retreat else "W1901A"]
    assert not {"BUR", "MUN", "RUH", "PIE"} & view("ENGLAND", before, after)
    units = {province for _, province in placed(before)}
    assert {"BUR", "MUN"} <= units and not {"RUH", "PIE"} & units
    assert not retreat or "A BUR" in str(before["dislodged"]["FRANCE"])
    answers = probe_answers(played, probes)
    assert len(set(answers)) == 1 and answers[0][0] == "IGNORED", answers
    assert "names a province you do not see" in answers[0][1]


def test_tin_cup_orders_out_of_sight_are_set_aside_and_the_others_stand(played: Played) -> None:
    """England's build came in the mail with its orders for units out of sight: it stands, and
    they never reach the adjudication."""
    english = [r for r in played.phases["W1901A"][1]["results"] if r["power"] == "ENGLAND"]
    assert [(r["order"], r["result"]) for r in english] == [("BUILD F LON", "succeeds")], english


def test_tin_cup_concessions_are_answered_alike_and_only_a_survivor_wins_one(tmp_path: Path) -> None:
    """France, Germany and England play; every other power is a dummy.  Conceding to Italy (a
    dummy, which no player could win for) reads as conceding to Germany, and ends nothing; a
    concession of every other survivor to Germany ends the game without Germany's own vote
    (issue 23.18)."""
    judge = Judge(tmp_path)
    judge.send(GM, "CREATE votes pw standard BLIND")
    for power in ("FRANCE", "GERMANY", "ENGLAND"):
        judge.send(PLAYERS[power], f"JOIN votes pw-{power.lower()} {power}")
    judge.send(GM, "SIGNON MASTER@votes pw\nSTART")
    answers = {}
    for conceded in ("ITALY", "GERMANY", "RUSSIA"):
        judge.send(PLAYERS["FRANCE"], f"SIGNON FRANCE@votes pw-france\nVOTE CONCEDE {conceded}")
        answers[conceded] = judge.last_to(PLAYERS["FRANCE"]).body.replace(conceded.title(), "X").replace(conceded, "X")
    assert len(set(answers.values())) == 1
    assert "OK: your vote, kept secret: to concede the game to X" in answers["ITALY"]
    for power in ("FRANCE", "GERMANY", "ENGLAND"):
        judge.send(PLAYERS[power], f"SIGNON {power}@votes pw-{power.lower()}\nVOTE CONCEDE ITALY")
    judge.send(GM, "LIST votes")
    assert "state: active" in judge.last_to(GM).body  # every voter agreed, but on a power that is no voter
    judge.send(PLAYERS["GERMANY"], "SIGNON GERMANY@votes pw-germany\nVOTE NONE")
    judge.send(PLAYERS["FRANCE"], "SIGNON FRANCE@votes pw-france\nVOTE CONCEDE GERMANY")
    judge.send(PLAYERS["ENGLAND"], "SIGNON ENGLAND@votes pw-england\nVOTE CONCEDE GERMANY")
    assert "conceded to Germany" in judge.last_to(PLAYERS["ENGLAND"]).body


def test_rule_6_3_create_with_tincup_is_create_with_blind(tmp_path: Path) -> None:
    judge = Judge(tmp_path)
    assert judge.send(GM, "CREATE blind1 pw standard BLIND") == "done"
    assert judge.send(GM, "CREATE tincup1 pw standard TINCUP") == "done"
    for name in ("blind1", "tincup1"):
        judge.send(GM, f"LIST {name}")
        listed = judge.last_to(GM).body
        assert "board: standard (Standard: 7 powers, 34 centers, 18 to win, from S1901M)\n" in listed
        assert "options: BLIND\n" in listed


def test_rule_6_3_judge_demo_blind_shows_one_power_its_part(capsys: pytest.CaptureFixture[str]) -> None:
    assert run_demo(kinds(), blind=True) == 0
    shown = capsys.readouterr().out
    assert "The board for F1901M, as France sees it:" in shown and "Germany, in sight: A MUN, A RUH" in shown
    assert "Italy" not in shown.split("as France saw them")[1]  # Italy's units are far from France's
    assert "demo-S1901M-orders.png" in shown and "every order and board the powers did not see" in shown


def test_rule_6_3_loyal_orders_naming_units_out_of_sight_are_answered_alike_and_told_as_given(
        tmp_path: Path) -> None:
    """France (PAR, BRE, MAR) sees neither Munich, where Germany's army is, nor the Ruhr, where
    nothing is: a support of either reads the same, when sent and in the results.  Gascony it
    sees empty, and the Tyrolia could not reach Burgundy: those are refused as usual."""
    judge = Judge(tmp_path)
    judge.send(GM, "CREATE loyal pw standard BLIND LOYAL_UNITS")
    judge.send(PLAYERS["FRANCE"], "JOIN loyal pw-f FRANCE")
    judge.send(GM, "SIGNON MASTER@loyal pw\nSTART")
    france = "SIGNON FRANCE@loyal pw-f\n"
    judge.send(PLAYERS["FRANCE"], france + "F BRE S A GAS - PIC\nA PAR S A TYR - BUR")
    refused = judge.last_to(PLAYERS["FRANCE"]).body
    assert "> F BRE S A GAS - PIC\n  ERROR: there is no unit to support there" in refused
    assert "> A PAR S A TYR - BUR\n  ERROR: " in refused
    judge.send(PLAYERS["FRANCE"], france + "A MAR S A MUN - BUR\nA PAR S A RUH - BUR\nF BRE H")
    [reply] = [m for m in judge.all_mail() if "> A MAR S A MUN - BUR" in m.body]
    assert f"> A MAR S A MUN - BUR\n  OK: {UNSEEN}: taken as given and never answered" in reply.body
    lines = reply.body.splitlines()
    assert lines[lines.index("> A MAR S A MUN - BUR") + 1] == lines[lines.index("> A PAR S A RUH - BUR") + 1]
    results = judge.last_to(PLAYERS["FRANCE"]).body
    assert "  France: A MAR S A MUN - BUR\n" in results and "  France: A PAR S A RUH - BUR\n" in results
    assert "void" not in results and "invalid" not in results
    judge.terminate(GM, "SIGNON MASTER@loyal pw")
    end = judge.last_to(PLAYERS["FRANCE"]).body
    assert "France: A MAR S A MUN - BUR (fails: void)" in end and "France: A PAR S A RUH - BUR (invalid" in end


def test_rule_6_3_a_powers_maps_show_only_what_it_sees(tmp_path: Path) -> None:
    """England's map after Spring 1901 (F LON - NTH): its own units, and of the others only
    Germany's fleet in Holland, next to the North Sea; its own centers; its own counts."""
    judge = Judge(tmp_path, maps=True, maps_default="all")  # every picture: the board's SVG is read
    judge.send(GM, "CREATE maps pw standard TINCUP")
    for power in ("ENGLAND", "GERMANY"):
        judge.send(PLAYERS[power], f"JOIN maps pw-{power.lower()} {power}")
    judge.send(GM, "SIGNON MASTER@maps pw\nSTART")
    judge.send(PLAYERS["ENGLAND"], "SIGNON ENGLAND@maps pw-england\n1 : F LON - NTH")
    judge.send(PLAYERS["GERMANY"], "SIGNON GERMANY@maps pw-germany\n1 : F KIE - HOL")
    english = judge.last_to(PLAYERS["ENGLAND"])
    assert english.subject == "maps S1901M results" and "maps-S1901M-orders.png" in english.attachments
    svg = english.attachments["maps-F1901M.svg"][1].decode()
    units = set(re.findall(r'data-power="(\w+)" data-type="[AF]" data-location="([A-Z/]+)"', svg))
    assert units == {("ENGLAND", "NTH"), ("ENGLAND", "EDI"), ("ENGLAND", "LVP"), ("GERMANY", "HOL")}
    owners = set(re.findall(r'data-province="(\w+)" data-owner="(\w+)"', svg))
    assert owners == {("LON", "ENGLAND"), ("EDI", "ENGLAND"), ("LVP", "ENGLAND")}
    assert re.findall(r'<g class="power" data-power="(\w+)"', svg) == ["ENGLAND"]
    [chart] = [m for m in judge.all_mail() if m.subject == "maps S1901M chart"]
    full = chart.attachments["maps-F1901M.svg"][1]
    assert 'data-power="GERMANY" data-type="A" data-location="BER"' in full.decode()  # the master sees it all


# -- a standoff out of sight, and the retreats it bars ---------------------------------------------------

# Fall 1901: Germany's A RUH, supported from MUN, dislodges France's A BUR.  Belgium, in France's
# sight (next to BUR and PIC), is its only way out on the true board: Germany's F HOL and England's
# F NTH, both out of France's sight, bounce there; PIC, PAR, GAS and MAR are France's own, MUN is
# Germany's and RUH is where the attack came from.
STANDOFF = {"phase": "F1901M",
            "units": {"FRANCE": ["A BUR", "A PIC", "A PAR", "A GAS", "A MAR"],
                      "GERMANY": ["A RUH", "A MUN", "F HOL"], "ENGLAND": ["F NTH"]},
            "centers": {"FRANCE": ["PAR", "BRE", "MAR"], "GERMANY": ["MUN", "BER", "KIE"],
                        "ENGLAND": ["LON", "EDI", "LVP"]}}
STANDOFF_SHEETS = {"alice@example.org": "SIGNON F@g1 alice-pw\n1 : A BUR H\n1 : A PIC H\n1 : A PAR H\n1 : A GAS H\n"
                                        "1 : A MAR H",
                   "bob@example.org": "SIGNON G@g1 bob-pw\n1 : A RUH - BUR\n1 : A MUN S A RUH - BUR\n1 : F HOL - BEL",
                   "carol@example.org": "SIGNON E@g1 carol-pw\n1 : F NTH - BEL"}
ALICE, BOB = "alice@example.org", "bob@example.org"


def unseen_standoff(tmp_path: Path) -> Judge:
    """Game g1 (Tin Cup) after the Fall 1901 of ``STANDOFF``: in F1901R, its mail so far read."""
    judge = start_g1(Judge(tmp_path), "BLIND")
    teleport(judge, STANDOFF)
    for address, sheet in STANDOFF_SHEETS.items():
        judge.send(address, sheet)
    with judge.db.transaction() as session:
        assert session.scalars(select(Game.phase).where(Game.name == "g1")).one() == "F1901R"
    return judge


def test_rule_6_3_movement_results_list_a_retreat_that_only_an_unseen_standoff_bars(tmp_path: Path) -> None:
    """Read in the movement phase's results, France's retreats are those of the board it sees:
    Belgium is empty there, and the standoff that bars it (HOL against NTH) is not told."""
    judge = unseen_standoff(tmp_path)
    [french] = [m for m in judge.new_mail() if m.to == ALICE and m.subject == "g1 F1901M results"]
    assert "France A BUR: may retreat to BEL\n" in french.body
    told = french.body.split("Supply centers:")[0]  # (HOL is among the centers unowned or out of sight)
    assert not {"HOL", "NTH", "bounce", "standoff"} & set(re.findall(r"[A-Za-z]+", told)), french.body
    [german] = [m for m in judge.all_mail() if m.to == BOB and m.subject == "g1 F1901M results"]
    assert "Germany: F HOL - BEL (fails: bounce)" in german.body  # Germany's own unit: told
    [chart] = [m for m in judge.all_mail() if m.subject == "g1 F1901M chart"]
    assert "France A BUR: no retreat possible" in chart.body  # the game master sees the true board


def test_rule_6_3_a_retreat_into_an_unseen_standoff_is_taken_as_any_other_and_fails_when_adjudicated(
        tmp_path: Path) -> None:
    """In the retreat phase France's STATUS lists Belgium and ``A BUR - BEL`` is answered as a
    retreat anywhere else would be (``A BUR - RUH``, the attacker's origin, which France sees,
    is still refused); the adjudication bars it, and only then is France told why."""
    judge = unseen_standoff(tmp_path)
    france = "SIGNON F@g1 alice-pw\n"
    judge.send(ALICE, france + "STATUS")
    assert "France A BUR: may retreat to BEL\n" in judge.last_to(ALICE).body
    judge.send(ALICE, france + "A BUR - RUH")
    assert ("> A BUR - RUH\n  ERROR: the unit cannot retreat to the province its attacker came from\n"
            in judge.last_to(ALICE).body)
    judge.new_mail()
    judge.send(ALICE, france + "A BUR - BEL")  # France, the only power with a retreat, has ordered
    mails = judge.new_mail()
    [answer] = [m for m in mails if m.to == ALICE and "> A BUR - BEL" in m.body]
    assert "> A BUR - BEL\n  OK: A BUR - BEL\n" in answer.body and "WARNING" not in answer.body
    [results] = [m for m in mails if m.to == ALICE and m.subject == "g1 F1901R results"]
    assert "  France: A BUR - BEL (fails: standoff)\n" in results.body
    assert "France A BUR was disbanded: its retreat to BEL failed: a standoff there barred it" in results.body
    [chart] = [m for m in mails if m.subject == "g1 F1901R chart"]
    assert ("France: A BUR - BEL (invalid: illegal - the unit cannot retreat there: the province was left empty "
            "by a standoff this turn)" in chart.body)  # the game master's chart: the true board


def test_rule_6_3_the_adjustment_phase_opens_telling_an_unordered_retreat_as_unordered_not_cornered(
        tmp_path: Path) -> None:
    """France orders no retreat: at the deadline its unit is disbanded, and the results that
    open the adjustment phase tell France it ordered none (it saw Belgium open), where the game
    master's chart tells the truth: it had nowhere to go.  France then owes one removal."""
    judge = unseen_standoff(tmp_path)
    judge.new_mail()
    judge.later(25)
    assert judge.process("g1") == "g1 F1901R processed; next W1901A"
    mails = judge.new_mail()
    [results] = [m for m in mails if m.to == ALICE and m.subject == "g1 F1901R results"]
    assert "France A BUR was disbanded: no retreat was ordered for it" in results.body
    assert "nowhere" not in results.body and "standoff" not in results.body
    [chart] = [m for m in mails if m.subject == "g1 F1901R chart"]
    assert "France A BUR was disbanded: it had nowhere to retreat to" in chart.body
    judge.send(ALICE, "SIGNON F@g1 alice-pw\nSTATUS")
    status = judge.last_to(ALICE).body
    assert "France: 3 centers, 4 units: must remove 1" in status and "standoff" not in status
