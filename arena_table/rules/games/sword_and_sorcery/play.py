"""The Hero Turn: activation, Activities, Evade and Reaction Attacks (Rules Reference, Hero Turn; 6.5).

A Hero Turn allows 1 Movement Activity (which may be intermingled with Actions and Free Actions
but not with Combat), Combat Activities and Action Activities. Slowed: a single Activity;
Blinded: a Save before each Activity, a failed one wastes it; Stunned: no Activities. Bleed:
1 HP before each Hero Activity. A K.O. Hero stands with a Dash or 1 point of movement and makes
no attacks. Engaged (sharing an area with Opponents), a Hero may only attack Opponents in its area.

Evade (6.5): leaving an area not dominated by one's Team and holding Opponents, a Hero first
receives a Reaction Attack (equipped weapon only) from each Opponent there; with several reacting
Teams their order is tiebroken (reading ``reaction_order``), the owner chooses within a Team. A
Hero Stunned by a Reaction Attack ends its Movement there (ambiguities.md).
"""

from __future__ import annotations

import dataclasses

from arena_table.rules.kernel.errors import Refused

from . import areas, combat, flow, harm, hazards
from .dice import gate
from .state import Combat, Evade, Hero, SnsState, Turn, put


def _turn_hero(state: SnsState, hid: str) -> Hero:
    if state.phase != "battle" or state.turn is None:
        raise Refused("no Hero Turn is under way (sns-activate a Hero first)")
    if state.turn.hero != hid:
        raise Refused(f"it is {state.hero(state.turn.hero).name}'s Hero Turn, not {state.hero(hid).name}'s")
    return state.hero(hid)


def activate(state: SnsState, hid: str) -> SnsState:
    """The Team to play activates one of its Heroes not activated yet this Round (6.5)."""
    if state.phase != "battle" or state.tiebreak is not None:
        raise Refused("Heroes are activated in the Battle Phase, after its Tiebreaker Procedure")
    if state.turn is not None:
        raise Refused(f"{state.hero(state.turn.hero).name}'s Hero Turn is under way (sns-end-turn first)")
    team = state.order[state.next_team]
    h = state.hero(hid)
    if h.team != team:
        raise Refused(f"Team {team} plays a Hero Turn now (order: {', '.join(state.order)})")
    if h.companion_of:
        raise Refused(f"{h.name} is a Companion, not a Hero with a Hero Turn")
    if h.activated:
        raise Refused(f"{h.name} has been activated this Round already")
    return dataclasses.replace(state, turn=Turn(hid), turns=state.turns + 1)


def _activity(state: SnsState, h: Hero, blind_save: bool | None, what: str) -> tuple[SnsState, bool]:
    """Start an Activity: Stunned/Slowed limits, Bleed's 1 HP, Blinded's Save. Returns ``(state, wasted)``."""
    t = state.turn
    if h.health == 3:
        raise Refused(f"{h.name} is Stunned: no Activities are allowed")
    if h.health == 1 and t.activities >= 1:
        raise Refused(f"{h.name} is Slowed: only a single Activity is allowed this Hero Turn")
    if h.health == 2 and blind_save is None:
        raise Refused(f"{h.name} is Blinded: a Save is needed before each Activity (blind_save=true|false)")
    state = dataclasses.replace(state, turn=dataclasses.replace(t, activities=t.activities + 1))
    if h.bleed:
        state = harm.hurt(state, h.id, 1, by=harm.ticked_by(state, h.id))
    return state, h.health == 2 and blind_save is False


