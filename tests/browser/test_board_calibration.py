"""The control page's Board card in Chromium: the camera frame warped by the board calibration with
the Arena's grid and the tracked figures; a calibration whose reference marker misses its hex is
refused with its message and the one in force kept."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from browserkit import login

from arena_table.rules import find_game, parse, replay
from arena_table.table.figures import FigureReader

sys.path.insert(0, str(Path(__file__).parents[1] / "table"))
sys.path.insert(0, str(Path(__file__).parents[1] / "rules" / "theosis"))
from test_figures import ANN, BO, CORNERS, MARKERS, SPEEDS, TRACK, Scenes, _feed  # noqa: E402
from th_helpers import ARENA, fast_blitz, lines_of  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_board_card_shows_the_warped_board_and_refuses_a_bad_calibration(live, page):
    lines = lines_of(fast_blitz(ANN, BO, extra_options=SPEEDS)) + lines_of(ARENA)
    for line in lines:
        live.table.submit(parse(line))
    scenes = Scenes(find_game("theosis").board(replay([parse(x) for x in lines]).state).layout)
    reader = FigureReader(live.table.ports("figures"), scenes.calibration, MARKERS, TRACK)
    live.table.devices.append(reader)
    _feed(reader, scenes.frame(rac=(0, 3), norn=(3, -3)), 0.0)
    assert [f.cell for f in reader.seen()] == [(0, 3), (3, -3)]
    login(page, live.url)
    page.wait_for_selector("#board-frame:not([hidden])")
    size = page.evaluate("() => { const i = document.getElementById('board-frame'); "
                         "return [i.naturalWidth, i.naturalHeight]; }")
    assert size == [1040, 900]  # the 500x430 mm board and a 10 mm margin at 2 px/mm
    assert "each figure should sit in its cell" in page.inner_text("#board-note")
    page.fill("#board-corners", " ".join(f"{i}={x:g},{y:g}" for i, (x, y) in CORNERS.items()))
    page.fill("#board-reference", "1=0,2")
    before = reader.calibration
    page.click("#board-calibrate button[type=submit]")
    page.wait_for_function("() => document.getElementById('board-calibrate-msg').textContent.length > 0")
    msg = page.inner_text("#board-calibrate-msg")
    assert msg.startswith("Calibration refused: reference marker 1 landed in cell [0, 3], not [0, 2]: missed by 43.")
    assert reader.calibration is before
    page.fill("#board-reference", "1=0,3")
    page.click("#board-calibrate button[type=submit]")
    page.wait_for_function("() => document.getElementById('board-calibrate-msg').textContent.startsWith('Calibrated')")
    assert "reference marker 1" in page.inner_text("#board-calibrate-msg") and reader.calibration is not before
    # the marker registry from the same card
    page.fill("#marker-id", "4")
    page.fill("#marker-figure", "theosis:hero:aer")
    page.fill("#marker-team", "bo")
    page.click("#marker-form button[type=submit]")
    page.wait_for_function("() => document.getElementById('marker-list').textContent.includes('aer')")
    assert page.inner_text("#marker-list") == "4: theosis:hero:aer (bo)"
    page.fill("#marker-figure", "theosis:pawn:aer")
    page.click("#marker-form button[type=submit]")
    page.wait_for_function("() => document.getElementById('marker-msg').textContent.includes('pawn')")
    assert "kind 'pawn' is not one of hero, monster, minion" in page.inner_text("#marker-msg")
    # the browser logs the 404 of the camera view (this table has no camera) and the refusal's 400
    assert [e for e in page.errors if not e.startswith("Failed to load resource")] == []
