"""A game's forms answered by SMTP through `judge serve`, as players' mail clients answer them.

A game is started in-process (the harness's `Judge`, its build played once per test process), then handed
to `judge serve`'s daemon on a free port of loopback (`Served`, on a virtual clock the test moves), which
runs it from then on: every mail the test sends goes by SMTP, and everything it asserts is read from the
daemon's Maildir (each text decoded as format=flowed, `tests.support.flowed.meant`) and from its database.

A player answers the mail that opened the phase (`opened`) in one of three ways, as a mail client lets one:

- `quoted`: the form at the top, its sign-on line's blank filled with the password and some of its other
  lines filled, the rest left as given, then the client's attribution line and the whole mail quoted (``> ``);
- `untouched`: the client's attribution line and the whole mail quoted, nothing of the player's own;
- `unquoted`: the form alone, filled, nothing quoted.

`Answer` is what the judge made of each line of such a reply, read from its words: the line it echoes
(``> line``) and the outcome under it (``ERROR:``, ``IGNORED:``, else ok).  A test of a form holds that no
line is refused that the player did not write, and that every line written is answered ok."""

from __future__ import annotations

import email
import email.policy
import smtplib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path

from sqlalchemy import select

from judge.mail.outbound import MaildirOutbox
from judge.service.hosting import host
from judge.service.hosting.kinds import Kinds
from judge.store.models import Game
from tests.support.clock import Clock
from tests.support.daemon import Running
from tests.support.flowed import meant
from tests.support.harness import Judge
from tests.support.wait import wait_until

JUDGE = "judge@localhost"
GAMES = Path(__file__).parent.parent / "games"
"""Where each kind's tests live, its forms' by SMTP in ``<kind>/test_form_by_smtp.py`` (`unanswered`)."""
ATTRIBUTION = "On Mon, 5 Jan 2026 at 12:00, The judge <judge@localhost> wrote:"
"""The line a mail client writes above the mail it quotes."""
BARRIER = "barrier@example.org"  # `Running.settled`'s


@dataclass(frozen=True)
class Mail:
    """A mail the daemon sent: its recipient, subject, Message-ID, the Message-ID it answers, its text as
    a reader shows it (format=flowed decoded)."""

    to: str
    subject: str
    message_id: str
    in_reply_to: str
    body: str

    @property
    def form(self) -> list[str]:
        """The form block the mail ends with, from its opening line to its end line."""
        lines = self.body.rstrip("\n").split("\n")
        opening = next(index for index, line in enumerate(lines) if line.startswith("%% form for"))
        assert lines[-1] == "%% end of form", self.body
        return lines[opening:]


@dataclass(frozen=True)
class Answer:
    """What the judge made of one line of a reply, as its answer says: the line as echoed (a password
    masked) and its outcome, ``ok``, ``error`` or ``ignored``."""

    text: str
    outcome: str


def unanswered(hosted: Kinds) -> list[str]:
    """The kinds of ``hosted`` whose forms no test answers by SMTP: each would go untested here."""
    return [kind.name for kind in hosted if not (GAMES / kind.name / "test_form_by_smtp.py").is_file()]


class Served:
    """`judge serve`'s daemon running ``judge``'s data directory (the harness's, its game started), on a
    port of loopback it chose itself and a virtual clock at the judge's moment; stopped by `stop`.  One
    deadline worker: there is one game to run, and each worker is an interpreter to start (seconds) the
    first time the clock jumps to a deadline."""

    def __init__(self, judge: Judge) -> None:
        judge.db.engine.dispose()
        self.settings = replace(judge.settings, port=0, tick_seconds=3600, settle_seconds=0, mta_flush="",
                                deadline_workers=1)
        self.clock = Clock(judge.now)
        self.running = Running(self.settings, self.clock, judge.kinds)
        self.known: set[str] = set()
        self.mails: list[Mail] = []

    def stop(self) -> None:
        self.running.stop()

    def read(self) -> list[Mail]:
        """Every mail the daemon's Maildir holds (the harness's before it too), oldest first, each read once."""
        for path in MaildirOutbox(self.settings.maildir).files(known=self.known):
            self.known.add(path.name)
            message = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
            assert isinstance(message, EmailMessage)
            text = message.get_body(preferencelist=("plain",))
            self.mails.append(Mail(str(message["To"]), str(message["Subject"]), str(message["Message-ID"]),
                                   str(message["In-Reply-To"] or ""),
                                   meant(str(text.get_content())) if text is not None else ""))
        return [mail for mail in self.mails if mail.to != BARRIER]

    def opened(self, address: str, subject: str) -> Mail:
        """The last mail to ``address`` with ``subject`` (waited for): the one that opened a phase."""
        wait_until(lambda: any(m.to == address and m.subject == subject for m in self.read()),
                   f"{subject!r} to {address}")
        return [mail for mail in self.read() if mail.to == address and mail.subject == subject][-1]

    def reply(self, sender: str, to: Mail, body: str) -> Mail:
        """Send ``body`` from ``sender`` by SMTP as a mail client answers ``to`` (its subject, In-Reply-To);
        the judge's answer to it, once in the Maildir (sent once the mail's transaction was committed: what
        the mail changed is in the database then)."""
        message = EmailMessage()
        message["From"], message["To"], message["Subject"] = sender, JUDGE, f"Re: {to.subject}"
        message["Message-ID"] = sent = make_msgid(domain="example.org")
        message["In-Reply-To"] = to.message_id
        message.set_content(body)
        with smtplib.SMTP("127.0.0.1", self.running.port, timeout=10) as client:
            client.send_message(message)
        wait_until(lambda: any(mail.in_reply_to == sent for mail in self.read()), f"the answer to {sender}")
        return next(mail for mail in self.read() if mail.in_reply_to == sent)

    def deadline(self, hours: float) -> None:
        """Move the clock ``hours`` on and have the daemon run the deadlines due then: once this returns, the
        games due have been run (their mail may still be on its way)."""
        self.clock.advance(hours=hours)
        self.running.ticked()

    def phase(self, game: str) -> str | None:
        """The phase ``game`` is in."""
        with self.running.daemon.db.transaction() as session:
            return session.scalars(select(Game.phase).where(Game.name == game)).one()

    def close(self, game: str, phase: str, hours: float) -> None:
        """Have ``phase`` of ``game`` closed: at once if it closed early, once every seat had acted, else at
        its deadline, ``hours`` on (not moving the clock past the next phase's deadline in the first case)."""
        self.running.settled()
        if self.phase(game) == phase:
            self.deadline(hours)

    def kept(self, game: str, phase: str) -> dict[tuple[str, str], str]:
        """The text of each seat's latest submission of each kind in ``phase`` of ``game``."""
        with self.running.daemon.db.transaction() as session:
            found = session.scalars(select(Game).where(Game.name == game)).one()
            return host.latest_texts(session, found, phase)


