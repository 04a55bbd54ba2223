"""The control page's lock: a PIN login, a session cookie, CSRF tokens, a wrong-PIN back-off per address.

* The PIN is the table's (``service.pin``), printed on the Pi's console and by
  ``arena-table doctor``; it is compared in constant time.
* The session is Flask's signed cookie, ``HttpOnly`` and ``SameSite=Strict``, signed with the
  key the table hands :func:`init_auth` (``arena-table run`` keeps it in its data folder, so a
  restart keeps players logged in and a new PIN logs everyone out), else with a key made at
  start (a restart logs everyone out).
* Each login gets a random session id (``sid``) in the cookie. Logging out revokes that id on the
  server (:class:`SessionRevocations`; ``arena-table run`` keeps the list in its data folder), so a
  copy of the cookie taken before the logout no longer logs anyone in, though it is validly
  signed (OWASP Session Management Cheat Sheet, "Session Expiration": a logout must invalidate
  the session on the server side). A cookie from before session ids (no ``sid``) is not logged in.
* Every state-changing request (POST/PUT/PATCH/DELETE) needs the session — else **401** — and
  the session's CSRF token in the ``X-CSRF-Token`` header or a ``csrf_token`` form field —
  else **403** (OWASP CSRF Prevention Cheat Sheet, "synchronizer token pattern"). The login
  itself needs the token of the session that showed the form.
* Wrong PINs slow down the client address that sends them, and no other
  (:mod:`~arena_table.webui.pin_backoff`): after a few, that address waits ever longer before its
  next try, answered **429** with ``Retry-After``.
* The owner can always get in: a one-time code from ``arena-table pin`` on the Pi (13 or more
  digits, longer than any PIN) logs in once, even from an address that has to wait. The table
  checks and uses it up (the ``login_code`` callable :func:`init_auth` takes).
"""

from __future__ import annotations

import functools
import hmac
import logging
import secrets
import threading
import time
from typing import Any, Callable

from flask import Flask, current_app, jsonify, redirect, render_template, request, session, url_for

from .address import client_address
from .pin_backoff import PinBackoff, TooSoon, seconds

log = logging.getLogger(__name__)

LONGEST_PIN = 12
"""Digits a PIN has at most (``secrets_store.valid_pin``); a longer number is a one-time code."""
MUTATING = frozenset({"POST", "PUT", "PATCH", "DELETE"})
PUBLIC_MUTATING = frozenset({"auth.login"})
"""Endpoints that take a POST without a session (they still need the CSRF token)."""


SESSION_LIFETIME_S = 31 * 24 * 3600
"""Flask's ``PERMANENT_SESSION_LIFETIME`` (31 days), which this app keeps: Flask refuses a session
cookie signed longer ago than this, so a revoked session id need not be kept longer."""


class SessionRevocations:
    """The session ids logged out, each kept :data:`SESSION_LIFETIME_S` (plus a day) after its
    logout, after which every copy of its cookie is too old for Flask anyway. Thread-safe.

    Held in memory; ``arena-table run`` uses a subclass that also keeps them in a file
    (:class:`arena_table.table.revoked_sessions.StoredSessionRevocations`).

    >>> r = SessionRevocations(clock=lambda: 0.0)
    >>> r.revoke("abc"), r.is_revoked("abc"), r.is_revoked("xyz")
    (None, True, False)
    """

    keep_s = SESSION_LIFETIME_S + 24 * 3600

    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        self.clock = clock
        self._lock = threading.Lock()
        self._store_lock = threading.Lock()  # one write at a time, each of the newest ids
        self._ids: dict[str, float] = {}

    def revoke(self, sid: str) -> None:
        """Revoke ``sid`` from now on (at once for :meth:`is_revoked`, then stored)."""
        with self._lock:
            self._ids[sid] = self.clock()
            self._prune()
        with self._store_lock:  # not under self._lock: a slow SD card must not hold up every request
            with self._lock:
                ids = dict(self._ids)
            self._store(ids)

    def is_revoked(self, sid: str) -> bool:
        with self._lock:
            return sid in self._ids

    def _prune(self) -> None:
        now = self.clock()
        for sid in [sid for sid, at in self._ids.items() if at < now - self.keep_s]:
            del self._ids[sid]

    def _store(self, ids: dict[str, float]) -> None:
        """Called after :meth:`revoke`, one call at a time, with a copy of the revoked ids (id ->
        time of the logout); a subclass stores them here."""


