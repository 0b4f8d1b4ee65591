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
    WORKED,
    address,
    exchange_game,
    game_row,
    mails_to,
    master,
    section,
    send_as,
    states,
    votes,
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
    start's 350 AgP shared out, E4), plays EBAYOLA, ZEROSUM (its funds 10 AgP a home center, 6.7.1)
    and the income schemes, and refuses each Payola option it does not play with the core's reason."""
    judge.confirmed(GM)
    refused = {"BLIND": "an investor owns no units to see with", "TINCUP": "an investor owns no units to see with",
               "CLASSIC": "zero offers to foreign units are allowed in Payola Classic",
               "LOYAL_UNITS": "nobody owns a power's units", "INCOME_TWICE": "income is paid once",
               "ZEROSUM INCOME=FIXED:7": "ZEROSUM pays no income (6.7)"}
    judge.send(GM, "CREATE opts gm-pw exchange\nCREATE opts2 gm-pw exchange modern INVESTORS=4 EBAYOLA "
                   "INCOME=DECREASING\nCREATE opts4 gm-pw exchange ZEROSUM\nCREATE opts5 gm-pw exchange INVESTORS=1\n"
                   + "\n".join(f"CREATE no{i} gm-pw exchange {word}" for i, word in enumerate(refused)))
    said = answers(judge.last_to(GM))
    judge.send(GM, "LIST opts\nLIST opts2\nLIST opts4")
    listed = judge.last_to(GM).body
    assert "options: INVESTORS=7 SHARES=10 FUNDS=50" in listed
    assert "options: INVESTORS=4 SHARES=10 FUNDS=" in listed and "EBAYOLA" in listed
    assert "options: INVESTORS=7 SHARES=10 FUNDS=31 ZEROSUM" in listed
    for i, (word, why) in enumerate(refused.items()):
        first = word.split()[0]
        reason = why if " " in word else f"Exchange Payola does not play {first}: {why}"
        assert said[f"CREATE no{i} **** exchange {word}"][0].startswith(f"ERROR: {reason}"), word
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
    for refused in ("F", "FRANCE", "ME", "Al-x", ""):  # a power's name or initial, a word of the sheets, a hyphen
        assert judge.outcome_of(f"JOIN names **** {refused}".strip()) == ("error", "BAD_WISH"), refused
    judge.send("bob@example.org", "JOIN names pw-bob ann")
    assert judge.outcome_of("JOIN names **** ann") == ("error", "BAD_WISH")  # ANN's, whatever the case


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
    assert judge.outcome_of("BID 2 FRANCE AT 0") == ("error", "PRICE_BELOW_ONE")
    assert judge.outcome_of("ELECT ZZ ME") == ("error", "SYNTAX")  # no corporation is called so
    assert judge.outcome_of("FOR FRANCE") == ("error", "NOT_THE_CEO")
    assert judge.outcome_of("DIVIDEND 1") == ("error", "NOT_THE_CEO")  # in a block refused whole
    assert judge.outcome_of("PRIORITY 5") == ("ignored", "SHEET_REFUSED")
    assert len(second["END"]) == 2  # the verdict on the sheet, under its last line
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
    assert bad["WORTH PAR 20 MAR 14 BRE 10"] and judge.outcome_of("WORTH PAR 20 MAR 14 BRE 10") == (
        "error", "WORTH_TOTAL")
    good = answers(send_as(judge, "ceos", "BOB", "1 : A MUN - RUH", "FOR FRANCE", "WORTH PAR 24 MAR 14 BRE 10",
                           "0 : A PAR - PIC", "TRANSFER 5 TO CAT", "END", "TRANSFER 5 TO CAT", "LEDGER FRANCE"))
    assert good["0 : A PAR - PIC"][0] == "OK: read as: a direct offer for A PAR - PIC, 0 AgP in all"
    assert judge.outcomes_of("TRANSFER 5 TO CAT")[0] == ("error", "CORPORATION_TRANSFERS")
    assert good["TRANSFER 5 TO CAT"][1] == "OK: 5 AgP sent to CAT; your balance is 35 AgP"
    assert "France's ledger since the start of the game (E24):" in good["LEDGER FRANCE"]
    assert "sheet accepted for S1901M; your sheet now: your own lines (1), FOR FRANCE (2) (a later sheet replaces it " \
           "part by part, 2.1)" in good["END"]
    own = answers(send_as(judge, "ceos", "BOB", "2 : A MUN - RUH"))
    assert "your sheet now: your own lines (1), FOR FRANCE (2)" in own["2 : A MUN - RUH"][1]
    told = judge.last_to(address("CAT"))
    assert told.subject == "ceos transfer received" and "BOB transferred 5 AgP to you" in told.body
    refused = answers(send_as(judge, "ceos", "ANN", "LEDGER FRANCE", "FOR FRANCE", "0 : A PAR - BUR", "END"))
    assert refused["LEDGER FRANCE"] and judge.outcome_of("LEDGER FRANCE") == ("error", "NOT_THE_CEO")
    assert refused["FOR FRANCE"] and judge.outcome_of("FOR FRANCE") == ("error", "NOT_THE_CEO")
    assert game_row(judge, "ceos") == ("active", "S1901M")
    send_as(judge, "ceos", "CAT", "FOR GERMANY", "0 : A MUN H", "END")
    assert game_row(judge, "ceos") == ("active", "F1901M")
    offers = section(mails_to(judge, "BOB", "ceos S1901M results"), "Your private offers")
    assert offers == ["you paid 2 AgP for A MUN - RUH", "spent: 2 AgP; your balance: 33 AgP",
                      "your shares: France 10"]  # the 10 France it bid for in W1900X
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
    judge.send("someone@example.org", "HELP ALL")
    _, data = judge.last_to("someone@example.org").attachments["help.txt"]
    body = data.decode()
    heading = "=== Exchange Payola (CREATE game password exchange [board] [INVESTORS=n] [SHARES=n] [FUNDS=n]) ==="
    assert heading in " ".join(body.split())  # the attachment wraps it at 72 characters
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
    last = [m for m in judge.all_mail() if m.to == "dan@example.org" and m.subject == "Re: orders"][-1].body
    lines = last.splitlines()  # the end is said under the vote, not under an empty "> "
    vote = lines.index("> VOTE DRAW")
    assert lines[vote + 2].startswith("  the investors' votes end the game: ")
    assert all(line.strip() != ">" for line in lines)
    end = judge.last_to(address("ANN"))
    assert end.subject == "votes has ended" and "Everything that was secret is now published (E41)" in end.body


