"""Writes the Sword & Sorcery golden transcripts and ``examples/sword-and-sorcery-pvp1.txt``:
``python tests/rules/sword_and_sorcery/make_golden.py``.

One story per PvP quest, from setup to victory through events only, and the 6.5 Battle Phase
example; each file gets the events in notation, the outcome and the state digest. The tests never
run this script: they replay the files and compare. Regenerate only when a rules change is meant
to change these games, and review the diff.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).parent
ROOT = HERE.parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))

from arena_table.rules import apply, digest, find_game, new_table, parse  # noqa: E402
from sns_helpers import EXAMPLE_BOARD, HEROES, RED4  # noqa: E402


def start(**options) -> str:
    return "start game=sword-and-sorcery options=" + json.dumps(options, separators=(",", ":"), sort_keys=True)


def tb(team: str, n: int) -> str:
    return f"sns-roll team={team} red={RED4[n]}"


SHAE = {"id": "shae", "hp": 3, "armor": 0, "defense": 1, "weapons": {"staff": {"red": 1}}}
ARTEMIS = {"id": "artemis", "hp": 6, "armor": 1, "defense": 2, "weapons": {"bow": {"red": 2, "ranged": True}}}

PVP1 = [
    "# PvP Quest I: There Can Be Only One! Two Teams of one Hero, 1 Resurrection token each, Soulrank II",
    start(quest="pvp1", soulrank=2, resurrections=1, heroes={"purple": [SHAE], "red": [ARTEMIS]}),
    'sns-visit visits={"purple":"heroes-hall","red":"talents-guild"}',
    "sns-ready",
    'sns-claim claims={"purple":"a1","red":"a1"}', tb("purple", 2), tb("red", 1),  # Purple wins a1
    'sns-claim claims={"red":"a5"}',
    tb("purple", 1), tb("red", 3),                     # Red deploys first
    "sns-place hero=artemis area=a3", "sns-place hero=shae area=b1",
    # Round 1, Time Phase: a Pitfall on each Location A-D; Ice on b2 Slows Shae in b1 (AoE 1)
    "sns-pitfall number=I location=A", "sns-pitfall number=V location=B", "sns-pitfall number=IV location=C",
    "sns-pitfall number=II location=D", "sns-token token=trap area=a2",
    "sns-battle", tb("purple", 2), tb("red", 1),
    "sns-activate hero=shae", "sns-action hero=shae name=focus", "sns-end-turn",   # Slowed: one Activity
    "sns-activate hero=artemis", "sns-attack who=artemis target=shae weapon=bow",  # ranged, not engaged
    'sns-roll red=["hit+hit","hit"]', 'sns-roll blue=["blank"]', "sns-resolve",   # 3 HP: Shae dies
    "sns-end-turn",
    # Round 2: Shae must reach a Shrine to come back
    "sns-battle", tb("purple", 1), tb("red", 2),
    "sns-activate hero=artemis", "sns-move hero=artemis to=a2", "sns-save hero=artemis ok=false",
    "sns-move hero=artemis to=a1", "sns-end-turn",
    "sns-activate hero=shae", "sns-recall hero=shae to=a1", "sns-end-turn",
    # Round 3: Purple's last token
    "sns-resurrect hero=shae",
    "sns-battle", tb("purple", 2), tb("red", 1),
    "sns-activate hero=shae", "sns-attack who=shae target=artemis weapon=staff", 'sns-roll red=["hit+hit"]',
    'sns-roll blue=["blank"]', "sns-resolve", "sns-end-turn",
    "sns-activate hero=artemis", "sns-attack who=artemis target=shae weapon=bow", 'sns-roll red=["hit+hit","hit+hit"]',
    'sns-roll blue=["shield"]', "sns-resolve",
]

PVP2 = [
    "# PvP Quest II: First Blood. Two Heroes a Team, Day/Night cycle, Pitfalls IX and X on the map",
    start(quest="pvp2", day_night=True, heroes={
        "purple": [SHAE, {"id": "thorgar", "hp": 9, "armor": 2, "defense": 3, "weapons": {"hammer": {"red": 2}}}],
        "red": [{"id": "artemis", "hp": 7, "armor": 1, "defense": 2,
                 "weapons": {"bow": {"red": 2, "blue": 1, "ranged": True}}},
                {"id": "thorgren", "hp": 9, "armor": 2, "defense": 3, "weapons": {"trident": {"red": 1, "blue": 1}}}]}),
    "sns-ready", 'sns-claim claims={"purple":"a1","red":"a5"}', tb("purple", 3), tb("red", 1),
    "sns-place hero=shae area=a2", "sns-place hero=artemis area=a4", "sns-place hero=thorgar area=b1",
    "sns-place hero=thorgren area=b5",
    # Round 1 Time Phase: IX on B turns 360° through a4 and b5 (1 HP each); X on D; Thunder on A Stuns
    # Shae (a2) and Thorgar (b1), adjacent to b2
    "sns-pitfall number=IX location=B", "sns-pitfall number=X location=D", "sns-pitfall number=IV location=A",
    "sns-battle", tb("purple", 1), tb("red", 2),
    "sns-activate hero=thorgren", "sns-move hero=thorgren to=b4", "sns-end-turn",   # IX: c4 -> b3
    "sns-activate hero=shae", "sns-end-turn",                                      # Stunned; IX: b3 -> a4
    "sns-activate hero=artemis", "sns-move hero=artemis to=a3", "sns-move hero=artemis to=a2",
    "sns-attack who=artemis target=shae weapon=bow", 'sns-roll red=["hit+hit","hit"] blue=["hit"]',
    'sns-roll blue=["blank"]', "sns-resolve",
]

PVP3 = [
    "# PvP Quest III: Infernal Deathmatch. Two Kill Coins win; unlimited free resurrections; a Spawn Gate teleport",
    start(quest="pvp3", soulrank=3, kills_to_win=2, heroes={"purple": [dict(SHAE, hp=4)], "red": [dict(ARTEMIS, hp=8)]}),
    "sns-ready", 'sns-claim claims={"purple":"a1","red":"a5"}', tb("purple", 1), tb("red", 3),
    "sns-place hero=artemis area=a3", "sns-place hero=shae area=b1",
    "sns-token token=lava area=c1", "sns-pitfall number=VIII location=E",
    "sns-battle", tb("purple", 3), tb("red", 0),
    "sns-activate hero=shae", "sns-move hero=shae to=c1", "sns-end-turn",          # Lava: Fire I (ACT I)
    "sns-activate hero=artemis", 'sns-teleport hero=artemis face="spawn+gate4"',  # to c1: Shae suffers 3 HP
    "sns-end-turn",
    "sns-battle", tb("purple", 2), tb("red", 1),
    "sns-activate hero=shae", "sns-recall hero=shae to=a1", "sns-end-turn",
    "sns-activate hero=artemis", "sns-move hero=artemis to=b1", "sns-move hero=artemis to=a1", "sns-end-turn",
    "sns-resurrect hero=shae",
    "sns-battle", tb("purple", 1), tb("red", 2),
    "sns-activate hero=artemis", "sns-attack who=artemis target=shae weapon=bow", 'sns-roll red=["hit+hit","hit+hit"]',
    'sns-roll blue=["blank"]', "sns-resolve",
]

EXAMPLE = [
    "# The 6.5 Battle Phase example, Round 1, on a board shaped after it (tests/rules/sword_and_sorcery/sns_helpers.py)",
    start(quest="pvp1", soulrank=2, resurrections=1, heroes=HEROES, board=EXAMPLE_BOARD),
    'sns-visit visits={"purple":"heroes-hall","red":"heroes-hall"}', tb("purple", 3), tb("red", 2), "sns-ready",
    'sns-claim claims={"purple":"p-shrine","red":"r-shrine"}', tb("purple", 1), tb("red", 2),
    "sns-place hero=artemis area=mid", "sns-place hero=shae area=p-room", "sns-place hero=thorgren area=pillar",
    "sns-place hero=thorgar area=p-front",
    "sns-pitfall number=V location=A", "sns-pitfall number=I location=B", "sns-pitfall number=II location=C",
    "sns-pitfall number=IV location=D",
    "sns-battle", tb("purple", 2), tb("red", 1),
    "sns-activate hero=thorgar", "sns-move hero=thorgar to=p-step", "sns-move hero=thorgar to=mid",
    'sns-simultaneous teams=["purple","red"] what="Guard vs Protection Sphere"', tb("purple", 3), tb("red", 2),
    'sns-attack who=artemis target=thorgar weapon=bow mode=power power=Guard reduce={"Protection Sphere":1}',
    'sns-roll red=["hit","hit"] blue=["hit"]', "sns-resolve",
    "sns-attack who=thorgar target=artemis weapon=hammer", 'sns-roll red=["hit+hit","hit"]',
    'sns-roll blue=["shield","blank"]', "sns-resolve", "sns-end-turn",
    "sns-activate hero=artemis", "sns-summon hero=artemis id=dharma name=Dharma area=mid hp=3",
    "sns-move hero=artemis to=p-step", "sns-move hero=artemis to=p-front", "sns-move hero=artemis to=p-shrine",
    "sns-move hero=artemis to=p-room", "sns-attack who=artemis target=shae weapon=bow",
    'sns-roll red=["hit+hit","hit+hit"] blue=["hit"]', 'sns-roll blue=["blank","hit"]', "sns-resolve", "sns-end-turn",
    "sns-activate hero=shae", "sns-recall hero=shae to=r-shrine", "sns-end-turn",
    "sns-activate hero=thorgren", "sns-attack who=thorgren target=thorgar weapon=trident",
    'sns-roll red=["hit+hit"] blue=["blank"]', "sns-resolve", "sns-end-turn",
    "sns-resurrect hero=shae",
]

STORIES = {"pvp2-first-blood": PVP2, "pvp3-infernal-deathmatch": PVP3, "battle-phase-example": EXAMPLE}


def play(lines: list[str]) -> str:
    """The transcript: comments and events as given, then the outcome and the digest."""
    ts, events = new_table(), [line for line in lines if not line.startswith("#")]
    for seq, line in enumerate(events, 1):
        ts = apply(ts, parse(line), seq)
    o = find_game("sword-and-sorcery").outcome(ts.state)
    outcome = json.dumps(None if o is None else {"winners": list(o.winners), "reason": o.reason, "draw": o.draw})
    body = "\n".join(line if line.startswith("#") else str(parse(line)) for line in lines)
    return body + f"\n# outcome: {outcome}\n# digest: {digest(ts)}\n"


if __name__ == "__main__":
    for name, lines in STORIES.items():
        (HERE / "golden" / f"{name}.txt").write_text(play(lines), encoding="utf-8")
    (ROOT / "examples" / "sword-and-sorcery-pvp1.txt").write_text(play(PVP1), encoding="utf-8")
