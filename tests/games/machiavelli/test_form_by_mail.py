"""The form to fill by mail: each mail that opens a letter's phase for a country ends with its form, its
treasury, prices and units' choices listed, and a reply to it is read as if only the player's own lines
were written, in a real Machiavelli game on the classic board (Florence ann, Milan bob, Venice cy; the
five other countries dummies).

The forms are worked out by hand from the classic board of 1454 (its areas' neighbours and cities) and
the rules: 15 ducats each and at most 3 units raised in the first spring (3, M48), 3 ducats a unit kept
or raised (A.7), a unit raised only in a controlled province of its home country with a city for it
(a garrison in a fortified city, an army in a province with a city, a fleet in a port) and in a place
free (7.2, M13), the bribes' minimums (12: an independent unit's operate 3, disband 6, buy 9; a
committed army's independent 9, disband 12, buy 18) and their reach (M36: the home country, or next to
one's units; a garrison sharing its province with an army is next to that army alone)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from sqlalchemy import select

from judge.api import Unknown
from judge.games.machiavelli import handlers, lifecycle, views
from judge.games.machiavelli.core.board import load_board
from judge.games.machiavelli.core.position import Phase
from judge.games.machiavelli.core.syntax import parse_letter
from judge.service.outgoing import forms
from judge.store.models import Game
from tests.support.harness import Judge, Sent, once

GM = "gm@example.org"
PLAYERS = {"Florence": "ann", "Milan": "bob", "Venice": "cy"}
SPRING = {"Florence": ("pay A are", "pay A flo", "pay F psa", "raise G flo"),
          "Milan": ("pay A cre", "pay A mil", "pay A pav"),
          "Venice": ("pay G ven", "pay A pad", "pay A ver", "pay F dal")}
"""Each country's spring letter in `played_spring`: every unit kept, Florence raising a garrison in Florence."""

START_FORM = [  # Florence's units at the start, 15 ducats, and where it may raise (see the module's docstring)
    "%% form for SP1454A of m1, Florence",
    "% Replace each _ below with your choice and send the lines back. A line",
    "%   left as it is, like every line starting with %, is not read.",
    "% Treasury: 15 ducats.",
    "% A transfer line: replace its first _ with an amount, its second with a",
    "%   country (A.4).",
    "% Each unit you keep costs 3 ducats (A.7): replace the _ of its line",
    "%   with pay to keep it, or with disband.",
    "% Once you pay, disband or raise a unit, the units you leave off are",
    "%   disbanded (M12); if you do none of these, every unit is paid as far",
    "%   as your treasury goes, garrisons first (M50).",
    "% In this first spring you may raise at most 3 units (3, M48).",
    "% A raise line: replace its _ with a unit to raise, 3 ducats each, one a",
    "%   province at most (7.2), from these:",
    "% Raise: G are, G flo, G psa",  # Arezzo, Florence, Pisa hold its army or fleet; Pistoia has no city
    "% Trades (A.5) and forced taxation (A.6) are written as HELP syntax",
    "%   shows.",
    "SIGNON Florence@m1 _",
    "transfer _ to _",
    "_ A are",
    "_ A flo",
    "_ F psa",
    "raise _",
    "raise _",
    "raise _",
    "%% end of form",
]
CAMPAIGN_FORM = [  # Florence in SP1454C, its spring letter (`SPRING`) carried out: 15 - 4 x 3 = 3 ducats
    "%% form for SP1454C of m1, Florence",
    "% Replace each _ below with your choice and send the lines back. A line",
    "%   left as it is, like every line starting with %, is not read.",
    "% Treasury: 3 ducats.",
    "% Expenditures are carried out in phase D, each paid in full or not at",
    "%   all (8.1).",
    "% Prices: a bodyguard costs 3 ducats or more by threes, an assassination",
    "%   30 or more by threes (10); a counter-bribe 3 or more by threes (12);",
    "%   a rebellion 15, 9 or 3, a pacification 12 (11).",
    "% Rebellions, pacifications and permissions (allow) have no line here:",
    "%   HELP syntax shows how to write them.",
    "% A bribe line: the amount, then operate, disband, buy or independent,",
    "%   then the unit, each bribe at its minimum or more by threes (12).",
    "% Your units and home country reach these units, at these minimums:",
    "% Bribe A bol: independent 9, disband 12, buy 18",  # Papacy's, next to A flo
    "% Bribe G luc: operate 3, disband 6, buy 9",  # independent, next to F psa
    "% Bribe A per: independent 9, disband 12, buy 18",  # Papacy's, next to A are
    "% Bribe G pio: operate 3, disband 6, buy 9",  # independent, next to F psa
    "% Bribe G sie: operate 3, disband 6, buy 9",  # independent, next to A are, A flo and F psa
    "% Each unit's line: replace its _ with its order (9). An army or fleet",
    "%   may also support (S) an area it may advance into, for itself or a",
    "%   country (9.5). Your units may:",
    "% A are: H, - flo, - per, - sie, - urb, C G",  # Arezzo's fortified city is empty
    "% A flo: H, - are, - bol, - psa, - pst, - rma, - sie, - urb",  # its city holds G flo: no C G
    "% F psa: H, - egl, - ets, - luc, - pio, - wts, T, C G",  # Pisa's city: fortified, a port
    "% G flo: H, S flo, C A",  # Florence is no port: no C F; a garrison supports its own province alone
    "SIGNON Florence@m1 _",
    "transfer _ to _",
    "bodyguard _",
    "assassinate _ _",
    "bribe _ _ _",
    "counter-bribe _ _",
    "A are _",
    "A flo _",
    "F psa _",
    "G flo _",
    "%% end of form",
]


