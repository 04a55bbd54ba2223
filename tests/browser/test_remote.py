"""The control page as a game remote: the running game's offers as buttons, played by taps only
(no typed notation), with the taps counted: at most three for each placement or attack.
Screenshots of the remote at 390x844 and 1280x800 in ``artifacts/screenshots/remote-*.png``."""

from __future__ import annotations

import pytest
from browserkit import ROOT, login, new_page

from arena_table.rules import GameStarted, parse

pytestmark = pytest.mark.browser

TH_OPTIONS = {"players": ["Ann", "Bo"], "heroes": {"Ann": ["rochon", "rac", "norn"], "Bo": ["aer", "lug", "edhel"]}}

# Hierapolis turns 1 and 2 (p.10): [button, choice, ...] per placement, in placing order; no die is needed
PREPARATION = [
    [["Place Rochon", "Guardian quest (golden slot)"], ["Place Aer", "Warmonger quest (golden slot)", "Rochon"],
     ["Place Rac", "Tavern"], ["Place Lug", "Righteous quest"], ["Place Norn", "Cathedral"],
     ["Place Edhel", "Merciful quest"]],
    [["Place Rochon", "Righteous quest (golden slot)"], ["Place Aer", "Guardian quest (golden slot)"],
     ["Place Rac", "Warmonger quest"], ["Place Lug", "Tavern"], ["Place Norn", "Merciful quest"],
     ["Place Edhel", "Cathedral"]],
]


def offered(page, version: int) -> None:
    """Wait until the remote shows the offers for table version ``version`` or later."""
    page.wait_for_function("v => window.remote.offers() && window.remote.offers().version >= v", arg=version,
                           timeout=10000, polling=50)


def script_errors(page) -> list[str]:
    """The page's script errors (a 404 for a camera frame or a 409 for nothing to undo is an answer, not one)."""
    return [e for e in page.errors if not e.startswith("Failed to load resource")]


def tap(page, label: str) -> None:
    page.get_by_role("button", name=label, exact=True).click()


def open_remote(browser, live, width: int, height: int):
    ctx, page = new_page(browser, width, height)
    login(page, live.url)
    offered(page, live.table.version)
    return ctx, page


def test_two_hierapolis_turns_by_taps_only(browser, live, screenshots):
    live.table.submit(GameStarted(game="theosis", options=TH_OPTIONS))
    ctx, page = open_remote(browser, live, 390, 844)
    assert page.inner_text("#remote-turn") == "Ann: place a hero on a golden quest slot"
    page.screenshot(path=str(screenshots / "remote-theosis-390x844.png"), full_page=False)
    for turn, placements in enumerate(PREPARATION, 1):
        for taps in placements:
            before, version = page.evaluate("window.remote.taps"), live.table.version
            for label in taps:
                tap(page, label)
            offered(page, version + 1)
            assert page.evaluate("window.remote.taps") - before == len(taps) <= 3
        assert live.table.state.state.prep_turn == turn
        version = live.table.version
        tap(page, "End the turn")
        offered(page, version + 1)  # the turn's end recorded (the version read after the tap may be the one before)
    st = live.table.state.state
    assert st.prep_turn == 3 and st.player("Ann").hand and st.player("Bo").hand
    live.table.submit(parse("th-place hero=aer location=warmonger golden=true target=rochon"))
    offered(page, live.table.version)
    undo = page.get_by_role("button", name="Undo: ", exact=False)
    assert "Aer" in undo.inner_text()  # it names the placement it takes back
    undo.click()
    placed = live.table.version  # read before the confirm: the undo is recorded after it, with a later seq
    page.click("#undo-confirm")
    page.wait_for_function("v => window.remote.offers().version > v", arg=placed, timeout=10000)
    assert not live.table.state.state.heroes["aer"].placed
    assert script_errors(page) == []
    ctx.close()


def test_demigods_entry_and_attack_by_taps(browser, live, screenshots):
    lines = [ln for ln in (ROOT / "examples" / "demigods-tactics.txt").read_text(encoding="utf-8").splitlines()
             if ln.strip() and not ln.startswith("#")]
    for line in lines[:lines.index("dg-enter who=knight")]:  # the knight acts now, off the battlefield
        live.table.submit(parse(line))
    assert live.table.state.state.acting == "knight"
    ctx, page = open_remote(browser, live, 1280, 800)
    assert page.inner_text("#remote-turn") == "Knight: 7 AP left (enter the battlefield)"
    before, version = page.evaluate("window.remote.taps"), live.table.version
    tap(page, "Knight: enter the battlefield")
    offered(page, version + 1)
    assert page.evaluate("window.remote.taps") - before == 1
    before, version = page.evaluate("window.remote.taps"), live.table.version
    tap(page, "Knight: base attack")
    tap(page, "Assassin (Bo)")
    page.screenshot(path=str(screenshots / "remote-demigods-1280x800.png"), full_page=False)
    tap(page, "Back")
    offered(page, version + 1)
    assert page.evaluate("window.remote.taps") - before == 3
    assert live.table.state.state.pending is not None  # the attack waits for its die
    assert "Roll bludgeoning" in page.inner_text("#remote-turn")
    before, version = page.evaluate("window.remote.taps"), live.table.version
    tap(page, "Roll the bludgeoning die")
    tap(page, "3: Critical")  # the face by its printed result, not a bare 3
    offered(page, version + 1)
    assert page.evaluate("window.remote.taps") - before == 2
    assert live.table.state.state.pending is None  # the attack is resolved
    assert script_errors(page) == []
    ctx.close()


