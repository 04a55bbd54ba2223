"""The JSON API: reads, commands turned into events, errors that name what was wrong, OpenAPI."""

from __future__ import annotations

import time

import numpy as np
import pytest
from webhelpers import login, settle

from arena_table.rules import DiceRolled, TagPlaced, TagRemoved
from arena_table.webui.openapi import flask_path


def test_openapi_is_valid_and_covers_every_api_route(app, client):
    from openapi_spec_validator import validate

    spec = client.get("/api/openapi.json").get_json()
    validate(spec)
    described = {(p, m) for p, ops in spec["paths"].items() for m in ops}
    routes = {(flask_path(r.rule), m.lower()) for r in app.url_map.iter_rules() if r.rule.startswith("/api/")
              for m in (r.methods or ()) if m not in ("HEAD", "OPTIONS")}
    routes |= {("/login", "post"), ("/logout", "post")}  # a script logs in and out as the control page does
    assert routes - described == set()
    assert described - routes == set()  # and nothing described that does not exist
    assert spec["paths"]["/api/events"]["post"]["summary"].startswith("Submit one event")
    assert spec["paths"]["/login"]["post"]["summary"].startswith("The PIN form (GET) and its check")


def test_state_is_the_spectator_view(app, client, table):
    table.submit(DiceRolled(faces=(2, 2, 5)))
    settle(app, 1)
    body = client.get("/api/state").get_json()
    assert body["epoch"] == table.epoch and body["version"] == 1
    state = body["state"]
    assert state["game"] == "dice-tray" and state["title"] == "Dice tray"
    assert state["tray"]["last"]["total"] == 9
    assert state["tray"]["stats"]["d6"]["counts"]["2"] == 2
    assert state["log"][0]["text"] == "Rolled 3d6: 2, 2, 5 (total 9)"
    assert state["svg"]["histograms"]["d6"].startswith("<svg")


def test_submit_in_notation_and_json(ctl, table):
    r = ctl("/api/events", {"notation": "roll die=d8 faces=[8,1]"})
    assert r.status_code == 201 and r.get_json() == {"seq": 1, "event": "roll die=d8 faces=[8,1]"}
    r = ctl("/api/events", {"event": {"kind": "note", "text": "Ann arrives"}})
    assert r.status_code == 201 and r.get_json()["seq"] == 2
    assert [line.text for line in table.state.log] == ["Rolled 2d8: 8, 1 (total 9)", "Ann arrives"]


def test_bad_notation_names_the_problem_and_stores_nothing(ctl, table):
    r = ctl("/api/events", {"notation": "roll faces=[3] colour=red"})
    assert r.status_code == 400 and "no field 'colour'" in r.get_json()["error"]
    r = ctl("/api/events", {"notation": "fly to=moon"})
    assert r.status_code == 400 and "unknown event kind 'fly'" in r.get_json()["error"]
    r = ctl("/api/events", {})
    assert r.status_code == 400
    assert table.rows() == []


def test_illegal_event_is_422_with_reason_and_recorded_as_rejected(ctl, client, table):
    r = ctl("/api/events", {"notation": "roll die=d4 faces=[5]"})
    assert r.status_code == 422
    body = r.get_json()
    assert body["reason"] == "face(s) [5] impossible on a d4"
    assert body["event"].startswith("roll die=d4 faces=[5]")
    rows = table.rows()
    assert [(row.seq, row.status) for row in rows] == [(1, "rejected")]
    # spectators never see rejected rows; the operator does, with the reason
    assert client.get("/api/events").get_json()["events"] == []
    ctl_rows = client.get("/api/events?viewer=control").get_json()["events"]
    assert ctl_rows[0]["status"] == "rejected" and "impossible on a d4" in ctl_rows[0]["reason"]


def test_events_since(ctl, client):
    for f in (1, 2, 3):
        ctl("/api/events", {"notation": f"roll faces=[{f}]"})
    rows = client.get("/api/events?since=1").get_json()["events"]
    assert [r["seq"] for r in rows] == [2, 3]
    assert rows[0]["event"]["faces"] == [2] and rows[0]["text"].startswith("roll faces=[2]")
    assert client.get("/api/events?since=x").status_code == 400