def csrf_token() -> str:
    """The session's CSRF token (made on first use)."""
    token = session.get("csrf")
    if not token:
        token = session["csrf"] = secrets.token_urlsafe(32)
    return token


def is_authenticated() -> bool:
    """Whether this request's session logged in with the PIN and has not logged out since (its
    ``sid`` not revoked). A revoked session is emptied, so its cookie is not signed anew (a request
    still in flight with the old cookie while another tab logs in again may so log that tab out)."""
    if not session.get("auth"):
        return False
    sid = session.get("sid")
    revocations: SessionRevocations = current_app.extensions["arena_session_revocations"]
    if not isinstance(sid, str) or revocations.is_revoked(sid):
        session.clear()
        return False
    return True


def control_session() -> str:
    """This request's control session id when it is logged in (:func:`is_authenticated`), else ``""``
    (the SSE hub keeps stream slots for these)."""
    return session["sid"] if is_authenticated() else ""


def _revoke_this_session() -> None:
    """Revoke this request's session id, if it has one, and empty the session."""
    sid = session.get("sid")
    if isinstance(sid, str):
        current_app.extensions["arena_session_revocations"].revoke(sid)
    session.clear()


def _wants_json() -> bool:
    return request.path.startswith("/api/") or request.is_json or \
        request.accept_mimetypes.best == "application/json"


def _refuse(status: int, message: str, headers: dict[str, str] | None = None) -> Any:
    if _wants_json():
        resp = jsonify({"error": message, "status": status})
    else:
        resp = render_template("message.html", title=f"{status}", message=message), status
        from flask import make_response
        resp = make_response(resp)
    resp.status_code = status
    for k, v in (headers or {}).items():
        resp.headers[k] = v
    return resp


def login_required(view: Callable) -> Callable:
    """For GET routes of the control page: 401 JSON for ``/api/``, else the login page."""
    @functools.wraps(view)
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        if not is_authenticated():
            if _wants_json():
                return _refuse(401, "log in with the table's PIN first")
            return redirect(url_for("auth.login", next=request.path))
        return view(*args, **kwargs)
    return wrapped


def _guard() -> Any:
    """``before_request``: sessions and CSRF tokens for every state-changing request."""
    if request.method not in MUTATING:
        return None
    if request.endpoint not in PUBLIC_MUTATING and not is_authenticated():
        return _refuse(401, "log in with the table's PIN first")
    sent = request.headers.get("X-CSRF-Token") or request.form.get("csrf_token") or ""
    expected = session.get("csrf") or ""
    if not expected or not hmac.compare_digest(sent.encode(), expected.encode()):
        return _refuse(403, "missing or wrong CSRF token: send the X-CSRF-Token header with the token "
                            "GET /api/session gives this session (a page: reload it and try again)")
    return None


MIN_SECRET_KEY = 32
"""Bytes a session key must have at least (256 bits: no guessing it from a signed cookie)."""


def _wrong(is_code: bool, backoff: PinBackoff, who: str) -> str:
    """What the login form says after a wrong PIN or code from ``who``."""
    if is_code:
        return "wrong, used or expired login code: `arena-table pin` on the table makes a new one"
    left, wait = backoff.left(who), backoff.wait(who)
    if wait > 0:
        return f"wrong PIN: the next try from this address in {seconds(wait)} s"
    return f"wrong PIN ({left} {'try' if left == 1 else 'tries'} left before a wait)"


def _is_code(given: str) -> bool:
    """Whether the login field holds a one-time code rather than a PIN: digits (spaces and dashes
    between groups allowed), more than any PIN has.

    >>> _is_code("4821-0937-5561-2208"), _is_code("246810"), _is_code("abc-defg-hijk-lmno")
    (True, False, False)
    """
    digits = given.replace("-", "").replace(" ", "")
    return digits.isascii() and digits.isdigit() and len(digits) > LONGEST_PIN


