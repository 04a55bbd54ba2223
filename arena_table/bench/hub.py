"""``arena-table bench hub``: spectators on the convention hub's path against one table's own SSE.

Processes on loopback: a Mosquitto broker, a table service (``arena-table run --publish``), the hub
(``arena-table hub --broker``), the spectators (an epoll loop a process) and the operator (this
process), which posts rolls to the table and times when each spectator reads the change.

1. no spectators: ``events`` rolls; the table's CPU seconds are noted;
2. ``clients`` streams on the hub's screen of the table (``/table/<id>/stream``, the path phones
   use): ``events`` rolls, latency and the table's CPU;
3. no spectators again (the two idle figures are ``table_cpu_idle_runs_s``, their mean
   ``table_cpu_idle_s``: how much the table's CPU varies with nothing changed, on this machine);
4. ``table_clients`` streams on the table's own ``/api/stream``: the same as 2.

``table_cpu_growth``: the table's CPU with the hub's spectators over ``table_cpu_idle_s``, minus 1;
``table_cpu_idle_spread``: the two idle figures' difference over their mean, the noise to read it
against (the table's code path is the same whoever watches; on one shared machine the hub's
spectators still take cores and caches from it).

Latency: POST sent -> message carrying that version read by a spectator, over every event x
client (each spectator a plain socket whose bytes are timed as epoll reports them; 500 a process).
``rss_mb``: the serving process's resident memory with its streams held. Each step of a phase
(opening the streams, posting, collecting) has ``phase_timeout`` seconds: past it the bench stops
with :class:`PhaseTimeout` naming the step, with the end of each process's stderr (kept in files,
so a chatty server never blocks on a full pipe).
"""

from __future__ import annotations

import json
import os
import queue
import re
import select
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from arena_table.cli.common import free_port

from .web import _Http, _percentile, wait_ready

TARGET_HUB_P99_MS = 100.0
"""Issue 34: the hub's p99 at 1,000 clients on a 2-core machine."""
TARGET_TABLE_CPU_GROWTH = 0.10
"""Issue 34: the table's CPU with 1,000 hub spectators within 10 % of with none."""

DRAIN_S = 5.0
"""Seconds after the last post before the spectators stop: a change not read by then counts as missed."""
PHASE_TIMEOUT_S = 120.0
"""Each step of a phase (opening the streams, posting the events, collecting the arrivals) ends within
this long, or the bench stops with :class:`PhaseTimeout` naming it."""
CLIENTS_A_PROCESS = 500
"""Spectators one child process holds (1,000 clients: two processes, one a core)."""
HUB_PATH = "/table/bench/stream"
"""The hub's screen of the bench table (``--table-id bench``): the stream a phone at the hub reads."""

_ID = re.compile(rb"^id: [^:\n]*:(\d+)$", re.M)
_VERSION = {"id": _ID, "tiles": re.compile(rb'"version":(\d+)')}


def _arrivals(chunks: list[tuple[float, bytes]], pattern: re.Pattern) -> list[tuple[int, float]]:
    """``(version, monotonic_s)`` of each SSE message in one stream's chunks (the HTTP head skipped):
    the version its block names, the time the chunk holding its end was seen.

    >>> _arrivals([(1.0, b"HTTP/1.1 200 OK\\r\\n\\r\\nid: e:3\\ndata: {}\\n"), (2.0, b"\\nid: e:4\\ndata: {}\\n\\n")],
    ...           _VERSION["id"])
    [(3, 2.0), (4, 2.0)]
    """
    out, buf, head = [], b"", True
    for now, data in chunks:
        buf += data
        if head:
            end = buf.find(b"\r\n\r\n")
            if end < 0:
                continue
            head, buf = False, buf[end + 4:]
        *blocks, buf = buf.split(b"\n\n")
        for block in blocks:
            found = pattern.findall(block)
            if found:
                out.append((max(int(v) for v in found), now))
    return out


