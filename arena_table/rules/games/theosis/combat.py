"""Combat arithmetic of Theosis as pure functions (pp.16-19, Monster Defense, FAQ dual wield).

Total Attack = Power Attack value + artifact Attack bonuses (both weapons when dual
wielding) + Skill bonus + Blessing (Valor) + Ritual (Banner of Victory) - Curse (Terror).
Total Defense = Power Defense value + artifact Defense + Blessing (Aegis) + Ritual
(Fortifications) - Curse (Poison). A tie goes to the higher-ranked side; heroes outrank
monsters (Monster Defense). Damage = (Attack - Defense) + weapon damage, of the Power's or Skill's
type; Protection negates a type, Resistance halves it rounding down, and a victorious
attacker always deals at least one (Damage and Resistances).

>>> r = resolve(Side("Rochon", 4, (("artifact", 1),), rank=5), Side("Rac", 4, rank=2),
...             weapons=((4, None),), damage_type="fire", protect={"fire", "ice"}, resist={"light"})
>>> r.text
'4 + 1 artifact = 5 vs 4 → 1 + 4 weapon = 5 fire → negated by Fire protection → minimum 1'
>>> r.damage
1
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Side:
    """One side of a combat: the Power value used and every bonus, labelled."""

    name: str
    value: int
    """Attack (or Defense) value of the Power used, after texts that replace it."""
    bonuses: tuple[tuple[str, int], ...] = ()
    """(label, amount) pairs: ``("artifact", 1)``, ``("Valor", 1)``, ``("Terror", -1)``."""
    rank: int = 99
    """Ranking position (1 is highest); monsters rank below every hero."""

    @property
    def total(self) -> int:
        return self.value + sum(n for _, n in self.bonuses)

    def spelled(self) -> str:
        """``"4 + 1 artifact = 5"``; just ``"4"`` without bonuses."""
        if not self.bonuses:
            return str(self.value)
        parts = [str(self.value)] + [f"{'+' if n >= 0 else '−'} {abs(n)} {label}" for label, n in self.bonuses]
        return " ".join(parts) + f" = {self.total}"


@dataclass(frozen=True)
class Result:
    """The outcome of one attack against one defender."""

    hit: bool
    attack: int
    defense: int
    raw: tuple[tuple[int, str], ...] = ()
    """Damage before mitigation, per type."""
    parts: tuple[tuple[int, str], ...] = ()
    """Damage after Protection/Resistance, per type."""
    damage: int = 0
    """Damage to apply (Health or against a Stamina Token)."""
    lines: tuple[str, ...] = field(default_factory=tuple)

    @property
    def text(self) -> str:
        return " → ".join(self.lines)


def split_damage(diff: int, weapons: tuple[tuple[int, str | None], ...], damage_type: str,
                 remainder: str | None = None, weapon_factor: int = 1, extra: int = 0) -> list[tuple[int, str]]:
    """Damage parts by type: the Attack-Defense difference plus each weapon (FAQ dual wield).

    FAQ (dual wielding): "each weapon deals the amount and type of damage listed on it", and the
    attacker selects the type of the remainder (default: the attack's type). So a weapon with a
    type of its own deals that type, alone or beside another; a weapon with none deals the
    attack's type (Damage and Resistances: all damage is the Power's or Skill's type unless
    stated otherwise).

    >>> split_damage(2, ((2, "fire"), (3, "ice")), "physical", remainder="fire")
    [(4, 'fire'), (3, 'ice')]
    >>> split_damage(2, ((3, "fire"),), "physical"), split_damage(2, ((3, "fire"), (1, None)), "ice")
    ([(2, 'physical'), (3, 'fire')], [(3, 'ice'), (3, 'fire')])
    """
    parts: dict[str, int] = {}

    def add(n: int, t: str) -> None:
        parts[t] = parts.get(t, 0) + n

    add(diff + extra, remainder or damage_type)
    for dmg, t in weapons:
        add(dmg * weapon_factor, t or damage_type)
    return [(n, t) for t, n in parts.items() if n > 0]


def mitigate(parts: list[tuple[int, str]], protect: set[str], resist: set[str],
             unmitigated: set[str] = frozenset()) -> tuple[list[tuple[int, str]], list[str]]:
    """Apply Protection (negates) and Resistance (halves, rounding down) per type (Damage and Resistances)."""
    out, lines = [], []
    for n, t in parts:
        if t in unmitigated:
            out.append((n, t))
        elif t in protect:
            out.append((0, t))
            lines.append(f"negated by {t.capitalize()} protection")
        elif t in resist:
            out.append((n // 2, t))
            lines.append(f"halved by {t.capitalize()} resistance → {n // 2}")
        else:
            out.append((n, t))
    return out, lines


def resolve(attacker: Side, defender: Side, *, weapons: tuple[tuple[int, str | None], ...] = (),
            damage_type: str = "physical", protect: set[str] = frozenset(), resist: set[str] = frozenset(),
            remainder: str | None = None, weapon_factor: int = 1, extra: int = 0,
            unmitigated: set[str] = frozenset(), despair: bool = False, fixed: int | None = None,
            attacker_wins_ties: bool | None = None, weapon_label: str = "weapon") -> Result:
    """Resolve one attack (pp.16-17).

    Args:
        weapons: (damage, element or None) of each weapon in play (a monster attack's damage).
        weapon_factor: 2 for double weapon damage (Heavy Metal, slaying weapons and Enervation
            against monsters).
        extra: damage added to the difference (Fiery Purge on a monster, p.24).
        despair: the defender played Despair: half of the mitigated damage, at least one.
        fixed: damage replacing difference + weapons (Pain Brutality).
        attacker_wins_ties: who takes a tie; default by Ranking (lower number wins).

    Returns:
        A :class:`Result` whose ``lines`` spell the arithmetic out.

    >>> resolve(Side("Rochon", 4, rank=5), Side("Rac", 4, rank=2)).text
    '4 vs 4 → tie won by Rac on Ranking → no damage'
    """
    a, d = attacker.total, defender.total
    head = f"{attacker.spelled()} vs {defender.spelled()}"
    if a == d:
        wins = attacker.rank < defender.rank if attacker_wins_ties is None else attacker_wins_ties
        if not wins:
            return Result(False, a, d, lines=(head, f"tie won by {defender.name} on Ranking", "no damage"))
        lines = [head, f"tie won by {attacker.name} on Ranking"]
    elif a < d:
        return Result(False, a, d, lines=(head, "defence holds", "no damage"))
    else:
        lines = [head]
    if fixed is not None:
        raw = [(fixed, damage_type)] if fixed > 0 else []
        lines.append(f"{fixed} {damage_type} (damage taken so far)")
    else:
        raw = split_damage(a - d, weapons, damage_type, remainder, weapon_factor, extra)
        terms = [str(a - d)] + (["1 Fiery Purge"] if extra else []) + \
            [f"{w}{'×2' if weapon_factor == 2 else ''} {weapon_label}" for w, _ in weapons]
        total = " + ".join(f"{n} {t}" for n, t in raw) or f"0 {damage_type}"
        lines.append(f"{' + '.join(terms)} = {total}" if len(terms) > 1 else total)
    parts, mit_lines = mitigate(raw, set(protect), set(resist), set(unmitigated))
    lines += mit_lines
    dmg = sum(n for n, _ in parts)
    if despair:
        dmg //= 2
        lines.append(f"halved by Despair → {dmg}")
    if dmg < 1:
        dmg = 1
        lines.append("minimum 1")
    return Result(True, a, d, tuple(raw), tuple(parts), dmg, tuple(lines))
