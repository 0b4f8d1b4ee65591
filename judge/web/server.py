"""``judge web``: the published pages served read-only over HTTP, for a small install.

It serves the files of ``<data-dir>/web`` and nothing else: GET and HEAD only (anything else is
501), no directory listings, no hidden files, and headers that forbid scripts and framing.  The
one exception, where the pages are served over HTTPS: the one-click links of observers' mail,
``/unsubscribe/<token>``, which a POST of at most `MAX_BODY` bytes follows
(`judge.web.unsubscribe`).
Until the judge has published its index (a fresh install), it answers the index with a
``placeholder`` page instead of a 404, so that a unit watching it does not restart in a loop.  A
larger install points any static web server (nginx, Apache, a CDN) at the same folder instead.

Theory of operation.  The answers are the standard library's (`PagesHandler`, one request per
connection, HTTP/1.0); what is this module's own is who gets one, so that idle or slow clients,
however many, cannot keep a real request out (the server once fell to 1,000 idle connections,
each holding a thread and a descriptor for as long as it liked):

- One thread, the *gate* (`PagesServer.serve_forever`), accepts the connections and waits with
  a selector for each one's request head (the request line and headers, up to the blank line),
  which must arrive whole within ``head_seconds`` of the connection and be at most `HEAD_LIMIT`
  bytes.  A waiting connection costs a descriptor, never a thread; a silent client, or a
  slowloris sending its headers a byte at a time, is cut when its time is up.
- A complete head goes to a bounded pool of ``workers`` threads, which answer it; the whole
  answer must be written within ``answer_seconds`` (a client that reads slowly is cut).
- Connections are capped per client (``per_client``: an IPv4 address or an IPv6 /64,
  `judge.peers`; the ``trusted`` clients, a web server proxying to ``judge web`` on this
  machine, are exempt) and in all (``connections``, never more than the descriptors the
  process may open allow).  When all places are taken, a new connection takes the place of the
  oldest one still waiting for its head: a real client sends its request at once, so the one
  silent longest is the likeliest idle, and a flood of idle connections, from however many
  addresses, only ever pushes out its own.
- An exception in one connection is logged and closes that connection, nothing else; the gate
  survives anything, running out of descriptors included.

Why not a server library: the nearest fit, waitress (pure Python, no dependencies), caps
connections in all but not per client, and its ``channel_timeout`` counts only silence, so a
slowloris that sends a byte now and then keeps its place until the cap is full; cheroot gives
each connection being read a worker thread, and aiohttp has neither cap.  Adding the missing
parts to one of them is about as much code as this, on top of a new dependency (and, for the
WSGI servers, something to serve files with).
"""

from __future__ import annotations

import contextlib
import errno
import logging
import resource
import selectors
import socket
import threading
import time
from collections import Counter
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from http import HTTPStatus
from http.server import SimpleHTTPRequestHandler
from io import BytesIO
from os import PathLike
from pathlib import Path
from typing import TYPE_CHECKING, Any, AnyStr
from urllib.parse import unquote, urlsplit

from judge.peers import Network, client, is_trusted
from judge.service.outgoing.one_click import PATH
from judge.web.unsubscribe import MAX_BODY, OneClick, Page

if TYPE_CHECKING:
    from _typeshed import SupportsRead, SupportsWrite

log = logging.getLogger("judge")

HEADERS = {
    "Content-Security-Policy": "default-src 'none'; img-src 'self'; style-src 'self'; base-uri 'none'; "
                               "form-action 'none'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-cache",  # pages change after every phase: revalidate (304) rather than go stale
}
FEEDS = {".ics": "text/calendar", ".atom": "application/atom+xml"}  # `judge.web.feeds`
HEAD_LIMIT = 16 * 1024  # bytes of a request line and headers; a browser sends well under 2 KiB
CHUNK = 64 * 1024  # bytes of a file written at a time
SPARE_DESCRIPTORS = 64  # kept for the files being answered and the process's own


@dataclass(frozen=True)
class Limits:
    """What `PagesServer` gives to whom (see the module header)."""

    connections: int = 512  # open at once, in all
    per_client: int = 8  # open at once from one client (browsers open at most 6), the trusted ones aside
    workers: int = 16  # threads answering complete requests
    head_seconds: float = 5.0  # from the connection to the end of its request's head
    answer_seconds: float = 30.0  # to write the whole answer