def move(state: SnsState, hid: str, to: str, blind_save: bool | None = None) -> SnsState:
    """The active Hero moves one area (Evade first when due)."""
    h = _turn_hero(state, hid)
    if h.ko:
        raise Refused(f"{h.name} is K.O.: stand up first (sns-stand: a Dash or 1 point of movement)")
    if to not in state.board.neighbours(h.area):
        raise Refused(f"{to} is not adjacent to {h.area} (areas are adjacent only across a shared edge, 4.1)")
    t = state.turn
    if t.moved and t.fought_since_move:
        raise Refused("the Movement Activity cannot be intermingled with Combat: it ended with the attack")
    if h.ghost:  # a Ghost Soul moves as in the base game: it forces no Evade and suffers no hazard
        if not t.moving:
            state = dataclasses.replace(state, turn=dataclasses.replace(t, activities=t.activities + 1, moving=True,
                                                                        moved=True))
        return put(state, dataclasses.replace(h, area=to))
    if not t.moving:
        state, wasted = _activity(state, h, blind_save, "movement")
        state = dataclasses.replace(state, turn=dataclasses.replace(state.turn, moving=True, moved=True))
        if wasted or state.hero(hid).ghost:
            return state
    react = areas.reactors(state, state.hero(hid))
    if react:
        teams = tuple(dict.fromkeys(r.team for r in react))
        state = dataclasses.replace(state, evade=Evade(hid, to, tuple(r.id for r in react), teams))
        if len(teams) > 1 and state.options.reaction_order == "tiebreak":
            state = flow.begin_tiebreak(state, "evade", teams)
        return state
    return _arrive(state, hid, to)


def _arrive(state: SnsState, hid: str, to: str) -> SnsState:
    return hazards.entering(put(state, dataclasses.replace(state.hero(hid), area=to)), hid, to)


def _finish_evade(state: SnsState) -> SnsState:
    ev = state.evade
    if ev is None or ev.reactors or state.combat is not None:
        return state
    state = dataclasses.replace(state, evade=None)
    h = state.hero(ev.hero)
    if h.ghost or h.health == 3 or h.area is None:  # Stunned mid-Movement: it ends at once
        return state
    return _arrive(state, ev.hero, ev.to)


def reactor_turn(state: SnsState, who: str) -> None:
    """Check that ``who`` may make its Reaction Attack now (tiebroken Team order, owner's choice within)."""
    ev = state.evade
    if ev is None or who not in ev.reactors:
        raise Refused(f"{state.hero(who).name} has no Reaction Attack to make now")
    if state.tiebreak is not None:
        raise Refused("the reacting Teams' order is being tiebroken first")
    left = {state.hero(r).team for r in ev.reactors}
    first = next((t for t in ev.team_order if t in left), None)
    if state.options.reaction_order == "listing":
        if who != ev.reactors[0]:
            raise Refused(f"{state.hero(ev.reactors[0]).name} reacts first (listing order)")
    elif first is not None and state.hero(who).team != first:
        raise Refused(f"Team {first} makes its Reaction Attacks first (Tiebreaker order)")


def pass_reaction(state: SnsState, who: str) -> SnsState:
    reactor_turn(state, who)
    ev = state.evade
    state = dataclasses.replace(state, evade=dataclasses.replace(ev, reactors=tuple(r for r in ev.reactors if r != who)))
    return _finish_evade(state)


def recall(state: SnsState, hid: str, to: str) -> SnsState:
    """A Ghost Soul's Recall to a Shrine's area (its Hero Turn)."""
    h = _turn_hero(state, hid)
    if not h.ghost:
        raise Refused(f"{h.name} is alive: Recall is a Ghost Soul's activity")
    if to not in state.board.shrines:
        raise Refused(f"{to} is not a Shrine's area; Shrines: {', '.join(state.board.shrines)}")
    state = dataclasses.replace(state, turn=dataclasses.replace(state.turn, activities=state.turn.activities + 1))
    return put(state, dataclasses.replace(h, area=to))


