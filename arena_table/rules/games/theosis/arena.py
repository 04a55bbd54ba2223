"""The Combat Phase turn structure (pp.14-15, pp.44-45): nine turns, Rituals first, then heroes in
Ranking order, then monsters; end-of-turn tokens; the non-attacking actions.

Heroes act in Ranking order. A Hero whose Ranking token is flipped (Paralyze, Blackout,
Earth's Grab) flips it back instead of acting (errata p.34). At the end of each Hero's own
turn Rejuvenation heals one, then Fiery Purge takes one (p.43), and Guardian Angel heals two
(errata p.45). Every Weapon or Armor flipped face down comes back before the next turn.
"""

from __future__ import annotations

import dataclasses

from arena_table.rules.kernel.errors import Refused
from arena_table.rules.kernel.geometry import hexes

from . import catalog
from .board import board
from .events import Bless, CastRitual, Move, Pass, UseSkill
from .mats import (add_gems, alive_hero, clear_tokens, damage, give_gems, heal, mitigation, name,
                   place_token, play_card, remove, remove_gems, skills_of, speed_of, tokens_on)
from .state import ALL_ITEMS, CENTRE, Pending, ThState, replace_hero, replace_monster, replace_player


def allies(state: ThState, hero_id: str, *, include_self: bool = True) -> list[str]:
    team = state.team_of(hero_id)
    return [h for h, x in state.heroes.items() if x.alive and state.team_of(h) == team
            and (include_self or h != hero_id)]


def enemies(state: ThState, hero_id: str) -> list[str]:
    team = state.team_of(hero_id)
    return [h for h, x in state.heroes.items() if x.alive and state.team_of(h) != team]


def area_safe(state: ThState, hero_id: str) -> bool:
    """Starting triads protect from area effects on turn 1 (errata p.14)."""
    return state.turn == 1 and state.heroes[hero_id].on_start


# --- turn flow -------------------------------------------------------------------------------

def begin_turn(state: ThState) -> ThState:
    """Start Arena turn ``state.turn``: items flip back, due Rituals wait to be cast, else heroes act."""
    heroes = {k: dataclasses.replace(h, items_off=()) for k, h in state.heroes.items()}
    state = dataclasses.replace(state, heroes=heroes, acted=(), acting=0, pending=None)
    due = due_rituals(state)
    if due:
        return dataclasses.replace(state, pending=Pending("ritual", data={"due": due}))
    return advance(state)


def due_rituals(state: ThState) -> list[str]:
    return [p.id for p in state.players for r, t in p.rituals if t == state.turn and r not in p.cast]


def advance(state: ThState) -> ThState:
    """Point at the next Hero to act; flipped tokens flip back (that Hero's turn passes). When every
    living Hero has acted the state is left as it is, and :mod:`.flow` moves on."""
    while state.phase == "combat":
        nxt = next((i for i, h in enumerate(state.ranking)
                    if h not in state.acted and state.heroes[h].alive), None)
        if nxt is None:
            return state  # every Hero has acted: the phase table ends the heroes' part (flow.py)
        hid = state.ranking[nxt]
        h = state.heroes[hid]
        if (h.cell and h.cell in state.ritual_cells.get("wall-of-fire", ()) and not h.flipped
                and not area_safe(state, hid)):
            state = auto_damage(state, hid, 4, "fire")  # starting the turn in the Wall of Fire (errata p.45)
            if not state.heroes[hid].alive:
                continue
        if not h.flipped:
            return dataclasses.replace(state, acting=nxt)
        state = replace_hero(state, dataclasses.replace(h, flipped=False))
        state = end_hero_turn(dataclasses.replace(state, acted=state.acted + (hid,)), hid)
    return state


def finish(state: ThState, hero_id: str, *, extra_turn: bool = False) -> ThState:
    """The acting Hero's action is over: end-of-turn tokens, then the next Hero."""
    if extra_turn or state.phase != "combat":
        return dataclasses.replace(state, pad_powers={})
    state = dataclasses.replace(state, acted=state.acted + (hero_id,), pad_powers={}, follow_up="", moved=0)
    return advance(end_hero_turn(state, hero_id))


