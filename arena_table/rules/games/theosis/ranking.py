"""Alignment bonus, gold allocation and the Hero Ranking (p.13, FAQ), and its changes in combat.

Step 1: every Hero favouring the alignment a track leans to gets 10, 20 or 30 gold.
Step 2: starting with the player to the right of the Initiative Marker holder and going
counter-clockwise, each player puts their gold on their Heroes (the holder goes last).
Step 3: Ranking 1-12 by gold on the mat; ties go by initiative order (FAQ).
"""

from __future__ import annotations

import dataclasses

from arena_table.rules.kernel.errors import Refused

from . import catalog
from .events import Allocate, SetRanking
from .mats import alignment_of, name
from .state import ThState, replace_hero, replace_player


def alignment_bonus(state: ThState) -> ThState:
    """Step 1 (p.13): 10 gold per track position to each Hero favouring the leading alignment.

    Heroes whose alignment is not entered (``alignment: null`` in ``heroes.json`` and no
    ``alignments`` option) get nothing.
    """
    for first, second in catalog.TRACKS:
        pos = state.alignment[first]
        if pos == 0:
            continue
        leader = first if pos > 0 else second
        for hid, h in state.heroes.items():
            if h.alive and alignment_of(state, hid) == leader:
                state = replace_hero(state, dataclasses.replace(h, gold=h.gold + 10 * abs(pos)))
    return state


def allocation_order(state: ThState) -> tuple[str, ...]:
    """Players in allocation order: right of the holder first, counter-clockwise, holder last (p.13).

    >>> from .setup import setup
    >>> s = setup({"players": ["A", "B", "C"], "heroes": {"A": ["rochon", "rac", "norn"],
    ...            "B": ["aer", "lug", "edhel"], "C": ["raug", "garav", "sauth"]}})
    >>> allocation_order(s)
    ('C', 'B', 'A')
    """
    order = state.initiative_order()
    return tuple(reversed(order[1:])) + order[:1]


def hero_initiative(state: ThState) -> list[str]:
    """Heroes in initiative order: players clockwise from the holder, each in selection order."""
    return [h for pid in state.initiative_order() for h in state.player(pid).heroes]


def compute_ranking(state: ThState) -> tuple[str, ...]:
    """Step 3: living heroes by gold, most first; ties by initiative order (FAQ)."""
    order = hero_initiative(state)
    alive = [h for h in order if state.heroes[h].alive]
    return tuple(sorted(alive, key=lambda h: (-state.heroes[h].gold, order.index(h))))


def allocate(state: ThState, ev: Allocate) -> ThState:
    if state.phase != "ranking":
        raise Refused("gold is allocated after the sixth Hierapolis turn")
    todo = [pid for pid in allocation_order(state) if not state.player(pid).allocated]
    if not todo or todo[0] != ev.player:
        raise Refused(f"{todo[0] if todo else 'nobody'} allocates gold now (counter-clockwise from the right "
                       f"of the Initiative Marker holder, p.13)")
    p = state.player(ev.player)
    negative = {h: v for h, v in ev.gold.items() if v < 0}
    if negative:  # gold is placed on the mats (p.13 Step 2): a hero cannot be given less than none
        raise Refused(f"gold placed on a Hero cannot be negative: "
                       f"{', '.join(f'{h}={v}' for h, v in negative.items())} (p.13 Step 2)")
    spent = sum(ev.gold.values())
    if spent > p.gold:
        raise Refused(f"{p.id} has {p.gold} gold to allocate, not {spent}")
    for hid, amount in ev.gold.items():
        if hid not in p.heroes or not state.heroes[hid].alive:
            raise Refused(f"{hid!r} is not a living hero of {p.id}")
        h = state.heroes[hid]
        state = replace_hero(state, dataclasses.replace(h, gold=h.gold + amount))
    state = replace_player(state, dataclasses.replace(state.player(p.id), gold=p.gold - spent, allocated=True))
    if all(x.allocated for x in state.players):  # the Ranking is set: flow.py begins the Arena
        state = dataclasses.replace(state, ranking=compute_ranking(state))
    return state


def set_ranking(state: ThState, ev: SetRanking) -> ThState:
    """Monster modes: the co-operating players set the Ranking as they prefer (Game Modes)."""
    if state.phase != "ranking" or not state.monsters:
        raise Refused("the Ranking is set freely only before the Arena in monster modes")
    alive = {h for h, x in state.heroes.items() if x.alive}
    if set(ev.order) != alive or len(ev.order) != len(alive):
        raise Refused(f"the order must list each living hero once: {', '.join(sorted(alive))}")
    return dataclasses.replace(state, ranking=tuple(ev.order))


def swap_down(state: ThState, hero_id: str) -> ThState:
    """Warcraft (errata p.38): the target switches places with the Hero one slot below; none if last.

    A removed Hero is out of the game (p.10): the slot below is the next Hero still in it."""
    r = list(state.ranking)
    i = r.index(hero_id)
    j = next((k for k in range(i + 1, len(r)) if state.heroes[r[k]].alive), None)
    if j is None:
        return state
    r[i], r[j] = r[j], r[i]
    return _reindex(state, tuple(r))


def move_up(state: ThState, hero_id: str) -> ThState:
    """Last Stand (p.41): the Hero rises one position, above the next Hero still in the game (removed
    Heroes are skipped, as for Warcraft); none if already the highest."""
    r = list(state.ranking)
    i = r.index(hero_id)
    j = next((k for k in range(i - 1, -1, -1) if state.heroes[r[k]].alive), None)
    if j is None:
        return state
    r[j], r[i] = r[i], r[j]
    return _reindex(state, tuple(r))


def _reindex(state: ThState, ranking: tuple[str, ...]) -> ThState:
    acting = state.ranking[state.acting] if state.phase == "combat" and state.acting < len(state.ranking) else None
    idx = ranking.index(acting) if acting in ranking else state.acting
    return dataclasses.replace(state, ranking=ranking, acting=idx)


def describe_ranking(state: ThState) -> str:
    return "; ".join(f"{i}. {name(state, h)} ({state.heroes[h].player}) {state.heroes[h].health} health"
                     for i, h in enumerate(state.ranking, 1))
