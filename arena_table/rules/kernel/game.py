"""What a game declares: :class:`Game` (handlers, phases, dice, setup form, view) and :class:`Outcome`.

A game is data plus pure functions (boardgame.io ``Game``): a map from event type to handler,
a phase table (:class:`Flow`) that alone moves the game from phase to phase, the dice it rolls,
its start form and its view. Handlers return the state after their event and raise
:class:`~arena_table.rules.kernel.errors.Refused` for what the rules forbid; they never call
"next phase": after every accepted event :meth:`Flow.settle` ends phases whose end condition
holds and begins the next.

The smallest game (``docs/new-game.md`` has a whole one):

>>> from arena_table.rules.kernel.events import Note
>>> g = Game(name="quiet", title="Quiet", setup=lambda options: 0, handlers={Note: lambda n, e: n + 1})
>>> g.apply(g.apply(g.setup({}), Note(text="a")), Note(text="b"))
2
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from .errors import Refused
from .events import Event
from .view import View

Handler = Callable[[Any, Event], Any]
"""``handler(state, event) -> state``: pure; raises :class:`Refused`."""


@dataclass(frozen=True)
class Outcome:
    """How a game ended (python-chess ``Outcome``)."""

    winners: tuple[str, ...]
    """Names of the winning players/teams/heroes; empty for a draw or a loss of all."""
    reason: str
    """Why, in plain words: ``"last team standing"``, ``"hero on the centre hex"``."""
    draw: bool = False


@dataclass(frozen=True)
class Phase:
    """One row of a game's phase table (boardgame.io ``phases``)."""

    next: Callable[[Any], str]
    """The phase that follows this one, from the state at its end."""
    end_if: Callable[[Any], bool] = lambda state: False
    """Whether the phase is over in ``state`` (checked after every accepted event)."""
    ends_on: tuple[type, ...] = ()
    """Event types whose acceptance ends the phase whatever the state (a "done" a player declares)."""
    on_begin: Callable[[Any], Any] = lambda state: state
    """The state once the phase begins (deal, reset counters, roll up the order)."""
    on_end: Callable[[Any], Any] = lambda state: state
    """The state as the phase ends, before the next one is entered (bonuses paid at its close)."""


@dataclass(frozen=True)
class Flow:
    """A game's phase table: where the current phase is read and written, and each phase's row.

    :meth:`settle` runs after every accepted event: while the current phase is over (its
    ``end_if`` holds, or the event was one of its ``ends_on``, which counts once) it runs the
    phase's ``on_end``, enters ``next`` and runs that phase's ``on_begin``; while it is not,
    ``turn`` may begin the next turn within it. Then ``finish`` records the end of the game
    when its end condition holds.

    >>> flow = Flow(phases={"roll": Phase(next=lambda n: "score", end_if=lambda n: n >= 2),
    ...                     "score": Phase(next=lambda n: "roll", on_begin=lambda n: n * 10)},
    ...             phase_of=lambda n: "roll" if n < 10 else "score", enter=lambda n, phase: n)
    >>> flow.settle(1), flow.settle(2)
    (1, 20)
    """

    phases: Mapping[str, Phase]
    phase_of: Callable[[Any], str]
    """The name of the current phase in ``state``."""
    enter: Callable[[Any, str], Any]
    """``state`` with ``phase`` recorded as the current one."""
    turn: Callable[[Any], Any] = lambda state: state
    """The turn order within a phase: ``state`` with the next turn begun when nobody acts, or
    ``state`` itself (the same object) when no turn is to begin."""
    finish: Callable[[Any], Any] = lambda state: state
    """``state`` with the game's end recorded once its end condition holds (else unchanged)."""
    max_steps: int = 64
    """More phase changes than this after one event is a loop in the table, not a game."""

    def settle(self, state: Any, event: Event | None = None) -> Any:
        """The state after every phase change that ``state`` (just after ``event``) calls for,
        then the game-end check.

        Raises:
            RuntimeError: the phase table loops (a bug of the game, not a refusal).
        """
        for _ in range(self.max_steps):
            row = self.phases.get(self.phase_of(state))
            ended = row is not None and (isinstance(event, row.ends_on) or row.end_if(state))
            if not ended:
                after = self.turn(state)
                if after is state:
                    return self.finish(state)
                state = after
                continue
            event = None  # an event ends one phase, not the next one too
            state = row.on_end(state)
            nxt = row.next(state)
            state = self.enter(state, nxt)
            row = self.phases.get(nxt)
            if row is not None:
                state = row.on_begin(state)
        raise RuntimeError(f"the phase table changed phase {self.max_steps} times after one event")


def _ignore(state: Any, event: Event) -> Any:
    return state


def _no_outcome(state: Any) -> Outcome | None:
    return None


def _no_describe(state: Any, event: Event) -> str:
    return ""


def _no_view(state: Any, viewer: str = "spectator") -> View:
    return View()


def _no_objects() -> list[str]:
    return []


@dataclass(frozen=True)
class Figures:
    """How a game takes the figures the camera tracks (``Game.figures``; the kernel's side is
    :mod:`.sensed`). Each function is pure and receives the game's own state."""

    cell: Callable[[Any, str], Any]
    """``cell(state, figure)``: where the rules have the figure (``None``: off the board).
    Raises ``KeyError`` for a figure the game does not have."""
    move: Callable[[Any, Any], Event]
    """``move(state, figure_moved)``: the game's own event for the sensed move, checked against the
    rules now (speed, path, whose turn, facing); raises :class:`Refused` naming why it cannot be."""
    place: Callable[[Any, Any], Event]
    """``place(state, figure_moved)``: the game's placement event for a move a player confirmed
    (no movement check)."""
    name: Callable[[Any, str], str] = lambda state, figure: figure
    """The figure's name for messages (``Rochon``)."""


