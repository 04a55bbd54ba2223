"""``GET /api/actions``: the running game's offers for a logged-in session, and a tapped offer
submitted as the event it makes."""

from __future__ import annotations

import time


from arena_table.rules import parse
from arena_table.webui.views import plain_notation

OPTIONS = {"players": ["Ann", "Bo"], "heroes": {"Ann": ["rochon", "rac", "norn"], "Bo": ["aer", "lug", "edhel"]}}


def test_actions_need_a_session(client):
    assert client.get("/api/actions").status_code == 401


def test_theosis_placement_from_the_offers_is_accepted_and_the_turn_passes(client, ctl):
    assert ctl("/api/start", {"game": "theosis", "options": OPTIONS}).status_code == 201
    body = client.get("/api/actions").get_json()
    assert body["game"] == "theosis"
    assert body["prompt"] == "Ann: place a hero on a golden quest slot"
    assert body["turn"] == ""  # the prompt names the player already
    norn = next(a for a in body["actions"] if a["label"] == "Place Norn")
    assert norn["player"] == "Ann"
    guardian = next(c for c in norn["params"][0]["choices"] if c["label"] == "Guardian quest (golden slot)")
    r = ctl("/api/events", {"event": {"kind": norn["kind"], **norn["fields"], **guardian["fields"]}})
    assert r.status_code == 201, r.get_json()
    assert r.get_json()["event"] == "th-place hero=norn location=guardian golden=true"
    after = client.get("/api/actions").get_json()
    assert after["prompt"] == "Bo: place a hero on a golden quest slot"
    assert {a["player"] for a in after["actions"] if a["kind"] == "th-place"} == {"Bo"}


def test_the_dice_tray_offers_a_roll_by_taps_and_records_it(client, ctl):
    body = client.get("/api/actions").get_json()
    assert body["offers"] is True
    (roll,) = body["actions"]
    assert roll["label"] == "Enter a roll"
    d20 = next(c for c in roll["params"][0]["choices"] if c["label"] == "d20")
    face = d20["then"][0]["choices"][16]
    r = ctl("/api/events", {"event": {"kind": roll["kind"], **roll["fields"], **d20["fields"], **face["fields"]}})
    assert r.status_code == 201, r.get_json()
    assert r.get_json()["event"] == "roll die=d20 faces=[17] source=control"


def test_the_control_log_gives_plain_words_without_image_paths_or_epoch_seconds(client, ctl):
    at = round(time.time() - 5, 3)
    ev = {"kind": "roll", "die": "d6", "faces": [4], "source": "dir:/home/pi/shots/IMG_0042.jpg", "at": at}
    r = ctl("/api/events", {"event": ev, "keep_time": True})
    assert r.status_code == 201, r.get_json()
    row = client.get("/api/events?viewer=control").get_json()["events"][-1]
    assert "/home/pi" in row["text"] and str(int(at)) in row["text"]  # the notation keeps everything
    assert row["words"] == "Rolled 1d6: 4 (total 4)"  # the table log's line
    assert plain_notation(parse(row["text"])) == "roll faces=[4] source=IMG_0042.jpg"
    assert len(row["when"]) == 8 and row["when"].count(":") == 2
