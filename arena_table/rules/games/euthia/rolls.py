"""Hero Rolls and what they decide: attack bands, Charm, Map Secrets Tasks, and the Final Scoring.

A Hero Roll is the sum of the Hero's two dice plus modifiers (Earth Power +2 with the ``hero``
reading, Hawk Spirit's Earth Power +2, l.320; a Rotting Worm -2/-3/-4, l.602-604; tiles such as
Legacy +1; the Hero's Combat Value changes carried to the next Hero Attack). A weapon's
Hero-Attack results are bands such as ``2-5 / 6-8 / 9+`` (Elven Sword, l.275).

>>> bands("2-5/6-8/9+"), band_of(bands("2-5/6-8/9+"), 7)
(((2, 5), (6, 8), (9, None)), 2)
>>> charm(5), charm(6), charm(11)
('fail', 'partial', 'success')
>>> task_roll("bird", 7), task_roll("deer", 8)
(False, True)
>>> flees({2, 3, 5})
2
>>> final_scoring(("bird", "bird", "wolf", "glowing-skulls"))
5
"""

from __future__ import annotations

import dataclasses
import re

from . import wounds
from .state import EuState, HeroRoll, Refused

WEAPONS = {"elven-sword": "2-5/6-8/9+", "rusty-cleaver": "5-8/9+", "crystal-staff": "2-4/5-9/10+"}
"""Weapon tiles whose Hero-Attack dice results the book prints (Eltrea's Elven Sword l.275, Dral's
Rusty Cleaver l.409, Maeldur's Crystal Staff l.466)."""
CHARM = ((None, 5, "fail"), (6, 10, "partial"), (11, None, "success"))
"""Charm (l.229-238): 5 or less fails; 6-10 avoids the fight for 2 Injuries and 2 Silver cards;
11 or more avoids it and gains 1 Reputation."""
TASKS = {"bird": 10, "deer": 8}
"""Hero Roll thresholds of the hunting Tasks (Bird l.630-633, Deer l.653-656)."""
BEASTS = {"wolf": 3, "bear": 4}
"""Damage totals the killing Tasks need (Wolf l.662-667, Bear l.641-646)."""
SCORING = {1: 1, 2: 3, 3: 5, 4: 8}
"""Map Secrets Final Scoring: different Tasks fulfilled -> Reputation (l.622-624); the table's
last column is "4" and is read as 4 or more."""
PURPOSES = ("attack", "charm", "bird", "deer", "other")


def bands(text: str) -> tuple[tuple[int, int | None], ...]:
    """``"2-5/6-8/9+"`` as ``((2, 5), (6, 8), (9, None))``.

    Raises:
        Refused: not bands of whole numbers in rising order.
    """
    out: list[tuple[int, int | None]] = []
    for part in text.replace(" ", "").split("/"):
        m = re.fullmatch(r"(\d+)(?:-(\d+)|(\+))", part)
        if not m:
            raise Refused(f"weapon bands are written like 2-5/6-8/9+, not {text!r}")
        lo, hi = int(m.group(1)), (int(m.group(2)) if m.group(2) else None)
        if (hi is not None and hi < lo) or (out and (out[-1][1] is None or lo <= out[-1][1])):
            raise Refused(f"weapon bands must rise without overlapping: {text!r}")
        out.append((lo, hi))
    return tuple(out)


def band_of(ranges: tuple[tuple[int, int | None], ...], value: int) -> int:
    """1-based band ``value`` falls in, 0 below the first (a miss)."""
    for i, (lo, hi) in enumerate(ranges, 1):
        if value >= lo and (hi is None or value <= hi):
            return i
    return 0


def charm(value: int) -> str:
    """Charm's result for a Hero Roll (``fail``, ``partial``, ``success``)."""
    return next(r for lo, hi, r in CHARM if (lo is None or value >= lo) and (hi is None or value <= hi))


def task_roll(task: str, value: int) -> bool:
    """Whether a Bird or Deer hunt succeeds."""
    return value >= TASKS[task]


