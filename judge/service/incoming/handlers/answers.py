"""The reply to one mail, as its conversation builds it: an answer to each line, in order, what is
attached, and what one reply may cost (`judge.service.incoming.handlers.conversation`).

A line is quoted as written (its passwords masked) with what became of it (`Echo`): at most `QUOTED`
characters of it, and once the reply has quoted `QUOTED_IN_ALL` characters of the mail, `BRIEFLY` of each
line after and half as many of its answer, even one the game gives later (`Answers.mark`); a long answer
(HISTORY, SUMMARY) is attached rather than written out (`LONG` lines), and cut at `LONGEST` characters;
nothing is answered or attached past ``max_reply_bytes``.  The mail's last lines, when they are a short
run that no grammar reads, are its sign-off, and its first such lines before a command its greeting:
ignored, and said to be.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from sqlalchemy.orm import Session

from judge.language import gettext as _
from judge.language import ngettext
from judge.mail.inbound import InboundMail
from judge.mail.outbound import Attachment
from judge.service import zones
from judge.service.config import Settings
from judge.store.models import Game

LONG = 60  # lines: a longer answer is an attachment, not a body of thousands of lines
LONGEST = 300_000  # characters of one long answer (HISTORY, SUMMARY...): the rest is asked for in parts
QUOTED = 2000  # characters of a line the reply quotes, and twice those of its answer (`_brief`): no command is longer
QUOTED_IN_ALL = 30_000  # characters the reply quotes of the mail's lines (a whole Payola sheet): then briefly
BRIEFLY = 80  # characters of a line quoted once the reply has quoted `QUOTED_IN_ALL` (still enough to find it)
SIGN_OFF_LINES, SIGN_OFF_WORDS = 3, 6  # a mail's sign-off: at most this many lines of at most so many words


@dataclass
class Echo:
    """One line of the reply: the line as written, and what became of it."""

    text: str
    outcome: str  # ok, error, ignored, info
    message: str = ""
    extra: list[str] = field(default_factory=list)
    part: int = 0  # the mail's part it belongs to: each SIGNON or SIGNOFF starts one (`Conversation.copy_to`)
    # why, as a name that stays when the message is reworded (UNKNOWN_COMMAND, MASTER_ONLY, ...): what the tests
    # and any program reading the judge's answers rely on, where the message is for people; None where none is named
    code: str | None = None
    room: int = QUOTED // 2  # characters of its message quoted: fewer once the reply quoted `QUOTED_IN_ALL`


class Answers:
    """The reply's answers and attachments (`judge.service.hosting.turn.Answering`)."""

    session: Session
    settings: Settings
    mail: InboundMail
    echoes: list[Echo]
    mask: Callable[[str], str]
    part: int
    quoted: int
    reply_bytes: int
    attachments: list[Attachment]
    unknown_run: list[int]

    def echo(self, text: str, outcome: str, message: str = "", extra: list[str] | None = None,
             code: str | None = None) -> int:
        """Answer a line (its text and message masked: no echo repeats a password; ``code``: `Echo.code`); an
        answer whose lines would take the reply over ``max_reply_bytes`` is refused instead (the reply's size
        is counted in bytes as the reply writes it: a reply over the limit is never built)."""
        extra = extra or []
        quoting = QUOTED if self.quoted < QUOTED_IN_ALL else BRIEFLY  # the reply is never several times the mail
        text, message = _brief(text, quoting), _brief(message, quoting // 2)
        self.quoted += len(text) + len(message)
        size = _echo_bytes(text, message, extra)
        if extra and self.reply_bytes + size > self.settings.max_reply_bytes:
            outcome, extra, code, message = "error", [], "REPLY_TOO_LONG", self._full()
            size = _echo_bytes(text, message, extra)
        self.reply_bytes += size
        self.echoes.append(Echo(self.mask(text), outcome, self.mask(message), extra, self.part, code, quoting // 2))
        return len(self.echoes) - 1

    def fill(self, index: int, lines: Sequence[str]) -> None:
        """Give the answer ``index``, written before what it says was known (a seat's STATUS, answered when the
        seat's lines end), its ``lines``; refused instead, as `echo` refuses, if they would take the reply over
        ``max_reply_bytes`` (500 STATUS lines made a reply of a megabyte)."""
        echo = self.echoes[index]
        counted = _echo_bytes(echo.text, echo.message, echo.extra)  # what `echo` counted of it
        if self.reply_bytes - counted + _echo_bytes(echo.text, echo.message, lines) > self.settings.max_reply_bytes:
            echo.outcome, echo.code, echo.message = "error", "REPLY_TOO_LONG", self._full()
        else:
            echo.extra = list(lines)
        self.reply_bytes += _echo_bytes(echo.text, echo.message, echo.extra) - counted

    def _full(self) -> str:
        """Why a line is not answered: the reply has reached ``max_reply_bytes``."""
        return _("not answered: this reply has reached the judge's limit of {limit} bytes; ask again in another "
                 "mail", limit=format(self.settings.max_reply_bytes, ","))

    def attach(self, files: Sequence[Attachment]) -> bool:
        """Attach ``files`` to the reply, unless they would take it over ``max_reply_bytes``."""
        size = sum(len(file.data) for file in files)
        if self.reply_bytes + size > self.settings.max_reply_bytes:
            return False
        self.reply_bytes += size
        self.attachments.extend(files)
        return True

    def too_big(self, size: int) -> str:
        """Why an answer of ``size`` bytes was not attached: `attach` refused it."""
        return _("the answer ({size} bytes) would take this reply over the judge's limit of {limit} bytes; ask for "
                 "less, or in another mail", size=format(size, ","), limit=format(self.settings.max_reply_bytes, ","))

    def answer_long(self, text: str, filename: str, body: str, what: str, more: str = "",
                    game: Game | None = None) -> None:
        """Answer the line ``text`` with ``body``: in the reply, or attached as ``filename`` if it
        is longer than ``LONG`` lines (and if the reply has room); an answer about ``game``, with
        its moments in the reader's zone for it (`localized`), attached or not.  ``more``: a clause
        the answer says after its own (a kind's, "; " before it is dropped: `clauses` joins them as
        the reader's language does).  ``what`` (what the answer is: "the history") is no longer said:
        the line answered, quoted above the answer, names it, and the answer is one whole sentence."""
        if game is not None:
            body = self.localized(game, body)
        cut = len(body) > LONGEST  # what one mail may cost: a reply the judge keeps is at most a few of these
        if cut:
            at = body.rfind("\n", 0, LONGEST) + 1 or LONGEST
            body = body[:at] + "\n" + _("[cut at {count} characters: ask for less at once]",
                                        count=format(LONGEST, ",")) + "\n"
        more = more.strip().lstrip(";").strip()  # the kind's clause, without the English "; " it came with
        lines = body.splitlines()
        if len(lines) <= LONG:
            said = _("cut at {count} characters", count=format(LONGEST, ",")) if cut else ""
            self.echo(text, "info", clauses([part for part in (said, more) if part]), lines)
            return
        attachment = Attachment(filename, "text/plain", body.encode("utf-8"))
        if self.attach([attachment]):
            if cut:
                said = ngettext("attached as {filename} ({count} line, cut at {limit} characters)",
                                "attached as {filename} ({count} lines, cut at {limit} characters)", len(lines),
                                filename=filename, limit=format(LONGEST, ","))
            else:
                said = ngettext("attached as {filename} ({count} line)", "attached as {filename} ({count} lines)",
                                len(lines), filename=filename)
            self.echo(text, "ok", clauses([part for part in (said, more) if part]))
        else:
            self.echo(text, "error", self.too_big(len(attachment.data)), code="REPLY_TOO_LONG")

    def localized(self, game: Game, text: str) -> str:
        """``text``, an answer about ``game``, with its moments in the zone its reader reads that
        game in (`zones.reader_zone`: a player's own, else the game's), whatever game the reply is
        signed on to: the reply's own pass leaves them be."""
        zone = zones.reader_zone(self.session, game.id, self.mail.reply_to)
        return zones.localize(text, zone) if zone is not None else text

    def mark(self, index: int, outcome: str | None = None, message: str | None = None,
             code: str | None = None) -> None:
        echo = self.echoes[index]
        if code is not None or (outcome is not None and outcome != echo.outcome):
            echo.code = code  # a new outcome drops the old one's reason
        echo.outcome = outcome or echo.outcome
        echo.message = self.mask(_brief(message, echo.room)) if message is not None else echo.message

    def note(self, index: int, lines: Sequence[str], *, replace: bool = False) -> None:
        echo = self.echoes[index]
        echo.extra = [*([] if replace else echo.extra), *lines]

    def outcome(self, index: int) -> str:
        return self.echoes[index].outcome

    def message(self, index: int) -> str:
        return self.echoes[index].message

    def _sign_off(self) -> None:
        """Take the mail's last lines, when they are a short run of unknown commands after a line
        that was a command (``Francois``, ``Thanks!``, ``Sent from my iPhone``), as its sign-off:
        ignored, saying so, not errors.  A longer run, or a mail with no command before it, is
        answered line by line as unknown commands: it may be commands mistyped.  Its first lines,
        when they are such a run before a command, written as prose rather than in capitals
        (``Sorry, late!``, not ``WHOAMI``, a command mistyped, `_prose`), are its greeting, alike."""
        if self.unknown_run and self.unknown_run[0] != 0:
            self._aside(self.unknown_run, "sign-off")

    def _aside(self, run: list[int], what: str) -> None:
        """Answer the unknown commands of ``run`` as the mail's greeting or sign-off (``what``),
        if they are short enough to be one (`_sign_off`)."""
        if len(run) > SIGN_OFF_LINES or any(len(self.echoes[i].text.split()) > SIGN_OFF_WORDS for i in run):
            return
        for index in run:
            self.echoes[index].outcome = "ignored"
            self.echoes[index].message = (_("not a command: taken as your greeting") if what == "greeting"
                                          else _("not a command: taken as your sign-off"))
            self.echoes[index].code = what.upper().replace("-", "_")  # GREETING, SIGN_OFF


def clauses(parts: Sequence[str]) -> str:
    """Whole clauses said one after the other in one answer (``press sent to Bob; not sent to Carol: ...``),
    joined as the reader's language joins them (French puts a space before the semicolon)."""
    joined = ""
    for part in parts:
        joined = _("{first}; {then}", first=joined, then=part) if joined else part
    return joined


def _brief(words: str, most: int) -> str:
    """``words`` as an answer quotes them: at most ``most`` characters, the rest cut and said to be.  A line
    no command is as long as, or a message quoting such a line, would make the reply (and the copy the
    judge keeps) several times the mail."""
    return words if len(words) <= most else words[:most] + " [...]"


def _echo_bytes(text: str, message: str, extra: Sequence[str]) -> int:
    """The bytes an answer takes in the reply (`reply.txt.j2`): its line quoted, its message, and
    each line of ``extra`` indented, each ending its line."""
    size = len(text.encode("utf-8", "replace")) + 3 + (len(message.encode("utf-8", "replace")) + 12 if message else 0)
    return size + sum(len(line.encode("utf-8", "replace")) + 3 for line in extra)
