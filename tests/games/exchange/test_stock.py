"""X.3: stock — the initial issue, the market, private deals, new issues, the third, quantities
(rulings E7-E13)."""

from __future__ import annotations

from judge.games.exchange.core.options import exchange_options
from judge.games.exchange.core.record import Outcome, Reason
from judge.games.exchange.core.sheet import (
    ALL,
    ME,
    Approve,
    Bid,
    BuyFrom,
    Elect,
    Give,
    Issue,
    Priority,
    Refusal,
    Sell,
    SellTo,
    all_but,
    check,
    exactly,
)
from tests.games.exchange.game import STANDARD, A, F, G, actions_of, at_exchange, exchange, game, money, sheet


def _fills(record: object) -> list[tuple[str, str | None, int, int]]:
    return [(f.buyer, f.seller, f.shares, f.price) for f in record.fills]  # type: ignore[attr-defined]


def test_E7_each_corporation_issues_its_shares_into_its_pool() -> None:
    state = game()
    assert all(state.register.issued[c] == 10 == state.register.pool(c) for c in state.corporations)
    assert all(state.register.outstanding(c) == 0 for c in state.corporations)
    assert exchange_options(["SHARES=4"], STANDARD).shares == 4
    assert game(shares=4).register.pool(F) == 4


def test_E8_bids_at_one_price_go_in_investor_order_then_line_order() -> None:
    # France's pool holds 3 shares (BOB, its CEO, holds 7) and BOB asks all 3 at 2.
    holdings = {F: {"BOB": 7}}
    bids = (sheet("ANN", Bid(exactly(1), F, 5), Bid(exactly(2), F, 5)), sheet("CAT", Bid(exactly(2), F, 5)),
            sheet("BOB", blocks={F: [Sell(exactly(3), F, 2)]}))
    _, record = exchange(at_exchange(holdings, ceos={F: "BOB"}, order=("ANN", "BOB", "CAT")), *bids)
    assert _fills(record) == [("ANN", None, 1, 5), ("ANN", None, 2, 5)]  # CAT gets nothing
    after, record = exchange(at_exchange(holdings, ceos={F: "BOB"}, order=("CAT", "BOB", "ANN")), *bids)
    assert _fills(record) == [("CAT", None, 2, 5), ("ANN", None, 1, 5)]  # ANN's first line, then nothing left
    assert [a.outcome for a in actions_of(record, "ANN", Bid(exactly(2), F, 5))] == [Outcome.FAILED]
    assert dict(after.register.holdings[F]) == {"BOB": 7, "CAT": 2, "ANN": 1}
    assert (after.treasuries[F], after.purses["CAT"], after.purses["ANN"]) == (15, 50, 55)


def test_E8_the_cheapest_ask_goes_first_and_the_buyer_pays_its_own_bid() -> None:
    # CAT asks 1 at 4, France's pool 1 at 6 (ANN is its CEO); BOB bids for 2 at 7 and pays 7 for each.
    state = at_exchange({F: {"ANN": 5, "CAT": 4}}, ceos={F: "ANN"})
    after, record = exchange(state, sheet("CAT", Sell(exactly(1), F, 4)), sheet("BOB", Bid(exactly(2), F, 7)),
                             sheet("ANN", blocks={F: [Sell(exactly(1), F, 6)]}))
    assert _fills(record) == [("BOB", "CAT", 1, 7), ("BOB", None, 1, 7)]
    assert (after.purses["BOB"], after.purses["CAT"], after.treasuries[F]) == (46, 67, 7)


def test_E8_at_one_ask_price_the_pool_goes_first_then_investors_in_investor_order() -> None:
    state = at_exchange({F: {"ANN": 5, "BOB": 2, "CAT": 2}}, ceos={F: "ANN"}, order=("CAT", "BOB", "ANN"))
    _, record = exchange(state, sheet("ANN", Bid(exactly(2), F, 5), blocks={F: [Sell(exactly(1), F, 5)]}),
                         sheet("BOB", Sell(exactly(1), F, 5)), sheet("CAT", Sell(exactly(1), F, 5)))
    assert _fills(record) == [("ANN", None, 1, 5), ("ANN", "CAT", 1, 5)]
    assert actions_of(record, "BOB", Sell(exactly(1), F, 5))[0].reason is Reason.NO_BID


