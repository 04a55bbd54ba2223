"""Board definitions as data: which grid a game's board is, its cells, named places and size in mm.

A definition is a JSON object (one file of them per game, ``games/<game>/data/boards.json``)::

    {"id": "theosis-arena", "game": "theosis", "title": "Theosis Arena", "kind": "hex",
     "orientation": "pointy", "size_mm": 25.0, "disc": 5,
     "features": {"centre": [[0, 0]]},
     "to_enter": {"size_mm": "the rulebook prints no hex size: measure it (geometry.measure)"},
     "source": "Theosis p.5 Winning the Game"}

- ``kind`` ``hex``: ``orientation``, ``size_mm`` (centre to corner), cells ``disc`` (radius about
  ``[0, 0]``) or ``cells`` (a list of ``[q, r]``).
- ``kind`` ``square``: ``size_mm`` (a field's side), ``cols``, ``rows``; every field is on the board.
- ``kind`` ``areas``: ``areas`` (name -> polygon corners in mm), ``walls``, ``links``
  (:class:`.areas.AreaMap`); ``size_mm`` is the scale the polygons were drawn at, for reference.
- ``origin_mm`` and ``angle_deg`` place the grid on the board (defaults 0); ``features`` name cells
  (the centre hex, starting triads, pitfalls); ``to_enter`` marks every value the rulebook does not
  give with what is to be entered -- a documented default until the table measures or enters it.

>>> b = board_from({"id": "t", "game": "g", "kind": "hex", "size_mm": 10.0, "disc": 2,
...                 "features": {"centre": [[0, 0]]}})
>>> len(b.cells), b.has((2, 0)), b.has((3, 0)), b.distance((0, 0), (2, -2)), b.feature("centre")
(19, True, False, 2, ((0, 0),))
>>> b.cell_at(b.centre((1, 1))), b.cell_at((500.0, 0.0))
((1, 1), None)
"""

from __future__ import annotations

import dataclasses
import functools
import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

from . import areas as area_maps, hexes, squares
from .areas import AreaMap
from .hexes import HexLayout
from .squares import SquareLayout

KINDS = ("hex", "square", "areas")


@dataclass(frozen=True)
class Board:
    """One board definition (see the module docstring for its JSON form)."""

    id: str
    game: str
    kind: str
    """``hex``, ``square`` or ``areas``."""
    layout: Any
    """:class:`.hexes.HexLayout`, :class:`.squares.SquareLayout`, or the :class:`.areas.AreaMap`."""
    cells: tuple[Any, ...]
    """Every cell on the board: ``(q, r)``, ``(col, row)`` or area names."""
    title: str = ""
    features: tuple[tuple[str, tuple[Any, ...]], ...] = ()
    """Named places: ``("centre", ((0, 0),))``, ``("pitfall", (...))``."""
    to_enter: tuple[tuple[str, str], ...] = ()
    """``(key, what to enter)`` for each value the rulebook does not give (a documented default)."""
    source: str = ""
    """Where the definition comes from in the rulebook."""

    def has(self, cell: Any) -> bool:
        """Whether ``cell`` is on the board."""
        return _key(cell) in self._cellset

    @functools.cached_property
    def _cellset(self) -> frozenset:
        return frozenset(self.cells)

    def feature(self, name: str) -> tuple[Any, ...]:
        """The cells of a named place (``()`` when the board has none of that name)."""
        return dict(self.features).get(name, ())

    def centre(self, cell: Any) -> tuple[float, float]:
        """Board mm of ``cell``'s centre (an area's: the mean of its corners)."""
        if self.kind == "areas":
            poly = dict(self.layout.polygons)[cell]
            return (sum(p[0] for p in poly) / len(poly), sum(p[1] for p in poly) / len(poly))
        return self.layout.centre(tuple(cell))

    def cell_at(self, point: tuple[float, float], *, keep: Any = None, margin_mm: float = 0.0) -> Any:
        """The cell of the board under a point in board mm, or ``None`` off the board.

        ``keep``/``margin_mm``: the cell the figure stood on is kept while the point lies within
        ``margin_mm`` of it (hysteresis; for areas a point on a shared border keeps ``keep``).
        """
        if self.kind == "areas":
            return self.layout.area_at(point, keep=keep)
        cell = self.layout.cell_at(point, keep=None if keep is None else tuple(keep), margin_mm=margin_mm)
        return cell if cell is not None and self.has(cell) else None

    def neighbours(self, cell: Any) -> tuple[Any, ...]:
        """The cells on the board adjacent to ``cell`` (hex: six, square: eight, areas: shared edges)."""
        if self.kind == "areas":
            return self.layout.neighbours(cell)
        near = hexes.neighbours(cell) if self.kind == "hex" else squares.neighbours(cell)
        return tuple(c for c in near if self.has(c))

    def distance(self, a: Any, b: Any) -> int | None:
        """Steps between two cells: hexes, king's moves on squares, area steps (``None``: no path)."""
        if self.kind == "hex":
            return hexes.distance(a, b)
        if self.kind == "square":
            return squares.distance(a, b)
        return area_maps.graph_distance(self.layout.adjacency(), a, b)

    def facing_of(self, dx_mm: float, dy_mm: float) -> int | None:
        """The facing nearest a board direction (``None`` on an area map, which has no facing)."""
        return None if self.kind == "areas" else self.layout.facing_of(dx_mm, dy_mm)

    def with_layout(self, layout: Any) -> "Board":
        """This board on another layout (a measured one: :func:`.measure.measure`); the size and
        origin are then no longer to enter."""
        measured = {"size_mm", "origin_mm", "angle_deg"}
        return dataclasses.replace(self, layout=layout, to_enter=tuple(t for t in self.to_enter if t[0] not in measured))


