"""Secrecy by mail (X.11, E36-E40): over random Exchange phases and Springs played through the game
service, no investor's mail before the end (the judge's answers, the transfer notices, the
results with their statements, reports and records) names another investor's balance,
holdings, bids, asks, ballots or priority spending, and nobody but a corporation's CEO is sent
its worths, ledger, income or statement; its treasury only to its CEO and, in the annual report,
to its stockholders (E37).  And money is conserved at every phase (X.2).

What a mail may say of another investor is what the rules make public or the reader's own: the
investor order (E30, E36), who is a corporation's CEO (E19, E36), the stockholders' names in an
annual report and its election's tally, votes per candidate (E37), and the reader's own lines
(a deal or ballot naming someone), as written or as the judge answers them (E39)."""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from judge.games.exchange.core.income import default_worths
from judge.games.exchange.core.state import ExchangeState
from judge.payola.options import Options
from tests.games.exchange.by_mail import WORKED, address, exchange_game, game_row, master, send_as, states
from tests.support.harness import Judge, Sent

CORPORATIONS = ("FRANCE", "GERMANY", "ITALY")
_games = itertools.count(1)

ALLOWED = [
    re.compile(r"^(Investor order|investor order|Investors, in the investor order)[^:]*: [A-Z, ]+$"),
    re.compile(r"^[A-Z][a-z]+: CEO [A-Z]+( for \d{4})?; \d+ shares issued"),  # E36
    re.compile(r"^[A-Z][a-z]+ \(CEO [A-Z]+\): \d+ centers?, units"),  # the board, E36
    re.compile(r"^[A-Z][a-z]+ \(CEO [A-Z]+\): \d+ centers?, \d+ units?: (may build|must remove) "),  # the same
    re.compile(r"^[A-Z][a-z]+: treasury \d+ AgP; stockholders: [A-Z, ]+$"),  # E37: names only
    re.compile(r"^election \(votes per candidate, E19\): ([A-Z]+ \d+(, )?)+$"),  # E37: the tally
    re.compile(r"^CEO for the year: [A-Z]+$"),
    # a ledger line, its CEO's alone (E38):
    re.compile(r"^[SFW]\d{4}[MRAIX] +[+-]\d+ +(\d+ shares? from the pool to [A-Z]+ at \d+ AgP \(E8, E9\)|"
               r"\d+ shares? bought back from [A-Z]+ at \d+ AgP \(E12\)|donation from [A-Z]+ \(E5\))$"),
]
"""The lines that may name another investor (see the module's header): public ones, and those of a
corporation's ledger, which goes to its CEO alone (E38: pool sales and buy-backs with the buyer
and price; donations), as the test checks below."""


def sheets_1900(data: st.DataObject) -> dict[str, list[str]]:
    """Every investor's random Exchange sheet: priority, bids for three corporations, ballots, and a
    LEDGER line (refused: nobody is a CEO yet)."""
    sheets = {}
    for name in WORKED:
        lines = [f"PRIORITY {data.draw(st.integers(0, 4))}"]
        for corporation in data.draw(st.lists(st.sampled_from(CORPORATIONS), max_size=3, unique=True)):
            lines.append(f"BID {data.draw(st.integers(1, 6))} {corporation} AT {data.draw(st.integers(1, 6))}")
        for corporation in CORPORATIONS:
            lines.append(f"ELECT {corporation} {data.draw(st.sampled_from((*WORKED, 'ME', 'NONE')))}")
        if data.draw(st.booleans()):
            lines.append("GIVE 1 FRANCE TO " + data.draw(st.sampled_from([n for n in WORKED if n != name])))
        sheets[name] = lines
    return sheets


