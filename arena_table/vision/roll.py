"""Roll assembly: which dice of a settled frame make a roll, and which must be re-rolled.

A pure function on one settle (:class:`~arena_table.vision.settle.Settle`), the reader's
:class:`~arena_table.vision.dice.DiceReading` of its frame and what the previous settles left
(:class:`RollMemory`). The camera loop (``table/camera_loop.py``) only reads frames, calls
:func:`decide` and carries out the :class:`RollDecision`: record a roll, ask for a re-roll, or
report that nothing was recorded.

- A die counts when the settle says it moved or turned (``Settle.counts_die`` against the dice
  of the previous read of the still tray, ``RollMemory.before``).
- A refused die (``unreadable``, ``cocked``, ``partial``) holds the whole roll back for a re-roll
  (a roll missing a die would feed the game a wrong total), unless ``partial_rolls``, which records
  the dice read. The held roll's dice read ``ok`` belong to the roll that the re-roll completes:
  they did not move, so they are carried by their place and value (``RollMemory.held``), but only
  when a refused die of the held roll was taken up (its box changed): a player who leaves it lying
  and throws other dice starts a roll of its own.

>>> from arena_table.vision.dice import DiceReading, DieReading
>>> from arena_table.vision.settle import Settle
>>> die = lambda v, s, x: DieReading(v, s, "", 0.9, (x + 10.0, 10.0), (x, 0, 20, 20))
>>> settle = Settle(None, 0.0, 0.0, None, 1.0, "moved", 0.15, 0.0)  # a new scene: every die counts
>>> d = decide(settle, DiceReading((die(3, "ok", 0), die(None, "cocked", 40)), 80, 40), RollMemory())
>>> d.faces, d.held_back, [r.status for r in d.refused]
((3,), True, ['cocked'])
>>> d.memory.held
(((10.0, 10.0), 3),)
"""

from __future__ import annotations

from dataclasses import dataclass

from .dice import DiceReading, DieReading
from .settle import Settle, values_near

Place = tuple[float, float]
Box = tuple[int, int, int, int]


@dataclass(frozen=True)
class RollMemory:
    """What the settles before this one leave for it (frozen; :func:`decide` returns the next)."""

    before: tuple[tuple[Place, int | None], ...] | None = None
    """The dice the last read of the still tray found, as ((cx, cy) px, value or ``None`` when
    refused); ``None`` when not known (the reader failed, or nothing was read yet)."""
    held: tuple[tuple[Place, int], ...] = ()
    """A roll held back for a re-roll of its refused dice: its dice read ok, as ((cx, cy), value)."""
    held_refused: tuple[Box, ...] = ()
    """The boxes (x, y, w, h px) of that held roll's refused dice."""

    def remember(self, reading: DiceReading) -> "RollMemory":
        """This memory with ``before`` set to what ``reading`` (of the still tray) found."""
        return RollMemory(_places(reading), self.held, self.held_refused)

    def forget(self) -> "RollMemory":
        """This memory with ``before`` unknown (a settle whose frame could not be read)."""
        return RollMemory(None, self.held, self.held_refused)


@dataclass(frozen=True)
class RollDecision:
    """What one settle makes of the table's roll."""

    dice: tuple[DieReading, ...]
    """The dice of this roll: those that moved or turned, plus a held roll's dice read ok."""
    good: tuple[DieReading, ...]
    """Of ``dice``, those read ``ok``."""
    refused: tuple[DieReading, ...]
    """Of ``dice``, those refused: to re-roll."""
    held_back: bool
    """A refused die holds the roll back (not ``partial_rolls``): nothing is recorded yet."""
    had_dice: bool
    """The previous read of the still tray found dice (used to ask "were the dice taken away?")."""
    memory: RollMemory
    """The memory for the next settle."""

    @property
    def records(self) -> bool:
        """Whether a roll is recorded: dice read ok and nothing held back."""
        return bool(self.good) and not self.held_back

    @property
    def faces(self) -> tuple[int, ...]:
        """The values of ``good``, in reading order (top to bottom, left to right)."""
        return tuple(int(d.value) for d in self.good)


def _places(reading: DiceReading) -> tuple[tuple[Place, int | None], ...]:
    return tuple((d.center, d.value if d.status == "ok" else None) for d in reading.dice)


def decide(settled: Settle, reading: DiceReading, memory: RollMemory, partial_rolls: bool = False) -> RollDecision:
    """The roll that ``settled`` makes, given the reading of its frame and what earlier settles left.

    Args:
        settled: the settle (its ``changed`` mask and mode say which dice moved).
        reading: the reader's reading of ``settled.frame``.
        memory: the :class:`RollMemory` the previous decision (or ``RollMemory()``) returned.
        partial_rolls: record the dice read even when some are refused (no re-roll hold).

    Returns:
        A :class:`RollDecision`; its ``memory`` goes to the next call.
    """
    held = memory.held
    if settled.changed is None or not any(settled.counts(box) for box in memory.held_refused):
        held = ()
    before = None if memory.before is None else list(memory.before)
    dice = tuple(d for d in reading.dice
                 if settled.counts_die(d.box, d.value if d.status == "ok" else None, before)
                 or d.status == "ok" and d.value in values_near(d.box, held))
    good = tuple(d for d in dice if d.status == "ok")
    refused = tuple(d for d in dice if d.status != "ok")
    if not dice:  # nothing counted: the memory of a held roll stands for the next settle
        return RollDecision((), (), (), False, bool(memory.before),
                            RollMemory(_places(reading), memory.held, memory.held_refused))
    held_back = bool(refused) and not partial_rolls
    if held_back:
        nxt = RollMemory(_places(reading), tuple((d.center, int(d.value)) for d in good), tuple(d.box for d in refused))
    else:
        nxt = RollMemory(_places(reading))
    return RollDecision(dice, good, refused, held_back, bool(memory.before), nxt)
