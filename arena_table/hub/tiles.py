"""A wall tile from what the broker says of one table: pure functions of its last view and presence.

The view is the table's spectator JSON (``rules.table_view`` plus pictures, docs/view-schema.md);
a tile keeps only what a TV across the hall shows: the game, its phase or round, who leads,
who acts now, online or not.
"""

from __future__ import annotations

from typing import Any


def leader(state: dict[str, Any]) -> str:
    """The winners once the game is over, else the best score, else the head of a ranking, else ``""``.

    >>> leader({"outcome": {"winners": ["Ann"], "reason": "last team standing", "draw": False}})
    'Ann won'
    >>> leader({"view": {"scores": [{"side": "Ann", "value": 4}, {"side": "Bo", "value": 6}]}})
    'Bo 6'
    >>> leader({"view": {"order_title": "Hero Ranking", "order": [{"name": "Rochon", "side": "Ann"}]}})
    'Rochon (Ann)'
    """
    outcome = state.get("outcome")
    if outcome:
        if outcome.get("draw") or not outcome.get("winners"):
            return "draw"
        return " & ".join(outcome["winners"]) + " won"
    view = state.get("view") or {}
    scores = [s for s in view.get("scores") or [] if isinstance(s.get("value"), (int, float))]
    if scores:
        best = max(scores, key=lambda s: s["value"])
        return f"{best.get('side', '?')} {best['value']:g}"
    order = view.get("order") or []
    if order and "rank" in (view.get("order_title") or "").lower():
        return _who(order[0])
    return ""


def acting(state: dict[str, Any]) -> str:
    """Who acts now: the acting character (and side), else the side to act, else the prompt.

    >>> acting({"view": {"acting": "r", "order": [{"id": "r", "name": "Rochon", "side": "Ann", "acting": True}]}})
    'Rochon (Ann)'
    >>> acting({"view": {"acting_side": "Bo"}})
    'Bo'
    """
    if state.get("outcome"):
        return ""
    view = state.get("view") or {}
    for item in view.get("order") or []:
        if item.get("acting") or (view.get("acting") and item.get("id") == view["acting"]):
            return _who(item)
    return view.get("acting_side") or view.get("prompt") or ""


def _who(item: dict[str, Any]) -> str:
    name, side = item.get("name") or item.get("id") or "?", item.get("side")
    return f"{name} ({side})" if side and side != name else name


def phase(state: dict[str, Any]) -> str:
    """The phase line, else ``round N/M``, else the rolls of a dice tray.

    >>> phase({"view": {"round": 3, "round_max": 9}})
    'round 3/9'
    """
    view = state.get("view") or {}
    if view.get("phase"):
        return view["phase"]
    if view.get("round"):
        return f"round {view['round']}" + (f"/{view['round_max']}" if view.get("round_max") else "")
    tray = state.get("tray")
    return f"{tray.get('rolls', 0)} rolls" if isinstance(tray, dict) else ""


def tile(table_id: str, online: bool, view: dict[str, Any] | None) -> dict[str, Any]:
    """The wall's tile of one table.

    >>> tile("t1", False, None)["game"]
    ''
    """
    state = (view or {}).get("state") or {}
    return {"id": table_id, "online": online, "game": state.get("title") or state.get("game") or "",
            "phase": phase(state), "leader": leader(state), "acting": acting(state),
            "over": bool(state.get("outcome")), "version": (view or {}).get("version", 0)}


def tiles(feeds: dict[str, Any]) -> list[dict[str, Any]]:
    """Every table's tile, sorted by name (case-insensitively, then as given)."""
    return [tile(t.table_id, t.online, t.view) for t in sorted(feeds.values(), key=lambda t: (t.table_id.lower(),
                                                                                             t.table_id))]
