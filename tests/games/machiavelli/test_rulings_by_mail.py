"""Rulings M36 (revised), M61, M62 and M64, and the letters' acknowledgment, BORDERS and a siege's
report, played by mail through the game service; the sums and outcomes worked out by hand.

**Absence of Plague** (`aop`): the Papacy, Ferrara, Venice, Savoy and Florence are played, the
eight other countries are dummies.

* SP1459A (15 ducats each, AoP 3): Savoy gives Venice 15 (A.4): Venice 30; the Papacy raises an
  army in Perugia, Ferrara one in Bologna, Florence one in Pisa (3 ducats each: 12 left).
* SP1459C: Venice assassinates Ferrara's leader for 30 (no bodyguard: 30 above nothing, 10);
  Ferrara ordered ``A bol - pra``: its army holds, and the order is disclosed to nobody (M61).
  The Papacy buys Siena's independent garrison for 9 (12 a's minimum) from its army in Perugia
  next door, the garrison standing alone in its province (M36 revised): 12 - 9 = 3.  Florence's
  first letter holds a transfer of 0, two orders for its army, an order for the Pope's army
  and one for an army it does not have: each line is answered with its warning; its correction
  advances into Lucca (whose garrison keeps the city), the transfer of 0 standing (17.1) and
  refused in D.1 for M31's reason.
* SU1459C and FA1459C: Florence besieges Lucca twice (9.4): the independent garrison is
  destroyed, and reported so, not as holding unbribed.
* SP1460A: Florence raises an army in Firenze and lists no payment for its army in Lucca: the
  answer warns that it would be disbanded (M12).

**The classic board** (three players, Florence, Milan, Venice): Florence's player resigns in
SP1454A and nobody takes it over: Florence is eliminated when the Spring campaign ends (M62);
Venice's resigns too, after voting, and a substitute takes it over in time: it plays on, its
vote withdrawn.  In another game the three vote: a draw that one player does not vote for ends
nothing; when all three vote DRAW in the Summer, the game ends with that campaign (M64).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from sqlalchemy import select

from judge.games.machiavelli import lifecycle
from judge.games.machiavelli.core.board import load_board
from judge.games.machiavelli.core.existence import Proposal
from judge.games.machiavelli.core.position import Independent, Phase, Position
from judge.games.machiavelli.core.results import Reason
from judge.games.machiavelli.core.review import Caution, Caveat
from judge.language import worded
from judge.store.models import Game
from tests.support.harness import Answer, Judge, Sent

GM = "gm@example.org"
WATCHER = "watcher@example.org"
AOP = load_board("aop")


def address(country: str) -> str:
    return f"{country.lower()}@example.org"


def password(country: str) -> str:
    return f"pw-{country.lower()}"


@dataclass
class Table:
    """A game played by mail, and what the judge made of each mail kept by name."""

    judge: Judge
    game: str
    answers: dict[str, list[Answer]] = field(default_factory=dict)
    replies: dict[str, Sent] = field(default_factory=dict)
    mails: dict[str, list[Sent]] = field(default_factory=dict)

    def send(self, name: str, country: str, *lines: str) -> Sent:
        """``country``'s mail of ``lines``, kept as ``name``; the judge's answer."""
        self.judge.send(address(country), "\n".join((f"SIGNON {country}@{self.game} {password(country)}", *lines)))
        self.answers[name] = list(self.judge.answers)
        self.replies[name] = self.judge.last_to(address(country))
        return self.replies[name]

    def master(self, *lines: str) -> Sent:
        self.judge.send(GM, "\n".join((f"SIGNON MASTER@{self.game} gm-pw", *lines)))
        return self.judge.last_to(GM)

    def process(self, step: str) -> None:
        """The game master's PROCESS; every mail it sent kept as ``step``."""
        self.master("PROCESS")
        self.mails[step] = self.judge.new_mail()

    def outcome_of(self, name: str, line: str) -> tuple[str, str | None]:
        found = [(a.outcome, a.code) for a in self.answers[name] if a.text == line]
        assert found, f"no answer to {line!r} in {name!r}"
        return found[-1]

    def results(self, step: str, country: str) -> str:
        (mail,) = [m for m in self.mails[step] if m.to == address(country) and m.subject.endswith("results")]
        return mail.body

    def state(self) -> tuple[Game, Position]:
        with self.judge.db.transaction() as session:
            game = session.scalars(select(Game).where(Game.name == self.game)).one()
            position = lifecycle.position_now(session, game)
            session.expunge(game)
        assert position is not None
        return game, position


