"""Attack dice intake and resolution ('Attacking' p.23, 'Attack Dice' p.24, 'Class Traits' p.13).

A pending attack fills its dice from ``roll die=dg-<type>`` events (face
indices, ``data/dice.json``), lets an attack-linked hero re-roll (``dg-reroll``
then a new roll, or ``dg-resolve`` to keep the dice), then resolves every
target at once: wounds, divine power, die effects, On Critical effects, then
Retaliation as a new pending attack of the retaliating warrior.

Readings of the book the engine makes (not printed as rules):

* a Retaliation attack does not itself trigger Retaliation (else two warriors
  would trade blows forever); the character retaliated against is still
  "attacked by an opposing character" and gains rage/loses focus (p.12: only
  the retaliating hero is denied rage, p.13);
* an Enrage rolled on a Retaliation attack by a rage hero gives nothing: its "one additional
  rage ... instead" of healing (p.24) would be rage from the retaliation, which p.13 denies;
* a Push into an occupied or blocked field, or off the board, leaves the
  target where it is;
* Backfire wounds the mage once per attack if any melee target took wounds.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from arena_table.rules.kernel.errors import Refused

from . import buffs, damage, data, divine, positions
from .actions import blocked_fields, knows, spec
from .moves import enter_field
from .rounds import after_action
from .state import (DemigodsState, DieSlot, LastAction, Pending, add_notice, are_opponents, char, item_card,
                    put)
from .victory import wound

PIT = ("pitfall", "spike-pit")


def take_roll(state: DemigodsState, die_type: str, faces: tuple[int, ...]) -> DemigodsState:
    """Fill the pending attack's open ``die_type`` slots with ``faces`` (indices 1..6)."""
    p = state.pending
    if p is None:
        raise Refused(f"no attack is waiting for a {die_type} die")
    dice = list(p.dice)
    for face in faces:
        damage.read(state.dice, die_type, face)
        slot = next((i for i, d in enumerate(dice) if d.type == die_type and not d.face), None)
        if slot is None:
            wanted = sorted({d.type for d in dice if not d.face})
            raise Refused(f"the attack waits for {', '.join(wanted) or 'no more'} dice, not {die_type}")
        dice[slot] = dataclasses.replace(dice[slot], face=face)
    state = dataclasses.replace(state, pending=dataclasses.replace(p, dice=tuple(dice)))
    return maybe_resolve(state)


def reroll(state: DemigodsState, index: int) -> DemigodsState:
    """Attack link: forget die ``index`` of the attacker's dice; the next roll replaces it (p.12)."""
    p = state.pending
    if p is None:
        raise Refused("no attack to re-roll a die of")
    own = [i for i, d in enumerate(p.dice) if d.owner == "attack"]
    if p.rerolls_left <= 0:
        raise Refused("no attack-link reroll left for this attack")
    if not 0 <= index < len(own) or not p.dice[own[index]].face:
        raise Refused(f"die #{index} has not been rolled (attack dice 0..{len(own) - 1})")
    dice = list(p.dice)
    dice[own[index]] = dataclasses.replace(dice[own[index]], face=0)
    return dataclasses.replace(state, pending=dataclasses.replace(p, dice=tuple(dice), rerolls_left=p.rerolls_left - 1))


def confirm(state: DemigodsState) -> DemigodsState:
    if state.pending is None:
        raise Refused("no attack to resolve")
    if not all(d.face for d in state.pending.dice if d.owner == "attack"):
        raise Refused("the attack's dice are not all rolled yet")
    return maybe_resolve(dataclasses.replace(state, pending=dataclasses.replace(state.pending, confirmed=True)))


def maybe_resolve(state: DemigodsState) -> DemigodsState:
    p = state.pending
    own_done = all(d.face for d in p.dice if d.owner == "attack")
    if own_done and p.rerolls_left > 0 and not p.confirmed:
        return state
    if all(d.face for d in p.dice):
        return resolve(state)
    return state


def _attacker_terms(state: DemigodsState, att, p: Pending) -> list[tuple[str, int]]:
    terms = [("morale", buffs.morale(state, att)), ("buffs", buffs.modifier(state, att, "damage"))]
    if p.high_ground:
        terms.append(("high ground", damage.HIGH_GROUND))
    if "archery" in att.traits:
        terms.append(("Archery, engaged", damage.ARCHERY_ENGAGED if p.engaged else 0))
        terms.append(("Archery, far", damage.ARCHERY_FAR if p.distance >= damage.ARCHERY_FAR_FROM else 0))
    return terms


