"""What a tester found as a new user: the footer's camera state, long names, the log of the
running game only, and the control page's correction, undo, help and camera panels."""

from __future__ import annotations

import pytest
from browserkit import browser, live, login, page, phone  # noqa: F401 (fixtures)

from arena_table.rules import DiceRolled

pytestmark = pytest.mark.browser


def test_failing_dice_reader_is_red_in_the_footer(live, page):
    live.table.status_board.set("camera", state="ok", detail="camera sim: running")
    page.goto(live.url + "/")
    page.wait_for_function("document.querySelector('#devices').textContent.includes('camera: ok')", timeout=5000)
    assert page.locator("#devices li.ok").count() == 1
    live.table.status_board.set("camera", state="error",
                                detail="camera sim: dice reader failed (FileNotFoundError: models/dice.onnx)")
    page.wait_for_function("document.querySelector('#devices li.bad') !== null", timeout=5000)
    li = page.locator("#devices li.bad")
    assert li.inner_text() == "camera: error — camera sim: dice reader failed (FileNotFoundError: models/dice.onnx)"
    assert li.evaluate("e => getComputedStyle(e).color") == "rgb(255, 122, 61)"  # --vermillion
    live.table.status_board.set("camera", state="ok", detail="camera sim: running, dice reader back")
    page.wait_for_function("document.querySelector('#devices li.ok') !== null", timeout=5000)
    assert page.inner_text("#devices") == "camera: ok — camera sim: running, dice reader back"
    assert page.errors == []
