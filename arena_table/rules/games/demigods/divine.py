"""Divine power: rage, focus and mana ('Divine Power', p.12).

* Rage (tanks, warriors): starts at 1; +1 each time the hero is attacked by an
  opposing character or attacks one with its base attack (damage need not be
  dealt); no rage for a Retaliation attack (p.13); Fatality +2 on a kill;
  Enrage on an attack die +1 (p.24).
* Focus (archers, rogues): starts at 3; -1 each time attacked by an opposing
  character; +2 each Preparation Phase.
* Mana (mages): starts at 6; +1 each Preparation Phase.
* Everything is held between 0 and 6; friendly fire changes nothing (p.23).
"""

from __future__ import annotations

import dataclasses

from .state import DIVINE_MAX, Character

START = {"rage": 1, "focus": 3, "mana": 6}
"""Divine power at the start of the game."""
PER_ROUND = {"focus": 2, "mana": 1}
"""Gain in the Preparation Phase, step 1 (p.34)."""
FATALITY_RAGE = 2


def clamp(value: int) -> int:
    """Divine power held between 0 and 6.

    >>> clamp(8), clamp(-1)
    (6, 0)
    """
    return max(0, min(DIVINE_MAX, value))


def gain(ch: Character, power: str, amount: int) -> Character:
    """``ch`` with ``amount`` more of ``power`` if that is its divine power (capped 0..6)."""
    if ch.power != power or ch.kind != "hero":
        return ch
    return dataclasses.replace(ch, divine=clamp(ch.divine + amount))


def attacked(ch: Character) -> Character:
    """An opposing character attacked ``ch``: rage +1 or focus -1 (p.12)."""
    return gain(gain(ch, "rage", 1), "focus", -1)


def attacked_with_base_attack(ch: Character) -> Character:
    """``ch`` attacked an opposing character with its base attack: rage +1 (p.12)."""
    return gain(ch, "rage", 1)


def preparation(ch: Character) -> Character:
    """Preparation Phase step 1: focus +2, mana +1 (p.34)."""
    amount = PER_ROUND.get(ch.power, 0)
    return gain(ch, ch.power, amount) if amount else ch


def can_pay(ch: Character, cost: int) -> bool:
    return ch.divine >= cost


def pay(ch: Character, cost: int) -> Character:
    return dataclasses.replace(ch, divine=ch.divine - cost)
