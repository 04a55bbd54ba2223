"""hardware/README.md and wiring.dot agree with the code they describe (hardware/guide.py)."""

import doctest
import importlib.util
from pathlib import Path

from arena_table.hardware.leds import LedConfig

HARDWARE = Path(__file__).parents[2] / "hardware"
_spec = importlib.util.spec_from_file_location("hardware_guide", HARDWARE / "guide.py")
guide = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(guide)


def test_the_readme_tables_are_what_the_guide_computes():
    text = (HARDWARE / "README.md").read_text(encoding="utf-8")
    assert guide.fill(text) == text, "run: python hardware/guide.py"
    for name in guide.SECTIONS:
        assert f"<!-- guide:{name} -->" in text


def test_the_diagram_source_is_the_default_wiring():
    dot = (HARDWARE / "wiring.dot").read_text(encoding="utf-8")
    assert dot == guide.wiring_dot(), "run: python hardware/guide.py"
    svg = (HARDWARE / "wiring.svg").read_text(encoding="utf-8")
    for pin in LedConfig().seat_pins + LedConfig().status_pins + (LedConfig().buzzer_pin,):
        assert f"GPIO{pin} (pin {guide.PHYSICAL[pin]})" in dot and f"GPIO{pin} (pin {guide.PHYSICAL[pin]})" in svg


def test_the_header_pins_are_the_pis():
    """Spot checks against the Raspberry Pi pinout: GPIO17 is pin 11, GPIO26 pin 37, GPIO12 pin 32,
    GPIO16 pin 36; every BCM GPIO 0-27 appears once, on a pin that is no power or ground pin."""
    assert (guide.PHYSICAL[17], guide.PHYSICAL[26], guide.PHYSICAL[12], guide.PHYSICAL[16]) == (11, 37, 32, 36)
    assert sorted(guide.PHYSICAL) == list(range(28))
    assert not set(guide.PHYSICAL.values()) & (set(guide.GROUND_PINS) | {1, 2, 4, 17})


def test_the_currents_stay_within_the_gpio_budget():
    total = guide.milliamps(*guide.SEAT_LED) * 6 + sum(guide.milliamps(*leg) for leg in guide.STATUS_LEGS.values())
    assert round(total, 1) == 35.5 and total < guide.GPIO_TOTAL_MAX_MA
    assert round(guide.milliamps(2.0, 220), 2) == 5.91  # (3.3 - 2.0) V / 220 Ω


def test_camera_height_by_hand():
    """A 16 mm die on the Camera Module 3 (66°) at 1280 px: the smallest die 0.03 × 1280 = 38.4 px,
    with 25 % head-room 48 px, so the tray seen is 16 × 1280 / 48 = 426.7 mm wide and the camera at most
    426.7 / (2 tan 33°) = 328.5 mm above it."""
    high, wide = guide.camera_fit(16, 66)
    assert (round(wide, 1), round(high, 1)) == (426.7, 328.5)


def test_the_guides_examples_run():
    assert doctest.testmod(guide).failed == 0