def spectators(port: int, path: str, mode: str, n: int, batch: int = 50, open_timeout: float = 60.0) -> None:
    """Child process: hold ``n`` streams on ``path`` of 127.0.0.1 (opened ``batch`` at a time, a crowd
    arriving, not one SYN flood); prints ``ready N`` (then ``failed: REASON`` when fewer than ``n``
    opened within ``open_timeout`` s), waits for a line on stdin, then prints the arrivals as one
    JSON line (``[[[version, monotonic_s], ...], ...]`` a client). ``mode``: ``id`` reads the version
    from the messages' ``id: EPOCH:VERSION`` (a table's stream), ``tiles`` from their ``"version"``
    (the wall).

    One epoll loop over plain sockets (a third of the CPU of asyncio protocols a message, measured):
    each chunk is kept with the time ``epoll`` reported it, and parsed only at the end, so the
    spectators take as little as possible of the CPU the servers measured need.
    """
    request = f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n".encode()
    ep = select.epoll()
    socks: dict[int, socket.socket] = {}
    chunks: dict[int, list[tuple[float, bytes]]] = {}
    unsent, ready, failed = set(), set(), []

    def pump(timeout: float) -> list[tuple[int, int]]:
        events = ep.poll(timeout)
        now = time.monotonic()
        for fd, ev in events:
            s = socks.get(fd)
            if s is None:
                continue
            if fd in unsent:
                if ev & (select.EPOLLERR | select.EPOLLHUP):
                    failed.append(f"connect: {os.strerror(s.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR))}")
                    ep.unregister(fd)
                    unsent.discard(fd)
                    continue
                s.send(request)
                unsent.discard(fd)
                ep.modify(fd, select.EPOLLIN)
                continue
            try:
                data = s.recv(65536)
            except OSError as exc:
                data = b""
                failed.append(f"recv: {exc}")
            chunks[fd].append((now, data))
            if not data:
                ep.unregister(fd)
                if fd not in ready:
                    head = b"".join(c for _, c in chunks[fd]).split(b"\r\n", 1)[0].decode(errors="replace")
                    failed.append(f"refused: {head}" if head else "closed by the server")
            elif fd not in ready:
                seen = b"".join(c for _, c in chunks[fd])
                end = seen.find(b"\r\n\r\n")
                if end >= 0 and b"\n\n" in seen[end + 4:] and seen.startswith(b"HTTP/1.1 200 "):
                    ready.add(fd)
        return events

    for i in range(n):
        s = socket.socket()
        s.setblocking(False)
        s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        try:
            s.connect(("127.0.0.1", port))
        except BlockingIOError:
            pass
        except OSError as exc:
            failed.append(f"connect: {exc}")
            s.close()
            continue
        socks[s.fileno()], chunks[s.fileno()] = s, []
        unsent.add(s.fileno())
        ep.register(s.fileno(), select.EPOLLOUT)
        if i % batch == batch - 1:
            pump(0.05)
    deadline = time.monotonic() + open_timeout
    while len(ready) + len(failed) < n and time.monotonic() < deadline:
        pump(0.2)
    print(f"ready {len(ready)}", flush=True)
    if len(ready) < n:
        print(f"failed: {failed[0] if failed else f'{n - len(ready)} streams sent nothing in {open_timeout:g} s'}",
              flush=True)
    stdin = sys.stdin.fileno()
    ep.register(stdin, select.EPOLLIN)
    while not any(fd == stdin for fd, _ in pump(1.0)):
        pass
    for s in socks.values():
        s.close()
    print(json.dumps([_arrivals(chunks[fd], _VERSION[mode]) for fd in socks]), flush=True)


class PhaseTimeout(RuntimeError):
    """A phase of the bench did not finish in its time (the message names the phase and what was missing)."""


