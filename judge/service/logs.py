"""Logs a game master can read: one line per event, floods cut short, nothing logged that did not happen.

A client hammering the listener, or a failure repeated every few seconds, must not fill the
disk: `RepeatFilter` on the log handler lets the first few records of each kind through and
counts the rest.  It holds back only what can flood: the SMTP listener's lines (``judge.smtp``:
connections, refused recipients, mail it could not store) and aiosmtpd's (``mail.log``), which
anyone on the Internet can cause at will, and warnings and errors, which a fault can repeat
every few seconds.  A traceback, which runs to dozens of lines, is written once an hour for a
fault that goes on (`AGAIN`): a record of a kind whose traceback was written within the hour
before is written as one line, with its exception's name and words (a database down for an hour
wrote a traceback every five seconds, about 7 MB; then the clock's, once a minute, 1.3 MB).
The routine lines of the judge's work (a mail stored and applied, a phase processed, mail sent or
deferred) are never held back: each is the record of something that happened once.

Where the lines go: standard error (the journal, under systemd), or a file (``log-file``, for a
judge without systemd) that is opened again whenever it has been moved or removed, so that a
log rotation needs no signal (`LogFile`).

`log_on_commit` logs a line only once the transaction of the change it tells of has committed,
so a phase processed inside a mail that is then quarantined, or inside a rolled-back PREVIEW,
leaves no line saying it was processed.
"""

from __future__ import annotations

import logging
import logging.handlers
import os
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from io import TextIOWrapper
from pathlib import Path
from typing import Any

from sqlalchemy import event
from sqlalchemy.orm import Session, SessionTransaction

SUMMARY = "repeat_summary"  # attribute marking the summary records, which are never held back
MAX_KINDS = 10_000  # kinds tracked at once; beyond, the oldest window ends early
AGAIN = 3600.0  # seconds after which a fault that goes on has its traceback written again
FLOODING = ("judge.smtp", "mail.log")  # loggers (and their children) whose lines anyone can cause
_ON_COMMIT = "judge_log_on_commit"  # a session's info key: the lines waiting for its commit


def floods(record: logging.LogRecord) -> bool:
    """Whether ``record`` is of a kind that can flood: the listener's, aiosmtpd's, a warning or an error."""
    return record.levelno >= logging.WARNING or any(record.name == name or record.name.startswith(f"{name}.")
                                                  for name in FLOODING)


_Kind = tuple[str, int, str]  # logger, level, message template


@dataclass
class _Window:
    """One kind's current interval: when it began, records let through, records held back."""

    start: float
    passed: int = 1
    suppressed: int = 0
    example: str = ""  # the first line held back, as it would have been written


