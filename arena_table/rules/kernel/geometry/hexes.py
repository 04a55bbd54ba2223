"""Hex grids: axial coordinates, cube rounding, pointy- or flat-top layouts in board millimetres.

Follows Red Blob Games' "Hexagonal Grids" (Amit Patel): a cell is axial ``(q, r)``; its cube
coordinates are ``(q, r, s)`` with ``s = -q - r``. Board millimetres have ``x`` to the right and
``y`` downwards, as seen from above with the board's top edge away from the viewer (the frame the
board calibration's homography maps into, and the SVG's). Pointy-top: the centre of ``(q, r)`` is
``size·(√3·(q + r/2), 1.5·r)``; flat-top: ``size·(1.5·q, √3·(r + q/2))`` (``size`` is the centre to
corner distance), then turned by ``angle_deg`` and moved to ``origin_mm``.

Facing ``0..5`` indexes :data:`DIRECTIONS` (pointy-top: E, NE, NW, W, SW, SE; flat-top: the same
vectors point ESE, ENE, N, WNW, WSW, S), the convention of the board SVG (``webui/svg.py``).

Rounding a point to a cell is exact and deterministic on cell borders: the fractional axial
coordinates are taken in units of 1/6,000,000 of a cell (every vertex and edge midpoint is then an
exact integer), rounded half up, and the coordinate left furthest from a whole number is recomputed,
ties going to ``q``, then ``r``, then ``s``. The same point always gives the same cell, however it
was computed, and that cell is one of the cells touching the point.

>>> distance((0, 0), (2, -1)), neighbours((0, 0))[:2]
(2, [(1, 0), (1, -1)])
>>> lay = HexLayout(size_mm=10.0)
>>> lay.cell_at(lay.centre((2, -1))), lay.cell_at((5.0, 0.0))
((2, -1), (0, 0))
"""

from __future__ import annotations

import heapq
import math
from dataclasses import dataclass
from typing import Callable

Hex = tuple[int, int]
"""Axial ``(q, r)``."""
Point = tuple[float, float]
"""Board millimetres ``(x, y)``, ``y`` downwards."""

