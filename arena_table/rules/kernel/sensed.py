"""Sensed figure moves checked against the rules, and the "check the table" state.

The camera reports ``figure-moved`` once a figure has stood still on a new cell. The running game
(its :class:`~.game.Figures` hook) turns it into its own move, checked against its rules now. A
move the rules reject changes nothing in the game: the table records a :class:`Desync` -- the
figure, the cell the rules have, the cell seen and why -- and the screens show "check the table:
<why>" until the board and the game agree again:

- the figure goes back: a ``figure-moved`` to the recorded cell ends it;
- it is moved on to a cell the rules allow from the recorded one: that move is taken;
- a player confirms the table (``figure-confirm``): the game takes the seen cell as a placement;
- a player overrides the camera (``figure-override``): the recorded cell stands, the warning ends.

This follows the chess boards that read a physical board: PicoChess matches the sensed position
against the legal next positions, CameraChessWeb pauses camera moves in a desync state.

>>> from .game import Figures, Game
>>> from .events import FigureMoved, Note
>>> hook = Figures(cell=lambda s, f: s, place=lambda s, m: Note(text=str(m.to_cell)),
...                move=lambda s, m: Note(text=str(m.to_cell)))
>>> g = Game(name="walk", title="Walk", setup=lambda o: 0, handlers={Note: lambda s, e: int(e.text)},
...          figures=hook)
>>> state, open_, text = figure_event(g, 0, (), FigureMoved(figure="x", to_cell="3"), 7)
>>> state, open_, text
(3, (), '')
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from .errors import Refused
from .events import Event, FigureConfirmed, FigureMoved, FigureOverridden

FIGURE_EVENTS = (FigureMoved, FigureConfirmed, FigureOverridden)


@dataclass(frozen=True)
class Desync:
    """A figure on the table where the rules say it cannot be."""

    figure: str
    name: str
    """The figure's name, for the message."""
    recorded: Any
    """The cell the rules have it on (``None``: off the board)."""
    seen: Any
    """The cell the camera sees it on (``None``: off the board)."""
    facing: int | None
    """The facing seen."""
    reason: str
    """Why the rules refuse the move, in the game's words."""
    seq: int
    """The ``figure-moved`` event that opened it."""

    @property
    def message(self) -> str:
        """What the screens show: ``check the table: Rochon cannot reach that hex (...)``."""
        return f"check the table: {self.reason}"


def _cell(value: Any) -> Any:
    return tuple(value) if isinstance(value, list) else value


def figure_event(game: Any, state: Any, desync: tuple[Desync, ...], event: Event,
                 seq: int) -> tuple[Any, tuple[Desync, ...], str]:
    """The game's state, the open desyncs and a log line after a figure event.

    Args:
        game: the running :class:`~.game.Game` (without ``figures`` the event changes nothing).
        state: the game's own state before the event.
        desync: the desyncs open before it.
        event: a ``figure-moved``, ``figure-confirm`` or ``figure-override``.
        seq: the event's sequence number.

    Raises:
        Refused: a confirm or override for a figure with nothing to check, or a confirmed
            placement the game still refuses (a cell off its board, an occupied one).
    """
    hook = game.figures
    if isinstance(event, FigureMoved) and game.outcome(state) is not None:
        return state, desync, ""  # the game is over: figures are being put away
    if hook is None:
        if isinstance(event, FigureMoved):
            return state, desync, ""
        raise Refused(f"{game.title} tracks no figures: there is nothing to {event.KIND.split('-')[1]}")
    open_ = {d.figure: d for d in desync}
    rest = tuple(d for d in desync if d.figure != event.figure)
    name = _name(hook, state, event.figure)
    if isinstance(event, (FigureConfirmed, FigureOverridden)):
        d = open_.get(event.figure)
        if d is None:
            raise Refused(f"{name} is where the rules have it: nothing to {event.KIND.split('-')[1]}")
        if isinstance(event, FigureOverridden):
            return state, rest, f"{name} stays on {_show(d.recorded)} (the camera was overridden)"
        moved = FigureMoved(figure=d.figure, from_cell=d.recorded, to_cell=d.seen, facing=d.facing)
        return game.apply(state, hook.place(state, moved)), rest, f"{name} confirmed on {_show(d.seen)}"
    try:
        recorded = _cell(hook.cell(state, event.figure))
    except KeyError:
        return state, desync, ""  # a figure of no one in this game: tracking's business, not the rules'
    seen = _cell(event.to_cell)
    d = open_.get(event.figure)
    if d is not None and seen == recorded:
        return state, rest, f"{name} is back on {_show(recorded)}"
    if d is None and seen == recorded and event.facing is None:
        return state, desync, ""
    checked = dataclasses.replace(event, from_cell=recorded, to_cell=seen)
    try:
        after = game.apply(state, hook.move(state, checked))
    except Refused as exc:
        new = Desync(figure=event.figure, name=name, recorded=recorded, seen=seen, facing=event.facing,
                     reason=exc.reason, seq=d.seq if d else seq)
        return state, rest + (new,), new.message
    return after, rest, ""


def refusal(game: Any, state: Any, moved: FigureMoved) -> str:
    """Why the rules would not take a sensed move now, or "" when they would ("an engine can say
    whether a sensed move is legal now"); nothing is applied. A figure the game does not have, or a
    game without figures, refuses nothing (the move is only recorded).

    >>> from .game import Figures, Game
    >>> from .events import Note
    >>> def walk(s, m):
    ...     if m.to_cell != "near":
    ...         raise Refused("x cannot reach that cell")
    ...     return Note(text="1")
    >>> g = Game(name="walk2", title="Walk", setup=lambda o: 0, handlers={Note: lambda s, e: 1},
    ...          figures=Figures(cell=lambda s, f: "here", move=walk, place=walk))
    >>> refusal(g, 0, FigureMoved(figure="x", to_cell="far")), refusal(g, 0, FigureMoved(figure="x", to_cell="near"))
    ('x cannot reach that cell', '')
    """
    hook = game.figures
    if hook is None:
        return ""
    try:
        recorded = _cell(hook.cell(state, moved.figure))
    except KeyError:
        return ""
    try:
        game.apply(state, hook.move(state, dataclasses.replace(moved, from_cell=recorded, to_cell=_cell(moved.to_cell))))
    except Refused as exc:
        return exc.reason
    return ""


def _name(hook: Any, state: Any, figure: str) -> str:
    try:
        return hook.name(state, figure)
    except KeyError:
        return figure


def _show(cell: Any) -> str:
    if cell is None:
        return "no cell (off the board)"
    return str(list(cell)) if isinstance(cell, tuple) else str(cell)


def desync_view(desync: tuple[Desync, ...]) -> list[dict[str, Any]]:
    """The open desyncs as the screens show them (JSON-ready)."""
    return [{"figure": d.figure, "name": d.name, "recorded": list(d.recorded) if isinstance(d.recorded, tuple) else d.recorded,
             "seen": list(d.seen) if isinstance(d.seen, tuple) else d.seen, "facing": d.facing,
             "message": d.message, "seq": d.seq} for d in desync]