class RepeatFilter(logging.Filter):
    """Lets at most ``burst`` records of one kind through per ``interval`` seconds.

    Only records that can flood (`floods`) are looked at; every other one passes.  Records are
    of one kind when they share logger, level and message template (the format string before
    its arguments are put in), so ``refused recipient %s`` from a thousand connections is one
    kind.  Those beyond ``burst`` are counted, not written; when a kind's interval has ended,
    the next record of any kind first sends ``emit`` one line of that level, ``N similar lines
    suppressed, such as: <the first of them>``.  `flush` sends what is still counted.  A record
    of a kind whose record was written whole less than ``again`` seconds before loses its
    traceback (`_shorten`).
    """

    def __init__(self, emit: Callable[[logging.LogRecord], object], *, burst: int = 10, interval: float = 60.0,
                 again: float = AGAIN, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self.emit, self.burst, self.interval, self.again, self.clock = emit, burst, interval, again, clock
        self._windows: OrderedDict[_Kind, _Window] = OrderedDict()  # oldest start first
        self._seen: OrderedDict[_Kind, float] = OrderedDict()  # when each kind was last written whole, oldest first
        self._lock = threading.Lock()  # records come from the event loop and worker threads

    def filter(self, record: logging.LogRecord) -> bool:
        if getattr(record, SUMMARY, False) or not floods(record):
            return True
        now = self.clock()
        kind = (record.name, record.levelno, str(record.msg))
        with self._lock:
            ended = self._end_windows(lambda window: window.start + self.interval <= now)
            last = self._seen.get(kind)
            if last is not None and now - last < self.again:
                _shorten(record)
            else:
                self._seen.pop(kind, None)
                self._seen[kind] = now
                if len(self._seen) > MAX_KINDS:
                    self._seen.popitem(last=False)
            window = self._windows.get(kind)
            if window is None:
                self._windows[kind] = _Window(start=now)
                passed = True
            elif window.passed < self.burst:
                window.passed += 1
                passed = True
            else:
                window.suppressed += 1
                if window.suppressed == 1:
                    window.example = _one_line(record)
                passed = False
        self._send(ended)
        return passed

    def flush(self) -> None:
        """Send the summary of every kind with records held back now (at shutdown)."""
        with self._lock:
            ended = self._end_windows(lambda window: True)
        self._send(ended)

    def _end_windows(self, over: Callable[[_Window], bool]) -> list[logging.LogRecord]:
        """Forget the oldest windows while ``over`` says they are (or too many are kept); their summaries."""
        summaries = []
        while self._windows:
            kind, window = next(iter(self._windows.items()))
            if not over(window) and len(self._windows) <= MAX_KINDS:
                break
            del self._windows[kind]
            if window.suppressed:
                summaries.append(_summary(kind, window))
        return summaries

    def _send(self, summaries: list[logging.LogRecord]) -> None:
        for summary in summaries:  # outside the lock: emitting comes back through filter
            self.emit(summary)


class LogFile(logging.handlers.WatchedFileHandler):
    """The judge's log file: opened again when it has been moved or removed (a log rotation), and
    made the process's standard error as well each time, so that what is written there outside
    the log (a traceback Python itself prints) goes with the log, never to a rotated file."""

    def _open(self) -> TextIOWrapper:
        stream = super()._open()
        os.dup2(stream.fileno(), 2)
        return stream


def log_to(file: Path | None = None) -> RepeatFilter:
    """The judge's log (``judge serve``, ``judge tick``): a line per event on standard error, or
    in ``file`` (`LogFile`), floods of one kind cut short; `RepeatFilter.flush` it at the end."""
    handler: logging.Handler = logging.StreamHandler() if file is None else LogFile(file, encoding="utf-8")
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(message)s"))
    repeats = RepeatFilter(handler.handle)
    handler.addFilter(repeats)
    logging.basicConfig(level=logging.INFO, handlers=[handler])
    for noisy in ("alembic", "mail.log"):  # migrations' and aiosmtpd's own chatter
        logging.getLogger(noisy).setLevel(logging.WARNING)
    return repeats


def _shorten(record: logging.LogRecord) -> None:
    """A record without its traceback: its message, then its exception's name and words on the
    same line (the traceback was written with the first record of its kind)."""
    if not record.exc_info or record.exc_info[1] is None:
        return
    error = record.exc_info[1]
    words = (str(error).splitlines() or [""])[0][:500]  # SQLAlchemy's second and third: the statement, a link
    record.msg = f"{_one_line(record)}: {type(error).__name__}: {words} (traceback as before)"
    record.args, record.exc_info, record.exc_text = (), None, None


def _one_line(record: logging.LogRecord) -> str:
    """A record's message as written (its arguments put in), on one line; never raises."""
    try:
        message = record.getMessage()
    except Exception:  # a bad format is the logging module's to report, not the summary's
        message = str(record.msg)
    return " ".join(message.split())


def _summary(kind: _Kind, window: _Window) -> logging.LogRecord:
    """The line that stands for the records of ``kind`` that ``window`` held back."""
    name, level, _ = kind
    text = f"{window.suppressed} similar lines suppressed, such as: {window.example}"
    record = logging.LogRecord(name, level, "", 0, text, (), None)
    setattr(record, SUMMARY, True)
    return record


def log_on_commit(session: Session, logger: logging.Logger, message: str, *args: Any) -> None:
    """Log ``message`` (INFO) once ``session``'s transaction commits; never if what it tells of
    is rolled back, by the whole transaction or by the savepoint it was said in."""
    said_in = session.get_nested_transaction() or session.get_transaction()
    session.info.setdefault(_ON_COMMIT, []).append((said_in, logger, message, args))


@event.listens_for(Session, "after_commit")
def _commit(session: Session) -> None:
    if session.in_nested_transaction():  # a savepoint released: its lines wait for the transaction
        return
    for _, logger, message, args in session.info.pop(_ON_COMMIT, []):
        logger.info(message, *args)


@event.listens_for(Session, "after_soft_rollback")
def _roll_back(session: Session, previous: SessionTransaction) -> None:
    """Forget the lines said inside the transaction or savepoint just rolled back."""
    waiting = session.info.get(_ON_COMMIT)
    if waiting:
        session.info[_ON_COMMIT] = [line for line in waiting if not _inside(line[0], previous)]


def _inside(transaction: SessionTransaction | None, outer: SessionTransaction) -> bool:
    while transaction is not None:
        if transaction is outer:
            return True
        transaction = transaction.parent
    return False
