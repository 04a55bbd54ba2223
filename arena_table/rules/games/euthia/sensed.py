"""Figure moves the camera saw on the Euthia Map (``Game.figures``): the Heroes and Eltrea's
active Familiar, each move an ``eu-stand`` the engine checks.

- A Hero's Map movement follows the base game's rules, which are not among the texts this engine
  is built from (``README``: movement on the map is left to the table). A Hero's hex is recorded
  as seen. Only a Hero in a Combat not over is held to its hex: the Combat is fought there
  (l.933: Heroes join a Combat by entering its hex).
- Eltrea's active Familiar (New Hero: Eltrea, Familiars, l.190-216):
  - it moves only outside Combat;
  - its standee comes off its Familiar card only onto the hex Eltrea is in (l.200);
  - on the Map it spends 1 Move point a hex to an adjacent hex, up to its card's Move points this
    turn (l.193, l.196). Nothing bars its way: "Any Familiar may move through, or end their
    movement on, a hex that contains an undefeated Monster or any number of Heroes" (l.198).
  - Moving it puts Eltrea's Hero token on the Familiar board's lower slot, "Move or Recall"
    (l.192), as ``eu-familiar action=move`` does.
- Taken off the Map: a Hero leaves its hex (the table's business), and the Familiar goes back to
  its card (Recall, "anytime outside of Combat", l.202).

A refused move is named: "Will o' Wisp cannot reach that hex (4 hexes away; 3 Move points left,
l.193-196)".
"""

from __future__ import annotations

import dataclasses
import json
from functools import lru_cache
from importlib import resources

from arena_table.rules.kernel.events import FigureMoved
from arena_table.rules.kernel.game import Figures
from arena_table.rules.kernel.geometry import hexes
from arena_table.rules.kernel.geometry.boards import Board, boards_from

from .events import Stand
from .state import EuState, Refused


def _familiar(state: EuState, figure: str) -> bool:
    return state.familiar is not None and figure == state.familiar.active and figure not in state.heroes


def figure_cell(state: EuState, figure: str) -> tuple[int, int] | None:
    """The hex the rules have a Hero or Eltrea's active Familiar on (``None``: not on the Map,
    the Familiar on its card).

    Raises:
        KeyError: no Hero or active Familiar of that id.
    """
    if figure not in state.heroes and not _familiar(state, figure):
        raise KeyError(figure)
    return dict(state.stands).get(figure)


def figure_name(state: EuState, figure: str) -> str:
    if figure in state.heroes:
        return state.heroes[figure].name
    if _familiar(state, figure):
        return state.config.familiars[figure]["name"]
    raise KeyError(figure)


def stand(state: EuState, e: Stand) -> EuState:
    """The state after ``eu-stand`` (a figure on a Map hex, or off the Map with ``cell`` None),
    checked as the module docstring says unless ``placed`` (a player confirmed the table).

    Raises:
        Refused: not a Hero or the active Familiar, or a move the rules refuse (named).
    """
    who = e.figure
    to = tuple(e.cell) if e.cell is not None else None
    if to is not None and not (len(to) == 2 and all(isinstance(v, int) for v in to)):
        raise Refused(f"{e.cell!r} is not a Map hex [q, r]")
    name = figure_name(state, who) if who in state.heroes or _familiar(state, who) else None
    if name is None:
        raise Refused(f"{who!r} is neither a Hero of this game nor Eltrea's active Familiar")
    stands = dict(state.stands)
    start = stands.get(who)
    fighting = state.combat is not None and not state.combat.over
    if not e.placed and to != start:
        if who in state.heroes:
            if fighting and who in state.combat.heroes and start is not None:
                raise Refused(f"{name} is in Combat: the Combat is fought on its hex (l.933)")
        else:
            state = _move_familiar(state, name, start, to, stands.get("eltrea"), fighting)
    if to is None:
        stands.pop(who, None)
    else:
        stands[who] = to
    return dataclasses.replace(state, stands=tuple(sorted(stands.items())))


def _move_familiar(state: EuState, name: str, start, to, eltrea, fighting: bool) -> EuState:
    if fighting:
        raise Refused(f"{name} moves only outside of Combat (l.191, l.202)")
    f = state.familiar
    if to is None:  # back on its Familiar card: Recall (l.202) costs no Move points
        return state
    if start is None:
        if eltrea is not None and to != eltrea:
            raise Refused(f"{name}'s standee comes off its Familiar card onto Eltrea's hex only (l.200)")
        return state
    steps = hexes.distance(start, to)
    left = state.config.familiars[f.active]["move"] - f.moved
    if steps > left:
        raise Refused(f"{name} cannot reach that hex ({steps} hexes away; {left} Move point"
                      f"{'s' if left != 1 else ''} left, l.193-196)")
    slots = f.slots if "lower" in f.slots else f.slots + ("lower",)
    return dataclasses.replace(state, familiar=dataclasses.replace(f, moved=f.moved + steps, slots=slots))


def sensed_move(state: EuState, moved: FigureMoved) -> Stand:
    return Stand(figure=moved.figure, cell=moved.to_cell)


def placed(state: EuState, moved: FigureMoved) -> Stand:
    return Stand(figure=moved.figure, cell=moved.to_cell, placed=True)


FIGURES = Figures(cell=figure_cell, move=sensed_move, place=placed, name=figure_name)
"""The Euthia answer to sensed figure moves."""


MAP_RADIUS = 10
"""How far from the Rotunda tracking takes a hex: the Map's other tiles are laid around the Starting
Map tile on the same hex grid as the game goes on, and the engine does not hold them."""


def board(state: EuState) -> Board:
    """The board tracking maps figures onto (``Game.board``): the Rotunda Starting Map tile's hex grid
    (``data/boards.json``, where the Heroes start) with every hex within :data:`MAP_RADIUS` of it."""
    return _map()


@lru_cache(maxsize=None)
def rotunda() -> Board:
    """The Rotunda Starting Map tile as shipped (seven hexes)."""
    text = resources.files(__package__).joinpath("data/boards.json").read_text(encoding="utf-8")
    return boards_from(json.loads(text))["euthia-rotunda"]


@lru_cache(maxsize=None)
def _map() -> Board:
    tile = rotunda()
    return dataclasses.replace(tile, cells=tuple(hexes.disc((0, 0), MAP_RADIUS)))
