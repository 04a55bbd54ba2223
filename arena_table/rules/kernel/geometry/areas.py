"""Area maps: named polygons on the board, adjacent where they share an edge that no wall blocks.

An area is a polygon in board millimetres (``x`` east, ``y`` south, as in :mod:`.hexes`). Two
areas are adjacent when a stretch of their borders longer than :data:`TOUCH_MM` coincides and is not
covered by a wall (Sword & Sorcery 4.1: "areas are adjacent only when they share an edge"; a wall
or an unconnected tile edge is no link). Corners touching make no adjacency. ``links`` adds
passages the drawing does not show (a door, a portal), symmetric like the rest.

>>> m = AreaMap.from_spec({"areas": {"a": [[0, 0], [10, 0], [10, 10], [0, 10]],
...                                  "b": [[10, 0], [20, 0], [20, 10], [10, 10]],
...                                  "c": [[20, 0], [30, 0], [30, 10], [20, 10]]},
...                        "walls": [[[20, 0], [20, 10]]]})
>>> m.neighbours("b"), m.area_at((15.0, 5.0)), graph_distance(m.adjacency(), "a", "c")
(('a',), 'b', None)
"""

from __future__ import annotations

import functools
import math
from collections import deque
from dataclasses import dataclass
from typing import Any, Iterable, Mapping

Point = tuple[float, float]
Segment = tuple[Point, Point]
TOUCH_MM = 0.5
"""Shared border shorter than this (mm) is a touching corner, not an edge."""
_ON_LINE_MM = 0.05
"""How far a border may stray from another and still lie on it (drawing noise), mm."""


def _edges(poly: tuple[Point, ...]) -> list[Segment]:
    return [(poly[i], poly[(i + 1) % len(poly)]) for i in range(len(poly))]


def _overlap(a: Segment, b: Segment) -> tuple[float, float, Point, Point] | None:
    """The stretch of ``b`` lying on ``a``, as parameters ``(t0, t1)`` along ``a`` (mm), or None."""
    (ax, ay), (bx, by) = a
    length = math.hypot(bx - ax, by - ay)
    if length == 0:
        return None
    ux, uy = (bx - ax) / length, (by - ay) / length
    ts = []
    for px, py in b:
        off = abs((px - ax) * uy - (py - ay) * ux)
        if off > _ON_LINE_MM:
            return None
        ts.append((px - ax) * ux + (py - ay) * uy)
    lo, hi = max(0.0, min(ts)), min(length, max(ts))
    if hi - lo <= 0:
        return None
    return lo, hi, (ax, ay), (ux, uy)


def _uncovered(lo: float, hi: float, covers: Iterable[tuple[float, float]]) -> float:
    """Length of ``[lo, hi]`` not covered by the intervals ``covers``."""
    free, at = 0.0, lo
    for c0, c1 in sorted(covers):
        if c1 <= at:
            continue
        if c0 > at:
            free += min(c0, hi) - at
        at = max(at, c1)
        if at >= hi:
            break
    return free + max(0.0, hi - at)


def _inside(poly: tuple[Point, ...], p: Point) -> bool:
    """Point in polygon, borders included (even-odd rule plus an on-edge test)."""
    x, y = p
    for a, b in _edges(poly):
        if _on_segment((a, b), p):
            return True
    hit = False
    for (x1, y1), (x2, y2) in _edges(poly):
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            hit = not hit
    return hit


def _on_segment(seg: Segment, p: Point) -> bool:
    (ax, ay), (bx, by) = seg
    length = math.hypot(bx - ax, by - ay)
    if length == 0:
        return math.hypot(p[0] - ax, p[1] - ay) <= _ON_LINE_MM
    t = ((p[0] - ax) * (bx - ax) + (p[1] - ay) * (by - ay)) / length
    off = abs((p[0] - ax) * (by - ay) - (p[1] - ay) * (bx - ax)) / length
    return off <= _ON_LINE_MM and -_ON_LINE_MM <= t <= length + _ON_LINE_MM


