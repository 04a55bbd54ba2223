"""The control page and its commands: every state change of the table that a person makes.

Each route needs the operator's session (and its CSRF token on POST), builds an event and
hands it to the table (``service.submit``/``undo`` or a device's own method).
"""

from __future__ import annotations

import dataclasses
import math
import time
from typing import Any, Callable

from flask import Flask, Response, jsonify, render_template

from arena_table.rules import (DiceRolled, DieCorrected, GameStarted, LaterEventRefused, Refused, RulesError, TableState,
                               Undone, UndoTargetMoved, apply, find_game, from_json, in_progress, parse)
from arena_table.rules.kernel.mechanics.dice import already_shows

from . import auth
from .inputs import (MAX_DEPTH, MAX_NOTATION, _check_event, _check_sizes, _error, _int, _json_body, _refuse_constant,
                     _text)
from .service import TableService, find_device


BAD_STATES = frozenset({"offline", "down", "error", "failed", "disconnected", "lost", "unavailable", "fail", "warn"})
"""A device ``state`` the control page's status panel marks as a problem (as the spectator's devices list)."""


def _register_control(app: Flask, service: TableService) -> None:
    @app.get("/control")
    @auth.login_required
    def control() -> str:
        """The control page (PIN); its status panel lists each device's health (LEDs unavailable...)."""
        return render_template("control.html", devices=service.status(), bad_states=BAD_STATES)

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
        _check_event(ev, keep_time=bool(data.get("keep_time")))
        if ev.at is not None and not data.get("keep_time"):
            ev = dataclasses.replace(ev, at=None)  # the table's clock stamps it
        if isinstance(ev, GameStarted):
            find_game(ev.game)  # an unknown game is a 400 before any question of what it would end
            return _start(service, ev, data)
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
        return _start(service, GameStarted(game=game.name, options=options), data)

    @app.post("/api/correct")
    def correct_die() -> Response:
        """Correct one die of a roll, any roll of the running game: ``{"roll": SEQ, "index": I, "value": V}``
        (``V`` a number, or a face symbol for a roll by die kinds), optionally ``"drop": [K, ...]``,
        later events to take out of effect with it.

        The roll is replayed with the corrected value and every event after it again. A later event
        the corrected value makes illegal is a 409 naming it (``later``: ``seq``, ``event``, ``text``,
        ``reason``); send the correction again with that ``seq`` in ``drop`` to drop it (then enter
        it again if it should stand in another form)."""
        data = _json_body()
        unknown = sorted(set(data) - {"roll", "index", "value", "drop", "csrf_token"})
        if unknown:  # a typo ("vaule") must not pass for a correction of something else
            return _error(400, f"unknown field(s) {', '.join(map(repr, unknown))}: a correction takes roll, "
                               "index, value and drop")
        value = data.get("value")
        if isinstance(value, str):  # a face symbol of a die kind ("critical"): the rules check it
            if not 0 < len(value) <= 40:
                return _error(400, "value: a face symbol of 1 to 40 characters, or a whole number")
        else:
            value = _int(data, "value")
        ev = DieCorrected(roll=_int(data, "roll", minimum=1), index=_int(data, "index", minimum=0), value=value)
        drops = data.get("drop") or []
        if not isinstance(drops, list) or not all(type(k) is int and k >= 1 for k in drops) or len(drops) > 100:
            return _error(400, "drop must be a list of at most 100 event numbers (integers from 1)")
        if len(set(drops)) != len(drops):
            return _error(400, "drop names an event twice")
        state = service.state
        if not drops and already_shows(state.tray, ev):  # resent: nothing to record
            return jsonify({"unchanged": True, "event": str(ev),
                            "text": f"Die #{ev.index + 1} of roll {ev.roll} already shows {ev.value}"})
        try:
            seq = service.correct(ev, tuple(drops))
        except LaterEventRefused as exc:
            text, when = _plain(service, exc.later_seq, exc.later_event)
            return _error(409, str(exc), later={"seq": exc.later_seq, "event": str(_untimed(exc.later_event)),
                                                "text": text, "when": when, "reason": exc.later_reason},
                          drop=drops)
        except Refused as exc:
            why = _why_no_roll(service, ev.roll)
            if why is None:
                raise
            raise Refused(why, event=ev) from exc
        return _accepted(seq, ev, dropped=drops)

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
        # its words while its log line is still in the state (after the undo only a bare description
        # is left: "note text=tpyo", a correction without the value it replaced)
        line = next((ln.text for ln in reversed(service.state.log) if ln.seq == expected), "")
        try:
            seq, ev = service.undo(expected=expected)  # checked and undone in one step of the single writer
        except UndoTargetMoved as exc:
            return _error(409, str(exc), seq=exc.seq, event=str(exc.event))
        text = line if seq == expected and line else _plain(service, seq, ev)[0]
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

    @app.get("/api/markers")
    @auth.login_required
    def markers_list() -> Response:
        """The marker registry: which figure each marker id stands for."""
        rows = getattr(service, "markers", None)
        if not callable(rows):
            return _error(501, "this table has no marker registry")
        return jsonify(rows())

    @app.post("/api/markers")
    def markers_edit() -> Response:
        """Assign a marker: ``{"id": 7, "figure": "theosis:hero:rochon", "team": "red"}``; remove one:
        ``{"id": 7, "remove": true}``."""
        data = _json_body()
        edit = getattr(service, "edit_marker", None)
        if not callable(edit):
            return _error(501, "this table has no marker registry")
        marker_id = data.get("id")
        if not isinstance(marker_id, int) or isinstance(marker_id, bool) or marker_id < 0:
            return _error(400, "id: want a marker id (a whole number from 0)")
        figure = None if data.get("remove") is True else _text(data, "figure")
        team = "" if data.get("team") in (None, "") else _text(data, "team")
        _check_sizes({"figure": figure or "", "team": team}, "marker")
        try:
            return jsonify(edit(marker_id, figure, team))
        except ValueError as exc:
            return _error(400, str(exc))

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

    @app.get("/api/camera/board.jpg")
    @auth.login_required
    def camera_board() -> Response:
        """The board as the calibration sees it: the frame warped to board mm, the game's grid and
        the tracked figures drawn over it (JPEG); 404 without a calibrated figure reader."""
        dev = find_device(service, "board_view")
        if dev is None:
            return _error(404, "no board calibration on this table (arena-table calibrate)")
        image = dev.board_view()
        if image is None:
            return _error(404, "no frame of a game with a board yet")
        return _jpeg(image)

    @app.post("/api/board/calibrate")
    def board_calibrate() -> Response:
        """Calibrate the board anew from the camera's last frame: four corner markers and an optional
        reference marker that must land in its cell; 400 with the refusal ("missed by N mm")."""
        dev = find_device(service, "recalibrate")
        if dev is None:
            return _error(404, "no figure tracking on this table (arena-table markers assign, arena-table calibrate)")
        try:
            corners, reference = _calibration_request(_json_body())
            cal = dev.recalibrate(corners, reference)
        except ValueError as exc:  # a bad request, or CalibrationRefused (a ValueError) with its reason
            return _error(400, str(exc))
        ref = cal.reference
        return jsonify({"resolution": list(cal.resolution), "corners": sorted(cal.corner_ids),
                        "reference": None if ref is None else {
                            "id": ref.id, "cell": list(ref.cell) if isinstance(ref.cell, tuple) else ref.cell,
                            "offset_mm": ref.offset_mm}})