def test_E34_a_vote_that_ends_the_game_in_a_mail_with_a_sheet_ends_it_and_the_sheet_is_not_applied(
        judge: Judge) -> None:
    """The vote is acted on where it stands, the sheet at the mail's end, once the game has ended: the
    sheet is answered as not applied, not refused as being of another phase."""
    exchange_game(judge, "late")
    send_as(judge, "late", "ANN", "VOTE DRAW")
    send_as(judge, "late", "BOB", "VOTE DRAW")
    reply = send_as(judge, "late", "CAT", "BID 1 FRANCE AT 2", "VOTE DRAW").body
    assert game_row(judge, "late")[0] == "finished"
    assert judge.outcome_of("BID 1 FRANCE AT 2") == ("ignored", "GAME_ENDED")
    assert "not applied: the game has ended" in reply and "REFUSED" not in reply


def test_E34_a_rollback_brings_the_votes_back_as_they_stood(tmp_path: Path) -> None:
    """E34's votes are the game's state as much as its sheets: ANN votes DRAW in S1901M, which is
    then processed; in F1901M BOB votes DRAW and ANN withdraws. A ROLLBACK to S1901M brings back the
    votes that stood as it was processed (ANN's DRAW, BOB none), as it brings back its sheets; one to
    W1900X, processed before any vote, brings back none."""
    judge = with_ceos(Judge(tmp_path), "undo")
    send_as(judge, "undo", "ANN", "VOTE DRAW")
    master(judge, "undo", "PROCESS")
    assert game_row(judge, "undo") == ("active", "F1901M")
    send_as(judge, "undo", "BOB", "VOTE DRAW")
    send_as(judge, "undo", "ANN", "VOTE NONE")
    master(judge, "undo", "ROLLBACK S1901M")
    assert game_row(judge, "undo") == ("paused", "S1901M")
    assert "  your vote: a draw\n" in send_as(judge, "undo", "ANN", "STATUS").body
    assert "your vote" not in send_as(judge, "undo", "BOB", "STATUS").body
    master(judge, "undo", "ROLLBACK W1900X")
    assert game_row(judge, "undo") == ("paused", "W1900X")
    for name in WORKED:
        assert "your vote" not in send_as(judge, "undo", name, "STATUS").body, name


