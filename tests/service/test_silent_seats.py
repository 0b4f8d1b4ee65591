"""The policy for silent seats (SET SILENCE, `judge.service.hosting.silence`, `judge.service.hosting.silent_seats`)
on the test kind's game g1 (`tests.support.auction`: Alice and Bob, four lots; L1 due 24 hours
after its start, 2026-01-06 12:00 UTC; Alice has bid, Bob is silent): what STATUS says of it, how
many extensions a late seat gets, and when it is abandoned."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import select

from judge.service.hosting import records, silence
from judge.service.hosting.kinds import kind_of
from judge.store.models import Game, PlayerRecord
from judge.web.pages import web_root
from judge.web.public import outcome
from tests.service.every_kind import PAYOLA, TESTED, Kind
from tests.support.auction import MASTER, SEATS, auction_judge, bid, master, send, start_auction, state
from tests.support.harness import Judge, Sent
from tests.support.people import ALICE, BOB, CAROL, GM, OBSERVER
from tests.web.page import read_page


def silent_bob(tmp_path: Path, policy: str) -> Judge:
    judge = start_auction(auction_judge(tmp_path), options="LOTS=4")
    bid(judge, "Alice", 10)
    judge.new_mail()
    master(judge, policy)
    return judge


def test_status_says_the_policy_to_the_game_master_and_the_players(tmp_path: Path) -> None:
    judge = silent_bob(tmp_path, "SET SILENCE ON\nSET SILENCE EXTENSIONS 2\nSET SILENCE ABANDON 3\nSTATUS")
    assert judge.outcome_of("SET SILENCE EXTENSIONS 2") == ("ok", None)
    said = ("silent seats: the seats still to act are reminded each day before the deadline; a deadline a played "
            "seat misses is extended up to 2 times by 1 day")
    assert said in judge.last_to(GM).body.replace("\n  ", " ")
    assert "a seat that misses 3 deadlines in a row is declared abandoned" in send(judge, "Bob", "STATUS").body
    news = [m for m in judge.new_mail() if m.subject.startswith("g1: the game master set how silent seats")]
    assert {m.to for m in news} >= {ALICE, BOB}  # a change to a running game is announced


def test_a_late_seat_gets_the_extensions_the_policy_gives_and_no_more(tmp_path: Path) -> None:
    """Two extensions of 12 hours: the deadline goes from 2026-01-06 12:00 to 2026-01-07 00:00,
    then to 12:00; the phase is processed at the third."""
    judge = silent_bob(tmp_path, "SET SILENCE ON\nSET SILENCE EXTENSIONS 2\nSET SILENCE EXTENSION 12h")
    judge.later(24)
    assert judge.tick() == ["g1 L1 extended to 2026-01-07 00:00 UTC: Bob late"]
    judge.later(12)
    assert judge.tick() == ["g1 L1 extended to 2026-01-07 12:00 UTC: Bob late"]
    judge.later(12)
    assert judge.tick() == ["g1 L1 processed; next L2"]


def test_a_late_seat_that_acts_in_its_extension_is_late_not_abandoned(tmp_path: Path) -> None:
    judge = silent_bob(tmp_path, "SET SILENCE ON\nSET SILENCE ABANDON 1")
    judge.later(24)
    judge.tick()  # extended by 24 hours
    judge.later(2)
    bid(judge, "Bob", 5)  # the phase is complete: processed now
    assert "Bob: played by bob@example.org" in master(judge, "WHOGAME").body
    assert "phases due: 1, on time: 0 (0%), late: 1, missed: 0" in send(judge, "Bob", "GET RECORD").body


def test_with_abandon_zero_a_silent_seat_is_extended_but_never_abandoned(tmp_path: Path) -> None:
    """Bob misses three deadlines in a row, each extended once (by 24 hours) then passed: by the
    default policy (abandoned after 2) he would have been abandoned at the second."""
    judge = silent_bob(tmp_path, "SET SILENCE ON\nSET SILENCE ABANDON 0")
    for lot in (1, 2, 3):
        judge.later(24)
        assert judge.tick()[0].startswith(f"g1 L{lot} extended to")
        judge.later(24)
        assert judge.tick()[0].startswith(f"g1 L{lot} processed")
        bid(judge, "Alice", 1)
    assert not [m for m in judge.new_mail() if "abandoned" in m.subject]
    assert "Bob: played by bob@example.org" in master(judge, "WHOGAME").body


def test_a_seat_silent_through_a_phase_under_two_days_is_reminded_once_on_the_day_before_its_deadline(
        tmp_path: Path) -> None:
    """L2 lasts 47 hours (SET LOT 47), as a campaign of AoP's week does from Tuesday 13:00 to Thursday
    12:00: opened 2026-01-06 12:00, due 2026-01-08 11:00.  The usual reminder comes half the phase
    before the deadline, 2026-01-07 11:30; the daily one at the deadline's time a day before it,
    2026-01-07 11:00.  Both fall on the last day before the deadline: Bob is reminded once that day,
    at 11:00, not again half an hour later."""
    judge = silent_bob(tmp_path, "SET SILENCE ON\nSET SILENCE EXTENSIONS 0\nSET LOT 47")
    judge.later(24)
    assert judge.tick() == ["g1 L1 processed; next L2"]
    bid(judge, "Alice", 1)
    judge.new_mail()
    reminded = []
    while judge.now < datetime(2026, 1, 8, 10, 30):
        judge.later(0.5)
        judge.tick()
        reminded += [(judge.now, m.to) for m in judge.new_mail() if m.subject == "g1 L2 reminder"]
    assert reminded == [(datetime(2026, 1, 7, 11, 0), BOB)]


def test_silence_off_leaves_the_game_as_every_game_was(tmp_path: Path) -> None:
    judge = silent_bob(tmp_path, "SET SILENCE ON\nSET SILENCE OFF\nSTATUS")
    assert judge.outcome_of("SET SILENCE OFF") == ("ok", None)
    assert "silent seats:" not in judge.last_to(GM).body.split("> STATUS")[1]
    judge.later(24)
    assert judge.tick() == ["g1 L1 processed; next L2"]


def test_a_silence_setting_that_cannot_be_read_is_refused(tmp_path: Path) -> None:
    judge = silent_bob(tmp_path, "SET SILENCE EXTENSIONS 7")
    assert judge.outcome_of("SET SILENCE EXTENSIONS 7")[0] == "error"


def deserting(tmp_path: Path, lots: int = 6) -> Judge:
    """g1 (``lots`` lots), its policy set before it started (a seat is abandoned at its first missed
    deadline, with no extension), Olga observing; L1 opens 2026-01-05 12:00 UTC, due 24 hours later,
    and nobody bids."""
    judge = auction_judge(tmp_path)
    judge.send(GM, f"CREATE g1 gm-secret auction LOTS={lots}")
    judge.send(GM, f"{MASTER}\nSET SILENCE ON\nSET SILENCE EXTENSIONS 0\nSET SILENCE ABANDON 1")
    for player in SEATS[:2]:
        judge.send(player.address, f"JOIN g1 {player.password} {player.name}")
    judge.send(OBSERVER, "OBSERVE g1")
    judge.send(GM, f"{MASTER}\nSTART")
    judge.new_mail()
    return judge


def test_H1_a_game_no_seat_of_which_has_a_player_ends_as_deserted_after_a_whole_phase_nobody_took_over(
        tmp_path: Path) -> None:
    """L1's deadline (2026-01-06 12:00): Alice and Bob are abandoned, so no seat has a player; L2
    runs its whole 24 hours without a takeover (it does not close early for want of players), and
    at its deadline (2026-01-07 12:00) it is carried out, its results saying they are the last,
    and the game ends as deserted, told to the master, the observer and both former players."""
    judge = deserting(tmp_path)
    judge.later(24)
    assert judge.tick() == ["g1 L1 processed; next L2"]
    assert state(judge) == ("active", "L2")
    judge.later(1)
    assert judge.tick() == []  # L2, nobody to wait for, waits for its deadline all the same
    judge.later(23)
    assert judge.tick() == ["g1 L2 processed; next None"]
    assert state(judge)[0] == "finished"
    mails = judge.new_mail()
    results = next(m.body for m in mails if m.to == OBSERVER and m.subject == "g1 L2 results")
    assert ("These are the game's last results: nobody has played in it since the deadline of L1, and nobody took a "
            "seat over in L2, so it ends as deserted (ruling H1).") in results.replace("\n", " ")
    ended = {m.to: m.body for m in mails if m.subject == "g1 has ended"}
    assert set(ended) == {GM, OBSERVER, ALICE, BOB}
    said = "has ended: deserted (nobody has played in it since the deadline of L1, and nobody took a seat over in L2)"
    assert said in ended[GM].replace("\n", " ")


def test_a_seat_abandoned_at_a_deadline_was_held_up_to_the_phase_of_that_deadline(tmp_path: Path) -> None:
    """Alice and Bob miss L1's deadline and are abandoned as L2 opens: the end mail's "who played"
    and SUMMARY say they played L1 to L1, not into L2, in which neither held a seat."""
    judge = deserting(tmp_path)
    judge.later(24)
    judge.tick()
    judge.later(24)
    judge.tick()
    ended = next(m.body for m in judge.new_mail() if m.to == GM and m.subject == "g1 has ended")
    assert "alice@example.org (L1 to L1)" in ended and "bob@example.org (L1 to L1)" in ended


def test_H1_a_takeover_during_the_next_phase_keeps_a_deserted_game_going(tmp_path: Path) -> None:
    judge = deserting(tmp_path)
    judge.later(24)
    judge.tick()
    judge.confirmed(CAROL)
    judge.send(CAROL, "TAKEOVER Alice@g1 carol-pw")
    assert judge.outcome_of("TAKEOVER Alice@g1 ****") == ("ok", None)
    judge.later(24)
    assert judge.tick() == ["g1 L2 processed; next L3"]
    assert state(judge) == ("active", "L3")


def test_H1_a_deserted_game_counts_as_finished_on_nobodys_record_and_has_no_winner(tmp_path: Path) -> None:
    judge = deserting(tmp_path)
    judge.later(24)
    judge.tick()
    judge.later(24)
    judge.tick()
    with judge.db.transaction() as session:
        game = session.scalars(select(Game).where(Game.name == "g1")).one()
        assert game.winner is None and game.settings["deserted"]
        assert records.of(session, ALICE, judge.now).finished == 0
        assert records.of(session, BOB, judge.now).abandoned == 1


def game_row(judge: Judge, name: str) -> tuple[str, str | None, datetime | None, datetime | None]:
    """``name``'s state, phase, deadline and next moment on the clock."""
    with judge.db.transaction() as session:
        game = session.scalars(select(Game).where(Game.name == name)).one()
        return game.state, game.phase, game.deadline, game.next_due


