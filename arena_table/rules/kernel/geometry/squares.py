"""Square grids: fields ``(col, row)``, the 8-neighbourhood, facing and the sides of a figure.

Row 0 is the board's north edge (top, as seen from above), columns run east; in board millimetres
``x`` is east and ``y`` south (the frame of :mod:`.hexes`). Facing ``0..3`` is north, east, south,
west. Around a figure (Demigods Evolution, 'Attacking' pp.22-23): its three front fields
(front-left, front, front-right) are its melee range, the two fields beside it its sides, the three
behind it its back -- the weak spot, "the exact opposite of their melee range". Line of sight runs
only along the three front arrows (straight ahead and the two forward diagonals) and stops at the
first blocked field.

>>> relative_side(target=(5, 5), target_facing=0, attacker=(5, 6))
'back'
>>> relative_side(target=(5, 5), target_facing=0, attacker=(4, 4))
'front'
>>> distance((0, 0), (3, -2)), len(neighbours((4, 4)))
(3, 8)
"""

from __future__ import annotations

import heapq
import math
from dataclasses import dataclass
from typing import Iterable

Field = tuple[int, int]
"""``(col, row)``."""
Point = tuple[float, float]

FORWARD: dict[int, Field] = {0: (0, -1), 1: (1, 0), 2: (0, 1), 3: (-1, 0)}
"""Facing -> the unit step straight ahead."""
FRONT = ("fl", "f", "fr")
SIDES = ("l", "r")
BACK = ("bl", "b", "br")
"""Relative directions of the front (melee range), sides and back (weak spot) fields."""


def _right(v: Field) -> Field:
    return (-v[1], v[0])


def _sign(x: int) -> int:
    return (x > 0) - (x < 0)


def direction(facing: int, rel: str) -> Field:
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


def neighbours(cell: Field) -> list[Field]:
    """The eight fields around ``cell`` (the 8-neighbourhood), column by column."""
    return [(cell[0] + dc, cell[1] + dr) for dc in (-1, 0, 1) for dr in (-1, 0, 1) if (dc, dr) != (0, 0)]


def distance(a: Field, b: Field) -> int:
    """King's-move steps between two fields (a diagonal is one step)."""
    return max(abs(b[0] - a[0]), abs(b[1] - a[1]))


def fields(cell: Field, facing: int, rels: Iterable[str]) -> list[Field]:
    """The fields one step from ``cell`` in each relative direction of ``rels``.

    >>> fields((5, 5), 0, FRONT), fields((5, 5), 0, SIDES), fields((5, 5), 0, BACK)
    ([(4, 4), (5, 4), (6, 4)], [(4, 5), (6, 5)], [(4, 6), (5, 6), (6, 6)])
    """
    return [(cell[0] + dc, cell[1] + dr) for dc, dr in (direction(facing, d) for d in rels)]


def front_fields(cell: Field, facing: int) -> list[Field]:
    """The three melee-range fields."""
    return fields(cell, facing, FRONT)


def ray(a: Field, b: Field) -> tuple[Field, int] | None:
    """``(unit step, distance)`` from ``a`` to ``b`` if they share a row, column or diagonal, else None."""
    dc, dr = b[0] - a[0], b[1] - a[1]
    if (dc, dr) == (0, 0) or not (dc == 0 or dr == 0 or abs(dc) == abs(dr)):
        return None
    return (_sign(dc), _sign(dr)), max(abs(dc), abs(dr))


def relative_side(target: Field, target_facing: int, attacker: Field) -> str:
    """Where ``attacker`` stands as seen from ``target``: ``front``, ``side`` or ``back``.

    Raises:
        ValueError: the two fields share no row, column or diagonal (no line of sight possible).
    """
    found = ray(tuple(target), tuple(attacker))
    if found is None:
        raise ValueError(f"{attacker} is not on a line from {target}")
    step = found[0]
    if step in {direction(target_facing, d) for d in FRONT}:
        return "front"
    if step in {direction(target_facing, d) for d in BACK}:
        return "back"
    return "side"


def sight(attacker: Field, facing: int, target: Field, blocked: Iterable[Field]) -> tuple[int | None, str]:
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
    if step not in {direction(facing, d) for d in FRONT}:
        return None, f"{tuple(target)} is not in front of the attacker"
    blocks = set(map(tuple, blocked))
    for k in range(1, dist):
        cell = (attacker[0] + step[0] * k, attacker[1] + step[1] * k)
        if cell in blocks:
            return None, f"line of sight blocked at {cell}"
    return dist, ""


def push_to(attacker: Field, target: Field) -> Field:
    """The field one further from ``attacker`` beyond ``target``, along the line between them."""
    found = ray(tuple(attacker), tuple(target))
    step = found[0] if found else (_sign(target[0] - attacker[0]), _sign(target[1] - attacker[1]))
    return (target[0] + step[0], target[1] + step[1])


def face_towards(cell: Field, other: Field) -> int:
    """The facing (0-3) that best points from ``cell`` to ``other`` (a tie goes north/south)."""
    dc, dr = other[0] - cell[0], other[1] - cell[1]
    if abs(dr) >= abs(dc):
        return 0 if dr < 0 else 2
    return 1 if dc > 0 else 3