def test_spectator_paging_counts_only_the_events_it_shows(ctl, client):
    # rejected rows (2 and 4) are hidden from spectators: a page of 2 after seq 1 must still
    # hold two events (it held none when the limit counted the hidden rows)
    for notation in ("roll faces=[1]", "roll die=d4 faces=[5]", "roll faces=[3]", "roll die=d4 faces=[6]",
                     "roll faces=[5]"):
        ctl("/api/events", {"notation": notation})
    page = client.get("/api/events?since=1&limit=2").get_json()["events"]
    assert [r["seq"] for r in page] == [3, 5]
    page = client.get(f"/api/events?since={page[-1]['seq']}&limit=2").get_json()["events"]
    assert page == []
    ctl_page = client.get("/api/events?since=1&limit=2&viewer=control").get_json()["events"]
    assert [(r["seq"], r["status"]) for r in ctl_page] == [(2, "rejected"), (3, "ok")]


def test_start_game(ctl, table):
    r = ctl("/api/start", {"game": "nope"})
    assert r.status_code == 400 and "unknown game 'nope'" in r.get_json()["error"]
    r = ctl("/api/start", {"game": "dice", "options": {"speed": 2}})
    assert r.status_code == 422 and "takes no options" in r.get_json()["reason"]
    r = ctl("/api/start", {"game": "dice", "options": "{not json"})
    assert r.status_code == 400 and "not valid JSON" in r.get_json()["error"]
    r = ctl("/api/start", {"game": "tray", "options": ""})
    assert r.status_code == 201 and r.get_json()["event"] == "start game=dice-tray"
    assert table.state.started_seq == r.get_json()["seq"]


@pytest.mark.parametrize("path, body", [
    ("/api/start", {"game": "dice-tray"}),
    ("/api/events", {"notation": "start game=dice-tray"}),
    ("/api/events", {"event": {"kind": "start", "game": "dice-tray"}}),
], ids=["start", "notation", "event"])
def test_a_start_over_a_game_in_progress_needs_confirm(ctl, table, path, body):
    """A new user's trial: one POST /api/start in turn 2 of a Theosis game ended it for good (undo
    stops at a game's start). A script or a stale second control page now gets 409 unless it says
    "confirm": true; a start over nothing to lose needs no confirmation."""
    assert ctl(path, body).status_code == 201  # an empty dice tray: nothing is lost
    assert ctl("/api/events", {"notation": "roll faces=[3,4]"}).status_code == 201
    seq = table.state.seq
    r = ctl(path, body)
    assert r.status_code == 409 and r.get_json()["in_progress"] == "the dice tray's 1 roll"
    assert r.get_json()["error"].startswith("a new game would end the dice tray's 1 roll, and undo cannot bring")
    assert table.state.seq == seq and len(table.state.tray.rolls) == 1  # nothing recorded
    assert ctl(path, {**body, "confirm": "yes"}).status_code == 409  # only JSON true, or this game's start
    started = table.state.started_seq
    assert r.get_json()["started"] == started
    assert ctl(path, {**body, "confirm": started + 1}).status_code == 409  # a yes to another game's question
    if path == "/api/events":  # an unknown game is named first (it was a 409, then a 422 once confirmed)
        bad = ctl(path, {"notation": "start game=nosuch"})
        assert bad.status_code == 400 and "unknown game 'nosuch'" in bad.get_json()["error"]
    r = ctl(path, {**body, "confirm": True} if path == "/api/start" else {**body, "confirm": started})
    assert r.status_code == 201 and table.state.started_seq == r.get_json()["seq"] and table.state.tray.rolls == ()


def test_a_start_the_rules_refuse_is_refused_before_any_question(ctl, table):
    """Bad options over a game in progress: 422 with the rules' reason, recorded as refused, not a
    409 asking to end the running game for a start that cannot happen (a new user's trial)."""
    assert ctl("/api/events", {"notation": "roll faces=[3,4]"}).status_code == 201
    seq = table.state.seq
    r = ctl("/api/start", {"game": "dice", "options": {"speed": 2}})
    assert r.status_code == 422 and "takes no options" in r.get_json()["reason"]
    assert len(table.state.tray.rolls) == 1 and table.state.started_seq == 0
    rows = table.log.rows(since=seq)
    assert [(row.status, "takes no options" in row.reason) for row in rows] == [("rejected", True)]