def _calibration_request(body: Any) -> tuple[dict[int, tuple[float, float]], tuple[int, Any] | None]:
    """``{"corners": {"46": [x, y], ...}, "reference": {"id": 1, "cell": [q, r] | "area"}}`` ->
    (corners, reference); raises ValueError naming what is wrong."""
    if not isinstance(body, dict) or not isinstance(body.get("corners"), dict):
        raise ValueError('want {"corners": {"ID": [x, y], ...}} with four corner markers')
    corners = {}
    for key, xy in body["corners"].items():
        if not str(key).isdigit() or not isinstance(xy, list) or len(xy) != 2 \
                or not all(isinstance(v, (int, float)) for v in xy):
            raise ValueError(f"corner {key!r}: want a marker id and [x, y] in board mm")
        corners[int(key)] = (float(xy[0]), float(xy[1]))
    ref = body.get("reference")
    if ref is None:
        return corners, None
    if not isinstance(ref, dict) or not isinstance(ref.get("id"), int) or "cell" not in ref:
        raise ValueError('reference: want {"id": ID, "cell": [q, r]} (or an area name)')
    cell = ref["cell"]
    return corners, (ref["id"], tuple(cell) if isinstance(cell, list) else cell)


def _jpeg(image: Any) -> Response:
    import cv2

    ok, buf = cv2.imencode(".jpg", image)
    if not ok:
        return _error(500, "cannot encode the image")
    resp = Response(buf.tobytes(), mimetype="image/jpeg")
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


