"""The form to fill by mail: each mail that opens a phase for a power ends with its form,
its legal orders listed, and a reply to it is read as if only the player's own lines were written, in a real
Payola game (France Alice, Germany Bob, England Carol)."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import select

from judge.games.payola.kind import Payola
from judge.service.hosting import host
from judge.store.models import Game
from tests.games.payola.by_mail import ENGLAND, FRANCE, GERMANY, play_spring, start, teleport
from tests.support.harness import Judge, Sent
from tests.support.people import ALICE, BOB, CAROL

START_FORM = [  # hand-worked from the standard board: France's units in spring 1901 and where each may go
    "%% form for S1901M of g1, France",
    "% A PAR: H, - BRE, - BUR, - GAS, - PIC, S F BRE, S F BRE - GAS",
    "% A PAR: S F BRE - PIC, S A MAR - BUR, S A MAR - GAS, S A MUN - BUR",
    "% F BRE: H, - ENG, - GAS, - MAO, - PIC, S F LON - ENG, S A MAR - GAS",
    "% A MAR: H, - BUR, - GAS, - PIE, - SPA, S F BRE - GAS, S A MUN - BUR",
    "SIGNON FRANCE@g1 _",
    "_ : A MAR H",
    "_ : A PAR H",
    "_ : F BRE H",
    "ACCEPT _",
    "_ $",
    "%% end of form",
]


@pytest.fixture
def judge(tmp_path: Path) -> Judge:
    return start(Judge(tmp_path))


def form_of(mail: Sent) -> list[str]:
    """The form block a mail ends with: from its opening line to its end line."""
    lines = mail.body.rstrip("\n").split("\n")
    opening = next(index for index, line in enumerate(lines) if line.startswith("%% form for"))
    assert lines[-1] == "%% end of form"
    return lines[opening:]


def sheet(judge: Judge, power: str = "FRANCE", phase: str = "S1901M") -> str | None:
    """The offer sheet ``power`` has in ``phase``, as kept."""
    with judge.db.transaction() as session:
        game = session.scalar(select(Game).where(Game.name == "g1"))
        assert game is not None
        return host.latest_texts(session, game, phase).get((power, "sheet"))


def start_mail(judge: Judge, address: str = ALICE) -> Sent:
    return next(mail for mail in judge.all_mail() if mail.to == address and mail.subject == "g1 starts")


def test_the_start_mail_ends_with_the_powers_form_its_units_legal_orders_listed(judge: Judge) -> None:
    form = form_of(start_mail(judge))
    assert all(line in form for line in START_FORM)
    assert form[0] == START_FORM[0] and form[-7:] == START_FORM[-7:]
    assert "% Treasury: 48 AgP." in form
    assert "% Acceptance list: F?. To change it, replace the _ of the ACCEPT line" in form
    assert all(len(line) <= 72 for line in form)


def test_a_results_mail_ends_with_the_form_for_the_next_phase(judge: Judge) -> None:
    play_spring(judge)
    results = next(mail for mail in judge.new_mail() if mail.to == ALICE and mail.subject == "g1 S1901M results")
    form = form_of(results)
    assert form[0] == "%% form for F1901M of g1, France"
    assert "_ : A BUR H" in form and "_ : A PAR H" not in form  # A PAR moved to Burgundy in the spring
    assert "% A BUR: H, - BEL, - GAS, - MAR, - MUN, - PAR, - PIC, - RUH" in form


def test_a_reply_quoting_the_whole_mail_applies_the_filled_lines_and_answers_no_other(judge: Judge) -> None:
    mail = start_mail(judge)
    filled = [line.replace("_ : A PAR H", "3 : A PAR - BUR") for line in form_of(mail)]
    quoted = [f"> {line}" if line else ">" for line in mail.body.split("\n")]
    judge.send(ALICE, "\n".join([FRANCE.strip(), *filled, "", *quoted]), subject="Re: g1 starts")
    assert judge.outcome_of("3 : A PAR - BUR") == ("ok", "SHEET_ACCEPTED")
    assert sheet(judge) == "3 : A PAR - BUR"
    answered = {answer.text for answer in judge.answers}
    assert answered == {"SIGNON F@g1 ****", "3 : A PAR - BUR"}  # no comment, blank, quoted or unfilled line


def test_a_reply_with_the_form_untouched_applies_nothing_and_says_so(judge: Judge) -> None:
    judge.send(ALICE, "\n".join([FRANCE.strip(), *form_of(start_mail(judge))]), subject="Re: g1 starts")
    assert {answer.text for answer in judge.answers} == {"SIGNON F@g1 ****"}
    assert sheet(judge) is None
    assert "Your form for S1901M of g1 came back as the judge sent it" in judge.last_to(ALICE).body


def test_a_kind_whose_form_fails_still_runs_its_phase_and_reads_its_players_mail(
        judge: Judge, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    """A fault in a kind's form costs the form alone: the reply is read as if no form had been sent (its
    blank line answered as what it is, a line no reader takes), the phase runs, its results go without a
    form, and the operator finds the fault in the log."""
    def broken(*_: object) -> None:
        raise RuntimeError("a bug in the form")

    monkeypatch.setattr(Payola, "form", broken)
    judge.send(ALICE, FRANCE + "3 : A PAR - BUR\n_ : F BRE H")
    assert judge.outcome_of("3 : A PAR - BUR") == ("ok", "SHEET_ACCEPTED")
    assert judge.outcome_of("_ : F BRE H")[0] != "ok" and sheet(judge) == "3 : A PAR - BUR"  # answered, not kept
    assert "internal error" not in judge.last_to(ALICE).body.lower()
    judge.send(BOB, GERMANY + "2 : A MUN - RUH")
    judge.send(CAROL, ENGLAND + "1 : F LON - NTH")
    results = next(mail for mail in judge.new_mail() if mail.to == ALICE and mail.subject == "g1 S1901M results")
    assert "%% form for" not in results.body and "Next phase: F1901M" in results.body
    assert "the form of FRANCE in g1 could not be made" in caplog.text


@pytest.mark.parametrize("opening", ["%% form for S1901M of g1, Germany", "%% form for F1901M of g1, France",
                                     "%% form for S1901M of g2, France"])
def test_a_form_of_another_seat_phase_or_game_is_answered_and_none_of_it_applied(judge: Judge,
                                                                                 opening: str) -> None:
    judge.send(ALICE, "\n".join([FRANCE.strip(), opening, "3 : A PAR - BUR", "_ : F BRE H", "%% end of form",
                                 "2 : A MAR - SPA"]))
    assert judge.outcome_of(opening) == ("ignored", "OTHER_FORM")
    assert judge.outcome_of("3 : A PAR - BUR") == ("ignored", "OTHER_FORM")
    assert "_ : F BRE H" not in {answer.text for answer in judge.answers}
    assert judge.outcome_of("2 : A MAR - SPA") == ("ok", "SHEET_ACCEPTED")  # after the form's end: the player's
    assert sheet(judge) == "2 : A MAR - SPA"


def test_set_form_off_drops_the_form_from_the_next_mail_and_on_brings_it_back(judge: Judge) -> None:
    judge.send(ALICE, "SET FORM OFF")
    assert judge.outcome_of("SET FORM OFF") == ("ok", "FORM_SET")
    play_spring(judge)
    mails = {mail.to: mail for mail in judge.new_mail() if mail.subject == "g1 S1901M results"}
    assert "%% form for" not in mails[ALICE].body
    assert form_of(mails[CAROL])[0] == "%% form for F1901M of g1, England"
    judge.send(ALICE, "SET FORM ON")
    assert judge.outcome_of("SET FORM ON") == ("ok", "FORM_SET")


def test_a_tin_cup_form_lists_no_unit_its_power_cannot_see(tmp_path: Path) -> None:
    judge = start(Judge(tmp_path), "BLIND")
    form = form_of(start_mail(judge))
    assert "_ : A PAR H" in form and "% A PAR: H, - BRE, - BUR, - GAS, - PIC, S F BRE, S F BRE - GAS" in form
    notes = "\n".join(line for line in form if line.startswith("% "))
    assert "MUN" not in notes and "LON" not in notes  # Germany's army and England's fleet, out of France's sight


def test_help_form_shows_a_form_and_its_reply_and_set_form(judge: Judge) -> None:
    judge.send(ALICE, "HELP FORM")
    body = judge.last_to(ALICE).body
    assert "== form: " in body and "%% form for S1901M of g1, France" in body
    assert "3 : A PAR - BUR" in body and "SET FORM OFF" in body


ATTRIBUTION = "On Thu, 26 Nov 2026, judge@example.org wrote:"


def inline(mail: Sent, filled: dict[str, str]) -> str:
    """A reply written inline, as a phone's "reply inline" writes it: the attribution, then the whole
    ``mail`` quoted, each line of ``filled`` written unquoted below the quoted form's line it answers."""
    out = ["Here you go:", "", ATTRIBUTION]
    for line in mail.body.rstrip("\n").split("\n"):
        out.append(f"> {line}" if line else ">")
        if line in filled:
            out.append(filled[line])
    return "\n".join(out)


