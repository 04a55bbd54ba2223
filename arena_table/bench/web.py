"""``arena-table bench web``: many spectators on the live stream, measured.

Three processes on loopback, so no one's work hides in another's GIL:

* the **server** — a real table (temporary log, no camera, no reader) served exactly as
  ``arena-table run`` serves it;
* the **spectators** — one asyncio process holding ``--clients`` SSE streams, noting when
  each message arrives (``time.monotonic`` is one clock for every process on Linux);
* the **operator** (this process) — logs in with the PIN, posts ``--events`` rolls through
  ``POST /api/events`` and, all the while, times ``GET /api/state``.

Then ``--kill`` more streams are opened by a child process that is SIGKILLed; the figure
``reaped`` counts those the server dropped and ``reap_s`` how long it took.

The child processes run in their own process group: Ctrl-C in the terminal interrupts only
the operator, which then ends them itself (exit status 130, no traceback from any of them).

Printed (``--json``): ``clients``, ``event_latency_p50_ms``, ``event_latency_p99_ms``
(POST sent → message read by a spectator, over every event × client), ``state_latency_p50_ms``,
``state_latency_p99_ms``, ``reaped``, ``reap_s``, ``rss_mb`` (server, loaded),
``rss_per_client_kb`` (server memory growth per stream) and more.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from arena_table.cli.common import free_port

TARGET_EVENT_P99_MS = 250.0
TARGET_STATE_P99_MS = 100.0
REAP_LIMIT_S = 30.0



def _percentile(values: list[float], q: float) -> float | None:
    """Nearest-rank percentile (``q`` in 0..100).

    >>> _percentile([5, 1, 3, 2, 4], 50), _percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 99)
    (3, 10)
    """
    if not values:
        return None
    s = sorted(values)
    k = max(0, min(len(s) - 1, int(-(-q * len(s) // 100)) - 1))
    return s[k]


# --- the spectators' process ------------------------------------------------------------------

def _spectators(port: int, n: int) -> None:
    """Child process: hold ``n`` streams on ``/api/stream``; prints ``ready N``, waits for a line on stdin,
    then prints the arrivals as one JSON line (``[[[version, monotonic_s], ...], ...]``); see
    :func:`arena_table.bench.hub.spectators`, which ``bench hub`` uses for the hub's stream too."""
    from .hub import spectators

    spectators(port, "/api/stream", "id", n, batch=20)


def _victims(port: int, n: int) -> None:
    """Child process killed with SIGKILL: opens ``n`` streams and waits forever."""
    socks = []
    for _ in range(n):
        s = socket.create_connection(("127.0.0.1", port))
        s.sendall(b"GET /api/stream HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n")
        s.recv(1024)
        socks.append(s)
    print("open", flush=True)
    time.sleep(3600)


# --- the operator -----------------------------------------------------------------------------

class _Http:
    """A tiny keep-alive HTTP client with a cookie and a CSRF token."""

    def __init__(self, port: int) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        self.cookie = ""
        self.csrf = ""

    def request(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        headers = {"Accept": "application/json"}
        if self.cookie:
            headers["Cookie"] = self.cookie
        if self.csrf:
            headers["X-CSRF-Token"] = self.csrf
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        self.conn.request(method, path, body=data, headers=headers)
        resp = self.conn.getresponse()
        raw = resp.read()
        cookie = resp.getheader("Set-Cookie")
        if cookie:
            self.cookie = cookie.split(";", 1)[0]
        return resp.status, (json.loads(raw) if raw[:1] in (b"{", b"[") else raw)

    def login(self, pin: str) -> None:
        _, s = self.request("GET", "/api/session")
        self.csrf = s["csrf"]
        status, body = self.request("POST", "/login", {"pin": pin})
        if status != 200:
            raise RuntimeError(f"login failed: {status} {body}")
        self.csrf = body["csrf"]


def wait_ready(port: int, proc: subprocess.Popen, timeout: float = 60.0, path: str = "/api/status") -> None:
    """Wait until the table service ``proc`` answers ``GET path`` (default ``/api/status``) on ``port`` of
    127.0.0.1.

    Raises:
        RuntimeError: the process ended (with the end of its stderr when piped), or ``timeout`` s passed.
    """
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if proc.poll() is not None:
            tail = proc.stderr.read().decode()[-2000:] if proc.stderr else ""
            raise RuntimeError(f"the server exited with {proc.returncode}: {tail}")
        try:
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=1)
            c.request("GET", path)
            if c.getresponse().status == 200:
                return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError("the server did not answer in time")


def _streams(http_: _Http) -> int:
    streams = http_.request("GET", "/api/status")[1]["streams"]
    return streams["clients"] + streams["tv"] + streams["control"]  # the first few are the TV's (127.0.0.1)