def test_E34_a_rollback_brings_back_no_vote_of_an_investor_who_has_left_since(tmp_path: Path) -> None:
    """E34: an investor's vote is its player's. BOB and CAT vote DRAW in S1901M, which is processed;
    an hour later, in F1901M, the game master gives BOB to a new player and CAT resigns (E32). A
    ROLLBACK to S1901M gives BOB's new player no vote, and CAT's, who has left the game, is not
    brought back either: ANN's DRAW alone then ends nothing, and with the new player's the game
    ends in a draw."""
    judge = with_ceos(Judge(tmp_path), "heir")
    send_as(judge, "heir", "BOB", "VOTE DRAW")
    send_as(judge, "heir", "CAT", "VOTE DRAW")
    master(judge, "heir", "PROCESS")
    judge.later(1)
    master(judge, "heir", "REPLACE BOB dan@example.org")
    token = re.search(r"CONFIRM (\S+) yourpassword", judge.last_to("dan@example.org").body)
    assert token is not None
    judge.send("dan@example.org", f"CONFIRM {token.group(1)} dan-pw")
    send_as(judge, "heir", "CAT", "RESIGN")
    master(judge, "heir", "ROLLBACK S1901M")
    assert game_row(judge, "heir") == ("paused", "S1901M")
    judge.send("dan@example.org", "SIGNON BOB@heir dan-pw\nSTATUS")
    assert "your vote" not in judge.last_to("dan@example.org").body
    assert votes(judge, "heir") == {}
    send_as(judge, "heir", "ANN", "VOTE DRAW")
    assert game_row(judge, "heir")[0] == "paused"
    judge.send("dan@example.org", "SIGNON BOB@heir dan-pw\nVOTE DRAW")
    assert game_row(judge, "heir")[0] == "finished"


def test_E36_E40_the_games_page_shows_what_everyone_is_sent_and_no_investors_money(judge: Judge) -> None:
    """The public page of a running game: its investors, the investor order, each corporation's CEO
    and shares and each phase's public results (E36); no purse, holding, bid or treasury (E40)."""
    with_ceos(judge, "page")
    page = publish(judge.db, judge.settings, "page", force=True).read_text("utf-8")
    assert "<li>ANN: played</li>" in page and re.search(r"investor order \(E30\): [A-Z]+, [A-Z]+, [A-Z]+\n", page)
    assert "France: CEO BOB; 10 shares issued, 10 held by investors, 0 in its pool" in page
    assert "<h2 id=\"phase-W1900X\">W1900X</h2>" in page
    assert "AgP" not in page and "BID" not in page and "treasury" not in page.replace("treasury, worths", "")


def test_E36_the_games_page_has_the_map_of_the_board_each_ceo_in_its_legend_and_nothing_secret(
        judge: Judge) -> None:
    """The page's map: the board as it stands, each corporation in its power's colour with its CEO
    (or leaderless) in the legend, public (E36); no money on it (E40)."""
    with_ceos(judge, "mapped")
    page = publish(judge.db, judge.settings, "mapped", force=True)
    assert '<img src="board.svg"' in page.read_text("utf-8")
    svg = (page.parent / "board.svg").read_text("utf-8")
    assert svg.startswith("<svg") or svg.startswith("<?xml")
    assert "mapped S1901" in svg and "CEO BOB" in svg and "CEO CAT" in svg and "leaderless" in svg
    assert "AgP" not in svg and "treasury" not in svg.lower()


