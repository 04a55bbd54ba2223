"""Malformed requests get a JSON error naming what was wrong (400/413/422), never a 500 page."""

from __future__ import annotations

import json
import logging

import pytest
from webhelpers import login

from arena_table.webui import app as webapp


@pytest.fixture
def token(client):
    return login(client)


@pytest.fixture
def raw(client, token):
    """POST a raw body as JSON (the test client's ``json=`` cannot send ``1e400`` or bad JSON)."""
    def post(url, body: str | bytes, content_type: str = "application/json"):
        return client.post(url, data=body, headers={"X-CSRF-Token": token, "Content-Type": content_type})
    return post


def test_huge_float_in_a_correction_is_400_not_500(raw, table):
    raw("/api/events", json.dumps({"notation": "roll faces=[3,4]"}))
    r = raw("/api/correct", '{"roll":1,"index":0,"value":1e400}')
    assert r.status_code == 400 and r.get_json() == {"error": "value must be a whole number, got inf", "status": 400}
    r = raw("/api/correct", '{"roll":1,"index":0,"value":NaN}')
    assert r.status_code == 400
    assert r.get_json()["error"] == "the request body is not valid JSON: NaN is not a number JSON allows"
    assert table.state.tray.rolls[0].faces == (3, 4)


def test_events_since_beyond_sqlite_and_negative_limit(client):
    r = client.get("/api/events?since=99999999999999999999999")
    assert r.status_code == 400 and r.get_json()["error"] == "since is too large (23 digits)"
    r = client.get("/api/events?since=9007199254740993")
    assert r.status_code == 400 and r.get_json()["error"] == "since is too large (16 digits)"
    r = client.get("/api/events?limit=-5")
    assert r.status_code == 400 and r.get_json()["error"] == "limit must be at least 1, got -5"
    r = client.get("/api/events?since=-1")
    assert r.status_code == 400 and r.get_json()["error"] == "since must be at least 0, got -1"
    assert client.get("/api/events?limit=5000").status_code == 200  # clamped to 1000, as documented
    params = {p["name"]: p for p in client.get("/api/openapi.json").get_json()["paths"]["/api/events"]["get"]["parameters"]}
    assert params["limit"]["schema"]["minimum"] == 1 and "clamped to 1000" in params["limit"]["description"]


def test_deep_nesting_is_400(raw, table):
    r = raw("/api/events", json.dumps({"notation": "roll faces=" + "[" * 5000 + "1" + "]" * 5000}))
    assert r.status_code == 400 and r.get_json()["error"] == "notation of 10012 characters; at most 4000"
    r = raw("/api/events", json.dumps({"notation": "roll faces=" + "[" * 1000 + "1" + "]" * 1000}))
    assert r.status_code == 400 and "nested too deeply" in r.get_json()["error"]
    r = raw("/api/start", '{"game":"dice-tray","options":' + '{"a":' * 3000 + "1" + "}" * 3000 + "}")
    assert r.status_code == 400
    assert r.get_json()["error"] == "the request body is nested too deeply (at most 32 levels)"
    r = raw("/api/start", '{"game":"dice-tray","options":' + '{"a":' * 40 + "1" + "}" * 40 + "}")
    assert r.status_code == 400
    assert r.get_json()["error"] == "the request body is nested too deeply (at most 32 levels)"
    r = raw("/api/start", json.dumps({"game": "dice-tray", "options": "[" * 3000 + "]" * 3000}))
    assert r.status_code == 400 and r.get_json()["error"] == "options are nested too deeply (at most 32 levels)"
    assert table.rows() == []


def test_integers_are_integers(raw, table):
    raw("/api/events", json.dumps({"notation": "roll faces=[3,4]"}))
    for body, message in [({"roll": 1.7, "index": 0, "value": 2}, "roll must be a whole number, got 1.7"),
                          ({"roll": 1, "index": True, "value": 2}, "index must be a whole number, got True"),
                          ({"roll": 1, "index": 0, "value": 2.0}, "value must be a whole number, got 2.0"),
                          ({"roll": 0, "index": 0, "value": 2}, "roll must be at least 1, got 0"),
                          ({"roll": 1, "index": -1, "value": 2}, "index must be at least 0, got -1"),
                          ({"roll": 2 ** 64, "index": 0, "value": 2}, "roll is too large (20 digits)")]:
        r = raw("/api/correct", json.dumps(body))
        assert (r.status_code, r.get_json()["error"]) == (400, message)
    assert len(table.rows()) == 1 and table.state.tray.rolls[0].faces == (3, 4)


def test_size_limits(raw, table, app):
    assert app.config["MAX_CONTENT_LENGTH"] == 64 * 1024
    r = raw("/api/events", json.dumps({"notation": "note text=" + "x" * 70000}))
    assert r.status_code == 413
    assert r.get_json() == {"error": "the request body is larger than 64 KiB", "status": 413}
    r = raw("/api/events", json.dumps({"notation": "roll faces=[" + ",".join(["6"] * 101) + "]"}))
    assert r.status_code == 400 and r.get_json()["error"] == "faces: 101 values; at most 100 dice per roll"
    r = raw("/api/events", json.dumps({"event": {"kind": "roll", "faces": [6] * 101}}))
    assert r.status_code == 400 and r.get_json()["error"] == "event.faces: 101 values; at most 100 dice per roll"
    r = raw("/api/events", json.dumps({"notation": "roll faces=[6] source=" + "s" * 201}))
    assert r.status_code == 400 and r.get_json()["error"] == "source: text of 201 characters; at most 200"
    r = raw("/api/start", json.dumps({"game": "dice-tray", "options": {"players": ["A" * 3000]}}))
    assert r.status_code == 400 and r.get_json()["error"] == "options.players[0]: text of 3000 characters; at most 200"
    r = raw("/api/events", json.dumps({"notation": "roll faces=[" + ",".join(["6"] * 100) + "]"}))
    assert r.status_code == 201  # 100 dice is still a roll
    assert [row.seq for row in table.rows()] == [1]


