"""The checks of the configuration's values, and :func:`setting`, the field a key is declared with.

Each check takes a value as the TOML file or a flag gives it and returns it as the table uses it
(a list of pins as a tuple, an int as a float), or raises ``ValueError("must be ...")``; the
section (:mod:`.config_sections`) turns that into a :class:`~.config_sections.BadValue` naming the key.

>>> number(0, 60, lo_open=True)(2), whole(1, 20)(3), seats("Ann, Bo")
(2.0, 3, ('Ann', 'Bo'))
>>> whole(1, 20)(0)
Traceback (most recent call last):
ValueError: must be a whole number from 1 to 20, got 0
"""

from __future__ import annotations

import dataclasses
import math
import os
from dataclasses import field
from pathlib import Path
from types import MappingProxyType
from typing import Any, Callable, Mapping

from arena_table.hardware.leds import CUE_BEEPS, CUE_KINDS

def _fail(what: str, value: Any) -> None:
    shown = f"{value:g}" if _is_number(value) else f"{value!r:.60}"
    raise ValueError(f"must be {what}, got {shown}")


def _is_number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def number(lo: float, hi: float = math.inf, lo_open: bool = False) -> Callable[[Any], float]:
    """A finite number from ``lo`` (above it when ``lo_open``) to ``hi``.

    >>> number(0, 60, lo_open=True)(2)
    2.0
    """
    what = f"a number {'above' if lo_open else 'from'} {lo:g}" + ("" if hi == math.inf else f" to {hi:g}")

    def check(v: Any) -> float:
        if not _is_number(v) or not (v > lo if lo_open else v >= lo) or v > hi:
            _fail(what, v)
        return float(v)
    return check


def whole(lo: int, hi: int | None = None) -> Callable[[Any], int]:
    what = f"a whole number from {lo}" + ("" if hi is None else f" to {hi}")

    def check(v: Any) -> int:
        if not isinstance(v, int) or isinstance(v, bool) or v < lo or (hi is not None and v > hi):
            _fail(what, v)
        return v
    return check


def face(v: Any) -> int:
    if not isinstance(v, int) or isinstance(v, bool) or not 1 <= v <= 6:
        _fail("a face value, a whole number from 1 to 6", v)
    return v


def flag(v: Any) -> bool:
    if not isinstance(v, bool):
        _fail("true or false", v)
    return v


def one_of(*choices: str) -> Callable[[Any], str]:
    def check(v: Any) -> str:
        if v not in choices:
            _fail(" or ".join(f'"{c}"' for c in choices), v)
        return v
    return check


def text(v: Any) -> str:
    if not isinstance(v, str):
        _fail("text", v)
    return v


def path(v: Any) -> str:
    """A file path, ``~`` expanded; ``""`` for none."""
    if not isinstance(v, (str, Path)):
        _fail("a file path", v)
    return os.path.expanduser(str(v)) if str(v) else ""


def size(v: Any) -> tuple[int, int]:
    if not isinstance(v, (list, tuple)) or len(v) != 2 or not all(isinstance(x, int) and not isinstance(x, bool)
                                                                  and x >= 1 for x in v):
        _fail("[width, height] in whole pixels", v)
    return (v[0], v[1])


def ratio_or_off(v: Any) -> float:
    if not _is_number(v) or not (v == 0 or v > 1):
        _fail("0 (off) or a number above 1", v)
    return float(v)


def seats(v: Any) -> tuple[str, ...]:
    names = [s.strip() for s in v.split(",")] if isinstance(v, str) else v
    if (not isinstance(names, (list, tuple)) or not all(isinstance(s, str) and s.strip() for s in names)
            or len(names) > 6 or len(set(names)) != len(names)):
        _fail("1 to 6 distinct comma-separated names (or a list of them)", v)
    return tuple(s.strip() for s in names)


def gpio_pins(most: int, exactly: int | None = None) -> Callable[[Any], tuple[int, ...]]:
    what = (f"a list of {exactly} BCM pin numbers (0-27)" if exactly else f"a list of up to {most} BCM pin numbers "
            "(0-27)") + (", or [] for none" if exactly else "")

    def check(v: Any) -> tuple[int, ...]:
        if (not isinstance(v, (list, tuple)) or not all(isinstance(n, int) and not isinstance(n, bool)
                                                        and 0 <= n <= 27 for n in v)
                or len(v) > most or (exactly and len(v) not in (0, exactly))):
            _fail(what, v)
        return tuple(v)
    return check