def test_history_gives_the_phase_or_the_range_of_phases_asked_and_refuses_a_phase_not_processed(
        judge: Judge) -> None:
    """HISTORY reads a phase or a range as the other kinds do: W1900X alone, S1901M alone, both in
    order; a phase the game has not processed is refused, naming those it has."""
    with_ceos(judge, "hist")
    master(judge, "hist", "PROCESS")
    assert game_row(judge, "hist")[1] == "F1901M"

    def history(*words: str) -> str:
        judge.send("watcher@example.org", f"HISTORY hist {' '.join(words)}".strip())
        reply = judge.last_to("watcher@example.org")
        return reply.body + "".join(data.decode() for _, data in reply.attachments.values())

    judge.confirmed("watcher@example.org")
    alone = history("W1900X")
    assert "=== W1900X ===" in alone and "=== S1901M ===" not in alone
    spring = history("S1901M")
    assert "=== S1901M ===" in spring and "=== W1900X ===" not in spring
    both = history("W1900X-S1901M")
    assert both.index("=== W1900X ===") < both.index("=== S1901M ===")
    assert "=== W1900X ===" in history() and "=== S1901M ===" in history()
    refused = history("F1905M")
    assert judge.outcome_of("HISTORY hist F1905M") == ("error", "NO_SUCH_PHASE")
    assert "(processed: W1900X, S1901M)" in refused  # it names those it has
    assert "=== W1900X ===" not in refused


def test_rollback_restores_money_shares_and_ceos_tells_each_investor_what_changed_and_plays_again(
        judge: Judge) -> None:
    """ROLLBACK from S1901M to W1900X: the state W1900X had when processed comes back whole (BOB and
    CAT 60 AgP again and no share, nobody CEO; ANN's 5 AgP from BOB's transfer in S1901M gone with
    the phase), money conserved; each investor is told alone what changed for them; the sheets
    standing in W1900X stand again, and PROCESS plays it again to the same result."""
    with_ceos(judge, "roll")
    send_as(judge, "roll", "BOB", "TRANSFER 5 TO ANN")
    assert [s.purses for _, s in states(judge, "roll")][-1] == {"ANN": 65, "BOB": 35, "CAT": 40}
    reply = master(judge, "roll", "ROLLBACK W1900X")
    assert "rolled back to W1900X" in reply.body
    assert game_row(judge, "roll") == ("paused", "W1900X")
    (name, state), = states(judge, "roll")
    assert name == "W1900X" and dict(state.purses) == {"ANN": 60, "BOB": 60, "CAT": 60}
    assert not state.register.holdings and not state.ceos
    assert sum(state.purses.values()) + sum(state.treasuries.values()) + state.destroyed == state.minted == 180
    bob = mails_to(judge, "BOB", "roll: your account after the ROLLBACK to W1900X").body
    assert ("\n  your balance: 60 AgP (it was 35 AgP before the ROLLBACK)\n  your shares: none (they were France 10)\n"
            "  your CEO offices: none\n") in bob
    assert "CAT" not in bob and "ANN" not in bob  # nobody else's account (E40)
    ann = mails_to(judge, "ANN", "roll: your account after the ROLLBACK to W1900X").body
    assert "your balance: 60 AgP (it was 65 AgP before the ROLLBACK)" in ann and "shares" not in ann
    announced = [m for m in judge.all_mail() if m.to == address("ANN") and "rolled the game back" in m.body]
    assert announced and "each investor whose balance, shares or offices this changed is told" in announced[-1].body
    master(judge, "roll", "PROCESS")
    assert game_row(judge, "roll") == ("active", "S1901M")
    again = states(judge, "roll")[-1][1]
    assert dict(again.purses) == {"ANN": 60, "BOB": 40, "CAT": 40} and dict(again.ceos) == {"FRANCE": "BOB",
                                                                                           "GERMANY": "CAT"}


