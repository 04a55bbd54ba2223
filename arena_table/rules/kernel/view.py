"""What the screens show of a game: :class:`View`, typed after ``docs/view-schema.md``.

The spectator page renders the common keys the same way for every game and hands ``extra`` to
the game's own panel. A game fills what applies and leaves the rest out: a field left out is
:data:`UNSET` and absent from the JSON form, which is not the same as one set to ``None``
("nobody acts"). Keys a game's panel reads beside the common ones of an order entry or of the
board (a Demigods figure's ``tie``, a Theosis hero's ``mana_skills``) are kept in ``more``.

A view reads like its JSON form (``view["order"][0]["name"]``), so the pages and tests that
index it need not know the type.

>>> v = View.from_json({"phase": "Turn 3", "order": [{"id": "ann", "name": "Ann", "health": 7, "tie": True}]})
>>> v.order[0].health, v.order[0].more, v["order"][0]["tie"], "board" in v
(7, {'tie': True}, True, False)
>>> View.from_json({"phase": 3})
Traceback (most recent call last):
...
TypeError: view.phase: expected str, got 3
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Iterator


_L = (list, tuple)
"""A JSON array: a list, or a tuple of a frozen state."""


class _Unset:
    def __repr__(self) -> str:
        return "UNSET"


UNSET: Any = _Unset()
"""A field the game left out of its view (absent from the JSON form)."""


def _check(where: str, value: Any, kinds: tuple[type, ...], optional: bool = False) -> Any:
    if value is None and optional:
        return value
    if isinstance(value, bool) and bool not in kinds or not isinstance(value, kinds):
        names = " or ".join(k.__name__ for k in kinds) + (" or null" if optional else "")
        raise TypeError(f"{where}: expected {names}, got {value!r:.60}")
    return value


def _json(obj: Any) -> dict[str, Any]:
    """The JSON form of a view dataclass: set fields, nested ones in their JSON form, ``more`` merged."""
    out: dict[str, Any] = {}
    for f in dataclasses.fields(obj):
        value = getattr(obj, f.name)
        if value is UNSET or f.name == "more":
            continue
        if isinstance(value, tuple) and value and dataclasses.is_dataclass(value[0]):
            value = [_json(v) for v in value]
        elif dataclasses.is_dataclass(value):
            value = _json(value)
        out[f.name] = value
    out.update(getattr(obj, "more", {}))
    return out


def _read(cls: type, obj: Any, where: str, nested: Mapping[str, Any] | None = None) -> Any:
    """``cls`` from its JSON form: each known key type-checked, the others into ``more``."""
    _check(where, obj, (dict,))
    nested = nested or {}
    known = {f.name: f for f in dataclasses.fields(cls) if f.name != "more"}
    kwargs: dict[str, Any] = {}
    for key, value in obj.items():
        if key not in known:
            continue
        spec = _TYPES[cls][key]
        if key in nested:
            reader = nested[key]
            value = (tuple(reader(v, f"{where}.{key}[{i}]") for i, v in enumerate(_check(f"{where}.{key}", value, _L)))
                     if spec == "list" else reader(value, f"{where}.{key}") if value is not None else None)
        else:
            kinds, optional = spec
            _check(f"{where}.{key}", value, kinds, optional)
        kwargs[key] = value
    if "more" in {f.name for f in dataclasses.fields(cls)}:
        kwargs["more"] = {k: v for k, v in obj.items() if k not in known}
    return cls(**kwargs)


@dataclass(frozen=True)
class Condition:
    """A buff, debuff, blessing or curse on a character."""

    name: str
    icon: str = UNSET
    """An icon of ``webui/static/icons.svg`` (``flame``, ``skull`` ...)."""
    kind: str = UNSET
    """``buff``, ``debuff``, ``blessing``, ``curse`` ..."""
    turns_left: int = UNSET
    text: str = UNSET


@dataclass(frozen=True)
class Entry:
    """One character in acting order."""

    id: str
    """Stable id (the object id's last part)."""
    name: str
    side: str = UNSET
    """Player or team."""
    rank: int = UNSET
    """Position number to show (Hero Ranking)."""
    acting: bool = UNSET
    next: bool = UNSET
    out: bool = UNSET
    """Removed, dead or skipped this round."""
    health: int = UNSET
    health_max: int = UNSET
    resources: dict = UNSET
    """Small labelled numbers (``{"mana": 2, "gold": 14}``)."""
    conditions: tuple[Condition, ...] = UNSET
    more: dict = field(default_factory=dict)
    """Keys the game's own panel reads beside these."""


@dataclass(frozen=True)
class Score:
    side: str
    label: str
    value: int | str
    """A number, or its display text where the number has none (``∞``)."""
    max: int | str = UNSET


@dataclass(frozen=True)
class LastAction:
    """The last combat with its arithmetic spelled out."""

    title: str
    lines: list = UNSET
    result: str = UNSET


@dataclass(frozen=True)
class Board:
    """Figures on the board for the SVG."""

    kind: str
    """``hex`` (axial q, r), ``square`` (col, row) or ``areas``."""
    cells: list = UNSET
    radius: int = UNSET
    """A hex board of this radius instead of ``cells``."""
    figures: list = UNSET
    more: dict = field(default_factory=dict)


@dataclass(frozen=True)
class Track:
    """A marker on a numbered track between two ends (Theosis's Alignment tracks)."""

    name: str
    ends: list
    """The two ends' names: ``ends[0]`` at ``min``, ``ends[1]`` at ``max``."""
    min: int
    max: int
    value: int
    """Where the marker stands, ``min``..``max``."""
    notes: list = UNSET
    """A line under each end (who gains when the marker leans to it)."""
    more: dict = field(default_factory=dict)


@dataclass(frozen=True, eq=False)
class View(Mapping):
    """A game's view of its state (``docs/view-schema.md``); read-only, readable as its JSON form."""

    phase: str = UNSET
    """One line: phase and round/turn."""
    round: int = UNSET
    round_max: int = UNSET
    order_title: str = UNSET
    """What ``order`` is: "Hero Ranking", "Activation order", "Initiative"."""
    order: tuple[Entry, ...] = UNSET
    acting: str | None = UNSET
    """Id of the acting character, or ``None``."""
    sides: list = UNSET
    """Every side in seating order, fixed for the game."""
    acting_side: str | None = UNSET
    """The side that must act when no character acts (placing, bidding)."""
    scores: tuple[Score, ...] = UNSET
    last_action: LastAction | None = UNSET
    board: Board = UNSET
    tracks: tuple[Track, ...] = UNSET
    """Markers on tracks, drawn beside the board."""
    placeholders: list = UNSET
    """The values used in play that are still placeholders (defaults for what the rulebook text does
    not print), in words; the TV shows a "placeholder stats" badge while there are any."""
    prompt: str = UNSET
    """What the table waits for, in plain words."""
    extra: dict = UNSET
    """Game-specific, rendered by the game's own panel."""

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> "View":
        """A view from its JSON form.

        Raises:
            TypeError: a common key holds a value of the wrong type (the message names it), or
                the view has a key the schema does not list (game data goes in ``extra``).
        """
        unknown = sorted(set(obj) - set(_TYPES[View]))
        if unknown:
            raise TypeError(f"view has keys the schema does not list: {', '.join(unknown)} (put them in 'extra')")
        return _read(cls, dict(obj), "view", {
            "order": lambda v, w: _read(Entry, v, w, {"conditions": lambda c, cw: _read(Condition, c, cw)}),
            "scores": lambda v, w: _read(Score, v, w),
            "last_action": lambda v, w: _read(LastAction, v, w),
            "board": lambda v, w: _read(Board, v, w),
            "tracks": lambda v, w: _read(Track, v, w),
        })

    def to_json(self) -> dict[str, Any]:
        """The JSON form: the keys the game set, nothing else."""
        return _json(self)

    def __getitem__(self, key: str) -> Any:
        return self.to_json()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self.to_json())

    def __len__(self) -> int:
        return len(self.to_json())