def test_a_roll_recorded_just_before_a_start_is_part_of_its_question(ctl, table):
    """The start guard runs in the engine's single-writer step, with the state the start replaces.
    Before, it read the state when the request came in: a roll already queued behind a busy writer
    (the camera's, say) was recorded first and then ended by the start, without a question."""
    import threading

    assert ctl("/api/start", {"game": "dice-tray"}).status_code == 201  # an empty tray
    gate = threading.Event()
    busy = threading.Thread(target=table.submit, args=(DiceRolled(faces=(3, 4)),),
                            kwargs={"check": lambda ts: gate.wait(10)})  # the writer held just before this roll
    busy.start()
    answer = {}
    start = threading.Thread(target=lambda: answer.update(r=ctl("/api/start", {"game": "dice-tray"})))
    start.start()
    deadline = time.monotonic() + 10
    while table.engine._queue.qsize() < 1 and time.monotonic() < deadline:  # the start waits behind the roll
        time.sleep(0.01)
    assert table.state.tray.rolls == ()  # what the request saw when it came in: nothing to lose
    gate.set()
    busy.join(10)
    start.join(10)
    r = answer["r"]
    assert r.status_code == 409 and r.get_json()["in_progress"] == "the dice tray's 1 roll"
    assert [roll.faces for roll in table.state.tray.rolls] == [(3, 4)]  # the roll stands


def test_correct_a_die(ctl, table):
    ctl("/api/events", {"notation": "roll faces=[1,6]"})
    r = ctl("/api/correct", {"roll": 1, "index": 0, "value": 4})
    assert r.status_code == 201
    assert table.state.tray.rolls[0].faces == (4, 6) and table.state.tray.rolls[0].sensed == (1, 6)
    rows = len(table.rows())
    r = ctl("/api/correct", {"roll": 1, "index": 0, "value": 4})  # the same correction resent
    assert r.status_code == 200 and r.get_json() == {"unchanged": True, "event": "correct roll=1 index=0 value=4",
                                                     "text": "Die #1 of roll 1 already shows 4"}
    assert len(table.rows()) == rows  # nothing recorded, not even as rejected
    r = ctl("/api/correct", {"roll": 1, "index": 0, "value": 1})  # back to the sensed value: a change
    assert r.status_code == 201 and table.state.tray.rolls[0].faces == (1, 6)
    r = ctl("/api/correct", {"roll": 1, "index": 2, "value": 4})
    assert r.status_code == 422 and r.get_json()["reason"] == "roll 1 has no die with index 2 (its 2 dice have index 0 to 1: #1 to #2 in the log)"
    r = ctl("/api/correct", {"roll": 1, "index": "first", "value": 4})
    assert r.status_code == 400 and "index must be a whole number" in r.get_json()["error"]


def test_undo_says_what_it_undoes_and_needs_the_seq(ctl, client, table):
    assert client.get("/api/undo").status_code == 409  # nothing to undo yet
    ctl("/api/events", {"notation": "roll faces=[3,4]"})
    ctl("/api/events", {"notation": "roll faces=[5]"})
    preview = client.get("/api/undo").get_json()
    at = table.rows()[1].event.at  # stamped by the table's clock
    when = time.strftime("%H:%M:%S", time.localtime(at))
    assert preview["seq"] == 2 and preview["question"] == f"Undo event #2: Rolled 1d6: 5 (total 5), at {when}?"
    assert preview["text"] == "Rolled 1d6: 5 (total 5)" and preview["when"] == f"at {when}"
    assert "at=" not in preview["question"]
    r = ctl("/api/undo", {"seq": 1})
    assert r.status_code == 409 and "is now #2" in r.get_json()["error"]
    assert len(table.state.tray.rolls) == 2
    r = ctl("/api/undo", {"seq": 2})
    assert r.status_code == 200 and r.get_json()["undone"] == 2
    assert [roll.faces for roll in table.state.tray.rolls] == [(3, 4)]
    r = ctl("/api/undo", {"seq": 2})  # the same confirmation again: #1 is not taken back in its place
    assert r.status_code == 409 and r.get_json()["seq"] == 1 and "is now #1" in r.get_json()["error"]
    assert [roll.faces for roll in table.state.tray.rolls] == [(3, 4)]