def test_a_form_filled_inline_below_an_attribution_applies_the_lines_written_between_its_quotes(
        judge: Judge) -> None:
    judge.send(ALICE, inline(start_mail(judge), {"SIGNON FRANCE@g1 _": "SIGNON FRANCE@g1 alice-pw",
                                                 "_ : A PAR H": "3 : A PAR - BUR", "_ : F BRE H": "2 : F BRE - PIC"}),
               subject="Re: g1 starts")
    assert judge.outcome_of("3 : A PAR - BUR") == ("ok", "SHEET_ACCEPTED")
    assert sheet(judge) == "3 : A PAR - BUR\n2 : F BRE - PIC"
    answered = {answer.text for answer in judge.answers}
    assert answered == {"Here you go:", "SIGNON FRANCE@g1 ****", "3 : A PAR - BUR", "2 : F BRE - PIC"}
    assert judge.outcome_of("Here you go:") == ("ignored", "GREETING")
    assert "Reading stopped" not in judge.last_to(ALICE).body


def test_an_outlook_top_post_above_the_judges_mail_unquoted_reads_none_of_the_judges_lines(judge: Judge) -> None:
    """Outlook pastes the mail answered unquoted below a header block: the judge's prose and its form,
    left as they were, are not read, and the reply says where reading stopped."""
    mail = start_mail(judge)
    original = ["-----Original Message-----", "From: judge@example.org", "Sent: Thursday, November 26, 2026 9:00",
                "To: alice@example.org", "Subject: g1 starts", "", *mail.body.split("\n")]
    judge.send(ALICE, "\n".join([FRANCE.strip(), "3 : A PAR - BUR", "", *original]), subject="RE: g1 starts")
    assert {answer.text for answer in judge.answers} == {"SIGNON F@g1 ****", "3 : A PAR - BUR"}
    assert sheet(judge) == "3 : A PAR - BUR"
    assert "Reading stopped at '-----Original Message-----'" in judge.last_to(ALICE).body


