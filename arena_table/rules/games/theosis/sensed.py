"""Figure moves the camera saw, checked against the Theosis rules (``Game.figures``).

- A Hero not yet on the board enters the Arena: the hex is checked as any ``th-move`` is (on the
  Arena, not occupied).
- The acting Hero moves at most its speed in hexes (p.14 Movement), twice that with a charged
  Charge or Leap Skill, along a path "through an allied hero but not through an enemy hero or
  monster" (FAQ, Movement); a charged Leap ignores the obstacles it moves through (Appendix
  Skills). Entering a Death Swamp hex costs two (FAQ: "the extra movement tax is only needed when
  a Hero enters a Death Swamp hex"). A Hero whose speed is not entered is not checked, as
  ``th-move`` does not check it.
- Another Hero moves only as a push (one hex, p.14 Melee) or a pull (Chains of Sorrow: "pull
  your enemy to any adjacent hex", next to the acting Hero).
- A monster's move is taken as the monster turn's (the engine does not move monsters itself).

A move the rules refuse is named: "Rochon cannot reach that hex (5 hexes away; 4 hexes of
movement left)".
"""

from __future__ import annotations

from arena_table.rules.kernel.errors import Refused
from arena_table.rules.kernel.events import FigureMoved
from arena_table.rules.kernel.game import Figures
from arena_table.rules.kernel.geometry import hexes

from .arena import enemies, move_allowance
from .board import board
from .events import Move
from .mats import alive_hero, name
from .state import ThState

SWAMP_COST = 2
"""Movement a Hero spends entering a Death Swamp hex (FAQ)."""


def figure_cell(state: ThState, figure: str) -> tuple[int, int] | None:
    """Where the rules have a Hero or monster (``None``: not in the Arena).

    Raises:
        KeyError: no hero or monster of that id in this game.
    """
    if figure in state.heroes:
        return state.heroes[figure].cell
    for m in state.monsters:
        if m.id == figure:
            return m.cell
    raise KeyError(figure)


def _hex(state: ThState, moved: FigureMoved) -> tuple[int, int]:
    to = moved.to_cell
    if to is None:
        raise Refused(f"{name(state, moved.figure)} left the Arena board")
    if not (isinstance(to, tuple) and len(to) == 2):
        raise Refused(f"{to!r} is not a hex [q, r] of the Arena")
    return to


def _blockers(state: ThState, hero_id: str) -> set[tuple[int, int]]:
    """Hexes a Hero cannot move through: enemy Heroes and monsters (FAQ)."""
    out = {state.heroes[h].cell for h in enemies(state, hero_id) if state.heroes[h].cell}
    out |= {m.cell for m in state.monsters if m.alive and m.cell}
    return out


def check_reach(state: ThState, hero_id: str, to: tuple[int, int]) -> None:
    """Refuse a move of the acting Hero that its movement left this turn cannot make.

    Raises:
        Refused: naming the distance and the movement left, or the enemies in the way.
    """
    allowed, leap = move_allowance(state, hero_id)
    start = state.heroes[hero_id].cell
    if allowed is None or start is None:
        return
    left = allowed - state.moved
    blocked = set() if leap else _blockers(state, hero_id)
    swamp = set(state.ritual_cells.get("death-swamp", ()))
    arena = board(state)

    def passable(cell: tuple[int, int]) -> bool:
        return arena.has(cell) and cell not in blocked

    reach = hexes.reachable(start, max(left, 0), passable=passable,
                            cost=lambda cell: SWAMP_COST if cell in swamp else 1)
    if to in reach:
        return
    who, d = name(state, hero_id), hexes.distance(start, to)
    moves = f"{left} hex{'es' if left != 1 else ''} of movement left"
    if d <= left:
        why = (f"enemies bar the way: a hero moves through allies, not through enemy heroes or monsters (FAQ); "
               f"{moves}") if blocked else f"the Death Swamp costs two to enter; {moves}"
        raise Refused(f"{who} cannot reach that hex ({why})", rule="Theosis p.14 Movement, FAQ")
    raise Refused(f"{who} cannot reach that hex ({d} hexes away; {moves})", rule="Theosis p.14 Movement")


def sensed_move(state: ThState, moved: FigureMoved) -> Move:
    """The ``th-move`` for a sensed move, checked as the module docstring says.

    Raises:
        Refused: the move is not one the rules allow now.
    """
    fid = moved.figure
    to = _hex(state, moved)
    if fid not in state.heroes:
        return Move(hero=fid, cell=to, facing=moved.facing)
    h = alive_hero(state, fid)
    if h.cell is None or to == h.cell:
        return Move(hero=fid, cell=to, facing=moved.facing)
    acting = state.acting_hero()
    if fid == acting:
        check_reach(state, fid, to)
        return Move(hero=fid, cell=to, facing=moved.facing)
    actor_cell = state.heroes[acting].cell if acting else None
    if hexes.distance(h.cell, to) == 1 or hexes.is_adjacent(to, actor_cell):
        return Move(hero=fid, cell=to, facing=moved.facing)  # pushed one hex (p.14) or pulled next to the acting Hero
    now = f"it is {name(state, acting)}'s turn" if acting else "no Hero is acting now"
    raise Refused(f"{name(state, fid)} cannot move there now: {now}, and a push moves a hero one hex (p.14)")


def placed(state: ThState, moved: FigureMoved) -> Move:
    """The placement a player confirmed: the hex seen, not counted as the Hero's own move."""
    return Move(hero=moved.figure, cell=_hex(state, moved), placed=moved.figure in state.heroes, facing=moved.facing)


def figure_name(state: ThState, figure: str) -> str:
    figure_cell(state, figure)
    return name(state, figure)


FIGURES = Figures(cell=figure_cell, move=sensed_move, place=placed, name=figure_name)
"""The Theosis answer to sensed figure moves."""
