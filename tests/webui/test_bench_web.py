"""``arena-table bench web`` on a small crowd: every figure is there and counts add up.

Speed targets are the benchmark's business (it prints them); this only checks that it
measures what it says: every spectator saw every event, and killed streams were reaped.
"""

from __future__ import annotations

import json

import pytest

from arena_table.cli import main
from arena_table.bench.web import run_bench


@pytest.mark.slow
def test_small_bench_counts_add_up():
    r = run_bench(clients=12, events=8, kill=3, interval=0.02)
    assert r["clients"] == 12 and r["events"] == 8 and r["event_errors"] == 0
    assert r["missed"] == 0 and r["deliveries"] == 12 * 8
    assert r["reaped"] == 3 and r["reap_s"] < 30
    assert 0 < r["event_latency_p50_ms"] <= r["event_latency_p99_ms"] <= r["event_latency_max_ms"]
    assert r["state_requests"] > 0 and r["state_latency_p99_ms"] > 0
    assert r["rss_mb"] > r["rss_idle_mb"] * 0.5


@pytest.mark.slow
def test_bench_web_json_keys(capsys):
    assert main(["bench", "web", "--clients", "5", "--events", "3", "--kill", "1", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    for key in ("clients", "event_latency_p50_ms", "event_latency_p99_ms", "state_latency_p99_ms", "reaped",
                "rss_mb", "rss_per_client_kb", "within_targets"):
        assert key in out, key
    assert out["clients"] == 5 and out["reaped"] == 1
