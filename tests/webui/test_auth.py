"""The control page's lock: PIN, session cookie, CSRF, the wrong-PIN back-off, and no way in for spectators."""

from __future__ import annotations

import json
import re

import pytest
from webhelpers import PIN, login

from arena_table.webui.auth import PUBLIC_MUTATING
from arena_table.webui.pin_backoff import FREE_FAILURES, PinBackoff

MUTATING = {"POST", "PUT", "PATCH", "DELETE"}


def _fill(rule: str) -> str:
    return re.sub(r"<[^>]+>", "x", rule)


def test_every_mutating_route_refuses_an_anonymous_request(app, client, table):
    routes = [(r, m) for r in app.url_map.iter_rules() for m in sorted((r.methods or set()) & MUTATING)]
    assert len(routes) >= 9, routes  # events, start, correct, undo, enroll, place, remove, login, logout
    token = client.get("/api/session").get_json()["csrf"]  # a spectator can get a token, not a session
    for rule, method in routes:
        url = _fill(rule.rule)
        for headers in ({}, {"X-CSRF-Token": token}):
            resp = client.open(url, method=method, json={"notation": "roll faces=[6]", "game": "dice-tray",
                                                        "roll": 1, "index": 0, "value": 6, "seq": 1,
                                                        "uid": "04A1B2C3", "object": "x", "pad": 0},
                               headers=headers)
            if rule.endpoint in PUBLIC_MUTATING:
                assert resp.status_code in (401, 403), (rule.rule, headers, resp.status_code)
            else:
                assert resp.status_code == 401, (rule.rule, method, headers, resp.status_code)
    assert table.version == 0 and table.rows() == []  # nothing was submitted, not even as rejected


def test_control_reads_need_the_session_too(client):
    assert client.get("/control").status_code == 302
    assert client.get("/control").headers["Location"].startswith("/login")
    for url in ("/api/undo", "/api/tokens", "/api/camera/frame.jpg", "/api/state?viewer=control"):
        assert client.get(url).status_code == 401, url


def test_wrong_pin_refused_right_pin_works(client):
    token = client.get("/api/session").get_json()["csrf"]
    bad = client.post("/login", json={"pin": "000000"}, headers={"X-CSRF-Token": token})
    assert bad.status_code == 401 and "wrong PIN" in bad.get_json()["error"]
    assert client.get("/api/session").get_json()["authenticated"] is False
    ok = client.post("/login", json={"pin": PIN}, headers={"X-CSRF-Token": token})
    assert ok.status_code == 200 and ok.get_json()["authenticated"] is True
    cookie = ok.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie
    assert client.get("/control").status_code == 200


@pytest.mark.parametrize("body", [[1, 2], "x", 7, None])
def test_login_with_a_json_body_that_is_not_an_object_is_400(client, body):
    token = client.get("/api/session").get_json()["csrf"]
    r = client.post("/login", data=json.dumps(body), content_type="application/json",
                    headers={"X-CSRF-Token": token, "Accept": "application/json"})
    assert r.status_code == 400
    assert r.get_json()["error"] == 'the body must be a JSON object such as {"pin": "123456"}'
    assert client.get("/api/session").get_json()["authenticated"] is False


def test_form_login_redirects_and_refuses_open_redirects(client):
    page = client.get("/login").get_data(as_text=True)
    token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    resp = client.post("/login?next=//evil.example/x", data={"pin": PIN, "csrf_token": token})
    assert resp.status_code == 303 and resp.headers["Location"] == "/control"


def test_login_without_csrf_token_is_refused(client):
    client.get("/api/session")
    resp = client.post("/login", json={"pin": PIN})
    assert resp.status_code == 403
    assert client.get("/api/session").get_json()["authenticated"] is False


def test_post_without_or_with_wrong_csrf_token_is_refused(client, table):
    token = login(client)
    assert client.post("/api/events", json={"notation": "roll faces=[2]"}).status_code == 403
    assert client.post("/api/events", json={"notation": "roll faces=[2]"},
                       headers={"X-CSRF-Token": token[:-1] + "x"}).status_code == 403
    assert table.version == 0
    resp = client.post("/api/events", json={"notation": "roll faces=[2]"}, headers={"X-CSRF-Token": token})
    assert resp.status_code == 201 and resp.get_json()["seq"] == 1


def test_wrong_pins_make_the_address_wait(app, client):
    app.extensions["arena_pin_backoff"] = PinBackoff(clock=lambda: 1000.0)  # time stands still
    token = client.get("/api/session").get_json()["csrf"]
    for i in range(FREE_FAILURES):
        r = client.post("/login", json={"pin": "1111"}, headers={"X-CSRF-Token": token})
        assert r.status_code == 401
        left = FREE_FAILURES - i - 1
        if left:
            assert f"({left} {'try' if left == 1 else 'tries'} left before a wait)" in r.get_json()["error"]
    assert r.get_json()["error"] == "wrong PIN: the next try from this address in 1 s"
    r = client.post("/login", json={"pin": PIN}, headers={"X-CSRF-Token": token})
    assert r.status_code == 429  # even the right PIN waits out the wait
    assert r.headers["Retry-After"] == "1" and "arena-table pin" in r.get_json()["error"]


def test_logout_ends_the_session(client):
    token = login(client)
    assert client.post("/logout", headers={"X-CSRF-Token": token}).status_code == 303  # back to the screen
    assert client.get("/control").status_code == 302


@pytest.mark.parametrize("pin", ["abc", "12 4"])
def test_app_needs_a_digit_pin(table, pin):
    from arena_table.webui.app import create_app

    with pytest.raises(ValueError, match="digits"):
        create_app(table, {"pin": pin})
