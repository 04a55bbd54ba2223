"""``arena-table hub --broker URL``: the convention wall, served from one subscription to the broker.

The hub subscribes once (:class:`~arena_table.hub.feed.Feed`); a broadcaster thread turns each
change into the tiles' JSON once and publishes it as one SSE frame (``event: tiles``, data
``{"tables": [tile...]}``, see :mod:`arena_table.hub.tiles`) on the fan-out's ``wall`` channel.
Pages: ``/`` the wall, ``/api/tables`` the tiles, ``/events`` the stream, ``/table/<id>/`` one table's
spectator screen for a phone (the table's own page, :mod:`arena_table.hub.screens`) with its stream
``/table/<id>/stream``, its QR code ``/table/<id>/qr.svg``, and ``/api/table/<id>`` its view as the
broker last carried it. The streams are served by :mod:`arena_table.hub.server` on an asyncio loop
(:class:`HubStreams` tells it which paths are streams); the pages by this Flask app.
"""

from __future__ import annotations

import json
import re
import threading
from pathlib import Path

from flask import Flask, Response, abort, render_template, request
from jinja2 import ChoiceLoader, FileSystemLoader

from arena_table.webui import app as webui_app

from . import page_feed as pf
from .fanout import Fanout
from .feed import Feed
from .results import Results
from .screens import Screens, channel
from .tiles import tiles

WEBUI = Path(webui_app.__file__).parent
"""The table's web UI: the hub serves its spectator page, scripts and styles as they are."""

WALL = "wall"
"""The fan-out channel of the wall's tiles."""
HELLO = b"retry: 2000\n\n"
"""A stream's first bytes: the browser reconnects 2 s after a lost stream."""
_TABLE_STREAM = re.compile(r"^/table/([^/]+)/stream$")


class Wall:
    """The tiles, rebuilt once per change and published on the fan-out's ``wall`` channel (``close``
    stops the thread)."""

    def __init__(self, feed: Feed, fanout: Fanout) -> None:
        self.feed, self.fanout = feed, fanout
        self._lock = threading.Lock()
        self._dirty = threading.Event()
        self._closing = threading.Event()
        self._json = ""
        self._publish(json.dumps({"tables": []}))
        feed.listen(lambda table_id: self._dirty.set())
        self._thread = threading.Thread(target=self._run, name="wall", daemon=True)
        self._thread.start()
        self._dirty.set()

    def tiles_json(self) -> str:
        with self._lock:
            return self._json

    def close(self) -> None:
        self._closing.set()
        self._dirty.set()
        self._thread.join(timeout=5)

    def _publish(self, data: str) -> None:
        with self._lock:
            if data == self._json:
                return
            self._json = data
        self.fanout.publish(WALL, b"event: tiles\ndata: " + data.encode() + b"\n\n")

    def _run(self) -> None:
        while True:
            self._dirty.wait()
            self._dirty.clear()
            if self._closing.is_set():
                return
            self._publish(json.dumps({"tables": tiles(self.feed.tables())}, separators=(",", ":")))


class HubStreams:
    """What the hub's server needs of the app (``app.extensions["arena_hub"]``): which paths are
    streams, on which channel, and at most how many to hold; ``close`` stops the wall's thread.

    Args:
        max_clients: streams held at once (the wall's and the phones'); the next one gets a 503.
    """

    def __init__(self, fanout: Fanout, wall: Wall, screens: Screens, max_clients: int) -> None:
        self.fanout, self.wall, self.screens, self.max_clients = fanout, wall, screens, max_clients

    def channel(self, path: str) -> str | None:
        """``/events`` -> ``wall``; ``/table/<id>/stream`` of a table the hub has seen -> its channel;
        anything else None (the Flask app answers, a 404 for an unknown table's stream).

        >>> from arena_table.hub.topics import Broker
        >>> s = HubStreams(Fanout(), None, Screens(Feed(Broker("127.0.0.1", 1)), Fanout()), 5)
        >>> s.channel("/events"), s.channel("/table/t1/stream"), s.channel("/table/t1/")
        ('wall', None, None)
        """
        if path == "/events":
            return WALL
        m = _TABLE_STREAM.match(path)
        if m is None or self.screens.initial(m.group(1)) is None:
            return None
        return channel(m.group(1))

    def hello(self, channel_name: str) -> bytes:
        return HELLO

    def close(self) -> None:
        if self.wall is not None:
            self.wall.close()


