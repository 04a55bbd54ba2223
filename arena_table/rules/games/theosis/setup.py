"""Setting up a Theosis game from the ``start`` event's options (pp.4-9, p.20-21).

Options (JSON values):

``mode``
    ``pvp`` (default; 2-4 players take 3 Heroes, 5-6 players 2), ``blitz`` (2-4 players, 2 Heroes),
    ``team`` (``teams`` required: 2x2 takes 3 Heroes, or 2 with ``blitz``; 2x3 and 3x2 take 2),
    ``solo``/``coop`` (against monsters), ``light``/``heavy`` (semi co-op, p.20).
``players``
    Player names seated clockwise; the first chose the first Hero and holds the Initiative Marker.
``heroes``
    ``{player: [hero ids in selection order]}``.
``teams``
    ``{player: team}`` (team modes).
``archetypes``
    ``{hero: archetype id}``; default the first archetype on the mat.
``monsters``, ``boss``, ``stamina``
    Monster modes: monster kinds (default ``kotronas`` repeated), the Boss option, and an override
    of the Stamina Tokens each (default: the table of Heroes Facing Monsters Modes).
``fast``, ``expansion``
    Fast Action Preparation (Game Modes); Expansion Power cards (pp.46-47).
``pads``
    ``{"attacker": 1, "defender": 2}``: reader pads for power-card tags.
``arena_radius``
    Hexes from the centre hex to the Arena's edge (default 5, 91 hexes: the rulebook text does not
    print the board's size); moves beyond it are refused and the board view shows every hex.
``self_bless``
    ``true``: a hero may bless itself (a table's reading of Team Play; by default a Blessing
    targets another allied Hero, Powers and FAQ; see :class:`.state.Config`).
``speeds``, ``alignments``, ``power_values``, ``damage_types``, ``items``, ``thieves_guild_faces``
    Values printed on components but not in the rulebook text (see the ``ENTER`` markers in ``data/``).
"""

from __future__ import annotations

from typing import Any, Mapping

from arena_table.rules.kernel.mechanics.options import obj, whole
from . import catalog
from .state import ARENA_RADIUS, Config, Hero, Monster, Player, ThState

PVP_MODES = ("pvp", "blitz", "team")
MONSTER_MODES = ("solo", "coop", "light", "heavy")


def heroes_each(mode: str, players: int, teams: int, blitz: bool) -> int:
    """Heroes each player selects in a competitive mode (p.20 Game Modes).

    >>> heroes_each("pvp", 4, 4, False), heroes_each("pvp", 6, 6, False), heroes_each("blitz", 3, 3, False)
    (3, 2, 2)
    >>> heroes_each("team", 4, 2, False), heroes_each("team", 6, 3, False)
    (3, 2)

    Raises:
        ValueError: a player count or team shape the book does not offer.
    """
    if mode == "pvp":
        if 2 <= players <= 4:
            return 3
        if players in (5, 6):
            return 2
    elif mode == "blitz":
        if 2 <= players <= 4:
            return 2
    elif mode == "team":
        if teams * 2 == players == 4:
            return 2 if blitz else 3
        if (teams, players) in ((2, 6), (3, 6)):
            if blitz:
                raise ValueError("the book has no blitz variant for six players in teams")
            return 2
        raise ValueError(f"team modes are 2x2, 2x3 or 3x2 players, not {players} players in {teams} teams")
    raise ValueError(f"{mode} is not played by {players} players (p.20)")


def _config(options: Mapping[str, Any]) -> Config:
    pads = obj(options, "pads")
    known = catalog.powers()
    values = {}
    for pid, pair in obj(options, "power_values").items():
        if pid not in known:
            raise ValueError(f"power_values: unknown power {pid!r}")
        if not isinstance(pair, (list, tuple)) or len(pair) != 2:
            raise ValueError(f"power_values: {pid} must be [value, value], got {pair!r:.40}")
        values[pid] = (whole(f"power_values {pid}", pair[0]), whole(f"power_values {pid}", pair[1]))
    radius = whole("arena_radius", options.get("arena_radius", ARENA_RADIUS))
    if not 1 <= radius <= 12:
        raise ValueError(f"arena_radius must be 1-12 hexes, not {radius}")
    alignments = obj(options, "alignments")
    for hid, al in alignments.items():
        if hid not in catalog.heroes() or al not in catalog.ALIGNMENTS:
            raise ValueError(f"alignments: {hid!r} -> {al!r} is not a hero and an alignment")
    items = obj(options, "items")
    for k, v in items.items():
        if not isinstance(v, Mapping):
            raise ValueError(f"items: {k} must be a JSON object of the item's values, got {v!r:.40}")
    return Config(mode=options.get("mode", "pvp"), fast=bool(options.get("fast", False)),
                  expansion=bool(options.get("expansion", False)),
                  attacker_pad=whole("pads attacker", pads.get("attacker", 1)),
                  defender_pad=whole("pads defender", pads.get("defender", 2)),
                  speeds={k: whole(f"speeds {k}", v) for k, v in obj(options, "speeds").items()},
                  alignments=alignments, power_values=values,
                  damage_types=obj(options, "damage_types"),
                  items={k: {**v, "id": k} for k, v in items.items()},
                  thieves_faces={str(k): v for k, v in obj(options, "thieves_guild_faces").items()},
                  arena_radius=radius, self_bless=bool(options.get("self_bless", False)))


