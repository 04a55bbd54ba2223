"""The Demigods Evolution catalogue: heroes, Demigods, items, classes and dice from ``data/*.json``.

Values the rulebook does not print are PLACEHOLDERS listed in each entry's
``to_enter``; :func:`unentered` collects them so the control page can show what
still has to be copied from the cards. Setup options may override any hero field
(``hero_stats``), Demigod field (``demigod_stats``), item field (``item_stats``) and the attack
dice faces (``dice_faces``).
"""

from __future__ import annotations

import copy
import json
from functools import lru_cache
from importlib import resources
from typing import Any, Mapping

from arena_table.rules.kernel.geometry.boards import Board, boards_from
from arena_table.rules.kernel.mechanics.die_kinds import DieKind, package_kinds

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


@lru_cache(maxsize=None)
def boards() -> dict[str, Board]:
    """The battlefields as board definitions (``data/boards.json``): the Arena of the God of War
    and the Dungeon on two and six tiles, sizes marked to enter (p.8)."""
    return boards_from(_load("boards"), "demigods data/boards.json")


def board_extras(board_id: str) -> dict[str, Any]:
    """The Demigods keys of a board definition the geometry does not know (``entry_inset``)."""
    spec = next(b for b in _load("boards")["boards"] if b["id"] == board_id)
    return {"entry_inset": spec.get("entry_inset", 0)}


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


def _merged(card: Mapping[str, Any], extra: Mapping[str, Any] | None) -> dict[str, Any]:
    """A copy of ``card`` with the fields of ``extra``; an object value (``primary``, ``passive``)
    is merged into the card's object of that name field by field."""
    out = copy.deepcopy(dict(card))
    for key, value in (extra or {}).items():
        if isinstance(value, Mapping) and isinstance(out.get(key), Mapping):
            out[key] = {**out[key], **copy.deepcopy(dict(value))}
        else:
            out[key] = copy.deepcopy(value)
    return out


def demigod(demigod_id: str, overrides: Mapping[str, Mapping[str, Any]] | None = None) -> dict[str, Any]:
    """The Demigod card ``demigod_id`` with ``overrides[demigod_id]`` merged in (the ``demigod_stats``
    option; ``primary`` merges field by field). Raises KeyError naming the known ones."""
    table = _index("demigods", "demigods")
    if demigod_id not in table:
        raise KeyError(f"unknown demigod {demigod_id!r}; known: {', '.join(sorted(table))}")
    extra = (overrides or {}).get(demigod_id)
    return _merged(table[demigod_id], extra) if extra else table[demigod_id]


def demigod_ids() -> list[str]:
    return list(_index("demigods", "demigods"))


def item(item_id: str, overrides: Mapping[str, Mapping[str, Any]] | None = None,
         demigod_overrides: Mapping[str, Mapping[str, Any]] | None = None) -> dict[str, Any]:
    """The item card ``item_id`` (primary items of the Demigods included) with ``overrides[item_id]``
    merged in (the ``item_stats`` option); a primary item takes its Demigod's ``primary`` override
    (``demigod_stats``). Raises KeyError."""
    table = _index("items", "items")
    if item_id in table:
        extra = (overrides or {}).get(item_id)
        return _merged(table[item_id], extra) if extra else table[item_id]
    for dg_id in _index("demigods", "demigods"):
        primary = demigod(dg_id, demigod_overrides)["primary"]
        if primary["id"] == item_id:
            return {**primary, "type": "primary", "active": True}
    raise KeyError(f"unknown item {item_id!r}; known: {', '.join(sorted(table))}")


def item_ids() -> list[str]:
    return list(_index("items", "items"))


def primary_ids() -> list[str]:
    """Ids of the Demigods' primary items (set through ``demigod_stats`` ``primary``)."""
    return [dg["primary"]["id"] for dg in _index("demigods", "demigods").values()]


def dice_faces(overrides: Mapping[str, Any] | None = None) -> dict[str, tuple[Any, ...]]:
    """Printed results per attack die type, face index 1..6 -> entry 0..5.

    >>> dice_faces()["fire"]
    ('burn', 'failure', 'critical', 2, 1, -1)

    Raises:
        ValueError: an override that is not six valid results for a known type.
    """
    faces = {t: tuple(f.value for f in kind.faces) for t, kind in attack_kinds().items()}
    for die_type, values in (overrides or {}).items():
        if die_type not in faces:
            raise ValueError(f"dice_faces: unknown attack die {die_type!r}")
        if len(values) != 6 or any(not isinstance(v, int) and v not in EFFECTS for v in values):
            raise ValueError(f"dice_faces[{die_type}] must be six numbers or effects {sorted(EFFECTS)}")
        faces[die_type] = tuple(values)
    return faces


@lru_cache(maxsize=None)
def attack_kinds() -> dict[str, DieKind]:
    """The attack dice as die kinds (``data/die_kinds.json``), attack type -> kind ``demigods-<type>``."""
    kinds = {k.id.removeprefix("demigods-"): k for k in package_kinds(__package__)}
    return {t: k for t, k in kinds.items() if t in ATTACK_TYPES}  # in the book's order (p.24)


def demigod_die() -> dict[str, Any]:
    return _load("dice")["demigod_die"]


def _entered(field: str, given: Mapping[str, Any]) -> bool:
    """Whether ``field`` (``ap`` or ``primary.damage``) is among the overrides ``given``."""
    head, _, rest = field.partition(".")
    if head not in given:
        return False
    return not rest or not isinstance(given[head], Mapping) or _entered(rest, given[head])


def unentered(hero_overrides: Mapping[str, Mapping[str, Any]] | None = None,
              demigod_overrides: Mapping[str, Mapping[str, Any]] | None = None,
              item_overrides: Mapping[str, Mapping[str, Any]] | None = None) -> dict[str, list[str]]:
    """Object id -> fields still holding placeholder values (from every data file); a field given in
    the overrides (the ``hero_stats``, ``demigod_stats`` and ``item_stats`` options) is entered, so it
    is not listed."""
    out = {}
    for name, key, prefix, overrides in (("heroes", "heroes", "hero", hero_overrides),
                                         ("demigods", "demigods", "demigod", demigod_overrides),
                                         ("items", "items", "item", item_overrides)):
        for entry in _load(name)[key]:
            given = (overrides or {}).get(entry["id"], {})
            left = [f for f in entry.get("to_enter", ()) if not _entered(f, given)]
            if left:
                out[f"demigods:{prefix}:{entry['id']}"] = left
    return out
