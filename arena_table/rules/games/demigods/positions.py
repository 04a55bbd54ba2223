"""Fields, facing, line of sight and movement cost ('Movement' p.21, 'Attacking' pp.22-23).

Cells are ``(col, row)``; row 0 is the north edge. Facing: 0 north, 1 east,
2 south, 3 west. Around a figure, its three front fields (front-left, front,
front-right) are its melee range, the two fields beside it its sides and the
three behind it its back, the weak spot (p.23). Line of sight runs only along
the three front arrows (straight ahead and the two forward diagonals) and is
blocked by any figure, boulder or Ascending Stone between (p.22).

>>> relative_side(target=(5, 5), target_facing=0, attacker=(5, 6))
'back'
>>> relative_side(target=(5, 5), target_facing=0, attacker=(4, 4))
'front'
"""

from __future__ import annotations

import heapq
from typing import Iterable

FORWARD = {0: (0, -1), 1: (1, 0), 2: (0, 1), 3: (-1, 0)}
BLOCKING = frozenset({"boulder", "stone"})
"""Obstacles nobody moves onto and that block line of sight (p.9)."""


def _right(v: tuple[int, int]) -> tuple[int, int]:
    return (-v[1], v[0])


def direction(facing: int, rel: str) -> tuple[int, int]:
    """Unit step for a relative direction (``f``, ``b``, ``l``, ``r``, ``fl``, ``fr``, ``bl``, ``br``).

    >>> direction(0, "fr"), direction(1, "l")
    ((1, -1), (0, -1))
    """
    f = FORWARD[facing % 4]
    r = _right(f)
    vec = {"f": f, "b": (-f[0], -f[1]), "r": r, "l": (-r[0], -r[1])}
    if rel in vec:
        return vec[rel]
    a, b = vec[rel[0]], vec[rel[1]]
    return (a[0] + b[0], a[1] + b[1])


def _sign(x: int) -> int:
    return (x > 0) - (x < 0)


def ray(a: tuple[int, int], b: tuple[int, int]) -> tuple[tuple[int, int], int] | None:
    """``(unit step, distance)`` from ``a`` to ``b`` if they share a row, column or diagonal, else None."""
    dc, dr = b[0] - a[0], b[1] - a[1]
    if (dc, dr) == (0, 0) or not (dc == 0 or dr == 0 or abs(dc) == abs(dr)):
        return None
    return (_sign(dc), _sign(dr)), max(abs(dc), abs(dr))


def relative_side(target: tuple[int, int], target_facing: int, attacker: tuple[int, int]) -> str:
    """Where ``attacker`` stands as seen from ``target``: ``front``, ``side`` or ``back``.

    Raises:
        ValueError: the two fields share no row, column or diagonal (no line of sight possible).
    """
    found = ray(tuple(target), tuple(attacker))
    if found is None:
        raise ValueError(f"{attacker} is not on a line from {target}")
    step = found[0]
    if step in {direction(target_facing, d) for d in ("f", "fl", "fr")}:
        return "front"
    if step in {direction(target_facing, d) for d in ("b", "bl", "br")}:
        return "back"
    return "side"


def sight(attacker: tuple[int, int], facing: int, target: tuple[int, int],
          blocked: Iterable[tuple[int, int]]) -> tuple[int | None, str]:
    """Distance from ``attacker`` to ``target`` if in line of sight, else ``(None, reason)``.

    >>> sight((0, 5), 0, (0, 2), blocked=[(0, 3)])
    (None, 'line of sight blocked at (0, 3)')
    >>> sight((0, 5), 0, (2, 3), blocked=[])
    (2, '')
    """
    found = ray(tuple(attacker), tuple(target))
    if found is None:
        return None, f"{tuple(target)} is on no line of sight from {tuple(attacker)}"
    step, dist = found
    if step not in {direction(facing, d) for d in ("f", "fl", "fr")}:
        return None, f"{tuple(target)} is not in front of the attacker"
    blocks = set(map(tuple, blocked))
    for k in range(1, dist):
        cell = (attacker[0] + step[0] * k, attacker[1] + step[1] * k)
        if cell in blocks:
            return None, f"line of sight blocked at {cell}"
    return dist, ""


