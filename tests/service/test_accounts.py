"""Accounts and who receives what (issue 22): anyone may create a game, so every game master
and observer may be the attacker, with an address, a script and patience.  One test per finding.

The game is the test kind's auction g1 (`tests.support.auction`: Alice and Bob, 100 coins each).
Where a mail comes from is what its ``Received:`` line by the judge's own MTA says (``MTA``);
`from_ip` writes that line on top of a mail as the MTA would.
"""

from __future__ import annotations

from datetime import UTC, datetime
from email.utils import format_datetime
from pathlib import Path

import pytest
from sqlalchemy import select

from judge.mail.received import listener_line
from judge.service import passwords
from judge.service.running import app
from judge.store.models import Observer, Player
from tests.support.auction import auction_judge, start_auction
from tests.support.harness import Judge, raw_mail, tokens, vouching
from tests.support.people import GM

MTA = "mx.example.net"
ALICE, BOB = "alice@example.org", "bob@example.org"
MALLORY, VICTIM = "mallory@evil.example", "victim@example.org"
ALICE_IP, MALLORY_IP = "198.51.100.7", "203.0.113.66"


def from_ip(ip: str, raw: bytes) -> bytes:
    """``raw`` as the judge's MTA hands it over: its Received: line, naming the client, on top."""
    when = format_datetime(datetime(2026, 1, 5, 12, 0, tzinfo=UTC))
    return (f"Received: from client.example (client.example [{ip}])\r\n\tby {MTA} (Postfix) with ESMTP id 4F2A;"
            f"\r\n\t{when}\r\n").encode() + raw


@pytest.fixture
def judge(tmp_path: Path) -> Judge:
    judge = start_auction(auction_judge(tmp_path, mta_hostname=MTA))
    judge.new_mail()
    return judge


def send_from(judge: Judge, ip: str, sender: str, body: str) -> str:
    return judge.send_raw(from_ip(ip, raw_mail(sender, body)))


def joined(judge: Judge, game: str = "g1") -> list[str | None]:
    """The addresses of the game's players (not its dummies), in the order they joined."""
    with judge.db.transaction() as session:
        return list(session.scalars(select(Player.address).where(Player.game_id == _game_id(judge, game),
                                                                 Player.address.is_not(None))))


def _game_id(judge: Judge, name: str) -> int:
    from judge.store.models import Game

    with judge.db.transaction() as session:
        game = session.scalar(select(Game).where(Game.name == name))
        assert game is not None
        return game.id


# -- 22.3: sign-on lock-out as a weapon -----------------------------------------------------------


def test_a_strangers_failures_never_refuse_the_players_right_password(judge: Judge) -> None:
    for attempt in range(7):  # even with Alice's own From: the source is where the mail came from
        send_from(judge, MALLORY_IP, ALICE, f"SIGNON Alice@g1 guess{attempt}")
    send_from(judge, ALICE_IP, ALICE, "SIGNON Alice@g1 alice-pw\nSTATUS")
    assert "your coins: 100" in judge.last_to(ALICE).body
    send_from(judge, MALLORY_IP, ALICE, "SIGNON Alice@g1 alice-pw\nSTATUS")  # the stranger's source still waits
    assert judge.outcome_of("SIGNON Alice@g1 ****") == ("error", "TOO_MANY_FAILURES")
    [warning] = [m for m in judge.all_mail() if m.subject == "g1: failed sign-ons as Alice"]
    assert f"[{MALLORY_IP}] {ALICE}" in warning.body


def test_a_source_over_its_budget_is_refused_without_a_password_check(
        judge: Judge, monkeypatch: pytest.MonkeyPatch) -> None:
    for attempt in range(5):
        send_from(judge, MALLORY_IP, MALLORY, f"SIGNON Alice@g1 guess{attempt}")
    checked: list[str] = []
    real = passwords.verify_password
    monkeypatch.setattr("judge.service.incoming.handlers.signon.verify_password",
                        lambda password, stored: checked.append(password) or real(password, stored))
    send_from(judge, MALLORY_IP, MALLORY, "SIGNON Alice@g1 another-guess")
    assert checked == [] and judge.outcome_of("SIGNON Alice@g1 ****") == ("error", "TOO_MANY_FAILURES")
    send_from(judge, ALICE_IP, ALICE, "SIGNON Alice@g1 alice-pw")
    assert checked == ["alice-pw"] and "signed on as Alice" in judge.last_to(ALICE).body


