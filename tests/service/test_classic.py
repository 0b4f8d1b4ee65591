"""What players of the classic judges (njudge, DPjudge) look for (issue 29; issue 23.34): press
options and grey press, power preferences at JOIN, REPLACE by the game master, time zones.
Each through the game service as mail."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from sqlalchemy import select

from judge.store.models import Player
from tests.support.harness import Judge, Sent
from tests.support.people import GM

ALICE, BOB, CAROL, DAN = "alice@example.org", "bob@example.org", "carol@example.org", "dan@example.org"
OBSERVER = "watcher@example.org"
MASTER = "SIGNON MASTER@g1 gm-secret\n"
FRANCE, GERMANY, ENGLAND = "SIGNON F@g1 alice-pw\n", "SIGNON G@g1 bob-pw\n", "SIGNON E@g1 carol-pw\n"


def game(tmp_path: Path, *options: str) -> Judge:
    """Game g1 with ``options`` at CREATE, France (Alice), Germany (Bob) and England (Carol)
    playing, and an observer; the mail so far is read."""
    judge = Judge(tmp_path)
    judge.send(GM, " ".join(["CREATE g1 gm-secret", *options]))
    judge.send(ALICE, "JOIN g1 alice-pw FRANCE")
    judge.send(BOB, "JOIN g1 bob-pw GERMANY")
    judge.send(CAROL, "JOIN g1 carol-pw ENGLAND")
    judge.send(OBSERVER, "OBSERVE g1")
    judge.send(GM, MASTER + "START")
    judge.new_mail()
    return judge


@pytest.fixture
def judge(tmp_path: Path) -> Judge:
    return game(tmp_path)


def by_address(mails: list[Sent]) -> dict[str, Sent]:
    return {m.to: m for m in mails}


# -- 29.1 and 23.34: press options ------------------------------------------------------------------


def test_press_to_all_is_copied_to_the_master_and_to_observers(judge: Judge) -> None:
    judge.send(ALICE, FRANCE + "PRESS TO ALL\nPeace in our time.\nENDPRESS")
    mails = by_address(judge.new_mail())
    assert set(mails) == {ALICE, BOB, CAROL, GM, OBSERVER}
    for reader in (BOB, CAROL, GM, OBSERVER):
        assert "Press in g1 from France to everyone:" in mails[reader].body
        assert "Peace in our time." in mails[reader].body
    assert "press sent to England, Germany, the game master and 1 observer" in mails[ALICE].body


def test_observers_need_not_receive_broadcasts(judge: Judge) -> None:
    judge.send(GM, MASTER + "SET PRESS OBSERVERS OFF\nBROADCAST\nFor the players.\nENDPRESS")
    mails = judge.new_mail()
    watched = [m for m in mails if m.to == OBSERVER]  # only the public news of the change (issue 23.10)
    assert [m.subject for m in watched] == ["g1: the game master changed the press options"]
    assert "For the players." not in watched[0].body
    assert any("For the players." in m.body for m in mails if m.to == BOB)


def test_grey_press_never_tells_its_reader_who_sent_it(tmp_path: Path) -> None:
    judge = game(tmp_path, "PRESS=WHITE/GREY")
    judge.send(ALICE, FRANCE + "PRESS TO ENGLAND GREY\nGermany plans to stab you.\nENDPRESS")
    mails = judge.new_mail()
    grey = next(m for m in mails if m.to == CAROL)
    assert "Germany plans to stab you." in grey.body
    assert "Grey press in g1 (its sender is not named):" in grey.body
    reply = next(m for m in mails if m.to == ALICE)
    stamp = reply.headers["Message-ID"].strip("<>").split(".")[0][:10]  # the moment, to a tenth of a second
    for trace in ("France", "FRANCE", "alice", "Alice", stamp):
        assert trace not in grey.body and trace not in grey.subject
        assert not any(trace in value for value in grey.headers.values()), trace
    assert "In-Reply-To" not in grey.headers and "References" not in grey.headers
    told = next(m for m in mails if m.to == GM)
    assert "Press in g1 from France" in told.body and "grey press: its other readers were not told" in told.body
    assert "grey press sent to England (the game master is told who sent it)" in reply.body
    assert {m.to for m in mails} == {ALICE, CAROL, GM}


def test_grey_broadcast_reaches_observers_unsigned(tmp_path: Path) -> None:
    judge = game(tmp_path, "PRESS=GREY")
    judge.send(ALICE, FRANCE + "BROADCAST\nSomeone will stab someone.\nENDPRESS")  # grey by default here
    mails = by_address(judge.new_mail())
    for reader in (BOB, CAROL, OBSERVER):
        assert "Grey press in g1 to everyone (its sender is not named):" in mails[reader].body
        assert "France" not in mails[reader].body
    assert "Press in g1 from France to everyone:" in mails[GM].body


def test_one_mail_sends_grey_or_white_press_never_both(tmp_path: Path) -> None:
    judge = game(tmp_path, "PRESS=WHITE/GREY")
    judge.send(ALICE, FRANCE + "PRESS TO G\nHello from France.\nENDPRESS\nPRESS TO E GREY\nA rumour.\nENDPRESS\n"
               "PRESS TO M\nTo the master, always.\nENDPRESS")
    mails = judge.new_mail()
    assert not any("A rumour." in m.body for m in mails)
    assert any("To the master, always." in m.body for m in mails if m.to == GM)
    assert judge.outcome_of("PRESS TO E GREY") == ("error", "MIXED_PRESS")
    judge.send(ALICE, FRANCE + "PRESS TO E GREY\nA rumour.\nENDPRESS\nPRESS TO G\nHello again.\nENDPRESS")
    mails = judge.new_mail()
    assert any("A rumour." in m.body for m in mails if m.to == CAROL)
    assert not any("Hello again." in m.body for m in mails)


def test_a_white_game_refuses_grey_press_and_a_grey_game_white(tmp_path: Path) -> None:
    judge = game(tmp_path)
    judge.send(ALICE, FRANCE + "PRESS TO E GREY\nA rumour.\nENDPRESS")
    assert judge.outcome_of("PRESS TO E GREY") == ("error", "WHITE_ONLY")
    assert not any(m.to == CAROL for m in judge.new_mail())
    judge.send(GM, MASTER + "SET PRESS GREY")
    judge.send(ALICE, FRANCE + "PRESS TO E WHITE\nSigned.\nENDPRESS")
    assert judge.outcome_of("PRESS TO E WHITE") == ("error", "GREY_ONLY")


def test_a_game_without_press_takes_press_to_the_master_only(tmp_path: Path) -> None:
    judge = game(tmp_path, "PRESS=NONE")
    judge.send(ALICE, FRANCE + "PRESS TO G\nDeal?\nENDPRESS\nPRESS TO M\nA question.\nENDPRESS")
    mails = by_address(judge.new_mail())
    assert BOB not in mails
    assert "A question." in mails[GM].body
    assert judge.outcome_of("PRESS TO G") == ("error", "NO_PRESS") and judge.outcome_of("PRESS TO M")[0] == "ok"


def test_a_game_without_partial_press_takes_broadcasts_only(tmp_path: Path) -> None:
    judge = game(tmp_path, "NO_PARTIAL")
    judge.send(ALICE, FRANCE + "PRESS TO G\nJust us.\nENDPRESS\nPRESS TO ALL\nEveryone.\nENDPRESS")
    mails = by_address(judge.new_mail())
    assert "Just us." not in mails[BOB].body and "Everyone." in mails[BOB].body
    assert judge.outcome_of("PRESS TO G") == ("error", "BROADCAST_ONLY")


def test_press_between_the_main_phases_may_be_forbidden(judge: Judge) -> None:
    judge.send(GM, MASTER + "SET PRESS BETWEEN OFF")
    judge.send(ALICE, FRANCE + "3 : A MAR - SPA")
    judge.process("g1", force=True)
    judge.process("g1", force=True)  # France holds Spain: it builds in W1901A
    judge.new_mail()
    judge.send(ALICE, FRANCE + "PRESS TO G\nAfter the winter.\nENDPRESS\nPRESS TO M\nA question.\nENDPRESS")
    mails = by_address(judge.new_mail())
    assert BOB not in mails and "A question." in mails[GM].body
    assert judge.outcome_of("PRESS TO G") == ("error", "NO_PRESS_BETWEEN")


def test_set_press_is_announced_and_listed(judge: Judge) -> None:
    judge.send(GM, MASTER + "SET PRESS WHITE/GREY\nSET PRESS PARTIAL OFF")
    mails = by_address(judge.new_mail())
    assert "OK: press: white/grey press, press to some players" in mails[GM].body
    assert "the game master changed the press options: white/grey press, broadcasts only" in mails[BOB].body
    judge.send(DAN, "LIST g1")
    assert "press: white/grey press, broadcasts only, broadcasts copied to observers" in judge.last_to(DAN).body


def test_the_press_options_hold_in_a_pirates_match(tmp_path: Path) -> None:
    judge = Judge(tmp_path)
    judge.send(GM, "CREATE p1 gm-secret pirates PLAYERS=4 PRESS=NONE")
    for name in ("Ann", "Ben", "Cat", "Dov"):
        judge.send(f"{name.lower()}@example.org", f"JOIN p1 {name.lower()}-pw {name}")
    judge.send(GM, "SIGNON MASTER@p1 gm-secret\nSTART\nSET PRESS BETWEEN OFF")
    assert judge.outcome_of("SET PRESS BETWEEN OFF") == ("error", "NO_PHASES_BETWEEN")
    judge.new_mail()
    judge.send("ann@example.org", "SIGNON Ann@p1 ann-pw\nPRESS TO Ben\nPsst.\nENDPRESS")
    assert not any(m.to == "ben@example.org" for m in judge.new_mail())
    assert judge.outcome_of("PRESS TO Ben") == ("error", "NO_PRESS")


# -- 29.2: power preferences at JOIN ------------------------------------------------------------------


def test_preferences_at_join_are_met_and_each_player_told_how(tmp_path: Path) -> None:
    judge = Judge(tmp_path)
    judge.send(GM, "CREATE g1 gm-secret")
    judge.send(ALICE, "JOIN g1 alice-pw PREFER FEG")
    judge.send(BOB, "JOIN g1 bob-pw PREFER FRANCE GERMANY ENGLAND")
    judge.send(CAROL, "JOIN g1 carol-pw PREFER F")
    judge.send(DAN, "JOIN g1 dan-pw")
    assert "OK: you joined 'g1'; powers are assigned when the game starts; your preferences, best first: France, " \
           "Germany, England" in judge.last_to(BOB).body
    judge.new_mail()
    judge.send(GM, MASTER + "START")
    starts = {m.to: m.body for m in judge.new_mail() if m.subject == "g1 starts"}
    played = {address: body.split("You play ", 1)[1].split(" ", 1)[0] for address, body in starts.items()
              if address != GM}
    assert len(set(played.values())) == 4
    assert played[ALICE] in ("France", "Germany", "England") and played[BOB] in ("France", "Germany", "England")
    assert "France" in played.values()  # someone's first choice: the first drawn gets theirs
    if played[CAROL] != "France":  # Carol asked for France alone: drawn after whoever got it
        assert "you asked for France, but it was taken by a player drawn before you" in starts[CAROL]
    assert "you asked for no power, so yours was drawn by lot among the powers left" in starts[DAN]
    for address in (ALICE, BOB):
        assert "your first choice" in starts[address] or "your choice " in starts[address]


def test_prefer_names_powers_of_the_board_once_each(tmp_path: Path) -> None:
    judge = Judge(tmp_path)
    judge.send(GM, "CREATE g1 gm-secret")
    judge.send(ALICE, "JOIN g1 alice-pw PREFER FEF")
    assert judge.outcome_of("JOIN g1 **** PREFER FEF") == ("error", "BAD_WISH")  # France twice
    judge.send(ALICE, "JOIN g1 alice-pw PREFER FRANCE NARNIA")
    assert judge.outcome_of("JOIN g1 **** PREFER FRANCE NARNIA") == ("error", "BAD_WISH")
    judge.send(ALICE, "JOIN g1 alice-pw PREFER")
    assert judge.outcome_of("JOIN g1 **** PREFER") == ("error", "SYNTAX")
    with judge.db.transaction() as session:
        assert session.scalars(select(Player)).all() == []  # none of them joined


def test_prefer_does_not_apply_to_pirates_proposal(tmp_path: Path) -> None:
    judge = Judge(tmp_path)
    judge.send(GM, "CREATE p1 gm-secret pirates PLAYERS=4")
    judge.send(ALICE, "JOIN p1 alice-pw PREFER Ann")
    assert judge.outcome_of("JOIN p1 **** PREFER Ann") == ("error", "BAD_WISH")


# -- 29.4: REPLACE by the game master -----------------------------------------------------------------


def replace_token(judge: Judge, address: str) -> str:
    mail = next(m for m in reversed(judge.all_mail()) if m.to == address and m.subject.startswith("Please confirm"))
    match = re.search(r"^CONFIRM (\S+) yourpassword$", mail.body, re.M)
    assert match, mail.body
    return match.group(1)


def test_replace_gives_the_power_to_a_new_address_once_it_confirms_with_its_own_password(judge: Judge) -> None:
    judge.send(GM, MASTER + f"REPLACE FRANCE {DAN}")
    assert judge.outcome_of(f"REPLACE FRANCE {DAN}") == ("ok", "TO_CONFIRM")
    token = replace_token(judge, DAN)
    judge.new_mail()
    judge.send(DAN, f"CONFIRM {token}", confirm=False)
    assert judge.outcome_of(f"CONFIRM {token}") == ("error", "PASSWORD_NEEDED")
    judge.new_mail()
    judge.send(DAN, f"CONFIRM {token} Dan-Sesame-29", confirm=False)
    mails = judge.new_mail()
    reply = next(m for m in mails if m.to == DAN and m.subject.startswith("Re:"))
    assert "OK: you now play France in g1 (SIGNON FRANCE@g1 and the password you chose); a briefing follows" in \
        reply.body
    assert any(m.to == DAN and m.subject == "g1: your briefing as France" for m in mails)
    assert any(m.to == ALICE and m.subject == "g1: you no longer play France" for m in mails)
    told = f"{DAN} confirmed and now plays France in g1 in place of {ALICE}"
    assert any(m.to == GM and told in m.body for m in mails)
    for reader in (BOB, CAROL):
        assert any(f"the game master gave France to a new player ({DAN})" in m.body for m in mails if m.to == reader)
    assert not any("Dan-Sesame-29" in m.body for m in mails)
    judge.send(DAN, "SIGNON F@g1 Dan-Sesame-29\nSTATUS")
    assert judge.outcome_of("SIGNON F@g1 ****") == ("ok", None)  # with the password Dan chose
    judge.send(ALICE, FRANCE + "STATUS")
    assert "signed on as France" not in judge.last_to(ALICE).body


def test_replace_in_an_anonymous_game_does_not_say_who(tmp_path: Path) -> None:
    judge = game(tmp_path, "ANONYMOUS")
    judge.send(GM, MASTER + f"REPLACE G {DAN}")
    judge.send(DAN, f"CONFIRM {replace_token(judge, DAN)} Dan-Sesame-29", confirm=False)
    news = [m for m in judge.new_mail() if m.to in (ALICE, CAROL) and "new player" in m.body]
    assert len(news) == 2 and all(DAN not in m.body and "gave Germany to a new player" in m.body for m in news)


def test_replace_refuses_an_address_that_plays_already(judge: Judge) -> None:
    judge.send(GM, MASTER + f"REPLACE G {ALICE}\nREPLACE NARNIA {DAN}")
    assert judge.outcome_of(f"REPLACE G {ALICE}") == ("error", "ALREADY_PLAYING")
    assert judge.outcome_of(f"REPLACE NARNIA {DAN}") == ("error", "NO_SUCH_SEAT")


# -- 29.5: time zones -----------------------------------------------------------------------------------


def test_the_games_zone_writes_every_deadline_with_utc_beside_it(judge: Judge) -> None:
    judge.send(GM, MASTER + "SET ZONE Europe/Paris")
    mails = judge.new_mail()
    assert "OK: the game's zone is Europe/Paris" in judge.last_to(GM).body
    news = next(m for m in mails if m.to == BOB and "time zone" in m.subject)
    assert "deadline 2026-01-07 13:00 CET (12:00 UTC)" in news.body
    judge.process("g1", force=True)  # F1901M: 48 hours from now
    results = [m for m in judge.new_mail() if m.to in (OBSERVER, CAROL)]
    assert len(results) == 2 and all("2026-01-07 13:00 CET (12:00 UTC)" in m.body for m in results)


def test_a_players_own_zone_comes_first_and_the_date_changes_with_it(judge: Judge) -> None:
    judge.send(GM, MASTER + "SET ZONE Europe/Paris")
    judge.send(ALICE, FRANCE + "SET MYZONE Asia/Tokyo\nSTATUS")
    reply = judge.last_to(ALICE).body
    assert "OK: your mail writes deadlines in Asia/Tokyo" in reply
    assert "2026-01-07 21:00 JST (12:00 UTC)" in reply
    judge.send(GM, MASTER + "SET DEADLINE 2026-01-08 01:30")  # Paris: 00:30 UTC, in Tokyo the 8th, 09:30
    mails = judge.new_mail()
    assert any("2026-01-08 09:30 JST (00:30 UTC)" in m.body for m in mails if m.to == ALICE)
    assert any("2026-01-08 01:30 CET (00:30 UTC)" in m.body for m in mails if m.to == BOB)
    judge.send(ALICE, FRANCE + "SET MYZONE America/New_York\nSTATUS")
    assert "2026-01-07 19:30 EST (2026-01-08 00:30 UTC)" in judge.last_to(ALICE).body
    judge.send(ALICE, FRANCE + "SET MYZONE Narnia/Cair_Paravel")
    assert judge.outcome_of("SET MYZONE Narnia/Cair_Paravel") == ("error", "BAD_ZONE")


def test_set_myzone_answers_with_the_deadline_as_the_new_zone_writes_it(judge: Judge) -> None:
    """S1901M is due 2026-01-07 12:00 UTC: the answer to SET MYZONE says so in the zone chosen, 21:00
    in Tokyo, as the player's mail will write it from now on; SET MYZONE GAME, in the game's (Paris:
    13:00). The game master's SET ZONE answers the same way."""
    judge.send(GM, MASTER + "SET ZONE Europe/Paris")
    assert "the deadline of S1901M is 2026-01-07 13:00 CET (12:00 UTC)" in judge.last_to(GM).body
    judge.send(ALICE, FRANCE + "SET MYZONE Asia/Tokyo")
    reply = judge.last_to(ALICE).body
    assert "OK: your mail writes deadlines in Asia/Tokyo, with UTC beside them; the deadline of S1901M is " \
           "2026-01-07 21:00 JST (12:00 UTC)" in reply, reply
    judge.send(ALICE, FRANCE + "SET MYZONE GAME")
    assert "the deadline of S1901M is 2026-01-07 13:00 CET (12:00 UTC)" in judge.last_to(ALICE).body


