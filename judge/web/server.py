"""``judge web``: the published pages served read-only over HTTP, for a small install.

The standard library's threading HTTP server, serving the files of ``<data-dir>/web`` and
nothing else: GET and HEAD only (anything else is 501), no directory listings, no hidden
files, and headers that forbid scripts and framing.  A larger install points any static web
server (nginx, Apache, a CDN) at the same folder instead.
"""

from __future__ import annotations

import logging
from functools import partial
from http import HTTPStatus
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from io import BytesIO
from os import PathLike
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

log = logging.getLogger("judge")

HEADERS = {
    "Content-Security-Policy": "default-src 'none'; img-src 'self'; style-src 'self'; base-uri 'none'; "
                               "form-action 'none'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-cache",  # pages change after every phase: revalidate (304) rather than go stale
}


class PagesHandler(SimpleHTTPRequestHandler):
    """Serves the pages' folder: files only, read-only."""

    server_version = "PayolaJudge"

    def version_string(self) -> str:
        return self.server_version

    def guess_type(self, path: str | PathLike[str]) -> str:
        kind = super().guess_type(path)
        return f"{kind}; charset=utf-8" if kind in ("text/html", "text/css") else kind

    def send_head(self) -> BytesIO | Any:
        path = unquote(urlsplit(self.path).path)
        if any(part.startswith(".") for part in path.split("/")):
            self.send_error(HTTPStatus.NOT_FOUND)
            return None
        return super().send_head()

    def list_directory(self, path: str | PathLike[str]) -> BytesIO | None:
        self.send_error(HTTPStatus.NOT_FOUND)
        return None

    def end_headers(self) -> None:
        for name, value in HEADERS.items():
            self.send_header(name, value)
        super().end_headers()

    def log_message(self, format: str, *args: Any) -> None:
        log.info("web %s %s", self.address_string(), format % args)


def make_server(folder: Path, host: str = "127.0.0.1", port: int = 8080) -> ThreadingHTTPServer:
    """A server for ``folder`` bound to ``host``:``port`` (0: any free port), not yet serving:
    call ``serve_forever`` (in a thread, if need be) and ``shutdown``."""
    server = ThreadingHTTPServer((host, port), partial(PagesHandler, directory=str(folder)))
    server.daemon_threads = True
    return server
