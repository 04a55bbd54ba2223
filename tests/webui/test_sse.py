"""The SSE stream through Flask's test client: snapshot on connect, updates, Last-Event-ID, restarts."""

from __future__ import annotations

import queue

import pytest
from webhelpers import PIN, SSEReader, apply_update, settle

from arena_table.rules import DiceRolled, DieCorrected
from arena_table.table.app import Table
from arena_table.table.config import CameraSettings, DataSettings, TableConfig, WebSettings
from arena_table.webui.app import create_app, shutdown
from arena_table.webui.sse import Client, Hub, HubFull
from arena_table.webui.views import spectator_state


def open_stream(client, last_id: str | None = None) -> SSEReader:
    headers = {"Last-Event-ID": last_id} if last_id else {}
    resp = client.get("/api/stream", headers=headers, buffered=False)
    assert resp.status_code == 200
    assert resp.mimetype == "text/event-stream"
    assert resp.headers["Cache-Control"] == "no-cache"
    assert resp.headers["X-Accel-Buffering"] == "no"
    return SSEReader(resp)


def test_connect_gets_a_snapshot_with_epoch_and_version(app, client, table):
    table.submit(DiceRolled(faces=(3, 5)))
    settle(app, 1)
    s = open_stream(client)
    kind, data, ident = s.next()
    assert kind == "snapshot"
    assert data["epoch"] == table.epoch
    assert data["version"] == 1
    assert ident == f"{table.epoch}:1"
    assert data["reason"] == "new"
    assert data["state"]["tray"]["last"]["faces"] == [3, 5]
    assert data["state"]["tray"]["last"]["total"] == 8
    assert data["state"]["log"] == [{"seq": 1, "at": data["state"]["log"][0]["at"], "text": "Rolled 2d6: 3, 5 (total 8)"}]
    s.close()


def test_update_after_submit_carries_only_changed_keys(client, table):
    s = open_stream(client)
    _, snap, _ = s.next()
    table.submit(DiceRolled(faces=(6, 6, 1)))
    kind, upd, ident = s.until(lambda m: m[0] == "update")
    assert upd["version"] == 1 and upd["base"] == snap["rev"] and upd["rev"] == snap["rev"] + 1
    assert ident == f"{table.epoch}:1"
    assert upd["set"]["tray"]["last"]["faces"] == [6, 6, 1]
    assert upd["set"]["tray"]["stats"]["d6"]["counts"] == {"1": 1, "2": 0, "3": 0, "4": 0, "5": 0, "6": 2}
    assert "title" not in upd["set"] and "game" not in upd["set"]  # unchanged keys are not resent
    table.submit(DieCorrected(roll=1, index=2, value=4))
    _, upd2, _ = s.until(lambda m: m[0] == "update")
    assert upd2["base"] == upd["rev"] and upd2["version"] == 2
    assert upd2["set"]["tray"]["last"]["faces"] == [6, 6, 4]
    assert upd2["set"]["tray"]["last"]["sensed"] == [6, 6, 1]
    # the plain-words log only grows: each update carries just its new line
    assert [line["text"] for line in upd["append"]["log"]["items"]] == ["Rolled 3d6: 6, 6, 1 (total 13)"]
    # a correction replays the roll: its line reads the corrected faces, so the log is sent whole
    assert [line["text"] for line in upd2["set"]["log"]] == ["Rolled 3d6: 6, 6, 4 (total 16)",
                                                             "Corrected die #3 of roll 1 from 1 to 4"]
    table.undo()  # replay rebuilds the log without line 2: sent whole, not appended
    _, upd3, _ = s.until(lambda m: m[0] == "update")
    assert [line["seq"] for line in upd3["set"]["log"]] == [1] and "log" not in upd3["append"]
    s.close()


def test_heartbeat_when_quiet(client):
    s = open_stream(client)
    s.next()
    kind, data, _ = s.until(lambda m: m[0] == "heartbeat", limit=5)
    assert kind == "heartbeat" and data["rev"] >= 1
    s.close()


@pytest.mark.parametrize("last_id, reason", [
    (None, "new"), ("CURRENT", "resume"), ("0123456789ab:7", "new-epoch"), ("garbage", "unknown-id")])
def test_last_event_id_always_gets_a_fresh_snapshot(app, client, table, last_id, reason):
    for f in (1, 2, 3):
        table.submit(DiceRolled(faces=(f,)))
    settle(app, 3)
    if last_id == "CURRENT":
        last_id = f"{table.epoch}:2"
    s = open_stream(client, last_id)
    kind, data, _ = s.next()
    assert kind == "snapshot" and data["reason"] == reason
    assert data["version"] == 3 and data["epoch"] == table.epoch
    # never a replay of old events: the snapshot is the state, and nothing else is queued
    assert [r["seq"] for r in data["state"]["tray"]["history"]] == [3, 2, 1]
    kind, _, _ = s.next()
    assert kind == "heartbeat"
    s.close()


