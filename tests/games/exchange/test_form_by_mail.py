"""The form to fill by mail: each mail that opens a phase for an investor ends with their form (their cash
and shares, a BID and an ELECT line a corporation, the block of each corporation they run), and a reply
to it is read as if only the investor's own lines were written, in the worked year of the Exchange
rulings (section 3: ANN, BOB and CAT with 60 AgP each, in that investor order; BOB becomes France's CEO
and CAT Germany's)."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import select

from judge.engine.map import Location
from judge.engine.orders import Unit, UnitType
from judge.engine.position import Dislodgement, Phase, PlacedUnit, Position
from judge.games.exchange import stored
from judge.games.exchange.core.state import ExchangeState, Stage
from judge.games.exchange.form import form_parts
from judge.games.exchange.reading import read_mail, routed
from judge.games.exchange.sheets import Assembled, assemble, problems
from judge.payola.acceptance import AcceptanceError, parse_acceptance
from judge.store.models import Game
from tests.games.exchange.by_mail import address, exchange_game, mails_to, send_as, states
from tests.games.exchange.game import STANDARD, game
from tests.support.harness import Judge, Sent

GAME = "bourse"
START_FORM = [  # every corporation of the standard board leaderless, its 10 shares in its pool (E7, E9)
    "%% form for W1900X of bourse, ANN",
    "% Replace each _ below with your choice and send the lines back. A line",
    "%   left as it is, like every line starting with %, is not read.",
    "% Your cash: 60 AgP. Your shares: none.",
    "% In the pools: Austria 10, England 10, France 10, Germany 10, Italy 10,",
    "%   Russia 10, Turkey 10.",
    "% Every corporation is leaderless.",
    "% A leaderless corporation offers its whole pool at 1 AgP a share, one",
    "%   with a CEO what its CEO asks (E9). On a BID or SELL line, replace",
    "%   the first _ with a number of shares and the second with the price of",
    "%   one.",
    "% PRIORITY: the AgP you spend on the investor order (E30). ELECT: the",
    "%   investor you vote for as the corporation's CEO, or ME, or NONE",
    "%   (E14). To send nothing else, write PASS.",
    "SIGNON ANN@bourse _",
    "PRIORITY _",
    *(f"BID _ {c} AT _" for c in ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")),
    *(f"ELECT {c} _" for c in ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")),
    "%% end of form",
]
FRANCE_BLOCK = ["FOR FRANCE", "_ : A MAR H", "_ : A PAR H", "_ : F BRE H", "WORTH BRE _ MAR _ PAR _", "ACCEPT _",
                "_ $", "END"]
"""France's block in Spring 1901: an offer line a unit, its three home centers' worths (E22), its list, its savings."""
FRANCE_ORDERS = [  # hand-worked from the standard board: France's units in spring 1901 and where each may go
    "% A MAR: H, - BUR, - GAS, - PIE, - SPA, S F BRE - GAS, S A MUN - BUR",
    "% A PAR: H, - BRE, - BUR, - GAS, - PIC, S F BRE, S F BRE - GAS",
    "% F BRE: H, - ENG, - GAS, - MAO, - PIC, S F LON - ENG, S A MAR - GAS",
]


def floated(judge: Judge) -> Judge:
    """The worked year's Exchange phase of Winter 1900 (3.2): after it, in the investor order CAT, BOB,
    ANN, CAT holds France 3 and Germany 4 (23 AgP left), BOB 5 and 5 (13 AgP), ANN 2 and 1 (47 AgP);
    France's pool sold for 3 x 6 + 5 x 5 + 2 x 5 = 53 AgP; BOB is elected France's CEO, CAT Germany's."""
    send_as(judge, GAME, "ANN", "BID 6 FRANCE AT 5", "BID 2 GERMANY AT 3", "ELECT FRANCE ME", "ELECT GERMANY CAT")
    send_as(judge, GAME, "BOB", "PRIORITY 2", "BID 5 FRANCE AT 5", "BID 5 GERMANY AT 4", "ELECT FRANCE ME",
            "ELECT GERMANY ME")
    send_as(judge, GAME, "CAT", "PRIORITY 3", "BID 4 GERMANY AT 4", "BID 3 FRANCE AT 6", "ELECT GERMANY ME",
            "ELECT FRANCE ME")
    return judge


