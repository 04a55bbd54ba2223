"""Setting up a game: options, hero selection, Demigods, items, formation ('Achieving Victory' p.4,
'Hero Selection' p.11, 'Demigods' pp.16-19, 'Summary' p.35).

Options of ``start game=demigods options={...}``:

* ``mode``: ``slayer`` (default), ``tactics`` or ``advanced-tactics``;
* ``players``: 2 or 4 names (tactics modes: 2); ``teams``: ``{team: [player, player]}``
  for 4 players (default: the first two against the last two);
* ``heroes``: heroes per player (Slayer 3-6, 3-4 with 4 players; Tactics 4-6);
* ``selection``: ``chieftain``, ``divine-mirror`` or ``free-pick``; ``first``: who
  chooses first with Chieftain (the youngest player; default the first player);
* ``board``: ``{"cols": c, "rows": r, "obstacles": [[col, row, kind], ...], "entry_inset": 0|1}``;
  kinds: boulder, pitfall, spike-pit, high-ground, magma, portal, flash-freeze, stone; an Ascending
  Stone may name its Demigod's player, ``[col, row, "stone", player]`` (p.9)
  (figure positions are optional: without a board the control page supplies
  sides and distances with each attack);
* ``hero_stats``: ``{hero: {field: value}}`` values copied from the cards;
* ``demigod_stats``: ``{demigod: {field: value}}`` (ap, health, defenses, slots, abilities,
  ``primary``: ``{damage, dice, range, ...}``) and ``item_stats``: ``{item: {field: value}}``
  (damage, dice, range, type, ``passive``...): card values the rulebook does not print, which the
  game otherwise takes from the placeholders in ``data/*.json`` (listed as still to enter);
* ``dice_faces``: ``{attack type: [six results]}`` if the reader numbers faces differently;
* ``lineup``: ``{player: {"demigod": id, "heroes": [ids], "items": [ids by slot], "bind": {item: hero},
  "formation": [ids]}}`` to skip the guided selection and start playing at once (the formation
  defaults to initiative order, ties in the order given).
"""

from __future__ import annotations

import dataclasses
from typing import Any, Mapping

from . import data, divine
from .buffs import make
from .formation import check_order, default_order, relink
from .options import checked
from .state import MODES, Board, Character, DemigodsState, char, demigod_card, item_card, put, team_index

HERO_LIMITS = {("slayer", 2): (3, 6), ("slayer", 4): (3, 4), ("tactics", 2): (4, 6)}
"""Heroes per player, 'Achieving Victory' (p.4)."""
TACTICS_TABLE = {4: (10, 6), 5: (10, 6), 6: (13, 8)}
"""Heroes per player -> (maximum tactical points per team, points required to win) (p.4)."""
SAME_POWER_MAX = 3
"""'no player should have more than three heroes with the same divine power' (p.11)."""
SELECTIONS = ("chieftain", "divine-mirror", "free-pick")


def base_mode(mode: str) -> str:
    return "tactics" if mode.startswith("advanced") else mode