def init_auth(app: Flask, pin: str, backoff: PinBackoff | None = None, secret_key: bytes | None = None,
              revocations: SessionRevocations | None = None,
              login_code: Callable[[str], bool] | None = None) -> None:
    """Install the session settings, the CSRF guard and the login/logout routes on ``app``.

    Args:
        app: the web app.
        pin: the control page's PIN, digits.
        backoff: the wrong-PIN back-off per address; default: a new :class:`PinBackoff`.
        secret_key: the key that signs the session cookie, at least :data:`MIN_SECRET_KEY` bytes;
            an app given the same key (a restart of the table) accepts the same cookies. Default:
            random bytes, so no other app accepts this one's cookies.
        revocations: the logged-out session ids; default: a new in-memory
            :class:`SessionRevocations` (give the same stored one to an app with the same key).
        login_code: ``login_code(text) -> bool``: whether ``text`` is a one-time code from
            ``arena-table pin``, used up by this call when it is; default: no codes.

    Raises:
        ValueError: ``pin`` is not digits, or ``secret_key`` is shorter than :data:`MIN_SECRET_KEY`.
    """
    from flask import Blueprint

    if not pin or not str(pin).isdigit():
        raise ValueError("the table's PIN must be digits")
    if secret_key is not None and len(secret_key) < MIN_SECRET_KEY:
        raise ValueError(f"the session key must have at least {MIN_SECRET_KEY} bytes, got {len(secret_key)}")
    app.secret_key = secrets.token_bytes(MIN_SECRET_KEY) if secret_key is None else bytes(secret_key)
    app.config.update(SESSION_COOKIE_NAME="arena_session", SESSION_COOKIE_HTTPONLY=True,
                      SESSION_COOKIE_SAMESITE="Strict", PERMANENT_SESSION_LIFETIME=SESSION_LIFETIME_S)
    app.extensions["arena_session_revocations"] = revocations or SessionRevocations()
    app.extensions["arena_pin_backoff"] = backoff or PinBackoff()
    app.before_request(_guard)
    app.jinja_env.globals["csrf_token"] = csrf_token
    app.jinja_env.globals["is_authenticated"] = is_authenticated
    bp = Blueprint("auth", __name__)

    @bp.route("/login", methods=["GET", "POST"])
    def login() -> Any:
        """The PIN form (GET) and its check (POST: form field or JSON ``pin``)."""
        nxt = request.args.get("next") or "/control"
        if not nxt.startswith("/") or nxt.startswith("//"):
            nxt = "/control"  # no open redirect
        if request.method == "GET":
            return render_template("login.html", next=nxt, error=None)
        who = client_address(request.remote_addr) or "?"
        backoff: PinBackoff = current_app.extensions["arena_pin_backoff"]
        data = request.get_json(silent=True) if request.is_json else request.form
        if request.is_json and not isinstance(data, dict):
            return _refuse(400, 'the body must be a JSON object such as {"pin": "123456"}')
        given = str((data or {}).get("pin", "")).strip()
        is_code = _is_code(given)
        if is_code:  # nobody guesses a code: it is tried even when this address must wait
            right = backoff.attempt(who, lambda: login_code is not None and login_code(given), waits=False)
        else:
            try:
                right = backoff.attempt(who, lambda: hmac.compare_digest(given.encode(), str(pin).encode()))
            except TooSoon as exc:
                wait = str(seconds(exc.retry_after))
                return _refuse(429, f"{exc} (or log in with a one-time code from `arena-table pin` on the table)",
                               {"Retry-After": wait})
        if not right:
            msg = _wrong(is_code, backoff, who)
            if _wants_json():
                return _refuse(401, msg)
            return render_template("login.html", next=nxt, error=msg), 401
        if is_code:
            log.warning("control page: logged in with a one-time code from %s", who)
        _revoke_this_session()  # a login over a logged-in session (a second tab): the old id ends
        session["auth"] = True
        session["sid"] = secrets.token_urlsafe(16)
        token = csrf_token()
        if _wants_json():
            return jsonify({"authenticated": True, "csrf": token})
        return redirect(nxt, code=303)

    @bp.route("/logout", methods=["POST"])
    def logout() -> Any:
        """End the control session, on the server too (its ``sid`` is revoked)."""
        _revoke_this_session()
        if _wants_json():
            return jsonify({"authenticated": False})
        return redirect("/", code=303)

    @bp.route("/api/session", methods=["GET"])
    def session_info() -> Any:
        """Whether this browser is logged in, and the CSRF token its POSTs must carry."""
        return jsonify({"authenticated": is_authenticated(), "csrf": csrf_token()})

    app.register_blueprint(bp)