def tick_until(judge: Judge, name: str, done: Callable[[list[str], list[Sent]], bool], days: int = 30) -> list[str]:
    """Tick at each moment the clock has something to do for game ``name`` (a minute apart at least,
    as the daemon's ticks are) until ``done`` says so of a tick's log and the mail it sent, for at
    most ``days`` days: the last tick's log."""
    end = judge.now + timedelta(days=days)
    while (due := game_row(judge, name)[3]) is not None and due <= end:
        judge.now = max(due, judge.now + timedelta(minutes=1))
        logged = judge.tick()
        if done(logged, judge.new_mail()):
            return logged
    raise AssertionError(f"{name} is {game_row(judge, name)} at {judge.now}")


@pytest.mark.parametrize("kind", TESTED, ids=lambda kind: kind.name)
def test_H1_in_every_kind_a_game_whose_every_seat_is_abandoned_ends_deserted_a_whole_phase_later(
        tmp_path: Path, kind: Kind) -> None:
    """Nobody sends anything; every seat is abandoned at one deadline; the phase that opens then runs
    to its deadline (no early close for want of players), and at it the game ends as deserted:
    one end mail to the master, the observer and each former player, no winner, and its pages'
    outcome says deserted."""
    judge = kind.begin(kind.judge(tmp_path))
    judge.send(OBSERVER, f"OBSERVE {kind.game}")
    kind.as_master(judge, "SET SILENCE ON", "SET SILENCE EXTENSIONS 0", "SET SILENCE ABANDON 1")
    judge.new_mail()
    logged = tick_until(judge, kind.game, lambda _, mails: any("declared abandoned" in m.subject for m in mails))
    closed, opened = re.fullmatch(rf"{kind.game} (\S+) processed; next (\S+)", logged[0]).groups()  # type: ignore[union-attr]
    deadline = game_row(judge, kind.game)[2]
    assert deadline is not None
    ends: list[Sent] = []
    logged = tick_until(judge, kind.game, lambda _, mails: bool(
        ends.extend(m for m in mails if m.subject.endswith("has ended")) or ends))
    assert judge.now == deadline and logged == [f"{kind.game} {opened} processed; next None"]  # to its deadline
    assert {m.to for m in ends} == {GM, OBSERVER, *(seat.address for seat in kind.seats)}
    result = (f"deserted (nobody has played in it since the deadline of {closed}, and nobody took a seat over "
              f"in {opened})")
    with judge.db.transaction() as session:
        game = session.scalars(select(Game).where(Game.name == kind.game)).one()
        assert (game.state, game.winner) == ("finished", None)
        assert outcome(kind_of(session, game).facts(session, game)) == result
        assert not session.scalars(select(PlayerRecord).where(PlayerRecord.what == "finished")).all()


