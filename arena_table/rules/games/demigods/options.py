"""Checking the ``start game=demigods options={...}`` values before a game is set up.

Each option is read by the shared helpers of :mod:`..mechanics.options`, so a wrong value is
refused with a message naming it (``heroes: 'three' is not a whole number``) instead of a
traceback, a letter-by-letter reading of a string, or a game that starts and fails later
(a hero whose AP is text). See :mod:`.setup` for what each option means.
"""

from __future__ import annotations

from typing import Any, Mapping

from arena_table.rules.kernel.mechanics import options as opt
from . import data

OPTIONS = ("mode", "players", "teams", "heroes", "selection", "first", "board", "hero_stats", "demigod_stats",
           "item_stats", "dice_faces", "lineup")
OBSTACLES = ("boulder", "pitfall", "spike-pit", "high-ground", "magma", "portal", "flash-freeze", "stone")
"""The eight obstacle kinds of 'Place Obstacles' (p.9); ``stone`` is the Ascending Stone."""
RACES = ("human", "elf", "orc", "dwarf")
"""Races by the colour of the class-trait section (p.10)."""
NUMBER_FIELDS = ("ap", "health", "initiative", "attack", "physical_defense", "magical_defense")
HERO_STAT_FIELDS = data.HERO_FIELDS + ("traits", "skills")
ITEM_TYPES = ("weapon", "armor", "accessory")
"""Equipment slot types ('Demigod Items', p.18)."""
TARGETS = ("enemy", "ally", "any", "self")
ATTACK_FIELDS = ("name", "range", "damage", "dice", "pure", "target")
"""Fields of an attack printed on a card (a Demigod's primary item, an active item)."""
DEMIGOD_STAT_FIELDS = ("name", "ap", "health", "physical_defense", "magical_defense", "slots", "abilities", "primary")
ITEM_STAT_FIELDS = ATTACK_FIELDS + ("type", "active", "ends_turn", "passive", "on_hero_death", "on_critical")
CHOICES = {"class": lambda: tuple(data.classes()), "race": lambda: RACES, "attack_type": lambda: data.ATTACK_TYPES,
           "target": lambda: TARGETS, "type": lambda: ITEM_TYPES}
"""Card fields whose value is one of a known list."""
LINEUP_KEYS = ("demigod", "heroes", "items", "bind", "formation")
BOARD_KEYS = ("id", "cols", "rows", "obstacles", "entry_inset", "stone_owners")


def checked(options: Any) -> dict[str, Any]:
    """``options`` with every value checked and normalised (names as lists of text, numbers as int).

    Raises:
        ValueError: the options are not a JSON object, a key is unknown, or a value has the wrong
            type or range; the message names the option.
    """
    if not isinstance(options, Mapping):
        raise ValueError(f"demigods options must be a JSON object, got {options!r:.40}")
    unknown = sorted(str(k) for k in options if k not in OPTIONS)
    if unknown:
        raise ValueError(f"unknown option(s) {', '.join(unknown)}; options: {', '.join(OPTIONS)}")
    out: dict[str, Any] = {}
    for key in ("mode", "selection", "first"):
        if options.get(key) is not None:
            out[key] = opt.text(key, options[key])
    if options.get("players") is not None:
        out["players"] = opt.names("players", options["players"])
        if not out["players"]:
            raise ValueError("players: no names given")
    if options.get("heroes") is not None:
        out["heroes"] = opt.whole("heroes", options["heroes"])
    if options.get("teams"):
        out["teams"] = {opt.text("teams", name): opt.names(f"teams {name}", members)
                        for name, members in opt.obj(options, "teams").items()}
    if options.get("board"):
        named = options["board"]
        out["board"] = board({"id": named} if isinstance(named, str) else opt.obj(options, "board"))
    out["hero_stats"] = {str(h): hero_stats(str(h), v) for h, v in opt.obj(options, "hero_stats").items()}
    out["demigod_stats"] = {str(d): card_stats(f"demigod_stats {d}", v, DEMIGOD_STAT_FIELDS)
                            for d, v in opt.obj(options, "demigod_stats").items()}
    out["item_stats"] = {str(i): card_stats(f"item_stats {i}", v, ITEM_STAT_FIELDS)
                         for i, v in opt.obj(options, "item_stats").items()}
    faces = opt.obj(options, "dice_faces")
    for die, values in faces.items():
        if not isinstance(values, (list, tuple)):
            raise ValueError(f"dice_faces {die} must be a list of six results, got {values!r:.40}")
    out["dice_faces"] = faces
    out["lineup"] = {str(p): lineup_entry(str(p), v) for p, v in opt.obj(options, "lineup").items()}
    return out