def test_restart_gives_a_new_epoch_and_no_duplicated_log_lines(tmp_path):
    db = tmp_path / "t.db"
    with Table(TableConfig(data=DataSettings(db=db), camera=CameraSettings(source="none"),
                           web=WebSettings(pin=PIN))) as t1:
        app1 = create_app(t1, {"heartbeat": 0.3})
        s = open_stream(app1.test_client())
        page = s.next()[1]["state"]  # what a page holds: the snapshot, then merged updates
        for f in range(1, 6):
            t1.submit(DiceRolled(faces=(f,)))
            _, upd, ident = s.until(lambda m: m[0] == "update" and m[1]["version"] == f)
            apply_update(page, upd)
        assert ident == f"{t1.epoch}:5"
        s.close()
        shutdown(app1)
        old_epoch = t1.epoch
    with Table(TableConfig(data=DataSettings(db=db), camera=CameraSettings(source="none"),
                           web=WebSettings(pin=PIN))) as t2:
        app2 = create_app(t2, {"heartbeat": 0.3})
        settle(app2, 5)
        s = open_stream(app2.test_client(), ident)
        kind, snap, _ = s.next()
        assert kind == "snapshot" and snap["reason"] == "new-epoch"
        assert snap["epoch"] == t2.epoch != old_epoch
        assert snap["version"] == 5
        page = snap["state"]  # the page replaces its state with the snapshot
        seqs = [line["seq"] for line in page["log"]]
        assert seqs == [1, 2, 3, 4, 5]
        t2.submit(DiceRolled(faces=(6,)))
        _, upd, _ = s.until(lambda m: m[0] == "update")
        apply_update(page, upd)
        assert [line["seq"] for line in page["log"]] == [1, 2, 3, 4, 5, 6]
        s.close()
        shutdown(app2)


def test_full_hub_answers_503_page(table):
    app = create_app(table, {"max_clients": 2, "heartbeat": 0.3})
    c = app.test_client()
    c.environ_base["REMOTE_ADDR"] = "192.0.2.10"  # a phone: 127.0.0.1 would be the TV, with slots of its own
    a, b = open_stream(c), open_stream(c)
    a.next(), b.next()
    resp = c.get("/api/stream", headers={"Accept": "text/html"})
    assert resp.status_code == 503
    assert resp.headers["Retry-After"] == "30"
    assert b"the most this table serves" in resp.data
    assert c.get("/").status_code == 503
    a.close()
    assert app.extensions["arena_hub"].stats()["clients"] == 1
    assert c.get("/").status_code == 200
    b.close()
    shutdown(app)


def test_slow_client_gets_a_fresh_snapshot_and_never_blocks_the_engine(table):
    hub = Hub(table, spectator_state, queue_size=2, heartbeat=60, poll=0.05)
    hub._refresh(table.state, table.epoch)  # broadcast by hand: no thread, so no coalescing
    slow = hub.connect("slow")
    gen = hub.stream(slow)
    assert next(gen).split(b"\n")[1] == b"event: snapshot"
    for f in range(1, 7):  # the client reads nothing meanwhile; its queue holds at most 2
        table.submit(DiceRolled(faces=(f,)))
        hub._refresh(table.state, table.epoch)
        assert slow.queue.qsize() <= 2
    msg = next(gen)
    assert b"event: snapshot" in msg and b'"reason":"behind"' in msg and b'"version":6' in msg
    assert hub.counters["resyncs"] == 1
    gen.close()
    assert hub.stats()["clients"] == 0


def test_client_that_stops_reading_is_reaped(table):
    hub = Hub(table, spectator_state, queue_size=1, heartbeat=60, poll=0.05, reap_after=0.2).start()
    dead = hub.connect("dead")
    gen = hub.stream(dead)
    next(gen)  # took the snapshot, then vanished without closing (gen kept alive, never resumed)
    table.submit(DiceRolled(faces=(2,)))
    _wait(lambda: hub.stats()["reaped"] == 1, timeout=5)
    assert hub.stats()["clients"] == 0 and dead.closed
    hub.close()
    del gen


def test_cap_refuses_beyond_max_clients(table):
    hub = Hub(table, spectator_state, max_clients=1)
    hub.connect()
    with pytest.raises(HubFull, match="1 viewers"):
        hub.connect()


def _wait(pred, timeout: float = 3.0) -> None:
    import time

    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if pred():
            return
        time.sleep(0.01)
    raise AssertionError("condition not met in time")


def test_client_dataclass_starts_at_revision_zero():
    c = Client(1, queue.Queue(1))
    assert c.rev == 0 and not c.closed
