"""Hero tiles, Familiar abilities, Scrolls and tokens that change the numbers (``data/tiles.json``).

Each use names the tile and, for a tile with choices, the choice (Cyclone ``one``/``both``,
Prayer ``roll``/``hope`` ...); 'the value shown' on a Scroll is entered with it. Timing follows
the tile: ``after-roll`` during the Hero's response in step C (a change there re-runs the Gaar
loop, l.823), ``before-roll`` before the Monster dice are read, ``first-strike`` before the first
Monster Attack, ``hero-roll`` on the Hero Roll just made, ``any`` wherever its effect fits.
"""

from __future__ import annotations

import dataclasses

from . import combat as cb, monster_attack as ma, rolls
from .catalog import tiles
from .state import EuState, Refused


def _amount(raw, value: int) -> int:
    if raw == "value":
        return value
    if raw == "-value":
        return -value
    return int(raw)


def use(state: EuState, hero: str, tile: str, choice: str, value: int, die: int) -> EuState:
    """The state after ``hero`` uses ``tile``.

    Raises:
        Refused: unknown tile or choice, a value missing, or the wrong moment for its timing.
    """
    data = tiles()
    if tile not in data:
        raise Refused(f"unknown tile {tile!r}; tiles: {', '.join(sorted(data))}")
    t = data[tile]
    if choice not in t["choices"]:
        raise Refused(f"{t['name']} is used as {' or '.join(repr(k) for k in t['choices'])}, not {choice!r}")
    h = state.hero(hero)
    fx = {k: (_amount(v, value) if k not in ("reroll", "one_die", "destroy") else v)
          for k, v in t["choices"][choice].items()}
    if any(v in ("value", "-value") for v in t["choices"][choice].values()) and value <= 0:
        raise Refused(f"{t['name']}: enter the value shown on it (value=N)")
    c = state.combat
    fighting = c is not None and not c.over and hero in c.heroes
    a = c.attack if fighting else None
    timing = t["timing"]
    why = t["name"]
    if timing == "after-roll" and (a is None or a.step != "response"):
        raise Refused(f"{why} is used After Monster-Attack Roll, in the Hero's response")
    if timing == "before-roll" and (not fighting or (a is not None and a.dice)):
        raise Refused(f"{why} is used Before Monster-Attack Roll")
    if timing == "first-strike" and (not fighting or c.attacks):
        raise Refused(f"{why} is used in the First Strike, before the first Monster Attack")
    if timing == "hero-roll" and rolls.open_roll(state) is None:
        raise Refused(f"{why} is used on a Hero Roll: make the roll first")
    if fx.get("hero_roll"):
        state = rolls.add_to_roll(state, fx["hero_roll"], why)
    if not fighting:
        if set(fx) - {"hero_roll"}:
            raise Refused(f"{why} acts in a Combat {h.name} fights")
        return state
    if fx.get("damage"):
        target = a.enemy if a is not None else next(i for i, e in enumerate(c.enemies) if not e.defeated)
        state = cb.enemy_damage(state, target, fx["damage"])
        if all(e.defeated for e in state.combat.enemies):
            return state  # the Combat is won (flow.py)
    c = state.combat
    if fx.get("hope"):
        c = dataclasses.replace(c, hope=min(state.config.die_of_hope_max, c.hope + fx["hope"]))
    if fx.get("hero_cv_next"):
        c = dataclasses.replace(c, hero_cv_next={**c.hero_cv_next, hero: c.hero_cv_next.get(hero, ()) + (
            (fx["hero_cv_next"], why),)})
    if fx.get("monster_cv_next"):
        c = dataclasses.replace(c, cv_next=c.cv_next + ((fx["monster_cv_next"], why),))
    if fx.get("injuries_next"):
        c = dataclasses.replace(c, injuries_next={**c.injuries_next, hero: c.injuries_next.get(hero, ()) + (
            (fx["injuries_next"], why),)})
    if fx.get("round_injuries"):
        c = dataclasses.replace(c, round_injuries={**c.round_injuries, hero: c.round_injuries.get(hero, 0)
                                                   + fx["round_injuries"]})
        if c.attack is not None and hero in c.attack.targets:
            c = dataclasses.replace(c, attack=dataclasses.replace(c.attack, injury_mods=c.attack.injury_mods + (
                (fx["round_injuries"], why, hero),)))
    if fx.get("one_die"):
        c = dataclasses.replace(c, one_die=True)
        if c.attack is not None:
            c = dataclasses.replace(c, attack=dataclasses.replace(c.attack, one_die=True))
    if fx.get("destroy"):
        kind = fx["destroy"]
        if getattr(c, kind) <= 0:
            raise Refused(f"the Monster has no {kind.title()} token to destroy")
        c = dataclasses.replace(c, **{kind: getattr(c, kind) - 1})
    if c.attack is not None:
        said = ", ".join(f"{k.replace('_', ' ')} {v:+d}" if isinstance(v, int) and not isinstance(v, bool) else k
                         for k, v in fx.items())
        c = dataclasses.replace(c, attack=dataclasses.replace(c.attack, lines=c.attack.lines + (
            f"{h.name} uses {why}: {said}",)))
    state = dataclasses.replace(state, combat=c)
    if timing == "after-roll" or (a is not None and a.step == "response" and (fx.get("cv") or fx.get("injuries"))):
        state = ma.modify(state, hero, fx.get("cv", 0), fx.get("injuries", 0), why)
        if fx.get("reroll"):
            dice = (0, 1) if fx["reroll"] == "both" else (die,)
            state = ma.hero_reroll(state, hero, dice, f"{why}: re-roll {'both Monster dice' if len(dice) == 2 else 'a Monster die'}")
    return state
