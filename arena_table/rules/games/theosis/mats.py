"""Bookkeeping on the Hero mats and Power hands: gems, Health, items, cards, tokens.

Small pure helpers shared by preparation, Arena and monster turns. They raise
:class:`~arena_table.rules.kernel.errors.Refused` with a plain reason.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from arena_table.rules.kernel.errors import Refused

from . import catalog
from .state import ALL_ITEMS, MAX_HEALTH, Hero, ThState, replace_hero, replace_player


# --- catalogue with the table's overrides ---------------------------------------------------

def item(state: ThState, item_id: str) -> dict[str, Any]:
    """An item record: the table's entered items first, then the book's examples."""
    if item_id in state.config.items:
        return state.config.items[item_id]
    if item_id in catalog.items():
        return catalog.items()[item_id]
    raise Refused(f"unknown item {item_id!r}; enter its stats with the setup option 'items'")


def power(pid: str) -> dict[str, Any]:
    try:
        return catalog.powers()[pid]
    except KeyError:
        raise Refused(f"unknown power {pid!r}") from None


def power_values(state: ThState, pid: str) -> tuple[int, int]:
    """(Attack, Defense) of a Power card, the table's entered values first."""
    if pid in state.config.power_values:
        return state.config.power_values[pid]
    values = power(pid)["values"]
    if values is None:
        raise Refused(f"the values of {power(pid)['name']} are not printed in the rulebook text; "
                       "enter them with the setup option 'power_values'")
    return values[0], values[1]


def damage_type(state: ThState, pid: str) -> str:
    """The Power's damage-type icon; Physical unless stated (Damage and Resistances)."""
    return state.config.damage_types.get(pid) or power(pid)["damage_type"] or "physical"


def alignment_of(state: ThState, hero_id: str) -> str | None:
    return state.config.alignments.get(hero_id) or catalog.heroes()[hero_id]["alignment"]


def speed_of(state: ThState, hero_id: str) -> int | None:
    """Hexes a Hero may move (p.6 Hero Details); Entangling Roots makes it 1 (p.43); None if not entered."""
    if "entangling-roots" in tokens_on(state, hero_id):
        return 1
    speed = state.config.speeds.get(hero_id, catalog.heroes()[hero_id]["speed"])
    return None if speed is None else int(speed)


def skills_of(state: ThState, hero_id: str) -> list[str]:
    h = state.heroes[hero_id]
    return [s["id"] for s in catalog.heroes()[hero_id]["archetypes"][h.archetype]["skills"]]


def name(state: ThState, some_id: str) -> str:
    if some_id in catalog.heroes():
        return catalog.heroes()[some_id]["name"]
    for m in state.monsters:
        if m.id == some_id:
            return catalog.monsters()[m.kind]["name"] + (some_id[len(m.kind):] if some_id != m.kind else "")
    if some_id in catalog.powers():
        return catalog.powers()[some_id]["name"]
    return some_id


# --- Health, gems, tokens -------------------------------------------------------------------

def alive_hero(state: ThState, hero_id: str) -> Hero:
    h = state.heroes.get(hero_id)
    if h is None:
        raise Refused(f"no hero {hero_id!r} in this game")
    if not h.alive:
        raise Refused(f"{name(state, hero_id)} has been removed from the game")
    return h


def damage(state: ThState, hero_id: str, amount: int) -> ThState:
    """Lower Health by ``amount``; at 0 the Hero is removed with its gems and tokens (p.10, p.43)."""
    h = state.heroes[hero_id]
    if not h.alive or amount <= 0:
        return state
    health = max(0, h.health - amount)
    state = replace_hero(state, dataclasses.replace(h, health=health))
    return remove(state, hero_id) if health == 0 else state


def remove(state: ThState, hero_id: str, *, forever: bool = False) -> ThState:
    h = state.heroes[hero_id]
    state = replace_hero(state, dataclasses.replace(h, health=0, alive=False, mana=(), cell=None, flipped=False,
                                                    no_resurrect=h.no_resurrect or forever, stealth=False))
    conditions = {k: v for k, v in state.conditions.items() if v != hero_id}
    return dataclasses.replace(state, conditions=conditions)


def heal(state: ThState, hero_id: str, amount: int) -> ThState:
    h = state.heroes[hero_id]
    if not h.alive or amount <= 0:
        return state
    return replace_hero(state, dataclasses.replace(h, health=min(MAX_HEALTH, h.health + amount)))


def add_gems(state: ThState, hero_id: str, count: int = 1, skill: str = "") -> ThState:
    """Place Mana gems in empty Skills (``skill`` first); gems without an empty Skill are lost (Hierapolis Locations)."""
    h = state.heroes[hero_id]
    if not h.alive:
        return state
    own = skills_of(state, hero_id)
    if skill and skill not in own:
        raise Refused(f"{name(state, hero_id)} has no skill {skill!r} (skills: {', '.join(own)})")
    mana = list(h.mana)
    order = ([skill] if skill else []) + own
    for _ in range(count):
        free = [s for s in order if s not in mana]
        if not free:
            break
        mana.append(free[0])
    return replace_hero(state, dataclasses.replace(h, mana=tuple(s for s in own if s in mana)))