def board(b: Mapping[str, Any]) -> dict[str, Any]:
    """The ``board`` option: ``cols`` x ``rows`` fields, obstacles on the board, entry rows apart;
    or ``id``, a battlefield of ``data/boards.json`` (``"demigods-arena"``: its size, pitfalls and
    entry inset), which the other keys change (an obstacle given replaces the printed one on its field).

    Raises:
        ValueError: a missing size, a size too small for two entry rows, an obstacle off the board,
            of an unknown kind, or two obstacles on one field.
    """
    opt.only_keys("board", b, BOARD_KEYS)
    printed: dict[tuple[int, int], str] = {}
    if b.get("id"):  # a shipped battlefield (data/boards.json); the keys given change it
        defs = data.boards()
        if b["id"] not in defs:
            raise ValueError(f"board: no battlefield {b['id']!r} (battlefields: {', '.join(defs)})")
        d = defs[b["id"]]
        b = {"cols": d.layout.cols, "rows": d.layout.rows, **data.board_extras(d.id), **b}
        printed = {cell: kind for kind in OBSTACLES for cell in d.feature(kind)}
    for key in ("cols", "rows"):
        if key not in b:
            raise ValueError(f"board needs {key} (fields across and down)")
    inset = opt.whole("board entry_inset", b.get("entry_inset", 0), 0, 2)
    cols = opt.whole("board cols", b["cols"], 1, 40)
    rows = opt.whole("board rows", b["rows"], 2 + 2 * inset, 40)
    raw = b.get("obstacles") or []
    if not isinstance(raw, (list, tuple)):
        raise ValueError(f"board obstacles must be a list of [col, row, kind], got {raw!r:.40}")
    obstacles, owners, seen = [], [], set()
    for entry in raw:
        stone = isinstance(entry, (list, tuple)) and len(entry) == 4 and entry[2] == "stone"
        if not isinstance(entry, (list, tuple)) or not (len(entry) == 3 or stone):
            raise ValueError(f"board obstacles: {entry!r:.40} is not [col, row, kind] (or [col, row, \"stone\", player])")
        cell = (opt.whole("board obstacle col", entry[0], 0, cols - 1),
                opt.whole("board obstacle row", entry[1], 0, rows - 1))
        kind = opt.choice("board obstacle kind", entry[2], OBSTACLES)
        if cell in seen:
            raise ValueError(f"board obstacles: two obstacles on field {list(cell)}")
        seen.add(cell)
        obstacles.append((cell[0], cell[1], kind))
        if stone:
            owners.append((cell[0], cell[1], opt.text("board stone owner", entry[3])))
    given = {(c, r) for c, r, _ in obstacles}
    obstacles = [(c, r, k) for (c, r), k in printed.items() if (c, r) not in given and c < cols and r < rows] + obstacles
    for entry in b.get("stone_owners") or ():  # already normalised (options checked twice)
        if not isinstance(entry, (list, tuple)) or len(entry) != 3 or (entry[0], entry[1], "stone") not in obstacles:
            raise ValueError(f"board stone_owners: {entry!r:.40} is not [col, row, player] of a stone")
        owners.append((entry[0], entry[1], opt.text("board stone owner", entry[2])))
    out = {"cols": cols, "rows": rows, "obstacles": tuple(obstacles), "entry_inset": inset,
           "stone_owners": tuple(dict.fromkeys(owners))}
    return {"id": str(b["id"]), **out} if b.get("id") else out


def hero_stats(hero: str, stats: Any) -> dict[str, Any]:
    """One hero's ``hero_stats`` entry (see :func:`card_stats`).

    Raises:
        ValueError: not an object, an unknown field, or a value of the wrong type (naming hero and field).
    """
    return card_stats(f"hero_stats {hero}", stats, HERO_STAT_FIELDS)