def test_uncaught_error_on_the_api_is_json_500_and_logged(app, client, caplog, monkeypatch):
    def boom(*a, **kw):
        raise ZeroDivisionError("division by zero")
    monkeypatch.setattr(webapp, "log_rows", boom)
    with caplog.at_level(logging.ERROR, logger="arena_table.webui.app"):
        r = client.get("/api/events")
    assert r.status_code == 500 and r.is_json
    assert r.get_json() == {"error": "internal error (ZeroDivisionError); the table logged the details", "status": 500}
    assert "uncaught error on GET /api/events" in caplog.text and "ZeroDivisionError" in caplog.text
    assert caplog.records[-1].exc_info is not None  # the traceback is in the log
    r = client.get("/api/no-such-route")
    assert r.status_code == 404 and r.get_json()["status"] == 404
    assert client.get("/no-such-page").status_code == 404 and not client.get("/no-such-page").is_json


MALFORMED = [b"", b"   ", b"not json", b"{", b"[]", b"[1,2]", b"42", b'"text"', b"null", b"true",
             b'{"a":1e400}', b"9" * 5000, b"[" * 3000 + b"]" * 3000, b'{"a":' * 3000 + b"1" + b"}" * 3000,
             b"\xff\xfe\x00garbage", b'{"game":5,"options":[],"roll":"x","index":null,"value":{},"pad":1e99,'
             b'"uid":7,"object":[],"seq":-3,"notation":12,"event":"roll"}',
             b'{"game":"dice-tray","options":{"x":1e400},"roll":1e400,"index":1e400,"value":-1e400,"pad":1e400,'
             b'"uid":"' + b"u" * 5000 + b'","object":"o","seq":99999999999999999999999,'
             b'"notation":"roll faces=[1e400]","event":{"kind":"roll","faces":[1e400]}}',
             b'{"event":{"kind":"nope"}}', b'{"event":{"kind":"roll","faces":"abc"}}',
             b'{"event":{"kind":"roll","faces":[1,2],"at":"soon"}}', b'{"notation":"roll faces=[99999999999999999999999]"}']


def test_fuzz_every_json_route_never_500(app, client, raw, table):
    routes = sorted(r.rule for r in app.url_map.iter_rules() if r.rule.startswith("/api/") and "POST" in r.methods)
    assert {"/api/events", "/api/start", "/api/correct", "/api/undo", "/api/tags/enroll", "/api/tokens/place",
            "/api/tokens/remove"} <= set(routes)
    raw("/api/events", json.dumps({"notation": "roll faces=[3,4]"}))
    seen = {}
    for url in routes:
        for body in MALFORMED:
            for ctype in ("application/json", "text/plain"):
                r = raw(url, body, ctype)
                assert r.status_code != 500 and r.status_code < 500 or r.status_code in (501, 503), (url, body[:60])
                assert r.is_json and isinstance(r.get_json().get("error"), str), (url, body[:60], r.data[:200])
                seen[r.status_code] = seen.get(r.status_code, 0) + 1
    assert set(seen) <= {400, 404, 409, 413, 422, 501}
    assert table.state.tray.rolls[0].faces == (3, 4)
    for q in ("since=1e400", "since=", "limit=abc", "limit=0", "since=--1", "since=%00", "viewer=control&since=-0"):
        r = client.get("/api/events?" + q)
        assert r.status_code in (200, 400) and r.is_json, q


def test_a_correction_with_an_unknown_field_is_refused_and_names_it(raw, table):
    raw("/api/events", json.dumps({"notation": "roll faces=[3,4]"}))
    r = raw("/api/correct", '{"roll":1,"index":0,"vaule":5,"value":2}')
    assert r.status_code == 400 and r.get_json()["error"] == \
        "unknown field(s) 'vaule': a correction takes roll, index, value and drop"
    assert table.state.tray.rolls[0].faces == (3, 4)


def test_correcting_a_roll_that_is_not_there_says_why(raw, client, table):
    """A new user's trial: a correction of an undone roll answered "no roll with seq 1 in this game"."""
    def correct(roll):
        r = raw("/api/correct", json.dumps({"roll": roll, "index": 0, "value": 2}))
        assert r.status_code == 422
        return r.get_json()["reason"]

    raw("/api/events", json.dumps({"notation": "roll faces=[3,4]"}))  # 1
    raw("/api/events", json.dumps({"notation": "note text=hello"}))  # 2
    raw("/api/events", json.dumps({"notation": "roll faces=[9]"}))  # 3: refused, a d6 has no 9
    raw("/api/events", json.dumps({"notation": "roll faces=[5]"}))  # 4
    assert raw("/api/undo", json.dumps({"seq": 4})).status_code == 200  # 5
    assert correct(4) == "roll 4 was undone: there is nothing to correct"
    assert correct(2) == "event 2 is a note, not a roll"
    assert correct(3) == "event 3 was refused when it came in: there is no roll 3 to correct"
    assert correct(99) == "no roll with seq 99 in this game"
    raw("/api/start", json.dumps({"game": "dice-tray", "confirm": True}))
    started = table.state.started_seq
    assert correct(1) == f"roll 1 belongs to an earlier game (this one started at event {started})"
    assert [row.status for row in table.rows()[-1:]] == ["rejected"]  # each refusal is on record