def test_set_deadline_reads_the_games_zone_across_summer_time(judge: Judge) -> None:
    judge.send(GM, MASTER + "SET ZONE Europe/Paris\nSET DEADLINE 2026-03-28 12:00\nSET DEADLINE 2026-03-29 12:00")
    reply = judge.last_to(GM).body
    assert "OK: deadline set to 2026-03-28 12:00 CET (11:00 UTC)" in reply  # the day before summer time
    assert "OK: deadline set to 2026-03-29 12:00 CEST (10:00 UTC)" in reply  # the day it starts
    judge.send(GM, MASTER + "SET DEADLINE 2026-03-29 02:30\nSET DEADLINE 2026-10-25 02:30\nSET DEADLINE "
               "2026-10-25 12:00 UTC")
    reply = judge.last_to(GM).body
    assert judge.outcome_of("SET DEADLINE 2026-03-29 02:30") == ("error", "NO_SUCH_TIME")
    assert "OK: deadline set to 2026-10-25 02:30 CEST (00:30 UTC)" in reply  # twice that night: the first
    assert "OK: deadline set to 2026-10-25 13:00 CET (12:00 UTC)" in reply  # a zone written: read in it
    assert "> SET DEADLINE 2026-10-25 12:00 UTC\n" in reply  # what the master wrote is quoted as written


