"""Reading a player's mail (PLAN, GARNETS, VOTE, MOVE, NOMOVE, GIVE TOKEN) and applying it to a phase."""

from __future__ import annotations

import pytest

from judge.games.pirates.core.commands import (
    CommandError,
    GarnetsLine,
    GiveTokenLine,
    MoveLine,
    PlanLine,
    VoteLine,
    parse_command,
    read_mail,
    submit,
)
from judge.games.pirates.core.match import Submissions
from tests.games.pirates.match import FOURTEEN, match_in_round_1, phase

FIRST, SECOND = FOURTEEN[:7], FOURTEEN[7:]


def distribution():  # type: ignore[no-untyped-def]
    return match_in_round_1(FIRST, SECOND, {p: 30 for p in FOURTEEN}, garnets=1)


def test_plan_lines_name_players_with_their_gold() -> None:
    assert parse_command("PLAN ME 7 Bob 3 cy 20") == PlanLine((("ME", 7), ("Bob", 3), ("cy", 20)))
    assert parse_command("plan me 30") == PlanLine((("me", 30),))
    assert parse_command("Plan Ann 10, Bob 20") == PlanLine((("Ann", 10), ("Bob", 20)))


@pytest.mark.parametrize(("line", "error"), [
    ("PLAN", "a plan names who gets how much gold: PLAN name gold [name gold ...], e.g. PLAN ME 10 Alice 12 Bob 8"),
    ("PLAN ME 7 Bob", "Bob has no amount of gold after it: PLAN name gold [name gold ...]"),
    ("PLAN ME seven", "'seven' is not an amount of gold for ME: a whole number, 0 or more, is expected"),
    ("PLAN ME -3", "'-3' is not an amount of gold for ME: a whole number, 0 or more, is expected"),
    ("PLAN ME 2.5", "'2.5' is not an amount of gold for ME"),
    ("PLAN 30 ME", "a player's name is expected where '30' is"),
    ("PLAN ME 25 GARNETS 1", "GARNETS goes on a line of its own, after the PLAN line"),
    ("PLAN ME 99999999999", "'99999999999' is far more than any plan holds"),
    ("GARNETS", "expected GARNETS n, the number of garnets the plan spends, e.g. GARNETS 1"),
    ("GARNETS two", "'two' is not a number of garnets"),
    ("VOTE", "a vote is Yes or No on the plans named: VOTE YES name ... or VOTE NO name ..."),
    ("VOTE MAYBE Ann", "a vote is Yes or No on the plans named"),
    ("VOTE YES", "a YES or NO needs the plans it votes on after it"),
    ("VOTE YES NO Ann", "a YES or NO needs the plans it votes on after it"),
    ("VOTE YES Ann NO", "a YES or NO needs the plans it votes on after it"),
    ("MOVE now", "MOVE takes nothing after it"),
    ("GIVE Ann", "expected GIVE TOKEN name, the player who gets the extra Token of Life"),
    ("GIVE TOKEN", "expected GIVE TOKEN name"),
])
def test_a_line_that_cannot_be_read_says_why(line: str, error: str) -> None:
    with pytest.raises(CommandError) as caught:
        parse_command(line)
    assert str(caught.value).startswith(error)


def test_the_other_commands() -> None:
    assert parse_command("GARNETS 2") == GarnetsLine(2)
    assert parse_command("garnet 1") == GarnetsLine(1)
    assert parse_command("VOTE YES ME Ann, Bob") == VoteLine(("ME", "Ann", "Bob"), ())
    assert parse_command("vote no Cy") == VoteLine((), ("Cy",))
    assert parse_command("VOTE YES Ann NO Bob Cy YES Dee") == VoteLine(("Ann", "Dee"), ("Bob", "Cy"))
    assert parse_command("MOVE") == MoveLine(True)
    assert parse_command("nomove") == MoveLine(False)
    assert parse_command("GIVE TOKEN Ann") == GiveTokenLine("Ann")
    assert parse_command("give token to ann") == GiveTokenLine("ann")
    assert parse_command("SIGNON Ann@game pw") is None


def test_a_mail_skips_blank_lines_and_comments_and_keeps_other_lines_for_the_host() -> None:
    mail = read_mail(["", "% my plan", "PLAN ME 30", "SIGNON x", "  GARNETS 0  ", "PLAN x"])
    assert [(line.number, line.text) for line in mail.lines] == [(3, "PLAN ME 30"), (5, "GARNETS 0"), (6, "PLAN x")]
    assert mail.lines[2].command is None and mail.lines[2].error.startswith("x has no amount")
    assert mail.other == ("SIGNON x",)


