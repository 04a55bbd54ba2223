"""A game's ``start`` options turned into the initial state.

Options (all optional but ``heroes``)::

    mode          "fire" (Playing with Fire, solo) or "fellowship" (co-op, 1-4 players)
    heroes        ["ael", "dral"] or {"ael": {"name": "Áel", "player": "Ann", "health": 14, "reputation": 3, "gold": 5}}
    difficulty    "normal" | "hard" | "heroic" (Monster Cards, Setup)
    monsters      card id -> card fields laid over data/monsters.json (values to enter)
    cards         {"silver": {type: fields}, "gold": {...}} laid over data/cards.json
    silver_cards / gold_cards   the 3 types of each in play (Silver and Gold Cards, Setup, l.572)
    combat_die, hero_health, die_of_hope_start, die_of_hope_max   base-game values to enter
    silver, gold  cards already in the caches
    familiars, alignment   Eltrea's Familiar cards (Move points, Reputation to Summon; to enter) and Leaf/Moon
    leader        Fellowship: the Leader of round 1 (chosen at random, l.856)
    earth, shii, air_single, gaar_tests, creature_now, silver_bottom, silver_magic_any,
    convert_repeat, own_heal_token, split_exchange   readings of ambiguities.md (see state.Config)

>>> s = new_game({"heroes": ["ael"]})
>>> s.heroes["ael"].name, s.config.mode, s.heroes["ael"].health
('Áel', 'fire', 12)
"""

from __future__ import annotations

from typing import Any, Mapping

from arena_table.rules.kernel.mechanics import options as opt

from . import caches, catalog
from .state import Config, EuState, Familiar, Hero

HEROES = {"ael": "Áel", "dral": "Dral", "keleia": "Keleia", "maeldur": "Maeldur", "skoldur": "Skoldur",
          "taesiri": "Taesiri", "eltrea": "Eltrea"}
"""The base game's Heroes and the expansion's Eltrea (Hero Tiles, l.368-536; New Hero: Eltrea)."""
KEYS = ("mode", "heroes", "difficulty", "monsters", "cards", "silver_cards", "gold_cards", "combat_die",
        "hero_health", "die_of_hope_start", "die_of_hope_max", "silver", "gold", "leader", "earth", "shii",
        "air_single", "gaar_tests", "creature_now", "silver_bottom", "silver_magic_any", "convert_repeat",
        "own_heal_token", "split_exchange", "familiars", "alignment")
CHOICES = {"earth": ("monster", "hero"), "shii": ("end", "first"), "gaar_tests": ("every", "entry"),
           "silver_bottom": ("silver", "gold")}
FLAGS = ("air_single", "creature_now", "silver_magic_any", "convert_repeat", "own_heal_token", "split_exchange")


def _flag(key: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"{key} must be true or false, got {value!r:.40}")
    return value


