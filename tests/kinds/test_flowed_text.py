"""Every kind's mail reads on a phone (issue 69.2): each text part is format=flowed, no line is over
72 characters, and read back by a reader of RFC 3676 (`tests.support.flowed`, ``formatflowed``) it
gives back every word the judge wrote, in order, with every table's, list's and answer's line as it
was written: never joined to another, never broken, at 40 columns as at 72.  So does every answer to
HELP (the index, each kind's help and each of its topics, each of the host's topics, to a stranger, a
seated player and the game master), and HELP ALL's attachment, a text no reader reflows, keeps
within 72 characters a line."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import select

from judge.mail.flowed import WIDTH, is_fixed
from judge.service.incoming import help_topics
from judge.store.models import Outbox
from tests.kinds.scripts import GAME, GM, Script, address, master, send, start, state
from tests.support.flowed import chunks, on_a_phone
from tests.support.harness import Judge, Sent, once


def _play(tmp_path: Path, script: Script) -> Judge:
    """A game of ``script``'s kind started, a player's HELP and CHECK answered, its first phase
    played and processed, rolled back and processed again where the kind can, then ended: played once per
    test process and kind, then copied (`once`), as two tests read it."""
    return once(Judge(tmp_path, kinds=script.kinds()), _played, script)


def _played(judge: Judge, script: Script) -> None:
    start(judge, script)
    starts = {name: judge.last_to(address(name)) for name, _, _ in script.players}
    first = script.players[0][0]
    send(judge, script, first, "CHECK", *script.order(first, starts[first]))
    for name, _, _ in script.players:
        send(judge, script, name, *script.order(name, starts[name]))
    master(judge, "PROCESS")
    if script.rolls_back:
        master(judge, "ROLLBACK", "RESUME", "PROCESS")
    judge.send("stranger@example.org", f"WHOGAME {GAME}")
    if state(judge)[0] != "finished":  # the test kind's game of two lots may be over already
        judge.terminate(GM, f"SIGNON MASTER@{GAME} gm-pw")


def _asked_for_help(tmp_path: Path, script: Script) -> Judge:
    """A game of ``script``'s kind started, and every HELP asked of the judge: by a stranger (the index,
    all of it, each kind's help and each of its topics, each of the host's topics), by the game's first
    player (its game's help, each of the host's topics and of its kind's) and by its game master: played
    once per test process and kind, then copied (`once`), as two tests read it."""
    return once(Judge(tmp_path, kinds=script.kinds()), _asked, script)


def _asked(judge: Judge, script: Script) -> None:
    start(judge, script)
    kinds = script.kinds()  # the kinds `start` hosts
    host = [topic.name for topic in help_topics.host_part(judge.settings, kinds).topics]
    stranger = ["", "INDEX", "ALL", *host]
    for kind in kinds:
        stranger += [kind.name, *(f"{kind.name} {topic.name}"
                                  for topic in help_topics.kind_part(judge.settings, kind).topics)]
    for words in stranger:
        judge.send("stranger@example.org", f"HELP {words}".strip())
    own = [topic.name for topic in help_topics.kind_part(judge.settings, kinds.named(script.kind)).topics]
    first = script.players[0][0]
    for words in ("", *host, *own):
        send(judge, script, first, f"HELP {words}".strip())
    master(judge, "HELP", "HELP master")


def _long_lines(judge: Judge) -> set[tuple[str, str]]:
    """Each line over 72 characters of the text the judge sent, as sent, with its mail's subject."""
    return {(mail.subject, line) for mail in judge.all_mail() for line in _wire(mail).splitlines()
            if len(line) > WIDTH}


def _read_back(judge: Judge) -> None:
    """Every mail the judge sent read back by a phone gives back what the judge wrote (see the test)."""
    written = _written(judge)
    mails = judge.all_mail()
    assert mails
    for mail in mails:
        wire, text = _wire(mail), written[mail.headers["Message-ID"]]
        read = chunks(wire)
        assert " ".join(c.text for c in read).split() == text.split(), mail.subject
        fixed = [line.rstrip(" ") for line in text.splitlines() if is_fixed(line.rstrip(" ")) and line.strip()]
        short = [line for line in fixed if len(line) < WIDTH]  # a fixed line of 72 with its stuffing is broken
        lines = [c.text for c in read]
        phone = on_a_phone(wire, 40)
        for line in short:
            assert line in lines and line in phone, (mail.subject, line)
        for paragraph in (c.text for c in read if c.paragraph):
            assert "  " not in paragraph.lstrip(" "), (mail.subject, paragraph)  # no table's row in it


def _written(judge: Judge) -> dict[str, str]:
    """The text the judge wrote for each mail it sent (the outbox's, before it was flowed), by Message-ID."""
    with judge.db.transaction() as session:
        return {row.message_id or "": row.body or "" for row in session.scalars(select(Outbox))}


def _wire(mail: Sent) -> str:
    """A mail's text part as sent (soft spaces and stuffing in it), and that it says it is flowed."""
    part = mail.message.get_body(preferencelist=("plain",))
    assert part is not None
    assert (part.get_param("format"), part.get_param("delsp")) == ("flowed", "no"), mail.subject
    return str(part.get_content())


def test_every_kinds_mail_is_flowed_and_no_line_is_over_72_characters(tmp_path: Path, script: Script) -> None:
    long = _long_lines(_play(tmp_path, script))
    assert not long, "\n".join(f"{subject}: {line}" for subject, line in sorted(long))


def test_every_kinds_mail_read_by_a_phone_gives_back_what_the_judge_wrote(tmp_path: Path, script: Script) -> None:
    """Every word in order; each fixed line (a table's, a list's, an answer's, a form's) alone on its
    line, whole, in the decoded text and at 40 columns; each paragraph made of the prose lines alone."""
    _read_back(_play(tmp_path, script))


def test_every_answer_to_help_is_flowed_and_no_line_is_over_72_characters(tmp_path: Path, script: Script) -> None:
    judge = _asked_for_help(tmp_path, script)
    long = _long_lines(judge)
    assert not long, "\n".join(f"{subject}: {line}" for subject, line in sorted(long))
    attached = [mail.attachments["help.txt"][1].decode() for mail in judge.all_mail() if "help.txt" in mail.attachments]
    assert len(attached) == 1  # HELP ALL's, the one answer too long for the reply
    assert max(len(line) for line in attached[0].splitlines()) <= WIDTH


def test_every_answer_to_help_read_by_a_phone_gives_back_what_the_judge_wrote(tmp_path: Path,
                                                                              script: Script) -> None:
    """As every kind's mail does: every word in order, each command's line alone and whole, each
    explanation and paragraph a paragraph that reflows at 40 columns."""
    _read_back(_asked_for_help(tmp_path, script))
