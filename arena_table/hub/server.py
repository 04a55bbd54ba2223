"""The hub's HTTP server: SSE streams on an asyncio loop, every other request to the Flask app.

One listener, one port. Each connection is an :class:`asyncio.Protocol` that reads an HTTP/1.1
request. A stream path the app's :class:`~arena_table.hub.wall.HubStreams` knows (the wall's
``/events``, a table's ``/table/<id>/stream``) becomes a subscriber of the
:class:`~arena_table.hub.fanout.Fanout`: a thousand phones cost a thousand sockets and no thread.
Any other request is handed whole to the WSGI app on a small thread pool and its response written
back with a ``Content-Length`` (keep-alive, as browsers expect). Why not waitress for both: it holds
a thread per stream, and a thousand threads waking on every event stall the hub.

Limits: request heads up to 64 KiB, bodies up to 16 MiB with a ``Content-Length`` (a chunked
request body gets 411); a keep-alive connection idle for 30 s is closed.
"""

from __future__ import annotations

import asyncio
import io
import logging
import signal
import socket
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from http import HTTPStatus
from typing import Any
from urllib.parse import unquote

from flask import Flask

from .fanout import Subscriber

log = logging.getLogger(__name__)

WSGI_THREADS = 16
"""Threads for the Flask app's pages, API and static files."""
MAX_HEAD = 64 * 1024
MAX_BODY = 16 * 1024 * 1024
IDLE_S = 30.0
"""A keep-alive connection with no request for this long is closed."""


SPARE_FILES = 256
"""Open files beyond the stream cap: pages' connections, the broker's, the results database."""


def _room_for(files: int) -> None:
    """Raise this process's soft limit of open files to ``files`` if it is lower (a Pi's default of
    1,024 would refuse the thousandth phone), as far as the hard limit allows; warns when it cannot."""
    try:
        import resource
    except ImportError:  # not on a POSIX system
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < files:
        want = files if hard == resource.RLIM_INFINITY else min(files, hard)
        resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
        if want < files:
            log.warning("open files limited to %d (ulimit -Hn): fewer streams than --max-clients fit", want)


class _Connection(asyncio.Protocol):
    def __init__(self, server: "HubServer") -> None:
        self.server = server
        self.transport: asyncio.Transport | None = None
        self.buf = b""
        self.busy = False
        self.sub: Subscriber | None = None
        self.idle: asyncio.TimerHandle | None = None
        self.peer: tuple = ("", 0)

    # -- asyncio callbacks -------------------------------------------------------------------------
    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]
        self.peer = transport.get_extra_info("peername") or ("", 0)
        self.server.connections.add(self)
        self._arm_idle()

    def connection_lost(self, exc: Exception | None) -> None:
        self.server.connections.discard(self)
        if self.idle is not None:
            self.idle.cancel()
        if self.sub is not None:
            self.server.fanout.unsubscribe(self.sub)
            self.sub = None

    def pause_writing(self) -> None:
        if self.sub is not None:
            self.server.fanout.paused(self.sub)

    def resume_writing(self) -> None:
        if self.sub is not None:
            self.server.fanout.resumed(self.sub)

    def data_received(self, data: bytes) -> None:
        if self.sub is not None:
            return  # a stream's client says nothing more that matters
        self.buf += data
        if not self.busy:
            self._next_request()
        elif len(self.buf) > MAX_HEAD + MAX_BODY:  # pipelining beyond any request we would take
            self.transport.close()

    # -- requests ----------------------------------------------------------------------------------
    def _arm_idle(self) -> None:
        if self.idle is not None:
            self.idle.cancel()
        self.idle = asyncio.get_running_loop().call_later(IDLE_S, self._close_idle)

    def _close_idle(self) -> None:
        if not self.busy and self.sub is None and self.transport is not None:
            self.transport.close()

    def _next_request(self) -> None:
        end = self.buf.find(b"\r\n\r\n")
        if end < 0:
            if len(self.buf) > MAX_HEAD:
                self._reply_plain(431, "request head too large", close=True)
            return
        try:
            method, target, version, headers = _parse_head(self.buf[:end])
        except ValueError as exc:
            self._reply_plain(400, str(exc), close=True)
            return
        if "chunked" in headers.get("transfer-encoding", "").lower():
            self._reply_plain(411, "send the body with a Content-Length", close=True)
            return
        try:
            length = int(headers.get("content-length", "0"))
        except ValueError:
            self._reply_plain(400, "bad Content-Length", close=True)
            return
        if length < 0 or length > MAX_BODY:
            self._reply_plain(413, "request body too large", close=True)
            return
        if len(self.buf) < end + 4 + length:
            return  # the rest of the body is on its way
        body, self.buf = self.buf[end + 4:end + 4 + length], self.buf[end + 4 + length:]
        keep = _keep_alive(version, headers)
        path = target.split("?", 1)[0]
        if method == "GET" and self._stream(path):
            return
        self.busy = True
        if self.idle is not None:
            self.idle.cancel()
        environ = self.server.environ(method, target, version, headers, body, self.peer)
        fut = asyncio.get_running_loop().run_in_executor(self.server.pool, self.server.call_app, environ)
        fut.add_done_callback(lambda f: self._answered(f, method, keep))

    def _stream(self, path: str) -> bool:
        channel = self.server.streams.channel(path)
        if channel is None:
            return False
        if self.server.fanout.clients >= self.server.streams.max_clients:
            self._reply_plain(503, "the hub is full", close=True, extra=[("Retry-After", "10")])
            return True
        head = (b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-store\r\n"
                b"X-Accel-Buffering: no\r\nConnection: close\r\n\r\n" + self.server.streams.hello(channel))
        if self.idle is not None:
            self.idle.cancel()
        self.sub = self.server.fanout.subscribe(channel, self.transport, head)
        return True

    def _answered(self, fut: "asyncio.Future", method: str, keep: bool) -> None:
        self.busy = False
        if self.transport is None or self.transport.is_closing():
            return
        try:
            status, headers, body = fut.result()
        except Exception:
            log.exception("the hub's app failed")
            status, headers, body = "500 Internal Server Error", [("Content-Type", "text/plain")], b"internal error"
            keep = False
        out = [f"HTTP/1.1 {status}".encode()]
        for name, value in headers:
            if name.lower() not in ("content-length", "transfer-encoding", "connection"):
                out.append(f"{name}: {value}".encode("latin-1"))
        out.append(f"Content-Length: {len(body)}".encode())
        out.append(b"Connection: keep-alive" if keep else b"Connection: close")
        self.transport.write(b"\r\n".join(out) + b"\r\n\r\n" + (b"" if method == "HEAD" else body))
        if not keep:
            self.transport.close()
            return
        self._arm_idle()
        if self.buf:
            self._next_request()

    def _reply_plain(self, code: int, text: str, close: bool, extra: list | None = None) -> None:
        body = text.encode() + b"\n"
        head = [f"HTTP/1.1 {code} {HTTPStatus(code).phrase}", "Content-Type: text/plain; charset=utf-8",
                f"Content-Length: {len(body)}"] + [f"{k}: {v}" for k, v in extra or []]
        head.append("Connection: close" if close else "Connection: keep-alive")
        self.transport.write("\r\n".join(head).encode() + b"\r\n\r\n" + body)
        if close:
            self.transport.close()