def new_game(options: Mapping[str, Any]) -> DemigodsState:
    """The state after ``start`` with ``options`` (see the module docstring).

    Raises:
        ValueError: an option of the wrong type or an unknown one (:func:`.options.checked`), unknown
            mode/selection, wrong number of players, bad teams or hero counts.
    """
    options = checked(options)
    mode = options.get("mode", "slayer")
    if mode not in MODES:
        raise ValueError(f"mode must be one of {', '.join(MODES)}; got {mode!r}")
    players = tuple(options.get("players") or ("Player 1", "Player 2"))
    if len(players) not in (2, 4) or len(set(players)) != len(players):
        raise ValueError(f"players: 2 or 4 distinct names, got {list(players)}")
    if base_mode(mode) == "tactics" and len(players) != 2:
        raise ValueError(f"{mode} is a 2-player duel (p.4)")
    if len(players) == 2:
        teams, names = ((players[0],), (players[1],)), players
    else:
        given = options.get("teams") or {f"{players[0]} & {players[1]}": list(players[:2]),
                                          f"{players[2]} & {players[3]}": list(players[2:])}
        names = tuple(given)
        teams = tuple(tuple(given[n]) for n in names)
        if len(teams) != 2 or sorted(p for t in teams for p in t) != sorted(players) or any(len(t) != 2 for t in teams):
            raise ValueError(f"teams must split the 4 players two and two, got {given}")
    low, high = HERO_LIMITS[(base_mode(mode), len(players))]
    n = options.get("heroes", low if mode == "slayer" else 4)
    if not low <= n <= high:
        raise ValueError(f"heroes: {mode} with {len(players)} players takes {low}-{high} heroes per player, got {n}")
    selection = options.get("selection", "free-pick")
    if selection not in SELECTIONS:
        raise ValueError(f"selection must be one of {', '.join(SELECTIONS)}; got {selection!r}")
    board = Board(**options["board"]) if options.get("board") else None
    strangers = sorted({p for _, _, p in board.stone_owners if p not in players}) if board else []
    if strangers:
        raise ValueError(f"board: Ascending Stone owner(s) {', '.join(strangers)} are not players ({', '.join(players)})")
    hero_stats = options["hero_stats"]
    for h in hero_stats:
        try:
            data.hero(h, hero_stats)
        except KeyError as exc:
            raise ValueError(f"hero_stats: {exc.args[0]}") from None
    primaries = sorted(set(options["item_stats"]) & set(data.primary_ids()))
    if primaries:
        raise ValueError(f"item_stats: {', '.join(primaries)} is a Demigod's primary item: give its values as "
                         'demigod_stats {demigod: {"primary": {...}}}')
    for key, known in (("demigod_stats", data.demigod_ids()), ("item_stats", data.item_ids())):
        unknown = sorted(set(options[key]) - set(known))
        if unknown:
            raise ValueError(f"{key}: unknown {key.split('_')[0]} {', '.join(unknown)}; known: {', '.join(known)}")
    first = options.get("first", players[0])
    if first not in players and first not in names:
        raise ValueError(f"first must name a player or team, got {first!r}")
    state = DemigodsState(mode=mode, players=players, teams=teams, team_names=tuple(names), heroes_per_player=n,
                          selection=selection, first=first, hero_stats=hero_stats,
                          demigod_stats=options["demigod_stats"], item_stats=options["item_stats"],
                          dice=data.dice_faces(options.get("dice_faces")), board=board,
                          points={name: 0 for name in names})
    return state


def chieftain_sides(first: int, totals: tuple[int, int]) -> list[int]:
    """Which side (0/1) makes each pick under Chieftain: 1, then 2 each, then the last one (p.11).

    >>> chieftain_sides(0, (3, 3))
    [0, 1, 1, 0, 0, 1]
    """
    counts, order, side, amount = [0, 0], [], first, 1
    while sum(counts) < sum(totals):
        if counts[side] >= totals[side]:
            side = 1 - side
        take = min(amount, totals[side] - counts[side])
        order += [side] * take
        counts[side] += take
        side, amount = 1 - side, 2
    return order


def _owned(state: DemigodsState, player: str) -> list[str]:
    return [h for p, h in state.picks if p == player]


def _power(state: DemigodsState, hero: str) -> str:
    return data.classes()[data.hero(hero, state.hero_stats)["class"]]["power"]


def pick_error(state: DemigodsState, player: str, hero: str) -> str:
    """Why ``player`` may not take ``hero`` now ('' if they may)."""
    if state.stage != "select":
        return "hero selection is over"
    if player not in state.players:
        return f"no player {player!r}; players: {', '.join(state.players)}"
    try:
        data.hero(hero, state.hero_stats)
    except KeyError as exc:
        return str(exc.args[0])
    if any(h == hero for _, h in state.picks):
        return f"{hero} is already taken"
    owned = _owned(state, player)
    if len(owned) >= state.heroes_per_player:
        return f"{player} already has {state.heroes_per_player} heroes"
    power = _power(state, hero)
    if sum(_power(state, h) == power for h in owned) >= SAME_POWER_MAX:
        return f"{player} already has {SAME_POWER_MAX} {power} heroes (p.11)"
    if state.selection == "chieftain":
        totals = tuple(state.heroes_per_player * len(t) for t in state.teams)
        first = team_index(state, state.first) if state.first in state.players else state.team_names.index(state.first)
        expected = chieftain_sides(first, totals)[len(state.picks)]
        if team_index(state, player) != expected:
            return f"Chieftain order: {state.team_names[expected]} picks now"
    if base_mode(state.mode) == "tactics":
        cap = TACTICS_TABLE[state.heroes_per_player][0]
        worth = sum(tactical_worth(state, h) for h in owned + [hero])
        if worth > cap:
            return f"{player}'s team would be worth {worth} tactical points, over the maximum {cap} (p.4)"
    return ""


