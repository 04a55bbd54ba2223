"""Divine dice beside hero cards read as the heroes' counters (Demigods rage, focus, mana).

Demigods Evolution, 'Divine Power': "Each hero uses one divine die with the color corresponding
with their divine power to track their current total. The die should be placed on or near each
hero card"; a hero holds 0 to 6 of it. A slot is a camera region (pixels) beside one hero's card;
the divine die whose box centre lies in it gives that hero's value, no divine die in it reads 0
(the die has no 0 face). A changed value becomes a ``dg-divine-read`` event, which the Demigods
engine records and its view compares with the value it keeps.

The readings are those of the kind reader (``arena_table.vision.kinds.read_kinds``): objects
with ``kind``, ``face``, ``box`` (x, y, w, h px) and ``status`` (``ok``, ``abstain``,
``other-kind``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Mapping, Sequence

from arena_table.rules.games.demigods.events import DivineRead

DIVINE_KINDS = ("demigods-divine-rage", "demigods-divine-focus", "demigods-divine-mana")
"""Die kinds of the Demigods catalogue used as counters (``data/die_kinds.json``)."""


@dataclass(frozen=True)
class CounterSlot:
    """The camera region beside one hero's card where its divine die lies."""

    hero: str
    """The hero's id in the running Demigods game (``knight``)."""
    box: tuple[float, float, float, float]
    """x, y, width, height in pixels of the camera frame."""

    def holds(self, box: Sequence[float]) -> bool:
        """Whether the centre of a die's box ``(x, y, w, h)`` px lies in this slot."""
        cx, cy = box[0] + box[2] / 2, box[1] + box[3] / 2
        x, y, w, h = self.box
        return x <= cx < x + w and y <= cy < y + h


def slots_from_config(raw: Mapping[str, Sequence[float]]) -> tuple[CounterSlot, ...]:
    """Counter slots from a mapping hero → ``[x, y, w, h]`` px.

    Raises:
        ValueError: a box that is not four numbers with positive width and height, naming the hero.
    """
    slots = []
    for hero, box in raw.items():
        if len(box) != 4 or not all(isinstance(v, (int, float)) for v in box) or box[2] <= 0 or box[3] <= 0:
            raise ValueError(f"counter slot of {hero!r}: [x, y, width, height] in pixels with width and "
                             f"height above 0, not {list(box)!r}")
        slots.append(CounterSlot(hero, tuple(float(v) for v in box)))
    return tuple(slots)


def read_counters(readings: Iterable[Any], slots: Sequence[CounterSlot]) -> dict[str, int | None]:
    """Each slot's hero → the divine die value seen in its slot.

    0 when no divine die lies in the slot; ``None`` when the slot's die could not be read (an
    abstained reading, or two divine dice in one slot): the hero keeps its last value.
    """
    found: dict[str, list[Any]] = {s.hero: [] for s in slots}
    for r in readings:
        if r.kind not in DIVINE_KINDS and r.status != "abstain":
            continue
        for s in slots:
            if s.holds(r.box):
                found[s.hero].append(r)
    values: dict[str, int | None] = {}
    for hero, rs in found.items():
        if not rs:
            values[hero] = 0
        elif len(rs) > 1 or rs[0].status != "ok":
            values[hero] = None
        else:
            values[hero] = int(rs[0].face)
    return values


class CounterTracker:
    """Turns successive readings of the slots into ``dg-divine-read`` events, one per change."""

    def __init__(self, slots: Sequence[CounterSlot]) -> None:
        self.slots = tuple(slots)
        self.last: dict[str, int] = {}

    def update(self, readings: Iterable[Any]) -> list[DivineRead]:
        """Events for every hero whose slot now shows a value other than the last one seen."""
        out = []
        for hero, value in read_counters(readings, self.slots).items():
            if value is None or self.last.get(hero) == value:
                continue
            self.last[hero] = value
            out.append(DivineRead(who=hero, value=value))
        return out
