"""The spectator screen in Chromium: every game's view, TV and phone layouts, screenshots."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from browserkit import ROOT

from arena_table.rules import DiceRolled, parse, registered_games, table_view

pytestmark = pytest.mark.browser

GAME_NAMES = [g.name for g in registered_games()]


def die_image(value: int, size: int = 64) -> np.ndarray:
    """A white d6 face with black pips (BGR), as the camera's crop of one die would look."""
    import cv2

    img = np.full((size, size, 3), 235, np.uint8)
    cv2.rectangle(img, (2, 2), (size - 3, size - 3), (60, 60, 60), 2)
    spots = {1: [(1, 1)], 2: [(0, 0), (2, 2)], 3: [(0, 0), (1, 1), (2, 2)], 4: [(0, 0), (0, 2), (2, 0), (2, 2)],
             5: [(0, 0), (0, 2), (1, 1), (2, 0), (2, 2)], 6: [(0, 0), (0, 2), (1, 0), (1, 2), (2, 0), (2, 2)]}
    for r, c in spots[value]:
        cv2.circle(img, (int(size * (0.25 + 0.25 * c)), int(size * (0.25 + 0.25 * r))), size // 10, (20, 20, 20), -1)
    return img


def transcript(game: str) -> list[str]:
    """Events in notation that play ``game`` to its end: the first golden transcript of the
    game's rules tests (``tests/rules/<game>/golden``, ``-`` written ``_``)."""
    folder = ROOT / "tests" / "rules" / game.replace("-", "_") / "golden"  # a test folder is a package name
    files = sorted(folder.glob("*.txt")) if folder.is_dir() else []
    if not files:
        pytest.fail(f"{game}: no golden transcript under {folder.relative_to(ROOT)} to show its view")
    return [ln.strip() for ln in files[0].read_text(encoding="utf-8").splitlines()
            if ln.strip() and not ln.lstrip().startswith("#")]


def play(live, game: str, upto: float) -> None:
    """Bring the live table to ``upto`` (0..1) of a game."""
    if game == "dice-tray":
        n = int(40 * upto)
        rng = np.random.default_rng(7)
        for i in range(n):
            faces = tuple(int(x) for x in rng.integers(1, 7, size=3))
            crops = tuple(live.table.media.save(die_image(f), f"crop{i}-{j}") for j, f in enumerate(faces))
            live.table.submit(DiceRolled(faces=faces, source="sim", crops=crops, confidence=(0.98, 0.91, 0.77)))
        return
    lines = transcript(game)
    done, upto_n = getattr(live, "played", 0), int(len(lines) * upto)
    for line in lines[done:upto_n]:
        live.table.submit(parse(line))
    live.played = upto_n


def wait_version(page, version: int) -> None:
    page.wait_for_function("v => window.arena && window.arena.cur.version >= v", arg=version, timeout=5000)


def check_view(page, live) -> dict:
    """The page shows what the rules' view says."""
    state = table_view(live.table.state)
    view = state["view"]
    assert page.inner_text("#title") == state["title"]
    if view.get("phase"):
        assert page.inner_text("#phase") == view["phase"]
    order = view.get("order") or []
    assert page.locator("#order > li").count() == len(order)
    acting = next((o for o in order if o.get("acting") or o.get("id") == view.get("acting")), None)
    if acting:
        assert page.locator("#order > li.acting").count() == 1
        assert page.inner_text(".acting .who") == acting["name"]
    with_health = [o for o in order if o.get("health") is not None]
    assert page.locator("#order .bar[role=meter]").count() == len(with_health)
    conditions = sum(len(o.get("conditions") or []) for o in order)
    assert page.locator("#order .conditions li").count() == conditions
    if conditions:  # never colour alone: each condition has an icon and its name in text
        first = next(c for o in order for c in (o.get("conditions") or []))
        item = page.locator("#order .conditions li").first
        assert item.locator("svg use").count() == 1 and first["name"] in item.inner_text()
    if view.get("board"):
        assert page.locator("#board svg g.figure").count() == len(view["board"].get("figures") or [])
    if state["outcome"]:
        assert page.locator("#outcome").is_visible()
    if state["tray"]["last"]:
        assert page.locator("#last-roll .die").count() == len(state["tray"]["last"]["faces"])
    seqs = page.eval_on_selector_all("#log li", "els => els.map(e => e.dataset.seq)")
    assert len(seqs) == len(set(seqs)) == min(30, len(state["log"]))
    return state


@pytest.mark.parametrize("game", GAME_NAMES)
def test_every_game_view_renders_on_tv_and_phone(browser, live, page, phone, screenshots, game):
    page.goto(live.url + "/")
    phone.goto(live.url + "/")
    for label, upto in (("mid", 0.5), ("end", 1.0)):
        play(live, game, upto)
        for pg, size in ((page, "1920x1080"), (phone, "390x844")):
            wait_version(pg, live.table.version)
            pg.wait_for_timeout(100)  # let images (die crops, QR) paint
            check_view(pg, live)
            pg.screenshot(path=str(screenshots / f"{game}-{label}-{size}.png"), full_page=False)
    # TV readability at 5 m: body >= 32 px, the acting name >= 64 px
    body_px = float(page.evaluate("parseFloat(getComputedStyle(document.body).fontSize)"))
    assert body_px >= 32, body_px
    who = page.locator(".acting .who")
    if who.count() and who.inner_text():
        assert float(who.evaluate("e => parseFloat(getComputedStyle(e).fontSize)")) >= 64
    acting_name = page.locator("#order li.acting .name")
    if acting_name.count():
        assert float(acting_name.evaluate("e => parseFloat(getComputedStyle(e).fontSize)")) >= 64
    if game == "theosis":  # a 4-hero ranking on the TV: every row inside the viewport
        rows = page.locator("#order > li")
        assert rows.count() == 4
        last = rows.nth(3).bounding_box()
        assert last["y"] + last["height"] <= 1080, last
    # the phone layout does not scroll sideways
    assert phone.evaluate("document.scrollingElement.scrollWidth") <= 390 + 1
    assert page.errors == [] and phone.errors == [], page.errors + phone.errors


def test_dice_tray_shows_crops_confidence_history_and_histogram(live, page):
    page.goto(live.url + "/")
    live.table.submit(DiceRolled(faces=(4, 1), source="sim", confidence=(0.97, 0.64),
                                 crops=tuple(live.table.media.save(die_image(f), "c") for f in (4, 1))))
    wait_version(page, 1)
    dice = page.locator("#last-roll .die")
    assert dice.nth(0).locator(".value").inner_text() == "4"
    assert dice.nth(1).locator(".conf").inner_text() == "conf. 64%"
    page.wait_for_function("() => { const i = document.querySelector('#last-roll .die img');"
                           " return i && i.complete && i.naturalWidth > 0; }", timeout=5000)  # loads on its own time
    assert dice.nth(0).locator("img").evaluate("img => img.naturalWidth") == 64
    assert page.inner_text("#history li") == "#1 2d6: 4, 1 = 5"
    bars = page.locator("#histograms svg rect.bar")
    assert bars.count() == 6
    assert page.locator("#histograms svg").first.get_attribute("aria-label") == "Per-face counts, d6: 2 dice"
    assert page.inner_text(".acting .who") == "5"
    page.wait_for_function("() => { const i = document.querySelector('#qr'); return i.complete && i.naturalWidth > 0; }",
                           timeout=5000)
    assert page.errors == []


def test_device_status_is_shown(live, page):
    live.table.status_board.set("camera", state="running", detail="sim, 30 fps")
    live.table.status_board.set("tokens", state="disconnected", ok=False, error="no reply for 3 s")
    page.goto(live.url + "/")
    page.wait_for_function("document.querySelectorAll('#devices li').length === 2", timeout=5000)
    text = page.inner_text("#devices")
    assert "camera: running — sim, 30 fps" in text and "tokens: disconnected — no reply for 3 s" in text
    assert page.locator("#devices li.bad").count() == 1


def test_screenshots_folder_is_git_ignored():
    ignored = (ROOT / ".gitignore").read_text().splitlines()
    assert "artifacts/" in ignored
    assert Path(ROOT / "artifacts").resolve().parent == ROOT


TEXT_FONT_SIZES = """sel => [...document.querySelectorAll(sel)]
  .filter(e => e.offsetParent !== null && [...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim()))
  .map(e => [e.className || e.tagName, parseFloat(getComputedStyle(e).fontSize)])"""


def test_theosis_twelve_hero_ranking_fits_the_tv_at_32_px(live, page, phone, screenshots):
    """Issue 7: the 12-hero Hero Ranking on a 1920x1080 TV without scrolling, body text >= 32 px,
    the acting hero's name >= 64 px, resources condensed (health bar, gold, mana) rather than hidden."""
    lines = [ln.strip() for ln in (ROOT / "examples" / "theosis-pvp-12.txt").read_text(encoding="utf-8").splitlines()
             if ln.strip() and not ln.lstrip().startswith("#")]
    for line in lines[:150]:  # turn 3 of the Arena: Nimloth acts, two heroes out, a Curse on Garav
        live.table.submit(parse(line))
    view = table_view(live.table.state)["view"]
    assert len(view["order"]) == 12 and view["acting"] == "nimloth"
    for pg, size in ((page, "1920x1080"), (phone, "390x844")):
        pg.goto(live.url + "/?page_seconds=3600")  # the ranking's page stays (its panel pages every 8 s)
        wait_version(pg, live.table.version)
        pg.wait_for_timeout(100)
        check_view(pg, live)
        pg.screenshot(path=str(screenshots / f"theosis-12-heroes-{size}.png"), full_page=False)
    rows = page.locator("#order > li")
    assert rows.count() == 12
    for i in range(12):  # every row (the 12th included) wholly inside the 1920x1080 viewport
        box = rows.nth(i).bounding_box()
        assert box["y"] >= 0 and box["y"] + box["height"] <= 1080 and box["x"] + box["width"] <= 1920, (i, box)
    assert page.evaluate("document.scrollingElement.scrollHeight") <= 1080
    twelfth = rows.nth(11).bounding_box()
    assert twelfth["y"] + twelfth["height"] <= 1080 - 40  # above the footer's device line, not under it
    # condensed, not hidden: every row shows its health numbers and its gold and mana
    assert page.locator("#order > li .resources:visible").count() == 12
    assert page.locator("#order > li[data-id='garav'] .resources").inner_text() == "gold 10 · mana 3"
    assert page.locator("#order > li[data-id='garav'] .num").inner_text() == "2 / 9"
    assert "Entangling Roots" in page.locator("#order > li[data-id='garav'] .conditions").inner_text()
    sizes = page.evaluate(TEXT_FONT_SIZES, "#order li *, #order-title, #prompt, .acting *")
    assert len(sizes) > 60 and min(px for _, px in sizes) >= 32, sorted(sizes, key=lambda s: s[1])[:5]
    assert float(page.locator("#order li.acting .name").evaluate("e => parseFloat(getComputedStyle(e).fontSize)")) >= 64
    assert float(page.locator("#acting .who").evaluate("e => parseFloat(getComputedStyle(e).fontSize)")) >= 64
    assert page.locator("#order li.acting .name").inner_text().startswith("Nimloth")
    assert phone.evaluate("document.scrollingElement.scrollWidth") <= 390 + 1
    assert page.errors == [] and phone.errors == [], page.errors + phone.errors
