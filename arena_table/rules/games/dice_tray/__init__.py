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

from arena_table.rules.kernel.actions import Action, Choice, Param, legal
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


DICE = (4, 6, 8, 10, 12, 20)
"""The standard dice offered as buttons (any other die is typed: ``roll die=d100 faces=[42]``)."""


def actions(state: TrayState) -> list[Action]:
    """Enter a roll by taps: the die, then its face (the tray takes every roll, so it always offers this)."""
    dice = Param("die", "Die", tuple(Choice(f"d{n}", {"die": f"d{n}"}, (Param(
        "faces", "Face rolled", tuple(Choice(str(f), {"faces": [f]}) for f in range(1, n + 1))),)) for n in DICE))
    roll = legal(GAME.apply, state, "roll", "Enter a roll", fields={"source": "control"}, params=(dice,))
    return [roll] if roll else []


GAME = Game(name="dice-tray", title="Dice tray", aliases=("dice", "tray"), setup=setup, describe=describe,
            at_stake=at_stake, actions=actions, fallback=True)