def test_E8_a_bidder_never_matches_its_own_ask() -> None:
    state = at_exchange({F: {"ANN": 3, "BOB": 7}}, ceos={F: "BOB"})
    after, record = exchange(state, sheet("ANN", Sell(exactly(1), F, 1), Bid(exactly(1), F, 5)))
    bid = actions_of(record, "ANN", Bid(exactly(1), F, 5))[0]
    assert (bid.outcome, bid.reason, bid.shares) == (Outcome.FAILED, Reason.NO_ASK, 0)
    assert after.register.held(F, "ANN") == 3 and after.purses["ANN"] == 60


def test_E8_a_bid_stops_when_the_buyer_cannot_pay_for_one_more_share() -> None:
    # ANN has 10 AgP and bids for 5 Austrian shares at 3 (the pool is asked at 1): she buys 3 for 9.
    after, record = exchange(at_exchange({}, purses={"ANN": 10}), sheet("ANN", Bid(exactly(5), A, 3)))
    bid = actions_of(record, "ANN", Bid(exactly(5), A, 3))[0]
    assert (bid.outcome, bid.reason, bid.shares, bid.amount) == (Outcome.PARTLY, Reason.CANNOT_PAY, 3, 9)
    assert (after.purses["ANN"], after.treasuries[A], after.register.pool(A)) == (1, 9, 7)


def test_E9_a_leaderless_corporation_floats_its_whole_pool_at_one_agp() -> None:
    after, _ = exchange(at_exchange({}), sheet("ANN", Bid(ALL, A, 1)))
    assert (after.register.held(A, "ANN"), after.register.pool(A), after.treasuries[A]) == (10, 0, 10)


def test_E9_a_corporation_with_a_ceo_offers_only_what_its_ceo_asks_and_the_rest_stays_in_the_pool() -> None:
    state = at_exchange({F: {"BOB": 5}}, ceos={F: "BOB"})
    after, record = exchange(state, sheet("ANN", Bid(exactly(2), F, 9)))
    assert actions_of(record, "ANN", Bid(exactly(2), F, 9))[0].reason is Reason.NO_ASK
    assert after.register.pool(F) == 5
    after, _ = exchange(state, sheet("ANN", Bid(exactly(2), F, 9)), sheet("BOB", blocks={F: [Sell(exactly(5), F, 9)]}))
    assert (after.register.held(F, "ANN"), after.register.pool(F), after.treasuries[F]) == (2, 3, 18)


def test_E10_a_paired_trade_moves_shares_one_way_and_money_the_other() -> None:
    state = at_exchange({F: {"ANN": 4}})
    after, record = exchange(state, sheet("ANN", SellTo(3, F, "BOB", 20)), sheet("BOB", BuyFrom(3, F, "ANN", 20)))
    assert (after.register.held(F, "ANN"), after.register.held(F, "BOB")) == (1, 3)
    assert (after.purses["ANN"], after.purses["BOB"]) == (80, 40)
    assert {a.outcome for a in record.actions} == {Outcome.DONE}


def test_E10_lines_that_do_not_agree_exactly_do_nothing() -> None:
    state = at_exchange({F: {"ANN": 4}})
    after, record = exchange(state, sheet("ANN", SellTo(3, F, "BOB", 20)), sheet("BOB", BuyFrom(3, F, "ANN", 19)))
    assert [a.reason for a in record.actions] == [Reason.UNMATCHED, Reason.UNMATCHED]
    assert after.register.held(F, "ANN") == 4 and after.purses["BOB"] == 60


def test_E10_E40_a_deal_whose_shares_or_money_are_not_there_fails_whole_each_told_only_of_its_own() -> None:
    """ANN holds 2 French shares, BOB 5 AgP.  3 shares for 4 AgP: ANN's shares are missing, BOB's money
    is there; ANN is told her shares were missing, BOB only that ANN's part was not there (E40: her
    holdings are hers to know).  2 shares for 9 AgP: the other way round.  3 for 9: both are missing,
    each is told of its own."""
    state = at_exchange({F: {"ANN": 2}}, purses={"BOB": 5})
    cases = [((3, 4), Reason.SHARES_MISSING, Reason.PARTNER_SHORT), ((2, 9), Reason.PARTNER_SHORT,
             Reason.MONEY_MISSING), ((3, 9), Reason.SHARES_MISSING, Reason.MONEY_MISSING)]
    for (shares, price), ann, bob in cases:
        after, record = exchange(state, sheet("ANN", SellTo(shares, F, "BOB", price)),
                                 sheet("BOB", BuyFrom(shares, F, "ANN", price)))
        assert [(a.author, a.outcome, a.reason) for a in record.actions] == [("ANN", Outcome.FAILED, ann),
                                                                             ("BOB", Outcome.FAILED, bob)]
        assert after.register.held(F, "ANN") == 2 and after.purses["BOB"] == 5


