"""Consent after a game's import (`judge.service.operators.importing.moved`,
`judge.service.incoming.handlers.moved`): the judge imported to mails a password only to an address it
has confirmed; any other gets a token to send back with a password of its own choosing, its game mail
held until it does."""

from __future__ import annotations

import re
from pathlib import Path

from sqlalchemy import select

from judge.service.operators import importing
from judge.service.outgoing import outbox
from judge.service.outgoing.sender import deliver_pending, transport_for
from judge.store.models import Outbox
from tests.service.every_kind import PAYOLA
from tests.service.test_game_records import played, record_of
from tests.support.harness import Judge
from tests.support.people import ALICE, BOB, GM

TOKEN = re.compile(r"^CONFIRM (\S+)", re.M)


def imported(judge: Judge, first: Judge) -> importing.Imported:
    """g1 of ``first`` imported on ``judge`` at ``first``'s moment, its mail sent, as ``judge import`` does."""
    done = importing.import_record(judge.db, judge.settings, record_of(first, "g1"), first.now)
    deliver_pending(judge.db, judge.settings, transport_for(judge.settings), first.now)
    return done


def held_for(judge: Judge, address: str) -> list[str]:
    """The subjects of the mail ``judge`` holds for ``address``."""
    with judge.db.transaction() as session:
        return list(session.scalars(select(Outbox.subject).where(Outbox.recipient == address,
                                                                 Outbox.status == outbox.HELD)))


def forming(folder: Path) -> Judge:
    """g1 created by its master, Alice and Bob joined (France and Germany wished), not started."""
    judge = Judge(folder)
    judge.send(GM, "CREATE g1 gm-secret")
    judge.send(ALICE, "JOIN g1 alice-pw FRANCE")
    judge.send(BOB, "JOIN g1 bob-pw GERMANY")
    return judge


def test_a_player_who_joined_a_game_not_yet_started_is_told_so_and_confirms_as_such(tmp_path: Path) -> None:
    """Before the start a player has no seat: Alice, whom the judge moved to knows, gets a new
    password as a player who joined (not as its master); Bob, whom it does not know, is asked,
    confirms with his own password, and then the master starts the game there with both."""
    first = forming(tmp_path / "a")
    other = Judge(tmp_path / "b", now=first.now)
    other.confirmed(GM, ALICE)
    done = imported(other, first)
    assert (done.told, done.asked) == ([GM, ALICE], [BOB])
    mails = {mail.to: mail for mail in other.new_mail()}
    assert "You have joined it; it has not started yet." in mails[ALICE].body
    assert "game master" not in mails[ALICE].body.split("Your new password")[0]
    assert "a player who has joined it, before its start" in mails[BOB].body
    token = TOKEN.search(mails[BOB].body)
    assert token is not None
    other.send(BOB, f"CONFIRM {token.group(1)} bobs-own", confirm=False)
    assert other.answer(f"CONFIRM {token.group(1)} ****").message.startswith(
        "you have joined g1 on this judge, with the password you chose")
    master = re.search(r"new password for g1 is:\n\n +(\S+)", mails[GM].body)
    assert master is not None
    other.send(GM, f"SIGNON MASTER@g1 {master.group(1)}\nSTART")
    assert other.outcome_of("START") == ("ok", None)


def test_a_master_the_judge_does_not_know_confirms_and_signs_on_with_the_password_he_chose(tmp_path: Path) -> None:
    """The master asked first: nothing of the game reaches him (his chart of Spring 1902, processed
    at its deadline meanwhile, is held); his CONFIRM gives him the password he chose and sends it."""
    first = played(Judge(tmp_path / "a"), PAYOLA, finished=False)
    other = Judge(tmp_path / "b", now=first.now)
    other.confirmed(*(seat.address for seat in PAYOLA.seats))
    done = imported(other, first)
    assert done.asked == [GM]
    asked = other.last_to(GM)
    assert asked.subject == "Please confirm: g1 has moved to this judge" and "its game master" in asked.body
    other.new_mail()
    other.later(PAYOLA.hours + 1)
    other.tick()
    assert GM not in {mail.to for mail in other.new_mail()}
    assert held_for(other, GM) == ["g1 S1902M chart"]  # what the master is mailed of a processed phase
    token = TOKEN.search(asked.body)
    assert token is not None
    other.send(GM, f"CONFIRM {token.group(1)} masters-own", confirm=False)
    assert other.outcome_of(f"CONFIRM {token.group(1)} ****") == ("ok", None)
    other.send(GM, "SIGNON MASTER@g1 masters-own\nSTATUS")
    assert other.outcome_of("SIGNON MASTER@g1 ****")[0] == "ok"
    assert held_for(other, GM) == []
