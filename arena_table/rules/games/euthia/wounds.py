"""Damage and healing of Enemies and of the Rotting Fly / Rotting Worm creatures.

Healing (Card Effect Clarifications, l.836-840): a Healing card heals the Monster's Damage; what it
cannot heal becomes a Monster Healing token, and a Monster with tokens that takes Damage which
does not kill it is healed by the Damage taken or the tokens' total, whichever is smaller.

Creatures (Playing Rotting Fly and Rotting Worm Cards, l.574-596): a creature's Health grows by
each matching card played again; the Chaos token moves to the box of a larger group; Damage
beyond a creature's Health goes on to the Monster; Healing effects never heal a creature.

>>> e = heal(Enemy("goblin-archer", "Goblin Archer", 5, damage=2), 3)
>>> e.damage, e.healing
(0, 1)
>>> e = hit(e, 2)
>>> e.damage, e.healing, e.defeated
(1, 0, False)
"""

from __future__ import annotations

import dataclasses

from .state import Creature, Enemy


def heal(enemy: Enemy, value: int, token: bool = True) -> Enemy:
    """``enemy`` healed by ``value`` (a Healing card: ``token`` keeps the unused part as a Monster
    Healing token; a Monster's own effect loses it unless ``own_heal_token``, ambiguities.md)."""
    used = min(enemy.damage, value)
    return dataclasses.replace(enemy, damage=enemy.damage - used,
                               healing=enemy.healing + (value - used if token else 0))


def hit(enemy: Enemy, amount: int) -> Enemy:
    """``enemy`` after taking ``amount`` Damage: defeated at its Health, else healed by its tokens."""
    if amount <= 0 or enemy.defeated:
        return enemy
    damage = enemy.damage + amount
    if damage >= enemy.health:
        return dataclasses.replace(enemy, damage=enemy.health, defeated=True)
    used = min(amount, enemy.healing)
    return dataclasses.replace(enemy, damage=damage - used, healing=enemy.healing - used)


def left(enemy: Enemy) -> int:
    """Health the Enemy has left."""
    return enemy.health - enemy.damage


def play(creatures: tuple[Creature, ...], kind: str, cache: str, count: int, health: int,
         attack: int) -> tuple[tuple[Creature, ...], bool]:
    """Creatures after ``count`` matching ``kind`` cards are played (one Chaos Action's stack).

    Returns ``(creatures, new)``: ``new`` when the creature entered now (its card takes the Chaos
    token); a grown creature keeps its token and the new one goes to the supply (ambiguities.md).

    >>> cs, new = play((), "rotting-worm", "gold", 1, 2, attack=1)
    >>> cs = (dataclasses.replace(cs[0], damage=1),)
    >>> cs, new = play(cs, "rotting-worm", "gold", 3, 2, attack=2)
    >>> cs[0].health - cs[0].damage, cs[0].slot, new
    (3, 3, False)
    """
    for i, c in enumerate(creatures):
        if c.kind == kind:
            bigger = count > c.group
            grown = dataclasses.replace(c, health=c.health + health, slot=min(count, 3) if bigger else c.slot,
                                        group=max(c.group, count))
            return creatures[:i] + (grown,) + creatures[i + 1:], False
    return creatures + (Creature(kind=kind, cache=cache, health=health, slot=min(count, 3), group=count,
                                 since=attack),), True


def hit_creature(creature: Creature, amount: int) -> tuple[Creature | None, int]:
    """The creature after ``amount`` Damage (``None`` once defeated) and the Damage left over for
    the Monster (Attacking Rotting Fly and Rotting Worm Creatures, l.588-596).

    >>> hit_creature(Creature("rotting-fly", "silver", 1), 3)
    (None, 2)
    """
    rest = creature.health - creature.damage
    if amount >= rest:
        return None, amount - rest
    return dataclasses.replace(creature, damage=creature.damage + amount), 0


def is_acting(creature: Creature, attack: int, now: bool) -> bool:
    """Whether the creature's effect applies in Monster Attack number ``attack``: from the one after
    it was revealed in (its timing is Before Monster-Attack Roll), or at once with ``now``."""
    return attack >= creature.since if now else attack > creature.since
