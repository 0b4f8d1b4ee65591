"""A late mail, in every kind: a seat's mail meant for a phase already processed (its subject names
that phase, it answers the judge's mail of that phase, or a line ``PHASE`` names it) is answered
with that phase and when it was processed, and none of its lines that act for the seat is applied;
the host's commands in it are done as ever; sent again with ``PHASE <phase now>``, its lines are
applied to the phase now.  A mail that names no phase, or answers the results that opened the phase
now, acts on the phase now, as it always did.

Each game starts at 2026-01-05 12:00; its first phase is processed by the game master an hour
later (13:00), and the late mail comes at 14:00."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.kinds.registry import with_test_kinds
from tests.service.every_kind import AUCTION, EARLY, TESTED, Kind
from tests.support.auction import auction_judge
from tests.support.harness import Judge, Sent

every_kind = pytest.mark.parametrize("kind", TESTED, ids=lambda kind: kind.name)
named_phases = pytest.mark.parametrize(
    "kind", [kind for kind in TESTED if with_test_kinds().named(kind.name).phase_names], ids=lambda kind: kind.name)
"""The kinds whose phases' names a subject may name before the game has them (`Phases.phase_names`)."""
SIGNALS = ("subject", "answer", "line")


def processed(kind: Kind, judge: Judge) -> Sent:
    """The game's first phase processed by its master at 13:00, after the first seat's mail in it at
    12:00; the judge's answer to that mail."""
    answer = kind.send(judge, 0, "STATUS", subject="orders")
    judge.later(1)
    kind.as_master(judge, "PROCESS")
    assert kind.phase(judge) == kind.second
    judge.later(1)
    return answer


def meant_for_the_first(kind: Kind, signal: str, answered: Sent) -> tuple[tuple[str, ...], dict[str, object]]:
    """The lines and the mail's headers by which a mail says it is meant for the first phase."""
    if signal == "subject":
        return (), {"subject": f"{kind.first} orders"}
    if signal == "answer":
        replied = answered.headers["Message-ID"]
        return (), {"subject": f"Re: {answered.subject}", "headers": {"In-Reply-To": replied, "References": replied}}
    return (f"PHASE {kind.first}",), {"subject": "orders"}


@every_kind
@pytest.mark.parametrize("signal", SIGNALS)
def test_a_mail_meant_for_a_processed_phase_is_answered_so_and_not_applied(
        tmp_path: Path, kind: Kind, signal: str) -> None:
    judge = kind.begin(kind.judge(tmp_path))
    said, mail = meant_for_the_first(kind, signal, processed(kind, judge))
    held = (kind.later, *(("WAIT",) if kind in EARLY else ()))
    reply = kind.send(judge, 0, *said, *held, "STATUS", **mail).body
    assert [judge.outcome_of(line) for line in held] == [("ignored", "LATE")] * len(held)
    assert judge.outcome_of("STATUS")[0] == "info"  # the host's commands are done as ever
    assert kind.kept(judge, kind.second) == []
    assert f"meant for {kind.first} of {kind.game}" in reply and "processed 2026-01-05 13:00 UTC" in reply
    assert f"PHASE {kind.second}" in reply  # how to apply it to the phase now


@every_kind
@pytest.mark.parametrize("signal", SIGNALS)
def test_a_late_mails_lines_are_applied_to_the_phase_now_when_a_line_phase_names_it(
        tmp_path: Path, kind: Kind, signal: str) -> None:
    judge = kind.begin(kind.judge(tmp_path))
    said, mail = meant_for_the_first(kind, signal, processed(kind, judge))
    if signal == "line":
        said = ()  # the line names the phase now instead
    kind.send(judge, 0, *said, kind.later, f"PHASE {kind.second}", **mail)
    assert judge.outcome_of(f"PHASE {kind.second}") == ("ok", "PHASE_NOW")
    assert judge.outcome_of(kind.later)[0] == "ok"
    assert kind.kept(judge, kind.second) != []


@every_kind
def test_a_mail_answering_the_results_that_opened_the_phase_now_acts_on_it(tmp_path: Path, kind: Kind) -> None:
    judge = kind.begin(kind.judge(tmp_path))
    judge.later(1)
    kind.as_master(judge, "PROCESS")
    results = next(m for m in judge.new_mail() if m.to == kind.seats[0].address and "results" in m.subject)
    judge.later(1)
    replied = results.headers["Message-ID"]
    kind.send(judge, 0, kind.later, subject=f"Re: {results.subject}",
              headers={"In-Reply-To": replied, "References": replied})
    assert judge.outcome_of(kind.later)[0] == "ok"
    assert kind.kept(judge, kind.second) != []


BLOCKS = ("payola", "machiavelli", "exchange")
"""The kinds that keep a seat's lines for a later phase (``PHASE <later phase>`` opens a block,
`judge.service.incoming.ahead`); in the others such a line says the whole mail is for that phase."""


