"""A whole game played by mail through `judge inject`'s code path, read back from the Maildir.

Seven players and a game master: CREATE, JOIN, START; Spring 1901 with a tie broken by an
acceptance list, a reduction for over-expenditure, savings and a transfer; a Fall attack
that forces a retreat; builds; a dummy power; a ROLLBACK; deadlines passing on a controlled
clock; TERMINATE and the publication of every sheet and list.  Then a secrecy check over
every mail sent before the end.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.support.harness import Judge, Sent
from tests.support.people import GM

OBSERVER = "olga@example.org"
PLAYERS = {
    "ENGLAND": "eve@example.org", "FRANCE": "fred@example.org", "GERMANY": "gus@example.org",
    "ITALY": "ida@example.org", "AUSTRIA": "al@example.org", "RUSSIA": "rita@example.org",
    "TURKEY": "tom@example.org",
}
SHEETS_1901 = {
    "ENGLAND": "ACCEPT GFEIART\n0 : F EDI - NWG\n0 : A LVP - YOR",
    "FRANCE": "2 : A PAR - BUR\n2 : A MAR - SPA\n2 : F BRE - MAO\n5 : F LON - ENG % try to get the Channel",
    "GERMANY": "2 : F KIE - DEN\n2 : A MUN - RUH\n2 : A BER - MUN\n5 : F LON - NTH",
    "AUSTRIA": "10 $\n20 : A VIE - GAL\n20 : A BUD - SER",
    "TURKEY": "30 : F ANK - BLA\n30 : A CON - BUL",
    "RUSSIA": "TRANSFER 10 TO ITALY\n1 : F SEV - RUM\n1 : A MOS - UKR",
    "ITALY": "1 : A VEN - TYR\n1 : A ROM - VEN",
}


def signon(power: str, game: str = "payola1") -> str:
    return f"SIGNON {power}@{game} pw-{power.lower()}\n"


def statement(mail: Sent) -> str:
    return mail.body.split("Your private statement", 1)[1]


def balance_in(mail: Sent) -> int:
    match = re.search(r"your balance: (\d+) AgP", mail.body)
    assert match, mail.body
    return int(match.group(1))


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> Judge:
    judge = Judge(Path(tmp_path_factory.mktemp("judge")))
    play(judge)
    return judge


def play(judge: Judge) -> None:
    assert judge.send(GM, "CREATE payola1 gm-secret") == "done"
    for power, address in PLAYERS.items():
        request = "" if power == "TURKEY" else f" {power}"  # Turkey gets the power nobody asked for
        judge.send(address, f"JOIN payola1 pw-{power.lower()}{request}")
    judge.send(GM, "SIGNON MASTER@payola1 gm-secret\nSTART")
    judge.send(OBSERVER, "OBSERVE payola1")
    for power, sheet in SHEETS_1901.items():
        judge.later(1)
        judge.send(PLAYERS[power], signon(power) + sheet)
    # All seven sent their sheets: S1901M was processed at once.
    judge.later(1)
    judge.send(PLAYERS["FRANCE"], signon("FRANCE") + "PRESS TO GERMANY\nPRESS_SECRET: I will leave Belgium to you.\n"
                                                     "ENDPRESS")
    judge.send(PLAYERS["GERMANY"], signon("GERMANY") + "3 : A RUH - BUR\n3 : A MUN S A RUH - BUR\n1 : F DEN H")
    judge.send(PLAYERS["FRANCE"], signon("FRANCE") + "1 : A BUR H\n1 : A SPA H\n1 : F MAO H")
    judge.later(49)  # the others never send: the deadline passes
    assert judge.process("payola1").startswith("payola1 F1901M processed; next F1901R")
    judge.send(PLAYERS["FRANCE"], signon("FRANCE") + "A BUR - PIC")  # the only power that must retreat
    judge.send(PLAYERS["GERMANY"], signon("GERMANY") + "BUILD F KIE")
    judge.send(PLAYERS["FRANCE"], signon("FRANCE") + "BUILD A PAR")
    judge.later(25)
    assert judge.process("payola1").startswith("payola1 W1901A processed; next S1902M")
    judge.send(GM, "SIGNON MASTER@payola1 gm-secret\nDUMMY ITALY")
    judge.send(PLAYERS["FRANCE"], signon("FRANCE") + "4 : A TYR - MUN\n1 : A PAR H")
    judge.send(PLAYERS["AUSTRIA"], signon("AUSTRIA") + "4 : A TYR - VIE")
    judge.later(49)
    assert judge.process("payola1").startswith("payola1 S1902M processed")


def mails_to(game: Judge, address: str, subject: str) -> list[Sent]:
    return [m for m in game.all_mail() if m.to == address and m.subject == subject]


def test_start_assigns_requested_powers_and_pays_first_income(game: Judge) -> None:
    start = mails_to(game, PLAYERS["RUSSIA"], "payola1 starts")[0]
    assert "You play Russia (you asked for Russia)." in start.body and "Your balance: 62 AgP" in start.body
    turkey = mails_to(game, PLAYERS["TURKEY"], "payola1 starts")[0].body
    assert "You play Turkey (you asked for no power, so yours was drawn by lot" in turkey


def test_tie_is_broken_by_the_owners_acceptance_list(game: Judge) -> None:
    # France and Germany each bid 5 for England's F LON; England's list puts Germany first.
    results = mails_to(game, PLAYERS["ENGLAND"], "payola1 S1901M results")[0]
    assert "England: F LON - NTH" in results.body
    assert "you paid 5 AgP for F LON - NTH" in mails_to(game, PLAYERS["GERMANY"], "payola1 S1901M results")[0].body
    france = statement(mails_to(game, PLAYERS["FRANCE"], "payola1 S1901M results")[0])
    assert "F LON" not in france  # France's equal bid lost the tie, so it paid nothing for it


def test_over_expenditure_is_reduced_round_by_round(game: Judge) -> None:
    # Turkey offers 30 + 30 with 48: six rounds take both to 24; it pays 48 and keeps 0.
    turkey = mails_to(game, PLAYERS["TURKEY"], "payola1 S1901M results")[0]
    assert "after 6 reduction rounds" in turkey.body
    assert "total spent: 48 AgP" in turkey.body and balance_in(turkey) == 0


def test_savings_are_kept(game: Judge) -> None:
    # Austria: 48 with 10 saved offers 20 + 20: one round (19 + 19 = 38) and it keeps 10.
    austria = mails_to(game, PLAYERS["AUSTRIA"], "payola1 S1901M results")[0]
    assert "total spent: 38 AgP, after 1 reduction round" in austria.body and balance_in(austria) == 10


def test_transfer_is_applied_at_once_and_told_to_both_sides_only(game: Judge) -> None:
    received = mails_to(game, PLAYERS["ITALY"], "payola1 transfer received")
    assert len(received) == 1 and "Russia sent you 10 AgP" in received[0].body
    assert "Your balance: 58 AgP" in received[0].body
    italy = mails_to(game, PLAYERS["ITALY"], "payola1 S1901M results")[0]
    assert balance_in(italy) == 58 - 2  # both Italian offers of 1 were accepted


def test_retreat_then_builds(game: Judge) -> None:
    fall = mails_to(game, PLAYERS["FRANCE"], "payola1 F1901M results")[0]
    assert "France A BUR: may retreat to BEL, GAS, MAR, PAR, PIC" in fall.body
    retreat = mails_to(game, PLAYERS["FRANCE"], "payola1 F1901R results")[0]
    assert "France: A BUR - PIC" in retreat.body and "Next phase: W1901A" in retreat.body
    builds = mails_to(game, PLAYERS["GERMANY"], "payola1 W1901A results")[0]
    assert "Germany: BUILD F KIE" in builds.body and "France: BUILD A PAR" in builds.body
    assert "Germany (4): BER DEN KIE MUN" in builds.body


def test_dummy_tie_holds_and_nobody_pays(game: Judge) -> None:
    results = mails_to(game, PLAYERS["FRANCE"], "payola1 S1902M results")[0]
    assert "Italy: A TYR H" in results.body
    assert "you paid 4" not in results.body
    assert not mails_to(game, PLAYERS["ITALY"], "payola1 S1902M results"), "a dummy gets no mail"


def test_rollback_restores_the_phase_and_balances(game: Judge) -> None:
    before = balance_in(mails_to(game, PLAYERS["FRANCE"], "payola1 S1902M results")[0])
    game.send(GM, "SIGNON MASTER@payola1 gm-secret\nROLLBACK")
    reply = game.last_to(GM)
    assert "rolled back to S1902M" in reply.body
    game.send(PLAYERS["FRANCE"], signon("FRANCE") + "STATUS")
    status = game.last_to(PLAYERS["FRANCE"]).body
    assert "phase S1902M" in status and "4 : A TYR - MUN" in status  # the sheet in force is back
    balance = int(re.search(r"your balance: (\d+) AgP", status).group(1))  # type: ignore[union-attr]
    assert balance == before + 1  # the 1 AgP France paid for A PAR H is back
    game.send(GM, "SIGNON MASTER@payola1 gm-secret\nPROCESS")
    again = mails_to(game, PLAYERS["FRANCE"], "payola1 S1902M results")[-1]
    assert balance_in(again) == before and "Italy: A TYR H" in again.body


def test_terminate_publishes_every_sheet_and_list(game: Judge) -> None:
    for _ in range(4):  # a few more phases pass on deadlines alone
        game.later(72)
        game.process("payola1")
    game.terminate(GM, "SIGNON MASTER@payola1 gm-secret")
    end = mails_to(game, PLAYERS["ITALY"], "payola1 has ended")
    assert len(end) == 1
    body = end[0].body
    assert "30 : F ANK - BLA" in body and "5 : F LON - ENG % try to get the Channel" in body
    assert "England: ACCEPT GFEIART" in body
    assert {m.to for m in game.all_mail() if m.subject == "payola1 has ended"} == {*PLAYERS.values(), GM, OBSERVER}


def test_every_mail_has_stable_subject_message_id_date_and_auto_submitted(game: Judge) -> None:
    for mail in game.all_mail():
        assert mail.headers.get("Message-ID") and mail.headers.get("Date")
        assert mail.headers.get("Auto-Submitted") in ("auto-replied", "auto-generated")


def test_secrecy_no_mail_to_a_power_carries_another_powers_secrets(game: Judge) -> None:
    """Before the end: no other power's offer lines, acceptance list, balance or transfers."""
    secrets_of = {power: [line for line in sheet.splitlines() if not line.startswith("SIGNON")]
                  for power, sheet in SHEETS_1901.items()}
    address_of = {address: power for power, address in PLAYERS.items()} | {OBSERVER: "an observer"}
    checked = 0
    for mail in game.all_mail():
        if mail.subject.endswith("has ended") or mail.to not in address_of:
            continue
        power = address_of[mail.to]
        checked += 1
        for other, lines in secrets_of.items():
            if other == power:
                continue
            for line in lines:
                if line.startswith(("ACCEPT", "TRANSFER")) or ":" in line or "$" in line:
                    assert line not in mail.body, f"{mail.subject} to {power} shows {other}'s '{line}'"
        if power != "ITALY":
            assert "Russia sent you" not in mail.body and "transfer: from Russia" not in mail.body
        if power != "RUSSIA":
            assert "sent to Italy" not in mail.body and "transfer: to Italy" not in mail.body
        assert "Treasuries:" not in mail.body and "chart" not in mail.subject
        if power != "GERMANY":
            assert "PRESS_SECRET" not in mail.body, f"{mail.subject} to {power} shows France's press to Germany"
        if power == "an observer":
            assert "private statement" not in mail.body and "account as" not in mail.body
            assert "your balance" not in mail.body.lower()
        for other in PLAYERS:
            if other != power:
                assert f"private statement as {other.title()}" not in mail.body
                assert f"account as {other.title()}" not in mail.body
    assert checked > 40
    assert any(m.subject == "payola1 S1901M results" for m in game.all_mail() if m.to == OBSERVER)
    assert any("PRESS_SECRET" in m.body for m in game.all_mail() if m.to == PLAYERS["GERMANY"])
    assert any(m.subject.startswith("payola1: ") for m in game.all_mail())  # announcements were checked too