def run_bench(clients: int = 200, events: int = 100, kill: int = 5, interval: float = 0.05,
              log=lambda msg: None) -> dict[str, Any]:
    """Run the benchmark and return its figures (see the module docstring)."""
    import psutil

    tmp = Path(tempfile.mkdtemp(prefix="arena-bench-web-"))
    port = free_port()
    pin = "424242"
    server = subprocess.Popen(
        [sys.executable, "-m", "arena_table.bench.web", "--serve", "--db", str(tmp / "bench.db"),
         "--port", str(port), "--pin", pin, "--max-clients", str(clients + kill + 4),
         "--streams-per-address", str(clients + kill + 4)],  # every stream comes from 127.0.0.1
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, process_group=0)
    spect = victims = None
    stop_state = threading.Event()
    try:
        wait_ready(port, server)
        ps = psutil.Process(server.pid)
        rss0 = ps.memory_info().rss
        op = _Http(port)
        op.login(pin)
        log(f"server up on port {port}; opening {clients} streams")
        t_open = time.monotonic()
        spect = subprocess.Popen([sys.executable, "-c", f"from arena_table.bench.web import _spectators; "
                                  f"_spectators({port}, {clients})"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                 process_group=0)
        connected = int(spect.stdout.readline().split()[1])
        open_s = time.monotonic() - t_open
        time.sleep(0.5)
        rss1 = ps.memory_info().rss
        log(f"{connected} streams open in {open_s:.1f} s; posting {events} events")

        state_lat: list[float] = []

        def sample_state() -> None:
            h = _Http(port)
            while not stop_state.is_set():
                t0 = time.monotonic()
                try:
                    status, _ = h.request("GET", "/api/state")
                except (OSError, http.client.HTTPException):
                    if stop_state.is_set():  # the server is going away (the benchmark ended or was interrupted)
                        return
                    raise
                if status == 200:
                    state_lat.append((time.monotonic() - t0) * 1000)
                time.sleep(0.02)

        sampler = threading.Thread(target=sample_state, daemon=True)
        sampler.start()
        sent: dict[int, float] = {}
        post_lat: list[float] = []
        errors = 0
        for i in range(events):
            t0 = time.monotonic()
            status, body = op.request("POST", "/api/events",
                                      {"notation": f"roll faces=[{i % 6 + 1},{(i * 5) % 6 + 1}] source=bench"})
            post_lat.append((time.monotonic() - t0) * 1000)
            if status == 201:
                sent[body["seq"]] = t0
            else:
                errors += 1
            time.sleep(max(0.0, interval - (time.monotonic() - t0)))
        time.sleep(1.0)  # let the last messages land
        stop_state.set()
        sampler.join(timeout=5)
        rss2 = ps.memory_info().rss
        log(f"killing {kill} streams abruptly")
        victims = subprocess.Popen([sys.executable, "-c",
                                    f"from arena_table.bench.web import _victims; _victims({port}, {kill})"],
                                   stdout=subprocess.PIPE, process_group=0)
        victims.stdout.readline()
        base = _streams(op)
        victims.send_signal(signal.SIGKILL)
        victims.wait()
        t_kill = time.monotonic()
        now_streams = base
        while time.monotonic() - t_kill < REAP_LIMIT_S + 10:
            now_streams = _streams(op)
            if now_streams <= base - kill:
                break
            time.sleep(0.25)
        reap_s = time.monotonic() - t_kill
        reaped = base - now_streams
        spect.stdin.write(b"stop\n")
        spect.stdin.flush()
        per_client = json.loads(spect.stdout.readline())
        spect.wait(timeout=10)

        latencies: list[float] = []
        missed = 0
        for arrivals in per_client:
            arrivals.sort()
            for seq, t_sent in sent.items():
                t = next((t for v, t in arrivals if v >= seq and t >= t_sent), None)
                if t is None:
                    missed += 1
                else:
                    latencies.append((t - t_sent) * 1000)
        return {
            "clients": connected,
            "clients_asked": clients,
            "open_s": round(open_s, 2),
            "events": len(sent),
            "event_errors": errors,
            "event_latency_p50_ms": _round(_percentile(latencies, 50)),
            "event_latency_p99_ms": _round(_percentile(latencies, 99)),
            "event_latency_max_ms": _round(max(latencies) if latencies else None),
            "deliveries": len(latencies),
            "post_latency_p50_ms": _round(_percentile(post_lat, 50)),
            "post_latency_p99_ms": _round(_percentile(post_lat, 99)),
            "missed": missed,
            "state_requests": len(state_lat),
            "state_latency_p50_ms": _round(_percentile(state_lat, 50)),
            "state_latency_p99_ms": _round(_percentile(state_lat, 99)),
            "killed": kill,
            "reaped": reaped,
            "reap_s": round(reap_s, 2),
            "rss_mb": round(rss2 / 2**20, 1),
            "rss_idle_mb": round(rss0 / 2**20, 1),
            "rss_per_client_kb": round((rss1 - rss0) / max(1, connected) / 1024, 1),
            "cpu_count": os.cpu_count(),
            "targets": {"event_latency_p99_ms": TARGET_EVENT_P99_MS, "state_latency_p99_ms": TARGET_STATE_P99_MS,
                        "reap_s": REAP_LIMIT_S},
        }
    finally:
        stop_state.set()
        for child in (spect, victims):
            if child is not None and child.poll() is None:
                child.kill()
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            server.kill()
        import shutil

        shutil.rmtree(tmp, ignore_errors=True)


def _round(x: float | None) -> float | None:
    return None if x is None else round(x, 1)


def _serve_main(argv: list[str]) -> int:
    """The benchmark's server process: ``arena-table run`` on a fresh log, no devices."""
    from arena_table.cli.run import register as register_run

    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="cmd")
    register_run(sub)
    args = parser.parse_args(["run", "--camera", "none", "--tokens", "none", *argv])
    return args.func(args)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--serve"]:
        sys.exit(_serve_main(sys.argv[2:]))
    sys.exit(2)