def turns(facing: int, new_facing: int) -> int:
    """Quarter turns (0, 1 or 2) from one facing to another, whichever way is shorter.

    >>> turns(0, 1), turns(0, 3), turns(1, 3), turns(2, 2)
    (1, 1, 2, 0)
    """
    d = (new_facing - facing) % 4
    return min(d, 4 - d)


def move_cost(start: Field, facing: int, goal: Field, goal_facing: int | None, *,
              moves: Iterable[str], cols: int, rows: int, blocked: Iterable[Field] = (),
              high_ground: Iterable[Field] = (), can_rotate: bool = True,
              free: Iterable[Field] = ()) -> int | None:
    """Fewest points to go from ``start``/``facing`` to ``goal`` (any facing if ``goal_facing`` is None).

    Moving one field in a relative direction of ``moves`` or turning 90° costs 1; entering a field
    of ``high_ground`` 1 more (Demigods 'Movement' p.21, 'High Ground' p.9). Dijkstra over (field,
    facing) on a ``cols`` x ``rows`` board. ``free``: fields a figure may move onto, turn on and step
    off at no cost (a Demigod's own Ascending Stones, p.9). Returns None when the goal cannot be reached.

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


@dataclass(frozen=True)
class SquareLayout:
    """Where a square grid's fields lie on the board, in millimetres.

    >>> lay = SquareLayout(size_mm=25.0, cols=10, rows=10)
    >>> lay.cell_at((30.0, 74.9)), lay.centre((1, 2)), lay.cell_at((-1.0, 3.0))
    ((1, 2), (37.5, 62.5), None)
    """

    size_mm: float
    """Side of one field, mm."""
    cols: int
    rows: int
    origin_mm: Point = (0.0, 0.0)
    """Board position of the north-west corner of field ``(0, 0)``."""
    angle_deg: float = 0.0
    """The grid turned counterclockwise (as seen from above) by this angle about ``origin_mm``."""

    def __post_init__(self) -> None:
        if not (isinstance(self.size_mm, (int, float)) and math.isfinite(self.size_mm) and self.size_mm > 0):
            raise ValueError(f"square size_mm must be a positive number of millimetres, not {self.size_mm!r}")
        if self.cols < 1 or self.rows < 1:
            raise ValueError(f"a square grid needs at least one column and row, not {self.cols}x{self.rows}")

    def _local(self, point: Point) -> Point:
        a = math.radians(self.angle_deg)
        c, s = math.cos(a), math.sin(a)
        x, y = point[0] - self.origin_mm[0], point[1] - self.origin_mm[1]
        return ((c * x - s * y) / self.size_mm, (s * x + c * y) / self.size_mm)

    def _board(self, u: float, v: float) -> Point:
        a = math.radians(self.angle_deg)
        c, s = math.cos(a), math.sin(a)
        x, y = u * self.size_mm, v * self.size_mm
        return (self.origin_mm[0] + c * x + s * y, self.origin_mm[1] - s * x + c * y)

    def on_board(self, cell: Field) -> bool:
        return 0 <= cell[0] < self.cols and 0 <= cell[1] < self.rows

    def centre(self, cell: Field) -> Point:
        """Board mm of the centre of ``cell``."""
        return self._board(cell[0] + 0.5, cell[1] + 0.5)

    def cell_at(self, point: Point, *, keep: Field | None = None, margin_mm: float = 0.0) -> Field | None:
        """The field under a board point, or ``None`` off the board. A point on a border belongs to
        the field east/south of it (half-open fields). ``keep``/``margin_mm``: hysteresis as in
        :meth:`.hexes.HexLayout.cell_at`."""
        if keep is not None and self.contains(keep, point, margin_mm=margin_mm):
            return tuple(keep)
        u, v = self._local(point)
        cell = (math.floor(round(u, 9)), math.floor(round(v, 9)))
        return cell if self.on_board(cell) else None

    def contains(self, cell: Field, point: Point, *, margin_mm: float = 0.0) -> bool:
        """Whether ``point`` lies within ``cell`` grown by ``margin_mm`` on every side."""
        u, v = self._local(point)
        m = margin_mm / self.size_mm + 1e-9
        return cell[0] - m <= u <= cell[0] + 1 + m and cell[1] - m <= v <= cell[1] + 1 + m

    def facing_of(self, dx_mm: float, dy_mm: float) -> int:
        """The facing (0 N, 1 E, 2 S, 3 W) nearest a direction on the board (mm, ``y`` south);
        exactly between two, the lower-numbered one.

        Raises:
            ValueError: a zero vector has no direction.

        >>> SquareLayout(size_mm=25.0, cols=4, rows=4).facing_of(0.0, -3.0)
        0
        """
        if dx_mm == 0 and dy_mm == 0:
            raise ValueError("a facing needs a direction; the vector is zero")
        angle = math.degrees(math.atan2(-dy_mm, dx_mm)) - self.angle_deg
        want = {0: 90.0, 1: 0.0, 2: 270.0, 3: 180.0}
        return min(range(4), key=lambda f: (round(abs((angle - want[f] + 180) % 360 - 180), 9), f))
