"""One story per PvP quest from setup to victory through events only (``examples/sword-and-sorcery-pvp1.txt``
and the golden transcripts ``make_golden.py`` wrote), with hand-computed facts; the shared runner
(``tests/rules/test_golden_transcripts.py``) replays each to its digest and outcome."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from arena_table.cli import main
from arena_table.rules.kernel.view import View
from arena_table.rules import (Refused, Undone, apply, digest, find_game, from_json, new_table, parse, replay,
                               table_view, to_json)

HERE = Path(__file__).parent
EXAMPLE = HERE.parents[2] / "examples" / "sword-and-sorcery-pvp1.txt"
FILES = sorted((HERE / "golden").glob("*.txt")) + [EXAMPLE]


def upto(events, line: str) -> list:
    """The events before the first one written ``line``."""
    return events[:events.index(parse(line))]


def load(path: Path):
    events, meta = [], {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("# ") and ": " in line and line[2:].split(":")[0] in ("digest", "outcome"):
            key, _, value = line[2:].partition(": ")
            meta[key] = value
        elif line.strip() and not line.startswith("#"):
            events.append(parse(line))
    return events, meta


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_events_round_trip_through_json_and_views_are_typed(path):
    """The log stores each event's JSON form (``tests/rules/test_golden_transcripts.py`` replays the
    digests); every view along the way is a valid ``View`` (``docs/view-schema.md``)."""
    events, _ = load(path)
    ts = new_table()
    for seq, ev in enumerate(events, 1):
        assert from_json(to_json(ev)) == ev
        ts = apply(ts, ev, seq)
        assert isinstance(find_game("sns").view(ts.state), View)


def test_pvp1_story_last_team_standing():
    events, _ = load(EXAMPLE)
    st = replay(events).state
    assert st.result == (("red",), "all Teams but one are defeated")
    assert st.round == 3 and st.phase == "over"
    # Shae: dead twice (3 hits - 0 Armor - 0 shields; then 4 - 1 shield = 3), Purple's only token spent
    assert st.hero("shae").ghost and st.team("purple").resurrections == 0 and st.team("red").resurrections == 1
    # Artemis: Shae's staff 2 hits - 1 Armor = 1, one Blue Die, no shield: 6 - 1 = 5
    assert st.hero("artemis").hp == 5 and st.hero("artemis").kill_coins == 2
    assert st.board.traps == ()  # the failed Save triggered the Trap in a2 and discarded it
    assert st.team("purple").shrine == "a1" and st.team("red").shrine == "a5"  # Purple won the claim on a1
    # the Ice Pitfall on b2 Slowed Shae in b1 (AoE 1); it went at the end of her Hero Turn
    focus = upto(events, "sns-action hero=shae name=focus")
    assert replay(focus).state.hero("shae").health == 1
    with pytest.raises(Refused, match="Slowed: only a single Activity"):
        apply(replay(focus + [parse("sns-action hero=shae name=focus")]), parse("sns-move hero=shae to=a1"), 99)
    # Round 2: a Ghost Soul away from a Shrine cannot resurrect
    r2 = replay(upto(events, "sns-move hero=artemis to=a2")[:-4])
    assert r2.state.round == 2 and r2.state.phase == "time"
    with pytest.raises(Refused, match="must be in an open Shrine's area"):
        apply(r2, parse("sns-resurrect hero=shae"), 99)
    view = table_view(replay(events))
    assert view["outcome"]["winners"] == ["red"]
    assert {"side": "red", "label": "Kill Coins", "value": 2} in view["view"]["scores"]


def test_pvp1_undo_of_the_killing_blow_reopens_the_game():
    events, _ = load(EXAMPLE)
    records = list(enumerate(events, 1))
    undone = replay(records + [(len(records) + 1, Undone(seq=len(records)))])
    assert undone.state.result is None and undone.state.combat is not None


def test_pvp2_story_first_blood():
    events, _ = load(HERE / "golden" / "pvp2-first-blood.txt")
    st = replay(events).state
    assert st.result == (("red",), "first kill: Artemis killed Shae")
    # Artemis: the Blade of IX at placement (1 HP, ACT I) and again when it turned back into a4
    assert st.hero("artemis").hp == 5 and st.hero("thorgren").hp == 8
    # Thunder on A (b2) Stunned Shae (a2) and Thorgar (b1); Shae's went at the end of her Hero Turn
    assert st.hero("thorgar").health == 3
    assert st.quest.day_night and st.day  # Round 1: Day (Event 4)
    stunned = replay(upto(events, "sns-activate hero=shae") + [parse("sns-activate hero=shae")])
    with pytest.raises(Refused, match="Stunned: no Activities"):
        apply(stunned, parse("sns-move hero=shae to=a3"), 99)


def test_pvp2_grid_refuses_three_teams_and_resurrections():
    with pytest.raises(Refused, match="teams: 3 is not allowed by PvP Quest II"):
        apply(new_table(), parse('start game=sns options={"quest":"pvp2","heroes":{"a":["x"],"b":["y"],"c":["z"]}}'))
    with pytest.raises(Refused, match="resurrections: 1 is not allowed by PvP Quest II"):
        apply(new_table(), parse('start game=sns options={"quest":"pvp2","resurrections":1,"heroes":{"a":["x"],"b":["y"]}}'))


def test_pvp3_story_kill_coins_teleport_and_free_resurrection():
    events, _ = load(HERE / "golden" / "pvp3-infernal-deathmatch.txt")
    st = replay(events).state
    assert st.result == (("red",), "Artemis reached 2 Kill Coins")
    assert st.hero("artemis").kill_coins == 2 and st.kill_log == (("artemis", "shae"), ("artemis", "shae"))
    assert st.team("purple").resurrections == -1  # unlimited, no cost
    # Lava: Fire I (ACT I) on entering c1: 1 HP and a token; the teleport's Soulrank III HP killed her
    before = upto(events, 'sns-teleport hero=artemis face="spawn+gate4"')
    lava = replay(before).state
    assert lava.hero("shae").hp == 3 and lava.hero("shae").fire == (1,)
    with pytest.raises(Refused, match="where Artemis started: reroll"):
        apply(replay(before), parse('sns-teleport hero=artemis face="spawn+gate1"'), 99)


def test_cli_replays_the_example(capsys):
    assert main(["replay", str(EXAMPLE), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    events, meta = load(EXAMPLE)
    assert out["game"] == "sword-and-sorcery" and out["outcome"]["winners"] == ["red"]
    assert out["digest"] == meta["digest"]