_S, _I, _B, _D = (str,), (int,), (bool,), (dict,)
_TYPES: dict[type, dict[str, Any]] = {
    Condition: {"name": (_S, False), "icon": (_S, False), "kind": (_S, False), "turns_left": (_I, True),
                "text": (_S, False)},
    Entry: {"id": (_S, False), "name": (_S, False), "side": (_S, True), "rank": (_I, True), "acting": (_B, False),
            "next": (_B, False), "out": (_B, False), "health": (_I, True), "health_max": (_I, True),
            "resources": (_D, False), "conditions": "list"},
    Score: {"side": (_S, False), "label": (_S, False), "value": ((int, str), False), "max": ((int, str), True)},
    LastAction: {"title": (_S, False), "lines": (_L, False), "result": (_S, False)},
    Board: {"kind": (_S, False), "cells": (_L, False), "radius": (_I, False), "figures": (_L, False)},
    Track: {"name": (_S, False), "ends": (_L, False), "min": (_I, False), "max": (_I, False), "value": (_I, False),
            "notes": (_L, False)},
    View: {"phase": (_S, False), "round": (_I, True), "round_max": (_I, True), "order_title": (_S, False),
           "order": "list", "acting": (_S, True), "sides": (_L, False), "acting_side": (_S, True),
           "scores": "list", "last_action": "nested", "board": "nested", "tracks": "list", "placeholders": (_L, False), "prompt": (_S, False), "extra": (_D, False)},
}
"""Each field's JSON type: ``(types, may be null)``, or how a nested field is read."""
