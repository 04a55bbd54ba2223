"""What a character can use, and where figures stand: base attack, skill, item or special ability
('Base Attack' p.14, 'Skills' p.15, 'Demigods' pp.16-19); declaring one is :mod:`.use`.
"""

from __future__ import annotations

from typing import Any

from arena_table.rules.kernel.errors import Refused

from . import data, positions
from .state import Character, DemigodsState, demigod_card, item_card


def spec(state: DemigodsState, ch: Character, use: str) -> dict[str, Any]:
    """The normalised definition of what ``ch`` uses: ``kind``, ``name``, ``ap``, ``cost``, ``range``,
    ``damage``, ``dice``, ``pure``, ``ends_turn``, ``target``, ``effects``, ``on_critical``, ``area``..."""
    if use == "attack":
        if ch.kind != "hero":
            raise Refused(f"{ch.name} has no base attack (Demigods attack with items)")
        base = data.classes()[ch.klass]["base_attack"]
        return {"kind": "base", "name": "base attack", "ap": base["ap"], "cost": 0, "range": base["range"],
                "damage": ch.attack, "dice": [ch.attack_type], "pure": False, "ends_turn": True, "target": "enemy"}
    for s in ch.skills:
        if s["id"] == use:
            if s.get("passive"):
                raise Refused(f"{s['name']} is passive: it is always in effect")
            kind = "ability" if ch.kind == "demigod" else "skill"
            return {"kind": kind, "ap": 0 if kind == "ability" else s.get("ap", 0), "cost": s.get("cost", 0),
                    "ends_turn": kind == "skill" and s.get("ends_turn", True), **{k: v for k, v in s.items()
                                                                                  if k not in ("ap", "ends_turn")}}
    if ch.kind == "demigod":
        primary = demigod_card(state, ch.card_id)["primary"]
        if use == primary["id"]:
            return {"kind": "primary", "ap": 1, "cost": 0, "ends_turn": True, **primary}
        if use in ch.items:
            card = item_card(state, use)
            if not card.get("active"):
                raise Refused(f"{card['name']} has no active ability")
            return {"kind": "item", "ap": 1, "cost": 0, "ends_turn": card.get("ends_turn", True), **card}
    raise Refused(f"{ch.name} has no {use!r} to use")


def _figures(state: DemigodsState, *skip: str) -> list[tuple[int, int]]:
    return [c.cell for c in state.chars.values() if c.alive and c.on_board and c.cell and c.id not in skip]


def blocked_fields(state: DemigodsState, *skip: str) -> list[tuple[int, int]]:
    """Fields no one can move onto or see through: figures, boulders, Ascending Stones."""
    stones = [(c, r) for c, r, k in (state.board.obstacles if state.board else ()) if k in positions.BLOCKING]
    return _figures(state, *skip) + stones


def knows(state: DemigodsState, *chars: Character) -> bool:
    return state.board is not None and all(c.cell is not None and c.facing is not None for c in chars)
