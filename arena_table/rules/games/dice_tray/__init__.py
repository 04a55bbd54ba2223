"""The ``dice-tray`` game: nothing but the table's dice record, for a game the engine does not know.

Every roll is recorded and counted by the kernel's dice record (:mod:`arena_table.rules.kernel.mechanics.dice`),
which every game shares; this game adds no rules, never ends, and is the game a table runs
before its first ``start``.

>>> from arena_table.rules import in_progress, parse, replay
>>> ts = replay([parse("roll faces=[6,2]")])
>>> ts.game, in_progress(ts)
('dice-tray', "the dice tray's 1 roll")
"""

from __future__ import annotations

from typing import Any, Mapping

from arena_table.rules.kernel.events import DiceRolled, Event
from arena_table.rules.kernel.game import Game
from arena_table.rules.kernel.mechanics.dice import TrayState, describe_tray, new_tray


def setup(options: Mapping[str, Any]) -> TrayState:
    """An empty record (the table keeps the rolls in its own record).

    Raises:
        ValueError: any option (the dice tray takes none).
    """
    if options:
        raise ValueError(f"the dice tray takes no options, got {sorted(options)}")
    return new_tray()


def describe(state: TrayState, event: Event) -> str:
    """A roll in plain words; a correction is left to the table, whose record knows the old face."""
    return describe_tray(state, event) if isinstance(event, DiceRolled) else ""


def at_stake(state: TrayState, tray: TrayState) -> str | None:
    """The rolls a new game would clear, or ``None`` when there are none."""
    n = len(tray.rolls)
    return f"the dice tray's {n} roll{'s' if n != 1 else ''}" if n else None


GAME = Game(name="dice-tray", title="Dice tray", aliases=("dice", "tray"), setup=setup, describe=describe,
            at_stake=at_stake, fallback=True)
