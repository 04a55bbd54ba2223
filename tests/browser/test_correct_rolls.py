"""What a new user's trial found when correcting a die on the control page: a roll that came in
between the two taps threw the correction away, only the last roll could be corrected, and the dice
showed no confidence and no mark of a corrected die."""

from __future__ import annotations

import numpy as np
import pytest
from browserkit import ROOT, login

from arena_table.rules import DiceRolled, parse

pytestmark = pytest.mark.browser

NOTICE = "document.querySelector('#correct-notice').textContent"


def api_post(page, live, path: str, body: dict) -> dict:
    """POST ``body`` to the table's API as the logged-in control page's session, as a script would."""
    token = page.get_attribute("meta[name=csrf-token]", "content")
    r = page.request.post(live.url + path, data=body, headers={"X-CSRF-Token": token})
    assert r.ok, (r.status, r.text())
    return r.json()


def dice_texts(page, sel: str) -> list[str]:
    return page.eval_on_selector_all(f"#correct-dice button {sel}", "els => els.map(e => e.textContent)")


def crops(live, faces) -> tuple[str, ...]:
    return tuple(live.table.media.save(np.full((48, 48, 3), 40 * f, np.uint8), "c") for f in faces)


def test_a_roll_between_the_two_taps_leaves_the_correction_on_its_roll(live, page):
    login(page, live.url)
    live.table.submit(DiceRolled(faces=(4, 1), source="sim", crops=crops(live, (4, 1)), confidence=(0.55, 0.9)))
    page.wait_for_selector("#correct-dice button[data-index='0']")
    page.click("#correct-dice button[data-index='0']")
    page.wait_for_selector("#correct-values button:text-is('6')")
    seq = api_post(page, live, "/api/events", {"notation": "roll faces=[6,6,2]"})["seq"]  # the camera's next roll
    assert seq == 2
    page.wait_for_function(NOTICE + ".includes('#2')")
    # the player's selection stays: the same die of the same roll, and they are told why the latest is not shown
    assert page.inner_text("#correct-notice") == (
        "A new roll (#2) came in meanwhile. You are still correcting die 1 of roll #1: tap its value or Cancel, "
        "then the latest roll is shown.")
    assert page.inner_text("#correct-dice .roll-no") == "Roll #1:"
    assert page.get_attribute("#correct-dice button[data-index='0']", "aria-pressed") == "true"
    assert page.inner_text("#correct-values .correct-label") == "Die 1 is really:"
    assert page.inner_text("#dice-h") == "Earlier roll — tap a die to correct it"
    page.click("#correct-values button:text-is('3')")
    page.wait_for_function("document.querySelector('#toast').textContent.startsWith('Corrected')")
    assert page.inner_text("#toast") == "Corrected die 1 of roll #1 to 3 (event #3)"
    rolls = live.table.state.tray.rolls
    assert [(r.seq, r.faces, r.sensed) for r in rolls] == [(1, (3, 1), (4, 1)), (2, (6, 6, 2), (6, 6, 2))]
    # done: the card follows the latest roll again
    page.wait_for_function("document.querySelector('#correct-dice .roll-no')?.textContent === 'Roll #2:'")
    assert page.inner_text("#dice-h") == "Last roll — tap a die to correct it"
    assert page.evaluate(NOTICE) == ""
    assert not page.locator("#correct-values").is_visible()
    assert [e for e in page.errors if not e.startswith("Failed to load resource")] == []  # 404 camera, 409 undo


def test_a_selection_cancelled_by_keyboard_after_new_rolls_records_nothing(live, page):
    login(page, live.url)
    live.table.submit(DiceRolled(faces=(2, 5)))
    page.wait_for_selector("#correct-dice button[data-index='1']")
    page.focus("#correct-dice button[data-index='1']")
    page.keyboard.press("Enter")
    page.wait_for_selector("#correct-values button")
    page.keyboard.press("Tab")  # to the value 2 (1 has the focus, 5 is the die's own)
    for faces in ("[1]", "[3]"):
        api_post(page, live, "/api/events", {"notation": f"roll faces={faces}"})
    page.wait_for_function(NOTICE + ".startsWith('2 new rolls (latest #3) came in meanwhile')")
    # the card was drawn anew for each roll: the focus stayed on the same value button
    assert page.evaluate("document.activeElement.getAttribute('aria-label')") == "Set die 2 of roll #1 to 2"
    assert page.get_attribute("#correct-cancel", "aria-label") == "Cancel: leave die 2 of roll #1 as it is"
    page.keyboard.press("Escape")
    page.wait_for_function("document.querySelector('#correct-dice .roll-no')?.textContent === 'Roll #3:'")
    assert not page.locator("#correct-values").is_visible() and not page.locator("#correct-cancel").is_visible()
    assert page.evaluate(NOTICE) == ""
    assert page.evaluate("document.activeElement.closest('#correct-dice') !== null")  # not lost to <body>
    assert [r.faces for r in live.table.state.tray.rolls] == [(2, 5), (1,), (3,)]
    assert len(live.table.rows()) == 3  # no correction recorded


