"""What players of the old judges expect of a Payola game: draws and concessions, replacement players,
observers, absences, history by mail, PREVIEW and REVEAL.  One test per command, as mail.  The
master's remaining tools (ROLLFORWARD, TERMINATE, listing, keys, a denied absence, observers switched
off) are the host's: tests/service/test_old_judges.py plays them on the test kind."""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from pathlib import Path

import pytest
from sqlalchemy import select

from judge.games.payola.store import seat_of
from judge.service.hosting import host
from judge.store.models import Absence, Game
from tests.games.payola.by_mail import ENGLAND, FRANCE, GERMANY, MASTER, play_spring, start, teleport, to
from tests.support.harness import Judge
from tests.support.people import ALICE, BOB, CAROL, GM, OBSERVER

DAN = "dan@example.org"


@pytest.fixture
def judge(tmp_path: Path) -> Judge:
    return start(Judge(tmp_path))


def vote_of(judge: Judge, power: str) -> str | None:
    """The vote ``power``'s seat in g1 has standing (DRAW, CONCEDE:power; None: none)."""
    with judge.db.transaction() as session:
        game = session.scalars(select(Game).where(Game.name == "g1")).one()
        player = host.seats(session, game)[power]
        return seat_of(session, player).vote


def state(judge: Judge) -> str:
    with judge.db.transaction() as session:
        game = session.scalar(select(Game).where(Game.name == "g1"))
        assert game is not None
        return game.state


# -- draws and concessions -------------------------------------------------------------------------


def test_a_draw_vote_ends_the_game_and_one_vote_short_does_not(judge: Judge) -> None:
    judge.send(ALICE, FRANCE + "VOTE DRAW")
    judge.send(BOB, GERMANY + "SET DRAW")  # DPjudge's spelling
    assert state(judge) == "active"
    assert judge.outcome_of("SET DRAW") == ("ok", None) and vote_of(judge, "GERMANY") == "DRAW"
    judge.send(CAROL, ENGLAND + "VOTE DRAW")
    assert state(judge) == "finished"
    ended = [m for m in judge.new_mail() if m.subject == "g1 has ended"]
    assert {m.to for m in ended} == {ALICE, BOB, CAROL, GM}
    assert "has ended: a draw including all survivors: Austria, England, France, Germany, Italy, Russia, Turkey" \
        in ended[0].body


def test_a_vote_that_ends_the_game_in_a_mail_with_a_sheet_ends_it_and_the_sheet_is_not_applied(judge: Judge) -> None:
    """The vote is acted on where it stands in the mail, the sheet at the mail's end: by then the game
    has ended, so the sheet is answered as not applied (it was an internal error: the whole mail,
    vote and all, set aside in quarantine)."""
    judge.send(ALICE, FRANCE + "VOTE DRAW")
    judge.send(BOB, GERMANY + "VOTE DRAW")
    judge.send(CAROL, ENGLAND + "3 : F LON - NTH\nVOTE DRAW")
    assert state(judge) == "finished"
    assert judge.outcome_of("VOTE DRAW") == ("ok", None)
    assert judge.outcome_of("3 : F LON - NTH") == ("ignored", "GAME_ENDED")
    assert "the game has ended" in judge.last_to(CAROL).body


def test_votes_are_secret_and_a_changed_vote_blocks_the_draw(judge: Judge) -> None:
    judge.send(ALICE, FRANCE + "VOTE DRAW")
    judge.send(BOB, GERMANY + "VOTE DRAW")
    judge.send(BOB, GERMANY + "VOTE NONE")
    judge.send(CAROL, ENGLAND + "VOTE DRAW")
    mails = judge.new_mail()
    assert state(judge) == "active"
    assert not [m for m in mails if m.to != BOB and "DRAW" in m.body and "VOTE" not in m.body]
    assert all("France" not in m.body for m in to(mails, CAROL))  # nobody is told who voted what


