"""A spectator page through a restart of the table service: fresh snapshot, no duplicated lines."""

from __future__ import annotations

import pytest
from browserkit import browser, page, start_live, stop_live  # noqa: F401 (fixtures)

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