def end_hero_turn(state: ThState, hero_id: str) -> ThState:
    """Rejuvenation (+1) before Fiery Purge (-1, not reduced) (p.43); Guardian Angel +2 (errata p.45)."""
    if "rejuvenation" in tokens_on(state, hero_id):
        state = heal(state, hero_id, 1)
    if "fiery-purge" in tokens_on(state, hero_id):
        state = damage(state, hero_id, 1)
    h = state.heroes[hero_id]
    if h.alive and h.cell and h.cell in state.ritual_cells.get("guardian-angel", ()):
        state = heal(state, hero_id, 2)
    if "thalassic-favour" in tokens_on(state, hero_id):
        state = add_gems(state, hero_id, 1)
    return state


def require_actor(state: ThState, hero_id: str) -> None:
    if state.phase != "combat":
        raise Refused("heroes act only in the Arena")
    if state.pending:
        raise Refused(f"waiting for {state.pending.kind} first")
    acting = state.acting_hero()
    if hero_id != acting:
        raise Refused(f"it is {name(state, acting) if acting else 'nobody'}'s turn, not {name(state, hero_id)}'s")


# --- actions 1-3 and non-attacking Skills -----------------------------------------------------

def pass_turn(state: ThState, ev: Pass) -> ThState:
    """Actions 1-2 (p.14): discard a Power face down; optionally place a gem and take one Damage."""
    require_actor(state, ev.hero)
    h = state.heroes[ev.hero]
    card = ev.power or state.pad_powers.get("attacker", "")
    if card:
        state = play_card(state, h.player, card)
    elif state.player(h.player).hand:
        raise Refused("actions 1 and 2 discard a Power face down: name it")
    if ev.skill:
        if ev.skill in h.mana:
            raise Refused(f"{name(state, ev.hero)}'s {ev.skill} already holds a Mana gem")
        state = damage(add_gems(state, ev.hero, 1, ev.skill), ev.hero, 1)
    return finish(state, ev.hero)


def bless(state: ThState, ev: Bless) -> ThState:
    """Action 3: a Blessing face up on an allied Hero; the token leaves its former target (Power Management).

    Valor, Aegis and Rejuvenation read "target an allied Hero", and the FAQ answers that what
    targets an "Allied Hero" cannot target the hero using it unless it says so: a hero cannot
    bless itself, unless the table chose the option ``self_bless`` (:class:`.state.Config`).

    Raises:
        Refused: not the acting hero's action, not a Blessing, the hero itself, or not an ally.
    """
    require_actor(state, ev.hero)
    if catalog.powers().get(ev.power, {}).get("type") != "blessing":
        raise Refused(f"{name(state, ev.power)} is not a Blessing")
    alive_hero(state, ev.target)
    if ev.target == ev.hero and not state.config.self_bless:
        raise Refused(f"{name(state, ev.hero)} cannot bless itself: a Blessing targets an allied Hero",
                      rule="Theosis Powers (Valor, Aegis, Rejuvenation) and FAQ (Allied Hero)")
    if state.team_of(ev.target) != state.team_of(ev.hero):
        raise Refused(f"{name(state, ev.target)} is not an allied hero")
    state = play_card(state, state.heroes[ev.hero].player, ev.power)
    state = place_token(state, ev.power, ev.target)
    return finish(state, ev.hero)


def spend_gem(state: ThState, hero_id: str, skill: str) -> ThState:
    h = state.heroes[hero_id]
    if skill not in skills_of(state, hero_id):
        raise Refused(f"{name(state, hero_id)} has no skill {skill!r} (skills: {', '.join(skills_of(state, hero_id))})")
    if skill not in h.mana:
        raise Refused(f"{name(state, hero_id)}'s {catalog.skills()[skill]['name']} holds no Mana gem")
    return replace_hero(state, dataclasses.replace(h, mana=tuple(s for s in h.mana if s != skill)))


