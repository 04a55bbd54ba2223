"""The Flask app: the spectator screen, the PIN-locked control page and the JSON API.

Routes never change the table themselves: they build an event and hand it to
``service.submit`` (or call ``service.undo``/a device's own method) and return what it
answered; a refusal by the rules comes back as JSON naming what was wrong
(``IllegalEvent`` → 422, bad notation/options → 400, nothing to undo → 409).
The JSON API is described by :mod:`arena_table.webui.openapi` at ``/api/openapi.json``.
"""

from __future__ import annotations

import dataclasses
import ipaddress
import json
import logging
import math
import re
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

from flask import Flask, Response, abort, jsonify, make_response, render_template, request, send_file
from werkzeug.exceptions import HTTPException, InternalServerError

from arena_table.rules import (DieCorrected, GameStarted, IllegalEvent, NotationError, NothingToUndo, RulesError,
                               UnknownGame, event_types, find_game, from_json, games, parse)

from . import auth, openapi
from .service import TableService, find_device
from .sse import Hub, HubFull
from .views import log_rows, plain_words, spectator_state

log = logging.getLogger(__name__)

MAX_BODY = 64 * 1024
"""Bytes a request body may have (Flask ``MAX_CONTENT_LENGTH``); more is refused with 413."""
MAX_TEXT = 200
"""Characters a text value of a submitted event or game options may have (names, sources...)."""
MAX_ITEMS = 100
"""Values a list may have (dice per roll, players...)."""
MAX_DEPTH = 32
"""Levels of nesting a request body (or a value in it) may have."""
MAX_NOTATION = 4000
"""Characters of an event in notation."""
MAX_INT = 2 ** 53
"""Whole numbers in a request are refused at this size or more (JSON's exact integers)."""


@dataclass
class WebConfig:
    """Settings of the web app (``arena-table run`` fills them from its flags)."""

    pin: str | None = None
    """The control page's PIN; default: ``service.config.pin``."""
    max_clients: int = 200
    """Spectator streams held at once; the next one gets a 503 page."""
    heartbeat: float = 15.0
    """Seconds of silence before the stream sends a heartbeat."""
    public_url: str | None = None
    """The address the QR code points at; default: worked out from the request and the host."""
    host: str = "127.0.0.1"
    """Address the server listens on (for the QR code's guess of the LAN address)."""


def _web_config(config: WebConfig | Mapping[str, Any] | None, service: TableService) -> WebConfig:
    if isinstance(config, WebConfig):
        cfg = dataclasses.replace(config)
    else:
        names = {f.name for f in dataclasses.fields(WebConfig)}
        cfg = WebConfig(**{k: v for k, v in dict(config or {}).items() if k in names})
    if cfg.pin is None:
        cfg.pin = getattr(getattr(service, "config", None), "pin", None)
    if not cfg.pin:
        raise ValueError("the control page needs a PIN (service.config.pin or WebConfig.pin)")
    return cfg


def create_app(service: TableService, config: WebConfig | Mapping[str, Any] | None = None) -> Flask:
    """The web app for ``service``; its SSE hub is started (stop it with :func:`shutdown`).

    Raises:
        ValueError: no PIN in ``config`` nor ``service.config.pin``.
    """
    cfg = _web_config(config, service)
    app = Flask(__name__)
    app.config["JSON_SORT_KEYS"] = False
    app.config["MAX_CONTENT_LENGTH"] = MAX_BODY
    hub = Hub(service, spectator_state, max_clients=cfg.max_clients, heartbeat=cfg.heartbeat).start()
    app.extensions["arena_hub"] = hub
    app.extensions["arena_service"] = service
    app.extensions["arena_web_config"] = cfg
    auth.init_auth(app, cfg.pin)
    _register_errors(app)
    _register_pages(app, service, hub, cfg)
    _register_api(app, service, hub)
    _register_control(app, service)
    return app


def shutdown(app: Flask) -> None:
    """End the app's streams and stop its hub thread."""
    hub = app.extensions.get("arena_hub")
    if hub is not None:
        hub.close()


# --- errors ---------------------------------------------------------------------------------

def _error(status: int, message: str, **extra: Any) -> Response:
    resp = jsonify({"error": message, "status": status, **extra})
    resp.status_code = status
    return resp


