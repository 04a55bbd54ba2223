"""What a tester found as a new user: the footer's camera state, long names, the log of the
running game only, and the control page's correction, undo, help and camera panels."""

from __future__ import annotations

import pytest
from browserkit import login

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


def test_the_footer_shows_a_token_readers_bad_lines_and_the_last_reason(live, page):
    """A new user's trial: garbled serial lines were only counted in /api/status; the page said nothing."""
    live.table.status_board.set("tokens", state="up", detail="reader on /dev/ttyACM0",
                                counters={"garbage_lines": 0, "events": 3})
    page.goto(live.url + "/")
    page.wait_for_function("document.querySelector('#devices').textContent.includes('tokens: up')", timeout=5000)
    assert page.inner_text("#devices") == "tokens: up — reader on /dev/ttyACM0"
    live.table.status_board.set("tokens", state="up", detail="reader on /dev/ttyACM0",
                                counters={"garbage_lines": 7, "events": 3},
                                last_bad_line={"reason": "bad checksum", "line": "PLACED pad=1 uid=04*00", "at": 0})
    page.wait_for_function("document.querySelector('#devices').textContent.includes('bad lines')", timeout=5000)
    assert page.inner_text("#devices") == "tokens: up — reader on /dev/ttyACM0 · 7 bad lines, last: bad checksum"


def test_a_throw_held_for_a_re_roll_is_not_shown_with_the_roll_before_it(live, page):
    """A new user's trial: the footer read "camera: ok — camera sim: rolled 5, 4, 2 · please re-roll
    1 die", where 5, 4, 2 was the roll before, and the throw to re-roll was not recorded."""
    live.table.status_board.set("camera", state="ok", detail="camera sim: rolled 5, 4, 2",
                                reroll=[{"status": "unreadable", "reason": "", "center": [10, 10], "box": [0, 0, 20, 20]}])
    page.goto(live.url + "/")
    page.wait_for_function("document.querySelector('#devices').textContent.includes('re-roll')", timeout=5000)
    assert page.inner_text("#devices") == ("camera: ok — the last throw is not recorded: 1 die not read, "
                                           "please re-roll it")
    live.table.status_board.set("camera", state="ok", detail="camera sim: rolled 6, 1", reroll=[])
    page.wait_for_function("!document.querySelector('#devices').textContent.includes('re-roll')", timeout=5000)
    assert page.inner_text("#devices") == "camera: ok — camera sim: rolled 6, 1"


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


def test_demigods_offers_a_correction_of_its_dice(live, page):
    """Demigods uses each die the moment it is read, and a correction replays the game from it: the
    card offers the Demigod dice for correction like any roll."""
    from test_spectator import ROOT

    lines = [ln for ln in (ROOT / "tests/rules/demigods/golden/advanced-tactics.txt").read_text().splitlines()
             if ln.strip() and not ln.startswith("#")]
    login(page, live.url)
    live.table.submit(DiceRolled(faces=(4, 1)))
    page.wait_for_function("document.querySelector('#dice-h').textContent === 'Last roll — tap a die to correct it'")
    for line in lines[:2]:  # start Demigods, then "roll die=dg-demigod faces=[2,3]"
        live.table.submit(parse(line))
    page.wait_for_function("document.querySelector('#correct-dice .roll-no')?.textContent === 'Roll #3:'")
    assert page.inner_text("#dice-h") == "Last roll — tap a die to correct it"
    assert page.locator("#correct-dice button").count() == 2 and page.locator("#correct-refused").count() == 0
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
    from arena_table.rules import GameStarted

    live.table.submit(GameStarted(game="demigods", options={"players": ["Ann", "Bo"]}))  # dg-* kinds are offered
    login(page, live.url)
    page.wait_for_selector("#event-kind option[value='dg-pick']", state="attached")
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


LONG = "Zebulon" * 428 + "Zebu"  # a 3000-character player name


def theosis_with_a_long_name(live) -> None:
    """A Theosis game where player Ann is called :data:`LONG`, played until the name is in
    the prompt, the Initiative line and the player table."""
    import json

    from test_spectator import ROOT

    lines = [ln for ln in (ROOT / "tests/rules/theosis/golden/blitz-2p.txt").read_text().splitlines()
             if ln.strip() and not ln.startswith("#")]
    for line in lines[:23]:  # start (Ann named LONG) to "Ann: allocate gold to your heroes"
        live.table.submit(parse(line.replace('"Ann"', json.dumps(LONG)).replace("player=Ann", "player=" + LONG)))


