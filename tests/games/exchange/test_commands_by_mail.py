"""Exchange Payola's commands by mail through the game service: CREATE and JOIN (E1, E4, E7, the
Payola options), sheets taken whole or refused whole with every bad line's reason (ruling 8,
E29), the parts of a sheet (2.1), what acts at once (E5, E24, rule 4.3), whom the phases wait
for (E20, E29), reminders, and HELP."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from judge.web.pages import publish
from tests.games.exchange.by_mail import (
    GM,
    address,
    exchange_game,
    game_row,
    mails_to,
    master,
    section,
    send_as,
    states,
)
from tests.support.harness import Judge, Sent


def answers(reply: Sent) -> dict[str, list[str]]:
    """Each quoted line of a reply and the lines under it, by the line's text."""
    found: dict[str, list[str]] = {}
    current: list[str] = []
    for line in reply.body.splitlines():
        if line.startswith("> "):
            current = found.setdefault(line[2:], [])
        elif line.startswith("  "):
            current.append(line.strip())
    return found


@pytest.fixture(scope="module")
def judge(tmp_path_factory: pytest.TempPathFactory) -> Judge:
    return Judge(Path(tmp_path_factory.mktemp("judge")), max_creates_per_day=50, max_creates_per_hour=50)


def with_ceos(judge: Judge, game: str) -> Judge:
    """Game ``game`` past its first Exchange phase: BOB France's CEO, CAT Germany's, ANN holding
    nothing (she passed), each investor's money 60 less 20 for BOB and CAT; S1901M open."""
    exchange_game(judge, game)
    send_as(judge, game, "BOB", "BID 10 FRANCE AT 2", "ELECT FRANCE ME")
    send_as(judge, game, "CAT", "BID 10 GERMANY AT 2", "ELECT GERMANY ME")
    send_as(judge, game, "ANN", "PASS")
    assert game_row(judge, game) == ("active", "S1901M")
    return judge


def test_E1_E4_E7_create_keeps_every_option_and_refuses_what_exchange_does_not_play(judge: Judge) -> None:
    """CREATE writes the defaults out (one investor per power, E1; 10 shares, E7; the standard
    start's 350 AgP shared out, E4), plays EBAYOLA and the income schemes, and refuses BLIND,
    CLASSIC and ZEROSUM with the core's reason."""
    judge.confirmed(GM)
    judge.send(GM, "CREATE opts gm-pw exchange\nCREATE opts2 gm-pw exchange modern INVESTORS=4 EBAYOLA "
                   "INCOME=DECREASING\nCREATE opts3 gm-pw exchange BLIND\nCREATE opts4 gm-pw exchange ZEROSUM\n"
                   "CREATE opts5 gm-pw exchange INVESTORS=1")
    said = answers(judge.last_to(GM))
    judge.send(GM, "LIST opts\nLIST opts2")
    listed = judge.last_to(GM).body
    assert "options: INVESTORS=7 SHARES=10 FUNDS=50" in listed
    assert "options: INVESTORS=4 SHARES=10 FUNDS=" in listed and "EBAYOLA" in listed
    assert said["CREATE opts3 **** exchange BLIND"][0].startswith(
        "ERROR: Exchange Payola does not play BLIND: an investor owns no units to see with")
    assert said["CREATE opts4 **** exchange ZEROSUM"][0].startswith("ERROR: Exchange Payola does not play ZEROSUM")
    assert said["CREATE opts5 **** exchange INVESTORS=1"][0].startswith(
        "ERROR: an Exchange game needs at least 2 investors (E1)")


def test_E1_an_investor_joins_under_a_name_no_power_or_word_of_the_sheets_takes(judge: Judge) -> None:
    judge.confirmed(GM, "ann@example.org", "bob@example.org")
    judge.send(GM, "CREATE names gm-pw exchange INVESTORS=2")
    judge.send("ann@example.org", "JOIN names pw-ann F\nJOIN names pw-ann FRANCE\nJOIN names pw-ann ME\n"
                                  "JOIN names pw-ann Al-x\nJOIN names pw-ann\nJOIN names pw-ann Ann")  # good one last
    said = answers(judge.last_to("ann@example.org"))
    assert said["JOIN names **** Ann"][0] == ("OK: you joined 'names' as the investor ANN; the investor order is drawn "
                                             "when the game starts (SIGNON ANN@names password)")
    assert "a power of the map has this name or initial (E1)" in said["JOIN names **** F"][0]
    assert "a power of the map has this name or initial (E1)" in said["JOIN names **** FRANCE"][0]
    assert "this word has a meaning in the sheets (E1)" in said["JOIN names **** ME"][0]
    assert "a name is letters and digits (E1)" in said["JOIN names **** Al-x"][0]
    assert "joins under a name" in said["JOIN names ****"][0]
    judge.send("bob@example.org", "JOIN names pw-bob ann")
    assert "another investor has this name (E1)" in judge.last_to("bob@example.org").body


