"""Entering, moving and placing figures; minions ('Movement' p.21, 'First Round' p.26,
'Place Obstacles' p.9, 'Minions' p.20).

Moving one field in a direction the class allows, or turning 90°, costs 1 AP;
entering high ground 1 more; entering the battlefield 1. With a board and known
positions the engine works the cost out (cheapest path); otherwise the event
gives it. Leaving a pit costs all remaining AP. Fields with obstacles act on a
figure that moves or is moved onto them: spike pit 5 wounds, magma 1 wound and
Burn, flash freeze 3 wounds and Freeze; such a field (and a portal) ends a move
(``STOPS``), so a route across it is entered one move at a time.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from arena_table.rules.kernel.errors import Refused

from . import buffs, data, positions
from .actions import blocked_fields, knows
from .rounds import after_action, entered_this_round_limit, minion_turn_id
from .state import Character, DemigodsState, add_notice, char, put, team_index
from .victory import score_minion, wound

ENTER_AP = 1
FIELD_EFFECTS = {"spike-pit": (5, None), "magma": (1, {"name": "Burn", "stat": "burn", "text": "3 wounds a turn"}),
                 "flash-freeze": (3, {"name": "Freeze", "stat": "freeze", "text": "-2 AP"})}
"""Obstacle -> (wounds, debuff) on entering it (p.9)."""
STOPS = ("pitfall", "spike-pit", "magma", "flash-freeze", "portal")
"""Fields a move may end on but not cross: each acts on entering it (p.9). A figure in a pit stays
(leaving costs all its AP); magma and flash freeze wound on entry; a portal transports. The engine
applies a field's effect when a move ends there, so a route through one is entered step by step."""


def _portal(state: DemigodsState, ch: Character) -> DemigodsState:
    """'Entering a portal field instantly transports the Demigod or hero to another portal without
    need for additional action points. If there are more than two portals on the battlefield, the
    player may choose ... A portal field occupied by another Demigod or hero cannot be selected' (p.9).

    With two portals the figure goes to the other one when it is free (else it stays); with more,
    the free portals are named in a notice and the player places the figure (``dg-place``)."""
    others = [(c, r) for c, r, k in state.board.obstacles if k == "portal" and (c, r) != tuple(ch.cell)]
    taken = set(blocked_fields(state, ch.id))
    free = [cell for cell in others if cell not in taken]
    if len(others) == 1 and free:
        return put(state, dataclasses.replace(ch, cell=free[0]))
    if not free:
        return add_notice(state, f"{ch.name} entered a portal, but no other portal is free: it stays")
    fields = ", ".join(str(list(cell)) for cell in free)
    return add_notice(state, f"{ch.name} entered a portal: its player chooses the portal it comes out of "
                             f"({fields}) and places it there (dg-place who={ch.id} cell=[c,r])")


def enter_field(state: DemigodsState, cid: str, source: str = "") -> DemigodsState:
    """Apply the obstacle on ``cid``'s new field."""
    ch = char(state, cid)
    kind = state.board.obstacle(ch.cell) if state.board else ""
    if kind == "portal":
        return _portal(state, ch)
    if kind not in FIELD_EFFECTS:
        return state
    wounds, debuff = FIELD_EFFECTS[kind]
    if debuff:
        state = put(state, buffs.add(ch, buffs.make(debuff, target=ch)))
    return wound(state, cid, wounds, kind.replace("-", " "), source=source)


def _mover(state: DemigodsState, who: str) -> Character:
    if state.stage != "play":
        raise Refused("the game is not being played")
    if state.pending is not None:
        raise Refused("an attack is still waiting for its dice")
    ch = char(state, who)
    if ch.kind == "minion":
        if state.acting != minion_turn_id(ch.player):
            raise Refused(f"{ch.name} moves in its player's minion turn")
    elif state.acting != who:
        raise Refused(f"it is {state.acting or 'nobody'}'s turn, not {who}'s")
    if not ch.alive:
        raise Refused(f"{ch.name} is out of the game")
    return ch


