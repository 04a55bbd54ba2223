"""A new Clash of the Heroes game from the start options (6.2).

Options: the quest fields of :func:`.quests.check`; ``heroes``, Team name -> its Heroes (Teams are
listed by name, alphabetically: a JSON object's key order does not survive the notation; Heroes as names, or
objects with ``id``, ``name``, ``hp``, ``armor``, ``defense``, ``weapons`` {name: {red, blue,
ranged, lethal, critical}}, ``flying``, ``resist``, ``items``); ``alliances`` (PvP I with four Teams: pairs of
Teams); ``board`` (:func:`.areas.board_from`); ``readings`` (:mod:`.readings`); ``pitfall_effects``
(number -> effects, for the Pitfalls this book does not print).

Hero and weapon stats are not in this book (ambiguities.md: config): an omitted stat takes
:data:`HERO_DEFAULTS`, marked *to enter*.

>>> s = new_game({"quest": "pvp2", "heroes": {"red": ["artemis"], "blue": ["shae"]}})
>>> [t.name for t in s.teams], s.team("red").crowns, s.hero("artemis").hp
(['blue', 'red'], 300, 10)
"""

from __future__ import annotations

import re
from typing import Any, Mapping

from . import conditions, hazards, quests
from .areas import board_from
from .quests import INFINITE
from .readings import read
from .state import Hero, SnsState, Team, Weapon

HERO_DEFAULTS = {"hp": 10, "armor": 1, "defense": 3}
"""Stats of a Hero whose options leave them out (*to enter*: the hero cards' values by Soulrank)."""
_ID = re.compile(r"^[a-z0-9][a-z0-9_-]*$")


def _weapon(name: str, spec: Any) -> Weapon:
    if not isinstance(spec, Mapping):
        raise ValueError(f"weapon {name!r}: must be an object like {{\"red\": 2, \"blue\": 1}}")
    unknown = set(spec) - {"red", "blue", "ranged", "lethal", "critical"}
    if unknown:
        raise ValueError(f"weapon {name!r}: unknown field(s) {sorted(unknown)}")
    red, blue = spec.get("red", 0), spec.get("blue", 0)
    for k, v in (("red", red), ("blue", blue)):
        if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= 8:
            raise ValueError(f"weapon {name!r}: {k} dice must be 0..8, not {v!r}")
    if red + blue == 0:
        raise ValueError(f"weapon {name!r}: a weapon rolls at least one die")
    return Weapon(red=red, blue=blue, ranged=bool(spec.get("ranged", False)), lethal=bool(spec.get("lethal", False)),
                  critical=tuple(str(c) for c in spec.get("critical", ())))


def _hero(team: str, spec: Any, soulrank: int) -> Hero:
    if isinstance(spec, str):
        spec = {"id": spec}
    if not isinstance(spec, Mapping) or "id" not in spec:
        raise ValueError(f"heroes.{team}: each Hero is a name or an object with an id, not {spec!r:.40}")
    hid = str(spec["id"]).strip().lower()
    if not _ID.match(hid):
        raise ValueError(f"heroes.{team}: Hero id {hid!r} must be lower-case letters, digits, - or _")
    stats = {k: spec.get(k, d) for k, d in HERO_DEFAULTS.items()}
    for k, v in stats.items():
        if isinstance(v, bool) or not isinstance(v, int) or v < (1 if k == "hp" else 0):
            raise ValueError(f"heroes.{team}.{hid}.{k}: {v!r} is not a sensible {k}")
    weapons = tuple((str(n), _weapon(str(n), w)) for n, w in dict(spec.get("weapons", {})).items())
    return Hero(id=hid, name=str(spec.get("name") or hid.replace("-", " ").title()), team=team,
                hp_max=stats["hp"], hp=stats["hp"], armor=stats["armor"], defense=stats["defense"],
                soulrank=soulrank, weapons=weapons, flying=bool(spec.get("flying", False)),
                resist=tuple(conditions.canonical(r).rstrip("12") for r in spec.get("resist", ())),
                items=tuple(str(i) for i in spec.get("items", ())))


