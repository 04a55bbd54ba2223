"""Seat LEDs at the table: whose turn it is, who is next, who won.

:func:`render_leds` is a pure projection of the spectator view onto one RGB
LED per seat (../shared/STYLE.md §11, "Outputs are projections"); :class:`SeatLeds` applies a frame to gpiozero
``RGBLED`` devices, and only when it differs from the last one applied.

Colours are chosen to be told apart without colour vision too: the acting
seat is lit at full brightness, the next seat at a fifth, others off, so the
brightness alone carries the meaning.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Sequence

Color = tuple[float, float, float]
"""Red, green, blue, each 0.0..1.0 (gpiozero ``RGBLED.value``)."""

OFF: Color = (0.0, 0.0, 0.0)
ACTING: Color = (0.0, 1.0, 0.0)
NEXT: Color = (0.2, 0.12, 0.0)
WINNER: Color = (1.0, 1.0, 1.0)

DEFAULT_SEAT_PINS: tuple[tuple[int, int, int], ...] = (
    (17, 27, 22), (5, 6, 13), (19, 26, 21), (12, 16, 20), (23, 24, 25), (18, 4, 7),
)
"""BCM pin numbers (red, green, blue) of seats 1–6: a documented default wiring, change it in
the config (``extra["led_seats"]``); pins 18/12/13/19 are PWM-capable in hardware, the rest use
gpiozero's software PWM."""


@dataclass(frozen=True)
class LedFrame:
    """One colour per seat, seat 1 first."""

    seats: tuple[Color, ...]


def _side_of(view: Mapping[str, Any], char_id: str | None) -> str | None:
    for entry in view.get("order", ()):
        if entry.get("id") == char_id:
            return entry.get("side")
    return None


def render_leds(table_view: Mapping[str, Any], seats: Sequence[str]) -> LedFrame:
    """The LED frame for ``table_view`` (``arena_table.rules.table_view``) with ``seats``
    naming the player or team at each seat.

    The acting character's seat is :data:`ACTING`, the next one's :data:`NEXT`; once the
    game has an outcome the winners' seats are :data:`WINNER` and the others off.

    >>> v = {"view": {"acting": "a", "order": [{"id": "a", "side": "Ann"}, {"id": "b", "side": "Bo", "next": True}]}}
    >>> render_leds(v, ["Bo", "Ann"]).seats
    ((0.2, 0.12, 0.0), (0.0, 1.0, 0.0))
    """
    outcome = table_view.get("outcome")
    if outcome:
        winners = set(outcome.get("winners", ()))
        return LedFrame(tuple(WINNER if s in winners else OFF for s in seats))
    view = table_view.get("view") or {}
    acting = _side_of(view, view.get("acting")) or view.get("acting_side")  # a player to act, no character
    nxt = next((e.get("side") for e in view.get("order", ()) if e.get("next")), None)
    colours = []
    for s in seats:
        colours.append(ACTING if s == acting else NEXT if s == nxt else OFF)
    return LedFrame(tuple(colours))


class SeatLeds:
    """One gpiozero ``RGBLED`` per seat; :meth:`show` applies a frame when it changed.

    Args:
        pins: (red, green, blue) BCM pins per seat.
        pin_factory: gpiozero pin factory (``MockFactory(pin_class=MockPWMPin)`` in tests);
            ``None`` uses gpiozero's default.

    Raises:
        gpiozero.GPIOZeroError: pins unavailable (no GPIO, pin in use).
    """

    def __init__(self, pins: Sequence[tuple[int, int, int]] = DEFAULT_SEAT_PINS, pin_factory: Any = None) -> None:
        from gpiozero import RGBLED

        self._leds = []
        try:
            for r, g, b in pins:
                self._leds.append(RGBLED(r, g, b, pin_factory=pin_factory))
        except Exception:
            self.close()
            raise
        self._last: LedFrame | None = None
        self.applied = 0
        """How many frames actually reached the pins (unchanged frames are skipped)."""

    def show(self, frame: LedFrame) -> None:
        if frame == self._last:
            return
        for led, colour in zip(self._leds, frame.seats):
            led.value = colour
        self._last = frame
        self.applied += 1

    def close(self) -> None:
        for led in self._leds:
            led.close()
        self._leds = []

    def __enter__(self) -> "SeatLeds":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
