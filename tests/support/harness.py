"""A judge on a temporary data directory, fed raw mails the way `judge inject` feeds them.

Besides the mail it sent (`Judge.all_mail`, `Judge.new_mail`), the harness keeps what the judge made of each
line of the mails a test sent (`Judge.answer`): the line's outcome (ok, error, ignored, info) and its code
(`Echo.code`: why, as a name), taken from the judge's own answers as it renders its reply, not read back from
the reply's words.  Tests of behaviour assert those; the words are asserted once, in the template tests."""

from __future__ import annotations

import atexit
import email
import email.message
import email.parser
import email.policy
import email.utils
import itertools
import os
import re
import shutil
import tempfile
import uuid
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from email.headerregistry import HeaderRegistry
from email.message import EmailMessage
from functools import cache, cached_property
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, bindparam, create_engine, func, make_url, select, text
from sqlalchemy.engine import Dialect
from sqlalchemy.sql.compiler import Compiled
from sqlalchemy.util import LRUCache

from judge.bootstrap import open_database
from judge.mail.headers import DEFAULT
from judge.mail.outbound import MaildirOutbox
from judge.service.config import Settings
from judge.service.hosting.kinds import Kinds
from judge.service.incoming.handlers import conversation
from judge.service.incoming.handlers.answers import Echo
from judge.service.incoming.handlers.conversation import Conversation, Refusal
from judge.service.outgoing.sender import send_due, transport_for
from judge.service.running.app import inject, process_game, run_deadlines
from judge.service.running.app import open_database as open_kinds_database_with
from judge.store.database import Database
from judge.store.models import ConfirmedAddress, Outbox
from tests.support.flowed import meant

_ids = itertools.count(1)
MX = "mx.test"  # the judge's MTA, where a test names none
TOKEN = re.compile(r"^CONFIRM (\S+)$", re.M)
TERMINATE_CODE = re.compile(r"to confirm, send TERMINATE (\S+)")


@dataclass(frozen=True)
class Sent:
    """A mail the judge sent, as read back from the Maildir: its text (as a reader shows it: format=flowed
    decoded, each paragraph on one line), and its attachments by name.  Its headers
    and attachments are read from the message when first asked for: most tests read neither, and reading every
    header of every mail was a third of what reading the mail back cost; and the message is parsed whole only
    then (`read_sent`)."""

    to: str
    subject: str
    body: str
    raw: bytes = field(repr=False, compare=False)

    @cached_property
    def message(self) -> EmailMessage:
        message = email.message_from_bytes(self.raw, policy=DEFAULT)
        assert isinstance(message, EmailMessage)
        return message

    @cached_property
    def headers(self) -> dict[str, str]:
        return {k: str(v) for k, v in self.message.items()}

    @cached_property
    def attachments(self) -> dict[str, tuple[str, bytes]]:
        """filename -> (content type, bytes)"""
        return {str(part.get_filename()): _attachment(part) for part in self.message.iter_attachments()}


@dataclass(frozen=True)
class Answer:
    """What the judge made of one line of a mail: its `Echo`, as it stood when the reply was rendered."""

    text: str  # the line as the reply quotes it (passwords masked)
    outcome: str  # ok, error, ignored, info
    code: str | None  # why, as a name (`Echo.code`); None where the judge names none
    message: str  # the words: for the template tests, not for tests of behaviour


@contextmanager
def recording(answers: list[Answer]) -> Iterator[None]:
    """Append to ``answers`` every line of every reply the judge renders meanwhile (a copy's lines again), and the
    line of a refused sign-on (its mail gets one short refusal instead: `Refusal.code` says why)."""
    names = vars(conversation)  # the reply is rendered by the name `render` that conversation imported
    real, real_run = names["render"], Conversation.run

    def render(template: str, **context: Any) -> str:
        echoes: list[Echo] = context.get("echoes", [])
        if template == "reply":
            answers.extend(Answer(e.text, e.outcome, e.code, e.message) for e in echoes)
        return str(real(template, **context))

    def run(self: Conversation) -> Refusal | None:
        refusal = real_run(self)
        if refusal is not None:
            answers.append(Answer(refusal.line, "error", refusal.code, ""))
        return refusal

    names["render"] = render
    Conversation.run = run  # type: ignore[method-assign]
    try:
        yield
    finally:
        names["render"] = real
        Conversation.run = real_run  # type: ignore[method-assign]


