"""The LED driver on gpiozero's mock PWM pins: pin states over time as games are played."""

import threading
import time
from pathlib import Path

import pytest

from arena_table.hardware.led_driver import LedDriver, PinFactoryError, make_pin_factory
from arena_table.hardware.leds import Cue, LedConfig, find_cue, render_leds
from arena_table.rules import apply, new_table, parse, table_view

GOLDEN = Path(__file__).parents[1] / "rules"
SEATS = (17, 27)
STATUS = (12, 13, 19)
BUZZER = 16
FAST = LedConfig(seat_pins=SEATS, status_pins=STATUS, buzzer_pin=BUZZER, blink_on=0.01, blink_off=0.01,
                 beep_on=0.01, beep_off=0.01)


def seen(pins, window: float = 0.12) -> tuple[str, ...]:
    """What each pin did over ``window`` seconds: ``on`` (held high), ``blink`` (went both ways) or
    ``off``, read from the mock pins' recorded states."""
    for p in pins:
        p.clear_states()
    time.sleep(window)
    out = []
    for p in pins:
        values = {s.state for s in p.states}
        out.append("blink" if len(values) > 1 else "on" if values == {1} else "off")
    return tuple(out)


def play(mock_leds, path: Path, first: int, last: int) -> list[tuple[int, tuple[str, ...]]]:
    """Replay a golden transcript, showing each event's frame from ``first`` to ``last``; the seat
    pins' behaviour after each event that changed it."""
    drv = mock_leds.driver(FAST)
    pins = [mock_leds.pin(n) for n in SEATS]
    ts, seq, changes = new_table(), 0, []
    for line in path.read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        seq += 1
        ts = apply(ts, parse(line), seq)
        if seq < first:
            continue
        drv.show(render_leds(table_view(ts), FAST, seats=["Ann", "Bo"]))
        now = seen(pins)
        if not changes or changes[-1][1] != now:
            changes.append((seq, now))
        if seq >= last:
            break
    return changes


def test_a_theosis_turn_lights_the_seats_in_hero_ranking_order(mock_leds):
    """blitz-2p, Preparation's end and combat turn 1: Ann at seat 1, Bo at seat 2."""
    assert play(mock_leds, GOLDEN / "theosis" / "golden" / "blitz-2p.txt", 22, 32) == [
        (22, ("off", "on")),  # Bo allocates gold first
        (23, ("on", "off")),  # then Ann
        (24, ("on", "blink")),  # Hero Ranking: Rochon (Ann) acts, Rac (Bo) next
        (30, ("off", "on")),  # after Norn (Ann): Rac acts, Aer (Bo) follows
        (32, ("on", "off")),  # turn 2: Rochon acts, Norn (Ann) next
    ]


def test_a_demigods_round_lights_the_activation_order(mock_leds):
    """tactics, round 1 (Bo's Protector wins the Demigod roll 3 vs 2): Ann at seat 1, Bo at seat 2."""
    assert play(mock_leds, GOLDEN / "demigods" / "golden" / "tactics.txt", 15, 47) == [
        (15, ("blink", "off")),  # round 1 begins: Ann's Warlord heads the order
        (16, ("blink", "on")),  # Protector (Bo) acts, Warlord (Ann) next
        (19, ("on", "off")),  # Warlord acts, Knight (Ann) next
        (22, ("on", "blink")),  # Knight acts, Assassin (Bo) next
        (25, ("blink", "on")),  # Assassin acts, Black Wolf (Ann) next
        (28, ("on", "off")),  # Black Wolf acts, High Elder (Ann) next
        (30, ("blink", "off")),  # initiative tie: Demigod dice again, High Elder next
        (31, ("blink", "on")),  # Trapper (Bo) acts, High Elder next
        (35, ("on", "off")),  # High Elder acts, Weaponsmith (Ann) next
        (38, ("on", "blink")),  # Weaponsmith acts, Blacksmith (Bo) next
        (42, ("off", "on")),  # Blacksmith, then Gunner: Bo's
        (47, ("blink", "off")),  # round 2: Warlord heads the order again
    ]


def test_status_led_pins_carry_the_colour_at_its_brightness(mock_leds):
    drv = mock_leds.driver(LedConfig(seat_pins=SEATS, status_pins=STATUS, buzzer_pin=None, status_brightness=0.5))
    drv.show(render_leds({"view": {"prompt": "Roll fire"}, "seq": 3}, drv.config))
    assert [mock_leds.pin(n).state for n in STATUS] == [0.5, 0.25, 0]  # amber at half brightness
    drv.show(render_leds({"view": {}, "seq": 4, "tray": {"last": {"seq": 4}}}, drv.config))
    assert [mock_leds.pin(n).state for n in STATUS] == [0, 0, 0.5]  # blue: roll accepted


