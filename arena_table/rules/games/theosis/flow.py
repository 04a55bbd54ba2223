"""The Theosis phase table: who moves the game from phase to phase, and nobody else does.

Phases (``ThState.phase``), section references to ``../shared/rulebooks/theosis.txt``:

- ``preparation``: six Hierapolis turns (p.10-12); ends when ``th-next`` closes the sixth, and the
  alignment track pays its bonus (p.13 Step 1);
- ``fast``: Fast Action Preparation (Game Modes), the draft; ends on its ``th-next``;
- ``ranking``: gold allocated (p.13 Step 2), or in monster modes the Ranking set freely; ends once
  the Ranking is set (p.13 Step 3), and the first Arena turn begins;
- ``combat``: the heroes act in Ranking order (p.14); ends when every living Hero has acted;
  then the monsters act, or the next turn begins, or after the ninth turn the game ends (p.5);
- ``monsters``: each living monster rolls and acts (Monster Defense); ends when the last has acted;
- ``over``: the result is recorded.

Handlers only change the state of the phase they belong to; :data:`FLOW` (run by the kernel after
every accepted event) ends a phase whose end condition holds and begins the next one. Victory
(last team standing, every monster defeated) is checked after that by :func:`check_over`.

A Hero who dies on its own turn with nobody left to act ends the heroes' part of the turn there
and then: the table no longer waits for an event that no living Hero could make.
"""

from __future__ import annotations

import dataclasses

from arena_table.rules.kernel.game import Flow, Phase

from .arena import begin_turn
from .events import Next
from .mats import name
from .monsters import begin_monsters
from .ranking import alignment_bonus
from .state import ARENA_TURNS, CENTRE, PREP_TURNS, ThState


def heroes_done(state: ThState) -> bool:
    """Every living Hero in the Ranking has acted this turn and nothing is awaited (p.14)."""
    return state.pending is None and all(h in state.acted or not state.heroes[h].alive for h in state.ranking)


def _after_heroes(state: ThState) -> str:
    """The monsters act after the heroes in co-operative modes; else the turn is over (p.5, p.14)."""
    if any(m.alive for m in state.monsters) and not state.competitive:
        return "monsters"
    return _after_turn(state)


def _after_turn(state: ThState) -> str:
    """After the ninth Arena turn the game ends (p.5); else the next turn begins."""
    return "over" if state.turn >= ARENA_TURNS else "combat"


def final_result(state: ThState) -> tuple[tuple[str, ...], str, bool]:
    """End of turn 9 (p.5, errata p.5, p.20): monsters standing lose co-op; a hero on the centre
    hex wins for their team; otherwise a tie."""
    if any(m.alive for m in state.monsters) and not state.competitive:
        return (), "a monster still stands after the ninth turn", False
    on_centre = [h for h, x in state.heroes.items() if x.alive and x.cell == CENTRE]
    if on_centre:
        team = state.team_of(on_centre[0])
        return (team,), f"{name(state, on_centre[0])} holds the centre hex at the end of turn 9", False
    return (), "more than one side stands after the ninth turn and nobody holds the centre", True


PHASES = {
    "preparation": Phase(next=lambda state: "ranking", end_if=lambda state: state.prep_turn > PREP_TURNS,
                         on_end=lambda state: dataclasses.replace(alignment_bonus(state), prep_turn=PREP_TURNS)),
    "fast": Phase(next=lambda state: "ranking", ends_on=(Next,)),
    "ranking": Phase(next=lambda state: "combat", end_if=lambda state: bool(state.ranking)),
    "combat": Phase(next=_after_heroes, end_if=heroes_done,
                    on_begin=lambda state: begin_turn(dataclasses.replace(state, turn=state.turn + 1))),
    "monsters": Phase(next=_after_turn, end_if=lambda state: state.pending is None, on_begin=begin_monsters),
    "over": Phase(next=lambda state: "over",
                  on_begin=lambda state: dataclasses.replace(state, pending=None, result=final_result(state))),
}
"""The phase table: phase -> its row (``next``, ``end_if``, ``on_begin``)."""


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


FLOW = Flow(phases=PHASES, phase_of=lambda state: state.phase,
            enter=lambda state, phase: dataclasses.replace(state, phase=phase), finish=check_over)
