"""Values the rulebook text does not print, entered at the table (``th-enter``) and listed until they are.

The hero mats print speeds and some alignments, the Power cards their Attack/Defense values and
damage icons, the Thieves' Guild its die symbols, and the item tokens their stats; the text gives
none of them (``ENTER`` markers in ``data/*.json``). The game runs on documented defaults until
they are entered, as setup options or, during play, as ``th-enter`` events, which the log keeps, so
a replay enters them at the same point.

:func:`to_enter` is the remote's setup checklist (``Game.to_enter``): one action per value still a
default, its choices the values the components can carry (a Power's pair is one of the six of its
pile, p.4 Order of Powers). :func:`placeholders` names the defaults used in play now, for the
"placeholder stats" badge on the TV.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from arena_table.rules.kernel.actions import Action, Choice, Param
from arena_table.rules.kernel.errors import Refused

from . import catalog
from .events import Enter
from .mats import name
from .state import ThState

SPEEDS = range(1, 9)
"""Speeds offered for a hero mat (hexes a turn, p.6 Hero Details); the book's examples move 4."""
THIEVES_RESULTS = ("steal-mana", "deal-3-damage", "steal-2-gold", "steal-4-gold", "gain-initiative")
"""What a Thieves' Guild die face can mean (Hierapolis Locations: Thieves Guild)."""
ITEM_KINDS = {"weapon": "Weapon", "armor": "Armor", "shield": "Shield"}
"""Weapon and Armor tokens (p.8); an Artifact is one of them with its bonus (p.12)."""


def _entered_power(state: ThState, pid: str) -> bool:
    return pid in state.config.power_values


def _speed_left(state: ThState, hid: str) -> bool:
    return hid not in state.config.speeds and catalog.heroes()[hid]["speed"] is None


def _alignment_left(state: ThState, hid: str) -> bool:
    return hid not in state.config.alignments and catalog.heroes()[hid]["alignment"] is None


def _power_left(state: ThState, pid: str) -> bool:
    """A Power whose values are the listing-order default or missing (``values_source`` ENTER)."""
    rec = catalog.powers()[pid]
    return not _entered_power(state, pid) and (rec["values"] is None or str(rec.get("values_source", "")).startswith("ENTER"))


def _faces_left(state: ThState) -> bool:
    return not state.config.thieves_faces


def placeholders(state: ThState) -> list[str]:
    """The defaults used in play now, in words: the speed and alignment of each hero in the game
    still unentered, how many Powers drafted so far still hold default values, and the Thieves' Guild
    faces while heroes are placed in Hierapolis. No card is named (a hand stays face down).

    >>> from .setup import setup
    >>> s = setup({"players": ["Ann", "Bo"], "heroes": {"Ann": ["rochon", "rac", "norn"], "Bo": ["aer", "lug", "edhel"]}})
    >>> placeholders(s)[:3], placeholders(s)[-1]
    (["Rochon's speed", "Rac's speed", "Norn's speed"], "the Thieves' Guild die faces")
    """
    out = [f"{name(state, h)}'s speed" for h, x in state.heroes.items() if x.alive and _speed_left(state, h)]
    out += [f"{name(state, h)}'s alignment" for h, x in state.heroes.items() if x.alive and _alignment_left(state, h)]
    drafted = {c for p in state.players for c in (*p.hand, *p.discard)} | set(state.pad_powers.values())
    powers = sum(1 for c in drafted if c in catalog.powers() and _power_left(state, c))
    if powers:
        out.append(f"{powers} Power card values" if powers > 1 else "1 Power card's values")
    if state.phase == "preparation" and _faces_left(state):
        out.append("the Thieves' Guild die faces")
    return out


def to_enter(state: ThState) -> list[Action]:
    """The setup checklist: an action for each value still a default, heroes in the game first, then
    every Power whose values are not printed in the text, the Thieves' Guild die, and one to add an
    item token (the text prints only its examples' items). Empty before a game is set up.

    >>> from .setup import setup
    >>> s = setup({"players": ["Ann", "Bo"], "heroes": {"Ann": ["rochon", "rac", "norn"], "Bo": ["aer", "lug", "edhel"]}})
    >>> [a.label for a in to_enter(s)][:2], to_enter(s)[0].params[0].choices[3].fields
    (['Rochon: speed on the hero mat', 'Rac: speed on the hero mat'], {'value': 4})
    """
    if state.phase == "idle":
        return []
    out = []
    for hid, h in state.heroes.items():
        if _speed_left(state, hid):
            out.append(Action("th-enter", f"{name(state, hid)}: speed on the hero mat", fields={"what": "speed", "key": hid},
                              params=(Param("value", "Speed (hexes)", tuple(Choice(str(v), {"value": v}) for v in SPEEDS)),)))
    for hid, h in state.heroes.items():
        if _alignment_left(state, hid):
            out.append(Action("th-enter", f"{name(state, hid)}: alignment under the name", fields={"what": "alignment", "key": hid},
                              params=(Param("value", "Alignment", tuple(Choice(a.capitalize(), {"value": a})
                                                                        for a in catalog.ALIGNMENTS)),)))
    damage = Param("damage_type", "Damage icon", tuple(Choice(t.capitalize(), {"value": {"damage_type": t}})
                                                        for t in catalog.DAMAGE_TYPES if t != "acid"))
    for pid, rec in catalog.powers().items():
        if _power_left(state, pid):
            pairs = tuple(Choice(f"{a} / {d}", {"value": {"values": [a, d]}}, (damage,)) for a, d in catalog.VALUE_ORDER)
            out.append(Action("th-enter", f"{rec['name']}: Attack / Defense on the card", fields={"what": "power", "key": pid},
                              params=(Param("values", "Attack / Defense", pairs),)))
    if _faces_left(state):
        faces = tuple(Param(f"face{f}", f"Face {f} of the Thieves' Guild die",
                            tuple(Choice(r.replace("-", " "), {"value": {str(f): r}}) for r in THIEVES_RESULTS))
                      for f in range(1, 7))
        out.append(Action("th-enter", "Thieves' Guild die: what each face means", fields={"what": "thieves-faces", "key": "d6"},
                          params=faces))
    out.append(_item_action(state))
    return out