def started(judge: Judge, game: str, scenario: str, countries: tuple[str, ...]) -> Table:
    judge.send(GM, f"CREATE {game} gm-pw machiavelli {scenario}")
    for country in countries:
        judge.send(address(country), f"JOIN {game} {password(country)} {country}")
    judge.send(WATCHER, f"OBSERVE {game}")
    table = Table(judge, game)
    table.master("START")
    judge.new_mail()
    return table


# -- Absence of Plague ---------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def plague(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Table]:
    table = started(Judge(tmp_path_factory.mktemp("plague")), "plague", "aop",
                    ("Papacy", "Ferrara", "Venice", "Savoy", "Florence"))
    table.send("savoy A", "Savoy", "transfer 15 to Venice")
    table.send("papacy A", "Papacy", "raise A per")
    table.send("ferrara A", "Ferrara", "raise A bol")
    table.send("florence A", "Florence", "raise A pis")
    table.process("SP1459A")
    table.send("venice C", "Venice", "assassinate Ferrara 30")
    table.send("ferrara C", "Ferrara", "A bol - pra")
    table.send("papacy C", "Papacy", "bribe 9 buy G sie")
    table.send("florence C 1", "Florence", "transfer 0 to Venice", "A pis - luc", "A pis H", "A per H", "A fir H")
    table.send("florence C 2", "Florence", "A pis - luc")
    table.send("borders", "Florence", "BORDERS Siena", "BORDERS xyz")
    table.process("SP1459C")
    table.send("florence SU", "Florence", "A luc besiege")
    table.process("SU1459C")
    table.send("florence FA", "Florence", "A luc besiege")
    table.process("FA1459C")
    table.send("florence SP1460A", "Florence", "raise A fir")
    yield table


def test_M36_a_lone_1459_garrison_is_bought_from_the_army_next_door(plague: Table) -> None:
    public = plague.results("SP1459C", "Florence")
    assert "independent G Siena (sie) now belongs to Papacy" in public
    assert "  bribe 9 buy G Siena (sie) (D.4): carried out, charged 9 ducats" in plague.results("SP1459C", "Papacy")
    _, position = plague.state()
    assert position.garrison("sie") is not None and position.garrison("sie").owner == "Papacy"  # type: ignore[union-attr]


def test_M61_the_assassinated_countrys_orders_are_disclosed_to_nobody(plague: Table) -> None:
    assert plague.outcome_of("ferrara C", "A bol - pra") == ("ok", "READ")
    for country in ("Papacy", "Venice", "Savoy", "Florence", "Ferrara"):
        results = plague.results("SP1459C", country)
        assert "Ferrara A Bologna (bol) H: its leader was assassinated" in results
        assert "bol - pra" not in results and "Ferrara A Bologna (bol), carried out as" not in results
    watcher = [m.body for m in plague.mails["SP1459C"] if m.to == WATCHER]
    assert watcher and all("bol - pra" not in body for body in watcher)