class EndsAGame(Exception):
    """A start that would end a game in progress, sent without its confirmation (a 409)."""

    def __init__(self, losing: str, started: int, seq: int) -> None:
        super().__init__(losing)
        self.losing, self.started, self.seq = losing, started, seq


def _confirm_end(data: dict[str, Any], ev: GameStarted) -> Callable[[TableState], None]:
    """The check a start runs in the engine's writer step: raises :class:`EndsAGame` unless the
    request confirms ending what runs.

    ``"confirm"`` is ``true`` (end whatever runs: a script's choice) or the ``started`` number of
    the game the player was asked about (the state's ``started``, the 409's ``started``): another
    game running by now, which a control page behind the table did not show, is not ended on a yes
    given to a question about the first. Undo stops at a game's start, so a start sent by a script
    or a stale second control page would otherwise end a game for good (its events stay in the
    log, out of the running state). Checked in the single writer's step, with the state the start
    would replace, so an event recorded just before is part of the question, never ended unasked.
    A start the rules refuse (its options) asks nothing: it is recorded as refused and answered
    422 with the reason, so nobody is asked to end a game for a start that cannot happen.
    """
    confirm = data.get("confirm")

    def check(ts: TableState) -> None:
        losing = in_progress(ts)
        if losing is None or confirm is True or (type(confirm) is int and confirm == ts.started_seq):
            return
        try:
            apply(ts, ev)
        except (RulesError, ValueError, TypeError):
            return  # refused as it is: the engine records it with its reason
        raise EndsAGame(losing, ts.started_seq, ts.seq)
    return check


def _start(service: TableService, ev: GameStarted, data: dict[str, Any]) -> Response:
    """Record the start ``ev`` unless it would end a game unconfirmed (409, nothing recorded)."""
    try:
        seq = service.submit(ev, check=_confirm_end(data, ev))
    except EndsAGame as exc:
        return _error(409, f"a new game would end {exc.losing}, and undo cannot bring it back: "
                           f"send \"confirm\": true (or {exc.started}, this game's start) to start anyway",
                      in_progress=exc.losing, started=exc.started, seq=exc.seq)
    return _accepted(seq, ev)


def _why_no_roll(service: TableService, seq: int) -> str | None:
    """Why the running game's tray has no roll ``seq`` to correct, in words from the log (the rules
    know only the rolls standing: "no roll with seq 63" also for one undone or of a past game);
    ``None`` when it has that roll or the log does not say."""
    state = service.state
    if any(r.seq == seq for r in state.tray.rolls):
        return None
    rows = service.rows(since=seq - 1)
    row = rows[0] if rows and rows[0].seq == seq else None
    if row is None:
        return None
    if row.status != "ok":
        return f"event {seq} was refused when it came in: there is no roll {seq} to correct"
    if not isinstance(row.event, DiceRolled):
        return f"event {seq} is a {row.event.KIND}, not a roll"
    if any(r.status == "ok" and isinstance(r.event, Undone) and r.event.seq == seq for r in rows[1:]):
        return f"roll {seq} was undone: there is nothing to correct"
    if seq < state.started_seq:
        return f"roll {seq} belongs to an earlier game (this one started at event {state.started_seq})"
    return None


def _untimed(ev: Any) -> Any:
    return dataclasses.replace(ev, at=None) if getattr(ev, "at", None) is not None else ev


def _accepted(seq: int, ev: Any, **extra: Any) -> Response:
    resp = jsonify({"seq": seq, "event": str(ev), **extra})
    resp.status_code = 201
    return resp
