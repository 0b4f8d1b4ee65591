"""Python's garbage collector in the judge's long-lived processes: ``judge serve``, its applier and its
deadline workers, and ``judge tick``, ``process`` and ``inject``, which do a daemon's work in one process.

Theory of operation.  What a process makes while it starts (its modules, the kinds' registry, the
statements and templates compiled for it) lives as long as the process: once started, the process
leaves it out of the collector's passes (`gc.freeze`), which would otherwise walk it at each full pass.
The work that follows (a mail applied, a game processed, its results rendered and sent) makes and drops
objects by the hundred thousand, few of them in reference cycles: reference counting frees them.  By
default Python passes over the objects made since its last pass every 700 allocations; whatever is still
in use then (a transaction's rows, a mail being built) moves to the older generations, which later passes
walk again, though it is dropped a moment after.  Passing every `YOUNG` allocations instead, most of it is
gone before the pass, and the passes over the older generations come some fourteen times less often.  A
cycle waits longer to be freed, and one that start-up left is never freed: the process holds a little more
memory (a twentieth more at the peak of the tick below).

Measured on this project's 2-core machine: a 300-game ``judge tick`` in one process (the English evening of
``bench/languages_bench.py``), six pairs by turns with the judge before this: 27.6 s of CPU against 30.2
(0.94, 0.88 to 1.03), its peak memory 350 MiB against 333.  In such a tick the collector's passes took 0.4 s
against 1.8 (68 passes against 1,291; frozen alone, 0.9 s); in 300 mails applied and answered in one
process, 1.3% of its CPU against 6.6% (timed with `gc.callbacks`).
"""

from __future__ import annotations

import gc

YOUNG = 10_000
"""Allocations between two passes over the youngest objects (Python's default: 700)."""


def long_lived() -> None:
    """The process has started and its work begins: what it has made so far is left out of the collector's
    passes, and the youngest objects are passed over every `YOUNG` allocations."""
    gc.freeze()
    gc.set_threshold(YOUNG, *gc.get_threshold()[1:])
