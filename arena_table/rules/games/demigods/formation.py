"""Hero formation: the row of hero cards and its links ('Hero Formation', p.12).

Cards lie left to right from highest to lowest initiative; the player orders
ties. Adjacent heroes of the same race each get +1 morale (the middle one of
three gets +2), adjacent heroes of the same base-attack type each get one
reroll per attack (the middle one of three gets two). Links are worked out on
the living heroes only, so a death closes the row up: links are lost and new
ones can form (p.30 'the death of a hero can disrupt a team's formation, both
breaking and creating attack and racial links').
"""

from __future__ import annotations

import dataclasses
from typing import Sequence

from .state import DemigodsState, heroes_of, put


def check_order(heroes: Sequence[str], initiative: dict[str, int], owned: Sequence[str]) -> str:
    """Why ``heroes`` is not a valid formation of the heroes ``owned``, or '' if it is.

    >>> check_order(["knight", "trapper"], {"knight": 9, "trapper": 6}, ["trapper", "knight"])
    ''
    >>> check_order(["trapper", "knight"], {"knight": 9, "trapper": 6}, ["trapper", "knight"])
    'Trapper (initiative 6) cannot stand left of Knight (initiative 9)'
    """
    if sorted(heroes) != sorted(owned):
        return f"the formation must hold exactly the heroes {sorted(owned)}, got {list(heroes)}"
    for left, right in zip(heroes, heroes[1:]):
        if initiative[left] < initiative[right]:
            name = lambda h: h.replace("-", " ").title()  # noqa: E731
            return (f"{name(left)} (initiative {initiative[left]}) cannot stand left of "
                    f"{name(right)} (initiative {initiative[right]})")
    return ""


def default_order(heroes: Sequence[str], initiative: dict[str, int]) -> tuple[str, ...]:
    """Highest initiative first; ties keep the order the heroes were picked in."""
    return tuple(sorted(heroes, key=lambda h: -initiative[h]))


def link_counts(races: Sequence[str], attack_types: Sequence[str]) -> list[tuple[int, int]]:
    """``(morale, rerolls)`` per card of a row from its neighbours.

    >>> link_counts(["orc", "orc", "orc", "elf"], ["fire", "piercing", "piercing", "piercing"])
    [(1, 0), (2, 1), (1, 2), (0, 1)]
    """
    out = []
    for i in range(len(races)):
        near = [j for j in (i - 1, i + 1) if 0 <= j < len(races)]
        out.append((sum(races[j] == races[i] for j in near), sum(attack_types[j] == attack_types[i] for j in near)))
    return out


def relink(state: DemigodsState, player: str) -> DemigodsState:
    """``state`` with ``player``'s racial and attack links worked out again on the living heroes."""
    row = heroes_of(state, player)
    counts = link_counts([h.race for h in row], [h.attack_type for h in row])
    return put(state, *(dataclasses.replace(h, link_morale=m, rerolls=r) for h, (m, r) in zip(row, counts)))