DIRECTIONS: tuple[Hex, ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
"""Axial unit steps; facing ``i`` is ``DIRECTIONS[i]`` (pointy-top E, NE, NW, W, SW, SE)."""
ORIENTATIONS = ("pointy", "flat")
_SCALE = 6_000_000
"""Fractions of a cell in which rounding is exact: vertices (1/3) and edge midpoints (1/2) are whole."""
_SQRT3 = math.sqrt(3.0)


def distance(a: Hex, b: Hex) -> int:
    """Steps between two hexes.

    >>> distance((0, 0), (2, -1)), distance((4, -4), (0, 0)), distance((1, 2), (1, 2))
    (2, 4, 0)
    """
    dq, dr = b[0] - a[0], b[1] - a[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def neighbours(cell: Hex) -> list[Hex]:
    """The six adjacent hexes, in :data:`DIRECTIONS` order."""
    return [(cell[0] + dq, cell[1] + dr) for dq, dr in DIRECTIONS]


def is_adjacent(a: Hex | None, b: Hex | None) -> bool:
    """Whether two known hexes touch (``None``: a figure off the board is adjacent to nothing)."""
    return a is not None and b is not None and distance(a, b) == 1


def step(cell: Hex, facing: int, n: int = 1) -> Hex:
    """The hex ``n`` steps from ``cell`` in direction ``facing`` (0..5)."""
    dq, dr = DIRECTIONS[facing % 6]
    return (cell[0] + n * dq, cell[1] + n * dr)


def direction(a: Hex, b: Hex) -> int | None:
    """The facing (0..5) along which ``b`` lies in a straight line from ``a``, or ``None`` when it
    does not (or ``a == b``).

    >>> direction((0, 0), (3, 0)), direction((0, 0), (0, -2)), direction((0, 0), (2, -1))
    (0, 2, None)
    """
    d = distance(a, b)
    if d == 0:
        return None
    dq, dr = b[0] - a[0], b[1] - a[1]
    if dq % d or dr % d:
        return None
    unit = (dq // d, dr // d)
    return DIRECTIONS.index(unit) if unit in DIRECTIONS else None


def disc(centre: Hex, radius: int) -> list[Hex]:
    """Every hex within ``radius`` steps of ``centre`` (``3r² + 3r + 1`` hexes), sorted.

    >>> len(disc((0, 0), 0)), len(disc((0, 0), 1)), len(disc((2, 2), 4))
    (1, 7, 61)
    """
    q0, r0 = centre
    return [(q0 + q, r0 + r) for q in range(-radius, radius + 1) for r in range(-radius, radius + 1)
            if abs(q + r) <= radius]


def ring(centre: Hex, radius: int) -> list[Hex]:
    """The hexes exactly ``radius`` steps from ``centre``, walking from the one furthest SW.

    >>> ring((0, 0), 1) == sorted(neighbours((0, 0)), key=ring((0, 0), 1).index), len(ring((0, 0), 3))
    (True, 18)
    """
    if radius == 0:
        return [tuple(centre)]
    out, cell = [], step(centre, 4, radius)
    for facing in range(6):
        for _ in range(radius):
            out.append(cell)
            cell = step(cell, facing)
    return out


def _round_half_up(n: int) -> int:
    return (2 * n + _SCALE) // (2 * _SCALE)


def round_exact(qn: int, rn: int) -> Hex:
    """Cube rounding of the fractional hex ``(qn, rn) / 6,000,000`` in integer arithmetic (module
    docstring: half up, the furthest coordinate recomputed, ties to ``q`` then ``r`` then ``s``)."""
    sn = -qn - rn
    q, r, s = _round_half_up(qn), _round_half_up(rn), _round_half_up(sn)
    if q + r + s != 0:
        dq, dr, ds = abs(q * _SCALE - qn), abs(r * _SCALE - rn), abs(s * _SCALE - sn)
        if dq >= dr and dq >= ds:
            q = -r - s
        elif dr >= ds:
            r = -q - s
    return (q, r)


def cube_round(qf: float, rf: float) -> Hex:
    """The hex holding the fractional axial point ``(qf, rf)`` (see :func:`round_exact`).

    >>> cube_round(0.1, 0.2), cube_round(0.5, 0.0), cube_round(-0.5, 0.0), cube_round(1/3, 1/3)
    ((0, 0), (0, 0), (-1, 0), (1, 0))
    """
    return round_exact(round(qf * _SCALE), round(rf * _SCALE))


def line(a: Hex, b: Hex) -> list[Hex]:
    """The hexes a straight line from ``a``'s centre to ``b``'s crosses, ``a`` and ``b`` included
    (``distance + 1`` hexes). Where the line runs along a border it is nudged the same way every
    time (towards +q, +r), so the answer is deterministic.

    >>> line((0, 0), (3, 0)), line((0, 0), (2, -1))
    ([(0, 0), (1, 0), (2, 0), (3, 0)], [(0, 0), (1, 0), (2, -1)])
    """
    n = distance(a, b)
    if n == 0:
        return [tuple(a)]
    out = []
    for i in range(n + 1):
        qn = (a[0] * n + (b[0] - a[0]) * i) * _SCALE // n
        rn = (a[1] * n + (b[1] - a[1]) * i) * _SCALE // n
        out.append(round_exact(qn + 1, rn + 2))
    return out


def reachable(start: Hex, steps: int, *, passable: Callable[[Hex], bool] = lambda cell: True,
              cost: Callable[[Hex], int] = lambda cell: 1) -> dict[Hex, int]:
    """Every hex a figure can reach from ``start`` spending at most ``steps``, with what it costs.

    Args:
        passable: whether a figure may enter (and move on from) a hex: on the board, no enemy.
        cost: what entering a hex costs (1; 2 for a Death Swamp hex).

    Returns:
        ``{hex: cost}`` with ``start`` at 0 (Dijkstra).

    >>> sorted(reachable((0, 0), 1))
    [(-1, 0), (-1, 1), (0, -1), (0, 0), (0, 1), (1, -1), (1, 0)]
    >>> reachable((0, 0), 2, passable=lambda c: c != (1, 0)).get((2, 0))
    """
    best = {tuple(start): 0}
    heap = [(0, tuple(start))]
    while heap:
        spent, cell = heapq.heappop(heap)
        if spent > best[cell]:
            continue
        for nxt in neighbours(cell):
            total = spent + cost(nxt)
            if total <= steps and passable(nxt) and total < best.get(nxt, steps + 1):
                best[nxt] = total
                heapq.heappush(heap, (total, nxt))
    return best


@dataclass(frozen=True)
class HexLayout:
    """Where a hex grid's cells lie on the board, in millimetres.

    >>> HexLayout(size_mm=10.0, orientation="flat").centre((1, 0))
    (15.0, 8.660254037844386)
    """

    size_mm: float
    """Centre to corner of one hex, mm (half the width across corners)."""
    orientation: str = "pointy"
    """``pointy`` (a corner up, rows of hexes) or ``flat`` (an edge up, columns of hexes)."""
    origin_mm: Point = (0.0, 0.0)
    """Board position of the centre of hex ``(0, 0)``."""
    angle_deg: float = 0.0
    """The grid turned counterclockwise (as seen from above) by this angle about ``origin_mm``."""

    def __post_init__(self) -> None:
        if self.orientation not in ORIENTATIONS:
            raise ValueError(f"hex orientation must be one of {', '.join(ORIENTATIONS)}, not {self.orientation!r}")
        if not (isinstance(self.size_mm, (int, float)) and math.isfinite(self.size_mm) and self.size_mm > 0):
            raise ValueError(f"hex size_mm must be a positive number of millimetres, not {self.size_mm!r}")

    # board mm <-> the grid's own unturned frame
    def _to_board(self, x: float, y: float) -> Point:
        a = math.radians(self.angle_deg)
        c, s = math.cos(a), math.sin(a)
        return (self.origin_mm[0] + c * x + s * y, self.origin_mm[1] - s * x + c * y)

    def _from_board(self, point: Point) -> Point:
        a = math.radians(self.angle_deg)
        c, s = math.cos(a), math.sin(a)
        x, y = point[0] - self.origin_mm[0], point[1] - self.origin_mm[1]
        return (c * x - s * y, s * x + c * y)

    def centre(self, cell: Hex) -> Point:
        """Board mm of the centre of ``cell``."""
        q, r = cell
        if self.orientation == "pointy":
            return self._to_board(self.size_mm * _SQRT3 * (q + r / 2), self.size_mm * 1.5 * r)
        return self._to_board(self.size_mm * 1.5 * q, self.size_mm * _SQRT3 * (r + q / 2))

    def fractional(self, point: Point) -> tuple[float, float]:
        """Fractional axial ``(q, r)`` of a board point."""
        x, y = self._from_board(point)
        if self.orientation == "pointy":
            return ((_SQRT3 / 3 * x - y / 3) / self.size_mm, (2 / 3 * y) / self.size_mm)
        return ((2 / 3 * x) / self.size_mm, (-x / 3 + _SQRT3 / 3 * y) / self.size_mm)

    def cell_at(self, point: Point, *, keep: Hex | None = None, margin_mm: float = 0.0) -> Hex:
        """The hex under a board point.

        Args:
            keep: the hex the figure stood on: kept while the point lies within ``margin_mm`` of it
                (hysteresis, so a figure on a border does not flicker between two hexes).
            margin_mm: how far beyond ``keep``'s edges it is still kept.

        >>> lay = HexLayout(size_mm=10.0)
        >>> lay.cell_at((9.5, 0.0)), lay.cell_at((9.5, 0.0), keep=(0, 0), margin_mm=1.0)
        ((1, 0), (0, 0))
        """
        if keep is not None and self.contains(keep, point, margin_mm=margin_mm):
            return tuple(keep)
        qf, rf = self.fractional(point)
        return cube_round(qf, rf)

    def contains(self, cell: Hex, point: Point, *, margin_mm: float = 0.0) -> bool:
        """Whether ``point`` lies within ``cell`` grown by ``margin_mm`` on every side (borders included)."""
        cx, cy = self.centre(cell)
        px, py = point[0] - cx, point[1] - cy
        apothem = self.size_mm * _SQRT3 / 2
        for facing in range(3):
            nx, ny = self.centre(step(cell, facing))
            ux, uy = (nx - cx) / (2 * apothem), (ny - cy) / (2 * apothem)
            if abs(px * ux + py * uy) > apothem + margin_mm + 1e-9:
                return False
        return True

    def corners(self, cell: Hex) -> list[Point]:
        """The six corners of ``cell``, board mm, counterclockwise as seen from above."""
        cx, cy = self.centre(cell)
        start = 30.0 if self.orientation == "pointy" else 0.0
        out = []
        for i in range(6):
            a = math.radians(start + 60 * i + self.angle_deg)
            out.append((cx + self.size_mm * math.cos(a), cy - self.size_mm * math.sin(a)))
        return out

    def facing_angle(self, facing: int) -> float:
        """Degrees counterclockwise from the board's +x (as seen from above) of facing ``0..5``."""
        return (60.0 * (facing % 6) + (0.0 if self.orientation == "pointy" else -30.0) + self.angle_deg) % 360.0

    def facing_of(self, dx_mm: float, dy_mm: float) -> int:
        """The facing (0..5) nearest a direction on the board (mm, ``y`` downwards); a direction
        exactly between two facings takes the lower-numbered one.

        Raises:
            ValueError: a zero vector has no direction.

        >>> HexLayout(size_mm=10.0).facing_of(1.0, -1.0)
        1
        """
        if dx_mm == 0 and dy_mm == 0:
            raise ValueError("a facing needs a direction; the vector is zero")
        angle = math.degrees(math.atan2(-dy_mm, dx_mm))
        return min(range(6), key=lambda f: (round(abs((angle - self.facing_angle(f) + 180) % 360 - 180), 9), f))

