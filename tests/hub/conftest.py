import pytest
from brokerkit import Mosquitto


@pytest.fixture
def broker(tmp_path):
    """A real mosquitto on a free loopback port, anonymous clients allowed; killed at the end."""
    b = Mosquitto(tmp_path).start()
    yield b
    b.kill()
