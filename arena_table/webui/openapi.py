"""The OpenAPI 3.1 description of the JSON API, served at ``/api/openapi.json``.

Written out by hand (the routes are few and their shapes matter more than their code),
with each operation's summary taken from the view function's docstring so the two
cannot drift apart in wording; a test checks that every ``/api/`` route is described.
"""

from __future__ import annotations

from typing import Any

from flask import Flask

_ERROR = {"$ref": "#/components/schemas/Error"}
_ACCEPTED = {"$ref": "#/components/schemas/Accepted"}


def _json(schema: dict[str, Any], description: str = "OK") -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


_CONFIRM = {"oneOf": [{"type": "boolean"}, {"type": "integer"}],
            "description": "true (end whatever runs), or the running game's `started` (end only that game): "
                           "a start that would end a board game with events after its start not undone, or a dice tray "
                           "with rolls, is otherwise 409 (undo stops at a game's start)"}


def _errors(*codes: int) -> dict[str, Any]:
    text = {400: "Bad input (the message names the field)", 401: "Not logged in",
            403: "Missing or wrong CSRF token", 404: "Not found", 409: "Conflict (the message says with what)",
            413: "Request body above 64 KiB", 422: "The rules refuse the event (reason and event named)", 429: "Too many wrong PINs, or streams from this address",
            501: "Not available on this table", 503: "Busy or full"}
    return {str(c): _json(_ERROR, text[c]) for c in codes}


def _body(schema: dict[str, Any]) -> dict[str, Any]:
    return {"required": True, "content": {"application/json": {"schema": schema}}}


_CONTROL = [{"session": [], "csrf": []}]
_OBJECT = {"type": "object"}