def _register_errors(app: Flask) -> None:
    @app.errorhandler(IllegalEvent)
    def illegal(exc: IllegalEvent) -> Response:
        return _error(422, str(exc), reason=exc.reason, event=str(exc.event))

    @app.errorhandler(NotationError)
    def notation(exc: NotationError) -> Response:
        return _error(400, str(exc))

    @app.errorhandler(UnknownGame)
    def unknown_game(exc: UnknownGame) -> Response:
        return _error(400, str(exc))

    @app.errorhandler(NothingToUndo)
    def nothing(exc: NothingToUndo) -> Response:
        return _error(409, str(exc))

    @app.errorhandler(TimeoutError)
    def timeout(exc: TimeoutError) -> Response:
        return _error(503, "the table did not answer in time; try again")

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException) -> Any:
        if not request.path.startswith("/api/"):
            return exc
        if exc.code == 413:
            return _error(413, f"the request body is larger than {MAX_BODY // 1024} KiB")
        return _error(exc.code or 500, exc.description or exc.name)

    @app.errorhandler(RecursionError)
    def too_deep(exc: RecursionError) -> Response:
        return _error(400, f"the request is nested too deeply (at most {MAX_DEPTH} levels)")

    @app.errorhandler(Exception)
    def uncaught(exc: Exception) -> Any:
        log.error("uncaught error on %s %s", request.method, request.path, exc_info=exc)
        if not request.path.startswith("/api/"):
            return InternalServerError(original_exception=exc)
        return _error(500, f"internal error ({type(exc).__name__}); the table logged the details")


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number JSON allows")


def _json_body() -> dict[str, Any]:
    """The request's JSON object (or its form fields).

    Aborts with 400 naming the problem: not JSON, not an object, nested deeper than
    :data:`MAX_DEPTH`; 413 beyond :data:`MAX_BODY` bytes (Flask ``MAX_CONTENT_LENGTH``).
    """
    if request.is_json or (request.content_length and not request.form):
        raw = request.get_data(cache=True)
        if not raw.strip():
            abort(_error(400, "the request body is empty; expected a JSON object"))
        try:
            data = json.loads(raw, parse_constant=_refuse_constant)
        except RecursionError:
            abort(_error(400, f"the request body is nested too deeply (at most {MAX_DEPTH} levels)"))
        except ValueError as exc:  # also UnicodeDecodeError
            abort(_error(400, f"the request body is not valid JSON: {exc}"))
    else:
        data = request.form.to_dict()
    if not isinstance(data, dict):
        abort(_error(400, f"expected a JSON object, got {type(data).__name__}"))
    _check_depth(data, "the request body")
    return data


def _check_depth(value: Any, what: str) -> None:
    """Abort with 400 if ``value`` nests lists/objects deeper than :data:`MAX_DEPTH` (no recursion)."""
    stack = [(value, 1)]
    while stack:
        v, depth = stack.pop()
        if isinstance(v, (dict, list, tuple)):
            if depth > MAX_DEPTH:
                abort(_error(400, f"{what} is nested too deeply (at most {MAX_DEPTH} levels)"))
            stack.extend((x, depth + 1) for x in (v.values() if isinstance(v, dict) else v))


def _check_sizes(value: Any, what: str) -> None:
    """Abort with 400 for a text longer than :data:`MAX_TEXT`, a list longer than
    :data:`MAX_ITEMS` or a whole number of :data:`MAX_INT` or more anywhere in ``value``."""
    _check_depth(value, what)
    stack = [(value, what)]
    while stack:
        v, where = stack.pop()
        if isinstance(v, str) and len(v) > MAX_TEXT:
            abort(_error(400, f"{where}: text of {len(v)} characters; at most {MAX_TEXT}"))
        elif isinstance(v, float) and not math.isfinite(v):
            abort(_error(400, f"{where}: {v} is not a number"))
        elif isinstance(v, int) and not isinstance(v, bool) and abs(v) >= MAX_INT:
            abort(_error(400, f"{where}: {v} is too large"))
        elif isinstance(v, (list, tuple)):
            if len(v) > MAX_ITEMS:
                abort(_error(400, f"{where}: {len(v)} values; at most {MAX_ITEMS}"
                                  + (" dice per roll" if where.endswith("faces") else "")))
            stack.extend((x, f"{where}[{i}]") for i, x in enumerate(v))
        elif isinstance(v, dict):
            stack.extend((x, f"{where}.{k}") for k, x in v.items())


def _check_event(ev: Any) -> None:
    """:func:`_check_sizes` on each field of the event ``ev``."""
    for f in dataclasses.fields(ev):
        _check_sizes(getattr(ev, f.name), f.name)


