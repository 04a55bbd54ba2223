"""Each table's spectator screen as the hub serves it: the table's own page, fed by the broker.

The table publishes its spectator state (the JSON its own ``/api/stream`` carries) as its retained
``view``; the hub renders the same ``spectator.html`` and ``spectator.js`` of
:mod:`arena_table.webui`, pointed at ``/table/<id>/stream`` instead of the table's. Phones then
load the hub, never the table's Pi: the table publishes once whoever watches.

Frames, as a table's own stream has them (:mod:`arena_table.webui.sse`, what ``spectator.js``
takes): each view message becomes, encoded once, an ``update`` frame (``id: EPOCH:VERSION``, data
``{"type": "update", "epoch", "version", "rev", "base", "set", "unset", "append", "online"}``: the
top-level keys of the state that changed since revision ``base``, the plain-words log as
``append``) and a ``snapshot`` frame (data ``{"type": "snapshot", "epoch", "version", "rev",
"reason": "hub", "online", "state"}``). Both go to the table's channel (``table/<id>``) of the
hub's :class:`~arena_table.hub.fanout.Fanout`, which writes the update to every phone that had the
previous frame and the snapshot to one that joined, fell behind or meets a new epoch (a table
restarted). ``rev`` counts the hub's frames of the table (from 1), since an online/offline change
is a new frame at the same version. An update is about a tenth of a snapshot's bytes: a hall of
phones costs the hub that much less.
"""

from __future__ import annotations

import json
import threading
from typing import Any

from arena_table.webui.sse import APPENDABLE, _appended, format_event

from .fanout import Fanout
from .feed import Feed


def channel(table_id: str) -> str:
    """The fan-out channel of a table's screen."""
    return f"table/{table_id}"


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


class _Last:
    """What the hub last sent of one table: its key, revision, state parts and appendable lists."""

    def __init__(self) -> None:
        self.key: tuple | None = None
        self.rev = 0
        self.parts: dict[str, str] = {}
        self.lists: dict[str, list] = {}
        self.data = ""
        """The snapshot's data JSON (the page's first render)."""


class Screens:
    """The current frames of every table, published to the fan-out on each change.

    Args:
        feed: the hub's subscription (started by the caller); told of each change on paho's thread.
        fanout: where the frames go.
    """

    def __init__(self, feed: Feed, fanout: Fanout) -> None:
        self.feed, self.fanout = feed, fanout
        self._lock = threading.Lock()
        self._last: dict[str, _Last] = {}
        feed.listen(self._changed)

    def _changed(self, table_id: str) -> None:
        t = self.feed.table(table_id)
        if t is None or t.view is None:
            return
        epoch, version = t.view.get("epoch"), t.view.get("version")
        key = (epoch, version, t.online)
        with self._lock:
            last = self._last.setdefault(table_id, _Last())
        if last.key == key:
            return  # an event message, or a view already sent
        state = t.view.get("state") or {}
        parts = {k: _dumps(v) for k, v in state.items()}
        same_epoch = last.key is not None and last.key[0] == epoch
        appended = {}
        for name in APPENDABLE:
            new_list = state.get(name)
            if isinstance(new_list, list):
                tail = _appended(last.lists.get(name), new_list) if same_epoch else None
                if tail is not None and parts.get(name) != last.parts.get(name):
                    appended[name] = f'{{"items":{_dumps(tail)},"keep":{len(new_list)}}}'
        changed = {k: v for k, v in parts.items() if last.parts.get(k) != v and k not in appended}
        removed = [k for k in last.parts if k not in parts]
        base, rev = last.rev, last.rev + 1
        head = f'"epoch":{json.dumps(epoch)},"version":{json.dumps(version)},"rev":{rev}'
        online = "true" if t.online else "false"
        body = "{" + ",".join(f"{json.dumps(k)}:{v}" for k, v in parts.items()) + "}"
        data = f'{{"type":"snapshot",{head},"reason":"hub","online":{online},"state":{body}}}'
        snapshot = format_event("snapshot", data, id=f"{epoch}:{version}")
        update = None
        if same_epoch:
            sets = ",".join(f"{json.dumps(k)}:{v}" for k, v in changed.items())
            tails = ",".join(f"{json.dumps(k)}:{v}" for k, v in appended.items())
            update = format_event("update", f'{{"type":"update",{head},"base":{base},"set":{{{sets}}},'
                                            f'"unset":{json.dumps(removed)},"append":{{{tails}}},"online":{online}}}',
                                  id=f"{epoch}:{version}")
        last.key, last.rev, last.parts, last.data = key, rev, parts, data
        last.lists = {name: state[name] for name in APPENDABLE if isinstance(state.get(name), list)}
        self.fanout.publish(channel(table_id), snapshot, update)

    def initial(self, table_id: str) -> str | None:
        """The table's current snapshot as JSON text (the page's first render), or None before one."""
        with self._lock:
            last = self._last.get(table_id)
        return None if last is None or not last.data else last.data
