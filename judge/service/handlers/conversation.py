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
(`judge.service.late`) or, in a game that reads orders only from mail sent to the judge alone,
when it was sent to others too (`_held_back`).  A line no grammar knows is an unknown command,
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
mail has already queued mails and the results would take it over (`judge.service.handlers.master`).
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
(`judge.service.host.Reads`), and again after anything in the transaction is rolled back or the
game's phase changes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, NamedTuple, TypeVar

from sqlalchemy import bindparam, select
from sqlalchemy.orm import Session

from judge.commands import parse as cmd
from judge.mail.inbound import InboundMail
from judge.mail.outbound import Attachment
from judge.mail.received import Source
from judge.mail.redact import masker
from judge.service import course, host, late, phase_changes, silent_seats, zones
from judge.service.config import Settings
from judge.service.dispatch import ANYONE, MASTER, PLAYER
from judge.service.host import Reads
from judge.service.kinds import kinds_of
from judge.service.lifecycle import RUNNING, GameState
from judge.service.outbox import queue
from judge.service.render import render
from judge.store.models import Game, Player


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


class Why(NamedTuple):
    """Why a command is not done: the name a program reads (`Echo.code`) and the words a player reads."""

    code: str
    message: str


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


@dataclass
class Context:
    """Who the lines act for: nobody, a seat of a game (``power``: its name), or a game's master
    (no seat)."""

    game: Game | None = None
    seat: str | None = None
    player: Player | None = None
    registered: str | None = None  # the seat's address when it signed on: it hears of every change
    # the seat's lines its game's kind acts on as a whole when they end, by the kind's own names:
    # (echo index, text) of each ("sheet" and "orders" in Payola)
    block: dict[str, list[tuple[int, str]]] = field(default_factory=dict)
    status_echoes: list[int] = field(default_factory=list)  # STATUS lines, answered when the block ends

    @property
    def is_master(self) -> bool:
        return self.game is not None and self.seat is None


LONG = 60  # lines: a longer answer is an attachment, not a body of thousands of lines
LONGEST = 300_000  # characters of one long answer (HISTORY, SUMMARY...): the rest is asked for in parts
QUOTED = 2000  # characters of a line the reply quotes, and twice those of its answer (`_brief`): no command is longer
QUOTED_IN_ALL = 100_000  # characters the reply quotes of the mail's lines: past them, each line is quoted briefly
BRIEFLY = 80  # characters of a line quoted once the reply has quoted `QUOTED_IN_ALL` (still enough to find it)
SIGN_OFF_LINES, SIGN_OFF_WORDS = 3, 6  # a mail's sign-off: at most this many lines of at most so many words
Answering = Callable[[bool], tuple[bool, list[str]]]  # proven -> answered, and the notes on the limits
T = TypeVar("T")

#: commands that verify or hash a password: each costs one scrypt
PASSWORD_COMMANDS = (cmd.SignOn, cmd.Create, cmd.Join, cmd.SetPassword, cmd.Takeover, cmd.SetPrivate, cmd.Confirm)


# A game's row, locked and read afresh: built once, as every sign-on runs it.
_GAME = (select(Game).where(Game.name == bindparam("name")).with_for_update()
         .execution_options(populate_existing=True))


