"""A tagged hero token laid on a pad of the simulated reader shows that hero as acting.

The token path is the real one: the firmware logic under CPython writes lines into a
pseudo-terminal, the host driver reads them, the engine applies ``tag-on``, the stream
carries the new state and the page renders it.
"""

from __future__ import annotations

import time

import pytest
from browserkit import PIN

from arena_table.table.app import Table
from arena_table.table.config import CameraSettings, DataSettings, TableConfig, TokenSettings, WebSettings
from arena_table.webui.app import create_app
from arena_table.webui.server import ServerThread

pytestmark = pytest.mark.browser


def test_placing_a_hero_token_shows_the_hero_acting(browser, tmp_path):
    """Prints the place-to-page latency (issue 6 asks for <= 100 ms); run with ``-s`` to see it.
    Timing is reported, not asserted: a loaded CI machine must not make this test flaky."""
    table = Table(TableConfig(data=DataSettings(db=tmp_path / "t.db"), camera=CameraSettings(source="none"),
                              tokens=TokenSettings(reader="sim"), web=WebSettings(pin=PIN))).start()
    server = ServerThread(create_app(table, {"heartbeat": 15.0}), "127.0.0.1", 0).start()
    try:
        device = next(d for d in table.devices if hasattr(d, "place"))
        deadline = time.monotonic() + 10
        while table.status().get("tokens", {}).get("state") != "up" and time.monotonic() < deadline:
            time.sleep(0.02)
        assert table.status()["tokens"]["state"] == "up"
        table.enroll_tag("04A1B2C3", "theosis:hero:rochon")
        table.enroll_tag("04A1B2C4", "demigods:hero:trapper")
        ctx = browser.new_context(viewport={"width": 1920, "height": 1080})
        page = ctx.new_page()
        page.goto(server.url + "/")
        page.wait_for_function("window.arena && window.arena.connected", timeout=5000, polling=20)
        figures = []
        for pad, uid, name in [(0, "04A1B2C3", "Rochon"), (1, "04A1B2C4", "Trapper"), (0, "04A1B2C3", "Rochon")]:
            if pad == 0 and figures:  # lift Rochon (past the debounce) and lay him down again
                device.remove(0, uid)
                deadline = time.monotonic() + 5
                while any(t[0] == 0 for t in table.state.tags) and time.monotonic() < deadline:
                    time.sleep(0.01)
                assert page.text_content("#acting .who") == "Trapper"
            before = page.evaluate("Date.now()")
            device.place(pad, uid)
            page.wait_for_function(f"() => (document.querySelector('#acting .who') || {{}}).textContent === {name!r}",
                                   timeout=5000, polling="raf")
            figures.append(page.evaluate("Date.now()") - before)
            assert page.text_content("#acting .label") == "Acting now"
            assert page.text_content("#acting .side") == f"token on pad {pad}"
        print(f"\nhero token placed -> page shows the hero acting: {figures} ms")
        ctx.close()
    finally:
        server.stop()
        table.close()
