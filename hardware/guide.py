"""The figures of ``hardware/README.md``, computed: the wiring table from the lights' default pins,
the LED currents, the camera heights from the die size the reader needs, and the wiring diagram's
Graphviz source.

``python hardware/guide.py`` rewrites the README's generated sections and ``wiring.dot`` (and
``wiring.svg`` where Graphviz's ``dot`` is installed); ``tests/hardware/test_guide.py`` checks
that they agree with this file.
"""

from __future__ import annotations

import math
import re
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE.parent))

from arena_table.hardware.leds import LedConfig  # noqa: E402
from arena_table.vision.dice import DiceConfig  # noqa: E402

PHYSICAL = {2: 3, 3: 5, 4: 7, 14: 8, 15: 10, 17: 11, 18: 12, 27: 13, 22: 15, 23: 16, 24: 18, 10: 19, 9: 21, 25: 22,
            11: 23, 8: 24, 7: 26, 0: 27, 1: 28, 5: 29, 6: 31, 12: 32, 13: 33, 19: 35, 16: 36, 26: 37, 20: 38, 21: 40}
"""BCM GPIO number -> physical pin of the 40-pin header (every Pi since the B+, Pi 4 and Pi 5 alike)."""
GROUND_PINS = (6, 9, 14, 20, 25, 30, 34, 39)

GPIO_VOLTS = 3.3
GPIO_PIN_MAX_MA = 16.0
GPIO_TOTAL_MAX_MA = 50.0
"""The Pi's GPIO budget: 16 mA a pin at most, about 50 mA for all pins together."""

SEAT_LED = (2.0, 330)
STATUS_LEGS = {"red": (2.0, 220), "green": (3.0, 100), "blue": (3.0, 100)}
"""(typical forward volts, series resistor ohms) of a seat LED (red, amber or yellow, 5 mm) and of each
leg of the RGB status LED (common cathode): green and blue leave little of 3.3 V, so a smaller resistor."""

LENSES = (("Camera Module 3", 66.0), ("Camera Module 3 Wide", 102.0), ("USB webcam (typical)", 70.0))
"""Horizontal field of view, degrees (the makers' data sheets; a webcam's varies: check yours)."""
DIE_SIDES_MM = (12.0, 16.0)
"""A small d6 (many games' dice) and the standard 16 mm d6."""
CAPTURE_WIDTH_PX = 1280
"""The capture width the table reads dice at (``vision/capture.py``'s default 1280x720)."""
MARGIN = 1.25
"""Head-room over the reader's smallest die: lens distortion and a tilted die shrink the face at the edges."""


def milliamps(volts_forward: float, ohms: float) -> float:
    """Current through an LED and its resistor from a 3.3 V GPIO, mA.

    >>> round(milliamps(2.0, 330), 1)
    3.9
    """
    return max(GPIO_VOLTS - volts_forward, 0.0) / ohms * 1000


def smallest_die_px(width_px: int = CAPTURE_WIDTH_PX) -> float:
    """The smallest die side the reader looks for at ``width_px`` (``DiceConfig.auto_size_fraction``)."""
    return DiceConfig().auto_size_fraction[0] * width_px


def camera_fit(die_mm: float, hfov_deg: float, width_px: int = CAPTURE_WIDTH_PX, margin: float = MARGIN) -> tuple[float, float]:
    """``(highest camera mm, widest tray mm)``: the camera straight above the tray at most this high
    keeps a ``die_mm`` die at least ``margin`` x the reader's smallest side; the tray it then sees is
    this wide (whatever the lens: a wider lens only brings the camera lower).

    >>> h, w = camera_fit(16, 66)
    >>> round(h), round(w)
    (329, 427)
    """
    need_px = smallest_die_px(width_px) * margin
    widest = die_mm * width_px / need_px
    return widest / (2 * math.tan(math.radians(hfov_deg) / 2)), widest


def wiring_rows(cfg: LedConfig = LedConfig()) -> list[tuple[str, str, str, str]]:
    """``(GPIO, physical pin, part, resistor)`` for each wired part of ``cfg``."""
    rows = [(f"GPIO{pin}", str(PHYSICAL[pin]), f"seat {i} LED anode (+)", f"{SEAT_LED[1]} Ω")
            for i, pin in enumerate(cfg.seat_pins, 1)]
    for (leg, (_, ohm)), pin in zip(STATUS_LEGS.items(), cfg.status_pins or ()):
        rows.append((f"GPIO{pin}", str(PHYSICAL[pin]), f"status LED {leg} leg", f"{ohm} Ω"))
    if cfg.buzzer_pin is not None:
        rows.append((f"GPIO{cfg.buzzer_pin}", str(PHYSICAL[cfg.buzzer_pin]),
                     "buzzer: NPN transistor base (BC337 or 2N2222)", "1 kΩ"))
    rows.append(("GND", ", ".join(map(str, GROUND_PINS[:3])), "LED cathodes (−), status LED common cathode, "
                 "transistor emitter", "—"))
    rows.append(("5V", "2", "active buzzer (+); its (−) to the transistor's collector", "—"))
    rows.append(("USB", "any USB port", "token-reader Raspberry Pi Pico (firmware/README.md), /dev/ttyACM0", "—"))
    return rows


