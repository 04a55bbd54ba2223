"""The control page's teach card: teach a die kind from the camera (``/api/teach``).

The table hands the app its teaching session as ``service.teaching`` (duck-typed:
``status()``, ``capture(kind, face)``, ``clear(kind, face)``, ``teach(kind)``; the table's is
``arena_table.table.teach_session.TeachSession``). A refused capture or teach is a ``ValueError``
whose message the card shows; a refused teach of two faces the model cannot tell apart is 422 with
those ``faces``.
"""

from __future__ import annotations

from flask import Flask, Response, jsonify

from . import auth
from .inputs import _check_sizes, _error, _json_body
from .service import TableService


def _session(service: TableService):
    session = getattr(service, "teaching", None)
    return session if callable(getattr(session, "teach", None)) else None


def _names(data: dict, *keys: str) -> list[str]:
    out = []
    for key in keys:
        value = data.get(key, "")
        if value is None:
            value = ""
        if not isinstance(value, str):
            raise ValueError(f"{key}: want text, got {type(value).__name__}")
        out.append(value)
    _check_sizes(dict(zip(keys, out)), "teach")
    return out


def _kind_and_face(service: TableService, action: str) -> Response:
    """The session's ``action`` (``capture`` or ``clear``) on the body's ``kind`` and ``face``:
    501 when the table cannot teach, 400 naming a bad field."""
    session = _session(service)
    if session is None:
        return _error(501, "this table cannot teach die kinds")
    try:
        kind, face = _names(_json_body(), "kind", "face")
        return jsonify(getattr(session, action)(kind, face))
    except ValueError as exc:
        return _error(400, str(exc))


def register_teach(app: Flask, service: TableService) -> None:
    """Add the teach card's routes to ``app``."""

    @app.get("/api/teach")
    @auth.login_required
    def teach_status() -> Response:
        """The teach card: kinds to pick, kinds taught here, shots gathered per kind and face, last teachings."""
        session = _session(service)
        if session is None:
            return _error(501, "this table cannot teach die kinds")
        return jsonify(session.status())

    @app.post("/api/teach/capture")
    def teach_capture() -> Response:
        """Every die of the camera's last frame as a shot of a face: ``{"kind": "logo-d6", "face": "logo"}``."""
        return _kind_and_face(service, "capture")

    @app.post("/api/teach/clear")
    def teach_clear() -> Response:
        """Drop the shots gathered of a kind (of one face when ``face`` is given): ``{"kind": "logo-d6"}``."""
        return _kind_and_face(service, "clear")

    @app.post("/api/teach/build")
    def teach_build() -> Response:
        """Teach a kind from its shots and store it in the data folder: ``{"kind": "logo-d6"}``; the
        held-back confusion matrix, or 422 naming two faces it cannot tell apart."""
        session = _session(service)
        if session is None:
            return _error(501, "this table cannot teach die kinds")
        try:
            (kind,) = _names(_json_body(), "kind")
            return jsonify(session.teach(kind))
        except ValueError as exc:
            faces = list(getattr(exc, "faces", ()) or ())
            return _error(422, str(exc), faces=faces) if faces else _error(400, str(exc))
        except OSError as exc:
            return _error(503, f"the taught kind could not be stored: {exc}")