def flees(revealed: set[int]) -> int:
    """The direction a Bird or Deer that escaped flies or runs: the lowest-numbered one where the
    Map is revealed (l.634-636)."""
    if not revealed:
        raise Refused("the Map is revealed in no direction 1-6 around the hex")
    return min(revealed)


def beast_task(beast: str, damage: tuple[int, ...]) -> bool:
    """Whether a Wolf or Bear is killed: the First Strike and Hero Attack Damage reach its total."""
    return sum(damage) >= BEASTS[beast]


def final_scoring(objects: tuple[str, ...]) -> int:
    """Reputation for the different Tasks fulfilled (Object tokens beside the Hero board): a Bird of
    any colour or a Blood Rock of any shape is one Task, the two Will o' Wisps are two (l.625)."""
    n = len(set(objects))
    return SCORING[min(n, 4)] if n else 0


def begin(state: EuState, hero: str, purpose: str, target: str, weapon: str,
          revealed: tuple[int, ...]) -> EuState:
    """Await ``hero``'s two dice for a Hero Roll.

    Raises:
        Refused: another roll or a Monster Attack is open, an unknown purpose or weapon.
    """
    h = state.hero(hero)
    if purpose not in PURPOSES:
        raise Refused(f"a Hero Roll is for {', '.join(PURPOSES)}, not {purpose!r}")
    c = state.combat
    in_combat = c is not None and not c.over
    if in_combat and (c.attack is not None or c.roll is not None):
        raise Refused("a Monster Attack or another Hero Roll is still open")
    if purpose == "attack":
        if not in_combat or hero not in c.heroes or hero in c.dead:
            raise Refused(f"{h.name} is not fighting a Combat")
        if hero in c.struck:
            raise Refused(f"{h.name} attacked already this Combat Round")
        if hero in c.first_struck:
            raise Refused(f"{h.name} made its First Strike already: each Hero may perform one (l.927)")
        waiting = [e.name for i, e in enumerate(c.enemies) if not e.defeated and i not in c.attacked]
        if c.attacks and waiting:  # after the First Strike, the Enemies attack before the Heroes (l.937-942)
            raise Refused(f"the Enemies attack first this Combat Round: {', '.join(waiting)} still to attack")
    if purpose == "charm" and (not in_combat or c.attacks or len(c.enemies) != 1
                               or state.config.monsters[c.enemies[0].card].get("level") != 1):
        raise Refused("Charm is tried at the Combat Setup against one Level 1 Monster (l.228)")
    ranges = bands(WEAPONS.get(weapon, weapon)) if weapon else ()
    mods: list[tuple[int, str]] = []
    if in_combat and hero in c.heroes:
        if c.power == "earth" and state.config.earth == "hero":
            mods.append((2, "Earth"))
        if c.familiar == "earth":
            mods.append((2, "Hawk Spirit's Earth Power"))
        for x in c.creatures:
            box = state.config.cards[x.cache][x.kind]["boxes"][x.slot - 1]
            if box.get("hero_rolls") and wounds.is_acting(x, c.attacks, state.config.creature_now):
                mods.append((box["hero_rolls"], f"{state.config.cards[x.cache][x.kind]['name']} (box {x.slot})"))
        if purpose == "attack":
            mods += list(c.hero_cv_next.get(hero, ()))
            if not target.startswith("rotting-"):
                living = [e for e in c.enemies if not e.defeated]
                foe = c.enemies[int(target)] if target.isdigit() and int(target) < len(c.enemies) else living[0]
                pen = state.config.monsters[foe.card].get("penalty", 0)
                if pen:
                    mods.append((-pen, "Hero Roll Penalty"))
    roll = HeroRoll(hero=hero, purpose=purpose, target=target, bands=ranges, mods=tuple(mods), revealed=revealed)
    if in_combat and hero in c.heroes:
        c = dataclasses.replace(c, roll=roll, hero_cv_next={k: v for k, v in c.hero_cv_next.items()
                                                            if k != hero or purpose != "attack"})
        return dataclasses.replace(state, combat=c)
    return dataclasses.replace(state, last={"roll": roll})


