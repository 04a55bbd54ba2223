"""End to end on a Demigods battlefield: ``arena-table run --camera DIR`` on rendered photos of an
8x10 field board (``camera_run``), the spectator page in Chromium. The Knight (a tank: forward and
backward only, one AP a field or a 90° turn, 'Movement' p.21) is seen where the log has it, then
as the example of 'Movement' (p.21) moves the Pegasus Knight -- two fields, a quarter turn right, two
more: 5 AP -- then turning on the spot to face south (1 AP). A photo of it four fields further on,
which its last AP cannot pay for, shows "check the table" and changes nothing. The board SVG
shows its field and facing after each accepted move, within 500 ms of the photo (``perf``).
"""

from __future__ import annotations

import math
import re
import sys
from pathlib import Path

import pytest
from camera_run import prepare, run_service, write_photos

from arena_table.rules import find_game, replay
from arena_table.table.log import EventLog
from arena_table.vision.board_film import BoardFilm

sys.path.insert(0, str(Path(__file__).parents[1] / "rules" / "demigods"))
from dg_helpers import Table as DgTable, lineup_options  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.slow]

BOARD = {"cols": 8, "rows": 10, "obstacles": [[6, 2, "spike-pit"], [0, 0, "high-ground"], [7, 7, "pitfall"]]}
LEAD = 2
SEEN, MOVED, TURNED, TOO_FAR = LEAD, LEAD + 1, LEAD + 2, LEAD + 3
STEPS = {SEEN: ((2, 8), 0), MOVED: ((4, 6), 1), TURNED: ((4, 6), 2), TOO_FAR: ((4, 2), 2)}
"""Photo index -> the Knight's field and facing (0 N, 1 E, 2 S, 3 W) in it."""
SQUARE = 50.0
"""A field's side in the board SVG (``webui.svg``)."""
ARROWS = {0: (0, -1), 1: (1, 0), 2: (0, 1), 3: (-1, 0)}


@pytest.fixture(scope="module")
def seen(browser, tmp_path_factory):
    tmp = tmp_path_factory.mktemp("camera-demigods")
    played = DgTable(lineup_options(board=BOARD)).until("knight").do("dg-place who=knight cell=[2,8] facing=0")
    setup = [e for _, e in played.records]
    board = find_game("demigods").board(played.st)
    film = BoardFilm(board, margin_mm=15.0, marker_mm=14.0, base_mm=25.0, seed=31)
    images = [film.frame({}) for _ in range(LEAD)] + [film.frame({5: STEPS[k]}) for k in sorted(STEPS)]
    folder = tmp / "cam"
    photos = write_photos(folder, images)
    db = prepare(tmp, setup, film, {5: "demigods:hero:knight"}, 14.0)
    run = run_service(browser, tmp, db, photos, folder)
    with EventLog(db, readonly=True) as log:
        run.rows = log.rows()
    return run


def _token(svg: str, name: str):
    g = re.search(r'<g class="figure"[^>]*><title>' + name + r' \(.*?</g>', svg)
    assert g, f"{name} is not on the board"
    c = re.search(r'<circle cx="([-\d.]+)" cy="([-\d.]+)"', g.group(0))
    centre = (float(c.group(1)), float(c.group(2)))
    p = re.search(r'<polygon points="([-\d.]+),([-\d.]+) ', g.group(0))
    dx, dy = float(p.group(1)) - centre[0], float(p.group(2)) - centre[1]
    return centre, (dx / math.hypot(dx, dy), dy / math.hypot(dx, dy))


def test_the_knight_stands_on_its_field_with_its_facing_and_pays_its_ap(seen):
    (knight,) = seen.state["state"]["view"]["board"]["figures"]
    assert (knight["cell"], knight["facing"]) == ([4, 6], 2)
    centre, arrow = _token(seen.board_svg, "Knight")
    assert centre == ((4 + 0.5) * SQUARE, (6 + 0.5) * SQUARE) and arrow == pytest.approx(ARROWS[2], abs=0.01)
    assert {"Knight@4,6/1", "Knight@4,6/2"} <= set(seen.drawn)
    assert not [k for k in seen.drawn if k.startswith("Knight@4,2")], "the refused field was drawn"
    last = replay([r.event for r in seen.rows]).state.chars["knight"]
    assert (last.cell, last.facing, last.ap) == ((4, 6), 2, 1)  # 7 AP - 5 (p.31) - 1 (the turn)


def test_a_move_its_ap_cannot_pay_is_check_the_table_and_changes_nothing(seen):
    message = "check the table: 4 AP asked, Knight has 1"
    assert seen.desync is not None and seen.desync["text"] == message
    assert [d["message"] for d in seen.state["state"]["desync"]] == [message]
    moved = [r for r in seen.rows if r.event.KIND == "figure-moved"]
    assert [(tuple(r.event.to_cell), r.event.facing, r.event.source) for r in moved] == [
        (STEPS[k][0], STEPS[k][1], seen.photos[k]) for k in sorted(STEPS)]
    before = replay([r.event for r in seen.rows if r.seq < moved[-1].seq])
    after = replay([r.event for r in seen.rows])
    assert after.state == before.state and after.desync and not before.desync


@pytest.mark.perf
def test_each_move_is_drawn_within_500_ms_of_its_photo(seen):
    assert seen.connected_at < seen.presented(MOVED), "the page connected after the first move's photo"
    figures = {"moved 4 fields and turned": seen.latency(MOVED, "Knight@4,6/1"),
               "turned on its field": seen.latency(TURNED, "Knight@4,6/2")}
    refused = seen.desync["t"] - seen.presented(TOO_FAR)
    print("\nphoto at the camera loop -> drawn on the spectator board: "
          + ", ".join(f"Knight {k} {v * 1000:.0f} ms" for k, v in figures.items())
          + f"; 'check the table' shown {refused * 1000:.0f} ms")
    assert max(figures.values()) <= 0.5, figures
    assert refused <= 0.5
