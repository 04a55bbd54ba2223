"""The engine: one worker thread that validates, logs and applies events.

Sensors, the control page and the CLI *submit* events; the engine's single
worker takes them one at a time from a queue, checks them against the rules,
commits them to the :class:`~arena_table.table.log.EventLog` and only then
updates the state and tells subscribers (STYLE.md §10). A subscriber that
raises is logged and cannot break the others or the engine.
"""

from __future__ import annotations

import dataclasses
import logging
import math
import queue
import threading
import time
import uuid
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any, Callable, Mapping

from arena_table.rules import (DieCorrected, Dropped, Event, Refused, NothingToUndo, RulesError, TableState, Undone,
                               UndoTargetMoved, correct, replay, undo_target)

from .log import EventLog

log = logging.getLogger(__name__)

Clock = Callable[[], float]


@dataclass(frozen=True)
class Change:
    """What subscribers receive after each committed event."""

    seq: int
    event: Event
    state: TableState
    epoch: str


Subscriber = Callable[[Change], None]


class Engine:
    """Owns the table state; everything that changes it goes through :meth:`submit`.

    Args:
        log: the durable event log; the state is rebuilt from it on start.
        game, options: the game the table runs until a ``start`` event says otherwise.
        clock: stamps events that arrive without a time (injected; tests pass a fake).

    Raises:
        RulesError: on start, if the stored log does not replay under the current rules
            (strict); the log itself is left untouched.
    """

    def __init__(self, log: EventLog, game: str = "dice-tray", options: Mapping[str, Any] | None = None,
                 clock: Clock = time.time) -> None:
        self.log = log
        self.game = game
        self.options = dict(options or {})
        self.clock = clock
        self.epoch = uuid.uuid4().hex[:12]
        """Changes on every start, so a client can tell a restart from a gap (SSE snapshots)."""
        records = log.records()
        self._last_at = max((ev.at for _, ev in records if ev.at is not None and math.isfinite(ev.at)), default=0.0)
        """The latest time stamp in the log: the engine stamps no event before it (a Pi without network
        time boots with the clock it saved last, which can be behind the log's last event)."""
        self._behind = False
        self._state = self._rebuild(records)
        self._subscribers: list[Subscriber] = []
        self._refusal_listeners: list[Callable[[int, Event, str], None]] = []
        self._queue: queue.Queue = queue.Queue()
        self._thread: threading.Thread | None = None
        self._sub_lock = threading.Lock()

    # -- lifecycle -------------------------------------------------------------------------
    def start(self) -> "Engine":
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="engine", daemon=True)
            self._thread.start()
        return self

    def close(self) -> None:
        if self._thread is not None:
            self._queue.put(None)
            self._thread.join(timeout=5)
            self._thread = None

    def __enter__(self) -> "Engine":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- reading -------------------------------------------------------------------------------
    @property
    def state(self) -> TableState:
        """The current table state (immutable; safe to read from any thread)."""
        return self._state

    @property
    def version(self) -> int:
        """Sequence number of the last event that changed the state."""
        return self._state.seq

    def subscribe(self, fn: Subscriber) -> Callable[[], None]:
        """Call ``fn(change)`` after every committed event; returns an unsubscribe function.

        ``fn`` runs on the engine thread: it must not block (hand work to a queue).
        """
        return self._listen(self._subscribers, fn)

    def on_refused(self, fn: Callable[[int, Event, str], None]) -> Callable[[], None]:
        """Call ``fn(seq, event, reason)`` after the rules refuse an event and it is stored as
        rejected (the table's lights sound it); returns an unsubscribe function. Runs on the
        engine thread: it must not block."""
        return self._listen(self._refusal_listeners, fn)

    def _listen(self, listeners: list, fn: Callable) -> Callable[[], None]:
        with self._sub_lock:
            listeners.append(fn)

        def unsubscribe() -> None:
            with self._sub_lock:
                if fn in listeners:
                    listeners.remove(fn)
        return unsubscribe

    # -- writing -------------------------------------------------------------------------------
    def submit(self, event: Event, timeout: float | None = 10.0,
               check: Callable[[TableState], None] | None = None) -> int:
        """Validate, commit and apply ``event``; returns its sequence number once durable.

        ``check``: called with the running state by the single writer in the same step, before
        anything is recorded; whatever it raises is raised here and nothing is written (a question
        the caller must ask first, as "this start would end a game": no event was refused).

        Raises:
            Refused: the rules refuse it (it is stored as ``rejected`` all the same).
            TimeoutError: the engine did not answer in ``timeout`` seconds.
            Exception: what ``check`` raised.
        """
        fut: Future = Future()
        self._queue.put((("event", event, check), fut))
        if self._thread is None:  # not started: process inline (CLI tools, tests)
            self._drain_one()
        return fut.result(timeout=timeout)

    def undo(self, timeout: float | None = 10.0, expected: int | None = None) -> tuple[int, Event]:
        """Take back the last undoable event; returns ``(seq, event)`` taken back.

        ``expected``: the ``seq`` the caller previewed (:meth:`undo_preview`); checked by the single
        writer in the same step as the undo, so two confirmations of one preview undo one event.

        Raises:
            NothingToUndo: nothing undoable in the running game.
            UndoTargetMoved: the last undoable event is no longer ``expected`` (nothing is undone).
        """
        fut: Future = Future()
        self._queue.put((("undo", expected), fut))
        if self._thread is None:
            self._drain_one()
        return fut.result(timeout=timeout)

    def correct(self, event: DieCorrected, drops: tuple[int, ...] = (), timeout: float | None = 10.0) -> int:
        """Correct a die of an earlier roll: the roll is replayed with the corrected value, and every
        event after it again (:func:`arena_table.rules.correct`); returns the correction's ``seq``.

        ``drops``: later events to take out of effect with it (a ``drop seq=K`` each, recorded just
        before the correction in the same step), the ones a :class:`LaterEventRefused` named.
        :meth:`submit` of a ``correct`` event is the same with no drops.

        Raises:
            LaterEventRefused: an event in effect would be illegal under the corrected roll (the
                correction is stored as ``rejected``, nothing changes).
            Refused: no such roll, die or face, or a drop naming no later event (stored as rejected).
        """
        fut: Future = Future()
        self._queue.put((("correct", event, tuple(drops)), fut))
        if self._thread is None:
            self._drain_one()
        return fut.result(timeout=timeout)

    def undo_preview(self) -> tuple[int, Event]:
        """What :meth:`undo` would take back now (for a confirmation prompt).

        Raises:
            NothingToUndo: nothing undoable.
        """
        return undo_target(self.log.records())

    # -- worker --------------------------------------------------------------------------------
    def _run(self) -> None:
        while True:
            item = self._queue.get()
            if item is None:
                return
            self._process(item)

    def _drain_one(self) -> None:
        item = self._queue.get()
        if item is not None:
            self._process(item)

    def _process(self, item: tuple) -> None:
        what, fut = item
        try:
            if what[0] == "undo":
                fut.set_result(self._do_undo(what[1]))
            elif what[0] == "correct" or isinstance(what[1], DieCorrected):
                if what[0] == "event" and what[2] is not None:
                    what[2](self._state)
                fut.set_result(self._do_correct(what[1], what[2] if what[0] == "correct" else ()))
            else:
                if what[2] is not None:
                    what[2](self._state)
                fut.set_result(self._do_event(what[1]))
        except BaseException as exc:  # handed to the submitter, never kills the worker
            fut.set_exception(exc)

    def _do_event(self, event: Event) -> int:
        from arena_table.rules import apply

        if event.at is None:
            event = dataclasses.replace(event, at=self._stamp())
        elif not math.isfinite(event.at):
            raise Refused(f"time stamp {event.at} is not a finite number of seconds", event=event)
        if isinstance(event, Undone):
            raise Refused("an undo is made with POST /api/undo or the control page's Undo button, "
                          "which pick the event to take back", event=event)
        if isinstance(event, Dropped):
            raise Refused("a drop is made with the correction that makes its event illegal "
                          "(POST /api/correct with \"drop\")", event=event)
        seq = self.log.last_seq() + 1  # single writer: the number the row will get
        try:
            new = apply(self._state, event, seq)
        except RulesError as exc:
            self._tell_refused(self.log.append(event, status="rejected", reason=str(exc)), event, str(exc))
            if isinstance(exc, Refused):
                raise
            raise Refused(str(exc), event=event) from exc
        stored = self.log.append(event)
        self._last_at = max(self._last_at, event.at)
        assert stored == seq, f"event log numbered {stored}, expected {seq}: a second writer?"
        self._state = new
        self._notify(Change(seq, event, new, self.epoch))
        return seq

    def _stamp(self) -> float:
        """Now by the clock, or the log's latest time stamp if the clock is behind it: the log never
        goes back in time (``arena-table doctor`` says when the clock is behind)."""
        now = self.clock()
        if now < self._last_at:
            if not self._behind:
                self._behind = True
                log.warning("the clock (%.0f) is behind the event log's last time stamp (%.0f): stamping events "
                            "with the log's time until it catches up", now, self._last_at)
            return self._last_at
        self._behind = False
        return now

    def _rebuild(self, records: list) -> TableState:
        """Replay ``records``; an event the current rules refuse is skipped with a warning
        (a log written by an older rules version), never deleted."""
        try:
            return replay(records, self.game, self.options)
        except RulesError as exc:
            log.warning("event log does not replay strictly (%s); skipping refused events", exc)
            return replay(records, self.game, self.options, strict=False)

    def _do_undo(self, expected: int | None) -> tuple[int, Event]:
        records = self.log.records()
        target = undo_target(records)
        if expected is not None and target[0] != expected:
            raise UndoTargetMoved(target[0], target[1], expected)
        ev = Undone(seq=target[0], at=self._stamp())
        seq = self.log.append(ev)
        self._last_at = max(self._last_at, ev.at)
        self._state = self._rebuild(records + [(seq, ev)])
        self._notify(Change(seq, ev, self._state, self.epoch))
        return target

    def _do_correct(self, event: DieCorrected, drops: tuple[int, ...]) -> int:
        if event.at is None:
            event = dataclasses.replace(event, at=self._stamp())
        elif not math.isfinite(event.at):
            raise Refused(f"time stamp {event.at} is not a finite number of seconds", event=event)
        records = self.log.records()
        first = self.log.last_seq() + 1  # single writer: the numbers the rows will get
        why = f"illegal once die #{event.index + 1} of roll {event.roll} is {event.value}"
        dropped = [(first + i, Dropped(seq=k, reason=why, at=event.at)) for i, k in enumerate(drops)]
        seq = first + len(dropped)
        try:
            new = correct(records, (seq, event), dropped, self.game, self.options)
        except RulesError as exc:
            self._tell_refused(self.log.append(event, status="rejected", reason=str(exc)), event, str(exc))
            if isinstance(exc, Refused):
                raise
            raise Refused(str(exc), event=event) from exc
        for want, drop in dropped:
            stored = self.log.append(drop)
            assert stored == want, f"event log numbered {stored}, expected {want}: a second writer?"
        stored = self.log.append(event)
        assert stored == seq, f"event log numbered {stored}, expected {seq}: a second writer?"
        self._last_at = max(self._last_at, event.at)
        self._state = new
        self._notify(Change(seq, event, new, self.epoch))
        return seq

    def _tell_refused(self, seq: int, event: Event, reason: str) -> None:
        with self._sub_lock:
            listeners = list(self._refusal_listeners)
        for fn in listeners:
            try:
                fn(seq, event, reason)
            except Exception:
                log.exception("refusal listener %r failed on row %d", fn, seq)

    def _notify(self, change: Change) -> None:
        with self._sub_lock:
            subs = list(self._subscribers)
        for fn in subs:
            try:
                fn(change)
            except Exception:  # isolation: one broken subscriber must not stop the table
                log.exception("subscriber %r failed on event %d", fn, change.seq)


__all__ = ["Change", "Engine", "NothingToUndo"]
