"""The Demigods panel on the spectator screen tells the attack the table waits for in plain words:
who attacks whom, with which attack, what is awaited (the attack dice, a defender's defence die, an
attack-linked re-roll) and the dice rolled so far, with the characters' names (as the view's order
gives them), never the view's JSON. Every kind of step the engine waits in is played from the story
transcripts, with heroes renamed, at 1280x720 and 1920x1080; screenshots in
``artifacts/screenshots/demigods-waiting-*.png``."""

from __future__ import annotations

import json

import pytest
import browserkit
from browserkit import ROOT, new_page

from arena_table.rules import parse, table_view

pytestmark = pytest.mark.browser

NAMES = {"knight": "Sir Kay", "high-elder": "Elder Thalion", "blacksmith": "Brokk the Smith",
         "weaponsmith": "Wayland", "assassin": "Nightshade", "ogre": "Grumm"}

# [story, events played, what is awaited, who attacks whom with what (and the dice rolled)]
STEPS = [
    ("demigods-advanced-tactics", 10, "the bludgeoning die", "Sir Kay attacks Elder Thalion with a base attack"),
    ("demigods-advanced-tactics", 14, "Nightshade to re-roll 1 die (attack link) or keep the roll",
     "Nightshade attacks Black Wolf with a base attack · piercing die: -1"),
    ("demigods-slayer", 27, "the slashing die", "Wayland retaliates against Grumm with a base attack"),
    ("demigods-slayer", 31, "the ice, fire and slashing dice", "Warlord attacks Brokk the Smith with Elemental Sword"),
    ("demigods-slayer", 32, "the fire and slashing dice",
     "Warlord attacks Brokk the Smith with Elemental Sword · ice die: Critical"),
    ("demigods-slayer", 37, "the bludgeoning die and Brokk the Smith's piercing defence die",
     "Sir Kay attacks Brokk the Smith with a base attack"),
    ("demigods-slayer", 38, "Brokk the Smith's piercing defence die",
     "Sir Kay attacks Brokk the Smith with a base attack · bludgeoning die: Critical"),
]

# The "Waiting for" paragraphs: [text, shown on this page, shown whole (not cut, inside its panel)]
WAITING = """() => [...document.querySelectorAll('#extra p.pending, #extra p.pending-attack')].map(e => {
  const r = e.getBoundingClientRect();  // its panel: the side column (its own panel beside a compact ranking)
  const panel = [e.closest('.game-side'), e.closest('.panel')].map(p => p.getBoundingClientRect()).find(q => q.height > 0);
  const shown = !e.closest('.off-page') && r.height > 0;
  return [e.textContent, shown, shown && e.scrollWidth <= e.clientWidth + 1 && e.scrollHeight <= e.clientHeight + 1
          && r.top >= panel.top - 1 && r.bottom <= panel.bottom + 1];
})"""


def play(live, story: str, upto: int) -> None:
    """The story's first ``upto`` lines (its start first), its heroes renamed (``hero_stats``)."""
    lines = [ln for ln in (ROOT / "examples" / f"{story}.txt").read_text(encoding="utf-8").splitlines()
             if ln.strip() and not ln.startswith("#")]
    options = json.loads(lines[0].split("options=", 1)[1])
    options["hero_stats"] = {hero: {"name": name} for hero, name in NAMES.items()
                             if any(hero in team["heroes"] for team in options["lineup"].values())}
    lines[0] = "start game=demigods options=" + json.dumps(options)
    for line in lines[:upto]:
        live.table.submit(parse(line))


def open_tv(page, live) -> None:
    browserkit.open_tv(page, live, ready="document.querySelector('#extra').childElementCount > 0")  # the game panel


