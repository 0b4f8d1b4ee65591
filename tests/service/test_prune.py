"""The database does not grow with every mail forever (issue 24, item 14): a sent mail's
attachments are dropped ``attachment_days`` after it went, by the deadline clock, and ``judge
prune`` drops the rest of what old mail weighs; neither touches what a game needs."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from sqlalchemy import func, select, update

from judge.games.payola import handlers as payola_handlers
from judge.service.operators import operator
from judge.service.outgoing.sender import deliver_pending, transport_for
from judge.service.running.app import run_deadlines
from judge.store.models import Blob, InboundMail, Outbox, OutboxFile
from judge.web.pages import publish_all
from tests.support.cli import options, run
from tests.support.harness import Judge, last_outbox_id, raw_mail, two_player_game

GM, ALICE, BOB = "gm@example.org", "alice@example.org", "bob@example.org"
MASTER = "SIGNON MASTER@g1 gm-secret\n"


def attachments(judge: Judge) -> tuple[set[int], set[str]]:
    """The outbox rows that still have files, and the blobs stored."""
    with judge.db.transaction() as session:
        return (set(session.scalars(select(OutboxFile.outbox_id))), set(session.scalars(select(Blob.sha256))))


def test_the_clock_drops_a_sent_mails_attachments_after_attachment_days_and_keeps_unsent_ones(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    judge = two_player_game(Judge(tmp_path, maps=True, maps_default="all"))
    judge.send(GM, f"{MASTER}PROCESS")  # S1901M's results and maps, to both players and the master
    judge.later(2)
    judge.send(GM, f"{MASTER}PROCESS")  # F1901M's
    judge.deliver()
    with judge.db.transaction() as session:
        second = set(session.scalars(select(OutboxFile.outbox_id).join(Outbox).where(Outbox.created_at == judge.now)))
        second_blobs = set(session.scalars(select(OutboxFile.sha256).where(OutboxFile.outbox_id.in_(second))))
        waiting = min(second)  # one of F1901M's mails waits for the relay's next try
        session.execute(update(Outbox).where(Outbox.id == waiting).values(status="pending", sent_at=None,
                                                                           next_attempt_at=judge.now))
        kept = set(session.scalars(select(OutboxFile.sha256).where(OutboxFile.outbox_id == waiting)))
    blobs = attachments(judge)[1]
    assert second_blobs < blobs and kept == second_blobs  # S1901M's maps, and F1901M's
    judge.later(24 * 7 - 1)  # S1901M's mail went 7 days and an hour ago, F1901M's less than 7 days ago
    run_deadlines(judge.db, judge.settings, judge.now)
    assert attachments(judge) == (second, second_blobs)
    judge.later(2)
    run_deadlines(judge.db, judge.settings, judge.now)
    assert attachments(judge) == ({waiting}, kept)  # only the mail not yet sent keeps its maps
    deliver_pending(judge.db, judge.settings, transport_for(judge.settings), judge.now)
    assert [len(mail.attachments) for mail in judge.new_mail() if mail.subject == "g1 F1901M results"][-1] == 3
    monkeypatch.setattr(operator, "now_on", lambda db: judge.now)
    status, out = run(capsys, "resend", "--again", str(min(second - {waiting})), *options(judge))
    assert status == 0 and "sent (without the attachments it had, if any: a sent mail's are dropped 7 days" in out
    assert [len(mail.attachments) for mail in judge.new_mail() if mail.subject == "g1 F1901M results"] == [0]


def prune(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, judge: Judge,
          *arguments: str) -> tuple[int, str]:
    """``judge prune ARGUMENTS`` on the judge, at the judge's time."""
    monkeypatch.setattr(operator, "now_on", lambda db: judge.now)
    return run(capsys, "prune", *arguments, *options(judge))


def content(judge: Judge) -> dict[str, int]:
    """Bytes of old mail in the database: sent mail's text, blobs, received mail's raw copies."""
    with judge.db.transaction() as session:
        bodies = session.scalars(select(Outbox.body).where(Outbox.body.is_not(None)))
        return {"text": sum(len(body.encode()) for body in bodies),
                "blobs": session.scalar(select(func.coalesce(func.sum(func.length(Blob.data)), 0))) or 0,
                "raw": session.scalar(select(func.coalesce(func.sum(func.length(InboundMail.raw)), 0))) or 0}


def said(out: str, pattern: str) -> int:
    found = re.search(pattern, out)
    assert found, out
    return int(found.group(1).replace(",", ""))


