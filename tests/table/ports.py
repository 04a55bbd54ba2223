"""A free TCP port for a test's ``arena-table run``, so a table already serving the default port
8000 on the machine (``make run``) does not fail the test."""

from __future__ import annotations

import socket


def free_port() -> int:
    """A port on 127.0.0.1 nobody listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]