def outside(pg, width: int) -> list:
    """Visible elements whose right edge is beyond ``width`` px or beyond their panel's, as
    seen: an ancestor that cuts its text with an ellipsis clips what it holds."""
    return pg.evaluate("""w => [...document.querySelectorAll('body *')]
        .filter(e => e.offsetParent !== null && e.getBoundingClientRect().width > 0)
        .map(e => {
          let right = e.getBoundingClientRect().right;
          for (let a = e.parentElement; a; a = a.parentElement) {
            const cs = getComputedStyle(a);
            if (cs.overflowX !== 'visible' && cs.textOverflow === 'ellipsis')
              right = Math.min(right, a.getBoundingClientRect().right);
          }
          const PANELS = '.panel, header, footer';
          let panel = e.parentElement && e.parentElement.closest(PANELS);
          while (panel && panel.getBoundingClientRect().width === 0)  // display: contents
            panel = panel.parentElement && panel.parentElement.closest(PANELS);
          const limit = Math.min(w, panel ? panel.getBoundingClientRect().right : w);
          return [e, right, limit];
        })
        .filter(([e, right, limit]) => right > limit + 1)
        .map(([e, right]) => e.tagName + '.' + e.className + '#' + e.id + ' ' + Math.round(right))""", width)


def test_a_3000_character_name_stays_inside_every_panel(live, page, phone):
    theosis_with_a_long_name(live)
    from arena_table.rules import table_view

    view = table_view(live.table.state)["view"]
    assert len(LONG) == 3000 and LONG in view["prompt"] and LONG in view["extra"]["initiative"]
    assert LONG in [p["id"] for p in view["extra"]["players"]]
    for pg, width in ((page, 1920), (phone, 390)):
        pg.goto(live.url + "/")
        pg.wait_for_function("v => window.arena && window.arena.cur.version >= v", arg=live.table.version)
        pg.wait_for_selector("#extra table")
        bad = outside(pg, width)
        assert bad == [], (width, bad)
        assert pg.evaluate("document.scrollingElement.scrollWidth") <= width + 1
        # the name is cut with an ellipsis on screen, whole in the title (a tooltip / screen readers)
        for sel in ("#prompt", "#extra p", "#extra td"):
            box = pg.locator(sel).filter(has_text="Zebulon").first
            assert box.evaluate("e => getComputedStyle(e).textOverflow") == "ellipsis", sel
            assert box.evaluate("e => e.getBoundingClientRect().right") <= width + 1, sel
            assert LONG in box.get_attribute("title"), sel
        assert [e for e in pg.errors if not e.startswith("Failed to load resource")] == []


def test_what_happened_starts_at_the_new_game(live, page):
    live.table.submit(DiceRolled(faces=(1, 2)))
    live.table.submit(parse("note text=\"Ann arrives\""))
    page.goto(live.url + "/")
    page.wait_for_function("document.querySelectorAll('#log li').length === 2", timeout=5000)
    live.table.submit(parse("start game=dice-tray"))
    live.table.submit(DiceRolled(faces=(6,)))
    page.wait_for_function("v => window.arena.cur.version >= v", arg=4, timeout=5000)
    assert page.locator("#log li").all_inner_texts() == ["#3New game: Dice tray", "#4Rolled 1d6: 6 (total 6)"]


class _FramesOnly:
    """A camera with a live frame and no board calibration (a grey 640x480 frame)."""

    def close(self) -> None:
        pass

    def latest_frame(self):
        import numpy as np

        return np.full((480, 640, 3), 128, np.uint8)


def test_the_board_card_stops_asking_every_second_on_a_table_without_a_board_calibration(live, page):
    """A new user's trial: with a camera and no board calibration the control page asked for the board
    view with every camera frame, one 404 and one console error a second for as long as it was open."""
    live.table.devices.append(_FramesOnly())
    asked: dict[str, int] = {"frame": 0, "board": 0}
    page.on("request", lambda r: [asked.__setitem__(k, asked[k] + 1) for k in asked
                                  if r.url.endswith(f"/api/camera/{k}.jpg")])
    login(page, live.url)
    page.wait_for_selector("#camera-frame:not([hidden])")
    page.wait_for_function("() => document.getElementById('board-note').textContent.includes('no board calibration')")
    page.wait_for_timeout(4500)
    assert asked["frame"] >= 4  # the camera view still follows the camera every second
    assert asked["board"] == 1