def stand(state: SnsState, hid: str, blind_save: bool | None = None) -> SnsState:
    """A K.O. Hero stands with 1 point of movement (K.O.: "Requires a Dash / 1 Point of movement"):
    it starts the Movement Activity when none is under way (``sns-action name=dash`` is the Dash)."""
    h = _turn_hero(state, hid)
    if not h.ko:
        raise Refused(f"{h.name} is not K.O.")
    t = state.turn
    if t.moved and t.fought_since_move:
        raise Refused("the Movement Activity cannot be intermingled with Combat: it ended with the attack")
    if not t.moving:
        state, wasted = _activity(state, h, blind_save, "movement")
        state = dataclasses.replace(state, turn=dataclasses.replace(state.turn, moving=True, moved=True))
        if wasted:
            return state
    return put(state, dataclasses.replace(state.hero(hid), ko=False))


def action(state: SnsState, hid: str, name: str, blind_save: bool | None) -> SnsState:
    """An Action Activity; Dash and Focus once per Round (a Focus adds +1 to the next attack)."""
    h = _turn_hero(state, hid)
    name = name.strip().lower()
    t = state.turn
    if name in ("dash", "focus") and getattr(t, "dashed" if name == "dash" else "focused"):
        raise Refused(f"{name.title()} is once per Round")
    state, wasted = _activity(state, h, blind_save, name)
    if wasted:
        return state
    if name == "dash":
        h = state.hero(hid)
        state = put(state, dataclasses.replace(h, ko=False)) if h.ko else state
        return dataclasses.replace(state, turn=dataclasses.replace(state.turn, dashed=True))
    if name == "focus":
        return dataclasses.replace(state, turn=dataclasses.replace(state.turn, focus=True, focused=True))
    return state


def summon(state: SnsState, hid: str, cid: str, area: str, name: str, hp: int) -> SnsState:
    """A Companion figure joins ``hid``'s Team (it counts for control and domination)."""
    h = state.hero(hid)
    if not state.board.has(area):
        raise Refused(f"no area {area!r} on the board")
    if any(k == cid for k, _ in state.heroes) and state.hero(cid).area is not None:
        raise Refused(f"{cid} is on the map already")
    if hp < 1:
        raise Refused("a Companion has at least 1 HP")
    comp = Hero(id=cid, name=name or cid.title(), team=h.team, hp_max=hp, hp=hp, armor=0, defense=1,
                soulrank=h.soulrank, area=area, companion_of=hid)
    return put(state, comp)


# --- attacks -------------------------------------------------------------------------------

