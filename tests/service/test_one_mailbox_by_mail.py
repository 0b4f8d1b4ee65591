"""H4 by mail: one person is one mailbox for everything that counts people: an entry gate is not
passed by writing one's address in capitals or with a ``+tag``, one person holds one seat of a game
however they write their address (JOIN, TAKEOVER, REPLACE, SET ADDRESS), every limit per address
counts the mailbox, and the hall of fame keys a person by the mailbox, never by the part before
the "@"; the judge still answers at the address as written."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import select

from judge.service.hosting import records
from judge.store.models import Game, Player, PlayerRecord
from judge.web.pages import web_root
from tests.support.harness import Judge, start_game, two_player_game
from tests.support.people import ALICE, BOB, CAROL, GM
from tests.web.page import read_page as read

MASTER = "SIGNON MASTER@g1 gm-secret\n"
SHOUTED_BOB = "BOB@example.org"
TAGGED_BOB = "Bob+games@example.org"
SHOUTED_ALICE = "ALICE@example.org"


def bob_abandons(judge: Judge) -> Judge:
    """g1 (Payola, S1901M due 48 hours after its start): Alice sends her sheet, Bob nothing; the
    policy abandons a seat at its first missed deadline, with no extension.  Germany is open for
    TAKEOVER; every address of the test has confirmed before."""
    two_player_game(judge)
    judge.send(GM, MASTER + "SET SILENCE ON\nSET SILENCE EXTENSIONS 0\nSET SILENCE ABANDON 1")
    judge.send(ALICE, "SIGNON F@g1 alice-pw\n2 : A PAR - BUR")
    judge.later(48)
    judge.tick()
    judge.confirmed(ALICE, BOB, CAROL, SHOUTED_BOB, TAGGED_BOB, SHOUTED_ALICE)
    return judge


def test_H4_the_abandoned_gate_is_not_passed_by_capitals_or_a_tag(tmp_path: Path) -> None:
    judge = bob_abandons(Judge(tmp_path))
    judge.send(GM, "CREATE g2 gm-secret")
    judge.send(GM, "SIGNON MASTER@g2 gm-secret\nSET GATE ABANDONED 0")
    for written in (SHOUTED_BOB, TAGGED_BOB):
        judge.send(written, "JOIN g2 bob-pw2")
        assert judge.outcome_of("JOIN g2 ****") == ("error", "ENTRY_GATE"), written
        assert "your record shows 1" in judge.answer("JOIN g2 ****").message
        assert judge.last_to(written).subject.startswith("Re:")  # answered at the address as written
    judge.send(GM, MASTER + "SET GATE ABANDONED 0")
    judge.send(TAGGED_BOB, "TAKEOVER GERMANY@g1 bob-pw2")
    assert judge.outcome_of("TAKEOVER GERMANY@g1 ****") == ("error", "ENTRY_GATE")


def test_H4_a_record_is_kept_under_the_mailbox_and_read_from_any_of_its_addresses(tmp_path: Path) -> None:
    judge = bob_abandons(Judge(tmp_path, web_url="https://judge.example.org/"))
    with judge.db.transaction() as session:
        assert {address for address, in session.execute(select(PlayerRecord.address))} == {ALICE, BOB}
        assert records.of(session, TAGGED_BOB, judge.now).abandoned == 1
        page = records.page_name(session, BOB)
    for written in (TAGGED_BOB, SHOUTED_BOB):
        judge.send(written, "GET RECORD")
        answer = judge.last_to(written).body
        assert "left 1 seat to be declared abandoned" in answer
        assert f"players/{page}.html" in answer  # one page for the mailbox


def test_H4_one_person_joins_a_game_once_however_the_address_is_written(tmp_path: Path) -> None:
    judge = Judge(tmp_path)
    judge.confirmed(ALICE, SHOUTED_ALICE, "alice+second@example.org")
    judge.send(GM, "CREATE g2 gm-secret")
    judge.send(ALICE, "JOIN g2 alice-pw FRANCE")
    assert judge.outcome_of("JOIN g2 **** FRANCE") == ("ok", None)
    for written in (SHOUTED_ALICE, "alice+second@example.org"):
        judge.send(written, "JOIN g2 alice-pw2 GERMANY")
        assert judge.outcome_of("JOIN g2 **** GERMANY") == ("error", "ALREADY_JOINED"), written
    with judge.db.transaction() as session:
        assert list(session.scalars(select(Player.address).where(Player.address.is_not(None)))) == [ALICE]


def test_H4_a_player_cannot_take_over_a_second_seat_under_another_spelling(tmp_path: Path) -> None:
    judge = bob_abandons(Judge(tmp_path))  # Alice plays France; Germany is open
    judge.send(SHOUTED_ALICE, "TAKEOVER GERMANY@g1 alice-pw2")
    assert judge.outcome_of("TAKEOVER GERMANY@g1 ****") == ("error", "ALREADY_PLAYING")
    judge.send("alice+g@example.org", "TAKEOVER GERMANY@g1 alice-pw2")  # a new address: it confirms first
    assert judge.outcomes_of("TAKEOVER GERMANY@g1 ****")[-1] == ("error", "ALREADY_PLAYING")
    with judge.db.transaction() as session:
        germany = session.scalars(select(Player).where(Player.seat == "GERMANY")).one()
        assert germany.resigned and germany.address == BOB  # still vacant: its player left


def test_H4_the_game_master_cannot_replace_a_seat_with_a_player_already_in_the_game(tmp_path: Path) -> None:
    judge = bob_abandons(Judge(tmp_path))
    judge.send(GM, MASTER + "REPLACE GERMANY Alice+2@example.org")
    assert judge.outcome_of("REPLACE GERMANY Alice+2@example.org") == ("error", "ALREADY_PLAYING")


def test_H4_a_player_cannot_move_a_seat_to_the_mailbox_of_another_seat_of_the_game(tmp_path: Path) -> None:
    judge = two_player_game(Judge(tmp_path))
    judge.confirmed(ALICE, BOB, "alice+2@example.org")
    judge.send(BOB, "SIGNON G@g1 bob-pw\nSET ADDRESS alice+2@example.org")
    assert judge.outcome_of("SET ADDRESS alice+2@example.org") == ("error", "ALREADY_PLAYING")
    judge.send(BOB, "SIGNON G@g1 bob-pw\nSET ADDRESS Bob+games@example.org")  # his own mailbox: fine
    assert judge.outcomes_of("SET ADDRESS Bob+games@example.org")[-1][0] == "ok"


def test_H4_joins_a_day_are_counted_by_mailbox(tmp_path: Path) -> None:
    """``max_joins_per_day`` of 2: two JOINs by alice@, then one by ALICE+x@, the same person."""
    judge = Judge(tmp_path, max_joins_per_day=2)
    judge.confirmed(ALICE, "ALICE+x@example.org")
    for name in ("g2", "g3", "g4"):
        judge.send(GM, f"CREATE {name} gm-secret")
    for name in ("g2", "g3"):
        judge.send(ALICE, f"JOIN {name} alice-pw")
        assert judge.outcome_of(f"JOIN {name} ****") == ("ok", None)
    judge.send("ALICE+x@example.org", "JOIN g4 alice-pw")
    assert judge.outcome_of("JOIN g4 ****") == ("error", "TOO_MANY_JOINS")


def test_H4_creates_a_day_are_counted_by_mailbox(tmp_path: Path) -> None:
    judge = Judge(tmp_path, max_creates_per_day=1)
    judge.confirmed(GM, "GM+second@example.org")
    judge.send(GM, "CREATE g2 gm-secret")
    assert judge.outcome_of("CREATE g2 ****") == ("ok", None)
    judge.send("GM+second@example.org", "CREATE g3 gm-secret")
    assert judge.outcome_of("CREATE g3 ****") == ("error", "TOO_MANY_CREATES")


def test_H4_games_observed_are_counted_by_mailbox_and_observing_twice_is_once(tmp_path: Path) -> None:
    judge = Judge(tmp_path, max_games_observed=1)
    judge.confirmed(CAROL, "Carol+watch@example.org")
    for name in ("g2", "g3"):
        judge.send(GM, f"CREATE {name} gm-secret")
    judge.send(CAROL, "OBSERVE g2")
    assert judge.outcome_of("OBSERVE g2") == ("ok", None)
    judge.send("Carol+watch@example.org", "OBSERVE g2")
    assert judge.outcome_of("OBSERVE g2") == ("ok", "ALREADY_OBSERVING")
    judge.send("Carol+watch@example.org", "OBSERVE g3")
    assert judge.outcome_of("OBSERVE g3") == ("error", "TOO_MANY_OBSERVED")
    judge.send("Carol+watch@example.org", "UNOBSERVE g2")  # the person stops, whichever address they write from
    assert judge.outcome_of("UNOBSERVE g2") == ("ok", None)
    judge.send(CAROL, "OBSERVE g3")
    assert judge.outcome_of("OBSERVE g3") == ("ok", None)


def test_H4_tokens_mailed_a_day_are_counted_by_mailbox(tmp_path: Path) -> None:
    """``max_confirmations_per_day`` of 2: a stranger asks for tokens for dan+1@, dan+2@ and dan+3@,
    which all land in dan's mailbox; the third is refused."""
    judge = Judge(tmp_path, max_confirmations_per_day=2)
    judge.send(GM, "CREATE g2 gm-secret")
    judge.new_mail()
    for tag in (1, 2, 3):
        judge.send(f"dan+{tag}@example.org", "OBSERVE g2", confirm=False)
    assert judge.outcome_of("OBSERVE g2") == ("error", "TOO_MANY_CONFIRMATIONS")
    assert len([mail for mail in judge.new_mail() if mail.subject.startswith("Please confirm")]) == 2


