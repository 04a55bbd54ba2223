"""One story per victory condition, played from setup to the end through events in notation only
(``examples/demigods-*.txt``); their digests are checked by ``tests/rules/test_golden_transcripts.py``.

The facts asserted were worked out by hand from the transcripts and the rulebook's rules
(damage arithmetic p.23, tactical points p.4, Slayer consequences p.4).
"""

import json
from pathlib import Path

from arena_table.rules import Undone, apply, digest, parse, replay, table_view
from arena_table.cli import main
from arena_table.table.log import read_jsonl

ROOT = Path(__file__).resolve().parents[3]
GOLDEN = Path(__file__).parent / "golden"


def story(name: str):
    with open(ROOT / "examples" / f"demigods-{name}.txt", encoding="utf-8") as fp:
        records = read_jsonl(fp, source=name)
    return records, replay(records)


def test_slayer_story():
    records, ts = story("slayer")
    st = ts.state
    assert st.result == (("Ann",), "slew every opposing hero")
    assert [c.id for c in st.chars.values() if c.player == "Bo" and c.kind == "hero" and c.alive] == []
    assert st.chars["protector"].out == "left in shame"  # p.4: no heroes left, the Demigod leaves
    # Warlord: the Blacksmith's Retaliation 6 + Critical 4 = 10 - physical defense 2 = 8 wounds.
    assert st.chars["warlord"].health_left == 50 - 8
    # Knight: Retaliation 10 - (4 + Deflect 2) = 4, then the Ogre's 11 - 4 = 7.
    assert st.chars["knight"].health_left == 40 - 4 - 7
    assert table_view(ts)["outcome"] == {"winners": ["Ann"], "reason": "slew every opposing hero", "draw": False}
    # Taking back the killing roll reopens the game.
    undone = replay(records + [(records[-1][0] + 1, Undone(seq=records[-1][0]))])
    assert undone.state.result is None and undone.state.pending is not None


def test_slayer_demigod_falling_scatters_its_heroes():
    """p.4: 'if a Demigod falls, their heroes will scatter from the battle'."""
    records, _ = story("slayer")
    ts = apply(replay(records[:1]), parse("dg-wound who=protector amount=50"), 2)
    st = ts.state
    assert st.chars["protector"].out == "slain"
    assert {st.chars[h].out for h in ("trapper", "blacksmith", "ogre")} == {"scattered"}
    assert st.result == (("Ann",), "slew every opposing hero")


def test_tactics_story_with_chieftain_selection():
    records, ts = story("tactics")
    st = ts.state
    assert st.picks == (("Bo", "trapper"), ("Ann", "knight"), ("Ann", "black-wolf"), ("Bo", "blacksmith"),
                        ("Bo", "assassin"), ("Ann", "weaponsmith"), ("Ann", "high-elder"), ("Bo", "gunner"))
    assert st.formations["Ann"] == ("knight", "black-wolf", "high-elder", "weaponsmith")
    # Ann: Assassin (rogue 2) + Gunner (archer 2) + Trapper (archer 2); Bo: two mages (1 + 1) + Weaponsmith (3).
    assert dict(st.points) == {"Ann": 6, "Bo": 5}
    assert st.result == (("Ann",), "reached 6 tactical points")
    view = table_view(ts)["view"]
    assert view["scores"] == [{"side": "Ann", "label": "Tactical points", "value": 6, "max": 6},
                              {"side": "Bo", "label": "Tactical points", "value": 5, "max": 6}]


def test_advanced_tactics_story_minions_score():
    records, ts = story("advanced-tactics")
    st = ts.state
    scored = {p: sum(1 for c in st.chars.values() if c.kind == "minion" and c.player == p and c.out == "scored")
              for p in ("Ann", "Bo")}
    assert scored == {"Ann": 2, "Bo": 3}
    # Bo: 3 minions + Black Wolf (mage 1) + Gunner (archer 2); Ann: 2 minions + High Elder 1 + Assassin 2.
    assert dict(st.points) == {"Ann": 5, "Bo": 6}
    assert st.result == (("Bo",), "reached 6 tactical points")


def test_cli_replays_the_tactics_example(capsys):
    assert main(["replay", str(ROOT / "examples" / "demigods-tactics.txt"), "--game", "demigods", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["game"] == "demigods" and out["outcome"]["winners"] == ["Ann"]
    assert out["view"]["order_title"] == "Activation order"
    _, ts = story("tactics")
    assert out["digest"] == digest(ts)


def test_nobody_is_next_once_the_game_is_over():
    """A new user's audit: a finished Advanced Tactics game still showed "Bo's minions — Next"."""
    _, ts = story("advanced-tactics")
    view = table_view(ts)
    assert view["outcome"] and not any(e.get("next") for e in view["view"]["order"])


def test_characters_slain_by_attacks_keep_wounds_equal_to_health():
    """'Wounds': a lethal attack removes the character; its wounds read health/health, never more."""
    records = read_jsonl(iter((GOLDEN / "slayer.txt").read_text(encoding="utf-8").splitlines()), source="slayer")
    st = replay(records).state
    slain = [c for c in st.chars.values() if c.out == "slain"]
    assert slain and all(c.wounds == c.health for c in slain)