def test_a_form_pasted_twice_reads_the_copy_filled_in_and_answers_the_other_as_not_read(judge: Judge) -> None:
    form = form_of(start_mail(judge))
    filled = [line.replace("_ : A PAR H", "3 : A PAR - BUR") for line in form]
    judge.send(ALICE, "\n".join([FRANCE.strip(), *filled, *form]))
    assert judge.outcomes_of(form[0]) == [("ignored", "FORM_COPY")]  # the second copy's opening line, untouched
    assert judge.outcome_of("3 : A PAR - BUR") == ("ok", "SHEET_ACCEPTED")
    assert {answer.text for answer in judge.answers} == {"SIGNON F@g1 ****", form[0], "3 : A PAR - BUR"}
    assert sheet(judge) == "3 : A PAR - BUR"
    assert "came back as the judge sent it" not in judge.last_to(ALICE).body


def test_a_form_pasted_twice_filled_two_ways_reads_the_last_and_says_the_copies_differ(judge: Judge) -> None:
    form = form_of(start_mail(judge))
    first = [line.replace("_ : A PAR H", "3 : A PAR - BUR").replace("_ : F BRE H", "1 : F BRE - PIC")
             for line in form]
    last = [line.replace("_ : A PAR H", "5 : A PAR - GAS").replace("_ : F BRE H", "1 : F BRE - PIC")
            for line in form]
    judge.send(ALICE, "\n".join([FRANCE.strip(), *first, *last]))
    assert judge.outcomes_of(form[0]) == [("ignored", "FORM_COPIES_DIFFER")]  # the first copy's
    assert judge.outcome_of("3 : A PAR - BUR") == ("ignored", "FORM_COPY")  # its line the last copy does not hold
    assert judge.outcomes_of("1 : F BRE - PIC") == [("ok", "SHEET_ACCEPTED")]  # written alike: answered once
    assert sheet(judge) == "5 : A PAR - GAS\n1 : F BRE - PIC"