def create_wall_app(feed: Feed, results: Results | None = None, max_clients: int = 1000,
                    page_feed: str = pf.DEFAULT_FEED, ws_url: str | None = None) -> Flask:
    """The wall's Flask app over ``feed`` (started by the caller); ``shutdown`` of
    :mod:`arena_table.webui.app` (as ``HubServer`` calls it) stops its wall thread.
    ``results``: where finished games are kept (``/results``); default: in memory.
    ``max_clients``: streams held at once, the wall's and the phones'; the next one gets a 503.
    Serve it with :class:`arena_table.hub.server.HubServer` (the streams are not Flask routes).
    ``page_feed``: where a table's screen gets its updates by default, ``sse`` or ``mqtt`` (the
    broker's websockets listener at ``ws_url``; None: the page's host, port 9001), see
    :mod:`arena_table.hub.page_feed`; ``?feed=`` picks one page's."""
    app = Flask(__name__, static_folder=str(WEBUI / "static"))
    app.jinja_loader = ChoiceLoader([FileSystemLoader(str(Path(__file__).parent / "templates")),
                                     FileSystemLoader(str(WEBUI / "templates"))])
    fanout = Fanout()
    screens = Screens(feed, fanout)  # told of a change before the wall: a table's tile links to a screen that exists
    wall = Wall(feed, fanout)
    app.extensions["arena_hub"] = HubStreams(fanout, wall, screens, max_clients)
    results = results or Results(":memory:")
    game_panels = sorted(p.stem for p in (WEBUI / "static" / "games").glob("*.js"))
    pf.register_static(app)

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

    def screen_url(table_id: str) -> str:
        return f"{request.host_url}table/{table_id}/"

    @app.get("/table/<table_id>/")
    def table_page(table_id: str) -> str:
        """One table's spectator screen for a phone (a tile's link, the table's QR code): the
        table's own page, its state and stream from the hub."""
        initial = screens.initial(table_id)
        if initial is None:
            abort(404)
        mode = request.args.get("feed") or page_feed
        if mode not in pf.FEEDS:
            abort(400, f"feed {mode!r}: one of {', '.join(pf.FEEDS)}")
        base = f"/table/{table_id}/"
        extra = {"game_panels": game_panels, "urls": {"stream": base + "stream", "status": base + "status", "media": None}}
        if mode == "mqtt":
            extra["urls"]["mqtt"] = pf.page_urls(table_id, pf.ws_url_for(ws_url, request.host))
        initial = initial[:-1] + "," + json.dumps(extra)[1:]
        state = json.loads(initial)["state"]
        url = screen_url(table_id)
        return render_template("spectator_mqtt.html" if mode == "mqtt" else "spectator.html", initial_json=initial.replace("<", "\\u003c"),
                               title=state.get("title") or table_id, page_url=url,
                               page_url_pieces=webui_app.url_pieces(url), qr_url=base + "qr.svg")

    @app.get("/table/<table_id>/qr.svg")
    def table_qr(table_id: str) -> Response:
        resp = Response(webui_app._qr_svg(screen_url(table_id)), mimetype="image/svg+xml")
        resp.headers["Cache-Control"] = "no-cache"
        return resp

    @app.get("/table/<table_id>/status")
    def table_status(table_id: str) -> Response:
        """What ``spectator.js`` asks after a refused stream: ``{"streams": {"clients", "max_clients", "shed",
        "fanout_p50_ms", "fanout_p99_ms"}}`` (``shed``: streams disconnected for not reading since the hub
        started; ``fanout_*``: over the newest 1,000 frames, from a frame's encoding to its last write)."""
        lags = sorted(fanout.lags)
        pick = (lambda q: round(lags[min(len(lags) - 1, int(q * len(lags)))], 2)) if lags else (lambda q: None)
        return Response(json.dumps({"streams": {"clients": fanout.clients, "max_clients": max_clients,
                                                "shed": fanout.shed, "fanout_p50_ms": pick(0.5),
                                                "fanout_p99_ms": pick(0.99)}}), mimetype="application/json")

    @app.get("/api/table/<table_id>")
    def table_view(table_id: str) -> Response:
        feed_of = feed.tables().get(table_id)
        if feed_of is None or feed_of.view is None:
            abort(404)
        return Response(json.dumps({"online": feed_of.online, **feed_of.view}), mimetype="application/json")

    return app