@pytest.mark.parametrize("line, said", [
    ("note text=tpyo", "tpyo"),
    ("correct roll=1 index=1 value=3", "Corrected die #2 of roll 1 from 4 to 3"),
])
def test_an_undo_says_what_it_took_back_in_the_words_of_its_preview(ctl, client, table, line, said):
    """A review: once undone, a note read "note text=tpyo" and a correction lost its "from 4": the
    words came from a state that no longer had the event's log line."""
    ctl("/api/events", {"notation": "roll faces=[3,4]"})
    ctl("/api/events", {"notation": line})
    preview = client.get("/api/undo").get_json()
    assert said in preview["text"]
    r = ctl("/api/undo", {"seq": preview["seq"]})
    assert r.status_code == 200 and r.get_json()["text"] == preview["text"]


class FakeReaderSim:
    """A device double with the tokens simulator's surface; it submits what a real one would."""

    def __init__(self, table):
        self.table = table

    def pads(self):
        return [0, 1, 2, 3]

    def last_unknown_uid(self):
        return "04A1B2C3"

    def place(self, pad, uid):
        if pad not in self.pads():
            raise ValueError(f"no pad {pad}")
        self.table.submit(TagPlaced(pad=pad, uid=uid))

    def remove(self, pad, uid):
        self.table.submit(TagRemoved(pad=pad, uid=uid))


def test_tokens_sim_buttons(ctl, client, table):
    r = ctl("/api/tokens/place", {"pad": 1, "uid": "04A1B2C3"})
    assert r.status_code == 409 and "--tokens sim" in r.get_json()["error"]
    table.devices.append(FakeReaderSim(table))
    info = client.get("/api/tokens").get_json()
    assert info == {"sim": True, "pads": [0, 1, 2, 3], "last_unknown_uid": "04A1B2C3"}
    assert ctl("/api/tokens/place", {"pad": 1, "uid": "04A1B2C3"}).status_code == 200
    assert table.state.tags == ((1, "04A1B2C3", ""),)
    r = ctl("/api/tokens/place", {"pad": 9, "uid": "04A1B2C3"})
    assert r.status_code == 400 and r.get_json()["error"] == "no pad 9; pads are 0–3"
    assert ctl("/api/tokens/remove", {"pad": 1, "uid": "04A1B2C3"}).status_code == 200
    assert table.state.tags == ()


def test_enroll_a_tag(ctl, table):
    r = ctl("/api/tags/enroll", {"uid": "04a1b2c3", "object": "theosis:hero:rochon"})
    assert r.status_code == 200
    assert r.get_json()["result"] == {"uid": "04A1B2C3", "object": "theosis:hero:rochon"}  # canonical UID
    r = ctl("/api/tags/enroll", {"uid": "04A1B2C3", "object": "theosis:hero:nobody"})
    assert r.status_code == 400 and "not in the theosis catalogue" in r.get_json()["error"]
    assert ctl("/api/tags/enroll", {"uid": "04A1B2C3"}).status_code == 400


def test_enroll_without_registry_says_so(ctl, table, monkeypatch):
    monkeypatch.setattr(type(table), "enroll_tag", None, raising=False)
    r = ctl("/api/tags/enroll", {"uid": "04A1B2C3", "object": "theosis:hero:rochon"})
    assert r.status_code == 501 and "no tag registry" in r.get_json()["error"]


class FakeCamera:
    def latest_frame(self):
        return np.full((48, 64, 3), 200, np.uint8)

    def overlay(self):
        img = self.latest_frame()
        img[10:20, 10:20] = (0, 0, 255)
        return img


def test_camera_frame(client, table):
    login(client)
    r = client.get("/api/camera/frame.jpg")
    assert r.status_code == 404 and "no camera" in r.get_json()["error"]
    table.devices.append(FakeCamera())
    r = client.get("/api/camera/frame.jpg")
    assert r.status_code == 200 and r.mimetype == "image/jpeg" and r.data[:2] == b"\xff\xd8"
    import cv2

    img = cv2.imdecode(np.frombuffer(r.data, np.uint8), cv2.IMREAD_COLOR)
    assert img.shape == (48, 64, 3) and img[15, 15, 2] > 200 and img[15, 15, 0] < 60


def test_media_and_qr(client, table):
    ref = table.media.save(np.zeros((8, 8, 3), np.uint8), "crop")
    r = client.get(f"/media/{ref}")
    assert r.status_code == 200 and r.mimetype == "image/jpeg"
    assert client.get("/media/../../etc/passwd").status_code == 404
    assert client.get("/media/2026-01-01/none.jpg").status_code == 404
    qr = client.get("/qr.svg", base_url="http://table.local:8000")
    assert qr.status_code == 200 and qr.mimetype == "image/svg+xml" and b"<svg" in qr.data
    assert b"QR code of http://table.local:8000/" in qr.data