def _int(data: Mapping[str, Any], name: str, minimum: int | None = None) -> int:
    """Field ``name`` of ``data`` as a whole number (a JSON integer, or digits from a form).

    Aborts with 400 if it is missing, a bool, a float (``1.7``, ``1e400``), text that is not
    digits, beyond :data:`MAX_INT` or below ``minimum``.
    """
    try:
        value = data[name]
    except KeyError:
        abort(_error(400, f"missing field {name!r}"))
    if isinstance(value, str) and re.fullmatch(r"-?[0-9]{1,100}", value.strip()):
        value = int(value.strip())  # a form field or query parameter
    if isinstance(value, bool) or not isinstance(value, int):
        shown = repr(value) if len(repr(value)) <= 40 else repr(value)[:40] + "…"
        abort(_error(400, f"{name} must be a whole number, got {shown}"))
    if abs(value) >= MAX_INT:
        abort(_error(400, f"{name} is too large ({len(str(abs(value)))} digits)"))
    if minimum is not None and value < minimum:
        abort(_error(400, f"{name} must be at least {minimum}, got {value}"))
    return value


def _text(data: Mapping[str, Any], name: str) -> str:
    value = data.get(name)
    if not isinstance(value, str) or not value.strip():
        abort(_error(400, f"missing field {name!r} (text)"))
    return value.strip()


# --- spectator pages --------------------------------------------------------------------------

def _public_url(cfg: WebConfig) -> str:
    """Where phones should go: the configured URL, else the request's, with a LAN address
    in place of a loopback one when the server listens on every interface."""
    if cfg.public_url:
        return cfg.public_url
    url = request.host_url
    host = request.host.rsplit(":", 1)[0].strip("[]")
    try:
        loopback = host == "localhost" or ipaddress.ip_address(host).is_loopback
    except ValueError:
        loopback = False
    if loopback and cfg.host in ("0.0.0.0", "::", ""):
        lan = _lan_address()
        if lan:
            port = request.host.rsplit(":", 1)[1] if ":" in request.host else "80"
            url = f"http://{lan}:{port}/"
    return url


def _lan_address() -> str | None:
    try:
        import psutil
    except ImportError:
        return None
    import socket

    for name, addrs in sorted(psutil.net_if_addrs().items()):
        for a in addrs:
            if a.family == socket.AF_INET and not ipaddress.ip_address(a.address).is_loopback:
                return a.address
    return None


def _register_pages(app: Flask, service: TableService, hub: Hub, cfg: WebConfig) -> None:
    qr_cache: dict[str, str] = {}
    # games with their own panel for the view's ``extra`` (static/games/<game>.js)
    game_panels = sorted(p.stem for p in (Path(app.static_folder) / "games").glob("*.js"))

    def full_page(exc: HubFull) -> Response:
        resp = make_response(render_template("message.html", title="The table is full",
                                             message=f"{exc}. Please try again in a minute."), 503)
        resp.headers["Retry-After"] = "30"
        return resp

    @app.get("/")
    def spectator() -> Any:
        """The spectator screen (read-only, no login)."""
        stats = hub.stats()
        if stats["clients"] >= stats["max_clients"]:
            return full_page(HubFull(f"{stats['max_clients']} viewers are connected, the most this table serves"))
        # the state as JSON text inside <script type="application/json">: "<" escaped so that
        # no string in it (SVG markup, names) can close the script element
        initial = hub.state_json()[:-1] + f',"game_panels":{json.dumps(game_panels)}}}'
        title = hub.part("title", "Arena table")
        return render_template("spectator.html", initial_json=initial.replace("<", "\\u003c"), title=title,
                               page_url=_public_url(cfg))

    @app.get("/qr.svg")
    def qr() -> Response:
        """A QR code of the spectator page's address (segno), for phones."""
        import segno

        url = _public_url(cfg)
        if url not in qr_cache:
            import io

            buf = io.BytesIO()
            segno.make(url, error="m").save(buf, kind="svg", scale=6, border=2, dark="#000", light="#fff",
                                            title="QR code of " + url)
            qr_cache[url] = buf.getvalue().decode()
        resp = Response(qr_cache[url], mimetype="image/svg+xml")
        resp.headers["Cache-Control"] = "no-cache"
        return resp

    @app.get("/media/<path:ref>")
    def media(ref: str) -> Response:
        """A stored frame or die crop named by a roll's ``image``/``crops``."""
        try:
            path = service.media_path(ref)
        except KeyError:
            abort(404)
        resp = send_file(path, max_age=3600)
        return resp

    @app.get("/api/stream")
    def stream() -> Response:
        """Server-Sent Events: a snapshot, then updates (see :mod:`arena_table.webui.sse`)."""
        try:
            client = hub.connect(request.remote_addr or "")
        except HubFull as exc:
            if request.accept_mimetypes.best == "text/event-stream":
                return _error(503, str(exc))
            return full_page(exc)
        last_id = request.headers.get("Last-Event-ID") or request.args.get("lastEventId")
        gen = hub.stream(client, last_id, request.environ.get("waitress.client_disconnected"))
        resp = Response(_Stream(gen, lambda: hub.disconnect(client)), mimetype="text/event-stream")
        resp.headers["Cache-Control"] = "no-cache"
        resp.headers["X-Accel-Buffering"] = "no"
        resp.headers["Content-Encoding"] = "identity"
        return resp


