"""The Demigods phase table ('Playing the Game', pp.26-34): who moves a round from phase to phase.

A round is the Demigod Phase (the Demigods in the order of that round's Demigod dice), the Hero
Phase (heroes by initiative), in Advanced Tactics the minions (p.20), and the Preparation Phase
(p.34), after which the next round begins. The selection (``phase`` "") ends with ``dg-begin``.

Handlers end a character's turn at most (:func:`.rounds.end_turn`); :data:`FLOW`, run by the
kernel after every accepted event, starts the next turn within the phase
(:func:`.rounds.next_turn`), ends a phase whose end condition holds and begins the next.
"""

from __future__ import annotations

import dataclasses

from arena_table.rules.kernel.game import Flow, Phase

from .rounds import begin_round, demigods_done, heroes_done, minions_done, next_turn, preparation
from .state import DemigodsState


def _after_heroes(state: DemigodsState) -> str:
    """Advanced Tactics has the minions act after the heroes (p.20); else the Preparation Phase."""
    return "minion" if state.mode == "advanced-tactics" else "prep"


PHASES = {
    "": Phase(next=lambda state: "demigod", end_if=lambda state: state.stage == "play"),
    "demigod": Phase(next=lambda state: "hero", end_if=demigods_done, on_begin=begin_round),
    "hero": Phase(next=_after_heroes, end_if=heroes_done),
    "minion": Phase(next=lambda state: "prep", end_if=minions_done),
    "prep": Phase(next=lambda state: "demigod", end_if=lambda state: True, on_begin=preparation),
}
"""The phase table: phase -> its row (``next``, ``end_if``, ``on_begin``)."""

FLOW = Flow(phases=PHASES, phase_of=lambda state: state.phase,
            enter=lambda state, phase: dataclasses.replace(state, phase=phase), turn=next_turn)