def test_qr_codes_of_many_host_headers_do_not_pile_up(client):
    from arena_table.webui.app import _qr_svg

    _qr_svg.cache_clear()
    for i in range(40):  # a client naming a new Host each time
        assert client.get("/qr.svg", base_url=f"http://h{i}.example:8000").status_code == 200
    info = _qr_svg.cache_info()
    assert info.currsize == info.maxsize == 16 and info.misses == 40


def test_status_lists_devices_and_streams(client, table):
    table.status_board.set("camera", state="running", detail="sim 30 fps")
    body = client.get("/api/status").get_json()
    assert body["devices"]["camera"]["state"] == "running"
    assert body["streams"]["max_clients"] == 200 and body["streams"]["clients"] == 0


def test_games_lists_forms_and_event_kinds(client):
    body = client.get("/api/games").get_json()
    assert "dice-tray" in [g["name"] for g in body["games"]]
    kinds = {k["kind"]: k for k in body["event_kinds"]}
    assert [f["name"] for f in kinds["correct"]["fields"]] == ["roll", "index", "value"]
    assert all(f["required"] for f in kinds["correct"]["fields"])
    assert body["running"] == "dice-tray"
    by_name = {g["name"]: g for g in body["games"]}
    assert by_name["dice-tray"]["objects"] == []
    if "theosis" in by_name:  # the catalogue offered when enrolling a tag
        assert "theosis:hero:rochon" in by_name["theosis"]["objects"]


def test_games_offer_the_board_games_start_forms(client):
    by_name = {g["name"]: g for g in client.get("/api/games").get_json()["games"]}
    theosis = {f["name"]: f for f in by_name["theosis"]["form"]}
    assert theosis["mode"]["default"] == "pvp" and len(theosis["mode"]["options"]) == 10
    assert [f"heroes_{i}" in theosis for i in range(1, 8)] == [True] * 6 + [False]
    assert len(theosis["heroes_1"]["options"]) == 12 and theosis["heroes_1"]["type"] == "multiselect"
    demigods = {f["name"]: f for f in by_name["demigods"]["form"]}
    assert [o["value"] for o in demigods["mode"]["options"]] == ["slayer", "tactics", "advanced-tactics"]
    assert (demigods["heroes"]["min"], demigods["heroes"]["max"]) == (3, 6)
    assert by_name["dice-tray"]["form"] is None


def test_spectator_page_embeds_the_state(client):
    page = client.get("/").get_data(as_text=True)
    assert 'id="initial"' in page and "Dice tray" in page and "/static/spectator.js" in page


def test_real_simulated_reader_through_the_control_api(tmp_path):
    """``--tokens sim``: the place/remove buttons reach the firmware simulator, whose reports
    come back through the driver as tag events."""
    import time

    from webhelpers import PIN

    from arena_table.table.app import Table
    from arena_table.table.config import CameraSettings, DataSettings, TableConfig, TokenSettings, WebSettings
    from arena_table.webui.app import create_app, shutdown

    with Table(TableConfig(data=DataSettings(db=tmp_path / "t.db"), camera=CameraSettings(source="none"),
                           tokens=TokenSettings(reader="sim"), web=WebSettings(pin=PIN))) as table:
        app = create_app(table)
        client = app.test_client()
        token = login(client)
        info = client.get("/api/tokens").get_json()
        assert info["sim"] is True and [p["pad"] for p in info["pads"]][:2] == [0, 1]
        r = client.post("/api/tokens/place", json={"pad": 2, "uid": "04:a1:b2:c3"}, headers={"X-CSRF-Token": token})
        assert r.status_code == 200
        end = time.monotonic() + 5
        while not table.state.tags and time.monotonic() < end:
            time.sleep(0.01)
        assert table.state.tags == ((2, "04A1B2C3", ""),)
        assert client.get("/api/tokens").get_json()["last_unknown_uid"] == "04A1B2C3"
        r = client.post("/api/tokens/place", json={"pad": 99, "uid": "04A1B2C3"}, headers={"X-CSRF-Token": token})
        assert r.status_code == 400 and r.get_json()["error"] == "no pad 99; pads are 0–3"
        r = client.post("/api/tokens/place", json={"pad": -1, "uid": "04A1B2C3"}, headers={"X-CSRF-Token": token})
        assert r.status_code == 400 and r.get_json()["error"] == "no pad -1; pads are 0–3"
        assert table.state.tags == ((2, "04A1B2C3", ""),)  # nothing laid on pad 3 by index -1
        shutdown(app)


