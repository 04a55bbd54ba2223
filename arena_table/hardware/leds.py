"""What the table's lights say: whose turn it is, what the table waits for, and a rules moment.

:func:`render_leds` is a pure projection of the spectator view (``arena_table.rules.table_view``,
shaped after ``docs/view-schema.md``) onto the table's lights (../shared/STYLE.md §11, "Outputs are
projections"); :mod:`arena_table.hardware.led_driver` applies a frame to gpiozero devices.

- **Seat LEDs**, one per seat, up to :data:`MAX_SEATS`: the acting seat lit, the next one blinking,
  the others off; once the game has an outcome, the winners' seats lit. Lit and blinking differ
  in time, not colour, so they read without colour vision.
- **Status LED** (RGB, PWM brightness): green *ready*, amber *waiting* (dice still settling, or a
  roll the rules asked for), blue *accepted* (the last event recorded was a roll), red *fault*
  (the camera, the token reader or the GPIO reports a failure).
- **Cue** (buzzer, or a flash of the status LED): a Critical, a kill, the last turn begun, a move the
  rules refused. A cue carries the sequence number that caused it, so the driver plays each once.

The view carries no structured "moments", so cues are read from what it does carry (each rule is
documented on its helper): a kill is a character turning ``out`` at health 0 between two views,
or a log line telling a death, the last turn is ``round`` reaching ``round_max``, a Critical is a roll
whose log line names one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

MAX_SEATS = 6
"""Seat LEDs the table drives at most (the games seat up to six players or teams)."""

Color = tuple[float, float, float]
"""Red, green, blue, each 0.0..1.0 (gpiozero ``RGBLED.value``)."""

STATUS_COLOURS: Mapping[str, Color] = {
    "ready": (0.0, 1.0, 0.0),
    "waiting": (1.0, 0.5, 0.0),
    "accepted": (0.0, 0.0, 1.0),
    "fault": (1.0, 0.0, 0.0),
}
"""Full-brightness colour of each status; :attr:`LedConfig.status_brightness` scales it."""

CUE_KINDS = ("rejected", "kill", "critical", "last-turn")
"""Cues, most important first: when one event makes two, the first of these sounds."""

FAULT_STATES = frozenset({"failed", "error", "down", "lost", "disconnected", "stale", "retrying", "unavailable"})
"""A device status ``state`` (the table's status board) that turns the status LED red."""

SETTLING_STATES = frozenset({"moving", "settling", "hand"})
"""The camera's ``settle`` states while dice are thrown and not yet still (``vision/settle.py``)."""

_ROLL_ASKED = re.compile(r"(?<!may )(?<![\w-])(re-)?roll\b", re.IGNORECASE)
"""A prompt asking for a roll: "Roll piercing", "roll the Demigod dice", "re-roll Monster die 1"; not the
offer "Assassin may re-roll 1 die or resolve", nor an event's name ("eu-hero-roll")."""
_CRITICAL = re.compile(r"\bcritical\b", re.IGNORECASE)
_KILL_WORDS = re.compile(r"\b(slain|dies|defeated)\b", re.IGNORECASE)
"""How the games' log lines tell a death: Demigods "(slain)", Euthia "dies" / "— defeated" (a Monster),
Theosis "→ slain" and "every monster is defeated"."""


@dataclass(frozen=True)
class LedConfig:
    """The lights' wiring and timing. Pins are BCM numbers; ``None`` leaves a part out.

    The default wiring is the one ``arena_table/hardware/README.md`` draws.
    """

    seat_pins: tuple[int, ...] = (17, 27, 22, 5, 6, 26)
    """One LED per seat, seat 1 first (at most :data:`MAX_SEATS`)."""
    status_pins: tuple[int, int, int] | None = (12, 13, 19)
    """The RGB status LED's red, green and blue legs (common cathode)."""
    buzzer_pin: int | None = 16
    """An active buzzer; without one, a cue flashes the status LED white."""
    active_high: bool = True
    """False for LEDs wired from 3V3 to the pin (common anode)."""
    seat_brightness: float = 1.0
    """PWM duty of a lit seat LED, 0..1."""
    status_brightness: float = 0.6
    """PWM duty scaling the status colour, 0..1 (a bright RGB LED glares in a dim room)."""
    blink_on: float = 0.4
    """Seconds a blinking seat LED is on..."""
    blink_off: float = 0.4
    """...and off."""
    cue_beeps: Mapping[str, int] | None = None
    """Beeps per cue kind; default :data:`CUE_BEEPS`."""
    beep_on: float = 0.08
    beep_off: float = 0.08
    """Seconds of one beep and of the pause after it."""

    def __post_init__(self) -> None:
        pins = list(self.seat_pins) + list(self.status_pins or ()) + ([self.buzzer_pin] if self.buzzer_pin is not None else [])
        for pin in pins:
            if isinstance(pin, bool) or not isinstance(pin, int) or not 0 <= pin <= 27:
                raise ValueError(f"LED pin {pin!r}: expected a BCM GPIO number 0..27")
        if len(set(pins)) != len(pins):
            raise ValueError(f"LED pins {pins}: a pin is used twice")
        if len(self.seat_pins) > MAX_SEATS:
            raise ValueError(f"{len(self.seat_pins)} seat pins: at most {MAX_SEATS} seats")
        if self.status_pins is not None and len(self.status_pins) != 3:
            raise ValueError(f"status_pins {self.status_pins!r}: expected (red, green, blue)")
        for name in ("seat_brightness", "status_brightness"):
            if not 0.0 <= getattr(self, name) <= 1.0:
                raise ValueError(f"{name} {getattr(self, name)!r}: expected 0..1")
        for name in ("blink_on", "blink_off", "beep_on", "beep_off"):
            if not getattr(self, name) > 0:
                raise ValueError(f"{name} {getattr(self, name)!r}: expected seconds > 0")

    def beeps(self, kind: str) -> int:
        """How many beeps cue ``kind`` sounds."""
        return dict(CUE_BEEPS, **(self.cue_beeps or {})).get(kind, 1)


CUE_BEEPS: Mapping[str, int] = {"rejected": 1, "kill": 3, "critical": 2, "last-turn": 4}
"""Default beeps per cue: a refusal one, a Critical two, a kill three, the last turn four."""


@dataclass(frozen=True)
class Cue:
    """A rules moment to sound once: its ``kind`` (one of :data:`CUE_KINDS`) and the ``seq`` of the
    event that made it (a refused event's own row number for ``rejected``)."""

    kind: str
    seq: int


@dataclass(frozen=True)
class LedFrame:
    """Everything the lights show at one moment.

    ``seats``: ``"on"``, ``"blink"`` or ``"off"`` per seat LED, seat 1 first; ``status``: one of
    :data:`STATUS_COLOURS`; ``status_colour``: that colour at the configured brightness;
    ``cue``: the moment to sound, or None.
    """

    seats: tuple[str, ...]
    status: str
    status_colour: Color
    cue: Cue | None = None


def seat_names(view: Mapping[str, Any], configured: Sequence[str] | None = None,
               seen: Sequence[str] = ()) -> list[str]:
    """Who sits at each seat: ``configured`` if given, else the view's ``sides`` (setup order),
    else ``seen`` followed by each new side in the order the view lists it.

    A seat keeps its player for the game: a turn order that changes never moves a light.

    >>> seat_names({"view": {"order": [{"side": "Bo"}, {"side": "Ann"}, {"side": "Bo"}]}}, seen=["Ann"])
    ['Ann', 'Bo']
    """
    if configured:
        return list(configured)
    inner = view.get("view") or {}
    if inner.get("sides"):
        return list(inner["sides"])
    names = list(seen)
    for entry in inner.get("order", ()):
        side = entry.get("side")
        if side and side not in names:
            names.append(side)
    return names


def _side_of(inner: Mapping[str, Any], char_id: str | None) -> str | None:
    for entry in inner.get("order", ()):
        if entry.get("id") == char_id:
            return entry.get("side")
    return None


def seat_lights(view: Mapping[str, Any], seats: Sequence[str]) -> tuple[str, ...]:
    """``"on"``/``"blink"``/``"off"`` for each name in ``seats`` (see :class:`LedFrame`).

    The acting seat is the acting character's side, or ``acting_side`` when a player acts with no
    character (placing, bidding); the next seat is the side of the entry marked ``next``. A seat that
    both acts and is next stays lit.

    >>> v = {"view": {"acting": "a", "order": [{"id": "a", "side": "Ann"}, {"id": "b", "side": "Bo", "next": True}]}}
    >>> seat_lights(v, ["Bo", "Ann", "Cy"])
    ('blink', 'on', 'off')
    """
    outcome = view.get("outcome")
    if outcome:
        winners = set(outcome.get("winners", ()))
        return tuple("on" if s in winners else "off" for s in seats)
    inner = view.get("view") or {}
    acting = _side_of(inner, inner.get("acting")) or inner.get("acting_side")
    nxt = next((e.get("side") for e in inner.get("order", ()) if e.get("next")), None)
    return tuple("on" if s == acting else "blink" if s == nxt else "off" for s in seats)


def table_status(view: Mapping[str, Any], health: Mapping[str, Mapping[str, Any]] | None = None) -> str:
    """The status LED's meaning (a key of :data:`STATUS_COLOURS`).

    ``health``: the table's device status board (``{"camera": {"state": ..., "settle": ...}, ...}``).
    Fault first (any device in :data:`FAULT_STATES`), then waiting (the camera sees dice
    settling, or the view's ``prompt`` asks for a roll), then accepted (the last event recorded
    is the tray's last roll), else ready.

    >>> table_status({"view": {"prompt": "Roll piercing"}, "seq": 4, "tray": {}})
    'waiting'
    >>> table_status({"view": {}, "seq": 5, "tray": {"last": {"seq": 5}}})
    'accepted'
    >>> table_status({"view": {}, "seq": 5}, {"camera": {"state": "failed"}})
    'fault'
    """
    health = health or {}
    if any(info.get("state") in FAULT_STATES for info in health.values()):
        return "fault"
    settle = (health.get("camera") or {}).get("settle")
    prompt = (view.get("view") or {}).get("prompt") or ""
    if settle in SETTLING_STATES or (not view.get("outcome") and _ROLL_ASKED.search(prompt)):
        return "waiting"
    last = (view.get("tray") or {}).get("last") or {}
    if view.get("seq") and last.get("seq") == view.get("seq"):
        return "accepted"
    return "ready"


def _new_lines(before: Mapping[str, Any], after: Mapping[str, Any]) -> list[str]:
    since = before.get("seq") or 0
    return [line.get("text", "") for line in after.get("log", ()) if line.get("seq", 0) > since]


def _killed(before: Mapping[str, Any], after: Mapping[str, Any]) -> bool:
    """A character in both views turned ``out`` with health 0 (or no health shown), not a hero merely
    skipped this round (view-schema ``out``); or a log line the event added tells a death (a Monster
    off the turn order, a hero who comes back: Euthia)."""
    if any(_KILL_WORDS.search(text) for text in _new_lines(before, after)):
        return True
    was = {e.get("id"): e for e in (before.get("view") or {}).get("order", ())}
    for entry in (after.get("view") or {}).get("order", ()):
        old = was.get(entry.get("id"))
        if old is not None and entry.get("out") and not old.get("out") and not entry.get("health"):
            return True
    return False


def _last_turn_began(before: Mapping[str, Any], after: Mapping[str, Any]) -> bool:
    b, a = before.get("view") or {}, after.get("view") or {}
    top = a.get("round_max")
    return bool(top) and a.get("round") == top and b.get("round") != top and not after.get("outcome")


def _critical_rolled(before: Mapping[str, Any], after: Mapping[str, Any]) -> bool:
    """The event was a roll (the tray's last roll is the view's last event) and one of the log lines
    it added names a Critical (Demigods Evolution's die results, Sword & Sorcery's Critical)."""
    seq = after.get("seq") or 0
    last = (after.get("tray") or {}).get("last") or {}
    if not seq or last.get("seq") != seq:
        return False
    return any(_CRITICAL.search(text) for text in _new_lines(before, after))


def find_cue(before: Mapping[str, Any] | None, after: Mapping[str, Any], rejected: int | None = None) -> Cue | None:
    """The rules moment between two table views, or None (see the module docstring).

    ``rejected``: the row number of an event the rules just refused (it changes no view).

    >>> b = {"seq": 3, "view": {"order": [{"id": "rac", "health": 2}]}}
    >>> find_cue(b, {"seq": 4, "view": {"order": [{"id": "rac", "health": 0, "out": True}]}})
    Cue(kind='kill', seq=4)
    """
    if rejected is not None:
        return Cue("rejected", rejected)
    if before is None or after.get("seq") == before.get("seq") or after.get("started") != before.get("started"):
        return None  # the first view, the same one again, or a new game: no moment
    seq = after.get("seq") or 0
    for kind, happened in (("kill", _killed), ("critical", _critical_rolled), ("last-turn", _last_turn_began)):
        if happened(before, after):
            return Cue(kind, seq)
    return None


def render_leds(view: Mapping[str, Any], config: LedConfig, *, seats: Sequence[str] = (),
                health: Mapping[str, Mapping[str, Any]] | None = None, cue: Cue | None = None) -> LedFrame:
    """The lights for ``view`` (``arena_table.rules.table_view``) under ``config``.

    Args:
        view: the table view.
        config: the wiring (how many seat LEDs) and brightness.
        seats: the player or team at each seat (:func:`seat_names`); seats past the config's
            LEDs are not shown, LEDs past the names are off.
        health: the device status board, for the status LED (:func:`table_status`).
        cue: the moment to sound (:func:`find_cue`).

    >>> v = {"seq": 7, "view": {"acting": "a", "order": [{"id": "a", "side": "Ann"}, {"id": "b", "side": "Bo", "next": True}]}}
    >>> f = render_leds(v, LedConfig(seat_pins=(17, 27, 22)), seats=["Ann", "Bo"])
    >>> f.seats, f.status, f.status_colour
    (('on', 'blink', 'off'), 'ready', (0.0, 0.6, 0.0))
    """
    n = len(config.seat_pins)
    lights = seat_lights(view, list(seats)[:n])
    status = table_status(view, health)
    scale = config.status_brightness
    colour = tuple(round(c * scale, 6) for c in STATUS_COLOURS[status])
    return LedFrame(lights + ("off",) * (n - len(lights)), status, colour, cue)  # type: ignore[arg-type]