def test_show_votes_tells_the_count_with_the_next_results_only_when_it_changed(tmp_path: Path) -> None:
    judge = start(Judge(tmp_path), "SHOW_VOTES")
    judge.send(ALICE, FRANCE + "VOTE DRAW")
    assert not [m for m in judge.new_mail() if m.to != ALICE]  # nothing at once: it would point at the voter
    play_spring(judge)
    spring = to(judge.new_mail(), CAROL)
    [results] = [m for m in spring if m.subject == "g1 S1901M results"]
    assert "1 of the 3 surviving powers now vote for a draw" in results.body and len(spring) == 2  # and the reply
    assert "France" not in results.body.split("vote for a draw")[0].splitlines()[-1]
    judge.later(49)
    judge.process("g1")
    [fall] = [m for m in to(judge.new_mail(), CAROL) if m.subject == "g1 F1901M results"]
    assert "vote for a draw" not in fall.body  # no change since it was told


def test_a_concession_ends_the_game_with_a_winner(judge: Judge) -> None:
    for address, signon in ((ALICE, FRANCE), (BOB, GERMANY), (CAROL, ENGLAND)):
        judge.send(address, signon + "VOTE CONCEDE FRANCE")
    assert state(judge) == "finished"
    ended = next(m for m in judge.new_mail() if m.subject == "g1 has ended")
    assert "conceded to France by every other surviving power" in ended.body


def test_a_concession_is_agreed_by_the_other_survivors_without_the_winners_vote(judge: Judge) -> None:
    judge.send(ALICE, FRANCE + "VOTE DRAW")  # France's own vote, whatever it is, is not needed
    judge.send(BOB, GERMANY + "VOTE CONCEDE FRANCE")
    assert state(judge) == "active"  # England has not conceded
    judge.send(CAROL, ENGLAND + "VOTE CONCEDE FRANCE")
    assert state(judge) == "finished"
    assert "the votes of the surviving powers end the game: conceded to France" in judge.last_to(CAROL).body
    reply = judge.last_to(CAROL).body.splitlines()  # said under the vote that ends it, not under an empty "> "
    assert reply[reply.index("> VOTE CONCEDE FRANCE") + 2].startswith("  the votes of the surviving powers end")
    ended = {m.to: m.body for m in judge.new_mail() if m.subject == "g1 has ended"}
    assert set(ended) == {ALICE, BOB, CAROL, GM}
    assert "conceded to France by every other surviving power" in ended[ALICE]
    assert "DRAW" not in ended[BOB]  # France's vote stays its own
    with judge.db.transaction() as session:
        game = session.scalar(select(Game).where(Game.name == "g1"))
        assert game is not None and game.winner == "FRANCE"


def test_no_concession_to_a_resigned_power_and_two_survivors_need_one_concession(judge: Judge) -> None:
    judge.send(BOB, GERMANY + "RESIGN")
    judge.send(ALICE, FRANCE + "VOTE CONCEDE GERMANY")
    assert judge.outcome_of("VOTE CONCEDE GERMANY") == ("error", "NOT_A_VOTER")
    teleport(judge, {"phase": "S1903M", "units": {"FRANCE": ["A PAR"], "ENGLAND": ["F LON"]},
                     "centers": {"FRANCE": ["PAR"], "ENGLAND": ["LON"]}})
    judge.send(CAROL, ENGLAND + "VOTE DRAW")
    judge.send(ALICE, FRANCE + "VOTE CONCEDE ENGLAND")  # the only other survivor concedes
    assert state(judge) == "finished"
    with judge.db.transaction() as session:
        game = session.scalar(select(Game).where(Game.name == "g1"))
        assert game is not None and game.winner == "ENGLAND"


def test_no_draw_refuses_draw_votes(tmp_path: Path) -> None:
    judge = start(Judge(tmp_path), "NO_DRAW")
    judge.send(ALICE, FRANCE + "VOTE DRAW")
    assert judge.outcome_of("VOTE DRAW") == ("error", "NO_DRAW") and vote_of(judge, "FRANCE") is None


def test_an_eliminated_power_does_not_vote(judge: Judge) -> None:
    teleport(judge, {"phase": "S1903M", "units": {"FRANCE": ["A PAR"], "GERMANY": ["A MUN"], "ENGLAND": ["F NTH"]},
                     "centers": {"FRANCE": ["PAR"], "GERMANY": ["MUN"]}})
    judge.send(CAROL, ENGLAND + "VOTE DRAW")
    assert judge.outcome_of("VOTE DRAW") == ("error", "ELIMINATED") and vote_of(judge, "ENGLAND") is None
    judge.send(ALICE, FRANCE + "VOTE DRAW")
    judge.send(BOB, GERMANY + "VOTE DRAW")
    assert state(judge) == "finished"  # the two survivors with players agreed


