"""The event codec: field values to and from the text notation and JSON, checked against the
event's annotations.

The notation writes each value compactly: integers and floats as numbers, ``true``/``false``/
``null``, strings bare when that cannot be mistaken for anything else and as JSON strings
otherwise, tuples/lists and mappings as compact JSON, and the fields an event lists in
``BARE_LISTS`` as a list of bare words (``[burn,2]``). Decoded values are brought to the field's
annotated type (:func:`build`): a JSON list becomes a tuple, a wrong type is a
:class:`~.errors.NotationError` naming the field. The kinds, the registry and the public
``parse``/``str``/``to_json``/``from_json`` are :mod:`.events`'.

>>> encode_value("camera 1"), encode_value((3, 5)), encode_bare_list(("burn", 2, "2"))
('"camera 1"', '[3,5]', '[burn,2,"2"]')
>>> read_fields('faces=[burn,2] source="camera 1" at=12.5', "roll ...")
{'faces': ['burn', 2], 'source': 'camera 1', 'at': 12.5}
"""

from __future__ import annotations

import dataclasses
import functools
import json
import math
import re
import typing
from typing import Any, Mapping

from .errors import NotationError

_BARE = re.compile(r"^[A-Za-z_][A-Za-z0-9_.:/@+#'-]*$")
_KEYWORDS = {"true", "false", "null"}


def encode_value(value: Any) -> str:
    """``value`` as the notation writes it: a number, ``true``/``false``/``null``, a bare word, or
    compact JSON (sorted keys; tuples and dataclasses as lists and objects)."""
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    if isinstance(value, (int, float)):
        return json.dumps(value)
    if isinstance(value, str):
        if _BARE.match(value) and value not in _KEYWORDS:
            return value
        return json.dumps(value, ensure_ascii=False)
    return json.dumps(jsonable(value), separators=(",", ":"), ensure_ascii=False, sort_keys=True)


def _bare_item(item: Any) -> str:
    if isinstance(item, str) and _BARE.match(item) and item not in _KEYWORDS:
        return item
    return json.dumps(item, ensure_ascii=False)


def encode_bare_list(value: Any) -> str:
    """A list of numbers and words as ``[burn,2]``: words bare where :func:`_parse_bare_list` reads
    them back, numbers (and a word that looks like one, ``"2"``) as JSON."""
    if isinstance(value, (tuple, list)) and all(isinstance(v, (int, str)) and not isinstance(v, bool) for v in value):
        return "[" + ",".join(_bare_item(v) for v in value) + "]"
    return encode_value(value)


_BARE_ITEM = re.compile(r'\s*("(?:[^"\\]|\\.)*"|-?[0-9][0-9.eE+-]*|[A-Za-z_][A-Za-z0-9_.:/@+#\'-]*)\s*(,|\])')


def _parse_bare_list(rest: str, j: int) -> tuple[list[Any], int] | None:
    """The list of numbers, JSON strings and bare words at ``rest[j]`` (a ``[``) and the index past
    it, or ``None`` when it is not one."""
    items: list[Any] = []
    i = j + 1
    if rest.startswith("]", i):
        return [], i + 1
    while True:
        m = _BARE_ITEM.match(rest, i)
        if m is None:
            return None
        token = m.group(1)
        if token[0] == '"' or token[0] == "-" or token[0].isdigit():
            try:
                items.append(json.loads(token))
            except json.JSONDecodeError:
                return None
        else:
            items.append(json.loads(token) if token in _KEYWORDS else token)
        i = m.end()
        if m.group(2) == "]":
            return items, i


def jsonable(value: Any) -> Any:
    """``value`` with tuples as lists, mapping keys as strings and dataclasses as objects."""
    if isinstance(value, (tuple, list)):
        return [jsonable(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): jsonable(v) for k, v in value.items()}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: jsonable(getattr(value, f.name)) for f in dataclasses.fields(value)}
    return value


