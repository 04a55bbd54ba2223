"""The remote's data: what the running game offers now (``GET /api/actions``).

The actions come from the game's own ``actions(state)`` (``arena_table.rules.kernel.actions``):
labels in the book's words, whose action each is, and the choices that complete it, each one the
rules accept. The control page shows them as buttons; a tap submits the event they make through
``POST /api/events`` like any other.
"""

from __future__ import annotations

from typing import Any

from flask import Flask, Response, jsonify

from arena_table.rules import find_game

from . import auth
from .service import TableService


def offers(service: TableService) -> dict[str, Any]:
    """``{"game", "title", "acting", "turn", "prompt", "actions": [Action JSON], "offers", "to_enter", "version"}`` for the
    state now. ``acting`` (an id) and ``prompt`` are the spectator view's (the TV's words); ``turn`` is whose
    turn it is by the name the TV shows (the acting entry's, else the acting side), "" when the prompt
    already begins with it; ``offers`` is false for a game that offers no actions (typed events only);
    ``to_enter`` is the setup checklist (``Game.to_enter``): an action for each value still a placeholder."""
    ts = service.state
    game = find_game(ts.game)
    view = game.view(ts.state)
    get = view.get if hasattr(view, "get") else dict(view).get
    acts = [a.to_json() for a in game.actions(ts.state)] if game.actions is not None else []
    to_enter = [a.to_json() for a in game.to_enter(ts.state)] if game.to_enter is not None else []
    prompt = get("prompt") or ""
    return {"game": game.name, "title": game.title, "acting": get("acting"), "turn": _turn(view, get, prompt),
            "prompt": prompt, "actions": acts, "offers": game.actions is not None, "to_enter": to_enter,
            "version": service.version}


def _turn(view: Any, get: Any, prompt: str) -> str:
    acting = get("acting")
    names = {_field(e, "id"): _field(e, "name") for e in (get("order") or ())}
    who = names.get(acting) or acting or get("acting_side") or ""
    return "" if not who or prompt.startswith(str(who)) else str(who)


def _field(entry: Any, name: str) -> Any:
    return entry.get(name) if isinstance(entry, dict) else getattr(entry, name, None)


def _register_remote(app: Flask, service: TableService) -> None:
    @app.get("/api/actions")
    @auth.login_required
    def actions() -> Response:
        """The actions the running game offers now, with their choices (the remote's buttons)."""
        return jsonify(offers(service))
