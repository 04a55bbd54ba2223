"""Who an attack may reach (p.14 Movement and Range, FAQ), checked when both positions are known.

Distances are hex steps on the Arena's axial grid (:func:`arena_table.rules.kernel.geometry.hexes.distance`).

- Melee: any Hero may attack an adjacent figure: range 1 (p.14 Combat Ranges).
- Ranged: Heroes that may equip bows or staffs reach five hexes or less (p.14); all staffs are
  ranged weapons with a range of 5 (FAQ). Which Heroes may equip them is printed on the Hero mats,
  not in the text: enter it as ``"ranged": true/false`` on the hero in ``data/heroes.json`` (an
  ``ENTER`` value like the slots); a Hero holding a Weapon token marked ``"ranged": true`` (or
  ``"type"`` bow/staff, option ``items``) reaches five. While a Hero's weapon slots are not entered
  the engine allows the longest reach the book gives an ordinary attack, five hexes, and refuses
  only beyond it.
- Skills: Chains of Sorrow "a ranged attack of up to five hexes"; Far Sight "any target on the
  Arena board with no range restrictions" (Appendix Skills).
- Area attacks reach only their area: Ring skills (Corona, Whirlwind ... "all adjacent enemies")
  hit adjacent figures; Line skills the figures in one straight line of five hexes from the
  attacker; a Spell face up an area of seven hexes (a hex and its six neighbours) anywhere on the
  Arena (p.14 Spell; FAQ: Spells have unlimited range). The Cone is drawn in a picture the text
  does not reproduce, so Cone targets are left to the table.

A monster is one hex of the engine's board (as for Numbness), so the same distances apply to it.
"""

from __future__ import annotations

from arena_table.rules.kernel.errors import Refused
from arena_table.rules.kernel.geometry import hexes

from . import catalog
from .mats import name
from .state import ThState

RANGED = 5
"""p.14 Ranged: five hexes or less."""


def cell_of(state: ThState, some_id: str) -> tuple[int, int] | None:
    if some_id in state.heroes:
        return state.heroes[some_id].cell
    m = next((m for m in state.monsters if m.id == some_id), None)
    return m.cell if m else None


def may_use_ranged(state: ThState, hero_id: str) -> bool | None:
    """True if the Hero may equip bows or staffs (p.14), False if entered as melee, None if unknown."""
    for item_id in state.heroes[hero_id].items:
        rec = state.config.items.get(item_id) or catalog.items().get(item_id) or {}
        if rec.get("kind") == "weapon" and (rec.get("ranged") or rec.get("type") in ("bow", "staff", "ranged")):
            return True
    return catalog.heroes()[hero_id].get("ranged")


def hero_reach(state: ThState, hero_id: str) -> int:
    """Range of the Hero's ordinary attack: 5 if ranged (or not yet entered), else 1 (p.14)."""
    return 1 if may_use_ranged(state, hero_id) is False else RANGED


def skill_area(skill: str) -> str:
    return catalog.skills()[skill]["area"] if skill else ""


def check_range(state: ThState, hero_id: str, targets: tuple[str, ...], *, skill: str = "",
                spell: bool = False) -> None:
    """Refuse an attack whose targets lie outside its range or area (p.14), naming distance and range.

    Targets whose position (or the attacker's) is not on the board are not checked.

    Raises:
        Refused: a target is out of range, or the targets do not fit the attack's area.
    """
    here = state.heroes[hero_id].cell
    cells = {t: cell_of(state, t) for t in targets}
    known = {t: c for t, c in cells.items() if c is not None}
    if spell:  # seven hexes anywhere on the Arena: one hex and its six neighbours (p.14, FAQ)
        if len(known) > 1:
            centres = {(c[0] + dq, c[1] + dr) for c in known.values() for dq, dr in hexes.DIRECTIONS + ((0, 0),)}
            if not any(all(hexes.distance(x, c) <= 1 for c in known.values()) for x in centres):
                far = max(hexes.distance(a, b) for a in known.values() for b in known.values())
                raise Refused(f"a Spell hits an area of seven hexes (a hex and its six neighbours, p.14): "
                               f"{', '.join(name(state, t) for t in known)} do not fit in one "
                               f"({far} hexes apart)")
        return
    if here is None:
        return
    area = skill_area(skill)
    if area == "any" or area == "cone":
        return  # Far Sight: no range restrictions; Cone: the picture is not in the text
    if area == "line":
        dirs = set()
        for t, c in known.items():
            d, way = hexes.distance(here, c), hexes.direction(here, c)
            if way is None or d > RANGED:
                raise Refused(f"{name(state, t)} is not in a straight line of five hexes from "
                               f"{name(state, hero_id)} ({d} hexes away; Line, p.14)")
            dirs.add(way)
        if len(dirs) > 1:
            raise Refused("a Line attack hits one straight line of five hexes from the attacker (p.14)")
        return
    if area == "ring":
        reach, why = 1, "a Ring attack strikes the adjacent hexes, p.14"
    elif area == "ranged":
        reach, why = RANGED, "Chains of Sorrow: a ranged attack of up to five hexes"
    else:
        reach = hero_reach(state, hero_id)
        why = ("melee: any Hero attacks an adjacent Hero, p.14" if reach == 1
               else "Ranged: five hexes or less, the longest reach of an ordinary attack, p.14")
    for t, c in known.items():
        d = hexes.distance(here, c)
        if d > reach:
            raise Refused(f"{name(state, t)} is {d} hexes from {name(state, hero_id)}: out of range "
                           f"{reach} ({why})")


def check_guard(state: ThState, hero_id: str, monster_id: str, *, area: bool, skill: str = "") -> None:
    """Quietus's Flying Terror ("Next turn, only ranged attacks can hit Quietus") and Shadow in
    Darkness ("only area attacks"), which last until Quietus acts again (Monster Stat Blocks).

    An area attack is a Spell or a Ring, Line or Cone Skill (p.14). A ranged attack is one made
    from beyond an adjacent hex: an attack on an adjacent figure is melee, range 1 (p.14), and so
    is a Ring Skill; Chains of Sorrow and Far Sight are ranged attacks by their text.

    Raises:
        Refused: the attack is of a kind that cannot hit the monster now, or its kind cannot be
            told because a figure is not on the board.
    """
    m = state.monster(monster_id)
    who = name(state, monster_id)
    if "area-only" in m.guard and not area:
        raise Refused(f"Shadow in Darkness: until {who} acts again only area attacks (Spells, Ring, Line "
                       f"or Cone Skills) can hit it")
    if "ranged-only" not in m.guard:
        return
    kind = skill_area(skill)
    here, there = state.heroes[hero_id].cell, m.cell
    if kind == "ring":
        raise Refused(f"Flying Terror: until {who} acts again only ranged attacks can hit it, and a Ring "
                       f"attack strikes the adjacent hexes")
    if here is None or there is None:
        if kind in ("ranged", "any"):
            return
        raise Refused(f"Flying Terror: only ranged attacks can hit {who}; place {name(state, hero_id)} and "
                       f"{who} on the board (th-move) so the range can be told")
    d = hexes.distance(here, there)
    if d <= 1:
        raise Refused(f"Flying Terror: until {who} acts again only ranged attacks can hit it; "
                       f"{name(state, hero_id)} is {d} hex away (a melee attack, range 1, p.14)")