def test_a_plan_is_its_plan_line_and_garnets_line_answered_together() -> None:
    result = submit(distribution(), Submissions(), "Ann", read_mail(["PLAN ME 20 bob 15", "GARNETS 1"]))
    assert len(result.replies) == 1
    reply = result.replies[0]
    assert reply.accepted and reply.lines == ("PLAN ME 20 bob 15", "GARNETS 1")
    assert reply.message == ("Plan accepted, 35 gold (the 30-gold package and 1 garnet): you 20, Bob 15, Cy 0, "
                             "Dee 0, Eve 0, Fay 0, Gus 0")


def test_a_mail_holds_one_plan() -> None:
    result = submit(distribution(), Submissions(), "Ann", read_mail(["PLAN ME 30", "PLAN Bob 30"]))
    assert result.submissions == Submissions()
    assert result.replies[0].message == "a mail holds one plan: one PLAN line, and at most one GARNETS line with it"


def test_a_plan_with_a_line_that_cannot_be_read_is_refused_whole() -> None:
    result = submit(distribution(), Submissions(), "Ann", read_mail(["PLAN ME 35", "GARNETS x"]))
    assert result.submissions == Submissions()
    assert [r.accepted for r in result.replies] == [False]
    assert result.replies[0].message.startswith("this mail's plan is refused whole, as a line of it cannot be read: "
                                                "'GARNETS x': 'x' is not a number of garnets")


def test_all_vote_lines_of_a_mail_are_one_ballot_which_replaces_the_earlier_one() -> None:
    match = phase(distribution(), {})
    first = submit(match, Submissions(), "Ann", read_mail(["VOTE YES ME Bob Cy", "VOTE NO Dee Eve Fay Gus"]))
    assert first.replies[0].message == "Ballot accepted: Yes on your own plan, Bob, Cy; No on Dee, Eve, Fay, Gus"
    later = submit(match, first.submissions, "Ann", read_mail(["VOTE NO ME", "VOTE YES Bob Cy Dee", "MOVE",
                                                               "VOTE NO Eve Fay Gus"]))
    assert [r.lines for r in later.replies] == [("VOTE NO ME", "VOTE YES Bob Cy Dee", "VOTE NO Eve Fay Gus"),
                                                ("MOVE",)]
    assert later.submissions.ballot("Ann") is not None
    assert later.submissions.ballot("Ann").no == ("Ann", "Eve", "Fay", "Gus")  # type: ignore[union-attr]
    assert later.replies[1].message == ("You will change rooms at the start of round 2 (move 1 of the 2 allowed; "
                                        "NOMOVE withdraws it)")


def test_a_ballot_with_a_line_that_cannot_be_read_is_refused_whole() -> None:
    match = phase(distribution(), {})
    result = submit(match, Submissions(), "Ann", read_mail(["VOTE YES ME Bob Cy", "VOTE NO Dee Eve Fay Gus",
                                                            "VOTE PERHAPS"]))
    assert result.submissions == Submissions()
    assert not result.replies[0].accepted
    assert "'VOTE PERHAPS': a vote is Yes or No" in result.replies[0].message


def test_each_command_in_its_own_phase() -> None:
    match = distribution()
    result = submit(match, Submissions(), "Ann", read_mail(["VOTE YES ME", "MOVE", "GIVE TOKEN Bob"]))
    assert [r.message for r in result.replies] == [
        "votes are sent during a Voting Phase; this is the Distribution Phase of round 1",
        "a move is asked for during a Voting Phase; this is the Distribution Phase of round 1",
        "the extra Token of Life is given after the last round, in the final phase; this is the Distribution "
        "Phase of round 1",
    ]
    voting = phase(match, {})
    assert submit(voting, Submissions(), "Ann", read_mail(["PLAN ME 30"])).replies[0].message == (
        "plans are sent during a Distribution Phase; this is the Voting Phase of round 1")


def test_replies_come_in_the_order_of_the_lines() -> None:
    match = phase(distribution(), {})
    result = submit(match, Submissions(), "Ann", read_mail(["NOMOVE", "VOTE YES ME Bob Cy", "BAD", "MOVE x",
                                                            "VOTE NO Dee Eve Fay Gus", "MOVE"]))
    assert [r.lines[0] for r in result.replies] == ["NOMOVE", "VOTE YES ME Bob Cy", "MOVE x", "MOVE"]
    assert [r.accepted for r in result.replies] == [True, True, False, True]
    assert result.submissions.moves == ("Ann",)