def test_E10_deals_go_investor_by_investor_in_the_investor_order() -> None:
    # BOB gives his 2 French shares to ANN, who sells 2 to CAT for 10.  The sale works only if
    # BOB's gift comes first in the investor order.
    sheets = (sheet("BOB", Give(exactly(2), F, "ANN")), sheet("ANN", SellTo(2, F, "CAT", 10)),
              sheet("CAT", BuyFrom(2, F, "ANN", 10)))
    after, _ = exchange(at_exchange({F: {"BOB": 2}}, order=("BOB", "ANN", "CAT")), *sheets)
    assert dict(after.register.holdings[F]) == {"CAT": 2}
    assert (after.purses["ANN"], after.purses["CAT"]) == (70, 50)
    after, record = exchange(at_exchange({F: {"BOB": 2}}, order=("ANN", "BOB", "CAT")), *sheets)
    assert dict(after.register.holdings[F]) == {"ANN": 2}  # the gift came after the sale had failed
    assert actions_of(record, "ANN", SellTo(2, F, "CAT", 10))[0].reason is Reason.SHARES_MISSING
    assert actions_of(record, "CAT", BuyFrom(2, F, "ANN", 10))[0].reason is Reason.PARTNER_SHORT


def test_E11_an_issue_passes_with_exactly_80_percent_of_outstanding_shares() -> None:
    # CAT, France's CEO, holds 2; ANN 6 and BOB 2.  CAT's ISSUE and ANN's approval: 8 of 10, and
    # 5 x 8 >= 4 x 10.  With BOB's instead of ANN's: 4 of 10, refused.
    state = at_exchange({F: {"ANN": 6, "BOB": 2, "CAT": 2}}, ceos={F: "CAT"}, treasuries={F: 20})
    issue = sheet("CAT", blocks={F: [Issue(3, 7)]})
    after, record = exchange(state, issue, sheet("ANN", Approve(F, 3)))
    assert record.issues[0].approving == 8 and record.issues[0].passed
    assert (after.register.issued[F], after.register.pool(F)) == (13, 3)  # asked at 7; nobody bid
    after, record = exchange(state, issue, sheet("BOB", Approve(F, 5)))
    assert (record.issues[0].approving, record.issues[0].passed) == (4, False)
    assert actions_of(record, "CAT", Issue(3, 7))[0].reason is Reason.TOO_FEW_APPROVALS
    assert after.register.issued[F] == 10


def test_E11_an_approval_is_for_an_issue_of_up_to_m_shares() -> None:
    state = at_exchange({F: {"ANN": 6, "BOB": 2, "CAT": 2}}, ceos={F: "CAT"})
    _, record = exchange(state, sheet("CAT", blocks={F: [Issue(3, 7)]}), sheet("ANN", Approve(F, 2)))
    assert not record.issues[0].passed
    assert actions_of(record, "ANN", Approve(F, 2))[0].reason is Reason.ISSUE_TOO_LARGE


def test_E11_holdings_are_counted_after_the_private_deals_and_new_shares_sell_in_the_same_auction() -> None:
    # ANN gives BOB 4 shares before the count: BOB's approval then covers 6, with CAT's 2: 8 of 10.
    state = at_exchange({F: {"ANN": 6, "BOB": 2, "CAT": 2}}, ceos={F: "CAT"})
    after, record = exchange(state, sheet("CAT", blocks={F: [Issue(2, 7)]}),
                             sheet("ANN", Give(exactly(4), F, "BOB"), Bid(exactly(2), F, 7)),
                             sheet("BOB", Approve(F, 2)))
    assert record.issues[0].approving == 8 and record.issues[0].passed
    assert _fills(record) == [("ANN", None, 2, 7)]
    assert after.register.held(F, "ANN") == 4 and after.treasuries[F] == 14


def test_E11_without_outstanding_shares_or_without_a_ceo_no_issue() -> None:
    state = at_exchange({}, ceos={F: "CAT"})
    assert check(sheet("CAT", blocks={F: [Issue(2, 7)]}), state) == [(Refusal.NOTHING_OUTSTANDING, F, 0)]
    assert check(sheet("CAT", blocks={G: [Issue(2, 7)]}), state) == [(Refusal.NOT_THE_CEO, G, None)]


