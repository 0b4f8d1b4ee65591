"""The worked year of section 3 of the Exchange rulings played by mail through the game service:
three investors' real mails, from the CREATE to the Winter 1901 Exchange phase, and every figure
of 3.2-3.8 read back from the mails the judge sent them (their statements, annual reports,
corporate statements and income) and from the state it keeps.  Every number is the document's,
worked out by hand from the rulings, never read off the code.

Set-up (3.1): the standard board, 10 shares a corporation, ANN, BOB and CAT with 60 AgP each,
in the investor order ANN, BOB, CAT (the game's seed is chosen to draw it)."""

from __future__ import annotations

from pathlib import Path

import pytest

from judge.games.exchange.core.state import ExchangeState
from judge.games.exchange.kind import Exchange
from tests.games.exchange.by_mail import exchange_game, game_row, mails_to, section, send_as, states
from tests.support.harness import Judge, Sent

GAME = "bourse"


@pytest.fixture(scope="module")
def year(tmp_path_factory: pytest.TempPathFactory) -> Judge:
    """The year played: each phase closes as soon as what it waits for has come (E20, E29)."""
    judge = exchange_game(Judge(Path(tmp_path_factory.mktemp("judge"))), GAME, order=("ANN", "BOB", "CAT"))
    send_as(judge, GAME, "ANN", "BID 6 FRANCE AT 5", "BID 2 GERMANY AT 3", "ELECT FRANCE ME", "ELECT GERMANY CAT")
    send_as(judge, GAME, "BOB", "PRIORITY 2", "BID 5 FRANCE AT 5", "BID 5 GERMANY AT 4", "ELECT FRANCE ME",
            "ELECT GERMANY ME")
    send_as(judge, GAME, "CAT", "PRIORITY 3", "BID 4 GERMANY AT 4", "BID 3 FRANCE AT 6", "ELECT GERMANY ME",
            "ELECT FRANCE ME")
    send_as(judge, GAME, "ANN", "2 : A MUN - RUH")  # 3.3
    send_as(judge, GAME, "BOB", "% no private offers this turn", "FOR FRANCE", "WORTH PAR 24 MAR 14 BRE 10",
            "ACCEPT F?", "0 : A PAR - PIC", "0 : A MAR - SPA", "0 : F BRE - MAO", "END")
    send_as(judge, GAME, "CAT", "FOR GERMANY", "0 : F KIE - HOL", "0 : A BER - KIE", "3 : A MUN - BUR", "END")
    send_as(judge, GAME, "ANN", "4 : A SPA - MAR")  # 3.4
    send_as(judge, GAME, "BOB", "FOR FRANCE", "0 : A PIC - BEL", "0 : A SPA H", "0 : F MAO - POR", "END")
    send_as(judge, GAME, "CAT", "FOR GERMANY", "5 : A BUR - MAR", "0 : F HOL H", "0 : A KIE - DEN", "5 : A SPA H",
            "END")
    send_as(judge, GAME, "BOB", "FOR FRANCE", "BUILD A PAR", "BUILD F BRE", "END")  # 3.5
    send_as(judge, GAME, "CAT", "FOR GERMANY", "BUILD A BER", "BUILD F KIE", "BUILD A MUN", "END")
    send_as(judge, GAME, "BOB", "BUY 1 GERMANY FROM ANN FOR 9", "APPROVE GERMANY 2", "BID 1 FRANCE AT 9",  # 3.7
            "ELECT FRANCE ME", "ELECT GERMANY ME", "FOR FRANCE", "DIVIDEND 5", "END")
    send_as(judge, GAME, "CAT", "SELL 1 FRANCE AT 7", "ELECT GERMANY ME", "ELECT FRANCE ANN", "FOR GERMANY",
            "DIVIDEND 3", "ISSUE 2 AT 8", "END")
    send_as(judge, GAME, "ANN", "SELL 1 GERMANY TO BOB FOR 9", "BID 2 GERMANY AT 8", "ELECT FRANCE ME",
            "ELECT GERMANY CAT")
    return judge


def results(judge: Judge, name: str, phase: str) -> Sent:
    return mails_to(judge, name, f"{GAME} {phase} results")


def state_after(judge: Judge, phase: str) -> ExchangeState:
    return dict(states(judge, GAME))[phase]


