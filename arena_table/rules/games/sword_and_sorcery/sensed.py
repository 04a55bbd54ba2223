"""Figure moves the camera saw, taken as Sword & Sorcery moves (``Game.figures``).

A Hero not yet on the map is deployed (``sns-place``: within 2 areas of its Team's Shrine, in
deployment order, 6.4). A Hero on the map makes ``sns-move`` to the area seen: one area across a
shared edge (4.1), the active Hero only, Evade first when due (6.5) -- the engine's checks, so
a figure carried two areas at once is refused and put back one area at a time. The rules have
no placement outside deployment, so a confirmed move is the same ``sns-move`` or ``sns-place``.
"""

from __future__ import annotations

from arena_table.rules.kernel.errors import Refused
from arena_table.rules.kernel.events import Event, FigureMoved
from arena_table.rules.kernel.game import Figures

from .events import Move, Place
from .state import SnsState


def figure_cell(state: SnsState, hero: str) -> str | None:
    """The area the rules have a Hero in (``None``: not on the map). Raises KeyError."""
    return state.hero(hero).area


def sensed_move(state: SnsState, moved: FigureMoved) -> Event:
    """``sns-place`` or ``sns-move`` for the area seen.

    Raises:
        Refused: the figure left the map, or the cell is not an area name.
    """
    h = state.hero(moved.figure)
    to = moved.to_cell
    if to is None:
        raise Refused(f"{h.name} left the map")
    if not isinstance(to, str):
        raise Refused(f"{to!r} is not an area of the map")
    if h.area is None:
        return Place(hero=h.id, area=to)
    return Move(hero=h.id, to=to)


FIGURES = Figures(cell=figure_cell, move=sensed_move, place=sensed_move,
                  name=lambda state, hero: state.hero(hero).name)
"""The Sword & Sorcery answer to sensed figure moves."""
