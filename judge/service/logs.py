"""Bounded logs: a flood of one kind of line is cut to a few lines and a count.

A client hammering the listener, or a failure repeated every few seconds, must not fill the
disk: `RepeatFilter` on the log handler lets the first few records of each kind through and
counts the rest.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

SUMMARY = "repeat_summary"  # attribute marking the summary records, which are never held back
MAX_KINDS = 10_000  # kinds tracked at once; beyond, the oldest window ends early

_Kind = tuple[str, int, str]  # logger, level, message template


@dataclass
class _Window:
    """One kind's current interval: when it began, records let through, records held back."""

    start: float
    passed: int = 1
    suppressed: int = 0


class RepeatFilter(logging.Filter):
    """Lets at most ``burst`` records of one kind through per ``interval`` seconds.

    Records are of one kind when they share logger, level and message template (the format
    string before its arguments are put in), so ``refused recipient %s`` from a thousand
    connections is one kind.  Those beyond ``burst`` are counted, not written; when a kind's
    interval has ended, the next record of any kind first sends ``emit`` one line of that
    level, ``<template> ... N similar lines suppressed``.  `flush` sends what is still counted.
    """

    def __init__(self, emit: Callable[[logging.LogRecord], object], *, burst: int = 10, interval: float = 60.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self.emit, self.burst, self.interval, self.clock = emit, burst, interval, clock
        self._windows: OrderedDict[_Kind, _Window] = OrderedDict()  # oldest start first
        self._lock = threading.Lock()  # records come from the event loop and worker threads

    def filter(self, record: logging.LogRecord) -> bool:
        if getattr(record, SUMMARY, False):
            return True
        now = self.clock()
        kind = (record.name, record.levelno, str(record.msg))
        with self._lock:
            ended = self._end_windows(lambda window: window.start + self.interval <= now)
            window = self._windows.get(kind)
            if window is None:
                self._windows[kind] = _Window(start=now)
                passed = True
            elif window.passed < self.burst:
                window.passed += 1
                passed = True
            else:
                window.suppressed += 1
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
                summaries.append(_summary(kind, window.suppressed))
        return summaries

    def _send(self, summaries: list[logging.LogRecord]) -> None:
        for summary in summaries:  # outside the lock: emitting comes back through filter
            self.emit(summary)


def _summary(kind: _Kind, suppressed: int) -> logging.LogRecord:
    """The line that stands for ``suppressed`` records of ``kind``."""
    name, level, template = kind
    record = logging.LogRecord(name, level, "", 0, f"{template} ... {suppressed} similar lines suppressed", (), None)
    setattr(record, SUMMARY, True)
    return record
