"""X.4: elections of CEOs (rulings E14-E19)."""

from __future__ import annotations

from judge.games.exchange.core.accounts import resign
from judge.games.exchange.core.phases import Expected, expected
from judge.games.exchange.core.record import ExchangeRecord, Outcome, Reason
from judge.games.exchange.core.sheet import ME, Bid, Elect, Refusal, check, exactly
from judge.games.exchange.core.state import Stage
from judge.games.exchange.core.views import public_exchange
from tests.games.exchange.game import F, G, actions_of, at_exchange, exchange, sheet


def _france(record: ExchangeRecord) -> tuple[tuple[tuple[str, int], ...], str | None, Reason]:
    election = next(e for e in record.elections if e.corporation == F)
    return election.tally, election.winner, election.reason


def test_E14_one_vote_a_share_and_the_pool_does_not_vote() -> None:
    state = at_exchange({F: {"ANN": 3, "BOB": 2}})  # 5 in the pool
    after, record = exchange(state, sheet("ANN", Elect(F, ME)), sheet("BOB", Elect(F, ME)))
    assert _france(record) == ((("ANN", 3), ("BOB", 2)), "ANN", Reason.PLURALITY)
    assert after.ceos[F] == "ANN"


def test_E14_a_later_ballot_replaces_an_earlier_one_and_shares_bought_in_the_auction_vote() -> None:
    # CAT buys 4 of the pool at the auction (France is leaderless: its pool is asked at 1) and votes them.
    state = at_exchange({F: {"ANN": 3, "BOB": 2}})
    _, record = exchange(state, sheet("ANN", Elect(F, "BOB"), Elect(F, ME)), sheet("BOB", Elect(F, ME)),
                         sheet("CAT", Bid(exactly(4), F, 1), Elect(F, ME)))
    assert _france(record) == ((("CAT", 4), ("ANN", 3), ("BOB", 2)), "CAT", Reason.PLURALITY)
    assert actions_of(record, "ANN", Elect(F, "BOB"))[0].reason is Reason.REPLACED
    assert actions_of(record, "CAT", Elect(F, ME))[0].shares == 4


def test_E15_votes_for_an_investor_holding_no_share_are_void() -> None:
    state = at_exchange({F: {"ANN": 3, "BOB": 2}})
    _, record = exchange(state, sheet("ANN", Elect(F, "CAT")), sheet("BOB", Elect(F, ME)))
    assert _france(record) == ((("BOB", 2),), "BOB", Reason.PLURALITY)
    vote = actions_of(record, "ANN", Elect(F, "CAT"))[0]
    assert (vote.outcome, vote.reason) == (Outcome.FAILED, Reason.NOT_ELIGIBLE)
    assert check(sheet("ANN", Elect(F, "ZED")), state) == [(Refusal.NO_SUCH_INVESTOR, None, 0)]


def test_E15_one_investor_may_lead_several_corporations() -> None:
    state = at_exchange({F: {"BOB": 3}, G: {"BOB": 1}})
    after, _ = exchange(state, sheet("BOB", Elect(F, ME), Elect(G, ME)))
    assert dict(after.ceos) == {F: "BOB", G: "BOB"}


def test_E16_a_silent_holder_votes_for_the_sitting_ceo_if_eligible() -> None:
    # BOB, France's CEO, holds 2 and says nothing, nor does ANN (3): 5 for BOB against CAT's 4.
    state = at_exchange({F: {"ANN": 3, "BOB": 2, "CAT": 4}}, ceos={F: "BOB"})
    _, record = exchange(state, sheet("CAT", Elect(F, ME)))
    assert _france(record) == ((("BOB", 5), ("CAT", 4)), "BOB", Reason.PLURALITY)


def test_E16_a_silent_holder_abstains_when_the_sitting_ceo_is_not_eligible_or_there_is_none() -> None:
    state = at_exchange({F: {"ANN": 3, "CAT": 2}}, ceos={F: "BOB"})  # BOB holds no share
    _, record = exchange(state, sheet("CAT", Elect(F, ME)))
    assert _france(record) == ((("CAT", 2),), "CAT", Reason.PLURALITY)
    _, record = exchange(at_exchange({F: {"ANN": 5, "CAT": 1}}), sheet("CAT", Elect(F, ME)))
    assert _france(record) == ((("CAT", 1),), "CAT", Reason.PLURALITY)


def test_E17_tie_in_election_goes_to_outgoing_ceo_ballot_even_without_shares() -> None:
    # ANN 3 for ANN, CAT 3 for CAT; BOB, the outgoing CEO, holds nothing and names CAT.  The
    # investor order (ANN first) would have chosen ANN.
    state = at_exchange({F: {"ANN": 3, "CAT": 3}}, ceos={F: "BOB"}, order=("ANN", "BOB", "CAT"))
    sheets = (sheet("ANN", Elect(F, ME)), sheet("CAT", Elect(F, ME)))
    _, record = exchange(state, *sheets, sheet("BOB", Elect(F, "CAT")))
    assert _france(record) == ((("ANN", 3), ("CAT", 3)), "CAT", Reason.OUTGOING_CEO)


def test_E17_tie_goes_to_the_investor_order_when_the_outgoing_ceo_names_no_tied_candidate() -> None:
    state = at_exchange({F: {"ANN": 3, "CAT": 3}}, ceos={F: "BOB"}, order=("CAT", "BOB", "ANN"))
    sheets = (sheet("ANN", Elect(F, ME)), sheet("CAT", Elect(F, ME)))
    _, record = exchange(state, *sheets, sheet("BOB", Elect(F, None)))
    assert _france(record)[1:] == ("CAT", Reason.INVESTOR_ORDER)
    _, record = exchange(state.evolve(order=("ANN", "BOB", "CAT")), *sheets)
    assert _france(record)[1:] == ("ANN", Reason.INVESTOR_ORDER)


def test_E17_a_silent_outgoing_ceo_breaks_the_tie_for_themself() -> None:
    # BOB (CEO, 3 shares) sends nothing: E16 makes it a vote for himself, which breaks the 3-3 tie.
    state = at_exchange({F: {"ANN": 3, "BOB": 3}}, ceos={F: "BOB"}, order=("ANN", "BOB", "CAT"))
    _, record = exchange(state, sheet("ANN", Elect(F, ME)))
    assert _france(record) == ((("ANN", 3), ("BOB", 3)), "BOB", Reason.OUTGOING_CEO)


def test_E18_no_valid_vote_leaves_the_corporation_leaderless_for_the_year() -> None:
    state = at_exchange({F: {"ANN": 3, "BOB": 2}}, ceos={F: "CAT"})  # CAT holds nothing: not eligible
    after, record = exchange(state, sheet("ANN", Elect(F, None)), sheet("BOB", Elect(F, "CAT")))
    assert _france(record) == ((), None, Reason.NO_VOTES)
    assert F not in after.ceos
    assert Expected("CAT", F) not in expected(after)  # the judge waits for no French sheet


def test_E19_a_resigning_ceo_leaves_office_at_once_and_the_winner_is_announced_to_all() -> None:
    state = at_exchange({F: {"ANN": 3, "BOB": 2}}, ceos={F: "BOB"}).evolve(stage=Stage.BOARD)
    assert F not in resign(state, "BOB").ceos
    after, record = exchange(at_exchange({F: {"ANN": 3, "BOB": 2}}), sheet("ANN", Elect(F, ME)))
    facts = {f.corporation: f for f in public_exchange(after, record).corporations}
    assert facts[F].ceo == "ANN" and facts[G].ceo is None
