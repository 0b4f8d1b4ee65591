"""What investors and the game master read, played by mail through the game service: a bid for all
the shares but k (E13), a resigning CEO's corporation left leaderless (E19), the WAITs the game
master's STATUS shows (E29), and a new player's briefing (the board, its map, the investor's last
statement)."""

from __future__ import annotations

from pathlib import Path

import pytest

from judge.games.exchange.core.record import Reason
from tests.games.exchange.by_mail import (
    GM,
    address,
    exchange_game,
    game_row,
    mails_to,
    master,
    section,
    send_as,
    states,
)
from tests.support.harness import Judge


def draws_maps() -> bool:
    """Whether maps can be drawn here (the Cairo library loads)."""
    try:
        import judge.render.png  # noqa: F401
    except (ImportError, OSError):
        return False
    return True


@pytest.fixture(scope="module")
def judge(tmp_path_factory: pytest.TempPathFactory) -> Judge:
    return Judge(Path(tmp_path_factory.mktemp("judge")), max_creates_per_day=50, max_creates_per_hour=50,
                 maps=draws_maps())


def test_E13_bid_all_but_1_in_the_worked_winter_1900_leaves_germany_to_bob(judge: Judge) -> None:
    """Section 3.2 of the rulings with ANN's ``BID 2 GERMANY AT 3`` written ``BID ALL BUT 1 GERMANY
    AT 3``: when her bid comes, last, Germany's pool has 1 share left (10 - CAT's 4 - BOB's 5), which
    is all ALL would buy; all but 1 is none.  ANN keeps 50 AgP (60 - 10 for 2 France) and no
    Germany, so BOB's 5 votes beat CAT's 4 (read by money she bought that share, and her vote for
    CAT made a tie CAT won)."""
    exchange_game(judge, "allbut", order=("ANN", "BOB", "CAT"))
    reply = send_as(judge, "allbut", "ANN", "BID 6 FRANCE AT 5", "BID ALL BUT 1 GERMANY AT 3", "ELECT FRANCE ME",
                    "ELECT GERMANY CAT")
    assert ("read as: a bid for all the Germany that can be matched and paid for but 1, at 3 AgP each (E8, E13)"
            in reply.body)
    send_as(judge, "allbut", "BOB", "PRIORITY 2", "BID 5 FRANCE AT 5", "BID 5 GERMANY AT 4", "ELECT FRANCE ME",
            "ELECT GERMANY ME")
    send_as(judge, "allbut", "CAT", "PRIORITY 3", "BID 4 GERMANY AT 4", "BID 3 FRANCE AT 6", "ELECT GERMANY ME",
            "ELECT FRANCE ME")
    assert game_row(judge, "allbut") == ("active", "S1901M")
    ann = mails_to(judge, "ANN", "allbut W1900X results")
    statement = " ".join(section(ann, "Your statement (E39)"))
    assert f"BID ALL BUT 1 GERMANY AT 3: done, no share bought ({Reason.ALL_BUT_NONE.value})" in statement
    assert "balance now: 50 AgP" in statement and "your shares: France 2" in statement
    assert "Germany bought" not in statement  # nothing moved: no change to her purse to list
    assert "Germany: CEO BOB for 1901" in ann.body
    after = dict(states(judge, "allbut"))["W1900X"]
    assert dict(after.register.holdings["GERMANY"]) == {"BOB": 5, "CAT": 4} and after.ceos["GERMANY"] == "BOB"


def test_E19_a_ceo_who_resigns_leaves_the_corporation_leaderless_and_everyone_is_told(judge: Judge) -> None:
    """BOB, France's CEO for 1901, resigns in S1901M: he leaves office at once, and France is
    leaderless until the next election (E19); the investors and the observers are told so."""
    exchange_game(judge, "quits")
    judge.confirmed("watcher@example.org")
    judge.send("watcher@example.org", "OBSERVE quits")
    send_as(judge, "quits", "BOB", "BID 10 FRANCE AT 2", "ELECT FRANCE ME")
    send_as(judge, "quits", "CAT", "BID 10 GERMANY AT 2", "ELECT GERMANY ME")
    send_as(judge, "quits", "ANN", "PASS")
    resigned = send_as(judge, "quits", "BOB", "RESIGN").body
    assert "you leave any CEO office: France is now leaderless (E19)" in resigned
    for reader in (address("ANN"), "watcher@example.org"):
        [told] = [m for m in judge.all_mail() if m.to == reader and m.subject.startswith("quits: the player of BOB")]
        assert "the player of BOB resigned: France is now leaderless until the next election (E2, E19)" in told.body
    assert "FRANCE" not in dict(states(judge, "quits"))["S1901M"].ceos


def test_E29_the_masters_status_shows_who_asked_the_phase_to_wait(judge: Judge) -> None:
    exchange_game(judge, "waits")
    send_as(judge, "waits", "ANN", "WAIT", "PASS")
    send_as(judge, "waits", "BOB", "PASS")
    status = master(judge, "waits", "STATUS").body
    assert "asking W1900X to WAIT for its deadline: ANN" in status
    assert "ANN (played): a sheet stands, 60 AgP" in status and "CAT (played): no sheet, owes the phase" in status
    send_as(judge, "waits", "ANN", "NOWAIT")
    assert "asking W1900X to WAIT for its deadline: nobody" in master(judge, "waits", "STATUS").body


def test_a_new_player_of_an_investor_is_briefed_with_the_board_its_map_and_the_last_statement(judge: Judge) -> None:
    """BOB bought all of France's pool at 2 (20 AgP: 40 left) and is its CEO; the game master makes
    him a dummy and opens his seat; DAN takes it over and reads what BOB knew: his money and
    shares, France's records, the board of S1901M with its map, and his statement of W1900X."""
    exchange_game(judge, "heir")
    send_as(judge, "heir", "BOB", "BID 10 FRANCE AT 2", "ELECT FRANCE ME")
    send_as(judge, "heir", "CAT", "BID 10 GERMANY AT 2", "ELECT GERMANY ME")
    send_as(judge, "heir", "ANN", "PASS")
    master(judge, "heir", "DUMMY BOB", "SET OPENING BOB")
    judge.confirmed("dan@example.org")
    judge.send("dan@example.org", "TAKEOVER BOB@heir pw-dan")
    [briefing] = [m for m in judge.all_mail() if m.subject == "heir: your briefing as BOB"]
    body = briefing.body
    assert briefing.to == "dan@example.org"
    assert "your balance: 40 AgP" in body and "your shares: France 10" in body
    assert "The board as it stands (units, then supply centers):" in body
    assert "  France (CEO BOB): 3 centers, units: A MAR, A PAR, F BRE" in body
    assert "The investor's statement of W1900X, as its results told it:" in body
    assert "BID 10 FRANCE AT 2: done, 10 shares bought for 20 AgP" in body
    assert [line.split(":")[0] for line in body.splitlines() if "ANN" in line] == ["investor order (E30)"]
    if draws_maps():
        assert list(briefing.attachments) == ["heir-S1901M.png"]
    assert GM not in body


def test_a_single_share_is_written_as_one(judge: Judge) -> None:
    """SHARES=1 (E7): each corporation issues one share, and the mails say "1 share", never "1 shares"."""
    exchange_game(judge, "single", options="INVESTORS=3 FUNDS=60 SHARES=1")
    start = mails_to(judge, "ANN", "single starts").body
    assert "Every corporation has 1 share, all in its" in start
    assert "France: leaderless; 1 share issued, 0 held by investors, 1 in its pool" in start
    assert "1 shares" not in start
