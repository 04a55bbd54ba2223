"""The Theosis phase table: Hierapolis, Hero Ranking, the Arena turns, the monsters, the end.

Section references are to ``../shared/rulebooks/theosis.txt``.
"""

from __future__ import annotations

import dataclasses

from arena_table.rules.kernel.game import Flow

from .state import ThState


def check_over(state: ThState) -> ThState:
    """Victory (p.5, errata p.5, p.20): last team standing; monster modes win when every monster falls."""
    if state.phase not in ("combat", "monsters") or state.result:
        return state
    alive = {state.team_of(h) for h, x in state.heroes.items() if x.alive}
    if state.monsters and not state.competitive:
        if not alive:
            return _over(state, (), "every hero has fallen", False)
        if any(m.alive for m in state.monsters):
            return state
        if state.config.mode == "heavy":
            players = tuple(dataclasses.replace(p, team=p.id) for p in state.players)
            state = dataclasses.replace(state, players=players, competitive=True)
            return check_over(state)
        everyone = tuple(p.id for p in state.players)
        reason = "every monster is defeated"
        if state.config.mode == "light":
            top = max(p.stamina_taken for p in state.players)
            mvp = [p.id for p in state.players if p.stamina_taken == top]
            reason += f"; MVP: {', '.join(mvp)} ({top} Stamina Tokens)"
        return _over(state, everyone, reason, False)
    if len(alive) == 1:
        return _over(state, (alive.pop(),), "last team standing", False)
    if not alive:
        return _over(state, (), "no hero is left standing", True)
    return state


def _over(state: ThState, winners: tuple[str, ...], reason: str, draw: bool) -> ThState:
    return dataclasses.replace(state, phase="over", pending=None, result=(winners, reason, draw))


FLOW = Flow(phases={}, phase_of=lambda state: state.phase,
            enter=lambda state, phase: dataclasses.replace(state, phase=phase), finish=check_over)
