"""Start-up benchmark: how long ``judge serve`` takes from its exec to listening (issue 27: under 1 s).

Each run starts ``judge serve`` as a new process on a data directory made once beforehand (so the
database exists and its migrations are done, as at every start but the first) and times, from
the exec: the first TCP connection the listener accepts, the 250 to a first mail (``HELP``),
and the judge's answer to it in its Maildir (the applier has started and applied it).  Beside
it, the floor in the same run: a bare aiosmtpd server with a handler that does nothing,
started the same way in a fresh interpreter.  Medians and ranges over ``--runs``; nothing is
asserted: the script prints numbers.

Run: .venv/bin/python bench/startup_bench.py [--runs 7]
"""

from __future__ import annotations

import argparse
import os
import shutil
import smtplib
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from email.message import EmailMessage
from pathlib import Path

FLOOR = """
import asyncio, sys
from aiosmtpd.smtp import SMTP
class Nothing:
    async def handle_DATA(self, server, session, envelope):
        return "250 OK"
async def main():
    loop = asyncio.get_running_loop()
    await loop.create_server(lambda: SMTP(Nothing()), "127.0.0.1", int(sys.argv[1]))
    await asyncio.Event().wait()
asyncio.run(main())
"""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def until(condition: object, timeout: float = 60.0) -> float:
    """Poll ``condition`` until true; the moment it was (time.monotonic)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():  # type: ignore[operator]
            return time.monotonic()
        time.sleep(0.002)
    raise TimeoutError("condition not met")


def accepts(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1):
            return True
    except OSError:
        return False


def send_help(port: int) -> None:
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = "gm@example.org", "judge@localhost", "bench"
    message.set_content("HELP")
    with smtplib.SMTP("127.0.0.1", port, timeout=30) as client:
        client.send_message(message)


def answered(maildir: Path) -> bool:
    new = maildir / "new"
    return new.is_dir() and any(new.iterdir())


def one_judge(judge: Path, data: Path) -> tuple[float, float, float]:
    """Seconds from the exec to: listening, the 250 to HELP, its answer in the Maildir."""
    shutil.rmtree(data / "outbox", ignore_errors=True)
    port = free_port()
    start = time.monotonic()
    process = subprocess.Popen([str(judge), "serve", "--data-dir", str(data), "--port", str(port)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        listening = until(lambda: accepts(port))
        send_help(port)
        accepted = time.monotonic()
        done = until(lambda: answered(data / "outbox"))
    finally:
        process.terminate()
        process.wait(60)
    return listening - start, accepted - start, done - start


def one_floor() -> float:
    port = free_port()
    start = time.monotonic()
    process = subprocess.Popen([sys.executable, "-c", FLOOR, str(port)])
    try:
        return until(lambda: accepts(port)) - start
    finally:
        process.terminate()
        process.wait(60)


def spread(values: list[float]) -> str:
    return f"median {statistics.median(values):.2f} s (min {min(values):.2f}, max {max(values):.2f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    judge = Path(sys.executable).with_name("judge")
    data = Path(tempfile.mkdtemp(prefix="startup-bench-"))
    try:
        one_judge(judge, data)  # the first start makes the database: not timed
        runs = [one_judge(judge, data) for _ in range(args.runs)]
        floors = [one_floor() for _ in range(args.runs)]
    finally:
        shutil.rmtree(data, ignore_errors=True)
    listening = [run[0] for run in runs]
    print(f"judge serve, {args.runs} starts on an existing database ({os.cpu_count()} cores, "
          f"load {os.getloadavg()[0]:.1f}):")
    print(f"  listening:          {spread(listening)}  (target < 1 s)")
    print(f"  250 to a first mail: {spread([run[1] for run in runs])}")
    print(f"  its answer mailed:   {spread([run[2] for run in runs])}  (the applier started and applied it)")
    print(f"floor, a bare aiosmtpd server in a fresh interpreter: {spread(floors)}")
    print(f"ratio, judge listening / floor (medians): {statistics.median(listening) / statistics.median(floors):.1f}")


if __name__ == "__main__":
    main()