def raw_mail(sender: str, body: str, subject: str = "orders", headers: dict[str, str] | None = None,
             message_id: str | None = None) -> bytes:
    """A plain-text mail from ``sender`` to the judge (or the ``To`` of ``headers``), as the email package
    writes it (`EmailMessage.set_content`).  Most tests' mails are plain ASCII with short lines, which the
    package would write as given: those are written here, byte for byte as it would, in a hundredth of its
    time (`_plain_mail`: 5 us against 490; every by-mail test sends dozens of mails); the others are written by
    the package."""
    fields = mail_fields(sender, subject, headers or {}, message_id or f"<test{next(_ids)}@example.org>")
    plain = _plain_mail(fields, body)
    if plain is not None:
        return plain
    message = EmailMessage()
    for name, value in fields.items():
        message[name] = value
    message.set_content(body)
    return message.as_bytes()


def mail_fields(sender: str, subject: str, headers: dict[str, str], message_id: str) -> dict[str, str]:
    """The fields of a mail `raw_mail` writes, in their order: a test's own To replaces the judge's address alone."""
    return {"From": sender, "To": headers.get("To", "judge@localhost"), "Subject": subject, "Message-ID": message_id,
            **{name: value for name, value in headers.items() if name != "To"}}


_BARE_ADDRESS = re.compile(r"[A-Za-z0-9._%+=-]+@[A-Za-z0-9.-]+\Z")
_MESSAGE_ID = re.compile(r"<[A-Za-z0-9._%+=-]+@[A-Za-z0-9.-]+>\Z")
_WORDS = re.compile(r"[!-~]+(?: [!-~]+)*\Z")  # printable ASCII words, one space between
_ADDRESSES = {"from", "to", "cc", "bcc", "reply-to", "sender"}
_STRUCTURED = set(HeaderRegistry().registry)  # the fields the email package parses and writes anew


def _plain_mail(fields: dict[str, str], body: str) -> bytes | None:
    """The mail `raw_mail` writes, where the email package would write each of its fields and its text as given
    (None elsewhere): bare addresses, a plain Message-ID, other fields of printable ASCII words it would neither
    fold (each line within 78 characters) nor decode (no encoded word); a text whose every line is within 78
    bytes, which it sends as 7bit (ASCII) or 8bit (UTF-8)."""
    lines = []
    for name, value in fields.items():
        key = name.lower()
        if key in _ADDRESSES:
            plain = _BARE_ADDRESS.match(value) is not None
        elif key == "message-id":
            plain = _MESSAGE_ID.match(value) is not None
        else:
            plain = ((key == "subject" or key not in _STRUCTURED) and _WORDS.match(value) is not None
                     and "=?" not in value)
        line = f"{name}: {value}"
        if not plain or len(line) > 78:
            return None
        lines.append(line)
    text = body.encode("utf-8").splitlines()
    if max((len(line) for line in text), default=0) > 78:
        return None
    encoding = "7bit" if all(line.isascii() for line in text) else "8bit"
    head = "\n".join([*lines, 'Content-Type: text/plain; charset="utf-8"', f"Content-Transfer-Encoding: {encoding}",
                      "MIME-Version: 1.0"])
    return head.encode("ascii") + b"\n\n" + b"\n".join(text) + b"\n"