def test_R8_E29_a_bad_line_refuses_the_whole_sheet_and_the_last_good_one_is_what_the_phase_uses(
        judge: Judge) -> None:
    """Ruling 8, E29: each bad line is answered with its reason, the good ones are not applied,
    and the sheet that stood before stands: it is the one the Exchange phase acts on."""
    exchange_game(judge, "whole", order=("ANN", "BOB", "CAT"))
    first = answers(send_as(judge, "whole", "ANN", "BID 2 FRANCE AT 3", "ELECT FRANCE ME"))
    assert first["BID 2 FRANCE AT 3"][0] == "OK: read as: a bid for up to 2 France at 3 AgP each (E8, E13)"
    assert first["ELECT FRANCE ME"][1].startswith("sheet accepted for W1900X")
    second = answers(send_as(judge, "whole", "ANN", "PRIORITY 5", "BID 2 FRANCE AT 0", "ELECT ZZ ME",
                             "FOR FRANCE", "DIVIDEND 1", "END"))
    assert second["BID 2 FRANCE AT 0"] == ["ERROR: a price is at least 1 AgP (E8)"]
    assert second["ELECT ZZ ME"] == ["ERROR: 'ZZ' is not a corporation of this board (a power's name or initial)"]
    assert second["FOR FRANCE"] == ["ERROR: only the corporation's CEO may write for it (2.1, E21, E24)"]
    assert second["DIVIDEND 1"][0].startswith("ERROR: in a block refused whole: only the corporation's CEO")
    assert second["PRIORITY 5"] == ["IGNORED: not applied: the sheet has a bad line, and a sheet is taken whole or "
                                    "not at all (ruling 8, E29)"]
    assert "sheet REFUSED (4 bad lines); your sheet for W1900X stands as before (your own lines (2))" in (
        second["DIVIDEND 1"])
    master(judge, "whole", "PROCESS")
    statement = section(mails_to(judge, "ANN", "whole W1900X results"), "Your statement (E39)")
    assert statement[:3] == ["balance when the phase was processed: 60 AgP",
                             "-6 AgP  2 France bought in the auction (E8)", "balance now: 54 AgP"]


def test_E29_WAIT_holds_the_exchange_phase_and_NOWAIT_lets_it_close_once_every_sheet_came(judge: Judge) -> None:
    exchange_game(judge, "held")
    send_as(judge, "held", "ANN", "WAIT", "PASS")
    send_as(judge, "held", "BOB", "PASS")
    send_as(judge, "held", "CAT", "PASS")
    assert game_row(judge, "held") == ("active", "W1900X")
    send_as(judge, "held", "ANN", "NOWAIT")
    assert game_row(judge, "held") == ("active", "S1901M")


def test_21_E20_E22_E24_E5_a_ceos_blocks_part_by_part_worths_records_and_transfers(judge: Judge) -> None:
    """In Spring: a CEO's block with a worth list that does not add up to I(n) is refused with E22's
    reason; a later sheet replaces the one standing part by part (2.1); LEDGER answers the CEO
    alone (E24, E40); a TRANSFER acts at once, the receiver told (E5), and never from a block
    (E21); the phase closes once both CEOs have sent their blocks, waiting for no investor's own
    offers (E20)."""
    with_ceos(judge, "ceos")
    judge.new_mail()
    bad = answers(send_as(judge, "ceos", "BOB", "FOR FRANCE", "WORTH PAR 20 MAR 14 BRE 10", "0 : A PAR - PIC", "END"))
    assert bad["WORTH PAR 20 MAR 14 BRE 10"] == [
        "ERROR: the worths must add up to exactly I(n) for the n centers owned (E22)"]
    good = answers(send_as(judge, "ceos", "BOB", "1 : A MUN - RUH", "FOR FRANCE", "WORTH PAR 24 MAR 14 BRE 10",
                           "0 : A PAR - PIC", "TRANSFER 5 TO CAT", "END", "TRANSFER 5 TO CAT", "LEDGER FRANCE"))
    assert good["0 : A PAR - PIC"][0] == "OK: read as: a direct offer for A PAR - PIC, 0 AgP in all"
    assert good["TRANSFER 5 TO CAT"][0].startswith("ERROR: a corporation never transfers money")
    assert good["TRANSFER 5 TO CAT"][1] == "OK: 5 AgP sent to CAT; your balance is 35 AgP"
    assert "France's ledger since the start of the game (E24):" in good["LEDGER FRANCE"]
    assert "sheet accepted for S1901M; your sheet now: your own lines (1), FOR FRANCE (2) (a later sheet replaces it " \
           "part by part, 2.1)" in good["0 : A PAR - PIC"]
    own = answers(send_as(judge, "ceos", "BOB", "2 : A MUN - RUH"))
    assert "your sheet now: your own lines (1), FOR FRANCE (2)" in own["2 : A MUN - RUH"][1]
    told = judge.last_to(address("CAT"))
    assert told.subject == "ceos transfer received" and "BOB transferred 5 AgP to you" in told.body
    refused = answers(send_as(judge, "ceos", "ANN", "LEDGER FRANCE", "FOR FRANCE", "0 : A PAR - BUR", "END"))
    assert refused["LEDGER FRANCE"] == ["ERROR: only France's CEO may see its records (E24, E38, E40)"]
    assert refused["FOR FRANCE"] == ["ERROR: only the corporation's CEO may write for it (2.1, E21, E24)"]
    assert game_row(judge, "ceos") == ("active", "S1901M")
    send_as(judge, "ceos", "CAT", "FOR GERMANY", "0 : A MUN H", "END")
    assert game_row(judge, "ceos") == ("active", "F1901M")
    offers = section(mails_to(judge, "BOB", "ceos S1901M results"), "Your private offers")
    assert offers == ["you paid 2 AgP for A MUN - RUH", "spent: 2 AgP; your balance: 33 AgP"]
    assert dict(states(judge, "ceos"))["S1901M"].worths["FRANCE"] == {"PAR": 24, "MAR": 14, "BRE": 10}


