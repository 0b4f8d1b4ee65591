"""An HTTP server on a thread for the length of a test (the web server's tests, the browser's, the docs site's)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import HTTPServer


@contextmanager
def on_a_thread(server: HTTPServer) -> Iterator[int]:
    """The port ``server`` listens on while it serves on a thread; shut down and closed at the end."""
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server.server_address[1]
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
