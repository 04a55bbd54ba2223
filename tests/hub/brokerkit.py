"""A real Mosquitto for the tests: on a free loopback port, with a generated config, killed and
restarted at will (the test setup installs Debian's ``mosquitto``: scripts/test-deps.sh)."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path

import pytest

from arena_table.cli.common import free_port


def mosquitto_binary() -> str:
    path = shutil.which("mosquitto") or next((p for p in ("/usr/sbin/mosquitto",) if os.path.exists(p)), None)
    if path is None:
        if os.environ.get("CI"):
            pytest.fail("mosquitto is not installed (scripts/test-deps.sh installs it)")
        pytest.skip("mosquitto is not installed (apt-get install mosquitto, or scripts/test-deps.sh as root)")
    return path


class Mosquitto:
    """One broker process: on a free loopback port, anonymous clients allowed; or, given
    ``conf_path`` and ``port``, with that config file (``hub init``'s). ``ws_port``: its MQTT over
    WebSockets listener (with the generated config, ``True`` picks a free port), waited for too."""

    def __init__(self, folder: Path, conf_path: Path | None = None, port: int | None = None,
                 ws_port: int | bool | None = None) -> None:
        self.binary = mosquitto_binary()
        self.folder, self.port = folder, port or free_port()
        self.ws_port = free_port() if ws_port is True else (ws_port or None)
        if conf_path is None:
            conf_path = folder / "mosquitto.conf"
            ws = f"listener {self.ws_port} 127.0.0.1\nprotocol websockets\n" if self.ws_port else ""
            conf_path.write_text(f"listener {self.port} 127.0.0.1\n{ws}persistence false\nallow_anonymous true\n")
        if os.geteuid() == 0:  # as root mosquitto turns into user mosquitto, who cannot enter pytest's 0700 folders
            kept = folder / "mosquitto-as-root.conf"
            kept.write_text("user root\n" + conf_path.read_text())
            conf_path = kept
        self.conf_path = conf_path
        self.proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"mqtt://127.0.0.1:{self.port}"

    def start(self) -> "Mosquitto":
        self.proc = subprocess.Popen([self.binary, "-c", str(self.conf_path)], stdout=subprocess.DEVNULL,
                                     stderr=open(self.folder / "mosquitto.log", "ab"))
        deadline = time.monotonic() + 10
        for port in (self.port, self.ws_port) if self.ws_port else (self.port,):
            while True:
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                    break
                except OSError:
                    if self.proc.poll() is not None:
                        raise RuntimeError(f"mosquitto exited: {(self.folder / 'mosquitto.log').read_text()[-500:]}")
                    if time.monotonic() > deadline:
                        raise RuntimeError(f"mosquitto did not listen on {port} within 10 s") from None
                    time.sleep(0.05)
        return self

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(5)
        self.proc = None


def wait_for(predicate, timeout: float = 10.0, what: str = "condition"):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.02)
    raise AssertionError(f"timed out waiting for {what}")