def test_E20_reminders_go_to_each_ceo_still_owing_a_block_alone(judge: Judge) -> None:
    """E20: in a movement phase the judge waits for the CEOs' blocks, so the reminder goes to the
    CEO who has not sent one, and to nobody else (ANN owes nothing: E20, private sheets)."""
    with_ceos(judge, "remind")
    send_as(judge, "remind", "BOB", "FOR FRANCE", "0 : A PAR - PIC", "END")
    judge.new_mail()
    judge.later(30)  # the reminder comes 24 hours before the 48-hour deadline
    judge.process("remind")
    reminders = [m for m in judge.new_mail() if m.subject == "remind S1901M reminder"]
    assert [m.to for m in reminders] == [address("CAT")]
    assert "the offer sheet of Germany, as its CEO" in reminders[0].body and "BOB" not in reminders[0].body


def test_help_tells_exchange_payolas_commands(judge: Judge) -> None:
    judge.send("someone@example.org", "HELP")
    body = judge.last_to("someone@example.org").body
    assert "=== Exchange Payola (CREATE game password exchange [board] [INVESTORS=n] [SHARES=n] [FUNDS=n]) ===" in body
    for command in ("PRIORITY n", "BID n X AT p", "SELL n X TO name FOR a", "BUY n X FROM name FOR a",
                    "GIVE n X TO name", "APPROVE X m", "ELECT X name", "PASS", "DIVIDEND k", "ISSUE n AT p",
                    "LEDGER X", "WORTH c w"):
        assert command in body, command


def test_E34_votes_are_secret_end_the_game_when_all_agree_and_a_seats_new_player_has_none(judge: Judge) -> None:
    """E34: a vote is answered to its voter alone; BOB's vote for a draw is withdrawn when the game
    master gives BOB to a new player (the vote was the old player's); once every investor votes
    the same draw the game ends and everything is published (E41)."""
    exchange_game(judge, "votes")
    judge.new_mail()
    assert "OK: your vote, kept secret: for a draw" in send_as(judge, "votes", "BOB", "VOTE DRAW").body
    assert [m.to for m in judge.new_mail()] == [address("BOB")]
    master(judge, "votes", "REPLACE BOB dan@example.org")
    token = re.search(r"CONFIRM (\S+) yourpassword", judge.last_to("dan@example.org").body)
    assert token is not None
    judge.send("dan@example.org", f"CONFIRM {token.group(1)} dan-pw")
    send_as(judge, "votes", "ANN", "VOTE DRAW")
    send_as(judge, "votes", "CAT", "VOTE DRAW")
    assert game_row(judge, "votes")[0] == "active"  # BOB's new player has not voted
    judge.send("dan@example.org", "SIGNON BOB@votes dan-pw\nVOTE DRAW")
    assert game_row(judge, "votes")[0] == "finished"
    end = judge.last_to(address("ANN"))
    assert end.subject == "votes has ended" and "Everything that was secret is now published (E41)" in end.body


def test_E36_E40_the_games_page_shows_what_everyone_is_sent_and_no_investors_money(judge: Judge) -> None:
    """The public page of a running game: its investors, the investor order, each corporation's CEO
    and shares and each phase's public results (E36); no purse, holding, bid or treasury (E40)."""
    with_ceos(judge, "page")
    page = publish(judge.db, judge.settings, "page", force=True).read_text("utf-8")
    assert "<li>ANN: played</li>" in page and re.search(r"investor order \(E30\): [A-Z]+, [A-Z]+, [A-Z]+\n", page)
    assert "France: CEO BOB; 10 shares issued, 10 held by investors, 0 in its pool" in page
    assert "<h2 id=\"phase-W1900X\">W1900X</h2>" in page
    assert "AgP" not in page and "BID" not in page and "treasury" not in page.replace("treasury, worths", "")
