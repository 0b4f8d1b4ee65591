"""A judge on a machine of its own (network namespaces joined by veth links, `bench/machines.py`),
its database on another: cut off from the database, its listener answers 451 for the mail it
cannot store (the MTA keeps it and tries again), and once the link returns it stores and applies
again.  Needs root, ``ip netns``, PostgreSQL's binaries (``JUDGE_TEST_PG_BIN``, default
/usr/lib/postgresql/15/bin) and its driver (the ``postgres`` extra); skipped otherwise, so it runs
in CI's PostgreSQL stage (it is marked ``database``).  The measurements (partition, loss, skew,
scaling) are bench/machines.py's."""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from judge.store.models import InboundMail

BENCH = Path(__file__).resolve().parents[2] / "bench"
PG_BIN = Path(os.environ.get("JUDGE_TEST_PG_BIN", "/usr/lib/postgresql/15/bin"))
PREFIX = "jt"  # not the bench's "jm": both may run at once
# The judge's connections give up on a database out of reach after 4 s, not its own 20 s and 10 s (which
# test_cut_off.py holds): the same way to a 451, half a minute sooner.
QUICK = "tcp_user_timeout=4000&keepalives_idle=1&keepalives_interval=1&keepalives_count=3&connect_timeout=4"


def _namespaces_usable() -> bool:
    if importlib.util.find_spec("psycopg") is None:
        return False
    if os.geteuid() != 0 or shutil.which("ip") is None or not (PG_BIN / "initdb").exists():
        return False
    made = subprocess.run(["ip", "netns", "add", f"{PREFIX}-probe"], capture_output=True).returncode == 0
    subprocess.run(["ip", "netns", "del", f"{PREFIX}-probe"], capture_output=True)
    return made


pytestmark = pytest.mark.skipif(not _namespaces_usable(),
                                reason="needs root, network namespaces (ip netns), PostgreSQL's binaries and psycopg")


@pytest.fixture
def bench() -> Iterator[Any]:
    """bench/machines.py, imported as a module."""
    sys.path.insert(0, str(BENCH))
    try:
        import machines

        yield machines
    finally:
        sys.path.remove(str(BENCH))


def _help(load_bench: Any, sender: str) -> Any:
    return load_bench.Mail(sender, load_bench.message(sender, "HELP", subject="help").as_bytes())


def _statuses(db: Any) -> list[str]:
    with db.transaction() as session:
        return list(session.scalars(select(InboundMail.status).order_by(InboundMail.id)))


def test_a_judge_cut_off_from_its_database_answers_451_and_stores_again_once_the_link_returns(bench: Any) -> None:
    root = Path(tempfile.mkdtemp(prefix=f"{PREFIX}-"))
    root.chmod(0o755)  # PostgreSQL's user reads its cluster under it
    machines = bench.Machines(PG_BIN, cpu=1.0, prefix=PREFIX, net=75, root=root)
    try:
        machines.build(1)
        db = machines.fresh_database("judge")
        [judge] = machines.judges
        machines.start_judge(judge, "judge", options=QUICK)
        mta = bench.Mta([judge], timeout=120)
        assert mta._try(judge, _help(bench.load_bench, "before@example.org")) == "250"
        assert bench.wait_until(lambda: _statuses(db) == ["done"], 60)
        machines.cut(judge)
        assert mta._try(judge, _help(bench.load_bench, "during@example.org")) == "451"  # not 250: it cannot store
        assert any("could not store mail from during@example.org" in line
                   for line in bench._log_lines(judge, "could not store"))
        machines.heal(judge)
        assert bench.wait_until(lambda: mta._try(judge, _help(bench.load_bench, "during@example.org")) == "250", 120, 1)
        assert bench.wait_until(lambda: _statuses(db) == ["done", "done"], 60)  # the 451's mail, sent again, once
        db.engine.dispose()
    finally:
        machines.tear_down()
        shutil.rmtree(root, ignore_errors=True)