class PagesHandler(SimpleHTTPRequestHandler):
    """Answers one request, whose head the gate has read, from the pages' folder: files only,
    read-only."""

    server_version = "PayolaJudge"

    def __init__(self, request: socket.socket, client_address: Any, server: Any, *, directory: str, head: bytes,
                 answer_seconds: float, placeholder: bytes | None = None, one_click: OneClick | None = None) -> None:
        self.head = head
        self.placeholder = placeholder  # the index while none is published
        self.one_click = one_click  # the one-click links' answers, where the pages are served over HTTPS
        self.deadline = time.monotonic() + answer_seconds
        self.posts_to_itself = False  # the answer is a page whose form posts to its own address
        super().__init__(request, client_address, server, directory=directory)

    def setup(self) -> None:
        super().setup()
        self.connection.settimeout(max(self.deadline - time.monotonic(), 0.001))
        self.rfile.close()
        self.rfile = BytesIO(self.head)  # the request's head, which the gate has read

    def version_string(self) -> str:
        return self.server_version

    def guess_type(self, path: str | PathLike[str]) -> str:
        kind = FEEDS.get(Path(path).suffix) or super().guess_type(path)  # the feeds, whatever the system knows
        return f"{kind}; charset=utf-8" if kind in ("text/html", "text/css", "text/calendar") else kind

    def send_head(self) -> BytesIO | Any:
        path = unquote(urlsplit(self.path).path)
        if "\0" in path or any(part.startswith(".") for part in path.split("/")):
            self.send_error(HTTPStatus.NOT_FOUND)
            return None
        if self.one_click is not None and path.startswith(PATH):
            return self._page(self.one_click.ask(path.removeprefix(PATH)))
        unpublished = not Path(self.directory, "index.html").is_file()
        if self.placeholder is not None and path in ("/", "/index.html") and unpublished:
            self.send_response(HTTPStatus.OK)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(self.placeholder)))
            self.end_headers()
            return BytesIO(self.placeholder)
        return super().send_head()

    def do_POST(self) -> None:
        """A one-click link's POST (`judge.web.unsubscribe`); anywhere else, or where the pages
        are not served over HTTPS, 501 as any method but GET and HEAD."""
        path = unquote(urlsplit(self.path).path)
        if self.one_click is None or not path.startswith(PATH):
            self.send_error(HTTPStatus.NOT_IMPLEMENTED, f"Unsupported method ({self.command!r})")
            return
        body = self._body()
        if body is not None:
            page = self._page(self.one_click.stop(path.removeprefix(PATH), self.headers.get("Content-Type", ""), body))
            self.copyfile(page, self.wfile)

    def _body(self) -> bytes | None:
        """The request's body, of at most `MAX_BODY` bytes, read before the answer's deadline
        (part of it may have come with the head); None after answering a body that cannot be read."""
        length = self.headers.get("Content-Length", "")
        if not length.isdigit():
            self.send_error(HTTPStatus.LENGTH_REQUIRED)
            return None
        if int(length) > MAX_BODY:
            self.send_error(HTTPStatus.REQUEST_ENTITY_TOO_LARGE)
            return None
        body = self.rfile.read(int(length))
        while len(body) < int(length):
            left = self.deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("the request's body took too long")
            self.connection.settimeout(left)
            more = self.connection.recv(int(length) - len(body))
            if not more:
                self.send_error(HTTPStatus.BAD_REQUEST, "The request's body was cut short")
                return None
            body += more
        return body

    def _page(self, page: Page) -> BytesIO:
        """Send the head of ``page``, never kept by a cache; its body to write."""
        self.posts_to_itself = page.form
        self.send_response(page.status)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(page.html)))
        self.end_headers()
        return BytesIO(page.html)

    def list_directory(self, path: str | PathLike[str]) -> BytesIO | None:
        self.send_error(HTTPStatus.NOT_FOUND)
        return None

    def end_headers(self) -> None:
        for name, value in HEADERS.items():
            if self.posts_to_itself and name == "Content-Security-Policy":
                value = value.replace("form-action 'none'", "form-action 'self'")
            elif getattr(self, "path", "").startswith(PATH) and name == "Cache-Control":
                value = "no-store"  # a link's page says what its token names now
            self.send_header(name, value)
        super().end_headers()

    def copyfile(self, source: SupportsRead[AnyStr], outputfile: SupportsWrite[AnyStr]) -> None:
        """Write the file, all of it before the answer's deadline (a TimeoutError, which the
        standard handler logs, cuts the connection)."""
        while chunk := source.read(CHUNK):
            left = self.deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("the answer took too long")
            self.connection.settimeout(left)
            outputfile.write(chunk)

    def log_message(self, format: str, *args: Any) -> None:
        """Log a request; a one-click link's token left out (whoever reads the log could use it)."""
        line, path = format % args, getattr(self, "path", "")  # none yet if its request line was bad
        if path.startswith(PATH):
            line = line.replace(path, PATH + "...")
        log.info("web %s %s", self.address_string(), line)


