"""The Flask app: the spectator screen, the PIN-locked control page and the JSON API.

Routes never change the table themselves: they build an event and hand it to
``service.submit`` (or call ``service.undo``/a device's own method) and return what it
answered; a refusal by the rules comes back as JSON naming what was wrong
(``Refused`` → 422, bad notation/options → 400, nothing to undo → 409).
The JSON API is described by :mod:`arena_table.webui.openapi` at ``/api/openapi.json``.
"""

from __future__ import annotations

import dataclasses
import json
import logging
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Mapping

from flask import Flask, Response, abort, jsonify, make_response, render_template, request, send_file
from werkzeug.exceptions import HTTPException, InternalServerError

from arena_table.rules import Refused, NotationError, NothingToUndo, UnknownGame, event_game, event_types, registered_games

from . import auth, openapi
from .address import client_address, page_url
from .service import TableService
from .control import _register_control
from .teach import register_teach
from .remote import _register_remote
from .inputs import MAX_BODY, MAX_DEPTH, _error, _int
from .sse import Hub, HubFull
from .stream_slots import PER_ADDRESS, TV_ADDRESSES
from .views import log_rows, plain_words, spectator_state

log = logging.getLogger(__name__)



@dataclass
class WebConfig:
    """Settings of the web app (``arena-table run`` fills them from its flags)."""

    pin: str | None = None
    """The control page's PIN; default: ``service.pin``."""
    max_clients: int = 200
    """Spectator streams held at once; the next one gets a 503 page."""
    streams_per_address: int = PER_ADDRESS
    """Spectator streams one client address may hold; the next one gets a 429 page."""
    tv_addresses: tuple[str, ...] = TV_ADDRESSES
    """Addresses whose streams are the TV's, with slots no spectator takes (:mod:`.stream_slots`)."""
    heartbeat: float = 15.0
    """Seconds of silence before the stream sends a heartbeat."""
    trusted_proxy: str | None = None
    """A reverse proxy's address whose ``X-Forwarded-For`` names the client (``web.trusted_proxy``);
    default: none, each client counts by the peer address of its connection."""
    public_url: str | None = None
    """The address the QR code and the page show (``web.public_url``: a name in the hall's DNS, a
    proxy's address); default: the LAN address, worked out from the request and :attr:`host`."""
    host: str = "127.0.0.1"
    """Address the server listens on (on every interface, the QR code shows the LAN address)."""
    secret_key: bytes | None = dataclasses.field(default=None, repr=False)
    """The key that signs the control page's session cookie (32+ bytes, :func:`auth.init_auth`); the
    table keeps it so a restart keeps players logged in. Default: a random key (a restart logs
    everyone out)."""
    revocations: auth.SessionRevocations | None = dataclasses.field(default=None, repr=False)
    """The logged-out session ids (:class:`auth.SessionRevocations`); the table keeps them beside its
    key, so a logged-out cookie stays refused after a restart. Default: in memory."""
    login_code: Callable[[str], bool] | None = dataclasses.field(default=None, repr=False)
    """``login_code(text) -> bool``: whether ``text`` is a one-time login code (``arena-table pin``),
    used up when it is (:func:`auth.init_auth`). Default: none is accepted."""


def _web_config(config: WebConfig | Mapping[str, Any] | None, service: TableService) -> WebConfig:
    if isinstance(config, WebConfig):
        cfg = dataclasses.replace(config)
    else:
        names = {f.name for f in dataclasses.fields(WebConfig)}
        cfg = WebConfig(**{k: v for k, v in dict(config or {}).items() if k in names})
    if cfg.pin is None:
        cfg.pin = getattr(service, "pin", None)
    if not cfg.pin:
        raise ValueError("the control page needs a PIN (service.pin or WebConfig.pin)")
    return cfg


def create_app(service: TableService, config: WebConfig | Mapping[str, Any] | None = None) -> Flask:
    """The web app for ``service``; its SSE hub is started (stop it with :func:`shutdown`).

    Raises:
        ValueError: no PIN in ``config`` nor ``service.pin``, a PIN that is not digits, or a
            ``secret_key`` shorter than 32 bytes.
    """
    cfg = _web_config(config, service)
    app = Flask(__name__)
    app.config["JSON_SORT_KEYS"] = False
    app.config["MAX_CONTENT_LENGTH"] = MAX_BODY
    hub = Hub(service, spectator_state, max_clients=cfg.max_clients, per_address=cfg.streams_per_address,
              tv_addresses=tuple(client_address(a) for a in cfg.tv_addresses), heartbeat=cfg.heartbeat).start()
    app.extensions["arena_hub"] = hub
    app.extensions["arena_service"] = service
    app.extensions["arena_web_config"] = cfg
    auth.init_auth(app, cfg.pin, secret_key=cfg.secret_key, revocations=cfg.revocations, login_code=cfg.login_code)
    _register_errors(app)
    _register_pages(app, service, hub, cfg)
    _register_api(app, service, hub)
    _register_control(app, service)
    register_teach(app, service)
    _register_remote(app, service)
    return app