def sheets_1901(data: st.DataObject, state: ExchangeState) -> dict[str, list[str]]:
    """Every investor's random Spring sheet: a private offer, LEDGER of a random corporation, a
    transfer, and for each corporation they are CEO of its block: random worths (or none) and
    offers for its units."""
    sheets = {}
    for name in WORKED:
        unit = data.draw(st.sampled_from(["A MUN - RUH", "A PAR - BUR", "A VEN - TYR", "F KIE - HOL"]))
        lines = [f"{data.draw(st.integers(1, 3))} : {unit}", f"LEDGER {data.draw(st.sampled_from(CORPORATIONS))}"]
        if data.draw(st.booleans()):
            lines.append(f"TRANSFER 1 TO {data.draw(st.sampled_from([n for n in WORKED if n != name]))}")
        for corporation in CORPORATIONS:
            if state.ceos.get(corporation) != name:
                continue
            lines.append(f"FOR {corporation}")
            centers = sorted(state.position.centers_of(corporation))
            if data.draw(st.booleans()):
                worths = default_worths(centers, 18, Options())
                move = data.draw(st.integers(0, worths[centers[0]]))
                worths[centers[0]] -= move
                worths[centers[-1]] += move
                lines.append("WORTH " + " ".join(f"{c} {w}" for c, w in worths.items()))
            units = state.position.units_of(corporation)
            lines += [f"{data.draw(st.integers(0, 2))} : {placed.unit} H" for placed in units]
            lines.append("END")
        sheets[name] = lines
    return sheets


@pytest.fixture(scope="module")
def judge(tmp_path_factory: pytest.TempPathFactory) -> Judge:
    return Judge(Path(tmp_path_factory.mktemp("judge")))


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_E36_E40_no_investors_mail_tells_anothers_secrets_or_a_corporations_records_but_to_its_ceo(
        judge: Judge, data: st.DataObject) -> None:
    game = f"sec{next(_games)}"
    judge.later(25)  # a day later: the judge's daily limits on one address (creates, joins, answers) start again
    judge.new_mail()
    exchange_game(judge, game, order=WORKED)
    sheets = {name: list(lines) for name, lines in sheets_1900(data).items()}
    for name in WORKED:
        send_as(judge, game, name, *sheets[name])
    assert game_row(judge, game)[1] == "S1901M"
    ceos = dict(dict(states(judge, game))["W1900X"].ceos)
    holders = {c: set(held) for c, held in dict(states(judge, game))["W1900X"].register.holdings.items()}
    spring = sheets_1901(data, dict(states(judge, game))["S1901M"])
    for name in WORKED:
        send_as(judge, game, name, *spring[name])
        sheets[name] += spring[name]
    if game_row(judge, game)[1] == "S1901M":  # no CEO to wait for: the game master closes it
        master(judge, game, "PROCESS")
    assert game_row(judge, game)[1] == "F1901M"
    sent = judge.new_mail()
    for name in WORKED:
        for mail in (m for m in sent if m.to == address(name)):
            check_mail(mail, name, sheets[name], ceos, holders)
    for _, state in states(judge, game):
        assert sum(state.purses.values()) + sum(state.treasuries.values()) + state.destroyed == state.minted == 180
        assert min(state.purses.values()) >= 0 and min(state.treasuries.values()) >= 0


def check_mail(mail: Sent, reader: str, own: list[str], ceos: dict[str, str], holders: dict[str, set[str]]) -> None:
    """The rules of the module's header, line by line."""
    others = [n for n in WORKED if n != reader]
    written = [line.upper() for line in own]
    for raw in mail.body.splitlines():
        line = raw.strip()
        if line.startswith("> ") or not any(re.search(rf"\b{other}\b", line) for other in others):
            continue
        said = re.sub(r"^(OK|ERROR|IGNORED): ", "", line)
        spelled = re.sub(r"^\[[A-Za-z ]+\] ", "", said)
        if any(p.match(line) for p in ALLOWED) or any(spelled.startswith(w) for w in written):
            continue
        if re.match(r"^(read as: |1 AgP sent to [A-Z]+; your balance)", said) or re.match(
                r"^([+-]1 AgP (from|to) [A-Z]+|Game sec\d+: [A-Z]+ transferred 1 AgP to you .*)$", line):
            continue  # the judge's reading of the reader's own line; a transfer of theirs, or to them
        pytest.fail(f"{reader}'s mail '{mail.subject}' names another investor: {line!r}")
    for corporation, ceo in ((c, ceos.get(c)) for c in CORPORATIONS):
        name = corporation.title()
        if ceo != reader:
            for secret in (f"{name}'s treasury", f"{name}'s ledger", f"{name}'s worths", f"{name} earned",
                           f"{name}'s statement", f"You are {name}'s CEO"):
                assert secret not in mail.body, (reader, mail.subject, secret)
        if reader not in holders.get(corporation, set()):
            assert not re.search(rf"^\s*{name}: treasury \d+ AgP", mail.body, re.M), (reader, mail.subject)
