"""Fitting a grid's size, origin and turn to calibration points: ``measure(layout, marks)``.

Where a rulebook prints no dimensions, a board definition carries a default size marked *to
enter*; a photo of markers standing on known cells measures it. The vision side locates the
markers in board millimetres (through the board calibration's homography) and hands them here
with the cells they stand on; this module is pure arithmetic.

The fit is a least-squares similarity (uniform scale, turn, shift) from the grid's unit layout
to the measured points, solved in closed form (the linear form ``x = ox + a·u + b·v``,
``y = oy - b·u + a·v``).

>>> from .hexes import HexLayout
>>> true = HexLayout(size_mm=24.0, origin_mm=(300.0, 200.0), angle_deg=2.0)
>>> marks = [(c, true.centre(c)) for c in [(0, 0), (3, -1), (-2, 4), (1, 1)]]
>>> m = measure(HexLayout(size_mm=30.0), marks)
>>> round(m.layout.size_mm, 6), tuple(round(v, 6) for v in m.layout.origin_mm), round(m.layout.angle_deg, 6)
(24.0, (300.0, 200.0), 2.0)
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from typing import Any, Iterable, Sequence

from .hexes import HexLayout
from .squares import SquareLayout

Layout = Any
"""A :class:`.hexes.HexLayout` or :class:`.squares.SquareLayout`."""


@dataclass(frozen=True)
class Measured:
    """A fitted layout and how well the calibration points fit it."""

    layout: Layout
    """The layout given, with ``size_mm``, ``origin_mm`` and ``angle_deg`` fitted."""
    rms_mm: float
    """Root-mean-square distance of the points from their cells' fitted centres, mm."""
    worst_mm: float
    """The largest of those distances, mm."""
    worst_cell: Any
    """The cell of the point that fits worst."""


def _unit(layout: Layout) -> Layout:
    return dataclasses.replace(layout, size_mm=1.0, origin_mm=(0.0, 0.0), angle_deg=0.0)


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting (a small dense system)."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for col in range(n):
        piv = max(range(col, n), key=lambda r: abs(m[r][col]))
        if abs(m[piv][col]) < 1e-12:
            raise ValueError("the calibration points do not fix the grid: give at least two distinct cells")
        m[col], m[piv] = m[piv], m[col]
        for r in range(n):
            if r != col:
                f = m[r][col] / m[col][col]
                m[r] = [x - f * y for x, y in zip(m[r], m[col])]
    return [m[i][n] / m[i][i] for i in range(n)]


def measure(layout: Layout, marks: Iterable[tuple[Any, Sequence[float]]], *, turn: bool = True) -> Measured:
    """Fit ``layout``'s size, origin and turn to markers of known cells.

    Args:
        layout: the board's layout (its orientation, columns and rows are kept; size, origin and
            angle are fitted).
        marks: ``(cell, (x_mm, y_mm))``: where a marker standing on the centre of ``cell`` was seen.
        turn: fit the angle too (``False``: the grid is square to the board frame, angle 0).

    Returns:
        :class:`Measured`.

    Raises:
        ValueError: fewer than two distinct cells, or a point that is not two finite numbers.
    """
    pts = []
    for cell, p in marks:
        if len(p) != 2 or not all(isinstance(v, (int, float)) and math.isfinite(v) for v in p):
            raise ValueError(f"calibration point for {cell}: {p!r} is not (x_mm, y_mm)")
        pts.append((tuple(cell), (float(p[0]), float(p[1]))))
    if len({c for c, _ in pts}) < 2:
        raise ValueError("the calibration points do not fix the grid: give at least two distinct cells")
    unit = _unit(layout)
    rows, rhs = [], []
    for cell, (x, y) in pts:
        u, v = unit.centre(cell)
        if turn:
            rows += [[u, v, 1.0, 0.0], [v, -u, 0.0, 1.0]]
        else:
            rows += [[u, 1.0, 0.0], [v, 0.0, 1.0]]
        rhs += [x, y]
    ata = [[sum(r[i] * r[j] for r in rows) for j in range(len(rows[0]))] for i in range(len(rows[0]))]
    atb = [sum(r[i] * t for r, t in zip(rows, rhs)) for i in range(len(rows[0]))]
    sol = _solve(ata, atb)
    a, b, ox, oy = sol if turn else (sol[0], 0.0, sol[1], sol[2])
    size = math.hypot(a, b)
    if size <= 0:
        raise ValueError("the calibration points give the grid no size (all on one spot?)")
    fitted = dataclasses.replace(layout, size_mm=size, origin_mm=(ox, oy), angle_deg=math.degrees(math.atan2(b, a)))
    errs = [(math.dist(fitted.centre(c), p), c) for c, p in pts]
    worst = max(errs)
    return Measured(layout=fitted, rms_mm=math.sqrt(sum(e * e for e, _ in errs) / len(errs)),
                    worst_mm=worst[0], worst_cell=worst[1])