def cue_beeps(v: Any) -> Mapping[str, int]:
    if (not isinstance(v, Mapping) or not set(v) <= set(CUE_KINDS)
            or not all(isinstance(n, int) and not isinstance(n, bool) and 0 <= n <= 10 for n in v.values())):
        _fail(f"a table of beeps (0-10) for the cues {', '.join(CUE_KINDS)}", v)
    return MappingProxyType(dict(CUE_BEEPS, **v))


def pin_text(v: Any) -> str:
    from .secrets_store import valid_pin

    if not isinstance(v, str) or (v.strip() and not valid_pin(v.strip())):
        raise ValueError(f"the PIN must be 4 to 12 digits, got {v.strip() if isinstance(v, str) else v!r}")
    return v.strip()


def ip_addresses(v: Any) -> tuple[str, ...]:
    """A list of IP addresses (each as :mod:`ipaddress` writes it).

    >>> ip_addresses(["127.0.0.1", "::1", "192.168.1.30"])
    ('127.0.0.1', '::1', '192.168.1.30')
    """
    import ipaddress

    if not isinstance(v, (list, tuple)) or not all(isinstance(a, str) for a in v):
        _fail("a list of IP addresses", v)
    out = []
    for a in v:
        try:
            out.append(str(ipaddress.ip_address(a.strip())))
        except ValueError:
            _fail("a list of IP addresses (such as \"192.168.1.30\")", a)
    return tuple(out)


def ip_address_or_none(v: Any) -> str:
    """``""`` or one IP address.

    >>> ip_address_or_none("127.0.0.1"), ip_address_or_none("")
    ('127.0.0.1', '')
    """
    if not isinstance(v, str):
        _fail("an IP address, or empty", v)
    return ip_addresses([v])[0] if v.strip() else ""


def web_url(v: Any) -> str:
    """``""`` or an ``http://`` or ``https://`` address with a host, ending in ``/`` (one is added).

    >>> web_url("https://arena.example.org/t1"), web_url("")
    ('https://arena.example.org/t1/', '')
    """
    from urllib.parse import urlsplit

    if not isinstance(v, str):
        _fail("an http:// or https:// address, or empty", v)
    v = v.strip()
    if not v:
        return v
    try:
        parts = urlsplit(v)
        parts.port  # noqa: B018 (raises on a port that is not a number)
    except ValueError:
        parts = None
    if parts is None or parts.scheme not in ("http", "https") or not parts.hostname or parts.query \
            or parts.fragment or any(c.isspace() for c in v):
        _fail("an http:// or https:// address with a host name (and no ?query or #fragment), or empty", v)
    return v if v.endswith("/") else v + "/"


def port(v: Any) -> int:
    return whole(1, 65535)(v)


def table(v: Any) -> dict[str, Any]:
    if not isinstance(v, Mapping):
        _fail("a table (JSON object) of the game's setup options", v)
    return dict(v)



def broker_url(v: Any) -> str:
    """``""`` (publish nowhere) or ``mqtt://HOST[:PORT]`` (:func:`arena_table.hub.topics.parse_broker`)."""
    from arena_table.hub.topics import parse_broker

    if not isinstance(v, str):
        _fail("mqtt://HOST[:PORT] or empty", v)
    if v:
        parse_broker(v)
    return v


def table_id(v: Any) -> str:
    from arena_table.hub.topics import check_table_id

    if not isinstance(v, str):
        _fail("a table id (text)", v)
    return check_table_id(v) if v else v



def setting(default: Any, doc: str, check: Callable[[Any], Any] | None = None, *, flag: str = "",
            optional: bool = False) -> Any:
    """A configuration key: its default, what it means (the line ``examples/config.toml`` shows),
    the check of a value given for it, and ``run``'s flag that overrides it. ``optional``: the
    default ``None`` means "not set" (TOML has no null: leave the key out)."""
    meta = {"doc": doc, "check": check, "flag": flag, "optional": optional}
    if isinstance(default, Mapping):  # a table (cue_beeps): each instance its own copy
        return field(default_factory=lambda: MappingProxyType(dict(default)), metadata=meta)
    return field(default=default, metadata=meta)


def default_of(f: dataclasses.Field) -> Any:
    """The default of key field ``f``."""
    return f.default_factory() if f.default is dataclasses.MISSING else f.default
