"""``bench hub`` runs its phases against a real broker, table and hub and reports every figure; a
phase that cannot finish stops it with an error naming the phase, never a hang."""

import json
import socket
import threading
import time

import pytest
from brokerkit import mosquitto_binary

from arena_table.bench.hub import PhaseTimeout, _Crowd
from arena_table.cli import main
from arena_table.hub.feed import Feed
from arena_table.hub.server import HubServer, wait_running
from arena_table.hub.topics import Broker
from arena_table.hub.wall import create_wall_app


@pytest.mark.slow
def test_bench_hub_reports_both_paths(capsys):
    mosquitto_binary()
    assert main(["bench", "hub", "--clients", "20", "--table-clients", "10", "--events", "5", "--no-ws", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    for path, clients in (("hub", 20), ("table", 10)):
        assert out[path]["clients"] == clients and out[path]["missed"] == 0  # every event reached every client
        assert 0 < out[path]["event_latency_p50_ms"] <= out[path]["event_latency_p99_ms"]
        assert out[path]["rss_mb"] > 10
    assert out["hub"]["shed"] == 0  # no spectator fell so far behind that the hub let it go
    assert 0 < out["hub"]["fanout_p50_ms"] <= out["hub"]["fanout_p99_ms"] < out["hub"]["event_latency_p99_ms"]
    assert out["hub_p99_over_table_p99"] == round(out["hub"]["event_latency_p99_ms"]
                                                  / out["table"]["event_latency_p99_ms"], 2)
    runs = out["table_cpu_idle_runs_s"]
    assert len(runs) == 2 and min(runs) > 0 and out["table_cpu_idle_s"] == round(sum(runs) / 2, 3)
    assert out["table_cpu_growth"] == round(out["hub"]["table_cpu_s"] / (sum(runs) / 2) - 1, 3)


def test_a_server_that_never_answers_stops_the_phase_in_its_time():
    silent = socket.create_server(("127.0.0.1", 0))  # accepts (the kernel does), never says a word
    crowd = _Crowd(silent.getsockname()[1], "/table/bench/stream", "id", 5, procs=1)
    t0 = time.monotonic()
    try:
        with pytest.raises(PhaseTimeout, match="^5 spectators on the hub: the streams' opening did not come in time"):
            crowd.wait_open(2.0, "5 spectators on the hub")
        assert time.monotonic() - t0 < 5
    finally:
        crowd.close()
        silent.close()


def test_refused_streams_are_named_in_the_error():
    app = create_wall_app(Feed(Broker("127.0.0.1", 1)), max_clients=2)  # the hub holds 2 streams
    server = HubServer(app, "127.0.0.1", 0)
    threading.Thread(target=server.run, daemon=True).start()
    wait_running(server)
    crowd = _Crowd(server.effective_port, "/events", "tiles", 4, procs=1)
    try:
        with pytest.raises(PhaseTimeout, match=r"^p: only 2 of 4 spectator streams opened \(failed: refused: "
                                               r"HTTP/1.1 503 Service Unavailable\)"):
            crowd.wait_open(30.0, "p")
    finally:
        crowd.close()
        server.close()