def test_changing_envelope_senders_from_one_address_is_still_counted(judge: Judge) -> None:
    """A script that gives each mail a new envelope sender is one network: after 20 failures
    its next sender waits too; a mail whose envelope sender is the player's own does not."""
    for attempt in range(20):
        send_from(judge, MALLORY_IP, f"m{attempt}@evil.example", f"SIGNON Alice@g1 guess{attempt}")
    send_from(judge, MALLORY_IP, "m99@evil.example", "SIGNON Alice@g1 alice-pw\nSTATUS")
    assert judge.outcome_of("SIGNON Alice@g1 ****") == ("error", "TOO_MANY_FAILURES")
    send_from(judge, MALLORY_IP, ALICE, "SIGNON Alice@g1 alice-pw\nSTATUS")  # Alice, through a shared provider
    assert "your coins: 100" in judge.last_to(ALICE).body


def test_a_forged_from_to_a_game_that_does_not_exist_counts_against_nobody(judge: Judge) -> None:
    for _ in range(7):
        judge.send(ALICE, "SIGNON F@nogame guess")  # no IP known: the From is all the source there is
        send_from(judge, MALLORY_IP, ALICE, "SIGNON MASTER@nogame guess")
    judge.send(ALICE, "SIGNON Alice@g1 alice-pw\nSTATUS")
    assert "your coins: 100" in judge.last_to(ALICE).body
    send_from(judge, ALICE_IP, ALICE, "SIGNON Alice@g1 alice-pw\nSTATUS")
    assert "your coins: 100" in judge.last_to(ALICE).body
    send_from(judge, MALLORY_IP, ALICE, "SIGNON F@nogame guess")  # the unknown games' own budget
    assert judge.outcome_of("SIGNON F@nogame ****") == ("error", "TOO_MANY_FAILURES")


def test_the_judges_listener_line_names_the_client_when_no_mta_is_named(tmp_path: Path) -> None:
    """Without ``mta_hostname`` the line believed is the one the judge's listener writes on top."""
    judge = start_auction(auction_judge(tmp_path, mta_hostname=None))

    def send(ip: str, body: str) -> None:
        line = listener_line("client.example", (ip, 25), "localhost", True, judge.now)
        judge.send_raw(line + raw_mail(ALICE, body))

    for attempt in range(6):
        send(MALLORY_IP, f"SIGNON Alice@g1 guess{attempt}")
    send(ALICE_IP, "SIGNON Alice@g1 alice-pw\nSTATUS")
    assert "your coins: 100" in judge.last_to(ALICE).body
    send(MALLORY_IP, "SIGNON Alice@g1 alice-pw\nSTATUS")
    assert judge.outcome_of("SIGNON Alice@g1 ****") == ("error", "TOO_MANY_FAILURES")


# -- 22.8: third parties enrolled without consent ---------------------------------------------------


def test_a_forged_join_enrols_nobody_until_the_address_confirms(tmp_path: Path) -> None:
    judge = auction_judge(tmp_path)
    judge.send(GM, "CREATE g2 gm-secret auction")
    status = app.inject(judge.db, judge.settings, raw_mail(VICTIM, "JOIN g2 pw Victim"), judge.now,
                        envelope_from=VICTIM)  # From, Reply-To and envelope all forged alike
    assert status == "done" and joined(judge, "g2") == []
    [token] = tokens(judge.db, VICTIM)
    judge.process("g2")
    [asked] = [m for m in judge.all_mail() if m.to == VICTIM and m.subject == "Please confirm: JOIN g2"]
    assert f"CONFIRM {token}" in asked.body and "ignore this mail" in asked.body
    judge.send(ALICE, "JOIN g2 alice-pw Alice")
    judge.send(GM, "SIGNON MASTER@g2 gm-secret\nSTART")  # Alice alone: an auction needs two
    assert judge.outcome_of("START") == ("error", "TOO_FEW_PLAYERS") and joined(judge, "g2") == [ALICE]
    assert not [m for m in judge.all_mail() if m.to == VICTIM and "g2" in m.subject and "confirm" not in m.subject]