# -- replacement players ---------------------------------------------------------------------------


def test_a_takeover_of_a_resigned_power_carries_the_treasury_over(judge: Judge) -> None:
    judge.send(BOB, GERMANY + "TRANSFER 8 TO ENGLAND\nACCEPT GEFAIRT\nRESIGN")
    judge.send(DAN, "TAKEOVER GERMANY@g1 dan-pw")
    assert judge.outcome_of("TAKEOVER GERMANY@g1 ****") == ("error", "NOT_OPEN")
    judge.send(GM, "LIST g1")
    assert "Germany: vacant" in judge.last_to(GM).body
    judge.send(GM, MASTER + "SET OPENING GERMANY")
    judge.new_mail()
    judge.send(DAN, "TAKEOVER GERMANY@g1 dan-pw")
    mails = judge.new_mail()
    briefing = next(m for m in mails if m.subject == "g1: your briefing as Germany").body
    assert "Your treasury: 40 AgP" in briefing and "Your acceptance list: GEFAIRT" in briefing
    assert "The board for S1901M:" in briefing and "England: 3 centers" in briefing
    assert "has a new player (dan@example.org)" in to(mails, ALICE)[0].body
    judge.send(DAN, "SIGNON G@g1 dan-pw\nSTATUS")
    assert "your balance: 40 AgP" in judge.last_to(DAN).body


def test_the_game_master_is_told_of_a_resignation_and_of_each_takeover_once(tmp_path: Path) -> None:
    judge = start(Judge(tmp_path), "OPEN_TAKEOVER")
    judge.send(BOB, GERMANY + "RESIGN")
    [told] = to(judge.new_mail(), GM)
    assert told.subject == "g1: the player of Germany resigned"
    assert "the player of Germany resigned: it is now a dummy" in told.body
    judge.send(DAN, "TAKEOVER GERMANY@g1 dan-pw")
    told_gm = to(judge.new_mail(), GM)
    assert [m.subject for m in told_gm] == ["g1: Germany taken over"]  # its own notice, not a copy besides
    assert "Germany in g1 was taken over by dan@example.org" in told_gm[0].body
    judge.send(GM, MASTER + "DUMMY GERMANY")  # the master's own doing: its reply says it
    assert [m.subject for m in to(judge.new_mail(), GM)] == ["Re: orders"]


def test_the_game_master_is_told_of_absences_asked_and_approved_at_once(tmp_path: Path) -> None:
    judge = start(Judge(tmp_path), "ABSENCE_DAYS=3")
    judge.send(ALICE, FRANCE + "SET ABSENCE 2026-01-06 TO 2026-01-07")  # within the allowance: approved at once
    [told] = to(judge.new_mail(), GM)
    assert "France is absent from 2026-01-06 to 2026-01-07: the deadline of S1901M moves to 2026-01-08" in told.body
    judge.send(BOB, GERMANY + "SET ABSENCE 2026-02-01 TO 2026-02-10")  # beyond it: the master decides
    [asked] = to(judge.new_mail(), GM)
    assert "APPROVE ABSENCE GERMANY" in asked.body
    judge.send(GM, MASTER + "DENY ABSENCE GERMANY")
    assert "absence of Germany denied; Germany is told" in judge.last_to(GM).body


def test_an_anonymous_game_does_not_say_who_took_a_power_over(tmp_path: Path) -> None:
    judge = start(Judge(tmp_path), "ANONYMOUS OPEN_TAKEOVER")
    judge.send(BOB, GERMANY + "RESIGN")
    judge.new_mail()
    judge.send(DAN, "TAKEOVER GERMANY@g1 dan-pw")
    news = to(judge.new_mail(), ALICE)
    assert "Germany has a new player" in news[0].body and DAN not in news[0].body


# -- observers --------------------------------------------------------------------------------------


