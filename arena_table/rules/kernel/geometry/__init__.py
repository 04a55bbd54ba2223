"""The games' grids in board millimetres: hexes (:mod:`.hexes`), squares with facing
(:mod:`.squares`), area maps (:mod:`.areas`), board definitions as data (:mod:`.boards`) and the
fit of a grid to calibration points (:mod:`.measure`).

Board millimetres: ``x`` to the right (east), ``y`` downwards (south), as seen from above with the
board's top edge away from the viewer -- the frame the board calibration's homography maps
camera pixels into. Every layout answers ``centre(cell)``, ``cell_at(point, keep=, margin_mm=)``,
``contains(cell, point, margin_mm=)`` and ``facing_of(dx_mm, dy_mm)``; the one module every game
takes its distances and adjacency from.

>>> from arena_table.rules.kernel.geometry import hexes
>>> hexes.distance((0, 0), (3, -1))
3
"""

from . import areas, hexes, measure, squares
from .areas import AreaMap
from .hexes import HexLayout
from .measure import Measured
from .squares import SquareLayout

__all__ = ["areas", "hexes", "measure", "squares", "AreaMap", "HexLayout", "Measured", "SquareLayout"]
