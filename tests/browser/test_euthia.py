"""Euthia on the table's pages: the control page sets up a Playing with Fire Combat and a Fellowship
round and plays them (start form, then events typed as a player would); the spectator page shows
which Monster die to re-roll, and why, as the camera's dice events arrive, within 200 ms (``perf``). Screenshots at
1920x1080 and 390x844 in ``artifacts/screenshots/euthia-*.png``."""

from __future__ import annotations

import json
import time

import pytest
from browserkit import login

from arena_table.rules import parse

pytestmark = pytest.mark.browser

DIE = [["blank"], ["gaar"], ["silver"], ["chaos"], ["chaos", "chaos"], ["gaar", "chaos"]]
SHADOWBEAST = {"gaar": 2, "chaos": 0, "health": 8, "silver": 0, "gold": 0,
               "attacks": [{"min": 2, "injuries": 1}, {"min": 6, "injuries": 2}, {"min": 10, "injuries": 3}]}
GECKO = {"gaar": 1, "chaos": 1, "health": 5, "silver": 0, "gold": 0,
         "attacks": [{"min": 2, "injuries": 1}, {"min": 6, "injuries": 2, "effects": {"silver": 2}}, {"min": 9, "injuries": 3}]}


def send(page, line: str) -> None:
    """Type one event in notation on the control page and wait for the table to take it."""
    before = page.evaluate("window.control && window.control.lastSubmitAt")
    page.fill("#event-text", line)
    page.click("#event-form button[type=submit]")
    page.wait_for_function("b => window.control.lastSubmitAt !== b", arg=before, timeout=5000)
    page.wait_for_timeout(60)


CAMERA = (("roll die=eu-monster faces=[1,1] source=camera:0", "Monster dice: 1 · 1"),
          ("roll die=eu-combat faces=[1] source=camera:0", "Combat Value 2 is below"),
          ("roll die=eu-monster faces=[3] source=camera:0", "Combat Value 6 is below"),
          ("roll die=eu-monster faces=[4] source=camera:0", "Combat Value 11"))
"""The camera's dice events of one Monster Attack and what the spectator panel shows after each."""


def start_from_form(page, mode: str, heroes: str, entered: dict, leader: str = "") -> None:
    page.wait_for_selector("#start-game option[value='euthia']", state="attached")
    page.select_option("#start-game", "euthia")
    form = page.locator("#start-fields")
    form.locator("select[name=mode]").select_option(json.dumps(mode))
    form.locator("input[name=heroes]").fill(heroes)
    if leader:
        form.locator("input[name=leader]").fill(leader)
    assert "To enter from the components" in form.inner_text() and "monster:gecko: level, health" in form.inner_text()
    page.fill("#start-options", json.dumps(entered))
    page.click("#start-form button[type=submit]")
    page.wait_for_function("document.querySelector('#toast').textContent.trim() !== ''", timeout=5000)
    assert page.locator("#toast").inner_text().startswith("Started"), page.locator("#toast").inner_text()


def spectator(browser, live, w: int, h: int):
    ctx = browser.new_context(viewport={"width": w, "height": h})
    spect = ctx.new_page()
    spect.goto(live.url + "/?page_seconds=3600")
    spect.wait_for_function("window.arena && window.arena.connected", timeout=5000, polling=20)
    return ctx, spect


def test_playing_with_fire_from_the_control_page_and_the_reroll_on_the_spectator_page(browser, live, page, phone,
                                                                                        screenshots):
    login(page, live.url)
    start_from_form(page, "fire", "eltrea", {"combat_die": DIE, "difficulty": "hard",
                                             "monsters": {"shadowbeast": SHADOWBEAST}})
    send(page, 'eu-combat enemies=["shadowbeast"] heroes=["eltrea"] power=air')
    send(page, "eu-monster-attack target=eltrea")
    ctx, spect = spectator(browser, live, 1920, 1080)
    # the camera's readings: the Monster dice, the Combat die (the engine spends a Gaar token on a 1), the re-roll
    # (6 is still below 10 and a die shows 1: the second Gaar), and the last re-roll (3 + 4 + 4 Gaar = 11)
    for line, shown in CAMERA:
        live.table.submit(parse(line))
        spect.wait_for_function("t => document.querySelector('#extra').innerText.includes(t)", arg=shown, timeout=5000)
        if "Value 2 is" in shown:
            assert spect.locator("#extra .eu-reroll").inner_text() == "Re-roll Monster die 1 (1)"
            assert spect.locator("#extra .eu-why li").all_inner_texts() == [
                "Combat Value 2 is below 10, the highest range", "the die shows 1 (1-3)", "2 Gaar: one spent (+2)",
                "either die: tied"]
            spect.screenshot(path=str(screenshots / "euthia-fire-reroll-1920x1080.png"))
            pctx, pspect = spectator(browser, live, 390, 844)
            pspect.wait_for_selector("#extra .eu-reroll")
            pspect.screenshot(path=str(screenshots / "euthia-fire-reroll-390x844.png"), full_page=True)
            pctx.close()
    assert live.table.state.state.combat.attack.dice == (3, 4)
    send(page, "eu-done")
    s = live.table.state.state
    assert s.heroes["eltrea"].injuries == 3 and s.combat.gaar == 0  # 11: range 3
    send(page, "eu-hero-roll hero=eltrea weapon=elven-sword")
    send(page, "roll die=eu-hero faces=[5,6]")
    send(page, "eu-damage hero=eltrea amount=8")
    assert live.table.state.state.combat.over == "won"
    page.screenshot(path=str(screenshots / "euthia-fire-control-1920x1080.png"), full_page=True)
    login(phone, live.url)
    phone.screenshot(path=str(screenshots / "euthia-fire-control-390x844.png"), full_page=True)
    ctx.close()


