"""The operators' drill "an import into a judge that shares players" (two judges merging), by the
command line as an operator types it: ``judge export g1 -o g1.json`` on the judge the game leaves,
``judge import g1.json`` (and ``judge import --replay g1.json``) on a judge where its master and
two of its players already played.

The judge imported to keeps what it knows of them (their consent, their records, to which the
game's lines are added) and checks only the game; a player it has never heard from gets the
consent round trip, not a password, and the game's mail to her is held until she confirms; the
observers are told of the move; a failed import, copied or replayed, leaves nothing."""

from __future__ import annotations

import json
import os
import re
import stat
from datetime import datetime
from pathlib import Path

import pytest
from sqlalchemy import func, select

from judge.bootstrap import main
from judge.service.outgoing import outbox
from judge.store.models import (
    Confirmation,
    ConfirmedAddress,
    Game,
    InboundMail,
    Observer,
    Outbox,
    PhaseRow,
    Player,
    PlayerRecord,
    Submission,
)
from tests.support.cli import options, run
from tests.support.harness import Judge, start_game
from tests.support.people import ALICE, BOB, CAROL, GM, OBSERVER

BEFORE = datetime(2025, 11, 3, 12, 0)  # when the judge imported to saw its first game of these players
MOVED = datetime(2026, 1, 9, 12, 0)
PASSWORD = re.compile(r"new password for g1 is:\n\n +(\S+)")
TOKEN = re.compile(r"^CONFIRM (\S+) yourpassword$", re.M)


def first_judge(folder: Path) -> Judge:
    """g1 on the judge it leaves: created at noon, its players joining an hour later (so that none
    of them had confirmed before its first mail), Olga observing; spring played, fall open."""
    judge = Judge(folder)
    judge.send(GM, "CREATE g1 gm-secret")
    judge.later(1)
    for address, power in ((ALICE, "FRANCE"), (BOB, "GERMANY"), (CAROL, "ENGLAND")):
        judge.send(address, f"JOIN g1 {address.partition('@')[0]}-pw {power}")
    judge.send(OBSERVER, "OBSERVE g1")
    judge.send(GM, "SIGNON MASTER@g1 gm-secret\nSTART")
    judge.send(ALICE, "SIGNON F@g1 alice-pw\n2 : A PAR - BUR")
    judge.later(49)
    judge.tick()
    return judge


def judge_they_use(folder: Path) -> Judge:
    """The judge imported to: its master, Alice and Bob played g9 there weeks before (finished), and
    Olga observes games there; Carol has never written to it."""
    judge = Judge(folder, now=BEFORE)
    start_game(judge, "g9", seats=((ALICE, "FRANCE"), (BOB, "GERMANY")))
    judge.later(49)
    judge.tick()
    judge.terminate(GM, "SIGNON MASTER@g9 gm-secret")
    judge.confirmed(OBSERVER)
    judge.now = MOVED
    return judge


def counts(judge: Judge) -> dict[str, int]:
    """How many rows of each table that an import writes the judge holds."""
    with judge.db.transaction() as session:
        return {table.__tablename__: session.scalar(select(func.count()).select_from(table)) or 0
                for table in (Game, Player, Observer, PhaseRow, Submission, InboundMail, Outbox, PlayerRecord,
                              ConfirmedAddress, Confirmation)}


def consent(judge: Judge) -> dict[str, datetime]:
    with judge.db.transaction() as session:
        return {row.address: row.confirmed_at for row in session.scalars(select(ConfirmedAddress))}


