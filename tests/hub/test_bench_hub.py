"""``bench hub`` runs its three phases against a real broker, table and hub and reports every figure."""

import json

import pytest
from brokerkit import mosquitto_binary

from arena_table.cli import main


@pytest.mark.slow
def test_bench_hub_reports_both_paths(capsys):
    mosquitto_binary()
    assert main(["bench", "hub", "--clients", "20", "--table-clients", "10", "--events", "5", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    for path, clients in (("hub", 20), ("table", 10)):
        assert out[path]["clients"] == clients and out[path]["missed"] == 0
        assert 0 < out[path]["event_latency_p50_ms"] <= out[path]["event_latency_p99_ms"]
        assert out[path]["rss_mb"] > 10
    assert out["hub_p99_over_table_p99"] == round(out["hub"]["event_latency_p99_ms"]
                                                  / out["table"]["event_latency_p99_ms"], 2)
    assert out["table_cpu_idle_s"] > 0
