"""``dg-use``, declaring an action: base attack, skill, item or special ability ('Base Attack' p.14,
'Skills' p.15, 'Demigods' pp.16-19, 'Attacking' pp.22-23).

:func:`declare` checks the action is legal, pays its cost (AP, divine power,
cooldown tokens — 'spent before the attack is made and not refunded', p.22)
and either applies it at once (buffs, abilities) or leaves a
:class:`~.state.Pending` attack waiting for its dice (``combat.py``).
Geometry (side of the target, distance, high ground, engagement) comes from
the figures' positions when both are known, else from the event.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from arena_table.rules.kernel.errors import Refused

from . import buffs, data, positions
from .actions import blocked_fields, knows, spec
from .combat import apply_effects
from .rounds import after_action
from .state import Character, DemigodsState, DieSlot, Pending, are_opponents, char, put


ITEM_COOLDOWN = 2
"""Cooldown tokens placed on an active item after use (p.18)."""
PIT = ("pitfall", "spike-pit")


def _geometry(state: DemigodsState, ch: Character, targets: list[Character], ev: Any, rng: Any) -> dict[str, Any]:
    """Side per target, distance, high ground and engagement: measured, or taken from the event."""
    if rng in ("self", "global"):
        return {"sides": tuple(ev.side) or ("front",) * len(targets), "distance": ev.distance,
                "high_ground": False, "engaged": False}
    if targets and knows(state, ch, *targets):
        sides, dists = [], []
        for t in targets:
            dist, why = positions.sight(ch.cell, ch.facing, t.cell, blocked_fields(state, ch.id, t.id))
            if dist is None:
                raise Refused(f"{t.name}: {why}")
            dists.append(dist)
            sides.append(positions.relative_side(t.cell, t.facing, ch.cell))
        if ev.side and tuple(ev.side) != tuple(sides):
            raise Refused(f"the board shows sides {sides}, the event says {list(ev.side)}")
        front = positions.front_fields(ch.cell, ch.facing)
        engaged = any(c.alive and c.cell in front and are_opponents(state, c, ch) for c in state.chars.values())
        return {"sides": tuple(sides), "distance": max(dists), "engaged": engaged,
                "high_ground": state.board.obstacle(ch.cell) == "high-ground"}
    sides = tuple(ev.side) or ("front",) * len(targets)
    if len(sides) != len(targets) or any(s not in ("front", "side", "back") for s in sides):
        raise Refused(f"side must give front/side/back for each of {len(targets)} targets, got {list(ev.side)}")
    distance = ev.distance or (1 if rng == 1 else 0)
    return {"sides": sides, "distance": distance, "high_ground": ev.high_ground, "engaged": ev.engaged}


def _check_targets(state: DemigodsState, ch: Character, s: dict[str, Any], targets: list[Character]) -> None:
    attack = s.get("damage") is not None
    if s.get("target") == "self" and [t.id for t in targets] not in ([], [ch.id]):
        raise Refused(f"{s['name']} targets its user only")
    if attack and not targets:
        raise Refused(f"{s['name']} needs a target")
    multi = s.get("area") or (attack and "cleave" in {a["id"] for a in ch.skills if a.get("passive")}
                              and s.get("range") == 1)
    if len(targets) > 1 and not multi:
        raise Refused(f"{s['name']} strikes one target")
    for t in targets:
        if not t.alive:
            raise Refused(f"{t.name} is out of the game ({t.out})")
        if not t.on_board:
            raise Refused(f"{t.name} is not on the battlefield")
        if buffs.has(state, t, "banish"):
            raise Refused(f"{t.name} is banished and cannot be attacked")
        if ch.kind == "demigod" and t.kind == "demigod" and t.id != ch.id:
            raise Refused("Demigods cannot attack or affect one another (p.16)")
        opp = are_opponents(state, ch, t)
        if s.get("target") == "enemy" and not opp and not multi:
            raise Refused(f"{t.name} is an ally; {s['name']} targets an opponent")
        if s.get("target") == "ally" and opp:
            raise Refused(f"{t.name} is an opponent; {s['name']} targets an ally")
        if s.get("classes") and t.klass not in s["classes"]:
            raise Refused(f"{s['name']} targets a {' or '.join(s['classes'])}, not {t.name}")


def declare(state: DemigodsState, ev: Any) -> DemigodsState:
    """Validate and pay for ``dg-use``; returns the state with the action applied or pending.

    Raises:
        Refused: why the action cannot be taken now.
    """
    if state.stage != "play":
        raise Refused("the game is not being played")
    if ev.distance < 0:
        raise Refused(f"a distance is counted in fields, 0 or more, not {ev.distance}")
    if state.pending is not None:
        raise Refused("an attack is still waiting for its dice")
    if state.acting != ev.who:
        raise Refused(f"it is {state.acting or 'nobody'}'s turn, not {ev.who}'s")
    ch = char(state, ev.who)
    s = spec(state, ch, ev.use)
    attack = s.get("damage") is not None
    if state.round == 1 and ch.kind == "demigod" and (attack or s["kind"] == "ability"):
        raise Refused("in the first round Demigods may only enter and move (p.26)")
    if not ch.on_board:
        raise Refused(f"{ch.name} has not entered the battlefield")
    if s["kind"] == "ability" and ev.use in ch.used:
        raise Refused(f"{s['name']} was already used this turn")
    if s["kind"] == "ability" and ch.ap < buffs.ap_for_turn(state, ch):
        raise Refused("special abilities are used before any action point is spent (p.17)")
    if s["ap"] > ch.ap:
        raise Refused(f"{s['name']} costs {s['ap']} AP, {ch.name} has {ch.ap}")
    if s["cost"] > ch.divine and ch.kind == "hero":
        raise Refused(f"{s['name']} costs {s['cost']} {ch.power}, {ch.name} has {ch.divine}")
    if dict(ch.cooldowns).get(ev.use):
        raise Refused(f"{s['name']} is on cooldown ({dict(ch.cooldowns)[ev.use]} tokens)")
    if attack and buffs.has(state, ch, "banish"):
        raise Refused(f"{ch.name} is banished and cannot attack")
    if attack and state.board and state.board.obstacle(ch.cell) in PIT:
        raise Refused(f"{ch.name} stands in a pit and cannot attack (p.9)")
    targets = [char(state, t) for t in ev.targets] or ([ch] if s.get("target") == "self" else [])
    if s.get("area") and ch.kind == "demigod":  # 'Area of effect damage from other Demigods is ignored' (p.16)
        targets = [t for t in targets if t.kind != "demigod"]
    _check_targets(state, ch, s, targets)
    if s["kind"] == "skill" and "silence" in ch.traits and knows(state, ch):
        near = positions.adjacent_fields(ch.cell)
        if any(c.alive and c.cell in near and are_opponents(state, c, ch) for c in state.chars.values()):
            raise Refused(f"Silence: {ch.name} cannot use skills next to an opposing figure (p.13)")
    geo = _geometry(state, ch, targets, ev, s.get("range"))
    if isinstance(s.get("range"), int) and geo["distance"] > s["range"]:
        raise Refused(f"{targets[0].name} is {geo['distance']} fields away, {s['name']} reaches {s['range']}")
    paid = dataclasses.replace(ch, ap=ch.ap - s["ap"], used=ch.used + (ev.use,),
                               divine=ch.divine - s["cost"] if ch.kind == "hero" else ch.divine)
    if s["kind"] == "item":
        paid = dataclasses.replace(paid, cooldowns=tuple(c for c in paid.cooldowns if c[0] != ev.use)
                                   + ((ev.use, ITEM_COOLDOWN),))
    state = put(state, paid)
    if not attack:
        state = apply_effects(state, ch.id, s, [t.id for t in targets], critical=False)
        return after_action(state, s["ends_turn"])
    category = "physical" if s["dice"][0] in data.PHYSICAL else "magical"
    dice = [DieSlot("attack", d) for d in s["dice"]]
    for t in targets:
        for skill in t.skills:
            roll = skill.get("defend_roll")
            if roll and roll["against"] == category:
                dice.append(DieSlot(t.id, roll["die"]))
    pending = Pending(attacker=ch.id, use=ev.use, targets=tuple(t.id for t in targets), dice=tuple(dice),
                      sides=geo["sides"], distance=geo["distance"], high_ground=geo["high_ground"],
                      engaged=geo["engaged"], rerolls_left=ch.rerolls if ch.kind == "hero" else 0,
                      ends_turn=s["ends_turn"])
    return dataclasses.replace(state, pending=pending)