def front_fields(cell: tuple[int, int], facing: int) -> list[tuple[int, int]]:
    """The three melee-range fields."""
    return [(cell[0] + dx, cell[1] + dy) for dx, dy in (direction(facing, d) for d in ("fl", "f", "fr"))]


def adjacent_fields(cell: tuple[int, int]) -> list[tuple[int, int]]:
    return [(cell[0] + dc, cell[1] + dr) for dc in (-1, 0, 1) for dr in (-1, 0, 1) if (dc, dr) != (0, 0)]


def move_cost(start: tuple[int, int], facing: int, goal: tuple[int, int], goal_facing: int | None, *,
              moves: Iterable[str], cols: int, rows: int, blocked: Iterable[tuple[int, int]] = (),
              high_ground: Iterable[tuple[int, int]] = (), can_rotate: bool = True,
              free: Iterable[tuple[int, int]] = ()) -> int | None:
    """Fewest AP to go from ``start``/``facing`` to ``goal`` (any facing if ``goal_facing`` is None).

    Moving one field in a direction the class allows (relative to facing) or
    turning 90° costs 1 AP; entering high ground 1 more (p.9, p.21). Dijkstra
    over (field, facing). Returns None when the goal cannot be reached. ``free``: a Demigod's own
    Ascending Stones, which it may move onto, turn on and step off at no AP cost (p.9).

    >>> # p.21: the tank Pegasus Knight: 2 forward, turn right, 2 forward = 5 AP
    >>> move_cost((2, 8), 0, (4, 6), 1, moves=["f", "b"], cols=10, rows=10)
    5
    """
    moves = tuple(moves)
    blocks = set(map(tuple, blocked))
    high = set(map(tuple, high_ground))
    gratis = set(map(tuple, free))
    start_state = (tuple(start), facing % 4)
    best = {start_state: 0}
    heap = [(0, start_state)]
    while heap:
        cost, (cell, f) = heapq.heappop(heap)
        if cost > best.get((cell, f), 1 << 30):
            continue
        if cell == tuple(goal) and (goal_facing is None or f == goal_facing % 4):
            return cost
        steps = []
        for rel in moves:
            dc, dr = direction(f, rel)
            nxt = (cell[0] + dc, cell[1] + dr)
            if 0 <= nxt[0] < cols and 0 <= nxt[1] < rows and nxt not in blocks:
                steps.append(((nxt, f), cost + (0 if nxt in gratis or cell in gratis else 1 + (nxt in high))))
        if can_rotate:
            turn = 0 if cell in gratis else 1
            steps += [((cell, (f + 1) % 4), cost + turn), ((cell, (f + 3) % 4), cost + turn)]
        for node, c in steps:
            if c < best.get(node, 1 << 30):
                best[node] = c
                heapq.heappush(heap, (c, node))
    return None


def push_to(attacker: tuple[int, int], target: tuple[int, int]) -> tuple[int, int]:
    """The field a Push moves ``target`` to: one further along the attack's direction (p.24)."""
    found = ray(tuple(attacker), tuple(target))
    step = found[0] if found else (_sign(target[0] - attacker[0]), _sign(target[1] - attacker[1]))
    return (target[0] + step[0], target[1] + step[1])


def face_towards(cell: tuple[int, int], other: tuple[int, int]) -> int:
    """The facing (0-3) that best points from ``cell`` to ``other`` (Retaliation turns to face, p.13)."""
    dc, dr = other[0] - cell[0], other[1] - cell[1]
    if abs(dr) >= abs(dc):
        return 0 if dr < 0 else 2
    return 1 if dc > 0 else 3
