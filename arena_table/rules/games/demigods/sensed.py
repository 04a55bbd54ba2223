"""Figure moves the camera saw, taken as Demigods moves (``Game.figures``).

A figure not yet on the battlefield enters (``dg-enter``: 1 AP, its side's entry row, p.26). A
figure on it makes a ``dg-move`` to the field and facing seen (facing kept when not seen): the
engine prices it as the cheapest path its class may take -- one AP a field in a direction its
class moves, one a 90° turn, one more onto high ground -- and refuses it when it is not that
character's turn, when its AP do not reach, when a minion would turn, or when a figure, boulder
or Ascending Stone stands in the way ('Movement' p.21, 'Minions' p.20, 'Place Obstacles' p.9).
A move a player confirms is a ``dg-place`` (the position read from the table, no AP).
"""

from __future__ import annotations

from arena_table.rules.kernel.errors import Refused
from arena_table.rules.kernel.events import Event, FigureMoved
from arena_table.rules.kernel.game import Figures
from arena_table.rules.kernel.geometry.boards import Board, board_from

from . import data
from .events import Enter, Move, Place
from .state import DemigodsState, char


def figure_cell(state: DemigodsState, who: str) -> tuple[int, int] | None:
    """Where the rules have a character (``None``: not on the battlefield). Raises KeyError."""
    ch = char(state, who)
    return ch.cell if ch.on_board else None


def _field(state: DemigodsState, moved: FigureMoved) -> tuple[int, int]:
    to = moved.to_cell
    if to is None:
        raise Refused(f"{char(state, moved.figure).name} left the battlefield")
    if not (isinstance(to, tuple) and len(to) == 2):
        raise Refused(f"{to!r} is not a field [col, row] of the battlefield")
    if moved.facing is not None and not 0 <= moved.facing <= 3:
        raise Refused(f"facing {moved.facing} is not one of 0 north, 1 east, 2 south, 3 west")
    return to


def sensed_move(state: DemigodsState, moved: FigureMoved) -> Event:
    """``dg-enter`` or ``dg-move`` for the sensed move (the engine checks it as it checks a typed one)."""
    ch = char(state, moved.figure)
    to = _field(state, moved)
    if not ch.on_board:
        return Enter(who=ch.id, cell=to, facing=moved.facing)
    return Move(who=ch.id, to=to, facing=moved.facing if moved.facing is not None else ch.facing)


def placed(state: DemigodsState, moved: FigureMoved) -> Place:
    """The placement a player confirmed: field and facing as seen, no AP."""
    return Place(who=moved.figure, cell=_field(state, moved), facing=moved.facing)


DEFAULT_FIELD_MM = 30.0
"""A field's side when the battlefield was entered field by field: to enter, or measure it
(:func:`arena_table.rules.kernel.geometry.measure.measure`)."""


def board(state: DemigodsState) -> Board | None:
    """The battlefield in play as a board definition (``Game.board``): the shipped one it was made
    from, else ``cols`` x ``rows`` fields of :data:`DEFAULT_FIELD_MM`; obstacles as named places."""
    b = state.board
    if b is None:
        return None
    base = data.boards().get(b.id)
    size = base.layout.size_mm if base else DEFAULT_FIELD_MM
    spec = {"id": b.id or "demigods-battlefield", "game": "demigods", "kind": "square", "size_mm": size,
            "cols": b.cols, "rows": b.rows, "title": base.title if base else "Battlefield",
            "features": _kinds(b.obstacles),
            "to_enter": dict(base.to_enter) if base else {"size_mm": f"{DEFAULT_FIELD_MM:g} mm a field until measured"}}
    return board_from(spec)


def _kinds(obstacles) -> dict[str, list[list[int]]]:
    out: dict[str, list[list[int]]] = {}
    for c, r, kind in obstacles:
        out.setdefault(kind, []).append([c, r])
    return out


FIGURES = Figures(cell=figure_cell, move=sensed_move, place=placed, name=lambda state, who: char(state, who).name)
"""The Demigods answer to sensed figure moves."""