def test_press_is_delivered_as_written(judge: Judge) -> None:
    judge.send(GM, MASTER + "SET ZONE Europe/Paris")
    judge.send(ALICE, FRANCE + "PRESS TO G\nMeet me at 2026-01-07 11:00 UTC.\nENDPRESS")
    assert "Meet me at 2026-01-07 11:00 UTC." in judge.last_to(BOB).body


def test_subjects_and_answers_about_a_game_are_written_in_its_readers_zone(judge: Judge) -> None:
    """A deadline in a subject is in the reader's zone as in the body, and SUMMARY of a game for
    someone who neither plays nor signed on is in the game's zone, not in UTC alone."""
    judge.send(GM, MASTER + "SET ZONE Europe/Paris")
    judge.send(ALICE, FRANCE + "SET MYZONE Asia/Tokyo")
    judge.new_mail()
    judge.send(GM, MASTER + "SET DEADLINE 2026-01-08 01:30")  # Paris: 00:30 UTC, in Tokyo the 8th, 09:30
    subjects = {m.to: m.subject for m in judge.new_mail() if m.subject != "Re: orders"}
    moved = "g1: the game master set the deadline of S1901M to "
    assert subjects[BOB] == moved + "2026-01-08 01:30 CET (00:30 UTC)", subjects
    assert subjects[OBSERVER] == subjects[BOB]
    assert subjects[ALICE] == moved + "2026-01-08 09:30 JST (00:30 UTC)"
    judge.send(GM, MASTER + "PROCESS")  # early: SUMMARY keeps when
    judge.send(DAN, "SUMMARY g1")
    summary = judge.last_to(DAN).body
    assert "2026-01-05 13:00 CET (12:00 UTC)" in summary and "12:00 UTC" not in summary.replace("(12:00 UTC)", "")
    judge.send(ALICE, "SUMMARY g1")  # not signed on, from her address: her own zone
    assert "2026-01-05 21:00 JST (12:00 UTC)" in judge.last_to(ALICE).body
    judge.send(ALICE, FRANCE + "SET MYZONE Pacific/Kiritimati\nSUMMARY g1")  # signed on: the reply's own pass too
    summary = judge.last_to(ALICE).body
    assert "PROCESS, 2026-01-06 02:00 +14 (2026-01-05 12:00 UTC) (deadline was" in summary, summary