def _parse_head(raw: bytes) -> tuple[str, str, str, dict[str, str]]:
    """``(method, target, version, headers)`` from a request head (header names lower-cased; repeated
    ones joined with ``,``).

    >>> _parse_head(b"GET /a?b=1 HTTP/1.1\\r\\nHost: x\\r\\nAccept: a\\r\\naccept: b")
    ('GET', '/a?b=1', 'HTTP/1.1', {'host': 'x', 'accept': 'a,b'})

    Raises:
        ValueError: not a request line ``METHOD TARGET HTTP/1.x``, or a header line without ``:``.
    """
    lines = raw.decode("latin-1").split("\r\n")
    parts = lines[0].split(" ")
    if len(parts) != 3 or not parts[2].startswith("HTTP/1.") or not parts[1].startswith("/"):
        raise ValueError(f"bad request line {lines[0][:80]!r}")
    headers: dict[str, str] = {}
    for line in lines[1:]:
        name, sep, value = line.partition(":")
        if not sep or not name.strip():
            raise ValueError(f"bad header line {line[:80]!r}")
        key = name.strip().lower()
        headers[key] = f"{headers[key]},{value.strip()}" if key in headers else value.strip()
    return parts[0], parts[1], parts[2], headers


def _keep_alive(version: str, headers: dict[str, str]) -> bool:
    conn = headers.get("connection", "").lower()
    return "keep-alive" in conn if version == "HTTP/1.0" else "close" not in conn