class Conversation:
    """Reads one mail's lines, acts on them inside the caller's transaction, and queues the reply."""

    def __init__(self, session: Session, settings: Settings, mail: InboundMail, now: datetime,
                 envelope_from: str | None = None, source: Source | None = None,
                 answering: Answering | None = None, accepted: datetime | None = None,
                 lines: list[cmd.Line] | None = None) -> None:
        self.session = session
        self.kinds = kinds_of(session)  # the kinds of game the judge hosts, and every command's handler
        # whether the mail is answered, asked once its lines are done (`judge.service.handlers.mail`): False,
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
        # when the judge's mail server accepted the mail (`judge.service.handlers.mail.mail_time`):
        # its place among the mail of one seat, whatever order it is delivered in (`superseded`)
        self.accepted = accepted or now
        self.lines = cmd.parse_lines(mail.lines) if lines is None else lines  # the mail's commands, read once
        self.echoes: list[Echo] = []
        self.mask = masker(cmd.password_words(mail.lines))  # no echo repeats a password (judge.mail.redact)
        self.notes: list[str] = []
        self.context = Context()
        self.copies: dict[str, set[int]] = {}  # address -> the parts of the mail its copy of the reply carries
        self.part = 0  # the part of the mail being read: each SIGNON or SIGNOFF starts one
        self.notices: dict[str, list[str]] = {}  # previous address -> changes it must hear of
        self.announcements: dict[int, list[str]] = {}  # game id -> what every player must hear of
        self.public: dict[int, list[str]] = {}  # game id -> what of it its observers must hear of too
        self.also_told: dict[int, set[str]] = {}  # game id -> addresses of players who just left it
        self.worded_apart: set[int] = set()  # games whose observers are told some news in other words
        self.master_told: set[int] = set()  # the games whose master hears their announcements too
        self.cache: dict[Any, Any] = {}  # what a game's kind keeps for the rest of the mail
        self.attachments: list[Attachment] = []  # sent with the reply (MAP), added by `attach`
        self.reply_bytes = 0  # the reply's answers and attachments so far (`echo`, `attach`)
        self.quoted = 0  # characters the reply has quoted of the mail's lines and their answers (`echo`)
        self.mails_sent = 0  # mails its commands caused, and the announcement rounds it will send (`rounds`)
        self.rounds: dict[int, int] = {}  # game id -> the mails its announcement round may send (in `mails_sent`)
        self.lookups = 0  # LIST, WHOGAME, GET INFO lines read
        self.password_checks = 0
        self.presses = 0
        self.press_copied = 0  # characters of press this mail sent, counted once per copy (`player.press`)
        self.once: set[type] = set()  # the commands read once per mail (`handles`) that it has read
        self.unknown_run: list[int] = []  # the echoes of the unknown commands since the last other line
        self.phase_changed: set[int] = set()  # the games whose phase this mail changed
        self.opened: set[int] = set()  # the games this mail started (its PROCESS may follow: `master._crossed`)
        self.processed = False  # whether a PROCESS or ROLLFORWARD of this mail processed a phase
        self.touched: set[str] = set()  # the games this mail looked at
        # the phases its PHASE lines name (`judge.service.late`), and whether it is a CHECK (a dry run: `run`)
        self.named = [line.command.phase for line in self.lines if isinstance(line.command, cmd.PhaseNamed)]
        self.check = any(isinstance(line.command, cmd.Check) for line in self.lines)
        self.meant: dict[int, late.Meant | None] = {}  # game id -> the phase the mail was meant for, if not the game's
        self.held: set[tuple[str, int]] = set()  # (why, game id): the lines held back, told once in a note

    def run(self) -> Refusal | None:
        """Act on every line and queue the reply; returns the refusal if a sign-on was refused."""
        if self.mail.no_text:
            self.notes.append("Your mail had no text part the judge could read; send your commands as plain text.")
        if self.mail.html_only:
            self.notes.append("Your mail had no plain-text part: the judge read its HTML part as text.")
        if self.mail.truncated:
            self.notes.append("Your mail was too long: only its beginning was read.")
        if self.mail.from_attachment:
            self.notes.append("Your mail had no text of its own: the judge read your commands from its text "
                              "attachment.")
        if self.mail.stopped_at:
            self.notes.append(stopped_reading(self.mail.stopped_at))
        lines = self.lines
        limit = self.settings.max_commands_per_mail
        if len(lines) > limit:
            self.notes.append(f"Your mail had {len(lines)} commands: only the first {limit} were read.")
            lines = lines[:limit]
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
            self.notes.append("CHECK: this mail was a check. Each line below says how the judge read it and what it "
                              "would have done, but nothing in it was applied, stored or sent: send it again without "
                              "the line CHECK to apply it.")
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
            if address != self.mail.reply_to:
                queue(self.session, self.settings, to=address, subject=f"Copy: {subject}", kind="reply", now=self.now,
                      body=render("reply", echoes=[echo for echo in self.echoes if echo.part in parts],
                                  notes=self.notes, settings=self.settings))
        for game_id, news in self.announcements.items():
            self._announce(game_id, news, self.public.get(game_id, []))
        for address, changes in sorted(self.notices.items()):
            queue(self.session, self.settings, to=address, subject="Your registration with the judge changed",
                  kind="notice", now=self.now,
                  body=render("changed", changes=changes, mail=self.mail, now=self.now, settings=self.settings))
        self._process_if_complete()
        return None

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
            self.echoes[index].message = f"not a command: taken as your {what}"
            self.echoes[index].code = what.upper().replace("-", "_")  # GREETING, SIGN_OFF

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
            outcome, extra, code = "error", [], "REPLY_TOO_LONG"
            message = (f"not answered: this reply has reached the judge's limit of {self.settings.max_reply_bytes:,} "
                       "bytes; ask again in another mail")
            size = _echo_bytes(text, message, extra)
        self.reply_bytes += size
        self.echoes.append(Echo(self.mask(text), outcome, self.mask(message), extra, self.part, code))
        return len(self.echoes) - 1

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
        return (f"the answer ({size:,} bytes) would take this reply over the judge's limit of "
                f"{self.settings.max_reply_bytes:,} bytes; ask for less, or in another mail")

    def answer_long(self, text: str, filename: str, body: str, what: str, more: str = "",
                    game: Game | None = None) -> None:
        """Answer the line ``text`` with ``body``: in the reply, or attached as ``filename`` if it
        is longer than ``LONG`` lines (and if the reply has room); an answer about ``game``, with
        its moments in the reader's zone for it (`localized`), attached or not."""
        if game is not None:
            body = self.localized(game, body)
        if len(body) > LONGEST:  # what one mail may cost: a reply the judge keeps is at most a few of these
            cut = body.rfind("\n", 0, LONGEST) + 1 or LONGEST
            body = body[:cut] + f"\n[cut at {LONGEST:,} characters: ask for less at once]\n"
            more += f"; cut at {LONGEST:,} characters"
        lines = body.splitlines()
        if len(lines) <= LONG:
            self.echo(text, "info", more[2:], lines)
            return
        attachment = Attachment(filename, "text/plain", body.encode("utf-8"))
        if self.attach([attachment]):
            self.echo(text, "ok", f"{what} attached as {filename} ({len(lines)} lines){more}")
        else:
            self.echo(text, "error", self.too_big(len(attachment.data)), code="REPLY_TOO_LONG")

    def localized(self, game: Game, text: str) -> str:
        """``text``, an answer about ``game``, with its moments in the zone its reader reads that
        game in (`zones.reader_zone`: a player's own, else the game's), whatever game the reply is
        signed on to: the reply's own pass leaves them be."""
        zone = zones.reader_zone(self.session, game.id, self.mail.reply_to)
        return zones.localize(text, zone) if zone is not None else text

    def master_of(self, game: Game) -> bool:
        """Whether the mail is signed on as the master of ``game`` (not of another game)."""
        return self.context.is_master and self.context.game is not None and self.context.game.id == game.id

    def reader_of(self, game: Game) -> str:
        """Who an answer about ``game`` goes to, as `host.who_played` and `host.who_plays` need it: the game's master
        (signed on as such, or answered at its address), one of its players (answered at a
        player's address), or anyone else.  The answer goes to the mail's reply address, so a
        forged From gains nothing."""
        if self.master_of(game) or self.mail.reply_to == game.gm_address:
            return "master"
        signed_on = self.context.game is not None and self.context.game.id == game.id
        if signed_on or self.mail.reply_to in {p.address for p in host.players(self.session, game)}:
            return "player"
        return "anyone"

    def send(self, *, to: str, subject: str, body: str, kind: str, game_id: int | None = None) -> bool:
        """Queue a mail a command causes, unless this mail has already caused ``max_mails_per_mail``."""
        if self.mails_sent >= self.settings.max_mails_per_mail:
            return False
        self.mails_sent += 1
        queue(self.session, self.settings, to=to, subject=subject, body=body, kind=kind, now=self.now,
              game_id=game_id)
        return True

    def announce(self, what: str, also: str | None = None, game: Game | None = None, master: bool = True,
                 public: bool = False, observers: str | None = None) -> None:
        """Tell every player of the signed-on game (or ``game``; and ``also``, a player who just
        left it) what happened: one mail per player and mail, sent after the reply (or before a
        phase's results: `announce_now`).  The subject is ``what`` up to its first ": ".  The game
        master gets a copy (as the classic judges send it) of what its own mail did not do, as it
        must find a new player for a seat its player left and keep the deadlines: a resignation, an
        absence; not with ``master`` False, where it has a notice of its own (a takeover, a
        replacement).  ``public``: the game's observers are told too, as what anyone watching the
        game may know (the game master's changes to its clock, phases and rules), never a
        player's address or secret; ``observers``: what they are told instead, where ``what``
        names an address (a seat taken over), which then is never folded into the results."""
        game = game or self.context.game
        assert game is not None
        if game.id not in self.rounds:
            self.rounds[game.id] = self.round_size(game)
            self.mails_sent += self.rounds[game.id]
        self.announcements.setdefault(game.id, []).append(what)
        if public or observers:
            self.public.setdefault(game.id, []).append(observers or what)
        if observers and observers != what:
            self.worded_apart.add(game.id)
        if also:
            self.also_told.setdefault(game.id, set()).add(also)
        if master and not self.master_of(game):
            self.master_told.add(game.id)

    def round_size(self, game: Game) -> int:
        """The most mails one announcement round to ``game`` sends: one to each of its players,
        its observers and its game master."""
        played = sum(1 for player in host.seats(self.session, game).values() if host.is_played(player))
        return played + len(host.observers(self.session, game)) + 1

    def over_budget(self, game: Game) -> str | None:
        """Why a command that announces to ``game`` may not be done in this mail: its announcement
        round would take the mail over ``max_mails_per_mail``; None if it may.  A mail's first
        round is never refused, whatever the game's size (as its first processing is not), nor a
        command whose news joins a round the mail sends already."""
        if game.id in self.rounds or not self.mails_sent:
            return None
        size, budget = self.round_size(game), self.settings.max_mails_per_mail
        if self.mails_sent + size <= budget:
            return None
        return (f"not done: this mail has already caused {self.mails_sent} mails, and telling {game.name}'s players "
                f"and observers would be {size} more, over the judge's limit of {budget} a mail: send it in a mail "
                "of its own")

    def foldable(self, game: Game) -> int:
        """The mails of ``game``'s announcement round that `take_news` would save: all of its round
        when every piece of news is public, in the same words for every reader, and goes to no one
        who left the game (so every reader of the phase's results may read it), else none."""
        news = self.announcements.get(game.id)
        if (not news or game.id in self.also_told or game.id in self.worded_apart
                or len(self.public.get(game.id, [])) != len(news)):
            return 0
        return self.rounds.get(game.id, 0)

    def take_news(self, game: Game) -> list[str]:
        """What this mail announced to ``game``, taken out of its announcement round to be said in
        the results of the phase it processes instead (one mail per reader, not two), when every
        reader of the results may read it (`foldable`); else nothing, and the round stays."""
        if not self.foldable(game):
            return []
        self.mails_sent -= self.rounds.pop(game.id)
        self.public.pop(game.id, None)
        self.master_told.discard(game.id)
        return self.announcements.pop(game.id)

    def announce_now(self, game: Game) -> None:
        """Queue what this mail announced to ``game``'s players so far now, not after the reply:
        before the results of a phase the game master's command processes, so that they read
        why (a ROLLFORWARD) before what came of it, and the mail names the phase as it is then."""
        if news := self.announcements.pop(game.id, None):
            self._announce(game.id, news, self.public.pop(game.id, []))

    def _announce(self, game_id: int, news: list[str], public: list[str]) -> None:
        game = self.session.get(Game, game_id)
        assert game is not None
        played = {p.address for p in host.seats(self.session, game).values() if host.is_played(p)}
        told = played | self.also_told.get(game_id, set())
        if game_id in self.master_told:
            told.add(game.gm_address)
        watching = [address for address in host.observers(self.session, game) if address not in told] if public else []
        for readers, lines in ((sorted(a for a in told if a), news), (watching, public)):
            headline = lines[0].split(": ", 1)[0] if lines else ""
            subject = f"{game.name}: " + (headline if len(lines) == 1 else f"{headline} (and more)")
            body = render("announcement", game=game, news=lines) if readers else ""
            for address in readers:
                queue(self.session, self.settings, to=address, subject=subject[:200], kind="announcement",
                      now=self.now, game_id=game.id, body=body)

    def superseded(self, since: datetime | None, what: str) -> str | None:
        """Why this mail may not set ``what`` (a power's sheet, orders, list or vote): a later
        mail, accepted at ``since``, has set it already, and an older mail never replaces a
        newer one, whatever order they are delivered in; None if it may (never set by mail, or
        set by a mail accepted no later than this one: then the order of arrival decides)."""
        if since is None or since <= self.accepted:
            return None
        return (f"not applied: this mail was accepted {self.accepted:%Y-%m-%d %H:%M:%S} UTC, and a later one, "
                f"accepted {since:%Y-%m-%d %H:%M:%S} UTC, has already set {what} (mail held on its way may be "
                "delivered out of order)")

    def set_aside(self, block: Sequence[tuple[int, str]], why: str, code: str = "SUPERSEDED") -> None:
        """Answer the lines of a block not applied as a whole (echo indexes and texts): each
        ``ignored`` with ``code``, the last one saying ``why``."""
        for index, _ in block:
            self.echoes[index].outcome, self.echoes[index].message = "ignored", "not applied: see below"
            self.echoes[index].code = code
        self.echoes[block[-1][0]].message = why

    def proved(self, address: str) -> None:
        """Note that this mail proved ``address`` is its writer's: it signed on to a seat (or as
        master) registered at it, or made a change for it.  If the reply goes there, it is sent
        whatever the hour's count of answers to that address (`judge.service.handlers.mail`)."""
        if address and address == self.mail.reply_to:
            self.proven = True

    def copy_to(self, address: str) -> None:
        """Send ``address`` (a seat's registered address, one it moves to) a copy of the reply's
        part that is being read: the lines of this sign-on, not the other sign-ons' of the same
        mail (another power's offers are not that address's to read)."""
        self.copies.setdefault(address, set()).add(self.part)

    def tell_registered(self, change: str) -> None:
        """Note a change of the signed-on seat's registration for the address it had at sign-on,
        which is told of all of them in one notice."""
        if self.context.registered:
            self.notices.setdefault(self.context.registered, []).append(change)

    # -- dispatch ----------------------------------------------------------------------------

    def _syntax_error(self, command: cmd.BadCommand) -> str:
        """What is wrong with a line that cannot be read: a JOIN naming a game is answered with that
        game's kind's usage (a power, a country or a name), any other with the reader's words."""
        if isinstance(command, cmd.BadJoin) and command.game is not None:
            kind = self.session.scalar(select(Game.kind).where(Game.name == command.game))  # no lock: only read
            if kind is not None:
                return f"expected {(self.kinds.named(kind) if kind else self.kinds.default).join_usage}"
        return command.error

    def _line(self, line: cmd.Line) -> bool:
        """Handle one line; False when the rest of the mail must not be read."""
        command = line.command
        if isinstance(command, cmd.GameLine):  # the signed-on game's kind reads it
            game = self.context.game
            command = (self.kinds.of(game) if game is not None else self.kinds.default).read(line.text, game)
        if isinstance(command, cmd.Unknown):
            self.unknown_run.append(self.echo(line.text, "error", command.error, code="UNKNOWN_COMMAND"))
            return True
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
            return True
        if isinstance(command, PASSWORD_COMMANDS):
            self.password_checks += 1
            if self.password_checks > self.settings.max_password_checks_per_mail:
                self.echo(line.text.split()[0], "error", f"at most {self.settings.max_password_checks_per_mail} "
                          "sign-ons and password commands are read in one mail; the rest of it was not read",
                          code="TOO_MANY_PASSWORDS")
                return False
        entry = self.kinds.dispatch[type(command)]
        if entry.once:
            if type(command) in self.once:
                self.echo(line.text, "error", f"one {line.text.split()[0].upper()} per mail: send the others in "
                          "mails of their own", code="ONE_PER_MAIL")
                return True
            self.once.add(type(command))
        if entry.lookup:
            self.lookups += 1
            if self.lookups > self.settings.max_lookups_per_mail:
                self.echo(line.text, "error", f"at most {self.settings.max_lookups_per_mail} LIST, WHOGAME and GET "
                          "INFO lines are answered in one mail: send the others in another mail",
                          code="TOO_MANY_LOOKUPS")
                return True
        if isinstance(command, cmd.SignOn | cmd.SignOff):
            self.close_block()
            self.part += 1
            if isinstance(command, cmd.SignOff):
                self.context = Context()
                self.echo(line.text, "ok", "signed off")
                return True
        who, game = entry.who, self.context.game
        if who != ANYONE and game is None:
            self.echo(line.text, "error", "sign on first: SIGNON SEAT@game password, SEAT being your power, "
                      "country or name in that game", code="SIGN_ON_FIRST")
        elif game is not None and game.state == GameState.FINISHED and entry.closed_after_the_end:
            won = f" ({self.kinds.of(game).seat_title(game.winner)} won)" if game.winner else ""
            self.echo(line.text, "error", f"{game.name} has ended{won}: nothing more can be done in it",
                      code="GAME_ENDED")
        elif who == MASTER and not self.context.is_master:
            self.echo(line.text, "error", "only the game master, signed on as MASTER@game, can do this",
                      code="MASTER_ONLY")
        elif who == PLAYER and self.context.is_master:
            self.echo(line.text, "error", f"that is a player's command; sign on as a {self.kinds.of(game).seat_word}"
                      if game is not None else "that is a player's command", code="PLAYER_ONLY")
        elif entry.announces and game is not None and (over := self.over_budget(game)):
            self.echo(line.text, "error", over, code="OVER_BUDGET")
        elif (held := self._held_back(command)) is not None:
            self.echo(line.text, "ignored", held.message, code=held.code)
        else:
            try:
                entry.handler(self, line.text, command)
            except Refusal as refusal:
                refusal.line = self.mask(line.text)  # the refusal quotes it, as every answer does
                raise
        return True

    def _held_back(self, command: cmd.Command) -> Why | None:
        """Why a line that acts for the signed-on seat (its game's orders, sheets, letters and own
        commands, and WAIT) is not done, or None: the mail was sent to others too, in a game that
        reads orders only from mail sent to the judge alone (`judge.service.kinds.Commands.orders_private`:
        Machiavelli's 17.4, M58); or it was meant for a phase other than the game's now
        (`judge.service.late`).  The reply says why once, in its notes; the mail's other
        commands are done as ever, and nothing held back counts as the seat's sending (a
        correction is not used up)."""
        game, seat = self.context.game, self.context.seat
        own = self.kinds.dispatch.is_games(type(command))
        if game is None or seat is None or game.state not in RUNNING or not (own or isinstance(command, cmd.Wait)):
            return None
        kind = self.kinds.of(game)
        judge = self.settings.judge_address.lower()
        others = [address for address in self.mail.recipients if address != judge]
        if own and kind.orders_private and others:
            if ("private", game.id) not in self.held:
                self.held.add(("private", game.id))
                named = ", ".join(others[:3]) + (f" and {len(others) - 3} more" if len(others) > 3 else "")
                self.notes.append(f"This mail was sent to others too ({named}): {kind.title} takes orders only from "
                                  f"mail sent to the judge alone ({kind.orders_private}), so none of its lines for "
                                  f"your {kind.seat_word} was taken, and none counts as a letter or a correction of "
                                  f"yours; its other commands were read. Send your orders to "
                                  f"{self.settings.judge_address} alone.")
            return Why("SENT_TO_OTHERS", f"not taken: sent to others too ({kind.orders_private})")
        meant = self.meant_for(game)
        return None if meant is None else Why(*meant.reason())

    def meant_for(self, game: Game) -> late.Meant | None:
        """The phase of ``game`` this mail was meant for, if it names one that is not the game's now
        (`judge.service.late.meant_for`: read once per mail and game), told once in the reply's notes
        (above its lines); None if it acts on the phase now."""
        if game.id not in self.meant:
            phases = self.read_once(game, "phase rows", lambda: late.phases_of(self.session, game))
            self.meant[game.id] = late.meant_for(self.session, game, self.mail, self.named, phases)
        meant = self.meant[game.id]
        if meant is not None and ("late", game.id) not in self.held:
            self.held.add(("late", game.id))
            self.notes.append(meant.note(game, self.kinds.of(game).seat_word))
        return meant

    # -- the game and its phase ---------------------------------------------------------------

    @property
    def reads(self) -> Reads:
        """What the transaction's mails read once (`Reads`): looked up each time, as a rollback
        drops it."""
        return Reads.of(self.session)

    def game_named(self, name: str) -> Game | None:
        """The game called ``name``, its row locked until the mail's transaction ends (and its
        public pages looked at once it has); read once per transaction (`Reads`)."""
        read = self.reads.games
        game = read.get(name.lower())
        if game is None:
            game = self.session.scalar(_GAME, {"name": name.lower()})
            if game is None:
                return None
            read[game.name] = game
        self.touched.add(game.name)
        return game

    def named_game(self, text: str, name: str) -> Game | None:
        """`game`, or None after answering the line that there is no such game."""
        game = self.game_named(name)
        if game is None:
            self.echo(text, "error", f"there is no game '{name}'", code="NO_SUCH_GAME")
        return game

    def named_seat(self, text: str, game: Game, word: str) -> str | None:
        """The seat ``word`` names in ``game``, or None after answering the line what is wrong."""
        try:
            return self.kinds.of(game).seat(self.session, game, word)
        except ValueError as exc:
            self.echo(text, "error", str(exc), code="NO_SUCH_SEAT")
            return None

    def seats(self, game: Game) -> dict[str, Player]:
        """`host.seats` of ``game``, read once per transaction (`Reads`) once the game has started:
        from then on its seats keep their player rows (a seat changes hands by a change of its
        row, which is the same object for the whole session), so the dict stays true."""
        if game.state == GameState.FORMING:
            return host.seats(self.session, game)
        seats = self.reads.seats
        if game.id not in seats:
            seats[game.id] = host.seats(self.session, game)
        return seats[game.id]

    def close_block(self) -> None:
        """At the end of a seat's lines: its game's kind acts on them as a whole (`Context.block`),
        then answers its STATUS lines as things stand."""
        context = self.context
        if context.game is None or context.seat is None:
            return
        kind = self.kinds.of(context.game)
        kind.close_block(self)
        if context.status_echoes:
            lines = [host.status_header(context.game), *self.wait_lines(context.game, context.seat),
                     *kind.status(self), *silent_seats.lines(self.session, context.game)]
            for index in context.status_echoes:
                self.echoes[index].extra = list(lines)
        context.block, context.status_echoes = {}, []

    def wait_lines(self, game: Game, seat: str | None) -> list[str]:
        """What STATUS says of WAIT (`judge.service.handlers.player.wait`): to a seat (``seat``),
        whether its own stands; to the game master (None), which seats ask it.  Nobody else is told:
        a WAIT is secret from the other seats."""
        if game.phase is None or game.state not in RUNNING or not self.kinds.of(game).closes_early:
            return []
        waiting = host.seats_waiting(self.session, game)
        if seat is not None:
            return [f"you asked {game.phase} to WAIT for its deadline (NOWAIT to withdraw)"] if seat in waiting else []
        title = self.kinds.of(game).seat_title
        return [f"asking {game.phase} to WAIT for its deadline: {', '.join(map(title, waiting)) or 'nobody'}"]

    # -- what a kind of game sees of the mail (`judge.service.turn.Turn`) --------------------------------

    @property
    def game(self) -> Game | None:
        return self.context.game

    @property
    def seat(self) -> str | None:
        return self.context.seat

    @property
    def player(self) -> Player | None:
        return self.context.player

    def mark(self, index: int, outcome: str | None = None, message: str | None = None,
             code: str | None = None) -> None:
        echo = self.echoes[index]
        if code is not None or (outcome is not None and outcome != echo.outcome):
            echo.code = code  # a new outcome drops the old one's reason
        echo.outcome = outcome or echo.outcome
        echo.message = self.mask(_brief(message, QUOTED // 2)) if message is not None else echo.message

    def note(self, index: int, lines: Sequence[str], *, replace: bool = False) -> None:
        echo = self.echoes[index]
        echo.extra = [*([] if replace else echo.extra), *lines]

    def outcome(self, index: int) -> str:
        return self.echoes[index].outcome

    def message(self, index: int) -> str:
        return self.echoes[index].message

    def hold(self, name: str, text: str) -> int:
        index = self.echo(text, "ok")
        self.context.block.setdefault(name, []).append((index, text))
        return index

    def block(self, name: str) -> list[tuple[int, str]]:
        return list(self.context.block.get(name, []))

    def drop_blocks(self) -> None:
        self.context.block.clear()

    def may_change_phase(self, text: str, word: str) -> int | None:
        return phase_changes.may_change_phase(self, text, word)

    def changed_phase(self, word: str, results: int) -> None:
        phase_changes.changed_phase(self, word, results)

    def confirmed(self, text: str, word: str, code: str | None, what: str) -> bool:
        return phase_changes.confirmed(self, text, word, code, what)

    def read_once(self, game: Game, what: str, read: Callable[[], T]) -> T:
        kept = self.reads.phase
        key = (game.id, game.phase or "", what)
        if key not in kept:
            kept[key] = read()
        found: T = kept[key]
        return found

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


def _prose(text: str) -> bool:
    """Whether a line reads as prose rather than as a command: its first word is not written in
    capitals, as HELP writes every command (``Sorry, late!``, not ``WHOAMI classic``)."""
    letters = [c for c in text.split()[0] if c.isalpha()]
    return not letters or not all(c.isupper() for c in letters) or len(letters) == 1


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


def stopped_reading(separator: str) -> str:
    """The note that says where reading a mail stopped, and what it left unread: a signature
    after ``-- ``, the rest of the mail after ``SIGNOFF``, or the mail answered or forwarded."""
    if separator.strip() == "--":
        return (f"Reading stopped at the signature line '{separator}': what follows it (your signature) "
                "was not read.")
    if separator.strip().lower() == "signoff":
        return f"Reading stopped at '{separator.strip()}': what follows it was not read."
    return (f"Reading stopped at '{separator}': what follows it (the mail you answered or forwarded) "
            "was not read.")


def reply_subject(mail: InboundMail) -> str:
    subject = mail.subject.strip()
    return subject if subject.lower().startswith("re:") else f"Re: {subject or 'your mail to the judge'}"


def masked(text: str, password: str) -> str:
    """``text`` with the password *token* replaced by ``****`` (not other words that contain it)."""
    return " ".join("****" if word == password else word for word in text.split())