def test_step_back_to_an_earlier_roll_correct_it_and_return_to_the_latest(live, page):
    login(page, live.url)
    for faces in ((2, 5), (3, 3), (6, 1)):
        live.table.submit(DiceRolled(faces=faces, confidence=(0.9,) * len(faces)))
    page.wait_for_function("document.querySelector('#correct-dice .roll-no')?.textContent === 'Roll #3:'")
    assert page.is_disabled("#roll-later") and page.is_disabled("#roll-latest")
    assert page.get_attribute("#roll-earlier", "aria-label") == "Earlier roll, #2"
    page.click("#roll-earlier")
    page.click("#roll-earlier")
    assert page.inner_text("#correct-dice .roll-no") == "Roll #1:"
    assert page.inner_text("#dice-h") == "Earlier roll — tap a die to correct it"
    assert page.inner_text("#correct-notice") == \
        "Roll #1 is an earlier roll: 2 newer rolls came after it, the latest #3."
    assert page.is_disabled("#roll-earlier") and not page.is_disabled("#roll-latest")
    assert page.get_attribute("#roll-latest", "aria-label") == "Latest roll, #3"
    page.click("#correct-dice button[data-index='1']")
    page.click("#correct-values button:text-is('4')")
    page.wait_for_function("document.querySelector('#toast').textContent.startsWith('Corrected')")
    assert page.inner_text("#toast") == "Corrected die 2 of roll #1 to 4 (event #4)"
    assert [r.faces for r in live.table.state.tray.rolls] == [(2, 4), (3, 3), (6, 1)]
    # the card stays on the roll stepped back to, the die corrected and marked so
    page.wait_for_function("document.querySelector('#correct-dice button[data-index=\"1\"] .die-mark') !== null")
    assert page.inner_text("#correct-dice .roll-no") == "Roll #1:"
    assert dice_texts(page, ".die-value") == ["2", "4"]
    page.click("#roll-latest")
    assert page.inner_text("#correct-dice .roll-no") == "Roll #3:"
    assert page.inner_text("#dice-h") == "Last roll — tap a die to correct it"
    assert page.evaluate(NOTICE) == ""
    assert page.evaluate("document.activeElement.closest('#correct-dice, #correct-nav') !== null")
    live.table.submit(DiceRolled(faces=(5,)))  # back at the latest: the card follows the next roll
    page.wait_for_function("document.querySelector('#correct-dice .roll-no')?.textContent === 'Roll #5:'")
    assert [e for e in page.errors if not e.startswith("Failed to load resource")] == []


def test_an_earlier_roll_whose_correction_makes_a_later_event_illegal_says_which(live, page):
    """Any roll of the game can be corrected, the events after it replayed; when the corrected value
    makes one of them illegal the card names it and why, and "Keep the roll" leaves all as it was."""
    lines = [ln for ln in (ROOT / "tests/rules/demigods/golden/advanced-tactics.txt").read_text().splitlines()
             if ln.strip() and not ln.startswith("#")]
    login(page, live.url)
    for line in lines[:13]:  # Demigods with two rolls: 2 and 11
        live.table.submit(parse(line))
    page.wait_for_function("document.querySelector('#correct-dice .roll-no')?.textContent === 'Roll #11:'")
    assert page.inner_text("#dice-h") == "Last roll — tap a die to correct it"
    page.click("#roll-earlier")
    assert page.inner_text("#correct-dice .roll-no") == "Roll #2:"
    page.click("#correct-dice button[data-index='0']")
    page.click("#correct-values button:text-is('4')")
    page.wait_for_selector("#correct-later:not([hidden])")
    assert page.inner_text("#correct-later .correct-later-what").startswith("With die 1 of roll #2 as 4, event #3 (")
    assert page.inner_text("#correct-later .correct-later-what").endswith("is illegal: it is warlord's turn, not protector's.")
    page.click("#correct-later button[data-key='later-keep']")
    assert not page.locator("#correct-later").is_visible()
    assert live.table.state.tray.rolls[0].faces == (2, 3)
    page.click("#correct-values button:text-is('1')")  # a face that keeps every later event legal
    page.wait_for_function("document.querySelector('#toast').textContent.startsWith('Corrected')")
    assert live.table.state.tray.rolls[0].faces == (1, 3) and live.table.state.tray.rolls[0].sensed == (2, 3)


def test_control_dice_show_their_confidence_and_a_corrected_die_is_marked(live, page, phone, screenshots):
    login(page, live.url)
    live.table.submit(DiceRolled(faces=(4, 5, 2), source="sim", crops=crops(live, (4, 5, 2)),
                                 confidence=(0.97, 0.55, 0.8)))
    page.wait_for_selector("#correct-dice button[data-index='2']")
    assert dice_texts(page, ".die-value") == ["4", "5", "2"]
    assert dice_texts(page, ".die-conf") == ["97%", "55%", "80%"]
    assert dice_texts(page, ".die-mark") == []
    assert page.get_attribute("#correct-dice button[data-index='1']", "aria-label") == \
        "Die 2 shows 5, 55% sure: correct it"
    api_post(page, live, "/api/correct", {"roll": 1, "index": 1, "value": 3})
    page.wait_for_selector("#correct-dice button.corrected")
    die = page.locator("#correct-dice button[data-index='1']")
    assert die.locator(".die-value").inner_text() == "3"
    assert die.locator(".die-mark").inner_text() == "corrected"
    assert die.locator(".die-conf").inner_text() == "read 5 at 55%"  # the camera's confidence, in what it read
    assert die.get_attribute("aria-label") == "Die 2 shows 3, corrected, read 5 at 55%: correct it"
    assert dice_texts(page, ".die-conf") == ["97%", "read 5 at 55%", "80%"]
    page.screenshot(path=str(screenshots / "control-corrected-die-1920x1080.png"))
    # one hand on a phone: the dice stay inside the screen, no sideways scrolling
    login(phone, live.url)
    phone.wait_for_selector("#correct-dice button.corrected")
    assert phone.evaluate("document.scrollingElement.scrollWidth") <= 390 + 1
    phone.screenshot(path=str(screenshots / "control-corrected-die-390x844.png"))