def auto_damage(state: ThState, hero_id: str, amount: int, dtype: str) -> ThState:
    """Damage outside combat, reduced by Armor: Protection negates, Resistance halves (Damage and Resistances)."""
    prot, res = mitigation(state, hero_id)
    if dtype in prot:
        return state
    return damage(state, hero_id, amount // 2 if dtype in res else amount)


def use_skill(state: ThState, ev: UseSkill) -> ThState:
    """Action 6 with a Skill that does not attack (pp.32-37); the Power is discarded face down."""
    require_actor(state, ev.hero)
    skill = catalog.skills().get(ev.skill)
    if skill is None or skill["kind"] == "attack":
        raise Refused(f"{ev.skill!r} is not a non-attacking skill; attack skills use th-attack")
    harms = skill["kind"] == "auto" or "crimson-offering" in skill.get("effects", ())
    if harms and "pacify" in tokens_on(state, ev.hero):
        # Pacify (p.39): only "Powers and Skills that will not inflict Damage to other Heroes"
        raise Refused(f"{name(state, ev.hero)} is Pacified: {skill['name']} would inflict Damage "
                       "on other Heroes (p.39)")
    state = spend_gem(state, ev.hero, ev.skill)
    if ev.power:
        state = play_card(state, state.heroes[ev.hero].player, ev.power)
    extra = False
    for eff in skill.get("effects", ()):
        key, _, arg = eff.partition(":")
        n = int(arg) if arg.isdigit() else 0
        if key == "heal":
            for t in ev.target or (ev.hero,):
                state = heal(state, t, n)
                if "cleanse" in skill["effects"]:
                    state = clear_tokens(state, t, "curse")
        elif key == "heal-allies":
            for t in allies(state, ev.hero):
                state = heal(state, t, n)
        elif key == "mana-allies":
            for t in allies(state, ev.hero):
                state = add_gems(state, t, n)
        elif key == "cleanse-allies":
            for t in allies(state, ev.hero):
                state = clear_tokens(state, t, "curse")
        elif key == "cleanse-one":
            state = cleanse_one(state, ev, ev.target or (ev.hero,))
        elif key in ("give-mana", "burn-mana"):
            for t in ev.target:
                alive_hero(state, t)
                state = add_gems(state, t, n) if key == "give-mana" else remove_gems(state, t, n)
        elif key == "gain-mana":
            state = add_gems(state, ev.hero, 1)
        elif key == "steal-mana" and ev.target:
            victim = state.heroes[ev.target[0]]
            if victim.mana:
                state = add_gems(remove_gems(state, victim.id, 1), ev.hero, 1)
        elif key == "flip-target":
            t = ev.target[0] if ev.target else ""
            if t not in state.heroes or t in state.acted:
                raise Refused("Blackout needs a hero that has not acted yet")
            state = replace_hero(state, dataclasses.replace(state.heroes[t], flipped=True))
        elif key == "stealth":
            state = replace_hero(state, dataclasses.replace(state.heroes[ev.hero], stealth=True))
        elif key == "remove-ritual":
            gone = [t for t in ev.target if t in state.ritual_cells]
            if not gone:
                raise Refused(f"name the Ritual token to remove: {', '.join(state.ritual_cells) or 'none in the Arena'}")
            state = dataclasses.replace(state, ritual_cells={k: v for k, v in state.ritual_cells.items()
                                                             if k not in gone})
        elif key == "martyrdom":
            for t in allies(state, ev.hero, include_self=False):
                state = add_gems(heal(state, t, 6), t, 3)
            state = remove(state, ev.hero, forever=True)
    if skill["kind"] == "auto":
        for t in enemies(state, ev.hero):
            if not area_safe(state, t):
                state = auto_damage(state, t, skill["amount"], skill["type"])
    return finish(state, ev.hero, extra_turn=extra)


def cleanse_one(state: ThState, ev: UseSkill, targets: tuple[str, ...]) -> ThState:
    """Catharsis (Appendix Skills): "You and each adjacent ally may remove one Curse of your choice".

    ``choice={"curse": {hero: curse}}`` names it ('' keeps every Curse); a hero with one Curse loses it
    without an entry, one with several must name it."""
    picks = ev.choice.get("curse", {})
    if not isinstance(picks, dict):
        raise Refused('choice curse maps each hero to the Curse removed: {"rochon": "pacify"}')
    stray = [h for h in picks if h not in targets]
    if stray:
        raise Refused(f"{name(state, stray[0])} is not a target of {catalog.skills()[ev.skill]['name']}")
    for t in targets:
        alive_hero(state, t)
        if state.team_of(t) != state.team_of(ev.hero):
            raise Refused(f"{name(state, t)} is not an allied hero")
        curses = tokens_on(state, t, "curse")
        pick = picks.get(t)
        if pick is None:
            if len(curses) > 1:
                raise Refused(f"{name(state, t)} has {len(curses)} Curses ({', '.join(name(state, c) for c in curses)}): "
                               f'name the one removed, choice={{"curse":{{"{t}":"..."}}}}')
            pick = curses[0] if curses else ""
        elif pick and pick not in curses:
            raise Refused(f"no {name(state, pick)} Curse on {name(state, t)}")
        if pick:
            state = dataclasses.replace(state, conditions={k: v for k, v in state.conditions.items() if k != pick})
    return state


# --- Rituals and movement --------------------------------------------------------------------

def cast_ritual(state: ThState, ev: CastRitual) -> ThState:
    """Cast the Ritual due this turn (p.14: Rituals come first), with its effect (pp.44-45)."""
    if all(p.id != ev.player for p in state.players):
        raise Refused(f"no player {ev.player!r} in this game")
    if not state.pending or state.pending.kind != "ritual" or ev.player not in state.pending.data["due"]:
        raise Refused(f"{ev.player} has no Ritual due now")
    p = state.player(ev.player)
    ritual = next(r for r, t in p.rituals if t == state.turn and r not in p.cast)
    state = replace_player(state, dataclasses.replace(p, cast=p.cast + (ritual,)))
    team = p.team
    friends = [h for h, x in state.heroes.items() if x.alive and state.team_of(h) == team]
    foes = [h for h, x in state.heroes.items() if x.alive and state.team_of(h) != team]
    if ritual == "consecration":
        for t in foes:
            if area_safe(state, t):
                continue
            state = clear_tokens(state, t, "blessing")
            prot, res = mitigation(state, t)
            if "light" not in prot | res:
                state = damage(state, t, 1)
    elif ritual == "mana-surge":
        if len(ev.mana) > 4:
            raise Refused("Mana Surge offers up to four Mana gems")
        state = give_gems(state, ev.mana)
    elif ritual == "purification":
        for t in friends:
            state = clear_tokens(heal(state, t, 2), t, "curse")
    elif ritual == "flesh-and-blood":
        state = dataclasses.replace(state, heroes={k: dataclasses.replace(h, items_off=(ALL_ITEMS,))
                                                   for k, h in state.heroes.items()})
    elif catalog.rituals()[ritual].get("token"):
        if CENTRE in ev.cells:
            raise Refused("a Ritual token may not cover the centre hex (p.44)")
        taken = {c for cells in state.ritual_cells.values() for c in cells}
        if taken & set(ev.cells):
            raise Refused("Ritual tokens cannot overlap (FAQ, errata p.44)")
        state = dataclasses.replace(state, ritual_cells={**state.ritual_cells, ritual: tuple(ev.cells)})
        if ritual == "wall-of-fire":
            for h, x in state.heroes.items():
                if x.alive and x.cell in ev.cells and not area_safe(state, h):  # starting triads, turn 1 (errata p.14)
                    state = auto_damage(state, h, 4, "fire")
    due = due_rituals(state)
    if due:
        return dataclasses.replace(state, pending=Pending("ritual", data={"due": due}))
    return advance(dataclasses.replace(state, pending=None))


def occupied(state: ThState) -> dict[tuple[int, int], str]:
    out = {x.cell: h for h, x in state.heroes.items() if x.alive and x.cell}
    out.update({m.cell: m.id for m in state.monsters if m.alive and m.cell})
    return out


def move_allowance(state: ThState, hero_id: str) -> tuple[int | None, bool]:
    """``(hexes, leap)``: how far the acting Hero may move this turn -- its speed (p.14 Movement),
    twice that with a charged Charge or Leap Skill (Appendix Skills), ``None`` while the speed is
    not entered -- and whether a charged Leap lets it ignore the obstacles it moves through."""
    speed = speed_of(state, hero_id)
    effects = {e for s in state.heroes[hero_id].mana for e in catalog.skills()[s].get("effects", ())}
    if speed is None:
        return None, "leap" in effects
    return speed * (2 if effects & {"charge", "leap"} else 1), "leap" in effects


def _own_move(state: ThState, hero_id: str, start: tuple[int, int], cell: tuple[int, int]) -> ThState:
    """The acting Hero's optional move: at most :func:`move_allowance` hexes; unchecked while the
    speed is not entered."""
    moved = state.moved + hexes.distance(start, cell)
    allowed = move_allowance(state, hero_id)[0]
    if allowed is not None:
        if moved > allowed:
            raise Refused(f"{name(state, hero_id)} can move {allowed} hex{'es' if allowed != 1 else ''} "
                           f"this turn, not {moved}")
    return dataclasses.replace(state, moved=moved)


def decline(state: ThState) -> ThState:
    """``th-next`` in the Arena: the acting Hero forgoes the second attack or additional turn it is owed."""
    hid = state.acting_hero()
    if not hid or state.follow_up != hid:
        raise Refused("th-next in the Arena only ends a turn that Twin Strike or Celerity extended")
    return finish(state, hid)


def move(state: ThState, ev: Move) -> ThState:
    """A figure stands on a hex: a hero entering the Arena, its own move, or a push/pull (p.14, p.16),
    or a monster (entering at the centre, moving, charging)."""
    cell = tuple(ev.cell)
    if state.phase in ("preparation", "fast"):
        now = ("Fast Action Preparation" if state.phase == "fast"
               else f"the Preparation Phase (Hierapolis turn {state.prep_turn}/6)")
        raise Refused(f"figures enter the Arena once the Preparation Phase is over (p.13); it is {now}")
    if not board(state).has(cell):
        raise Refused(f"{list(cell)} is off the Arena (radius {state.config.arena_radius} hexes around the centre)")
    other = occupied(state).get(cell)
    if other and other != ev.hero:
        raise Refused(f"{name(state, other)} already stands on {list(cell)}")
    if ev.hero not in state.heroes and any(m.id == ev.hero and m.alive for m in state.monsters):
        return replace_monster(state, dataclasses.replace(state.monster(ev.hero), cell=cell))
    h = alive_hero(state, ev.hero)
    if state.acting_hero() == ev.hero and h.cell is not None and not ev.placed:
        state = _own_move(state, ev.hero, h.cell, cell)
    left_start = state.phase in ("combat", "monsters") and bool(state.acted or state.acting_hero() == ev.hero)
    if ev.facing is not None and not 0 <= ev.facing <= 5:
        raise Refused(f"facing {ev.facing} is not a hex side 0-5 (E, NE, NW, W, SW, SE)")
    facing = h.facing if ev.facing is None else ev.facing
    state = replace_hero(state, dataclasses.replace(h, cell=cell, on_start=h.on_start and not left_start, facing=facing))
    if cell in state.ritual_cells.get("wall-of-fire", ()) and not area_safe(state, ev.hero):
        state = auto_damage(state, ev.hero, 4, "fire")
    return state

