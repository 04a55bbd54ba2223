"""The cards and tiles as data (``data/*.json``) and the values still to enter.

The Fierce Powers book names cards it does not print (the Monster cards' values, most base-game
Silver and Gold card boxes, the Combat die's faces): those are placeholders listed under
``to_enter`` in the data files, shown on the control page as still to enter, and replaced by the
``start`` options of the same name (``monsters``, ``cards``, ``combat_die``, ``hero_health`` ...).

>>> monster("shadowbeast")["gaar"], card("gold", "rotting-worm")["health"]
(2, 2)
>>> "combat_die" in base()["to_enter"]
True
"""

from __future__ import annotations

import copy
import json
from functools import lru_cache
from importlib import resources
from typing import Any, Mapping


@lru_cache(maxsize=None)
def _load(name: str) -> dict[str, Any]:
    return json.loads(resources.files(__package__).joinpath("data", f"{name}.json").read_text(encoding="utf-8"))


def base() -> dict[str, Any]:
    """Base-game values the book refers to (``data/base.json``), a copy."""
    return copy.deepcopy(_load("base"))


def monsters() -> dict[str, dict[str, Any]]:
    """Monster, Elite Monster and Minion cards by id (``data/monsters.json``), copies."""
    return {m["id"]: copy.deepcopy(m) for m in _load("monsters")["monsters"]}


def monster(mid: str) -> dict[str, Any]:
    """One card by id.

    Raises:
        KeyError: no such card.
    """
    return monsters()[mid]


def cards() -> dict[str, dict[str, dict[str, Any]]]:
    """Silver and Gold card types, ``{"silver": {type: card}, "gold": {...}}`` (``data/cards.json``)."""
    data = _load("cards")
    return {"silver": copy.deepcopy(data["silver"]), "gold": copy.deepcopy(data["gold"])}


def card(cache: str, kind: str) -> dict[str, Any]:
    """One card type of the ``silver`` or ``gold`` cards.

    Raises:
        KeyError: no such type.
    """
    return cards()[cache][kind]


def tiles() -> dict[str, dict[str, Any]]:
    """Hero tiles, Familiar abilities, Scrolls and tokens that change numbers (``data/tiles.json``)."""
    return copy.deepcopy(_load("tiles")["tiles"])


def familiars() -> dict[str, dict[str, Any]]:
    """Eltrea's Familiars by id, in the Familiar board's order (``data/familiars.json``)."""
    return {f["id"]: copy.deepcopy(f) for f in _load("familiars")["familiars"]}


def merged(entries: Mapping[str, Mapping[str, Any]], overrides: Mapping[str, Any], what: str) -> dict[str, dict]:
    """``entries`` with each override's fields laid over (an unknown id is a new entry, which
    must then give every field); an entered field is no longer ``to_enter``.

    Raises:
        ValueError: an override that is not an object.
    """
    out = {k: copy.deepcopy(dict(v)) for k, v in entries.items()}
    for key, fields in overrides.items():
        if not isinstance(fields, Mapping):
            raise ValueError(f"{what}: {key} must be an object of card fields, got {fields!r:.40}")
        entry = out.setdefault(key, {"id": key, "name": key.replace("-", " ").title(), "to_enter": []})
        entry.update(copy.deepcopy(dict(fields)))
        given = {f.split(".")[0] for f in fields}
        entry["to_enter"] = [f for f in entry.get("to_enter", []) if f.split(".")[0] not in given]
    return out


def unentered(monster_cards: Mapping[str, Mapping[str, Any]], card_types: Mapping[str, Mapping[str, Any]],
              base_given: Mapping[str, Any], familiar_cards: Mapping[str, Mapping[str, Any]] | None = None,
              ) -> dict[str, list[str]]:
    """Object -> fields still holding placeholders (``euthia:monster:gecko`` -> ``["health", ...]``),
    for the control page's list of values to enter."""
    out: dict[str, list[str]] = {}
    left = [f for f in base()["to_enter"] if f not in base_given]
    if left:
        out["euthia:base"] = left
    for mid, m in monster_cards.items():
        if m.get("to_enter"):
            out[f"euthia:monster:{mid}"] = list(m["to_enter"])
    for cache, types in card_types.items():
        for kind, c in types.items():
            if c.get("to_enter"):
                out[f"euthia:{cache}:{kind}"] = list(c["to_enter"])
    for fid, f in (familiars() if familiar_cards is None else familiar_cards).items():
        if f.get("to_enter"):
            out[f"euthia:familiar:{fid}"] = list(f["to_enter"])
    return out
