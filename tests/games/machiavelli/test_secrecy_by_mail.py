"""Secrecy by mail, over random letters (AoP 2, 8.1, 8.2): three players write random spring and
campaign letters on the classic board; whatever they write, no player's mail names another's
expenditures, spring orders or treasury, nor, before the results publish the operations, another's
operation orders; each results mail holds its reader's own statement and nobody else's; and
every line of every letter is answered."""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from judge.games.machiavelli.core.board import load_board
from judge.games.machiavelli.core.position import UnitKind
from tests.strength import examples
from tests.support.harness import Judge, Sent

BOARD = load_board("classic")
GM = "gm@example.org"
PLAYERS = {"Florence": "ann", "Milan": "bob", "Venice": "cy"}
UNITS = {country: [u for u in BOARD.start.units.values() if u.owner == country] for country in PLAYERS}
LAND = sorted(code for code, area in BOARD.areas.items() if area.is_land)
_games = itertools.count(1)


def address(country: str) -> str:
    return f"{PLAYERS[country]}@example.org"


def others(country: str) -> list[str]:
    return [c for c in BOARD.powers if c != country]


def spring_order(country: str) -> st.SearchStrategy[str]:
    units = [f"{u.kind.value} {u.area}" for u in UNITS[country]]
    home = sorted(BOARD.home_country(country))
    return st.one_of(
        st.builds("transfer {} to {}".format, st.integers(1, 9), st.sampled_from(others(country))),
        st.builds("pay {}".format, st.sampled_from(units)),
        st.builds("raise {} {}".format, st.sampled_from("AFG"), st.sampled_from(home)),
        st.builds("tax {}".format, st.sampled_from(home)),
        st.builds("sell {} to {} for {}".format, st.sampled_from(home), st.sampled_from(others(country)),
                  st.integers(1, 9)),
        st.just("pay A xyz"),
    )


def campaign_order(country: str) -> st.SearchStrategy[str]:
    def operations(unit: str) -> st.SearchStrategy[str]:
        kind, area = unit.split()
        if kind == UnitKind.GARRISON.value:
            return st.sampled_from([f"{unit} H", f"{unit} C A"])
        near = sorted(BOARD.army_edges[area] if kind == "A" else
                      {to.area for at in BOARD.fleet_locations(area) for to in BOARD.fleet_edges.get(at, ())})
        return st.one_of(st.just(f"{unit} H"), st.builds(f"{unit} - {{}}".format, st.sampled_from(near)),
                         st.builds(f"{unit} S {{}}".format, st.sampled_from(near)), st.just(f"{unit} B"))

    units = [f"{u.kind.value} {u.area}" for u in UNITS[country]]
    targets = [f"{u.kind.value} {u.area}" for u in BOARD.start.units.values() if u.owner != country]
    return st.one_of(
        st.sampled_from(units).flatmap(operations),
        st.builds("transfer {} to {}".format, st.integers(1, 6), st.sampled_from(others(country))),
        st.builds("bodyguard {}".format, st.sampled_from([3, 6])),
        st.builds("assassinate {} {}".format, st.sampled_from(others(country)), st.sampled_from([30, 33])),
        st.builds("bribe {} {} {}".format, st.sampled_from([3, 6, 9, 12]), st.sampled_from(["buy", "disband",
                  "independent", "operate"]), st.sampled_from(targets)),
        st.builds("counter-bribe {} {}".format, st.sampled_from([3, 6]), st.sampled_from(targets + units)),
        st.builds("rebellion {}".format, st.sampled_from(LAND)),
        st.builds("pacify {}".format, st.sampled_from(LAND)),
    )


def letters(phase: str) -> st.SearchStrategy[dict[str, list[str]]]:
    make = spring_order if phase == "A" else campaign_order
    return st.fixed_dictionaries({country: st.lists(make(country), min_size=1, max_size=6) for country in PLAYERS})


@pytest.fixture(scope="module")
def judge(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Judge]:
    found = Judge(tmp_path_factory.mktemp("secrecy"), max_creates_per_day=100, max_creates_per_hour=100,
                  max_joins_per_day=1000, max_replies_per_hour=10000, max_confirmations_per_day=100)
    found.confirmed(GM, *map(address, PLAYERS))
    yield found


def send(judge: Judge, country: str, game: str, lines: list[str]) -> Sent:
    judge.send(address(country), "\n".join((f"SIGNON {country}@{game} pw-{PLAYERS[country]}", *lines)))
    return [m for m in judge.all_mail() if m.to == address(country) and m.subject.startswith("Re:")][-1]


def answered(reply: Sent, line: str) -> bool:
    return re.search(rf"^> {re.escape(line)}\n  (OK|ERROR|IGNORED): ", reply.body, re.M) is not None


@settings(max_examples=examples(30), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture],
          phases=[Phase.explicit, Phase.reuse, Phase.generate])  # no shrinking: each example is a game by mail
@given(spring=letters("A"), campaign=letters("C"))
def test_8_1_no_players_mail_names_anothers_treasury_expenditures_or_orders(
        judge: Judge, spring: dict[str, list[str]], campaign: dict[str, list[str]]) -> None:
    game = f"s{next(_games)}"
    judge.send(GM, f"CREATE {game} gm-pw machiavelli")
    for country, name in PLAYERS.items():
        judge.send(address(country), f"JOIN {game} pw-{name} {country}")
    judge.send(GM, f"SIGNON MASTER@{game} gm-pw\nSTART")
    judge.new_mail()
    mails: dict[str, list[Sent]] = {country: [] for country in PLAYERS}
    for phase, written in (("SP1454A", spring), ("SP1454C", campaign)):
        results: list[Sent] = []
        for country, lines in written.items():
            reply = send(judge, country, game, lines)
            assert all(answered(reply, line) for line in lines), reply.body
            fresh = judge.new_mail()
            results += [m for m in fresh if m.subject == f"{game} {phase} results"]
            for writer in PLAYERS:  # nothing of a letter reaches another player but its results
                for mail in (m for m in fresh if m.to == address(writer) and writer != country):
                    assert not any(line in mail.body for line in lines if line not in written[writer]) or (
                        mail in results)
            mails[country] += [m for m in fresh if m.to == address(country) and m not in results]
        if not results:  # a letter had no readable order: the phase waits for its deadline, or the master
            judge.send(GM, f"SIGNON MASTER@{game} gm-pw\nPROCESS")
            results = [m for m in judge.new_mail() if m.subject == f"{game} {phase} results"]
        assert len(results) == len(PLAYERS) + 1  # every player, and the game master (no observer here)
        for country in PLAYERS:
            mine = [m for m in results if m.to == address(country)]
            assert len(mine) == 1 and re.findall(r"^For (\w+) alone:$", mine[0].body, re.M) == [country]
            mails[country] += mine
    for country, received in mails.items():
        text = "\n".join(mail.body for mail in received)
        for other in (c for c in PLAYERS if c != country):
            mine = set(spring[country]) | set(campaign[country])
            secret = [line for line in spring[other] + campaign[other]
                      if line not in mine and not re.match(r"[AFG] ", line)]  # operations are published in F
            assert not [line for line in secret if line in text], (country, other)
            assert not re.search(rf"^.*\b{other}\b.*\btreasur.*$", text, re.M | re.I), (country, other)