class HubServer:
    """The hub's app on ``host:port`` (``port=0``: a free one, see :attr:`effective_port`), bound at
    once; :meth:`run` serves until :meth:`close` (from any thread, or after KeyboardInterrupt).

    Args:
        app: the wall's Flask app (:func:`~arena_table.hub.wall.create_wall_app`), whose
            ``app.extensions["arena_hub"]`` gives the streams and their fan-out.

    Raises:
        OSError: the address is in use or not available.
    """

    def __init__(self, app: Flask, host: str = "127.0.0.1", port: int = 8080, threads: int = WSGI_THREADS) -> None:
        self.app = app
        self.streams = app.extensions["arena_hub"]
        self.fanout = self.streams.fanout
        self.host = host
        _room_for(self.streams.max_clients + SPARE_FILES)
        self.sock = socket.create_server((host, port), backlog=1024, reuse_port=False)
        self.sock.setblocking(False)
        self.effective_port = self.sock.getsockname()[1]
        self.pool = ThreadPoolExecutor(threads, thread_name_prefix="hub-wsgi")
        self.connections: set[_Connection] = set()
        self.loop = asyncio.new_event_loop()
        self._stop: asyncio.Event | None = None
        self._ran = threading.Event()
        self._done = threading.Event()
        self._closed = False

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.effective_port}"

    def run(self) -> None:
        """Serve until :meth:`close` (or, on the main thread, SIGINT or SIGTERM); then every stream is
        closed and the app's streams ended."""
        asyncio.set_event_loop(self.loop)
        try:
            self.loop.run_until_complete(self._serve())
        finally:
            self._shutdown()

    async def _serve(self) -> None:
        self._stop = asyncio.Event()
        if threading.current_thread() is threading.main_thread():  # `arena-table hub`: Ctrl-C ends it cleanly
            for sig in (signal.SIGINT, signal.SIGTERM):
                self.loop.add_signal_handler(sig, self._stop.set)
        server = await self.loop.create_server(lambda: _Connection(self), sock=self.sock, backlog=1024)
        self.fanout.attach(self.loop)
        ticker = self.loop.create_task(self._tick())
        self._ran.set()
        try:
            await self._stop.wait()
        finally:
            self.fanout.attach(None)
            ticker.cancel()
            server.close()
            self.fanout.close_all()
            for conn in list(self.connections):
                if conn.transport is not None:
                    conn.transport.close()
            await asyncio.sleep(0)

    async def _tick(self) -> None:
        while True:
            await asyncio.sleep(1.0)
            self.fanout.tick()

    def _shutdown(self) -> None:
        from arena_table.webui.app import shutdown

        if not self._closed:
            self._closed = True
            shutdown(self.app)
            self.pool.shutdown(wait=False, cancel_futures=True)
            self.sock.close()
            self.loop.close()
        self._done.set()

    def close(self) -> None:
        """Stop serving (from any thread); waits up to 10 s for :meth:`run` to return."""
        if self._ran.is_set() and not self._done.is_set():
            try:
                self.loop.call_soon_threadsafe(lambda: self._stop.set())
            except RuntimeError:
                pass
            self._done.wait(10)
        elif not self._ran.is_set() and not self._closed:
            self._closed = True
            from arena_table.webui.app import shutdown

            shutdown(self.app)
            self.pool.shutdown(wait=False)
            self.sock.close()
            if not self.loop.is_running():
                self.loop.close()

    # -- the WSGI side (the pool's threads) --------------------------------------------------------
    def environ(self, method: str, target: str, version: str, headers: dict[str, str], body: bytes,
                peer: tuple) -> dict[str, Any]:
        path, _, query = target.partition("?")
        env: dict[str, Any] = {
            "REQUEST_METHOD": method, "SCRIPT_NAME": "", "PATH_INFO": unquote(path, encoding="latin-1"),
            "QUERY_STRING": query, "SERVER_NAME": self.host, "SERVER_PORT": str(self.effective_port),
            "SERVER_PROTOCOL": version, "REMOTE_ADDR": str(peer[0]),
            "REMOTE_PORT": str(peer[1] if len(peer) > 1 else ""),
            "wsgi.version": (1, 0), "wsgi.url_scheme": "http", "wsgi.input": io.BytesIO(body),
            "wsgi.errors": sys.stderr, "wsgi.multithread": True, "wsgi.multiprocess": False, "wsgi.run_once": False}
        for name, value in headers.items():
            if name == "content-type":
                env["CONTENT_TYPE"] = value
            elif name == "content-length":
                env["CONTENT_LENGTH"] = value
            else:
                env["HTTP_" + name.upper().replace("-", "_")] = value
        return env

    def call_app(self, environ: dict[str, Any]) -> tuple[str, list[tuple[str, str]], bytes]:
        got: dict[str, Any] = {}

        def start_response(status: str, headers: list, exc_info: Any = None) -> Any:
            got["status"], got["headers"] = status, headers
            return lambda data: got.setdefault("written", []).append(data)

        result = self.app(environ, start_response)
        try:
            body = b"".join(got.get("written", [])) + b"".join(result)
        finally:
            if hasattr(result, "close"):
                result.close()
        return got["status"], got["headers"], body


def make_hub_server(app: Flask, host: str = "127.0.0.1", port: int = 8080) -> HubServer:
    """:class:`HubServer` for ``app``, bound; start it with ``run()`` (a thread of its own in tests)."""
    return HubServer(app, host, port)


def wait_running(server: HubServer, timeout: float = 10.0) -> None:
    """Block until ``server.run()`` (on another thread) accepts connections.

    Raises:
        TimeoutError: it did not in ``timeout`` s.
    """
    if not server._ran.wait(timeout):
        raise TimeoutError(f"the hub server did not start in {timeout:g} s")