def test_a_reply_quoting_the_form_twice_answers_no_line_in_error(judge: Judge) -> None:
    """A reply to the judge's answer to a reply: the form quoted twice (``> > ``), below two attributions."""
    quoted_twice = [f"> > {line}".rstrip() for line in form_of(start_mail(judge))]
    body = [FRANCE.strip(), "3 : A PAR - BUR", "", ATTRIBUTION, "> Thanks, my orders:",
            "> On Thu, 26 Nov 2026, judge@example.org wrote:", *quoted_twice]
    judge.send(ALICE, "\n".join(body), subject="Re: Re: g1 starts")
    assert {answer.text for answer in judge.answers} == {"SIGNON F@g1 ****", "3 : A PAR - BUR"}
    assert all(answer.outcome != "error" for answer in judge.answers)
    assert sheet(judge) == "3 : A PAR - BUR"


# -- the form of every mail that opens a phase ----------------------------------------------------------------

DAN = "dan@example.org"


def notes_of(form: list[str], unit: str) -> list[str]:
    """What ``form``'s notes list for ``unit`` (``A BER``), its note lines joined: its legal orders, or
    its retreats."""
    head = f"% {unit}: "
    return ", ".join(line.removeprefix(head) for line in form if line.startswith(head)).split(", ")


def mail_to(judge: Judge, address: str, subject: str) -> Sent:
    [mail] = [mail for mail in judge.all_mail() if mail.to == address and mail.subject == subject]
    return mail


def test_the_reminder_ends_with_the_form_the_start_mail_had_and_a_reply_to_it_is_applied(judge: Judge) -> None:
    """S1901M is due 48 hours after the start; the reminder comes 24 hours before, to the powers that
    have not sent a sheet: France's form as its start mail had it, nothing having changed."""
    judge.send(BOB, GERMANY + "2 : A MUN - RUH")
    judge.later(24)
    judge.tick()
    reminder = mail_to(judge, ALICE, "g1 S1901M reminder")
    assert form_of(reminder) == form_of(start_mail(judge))
    assert {mail.to for mail in judge.all_mail() if mail.subject == "g1 S1901M reminder"} == {ALICE, CAROL}
    filled = [{"_ : F BRE H": "4 : F BRE - MAO"}.get(line, line) for line in form_of(reminder)]
    judge.send(ALICE, "\n".join([FRANCE.strip(), *filled]), subject="Re: g1 S1901M reminder")
    assert judge.outcome_of("4 : F BRE - MAO") == ("ok", "SHEET_ACCEPTED")
    assert sheet(judge) == "4 : F BRE - MAO"


