"""Sword & Sorcery (Clash of the Heroes) from the control page in Chromium: the quest set up on the
start form, a Tiebreaker Procedure, an activation with an attack, an Evade with its Reaction Attack
and the Time Phase, each entered on the page's event forms; the spectator screen (TV 1920x1080 and
phone 390x844) shows the order of play with Medals, the activations, HP, conditions and area
control. Screenshots: ``artifacts/screenshots/sword-and-sorcery-*.png``."""

from __future__ import annotations

import time

import pytest
from browserkit import login

pytestmark = pytest.mark.browser

RED = {n: ", ".join(["tiebreaker"] * n + ["blank"] * (4 - n)) for n in range(5)}


def notation(page, line: str) -> None:
    """Type one event in notation on the control page and wait for its "Recorded" toast."""
    page.evaluate("document.querySelector('#toast').textContent = ''")
    page.fill("#event-text", line)
    page.press("#event-text", "Enter")
    page.wait_for_function("document.querySelector('#toast').textContent !== ''", timeout=5000)
    assert "Recorded" in page.inner_text("#toast"), page.inner_text("#toast")


def fields(page, kind: str, values: dict[str, str]) -> None:
    """Enter one event on the control page's one-input-a-field form."""
    page.select_option("#event-kind", kind)
    for name, value in values.items():
        page.fill(f"#event-fields input[data-field='{name}']", value)
    page.evaluate("document.querySelector('#toast').textContent = ''")
    page.click("#event-fields-submit")
    page.wait_for_function("document.querySelector('#toast').textContent !== ''", timeout=5000)
    assert "Recorded" in page.inner_text("#toast"), page.inner_text("#toast")


def seen(tv, version: int) -> None:
    tv.wait_for_function("v => window.arena && window.arena.cur.version >= v", arg=version, timeout=10000)


