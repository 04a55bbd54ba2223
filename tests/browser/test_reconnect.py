"""A spectator page through a restart of the table service: fresh snapshot, no duplicated lines."""

from __future__ import annotations

import pytest
from browserkit import PIN, Live, start_live, stop_live

from arena_table.rules import DiceRolled

pytestmark = pytest.mark.browser


def test_reconnect_after_restart_gets_the_new_epoch_without_duplicated_log_lines(tmp_path, page):
    db = tmp_path / "table.db"
    first = start_live(db)
    port = first.server.port
    try:
        page.goto(first.url + "/")
        for f in range(1, 6):
            first.table.submit(DiceRolled(faces=(f,)))
        page.wait_for_function("window.arena.cur.version === 5", timeout=5000, polling=20)
        epoch1 = page.evaluate("window.arena.cur.epoch")
        assert page.eval_on_selector_all("#log li", "els => els.map(e => e.dataset.seq)") == ["1", "2", "3", "4", "5"]
    finally:
        stop_live(first)
    page.wait_for_selector("#conn", state="visible", timeout=10000)
    assert page.inner_text("#conn") == "Reconnecting…"
    second = start_live(db, port)
    try:
        page.wait_for_function("e => window.arena.cur.epoch !== e && window.arena.connected", arg=epoch1,
                               timeout=20000, polling=50)
        assert page.locator("#conn").is_hidden()
        last = page.evaluate("window.arena.snapshots[window.arena.snapshots.length - 1]")
        assert last == {"epoch": second.table.epoch, "version": 5, "reason": "new-epoch"}
        seqs = page.eval_on_selector_all("#log li", "els => els.map(e => e.dataset.seq)")
        assert seqs == ["1", "2", "3", "4", "5"]
        second.table.submit(DiceRolled(faces=(6,)))
        page.wait_for_function("window.arena.cur.version === 6", timeout=5000, polling=20)
        seqs = page.eval_on_selector_all("#log li", "els => els.map(e => e.dataset.seq)")
        assert seqs == ["1", "2", "3", "4", "5", "6"]
        assert page.locator("#history li").count() == 6
    finally:
        stop_live(second)


def test_a_refused_stream_says_the_table_is_full_and_joins_when_a_place_frees(tmp_path, browser):
    """At the viewer cap /api/stream answers 503: a page loaded before the cap was reached says
    "The table is full" (not "Reconnecting…") and connects by itself once a viewer leaves."""
    from arena_table.table.app import Table
    from arena_table.table.config import CameraSettings, DataSettings, TableConfig, WebSettings
    from arena_table.webui.app import create_app
    from arena_table.webui.server import ServerThread

    table = Table(TableConfig(data=DataSettings(db=tmp_path / "table.db"), camera=CameraSettings(source="none"),
                              web=WebSettings(pin=PIN))).start()
    # no TV address: the browser's 127.0.0.1 would have the TV's own slots, beyond the spectators' one
    app = create_app(table, {"heartbeat": 15.0, "max_clients": 1, "tv_addresses": ()})
    live = Live(table, app, ServerThread(app, "127.0.0.1", 0).start())
    first_ctx, late_ctx = browser.new_context(), browser.new_context()
    try:
        first, late = first_ctx.new_page(), late_ctx.new_page()
        html = first.request.get(live.url + "/")  # the page as served while there was room
        assert html.status == 200
        first.goto(live.url + "/")
        first.wait_for_function("window.arena.connected", timeout=5000, polling=20)
        assert first.request.get(live.url + "/api/stream", headers={"Accept": "text/event-stream"}).status == 503
        late.route(live.url + "/", lambda route: route.fulfill(status=200, content_type="text/html", body=html.body()))
        late.goto(live.url + "/")
        late.wait_for_function("window.arena.full === true", timeout=10000, polling=50)
        banner = late.locator("#conn")
        assert banner.is_visible()
        assert banner.inner_text() == ("The table is full: 1 viewer is connected, the most this table serves. "
                                       "This page tries again by itself.")
        first_ctx.close()  # a viewer leaves: the late page gets the place at its next try (10 s)
        late.wait_for_function("window.arena.connected && !window.arena.full", timeout=25000, polling=100)
        assert banner.is_hidden()
        table.submit(DiceRolled(faces=(4,)))
        late.wait_for_function("window.arena.cur.version === 1", timeout=5000, polling=20)
    finally:
        first_ctx.close()
        late_ctx.close()
        stop_live(live)