def address(country: str) -> str:
    return f"{PLAYERS[country]}@example.org"


def signon(country: str, game: str = "m1") -> str:
    return f"SIGNON {country}@{game} pw-{PLAYERS[country]}"


def _started(judge: Judge) -> None:
    judge.send(GM, "CREATE m1 gm-pw machiavelli")
    for country, name in PLAYERS.items():
        judge.send(address(country), f"JOIN m1 pw-{name} {country}")
    judge.send(GM, "SIGNON MASTER@m1 gm-pw\nSTART")
    judge.new_mail()


def _spring_played(judge: Judge) -> None:
    _started(judge)
    for country, lines in SPRING.items():
        judge.send(address(country), "\n".join((signon(country), *lines)))  # the last letter carries the spring out


@pytest.fixture
def judge(tmp_path: Path) -> Judge:
    return once(Judge(tmp_path), _started)


@pytest.fixture
def campaign(tmp_path: Path) -> Judge:
    return once(Judge(tmp_path), _spring_played)


def form_of(mail: Sent) -> list[str]:
    """The form block a mail ends with: from its opening line to its end line."""
    lines = mail.body.rstrip("\n").split("\n")
    opening = next(index for index, line in enumerate(lines) if line.startswith("%% form for"))
    assert lines[-1] == "%% end of form"
    return lines[opening:]


def mail_to(judge: Judge, country: str, subject: str) -> Sent:
    [mail] = [mail for mail in judge.all_mail() if mail.to == address(country) and mail.subject == subject]
    return mail


def letter(judge: Judge, phase: str, country: str = "Florence", game: str = "m1") -> list[str] | None:
    """The orders of ``country``'s letter standing in ``phase``, as kept (None: no letter)."""
    with judge.db.transaction() as session:
        row = session.scalars(select(Game).where(Game.name == game)).one()
        standing = lifecycle.letters_of(session, row, phase).get(country)
        return None if standing is None else list(standing.parsed["orders"])


def reply(mail: Sent, form: list[str]) -> str:
    """A reply signed on above ``form`` and quoting the whole ``mail`` below it, as a mail client quotes."""
    quoted = [f"> {line}" if line else ">" for line in mail.body.split("\n")]
    return "\n".join([signon("Florence"), *form, "", *quoted])


def test_the_start_mail_ends_with_the_spring_form_each_unit_to_pay_and_where_a_unit_may_be_raised(
        judge: Judge) -> None:
    form = form_of(mail_to(judge, "Florence", "m1 starts"))
    assert form == START_FORM
    assert all(len(line) <= 72 for line in form)


def test_a_results_mail_ends_with_the_campaign_form_its_prices_bribes_in_reach_and_units_orders(
        campaign: Judge) -> None:
    form = form_of(mail_to(campaign, "Florence", "m1 SP1454A results"))
    assert form == CAMPAIGN_FORM
    assert all(len(line) <= 72 for line in form)


def test_the_reminder_and_the_late_alert_end_with_the_same_form_and_a_letters_confirmation_with_none(
        judge: Judge) -> None:
    """The spring letter is due 72 hours after the start; the reminder comes 24 hours before, and at the
    deadline (SET SILENCE ON, an hour's grace) the late alert to Florence, which has not written, and the
    confirmation of Milan's letter (M59)."""
    judge.send(GM, "SIGNON MASTER@m1 gm-pw\nSET SILENCE ON\nSET GRACE 1")
    judge.send(address("Milan"), "\n".join((signon("Milan"), "pay A mil")))
    judge.later(48)
    judge.tick()
    judge.later(24)
    judge.tick()
    assert form_of(mail_to(judge, "Florence", "m1 SP1454A reminder")) == START_FORM  # the form as at the start
    assert form_of(mail_to(judge, "Florence", "m1 SP1454A late")) == START_FORM
    assert "%% form for" not in mail_to(judge, "Milan", "m1 SP1454A received").body


