"""Loopback ports for the servers a test starts on a port it must name first (a child judge, a relay,
Postfix's transport to a judge).

Why not the kernel's choice (bind to port 0, read the port, close): that port comes from the
ephemeral range, the one the kernel also gives every outgoing connection its local port from, and
between the probe's close and the server's bind one of them may take it — Postfix delivering,
aiosmtpd's own connection to the server it starts, a judge's connection to PostgreSQL — and the
server then fails with "address already in use" (seen in CI once in a while). So the ports here
are taken below that range, where no connection takes a local port; each pytest worker walks its own
share of it, from a random place (so that two runs on one machine seldom meet), and a port is given
only once it binds, and only once per process.
"""

from __future__ import annotations

import itertools
import os
import random
import socket
from collections.abc import Iterator
from pathlib import Path

LOWEST = 10_000  # below: the ports of well-known services a machine may run
RANGE = Path("/proc/sys/net/ipv4/ip_local_port_range")


def _ephemeral_start() -> int:
    """The lowest port the kernel hands to outgoing connections (Linux's default where not told)."""
    try:
        return int(RANGE.read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return 32_768


def _share() -> range:
    """This pytest worker's share of the ports below the ephemeral range (the whole, without xdist)."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw")
    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
    index = int(worker) if worker.isdigit() else 0
    width = (_ephemeral_start() - LOWEST) // max(workers, 1)
    return range(LOWEST + index * width, LOWEST + (index + 1) * width)


def _walk() -> Iterator[int]:
    share = _share()
    if len(share) < 16:  # a machine whose ephemeral range starts low: nothing safe to walk
        return iter(())
    start = random.randrange(len(share))
    return itertools.chain(share[start:], share[:start])


_candidates = _walk()


def free_port(host: str = "127.0.0.1") -> int:
    """A port on ``host`` that nothing listens on, that no outgoing connection will take, and that this
    process has not given before."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    for port in _candidates:
        with socket.socket(family) as probe:
            try:
                probe.bind((host, port))
            except OSError:
                continue
            return port
    with socket.socket(family) as probe:  # the share is used up, or there was none: the kernel's choice
        probe.bind((host, 0))
        return int(probe.getsockname()[1])