def _cards(options: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    given = opt.obj(options, "cards")
    opt.only_keys("cards", given, ("silver", "gold"))
    out = {}
    for cache in ("silver", "gold"):
        types = catalog.merged(catalog.cards()[cache], opt.obj(given, cache), f"cards.{cache}")
        chosen = opt.names(f"{cache}_cards", options.get(f"{cache}_cards"))
        if chosen:
            unknown = [t for t in chosen if t not in types]
            if unknown:
                raise ValueError(f"{cache}_cards: unknown type(s) {', '.join(unknown)}; types: {', '.join(types)}")
            if len(set(chosen)) != 3:
                raise ValueError(f"{cache}_cards: choose 3 different {cache.title()} card types (l.572)")
            types = {t: types[t] for t in chosen}
        for t, c in types.items():
            if not isinstance(c.get("boxes"), list) or not c["boxes"]:
                raise ValueError(f"cards.{cache}.{t}: boxes must be a list of effects")
        out[cache] = types
    return out


def _monsters(options: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    cards = catalog.merged(catalog.monsters(), opt.obj(options, "monsters"), "monsters")
    for mid, m in cards.items():
        attacks = m.get("attacks")
        if not isinstance(attacks, list) or not attacks or any(not isinstance(a, Mapping) or "min" not in a
                                                                 for a in attacks):
            raise ValueError(f"monsters.{mid}: attacks must be a list of ranges with their lowest value (min)")
        mins = [a["min"] for a in attacks]
        if mins != sorted(set(mins)):
            raise ValueError(f"monsters.{mid}: attack ranges rise left to right, got mins {mins}")
        for k in ("health", "gaar", "chaos", "silver", "gold"):
            opt.whole(f"monsters.{mid}.{k}", m.get(k, 0), 0)
    return cards


def _heroes(options: Mapping[str, Any], health: int) -> dict[str, Hero]:
    raw = options.get("heroes")
    if isinstance(raw, Mapping):
        items = list(raw.items())
    else:
        items = [(h, {}) for h in opt.names("heroes", raw)]
    if not items:
        raise ValueError("heroes: name the Heroes at the table, e.g. [\"ael\"]")
    out = {}
    for hid, fields in items:
        fields = opt.obj({"h": fields}, "h")
        opt.only_keys(f"heroes.{hid}", fields, ("name", "player", "health", "reputation", "gaar", "gold"))
        out[hid] = Hero(id=hid, name=fields.get("name", HEROES.get(hid, hid.title())),
                        player=fields.get("player", HEROES.get(hid, hid.title())),
                        health=opt.whole(f"heroes.{hid}.health", fields.get("health", health), 1),
                        reputation=opt.whole(f"heroes.{hid}.reputation", fields.get("reputation", 0), 0),
                        gaar=opt.whole(f"heroes.{hid}.gaar", fields.get("gaar", 0), 0),
                        purse={"gold": opt.whole(f"heroes.{hid}.gold", fields["gold"], 0)} if "gold" in fields else {})
    return out


def new_game(options: Mapping[str, Any]) -> EuState:
    """The initial state for ``options`` (see the module docstring).

    Raises:
        ValueError: an unknown option or a value out of its range, naming the option.
    """
    if not isinstance(options, Mapping):
        raise ValueError(f"euthia options must be a JSON object, got {options!r:.40}")
    opt.only_keys("options", options, KEYS)
    base = catalog.base()
    mode = opt.choice("mode", options.get("mode", "fire"), ("fire", "fellowship"))
    die = options.get("combat_die", base["combat_die"])
    if not isinstance(die, list) or len(die) != 6 or any(not isinstance(f, list) or any(
            s not in ("blank", "gaar", "silver", "chaos") for s in f) for f in die):
        raise ValueError("combat_die: six faces, each a list of symbols blank / gaar / silver / chaos")
    values = {k: opt.whole(k, options.get(k, base[k]), 1) for k in ("hero_health", "die_of_hope_start",
                                                                    "die_of_hope_max")}
    readings = {k: opt.choice(k, options[k], v) for k, v in CHOICES.items() if k in options}
    readings.update({k: _flag(k, options[k]) for k in FLAGS if k in options})
    cfg = Config(mode=mode, difficulty=opt.choice("difficulty", options.get("difficulty", "normal"),
                                                  ("normal", "hard", "heroic")),
                 monsters=_monsters(options), cards=_cards(options),
                 combat_die=tuple(tuple(f) for f in die), **values,
                 entered=tuple(k for k in base["to_enter"] if k in options),
                 familiars=catalog.merged(catalog.familiars(), opt.obj(options, "familiars"), "familiars"),
                 alignment=opt.choice("alignment", options.get("alignment", "leaf"), ("leaf", "moon")), **readings)
    heroes = _heroes(options, cfg.hero_health)
    if mode == "fire" and len(heroes) != 1:
        raise ValueError("heroes: Playing with Fire is a solo game (one Hero)")
    if mode == "fellowship" and len(heroes) > 4:
        raise ValueError("heroes: Fellowship seats 1-4 players")
    silver, gold, _ = caches.add(0, 0, opt.whole("silver", options.get("silver", 0), 0),
                                 opt.whole("gold", options.get("gold", 0), 0), cfg.convert_repeat)
    leader = options.get("leader", "")
    if leader and leader not in heroes:
        raise ValueError(f"leader: {leader!r} is not one of the Heroes")
    return EuState(config=cfg, heroes=heroes, order=tuple(heroes), silver=silver, gold=gold, first_leader=leader,
                   familiar=Familiar() if "eltrea" in heroes else None)


def unentered(state: EuState) -> dict[str, list[str]]:
    """What is still to enter from the components (shown by the control page)."""
    return catalog.unentered(state.config.monsters, state.config.cards, {k: 1 for k in state.config.entered},
                             state.config.familiars if "eltrea" in state.heroes else {})