def test_H1_the_hall_of_fame_lists_a_deserted_game_as_deserted_with_no_ranking(tmp_path: Path) -> None:
    judge = PAYOLA.begin(Judge(tmp_path, web=True))
    PAYOLA.as_master(judge, "SET SILENCE ON", "SET SILENCE EXTENSIONS 0", "SET SILENCE ABANDON 1")
    tick_until(judge, "g1", lambda _, mails: any(m.subject == "g1 has ended" for m in mails))
    hall = read_page(web_root(judge.settings) / "halloffame.html")
    row = hall.table_with("Game")[1]
    assert row[0] == "g1" and row[3].startswith("deserted (nobody has played in it since the deadline of ")
    assert row[4] == ""  # no ranking


def record_lines(judge: Judge) -> list[tuple[str, str | None, str]]:
    with judge.db.transaction() as session:
        return list(session.execute(select(PlayerRecord.address, PlayerRecord.phase, PlayerRecord.what)
                                    .order_by(PlayerRecord.id)))


def test_H4_a_deadline_five_minutes_after_the_phase_opened_marks_nobodys_record(tmp_path: Path) -> None:
    """The game master's policy abandons a seat at its first miss; it moves L1's deadline to five
    minutes after the start.  Bob misses it: no line on anyone's record (a phase under 24 hours
    is too short to judge anyone by), and Bob is not declared abandoned."""
    judge = deserting(tmp_path)
    master(judge, "SET DEADLINE 2026-01-05 12:05")
    bid(judge, "Alice", 10)
    judge.later(0.1)
    assert judge.tick() == ["g1 L1 processed; next L2"]
    assert record_lines(judge) == []
    assert not [m for m in judge.new_mail() if "abandoned" in m.subject]
    assert "Bob: played by bob@example.org" in master(judge, "WHOGAME").body


