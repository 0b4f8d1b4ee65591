"""One mail's conversation with the judge: its lines read in order, each command handled, one reply.

Theory of operation.  The lines act in order.  ``SIGNON`` makes the following lines act for
that seat (or the game master) until the next ``SIGNON`` or ``SIGNOFF``.  The host's grammar
reads its own commands (`judge.commands.parse`); a line it does not know is read when its turn
comes by the kind of the game the lines are signed on to (`judge.games.GameKind.read`; outside
any game, by the default kind's).  A seat's lines of its game's own kind form a *block*, acted
on as a whole when the seat's lines end (``close_block``, the kind's): Payola's offer lines make
one sheet that replaces the power's sheet for the phase, a Pirates' Proposal player's PLAN and
VOTE lines one plan and one ballot.  Nothing is replaced when a mail accepted later than this
one has set it already: the reply says why (``superseded``, ``set_aside``; the same for CLEAR,
WAIT, ACCEPT and VOTE).  A refused sign-on undoes everything the mail did (a
savepoint) and gets one short refusal; a mail with a line ``CHECK`` is undone the same way once
read, and its reply, saying line by line what it would have done, is all that is sent (a dry run:
its refused sign-on still counts toward its source's back-off, and its answer toward its
address's).  A seat's lines that act on its game (the kind's, and WAIT) are held back, each
answered why, when the mail was meant for another phase than the game's now
(`judge.service.incoming.late`) or, in a game that reads orders only from mail sent to the judge alone,
when it was sent to others too (`_held_back`).  A reply to a form to fill (`judge.service.outgoing.forms`)
is read as if only the player's own lines were written (`_form_line`): a seat's line left as its form
gives it is dropped unread (one that frames others, as ``FOR FRANCE``, is read, but is no choice of the
player's: `_frames`), and the lines of a form kept for another phase, game or seat are not
applied, the form's opening line answered saying which.  A form kept twice or more in one mail (the
same phase, game and seat on its opening line, each copy up to its end line) is read once
(`form_copies`): the copy read is the last that holds a filled line, one that not every copy holds (a
line every copy holds, as a frame or a choice written alike, chooses none); nothing of the others is read
but their sign-on lines, each other copy's opening line is answered saying it was not read (and,
when it holds lines the copy read does not, that they differ), and each such line of its own is
answered as not applied.  A line no grammar knows is an unknown command,
signed on or not (`cmd.Unknown`); a short run of them ending the mail after a command is its sign-off
(``Thanks!``, ``Sent from my iPhone``), and one opening it before a command its greeting
(``Sorry, late!``), ignored and said to be (`_sign_off`).  Each handler is
registered for its command type with who may use it (``handles``); the dispatcher checks that
before calling it, so a handler never sees a caller it was not written for.  Every line is
echoed in the reply with what became of it.

What one mail can cost is bounded, so that no mail holds the write lock for long or turns into
thousands of outgoing mails: lines read (``max_commands_per_mail``), commands that check or
hash a password (each is a deliberately slow scrypt: ``max_password_checks_per_mail``), press
blocks (``max_press_per_mail``), one each of the commands that render or draw a long answer
(registered ``once``: HISTORY, SUMMARY, and a kind's such as MAP, PREVIEW), the reply's size with its attachments
(``max_reply_bytes``: an answer that would go over is refused, `echo` and `attach`), and the
mails it queues (``max_mails_per_mail``).  That budget counts the mails its commands queue
(`send`) and the results of the phases its PROCESS and ROLLFORWARD process (one per played
power and observer, and the game master's chart): a PROCESS or ROLLFORWARD is refused when the
mail has already queued mails and the results would take it over (`judge.service.incoming.handlers.master`).
A mail's first processing is never refused by the budget, so a game of any size can be
processed, in a mail of its own if need be; each game's phase changes once per mail at most
(PROCESS, ROLLBACK or ROLLFORWARD, or the processing of the phase the mail completes), a
PROCESS or ROLLFORWARD processes one phase per mail whatever the game, and a master changes
his game's phase at most ``max_phase_changes_per_hour`` times an hour.  The reply, its copies, the
notices of changed addresses or passwords and the announcements to a game's players (and master, and, of
the public ones, its observers) are not counted: there is one of each per mail and game (two of the
announcements when a phase change's are sent before its results: `announce_now`), bounded by the
game's size and ``max_observers``.  The game row is
read ``FOR UPDATE`` (``game``), so every change to one game — mail, deadline, transfer — happens
one at a time on PostgreSQL as on SQLite.  The mails of one transaction (a run of stored mail)
read a game's row, seats, current position and latest submissions once for them all
(`judge.service.hosting.host.Reads`), and again after anything in the transaction is rolled back or the
game's phase changes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, TypeVar

from sqlalchemy import select
from sqlalchemy.orm import Session

from judge.commands import parse as cmd
from judge.language import current, ngettext, worded
from judge.language import gettext as _
from judge.mail.inbound import InboundMail
from judge.mail.outbound import Attachment
from judge.mail.received import Source
from judge.mail.redact import masker
from judge.service import mailbox
from judge.service.config import Settings
from judge.service.dispatch import ANYONE, MASTER, PLAYER, Entry
from judge.service.hosting import course, host, phase_changes, silent_seats
from judge.service.hosting.kinds import kinds_of
from judge.service.hosting.turn import Said
from judge.service.incoming import late
from judge.service.incoming.handlers import blocks
from judge.service.incoming.handlers.answers import Echo
from judge.service.incoming.handlers.holding import Holding, Why
from judge.service.incoming.handlers.reading import Context
from judge.service.outgoing import forms
from judge.service.outgoing.outbox import queue
from judge.service.outgoing.preferences import language_of, writing_to
from judge.service.states import GameState
from judge.service.templates import render
from judge.store.models import Game


class Refusal(Exception):
    """A sign-on (or a private game's JOIN key, seat ``KEY``) refused: the whole mail gets one
    short refusal and nothing in it is applied."""

    def __init__(self, game: str | None = None, who: str | None = None, until: datetime | None = None,
                 gone: str | None = None) -> None:
        super().__init__("sign-on refused")
        self.game, self.who, self.until = game, who, until  # the game's name: a refused mail's changes are undone
        self.gone = gone  # the right password for a power its player no longer plays: why
        self.line = ""  # the line refused, as written, its password masked (`Conversation._line`)

    @property
    def code(self) -> str:
        """Why, as a name (`Echo.code`): too many failures from the mail's source, a seat no longer the writer's, a
        wrong key of a private game, or else a wrong game, seat or password (which of them, the judge never says)."""
        if self.until is not None:
            return "TOO_MANY_FAILURES"
        if self.gone is not None:
            return "NO_LONGER_YOURS"
        return "WRONG_KEY" if self.who == "KEY" else "SIGNON_REFUSED"


Answering = Callable[[bool], tuple[bool, list[str]]]  # proven -> answered, and the notes on the limits
T = TypeVar("T")

#: commands that verify or hash a password: each costs one scrypt
PASSWORD_COMMANDS = (cmd.SignOn, cmd.Create, cmd.Join, cmd.SetPassword, cmd.Takeover, cmd.SetPrivate, cmd.Confirm)


class Conversation(Holding):
    """Reads one mail's lines, acts on them inside the caller's transaction, and queues the reply."""

    def __init__(self, session: Session, settings: Settings, mail: InboundMail, now: datetime,
                 envelope_from: str | None = None, source: Source | None = None,
                 answering: Answering | None = None, accepted: datetime | None = None,
                 lines: list[cmd.Line] | None = None) -> None:
        self.session = session
        self.kinds = kinds_of(session)  # the kinds of game the judge hosts, and every command's handler
        # whether the mail is answered, asked once its lines are done (`judge.service.incoming.handlers.mail`): False,
        # applied but its writer gets no reply; with the notes the reply carries about the judge's limits
        self.answering = answering
        self.answer = True
        # the reply goes to an address this mail proved is its writer's: it signed on to a seat (or as
        # master) registered at it, or made a change for it (a game created, joined, observed)
        self.proven = False
        self.settings = settings
        self.mail = mail
        self.envelope_from = envelope_from
        # where the mail came from (`judge.mail.received`); not known: its envelope sender, or From
        self.source = source or Source(None, mail.sender if envelope_from is None else envelope_from)
        self.now = now
        # when the judge's mail server accepted the mail (`judge.service.incoming.handlers.mail.mail_time`):
        # its place among the mail of one seat, whatever order it is delivered in (`superseded`)
        self.accepted = accepted or now
        self.lines = cmd.parse_lines(mail.lines) if lines is None else lines  # the mail's commands, read once
        self.echoes: list[Echo] = []
        self.mask = masker(cmd.password_words(mail.lines))  # no echo repeats a password (judge.mail.redact)
        self.notes: list[str] = []
        self.context = Context()
        self.copies: dict[str, set[int]] = {}  # address -> the parts of the mail its copy of the reply carries
        self.copied_games: dict[str, Game | None] = {}  # address -> the game its copy is about (its language)
        self.part = 0  # the part of the mail being read: each SIGNON or SIGNOFF starts one
        self.notices: dict[str, tuple[Game | None, list[Said]]] = {}  # previous address -> its game, its changes
        self.announcements: dict[int, list[Said]] = {}  # game id -> what every player must hear of
        self.public: dict[int, list[Said]] = {}  # game id -> what of it its observers must hear of too
        self.also_told: dict[int, set[str]] = {}  # game id -> addresses of players who just left it
        self.worded_apart: set[int] = set()  # games whose observers are told some news in other words
        self.master_told: set[int] = set()  # the games whose master hears their announcements too
        self.settings_told: dict[tuple[int, str], str] = {}  # (game id, setting) -> its news this mail (`announce`)
        self.cache: dict[Any, Any] = {}  # what a game's kind keeps for the rest of the mail
        self.attachments: list[Attachment] = []  # sent with the reply (MAP), added by `attach`
        self.reply_bytes = 0  # the reply's answers and attachments so far (`echo`, `attach`)
        self.quoted = 0  # characters the reply has quoted of the mail's lines and their answers (`echo`)
        self.mails_sent = 0  # mails its commands caused, and the announcement rounds it will send (`rounds`)
        self.rounds: dict[int, int] = {}  # game id -> the mails its announcement round may send (in `mails_sent`)
        self.lookups = 0  # LIST, WHOGAME, GET INFO lines read
        self.password_checks = 0
        self.presses = 0
        self.press_copied = 0  # characters of press this mail sent, counted once per copy (`handlers.press`)
        self.once: set[type] = set()  # the commands read once per mail (`handles`) that it has read
        self.unknown_run: list[int] = []  # the echoes of the unknown commands since the last other line
        self.phase_changed: set[int] = set()  # the games whose phase this mail changed
        self.opened: set[int] = set()  # the games this mail started (its PROCESS may follow: `master._crossed`)
        self.processed = False  # whether a PROCESS or ROLLFORWARD of this mail processed a phase
        self.touched: set[str] = set()  # the games this mail looked at
        # the phases its PHASE lines name, each after a SIGNON or not (`judge.service.incoming.late`), and whether it
        # is a CHECK (a dry run: `run`)
        self.named = late.phase_lines(self.lines)
        self.ahead = blocks.Reading(self._read)  # its blocks of lines for a later phase (`handlers.ahead`)
        self.next_opened: list[Game] = []  # the games whose next phase it opened by completing one (`ahead`)
        self.check = any(isinstance(line.command, cmd.Check) for line in self.lines)
        self.meant: dict[int, late.Meant | None] = {}  # game id -> the phase the mail was meant for, if not the game's
        self.held: set[tuple[str, int]] = set()  # (why, game id): the lines held back, told once in a note
        self.form_opened: tuple[str, cmd.FormOpens] | None = None  # a form's opening line kept, until its end
        self.form_refused: str | None = None  # why the lines of the form opened are not applied, once told
        self.unread_copies: dict[int, Unread] = {}  # the copies of a form not read (`form_copies`), by opening line
        self.forms_opened = 0  # the form's opening lines read so far
        self.unread: Unread | None = None  # the copy of a form not read that the lines are in, until its end

    def run(self) -> Refusal | None:
        """Act on every line and queue the reply; returns the refusal if a sign-on was refused."""
        if self.mail.no_text:
            self.notes.append(_("Your mail had no text part the judge could read; send your commands as plain "
                                "text."))
        if self.mail.html_only:
            self.notes.append(_("Your mail had no plain-text part: the judge read its HTML part as text."))
        if self.mail.truncated:
            self.notes.append(_("Your mail was too long: only its beginning was read."))
        if self.mail.from_attachment:
            self.notes.append(_("Your mail had no text of its own: the judge read your commands from its text "
                                "attachment."))
        if self.mail.stopped_at:
            self.notes.append(stopped_reading(self.mail.stopped_at))
        lines = self.lines
        limit = self.settings.max_commands_per_mail
        if len(lines) > limit:
            self.notes.append(ngettext("Your mail had {lines} commands: only the first {count} was read.",
                                       "Your mail had {lines} commands: only the first {count} were read.", limit,
                                       lines=len(lines)))
            lines = lines[:limit]
        self.unread_copies = form_copies(lines)
        savepoint = self.session.begin_nested()
        try:
            for line in lines:
                if not self._line(line):
                    break
            self._sign_off()
            self.close_block()
            game_id = self.context.game.id if self.context.game is not None else None
            if self.check:
                savepoint.rollback()  # a CHECK: the reply is all that stays
            else:
                savepoint.commit()
        except Refusal as refusal:
            savepoint.rollback()  # nothing in a refused mail is applied
            return refusal
        if self.check:
            self.notes.append(_("CHECK: this mail was a check. Each line below says how the judge read it and what "
                                "it would have done, but nothing in it was applied, stored or sent: send it again "
                                "without the line CHECK to apply it."))
        if self.answering is not None:
            self.answer, limits = self.answering(self.proven)
            self.notes.extend(limits)
        body = render("reply", echoes=self.echoes, notes=self.notes, settings=self.settings)
        subject = reply_subject(self.mail)
        if self.answer and self.mail.reply_to:
            queue(self.session, self.settings, to=self.mail.reply_to, subject=subject, kind="reply", now=self.now,
                  in_reply_to=self.mail.message_id, references=self.mail.references, body=body,
                  game_id=game_id, attachments=self.attachments)
        if self.check:
            self.touched = set()
            return None
        for address, parts in sorted(self.copies.items()):
            if not mailbox.same(address, self.mail.reply_to):  # the reply reached that mailbox already
                echoes = [echo for echo in self.echoes if echo.part in parts]
                self._copy(address, subject, render("reply", echoes=echoes, notes=self.notes, settings=self.settings))
        for game_id, news in self.announcements.items():
            self._announce(game_id, news, self.public.get(game_id, []))
        self.notify()
        self._process_if_complete()
        return None

    def _copy(self, address: str, subject: str, copy: str) -> None:
        """Send ``address`` (a seat's registered address, or one it moves to) the ``copy`` of the reply: as it is
        where its reader reads the reply's language; else in a mail of the reader's own language that quotes
        it as it was written (an answer, written once, is never translated afterwards)."""
        game, written = self.copied_games.get(address), current()
        if language_of(self.session, self.settings, address, game) == written:
            queue(self.session, self.settings, to=address, subject=_("Copy: {subject}", subject=subject),
                  kind="reply", now=self.now, body=copy)
            return
        answer = copy.split("\n-- \n", 1)[0].rstrip("\n")  # its signature is the one of the mail that quotes it
        with writing_to(self.session, self.settings, address, game):
            queue(self.session, self.settings, to=address, subject=_("Copy: {subject}", subject=subject),
                  kind="reply", now=self.now, body=render("copy", answer=answer.splitlines(), language=written,
                                                            sender=self.mail.reply_to, settings=self.settings))

    def _syntax_error(self, command: cmd.BadCommand) -> str:
        """What is wrong with a line that cannot be read: a JOIN naming a game is answered with that
        game's kind's usage (a power, a country or a name), any other with the reader's words."""
        if isinstance(command, cmd.BadJoin) and command.game is not None:
            kind = self.session.scalar(select(Game.kind).where(Game.name == command.game))  # no lock: only read
            if kind is not None:
                usage = (self.kinds.named(kind) if kind else self.kinds.default).join_usage
                return _("expected {usage}", usage=worded(usage))
        return command.error

    def _line(self, line: cmd.Line) -> bool:
        """Handle one line; False when the rest of the mail must not be read.  Read (`_read`), counted
        against the mail's budget (`_over_passwords`, `_over_per_mail`), then refused (`_not_for`), held
        back (`_held_back`) or handled; a reply's line of a form to fill may be none of the player's own
        (`_form_line`)."""
        if self.ahead.takes(self, line) or self._form_line(line):
            return True
        command = self._read(line)
        if command is None:
            return True
        if isinstance(command, PASSWORD_COMMANDS) and self._over_passwords(line):
            return False
        entry = self.kinds.dispatch[type(command)]
        if self._over_per_mail(line, entry):
            return True
        if not isinstance(command, cmd.SignOn | cmd.SignOff) and self.context.seat is not None \
                and not self._frames(line):
            self.context.written += 1
        if isinstance(command, cmd.SignOn | cmd.SignOff):
            self.close_block()
            self.part += 1
            if isinstance(command, cmd.SignOff):
                self.context = Context()
                self.echo(line.text, "ok", _("signed off"))
                return True
        if (why := self._not_for(entry)) is not None:
            self.echo(line.text, "error", why.message, code=why.code)
        elif (held := self._held_back(command)) is not None:
            self.echo(line.text, "ignored", held.message, code=held.code)
        else:
            try:
                entry.handler(self, line.text, command)
            except Refusal as refusal:
                refusal.line = self.mask(line.text)  # the refusal quotes it, as every answer does
                raise
        return True

    def _form_line(self, line: cmd.Line) -> bool:
        """Whether ``line`` is read as none of the player's own, the form's (`judge.service.outgoing.forms`):
        a form's opening or end line; a line of a form kept for another phase, game or seat than the
        lines act for (the opening line answered once, saying which, each line written in it said not
        to be applied; a line still blank is passed over); the form's sign-on line with its password
        blank; a seat's line left with its blank as its form for the phase gives it; a line of a copy of a form
        not read (`form_copies`: its opening line answered, and each of its own lines).  All but the answered
        ones are passed over without a word."""
        command = line.command
        if isinstance(command, cmd.FormOpens | cmd.FormEnds):
            self.form_opened = (line.text, command) if isinstance(command, cmd.FormOpens) else None
            self.form_refused = None
            self.unread = None
            if isinstance(command, cmd.FormOpens):
                self.forms_opened += 1
                self.unread = self.unread_copies.get(self.forms_opened)
                if self.unread is not None:
                    self._copy_unread(line.text, self.unread)
            return True
        if forms.unfilled_signon(line.text):
            return True
        if self.unread is not None and not isinstance(command, cmd.SignOn | cmd.SignOff):
            if forms.normal(line.text) in self.unread.own:
                self.echo(line.text, "ignored", _("not applied: this copy of the form was not read, as the answer "
                                                  "to its first line says"), code="FORM_COPY")
            return True
        blank = forms.BLANK in line.text.split()
        context = self.context
        if context.game is None or context.seat is None or isinstance(command, cmd.SignOn | cmd.SignOff):
            return False
        if self.form_opened is not None and self.form_refused is None:
            text, opened = self.form_opened
            self.form_refused = self._other_form(opened, context.game, context.seat)
            if self.form_refused:
                self.echo(text, "ignored", self.form_refused, code="OTHER_FORM")
        if self.form_refused:
            if not blank:
                self.echo(line.text, "ignored", _("not applied: it is in the form of another phase, game or seat, "
                                                  "as the answer to that form's first line says"), code="OTHER_FORM")
            return True
        if not blank:  # filled, or a frame: read as written, its form not asked for
            return False
        key = ("form", context.game.id, context.game.phase, context.seat)
        if key not in self.cache:
            form = forms.asked(self.kinds.of(context.game), self.session, context.game, context.seat)
            self.cache[key] = forms.unfilled(form), forms.framing(form)
        if forms.normal(line.text) in self.cache[key][0]:
            context.unfilled += 1
            return True
        return False

    def _frames(self, line: cmd.Line) -> bool:
        """Whether ``line`` is a line of the seat's form that frames others (`forms.framing`: ``FOR
        FRANCE``): read, but no choice of the player's, so it alone leaves the form unfilled."""
        context = self.context
        if context.game is None or context.seat is None:
            return False
        framing = self.cache.get(("form", context.game.id, context.game.phase, context.seat))
        return framing is not None and forms.normal(line.text) in framing[1]

    def _copy_unread(self, text: str, unread: Unread) -> None:
        """Answer the opening line of a copy of a form not read: why, and whether it held lines of its own."""
        if unread.own:
            self.echo(text, "ignored", _("not read: this form is in your mail more than once and one copy alone is "
                                         "read, the last with a line filled in; this copy holds lines the copy read "
                                         "does not, and none of them was applied"), code="FORM_COPIES_DIFFER")
        else:
            self.echo(text, "ignored", _("not read: this form is in your mail more than once and one copy alone is "
                                         "read, the last with a line filled in; this copy holds nothing the copy "
                                         "read does not"), code="FORM_COPY")

    def _other_form(self, opened: cmd.FormOpens, game: Game, seat: str) -> str:
        """Why a form kept in the mail is not the form of the lines it holds, which act for ``seat`` in
        ``game``: it names another game, seat or phase; "" if it is theirs."""
        kind = self.kinds.of(game)
        title = kind.seat_title(seat)
        if opened.game.casefold() != game.name.casefold():
            return _("not applied: this form is for {form_game}, but its lines act for {seat} in {game}; none of its "
                     "lines was applied", form_game=opened.game, seat=title, game=game.name)
        if opened.seat.casefold() not in {seat.casefold(), title.casefold()}:
            return _("not applied: this form is {form_seat}'s, but its lines act for {seat}; none of its lines was "
                     "applied", form_seat=opened.seat, seat=title)
        if opened.phase.casefold() != (game.phase or "").casefold():
            return _("not applied: this form is for {form_phase}, but {game} is in {phase} now; none of its lines "
                     "was applied (the form for {phase} came with the mail that opened it)",
                     form_phase=opened.phase, game=game.name, phase=game.phase)
        return ""

    def _read(self, line: cmd.Line) -> cmd.Command | None:
        """The command a line is, read by the host's grammar or the signed-on game's kind; None when it
        is none, answered already (an unknown command, or one that cannot be read).  A run of unknown
        lines opening the mail before a command is its greeting (`_aside`).  ``SET <phase> hours`` for one
        of the lengths a kind names (`Phases.durations`) the host reads where the kind's grammar does not."""
        command = line.command
        if isinstance(command, cmd.GameLine):  # the signed-on game's kind reads it
            game = self.context.game
            kind = self.kinds.of(game) if game is not None else self.kinds.default
            command = kind.read(line.text, game)
            words = line.text.split()
            if isinstance(command, cmd.Unknown) and words[0].upper() == "SET" and len(words) > 1 and (
                    (lengths := {name.upper(): name for name in kind.durations}).get(words[1].upper())):
                command = cmd.read_phase_length(line.text, words, lengths, ", ".join(f"SET {word} hours"
                                                                                     for word in lengths))
        if isinstance(command, cmd.Unknown):
            self.unknown_run.append(self.echo(line.text, "error", command.error, code="UNKNOWN_COMMAND"))
            return None
        if self.unknown_run and self.unknown_run[0] == 0 and all(_prose(self.echoes[i].text) for i in self.unknown_run):
            self._aside(self.unknown_run, "greeting")
        self.unknown_run = []
        if isinstance(command, cmd.BadCommand) and (game := self.context.game) is not None and (
                not self.context.is_master) and not cmd.password_words([line.text]):
            # a seat's line its game reads as its own: Machiavelli's "start rebellion"; never one that may carry a
            # password (a malformed TAKEOVER ending with a colon would be kept as a letter's heading, as written)
            own = self.kinds.of(game).read(line.text, game)
            command = command if isinstance(own, cmd.Unknown | cmd.BadCommand) else own
        if isinstance(command, cmd.BadCommand):
            self.echo(line.text, "error", self._syntax_error(command), code="SYNTAX")
            return None
        return command

    def _over_passwords(self, line: cmd.Line) -> bool:
        """Whether a command that checks or hashes a password is one too many for the mail (each costs
        a scrypt): answered so, and the rest of the mail is not read."""
        self.password_checks += 1
        if self.password_checks <= self.settings.max_password_checks_per_mail:
            return False
        self.echo(line.text.split()[0], "error", ngettext(
            "at most {count} sign-on or password command is read in one mail; the rest of it was not read",
            "at most {count} sign-ons and password commands are read in one mail; the rest of it was not read",
            self.settings.max_password_checks_per_mail), code="TOO_MANY_PASSWORDS")
        return True

    def _over_per_mail(self, line: cmd.Line, entry: Entry) -> bool:
        """Whether the line is refused as one more of what is read once per mail (`Entry.once`) or a
        lookup over ``max_lookups_per_mail``: answered so."""
        if entry.once:
            if entry.type in self.once:
                self.echo(line.text, "error", _("one {command} per mail: send the others in mails of their own",
                                                command=line.text.split()[0].upper()), code="ONE_PER_MAIL")
                return True
            self.once.add(entry.type)
        if entry.lookup:
            self.lookups += 1
            if self.lookups > self.settings.max_lookups_per_mail:
                self.echo(line.text, "error", ngettext(
                    "at most {count} LIST, WHOGAME or GET INFO line is answered in one mail: send the others in "
                    "another mail", "at most {count} LIST, WHOGAME and GET INFO lines are answered in one mail: send "
                    "the others in another mail", self.settings.max_lookups_per_mail), code="TOO_MANY_LOOKUPS")
                return True
        return False

    def _not_for(self, entry: Entry) -> Why | None:
        """Why the command is not for whoever the lines act for: nobody signed on, a game that has ended,
        the game master's command from a seat or a seat's from the game master, or news over the
        mail's budget of mails."""
        who, game = entry.who, self.context.game
        if who != ANYONE and game is None:
            return Why("SIGN_ON_FIRST", _("sign on first: SIGNON SEAT@game password, SEAT being your power, "
                                          "country or name in that game"))
        if game is not None and game.state == GameState.FINISHED and entry.closed_after_the_end:
            return Why("GAME_ENDED", _("{game} has ended ({seat} won): nothing more can be done in it",
                                       game=game.name, seat=self.kinds.of(game).seat_title(game.winner))
                       if game.winner else _("{game} has ended: nothing more can be done in it", game=game.name))
        if who == MASTER and not self.context.is_master:
            return Why("MASTER_ONLY", _("only the game master, signed on as MASTER@game, can do this"))
        if who == PLAYER and self.context.is_master:
            return Why("PLAYER_ONLY", _("that is a player's command; sign on as one of the game's players")
                       if game is not None else _("that is a player's command"))
        if entry.announces and game is not None and (over := self.over_budget(game)):
            return Why("OVER_BUDGET", over)
        return None

    def close_block(self) -> None:
        """At the end of a seat's lines: its game's kind acts on them as a whole (`Context.block`),
        then answers its STATUS lines as things stand; a block for a later phase ends with them."""
        self.ahead.end(self)
        context = self.context
        if context.game is None or context.seat is None:
            return
        kind = self.kinds.of(context.game)
        if context.unfilled and not context.written:
            self.notes.append(_("Your form for {phase} of {game} came back as the judge sent it: a line left with "
                                "its _ is no choice, so nothing of it was applied. Replace each _ you want to fill "
                                "with your choice and send it again.", phase=context.game.phase,
                                game=context.game.name))
        context.unfilled = context.written = 0
        kind.close_block(self)
        if context.status_echoes:
            lines = [host.status_header(context.game), *self.wait_lines(context.game, context.seat),
                     *kind.status(self), *silent_seats.lines(self.session, context.game)]
            for index in context.status_echoes:
                self.fill(index, lines)
        context.block, context.status_echoes = {}, []

    def confirmed(self, text: str, word: str, code: str | None, what: str) -> bool:
        return phase_changes.confirmed(self, text, word, code, what)

    def _process_if_complete(self) -> None:
        """A phase is processed as soon as its kind says it is complete — in Payola, once every
        power that must act has done so — and no seat asks it to WAIT (`host.closes_early`; unless
        this mail already changed the game's phase: once per mail; nor when the mail has queued mails
        already and the results would take it over ``max_mails_per_mail``, as a PROCESS would be
        refused: its deadline does it then)."""
        game = self.context.game
        if game is None or game.id in self.phase_changed:
            return
        self.session.flush()
        game_kind = self.kinds.of(game)
        if game.state == GameState.ACTIVE and game.phase and host.closes_early(self.session, game, self):
            already = self.mails_sent - self.foldable(game)
            if already and already + game_kind.results_mails(self.session, game) > self.settings.max_mails_per_mail:
                return
            course.close(self.session, game, self.settings, self.now, cause="all submitted")
            self.next_opened.append(game)  # its lines sent ahead are read by the applier (`handlers.ahead.opened`)


@dataclass(frozen=True)
class Unread:
    """A copy of a form kept twice or more in a mail, not read (`form_copies`): ``own``, its written lines
    that the copy read does not hold (`forms.normal`), each answered as not applied."""

    own: frozenset[str]


def form_copies(lines: Sequence[cmd.Line]) -> dict[int, Unread]:
    """The copies of a form not read, by their opening line's place among the mail's (1 for the first):
    of the copies of one form (the same phase, game and seat on their opening lines, each up to its end
    line or the next opening), the copy read is the last that holds a filled line, one that not every copy
    holds; the last, if none does.  A copy's written lines are those that are neither a sign-on or
    sign-off line nor hold a blank (`forms.BLANK`): a frame or a choice every copy holds alike chooses
    no copy."""
    copies: dict[tuple[str, str, str], list[tuple[int, list[str]]]] = {}
    written: list[str] | None = None
    opened = 0
    for line in lines:
        command = line.command
        if isinstance(command, cmd.FormOpens):
            opened += 1
            written = []
            key = (command.phase.casefold(), command.game.casefold(), command.seat.casefold())
            copies.setdefault(key, []).append((opened, written))
        elif isinstance(command, cmd.FormEnds):
            written = None
        elif written is not None and not isinstance(command, cmd.SignOn | cmd.SignOff) \
                and forms.BLANK not in line.text.split():
            written.append(forms.normal(line.text))
    unread: dict[int, Unread] = {}
    for kept in copies.values():
        if len(kept) < 2:
            continue
        every = set.intersection(*(set(lines_of) for _, lines_of in kept))
        read = next((number for number, lines_of in reversed(kept) if set(lines_of) - every), kept[-1][0])
        held = set(next(lines_of for number, lines_of in kept if number == read))
        unread.update((number, Unread(frozenset(lines_of) - held)) for number, lines_of in kept if number != read)
    return unread


def _prose(text: str) -> bool:
    """Whether a line reads as prose rather than as a command: its first word is not written in
    capitals, as HELP writes every command (``Sorry, late!``, not ``WHOAMI classic``)."""
    letters = [c for c in text.split()[0] if c.isalpha()]
    return not letters or not all(c.isupper() for c in letters) or len(letters) == 1


def stopped_reading(separator: str) -> str:
    """The note that says where reading a mail stopped, and what it left unread: a signature
    after ``-- ``, the rest of the mail after ``SIGNOFF``, or the mail answered or forwarded."""
    if separator.strip() == "--":
        return _("Reading stopped at the signature line '{separator}': what follows it (your signature) was not "
                 "read.", separator=separator)
    if separator.strip().lower() == "signoff":
        return _("Reading stopped at '{separator}': what follows it was not read.", separator=separator.strip())
    return _("Reading stopped at '{separator}': what follows it (the mail you answered or forwarded) was not read.",
             separator=separator)


def reply_subject(mail: InboundMail) -> str:
    subject = mail.subject.strip()
    return subject if subject.lower().startswith("re:") else "Re: " + (subject or _("your mail to the judge"))


def masked(text: str, password: str) -> str:
    """``text`` with the password *token* replaced by ``****`` (not other words that contain it)."""
    return " ".join("****" if word == password else word for word in text.split())
