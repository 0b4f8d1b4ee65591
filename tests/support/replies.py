"""The judge's replies as the tests of its reading read them: the one mail an address got, the
answer under a line's echo."""

from __future__ import annotations

from tests.support.harness import Judge, Sent


def reply_to(judge: Judge, address: str) -> Sent:
    """The one mail ``address`` got since the mail was last read (others may have got theirs)."""
    mails = [m for m in judge.new_mail() if m.to == address]
    assert len(mails) == 1, [(m.to, m.subject) for m in mails]
    return mails[0]


def only_reply(judge: Judge, to: str) -> str:
    """The text of the one mail the judge sent since the mail was last read, which went to ``to``."""
    mails = judge.new_mail()
    assert [m.to for m in mails] == [to], [(m.to, m.subject) for m in mails]
    return mails[0].body


def answer(body: str, line: str) -> str:
    """The answer line under the echo of ``line`` in a reply."""
    lines = body.splitlines()
    return lines[lines.index(f"> {line}") + 1].strip()


def info_lines(body: str, line: str) -> list[str]:
    """The answer's lines under the echo of ``line``, up to the next echo."""
    lines = body.splitlines()
    found = []
    for text in lines[lines.index(f"> {line}") + 1:]:
        if text.startswith(">") or text.startswith("-- "):
            break
        found.append(text.strip())
    return [text for text in found if text]