class _Stream:
    """The stream's body; ``close()`` releases the client even if it was never iterated."""

    def __init__(self, gen: Any, on_close: Any) -> None:
        self._gen, self._on_close = gen, on_close

    def __iter__(self) -> Any:
        return self._gen

    def close(self) -> None:
        try:
            self._gen.close()
        finally:
            self._on_close()


# --- JSON API (read) --------------------------------------------------------------------------

def _register_api(app: Flask, service: TableService, hub: Hub) -> None:
    @app.get("/api/state")
    def state() -> Response:
        """The spectator view as JSON; ``?viewer=control`` (logged in) shows everything."""
        if request.args.get("viewer") == "control":
            if not auth.is_authenticated():
                return _error(401, "log in with the table's PIN first")
            ts = service.state
            return jsonify({"epoch": service.epoch, "version": ts.seq, "state": spectator_state(ts, service, "control")})
        hub.wait_for_version(service.version, timeout=0.5)  # include an event the caller just posted
        return Response(hub.state_json(), mimetype="application/json")

    @app.get("/api/events")
    def events() -> Response:
        """The event log after ``since`` (spectators: applied events only, secrets hidden)."""
        since = _int({"since": request.args.get("since", "0")}, "since", minimum=0)
        limit = _int({"limit": request.args.get("limit", "200")}, "limit", minimum=1)
        limit = min(limit, 1000)  # more is clamped (documented in the OpenAPI)
        viewer = "control" if auth.is_authenticated() and request.args.get("viewer") == "control" else "spectator"
        return jsonify({"since": since, "events": log_rows(service, since, limit, viewer)})

    @app.get("/api/status")
    def status() -> Response:
        """Device health (camera, reader...) and the number of open streams."""
        return jsonify({"devices": service.status(), "streams": hub.stats(), "epoch": service.epoch,
                        "version": service.version})

    @app.get("/api/games")
    def games_list() -> Response:
        """The games the engine runs, with their setup forms, and every event kind's fields.

        A game's ``setup_form()`` (optional) returns a list of fields, each
        ``{"name", "label", "type": "select"|"multiselect"|"number"|"text"|"list"|"checkbox",
        "options": [value or {"value", "label"}], "default", "help"}``; without one the
        control page asks for the options as a JSON object. ``objects`` is the game's catalogue
        of tag-able objects (``theosis:hero:rochon``), offered when enrolling a tag.
        """
        out = []
        for g in games():
            form = None
            if callable(getattr(g, "setup_form", None)):
                try:
                    form = g.setup_form()
                except Exception as exc:  # a game's form bug must not hide the others
                    log.warning("setup_form of %s failed: %s", g.name, exc)
            objects: list[str] = []
            if callable(getattr(g, "objects", None)):
                try:
                    objects = list(g.objects())
                except Exception as exc:
                    log.warning("objects of %s failed: %s", g.name, exc)
            if isinstance(form, list):  # help and labels are RST in the games' code: plain words here
                form = [{**f, **{k: plain_words(f[k]) for k in ("help", "label") if isinstance(f.get(k), str)}}
                        if isinstance(f, dict) else f for f in form]
            out.append({"name": g.name, "title": g.title, "aliases": list(g.aliases), "form": form,
                        "objects": objects})
        kinds = []
        for kind, cls in sorted(event_types().items()):
            fields = [{"name": f.name, "type": str(f.type), "required": f.default is dataclasses.MISSING
                       and f.default_factory is dataclasses.MISSING}  # type: ignore[misc]
                      for f in dataclasses.fields(cls) if f.name != "at"]
            kinds.append({"kind": kind, "doc": plain_words((cls.__doc__ or "").strip().split("\n")[0]),
                          "fields": fields})
        return jsonify({"games": out, "event_kinds": kinds, "running": service.state.game})

    @app.get("/api/openapi.json")
    def openapi_json() -> Response:
        """This API's OpenAPI 3.1 description."""
        return jsonify(openapi.spec(app))