def test_a_reply_quoting_the_whole_mail_applies_the_filled_lines_and_answers_no_other(judge: Judge) -> None:
    mail = mail_to(judge, "Florence", "m1 starts")
    filled = {"_ A are": "pay A are", "_ A flo": "pay A flo", "_ F psa": "disband F psa"}
    form = [filled.get(line, line) for line in form_of(mail)]
    form[form.index("raise _")] = "raise G flo"  # one raise line of three
    judge.send(address("Florence"), reply(mail, form), subject="Re: m1 starts")
    written = ["pay A are", "pay A flo", "disband F psa", "raise G flo"]
    assert [judge.outcome_of(line) for line in written] == [("ok", "READ")] * 4
    assert {answer.text for answer in judge.answers} == {"SIGNON Florence@m1 ****", *written}
    assert letter(judge, "SP1454A") == written  # the transfer line and two raise lines, left as given: no order


def test_a_reply_to_the_campaign_form_applies_its_expenditure_and_order_lines_alone(campaign: Judge) -> None:
    mail = mail_to(campaign, "Florence", "m1 SP1454A results")
    filled = {"bodyguard _": "bodyguard 3", "A flo _": "A flo - pst", "F psa _": "F psa T"}
    form = [filled.get(line, line) for line in form_of(mail)]
    campaign.send(address("Florence"), reply(mail, form), subject="Re: m1 SP1454A results")
    assert {answer.text for answer in campaign.answers} == {"SIGNON Florence@m1 ****", *filled.values()}
    assert letter(campaign, "SP1454C") == ["bodyguard 3", "A flo - pst", "F psa T"]


def test_a_form_sent_back_untouched_applies_nothing_and_says_so(judge: Judge) -> None:
    judge.send(address("Florence"), "\n".join([signon("Florence"), *form_of(mail_to(judge, "Florence", "m1 starts"))]))
    assert {answer.text for answer in judge.answers} == {"SIGNON Florence@m1 ****"}
    assert letter(judge, "SP1454A") is None  # no letter: the defaults still stand (17.2, M50)
    assert "Your form for SP1454A of m1 came back as the judge sent it" in judge.last_to(address("Florence")).body


@pytest.mark.parametrize("blank", ["transfer 5 to _", "transfer _ to Milan", "raise _ flo", "disband _"])
def test_a_spring_line_with_its_blank_left_in_is_refused_and_not_applied(judge: Judge, blank: str) -> None:
    judge.send(address("Florence"), "\n".join([signon("Florence"), blank, "pay A flo"]))
    assert judge.outcome_of(blank)[0] == "error"
    assert letter(judge, "SP1454A") == ["pay A flo"]


@pytest.mark.parametrize("blank", ["bribe 9 _ G sie", "bribe 9 buy _", "assassinate Milan _", "A flo - _",
                                   "counter-bribe _ A flo", "F psa - _ - nap"])
def test_a_campaign_line_with_its_blank_left_in_is_refused_and_not_applied(campaign: Judge, blank: str) -> None:
    campaign.send(address("Florence"), "\n".join([signon("Florence"), blank, "bodyguard 3"]))
    assert campaign.outcome_of(blank)[0] == "error"
    assert letter(campaign, "SP1454C") == ["bodyguard 3"]


def test_the_form_shows_only_what_its_country_may_know(tmp_path: Path) -> None:
    """A transfer is secret but to its receiver (8.1): Florence's 2 ducats to Venice are in Venice's
    treasury, 15 + 2 - 4 x 3 = 5, and Florence's own, 15 - 2 - 12 = 1, in no other form; Milan's form
    names its own treasury, 15 - 3 x 3 = 6, and nothing of the others'."""
    judge = once(Judge(tmp_path), _started)
    for country, lines in SPRING.items():
        extra = ("transfer 2 to Venice",) if country == "Florence" else ()
        judge.send(address(country), "\n".join((signon(country), *extra, *lines)))
    forms_of = {country: "\n".join(form_of(mail_to(judge, country, "m1 SP1454A results"))) for country in PLAYERS}
    assert [text.count("Treasury:") for text in forms_of.values()] == [1, 1, 1]
    assert "% Treasury: 1 ducat." in forms_of["Florence"]
    assert "% Treasury: 6 ducats." in forms_of["Milan"]
    assert "% Treasury: 5 ducats." in forms_of["Venice"]
    assert all("transfer 2" not in text for text in forms_of.values())