def test_an_observer_receives_public_results_and_no_secrets(judge: Judge) -> None:
    judge.settings = replace(judge.settings, maps=True)
    judge.send(OBSERVER, "OBSERVE g1")
    assert "you will receive the public results of g1" in judge.last_to(OBSERVER).body
    judge.send(ALICE, FRANCE + "PRESS TO G\nSECRET_PRESS\nENDPRESS")
    play_spring(judge)
    results = next(m for m in to(judge.new_mail(), OBSERVER) if m.subject == "g1 S1901M results")
    assert "France: A PAR - BUR" in results.body and "The board for F1901M:" in results.body
    for secret in ("private statement", "account as", "your balance", "2 : A PAR - BUR", "SECRET_PRESS"):
        assert secret not in results.body
    assert "g1-S1901M-orders.png" in results.attachments
    judge.send(OBSERVER, "UNOBSERVE g1")
    judge.later(49)
    judge.process("g1")
    assert not [m for m in to(judge.new_mail(), OBSERVER) if "results" in m.subject]


def test_an_observer_is_told_when_a_seat_is_taken_over_and_never_by_whom(tmp_path: Path) -> None:
    """The players read who took a seat over (unless the game is ANONYMOUS); its observers read that
    it was taken, never a player's address."""
    judge = start(Judge(tmp_path), "OPEN_TAKEOVER")
    judge.send(OBSERVER, "OBSERVE g1")
    judge.send(BOB, GERMANY + "RESIGN")
    judge.new_mail()
    judge.send(DAN, "TAKEOVER GERMANY@g1 dan-pw")
    mails = judge.new_mail()
    [watched] = to(mails, OBSERVER)
    assert watched.subject == "g1: Germany has a new player"
    assert "Germany has a new player" in watched.body and DAN not in watched.body
    assert "Germany has a new player (dan@example.org)" in to(mails, ALICE)[0].body


@pytest.mark.parametrize("options", ["", "BLIND"])
def test_an_observer_is_told_of_the_start_and_of_a_resignation(tmp_path: Path, options: str) -> None:
    judge = Judge(tmp_path, maps=True)
    judge.send(GM, f"CREATE g1 gm-secret {options}".strip())
    judge.send(OBSERVER, "OBSERVE g1")
    judge.send(ALICE, "JOIN g1 alice-pw FRANCE")
    judge.send(BOB, "JOIN g1 bob-pw GERMANY")
    judge.new_mail()
    judge.send(GM, MASTER + "START")
    [started] = [m for m in judge.new_mail() if m.to == OBSERVER]
    assert started.subject == "g1 starts"
    assert "  France: played\n" in started.body and "  Austria: dummy\n" in started.body
    assert "First phase: S1901M, deadline 2026-01-07 12:00" in started.body
    assert "You observe this game" in started.body and "UNOBSERVE g1" in started.body
    assert "Your balance" not in started.body and "You play" not in started.body and "SIGNON" not in started.body
    assert bool(started.attachments) is not bool(options)  # a Tin Cup game's board is no observer's
    judge.send(BOB, GERMANY + "RESIGN")
    [told] = [m for m in judge.new_mail() if m.to == OBSERVER]
    assert "the player of Germany resigned: it is now a dummy" in told.body and BOB not in told.body


def test_no_observers_option(tmp_path: Path) -> None:
    judge = start(Judge(tmp_path), "NO_OBSERVERS")
    judge.send(OBSERVER, "OBSERVE g1")
    assert judge.outcome_of("OBSERVE g1") == ("error", "NO_OBSERVERS")


# -- absences ---------------------------------------------------------------------------------------


def test_an_absence_within_the_allowance_moves_the_deadline(tmp_path: Path) -> None:
    judge = start(Judge(tmp_path), "ABSENCE_DAYS=10")  # started 2026-01-05 12:00; deadline 2026-01-07 12:00
    judge.send(ALICE, FRANCE + "SET ABSENCE 2026-01-06 TO 2026-01-09")
    mails = judge.new_mail()
    assert judge.outcome_of("SET ABSENCE 2026-01-06 TO 2026-01-09") == ("ok", "ABSENCE_APPROVED")
    with judge.db.transaction() as session:  # 4 days of the game's 10 a year
        assert [(a.seat, a.start, a.end, a.status) for a in session.scalars(select(Absence))] == [
            ("FRANCE", date(2026, 1, 6), date(2026, 1, 9), "approved")]
    news = to(mails, BOB)
    assert "France is absent from 2026-01-06 to 2026-01-09: the deadline of S1901M moves to 2026-01-10 12:00" \
        in news[0].body
    judge.later(49)
    assert judge.process("g1").startswith("g1 S1901M is not due")


