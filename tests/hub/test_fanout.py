"""The hub's asyncio stream server (hub/server.py, hub/fanout.py) over real sockets: every client
gets the same frames in publish order, and a client that stops reading is shed without holding
up the others. Frames are published on the wall's channel (``/events``) as the wall's thread does;
no broker is needed (the feed is never started)."""

import re
import signal
import socket
import subprocess
import sys
import threading
import time

import pytest

from arena_table.cli.common import free_port
from arena_table.hub.feed import Feed
from arena_table.hub.server import HubServer, wait_running
from arena_table.hub.topics import Broker
from arena_table.hub.wall import WALL, create_wall_app

NUMBER = re.compile(rb'"n":(\d+)')


@pytest.fixture
def hub():
    app = create_wall_app(Feed(Broker("127.0.0.1", 1)), max_clients=100)
    server = HubServer(app, "127.0.0.1", 0)
    threading.Thread(target=server.run, daemon=True).start()
    wait_running(server)
    yield server
    server.close()


def open_stream(server, rcvbuf=None):
    s = socket.socket()
    if rcvbuf:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    s.connect(("127.0.0.1", server.effective_port))
    s.sendall(b"GET /events HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n")
    return s


def read_numbers(s, last, timeout=30.0, got=None):
    """The frame numbers read from ``s`` until frame ``last``; ``got`` (a list) receives them as they come."""
    got = [] if got is None else got
    buf, head, deadline = b"", True, time.monotonic() + timeout
    s.settimeout(timeout)
    while not got or got[-1] < last:
        assert time.monotonic() < deadline, f"frame {last} did not come; got up to {got[-1:] or None}"
        chunk = s.recv(65536)
        assert chunk, f"the server closed the stream after {got[-1:] or None}"
        buf += chunk
        if head:
            if b"\r\n\r\n" not in buf:
                continue
            status, buf = buf.split(b"\r\n", 1)[0], buf.split(b"\r\n\r\n", 1)[1]
            assert status == b"HTTP/1.1 200 OK"
            head = False
        *blocks, buf = buf.split(b"\n\n")
        got.extend(int(m.group(1)) for m in map(NUMBER.search, blocks) if m)
    return got


def frame(n, pad=0):
    return b'event: tiles\ndata: {"n":%d,"pad":"%s"}\n\n' % (n, b"x" * pad)


def wait_clients(server, n):
    deadline = time.monotonic() + 10
    while server.fanout.clients != n:
        assert time.monotonic() < deadline, f"{server.fanout.clients} streams held, not {n}"
        time.sleep(0.02)


def test_every_client_gets_the_same_frames_in_order(hub):
    clients = [open_stream(hub) for _ in range(40)]
    wait_clients(hub, 40)
    for n in range(1, 201):
        hub.fanout.publish(WALL, frame(n, pad=n % 7 * 100))
    for s in clients:
        assert read_numbers(s, 200) == list(range(1, 201))  # the first message, the empty wall, has no "n"
        s.close()
    wait_clients(hub, 0)
    late = open_stream(hub)  # a newcomer starts from the current frame
    assert read_numbers(late, 200) == [200]
    late.close()


def test_a_stalled_client_is_shed_without_delaying_the_others(hub):
    hub.fanout.stall_s, hub.fanout.high_water = 8.0, 1024 * 1024
    stalled = open_stream(hub, rcvbuf=4096)  # connected, never reads
    slow = open_stream(hub, rcvbuf=4096)  # reads only after the burst: skips to the newest frames
    fast = [open_stream(hub) for _ in range(6)]
    wait_clients(hub, 8)
    last, got = 300, [[] for _ in fast]
    readers = [threading.Thread(target=read_numbers, args=(s, last, 60.0, g), daemon=True) for s, g in zip(fast, got)]
    for r in readers:
        r.start()
    t0 = time.monotonic()
    for n in range(1, last + 1):
        hub.fanout.publish(WALL, frame(n, pad=32 * 1024))  # 9.6 MB in all: far beyond the stalled one's buffers
        time.sleep(0.002)  # 16 MB/s: what a reading client keeps up with, however loaded the machine
    for r in readers:
        r.join(60)
    took = time.monotonic() - t0
    assert all(g == list(range(1, last + 1)) for g in got)  # every frame, in order, to every reader
    assert hub.fanout.shed == 0 and hub.fanout.clients == 8  # ... while the stalled one was still held
    assert took < hub.fanout.stall_s
    seen = read_numbers(slow, last)
    assert seen == sorted(set(seen)) and seen[-1] == last and len(seen) < last  # skipped to the newest, in order
    deadline = time.monotonic() + hub.fanout.stall_s + 5
    while hub.fanout.shed == 0:
        assert time.monotonic() < deadline, "the stalled client was never shed"
        time.sleep(0.05)
    assert hub.fanout.shed == 1
    wait_clients(hub, 7)
    with pytest.raises((AssertionError, ConnectionError)):  # what it had buffered, then the end
        read_numbers(stalled, last, timeout=10)
    for s in [stalled, slow, *fast]:
        s.close()


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_arena_table_hub_ends_cleanly_on_a_signal_with_streams_open(tmp_path, sig):
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "arena_table.cli", "hub", "--broker", "mqtt://127.0.0.1:1",
                             "--port", str(port), "--results", str(tmp_path / "r.db")],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert f"the wall at http://127.0.0.1:{port}/" in proc.stdout.readline()
        streams = [open_stream(type("S", (), {"effective_port": port})) for _ in range(3)]
        assert all(s.recv(4096).startswith(b"HTTP/1.1 200 OK") for s in streams)
        proc.send_signal(sig)
        assert proc.wait(15) == 0
        assert "Traceback" not in proc.stderr.read()
        for s in streams:  # the hub closed them on its way out: what was sent, then the end
            s.settimeout(10)
            while s.recv(65536):
                pass
    finally:
        if proc.poll() is None:
            proc.kill()


def test_arena_table_hub_makes_room_for_its_streams_under_a_low_open_files_limit(tmp_path):
    import resource

    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    if hard != resource.RLIM_INFINITY and hard < 600:
        pytest.skip(f"the hard open-files limit here is {hard}")
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "arena_table.cli", "hub", "--broker", "mqtt://127.0.0.1:1",
                             "--port", str(port), "--results", str(tmp_path / "r.db"), "--max-clients", "300"],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                            preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_NOFILE, (64, hard)))
    streams = []
    try:
        assert "the wall at" in proc.stdout.readline()
        streams = [open_stream(type("S", (), {"effective_port": port})) for _ in range(200)]  # 64 would refuse most
        for s in streams:
            s.settimeout(10)
            assert s.recv(4096).startswith(b"HTTP/1.1 200 OK")
    finally:
        for s in streams:
            s.close()
        proc.send_signal(signal.SIGTERM)
        proc.wait(15)
