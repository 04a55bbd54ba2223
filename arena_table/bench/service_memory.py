"""Resident memory of the running service over time: does it stay bounded?

Starts ``arena-table run --camera sim --tokens sim`` as a subprocess on a fresh log, attaches
``--clients K`` spectator streams (``GET /api/stream``, read in threads of this process) and
``--control C`` control-page pollers (logged in with the PIN; each does what the control page's scripts do:
``/api/status`` then ``/api/camera/frame.jpg`` once a second, ``/api/tokens`` every 5 s, and the
control log ``/api/events?viewer=control`` after every streamed update), lets the simulated table
throw dice for ``--minutes`` and prints the process's ``VmRSS`` every ``--interval`` seconds,
then the final ``VmHWM`` (peak RSS). ``--browsers`` opens real Chromium pages instead of the
control pollers (``/`` and ``/control``, Debian's ``/usr/bin/chromium`` via Playwright).

    python -m arena_table.bench.service_memory --minutes 10 --clients 2 --control 1
    python -m arena_table.bench.service_memory --minutes 15 --browsers
    python -m arena_table.bench.service_memory --minutes 5 --env MALLOC_ARENA_MAX=   # unset a variable

The growth figure is the RSS at the end minus the RSS after the first ``--warmup`` seconds
(the reader's models load and the first rolls are read in that time).
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import threading
import time

from arena_table.bench.web import wait_ready

PIN = "135790"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def proc_status(pid: int) -> dict[str, int]:
    """``VmRSS``, ``VmHWM`` ... of ``pid`` in kB, plus ``Threads``."""
    out: dict[str, int] = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            m = re.match(r"(Vm\w+|RssAnon|RssFile|Threads):\s+(\d+)", line)
            if m:
                out[m.group(1)] = int(m.group(2))
    return out


class Counters:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.events = 0
        self.frames = 0
        self.errors = 0
        self.updates = threading.Event()

    def add(self, name: str, n: int = 1) -> None:
        with self.lock:
            setattr(self, name, getattr(self, name) + n)


def sse_client(port: int, stop: threading.Event, counters: Counters) -> None:
    """One spectator stream, reconnecting if it drops; counts the events it receives."""
    while not stop.is_set():
        try:
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            c.request("GET", "/api/stream", headers={"Accept": "text/event-stream"})
            r = c.getresponse()
            while not stop.is_set():
                line = r.fp.readline()
                if not line:
                    break
                if line.startswith(b"event:"):
                    counters.add("events")
                    if b"update" in line:
                        counters.updates.set()
            c.close()
        except OSError:
            counters.add("errors")
            time.sleep(1)


def login(c: http.client.HTTPConnection) -> str:
    """Log in as the control page does (session cookie and CSRF token first); the cookie."""
    c.request("GET", "/api/session", headers={"Accept": "application/json"})
    r = c.getresponse()
    token = json.loads(r.read())["csrf"]
    cookie = (r.getheader("Set-Cookie") or "").split(";")[0]
    c.request("POST", "/login", body=json.dumps({"pin": PIN}),
              headers={"Content-Type": "application/json", "Accept": "application/json", "Cookie": cookie,
                       "X-CSRF-Token": token})
    r = c.getresponse()
    r.read()
    if r.status != 200:
        raise RuntimeError(f"login failed: {r.status}")
    return (r.getheader("Set-Cookie") or "").split(";")[0] or cookie


def control_client(port: int, stop: threading.Event, counters: Counters) -> None:
    """What the control page asks for, without a browser."""
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    hdr = {"Cookie": login(c), "Accept": "application/json"}
    last_tokens = 0.0
    while not stop.is_set():
        try:
            for path in ("/api/status", "/api/camera/frame.jpg"):
                c.request("GET", path, headers=hdr)
                r = c.getresponse()
                r.read()
                if r.status != 200:
                    raise RuntimeError(f"GET {path}: HTTP {r.status}")
            counters.add("frames")
            if time.monotonic() - last_tokens > 5:
                c.request("GET", "/api/tokens", headers=hdr)
                c.getresponse().read()
                last_tokens = time.monotonic()
            if counters.updates.is_set():
                counters.updates.clear()
                c.request("GET", "/api/events?viewer=control&since=0", headers=hdr)
                c.getresponse().read()
        except (OSError, http.client.HTTPException):
            counters.add("errors")
            c.close()
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            try:  # the service may be gone: main() says so once, without a traceback per thread
                hdr["Cookie"] = login(c)
            except (OSError, http.client.HTTPException, ValueError, RuntimeError):
                c.close()
        stop.wait(1.0)


def open_browsers(url: str):
    from playwright.sync_api import sync_playwright

    pw = sync_playwright().start()
    browser = pw.chromium.launch(executable_path="/usr/bin/chromium", headless=True,
                                 args=["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                                       "--disable-background-timer-throttling",
                                       "--disable-renderer-backgrounding"])
    spect = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
    spect.goto(url + "/")
    ctl = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    ctl.goto(url + "/login")
    ctl.fill("#pin", PIN)
    ctl.click("button[type=submit]")
    ctl.wait_for_url(url + "/control")
    return pw, browser


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--minutes", type=float, default=10.0)
    ap.add_argument("--clients", type=int, default=2, help="SSE spectator streams (default 2)")
    ap.add_argument("--control", type=int, default=1, help="control-page pollers (default 1)")
    ap.add_argument("--browsers", action="store_true", help="Chromium on / and /control instead of --control")
    ap.add_argument("--interval", type=float, default=10.0, help="seconds between samples")
    ap.add_argument("--warmup", type=float, default=60.0, help="seconds before the growth baseline")
    ap.add_argument("--env", action="append", default=[], metavar="KEY=VALUE",
                    help="environment of the service (KEY= removes KEY)")
    ap.add_argument("--arg", action="append", default=[], help="extra argument to arena-table run")
    ap.add_argument("--json", action="store_true", help="one JSON line at the end")
    a = ap.parse_args(argv)

    env = dict(os.environ)
    for kv in a.env:
        k, _, v = kv.partition("=")
        if v:
            env[k] = v
        else:
            env.pop(k, None)
    port = free_port()
    tmp = tempfile.mkdtemp(prefix="service-memory-")
    cmd = [sys.executable, "-m", "arena_table.cli", "run", "--camera", "sim", "--tokens", "sim",
           "--db", f"{tmp}/t.db", "--port", str(port), "--pin", PIN, *a.arg]
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=open(f"{tmp}/service.log", "w"))
    stop = threading.Event()
    counters = Counters()
    pw = browser = None
    samples: list[tuple[float, int, int]] = []
    try:
        wait_ready(port, proc)
        t0 = time.monotonic()
        threads = [threading.Thread(target=sse_client, args=(port, stop, counters), daemon=True)
                   for _ in range(a.clients)]
        if a.browsers:
            pw, browser = open_browsers(f"http://127.0.0.1:{port}")
        else:
            threads += [threading.Thread(target=control_client, args=(port, stop, counters), daemon=True)
                        for _ in range(a.control)]
        for t in threads:
            t.start()
        print(f"service pid {proc.pid}, port {port}, {a.clients} SSE clients, "
              f"{'browsers on / and /control' if a.browsers else f'{a.control} control pollers'}, "
              f"{a.minutes:g} min; env {' '.join(a.env) or '-'}", flush=True)
        print(f"{'s':>6} {'VmRSS MB':>9} {'VmHWM MB':>9} {'threads':>7} {'events':>7} {'frames':>7}", flush=True)
        end = t0 + a.minutes * 60
        while True:
            if proc.poll() is not None:
                raise SystemExit(f"the service ended with code {proc.returncode}")
            st = proc_status(proc.pid)
            el = time.monotonic() - t0
            samples.append((el, st["VmRSS"], st["VmHWM"]))
            print(f"{el:6.0f} {st['VmRSS'] / 1024:9.1f} {st['VmHWM'] / 1024:9.1f} {st.get('Threads', 0):7d} "
                  f"{counters.events:7d} {counters.frames:7d}", flush=True)
            if time.monotonic() >= end:
                break
            time.sleep(min(a.interval, max(0.0, end - time.monotonic())))
        status = {}
        try:
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            c.request("GET", "/api/status")
            status = json.loads(c.getresponse().read())
        except (OSError, ValueError):
            pass
        rolls = (status.get("devices", {}).get("camera") or {}).get("rolls")
    finally:
        stop.set()
        if browser is not None:
            browser.close()
            pw.stop()
        hwm = proc_status(proc.pid)["VmHWM"] if proc.poll() is None else (samples[-1][2] if samples else 0)
        proc.terminate()
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()
    base = next((s for s in samples if s[0] >= a.warmup), samples[0])
    last = samples[-1]
    minutes_after = max(1e-9, (last[0] - base[0]) / 60)
    growth = (last[1] - base[1]) / 1024
    res = {"minutes": a.minutes, "clients": a.clients, "control": 0 if a.browsers else a.control,
           "browsers": a.browsers, "env": a.env, "rolls": rolls, "events": counters.events,
           "frames": counters.frames, "rss_start_mb": round(samples[0][1] / 1024, 1),
           "rss_after_warmup_mb": round(base[1] / 1024, 1), "rss_end_mb": round(last[1] / 1024, 1),
           "growth_mb": round(growth, 1), "growth_mb_per_min": round(growth / minutes_after, 2),
           "vmhwm_mb": round(hwm / 1024, 1)}
    print(f"rolls {rolls}, SSE events {counters.events}, control frames {counters.frames}; "
          f"VmRSS {res['rss_after_warmup_mb']} MB at {base[0]:.0f} s -> {res['rss_end_mb']} MB at {last[0]:.0f} s "
          f"({res['growth_mb']:+.1f} MB, {res['growth_mb_per_min']:+.2f} MB/min); final VmHWM {res['vmhwm_mb']} MB")
    if a.json:
        print(json.dumps(res))
    return 0


if __name__ == "__main__":
    sys.exit(main())