def test_X81_the_year_runs_its_phases_in_order_each_closing_once_its_sheets_came(year: Judge) -> None:
    """X.8.1: the Exchange phase of Winter 1900, Spring and Fall 1901 (no retreats: nothing is
    dislodged), the Winter 1901 adjustments, then (after the Income step) its Exchange phase; each
    closed by the mail that completed it (E20, E29), the next Spring now open."""
    assert [name for name, _ in states(year, GAME)] == ["W1900X", "S1901M", "F1901M", "W1901A", "W1901X", "S1902M"]
    assert game_row(year, GAME) == ("active", "S1902M")


def test_32_the_initial_offering_fills_bids_by_price_then_the_bought_investor_order(year: Judge) -> None:
    """3.2 step f: CAT 3 France at 6 and 4 Germany at 4, BOB 5 of each at 5 and 4, ANN the 2 France
    and 1 Germany left; balances 60 - 0/2/3 priority - the fills: ANN 47, BOB 13, CAT 23."""
    owed = {"ANN": ("47", "France 2, Germany 1"), "BOB": ("13", "France 5, Germany 5"),
            "CAT": ("23", "France 3, Germany 4")}
    for name, (balance, shares) in owed.items():
        statement = section(results(year, name, "W1900X"), "Your statement (E39)")
        assert f"balance now: {balance} AgP" in statement
        assert f"your shares: {shares}" in statement
    ann = section(results(year, "ANN", "W1900X"), "Your statement (E39)")
    assert "BID 6 FRANCE AT 5: partly done, 2 shares bought for 10 AgP (no ask at or below the bid's price was " \
           "left (E8))" in " ".join(ann)
    cat = section(results(year, "CAT", "W1900X"), "Your statement (E39)")
    assert "-3 AgP  priority spent on the investor order (E30)" in cat


def test_32_reports_give_treasuries_53_and_39_and_the_stockholders_names(year: Judge) -> None:
    """3.2 step g, E37: to each stockholder, France's treasury 53 (18 + 25 + 10) and Germany's 39
    (16 + 20 + 3), with the stockholders' names alone."""
    for name in ("ANN", "BOB", "CAT"):
        mail = results(year, name, "W1900X")
        assert section(mail, "The annual report of France")[0] == "France: treasury 53 AgP; stockholders: ANN, BOB, CAT"
        assert section(mail, "The annual report of Germany")[0] == ("Germany: treasury 39 AgP; stockholders: ANN, "
                                                                     "BOB, CAT")


def test_E17_32_germanys_tie_goes_to_cat_earlier_in_the_bought_investor_order(year: Judge) -> None:
    """3.2 step h: France BOB 5, CAT 3, ANN 2: BOB; Germany BOB 5 against CAT 4 + ANN's 1: a tie with
    no former president, won by CAT, before BOB in the order CAT, BOB, ANN that priority bought."""
    mail = results(year, "ANN", "W1900X")
    assert "Investor order (E30): CAT, BOB, ANN" in mail.body
    assert "France: CEO BOB for 1901" in mail.body and "Germany: CEO CAT for 1901" in mail.body
    report = section(mail, "The annual report of Germany")
    assert "election (votes per candidate, E19): CAT 5, BOB 5" in report
    chart = mails_to(year, "GM", f"{GAME} W1900X chart").body
    assert "election of Germany: CAT 5, BOB 5; CAT (a tie, broken by the investor order (E17))" in chart


def test_E24_the_new_ceos_get_their_corporations_records(year: Judge) -> None:
    """E24: BOB, taking France's office, gets its ledger: the three pool sales of 3.2."""
    records = section(results(year, "BOB", "W1900X"), "You are France's CEO for 1901")
    assert records[0] == "France's treasury: 53 AgP"
    assert [line.split(None, 1)[1] for line in records[2:]] == [
        "+18  3 shares from the pool to CAT at 6 AgP (E8, E9)", "+25  5 shares from the pool to BOB at 5 AgP (E8, E9)",
        "+10  2 shares from the pool to ANN at 5 AgP (E8, E9)"]
    assert not section(results(year, "ANN", "W1900X"), "You are")