def test_a_letters_answer_warns_of_what_may_still_be_corrected(plague: Table) -> None:
    assert plague.outcome_of("florence C 1", "transfer 0 to Venice") == ("ok", "NO_DUCATS")
    assert plague.outcome_of("florence C 1", "A pis - luc") == ("ok", "READ")
    assert plague.outcome_of("florence C 1", "A pis H") == ("ok", "TWO_ORDERS")
    assert plague.outcome_of("florence C 1", "A per H") == ("ok", "NOT_YOURS")
    assert plague.outcome_of("florence C 1", "A fir H") == ("ok", "NO_SUCH_UNIT")
    assert plague.outcome_of("florence C 2", "A pis - luc") == ("ok", "READ")
    kept = "Kept from your first letter: transfer 0 to Venice\n    WARNING: " + str(Caution(0, Caveat.NO_DUCATS))
    assert kept in plague.replies["florence C 2"].body  # the transfer stands (17.1), and is warned of where it is told
    assert plague.outcome_of("papacy C", "bribe 9 buy G sie") == ("ok", "READ")
    assert plague.outcome_of("florence SP1460A", "raise A fir") == ("ok", "LEFT_OFF")  # A luc would be disbanded


def test_M31_a_transfer_of_0_kept_from_the_first_letter_is_refused_for_its_own_reason(plague: Table) -> None:
    florence = plague.results("SP1459C", "Florence")
    assert f"transfer 0 to Venice (D.1): not carried out, not charged: {Reason.NO_DUCATS.value}" in florence
    assert Reason.WRONG_AMOUNT.value not in florence


def test_9_4_the_garrison_a_completed_siege_destroys_is_reported_destroyed(plague: Table) -> None:
    public = plague.results("FA1459C", "Papacy")
    assert f"independent G Lucca (luc) H: {Reason.SIEGE.value}" in public
    held = [line for line in public.splitlines() if "held, unbribed" in line]
    assert held and all("G Lucca (luc)" not in line for line in held)
    _, position = plague.state()
    assert position.garrison("luc") is None and position.controller("luc") == "Florence"


def test_borders_answers_from_the_boards_own_data(plague: Table) -> None:
    assert plague.outcome_of("borders", "BORDERS Siena") == ("ok", None)
    assert plague.outcome_of("borders", "BORDERS xyz") == ("error", "UNKNOWN_AREA")
    reply = plague.judge.all_mail()
    body = next(m.body for m in reversed(reply) if m.to == address("Florence") and "BORDERS Siena" in m.body)
    listed = [line.split()[0] for line in body.splitlines() if line.startswith("    ") and ":" in line]
    assert listed == [border.area for border in AOP.borders("sie")]


# -- the classic board: leaving (M62) ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def leaving(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Table]:
    table = started(Judge(tmp_path_factory.mktemp("leaving")), "exodus", "classic", ("Florence", "Milan", "Venice"))
    table.send("florence resigns", "Florence", "RESIGN")
    table.mails["resigned"] = table.judge.new_mail()
    table.judge.send(WATCHER, "LIST exodus")
    table.replies["list"] = table.judge.last_to(WATCHER)
    table.send("venice votes", "Venice", "VOTE DRAW")
    table.send("venice resigns", "Venice", "RESIGN")
    table.judge.send("dan@example.org", "TAKEOVER Venice@exodus pw-dan")
    table.process("SP1454A")
    table.process("SP1454C")
    yield table


def test_M62_everyone_is_told_the_country_left_without_a_leader_is_eliminated_unless_taken_over(
        leaving: Table) -> None:
    told = [m for m in leaving.mails["resigned"] if "M62" in m.body]
    assert {m.to for m in told} >= {address("Milan"), address("Venice"), GM, WATCHER}
    for mail in (m for m in told if m.to != address("Florence")):  # the resignation first, then what AoP makes of it
        assert mail.subject.endswith("the player of Florence resigned (and more)"), mail.subject
        assert mail.body.index("the player of Florence resigned") < mail.body.index("Florence has no leader"), mail.body
    assert leaving.outcome_of("florence resigns", "RESIGN")[0] == "ok"
    assert "Florence: vacant, open for TAKEOVER" in leaving.replies["list"].body  # until the campaign ends