def open_roll(state: EuState) -> HeroRoll | None:
    c = state.combat
    if c is not None and not c.over and c.roll is not None:
        return c.roll
    r = state.last.get("roll")
    return r if isinstance(r, HeroRoll) else None


def _put(state: EuState, roll: HeroRoll | None) -> EuState:
    c = state.combat
    if c is not None and not c.over and c.roll is not None:
        return dataclasses.replace(state, combat=dataclasses.replace(c, roll=roll))
    last = {k: v for k, v in state.last.items() if k != "roll"}
    return dataclasses.replace(state, last={**last, "roll": roll} if roll else last)


def value(roll: HeroRoll) -> int:
    """The Hero Roll's Final Value: the two dice plus every modifier."""
    return sum(roll.dice) + sum(m for m, _ in roll.mods)


def hero_dice(state: EuState, faces: tuple[int, ...]) -> EuState:
    """The Hero's two dice read for the open Hero Roll.

    Raises:
        Refused: no Hero Roll is awaited, or not two dice.
    """
    roll = open_roll(state)
    if roll is None or roll.dice:
        raise Refused("no Hero Roll is awaited: say whose roll it is and what for first (eu-hero-roll)")
    if len(faces) != 2:
        raise Refused(f"a Hero Roll is the sum of the Hero's two dice, got {len(faces)}")
    return _put(state, dataclasses.replace(roll, dice=tuple(faces)))


def add_to_roll(state: EuState, amount: int, why: str) -> EuState:
    """'After any Hero Roll: add N to your roll' (Legacy, Fortune, Prayer, Will o' Wisp ...)."""
    roll = open_roll(state)
    if roll is None or not roll.dice:
        raise Refused("no Hero Roll has been made to add to")
    return _put(state, dataclasses.replace(roll, mods=roll.mods + ((amount, why),)))


def settle(state: EuState) -> EuState:
    """A non-attack Hero Roll's result takes effect (Charm, Bird, Deer); the roll closes."""
    roll = open_roll(state)
    if roll is None or not roll.dice:
        raise Refused("no Hero Roll has been made")
    h, v = state.hero(roll.hero), value(roll)
    lines = [f"{h.name} rolls {' + '.join(map(str, roll.dice))}"
             + "".join(f" {m:+d} {why}" for m, why in roll.mods) + f" = {v}"]
    result = ""
    if roll.purpose == "charm":
        result = {"fail": "the Charm fails: the Combat goes on", "partial":
                  "charmed: 2 Injuries, 2 Silver cards (not to the cache) and the Loot; the hex is liberated",
                  "success": "charmed: the Loot and 1 Reputation; the hex is liberated"}[charm(v)]
        if charm(v) == "partial":
            h = dataclasses.replace(h, injuries=h.injuries + 2, purse={**h.purse, "silver": h.purse.get("silver", 0) + 2})
        elif charm(v) == "success":
            h = dataclasses.replace(h, reputation=h.reputation + 1)
        state = dataclasses.replace(state, heroes={**state.heroes, h.id: h})
        if charm(v) != "fail" and state.combat is not None and not state.combat.over:
            state = dataclasses.replace(state, combat=dataclasses.replace(state.combat, over="charmed", roll=None))
    elif roll.purpose in TASKS:
        if task_roll(roll.purpose, v):
            result = f"the hunt succeeds ({TASKS[roll.purpose]}+): take the {roll.purpose.title()} token"
            state = dataclasses.replace(state, heroes={**state.heroes, h.id: dataclasses.replace(
                h, sack=h.sack + (roll.purpose,))})
        else:
            where = f" in direction {flees(set(roll.revealed))}" if roll.revealed else ""
            result = f"below {TASKS[roll.purpose]}: the {roll.purpose.title()} {'flies' if roll.purpose == 'bird' else 'runs'} away{where}"
    elif roll.bands:
        b = band_of(roll.bands, v)
        result = f"band {b} of {len(roll.bands)}" if b else "below the first band"
    state = _put(state, None)
    return dataclasses.replace(state, last={"title": f"{h.name}'s Hero Roll ({roll.purpose})", "lines": lines,
                                            "result": result, "value": v})
