"""replay(log) == live state over whole games played with varied dice, and undo of the last event."""

import random

import pytest

from arena_table.rules import GameStarted, Undone, digest, replay, undo_target

import make_stories
from dg_helpers import Table


@pytest.mark.parametrize("seed", range(4))
def test_replay_equals_live_over_a_whole_game(seed):
    rng = random.Random(seed)

    class Faces(dict):
        def get(self, key, default=None):  # a fresh face for every die, with every effect in play
            return rng.randint(1, 6)

    faces = Faces()
    opts = {"mode": ["slayer", "tactics", "advanced-tactics", "slayer"][seed], "players": ["Ann", "Bo"], "heroes": 4,
            "lineup": {"Ann": {"demigod": "warlord", "heroes": ["knight", "black-wolf", "weaponsmith", "gunner"],
                               "items": ["elemental-sword"]},
                       "Bo": {"demigod": "protector", "heroes": ["trapper", "high-elder", "blacksmith", "assassin"],
                              "items": ["frost-staff"]}}}
    t = Table({}, start=False).do(str(GameStarted(game="demigods", options=opts)))
    t = make_stories.play(t, faces, minions=True)
    assert t.st.result is not None
    assert t.replayed_digest() == t.digest
    seq, _ = undo_target(t.records)
    undone = replay(t.records + [(t.records[-1][0] + 1, Undone(seq=seq))])
    assert undone.state.result is None
    assert digest(undone) != t.digest