@pytest.fixture
def judge(tmp_path: Path) -> Judge:
    return exchange_game(Judge(tmp_path), GAME, order=("ANN", "BOB", "CAT"))


@pytest.fixture(scope="module")
def year(tmp_path_factory: pytest.TempPathFactory) -> Judge:
    """The worked year played to the Exchange phase of Winter 1901 (3.2-3.5), each phase closing as its
    sheets come."""
    judge = floated(exchange_game(Judge(Path(tmp_path_factory.mktemp("judge"))), GAME, order=("ANN", "BOB", "CAT")))
    send_as(judge, GAME, "ANN", "2 : A MUN - RUH")
    send_as(judge, GAME, "BOB", "FOR FRANCE", "WORTH PAR 24 MAR 14 BRE 10", "0 : A PAR - PIC", "0 : A MAR - SPA",
            "0 : F BRE - MAO", "END")
    send_as(judge, GAME, "CAT", "FOR GERMANY", "0 : F KIE - HOL", "0 : A BER - KIE", "3 : A MUN - BUR", "END")
    send_as(judge, GAME, "ANN", "4 : A SPA - MAR")
    send_as(judge, GAME, "BOB", "FOR FRANCE", "0 : A PIC - BEL", "0 : A SPA H", "0 : F MAO - POR", "END")
    send_as(judge, GAME, "CAT", "FOR GERMANY", "5 : A BUR - MAR", "0 : F HOL H", "0 : A KIE - DEN", "5 : A SPA H",
            "END")
    send_as(judge, GAME, "BOB", "FOR FRANCE", "BUILD A PAR", "BUILD F BRE", "END")
    send_as(judge, GAME, "CAT", "FOR GERMANY", "BUILD A BER", "BUILD F KIE", "BUILD A MUN", "END")
    return judge


def form_of(mail: Sent) -> list[str]:
    """The form block a mail ends with: from its opening line to its end line."""
    lines = mail.body.rstrip("\n").split("\n")
    opening = next(index for index, line in enumerate(lines) if line.startswith("%% form for"))
    assert lines[-1] == "%% end of form"
    return lines[opening:]


def lines_of(form: list[str]) -> list[str]:
    """A form's lines to fill: neither its notes nor its markers nor its sign-on line."""
    return [line for line in form if not line.startswith(("%", "SIGNON "))]


def sheet(judge: Judge, name: str, phase: str) -> stored.Parts | None:
    """``name``'s sheet standing in ``phase``."""
    with judge.db.transaction() as session:
        found = session.scalars(select(Game).where(Game.name == GAME)).one()
        return stored.sheets(session, found, phase).get(name)


def reply(judge: Judge, name: str, mail: Sent, filled: dict[str, str]) -> None:
    """``name`` answers ``mail`` as a mail client does: the form's lines with ``filled`` ones replaced, then
    the whole mail quoted."""
    form = [filled.get(line, line) for line in form_of(mail)]
    quoted = [f"> {line}" if line else ">" for line in mail.body.split("\n")]
    judge.send(address(name), "\n".join([f"SIGNON {name}@{GAME} pw-{name.lower()}", *form, "", *quoted]),
               subject=f"Re: {mail.subject}")


def test_the_start_mail_ends_with_a_bid_and_an_elect_line_for_every_corporation(judge: Judge) -> None:
    form = form_of(mails_to(judge, "ANN", f"{GAME} starts"))
    assert form == START_FORM
    assert all(len(line) <= 72 for line in form)


def test_a_results_mail_ends_with_the_next_phases_form_and_the_block_of_each_corporation_run(year: Judge) -> None:
    bob = form_of(mails_to(year, "BOB", f"{GAME} W1900X results"))
    assert bob[0] == "%% form for S1901M of bourse, BOB"
    assert lines_of(bob) == ["_ : _", *FRANCE_BLOCK]
    assert "% Your cash: 13 AgP. Your own offers are optional, at least 1 AgP each" in bob
    assert "% France, which you run: treasury 53 AgP, acceptance list F?. Each line" in bob
    assert all(line in bob for line in FRANCE_ORDERS)
    assert "%   the center's worth, adding up to 48 AgP, or leave the line as it is" in bob  # I(3) = 48 (E22)
    ann = form_of(mails_to(year, "ANN", f"{GAME} W1900X results"))
    assert lines_of(ann) == ["_ : _"]  # no corporation to run: her own offers only
    fall = form_of(mails_to(year, "BOB", f"{GAME} S1901M results"))
    assert "WORTH" not in "\n".join(lines_of(fall))  # worths are set in Spring (E22)


