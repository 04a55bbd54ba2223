"""A sensed move the rules refuse: the spectator screen shows "check the table", the control page
settles it with one tap ("the rules are right"), and both screens drop the warning."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from browserkit import login, new_page, open_tv

from arena_table.rules import parse

sys.path.insert(0, str(Path(__file__).parents[1] / "rules" / "theosis"))
from th_helpers import ARENA, fast_blitz, lines_of  # noqa: E402 - the Theosis tests' set-up

pytestmark = pytest.mark.browser

SPEEDS = '"speeds":{"rac":3,"aer":3,"norn":3,"rochon":3}'
ANN = ["fiery-purge", "fireball", "bloodthirst", "tactics", "pain-spike", "blazing-sun"]
BO = ["warcraft", "nova", "despair", "valor", "lifeswap", "last-stand"]
MESSAGE = "check the table: Rac cannot reach that hex (4 hexes away; 3 hexes of movement left)"


def test_check_the_table_shown_and_settled_from_the_control_page(live, browser, page):
    for line in lines_of(fast_blitz(ANN, BO, extra_options=SPEEDS)) + lines_of(ARENA) + [
            "figure-moved figure=rac to_cell=[0,3] source=camera:0",
            "figure-moved figure=norn to_cell=[3,-3] source=camera:0",
            "figure-moved figure=rac from_cell=[0,3] to_cell=[0,-1] source=camera:0"]:
        live.table.submit(parse(line))
    ctx, tv = new_page(browser, 1280, 720)
    open_tv(tv, live, ready="!document.getElementById('desync').hidden")
    assert tv.inner_text("#desync") == MESSAGE
    login(page, live.url)
    page.wait_for_selector("#desync .desync-row button", timeout=5000)
    assert MESSAGE in page.inner_text("#desync")
    page.click("#desync button:has-text('The rules are right')")
    tv.wait_for_function("document.getElementById('desync').hidden", timeout=5000)
    page.wait_for_function("document.getElementById('desync').hidden", timeout=5000)
    assert live.table.state.state.heroes["rac"].cell == (0, 3) and not live.table.state.desync
    assert tv.errors == []
    ctx.close()
