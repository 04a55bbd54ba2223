"""The lights as a device of the table: they follow the engine, and a missing or failing pin factory
leaves them off while the game runs on, with the reason on /api/state and the control page."""

import time

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin

from arena_table.hardware.leds import LedConfig
from arena_table.rules import DiceRolled, GameStarted, Refused, parse
from arena_table.table.app import Table
from arena_table.table.config import CameraSettings, DataSettings, LedSettings, TableConfig, WebSettings
from arena_table.table.leds import LedOutput

PIN = "246810"
WIRING = {"seat_pins": [17, 27], "status_pins": [12, 13, 19], "buzzer_pin": 16, "blink_on": 0.01, "blink_off": 0.01,
          "beep_on": 0.01, "beep_off": 0.01}
LINEUP = {"Ann": {"demigod": "warlord", "heroes": ["knight", "black-wolf", "weaponsmith"]},
          "Bo": {"demigod": "protector", "heroes": ["pegasus-knight", "trapper", "blacksmith"]}}


def wait_for(pred, timeout: float = 5.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = pred()
        if value:
            return value
        time.sleep(0.01)
    raise AssertionError("timed out")


def leds_of(table: Table) -> LedOutput:
    return next(d for d in table.devices if isinstance(d, LedOutput))


def test_the_lights_follow_the_engine(tmp_path):
    cfg = TableConfig(data=DataSettings(db=tmp_path / "t.db"), camera=CameraSettings(source="none"),
                      leds=LedSettings(kind="mock", **WIRING))
    with Table(cfg) as table:
        table.submit(GameStarted(game="demigods", options={"players": ["Ann", "Bo"], "lineup": LINEUP}))
        table.submit(parse("roll die=dg-demigod faces=[2,5]"))  # Bo's Demigod acts first, Ann's next
        status = wait_for(lambda: (table.status().get("leds", {}).get("seats") == {"Ann": "blink", "Bo": "on"})
                          and table.status()["leds"])
        assert status["state"] == "ok" and status["factory"] == "mock" and status["status_light"] == "accepted"
        seat = leds_of(table).driver.seats[1]
        assert seat.pin.state == 1  # Bo's seat LED, on the mock pins


def test_a_refused_move_sounds_the_buzzer(tmp_path):
    cfg = TableConfig(data=DataSettings(db=tmp_path / "t.db"), camera=CameraSettings(source="none"),
                      leds=LedSettings(kind="mock", **WIRING))
    with Table(cfg) as table:
        out = leds_of(table)
        wait_for(lambda: out.driver.applied)
        with pytest.raises(Refused):
            table.submit(parse("dg-begin"))  # the dice tray has no such event
        wait_for(lambda: out.driver.cues == 1)
        buzzer = out.driver.buzzer.pin
        wait_for(lambda: sum(1 for s in buzzer.states if s.state) == 1)  # one beep: a refusal


def test_no_pin_factory_leaves_the_lights_off_and_the_game_running(tmp_path):
    """``--leds gpio`` here: no lgpio, or no GPIO chip. A clear message, never a crash."""
    from arena_table.webui.app import create_app, shutdown

    cfg = TableConfig(data=DataSettings(db=tmp_path / "t.db"), camera=CameraSettings(source="none"),
                      leds=LedSettings(kind="gpio"), web=WebSettings(pin=PIN))
    with Table(cfg) as table:
        leds = table.status()["leds"]
        assert leds["state"] == "unavailable" and "lgpio" in leds["detail"] and leds["detail"].startswith("LEDs off")
        assert table.submit(DiceRolled(faces=(4,))) >= 1
        app = create_app(table, {"heartbeat": 0.3})
        try:
            state = wait_for(lambda: app.test_client().get("/api/state").get_json()["state"].get("status", {}).get("leds"))
            assert state["state"] == "unavailable"
        finally:
            shutdown(app)


class FlakyPin(MockPWMPin):
    """A mock PWM pin that fails like a GPIO chip gone away once ``broken`` is set."""

    broken = False

    def _set_state(self, value):
        if FlakyPin.broken:
            raise OSError(5, "Input/output error")
        super()._set_state(value)


# gpiozero's blink thread of a seat LED dies with the chip too (as on a Pi); the driver is closed after it
@pytest.mark.filterwarnings("ignore::pytest.PytestUnhandledThreadExceptionWarning")
def test_a_pin_factory_failing_while_running_keeps_the_service_up(tmp_path):
    from arena_table.webui.app import create_app, shutdown

    FlakyPin.broken = False
    factory = MockFactory(pin_class=FlakyPin)
    with Table(TableConfig(data=DataSettings(db=tmp_path / "t.db"), camera=CameraSettings(source="none"),
                           web=WebSettings(pin=PIN))) as table:
        out = LedOutput(table.ports("leds"), LedConfig(**{k: tuple(v) if isinstance(v, list) else v for k, v in WIRING.items()}),
                        factory=lambda: factory)
        table.devices.append(out.start())
        app = create_app(table, {"heartbeat": 0.3})
        client = app.test_client()
        try:
            table.submit(GameStarted(game="demigods", options={"players": ["Ann", "Bo"], "lineup": LINEUP}))
            wait_for(lambda: table.status()["leds"].get("seats"))
            FlakyPin.broken = True  # the chip goes away
            table.submit(parse("roll die=dg-demigod faces=[2,5]"))  # Bo's Protector acts first
            leds = wait_for(lambda: table.status()["leds"]["state"] == "unavailable" and table.status()["leds"])
            assert "OSError" in leds["detail"] and "Input/output error" in leds["detail"]
            assert out.driver is None and out.problem == leds["detail"]
            # the game goes on: the next events are recorded and shown
            seq = table.submit(parse("dg-enter who=protector"))
            assert table.state.seq == seq
            wait_for(lambda: client.get("/api/state").get_json()["version"] == seq)
            body = client.get("/api/state").get_json()
            assert body["state"]["status"]["leds"]["state"] == "unavailable"
            _login(client)
            page = client.get("/control").get_data(as_text=True)
            assert 'leds: <span class="state">unavailable</span> — LEDs off after a failure: OSError' in page
        finally:
            FlakyPin.broken = False
            shutdown(app)
            factory.reset()


def _login(client) -> None:
    token = client.get("/api/session").get_json()["csrf"]
    assert client.post("/login", json={"pin": PIN}, headers={"X-CSRF-Token": token}).status_code == 200


def test_seats_follow_the_setup_order_not_the_turn_order(tmp_path):
    """A new user's audit: with no seats configured, seat 1 was whoever led the turn order, so a
    player's LED moved to another seat when the order changed (Bo's Demigod first here)."""
    cfg = TableConfig(data=DataSettings(db=tmp_path / "t.db"), camera=CameraSettings(source="none"),
                      leds=LedSettings(kind="mock", **WIRING))
    with Table(cfg) as table:
        table.submit(GameStarted(game="demigods", options={"players": ["Ann", "Bo"], "lineup": LINEUP}))
        table.submit(parse("roll die=dg-demigod faces=[2,5]"))
        seats = wait_for(lambda: table.status()["leds"].get("seats"))
        assert list(seats) == ["Ann", "Bo"]


def test_run_takes_leds_and_seats(tmp_path, capsys):
    import socket

    from arena_table.cli import main

    with socket.socket() as s:  # a free port: another table may hold the default one
        s.bind(("127.0.0.1", 0))
        port = str(s.getsockname()[1])
    assert main(["run", "--seats", "Ann,Bo", "--port", port, "--db", str(tmp_path / "t.db")]) == 2
    assert "give --leds gpio or --leds mock too" in capsys.readouterr().err
    assert main(["run", "--leds", "mock", "--seats", "Ann,Ann", "--port", port, "--db", str(tmp_path / "t.db")]) == 2
    assert "1 to 6 distinct comma-separated names" in capsys.readouterr().err


def test_a_thousand_state_updates_through_the_table_leave_the_threads_bounded(tmp_path):
    """The table's LED output fed 1,000 states as fast as they come (two Demigods states whose seats
    swap between lit and blinking): its one worker keeps the newest, the driver's blink threads stop
    and start, and the live threads stay bounded."""
    import threading

    from arena_table.rules import replay

    start = GameStarted(game="demigods", options={"players": ["Ann", "Bo"], "lineup": LINEUP})
    a = replay([start, parse("roll die=dg-demigod faces=[2,5]")])  # Bo acts, Ann next
    b = replay([start, parse("roll die=dg-demigod faces=[5,2]")])  # Ann acts, Bo next
    cfg = TableConfig(data=DataSettings(db=tmp_path / "t.db"), camera=CameraSettings(source="none"),
                      leds=LedSettings(kind="mock", **WIRING))
    with Table(cfg) as table:
        out = leds_of(table)
        wait_for(lambda: out.driver.applied)
        before = threading.active_count()
        most = before
        for i in range(1000):
            out._offer(state=a if i % 2 else b)
            most = max(most, threading.active_count())
        wait_for(lambda: table.status()["leds"].get("seats") == {"Ann": "blink", "Bo": "on"})
        assert most <= before + 3  # a blink thread per device at most (two seats, the status LED's flash)
        assert out.driver.applied <= 1001 and threading.active_count() <= before + 2
