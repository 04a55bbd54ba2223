"""The ``[counters]`` configuration: where each hero's divine die lies, checked and kept.

Demigods Evolution, 'Divine Power' (p.12): "There are three types of divine power: rage, focus,
and mana ... Each hero uses one divine die with the color corresponding with their divine power to
track their current total. The die should be placed on or near each hero card"; setup: "place
divine dice next to each hero card". A slot is that place beside one hero's card, given as

* ``box_mm = [x, y, width, height]``: board millimetres (the board calibration's frame, ``x``
  right and ``y`` down from the board's origin; a card beside the board lies outside its cells,
  on the same table plane), mapped to camera pixels through the board calibration
  (``board-calibration.json``, ``arena-table calibrate``); or
* ``box_px = [x, y, width, height]``: pixels of the full camera frame, used when no board
  calibration is there (or when the slot gives no ``box_mm``).

``power`` (``rage``, ``focus`` or ``mana``, the book's names) says which divine die the slot
holds; left out, the hero's divine power in the running game decides.

>>> slots = counter_slots([{"hero": "knight", "power": "rage", "box_px": [0, 600, 80, 80]}])
>>> dict(slots[0])
{'hero': 'knight', 'power': 'rage', 'box_px': (0.0, 600.0, 80.0, 80.0)}
>>> counter_slots([{"hero": "knight", "colour": "red"}])
Traceback (most recent call last):
ValueError: slot 1 (knight): unknown key 'colour' (known: hero, power, box_mm, box_px)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Mapping, Sequence

POWERS = ("rage", "focus", "mana")
"""The three types of divine power ('Divine Power', p.12)."""
SLOT_KEYS = ("hero", "power", "box_mm", "box_px")
"""The keys of one slot, in the order ``config show`` writes them."""


def _box(v: Any, unit: str, where: str) -> tuple[float, float, float, float]:
    if (not isinstance(v, (list, tuple)) or len(v) != 4
            or not all(isinstance(n, (int, float)) and not isinstance(n, bool) and math.isfinite(n) for n in v)
            or v[2] <= 0 or v[3] <= 0):
        raise ValueError(f"{where}: must be [x, y, width, height] in {unit} with width and height above 0, "
                         f"got {v!r:.60}")
    return tuple(float(n) for n in v)  # type: ignore[return-value]


def counter_slots(v: Any) -> tuple[Mapping[str, Any], ...]:
    """The ``counters.slots`` key: a list of tables ``{hero, power?, box_mm?, box_px?}``, each kept
    as a read-only mapping of the keys given (boxes as four floats).

    Raises:
        ValueError: not a list of tables, a slot without ``hero`` or without a box, an unknown key,
            a power other than rage/focus/mana, a bad box, or two slots of one hero; the message
            names the slot (``slot 2 (trapper): ...``).
    """
    if not isinstance(v, (list, tuple)) or not all(isinstance(s, Mapping) for s in v):
        raise ValueError(f"must be a list of slots ({{hero = \"knight\", box_px = [x, y, w, h]}}), got {v!r:.60}")
    out, heroes = [], set()
    for i, raw in enumerate(v, 1):
        hero = raw.get("hero")
        where = f"slot {i}" + (f" ({hero})" if isinstance(hero, str) and hero else "")
        for key in raw:
            if key not in SLOT_KEYS:
                raise ValueError(f"{where}: unknown key {key!r} (known: {', '.join(SLOT_KEYS)})")
        if not isinstance(hero, str) or not hero.strip():
            raise ValueError(f"{where}: hero must be the hero's id in the game (\"knight\"), got {hero!r:.60}")
        hero = hero.strip()
        if hero in heroes:
            raise ValueError(f"{where}: a second slot of {hero}; a hero has one divine die")
        heroes.add(hero)
        slot: dict[str, Any] = {"hero": hero}
        if "power" in raw:
            if raw["power"] not in POWERS:
                raise ValueError(f"{where}: power must be {', '.join(POWERS)}, got {raw['power']!r:.60}")
            slot["power"] = raw["power"]
        if "box_mm" not in raw and "box_px" not in raw:
            raise ValueError(f"{where}: needs box_mm (board mm) or box_px (camera pixels): [x, y, width, height]")
        for key, unit in (("box_mm", "board mm"), ("box_px", "camera pixels")):
            if key in raw:
                slot[key] = _box(raw[key], unit, f"{where}: {key}")
        out.append(MappingProxyType(slot))
    return tuple(out)


@dataclass(frozen=True)
class CounterSlot:
    """One hero's slot as the reader uses it (from :func:`counter_slots`'s mapping)."""

    hero: str
    """The hero's id in the running Demigods game (``knight``)."""
    power: str = ""
    """``rage``, ``focus``, ``mana``, or ``""``: the hero's own in the running game."""
    box_mm: tuple[float, float, float, float] | None = None
    """x, y, width, height in board mm (needs a board calibration)."""
    box_px: tuple[float, float, float, float] | None = None
    """x, y, width, height in pixels of the full camera frame."""

    @classmethod
    def of(cls, slot: Mapping[str, Any]) -> "CounterSlot":
        return cls(slot["hero"], slot.get("power", ""), slot.get("box_mm"), slot.get("box_px"))


def contains(box: Sequence[float], point: Sequence[float]) -> bool:
    """Whether ``point`` (x, y) lies in ``box`` (x, y, w, h), left and top edges included.

    >>> contains((0, 0, 10, 10), (10, 5)), contains((0, 0, 10, 10), (0, 9.9))
    (False, True)
    """
    x, y, w, h = box
    return x <= point[0] < x + w and y <= point[1] < y + h