@pytest.mark.parametrize("command", ["OBSERVE g1", "TAKEOVER Bob@g1 pw", "CREATE g9 pw"])
def test_observe_takeover_and_create_wait_for_the_address_to_confirm(judge: Judge, command: str) -> None:
    judge.send(BOB, "SIGNON Bob@g1 bob-pw\nRESIGN")
    judge.send(GM, "SIGNON MASTER@g1 gm-secret\nSET OPENING Bob")
    judge.send(VICTIM, command, confirm=False)  # a forged From: the victim never answers
    assert "waiting for victim@example.org to confirm" in judge.last_to(VICTIM).body
    with judge.db.transaction() as session:
        assert session.scalar(select(Observer.id)) is None
    assert VICTIM not in joined(judge)
    judge.send(GM, "LIST g9")
    assert "there is no game 'g9'" in judge.last_to(GM).body
    judge.later(25)
    judge.process("g1")
    assert not [m for m in judge.all_mail() if m.to == VICTIM and m.subject == "g1 L1 results"]
    judge.send(VICTIM, f"CONFIRM {tokens(judge.db, VICTIM)[0]}")  # once it does, it is done
    assert "waiting" not in judge.last_to(VICTIM).body and "ERROR" not in judge.last_to(VICTIM).body


def test_set_address_to_a_stranger_waits_for_the_stranger(judge: Judge) -> None:
    judge.send(ALICE, "SIGNON Alice@g1 alice-pw\nSET ADDRESS victim@example.org")
    assert joined(judge) == [ALICE, BOB]
    judge.later(25)
    judge.process("g1")
    assert [m.subject for m in judge.all_mail() if m.to == VICTIM] == ["Please confirm: SET ADDRESS victim@example.org"]


def test_the_token_is_never_in_a_reply_copied_to_the_requester(judge: Judge) -> None:
    """Mallory signs on to his own game (registered at his address), so the reply is copied to
    him; the JOIN in the same mail names the victim's address."""
    judge.send(MALLORY, "CREATE own pw auction")
    judge.send(VICTIM, "SIGNON MASTER@own pw\nJOIN g1x pw Victim", confirm=False)
    judge.send(GM, "CREATE g3 gm-secret auction")
    judge.send(VICTIM, "SIGNON MASTER@own pw\nJOIN g3 pw Victim", confirm=False)
    [token] = tokens(judge.db, VICTIM)
    assert not [m for m in judge.all_mail() if m.to == MALLORY and token in m.body]


def test_an_address_that_confirmed_is_not_asked_again_in_mail_its_mta_vouches_for(judge: Judge) -> None:
    judge.send(GM, "CREATE g4 gm-secret auction\nCREATE g5 gm-secret auction")
    judge.send("carol@example.org", "JOIN g4 pw Carol")  # asked, and confirms (the harness answers)
    judge.send("carol@example.org", "JOIN g5 pw Carol", headers=vouching(judge.settings, "carol@example.org"))
    assert "you joined 'g5'" in judge.last_to("carol@example.org").body
    assert len(tokens(judge.db, "carol@example.org")) == 1


@pytest.mark.parametrize("authenticates", [True, False])
def test_the_token_mail_promises_no_new_request_only_where_the_judges_mta_vouches(tmp_path: Path,
                                                                                   authenticates: bool) -> None:
    """Once confirmed, an address is not asked again in mail the judge's MTA vouches for; a judge
    whose MTA does not authenticate asks every time, and its token mail says so, not the promise."""
    judge = auction_judge(tmp_path, mta_hostname=MTA, mta_authenticates=authenticates)
    judge.send(GM, "CREATE g4 gm-secret auction\nCREATE g5 gm-secret auction")
    judge.send("carol@example.org", "JOIN g4 pw Carol")  # asked, and confirms (the harness answers)
    [asked] = [m for m in judge.all_mail() if m.subject == "Please confirm: JOIN g4"]
    judge.send("carol@example.org", "JOIN g5 pw Carol", headers=vouching(judge.settings, "carol@example.org"))
    again = len(tokens(judge.db, "carol@example.org")) == 2
    promised = "Once this address has confirmed, the judge no longer asks when you write from it yourself" in asked.body
    said = "so the judge asks each time a request would send a game's mail to an address" in asked.body
    assert (promised, said, again) == ((True, False, False) if authenticates else (False, True, True))