def test_rollforward_undoes_a_rollback_as_it_was_and_is_refused_once_an_investor_sent_a_sheet(judge: Judge) -> None:
    """ROLLFORWARD processes the rolled-back phase again with what stood then (the same results:
    BOB France's CEO with 40 AgP again); after a later ROLLBACK, a sheet sent since refuses it, and
    PROCESS takes the new sheet."""
    with_ceos(judge, "fwd")
    master(judge, "fwd", "ROLLBACK")
    reply = master(judge, "fwd", "ROLLFORWARD")
    assert "W1900X processed again as it was at the ROLLBACK; now S1901M" in reply.body
    assert game_row(judge, "fwd") == ("active", "S1901M")
    state = states(judge, "fwd")[-1][1]
    assert dict(state.purses) == {"ANN": 60, "BOB": 40, "CAT": 40} and state.ceos["FRANCE"] == "BOB"
    master(judge, "fwd", "ROLLFORWARD")
    assert judge.outcome_of("ROLLFORWARD") == ("error", "NO_ROLLBACK")
    master(judge, "fwd", "ROLLBACK")
    send_as(judge, "fwd", "ANN", "BID 1 ITALY AT 3")
    refused = master(judge, "fwd", "ROLLFORWARD").body
    assert judge.outcome_of("ROLLFORWARD") == ("error", "CHANGED_SINCE_ROLLBACK") and "ANN" in refused  # who did
    assert game_row(judge, "fwd") == ("paused", "W1900X")
    master(judge, "fwd", "PROCESS")
    after = states(judge, "fwd")[-1][1]
    assert after.register.held("ITALY", "ANN") == 1 and after.purses["ANN"] == 57


def test_E34_rollforward_is_refused_once_a_vote_changed_since_the_rollback(tmp_path: Path) -> None:
    """ROLLFORWARD processes the phase again as it was rolled back, with no vote standing in W1900X;
    once ANN votes DRAW it would discard her vote, so it is refused, saying that a vote changed but
    not whose (votes are secret, E34); once she withdraws it, nothing it would discard has changed,
    and it processes W1900X again."""
    judge = with_ceos(Judge(tmp_path), "fwdvote")
    master(judge, "fwdvote", "ROLLBACK")
    send_as(judge, "fwdvote", "ANN", "VOTE DRAW")
    refused = master(judge, "fwdvote", "ROLLFORWARD").body
    assert judge.outcome_of("ROLLFORWARD") == ("error", "CHANGED_SINCE_ROLLBACK")
    assert "since the ROLLBACK, a vote on the game's end changed, which ROLLFORWARD would discard" in refused
    assert "ANN" not in refused
    assert game_row(judge, "fwdvote") == ("paused", "W1900X")
    send_as(judge, "fwdvote", "ANN", "VOTE NONE")
    master(judge, "fwdvote", "ROLLFORWARD")
    assert judge.outcome_of("ROLLFORWARD")[0] == "ok"
    assert game_row(judge, "fwdvote") == ("active", "S1901M")


def test_E32_an_investor_who_resigned_after_the_phase_rolled_back_to_stays_resigned_and_money_is_conserved(
        judge: Judge) -> None:
    """BOB resigns in S1901M (E32: his 40 AgP forfeited, his 10 France back in the pool, out of
    office); a ROLLBACK to W1900X does not seat him again: the state brought back has him resigned
    too, his 60 AgP of then forfeited, and the money check holds."""
    with_ceos(judge, "quit")
    send_as(judge, "quit", "BOB", "RESIGN")
    master(judge, "quit", "ROLLBACK W1900X")
    (_, state), = states(judge, "quit")
    assert "BOB" not in state.order and "BOB" in state.resigned and "BOB" not in state.purses
    assert state.destroyed == 60 and not state.register.holdings
    assert sum(state.purses.values()) + sum(state.treasuries.values()) + state.destroyed == state.minted == 180
    master(judge, "quit", "PROCESS")
    after = states(judge, "quit")[-2][1]
    assert "BOB" not in after.register.holders("FRANCE") and after.ceos.get("FRANCE") != "BOB"


def test_E32_an_investor_who_resigned_cannot_be_opened_taken_over_or_replaced(judge: Judge) -> None:
    """BOB resigns and leaves the game for good (E32): his seat is no one to play, so the game master
    cannot open it nor give it to a new player, and a TAKEOVER of it is refused, not taken and then left
    with every sheet refused ("not an investor in this game")."""
    exchange_game(judge, "gone")
    resigned = send_as(judge, "gone", "BOB", "RESIGN").body
    assert "you have resigned; your seat has left the game; as an investor who resigns (E32)" in resigned
    told = [m for m in judge.all_mail() if m.to == address("ANN") and m.subject == "gone: the player of BOB resigned"]
    assert len(told) == 1 and "the player of BOB resigned: it has left the game" in told[0].body
    assert "dummy" not in resigned + told[0].body  # a dummy keeps its money and shares: BOB keeps nothing
    master(judge, "gone", "SET OPENING BOB")
    assert judge.outcome_of("SET OPENING BOB") == ("error", "LEFT_THE_GAME")
    master(judge, "gone", "REPLACE BOB dan@example.org")
    assert judge.outcome_of("REPLACE BOB dan@example.org") == ("error", "LEFT_THE_GAME")
    judge.confirmed("dan@example.org")
    judge.send("dan@example.org", "TAKEOVER BOB@gone pw-dan")
    assert judge.outcome_of("TAKEOVER BOB@gone ****") == ("error", "LEFT_THE_GAME")