def table(header: tuple[str, ...], rows: list[tuple[str, ...]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    return "\n".join(lines + ["| " + " | ".join(r) + " |" for r in rows])


def wiring_table(cfg: LedConfig = LedConfig()) -> str:
    return table(("GPIO (BCM)", "physical pin", "part", "resistor"), wiring_rows(cfg))


def current_table(cfg: LedConfig = LedConfig()) -> str:
    """Each LED's current and the total with every LED lit, against the Pi's budget."""
    rows, total = [], 0.0
    parts = [("seat LED (red, amber or yellow, 5 mm)", SEAT_LED, len(cfg.seat_pins))]
    parts += [(f"status LED {leg} leg", legs, 1) for leg, legs in STATUS_LEGS.items() if cfg.status_pins]
    for part, (vf, ohm), count in parts:
        ma = milliamps(vf, ohm)
        total += ma * count
        rows.append((part, f"{vf:.1f} V", f"{ohm} Ω", f"{ma:.1f} mA" + (f" × {count}" if count > 1 else "")))
    rows.append(("all lit at once", "", "", f"{total:.1f} mA (the Pi allows ~{GPIO_TOTAL_MAX_MA:.0f} mA in all, "
                 f"{GPIO_PIN_MAX_MA:.0f} mA a pin)"))
    return table(("LED", "forward voltage", "resistor", "current"), rows)


def camera_table() -> str:
    rows = []
    for die in DIE_SIDES_MM:
        for lens, fov in LENSES:
            high, wide = camera_fit(die, fov)
            rows.append((f"{die:.0f} mm", f"{lens} ({fov:.0f}°)", f"{high / 10:.0f} cm", f"{wide / 10:.0f} cm"))
    return table(("die side", "lens (horizontal view)", "camera at most", "tray it sees, wide"), rows)


def wiring_dot(cfg: LedConfig = LedConfig()) -> str:
    """Graphviz source of the wiring diagram (``wiring.dot``)."""
    out = ["// generated by hardware/guide.py: edit that, not this", "graph wiring {",
           '  rankdir=LR; node [shape=box, fontname="DejaVu Sans", fontsize=11]; edge [fontname="DejaVu Sans", fontsize=9];',
           '  pi [label="Raspberry Pi 4 / 5\\n40-pin header", shape=box3d];',
           '  gnd [label="GND\\n(pins 6, 9, 14 ...)", shape=ellipse];',
           '  pico [label="Raspberry Pi Pico\\ntoken reader"];', '  cam [label="Camera Module 3\\nor USB webcam"];',
           '  pi -- pico [label="USB"]; pi -- cam [label="CSI ribbon / USB"];']
    for i, pin in enumerate(cfg.seat_pins, 1):
        out.append(f'  seat{i} [label="seat {i} LED"]; r{i} [label="{SEAT_LED[1]} Ω", shape=plain];')
        out.append(f'  pi -- r{i} [label="GPIO{pin} (pin {PHYSICAL[pin]})"]; r{i} -- seat{i}; seat{i} -- gnd;')
    if cfg.status_pins:
        out.append('  status [label="status LED\\nRGB, common cathode"];')
        for (leg, (_, ohm)), pin in zip(STATUS_LEGS.items(), cfg.status_pins):
            out.append(f'  rs_{leg} [label="{ohm} Ω", shape=plain]; pi -- rs_{leg} [label="GPIO{pin} (pin {PHYSICAL[pin]}) {leg}"]; '
                       f'rs_{leg} -- status;')
        out.append("  status -- gnd;")
    if cfg.buzzer_pin is not None:
        out.append('  q [label="NPN transistor\\nBC337 / 2N2222"]; rb [label="1 kΩ", shape=plain]; buzzer [label="active buzzer"];')
        out.append(f'  pi -- rb [label="GPIO{cfg.buzzer_pin} (pin {PHYSICAL[cfg.buzzer_pin]})"]; rb -- q [label="base"]; '
                   'q -- gnd [label="emitter"]; buzzer -- q [label="collector"]; pi -- buzzer [label="5V (pin 2)"];')
    out.append("}")
    return "\n".join(out) + "\n"


SECTIONS = {"wiring": wiring_table, "currents": current_table, "camera": camera_table}
"""README sections between ``<!-- guide:NAME -->`` and ``<!-- /guide:NAME -->``, and what fills them."""


def fill(readme: str) -> str:
    """``readme`` with each generated section replaced by what this file computes now."""
    for name, make in SECTIONS.items():
        readme = re.sub(rf"(<!-- guide:{name} -->\n).*?(\n<!-- /guide:{name} -->)",
                        lambda m: m.group(1) + make() + m.group(2), readme, flags=re.S)
    return readme


def main() -> int:
    readme = HERE / "README.md"
    readme.write_text(fill(readme.read_text(encoding="utf-8")), encoding="utf-8")
    (HERE / "wiring.dot").write_text(wiring_dot(), encoding="utf-8")
    if shutil.which("dot"):
        subprocess.run(["dot", "-Tsvg", str(HERE / "wiring.dot"), "-o", str(HERE / "wiring.svg")], check=True)
    else:
        print("guide: no Graphviz 'dot' (apt install graphviz): wiring.svg not redrawn", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