@dataclass
class _Waiting:
    """A connection whose request head is still coming."""

    address: Any
    client: Network | None  # None for a trusted client
    deadline: float
    head: bytearray = field(default_factory=bytearray)


class PagesServer:
    """Serves ``folder`` on ``host``:``port`` (0: any free port) within ``limits``, ``trusted``
    clients exempt from the per-client cap: `serve_forever` (in a thread, if need be), then
    `shutdown` and `server_close`, as with the standard library's servers."""

    def __init__(self, folder: Path, host: str, port: int, limits: Limits, trusted: Iterable[Network],
                 placeholder: bytes | None = None, one_click: OneClick | None = None) -> None:
        self.folder = str(folder)
        self.placeholder = placeholder
        self.one_click = one_click
        self.limits = limits
        self.trusted = tuple(trusted)
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        self.socket = socket.create_server((host, port), family=family, backlog=128)
        self.socket.setblocking(False)
        self.server_address = self.socket.getsockname()
        allowed, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
        self.connections = limits.connections
        if allowed != resource.RLIM_INFINITY and self.connections > allowed - SPARE_DESCRIPTORS:
            self.connections = max(allowed - SPARE_DESCRIPTORS, 1)
            log.warning("web: %d descriptors allowed (ulimit -n): at most %d connections at once",
                        allowed, self.connections)
        self.lock = threading.Lock()  # over the counts, which the workers give back
        self.open = 0
        self.by_client: Counter[Network] = Counter()
        self.waiting: dict[socket.socket, _Waiting] = {}  # oldest first; the gate's alone
        self.stopping = False
        self.stopped = threading.Event()
        self.stopped.set()

    def serve_forever(self, poll_interval: float = 0.5) -> None:
        """Run the gate until `shutdown`; answers in hand are finished first."""
        self.stopped.clear()
        self.stopping = False
        workers = ThreadPoolExecutor(max_workers=self.limits.workers, thread_name_prefix="judge-web")
        with selectors.DefaultSelector() as selector:
            selector.register(self.socket, selectors.EVENT_READ)
            try:
                while not self.stopping:
                    try:
                        self._turn(selector, workers, poll_interval)
                    except Exception:  # a bug of the gate's own: it must not stop the pages
                        log.exception("web: the gate failed; going on")
                        time.sleep(0.1)
            finally:
                for connection in list(self.waiting):
                    self._drop(selector, connection)
                workers.shutdown(wait=True)
                self.stopped.set()

    def shutdown(self) -> None:
        """Stop `serve_forever` and wait until it has returned (from another thread)."""
        self.stopping = True
        self.stopped.wait()

    def server_close(self) -> None:
        self.socket.close()

    def _turn(self, selector: selectors.BaseSelector, workers: ThreadPoolExecutor, poll_interval: float) -> None:
        """One turn of the gate: accept, read heads, cut what is late."""
        timeout = poll_interval
        if self.waiting:
            oldest = next(iter(self.waiting.values()))
            timeout = min(timeout, max(oldest.deadline - time.monotonic(), 0))
        for key, _ in selector.select(timeout):
            if key.fileobj is self.socket:
                self._accept(selector)
            elif key.fileobj in self.waiting:
                assert isinstance(key.fileobj, socket.socket)
                self._read(selector, workers, key.fileobj)
        now = time.monotonic()
        while self.waiting:
            connection, waiting = next(iter(self.waiting.items()))  # the head deadlines come in this order
            if waiting.deadline > now:
                break
            log.info("web %s: no complete request within %g s; cut", waiting.address[0], self.limits.head_seconds)
            self._drop(selector, connection)

    def _accept(self, selector: selectors.BaseSelector) -> None:
        for _ in range(64):  # then the heads get their turn
            try:
                connection, address = self.socket.accept()
            except BlockingIOError:
                return
            except OSError as exc:
                if exc.errno in (errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM):
                    log.warning("web: cannot accept a connection: %s", exc)
                    if self.waiting:
                        self._drop(selector, next(iter(self.waiting)))  # a descriptor for the next one
                    else:
                        time.sleep(0.1)  # the workers will give some back
                return  # otherwise a connection that died while queued
            try:
                self._admit(selector, connection, address)
            except Exception:
                log.exception("web %s: could not take the connection", address[0])
                self._close(connection, None)

    def _admit(self, selector: selectors.BaseSelector, connection: socket.socket, address: Any) -> None:
        """Give ``connection`` a place, or close it."""
        key = None if is_trusted(address[0], self.trusted) else client(address[0])
        with self.lock:
            refused = ""
            if key is not None and self.by_client[key] >= self.limits.per_client:
                refused = f"{self.limits.per_client} connections from {key} already"
            elif self.open >= self.connections and not self.waiting:
                refused = f"{self.open} connections busy"
            else:
                self.open += 1
                if key is not None:
                    self.by_client[key] += 1
        if refused:
            log.info("web %s: refused, %s", address[0], refused)
            connection.close()
            return
        if self.open > self.connections:
            oldest = next(iter(self.waiting))
            log.info("web %s: cut for a new connection (%d open)", self.waiting[oldest].address[0], self.open)
            self._drop(selector, oldest)
        connection.setblocking(False)
        self.waiting[connection] = _Waiting(address, key, time.monotonic() + self.limits.head_seconds)
        selector.register(connection, selectors.EVENT_READ)

    def _read(self, selector: selectors.BaseSelector, workers: ThreadPoolExecutor, connection: socket.socket) -> None:
        """Take what ``connection`` has sent; hand it to a worker once its head is complete."""
        waiting = self.waiting[connection]
        try:
            data = connection.recv(HEAD_LIMIT + 1 - len(waiting.head))
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not data:  # gone, or reset
            self._drop(selector, connection)
            return
        waiting.head += data
        if b"\r\n\r\n" in waiting.head or b"\n\n" in waiting.head:
            selector.unregister(connection)
            del self.waiting[connection]
            workers.submit(self._answer, connection, waiting)
        elif len(waiting.head) > HEAD_LIMIT:
            log.info("web %s: a request head over %d bytes; cut", waiting.address[0], HEAD_LIMIT)
            self._drop(selector, connection)

    def _answer(self, connection: socket.socket, waiting: _Waiting) -> None:
        """In a worker: answer the request whose head is ``waiting.head``, then close."""
        try:
            connection.setblocking(True)
            PagesHandler(connection, waiting.address, self, directory=self.folder, head=bytes(waiting.head),
                         answer_seconds=self.limits.answer_seconds, placeholder=self.placeholder,
                         one_click=self.one_click)
        except OSError as exc:
            log.info("web %s: %s", waiting.address[0], exc)
        except Exception:
            log.exception("web %s: the request failed", waiting.address[0])
        finally:
            self._close(connection, waiting)

    def _drop(self, selector: selectors.BaseSelector, connection: socket.socket) -> None:
        """Close a connection still waiting for its head."""
        selector.unregister(connection)
        self._close(connection, self.waiting.pop(connection))

    def _close(self, connection: socket.socket, waiting: _Waiting | None) -> None:
        """Give back the place of ``connection`` (``waiting``: it had one), then close it: a
        client that sees it closed can have the place again."""
        if waiting is not None:
            with self.lock:
                self.open -= 1
                if waiting.client is not None:
                    self.by_client[waiting.client] -= 1
                    if not self.by_client[waiting.client]:
                        del self.by_client[waiting.client]
        with contextlib.suppress(OSError):
            connection.shutdown(socket.SHUT_WR)
        connection.close()


def make_server(folder: Path, host: str = "127.0.0.1", port: int = 8080, limits: Limits = Limits(),
                trusted: Iterable[Network] = (), placeholder: bytes | None = None,
                one_click: OneClick | None = None) -> PagesServer:
    """A server for ``folder`` bound to ``host``:``port`` (0: any free port), not yet serving:
    call ``serve_forever`` (in a thread, if need be) and ``shutdown``.  ``placeholder`` is the
    index to answer while the folder has none; ``one_click`` answers the one-click links of
    observers' mail (none: they are answered as any other path)."""
    return PagesServer(folder, host, port, limits, trusted, placeholder, one_click)
