"""The form to fill by mail: each mail that opens a phase for a player ends with their form (the plan
skeleton with their package and room, the ballot with every plan of their room, the richest player's
GIVE TOKEN line), and a reply to it is read as if only the player's own lines were written."""

from __future__ import annotations

from pathlib import Path

import pytest

from judge.games.pirates.core.commands import read_mail, submit
from judge.games.pirates.core.match import Submissions, final_result
from judge.games.pirates.form import form_parts
from tests.games.pirates.by_mail import FOUR, address, pirates_game
from tests.games.pirates.match import match_in_round_1, phase
from tests.support.harness import Judge, Sent
from tests.support.people import GM

SEED = 7
"""A seed that draws the rooms Ann and Cy, Bob and Dee, and the packages Ann 50, Bob 20, Cy 40, Dee 30 gold
(as each start mail says: the forms are checked against the mail's own lines)."""


@pytest.fixture
def judge(tmp_path: Path) -> Judge:
    return pirates_game(Judge(tmp_path), FOUR, garnets=1, seed=SEED)


def mail_to(judge: Judge, name: str, subject: str) -> Sent:
    return next(mail for mail in judge.all_mail() if mail.to == address(name) and mail.subject == subject)


def form_of(mail: Sent) -> list[str]:
    """The form block a mail ends with: from its opening line to its end line."""
    lines = mail.body.rstrip("\n").split("\n")
    opening = next(index for index, line in enumerate(lines) if line.startswith("%% form for"))
    assert lines[-1] == "%% end of form"
    return lines[opening:]


def reply(judge: Judge, name: str, mail: Sent, filled: dict[str, str]) -> None:
    """``name`` answers ``mail`` as a mail client does: the form with ``filled`` lines replaced, the whole
    mail quoted."""
    form = [filled.get(line, line) for line in form_of(mail)]
    quoted = [f"> {line}" if line else ">" for line in mail.body.split("\n")]
    judge.send(address(name), "\n".join([f"SIGNON {name}@pp pw-{name.lower()}", *form, "", *quoted]),
               subject=f"Re: {mail.subject}")


def process(judge: Judge) -> None:
    judge.send(GM, "SIGNON MASTER@pp gm-pw\nPROCESS")


def test_the_start_mail_ends_with_the_plan_skeleton_of_the_players_room_and_package(judge: Judge) -> None:
    mail = mail_to(judge, "Cy", "pp starts")
    assert "Room: Ann, Cy" in mail.body and "Package: 40 gold" in mail.body  # the seed's draw, as the mail says
    assert form_of(mail) == [
        "%% form for D1 of pp, Cy",
        "% Replace each _ below with your choice and send the lines back. A line",
        "%   left as it is, like every line starting with %, is not read.",
        "% Round 1 of 5. Your room: Ann, Cy. Your gold: 0.",
        "% Replace each _ of the PLAN line with the gold that member gets (0 for",
        "%   none): the amounts add up to exactly the package, 40 gold (P5).",
        "% You hold 1 garnet: each one spent adds 5 gold to share. Replace the _",
        "%   of GARNETS with how many to spend, or leave it as it is to spend",
        "%   none (P7).",
        "SIGNON Cy@pp _",
        "PLAN Ann _ ME _",
        "GARNETS _",
        "%% end of form",
    ]
    form = "\n".join(form_of(mail_to(judge, "Cy", "pp starts")))
    assert "Bob" not in form and "Dee" not in form  # the other room is nobody's business (P10)


def test_a_match_without_garnets_has_no_garnets_line(tmp_path: Path) -> None:
    judge = pirates_game(Judge(tmp_path), FOUR, seed=SEED)
    form = form_of(mail_to(judge, "Ann", "pp starts"))
    assert form[-3:] == ["SIGNON Ann@pp _", "PLAN ME _ Cy _", "%% end of form"]
    assert "garnet" not in "\n".join(form)


def test_a_results_mail_opening_a_voting_phase_ends_with_the_ballot_of_every_plan_of_the_room(judge: Judge) -> None:
    """Nobody planned: Ann's default plan gives her 50 gold to Cy, Cy's his 40 to Ann (P6)."""
    process(judge)
    mail = mail_to(judge, "Ann", "pp D1 results")
    assert "Plan of Cy: you receive 40 gold" in mail.body
    form = form_of(mail)
    assert form[0] == "%% form for V1 of pp, Ann"
    assert form[-3:] == ["VOTE _ ME", "VOTE _ Cy", "%% end of form"]
    assert "% Round 1 of 5. What you receive under each plan of your room: your own" in form
    assert "%   0 gold, Cy's 40 gold." in form
    assert any("add a line MOVE" in line for line in form)
    process(judge)
    assert form_of(mail_to(judge, "Ann", "pp V1 results"))[0] == "%% form for D2 of pp, Ann"