def test_an_absence_beyond_the_allowance_waits_for_the_game_master(judge: Judge) -> None:
    judge.send(ALICE, FRANCE + "SET ABSENCE 2026-01-06 TO 2026-01-08")
    assert judge.outcome_of("SET ABSENCE 2026-01-06 TO 2026-01-08") == ("ok", "ABSENCE_ASKED")
    assert "APPROVE ABSENCE FRANCE" in judge.last_to(GM).body
    judge.send(GM, MASTER + "APPROVE ABSENCE FRANCE")
    assert "the deadline of S1901M moves to 2026-01-09 12:00 UTC" in judge.last_to(BOB).body


# -- STATUS ------------------------------------------------------------------------------------------


def test_status_shows_the_powers_own_vote_wait_and_absence_and_nobody_elses(tmp_path: Path) -> None:
    judge = start(Judge(tmp_path), "ABSENCE_DAYS=10")
    judge.send(CAROL, ENGLAND + "STATUS")
    before = judge.last_to(CAROL).body
    assert "your vote (secret): none" in before and "WAIT" not in before and "absence" not in before
    judge.send(ALICE, FRANCE + "VOTE DRAW\nWAIT\nSET ABSENCE 2026-01-20 TO 2026-01-22\nSTATUS")
    status = [m for m in judge.all_mail() if m.to == ALICE and m.subject == "Re: orders"][-1].body.split(
        "> STATUS", 1)[1]
    assert "your vote (secret): for a draw including all survivors" in status
    assert "you asked S1901M to WAIT for its deadline (NOWAIT to withdraw)" in status
    assert "your absence: 2026-01-20 to 2026-01-22, approved" in status
    judge.send(BOB, GERMANY + "VOTE CONCEDE FRANCE\nTRANSFER 8 TO ITALY\n2 : A MUN - RUH")
    judge.send(CAROL, ENGLAND + "STATUS")
    after = judge.last_to(CAROL).body
    assert after == before  # nothing of another power's vote, WAIT, absence, money or sheet


def test_the_masters_status_shows_every_power_but_never_what_it_sent(tmp_path: Path) -> None:
    judge = start(Judge(tmp_path), "ABSENCE_DAYS=3")
    judge.send(ALICE, FRANCE + "2 : A PAR - BUR\nVOTE DRAW\nWAIT")
    judge.send(BOB, GERMANY + "TRANSFER 8 TO ENGLAND\nVOTE CONCEDE FRANCE")
    judge.send(CAROL, ENGLAND + "SET ABSENCE 2026-02-01 TO 2026-02-10\nRESIGN")
    judge.send(GM, MASTER + "SET OPENING ENGLAND\nSTATUS")
    status = judge.last_to(GM).body.split("> STATUS", 1)[1]
    assert "game g1, active, phase S1901M, deadline 2026-01-07 12:00" in status
    assert "  France: played; submitted; 48 AgP; vote: for a draw including all survivors" in status
    assert "asking S1901M to WAIT for its deadline: France" in status
    assert ("  Germany: played; waiting; 40 AgP (transfers this phase: -8 to England); vote: to concede the game to "
            "France") in status
    assert "  England: vacant, open for TAKEOVER; nothing to order; 56 AgP (transfers this phase: +8 from Germany)" \
        in status
    assert "  Italy: dummy; nothing to order;" in status
    assert "England absent: 2026-02-01 to 2026-02-10, asked (the game master decides)" in status
    assert "A PAR - BUR" not in status  # who has submitted, never what


# -- history and summary ----------------------------------------------------------------------------