def test_an_adjustment_form_lists_the_builds_and_the_exchange_form_the_ceos_block(year: Judge) -> None:
    """W1901A: France owns 5 centers for 3 units and may build in BRE and PAR (MAR is Germany's); at the
    Exchange phase of Winter 1901, France's treasury is 129 AgP for 10 shares: a dividend of at most 12."""
    bob = form_of(mails_to(year, "BOB", f"{GAME} F1901M results"))
    assert lines_of(bob) == ["FOR FRANCE", "BUILD _", "BUILD _", "END"]
    assert "% Builds: A BRE, F BRE, A PAR" in bob
    cat = form_of(mails_to(year, "CAT", f"{GAME} F1901M results"))
    assert lines_of(cat) == ["FOR GERMANY", "BUILD _", "BUILD _", "BUILD _", "END"]
    assert "%% form for" not in mails_to(year, "ANN", f"{GAME} F1901M results").body  # nothing for her to send
    exchange = form_of(mails_to(year, "BOB", f"{GAME} W1901A results"))
    assert "% Your cash: 13 AgP. Your shares: France 5, Germany 5." in exchange
    assert "% CEOs: France BOB, Germany CAT; the others are leaderless." in exchange
    assert "% France, which you run: treasury 129 AgP, 10 shares issued, 0 in its" in exchange
    assert "%   pool. Its dividend is at most 12 AgP a share (E23). In its block," in exchange
    assert lines_of(exchange)[-15:] == ["SELL _ FRANCE AT _", "SELL _ GERMANY AT _",
                                        *(f"ELECT {c} _" for c in ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY",
                                                                    "RUSSIA", "TURKEY")),
                                        "FOR FRANCE", "DIVIDEND _", "SELL _ AT _", "ISSUE _ AT _", "BID _ AT _", "END"]


def test_a_retreat_form_lists_each_dislodged_units_retreats() -> None:
    """A BEL dislodged from HOL, a standoff in PIC, RUH held: it may retreat to BUR only, or disband."""
    position = Position.build(STANDARD, Phase.parse("S1901R"), [PlacedUnit("GERMANY", Unit(UnitType.ARMY,
                                                                                           Location("RUH")))],
                              {}, [Dislodgement("FRANCE", Unit(UnitType.ARMY, Location("BEL")), "HOL")], ["PIC"])
    state = game().evolve(position=position, stage=Stage.BOARD, ceos={"FRANCE": "BOB"})
    assert form_parts(state, "BOB") == (
        ["France's dislodged units: replace the _ of each one's line with its retreat, or with D to disband it.",
         "A BEL: - BUR, D"], ["FOR FRANCE", "A BEL _", "END"])
    assert form_parts(state, "ANN") is None  # she runs nothing: nothing to send
    assert not problems(_mail(state, "BOB", "FOR FRANCE", "A BEL - BUR"), state, "BOB")


def _mail(state: ExchangeState, author: str, *lines: str) -> Assembled:
    """``lines`` as one mail's sheet, read and put together as the kind does."""
    return assemble(read_mail(list(enumerate(lines)), state.game_map, author).lines, author)


def test_every_form_line_left_as_given_is_refused_by_the_kinds_reader(year: Judge) -> None:
    """Were the host not to drop them, each line with its _ would be no choice: an unknown command (an
    offer's amount left blank) or a sheet refused (ruling 8), in every phase type."""
    after = dict(states(year, GAME))  # the state each phase left: the one the next opened with
    checked = 0
    for phase in ("W1900X", "S1901M", "F1901M", "W1901A"):  # opening S1901M, F1901M, W1901A and W1901X
        state = after[phase]
        parts = form_parts(state, "BOB")
        assert parts is not None
        block = None
        for line in parts[1]:
            if line.startswith("FOR "):
                block = line
            elif line == "END":
                block = None
            elif line.startswith("ACCEPT "):  # an acceptance list acts when it comes, read by Payola's reader
                with pytest.raises(AcceptanceError):
                    parse_acceptance(line, state.game_map.letters)
                checked += 1
            else:
                written = [block, line] if block else [line]
                assert not routed(line) or problems(_mail(state, "BOB", *written), state, "BOB"), (phase, line)
                checked += 1
    assert checked == (1 + 3 + 3) + (1 + 3 + 2) + 2 + (1 + 7 + 2 + 7 + 4)  # S1901M, F1901M, W1901A, W1901X