def test_M62_the_country_nobody_took_over_is_eliminated_when_the_campaign_ends_the_other_plays_on(
        leaving: Table) -> None:
    _, position = leaving.state()
    assert set(position.eliminated) == {"Florence"}
    assert {u.owner for u in position.units.values() if u.area in ("flo", "are", "psa")} == {
        Independent("flo"), Independent("are"), Independent("psa")}
    public = leaving.results("SP1454C", "Milan")
    assert f"Eliminated (4.3):\n  Florence: {Reason.LEFT_THE_GAME.value}" in public
    assert "Eliminated" not in leaving.results("SP1454A", "Milan")  # the spring letter does not end the campaign


def test_M62_a_country_eliminated_at_the_campaigns_end_is_no_longer_open_for_a_substitute(tmp_path: Path) -> None:
    """M62: the country of a player who left is open for TAKEOVER "until the campaign ends"; then
    it is eliminated (4.3) and no substitute can lead it: Florence, left in SP1454A and nobody's
    by the end of SP1454C, is refused to a newcomer, and LIST no longer offers it."""
    table = started(Judge(tmp_path), "exile", "classic", ("Florence", "Milan"))
    table.send("florence resigns", "Florence", "RESIGN")
    table.process("SP1454A")
    table.process("SP1454C")
    _, position = table.state()
    assert "Florence" in position.eliminated
    table.judge.send("dan@example.org", "TAKEOVER Florence@exile pw-dan\nLIST exile")
    answers = {a.text: (a.outcome, a.code) for a in table.judge.answers}
    assert answers["TAKEOVER Florence@exile ****"] == ("error", "LEFT_THE_GAME"), answers
    refused = table.judge.last_to("dan@example.org").body
    assert "Florence was eliminated in Spring 1454 (4.3): no one can lead it again" in refused, refused
    assert "open for TAKEOVER" not in refused, refused  # LIST's answer, in the same mail


def test_M62_a_rollback_of_the_campaign_that_eliminated_a_country_opens_it_to_a_substitute_again(
        tmp_path: Path) -> None:
    """M62 closes an eliminated country to a substitute; the game master's ROLLBACK of the campaign
    that eliminated it brings SP1454C back as it was before, Florence alive and still "open for
    TAKEOVER until the campaign ends": a newcomer takes it over."""
    table = started(Judge(tmp_path), "exile", "classic", ("Florence", "Milan"))
    table.send("florence resigns", "Florence", "RESIGN")
    table.process("SP1454A")
    table.process("SP1454C")
    table.master("ROLLBACK")
    game, position = table.state()
    assert game.phase == "SP1454C" and not position.eliminated
    table.judge.send("dan@example.org", "LIST exile\nTAKEOVER Florence@exile pw-dan")
    [listed] = [m.body for m in table.judge.all_mail() if m.to == "dan@example.org" and "> LIST exile" in m.body]
    assert "Florence: vacant, open for TAKEOVER" in listed
    answers = {a.text: (a.outcome, a.code) for a in table.judge.answers}
    assert answers["TAKEOVER Florence@exile ****"][0] == "ok", answers


def test_4_3_the_eliminated_countrys_statement_says_its_treasury_went_at_the_campaigns_end(leaving: Table) -> None:
    """4.3: "The treasury ... of the eliminated power [is] removed from the game" at the end of the
    campaign season.  Florence, a dummy from the first spring, paid its three units by default
    (M12, M50): 15 - 3 x 3 = 6 ducats, all removed when SP1454C ended; its statement (the game
    master's copy) says so in words, not as a sub-phase's code."""
    statement = leaving.results("SP1454C", "gm").partition("Florence:\n")[2].partition("\n\n")[0]
    assert "Your treasury: 6 ducats before, 0 ducats now." in statement, statement
    assert "  -6 confiscated at the campaign's end: eliminated (4.3)" in statement, statement