def fresh_database_url(schema: bool = True) -> str | None:
    """With JUDGE_TEST_DATABASE_URL set (a PostgreSQL server), a new database on it: at the newest
    schema, copied from a template this test process migrated once (migrating each of the suite's
    hundreds of databases cost half a second apiece), or empty (``schema=False``: for the tests
    of creating and changing a schema)."""
    base = os.environ.get("JUDGE_TEST_DATABASE_URL")
    if not base:
        return None
    template = _templates.get(base)
    if schema and template is None:
        template = _templates[base] = _new_database(base, None)
        made = Database(template)
        made.upgrade()
        made.engine.dispose()  # a template may have no connection while it is copied
    return _new_database(base, template if schema else None)


_templates: dict[str, str] = {}  # per server: a database at the newest schema, made once per test process


def seed_sqlite(data_dir: Path) -> None:
    """``data_dir``'s SQLite database, unless it has one, copied from one at the newest schema
    that this test process migrated once, as `fresh_database_url` does on PostgreSQL."""
    target = data_dir / "judge.db"
    if target.exists():
        return
    if not _sqlite_template:
        made = Path(tempfile.mkdtemp(prefix="judge-template-")) / "judge.db"
        atexit.register(shutil.rmtree, made.parent, True)
        database = Database(f"sqlite:///{made}")
        database.upgrade()
        database.engine.dispose()  # the last connection closed: the write-ahead log is in the file
        _sqlite_template.append(made)
    data_dir.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(_sqlite_template[0], target)


_sqlite_template: list[Path] = []


def _new_database(base: str, template: str | None) -> str:
    """A new database on the server of ``base``, copied from ``template`` (a URL on it) or empty."""
    name = f"judge_test_{uuid.uuid4().hex[:12]}"
    copy = f' TEMPLATE "{make_url(template).database}"' if template else ""
    admin = create_engine(base, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text(f'CREATE DATABASE "{name}"{copy}'))
    admin.dispose()
    return make_url(base).set(database=name).render_as_string(hide_password=False)


def share_statements(engine: Engine) -> None:
    """Let ``engine`` (a SQLite judge's) use the SQL that this test process's judges compiled before, as a
    judge that runs for months uses what it compiled: SQLAlchemy keeps the SQL it compiled in a cache of each
    engine's, keyed by the engine's dialect, so each of the suite's thousands of judges compiled again every
    statement it ran (a tenth of the by-mail tests' time).  The judges of a process share one cache and the
    dialect of the first that connected (made ready by that connection, as each judge's own is by its first:
    every SQLite file reads the same).  An engine opened before any had connected keeps its own dialect, and
    is the one shared if no other was: a dialect that never connected is not ready (it knows no SQLite
    version, which reflecting a table asks), and an engine given it would stay so, its own dialect made
    ready by its connection in its stead."""
    if engine.dialect.name != "sqlite":
        return
    shared = _SHARED.get("dialect")
    if shared is not None and shared.server_version_info is not None:
        engine.dialect = shared
    else:
        _SHARED["dialect"] = engine.dialect
    engine.update_execution_options(compiled_cache=_STATEMENTS)


_SHARED: dict[str, Dialect] = {}
_STATEMENTS: LRUCache[Any, Compiled] = LRUCache(5000)  # compiled SQL of this process's judges (`share_statements`)


def share_statements_of_every_database() -> None:
    """`share_statements` for every `Database` this test process opens, not only a `Judge`'s: the tests of the
    command line, of backups and moves, and of processes open theirs with `open_database` or `Database`."""
    opened = Database.__init__

    def __init__(self: Database, *args: Any, **kwargs: Any) -> None:
        opened(self, *args, **kwargs)
        share_statements(self.engine)

    Database.__init__ = __init__  # type: ignore[method-assign]


def open_kinds_database(settings: Settings, kinds: Kinds | None) -> Database:
    """The judge's database, its sessions knowing ``kinds`` (None: the judge's own kinds)."""
    return open_database(settings) if kinds is None else open_kinds_database_with(settings, kinds)


