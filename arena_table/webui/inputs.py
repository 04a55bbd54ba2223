"""Reading what a request carries: JSON bodies, whole numbers, texts and events, with limits.

Every helper aborts the request with a JSON error naming what was wrong (400, or 413 for a
body over :data:`MAX_BODY`), so a route only ever sees values it can use.
"""

from __future__ import annotations

import dataclasses
import json
import math
import re
from typing import Any, Mapping

from flask import Response, abort, jsonify, request

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

def _error(status: int, message: str, **extra: Any) -> Response:
    resp = jsonify({"error": message, "status": status, **extra})
    resp.status_code = status
    return resp

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


UID = re.compile(r"(?:[0-9A-F]{2}){1,10}")
"""A canonical tag UID as the readers report it: upper-case hex, two digits a byte, 1-10 bytes
(ISO/IEC 14443-3 UIDs are 4, 7 or 10 bytes)."""
EARLIEST = 946684800.0
"""2000-01-01 UTC: a kept event time before it is a mistake, not a game played then."""
FUTURE_SLACK = 86400.0
"""Seconds a kept event time may lie ahead of this machine's clock (clocks of other devices drift)."""


def _check_event(ev: Any, keep_time: bool = False) -> None:
    """:func:`_check_sizes` on each field of the event ``ev``, then what the hardware edge would
    never send: a tag event with a negative pad, a UID that is not canonical or an object no game
    catalogues, and (``keep_time``) a time before 2000 or more than a day ahead."""
    for f in dataclasses.fields(ev):
        _check_sizes(getattr(ev, f.name), f.name)
    if ev.KIND in ("tag-on", "tag-off"):
        if ev.pad < 0:
            abort(_error(400, f"pad must be 0 or more, got {ev.pad}"))
        if not UID.fullmatch(ev.uid):
            abort(_error(400, f"uid must be upper-case hex, two digits a byte (04A1B2C3), got {ev.uid!r:.40}"))
        if ev.object:
            from arena_table.rules import registered_games

            if not any(ev.object in g.objects() for g in registered_games()):
                abort(_error(400, f"object {ev.object!r:.60} is in no game's catalogue "
                                  "(GET /api/games lists the games; `arena-table tags objects GAME` their objects)"))
    if keep_time and ev.at is not None:
        import time

        if not EARLIEST <= ev.at <= time.time() + FUTURE_SLACK:
            abort(_error(400, f"at={ev.at!r:.30} is not a plausible time (seconds since 1970, from 2000 to "
                              "a day ahead of this table's clock)"))


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