def shutdown(app: Flask) -> None:
    """End the app's streams and stop its hub thread."""
    hub = app.extensions.get("arena_hub")
    if hub is not None:
        hub.close()


# --- errors ---------------------------------------------------------------------------------

def _register_errors(app: Flask) -> None:
    @app.errorhandler(Refused)
    def illegal(exc: Refused) -> Response:
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


def url_pieces(url: str) -> list[str]:
    """An address cut where a line may break when it is shown under the QR code: after the
    scheme and before each further path segment, never inside a host name or a port.

    >>> url_pieces("http://192.168.1.20:8080/")
    ['http://', '192.168.1.20:8080/']
    >>> url_pieces("https://arena.example.org/club/table")
    ['https://', 'arena.example.org', '/club', '/table']
    """
    scheme, sep, rest = url.partition("://")
    if not sep:
        scheme, rest = "", url
    host, slash, path = rest.partition("/")
    pieces = [scheme + sep] if sep else []
    segments = (slash + path).split("/")[1:]
    if segments and segments[-1] == "":  # a trailing "/" stays with what precedes it
        segments.pop()
        tail = "/"
    else:
        tail = ""
    if not segments:
        return pieces + [host + slash]
    return pieces + [host] + ["/" + s for s in segments[:-1]] + ["/" + segments[-1] + tail]


def _public_url(cfg: WebConfig) -> str:
    """Where phones should go (:func:`address.page_url`): the configured URL, else the request's,
    with the LAN address in place of a loopback one when the server listens on every interface."""
    return page_url(request.host_url, cfg.host, cfg.public_url)


@lru_cache(maxsize=16)
def _qr_svg(url: str) -> str:
    """The QR code of ``url`` as SVG text. Cached for the few addresses a table is reached by; the
    bound keeps a client that sends many ``Host`` headers from growing the cache."""
    import io

    import segno

    buf = io.BytesIO()
    segno.make(url, error="m").save(buf, kind="svg", scale=6, border=2, dark="#000", light="#fff",
                                    title="QR code of " + url)
    return buf.getvalue().decode()


def _register_pages(app: Flask, service: TableService, hub: Hub, cfg: WebConfig) -> None:
    # games with their own panel for the view's ``extra`` (static/games/<game>.js)
    game_panels = sorted(p.stem for p in (Path(app.static_folder) / "games").glob("*.js"))

    def full_page(exc: HubFull) -> Response:
        title = "Too many pages open" if exc.status == 429 else "The table is full"
        resp = make_response(render_template("message.html", title=title,
                                             message=f"{exc}. Please try again in a minute."), exc.status)
        resp.headers["Retry-After"] = "30"
        return resp

    @app.get("/")
    def spectator() -> Any:
        """The spectator screen (read-only, no login)."""
        refused = hub.refusal(client_address(request.remote_addr), auth.control_session())
        if refused:  # the page's stream would be: say so now (the TV and control pages have their own slots)
            return full_page(refused)
        # the state as JSON text inside <script type="application/json">: "<" escaped so that
        # no string in it (SVG markup, names) can close the script element
        initial = hub.state_json()[:-1] + f',"game_panels":{json.dumps(game_panels)}}}'
        title = hub.part("title", "Arena table")
        url = _public_url(cfg)
        return render_template("spectator.html", initial_json=initial.replace("<", "\\u003c"), title=title,
                               page_url=url, page_url_pieces=url_pieces(url))

    @app.get("/qr.svg")
    def qr() -> Response:
        """A QR code of the spectator page's address (segno), for phones."""
        url = _public_url(cfg)
        resp = Response(_qr_svg(url), mimetype="image/svg+xml")
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
            client = hub.connect(client_address(request.remote_addr), auth.control_session())
        except HubFull as exc:
            if request.accept_mimetypes.best == "text/event-stream":
                resp = _error(exc.status, str(exc))
                resp.headers["Retry-After"] = "30"
                return resp
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
        for g in registered_games():
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
            game = event_game(cls)  # "" for the kernel's kinds, which are every game's
            fields = [{"name": f.name, "type": str(f.type), "required": f.default is dataclasses.MISSING
                       and f.default_factory is dataclasses.MISSING}  # type: ignore[misc]
                      for f in dataclasses.fields(cls) if f.name != "at"]
            kinds.append({"kind": kind, "doc": plain_words((cls.__doc__ or "").strip().split("\n")[0]),
                          "fields": fields, "game": game})
        return jsonify({"games": out, "event_kinds": kinds, "running": service.state.game})

    @app.get("/api/openapi.json")
    def openapi_json() -> Response:
        """This API's OpenAPI 3.1 description."""
        return jsonify(openapi.spec(app))