@pytest.mark.parametrize("story, upto, awaited, attack", STEPS, ids=[f"{s[0].split('-')[1]}-{s[1]}" for s in STEPS])
def test_the_attack_waiting_is_told_in_plain_words(live, tv, screenshots, story, upto, awaited, attack):
    play(live, story, upto)
    pending = table_view(live.table.state)["view"]["extra"]["pending"]
    assert pending and pending["dice"], pending  # the engine waits in this step
    open_tv(tv, live)
    whole = [False, False]  # each paragraph, on some page (the TV's side panel may show one at a time)
    for _ in range(max([p["pages"] for p in tv.evaluate("window.arena.pages()").values()] + [1])):
        shown = tv.evaluate(WAITING)
        assert [text for text, _, _ in shown] == ["Waiting for " + awaited, attack]
        if not any(whole) and shown[0][1]:
            tv.screenshot(path=str(screenshots / f"demigods-waiting-{story.split('-')[1]}-{upto}-{tv.size}.png"))
        assert all(ok for _, on, ok in shown if on), (tv.size, shown)
        whole = [w or ok for w, (_, _, ok) in zip(whole, shown)]
        tv.evaluate("window.arena.nextPage()")
    assert all(whole), (tv.size, whole)
    text = tv.locator("#extra").inner_text()
    assert "{" not in text and '"' not in text and not any(hero in text for hero in NAMES), text  # no JSON, no ids
    assert tv.errors == [], tv.errors


# [the view's pending, what is awaited, the attack]: kinds the stories do not reach, and one unknown
MADE_UP = [
    ({"attacker": "warlord", "use": "cleave", "targets": ["knight", "assassin", "ogre"], "retaliation": False,
      "rerolls_left": 0, "dice": [{"owner": "attack", "die": "dg-piercing", "face": None, "result": None},
                                  {"owner": "attack", "die": "dg-piercing", "face": None, "result": None},
                                  {"owner": "blacksmith", "die": "dg-piercing", "face": 6, "result": -3}]},
     "the 2 piercing dice", "Warlord attacks Knight, Assassin and Ogre with Cleave · Brokk's defence piercing die: -3"),
    ({"attacker": "knight", "use": "scroll-of-damnation", "targets": ["ogre"], "retaliation": False,
      "rerolls_left": 2, "dice": [{"owner": "attack", "die": "dg-arcane", "face": 2, "result": 2}]},
     "Knight to re-roll 2 dice (attack link) or keep the roll",
     "Knight attacks Ogre with Scroll of Damnation · arcane die: +2"),
    ({"attacker": "warlord", "use": "warlords-scythe", "use_name": "Warlord's Scythe", "targets": ["ogre"],
      "retaliation": False, "rerolls_left": 0,
      "dice": [{"owner": "attack", "die": "dg-slashing", "face": None, "result": None}]},
     "the slashing die", "Warlord attacks Ogre with Warlord's Scythe"),
    ({"kind": "vote", "who": ["Ann", "Bo"]}, "the table to finish this step", None),
]


@pytest.mark.parametrize("pending, awaited, attack", MADE_UP, ids=["three-targets", "two-rerolls", "printed-name", "unknown"])
def test_other_pending_steps_get_words_too(live, browser, pending, awaited, attack):
    """Rendered straight from a made-up view: two dice of a kind, three targets, a defence die rolled,
    two re-rolls left; a step of a kind the panel does not know gets a short phrase, not its JSON."""
    play(live, "demigods-slayer", 10)
    ctx, pg = new_page(browser, 1280, 720)
    try:
        open_tv(pg, live)
        texts = pg.evaluate("""p => {
          const box = document.createElement('div');
          const view = {order: [{id: 'warlord', name: 'Warlord'}, {id: 'blacksmith', name: 'Brokk'}]};
          window.ArenaGames.demigods({pending: p}, box, window.ArenaDom.el, view);
          return [...box.querySelectorAll('p')].map(e => e.textContent);
        }""", pending)
        assert texts == ["Waiting for " + awaited] + ([attack] if attack else [])
        assert pg.errors == [], pg.errors
    finally:
        ctx.close()


def test_next_to_act_and_formations_name_the_characters(live, browser):
    """"Next to act" and the formations name each character as the view's order does (a hero renamed
    with ``hero_stats`` is called by its name, not by its id made a title)."""
    play(live, "demigods-advanced-tactics", 10)
    ctx, pg = new_page(browser, 1280, 720)
    try:
        open_tv(pg, live)
        items = pg.eval_on_selector_all("#extra li", "els => els.map(e => e.textContent)")
        assert "Bo: Nightshade" in items, items  # the Assassin acts next for Bo
        assert "Ann: Sir Kay · Black Wolf · Wayland · Gunner" in items, items
        assert "Bo: Nightshade · Trapper · Elder Thalion · Brokk the Smith" in items, items
        assert pg.errors == [], pg.errors
    finally:
        ctx.close()