def test_M64_a_countrys_vote_is_its_players_a_substitute_starts_with_none(leaving: Table) -> None:
    game, _ = leaving.state()
    assert lifecycle.vote_of(game, "Venice")[0] is None


# -- the classic board: ending by agreement (M64) ----------------------------------------------------------------


@pytest.fixture(scope="module")
def voting(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Table]:
    table = started(Judge(tmp_path_factory.mktemp("voting")), "concord", "classic", ("Florence", "Milan", "Venice"))
    table.process("SP1454A")
    table.send("florence draw", "Florence", "VOTE DRAW")
    table.mails["florence voted"] = table.judge.new_mail()
    table.send("milan draw", "Milan", "VOTE DRAW")
    table.send("venice concedes", "Venice", "VOTE CONCEDE Milan", "VOTE CONCEDE Naples", "STATUS")
    table.process("SP1454C")
    table.send("venice draw", "Venice", "VOTE DRAW")
    table.process("SU1454C")
    table.send("after", "Milan", "VOTE NONE")
    yield table


def test_M64_a_vote_is_answered_to_its_voter_alone(voting: Table) -> None:
    assert voting.outcome_of("florence draw", "VOTE DRAW") == ("ok", None)
    assert [m.to for m in voting.mails["florence voted"]] == [address("Florence")]  # its answer, nothing else
    assert voting.outcome_of("venice concedes", "VOTE CONCEDE Milan") == ("ok", None)
    assert voting.outcome_of("venice concedes", "VOTE CONCEDE Naples") == ("error", "NOT_A_VOTER")  # a dummy


def test_M64_votes_for_different_ends_end_nothing_and_stay_secret(voting: Table) -> None:
    for country in ("Florence", "Milan", "Venice"):
        results = voting.results("SP1454C", country)
        assert "M64" not in results and "vote" not in results.lower(), results
    assert "SU1454C" in voting.results("SP1454C", "Milan")  # the game goes on


def test_M64_the_campaign_in_which_every_surviving_player_votes_draw_ends_the_game_in_a_draw(voting: Table) -> None:
    game, position = voting.state()
    assert game.state == "finished" and game.winner is None and position.phase is Phase.OVER
    assert worded(game.settings["result"]).startswith("a draw among all surviving countries in Summer 1454")
    public = voting.results("SU1454C", "Florence")
    assert "Draw (M64)" in public and "1. Naples" in public  # a dummy survives, and shares first place
    assert voting.outcome_of("after", "VOTE NONE") == ("error", "GAME_ENDED")
    assert lifecycle.vote_of(game, "Milan")[0] == Proposal()


def test_M64_a_rollback_brings_the_votes_back_as_they_stood(tmp_path: Path) -> None:
    """M64's votes are the game's state as much as its letters: Florence votes DRAW in SP1454C, which
    is then carried out; in SU1454C Milan votes DRAW and Florence withdraws. A ROLLBACK to SP1454C
    brings back the votes that stood as it was carried out (Florence's DRAW, Milan none), as it brings
    back its letters; one to SP1454A, before any vote, brings back none."""
    table = started(Judge(tmp_path), "undo", "classic", ("Florence", "Milan", "Venice"))
    table.process("SP1454A")
    table.send("florence draw", "Florence", "VOTE DRAW")
    table.process("SP1454C")
    table.send("milan draw", "Milan", "VOTE DRAW")
    table.send("florence withdraws", "Florence", "VOTE NONE")
    table.master("ROLLBACK SP1454C")
    game, _ = table.state()
    assert game.phase == "SP1454C"
    assert (lifecycle.vote_of(game, "Florence")[0], lifecycle.vote_of(game, "Milan")[0]) == (Proposal(), None)
    table.master("ROLLBACK SP1454A")
    game, _ = table.state()
    assert [lifecycle.vote_of(game, country)[0] for country in ("Florence", "Milan", "Venice")] == [None] * 3