@dataclass(frozen=True)
class AreaMap:
    """Named polygons with walls; adjacency by shared, unwalled edges plus explicit ``links``."""

    polygons: tuple[tuple[str, tuple[Point, ...]], ...]
    """``(area, corners)`` in board mm, in the order given (the first holding a point wins)."""
    walls: tuple[Segment, ...] = ()
    """Wall segments, board mm: a shared edge they cover is no passage."""
    links: tuple[tuple[str, str], ...] = ()
    """Extra adjacencies the drawing does not show."""

    @staticmethod
    def from_spec(spec: Mapping[str, Any]) -> "AreaMap":
        """An area map from ``{"areas": {name: [[x, y], ...]}, "walls": [[[x, y], [x, y]], ...],
        "links": [[a, b], ...]}``.

        Raises:
            ValueError: a polygon with fewer than three corners, a bad point, or a link naming no area.
        """
        polys = []
        for name, pts in dict(spec.get("areas", {})).items():
            corners = tuple(_point(f"areas.{name}", p) for p in pts)
            if len(corners) < 3:
                raise ValueError(f"areas.{name}: a polygon needs at least three corners, got {len(corners)}")
            polys.append((str(name), corners))
        if not polys:
            raise ValueError("an area map needs at least one area (areas: {name: [[x, y], ...]})")
        names = {n for n, _ in polys}
        walls = tuple((_point("walls", w[0]), _point("walls", w[1])) for w in spec.get("walls", ()))
        links = []
        for pair in spec.get("links", ()):
            a, b = (str(x) for x in pair)
            for x in (a, b):
                if x not in names:
                    raise ValueError(f"links: {x!r} is not an area of the map")
            links.append((a, b))
        return AreaMap(polygons=tuple(polys), walls=walls, links=tuple(links))

    def names(self) -> tuple[str, ...]:
        return tuple(n for n, _ in self.polygons)

    def adjacency(self) -> dict[str, tuple[str, ...]]:
        """``{area: sorted neighbours}`` for every area (symmetric; a copy)."""
        return dict(self._adjacency)

    @functools.cached_property
    def _adjacency(self) -> dict[str, tuple[str, ...]]:
        adj: dict[str, set[str]] = {n: set() for n, _ in self.polygons}
        for i, (na, pa) in enumerate(self.polygons):
            for nb, pb in self.polygons[i + 1:]:
                if self._share_open_edge(pa, pb):
                    adj[na].add(nb)
                    adj[nb].add(na)
        for a, b in self.links:
            adj[a].add(b)
            adj[b].add(a)
        return {n: tuple(sorted(v)) for n, v in adj.items()}

    def _share_open_edge(self, pa: tuple[Point, ...], pb: tuple[Point, ...]) -> bool:
        for ea in _edges(pa):
            for eb in _edges(pb):
                found = _overlap(ea, eb)
                if found is None or found[1] - found[0] < TOUCH_MM:
                    continue
                lo, hi, _, _ = found
                covers = [(w[0], w[1]) for w in (_overlap(ea, wall) for wall in self.walls) if w is not None]
                if _uncovered(lo, hi, covers) >= TOUCH_MM:
                    return True
        return False

    def neighbours(self, area: str) -> tuple[str, ...]:
        return self._adjacency.get(area, ())

    def area_at(self, point: Point, *, keep: str | None = None) -> str | None:
        """The area holding a board point (a point on a border: ``keep`` if it is one of them, else
        the first listed), or ``None`` outside every area."""
        holding = [n for n, poly in self.polygons if _inside(poly, point)]
        if keep in holding:
            return keep
        return holding[0] if holding else None

    def wall_between(self, a: Point, b: Point) -> bool:
        """Whether the straight segment from ``a`` to ``b`` crosses or touches a wall."""
        return any(_segments_meet((a, b), w) for w in self.walls)


def _segments_meet(s: Segment, t: Segment) -> bool:
    def orient(p: Point, q: Point, r: Point) -> float:
        return (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])

    (p1, p2), (q1, q2) = s, t
    d1, d2, d3, d4 = orient(q1, q2, p1), orient(q1, q2, p2), orient(p1, p2, q1), orient(p1, p2, q2)
    if ((d1 > 0) != (d2 > 0)) and ((d3 > 0) != (d4 > 0)) and 0 not in (d1, d2, d3, d4):
        return True
    return any(_on_segment(seg, p) for seg, p in ((t, p1), (t, p2), (s, q1), (s, q2)))


def _point(where: str, p: Any) -> Point:
    if not (isinstance(p, (list, tuple)) and len(p) == 2
            and all(isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) for v in p)):
        raise ValueError(f"{where}: {p!r} is not a point [x_mm, y_mm]")
    return (float(p[0]), float(p[1]))


def graph_distance(adjacency: Mapping[Any, Iterable[Any]], a: Any, b: Any) -> int | None:
    """Fewest steps from ``a`` to ``b`` through ``adjacency`` (``None``: no path).

    >>> graph_distance({"a": ["b"], "b": ["a", "c"], "c": ["b"]}, "a", "c")
    2
    """
    seen, queue = {a: 0}, deque([a])
    while queue:
        x = queue.popleft()
        if x == b:
            return seen[x]
        for n in adjacency.get(x, ()):
            if n not in seen:
                seen[n] = seen[x] + 1
                queue.append(n)
    return None
