"""The ``Game`` protocol, the game registry and the table-level state machine.

A table runs one game at a time. The table state (:class:`TableState`) holds
the running game's own state plus the dice tray, which every game shares: a
``roll`` event is recorded by the tray *and* handed to the game, which uses
the faces where its rules read a die (Thieves' Guild d6, monster d4 ...).

Everything here is pure: :func:`apply` returns a new state, :func:`replay`
rebuilds a state from a log of ``(seq, event)`` records, and undo is an
``undo seq=N`` event that makes replay skip event ``N`` — the log itself is
append-only, so nothing recorded is ever lost (STYLE.md §2).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from dataclasses import dataclass
from typing import Any, Iterable, Mapping, Protocol, Sequence, runtime_checkable

from .errors import IllegalEvent, NothingToUndo, UnknownGame
from .events import DiceRolled, DieCorrected, Event, GameStarted, Note, TagPlaced, TagRemoved, Undone


@dataclass(frozen=True)
class Outcome:
    """How a game ended (python-chess ``Outcome``)."""

    winners: tuple[str, ...]
    """Names of the winning players/teams/heroes; empty for a draw or a loss of all."""
    reason: str
    """Why, in plain words: ``"last team standing"``, ``"hero on the centre hex"``."""
    draw: bool = False


@runtime_checkable
class Game(Protocol):
    """What every game module provides (boardgame.io ``Game``; python-chess variants).

    ``apply`` must be pure and raise :class:`IllegalEvent` for an event the rules
    forbid. Games receive every event except ``start`` and ``undo``; they must
    accept (usually ignore) kernel events they have no use for.
    """

    name: str
    aliases: tuple[str, ...]
    title: str

    def setup(self, options: Mapping[str, Any]) -> Any:
        """Initial state for ``options``; raises ``IllegalEvent``/``ValueError`` on bad options."""

    def apply(self, state: Any, event: Event) -> Any:
        """The state after ``event``; raises ``IllegalEvent`` if the rules forbid it."""

    def outcome(self, state: Any) -> Outcome | None:
        """The result once the game is over, else ``None``."""

    def view(self, state: Any, viewer: str = "spectator") -> dict[str, Any]:
        """JSON-ready view for ``viewer`` (``spectator`` hides face-down information)."""

    def describe(self, state: Any, event: Event) -> str:
        """One line of plain words for the spectator log (state is the one *before* the event)."""

    def objects(self) -> list[str]:
        """Catalogue of the game's taggable objects (``theosis:hero:rochon``) for the tag registry."""

    # Optional: ``dice(state) -> Mapping[str, int]``, the die kinds the game rolls and each one's
    # number of faces. A game that provides it has every other ``roll`` refused, and faces outside
    # ``1..faces`` (see :func:`arena_table.rules.dice_tray.game_dice_error`); without it any die is
    # only recorded by the tray.


_GAMES: dict[str, Game] = {}


def register_game(game: Game) -> Game:
    """Add ``game`` to the registry under its name and aliases; returns it."""
    for key in (game.name, *game.aliases):
        key = key.lower()
        if key in _GAMES and _GAMES[key] is not game:
            raise ValueError(f"game name {key!r} already taken by {_GAMES[key].name}")
        _GAMES[key] = game
    return game


_BUILTIN = ("dice_tray", "theosis", "demigods")
_LOAD_ERRORS: dict[str, str] = {}
"""Game modules that failed to import, ``module -> error``: one broken game must not take
the table (and the other games) down; ``find_game`` names the error instead."""


def _load_builtin_games() -> None:
    # Importing a game module registers it; kept lazy so rules/ has no import cycle.
    from importlib import import_module

    for mod in _BUILTIN:
        if mod in _LOAD_ERRORS:
            continue
        try:
            import_module(f"arena_table.rules.{mod}")
        except ModuleNotFoundError as exc:
            if exc.name != f"arena_table.rules.{mod}":
                _LOAD_ERRORS[mod] = f"{type(exc).__name__}: {exc}"
        except Exception as exc:  # noqa: BLE001 - reported through find_game
            _LOAD_ERRORS[mod] = f"{type(exc).__name__}: {exc}"