def attack(state: SnsState, e) -> SnsState:
    """Declare an attack; its HIT dice are awaited (Combat System)."""
    if state.combat is not None:
        raise Refused("an attack is under way: finish it first (sns-roll, sns-resolve)")
    a, d = state.hero(e.who), state.hero(e.target)
    if e.mode not in ("attack", "reaction", "power"):
        raise Refused(f"mode is attack, reaction or power, not {e.mode!r}")
    if a.ghost or a.area is None:
        raise Refused(f"{a.name} is not on the map as a living Hero")
    if a.ko:
        raise Refused(f"{a.name} is K.O.: a K.O. Character performs no attacks or Reaction attacks")
    if d.ghost and not state.options.ghost_targetable:
        raise Refused(f"{d.name} is a Ghost Soul and cannot be attacked")
    if d.area is None:
        raise Refused(f"{d.name} is not on the map")
    if a.team == d.team or d.team in state.team(a.team).allies:
        raise Refused(f"{d.name} is not an Opponent of {a.name}")
    try:
        weapon = a.weapon(e.weapon)
    except KeyError as exc:
        raise Refused(str(exc.args[0])) from None
    bonus = dict(e.bonus or {})
    if e.mode == "attack":
        h = _turn_hero(state, e.who)
        if state.evade is not None:
            raise Refused("an Evade is under way")
        state, wasted = _activity(state, h, e.blind_save, "combat")
        t = state.turn
        state = dataclasses.replace(state, turn=dataclasses.replace(t, moving=False, fought_since_move=t.moved,
                                                                    focus=False))
        if t.focus:
            bonus.setdefault("Focus", 1)
        if wasted or state.hero(e.who).ghost:
            return state
    elif e.mode == "reaction":
        reactor_turn(state, e.who)
        if e.target != state.evade.hero:
            raise Refused(f"a Reaction Attack targets the evading {state.hero(state.evade.hero).name}")
        if bonus or e.power:
            raise Refused("a Reaction Attack is made with an equipped weapon only: no activities or powers enhance it")
    elif not e.power:
        raise Refused("an out-of-turn attack names the power or item that allows it (power=...)")
    engaged = any(areas.is_threat(state, a, o) for _, o in state.heroes)
    if d.area != a.area and (engaged or not weapon.ranged):
        why = "engaged in combat, it may only attack Opponents in its area" if engaged else "its weapon is not ranged"
        raise Refused(f"{d.name} is not in {a.name}'s area ({a.area}): {why}")
    targets = (d.id,)
    if e.aoe is not None:
        near = areas.within(state.board, d.area, e.aoe)
        targets += tuple(o.id for _, o in state.heroes if o.area in near and o.id != d.id and not o.ghost
                         and o.team != a.team and o.team not in state.team(a.team).allies)
    at = d.area
    for step in e.bash:  # the attacker chooses where the defender goes, one adjacent area a Bash
        if step not in state.board.neighbours(at):
            raise Refused(f"bash: {step} is not adjacent to {at}")
        at = step
    if any(k.strip().lower() == "domination" for k in bonus):
        raise Refused("the Domination bonus is computed from the figures in the area, not given by hand")
    c = Combat(attacker=a.id, targets=targets, weapon=e.weapon, kind=e.mode, bonus=tuple(bonus.items()),
               reduce=tuple(dict(e.reduce or {}).items()), effects=tuple(e.effects), bash=tuple(e.bash),
               breaks=e.breaks, drain=e.drain, lethal=e.lethal)
    return dataclasses.replace(state, combat=c)


def _weapon(state: SnsState, c: Combat):
    return state.hero(c.attacker).weapon(c.weapon)


def plan(state: SnsState, c: Combat) -> dict:
    """The attack's arithmetic so far: HIT stage, then per defender the DEF steps before its dice.

    Returns ``{"hits": Hits | None, "targets": [(id, BeforeDice, dice needed)]}``.
    """
    w = _weapon(state, c)
    if len(c.red) < w.red or len(c.blue) < w.blue:
        return {"hits": None, "targets": []}
    a, d = state.hero(c.attacker), state.hero(c.targets[0])
    hits = combat.hit_stage(c.red, c.blue, dict(c.bonus), dominating=areas.dominates(state, d.area, a.team),
                            lethal_weapon=w.lethal, lethal=c.lethal)
    normal, lethal = hits.normal, hits.lethal
    crit = [x for x in w.critical for _ in range(hits.criticals)]
    normal += crit.count("hit")
    lethal += crit.count("lethal")
    out = []
    for tid in c.targets:
        t = state.hero(tid)
        ko = t.ko or ("ko" in crit and tid == d.id)
        before = combat.before_dice(normal, lethal, magic_shields=t.magic_shields, armor=0 if ko else t.armor_now,
                                    reduce=dict(c.reduce))
        out.append((tid, before, combat.dice_needed(before.normal, t.defense)))
    return {"hits": hits, "targets": out, "criticals": tuple(x for x in crit if x not in ("hit", "lethal"))}


def awaited(state: SnsState) -> str:
    """What the pending attack waits for: ``hit``, ``def:<hero>`` or ``resolve``."""
    c = state.combat
    p = plan(state, c)
    if p["hits"] is None:
        return "hit"
    rolled = {tid for tid, _, _ in c.defense}
    for tid, _, need in p["targets"]:
        if need and tid not in rolled:
            return f"def:{tid}"
    return "resolve"


