"""Damage arithmetic, pure ('Attacking', p.23; 'Attack Dice', p.24; 'Class Traits', p.13).

Damage = attack value + dice + weak spot + the attacker's modifiers (high
ground, morale, buffs/debuffs) + the target's vulnerabilities (knockdown,
pitfall) - the target's defense (physical or magical, chosen by the type of
the first die; with its tokens and morale; +2 Deflect against frontal attacks).
Pure damage ignores defense and every token on it. Wounds never go below 0.

Dice results (face index -> printed result, ``data/dice.json``):
Critical +4 (+6 with Marksmen); Failure -2 (mana users pay 2 mana instead,
see :func:`roll_terms`); numbers as printed; the other effects are applied
by the combat flow.

>>> terms, effects = roll_terms([("fire", -1)])
>>> common = common_total(("Black Wolf", 9), terms, [])
>>> against(common, [("weak spot", 2)], [("magical defense", 2)]).line
'9 - 1 + 2 weak spot = 10 - magical defense 2 = 8 wounds'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from .data import PHYSICAL

CRITICAL = 4
MARKSMEN_CRITICAL = 6
FAILURE = -2
FAILURE_MANA = 2
WEAK_SPOT = 2
BACKSTAB = 3
HIGH_GROUND = 2
KNOCKDOWN_EXTRA = 3
PITFALL_EXTRA = 3
DEFLECT = 2
EVASION = 2
ARCHERY_ENGAGED = -4
ARCHERY_FAR = -2
ARCHERY_FAR_FROM = 4
"""Archery: -2 'when their target is four or more fields away' (p.13)."""
ENRAGE_HEAL = 2
BACKFIRE_WOUNDS = 2
HIGH_GROUND_FALL = 4
"""Pure damage for being pushed from high ground (p.9)."""

Term = tuple[str, int]


def is_physical(attack_type: str) -> bool:
    return attack_type in PHYSICAL


def read(faces: dict[str, Sequence[Any]], die_type: str, face: int) -> Any:
    """The printed result of face index ``face`` (1..6) of a ``die_type`` die.

    >>> from .data import dice_faces
    >>> read(dice_faces(), "ice", 2), read(dice_faces(), "slashing", 5)
    ('failure', 1)

    Raises:
        ValueError: a face index outside 1..6 or an unknown die type.
    """
    if die_type not in faces:
        raise ValueError(f"no {die_type!r} attack die; dice: {', '.join(faces)}")
    if not 1 <= face <= len(faces[die_type]):
        raise ValueError(f"face {face} is not on a {die_type} die (faces 1..{len(faces[die_type])})")
    return faces[die_type][face - 1]


def roll_terms(results: Sequence[tuple[str, Any]], *, marksmen: bool = False,
               mana_user: bool = False) -> tuple[list[Term], list[str]]:
    """Damage terms and named effects of a roll, in die order.

    Args:
        results: ``(die type, printed result)`` per die.
        marksmen: the attacker has Marksmen (Critical +6).
        mana_user: a Failure costs mana instead of damage (the caller charges it).

    >>> roll_terms([("ice", "failure"), ("fire", "critical"), ("slashing", 1)])
    ([('Failure', -2), ('Critical', 4), ('', 1)], ['failure', 'critical'])
    """
    terms: list[Term] = []
    effects: list[str] = []
    for _, result in results:
        if isinstance(result, int):
            terms.append(("", result))
            continue
        effects.append(result)
        if result == "critical":
            terms.append(("Critical", MARKSMEN_CRITICAL if marksmen else CRITICAL))
        elif result == "failure" and not mana_user:
            terms.append(("Failure", FAILURE))
    return terms, effects


def _fmt(terms: Sequence[Term], first_bare: bool = True) -> str:
    out = ""
    for i, (label, value) in enumerate(terms):
        text = f"{abs(value)}" + (f" {label}" if label else "")
        if i == 0 and first_bare:
            out = f"{'-' if value < 0 else ''}{text}"
        else:
            out += f" {'-' if value < 0 else '+'} {text}"
    return out


@dataclass(frozen=True)
class Common:
    """The part of an attack's damage shared by every target."""

    total: int
    terms: tuple[Term, ...]

    @property
    def line(self) -> str:
        """``10 - 2 Failure + 4 Critical + 1 = 13``"""
        return f"{_fmt(self.terms)} = {self.total}"


def common_total(base: Term, dice: Sequence[Term], attacker: Sequence[Term]) -> Common:
    """Attack value + dice + the attacker's modifiers (morale, buffs, high ground...).

    >>> common_total(("Elemental Sword", 10), [("Failure", -2), ("Critical", 4), ("", 1)], []).total
    13
    """
    terms = ((base[1] and ("", base[1])) or ("", 0),) + tuple(dice) + tuple(t for t in attacker if t[1])
    return Common(total=sum(v for _, v in terms), terms=terms)


@dataclass(frozen=True)
class Hit:
    """One target's share of an attack."""

    damage: int
    """Damage before defense."""
    defense: int
    wounds: int
    line: str


def against(common: Common, situational: Sequence[Term], defense: Sequence[Term] | None, *,
            reduction: Sequence[Term] = ()) -> Hit:
    """Damage against one target: ``common`` + target-specific terms - defense.

    Args:
        situational: weak spot, backstab, knockdown, pitfall, archery... (zeros dropped).
        defense: the target's defense terms, or None for pure damage.
        reduction: flat reductions after defense (Evasion).

    >>> c = common_total(("", 10), [("", 3)], [])
    >>> against(c, [("weak spot", 2)], [("magical defense", 1)]).wounds
    14
    >>> against(c, [], [("physical defense", 3), ("morale", 1)]).line
    '10 + 3 = 13 - (physical defense 3 + morale 1 = 4) = 9 wounds'
    >>> against(c, [], None).line
    '10 + 3 = 13 pure = 13 wounds'
    """
    extra = [t for t in situational if t[1]]
    damage = common.total + sum(v for _, v in extra)
    head = _fmt(list(common.terms) + extra)
    if defense is None:
        wounds = max(0, damage - sum(v for _, v in reduction if v))
        red = _fmt([t for t in reduction if t[1]], first_bare=False)
        return Hit(damage, 0, wounds, f"{head} = {damage} pure{red} = {wounds} wounds")
    value = sum(v for _, v in defense)
    wounds = max(0, damage - value - sum(v for _, v in reduction))
    dtext = " ".join(f"{label} {v}" if i == 0 else f"{'-' if v < 0 else '+'} {label} {abs(v)}"
                     for i, (label, v) in enumerate(defense))
    if len(defense) > 1:
        dtext = f"({dtext} = {value})"
    red = "".join(f" - {label} {v}" for label, v in reduction if v)
    head = f"{head} = {damage}"
    return Hit(damage, value, wounds, f"{head} - {dtext}{red} = {wounds} wounds")