def resolve(state: DemigodsState) -> DemigodsState:
    """Apply the pending attack to every target; queue Retaliation; end the turn if it ends it."""
    p = state.pending
    att = char(state, p.attacker)
    s = spec(state, att, p.use) if not p.retaliation else spec(state, att, "attack")
    state = dataclasses.replace(state, pending=None)
    results = [(d.type, damage.read(state.dice, d.type, d.face)) for d in p.dice if d.owner == "attack"]
    mana_user = att.power == "mana"
    terms, effects = damage.roll_terms(results, marksmen="marksmen" in att.traits, mana_user=mana_user)
    label = "Retaliation" if p.retaliation else s["name"]
    title = f"{att.name}: {label} on {', '.join(char(state, t).name for t in p.targets)}"
    lines = ["Dice: " + ", ".join(f"{str(r).title()} ({t})" for t, r in results)]
    if mana_user and effects.count("failure"):
        need = damage.FAILURE_MANA * effects.count("failure")
        if att.divine < need:  # nullified, yet each target was attacked: divine power and Retaliation (p.12, p.13)
            follow = []
            for tid in p.targets:
                state, owed = _attacked(state, att.id, tid, s, p)
                follow += owed
            state = dataclasses.replace(state, last_action=LastAction(title, tuple(lines + [
                f"Failure: {need} mana needed, {att.divine} held"]), "attack nullified"))
            return _after(state, dataclasses.replace(p, follow=tuple(follow) + p.follow))
        state = put(state, divine.pay(att, need))
        lines.append(f"Failure: -{need} mana")
    pure = bool(s.get("pure")) or "pure" in effects
    common = damage.common_total((s["name"], s["damage"]), terms, _attacker_terms(state, att, p))
    physical = damage.is_physical(results[0][0])
    melee = p.distance == 1
    results_text, follow, hit_any_melee = [], [], False
    for i, tid in enumerate(p.targets):
        tgt = char(state, tid)
        side = p.sides[i] if i < len(p.sides) else "front"
        defend = [damage.read(state.dice, d.type, d.face) for d in p.dice if d.owner == tid]
        rolls_over = [r for r in defend if r == next((sk["defend_roll"]["ignore_on"] for sk in tgt.skills
                                                      if sk.get("defend_roll")), None)]
        opp = are_opponents(state, att, tgt)
        if defend:
            lines.append(f"{tgt.name}'s defence die: {', '.join(str(r).title() for r in defend)}")
        if rolls_over:
            lines.append(f"{tgt.name}: attack ignored ({defend[0]} on the defence die)")
            results_text.append(f"{tgt.name} unharmed")
        else:
            knocked = buffs.has(state, tgt, "knockdown")
            weak = side == "back" and "fortress" not in tgt.traits and not knocked and tgt.kind != "minion"
            situational = [("weak spot", damage.WEAK_SPOT if weak else 0),
                           ("Backstab", damage.BACKSTAB if weak and "backstab" in att.traits else 0),
                           ("knocked down", damage.KNOCKDOWN_EXTRA if knocked else 0),
                           ("in a pit", damage.PITFALL_EXTRA if state.board and state.board.obstacle(tgt.cell) in PIT
                            else 0)]
            defense = None
            if not pure:
                value, parts = buffs.defense(state, tgt, physical)
                defense = parts + ([("Deflect", damage.DEFLECT)] if side == "front" and "deflect" in tgt.traits else [])
            evasive = "evasion" in tgt.traits and physical and not melee
            hit = damage.against(common, situational, defense, reduction=[("Evasion", damage.EVASION if evasive else 0)])
            lines.append(f"{tgt.name}: {hit.line}")
            before = tgt.health_left
            state = wound(state, tid, hit.wounds, f"{label} of {att.name}", source=att.id)
            tgt = char(state, tid)
            results_text.append(f"{tgt.name} {before} → {max(0, tgt.health_left)}" + ("" if tgt.alive else " (slain)"))
            hit_any_melee |= melee and hit.wounds > 0
        if opp and tgt.alive:
            state = put(state, divine.attacked(tgt))
        if tgt.alive:
            state = _die_effects(state, att.id, tid, effects, s)
        state, owed = _attacked(state, att.id, tid, s, p, divine_change=False)
        follow += owed
        att = char(state, att.id)
    state = _attacker_effects(state, att.id, effects, s, p, hit_any_melee)
    state = dataclasses.replace(state, last_action=LastAction(title, tuple(lines), "; ".join(results_text)))
    return _after(state, dataclasses.replace(p, follow=tuple(follow) + p.follow))


def _attacked(state: DemigodsState, aid: str, tid: str, s: dict[str, Any], p: Pending, *,
              divine_change: bool = True) -> tuple[DemigodsState, list[tuple[str, str]]]:
    """What being attacked does to ``tid``, whatever the damage: an opposing character's divine
    power changes ('Divine Power' p.12: rage +1, focus -1, "regardless of whether or not they take
    damage"; ``divine_change=False`` when the caller applied it already), and a melee attack owes
    ``(tid, aid)`` a Retaliation ('Retaliation' p.13: "after being attacked from melee range").
    """
    att, tgt = char(state, aid), char(state, tid)
    opp = are_opponents(state, att, tgt)
    if divine_change and opp and tgt.alive:
        state = put(state, divine.attacked(tgt))
        tgt = char(state, tid)
    if (p.distance == 1 and opp and tgt.alive and att.alive and "retaliation" in tgt.traits and not p.retaliation
            and not s.get("no_retaliation") and not buffs.has(state, tgt, "knockdown")):
        return state, [(tid, aid)]
    return state, []