def test_control_page_sets_up_and_plays_and_the_spectator_follows(live, page, phone, browser, screenshots):
    ctx = browser.new_context(viewport={"width": 1920, "height": 1080})
    tv = ctx.new_page()
    tv.goto(live.url + "/?page_seconds=3600")
    phone.goto(live.url + "/?page_seconds=3600")
    login(page, live.url)
    page.wait_for_selector("#start-game option[value='sword-and-sorcery']", state="attached")
    page.select_option("#start-game", "sword-and-sorcery")
    page.wait_for_selector("#start-fields [name=team_1]")
    assert page.input_value("[name=team_1]") == "purple" and page.input_value("[name=heroes_2]") == "artemis, thorgren"
    page.fill("[name=soulrank]", "2")
    page.click("#start-form button[type=submit]")
    page.wait_for_function("document.querySelector('#toast').textContent.startsWith('Started')", timeout=5000)
    st = live.table.state.state
    assert st.quest.id == "pvp1" and st.quest.soulrank == 2 and [t.name for t in st.teams] == ["purple", "red"]
    assert st.team("purple").crowns == 200  # 100 x Soulrank II

    notation(page, "sns-ready")
    notation(page, 'sns-claim claims={"purple":"a1","red":"a5"}')
    # a Tiebreaker Procedure on the one-input-a-field form: the deployment order
    fields(page, "sns-roll", {"team": "purple", "red": RED[3]})
    fields(page, "sns-roll", {"team": "red", "red": RED[1]})
    assert live.table.state.state.order == ("purple", "red")
    for hero, area in (("shae", "a2"), ("artemis", "a3"), ("thorgar", "b1"), ("thorgren", "a4")):
        fields(page, "sns-place", {"hero": hero, "area": area})
    for number, loc in (("V", "A"), ("VI", "B"), ("II", "C"), ("IV", "D")):
        notation(page, f"sns-pitfall number={number} location={loc}")
    notation(page, "sns-battle")
    notation(page, f'sns-roll team=purple red=["tiebreaker","tiebreaker","blank","hit"]')
    notation(page, f"sns-roll team=red red={RED[1].split(', ')!r}".replace("'", '"'))
    assert live.table.state.state.order == ("purple", "red")

    # an activation with an Evade and an attack: Shae walks into Artemis's area and on into Thorgren's;
    # leaving a3 (1 against 1, not dominated) draws Artemis's Reaction Attack first
    fields(page, "sns-activate", {"hero": "shae"})
    notation(page, "sns-move hero=shae to=a3")
    notation(page, "sns-move hero=shae to=a4")
    assert live.table.state.state.evade is not None and live.table.state.state.hero("shae").area == "a3"
    notation(page, "sns-attack who=artemis target=shae mode=reaction")
    notation(page, 'sns-roll blue=["hit"]')
    notation(page, "sns-resolve")  # bare-handed, 1 Blue Die: 1 hit - 1 Armor, no damage
    assert live.table.state.state.hero("shae").area == "a4"
    fields(page, "sns-attack", {"who": "shae", "target": "thorgren"})
    notation(page, 'sns-roll blue=["hit+hit"]')
    notation(page, 'sns-roll blue=["blank"]')   # 2 hits - 1 Armor = 1, one DEF die, no shield
    notation(page, "sns-resolve")
    assert live.table.state.state.hero("thorgren").hp == 9
    notation(page, "sns-condition hero=thorgar name=fire2 by=artemis")
    notation(page, "sns-end-turn")

    seen(tv, live.table.version)
    seen(phone, live.table.version)
    tv.wait_for_timeout(150)
    order = tv.locator("#order > li")
    assert order.count() == 4
    assert "Medal 1" in tv.inner_text("#extra") and "Activated: Shae" in tv.inner_text("#extra")
    # blocks of the side panel may move under the ranking (#spill) or onto the panel's next page
    panel = tv.locator("#game").text_content()
    assert "b1: purple dominates" in panel and "a3: red dominates" in panel
    assert tv.locator("#order .conditions li").count() == 1  # Thorgar's Fire II
    assert tv.locator("#board svg g.figure").count() == 4
    assert "Shae attacks Thorgren" in tv.inner_text("#last-action")
    tv.screenshot(path=str(screenshots / "sword-and-sorcery-battle-1920x1080.png"))
    phone.screenshot(path=str(screenshots / "sword-and-sorcery-battle-390x844.png"))

    # the rest of Round 1, then the Time Phase: Fire II ticks (1 HP, flips to Fire I)
    for hero in ("artemis", "thorgar", "thorgren"):
        fields(page, "sns-activate", {"hero": hero})
        notation(page, "sns-end-turn")
    st = live.table.state.state
    assert (st.round, st.phase) == (2, "time")
    assert st.hero("thorgar").fire == (1,) and st.hero("thorgar").hp == 10 - 1 - 1
    seen(tv, live.table.version)
    tv.wait_for_function("document.querySelector('#phase').textContent.includes('Round 2')", timeout=5000)
    assert tv.inner_text("#phase") == "Round 2 · Time Phase"
    tv.screenshot(path=str(screenshots / "sword-and-sorcery-time-1920x1080.png"))
    phone.screenshot(path=str(screenshots / "sword-and-sorcery-time-390x844.png"))
    notation(page, "sns-battle")
    assert live.table.state.state.tiebreak.purpose == "battle"
    assert phone.evaluate("document.scrollingElement.scrollWidth") <= 390 + 1
    # the control page's own polls (undo preview 409, no camera frame 404) are not errors of this game
    errors = [e for e in page.errors + phone.errors if not e.startswith("Failed to load resource")]
    assert errors == [], errors
    ctx.close()


@pytest.mark.perf
def test_the_spectator_shows_an_event_within_200_ms(live, browser):
    """Event accepted -> spectator page shows it (median of 9 events; the issue's 200 ms budget)."""
    from arena_table.rules import parse

    ctx = browser.new_context(viewport={"width": 1920, "height": 1080})
    tv = ctx.new_page()
    tv.goto(live.url + "/?page_seconds=3600")
    live.table.submit(parse('start game=sns options={"quest":"pvp1","heroes":{"purple":["shae"],"red":["artemis"]}}'))
    seen(tv, live.table.version)
    times = []
    for line in ['sns-visit visits={"purple":"heroes-hall","red":"talents-guild"}'] * 9:
        t0 = time.monotonic()
        live.table.submit(parse(line))
        seen(tv, live.table.version)
        times.append((time.monotonic() - t0) * 1000)
    times.sort()
    print(f"\nevent -> spectator page: median {times[4]:.0f} ms, max {times[-1]:.0f} ms")
    ctx.close()
    assert times[4] <= 200, times