def setup(options: Mapping[str, Any]) -> ThState:
    """Initial state: players with 3 gold, Heroes at 9 Health, tracks on 0, monsters with Stamina.

    >>> s = setup({"players": ["Ann", "Bo"], "heroes": {"Ann": ["rochon", "rac", "norn"],
    ...                                                 "Bo": ["aer", "lug", "edhel"]}})
    >>> s.phase, s.initiative, [p.gold for p in s.players], s.heroes["aer"].health
    ('preparation', 'Ann', [3, 3], 9)

    Empty options give an idle table (phase ``idle``) that waits for a ``start`` event.

    Raises:
        ValueError: unknown mode, hero, archetype or monster; wrong number of players or heroes.
    """
    cfg = _config(options)
    if not options:
        # The table runs Theosis before its ``start`` event names the players: nothing to play yet.
        return ThState(config=cfg, players=(), heroes={}, phase="idle")
    if cfg.mode not in PVP_MODES + MONSTER_MODES:
        raise ValueError(f"unknown mode {cfg.mode!r}; modes: {', '.join(PVP_MODES + MONSTER_MODES)}")
    names = [str(p) for p in options.get("players", ())]
    if not names or len(set(names)) != len(names):
        raise ValueError("players must name each player once, clockwise")
    chosen = {str(k): list(v) for k, v in dict(options.get("heroes", {})).items()}
    if set(chosen) != set(names):
        raise ValueError(f"heroes must list the heroes of exactly the players {names}")
    all_heroes = [h for p in names for h in chosen[p]]
    unknown = [h for h in all_heroes if h not in catalog.heroes()]
    if unknown:
        raise ValueError(f"unknown hero(es) {unknown}; heroes: {', '.join(catalog.heroes())}")
    if len(set(all_heroes)) != len(all_heroes):
        raise ValueError("each hero can be chosen once")
    counts = {len(chosen[p]) for p in names}
    if len(counts) != 1:
        raise ValueError("every player selects the same number of heroes")
    each = counts.pop()
    teams = {p: p for p in names}
    monsters: list[Monster] = []
    if cfg.mode in PVP_MODES:
        if cfg.mode == "team":
            teams = {p: str(t) for p, t in dict(options.get("teams", {})).items()}
            if set(teams) != set(names):
                raise ValueError("team mode needs a team for every player")
        need = heroes_each(cfg.mode, len(names), len(set(teams.values())), bool(options.get("blitz", False)))
        if each != need:
            raise ValueError(f"{cfg.mode} with {len(names)} players: each selects {need} heroes, not {each}")
    else:
        if cfg.mode == "solo" and len(names) != 1:
            raise ValueError("solo is one player")
        teams = {p: "heroes" for p in names}
        boss = bool(options.get("boss", False))
        n, tokens = catalog.stamina_for(len(names), each, boss)
        kinds = list(options.get("monsters", [])) or (["apollyon"] if boss else ["kotronas"] * n)
        if len(kinds) != n:
            raise ValueError(f"{len(names)} players with {each} heroes each face {n} monster(s), not {len(kinds)}")
        tokens = int(options.get("stamina", tokens))
        for i, kind in enumerate(kinds):
            if kind not in catalog.monsters():
                raise ValueError(f"unknown monster {kind!r}")
            kind = catalog.monsters()[kind]["id"]
            mid = kind if kinds.count(kind) == 1 else f"{kind}-{i + 1}"
            monsters.append(Monster(id=mid, kind=kind, tokens=tokens))
    archetypes = dict(options.get("archetypes", {}))
    heroes = {}
    for p in names:
        for h in chosen[p]:
            arch = archetypes.get(h) or next(iter(catalog.heroes()[h]["archetypes"]))
            if arch not in catalog.heroes()[h]["archetypes"]:
                raise ValueError(f"{h} has no archetype {arch!r}")
            heroes[h] = Hero(id=h, player=p, archetype=arch)
    players = tuple(Player(id=p, team=teams[p], heroes=tuple(chosen[p])) for p in names)
    return ThState(config=cfg, players=players, heroes=heroes, monsters=tuple(monsters),
                   phase="fast" if cfg.fast else "preparation", initiative=names[0])