class Judge:
    """A judge on ``data_dir``.  Maps and public pages are off unless asked for (``maps=True``,
    ``web=True``): drawing them is what the tests of maps and pages are for, and it is slow."""

    def __init__(self, data_dir: Path, now: datetime = datetime(2026, 1, 5, 12, 0), kinds: Kinds | None = None,
                 **settings: Any) -> None:
        settings = {"maps": False, "web": False, "mta_hostname": MX, "mta_authenticates": True, **settings}
        # a database this judge made at the newest schema, nothing done with it yet: `start_game` may copy a
        # game already started into it (`_Started`) instead of playing the mails that start it again
        self.pristine = "database" not in settings and not (data_dir / "judge.db").exists()
        if "database" not in settings:  # a test's own database (an old one, to upgrade), or a new one
            settings["database"] = fresh_database_url()
            if settings["database"] is None:
                seed_sqlite(data_dir)
        self._owed = False  # mail is queued that the sender has not passed over yet (`deliver`)
        self._settings = Settings(data_dir=data_dir, **settings)
        self.kinds = kinds  # None: the judge's own (`judge.bootstrap.kinds`)
        self.db = open_kinds_database(self.settings, kinds)
        self._now = now
        self.read = 0
        self._sent: list[Sent] = []  # the mails read back from the Maildir so far, oldest first (`all_mail`)
        self._files: set[str] = set()  # their files' names
        self.vouched: set[str] = set()  # addresses whose mail the judge's MTA vouches for (`confirmed`)
        self.answers: list[Answer] = []  # the lines of the replies to the last mail sent (`answer`)

    def send(self, sender: str, body: str, confirm: bool = True, **kwargs: Any) -> str:
        if sender in self.vouched:
            kwargs["headers"] = {**vouching(self.settings, sender), **kwargs.get("headers", {})}
        return self.send_raw(raw_mail(sender, body, **kwargs), confirm)

    def send_raw(self, raw: bytes, confirm: bool = True) -> str:
        """Inject ``raw`` (with ``confirm``, as `inject_confirming` does); what it caused is sent at the next
        `deliver`, and what the judge made of its lines is kept (`answer`)."""
        self.pristine = False
        self.answers = []
        with recording(self.answers):
            if confirm:
                status = inject_confirming(self.db, self.settings, raw, self.now)
            else:
                status = inject(self.db, self.settings, raw, self.now)
        self._owed = True
        return status

    @property
    def settings(self) -> Settings:
        """The judge's settings: what it sends its mail through among them."""
        return self._settings

    @settings.setter
    def settings(self, settings: Settings) -> None:
        self.deliver()  # through the transport of the settings it was queued under
        self._settings = settings

    @property
    def now(self) -> datetime:
        """The judge's moment: what its mail is stored, applied and sent at, and its deadlines run at."""
        return self._now

    @now.setter
    def now(self, moment: datetime) -> None:
        self.deliver()  # at the moment the mail was queued
        self._now = moment

    def deliver(self) -> None:
        """Have the sender pass over what the judge queued since its last pass, as often as it takes (a pass
        hands over `SEND_LIMIT` mails at most), at the judge's moment and through its settings' transport.  A
        test's judge sends once a test reads its mail (`all_mail`), moves its clock or changes its settings, or
        asks (a test that reads the outbox, the Maildir or a relay itself), not after each mail: a daemon's
        sender, too, takes what several mails queued in one pass, and each pass costs the sender's queries
        whatever it sends (a seventh of the by-mail tests' time)."""
        if self._owed:
            self._owed = False
            while send_due(self.db, self.settings, transport_for(self.settings), self.now).more:
                pass

    def answer(self, line: str) -> Answer:
        """What the judge made of ``line`` (as the reply quotes it) in the last mail sent; its last answer if the
        mail had the line more than once."""
        found = [answer for answer in self.answers if answer.text == line]
        assert found, f"no answer to {line!r}; the answers: {[a.text for a in self.answers]}"
        return found[-1]

    def outcome_of(self, line: str) -> tuple[str, str | None]:
        """The outcome and code of `answer` ``line``: what a test of behaviour asserts."""
        found = self.answer(line)
        return found.outcome, found.code

    def outcomes_of(self, line: str) -> list[tuple[str, str | None]]:
        """The outcome and code of every answer to ``line`` in the last mail sent, in the mail's order (a line the
        mail holds more than once, a line answered in the reply and again in a copy)."""
        return [(answer.outcome, answer.code) for answer in self.answers if answer.text == line]

    def confirmed(self, *addresses: str) -> None:
        """Take ``addresses`` as having confirmed before (what `send` does the first time each
        asks for a game's mail), and their mail (`send`) as vouched for by the judge's MTA, for
        tests about what comes after."""
        self.pristine = False
        self.vouched.update(addresses)
        with self.db.transaction() as session:
            for address in addresses:
                if session.get(ConfirmedAddress, address) is None:
                    session.add(ConfirmedAddress(address=address, confirmed_at=self.now))

    def terminate(self, master: str, signon: str) -> str:
        """The game master's TERMINATE (``signon``: its SIGNON line), then TERMINATE with the code
        the judge answered it with, as a game master ends a game."""
        self.send(master, signon.rstrip("\n") + "\nTERMINATE")
        found = TERMINATE_CODE.search(self.last_to(master).body)
        assert found is not None, self.last_to(master).body
        return self.send(master, signon.rstrip("\n") + f"\nTERMINATE {found.group(1)}")

    def tick(self) -> list[str]:
        """What ``judge tick`` does for the deadlines now (its mail sent at the next `deliver`): the lines it logs."""
        self.pristine = False
        lines = run_deadlines(self.db, self.settings, self.now)
        self._owed = True
        return lines

    def later(self, hours: float) -> None:
        self.now += timedelta(hours=hours)  # a pristine judge stays pristine: `now` is part of `_Started`'s key

    def process(self, game: str, force: bool = False) -> str:
        self.pristine = False
        summary = process_game(self.db, self.settings, game, self.now, force=force)
        self._owed = True
        return summary

    def all_mail(self) -> list[Sent]:
        """Every mail the judge sent, oldest first, as read back from its Maildir; each file is read once."""
        self.deliver()
        for path in MaildirOutbox(self.settings.maildir).files(known=self._files):
            self._files.add(path.name)
            self._sent.append(read_sent(path.read_bytes()))
        return list(self._sent)

    def new_mail(self) -> list[Sent]:
        """Mails sent since the last call."""
        mails = self.all_mail()
        fresh = mails[self.read:]
        self.read = len(mails)
        return fresh

    def last_to(self, address: str) -> Sent:
        return [m for m in self.all_mail() if m.to == address][-1]