def test_judge_prune_frees_what_it_says_and_the_game_plays_on(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    judge = two_player_game(Judge(tmp_path, maps=True, web=True, maps_default="all"))
    sheet = raw_mail(ALICE, "SIGNON F@g1 alice-pw\n2 : A PAR - BUR", message_id="<sheet@example.org>")
    judge.send_raw(sheet)
    judge.send(BOB, "SIGNON G@g1 bob-pw\n1 : A MUN - RUH")  # both sheets in: S1901M is processed
    with monkeypatch.context() as patch:  # a mail quarantined by a fault: kept whole for judge quarantine
        patch.setattr(payola_handlers, "parse_acceptance", lambda *_: (_ for _ in ()).throw(RuntimeError("bug")))
        assert judge.send(ALICE, "SIGNON F@g1 alice-pw\nACCEPT FG") == "quarantined"
    judge.later(24 * 31)
    before = content(judge)
    status, out = prune(capsys, monkeypatch, judge)
    after = content(judge)
    assert status == 0
    assert said(out, r"the text of \d+ mail\(s\) dropped \(([\d,]+) bytes\)") == before["text"] - after["text"] > 0
    assert said(out, r"no mail uses any more: \d+ deleted \(([\d,]+) bytes\)") == before["blobs"] > 0
    assert said(out, r"the raw copy of \d+ mail\(s\) dropped \(([\d,]+) bytes\)") == before["raw"] - after["raw"] > 0
    assert after["text"] == after["blobs"] == 0  # everything was sent a month ago
    with judge.db.transaction() as session:
        kept = list(session.scalars(select(InboundMail.raw).where(func.length(InboundMail.raw) > 0)))
    assert len(kept) == 1 and b"alice-pw" in kept[0]  # the quarantined mail, and nothing else
    assert after["raw"] == len(kept[0])

    assert judge.send_raw(sheet) == "duplicate"  # a copy of an old mail is still known
    judge.send("stranger@example.org", "HISTORY g1")
    history = judge.last_to("stranger@example.org").body
    assert "S1901M" in history and "A PAR - BUR" in history
    shutil.rmtree(judge.settings.data_dir / "web")
    publish_all(judge.db, judge.settings)  # every page made again from what is left
    assert (judge.settings.data_dir / "web" / "games" / "g1" / "S1901M.html").exists()
    assert list((judge.settings.data_dir / "web" / "games" / "g1").glob("S1901M-orders-*.png"))
    judge.send(GM, f"{MASTER}ROLLBACK")
    assert "rolled back to S1901M" in judge.last_to(GM).body
    judge.send(GM, f"{MASTER}RESUME\nPROCESS")
    results = [mail for mail in judge.new_mail() if mail.subject == "g1 S1901M results"]
    assert results and "A PAR - BUR" in results[0].body and len(results[0].attachments) == 3


def test_prune_keeps_mail_not_yet_sent_or_applied(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    judge = two_player_game(Judge(tmp_path, maps=True, maps_default="all"))
    judge.send(GM, f"{MASTER}PROCESS")
    judge.deliver()
    unsent = b"Subject: x\r\n\r\nHELP\r\n"
    with judge.db.transaction() as session:
        failed, pending = list(session.scalars(select(Outbox.id).where(Outbox.subject == "g1 S1901M results")))[:2]
        session.execute(update(Outbox).where(Outbox.id == failed).values(status="failed"))  # an address broken
        session.execute(update(Outbox).where(Outbox.id == pending).values(status="pending", sent_at=None,
                                                                           next_attempt_at=judge.now))
        session.add(InboundMail(raw=unsent, received_at=judge.now, status="new"))  # stored, not yet applied
    judge.later(24 * 2)
    stored = attachments(judge), content(judge)
    assert prune(capsys, monkeypatch, judge)[0] == 0  # only what is 30 days old: nothing yet
    assert (attachments(judge), content(judge)) == stored
    assert prune(capsys, monkeypatch, judge, "--older-than", "0")[0] == 0
    with judge.db.transaction() as session:
        assert session.get_one(Outbox, failed).body is None  # failed and done with: pruned with the rest
        row = session.get_one(Outbox, pending)
        assert row.body is not None and len(row.files) == 3  # still to go: whole
        assert session.scalar(select(InboundMail.raw).where(InboundMail.status == "new")) == unsent
    assert attachments(judge) == ({pending}, {file.sha256 for file in row.files})
    status, out = run(capsys, "resend", str(failed), *options(judge))
    assert status == 1 and "its text was dropped by judge prune" in out


def test_resend_all_says_which_failed_mails_it_cannot_send_and_why(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """Failed mail whose text judge prune dropped is listed by judge queue, but cannot be sent
    again: judge resend --all says so instead of a bare "nothing to send again"."""
    judge = two_player_game(Judge(tmp_path))
    before = last_outbox_id(judge.db)
    judge.send(ALICE, "HELP")
    judge.send(BOB, "HELP")
    with judge.db.transaction() as session:  # both answers failed (the relay refused them for good)
        session.execute(update(Outbox).where(Outbox.id > before).values(status="failed"))
    judge.later(24 * 31)
    assert prune(capsys, monkeypatch, judge)[0] == 0
    status, out = run(capsys, "queue", "--state", "failed", *options(judge))
    assert status == 0 and out.count("its text was dropped by judge prune: it cannot be sent again") == 2
    status, out = run(capsys, "resend", "--all", *options(judge))
    assert status == 0 and out.splitlines() == ["2 failed mail(s) cannot be sent again: judge prune dropped their text "
                                "(judge queue --state failed lists them)", "nothing to send again"]


def test_a_map_drawn_as_text_is_stored_compressed_and_sent_as_drawn(tmp_path: Path) -> None:
    """A phase's SVG map is text: its blob is kept compressed with zlib (a third of it, or less),
    while its PNG, compressed already, is kept as it is; the mail sent carries the map as drawn."""
    judge = two_player_game(Judge(tmp_path, maps=True, maps_default="all"))
    judge.send(GM, f"{MASTER}PROCESS")
    sent = next(mail for mail in judge.new_mail() if mail.subject == "g1 S1901M results")
    with judge.db.transaction() as session:
        kept = {name: (blob.encoding, len(blob.data), blob.content) for name, blob in session.execute(
            select(OutboxFile.filename, Blob).join(Blob, Blob.sha256 == OutboxFile.sha256)
            .where(OutboxFile.filename.in_(sent.attachments)))}
    svg = next(name for name in kept if name.endswith(".svg"))
    png = next(name for name in kept if name.endswith(".png"))
    assert kept[svg][0] == "zlib" and kept[svg][1] * 3 < len(sent.attachments[svg][1])
    assert kept[png][0] is None and kept[png][1] == len(sent.attachments[png][1])
    assert kept[svg][2] == sent.attachments[svg][1] and kept[png][2] == sent.attachments[png][1]
