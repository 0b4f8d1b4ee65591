"""The game master's phase changes as players and observers live them (issues 23.2, 23.5, 23.10,
29.7): an early PROCESS is told in the results and kept in the game's story; ROLLFORWARD never
discards what was sent after a ROLLBACK, and its notice comes before the results; observers hear
what the public hears and know second results for what they are; PROCESS and ROLLBACK may name
the phase they mean.  Everything as mail, through the game service, on the test kind's auction g1
(`tests.support.auction`: Alice, Bob and Carol, lots of 24 hours) but where a kind's own phases are
the point (Pirates' Proposal's)."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import select

from judge.service.hosting.host import story
from judge.store.models import Game, Outbox
from tests.games.pirates.by_mail import FOUR, address, pirates_game
from tests.support.auction import auction_judge, bid, master, send, start_auction, to
from tests.support.harness import Judge
from tests.support.people import ALICE, BOB, CAROL, GM, OBSERVER

EARLY = "The game master processed L1 early, 2026-01-05 12:00 UTC, before its deadline of 2026-01-06 12:00 UTC."
AGAIN = ("These results replace the earlier results of L1, sent 2026-01-05 12:00 UTC: the game master rolled the "
         "game back to L1, and it has been processed again.")


@pytest.fixture
def judge(tmp_path: Path) -> Judge:
    """Auction g1 with Alice, Bob and Carol, started 2026-01-05 12:00 (L1's deadline a day
    later), and an observer."""
    judge = start_auction(auction_judge(tmp_path), players=3)
    judge.send(OBSERVER, "OBSERVE g1")
    judge.new_mail()
    return judge


def play_spring(judge: Judge) -> None:
    """Alice, Bob and Carol each bid on lot 1, closing L1."""
    for name, amount in (("Alice", 20), ("Bob", 10), ("Carol", 5)):
        bid(judge, name, amount)


def game_row(judge: Judge) -> Game:
    with judge.db.transaction() as session:
        game = session.scalar(select(Game).where(Game.name == "g1"))
        assert game is not None
        session.expunge(game)
        return game


def outbox_since(judge: Judge, after: int) -> list[tuple[str, str, str]]:
    """The mails queued after outbox row ``after``, in the order queued: (recipient, kind, subject)."""
    with judge.db.transaction() as session:
        return [(r.recipient, r.kind, r.subject) for r in session.scalars(
            select(Outbox).where(Outbox.id > after).order_by(Outbox.id))]


def last_outbox(judge: Judge) -> int:
    with judge.db.transaction() as session:
        return session.scalar(select(Outbox.id).order_by(Outbox.id.desc()).limit(1)) or 0


# -- issue 23.2: an early PROCESS is announced ---------------------------------------------------------


def test_an_early_process_is_said_in_every_results_mail_and_kept_for_summary(judge: Judge) -> None:
    bid(judge, "Alice", 20)  # Bob and Carol have a day left
    judge.new_mail()
    master(judge, "PROCESS")
    mails = judge.new_mail()
    for reader in (ALICE, BOB, CAROL, OBSERVER, GM):
        results = next(m for m in to(mails, reader) if m.subject == "g1 L1 results")
        assert EARLY in results.body
    assert ("L1: processed early by the game master's PROCESS, 2026-01-05 12:00 UTC (deadline was 2026-01-06 "
            "12:00 UTC)") in story(game_row(judge))


def test_a_process_after_the_deadline_is_not_called_early(judge: Judge) -> None:
    master(judge, "SET GRACE 24")
    judge.later(25)  # past the deadline, in the grace period
    judge.new_mail()
    master(judge, "PROCESS")
    results = next(m for m in to(judge.new_mail(), ALICE) if m.subject == "g1 L1 results")
    assert "early" not in results.body
    assert not [event for event in story(game_row(judge)) if "early" in event]


def test_an_early_process_of_a_pirates_proposal_phase_is_said_to_everyone(tmp_path: Path) -> None:
    judge = pirates_game(Judge(tmp_path), FOUR)
    judge.send(OBSERVER, "OBSERVE pp")
    judge.new_mail()
    judge.send(GM, "SIGNON MASTER@pp gm-pw\nPROCESS D1")
    mails = judge.new_mail()
    early = "The game master processed D1 early, 2026-01-05 12:00 UTC, before its deadline of 2026-01-06 12:00 UTC."
    for reader in [*(address(name) for name in FOUR), OBSERVER, GM]:
        assert any(early in m.body for m in to(mails, reader)), reader


# -- issue 23.5: ROLLFORWARD never discards what was sent after a ROLLBACK ------------------------------


def test_rollforward_is_refused_once_a_seat_sent_anything_since_the_rollback(judge: Judge) -> None:
    play_spring(judge)
    master(judge, "ROLLBACK")
    bid(judge, "Alice", 9)  # the players were invited to change their bids
    judge.new_mail()
    master(judge, "ROLLFORWARD")
    mails = judge.new_mail()
    assert judge.outcome_of("ROLLFORWARD") == ("error", "CHANGED_SINCE_ROLLBACK")
    assert ("not undone: since the ROLLBACK, Alice sent something in this phase, which ROLLFORWARD would discard; "
            "PROCESS processes L1 with them as they are now") in to(mails, GM)[0].body
    assert [m.to for m in mails] == [GM]  # no results, no notice
    assert "your bid: 9" in send(judge, "Alice", "STATUS").body  # still stands
    assert game_row(judge).state == "paused"


def test_the_rollforward_is_told_in_its_results_one_mail_per_reader(judge: Judge) -> None:
    play_spring(judge)
    master(judge, "ROLLBACK")
    judge.new_mail()
    mark = last_outbox(judge)
    master(judge, "ROLLFORWARD")
    queued = outbox_since(judge, mark)
    for reader in (ALICE, BOB, CAROL, OBSERVER):
        kinds = [kind for recipient, kind, _ in queued if recipient == reader]
        assert kinds == ["results"], reader
    results = next(m for m in to(judge.new_mail(), ALICE) if m.subject.startswith("g1 L1 results"))
    said = results.body.index("Also in the game master's mail: the game master undid the rollback of L1: it is "
                              "processed again now")
    assert said < results.body.index("Game g1, lot 1:")  # why, before what came of it
    assert "L1: the game master's ROLLFORWARD, 2026-01-05 12:00 UTC: L1 processed again as it was rolled " \
        "back" in story(game_row(judge))


def test_what_the_master_announced_before_a_process_is_told_in_its_results_one_mail_per_reader(judge: Judge) -> None:
    mark = last_outbox(judge)
    master(judge, "SET GRACE 12", "PROCESS")
    for reader in (ALICE, OBSERVER):
        kinds = [kind for recipient, kind, _ in outbox_since(judge, mark) if recipient == reader]
        assert kinds == ["results"], reader
    results = next(m for m in to(judge.new_mail(), OBSERVER) if m.subject.startswith("g1 L1"))
    assert "Also in the game master's mail: the game master set the grace period" in results.body


def test_news_only_some_readers_may_read_is_told_apart_before_the_results(judge: Judge) -> None:
    """A DUMMY's news goes to the player who left too, who reads no results: it is not folded."""
    mark = last_outbox(judge)
    master(judge, "DUMMY Bob", "PROCESS")
    kinds = [kind for recipient, kind, _ in outbox_since(judge, mark) if recipient == ALICE]
    assert kinds == ["announcement", "results"]
    assert [kind for recipient, kind, _ in outbox_since(judge, mark) if recipient == BOB] == ["announcement"]