def test_history_returns_every_processed_phase(judge: Judge) -> None:
    play_spring(judge)
    judge.later(49)
    judge.process("g1")
    judge.send(OBSERVER, "HISTORY g1")
    reply = judge.last_to(OBSERVER)
    history = reply.attachments["g1-history.txt"][1].decode() if reply.attachments else reply.body
    assert "results of S1901M" in history and "results of F1901M" in history
    assert "France: A PAR - BUR" in history and "private statement" not in history and "2 : A" not in history
    judge.send(OBSERVER, "HISTORY g1 F1901M")
    reply = judge.last_to(OBSERVER)
    history = reply.attachments["g1-history.txt"][1].decode() if reply.attachments else reply.body
    assert "results of F1901M" in history and "results of S1901M" not in history


def test_summary_counts_centers_year_by_year_and_tells_the_result(judge: Judge) -> None:
    play_spring(judge)
    judge.terminate(GM, MASTER)
    judge.send(ALICE, "SUMMARY g1")
    reply = judge.last_to(ALICE)
    summary = reply.attachments["g1-summary.txt"][1].decode() if reply.attachments else reply.body
    assert "1901     3   3   3   3   3   4   3" in summary
    assert "Result: the game master ended the game." in summary and "France: alice@example.org" in summary


def test_addresses_at_the_end_only_for_the_games_players_and_master(judge: Judge) -> None:
    judge.send(OBSERVER, "OBSERVE g1")
    judge.terminate(GM, MASTER)
    ends = {m.to: m.body for m in judge.new_mail() if m.subject == "g1 has ended"}
    assert set(ends) == {GM, ALICE, BOB, CAROL, OBSERVER}
    for address in (GM, ALICE):
        assert "France: alice@example.org" in ends[address] and "Germany: bob@example.org" in ends[address]
    assert "France: a player" in ends[OBSERVER] and "Italy: (nobody)" in ends[OBSERVER]
    assert "@example.org" not in ends[OBSERVER]
    for asker in (OBSERVER, "stranger@example.net"):
        judge.send(asker, "SUMMARY g1")
        summary = judge.last_to(asker).body
        assert "France: a player" in summary and "@example.org" not in summary.replace(asker, "")
    judge.send(BOB, "SUMMARY g1", headers={"Reply-To": OBSERVER})  # the answer goes to the observer
    assert "alice@example.org" not in judge.last_to(OBSERVER).body


def test_every_player_of_a_seat_is_named_with_the_phases_played_and_summary_tells_absences(
        tmp_path: Path) -> None:
    judge = start(Judge(tmp_path), "OPEN_TAKEOVER ABSENCE_DAYS=10")
    judge.send(OBSERVER, "OBSERVE g1")
    play_spring(judge)  # every sheet in: S1901M is processed, F1901M opens
    judge.send(BOB, GERMANY + "RESIGN")
    judge.send(DAN, "TAKEOVER GERMANY@g1 dan-pw")
    judge.send(ALICE, FRANCE + "SET ABSENCE 2026-01-20 TO 2026-01-21")
    judge.new_mail()
    judge.terminate(GM, MASTER)
    ends = {m.to: m.body for m in judge.new_mail() if m.subject == "g1 has ended"}
    both = "Germany: bob@example.org (S1901M to F1901M), dan@example.org (F1901M to the end)"
    assert both in ends[GM] and both in ends[ALICE] and both in ends[DAN]
    assert "France: alice@example.org (S1901M to the end)" in ends[ALICE]
    assert "Germany: a player (S1901M to F1901M), a player (F1901M to the end)" in ends[OBSERVER]
    assert "@example.org" not in ends[OBSERVER]
    judge.send(GM, "SUMMARY g1")
    summary = judge.last_to(GM).body
    assert both in summary
    assert "F1901M: France absent from 2026-01-20 to 2026-01-21 (approved)" in summary
    assert "F1901M: the player of Germany resigned" in summary and "F1901M: Germany taken over" in summary
    judge.send("stranger@example.net", "SUMMARY g1")
    told = judge.last_to("stranger@example.net").body
    assert "Germany: a player (S1901M to F1901M), a player (F1901M to the end)" in told
    assert "@example.org" not in told
    # the board's order
    assert told.index("\n    England: ") < told.index("\n    France: ") < told.index("\n    Germany: ")