def _coerce(tp: Any, value: Any, where: str) -> Any:
    """Bring a decoded JSON value to the annotated type ``tp`` (tuples, nested)."""
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if tp is Any or tp is None:
        return value
    if origin in (typing.Union, getattr(__import__("types"), "UnionType", None)):
        if value is None and type(None) in args:
            return None
        errors = []
        for arg in args:
            if arg is type(None):
                continue
            try:
                return _coerce(arg, value, where)
            except NotationError as exc:
                errors.append(exc)
        if len(errors) == 1:  # Optional[X]: X's own complaint says the most
            raise errors[0]
        raise NotationError(f"{where}: {value!r} fits none of {tp}")
    if origin is tuple:
        if not isinstance(value, (list, tuple)):
            raise NotationError(f"{where}: expected a list, got {value!r}")
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_coerce(args[0], v, where) for v in value)
        if args and len(args) != len(value):
            raise NotationError(f"{where}: expected {len(args)} items, got {len(value)}")
        return tuple(_coerce(a, v, where) for a, v in zip(args, value)) if args else tuple(value)
    if origin in (dict, Mapping) or tp is dict:
        if not isinstance(value, dict):
            raise NotationError(f"{where}: expected a mapping, got {value!r}")
        if args:
            return {k: _coerce(args[1], v, where) for k, v in value.items()}
        return dict(value)
    if tp is float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise NotationError(f"{where}: expected a number, got {value!r}")
        if not math.isfinite(value):
            raise NotationError(f"{where}: expected a finite number, got {value!r}")
        return float(value)
    if tp is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise NotationError(f"{where}: expected an integer, got {value!r}")
        return value
    if tp is bool:
        if not isinstance(value, bool):
            raise NotationError(f"{where}: expected true or false, got {value!r}")
        return value
    if tp is str:
        if not isinstance(value, str):
            raise NotationError(f"{where}: expected text, got {value!r}")
        return value
    if dataclasses.is_dataclass(tp):
        if not isinstance(value, dict):
            raise NotationError(f"{where}: expected an object, got {value!r}")
        hints = typing.get_type_hints(tp)
        return tp(**{k: _coerce(hints[k], v, f"{where}.{k}") for k, v in value.items()})
    return value


@functools.lru_cache(maxsize=None)
def fields_of(cls: type) -> dict[str, tuple[dataclasses.Field, Any]]:
    """``name -> (field, annotated type)`` of the dataclass ``cls``, in declaration order."""
    # Cached: get_type_hints re-evaluates every annotation string and was two thirds of the
    # engine's CPU per event. Classes never change after registration; callers only read.
    hints = typing.get_type_hints(cls)
    return {f.name: (f, hints[f.name]) for f in dataclasses.fields(cls)}


def default_of(f: dataclasses.Field) -> Any:
    """The default of field ``f`` (a new one from its factory), or ``dataclasses.MISSING``."""
    if f.default is not dataclasses.MISSING:
        return f.default
    if f.default_factory is not dataclasses.MISSING:  # type: ignore[misc]
        return f.default_factory()  # type: ignore[misc]
    return dataclasses.MISSING


def build(cls: type, raw: Mapping[str, Any], text: str) -> Any:
    """The event ``cls(**raw)``, each decoded value brought to its field's type.

    Args:
        cls: a registered event class (its ``KIND`` names it in the messages).
        raw: field name -> decoded JSON value.
        text: the input quoted in the messages (the notation line, or the JSON object).

    Raises:
        NotationError: a field ``cls`` does not have, a value of the wrong type, a field without
            a default left out, or a value the event refuses.
    """
    spec = fields_of(cls)
    kwargs = {}
    for name, value in raw.items():
        if name not in spec:
            raise NotationError(f"{text!r}: {cls.KIND} has no field {name!r} (fields: {', '.join(spec)})")
        kwargs[name] = _coerce(spec[name][1], value, f"{cls.KIND}.{name}")
    missing = [n for n, (f, _) in spec.items() if n not in kwargs and default_of(f) is dataclasses.MISSING]
    if missing:
        raise NotationError(f"{text!r}: {cls.KIND} needs {', '.join(missing)}")
    try:
        return cls(**kwargs)
    except (TypeError, ValueError) as exc:
        raise NotationError(f"{text!r}: {exc}") from exc


def read_fields(rest: str, text: str) -> dict[str, Any]:
    """The ``field=value`` pairs of a notation line after its kind, values decoded (JSON, a bare
    word, a bare list), not yet checked against the event's fields (:func:`build` does that).

    Raises:
        NotationError: a pair that is not ``field=value``, a bad field name, a value that is not
            JSON, junk after a value, or a field given twice; the message quotes ``text``.
    """
    raw: dict[str, Any] = {}
    decoder = json.JSONDecoder()
    i, n = 0, len(rest)
    while i < n:
        if rest[i] == " ":
            i += 1
            continue
        eq = rest.find("=", i)
        if eq < 0:
            raise NotationError(f"{text!r}: expected field=value at {rest[i:]!r}")
        name = rest[i:eq]
        if not re.fullmatch(r"[a-z_][a-z0-9_]*", name):
            raise NotationError(f"{text!r}: bad field name {name!r}")
        j = eq + 1
        if j < n and rest[j] in '"[{-0123456789':
            try:
                value, end = decoder.raw_decode(rest, j)
            except json.JSONDecodeError as exc:
                bare = _parse_bare_list(rest, j) if rest[j] == "[" else None
                if bare is None:
                    raise NotationError(f"{text!r}: bad value for {name}: not JSON ({exc.msg} at character "
                                        f"{exc.pos - j + 1} of the value)") from exc
                value, end = bare
            i = end
        else:
            end = rest.find(" ", j)
            end = n if end < 0 else end
            word = rest[j:end]
            value = json.loads(word) if word in _KEYWORDS else word
            i = end
        if i < n and rest[i] != " ":
            raise NotationError(f"{text!r}: junk after value of {name}")
        if name in raw:
            raise NotationError(f"{text!r}: field {name} given twice")
        raw[name] = value
    return raw