class _Crowd:
    """``n`` spectators on ``path`` in ``procs`` child processes (:func:`spectators`), each read by a thread
    so that no wait on a child can hang the bench."""

    def __init__(self, port: int, path: str, mode: str, n: int, procs: int) -> None:
        self.n = n
        self.shares = [k for k in (n // procs + (1 if i < n % procs else 0) for i in range(procs)) if k]
        self.procs = [subprocess.Popen([sys.executable, "-c", f"from arena_table.bench.hub import spectators; "
                                        f"spectators({port}, {path!r}, {mode!r}, {k})"],
                                       stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
                      for k in self.shares]
        self.lines: list[queue.Queue] = [queue.Queue() for _ in self.procs]
        for p, q in zip(self.procs, self.lines):
            threading.Thread(target=lambda p=p, q=q: [q.put(line) for line in p.stdout] + [q.put(None)],
                             daemon=True).start()

    def _line(self, i: int, deadline: float, phase: str, what: str) -> str:
        try:
            line = self.lines[i].get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            raise PhaseTimeout(f"{phase}: {what} did not come in time") from None
        if line is None:
            raise PhaseTimeout(f"{phase}: a spectator process exited ({self.procs[i].poll()}) before {what}")
        return line

    def wait_open(self, timeout: float, phase: str) -> None:
        deadline, opened, why = time.monotonic() + timeout, 0, []
        for i in range(len(self.procs)):
            got = int(self._line(i, deadline, phase, "the streams' opening").split()[1])
            opened += got
            if got < self.shares[i]:
                why.append(self._line(i, deadline, phase, "the reason streams failed").strip())
        if opened < self.n:
            raise PhaseTimeout(f"{phase}: only {opened} of {self.n} spectator streams opened ({'; '.join(why)})")

    def collect(self, timeout: float, phase: str) -> list:
        for p in self.procs:
            p.stdin.write("stop\n")
            p.stdin.flush()
        deadline, out = time.monotonic() + timeout, []
        for i in range(len(self.procs)):
            out.extend(json.loads(self._line(i, deadline, phase, "the spectators' arrivals")))
        return out

    def close(self) -> None:
        for p in self.procs:
            if p.poll() is None:
                p.kill()
            p.wait(10)


def _post_rolls(op: _Http, events: int, interval: float, deadline: float, phase: str) -> dict[int, float]:
    """Post ``events`` rolls to the table, the i-th due ``i * interval`` s after the first (a fixed
    schedule: a slow answer does not stretch the phase); returns ``{seq: monotonic_s sent}``.

    Raises:
        PhaseTimeout: past ``deadline``, or a POST got no answer.
    """
    sent, start = {}, time.monotonic()
    for i in range(events):
        if time.monotonic() > deadline:
            raise PhaseTimeout(f"{phase}: only {i} of {events} events posted in time")
        time.sleep(max(0.0, start + i * interval - time.monotonic()))
        t0 = time.monotonic()
        try:
            status, body = op.request("POST", "/api/events", {"notation": f"roll faces=[{i % 6 + 1}]"})
        except OSError as exc:
            raise PhaseTimeout(f"{phase}: POST /api/events #{i + 1} to the table: {exc}") from exc
        if status not in (200, 201):
            raise RuntimeError(f"POST /api/events: {status} {body}")
        sent[int(body["seq"])] = t0
    return sent


def _latencies(per_client: list, sent: dict[int, float]) -> tuple[list[float], int]:
    """Per event x client: ms from its POST to the first message at or past its version; and the misses."""
    out, missed = [], 0
    for arrivals in per_client:
        for seq, t0 in sent.items():
            t = next((at for v, at in arrivals if v >= seq and at >= t0), None)
            if t is None:
                missed += 1
            else:
                out.append((t - t0) * 1000)
    return out, missed


def _measure(op: _Http, table: Any, port: int, path: str, clients: int, events: int, interval: float,
             server: Any, phase: str, timeout: float) -> dict[str, Any]:
    """One phase: ``clients`` streams on ``path`` of ``port`` (opened within ``timeout`` s), ``events``
    rolls posted (within ``timeout`` s), then their arrivals (within ``timeout`` s). ``table_cpu_s``:
    the table's CPU over a window of the same length in every phase (``events * interval`` s of
    posting, then :data:`DRAIN_S`), so its timers count alike whoever watches.

    Raises:
        PhaseTimeout: a step did not finish in time.
    """
    crowd = _Crowd(port, path, "id", clients, procs=-(-clients // CLIENTS_A_PROCESS)) if clients else None
    try:
        if crowd is not None:
            crowd.wait_open(timeout, phase)
        cpu0, start = sum(table.cpu_times()[:2]), time.monotonic()
        sent = _post_rolls(op, events, interval, time.monotonic() + timeout, phase)
        time.sleep(max(0.0, start + events * interval + DRAIN_S - time.monotonic()))
        cpu = sum(table.cpu_times()[:2]) - cpu0
        figures: dict[str, Any] = {"clients": clients, "table_cpu_s": round(cpu, 3)}
        if crowd is not None:
            rss = server.memory_info().rss / 2**20
            if path == HUB_PATH:  # streams shed for not reading (a stalled spectator process); the hub's own share
                streams = _Http(port).request("GET", "/table/bench/status")[1]["streams"]
                figures.update(shed=streams["shed"], fanout_p50_ms=streams["fanout_p50_ms"],
                               fanout_p99_ms=streams["fanout_p99_ms"])
            lat, missed = _latencies(crowd.collect(timeout, phase), sent)
            figures.update(event_latency_p50_ms=_round(_percentile(lat, 50)),
                           event_latency_p99_ms=_round(_percentile(lat, 99)), missed=missed, rss_mb=round(rss, 1))
        return figures
    finally:
        if crowd is not None:
            crowd.close()


def _round(v: float | None) -> float | None:
    return None if v is None else round(v, 1)


def run_bench(clients: int = 1000, table_clients: int = 200, events: int = 100, interval: float = 0.05,
              log=lambda msg: None, phase_timeout: float = PHASE_TIMEOUT_S) -> dict[str, Any]:
    """Run the three phases (module docstring) and return their figures.

    Raises:
        PhaseTimeout: a phase's step took longer than ``phase_timeout`` s (the message names it, with
            the end of each process's stderr).
        RuntimeError: mosquitto is not installed, or a process did not come up.
    """
    import psutil

    mosquitto = shutil.which("mosquitto") or ("/usr/sbin/mosquitto" if Path("/usr/sbin/mosquitto").exists() else None)
    if mosquitto is None:
        raise RuntimeError("mosquitto is not installed (Debian: apt-get install mosquitto)")
    tmp = Path(tempfile.mkdtemp(prefix="arena-bench-hub-"))
    bport, tport, hport, pin = free_port(), free_port(), free_port(), "424242"
    (tmp / "m.conf").write_text(f"listener {bport} 127.0.0.1\nallow_anonymous true\npersistence false\n"
                                "max_queued_messages 10000\n")
    procs: list[subprocess.Popen] = []

    def start(name: str, argv: list[str]) -> subprocess.Popen:
        procs.append(subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=open(tmp / f"{name}.log", "wb")))
        return procs[-1]

    def tails() -> str:
        return "".join(f"\n--- {log_.stem}'s stderr, the end:\n{log_.read_text(errors='replace')[-1500:]}"
                       for log_ in sorted(tmp.glob("*.log")) if log_.stat().st_size)

    try:
        start("mosquitto", [mosquitto, "-c", str(tmp / "m.conf")])
        table = start("table", [sys.executable, "-m", "arena_table.cli", "run", "--camera", "none", "--db",
                                str(tmp / "t.db"), "--port", str(tport), "--pin", pin,
                                "--max-clients", str(table_clients + 8),
                                "--streams-per-address", str(table_clients + 8),  # every stream comes from 127.0.0.1
                                "--publish", f"mqtt://127.0.0.1:{bport}", "--table-id", "bench"])
        hub = start("hub", [sys.executable, "-m", "arena_table.cli", "hub", "--broker", f"mqtt://127.0.0.1:{bport}",
                            "--port", str(hport), "--max-clients", str(clients + 8),
                            "--results", str(tmp / "results.db")])
        wait_ready(tport, table)
        wait_ready(hport, hub, path="/api/tables")
        op = _Http(tport)
        op.login(pin)
        tproc, hproc = psutil.Process(table.pid), psutil.Process(hub.pid)
        phase = "no spectators"
        log(phase)
        idle = _measure(op, tproc, hport, HUB_PATH, 0, events, interval, hproc, phase, phase_timeout)
        phase = f"{clients} spectators on the hub"
        log(phase)
        on_hub = _measure(op, tproc, hport, HUB_PATH, clients, events, interval, hproc, phase, phase_timeout)
        phase = "no spectators, again"
        log(phase)
        idle_again = _measure(op, tproc, hport, HUB_PATH, 0, events, interval, hproc, phase, phase_timeout)
        phase = f"{table_clients} spectators on the table's own stream"
        log(phase)
        on_table = _measure(op, tproc, tport, "/api/stream", table_clients, events, interval, tproc, phase,
                            phase_timeout)
    except RuntimeError as exc:
        raise type(exc)(f"{exc}{tails()}") from exc
    finally:
        for p in reversed(procs):
            p.terminate()
        for p in procs:
            try:
                p.wait(10)
            except subprocess.TimeoutExpired:
                p.kill()
        shutil.rmtree(tmp, ignore_errors=True)
    ratio = (on_hub["event_latency_p99_ms"] / on_table["event_latency_p99_ms"]
             if on_hub.get("event_latency_p99_ms") and on_table.get("event_latency_p99_ms") else None)
    idle_runs = [idle["table_cpu_s"], idle_again["table_cpu_s"]]
    idle_cpu = sum(idle_runs) / 2
    growth = (on_hub["table_cpu_s"] - idle_cpu) / idle_cpu if idle_cpu else None
    return {"events": events, "hub": on_hub, "table": on_table, "table_cpu_idle_s": round(idle_cpu, 3),
            "table_cpu_idle_runs_s": idle_runs,
            "table_cpu_idle_spread": round((max(idle_runs) - min(idle_runs)) / idle_cpu, 3) if idle_cpu else None,
            "hub_p99_over_table_p99": None if ratio is None else round(ratio, 2),
            "table_cpu_growth": None if growth is None else round(growth, 3),
            "table_cpu_ratio": None if growth is None else round(1 + growth, 3),
            "targets": {"hub_p99_ms": TARGET_HUB_P99_MS, "table_cpu_growth": TARGET_TABLE_CPU_GROWTH},
            "within_targets": bool(on_hub.get("event_latency_p99_ms") is not None
                                   and on_hub["event_latency_p99_ms"] <= TARGET_HUB_P99_MS and on_hub["missed"] == 0
                                   and growth is not None and growth <= TARGET_TABLE_CPU_GROWTH)}