def find_game(name_or_alias: str) -> Game:
    """Look a game up by name or alias, case-insensitively.

    >>> find_game("Dice-Tray").name
    'dice-tray'

    Raises:
        UnknownGame: no such game; the message lists the known names.
    """
    _load_builtin_games()
    game = _GAMES.get(name_or_alias.strip().lower())
    if game is None:
        names = sorted({g.name for g in _GAMES.values()})
        broken = "".join(f"; {m} failed to load ({e})" for m, e in sorted(_LOAD_ERRORS.items()))
        raise UnknownGame(f"unknown game {name_or_alias!r}; known games: {', '.join(names)}{broken}")
    return game


def games() -> list[Game]:
    """Every registered game, each once, sorted by name."""
    _load_builtin_games()
    return sorted({id(g): g for g in _GAMES.values()}.values(), key=lambda g: g.name)


# --- table state ------------------------------------------------------------------------

@dataclass(frozen=True)
class LogLine:
    """One line of the spectator log: what happened, in plain words."""

    seq: int
    at: float | None
    text: str


@dataclass(frozen=True)
class TableState:
    """The state of the whole table: the running game and the shared dice tray."""

    game: str
    """Registered name of the running game."""
    state: Any
    """The game's own state (a frozen dataclass of that game's module)."""
    tray: Any
    """The dice tray's state (:class:`arena_table.rules.dice_tray.TrayState`)."""
    seq: int = 0
    """Sequence number of the last event applied (0 before any)."""
    started_seq: int = 0
    """Sequence number of the ``start`` event of the running game (0: the default game)."""
    log: tuple[LogLine, ...] = ()
    """The last :data:`LOG_LINES` lines of the plain-words log."""
    tags: tuple[tuple[int, str, str], ...] = ()
    """Tags resting on reader pads now: ``(pad, uid, object)``, in the order they were placed."""
    since_start: int = 0
    """Events applied since the running game's ``start`` (undone ones are not applied: undo
    replays without them), so :func:`in_progress` can tell a game whose moves were all undone
    from one under way."""


LOG_LINES = 50


def in_progress(ts: TableState) -> str | None:
    """What a new game would end, in words, or ``None`` when nothing would be lost: a board game
    with events after its start that were not undone (moves, rolls, notes, tags), or a dice tray
    with rolls. (Undo stops at a game's start, so a new game ends the running one for good: its
    events stay in the log, out of the state.)"""
    if ts.game == "dice-tray":
        n = len(ts.tray.rolls)
        return f"the dice tray's {n} roll{'s' if n != 1 else ''}" if n else None
    return f"the running {find_game(ts.game).title} (event {ts.seq})" if ts.since_start else None


def new_table(game: str = "dice-tray", options: Mapping[str, Any] | None = None) -> TableState:
    """A fresh table running ``game`` set up with ``options``."""
    from . import dice_tray

    g = find_game(game)
    return TableState(game=g.name, state=g.setup(dict(options or {})), tray=dice_tray.new_tray())


def _log(ts: TableState, seq: int, event: Event, text: str) -> tuple[LogLine, ...]:
    if not text:
        return ts.log
    return (ts.log + (LogLine(seq, event.at, text),))[-LOG_LINES:]


