"""Seat LEDs: the pure projection and the gpiozero driver on MockFactory PWM pins."""

import time

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory, MockPWMPin

from arena_table.hardware.leds import ACTING, NEXT, OFF, WINNER, SeatLeds, render_leds


@pytest.fixture
def mock_factory():
    old = Device.pin_factory
    factory = MockFactory(pin_class=MockPWMPin)
    Device.pin_factory = factory
    yield factory
    factory.reset()
    Device.pin_factory = old


VIEW = {"view": {"acting": "rochon", "order": [
    {"id": "salazar", "side": "Bo", "next": True},
    {"id": "rochon", "side": "Ann"},
    {"id": "mira", "side": "Cy", "out": True},
]}}


def test_acting_and_next_seats():
    frame = render_leds(VIEW, ["Ann", "Bo", "Cy"])
    assert frame.seats == (ACTING, NEXT, OFF)


def test_outcome_lights_the_winners_only():
    frame = render_leds({**VIEW, "outcome": {"winners": ["Cy"], "reason": "last team standing"}}, ["Ann", "Bo", "Cy"])
    assert frame.seats == (OFF, OFF, WINNER)


def test_no_game_view_means_all_off():
    assert render_leds({"view": {}}, ["Ann", "Bo"]).seats == (OFF, OFF)


def test_driver_sets_pwm_pins_and_skips_unchanged_frames(mock_factory):
    with SeatLeds([(17, 27, 22), (5, 6, 13)], pin_factory=mock_factory) as leds:
        frame = render_leds(VIEW, ["Ann", "Bo"])
        leds.show(frame)
        leds.show(frame)
        assert leds.applied == 1
        pins = {n: mock_factory.pin(n).state for n in (17, 27, 22, 5, 6, 13)}
        assert pins == {17: 0, 27: 1, 22: 0, 5: pytest.approx(0.2), 6: pytest.approx(0.12), 13: 0}


def test_led_output_follows_the_engine(tmp_path, mock_factory):
    from arena_table.table.app import Table, TableConfig

    cfg = TableConfig(db=tmp_path / "t.db", camera=None, leds="mock", extra={"led_seats": [(17, 27, 22)]})
    with Table(cfg) as table:
        from arena_table.rules import DiceRolled

        table.submit(DiceRolled(faces=(3,)))
        deadline = time.monotonic() + 5
        while table.status().get("leds", {}).get("state") != "ok" and time.monotonic() < deadline:
            time.sleep(0.01)
        assert table.status()["leds"]["state"] == "ok"


def test_seats_follow_the_setup_order_not_the_turn_order(tmp_path, mock_factory):
    """A new user's audit: with no seats configured, seat 1 was whoever led the turn order, so a
    player's LED moved to another seat when the order changed (Bo's Demigod first here)."""
    from arena_table.rules import GameStarted, parse, table_view
    from arena_table.table.app import Table, TableConfig
    from arena_table.table.leds import LedOutput

    lineup = {"Ann": {"demigod": "warlord", "heroes": ["knight", "black-wolf", "weaponsmith"]},
              "Bo": {"demigod": "protector", "heroes": ["pegasus-knight", "trapper", "blacksmith"]}}
    with Table(TableConfig(db=tmp_path / "t.db", camera=None)) as table:
        table.submit(GameStarted(game="demigods", options={"players": ["Ann", "Bo"], "lineup": lineup}))
        table.submit(parse("roll die=dg-demigod faces=[2,5]"))  # Bo's Demigod acts first
        view = table_view(table.state)
        assert view["view"]["order"][0]["side"] == "Bo"
        out = LedOutput(table, SeatLeds([(17, 27, 22), (5, 6, 13)], pin_factory=mock_factory))
        assert out._seats_for(view) == ["Ann", "Bo"]
        assert render_leds(view, out._seats_for(view)).seats == (NEXT, ACTING)  # Ann acts next
        out.leds.close()


def test_run_takes_leds_and_seats(tmp_path, capsys):
    from arena_table.cli import main

    assert main(["run", "--seats", "Ann,Bo", "--db", str(tmp_path / "t.db")]) == 2
    assert "give --leds gpio or --leds mock too" in capsys.readouterr().err
    assert main(["run", "--leds", "mock", "--seats", "Ann,Ann", "--db", str(tmp_path / "t.db")]) == 2
    assert "1 to 6 distinct comma-separated names" in capsys.readouterr().err


def test_the_player_placing_a_hero_in_hierapolis_is_lit():
    """A new user's audit: in Theosis's Preparation phase no hero acts, so no seat was lit though the
    prompt named the player who must place a hero (p.11)."""
    from arena_table.rules import GameStarted, replay, table_view

    ts = replay([GameStarted(game="theosis", options={"players": ["Ann", "Bo"], "mode": "blitz",
                                                      "heroes": {"Ann": ["rochon", "norn"], "Bo": ["rac", "aer"]}})])
    view = table_view(ts)
    who = view["view"]["acting_side"]
    assert who in ("Ann", "Bo") and view["view"]["prompt"].startswith(f"{who}: place a hero")
    seats = view["view"]["sides"]
    assert render_leds(view, seats).seats == tuple(ACTING if s == who else OFF for s in seats)