_HEADERS = email.parser.BytesHeaderParser(policy=email.policy.compat32)
_PART = email.parser.BytesParser(policy=email.policy.compat32)


def read_sent(raw: bytes) -> Sent:
    """The mail ``raw`` as the judge wrote it into its Maildir: its To and Subject as the email package reads
    them, and its text as a reader shows it (`meant`).  Only its headers and its text's part are parsed: a
    results mail's maps (a hundred KB of base64 each) were most of what parsing every mail whole cost.  The
    text is the message itself, or a multipart's first part where that is text/plain and not an attachment,
    as the judge writes them; any other mail is parsed whole, and its text found as a mail client finds it
    (``get_body``)."""
    head, _, rest = raw.partition(b"\n\n")
    headers = _HEADERS.parsebytes(head + b"\n\n")  # the values as stored: the package's own read only for two
    first: dict[str, str] = {}
    for name, value in headers.raw_items():
        first.setdefault(name.lower(), value)
    to, subject = (_header(name, first[name.lower()]) if name.lower() in first else "None"
                   for name in ("To", "Subject"))
    part: email.message.Message | None = None
    if headers.get_content_maintype() != "multipart":
        part = _PART.parsebytes(raw)
    elif (boundary := headers.get_boundary()) is not None:
        start = rest.find(f"--{boundary}\n".encode())
        end = rest.find(f"\n--{boundary}".encode(), start + 1) if start >= 0 else -1
        if end > start:  # the line end before a boundary is the boundary's (RFC 2046)
            part = _PART.parsebytes(rest[start + len(boundary) + 3:end])
    if part is None or part.get_content_type() != "text/plain" or part.get_content_disposition() == "attachment":
        whole = email.message_from_bytes(raw, policy=DEFAULT)
        assert isinstance(whole, EmailMessage)
        text = whole.get_body(preferencelist=("plain",))
        return Sent(to, subject, meant(text.get_content()) if text is not None else "", raw)
    payload = part.get_payload(decode=True)
    assert isinstance(payload, bytes)
    charset = part.get_param("charset", "ASCII")
    return Sent(to, subject, meant(payload.decode(str(charset), errors="replace")), raw)


