"""Body Conditions (Rules Reference Sheet, Body Conditions), pure.

Health Conditions share one Pyramid token: Rank I Slowed, Rank II Blinded, Rank III Stunned.
Bleed and Poison have Ranks I/II; Fire tokens (I/II) stack, each a Body Condition of its own.
"When a Character suffers a second Body Condition that shares the same Pyramid-token/Name (except
Fire) of one it already has: if the new Rank is greater, the new Condition replaces the previous
one; otherwise the new Condition is ignored, and the Character suffers 1 HP instead."

Each function returns the Hero without touching its HP and the HP it must lose, so the caller
applies the damage once (and death with it).

>>> from .state import Hero
>>> h = Hero("shae", "Shae", "purple", 10, 10, 1, 3, 2, fire=(2,))
>>> h, lost = inflict(h, "fire1")
>>> h.fire, lost
((2, 1), 1)
>>> time_phase(h)[0].fire, time_phase(h)[1]
((1,), 2)
"""

from __future__ import annotations

import dataclasses

from .state import Hero

HEALTH = {"slowed": 1, "blinded": 2, "stunned": 3}
"""Health Conditions by Rank (one Pyramid token)."""
NAMES = ("slowed", "blinded", "stunned", "bleed1", "bleed2", "fire1", "fire2", "poison1", "poison2", "ko")
ALIASES = {"slow": "slowed", "blind": "blinded", "stun": "stunned", "bleed": "bleed1", "fire": "fire1",
           "poison": "poison1", "k.o.": "ko"}


def canonical(name: str, act: int = 1) -> str:
    """A condition name in canonical form; ``fireact``/``bleedact`` take the ACT as Rank (Lava,
    Pitfall II, Pitfall X).

    Raises:
        ValueError: unknown name, listing the known ones.
    """
    n = str(name).strip().lower().replace(" ", "").replace("-", "")
    for base in ("bleed", "fire", "poison"):
        if n in (base + "ii", base + "i"):
            n = base + ("2" if n.endswith("ii") else "1")
        elif n == base + "act":
            n = f"{base}{min(act, 2)}"
    n = ALIASES.get(n, n)
    if n not in NAMES:
        raise ValueError(f"unknown Body Condition {name!r}; conditions: {', '.join(NAMES)} (fireact, bleedact: Rank = ACT)")
    return n


def inflict(hero: Hero, name: str, turn: int = 0) -> tuple[Hero, int]:
    """``hero`` suffers the condition ``name`` (canonical); returns ``(hero, HP to lose)``.

    Fire inflicts 1 HP and then places its token (Fire: "Inflicts 1 HP and then place one Fire
    token"); the rank rule gives 1 HP for an equal or lower Rank of the same Pyramid/Name.
    ``turn``: number of the Hero Turn under way (it dates a Health Condition).
    """
    if name.startswith("fire"):
        return dataclasses.replace(hero, fire=hero.fire + (int(name[-1]),)), 1
    if name == "ko":
        return dataclasses.replace(hero, ko=True), 0
    if name in HEALTH:
        rank, current, fld = HEALTH[name], hero.health, "health"
    else:
        rank, fld = int(name[-1]), name[:-1]
        current = getattr(hero, fld)
    if rank > current:
        extra = {"health_since": turn} if fld == "health" else {}
        return dataclasses.replace(hero, **{fld: rank}, **extra), 0
    return hero, 1


def names(hero: Hero) -> tuple[str, ...]:
    """The conditions ``hero`` has, in the sheet's order (a Fire token once per token)."""
    out = [n for n, r in HEALTH.items() if hero.health == r]
    out += [f"bleed{hero.bleed}"] if hero.bleed else []
    out += [f"fire{r}" for r in hero.fire]
    out += [f"poison{hero.poison}"] if hero.poison else []
    out += ["ko"] if hero.ko else []
    return tuple(out)


def time_phase(hero: Hero) -> tuple[Hero, int]:
    """Effects Cleanup of the Time Phase: damage first, then the other effects.

    Fire: 1 HP per token regardless of Rank; Poison: 1 HP per Rank. Then Bleed and Fire tokens:
    each Rank I is discarded and each Rank II flips to Rank I. Poison stays until a Save succeeds.
    """
    lost = len(hero.fire) + hero.poison
    return dataclasses.replace(hero, fire=tuple(1 for r in hero.fire if r == 2),
                               bleed=1 if hero.bleed == 2 else 0), lost


def cleared(hero: Hero) -> Hero:
    """``hero`` without any Body Condition (death: the Ghost Soul carries none)."""
    return dataclasses.replace(hero, health=0, health_since=0, bleed=0, poison=0, fire=(), ko=False, afflicted_by="")
