"""The Combat System's arithmetic (Rules Reference Sheet: HIT Stage, DEF Stage, Special Game Effects).

HIT stage: roll the dice (a Hero without an equipped Weapon rolls 1 Blue Die), add every bonus
(Items, powers, activities such as Focus) and +1 hit when the attacking faction dominates the
target's area (Domination bonus), count the hits. Critical is applied before the DEF stage.

DEF stage, in the sheet's order:

1. Resistances and Weaknesses, and shield effects (powers reducing the hits);
2. Magic Shields are spent to block hits, Lethal hits first;
3. the Armor value reduces the hits, unless the defender is K.O. or the hits are Lethal;
4. 1 Blue Die for each remaining non-Lethal hit, up to the defender's maximum;
5. Items, powers or activities enhance the defence (extra shields);
6. shields subtract from the non-Lethal hits; the defender suffers the rest, and every Lethal hit
   left, as HP.

Golden Rules: "A Character cannot gain the same bonus/penalty from the same effect's source
twice" (bonuses are keyed by source, so a source counts once; Domination is added here, never by
hand). "All calculations are rounded up": no step here divides (Domination compares with twice the
opposing figures), so nothing is left to round.

>>> h = hit_stage(("hit", "hit+critical"), (), {"Focus": 1}, dominating=True)
>>> h.normal, h.criticals, h.lines[-1]
(4, 1, '2 rolled + 1 Focus + 1 Domination = 4 hits')
>>> d = before_dice(4, 1, magic_shields=1, armor=2)
>>> (d.normal, d.lethal, d.spent), dice_needed(d.normal, 3)
((2, 0, 1), 2)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

from .dice import count


@dataclass(frozen=True)
class Hits:
    normal: int
    lethal: int
    criticals: int
    lines: tuple[str, ...]


def hit_stage(red: tuple[str, ...], blue: tuple[str, ...], bonus: Mapping[str, int], *, dominating: bool,
              lethal_weapon: bool = False, lethal: int = 0) -> Hits:
    """Hits of an attack from its dice faces and bonuses.

    Args:
        bonus: extra hits by source (``{"Focus": 1}``); ``Domination`` may not be given by hand.
        dominating: the attacking faction dominates the target's area (+1 hit).
        lethal_weapon: every hit is Lethal.
        lethal: extra Lethal hits (powers, Critical effects).

    Raises:
        ValueError: ``Domination`` given as a bonus (it is computed from the figures).
    """
    if any(k.strip().lower() == "domination" for k in bonus):
        raise ValueError("the Domination bonus is computed from the figures in the area, not given by hand")
    rolled = count(red + blue, "hit")
    parts = [f"{rolled} rolled"] + [f"{'+' if n >= 0 else '-'} {abs(n)} {src}" for src, n in bonus.items()]
    total = rolled + sum(bonus.values())
    if dominating:
        parts.append("+ 1 Domination")
        total += 1
    total = max(0, total)
    line = f"{' '.join(parts)} = {total} hits"
    if lethal_weapon:
        return Hits(0, total + lethal, count(red + blue, "critical"), (line + " (Lethal)",))
    lines = (line,) + ((f"+ {lethal} Lethal",) if lethal else ())
    return Hits(total, lethal, count(red + blue, "critical"), lines)


@dataclass(frozen=True)
class BeforeDice:
    normal: int
    lethal: int
    spent: int
    """Magic Shields spent."""
    lines: tuple[str, ...]


def before_dice(normal: int, lethal: int, *, magic_shields: int, armor: int,
                reduce: Mapping[str, int] | None = None) -> BeforeDice:
    """DEF steps 1-3: shield effects, Magic Shields (Lethal first), Armor (never against Lethal).

    ``armor`` is the defender's Armor now (0 when K.O., see :attr:`.state.Hero.armor_now`).
    """
    lines = []
    for src, n in (reduce or {}).items():
        cut = min(n, normal)
        normal -= cut
        lethal -= min(n - cut, lethal)
        lines.append(f"- {n} {src}")
    spent_l = min(magic_shields, lethal)
    spent_n = min(magic_shields - spent_l, normal)
    lethal, normal = lethal - spent_l, normal - spent_n
    if spent_l + spent_n:
        lines.append(f"- {spent_l + spent_n} Magic Shield{'s' if spent_l + spent_n > 1 else ''}"
                     + (f" ({spent_l} on Lethal)" if spent_l else ""))
    cut = min(armor, normal)
    if cut:
        lines.append(f"- {cut} Armor")
    normal -= cut
    return BeforeDice(normal, lethal, spent_l + spent_n, tuple(lines))


def dice_needed(normal: int, defense: int) -> int:
    """DEF step 4: one Blue Die per remaining non-Lethal hit, up to the defender's maximum."""
    return max(0, min(normal, defense))


def wounds(normal: int, lethal: int, faces: tuple[str, ...], extra: Mapping[str, int] | None = None) -> tuple[int, str]:
    """DEF steps 5-6: HP lost and the line that shows it."""
    shields = count(faces, "shield") + sum((extra or {}).values())
    lost = lethal + max(0, normal - shields)
    src = "".join(f" + {n} {s}" for s, n in (extra or {}).items())
    text = f"{normal} hits - {shields} shields{src and ' (' + src[3:] + ')'}" + (f" + {lethal} Lethal" if lethal else "")
    return lost, f"{text} = {lost} HP"
