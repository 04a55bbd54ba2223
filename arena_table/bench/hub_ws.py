"""Spectators subscribed to the broker over MQTT over WebSockets, the path a page on the hub may take
instead of the hub's SSE (issue 34, item 3): the broker fans each view out, the hub serves no stream.

Processes on loopback: a Mosquitto broker with an MQTT and a websockets listener, a table service
(``arena-table run --publish``), ``procs`` spectator processes each holding its share of the
``clients`` on one asyncio loop (:func:`ws_spectators`), and the operator (this process), which posts rolls to the table and times when each
spectator reads the table's retained ``view`` carrying that version.

Latency: POST sent -> the view message at or past its version read by a spectator, over every
event x client (``CLOCK_MONOTONIC`` is one clock for every process). ``rss_mb``: the broker's
resident memory with the connections held; ``broker_cpu_s``: its CPU while the events went out.
A spectator subscribes as the hub's page does: QoS 0 (each view is a whole snapshot; a lost one is
superseded by the next, and a reconnect gets the retained one).
"""

from __future__ import annotations

import asyncio
import base64
import json
import os
import queue
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from arena_table.cli.common import free_port

from .hub import CLIENTS_A_PROCESS, DRAIN_S, PHASE_TIMEOUT_S, PhaseTimeout, _latencies, _post_rolls
from .web import _Http, _percentile, wait_ready

VIEW_TOPIC = "arena-table/bench/view"
"""The bench table's view (``--table-id bench``), what the hub's page subscribes to."""

_VERSION = re.compile(rb'\{"table": "[^"]*", "epoch": "?[^,]*, "version": (\d+)')
"""The version at the head of a view message (``publish.py`` writes table, epoch, version first);
``match``ed at the payload's offset."""


def _mosquitto() -> str:
    found = shutil.which("mosquitto") or ("/usr/sbin/mosquitto" if Path("/usr/sbin/mosquitto").exists() else None)
    if found is None:
        raise RuntimeError("mosquitto is not installed (Debian: apt-get install mosquitto)")
    return found


def broker_config(port: int, ws_port: int) -> str:
    """A loopback broker for the bench: MQTT on ``port`` (the table), websockets on ``ws_port``.

    >>> print(broker_config(1883, 9001))
    listener 1883 127.0.0.1
    listener 9001 127.0.0.1
    protocol websockets
    allow_anonymous true
    persistence false
    max_queued_messages 10000
    <BLANKLINE>
    """
    return (f"listener {port} 127.0.0.1\nlistener {ws_port} 127.0.0.1\nprotocol websockets\n"
            "allow_anonymous true\npersistence false\nmax_queued_messages 10000\n")


def mqtt_connect(client_id: str) -> bytes:
    """An MQTT 3.1.1 CONNECT: clean session, no keep-alive (the bench ends long before a broker
    would miss a ping), no credentials (a spectator is anonymous).

    >>> mqtt_connect("a").hex()
    '100d00044d51545404020000000161'
    """
    cid = client_id.encode()
    body = b"\x00\x04MQTT\x04\x02\x00\x00" + len(cid).to_bytes(2, "big") + cid
    return bytes([0x10, len(body)]) + body


def mqtt_subscribe(name: str, packet_id: int = 1) -> bytes:
    """An MQTT 3.1.1 SUBSCRIBE to one topic filter at QoS 0.

    >>> mqtt_subscribe("a/b").hex()
    '820800010003612f6200'
    """
    t = name.encode()
    body = packet_id.to_bytes(2, "big") + len(t).to_bytes(2, "big") + t + b"\x00"
    return bytes([0x82, len(body)]) + body