def card_stats(where: str, stats: Any, fields: tuple[str, ...]) -> dict[str, Any]:
    """A hero's, Demigod's or item's card values (``hero_stats``/``demigod_stats``/``item_stats``
    entry), each of the type its card prints: numbers whole (AP and health at least 1), class, race,
    attack type and traits among the known ones, attack dice among the attack types, ranges a number
    of fields, ``self`` or ``global``; skills and conditions (``passive``, ``on_hero_death``,
    ``on_critical``, ``abilities``) are JSON objects in the form of ``data/*.json``.

    Raises:
        ValueError: not an object, an unknown field, or a value of the wrong type (naming the field).
    """
    if not isinstance(stats, Mapping):
        raise ValueError(f"{where} must be a JSON object of card fields, got {stats!r:.40}")
    opt.only_keys(where, stats, fields)
    out: dict[str, Any] = {}
    for field, value in stats.items():
        key = f"{where} {field}"
        if field in ("ap", "health"):
            out[field] = opt.whole(key, value, 1, 99)
        elif field in NUMBER_FIELDS or field == "damage":
            out[field] = opt.whole(key, value, 0, 99)
        elif field in CHOICES:
            out[field] = opt.choice(key, value, CHOICES[field]())
        elif field == "traits":
            known = sorted({t for c in data.classes().values() for t in c["traits"]})
            out[field] = [opt.choice(key, t, known) for t in opt.names(key, value)]
        elif field == "range":
            out[field] = value if value in ("self", "global") else opt.whole(key, value, 0, 40)
        elif field == "dice":
            out[field] = [opt.choice(key, d, data.ATTACK_TYPES) for d in opt.names(key, value)]
        elif field in ("pure", "active", "ends_turn"):
            if not isinstance(value, bool):
                raise ValueError(f"{key} must be true or false, got {value!r:.40}")
            out[field] = value
        elif field == "slots":
            if not isinstance(value, (list, tuple)):
                raise ValueError(f"{key} must be a list of slots, each a list of item types, got {value!r:.40}")
            out[field] = [[opt.choice(key, t, ITEM_TYPES) for t in opt.names(key, slot)] for slot in value]
        elif field == "primary":
            out[field] = card_stats(key, value, ATTACK_FIELDS)
        elif field in ("passive", "on_hero_death"):
            out[field] = dict(opt.obj(stats, field))
        elif field in ("skills", "abilities", "on_critical"):
            if not isinstance(value, (list, tuple)) or not all(isinstance(v, Mapping) for v in value):
                raise ValueError(f"{key} must be a list of JSON objects, got {value!r:.40}")
            out[field] = [dict(v) for v in value]
        else:  # name
            out[field] = opt.text(key, value)
    return out


def lineup_entry(player: str, spec: Any) -> dict[str, Any]:
    """One player's ``lineup`` entry: ``demigod``, ``heroes``, ``items``, ``bind``, ``formation``.

    Raises:
        ValueError: not an object, an unknown key, or a value of the wrong type (naming the player).
    """
    where = f"lineup {player}"
    if not isinstance(spec, Mapping):
        raise ValueError(f"{where} must be a JSON object, got {spec!r:.40}")
    opt.only_keys(where, spec, LINEUP_KEYS)
    items = spec.get("items") or []
    if not isinstance(items, (list, tuple)):
        raise ValueError(f"{where} items must be a list of item ids by slot ('' for an empty slot), "
                         f"got {items!r:.40}")
    bind = spec.get("bind") or {}
    if not isinstance(bind, Mapping):
        raise ValueError(f"{where} bind must be a JSON object {{item: hero}}, got {bind!r:.40}")
    return {"demigod": opt.text(f"{where} demigod", spec.get("demigod", "")) if spec.get("demigod") else "",
            "heroes": opt.names(f"{where} heroes", spec.get("heroes")),
            "items": [opt.text(f"{where} items", i) if i else "" for i in items],
            "bind": {opt.text(f"{where} bind", k): opt.text(f"{where} bind {k}", v) for k, v in bind.items()},
            "formation": opt.names(f"{where} formation", spec.get("formation"))}
