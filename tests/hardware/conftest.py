"""Fixtures of the hardware tests: no error logged while a test runs; gpiozero's mock pins,
released after each test."""

import logging

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory, MockPWMPin


@pytest.fixture
def no_errors(caplog):
    caplog.set_level(logging.WARNING)
    yield caplog
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert not errors, [r.getMessage() for r in errors]


class MockLeds:
    """A ``MockFactory`` with PWM pins and the LED drivers a test made on it."""

    def __init__(self) -> None:
        self.factory = MockFactory(pin_class=MockPWMPin)
        self.drivers: list = []

    def driver(self, config):
        from arena_table.hardware.led_driver import LedDriver

        drv = LedDriver(config, self.factory)
        self.drivers.append(drv)
        return drv

    def pin(self, n: int):
        return self.factory.pin(n)


@pytest.fixture
def mock_leds():
    """Mock pins for LED tests: every driver made through it is closed and the factory reset after
    the test, and gpiozero's default factory is put back, so no pin stays reserved for the next."""
    old = Device.pin_factory
    leds = MockLeds()
    Device.pin_factory = leds.factory
    yield leds
    for drv in leds.drivers:
        drv.close()
    leds.factory.reset()
    Device.pin_factory = old


@pytest.fixture
def mock_factory(mock_leds):
    """The fixture's bare ``MockFactory`` (PWM pins), for tests that build devices themselves."""
    return mock_leds.factory
