"""Euthia's flow: what follows an accepted event without an event of its own.

A Combat Round (Fellowship, Combat Rounds, l.937-945) ends once every undefeated Enemy has made
its Monster Attack and every living Hero has attacked; the Combat ends when every Enemy is
defeated (won) or every Hero in it has died (lost). The Monster Attack's own steps are driven
by the dice and cards read (:mod:`.monster_attack`), not by this table.
"""

from __future__ import annotations

import dataclasses

from arena_table.rules.kernel.game import Flow

from . import combat
from .state import EuState


def settle(state: EuState) -> EuState:
    """The state with a finished Combat Round closed and a decided Combat ended."""
    c = state.combat
    if c is None or c.over:
        return state
    if all(e.defeated for e in c.enemies):
        return combat.end(state, "won")
    if all(h in c.dead for h in c.heroes):
        return combat.end(state, "lost")
    if c.attack or c.roll:
        return state
    enemies = {i for i, e in enumerate(c.enemies) if not e.defeated}
    heroes = {h for h in c.heroes if h not in c.dead}
    if enemies <= set(c.attacked) and heroes <= set(c.struck):
        c = dataclasses.replace(c, round=c.round + 1, attacked=(), struck=(), round_injuries={}, one_die=False)
        state = dataclasses.replace(state, combat=c)
    return state


FLOW = Flow(phases={}, phase_of=lambda state: "", enter=lambda state, phase: state, finish=settle)