def test_a_takeovers_briefing_ends_with_the_powers_form_its_money_and_list_and_a_reply_is_applied(
        tmp_path: Path) -> None:
    """Germany's player sends 8 of its 48 AgP to England, sets its acceptance list and resigns; Dan's
    briefing ends with Germany's form: 40 AgP, the list GEFAIRT, its three units and what each may do
    on the standard board in spring 1901 (Berlin's neighbours Kiel, Munich, Prussia, Silesia; the
    supports of the units next to them, Russia's A WAR among them)."""
    judge = start(Judge(tmp_path), "OPEN_TAKEOVER")
    judge.send(BOB, GERMANY + "TRANSFER 8 TO ENGLAND\nACCEPT GEFAIRT\nRESIGN")
    judge.send(DAN, "TAKEOVER GERMANY@g1 dan-pw")
    form = form_of(mail_to(judge, DAN, "g1: your briefing as Germany"))
    assert form[0] == "%% form for S1901M of g1, Germany"
    assert "% Treasury: 40 AgP." in form
    assert "% Acceptance list: GEFAIRT. To change it, replace the _ of the ACCEPT" in form
    assert form[-7:] == ["SIGNON GERMANY@g1 _", "_ : A BER H", "_ : A MUN H", "_ : F KIE H", "ACCEPT _", "_ $",
                         "%% end of form"]
    assert notes_of(form, "A BER") == ["H", "- KIE", "- MUN", "- PRU", "- SIL", "S F KIE", "S A MUN",
                                       "S A MUN - KIE", "S A MUN - SIL", "S A WAR - PRU", "S A WAR - SIL"]
    filled = [{"SIGNON GERMANY@g1 _": "SIGNON GERMANY@g1 dan-pw", "_ : A MUN H": "5 : A MUN - BUR"}.get(line, line)
              for line in form]
    judge.send(DAN, "\n".join(filled), subject="Re: g1: your briefing as Germany")
    assert judge.outcome_of("5 : A MUN - BUR") == ("ok", "SHEET_ACCEPTED")
    assert sheet(judge, "GERMANY") == "5 : A MUN - BUR"


# Fall 1901: Germany dislodges France's A PIC (A BUR - PIC, supported from Belgium). It may retreat to
# Brest or Paris, both empty; not to Belgium (held), nor Burgundy (where the attack came from), nor the
# Channel (sea).
DISLODGED = {"phase": "F1901M",
             "units": {"FRANCE": ["A PIC", "A MAR"], "GERMANY": ["A BUR", "A BEL"], "ENGLAND": ["F LON"]},
             "centers": {"FRANCE": ["PAR", "BRE", "MAR"], "GERMANY": ["MUN", "BER", "KIE"],
                         "ENGLAND": ["LON", "EDI", "LVP"]}}


def test_a_retreat_phases_form_lists_each_dislodged_units_retreats_and_a_reply_is_applied(judge: Judge) -> None:
    teleport(judge, DISLODGED)
    judge.send(ALICE, FRANCE + "1 : A PIC H\n1 : A MAR H")
    judge.send(BOB, GERMANY + "2 : A BUR - PIC\n2 : A BEL S A BUR - PIC")
    judge.send(CAROL, ENGLAND + "1 : F LON H")
    results = {mail.to: mail for mail in judge.new_mail() if mail.subject == "g1 F1901M results"}
    form = form_of(results[ALICE])
    assert form[0] == "%% form for F1901R of g1, France"
    assert notes_of(form, "A PIC") == ["- BRE", "- PAR", "D"]
    assert form[-3:] == ["SIGNON FRANCE@g1 _", "A PIC _", "%% end of form"]
    assert "%% form for" not in results[BOB].body and "%% form for" not in results[CAROL].body  # none to retreat
    filled = [{"SIGNON FRANCE@g1 _": "SIGNON FRANCE@g1 alice-pw", "A PIC _": "A PIC - BRE"}.get(line, line)
              for line in form]
    judge.send(ALICE, "\n".join(filled), subject="Re: g1 F1901M results")
    assert judge.outcome_of("A PIC - BRE")[0] == "ok"
    winter = form_of(mail_to(judge, ALICE, "g1 F1901R results"))  # three centres, two units: one build
    assert winter[0] == "%% form for W1901A of g1, France"
    assert "% Builds: A PAR" in winter  # Brest holds the army retreated there, Marseilles its own