@pytest.mark.parametrize("replayed", [False, True], ids=["copied", "replayed"])
def test_a_game_moves_to_a_judge_its_players_already_use(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], replayed: bool) -> None:
    first = first_judge(tmp_path / "first")
    saved = tmp_path / "g1.json"
    previous = os.umask(0o022)  # the operator's usual umask: other users may read new files
    try:
        assert run(capsys, "export", "g1", "-o", str(saved), *options(first)) == (0, "")
    finally:
        os.umask(previous)
    assert stat.S_IMODE(saved.stat().st_mode) == 0o600  # every address of the game: the database's mode
    assert json.loads(saved.read_text())["confirmed"] == [GM]  # on the first judge only its master, before

    second = judge_they_use(tmp_path / "second")
    known, before = consent(second), counts(second)
    changed = json.loads(saved.read_text())
    changed["kind"]["phases"].reverse()  # Payola's marks of its phases, out of their order: found once written
    failed = tmp_path / "changed.json"
    failed.write_text(json.dumps(changed))
    assert main(["import", *(["--replay"] if replayed else []), str(failed), *options(second)]) == 1
    refusal = capsys.readouterr().err
    assert refusal == ("judge: the replay differs from the record: the kind's own records differ\n" if replayed else
                       "judge: the game as imported differs from its record at kind.phases[0].phase: the record does "
                       "not hold together as a game of this judge (judge import --replay says which phase)\n")
    assert counts(second) == before  # the failed import left nothing, in either mode

    status, printed = run(capsys, "import", *(["--replay"] if replayed else []), str(saved), *options(second))
    assert status == 0
    assert printed == (f"g1 imported; new passwords mailed to {GM}, {ALICE}, {BOB}; the move told to its observers "
                       f"{OBSERVER}; asked to confirm first (their mail of the game is held until they do): {CAROL} "
                       "(5 mail(s) sent)\n")
    assert consent(second) == known  # its consent kept as it was: nothing added, no time moved
    with second.db.transaction() as session:  # Alice's record holds both games now, g9's lines untouched
        games = dict(session.execute(select(Game.id, Game.name)).all())
        alice = sorted({games[row.game_id] for row in session.scalars(select(PlayerRecord).where(
            PlayerRecord.address == ALICE))})
    assert alice == ["g1", "g9"]

    mails = {mail.to: mail for mail in second.new_mail()}
    assert set(mails) == {GM, ALICE, BOB, OBSERVER, CAROL}
    assert "You observe it" in mails[OBSERVER].body and "password" not in mails[OBSERVER].body
    assert PASSWORD.search(mails[CAROL].body) is None and TOKEN.search(mails[CAROL].body)
    master = f"SIGNON MASTER@g1 {PASSWORD.findall(mails[GM].body)[0]}"

    second.send(GM, master + "\nPROCESS")  # fall processed on the judge moved to
    results = [mail for mail in second.new_mail() if mail.subject == "g1 F1901M results"]
    assert {mail.to for mail in results} == {ALICE, BOB, OBSERVER}  # not Carol: held until she confirms
    with second.db.transaction() as session:
        held = session.scalars(select(Outbox.subject).where(Outbox.recipient == CAROL,
                                                            Outbox.status == outbox.HELD)).all()
    assert held == ["g1 F1901M results"]

    token = TOKEN.search(mails[CAROL].body)
    assert token is not None
    second.send(CAROL, f"CONFIRM {token.group(1)} carols-own", confirm=False)
    assert second.outcome_of(f"CONFIRM {token.group(1)} ****") == ("ok", None)
    assert [mail.subject for mail in second.new_mail() if mail.to == CAROL] == [
        "g1 F1901M results", "Re: orders"]  # what was held for her, in the order it was written, then her answer
    assert "the 1 mail of g1 held for you since the move goes out now" in second.answer(
        f"CONFIRM {token.group(1)} ****").message
    second.send(CAROL, "SIGNON E@g1 carols-own\nSTATUS")
    assert second.outcome_of("SIGNON E@g1 ****")[0] == "ok"


def test_a_game_moves_to_a_judge_that_knows_nobody_mailing_nobody_a_password(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Every address of the game is asked first: five requests to confirm, no password, and each
    player's and the master's mail held until they do."""
    first = first_judge(tmp_path / "first")
    saved = tmp_path / "g1.json"
    assert run(capsys, "export", "g1", "-o", str(saved), *options(first)) == (0, "")
    second = Judge(tmp_path / "second", now=MOVED)
    status, printed = run(capsys, "import", str(saved), *options(second))
    assert status == 0 and printed == (f"g1 imported; asked to confirm first (their mail of the game is held until "
                                       f"they do): {GM}, {ALICE}, {BOB}, {CAROL}, {OBSERVER} (5 mail(s) sent)\n")
    mails = second.new_mail()
    assert sorted(mail.to for mail in mails) == sorted([GM, ALICE, BOB, CAROL, OBSERVER])
    assert all(mail.subject == "Please confirm: g1 has moved to this judge" and PASSWORD.search(mail.body) is None
               for mail in mails)