OPERATIONS: dict[tuple[str, str], dict[str, Any]] = {
    ("/api/state", "get"): {
        "parameters": [{"name": "viewer", "in": "query", "schema": {"enum": ["spectator", "control"]}}],
        "responses": {"200": _json({"$ref": "#/components/schemas/StateEnvelope"}), **_errors(401)}},
    ("/api/events", "get"): {
        "parameters": [{"name": "since", "in": "query", "schema": {"type": "integer", "minimum": 0, "default": 0},
                        "description": "rows after this sequence number; negative or not a whole number: 400"},
                       {"name": "limit", "in": "query", "schema": {"type": "integer", "minimum": 1, "default": 200},
                        "description": "at most this many rows; below 1: 400; above 1000: clamped to 1000"},
                       {"name": "viewer", "in": "query", "schema": {"enum": ["spectator", "control"]}}],
        "responses": {"200": _json({"type": "object", "properties": {
            "since": {"type": "integer"}, "events": {"type": "array", "items": {"$ref": "#/components/schemas/LogRow"}}}}),
            **_errors(400)}},
    ("/api/events", "post"): {
        "security": _CONTROL,
        "requestBody": _body({"type": "object", "properties": {
            "notation": {"type": "string", "examples": ["roll die=d6 faces=[3,5]"]},
            "event": {"type": "object", "properties": {"kind": {"type": "string"}}, "required": ["kind"]},
            "keep_time": {"type": "boolean"}, "confirm": _CONFIRM}}),
        "responses": {"201": _json(_ACCEPTED, "Stored and applied"), **_errors(400, 401, 403, 409, 422, 503)}},
    ("/api/stream", "get"): {
        "parameters": [{"name": "Last-Event-ID", "in": "header", "schema": {"type": "string"},
                        "description": "EPOCH:VERSION of the last message seen"}],
        "responses": {"200": {"description": "Server-Sent Events: snapshot, update, heartbeat",
                              "content": {"text/event-stream": {"schema": {"type": "string"}}}},
                      **_errors(429, 503)}},
    ("/api/status", "get"): {
        "responses": {"200": _json({"type": "object", "properties": {
            "devices": {"type": "object", "additionalProperties": _OBJECT},
            "streams": {"type": "object"}, "epoch": {"type": "string"}, "version": {"type": "integer"}}})}},
    ("/api/games", "get"): {
        "responses": {"200": _json({"type": "object", "properties": {
            "games": {"type": "array", "items": {"type": "object", "properties": {
                "name": {"type": "string"}, "title": {"type": "string"},
                "aliases": {"type": "array", "items": {"type": "string"}}, "form": {},
                "objects": {"type": "array", "items": {"type": "string"}}}}},
            "event_kinds": {"type": "array", "items": _OBJECT}, "running": {"type": "string"}}})}},
    ("/api/openapi.json", "get"): {"responses": {"200": _json(_OBJECT)}},
    ("/login", "post"): {
        "security": [{"csrf": []}],
        "description": "Log in with the table's PIN (the spectator screen's console and `arena-table doctor` show "
                       "it): first GET /api/session for a session cookie and its CSRF token, then POST the PIN "
                       "with that token; the answer carries the logged-in session's token for every later POST.",
        "requestBody": _body({"type": "object", "required": ["pin"], "properties": {"pin": {"type": "string"}}}),
        "responses": {"200": _json({"type": "object", "properties": {
            "authenticated": {"type": "boolean"}, "csrf": {"type": "string"}}}),
            "401": _json(_ERROR, "Wrong PIN or one-time code (the message says how many tries are left before a wait)"),
            **_errors(400, 403, 429)}},
    ("/logout", "post"): {
        "security": _CONTROL,
        "description": "End this session on the table too: a copy of its cookie is refused from now on, "
                       "also after a restart of the table.",
        "responses": {"200": _json({"type": "object", "properties": {"authenticated": {"type": "boolean"}}}),
                      **_errors(401, 403)}},
    ("/api/session", "get"): {
        "responses": {"200": _json({"type": "object", "properties": {
            "authenticated": {"type": "boolean"}, "csrf": {"type": "string"}}})}},
    ("/api/start", "post"): {
        "security": _CONTROL,
        "requestBody": _body({"type": "object", "required": ["game"], "properties": {
            "game": {"type": "string"}, "options": {"oneOf": [_OBJECT, {"type": "string"}]}, "confirm": _CONFIRM}}),
        "responses": {"201": _json(_ACCEPTED), **_errors(400, 401, 403, 409, 422)}},
    ("/api/correct", "post"): {
        "security": _CONTROL,
        "requestBody": _body({"type": "object", "required": ["roll", "index", "value"], "properties": {
            "roll": {"type": "integer"}, "index": {"type": "integer", "minimum": 0},
            "value": {"oneOf": [{"type": "integer"}, {"type": "string", "minLength": 1, "maxLength": 40}]},
            "drop": {"type": "array", "items": {"type": "integer", "minimum": 1}, "maxItems": 100}},
            "additionalProperties": False}),
        "responses": {"201": _json(_ACCEPTED),
                      "200": _json({"type": "object", "properties": {
                          "unchanged": {"type": "boolean"}, "event": {"type": "string"}, "text": {"type": "string"}}},
                          "The die already shows that value (a resent correction): nothing is recorded"),
                      "409": _json({"type": "object", "properties": {
                          "error": {"type": "string"}, "drop": {"type": "array", "items": {"type": "integer"}},
                          "later": {"type": "object", "properties": {
                              "seq": {"type": "integer"}, "event": {"type": "string"}, "text": {"type": "string"},
                              "when": {"type": "string"}, "reason": {"type": "string"}}}}},
                          "A later event would be illegal with the corrected die (later names it); send the "
                          "correction again with its seq in drop to drop it. Nothing is changed"),
                      **_errors(400, 401, 403, 422)}},
    ("/api/actions", "get"): {
        "security": [{"session": []}],
        "responses": {"200": _json({"type": "object", "properties": {
            "game": {"type": "string"}, "acting": {"type": ["string", "null"]}, "turn": {"type": "string"},
            "prompt": {"type": "string"}, "offers": {"type": "boolean"},
            "actions": {"type": "array", "items": {"type": "object", "properties": {
                "kind": {"type": "string"}, "label": {"type": "string"}, "player": {"type": "string"},
                "fields": {"type": "object"}, "params": {"type": "array", "items": {"type": "object"}},
                "notation": {"type": ["string", "null"]}}}},
            "version": {"type": "integer"}}}), **_errors(401)}},
    ("/api/undo", "get"): {
        "security": [{"session": []}],
        "responses": {"200": _json({"type": "object", "properties": {
            "seq": {"type": "integer"}, "event": {"type": "string"}, "kind": {"type": "string"},
            "question": {"type": "string"}}}), **_errors(401, 409)}},
    ("/api/undo", "post"): {
        "security": _CONTROL,
        "requestBody": _body({"type": "object", "required": ["seq"], "properties": {"seq": {"type": "integer"}}}),
        "responses": {"200": _json({"type": "object", "properties": {
            "undone": {"type": "integer"}, "event": {"type": "string"}, "version": {"type": "integer"}}}),
            **_errors(400, 401, 403, 409)}},
    ("/api/tags/enroll", "post"): {
        "security": _CONTROL,
        "requestBody": _body({"type": "object", "required": ["uid", "object"], "properties": {
            "uid": {"type": "string"}, "object": {"type": "string"}}}),
        "responses": {"200": _json(_OBJECT), **_errors(400, 401, 403, 501)}},
    ("/api/tokens", "get"): {
        "security": [{"session": []}],
        "responses": {"200": _json({"type": "object", "properties": {
            "sim": {"type": "boolean"},
            "pads": {"type": "array", "items": {"oneOf": [{"type": "integer"}, {"type": "object", "properties": {
                "pad": {"type": "integer"}, "uid": {"type": "string"}, "object": {"type": "string"},
                "health": {"type": "string"}}}]}},
            "last_unknown_uid": {"type": ["string", "null"]}}}), **_errors(401)}},
    ("/api/tokens/place", "post"): {
        "security": _CONTROL,
        "requestBody": _body({"$ref": "#/components/schemas/PadTag"}),
        "responses": {"200": _json(_OBJECT), **_errors(400, 401, 403, 409)}},
    ("/api/tokens/remove", "post"): {
        "security": _CONTROL,
        "requestBody": _body({"type": "object", "required": ["pad"], "properties": {
            "pad": {"type": "integer"}, "uid": {"type": "string"}}}),
        "responses": {"200": _json(_OBJECT), **_errors(400, 401, 403, 409)}},
    ("/api/camera/frame.jpg", "get"): {
        "security": [{"session": []}],
        "responses": {"200": {"description": "JPEG of the latest frame with detections drawn",
                              "content": {"image/jpeg": {"schema": {"type": "string", "format": "binary"}}}},
                      **_errors(401, 404)}},
    ("/api/markers", "get"): {
        "security": [{"session": []}],
        "responses": {"200": _json(_OBJECT, "dictionary, marker_mm and markers [{id, figure, team, game, kind}]"),
                      **_errors(401, 501)}},
    ("/api/markers", "post"): {
        "security": [{"session": []}],
        "requestBody": _body({"type": "object", "required": ["id"], "properties": {
            "id": {"type": "integer"}, "figure": {"type": "string", "description": "game:kind:name"},
            "team": {"type": "string"}, "remove": {"type": "boolean"}}}),
        "responses": {"200": _json(_OBJECT), **_errors(400, 401, 403, 501)}},
    ("/api/board/calibrate", "post"): {
        "security": [{"session": []}],
        "requestBody": _body({"type": "object", "required": ["corners"], "properties": {
            "corners": {"type": "object", "description": "corner marker id -> [x, y] board mm of its centre (four)",
                        "additionalProperties": {"type": "array", "items": {"type": "number"}}},
            "reference": {"type": "object", "required": ["id", "cell"], "properties": {
                "id": {"type": "integer"}, "cell": {"description": "[q, r], [col, row] or an area name"}}}}}),
        "responses": {"200": _json(_OBJECT), **_errors(400, 401, 403, 404)}},
    ("/api/teach", "get"): {
        "security": [{"session": []}],
        "responses": {"200": _json({"type": "object", "properties": {
            "kinds": {"type": "array", "items": {"type": "object", "description": "id, title, faces, to_enter, taught"}},
            "taught": {"type": "array", "items": {"type": "object", "description": "id, base, faces, shots, accuracy"}},
            "shots": {"type": "object", "description": "kind -> face -> shots gathered"},
            "last": {"type": "object", "description": "kind -> its last teaching: report, or refused and faces"}}}),
            **_errors(401, 501)}},
    ("/api/teach/capture", "post"): {
        "security": [{"session": []}],
        "requestBody": _body({"type": "object", "required": ["kind", "face"], "properties": {
            "kind": {"type": "string", "examples": ["logo-d6"]}, "face": {"type": "string", "examples": ["logo"]}}}),
        "responses": {"200": _json({"type": "object", "properties": {
            "kind": {"type": "string"}, "face": {"type": "string"}, "added": {"type": "integer"},
            "shots": {"type": "object", "description": "face -> shots gathered"}}}),
            **_errors(400, 401, 403, 501)}},
    ("/api/teach/clear", "post"): {
        "security": [{"session": []}],
        "requestBody": _body({"type": "object", "required": ["kind"], "properties": {
            "kind": {"type": "string"}, "face": {"type": "string", "description": "only this face's shots"}}}),
        "responses": {"200": _json(_OBJECT), **_errors(400, 401, 403, 501)}},
    ("/api/teach/build", "post"): {
        "security": [{"session": []}],
        "requestBody": _body({"type": "object", "required": ["kind"], "properties": {"kind": {"type": "string"}}}),
        "responses": {"200": _json({"type": "object", "properties": {
            "kind": {"type": "string"}, "base": {"type": ["string", "null"]}, "file": {"type": "string"},
            "faces": {"type": "array", "items": {"type": "string"}},
            "shots": {"type": "object"},
            "report": {"type": "object", "description": "faces, held_back, accuracy, per_face_accuracy, "
                                                        "confusion (rows true face, columns read face), threshold, abstention"}}}),
            "422": _json({"allOf": [_ERROR, {"type": "object", "properties": {
                "faces": {"type": "array", "items": {"type": "string"},
                          "description": "the two faces the model cannot tell apart"}}}]},
                "Two faces the held-back shots cannot tell apart (named in faces)"),
            **_errors(400, 401, 403, 501, 503)}},
    ("/api/camera/board.jpg", "get"): {
        "security": [{"session": []}],
        "responses": {"200": {"description": "JPEG of the latest frame warped to the board by the board "
                                             "calibration, the game's grid and the tracked figures drawn",
                              "content": {"image/jpeg": {"schema": {"type": "string", "format": "binary"}}}},
                      **_errors(401, 404)}},
}