def test_H4_a_policy_set_after_the_phase_opened_counts_from_the_next_phase(tmp_path: Path) -> None:
    """The policy (abandoned at the first miss) is set an hour into L1: Bob's miss of L1 is on his
    record but abandons nothing; his miss of L2, opened under the policy, does."""
    judge = start_auction(auction_judge(tmp_path), options="LOTS=4")
    judge.later(1)
    master(judge, "SET SILENCE ON\nSET SILENCE EXTENSIONS 0\nSET SILENCE ABANDON 1")
    bid(judge, "Alice", 10)
    judge.later(23)
    judge.tick()
    assert record_lines(judge) == [(ALICE, "L1", "on_time"), (BOB, "L1", "missed")]
    bid(judge, "Alice", 10)
    judge.later(24)
    judge.tick()
    assert record_lines(judge)[2:] == [(ALICE, "L2", "on_time"), (BOB, "L2", "missed"), (BOB, "L2", "abandoned")]


def test_seats_abandoned_at_one_deadline_are_told_in_one_mail_a_reader(tmp_path: Path) -> None:
    """Alice, Bob and Carol miss L1 and L2 (the policy: abandoned after 2 in a row, no extension):
    at L2's deadline the master and the observer get one mail naming the three, each former
    player one mail about its own seat; the counts are written as numbers of deadlines."""
    judge = auction_judge(tmp_path)
    judge.send(GM, "CREATE g1 gm-secret auction LOTS=6")
    judge.send(GM, f"{MASTER}\nSET SILENCE ON\nSET SILENCE EXTENSIONS 0")
    for player in SEATS:
        judge.send(player.address, f"JOIN g1 {player.password} {player.name}")
    judge.send(OBSERVER, "OBSERVE g1")
    judge.send(GM, f"{MASTER}\nSTART")
    judge.later(24)
    judge.tick()
    judge.new_mail()
    judge.later(24)
    judge.tick()
    told = [m for m in judge.new_mail() if "declared abandoned" in m.subject]
    assert sorted((m.to, m.subject) for m in told) == sorted([
        (GM, "g1: Alice, Bob and Carol declared abandoned"), (OBSERVER, "g1: Alice, Bob and Carol declared abandoned"),
        (ALICE, "g1: Alice declared abandoned"), (BOB, "g1: Bob declared abandoned"),
        (CAROL, "g1: Carol declared abandoned")])
    news = next(m.body for m in told if m.to == GM)
    assert "Bob declared abandoned: it missed 2 deadlines in a row, up to that of L2; until a new player" in news
    assert "You have not acted in 2 phases of g1 in a row, up to L2, so the judge" in next(
        m.body for m in told if m.to == BOB).replace("\n", " ")