def test_the_final_form_is_the_richest_players_alone() -> None:
    """Round 1: Ann's plan of all 50 gold to herself passes, Bob's default plan (his 20 to Ann) fails
    and goes to Ann all the same (P4, P6): 70 to Bob's 0, and the four rounds after by the defaults
    leave her the single richest (P11)."""
    match = match_in_round_1(("Ann", "Bob"), ("Cy", "Dee"), {"Ann": 50, "Bob": 20, "Cy": 40, "Dee": 30})
    match = phase(match, {"Ann": ["PLAN ME 50 Bob 0"]})
    match = phase(match, {"Ann": ["VOTE YES ME NO Bob"], "Bob": ["VOTE YES Ann NO ME"]})
    while match.current_phase is not None and match.current_phase.name != "F":
        match = phase(match, {})
    assert final_result(match).extra_token == "Ann"
    assert form_parts(match, "Ann") == (
        ["You have more gold than every other player: replace the _ of GIVE TOKEN with the player you give the "
         "extra Token of Life to (P11): Bob, Cy, Dee."], ["GIVE TOKEN _"])
    assert [form_parts(match, name) for name in ("Bob", "Cy", "Dee")] == [None, None, None]


def test_every_form_line_left_as_given_is_refused_by_the_kinds_reader() -> None:
    """Were the host not to drop them: a plan, a ballot or a gift with a _ left is refused whole."""
    match = match_in_round_1(("Ann", "Bob"), ("Cy", "Dee"), {"Ann": 50, "Bob": 20, "Cy": 40, "Dee": 30}, garnets=1)
    plan = form_parts(match, "Ann")
    assert plan is not None and plan[1] == ["PLAN ME _ Bob _", "GARNETS _"]
    voting = phase(match, {})
    ballot = form_parts(voting, "Ann")
    assert ballot is not None and ballot[1] == ["VOTE _ ME", "VOTE _ Bob"]
    for now, lines in ((match, plan[1]), (match, plan[1][:1]), (voting, ballot[1]), (voting, ballot[1][:1])):
        replies = submit(now, Submissions(), "Ann", read_mail(lines)).replies
        assert replies and not any(answer.accepted for answer in replies), lines


def test_a_reply_quoting_the_whole_mail_applies_exactly_the_lines_filled(judge: Judge) -> None:
    reply(judge, "Ann", mail_to(judge, "Ann", "pp starts"), {"PLAN ME _ Cy _": "PLAN ME 30 Cy 20"})
    assert judge.outcome_of("PLAN ME 30 Cy 20") == ("ok", "PLAN_ACCEPTED")  # GARNETS left: none spent (P7)
    assert {answer.text for answer in judge.answers} == {"SIGNON Ann@pp ****", "PLAN ME 30 Cy 20"}
    process(judge)
    assert "Your plan: you 30, Cy 20" in mail_to(judge, "Ann", "pp D1 results").body
    reply(judge, "Ann", mail_to(judge, "Ann", "pp D1 results"), {"VOTE _ ME": "VOTE YES ME", "VOTE _ Cy": "VOTE NO Cy"})
    assert judge.outcome_of("VOTE YES ME") == ("ok", "BALLOT_ACCEPTED")


def test_an_untouched_form_applies_nothing_and_says_so(judge: Judge) -> None:
    reply(judge, "Ann", mail_to(judge, "Ann", "pp starts"), {})
    assert {answer.text for answer in judge.answers} == {"SIGNON Ann@pp ****"}
    assert "Your form for D1 of pp came back as the judge sent it" in judge.last_to(address("Ann")).body
    process(judge)
    assert "the default plan: you sent no valid plan in time" in mail_to(judge, "Ann", "pp D1 results").body


def test_a_line_with_its_blank_left_in_is_not_applied(judge: Judge) -> None:
    reply(judge, "Ann", mail_to(judge, "Ann", "pp starts"), {"PLAN ME _ Cy _": "PLAN ME 30 Cy _"})
    assert judge.outcome_of("PLAN ME 30 Cy _") == ("error", "SYNTAX")
    process(judge)
    assert "the default plan: you sent no valid plan in time" in mail_to(judge, "Ann", "pp D1 results").body