def _item_action(state: ThState) -> Action:
    """Add an item token: its kind, then what it carries (a weapon's damage and hands, an armor's or
    shield's resistance, an Artifact's bonus); it is named by kind and number (``Weapon 3``)."""
    n = 1 + sum(1 for k in state.config.items if k.startswith("token-"))
    resist = Param("resist", "Resists (half damage)", (Choice("nothing", {}),) + tuple(
        Choice(t.capitalize(), {"value": {"resistance": [t]}}) for t in catalog.DAMAGE_TYPES))
    hands = Param("hands", "Hands", (Choice("one hand", {"value": {"hands": 1}}), Choice("two hands", {"value": {"hands": 2}})))
    damage = Param("damage", "Damage", tuple(Choice(str(d), {"value": {"damage": d}}, (hands,)) for d in range(1, 7)))
    bonus = Param("bonus", "Artifact bonus", (Choice("not an Artifact", {}),) + tuple(
        Choice(f"Artifact +{a} Attack +{d} Defense", {"value": {"artifact": True, "attack": a, "defense": d}})
        for a in range(3) for d in range(3) if a or d))
    kinds = tuple(Choice(label, {"value": {"kind": kind, "name": f"{label} {n}"}},
                         (damage, bonus) if kind == "weapon" else (resist, bonus)) for kind, label in ITEM_KINDS.items())
    return Action("th-enter", "Add an item token (Market, pouch, Artifact)", fields={"what": "item", "key": f"token-{n}"},
                  params=(Param("kind", "Kind of token", kinds),))


def enter(state: ThState, ev: Enter) -> ThState:
    """``th-enter``: a value printed on a component, entered now; later events use it.

    Raises:
        Refused: an unknown ``what`` or key, or a value the component cannot carry (named).
    """
    cfg, what, key, value = state.config, ev.what, ev.key, ev.value
    if what in ("speed", "alignment") and key not in catalog.heroes():
        raise Refused(f"no hero {key!r} to enter a {what} for")
    if what == "speed":
        if isinstance(value, bool) or not isinstance(value, int) or value not in SPEEDS:
            raise Refused(f"a speed is a whole number of hexes 1-{SPEEDS[-1]}, not {value!r:.20}")
        cfg = dataclasses.replace(cfg, speeds={**cfg.speeds, key: value})
    elif what == "alignment":
        if value not in catalog.ALIGNMENTS:
            raise Refused(f"an alignment is one of {', '.join(catalog.ALIGNMENTS)}, not {value!r:.20}")
        cfg = dataclasses.replace(cfg, alignments={**cfg.alignments, key: value})
    elif what == "power":
        if key not in catalog.powers():
            raise Refused(f"no Power {key!r}")
        pair = tuple(value.get("values") or ()) if isinstance(value, dict) else ()
        if pair not in catalog.VALUE_ORDER:
            raise Refused(f"a Power's values are one of its pile's pairs {list(catalog.VALUE_ORDER)} (p.4), not {value!r:.40}")
        kind = value.get("damage_type", "physical")
        if kind not in catalog.DAMAGE_TYPES:
            raise Refused(f"a damage icon is one of {', '.join(catalog.DAMAGE_TYPES)}, not {kind!r:.20}")
        cfg = dataclasses.replace(cfg, power_values={**cfg.power_values, key: pair},
                                  damage_types={**cfg.damage_types, key: kind})
    elif what == "thieves-faces":
        faces = {str(k): v for k, v in value.items()} if isinstance(value, dict) else {}
        if set(faces) != {str(f) for f in range(1, 7)} or not set(faces.values()) <= set(THIEVES_RESULTS):
            raise Refused(f"the Thieves' Guild die needs a result for each face 1-6 from {', '.join(THIEVES_RESULTS)}")
        cfg = dataclasses.replace(cfg, thieves_faces=faces)
    elif what == "item":
        if not isinstance(value, dict) or value.get("kind") not in ITEM_KINDS or key in catalog.items() or key in cfg.items:
            raise Refused(f"an item token needs a new id (not {key!r}) and a kind: {', '.join(ITEM_KINDS)}")
        cfg = dataclasses.replace(cfg, items={**cfg.items, key: {**value, "id": key, "artifact": bool(value.get("artifact"))}})
    else:
        raise Refused(f"nothing called {what!r} to enter: speed, alignment, power, thieves-faces or item")
    return dataclasses.replace(state, config=cfg)