@cache
def _header(name: str, value: str) -> str:
    """A header's value as the email package reads it: the same few To and Subject headers come again and again,
    and the package's parsing of them was some 0.6% of the suite's CPU."""
    return str(DEFAULT.header_fetch_parse(name, value))


def _attachment(part: EmailMessage) -> tuple[str, bytes]:
    """An attachment's content type and its bytes, decoded from the transfer encoding."""
    payload = part.get_payload(decode=True)
    assert isinstance(payload, bytes), part.get_content_type()
    return part.get_content_type(), payload


def vouching(settings: Settings, address: str) -> dict[str, str]:
    """The header with which the judge's MTA (``mta_hostname``, "mx.test" if none) vouches that a mail
    comes from ``address``: DMARC passed for its domain."""
    authserv = settings.mta_hostname or MX
    return {"Authentication-Results": f"{authserv}; dmarc=pass header.from={address.rpartition('@')[2]}"}


def inject_confirming(db: Database, settings: Settings, raw: bytes, now: datetime) -> str:
    """`inject` ``raw``, then answer with ``CONFIRM token`` every token the judge mailed to its
    From because of it, as a player asking for a game's mail for itself does the first time."""
    seen = last_outbox_id(db)
    status = inject(db, settings, raw, now)
    sender = email.utils.parseaddr(str(email.message_from_bytes(raw)["From"] or ""))[1]
    for token in tokens(db, sender, seen):
        inject_confirming(db, settings, raw_mail(sender, f"CONFIRM {token}"), now)
    return status


def last_outbox_id(db: Database) -> int:
    with db.engine.connect() as connection:  # a read alone: no session, no transaction to commit
        return connection.scalar(_LAST_OUTBOX) or 0


def tokens(db: Database, address: str, after: int = 0) -> list[str]:
    """The confirmation tokens the judge mailed to ``address`` (in outbox rows after ``after``)."""
    with db.engine.connect() as connection:
        bodies = connection.scalars(_NOTICES, {"after": after, "address": address})
        return [match.group(1) for body in bodies if body and (match := TOKEN.search(body))]


# The two reads of every mail a test sends (`inject_confirming`), made once: built, they took as long again.
_LAST_OUTBOX = select(func.max(Outbox.id))
_NOTICES = (select(Outbox.body).where(Outbox.id > bindparam("after"), Outbox.recipient == bindparam("address"),
                                      Outbox.kind == "notice")  # in any language
            .order_by(Outbox.id))


def start_game(judge: Judge, game: str, options: str = "",
               seats: tuple[tuple[str, str], ...] = (("alice@example.org", "FRANCE"), ("bob@example.org", "GERMANY"))
               ) -> Judge:
    """``judge`` with ``game`` created by gm@example.org (password gm-secret) with ``options`` at CREATE, each
    address of ``seats`` joined to its power (its password the address's name and "-pw": alice-pw), and started;
    the mail it caused is left unread.  Played once per test process on a pristine judge (`once`)."""
    return once(judge, _start_game, game, options, seats)


def _start_game(judge: Judge, game: str, options: str, seats: tuple[tuple[str, str], ...]) -> None:
    judge.send("gm@example.org", f"CREATE {game} gm-secret {options}".strip())
    for address, power in seats:
        judge.send(address, f"JOIN {game} {address.partition('@')[0]}-pw {power}")
    judge.send("gm@example.org", f"SIGNON MASTER@{game} gm-secret\nSTART")