def test_hero_pickers_take_taps_and_keep_the_order_picked(browser, live):
    ctx, page = new_page(browser, 390, 844)
    login(page, live.url)
    page.wait_for_selector("#start-game option[value='theosis']", state="attached")
    page.select_option("#start-game", "theosis")
    form = page.locator("#start-fields")
    form.locator("input[name=players]").fill("Ann, Bo")
    for seat, heroes in ((1, ["Norn", "Rochon", "Rac"]), (2, ["Lug", "Aer", "Edhel"])):
        group = form.get_by_role("group", name=f"heroes_{seat}")
        for hero in heroes:
            group.locator("button", has_text=hero).first.click()
        assert group.locator("button[aria-pressed=true]").all_inner_texts() != []
    assert form.get_by_role("group", name="heroes_1").locator("button[aria-pressed=true]", has_text="1. Norn").count() == 1
    page.click("#start-form button[type=submit]")
    page.wait_for_function("document.querySelector('#toast').textContent.startsWith('Started')", timeout=5000)
    heroes = {p.id: list(p.heroes) for p in live.table.state.state.players}
    assert heroes == {"Ann": ["norn", "rochon", "rac"], "Bo": ["lug", "aer", "edhel"]}
    assert script_errors(page) == []
    ctx.close()


def _example(name: str) -> list[str]:
    return [ln for ln in (ROOT / "examples" / name).read_text(encoding="utf-8").splitlines()
            if ln.strip() and not ln.startswith("#")]


def taps(page, live, labels: list[str]) -> int:
    """Tap ``labels`` in order (an action, then its choices) and wait for the event they submit;
    returns the taps counted."""
    before, version = page.evaluate("window.remote.taps"), live.table.version
    for label in labels:
        tap(page, label)
    offered(page, version + 1)
    return page.evaluate("window.remote.taps") - before


def test_euthia_combat_and_a_fellowship_card_by_taps(browser, live, screenshots):
    fire = _example("euthia-fire-shadowbeast.txt")
    live.table.submit(parse(fire[0]))
    ctx, page = open_remote(browser, live, 390, 844)
    assert "set up a Combat" in page.inner_text("#remote-turn")
    assert taps(page, live, ["Set up a Combat", "Shadowbeast", "Air"]) == 3  # the solo Hero is not asked
    c = live.table.state.state.combat
    assert [e.card for e in c.enemies] == ["shadowbeast"] and c.power == "air"
    assert taps(page, live, ["Áel: Hero Attack", "Elven Sword (2-5/6-8/9+)"]) == 2
    assert "roll the two Hero dice" in page.inner_text("#remote-turn")
    assert page.get_by_role("button", name="Áel: Damage dealt").count() == 0  # the dice first
    live.table.submit(parse("roll die=eu-hero faces=[4,3]"))
    offered(page, live.table.version)
    page.screenshot(path=str(screenshots / "remote-euthia-390x844.png"), full_page=False)
    assert taps(page, live, ["Áel: Damage dealt", "1"]) == 2
    assert live.table.state.state.combat.enemies[0].damage == 1
    # Fellowship: the round's card is picked part by part, each part merged into the one card
    live.table.submit(parse(_example("euthia-fellowship-3p.txt")[0]))
    offered(page, live.table.version)
    picks = ["Reveal the round 1 Fellowship card (I)", "Dral", "a Level 1 Monster", "1", "1", "no", "6", "1", "0",
             "0", "1"]
    before, version = page.evaluate("window.remote.taps"), live.table.version
    for i, label in enumerate(picks):
        # the part rows share labels ("1", "0"): tap within the row the remote asks now
        (page.locator(".remote-choices").get_by_role("button", name=label, exact=True) if i else
         page.get_by_role("button", name=label, exact=True)).click()
    offered(page, version + 1)
    assert page.evaluate("window.remote.taps") - before == len(picks)
    rnd = live.table.state.state.round
    assert rnd.leader == "dral" and rnd.card == {"tier": "I", "enemy": "1", "health": 1, "injuries": 1,
                                                 "chaos_action": False, "exchange": 6, "silver": 1, "gold": 0,
                                                 "chaos": 0, "gaar": 1}
    assert script_errors(page) == []
    ctx.close()


def test_sword_and_sorcery_attack_by_taps(browser, live, screenshots):
    lines = _example("sword-and-sorcery-pvp1.txt")
    for line in lines[:lines.index("sns-activate hero=artemis") + 1]:
        live.table.submit(parse(line))
    ctx, page = open_remote(browser, live, 1280, 800)
    for label in ("Artemis: move", "Artemis: Dash", "Artemis: Focus", "Artemis: end the Hero Turn"):
        assert page.get_by_role("button", name=label, exact=True).count() == 1
    page.screenshot(path=str(screenshots / "remote-sword-and-sorcery-1280x800.png"), full_page=False)
    assert taps(page, live, ["Artemis: attack"]) == 1  # one Opponent, one weapon: nothing to pick
    assert "Artemis: roll 2 red and 0 blue dice (HIT)" in page.inner_text("#remote-turn")
    for line in ('sns-roll red=["hit+hit","hit"]', 'sns-roll blue=["blank"]'):
        live.table.submit(parse(line))
    offered(page, live.table.version)
    assert taps(page, live, ["Resolve the attack"]) == 1
    assert live.table.state.state.combat is None
    assert taps(page, live, ["Artemis: end the Hero Turn"]) == 1
    assert script_errors(page) == []
    ctx.close()