def test_zerosum_6_7_by_mail_worths_refused_bribes_paid_to_the_bribed_units_corporation_at_the_income_step(
        judge: Judge) -> None:
    """A ZEROSUM game by mail: BOB's WORTH for France is refused with the reason; ANN's 3 AgP for
    A MUN - BUR are owed to Germany and paid to it at the Income step, which CAT, its CEO, reads
    alone; money is conserved at every phase (the bribes owed counted)."""
    exchange_game(judge, "zs", options="INVESTORS=3 FUNDS=60 ZEROSUM")
    send_as(judge, "zs", "BOB", "BID 10 FRANCE AT 2", "ELECT FRANCE ME")
    send_as(judge, "zs", "CAT", "BID 10 GERMANY AT 2", "ELECT GERMANY ME")
    send_as(judge, "zs", "ANN", "PASS")
    assert game_row(judge, "zs") == ("active", "S1901M")
    refused = answers(send_as(judge, "zs", "BOB", "FOR FRANCE", "WORTH PAR 24 MAR 14 BRE 10", "END"))
    assert refused["WORTH PAR 24 MAR 14 BRE 10"][0] == (
        "ERROR: under ZEROSUM no center pays income, so there is no worth to set (6.7)")
    send_as(judge, "zs", "ANN", "3 : A MUN - BUR")
    master(judge, "zs", "PROCESS")
    spring = states(judge, "zs")[-1][1]
    assert dict(spring.owed) == {"GERMANY": 3} and spring.purses["ANN"] == 57 and spring.destroyed == 0
    while game_row(judge, "zs")[1] != "W1901X":
        master(judge, "zs", "PROCESS")
    for _, state in states(judge, "zs"):
        assert (sum(state.purses.values()) + sum(state.treasuries.values()) + sum(state.owed.values())
                + state.destroyed == state.minted)
    last = [name for name, _ in states(judge, "zs")][-2]
    income = section(mails_to(judge, "CAT", f"zs {last} results"), "Germany's income, for its CEO (E27)")
    assert income[0] == "Germany's treasury changed by 3 AgP (ZEROSUM, 6.7):"
    assert "+3  the bribes its units took this year (ZEROSUM, 6.7)" in income[1]
    assert income[-1] == "its treasury now: 23 AgP"
    assert not section(mails_to(judge, "ANN", f"zs {last} results"), "Germany's income")
    judge.send(GM, "GET INFO zs")
    info = judge.last_to(GM).body
    assert "Payola options: ZEROSUM" in info and "captures move money (6.7)" in info and "worths set" not in info


def test_2_1_the_END_of_a_block_is_answered_and_the_sheets_verdict_comes_after_it(tmp_path: Path) -> None:
    """2.1: a CEO's block runs from FOR to END; every line of a mail is answered, END too (it
    closes the block it names), and the verdict on the sheet comes under the sheet's last line,
    END, not above it."""
    judge = with_ceos(Judge(tmp_path), "closed")
    good = answers(send_as(judge, "closed", "BOB", "FOR FRANCE", "0 : A PAR - PIC", "END"))
    assert judge.outcome_of("END") == ("ok", None)
    assert good["END"][0] == "OK: the end of the block of France"
    assert good["END"][1].startswith("sheet accepted for S1901M")
    assert len(good["0 : A PAR - PIC"]) == 1
    refused = answers(send_as(judge, "closed", "BOB", "FOR FRANCE", "0 : A PAR - XXX", "END"))
    assert judge.outcome_of("END") == ("ignored", "SHEET_REFUSED")
    assert refused["END"][1].startswith("sheet REFUSED (1 bad line)")
