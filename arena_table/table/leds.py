"""Wires the seat LEDs to the engine: every change re-renders the frame off the engine thread."""

from __future__ import annotations

import logging
import queue
import threading
from typing import Any

from arena_table.hardware.leds import DEFAULT_SEAT_PINS, SeatLeds, render_leds
from arena_table.rules import table_view

log = logging.getLogger(__name__)


class LedOutput:
    """A device of the table: renders :func:`render_leds` for each state and shows it.

    Args:
        table: the :class:`arena_table.table.app.Table`.
        leds: the seat LEDs to drive.
        seats: player/team name at each seat (``extra["seats"]``, ``run --seats``; default: the view's
            ``sides`` in setup order, else each side in the order it was first seen, kept for the run:
            a seat's LED never moves to another player when the turn order changes).
    """

    def __init__(self, table: Any, leds: SeatLeds, seats: list[str] | None = None) -> None:
        self.table = table
        self.leds = leds
        self.seats = seats
        self._seen: list[str] = []
        self._queue: queue.Queue = queue.Queue(maxsize=1)
        self._thread = threading.Thread(target=self._run, name="leds", daemon=True)
        self._unsubscribe = None

    def start(self) -> "LedOutput":
        self._unsubscribe = self.table.subscribe(lambda change: self._offer(change.state))
        self._thread.start()
        self._offer(self.table.state)
        return self

    def _offer(self, state: Any) -> None:
        # keep only the newest state: the LEDs show "now", never a backlog
        try:
            self._queue.get_nowait()
        except queue.Empty:
            pass
        self._queue.put_nowait(state)

    def _seats_for(self, view: dict) -> list[str]:
        if self.seats:
            return self.seats
        inner = view.get("view") or {}
        if inner.get("sides"):
            return list(inner["sides"])
        for entry in inner.get("order", ()):
            side = entry.get("side")
            if side and side not in self._seen:
                self._seen.append(side)
        return self._seen

    def _run(self) -> None:
        while True:
            state = self._queue.get()
            if state is None:
                return
            try:
                view = table_view(state)
                self.leds.show(render_leds(view, self._seats_for(view)))
                self.table.status_board.set("leds", state="ok", applied=self.leds.applied)
            except Exception as exc:  # a failing output must never stop the table
                log.exception("LED update failed")
                self.table.status_board.set("leds", state="error", detail=str(exc))

    def close(self) -> None:
        if self._unsubscribe:
            self._unsubscribe()
        try:
            self._queue.get_nowait()
        except queue.Empty:
            pass
        self._queue.put(None)
        if self._thread.is_alive():
            self._thread.join(timeout=2)
        self.leds.close()


def build_leds(table: Any, spec: str) -> LedOutput:
    """``gpio``: the real pins; ``mock``: gpiozero's ``MockFactory`` with PWM pins (no hardware).

    Raises:
        ValueError: an unknown spec.
    """
    factory = None
    if spec == "mock":
        from gpiozero.pins.mock import MockFactory, MockPWMPin

        factory = MockFactory(pin_class=MockPWMPin)
    elif spec != "gpio":
        raise ValueError(f"--leds {spec!r}: expected 'gpio' or 'mock'")
    pins = [tuple(p) for p in table.config.extra.get("led_seats", DEFAULT_SEAT_PINS)]
    return LedOutput(table, SeatLeds(pins, pin_factory=factory), table.config.extra.get("seats"))
