"""Buffs, debuffs and the stats they change ('Buffs & Debuffs', p.25; 'Morale', p.12).

Durations: a token starts on its "2" side and is flipped, then removed, at the
end of its bearer's turn. Buffs/debuffs on a Demigod or caused by a Demigod
start on "1" (removed at the end of the bearer's next turn), except Bleed,
Freeze and Burn ('Demigods', p.16; p.25). Damage tokens (Bleed, Burn) deal
their wounds each time they are flipped or removed, never when placed.
Knockdown never flips: every knockdown token goes in the Preparation Phase
(p.24, p.34). Passive tokens never expire; global tokens (a whole side) flip in
the Preparation Phase.

The Summary (p.35) says a Demigod's tokens are all *removed* at the end of its
turn; the body text (p.25) keeps Bleed/Freeze/Burn on their two-turn course.
The engine follows the body text: every token ticks, and a Demigod's tokens
start on "1", so they go after one turn except those three.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Mapping

from arena_table.rules.kernel.mechanics.conditions import flip, total
from .state import MORALE_RANGE, Character, Condition, DemigodsState, side_name

FULL_COURSE = frozenset({"bleed", "freeze", "burn"})
"""Tokens that keep two turns even on/from a Demigod (p.16, p.25)."""
BURN_WOUNDS = 3
"""'Burn ... causing three wounds per round to the affected target' (p.24)."""
FREEZE_AP = 2
"""'Freeze ... lowering the total possible action points of the affected target by two' (p.24)."""
ICONS = {"damage": "sword", "physical_defense": "shield", "magical_defense": "shield", "defense": "shield",
         "morale": "star", "initiative": "clock", "ap": "bolt", "knockdown": "arrow-down", "burn": "flame",
         "freeze": "snowflake", "immobilize": "chain", "banish": "eye-off", "bleed": "drop"}


def make(spec: Mapping[str, Any], *, target: Character, source: Character | None = None) -> Condition:
    """A token from a data-file effect ``spec`` placed on ``target`` by ``source``.

    >>> from .state import Character
    >>> bs = Character(id="blacksmith", name="Blacksmith", player="A", kind="hero", klass="warrior", health=38, ap_max=5)
    >>> make({"name": "Bolt Shot", "stat": "damage", "amount": -3}, target=bs).turns
    2
    """
    stat = spec.get("stat", "")
    name = spec["name"]
    turns = int(spec.get("turns", 2))
    # 'Demigods': a token cast on a Demigod, or caused by one, lasts one turn; a global token is cast
    # on a whole team ('Global buffs and debuffs'), so the Demigod that names its side does not count
    on_demigod = target.kind == "demigod" and spec.get("scope", "character") != "global"
    demigod_involved = on_demigod or (source is not None and source.kind == "demigod")
    if demigod_involved and stat not in FULL_COURSE and name.lower() not in FULL_COURSE:
        turns = min(turns, 1)
    wounds = int(spec.get("wounds") or (BURN_WOUNDS if stat == "burn" else 0))
    return Condition(name=name, kind=spec.get("kind", "debuff"), stat=stat, amount=int(spec.get("amount", 0)),
                     turns=0 if spec.get("passive") else turns, passive=bool(spec.get("passive", False)),
                     scope=spec.get("scope", "character"), wounds=wounds,
                     icon=spec.get("icon") or ICONS.get(stat, "sparkle"), text=spec.get("text", ""),
                     source=source.id if source else "")


def add(ch: Character, cond: Condition) -> Character:
    """``ch`` bearing ``cond``; a token of the same name is replaced (one token per effect)."""
    kept = tuple(c for c in ch.conditions if c.name != cond.name)
    return dataclasses.replace(ch, conditions=kept + (cond,))


def remove(ch: Character, name: str) -> Character:
    return dataclasses.replace(ch, conditions=tuple(c for c in ch.conditions if c.name != name))


def end_of_turn(ch: Character) -> tuple[Character, int, tuple[Condition, ...]]:
    """Flip/remove ``ch``'s non-passive, non-knockdown tokens at the end of its turn.

    Returns:
        ``(character, wounds from damage tokens, tokens ticked)``; the wounds are
        not yet added (the caller applies them so that deaths are handled once).
    """
    kept, ticked = flip(ch.conditions, lambda c: c.stat != "knockdown" and c.scope == "character")
    wounds = sum(c.wounds for c in ticked)
    return dataclasses.replace(ch, conditions=kept), wounds, ticked


def flip_global(conds: tuple[Condition, ...]) -> tuple[Condition, ...]:
    """Preparation Phase step 5: flip or remove global tokens."""
    return flip(conds)[0]


def remove_knockdown(ch: Character) -> Character:
    """Preparation Phase step 4."""
    return dataclasses.replace(ch, conditions=tuple(c for c in ch.conditions if c.stat != "knockdown"))


def _tokens(state: DemigodsState, ch: Character) -> tuple[Condition, ...]:
    if not state.global_conditions:
        return ch.conditions
    return ch.conditions + tuple(state.global_conditions.get(side_name(state, ch.player), ()))


def modifier(state: DemigodsState, ch: Character, stat: str) -> int:
    """Sum of the amounts of ``ch``'s tokens (own and global) changing ``stat``."""
    return total(_tokens(state, ch), stat)