def test_M64_a_rollback_gives_no_substitute_the_vote_of_the_player_before(tmp_path: Path) -> None:
    """M64: a country's vote is its player's. Venice votes DRAW in SP1454C, which is carried out;
    an hour later its player resigns in SU1454C and a substitute takes it over. A ROLLBACK to SP1454C does not
    give the substitute the vote its predecessor cast: Venice has none."""
    table = started(Judge(tmp_path), "heir", "classic", ("Florence", "Milan", "Venice"))
    table.process("SP1454A")
    table.send("venice draw", "Venice", "VOTE DRAW")
    table.process("SP1454C")
    table.judge.later(1)
    table.send("venice resigns", "Venice", "RESIGN")
    table.judge.send("dan@example.org", "TAKEOVER Venice@heir pw-dan")
    assert table.judge.answers[-1].outcome == "ok", table.judge.answers
    table.master("ROLLBACK SP1454C")
    game, _ = table.state()
    assert game.phase == "SP1454C" and lifecycle.vote_of(game, "Venice")[0] is None


def test_M64_rollforward_is_refused_once_a_vote_changed_since_the_rollback(tmp_path: Path) -> None:
    """ROLLFORWARD processes the phase again as it was rolled back: Florence's DRAW stands again after a
    ROLLBACK to SP1454C; once Milan votes DRAW and Florence withdraws, ROLLFORWARD would discard both
    changes, so it is refused, saying that 2 votes changed but not whose (votes are secret, M64).
    Once Milan withdraws and Florence votes DRAW again, nothing it would discard has changed, and it
    processes SP1454C again."""
    table = started(Judge(tmp_path), "fwd", "classic", ("Florence", "Milan", "Venice"))
    table.process("SP1454A")
    table.send("florence draw", "Florence", "VOTE DRAW")
    table.process("SP1454C")
    table.master("ROLLBACK")
    table.send("milan draw", "Milan", "VOTE DRAW")
    table.send("florence withdraws", "Florence", "VOTE NONE")
    refused = table.master("ROLLFORWARD").body
    assert table.judge.outcome_of("ROLLFORWARD") == ("error", "CHANGED_SINCE_ROLLBACK")
    assert "since the ROLLBACK, 2 votes on the game's end changed, which ROLLFORWARD would discard" in refused
    assert "Milan" not in refused and "Florence" not in refused
    assert table.state()[0].phase == "SP1454C"
    table.send("milan withdraws", "Milan", "VOTE NONE")
    table.send("florence draw again", "Florence", "VOTE DRAW")
    table.master("ROLLFORWARD")
    assert table.judge.outcome_of("ROLLFORWARD")[0] == "ok"
    game, _ = table.state()
    assert game.phase == "SU1454C" and lifecycle.vote_of(game, "Florence")[0] == Proposal()


def test_M64_the_end_publication_and_the_places_give_the_draw_its_shared_first_place(voting: Table) -> None:
    """M63's publication and the hall of fame's places follow how the game ended: a draw (M64)
    "shares first place among the survivors", so every surviving country, Naples the dummy too,
    is 1st in both, and the publication says it was a draw, not that nobody won."""
    with voting.judge.db.transaction() as session:
        game = session.scalars(select(Game).where(Game.name == voting.game)).one()
        published = lifecycle.publication(session, game).lines
        places = lifecycle.ranking(session, game)
        survivors = lifecycle.position_now(session, game).living(lifecycle.board_of(game).powers)  # type: ignore[union-attr]
    end = list(published[published.index("=== The end ==="):])
    assert any(line.startswith("Draw (M64): the surviving players all voted for a draw") for line in end), end
    assert "Nobody won." not in end
    assert {standing.seat for standing in places if standing.place == 1} == set(survivors) >= {"Naples", "Milan"}
    assert all(f"  1. {country}:" in "\n".join(end) for country in survivors), end
