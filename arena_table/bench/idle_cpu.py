"""CPU the simulated table costs: idle between throws and while dice are thrown.

Two measures, both on the simulated camera at its real frame rate (12 fps):

* ``loop`` (default): the service's own :class:`~arena_table.table.camera_loop.CameraLoop` with
  the shipped dice reader, inside a :class:`~arena_table.table.app.Table`, for ``--seconds``.
  The camera thread's CPU time (``time.thread_time``) is summed per frame and each frame is
  classed by the sim's script as ``rolling`` (a hand in the tray, dice moving, or the 0.6 s after
  they stop, when the settle is read) or ``idle`` (dice at rest, nobody rolling). CPU % of a core
  is that CPU over the frames' own duration (frames / fps): above 100 % the loop cannot keep up and
  falls behind real time (``lag``).
* ``--service``: ``arena-table run --camera sim --tokens sim`` as a subprocess (web server, token
  readers and all), its whole-process CPU sampled with psutil after a warm-up, and its peak RSS.

    python -m arena_table.bench.idle_cpu --seconds 40
    python -m arena_table.bench.idle_cpu --service --seconds 30
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import psutil

from arena_table.table.app import Table
from arena_table.table.config import CameraSettings, DataSettings, TableConfig
from arena_table.table.camera_loop import CameraLoop
from arena_table.cli.common import free_port
from arena_table.vision.capture import SimSource
from arena_table.vision.sim import SimTable

AFTER_SETTLE_S = 0.6
"""Seconds after the last die stops that still belong to the throw (the settle is read at +0.4 s)."""


def phase(sim: SimTable, t: float) -> str:
    """``rolling`` or ``idle`` for the sim's frame at ``t`` seconds."""
    for th in sim.throws_until(t + 5.0):  # a hand comes before its throw starts
        begin = th.hand[0] if th.hand else th.start
        if begin <= t <= th.settled + AFTER_SETTLE_S:
            return "rolling"
    return "idle"


class MeteredSim(SimSource):
    """The service's real-time sim source, noting the camera thread's CPU for each frame."""

    def __init__(self, sim: SimTable, fps: float) -> None:
        super().__init__(sim, fps=fps, realtime=True)
        self.cpu = {"idle": [0.0, 0], "rolling": [0.0, 0]}
        self.lag = 0.0
        self._last: tuple[float, float] | None = None  # (thread CPU at the last read, its frame time)
        self._lock = threading.Lock()

    def read(self, timeout: float | None = 2.0):
        now = time.thread_time()
        if self._last is not None:  # the previous frame's render, settle step and any dice reading
            with self._lock:
                acc = self.cpu[phase(self.table, self._last[1])]
                acc[0] += now - self._last[0]
                acc[1] += 1
        frame = super().read(timeout)
        self.lag = max(self.lag, time.monotonic() - (self._t0 + frame.t))
        self._last = (now, frame.t)
        return frame

    def snapshot(self) -> dict[str, tuple[float, int]]:
        with self._lock:
            return {k: (v[0], v[1]) for k, v in self.cpu.items()}


def bench_loop(seconds: float, fps: float, seed: int) -> int:
    sim = SimTable(seed=seed)
    src = MeteredSim(sim, fps)
    with tempfile.TemporaryDirectory() as tmp, Table(TableConfig(data=DataSettings(db=Path(tmp) / "t.db"),
                                                                 camera=CameraSettings(source="none"))) as table:
        loop = CameraLoop(table.ports("camera"), "sim", source_factory=lambda spec, **kw: src)
        p0, w0 = time.process_time(), time.monotonic()
        loop.start()
        time.sleep(seconds)
        loop.close()
        p1, w1 = time.process_time(), time.monotonic()
        rolls = loop.rolls
    cpu = src.snapshot()
    print(f"simulated table, camera loop, {seconds:.0f} s at {fps:g} fps (seed {seed}, {rolls} rolls recorded)")
    total_cpu = total_n = 0.0
    for name in ("idle", "rolling"):
        c, n = cpu[name]
        total_cpu, total_n = total_cpu + c, total_n + n
        if n:
            print(f"  {name:8s} {100 * c * fps / n:6.1f} % of a core  "
                  f"({n} frames, {1000 * c / n:.1f} ms CPU per frame)")
    if total_n:
        print(f"  {'all':8s} {100 * total_cpu * fps / total_n:6.1f} % of a core  ({int(total_n)} frames)")
    print(f"  process  {100 * (p1 - p0) / (w1 - w0):6.1f} % of a core  (all threads, wall {w1 - w0:.1f} s)")
    print(f"  lag      {src.lag:6.2f} s behind real time at worst")
    return 0



def bench_service(seconds: float, warmup: float) -> int:
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [sys.executable, "-m", "arena_table.cli", "run", "--camera", "sim", "--tokens", "sim", "--db", str(Path(tmp) / "t.db"),
               "--port", str(free_port())]
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            p = psutil.Process(proc.pid)
            time.sleep(warmup)
            c0, w0 = p.cpu_times(), time.monotonic()
            samples = []
            last = c0
            while time.monotonic() - w0 < seconds:
                time.sleep(1.0)
                now = p.cpu_times()
                samples.append(100 * (now.user + now.system - last.user - last.system))
                last = now
            c1, w1 = p.cpu_times(), time.monotonic()
            hwm = next((line.split()[1] for line in Path(f"/proc/{proc.pid}/status").read_text().splitlines()
                        if line.startswith("VmHWM:")), None) if Path("/proc").is_dir() else None
        finally:
            proc.terminate()
            proc.wait(10)
    total = 100 * (c1.user + c1.system - c0.user - c0.system) / (w1 - w0)
    samples.sort()
    print(f"arena-table run --camera sim --tokens sim, {w1 - w0:.0f} s after {warmup:.0f} s warm-up")
    print(f"  process  {total:6.1f} % of a core  (1 s samples: min {samples[0]:.0f}, "
          f"median {samples[len(samples) // 2]:.0f}, max {samples[-1]:.0f})")
    if hwm:
        print(f"  peak RSS {int(hwm) / 1024:.0f} MB")
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seconds", type=float, default=40.0, help="seconds measured (default 40)")
    ap.add_argument("--fps", type=float, default=12.0, help="sim frame rate (default 12, the service's)")
    ap.add_argument("--seed", type=int, default=0, help="sim script (default 0, the service's)")
    ap.add_argument("--service", action="store_true", help="measure the whole `arena-table run` process")
    ap.add_argument("--warmup", type=float, default=8.0, help="--service: seconds before measuring (default 8)")
    args = ap.parse_args(argv)
    if args.seconds <= 0 or args.fps <= 0:
        ap.error("--seconds and --fps must be > 0")
    return bench_service(args.seconds, args.warmup) if args.service else bench_loop(args.seconds, args.fps, args.seed)


if __name__ == "__main__":
    sys.exit(main())