def test_a_form_filled_inline_below_an_attribution_applies_the_lines_written_between_its_quotes(
        judge: Judge) -> None:
    """A phone's reply inline: the attribution, the whole mail quoted, Ann's lines under the quoted lines of
    the form they fill."""
    filled = {"SIGNON Ann@pp _": "SIGNON Ann@pp pw-ann", "PLAN ME _ Cy _": "PLAN ME 30 Cy 20"}
    body = ["On Thu, 26 Nov 2026, judge@example.org wrote:"]
    for line in mail_to(judge, "Ann", "pp starts").body.rstrip("\n").split("\n"):
        body.extend([f"> {line}" if line else ">", *([filled[line]] if line in filled else [])])
    judge.send(address("Ann"), "\n".join(body), subject="Re: pp starts")
    assert judge.outcome_of("PLAN ME 30 Cy 20") == ("ok", "PLAN_ACCEPTED")
    assert {answer.text for answer in judge.answers} == {"SIGNON Ann@pp ****", "PLAN ME 30 Cy 20"}
    process(judge)
    assert "Your plan: you 30, Cy 20" in mail_to(judge, "Ann", "pp D1 results").body


def test_an_outlook_top_post_above_the_judges_mail_unquoted_reads_none_of_the_judges_lines(judge: Judge) -> None:
    mail = mail_to(judge, "Ann", "pp starts")
    form = [{"PLAN ME _ Cy _": "PLAN ME 30 Cy 20"}.get(line, line) for line in form_of(mail)]
    original = ["________________________________", "From: judge@example.org",
                "Sent: Thursday, November 26, 2026 9:00", "Subject: pp starts", "", *mail.body.split("\n")]
    judge.send(address("Ann"), "\n".join(["SIGNON Ann@pp pw-ann", *form, "", *original]), subject="RE: pp starts")
    assert {answer.text for answer in judge.answers} == {"SIGNON Ann@pp ****", "PLAN ME 30 Cy 20"}


def test_a_form_pasted_twice_filled_two_ways_reads_the_last_and_says_the_copies_differ(judge: Judge) -> None:
    form = form_of(mail_to(judge, "Ann", "pp starts"))
    copies = [[{"PLAN ME _ Cy _": plan}.get(line, line) for line in form]
              for plan in ("PLAN ME 30 Cy 20", "PLAN ME 10 Cy 40")]
    judge.send(address("Ann"), "\n".join(["SIGNON Ann@pp pw-ann", *copies[0], *copies[1]]))
    assert judge.outcomes_of(form[0]) == [("ignored", "FORM_COPIES_DIFFER")]
    assert judge.outcome_of("PLAN ME 30 Cy 20") == ("ignored", "FORM_COPY")
    assert judge.outcome_of("PLAN ME 10 Cy 40") == ("ok", "PLAN_ACCEPTED")
    process(judge)
    assert "Your plan: you 10, Cy 40" in mail_to(judge, "Ann", "pp D1 results").body


def test_a_form_pasted_twice_untouched_once_reads_the_copy_filled_in(judge: Judge) -> None:
    form = form_of(mail_to(judge, "Ann", "pp starts"))
    untouched = [line.replace("SIGNON Ann@pp _", "SIGNON Ann@pp pw-ann") for line in form]
    filled = [{"PLAN ME _ Cy _": "PLAN ME 30 Cy 20"}.get(line, line) for line in form]
    judge.send(address("Ann"), "\n".join([*untouched, *filled]))
    assert judge.outcomes_of(form[0]) == [("ignored", "FORM_COPY")]  # the first copy's opening line
    assert judge.outcome_of("PLAN ME 30 Cy 20") == ("ok", "PLAN_ACCEPTED")  # signed on by the copy not read
    assert {answer.text for answer in judge.answers} == {"SIGNON Ann@pp ****", form[0], "PLAN ME 30 Cy 20"}


def test_a_reply_quoting_the_form_twice_answers_no_line_in_error(judge: Judge) -> None:
    quoted_twice = [f"> > {line}".rstrip() for line in form_of(mail_to(judge, "Ann", "pp starts"))]
    judge.send(address("Ann"), "\n".join(["SIGNON Ann@pp pw-ann", "PLAN ME 30 Cy 20", "",
                                         "On Thu, 26 Nov 2026, judge@example.org wrote:", "> Here is my plan.",
                                         "> On Thu, 26 Nov 2026, judge@example.org wrote:", *quoted_twice]),
               subject="Re: Re: pp starts")
    assert {answer.text for answer in judge.answers} == {"SIGNON Ann@pp ****", "PLAN ME 30 Cy 20"}
    assert all(answer.outcome != "error" for answer in judge.answers)
