"""Events the rules refuse, each with a reason that names what was wrong (STYLE.md §5); nothing
refused changes the state."""

from __future__ import annotations

import dataclasses

import pytest

from arena_table.rules import Refused, apply, digest, parse

from sns_helpers import RED4, Table, battle, deployed
from arena_table.rules.games.sword_and_sorcery.state import put

TWO = {"purple": ["shae", "thorgar"], "red": ["artemis", "thorgren"]}


def in_battle() -> Table:
    t = deployed({"quest": "pvp1", "heroes": TWO}, {"shae": "a2", "artemis": "a4", "thorgar": "b1", "thorgren": "b5"})
    return battle(t, ["purple", "red"])


@pytest.mark.parametrize("line, reason", [
    ("sns-activate hero=artemis", "Team purple plays a Hero Turn now"),
    ("sns-activate hero=nobody", "no Hero 'nobody'"),
    ("sns-move hero=shae to=a3", "no Hero Turn is under way"),
    ("sns-place hero=shae area=a1", "sns-place belongs to the deploy phase"),
    ('sns-roll team=purple red=["tiebreaker","tiebreaker","tiebreaker","tiebreaker"]', "no roll is awaited"),
    ('sns-roll red=["sword"]', "unknown die symbol 'sword'"),
    ("sns-resurrect hero=shae", "a Resurrection token is spent in the Time Phase"),
    ("sns-battle", "the Battle Phase follows a Time Phase"),
    ("sns-pitfall number=XI location=A", "a Pitfall is numbered I to X"),
    ("sns-pitfall number=V location=A", "Location A already holds Pitfall 5"),
    ("sns-token token=snow area=a1", "token is trap, lava, lava-off, lava-on or flame"),
    ("sns-condition hero=shae name=frozen", "unknown Body Condition 'frozen'"),
    ("roll die=sns-red faces=[7]", "faces"),
])
def test_refused_with_a_reason(line, reason):
    t = in_battle()
    before = digest(t.ts)
    with pytest.raises(Refused) as err:
        t.do(line)
    assert reason in str(err.value)
    assert digest(t.ts) == before


def test_attacks_refused_by_the_rules():
    t = in_battle()
    t.do("sns-activate hero=shae")
    with pytest.raises(Refused, match="Artemis is not in Shae's area \\(a2\\): its weapon is not ranged"):
        t.do("sns-attack who=shae target=artemis")
    with pytest.raises(Refused, match="Thorgar is not an Opponent of Shae"):
        t.do("sns-attack who=shae target=thorgar")
    with pytest.raises(Refused, match="has no equipped weapon 'bow'"):
        t.do("sns-attack who=shae target=artemis weapon=bow")
    with pytest.raises(Refused, match="names the power or item"):
        t.do("sns-attack who=artemis target=shae mode=power")
    st = put(t.st, dataclasses.replace(t.st.hero("artemis"), area="a2", ghost=True, hp=0))
    t.ts = dataclasses.replace(t.ts, state=st)
    with pytest.raises(Refused, match="Artemis is a Ghost Soul and cannot be attacked"):
        t.do("sns-attack who=shae target=artemis")


def test_a_pending_attack_comes_first():
    t = in_battle()
    st = put(t.st, dataclasses.replace(t.st.hero("artemis"), area="a2"))
    t.ts = dataclasses.replace(t.ts, state=st)
    t.do("sns-activate hero=shae", "sns-attack who=shae target=artemis")
    with pytest.raises(Refused, match="an attack or an Evade is under way"):
        t.do("sns-end-turn")
    with pytest.raises(Refused, match="rolls 1 red and 1 blue|rolls 1 blue"):
        t.do('sns-roll red=["hit"]')
    with pytest.raises(Refused, match="the attack still waits for dice \\(hit\\)"):
        t.do("sns-resolve")


def test_a_game_over_refuses_play():
    t = Table({"quest": "pvp2", "heroes": {"purple": [{"id": "shae", "hp": 1, "armor": 0}], "red": ["artemis"]}})
    t.do("sns-ready", 'sns-claim claims={"purple":"a1","red":"a5"}', f"sns-roll team=purple red={RED4[2]}",
         f"sns-roll team=red red={RED4[1]}", "sns-place hero=shae area=a2", "sns-place hero=artemis area=a3",
         "sns-hp hero=shae amount=1 by=artemis")
    assert t.st.result == (("red",), "first kill: Artemis killed Shae")
    with pytest.raises(Refused, match="the game is over"):
        t.do("sns-battle")
    assert apply(t.ts, parse("note text=gg"), 99).state == t.st