@every_kind
def test_a_mail_naming_a_phase_the_game_has_not_reached_is_not_applied(tmp_path: Path, kind: Kind) -> None:
    """Not to the phase now: the lines after ``PHASE <next phase>`` are kept for that phase where the kind keeps
    blocks, and held back where it does not."""
    judge = kind.begin(kind.judge(tmp_path))
    line = (kind.later if kind.name in BLOCKS else kind.sent[0]) or "STATUS"
    kind.send(judge, 0, f"PHASE {kind.second}", line)
    if kind.name in BLOCKS:
        assert judge.outcome_of(f"PHASE {kind.second}") == ("ok", "BLOCK_KEPT")
    else:
        assert judge.outcome_of(f"PHASE {kind.second}") == ("ignored", "NOT_THE_PHASE")
        if kind.sent[0]:
            assert judge.outcome_of(line) == ("ignored", "NOT_THE_PHASE")
    assert kind.kept(judge, kind.first) == []


@named_phases
def test_a_mail_whose_subject_names_a_phase_the_game_has_not_reached_is_not_applied(
        tmp_path: Path, kind: Kind) -> None:
    """In its first phase, a seat's mail titled with the next phase's name (written as its kind names
    its phases, `Phases.phase_names`), which the game has no row for yet: meant for a phase to come,
    its lines for the seat are not applied to the phase now (they would have replaced its part)."""
    judge = kind.begin(kind.judge(tmp_path))
    line = kind.sent[0] or kind.later
    reply = kind.send(judge, 0, line, "STATUS", subject=f"{kind.second.lower()} orders").body
    assert judge.outcome_of(line) == ("ignored", "NOT_THE_PHASE")
    assert judge.outcome_of("STATUS")[0] == "info"
    assert kind.kept(judge, kind.first) == []
    assert f"meant for {kind.second} (its subject names it)" in reply and f"PHASE {kind.first}" in reply


@pytest.mark.parametrize("kind", EARLY, ids=lambda kind: kind.name)
def test_an_answer_to_the_mail_that_completed_a_phase_belongs_to_that_phase(tmp_path: Path, kind: Kind) -> None:
    """The first seat's mail completes the phase: its answer is queued, then the phase is processed and
    the results are queued, all at 12:00; answering the answer is late, answering the results is not."""
    judge = kind.begin(kind.judge(tmp_path))
    for seat in range(1, len(kind.seats)):
        kind.send(judge, seat, kind.sent[seat])
    answer = kind.send(judge, 0, kind.sent[0])
    assert kind.phase(judge) == kind.second
    judge.later(1)
    kind.send(judge, 0, kind.later, subject=f"Re: {answer.subject}",
              headers={"In-Reply-To": answer.headers["Message-ID"]})
    assert judge.outcome_of(kind.later) == ("ignored", "LATE")
    results = next(m for m in judge.all_mail() if m.to == kind.seats[0].address and "results" in m.subject)
    kind.send(judge, 0, kind.later, subject=f"Re: {results.subject}",
              headers={"In-Reply-To": results.headers["Message-ID"]})
    assert judge.outcome_of(kind.later)[0] == "ok"


def test_a_mail_naming_no_phase_acts_on_the_phase_now_as_ever(tmp_path: Path) -> None:
    kind = AUCTION
    judge = kind.begin(auction_judge(tmp_path))
    processed(kind, judge)
    kind.send(judge, 0, kind.later, subject="my orders")
    assert judge.outcome_of(kind.later)[0] == "ok"
    assert kind.kept(judge, kind.second) == ["bid"]


UNREACHABLE = {"payola": "f0045a", "exchange": "s0045m", "machiavelli": "sp1453c", "pirates": "v7"}
"""A tag shaped as each kind writes its phases' names, naming one its game, in its first phase, has never
had and can never reach: a year before its first (Payola's Fall of 45, Machiavelli's 1453 before 1454),
a round past its last (Pirates' Proposal plays five)."""
IMPOSSIBLE = {"payola": "s1901a", "exchange": "f1901x", "machiavelli": "su1454a", "pirates": "d6"}
"""A word of the same shape naming no phase the kind ever has (adjustments are in winter, an Exchange
phase too, a spring letter in spring alone; a match has no sixth round)."""


@named_phases
@pytest.mark.parametrize("tag", ["unreachable", "impossible"])
def test_a_subject_word_shaped_as_a_phase_the_game_cannot_reach_names_no_phase(
        tmp_path: Path, kind: Kind, tag: str) -> None:
    """``sheet [f0045a]``: a tag that merely looks like a phase's name. Only a phase the game has had
    or can still reach counts; the mail's lines act on the phase now, as a mail naming no phase does."""
    judge = kind.begin(kind.judge(tmp_path))
    word = (UNREACHABLE if tag == "unreachable" else IMPOSSIBLE)[kind.name]
    line = kind.sent[0] or "PLAN ME 1"  # Pirates' Proposal: a plan, read (and refused: not the package's sum)
    reply = kind.send(judge, 0, line, subject=f"sheet [{word}]").body
    assert judge.outcome_of(line)[1] not in ("NOT_THE_PHASE", "LATE") and "meant for" not in reply
    if kind.sent[0]:
        assert judge.outcome_of(line)[0] == "ok" and kind.kept(judge, kind.first) != []