def test_a_reply_quoting_the_whole_mail_applies_exactly_the_lines_filled(judge: Judge) -> None:
    reply(judge, "ANN", mails_to(judge, "ANN", f"{GAME} starts"),
          {"BID _ FRANCE AT _": "BID 6 FRANCE AT 5", "ELECT FRANCE _": "ELECT FRANCE ME"})
    assert judge.outcome_of("BID 6 FRANCE AT 5")[0] == "ok"
    kept = sheet(judge, "ANN", "W1900X")
    assert kept is not None and kept.own == ["BID 6 FRANCE AT 5", "ELECT FRANCE ME"] and not kept.blocks
    assert {answer.text for answer in judge.answers} == {"SIGNON ANN@bourse ****", "BID 6 FRANCE AT 5",
                                                         "ELECT FRANCE ME"}


def test_a_ceos_filled_block_is_read_as_the_corporations_and_the_rest_left_out(judge: Judge) -> None:
    floated(judge)
    reply(judge, "BOB", mails_to(judge, "BOB", f"{GAME} W1900X results"),
          {"_ : A PAR H": "0 : A PAR - PIC", "WORTH BRE _ MAR _ PAR _": "WORTH BRE 10 MAR 14 PAR 24"})
    assert judge.outcome_of("0 : A PAR - PIC")[0] == "ok"
    kept = sheet(judge, "BOB", "S1901M")
    assert kept is not None and not kept.own
    assert kept.blocks == {"FRANCE": ["0 : A PAR - PIC", "WORTH BRE 10 MAR 14 PAR 24"]}


def test_an_untouched_form_applies_nothing_and_says_so(judge: Judge) -> None:
    reply(judge, "ANN", mails_to(judge, "ANN", f"{GAME} starts"), {})
    assert {answer.text for answer in judge.answers} == {"SIGNON ANN@bourse ****"}
    assert sheet(judge, "ANN", "W1900X") is None
    assert "Your form for W1900X of bourse came back as the judge sent it" in judge.last_to(address("ANN")).body
    floated(judge)
    reply(judge, "BOB", mails_to(judge, "BOB", f"{GAME} W1900X results"), {})  # its FOR and END read, nothing else
    assert sheet(judge, "BOB", "S1901M") is None
    assert "Your form for S1901M of bourse came back as the judge sent it" in judge.last_to(address("BOB")).body


def test_a_line_with_its_blank_left_in_is_not_applied(judge: Judge) -> None:
    reply(judge, "ANN", mails_to(judge, "ANN", f"{GAME} starts"),
          {"BID _ FRANCE AT _": "BID 6 FRANCE AT _", "ELECT FRANCE _": "ELECT FRANCE ME"})
    assert judge.outcome_of("BID 6 FRANCE AT _") == ("error", "SYNTAX")
    assert judge.outcome_of("ELECT FRANCE ME") == ("ignored", "SHEET_REFUSED")  # a sheet is taken whole (ruling 8)
    assert sheet(judge, "ANN", "W1900X") is None


def test_a_form_shows_the_investors_own_money_and_only_the_treasury_of_what_they_run(year: Judge) -> None:
    """E40: no other investor's balance or holdings, no treasury but their own corporation's."""
    mails = {name: "\n".join(form_of(mails_to(year, name, f"{GAME} W1900X results"))) for name in ("ANN", "BOB", "CAT")}
    assert "cash: 47 AgP" in mails["ANN"] and "treasury" not in mails["ANN"]
    assert "13 AgP" not in mails["ANN"] and "23 AgP" not in mails["ANN"]  # BOB's and CAT's balances
    assert "France, which you run: treasury 53 AgP" in mails["BOB"] and "Germany" not in mails["BOB"]
    assert "Germany, which you run: treasury" in mails["CAT"] and "France" not in mails["CAT"]
    exchange = "\n".join(form_of(mails_to(year, "CAT", f"{GAME} W1901A results")))
    assert "Your shares: France 3, Germany 4." in exchange and "France, which you run" not in exchange
    assert "SELL _ FRANCE AT _" in exchange and "FOR FRANCE" not in exchange