def remove_gems(state: ThState, hero_id: str, count: int = 99) -> ThState:
    h = state.heroes[hero_id]
    return replace_hero(state, dataclasses.replace(h, mana=h.mana[:max(0, len(h.mana) - count)]))


def give_gems(state: ThState, specs: tuple[str, ...], player: str | None = None) -> ThState:
    """Gems given as ``hero`` or ``hero:skill`` specs (to ``player``'s heroes when given)."""
    for spec in specs:
        hero_id, _, skill = spec.partition(":")
        alive_hero(state, hero_id)
        if player and state.heroes[hero_id].player != player:
            raise Refused(f"{name(state, hero_id)} is not one of {player}'s heroes")
        state = add_gems(state, hero_id, 1, skill)
    return state


def place_token(state: ThState, token: str, target: str) -> ThState:
    """Put a Blessing/Curse token on ``target``, taking it off its former target (Power Management)."""
    return dataclasses.replace(state, conditions={**state.conditions, token: target})


def tokens_on(state: ThState, target: str, kind: str | None = None) -> list[str]:
    """Tokens lying on ``target`` (``kind``: ``blessing`` or ``curse``)."""
    return [t for t, on in state.conditions.items() if on == target and (kind is None or catalog.powers()[t]["type"] == kind)]


def clear_tokens(state: ThState, target: str, kind: str) -> ThState:
    drop = set(tokens_on(state, target, kind))
    return dataclasses.replace(state, conditions={k: v for k, v in state.conditions.items() if k not in drop})


# --- items ---------------------------------------------------------------------------------------

def equipped(state: ThState, hero_id: str, kind: str | None = None) -> list[dict[str, Any]]:
    """Items in play on a Hero (face-down items count as absent: all with Flesh and Blood, a kind with
    Sunder Weapon/Armor)."""
    h = state.heroes[hero_id]
    if ALL_ITEMS in h.items_off:
        return []
    off = h.items_off
    out = [item(state, i) for i in h.items]
    return [i for i in out if (kind is None or i["kind"] == kind) and i["kind"] not in off]


def mitigation(state: ThState, hero_id: str) -> tuple[set[str], set[str]]:
    """(protections, resistances) granted by Armor and Shields."""
    prot: set[str] = set()
    res: set[str] = set()
    for i in equipped(state, hero_id):
        if i["kind"] in ("armor", "shield"):
            prot.update(i.get("protection", ()))
            res.update(i.get("resistance", ()))
    return prot, res


def equip(state: ThState, hero_id: str, item_id: str, drop: str = "") -> ThState:
    """Equip ``item_id`` (after discarding ``drop``): two hands, one body armor (p.8, FAQ dual wield).

    Raises:
        Refused: unknown item, nothing to drop, or no free slot.
    """
    h = alive_hero(state, hero_id)
    new = item(state, item_id)
    items = list(h.items)
    if drop:
        if drop not in items:
            raise Refused(f"{name(state, hero_id)} does not carry {drop!r}")
        items.remove(drop)
    recs = [item(state, i) for i in items] + [new]
    hands = sum(int(i.get("hands", 1)) for i in recs if i["kind"] in ("weapon", "shield"))
    bodies = sum(1 for i in recs if i["kind"] == "armor")
    slots = catalog.heroes()[hero_id].get("slots") or {}
    if hands > 2 or bodies > 1 or len(recs) > int(slots.get("count", 3) if isinstance(slots, dict) else 3):
        raise Refused(f"{name(state, hero_id)} has no free slot for {new['name']}; drop an item first")
    return replace_hero(state, dataclasses.replace(h, items=tuple(items) + (item_id,)))


# --- Power hands ---------------------------------------------------------------------------------

def play_card(state: ThState, player_id: str, pid: str) -> ThState:
    """Move a Power from hand to the discard pile; when the hand empties, take the other cards back
    at once, the last one staying in the discard pile (Power Management, FAQ).

    Raises:
        Refused: the card is not in the player's hand.
    """
    p = state.player(player_id)
    if pid not in p.hand:
        held = ", ".join(p.hand) or "nothing"
        raise Refused(f"{player_id} does not hold {name(state, pid)} (hand: {held})")
    hand = tuple(c for c in p.hand if c != pid)
    discard = p.discard + (pid,)
    if not hand:
        hand, discard = discard[:-1], discard[-1:]
    return replace_player(state, dataclasses.replace(p, hand=hand, discard=discard))


def take_back(state: ThState, player_id: str, pid: str) -> ThState:
    """Take a card from the discard pile to the hand (Ungrave)."""
    p = state.player(player_id)
    if pid not in p.discard:
        raise Refused(f"{name(state, pid)} is not in {player_id}'s discard pile")
    return replace_player(state, dataclasses.replace(p, hand=p.hand + (pid,),
                                                     discard=tuple(c for c in p.discard if c != pid)))


def discard_from_hand(state: ThState, player_id: str, pid: str) -> ThState:
    """An opponent's card discarded by Blind/Neutralize (no refill unless the hand empties)."""
    return play_card(state, player_id, pid)