# --- control page and its commands -----------------------------------------------------------

def _register_control(app: Flask, service: TableService) -> None:
    @app.get("/control")
    @auth.login_required
    def control() -> str:
        """The control page (PIN)."""
        return render_template("control.html")

    @app.post("/api/events")
    def submit_event() -> Response:
        """Submit one event: ``{"notation": "roll faces=[3,4]"}`` or ``{"event": {"kind": ...}}``."""
        data = _json_body()
        if data.get("notation"):
            if not isinstance(data["notation"], str):
                return _error(400, f"notation must be text, got {type(data['notation']).__name__}")
            if len(data["notation"]) > MAX_NOTATION:
                return _error(400, f"notation of {len(data['notation'])} characters; at most {MAX_NOTATION}")
            ev = parse(data["notation"])
        elif isinstance(data.get("event"), dict):
            _check_sizes(data["event"], "event")
            try:
                ev = from_json(data["event"])
            except (TypeError, ValueError, KeyError, AttributeError) as exc:
                return _error(400, f"not an event: {exc}")
        else:
            return _error(400, "give 'notation' (text) or 'event' (JSON object)")
        _check_event(ev)
        if ev.at is not None and not data.get("keep_time"):
            ev = dataclasses.replace(ev, at=None)  # the table's clock stamps it
        seq = service.submit(ev)
        return _accepted(seq, ev)

    @app.post("/api/start")
    def start_game() -> Response:
        """Start a game: ``{"game": "dice-tray", "options": {...}}``."""
        data = _json_body()
        name = _text(data, "game")
        options = data.get("options") or {}
        if isinstance(options, str):
            import json

            try:
                options = json.loads(options, parse_constant=_refuse_constant) if options.strip() else {}
            except RecursionError:
                return _error(400, f"options are nested too deeply (at most {MAX_DEPTH} levels)")
            except ValueError as exc:
                return _error(400, f"options are not valid JSON: {exc}")
        if not isinstance(options, dict):
            return _error(400, "options must be a JSON object")
        _check_sizes(options, "options")
        game = find_game(name)
        ev = GameStarted(game=game.name, options=options)
        return _accepted(service.submit(ev), ev)

    @app.post("/api/correct")
    def correct_die() -> Response:
        """Correct one die of a roll: ``{"roll": SEQ, "index": I, "value": V}``."""
        data = _json_body()
        ev = DieCorrected(roll=_int(data, "roll", minimum=1), index=_int(data, "index", minimum=0),
                          value=_int(data, "value"))
        return _accepted(service.submit(ev), ev)

    @app.get("/api/undo")
    @auth.login_required
    def undo_preview() -> Response:
        """What an undo would take back now (for the confirmation)."""
        seq, ev = service.undo_preview()
        text, when = _plain(service, seq, ev)
        return jsonify({"seq": seq, "event": str(ev), "kind": ev.KIND, "text": text, "when": when,
                        "question": f"Undo event #{seq}: {text}{', ' + when if when else ''}?"})

    @app.post("/api/undo")
    def undo() -> Response:
        """Take back the last undoable event; ``{"seq": N}`` must name it (as previewed)."""
        data = _json_body()
        expected = _int(data, "seq", minimum=1)
        seq, ev = service.undo_preview()
        if seq != expected:
            return _error(409, f"the last event is now #{seq} ({ev}), not #{expected}: look again before undoing",
                          seq=seq, event=str(ev))
        text, _when = _plain(service, seq, ev)
        seq, ev = service.undo()
        return jsonify({"undone": seq, "event": str(ev), "text": text, "version": service.version})

    @app.post("/api/tags/enroll")
    def enroll_tag() -> Response:
        """Bind a tag UID to a game object: ``{"uid": "04A1B2C3", "object": "theosis:hero:rochon"}``."""
        data = _json_body()
        uid, obj = _text(data, "uid"), _text(data, "object")
        _check_sizes({"uid": uid, "object": obj}, "tag")
        enroll = getattr(service, "enroll_tag", None)
        if not callable(enroll):
            return _error(501, "this table has no tag registry")
        try:
            result = enroll(uid, obj)
        except (ValueError, KeyError) as exc:
            return _error(400, str(exc))
        return jsonify({"uid": uid, "object": obj, "result": result if isinstance(result, (str, int, dict)) else None})

    @app.get("/api/tokens")
    @auth.login_required
    def tokens_info() -> Response:
        """The simulated reader's pads and the last unknown tag it saw (for enrolling)."""
        dev = find_device(service, "place", "remove")
        if dev is None:
            return jsonify({"sim": False, "pads": [], "last_unknown_uid": None})
        pads = list(dev.pads()) if callable(getattr(dev, "pads", None)) else []
        last = dev.last_unknown_uid() if callable(getattr(dev, "last_unknown_uid", None)) else None
        return jsonify({"sim": True, "pads": pads, "last_unknown_uid": last})

    def _tokens(action: str) -> Response:
        data = _json_body()
        pad = _int(data, "pad")
        uid = _text(data, "uid") if action == "place" or data.get("uid") else None
        if uid is not None:
            _check_sizes(uid, "uid")
        dev = find_device(service, "place", "remove")
        if dev is None:
            return _error(409, "no simulated token reader: start the table with --tokens sim")
        pads = [p["pad"] if isinstance(p, dict) else p for p in (dev.pads() if callable(getattr(dev, "pads", None))
                                                                  else [])]
        if pads and pad not in pads:
            return _error(400, f"no pad {pad}; pads are {min(pads)}–{max(pads)}")
        try:
            getattr(dev, action)(pad, uid)
        except (ValueError, LookupError) as exc:
            return _error(400, str(exc).strip("'\""))
        except RuntimeError as exc:
            return _error(409, str(exc))
        return jsonify({"pad": pad, "uid": uid, "action": action})

    @app.post("/api/tokens/place")
    def tokens_place() -> Response:
        """Simulated reader: lay tag ``uid`` on ``pad``."""
        return _tokens("place")

    @app.post("/api/tokens/remove")
    def tokens_remove() -> Response:
        """Simulated reader: take the tag off ``pad`` (only if it is ``uid``, when given)."""
        return _tokens("remove")

    @app.get("/api/camera/frame.jpg")
    @auth.login_required
    def camera_frame() -> Response:
        """The camera's latest frame with the detected dice drawn over it (JPEG)."""
        dev = find_device(service, "overlay") or find_device(service, "latest_frame")
        if dev is None:
            return _error(404, "no camera with a live frame on this table")
        image = dev.overlay() if callable(getattr(dev, "overlay", None)) else dev.latest_frame()
        if image is None:
            return _error(404, "the camera has no frame yet")
        if not isinstance(image, (bytes, bytearray)):
            import cv2

            ok, buf = cv2.imencode(".jpg", image)
            if not ok:
                return _error(500, "cannot encode the camera frame")
            image = buf.tobytes()
        resp = Response(bytes(image), mimetype="image/jpeg")
        resp.headers["Cache-Control"] = "no-store"
        return resp