def test_spectator_page_cannot_be_broken_out_of_by_a_name(app, ctl, client):
    ctl("/api/events", {"notation": 'note text="</script><script>alert(1)</script>"'})
    settle(app, 1)
    page = client.get("/").get_data(as_text=True)
    assert "<script>alert(1)" not in page and "\\u003c/script>\\u003cscript>alert(1)" in page


def test_sealed_bids_are_hidden_from_spectators_in_the_event_log(ctl, client, table):
    from pathlib import Path

    from arena_table.rules import parse

    golden = Path(__file__).resolve().parents[1] / "rules" / "theosis" / "golden" / "coop-2p.txt"
    lines = [ln for ln in golden.read_text().splitlines() if ln.strip() and not ln.startswith("#")]
    upto = next(i for i, ln in enumerate(lines) if ln.startswith("th-bid player=Ann"))
    for line in lines[: upto + 1]:
        table.submit(parse(line))
    bid = client.get(f"/api/events?since={upto}").get_json()["events"][0]
    assert bid["event"] == {"kind": "th-bid", "at": bid["event"]["at"], "player": "Ann", "amount": "hidden",
                            "hero": "hidden"}
    assert bid["text"] == "th-bid (details hidden)"
    seen = client.get(f"/api/events?since={upto}&viewer=control").get_json()["events"][0]
    assert seen["event"]["amount"] == 1 and seen["text"].startswith("th-bid player=Ann amount=1")


@pytest.mark.parametrize("body,message", [
    ({"event": {"kind": "tag-on", "pad": 0, "uid": "zz"}}, "uid must be upper-case hex"),
    ({"event": {"kind": "tag-on", "pad": 0, "uid": "04a1b2c3"}}, "uid must be upper-case hex"),
    ({"event": {"kind": "tag-off", "pad": -5, "uid": "04A1B2C3"}}, "pad must be 0 or more, got -5"),
    ({"event": {"kind": "tag-on", "pad": 0, "uid": "04A1B2C3", "object": "x"}}, "object 'x' is in no game's catalogue"),
    ({"event": {"kind": "roll", "faces": [3], "at": -1}, "keep_time": True}, "at=-1.0 is not a plausible time"),
    ({"event": {"kind": "roll", "faces": [3], "at": 1e308}, "keep_time": True}, "is not a plausible time"),
])
def test_events_the_hardware_edge_would_never_send_are_refused(ctl, table, body, message):
    """A new user's audit: these were recorded (201) though no reader or clock can produce them."""
    r = ctl("/api/events", body)
    assert r.status_code == 400 and message in r.get_json()["error"]
    assert table.rows() == []


def test_a_catalogued_tag_event_is_accepted(ctl, table):
    r = ctl("/api/events", {"event": {"kind": "tag-on", "pad": 1, "uid": "04A1B2C3",
                                      "object": "theosis:hero:rochon"}})
    assert r.status_code == 201 and table.rows()[-1].event.object == "theosis:hero:rochon"


def test_media_is_served_with_a_relative_db_path(tmp_path, monkeypatch):
    """The default ``--db`` is relative (var/arena-table.db); Flask resolved the media path against
    its package folder, so every die crop was a 500 (a new user's audit)."""
    from arena_table.table.app import Table
    from arena_table.table.config import CameraSettings, DataSettings, TableConfig
    from arena_table.webui.app import create_app, shutdown

    monkeypatch.chdir(tmp_path)
    with Table(TableConfig(data=DataSettings(db="var/t.db"), camera=CameraSettings(source="none"))) as t:
        assert t.data_dir == tmp_path / "var"
        ref = t.media.save(np.zeros((8, 8, 3), np.uint8), "crop")
        app = create_app(t, {"heartbeat": 0.3})
        try:
            r = app.test_client().get(f"/media/{ref}")
            assert r.status_code == 200 and r.mimetype == "image/jpeg"
        finally:
            shutdown(app)
