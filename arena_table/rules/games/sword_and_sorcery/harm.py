"""Damage, healing, conditions and death on the state (6.5, Body Conditions).

Death: at 0 HP a Hero becomes a Ghost Soul; in Clash of the Heroes "the death of a Hero does not
decrease his Soulrank" and a dead Hero "may keep the Items in his Inventory" (6.5). The Ghost Soul
carries no Body Condition. A Companion at 0 HP leaves the map. The Hero who deals the last wound
gains a Kill Coin (PvP III, "dealing the last wound"); deaths no attack dealt give none unless the
readings say so (ambiguities.md).
"""

from __future__ import annotations

import dataclasses

from . import conditions
from .state import SnsState, put


def hurt(state: SnsState, hid: str, amount: int, by: str = "") -> SnsState:
    """``hid`` suffers ``amount`` HP; ``by`` is the Hero credited with a kill ("" for none)."""
    h = state.hero(hid)
    if amount <= 0 or h.ghost or h.area is None:
        return state
    hp = max(0, h.hp - amount)
    h = dataclasses.replace(h, hp=hp)
    if hp > 0:
        return put(state, h)
    if h.companion_of:
        h = dataclasses.replace(conditions.cleared(h), area=None)
    else:
        h = dataclasses.replace(conditions.cleared(h), ghost=True, magic_shields=0, afflicted_by="")
    state = put(state, h)
    if by and by != hid:
        killer = state.hero(by)
        credited = state.hero(killer.companion_of) if killer.companion_of else killer  # a Companion's kill is its Hero's
        state = put(state, dataclasses.replace(credited, kill_coins=credited.kill_coins + 1))
        state = dataclasses.replace(state, kill_log=state.kill_log + ((credited.id, hid),))
    return state


def heal(state: SnsState, hid: str, amount: int) -> SnsState:
    """``hid`` heals ``amount`` HP, never above its maximum; a Ghost Soul heals nothing."""
    h = state.hero(hid)
    if h.ghost or amount <= 0:
        return state
    return put(state, dataclasses.replace(h, hp=min(h.hp_max, h.hp + amount)))


def inflict(state: SnsState, hid: str, name: str, by: str = "") -> SnsState:
    """``hid`` suffers the Body Condition ``name`` (any spelling :func:`.conditions.canonical` reads)."""
    h = state.hero(hid)
    if h.ghost or h.area is None:
        return state
    name = conditions.canonical(name, state.quest.act)
    if name.rstrip("12") in h.resist:
        return state
    h, lost = conditions.inflict(h, name, turn=state.turns)
    if by and name[:-1] in ("fire", "poison", "bleed"):
        h = dataclasses.replace(h, afflicted_by=by)
    return hurt(put(state, h), hid, lost, by)


def ticked_by(state: SnsState, hid: str) -> str:
    """Who is credited when a Fire, Poison or Bleed tick kills ``hid`` (reading ``hazard_kill_coins``)."""
    return state.hero(hid).afflicted_by if state.options.hazard_kill_coins else ""