# -- issue 23.10: observers hear what the public hears -------------------------------------------------


def test_observers_are_told_of_pause_resume_deadlines_and_rollback(judge: Judge) -> None:
    for command, news in (("PAUSE", "the game master paused the game"),
                          ("RESUME", "the game master resumed the game: the deadline of L1 is"),
                          ("SET DEADLINE 2026-01-09 18:00", "the game master set the deadline of L1 to 2026-01-09 "
                                                            "18:00 UTC")):
        master(judge, command)
        told = to(judge.new_mail(), OBSERVER)
        assert len(told) == 1 and news in told[0].body, command
    play_spring(judge)
    judge.new_mail()
    master(judge, "ROLLBACK")
    told = to(judge.new_mail(), OBSERVER)
    assert len(told) == 1 and "the game master rolled the game back to L1" in told[0].body
    assert ALICE not in told[0].body and BOB not in told[0].body


def test_second_results_after_a_rollback_say_they_replace_the_first(judge: Judge) -> None:
    play_spring(judge)
    first = next(m for m in to(judge.new_mail(), OBSERVER) if "results" in m.subject)
    assert first.subject == "g1 L1 results" and "replace" not in first.body
    master(judge, "ROLLBACK")
    master(judge, "RESUME")  # every seat had bid: processed again at once
    for reader in (OBSERVER, ALICE):
        second = next(m for m in to(judge.new_mail() if reader == OBSERVER else judge.all_mail(), reader)
                      if m.subject == "g1 L1 results again, after a rollback")
        assert AGAIN in second.body
    assert "L1: the game master's ROLLBACK, 2026-01-05 12:00 UTC: back from L2 to L1" in \
        story(game_row(judge))


