"""``arena-table hub --broker URL``: the convention wall, served from one subscription to the broker.

The hub subscribes once (:class:`~arena_table.hub.feed.Feed`); a broadcaster thread turns each
change into the tiles' JSON once and puts it in every wall client's bounded queue, streamed as
Server-Sent Events (``event: tiles``, data ``{"tables": [tile...]}``, see :mod:`arena_table.hub.tiles`).
Pages: ``/`` the wall, ``/api/tables`` the tiles, ``/events`` the stream, ``/table/<id>/`` one table's
spectator screen for a phone (the table's own page, :mod:`arena_table.hub.screens`) with its stream
``/table/<id>/stream``, its QR code ``/table/<id>/qr.svg``, and ``/api/table/<id>`` its view as the
broker last carried it.
"""

from __future__ import annotations

import json
import queue
import threading
from pathlib import Path
from typing import Any, Iterator

from flask import Flask, Response, abort, render_template, request
from jinja2 import ChoiceLoader, FileSystemLoader

from arena_table.webui import app as webui_app

from .feed import Feed
from .results import Results
from .screens import Screens
from .tiles import tiles

WEBUI = Path(webui_app.__file__).parent
"""The table's web UI: the hub serves its spectator page, scripts and styles as they are."""

HEARTBEAT_S = 15.0
"""Silence after which the stream sends a heartbeat (so a page tells a dead hub from a quiet hall)."""
QUEUE_SIZE = 8
"""Tiles messages a wall client may have waiting; a slower one keeps only the newest."""


class Wall:
    """The tiles, rebuilt once per change and handed to every stream (``close`` ends them)."""

    def __init__(self, feed: Feed) -> None:
        self.feed = feed
        self._lock = threading.Lock()
        self._clients: list[queue.Queue] = []
        self._dirty = threading.Event()
        self._closing = threading.Event()
        self._json = json.dumps({"tables": []})
        feed.listen(lambda table_id: self._dirty.set())
        self._thread = threading.Thread(target=self._run, name="wall", daemon=True)
        self._thread.start()
        self._dirty.set()

    def tiles_json(self) -> str:
        with self._lock:
            return self._json

    def stream(self) -> Iterator[bytes]:
        q: queue.Queue = queue.Queue(QUEUE_SIZE)
        with self._lock:
            self._clients.append(q)
            first = self._json
        try:
            yield b"retry: 2000\nevent: tiles\ndata: " + first.encode() + b"\n\n"
            while not self._closing.is_set():
                try:
                    data = q.get(timeout=HEARTBEAT_S)
                except queue.Empty:
                    yield b"event: heartbeat\ndata: {}\n\n"
                    continue
                if data is None:
                    return
                yield b"event: tiles\ndata: " + data.encode() + b"\n\n"
        finally:
            with self._lock:
                if q in self._clients:
                    self._clients.remove(q)

    def close(self) -> None:
        self._closing.set()
        self._dirty.set()
        with self._lock:
            clients = list(self._clients)
        for q in clients:
            _put_latest(q, None)
        self._thread.join(timeout=5)

    def _run(self) -> None:
        while True:
            self._dirty.wait()
            self._dirty.clear()
            if self._closing.is_set():
                return
            data = json.dumps({"tables": tiles(self.feed.tables())}, separators=(",", ":"))
            with self._lock:
                if data == self._json:
                    continue
                self._json = data
                clients = list(self._clients)
            for q in clients:
                _put_latest(q, data)


class _Count:
    """Streams held: :meth:`take` one if fewer than ``most``, :meth:`held` gives it back at the end."""

    def __init__(self) -> None:
        self.n, self._lock = 0, threading.Lock()

    def take(self, most: int) -> bool:
        with self._lock:
            if self.n >= most:
                return False
            self.n += 1
            return True

    def held(self, it: Iterator[bytes]) -> Iterator[bytes]:
        try:
            yield from it
        finally:
            with self._lock:
                self.n -= 1


class _Closer:
    """What ``webui.server.stop_server`` closes: the wall's streams and the screens'."""

    def __init__(self, *parts: Any) -> None:
        self.parts = parts

    def close(self) -> None:
        for part in self.parts:
            part.close()


def _put_latest(q: queue.Queue, item: Any) -> None:
    """Put ``item``; a full queue drops its oldest first (only the newest tiles matter)."""
    while True:
        try:
            q.put_nowait(item)
            return
        except queue.Full:
            try:
                q.get_nowait()
            except queue.Empty:
                pass