def test_a_fellowship_round_with_a_joint_combat_from_the_control_page(browser, live, page, phone, screenshots):
    login(page, live.url)
    start_from_form(page, "fellowship", "ael, dral, maeldur", {"combat_die": DIE, "monsters": {"gecko": GECKO}},
                    leader="dral")
    send(page, 'eu-round card={"tier":"I","exchange":6,"injuries":1,"enemy":"area","reward":{"gold":3}}')
    send(page, 'eu-exchange giver=dral gifts={"maeldur":4,"ael":2}')
    send(page, 'eu-combat enemies=["gecko"] heroes=["ael","dral"]')
    send(page, "eu-monster-attack")
    send(page, "roll die=eu-attack faces=[3,3,1]")  # 6 is below 9: the Gaar re-roll of a tied 3
    ctx, spect = spectator(browser, live, 1920, 1080)
    spect.wait_for_selector("#extra .eu-reroll")
    assert "Gecko attacks Áel and Dral" in spect.locator("#extra").inner_text()
    assert spect.locator("#phase").inner_text().startswith("Round 1/20")
    text = spect.locator("#extra").text_content()  # the panel's later rows may be on its next page
    assert "Leader Dral" in text and "Area Attack" in text and "Exchange value 6" in text
    spect.screenshot(path=str(screenshots / "euthia-fellowship-1920x1080.png"))
    pctx, pspect = spectator(browser, live, 390, 844)
    pspect.wait_for_selector("#extra .eu-reroll")
    pspect.screenshot(path=str(screenshots / "euthia-fellowship-390x844.png"), full_page=True)
    send(page, "roll die=eu-monster faces=[5]")
    send(page, "eu-done")
    s = live.table.state.state
    assert s.heroes["ael"].injuries == 4 and s.heroes["dral"].injuries == 4  # 5 + 3 + 2 = 10: 3, +1 (the card)
    send(page, "eu-hero-roll hero=dral weapon=rusty-cleaver")
    send(page, "roll die=eu-hero faces=[4,5]")
    send(page, "eu-damage hero=dral amount=5")
    s = live.table.state.state
    assert s.combat.over == "won"
    assert s.heroes["ael"].purse.get("gold", 0) + s.heroes["dral"].purse.get("gold", 0) == 3 + 1
    page.screenshot(path=str(screenshots / "euthia-fellowship-control-1920x1080.png"), full_page=True)
    login(phone, live.url)
    phone.screenshot(path=str(screenshots / "euthia-fellowship-control-390x844.png"), full_page=True)
    ctx.close()
    pctx.close()


@pytest.mark.perf
def test_the_die_to_reroll_reaches_the_spectator_within_200_ms_of_the_camera(browser, live):
    """From a camera dice event submitted to the table to the spectator page showing its result, over
    two Monster Attacks (8 readings): the median within the issue's 200 ms."""
    start = {"heroes": ["eltrea"], "combat_die": DIE, "difficulty": "hard", "monsters": {"shadowbeast": {
        **SHADOWBEAST, "gaar": 4, "health": 30}}}
    for line in ("start game=euthia options=" + json.dumps(start), 'eu-combat enemies=["shadowbeast"] heroes=["eltrea"]',
                 "eu-monster-attack target=eltrea"):
        live.table.submit(parse(line))
    ctx, spect = spectator(browser, live, 1920, 1080)
    figures = []
    for attack in range(2):
        for line, shown in CAMERA:
            sent = time.time() * 1000
            live.table.submit(parse(line))
            spect.wait_for_function("t => document.querySelector('#extra').innerText.includes(t)", arg=shown,
                                    timeout=5000, polling="raf")
            figures.append(time.time() * 1000 - sent)
        for line in ("eu-done", "eu-hero-roll hero=eltrea", "roll die=eu-hero faces=[1,1]", "eu-damage hero=eltrea amount=0",
                     "eu-monster-attack target=eltrea"):
            live.table.submit(parse(line))
    ctx.close()
    figures.sort()
    print(f"\ncamera roll -> spectator shows it: {[round(f) for f in figures]} ms")
    assert (figures[3] + figures[4]) / 2 <= 200, figures


def test_the_euthia_panel_has_no_critical_accessibility_violation(browser, live):
    """axe-core on the spectator page while a Monster die waits to be re-rolled."""
    from test_a11y import critical, run_axe

    start = {"heroes": ["eltrea"], "combat_die": DIE, "difficulty": "hard", "monsters": {"shadowbeast": SHADOWBEAST}}
    for line in ("start game=euthia options=" + json.dumps(start), 'eu-combat enemies=["shadowbeast"] heroes=["eltrea"]',
                 "eu-monster-attack target=eltrea", *[line for line, _ in CAMERA[:2]]):
        live.table.submit(parse(line))
    ctx, spect = spectator(browser, live, 1920, 1080)
    spect.wait_for_selector("#extra .eu-reroll")
    assert critical(run_axe(spect)) == []
    ctx.close()