NAMES_WHO_ACTED = {"payola"}
"""The kinds whose STATUS shows players who has acted (Payola, ruling 15): only their extensions
name the late seat to players and observers (ruling H2)."""


def late_first_seat(tmp_path: Path, kind: Kind, grace: bool = False) -> Judge:
    """``kind``'s game, Olga observing, the standard policy (one extension of 24 hours), and (with
    ``grace``) an hour's grace; every seat but the first sends its part of the first phase."""
    judge = kind.begin(kind.judge(tmp_path))
    judge.send(OBSERVER, f"OBSERVE {kind.game}")
    kind.as_master(judge, "SET SILENCE ON", *(["SET GRACE 1"] if grace else []))
    for seat, line in list(enumerate(kind.sent))[1:]:
        if line:
            kind.send(judge, seat, line)
    judge.new_mail()
    return judge


@pytest.mark.parametrize("kind", TESTED, ids=lambda kind: kind.name)
def test_H2_an_extension_names_the_late_seat_to_players_and_observers_only_where_status_shows_who_acted(
        tmp_path: Path, kind: Kind) -> None:
    """At the deadline the first seat has not acted, and the phase is extended by a day.  In Payola
    every player and observer is told which seat is late; in Exchange, Machiavelli and Pirates'
    Proposal they are told only that one is, the late seat is told privately, and the game master
    is told which; the game's story (SUMMARY, which anyone may ask) names none."""
    judge = late_first_seat(tmp_path, kind)
    judge.later(kind.hours)
    assert judge.tick()[0].startswith(f"{kind.game} {kind.first} extended to")
    mails = [m for m in judge.new_mail() if "extended" in m.subject]
    late = kind.seats[0]
    told = {m.to: m.body for m in mails}
    assert set(told) == {GM, OBSERVER, *(seat.address for seat in kind.seats)}
    assert late.title in told[GM]
    waiting = [seat.title for seat in kind.seats if not kind.sent[kind.seats.index(seat)]] or [late.title]
    for reader in (OBSERVER, *(seat.address for seat in kind.seats if seat.title not in waiting)):
        assert (late.title in told[reader]) == (kind.name in NAMES_WHO_ACTED), (reader, told[reader])
    assert (f"you ({late.title}) have not acted" if kind.name not in NAMES_WHO_ACTED
            else f"{late.title} has not acted") in told[late.address]
    judge.send(CAROL, f"SUMMARY {kind.game}")
    story = judge.last_to(CAROL).body + "".join(
        str(part.get_content()) for part in judge.last_to(CAROL).message.iter_attachments())
    assert "deadline extended" in story and (f"{late.title} late" in story) == (kind.name in NAMES_WHO_ACTED)