def apply(ts: TableState, event: Event, seq: int | None = None) -> TableState:
    """The table state after ``event`` (numbered ``seq``; default: next number).

    Raises:
        IllegalEvent: the running game's rules forbid the event.
        UnknownGame: a ``start`` event names no registered game.
    """
    from . import dice_tray

    seq = ts.seq + 1 if seq is None else seq
    if isinstance(event, Undone):
        raise IllegalEvent(event, "undo is resolved by replay(), not applied", summarize(ts))
    if isinstance(event, GameStarted):
        g = find_game(event.game)
        try:
            state = g.setup(dict(event.options))
        except IllegalEvent:
            raise
        except (ValueError, KeyError, TypeError) as exc:
            raise IllegalEvent(event, f"bad options for {g.name}: {exc}", summarize(ts)) from exc
        fresh = TableState(game=g.name, state=state, tray=dice_tray.new_tray(), seq=seq,
                           started_seq=seq, log=ts.log, tags=ts.tags)
        return dataclasses.replace(fresh, log=_log(ts, seq, event, f"New game: {g.title}"))
    absurd = absurd_number(event)
    if absurd:
        raise IllegalEvent(event, absurd, summarize(ts))
    game = find_game(ts.game)
    other = _foreign_game(game, event)
    if other:
        raise IllegalEvent(event, f"{event.KIND} is an event of {other}, but {game.title} is running", summarize(ts))
    tray = ts.tray
    game_dice = getattr(game, "dice", None)
    if game_dice is not None and isinstance(event, (DiceRolled, DieCorrected)):
        wrong = dice_tray.game_dice_error(game.title, game_dice(ts.state), tray, event)
        if wrong:
            raise IllegalEvent(event, wrong, summarize(ts))
    if isinstance(event, (DiceRolled, DieCorrected)):
        tray = dice_tray.apply_tray(tray, event, seq)
    tags = ts.tags
    if isinstance(event, TagPlaced):  # newest last: the latest hero token is the one acting
        tags = tuple([t for t in tags if t[0] != event.pad] + [(event.pad, event.uid, event.object)])
    elif isinstance(event, TagRemoved):
        tags = tuple(t for t in tags if not (t[0] == event.pad and t[1] == event.uid))
    state = ts.state if ts.game == "dice-tray" else game.apply(ts.state, event)
    text = game.describe(ts.state, event) if ts.game != "dice-tray" else ""
    if not text and isinstance(event, (DiceRolled, DieCorrected)):
        text = dice_tray.describe_tray(ts.tray, event)
    if not text and isinstance(event, Note):
        text = event.text
    return dataclasses.replace(ts, state=state, tray=tray, seq=seq, tags=tags, log=_log(ts, seq, event, text),
                               since_start=ts.since_start + 1)


SANE_LIMIT = 10**6
"""No number an event carries (gold, wounds, cells, seq numbers, faces) comes near this; beyond it is a typo."""


def absurd_number(event: Event) -> str:
    """Why ``event`` carries an absurd integer anywhere in its fields, or "" (sanity, not a rule).

    >>> absurd_number(Note(text="x")), absurd_number(DieCorrected(roll=1, index=0, value=10**7))
    ('', 'value=10000000 is not a sensible number (keep within ±1000000)')
    """
    def walk(value: Any) -> Any:
        if isinstance(value, bool):
            return None
        if isinstance(value, int):
            return value if abs(value) > SANE_LIMIT else None
        items = value.values() if isinstance(value, Mapping) else value if isinstance(value, (list, tuple)) else ()
        return next((bad for bad in map(walk, items) if bad is not None), None)

    for f in dataclasses.fields(event):
        bad = walk(getattr(event, f.name))
        if bad is not None:
            return f"{f.name}={bad} is not a sensible number (keep within ±{SANE_LIMIT})"
    return ""


def _home(module: str) -> str:
    """The package a game or event class belongs to (``arena_table.rules.theosis``)."""
    parts = module.split(".")
    return ".".join(parts[:3]) if parts[:2] == ["arena_table", "rules"] else parts[0]


def _foreign_game(game: Game, event: Event) -> str:
    """Title of the other game ``event`` belongs to, or "" (kernel events belong to every game)."""
    home = _home(type(event).__module__)
    if home == _home(__name__.rpartition(".")[0] + ".events") or home == _home(type(game).__module__):
        return ""
    for g in games():
        if _home(type(g).__module__) == home:
            return g.title
    return ""


def is_legal(ts: TableState, event: Event) -> bool:
    """Whether :func:`apply` would accept ``event`` now."""
    try:
        apply(ts, event)
    except IllegalEvent:
        return False
    return True


def summarize(ts: TableState) -> str:
    """One line naming the game and the last event number, for error messages."""
    return f"{ts.game} after event {ts.seq}"


# --- replay and undo ------------------------------------------------------------------------

Record = tuple[int, Event]
"""A log record: ``(seq, event)`` with strictly increasing ``seq``."""


def undone_seqs(records: Iterable[Record]) -> frozenset[int]:
    """Sequence numbers taken back by ``undo`` events in ``records`` (an undo takes back an earlier
    event only: one naming itself or a later event takes back nothing, see :func:`replay`)."""
    return frozenset(ev.seq for seq, ev in records if isinstance(ev, Undone) and ev.seq < seq)