def tactical_worth(state: DemigodsState, hero: str) -> int:
    """Tactical points a hero grants its killer's side, by class (p.4)."""
    return data.classes()[data.hero(hero, state.hero_stats)["class"]]["tactical_points"]


def pick(state: DemigodsState, player: str, hero: str) -> DemigodsState:
    return dataclasses.replace(state, picks=state.picks + ((player, hero),))


def choose_demigod_error(state: DemigodsState, player: str, demigod: str) -> str:
    if state.stage != "select":
        return "selection is over"
    if player not in state.players:
        return f"no player {player!r}"
    try:
        data.demigod(demigod)
    except KeyError as exc:
        return str(exc.args[0])
    return ""


def choose_demigod(state: DemigodsState, player: str, demigod: str) -> DemigodsState:
    card = demigod_card(state, demigod)
    chars = {k: v for k, v in state.chars.items() if not (v.kind == "demigod" and v.player == player)}
    # The base box holds two Demigod cards; a 4-player table fielding one twice gets a second id.
    cid = demigod if demigod not in chars else f"{demigod}-{player}"
    ch = Character(id=cid, card=demigod if cid != demigod else "", name=card["name"] if cid == demigod
                   else f"{card['name']} ({player})", player=player, kind="demigod", klass="demigod",
                   health=card["health"], ap_max=card["ap"], physical_defense=card["physical_defense"],
                   magical_defense=card["magical_defense"], skills=tuple(card["abilities"]),
                   items=(("",) * len(card["slots"])))
    return dataclasses.replace(state, chars={**chars, cid: ch})


def equip_error(state: DemigodsState, player: str, item: str, slot: int, hero: str) -> str:
    if state.stage != "select":
        return "items are chosen before the first round"
    dg = next((c for c in state.chars.values() if c.kind == "demigod" and c.player == player), None)
    if dg is None:
        return f"{player} has no Demigod yet"
    try:
        card = item_card(state, item)
    except KeyError as exc:
        return str(exc.args[0])
    slots = demigod_card(state, dg.card_id)["slots"]
    if not 0 <= slot < len(slots):
        return f"{dg.name} has slots 0..{len(slots) - 1}"
    if card["type"] not in slots[slot]:
        return f"slot {slot} of {dg.name} takes {'/'.join(slots[slot])}, not a {card['type']}"
    for c in state.chars.values():
        if c.kind == "demigod" and item in c.items and not (c.id == dg.id and c.items.index(item) == slot):
            return f"{card['name']} is already equipped by {c.name}"
    if card.get("choose_hero") and hero not in _owned(state, player):
        return f"{card['name']} needs one of {player}'s heroes (hero=...), got {hero!r}"
    return ""


def equip(state: DemigodsState, player: str, item: str, slot: int, hero: str) -> DemigodsState:
    dg = next(c for c in state.chars.values() if c.kind == "demigod" and c.player == player)
    items = list(dg.items)
    items[slot] = item
    bound = dict(state.bound)
    if hero:
        bound[f"{item}@{player}"] = hero
    return dataclasses.replace(put(state, dataclasses.replace(dg, items=tuple(items))), bound=bound)


def formation_error(state: DemigodsState, player: str, heroes: tuple[str, ...]) -> str:
    if state.stage != "select":
        return "the formation is made before the first round"
    if player not in state.players:
        return f"no player {player!r}"
    owned = _owned(state, player)
    init = {h: data.hero(h, state.hero_stats)["initiative"] for h in owned}
    init.update({h: 0 for h in heroes if h not in init})
    return check_order(heroes, init, owned)