@dataclass(frozen=True)
class Game:
    """Everything the table needs of one game; each game's package exports one as ``GAME``.

    ``apply`` looks the event's type up in ``handlers`` (an event of no listed type -- the
    kernel's ``tag-off`` or ``note`` for a game with no use for them -- leaves the state as it
    is), lets ``flow`` settle the phases, and names the event in any :class:`Refused`.
    """

    name: str
    """Registered name: lower-case words joined by ``-`` (``theosis``, ``dice-tray``)."""
    title: str
    """Display name (``Demigods Evolution``)."""
    setup: Callable[[Mapping[str, Any]], Any]
    """``setup(options) -> state``; raises ``ValueError``/``Refused`` on bad options."""
    handlers: Mapping[type, Handler] = field(default_factory=dict)
    """Event type -> ``handler(state, event) -> state``."""
    aliases: tuple[str, ...] = ()
    flow: Flow | None = None
    """The phase table; ``None`` for a game without phases."""
    guard: Callable[[Any, Event], None] | None = None
    """Checks every event before its handler (a game over, a roll awaited first); raises Refused."""
    explain: Callable[[Exception], str | None] | None = None
    """The refusal reason for a ``KeyError``/``ValueError`` a handler let through (an id naming
    nothing), or ``None`` to let it propagate as the bug it is."""
    outcome: Callable[[Any], Outcome | None] = _no_outcome
    """The result once the game is over, else ``None``."""
    view: Callable[..., Any] = _no_view
    """``view(state, viewer="spectator") -> View``: what the screens show (``docs/view-schema.md``,
    :class:`arena_table.rules.kernel.view.View`; a plain JSON object is taken as its JSON form);
    the ``spectator`` viewer hides face-down information."""
    describe: Callable[[Any, Event], str] = _no_describe
    """One line of plain words for the log (``state`` is the one *before* the event), or ""."""
    objects: Callable[[], list[str]] = _no_objects
    """Catalogue of taggable objects (``theosis:hero:rochon``) for the tag registry."""
    dice: Callable[[Any], Mapping[str, int]] | None = None
    """``dice(state) -> {kind: faces}``: the dice the game rolls; the table refuses any other
    kind and faces outside ``1..faces``. ``None``: any die is only recorded."""
    setup_form: Callable[[], list[dict[str, Any]]] | None = None
    """The control page's start form (``/api/games`` field format)."""
    summary: Callable[[Any], str] = lambda state: ""
    """One line about ``state`` for refusal messages."""
    at_stake: Callable[[Any, Any], str | None] | None = None
    """``at_stake(state, tray)``: what a new game would end, in words, or ``None`` when nothing
    would be lost. Without it: the running game once any event followed its start."""
    awaits: Callable[[Any], Mapping[str, int]] | None = None
    """``awaits(state) -> {kind: count}``: the dice the game waits for now (at most ``count`` of each
    kind in one roll), ``{}`` when it waits for none. A sensed roll (:func:`~.table.is_sensed`:
    the camera's) of another kind or more dice is only the tray's: kept and shown, the game
    unchanged. ``None``: the game takes every roll."""
    actions: Callable[[Any], list[Any]] | None = None
    """``actions(state) -> [Action]``: what players can do now, each choice legal under ``apply``
    (:mod:`arena_table.rules.kernel.actions`); ``None``: the game offers nothing (typed notation only)."""
    to_enter: Callable[[Any], list[Any]] | None = None
    """``to_enter(state) -> [Action]``: the setup checklist, one action for each value the game still
    takes from a placeholder (printed on a component, not in the rulebook text), whose event enters
    it; ``[]`` when every value is entered, ``None``: the game has no values to enter this way."""
    fallback: bool = False
    """The game a table runs before its first ``start`` (exactly one registered game has it)."""
    board: Callable[[Any], Any] | None = None
    """``board(state)``: the board in play, a :class:`~.geometry.boards.Board` (cells, names of
    places, the layout in board mm that tracking maps marker positions onto), or ``None``."""
    figures: Figures | None = None
    """How sensed figure moves (``figure-moved``) become the game's own moves; ``None``: the game
    tracks no figures and such events are only recorded."""

    def apply(self, state: Any, event: Event) -> Any:
        """The state after ``event``.

        Raises:
            Refused: the rules forbid the event now; it names the event and the state.
        """
        try:
            if self.guard is not None:
                self.guard(state, event)
            after = self.handlers.get(type(event), _ignore)(state, event)
            return self.flow.settle(after, event) if self.flow is not None else after
        except Refused as exc:
            raise exc.at(event, self.summary(state)) from None
        except (KeyError, ValueError) as exc:
            reason = self.explain(exc) if self.explain is not None else None
            if reason is None:
                raise
            raise Refused(reason, event=event, summary=self.summary(state)) from None

    def after(self, state: Any, event: Event) -> Any | None:
        """The state after ``event``, or ``None`` when the rules refuse it (for log lines that
        compare the state before and after an event)."""
        try:
            return self.apply(state, event)
        except (Refused, KeyError, ValueError):
            return None