def test_a_cue_beeps_once_however_often_its_frame_is_shown(mock_leds):
    drv = mock_leds.driver(FAST)
    buzzer = mock_leds.pin(BUZZER)
    frame = render_leds({"view": {}, "seq": 9}, FAST, cue=Cue("kill", 9))
    buzzer.clear_states()
    drv.show(frame)
    drv.show(frame)
    drv.show(render_leds({"view": {"prompt": "Roll fire"}, "seq": 9}, FAST, cue=Cue("kill", 9)))  # amber now
    deadline = time.monotonic() + 5
    while sum(s.state for s in buzzer.states) < 3 and time.monotonic() < deadline:
        time.sleep(0.01)
    time.sleep(0.1)
    assert [s.state for s in buzzer.states] == [False, True, False, True, False, True, False]  # 3 beeps, once
    assert drv.cues == 1 and drv.applied == 2


def test_without_a_buzzer_a_cue_flashes_the_status_led_and_returns_to_its_colour(mock_leds):
    cfg = LedConfig(seat_pins=SEATS, status_pins=STATUS, buzzer_pin=None, beep_on=0.01, beep_off=0.01,
                    status_brightness=1.0)
    drv = mock_leds.driver(cfg)
    red = mock_leds.pin(STATUS[0])
    red.clear_states()
    drv.show(render_leds({"view": {}, "seq": 2}, cfg, cue=Cue("rejected", 3)))  # green, one white flash
    time.sleep(0.2)
    assert [mock_leds.pin(n).state for n in STATUS] == [0, 1, 0]
    assert 1 in [s.state for s in red.states]  # the white flash lit red too


def test_a_thousand_updates_leave_the_threads_bounded(mock_leds):
    """Seat 1 flips between lit and blinking on every update, the worst case for blink threads."""
    drv = mock_leds.driver(FAST)
    lit = {"view": {"acting_side": "Ann", "order": []}, "seq": 1}
    blinking = {"view": {"order": [{"id": "a", "side": "Ann", "next": True}]}, "seq": 1}
    before = threading.active_count()
    most = before
    for i in range(1000):
        drv.show(render_leds(lit if i % 2 else blinking, FAST, seats=["Ann", "Bo"]))
        most = max(most, threading.active_count())
    assert drv.applied == 1000
    assert most <= before + 3  # one blink thread per device at most (two seats and the status LED)
    drv.off()
    assert threading.active_count() <= before


def test_an_unchanged_frame_touches_no_pin(mock_leds):
    drv = mock_leds.driver(FAST)
    frame = render_leds({"view": {"acting_side": "Ann"}, "seq": 1}, FAST, seats=["Ann", "Bo"])
    drv.show(frame)
    pin = mock_leds.pin(SEATS[0])
    pin.clear_states()
    for _ in range(50):
        drv.show(frame)
    assert len(pin.states) == 1 and drv.applied == 1


def test_closing_releases_every_pin(mock_leds):
    with LedDriver(FAST, mock_leds.factory):
        pass
    LedDriver(FAST, mock_leds.factory).close()  # the same pins again: not "in use"


def test_a_pin_in_use_closes_what_was_made():
    from gpiozero.exc import GPIOPinInUse
    from gpiozero import LED

    factory = make_pin_factory("mock")
    taken = LED(BUZZER, pin_factory=factory)
    with pytest.raises(GPIOPinInUse):
        LedDriver(FAST, factory)
    taken.close()
    LedDriver(FAST, factory).close()  # the seats and status pins were given back
    factory.reset()


def test_lgpio_off_a_pi_is_a_clear_error():
    try:
        import lgpio  # noqa: F401
    except ImportError:
        with pytest.raises(PinFactoryError, match="python3-lgpio"):
            make_pin_factory("lgpio")
    else:  # installed but no GPIO chip here
        with pytest.raises(PinFactoryError, match="lgpio failed"):
            make_pin_factory("lgpio")
    with pytest.raises(ValueError, match="expected 'lgpio' or 'mock'"):
        make_pin_factory("rpigpio")


def test_replayed_cues_sound_on_the_pins(mock_leds):
    """Demigods tactics to its first kill: the buzzer sounds each Critical die (2 beeps: the bludgeoning,
    piercing, fire and piercing dice of events 25, 27, 30 and 34) and the kill (3: Black Wolf)."""
    drv = mock_leds.driver(FAST)
    buzzer = mock_leds.pin(BUZZER)
    ts, before, beeps = new_table(), None, []
    path = GOLDEN / "demigods" / "golden" / "tactics.txt"
    lines = [ln for ln in path.read_text().splitlines() if ln.strip() and not ln.startswith("#")]
    for seq, line in enumerate(lines[:35], 1):
        ts = apply(ts, parse(line), seq)
        view = table_view(ts)
        cue = find_cue(before, view)
        before = view
        if seq < 24:
            continue
        buzzer.clear_states()
        drv.show(render_leds(view, FAST, seats=["Ann", "Bo"], cue=cue))
        time.sleep(0.15)
        n = sum(1 for s in buzzer.states if s.state)
        if n:
            beeps.append((seq, n))
    assert beeps == [(25, 2), (27, 2), (30, 2), (34, 2), (35, 3)]
