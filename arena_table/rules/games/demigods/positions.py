"""Fields, facing, line of sight and movement cost ('Movement' p.21, 'Attacking' pp.22-23), taken
from the shared square-grid geometry (:mod:`arena_table.rules.kernel.geometry.squares`).

Cells are ``(col, row)``; row 0 is the north edge. Facing: 0 north, 1 east,
2 south, 3 west. Around a figure, its three front fields (front-left, front,
front-right) are its melee range, the two fields beside it its sides and the
three behind it its back, the weak spot (p.23). Line of sight runs only along
the three front arrows (straight ahead and the two forward diagonals) and is
blocked by any figure, boulder or Ascending Stone between (p.22). A Push moves
the target one field further along the attack's direction (p.24); Retaliation
turns the defender to face its attacker (p.13).

>>> relative_side(target=(5, 5), target_facing=0, attacker=(5, 6))
'back'
>>> move_cost((2, 8), 0, (4, 6), 1, moves=["f", "b"], cols=10, rows=10)  # p.21 Pegasus Knight
5
"""

from __future__ import annotations

from arena_table.rules.kernel.geometry.squares import (FORWARD, direction, face_towards, front_fields, move_cost,
                                                       push_to, ray, relative_side, sight)
from arena_table.rules.kernel.geometry.squares import neighbours as adjacent_fields

BLOCKING = frozenset({"boulder", "stone"})
"""Obstacles nobody moves onto and that block line of sight (p.9)."""

__all__ = ["BLOCKING", "FORWARD", "adjacent_fields", "direction", "face_towards", "front_fields", "move_cost",
           "push_to", "ray", "relative_side", "sight"]
