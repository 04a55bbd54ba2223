"""Typed, frozen events with a text notation and a JSON form.

An event is a frozen, keyword-only dataclass registered under a short *kind*
(its notation keyword). Its text notation is the kind followed by
``field=value`` pairs, for example::

    roll die=d6 faces=[3,5,6] source=sim at=12.5

Values are written compactly (:mod:`.event_codec`): integers and floats as
numbers, ``true``/``false``/``null``, strings bare when that cannot be mistaken
for anything else and as JSON strings otherwise, tuples/lists and mappings as
compact JSON. Fields equal to their default are left out. :func:`parse` reads that text back
so that ``parse(str(e)) == e`` for every registered event (the python-chess
``Move.uci()``/``Move.from_uci()`` idea). :func:`to_json` / :func:`from_json`
give the same round trip through a JSON object ``{"kind": ..., **fields}``.

Games define their own events with :func:`event`; the kernel's own events
(game start, undo, dice, tags) are defined at the bottom of this module.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any, ClassVar, Mapping

from .errors import NotationError
from .event_codec import build, default_of, encode_bare_list, encode_value, fields_of, jsonable, read_fields

_REGISTRY: dict[str, type["Event"]] = {}


@dataclass(frozen=True, kw_only=True)
class Event:
    """Base of every event.

    Subclasses are declared with :func:`event`, which registers the kind.
    """

    KIND: ClassVar[str] = ""
    UNDOABLE: ClassVar[bool] = True
    """Whether :func:`arena_table.rules.kernel.table.undo_target` may pick this event."""
    PRIVATE_FIELDS: ClassVar[tuple[str, ...]] = ()
    """Fields spectators must not see in the raw event log (a sealed bid's amount, a hand);
    the game's own view decides when the information is shown."""

    at: float | None = None
    """Time the event was sensed or entered, seconds since the Unix epoch,
    stamped at the edge by the table's clock (never read inside the rules)."""

    def __str__(self) -> str:
        return to_notation(self)

    def to_json(self) -> dict[str, Any]:
        """This event as a JSON-ready mapping (see :func:`to_json`)."""
        return to_json(self)


def event(kind: str, *, undoable: bool = True):
    """Class decorator: make ``cls`` a frozen keyword-only event of ``kind``.

    Raises:
        ValueError: if ``kind`` is not a bare lower-case word or already taken.
    """
    if not re.fullmatch(r"[a-z][a-z0-9-]*", kind):
        raise ValueError(f"event kind {kind!r} must be a lower-case word")

    def wrap(cls: type) -> type:
        if kind in _REGISTRY and _REGISTRY[kind].__qualname__ != cls.__qualname__:
            raise ValueError(f"event kind {kind!r} is already registered by {_REGISTRY[kind].__name__}")
        cls.KIND = kind
        cls.UNDOABLE = undoable
        dc = dataclass(frozen=True, kw_only=True, repr=True)(cls)
        dc.__str__ = Event.__str__  # dataclass(repr=...) leaves __str__ to repr otherwise
        _REGISTRY[kind] = dc
        return dc

    return wrap


def event_types() -> dict[str, type[Event]]:
    """All registered event kinds, ``kind -> class`` (a copy)."""
    return dict(_REGISTRY)


def _lookup(kind: str) -> type[Event] | None:
    """The class of ``kind``, or ``None``. A game's kinds are registered when its package is
    imported (the composition root loads the games: :func:`arena_table.rules.games.load`)."""
    return _REGISTRY.get(kind)


# --- notation ----------------------------------------------------------------------

def to_notation(ev: Event) -> str:
    """The compact text form of ``ev``; fields at their default are omitted.

    >>> str(DiceRolled(die="d4", faces=(3, 1)))
    'roll die=d4 faces=[3,1]'
    """
    parts = [ev.KIND]
    spec = fields_of(type(ev))
    order = [n for n in spec if n != "at"] + ["at"]  # the time stamp reads best last
    for name in order:
        f = spec[name][0]
        value = getattr(ev, name)
        if value == default_of(f):
            continue
        bare = name in getattr(ev, "BARE_LISTS", ())
        parts.append(f"{name}={encode_bare_list(value) if bare else encode_value(value)}")
    return " ".join(parts)


def parse(text: str) -> Event:
    """Read one event from its text notation.

    >>> parse('roll die=d6 faces=[3,5] source="camera 1"')
    DiceRolled(at=None, kinds=(), die='d6', faces=(3, 5), source='camera 1', image='', crops=(), confidence=())
    >>> str(parse("roll kinds=[demigods-fire] faces=[burn,2]"))
    'roll kinds=[demigods-fire] faces=[burn,2]'

    Raises:
        NotationError: unknown kind, unknown field, bad value, missing field, or values
            nested too deeply.
    """
    try:
        return _parse(text)
    except RecursionError:
        raise NotationError(f"{text[:60]!r}...: values nested too deeply") from None


def _parse(text: str) -> Event:
    line = text.strip()
    if not line:
        raise NotationError("empty event line")
    kind, _, rest = line.partition(" ")
    cls = _lookup(kind)
    if cls is None:
        raise NotationError(f"{text!r}: unknown event kind {kind!r}")
    return build(cls, read_fields(rest, text), text)


def to_json(ev: Event) -> dict[str, Any]:
    """``{"kind": ..., field: value, ...}`` with every field (tuples as lists).

    >>> to_json(DiceRolled(die="d4", faces=(2,)))["faces"]
    [2]
    """
    out: dict[str, Any] = {"kind": ev.KIND}
    for name in fields_of(type(ev)):
        out[name] = jsonable(getattr(ev, name))
    return out


def from_json(obj: Mapping[str, Any]) -> Event:
    """Inverse of :func:`to_json`.

    Raises:
        NotationError: missing/unknown kind or fields, or values of the wrong type.
    """
    try:
        return _from_json(obj)
    except RecursionError:
        raise NotationError("event object nested too deeply") from None


def _from_json(obj: Mapping[str, Any]) -> Event:
    if not isinstance(obj, Mapping) or "kind" not in obj:
        raise NotationError(f"not an event object (no 'kind'): {obj!r:.80}")
    cls = _lookup(obj["kind"])
    if cls is None:
        raise NotationError(f"unknown event kind {obj['kind']!r}")
    raw = {k: v for k, v in obj.items() if k != "kind"}
    return build(cls, raw, json.dumps(obj)[:120])


# --- the kernel's own events -----------------------------------------------------------

@event("start")
class GameStarted(Event):
    """A new game begins at the table; everything before it belongs to the old one."""

    game: str
    """Registered name or alias of the game (see ``find_game``)."""
    options: dict[str, Any] = field(default_factory=dict)
    """Game-specific setup options (mode, players, heroes...), JSON values."""


@event("undo", undoable=False)
class Undone(Event):
    """Takes back the earlier event with sequence number ``seq`` (kept in the log)."""

    seq: int


MEDIA_REF = re.compile(r"^[0-9]{4}-[0-9]{2}-[0-9]{2}/[A-Za-z0-9_.-]+\.(jpg|png)$")
"""A media store reference (``image=``, ``crops=``): ``<day>/<file>.jpg`` or ``.png`` under the data
folder's ``media``, e.g. ``2026-11-29/1764412345678-00001-frame.jpg``; never a path of its own."""


@event("roll")
class DiceRolled(Event):
    """Physical dice came to rest and were read (camera) or entered (control page).

    Chance enters the rules only as this data (STYLE.md §3). A roll names its dice either by
    ``kinds``, die kinds of the catalogue (:mod:`.mechanics.die_kinds`) whose faces are given by
    symbol (``roll kinds=[demigods-fire] faces=[burn,2]``: a number is the face showing that number),
    or, in the older form, by ``die`` with face values or positions (``roll die=dg-fire faces=[1,4]``).
    (The field is ``kinds``, not ``kind``: an event's JSON object keeps ``kind`` for the event's own.)
    """

    BARE_LISTS: ClassVar[tuple[str, ...]] = ("kinds", "faces")
    """Fields written as a list of bare words (``[burn,2]``) where their items allow it."""

    kinds: tuple[str, ...] = ()
    """Die kind ids or aliases of the die kinds catalogue (``demigods-fire``, ``theosis-skullduggery``)
    or kinds taught at the table: one for every die, or one per die in ``faces`` order (a mixed
    throw); empty: the dice are named by ``die``."""
    die: str = "d6"
    """Die kind: ``d4``, ``d6``, ``d8``, ``d10``, ``d12``, ``d20`` or a game's custom die name (unused
    when ``kinds`` is given)."""
    faces: tuple[int | str, ...] = ()
    """The face of each die read, in reading order: its value (``die``), or its symbol (``kinds``)."""
    source: str = ""
    """Where the reading came from: ``sim``, ``camera:0``, ``dir:/full/path/IMG_001.jpg``, ``video:/full/path/throw.mp4@<frame index>``, ``control``."""
    image: str = ""
    """Reference of the stored frame the roll was read from (:data:`MEDIA_REF`), or empty."""
    crops: tuple[str, ...] = ()
    """Media references (:data:`MEDIA_REF`) of each die's crop, same order as ``faces`` (may be empty)."""
    confidence: tuple[float, ...] = ()
    """Reader confidence 0..1 per die, same order as ``faces`` (may be empty)."""


@event("correct")
class DieCorrected(Event):
    """A player corrects one die of an earlier roll; the sensed value stays in the log.

    Replay substitutes the corrected value into the roll where it stands and applies the events
    after it again (:func:`arena_table.rules.kernel.table.replay`): the game ends as if the die had
    been read right the first time. A later event the corrected value makes illegal is refused
    with the correction, until a ``drop`` takes it out (:mod:`arena_table.rules.kernel.corrections`).
    """

    roll: int
    """Sequence number of the ``roll`` event corrected."""
    index: int
    """Position of the die in that roll's ``faces`` (0-based)."""
    value: int | str
    """The face the die really shows: its value, or, for a roll by die kinds, the face's symbol
    (``critical``) or numeral (``2``)."""


@event("drop", undoable=False)
class Dropped(Event):
    """Takes event ``seq`` out of effect because a correction of an earlier roll made it illegal
    (kept in the log, skipped by replay as an undone one is); recorded with that correction."""

    seq: int
    reason: str = ""
    """Why it was dropped: the rules' refusal of it under the corrected roll."""


@event("tag-on", undoable=False)
class TagPlaced(Event):
    """A tagged token or card was laid on a reader pad (hardware edge)."""

    pad: int
    uid: str
    """Canonical UID: upper-case hex, two digits a byte."""
    object: str = ""
    """The game object bound to the UID in the tag registry (``theosis:hero:rochon``), or empty."""


@event("tag-off", undoable=False)
class TagRemoved(Event):
    """A tag left a reader pad."""

    pad: int
    uid: str
    object: str = ""


@event("note")
class Note(Event):
    """A free-text remark entered at the control page; shown in the log, changes nothing."""

    text: str


Cell = tuple[int, int] | str
"""A place on a game's board: an axial hex ``[q, r]``, a square field ``[col, row]`` or an area name."""


@event("figure-moved", undoable=False)
class FigureMoved(Event):
    """The camera saw a figure stand still on a new cell (or leave the board).

    The running game takes it as its own move when its rules allow it now; else the table is out
    of step with the rules ("check the table") until the figure goes back or a player confirms or
    overrides (:mod:`arena_table.rules.kernel.sensed`). Not undoable: the figure still stands
    where it was seen.
    """

    figure: str
    """The figure's id in the running game (a Theosis hero ``rochon``, a Demigods character id)."""
    from_cell: Cell | None = None
    """Where tracking last saw it (``None``: it was not on the board)."""
    to_cell: Cell | None = None
    """Where it stands now (``None``: it left the board)."""
    facing: int | None = None
    """Its facing on the new cell: ``0..5`` on hexes (E, NE, NW, W, SW, SE), ``0..3`` on squares
    (N, E, S, W); ``None`` when the game's board has no facing or it was not seen."""
    source: str = ""
    """Where the sighting came from: ``camera:0``, ``dir:/full/path``, ``control``."""


@event("figure-confirm")
class FigureConfirmed(Event):
    """A player says the table is right: the figure stands where the camera saw it, and the game
    takes that cell as a placement its movement rules do not check (a Leap, a push the rules did
    not foresee)."""

    figure: str


@event("figure-override")
class FigureOverridden(Event):
    """A player says the rules are right: the figure keeps the cell the game recorded and the
    warning ends (the figure will be put back, or the camera misread it)."""

    figure: str