def test_a_rolled_back_phase_processed_again_by_process_ends_the_rollbacks_pause(judge: Judge) -> None:
    """ROLLBACK pauses the game "until RESUME or PROCESS": after PROCESS, the next phase's
    deadline fires (it stayed paused, and no deadline ever fired again)."""
    play_spring(judge)
    master(judge, "ROLLBACK")
    assert game_row(judge).state == "paused"
    master(judge, "PROCESS L1")
    game = game_row(judge)
    assert (game.state, game.phase) == ("active", "L2")
    judge.later(25)
    judge.process("g1")
    assert game_row(judge).phase != "L2"


# -- issue 29.7: commands that name the phase they mean ------------------------------------------------


def test_a_process_naming_a_phase_the_game_has_left_is_refused(judge: Judge) -> None:
    play_spring(judge)  # the last bid came in, and L1 was processed while the master wrote
    judge.new_mail()
    master(judge, "PROCESS L1")
    mails = judge.new_mail()
    assert "> PROCESS L1\n  ERROR: not processed: g1 is not in L1: it is in L2" in to(mails, GM)[0].body
    assert not [m for m in mails if "results" in m.subject] and game_row(judge).phase == "L2"
    assert "> process l2\n  OK: L2 processed" in master(judge, "process l2").body


def test_process_takes_one_phase_name_or_none(judge: Judge) -> None:
    master(judge, "PROCESS L1 L2")
    assert judge.outcome_of("PROCESS L1 L2") == ("error", "SYNTAX")
    assert game_row(judge).phase == "L1"


def test_rollback_names_the_phase_to_go_back_to(judge: Judge) -> None:
    play_spring(judge)
    judge.later(25)
    judge.process("g1")  # L2 at its deadline
    after = game_row(judge).phase
    judge.new_mail()
    master(judge, f"ROLLBACK {after}")  # the phase the game is in is not one to go back to
    assert judge.outcome_of(f"ROLLBACK {after}") == ("error", "NOT_PROCESSED")
    assert "L2 (the one before)" in judge.last_to(GM).body  # the phase it may name
    assert game_row(judge).phase == after and not to(judge.new_mail(), ALICE)
    master(judge, "ROLLBACK L1")  # as DPjudge's: back to the phase named, two phases back
    assert judge.outcome_of("ROLLBACK L1") == ("ok", None)
    assert game_row(judge).phase == "L1" and game_row(judge).state == "paused"
    status = send(judge, "Alice", "STATUS").body
    assert "your bid: 20" in status and "your coins: 100, lots won: 0" in status  # as L1 was before it was sold


def test_a_pirates_proposal_process_names_its_phases(tmp_path: Path) -> None:
    judge = pirates_game(Judge(tmp_path), FOUR)
    judge.new_mail()
    judge.send(GM, "SIGNON MASTER@pp gm-pw\nPROCESS V1")
    assert judge.outcome_of("PROCESS V1") == ("error", "WRONG_PHASE")
    judge.send(GM, "SIGNON MASTER@pp gm-pw\nPROCESS d1")
    assert judge.outcome_of("PROCESS d1") == ("ok", None)
    with judge.db.transaction() as session:
        assert session.scalars(select(Game.phase).where(Game.name == "pp")).one() == "V1"
    judge.send(GM, "SIGNON MASTER@pp gm-pw\nROLLBACK D1")
    assert judge.outcome_of("ROLLBACK D1") == ("error", "CANNOT_ROLL_BACK")


def test_help_recommends_the_phase_named_form(judge: Judge) -> None:
    judge.send(GM, "HELP master")
    body = judge.last_to(GM).body
    assert "PROCESS phase" in body and "ROLLBACK phase" in body
