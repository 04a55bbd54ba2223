"""Where a table's spectator screen on the hub gets its updates: the hub's SSE stream, or the broker.

``sse``: the page reads ``/table/<id>/stream``, which the hub feeds from its one subscription
(:mod:`arena_table.hub.screens`). ``mqtt``: the page subscribes to the table's retained
``arena-table/<id>/view`` and its ``status`` itself, over MQTT over WebSockets (the broker's
websockets listener, ``hub init --ws-port``), with the vendored MQTT.js (``static/vendor/mqtt``)
and ``static/mqtt_feed.js``; the hub then serves only the page. ``hub --page-feed`` picks the
default, ``?feed=sse|mqtt`` one page's.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from .broker_setup import DEFAULT_WS_PORT
from .topics import topic

FEEDS = ("sse", "mqtt")
DEFAULT_FEED = "sse"
"""What ``bench hub`` measured holding more clients at a lower p99 (docs/convention.md)."""
STATIC = Path(__file__).parent / "static"
"""The hub's own scripts and the vendored MQTT.js, served under ``/hub-static/``."""


def check_ws_url(url: str) -> str:
    """``url`` if it is a ``ws://`` or ``wss://`` address with a host.

    Raises:
        ValueError: naming the address and what is expected.

    >>> check_ws_url("ws://hall.local:9001/")
    'ws://hall.local:9001/'
    >>> check_ws_url("mqtt://hall.local")
    Traceback (most recent call last):
    ValueError: websocket address 'mqtt://hall.local': expected ws://HOST[:PORT][/PATH] or wss://...
    """
    parts = urlsplit(url)
    if parts.scheme not in ("ws", "wss") or not parts.hostname:
        raise ValueError(f"websocket address {url!r}: expected ws://HOST[:PORT][/PATH] or wss://...")
    return url


def ws_url_for(ws_url: str | None, request_host: str) -> str:
    """The broker's websockets address a page should use: ``ws_url`` if given, else the host the
    page was loaded from (the broker beside the hub) on :data:`DEFAULT_WS_PORT`.

    >>> ws_url_for(None, "192.168.1.5:8080"), ws_url_for(None, "[::1]:8080"), ws_url_for("wss://b/", "x")
    ('ws://192.168.1.5:9001/', 'ws://[::1]:9001/', 'wss://b/')
    """
    if ws_url:
        return ws_url
    host = urlsplit(f"//{request_host}").hostname or "127.0.0.1"
    return f"ws://{f'[{host}]' if ':' in host else host}:{DEFAULT_WS_PORT}/"


def page_urls(table_id: str, ws_url: str) -> dict:
    """The ``urls.mqtt`` a page in ``mqtt`` mode reads (``mqtt_feed.js``).

    >>> page_urls("t1", "ws://h:9001/")
    {'url': 'ws://h:9001/', 'view': 'arena-table/t1/view', 'status': 'arena-table/t1/status'}
    """
    return {"url": ws_url, "view": topic(table_id, "view"), "status": topic(table_id, "status")}


def register_static(app: Any) -> None:
    """Serve :data:`STATIC` at ``/hub-static/<name>`` of the Flask ``app`` (cached for a day: the
    vendored file is large). Flask is imported here, not with the module (the CLI reads the names above)."""
    from flask import send_from_directory

    @app.get("/hub-static/<path:name>")
    def hub_static(name: str) -> Any:
        return send_from_directory(STATIC, name, max_age=86400)