def test_33_worths_and_the_bribe_on_munich(year: Judge) -> None:
    """3.3: France's worths as BOB sent them, Germany's the defaults 16 each; A MUN goes to BUR on
    Germany's 3 against ANN's 2 to RUH: Germany pays 3 (treasury 36), ANN nothing."""
    france = section(results(year, "BOB", "S1901M"), "France's statement")
    assert "its worths for the year (E22): BRE 10, MAR 14, PAR 24" in france
    germany = section(results(year, "CAT", "S1901M"), "Germany's statement")
    assert "its worths for the year (E22): BER 16, KIE 16, MUN 16" in germany
    assert "spent: 3 AgP; its treasury: 36 AgP" in germany
    assert section(results(year, "ANN", "S1901M"), "Your private offers") == [
        "no private offer of yours was accepted (if you made any): you paid nothing",
        "spent: 0 AgP; your balance: 47 AgP", "your shares: France 2, Germany 1"]  # 3.2's holdings
    public = results(year, "ANN", "S1901M").body.splitlines()
    assert "  Germany: A MUN - BUR" in public and "  France: A PAR - PIC" in public  # succeeded: no reason given


def test_34_germany_takes_marseilles_with_its_money_on_a_french_unit(year: Judge) -> None:
    """3.4: A SPA holds on Germany's 5 against ANN's 4; A BUR - MAR on 5: Germany pays 10 (26);
    France takes SPA, BEL, POR, Germany MAR, HOL, DEN."""
    germany = section(results(year, "CAT", "F1901M"), "Germany's statement")
    assert "it paid 5 AgP for A SPA H" in germany and "it paid 5 AgP for A BUR - MAR" in germany
    assert "spent: 10 AgP; its treasury: 26 AgP" in germany
    after = state_after(year, "F1901M").position
    assert sorted(after.centers_of("FRANCE")) == ["BEL", "BRE", "PAR", "POR", "SPA"]
    assert sorted(after.centers_of("GERMANY")) == ["BER", "DEN", "HOL", "KIE", "MAR", "MUN"]


def test_35_the_fall_results_and_each_ceos_prompt_say_how_many_builds_each_corporation_has(year: Judge) -> None:
    """3.5: France has 5 centers and 3 units, so 2 builds, in its own home centers free of units (BRE and
    PAR: it lost MAR); Germany 6 centers and 3 units, 3 builds, in BER, KIE and MUN (its armies left
    them for DEN and MAR, its fleet KIE for HOL).  Every reader is told, each CEO what to send."""
    public = section(results(year, "ANN", "F1901M"), "Adjustments due:")
    assert public == ["France (CEO BOB): 5 centers, 3 units: may build 2 (where: BRE PAR)",
                      "Germany (CEO CAT): 6 centers, 3 units: may build 3 (where: BER KIE MUN)"]
    bob = " ".join(results(year, "BOB", "F1901M").body.split())
    assert ("As France's CEO, send its 2 builds (BUILD, or WAIVE; it may build in: BRE PAR): FOR FRANCE / orders / "
            "END (without them, civil disorder, E20).") in bob
    cat = " ".join(results(year, "CAT", "F1901M").body.split())
    assert "As Germany's CEO, send its 3 builds (BUILD, or WAIVE; it may build in: BER KIE MUN)" in cat


def test_36_income_france_76_germany_87(year: Judge) -> None:
    """3.5-3.6, E27: after the builds, France earns BRE 10 + PAR 24 + the unpriced 15 + 14 + 13 = 76
    (129), Germany BER, KIE, MUN 16 each + MAR 14 + the unpriced 13 + 12 = 87 (113); the five
    leaderless corporations their default income, 48, Russia 62."""
    assert section(results(year, "BOB", "W1901A"), "France's income")[0].startswith("France earned 76 AgP")
    assert "its treasury now: 129 AgP" in section(results(year, "BOB", "W1901A"), "France's income")
    assert "its treasury now: 113 AgP" in section(results(year, "CAT", "W1901A"), "Germany's income")
    treasuries = state_after(year, "W1901A").treasuries
    assert {c: treasuries[c] for c in ("AUSTRIA", "ENGLAND", "ITALY", "RUSSIA", "TURKEY")} == {
        "AUSTRIA": 48, "ENGLAND": 48, "ITALY": 48, "RUSSIA": 62, "TURKEY": 48}
    assert not section(results(year, "ANN", "W1901A"), "France's income")  # E38, E40: for its CEO alone