def set_formation(state: DemigodsState, player: str, heroes: tuple[str, ...]) -> DemigodsState:
    return dataclasses.replace(state, formations={**state.formations, player: tuple(heroes)})


def begin_error(state: DemigodsState) -> str:
    """Why play cannot start yet ('' when it can)."""
    if state.stage != "select":
        return "the game has already begun"
    for p in state.players:
        owned = _owned(state, p)
        if len(owned) != state.heroes_per_player:
            return f"{p} has {len(owned)} of {state.heroes_per_player} heroes"
        if not any(c.kind == "demigod" and c.player == p for c in state.chars.values()):
            return f"{p} has no Demigod"
    if state.selection == "divine-mirror":
        for power in ("rage", "focus", "mana"):
            counts = {len([h for h in _owned(state, p) if _power(state, h) == power]) for p in state.players}
            if len(counts) > 1:
                return f"Divine Mirror deals each stack equally: {power} heroes differ between players (p.11)"
    return ""


def _hero_character(state: DemigodsState, hero: str, player: str) -> Character:
    card = data.hero(hero, state.hero_stats)
    cls = data.classes()[card["class"]]
    return Character(id=hero, name=card["name"], player=player, kind="hero", klass=card["class"],
                     health=card["health"], ap_max=card["ap"], physical_defense=card["physical_defense"],
                     magical_defense=card["magical_defense"], initiative=card["initiative"], attack=card["attack"],
                     attack_type=card["attack_type"], race=card["race"], power=cls["power"],
                     traits=tuple(card["traits"] if card.get("traits") is not None else cls["traits"]),
                     skills=tuple(card["skills"]), divine=divine.START[cls["power"]])


def begin(state: DemigodsState) -> DemigodsState:
    """Lay out the formations with their links, equip passive items; round 1 can start."""
    state = dataclasses.replace(state, stage="play")
    for p in state.players:
        owned = _owned(state, p)
        if p not in state.formations:
            init = {h: data.hero(h, state.hero_stats)["initiative"] for h in owned}
            state = set_formation(state, p, default_order(owned, init))
        state = put(state, *(_hero_character(state, h, p) for h in state.formations[p]))
        state = relink(state, p)
    for key, hero in state.bound.items():
        item_id = key.split("@")[0]
        card = item_card(state, item_id)
        if card.get("passive"):
            target = char(state, hero)
            state = put(state, dataclasses.replace(target, conditions=target.conditions + (
                make({**card["passive"], "passive": True}, target=target),)))
    return state


def apply_lineup(state: DemigodsState, lineup: Mapping[str, Mapping[str, Any]]) -> DemigodsState:
    """Apply the ``lineup`` option as if its picks, Demigods, items and formations were entered.

    Raises:
        ValueError: any of them would be illegal (the message says which and why).
    """
    state = dataclasses.replace(state, selection="free-pick")
    for player, spec in lineup.items():
        for hero in spec.get("heroes", ()):
            err = pick_error(state, player, hero)
            if err:
                raise ValueError(f"lineup {player}: {err}")
            state = pick(state, player, hero)
        err = choose_demigod_error(state, player, spec.get("demigod", ""))
        if err:
            raise ValueError(f"lineup {player}: {err}")
        state = choose_demigod(state, player, spec["demigod"])
        for slot, item in enumerate(spec.get("items", ())):
            if not item:
                continue
            hero = spec.get("bind", {}).get(item, "")
            err = equip_error(state, player, item, slot, hero)
            if err:
                raise ValueError(f"lineup {player}: {err}")
            state = equip(state, player, item, slot, hero)
        if spec.get("formation"):
            err = formation_error(state, player, tuple(spec["formation"]))
            if err:
                raise ValueError(f"lineup {player}: {err}")
            state = set_formation(state, player, tuple(spec["formation"]))
    err = begin_error(state)
    if err:
        raise ValueError(f"lineup: {err}")
    return begin(state)
