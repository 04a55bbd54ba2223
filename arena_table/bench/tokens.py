"""``arena-table bench tokens``: the token reader's soak benchmark.

The real firmware logic (``python -m arena_table.table.tokens_sim``, a child
process so the CPU figure is the host's alone) lays and lifts tags on every pad
at ``--rate`` changes per second for ``--seconds`` and writes its lines into a
pty. This process reads them with the real driver and applies every event
through a real :class:`~arena_table.table.engine.Engine` and
:class:`~arena_table.table.log.EventLog` (``:memory:`` unless ``--db``).
It prints events, lost and duplicated events, latency from the firmware
writing a line to the engine having applied its event (p50/p99/max; ``decoded_*``:
to the driver having decoded it), and this process's CPU use in percent of one
core (also per thread) with the machine's load average, since tail latency on a
shared machine follows its load. A second, short phase measures
``place()`` on a ``--tokens sim`` table to the event applied (what the control
page's buttons and the 100 ms "hero acting" budget depend on).

Targets: 0 lost, 0 duplicated, CPU < 10 %, p99 < 20 ms.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any



def _pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    s = sorted(values)
    return s[min(len(s) - 1, int(round(q * (len(s) - 1))))]


def _thread_cpu() -> dict[str, float]:
    """CPU seconds (user + system) of each live thread of this process, by thread name."""
    import psutil

    names = {t.native_id: t.name for t in threading.enumerate()}
    out: dict[str, float] = {}
    for th in psutil.Process().threads():
        name = names.get(th.id, "other")
        out[name] = out.get(name, 0.0) + th.user_time + th.system_time
    return out


def soak(pads: int = 4, rate: float = 20.0, seconds: float = 60.0, db: str = ":memory:") -> dict[str, Any]:
    """Run the soak; returns the figures (see the module docstring)."""
    from arena_table.hardware.reader import SerialTokenReader
    from arena_table.rules import TagPlaced, TagRemoved

    from arena_table.table.engine import Engine
    from arena_table.table.log import EventLog

    child = subprocess.Popen([sys.executable, "-m", "arena_table.table.tokens_sim", "--pads", str(pads),
                              "--rate", str(rate), "--seconds", str(seconds)],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                             process_group=0)  # Ctrl-C interrupts this process only; it ends the child below
    reader = None
    try:
        port = json.loads(child.stdout.readline())["port"]
        applied: dict[tuple[str, int, str], list[float]] = {}

        def on_change(change) -> None:
            ev = change.event
            if isinstance(ev, (TagPlaced, TagRemoved)):
                key = ("PLACED" if isinstance(ev, TagPlaced) else "REMOVED", ev.pad, ev.uid)
                applied.setdefault(key, []).append(time.monotonic())

        log = EventLog(db)
        engine = Engine(log).start()
        engine.subscribe(on_change)

        decoded: dict[tuple[str, int, str], float] = {}

        def on_tag(change) -> None:
            decoded.setdefault(("PLACED" if change.placed else "REMOVED", change.pad, change.uid), change.received)
            cls = TagPlaced if change.placed else TagRemoved
            engine.submit(cls(pad=change.pad, uid=change.uid, at=change.at))

        up = threading.Event()
        reader = SerialTokenReader(port, on_tag, lambda s: up.set() if s.state == "up" else None)
        reader.start()
        if not up.wait(20):
            raise RuntimeError(f"the simulated reader on {port} never came up: {reader.status}")
        cpu0, wall0, threads0 = time.process_time(), time.monotonic(), _thread_cpu()
        out = child.stdout.readline()  # the child's report, once its schedule is over
        cpu1, wall1, threads1 = time.process_time(), time.monotonic(), _thread_cpu()
        time.sleep(0.2)  # the last lines' events are applied
        reader.close()
        engine.close()
        log.close()
        child.stdin.close()
        child.wait(timeout=10)
    finally:
        if reader is not None:
            reader.close()  # before the child goes, or the reader reports its port lost
        if child.poll() is None:
            child.kill()
            child.wait()
    if not out:
        raise RuntimeError(f"the simulated firmware ended without a report (exit {child.returncode})")
    result = json.loads(out)
    written: dict[tuple[str, int, str], float] = {}
    for t, line in result["lines"]:
        parts = line.split("*")[0].split(" ")
        if parts[1] in ("PLACED", "REMOVED"):
            fields = dict(p.split("=", 1) for p in parts[2:])
            written[(parts[1], int(fields["pad"]), fields["uid"])] = t
    latencies = [(applied[k][0] - t) * 1000 for k, t in written.items() if k in applied]
    read_latencies = [(decoded[k] - t) * 1000 for k, t in written.items() if k in decoded]
    lost = sum(1 for k in written if k not in applied)
    duplicated = sum(len(v) - 1 for v in applied.values()) + sum(1 for k in applied if k not in written)
    return {
        "pads": pads, "rate_per_pad": rate, "seconds": seconds, "changes": result["changes"],
        "lines_dropped_by_pty": result["dropped"],
        "events": sum(len(v) for v in applied.values()), "expected": len(written),
        "lost": lost, "duplicated": duplicated,
        "latency_p50_ms": round(_pct(latencies, 0.50), 3), "latency_p99_ms": round(_pct(latencies, 0.99), 3),
        "latency_max_ms": round(max(latencies), 3) if latencies else None,
        "decoded_p50_ms": round(_pct(read_latencies, 0.50), 3), "decoded_p99_ms": round(_pct(read_latencies, 0.99), 3),
        "cpu_percent": round(100 * (cpu1 - cpu0) / (wall1 - wall0), 2),
        "load_avg_1m": round(os.getloadavg()[0], 2), "cores": os.cpu_count(),
        "cpu_percent_by_thread": {name: round(100 * (t - threads0.get(name, 0.0)) / (wall1 - wall0), 2)
                                  for name, t in sorted(threads1.items())},
        "garbage_lines": reader.counters["garbage_lines"], "gaps": reader.counters["gaps"],
        "duplicate_lines": reader.counters["duplicates"], "db": db,
    }


def place_to_applied(samples: int = 50) -> dict[str, Any]:
    """``place()`` on a ``--tokens sim`` Table (file log, real registry): ms until the token device
    calls ``table.submit`` (firmware, pty, driver, registry) and until the engine applied the
    event (adds the durable commit of the log, an fsync)."""
    from arena_table.table.app import Table
    from arena_table.table.config import CameraSettings, DataSettings, TableConfig, TokenSettings, WebSettings

    with tempfile.TemporaryDirectory() as tmp:
        cfg = TableConfig(data=DataSettings(db=Path(tmp) / "log.db"), camera=CameraSettings(source="none"),
                          tokens=TokenSettings(reader="sim"), web=WebSettings(pin="0000"))
        times: list[float] = []
        to_submit: list[float] = []
        done = threading.Event()
        submitted = [0.0]
        with Table(cfg) as table:
            table.subscribe(lambda change: done.set() if change.event.KIND == "tag-on" else None)
            real_submit = table.submit

            def timed_submit(event):  # when the device hands the event to the table
                if event.KIND == "tag-on":
                    submitted[0] = time.monotonic()
                return real_submit(event)

            table.submit = timed_submit  # type: ignore[method-assign]
            deadline = time.monotonic() + 10
            while table.status().get("tokens", {}).get("state") != "up":
                if time.monotonic() > deadline:
                    raise RuntimeError("the simulated reader never came up")
                time.sleep(0.01)
            dev = next(d for d in table.devices if getattr(d, "name", "") == "tokens")
            for i in range(samples):
                done.clear()
                t0 = time.monotonic()
                dev.place(i % dev.n_pads, "04%012X" % (i + 1))
                if not done.wait(5):
                    raise RuntimeError("a placed tag never reached the engine")
                times.append((time.monotonic() - t0) * 1000)
                to_submit.append((submitted[0] - t0) * 1000)
                dev.remove(i % dev.n_pads)
                time.sleep(0.3)  # the removal is debounced and committed before the next click
    return {"place_to_submit_p50_ms": round(_pct(to_submit, 0.5), 3),
            "place_to_submit_p99_ms": round(_pct(to_submit, 0.99), 3),
            "place_to_applied_p50_ms": round(_pct(times, 0.5), 3),
            "place_to_applied_p99_ms": round(_pct(times, 0.99), 3),
            "place_to_applied_max_ms": round(max(times), 3), "place_samples": samples}


TARGETS = (("lost", "==", 0), ("duplicated", "==", 0), ("cpu_percent", "<", 10), ("latency_p99_ms", "<", 20))
"""(figure, comparison, bound): 0 lost, 0 duplicated, CPU < 10 % of a core, p99 latency < 20 ms."""


def check_targets(figures: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Each target with its measured value: ``{figure: {"target": "< 20", "value": v, "pass": bool}}``.

    A missing or NaN figure fails its target.

    >>> check_targets({"lost": 0, "duplicated": 1, "cpu_percent": 3.5, "latency_p99_ms": 25.0})["latency_p99_ms"]
    {'target': '< 20', 'value': 25.0, 'pass': False}
    """
    out = {}
    for key, op, bound in TARGETS:
        value = figures.get(key)
        ok = isinstance(value, (int, float)) and value == value and (value == bound if op == "==" else value < bound)
        out[key] = {"target": f"{op} {bound}", "value": value, "pass": bool(ok)}
    return out


def format_targets(targets: dict[str, dict[str, Any]]) -> list[str]:
    """Plain-text lines: one per target with its value and PASS/FAIL, then the verdict naming the failures.

    >>> format_targets({"lost": {"target": "== 0", "value": 2, "pass": False}})[-1]
    'targets met: no (failed: lost = 2, target == 0)'
    """
    lines = ["targets:"]
    for key, t in targets.items():
        lines.append(f"{key:>28}: {t['value']!s:<10} target {t['target']:<6} {'PASS' if t['pass'] else 'FAIL'}")
    failed = [f"{k} = {t['value']}, target {t['target']}" for k, t in targets.items() if not t["pass"]]
    lines.append("targets met: " + (f"no (failed: {'; '.join(failed)})" if failed else "yes"))
    return lines