# Fall 1901: France takes Belgium (A BUR - BEL) and holds three home centres with one army: two builds, in
# Brest or Marseilles (Paris is occupied). Germany keeps Munich and Berlin with three units, none on a
# centre: one removal. England, one centre and one fleet, has nothing to do.
ADJUSTED = {"phase": "F1901M",
            "units": {"FRANCE": ["A PAR", "A BUR"], "GERMANY": ["A MUN", "A RUH", "F BAL"], "ENGLAND": ["F LON"]},
            "centers": {"FRANCE": ["PAR", "BRE", "MAR"], "GERMANY": ["MUN", "BER"], "ENGLAND": ["LON"]}}


def test_an_adjustment_phases_form_lists_the_builds_or_removals_due_and_a_reply_is_applied(judge: Judge) -> None:
    teleport(judge, ADJUSTED)
    judge.send(ALICE, FRANCE + "1 : A PAR H\n2 : A BUR - BEL")
    judge.send(BOB, GERMANY + "1 : A MUN H\n1 : A RUH H\n1 : F BAL H")
    judge.send(CAROL, ENGLAND + "1 : F LON H")
    results = {mail.to: mail for mail in judge.new_mail() if mail.subject == "g1 F1901M results"}
    france, germany = form_of(results[ALICE]), form_of(results[BOB])
    assert france[0] == "%% form for W1901A of g1, France"
    assert "% You may build 2 units: replace the _ of a BUILD line with the unit to" in france
    assert "% Builds: A BRE, F BRE, A MAR, F MAR" in france
    assert france[-4:] == ["SIGNON FRANCE@g1 _", "BUILD _", "BUILD _", "%% end of form"]
    assert germany[0] == "%% form for W1901A of g1, Germany"
    assert "% You must remove 1 unit: replace the _ of each REMOVE line with one of" in germany
    assert "% Units: A MUN, A RUH, F BAL" in germany
    assert germany[-3:] == ["SIGNON GERMANY@g1 _", "REMOVE _", "%% end of form"]
    assert "%% form for" not in results[CAROL].body
    built = [{"SIGNON FRANCE@g1 _": "SIGNON FRANCE@g1 alice-pw"}.get(line, line) for line in france]
    built[built.index("BUILD _")] = "BUILD F BRE"  # the other BUILD line left as it is: a build waived
    judge.send(ALICE, "\n".join(built), subject="Re: g1 F1901M results")
    assert judge.outcome_of("BUILD F BRE")[0] == "ok"
    assert {answer.text for answer in judge.answers} == {"SIGNON FRANCE@g1 ****", "BUILD F BRE"}
    removed = [{"SIGNON GERMANY@g1 _": "SIGNON GERMANY@g1 bob-pw", "REMOVE _": "REMOVE F BAL"}.get(line, line)
               for line in germany]
    judge.send(BOB, "\n".join(removed), subject="Re: g1 F1901M results")
    assert judge.outcome_of("REMOVE F BAL")[0] == "ok"
    assert "France: BUILD F BRE\n  Germany: REMOVE F BAL" in mail_to(judge, ALICE, "g1 W1901A results").body
    spring = [line for line in form_of(mail_to(judge, ALICE, "g1 W1901A results")) if line.startswith("_ : ")]
    assert spring == ["_ : A BEL H", "_ : A PAR H", "_ : F BRE H"]  # the fleet built, in the next phase's form
    spring = [line for line in form_of(mail_to(judge, BOB, "g1 W1901A results")) if line.startswith("_ : ")]
    assert spring == ["_ : A MUN H", "_ : A RUH H"]  # the fleet removed
