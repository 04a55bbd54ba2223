"""The table-level state machine: the running game, the shared dice record, tags, replay and undo.

A table runs one game at a time. The table state (:class:`TableState`) holds
the running game's own state plus the dice tray, which every game shares: a
``roll`` event is recorded by the tray (:mod:`.mechanics.dice`) *and* handed to
the game, which uses the faces where its rules read a die (Thieves' Guild d6,
monster d4 ...).

Everything here is pure: :func:`apply` returns a new state, :func:`replay`
rebuilds a state from a log of ``(seq, event)`` records, and undo is an
``undo seq=N`` event that makes replay skip event ``N`` — the log itself is
append-only, so nothing recorded is ever lost (STYLE.md §2). A ``correct`` of an
earlier roll is resolved by replay too (:mod:`.corrections`, :func:`correct`).
"""

from __future__ import annotations

import dataclasses
from collections import Counter
import hashlib
import json
from dataclasses import dataclass
from typing import Any, Iterable, Iterator, Mapping, Sequence

from . import awaited as awaited_roll
from . import corrections
from .errors import LaterEventRefused, NothingToUndo, Refused
from .events import DiceRolled, DieCorrected, Dropped, Event, GameStarted, Note, TagPlaced, TagRemoved, Undone
from .mechanics import dice as tray_record
from .sensed import FIGURE_EVENTS, Desync, desync_view, figure_event
from .registry import event_game, fallback_game, find_game
from .view import View


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
    """The dice record of the running game (:class:`.mechanics.dice.TrayState`)."""
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
    desync: tuple[Desync, ...] = dataclasses.field(default=(), metadata={"omit_default": True})
    """Figures standing where the rules say they cannot be ("check the table", :mod:`.sensed`)."""
    refused_roll: awaited_roll.RollRefusal | None = dataclasses.field(default=None, metadata={"omit_default": True})
    """The last camera throw the game did not take while it waited for another roll (what it expected,
    what was seen; :mod:`.awaited`), until the game takes an event."""


LOG_LINES = 50


def in_progress(ts: TableState) -> str | None:
    """What a new game would end, in words, or ``None`` when nothing would be lost: a board game
    with events after its start that were not undone (moves, rolls, notes, tags), or a dice tray
    with rolls. (Undo stops at a game's start, so a new game ends the running one for good: its
    events stay in the log, out of the state.)"""
    game = find_game(ts.game)
    if game.at_stake is not None:
        return game.at_stake(ts.state, ts.tray)
    return f"the running {game.title} (event {ts.seq})" if ts.since_start else None


def new_table(game: str | None = None, options: Mapping[str, Any] | None = None) -> TableState:
    """A fresh table running ``game`` (default: the fallback game, :func:`.registry.fallback_game`)
    set up with ``options``."""
    g = find_game(game or fallback_game())
    return TableState(game=g.name, state=g.setup(dict(options or {})), tray=tray_record.new_tray())


def _log(ts: TableState, seq: int, event: Event, text: str) -> tuple[LogLine, ...]:
    if not text:
        return ts.log
    return (ts.log + (LogLine(seq, event.at, text),))[-LOG_LINES:]