def _key(cell: Any) -> Any:
    return tuple(cell) if isinstance(cell, list) else cell


def _number(where: str, value: Any, default: float | None = None) -> float:
    if value is None and default is not None:
        return default
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise ValueError(f"{where} must be a number, not {value!r}")
    return float(value)


def _whole(where: str, value: Any, low: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise ValueError(f"{where} must be a whole number of at least {low}, not {value!r}")
    return value


def _cell(where: str, value: Any) -> tuple[int, int]:
    if not (isinstance(value, (list, tuple)) and len(value) == 2
            and all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
        raise ValueError(f"{where}: {value!r} is not a cell [a, b] of two whole numbers")
    return (value[0], value[1])


def board_from(spec: Mapping[str, Any]) -> Board:
    """A :class:`Board` from its JSON form.

    Raises:
        ValueError: a missing or unknown key value (naming it), a feature cell off the board.
    """
    where = str(spec.get("id", "board"))
    kind = spec.get("kind")
    if kind not in KINDS:
        raise ValueError(f"{where}: kind must be one of {', '.join(KINDS)}, not {kind!r}")
    origin = spec.get("origin_mm", (0.0, 0.0))
    if not (isinstance(origin, (list, tuple)) and len(origin) == 2):
        raise ValueError(f"{where}: origin_mm must be [x, y] in mm, not {origin!r}")
    origin = (_number(f"{where} origin_mm", origin[0]), _number(f"{where} origin_mm", origin[1]))
    angle = _number(f"{where} angle_deg", spec.get("angle_deg"), 0.0)
    if kind == "hex":
        layout = HexLayout(size_mm=_number(f"{where} size_mm", spec.get("size_mm")),
                           orientation=spec.get("orientation", "pointy"), origin_mm=origin, angle_deg=angle)
        if "disc" in spec:
            cells = tuple(hexes.disc((0, 0), _whole(f"{where} disc", spec["disc"], 0)))
        else:
            cells = tuple(_cell(f"{where} cells", c) for c in spec.get("cells", ()))
    elif kind == "square":
        cols, rows = _whole(f"{where} cols", spec.get("cols"), 1), _whole(f"{where} rows", spec.get("rows"), 1)
        layout = SquareLayout(size_mm=_number(f"{where} size_mm", spec.get("size_mm")), cols=cols, rows=rows,
                              origin_mm=origin, angle_deg=angle)
        cells = tuple((c, r) for r in range(rows) for c in range(cols))
    else:
        layout = AreaMap.from_spec(spec)
        cells = layout.names()
    if not cells:
        raise ValueError(f"{where}: the board has no cells")
    board = Board(id=where, game=str(spec.get("game", "")), kind=kind, layout=layout, cells=cells,
                  title=str(spec.get("title", "")), source=str(spec.get("source", "")),
                  to_enter=tuple((str(k), str(v)) for k, v in dict(spec.get("to_enter", {})).items()))
    features = []
    for name, fcells in dict(spec.get("features", {})).items():
        got = tuple(c if kind == "areas" else _cell(f"{where} features.{name}", c) for c in fcells)
        off = [c for c in got if not board.has(c)]
        if off:
            raise ValueError(f"{where}: features.{name} lists {off[0]!r}, which is not on the board")
        features.append((str(name), got))
    return dataclasses.replace(board, features=tuple(features))


def boards_from(doc: Mapping[str, Any], where: str = "boards") -> dict[str, Board]:
    """Every definition of a parsed ``{"boards": [...]}`` document, by id.

    Raises:
        ValueError: a definition is wrong, or two share an id (naming it).
    """
    out = {}
    for spec in doc.get("boards", ()):
        board = board_from(spec)
        if board.id in out:
            raise ValueError(f"{where}: two boards with the id {board.id!r}")
        out[board.id] = board
    return out


def read_boards(path: Path | str) -> dict[str, Board]:
    """Every definition in a JSON file ``{"boards": [...]}``, by id (:func:`boards_from`).

    Raises:
        OSError: the file cannot be read.
        ValueError: not JSON, or a definition is wrong (naming it).
    """
    try:
        doc = json.loads(Path(path).read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise ValueError(f"{path}: not JSON ({exc.msg}, line {exc.lineno})") from None
    return boards_from(doc, str(path))