def _cell_free(state: DemigodsState, cell: tuple[int, int], who: str) -> str:
    if state.board is None:
        return ""
    b = state.board
    if not (0 <= cell[0] < b.cols and 0 <= cell[1] < b.rows):
        return f"{tuple(cell)} is off the {b.cols}x{b.rows} board"
    if tuple(cell) in blocked_fields(state, who):
        return f"{tuple(cell)} is occupied or blocked"
    return ""


def enter(state: DemigodsState, ev: Any) -> DemigodsState:
    """``dg-enter``: 1 AP, the figure is now on the battlefield (at ``cell`` if given)."""
    ch = _mover(state, ev.who)
    if ch.on_board:
        raise Refused(f"{ch.name} is already on the battlefield")
    if ch.ap < ENTER_AP:
        raise Refused(f"entering costs {ENTER_AP} AP, {ch.name} has {ch.ap}")
    team = team_index(state, ch.player)
    if ev.cell is not None:
        why = _cell_free(state, ev.cell, ch.id)
        if why:
            raise Refused(why)
        if state.board is not None and ev.cell[1] != state.board.entry_row(team):
            raise Refused(f"{ch.name} enters on its side's entry row {state.board.entry_row(team)} (p.26)")
    facing = ev.facing if ev.facing is not None else (0 if team == 0 else 2)
    state = put(state, dataclasses.replace(ch, on_board=True, ap=ch.ap - ENTER_AP,
                                           cell=tuple(ev.cell) if ev.cell is not None else None, facing=facing))
    return _spent(state, ch.id)


def move(state: DemigodsState, ev: Any) -> DemigodsState:
    """``dg-move``: pay the AP of the move/rotation and put the figure on its new field."""
    ch = _mover(state, ev.who)
    if not ch.on_board:
        raise Refused(f"{ch.name} has not entered the battlefield (dg-enter)")
    to = tuple(ev.to) if ev.to is not None else ch.cell
    facing = ev.facing if ev.facing is not None else ch.facing
    if ch.kind == "minion" and facing != ch.facing:
        raise Refused("minions cannot rotate (p.20)")
    if to != ch.cell and (buffs.has(state, ch, "immobilize") or buffs.has(state, ch, "banish")):
        raise Refused(f"{ch.name} cannot leave its field")
    cost = ev.ap
    if knows(state, ch) and to is not None and facing is not None:
        own = state.board.own_stones(ch.player) if ch.kind == "demigod" else set()
        why = _cell_free(state, to, ch.id) if to != ch.cell and to not in own else ""
        if why:
            raise Refused(why)
        if state.board.obstacle(ch.cell) in ("pitfall", "spike-pit") and to != ch.cell:
            if to not in positions.adjacent_fields(ch.cell):
                raise Refused("from a pit a figure may only move to an adjacent field (p.9)")
            measured = ch.ap
        else:
            moves = (data.minion_data()["movement"] if ch.kind == "minion" else data.demigod_movement()
                     if ch.kind == "demigod" else data.classes()[ch.klass]["movement"])
            high = [(c, r) for c, r, k in state.board.obstacles if k == "high-ground"]
            # entering a pit, magma, flash freeze or portal acts at once (p.9): such a field ends a move
            stops = {(c, r) for c, r, k in state.board.obstacles if k in STOPS} - {to}
            blocked = set(blocked_fields(state, ch.id)) - own

            def cost_with(fields):
                return positions.move_cost(ch.cell, ch.facing, to, facing, moves=moves, cols=state.board.cols,
                                           rows=state.board.rows, blocked=fields, high_ground=high,
                                           can_rotate=ch.kind != "minion", free=own)

            measured = cost_with(blocked | stops)
            if measured is None:
                if stops and cost_with(blocked) is not None:
                    raise Refused(f"{ch.name} cannot reach {to} facing {facing} without crossing a pit, magma, "
                                  "flash freeze or portal field: entering one acts at once (p.9), so move onto it "
                                  "first")
                raise Refused(f"{ch.name} cannot reach {to} facing {facing}")
        if cost is not None and cost != measured:
            raise Refused(f"that move costs {measured} AP, not {cost}")
        cost = measured
    if cost is None:
        raise Refused("positions are not known: give the AP spent (ap=...)")
    if cost < 0 or cost > ch.ap:
        raise Refused(f"{cost} AP asked, {ch.name} has {ch.ap}")
    state = put(state, dataclasses.replace(ch, ap=ch.ap - cost, cell=to, facing=facing))
    if to != ch.cell:
        state = enter_field(state, ch.id)
    return _spent(state, ch.id)