def roll(state: SnsState, red: tuple[str, ...], blue: tuple[str, ...], shields: dict[str, int]) -> SnsState:
    """Dice for the pending attack: its HIT dice (may come in parts), then each defender's DEF dice."""
    c = state.combat
    w = _weapon(state, c)
    stage = awaited(state)
    if stage == "hit":
        if shields:
            raise Refused("shields enhance a DEF roll, not the HIT dice")
        r, b = c.red + red, c.blue + blue
        if len(r) > w.red or len(b) > w.blue:
            rolls = f"{w.red} red and {w.blue} blue" if c.weapon else "1 blue (no equipped weapon)"
            raise Refused(f"{state.hero(c.attacker).name} rolls {rolls} dice for this attack, "
                          f"not {len(r)} red and {len(b)} blue")
        return dataclasses.replace(state, combat=dataclasses.replace(c, red=r, blue=b))
    if stage == "resolve":
        raise Refused("every die of this attack is in: sns-resolve")
    tid = stage[4:]
    need = next(n for t, _, n in plan(state, c)["targets"] if t == tid)
    if red or len(blue) != need:
        raise Refused(f"{state.hero(tid).name} rolls {need} Blue Dice in the DEF stage (1 per remaining hit, up to "
                      f"its maximum {state.hero(tid).defense}), not {len(red)} red and {len(blue)} blue")
    defense = c.defense + ((tid, tuple(blue), tuple(shields.items())),)
    return dataclasses.replace(state, combat=dataclasses.replace(c, defense=defense))


def reroll(state: SnsState, die: str, index: int, face: str) -> SnsState:
    """One die rolled again: "Dice can only be rerolled once, no matter what effects you use"."""
    c = state.combat
    if c is None:
        raise Refused("no attack is under way")
    key = f"{die}:{index}"
    if key in c.rerolled:
        raise Refused(f"that {die} die has been rerolled once already: dice can only be rerolled once")
    if die in ("red", "blue"):
        if c.defense:
            raise Refused("the HIT dice cannot be rerolled once the DEF dice are rolled")
        faces = list(getattr(c, die))
        if not 0 <= index < len(faces):
            raise Refused(f"no {die} HIT die #{index} (0-based; {len(faces)} rolled)")
        faces[index] = face
        return dataclasses.replace(state, combat=dataclasses.replace(c, **{die: tuple(faces)}, rerolled=c.rerolled + (key,)))
    if die == "def":
        if not c.defense:
            raise Refused("no DEF die has been rolled")
        tid, faces, sh = c.defense[-1]
        if not 0 <= index < len(faces):
            raise Refused(f"no DEF die #{index} (0-based; {len(faces)} rolled)")
        faces = faces[:index] + (face,) + faces[index + 1:]
        return dataclasses.replace(state, combat=dataclasses.replace(c, defense=c.defense[:-1] + ((tid, faces, sh),),
                                                                     rerolled=c.rerolled + (key,)))
    raise Refused(f"die is red, blue (HIT dice) or def (the last DEF roll), not {die!r}")


