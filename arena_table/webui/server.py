"""Serving the app: waitress with one thread per spectator stream, plus room for everyone else.

Why waitress with many threads (and not gevent or Flask's development server): every SSE
stream holds one WSGI thread while it waits on its queue, so the pool is sized
``clients + spare``; waitress's own event loop does the socket I/O, so a thread that waits
costs a small stack and no CPU, and the ``spare`` threads keep ``/api/state`` and the
control page answering while the streams are full. gevent would need monkey-patching
that also changes the engine's and the devices' threads; the development server has no
bound at all. ``arena-table bench web --clients 200`` measures the result (the README
has the figures): p99 event-to-client latency and ``/api/state`` latency under load.

waitress details that matter here: ``send_bytes=1`` (the default in 3.x) so each SSE
message is flushed at once; ``channel_request_lookahead=1`` so the app sees
``waitress.client_disconnected`` and drops a vanished client without waiting for a
write; ``connection_limit`` above the stream cap so the 503 page can still be sent;
``clear_untrusted_proxy_headers`` so a client's own ``X-Forwarded-For`` is dropped, and only a
configured proxy's (``WebConfig.trusted_proxy``) names the client (``request.remote_addr``).
"""

from __future__ import annotations

import logging
import socket
import threading
from typing import Any

from flask import Flask

log = logging.getLogger(__name__)

SPARE_THREADS = 16
"""Threads beyond the stream cap for ``/api/state``, the pages, media and the control page."""


def make_server(app: Flask, host: str = "127.0.0.1", port: int = 8000, *, clients: int | None = None,
                threads: int | None = None) -> Any:
    """A bound (not yet running) waitress server for ``app``; ``port=0`` picks a free port
    (read it back from ``server.effective_port``). Its threads are sized on the streams the app's
    hub may hold (``hub.capacity``), else on ``clients``, else on its ``max_clients`` (the convention wall).

    Raises:
        OSError: the address is in use or not available.
    """
    from waitress import create_server

    hub = app.extensions.get("arena_hub")
    if hasattr(hub, "capacity"):  # every stream the table's hub may hold: spectators, the TV's, the control pages'
        clients = hub.capacity
    elif clients is None:
        clients = hub.max_clients if hub is not None else 200
    web = app.extensions.get("arena_web_config")
    proxy = {"trusted_proxy": web.trusted_proxy, "trusted_proxy_count": 1,
             "trusted_proxy_headers": {"x-forwarded-for", "x-forwarded-proto"}} if getattr(web, "trusted_proxy", None) else {}
    return create_server(app, host=host, port=port, threads=threads or clients + SPARE_THREADS,
                         connection_limit=clients + 4 * SPARE_THREADS, channel_request_lookahead=1,
                         asyncore_use_poll=True, ident="arena-table", clear_untrusted_proxy_headers=True, **proxy)


def address_problem(host: str, port: int) -> str:
    """Why the server could not listen on ``host:port``, in words (``"no such address"``,
    ``"Address already in use"``), or ``""``. Binds a socket as waitress does (``SO_REUSEADDR``)
    and closes it: ``run`` asks before it makes its log, PIN and key files. Another process may
    still take the port in between; :func:`make_server` then raises as before."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError, ValueError):
        return "no such address"
    family, kind, proto, _, addr = infos[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(addr)
        except OSError as exc:
            return exc.strerror or str(exc)
    return ""


class ServerThread:
    """The server on a background thread (benchmarks and browser tests); :meth:`stop` ends it."""

    def __init__(self, app: Flask, host: str = "127.0.0.1", port: int = 0, **kw: Any) -> None:
        self.app = app
        self.server = make_server(app, host, port, **kw)
        self.host = host
        self.port = int(self.server.effective_port)
        self._thread = threading.Thread(target=self.server.run, name="waitress", daemon=True)

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    def start(self) -> "ServerThread":
        self._thread.start()
        return self

    def stop(self) -> None:
        stop_server(self.app, self.server)
        self._thread.join(timeout=10)

    def __enter__(self) -> "ServerThread":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def stop_server(app: Flask, server: Any) -> None:
    """End the streams first (their threads return), then the workers, then the sockets."""
    from waitress import wasyncore

    from .app import shutdown

    shutdown(app)
    server.task_dispatcher.shutdown(timeout=5)
    wasyncore.close_all(server._map)


def serve(app: Flask, host: str = "127.0.0.1", port: int = 8000, *, clients: int | None = None,
          threads: int | None = None, stop: threading.Event | None = None) -> None:
    """Serve ``app`` until ``stop`` is set (or KeyboardInterrupt/SystemExit), then close cleanly.

    Raises:
        OSError: the address is in use or not available.
    """
    server = make_server(app, host, port, clients=clients, threads=threads)
    log.info("serving on http://%s:%s", host, server.effective_port)
    if stop is not None:
        def watch() -> None:
            stop.wait()
            stop_server(app, server)
        threading.Thread(target=watch, name="serve-stop", daemon=True).start()
    try:
        server.run()
    except (KeyboardInterrupt, SystemExit):
        pass
    finally:
        stop_server(app, server)