def once(judge: Judge, build: Callable[..., object], *args: Hashable) -> Judge:
    """``judge`` after ``build(judge, *args)``.  On a pristine judge (`Judge.pristine`: nothing done with it yet)
    the build is played once per test process and copied after that (`_Built`): starting a game by mail (a CREATE,
    the JOINs, their CONFIRMs, the START) cost a fifth of a second, and some 500 tests start one of the same few
    games.  ``build`` must be a function of the module level whose result depends only on its arguments, the
    judge's moment and its settings (`_Built.key`); what it changes in the `Judge` object is copied too."""
    key = _Built.key(judge, build, *args) if judge.pristine else None
    if key in _built:
        _built[key].restore(judge)
        return judge
    build(judge, *args)
    if key is not None:
        _built[key] = _Built.of(judge)
    return judge


@dataclass(frozen=True)
class _Built:
    """A copy of a judge's data directory (and, on PostgreSQL, of its database) after a build (`once`), with what
    the `Judge` object kept of it: its moment, the mails read, the addresses vouched for, the last answers."""

    files: Path
    database: str | None  # a PostgreSQL database to copy (a template), or None
    now: datetime
    read: int
    vouched: frozenset[str]
    answers: tuple[Answer, ...]

    @staticmethod
    def key(judge: Judge, build: Callable[..., object], *args: Hashable) -> tuple[object, ...]:
        """What a build's result depends on: the build and its arguments, the moment, the kind of database (SQLite
        or PostgreSQL) and the settings but the data directory and the database."""
        settings = replace(judge.settings, data_dir=Path("."), database=None)
        kinds = tuple(kind.name for kind in judge.kinds) if judge.kinds is not None else None
        return (build.__module__, build.__qualname__, *args, judge.now, _dialect(judge), repr(settings), kinds)

    @classmethod
    def of(cls, judge: Judge) -> _Built:
        judge.deliver()
        judge.db.checkpoint(wait=True)
        judge.db.engine.dispose()  # no connection left: the files are whole, the database may serve as a template
        files = Path(tempfile.mkdtemp(prefix="judge-built-")) / "data"
        atexit.register(shutil.rmtree, files.parent, True)
        shutil.copytree(judge.settings.data_dir, files)  # the Maildir's files keep their times, and so their order
        database = None if _dialect(judge) == "sqlite" else judge.settings.database
        return cls(files, _new_database(database, database) if database else None, judge.now, judge.read,
                   frozenset(judge.vouched), tuple(judge.answers))

    def restore(self, judge: Judge) -> None:
        """Make ``judge`` (pristine) what the judge built was."""
        judge.db.engine.dispose()
        for stale in judge.settings.data_dir.iterdir():
            shutil.rmtree(stale) if stale.is_dir() else stale.unlink()
        shutil.copytree(self.files, judge.settings.data_dir, dirs_exist_ok=True)
        if self.database is not None:
            judge.settings = replace(judge.settings, database=_new_database(self.database, self.database))
        judge.db = open_kinds_database(judge.settings, judge.kinds)
        judge.pristine = False
        judge._sent, judge._files = [], set()
        judge.now, judge.read, judge.vouched, judge.answers = self.now, self.read, set(self.vouched), list(self.answers)


def _dialect(judge: Judge) -> str:
    return make_url(judge.settings.database_url).get_backend_name()


_built: dict[tuple[object, ...], _Built] = {}  # per test process: the builds `once` played on pristine judges


def two_player_game(judge: Judge) -> Judge:
    """``judge`` with game g1 created by gm@example.org (password gm-secret) and started with
    alice@example.org as France (alice-pw) and bob@example.org as Germany (bob-pw); the mail
    so far is read."""
    return once(judge, _two_player_game)


def _two_player_game(judge: Judge) -> None:
    start_game(judge, "g1")
    judge.new_mail()
