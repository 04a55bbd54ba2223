"""The Demigods Evolution catalogue: heroes, Demigods, items, classes and dice from ``data/*.json``.

Values the rulebook does not print are PLACEHOLDERS listed in each entry's
``to_enter``; :func:`unentered` collects them so the control page can show what
still has to be copied from the cards. Setup options may override any hero field
(``hero_stats``) and the attack dice faces (``dice_faces``).
"""

from __future__ import annotations

import copy
import json
from functools import lru_cache
from importlib import resources
from typing import Any, Mapping

ATTACK_TYPES = ("slashing", "piercing", "bludgeoning", "arcane", "fire", "ice")
"""Attack types, 'Base Attack' (p.14): the first three physical, the last three magical."""
PHYSICAL = frozenset(ATTACK_TYPES[:3])
EFFECTS = frozenset({"enrage", "critical", "knockdown", "push", "burn", "failure", "freeze", "pure"})
"""Named results of the attack dice ('Attack Dice', p.24)."""


HERO_FIELDS = ("name", "class", "race", "ap", "health", "initiative", "attack", "attack_type",
               "physical_defense", "magical_defense")
"""Fields a hero card must give (setup option ``hero_stats`` may add a hero of another box)."""


@lru_cache(maxsize=None)
def _load(name: str) -> dict[str, Any]:
    text = resources.files(__package__).joinpath("data", f"{name}.json").read_text(encoding="utf-8")
    return json.loads(text)


def classes() -> dict[str, dict[str, Any]]:
    """Class table: ``{class: {power, base_attack, movement, tactical_points, traits}}``."""
    return _load("classes")["classes"]


def minion_data() -> dict[str, Any]:
    return _load("classes")["minion"]


def demigod_movement() -> tuple[str, ...]:
    return tuple(_load("classes")["demigod_movement"])


@lru_cache(maxsize=None)
def _index(name: str, key: str) -> dict[str, dict[str, Any]]:
    return {entry["id"]: entry for entry in _load(name)[key]}


def hero(hero_id: str, overrides: Mapping[str, Mapping[str, Any]] | None = None) -> dict[str, Any]:
    """The hero card ``hero_id`` with ``overrides[hero_id]`` merged in (a copy).

    Raises:
        KeyError: no such hero (the message lists the known ones).
    """
    table = _index("heroes", "heroes")
    extra = (overrides or {}).get(hero_id, {})
    if hero_id not in table:
        missing = [f for f in HERO_FIELDS if f not in extra]
        if missing:
            raise KeyError(f"unknown hero {hero_id!r}; known: {', '.join(sorted(table))} "
                           f"(a hero of another box needs hero_stats with {', '.join(missing)})")
        return {"id": hero_id, "traits": None, "skills": [], "to_enter": [], **copy.deepcopy(dict(extra))}
    card = copy.deepcopy(table[hero_id])
    for field, value in (overrides or {}).get(hero_id, {}).items():
        card[field] = value
        card["to_enter"] = [f for f in card.get("to_enter", []) if f != field and not f.startswith(f"{field}.")]
    return card


def hero_ids() -> list[str]:
    return list(_index("heroes", "heroes"))


def demigod(demigod_id: str) -> dict[str, Any]:
    """The Demigod card ``demigod_id``. Raises KeyError naming the known ones."""
    table = _index("demigods", "demigods")
    if demigod_id not in table:
        raise KeyError(f"unknown demigod {demigod_id!r}; known: {', '.join(sorted(table))}")
    return table[demigod_id]


def demigod_ids() -> list[str]:
    return list(_index("demigods", "demigods"))


def item(item_id: str) -> dict[str, Any]:
    """The item card ``item_id`` (primary items of the Demigods included). Raises KeyError."""
    table = _index("items", "items")
    if item_id in table:
        return table[item_id]
    for dg in _index("demigods", "demigods").values():
        if dg["primary"]["id"] == item_id:
            return {**dg["primary"], "type": "primary", "active": True}
    raise KeyError(f"unknown item {item_id!r}; known: {', '.join(sorted(table))}")


def item_ids() -> list[str]:
    return list(_index("items", "items"))


def dice_faces(overrides: Mapping[str, Any] | None = None) -> dict[str, tuple[Any, ...]]:
    """Printed results per attack die type, face index 1..6 -> entry 0..5.

    >>> dice_faces()["fire"]
    ('burn', 'failure', 'critical', 2, 1, -1)

    Raises:
        ValueError: an override that is not six valid results for a known type.
    """
    faces = {k: tuple(v) for k, v in _load("dice")["faces"].items()}
    for die_type, values in (overrides or {}).items():
        if die_type not in faces:
            raise ValueError(f"dice_faces: unknown attack die {die_type!r}")
        if len(values) != 6 or any(not isinstance(v, int) and v not in EFFECTS for v in values):
            raise ValueError(f"dice_faces[{die_type}] must be six numbers or effects {sorted(EFFECTS)}")
        faces[die_type] = tuple(values)
    return faces


def demigod_die() -> dict[str, Any]:
    return _load("dice")["demigod_die"]


def unentered(hero_overrides: Mapping[str, Mapping[str, Any]] | None = None) -> dict[str, list[str]]:
    """Object id -> fields still holding placeholder values (from every data file); a hero field
    given in ``hero_overrides`` (the ``hero_stats`` option) is entered, so it is not listed."""
    out = {}
    for name, key, prefix in (("heroes", "heroes", "hero"), ("demigods", "demigods", "demigod"),
                              ("items", "items", "item")):
        for entry in _load(name)[key]:
            given = (hero_overrides or {}).get(entry["id"], {}) if prefix == "hero" else {}
            left = [f for f in entry.get("to_enter", ()) if f.split(".")[0] not in given]
            if left:
                out[f"demigods:{prefix}:{entry['id']}"] = left
    return out