def ws_frame(payload: bytes, mask: bytes) -> bytes:
    """A client's binary WebSocket frame (RFC 6455 5.2: masked), for payloads under 126 bytes.

    >>> ws_frame(bytes([1, 2]), bytes([1, 2, 3, 4])).hex()
    '8282010203040000'
    """
    if len(payload) >= 126:
        raise ValueError(f"ws_frame: {len(payload)} bytes; the bench's client sends only short packets")
    return bytes([0x82, 0x80 | len(payload)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


class WsMqttReader:
    """Turns the bytes a broker sends over a WebSocket into MQTT packets: ``feed(data)`` returns
    ``[(packet_type, body), ...]`` for each whole packet (a packet may span frames, a frame hold
    several packets, as MQTT over WebSockets allows). Unmasked frames (the server's) only; a close
    frame raises ``ConnectionError``. ``ws=False``: plain MQTT bytes (a TCP listener).

    >>> r = WsMqttReader()
    >>> r.feed(bytes([0x82, 4, 0x20, 2, 0, 0])[:3]), r.feed(bytes([0x82, 4, 0x20, 2, 0, 0])[3:])
    ([], [(2, b'\\x00\\x00')])
    """

    def __init__(self, ws: bool = True) -> None:
        self._frames = bytearray()
        self._mqtt = bytearray()
        self.ws = ws
        """False: the bytes are MQTT itself (a TCP listener), no frames."""

    def feed(self, data: bytes) -> list[tuple[int, bytes]]:
        f = self._mqtt if not self.ws else self._frames
        f += data
        while self.ws and len(f) >= 2:
            opcode, n, at = f[0] & 0x0F, f[1] & 0x7F, 2
            if n == 126:
                if len(f) < 4:
                    break
                n, at = int.from_bytes(f[2:4], "big"), 4
            elif n == 127:
                if len(f) < 10:
                    break
                n, at = int.from_bytes(f[2:10], "big"), 10
            if len(f) < at + n:
                break
            if opcode == 0x8:
                raise ConnectionError("the broker closed the websocket")
            if opcode in (0x0, 0x2):
                self._mqtt += f[at:at + n]
            del f[:at + n]
        out, m = [], self._mqtt
        while len(m) >= 2:
            n, mult, at = 0, 1, 1
            while True:
                if at >= len(m):
                    return out
                byte = m[at]
                n += (byte & 0x7F) * mult
                mult, at = mult * 128, at + 1
                if not byte & 0x80:
                    break
            if len(m) < at + n:
                break
            out.append((m[0] >> 4, bytes(m[at:at + n])))
            del m[:at + n]
        return out


class _WsSpectator(asyncio.Protocol):
    """One spectator subscribed to the view (over a WebSocket, or ``ws=False`` plain MQTT over TCP).
    Until its first view it parses as it reads (``ready`` is then resolved); after that it keeps each
    chunk with the moment it arrived and parses only in :meth:`arrivals`, as the SSE bench's readers do,
    so that the measuring costs the clients as little as it can while the events go out."""

    def __init__(self, client_id: str, port: int, ws: bool, ready: asyncio.Future) -> None:
        self.client_id, self.port, self.ws, self.ready = client_id, port, ws, ready
        self.reader = WsMqttReader(ws)
        self.head = bytearray() if ws else None
        self.chunks: list[tuple[float, bytes]] = []
        self.first: list[tuple[int, float, int]] = []
        self.transport: asyncio.Transport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]
        if self.ws:
            key = base64.b64encode(os.urandom(16)).decode()
            transport.write(f"GET /mqtt HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\nUpgrade: websocket\r\n"  # type: ignore[attr-defined]
                            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
                            "Sec-WebSocket-Protocol: mqtt\r\n\r\n".encode())
        else:
            self._subscribe()

    def _subscribe(self) -> None:
        packets = (mqtt_connect(self.client_id), mqtt_subscribe(VIEW_TOPIC))
        mask = os.urandom(4)
        self.transport.write(b"".join(ws_frame(p, mask) if self.ws else p for p in packets))

    def data_received(self, data: bytes) -> None:
        now = time.monotonic()
        if self.head is not None:  # the HTTP upgrade's answer first
            self.head += data
            end = self.head.find(b"\r\n\r\n")
            if end < 0:
                return
            if not self.head.startswith(b"HTTP/1.1 101"):
                self._fail(f"websocket upgrade refused: {bytes(self.head[:60])!r}")
                return
            data, self.head = bytes(self.head[end + 4:]), None
            self._subscribe()
        if self.ready.done():
            self.chunks.append((now, data))
            return
        try:
            self.first += _views(self.reader.feed(data), now)
        except ConnectionError as exc:
            self._fail(str(exc))
            return
        if self.first:
            self.ready.set_result(now)

    def connection_lost(self, exc: Exception | None) -> None:
        self._fail(f"connection lost: {exc or 'closed by the broker'}")

    def _fail(self, why: str) -> None:
        if not self.ready.done():
            self.ready.set_exception(ConnectionError(why))
        if self.transport is not None:
            self.transport.close()

    def arrivals(self) -> list[tuple[int, float, int]]:
        """``(version, monotonic_s, view_bytes)`` of every view read."""
        out = list(self.first)
        for now, data in self.chunks:
            try:
                out += _views(self.reader.feed(data), now)
            except ConnectionError:
                break
        return out


def _views(packets: list[tuple[int, bytes]], now: float) -> list[tuple[int, float, int]]:
    out = []
    for kind, body in packets:
        if kind == 3:  # PUBLISH (CONNACK, SUBACK: nothing to note)
            tlen = int.from_bytes(body[:2], "big")
            found = _VERSION.match(body, 2 + tlen)
            if found:
                out.append((int(found.group(1)), now, len(body) - 2 - tlen))
    return out


def ws_spectators(port: int, n: int, batch: int = 50, ws: bool = True, open_timeout: float = 60.0) -> None:
    """Child process: hold ``n`` MQTT-over-WebSockets subscriptions to :data:`VIEW_TOPIC` on
    ``port`` of 127.0.0.1 (opened ``batch`` at a time) on one asyncio loop; prints ``ready N`` once N
    have their first (retained) view (then ``failed: REASON`` if fewer within ``open_timeout`` s),
    waits for a line on stdin, then prints one JSON line: ``{"arrivals": [[[version, monotonic_s],
    ...], ...] a client, "view_bytes", "cpu_s"}`` (the largest view; this process's CPU seconds
    while the events went out). ``ws=False``: plain MQTT over TCP instead.

    The client is a minimal MQTT 3.1.1 subscriber over RFC 6455 (the functions above), not paho:
    paho's websocket transport parses each frame in Python with several ``recv`` calls, and on this
    2-core machine its clients saturated their processes before the broker did (1,000 clients, two
    processes: p99 5.5 s with the broker at a quarter of a core), so it timed the clients, not the
    path. paho over websockets is what the tests (tests/hub/test_hub_ws.py) check the listener with.
    """
    async def main() -> None:
        loop = asyncio.get_running_loop()
        readies = [loop.create_future() for _ in range(n)]
        clients = [_WsSpectator(f"bench-ws-{os.getpid()}-{i}", port, ws, f) for i, f in enumerate(readies)]

        async def open_one(c: _WsSpectator) -> None:
            try:
                await loop.create_connection(lambda: c, "127.0.0.1", port)
            except OSError as exc:
                c._fail(f"connect: {exc}")

        opening = []
        for i, c in enumerate(clients):
            opening.append(asyncio.ensure_future(open_one(c)))
            if i % batch == batch - 1:
                await asyncio.sleep(0.05)
        await asyncio.gather(*opening)
        done, pending = await asyncio.wait(readies, timeout=open_timeout)
        ok = sum(1 for f in done if f.exception() is None)
        print(f"ready {ok}", flush=True)
        if ok < n:
            why = next((str(f.exception()) for f in done if f.exception() is not None), None)
            print(f"failed: {why or f'{len(pending)} subscriptions got no view in {open_timeout:g} s'}", flush=True)
        cpu0 = time.process_time()
        await loop.run_in_executor(None, sys.stdin.readline)
        cpu = time.process_time() - cpu0
        for c in clients:
            if c.transport is not None:
                c.transport.close()
        got = [c.arrivals() for c in clients]
        print(json.dumps({"arrivals": [[(v, t) for v, t, _ in a] for a in got],
                          "view_bytes": max((b for a in got for _, _, b in a), default=0), "cpu_s": round(cpu, 3)}),
              flush=True)

    asyncio.run(main())


def _line(p: subprocess.Popen, deadline: float, phase: str, what: str) -> str:
    """The next line of ``p``'s output by ``deadline`` (a thread reads it, so no wait can hang)."""
    got: queue.Queue = queue.Queue()
    threading.Thread(target=lambda: got.put(p.stdout.readline()), daemon=True).start()
    try:
        line = got.get(timeout=max(0.0, deadline - time.monotonic()))
    except queue.Empty:
        raise PhaseTimeout(f"{phase}: {what} did not come in time") from None
    if not line:
        raise PhaseTimeout(f"{phase}: a spectator process exited ({p.poll()}) before {what}")
    return line


def run_ws(clients: int = 1000, events: int = 100, interval: float = 0.05, procs: int | None = None,
           log=lambda msg: None, ws: bool = True, phase_timeout: float = PHASE_TIMEOUT_S) -> dict[str, Any]:
    """Post ``events`` rolls at a table while ``clients`` websocket spectators (over ``procs``
    processes; default one a :data:`~arena_table.bench.hub.CLIENTS_A_PROCESS`, as the SSE bench) follow
    its view through the broker; return ``{"clients", "procs", "event_latency_p50_ms",
    "event_latency_p99_ms", "missed", "rss_mb", "broker_cpu_s", "spectators_cpu_s", "view_bytes",
    "transport"}``. ``ws=False``: the same spectators on the broker's plain MQTT port.

    Raises:
        RuntimeError: mosquitto is not installed, or a process did not come up.
        PhaseTimeout: a step took longer than ``phase_timeout`` s (the message names it).
    """
    import psutil

    mosquitto = _mosquitto()
    tmp = Path(tempfile.mkdtemp(prefix="arena-bench-hub-ws-"))
    bport, wport, tport, pin = free_port(), free_port(), free_port(), "424242"
    (tmp / "m.conf").write_text(broker_config(bport, wport))
    started: list[subprocess.Popen] = []
    phase = f"{clients} websocket spectators" if ws else f"{clients} MQTT spectators"
    try:
        broker = subprocess.Popen([mosquitto, "-c", str(tmp / "m.conf")], stdout=subprocess.DEVNULL,
                                  stderr=subprocess.DEVNULL)
        started.append(broker)
        table = subprocess.Popen([sys.executable, "-m", "arena_table.cli", "run", "--camera", "none", "--db",
                                  str(tmp / "t.db"), "--port", str(tport), "--pin", pin, "--publish",
                                  f"mqtt://127.0.0.1:{bport}", "--table-id", "bench"],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        started.append(table)
        wait_ready(tport, table)
        op = _Http(tport)
        op.login(pin)
        # a first view, retained, that each spectator gets on subscribing
        _post_rolls(op, 1, 0, time.monotonic() + phase_timeout, phase)
        procs = max(1, min(procs or -(-clients // CLIENTS_A_PROCESS), clients))
        shares = [clients // procs + (1 if i < clients % procs else 0) for i in range(procs)]
        log(f"{phase} in {procs} processes")
        spect = [subprocess.Popen([sys.executable, "-c", f"from arena_table.bench.hub_ws import ws_spectators; "
                                   f"ws_spectators({wport if ws else bport}, {k}, ws={ws})"],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True) for k in shares]
        started += spect
        deadline = time.monotonic() + phase_timeout
        for p, k in zip(spect, shares):
            got = int(_line(p, deadline, phase, "the subscriptions' opening").split()[1])
            if got < k:
                why = _line(p, deadline, phase, "the reason subscriptions failed").strip()
                raise PhaseTimeout(f"{phase}: only {got} of {k} subscriptions of a process got the view ({why})")
        bproc = psutil.Process(broker.pid)
        cpu0 = sum(bproc.cpu_times()[:2])
        sent = _post_rolls(op, events, interval, time.monotonic() + phase_timeout, phase)
        time.sleep(DRAIN_S)
        cpu = sum(bproc.cpu_times()[:2]) - cpu0
        rss = bproc.memory_info().rss / 2**20
        for p in spect:
            p.stdin.write("stop\n")
            p.stdin.flush()
        per_client: list = []
        view_bytes, spect_cpu, deadline = 0, 0.0, time.monotonic() + phase_timeout
        for p in spect:
            got = json.loads(_line(p, deadline, phase, "the spectators' arrivals"))
            per_client += got["arrivals"]
            view_bytes, spect_cpu = max(view_bytes, got["view_bytes"]), spect_cpu + got["cpu_s"]
    finally:
        for p in reversed(started):
            if p.poll() is None:
                p.terminate()
        for p in started:
            try:
                p.wait(10)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait(5)
        shutil.rmtree(tmp, ignore_errors=True)
    lat, missed = _latencies(per_client, sent)
    p50, p99 = _percentile(lat, 50), _percentile(lat, 99)
    return {"clients": clients, "procs": procs,
            "event_latency_p50_ms": None if p50 is None else round(p50, 1),
            "event_latency_p99_ms": None if p99 is None else round(p99, 1),
            "missed": missed, "rss_mb": round(rss, 1), "broker_cpu_s": round(cpu, 3),
            "spectators_cpu_s": round(spect_cpu, 3), "view_bytes": view_bytes,
            "transport": "websockets" if ws else "tcp"}


def add_ws_path(result: dict[str, Any], clients: int, events: int, interval: float, log=lambda msg: None,
                phase_timeout: float = PHASE_TIMEOUT_S) -> dict:
    """``bench hub``'s figures with the websockets path beside the hub's SSE: ``result["ws"]`` (from
    :func:`run_ws`) and ``result["ws_p99_over_hub_p99"]`` (None when either p99 is missing)."""
    result["ws"] = ws = run_ws(clients, events, interval, log=log, phase_timeout=phase_timeout)
    hub_p99 = (result.get("hub") or {}).get("event_latency_p99_ms")
    result["ws_p99_over_hub_p99"] = (round(ws["event_latency_p99_ms"] / hub_p99, 2)
                                     if hub_p99 and ws["event_latency_p99_ms"] is not None else None)
    return result


if __name__ == "__main__":  # python -m arena_table.bench.hub_ws [CLIENTS [EVENTS [PROCS]]] [--tcp]
    argv = [int(a) for a in sys.argv[1:] if a != "--tcp"]
    kw = dict(zip(("clients", "events", "procs"), argv), ws="--tcp" not in sys.argv)
    print(json.dumps(run_ws(**kw, log=lambda m: print(f"bench hub ws: {m}", file=sys.stderr, flush=True))))
