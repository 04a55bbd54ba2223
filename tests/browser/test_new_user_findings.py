"""What a tester found as a new user: the footer's camera state, long names, the log of the
running game only, and the control page's correction, undo, help and camera panels."""

from __future__ import annotations

import pytest
from browserkit import browser, live, login, page, phone  # noqa: F401 (fixtures)

from arena_table.rules import DiceRolled, parse

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
    assert [e for e in page.errors if not e.startswith("Failed to load resource")] == []  # 404 camera, 409 undo


def test_correction_buttons_go_away_after_the_roll_is_undone(live, page):
    login(page, live.url)
    live.table.submit(DiceRolled(faces=(2, 5)))
    page.wait_for_selector("#correct-dice button[data-index='0']")
    page.click("#correct-dice button[data-index='0']")
    page.wait_for_selector("#correct-values button:text-is('6')")
    assert page.locator("#correct-values button").count() == 6
    page.click("#undo-button")
    page.wait_for_selector("#undo-dialog[open]")
    page.click("#undo-confirm")
    page.wait_for_function("document.querySelector('#toast').textContent === 'Undone #1: Rolled 2d6: 2, 5 (total 7)'")
    page.wait_for_function("document.querySelector('#correct-dice').textContent === 'No roll yet.'")
    assert not page.locator("#correct-values").is_visible()
    assert page.locator("#correct-values button").count() == 0
    assert [e for e in page.errors if not e.startswith("Failed to load resource")] == []  # 404 camera, 409 undo


def test_demigods_offers_no_correction(live, page):
    from test_spectator import ROOT

    lines = [ln for ln in (ROOT / "tests/rules/demigods/golden/advanced-tactics.txt").read_text().splitlines()
             if ln.strip() and not ln.startswith("#")]
    login(page, live.url)
    live.table.submit(DiceRolled(faces=(4, 1)))
    page.wait_for_function("document.querySelector('#dice-h').textContent === 'Last roll — tap a die to correct it'")
    for line in lines[:2]:  # start Demigods, then "roll die=dg-demigod faces=[2,3]"
        live.table.submit(parse(line))
    page.wait_for_selector("#correct-refused")
    assert page.inner_text("#dice-h") == "Last roll"
    assert page.locator("#correct-dice button").count() == 0
    assert page.inner_text("#correct-refused").startswith(
        "No correction here: Demigods uses each die the moment it is read, so roll 3 cannot be corrected afterwards")
    assert not page.locator("#correct-values").is_visible()
    assert [e for e in page.errors if not e.startswith("Failed to load resource")] == []  # 404 camera, 409 undo


def test_undo_dialog_says_plain_words_and_a_clock_time(live, page):
    import time

    login(page, live.url)
    live.table.submit(DiceRolled(faces=(2, 4, 6), at=time.time()))
    at = live.table.rows()[0].event.at
    when = time.strftime("%H:%M:%S", time.localtime(at))
    page.wait_for_function("document.querySelector('#undo-what').textContent.startsWith('Would undo event #1')")
    assert page.inner_text("#undo-what") == f"Would undo event #1: Rolled 3d6: 2, 4, 6 (total 12), at {when}"
    page.click("#undo-button")
    page.wait_for_selector("#undo-dialog[open]")
    assert page.inner_text("#undo-question") == f"Undo event #1: Rolled 3d6: 2, 4, 6 (total 12), at {when}?"
    assert "faces=" not in page.inner_text("#undo-question") and str(int(at)) not in page.inner_text("#undo-question")
    page.click("#undo-dialog button[value=cancel]")


def test_field_help_has_no_rst_markup(live, page):
    login(page, live.url)
    page.wait_for_selector("#event-kind option[value='undo']", state="attached")
    page.select_option("#event-kind", "undo")
    assert page.inner_text("#event-help") == \
        "Takes back the earlier event with sequence number seq (kept in the log). Fields: seq"
    page.select_option("#event-kind", "dg-pick")
    assert "``" not in page.inner_text("#event-help")
    assert page.inner_text("#event-help").startswith("player takes hero hero (Chieftain")


def test_camera_panel_shows_a_failing_reader(live, page):
    live.table.status_board.set("camera", state="error",
                                detail="camera sim: dice reader failed (FileNotFoundError: models/dice.onnx)")
    login(page, live.url)
    page.wait_for_function("document.querySelector('#camera-note').textContent.startsWith('Camera error')")
    assert page.inner_text("#camera-note") == \
        "Camera error: camera sim: dice reader failed (FileNotFoundError: models/dice.onnx)"
    assert "outlined" not in page.inner_text("#camera-note")