def apply(ts: TableState, event: Event, seq: int | None = None) -> TableState:
    """The table state after ``event`` (numbered ``seq``; default: next number).

    Raises:
        Refused: the running game's rules forbid the event.
        UnknownGame: a ``start`` event names no registered game.
    """

    seq = ts.seq + 1 if seq is None else seq
    if isinstance(event, (Undone, Dropped)):
        raise Refused(f"{event.KIND} is resolved by replay(), not applied", event=event, summary=summarize(ts))
    if isinstance(event, DieCorrected):
        corrections.check_correction(ts, event)
        raise Refused("a correction is resolved by replaying the log with the corrected roll (correct(), "
                      "the table's POST /api/correct), not applied to a state", event=event, summary=summarize(ts))
    if isinstance(event, GameStarted):
        g = find_game(event.game)
        try:
            state = g.setup(dict(event.options))
        except Refused as exc:
            raise exc.at(event) from None
        except (ValueError, KeyError, TypeError) as exc:
            raise Refused(f"bad options for {g.name}: {exc}", event=event, summary=summarize(ts)) from exc
        fresh = TableState(game=g.name, state=state, tray=tray_record.new_tray(), seq=seq,
                           started_seq=seq, log=ts.log, tags=ts.tags)
        return dataclasses.replace(fresh, log=_log(ts, seq, event, f"New game: {g.title}"))
    absurd = absurd_number(event)
    if absurd:
        raise Refused(absurd, event=event, summary=summarize(ts))
    game = find_game(ts.game)
    other = event_game(type(event))
    if other and other != game.name:
        raise Refused(f"{event.KIND} is an event of {find_game(other).title}, but {game.title} is running",
                      event=event, summary=summarize(ts))
    tray = ts.tray
    if not is_awaited(game, ts.state, event):  # a camera throw the game did not ask for: the tray's alone
        tray = tray_record.apply_tray(tray, event, seq)
        text = tray_record.describe_tray(ts.tray, event)  # short: the TV's log shows it whole
        text = "Tray roll " + text[len("Rolled "):] if text.startswith("Rolled ") else text + " (tray roll)"
        return dataclasses.replace(ts, tray=tray, seq=seq, log=_log(ts, seq, event, text),
                                   since_start=ts.since_start + 1,
                                   refused_roll=awaited_roll.refusal(game, ts.state, event, seq))
    if game.dice is not None and isinstance(event, DiceRolled):
        wrong = tray_record.game_dice_error(game.title, game.dice(ts.state), tray, event)
        if wrong:
            raise Refused(wrong, event=event, summary=summarize(ts))
    if isinstance(event, DiceRolled):
        tray = tray_record.apply_tray(tray, event, seq)
    tags = ts.tags
    if isinstance(event, TagPlaced):  # newest last: the latest hero token is the one acting
        tags = tuple([t for t in tags if t[0] != event.pad] + [(event.pad, event.uid, event.object)])
    elif isinstance(event, TagRemoved):
        tags = tuple(t for t in tags if not (t[0] == event.pad and t[1] == event.uid))
    if isinstance(event, FIGURE_EVENTS):
        try:
            state, desync, text = figure_event(game, ts.state, ts.desync, event, seq)
        except Refused as exc:
            raise exc.at(event, summarize(ts)) from None
        return dataclasses.replace(ts, state=state, seq=seq, desync=desync, log=_log(ts, seq, event, text),
                                   since_start=ts.since_start + 1)
    state = game.apply(ts.state, event)
    text = game.describe(ts.state, event)
    if not text and isinstance(event, DiceRolled):
        text = tray_record.describe_tray(ts.tray, event)
    if not text and isinstance(event, Note):
        text = event.text
    return dataclasses.replace(ts, state=state, tray=tray, seq=seq, tags=tags, log=_log(ts, seq, event, text),
                               since_start=ts.since_start + 1, refused_roll=None)


SENSED = ("sim", "camera", "dir:", "video:", "picamera")
"""Sources of rolls the camera read (:attr:`DiceRolled.source`); a person's entry has ``control`` or none."""


def is_sensed(event: Event) -> bool:
    """Whether ``event`` is a roll the camera read (not one a person entered)."""
    return isinstance(event, DiceRolled) and event.source.startswith(SENSED)


def is_awaited(game: Any, state: Any, event: Event) -> bool:
    """Whether the running game takes ``event``: anything but a sensed roll; a sensed roll only while
    the game awaits dice of its kind (``Game.awaits``), as many as it awaits or fewer; a throw of several
    kinds (``roll kinds=[...]``) when some of its kinds are awaited, none more often than awaited (the
    game leaves the others to the tray). A game without ``awaits`` takes every roll."""
    if game.awaits is None or not is_sensed(event):
        return True
    awaited = dict(game.awaits(state) or {})
    if event.kinds:  # a throw of several kinds: taken when the game awaits some of them, no more than asked
        counts = Counter(tray_record.roll_kinds(event))
        wanted = {k: max((awaited.get(name, 0) for name in tray_record.die_names(k)), default=0) for k in counts}
        return any(wanted.values()) and all(n <= wanted[k] for k, n in counts.items() if wanted[k])
    return 0 < len(event.faces) <= awaited.get(event.die, 0)


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


def is_legal(ts: TableState, event: Event) -> bool:
    """Whether :func:`apply` would accept ``event`` now."""
    try:
        apply(ts, event)
    except Refused:
        return False
    return True


def summarize(ts: TableState) -> str:
    """One line naming the game and the last event number, for error messages."""
    return f"{ts.game} after event {ts.seq}"


# --- replay and undo ------------------------------------------------------------------------

Record = tuple[int, Event]
"""A log record: ``(seq, event)`` with strictly increasing ``seq``."""


def undone_seqs(records: Iterable[Record]) -> frozenset[int]:
    """Sequence numbers taken back by ``undo`` and ``drop`` events in ``records`` (either takes back
    an earlier event only: one naming itself or a later event takes back nothing, see :func:`replay`)."""
    return frozenset(ev.seq for seq, ev in records if isinstance(ev, (Undone, Dropped)) and ev.seq < seq)


