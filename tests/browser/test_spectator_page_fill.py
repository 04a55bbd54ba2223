"""The pages of a paged game panel on the TV are filled in order (static/pager.js): a list too
tall for what is left of a page is split there rather than moved whole when the page would be left
less than half full, so no page shows just the prompt (or a heading) while the next one is full.
Checked at 1280x720 and 1920x1080 on the layout the browser makes; screenshots of each case's first
page in ``artifacts/screenshots/page-fill-*.png``."""

from __future__ import annotations

from pathlib import Path

import pytest
from browserkit import every_page, new_page, play

pytestmark = pytest.mark.browser

CASES = [
    ("examples/demigods-advanced-tactics.txt", 11, (1280, 720)),  # the Assassin enters: the prompt was alone on page 1/3
    ("examples/demigods-advanced-tactics.txt", 13, (1280, 720)),  # an attack waits for its die
    ("examples/demigods-advanced-tactics.txt", 13, (1920, 1080)),
    ("examples/demigods-slayer.txt", 44, (1920, 1080)),  # the side panel's first page held a heading alone
    ("examples/theosis-pvp-12.txt", 115, (1280, 720)),  # 12 heroes: the prompt was alone on page 1/4
    ("tests/rules/theosis/golden/blitz-2p.txt", 24, (1280, 720)),
]


def tag(game: str, upto: int, size: tuple[int, int]) -> str:
    return f"{Path(game).stem}-{upto}-{size[0]}x{size[1]}"


@pytest.mark.parametrize("game, upto, size", CASES, ids=[tag(*c) for c in CASES])
def test_no_page_is_nearly_empty_while_a_later_one_is_full(live, browser, screenshots, game, upto, size):
    play(live, game, upto)
    ctx, tv = new_page(browser, *size)
    try:
        tv.emulate_media(reduced_motion="reduce")
        tv.goto(f"{live.url}/?page_seconds=3600")  # pages turned by hand
        tv.wait_for_function("v => window.arena && window.arena.cur.version >= v", arg=live.table.version,
                             timeout=5000)
        tv.wait_for_function("document.querySelector('#extra').childElementCount > 0", timeout=5000)  # the game panel
        tv.screenshot(path=str(screenshots / f"page-fill-{tag(game, upto, size)}-page1.png"))
        regions = every_page(tv)
        assert any(len(pages) > 1 for pages in regions.values()), regions  # a state that pages
        for name, pages in regions.items():
            blocks = [shown["blocks"] for shown in pages]
            assert all(b and b[-1] not in ("H3", "order-title") for b in blocks), (name, blocks)  # a heading with its list
            fills = [round(shown["fill"], 2) for shown in pages]
            for k, fill in enumerate(fills):  # no page nearly empty while a later one is full
                assert fill >= 1 / 3 or max(fills[k + 1:], default=0) <= 2 / 3, (name, blocks, fills)
        if "demigods-advanced" in game and size == (1280, 720):
            first = regions["game"][0]["blocks"]
            assert first[:3] == ["prompt", "order-title", "order"], first  # the activation order starts on page 1
        assert tv.errors == [], tv.errors
    finally:
        ctx.close()


def test_the_first_update_leaves_room_for_the_page_mark(live, browser):
    """The room a page leaves for its "1/2" mark was measured from the mark as it stood: empty (no
    height) on the panel's first paged update, so that update planned pages a line taller than the
    next one and the mark covered their last line until another event came. An emptied mark (as on
    the first update) must plan the same pages."""
    play(live, "examples/demigods-advanced-tactics.txt", 10)  # the Knight's attack waits: the side panel pages
    ctx, tv = new_page(browser, 1920, 1080)
    try:
        tv.emulate_media(reduced_motion="reduce")
        tv.goto(f"{live.url}/?page_seconds=3600")
        tv.wait_for_function("v => window.arena && window.arena.cur.version >= v", arg=live.table.version, timeout=5000)
        tv.wait_for_function("document.querySelector('#extra').childElementCount > 0", timeout=5000)
        tv.evaluate("window.dispatchEvent(new Event('resize'))")  # pages planned once more, the marks standing
        planned = every_page(tv)
        assert any(len(pages) > 1 for pages in planned.values()), planned
        tv.evaluate("document.querySelectorAll('.pager').forEach((m) => { m.textContent = ''; });"
                    "window.dispatchEvent(new Event('resize'))")
        assert every_page(tv) == planned
        assert tv.errors == [], tv.errors
    finally:
        ctx.close()