def _plain(service: TableService, seq: int, ev: Any) -> tuple[str, str]:
    """Event ``seq`` in plain words and when it happened (``"at 21:03"``, local time; with
    the date when not today): the table log's line for ``seq`` when it has one, else the
    game's ``describe``, else the notation without its timestamp."""
    ts = service.state
    text = next((line.text for line in reversed(ts.log) if line.seq == seq), "")
    at = getattr(ev, "at", None)
    if not text:
        text = _describe(service, dataclasses.replace(ev, at=None) if at is not None else ev)
    if at is None:
        at = next((row.recorded for row in service.rows(since=seq - 1, limit=1) if row.seq == seq), None)
    when = ""
    if isinstance(at, (int, float)) and math.isfinite(at) and 0 < at < 1e11:
        t = time.localtime(at)
        same_day = time.strftime("%Y-%m-%d", t) == time.strftime("%Y-%m-%d")
        when = time.strftime("at %H:%M:%S" if same_day else "on %d %b %Y at %H:%M:%S", t)
    return text, when


def _describe(service: TableService, ev: Any) -> str:
    try:
        game = find_game(service.state.game)
        text = game.describe(service.state.state, ev)
    except (RulesError, Exception):  # plain words are a courtesy; the notation always works
        text = ""
    return text or str(ev)


def _accepted(seq: int, ev: Any) -> Response:
    resp = jsonify({"seq": seq, "event": str(ev)})
    resp.status_code = 201
    return resp