def replay(records: Iterable[Record] | Iterable[Event], game: str | None = None,
           options: Mapping[str, Any] | None = None, *, strict: bool = True,
           refused: list[tuple[int, Event, Refused]] | None = None) -> TableState:
    """Rebuild the table state from a log, honouring ``undo``, ``drop`` and ``correct`` events.

    ``records`` are ``(seq, event)`` pairs or bare events (numbered from 1).
    The table starts running ``game`` (default: the fallback game) until the first ``start`` event.
    A corrected roll is applied with its corrected faces where it stands (:mod:`.corrections`).

    Args:
        strict: raise on an illegal event (True) or skip it (False, used when
            re-reading a log written by an older rules version).
        refused: with ``strict=False``, filled with ``(seq, event, refusal)`` of each event skipped.

    Raises:
        Refused: an event the rules forbid, or an ``undo`` naming itself or a later event
            (only with ``strict``; otherwise it takes back nothing).

    >>> ts = replay([DiceRolled(faces=(6,)), DiceRolled(faces=(2,)), Undone(seq=2)])
    >>> [r.faces for r in ts.tray.rolls]
    [(6,)]
    >>> ts = replay([DiceRolled(faces=(6, 1)), DieCorrected(roll=1, index=1, value=3)])
    >>> [(r.faces, r.sensed) for r in ts.tray.rolls], ts.log[-1].text
    ([((6, 3), (6, 1))], 'Corrected die #2 of roll 1 from 1 to 3')
    """
    ts = new_table(game, options)
    for ts, _ in _replaying(records, game, options, strict, refused):
        pass
    return ts


def replay_steps(records: Iterable[Record] | Iterable[Event], game: str | None = None,
                 options: Mapping[str, Any] | None = None, *, strict: bool = True,
                 refused: list[tuple[int, Event, Refused]] | None = None) -> Iterator[TableState]:
    """:func:`replay` one record at a time: the state after each event applied (an undone, dropped
    or refused one yields nothing). Same arguments and errors as :func:`replay`."""
    return (ts for ts, applied in _replaying(records, game, options, strict, refused) if applied)


def _replaying(records: Iterable[Record] | Iterable[Event], game: str | None, options: Mapping[str, Any] | None,
               strict: bool, refused: list | None, *, start: TableState | None = None,
               stop: int | None = None) -> Iterator[tuple[TableState, bool]]:
    """Replay ``records`` (undo, drop and correction resolved over all of them), yielding
    ``(state, applied)`` a record; from ``start`` (the state before its next record, ``start.seq``
    its last), up to the record before ``stop``."""
    recs: list[Record] = []
    for i, item in enumerate(records, start=1):
        recs.append(item if isinstance(item, tuple) else (i, item))
    skip = undone_seqs(recs)
    faces, was = corrections.substitutions(recs, skip)
    ts = new_table(game, options) if start is None else start
    for seq, ev in recs:
        if start is not None and seq <= start.seq:
            continue
        if stop is not None and seq >= stop:
            return
        if isinstance(ev, (Undone, Dropped)) and ev.seq >= seq and strict:
            raise Refused(f"an {ev.KIND} takes back an earlier event; this is event {seq}", event=ev)
        if isinstance(ev, (Undone, Dropped)) or seq in skip:
            ts = dataclasses.replace(ts, seq=seq)
            yield ts, False
            continue
        try:
            ts = _replay_one(ts, seq, ev, faces, was)
        except Refused as exc:
            if strict:
                raise
            if refused is not None:
                refused.append((seq, ev, exc))
            continue
        yield ts, True


def _replay_one(ts: TableState, seq: int, ev: Event, faces: Mapping[int, tuple[int, ...]],
                was: Mapping[int, int]) -> TableState:
    """The state after record ``seq`` in replay: a corrected roll with its corrected faces, a
    correction as a line of the log."""
    if isinstance(ev, DieCorrected):
        corrections.check_correction(ts, ev)
        if seq not in was:  # a roll of an earlier game, or undone
            raise Refused(f"no roll with seq {ev.roll} in this game", event=ev, summary=summarize(ts))
        text = corrections.describe_correction(ev, was.get(seq))
        return dataclasses.replace(ts, seq=seq, log=_log(ts, seq, ev, text), since_start=ts.since_start + 1)
    if isinstance(ev, DiceRolled) and seq in faces:
        after = apply(ts, dataclasses.replace(ev, faces=faces[seq]), seq)
        return dataclasses.replace(after, tray=tray_record.with_sensed(after.tray, seq, ev.faces))
    return apply(ts, ev, seq)