def test_observers_per_game_are_capped(tmp_path: Path) -> None:
    judge = start_auction(auction_judge(tmp_path, max_observers=2))
    for number in range(3):
        judge.send(f"o{number}@example.org", "OBSERVE g1")
    assert "g1 has 2 observers, the most a game takes" in judge.last_to("o2@example.org").body


def test_confirmations_mailed_to_one_address_are_limited(judge: Judge) -> None:
    for _ in range(8):
        judge.send(MALLORY, "OBSERVE g1", headers={"Reply-To": VICTIM})
    assert len(tokens(judge.db, VICTIM)) == judge.settings.max_confirmations_per_day
    assert "which is the most the judge asks in a day" in judge.last_to(VICTIM).body


# -- 22.11: a private game's key ---------------------------------------------------------------------


def test_join_key_guesses_back_off_per_game_and_source(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    judge = auction_judge(tmp_path, mta_hostname=MTA)
    judge.send(GM, "CREATE g1 gm-secret auction")
    judge.send(GM, "SIGNON MASTER@g1 gm-secret\nSET PRIVATE letmein")
    for attempt in range(5):
        send_from(judge, MALLORY_IP, MALLORY, f"JOIN g1 pw Mallory KEY guess{attempt}")
        assert judge.outcome_of("JOIN g1 **** Mallory KEY ****") == ("error", "WRONG_KEY")
    checked: list[str] = []
    real = passwords.verify_password
    monkeypatch.setattr("judge.service.incoming.handlers.anyone.verify_password",
                        lambda password, stored: checked.append(password) or real(password, stored))
    send_from(judge, MALLORY_IP, MALLORY, "JOIN g1 pw Mallory KEY letmein")
    assert checked == [] and judge.outcome_of("JOIN g1 **** Mallory KEY ****") == ("error", "TOO_MANY_FAILURES")
    send_from(judge, ALICE_IP, ALICE, "JOIN g1 alice-pw Alice KEY letmein")
    assert checked == ["letmein"] and joined(judge) == [ALICE]
    assert [m for m in judge.all_mail() if m.to == GM and m.subject == "g1: failed JOINs with a wrong key"]


# -- 22.15: takeovers told to the master --------------------------------------------------------------


def test_the_master_is_told_of_every_takeover_and_of_one_from_a_player_of_another_power(
        tmp_path: Path) -> None:
    judge = auction_judge(tmp_path, mta_hostname=MTA)
    judge.send(GM, "CREATE g1 gm-secret auction OPEN_TAKEOVER")
    for address, name in ((ALICE, "Alice"), (BOB, "Bob"), ("carol@example.org", "Carol")):
        judge.send(address, f"JOIN g1 pw-{name.lower()} {name}")
    judge.send(GM, "SIGNON MASTER@g1 gm-secret\nSTART")
    send_from(judge, ALICE_IP, ALICE, "SIGNON Alice@g1 pw-alice\nSTATUS")
    judge.send("carol@example.org", "SIGNON Carol@g1 pw-carol\nRESIGN")
    send_from(judge, ALICE_IP, "alice2@example.org", "TAKEOVER Carol@g1 second")  # a second address
    [told] = [m for m in judge.all_mail() if m.to == GM and m.subject == "g1: Carol taken over"]
    assert "taken over by alice2@example.org" in told.body and f"alice2@example.org from {ALICE_IP}" in told.body
    assert "has signed on as Alice" in told.body
    judge.send(BOB, "SIGNON Bob@g1 pw-bob\nRESIGN")
    send_from(judge, MALLORY_IP, MALLORY, "TAKEOVER Bob@g1 mine")
    [told] = [m for m in judge.all_mail() if m.to == GM and m.subject == "g1: Bob taken over"]
    assert f"mallory@evil.example from {MALLORY_IP}" in told.body and "signed on as" not in told.body
