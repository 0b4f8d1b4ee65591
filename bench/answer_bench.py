"""A player's mail answered, one at a time: the judge's CPU a mail on a quiet day, beside a peer revision's.

Run from the repository root::

    .venv/bin/python bench/answer_bench.py [--mails 300] [--rounds 5] [--peer DIR | --peer-rev REV]

Each run is a child process of the tree measured (``PYTHONPATH``): the judge of ``tests/support/harness.py``
(SQLite in a fresh temporary directory, mail injected as ``judge inject`` does, answers written into the Maildir
by the judge's own sender), the three-player Payola game most by-mail tests start from, then Alice, Bob and Carol
each sending an offer sheet in turn, each mail stored, applied and its answer sent before the next comes (one
pass of the sender a mail, as the daemon's sender passes after each mail that comes alone).  Timed: ``--mails``
mails after 30 not timed (the first use of each statement and template), by ``time.process_time`` in the child;
printed: the CPU a mail.  Ours and the peer's (``--peer DIR``, another tree of the judge, or ``--peer-rev REV``,
that commit of this repository unpacked by ``git archive``) run in turn, each first in every other round, and the
median of the rounds' ratios is printed (a round's two runs are close in time: a shared machine's drift cancels).
Both must answer every mail.  Nothing is asserted on the times.

Measured on this project's 2-core machine (2026-11-29), 300 mails, 7 rounds: 9.96 ms of CPU a mail against
12.49 ms for 94f939b2 (the rounds' ratios 0.80, 0.74 to 0.91): the sender's statements built once, the ORM no
longer bringing up to date a session that has loaded nothing before its bulk updates, and an answer's list
headers read without asking who plays the game when nobody observes it.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from sender_bench import peer_tree  # a sibling script: ``--peer`` or ``--peer-rev`` unpacked

ROOT = Path(__file__).resolve().parent.parent
WARM_UP = 30  # mails answered before the timing starts


def answer(mails: int) -> dict[str, float]:
    """The child: ``mails`` offer sheets answered one at a time, after `WARM_UP`; the CPU they took."""
    from sqlalchemy import func, select

    from judge.store.models import Outbox
    from tests.games.payola.by_mail import ENGLAND, FRANCE, GERMANY, start
    from tests.support.harness import Judge
    from tests.support.people import ALICE, BOB, CAROL

    sheets = ((ALICE, FRANCE + "2 : A PAR - BUR"), (BOB, GERMANY + "2 : A MUN - RUH"),
              (CAROL, ENGLAND + "1 : F LON - NTH"))
    with tempfile.TemporaryDirectory(prefix="answer-bench-") as tmp:
        judge = start(Judge(Path(tmp)))
        judge.deliver()
        began = 0.0
        for index in range(WARM_UP + mails):
            if index == WARM_UP:
                with judge.db.transaction() as session:
                    before = int(session.scalar(select(func.count()).where(Outbox.status == "sent")) or 0)
                began = time.process_time()
            sender, sheet = sheets[index % len(sheets)]
            judge.send(sender, sheet)
            judge.deliver()
        cpu = time.process_time() - began
        with judge.db.transaction() as session:
            sent = int(session.scalar(select(func.count()).where(Outbox.status == "sent")) or 0) - before
        judge.db.engine.dispose()
    return {"cpu": cpu, "sent": sent}


def child(tree: Path, mails: int) -> tuple[float, int]:
    """One timed run of the judge in ``tree``: its CPU seconds and the answers it sent."""
    environment = {**os.environ, "PYTHONPATH": str(tree)}
    done = subprocess.run([sys.executable, __file__, "--answer", str(mails)], env=environment, check=True,
                          capture_output=True, text=True, cwd=tree)
    result = json.loads(done.stdout.strip().splitlines()[-1])
    return result["cpu"], int(result["sent"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mails", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--peer", help="a tree of the judge to compare with")
    parser.add_argument("--peer-rev", default="94f939b2", help="a commit to compare with (default: %(default)s)")
    parser.add_argument("--answer", type=int, help=argparse.SUPPRESS)  # the child's part
    args = parser.parse_args()
    if args.answer:
        print(json.dumps(answer(args.answer)))
        return
    with tempfile.TemporaryDirectory(prefix="answer-bench-") as name:
        peer = peer_tree(args, Path(name))
        ours: list[float] = []
        theirs: list[float] = []
        for round_ in range(args.rounds):
            order = [(peer, theirs), (ROOT, ours)] if round_ % 2 else [(ROOT, ours), (peer, theirs)]
            for tree, figures in order:
                cpu, sent = child(tree, args.mails)
                if sent < args.mails:
                    sys.exit(f"{tree}: {sent} answers sent for {args.mails} mails: stopped")
                figures.append(cpu / args.mails * 1000)
            print(f"round {round_ + 1}: ours {ours[-1]:.2f} ms a mail, peer {theirs[-1]:.2f} ms", flush=True)
        paired = statistics.median(o / p for o, p in zip(ours, theirs, strict=True))
        print(f"CPU a mail answered (median of {args.rounds}): ours {statistics.median(ours):.2f} ms, peer ({peer}) "
              f"{statistics.median(theirs):.2f} ms; ours / peer, the median of the rounds' ratios: {paired:.2f}x")


if __name__ == "__main__":
    main()
