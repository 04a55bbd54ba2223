"""Wounds, deaths and victory ('Achieving Victory', p.4; 'Minions', p.20).

* A character with wounds >= health is killed and removed (p.5).
* Slayer: a side wins when every opposing hero is gone. A player who loses all
  heroes sees their Demigod leave the battlefield in shame; a player whose
  Demigod falls sees their heroes scatter, even if an allied Demigod remains.
* Tactics: each hero killed grants its opponent tactical points by class
  (tank 4, warrior 3, archer 2, rogue 2, mage 1); the first side to reach the
  threshold (6 with 4-5 heroes, 8 with 6; lower if the other team is worth
  less) wins. Killing a Demigod grants nothing.
* Advanced Tactics: as Tactics, and a minion leaving the board on the
  opponent's side scores 1; a destroyed minion returns to its player.
"""

from __future__ import annotations

import dataclasses

from . import data, divine
from .buffs import add, make
from .formation import relink
from .setup import TACTICS_TABLE, base_mode
from .state import (DemigodsState, add_notice, are_opponents, char, demigod_of, heroes_of, item_card, put,
                    side_name)

FATALITY = "fatality"


def required_points(state: DemigodsState, side: str) -> int:
    """Tactical points ``side`` needs: the table's threshold, or the other team's worth if lower (p.4)."""
    players = state.teams[state.team_names.index(side)]
    others = [p for p in state.players if p not in players]
    need = TACTICS_TABLE[state.heroes_per_player][1]
    worth = sum(data.classes()[h.klass]["tactical_points"] for p in others for h in heroes_of(state, p, False))
    return min(need, worth) if worth else need


def wound(state: DemigodsState, cid: str, amount: int, reason: str, source: str = "") -> DemigodsState:
    """``amount`` wounds on ``cid`` (negative heals, never below 0); kills at wounds >= health.

    Rulebook, 'Wounds': "If a character receives wounds equal to or greater than their health, they are
    killed and removed from the battlefield"; the book keeps no count beyond that, so the wounds of
    a slain character stop at its health (an attack or a hand entry of 1000 wounds both read 40/40).
    """
    ch = char(state, cid)
    if not ch.alive:
        return state
    state = put(state, dataclasses.replace(ch, wounds=min(ch.health, max(0, ch.wounds + amount))))
    if char(state, cid).wounds >= ch.health:
        state = kill(state, cid, source, reason)
    return state


def kill(state: DemigodsState, cid: str, killer: str = "", reason: str = "") -> DemigodsState:
    """Remove ``cid`` as slain and apply everything a death sets off, then check for victory."""
    victim = char(state, cid)
    state = put(state, dataclasses.replace(victim, out="slain", cell=None, on_board=False, ap=0))
    state = add_notice(state, f"{victim.name} is slain" + (f" ({reason})" if reason else ""))
    if victim.kind == "minion":
        return state
    if killer and killer in state.chars:
        k = char(state, killer)
        if k.alive and FATALITY in k.traits and are_opponents(state, k, victim):
            state = put(state, divine.gain(k, "rage", divine.FATALITY_RAGE))
    if victim.kind == "hero":
        state = relink(state, victim.player)
        for key, hero in state.bound.items():
            item_id, player = key.split("@")
            card = item_card(state, item_id)
            dg = demigod_of(state, player)
            if hero == cid and card.get("on_hero_death") and dg and dg.alive:
                state = put(state, add(dg, make({**card["on_hero_death"], "passive": True}, target=dg)))
        if base_mode(state.mode) == "tactics":
            gain = data.classes()[victim.klass]["tactical_points"]
            winner_side = next(n for n, t in zip(state.team_names, state.teams) if victim.player not in t)
            state = dataclasses.replace(state, points={**state.points, winner_side: state.points[winner_side] + gain})
    if state.mode == "slayer":
        state = _slayer_consequences(state, victim.player, victim.kind)
    return check(state)


def _slayer_consequences(state: DemigodsState, player: str, kind: str) -> DemigodsState:
    dg = demigod_of(state, player)
    if kind == "demigod":
        gone = [dataclasses.replace(h, out="scattered", cell=None, on_board=False) for h in heroes_of(state, player)]
        if gone:
            state = add_notice(put(state, *gone), f"{player}'s heroes scatter from the battle")
    elif not heroes_of(state, player) and dg and dg.alive:
        state = put(state, dataclasses.replace(dg, out="left in shame", cell=None, on_board=False))
        state = add_notice(state, f"{dg.name} leaves the battlefield in shame")
    return state


def check(state: DemigodsState) -> DemigodsState:
    """Set ``result`` when a side has met the victory condition."""
    if state.result is not None or state.stage != "play":
        return state
    winners: list[str] = []
    reason = ""
    if state.mode == "slayer":
        standing = [n for n, team in zip(state.team_names, state.teams) if any(heroes_of(state, p) for p in team)]
        if len(standing) <= 1:
            winners, reason = standing, "slew every opposing hero"
    else:
        reached = [n for n in state.team_names if state.points.get(n, 0) >= required_points(state, n)]
        if reached:
            winners, reason = reached[:1], f"reached {state.points[reached[0]]} tactical points"
    if not winners and not reason:
        return state
    state = dataclasses.replace(state, result=(tuple(winners), reason or "no heroes left"), stage="over", acting=None)
    return state


def score_minion(state: DemigodsState, cid: str) -> DemigodsState:
    """A minion left the board on the opponent's side: +1 tactical point, out for good (p.20)."""
    m = char(state, cid)
    side = side_name(state, m.player)
    state = put(state, dataclasses.replace(m, out="scored", cell=None, on_board=False))
    state = dataclasses.replace(state, points={**state.points, side: state.points[side] + 1},
                                minions_scored={**state.minions_scored, m.player: state.minions_scored.get(m.player, 0) + 1})
    return check(state)