def test_H4_answers_an_hour_are_counted_by_mailbox(tmp_path: Path) -> None:
    """``max_replies_per_hour`` of 2: HELP from bob@, BOB@ and bob+x@ is three answers to one mailbox."""
    judge = Judge(tmp_path, max_replies_per_hour=2)
    for written in (BOB, SHOUTED_BOB):
        judge.send(written, "LIST")
        assert judge.last_to(written).subject.startswith("Re:")
    before = len(judge.all_mail())
    judge.send(TAGGED_BOB, "LIST")
    assert len(judge.all_mail()) == before  # applied, not answered


def finished_game(judge: Judge, name: str, seats: tuple[tuple[str, str], ...]) -> None:
    """Payola game ``name`` with ``seats`` (address, power), its first phase played, then ended by its
    master two days after its start."""
    start_game(judge, name, seats=seats)
    judge.later(49)
    judge.tick()
    judge.terminate(GM, f"SIGNON MASTER@{name} gm-secret")


def test_H4_the_hall_of_fame_keys_a_person_by_the_mailbox_never_the_local_part(tmp_path: Path) -> None:
    """alice@example.org plays g1 and, written otherwise, g3; alice@evil.example plays g2.  The hall
    has two rows named alice: the real one's with two games, the namesake's with one."""
    judge = Judge(tmp_path, web=True)
    judge.confirmed(ALICE, BOB, "alice@evil.example", "Alice+dip@example.org")
    finished_game(judge, "g1", ((ALICE, "FRANCE"), (BOB, "GERMANY")))
    finished_game(judge, "g2", (("alice@evil.example", "FRANCE"), (BOB, "GERMANY")))
    finished_game(judge, "g3", (("Alice+dip@example.org", "FRANCE"), (BOB, "GERMANY")))
    hall = read(web_root(judge.settings) / "halloffame.html")
    players = hall.table_with("Won")[1:]
    alices = sorted(row[3] for row in players if row[0] == "alice")
    assert alices == ["1", "2"], players
    assert [row[3] for row in players if row[0] == "bob"] == ["3"]
    assert "@" not in (web_root(judge.settings) / "halloffame.html").read_text()
    with judge.db.transaction() as session:
        assert session.scalars(select(Game.name).order_by(Game.name)).all() == ["g1", "g2", "g3"]