def test_a_form_is_drawn_from_the_public_board_and_its_own_treasury_alone() -> None:
    """Milan's form is the same whatever the other countries' treasuries (secret, 8.1): it lists its
    own units' lines only, and every unit it names stands on the public board."""
    board = load_board("classic")
    start = board.start
    others = replace(start, treasuries={**start.treasuries, "Florence": 40, "Venice": 0})
    assert views.form_parts(board, others, "Milan") == views.form_parts(board, start, "Milan")
    _, lines = views.form_parts(board, start, "Milan")
    assert [line for line in lines if line.startswith("_ ")] == ["_ A cre", "_ A mil", "_ A pav"]


@pytest.mark.parametrize("scenario", ["classic", "aop"])
@pytest.mark.parametrize("phase", [Phase.A, Phase.C])
def test_every_line_of_a_form_left_as_it_is_is_refused_by_the_letters_reader(scenario: str, phase: Phase) -> None:
    """Each country's form at its scenario's start, for a spring and a campaign letter: no line as the
    form gives it reads as an order (the host drops them before reading; were one to reach the reader,
    it would be refused, never carried out)."""
    board = load_board(scenario)
    position = replace(board.start, phase=phase)
    for country in board.powers:
        _, lines = views.form_parts(board, position, country)
        assert lines
        for line in lines:
            command = handlers.read(line)
            if isinstance(command, handlers.LetterLine):
                orders, problems = parse_letter(line, board)
                assert not orders and problems, line
            else:
                assert isinstance(command, Unknown), line  # "_ A flo": no order begins so


def test_a_country_taken_over_is_briefed_with_its_form(tmp_path: Path) -> None:
    """Naples, a dummy, paid its four units by default in the spring (15 - 4 x 3 = 3 ducats, M50): its
    new player's briefing ends with its campaign form, its own money and units, nothing of Florence's."""
    judge = Judge(tmp_path)
    judge.send(GM, "CREATE k1 gm-pw machiavelli")
    judge.send(address("Florence"), "JOIN k1 pw-ann Florence")
    judge.send(GM, "SIGNON MASTER@k1 gm-pw\nSTART")
    judge.send(address("Florence"), "\n".join((signon("Florence", "k1"), "transfer 2 to Milan", "pay A flo")))
    judge.send(GM, "SIGNON MASTER@k1 gm-pw\nSET OPENING Naples")
    judge.send("dee@example.org", "TAKEOVER Naples@k1 pw-dee")
    [briefing] = [mail for mail in judge.all_mail() if mail.subject == "k1: your briefing as Naples"]
    form = form_of(briefing)
    assert form[0] == "%% form for SP1454C of k1, Naples"
    assert "% Treasury: 3 ducats." in form
    assert [line for line in form if line.endswith(" _") and line[:2] in ("A ", "F ")] == [
        "A bar _", "A mes _", "F nap _", "F pal _"]
    assert "Florence" not in "\n".join(form)  # no Florence unit is next to Naples's, nor is its money told


def test_a_country_of_several_words_signs_on_in_its_form_as_one_word(tmp_path: Path) -> None:
    """AoP's Holy Roman Empire (its 1459 start: Steiermark, Tirol, Trieste) signs on as
    Holy-Roman-Empire: its form's sign-on line, filled in, signs on, and the lines filled are its letter."""
    judge = Judge(tmp_path)
    judge.send(GM, "CREATE a1 gm-pw machiavelli aop")
    judge.send("hre@example.org", "JOIN a1 pw-hre Holy-Roman-Empire")
    judge.send(GM, "SIGNON MASTER@a1 gm-pw\nSTART")
    form = form_of(next(mail for mail in judge.all_mail() if mail.to == "hre@example.org"
                        and mail.subject == "a1 starts"))
    assert form[0] == "%% form for SP1459A of a1, Holy Roman Empire"
    assert "SIGNON Holy-Roman-Empire@a1 _" in form and forms.unfilled_signon("SIGNON Holy-Roman-Empire@a1 _")
    filled = [line.replace("@a1 _", "@a1 pw-hre") for line in form]
    filled[filled.index("raise _")] = "raise A tir"
    judge.send("hre@example.org", "\n".join(filled))
    assert judge.outcome_of("raise A tir") == ("ok", "READ")
    assert letter(judge, "SP1459A", "Holy Roman Empire", "a1") == ["raise A tir"]