def test_E12_a_buy_back_stops_at_a_third_of_the_issued_shares_in_the_pool() -> None:
    # 9 issued, 1 in the pool: the buy-back may bring it to 3 (3 x 3 <= 9), so it buys 2 of ANN's 5.
    state = at_exchange({F: {"ANN": 5, "BOB": 3}}, ceos={F: "BOB"}, treasuries={F: 100}, issued={F: 9})
    after, record = exchange(state, sheet("ANN", Sell(exactly(5), F, 2)),
                             sheet("BOB", blocks={F: [Bid(exactly(5), F, 3)]}))
    buy_back = actions_of(record, "BOB", Bid(exactly(5), F, 3))[0]
    assert (buy_back.reason, buy_back.shares, buy_back.amount) == (Reason.POOL_LIMIT, 2, 6)
    assert (after.register.pool(F), after.treasuries[F], after.purses["ANN"]) == (3, 94, 66)


def test_E12_a_buy_back_ranks_after_every_investor_and_never_takes_from_its_own_pool() -> None:
    # France (BOB its CEO, 100 AgP, pool 2 of 10) bids 3 for one share, as CAT does: ANN's single
    # share at 2 goes to CAT, the investor; the buy-back finds no other ask.
    state = at_exchange({F: {"ANN": 5, "BOB": 3}}, ceos={F: "BOB"}, treasuries={F: 100})
    buy_back = Bid(exactly(1), F, 3)
    _, record = exchange(state, sheet("ANN", Sell(exactly(1), F, 2)), sheet("CAT", Bid(exactly(1), F, 3)),
                         sheet("BOB", blocks={F: [buy_back]}))
    assert _fills(record) == [("CAT", "ANN", 1, 3)]
    assert actions_of(record, "BOB", buy_back)[0].reason is Reason.NO_ASK
    # Its own pool asked at 1 is no ask for it: it buys ANN's share at 2, paying its 3.
    _, record = exchange(state, sheet("ANN", Sell(exactly(1), F, 2)),
                         sheet("BOB", blocks={F: [buy_back, Sell(exactly(2), F, 1)]}))
    assert _fills(record) == [(F, "ANN", 1, 3)]


def test_E12_an_unsold_pool_above_a_third_is_no_breach_but_bars_buy_backs() -> None:
    state = at_exchange({F: {"ANN": 5, "BOB": 1}}, ceos={F: "BOB"}, treasuries={F: 100})  # pool 4 of 10
    after, record = exchange(state, sheet("ANN", Sell(exactly(1), F, 1)),
                             sheet("BOB", blocks={F: [Bid(exactly(1), F, 1)]}))
    assert actions_of(record, "BOB", Bid(exactly(1), F, 1))[0].reason is Reason.POOL_LIMIT
    assert after.register.pool(F) == 4


def test_E12_a_corporation_never_trades_another_corporations_shares() -> None:
    state = at_exchange({F: {"BOB": 5}}, ceos={F: "BOB"})
    assert check(sheet("BOB", blocks={F: [Bid(exactly(1), G, 3)]}), state) == [(Refusal.ANOTHER_CORPORATION, F, 0)]


def test_E13_all_and_all_but_in_priority_give_sell_and_bid() -> None:
    state = at_exchange({F: {"ANN": 4, "BOB": 5}}, purses={"CAT": 20}, ceos={F: "BOB"})
    after, record = exchange(
        state,
        sheet("ANN", Priority(all_but(10)), Give(all_but(1), F, "BOB")),  # spends 50; gives 3 of 4
        sheet("BOB", Sell(ALL, F, 2)),  # his 5 and the 3 given: 8
        sheet("CAT", Bid(all_but(2), F, 3), Bid(ALL, A, 3)),  # ALL: min(8, floor(20 / 3)) = 6; but 2: 4; then 2
    )
    assert record.order == ("ANN", "BOB", "CAT")
    assert after.purses["ANN"] == 10
    assert after.register.held(F, "ANN") == 1
    assert after.register.held(F, "CAT") == 4 and after.register.held(F, "BOB") == 4
    austria = actions_of(record, "CAT", Bid(ALL, A, 3))[0]
    assert (austria.shares, austria.reason, austria.outcome) == (2, Reason.CANNOT_PAY, Outcome.DONE)  # 8 AgP left
    assert after.purses["CAT"] == 2 and money(after) == after.minted