COMPONENTS: dict[str, Any] = {
    "schemas": {
        "Error": {"type": "object", "required": ["error", "status"], "properties": {
            "error": {"type": "string"}, "status": {"type": "integer"}, "reason": {"type": "string"},
            "event": {"type": "string"}}},
        "Accepted": {"type": "object", "required": ["seq", "event"], "properties": {
            "seq": {"type": "integer", "description": "sequence number the event was stored under"},
            "event": {"type": "string", "description": "the event in notation"}}},
        "StateEnvelope": {"type": "object", "required": ["epoch", "version", "state"], "properties": {
            "epoch": {"type": "string"}, "version": {"type": "integer"}, "rev": {"type": "integer"},
            "state": {"$ref": "#/components/schemas/TableView"}}},
        "TableView": {"type": "object", "description": "rules.table_view plus svg (docs/view-schema.md)",
                      "properties": {"game": {"type": "string"}, "title": {"type": "string"},
                                     "seq": {"type": "integer"}, "view": _OBJECT, "tray": _OBJECT,
                                     "outcome": {"type": ["object", "null"]},
                                     "log": {"type": "array", "items": _OBJECT},
                                     "tags": {"type": "array", "items": _OBJECT}, "svg": _OBJECT,
                                     "status": _OBJECT}},
        "LogRow": {"type": "object", "properties": {
            "seq": {"type": "integer"}, "status": {"enum": ["ok", "rejected"]}, "text": {"type": "string"},
            "event": _OBJECT, "recorded": {"type": "number"}, "reason": {"type": "string"},
            "words": {"type": "string", "description": "viewer=control: the table log's plain words, else the "
                                                       "notation without times and image references"},
            "when": {"type": "string", "description": "viewer=control: HH:MM:SS local time recorded"}}},
        "PadTag": {"type": "object", "required": ["pad", "uid"], "properties": {
            "pad": {"type": "integer"}, "uid": {"type": "string"}}},
    },
    "securitySchemes": {
        "session": {"type": "apiKey", "in": "cookie", "name": "arena_session",
                    "description": "set by POST /login with the table's PIN"},
        "csrf": {"type": "apiKey", "in": "header", "name": "X-CSRF-Token",
                 "description": "the token from GET /api/session"},
    },
}


