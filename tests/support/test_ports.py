"""The ports the tests name for their servers: none from the range outgoing connections take theirs
from, none given twice, none that something already listens on."""

from __future__ import annotations

import socket

import pytest

from tests.support import ports


def test_ports_for_servers_lie_below_the_ephemeral_range_and_are_never_given_twice() -> None:
    given = [ports.free_port() for _ in range(50)]
    assert len(set(given)) == 50
    assert all(ports.LOWEST <= port < ports._ephemeral_start() for port in given)


def test_a_port_something_listens_on_is_passed_over(monkeypatch: pytest.MonkeyPatch) -> None:
    with socket.socket() as listening:
        listening.bind(("127.0.0.1", 0))
        listening.listen()
        busy = listening.getsockname()[1]
        monkeypatch.setattr(ports, "_candidates", iter([busy, busy + 1 if busy < 65535 else busy - 1]))
        assert ports.free_port() != busy
