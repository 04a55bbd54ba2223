"""Values the rulebook text does not print: the remote's setup checklist lists each one still a
placeholder with its choices, a value is entered by taps (no JSON), and the TV's "placeholder stats"
badge names the defaults in play until they are entered. Screenshots in
``artifacts/screenshots/checklist-*.png``."""

from __future__ import annotations

import pytest
from browserkit import login, new_page, open_tv

from arena_table.rules import GameStarted

pytestmark = pytest.mark.browser

OPTIONS = {"players": ["Ann", "Bo"], "heroes": {"Ann": ["rochon", "rac", "norn"], "Bo": ["aer", "lug", "edhel"]}}


def offered(page, version: int) -> None:
    page.wait_for_function("v => window.remote.offers() && window.remote.offers().version >= v", arg=version,
                           timeout=10000, polling=50)


def test_a_hero_speed_entered_by_taps_leaves_the_checklist_and_the_tv_badge(browser, live, screenshots):
    live.table.submit(GameStarted(game="theosis", options=OPTIONS))
    tv_ctx, tv = new_page(browser, 1920, 1080)
    ctx, page = new_page(browser, 390, 844)
    try:
        open_tv(tv, live)
        badge = tv.locator("#placeholder-badge")
        assert badge.is_visible() and badge.inner_text() == "placeholder stats"
        assert "Rochon's speed" in badge.get_attribute("title")
        tv.screenshot(path=str(screenshots / "checklist-tv-badge-1920x1080.png"))
        login(page, live.url)
        offered(page, live.table.version)
        summary = page.locator("#remote-checklist summary")
        todo = page.evaluate("window.remote.offers().to_enter.length")
        assert summary.inner_text() == f"Setup checklist: {todo} values still placeholders"
        summary.click()
        page.screenshot(path=str(screenshots / "checklist-remote-390x844.png"))
        version, taps = live.table.version, page.evaluate("window.remote.taps")
        page.get_by_role("button", name="Rochon: speed on the hero mat", exact=True).click()
        page.get_by_role("button", name="4", exact=True).click()
        offered(page, version + 1)
        assert page.evaluate("window.remote.taps") - taps == 2
        assert str(live.table.rows()[-1].event).startswith("th-enter what=speed key=rochon value=4")  # in the log
        assert live.table.state.state.config.speeds == {"rochon": 4}
        assert page.evaluate("window.remote.offers().to_enter.length") == todo - 1
        assert page.locator("#remote-checklist").get_attribute("open") is not None  # stays open for the next
        tv.wait_for_function("!document.querySelector('#placeholder-badge').title.includes(\"Rochon's speed\")",
                             timeout=5000)
        assert "Rac's speed" in badge.get_attribute("title")
        assert tv.errors == [] and [e for e in page.errors if not e.startswith("Failed to load resource")] == []
    finally:
        ctx.close()
        tv_ctx.close()


def test_the_badge_is_gone_once_every_value_in_play_is_entered(browser, live):
    heroes = [h for hs in OPTIONS["heroes"].values() for h in hs]
    live.table.submit(GameStarted(game="theosis", options={
        **OPTIONS, "speeds": {h: 4 for h in heroes}, "alignments": {"norn": "warmonger", "lug": "guardian", "edhel": "merciful"},
        "thieves_guild_faces": {str(f): "gain-initiative" for f in range(1, 7)}}))
    ctx, tv = new_page(browser, 1280, 720)
    try:
        open_tv(tv, live)
        assert tv.locator("#placeholder-badge").is_hidden()
        assert tv.errors == []
    finally:
        ctx.close()
