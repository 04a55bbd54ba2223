"""Wires the table's lights to the engine and the status board, off the engine thread.

Every committed event, every refused one and every change of a device's health is handed to one
worker thread (``leds``) that keeps only the newest of each, renders
:func:`arena_table.hardware.leds.render_leds` and shows it. A pin factory that is missing or fails
at start, or a device that fails while running, leaves the lights off with the status board's
``leds`` entry ``unavailable`` (the dashboard and ``/api/state`` show why); the table runs on.
"""

from __future__ import annotations

import logging
import threading
from typing import Any, Callable, Mapping

from arena_table.hardware.led_driver import LedDriver, make_pin_factory
from arena_table.hardware.leds import LedConfig, find_cue, render_leds, seat_names
from arena_table.rules import table_view

from .ports import Ports

log = logging.getLogger(__name__)


class LedOutput:
    """A device of the table: the seat LEDs, the status LED and the cue.

    Args:
        ports: the table's :class:`~.ports.Ports` for the lights (``subscribe``, ``state``, ``on_refused``,
            ``status``, ``watch_status``, ``report``).
        config: the wiring.
        factory: the pin factory's name (``lgpio``, ``mock``), or a callable making the factory.
        seats: player/team name at each seat (default: :func:`~arena_table.hardware.leds.seat_names`,
            kept for the run: a seat's LED never moves to another player when the turn order changes).
    """

    def __init__(self, ports: Ports, config: LedConfig, factory: str | Callable[[], Any] = "lgpio",
                 seats: list[str] | None = None) -> None:
        self.ports = ports
        self.config = config
        self.factory_name = factory if isinstance(factory, str) else getattr(factory, "__name__", "custom")
        self._make_factory = (lambda: make_pin_factory(factory)) if isinstance(factory, str) else factory
        self.seats = seats
        self.driver: LedDriver | None = None
        self.problem = ""
        """Why the lights are off, or "" while they work."""
        self._seen: list[str] = []
        self._wake = threading.Condition()
        self._pending: dict[str, Any] = {}
        self._stopping = False
        self._thread = threading.Thread(target=self._run, name="leds", daemon=True)
        self._unsubscribe: list[Callable[[], None]] = []
        self._health: dict[str, Any] = {}
        self._before: dict[str, Any] | None = None
        self._reported: dict[str, Any] = {}

    def __repr__(self) -> str:
        return f"LedOutput(factory={self.factory_name!r}, driver={self.driver!r}, problem={self.problem!r})"

    # -- lifecycle ------------------------------------------------------------------------------------
    def start(self) -> "LedOutput":
        try:
            self.driver = LedDriver(self.config, self._make_factory())
        except Exception as exc:  # no factory, no chip, a pin in use: the game runs on, lights off
            self._fail(f"LEDs off: {exc}")
        else:
            self._report(state="ok", detail=f"LEDs on pin factory {self.factory_name}")
        self._unsubscribe = [self.ports.subscribe(lambda change: self._offer(state=change.state)),
                             self.ports.on_refused(lambda seq, event, reason: self._offer(rejected=seq))]
        self.ports.watch_status(lambda snap: self._offer(health=snap))
        self._thread.start()
        self._offer(state=self.ports.state(), health=self.ports.status())
        return self

    def close(self) -> None:
        for undo in self._unsubscribe:
            undo()
        with self._wake:
            self._stopping = True
            self._wake.notify()
        if self._thread.is_alive():
            self._thread.join(timeout=2)
        if self.driver is not None:
            self.driver.close()
            self.driver = None

    # -- the worker -----------------------------------------------------------------------------------
    def _offer(self, **news: Any) -> None:
        # the newest of each kind only: the lights show "now", never a backlog
        with self._wake:
            self._pending.update(news)
            self._wake.notify()

    def _run(self) -> None:
        while True:
            with self._wake:
                self._wake.wait_for(lambda: self._pending or self._stopping)
                if self._stopping:
                    return
                news, self._pending = self._pending, {}
            try:
                self._update(news)
            except Exception as exc:  # a failing output never stops the table
                log.exception("LED update failed")
                self._fail(f"LEDs off after a failure: {type(exc).__name__}: {exc}")

    def _update(self, news: Mapping[str, Any]) -> None:
        if "health" in news:
            health = {k: v for k, v in news["health"].items() if k != "leds"}  # its own entry is not a fault
            if health == self._health and len(news) == 1:
                return
            self._health = health
        view = table_view(news["state"] if "state" in news else self.ports.state())
        cue = find_cue(self._before, view, news.get("rejected"))
        self._before = view
        if self.driver is None:
            return
        seats = seat_names(view, self.seats, self._seen)
        if not self.seats and not (view.get("view") or {}).get("sides"):
            self._seen = seats
        frame = render_leds(view, self.config, seats=seats, health=self._health, cue=cue)
        self.driver.show(frame)
        self._report(state="ok", detail=f"LEDs on pin factory {self.factory_name}", status_light=frame.status,
                     seats=dict(zip(seats, frame.seats)))

    def _fail(self, message: str) -> None:
        log.error("%s (the table runs on without its lights)", message)
        self.problem = message
        if self.driver is not None:
            try:
                self.driver.close()
            except Exception:
                log.exception("closing the LEDs failed")
            self.driver = None
        self._report(state="unavailable", detail=message)

    def _report(self, **info: Any) -> None:
        info["factory"] = self.factory_name
        if info != self._reported:  # the status board tells every listener: only real changes
            self._reported = info
            self.ports.report(**info)


def build_leds(ports: Ports, spec: str, wiring: LedConfig = LedConfig(), seats: list[str] | None = None) -> LedOutput:
    """``gpio``: the Raspberry Pi's pins through the lgpio factory; ``mock``: gpiozero's
    ``MockFactory`` with PWM pins (no hardware). ``wiring`` and ``seats``: the ``[leds]`` section
    (:class:`~arena_table.table.config.LedSettings`).

    Raises:
        ValueError: an unknown spec.
    """
    if spec not in ("gpio", "mock"):
        raise ValueError(f"--leds {spec!r}: expected 'gpio' or 'mock'")
    return LedOutput(ports, wiring, "lgpio" if spec == "gpio" else "mock", list(seats) if seats else None)