def _die_effects(state: DemigodsState, aid: str, tid: str, effects: list[str], s: dict[str, Any]) -> DemigodsState:
    """Burn, Freeze, Knockdown, Push, On Critical and the action's own effects on one target."""
    specs = []
    if "burn" in effects:
        specs.append({"name": "Burn", "stat": "burn", "text": "3 wounds each time the token flips"})
    if "freeze" in effects:
        specs.append({"name": "Freeze", "stat": "freeze", "text": "-2 AP"})
    if "knockdown" in effects:
        specs.append({"name": "Knockdown", "stat": "knockdown", "text": "no AP, +3 damage taken, no weak spot"})
    if "critical" in effects:
        specs += list(s.get("on_critical", ()))
        att = char(state, aid)
        for item in att.items:
            if item and char(state, tid).kind == "hero":
                specs += list(item_card(state, item).get("on_critical_hero", ()))
    state = apply_effects(state, aid, {"effects": specs + list(s.get("effects", ()))}, [tid], critical=False)
    if "knockdown" in effects:
        state = put(state, dataclasses.replace(char(state, tid), ap=0))
    if "push" in effects:
        state = _push(state, aid, tid)
    return state


def _push(state: DemigodsState, aid: str, tid: str) -> DemigodsState:
    att, tgt = char(state, aid), char(state, tid)
    if not knows(state, att, tgt):
        return add_notice(state, f"Push: move {tgt.name} one field away from {att.name} (dg-place)")
    dest = positions.push_to(att.cell, tgt.cell)
    b = state.board
    if not (0 <= dest[0] < b.cols and 0 <= dest[1] < b.rows) or dest in blocked_fields(state, tid):
        return add_notice(state, f"Push: {tgt.name} cannot be moved to {dest} and stays")
    fell = b.obstacle(tgt.cell) == "high-ground"
    state = put(state, dataclasses.replace(tgt, cell=dest))
    if fell:
        state = wound(state, tid, damage.HIGH_GROUND_FALL, "pushed from high ground", source=aid)
    return enter_field(state, tid, source=aid)


def _attacker_effects(state, aid, effects, s, p: Pending, hit_any_melee: bool) -> DemigodsState:
    att = char(state, aid)
    if not att.alive:
        return state
    for _ in range(effects.count("enrage")):
        if att.power == "rage":
            if not p.retaliation:  # 'does not gain rage from retaliation' (p.13), Enrage's included
                att = divine.gain(att, "rage", 1)
        else:
            att = dataclasses.replace(att, wounds=max(0, att.wounds - damage.ENRAGE_HEAL))
    opposing = any(are_opponents(state, att, char(state, t)) for t in p.targets)
    if s["kind"] == "base" and opposing and not p.retaliation:
        att = divine.attacked_with_base_attack(att)
    state = put(state, att)
    if "backfire" in att.traits and hit_any_melee:
        state = wound(state, aid, damage.BACKFIRE_WOUNDS, "Backfire", source=aid)
    return state


def apply_effects(state: DemigodsState, aid: str, s: dict[str, Any], targets: list[str], critical: bool) -> DemigodsState:
    """Conditions of ``s['effects']`` and divine gifts (``s['divine']``) on each living target."""
    src = char(state, aid)
    for tid in targets:
        tgt = char(state, tid)
        if not tgt.alive:
            continue
        for eff in s.get("effects", ()):
            tgt = buffs.add(tgt, buffs.make(eff, target=tgt, source=src))
        if s.get("divine"):
            tgt = divine.gain(tgt, "rage", s["divine"]) if tgt.power == "rage" else tgt
        state = put(state, tgt)
    return state


def _after(state: DemigodsState, p: Pending) -> DemigodsState:
    """Start the next owed Retaliation, or finish the action."""
    follow = [(r, t) for r, t in p.follow if char(state, r).alive and char(state, t).alive]
    if follow and state.result is None:
        (rid, tid), rest = follow[0], tuple(follow[1:])
        ret, tgt = char(state, rid), char(state, tid)
        side = "front"
        if knows(state, ret, tgt):
            ret = dataclasses.replace(ret, facing=positions.face_towards(ret.cell, tgt.cell))
            state = put(state, ret)
            side = positions.relative_side(tgt.cell, tgt.facing, ret.cell)
        category = "physical" if ret.attack_type in data.PHYSICAL else "magical"
        dice = [DieSlot("attack", ret.attack_type)] + [DieSlot(tid, sk["defend_roll"]["die"]) for sk in tgt.skills
                                                        if sk.get("defend_roll", {}).get("against") == category]
        pending = Pending(attacker=rid, use="attack", targets=(tid,), dice=tuple(dice), sides=(side,), distance=1,
                          retaliation=True, rerolls_left=ret.rerolls, follow=rest, ends_turn=p.ends_turn)
        return dataclasses.replace(state, pending=pending)
    return after_action(state, p.ends_turn)
