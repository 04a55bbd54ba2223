"""``bench hub``'s websockets path: spectators on a real broker's websockets listener read every
posted event's view, and the figures say so (issue 34, item 3)."""

import pytest
from brokerkit import mosquitto_binary

from arena_table.bench.hub_ws import WsMqttReader, add_ws_path, mqtt_connect, run_ws, ws_frame


@pytest.mark.slow
def test_ws_spectators_read_each_event_through_the_broker():
    mosquitto_binary()
    out = run_ws(clients=12, events=5, interval=0.05, procs=2)
    assert (out["clients"], out["procs"], out["missed"], out["transport"]) == (12, 2, 0, "websockets")
    assert 0 < out["event_latency_p50_ms"] <= out["event_latency_p99_ms"]
    assert out["rss_mb"] > 1 and out["view_bytes"] > 500  # a dice tray's spectator view, a few kB


@pytest.mark.slow
def test_the_ws_path_beside_the_hubs_figures():
    mosquitto_binary()
    result = add_ws_path({"hub": {"event_latency_p99_ms": 40.0}}, 4, 3, 0.05)
    assert result["ws"]["clients"] == 4 and result["ws"]["missed"] == 0
    assert result["ws_p99_over_hub_p99"] == round(result["ws"]["event_latency_p99_ms"] / 40.0, 2)


def test_the_reader_splits_packets_across_and_within_frames():
    publish = bytes([0x30, 7, 0, 3]) + b"a/b" + b"hi"  # PUBLISH a/b "hi", QoS 0
    suback = bytes([0x90, 3, 0, 1, 0])
    frames = bytes([0x82, len(publish) + len(suback)]) + publish + suback  # two packets, one frame
    r = WsMqttReader()
    assert r.feed(frames[:5]) == [] and r.feed(frames[5:]) == [(3, publish[2:]), (9, suback[2:])]
    # one packet over two frames (a continuation), with a 2-byte extended frame length
    big = bytes([0x30, 0x82, 0x01, 0, 3]) + b"a/b" + bytes(125)  # remaining length 130 as a varint
    first, rest = big[:100], big[100:]
    data = bytes([0x02, 126, 0, 100]) + first + bytes([0x80, len(rest)]) + rest
    assert WsMqttReader().feed(data) == [(3, big[3:])]
    with pytest.raises(ConnectionError):
        WsMqttReader().feed(bytes([0x88, 0]))
    plain = WsMqttReader(ws=False)
    assert plain.feed(publish + suback) == [(3, publish[2:]), (9, suback[2:])]


def test_client_frames_are_masked():
    frame = ws_frame(mqtt_connect("x"), b"\x0f\x0f\x0f\x0f")
    assert frame[:2] == bytes([0x82, 0x80 | 15]) and bytes(b ^ 0x0F for b in frame[6:]) == mqtt_connect("x")