def resolve(state: SnsState) -> SnsState:
    """DEF stage 6 for every defender: HP lost, Magic Shields spent, then Critical and the attack's
    effects, Drain, Break and Bash; an Evade goes on when its last reaction is done."""
    from .state import Line
    c = state.combat
    if awaited(state) != "resolve":
        raise Refused(f"the attack still waits for dice ({awaited(state)})")
    p = plan(state, c)
    a = state.hero(c.attacker)
    rolled = {tid: (faces, dict(sh)) for tid, faces, sh in c.defense}
    lines = list(p["hits"].lines)
    results = []
    primary = c.targets[0]
    for tid, before, need in p["targets"]:
        t = state.hero(tid)
        faces, extra = rolled.get(tid, ((), {}))
        lost, text = combat.wounds(before.normal, before.lethal, faces, extra)
        lines += [f"{t.name}: " + " ".join(before.lines) if before.lines else f"{t.name}:", f"{t.name}: {text}"]
        state = put(state, dataclasses.replace(t, magic_shields=t.magic_shields - before.spent))
        if tid == primary:
            for cond in p["criticals"]:
                state = harm.inflict(state, tid, cond, by=a.id)
        if c.breaks and not state.options.break_after_damage:
            state = _breaks(state, tid, c.breaks, a.id)
        hp0 = state.hero(tid).hp
        state = harm.hurt(state, tid, lost, by=a.id)
        dealt = hp0 - state.hero(tid).hp if not state.hero(tid).ghost else hp0
        for cond in c.effects:
            state = harm.inflict(state, tid, cond, by=a.id)
        if c.breaks and state.options.break_after_damage:
            state = _breaks(state, tid, c.breaks, a.id)
        if c.drain and dealt:
            state = harm.heal(state, a.id, min(c.drain, dealt))
        after = state.hero(tid)
        results.append(f"{t.name} {t.hp} → {after.hp}" + (" (Ghost Soul)" if after.ghost and not t.ghost else ""))
    if c.bash:
        state = _bash(state, primary, c.bash)
    title = f"{a.name} attacks {state.hero(primary).name}" + (f" ({c.kind})" if c.kind != "attack" else "")
    state = dataclasses.replace(state, combat=None, last=Line(title, tuple(lines), "; ".join(results)))
    if c.kind == "reaction" and state.evade is not None:
        ev = state.evade
        state = dataclasses.replace(state, evade=dataclasses.replace(
            ev, reactors=tuple(r for r in ev.reactors if r != c.attacker)))
        if state.hero(ev.hero).ghost:
            state = dataclasses.replace(state, evade=dataclasses.replace(state.evade, reactors=()))
        state = _finish_evade(state)
    return state


def _breaks(state: SnsState, tid: str, n: int, by: str) -> SnsState:
    """Each Break reduces the Armor by 1 for good; at 0 Armor the Character suffers 1 HP instead."""
    for _ in range(n):
        t = state.hero(tid)
        if t.ghost:
            break
        if t.armor - t.breaks > 0:
            state = put(state, dataclasses.replace(t, breaks=t.breaks + 1))
        else:
            state = harm.hurt(state, tid, 1, by=by)
    return state


def _bash(state: SnsState, tid: str, path: tuple[str, ...]) -> SnsState:
    """Bash: the defender moves back 1 area per Bash, where the attacker decides (6.5); no Evade."""
    for step in path:
        t = state.hero(tid)
        if t.ghost or t.area is None:
            break
        if step not in state.board.neighbours(t.area):
            raise Refused(f"bash: {step} is not adjacent to {t.area}")
        state = hazards.entering(put(state, dataclasses.replace(t, area=step)), tid, step)
    return state


def teleport(state: SnsState, hid: str, face: str) -> SnsState:
    """PvP III Spawn Gates Teleport: to the Gate the Blue Die names (reroll on the starting Gate);
    opponents there suffer Soulrank HP (a kill gives the teleporting Hero a Kill Coin, reading)."""
    if "spawn-gate-teleport" not in state.quest.special:
        raise Refused("Spawn Gate teleport is a Special Quest Rule of PvP Quest III")
    h = _turn_hero(state, hid)
    gates = dict(state.board.gates)
    here = next((n for n, a in gates.items() if a == h.area), None)
    if here is None:
        raise Refused(f"{h.name} is not in a Spawn Gate's area ({', '.join(gates.values())})")
    n = gate(face)
    if n is None or n not in gates:
        raise Refused(f"face {face!r} names no Spawn Gate of the board ({', '.join(map(str, gates))})")
    if n == here:
        raise Refused(f"the die shows Gate {n}, where {h.name} started: reroll")
    dest = gates[n]
    state = put(state, dataclasses.replace(h, area=dest))
    by = hid if state.options.teleport_kill_coins else ""
    for _, o in state.heroes:
        if o.area == dest and not o.ghost and o.team != h.team and o.team not in state.team(h.team).allies:
            state = harm.hurt(state, o.id, h.soulrank, by=by)
    return state