def _spent(state: DemigodsState, cid: str) -> DemigodsState:
    ch = char(state, cid)
    if ch.kind == "minion":
        return state
    return after_action(state, ends_turn=False)


def place(state: DemigodsState, ev: Any) -> DemigodsState:
    """``dg-place``: a figure's position as read from the table (no AP)."""
    ch = char(state, ev.who)
    if not ch.alive:
        raise Refused(f"{ch.name} is out of the game ({ch.out})")
    if ev.off:
        return put(state, dataclasses.replace(ch, cell=None, on_board=False))
    if ev.cell is not None:
        why = _cell_free(state, ev.cell, ch.id)
        if why:
            raise Refused(why)
    return put(state, dataclasses.replace(ch, cell=tuple(ev.cell) if ev.cell is not None else None,
                                          facing=ev.facing if ev.facing is not None else ch.facing, on_board=True))


def minion_enter(state: DemigodsState, ev: Any) -> DemigodsState:
    """``dg-minion-enter``: two in round 1, one a round after; destroyed minions come back (p.20)."""
    if state.acting != minion_turn_id(ev.player):
        raise Refused(f"minions enter in {ev.player}'s minion turn (end of the Hero Phase)")
    if state.minions_entered.get(ev.player, 0) >= entered_this_round_limit(state):
        raise Refused(f"{ev.player} already entered {entered_this_round_limit(state)} minion(s) this round")
    mine = [c for c in state.chars.values() if c.kind == "minion" and c.player == ev.player]
    spare = [m for m in mine if m.out == "slain"]
    if not spare and len(mine) >= data.minion_data()["per_player"]:
        raise Refused(f"{ev.player} has no minion left to enter")
    if ev.cell is not None:
        why = _cell_free(state, ev.cell, "")
        if why:
            raise Refused(why)
    md = data.minion_data()
    facing = 0 if team_index(state, ev.player) == 0 else 2
    if spare:
        m = dataclasses.replace(spare[0], out="", wounds=0, conditions=())
    else:
        k = len(mine) + 1
        m = Character(id=f"minion-{k}-{ev.player}", name=f"{ev.player}'s minion {k}", player=ev.player,
                      kind="minion", klass="minion", health=md["health"], ap_max=md["ap"])
    m = dataclasses.replace(m, on_board=True, cell=tuple(ev.cell) if ev.cell else None, facing=facing, ap=m.ap_max)
    state = put(state, m)
    return dataclasses.replace(state, minions_entered={**state.minions_entered,
                                                       ev.player: state.minions_entered.get(ev.player, 0) + 1})


def minion_exit(state: DemigodsState, ev: Any) -> DemigodsState:
    """``dg-minion-exit``: the minion leaves on the opponent's side and scores (p.20)."""
    m = char(state, ev.who)
    if m.kind != "minion" or not m.alive:
        raise Refused(f"{ev.who} is not a minion in play")
    if state.acting != minion_turn_id(m.player):
        raise Refused(f"{m.name} moves in {m.player}'s minion turn")
    if state.board is not None and m.cell is not None:
        far = 0 if team_index(state, m.player) == 0 else state.board.rows - 1
        if m.cell[1] != far:
            raise Refused(f"{m.name} at {m.cell} is not on the far edge (row {far})")
    return score_minion(state, m.id)