def quoted(mail: Mail, password: str, filled: Mapping[str, str]) -> str:
    """A reply to ``mail`` with its form at the top, the sign-on line's blank replaced by ``password`` and
    each line of ``filled`` replaced by its value (`fill`; the others left as the form gave them), then the mail
    quoted whole below the client's attribution line."""
    return "\n".join([*fill(mail, password, filled), "", ATTRIBUTION, *quote(mail.body)])


def untouched(mail: Mail) -> str:
    """A reply to ``mail`` that is only the mail quoted, below the client's attribution line."""
    return "\n".join([ATTRIBUTION, *quote(mail.body)])


def unquoted(mail: Mail, password: str, filled: Mapping[str, str]) -> str:
    """A reply to ``mail`` that is its form alone, nothing quoted: the sign-on line's blank replaced by
    ``password`` and each line of ``filled`` replaced by its value (`fill`), the others left as the form gave
    them."""
    return "\n".join(fill(mail, password, filled))


def fill(mail: Mail, password: str, filled: Mapping[str, str]) -> list[str]:
    """``mail``'s form with ``password`` in its sign-on line and each line of ``filled`` replaced, where the
    form has it more than once (``BUILD _`` in two corporations' blocks) its first only."""
    left = dict(filled)
    return [left.pop(line, line) for line in (signed(line, password) for line in mail.form)]


def signed(line: str, password: str) -> str:
    """A form's sign-on line with ``password`` in its blank; any other line as it is."""
    words = line.split()
    return f"{words[0]} {words[1]} {password}" if len(words) == 3 and words[0] == "SIGNON" and words[2] == "_" \
        else line


def quote(body: str) -> list[str]:
    """``body``'s lines as a mail client quotes them."""
    return [f"> {line}" if line else ">" for line in body.rstrip("\n").split("\n")]


def answers(reply: Mail) -> list[Answer]:
    """What the judge made of each line of a mail, read from its answer ``reply``."""
    lines = reply.body.split("\n")
    found = []
    for index, line in enumerate(lines):
        if line.startswith("> "):
            after = lines[index + 1] if index + 1 < len(lines) else ""
            outcome = "error" if after.startswith("  ERROR:") else "ignored" if after.startswith("  IGNORED:") \
                else "ok"
            found.append(Answer(line[2:], outcome))
    return found


def refused(reply: Mail) -> list[Answer]:
    """The lines ``reply`` answers as refused or ignored."""
    return [answer for answer in answers(reply) if answer.outcome != "ok"]


def answered(reply: Mail) -> set[str]:
    """The lines ``reply`` answers, whatever their outcome."""
    return {answer.text for answer in answers(reply)}


def frames(mail: Mail) -> set[str]:
    """The lines of ``mail``'s form that frame others (``FOR FRANCE``, ``END``): read as written, no choice."""
    return {line for line in mail.form if "_" not in line.split() and not line.startswith(("%", "SIGNON "))}


def written(lines: Iterable[str], signon: str) -> set[str]:
    """The lines a player wrote, as the answer echoes them: ``lines`` and the sign-on line ``signon`` with
    its password masked."""
    words = signon.split()
    return {*lines, f"{words[0]} {words[1]} ****"}