def test_38_the_state_at_the_end_of_the_year(year: Judge) -> None:
    """3.8: balances ANN 53, BOB 35, CAT 59; France 79, Germany 99; France held ANN 2, BOB 6, CAT 2
    (10 issued, pool 0), Germany ANN 2, BOB 6, CAT 4 (12 issued, pool 0); BOB France's CEO and CAT
    Germany's for 1902; the investor order CAT, BOB, ANN."""
    owed = {"ANN": ("53", "France 2, Germany 2"), "BOB": ("35", "France 6, Germany 6"),
            "CAT": ("59", "France 2, Germany 4")}
    for name, (balance, shares) in owed.items():
        mail = results(year, name, "W1901X")
        statement = section(mail, "Your statement (E39)")
        assert f"balance now: {balance} AgP" in statement and f"your shares: {shares}" in statement
        assert section(mail, "The annual report of France")[0] == "France: treasury 79 AgP; stockholders: ANN, BOB, CAT"
        assert section(mail, "The annual report of Germany")[0] == ("Germany: treasury 99 AgP; stockholders: ANN, "
                                                                     "BOB, CAT")
        assert "Investor order (E30): CAT, BOB, ANN" in mail.body
        assert "France: CEO BOB for 1902; 10 shares issued, 10 held by investors, 0 in its" in mail.body
        assert "Germany: CEO CAT for 1902; 12 shares issued, 12 held by investors, 0 in" in mail.body
    state = state_after(year, "W1901X")
    assert {i: state.purses[i] for i in ("ANN", "BOB", "CAT")} == {"ANN": 53, "BOB": 35, "CAT": 59}
    assert (state.treasuries["FRANCE"], state.treasuries["GERMANY"]) == (79, 99)
    assert dict(state.register.holdings["FRANCE"]) == {"ANN": 2, "BOB": 6, "CAT": 2}
    assert dict(state.register.holdings["GERMANY"]) == {"ANN": 2, "BOB": 6, "CAT": 4}
    assert dict(state.register.issued)["GERMANY"] == 12
    assert dict(state.ceos) == {"FRANCE": "BOB", "GERMANY": "CAT"} and state.order == ("CAT", "BOB", "ANN")


def test_37_dividends_the_deal_the_issue_and_pay_as_bid(year: Judge) -> None:
    """3.7: ANN gets 10 + 3 in dividends and 9 for her German share, pays 16 for two new ones;
    BOB pays 9 for CAT's French share asked at 7 (pay-as-bid), CAT receives the 9; Germany's tie of
    6 against 6 goes to CAT, the outgoing CEO's ballot (E17)."""
    ann = section(results(year, "ANN", "W1901X"), "Your statement (E39)")
    assert ann[:6] == ["balance when the phase was processed: 47 AgP", "+10 AgP  dividend of France",
                       "+3 AgP  dividend of Germany", "+9 AgP  1 Germany sold in a private deal (E10)",
                       "-16 AgP  2 Germany bought in the auction (E8)", "balance now: 53 AgP"]
    cat = section(results(year, "CAT", "W1901X"), "Your statement (E39)")
    assert "+9 AgP  1 France sold in the auction (E8)" in cat
    assert "election (votes per candidate, E19): CAT 6, BOB 6" in section(
        results(year, "CAT", "W1901X"), "The annual report of Germany")


def test_38_money_check_every_phase(year: Judge) -> None:
    """3.8's money check, and the game's at every phase: what investors and corporations hold plus
    what was destroyed is the starting money plus every income: 180 + 163 for France and Germany +
    4 x 48 + 62 for the leaderless five = 597, with 5 (priority) + 13 (bribes) destroyed."""
    for _, state in states(year, GAME):
        assert sum(state.purses.values()) + sum(state.treasuries.values()) + state.destroyed == state.minted
    state = state_after(year, "W1901X")
    five = sum(state.purses.values()) + state.treasuries["FRANCE"] + state.treasuries["GERMANY"]
    assert five == 180 - 5 - 13 + 163 == 325
    assert (state.minted, state.destroyed) == (597, 18)


def test_a_backup_checks_every_purse_and_treasury_of_the_game(year: Judge) -> None:
    """Records.totals: what a copy of the database must keep of the game, as 3.8 leaves it."""
    with year.db.engine.connect() as connection:
        totals = Exchange().totals(connection)
    assert {key: totals[key] for key in (f"{GAME} ANN", f"{GAME} BOB", f"{GAME} CAT", f"{GAME} FRANCE",
                                         f"{GAME} GERMANY", f"{GAME} destroyed")} == {
        f"{GAME} ANN": 53, f"{GAME} BOB": 35, f"{GAME} CAT": 59, f"{GAME} FRANCE": 79, f"{GAME} GERMANY": 99,
        f"{GAME} destroyed": 18}