def new_game(options: Mapping[str, Any]) -> SnsState:
    """The state before the Preparation.

    Raises:
        ValueError: the quest's grid refuses a field, or the Teams and Heroes do not fit it
            (each message names the field).
    """
    if not isinstance(options, Mapping):
        raise ValueError(f"sword-and-sorcery options must be a JSON object, got {options!r:.40}")
    heroes_opt = options.get("heroes")
    if not isinstance(heroes_opt, Mapping) or not heroes_opt:
        raise ValueError("heroes: give each Team's Heroes, e.g. {\"red\": [\"artemis\"], \"purple\": [\"shae\"]}")
    heroes_opt = {str(t).strip().lower(): v for t, v in sorted(heroes_opt.items(), key=lambda kv: str(kv[0]).lower())}
    names = list(heroes_opt)
    per = {len(v) if isinstance(v, (list, tuple)) else -1 for v in heroes_opt.values()}
    if -1 in per:
        raise ValueError("heroes: each Team's Heroes are a list")
    if len(per) != 1:
        raise ValueError("heroes_per_team: every Team fields the same number of Heroes (6.2: each setting is "
                         "applied equally to all Teams)")
    opts = dict(options)
    opts.setdefault("teams", len(names))
    opts.setdefault("heroes_per_team", per.pop())
    if opts["teams"] != len(names):
        raise ValueError(f"teams: {opts['teams']} Teams chosen but heroes names {len(names)}")
    quest_opts = {k: v for k, v in opts.items() if k not in ("heroes", "alliances", "board", "readings",
                                                               "pitfall_effects")}
    unknown = set(quest_opts) - {"quest", "act", "teams", "heroes_per_team", "soulrank", "day_night",
                                 "resurrections", "crowns", "crowns_per", "victory", "special", "kills_to_win"}
    if unknown:
        raise ValueError(f"unknown option(s) {sorted(unknown)}")
    quest = quests.check(quest_opts)
    if opts["heroes_per_team"] != quest.heroes_per_team:
        raise ValueError(f"heroes_per_team: {opts['heroes_per_team']} given but each Team lists "
                         f"{quest.heroes_per_team} Heroes")
    if len(set(names)) != len(names) or not all(_ID.match(n) for n in names):
        raise ValueError(f"heroes: Team names must be distinct lower-case words, got {names}")
    allies = {n: () for n in names}
    for pair in options.get("alliances", ()):
        pair = [str(p).lower() for p in pair]
        if "alliances" not in quest.special or quest.teams != 4:
            raise ValueError("alliances: only PvP Quest I with four Teams allows alliances")
        if len(pair) != 2 or any(p not in allies for p in pair) or any(allies[p] for p in pair) or pair[0] == pair[1]:
            raise ValueError(f"alliances: {pair} must pair two Teams without an ally yet")
        allies[pair[0]], allies[pair[1]] = (pair[1],), (pair[0],)
    heroes = []
    for team, specs in zip(names, heroes_opt.values()):
        for spec in specs:
            heroes.append(_hero(team, spec, quest.soulrank))
    ids = [h.id for h in heroes]
    if len(set(ids)) != len(ids):
        raise ValueError(f"heroes: a Hero is named twice in {ids}")
    tokens = quest.resurrections if quest.resurrections != INFINITE else INFINITE
    teams = tuple(Team(n, tokens, quest.crowns, allies=allies[n]) for n in names)
    board = board_from(options.get("board"))
    if len(board.open_shrines) < len(teams):
        raise ValueError(f"board: {len(teams)} Teams need an open Shrine each, the board has {len(board.open_shrines)}")
    effects = tuple((hazards.number(int(k) if str(k).isdigit() else k), tuple(v))
                    for k, v in dict(options.get("pitfall_effects", {})).items())
    return SnsState(quest=quest, options=read(options.get("readings")), teams=teams,
                    heroes=tuple((h.id, h) for h in heroes), board=board, pitfall_effects=effects)