def create_wall_app(feed: Feed, results: Results | None = None, max_clients: int = 200) -> Flask:
    """The wall's Flask app over ``feed`` (started by the caller); ``shutdown`` of
    :mod:`arena_table.webui.app` (as ``webui.server.stop_server`` calls it) ends its streams.
    ``results``: where finished games are kept (``/results``); default: in memory.
    ``max_clients``: phones' screen streams held at once; the next one gets a 503."""
    app = Flask(__name__, static_folder=str(WEBUI / "static"))
    app.jinja_loader = ChoiceLoader([FileSystemLoader(str(Path(__file__).parent / "templates")),
                                     FileSystemLoader(str(WEBUI / "templates"))])
    wall = Wall(feed)
    screens = Screens(feed)
    app.extensions["arena_hub"] = _Closer(wall, screens)
    results = results or Results(":memory:")
    game_panels = sorted(p.stem for p in (WEBUI / "static" / "games").glob("*.js"))
    streams = _Count()

    def note(table_id: str) -> None:  # paho's thread: one table's view, no waiting
        t = feed.table(table_id)
        if t is not None:
            results.observe(table_id, t.view)
    feed.listen_events(results.record)
    feed.listen(note)

    @app.get("/results")
    def results_page() -> str:
        return render_template("results.html", games=results.finished())

    @app.get("/results/<int:result_id>/log.jsonl")
    def result_log(result_id: int) -> Response:
        body = results.events(result_id)
        if body is None:
            abort(404)
        return Response(body, mimetype="application/x-ndjson")

    @app.get("/")
    def page() -> str:
        return render_template("wall.html", tables=json.loads(wall.tiles_json())["tables"])

    @app.get("/api/tables")
    def api_tables() -> Response:
        return Response(wall.tiles_json(), mimetype="application/json")

    @app.get("/events")
    def events() -> Response:
        resp = Response(wall.stream(), mimetype="text/event-stream")
        resp.headers["Cache-Control"] = "no-store"
        resp.headers["X-Accel-Buffering"] = "no"
        return resp

    def screen_url(table_id: str) -> str:
        return f"{request.host_url}table/{table_id}/"

    @app.get("/table/<table_id>/")
    def table_page(table_id: str) -> str:
        """One table's spectator screen for a phone (a tile's link, the table's QR code): the
        table's own page, its state and stream from the hub."""
        initial = screens.initial(table_id)
        if initial is None:
            abort(404)
        base = f"/table/{table_id}/"
        extra = {"game_panels": game_panels, "urls": {"stream": base + "stream", "status": base + "status", "media": None}}
        initial = initial[:-1] + "," + json.dumps(extra)[1:]
        state = json.loads(initial)["state"]
        url = screen_url(table_id)
        return render_template("spectator.html", initial_json=initial.replace("<", "\\u003c"),
                               title=state.get("title") or table_id, page_url=url,
                               page_url_pieces=webui_app.url_pieces(url), qr_url=base + "qr.svg")

    @app.get("/table/<table_id>/qr.svg")
    def table_qr(table_id: str) -> Response:
        resp = Response(webui_app._qr_svg(screen_url(table_id)), mimetype="image/svg+xml")
        resp.headers["Cache-Control"] = "no-cache"
        return resp

    @app.get("/table/<table_id>/status")
    def table_status(table_id: str) -> Response:
        """What ``spectator.js`` asks after a refused stream: ``{"streams": {"clients", "max_clients"}}``."""
        return Response(json.dumps({"streams": {"clients": streams.n, "max_clients": max_clients}}),
                        mimetype="application/json")

    @app.get("/table/<table_id>/stream")
    def table_stream(table_id: str) -> Response:
        if screens.initial(table_id) is None:
            abort(404)
        if not streams.take(max_clients):
            return Response("the hub is full", status=503, headers={"Retry-After": "10"})
        resp = Response(streams.held(screens.stream(table_id)), mimetype="text/event-stream")
        resp.headers["Cache-Control"] = "no-store"
        resp.headers["X-Accel-Buffering"] = "no"
        return resp

    @app.get("/api/table/<table_id>")
    def table_view(table_id: str) -> Response:
        feed_of = feed.tables().get(table_id)
        if feed_of is None or feed_of.view is None:
            abort(404)
        return Response(json.dumps({"online": feed_of.online, **feed_of.view}), mimetype="application/json")

    return app