def correct(records: Sequence[Record], correction: Record, drops: Sequence[Record] = (),
            game: str | None = None, options: Mapping[str, Any] | None = None) -> TableState:
    """The table state once ``drops`` (``drop`` records) and then ``correction`` (a ``correct``
    record) follow the log ``records``: the corrected roll applied where it stands and every event
    after it again (the engine's live state after a correction, equal to the replay of the log).

    Args:
        records: the log so far, ``(seq, event)``; an event its rules refuse already stays refused.
        correction: ``(seq, DieCorrected)``, numbered after ``records`` and ``drops``.
        drops: ``(seq, Dropped)`` records of later events to take out of effect with it.
        game, options: the table's game before its first ``start`` (as :func:`replay`).

    Raises:
        Refused: the correction names no roll of the running game, a die it lacks or a face its
            die lacks; or a drop names no later event in effect.
        LaterEventRefused: an event in effect now would be illegal under the corrected roll.

    >>> log = [(1, GameStarted(game="first-to-ten")), (2, DiceRolled(faces=(4,))), (3, DiceRolled(faces=(5,)))]
    >>> correct(log, (4, DieCorrected(roll=2, index=0, value=1))).state == replay(
    ...     [log[0], (2, DiceRolled(faces=(1,))), log[2]]).state
    True
    """
    records = list(records)
    seq, event = correction
    # the events before the roll replay alike with and without the correction: once
    prefix = new_table(game, options)
    for prefix, _ in _replaying(records, game, options, False, None, stop=event.roll):
        pass
    prefix = dataclasses.replace(prefix, seq=min(prefix.seq, event.roll - 1))

    def rest(recs: list[Record], refused: list) -> TableState:
        ts = prefix
        for ts, _ in _replaying(recs, game, options, False, refused, start=prefix):
            pass
        return ts

    before: list[tuple[int, Event, Refused]] = []
    now = rest(records, before)
    corrections.check_correction(now, event)
    corrections.check_drops(records, undone_seqs(records), event.roll, [d for _, d in drops])
    after: list[tuple[int, Event, Refused]] = []
    ts = rest(records + list(drops) + [correction], after)
    known = {s for s, _, _ in before}
    for later_seq, later_event, why in after:
        if later_seq == seq:
            raise why
        if later_seq not in known:
            raise LaterEventRefused(event, later_seq, later_event, why.reason, summarize(now))
    return ts


def undo_target(records: Sequence[Record]) -> Record:
    """The record an ``undo`` now would take back: the player's own last action, that is the last
    undoable event in effect that a person entered; a camera roll (:func:`is_sensed`) only when the
    running game holds nothing else to undo (a dice tray's throws). A camera roll that came after a
    placement is not what the player means to take back (a misread die is corrected, ``correct``).

    Raises:
        NothingToUndo: the log holds no undoable event in effect.
    """
    skip = undone_seqs(records)
    sensed: Record | None = None
    for seq, ev in reversed(records):
        if isinstance(ev, GameStarted) and seq not in skip:
            break  # never reach back across the start of the running game
        if seq not in skip and ev.UNDOABLE:
            if not is_sensed(ev):
                return seq, ev
            sensed = sensed or (seq, ev)
    if sensed is not None:
        return sensed
    raise NothingToUndo("nothing to undo in the running game")


# --- serialisation --------------------------------------------------------------------------

LATER_OPTION = {"omit_default": True}
"""``dataclasses.field(metadata=LATER_OPTION)``: a state field added after games were recorded,
left out of the JSON form (and so of :func:`digest`) while it holds its default, so that every
recorded game that does not use it keeps its digest."""


def to_jsonable(value: Any) -> Any:
    """Dataclasses, tuples, frozensets and mappings as plain JSON values (a :data:`LATER_OPTION`
    field at its default left out)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_jsonable(getattr(value, f.name)) for f in dataclasses.fields(value)
                if not (f.metadata.get("omit_default") and getattr(value, f.name) == f.default)}
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
    game = find_game(ts.game)
    outcome = game.outcome(ts.state)
    view = game.view(ts.state, viewer)
    return {
        "game": game.name,
        "title": game.title,
        "seq": ts.seq,
        "started": ts.started_seq,  # the running game's start event (0: the default game)
        "view": view.to_json() if isinstance(view, View) else view,
        "tray": tray_record.tray_view(ts.tray),
        "outcome": to_jsonable(outcome) if outcome else None,
        "log": [to_jsonable(line) for line in ts.log if line.seq >= ts.started_seq],  # this game's, from "New game"
        "tags": [{"pad": p, "uid": u, "object": o} for p, u, o in sorted(ts.tags)],
        "acting_token": acting_token(ts),
        "desync": desync_view(ts.desync),  # "check the table: ..." until board and game agree
        "awaits": awaited_roll.expected_words(awaited_roll.awaited_dice(game, ts.state)),  # "" when none
        "roll_refused": None if ts.refused_roll is None else {**to_jsonable(ts.refused_roll),
                                                              "message": ts.refused_roll.message},
    }