def test_E13_bid_all_but_k_buys_all_the_shares_on_offer_but_k_not_all_the_money_pays_for_but_k() -> None:
    """France is leaderless: its pool's 10 shares are asked at 1 AgP (E9).  ANN has 60 AgP and bids
    ALL BUT 2 at 1: ALL would buy min(10 on offer, floor(60 / 1)) = 10 shares, so ALL BUT 2 buys
    8 for 8 AgP, and 2 stay in the pool.  (Reading it by money, 60 - 2 = 58 wanted, would buy
    all 10.)"""
    after, record = exchange(at_exchange({}), sheet("ANN", Bid(all_but(2), F, 1)))
    bid = actions_of(record, "ANN", Bid(all_but(2), F, 1))[0]
    assert (bid.outcome, bid.shares, bid.amount) == (Outcome.DONE, 8, 8)
    assert after.register.held(F, "ANN") == 8 and after.register.pool(F) == 2
    assert after.purses["ANN"] == 52 and after.treasuries[F] == 8


def test_E13_bid_all_but_k_where_money_binds_buys_what_the_money_pays_for_but_k() -> None:
    """ANN has 10 AgP and bids ALL BUT 2 for France's pool (10 shares at 1) at 3: ALL would buy
    min(10, floor(10 / 3)) = 3 shares; ALL BUT 2 buys 1, for 3 AgP."""
    after, record = exchange(at_exchange({}, purses={"ANN": 10}), sheet("ANN", Bid(all_but(2), F, 3)))
    bid = actions_of(record, "ANN", Bid(all_but(2), F, 3))[0]
    assert (bid.outcome, bid.shares, bid.amount) == (Outcome.DONE, 1, 3)
    assert after.purses["ANN"] == 7


def test_E13_bid_all_but_k_in_the_worked_winter_1900_decides_germanys_ceo() -> None:
    """Section 3.2 of the rulings, with ANN's ``BID 2 GERMANY AT 3`` written ``BID ALL BUT 1
    GERMANY AT 3``.  Worked by hand: priority makes the order CAT, BOB, ANN (ANN 60, BOB 58,
    CAT 57); Germany's pool (10 at 1) sells 4 to CAT at 4 and 5 to BOB at 4, so when ANN's bid
    comes (the last, at 3) 1 share is left.  ALL would buy that 1 (ANN's 50 AgP pay for 16);
    all but 1 is none: ANN buys nothing and keeps 50.  Germany's holders are BOB 5 and CAT 4,
    so BOB is elected with 5 votes to CAT's 4 (ANN, holding none, votes for nobody), and the
    share stays in the pool; Germany's treasury is 16 + 20 = 36.  Read by money (floor(50 / 3)
    - 1 = 15 wanted) ANN would have bought that share, her ballot would have made CAT 5 = BOB 5
    and the investor order would have given Germany to CAT (3.2's own outcome)."""
    sheets = [
        sheet("ANN", Bid(exactly(6), F, 5), Bid(all_but(1), G, 3), Elect(F, ME), Elect(G, "CAT")),
        sheet("BOB", Priority(exactly(2)), Bid(exactly(5), F, 5), Bid(exactly(5), G, 4), Elect(F, ME),
              Elect(G, ME)),
        sheet("CAT", Priority(exactly(3)), Bid(exactly(4), G, 4), Bid(exactly(3), F, 6), Elect(G, ME),
              Elect(F, ME)),
    ]
    after, record = exchange(game(), *sheets)
    bid = actions_of(record, "ANN", Bid(all_but(1), G, 3))[0]
    assert (bid.outcome, bid.reason, bid.shares, bid.amount) == (Outcome.DONE, Reason.ALL_BUT_NONE, 0, 0)
    assert dict(after.register.holdings[G]) == {"CAT": 4, "BOB": 5} and after.register.pool(G) == 1
    assert after.purses["ANN"] == 50 and after.treasuries[G] == 36
    germany = next(e for e in record.elections if e.corporation == G)
    assert dict(germany.tally) == {"BOB": 5, "CAT": 4}
    assert after.ceos[G] == "BOB" and after.ceos[F] == "BOB"


def test_E13_a_plain_number_above_what_is_possible_is_reduced() -> None:
    state = at_exchange({F: {"ANN": 4}}, purses={"BOB": 7})
    after, record = exchange(state, sheet("ANN", Give(exactly(9), F, "BOB")), sheet("BOB", Priority(exactly(100))))
    assert after.register.held(F, "BOB") == 4 and after.purses["BOB"] == 0
    assert {a.reason for a in record.actions} == {Reason.REDUCED}
