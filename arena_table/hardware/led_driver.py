"""The gpiozero side of the lights: a pin factory chosen in one place, and a driver that applies
:class:`~arena_table.hardware.leds.LedFrame` to devices only where it changed.

The seat LEDs are one ``LEDBoard`` of ``PWMLED``; the status LED an ``RGBLED``; the cue a
``Buzzer`` (or, without one, a white flash of the status LED). A seat keeps blinking through
frames that keep it blinking: gpiozero's blink thread of a device is started when the device
starts to blink and stopped when it stops, never restarted per frame, so the live threads stay
at most one per device whatever the rate of frames.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from .errors import HardwareError
from .leds import Cue, LedConfig, LedFrame

log = logging.getLogger(__name__)

PI_MODEL = Path("/proc/device-tree/model")
"""Where a Raspberry Pi names its model (``Raspberry Pi 5 Model B Rev 1.0``)."""


class PinFactoryError(HardwareError, RuntimeError):
    """No GPIO pin factory could be made: the lights stay off and the table runs on."""


def is_raspberry_pi(model_file: Path = PI_MODEL) -> bool:
    """True on a Raspberry Pi (its device tree names the model)."""
    try:
        return model_file.read_bytes().startswith(b"Raspberry Pi")
    except OSError:
        return False


def make_pin_factory(name: str) -> Any:
    """The gpiozero pin factory ``name``: ``lgpio`` (a Raspberry Pi 4 or 5, through the kernel's
    GPIO character device; Debian's ``python3-lgpio``) or ``mock`` (gpiozero's ``MockFactory`` with
    PWM-capable pins: no hardware).

    ``lgpio`` is named explicitly rather than left to gpiozero's guess, which on a Pi 5 may land on
    a factory that cannot reach its GPIO chip and fall back to a different one silently.

    Raises:
        PinFactoryError: ``lgpio`` cannot be imported or opened (not a Pi, no ``python3-lgpio``,
            no access to ``/dev/gpiochip*``); the message says what to do.
        ValueError: an unknown name.
    """
    if name == "mock":
        from gpiozero.pins.mock import MockFactory, MockPWMPin

        return MockFactory(pin_class=MockPWMPin)
    if name != "lgpio":
        raise ValueError(f"pin factory {name!r}: expected 'lgpio' or 'mock'")
    try:
        from gpiozero.pins.lgpio import LGPIOFactory

        return LGPIOFactory()
    except ImportError as exc:
        raise PinFactoryError(f"GPIO pin factory lgpio is not installed ({exc}): on Raspberry Pi OS run "
                              "'sudo apt install python3-lgpio' (the service's venv sees system packages)") from exc
    except Exception as exc:  # lgpio.error, OSError: no chip, no permission
        where = "this is not a Raspberry Pi" if not is_raspberry_pi() else \
            "add the service user to the 'gpio' group and check /dev/gpiochip*"
        raise PinFactoryError(f"GPIO pin factory lgpio failed ({type(exc).__name__}: {exc}): {where}") from exc


class LedDriver:
    """The table's lights on gpiozero devices; :meth:`show` applies a frame where it changed.

    Args:
        config: the wiring (pins, brightness, blink and beep timing).
        pin_factory: a gpiozero pin factory (:func:`make_pin_factory`).

    Raises:
        gpiozero.GPIOZeroError: a pin is unavailable or in use (the devices made so far are closed).
    """

    def __init__(self, config: LedConfig, pin_factory: Any) -> None:
        from gpiozero import RGBLED, Buzzer, LEDBoard

        self.config = config
        self.seats: Any = None
        self.status: Any = None
        self.buzzer: Any = None
        try:
            if config.seat_pins:
                self.seats = LEDBoard(*config.seat_pins, pwm=True, active_high=config.active_high,
                                      pin_factory=pin_factory)
            if config.status_pins:
                self.status = RGBLED(*config.status_pins, active_high=config.active_high, pin_factory=pin_factory)
            if config.buzzer_pin is not None:
                self.buzzer = Buzzer(config.buzzer_pin, pin_factory=pin_factory)
        except Exception:
            self.close()
            raise
        self._last: LedFrame | None = None
        self._last_cue: Cue | None = None
        self.applied = 0
        """How many frames reached the devices (a frame equal to the last one is skipped)."""
        self.cues = 0
        """How many cues were sounded."""

    def __repr__(self) -> str:
        return f"LedDriver(applied={self.applied}, cues={self.cues}, last={self._last!r})"

    def show(self, frame: LedFrame) -> None:
        """Apply ``frame``: each seat or the status LED is touched only when its part changed, and a
        cue sounds once (the same cue in later frames is not sounded again)."""
        if frame == self._last:
            return
        last = self._last
        if self.seats is not None:
            for i, (led, mode) in enumerate(zip(self.seats, frame.seats)):
                if last is None or last.seats[i] != mode:
                    self._seat(led, mode)
        if self.status is not None and (last is None or last.status_colour != frame.status_colour):
            self.status.value = frame.status_colour
        if frame.cue is not None and frame.cue != self._last_cue:
            self._sound(frame.cue, frame)
            self._last_cue = frame.cue
        self._last = frame
        self.applied += 1

    def _seat(self, led: Any, mode: str) -> None:
        if mode == "blink":
            led.blink(on_time=self.config.blink_on, off_time=self.config.blink_off)
        else:
            led.value = self.config.seat_brightness if mode == "on" else 0.0

    def _sound(self, cue: Cue, frame: LedFrame) -> None:
        n = self.config.beeps(cue.kind)
        on, off = self.config.beep_on, self.config.beep_off
        if self.buzzer is not None:
            self.buzzer.blink(on_time=on, off_time=off, n=n)
        elif self.status is not None:  # a flash: white, back to the status colour at the end
            self.status.blink(on_time=on, off_time=off, on_color=(1, 1, 1), off_color=frame.status_colour, n=n)
        self.cues += 1

    def off(self) -> None:
        """Everything dark (the blink threads stopped)."""
        for dev in (self.seats, self.status, self.buzzer):
            if dev is not None:
                dev.off()
        self._last = None

    def close(self) -> None:
        """Release the pins (safe to call twice)."""
        for name in ("buzzer", "status", "seats"):
            dev = getattr(self, name)
            if dev is not None:
                try:
                    dev.close()
                except Exception:  # a failing factory must not stop the others being released
                    log.exception("closing the %s LEDs failed", name)
                setattr(self, name, None)

    def __enter__(self) -> "LedDriver":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
