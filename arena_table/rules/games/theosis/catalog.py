"""The printed catalogue of Theosis: heroes, skills, powers, rituals, items, monsters, locations.

Everything is read once from the packaged ``data/*.json`` files. Values the
rulebook does not print as text (speeds, most power values, damage-type icons,
item tokens) carry an ``ENTER`` marker in those files; a table can override
them with setup options (see :mod:`arena_table.rules.games.theosis.setup`).
"""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources
from typing import Any

VALUE_ORDER: tuple[tuple[int, int], ...] = ((4, 0), (3, 1), (2, 2), (1, 1), (1, 3), (0, 4))
"""Pile order of each alignment's Power cards, top first (p.4 Order of Powers)."""
ALIGNMENTS = ("warmonger", "guardian", "deceitful", "righteous", "vengeful", "merciful")
TRACKS: tuple[tuple[str, str], ...] = (("warmonger", "guardian"), ("deceitful", "righteous"),
                                       ("vengeful", "merciful"))
"""The three Alignment tracks; positive positions lean to the first alignment (p.4, p.13)."""
TRACK_MAX = 3
"""Track positions run -3..+3: the bonus is 10, 20 or 30 gold (p.13 Step 1)."""
DAMAGE_TYPES = ("physical", "light", "fire", "void", "ice", "acid")
"""Damage and Resistances; acid is the monsters' sixth type (p.24)."""
SKULL_FACES = ("dash", "two-pips", "four-pips", "sword", "lightning", "spade")
"""Skullduggery die faces 1-6, the row order of every monster table (Monster Stat Blocks)."""


def _load(name: str) -> dict[str, Any]:
    return json.loads(resources.files("arena_table.rules.games.theosis").joinpath("data", name).read_text(encoding="utf-8"))


@lru_cache(maxsize=None)
def heroes() -> dict[str, dict[str, Any]]:
    """Hero id -> hero record (``heroes.json``)."""
    return {h["id"]: h for h in _load("heroes.json")["heroes"]}


@lru_cache(maxsize=None)
def skills() -> dict[str, dict[str, Any]]:
    """Skill id -> skill record with ``hero`` and ``archetype`` added.

    >>> skills()["corona"]["bonus"], skills()["corona"]["type"]
    (1, 'light')
    """
    out = {}
    for h in heroes().values():
        for arch_id, arch in h["archetypes"].items():
            for s in arch["skills"]:
                out[s["id"]] = {**s, "hero": h["id"], "archetype": arch_id}
    return out


@lru_cache(maxsize=None)
def powers() -> dict[str, dict[str, Any]]:
    """Power id -> power card record (``powers.json``).

    >>> powers()["fiery-purge"]["values"], powers()["fiery-purge"]["damage_type"]
    ([4, 0], 'fire')
    """
    return {p["id"]: p for p in _load("powers.json")["powers"]}


@lru_cache(maxsize=None)
def rituals() -> dict[str, dict[str, Any]]:
    return {r["id"]: r for r in _load("powers.json")["rituals"]}


@lru_cache(maxsize=None)
def items() -> dict[str, dict[str, Any]]:
    """Item id -> Weapon/Armor/Artifact record printed in the book's examples."""
    return {i["id"]: i for i in _load("items.json")["items"]}


@lru_cache(maxsize=None)
def monsters_data() -> dict[str, Any]:
    return _load("monsters.json")


@lru_cache(maxsize=None)
def monsters() -> dict[str, dict[str, Any]]:
    """Monster kind -> stat block (also reachable by the ``aka`` names, e.g. Petronas)."""
    out = {}
    for m in monsters_data()["monsters"]:
        out[m["id"]] = m
        for alias in m.get("aka", ()):
            out[alias] = m
    return out


@lru_cache(maxsize=None)
def locations() -> dict[str, Any]:
    return _load("locations.json")


def stamina_for(players: int, heroes_each: int, boss: bool = False) -> tuple[int, int]:
    """(monsters, Stamina tokens each) for a monster mode (table of Heroes Facing Monsters Modes).

    >>> stamina_for(2, 2)
    (1, 8)
    >>> stamina_for(6, 2, boss=True)
    (1, 10)

    Raises:
        ValueError: the table has no row for that combination.
    """
    for p, h, n, tokens, boss_tokens in monsters_data()["stamina_table"]["rows"]:
        if (p, h) == (players, heroes_each):
            if boss:
                if boss_tokens is None:
                    raise ValueError(f"the book offers a Boss only to 12 heroes, not {players}x{heroes_each}")
                return 1, boss_tokens
            return n, tokens
    raise ValueError(f"no Stamina row for {players} player(s) with {heroes_each} heroes each (Game Modes)")


def object_ids() -> list[str]:
    """Every taggable object, ``theosis:<kind>:<id>`` (the NFC tag registry's catalogue)."""
    out = [f"theosis:hero:{h}" for h in heroes()]
    out += [f"theosis:power:{p}" for p in powers()]
    out += [f"theosis:ritual:{r}" for r in rituals()]
    for i in items().values():
        out.append(f"theosis:{'artifact' if i.get('artifact') else i['kind']}:{i['id']}")
    out += [f"theosis:monster:{m['id']}" for m in monsters_data()["monsters"]]
    return out