def flask_path(rule: str) -> str:
    """``/media/<path:ref>`` -> ``/media/{ref}``.

    >>> flask_path("/media/<path:ref>")
    '/media/{ref}'
    """
    import re

    return re.sub(r"<(?:[^:<>]+:)?([^<>]+)>", r"{\1}", rule)


def spec(app: Flask) -> dict[str, Any]:
    """The OpenAPI document for ``app`` (summaries from the view functions' docstrings)."""
    paths: dict[str, dict[str, Any]] = {}
    summaries = {}
    for rule in app.url_map.iter_rules():
        doc = (app.view_functions[rule.endpoint].__doc__ or "").strip().split("\n")[0]
        for method in rule.methods or ():
            summaries[(flask_path(rule.rule), method.lower())] = doc
    for (path, method), op in OPERATIONS.items():
        item = {"operationId": f"{method}_{path.strip('/').replace('/', '_').replace('.', '_')}",
                "summary": summaries.get((path, method), ""), **op}
        if "requestBody" in op:  # every body is capped (Flask MAX_CONTENT_LENGTH)
            item["responses"] = {**op["responses"], **_errors(413)}
        paths.setdefault(path, {})[method] = item
    return {"openapi": "3.1.0",
            "info": {"title": "arena-table", "version": "1",
                     "description": "The table's spectator view, event log and control commands. Every error is JSON "
                            "{error, status} naming what was wrong; request bodies above 64 KiB get 413, "
                            "texts above 200 characters, lists above 100 values (dice per roll) and "
                            "nesting deeper than 32 levels get 400."},
            "paths": paths, "components": COMPONENTS}