def has(state: DemigodsState, ch: Character, stat: str) -> bool:
    return any(c.stat == stat for c in _tokens(state, ch))


def morale(state: DemigodsState, ch: Character) -> int:
    """Racial links plus morale tokens, clamped to -3..+3; Demigods and minions have none (p.12, p.16).

    >>> from .state import Character, DemigodsState
    >>> st = DemigodsState(mode="slayer", players=("A", "B"), teams=(("A",), ("B",)), team_names=("A", "B"),
    ...                    heroes_per_player=3)
    >>> h = Character(id="x", name="X", player="A", kind="hero", klass="tank", health=9, ap_max=5, link_morale=2,
    ...               conditions=(Condition(name="Rally", kind="buff", stat="morale", amount=3),))
    >>> morale(st, h)
    3
    """
    if ch.kind != "hero":
        return 0
    low, high = MORALE_RANGE
    return max(low, min(high, ch.link_morale + modifier(state, ch, "morale")))


def initiative(state: DemigodsState, ch: Character) -> int:
    """Initiative with buffs/debuffs; the formation is not changed by it (p.31)."""
    return ch.initiative + modifier(state, ch, "initiative")


def ap_for_turn(state: DemigodsState, ch: Character) -> int:
    """AP at the start of a turn: AP total, changed by tokens; Freeze -2; Knockdown 0 (p.24)."""
    if has(state, ch, "knockdown"):
        return 0
    frozen = FREEZE_AP if has(state, ch, "freeze") else 0
    return max(0, ch.ap_max + modifier(state, ch, "ap") - frozen)


def defense(state: DemigodsState, ch: Character, physical: bool) -> tuple[int, list[tuple[str, int]]]:
    """Physical or magical defense with tokens and morale: ``(value, [(label, amount), ...])``."""
    stat = "physical_defense" if physical else "magical_defense"
    base = ch.physical_defense if physical else ch.magical_defense
    parts = [(stat.replace("_", " "), base)]
    for label, amount in ((f"{stat.split('_')[0]} defense tokens", modifier(state, ch, stat)),
                          ("defense tokens", modifier(state, ch, "defense")), ("morale", morale(state, ch))):
        if amount:
            parts.append((label, amount))
    return sum(a for _, a in parts), parts


def turns_left(cond: Condition) -> int | None:
    """Turns left to show (None for passive tokens and knockdown, which lasts the round)."""
    if cond.passive or cond.stat == "knockdown":
        return None
    return cond.turns