def test_an_anonymous_games_players_see_no_address_of_a_replaced_player(tmp_path: Path) -> None:
    judge = start(Judge(tmp_path), "ANONYMOUS")
    judge.send(GM, MASTER + f"DUMMY GERMANY\nREPLACE GERMANY {DAN}")
    token = next(m.body for m in reversed(judge.all_mail()) if m.to == DAN and "CONFIRM " in m.body)
    judge.send(DAN, "CONFIRM " + token.split("CONFIRM ", 1)[1].split()[0] + " dan-pw")
    judge.terminate(GM, MASTER)
    ends = {m.to: m.body for m in judge.new_mail() if m.subject == "g1 has ended"}
    assert "Germany: bob@example.org (S1901M to S1901M), dan@example.org (S1901M to the end)" in ends[GM]
    assert "Germany: a player (S1901M to S1901M), a player (S1901M to the end)" in ends[ALICE]
    assert BOB not in ends[ALICE] and DAN not in ends[ALICE]


def test_an_anonymous_games_addresses_go_to_its_master_alone(tmp_path: Path) -> None:
    judge = start(Judge(tmp_path), "ANONYMOUS")
    judge.terminate(GM, MASTER)
    ends = {m.to: m.body for m in judge.new_mail() if m.subject == "g1 has ended"}
    assert "France: alice@example.org" in ends[GM]
    assert "France: a player" in ends[ALICE] and "bob@example.org" not in ends[ALICE]
    judge.send(ALICE, "SUMMARY g1")
    assert "bob@example.org" not in judge.last_to(ALICE).body


# -- the master's tools of Payola's: PREVIEW and REVEAL ----------------------------------------------


def test_preview_changes_nothing(judge: Judge) -> None:
    judge.send(ALICE, FRANCE + "2 : A PAR - BUR")
    judge.new_mail()
    judge.send(GM, MASTER + "PREVIEW")
    mails = judge.new_mail()
    assert [m.to for m in mails] == [GM]
    chart = mails[0].attachments["g1-S1901M-preview.txt"][1].decode()
    assert "A PAR (France) issued A PAR - BUR, total 2" in chart
    judge.send(ALICE, FRANCE + "STATUS")
    status = judge.last_to(ALICE).body
    assert "phase S1901M" in status and "your balance: 48 AgP" in status


def test_reveal_asks_for_confirmation_then_publishes_while_the_game_goes_on(judge: Judge) -> None:
    play_spring(judge)
    judge.send(GM, MASTER + "REVEAL")
    reply = judge.last_to(GM).body
    code = reply.split("send REVEAL ", 1)[1].split()[0]
    assert not [m for m in judge.new_mail() if "revealed" in m.subject]
    judge.send(GM, MASTER + "REVEAL wrong")
    assert judge.outcome_of("REVEAL wrong") == ("error", "WRONG_CODE")
    judge.send(GM, MASTER + f"REVEAL {code}")
    revealed = [m for m in judge.new_mail() if m.subject == "g1: every secret revealed"]
    assert {m.to for m in revealed} == {ALICE, BOB, CAROL, GM}
    assert "2 : A PAR - BUR" in revealed[0].body and state(judge) == "active"


def test_a_terminate_code_is_used_once_and_a_reveal_code_does_not_end_the_game(judge: Judge) -> None:
    judge.send(GM, MASTER + "REVEAL")
    reveal = judge.last_to(GM).body.split("send REVEAL ", 1)[1].split()[0]
    judge.send(GM, MASTER + f"TERMINATE {reveal}")  # no TERMINATE was asked: a new code, nothing ended
    reply = judge.last_to(GM).body
    assert state(judge) == "active" and "to confirm, send TERMINATE " in reply
    code = reply.split("to confirm, send TERMINATE ", 1)[1].split()[0]
    judge.send(GM, MASTER + "TERMINATE")  # asked again: the new code replaces the old one
    newer = judge.last_to(GM).body.split("to confirm, send TERMINATE ", 1)[1].split()[0]
    assert newer != code
    judge.send(GM, MASTER + f"TERMINATE {code}")
    assert state(judge) == "active" and judge.outcome_of(f"TERMINATE {code}") == ("error", "WRONG_CODE")
    judge.send(GM, MASTER + f"TERMINATE {newer}")
    assert state(judge) == "finished"