def replay(records: Iterable[Record] | Iterable[Event], game: str = "dice-tray",
           options: Mapping[str, Any] | None = None, *, strict: bool = True) -> TableState:
    """Rebuild the table state from a log, honouring ``undo`` events.

    ``records`` are ``(seq, event)`` pairs or bare events (numbered from 1).
    The table starts running ``game`` until the first ``start`` event.

    Args:
        strict: raise on an illegal event (True) or skip it (False, used when
            re-reading a log written by an older rules version).

    Raises:
        IllegalEvent: an event the rules forbid, or an ``undo`` naming itself or a later event
            (only with ``strict``; otherwise it takes back nothing).

    >>> ts = replay([DiceRolled(faces=(6,)), DiceRolled(faces=(2,)), Undone(seq=2)])
    >>> [r.faces for r in ts.tray.rolls]
    [(6,)]
    """
    recs: list[Record] = []
    for i, item in enumerate(records, start=1):
        recs.append(item if isinstance(item, tuple) else (i, item))
    skip = undone_seqs(recs)
    ts = new_table(game, options)
    for seq, ev in recs:
        if isinstance(ev, Undone) and ev.seq >= seq and strict:
            raise IllegalEvent(ev, f"an undo takes back an earlier event; this is event {seq}")
        if isinstance(ev, Undone) or seq in skip:
            ts = dataclasses.replace(ts, seq=seq)
            continue
        try:
            ts = apply(ts, ev, seq)
        except IllegalEvent:
            if strict:
                raise
    return ts


def undo_target(records: Sequence[Record]) -> Record:
    """The record an ``undo`` now would take back: the last undoable event still in effect.

    Raises:
        NothingToUndo: the log holds no undoable event in effect.
    """
    skip = undone_seqs(records)
    for seq, ev in reversed(records):
        if isinstance(ev, GameStarted) and seq not in skip:
            break  # never reach back across the start of the running game
        if seq not in skip and ev.UNDOABLE:
            return seq, ev
    raise NothingToUndo("nothing to undo in the running game")


# --- serialisation --------------------------------------------------------------------------

def to_jsonable(value: Any) -> Any:
    """Dataclasses, tuples, frozensets and mappings as plain JSON values."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_jsonable(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, Mapping):
        return {str(k): to_jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [to_jsonable(v) for v in value]
    if isinstance(value, (set, frozenset)):
        return sorted((to_jsonable(v) for v in value), key=lambda v: json.dumps(v, sort_keys=True))
    return value


def digest(ts: TableState) -> str:
    """SHA-256 of the table state's canonical JSON (golden transcripts compare it), without the
    log lines and the count of events since the start (bookkeeping, not the game's state)."""
    plain = to_jsonable(dataclasses.replace(ts, log=()))
    del plain["since_start"]
    blob = json.dumps(plain, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(blob.encode()).hexdigest()


def acting_token(ts: TableState) -> dict[str, Any] | None:
    """The hero token laid last on a reader pad and still there: "this hero acts now".

    In every game a tagged hero token on a pad names the acting hero for the spectators; a
    game whose rules fix the turn order also receives the ``tag-on`` event and decides.

    >>> ts = replay([TagPlaced(pad=1, uid="04A1B2C3", object="theosis:hero:rochon"),
    ...              TagPlaced(pad=2, uid="04D4E5F6", object="theosis:power:fiery-purge")])
    >>> acting_token(ts)
    {'pad': 1, 'uid': '04A1B2C3', 'object': 'theosis:hero:rochon', 'id': 'rochon', 'name': 'Rochon'}
    """
    for pad, uid, obj in reversed(ts.tags):
        game, _, rest = obj.partition(":")
        kind, _, oid = rest.partition(":")
        if kind == "hero" and oid:
            return {"pad": pad, "uid": uid, "object": obj, "id": oid,
                    "name": oid.replace("-", " ").replace("_", " ").title()}
    return None


def table_view(ts: TableState, viewer: str = "spectator") -> dict[str, Any]:
    """The whole table as the spectator screen shows it (JSON-ready)."""
    from . import dice_tray

    game = find_game(ts.game)
    outcome = game.outcome(ts.state)
    return {
        "game": game.name,
        "title": game.title,
        "seq": ts.seq,
        "started": ts.started_seq,  # the running game's start event (0: the default game)
        "view": game.view(ts.state, viewer) if game.name != "dice-tray" else {},
        "tray": dice_tray.tray_view(ts.tray),
        "outcome": to_jsonable(outcome) if outcome else None,
        "log": [to_jsonable(line) for line in ts.log if line.seq >= ts.started_seq],  # this game's, from "New game"
        "tags": [{"pad": p, "uid": u, "object": o} for p, u, o in sorted(ts.tags)],
        "acting_token": acting_token(ts),
    }
