"""axe-core (from npm) run in the same Chromium: no critical accessibility violations."""

from __future__ import annotations

import os

import pytest
from browserkit import AXE, login

from arena_table.rules import DiceRolled, parse

pytestmark = pytest.mark.browser


def run_axe(page) -> list[dict]:
    if not AXE.exists():
        msg = f"{AXE} is missing: run scripts/test-deps.sh (npm ci)"
        if os.environ.get("CI"):
            pytest.fail(msg)
        pytest.skip(msg)
    page.add_script_tag(path=str(AXE))
    result = page.evaluate("async () => await axe.run(document, {resultTypes: ['violations']})")
    violations = result["violations"]
    assert len(result["passes"]) >= 10, "axe ran no rules"  # proves the check itself ran
    print(f"\naxe {result['testEngine']['version']}: {len(result['passes'])} rules passed, {len(violations)} violated")
    for v in violations:
        print(f"\naxe {v['impact']}: {v['id']} ({len(v['nodes'])} nodes): {v['help']}")
    return violations


def critical(violations: list[dict]) -> list[str]:
    return [f"{v['id']}: {v['help']} at {[n['target'] for n in v['nodes']][:3]}"
            for v in violations if v["impact"] == "critical"]


def test_spectator_page_dice_tray(live, page):
    for faces in ((3, 4), (6, 6, 1), (2,)):
        live.table.submit(DiceRolled(faces=faces, confidence=tuple(0.9 for _ in faces)))
    page.goto(live.url + "/")
    page.wait_for_function("window.arena.cur.version === 3", polling=20)
    assert critical(run_axe(page)) == []


def test_spectator_page_with_a_game_view(live, page):
    from browserkit import ROOT

    lines = [ln for ln in (ROOT / "tests/rules/theosis/golden/blitz-2p.txt").read_text().splitlines()
             if ln.strip() and not ln.startswith("#")]
    for line in lines[: len(lines) // 2]:
        live.table.submit(parse(line))
    page.goto(live.url + "/")
    page.wait_for_function("v => window.arena.cur.version === v", arg=live.table.version, polling=20)
    assert page.locator("#order li").count() > 0
    assert critical(run_axe(page)) == []


def test_control_and_login_pages(live, page):
    page.goto(live.url + "/login")
    assert critical(run_axe(page)) == []
    login(page, live.url)
    page.wait_for_selector("#start-game option", state="attached")
    assert critical(run_axe(page)) == []


def test_control_page_while_correcting_a_die_of_an_earlier_roll(live, page):
    live.table.submit(DiceRolled(faces=(2, 5), confidence=(0.9, 0.55)))
    login(page, live.url)
    page.wait_for_selector("#correct-dice button[data-index='1']")
    page.click("#correct-dice button[data-index='1']")
    live.table.submit(DiceRolled(faces=(6,)))
    page.wait_for_function("document.querySelector('#correct-notice').textContent.includes('#2')")
    assert page.is_visible("#correct-cancel") and page.is_visible("#roll-latest")
    violations = run_axe(page)
    assert critical(violations) == []
    # a die's name holds what it shows ("5 55%"): a voice user says what they see
    assert [v["id"] for v in violations if v["id"] == "label-content-name-mismatch"] == []
