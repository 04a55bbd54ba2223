"""The Arena board as data (``data/boards.json``, :mod:`arena_table.rules.kernel.geometry.boards`):
axial hexes within ``arena_radius`` of the centre hex (p.5), the starting triads (errata p.14),
the hex size in mm to enter or measure.

>>> definition().feature("centre"), len(arena(5).cells), len(arena(3).cells)
(((0, 0),), 91, 37)
"""

from __future__ import annotations

import dataclasses
import json
from functools import lru_cache
from importlib import resources

from arena_table.rules.kernel.geometry import hexes
from arena_table.rules.kernel.geometry.boards import Board, boards_from

from .state import ThState


@lru_cache(maxsize=None)
def definition() -> Board:
    """The shipped Arena definition."""
    doc = json.loads(resources.files(__package__).joinpath("data", "boards.json").read_text(encoding="utf-8"))
    return boards_from(doc, "theosis data/boards.json")["theosis-arena"]


@lru_cache(maxsize=None)
def arena(radius: int) -> Board:
    """The Arena with ``radius`` hexes from the centre to the edge (setup option ``arena_radius``);
    a named place (a starting triad) not wholly on it is left out."""
    base = definition()
    cells = tuple(hexes.disc((0, 0), radius))
    inside = set(cells)
    features = tuple((n, cs) for n, cs in base.features if set(cs) <= inside)
    return dataclasses.replace(base, cells=cells, features=features)


def board(state: ThState) -> Board:
    """The Arena in play (``Game.board``)."""
    return arena(state.config.arena_radius)
