"""Theosis' rolls named by die kind (``data/die_kinds.json``) as the dice the engine waits for.

>>> import arena_table.rules
>>> from arena_table.rules.kernel.events import DiceRolled
>>> str(as_die(DiceRolled(kinds=("theosis-skullduggery",), faces=("lightning",))))
'roll die=skull faces=[5]'
"""

from __future__ import annotations

import dataclasses

from arena_table.rules.kernel.events import DiceRolled
from arena_table.rules.kernel.mechanics.dice import kind_values

KIND_DIE = {"theosis-d4": "d4", "d4": "d4", "d4-edge": "d4", "theosis-thieves-d6": "d6", "d6": "d6",
            "theosis-skullduggery": "skull"}
"""Die kind -> the die it answers (``die`` of the older roll form)."""


def as_die(ev: DiceRolled) -> DiceRolled | None:
    """``ev`` in the ``die`` form: a roll named by kind becomes its die with the kinds' values as faces
    (the d4's number, the Thieves' Guild face 1-6, the skullduggery row: Monster Stat Blocks);
    ``None`` for dice of a kind Theosis does not throw or of several kinds. A ``die`` roll is itself.

    Raises:
        Refused: a face the kind does not have.
    """
    if not ev.kinds:
        return ev
    pairs = kind_values(ev)
    dies = {KIND_DIE.get(k) for k, _ in pairs}
    if len(dies) != 1 or None in dies:
        return None
    return dataclasses.replace(ev, kinds=(), die=dies.pop(), faces=tuple(v for _, v in pairs))
