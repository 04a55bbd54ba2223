"""Reading a game's ``start`` options (JSON values) with errors that name the option.

Every game's setup reads its options through these helpers, so a wrong type is refused as
``players: must be a list of names, got 5`` rather than in Python's own words
(``'int' object is not iterable``) or, worse, accepted letter by letter.

>>> names("players", "Ann, Bo"), whole("heroes", "4"), choice("mode", "duel", ("duel", "team"))
(['Ann', 'Bo'], 4, 'duel')
>>> whole("heroes", 3.7)
Traceback (most recent call last):
ValueError: heroes: 3.7 is not a whole number
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence


def obj(options: Mapping[str, Any], key: str) -> dict:
    """Option ``key`` as a dict (``{}`` when absent or null).

    Raises:
        ValueError: it is not a JSON object (the message names the option).
    """
    value = options.get(key)
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise ValueError(f"{key} must be a JSON object, got {value!r:.40}")
    return dict(value)


def whole(key: str, value: Any, low: int | None = None, high: int | None = None) -> int:
    """``value`` as a whole number within ``low``..``high`` (each optional).

    Raises:
        ValueError: not a whole number (``true``, ``3.7``, ``"three"``, a list) or out of range,
            naming option ``key``.
    """
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise ValueError(f"{key}: {value!r:.40} is not a whole number")
    try:
        number = float(value)
    except ValueError:
        raise ValueError(f"{key}: {value!r:.40} is not a whole number") from None
    if not number.is_integer():
        raise ValueError(f"{key}: {value!r:.40} is not a whole number")
    n = int(number)
    if (low is not None and n < low) or (high is not None and n > high):
        span = f"{low}..{high}" if low is not None and high is not None else (
            f"at least {low}" if low is not None else f"at most {high}")
        raise ValueError(f"{key}: {n} is out of range ({span})")
    return n


def text(key: str, value: Any) -> str:
    """``value`` as a non-blank string (stripped).

    Raises:
        ValueError: not a string, or blank (naming option ``key``).
    """
    if not isinstance(value, str):
        raise ValueError(f"{key} must be text, got {value!r:.40}")
    if not value.strip():
        raise ValueError(f"{key} must not be blank")
    return value.strip()


def choice(key: str, value: Any, allowed: Sequence[str]) -> str:
    """``value`` if it is one of ``allowed``.

    Raises:
        ValueError: naming option ``key`` and the allowed values.
    """
    if not isinstance(value, str) or value not in allowed:
        raise ValueError(f"{key} must be one of {', '.join(allowed)}; got {value!r:.40}")
    return value


def names(key: str, value: Any) -> list[str]:
    """A list of names from a JSON list of text, or from one comma-separated string ("Ann, Bo":
    a string is not read letter by letter). Blank entries are dropped; ``None`` is ``[]``.

    Raises:
        ValueError: neither a list nor a string, or an entry that is not text (naming option ``key``).
    """
    if value is None:
        return []
    if isinstance(value, str):
        value = value.split(",")
    if not isinstance(value, (list, tuple)):
        raise ValueError(f"{key} must be a list of names, got {value!r:.40}")
    out = []
    for v in value:
        if not isinstance(v, str):
            raise ValueError(f"{key}: {v!r:.40} is not a name (text)")
        if v.strip():
            out.append(v.strip())
    return out


def only_keys(key: str, value: Mapping[str, Any], known: Sequence[str]) -> None:
    """Refuse keys of ``value`` outside ``known`` (a misspelt key must not be ignored silently).

    Raises:
        ValueError: naming option ``key``, the unknown keys and the known ones.
    """
    unknown = sorted(str(k) for k in value if k not in known)
    if unknown:
        raise ValueError(f"{key}: unknown key(s) {', '.join(unknown)}; known: {', '.join(known)}")