@pytest.mark.parametrize("kind", TESTED, ids=lambda kind: kind.name)
def test_H3_the_late_alert_names_the_time_the_phase_is_extended_to_not_one_the_judge_will_not_keep(
        tmp_path: Path, kind: Kind) -> None:
    """An hour's grace and one extension of 24 hours left: at the deadline the late seat is told that
    without a mail by the end of the grace the phase is extended to the deadline's time a day
    later, and nothing about a time at which the phase would be carried out."""
    judge = late_first_seat(tmp_path, kind, grace=True)
    state_now = game_row(judge, kind.game)
    deadline = state_now[2]
    assert deadline is not None
    judge.now = deadline
    judge.tick()
    alert = next(m for m in judge.new_mail() if m.to == kind.seats[0].address and m.subject.endswith(" late"))
    text = alert.body.replace("\n", " ")
    grace_end, extended = deadline + timedelta(hours=1), deadline + timedelta(hours=24)
    assert f"{grace_end:%Y-%m-%d %H:%M} UTC" in text and f"extended to {extended:%Y-%m-%d %H:%M} UTC" in text, text
    assert "at the latest" not in text, text
    judge.now = grace_end
    assert judge.tick()[0].startswith(f"{kind.game} {kind.first} extended to {extended:%Y-%m-%d %H:%M} UTC: ")


@pytest.mark.parametrize("anonymous", [False, True], ids=["named", "anonymous"])
@pytest.mark.parametrize("kind", TESTED, ids=lambda kind: kind.name)
def test_M63_the_end_mail_names_the_players_addresses_only_to_the_games_own_players_and_master(
        tmp_path: Path, kind: Kind, anonymous: bool) -> None:
    """The game master ends the game: the end mail names each seat's player by address to the
    master, to the players unless the game is ANONYMOUS, and never to an observer (M63, in every
    kind, as WHOGAME shows them while the game runs)."""
    judge = kind.begin(kind.judge(tmp_path))
    judge.send(OBSERVER, f"OBSERVE {kind.game}")
    if anonymous:
        with judge.db.transaction() as session:
            game = session.scalars(select(Game).where(Game.name == kind.game)).one()
            game.options = [*game.options, "ANONYMOUS"]
    judge.new_mail()
    judge.terminate(GM, kind.master)
    ends = {m.to: m.body for m in judge.new_mail() if m.subject == f"{kind.game} has ended"}
    addresses = {seat.address for seat in kind.seats}
    assert set(ends) == {GM, OBSERVER, *addresses}
    for reader, body in ends.items():
        named = {address for address in addresses if address in body}
        expected = addresses if reader == GM or (reader in addresses and not anonymous) else set()
        assert named == expected, (reader, body)


def test_the_policy_in_words_counts_plainly() -> None:
    """"1 deadlines" and "1 hours" nowhere: one deadline, an hour."""
    one = silence.Policy(extensions=1, extension=1.0, abandon=1).words()
    assert "extended once by 1 hour," in one and "a seat that misses a deadline is declared abandoned" in one
    two = silence.Policy(extensions=2, extension=36.0, abandon=2).words()
    assert "up to 2 times by 1 day 12 hours" in two and "misses 2 deadlines in a row" in two


def test_H4_a_player_who_writes_capitals_and_a_tag_is_abandoned_as_any_other(tmp_path: Path) -> None:
    """Bob joins as Bob+Games@example.org; his record's lines are kept under bob@example.org (one
    mailbox), and his two misses in a row under the policy (abandoned after 2, no extension) still
    make a run: he is declared abandoned at L2's deadline, and the line is on his one record."""
    judge = auction_judge(tmp_path)
    written = "Bob+Games@example.org"
    judge.send(GM, "CREATE g1 gm-secret auction LOTS=4")
    judge.send(GM, f"{MASTER}\nSET SILENCE ON\nSET SILENCE EXTENSIONS 0")
    judge.send(ALICE, "JOIN g1 alice-pw Alice")
    judge.send(written, "JOIN g1 bob-pw Bob")
    judge.send(GM, f"{MASTER}\nSTART")
    for _ in range(2):
        bid(judge, "Alice", 1)
        judge.later(24)
        judge.tick()
    assert [line for line in record_lines(judge) if line[0] != ALICE] == [
        (BOB, "L1", "missed"), (BOB, "L2", "missed"), (BOB, "L2", "abandoned")]
    told = [m for m in judge.new_mail() if m.to == written and "declared abandoned" in m.subject]
    assert len(told) == 1 and "You have not acted in 2 phases of g1 in a row" in told[0].body
