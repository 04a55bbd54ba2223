"""Topic names and broker addresses shared by the tables' publisher and the hub.

Each table publishes under ``arena-table/<id>/``:

* ``view``: its spectator view, retained, QoS 1: ``{"table", "epoch", "version", "state"}``;
* ``events``: each accepted event, QoS 1: ``{"table", "epoch", "seq", "prev", "status", "text",
  "event", ...}`` where ``prev`` is the seq of the table's previous accepted event (0 for none), so
  a subscriber tells a gap (``prev`` is not the last seq it has) from the rejected rows between;
* ``status``: ``online``, retained, with the last-will ``offline`` (set by the broker when the
  table's connection dies without a goodbye).

A subscriber that misses events asks for them on ``arena-table/<id>/resend`` with
``{"after": SEQ}``; the table republishes its accepted events after ``SEQ`` from its log.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import unquote, urlsplit

PREFIX = "arena-table"
DEFAULT_PORT = 1883
_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")


def check_table_id(table_id: str) -> str:
    """``table_id`` if it can stand in a topic: 1-64 letters, digits, ``_ . -``, a letter or digit first.

    Raises:
        ValueError: naming the id and what is allowed.

    >>> check_table_id("table-3")
    'table-3'
    >>> check_table_id("a/b")
    Traceback (most recent call last):
    ValueError: table id 'a/b': 1-64 letters, digits, '_', '.' or '-', starting with a letter or digit
    """
    if not isinstance(table_id, str) or not _ID.fullmatch(table_id):
        raise ValueError(f"table id {table_id!r}: 1-64 letters, digits, '_', '.' or '-', "
                         "starting with a letter or digit")
    return table_id


def topic(table_id: str, kind: str) -> str:
    """``arena-table/<id>/<kind>`` (kind: ``view``, ``events``, ``status`` or ``resend``).

    >>> topic("t1", "view")
    'arena-table/t1/view'
    """
    return f"{PREFIX}/{table_id}/{kind}"


def split_topic(name: str) -> tuple[str, str] | None:
    """``(table_id, kind)`` of an ``arena-table/<id>/<kind>`` topic, else None.

    >>> split_topic("arena-table/t1/events"), split_topic("other/x")
    (('t1', 'events'), None)
    """
    parts = name.split("/")
    if len(parts) != 3 or parts[0] != PREFIX:
        return None
    return parts[1], parts[2]


@dataclass(frozen=True)
class Broker:
    """Where the broker listens and who we are to it."""

    host: str
    port: int = DEFAULT_PORT
    username: str | None = None
    password: str | None = None

    def __str__(self) -> str:
        return f"mqtt://{self.host}:{self.port}"


def parse_broker(url: str) -> Broker:
    """``mqtt://[USER:PASSWORD@]HOST[:PORT]`` (port default 1883) as a :class:`Broker`.

    Raises:
        ValueError: another scheme, no host, or a port outside 1-65535 (the message names the address).

    >>> parse_broker("mqtt://hall.local")
    Broker(host='hall.local', port=1883, username=None, password=None)
    >>> parse_broker("mqtt://t1:s3cret@127.0.0.1:1884").port
    1884
    """
    parts = urlsplit(url)
    if parts.scheme != "mqtt":
        raise ValueError(f"broker {url!r}: expected mqtt://HOST[:PORT]")
    try:
        port = parts.port or DEFAULT_PORT
    except ValueError:
        raise ValueError(f"broker {url!r}: the port is not a number 1-65535") from None
    if not parts.hostname:
        raise ValueError(f"broker {url!r}: no host (expected mqtt://HOST[:PORT])")
    if not 1 <= port <= 65535:
        raise ValueError(f"broker {url!r}: the port is not a number 1-65535")
    user = unquote(parts.username) if parts.username else None
    password = unquote(parts.password) if parts.password else None
    return Broker(parts.hostname, port, user, password)
