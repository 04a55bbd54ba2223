"""Writes the Euthia golden transcripts and ``examples/euthia-*.txt``: ``python tests/rules/euthia/make_golden.py``.

Each story is a list of events in notation, played on a live table; the file gets the events,
the outcome and the state digest. The tests never run this script: they replay the files and
compare. Regenerate only when a rules change is meant to change these games, and review the diff.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).parent
ROOT = HERE.parents[2]
sys.path.insert(0, str(ROOT))

from arena_table.rules import apply, digest, find_game, new_table, parse  # noqa: E402

DIE = [["blank"], ["gaar"], ["silver"], ["chaos"], ["chaos", "chaos"], ["gaar", "chaos"]]
"""Combat-die faces as entered for these games (a base-game value, to enter)."""
CARDS = {
    "shadowbeast": {"gaar": 2, "chaos": 1, "health": 8, "silver": 0, "gold": 0,
                    "attacks": [{"min": 2, "injuries": 1}, {"min": 6, "injuries": 2}, {"min": 10, "injuries": 3}],
                    "reward": {"gold": 3, "reputation": 2}},
    "gecko": {"gaar": 0, "chaos": 1, "health": 5, "silver": 0, "gold": 0,
              "attacks": [{"min": 2, "injuries": 1}, {"min": 6, "injuries": 2, "effects": {"silver": 2}},
                          {"min": 9, "injuries": 3}], "reward": {"gold": 1, "reputation": 1}},
    "goblin-archer": {"gaar": 1, "chaos": 0, "health": 4, "silver": 1, "gold": 0,
                      "attacks": [{"min": 2, "injuries": 1}, {"min": 8, "injuries": 2, "effects": {"heal": 1}}],
                      "reward": {"gold": 2, "reputation": 1}},
}
"""Monster cards as a table would enter them for these games (the book prints none)."""


def start(**options) -> str:
    options.setdefault("combat_die", DIE)
    options.setdefault("monsters", CARDS)
    return "start game=euthia options=" + json.dumps(options, separators=(",", ":"), sort_keys=True,
                                                     ensure_ascii=False)


FIRE = [
    start(heroes={"ael": {"health": 12, "gaar": 1}}, difficulty="hard", silver=2, gold=3),
    'eu-combat enemies=["shadowbeast"] heroes=["ael"] power=air',
    "eu-hero-roll hero=ael weapon=elven-sword", "roll die=eu-hero faces=[4,3]", "eu-damage hero=ael amount=1",
    "eu-monster-attack target=ael",
    "roll die=eu-monster faces=[2,5]",          # Air: the 5 turns to 2
    "roll die=eu-combat faces=[6]",             # Gaar + Chaos: one Chaos Action from the Gold cache
    "eu-reveal card=power-strike", "eu-reveal card=power-strike", "eu-reveal card=healing",
    "roll die=eu-monster faces=[6]",            # the Gaar re-roll of a tied 2
    "eu-tile hero=ael tile=prayer choice=hope",
    "eu-tile hero=ael tile=scroll-of-weakness value=1",   # 9: below 10 again, the loop restarts
    "roll die=eu-monster faces=[5]",
    "eu-done",
    "eu-hero-roll hero=ael weapon=elven-sword", "roll die=eu-hero faces=[5,4]", "eu-damage hero=ael amount=3",
    "eu-monster-attack target=ael", "roll die=eu-attack faces=[4,4,3]", "eu-done",
    "eu-hero-roll hero=ael weapon=elven-sword", "roll die=eu-hero faces=[6,6]", "eu-damage hero=ael amount=4",
    'eu-end won=true reason="the scenario goal is reached"',
]
"""Playing with Fire: a Combat against the Shadowbeast on an Air hex."""

FELLOWSHIP = [
    start(mode="fellowship", heroes={"ael": {"player": "Ann"}, "dral": {"player": "Bo"},
                                     "maeldur": {"player": "Cy"}}, leader="ael", gold=1),
    'eu-round card={"tier":"I","exchange":6,"health":1,"injuries":1,"silver":1,"gaar":1,"enemy":"1",'
    '"reward":{"gold":2}}',
    'eu-exchange giver=dral gifts={"maeldur":4,"ael":2}',
    "eu-move-token hero=maeldur",
    'eu-combat enemies=["gecko","goblin-archer"] heroes=["ael","dral"]',
    "eu-monster-attack enemy=0 target=dral", "roll die=eu-attack faces=[3,4,4]",
    "eu-reveal card=power-strike", "roll die=eu-monster faces=[5]", "eu-done",
    "eu-monster-attack enemy=1 target=ael", "roll die=eu-attack faces=[1,2,1]", "roll die=eu-monster faces=[6]",
    "eu-done",
    "eu-hero-roll hero=dral weapon=rusty-cleaver", "roll die=eu-hero faces=[5,5]", "eu-damage hero=dral amount=6",
    "eu-hero-roll hero=ael weapon=elven-sword", "roll die=eu-hero faces=[3,3]",
    "eu-damage hero=ael amount=2 target=\"1\"",
    "eu-monster-attack enemy=1 target=dral", "roll die=eu-attack faces=[2,2,1]",
    "eu-done",
    'eu-odd odd={"gold":"dral","reputation":"ael"}',
    "eu-hero-roll hero=ael weapon=elven-sword", "roll die=eu-hero faces=[6,5]", "eu-damage hero=ael amount=3 target=\"1\"",
    "eu-quest hero=ael",
    'eu-round card={"tier":"I","exchange":3,"enemy":"area"}',
    "eu-death hero=maeldur",
    'eu-end won=true reason="Silver Winning Level"',
]
"""Fellowship, 3 players: round 1 with an exchange and a joint Combat, round 2 begins."""

STORIES = {"fire-shadowbeast": FIRE, "fellowship-3p": FELLOWSHIP}


def play(lines: list[str]) -> str:
    ts = new_table()
    for line in lines:
        ts = apply(ts, parse(line))
        print(f"  {ts.seq:>3} {ts.log[-1].text if ts.log and ts.log[-1].seq == ts.seq else ''}")
    o = find_game("euthia").outcome(ts.state)
    outcome = json.dumps({"winners": list(o.winners), "reason": o.reason, "draw": o.draw}) if o else "null"
    return "\n".join(str(parse(line)) for line in lines) + f"\n# outcome: {outcome}\n# digest: {digest(ts)}\n"


if __name__ == "__main__":
    for name, lines in STORIES.items():
        print(name)
        text = play(lines)
        (HERE / "golden" / f"{name}.txt").write_text(text, encoding="utf-8")
    for name, lines in STORIES.items():
        (ROOT / "examples" / f"euthia-{name}.txt").write_text(play(lines), encoding="utf-8")
